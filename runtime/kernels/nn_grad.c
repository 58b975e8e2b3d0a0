/* Gradients of the nn family (runtime/gradient.h), node for node as TensorFlow 2.21's
 * nn_grad.py: Relu, BiasAdd, the activations, softmax, the softmax cross entropies,
 * FusedBatchNorm(V2, V3), LRN, TopKV2 and the second derivatives of the gradient kernels
 * (FusedBatchNormGrad* by differentiating batch norm's backward pass built of primitive ops,
 * as TensorFlow's _FusedBatchNormGradGrad does with a GradientTape). */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/grad_util.h"
#include "runtime/status.h"

#include <stdio.h>
#include <string.h>

static void relu_grad(mt_grad_ctx* g) {
  g->dx[0] = mt_g_binary(g, "ReluGrad", g->dy[0], mt_g_y(g, 0));
}

static void bias_add_grad(mt_grad_ctx* g) {
  g->dx[0] = g->dy[0];
  mt_gnode n = mt_g_begin(g, "BiasAddGrad", NULL);
  mt_g_in(&n, g->dy[0]);
  mt_g_copy_attr(&n, "data_format");
  g->dx[1] = mt_g_end0(&n);
}

/* TensorFlow's _BroadcastMul: vec[:, None] * mat. */
static TF_Output broadcast_mul(mt_grad_ctx* g, TF_Output vec, TF_Output mat) {
  mt_gnode e = mt_g_begin(g, "ExpandDims", NULL);
  mt_g_in(&e, vec);
  int32_t last = -1;
  mt_g_in_const_i32(&e, "dim", &last, 1, 0);
  TF_Output col = mt_g_end0(&e);
  mt_gnode m = mt_g_begin(g, "Mul", "mul");
  mt_g_in(&m, col);
  mt_g_in(&m, mat);
  return mt_g_end0(&m);
}

static TF_Output sum_last_keep(mt_grad_ctx* g, TF_Output x);
static TF_Output named2(mt_grad_ctx* g, const char* type, const char* name, TF_Output a,
                        TF_Output b);

/* The loss's gradient times the op's own backprop output; a gradient flowing into that
 * backprop output (grad_grad) adds (grad_grad - <grad_grad, softmax>) * softmax, as
 * TensorFlow (which writes the inner product as a batched MatMul). */
static TF_Output xent_logits_grad(mt_grad_ctx* g) {
  TF_Output grad = broadcast_mul(g, g->dy[0], mt_g_y(g, 1));
  if (mt_g_is_zeros(g->dy[1])) return grad;
  TF_Output sm = mt_g_unary(g, "Softmax", mt_g_x(g, 0));
  TF_Output inner = sum_last_keep(g, named2(g, "Mul", "mul", g->dy[1], sm));
  TF_Output term = named2(g, "Mul", "mul", named2(g, "Sub", "sub", g->dy[1], inner), sm);
  return named2(g, "AddV2", "add", grad, term);
}

static void sparse_xent_grad(mt_grad_ctx* g) { g->dx[0] = xent_logits_grad(g); }

static void xent_grad(mt_grad_ctx* g) {
  g->dx[0] = xent_logits_grad(g);
  TF_Output log_softmax = mt_g_unary(g, "LogSoftmax", mt_g_x(g, 0));
  g->dx[1] = broadcast_mul(g, g->dy[0], mt_g_unary(g, "Neg", log_softmax));
}

/* kernel(grad, the op's input) or kernel(grad, the op's output). */
static void act_grad(mt_grad_ctx* g, const char* kernel, int from_output) {
  mt_gnode n = mt_g_begin(g, kernel, NULL);
  mt_g_in(&n, g->dy[0]);
  mt_g_in(&n, from_output ? mt_g_y(g, 0) : mt_g_x(g, 0));
  if (strcmp(kernel, "LeakyReluGrad") == 0) mt_g_copy_attr(&n, "alpha");
  g->dx[0] = mt_g_end0(&n);
}
static void relu6_grad(mt_grad_ctx* g) { act_grad(g, "Relu6Grad", 0); }
static void leaky_relu_grad(mt_grad_ctx* g) { act_grad(g, "LeakyReluGrad", 0); }
static void elu_grad(mt_grad_ctx* g) { act_grad(g, "EluGrad", 1); }
static void selu_grad(mt_grad_ctx* g) { act_grad(g, "SeluGrad", 1); }
/* As TensorFlow: grad * sigmoid(x) (not the SoftplusGrad kernel), so higher derivatives go
 * through Sigmoid's gradient and the graph's nodes match TF's. */
