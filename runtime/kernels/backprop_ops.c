/* Backward kernels the nn, conv and pooling gradients use (TensorFlow's ReluGrad,
 * BiasAddGrad, Conv2DBackpropFilter, MaxPoolGrad): the first set a TF1 training step needs.
 * float and double; NHWC (NCHW and other dtypes are refused with Unimplemented). Each loop
 * is plain and cache-friendly (innermost over channels); the heavy ones split the batch
 * across the intra-op pool. */
#include "runtime/kernels/all_ops.h"
#include "runtime/kernel.h"
#include "runtime/kernels/window_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int float_or_double(mt_kernel_ctx* ctx, TF_DataType dt) {
  if (dt == TF_FLOAT || dt == TF_DOUBLE) return 1;
  mt_status_setf(ctx->status, TF_UNIMPLEMENTED, "%s is implemented for float and double, not %s",
                 ctx->op->op_type, mt_dtype_name(dt));
  return 0;
}

static int nhwc(mt_kernel_ctx* ctx) {
  if (!mt_is_nchw(ctx->op)) return 1;
  mt_status_setf(ctx->status, TF_UNIMPLEMENTED, "%s is implemented for NHWC only",
                 ctx->op->op_type);
  return 0;
}

static int same_dims(const TF_Tensor* a, const TF_Tensor* b) {
  return a->ndims == b->ndims && memcmp(a->dims, b->dims, sizeof(int64_t) * (size_t)a->ndims) == 0;
}

/* ---- ReluGrad: backprops = gradients * (features > 0) ---- */
static void relu_grad_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor *g = ctx->inputs[0], *f = ctx->inputs[1];
  if (!float_or_double(ctx, g->dtype)) return;
  if (!same_dims(g, f)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "gradients and features must have the same shape");
    return;
  }
  TF_Tensor* out = mt_ctx_forward(ctx, 0, 0, g->dtype, g->dims, g->ndims);
  if (!out) return;
  const int64_t n = mt_tensor_nelems(g);
  if (g->dtype == TF_FLOAT) {
    const float *gp = mt_tensor_data(g), *fp = mt_tensor_data(f);
    float* o = mt_tensor_data(out);
    for (int64_t i = 0; i < n; i++) o[i] = fp[i] > 0 ? gp[i] : 0.0f;
  } else {
    const double *gp = mt_tensor_data(g), *fp = mt_tensor_data(f);
    double* o = mt_tensor_data(out);
    for (int64_t i = 0; i < n; i++) o[i] = fp[i] > 0 ? gp[i] : 0.0;
  }
}

static void relu_grad_shape(mt_shape_ctx* ctx) { ctx->out[0] = ctx->in[0]; }

/* ---- elementwise gradient kernels: out[i] = f(a[i], b[i]) for a pair of same-shaped
 * inputs (TensorFlow's argument order: (y, dy) for the math ones, (gradients, features or
 * outputs) for the activations) ---- */

#define SELU_SCALE 1.0507009873554804934193349852946
#define SELU_ALPHA 1.6732632423543772848170429916717

typedef double (*pair_fn)(double a, double b, double attr);

static double sigmoid_g(double y, double dy, double u) { return dy * y * (1 - y); }
static double tanh_g(double y, double dy, double u) { return dy * (1 - y * y); }
static double sqrt_g(double y, double dy, double u) { return dy * 0.5 / y; }
static double rsqrt_g(double y, double dy, double u) { return dy * -0.5 * y * y * y; }
static double reciprocal_g(double y, double dy, double u) { return -dy * y * y; }
static double relu6_g(double g, double f, double u) { return f > 0 && f < 6 ? g : 0; }
static double leaky_g(double g, double f, double alpha) { return f > 0 ? g : g * alpha; }
static double elu_g(double g, double y, double u) { return y < 0 ? g * (y + 1) : g; }
static double selu_g(double g, double y, double u) {
  return y < 0 ? g * (y + SELU_SCALE * SELU_ALPHA) : g * SELU_SCALE;
}
static double softplus_g(double g, double f, double u) { return g / (1 + exp(-f)); }
static double softsign_g(double g, double f, double u) { return g / ((1 + fabs(f)) * (1 + fabs(f))); }

