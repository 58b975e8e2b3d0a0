/* Pooling: MaxPool, AvgPool, MaxPoolV2 and their backward ops (MaxPoolGrad,
 * MaxPoolGradV2, AvgPoolGrad, MaxPoolGradGrad, MaxPoolGradGradV2). Signatures, shape functions and
 * CPU dtypes are TensorFlow's (nn_ops.cc, common_shape_fns.cc,
 * maxpooling_op.cc, avgpooling_op.cc, pooling_ops_common.cc).
 *
 * Kernels are direct NHWC loops over channels (vectorizable), split over
 * (image, output row) with mt_parallel_for; NCHW is transposed. half and
 * bfloat16 are computed in float. As TensorFlow's CPU kernels, MaxPool
 * starts from the type's lowest finite value and ignores NaN; AvgPool
 * divides by the number of window elements inside the input (SAME). */
#include <float.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/window_util.h"

/* Vectorize the channel loops: -O2's "very cheap" cost model skips loops whose
 * trip count is not known to be a multiple of the vector width. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

typedef struct pool_geom {
  int nchw;
  int64_t n, ih, iw, c;
  int64_t kh, kw, sh, sw;
  int64_t oh, ow, pt, pl;
} pool_geom;

/* ---- attrs / shape functions ---- */

/* ksize and strides of an op (attrs, or MaxPoolV2's constant inputs in
 * `k`/`s`): returns 0 with status on a bad length. */
static int pool_lists(const char* what, int nk, int ns, TF_Status* st) {
  if (ns != 4) {
    mt_status_setf(st, TF_INVALID_ARGUMENT,
                   "%s requires the stride attribute to contain 4 values, but got: %d", what, ns);
    return 0;
  }
  if (nk != 4) {
    mt_status_setf(st, TF_INVALID_ARGUMENT,
                   "%s requires the ksize attribute to contain 4 values, but got: %d", what, nk);
    return 0;
  }
  return 1;
}

/* Output shape from static input dims and 4-value ksize/strides. Max
 * pooling windows the depth dim too (as TensorFlow's MaxPoolShape). */
static void pool_shape_from(mt_shape_ctx* ctx, const int64_t* k, const int64_t* s, int depth) {
  const int nchw = mt_is_nchw(ctx->op);
  const int mode = mt_padding_mode(ctx->op);
  const int h = nchw ? 2 : 1, w = nchw ? 3 : 2, cd = nchw ? 1 : 3;
  if (!mt_check_explicit_paddings(ctx->op, mode, h, w, ctx->status)) return;
  int np;
  const int64_t* p = mt_attr_ints(ctx->op, "explicit_paddings", &np);
  const mt_shape* in = &ctx->in[0];
  mt_shape out;
  out.rank = 4;
  for (int d = 0; d < 4; d++) out.dims[d] = in->rank == 4 ? in->dims[d] : -1;
  const int dims[3] = {h, w, cd};
  for (int i = 0; i < (depth ? 3 : 2); i++) {
    const int d = dims[i];
    const int64_t lo = np == 8 ? p[2 * d] : 0, hi = np == 8 ? p[2 * d + 1] : 0;
    if (!mt_windowed_size(out.dims[d], k[d], 1, s[d], mode, lo, hi, 1, &out.dims[d], NULL,
                          ctx->status))
      return;
  }
  ctx->out[0] = out;
}

static void max_pool_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 4)) return;
  int nk, ns;
  const int64_t* k = mt_attr_ints(ctx->op, "ksize", &nk);
  const int64_t* s = mt_attr_ints(ctx->op, "strides", &ns);
  if (pool_lists("MaxPool", nk, ns, ctx->status)) pool_shape_from(ctx, k, s, 1);
}

static void avg_pool_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 4)) return;
  int nk, ns;
  const int64_t* k = mt_attr_ints(ctx->op, "ksize", &nk);
  const int64_t* s = mt_attr_ints(ctx->op, "strides", &ns);
  if (pool_lists("AvgPool", nk, ns, ctx->status)) pool_shape_from(ctx, k, s, 0);
}

/* MaxPoolV2-style shape: ksize and strides are inputs kidx and kidx + 1
 * (TensorFlow's MaxPoolV2Shape). */
static void max_pool_v2_shape_at(mt_shape_ctx* ctx, int kidx) {
  if (!mt_shape_with_rank(ctx, 0, 4) || !mt_shape_with_rank(ctx, kidx, 1) ||
      !mt_shape_with_rank(ctx, kidx + 1, 1))
    return;
  for (int i = kidx; i <= kidx + 1; i++) {
    const int64_t d = ctx->in[i].rank == 1 ? ctx->in[i].dims[0] : -1;
    if (d >= 0 && d != 4) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension must be 4 but is %lld",
                     (long long)d);
      return;
    }
  }
  int64_t k[4], s[4];
  if (mt_shape_input_as_ints(ctx, kidx, k, 4) != 4 ||
      mt_shape_input_as_ints(ctx, kidx + 1, s, 4) != 4) {
    ctx->out[0].rank = 4;
    for (int d = 0; d < 4; d++) ctx->out[0].dims[d] = -1;
    return;
  }
  pool_shape_from(ctx, k, s, 1);
}

static void max_pool_v2_shape(mt_shape_ctx* ctx) { max_pool_v2_shape_at(ctx, 1); }

/* ---- kernels ---- */

/* Run-time checks (TensorFlow's PoolParameters wording) and geometry of a
 * window over an input of dims xd (xnd of them). */
