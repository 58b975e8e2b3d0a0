/* Batched matrix products (BatchMatMul, BatchMatMulV2, BatchMatMulV3) and
 * Einsum. Signatures and CPU dtypes are TensorFlow's (math_ops.cc,
 * linalg_ops.cc, batch_matmul_op_impl.h, einsum_op_impl.h).
 *
 * Every product runs through one batched GEMM (bgemm below) on a computing
 * type: float (float, and float16/bfloat16/int8 mixes widened to float),
 * double, or int64 for integers (wrapping arithmetic, truncated to the
 * output type, which equals TensorFlow's wrapping in the narrow type).
 * float/double call BLAS once per batch matrix, or once in all when the
 * right operand is shared by every batch. Einsum lowers any one- or
 * two-operand equation to strided gathers around a bgemm. complex64/128
 * products run in their own type through cgemm/zgemm; BatchMatMul's adj_x /
 * adj_y are conjugate transposes for them (Einsum only transposes).
 * The family's other ops are in runtime/kernels/linalg/ (linalg.h). */
#include <cblas.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/half.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/linalg/linalg.h"

/* ---- computing types ---- */

typedef enum { CT_F32, CT_F64, CT_I64, CT_C64, CT_C128 } ctype;

static size_t ct_size(ctype c) { return c == CT_F32 ? 4 : c == CT_C128 ? 16 : 8; }

/* The computing type of an output dtype; -1 when not computed. */
static int ct_of(TF_DataType dt) {
  switch (dt) {
    case TF_FLOAT: case TF_HALF: case TF_BFLOAT16: return CT_F32;
    case TF_DOUBLE: return CT_F64;
    case TF_COMPLEX64: return CT_C64;
    case TF_COMPLEX128: return CT_C128;
    case TF_INT8: case TF_INT16: case TF_INT32: case TF_INT64:
    case TF_UINT8: case TF_UINT16: case TF_UINT32: case TF_UINT64: return CT_I64;
    default: return -1;
  }
}

/* Element i of `data` (dtype dt) as double / as int64 (integers only). */
static double load_f(TF_DataType dt, const void* d, int64_t i) {
  switch (dt) {
    case TF_FLOAT: return ((const float*)d)[i];
    case TF_DOUBLE: return ((const double*)d)[i];
    case TF_HALF: return mt_half_to_float(((const mt_half*)d)[i]);
    case TF_BFLOAT16: return mt_bfloat16_to_float(((const mt_bfloat16*)d)[i]);
    case TF_INT8: return ((const int8_t*)d)[i];
    case TF_UINT8: return ((const uint8_t*)d)[i];
    case TF_INT16: return ((const int16_t*)d)[i];
    case TF_INT32: return ((const int32_t*)d)[i];
    case TF_INT64: return (double)((const int64_t*)d)[i];
    default: return 0;
  }
}

static int64_t load_i(TF_DataType dt, const void* d, int64_t i) {
  switch (dt) {
    case TF_INT8: return ((const int8_t*)d)[i];
    case TF_UINT8: return ((const uint8_t*)d)[i];
    case TF_INT16: return ((const int16_t*)d)[i];
    case TF_UINT16: return ((const uint16_t*)d)[i];
    case TF_INT32: return ((const int32_t*)d)[i];
    case TF_UINT32: return ((const uint32_t*)d)[i];
    case TF_INT64: return ((const int64_t*)d)[i];
    case TF_UINT64: return (int64_t)((const uint64_t*)d)[i];
    default: return 0;
  }
}

/* t's data in computing type c: borrowed when it already is (*owned = 0),
 * else a converted copy (*owned = 1). NULL + status on allocation failure. */
static void* as_ct(const TF_Tensor* t, ctype c, int* owned, TF_Status* s) {
  const int64_t n = mt_tensor_nelems(t);
  const void* d = mt_tensor_data(t);
  *owned = 0;
  if ((c == CT_F32 && t->dtype == TF_FLOAT) || (c == CT_F64 && t->dtype == TF_DOUBLE) ||
      (c == CT_I64 && t->dtype == TF_INT64) || (c == CT_C64 && t->dtype == TF_COMPLEX64) ||
      (c == CT_C128 && t->dtype == TF_COMPLEX128))
    return (void*)d; /* complex operands always come in their own type */
  void* out = mt_malloc((size_t)(n > 0 ? n : 1) * ct_size(c), s);
  if (!out) return NULL;
  *owned = 1;
  for (int64_t i = 0; i < n; i++) {
    if (c == CT_F32) ((float*)out)[i] = (float)load_f(t->dtype, d, i);
    else if (c == CT_F64) ((double*)out)[i] = load_f(t->dtype, d, i);
    else ((int64_t*)out)[i] = load_i(t->dtype, d, i);
  }
  return out;
}

/* Stores n computed values into `out` of dtype dt (integers truncate, i.e.
 * wrap; floats round to nearest). */
static void store_ct(ctype c, const void* in, TF_DataType dt, void* out, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    if (c == CT_I64) {
      const uint64_t v = (uint64_t)((const int64_t*)in)[i];
      switch (dt) {
        case TF_INT8: ((int8_t*)out)[i] = (int8_t)v; break;
        case TF_UINT8: ((uint8_t*)out)[i] = (uint8_t)v; break;
        case TF_INT16: ((int16_t*)out)[i] = (int16_t)v; break;
        case TF_UINT16: ((uint16_t*)out)[i] = (uint16_t)v; break;
        case TF_INT32: ((int32_t*)out)[i] = (int32_t)v; break;
        case TF_UINT32: ((uint32_t*)out)[i] = (uint32_t)v; break;
        default: ((uint64_t*)out)[i] = v; break;
      }
      continue;
    }
    const double v = c == CT_F32 ? ((const float*)in)[i] : ((const double*)in)[i];
    switch (dt) {
      case TF_FLOAT: ((float*)out)[i] = (float)v; break;
      case TF_DOUBLE: ((double*)out)[i] = v; break;
      case TF_HALF: ((mt_half*)out)[i] = mt_float_to_half((float)v); break;
      default: ((mt_bfloat16*)out)[i] = mt_float_to_bfloat16((float)v); break;
    }
  }
}