static void pair_kernel(mt_kernel_ctx* ctx, pair_fn f, double attr) {
  const TF_Tensor *a = ctx->inputs[0], *b = ctx->inputs[1];
  if (!float_or_double(ctx, a->dtype)) return;
  if (!same_dims(a, b)) {
    char x[256], y[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Inputs to operation %s of type %s must have the same size and shape.  "
                   "Input 0: %s != input 1: %s", ctx->op->name, ctx->op->op_type,
                   mt_dims_str(a->dims, a->ndims, x, sizeof x),
                   mt_dims_str(b->dims, b->ndims, y, sizeof y));
    return;
  }
  TF_Tensor* out = mt_ctx_forward(ctx, 1, 0, a->dtype, a->dims, a->ndims);
  if (!out) return;
  const int64_t n = mt_tensor_nelems(a);
  if (a->dtype == TF_FLOAT) {
    const float *ap = mt_tensor_data(a), *bp = mt_tensor_data(b);
    float* o = mt_tensor_data(out);
    for (int64_t i = 0; i < n; i++) o[i] = (float)f(ap[i], bp[i], attr);
  } else {
    const double *ap = mt_tensor_data(a), *bp = mt_tensor_data(b);
    double* o = mt_tensor_data(out);
    for (int64_t i = 0; i < n; i++) o[i] = f(ap[i], bp[i], attr);
  }
}

#define PAIR_KERNEL(name, fn)                                                      \
  static void name##_kernel(mt_kernel_ctx* ctx) { pair_kernel(ctx, fn, 0); }
PAIR_KERNEL(sigmoid_grad, sigmoid_g)
PAIR_KERNEL(tanh_grad, tanh_g)
PAIR_KERNEL(sqrt_grad, sqrt_g)
PAIR_KERNEL(rsqrt_grad, rsqrt_g)
PAIR_KERNEL(reciprocal_grad, reciprocal_g)
PAIR_KERNEL(relu6_grad, relu6_g)
PAIR_KERNEL(elu_grad, elu_g)
PAIR_KERNEL(selu_grad, selu_g)
PAIR_KERNEL(softplus_grad, softplus_g)
PAIR_KERNEL(softsign_grad, softsign_g)
static void leaky_relu_grad_kernel(mt_kernel_ctx* ctx) {
  pair_kernel(ctx, leaky_g, mt_op_attr_float(ctx->op, "alpha", 0.2f));
}

/* ---- BiasAddGrad: the sum of out_backprop over all but the channel dim ---- */
/* Element (outer, channel, inner) layout: NHWC has inner = 1, NCHW outer = N. */
static void bias_add_grad_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* g = ctx->inputs[0];
  if (!float_or_double(ctx, g->dtype)) return;
  if (g->ndims < 2) {
    char b[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input tensor must be at least 2D: %s",
                   mt_dims_str(g->dims, g->ndims, b, sizeof b));
    return;
  }
  const int nchw = mt_is_nchw(ctx->op);
  const int cdim = nchw ? 1 : g->ndims - 1;
  const int64_t c = g->dims[cdim];
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < cdim; d++) outer *= g->dims[d];
  for (int d = cdim + 1; d < g->ndims; d++) inner *= g->dims[d];
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, g->dtype, &c, 1);
  if (!out) return;
  double* acc = calloc((size_t)(c ? c : 1), sizeof(double));
  if (!acc) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "out of memory in BiasAddGrad");
    return;
  }
  const int dbl = g->dtype == TF_DOUBLE;
  for (int64_t o = 0; o < outer; o++)
    for (int64_t k = 0; k < c; k++) {
      const int64_t base = (o * c + k) * inner;
      double sum = 0;
      for (int64_t i = 0; i < inner; i++)
        sum += dbl ? ((const double*)mt_tensor_data(g))[base + i]
                   : ((const float*)mt_tensor_data(g))[base + i];
      acc[k] += sum;
    }
  for (int64_t k = 0; k < c; k++) {
    if (dbl)
      ((double*)mt_tensor_data(out))[k] = acc[k];
    else
      ((float*)mt_tensor_data(out))[k] = (float)acc[k];
  }
  free(acc);
}

static void bias_add_grad_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[0];
  ctx->out[0].rank = 1;
  ctx->out[0].dims[0] = -1;
  if (in->rank >= 2)
    ctx->out[0].dims[0] = mt_is_nchw(ctx->op) ? in->dims[1] : in->dims[in->rank - 1];
}

/* ---- window geometry shared by the conv filter and max pool backward ---- */

typedef struct geom {
  int64_t n, h, w, c;     /* input */
  int64_t kh, kw, oc;     /* filter / window (oc: filter output channels) */
  int64_t oh, ow;         /* output */
  int64_t sh, sw, dh, dw; /* strides, dilations */
  int64_t ph, pw;         /* padding before */
} geom;