static int pool_setup_dims(mt_kernel_ctx* ctx, const int64_t* xd, int xnd, const int64_t* k,
                           int nk, const int64_t* s, int ns, pool_geom* g) {
  char b[256];
  if (nk != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Sliding window ksize field must specify 4 dimensions");
    return 0;
  }
  if (ns != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Sliding window stride field must specify 4 dimensions");
    return 0;
  }
  for (int i = 0; i < 4; i++)
    if (k[i] <= 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Sliding window ksize must be positive. The specified or inferred ksize "
                     "is: %lld,%lld,%lld,%lld",
                     (long long)k[0], (long long)k[1], (long long)k[2], (long long)k[3]);
      return 0;
    }
  if (strcmp(mt_op_attr_str(ctx->op, "data_format", "NHWC"), "NCHW_VECT_C") == 0) {
    mt_status_setf(ctx->status, TF_UNIMPLEMENTED,
                   "data_format NCHW_VECT_C (quantized int8 pooling) is not supported by minitf");
    return 0;
  }
  const int nchw = mt_is_nchw(ctx->op);
  const int h = nchw ? 2 : 1, w = nchw ? 3 : 2, cd = nchw ? 1 : 3;
  if (k[0] != 1 || s[0] != 1) {
    mt_status_setf(ctx->status, TF_UNIMPLEMENTED,
                   "Pooling is not yet supported on the batch dimension.");
    return 0;
  }
  if (k[cd] != 1 || s[cd] != 1) {
    if (k[h] != 1 || k[w] != 1)
      mt_status_setf(ctx->status, TF_UNIMPLEMENTED,
                     "MaxPooling supports exactly one of pooling across depth or pooling across "
                     "width/height.");
    else
      mt_status_setf(ctx->status, TF_UNIMPLEMENTED,
                     "Pooling across depth is not supported by minitf");
    return 0;
  }
  if (xnd != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "input must be 4-dimensional %s",
                   mt_dims_str(xd, xnd, b, sizeof b));
    return 0;
  }
  const int mode = mt_padding_mode(ctx->op);
  if (!mt_check_explicit_paddings(ctx->op, mode, h, w, ctx->status)) return 0;
  int np;
  const int64_t* p = mt_attr_ints(ctx->op, "explicit_paddings", &np);
  g->nchw = nchw;
  g->n = xd[0];
  g->ih = xd[h];
  g->iw = xd[w];
  g->c = xd[cd];
  g->kh = k[h], g->kw = k[w], g->sh = s[h], g->sw = s[w];
  return mt_windowed_size(g->ih, g->kh, 1, g->sh, mode, np == 8 ? p[2 * h] : 0,
                          np == 8 ? p[2 * h + 1] : 0, 0, &g->oh, &g->pt, ctx->status) &&
         mt_windowed_size(g->iw, g->kw, 1, g->sw, mode, np == 8 ? p[2 * w] : 0,
                          np == 8 ? p[2 * w + 1] : 0, 0, &g->ow, &g->pl, ctx->status);
}

/* pool_setup_dims over the op's input 0. */
static int pool_setup(mt_kernel_ctx* ctx, const int64_t* k, int nk, const int64_t* s, int ns,
                      pool_geom* g) {
  const TF_Tensor* x = ctx->inputs[0];
  return pool_setup_dims(ctx, x->dims, x->ndims, k, nk, s, ns, g);
}

typedef struct pool_task {
  const pool_geom* g;
  const void* x;
  void* y;
  double init; /* MaxPool's start value in the work type */
} pool_task;

/* Window bounds clipped to the input. */
#define POOL_WINDOW_                                                      \
  const int64_t y0 = oy * g->sh - g->pt, x0 = ox * g->sw - g->pl;         \
  const int64_t ya = y0 < 0 ? 0 : y0, xa = x0 < 0 ? 0 : x0;               \
  const int64_t yb = y0 + g->kh < g->ih ? y0 + g->kh : g->ih;             \
  const int64_t xb = x0 + g->kw < g->iw ? x0 + g->kw : g->iw;

#define MAXPOOL_ROWS_(DT, CT, unused)                                                \
  static void maxpool_##CT(int64_t b, int64_t e, void* arg) {                       \
    const pool_task* t = arg;                                                       \
    const pool_geom* g = t->g;                                                      \
    const CT* x = t->x;                                                             \
    const int64_t c = g->c;                                                         \
    const CT init = (CT)t->init;                                                    \
    for (int64_t row = b; row < e; row++) {                                         \
      const int64_t img = row / g->oh, oy = row % g->oh;                            \
      CT* yr = (CT*)t->y + row * g->ow * c;                                         \
      for (int64_t ox = 0; ox < g->ow; ox++) {                                      \
        POOL_WINDOW_                                                                \
        CT* out = yr + ox * c;                                                      \
        for (int64_t j = 0; j < c; j++) out[j] = init;                              \
        for (int64_t iy = ya; iy < yb; iy++)                                        \
          for (int64_t ix = xa; ix < xb; ix++) {                                    \
            const CT* in = x + ((img * g->ih + iy) * g->iw + ix) * c;               \
            for (int64_t j = 0; j < c; j++) out[j] = in[j] > out[j] ? in[j] : out[j]; \
          }                                                                         \
      }                                                                             \
    }                                                                               \
  }
MT_REAL_TYPES(MAXPOOL_ROWS_, 0)
static void (*const maxpool_fns[MT_NUM_DTYPES])(int64_t, int64_t, void*) = {
    MT_ENTRIES(maxpool, MT_REAL_TYPES)};

