/* Sparse ops: a SparseTensor is three dense tensors (indices [N, ndims],
 * values [N], dense_shape [ndims]) and these kernels read or write that
 * triple. SparseToDense scatters it into a dense tensor, SparseReorder sorts
 * it into row-major (lexicographic) index order, SparseTensorDenseMatMul
 * multiplies it (a matrix) by a dense matrix, SparseAdd merges two sorted
 * SparseTensors, SparseTensorDenseAdd adds one into a dense tensor, SparseAddGrad
 * routes SparseAdd's gradient back to the values of its operands.
 *
 * Validation and messages follow TensorFlow's CPU kernels (their order of
 * checks too: the first failing check names the error). Every index read
 * from a tensor is bounds-checked before it addresses memory. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/half.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/move_util.h"
#include "runtime/kernels/sparse/sparse_more.h"

typedef float _Complex mt_sp_c64;
typedef double _Complex mt_sp_c128;

/* ---- helpers ---- */

/* Element i of an int32/int64 tensor. */
static inline int64_t ival(const TF_Tensor* t, int64_t i) {
  return t->dtype == TF_INT32 ? ((const int32_t*)mt_tensor_data(t))[i]
                              : ((const int64_t*)mt_tensor_data(t))[i];
}

static const char* dims_of(const TF_Tensor* t, char* buf, size_t cap) {
  return mt_dims_str(t->dims, t->ndims, buf, cap);
}

/* "[0,1]": row r (n values) of an index matrix, as TensorFlow prints it. */
static const char* row_str(const TF_Tensor* ix, int64_t r, int64_t n, char* buf, size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  len += (size_t)snprintf(buf + len, cap - len, "[");
  for (int64_t d = 0; d < n && len < cap; d++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%lld", d ? "," : "",
                            (long long)ival(ix, r * n + d));
  if (len < cap) snprintf(buf + len, cap - len, "]");
  return buf;
}

/* "2 2 3": the values of a 1-D int tensor as TensorFlow's SummarizeValue /
 * Eigen print them (at most `max` values, then "..."). */