static void softplus_grad(mt_grad_ctx* g) {
  g->dx[0] = named2(g, "Mul", "mul", g->dy[0], mt_g_unary(g, "Sigmoid", mt_g_x(g, 0)));
}
static void softsign_grad(mt_grad_ctx* g) { act_grad(g, "SoftsignGrad", 0); }

static TF_Output sum_last_keep(mt_grad_ctx* g, TF_Output x) {
  mt_gnode n = mt_g_begin(g, "Sum", NULL);
  mt_g_in(&n, x);
  int32_t last = -1;
  mt_g_in_const_i32(&n, "reduction_indices", &last, 1, 1);
  mt_g_attr_bool(&n, "keep_dims", 1);
  return mt_g_end0(&n);
}

static TF_Output named2(mt_grad_ctx* g, const char* type, const char* name, TF_Output a,
                        TF_Output b) {
  mt_gnode n = mt_g_begin(g, type, name);
  mt_g_in(&n, a);
  mt_g_in(&n, b);
  return mt_g_end0(&n);
}

/* TensorFlow's _SoftmaxGrad: (grad - sum(grad * softmax, -1)) * softmax. */
static void softmax_grad(mt_grad_ctx* g) {
  TF_Output sm = mt_g_y(g, 0), grad = g->dy[0];
  TF_Output sum = sum_last_keep(g, named2(g, "Mul", "mul", grad, sm));
  g->dx[0] = named2(g, "Mul", "mul", named2(g, "Sub", "sub", grad, sum), sm);
}

/* TensorFlow's _LogSoftmaxGrad: grad - sum(grad, -1) * exp(log_softmax). */
static void log_softmax_grad(mt_grad_ctx* g) {
  TF_Output grad = g->dy[0];
  TF_Output sm = mt_g_unary(g, "Exp", mt_g_y(g, 0));
  g->dx[0] = named2(g, "Sub", "sub", grad, named2(g, "Mul", "mul", sum_last_keep(g, grad), sm));
}

static void l2_loss_grad(mt_grad_ctx* g) {
  g->dx[0] = named2(g, "Mul", "mul", mt_g_x(g, 0), g->dy[0]);
}

/* ---- batch norm ---- */

static TF_Output transpose(mt_grad_ctx* g, TF_Output x, const int32_t* perm, int rank) {
  mt_gnode n = mt_g_begin(g, "Transpose", "transpose");
  mt_g_in(&n, x);
  mt_g_in_const_i32(&n, "perm", perm, rank, 1);
  return mt_g_end0(&n);
}

/* TensorFlow's _BaseFusedBatchNormGrad: training uses the batch statistics the forward
 * saved (reserve_space_1/2); inference the population ones (mean, variance inputs), with
 * NCHW/NCDHW data transposed to channels-last around the gradient op. Only y's gradient
 * flows back; mean and variance get none. */
static void fused_batch_norm_grad(mt_grad_ctx* g, const char* kernel, int v3) {
  const int training = mt_op_attr_bool(g->op, "is_training", 1);
  const char* fmt = mt_op_attr_str(g->op, "data_format", "NHWC");
  const int cf4 = strcmp(fmt, "NCHW") == 0, cf5 = strcmp(fmt, "NCDHW") == 0;
  TF_Output x = mt_g_x(g, 0), dy = g->dy[0];
  static const int32_t to_last4[] = {0, 2, 3, 1}, to_last5[] = {0, 2, 3, 4, 1};
  static const int32_t to_first4[] = {0, 3, 1, 2}, to_first5[] = {0, 4, 1, 2, 3};
  if (!training && (cf4 || cf5)) {
    x = transpose(g, x, cf4 ? to_last4 : to_last5, cf4 ? 4 : 5);
    dy = transpose(g, dy, cf4 ? to_last4 : to_last5, cf4 ? 4 : 5);
  }
  mt_gnode n = mt_g_begin(g, kernel, NULL);
  mt_g_in(&n, dy);
  mt_g_in(&n, x);
  mt_g_in(&n, mt_g_x(g, 1));
  mt_g_in(&n, training ? mt_g_y(g, 3) : mt_g_x(g, 3));
  mt_g_in(&n, training ? mt_g_y(g, 4) : mt_g_x(g, 4));
  if (v3) mt_g_in(&n, mt_g_y(g, 5));
  mt_g_copy_attr(&n, "epsilon");
  if (!training && (cf4 || cf5 || strcmp(fmt, "NDHWC") == 0))
    mt_g_attr_str(&n, "data_format", cf4 ? "NHWC" : "NDHWC");
  else
    mt_g_copy_attr(&n, "data_format");
  mt_g_copy_attr(&n, "is_training");
  TF_Operation* op = mt_g_end(&n);
  if (!op) return;
  g->dx[0] = (TF_Output){op, 0};
  g->dx[1] = (TF_Output){op, 1};
  g->dx[2] = (TF_Output){op, 2};
  if (!training && (cf4 || cf5))
    g->dx[0] = transpose(g, g->dx[0], cf4 ? to_first4 : to_first5, cf4 ? 4 : 5);
}

