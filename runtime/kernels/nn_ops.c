/* Neural-network ops: BiasAdd, activations (Relu, Relu6, Elu, Selu,
 * LeakyRelu, Softplus, Softsign), Softmax, LogSoftmax, FusedBatchNorm(V2, V3),
 * LRN, the softmax cross-entropy losses, TopKV2, InTopKV2 and L2Loss.
 * Signatures and CPU dtypes are TensorFlow's (nn_ops.cc and the kernels
 * bias_op.cc, relu_op.cc, softmax_op.cc, fused_batch_norm_op.cc,
 * lrn_op.cc, xent_op.cc, sparse_xent_op.cc, topk_op.cc, in_topk_op.cc,
 * l2loss_op.cc).
 *
 * float16 and bfloat16 are computed in float: elementwise ops convert per
 * element, row-wise ops (softmax, batch norm, LRN, losses) convert the
 * input to a float scratch copy, run the float kernel and round back. */
/* The elementwise and row loops here are written to auto-vectorize; -O2's
 * "very cheap" cost model skips loops that need an alias check (in-place
 * outputs), so ask for the dynamic model in this file; no-trapping-math lets
 * it compute both sides of a select (nothing here reads FP exception flags). */
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic", "no-trapping-math")

#include <complex.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/half.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/vec_math.h"
#include "runtime/kernels/window_util.h" /* MT_SIMD_CLONES */

/* exp for float without branches or library calls, so that loops using it
 * vectorize (TensorFlow's Eigen kernels use a SIMD exp too): Cephes'
 * polynomial after a Cody-Waite reduction, within ~2 ulp of expf. NaN stays
 * NaN, exp(x) = inf above ~88.38, 0 below ~-88.38 (no subnormal results). */
static inline float vexpf(float x) {
  const float hi = 88.3762626647949f, lo = -88.3762626647949f;
  float xc = x == x ? x : 0.0f;
  xc = xc < lo ? lo : xc > hi ? hi : xc;
  const float fx = xc * 1.44269504088896341f + 0.5f;
  int32_t mi = (int32_t)fx;
  mi -= (float)mi > fx; /* floor */
  const float m = (float)mi;
  float r = xc - m * 0.693359375f;
  r = r + m * 2.12194440e-4f;
  float y = 1.9875691500e-4f;
  y = y * r + 1.3981999507e-3f;
  y = y * r + 8.3334519073e-3f;
  y = y * r + 4.1665795894e-2f;
  y = y * r + 1.6666665459e-1f;
  y = y * r + 5.0000001201e-1f;
  y = y * (r * r) + r + 1.0f;
  /* times 2^m in two steps: m may be 128, beyond one float exponent */
  const int32_t m1 = mi >> 1, m2 = mi - m1;
  y = y * mt_f32_from_bits((uint32_t)(m1 + 127) << 23) *
      mt_f32_from_bits((uint32_t)(m2 + 127) << 23);
  y = x > hi ? INFINITY : x < lo ? 0.0f : y;
  return x == x ? y : x;
}

/* 16-lane vectors, vexpf16 and MT_V16_MAP: vec_math.h (vexpf16 does vexpf's
 * operations in the same order, the same results bit for bit). */

/* log for positive, finite, normal lanes: Cephes' logf (the polynomial
 * Eigen's plog uses) on the mantissa in [sqrt(1/2), sqrt(2)), within ~1 ulp
 * of logf. Callers keep other inputs away (NaN, inf, 0 and subnormals give
 * garbage here). */
V16_INLINE v16f vlogf16_pos(v16f x) {
  const v16i bits = (v16i)x;
  v16f e = __builtin_convertvector((bits >> 23) - 126, v16f);
  v16f m = (v16f)((bits & 0x007fffff) | 0x3f000000);
  const v16i lo = m < 0.707106781186547524f;
  e = v16_sel(lo, e - 1.0f, e);
  m = v16_sel(lo, m + m, m) - 1.0f;
  const v16f z = m * m;
  v16f y = v16_splat(7.0376836292e-2f);
  y = y * m - 1.1514610310e-1f;
  y = y * m + 1.1676998740e-1f;
  y = y * m - 1.2420140846e-1f;
  y = y * m + 1.4249322787e-1f;
  y = y * m - 1.6668057665e-1f;
  y = y * m + 2.0000714765e-1f;
  y = y * m - 2.4999993993e-1f;
  y = y * m + 3.3333331174e-1f;
  y = y * m * z;
  y = y + e * -2.12194440e-4f;
  y = y - 0.5f * z;
  return (m + y) + e * 0.693359375f;
}

/* log1p for lanes t in [0, 2^100]: Eigen's generic_log1p, log(u) * t /
 * (u - 1) with u = 1 + t, which cancels the rounding of u (t itself where u
 * rounds to 1). */
V16_INLINE v16f vlog1pf16_pos(v16f t) {
  const v16f u = 1.0f + t;
  const v16f r = vlogf16_pos(u) * (t / (u - 1.0f));
  return v16_sel(u == 1.0f, t, r);
}

static int is_half_like(TF_DataType dt) { return dt == TF_HALF || dt == TF_BFLOAT16; }

/* n elements of a half/bfloat16/float tensor as floats into dst. */
static void load_floats(const TF_Tensor* t, float* dst, int64_t n) {
  const void* d = mt_tensor_data(t);
  if (t->dtype == TF_HALF)
    for (int64_t i = 0; i < n; i++) dst[i] = mt_half_to_float(((const mt_half*)d)[i]);
  else if (t->dtype == TF_BFLOAT16)
    for (int64_t i = 0; i < n; i++) dst[i] = mt_bfloat16_to_float(((const mt_bfloat16*)d)[i]);
  else
    memcpy(dst, d, (size_t)n * sizeof(float));
}

/* Rounds n floats into a half/bfloat16/float tensor. */
static void store_floats(const float* src, TF_Tensor* t, int64_t n) {
  void* d = mt_tensor_data(t);
  if (t->dtype == TF_HALF)
    for (int64_t i = 0; i < n; i++) ((mt_half*)d)[i] = mt_float_to_half(src[i]);
  else if (t->dtype == TF_BFLOAT16)
    for (int64_t i = 0; i < n; i++) ((mt_bfloat16*)d)[i] = mt_float_to_bfloat16(src[i]);
  else
    memcpy(d, src, (size_t)n * sizeof(float));
}

/* A float copy of a half/bfloat16 tensor (caller frees); the tensor's own
 * data for float. NULL + status on allocation failure. */
static float* floats_of(const TF_Tensor* t, int64_t n, float** owned, TF_Status* s) {
  *owned = NULL;
  if (t->dtype == TF_FLOAT) return mt_tensor_data(t);
  float* f = mt_malloc((size_t)(n > 0 ? n : 1) * sizeof(float), s);
  if (!f) return NULL;
  load_floats(t, f, n);
  *owned = f;
  return f;
}

static int nchw(const TF_Operation* op) {
  return strcmp(mt_op_attr_str(op, "data_format", "NHWC"), "NCHW") == 0;
}

/* ---- BiasAdd ---- */

/* value viewed as [outer, C, inner]: NHWC has inner = 1 (C last), NCHW has
 * C at dim 1. Rows of `outer` run in parallel. */
typedef void (*bias_fn)(const void* x, const void* b, void* y, int64_t o0, int64_t o1,
                        int64_t c, int64_t inner);
#define BIAS_LOOP_(NAME, CT, WT, LOAD, STORE)                                             \
  static void NAME(const void* xv, const void* bv, void* yv, int64_t o0, int64_t o1,     \
                   int64_t c, int64_t inner) {                                           \
    const CT* x = xv;                                                                    \
    const CT* b = bv;                                                                    \
    CT* y = yv;                                                                          \
    for (int64_t o = o0; o < o1; o++)                                                    \
      for (int64_t j = 0; j < c; j++) {                                                  \
        const WT bj = LOAD(b[j]);                                                        \
        const int64_t base = (o * c + j) * inner;                                        \
        for (int64_t i = 0; i < inner; i++) y[base + i] = STORE(LOAD(x[base + i]) + bj); \
      }                                                                                  \
  }
#define BIAS_WIDE_(DT, CT, unused) BIAS_LOOP_(bias_##CT, CT, mt_wide_##CT, (mt_wide_##CT), (CT))
MT_REAL_TYPES(BIAS_WIDE_, 0)
BIAS_LOOP_(bias_half, mt_half, float, mt_half_to_float, mt_float_to_half)
BIAS_LOOP_(bias_bf16, mt_bfloat16, float, mt_bfloat16_to_float, mt_float_to_bfloat16)
typedef float _Complex mt_complex64;
typedef double _Complex mt_complex128;
BIAS_LOOP_(bias_c64, mt_complex64, mt_complex64, , )
BIAS_LOOP_(bias_c128, mt_complex128, mt_complex128, , )
static const bias_fn bias_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(bias, MT_REAL_TYPES)[TF_HALF] = bias_half, [TF_BFLOAT16] = bias_bf16,
    [TF_COMPLEX64] = bias_c64, [TF_COMPLEX128] = bias_c128};

static void bias_add_shape(mt_shape_ctx* ctx) {
  const int is_nchw = nchw(ctx->op);
  if (!mt_shape_with_rank_at_least(ctx, 0, is_nchw ? 3 : 2) || !mt_shape_with_rank(ctx, 1, 1))
    return;
  const mt_shape* in = &ctx->in[0];
  if (in->rank < 0) {
    *ctx->out = mt_shape_unknown();
    return;
  }
  mt_shape out = *in;
  const int cdim = is_nchw ? 1 : in->rank - 1;
  const int64_t bias_len = ctx->in[1].rank == 1 ? ctx->in[1].dims[0] : -1;
  if (!mt_merge_dim(ctx, in->dims[cdim], bias_len, &out.dims[cdim])) return;
  ctx->out[0] = out;
}