static const char* values_str(const TF_Tensor* t, int64_t max, char* buf, size_t cap) {
  size_t len = 0;
  const int64_t n = mt_tensor_nelems(t);
  buf[0] = '\0';
  for (int64_t i = 0; i < n && i < max && len < cap; i++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%lld", i ? " " : "", (long long)ival(t, i));
  if (n > max && len < cap) snprintf(buf + len, cap - len, "...");
  return buf;
}

static int is_matrix(const TF_Tensor* t) { return t->ndims == 2; }
static int is_vector(const TF_Tensor* t) { return t->ndims == 1; }

/* The value dtypes TensorFlow registers for SparseToDense/SparseReorder:
 * every real number type, bool, complex and string (no quantized types,
 * resources or variants). */
static int movable_value_type(TF_DataType dt) {
  switch (dt) {
    case TF_FLOAT: case TF_DOUBLE: case TF_HALF: case TF_BFLOAT16:
    case TF_INT8: case TF_INT16: case TF_INT32: case TF_INT64:
    case TF_UINT8: case TF_UINT16: case TF_UINT32: case TF_UINT64:
    case TF_BOOL: case TF_COMPLEX64: case TF_COMPLEX128: case TF_STRING:
      return 1;
    default:
      return 0;
  }
}

/* Lexicographic comparison of row i of `a` and row j of `b` (n columns). */
static int cmp_rows(const TF_Tensor* a, int64_t i, const TF_Tensor* b, int64_t j, int64_t n) {
  for (int64_t d = 0; d < n; d++) {
    const int64_t x = ival(a, i * n + d), y = ival(b, j * n + d);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

/* TensorFlow's SparseTensor::IndicesValid over rows of `ix` ([nnz, n]) for a
 * dense shape `shape` (n dims): each row in bounds, strictly increasing.
 * Returns 1 if valid; else 0, with the message in status when s != NULL. */
static int indices_valid(const TF_Tensor* ix, int64_t nnz, int64_t n, const int64_t* shape,
                         TF_Status* s) {
  char row[256], dims[256];
  for (int64_t r = 0; r < nnz; r++) {
    for (int64_t d = 0; d < n; d++) {
      const int64_t v = ival(ix, r * n + d);
      if (v < 0 || v >= shape[d]) {
        if (s)
          mt_status_setf(s, TF_INVALID_ARGUMENT,
                         "indices[%lld] = %s is out of bounds: need 0 <= index < %s",
                         (long long)r, row_str(ix, r, n, row, sizeof row),
                         mt_dims_str(shape, (int)n, dims, sizeof dims));
        return 0;
      }
    }
    if (r == 0) continue;
    const int c = cmp_rows(ix, r - 1, ix, r, n);
    if (c > 0) {
      if (s)
        mt_status_setf(s, TF_INVALID_ARGUMENT,
                       "indices[%lld] = %s is out of order. Many sparse ops require sorted "
                       "indices.\n    Use `tf.sparse.reorder` to create a correctly ordered "
                       "copy.\n\n",
                       (long long)r, row_str(ix, r, n, row, sizeof row));
      return 0;
    }
    if (c == 0) {
      if (s)
        mt_status_setf(s, TF_INVALID_ARGUMENT, "indices[%lld] = %s is repeated", (long long)r,
                       row_str(ix, r, n, row, sizeof row));
      return 0;
    }
  }
  return 1;
}

int mt_sparse_indices_valid(const TF_Tensor* ix, int64_t nnz, int64_t n, const int64_t* shape,
                            TF_Status* s) {
  return indices_valid(ix, nnz, n, shape, s);
}

/* TensorFlow's MakeShapeFromShapeTensor for shape-function input idx: a
 * 1-D shape tensor's known values (-1 = unknown dim) or its length. */
static int shape_from_tensor(mt_shape_ctx* ctx, int idx, mt_shape* out) {
  if (!mt_shape_with_rank(ctx, idx, 1)) return 0;
  if (mt_shape_input_as_shape(ctx, idx, out)) return 1;
  int64_t v[MT_MAX_DIMS];
  const int n = mt_shape_input_as_ints(ctx, idx, v, MT_MAX_DIMS);
  for (int d = 0; d < n && d < MT_MAX_DIMS; d++) {
    if (v[d] < -1) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Invalid value in tensor used for shape: %lld", (long long)v[d]);
      return 0;
    }
  }
  *out = mt_shape_unknown(); /* more dims than the runtime handles */
  return 1;
}

/* ---- SparseToDense ---- */

static void sparse_to_dense_shape(mt_shape_ctx* ctx) {
  mt_shape out;
  if (shape_from_tensor(ctx, 1, &out)) ctx->out[0] = out;
}

/* The dense output's dims from output_shape; 0 + TensorFlow's
 * "Dimension -5 must be >= 0" when a value is negative. */
static int dense_dims(mt_kernel_ctx* ctx, const TF_Tensor* shape, int64_t* dims, int n) {
  for (int d = 0; d < n; d++) {
    dims[d] = ival(shape, d);
    if (dims[d] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                     (long long)dims[d]);
      return 0;
    }
  }
  if (mt_num_elements(dims, n) < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Shape would have more than 2**63 - 1 elements");
    return 0;
  }
  return 1;
}

static void sparse_to_dense_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* ix = ctx->inputs[0];
  const TF_Tensor* shape = ctx->inputs[1];
  const TF_Tensor* values = ctx->inputs[2];
  const TF_Tensor* dflt = ctx->inputs[3];
  char a[256];
  if (!movable_value_type(values->dtype)) {
    mt_kernel_unsupported(ctx, "T", values->dtype);
    return;
  }
  if (ix->ndims > 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "sparse_indices should be a scalar, vector, or matrix, got shape %s",
                   dims_of(ix, a, sizeof a));
    return;
  }
  const int64_t nnz = ix->ndims > 0 ? ix->dims[0] : 1;
  const int64_t ndims = ix->ndims > 1 ? ix->dims[1] : 1;
  if (shape->ndims > 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "output_shape should be a vector, got shape %s",
                   dims_of(shape, a, sizeof a));
    return;
  }
  if (mt_tensor_nelems(shape) != ndims) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "output_shape has incorrect number of elements: %lld should be: %lld",
                   (long long)mt_tensor_nelems(shape), (long long)ndims);
    return;
  }
  const int64_t nvals = mt_tensor_nelems(values);
  if (!(values->ndims == 0 || (values->ndims == 1 && nvals == nnz))) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "sparse_values has incorrect shape %s, should be [] or [%lld]",
                   dims_of(values, a, sizeof a), (long long)nnz);
    return;
  }
  if (dflt->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "default_value should be a scalar.");
    return;
  }
  if (ndims > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "output rank %lld exceeds %d",
                   (long long)ndims, MT_MAX_DIMS);
    return;
  }
  int64_t dims[MT_MAX_DIMS];
  if (!dense_dims(ctx, shape, dims, (int)ndims)) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, values->dtype, dims, (int)ndims);
  if (!out) return;
  if (mt_op_attr_bool(ctx->op, "validate_indices", 1) &&
      !indices_valid(ix, nnz, ndims, dims, ctx->status))
    return;
  const int64_t total = mt_tensor_nelems(out);
  mv_fill(out, 0, dflt, total);
  for (int64_t r = 0; r < nnz; r++) {
    int64_t off = 0;
    for (int64_t d = 0; d < ndims; d++) {
      const int64_t v = ival(ix, r * ndims + d);
      if (v < 0 || v >= dims[d]) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "Indices are not valid (out of bounds).  Shape: %s",
                       mt_dims_str(dims, (int)ndims, a, sizeof a));
        return;
      }
      off = off * dims[d] + v;
    }
    mv_copy(out, off, values, values->ndims == 0 ? 0 : r, 1);
  }
}

/* ---- SparseReorder ---- */

static void sparse_reorder_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 2) || !mt_shape_with_rank(ctx, 1, 1) ||
      !mt_shape_with_rank(ctx, 2, 1))
    return;
  ctx->out[0] = ctx->in[0];
  ctx->out[1] = ctx->in[1];
}

typedef struct sort_ctx {
  const int64_t* ix;
  int64_t n; /* columns */
} sort_ctx;

/* Stable merge sort of perm[0, len) by index row, using tmp as scratch. */
static void merge_sort(int64_t* perm, int64_t* tmp, int64_t len, const sort_ctx* s) {
  if (len < 2) return;
  const int64_t mid = len / 2;
  merge_sort(perm, tmp, mid, s);
  merge_sort(perm + mid, tmp, len - mid, s);
  int64_t i = 0, j = mid, k = 0;
  while (i < mid && j < len) {
    const int64_t* x = s->ix + perm[j] * s->n;
    const int64_t* y = s->ix + perm[i] * s->n;
    int c = 0;
    for (int64_t d = 0; d < s->n && !c; d++) c = x[d] < y[d] ? -1 : x[d] > y[d];
    tmp[k++] = c < 0 ? perm[j++] : perm[i++]; /* ties keep the left (earlier) row */
  }
  while (i < mid) tmp[k++] = perm[i++];
  while (j < len) tmp[k++] = perm[j++];
  memcpy(perm, tmp, (size_t)len * sizeof(*perm));
}

