/* TF_Status: the outcome of a C API call, as in TensorFlow's tf_status.h. */
#ifndef TENSORFLOW_C_TF_STATUS_H_
#define TENSORFLOW_C_TF_STATUS_H_

#include "tensorflow/c/tf_datatype.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TF_Status TF_Status;

/* Error codes; values match TensorFlow's error_codes.proto. */
typedef enum TF_Code {
  TF_OK = 0,
  TF_CANCELLED = 1,
  TF_UNKNOWN = 2,
  TF_INVALID_ARGUMENT = 3,
  TF_DEADLINE_EXCEEDED = 4,
  TF_NOT_FOUND = 5,
  TF_ALREADY_EXISTS = 6,
  TF_PERMISSION_DENIED = 7,
  TF_UNAUTHENTICATED = 16,
  TF_RESOURCE_EXHAUSTED = 8,
  TF_FAILED_PRECONDITION = 9,
  TF_ABORTED = 10,
  TF_OUT_OF_RANGE = 11,
  TF_UNIMPLEMENTED = 12,
  TF_INTERNAL = 13,
  TF_UNAVAILABLE = 14,
  TF_DATA_LOSS = 15,
} TF_Code;

/* Returns a new status object, initially TF_OK. The caller owns it and frees
 * it with TF_DeleteStatus. A status must not be shared between threads. */
TF_CAPI_EXPORT extern TF_Status* TF_NewStatus(void);

/* Frees `s` (NULL is allowed). */
TF_CAPI_EXPORT extern void TF_DeleteStatus(TF_Status* s);

/* Records `code` and a copy of `msg` in `s`. A TF_OK code clears the message. */
TF_CAPI_EXPORT extern void TF_SetStatus(TF_Status* s, TF_Code code, const char* msg);

/* The code recorded in `s`. */
TF_CAPI_EXPORT extern TF_Code TF_GetCode(const TF_Status* s);

/* The message recorded in `s` ("" when OK). The pointer is owned by `s` and
 * valid until the next change to `s` or its deletion. */
TF_CAPI_EXPORT extern const char* TF_Message(const TF_Status* s);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_TF_STATUS_H_ */