typedef struct bias_task {
  bias_fn fn;
  const void* x;
  const void* b;
  void* y;
  int64_t c, inner;
} bias_task;

static void bias_task_run(int64_t begin, int64_t end, void* arg) {
  const bias_task* t = arg;
  t->fn(t->x, t->b, t->y, begin, end, t->c, t->inner);
}

static void bias_add_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_Tensor* b = ctx->inputs[1];
  char xs[256], bs[256];
  if (x->ndims < 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input tensor must be at least 2D: %s",
                   mt_dims_str(x->dims, x->ndims, xs, sizeof xs));
    return;
  }
  if (b->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Biases must be 1D: %s",
                   mt_dims_str(b->dims, b->ndims, bs, sizeof bs));
    return;
  }
  const int is_nchw = nchw(ctx->op) && x->ndims >= 3;
  const int cdim = is_nchw ? 1 : x->ndims - 1;
  if (x->dims[cdim] != b->dims[0]) {
    /* TensorFlow's wording (it says "last" for NCHW too) */
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Must provide as many biases as the last dimension of the input tensor: "
                   "%s vs. %s",
                   mt_dims_str(b->dims, 1, bs, sizeof bs),
                   mt_dims_str(x->dims, x->ndims, xs, sizeof xs));
    return;
  }
  bias_fn fn = (unsigned)x->dtype < MT_NUM_DTYPES ? bias_fns[x->dtype] : NULL;
  if (!fn || b->dtype != x->dtype) {
    mt_kernel_unsupported(ctx, "T", x->dtype);
    return;
  }
  TF_Tensor* y = mt_ctx_forward(ctx, 0, 0, x->dtype, x->dims, x->ndims);
  const int64_t n = mt_tensor_nelems(x);
  if (!y || n == 0) return;
  const int64_t c = x->dims[cdim];
  int64_t outer = 1;
  for (int d = 0; d < cdim; d++) outer *= x->dims[d];
  const int64_t inner = n / (outer * c);
  bias_task t = {fn, mt_tensor_data(x), mt_tensor_data(b), mt_tensor_data(y), c, inner};
  mt_parallel_for(ctx, outer, c * inner, bias_task_run, &t);
}

/* ---- elementwise activations ---- */

/* An activation loop over [begin, end) with an optional float parameter
 * (LeakyRelu's alpha). Expressions see `x` of type T (float for half and
 * bfloat16, computed in float and rounded once) and `p`. */
typedef void (*act_fn)(const void* x, void* y, int64_t begin, int64_t end, double p);
#define ACT_LOOP_(NAME, CT, TT, LOAD, STORE, ...)                                   \
  MT_SIMD_CLONES static void NAME(const void* xv, void* yv, int64_t begin, int64_t end, double p) { \
    typedef TT T;                                                                    \
    const CT* xp = xv;                                                               \
    CT* yp = yv;                                                                     \
    (void)p;                                                                         \
    for (int64_t i = begin; i < end; i++) {                                          \
      const T x = LOAD(xp[i]);                                                       \
      yp[i] = STORE((T)(__VA_ARGS__));                                               \
    }                                                                                \
  }
#define ACT_PLAIN_(DT, CT, NAME, ...) ACT_LOOP_(NAME##_##CT, CT, CT, , , __VA_ARGS__)
/* Loops NAME_<ctype> for TYPES (plain C types). */
#define ACT_LOOPS(NAME, TYPES, ...) TYPES(ACT_PLAIN_, NAME, __VA_ARGS__)
/* Loops NAME_half and NAME_bf16, computed in float. */
#define ACT_HALF_LOOPS(NAME, ...)                                                          \
  ACT_LOOP_(NAME##_half, mt_half, float, mt_half_to_float, mt_float_to_half, __VA_ARGS__) \
  ACT_LOOP_(NAME##_bf16, mt_bfloat16, float, mt_bfloat16_to_float, mt_float_to_bfloat16,  \
            __VA_ARGS__)
#define ACT_HALF_ENTRIES(NAME) [TF_HALF] = NAME##_half, [TF_BFLOAT16] = NAME##_bf16,
/* The float-only activations (Elu, Selu, ...): half, bfloat16, float, double. */
#define ACT_FLOAT_OP(NAME, ...)                                                            \
  ACT_LOOPS(NAME, MT_FLOAT_TYPES, __VA_ARGS__)                                             \
  ACT_HALF_LOOPS(NAME, __VA_ARGS__)                                                        \
  static const act_fn NAME##_fns[MT_NUM_DTYPES] = {MT_ENTRIES(NAME, MT_FLOAT_TYPES)       \
                                                       ACT_HALF_ENTRIES(NAME)};

/* A float activation on 16-lane vectors: EXPR computes v16f from `x` (and
 * `pf`, the parameter as float) for float, half and bfloat16 (converted per
 * element); double runs DEXPR per element. */