#define AVGPOOL_ROWS_(CT)                                                            \
  static void avgpool_##CT(int64_t b, int64_t e, void* arg) {                       \
    const pool_task* t = arg;                                                       \
    const pool_geom* g = t->g;                                                      \
    const CT* x = t->x;                                                             \
    const int64_t c = g->c;                                                         \
    for (int64_t row = b; row < e; row++) {                                         \
      const int64_t img = row / g->oh, oy = row % g->oh;                            \
      CT* yr = (CT*)t->y + row * g->ow * c;                                         \
      for (int64_t ox = 0; ox < g->ow; ox++) {                                      \
        POOL_WINDOW_                                                                \
        CT* out = yr + ox * c;                                                      \
        for (int64_t j = 0; j < c; j++) out[j] = 0;                                 \
        for (int64_t iy = ya; iy < yb; iy++)                                        \
          for (int64_t ix = xa; ix < xb; ix++) {                                    \
            const CT* in = x + ((img * g->ih + iy) * g->iw + ix) * c;               \
            for (int64_t j = 0; j < c; j++) out[j] += in[j];                        \
          }                                                                         \
        const int64_t count = (yb - ya) * (xb - xa);                                \
        const CT inv = count > 0 ? (CT)1 / (CT)count : (CT)0;                       \
        for (int64_t j = 0; j < c; j++) out[j] *= inv;                              \
      }                                                                             \
    }                                                                               \
  }
AVGPOOL_ROWS_(float)
AVGPOOL_ROWS_(double)

/* Lowest finite value of a dtype (MaxPool's start), in double. */
static double lowest(TF_DataType dt) {
  switch (dt) {
    case TF_FLOAT: return -FLT_MAX;
    case TF_DOUBLE: return -DBL_MAX;
    case TF_HALF: return -65504.0;
    case TF_BFLOAT16: return -3.3895313892515355e38;
    case TF_INT8: return INT8_MIN;
    case TF_INT16: return INT16_MIN;
    case TF_INT32: return INT32_MIN;
    case TF_INT64: return (double)INT64_MIN;
    default: return 0; /* unsigned */
  }
}

/* Runs `fn` over (image, output row) in NHWC, with half/NCHW conversion. */
static void pool_run(mt_kernel_ctx* ctx, pool_geom* g, void (*fn)(int64_t, int64_t, void*)) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_DataType dt = x->dtype;
  const int half = mt_is_half_type(dt);
  const size_t es = half ? sizeof(float) : TF_DataTypeSize(dt);
  const mt_shape os = g->nchw ? mt_shape_make((int64_t[]){g->n, g->c, g->oh, g->ow}, 4)
                              : mt_shape_make((int64_t[]){g->n, g->oh, g->ow, g->c}, 4);
  TF_Tensor* y = mt_ctx_alloc(ctx, 0, dt, os.dims, 4);
  if (!y || mt_tensor_nelems(y) == 0) return;
  const int64_t nin = mt_tensor_nelems(x), nout = mt_tensor_nelems(y);
  const void* xw = mt_tensor_data(x);
  void* yw = mt_tensor_data(y);
  void *xbuf = NULL, *ybuf = NULL, *tmp = NULL;
  if (half || g->nchw) {
    xbuf = mt_scratch((size_t)nin * es, ctx->status);
    ybuf = xbuf ? mt_scratch((size_t)nout * es, ctx->status) : NULL;
    tmp = ybuf && half && g->nchw
              ? mt_scratch((size_t)(nin > nout ? nin : nout) * es, ctx->status)
              : NULL;
    if (!ybuf || (half && g->nchw && !tmp)) goto done;
    const void* src = xw;
    if (half) {
      mt_to_float(dt, xw, g->nchw ? tmp : xbuf, nin);
      src = g->nchw ? tmp : xbuf;
    }
    if (g->nchw) mt_transpose_last2(src, xbuf, g->n, g->c, g->ih * g->iw, es);
    xw = xbuf;
    yw = ybuf;
  }
  pool_task t = {g, xw, yw, lowest(dt)};
  mt_parallel_for(ctx, g->n * g->oh, g->ow * g->kh * g->kw * g->c, fn, &t);
  if (yw != mt_tensor_data(y)) {
    void* dst = half ? (g->nchw ? tmp : ybuf) : mt_tensor_data(y);
    if (g->nchw) mt_transpose_last2(ybuf, dst, g->n, g->oh * g->ow, g->c, es);
    if (half) mt_from_float(dt, dst, mt_tensor_data(y), nout);
  }
done:
  free(xbuf);
  free(ybuf);
  free(tmp);
}

static void max_pool_common(mt_kernel_ctx* ctx, const int64_t* k, int nk, const int64_t* s,
                            int ns) {
  const TF_DataType dt = ctx->inputs[0]->dtype;
  const TF_DataType wt = mt_is_half_type(dt) ? TF_FLOAT : dt;
  void (*fn)(int64_t, int64_t, void*) = (unsigned)wt < MT_NUM_DTYPES ? maxpool_fns[wt] : NULL;
  if (!fn) {
    mt_kernel_unsupported(ctx, "T", dt);
    return;
  }
  pool_geom g;
  if (pool_setup(ctx, k, nk, s, ns, &g)) pool_run(ctx, &g, fn);
}

static void max_pool_kernel(mt_kernel_ctx* ctx) {
  int nk, ns;
  const int64_t* k = mt_attr_ints(ctx->op, "ksize", &nk);
  const int64_t* s = mt_attr_ints(ctx->op, "strides", &ns);
  max_pool_common(ctx, k, nk, s, ns);
}

