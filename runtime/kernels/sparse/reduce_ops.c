/* SparseReduceSum, SparseReduceMax and their Sparse forms (TensorFlow's
 * sparse_reduce_op.cc): the entries are ordered by the kept dimensions, then
 * the reduced ones (a stable sort, as TensorFlow's Reorder on a copy), and
 * each run of entries with equal kept coordinates is one output value,
 * summed or maximized in index order. The dense forms leave positions no
 * entry reaches at 0, as TensorFlow does (for Max too). */
#include <complex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/half.h"
#include "runtime/kernels/sparse/sparse_more.h"

typedef struct reduce_plan {
  int ndims;
  int ngroup;              /* kept dims */
  int group[MT_MAX_DIMS];  /* kept dims, ascending */
  int order[MT_MAX_DIMS];  /* kept dims then reduced dims */
  int reduced[MT_MAX_DIMS]; /* 1 for a reduced dim */
  int64_t shape[MT_MAX_DIMS];
} reduce_plan;

/* TensorFlow's ValidateInputs + SparseTensor::Create checks, in its order. */
static int check_inputs(mt_kernel_ctx* ctx, reduce_plan* p) {
  const TF_Tensor* ix = ctx->inputs[0];
  const TF_Tensor* vals = ctx->inputs[1];
  const TF_Tensor* shape = ctx->inputs[2];
  const TF_Tensor* axes = ctx->inputs[3];
  char buf[256];
  if (shape->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected input_shape to be a vector; got shape: %s",
                   mt_sp_dims(shape, buf, sizeof buf));
    return 0;
  }
  if (axes->ndims > 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected reduction_axes to be a scalar or a vector; got shape: %s",
                   mt_sp_dims(axes, buf, sizeof buf));
    return 0;
  }
  const int64_t n = shape->dims[0];
  const int32_t* ax = mt_tensor_data(axes);
  const int64_t nax = mt_tensor_nelems(axes);
  for (int64_t i = 0; i < nax; i++) {
    if (ax[i] < -n || ax[i] >= n) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Invalid reduction dimension %d, for input with %lld dimensions.", ax[i],
                     (long long)n);
      return 0;
    }
  }
  if (n > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Too many dimensions in tensor");
    return 0;
  }
  const int64_t* sv = mt_tensor_data(shape);
  for (int64_t d = 0; d < n; d++) {
    if (sv[d] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                     (long long)sv[d]);
      return 0;
    }
  }
  if (vals->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "vals must be a vec, but got: %s",
                   mt_sp_dims(vals, buf, sizeof buf));
    return 0;
  }
  if (ix->ndims != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "indices must be a matrix, but got: %s",
                   mt_sp_dims(ix, buf, sizeof buf));
    return 0;
  }
  if (ix->dims[0] != vals->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "indices and values rows (indexing dimension) must match. (indices = %lld, "
                   "values = %lld)",
                   (long long)ix->dims[0], (long long)vals->dims[0]);
    return 0;
  }
  if (ix->dims[1] != n) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape rank must be SparseTensor rank.");
    return 0;
  }
  if (n == 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Number of dims in shape tensor must not be 0");
    return 0;
  }
  p->ndims = (int)n;
  memcpy(p->shape, sv, sizeof(int64_t) * (size_t)n);
  memset(p->reduced, 0, sizeof p->reduced);
  for (int64_t i = 0; i < nax; i++) p->reduced[(ax[i] + n) % n] = 1;
  p->ngroup = 0;
  for (int d = 0; d < p->ndims; d++)
    if (!p->reduced[d]) p->group[p->ngroup++] = d;
  int k = 0;
  for (int g = 0; g < p->ngroup; g++) p->order[k++] = p->group[g];
  for (int d = 0; d < p->ndims; d++)
    if (p->reduced[d]) p->order[k++] = d;
  return 1;
}

typedef struct sort_ctx {
  const int64_t* ix;
  const reduce_plan* p;
} sort_ctx;

