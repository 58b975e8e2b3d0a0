/* SparseSlice and SparseSliceGrad (TensorFlow's sparse_slice_op.cc,
 * sparse_slice_grad_op.cc, SparseTensor::Slice): the entries inside
 * [start, start + size), shifted by -start, in input order; the output's
 * dense shape is the overlap of the slice with the input. The gradient op
 * walks input and output entries together and routes each output value's
 * gradient back to the entry it came from (zeros elsewhere). */
#include <stdio.h>
#include <string.h>

#include "runtime/kernels/half.h"
#include "runtime/kernels/move_util.h"
#include "runtime/kernels/sparse/sparse_more.h"

static int check_vector(mt_kernel_ctx* ctx, int idx, const char* what, const char* kind) {
  const TF_Tensor* t = ctx->inputs[idx];
  if (t->ndims == (strcmp(kind, "matrix") == 0 ? 2 : 1)) return 1;
  char buf[256];
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                 "Input %s should be a %s but received shape %s", what, kind,
                 mt_sp_dims(t, buf, sizeof buf));
  return 0;
}

static int check_inputs(mt_kernel_ctx* ctx) {
  if (!check_vector(ctx, 0, "indices", "matrix") || !check_vector(ctx, 1, "values", "vector") ||
      !check_vector(ctx, 2, "shape", "vector") || !check_vector(ctx, 3, "start", "vector") ||
      !check_vector(ctx, 4, "size", "vector"))
    return 0;
  const int64_t dims = ctx->inputs[2]->dims[0];
  if (ctx->inputs[3]->dims[0] != dims) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected start to be a vector of length %lld but got length %lld",
                   (long long)dims, (long long)ctx->inputs[3]->dims[0]);
    return 0;
  }
  if (ctx->inputs[4]->dims[0] != dims) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected size to be a vector of length %lld but got length %lld",
                   (long long)dims, (long long)ctx->inputs[4]->dims[0]);
    return 0;
  }
  const int64_t* sv = mt_tensor_data(ctx->inputs[2]);
  for (int64_t d = 0; d < dims; d++) {
    if (sv[d] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                     (long long)sv[d]);
      return 0;
    }
  }
  const TF_Tensor* ix = ctx->inputs[0];
  if (ix->dims[0] != ctx->inputs[1]->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "indices and values rows (indexing dimension) must match. (indices = %lld, "
                   "values = %lld)",
                   (long long)ix->dims[0], (long long)ctx->inputs[1]->dims[0]);
    return 0;
  }
  if (ix->dims[1] != dims) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape rank must be SparseTensor rank.");
    return 0;
  }
  if (!mv_esize(ctx->inputs[1]->dtype)) {
    mt_kernel_unsupported(ctx, "T", ctx->inputs[1]->dtype);
    return 0;
  }
  return 1;
}

static int inside(const int64_t* row, const int64_t* start, const int64_t* size, int64_t dims) {
  for (int64_t d = 0; d < dims; d++)
    if (!(start[d] <= row[d] && row[d] < start[d] + size[d])) return 0;
  return 1;
}

static void sparse_slice_kernel(mt_kernel_ctx* ctx) {
  if (!check_inputs(ctx)) return;
  const TF_Tensor* ix = ctx->inputs[0];
  const TF_Tensor* vals = ctx->inputs[1];
  const int64_t dims = ctx->inputs[2]->dims[0], nnz = ix->dims[0];
  const int64_t* shape = mt_tensor_data(ctx->inputs[2]);
  const int64_t* start = mt_tensor_data(ctx->inputs[3]);
  const int64_t* size = mt_tensor_data(ctx->inputs[4]);
  const int64_t* src = mt_tensor_data(ix);
  TF_Tensor* os = mt_ctx_alloc(ctx, 2, TF_INT64, &dims, 1);
  if (!os) return;
  int64_t* out_shape = mt_tensor_data(os);
  for (int64_t d = 0; d < dims; d++) {
    if (start[d] < shape[d] - size[d]) out_shape[d] = size[d];
    else if (start[d] < shape[d]) out_shape[d] = shape[d] - start[d];
    else out_shape[d] = 0;
  }
  int64_t count = 0;
  for (int64_t i = 0; i < nnz; i++) count += inside(src + i * dims, start, size, dims);
  const int64_t idims[2] = {count, dims};
  TF_Tensor* oi = mt_ctx_alloc(ctx, 0, TF_INT64, idims, 2);
  TF_Tensor* ov = oi ? mt_ctx_alloc(ctx, 1, vals->dtype, &count, 1) : NULL;
  if (!ov) return;
  int64_t* dst = mt_tensor_data(oi);
  int64_t k = 0;
  for (int64_t i = 0; i < nnz; i++) {
    if (!inside(src + i * dims, start, size, dims)) continue;
    for (int64_t d = 0; d < dims; d++) dst[k * dims + d] = src[i * dims + d] - start[d];
    mv_copy(ov, k, vals, i, 1);
    k++;
  }
}