static void max_pool_v2_kernel(mt_kernel_ctx* ctx) {
  if (mt_is_nchw(ctx->op)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "MaxPoolingV2Op only supports NHWC or NCHW_VECT_C. Got: NCHW");
    return;
  }
  int64_t k[4], s[4];
  const TF_Tensor* kt = ctx->inputs[1];
  const TF_Tensor* st = ctx->inputs[2];
  const int nk = kt->ndims == 1 ? (int)kt->dims[0] : -1;
  const int ns = st->ndims == 1 ? (int)st->dims[0] : -1;
  if (nk == 4) mt_tensor_ints(kt, k, 4);
  if (ns == 4) mt_tensor_ints(st, s, 4);
  max_pool_common(ctx, k, nk, s, ns);
}

static void avg_pool_kernel(mt_kernel_ctx* ctx) {
  const TF_DataType dt = ctx->inputs[0]->dtype;
  if (dt != TF_FLOAT && dt != TF_DOUBLE && !mt_is_half_type(dt)) {
    mt_kernel_unsupported(ctx, "T", dt);
    return;
  }
  int nk, ns;
  const int64_t* k = mt_attr_ints(ctx->op, "ksize", &nk);
  const int64_t* s = mt_attr_ints(ctx->op, "strides", &ns);
  pool_geom g;
  if (pool_setup(ctx, k, nk, s, ns, &g))
    pool_run(ctx, &g, dt == TF_DOUBLE ? avgpool_double : avgpool_float);
}

/* ---- backward kernels: MaxPoolGrad(V2), MaxPoolGradGrad(V2), AvgPoolGrad ----
 *
 * All compute in NHWC on the work type (window_util.h), NCHW transposed in
 * and out. */

/* Channels per task of the MaxPoolGrad scatter: an image's gradient is
 * written by one task per channel block (windows of neighbouring outputs
 * overlap), so a batch of one still splits over the threads. */
#define POOL_CB 64

typedef struct pool_bwd_task {
  const pool_geom* g;
  const void* x;  /* orig_input */
  const void* y;  /* orig_output (MaxPoolGradGrad) */
  const void* dy; /* the incoming gradient */
  void* out;
  const int64_t* rows_in; /* AvgPoolGrad: window rows / cols inside the input, */
  const int64_t* cols_in; /* per output row / col */
  int64_t ncb;            /* MaxPoolGrad: channel blocks per image */
  atomic_int oom;
  double init;            /* MaxPoolGrad: the forward's start value */
} pool_bwd_task;

/* Tasks (image, channel block). The gradient of an output goes to the
 * window position that held its maximum under oneDNN's rule, which
 * TensorFlow's CPU MaxPool/MaxPoolGrad pair runs on: the first position
 * whose value beats the running maximum, starting from the type's lowest
 * value at the window's first position. A window with no such value (all
 * NaN or -inf) thus sends its gradient to its first position, and drops it
 * when that position lies in the padding. The scan keeps the winning
 * window position per channel (branch-free selects: vectorized); `off`
 * maps window positions to input offsets (-1 in the padding). */
#define MAXPOOL_GRAD_(DT, CT, unused)                                                   \
  MT_SIMD_CLONES static void maxpool_grad_##CT(int64_t b, int64_t e, void* arg) {       \
    typedef mt_wide_##CT W;                                                             \
    const pool_bwd_task* t = arg;                                                       \
    const pool_geom* g = t->g;                                                          \
    const int64_t c = g->c, plane = g->ih * g->iw, kwin = g->kh * g->kw;                \
    int32_t at[POOL_CB];                                                                \
    CT best[POOL_CB];                                                                   \
    int64_t* off = malloc((size_t)kwin * sizeof(int64_t));                              \
    if (!off) {                                                                         \
      atomic_store(&((pool_bwd_task*)arg)->oom, 1);                                     \
      return;                                                                           \
    }                                                                                   \
    for (int64_t task = b; task < e; task++) {                                          \
      const int64_t img = task / t->ncb, c0 = task % t->ncb * POOL_CB;                  \
      const int64_t cn = c - c0 < POOL_CB ? c - c0 : POOL_CB;                           \
      const CT* xi = (const CT*)t->x + img * plane * c + c0;                            \
      CT* oi = (CT*)t->out + img * plane * c + c0;                                      \
      for (int64_t p = 0; p < plane; p++)                                               \
        for (int64_t j = 0; j < cn; j++) oi[p * c + j] = 0;                             \
      for (int64_t oy = 0; oy < g->oh; oy++)                                            \
        for (int64_t ox = 0; ox < g->ow; ox++) {                                        \
          POOL_WINDOW_                                                                  \
          for (int64_t ky = 0; ky < g->kh; ky++)                                        \
            for (int64_t kx = 0; kx < g->kw; kx++) {                                    \
              const int64_t iy = y0 + ky, ix = x0 + kx;                                 \
              off[ky * g->kw + kx] =                                                    \
                  iy >= 0 && ix >= 0 && iy < g->ih && ix < g->iw ? (iy * g->iw + ix) * c : -1; \
            }                                                                           \
          for (int64_t j = 0; j < cn; j++) best[j] = (CT)t->init, at[j] = 0;            \
          for (int64_t iy = ya; iy < yb; iy++)                                          \
            for (int64_t ix = xa; ix < xb; ix++) {                                      \
              const CT* in = xi + (iy * g->iw + ix) * c;                                \
              const int32_t pos = (int32_t)((iy - y0) * g->kw + (ix - x0));             \
              for (int64_t j = 0; j < cn; j++) {                                        \
                const int gt = in[j] > best[j];                                         \
                best[j] = gt ? in[j] : best[j];                                         \
                at[j] = gt ? pos : at[j];                                               \
              }                                                                         \
            }                                                                           \
          const CT* d = (const CT*)t->dy + ((img * g->oh + oy) * g->ow + ox) * c + c0;  \
          for (int64_t j = 0; j < cn; j++) {                                            \
            const int64_t o = off[at[j]];                                               \
            if (o >= 0) oi[o + j] = (CT)((W)oi[o + j] + (W)d[j]);                       \
          }                                                                             \
        }                                                                               \
    }                                                                                   \
    free(off);                                                                          \
  }