static void sparse_reorder_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* ix = ctx->inputs[0];
  const TF_Tensor* values = ctx->inputs[1];
  const TF_Tensor* shape = ctx->inputs[2];
  char a[256];
  if (!movable_value_type(values->dtype)) {
    mt_kernel_unsupported(ctx, "T", values->dtype);
    return;
  }
  if (!is_matrix(ix)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input indices should be a matrix but received shape %s",
                   dims_of(ix, a, sizeof a));
    return;
  }
  if (!is_vector(values)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input values should be a vector but received shape %s",
                   dims_of(values, a, sizeof a));
    return;
  }
  if (!is_vector(shape)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input shape should be a vector but received shape %s",
                   dims_of(shape, a, sizeof a));
    return;
  }
  const int64_t nnz = ix->dims[0], n = ix->dims[1];
  if (nnz != values->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Number of elements in indices (%lld) and values (%lld) do not match",
                   (long long)nnz, (long long)values->dims[0]);
    return;
  }
  if (n != shape->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Index rank (%lld) and shape rank (%lld) do not match", (long long)n,
                   (long long)shape->dims[0]);
    return;
  }
  /* Already strictly increasing: the inputs pass through unchanged. */
  int sorted = 1;
  for (int64_t r = 1; r < nnz && sorted; r++) sorted = cmp_rows(ix, r - 1, ix, r, n) < 0;
  if (sorted) {
    mt_ctx_set_shared(ctx, 0, ix);
    mt_ctx_set_shared(ctx, 1, values);
    return;
  }
  int64_t* perm = malloc((size_t)nnz * 2 * sizeof(int64_t));
  if (!perm) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "SparseReorder: out of memory");
    return;
  }
  for (int64_t r = 0; r < nnz; r++) perm[r] = r;
  const sort_ctx s = {mt_tensor_data(ix), n};
  merge_sort(perm, perm + nnz, nnz, &s);
  TF_Tensor* oix = mt_ctx_alloc(ctx, 0, TF_INT64, ix->dims, 2);
  TF_Tensor* oval = oix ? mt_ctx_alloc(ctx, 1, values->dtype, values->dims, 1) : NULL;
  if (oval) {
    for (int64_t r = 0; r < nnz; r++) {
      mv_copy(oix, r * n, ix, perm[r] * n, n);
      mv_copy(oval, r, values, perm[r], 1);
    }
  }
  free(perm);
}

/* ---- SparseTensorDenseMatMul ---- */

static void sparse_matmul_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 2) || !mt_shape_with_rank(ctx, 1, 1)) return;
  mt_shape a;
  if (!shape_from_tensor(ctx, 2, &a)) return;
  if (a.rank < 0) {
    a.rank = 2;
    a.dims[0] = a.dims[1] = -1;
  } else if (a.rank != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be rank 2 but is rank %d",
                   a.rank);
    return;
  }
  if (!mt_shape_with_rank(ctx, 3, 2)) return;
  const mt_shape* b = &ctx->in[3];
  const int adj_a = mt_op_attr_bool(ctx->op, "adjoint_a", 0);
  const int adj_b = mt_op_attr_bool(ctx->op, "adjoint_b", 0);
  const int64_t b0 = b->rank == 2 ? b->dims[0] : -1, b1 = b->rank == 2 ? b->dims[1] : -1;
  int64_t inner;
  if (!mt_merge_dim(ctx, adj_a ? a.dims[0] : a.dims[1], adj_b ? b1 : b0, &inner)) return;
  ctx->out[0].rank = 2;
  ctx->out[0].dims[0] = adj_a ? a.dims[1] : a.dims[0];
  ctx->out[0].dims[1] = adj_b ? b0 : b1;
}

/* out[m, :] += a * op(b)[k, :] for each entry; `bt` is b laid out as the
 * rows of op(b) ([K, N], conjugated for adjoint_b). Each type accumulates in
 * its own arithmetic, entry by entry, as TensorFlow's CPU functor does. */
#define SPMM_LOOP_(NAME, T, MULADD, CONJ)                                                \
  static void NAME(const int64_t* mk, int64_t nnz, const void* av, const void* bt,      \
                   void* outv, int64_t ncols, int adj_a) {                              \
    const T* a = av;                                                                    \
    const T* b = bt;                                                                    \
    T* out = outv;                                                                      \
    for (int64_t i = 0; i < nnz; i++) {                                                 \
      const T x = adj_a ? CONJ(a[i]) : a[i];                                            \
      const T* br = b + mk[2 * i + 1] * ncols;                                          \
      T* orow = out + mk[2 * i] * ncols;                                                \
      for (int64_t j = 0; j < ncols; j++) orow[j] = MULADD(orow[j], x, br[j]);          \
    }                                                                                   \
  }
#define MULADD_PLAIN_(acc, x, y) ((acc) + (x) * (y))
#define MULADD_I32_(acc, x, y) ((int32_t)((uint32_t)(acc) + (uint32_t)(x) * (uint32_t)(y)))
#define MULADD_HALF_(acc, x, y)                                                          \
  mt_float_to_half(mt_half_to_float(acc) +                                               \
                   mt_half_to_float(mt_float_to_half(mt_half_to_float(x) * mt_half_to_float(y))))
#define MULADD_BF16_(acc, x, y)                                                          \
  mt_float_to_bfloat16(mt_bfloat16_to_float(acc) +                                      \
                       mt_bfloat16_to_float(mt_float_to_bfloat16(                        \
                           mt_bfloat16_to_float(x) * mt_bfloat16_to_float(y))))
