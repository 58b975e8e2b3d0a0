/* Gradients of the pooling ops (runtime/gradient.h), as TensorFlow 2.21's nn_grad.py. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"

static void max_pool_grad(mt_grad_ctx* g) {
  mt_gnode n = mt_g_begin(g, "MaxPoolGrad", NULL);
  mt_g_in(&n, mt_g_x(g, 0));
  mt_g_in(&n, mt_g_y(g, 0));
  mt_g_in(&n, g->dy[0]);
  mt_g_copy_attr(&n, "ksize");
  mt_g_copy_attr(&n, "strides");
  mt_g_copy_attr(&n, "padding");
  mt_g_copy_attr(&n, "explicit_paddings");
  mt_g_copy_attr(&n, "data_format");
  g->dx[0] = mt_g_end0(&n);
}

static const mt_grad_spec pooling_grads[] = {
    {"MaxPool", max_pool_grad},
};

void mt_register_pooling_grads(void) {
  mt_register_gradients(pooling_grads, (int)(sizeof pooling_grads / sizeof pooling_grads[0]));
}
