/* Backward kernels of the elementwise math and activation gradients (SigmoidGrad, ...,
 * ReluGrad, Relu6Grad, ...), BiasAddGrad, FusedBatchNormGrad(V2, V3) and LRNGrad. float and
 * double where TensorFlow's CPU kernels have them (batch norm and LRN: float, half/bfloat16
 * computed in float). The conv and pooling backward kernels live with their families
 * (conv_ops.c, pooling_ops.c). */
#include "runtime/kernels/all_ops.h"
#include "runtime/kernel.h"
#include "runtime/kernels/window_util.h"

#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Vectorize the channel loops (-O2's "very cheap" cost model skips loops whose trip count
 * is not known to be a multiple of the vector width). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

static int float_or_double(mt_kernel_ctx* ctx, TF_DataType dt) {
  if (dt == TF_FLOAT || dt == TF_DOUBLE) return 1;
  mt_status_setf(ctx->status, TF_UNIMPLEMENTED, "%s is implemented for float and double, not %s",
                 ctx->op->op_type, mt_dtype_name(dt));
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

/* ---- BiasAddGrad: the sum of out_backprop over all but the channel dim ----
 * Element (outer, channel, inner) layout: NHWC has inner = 1, NCHW outer = N. Sums in
 * double over BIAS_GRAD_BLOCKS fixed blocks of outer rows, added in order (the result does
 * not depend on the thread count); channels-last rows add vectorized across channels, NCHW
 * planes in 8 independent lanes. */
#define BIAS_GRAD_BLOCKS 32

typedef struct bias_grad_task {
  const void* g;
  double* partial; /* [blocks][c] */
  int64_t outer, c, inner, per_block;
} bias_grad_task;

#define BIAS_GRAD_(CT)                                                                  \
  MT_SIMD_CLONES static void bias_grad_##CT(int64_t b, int64_t e, void* arg) {          \
    const bias_grad_task* t = arg;                                                      \
    const int64_t c = t->c, inner = t->inner;                                           \
    for (int64_t blk = b; blk < e; blk++) {                                             \
      double* acc = t->partial + blk * c;                                               \
      for (int64_t k = 0; k < c; k++) acc[k] = 0;                                       \
      const int64_t o1 = (blk + 1) * t->per_block < t->outer ? (blk + 1) * t->per_block \
                                                             : t->outer;                \
      for (int64_t o = blk * t->per_block; o < o1; o++) {                               \
        const CT* row = (const CT*)t->g + o * c * inner;                                \
        if (inner == 1) {                                                               \
          for (int64_t k = 0; k < c; k++) acc[k] += row[k];                             \
          continue;                                                                     \
        }                                                                               \
        for (int64_t k = 0; k < c; k++) {                                               \
          const CT* p = row + k * inner;                                                \
          double lane[8] = {0};                                                         \
          int64_t i = 0;                                                                \
          for (; i + 8 <= inner; i += 8)                                                \
            for (int l = 0; l < 8; l++) lane[l] += p[i + l];                            \
          double s = 0;                                                                 \
          for (int l = 0; l < 8; l++) s += lane[l];                                     \
          for (; i < inner; i++) s += p[i];                                             \
          acc[k] += s;                                                                  \
        }                                                                               \
      }                                                                                 \
    }                                                                                   \
  }
BIAS_GRAD_(float)
BIAS_GRAD_(double)

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
  const int64_t blocks = outer < BIAS_GRAD_BLOCKS ? (outer > 0 ? outer : 1) : BIAS_GRAD_BLOCKS;
  bias_grad_task t = {mt_tensor_data(g), NULL, outer, c, inner, (outer + blocks - 1) / blocks};
  if (t.per_block < 1) t.per_block = 1;
  t.partial = mt_scratch((size_t)(blocks * c + 1) * sizeof(double), ctx->status);
  if (!t.partial) return;
  mt_parallel_for(ctx, blocks, t.per_block * c * inner,
                  g->dtype == TF_DOUBLE ? bias_grad_double : bias_grad_float, &t);
  for (int64_t k = 0; k < c; k++) {
    double s = 0;
    for (int64_t blk = 0; blk < blocks; blk++) s += t.partial[blk * c + k];
    if (g->dtype == TF_DOUBLE)
      ((double*)mt_tensor_data(out))[k] = s;
    else
      ((float*)mt_tensor_data(out))[k] = (float)s;
  }
  free(t.partial);
}