#define NOCONJ_(x) (x)
SPMM_LOOP_(spmm_f32, float, MULADD_PLAIN_, NOCONJ_)
SPMM_LOOP_(spmm_f64, double, MULADD_PLAIN_, NOCONJ_)
SPMM_LOOP_(spmm_i32, int32_t, MULADD_I32_, NOCONJ_)
SPMM_LOOP_(spmm_c64, mt_sp_c64, MULADD_PLAIN_, conjf)
SPMM_LOOP_(spmm_c128, mt_sp_c128, MULADD_PLAIN_, conj)
SPMM_LOOP_(spmm_f16, mt_half, MULADD_HALF_, NOCONJ_)
SPMM_LOOP_(spmm_bf16, mt_bfloat16, MULADD_BF16_, NOCONJ_)

typedef void (*spmm_fn)(const int64_t*, int64_t, const void*, const void*, void*, int64_t, int);
static const spmm_fn spmm_fns[MT_NUM_DTYPES] = {
    [TF_FLOAT] = spmm_f32,     [TF_DOUBLE] = spmm_f64,      [TF_INT32] = spmm_i32,
    [TF_COMPLEX64] = spmm_c64, [TF_COMPLEX128] = spmm_c128, [TF_HALF] = spmm_f16,
    [TF_BFLOAT16] = spmm_bf16};

/* Rows of op(b) ([K, N]) into dst: b itself, or its (conjugate) transpose. */
static void spmm_b_rows(const TF_Tensor* b, int adj_b, void* dst) {
  const size_t es = TF_DataTypeSize(b->dtype);
  const int64_t r = b->dims[0], c = b->dims[1];
  const char* src = mt_tensor_data(b);
  if (!adj_b) {
    memcpy(dst, src, (size_t)(r * c) * es);
    return;
  }
  for (int64_t i = 0; i < r; i++)
    for (int64_t j = 0; j < c; j++)
      memcpy((char*)dst + (size_t)(j * r + i) * es, src + (size_t)(i * c + j) * es, es);
  if (b->dtype == TF_COMPLEX64)
    for (int64_t i = 0; i < r * c; i++) ((mt_sp_c64*)dst)[i] = conjf(((mt_sp_c64*)dst)[i]);
  if (b->dtype == TF_COMPLEX128)
    for (int64_t i = 0; i < r * c; i++) ((mt_sp_c128*)dst)[i] = conj(((mt_sp_c128*)dst)[i]);
}

static int spmm_check_inputs(mt_kernel_ctx* ctx) {
  const TF_Tensor* ix = ctx->inputs[0];
  const TF_Tensor* values = ctx->inputs[1];
  const TF_Tensor* shape = ctx->inputs[2];
  const TF_Tensor* b = ctx->inputs[3];
  const char* msg = NULL;
  if (!is_matrix(b)) msg = "Tensor 'b' is not a matrix";
  else if (!is_vector(shape)) msg = "Tensor 'a_shape' is not a vector";
  else if (mt_tensor_nelems(shape) != 2) msg = "Tensor 'a_shape' must have 2 elements";
  else if (!is_vector(values)) msg = "Tensor 'a_values' is not a vector";
  else if (!is_matrix(ix)) msg = "Tensor 'a_indices' is not a matrix";
  else if (ix->dims[0] != values->dims[0])
    msg = "Number of rows of a_indices does not match number of entries in a_values";
  else if (ix->dims[1] != 2)
    msg = "Number of columns of a_indices does not match number of entries in a_shape";
  if (msg) mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s", msg);
  return msg == NULL;
}

static void sparse_matmul_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* ix = ctx->inputs[0];
  const TF_Tensor* values = ctx->inputs[1];
  const TF_Tensor* shape = ctx->inputs[2];
  const TF_Tensor* b = ctx->inputs[3];
  const spmm_fn fn = values->dtype < MT_NUM_DTYPES ? spmm_fns[values->dtype] : NULL;
  if (!fn) {
    mt_kernel_unsupported(ctx, "T", values->dtype);
    return;
  }
  if (!spmm_check_inputs(ctx)) return;
  const int adj_a = mt_op_attr_bool(ctx->op, "adjoint_a", 0);
  const int adj_b = mt_op_attr_bool(ctx->op, "adjoint_b", 0);
  const int64_t s0 = ival(shape, 0), s1 = ival(shape, 1);
  const int64_t out_rows = adj_a ? s1 : s0, inner_a = adj_a ? s0 : s1;
  const int64_t out_cols = adj_b ? b->dims[0] : b->dims[1];
  const int64_t inner_b = adj_b ? b->dims[1] : b->dims[0];
  if (inner_a != inner_b) {
    char bs[128];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Cannot multiply A and B because inner dimension does not match: %lld vs. "
                   "%lld.  Did you forget a transpose?  Dimensions of A: [%lld, %lld).  "
                   "Dimensions of B: %s",
                   (long long)inner_a, (long long)inner_b, (long long)s0, (long long)s1,
                   dims_of(b, bs, sizeof bs));
    return;
  }
  if (out_rows < 0) { /* TensorFlow aborts the process here */
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected shape dimensions to be non-negative, got %lld", (long long)out_rows);
    return;
  }
  const int64_t odims[2] = {out_rows, out_cols};
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, values->dtype, odims, 2);
  if (!out) return;
  const size_t es = TF_DataTypeSize(values->dtype);
  const int64_t nnz = ix->dims[0];
  memset(mt_tensor_data(out), 0, (size_t)(out_rows * out_cols) * es);
  if (out_rows * out_cols == 0 || nnz == 0 || mt_tensor_nelems(b) == 0) return;
  /* (m, k) per entry, bounds-checked in entry order as TensorFlow does. */
  int64_t* mk = malloc((size_t)nnz * 2 * sizeof(int64_t));
  void* bt = malloc((size_t)mt_tensor_nelems(b) * es);
  if (!mk || !bt) {
    free(mk);
    free(bt);
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "SparseTensorDenseMatMul: out of memory");
    return;
  }
  const int mcol = adj_a ? 1 : 0, kcol = adj_a ? 0 : 1;
  int64_t bad = -1;
  for (int64_t i = 0; i < nnz && bad < 0; i++) {
    const int64_t m = ival(ix, 2 * i + mcol), k = ival(ix, 2 * i + kcol);
    if (k < 0 || k >= inner_b) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "k (%lld) from index[%lld,%d] out of bounds (>=%lld)", (long long)k,
                     (long long)i, kcol, (long long)inner_b);
      bad = i;
    } else if (m < 0 || m >= out_rows) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "m (%lld) from index[%lld,%d] out of bounds (>=%lld)", (long long)m,
                     (long long)i, mcol, (long long)out_rows);
      bad = i;
    }
    mk[2 * i] = m;
    mk[2 * i + 1] = k;
  }
  if (bad < 0) {
    spmm_b_rows(b, adj_b, bt);
    fn(mk, nnz, mt_tensor_data(values), bt, mt_tensor_data(out), out_cols, adj_a);
  }
  free(mk);
  free(bt);
}