#define ACT_VEC_LOOP_(NAME, CT, LOAD, STORE, EXPR)                                         \
  MT_V16_MAP(NAME##_v16, CT, LOAD, STORE, EXPR)                                            \
  static void NAME(const void* xv, void* yv, int64_t begin, int64_t end, double p) {       \
    NAME##_v16(xv, yv, begin, end, (float)p);                                              \
  }
#define ACT_VEC_OP(NAME, EXPR, DEXPR)                                                      \
  ACT_LOOP_(NAME##_double, double, double, , , DEXPR)                                      \
  ACT_VEC_LOOP_(NAME##_float, float, , , EXPR)                                             \
  ACT_VEC_LOOP_(NAME##_half, mt_half, mt_half_to_float, mt_float_to_half, EXPR)            \
  ACT_VEC_LOOP_(NAME##_bf16, mt_bfloat16, mt_bfloat16_to_float, mt_float_to_bfloat16, EXPR) \
  static const act_fn NAME##_fns[MT_NUM_DTYPES] = {                                        \
      [TF_FLOAT] = NAME##_float, [TF_DOUBLE] = NAME##_double, [TF_HALF] = NAME##_half,     \
      [TF_BFLOAT16] = NAME##_bf16};

typedef struct act_task {
  act_fn fn;
  const void* x;
  void* y;
  double p;
} act_task;

static void act_task_run(int64_t begin, int64_t end, void* arg) {
  const act_task* t = arg;
  t->fn(t->x, t->y, begin, end, t->p);
}

/* Runs fns[T] over input 0 into output 0 (in place when forwardable). */
static void act_run(mt_kernel_ctx* ctx, const act_fn* fns, double p, int64_t cost) {
  const TF_Tensor* x = ctx->inputs[0];
  act_fn fn = (unsigned)x->dtype < MT_NUM_DTYPES ? fns[x->dtype] : NULL;
  if (!fn) {
    mt_kernel_unsupported(ctx, "T", x->dtype);
    return;
  }
  TF_Tensor* y = mt_ctx_forward(ctx, 0, 0, x->dtype, x->dims, x->ndims);
  const int64_t n = mt_tensor_nelems(x);
  if (!y || n <= 0) return;
  act_task t = {fn, mt_tensor_data(x), mt_tensor_data(y), p};
  mt_parallel_for(ctx, n, cost, act_task_run, &t);
}

/* Relu: `x < 0 ? 0 : x` keeps NaN and -0.0 as TensorFlow does. */
ACT_LOOPS(relu_s, MT_SIGNED_TYPES, x < 0 ? (T)0 : x)
ACT_LOOPS(relu_u, MT_UINT_TYPES, x)
ACT_HALF_LOOPS(relu, x < 0 ? 0.0f : x)
static const act_fn relu_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(relu_s, MT_SIGNED_TYPES) MT_ENTRIES(relu_u, MT_UINT_TYPES)
        ACT_HALF_ENTRIES(relu)};

/* Relu6: TensorFlow's min(max(x, 0), 6) maps NaN to... NaN (kept), -0 kept. */
ACT_LOOPS(relu6_s, MT_SIGNED_TYPES, x < 0 ? (T)0 : x > 6 ? (T)6 : x)
ACT_LOOPS(relu6_u, MT_UINT_TYPES, x > 6 ? (T)6 : x)
ACT_HALF_LOOPS(relu6, x < 0 ? 0.0f : x > 6 ? 6.0f : x)
static const act_fn relu6_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(relu6_s, MT_SIGNED_TYPES) MT_ENTRIES(relu6_u, MT_UINT_TYPES)
        ACT_HALF_ENTRIES(relu6)};

/* The float activations, in TensorFlow's formulas (exp(x) - 1, not expm1). */
#define FABS_T(x) _Generic((x), float: fabsf, default: fabs)(x)
/* exp is computed for every element and then selected (vectorizes). */
V16_INLINE v16f elu16(v16f x) {
  return v16_sel(x < 0.0f, vexpf16(x) - 1.0f, x);
}
ACT_VEC_OP(elu, elu16(x), x < 0 ? exp(x) - 1 : x)
#define SELU_SCALE 1.0507009873554804934193349852946
#define SELU_SCALE_ALPHA (1.0507009873554804934193349852946 * 1.6732632423543772848170429916717)
V16_INLINE v16f selu16(v16f x) {
  const v16f e = (float)SELU_SCALE_ALPHA * (vexpf16(x) - 1.0f);
  return v16_sel(x < 0.0f, e, (float)SELU_SCALE * x);
}
ACT_VEC_OP(selu, selu16(x), x < 0 ? SELU_SCALE_ALPHA * (exp(x) - 1) : SELU_SCALE * x)
ACT_FLOAT_OP(leaky_relu, x > 0 ? x : x * (T)p)
ACT_FLOAT_OP(softsign, x / (1 + FABS_T(x)))
/* Softplus: x when x > -threshold, exp(x) when x < threshold, else
 * log1p(exp(x)); threshold = log(epsilon of T) + 2 (p). In float all three
 * are computed and one selected (vectorizes); exp(x) is clamped to the
 * range where log1p(exp(x)) is selected (|x| < 14, as float epsilon gives),
 * so vlog1pf16_pos sees finite positive numbers; NaN stays NaN. */
V16_INLINE v16f softplus16(v16f x, float thr) {
  const v16f e = vexpf16(x);
  v16f ec = v16_sel(e < 1e-30f, v16_splat(1e-30f), e);
  ec = v16_sel(ec > 1e30f, v16_splat(1e30f), ec);
  const v16f l = vlog1pf16_pos(ec);
  const v16f r = v16_sel(x > -thr, x, v16_sel(x < thr, e, l));
  return v16_sel(x != x, x, r);
}
ACT_VEC_OP(softplus, softplus16(x, pf), x > -p ? x : x < p ? exp(x) : log1p(exp(x)))

static void relu_kernel(mt_kernel_ctx* ctx) { act_run(ctx, relu_fns, 0, 1); }
static void relu6_kernel(mt_kernel_ctx* ctx) { act_run(ctx, relu6_fns, 0, 1); }
static void elu_kernel(mt_kernel_ctx* ctx) { act_run(ctx, elu_fns, 0, 8); }
static void selu_kernel(mt_kernel_ctx* ctx) { act_run(ctx, selu_fns, 0, 8); }
static void softsign_kernel(mt_kernel_ctx* ctx) { act_run(ctx, softsign_fns, 0, 4); }
static void leaky_relu_kernel(mt_kernel_ctx* ctx) {
  act_run(ctx, leaky_relu_fns, mt_op_attr_float(ctx->op, "alpha", 0.2f), 1);
}
static void softplus_kernel(mt_kernel_ctx* ctx) {
  /* log(epsilon) + 2 in T's precision (epsilon: 2^-10 half, 2^-7 bfloat16). */
  double eps = DBL_EPSILON;
  switch (ctx->inputs[0]->dtype) {
    case TF_FLOAT: eps = FLT_EPSILON; break;
    case TF_HALF: eps = 0x1p-10; break;
    case TF_BFLOAT16: eps = 0x1p-7; break;
    default: break;
  }
  double thr = log(eps) + 2;
  if (ctx->inputs[0]->dtype == TF_FLOAT) thr = (float)thr;
  if (ctx->inputs[0]->dtype == TF_HALF) thr = mt_half_to_float(mt_float_to_half((float)thr));
  if (ctx->inputs[0]->dtype == TF_BFLOAT16)
    thr = mt_bfloat16_to_float(mt_float_to_bfloat16((float)thr));
  act_run(ctx, softplus_fns, thr, 16);
}

/* ---- Softmax, LogSoftmax ---- */

/* Rows of the last axis, numerically stable: shifted = x - max(x);
 * softmax = exp(shifted) * (1 / sum), log_softmax = shifted - log(sum). In
 * place is safe: a row is read fully (max) before it is written.
 *
 * `dnn` reproduces TensorFlow's oneDNN kernel (its CPU Softmax for float and
 * bfloat16) on NaN/Inf: the max skips NaN and exp(NaN) saturates to +inf,
 * so a row with a NaN (or +inf) gives NaN there and 0 elsewhere. Without it
 * (Eigen: half, double, LogSoftmax) NaN spreads over the whole row. */
#define SOFTMAX_ROWS_(CT, EXP, LOG)                                                      \
  static void softmax_rows_##CT(const CT* x, CT* y, int64_t begin, int64_t end,         \
                                int64_t k, int log_mode, int dnn) {                     \
    for (int64_t r = begin; r < end; r++) {                                             \
      const CT* xr = x + r * k;                                                         \
      CT* yr = y + r * k;                                                               \
      CT mx = dnn ? -(CT)INFINITY : xr[0];                                              \
      for (int64_t i = dnn ? 0 : 1; i < k; i++) mx = xr[i] > mx ? xr[i] : mx;           \
      CT sum = 0;                                                                       \
      if (log_mode) {                                                                   \
        for (int64_t i = 0; i < k; i++) sum += EXP(xr[i] - mx);                         \
        const CT lse = LOG(sum);                                                        \
        for (int64_t i = 0; i < k; i++) yr[i] = (xr[i] - mx) - lse;                     \
      } else {                                                                          \
        for (int64_t i = 0; i < k; i++) {                                               \
          const CT d = xr[i] - mx;                                                      \
          yr[i] = dnn && d != d ? (CT)INFINITY : EXP(d);                                \
          sum += yr[i];                                                                 \
        }                                                                               \
        const CT inv = 1 / sum;                                                         \
        for (int64_t i = 0; i < k; i++) yr[i] *= inv;                                   \
      }                                                                                 \
    }                                                                                   \
  }
SOFTMAX_ROWS_(float, vexpf, logf)
SOFTMAX_ROWS_(double, exp, log)

typedef struct softmax_task {
  const void* x;
  void* y;
  int is_double, log_mode, dnn;
  int64_t k;
} softmax_task;

static void softmax_task_run(int64_t begin, int64_t end, void* arg) {
  const softmax_task* t = arg;
  if (t->is_double)
    softmax_rows_double(t->x, t->y, begin, end, t->k, t->log_mode, 0);
  else
    softmax_rows_float(t->x, t->y, begin, end, t->k, t->log_mode, t->dnn);
}

static void softmax_shape(mt_shape_ctx* ctx) {
  if (mt_shape_with_rank_at_least(ctx, 0, 1)) ctx->out[0] = ctx->in[0];
}

static void softmax_any_kernel(mt_kernel_ctx* ctx, int log_mode) {
  const TF_Tensor* x = ctx->inputs[0];
  char buf[256];
  if (x->ndims < 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "logits must have >= 1 dimension, got %s",
                   mt_dims_str(x->dims, x->ndims, buf, sizeof buf));
    return;
  }
  const TF_DataType dt = x->dtype;
  if (dt != TF_FLOAT && dt != TF_DOUBLE && !is_half_like(dt)) {
    mt_kernel_unsupported(ctx, "T", dt);
    return;
  }
  TF_Tensor* y = mt_ctx_forward(ctx, 0, 0, dt, x->dims, x->ndims);
  const int64_t n = mt_tensor_nelems(x), k = x->dims[x->ndims - 1];
  if (!y || n == 0 || k == 0) return;
  float* tmp = NULL;
  softmax_task t = {mt_tensor_data(x), mt_tensor_data(y), dt == TF_DOUBLE, log_mode,
                    !log_mode && (dt == TF_FLOAT || dt == TF_BFLOAT16), k};
  if (is_half_like(dt)) {
    if (!floats_of(x, n, &tmp, ctx->status)) return;
    t.x = t.y = tmp;
  }
  mt_parallel_for(ctx, n / k, k * 8, softmax_task_run, &t);
  if (tmp) {
    store_floats(tmp, y, n);
    free(tmp);
  }
}

static void softmax_kernel(mt_kernel_ctx* ctx) { softmax_any_kernel(ctx, 0); }
static void log_softmax_kernel(mt_kernel_ctx* ctx) { softmax_any_kernel(ctx, 1); }

/* ---- L2Loss ---- */

static void l2loss_shape(mt_shape_ctx* ctx) { ctx->out[0] = mt_shape_scalar(); }

/* sum(t ** 2) / 2 over all elements, accumulated in double: blocks of
 * L2_BLOCK elements summed in parallel (8 interleaved accumulators each, so
 * the loop vectorizes) and added in block order, so the result does not
 * depend on the thread count. */
#define L2_BLOCK ((int64_t)1 << 16)
typedef struct l2_task {
  const void* x;
  int64_t n;
  double* partial;
} l2_task;

#define L2_BLOCKS_(NAME, CT)                                                  \
  MT_SIMD_CLONES static void NAME(int64_t b, int64_t e, void* arg) {          \
    const l2_task* t = arg;                                                   \
    const CT* x = t->x;                                                       \
    for (int64_t blk = b; blk < e; blk++) {                                   \
      const int64_t i0 = blk * L2_BLOCK;                                      \
      const int64_t i1 = t->n - i0 < L2_BLOCK ? t->n : i0 + L2_BLOCK;         \
      double acc[8] = {0};                                                    \
      int64_t i = i0;                                                         \
      for (; i + 8 <= i1; i += 8)                                             \
        for (int k = 0; k < 8; k++) acc[k] += (double)x[i + k] * x[i + k];    \
      double s = 0;                                                           \
      for (; i < i1; i++) s += (double)x[i] * x[i];                           \
      for (int k = 0; k < 8; k++) s += acc[k];                                \
      t->partial[blk] = s;                                                    \
    }                                                                         \
  }
L2_BLOCKS_(l2_blocks_float, float)
L2_BLOCKS_(l2_blocks_double, double)

static void l2loss_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_DataType dt = x->dtype;
  if (dt != TF_FLOAT && dt != TF_DOUBLE && !is_half_like(dt)) {
    mt_kernel_unsupported(ctx, "T", dt);
    return;
  }
  TF_Tensor* y = mt_ctx_alloc(ctx, 0, dt, NULL, 0);
  if (!y) return;
  const int64_t n = mt_tensor_nelems(x);
  const int64_t blocks = (n + L2_BLOCK - 1) / L2_BLOCK;
  float* tmp = NULL;
  double* partial = mt_malloc((size_t)(blocks + 1) * sizeof(double), ctx->status);
  const void* p = !partial ? NULL
                  : dt == TF_DOUBLE ? mt_tensor_data(x)
                                    : (const void*)floats_of(x, n, &tmp, ctx->status);
  if (p) {
    l2_task t = {p, n, partial};
    mt_parallel_for(ctx, blocks, L2_BLOCK * 2, dt == TF_DOUBLE ? l2_blocks_double : l2_blocks_float,
                    &t);
    double sum = 0;
    for (int64_t b = 0; b < blocks; b++) sum += partial[b];
    if (dt == TF_DOUBLE) {
      *(double*)mt_tensor_data(y) = sum * 0.5;
    } else {
      const float r = (float)(sum * 0.5);
      store_floats(&r, y, 1);
    }
  }
  free(tmp);
  free(partial);
}

