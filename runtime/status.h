/* TF_Status internals and error helpers shared by the whole runtime. */
#ifndef MINITF_RUNTIME_STATUS_H_
#define MINITF_RUNTIME_STATUS_H_

#include "tensorflow/c/tf_status.h"

struct TF_Status {
  TF_Code code;
  char* msg; /* heap string or NULL (= "") */
};

/* Sets `s` to `code` with a printf-formatted message. */
void mt_status_setf(TF_Status* s, TF_Code code, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prepends "prefix" to the message of a non-OK status (keeps the code). */
void mt_status_prefix(TF_Status* s, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends to the message of a non-OK status (keeps the code). */
void mt_status_append(TF_Status* s, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

/* The TF_Code TensorFlow gives a failed system call's errno (its ErrnoToCode): ENOENT
 * NotFound, EACCES PermissionDenied, ENOTDIR/EISDIR FailedPrecondition, ENOSPC
 * ResourceExhausted, ...; Unknown for the rest. */
TF_Code mt_errno_code(int err);

/* Copies code and message of `src` into `dst`. */
void mt_status_copy(TF_Status* dst, const TF_Status* src);

static inline int mt_ok(const TF_Status* s) { return s->code == TF_OK; }

/* Aborting allocation helpers are never used: every allocation failure is
 * reported. These return NULL and set TF_RESOURCE_EXHAUSTED on failure. */
void* mt_malloc(size_t n, TF_Status* s);
void* mt_calloc(size_t count, size_t size, TF_Status* s);
char* mt_strdup(const char* str);
char* mt_strndup(const char* str, size_t n);

#endif
