/* SparseReshape (TensorFlow's reshape_util.cc): new indices for the same
 * entries under a new dense shape (one -1 dimension inferred), each index
 * turned into its row-major offset in the old shape and back into
 * coordinates of the new one. TensorFlow has no gradient for it. */
#include <stdio.h>
#include <string.h>

#include "runtime/kernels/sparse/sparse_more.h"

/* Fills `out` (n dims) from a 1-D int64 tensor. */
static void int64s(const TF_Tensor* t, int64_t* out, int64_t n) {
  memcpy(out, mt_tensor_data(t), sizeof(int64_t) * (size_t)n);
}

/* The new shape with its -1 resolved; 0 + TensorFlow's message on error. */
static int target_shape(mt_kernel_ctx* ctx, const int64_t* in, int in_rank, int64_t dense_size,
                        int64_t* out, int out_rank) {
  char a[256], b[256];
  int64_t product = 1;
  int unknown = -1;
  for (int d = 0; d < out_rank; d++) {
    if (out[d] == -1) {
      if (unknown != -1) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "only one output dimension may be -1, not both %d and %d", unknown, d);
        return 0;
      }
      unknown = d;
    } else if (out[d] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "size %d must be non-negative, not %lld",
                     d, (long long)out[d]);
      return 0;
    } else {
      product *= out[d];
    }
  }
  if (unknown != -1) {
    out[unknown] = 1;
    if (product <= 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "reshape cannot infer the missing input size for an empty tensor unless all "
                     "specified input sizes are non-zero");
      return 0;
    }
    const int64_t missing = dense_size / product;
    if (product * missing != dense_size) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Input to reshape is a SparseTensor with %lld dense values, but the "
                     "requested shape requires a multiple of %lld. input_shape=%s output_shape=%s",
                     (long long)dense_size, (long long)product,
                     mt_dims_str(in, in_rank, a, sizeof a), mt_dims_str(out, out_rank, b, sizeof b));
      return 0;
    }
    out[unknown] = missing;
  }
  int64_t total = 1;
  for (int d = 0; d < out_rank; d++) total *= out[d];
  if (total != dense_size) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input to reshape is a tensor with %lld dense values, but the requested shape "
                   "has %lld. input_shape=%s output_shape=%s",
                   (long long)dense_size, (long long)total, mt_dims_str(in, in_rank, a, sizeof a),
                   mt_dims_str(out, out_rank, b, sizeof b));
    return 0;
  }
  return 1;
}

static int check_inputs(mt_kernel_ctx* ctx) {
  const TF_Tensor* ix = ctx->inputs[0];
  const TF_Tensor* shape = ctx->inputs[1];
  const TF_Tensor* target = ctx->inputs[2];
  char buf[256];
  if (ix->ndims != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input indices should be a matrix but received shape %s",
                   mt_sp_dims(ix, buf, sizeof buf));
    return 0;
  }
  if (shape->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input shape should be a vector but received shape %s",
                   mt_sp_dims(shape, buf, sizeof buf));
    return 0;
  }
  if (target->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Target shape should be a vector but received shape %s",
                   mt_sp_dims(target, buf, sizeof buf));
    return 0;
  }
  if (shape->dims[0] > MT_MAX_DIMS || target->dims[0] > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Too many dimensions in tensor");
    return 0;
  }
  if (ix->dims[1] != shape->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input tensor rank must match input shape length, but got %lld and %lld",
                   (long long)ix->dims[1], (long long)shape->dims[0]);
    return 0;
  }
  return 1;
}

/* Row-major strides of a shape. */
static void strides_of(const int64_t* dims, int n, int64_t* st) {
  int64_t s = 1;
  for (int d = n - 1; d >= 0; d--) {
    st[d] = s;
    s *= dims[d];
  }
}

static void sparse_reshape_kernel(mt_kernel_ctx* ctx) {
  if (!check_inputs(ctx)) return;
  const TF_Tensor* ix = ctx->inputs[0];
  const int in_rank = (int)ctx->inputs[1]->dims[0];
  const int out_rank = (int)ctx->inputs[2]->dims[0];
  int64_t in[MT_MAX_DIMS], out[MT_MAX_DIMS];
  int64s(ctx->inputs[1], in, in_rank);
  int64s(ctx->inputs[2], out, out_rank);
  int64_t dense_size = 1;
  for (int d = 0; d < in_rank; d++) {
    if (in[d] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                     (long long)in[d]);
      return;
    }
    if (in[d] && dense_size > INT64_MAX / in[d]) {
      char buf[256];
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Shape %s would have more than 2**63 - 1 elements",
                     mt_dims_str(in, in_rank, buf, sizeof buf));
      return;
    }
    dense_size *= in[d];
  }
  if (!target_shape(ctx, in, in_rank, dense_size, out, out_rank)) return;
  const int64_t nnz = ix->dims[0];
  const int64_t rank1 = out_rank;
  TF_Tensor* shape_t = mt_ctx_alloc(ctx, 1, TF_INT64, &rank1, 1);
  if (!shape_t) return;
  memcpy(mt_tensor_data(shape_t), out, sizeof(int64_t) * (size_t)out_rank);
  if (in_rank == out_rank && memcmp(in, out, sizeof(int64_t) * (size_t)in_rank) == 0) {
    mt_ctx_set_shared(ctx, 0, ix); /* the same shape: the indices as they are */
    return;
  }
  const int64_t dims[2] = {nnz, out_rank};
  TF_Tensor* oi = mt_ctx_alloc(ctx, 0, TF_INT64, dims, 2);
  if (!oi) return;
  int64_t ist[MT_MAX_DIMS], ost[MT_MAX_DIMS];
  strides_of(in, in_rank, ist);
  strides_of(out, out_rank, ost);
  const int64_t* src = mt_tensor_data(ix);
  int64_t* dst = mt_tensor_data(oi);
  for (int64_t i = 0; i < nnz; i++) {
    int64_t id = 0;
    for (int d = 0; d < in_rank; d++) id += src[i * in_rank + d] * ist[d];
    for (int d = 0; d < out_rank; d++) {
      dst[i * out_rank + d] = id / ost[d];
      id %= ost[d];
    }
  }
}

/* [nnz, rank(new_shape)] and new_shape's shape (TensorFlow's shape fn). */
static void sparse_reshape_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 2) || !mt_shape_with_rank(ctx, 1, 1) ||
      !mt_shape_with_rank(ctx, 2, 1))
    return;
  const int64_t dims[2] = {ctx->in[0].rank == 2 ? ctx->in[0].dims[0] : -1,
                           ctx->in[2].rank == 1 ? ctx->in[2].dims[0] : -1};
  ctx->out[0] = mt_shape_make(dims, 2);
  ctx->out[1] = mt_shape_make(&dims[1], 1); /* new_shape's shape, of rank 1 */
}

static const mt_op_spec reshape_specs[] = {
    {.name = "SparseReshape", .inputs = "input_indices: int64, input_shape: int64, new_shape: int64",
     .outputs = "output_indices: int64, output_shape: int64", .shape = sparse_reshape_shape,
     .kernel = sparse_reshape_kernel},
};

void mt_register_sparse_reshape_ops(void) {
  mt_register_ops(reshape_specs, (int)(sizeof reshape_specs / sizeof reshape_specs[0]));
}
