/* Device placement: this runtime's devices are the local CPUs (one, or as many as
 * ConfigProto.device_count["CPU"] asks for; all run on the same host threads), so a node
 * whose requested device names anything else fails to place, as TensorFlow's placer
 * reports it, unless ConfigProto.allow_soft_placement lets it fall back to a CPU. */
#include "runtime/placement.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "runtime/status.h"

#define LOCAL_CPU "/job:localhost/replica:0/task:0/device:CPU:"

static int is_zero(const char* s, size_t n) { return n == 1 && s[0] == '0'; }

/* 1 when `s` (length n) is "*" or a decimal index below `count`. */
static int index_ok(const char* s, size_t n, int count) {
  if (n == 1 && s[0] == '*') return 1;
  if (n == 0 || n > 9) return 0;
  long v = 0;
  for (size_t k = 0; k < n; k++) {
    if (!isdigit((unsigned char)s[k])) return 0;
    v = v * 10 + (s[k] - '0');
  }
  return v < count;
}

static int starts(const char* s, size_t n, const char* prefix) {
  size_t k = strlen(prefix);
  return n >= k && strncasecmp(s, prefix, k) == 0;
}

/* One "/"-separated part of a device name: job:, replica:, task:, device:TYPE:N or the
 * legacy TYPE:N. Returns 1 when it can name the local CPU. */
static int part_ok(const char* s, size_t n, int cpus) {
  if (n == 0) return 1;
  if (starts(s, n, "job:")) return n - 4 == 9 && strncmp(s + 4, "localhost", 9) == 0;
  if (starts(s, n, "replica:")) return is_zero(s + 8, n - 8);
  if (starts(s, n, "task:")) return is_zero(s + 5, n - 5);
  if (starts(s, n, "device:")) {
    s += 7;
    n -= 7;
  }
  if (starts(s, n, "cpu")) {
    if (n == 3) return 1;
    return s[3] == ':' && index_ok(s + 4, n - 4, cpus);
  }
  return 0;
}

int mt_device_is_local(const char* device, int cpus) {
  if (!device) return 1;
  const char* p = device;
  while (*p) {
    if (*p == '/') {
      p++;
      continue;
    }
    size_t n = strcspn(p, "/");
    if (!part_ok(p, n, cpus)) return 0;
    p += n;
  }
  return 1;
}

/* "/job:localhost/replica:0/task:0/device:CPU:0, ..." for `cpus` devices (malloc'd). */
static char* device_list(int cpus) {
  size_t each = sizeof LOCAL_CPU + 12;
  char* out = malloc(each * (size_t)cpus + 1);
  if (!out) return NULL;
  char* p = out;
  for (int k = 0; k < cpus; k++) p += sprintf(p, "%s" LOCAL_CPU "%d", k ? ", " : "", k);
  return out;
}

int mt_check_device(const char* node, const char* device, int cpus, TF_Status* s) {
  if (mt_device_is_local(device, cpus)) return 1;
  char* list = device_list(cpus);
  mt_status_setf(s, TF_INVALID_ARGUMENT,
                 "Cannot assign a device for operation %s: {{node %s}} was explicitly assigned "
                 "to %s but available devices are [ %s ]. Make sure the device specification "
                 "refers to a valid device.",
                 node, node, device, list ? list : LOCAL_CPU "0");
  free(list);
  return 0;
}