static void fused_bn_grad(mt_grad_ctx* g) { fused_batch_norm_grad(g, "FusedBatchNormGrad", 0); }
static void fused_bn_v2_grad(mt_grad_ctx* g) {
  fused_batch_norm_grad(g, "FusedBatchNormGradV2", 0);
}
static void fused_bn_v3_grad(mt_grad_ctx* g) {
  fused_batch_norm_grad(g, "FusedBatchNormGradV3", 1);
}

static void lrn_grad(mt_grad_ctx* g) {
  mt_gnode n = mt_g_begin(g, "LRNGrad", NULL);
  mt_g_in(&n, g->dy[0]);
  mt_g_in(&n, mt_g_x(g, 0));
  mt_g_in(&n, mt_g_y(g, 0));
  mt_g_copy_attr(&n, "depth_radius");
  mt_g_copy_attr(&n, "bias");
  mt_g_copy_attr(&n, "alpha");
  mt_g_copy_attr(&n, "beta");
  g->dx[0] = mt_g_end0(&n);
}

/* ---- TopKV2: TensorFlow's _TopKGrad, node for node ---- */

static TF_Output cast_to(mt_grad_ctx* g, TF_Output x, TF_DataType dt) {
  mt_gnode n = mt_g_begin(g, "Cast", NULL);
  mt_g_in(&n, x);
  mt_g_attr_type(&n, "DstT", dt);
  return mt_g_end0(&n);
}

/* array_ops.size of a shape vector: a Const when its length is known. */
static TF_Output size_of(mt_grad_ctx* g, TF_Output shape) {
  const mt_shape* s = mt_g_static_shape(shape);
  if (s->rank == 1 && s->dims[0] >= 0) {
    int32_t n = (int32_t)s->dims[0];
    return mt_g_const_i32(g, &n, 1, 0, "Size");
  }
  mt_gnode n = mt_g_begin(g, "Size", NULL);
  mt_g_in(&n, shape);
  mt_g_attr_type(&n, "out_type", TF_INT32);
  return mt_g_end0(&n);
}

/* The last element of an int64 shape vector: gather(shape, size(shape) - 1). */
static TF_Output last_dim(mt_grad_ctx* g, TF_Output shape64, TF_Output shape) {
  TF_Output size = size_of(g, shape);
  mt_gnode s = mt_g_begin(g, "Sub", "sub");
  mt_g_in(&s, size);
  const int32_t one = 1, zero = 0;
  mt_g_in_const_i32(&s, "y", &one, 1, 0);
  TF_Output last = mt_g_end0(&s);
  mt_gnode gv = mt_g_begin(g, "GatherV2", NULL);
  mt_g_in(&gv, shape64);
  mt_g_in(&gv, last);
  mt_g_in_const_i32(&gv, "axis", &zero, 1, 0);
  mt_g_attr_int(&gv, "batch_dims", 0);
  return mt_g_end0(&gv);
}

/* A scalar Const named "<node's name>/<suffix>" (the constants TensorFlow's Python makes
 * inside an op's name scope). */
static TF_Output scoped_const(mt_grad_ctx* g, const mt_gnode* n, const char* suffix,
                              TF_DataType dt, double v) {
  char name[512];
  snprintf(name, sizeof name, "%s/%s", n->d ? n->d->name + strlen(g->scope) : "x", suffix);
  return mt_g_const(g, dt, NULL, 0, &v, name);
}

static TF_Output reshape_flat(mt_grad_ctx* g, TF_Output x) {
  mt_gnode r = mt_g_begin(g, "Reshape", NULL);
  mt_g_in(&r, x);
  const int32_t minus1 = -1;
  mt_g_in_const_i32(&r, "shape", &minus1, 1, 1);
  return mt_g_end0(&r);
}