/* ---- FusedBatchNorm, FusedBatchNormV3 ---- */

/* Position of the channel dim for a data_format; 0 for an unknown one. */
static int bn_channel_dim(const char* fmt, int rank) {
  return (strcmp(fmt, "NCHW") == 0 || strcmp(fmt, "NCDHW") == 0) ? 1 : rank - 1;
}

static int bn_rank(const char* fmt) {
  return (strcmp(fmt, "NDHWC") == 0 || strcmp(fmt, "NCDHW") == 0) ? 5 : 4;
}

/* TensorFlow's FusedBatchNormShape: x of rank 4 (5 for 3-D formats), the
 * vectors of the channel count (mean/variance only when they are used). */
static void fused_batch_norm_shape(mt_shape_ctx* ctx) {
  const char* fmt = mt_op_attr_str(ctx->op, "data_format", "NHWC");
  const int rank = bn_rank(fmt);
  const int training = mt_op_attr_bool(ctx->op, "is_training", 1);
  const float factor = mt_op_attr_float(ctx->op, "exponential_avg_factor", 1.0f);
  const int nvec = !training || factor != 1.0f ? 5 : 3;
  if (!mt_shape_with_rank(ctx, 0, rank)) return;
  int64_t c = ctx->in[0].rank < 0 ? -1 : ctx->in[0].dims[bn_channel_dim(fmt, rank)];
  for (int i = 1; i < nvec; i++) {
    if (!mt_shape_with_rank(ctx, i, 1)) return;
    if (ctx->in[i].rank == 1 && !mt_merge_dim(ctx, c, ctx->in[i].dims[0], &c)) return;
  }
  if (ctx->in[0].rank < 0) {
    ctx->out[0] = mt_shape_unknown();
  } else {
    ctx->out[0] = ctx->in[0];
    ctx->out[0].dims[bn_channel_dim(fmt, rank)] = c;
  }
  for (int i = 1; i < 5; i++) ctx->out[i] = mt_shape_make(&c, 1);
  if (ctx->noutputs > 5) ctx->out[5] = mt_shape_unknown();
}

typedef struct bn_task {
  const float* x;
  float* y;
  const float *sf, *shift; /* per channel: y = (x - mean) * sf + offset */
  const float* mean;
  const float* offset;
  int64_t c, inner;
} bn_task;

/* Rows `o` of the [outer, C, inner] view. */
MT_SIMD_CLONES static void bn_apply_run(int64_t begin, int64_t end, void* arg) {
  const bn_task* t = arg;
  const int64_t c = t->c, inner = t->inner;
  for (int64_t o = begin; o < end; o++) {
    const float* xr = t->x + o * c * inner;
    float* yr = t->y + o * c * inner;
    if (inner == 1) {
      for (int64_t j = 0; j < c; j++) yr[j] = (xr[j] - t->mean[j]) * t->sf[j] + t->offset[j];
    } else {
      for (int64_t j = 0; j < c; j++) {
        const float m = t->mean[j], s = t->sf[j], b = t->offset[j];
        for (int64_t i = 0; i < inner; i++)
          yr[j * inner + i] = (xr[j * inner + i] - m) * s + b;
      }
    }
  }
}

/* Checks a vector input's rank and length like TensorFlow's kernel. */
static int bn_check_vec(mt_kernel_ctx* ctx, int idx, const char* what, const char* prefix,
                        int64_t c) {
  const TF_Tensor* v = ctx->inputs[idx];
  char buf[256];
  if (v->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s must be 1-dimensional%s", what,
                   mt_dims_str(v->dims, v->ndims, buf, sizeof buf));
    return 0;
  }
  if (prefix && v->dims[0] != c) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "%s%s must have the same number of elements as the channels of x, got "
                   "%lld and %lld",
                   prefix, what, (long long)v->dims[0], (long long)c);
    return 0;
  }
  return 1;
}

/* Batch statistics of x ([outer, C, inner]) per channel: sums of x and x^2
 * in double in one pass (float inputs square exactly in double; E[x^2] -
 * mean^2 in double loses nothing a float result keeps), over BN_BLOCKS
 * fixed blocks of rows run in parallel and added in block order, so the
 * result does not depend on the thread count. */
#define BN_BLOCKS 32
typedef struct bn_moments_task {
  const float* x;
  int64_t outer, c, inner, per_block;
  double* partial; /* [BN_BLOCKS][2][c] */
} bn_moments_task;

MT_SIMD_CLONES static void bn_moments_block(int64_t b, int64_t e, void* arg) {
  const bn_moments_task* t = arg;
  const int64_t c = t->c, inner = t->inner;
  for (int64_t blk = b; blk < e; blk++) {
    double* sum = t->partial + blk * 2 * c;
    double* sq = sum + c;
    const int64_t o0 = blk * t->per_block;
    const int64_t o1 = o0 + t->per_block < t->outer ? o0 + t->per_block : t->outer;
    for (int64_t j = 0; j < 2 * c; j++) sum[j] = 0;
    for (int64_t o = o0; o < o1; o++) {
      const float* xr = t->x + o * c * inner;
      if (inner == 1) { /* NHWC: channels contiguous, vectorized across them */
        for (int64_t j = 0; j < c; j++) {
          const double v = xr[j];
          sum[j] += v;
          sq[j] += v * v;
        }
      } else {
        for (int64_t j = 0; j < c; j++) {
          double s = 0, q = 0;
          for (int64_t i = 0; i < inner; i++) {
            const double v = xr[j * inner + i];
            s += v;
            q += v * v;
          }
          sum[j] += s;
          sq[j] += q;
        }
      }
    }
  }
}

/* 0, or 1 with TF_RESOURCE_EXHAUSTED set. */
static int bn_moments(mt_kernel_ctx* ctx, const float* x, int64_t outer, int64_t c,
                      int64_t inner, double* mean, double* var) {
  const int64_t count = outer * inner;
  const int64_t blocks = outer < BN_BLOCKS ? (outer > 0 ? outer : 1) : BN_BLOCKS;
  double* partial = mt_malloc((size_t)(blocks * 2 * c + 1) * sizeof(double), ctx->status);
  if (!partial) return 0;
  bn_moments_task t = {x, outer, c, inner, (outer + blocks - 1) / blocks, partial};
  if (t.per_block < 1) t.per_block = 1;
  mt_parallel_for(ctx, blocks, t.per_block * c * inner * 3, bn_moments_block, &t);
  for (int64_t j = 0; j < c; j++) {
    double s = 0, q = 0;
    for (int64_t b = 0; b < blocks; b++) {
      s += partial[b * 2 * c + j];
      q += partial[b * 2 * c + c + j];
    }
    const double m = count ? s / (double)count : 0;
    const double v = count ? q / (double)count - m * m : 0;
    mean[j] = m;
    var[j] = v > 0 ? v : 0;
  }
  free(partial);
  return 1;
}