MT_REAL_TYPES(MAXPOOL_GRAD_, 0)
static void (*const maxpool_grad_fns[MT_NUM_DTYPES])(int64_t, int64_t, void*) = {
    MT_ENTRIES(maxpool_grad, MT_REAL_TYPES)};

/* Output rows [b, e) of (image, row): each output takes the gradient at the
 * first window position (rows, then columns) whose input equals the
 * forward's output there, 0 when none does (TensorFlow's CPU kernel). */
#define MAXPOOL_GRADGRAD_(DT, CT, unused)                                               \
  static void maxpool_gradgrad_##CT(int64_t b, int64_t e, void* arg) {                  \
    const pool_bwd_task* t = arg;                                                       \
    const pool_geom* g = t->g;                                                          \
    const int64_t c = g->c;                                                             \
    const CT* x = t->x;                                                                 \
    const CT* dy = t->dy;                                                               \
    for (int64_t row = b; row < e; row++) {                                             \
      const int64_t img = row / g->oh, oy = row % g->oh;                                \
      for (int64_t ox = 0; ox < g->ow; ox++) {                                          \
        POOL_WINDOW_                                                                    \
        const CT* want = (const CT*)t->y + (row * g->ow + ox) * c;                      \
        CT* out = (CT*)t->out + (row * g->ow + ox) * c;                                 \
        for (int64_t j = 0; j < c; j++) {                                               \
          CT v = 0;                                                                     \
          int found = 0;                                                                \
          for (int64_t iy = ya; iy < yb && !found; iy++)                                \
            for (int64_t ix = xa; ix < xb && !found; ix++) {                            \
              const int64_t i = ((img * g->ih + iy) * g->iw + ix) * c + j;              \
              if (x[i] == want[j]) v = dy[i], found = 1;                                \
            }                                                                           \
          out[j] = v;                                                                   \
        }                                                                               \
      }                                                                                 \
    }                                                                                   \
  }
MT_REAL_TYPES(MAXPOOL_GRADGRAD_, 0)
static void (*const maxpool_gradgrad_fns[MT_NUM_DTYPES])(int64_t, int64_t, void*) = {
    MT_ENTRIES(maxpool_gradgrad, MT_REAL_TYPES)};

/* Input rows [b, e) of (image, row), gathered: each input pixel sums, over
 * the windows that hold it (outputs in row-major order, as TensorFlow's
 * scatter adds them), the output gradient times 1 / (the window's size
 * inside the input). */
#define AVGPOOL_GRAD_(CT)                                                                \
  MT_SIMD_CLONES static void avgpool_grad_##CT(int64_t b, int64_t e, void* arg) {       \
    const pool_bwd_task* t = arg;                                                       \
    const pool_geom* g = t->g;                                                          \
    const int64_t c = g->c;                                                             \
    for (int64_t row = b; row < e; row++) {                                             \
      const int64_t img = row / g->ih, ty = row % g->ih + g->pt;                        \
      const int64_t oy0 = ty < g->kh ? 0 : (ty - g->kh) / g->sh + 1;                    \
      const int64_t oy1 = ty / g->sh + 1 < g->oh ? ty / g->sh + 1 : g->oh;              \
      for (int64_t ix = 0; ix < g->iw; ix++) {                                          \
        const int64_t tx = ix + g->pl;                                                  \
        const int64_t ox0 = tx < g->kw ? 0 : (tx - g->kw) / g->sw + 1;                  \
        const int64_t ox1 = tx / g->sw + 1 < g->ow ? tx / g->sw + 1 : g->ow;            \
        CT* o = (CT*)t->out + (row * g->iw + ix) * c;                                   \
        for (int64_t j = 0; j < c; j++) o[j] = 0;                                       \
        for (int64_t oy = oy0; oy < oy1; oy++)                                          \
          for (int64_t ox = ox0; ox < ox1; ox++) {                                      \
            const int64_t count = t->rows_in[oy] * t->cols_in[ox];                      \
            if (count <= 0) continue;                                                   \
            const CT coeff = (CT)(1.0 / (double)count);                                 \
            const CT* d = (const CT*)t->dy + ((img * g->oh + oy) * g->ow + ox) * c;     \
            for (int64_t j = 0; j < c; j++) o[j] += d[j] * coeff;                       \
          }                                                                             \
      }                                                                                 \
    }                                                                                   \
  }
AVGPOOL_GRAD_(float)
AVGPOOL_GRAD_(double)

/* ksize and strides: the attrs, or (V2 ops) inputs 3 and 4. nk/ns = -1 for
 * a non-vector input. */