static TF_Output expand_last(mt_grad_ctx* g, TF_Output x) {
  mt_gnode e = mt_g_begin(g, "ExpandDims", NULL);
  mt_g_in(&e, x);
  const int32_t minus1 = -1;
  mt_g_in_const_i32(&e, "dim", &minus1, 1, 0);
  return mt_g_end0(&e);
}

/* The gradient scattered to the positions the indices name in the flattened input:
 * linear index = indices[row, j] + row * last_dim(input), via ScatterNd. */
static void top_k_grad(mt_grad_ctx* g) {
  TF_Output in_shape = mt_g_shape(g, mt_g_x(g, 0));
  TF_Output ind_shape = mt_g_shape(g, mt_g_y(g, 1));
  TF_Output ind_last = last_dim(g, cast_to(g, ind_shape, TF_INT64), ind_shape);
  mt_gnode st = mt_g_begin(g, "Pack", "stack");
  TF_Output both[2] = {scoped_const(g, &st, "0", TF_INT64, -1), ind_last};
  mt_g_in_list(&st, both, 2);
  mt_g_attr_int(&st, "axis", 0);
  TF_Output ind_2d = mt_g_binary(g, "Reshape", mt_g_y(g, 1), mt_g_end0(&st));
  TF_Output in_last = last_dim(g, cast_to(g, in_shape, TF_INT64), in_shape);
  /* outerdim = shape(ind_2d)[0] */
  TF_Output ind_2d_shape = mt_g_shape(g, ind_2d);
  mt_gnode ss = mt_g_begin(g, "StridedSlice", "strided_slice");
  mt_g_in(&ss, ind_2d_shape);
  const int32_t zero = 0, one = 1;
  mt_g_in_const_i32(&ss, "stack", &zero, 1, 1);
  mt_g_in_const_i32(&ss, "stack_1", &one, 1, 1);
  mt_g_in_const_i32(&ss, "stack_2", &one, 1, 1);
  mt_g_attr_int(&ss, "shrink_axis_mask", 1);
  TF_Output outer = cast_to(g, mt_g_end0(&ss), TF_INT64);
  mt_gnode m = mt_g_begin(g, "Mul", "mul");
  mt_g_in(&m, outer);
  mt_g_in(&m, in_last);
  TF_Output limit = mt_g_end0(&m);
  /* range(0, outerdim * in_lastdim, in_lastdim): range/start, range/Cast, range */
  mt_gnode r = mt_g_begin(g, "Range", "range");
  char name[512];
  snprintf(name, sizeof name, "%s/Cast", r.d ? r.d->name + strlen(g->scope) : "range");
  TF_Output start = scoped_const(g, &r, "start", TF_INT32, 0);
  mt_gnode c = mt_g_begin(g, "Cast", name);
  mt_g_in(&c, start);
  mt_g_attr_type(&c, "DstT", TF_INT64);
  mt_g_in(&r, mt_g_end0(&c));
  mt_g_in(&r, limit);
  mt_g_in(&r, in_last);
  TF_Output offsets = cast_to(g, expand_last(g, mt_g_end0(&r)), TF_INT32);
  mt_gnode a = mt_g_begin(g, "AddV2", "add");
  mt_g_in(&a, ind_2d);
  mt_g_in(&a, offsets);
  TF_Output ind = reshape_flat(g, mt_g_end0(&a));
  TF_Output indices = expand_last(g, ind);
  TF_Output updates = reshape_flat(g, g->dy[0]);
  const int32_t axis0 = 0;
  TF_Output all = mt_g_const_i32(g, &axis0, 1, 1, "Const");
  mt_gnode p = mt_g_begin(g, "Prod", NULL);
  mt_g_in(&p, in_shape);
  mt_g_in(&p, all);
  mt_g_attr_bool(&p, "keep_dims", 0);
  TF_Output total = mt_g_end0(&p);
  mt_gnode sc = mt_g_begin(g, "ScatterNd", NULL);
  snprintf(name, sizeof name, "%s/shape", sc.d ? sc.d->name + strlen(g->scope) : "ScatterNd");
  mt_gnode pk = mt_g_begin(g, "Pack", name);
  mt_g_in_list(&pk, &total, 1);
  mt_g_attr_int(&pk, "axis", 0);
  TF_Output dense_shape = mt_g_end0(&pk);
  mt_g_in(&sc, indices);
  mt_g_in(&sc, updates);
  mt_g_in(&sc, dense_shape);
  g->dx[0] = mt_g_binary(g, "Reshape", mt_g_end0(&sc), in_shape);
  const double z = 0;
  g->dx[1] = mt_g_const(g, TF_INT32, NULL, 0, &z, "zeros");
}

