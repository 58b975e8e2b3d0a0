/* TF_TString: the element type of TF_STRING tensors, as in TensorFlow's
 * tf_tstring.h. A 24-byte struct holding short strings inline and longer
 * ones on the heap; use only the functions below to read or write it. */
#ifndef TENSORFLOW_C_TF_TSTRING_H_
#define TENSORFLOW_C_TF_TSTRING_H_

#include <stddef.h>
#include <stdint.h>
#include "tensorflow/c/tf_datatype.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum TF_TString_Type {
  TF_TSTR_SMALL = 0x00,
  TF_TSTR_LARGE = 0x01,
  TF_TSTR_OFFSET = 0x02,
  TF_TSTR_VIEW = 0x03,
  TF_TSTR_TYPE_MASK = 0x03
} TF_TString_Type;

typedef struct TF_TString_Large { size_t size; size_t cap; char* ptr; } TF_TString_Large;
typedef struct TF_TString_View { size_t size; const char* ptr; } TF_TString_View;
typedef struct TF_TString_Small {
  uint8_t size;
  char str[sizeof(TF_TString_Large) - sizeof(uint8_t)];
} TF_TString_Small;

/* `size` fields hold (length << 2) | type, as TensorFlow lays them out on
 * little-endian machines. */
typedef struct TF_TString {
  union {
    TF_TString_Small smll;
    TF_TString_Large large;
    TF_TString_View view;
  } u;
} TF_TString;

/* Initializes `t` to the empty string. Must precede any other call on `t`. */
TF_CAPI_EXPORT extern void TF_StringInit(TF_TString* t);

/* Replaces the contents of `dst` with a copy of `src[0, size)`. `src` may hold
 * NUL bytes. Frees any heap memory `dst` held. */
TF_CAPI_EXPORT extern void TF_StringCopy(TF_TString* dst, const char* src, size_t size);

/* Makes `dst` a view of `src[0, size)` without copying; the caller keeps
 * `src` alive while `dst` is used. */
TF_CAPI_EXPORT extern void TF_StringAssignView(TF_TString* dst, const char* src, size_t size);

/* Pointer to the bytes of `t` (not NUL-terminated in general); owned by `t`. */
TF_CAPI_EXPORT extern const char* TF_StringGetDataPointer(const TF_TString* t);

/* How `t` stores its bytes. */
TF_CAPI_EXPORT extern TF_TString_Type TF_StringGetType(const TF_TString* t);

/* Length of `t` in bytes. */
TF_CAPI_EXPORT extern size_t TF_StringGetSize(const TF_TString* t);

/* Bytes `t` can hold without reallocating. */
TF_CAPI_EXPORT extern size_t TF_StringGetCapacity(const TF_TString* t);

/* Frees heap memory held by `t`; `t` must be re-initialized before reuse. */
TF_CAPI_EXPORT extern void TF_StringDealloc(TF_TString* t);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_TF_TSTRING_H_ */