static void bias_add_grad_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[0];
  ctx->out[0].rank = 1;
  ctx->out[0].dims[0] = -1;
  if (in->rank >= 2)
    ctx->out[0].dims[0] = mt_is_nchw(ctx->op) ? in->dims[1] : in->dims[in->rank - 1];
}

/* ---- FusedBatchNormGrad, FusedBatchNormGradV2, FusedBatchNormGradV3 ----
 *
 * x and y_backprop viewed as [outer, C, inner] (NHWC: inner = 1; NCHW:
 * outer = N); N = outer * inner values per channel. Training mode
 * (reserve_space_1/2 = the batch mean and biased variance the forward
 * saved):
 *   x_backprop = scale / sqrt(var + eps) *
 *                (dy - sum(dy) / N - (x - mean) * sum(dy * (x - mean)) / (N * (var + eps)))
 * inference (reserve_space_1/2 = the population mean and variance):
 *   x_backprop = dy * scale / sqrt(var + eps);
 * both: scale_backprop = sum(dy * (x - mean)) / sqrt(var + eps),
 * offset_backprop = sum(dy). Channel sums are in double over BN_GRAD_BLOCKS
 * fixed blocks of rows added in order (the result does not depend on the
 * thread count). half/bfloat16 compute in float. */
#define BN_GRAD_BLOCKS 32

typedef struct bn_grad_task {
  const float *x, *dy, *scale, *mean, *var;
  float* dx;
  const float* k1; /* per channel: dx = k1 * dy + k2 * (x - mean) + k3 */
  const float* k2;
  const float* k3;
  double* partial; /* [blocks][2][c]: sum(dy), sum(dy * (x - mean)) */
  int64_t outer, c, inner, per_block;
  int infer; /* k2 = k3 = 0: dx = k1 * dy */
} bn_grad_task;

MT_SIMD_CLONES static void bn_grad_sums(int64_t b, int64_t e, void* arg) {
  const bn_grad_task* t = arg;
  const int64_t c = t->c, inner = t->inner;
  for (int64_t blk = b; blk < e; blk++) {
    double* sdy = t->partial + blk * 2 * c;
    double* sdx = sdy + c;
    for (int64_t j = 0; j < 2 * c; j++) sdy[j] = 0;
    const int64_t o1 = (blk + 1) * t->per_block < t->outer ? (blk + 1) * t->per_block : t->outer;
    for (int64_t o = blk * t->per_block; o < o1; o++) {
      const float* xr = t->x + o * c * inner;
      const float* dr = t->dy + o * c * inner;
      if (inner == 1) {
        for (int64_t j = 0; j < c; j++) {
          const double d = dr[j];
          sdy[j] += d;
          sdx[j] += d * ((double)xr[j] - t->mean[j]);
        }
      } else {
        for (int64_t j = 0; j < c; j++) {
          const double m = t->mean[j];
          double s = 0, q = 0;
          for (int64_t i = 0; i < inner; i++) {
            const double d = dr[j * inner + i];
            s += d;
            q += d * ((double)xr[j * inner + i] - m);
          }
          sdy[j] += s;
          sdx[j] += q;
        }
      }
    }
  }
}

MT_SIMD_CLONES static void bn_grad_apply(int64_t b, int64_t e, void* arg) {
  const bn_grad_task* t = arg;
  const int64_t c = t->c, inner = t->inner;
  for (int64_t o = b; o < e; o++) {
    const float* xr = t->x + o * c * inner;
    const float* dr = t->dy + o * c * inner;
    float* yr = t->dx + o * c * inner;
    if (t->infer && inner == 1) {
      for (int64_t j = 0; j < c; j++) yr[j] = t->k1[j] * dr[j];
    } else if (t->infer) {
      for (int64_t j = 0; j < c; j++)
        for (int64_t i = 0; i < inner; i++) yr[j * inner + i] = t->k1[j] * dr[j * inner + i];
    } else if (inner == 1) {
      for (int64_t j = 0; j < c; j++)
        yr[j] = t->k1[j] * dr[j] + t->k2[j] * (xr[j] - t->mean[j]) + t->k3[j];
    } else {
      for (int64_t j = 0; j < c; j++) {
        const float k1 = t->k1[j], k2 = t->k2[j], k3 = t->k3[j], m = t->mean[j];
        for (int64_t i = 0; i < inner; i++)
          yr[j * inner + i] = k1 * dr[j * inner + i] + k2 * (xr[j * inner + i] - m) + k3;
      }
    }
  }
}

