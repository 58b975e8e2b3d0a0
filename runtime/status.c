/* TF_Status and small allocation helpers. */
#include "runtime/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char* vformat(const char* fmt, va_list ap) {
  char* out = NULL;
  if (vasprintf(&out, fmt, ap) < 0) return NULL;
  return out;
}

void mt_status_setf(TF_Status* s, TF_Code code, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char* msg = vformat(fmt, ap);
  va_end(ap);
  free(s->msg);
  s->msg = msg;
  s->code = code;
}

static void join_message(TF_Status* s, const char* add, int before) {
  if (!add) return;
  const char* cur = s->msg ? s->msg : "";
  char* out = NULL;
  if (asprintf(&out, "%s%s", before ? add : cur, before ? cur : add) < 0) return;
  free(s->msg);
  s->msg = out;
}

void mt_status_prefix(TF_Status* s, const char* fmt, ...) {
  if (s->code == TF_OK) return;
  va_list ap;
  va_start(ap, fmt);
  char* add = vformat(fmt, ap);
  va_end(ap);
  join_message(s, add, 1);
  free(add);
}

void mt_status_append(TF_Status* s, const char* fmt, ...) {
  if (s->code == TF_OK) return;
  va_list ap;
  va_start(ap, fmt);
  char* add = vformat(fmt, ap);
  va_end(ap);
  join_message(s, add, 0);
  free(add);
}

void mt_status_copy(TF_Status* dst, const TF_Status* src) {
  if (dst == src) return;
  free(dst->msg);
  dst->code = src->code;
  dst->msg = src->msg ? strdup(src->msg) : NULL;
}

void* mt_malloc(size_t n, TF_Status* s) {
  void* p = malloc(n ? n : 1);
  if (!p && s) mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM when allocating %zu bytes", n);
  return p;
}

void* mt_calloc(size_t count, size_t size, TF_Status* s) {
  void* p = calloc(count ? count : 1, size ? size : 1);
  if (!p && s)
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM when allocating %zu x %zu bytes", count, size);
  return p;
}

char* mt_strdup(const char* str) { return str ? strdup(str) : NULL; }

char* mt_strndup(const char* str, size_t n) {
  char* p = malloc(n + 1);
  if (!p) return NULL;
  memcpy(p, str, n);
  p[n] = '\0';
  return p;
}
