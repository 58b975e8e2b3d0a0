/* Neural-network ops: BiasAdd, Relu, Softmax. Signatures and CPU dtypes
 * are TensorFlow's (nn_ops.cc, bias_op.cc, relu_op.cc, softmax_op.cc). */
#include <math.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"

/* ---- BiasAdd ---- */

/* value viewed as [outer, C, inner]: NHWC has inner = 1 (C last), NCHW has
 * C at dim 1. */
typedef void (*bias_fn)(const void* x, const void* b, void* y, int64_t outer, int64_t c,
                        int64_t inner);
#define BIAS_LOOP_(DT, CT, unused)                                                      \
  static void bias_##CT(const void* xv, const void* bv, void* yv, int64_t outer,       \
                        int64_t c, int64_t inner) {                                    \
    typedef mt_wide_##CT W;                                                             \
    const CT* x = xv;                                                                   \
    const CT* b = bv;                                                                   \
    CT* y = yv;                                                                         \
    for (int64_t o = 0; o < outer; o++)                                                 \
      for (int64_t j = 0; j < c; j++) {                                                 \
        const W bj = (W)b[j];                                                           \
        const int64_t base = (o * c + j) * inner;                                       \
        for (int64_t i = 0; i < inner; i++) y[base + i] = (CT)((W)x[base + i] + bj);    \
      }                                                                                 \
  }
MT_REAL_TYPES(BIAS_LOOP_, 0)
static const bias_fn bias_fns[MT_NUM_DTYPES] = {MT_ENTRIES(bias, MT_REAL_TYPES)};

static int nchw(const TF_Operation* op) {
  return strcmp(mt_op_attr_str(op, "data_format", "NHWC"), "NCHW") == 0;
}

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
  fn(mt_tensor_data(x), mt_tensor_data(b), mt_tensor_data(y), outer, c, inner);
}

/* ---- Relu ---- */

/* `x < 0 ? 0 : x` keeps NaN and -0.0 as TensorFlow does. */
MT_UNARY_LOOPS(relu_s, MT_SIGNED_TYPES, x < 0 ? (T)0 : x)
MT_UNARY_LOOPS(relu_u, MT_UINT_TYPES, x)
static const mt_unary_fn relu_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(relu_s, MT_SIGNED_TYPES) MT_ENTRIES(relu_u, MT_UINT_TYPES)};
MT_UNARY_KERNEL(relu, relu_fns, NULL)

/* ---- Softmax ---- */

/* Rows of the last axis: exp(x - max) / sum, numerically stable. */
#define SOFTMAX_ROWS_(DT, CT, EXP)                                                      \
  static void softmax_##CT(const CT* x, CT* y, int64_t begin, int64_t end, int64_t k) { \
    for (int64_t r = begin; r < end; r++) {                                             \
      const CT* xr = x + r * k;                                                         \
      CT* yr = y + r * k;                                                               \
      CT mx = xr[0];                                                                    \
      for (int64_t i = 1; i < k; i++)                                                   \
        if (xr[i] > mx) mx = xr[i];                                                     \
      double sum = 0;                                                                   \
      for (int64_t i = 0; i < k; i++) {                                                 \
        yr[i] = EXP(xr[i] - mx);                                                        \
        sum += yr[i];                                                                   \
      }                                                                                 \
      const CT inv = (CT)(1.0 / sum);                                                   \
      for (int64_t i = 0; i < k; i++) yr[i] *= inv;                                     \
    }                                                                                   \
  }
SOFTMAX_ROWS_(TF_FLOAT, float, expf)
SOFTMAX_ROWS_(TF_DOUBLE, double, exp)

typedef struct softmax_task {
  const TF_Tensor* x;
  TF_Tensor* y;
  int64_t k;
} softmax_task;

static void softmax_task_run(int64_t begin, int64_t end, void* arg) {
  softmax_task* t = arg;
  if (t->x->dtype == TF_FLOAT)
    softmax_float(mt_tensor_data(t->x), mt_tensor_data(t->y), begin, end, t->k);
  else
    softmax_double(mt_tensor_data(t->x), mt_tensor_data(t->y), begin, end, t->k);
}

static void softmax_shape(mt_shape_ctx* ctx) {
  if (mt_shape_with_rank_at_least(ctx, 0, 1)) ctx->out[0] = ctx->in[0];
}

static void softmax_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  char buf[256];
  if (x->ndims < 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "logits must have >= 1 dimension, got %s",
                   mt_dims_str(x->dims, x->ndims, buf, sizeof buf));
    return;
  }
  if (x->dtype != TF_FLOAT && x->dtype != TF_DOUBLE) {
    mt_kernel_unsupported(ctx, "T", x->dtype);
    return;
  }
  /* Rows are read fully (max) before being written, so in place is safe. */
  TF_Tensor* y = mt_ctx_forward(ctx, 0, 0, x->dtype, x->dims, x->ndims);
  const int64_t n = mt_tensor_nelems(x), k = x->dims[x->ndims - 1];
  if (!y || n == 0 || k == 0) return;
  softmax_task t = {x, y, k};
  mt_parallel_for(ctx, n / k, k * 4, softmax_task_run, &t);
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
    {.name = "Softmax", .inputs = "logits: T", .outputs = "softmax: T",
     .attrs = "T: {half, bfloat16, float, double}",
     .shape = softmax_shape, .kernel = softmax_kernel},
};

void mt_register_nn_ops(void) {
  mt_register_ops(nn_specs, (int)(sizeof nn_specs / sizeof nn_specs[0]));
}