static void fused_batch_norm_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  const char* fmt = mt_op_attr_str(ctx->op, "data_format", "NHWC");
  const int training = mt_op_attr_bool(ctx->op, "is_training", 1);
  const float eps = mt_op_attr_float(ctx->op, "epsilon", 1e-4f);
  const float factor = mt_op_attr_float(ctx->op, "exponential_avg_factor", 1.0f);
  const int v3 = ctx->noutputs > 5;
  char buf[256];
  if (v3 ? (x->ndims != 4 && x->ndims != 5) : x->ndims != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "input must be %s-dimensional%s",
                   v3 ? "4 or 5" : "4", mt_dims_str(x->dims, x->ndims, buf, sizeof buf));
    return;
  }
  const TF_DataType ut = ctx->inputs[1]->dtype;
  /* TensorFlow's CPU kernels: T float/half/bfloat16 with U float. */
  if (x->dtype != TF_FLOAT && !is_half_like(x->dtype)) {
    mt_kernel_unsupported(ctx, "T", x->dtype);
    return;
  }
  if (ut != TF_FLOAT) {
    mt_kernel_unsupported(ctx, "U", ut);
    return;
  }
  const int cdim = bn_channel_dim(fmt, x->ndims);
  const int64_t c = x->dims[cdim];
  const char* pre = !training ? "When is_training=false, "
                    : factor != 1.0f ? "When exponential_avg_factor != 1, " : NULL;
  if (!bn_check_vec(ctx, 1, "scale", "", c) || !bn_check_vec(ctx, 2, "offset", "", c) ||
      !bn_check_vec(ctx, 3, "estimated_mean", NULL, c) ||
      !bn_check_vec(ctx, 4, "estimated_variance", NULL, c) ||
      (pre && (!bn_check_vec(ctx, 3, "mean", pre, c) ||
               !bn_check_vec(ctx, 4, "variance", pre, c))))
    return;
  const int64_t n = mt_tensor_nelems(x);
  int64_t outer = 1;
  for (int d = 0; d < cdim; d++) outer *= x->dims[d];
  const int64_t inner = c ? (n / (outer ? outer : 1)) / c : 0;
  const int64_t vdim = c;
  TF_Tensor* y = mt_ctx_alloc(ctx, 0, x->dtype, x->dims, x->ndims);
  if (!y) return;
  TF_Tensor* vec[5] = {0};
  for (int i = 1; i < 5; i++)
    if (!(vec[i] = mt_ctx_alloc(ctx, i, ut, &vdim, 1))) return;
  /* TensorFlow runs V3 on oneDNN for 4-D float/bfloat16 x: reserve_space_3
   * is empty [0] and inference reports mean/variance as reserve spaces. The
   * Eigen kernel (half, 5-D) gives a scalar 0 and leaves the inference
   * reserve spaces unset (zeros here). */
  const int eigen_v3 = v3 && (x->dtype == TF_HALF || x->ndims == 5);
  if (v3) {
    const int64_t zero = 0;
    TF_Tensor* r3 = mt_ctx_alloc(ctx, 5, ut, &zero, eigen_v3 ? 0 : 1);
    if (!r3) return;
    if (eigen_v3) *(float*)mt_tensor_data(r3) = 0;
  }
  /* Float scratch: x, y, and 8 vectors of C (scale, offset, mean, var,
   * sf, and the four vector outputs). */
  float *xo = NULL, *vecs = mt_malloc((size_t)(c * 9 + 1) * sizeof(float), ctx->status);
  double* mom = vecs ? mt_malloc((size_t)(c * 2 + 1) * sizeof(double), ctx->status) : NULL;
  /* y is written directly for float, through a float scratch otherwise. */
  float* yo = mom && x->dtype != TF_FLOAT ? mt_malloc((size_t)(n + 1) * sizeof(float), ctx->status)
                                          : NULL;
  float* yf = x->dtype == TF_FLOAT ? mt_tensor_data(y) : yo;
  const float* xf = mom && yf ? floats_of(x, n, &xo, ctx->status) : NULL;
  if (!xf) goto done;
  float *scale = vecs, *offset = vecs + c, *mean = vecs + 2 * c, *var = vecs + 3 * c,
        *sf = vecs + 4 * c, *out = vecs + 5 * c;
  load_floats(ctx->inputs[1], scale, c);
  load_floats(ctx->inputs[2], offset, c);
  if (!training) {
    load_floats(ctx->inputs[3], mean, c);
    load_floats(ctx->inputs[4], var, c);
    for (int64_t j = 0; j < c; j++) {
      out[j] = mean[j];
      out[c + j] = var[j];
      out[2 * c + j] = eigen_v3 ? 0 : mean[j];
      out[3 * c + j] = eigen_v3 ? 0 : var[j];
    }
  } else {
    /* Batch statistics; the running ones blend the unbiased variance
     * (Bessel's correction) with exponential_avg_factor, as TensorFlow. */
    if (!bn_moments(ctx, xf, outer, c, inner, mom, mom + c)) goto done;
    const int64_t count = outer * inner;
    const double bessel = count > 1 ? (double)count / (double)(count - 1) : 1.0;
    float* old_mean = var + c; /* = sf, overwritten below */
    if (factor != 1.0f) {
      load_floats(ctx->inputs[3], old_mean, c);
      load_floats(ctx->inputs[4], out, c); /* old variance, temporarily */
    }
    for (int64_t j = 0; j < c; j++) {
      const double bm = mom[j], bv = mom[c + j], uv = bv * bessel;
      const double om = factor != 1.0f ? old_mean[j] : 0, ov = factor != 1.0f ? out[j] : 0;
      mean[j] = (float)bm;
      var[j] = (float)bv;
      out[j] = (float)((1.0 - factor) * om + factor * bm);
      out[c + j] = (float)((1.0 - factor) * ov + factor * uv);
      out[2 * c + j] = (float)bm;
      out[3 * c + j] = (float)bv;
    }
  }
  for (int64_t j = 0; j < c; j++) sf[j] = scale[j] / sqrtf(var[j] + eps);
  if (n > 0) {
    bn_task t = {xf, yf, sf, NULL, mean, offset, c, inner};
    mt_parallel_for(ctx, outer, c * inner * 3, bn_apply_run, &t);
    if (yo) store_floats(yo, y, n);
  }
  for (int i = 1; i < 5; i++) store_floats(out + (i - 1) * c, vec[i], c);
done:
  free(xo);
  free(yo);
  free(mom);
  free(vecs);
}

/* ---- LRN ---- */

static void lrn_shape(mt_shape_ctx* ctx) {
  if (mt_shape_with_rank(ctx, 0, 4)) ctx->out[0] = ctx->in[0];
}

typedef struct lrn_task {
  const float* x;
  float* y;
  int64_t depth, radius;
  double bias, alpha, beta;
} lrn_task;

/* Pixels [begin, end): y = x / (bias + alpha * sum of squares over the
 * depth window [d - r, d + r]) ** beta. Window sums are differences of
 * running sums of squares in double (squares of floats are exact there;
 * within a chunk the running sum is at most a few hundred window sums, so
 * the difference keeps ~45 bits): one dependent addition per channel, and
 * the differences for windows inside the depth vectorize. Radii beyond
 * LRN_CHUNK slide one window sum instead. The scaling runs as a separate
 * loop. */
#define LRN_CHUNK 256
static void lrn_norms(const float* xr, int64_t d0, int64_t d1, int64_t dep, int64_t r,
                      double* norm, double bias, double alpha) {
  if (r > LRN_CHUNK) {
    double s = 0;
    const int64_t lo = d0 - r < 0 ? 0 : d0 - r, hi = d0 + r >= dep ? dep - 1 : d0 + r;
    for (int64_t j = lo; j <= hi; j++) s += (double)xr[j] * xr[j];
    for (int64_t d = d0; d < d1; d++) {
      if (d > d0) {
        const int64_t add = d + r, drop = d - r - 1;
        if (add < dep) s += (double)xr[add] * xr[add];
        if (drop >= 0) s -= (double)xr[drop] * xr[drop];
      }
      norm[d - d0] = bias + alpha * s;
    }
    return;
  }
  /* run[j - base] = sum of squares of channels [base, j) */
  double run[3 * LRN_CHUNK + 2];
  const int64_t base = d0 - r < 0 ? 0 : d0 - r, top = d1 + r > dep ? dep : d1 + r;
  run[0] = 0;
  for (int64_t j = base; j < top; j++) run[j - base + 1] = run[j - base] + (double)xr[j] * xr[j];
  /* channels whose window lies inside the depth: [r, dep - r) */
  const int64_t in0 = d0 > r ? d0 : (r < d1 ? r : d1);
  const int64_t in1 = dep - r < d1 ? (dep - r > in0 ? dep - r : in0) : d1;
  for (int64_t d = d0; d < in0; d++) {
    const int64_t lo = d - r < 0 ? 0 : d - r, hi = d + r + 1 > dep ? dep : d + r + 1;
    norm[d - d0] = bias + alpha * (run[hi - base] - run[lo - base]);
  }
  for (int64_t d = in0; d < in1; d++)
    norm[d - d0] = bias + alpha * (run[d + r + 1 - base] - run[d - r - base]);
  for (int64_t d = in1; d < d1; d++) {
    const int64_t lo = d - r < 0 ? 0 : d - r, hi = d + r + 1 > dep ? dep : d + r + 1;
    norm[d - d0] = bias + alpha * (run[hi - base] - run[lo - base]);
  }
}

/* sqrt() must set errno on a negative argument, so GCC keeps a scalar
 * libm fallback in the loop and vectorizes none of it; with AVX2 the
 * beta = 0.5 case runs on intrinsics instead (IEEE sqrt and division are
 * correctly rounded either way: the same results). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#include <immintrin.h>
#define LRN_HAVE_AVX2 1
__attribute__((target("avx2"))) static int64_t lrn_rsqrt_avx2(const float* xr, float* yr,
                                                               const double* norm, int64_t n) {
  int64_t d = 0;
  const __m256d one = _mm256_set1_pd(1.0);
  for (; d + 4 <= n; d += 4) {
    const __m256d r = _mm256_div_pd(one, _mm256_sqrt_pd(_mm256_loadu_pd(norm + d)));
    const __m256d xv = _mm256_cvtps_pd(_mm_loadu_ps(xr + d));
    _mm_storeu_ps(yr + d, _mm256_cvtpd_ps(_mm256_mul_pd(xv, r)));
  }
  return d;
}
#else
#define LRN_HAVE_AVX2 0
#endif

static void lrn_scale(const float* xr, float* yr, const double* norm, int64_t n, double beta,
                      int avx2) {
  if (beta == 0.5) {
    int64_t d = 0;
#if LRN_HAVE_AVX2
    if (avx2) d = lrn_rsqrt_avx2(xr, yr, norm, n);
#endif
    for (; d < n; d++) yr[d] = (float)(xr[d] * (1 / sqrt(norm[d])));
  } else {
    for (int64_t d = 0; d < n; d++) yr[d] = (float)(xr[d] * pow(norm[d], -beta));
  }
}

static void lrn_run(int64_t begin, int64_t end, void* arg) {
  const lrn_task* t = arg;
  const int64_t dep = t->depth, r = t->radius;
#if LRN_HAVE_AVX2
  const int avx2 = __builtin_cpu_supports("avx2");
#else
  const int avx2 = 0;
#endif
  double norm[LRN_CHUNK];
  for (int64_t p = begin; p < end; p++) {
    const float* xr = t->x + p * dep;
    float* yr = t->y + p * dep;
    /* chunks restart the window sum: bounded rounding drift, bounded stack */
    for (int64_t d0 = 0; d0 < dep; d0 += LRN_CHUNK) {
      const int64_t d1 = dep - d0 < LRN_CHUNK ? dep : d0 + LRN_CHUNK;
      lrn_norms(xr, d0, d1, dep, r, norm, t->bias, t->alpha);
      lrn_scale(xr + d0, yr + d0, norm, d1 - d0, t->beta, avx2);
    }
  }
}

