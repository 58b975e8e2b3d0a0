/* Gradients of the array family (runtime/gradient.h), as TensorFlow 2.21's
 * array_grad.py builds them. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"

static void identity_grad(mt_grad_ctx* g) { g->dx[0] = g->dy[0]; }

static void identity_n_grad(mt_grad_ctx* g) {
  for (int i = 0; i < g->op->ninputs; i++) g->dx[i] = g->dy[i];
}

/* TensorFlow's _ReshapeToInput: Reshape(grad, Shape(input)), for Reshape, ExpandDims and
 * Squeeze. */
static void reshape_to_input_grad(mt_grad_ctx* g) {
  TF_Output shape = mt_g_shape(g, mt_g_x(g, 0));
  g->dx[0] = mt_g_reshape(g, g->dy[0], shape);
}

/* NULL: not differentiable (TensorFlow's ops.NotDifferentiable). */
static const mt_grad_spec array_grads[] = {
    {"Identity", identity_grad},
    {"IdentityN", identity_n_grad},
    {"Reshape", reshape_to_input_grad},
    {"ExpandDims", reshape_to_input_grad},
    {"Squeeze", reshape_to_input_grad},
    {"PlaceholderWithDefault", identity_grad},
    {"Snapshot", identity_grad},
    {"StopGradient", NULL},
    {"Const", NULL},
    {"ZerosLike", NULL},
    {"OnesLike", NULL},
    {"Shape", NULL},
    {"ShapeN", NULL},
    {"Rank", NULL},
    {"Size", NULL},
    {"BroadcastGradientArgs", NULL},
};

void mt_register_array_grads(void) {
  mt_register_gradients(array_grads, (int)(sizeof array_grads / sizeof array_grads[0]));
}
