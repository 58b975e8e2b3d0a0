/* Helpers shared by the container op families (TensorList in list_ops.c,
 * TensorArray in tensor_array_ops.c, Stack in stack_ops.c): partial shapes
 * read from shape tensors, shape merging in TensorFlow's words, and copying
 * rows of tensors of any dtype in and out of stacked tensors. */
#ifndef MINITF_RUNTIME_KERNELS_CONTAINER_UTIL_H_
#define MINITF_RUNTIME_KERNELS_CONTAINER_UTIL_H_

#include "runtime/kernel.h"

/* A tensor's shape as an mt_shape. */
mt_shape mt_cu_shape_of(const TF_Tensor* t);
/* A partial shape from an int32/int64 shape tensor: scalar -1 = unknown
 * rank, a vector with -1 = unknown dims (TensorFlow's TensorShapeFromTensor;
 * its errors). Returns 0 + TF_INVALID_ARGUMENT. */
int mt_cu_shape_from_tensor(const TF_Tensor* t, mt_shape* out, TF_Status* s);
/* *a = merge(*a, b), or 0 + "Incompatible shapes during merge: [2] vs. [3]". */
int mt_cu_merge(mt_shape* a, const mt_shape* b, TF_Status* s);
/* 1 when partial shapes a and b can describe the same tensor. */
int mt_cu_compatible(const mt_shape* a, const mt_shape* b);
/* The TensorShape string of a full shape: "[2,3]", "[]". */
const char* mt_cu_dims_str(const TF_Tensor* t, char* buf, size_t cap);

/* Copies n elements of dtype (strings deep-copied, variants referenced). */
void mt_cu_copy_elems(void* dst, const void* src, int64_t n, TF_DataType dtype);
/* A zero tensor of a fully defined shape. */
TF_Tensor* mt_cu_zeros(TF_DataType dtype, const mt_shape* shape, TF_Status* s);
/* Rows [begin, begin + len) of t (along dim 0) as a new tensor: shape
 * [len] + t.shape[1:], or t.shape[1:] when squeeze (len 1). */
TF_Tensor* mt_cu_rows(const TF_Tensor* t, int64_t begin, int64_t len, int squeeze, TF_Status* s);
/* Fills outputs[idx] with items stacked along a new dim 0 (NULL items are
 * zeros): shape [n] + elem. Items must have elem's element count. */
TF_Tensor* mt_cu_stack(mt_kernel_ctx* ctx, int idx, TF_DataType dtype, TF_Tensor* const* items,
                       int64_t n, const mt_shape* elem);

#endif
