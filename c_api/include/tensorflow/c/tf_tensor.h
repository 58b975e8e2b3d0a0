/* TF_Tensor: a typed, shaped, reference-counted block of memory. */
#ifndef TENSORFLOW_C_TF_TENSOR_H_
#define TENSORFLOW_C_TF_TENSOR_H_

#include <stdint.h>
#include <stddef.h>
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Tensors are row-major; TF_STRING tensors hold TF_TString elements. */
typedef struct TF_Tensor TF_Tensor;

/* Returns a new tensor of type `dtype` and shape `dims[0, num_dims)` that
 * wraps `data[0, len)` without copying. When the last reference to the data
 * goes (the tensor and any tensors the runtime derived from it), the runtime
 * calls `deallocator(data, len, deallocator_arg)` exactly once (it is called
 * at once if this function fails). Returns NULL if `len` is too small for the
 * shape. The caller owns the result; free it with TF_DeleteTensor. */
TF_CAPI_EXPORT extern TF_Tensor* TF_NewTensor(
    TF_DataType dtype, const int64_t* dims, int num_dims, void* data, size_t len,
    void (*deallocator)(void* data, size_t len, void* arg), void* deallocator_arg);

/* Returns a new tensor with a fresh 64-byte-aligned buffer of `len` bytes
 * (uninitialized, except TF_STRING elements, which start empty). Returns NULL
 * on a bad shape or when memory is exhausted. Caller frees with TF_DeleteTensor. */
TF_CAPI_EXPORT extern TF_Tensor* TF_AllocateTensor(TF_DataType dtype, const int64_t* dims,
                                                   int num_dims, size_t len);

/* Drops this handle; the buffer is freed with its last reference. NULL ok. */
TF_CAPI_EXPORT extern void TF_DeleteTensor(TF_Tensor* tensor);

TF_CAPI_EXPORT extern TF_DataType TF_TensorType(const TF_Tensor* tensor);
TF_CAPI_EXPORT extern int TF_NumDims(const TF_Tensor* tensor);
/* Size of dimension `dim_index`; requires 0 <= dim_index < TF_NumDims. */
TF_CAPI_EXPORT extern int64_t TF_Dim(const TF_Tensor* tensor, int dim_index);
TF_CAPI_EXPORT extern size_t TF_TensorByteSize(const TF_Tensor* tensor);
/* Pointer to the tensor's bytes, owned by the tensor. */
TF_CAPI_EXPORT extern void* TF_TensorData(const TF_Tensor* tensor);
/* Product of the dimensions (1 for a scalar). */
TF_CAPI_EXPORT extern int64_t TF_TensorElementCount(const TF_Tensor* tensor);
/* 1 if the data pointer is 64-byte aligned (TensorFlow's EIGEN_MAX_ALIGN_BYTES). */
TF_CAPI_EXPORT extern int TF_TensorIsAligned(const TF_Tensor* tensor);

/* Returns `tensor` if it is the only reference to a buffer the runtime
 * allocated, so its memory may be handed over (e.g. to a NumPy array)
 * without a copy and written to; NULL otherwise (shared with a constant, a
 * variable, a fed buffer or another handle). Ownership is unchanged. */
TF_CAPI_EXPORT extern TF_Tensor* TF_TensorMaybeMove(TF_Tensor* tensor);

/* Sets `to` to share `from`'s buffer with shape `new_dims`; fails with
 * TF_INVALID_ARGUMENT when element counts or types differ. */
TF_CAPI_EXPORT extern void TF_TensorBitcastFrom(const TF_Tensor* from, TF_DataType type,
                                                TF_Tensor* to, const int64_t* new_dims,
                                                int num_new_dims, TF_Status* status);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_TF_TENSOR_H_ */