static int spatial(mt_kernel_ctx* ctx, geom* g, const int64_t* strides, const int64_t* dil) {
  const int mode = mt_padding_mode(ctx->op);
  int np = 0;
  const int64_t* pads = mt_attr_ints(ctx->op, "explicit_paddings", &np);
  int64_t plo_h = 0, phi_h = 0, plo_w = 0, phi_w = 0;
  if (mode == MT_PAD_EXPLICIT && np == 8) {
    plo_h = pads[2], phi_h = pads[3], plo_w = pads[4], phi_w = pads[5];
  }
  g->sh = strides[1], g->sw = strides[2];
  g->dh = dil ? dil[1] : 1, g->dw = dil ? dil[2] : 1;
  return mt_windowed_size(g->h, g->kh, g->dh, g->sh, mode, plo_h, phi_h, 0, &g->oh, &g->ph,
                          ctx->status) &&
         mt_windowed_size(g->w, g->kw, g->dw, g->sw, mode, plo_w, phi_w, 0, &g->ow, &g->pw,
                          ctx->status);
}

/* ---- Conv2DBackpropFilter: dfilter[kh,kw,ic,oc] = sum over n, oh, ow of
 * input[n, oh*s + kh*d - p, ...] * out_backprop[n, oh, ow, oc] ---- */

typedef struct filt_job {
  const geom* g;
  const void* in;
  const void* dy;
  double* part; /* per batch item: kh*kw*c*oc partial sums */
  int dbl;
} filt_job;

static void filter_rows(int64_t b0, int64_t b1, void* arg) {
  const filt_job* j = arg;
  const geom* g = j->g;
  const int64_t fsz = g->kh * g->kw * g->c * g->oc;
  for (int64_t b = b0; b < b1; b++) {
    double* acc = j->part + b * fsz;
    for (int64_t y = 0; y < g->oh; y++)
      for (int64_t x = 0; x < g->ow; x++) {
        const int64_t dyoff = ((b * g->oh + y) * g->ow + x) * g->oc;
        for (int64_t ky = 0; ky < g->kh; ky++) {
          const int64_t iy = y * g->sh + ky * g->dh - g->ph;
          if (iy < 0 || iy >= g->h) continue;
          for (int64_t kx = 0; kx < g->kw; kx++) {
            const int64_t ix = x * g->sw + kx * g->dw - g->pw;
            if (ix < 0 || ix >= g->w) continue;
            const int64_t inoff = ((b * g->h + iy) * g->w + ix) * g->c;
            double* a = acc + (ky * g->kw + kx) * g->c * g->oc;
            for (int64_t ci = 0; ci < g->c; ci++) {
              const double v = j->dbl ? ((const double*)j->in)[inoff + ci]
                                      : ((const float*)j->in)[inoff + ci];
              if (v == 0) continue;
              double* row = a + ci * g->oc;
              if (j->dbl) {
                const double* d = (const double*)j->dy + dyoff;
                for (int64_t o = 0; o < g->oc; o++) row[o] += v * d[o];
              } else {
                const float* d = (const float*)j->dy + dyoff;
                for (int64_t o = 0; o < g->oc; o++) row[o] += v * d[o];
              }
            }
          }
        }
      }
  }
}