/* A tensor's values as floats: its own data, or a converted copy (*owned). */
static const float* as_floats(mt_kernel_ctx* ctx, const TF_Tensor* t, float** owned) {
  *owned = NULL;
  if (t->dtype == TF_FLOAT) return mt_tensor_data(t);
  const int64_t n = mt_tensor_nelems(t);
  if (!(*owned = mt_scratch((size_t)n * sizeof(float), ctx->status))) return NULL;
  mt_to_float(t->dtype, mt_tensor_data(t), *owned, n);
  return *owned;
}

static int bn_grad_check_vec(mt_kernel_ctx* ctx, int idx, const char* what, int64_t c) {
  const TF_Tensor* v = ctx->inputs[idx];
  char b[256];
  if (v->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s must be 1-dimensional%s", what,
                   mt_dims_str(v->dims, v->ndims, b, sizeof b));
    return 0;
  }
  if (v->dims[0] != c) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "%s must have the same number of elements as the channels of x, got %lld "
                   "and %lld", what, (long long)v->dims[0], (long long)c);
    return 0;
  }
  return 1;
}

/* Shape checks; sets the [outer, C, inner] view. */
static int bn_grad_setup(mt_kernel_ctx* ctx, int64_t* outer, int64_t* c, int64_t* inner) {
  const TF_Tensor* dy = ctx->inputs[0];
  const TF_Tensor* x = ctx->inputs[1];
  const char* fmt = mt_op_attr_str(ctx->op, "data_format", "NHWC");
  const int rank = strcmp(fmt, "NDHWC") == 0 || strcmp(fmt, "NCDHW") == 0 ? 5 : 4;
  char a[256], b[256];
  if (x->ndims != rank || dy->ndims != rank) {
    const TF_Tensor* bad = dy->ndims != rank ? dy : x;
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "input must be %d-dimensional%s", rank,
                   mt_dims_str(bad->dims, bad->ndims, a, sizeof a));
    return 0;
  }
  if (memcmp(x->dims, dy->dims, sizeof(int64_t) * (size_t)rank) != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "x and y_backprop must have same shape, but x has shape %s and y_backprop "
                   "has shape %s", mt_dims_str(x->dims, rank, a, sizeof a),
                   mt_dims_str(dy->dims, rank, b, sizeof b));
    return 0;
  }
  const int cdim = strcmp(fmt, "NCHW") == 0 || strcmp(fmt, "NCDHW") == 0 ? 1 : rank - 1;
  *c = x->dims[cdim];
  if (!bn_grad_check_vec(ctx, 2, "scale", *c) ||
      !bn_grad_check_vec(ctx, 3, "reserve_space_1", *c) ||
      !bn_grad_check_vec(ctx, 4, "reserve_space_2", *c))
    return 0;
  *outer = 1;
  *inner = 1;
  for (int d = 0; d < cdim; d++) *outer *= x->dims[d];
  for (int d = cdim + 1; d < rank; d++) *inner *= x->dims[d];
  return 1;
}