/* ---- SparseAdd ---- */

static void sparse_add_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 2, 1)) return;
  const mt_shape* a = &ctx->in[2];
  ctx->out[0].rank = 2;
  ctx->out[0].dims[0] = -1;
  ctx->out[0].dims[1] = a->rank == 1 ? a->dims[0] : -1;
  ctx->out[1].rank = 1;
  ctx->out[1].dims[0] = -1;
  if (a->rank == 1) ctx->out[2] = *a;
  else {
    ctx->out[2].rank = 1;
    ctx->out[2].dims[0] = -1;
  }
}

/* sum = x + y into *out; returns 1 when |sum| >= thresh (keep it). */
typedef int (*add_keep_fn)(const void* x, const void* y, const void* thresh, void* out);
#define ADD_KEEP_(NAME, T, TR, ABS)                                                 \
  static int NAME(const void* xv, const void* yv, const void* tv, void* ov) {      \
    const T s = (T)(*(const T*)xv + *(const T*)yv);                                \
    *(T*)ov = s;                                                                    \
    return *(const TR*)tv <= ABS(s);                                                \
  }
#define IABS_(x) ((x) < 0 ? -(x) : (x))
ADD_KEEP_(add_keep_f32, float, float, fabsf)
ADD_KEEP_(add_keep_f64, double, double, fabs)
ADD_KEEP_(add_keep_i8, int8_t, int8_t, IABS_)
ADD_KEEP_(add_keep_i16, int16_t, int16_t, IABS_)
ADD_KEEP_(add_keep_c64, mt_sp_c64, float, cabsf)
ADD_KEEP_(add_keep_c128, mt_sp_c128, double, cabs)
/* 32/64-bit sums wrap (TensorFlow's two's complement arithmetic) instead of
 * overflowing; |INT_MIN| stays negative as std::abs leaves it. */
static int add_keep_i32(const void* xv, const void* yv, const void* tv, void* ov) {
  const int32_t s = (int32_t)((uint32_t) * (const int32_t*)xv + (uint32_t) * (const int32_t*)yv);
  *(int32_t*)ov = s;
  const int32_t a = s == INT32_MIN ? s : IABS_(s);
  return *(const int32_t*)tv <= a;
}
static int add_keep_i64(const void* xv, const void* yv, const void* tv, void* ov) {
  const int64_t s = (int64_t)((uint64_t) * (const int64_t*)xv + (uint64_t) * (const int64_t*)yv);
  *(int64_t*)ov = s;
  const int64_t a = s == INT64_MIN ? s : IABS_(s);
  return *(const int64_t*)tv <= a;
}
static const add_keep_fn add_keep_fns[MT_NUM_DTYPES] = {
    [TF_FLOAT] = add_keep_f32, [TF_DOUBLE] = add_keep_f64,     [TF_INT8] = add_keep_i8,
    [TF_INT16] = add_keep_i16, [TF_INT32] = add_keep_i32,      [TF_INT64] = add_keep_i64,
    [TF_COMPLEX64] = add_keep_c64, [TF_COMPLEX128] = add_keep_c128};