static void backprop_filter_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor *in = ctx->inputs[0], *sizes = ctx->inputs[1], *dy = ctx->inputs[2];
  if (!float_or_double(ctx, in->dtype) || !nhwc(ctx)) return;
  if (in->ndims != 4 || dy->ndims != 4 || sizes->ndims != 1 || sizes->dims[0] != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Conv2DBackpropFilter: input and out_backprop must be 4-D and filter_sizes "
                   "a 4-vector");
    return;
  }
  const int32_t* fs = mt_tensor_data(sizes);
  int ns = 0, nd = 0;
  const int64_t* strides = mt_attr_ints(ctx->op, "strides", &ns);
  const int64_t* dil = mt_attr_ints(ctx->op, "dilations", &nd);
  if (ns != 4 || (nd != 0 && nd != 4)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "strides and dilations must have 4 values");
    return;
  }
  geom g = {.n = in->dims[0], .h = in->dims[1], .w = in->dims[2], .c = in->dims[3],
            .kh = fs[0], .kw = fs[1], .oc = fs[3]};
  if (fs[2] != g.c || fs[0] < 0 || fs[1] < 0 || fs[3] < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Conv2DBackpropFilter: filter depth %d does not match input depth %lld",
                   fs[2], (long long)g.c);
    return;
  }
  if (!spatial(ctx, &g, strides, nd ? dil : NULL)) return;
  if (dy->dims[0] != g.n || dy->dims[1] != g.oh || dy->dims[2] != g.ow || dy->dims[3] != g.oc) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Conv2DBackpropFilter: Size of out_backprop doesn't match computed");
    return;
  }
  const int64_t fdims[4] = {g.kh, g.kw, g.c, g.oc};
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, fdims, 4);
  if (!out) return;
  const int64_t fsz = g.kh * g.kw * g.c * g.oc;
  double* part = calloc((size_t)(g.n * fsz + 1), sizeof(double));
  if (!part) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "out of memory in Conv2DBackpropFilter");
    return;
  }
  filt_job job = {&g, mt_tensor_data(in), mt_tensor_data(dy), part, in->dtype == TF_DOUBLE};
  mt_parallel_for(ctx, g.n, g.oh * g.ow * g.kh * g.kw * g.c * g.oc, filter_rows, &job);
  for (int64_t b = 1; b < g.n; b++)
    for (int64_t i = 0; i < fsz; i++) part[i] += part[b * fsz + i];
  if (in->dtype == TF_DOUBLE)
    memcpy(mt_tensor_data(out), part, sizeof(double) * (size_t)fsz);
  else
    for (int64_t i = 0; i < fsz; i++) ((float*)mt_tensor_data(out))[i] = (float)part[i];
  free(part);
}

static void backprop_filter_shape(mt_shape_ctx* ctx) {
  int64_t v[4];
  if (mt_shape_input_as_ints(ctx, 1, v, 4) == 4) {
    ctx->out[0].rank = 4;
    memcpy(ctx->out[0].dims, v, sizeof v);
  } else {
    ctx->out[0].rank = 4;
    for (int i = 0; i < 4; i++) ctx->out[0].dims[i] = -1;
  }
}

/* ---- MaxPoolGrad: each window's gradient goes to the first position of its maximum (the
 * order TensorFlow's CPU kernel scans: rows, then columns) ---- */
static void max_pool_grad_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor *x = ctx->inputs[0], *y = ctx->inputs[1], *dy = ctx->inputs[2];
  if (!float_or_double(ctx, x->dtype) || !nhwc(ctx)) return;
  int nk = 0, ns = 0;
  const int64_t* k = mt_attr_ints(ctx->op, "ksize", &nk);
  const int64_t* s = mt_attr_ints(ctx->op, "strides", &ns);
  if (x->ndims != 4 || nk != 4 || ns != 4 || k[0] != 1 || k[3] != 1 || s[0] != 1 || s[3] != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "MaxPoolGrad: 4-D input with ksize/strides of 1 on batch and depth required");
    return;
  }
  geom g = {.n = x->dims[0], .h = x->dims[1], .w = x->dims[2], .c = x->dims[3],
            .kh = k[1], .kw = k[2]};
  if (!spatial(ctx, &g, s, NULL)) return;
  const int64_t want[4] = {g.n, g.oh, g.ow, g.c};
  if (y->ndims != 4 || dy->ndims != 4 || memcmp(y->dims, want, sizeof want) != 0 ||
      memcmp(dy->dims, want, sizeof want) != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "MaxPoolGrad: orig_output and grad must have the pooled shape");
    return;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, x->dtype, x->dims, 4);
  if (!out) return;
  const int dbl = x->dtype == TF_DOUBLE;
  const size_t es = dbl ? sizeof(double) : sizeof(float);
  memset(mt_tensor_data(out), 0, es * (size_t)mt_tensor_nelems(x));
#define AT(t, i) (dbl ? ((const double*)mt_tensor_data(t))[i] : ((const float*)mt_tensor_data(t))[i])
  for (int64_t b = 0; b < g.n; b++)
    for (int64_t oy = 0; oy < g.oh; oy++)
      for (int64_t ox = 0; ox < g.ow; ox++)
        for (int64_t c = 0; c < g.c; c++) {
          const int64_t yi = ((b * g.oh + oy) * g.ow + ox) * g.c + c;
          int64_t best = -1;
          double bv = 0;
          for (int64_t ky = 0; ky < g.kh; ky++) {
            const int64_t iy = oy * g.sh + ky - g.ph;
            if (iy < 0 || iy >= g.h) continue;
            for (int64_t kx = 0; kx < g.kw; kx++) {
              const int64_t ix = ox * g.sw + kx - g.pw;
              if (ix < 0 || ix >= g.w) continue;
              const int64_t xi = ((b * g.h + iy) * g.w + ix) * g.c + c;
              const double v = AT(x, xi);
              if (best < 0 || v > bv) {
                best = xi;
                bv = v;
              }
            }
          }
          if (best < 0) continue;
          if (dbl)
            ((double*)mt_tensor_data(out))[best] += AT(dy, yi);
          else
            ((float*)mt_tensor_data(out))[best] += (float)AT(dy, yi);
        }