/* ---- gradients of the activation gradient kernels (second derivatives), as TensorFlow's
 * _ReluGradGrad, ...: kernel(gradients, x) gets kernel(grad, x) for its gradients input;
 * its x input gets zeros (Relu, Relu6, LeakyRelu: piecewise linear) or TF's term. ---- */

static TF_Output zeros_like(mt_grad_ctx* g, TF_Output x) {
  mt_gnode z = mt_g_begin(g, "ZerosLike", "zeros_like");
  mt_g_in(&z, x);
  return mt_g_end0(&z);
}

static void act_grad_grad(mt_grad_ctx* g, const char* kernel) {
  TF_Output x = mt_g_x(g, 1);
  mt_gnode n = mt_g_begin(g, kernel, NULL);
  mt_g_in(&n, g->dy[0]);
  mt_g_in(&n, x);
  if (strcmp(kernel, "LeakyReluGrad") == 0) mt_g_copy_attr(&n, "alpha");
  g->dx[0] = mt_g_end0(&n);
  g->dx[1] = zeros_like(g, x);
}
static void relu_grad_grad(mt_grad_ctx* g) { act_grad_grad(g, "ReluGrad"); }
static void relu6_grad_grad(mt_grad_ctx* g) { act_grad_grad(g, "Relu6Grad"); }
static void leaky_relu_grad_grad(mt_grad_ctx* g) { act_grad_grad(g, "LeakyReluGrad"); }

/* EluGrad / SeluGrad(dy, y): kernel(grad, y) for dy; where(y < 0, grad * dy, 0) for y. */
static void exp_linear_grad_grad(mt_grad_ctx* g, const char* kernel) {
  TF_Output dy = mt_g_x(g, 0), y = mt_g_x(g, 1);
  g->dx[0] = mt_g_binary(g, kernel, g->dy[0], y);
  TF_Output less = named2(g, "Less", "Less", y, mt_g_scalar_like(g, y, 0.0, "Less/y"));
  TF_Output prod = named2(g, "Mul", "mul", g->dy[0], dy);
  TF_Output zeros = zeros_like(g, y);
  mt_gnode s = mt_g_begin(g, "Select", NULL);
  mt_g_in(&s, less);
  mt_g_in(&s, prod);
  mt_g_in(&s, zeros);
  g->dx[1] = mt_g_end0(&s);
}
static void elu_grad_grad(mt_grad_ctx* g) { exp_linear_grad_grad(g, "EluGrad"); }
static void selu_grad_grad(mt_grad_ctx* g) { exp_linear_grad_grad(g, "SeluGrad"); }

/* op_type(a, b) named `name` after the incoming gradient. */
static TF_Output after_grad2(mt_grad_ctx* g, const char* op_type, const char* name, TF_Output a,
                             TF_Output b) {
  mt_gnode n = mt_g_begin(g, op_type, name);
  mt_g_in(&n, a);
  if (b.oper) mt_g_in(&n, b);
  mt_g_control(&n, g->dy[0].oper);
  return mt_g_end0(&n);
}

/* SoftplusGrad(dy, x) = dy / (1 + exp(-x)): SoftplusGrad(grad, x) for dy and
 * grad dy / (exp(-x) + 2 + exp(x)) for x, after the incoming gradient. */
static void softplus_grad_grad(mt_grad_ctx* g) {
  const TF_Output none = {NULL, 0};
  TF_Output dy = mt_g_x(g, 0), x = mt_g_x(g, 1), grad = g->dy[0];
  g->dx[0] = after_grad2(g, "SoftplusGrad", NULL, grad, x);
  TF_Output num = after_grad2(g, "Mul", "mul", grad, dy);
  TF_Output e_neg = after_grad2(g, "Exp", NULL, after_grad2(g, "Neg", NULL, x, none), none);
  TF_Output sum = after_grad2(g, "AddV2", "add", e_neg, mt_g_scalar_like(g, x, 2.0, "add/y"));
  TF_Output denom = after_grad2(g, "AddV2", "add_1", sum, after_grad2(g, "Exp", NULL, x, none));
  g->dx[1] = after_grad2(g, "RealDiv", "truediv", num, denom);
}