static int sparse_add_check(mt_kernel_ctx* ctx) {
  TF_Tensor* const* in = ctx->inputs;
  const TF_Tensor *ai = in[0], *av = in[1], *as = in[2], *bi = in[3], *bv = in[4], *bs = in[5];
  char x[256], y[256];
  TF_Status* s = ctx->status;
  if (!is_matrix(ai) || !is_matrix(bi)) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Input indices should be matrices but received shapes: %s and %s",
                   dims_of(ai, x, sizeof x), dims_of(bi, y, sizeof y));
    return 0;
  }
  const int64_t n = ai->dims[1];
  if (bi->dims[1] != n) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Input indices must have the same dimension, got %lld and %lld",
                   (long long)n, (long long)bi->dims[1]);
    return 0;
  }
  if (!is_vector(av) || !is_vector(bv)) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Input values should be vectors but received shapes: %s and %s",
                   dims_of(av, x, sizeof x), dims_of(bv, y, sizeof y));
    return 0;
  }
  if (av->dims[0] != ai->dims[0] || bv->dims[0] != bi->dims[0]) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Expected %lld and %lld non-empty input values, got %lld and %lld",
                   (long long)ai->dims[0], (long long)bi->dims[0], (long long)av->dims[0],
                   (long long)bv->dims[0]);
    return 0;
  }
  if (!is_vector(as) || !is_vector(bs)) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Input shapes should be a vector but received shapes %s and %s",
                   dims_of(as, x, sizeof x), dims_of(bs, y, sizeof y));
    return 0;
  }
  if (as->dims[0] != n) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Second dimension of a_indices and length of a_shape must match, got %lld and %lld",
                   (long long)n, (long long)as->dims[0]);
    return 0;
  }
  if (n == 0) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Tesors must not be empty"); /* sic, as TensorFlow */
    return 0;
  }
  if (as->dims[0] != bs->dims[0]) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Operands do not have the same ranks; got shapes: %s and %s",
                   values_str(as, 10, x, sizeof x), values_str(bs, 10, y, sizeof y));
    return 0;
  }
  for (int64_t d = 0; d < n; d++) {
    if (ival(as, d) != ival(bs, d)) {
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "Operands' shapes do not match: got %lld and %lld for dimension %lld",
                     (long long)ival(as, d), (long long)ival(bs, d), (long long)d);
      return 0;
    }
  }
  if (in[6]->ndims != 0) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "The magnitude threshold must be a scalar: got shape %s",
                   dims_of(in[6], x, sizeof x));
    return 0;
  }
  return 1;
}

static void sparse_add_kernel(mt_kernel_ctx* ctx) {
  TF_Tensor* const* in = ctx->inputs;
  const TF_Tensor *ai = in[0], *av = in[1], *bi = in[3], *bv = in[4];
  const TF_DataType dt = av->dtype;
  const add_keep_fn fn = dt < MT_NUM_DTYPES ? add_keep_fns[dt] : NULL;
  if (!fn) {
    mt_kernel_unsupported(ctx, "T", dt);
    return;
  }
  if (!sparse_add_check(ctx)) return;
  const int64_t an = ai->dims[0], bn = bi->dims[0], n = ai->dims[1];
  const size_t es = TF_DataTypeSize(dt);
  /* Merge pass: src[k] = row of a (>= 0) or of b (-1 - row); sums go to vals. */
  int64_t* src = malloc((size_t)(an + bn + 1) * sizeof(int64_t));
  char* vals = malloc((size_t)(an + bn + 1) * es);
  if (!src || !vals) {
    free(src);
    free(vals);
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "SparseAdd: out of memory");
    return;
  }
  const char* ad = mt_tensor_data(av);
  const char* bd = mt_tensor_data(bv);
  int64_t i = 0, j = 0, k = 0;
  while (i < an && j < bn) {
    const int c = cmp_rows(ai, i, bi, j, n);
    if (c < 0) {
      memcpy(vals + k * es, ad + i * es, es);
      src[k++] = i++;
    } else if (c > 0) {
      memcpy(vals + k * es, bd + j * es, es);
      src[k++] = -1 - j++;
    } else {
      if (fn(ad + i * es, bd + j * es, mt_tensor_data(in[6]), vals + k * es)) src[k++] = i;
      i++;
      j++;
    }
  }
  for (; i < an; i++, k++) memcpy(vals + k * es, ad + i * es, es), src[k] = i;
  for (; j < bn; j++, k++) memcpy(vals + k * es, bd + j * es, es), src[k] = -1 - j;
  const int64_t idims[2] = {k, n};
  TF_Tensor* oi = mt_ctx_alloc(ctx, 0, TF_INT64, idims, 2);
  TF_Tensor* ov = oi ? mt_ctx_alloc(ctx, 1, dt, &k, 1) : NULL;
  if (ov) {
    for (int64_t r = 0; r < k; r++) {
      if (src[r] >= 0) mv_copy(oi, r * n, ai, src[r] * n, n);
      else mv_copy(oi, r * n, bi, (-1 - src[r]) * n, n);
    }
    if (k) memcpy(mt_tensor_data(ov), vals, (size_t)k * es);
    mt_ctx_set_shared(ctx, 2, in[2]);
  }
  free(src);
  free(vals);
}

/* ---- SparseTensorDenseAdd ---- */

static void sparse_dense_add_shape(mt_shape_ctx* ctx) { ctx->out[0] = ctx->in[3]; }

/* dst[0] += src[0] for one element of type dt (integers wrap; half and
 * bfloat16 add in float and round, as Eigen does). */
static void add_one(TF_DataType dt, void* dst, const void* src) {
  switch (dt) {
#define ADD_CASE_(DT, CT, _)                                                        \
  case DT: {                                                                        \
    typedef mt_wide_##CT W;                                                         \
    *(CT*)dst = (CT)((W) * (CT*)dst + (W) * (const CT*)src);                        \
    break;                                                                          \
  }
    MT_REAL_TYPES(ADD_CASE_, _)
#undef ADD_CASE_
    case TF_COMPLEX64: *(mt_sp_c64*)dst += *(const mt_sp_c64*)src; break;
    case TF_COMPLEX128: *(mt_sp_c128*)dst += *(const mt_sp_c128*)src; break;
    case TF_HALF:
      *(mt_half*)dst = mt_float_to_half(mt_half_to_float(*(mt_half*)dst) +
                                        mt_half_to_float(*(const mt_half*)src));
      break;
    case TF_BFLOAT16:
      *(mt_bfloat16*)dst = mt_float_to_bfloat16(mt_bfloat16_to_float(*(mt_bfloat16*)dst) +
                                                mt_bfloat16_to_float(*(const mt_bfloat16*)src));
      break;
    default: break;
  }
}

