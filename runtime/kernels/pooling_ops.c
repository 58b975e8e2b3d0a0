/* Pooling: MaxPool, AvgPool, MaxPoolV2. Signatures, shape functions and
 * CPU dtypes are TensorFlow's (nn_ops.cc, common_shape_fns.cc,
 * maxpooling_op.cc, avgpooling_op.cc).
 *
 * Kernels are direct NHWC loops over channels (vectorizable), split over
 * (image, output row) with mt_parallel_for; NCHW is transposed. half and
 * bfloat16 are computed in float. As TensorFlow's CPU kernels, MaxPool
 * starts from the type's lowest finite value and ignores NaN; AvgPool
 * divides by the number of window elements inside the input (SAME). */
#include <float.h>
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

static void max_pool_v2_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 4) || !mt_shape_with_rank(ctx, 1, 1) ||
      !mt_shape_with_rank(ctx, 2, 1))
    return;
  for (int i = 1; i <= 2; i++) {
    const int64_t d = ctx->in[i].rank == 1 ? ctx->in[i].dims[0] : -1;
    if (d >= 0 && d != 4) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension must be 4 but is %lld",
                     (long long)d);
      return;
    }
  }
  int64_t k[4], s[4];
  if (mt_shape_input_as_ints(ctx, 1, k, 4) != 4 || mt_shape_input_as_ints(ctx, 2, s, 4) != 4) {
    ctx->out[0].rank = 4;
    for (int d = 0; d < 4; d++) ctx->out[0].dims[d] = -1;
    return;
  }
  pool_shape_from(ctx, k, s, 1);
}

/* ---- kernels ---- */

/* Run-time checks (TensorFlow's PoolParameters wording) and geometry. */
static int pool_setup(mt_kernel_ctx* ctx, const int64_t* k, int nk, const int64_t* s, int ns,
                      pool_geom* g) {
  const TF_Tensor* x = ctx->inputs[0];
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
  if (x->ndims != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "input must be 4-dimensional %s",
                   mt_dims_str(x->dims, x->ndims, b, sizeof b));
    return 0;
  }
  const int mode = mt_padding_mode(ctx->op);
  if (!mt_check_explicit_paddings(ctx->op, mode, h, w, ctx->status)) return 0;
  int np;
  const int64_t* p = mt_attr_ints(ctx->op, "explicit_paddings", &np);
  g->nchw = nchw;
  g->n = x->dims[0];
  g->ih = x->dims[h];
  g->iw = x->dims[w];
  g->c = x->dims[cd];
  g->kh = k[h], g->kw = k[w], g->sh = s[h], g->sw = s[w];
  return mt_windowed_size(g->ih, g->kh, 1, g->sh, mode, np == 8 ? p[2 * h] : 0,
                          np == 8 ? p[2 * h + 1] : 0, 0, &g->oh, &g->pt, ctx->status) &&
         mt_windowed_size(g->iw, g->kw, 1, g->sw, mode, np == 8 ? p[2 * w] : 0,
                          np == 8 ? p[2 * w + 1] : 0, 0, &g->ow, &g->pl, ctx->status);
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
};

void mt_register_pooling_ops(void) {
  mt_register_ops(pooling_specs, (int)(sizeof pooling_specs / sizeof pooling_specs[0]));
}