/* BiasAddGrad's gradient (TF's _BiasAddGradGrad): the bias gradient broadcast back over
 * out_backprop's shape, Tile(Reshape(grad, [1.., C, 1..]), [N.., 1, ..]). */
static void bias_add_grad_grad(mt_grad_ctx* g) {
  TF_Output shape = mt_g_shape(g, mt_g_x(g, 0));
  TF_Output bias_shape = mt_g_shape(g, g->dy[0]);
  const int nchw = strcmp(mt_op_attr_str(g->op, "data_format", "NHWC"), "NCHW") == 0;
  TF_Output parts[3], mults[3];
  const int32_t one = 1;
  if (nchw) {
    TF_Output head = mt_gu_slice1(g, shape, 0, 0, 1, 1);
    TF_Output ones_head = mt_g_unary(g, "OnesLike", head);
    TF_Output tail = mt_gu_slice1(g, shape, 1, 2, 0, 0);
    parts[0] = ones_head;
    parts[1] = bias_shape;
    parts[2] = mt_g_unary(g, "OnesLike", tail);
    TF_Output expanded = mt_gu_concat(g, parts, 3, 0);
    TF_Output head2 = mt_gu_slice1(g, shape, 0, 0, 1, 1);
    TF_Output tail2 = mt_gu_slice1(g, shape, 1, 2, 0, 0);
    mt_gnode c = mt_g_begin(g, "ConcatV2", "concat");
    mults[0] = head2;
    mults[1] = mt_gu_const_i32_sub(g, &c, "values_1", &one, 1);
    mults[2] = tail2;
    mt_g_in_list(&c, mults, 3);
    mt_g_in_const_i32(&c, "axis", (const int32_t[]){0}, 1, 0);
    TF_Output tile_mults = mt_g_end0(&c);
    g->dx[0] = mt_g_binary(g, "Tile", mt_g_reshape(g, g->dy[0], expanded), tile_mults);
    return;
  }
  TF_Output head = mt_gu_slice1(g, shape, 0, 0, 1, -1);
  parts[0] = mt_g_unary(g, "OnesLike", head);
  parts[1] = bias_shape;
  TF_Output expanded = mt_gu_concat(g, parts, 2, 0);
  TF_Output head2 = mt_gu_slice1(g, shape, 0, 0, 1, -1);
  mt_gnode c = mt_g_begin(g, "ConcatV2", "concat");
  mults[0] = head2;
  mults[1] = mt_gu_const_i32_sub(g, &c, "values_1", &one, 1);
  mt_g_in_list(&c, mults, 2);
  mt_g_in_const_i32(&c, "axis", (const int32_t[]){0}, 1, 0);
  TF_Output tile_mults = mt_g_end0(&c);
  g->dx[0] = mt_g_binary(g, "Tile", mt_g_reshape(g, g->dy[0], expanded), tile_mults);
}


/* ---- FusedBatchNormGrad(V2, V3): TensorFlow's _FusedBatchNormGradGrad. TF writes batch
 * norm's backward pass (_BatchNormGrad) out of primitive ops inside a GradientTape watching
 * grad_y, x and scale, then differentiates [grad_x, grad_scale, grad_offset] with the
 * incoming gradients as initial gradients. Here the same primitive graph is built and
 * differentiated by the runtime's own walker (mt_add_gradients). The tape stops at its
 * watched tensors; the walker would follow grad_y back into the forward graph (grad_y
 * depends on x), so the three sources enter through StopGradient nodes, which make them
 * leaves the way the tape does. ---- */

typedef struct bn_gg {
  mt_grad_ctx* g;
  int32_t axes[MT_MAX_DIMS];
  int naxes;
  int keep; /* channels-first: reductions keep dims so they broadcast against x */
  double eps;
} bn_gg;

static TF_Output bn_reduce(bn_gg* b, const char* type, TF_Output x, int keep) {
  mt_gnode n = mt_g_begin(b->g, type, NULL);
  mt_g_in(&n, x);
  mt_g_in_const_i32(&n, "reduction_indices", b->axes, b->naxes, 1);
  mt_g_attr_bool(&n, "keep_dims", keep);
  return mt_g_end0(&n);
}

