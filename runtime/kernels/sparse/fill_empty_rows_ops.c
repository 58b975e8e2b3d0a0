/* SparseFillEmptyRows and SparseFillEmptyRowsGrad (TensorFlow's
 * sparse_fill_empty_rows_op.cc): every row of a 2-D-or-more SparseTensor
 * without entries gets one, [row, 0, ...] = default_value. Entries are
 * placed row by row (rows in order, entries of a row in input order) unless
 * the input already has every row and rows in order, when it passes through
 * unchanged. reverse_index_map[i] is where input entry i went; the gradient
 * op routes the values' gradient back through it and sums the rest into the
 * default value's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/half.h"
#include "runtime/kernels/move_util.h"
#include "runtime/kernels/sparse/sparse_more.h"

static int check_inputs(mt_kernel_ctx* ctx) {
  const TF_Tensor* ix = ctx->inputs[0];
  const TF_Tensor* vals = ctx->inputs[1];
  const TF_Tensor* shape = ctx->inputs[2];
  const TF_Tensor* dflt = ctx->inputs[3];
  char buf[256];
  if (shape->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "dense_shape must be a vector, saw: %s",
                   mt_sp_dims(shape, buf, sizeof buf));
    return 0;
  }
  if (ix->ndims != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "indices must be a matrix, saw: %s",
                   mt_sp_dims(ix, buf, sizeof buf));
    return 0;
  }
  if (vals->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "values must be a vector, saw: %s",
                   mt_sp_dims(vals, buf, sizeof buf));
    return 0;
  }
  if (ix->dims[0] != vals->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "The length of `values` (%lld) must match the first dimension of `indices` "
                   "(%lld).",
                   (long long)vals->dims[0], (long long)ix->dims[0]);
    return 0;
  }
  if (ix->dims[1] != shape->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "The length of `dense_shape` (%lld) must match the second dimension of "
                   "`indices` (%lld).",
                   (long long)shape->dims[0], (long long)ix->dims[1]);
    return 0;
  }
  if (dflt->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "default_value must be a scalar, saw: %s",
                   mt_sp_dims(dflt, buf, sizeof buf));
    return 0;
  }
  if (shape->dims[0] == 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dense shape cannot be empty.");
    return 0;
  }
  if (!mv_esize(vals->dtype)) {
    mt_kernel_unsupported(ctx, "T", vals->dtype);
    return 0;
  }
  return 1;
}

/* Outputs for a dense shape with no rows (N must be 0 then). */
static void no_rows(mt_kernel_ctx* ctx, int64_t n, int64_t rank) {
  if (n != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Received SparseTensor with dense_shape[0] = 0 but indices.shape[0] = %lld",
                   (long long)n);
    return;
  }
  const int64_t idims[2] = {0, rank}, zero = 0;
  if (mt_ctx_alloc(ctx, 0, TF_INT64, idims, 2) &&
      mt_ctx_alloc(ctx, 1, ctx->inputs[1]->dtype, &zero, 1) &&
      mt_ctx_alloc(ctx, 2, TF_BOOL, &zero, 1))
    mt_ctx_alloc(ctx, 3, TF_INT64, &zero, 1);
}