/* ---- batched GEMM ---- */

/* C[b] = op(A[xb[b]]) * op(B[yb[b]]) for b < nb, row-major, with op a
 * transpose when ta/tb. A matrices are m x k (k x m when ta), B k x n (n x k
 * when tb), C m x n, all contiguous. xb/yb: batch matrix indices. */
typedef struct bgemm {
  ctype c;
  int64_t nb, m, n, k;
  int ta, tb;
  const int64_t *xb, *yb;
  const void *a, *b;
  void* out;
  int conj; /* complex: ta/tb are conjugate transposes (BatchMatMul's adj_x/adj_y) */
} bgemm;

static void gemm_one(const bgemm* g, int64_t bi) {
  const int64_t m = g->m, n = g->n, k = g->k;
  const size_t es = ct_size(g->c);
  const char* a = (const char*)g->a + (size_t)(g->xb[bi] * m * k) * es;
  const char* b = (const char*)g->b + (size_t)(g->yb[bi] * k * n) * es;
  char* c = (char*)g->out + (size_t)(bi * m * n) * es;
  const int lda = (int)(g->ta ? m : k), ldb = (int)(g->tb ? k : n);
  const enum CBLAS_TRANSPOSE tra = g->ta ? CblasTrans : CblasNoTrans;
  const enum CBLAS_TRANSPOSE trb = g->tb ? CblasTrans : CblasNoTrans;
  if (g->c == CT_F32) {
    scipy_cblas_sgemm(CblasRowMajor, tra, trb, (int)m, (int)n, (int)k, 1.0f, (const float*)a,
                      lda, (const float*)b, ldb, 0.0f, (float*)c, (int)n);
  } else if (g->c == CT_F64) {
    scipy_cblas_dgemm(CblasRowMajor, tra, trb, (int)m, (int)n, (int)k, 1.0, (const double*)a,
                      lda, (const double*)b, ldb, 0.0, (double*)c, (int)n);
  } else if (g->c == CT_C64 || g->c == CT_C128) {
    const enum CBLAS_TRANSPOSE cta = g->ta ? (g->conj ? CblasConjTrans : CblasTrans) : CblasNoTrans;
    const enum CBLAS_TRANSPOSE ctb = g->tb ? (g->conj ? CblasConjTrans : CblasTrans) : CblasNoTrans;
    static const float one_c[2] = {1, 0}, zero_c[2] = {0, 0};
    static const double one_z[2] = {1, 0}, zero_z[2] = {0, 0};
    if (g->c == CT_C64)
      scipy_cblas_cgemm(CblasRowMajor, cta, ctb, (int)m, (int)n, (int)k, one_c, a, lda, b, ldb,
                        zero_c, c, (int)n);
    else
      scipy_cblas_zgemm(CblasRowMajor, cta, ctb, (int)m, (int)n, (int)k, one_z, a, lda, b, ldb,
                        zero_z, c, (int)n);
  } else { /* i-p-j loop; unsigned arithmetic wraps */
    const int64_t* A = (const int64_t*)a;
    const int64_t* B = (const int64_t*)b;
    uint64_t* C = (uint64_t*)c;
    memset(C, 0, (size_t)(m * n) * 8);
    for (int64_t i = 0; i < m; i++)
      for (int64_t p = 0; p < k; p++) {
        const uint64_t av = (uint64_t)(g->ta ? A[p * m + i] : A[i * k + p]);
        uint64_t* cr = C + i * n;
        for (int64_t j = 0; j < n; j++)
          cr[j] += av * (uint64_t)(g->tb ? B[j * k + p] : B[p * n + j]);
      }
  }
}

static void gemm_range(int64_t begin, int64_t end, void* arg) {
  for (int64_t i = begin; i < end; i++) gemm_one(arg, i);
}

/* Runs the batch. Integer or small products split batches over the pool;
 * large float ones leave the threading to BLAS. */
static void bgemm_run(mt_kernel_ctx* ctx, bgemm* g) {
  if (g->nb == 0 || g->m == 0 || g->n == 0) return;
  if (g->k == 0) {
    memset(g->out, 0, (size_t)(g->nb * g->m * g->n) * ct_size(g->c));
    return;
  }
  const int64_t work = g->m * g->n * g->k;
  if (g->c == CT_I64 || work <= 32 * 32 * 32)
    mt_parallel_for(ctx, g->nb, work, gemm_range, g);
  else
    gemm_range(0, g->nb, g);
}

/* ---- BatchMatMul / V2 / V3 ---- */

/* Static shapes (TensorFlow's BatchMatMulShape and BatchMatMulV2Shape):
 * batch dims merged (V1) or broadcast (V2/V3), inner dims merged. */