/* x + epsilon, with epsilon a Const of x's dtype ("add/y") as Python converts it. */
static TF_Output bn_add_eps(bn_gg* b, TF_Output x) {
  mt_gnode n = mt_g_begin(b->g, "AddV2", "add");
  char name[512];
  snprintf(name, sizeof name, "%s/y", n.d ? n.d->name + strlen(b->g->scope) : "add");
  TF_Output eps = mt_g_scalar_like(b->g, x, b->eps, name);
  mt_g_in(&n, x);
  mt_g_in(&n, eps);
  return mt_g_end0(&n);
}

/* Reshape(v, [1, size(v), 1, 1(, 1)]): size is static (a Const), so the shape packs. */
static TF_Output bn_to_channels_first(mt_grad_ctx* g, TF_Output v, int rank) {
  const mt_shape* s = mt_g_static_shape(v);
  int32_t dims[5] = {1, s->rank == 1 && s->dims[0] >= 0 ? (int32_t)s->dims[0] : -1, 1, 1, 1};
  return mt_gu_reshape_const(g, v, dims, rank);
}

static TF_Output bn_stop(mt_grad_ctx* g, TF_Output x) { return mt_g_unary(g, "StopGradient", x); }

/* _BatchNormGrad with is_training: batch statistics recomputed from x (the variance
 * around a stop_gradient mean). out: grad_x, grad_scale, grad_offset. */
static void bn_grad_training(bn_gg* b, TF_Output gy, TF_Output x, TF_Output scale, int rank,
                             TF_Output out[3]) {
  mt_grad_ctx* g = b->g;
  if (b->keep) scale = bn_to_channels_first(g, scale, rank);
  TF_Output mean_gy = bn_reduce(b, "Mean", gy, b->keep);
  TF_Output mean_x = bn_reduce(b, "Mean", x, b->keep);
  TF_Output var_x = bn_reduce(b, "Mean", named2(g, "SquaredDifference", "SquaredDifference", x,
                                                bn_stop(g, mean_x)), b->keep);
  TF_Output gy_off = named2(g, "Sub", "sub", gy, mean_gy);
  TF_Output x_off = named2(g, "Sub", "sub", x, mean_x);
  TF_Output mean = bn_reduce(b, "Mean", named2(g, "Mul", "mul", gy, x_off), b->keep);
  TF_Output left = named2(g, "Mul", "mul", scale, mt_g_unary(g, "Rsqrt", bn_add_eps(b, var_x)));
  TF_Output recip = mt_g_unary(g, "Reciprocal", bn_add_eps(b, var_x));
  TF_Output corr = named2(g, "Mul", "mul", named2(g, "Mul", "mul", recip, mean), x_off);
  out[0] = named2(g, "Mul", "mul", left, named2(g, "Sub", "sub", gy_off, corr));
  TF_Output rs = mt_g_unary(g, "Rsqrt", bn_add_eps(b, var_x));
  TF_Output sum = bn_reduce(b, "Sum", named2(g, "Mul", "mul", gy, x_off), b->keep);
  out[1] = named2(g, "Mul", "mul", rs, sum);
  if (b->keep) out[1] = mt_g_unary(g, "Squeeze", out[1]);
  out[2] = bn_reduce(b, "Sum", gy, 0);
}

/* _BatchNormGrad in inference: the population statistics are inputs. */
static void bn_grad_inference(bn_gg* b, TF_Output gy, TF_Output x, TF_Output scale,
                              TF_Output pop_mean, TF_Output pop_var, int rank, TF_Output out[3]) {
  mt_grad_ctx* g = b->g;
  if (b->keep) {
    pop_mean = bn_to_channels_first(g, pop_mean, rank);
    pop_var = bn_to_channels_first(g, pop_var, rank);
    scale = bn_to_channels_first(g, scale, rank);
  }
  out[2] = bn_reduce(b, "Sum", gy, 0);
  TF_Output var_rsqrt = mt_g_unary(g, "Rsqrt", bn_add_eps(b, pop_var));
  TF_Output centered = named2(g, "Mul", "mul", gy, named2(g, "Sub", "sub", x, pop_mean));
  out[1] = bn_reduce(b, "Sum", named2(g, "Mul", "mul", centered, var_rsqrt), 0);
  out[0] = named2(g, "Mul", "mul", named2(g, "Mul", "mul", gy, scale), var_rsqrt);
}

/* Builds _BatchNormGrad on the three leaves and differentiates it under the prefix
 * "<this gradient's scope>tape" (TF's tape names its nodes "gradient_tape/<op name>/..."). */