static void lrn_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  const int64_t radius = mt_op_attr_int(ctx->op, "depth_radius", 5);
  if (x->ndims != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "in must be 4-dimensional");
    return;
  }
  if (radius > INT_MAX || radius < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "depth_radius = %lld larger than int max",
                   (long long)radius);
    return;
  }
  /* TensorFlow's CPU kernel: float and half only. */
  if (x->dtype != TF_FLOAT && x->dtype != TF_HALF) {
    mt_kernel_unsupported(ctx, "T", x->dtype);
    return;
  }
  TF_Tensor* y = mt_ctx_alloc(ctx, 0, x->dtype, x->dims, x->ndims);
  const int64_t n = mt_tensor_nelems(x), depth = x->dims[3];
  if (!y || n == 0) return;
  float* xo = NULL;
  const float* xf = floats_of(x, n, &xo, ctx->status);
  float* yf = !xf ? NULL
              : x->dtype == TF_FLOAT ? mt_tensor_data(y)
                                     : mt_malloc((size_t)n * sizeof(float), ctx->status);
  if (yf) {
    lrn_task t = {xf, yf, depth, radius, mt_op_attr_float(ctx->op, "bias", 1.0f),
                  mt_op_attr_float(ctx->op, "alpha", 1.0f),
                  mt_op_attr_float(ctx->op, "beta", 0.5f)};
    mt_parallel_for(ctx, n / depth, depth * 8, lrn_run, &t);
    if (x->dtype != TF_FLOAT) {
      store_floats(yf, y, n);
      free(yf);
    }
  }
  free(xo);
}

/* ---- SoftmaxCrossEntropyWithLogits, SparseSoftmaxCrossEntropyWithLogits ---- */

/* TensorFlow's shape function: rank-2 logits merged with labels, else the
 * broadcast of both, which must be rank 2. */
static void xent_shape(mt_shape_ctx* ctx) {
  mt_shape m = ctx->in[0];
  mt_shape bc;
  if (!((m.rank < 0 || m.rank == 2) && mt_shape_merge(&m, &ctx->in[1]))) {
    if (!mt_broadcast_shapes(&ctx->in[0], &ctx->in[1], &bc, ctx->status)) return;
    if (bc.rank >= 0 && bc.rank != 2) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Shape must be broadcasted with rank 2, but is rank %d", bc.rank);
      return;
    }
    m = bc;
  }
  if (m.rank < 0) {
    m.rank = 2;
    m.dims[0] = m.dims[1] = -1;
  }
  ctx->out[0] = mt_shape_make(m.dims, 1);
  ctx->out[1] = m;
}

typedef struct xent_task {
  const float *logits, *labels;  /* dense (float) */
  const double *dlogits, *dlabels;
  const void* sparse;            /* int32/int64 labels, or NULL for dense */
  int sparse64;
  float *loss, *back;
  double *dloss, *dback;
  int64_t c;
  int64_t lg_rs, lg_cs, lb_rs, lb_cs; /* row/col strides (0 = broadcast) */
} xent_task;

#define XENT_ROWS_(CT, P, EXP, LOG)                                                    \
  static void xent_rows_##CT(const xent_task* t, int64_t begin, int64_t end) {        \
    const int64_t c = t->c;                                                           \
    for (int64_t r = begin; r < end; r++) {                                           \
      const CT* lg = t->P##logits + r * t->lg_rs;                                     \
      CT* bp = t->P##back + r * c;                                                    \
      CT mx = lg[0];                                                                  \
      for (int64_t j = 1; j < c; j++) mx = lg[j * t->lg_cs] > mx ? lg[j * t->lg_cs] : mx; \
      CT sum = 0;                                                                     \
      for (int64_t j = 0; j < c; j++) {                                               \
        bp[j] = EXP(lg[j * t->lg_cs] - mx);                                           \
        sum += bp[j];                                                                 \
      }                                                                               \
      const CT lse = LOG(sum);                                                        \
      CT loss = 0;                                                                    \
      if (t->sparse) {                                                                \
        const int64_t lab = t->sparse64 ? ((const int64_t*)t->sparse)[r]              \
                                        : ((const int32_t*)t->sparse)[r];             \
        for (int64_t j = 0; j < c; j++) bp[j] = bp[j] / sum - (j == lab ? 1 : 0);     \
        loss = lse - (lg[lab * t->lg_cs] - mx);                                       \
      } else {                                                                        \
        const CT* lb = t->P##labels + r * t->lb_rs;                                   \
        for (int64_t j = 0; j < c; j++) {                                             \
          const CT l = lb[j * t->lb_cs];                                              \
          loss += l * (lse - (lg[j * t->lg_cs] - mx));                                \
          bp[j] = bp[j] / sum - l;                                                    \
        }                                                                             \
      }                                                                               \
      t->P##loss[r] = loss;                                                           \
    }                                                                                 \
  }
XENT_ROWS_(float, , vexpf, logf)
XENT_ROWS_(double, d, exp, log)

static void xent_run_f(int64_t b, int64_t e, void* arg) { xent_rows_float(arg, b, e); }
static void xent_run_d(int64_t b, int64_t e, void* arg) { xent_rows_double(arg, b, e); }

/* Runs the rows over logits (input 0) shaped [batch, c] after
 * broadcasting; labels: dense input 1 (with its strides) or sparse. */
static void xent_compute(mt_kernel_ctx* ctx, xent_task* t, int64_t batch, const int64_t* lgd,
                         const int64_t* lbd) {
  const TF_Tensor* lg = ctx->inputs[0];
  const TF_Tensor* lb = ctx->inputs[1];
  const TF_DataType dt = lg->dtype;
  const int64_t c = t->c, bd[2] = {batch, c};
  TF_Tensor* loss = mt_ctx_alloc(ctx, 0, dt, bd, 1);
  TF_Tensor* back = loss ? mt_ctx_alloc(ctx, 1, dt, bd, 2) : NULL;
  if (!back || batch == 0) return;
  if (c == 0) { /* sum over nothing; TensorFlow gives 0 loss */
    memset(mt_tensor_data(loss), 0, (size_t)batch * (size_t)TF_DataTypeSize(dt));
    return;
  }
  t->lg_rs = lgd[0] == 1 ? 0 : lgd[1];
  t->lg_cs = lgd[1] == 1 ? 0 : 1;
  if (lbd) {
    t->lb_rs = lbd[0] == 1 ? 0 : lbd[1];
    t->lb_cs = lbd[1] == 1 ? 0 : 1;
  }
  const int64_t nlg = mt_tensor_nelems(lg), nlb = lbd ? mt_tensor_nelems(lb) : 0;
  if (dt == TF_DOUBLE) {
    t->dlogits = mt_tensor_data(lg);
    t->dlabels = lbd ? mt_tensor_data(lb) : NULL;
    t->dloss = mt_tensor_data(loss);
    t->dback = mt_tensor_data(back);
    mt_parallel_for(ctx, batch, c * 8, xent_run_d, t);
    return;
  }
  float *lgo = NULL, *lbo = NULL, *lo = NULL, *bo = NULL;
  t->logits = floats_of(lg, nlg, &lgo, ctx->status);
  t->labels = t->logits && lbd ? floats_of(lb, nlb, &lbo, ctx->status) : NULL;
  if (t->logits && (t->labels || !lbd)) {
    if (dt == TF_FLOAT) {
      t->loss = mt_tensor_data(loss);
      t->back = mt_tensor_data(back);
    } else {
      t->loss = lo = mt_malloc((size_t)batch * sizeof(float), ctx->status);
      t->back = bo = lo ? mt_malloc((size_t)(batch * c) * sizeof(float), ctx->status) : NULL;
    }
    if (t->back) {
      mt_parallel_for(ctx, batch, c * 8, xent_run_f, t);
      if (dt != TF_FLOAT) {
        store_floats(lo, loss, batch);
        store_floats(bo, back, batch * c);
      }
    }
  }
  free(lgo);
  free(lbo);
  free(lo);
  free(bo);
}

static int xent_check_type(mt_kernel_ctx* ctx) {
  const TF_DataType dt = ctx->inputs[0]->dtype;
  if (dt == TF_FLOAT || dt == TF_DOUBLE || is_half_like(dt)) return 1;
  mt_kernel_unsupported(ctx, "T", dt);
  return 0;
}

static void xent_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* lg = ctx->inputs[0];
  const TF_Tensor* lb = ctx->inputs[1];
  char a[256], b[256];
  if (!xent_check_type(ctx)) return;
  int64_t lgd[2], lbd[2], od[2];
  int same = lg->ndims == lb->ndims;
  for (int i = 0; same && i < lg->ndims; i++) same = lg->dims[i] == lb->dims[i];
  const int nd = lg->ndims > lb->ndims ? lg->ndims : lb->ndims;
  int ok = 1;
  if (!same) { /* broadcast: right-aligned, dims equal or 1 */
    for (int i = 0; i < nd; i++) {
      const int64_t x = i >= nd - lg->ndims ? lg->dims[i - (nd - lg->ndims)] : 1;
      const int64_t y = i >= nd - lb->ndims ? lb->dims[i - (nd - lb->ndims)] : 1;
      if (x != y && x != 1 && y != 1) ok = 0;
    }
    if (!ok) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "logits and labels must be broadcastable: logits_size=%s labels_size=%s",
                     mt_dims_str(lg->dims, lg->ndims, a, sizeof a),
                     mt_dims_str(lb->dims, lb->ndims, b, sizeof b));
      return;
    }
  }
  if (nd != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "logits and labels must be either 2-dimensional, or broadcasted to be "
                   "2-dimensional");
    return;
  }
  for (int i = 0; i < 2; i++) {
    lgd[i] = i >= 2 - lg->ndims ? lg->dims[i - (2 - lg->ndims)] : 1;
    lbd[i] = i >= 2 - lb->ndims ? lb->dims[i - (2 - lb->ndims)] : 1;
    od[i] = lgd[i] == 1 ? lbd[i] : lgd[i];
  }
  xent_task t = {0};
  t.c = od[1];
  xent_compute(ctx, &t, od[0], lgd, lbd);
}