static void bmm_shape_common(mt_shape_ctx* ctx, int broadcast) {
  if (!mt_shape_with_rank_at_least(ctx, 0, 2) || !mt_shape_with_rank_at_least(ctx, 1, 2)) return;
  const mt_shape* a = &ctx->in[0];
  const mt_shape* b = &ctx->in[1];
  if (a->rank < 0 || b->rank < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  const int ax = mt_op_attr_bool(ctx->op, "adj_x", 0);
  const int ay = mt_op_attr_bool(ctx->op, "adj_y", 0);
  const int ra = a->rank, rb = b->rank;
  const int64_t rows = a->dims[ax ? ra - 1 : ra - 2], ka = a->dims[ax ? ra - 2 : ra - 1];
  const int64_t kb = b->dims[ay ? rb - 1 : rb - 2], cols = b->dims[ay ? rb - 2 : rb - 1];
  mt_shape ba = *a, bb = *b, batch;
  ba.rank -= 2;
  bb.rank -= 2;
  if (broadcast) {
    if (!mt_broadcast_shapes(&ba, &bb, &batch, ctx->status)) return;
  } else {
    if (ba.rank != bb.rank) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Shapes must be equal rank, but are %d and %d", ba.rank, bb.rank);
      return;
    }
    batch = ba;
    for (int d = 0; d < ba.rank; d++) {
      if (ba.dims[d] >= 0 && bb.dims[d] >= 0 && ba.dims[d] != bb.dims[d]) {
        char s1[256], s2[256];
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "Dimension %d in both shapes must be equal, but are %lld and %lld. "
                       "Shapes are %s and %s.",
                       d, (long long)ba.dims[d], (long long)bb.dims[d],
                       mt_dims_str(ba.dims, ba.rank, s1, sizeof s1),
                       mt_dims_str(bb.dims, bb.rank, s2, sizeof s2));
        return;
      }
      if (batch.dims[d] < 0) batch.dims[d] = bb.dims[d];
    }
  }
  int64_t k;
  if (!mt_merge_dim(ctx, ka, kb, &k)) return;
  mt_shape* out = &ctx->out[0];
  *out = batch;
  out->dims[out->rank++] = rows;
  out->dims[out->rank++] = cols;
}

static void bmm_shape(mt_shape_ctx* ctx) { bmm_shape_common(ctx, 0); }
static void bmm_v2_shape(mt_shape_ctx* ctx) { bmm_shape_common(ctx, 1); }

/* Output-batch -> operand-batch indices for broadcast batch dims (nbd of
 * them, right-aligned): fills xb/yb (nb entries each). */
static void batch_indices(const int64_t* xd, int xnd, const int64_t* yd, int ynd,
                          const int64_t* od, int ond, int64_t nb, int64_t* xb, int64_t* yb) {
  int64_t xs[MT_MAX_DIMS], ys[MT_MAX_DIMS];
  int64_t sx = 1, sy = 1;
  for (int d = ond - 1; d >= 0; d--) {
    const int ix = d - (ond - xnd), iy = d - (ond - ynd);
    const int64_t dx = ix >= 0 ? xd[ix] : 1, dy = iy >= 0 ? yd[iy] : 1;
    xs[d] = dx == 1 ? 0 : sx;
    ys[d] = dy == 1 ? 0 : sy;
    sx *= dx;
    sy *= dy;
  }
  int64_t idx[MT_MAX_DIMS] = {0}, xo = 0, yo = 0;
  for (int64_t b = 0; b < nb; b++) {
    xb[b] = xo;
    yb[b] = yo;
    for (int d = ond - 1; d >= 0; d--) { /* odometer */
      idx[d]++;
      xo += xs[d];
      yo += ys[d];
      if (idx[d] < od[d]) break;
      xo -= xs[d] * od[d];
      yo -= ys[d] * od[d];
      idx[d] = 0;
    }
  }
}

/* The V3 (Ta, Tb, Tout) combinations TensorFlow's CPU kernel has. */
static int v3_supported(TF_DataType a, TF_DataType b, TF_DataType o) {
  const int a8 = a == TF_INT8 || a == TF_UINT8, b8 = b == TF_INT8 || b == TF_UINT8;
  if (a == b && a == o)
    return a == TF_FLOAT || a == TF_DOUBLE || a == TF_BFLOAT16 || a == TF_INT16 ||
           a == TF_INT32 || a == TF_INT64 || a == TF_COMPLEX64 || a == TF_COMPLEX128;
  if (a8 && b8) return o == TF_INT32;
  if (o == TF_BFLOAT16) return (a == TF_BFLOAT16 && b8) || (a8 && b == TF_BFLOAT16);
  return 0;
}

