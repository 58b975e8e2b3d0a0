/* TF_SessionListDevices and the TF_DeviceList accessors: a minitf session's devices are
 * host CPUs (one, or ConfigProto.device_count["CPU"]), named and described as TensorFlow's
 * DirectSession lists its CPUs. */
#include <stdio.h>
#include <stdlib.h>

#include "runtime/session.h"
#include "runtime/status.h"
#include "tensorflow/c/c_api.h"

#define CPU_NAME_LEN 64

struct TF_DeviceList {
  int n;
  uint64_t* incarnation; /* n entries */
  char (*names)[CPU_NAME_LEN];
};

/* TF's CPU device attributes: 256 MiB memory limit, a random non-zero incarnation. */
#define CPU_MEMORY_BYTES ((int64_t)268435456)

/* A device's incarnation stays the same for the session's life, as TF's device objects
 * do: a splitmix64 step of the session's random seed and the device index, never 0. */
static uint64_t incarnation_of(uint64_t seed, int k) {
  uint64_t z = seed + 0x9E3779B97F4A7C15ull * (uint64_t)(k + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return z ? z : 1;
}

TF_DeviceList* TF_SessionListDevices(TF_Session* session, TF_Status* status) {
  if (!session) {
    mt_status_setf(status, TF_INVALID_ARGUMENT, "session is null!");
    return NULL;
  }
  int n = session->opts.cpu_devices > 0 ? session->opts.cpu_devices : 1;
  TF_DeviceList* l = calloc(1, sizeof *l);
  if (l) {
    l->incarnation = calloc((size_t)n, sizeof *l->incarnation);
    l->names = calloc((size_t)n, sizeof *l->names);
  }
  if (!l || !l->incarnation || !l->names) {
    TF_DeleteDeviceList(l);
    mt_status_setf(status, TF_RESOURCE_EXHAUSTED, "Out of memory");
    return NULL;
  }
  l->n = n;
  for (int k = 0; k < n; k++) {
    snprintf(l->names[k], CPU_NAME_LEN, "/job:localhost/replica:0/task:0/device:CPU:%d", k);
    l->incarnation[k] = incarnation_of(session->device_seed, k);
  }
  TF_SetStatus(status, TF_OK, "");
  return l;
}

void TF_DeleteDeviceList(TF_DeviceList* list) {
  if (!list) return;
  free(list->incarnation);
  free(list->names);
  free(list);
}

int TF_DeviceListCount(const TF_DeviceList* list) { return list ? list->n : 0; }

/* TF's checks, in its words. */
static int check_index(const TF_DeviceList* list, int index, TF_Status* status) {
  if (!list) {
    mt_status_setf(status, TF_INVALID_ARGUMENT, "list is null!");
    return 0;
  }
  if (index < 0 || index >= list->n) {
    mt_status_setf(status, TF_INVALID_ARGUMENT, "index out of bounds");
    return 0;
  }
  TF_SetStatus(status, TF_OK, "");
  return 1;
}

const char* TF_DeviceListName(const TF_DeviceList* list, int index, TF_Status* status) {
  return check_index(list, index, status) ? list->names[index] : NULL;
}

const char* TF_DeviceListType(const TF_DeviceList* list, int index, TF_Status* status) {
  return check_index(list, index, status) ? "CPU" : NULL;
}

int64_t TF_DeviceListMemoryBytes(const TF_DeviceList* list, int index, TF_Status* status) {
  return check_index(list, index, status) ? CPU_MEMORY_BYTES : -1;
}

uint64_t TF_DeviceListIncarnation(const TF_DeviceList* list, int index, TF_Status* status) {
  return check_index(list, index, status) ? list->incarnation[index] : 0;
}