static void fused_batch_norm_grad_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[1];
  if (x->dtype != TF_FLOAT && !mt_is_half_type(x->dtype)) {
    mt_kernel_unsupported(ctx, "T", x->dtype);
    return;
  }
  int64_t outer, c, inner;
  if (!bn_grad_setup(ctx, &outer, &c, &inner)) return;
  const int training = mt_op_attr_bool(ctx->op, "is_training", 1);
  const double eps = mt_op_attr_float(ctx->op, "epsilon", 1e-4f);
  TF_Tensor* dx = mt_ctx_alloc(ctx, 0, x->dtype, x->dims, x->ndims);
  TF_Tensor* ds = dx ? mt_ctx_alloc(ctx, 1, TF_FLOAT, &c, 1) : NULL;
  TF_Tensor* doff = ds ? mt_ctx_alloc(ctx, 2, TF_FLOAT, &c, 1) : NULL;
  const int64_t zero = 0;
  if (!doff || !mt_ctx_alloc(ctx, 3, TF_FLOAT, &zero, 1) || !mt_ctx_alloc(ctx, 4, TF_FLOAT, &zero, 1))
    return;
  const int64_t n = outer * inner * c, count = outer * inner;
  const int64_t blocks = outer < BN_GRAD_BLOCKS ? (outer > 0 ? outer : 1) : BN_GRAD_BLOCKS;
  float *xo = NULL, *dyo = NULL, *dxo = NULL;
  float* k = mt_scratch((size_t)(3 * c + 1) * sizeof(float), ctx->status);
  double* partial = k ? mt_scratch((size_t)(blocks * 2 * c + 1) * sizeof(double), ctx->status)
                      : NULL;
  const float* xf = partial ? as_floats(ctx, x, &xo) : NULL;
  const float* dyf = xf ? as_floats(ctx, ctx->inputs[0], &dyo) : NULL;
  float* dxf = !dyf ? NULL
               : x->dtype == TF_FLOAT ? mt_tensor_data(dx)
                                      : (dxo = mt_scratch((size_t)(n + 1) * sizeof(float),
                                                          ctx->status));
  if (!dxf) goto done;
  bn_grad_task t = {xf, dyf, mt_tensor_data(ctx->inputs[2]), mt_tensor_data(ctx->inputs[3]),
                    mt_tensor_data(ctx->inputs[4]), dxf, k, k + c, k + 2 * c, partial,
                    outer, c, inner, (outer + blocks - 1) / blocks, !training};
  if (t.per_block < 1) t.per_block = 1;
  mt_parallel_for(ctx, blocks, t.per_block * c * inner * 4, bn_grad_sums, &t);
  float* dsv = mt_tensor_data(ds);
  float* dov = mt_tensor_data(doff);
  for (int64_t j = 0; j < c; j++) {
    double sdy = 0, sdx = 0;
    for (int64_t b = 0; b < blocks; b++) {
      sdy += partial[b * 2 * c + j];
      sdx += partial[b * 2 * c + c + j];
    }
    const double ve = (double)t.var[j] + eps, inv = 1 / sqrt(ve), s = t.scale[j];
    dsv[j] = (float)(sdx * inv);
    dov[j] = (float)sdy;
    if (training && count > 0) {
      k[j] = (float)(s * inv);
      k[c + j] = (float)(-s * inv * sdx / ((double)count * ve));
      k[2 * c + j] = (float)(-s * inv * sdy / (double)count);
    } else {
      k[j] = (float)(s * inv);
      k[c + j] = 0;
      k[2 * c + j] = 0;
    }
  }
  if (n > 0) {
    mt_parallel_for(ctx, outer, c * inner * 4, bn_grad_apply, &t);
    if (dxo) mt_from_float(x->dtype, dxo, mt_tensor_data(dx), n);
  }
done:
  free(xo);
  free(dyo);
  free(dxo);
  free(partial);
  free(k);
}

/* TensorFlow's FusedBatchNormGradShape. */
static void fused_batch_norm_grad_shape(mt_shape_ctx* ctx) {
  const char* fmt = mt_op_attr_str(ctx->op, "data_format", "NHWC");
  const int rank = strcmp(fmt, "NDHWC") == 0 || strcmp(fmt, "NCDHW") == 0 ? 5 : 4;
  const int cdim = strcmp(fmt, "NCHW") == 0 || strcmp(fmt, "NCDHW") == 0 ? 1 : rank - 1;
  if (!mt_shape_with_rank(ctx, 0, rank) || !mt_shape_with_rank(ctx, 1, rank)) return;
  int64_t c = ctx->in[0].rank == rank ? ctx->in[0].dims[cdim] : -1;
  if (ctx->in[1].rank == rank && !mt_merge_dim(ctx, c, ctx->in[1].dims[cdim], &c)) return;
  for (int i = 2; i < 5; i++) {
    if (!mt_shape_with_rank(ctx, i, 1)) return;
    if (ctx->in[i].rank == 1 && !mt_merge_dim(ctx, c, ctx->in[i].dims[0], &c)) return;
  }
  if (ctx->in[0].rank == rank) {
    ctx->out[0] = ctx->in[0];
    ctx->out[0].dims[cdim] = c;
  } else {
    ctx->out[0].rank = rank;
    for (int d = 0; d < rank; d++) ctx->out[0].dims[d] = d == cdim ? c : -1;
  }
  const int64_t zero = 0;
  ctx->out[1] = mt_shape_make(&c, 1);
  ctx->out[2] = mt_shape_make(&c, 1);
  ctx->out[3] = mt_shape_make(&zero, 1);
  ctx->out[4] = mt_shape_make(&zero, 1);
}