static void bmm_run(mt_kernel_ctx* ctx, int version) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_Tensor* y = ctx->inputs[1];
  char sx[256], sy[256];
  TF_DataType ot = x->dtype;
  if (version == 3) {
    ot = mt_op_attr_type(ctx->op, "Tout", x->dtype);
    if (!v3_supported(x->dtype, y->dtype, ot)) {
      char a[32], b[32], o[32];
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "No OpKernel was registered to support Op '%s' with these attrs: "
                     "[Ta=%s, Tb=%s, Tout=%s]",
                     ctx->op->op_type, mt_dt_enum_name(x->dtype, a, sizeof a),
                     mt_dt_enum_name(y->dtype, b, sizeof b), mt_dt_enum_name(ot, o, sizeof o));
      return;
    }
  } else if (ct_of(x->dtype) < 0 || x->dtype == TF_INT8 || x->dtype == TF_UINT8 ||
             (version == 1 && x->dtype == TF_INT16)) {
    mt_kernel_unsupported(ctx, "T", x->dtype);
    return;
  }
  for (int i = 0; i < 2; i++) {
    const TF_Tensor* t = ctx->inputs[i];
    if (t->ndims < 2) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "In[%d] ndims must be >= 2: %d", i,
                     t->ndims);
      return;
    }
  }
  const int xn = x->ndims, yn = y->ndims;
  if (version == 1) {
    if (xn != yn) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "In[0] and In[1] has different ndims: %s vs. %s",
                     mt_dims_str(x->dims, xn, sx, sizeof sx), mt_dims_str(y->dims, yn, sy, sizeof sy));
      return;
    }
    for (int d = 0; d < xn - 2; d++)
      if (x->dims[d] != y->dims[d]) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "In[0].dim(%d) and In[1].dim(%d) must be the same: %s vs %s", d, d,
                       mt_dims_str(x->dims, xn, sx, sizeof sx),
                       mt_dims_str(y->dims, yn, sy, sizeof sy));
        return;
      }
  }
  mt_bcast bc; /* broadcast of the batch dims */
  TF_Status* tmp = TF_NewStatus();
  const int ok = mt_bcast_init(&bc, x->dims, xn - 2, y->dims, yn - 2, tmp);
  TF_DeleteStatus(tmp);
  if (!ok) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "In[0] and In[1] must have compatible batch dimensions: %s vs. %s",
                   mt_dims_str(x->dims, xn, sx, sizeof sx), mt_dims_str(y->dims, yn, sy, sizeof sy));
    return;
  }
  const int ax = mt_op_attr_bool(ctx->op, "adj_x", 0);
  const int ay = mt_op_attr_bool(ctx->op, "adj_y", 0);
  const int64_t m = x->dims[ax ? xn - 1 : xn - 2], k = x->dims[ax ? xn - 2 : xn - 1];
  const int64_t kb = y->dims[ay ? yn - 1 : yn - 2], n = y->dims[ay ? yn - 2 : yn - 1];
  if (k != kb) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Matrix size-incompatible: In[0]: %s, In[1]: %s",
                   mt_dims_str(x->dims, xn, sx, sizeof sx), mt_dims_str(y->dims, yn, sy, sizeof sy));
    return;
  }
  if (m > INT_MAX || n > INT_MAX || k > INT_MAX) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Matrix dimensions exceed 2^31-1");
    return;
  }
  int64_t odims[MT_MAX_DIMS];
  const int ond = bc.out_ndims + 2;
  memcpy(odims, bc.out_dims, sizeof(int64_t) * (size_t)bc.out_ndims);
  odims[ond - 2] = m;
  odims[ond - 1] = n;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, ot, odims, ond);
  const int64_t nb = bc.n, total = mt_num_elements(odims, ond);
  if (!out || total == 0) return;
  const ctype c = (ctype)ct_of(ot);
  int own_a = 0, own_b = 0;
  void* a = as_ct(x, c, &own_a, ctx->status);
  void* b = a ? as_ct(y, c, &own_b, ctx->status) : NULL;
  int64_t* bidx = b ? mt_malloc((size_t)nb * 2 * sizeof(int64_t), ctx->status) : NULL;
  const int direct = ot == TF_FLOAT || ot == TF_DOUBLE || ot == TF_INT64 ||
                     ot == TF_COMPLEX64 || ot == TF_COMPLEX128;
  void* res = !bidx ? NULL : direct ? mt_tensor_data(out)
                                    : mt_malloc((size_t)total * ct_size(c), ctx->status);
  if (res) {
    batch_indices(x->dims, xn - 2, y->dims, yn - 2, bc.out_dims, bc.out_ndims, nb, bidx,
                  bidx + nb);
    const int conj = c == CT_C64 || c == CT_C128;
    bgemm g = {c, nb, m, n, k, ax, ay, bidx, bidx + nb, a, b, res, conj};
    /* Shared right operand, plain left one: fold the batch into the rows. */
    const int64_t xbatches = mt_num_elements(x->dims, xn - 2);
    if (!ax && mt_num_elements(y->dims, yn - 2) == 1 && xbatches == nb && c != CT_I64) {
      g.m = m * nb;
      g.nb = 1;
      if (g.m > INT_MAX) g = (bgemm){c, nb, m, n, k, ax, ay, bidx, bidx + nb, a, b, res, conj};
    }
    bgemm_run(ctx, &g);
    if (!direct) store_ct(c, res, ot, mt_tensor_data(out), total);
  }
  if (own_a) free(a);
  if (own_b) free(b);
  free(bidx);
  if (res && !direct) free(res);
}

static void bmm_kernel(mt_kernel_ctx* ctx) { bmm_run(ctx, 1); }
static void bmm_v2_kernel(mt_kernel_ctx* ctx) { bmm_run(ctx, 2); }
static void bmm_v3_kernel(mt_kernel_ctx* ctx) { bmm_run(ctx, 3); }

/* ---- Einsum ---- */

/* Labels: any character but '.', ',', '-', '>' (TensorFlow accepts them
 * all); ellipsis dims get the pseudo labels 256 + j. */
#define NLAB (256 + MT_MAX_DIMS)
#define ELL(j) (256 + (j))

typedef struct eterm {
  int n;                /* explicit labels */
  int lab[MT_MAX_DIMS]; /* their characters */
  int ell;              /* position of "..." among them, -1 if none */
} eterm;

typedef struct eqn {
  int nin;
  eterm in[2], out;
} eqn;

static int parse_term(const char* s, size_t len, eterm* t, TF_Status* st) {
  int dots = 0;
  t->n = 0;
  t->ell = -1;
  for (size_t i = 0; i < len; i++) dots += s[i] == '.';
  if (dots != 0 && dots != 3) goto bad_ellipsis;
  for (size_t i = 0; i < len; i++) {
    if (s[i] == '.') {
      if (i + 2 >= len || s[i + 1] != '.' || s[i + 2] != '.') goto bad_ellipsis;
      t->ell = t->n;
      i += 2;
      continue;
    }
    if (t->n >= MT_MAX_DIMS) {
      mt_status_setf(st, TF_INVALID_ARGUMENT, "Einsum subscript %.*s has more than %d labels",
                     (int)len, s, MT_MAX_DIMS);
      return 0;
    }
    t->lab[t->n++] = (unsigned char)s[i];
  }
  return 1;
bad_ellipsis:
  mt_status_setf(st, TF_INVALID_ARGUMENT,
                 "Expected at most one ellipsis (...), but found %d periods (.) in the input "
                 "subscript: %.*s",
                 dots, (int)len, s);
  return 0;
}