static int number_type(TF_DataType dt) {
  return movable_value_type(dt) && dt != TF_BOOL && dt != TF_STRING;
}

static int dense_add_check(mt_kernel_ctx* ctx) {
  TF_Tensor* const* in = ctx->inputs;
  const TF_Tensor *ix = in[0], *val = in[1], *shape = in[2], *b = in[3];
  char x[256], y[256];
  TF_Status* s = ctx->status;
  if (!is_matrix(ix)) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Input a_indices should be a matrix but received shape: %s",
                   dims_of(ix, x, sizeof x));
    return 0;
  }
  if (!is_vector(val) || !is_vector(shape)) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Inputs a_values and a_shape should be vectors but received shapes: %s and %s",
                   dims_of(val, x, sizeof x), dims_of(shape, y, sizeof y));
    return 0;
  }
  const int64_t nnz = ix->dims[0], n = ix->dims[1];
  if (val->dims[0] != nnz || shape->dims[0] != n) {
    const int first = val->dims[0] != nnz;
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Dimensions %lld and %lld are not compatible",
                   (long long)(first ? nnz : n),
                   (long long)(first ? val->dims[0] : shape->dims[0]));
    return 0;
  }
  if (shape->dims[0] != b->ndims) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Two operands have different ranks; received: %lld and %d",
                   (long long)shape->dims[0], b->ndims);
    return 0;
  }
  for (int d = 0; d < b->ndims; d++) {
    if (ival(shape, d) != b->dims[d]) {
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "Dimension %d does not equal (no broadcasting is supported): sparse side "
                     "%lld vs dense side %lld",
                     d, (long long)ival(shape, d), (long long)b->dims[d]);
      return 0;
    }
  }
  for (int64_t z = 0; z < nnz; z++) {
    for (int64_t d = 0; d < n; d++) {
      const int64_t v = ival(ix, z * n + d);
      if (v < 0 || v >= ival(shape, d)) {
        mt_status_setf(s, TF_INVALID_ARGUMENT,
                       "Sparse tensor has an invalid index on dimension %lld: a_indices(%lld,%lld) "
                       "= %lld, dense tensor shape: %s",
                       (long long)d, (long long)z, (long long)d, (long long)v,
                       values_str(shape, MT_MAX_DIMS, x, sizeof x));
        return 0;
      }
    }
  }
  if (n < 1 || n > 5) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Only tensors with ranks between 1 and 5 are currently supported.  Tensor "
                   "rank: %lld",
                   (long long)n);
    return 0;
  }
  return 1;
}

static void sparse_dense_add_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* ix = ctx->inputs[0];
  const TF_Tensor* val = ctx->inputs[1];
  const TF_Tensor* b = ctx->inputs[3];
  if (!number_type(val->dtype)) {
    mt_kernel_unsupported(ctx, "T", val->dtype);
    return;
  }
  if (!dense_add_check(ctx)) return;
  TF_Tensor* out = mt_ctx_forward(ctx, 3, 0, b->dtype, b->dims, b->ndims);
  if (!out) return;
  const size_t es = TF_DataTypeSize(b->dtype);
  if (mt_tensor_data(out) != mt_tensor_data(b))
    memcpy(mt_tensor_data(out), mt_tensor_data(b), (size_t)mt_tensor_nelems(b) * es);
  const int64_t nnz = ix->dims[0], n = ix->dims[1];
  char* od = mt_tensor_data(out);
  const char* vd = mt_tensor_data(val);
  for (int64_t z = 0; z < nnz; z++) {
    int64_t off = 0;
    for (int64_t d = 0; d < n; d++) off = off * b->dims[d] + ival(ix, z * n + d);
    add_one(b->dtype, od + (size_t)off * es, vd + (size_t)z * es);
  }
}

/* ---- SparseAddGrad ---- */

static void sparse_add_grad_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 1, 2) || !mt_shape_with_rank(ctx, 2, 2)) return;
  for (int k = 0; k < 2; k++) {
    ctx->out[k].rank = 1;
    ctx->out[k].dims[0] = ctx->in[1 + k].rank == 2 ? ctx->in[1 + k].dims[0] : -1;
  }
}

static int sparse_add_grad_check(mt_kernel_ctx* ctx) {
  const TF_Tensor *g = ctx->inputs[0], *a = ctx->inputs[1], *b = ctx->inputs[2];
  const TF_Tensor* sum = ctx->inputs[3];
  char x[64], y[64], z[64];
  if (!is_matrix(a) || !is_matrix(b) || !is_matrix(sum)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input indices should be matrices but received shapes: %s and %s and %s",
                   dims_of(a, x, sizeof x), dims_of(b, y, sizeof y), dims_of(sum, z, sizeof z));
    return 0;
  }
  if (!is_vector(g)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input backprop_val_grad should be a vector but received shape: %s",
                   dims_of(g, x, sizeof x));
    return 0;
  }
  if (a->dims[1] != b->dims[1] || b->dims[1] != sum->dims[1]) {
    /* TensorFlow's StrCat runs the three numbers together */
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "The densified operands should have the same ndims; for A, B, sum got: "
                   "%lld%lld%lld",
                   (long long)a->dims[1], (long long)b->dims[1], (long long)sum->dims[1]);
    return 0;
  }
  if (g->dims[0] != sum->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "# elements of backprop_val_grad and # rows of sum_indices should match "
                   "(#nnz of sum): got %lld and %lld",
                   (long long)g->dims[0], (long long)sum->dims[0]);
    return 0;
  }
  return 1;
}