/* TensorFlow's shape fn: [?, len(shape)], [?], shape's shape. */
static void sparse_slice_shape(mt_shape_ctx* ctx) {
  const mt_shape* shape = &ctx->in[2];
  const int64_t idims[2] = {-1, shape->rank == 1 ? shape->dims[0] : -1}, unknown = -1;
  ctx->out[0] = mt_shape_make(idims, 2);
  ctx->out[1] = mt_shape_make(&unknown, 1);
  ctx->out[2] = *shape;
}

/* ---- SparseSliceGrad ---- */

static int grad_checks(mt_kernel_ctx* ctx) {
  const TF_Tensor* g = ctx->inputs[0];
  const TF_Tensor* in = ctx->inputs[1];
  const TF_Tensor* start = ctx->inputs[2];
  const TF_Tensor* out = ctx->inputs[3];
  char a[256], b[256];
  if (in->ndims != 2 || out->ndims != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input and output indices should be matrices but received shapes: %s and %s",
                   mt_sp_dims(in, a, sizeof a), mt_sp_dims(out, b, sizeof b));
    return 0;
  }
  if (g->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input backprop_val_grad should be a vector but received shape: %s",
                   mt_sp_dims(g, a, sizeof a));
    return 0;
  }
  if (in->dims[1] != out->dims[1]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "The input and output should have the same ndims: got: %lld and %lld",
                   (long long)in->dims[1], (long long)out->dims[1]);
    return 0;
  }
  if (out->dims[0] > in->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "# rows of output_indices should be not greater than of input_indices, got "
                   "%lld and %lld",
                   (long long)out->dims[0], (long long)in->dims[0]);
    return 0;
  }
  if (g->dims[0] != out->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "# elements of backprop_val_grad and # rows of output_indices should match "
                   "(#nnz of sum): got %lld and %lld",
                   (long long)g->dims[0], (long long)out->dims[0]);
    return 0;
  }
  if (start->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "The input_start should be a vector but received shape %s",
                   mt_sp_dims(start, a, sizeof a));
    return 0;
  }
  if (start->dims[0] != in->dims[1]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected input_start to be a vector of length %lld but got length %lld",
                   (long long)in->dims[1], (long long)start->dims[0]);
    return 0;
  }
  switch (g->dtype) {
    case TF_FLOAT: case TF_DOUBLE: case TF_HALF: case TF_BFLOAT16: case TF_INT8: case TF_INT16:
    case TF_INT32: case TF_INT64: case TF_UINT8: case TF_UINT16: case TF_UINT32: case TF_UINT64:
    case TF_COMPLEX64: case TF_COMPLEX128:
      return 1;
    default:
      mt_kernel_unsupported(ctx, "T", g->dtype);
      return 0;
  }
}

static void sparse_slice_grad_kernel(mt_kernel_ctx* ctx) {
  if (!grad_checks(ctx)) return;
  const TF_Tensor* g = ctx->inputs[0];
  const TF_Tensor* in = ctx->inputs[1];
  const int64_t nnz = in->dims[0], dims = in->dims[1], ng = g->dims[0];
  TF_Tensor* vg = mt_ctx_alloc(ctx, 0, g->dtype, &nnz, 1);
  if (!vg) return;
  mv_zero(vg, 0, nnz);
  const int64_t* a = mt_tensor_data(in);
  const int64_t* b = mt_tensor_data(ctx->inputs[3]);
  const int64_t* off = mt_tensor_data(ctx->inputs[2]);
  int64_t j = 0;
  for (int64_t i = 0; i < nnz && j < ng; i++) {
    int same = 1;
    for (int64_t d = 0; d < dims && same; d++) same = a[i * dims + d] == b[j * dims + d] + off[d];
    if (same) mv_copy(vg, i, g, j++, 1);
  }
  if (j != ng)
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Elements of backprop_val_grad aren't all propagated. Num elements:%lld, "
                   "used: %lld",
                   (long long)ng, (long long)j);
}

static void sparse_slice_grad_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[1];
  const int64_t n = in->rank == 2 ? in->dims[0] : -1;
  ctx->out[0] = mt_shape_make(&n, 1);
}

static const mt_op_spec slice_specs[] = {
    {.name = "SparseSlice",
     .inputs = "indices: int64, values: T, shape: int64, start: int64, size: int64",
     .outputs = "output_indices: int64, output_values: T, output_shape: int64",
     .attrs = "T: type", .shape = sparse_slice_shape, .kernel = sparse_slice_kernel},
    {.name = "SparseSliceGrad",
     .inputs = "backprop_val_grad: T, input_indices: int64, input_start: int64,"
               " output_indices: int64",
     .outputs = "val_grad: T", .attrs = "T: numbertype", .shape = sparse_slice_grad_shape,
     .kernel = sparse_slice_grad_kernel},
};

void mt_register_sparse_slice_ops(void) {
  mt_register_ops(slice_specs, (int)(sizeof slice_specs / sizeof slice_specs[0]));
}
