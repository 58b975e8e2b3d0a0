/* SparseConcat (TensorFlow's sparse_concat_op.cc): N SparseTensors joined
 * along concat_dim. Each input's entries are shifted along that dimension
 * by the sizes of the inputs before it, and all of them come out in
 * row-major order (a stable sort, as TensorFlow's reorder to the concat
 * order, Concat and reorder back). TensorFlow declares it not
 * differentiable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/move_util.h"
#include "runtime/kernels/sparse/sparse_more.h"

typedef struct concat_job {
  int n, rank, dim;
  int64_t total;
  TF_Tensor* const* ix;         /* n index matrices */
  TF_Tensor* const* vals;       /* n value vectors */
  int64_t* offset;              /* per input: shift along dim */
  int64_t* src;                 /* per entry: input number */
  int64_t* row;                 /* per entry: row in that input */
} concat_job;

static int64_t coord(const concat_job* j, int64_t e, int d) {
  const int64_t* ix = mt_tensor_data(j->ix[j->src[e]]);
  const int64_t v = ix[j->row[e] * j->rank + d];
  return d == j->dim ? v + j->offset[j->src[e]] : v;
}

static int cmp_entries(const concat_job* j, int64_t a, int64_t b) {
  for (int d = 0; d < j->rank; d++) {
    const int64_t x = coord(j, a, d), y = coord(j, b, d);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

static void merge_sort(int64_t* perm, int64_t* tmp, int64_t len, const concat_job* j) {
  if (len < 2) return;
  const int64_t half = len / 2;
  merge_sort(perm, tmp, half, j);
  merge_sort(perm + half, tmp, len - half, j);
  int64_t a = 0, b = half, k = 0;
  while (a < half && b < len) tmp[k++] = cmp_entries(j, perm[b], perm[a]) < 0 ? perm[b++] : perm[a++];
  while (a < half) tmp[k++] = perm[a++];
  while (b < len) tmp[k++] = perm[b++];
  memcpy(perm, tmp, sizeof(int64_t) * (size_t)len);
}

/* TensorFlow's checks, in its order; fills out_shape. */
static int check_inputs(mt_kernel_ctx* ctx, int n, int64_t* out_shape, int* rank, int* dim) {
  char buf[256];
  for (int i = 0; i < n; i++) {
    const TF_Tensor* t = ctx->inputs[i];
    if (t->ndims != 2) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Input indices should be a matrix but received shape %s at position %d",
                     mt_sp_dims(t, buf, sizeof buf), i);
      return 0;
    }
  }
  for (int i = 0; i < n; i++) {
    const TF_Tensor* t = ctx->inputs[n + i];
    if (t->ndims != 1) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Input values should be a vector but received shape %s at position %d",
                     mt_sp_dims(t, buf, sizeof buf), i);
      return 0;
    }
  }
  for (int i = 0; i < n; i++) {
    const TF_Tensor* t = ctx->inputs[2 * n + i];
    if (t->ndims != 1) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Input shapes should be a vector but received shape %s at position %d",
                     mt_sp_dims(t, buf, sizeof buf), i);
      return 0;
    }
    if (t->dims[0] > MT_MAX_DIMS) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Too many dimensions in tensor");
      return 0;
    }
  }
  const TF_Tensor* s0 = ctx->inputs[2 * n];
  const int r = (int)s0->dims[0];
  const int64_t attr = mt_op_attr_int(ctx->op, "concat_dim", 0);
  const int64_t d = attr < 0 ? r + attr : attr;
  if (d < 0 || d >= r) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Concat dimension must be in range [%d, %d), got %lld", -r, r,
                   (long long)attr);
    return 0;
  }
  memcpy(out_shape, mt_tensor_data(s0), sizeof(int64_t) * (size_t)r);
  for (int i = 1; i < n; i++) {
    const TF_Tensor* si = ctx->inputs[2 * n + i];
    const int64_t* cur = mt_tensor_data(si);
    if (si->dims[0] != r) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Ranks of all input tensors must match: expected %d but got %lld at "
                     "position %d",
                     r, (long long)si->dims[0], i);
      return 0;
    }
    for (int k = 0; k < r; k++) {
      if (k == d) {
        out_shape[k] += cur[k];
      } else if (cur[k] != out_shape[k]) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "Input shapes must match: expected %lld for dimension %d but got %lld at "
                       "position %d",
                       (long long)out_shape[k], k, (long long)cur[k], i);
        return 0;
      }
    }
  }
  /* SparseTensor::Create of each input */
  for (int i = 0; i < n; i++) {
    const TF_Tensor* ix = ctx->inputs[i];
    const TF_Tensor* v = ctx->inputs[n + i];
    if (ix->dims[0] != v->dims[0]) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "indices and values rows (indexing dimension) must match. (indices = %lld, "
                     "values = %lld)",
                     (long long)ix->dims[0], (long long)v->dims[0]);
      return 0;
    }
    if (ix->dims[1] != r) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Order length must be SparseTensor rank.");
      return 0;
    }
  }
  *rank = r;
  *dim = (int)d;
  return 1;
}