/* Parses and checks an equation for `n` inputs (TensorFlow's wording). */
static int parse_eqn(const char* eq, int n, eqn* e, TF_Status* st) {
  const char* arrow = strstr(eq, "->");
  if (!arrow || strstr(arrow + 2, "->") || strchr(eq, '-') != arrow ||
      strchr(arrow + 2, '-') || strchr(arrow + 2, '>') || memchr(eq, '>', (size_t)(arrow - eq))) {
    mt_status_setf(st, TF_INVALID_ARGUMENT, "Expecting exactly one '->' in einsum equation: %s",
                   eq);
    return 0;
  }
  const char* comma = memchr(eq, ',', (size_t)(arrow - eq));
  int nin = 1;
  for (const char* p = eq; p < arrow; p++) nin += *p == ',';
  if (nin > 2) {
    mt_status_setf(st, TF_INVALID_ARGUMENT,
                   "Expecting 1 or 2 input subscripts in equation '%s' but got: %d", eq, nin);
    return 0;
  }
  if (nin != n) {
    mt_status_setf(st, TF_INVALID_ARGUMENT, "Expected %d inputs for equation %s but got: %d",
                   nin, eq, n);
    return 0;
  }
  if (strchr(arrow + 2, ',')) {
    mt_status_setf(st, TF_INVALID_ARGUMENT, "Expecting exactly one '->' in einsum equation: %s",
                   eq);
    return 0;
  }
  e->nin = nin;
  const char* end0 = comma ? comma : arrow;
  if (!parse_term(eq, (size_t)(end0 - eq), &e->in[0], st)) return 0;
  if (comma && !parse_term(comma + 1, (size_t)(arrow - comma - 1), &e->in[1], st)) return 0;
  if (!parse_term(arrow + 2, strlen(arrow + 2), &e->out, st)) return 0;
  for (int i = 0; i < e->out.n; i++) {
    int found = 0;
    for (int t = 0; t < nin && !found; t++)
      for (int j = 0; j < e->in[t].n; j++) found |= e->in[t].lab[j] == e->out.lab[i];
    if (!found) {
      mt_status_setf(st, TF_INVALID_ARGUMENT,
                     "Einsum output subscripts for equation '%s' has label '%c' which is not "
                     "present in the input subscripts",
                     eq, e->out.lab[i]);
      return 0;
    }
  }
  return 1;
}

/* Label per dim of a term applied to `rank` dims with ne ellipsis dims
 * (right-aligned pseudo labels among `nell` broadcast ones). */
static int expand_term(const eterm* t, int nell_total, int ne, int* labs) {
  int r = 0;
  for (int i = 0; i <= t->n; i++) {
    if (i == t->ell)
      for (int j = 0; j < ne; j++) labs[r++] = ELL(nell_total - ne + j);
    if (i < t->n) labs[r++] = t->lab[i];
  }
  return r;
}

/* Number of ellipsis dims of input t (rank r), checking the rank. */
static int ellipsis_dims(const eterm* t, int r, TF_Status* st) {
  if (t->ell < 0) {
    if (r != t->n) {
      mt_status_setf(st, TF_INVALID_ARGUMENT, "Shape must be rank %d but is rank %d", t->n, r);
      return -1;
    }
    return 0;
  }
  if (r < t->n) {
    mt_status_setf(st, TF_INVALID_ARGUMENT, "Shape must be at least rank %d but is rank %d",
                   t->n, r);
    return -1;
  }
  return r - t->n;
}

/* Label extents from input shapes (-1 unknown). Explicit labels must agree;
 * ellipsis dims broadcast. Returns 0 + status on a clash. */
static int label_dims(const eqn* e, const int* ranks, const int64_t* const* dims, int nell,
                      const int* nes, int64_t* ext, TF_Status* st) {
  for (int l = 0; l < NLAB; l++) ext[l] = -2; /* absent */
  for (int t = 0; t < e->nin; t++) {
    int labs[MT_MAX_DIMS];
    expand_term(&e->in[t], nell, nes[t], labs);
    for (int d = 0; d < ranks[t]; d++) {
      const int l = labs[d];
      const int64_t v = dims[t][d];
      int64_t* x = &ext[l];
      if (*x == -2 || *x == -1) {
        if (l >= 256 && *x == -1 && v == 1) continue;
        *x = v;
      } else if (v >= 0 && v != *x) {
        if (l >= 256 && (v == 1 || *x == 1)) {
          if (*x == 1) *x = v;
          continue;
        }
        mt_status_setf(st, TF_INVALID_ARGUMENT, "Dimensions must be equal, but are %lld and %lld",
                       (long long)*x, (long long)v);
        return 0;
      }
    }
  }
  return 1;
}

