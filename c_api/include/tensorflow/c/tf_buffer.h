/* TF_Buffer: a block of bytes, usually a serialized protocol buffer. */
#ifndef TENSORFLOW_C_TF_BUFFER_H_
#define TENSORFLOW_C_TF_BUFFER_H_

#include <stddef.h>
#include "tensorflow/c/tf_datatype.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TF_Buffer {
  const void* data;
  size_t length;
  /* Called by TF_DeleteBuffer with `data` and `length`; NULL if the buffer
   * does not own `data`. */
  void (*data_deallocator)(void* data, size_t length);
} TF_Buffer;

/* Returns a new buffer holding a copy of `proto[0, proto_len)`. Caller frees
 * it with TF_DeleteBuffer. Returns NULL if memory is exhausted. */
TF_CAPI_EXPORT extern TF_Buffer* TF_NewBufferFromString(const void* proto, size_t proto_len);

/* Returns a new, empty buffer. Caller frees it with TF_DeleteBuffer. */
TF_CAPI_EXPORT extern TF_Buffer* TF_NewBuffer(void);

/* Calls the buffer's data_deallocator (if any) and frees `buffer` (NULL ok). */
TF_CAPI_EXPORT extern void TF_DeleteBuffer(TF_Buffer* buffer);

/* Returns a copy of the struct `*buffer` (the data is not copied). */
TF_CAPI_EXPORT extern TF_Buffer TF_GetBuffer(TF_Buffer* buffer);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_TF_BUFFER_H_ */
