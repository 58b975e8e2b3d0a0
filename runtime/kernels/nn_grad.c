/* Gradients of the nn family (runtime/gradient.h), node for node as TensorFlow 2.21's
 * nn_grad.py: Relu, BiasAdd, the softmax cross entropies. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"

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

/* The loss's gradient times the op's own backprop output. A gradient flowing into that
 * backprop output (second-order use) is not supported yet. */
static TF_Output xent_logits_grad(mt_grad_ctx* g) {
  if (!mt_g_is_zeros(g->dy[1])) {
    mt_status_setf(g->status, TF_UNIMPLEMENTED,
                   "gradient of %s (%s) through its backprop output is not supported yet",
                   g->op->name, g->op->op_type);
    return (TF_Output){NULL, 0};
  }
  return broadcast_mul(g, g->dy[0], mt_g_y(g, 1));
}

static void sparse_xent_grad(mt_grad_ctx* g) { g->dx[0] = xent_logits_grad(g); }

static void xent_grad(mt_grad_ctx* g) {
  g->dx[0] = xent_logits_grad(g);
  TF_Output log_softmax = mt_g_unary(g, "LogSoftmax", mt_g_x(g, 0));
  g->dx[1] = broadcast_mul(g, g->dy[0], mt_g_unary(g, "Neg", log_softmax));
}

static const mt_grad_spec nn_grads[] = {
    {"Relu", relu_grad},
    {"BiasAdd", bias_add_grad},
    {"SoftmaxCrossEntropyWithLogits", xent_grad},
    {"SparseSoftmaxCrossEntropyWithLogits", sparse_xent_grad},
    {"InTopKV2", NULL},
};

void mt_register_nn_grads(void) {
  mt_register_gradients(nn_grads, (int)(sizeof nn_grads / sizeof nn_grads[0]));
}