static void einsum_shape(mt_shape_ctx* ctx) {
  const char* eq = mt_op_attr_str(ctx->op, "equation", "");
  eqn e;
  if (!parse_eqn(eq, ctx->ninputs, &e, ctx->status)) return;
  int ranks[2] = {0, 0}, nes[2] = {0, 0}, nell = 0, unknown = 0;
  const int64_t* dims[2] = {NULL, NULL};
  for (int t = 0; t < e.nin; t++) {
    ranks[t] = ctx->in[t].rank;
    dims[t] = ctx->in[t].dims;
    if (ranks[t] < 0) {
      unknown = 1;
      continue;
    }
    nes[t] = ellipsis_dims(&e.in[t], ranks[t], ctx->status);
    if (nes[t] < 0) return;
    if (nes[t] > nell) nell = nes[t];
  }
  if (unknown && e.out.ell >= 0) { /* the ellipsis' rank is unknown */
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  if (e.out.ell < 0 && nell > 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be at most rank 0 but is rank %d",
                   nell);
    return;
  }
  /* Unknown-rank inputs contribute nothing (their labels stay unknown). */
  int64_t ext[NLAB];
  int kr[2];
  for (int t = 0; t < e.nin; t++) kr[t] = ranks[t] < 0 ? 0 : ranks[t];
  eqn known = e;
  for (int t = 0; t < e.nin; t++)
    if (ranks[t] < 0) known.in[t].n = 0, known.in[t].ell = -1;
  if (!label_dims(&known, kr, dims, nell, nes, ext, ctx->status)) return;
  /* Ellipsis output dims: broadcast of each input's (a 1 yields). */
  mt_shape* out = &ctx->out[0];
  int labs[MT_MAX_DIMS];
  out->rank = expand_term(&e.out, nell, nell, labs);
  for (int d = 0; d < out->rank; d++) out->dims[d] = ext[labs[d]] < 0 ? -1 : ext[labs[d]];
}

/* dst[sum idx*dstr] (+)= sum over summed labels of src[...], for kept
 * labels with extents kx and source/destination strides, summed labels
 * with extents sx and source strides. One function per computing type. */
typedef struct gather_spec {
  int nk, ns;
  int64_t kx[NLAB], ks[NLAB], kd[NLAB];
  int64_t sx[NLAB], ss[NLAB];
} gather_spec;

