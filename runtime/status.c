/* TF_Status and small allocation helpers. */
#include "runtime/status.h"

#include <errno.h>
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

TF_Code mt_errno_code(int err) {
  switch (err) {
    case 0: return TF_OK;
    case EINVAL: case ENAMETOOLONG: case E2BIG: case EDESTADDRREQ: case EDOM: case EFAULT:
    case EILSEQ: case ENOPROTOOPT: case ENOTSOCK: case ENOTTY: case EPROTOTYPE: case ESPIPE:
      return TF_INVALID_ARGUMENT;
    case ETIMEDOUT: return TF_DEADLINE_EXCEEDED;
    case ENODEV: case ENOENT: case ENXIO: case ESRCH: return TF_NOT_FOUND;
    case EEXIST: case EADDRNOTAVAIL: case EALREADY: return TF_ALREADY_EXISTS;
    case EPERM: case EACCES: case EROFS: return TF_PERMISSION_DENIED;
    case ENOTEMPTY: case EISDIR: case ENOTDIR: case EADDRINUSE: case EBADF: case EBUSY:
    case ECHILD: case EISCONN: case ENOTBLK: case ENOTCONN: case EPIPE: case ESHUTDOWN:
    case ETXTBSY:
      return TF_FAILED_PRECONDITION;
    case ENOSPC: case EDQUOT: case EMFILE: case EMLINK: case ENFILE: case ENOBUFS:
    case ENOMEM: case EUSERS:
      return TF_RESOURCE_EXHAUSTED;
    case EFBIG: case EOVERFLOW: case ERANGE: return TF_OUT_OF_RANGE;
    case ENOSYS: case ENOTSUP: case EAFNOSUPPORT: case EPFNOSUPPORT: case EPROTONOSUPPORT:
    case ESOCKTNOSUPPORT: case EXDEV:
      return TF_UNIMPLEMENTED;
    case EAGAIN: case ECONNREFUSED: case ECONNABORTED: case ECONNRESET: case EINTR:
    case EHOSTDOWN: case EHOSTUNREACH: case ENETDOWN: case ENETRESET: case ENETUNREACH:
    case ENOLCK: case ENOLINK:
      return TF_UNAVAILABLE;
    case EDEADLK: case ESTALE: return TF_ABORTED;
    case ECANCELED: return TF_CANCELLED;
    default: return TF_UNKNOWN;
  }
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