static void pool_ksize_strides(mt_kernel_ctx* ctx, int v2, int64_t* k, int* nk, int64_t* s,
                               int* ns) {
  if (!v2) {
    const int64_t* ka = mt_attr_ints(ctx->op, "ksize", nk);
    const int64_t* sa = mt_attr_ints(ctx->op, "strides", ns);
    if (*nk == 4) memcpy(k, ka, 4 * sizeof *k);
    if (*ns == 4) memcpy(s, sa, 4 * sizeof *s);
    return;
  }
  const TF_Tensor* kt = ctx->inputs[3];
  const TF_Tensor* st = ctx->inputs[4];
  *nk = kt->ndims == 1 ? (int)kt->dims[0] : -1;
  *ns = st->ndims == 1 ? (int)st->dims[0] : -1;
  if (*nk == 4) mt_tensor_ints(kt, k, 4);
  if (*ns == 4) mt_tensor_ints(st, s, 4);
}

/* The grad ops' checks before the geometry (TensorFlow's wording). */
static int pool_grad_checks(mt_kernel_ctx* ctx, const char* what, const char* grad_name,
                            const int64_t* k, int nk, const int64_t* s, int ns) {
  static const char* const names[3] = {"tensor_in", "tensor_out", NULL};
  for (int i = 0; i < 3; i++)
    if (ctx->inputs[i]->ndims != 4) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s must be 4-dimensional",
                     names[i] ? names[i] : grad_name);
      return 0;
    }
  const int cd = mt_is_nchw(ctx->op) ? 1 : 3;
  if (nk == 4 && ns == 4 && (k[cd] != 1 || s[cd] != 1) && k[0] == 1 && s[0] == 1) {
    mt_status_setf(ctx->status, TF_UNIMPLEMENTED,
                   "%s is not yet supported on the depth dimension.", what);
    return 0;
  }
  return 1;
}

/* "Expected <what> shape to be [..], but got [..]" unless t has dims `want`. */
static int pool_expect(mt_kernel_ctx* ctx, const TF_Tensor* t, const char* what,
                       const int64_t* want) {
  if (t->ndims == 4 && memcmp(t->dims, want, 4 * sizeof *want) == 0) return 1;
  char a[256], b[256];
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Expected %s shape to be %s, but got %s",
                 what, mt_dims_str(want, 4, a, sizeof a), mt_dims_str(t->dims, t->ndims, b, sizeof b));
  return 0;
}

/* Dims of a pooled (output-shaped) tensor in the op's data format. */
static void pooled_dims(const pool_geom* g, int64_t d[4]) {
  d[0] = g->n;
  d[g->nchw ? 1 : 3] = g->c;
  d[g->nchw ? 2 : 1] = g->oh;
  d[g->nchw ? 3 : 2] = g->ow;
}

/* Runs fn over `n` tasks with inputs 0..2 as NHWC work buffers (those in
 * `use`), the result written to `out` through an NHWC work buffer. */
static void pool_bwd_run(mt_kernel_ctx* ctx, pool_bwd_task* t, TF_Tensor* out, int use_y,
                         int64_t n, int64_t cost, void (*fn)(int64_t, int64_t, void*)) {
  const int nchw = t->g->nchw;
  void *xo = NULL, *yo = NULL, *dyo = NULL, *oo = NULL;
  t->x = mt_work_in(ctx, ctx->inputs[0], nchw, &xo);
  t->y = t->x && use_y ? mt_work_in(ctx, ctx->inputs[1], nchw, &yo) : NULL;
  t->dy = t->x && (t->y || !use_y) ? mt_work_in(ctx, ctx->inputs[2], nchw, &dyo) : NULL;
  t->out = t->dy ? mt_work_out(ctx, out, nchw, &oo) : NULL;
  if (t->out) {
    atomic_init(&t->oom, 0);
    mt_parallel_for_shared(ctx, n, 1, cost, fn, t);
    if (atomic_load(&t->oom))
      mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM in %s", ctx->op->op_type);
    else
      mt_work_finish(ctx, out, nchw, t->out);
  }
  free(xo);
  free(yo);
  free(dyo);
  free(oo);
}

static void (*pool_grad_fn(mt_kernel_ctx* ctx, void (*const* fns)(int64_t, int64_t, void*)))(
    int64_t, int64_t, void*) {
  const TF_DataType wt = mt_work_type(ctx->inputs[0]->dtype);
  void (*fn)(int64_t, int64_t, void*) = (unsigned)wt < MT_NUM_DTYPES ? fns[wt] : NULL;
  if (!fn) mt_kernel_unsupported(ctx, "T", ctx->inputs[0]->dtype);
  return fn;
}

/* MaxPoolGrad, MaxPoolGradV2. */
static void max_pool_grad_common(mt_kernel_ctx* ctx, int v2) {
  void (*fn)(int64_t, int64_t, void*) = pool_grad_fn(ctx, maxpool_grad_fns);
  int64_t k[4], s[4];
  int nk, ns;
  pool_ksize_strides(ctx, v2, k, &nk, s, &ns);
  pool_geom g;
  if (!fn || !pool_grad_checks(ctx, "MaxPoolingGrad", "out_backprop", k, nk, s, ns) ||
      !pool_setup(ctx, k, nk, s, ns, &g))
    return;
  int64_t pd[4];
  pooled_dims(&g, pd);
  const TF_Tensor* x = ctx->inputs[0];
  if (!pool_expect(ctx, ctx->inputs[1], "orig_output", pd) ||
      !pool_expect(ctx, ctx->inputs[2], "grad", pd))
    return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, x->dtype, x->dims, 4);
  if (!out || mt_tensor_nelems(out) == 0) return;
  pool_bwd_task t = {&g};
  t.ncb = (g.c + POOL_CB - 1) / POOL_CB;
  t.init = lowest(x->dtype);
  const int64_t cb = g.c < POOL_CB ? g.c : POOL_CB;
  pool_bwd_run(ctx, &t, out, 0, g.n * t.ncb, (g.ih * g.iw + g.oh * g.ow * g.kh * g.kw) * cb, fn);
}