#define GATHER_FN_(NAME, CT)                                                          \
  static void NAME(const gather_spec* g, const CT* src, CT* dst) {                    \
    int64_t ki[NLAB] = {0}, si[NLAB];                                                 \
    int64_t kn = 1, sn = 1;                                                           \
    for (int i = 0; i < g->nk; i++) kn *= g->kx[i];                                   \
    for (int i = 0; i < g->ns; i++) sn *= g->sx[i];                                   \
    int64_t so = 0, d = 0;                                                            \
    for (int64_t o = 0; o < kn; o++) {                                                \
      CT acc = 0;                                                                     \
      int64_t s2 = so;                                                                \
      for (int i = 0; i < g->ns; i++) si[i] = 0;                                      \
      for (int64_t r = 0; r < sn; r++) {                                              \
        acc = (CT)((WIDE_##CT)acc + (WIDE_##CT)src[s2]);                              \
        for (int i = g->ns - 1; i >= 0; i--) {                                        \
          s2 += g->ss[i];                                                             \
          if (++si[i] < g->sx[i]) break;                                              \
          s2 -= g->ss[i] * g->sx[i];                                                  \
          si[i] = 0;                                                                  \
        }                                                                             \
      }                                                                               \
      dst[d] = acc;                                                                   \
      for (int i = g->nk - 1; i >= 0; i--) {                                          \
        so += g->ks[i];                                                               \
        d += g->kd[i];                                                                \
        if (++ki[i] < g->kx[i]) break;                                                \
        so -= g->ks[i] * g->kx[i];                                                    \
        d -= g->kd[i] * g->kx[i];                                                     \
        ki[i] = 0;                                                                    \
      }                                                                               \
    }                                                                                 \
  }
typedef float WIDE_float;
typedef double WIDE_double;
typedef uint64_t WIDE_int64_t;
typedef float _Complex WIDE_c64;
typedef double _Complex WIDE_c128;
typedef float _Complex c64;
typedef double _Complex c128;
GATHER_FN_(gather_f32, float)
GATHER_FN_(gather_f64, double)
GATHER_FN_(gather_i64, int64_t)
GATHER_FN_(gather_c64, c64)
GATHER_FN_(gather_c128, c128)

static void gather(ctype c, const gather_spec* g, const void* src, void* dst) {
  switch (c) {
    case CT_F32: gather_f32(g, src, dst); break;
    case CT_F64: gather_f64(g, src, dst); break;
    case CT_C64: gather_c64(g, src, dst); break;
    case CT_C128: gather_c128(g, src, dst); break;
    default: gather_i64(g, src, dst); break;
  }
}

/* Per-label stride in a tensor of dims whose dim d has label labs[d]
 * (repeated labels add up: diagonals; broadcast size-1 dims get 0). */
static void label_strides(const int* labs, const int64_t* dims, int rank, const int64_t* ext,
                          int64_t* str) {
  int64_t s = 1;
  for (int l = 0; l < NLAB; l++) str[l] = 0;
  for (int d = rank - 1; d >= 0; d--) {
    if (!(dims[d] == 1 && ext[labs[d]] != 1)) str[labs[d]] += s;
    s *= dims[d];
  }
}

static void add_kept(gather_spec* g, int l, const int64_t* ext, const int64_t* str, int64_t dstr) {
  g->kx[g->nk] = ext[l];
  g->ks[g->nk] = str[l];
  g->kd[g->nk++] = dstr;
}

/* Label lists in order of first appearance. */
static int uniq(const int* labs, int n, int* out) {
  int k = 0;
  for (int i = 0; i < n; i++) {
    int seen = 0;
    for (int j = 0; j < k; j++) seen |= out[j] == labs[i];
    if (!seen) out[k++] = labs[i];
  }
  return k;
}

static int has(const int* labs, int n, int l) {
  for (int i = 0; i < n; i++)
    if (labs[i] == l) return 1;
  return 0;
}

/* 1 when the gather is a plain contiguous copy (no sums, strides already
 * row-major in order): the source can be used as it is. */
static int gather_is_identity(const gather_spec* g) {
  if (g->ns) return 0;
  for (int i = 0; i < g->nk; i++)
    if (g->kx[i] != 1 && g->ks[i] != g->kd[i]) return 0;
  return 1;
}

/* Gathers operand t into contiguous [groups...] order (each group a label
 * list), summing its labels that appear nowhere else. Returns src itself
 * (*owned = 0) when that is already the layout. */
static void* gather_operand(mt_kernel_ctx* ctx, ctype c, const void* src, const int* labs,
                            int rank, const int* order, int norder, const int* others,
                            int nothers, const int64_t* tdims, const int64_t* ext, int* owned) {
  int64_t str[NLAB];
  label_strides(labs, tdims, rank, ext, str);
  gather_spec g;
  g.nk = g.ns = 0;
  int64_t n = 1;
  for (int i = 0; i < norder; i++) n *= ext[order[i]];
  int64_t dstr = n;
  for (int i = 0; i < norder; i++) {
    dstr /= ext[order[i]] ? ext[order[i]] : 1;
    add_kept(&g, order[i], ext, str, dstr);
  }
  int u[MT_MAX_DIMS];
  const int nu = uniq(labs, rank, u);
  for (int i = 0; i < nu; i++)
    if (!has(order, norder, u[i]) && !has(others, nothers, u[i])) {
      g.sx[g.ns] = ext[u[i]];
      g.ss[g.ns++] = str[u[i]];
    }
  *owned = 0;
  if (n > 0 && gather_is_identity(&g)) return (void*)src;
  void* dst = mt_malloc((size_t)(n > 0 ? n : 1) * ct_size(c), ctx->status);
  *owned = dst != NULL;
  if (dst && n > 0) gather(c, &g, src, dst);
  return dst;
}

static void einsum_kernel(mt_kernel_ctx* ctx) {
  const char* eq = mt_op_attr_str(ctx->op, "equation", "");
  eqn e;
  if (!parse_eqn(eq, ctx->ninputs, &e, ctx->status)) return;
  const TF_DataType dt = ctx->inputs[0]->dtype;
  const int cti = ct_of(dt);
  if (cti < 0 || dt == TF_INT8 || dt == TF_UINT8 || dt == TF_INT16 || dt == TF_UINT16 ||
      dt == TF_UINT32 || dt == TF_UINT64) {
    mt_kernel_unsupported(ctx, "T", dt);
    return;
  }
  const ctype c = (ctype)cti;
  int ranks[2] = {0, 0}, nes[2] = {0, 0}, nell = 0;
  const int64_t* dims[2] = {NULL, NULL};
  int labs[2][MT_MAX_DIMS];
  for (int t = 0; t < e.nin; t++) {
    ranks[t] = ctx->inputs[t]->ndims;
    dims[t] = ctx->inputs[t]->dims;
    nes[t] = ellipsis_dims(&e.in[t], ranks[t], ctx->status);
    if (nes[t] < 0) return;
    if (nes[t] > nell) nell = nes[t];
  }
  if (e.out.ell < 0 && nell > 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Shape must be at most rank 0 but is rank %d", nell);
    return;
  }
  int64_t ext[NLAB];
  if (!label_dims(&e, ranks, dims, nell, nes, ext, ctx->status)) return;
  for (int t = 0; t < e.nin; t++) expand_term(&e.in[t], nell, nes[t], labs[t]);
  int olabs[MT_MAX_DIMS], ou[MT_MAX_DIMS];
  const int orank = expand_term(&e.out, nell, nell, olabs);
  const int nou = uniq(olabs, orank, ou);
  int64_t odims[MT_MAX_DIMS];
  for (int d = 0; d < orank; d++) odims[d] = ext[olabs[d]];
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, dt, odims, orank);
  const int64_t on = mt_num_elements(odims, orank);
  if (!out || on == 0) return;
  void *src[2] = {NULL, NULL}, *ga = NULL, *gb = NULL, *z = NULL, *res = NULL;
  int own[2] = {0, 0}, own_a = 0, own_b = 0, own_z = 0;
  for (int t = 0; t < e.nin; t++)
    if (!(src[t] = as_ct(ctx->inputs[t], c, &own[t], ctx->status))) goto done;
  /* z: the result over the unique output labels, in order zl. */
  int zl[MT_MAX_DIMS * 2], nz = 0;
  if (e.nin == 1) {
    memcpy(zl, ou, sizeof(int) * (size_t)nou);
    nz = nou;
    z = gather_operand(ctx, c, src[0], labs[0], ranks[0], zl, nz, NULL, 0, dims[0], ext,
                       &own_z);
    if (!z) goto done;
  } else {
    /* Label classes: batch (both + out), free per side (one + out),
     * contracted (both, not out); labels only in one operand and not in
     * the output are summed away by the gathers. */
    int ua[MT_MAX_DIMS], ub[MT_MAX_DIMS];
    const int nua = uniq(labs[0], ranks[0], ua), nub = uniq(labs[1], ranks[1], ub);
    int B[MT_MAX_DIMS], FX[MT_MAX_DIMS], FY[MT_MAX_DIMS], C[MT_MAX_DIMS];
    int nB = 0, nFX = 0, nFY = 0, nC = 0;
    for (int i = 0; i < nua; i++) {
      const int inb = has(ub, nub, ua[i]), ino = has(ou, nou, ua[i]);
      if (inb && ino) B[nB++] = ua[i];
      else if (inb) C[nC++] = ua[i];
      else if (ino) FX[nFX++] = ua[i];
    }
    for (int i = 0; i < nub; i++)
      if (!has(ua, nua, ub[i]) && has(ou, nou, ub[i])) FY[nFY++] = ub[i];
    int64_t nb = 1, m = 1, n = 1, k = 1;
    for (int i = 0; i < nB; i++) nb *= ext[B[i]];
    for (int i = 0; i < nFX; i++) m *= ext[FX[i]];
    for (int i = 0; i < nFY; i++) n *= ext[FY[i]];
    for (int i = 0; i < nC; i++) k *= ext[C[i]];
    if (m > INT_MAX || n > INT_MAX || k > INT_MAX) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Einsum dimensions exceed 2^31-1");
      goto done;
    }
    int oa[MT_MAX_DIMS * 2], ob[MT_MAX_DIMS * 2], na = 0, nbl = 0;
    for (int i = 0; i < nB; i++) oa[na++] = B[i], ob[nbl++] = B[i];
    for (int i = 0; i < nFX; i++) oa[na++] = FX[i];
    for (int i = 0; i < nC; i++) oa[na++] = C[i], ob[nbl++] = C[i];
    for (int i = 0; i < nFY; i++) ob[nbl++] = FY[i];
    ga = gather_operand(ctx, c, src[0], labs[0], ranks[0], oa, na, ub, nub, dims[0], ext,
                        &own_a);
    gb = ga ? gather_operand(ctx, c, src[1], labs[1], ranks[1], ob, nbl, ua, nua, dims[1], ext,
                             &own_b)
            : NULL;
    const int64_t zn = nb * m * n;
    z = gb ? mt_malloc((size_t)(zn > 0 ? zn : 1) * ct_size(c), ctx->status) : NULL;
    own_z = z != NULL;
    int64_t* bidx = z ? mt_malloc((size_t)(nb > 0 ? nb : 1) * sizeof(int64_t), ctx->status) : NULL;
    if (!bidx) goto done;
    for (int64_t i = 0; i < nb; i++) bidx[i] = i;
    bgemm g = {c, nb, m, n, k, 0, 0, bidx, bidx, ga, gb, z};
    bgemm_run(ctx, &g);
    free(bidx);
    for (int i = 0; i < nB; i++) zl[nz++] = B[i];
    for (int i = 0; i < nFX; i++) zl[nz++] = FX[i];
    for (int i = 0; i < nFY; i++) zl[nz++] = FY[i];
  }
  /* z (labels zl, contiguous) -> output: strides of each label in the
   * output add up over repeated labels (a diagonal), zero elsewhere. */
  {
    int64_t ostr[NLAB];
    label_strides(olabs, odims, orank, ext, ostr);
    gather_spec g;
    g.nk = g.ns = 0;
    int64_t zs = 1;
    for (int i = nz - 1; i >= 0; i--) {
      g.kx[i] = ext[zl[i]];
      g.ks[i] = zs;
      g.kd[i] = ostr[zl[i]];
      zs *= ext[zl[i]];
    }
    g.nk = nz;
    const int direct = dt == TF_FLOAT || dt == TF_DOUBLE || dt == TF_INT64 ||
                       dt == TF_COMPLEX64 || dt == TF_COMPLEX128;
    res = direct ? mt_tensor_data(out) : mt_malloc((size_t)on * ct_size(c), ctx->status);
    if (!res) goto done;
    if (nou != orank) memset(res, 0, (size_t)on * ct_size(c));
    if (gather_is_identity(&g)) memcpy(res, z, (size_t)on * ct_size(c));
    else gather(c, &g, z, res);
    if (!direct) {
      store_ct(c, res, dt, mt_tensor_data(out), on);
      free(res);
    }
  }
done:
  for (int t = 0; t < 2; t++)
    if (own[t]) free(src[t]);
  if (own_a) free(ga);
  if (own_b) free(gb);
  if (own_z) free(z);
}

