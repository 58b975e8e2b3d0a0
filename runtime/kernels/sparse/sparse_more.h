/* The sparse family's files in runtime/kernels/sparse/ (the family grew past
 * one file): each registers its ops from mt_register_sparse_ops
 * (runtime/kernels/sparse_ops.c). */
#ifndef MINITF_RUNTIME_KERNELS_SPARSE_SPARSE_MORE_H_
#define MINITF_RUNTIME_KERNELS_SPARSE_SPARSE_MORE_H_

#include "runtime/kernels/kernel_util.h"

/* SparseReshape (reshape_ops.c). */
void mt_register_sparse_reshape_ops(void);
/* SparseReduceSum/Max and their Sparse forms (reduce_ops.c). */
void mt_register_sparse_reduce_ops(void);

/* SparseConcat (concat_ops.c). */
void mt_register_sparse_concat_ops(void);

/* SparseSplit (split_ops.c). */
void mt_register_sparse_split_ops(void);

/* SparseFillEmptyRows(+Grad) (fill_empty_rows_ops.c). */
void mt_register_sparse_fill_empty_rows_ops(void);

/* SparseSlice(+Grad) (slice_ops.c). */
void mt_register_sparse_slice_ops(void);

/* SerializeSparse, SerializeManySparse, DeserializeManySparse (serialize_ops.c). */
void mt_register_sparse_serialize_ops(void);

/* TensorFlow's SparseTensor::IndicesValid over the rows of ix ([nnz, n],
 * int64) for dense shape `shape`: in bounds, strictly increasing; 0 with
 * TensorFlow's message in s when not (sparse_ops.c). */
int mt_sparse_indices_valid(const TF_Tensor* ix, int64_t nnz, int64_t n, const int64_t* shape,
                            TF_Status* s);

/* "Shape must be rank 2 but is rank 3" style run-time check helpers. */
static inline const char* mt_sp_dims(const TF_Tensor* t, char* buf, size_t cap) {
  return mt_dims_str(t->dims, t->ndims, buf, cap);
}

#endif