static void fill_empty_rows_kernel(mt_kernel_ctx* ctx) {
  if (!check_inputs(ctx)) return;
  const TF_Tensor* ix = ctx->inputs[0];
  const TF_Tensor* vals = ctx->inputs[1];
  const int64_t n = ix->dims[0], rank = ix->dims[1];
  const int64_t rows = ((const int64_t*)mt_tensor_data(ctx->inputs[2]))[0];
  if (rows == 0) {
    no_rows(ctx, n, rank);
    return;
  }
  if (rows < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                   (long long)rows);
    return;
  }
  int64_t* offset = mt_malloc(sizeof(int64_t) * (size_t)(2 * rows), ctx->status);
  if (!offset) return;
  int64_t* filled = offset + rows;
  memset(offset, 0, sizeof(int64_t) * (size_t)(2 * rows));
  const int64_t* src = mt_tensor_data(ix);
  int ordered = 1;
  int64_t last = 0;
  for (int64_t i = 0; i < n; i++) {
    const int64_t row = src[i * rank];
    if (row < 0 || row >= rows) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "indices(%lld, 0) is invalid: %lld >= %lld",
                     (long long)i, (long long)row, (long long)rows);
      free(offset);
      return;
    }
    offset[row]++;
    ordered &= row >= last;
    last = row;
  }
  TF_Tensor* empty = mt_ctx_alloc(ctx, 2, TF_BOOL, &rows, 1);
  TF_Tensor* rmap = empty ? mt_ctx_alloc(ctx, 3, TF_INT64, &n, 1) : NULL;
  if (!rmap) {
    free(offset);
    return;
  }
  unsigned char* em = mt_tensor_data(empty);
  int full = 1;
  for (int64_t r = 0; r < rows; r++) { /* offset[r]: end of row r in the output */
    em[r] = offset[r] == 0;
    full &= !em[r];
    if (offset[r] < 1) offset[r] = 1;
    if (r > 0) offset[r] += offset[r - 1];
  }
  int64_t* map = mt_tensor_data(rmap);
  if (full && ordered) {
    for (int64_t i = 0; i < n; i++) map[i] = i;
    mt_ctx_set_shared(ctx, 0, ix);
    mt_ctx_set_shared(ctx, 1, vals);
    free(offset);
    return;
  }
  const int64_t total = offset[rows - 1], idims[2] = {total, rank};
  TF_Tensor* oi = mt_ctx_alloc(ctx, 0, TF_INT64, idims, 2);
  TF_Tensor* ov = oi ? mt_ctx_alloc(ctx, 1, vals->dtype, &total, 1) : NULL;
  if (!ov) {
    free(offset);
    return;
  }
  int64_t* dst = mt_tensor_data(oi);
  memset(dst, 0, sizeof(int64_t) * (size_t)(total * rank));
  mv_fill(ov, 0, ctx->inputs[3], total);
  for (int64_t i = 0; i < n; i++) {
    const int64_t row = src[i * rank];
    const int64_t at = (row == 0 ? 0 : offset[row - 1]) + filled[row]++;
    memcpy(dst + at * rank, src + i * rank, sizeof(int64_t) * (size_t)rank);
    mv_copy(ov, at, vals, i, 1);
    map[i] = at;
  }
  for (int64_t r = 0; r < rows; r++)
    if (filled[r] == 0) dst[(r == 0 ? 0 : offset[r - 1]) * rank] = r;
  free(offset);
}

/* TensorFlow's shape fn. */
static void fill_empty_rows_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 2) || !mt_shape_with_rank(ctx, 1, 1) ||
      !mt_shape_with_rank(ctx, 2, 1) || !mt_shape_with_rank(ctx, 3, 0))
    return;
  const mt_shape* ind = &ctx->in[0];
  const mt_shape* val = &ctx->in[1];
  const mt_shape* shp = &ctx->in[2];
  int64_t n, unused;
  if (!mt_merge_dim(ctx, ind->rank == 2 ? ind->dims[0] : -1, val->rank == 1 ? val->dims[0] : -1,
                    &n) ||
      !mt_merge_dim(ctx, ind->rank == 2 ? ind->dims[1] : -1, shp->rank == 1 ? shp->dims[0] : -1,
                    &unused))
    return;
  const int64_t len = shp->rank == 1 ? shp->dims[0] : -1;
  if (len == 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "dense_shape must not be empty");
    return;
  }
  const int64_t idims[2] = {-1, len}, unknown = -1;
  ctx->out[0] = mt_shape_make(idims, 2);
  ctx->out[1] = mt_shape_make(&unknown, 1);
  mt_shape dense;
  int64_t rows = -1;
  if (mt_shape_input_as_shape(ctx, 2, &dense) && dense.rank > 0) rows = dense.dims[0];
  ctx->out[2] = mt_shape_make(&rows, 1);
  ctx->out[3] = mt_shape_make(&n, 1);
}

/* ---- SparseFillEmptyRowsGrad ---- */

typedef void (*grad_fn)(const int64_t* map, int64_t n, const void* g, int64_t full,
                        const unsigned char* visited, void* dv, void* dd);