/* ---- registrations ---- */

static const mt_op_spec linalg_specs[] = {
    {.name = "BatchMatMul", .inputs = "x: T, y: T", .outputs = "output: T",
     .attrs = "T: {bfloat16, half, float, double, int32, int64, complex64, complex128};"
              " adj_x: bool = false; adj_y: bool = false; grad_x: bool = false;"
              " grad_y: bool = false",
     .shape = bmm_shape, .kernel = bmm_kernel},
    {.name = "BatchMatMulV2", .inputs = "x: T, y: T", .outputs = "output: T",
     .attrs = "T: {bfloat16, half, float, double, int16, int32, int64, uint8, uint16, uint32,"
              " uint64, complex64, complex128}; adj_x: bool = false; adj_y: bool = false;"
              " grad_x: bool = false; grad_y: bool = false",
     .shape = bmm_v2_shape, .kernel = bmm_v2_kernel},
    {.name = "BatchMatMulV3", .inputs = "x: Ta, y: Tb", .outputs = "output: Tout",
     .attrs = "Ta: {bfloat16, half, float, double, uint8, int8, int16, int32, int64, complex64,"
              " complex128}; Tb: {bfloat16, half, float, double, uint8, int8, int16, int32,"
              " int64, complex64, complex128}; Tout: {bfloat16, half, float, double, int16,"
              " int32, int64, complex64, complex128}; adj_x: bool = false;"
              " adj_y: bool = false; grad_x: bool = false; grad_y: bool = false",
     .shape = bmm_v2_shape, .kernel = bmm_v3_kernel},
    {.name = "Einsum", .inputs = "inputs: N * T", .outputs = "output: T",
     .attrs = "equation: string; N: int >= 1; T: type", .shape = einsum_shape,
     .kernel = einsum_kernel},
};

void mt_register_linalg_ops(void) {
  mt_register_ops(linalg_specs, (int)(sizeof linalg_specs / sizeof linalg_specs[0]));
  mt_register_linalg_diag_ops();
  mt_register_linalg_lapack_ops();
}