/* ---- LRNGrad ----
 *
 * TensorFlow's CPU formula, per pixel along the depth: with the window
 * W(j) = [j - r, j + r] inside the depth, N_j = bias + alpha * sum over W(j)
 * of x^2, y = LRN(x) and g the incoming gradient,
 *   dx_k = g_k * N_k^-beta - 2 alpha beta x_k * sum over j in W(k) of g_j y_j / N_j
 * (the window is symmetric: the j whose window holds k are W(k)). A channel
 * whose g is 0 contributes nothing (TensorFlow skips it), so dx_k is 0 when
 * no g in W(k) is nonzero, whatever x_k is. Double sums, float result. */
typedef struct lrn_grad_task {
  const float *g, *x, *y;
  float* dx;
  int64_t depth, radius;
  double bias, alpha, beta;
  atomic_int oom;
} lrn_grad_task;

static void lrn_grad_rows(int64_t begin, int64_t end, void* arg) {
  lrn_grad_task* t = arg;
  const int64_t dep = t->depth, r = t->radius;
  double* tj = malloc((size_t)(2 * dep + 1) * sizeof(double));
  if (!tj) {
    atomic_store(&t->oom, 1);
    return;
  }
  double* pw = tj + dep;
  for (int64_t p = begin; p < end; p++) {
    const float *g = t->g + p * dep, *x = t->x + p * dep, *y = t->y + p * dep;
    float* dx = t->dx + p * dep;
    for (int64_t j = 0; j < dep; j++) {
      tj[j] = pw[j] = 0;
      if (g[j] == 0) continue;
      const int64_t lo = j - r < 0 ? 0 : j - r, hi = j + r + 1 > dep ? dep : j + r + 1;
      double s = 0;
      for (int64_t k = lo; k < hi; k++) s += (double)x[k] * x[k];
      const double norm = t->bias + t->alpha * s;
      pw[j] = g[j] * pow(norm, -t->beta);
      tj[j] = g[j] * (double)y[j] / norm;
    }
    for (int64_t k = 0; k < dep; k++) {
      const int64_t lo = k - r < 0 ? 0 : k - r, hi = k + r + 1 > dep ? dep : k + r + 1;
      double s = 0;
      int any = 0;
      for (int64_t j = lo; j < hi; j++)
        if (g[j] != 0) s += tj[j], any = 1;
      dx[k] = any ? (float)(pw[k] - 2 * t->alpha * t->beta * x[k] * s) : 0.0f;
    }
  }
  free(tj);
}