#define GRAD_FN(name, ctype, acct, load, store)                                            \
  static void name(const int64_t* map, int64_t n, const void* gv, int64_t full,            \
                   const unsigned char* visited, void* dvv, void* ddv) {                   \
    const ctype* g = gv;                                                                   \
    ctype* dv = dvv;                                                                       \
    for (int64_t i = 0; i < n; i++) dv[i] = g[map[i]];                                     \
    acct acc = load(store(0));                                                             \
    for (int64_t j = 0; j < full; j++)                                                     \
      if (!visited[j]) acc = acc + load(g[j]);                                             \
    *(ctype*)ddv = store(acc);                                                             \
  }
#define ID(x) (x)
GRAD_FN(gr_f32, float, float, ID, ID)
GRAD_FN(gr_f64, double, double, ID, ID)
GRAD_FN(gr_i32, int32_t, uint32_t, (uint32_t), (int32_t))
GRAD_FN(gr_i64, int64_t, uint64_t, (uint64_t), (int64_t))
GRAD_FN(gr_f16, mt_half, float, mt_half_to_float, mt_float_to_half)
GRAD_FN(gr_bf16, mt_bfloat16, float, mt_bfloat16_to_float, mt_float_to_bfloat16)

static grad_fn grad_fn_for(TF_DataType dt) {
  switch (dt) {
    case TF_FLOAT: return gr_f32;
    case TF_DOUBLE: return gr_f64;
    case TF_INT32: return gr_i32;
    case TF_INT64: return gr_i64;
    case TF_HALF: return gr_f16;
    case TF_BFLOAT16: return gr_bf16;
    default: return NULL;
  }
}

static void fill_empty_rows_grad_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* rmap = ctx->inputs[0];
  const TF_Tensor* g = ctx->inputs[1];
  char buf[256];
  const grad_fn fn = grad_fn_for(g->dtype);
  if (!fn) {
    mt_kernel_unsupported(ctx, "T", g->dtype);
    return;
  }
  if (rmap->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "reverse_index_map must be a vector, saw: %s",
                   mt_sp_dims(rmap, buf, sizeof buf));
    return;
  }
  if (g->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "grad_values must be a vector, saw: %s",
                   mt_sp_dims(g, buf, sizeof buf));
    return;
  }
  const int64_t n = rmap->dims[0], full = g->dims[0];
  const int64_t* map = mt_tensor_data(rmap);
  unsigned char* visited = mt_malloc((size_t)full + 1, ctx->status);
  if (!visited) return;
  memset(visited, 0, (size_t)full + 1);
  for (int64_t i = 0; i < n; i++) {
    if (map[i] < 0 || map[i] >= full) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Elements in reverse index must be in [0, %lld) but got %lld",
                     (long long)full, (long long)map[i]);
      free(visited);
      return;
    }
    visited[map[i]] = 1;
  }
  TF_Tensor* dv = mt_ctx_alloc(ctx, 0, g->dtype, &n, 1);
  TF_Tensor* dd = dv ? mt_ctx_alloc(ctx, 1, g->dtype, NULL, 0) : NULL;
  if (dd) fn(map, n, mt_tensor_data(g), full, visited, mt_tensor_data(dv), mt_tensor_data(dd));
  free(visited);
}

static void fill_empty_rows_grad_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 1) || !mt_shape_with_rank(ctx, 1, 1)) return;
  const int64_t n = ctx->in[0].rank == 1 ? ctx->in[0].dims[0] : -1;
  ctx->out[0] = mt_shape_make(&n, 1);
  ctx->out[1] = mt_shape_scalar();
}

static const mt_op_spec fill_specs[] = {
    {.name = "SparseFillEmptyRows",
     .inputs = "indices: int64, values: T, dense_shape: int64, default_value: T",
     .outputs = "output_indices: int64, output_values: T, empty_row_indicator: bool,"
                " reverse_index_map: int64",
     .attrs = "T: type", .shape = fill_empty_rows_shape, .kernel = fill_empty_rows_kernel},
    {.name = "SparseFillEmptyRowsGrad", .inputs = "reverse_index_map: int64, grad_values: T",
     .outputs = "d_values: T, d_default_value: T", .attrs = "T: type",
     .shape = fill_empty_rows_grad_shape, .kernel = fill_empty_rows_grad_kernel},
};

void mt_register_sparse_fill_empty_rows_ops(void) {
  mt_register_ops(fill_specs, (int)(sizeof fill_specs / sizeof fill_specs[0]));
}