static int cmp_entries(const sort_ctx* s, int64_t a, int64_t b, int ndims_cmp) {
  const int n = s->p->ndims;
  for (int k = 0; k < ndims_cmp; k++) {
    const int d = s->p->order[k];
    const int64_t x = s->ix[a * n + d], y = s->ix[b * n + d];
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

static void merge_sort(int64_t* perm, int64_t* tmp, int64_t len, const sort_ctx* s) {
  if (len < 2) return;
  const int64_t half = len / 2;
  merge_sort(perm, tmp, half, s);
  merge_sort(perm + half, tmp, len - half, s);
  int64_t i = 0, j = half, k = 0;
  while (i < half && j < len)
    tmp[k++] = cmp_entries(s, perm[j], perm[i], s->p->ndims) < 0 ? perm[j++] : perm[i++];
  while (i < half) tmp[k++] = perm[i++];
  while (j < len) tmp[k++] = perm[j++];
  memcpy(perm, tmp, sizeof(int64_t) * (size_t)len);
}

/* ---- the reduction of one group, per value type ---- */

typedef void (*group_fn)(const void* vals, const int64_t* perm, int64_t b, int64_t e, void* out,
                         int is_max);

#define GROUP_FN(name, ctype, acct, load, store)                                            \
  static void name(const void* vals, const int64_t* perm, int64_t b, int64_t e, void* out,   \
                   int is_max) {                                                             \
    const ctype* v = vals;                                                                   \
    acct acc = load(v[perm[b]]);                                                             \
    for (int64_t i = b + 1; i < e; i++) {                                                    \
      const acct x = load(v[perm[i]]);                                                       \
      if (is_max) acc = x > acc ? x : acc;                                                   \
      else acc = acc + x;                                                                    \
    }                                                                                        \
    *(ctype*)out = store(acc);                                                               \
  }
#define ID(x) (x)
GROUP_FN(g_f32, float, float, ID, ID)
GROUP_FN(g_f64, double, double, ID, ID)
GROUP_FN(g_i8, int8_t, int8_t, ID, (int8_t))
GROUP_FN(g_i16, int16_t, int16_t, ID, (int16_t))
GROUP_FN(g_i32, int32_t, uint32_t, (uint32_t), (int32_t))
GROUP_FN(g_i64, int64_t, uint64_t, (uint64_t), (int64_t))
GROUP_FN(g_u8, uint8_t, uint8_t, ID, (uint8_t))
GROUP_FN(g_u16, uint16_t, uint16_t, ID, (uint16_t))
GROUP_FN(g_u32, uint32_t, uint32_t, ID, ID)
GROUP_FN(g_u64, uint64_t, uint64_t, ID, ID)
GROUP_FN(g_f16, mt_half, float, mt_half_to_float, mt_float_to_half)
GROUP_FN(g_bf16, mt_bfloat16, float, mt_bfloat16_to_float, mt_float_to_bfloat16)

/* Signed max must compare signed: the wrapping loads above are for sums. */
#define GROUP_MAX_FN(name, ctype)                                                           \
  static void name(const void* vals, const int64_t* perm, int64_t b, int64_t e, void* out,  \
                   int is_max) {                                                            \
    const ctype* v = vals;                                                                  \
    ctype acc = v[perm[b]];                                                                 \
    for (int64_t i = b + 1; i < e; i++) acc = v[perm[i]] > acc ? v[perm[i]] : acc;          \
    *(ctype*)out = acc;                                                                     \
  }
GROUP_MAX_FN(m_i32, int32_t)
GROUP_MAX_FN(m_i64, int64_t)

static void g_c64(const void* vals, const int64_t* perm, int64_t b, int64_t e, void* out,
                  int is_max) {
  const float _Complex* v = vals;
  float _Complex acc = v[perm[b]];
  for (int64_t i = b + 1; i < e; i++) acc += v[perm[i]];
  *(float _Complex*)out = acc;
}

static void g_c128(const void* vals, const int64_t* perm, int64_t b, int64_t e, void* out,
                   int is_max) {
  const double _Complex* v = vals;
  double _Complex acc = v[perm[b]];
  for (int64_t i = b + 1; i < e; i++) acc += v[perm[i]];
  *(double _Complex*)out = acc;
}

static group_fn group_fn_for(TF_DataType dt, int is_max) {
  switch (dt) {
    case TF_FLOAT: return g_f32;
    case TF_DOUBLE: return g_f64;
    case TF_HALF: return g_f16;
    case TF_BFLOAT16: return g_bf16;
    case TF_INT8: return g_i8;
    case TF_INT16: return g_i16;
    case TF_INT32: return is_max ? m_i32 : g_i32;
    case TF_INT64: return is_max ? m_i64 : g_i64;
    case TF_UINT8: return g_u8;
    case TF_UINT16: return g_u16;
    case TF_UINT32: return g_u32;
    case TF_UINT64: return g_u64;
    case TF_COMPLEX64: return is_max ? NULL : g_c64;
    case TF_COMPLEX128: return is_max ? NULL : g_c128;
    default: return NULL;
  }
}

/* ---- kernels ---- */

typedef struct reduce_run {
  reduce_plan p;
  int64_t* perm;
  int64_t nnz;
  group_fn fn;
} reduce_run;

/* Validates, sorts the entries; 0 on error. */
static int prepare(mt_kernel_ctx* ctx, int is_max, reduce_run* r) {
  r->fn = group_fn_for(ctx->inputs[1]->dtype, is_max);
  if (!r->fn) {
    mt_kernel_unsupported(ctx, "T", ctx->inputs[1]->dtype);
    return 0;
  }
  if (!check_inputs(ctx, &r->p)) return 0;
  r->nnz = ctx->inputs[0]->dims[0];
  r->perm = mt_malloc(sizeof(int64_t) * (size_t)(2 * r->nnz + 1), ctx->status);
  if (!r->perm) return 0;
  for (int64_t i = 0; i < r->nnz; i++) r->perm[i] = i;
  sort_ctx s = {mt_tensor_data(ctx->inputs[0]), &r->p};
  merge_sort(r->perm, r->perm + r->nnz, r->nnz, &s);
  return 1;
}

/* End of the group starting at sorted position b. */
static int64_t group_end(const reduce_run* r, const int64_t* ix, int64_t b) {
  sort_ctx s = {ix, &r->p};
  int64_t e = b + 1;
  while (e < r->nnz && cmp_entries(&s, r->perm[b], r->perm[e], r->p.ngroup) == 0) e++;
  return e;
}

static void reduce_dense(mt_kernel_ctx* ctx, int is_max) {
  reduce_run r;
  if (!prepare(ctx, is_max, &r)) return;
  const int keep = mt_op_attr_bool(ctx->op, "keep_dims", 0);
  int64_t dims[MT_MAX_DIMS];
  int nd = 0;
  for (int d = 0; d < r.p.ndims; d++) {
    if (!r.p.reduced[d]) dims[nd++] = r.p.shape[d];
    else if (keep) dims[nd++] = 1;
  }
  const TF_DataType dt = ctx->inputs[1]->dtype;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, dt, dims, nd);
  if (!out) {
    free(r.perm);
    return;
  }
  const size_t es = TF_DataTypeSize(dt);
  memset(mt_tensor_data(out), 0, es * (size_t)mt_tensor_nelems(out));
  int64_t strides[MT_MAX_DIMS];
  int64_t st = 1;
  for (int g = r.p.ngroup - 1; g >= 0; g--) {
    strides[g] = st;
    st *= r.p.shape[r.p.group[g]];
  }
  const int64_t* ix = mt_tensor_data(ctx->inputs[0]);
  const int64_t total = mt_tensor_nelems(out);
  for (int64_t b = 0; b < r.nnz;) {
    const int64_t e = group_end(&r, ix, b);
    int64_t idx = 0;
    for (int g = 0; g < r.p.ngroup; g++) idx += ix[r.perm[b] * r.p.ndims + r.p.group[g]] * strides[g];
    if (idx < 0 || idx >= total) {
      mt_status_setf(ctx->status, TF_INTERNAL,
                     "Obtained a write index of %lld which is outside of bounds of [0, %lld)",
                     (long long)idx, (long long)total);
      break;
    }
    r.fn(mt_tensor_data(ctx->inputs[1]), r.perm, b, e, (char*)mt_tensor_data(out) + es * (size_t)idx,
         is_max);
    b = e;
  }
  free(r.perm);
}

static void reduce_sparse(mt_kernel_ctx* ctx, int is_max) {
  reduce_run r;
  if (!prepare(ctx, is_max, &r)) return;
  const int keep = mt_op_attr_bool(ctx->op, "keep_dims", 0);
  const int64_t* ix = mt_tensor_data(ctx->inputs[0]);
  int64_t groups = 0;
  for (int64_t b = 0; b < r.nnz; b = group_end(&r, ix, b)) groups++;
  const int out_rank = keep ? r.p.ndims : r.p.ngroup;
  const int64_t idims[2] = {groups, out_rank};
  const TF_DataType dt = ctx->inputs[1]->dtype;
  const int64_t rank1 = out_rank;
  TF_Tensor* oi = mt_ctx_alloc(ctx, 0, TF_INT64, idims, 2);
  TF_Tensor* ov = oi ? mt_ctx_alloc(ctx, 1, dt, &groups, 1) : NULL;
  TF_Tensor* os = ov ? mt_ctx_alloc(ctx, 2, TF_INT64, &rank1, 1) : NULL;
  if (!os) {
    free(r.perm);
    return;
  }
  int64_t* oix = mt_tensor_data(oi);
  memset(oix, 0, sizeof(int64_t) * (size_t)(groups * out_rank));
  const size_t es = TF_DataTypeSize(dt);
  int64_t k = 0;
  for (int64_t b = 0; b < r.nnz; k++) {
    const int64_t e = group_end(&r, ix, b);
    for (int g = 0; g < r.p.ngroup; g++)
      oix[k * out_rank + (keep ? r.p.group[g] : g)] = ix[r.perm[b] * r.p.ndims + r.p.group[g]];
    r.fn(mt_tensor_data(ctx->inputs[1]), r.perm, b, e, (char*)mt_tensor_data(ov) + es * (size_t)k,
         is_max);
    b = e;
  }
  int64_t* osv = mt_tensor_data(os);
  int nd = 0;
  for (int d = 0; d < r.p.ndims; d++) {
    if (!r.p.reduced[d]) osv[nd++] = r.p.shape[d];
    else if (keep) osv[nd++] = 1;
  }
  free(r.perm);
}

static void sum_kernel(mt_kernel_ctx* ctx) { reduce_dense(ctx, 0); }
static void max_kernel(mt_kernel_ctx* ctx) { reduce_dense(ctx, 1); }
static void sum_sparse_kernel(mt_kernel_ctx* ctx) { reduce_sparse(ctx, 0); }
static void max_sparse_kernel(mt_kernel_ctx* ctx) { reduce_sparse(ctx, 1); }

/* TensorFlow's SparseReduceShapeFn: known when input_shape and the axes
 * are constants, else unknown. */
static void reduce_shape(mt_shape_ctx* ctx) {
  const TF_Tensor* shape = ctx->in_values[2];
  const TF_Tensor* axes = ctx->in_values[3];
  if (!shape || !axes || shape->dtype != TF_INT64 || axes->dtype != TF_INT32) return;
  const int64_t n = mt_tensor_nelems(shape);
  if (n == 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Number of dims in shape tensor must not be 0");
    return;
  }
  if (n > MT_MAX_DIMS) return;
  const int keep = mt_op_attr_bool(ctx->op, "keep_dims", 0);
  int reduced[MT_MAX_DIMS] = {0};
  const int32_t* ax = mt_tensor_data(axes);
  for (int64_t i = 0; i < mt_tensor_nelems(axes); i++) {
    int64_t a = ((int64_t)ax[i] + n) % n;
    if (a < 0) a += n; /* C's % keeps the sign; TF's int64 % does too: same */
    if (a >= 0 && a < n) reduced[a] = 1;
  }
  const int64_t* sv = mt_tensor_data(shape);
  int64_t dims[MT_MAX_DIMS];
  int nd = 0;
  for (int64_t d = 0; d < n; d++) {
    if (!reduced[d]) dims[nd++] = sv[d];
    else if (keep) dims[nd++] = 1;
  }
  ctx->out[0] = mt_shape_make(dims, nd);
}

#define REDUCE_INPUTS "input_indices: int64, input_values: T, input_shape: int64, " \
                      "reduction_axes: int32"
#define REAL_T "T: realnumbertype"
#define NUMBER_T "T: numbertype"

static const mt_op_spec reduce_specs[] = {
    {.name = "SparseReduceSum", .inputs = REDUCE_INPUTS, .outputs = "output: T",
     .attrs = "keep_dims: bool = false; " NUMBER_T, .shape = reduce_shape, .kernel = sum_kernel},
    {.name = "SparseReduceMax", .inputs = REDUCE_INPUTS, .outputs = "output: T",
     .attrs = "keep_dims: bool = false; " REAL_T, .shape = reduce_shape, .kernel = max_kernel},
    {.name = "SparseReduceSumSparse", .inputs = REDUCE_INPUTS,
     .outputs = "output_indices: int64, output_values: T, output_shape: int64",
     .attrs = "keep_dims: bool = false; " NUMBER_T, .kernel = sum_sparse_kernel},
    {.name = "SparseReduceMaxSparse", .inputs = REDUCE_INPUTS,
     .outputs = "output_indices: int64, output_values: T, output_shape: int64",
     .attrs = "keep_dims: bool = false; " REAL_T, .kernel = max_sparse_kernel},
};

void mt_register_sparse_reduce_ops(void) {
  mt_register_ops(reduce_specs, (int)(sizeof reduce_specs / sizeof reduce_specs[0]));
}