/* One step of TensorFlow's merge: row idx of ix against sum row k; a match
 * takes the gradient of k. Sets *geq to 0 when the row sorts before k. */
static void sparse_add_grad_step(const TF_Tensor* ix, int64_t* idx, const TF_Tensor* sum,
                                 int64_t k, int64_t nd, const char* g, char* out, size_t es,
                                 int* geq) {
  switch (cmp_rows(ix, *idx, sum, k, nd)) {
    case 0:
      memcpy(out + (size_t)*idx * es, g + (size_t)k * es, es);
      ++*idx;
      break;
    case -1:
      ++*idx;
      *geq = 0;
      break;
    default:
      break;
  }
}

/* The gradients of SparseAdd's a_values and b_values: the sum's gradient at
 * the positions where each operand's index appears in sum_indices (both
 * sorted), zero where the sum dropped it (thresh). */
static void sparse_add_grad_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor *g = ctx->inputs[0], *a = ctx->inputs[1], *b = ctx->inputs[2];
  const TF_Tensor* sum = ctx->inputs[3];
  switch (g->dtype) {
    case TF_FLOAT: case TF_DOUBLE: case TF_INT64: case TF_INT32: case TF_INT16: case TF_INT8:
    case TF_COMPLEX64: case TF_COMPLEX128:
      break;
    default:
      mt_kernel_unsupported(ctx, "T", g->dtype);
      return;
  }
  if (!sparse_add_grad_check(ctx)) return;
  const int64_t an = a->dims[0], bn = b->dims[0], sn = g->dims[0], nd = a->dims[1];
  TF_Tensor* ga = mt_ctx_alloc(ctx, 0, g->dtype, &an, 1);
  TF_Tensor* gb = ga ? mt_ctx_alloc(ctx, 1, g->dtype, &bn, 1) : NULL;
  if (!gb) return;
  const size_t es = TF_DataTypeSize(g->dtype);
  char *oa = mt_tensor_data(ga), *ob = mt_tensor_data(gb);
  const char* gv = mt_tensor_data(g);
  memset(oa, 0, (size_t)an * es);
  memset(ob, 0, (size_t)bn * es);
  int64_t i = 0, j = 0, k = 0;
  while (i < an && j < bn && k < sn) {
    int ageq = 1, bgeq = 1;
    sparse_add_grad_step(a, &i, sum, k, nd, gv, oa, es, &ageq);
    sparse_add_grad_step(b, &j, sum, k, nd, gv, ob, es, &bgeq);
    if (ageq && bgeq) ++k; /* both operands are at or past sum row k */
  }
  while (i < an && k < sn) {
    int geq = 1;
    sparse_add_grad_step(a, &i, sum, k, nd, gv, oa, es, &geq);
    if (geq) ++k;
  }
  while (j < bn && k < sn) {
    int geq = 1;
    sparse_add_grad_step(b, &j, sum, k, nd, gv, ob, es, &geq);
    if (geq) ++k;
  }
}

/* ---- registration ---- */

static const mt_op_spec sparse_specs[] = {
    {.name = "SparseToDense",
     .inputs = "sparse_indices: Tindices, output_shape: Tindices, sparse_values: T,"
               " default_value: T",
     .outputs = "dense: T",
     .attrs = "validate_indices: bool = true; T: type; Tindices: {int32, int64}",
     .shape = sparse_to_dense_shape, .kernel = sparse_to_dense_kernel},
    {.name = "SparseReorder",
     .inputs = "input_indices: int64, input_values: T, input_shape: int64",
     .outputs = "output_indices: int64, output_values: T",
     .attrs = "T: type",
     .shape = sparse_reorder_shape, .kernel = sparse_reorder_kernel},
    {.name = "SparseTensorDenseMatMul",
     .inputs = "a_indices: Tindices, a_values: T, a_shape: int64, b: T",
     .outputs = "product: T",
     .attrs = "T: type; Tindices: {int32, int64} = DT_INT64; adjoint_a: bool = false;"
              " adjoint_b: bool = false",
     .shape = sparse_matmul_shape, .kernel = sparse_matmul_kernel},
    {.name = "SparseAdd",
     .inputs = "a_indices: int64, a_values: T, a_shape: int64, b_indices: int64,"
               " b_values: T, b_shape: int64, thresh: Treal",
     .outputs = "sum_indices: int64, sum_values: T, sum_shape: int64",
     .attrs = "T: numbertype; Treal: realnumbertype",
     .shape = sparse_add_shape, .kernel = sparse_add_kernel},
    {.name = "SparseTensorDenseAdd",
     .inputs = "a_indices: Tindices, a_values: T, a_shape: Tindices, b: T",
     .outputs = "output: T",
     .attrs = "T: numbertype; Tindices: {int32, int64}",
     .shape = sparse_dense_add_shape, .kernel = sparse_dense_add_kernel},
    {.name = "SparseAddGrad",
     .inputs = "backprop_val_grad: T, a_indices: int64, b_indices: int64, sum_indices: int64",
     .outputs = "a_val_grad: T, b_val_grad: T", .attrs = "T: numbertype",
     .shape = sparse_add_grad_shape, .kernel = sparse_add_grad_kernel},
};

void mt_register_sparse_ops(void) {
  mt_register_ops(sparse_specs, (int)(sizeof sparse_specs / sizeof sparse_specs[0]));
  mt_register_sparse_reshape_ops();
  mt_register_sparse_reduce_ops();
  mt_register_sparse_concat_ops();
  mt_register_sparse_split_ops();
  mt_register_sparse_fill_empty_rows_ops();
  mt_register_sparse_slice_ops();
  mt_register_sparse_serialize_ops();
}
