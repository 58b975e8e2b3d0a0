/* Gradients of the nn family (runtime/gradient.h), node for node as TensorFlow 2.21's
 * nn_grad.py: Relu, BiasAdd, the softmax cross entropies. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"

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
static void softplus_grad(mt_grad_ctx* g) { act_grad(g, "SoftplusGrad", 0); }
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
    {"InTopKV2", NULL},
};

void mt_register_nn_grads(void) {
  mt_register_gradients(nn_grads, (int)(sizeof nn_grads / sizeof nn_grads[0]));
}