static void lrn_grad_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor *g = ctx->inputs[0], *x = ctx->inputs[1], *y = ctx->inputs[2];
  const int64_t radius = mt_op_attr_int(ctx->op, "depth_radius", 5);
  if (radius > INT_MAX || radius < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "depth_radius = %lld larger than int max",
                   (long long)radius);
    return;
  }
  if (g->dtype != TF_FLOAT && g->dtype != TF_HALF) { /* TensorFlow's CPU kernels */
    mt_kernel_unsupported(ctx, "T", g->dtype);
    return;
  }
  if (g->ndims != 4 || x->ndims != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "inputs must be 4-dimensional");
    return;
  }
  if (!same_dims(g, x) || !same_dims(g, y)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "input_grads, input_image, and out_image should have the same shape");
    return;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, g->dtype, g->dims, 4);
  const int64_t n = mt_tensor_nelems(g), depth = g->dims[3];
  if (!out || n == 0) return;
  float *go = NULL, *xo = NULL, *yo = NULL, *oo = NULL;
  lrn_grad_task t = {as_floats(ctx, g, &go)};
  t.x = t.g ? as_floats(ctx, x, &xo) : NULL;
  t.y = t.x ? as_floats(ctx, y, &yo) : NULL;
  t.dx = !t.y ? NULL
         : g->dtype == TF_FLOAT ? mt_tensor_data(out)
                                : (oo = mt_scratch((size_t)n * sizeof(float), ctx->status));
  if (t.dx) {
    t.depth = depth;
    t.radius = radius;
    t.bias = mt_op_attr_float(ctx->op, "bias", 1.0f);
    t.alpha = mt_op_attr_float(ctx->op, "alpha", 1.0f);
    t.beta = mt_op_attr_float(ctx->op, "beta", 0.5f);
    atomic_init(&t.oom, 0);
    const int64_t w = 2 * (radius < depth ? radius : depth) + 1;
    mt_parallel_for(ctx, n / depth, depth * (2 * w + 8), lrn_grad_rows, &t);
    if (atomic_load(&t.oom))
      mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM in LRNGrad");
    else if (oo)
      mt_from_float(g->dtype, oo, mt_tensor_data(out), n);
  }
  free(go);
  free(xo);
  free(yo);
  free(oo);
}

/* TensorFlow's LRNGrad shape: rank 4, the three inputs merged. */
static void lrn_grad_shape(mt_shape_ctx* ctx) {
  mt_shape s;
  if (!mt_shape_with_rank(ctx, 0, 4) || !mt_merge_shape(ctx, &ctx->in[0], &ctx->in[1], &s) ||
      !mt_merge_shape(ctx, &s, &ctx->in[2], &s))
    return;
  if (s.rank < 0) {
    s.rank = 4;
    for (int d = 0; d < 4; d++) s.dims[d] = -1;
  }
  ctx->out[0] = s;
}

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
    {.name = "FusedBatchNormGrad",
     .inputs = "y_backprop: T, x: T, scale: T, reserve_space_1: T, reserve_space_2: T",
     .outputs = "x_backprop: T, scale_backprop: T, offset_backprop: T, reserve_space_3: T,"
                " reserve_space_4: T",
     .attrs = "T: {float}; epsilon: float = 0.0001; data_format: {'NHWC', 'NCHW'} = 'NHWC';"
              " is_training: bool = true",
     .shape = fused_batch_norm_grad_shape, .kernel = fused_batch_norm_grad_kernel},
    {.name = "FusedBatchNormGradV2",
     .inputs = "y_backprop: T, x: T, scale: float, reserve_space_1: U, reserve_space_2: U",
     .outputs = "x_backprop: T, scale_backprop: U, offset_backprop: U, reserve_space_3: U,"
                " reserve_space_4: U",
     .attrs = "T: {half, bfloat16, float}; U: {float}; epsilon: float = 0.0001;"
              " data_format: {'NHWC', 'NCHW'} = 'NHWC'; is_training: bool = true",
     .shape = fused_batch_norm_grad_shape, .kernel = fused_batch_norm_grad_kernel},
    {.name = "FusedBatchNormGradV3",
     .inputs = "y_backprop: T, x: T, scale: float, reserve_space_1: U, reserve_space_2: U,"
               " reserve_space_3: U",
     .outputs = "x_backprop: T, scale_backprop: U, offset_backprop: U, reserve_space_4: U,"
                " reserve_space_5: U",
     .attrs = "T: {half, bfloat16, float}; U: {float}; epsilon: float = 0.0001;"
              " data_format: {'NHWC', 'NCHW', 'NDHWC', 'NCDHW'} = 'NHWC';"
              " is_training: bool = true",
     .shape = fused_batch_norm_grad_shape, .kernel = fused_batch_norm_grad_kernel},
    {.name = "LRNGrad", .inputs = "input_grads: T, input_image: T, output_image: T",
     .outputs = "output: T",
     .attrs = "depth_radius: int = 5; bias: float = 1; alpha: float = 1; beta: float = 0.5;"
              " T: {half, bfloat16, float} = DT_FLOAT",
     .shape = lrn_grad_shape, .kernel = lrn_grad_kernel},
};

void mt_register_backprop_ops(void) {
  mt_register_ops(backprop_specs, (int)(sizeof backprop_specs / sizeof backprop_specs[0]));
}
