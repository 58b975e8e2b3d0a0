/* SparseSplit (TensorFlow's sparse_split_op.cc, SparseTensor::Split): one
 * SparseTensor cut into num_split pieces along split_dim, the first
 * (size % num_split) pieces one longer. Entries keep their order within a
 * piece. TensorFlow has no gradient for it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/move_util.h"
#include "runtime/kernels/sparse/sparse_more.h"

/* Piece of coordinate v, and its coordinate there (TensorFlow's
 * GetSliceIndex / GetDimensionInSlice). */
static int64_t piece_of(int64_t v, int64_t size, int64_t residual) {
  if (residual == 0) return v / size;
  const int64_t offset = residual * (size + 1);
  return v < offset ? v / (size + 1) : residual + (v - offset) / size;
}

static int64_t coord_in_piece(int64_t v, int64_t size, int64_t residual) {
  if (residual == 0) return v % size;
  const int64_t offset = residual * (size + 1);
  return v < offset ? v % (size + 1) : (v - offset) % size;
}

static int check_inputs(mt_kernel_ctx* ctx, int64_t num, int64_t* axis) {
  const TF_Tensor* ix = ctx->inputs[1];
  const TF_Tensor* vals = ctx->inputs[2];
  const TF_Tensor* shape = ctx->inputs[3];
  char buf[256];
  if (ix->ndims != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input indices should be a matrix but received shape %s",
                   mt_sp_dims(ix, buf, sizeof buf));
    return 0;
  }
  if (vals->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input values should be a vector but received shape %s",
                   mt_sp_dims(vals, buf, sizeof buf));
    return 0;
  }
  if (shape->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input shape should be a vector but received shape %s",
                   mt_sp_dims(shape, buf, sizeof buf));
    return 0;
  }
  if (ctx->inputs[0]->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "split_dim must be a scalar, got shape %s",
                   mt_sp_dims(ctx->inputs[0], buf, sizeof buf));
    return 0;
  }
  const int64_t rank = shape->dims[0];
  const int64_t in_axis = *(const int64_t*)mt_tensor_data(ctx->inputs[0]);
  *axis = in_axis < 0 ? rank + in_axis : in_axis;
  if (*axis < 0 || *axis >= rank) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input axis should be in range [%lld, %lld), got %lld", (long long)-rank,
                   (long long)rank, (long long)in_axis);
    return 0;
  }
  const int64_t* sv = mt_tensor_data(shape);
  if (num < 1 || num > sv[*axis]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input num_split should be between 1 and the splitting dimension size (%lld), "
                   "got %lld",
                   (long long)sv[*axis], (long long)num);
    return 0;
  }
  for (int64_t d = 0; d < rank; d++) {
    if (sv[d] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                     (long long)sv[d]);
      return 0;
    }
  }
  if (ix->dims[0] != vals->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "indices and values rows (indexing dimension) must match. (indices = %lld, "
                   "values = %lld)",
                   (long long)ix->dims[0], (long long)vals->dims[0]);
    return 0;
  }
  if (ix->dims[1] != rank) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape rank must be SparseTensor rank.");
    return 0;
  }
  return 1;
}

static void sparse_split_kernel(mt_kernel_ctx* ctx) {
  const int64_t num = mt_op_attr_int(ctx->op, "num_split", 1);
  int64_t axis;
  if (!check_inputs(ctx, num, &axis)) return;
  const TF_Tensor* ix = ctx->inputs[1];
  const TF_Tensor* vals = ctx->inputs[2];
  const int64_t rank = ix->dims[1], nnz = ix->dims[0];
  const int64_t* sv = mt_tensor_data(ctx->inputs[3]);
  const int64_t* src = mt_tensor_data(ix);
  const int64_t size = sv[axis] / num, residual = sv[axis] % num;
  if (!mv_esize(vals->dtype)) {
    mt_kernel_unsupported(ctx, "T", vals->dtype);
    return;
  }
  int64_t* count = mt_malloc(sizeof(int64_t) * (size_t)(2 * num), ctx->status);
  if (!count) return;
  int64_t* fill = count + num;
  memset(count, 0, sizeof(int64_t) * (size_t)(2 * num));
  for (int64_t i = 0; i < nnz; i++) {
    const int64_t v = src[i * rank + axis];
    const int64_t p = v < 0 ? -1 : piece_of(v, size, residual);
    if (p < 0 || p >= num) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Slice index %lld is larger than num_split.",
                     (long long)p);
      free(count);
      return;
    }
    count[p]++;
  }
  TF_Tensor** oi = mt_malloc(sizeof(TF_Tensor*) * (size_t)(2 * num), ctx->status);
  if (!oi) {
    free(count);
    return;
  }
  TF_Tensor** ov = oi + num;
  for (int64_t p = 0; p < num; p++) {
    const int64_t idims[2] = {count[p], rank};
    oi[p] = mt_ctx_alloc(ctx, (int)p, TF_INT64, idims, 2);
    ov[p] = oi[p] ? mt_ctx_alloc(ctx, (int)(num + p), vals->dtype, &count[p], 1) : NULL;
    TF_Tensor* os = ov[p] ? mt_ctx_alloc(ctx, (int)(2 * num + p), TF_INT64, &rank, 1) : NULL;
    if (!os) {
      free(oi);
      free(count);
      return;
    }
    int64_t* s = mt_tensor_data(os);
    memcpy(s, sv, sizeof(int64_t) * (size_t)rank);
    s[axis] = size + (p < residual ? 1 : 0);
  }
  for (int64_t i = 0; i < nnz; i++) {
    const int64_t v = src[i * rank + axis];
    const int64_t p = piece_of(v, size, residual), k = fill[p]++;
    int64_t* dst = (int64_t*)mt_tensor_data(oi[p]) + k * rank;
    memcpy(dst, src + i * rank, sizeof(int64_t) * (size_t)rank);
    dst[axis] = coord_in_piece(v, size, residual);
    mv_copy(ov[p], k, vals, i, 1);
  }
  free(oi);
  free(count);
}

/* TensorFlow's shape fn: [?, len(shape)], [?], shape's shape per piece. */
static void sparse_split_shape(mt_shape_ctx* ctx) {
  const int num = ctx->noutputs / 3;
  const mt_shape* shape = &ctx->in[3];
  const int64_t cols = shape->rank == 1 ? shape->dims[0] : -1;
  const int64_t idims[2] = {-1, cols}, unknown = -1;
  for (int p = 0; p < num; p++) {
    ctx->out[p] = mt_shape_make(idims, 2);
    ctx->out[num + p] = mt_shape_make(&unknown, 1);
    ctx->out[2 * num + p] = *shape;
  }
}

static const mt_op_spec split_specs[] = {
    {.name = "SparseSplit",
     .inputs = "split_dim: int64, indices: int64, values: T, shape: int64",
     .outputs = "output_indices: num_split * int64, output_values: num_split * T,"
                " output_shape: num_split * int64",
     .attrs = "num_split: int >= 1; T: type", .shape = sparse_split_shape,
     .kernel = sparse_split_kernel},
};

void mt_register_sparse_split_ops(void) {
  mt_register_ops(split_specs, (int)(sizeof split_specs / sizeof split_specs[0]));
}