#undef AT
}

static void same_as_input0(mt_shape_ctx* ctx) { ctx->out[0] = ctx->in[0]; }

#define CONV_ATTRS                                                                   \
  "T: {half, bfloat16, float, double}; strides: list(int); use_cudnn_on_gpu: bool = true;" \
  " padding: {'SAME', 'VALID', 'EXPLICIT'}; explicit_paddings: list(int) = [];"      \
  " data_format: {'NHWC', 'NCHW'} = 'NHWC'; dilations: list(int) = [1, 1, 1, 1]"

#define MATH_GRAD(NAME, KERNEL)                                                          \
  {.name = NAME, .inputs = "y: T, dy: T", .outputs = "z: T",                              \
   .attrs = "T: {bfloat16, half, float, double, complex64, complex128}",                  \
   .shape = relu_grad_shape, .kernel = KERNEL}
#define ACT_GRAD(NAME, SECOND, TYPES, KERNEL)                                             \
  {.name = NAME, .inputs = "gradients: T, " SECOND ": T", .outputs = "backprops: T",      \
   .attrs = TYPES, .shape = relu_grad_shape, .kernel = KERNEL}
#define HALF_FLOATS "T: {half, bfloat16, float, double}"

static const mt_op_spec backprop_specs[] = {
    MATH_GRAD("SigmoidGrad", sigmoid_grad_kernel),
    MATH_GRAD("TanhGrad", tanh_grad_kernel),
    MATH_GRAD("SqrtGrad", sqrt_grad_kernel),
    MATH_GRAD("RsqrtGrad", rsqrt_grad_kernel),
    MATH_GRAD("ReciprocalGrad", reciprocal_grad_kernel),
    ACT_GRAD("Relu6Grad", "features", "T: realnumbertype", relu6_grad_kernel),
    ACT_GRAD("LeakyReluGrad", "features", "alpha: float = 0.2; " HALF_FLOATS " = DT_FLOAT",
             leaky_relu_grad_kernel),
    ACT_GRAD("EluGrad", "outputs", HALF_FLOATS, elu_grad_kernel),
    ACT_GRAD("SeluGrad", "outputs", HALF_FLOATS, selu_grad_kernel),
    ACT_GRAD("SoftplusGrad", "features", HALF_FLOATS, softplus_grad_kernel),
    ACT_GRAD("SoftsignGrad", "features", HALF_FLOATS, softsign_grad_kernel),
    {.name = "ReluGrad", .inputs = "gradients: T, features: T", .outputs = "backprops: T",
     .attrs = "T: realnumbertype", .shape = relu_grad_shape, .kernel = relu_grad_kernel},
    {.name = "BiasAddGrad", .inputs = "out_backprop: T", .outputs = "output: T",
     .attrs = "T: numbertype; data_format: {'NHWC', 'NCHW'} = 'NHWC'",
     .shape = bias_add_grad_shape, .kernel = bias_add_grad_kernel},
    {.name = "Conv2DBackpropFilter",
     .inputs = "input: T, filter_sizes: int32, out_backprop: T", .outputs = "output: T",
     .attrs = CONV_ATTRS, .shape = backprop_filter_shape, .kernel = backprop_filter_kernel},
    {.name = "MaxPoolGrad", .inputs = "orig_input: T, orig_output: T, grad: T",
     .outputs = "output: T",
     .attrs = "ksize: list(int) >= 4; strides: list(int) >= 4;"
              " padding: {'SAME', 'VALID', 'EXPLICIT'}; explicit_paddings: list(int) = [];"
              " data_format: {'NHWC', 'NCHW'} = 'NHWC'; T: realnumbertype = DT_FLOAT",
     .shape = same_as_input0, .kernel = max_pool_grad_kernel},
};

void mt_register_backprop_ops(void) {
  mt_register_ops(backprop_specs, (int)(sizeof backprop_specs / sizeof backprop_specs[0]));
}