static void max_pool_grad_kernel(mt_kernel_ctx* ctx) { max_pool_grad_common(ctx, 0); }
static void max_pool_grad_v2_kernel(mt_kernel_ctx* ctx) { max_pool_grad_common(ctx, 1); }

/* MaxPoolGradGrad, MaxPoolGradGradV2: NHWC only, as TensorFlow's CPU kernel. */
static void max_pool_grad_grad_common(mt_kernel_ctx* ctx, int v2) {
  if (mt_is_nchw(ctx->op)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Default MaxPoolingGradGradOp only supports NHWC on device type CPU");
    return;
  }
  void (*fn)(int64_t, int64_t, void*) = pool_grad_fn(ctx, maxpool_gradgrad_fns);
  int64_t k[4], s[4];
  int nk, ns;
  pool_ksize_strides(ctx, v2, k, &nk, s, &ns);
  pool_geom g;
  if (!fn || !pool_grad_checks(ctx, "MaxPoolingGradGrad", "out_grad_backprop", k, nk, s, ns) ||
      !pool_setup(ctx, k, nk, s, ns, &g))
    return;
  int64_t pd[4];
  pooled_dims(&g, pd);
  if (!pool_expect(ctx, ctx->inputs[1], "orig_output", pd) ||
      !pool_expect(ctx, ctx->inputs[2], "grad", ctx->inputs[0]->dims))
    return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, ctx->inputs[0]->dtype, pd, 4);
  if (!out || mt_tensor_nelems(out) == 0) return;
  pool_bwd_task t = {&g};
  pool_bwd_run(ctx, &t, out, 1, g.n * g.oh, g.ow * g.kh * g.kw * g.c, fn);
}

static void max_pool_grad_grad_kernel(mt_kernel_ctx* ctx) { max_pool_grad_grad_common(ctx, 0); }
static void max_pool_grad_grad_v2_kernel(mt_kernel_ctx* ctx) {
  max_pool_grad_grad_common(ctx, 1);
}

/* Window extents inside the input along one dim, per output position. */
static void window_sizes(int64_t n_out, int64_t in, int64_t k, int64_t stride, int64_t pad,
                         int64_t* out) {
  for (int64_t o = 0; o < n_out; o++) {
    const int64_t a = o * stride - pad, b = a + k;
    out[o] = (b < in ? b : in) - (a > 0 ? a : 0);
  }
}

static void avg_pool_grad_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* sizes = ctx->inputs[0];
  const TF_Tensor* dy = ctx->inputs[1];
  if (dy->dtype != TF_FLOAT && dy->dtype != TF_DOUBLE && !mt_is_half_type(dy->dtype)) {
    mt_kernel_unsupported(ctx, "T", dy->dtype);
    return;
  }
  if (sizes->ndims != 1 || sizes->dims[0] != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "orig_input_shape must be 1-dimensional and 4 elements");
    return;
  }
  if (dy->ndims != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "out_backprop must be 4-dimensional");
    return;
  }
  int64_t xd[4];
  mt_tensor_ints(sizes, xd, 4);
  for (int i = 0; i < 4; i++)
    if (xd[i] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension %d must be >= 0, but got %lld",
                     i, (long long)xd[i]);
      return;
    }
  int nk, ns;
  const int64_t* k = mt_attr_ints(ctx->op, "ksize", &nk);
  const int64_t* s = mt_attr_ints(ctx->op, "strides", &ns);
  pool_geom g;
  if (!pool_setup_dims(ctx, xd, 4, k, nk, s, ns, &g)) return;
  int64_t pd[4];
  pooled_dims(&g, pd);
  if (!pool_expect(ctx, dy, "grad", pd)) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, dy->dtype, xd, 4);
  if (!out || mt_tensor_nelems(out) == 0) return;
  int64_t* ext = mt_scratch((size_t)(g.oh + g.ow) * sizeof(int64_t), ctx->status);
  if (!ext) return;
  window_sizes(g.oh, g.ih, g.kh, g.sh, g.pt, ext);
  window_sizes(g.ow, g.iw, g.kw, g.sw, g.pl, ext + g.oh);
  pool_bwd_task t = {&g};
  t.rows_in = ext;
  t.cols_in = ext + g.oh;
  void *dyo = NULL, *oo = NULL;
  t.dy = mt_work_in(ctx, dy, g.nchw, &dyo);
  t.out = t.dy ? mt_work_out(ctx, out, g.nchw, &oo) : NULL;
  if (t.out) {
    const int64_t per = (g.kh + g.sh - 1) / g.sh * ((g.kw + g.sw - 1) / g.sw);
    mt_parallel_for_shared(ctx, g.n * g.ih, 4, g.iw * g.c * (per + 1),
                           mt_work_type(dy->dtype) == TF_DOUBLE ? avgpool_grad_double
                                                                : avgpool_grad_float,
                           &t);
    mt_work_finish(ctx, out, g.nchw, t.out);
  }
  free(dyo);
  free(oo);
  free(ext);
}

/* ---- backward shape functions ---- */

/* MaxPoolGrad(V2): TensorFlow's UnchangedShapeWithRank(4). */
static void max_pool_grad_shape(mt_shape_ctx* ctx) {
  if (mt_shape_with_rank(ctx, 0, 4)) ctx->out[0] = ctx->in[0];
}