static void sparse_xent_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 2) || !mt_shape_with_rank(ctx, 1, 1)) return;
  int64_t batch = ctx->in[0].rank == 2 ? ctx->in[0].dims[0] : -1;
  const int64_t c = ctx->in[0].rank == 2 ? ctx->in[0].dims[1] : -1;
  if (ctx->in[1].rank == 1 && !mt_merge_dim(ctx, batch, ctx->in[1].dims[0], &batch)) return;
  const int64_t d[2] = {batch, c};
  ctx->out[0] = mt_shape_make(d, 1);
  ctx->out[1] = mt_shape_make(d, 2);
}

static void sparse_xent_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* lg = ctx->inputs[0];
  const TF_Tensor* lb = ctx->inputs[1];
  char a[256], b[256];
  if (!xent_check_type(ctx)) return;
  if (lg->ndims != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "logits must be 2-D, but got shape %s",
                   mt_dims_str(lg->dims, lg->ndims, a, sizeof a));
    return;
  }
  if (lb->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "labels must be 1-D, but got shape %s",
                   mt_dims_str(lb->dims, lb->ndims, b, sizeof b));
    return;
  }
  if (lg->dims[0] != lb->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "logits and labels must have the same first dimension, got logits shape %s "
                   "and labels shape %s",
                   mt_dims_str(lg->dims, lg->ndims, a, sizeof a),
                   mt_dims_str(lb->dims, lb->ndims, b, sizeof b));
    return;
  }
  const int64_t batch = lg->dims[0], c = lg->dims[1];
  if (c == 0 && batch > 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Must have at least one class, but got logits shape %s",
                   mt_dims_str(lg->dims, lg->ndims, a, sizeof a));
    return;
  }
  const int is64 = lb->dtype == TF_INT64;
  const void* labels = mt_tensor_data(lb);
  for (int64_t r = 0; r < batch; r++) {
    const int64_t v = is64 ? ((const int64_t*)labels)[r] : ((const int32_t*)labels)[r];
    if (v < 0 || v >= c) {
      /* TensorFlow's message lists all label values after it. */
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Received a label value of %lld which is outside the valid range of "
                     "[0, %lld).  Label values:",
                     (long long)v, (long long)c);
      for (int64_t i = 0; i < batch && i < 1000; i++)
        mt_status_append(ctx->status, " %lld",
                         (long long)(is64 ? ((const int64_t*)labels)[i]
                                          : ((const int32_t*)labels)[i]));
      return;
    }
  }
  xent_task t = {0};
  t.sparse = labels;
  t.sparse64 = is64;
  t.c = c;
  xent_compute(ctx, &t, batch, lg->dims, NULL);
}

/* ---- TopKV2 ---- */

static void topk_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank_at_least(ctx, 0, 1)) return;
  /* k as TensorFlow's MakeDimForScalarInput reads it. */
  if (ctx->in[1].rank > 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input must be scalar but has rank %d",
                   ctx->in[1].rank);
    return;
  }
  int64_t k = -1;
  if (mt_shape_input_as_ints(ctx, 1, &k, 1) != 1) {
    k = -1;
  } else if (k < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Dimension size, given by scalar input 1, must be non-negative but is %lld",
                   (long long)k);
    return;
  }
  mt_shape out = ctx->in[0];
  if (out.rank > 0) {
    const int64_t last = out.dims[out.rank - 1];
    if (last >= 0 && k >= 0 && last < k) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "input must have last dimension >= k = %lld but is %lld", (long long)k,
                     (long long)last);
      return;
    }
    out.dims[out.rank - 1] = k;
  }
  ctx->out[0] = ctx->out[1] = out;
}

/* Rows ordered by (value descending, index ascending), as TensorFlow's
 * kernel orders them; values compare as the key type (float for
 * half/bfloat16). For k up to TOPK_SELECT_MAX (the common case) a row is
 * scanned once into a sorted buffer of its k best (TensorFlow uses a
 * bounded heap likewise): O(cols * k) at worst, O(cols) typically, instead
 * of sorting the whole row; larger k sorts the row's indices. */
#define TOPK_SELECT_MAX 64
typedef struct topk_task {
  const void* x;
  void* vals;
  void* idx;
  TF_DataType it;
  int64_t cols, k;
  atomic_int oom;
} topk_task;

static void topk_store_idx(const topk_task* t, int64_t at, int32_t i) {
  if (t->it == TF_INT16) ((int16_t*)t->idx)[at] = (int16_t)i;
  else if (t->it == TF_INT64) ((int64_t*)t->idx)[at] = i;
  else ((int32_t*)t->idx)[at] = i;
}

#define TOPK_FN_(NAME, CT, KEY)                                                            \
  static int NAME##_cmp(const void* a, const void* b, void* arg) {                        \
    const CT* v = arg;                                                                    \
    const int32_t i = *(const int32_t*)a, j = *(const int32_t*)b;                         \
    const __typeof__(KEY(v[0])) x = KEY(v[i]), y = KEY(v[j]);                             \
    if (x > y) return -1;                                                                 \
    if (x < y) return 1;                                                                  \
    return (i > j) - (i < j);                                                             \
  }                                                                                       \
  /* The k best of row into best[0..k), sorted; j > every index already held,          \
   * so it enters only when strictly greater than the current k-th. */                 \
  static void NAME##_select(const CT* row, int64_t cols, int64_t k, int32_t* best) {      \
    int64_t n = 0;                                                                        \
    for (int64_t j = 0; j < cols; j++) {                                                  \
      const __typeof__(KEY(row[0])) v = KEY(row[j]);                                      \
      if (n == k && !(v > KEY(row[best[k - 1]]))) continue;                               \
      int64_t p = n < k ? n++ : k - 1;                                                    \
      while (p > 0 && v > KEY(row[best[p - 1]])) {                                        \
        best[p] = best[p - 1];                                                            \
        p--;                                                                              \
      }                                                                                   \
      best[p] = (int32_t)j;                                                               \
    }                                                                                     \
  }                                                                                       \
  static void NAME(int64_t b, int64_t e, void* arg) {                                     \
    topk_task* t = arg;                                                                   \
    const CT* x = t->x;                                                                   \
    CT* vals = t->vals;                                                                   \
    const int64_t cols = t->cols, k = t->k;                                               \
    int32_t small[TOPK_SELECT_MAX];                                                       \
    int32_t* idx = small;                                                                 \
    if (k > TOPK_SELECT_MAX && !(idx = malloc((size_t)cols * sizeof(int32_t)))) {          \
      atomic_store(&t->oom, 1);                                                           \
      return;                                                                             \
    }                                                                                     \
    for (int64_t r = b; r < e; r++) {                                                     \
      const CT* row = x + r * cols;                                                       \
      if (k <= TOPK_SELECT_MAX) {                                                         \
        NAME##_select(row, cols, k, idx);                                                 \
      } else {                                                                            \
        for (int64_t j = 0; j < cols; j++) idx[j] = (int32_t)j;                           \
        qsort_r(idx, (size_t)cols, sizeof(int32_t), NAME##_cmp, (void*)row);              \
      }                                                                                   \
      for (int64_t j = 0; j < k; j++) {                                                   \
        vals[r * k + j] = row[idx[j]];                                                    \
        topk_store_idx(t, r * k + j, idx[j]);                                             \
      }                                                                                   \
    }                                                                                     \
    if (idx != small) free(idx);                                                          \
  }
#define TOPK_PLAIN_(DT, CT, unused) TOPK_FN_(topk_##CT, CT, )
MT_REAL_TYPES(TOPK_PLAIN_, 0)
TOPK_FN_(topk_half, mt_half, mt_half_to_float)
TOPK_FN_(topk_bf16, mt_bfloat16, mt_bfloat16_to_float)
typedef void (*topk_fn)(int64_t b, int64_t e, void* arg);
static const topk_fn topk_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(topk, MT_REAL_TYPES)[TF_HALF] = topk_half, [TF_BFLOAT16] = topk_bf16};

