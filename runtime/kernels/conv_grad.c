/* Gradients of the convolutions (runtime/gradient.h), as TensorFlow 2.21's nn_grad.py:
 * Conv2D's input and filter gradients from ShapeN of both inputs. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"

static const char* const conv_attrs[] = {"dilations", "strides", "padding", "explicit_paddings",
                                         "use_cudnn_on_gpu", "data_format"};

static void copy_conv_attrs(mt_gnode* n) {
  for (int i = 0; i < (int)(sizeof conv_attrs / sizeof conv_attrs[0]); i++)
    mt_g_copy_attr(n, conv_attrs[i]);
}

static void conv2d_grad(mt_grad_ctx* g) {
  TF_Output both[2] = {mt_g_x(g, 0), mt_g_x(g, 1)};
  mt_gnode s = mt_g_begin(g, "ShapeN", NULL);
  mt_g_in_list(&s, both, 2);
  mt_g_attr_type(&s, "out_type", TF_INT32);
  TF_Operation* shapes = mt_g_end(&s);
  if (!shapes) return;
  mt_gnode bi = mt_g_begin(g, "Conv2DBackpropInput", NULL);
  mt_g_in(&bi, (TF_Output){shapes, 0});
  mt_g_in(&bi, both[1]);
  mt_g_in(&bi, g->dy[0]);
  copy_conv_attrs(&bi);
  g->dx[0] = mt_g_end0(&bi);
  mt_gnode bf = mt_g_begin(g, "Conv2DBackpropFilter", NULL);
  mt_g_in(&bf, both[0]);
  mt_g_in(&bf, (TF_Output){shapes, 1});
  mt_g_in(&bf, g->dy[0]);
  copy_conv_attrs(&bf);
  g->dx[1] = mt_g_end0(&bf);
}

static const mt_grad_spec conv_grads[] = {
    {"Conv2D", conv2d_grad},
};

void mt_register_conv_grads(void) {
  mt_register_gradients(conv_grads, (int)(sizeof conv_grads / sizeof conv_grads[0]));
}