static void bn_grad_grad(mt_grad_ctx* g) {
  const char* fmt = mt_op_attr_str(g->op, "data_format", "NHWC");
  const int training = mt_op_attr_bool(g->op, "is_training", 1);
  TF_Output gy = mt_g_x(g, 0), x = mt_g_x(g, 1);
  const mt_shape* xs = mt_g_static_shape(x);
  const int rank = strcmp(fmt, "NDHWC") == 0 || strcmp(fmt, "NCDHW") == 0 ? 5 : 4;
  if (xs->rank >= 0 && xs->rank != rank) {
    mt_status_setf(g->status, TF_INVALID_ARGUMENT,
                   "gradient of %s: x must be %d-D for data_format %s, got rank %d",
                   g->op->name, rank, fmt, xs->rank);
    return;
  }
  /* epsilon is a float attr; TF reads it as the Python double of that float. */
  bn_gg b = {.g = g, .keep = fmt[1] == 'C', .eps = mt_op_attr_float(g->op, "epsilon", 1e-4f)};
  b.axes[b.naxes++] = 0;
  for (int a = b.keep ? 2 : 1; a < (b.keep ? rank : rank - 1); a++) b.axes[b.naxes++] = a;
  /* The watched sources, as leaves; float16 data is computed in float32 as TF does. One
   * tensor fed as both grad_y and x is one source of the tape, which then returns its
   * whole gradient for both: so it is one leaf here too. */
  TF_Output src[3];
  src[0] = bn_stop(g, gy);
  src[1] = mt_g_x(g, 0).oper == x.oper && mt_g_x(g, 0).index == x.index ? src[0] : bn_stop(g, x);
  src[2] = bn_stop(g, mt_g_x(g, 2));
  const TF_DataType xdt = mt_g_dtype(x);
  TF_Output gy32 = src[0], x32 = src[1];
  if (xdt == TF_HALF) {
    gy32 = mt_gu_cast(g, gy32, TF_FLOAT);
    x32 = mt_gu_cast(g, x32, TF_FLOAT);
  }
  TF_Output ys[3];
  if (training)
    bn_grad_training(&b, gy32, x32, src[2], rank, ys);
  else
    bn_grad_inference(&b, gy32, x32, src[2], mt_g_x(g, 3), mt_g_x(g, 4), rank, ys);
  ys[0] = mt_gu_cast(g, ys[0], xdt);
  if (!mt_g_ok(g)) return;
  char prefix[512];
  snprintf(prefix, sizeof prefix, "%stape", g->scope);
  TF_Output init[3] = {g->dy[0], g->dy[1], g->dy[2]}, res[3];
  mt_add_gradients(g->graph, prefix, ys, 3, src, 3, init, res, g->status);
  if (!mt_g_ok(g)) return;
  for (int i = 0; i < 3; i++) g->dx[i] = res[i].index < 0 ? (TF_Output){NULL, 0} : res[i];
}

static const mt_grad_spec nn_grads[] = {
    {"Relu6", relu6_grad},
    {"LeakyRelu", leaky_relu_grad},
    {"Elu", elu_grad},
    {"Selu", selu_grad},
    {"Softplus", softplus_grad},
    {"Softsign", softsign_grad},
    {"Softmax", softmax_grad},
    {"LogSoftmax", log_softmax_grad},
    {"L2Loss", l2_loss_grad},
    {"Relu", relu_grad},
    {"BiasAdd", bias_add_grad},
    {"SoftmaxCrossEntropyWithLogits", xent_grad},
    {"SparseSoftmaxCrossEntropyWithLogits", sparse_xent_grad},
    {"FusedBatchNorm", fused_bn_grad},
    {"FusedBatchNormV2", fused_bn_v2_grad},
    {"FusedBatchNormV3", fused_bn_v3_grad},
    {"LRN", lrn_grad},
    {"TopKV2", top_k_grad},
    {"ReluGrad", relu_grad_grad},
    {"Relu6Grad", relu6_grad_grad},
    {"LeakyReluGrad", leaky_relu_grad_grad},
    {"EluGrad", elu_grad_grad},
    {"SeluGrad", selu_grad_grad},
    {"SoftplusGrad", softplus_grad_grad},
    {"BiasAddGrad", bias_add_grad_grad},
    {"FusedBatchNormGrad", bn_grad_grad},
    {"FusedBatchNormGradV2", bn_grad_grad},
    {"FusedBatchNormGradV3", bn_grad_grad},
};

void mt_register_nn_grads(void) {
  mt_register_gradients(nn_grads, (int)(sizeof nn_grads / sizeof nn_grads[0]));
}