static void topk_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_Tensor* kt = ctx->inputs[1];
  char buf[256];
  if (kt->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "k must be scalar, got shape %s",
                   mt_dims_str(kt->dims, kt->ndims, buf, sizeof buf));
    return;
  }
  int64_t k = 0;
  mt_tensor_ints(kt, &k, 1);
  if (k < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Need k >= 0, got %lld", (long long)k);
    return;
  }
  if (x->ndims < 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "input must be >= 1-D, got shape %s",
                   mt_dims_str(x->dims, x->ndims, buf, sizeof buf));
    return;
  }
  const int64_t cols = x->dims[x->ndims - 1];
  if (cols < k) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "input must have at least k columns. Had %lld, needed %lld",
                   (long long)cols, (long long)k);
    return;
  }
  if (cols > INT32_MAX) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "First dimension of flattened input must be <= INT_MAX, got %lld",
                   (long long)cols);
    return;
  }
  topk_fn fn = (unsigned)x->dtype < MT_NUM_DTYPES ? topk_fns[x->dtype] : NULL;
  if (!fn) {
    mt_kernel_unsupported(ctx, "T", x->dtype);
    return;
  }
  const TF_DataType it = mt_op_attr_type(ctx->op, "index_type", TF_INT32);
  int64_t od[MT_MAX_DIMS];
  memcpy(od, x->dims, sizeof(int64_t) * (size_t)x->ndims);
  od[x->ndims - 1] = k;
  TF_Tensor* vals = mt_ctx_alloc(ctx, 0, x->dtype, od, x->ndims);
  TF_Tensor* idx = vals ? mt_ctx_alloc(ctx, 1, it, od, x->ndims) : NULL;
  const int64_t n = mt_tensor_nelems(x);
  if (!idx || k == 0 || n == 0) return;
  topk_task t = {mt_tensor_data(x), mt_tensor_data(vals), mt_tensor_data(idx), it, cols, k, 0};
  const int64_t cost = k <= TOPK_SELECT_MAX ? 2 * cols : cols * 16;
  mt_parallel_for(ctx, n / cols, cost, fn, &t);
  if (atomic_load(&t.oom))
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM allocating the top_k row index");
}

/* ---- InTopKV2 ---- */

static void in_topk_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 2) || !mt_shape_with_rank(ctx, 1, 1) ||
      !mt_shape_with_rank(ctx, 2, 0))
    return;
  int64_t batch = ctx->in[0].rank == 2 ? ctx->in[0].dims[0] : -1;
  if (ctx->in[1].rank == 1 && !mt_merge_dim(ctx, batch, ctx->in[1].dims[0], &batch)) return;
  ctx->out[0] = mt_shape_make(&batch, 1);
}

/* TensorFlow's rule: a target out of range, or any non-finite prediction in
 * the row, gives false; else true when fewer than k classes score higher. */
static void in_topk_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* p = ctx->inputs[0];
  const TF_Tensor* tg = ctx->inputs[1];
  const TF_Tensor* kt = ctx->inputs[2];
  char a[256], b[256];
  if (p->ndims != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "predictions must be 2-dimensional");
    return;
  }
  if (tg->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "targets must be 1-dimensional");
    return;
  }
  if (p->dims[0] != tg->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "First dimension of predictions %lld must match length of targets %lld",
                   (long long)p->dims[0], (long long)tg->dims[0]);
    return;
  }
  if (kt->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "k must be 0 D, got shape %s",
                   mt_dims_str(kt->dims, kt->ndims, a, sizeof a));
    return;
  }
  (void)b;
  int64_t k = 0;
  mt_tensor_ints(kt, &k, 1);
  const int64_t batch = p->dims[0], classes = p->dims[1];
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_BOOL, &batch, 1);
  if (!out) return;
  const float* pr = mt_tensor_data(p);
  bool* o = mt_tensor_data(out);
  for (int64_t r = 0; r < batch; r++) {
    const int64_t t = tg->dtype == TF_INT64 ? ((const int64_t*)mt_tensor_data(tg))[r]
                              : ((const int32_t*)mt_tensor_data(tg))[r];
    o[r] = false;
    if (t < 0 || t >= classes) continue;
    const float* row = pr + r * classes;
    const float tp = row[t];
    if (!isfinite(tp)) continue;
    int64_t more = 0;
    int bad = 0;
    for (int64_t j = 0; j < classes; j++) {
      if (!isfinite(row[j])) {
        bad = 1;
        break;
      }
      if (row[j] > tp && ++more > k) break;
    }
    o[r] = !bad && more < k;
  }
}

static const mt_op_spec nn_specs[] = {
    {.name = "BiasAdd", .inputs = "value: T, bias: T", .outputs = "output: T",
     .attrs = "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8,"
              " qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64};"
              " data_format: {'NHWC', 'NCHW'} = 'NHWC'",
     .shape = bias_add_shape, .kernel = bias_add_kernel},
    {.name = "Relu", .inputs = "features: T", .outputs = "activations: T",
     .attrs = "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half,"
              " uint32, uint64, qint8}",
     .shape = mt_unchanged_shape, .kernel = relu_kernel},
    {.name = "Relu6", .inputs = "features: T", .outputs = "activations: T",
     .attrs = "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half,"
              " uint32, uint64}",
     .shape = mt_unchanged_shape, .kernel = relu6_kernel},
    {.name = "Elu", .inputs = "features: T", .outputs = "activations: T",
     .attrs = "T: {half, bfloat16, float, double}",
     .shape = mt_unchanged_shape, .kernel = elu_kernel},
    {.name = "Selu", .inputs = "features: T", .outputs = "activations: T",
     .attrs = "T: {half, bfloat16, float, double}",
     .shape = mt_unchanged_shape, .kernel = selu_kernel},
    {.name = "LeakyRelu", .inputs = "features: T", .outputs = "activations: T",
     .attrs = "alpha: float = 0.2; T: {half, bfloat16, float, double} = DT_FLOAT",
     .shape = mt_unchanged_shape, .kernel = leaky_relu_kernel},
    {.name = "Softplus", .inputs = "features: T", .outputs = "activations: T",
     .attrs = "T: {half, bfloat16, float, double}",
     .shape = mt_unchanged_shape, .kernel = softplus_kernel},
    {.name = "Softsign", .inputs = "features: T", .outputs = "activations: T",
     .attrs = "T: {half, bfloat16, float, double}",
     .shape = mt_unchanged_shape, .kernel = softsign_kernel},
    {.name = "Softmax", .inputs = "logits: T", .outputs = "softmax: T",
     .attrs = "T: {half, bfloat16, float, double}",
     .shape = softmax_shape, .kernel = softmax_kernel},
    {.name = "LogSoftmax", .inputs = "logits: T", .outputs = "logsoftmax: T",
     .attrs = "T: {half, bfloat16, float, double}",
     .shape = softmax_shape, .kernel = log_softmax_kernel},
    {.name = "FusedBatchNorm",
     .inputs = "x: T, scale: T, offset: T, mean: T, variance: T",
     .outputs = "y: T, batch_mean: T, batch_variance: T, reserve_space_1: T,"
                " reserve_space_2: T",
     .attrs = "T: {float}; epsilon: float = 0.0001; exponential_avg_factor: float = 1;"
              " data_format: {'NHWC', 'NCHW'} = 'NHWC'; is_training: bool = true",
     .shape = fused_batch_norm_shape, .kernel = fused_batch_norm_kernel},
    {.name = "FusedBatchNormV2",
     .inputs = "x: T, scale: U, offset: U, mean: U, variance: U",
     .outputs = "y: T, batch_mean: U, batch_variance: U, reserve_space_1: U,"
                " reserve_space_2: U",
     .attrs = "T: {half, bfloat16, float}; U: {float}; epsilon: float = 0.0001;"
              " exponential_avg_factor: float = 1; data_format: {'NHWC', 'NCHW'} = 'NHWC';"
              " is_training: bool = true",
     .shape = fused_batch_norm_shape, .kernel = fused_batch_norm_kernel},
    {.name = "FusedBatchNormV3",
     .inputs = "x: T, scale: U, offset: U, mean: U, variance: U",
     .outputs = "y: T, batch_mean: U, batch_variance: U, reserve_space_1: U,"
                " reserve_space_2: U, reserve_space_3: U",
     .attrs = "T: {half, bfloat16, float}; U: {bfloat16, float}; epsilon: float = 0.0001;"
              " exponential_avg_factor: float = 1;"
              " data_format: {'NHWC', 'NCHW', 'NDHWC', 'NCDHW'} = 'NHWC';"
              " is_training: bool = true",
     .shape = fused_batch_norm_shape, .kernel = fused_batch_norm_kernel},
    {.name = "LRN", .inputs = "input: T", .outputs = "output: T",
     .attrs = "depth_radius: int = 5; bias: float = 1; alpha: float = 1; beta: float = 0.5;"
              " T: {half, bfloat16, float} = DT_FLOAT",
     .shape = lrn_shape, .kernel = lrn_kernel},
    {.name = "SoftmaxCrossEntropyWithLogits", .inputs = "features: T, labels: T",
     .outputs = "loss: T, backprop: T", .attrs = "T: {half, bfloat16, float, double}",
     .shape = xent_shape, .kernel = xent_kernel},
    {.name = "SparseSoftmaxCrossEntropyWithLogits", .inputs = "features: T, labels: Tlabels",
     .outputs = "loss: T, backprop: T",
     .attrs = "T: {half, bfloat16, float, double}; Tlabels: {int32, int64} = DT_INT64",
     .shape = sparse_xent_shape, .kernel = sparse_xent_kernel},
    {.name = "TopKV2", .inputs = "input: T, k: Tk", .outputs = "values: T, indices: index_type",
     .attrs = "sorted: bool = true; T: {float, double, int32, uint8, int16, int8, int64,"
              " bfloat16, uint16, half, uint32, uint64}; Tk: {int16, int32, int64} = DT_INT32;"
              " index_type: {int16, int32, int64} = DT_INT32",
     .shape = topk_shape, .kernel = topk_kernel},
    {.name = "InTopKV2", .inputs = "predictions: float, targets: T, k: T",
     .outputs = "precision: bool", .attrs = "T: {int32, int64} = DT_INT32",
     .shape = in_topk_shape, .kernel = in_topk_kernel},
    {.name = "L2Loss", .inputs = "t: T", .outputs = "output: T",
     .attrs = "T: {half, bfloat16, float, double}",
     .shape = l2loss_shape, .kernel = l2loss_kernel},
};

void mt_register_nn_ops(void) {
  mt_register_ops(nn_specs, (int)(sizeof nn_specs / sizeof nn_specs[0]));
}