static void sparse_concat_kernel(mt_kernel_ctx* ctx) {
  const int n = ctx->ninputs / 3;
  int64_t out_shape[MT_MAX_DIMS];
  int rank, dim;
  if (!check_inputs(ctx, n, out_shape, &rank, &dim)) return;
  const TF_DataType dt = ctx->inputs[n]->dtype;
  if (!mv_esize(dt)) {
    mt_kernel_unsupported(ctx, "T", dt);
    return;
  }
  int64_t total = 0;
  for (int i = 0; i < n; i++) total += ctx->inputs[i]->dims[0];
  concat_job j = {.n = n, .rank = rank, .dim = dim, .total = total, .ix = ctx->inputs,
                  .vals = ctx->inputs + n};
  int64_t* mem = mt_malloc(sizeof(int64_t) * (size_t)(n + 4 * total + 1), ctx->status);
  if (!mem) return;
  j.offset = mem;
  j.src = mem + n;
  j.row = j.src + total;
  int64_t* perm = j.row + total;
  int64_t e = 0, shift = 0;
  for (int i = 0; i < n; i++) {
    j.offset[i] = shift;
    shift += ((const int64_t*)mt_tensor_data(ctx->inputs[2 * n + i]))[dim];
    for (int64_t r = 0; r < ctx->inputs[i]->dims[0]; r++, e++) {
      j.src[e] = i;
      j.row[e] = r;
      perm[e] = e;
    }
  }
  merge_sort(perm, perm + total, total, &j);
  const int64_t idims[2] = {total, rank}, rank1 = rank;
  TF_Tensor* oi = mt_ctx_alloc(ctx, 0, TF_INT64, idims, 2);
  TF_Tensor* ov = oi ? mt_ctx_alloc(ctx, 1, dt, &total, 1) : NULL;
  TF_Tensor* os = ov ? mt_ctx_alloc(ctx, 2, TF_INT64, &rank1, 1) : NULL;
  if (os) {
    int64_t* dst = mt_tensor_data(oi);
    for (int64_t k = 0; k < total; k++) {
      const int64_t p = perm[k];
      for (int d = 0; d < rank; d++) dst[k * rank + d] = coord(&j, p, d);
      mv_copy(ov, k, j.vals[j.src[p]], j.row[p], 1);
    }
    memcpy(mt_tensor_data(os), out_shape, sizeof(int64_t) * (size_t)rank);
  }
  free(mem);
}

/* TensorFlow's shape fn: rows add up, columns and shapes merge. */
static void sparse_concat_shape(mt_shape_ctx* ctx) {
  const int n = ctx->ninputs / 3;
  int64_t rows = 0, cols = -1;
  mt_shape shape = mt_shape_unknown();
  for (int i = 0; i < n; i++) {
    if (!mt_shape_with_rank(ctx, i, 2) || !mt_shape_with_rank(ctx, i + n, 1) ||
        !mt_shape_with_rank(ctx, i + 2 * n, 1))
      return;
    const mt_shape* ind = &ctx->in[i];
    const mt_shape* val = &ctx->in[i + n];
    int64_t num;
    if (!mt_merge_dim(ctx, ind->rank == 2 ? ind->dims[0] : -1, val->rank == 1 ? val->dims[0] : -1,
                      &num))
      return;
    rows = rows < 0 || num < 0 ? -1 : rows + num;
    if (!mt_merge_dim(ctx, cols, ind->rank == 2 ? ind->dims[1] : -1, &cols)) return;
    mt_shape merged, refined = ctx->in[i + 2 * n];
    const int64_t unknown = -1;
    if (refined.rank < 0) refined = mt_shape_make(&unknown, 1); /* WithRank(1) */
    if (!mt_merge_shape(ctx, &shape, &refined, &merged)) return;
    shape = merged;
  }
  const int64_t dims[2] = {rows, cols};
  ctx->out[0] = mt_shape_make(dims, 2);
  ctx->out[1] = mt_shape_make(&rows, 1);
  ctx->out[2] = shape;
}

static const mt_op_spec concat_specs[] = {
    {.name = "SparseConcat", .inputs = "indices: N * int64, values: N * T, shapes: N * int64",
     .outputs = "output_indices: int64, output_values: T, output_shape: int64",
     .attrs = "concat_dim: int; N: int >= 2; T: type", .shape = sparse_concat_shape,
     .kernel = sparse_concat_kernel},
};

void mt_register_sparse_concat_ops(void) {
  mt_register_ops(concat_specs, (int)(sizeof concat_specs / sizeof concat_specs[0]));
}