/* AvgPoolGrad: the shape orig_input_shape holds, of rank 4. */
static void avg_pool_grad_shape(mt_shape_ctx* ctx) {
  mt_shape s;
  if (!mt_shape_with_rank(ctx, 0, 1)) return;
  if (!mt_shape_input_as_shape(ctx, 0, &s)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "orig_input_shape is not a shape");
    return;
  }
  if (s.rank >= 0 && s.rank != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be rank 4 but is rank %d",
                   s.rank);
    return;
  }
  if (s.rank < 0) {
    s.rank = 4;
    for (int d = 0; d < 4; d++) s.dims[d] = -1;
  }
  ctx->out[0] = s;
}

/* MaxPoolGradGrad(V2): the pooled shape of orig_input, merged with
 * orig_output's; grad must match orig_input (TensorFlow's shape fn). */
static void max_pool_grad_grad_merge(mt_shape_ctx* ctx) {
  mt_shape m;
  if (!mt_ok(ctx->status) || !mt_merge_shape(ctx, &ctx->in[0], &ctx->in[2], &m)) return;
  mt_merge_shape(ctx, &ctx->in[1], &ctx->out[0], &ctx->out[0]);
}
static void max_pool_grad_grad_shape(mt_shape_ctx* ctx) {
  max_pool_shape(ctx);
  max_pool_grad_grad_merge(ctx);
}
static void max_pool_grad_grad_v2_shape(mt_shape_ctx* ctx) {
  max_pool_v2_shape_at(ctx, 3);
  max_pool_grad_grad_merge(ctx);
}

#define MAXPOOL_TYPES                                                                     \
  "T: {half, bfloat16, float, double, int32, int64, uint8, int16, int8, uint16, qint8} = " \
  "DT_FLOAT"

static const mt_op_spec pooling_specs[] = {
    {.name = "AvgPool", .inputs = "value: T", .outputs = "output: T",
     .attrs = "ksize: list(int) >= 4; strides: list(int) >= 4; padding: {'SAME', 'VALID'};"
              " data_format: {'NHWC', 'NCHW'} = 'NHWC'; T: {half, bfloat16, float, double}",
     .shape = avg_pool_shape, .kernel = avg_pool_kernel},
    {.name = "MaxPool", .inputs = "input: T", .outputs = "output: T",
     .attrs = MAXPOOL_TYPES "; ksize: list(int) >= 4; strides: list(int) >= 4;"
              " padding: {'SAME', 'VALID', 'EXPLICIT'}; explicit_paddings: list(int) = [];"
              " data_format: {'NHWC', 'NCHW', 'NCHW_VECT_C'} = 'NHWC'",
     .shape = max_pool_shape, .kernel = max_pool_kernel},
    {.name = "MaxPoolV2", .inputs = "input: T, ksize: int32, strides: int32",
     .outputs = "output: T",
     .attrs = MAXPOOL_TYPES "; padding: {'SAME', 'VALID'};"
              " data_format: {'NHWC', 'NCHW', 'NCHW_VECT_C'} = 'NHWC'",
     .shape = max_pool_v2_shape, .kernel = max_pool_v2_kernel},
    {.name = "AvgPoolGrad", .inputs = "orig_input_shape: int32, grad: T", .outputs = "output: T",
     .attrs = "ksize: list(int) >= 4; strides: list(int) >= 4; padding: {'SAME', 'VALID'};"
              " data_format: {'NHWC', 'NCHW'} = 'NHWC'; T: {half, bfloat16, float, double}",
     .shape = avg_pool_grad_shape, .kernel = avg_pool_grad_kernel},
    {.name = "MaxPoolGrad", .inputs = "orig_input: T, orig_output: T, grad: T",
     .outputs = "output: T",
     .attrs = "ksize: list(int) >= 4; strides: list(int) >= 4;"
              " padding: {'SAME', 'VALID', 'EXPLICIT'}; explicit_paddings: list(int) = [];"
              " data_format: {'NHWC', 'NCHW'} = 'NHWC'; T: realnumbertype = DT_FLOAT",
     .shape = max_pool_grad_shape, .kernel = max_pool_grad_kernel},
    {.name = "MaxPoolGradV2",
     .inputs = "orig_input: T, orig_output: T, grad: T, ksize: int32, strides: int32",
     .outputs = "output: T",
     .attrs = "padding: {'SAME', 'VALID'}; data_format: {'NHWC', 'NCHW'} = 'NHWC';"
              " T: realnumbertype = DT_FLOAT",
     .shape = max_pool_grad_shape, .kernel = max_pool_grad_v2_kernel},
    {.name = "MaxPoolGradGrad", .inputs = "orig_input: T, orig_output: T, grad: T",
     .outputs = "output: T",
     .attrs = "ksize: list(int) >= 4; strides: list(int) >= 4; padding: {'SAME', 'VALID'};"
              " data_format: {'NHWC', 'NCHW'} = 'NHWC'; T: realnumbertype",
     .shape = max_pool_grad_grad_shape, .kernel = max_pool_grad_grad_kernel},
    {.name = "MaxPoolGradGradV2",
     .inputs = "orig_input: T, orig_output: T, grad: T, ksize: int32, strides: int32",
     .outputs = "output: T",
     .attrs = "padding: {'SAME', 'VALID'}; data_format: {'NHWC', 'NCHW'} = 'NHWC';"
              " T: realnumbertype",
     .shape = max_pool_grad_grad_v2_shape, .kernel = max_pool_grad_grad_v2_kernel},
};

void mt_register_pooling_ops(void) {
  mt_register_ops(pooling_specs, (int)(sizeof pooling_specs / sizeof pooling_specs[0]));
}
