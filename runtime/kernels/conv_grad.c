/* Gradients of the convolutions (runtime/gradient.h), as TensorFlow 2.21's nn_grad.py:
 * Conv2D's input and filter gradients from ShapeN of both inputs; DepthwiseConv2dNative's
 * from Shape of each; the backward ops' own gradients (Conv2DBackpropInput,
 * Conv2DBackpropFilter and the depthwise ones), which are a backward op of the other kind
 * and the forward convolution. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"

static const char* const conv_attrs[] = {"dilations", "strides", "padding", "explicit_paddings",
                                         "use_cudnn_on_gpu", "data_format"};

/* The forward op's window attrs (depthwise ops have no use_cudnn_on_gpu: copying an attr
 * the forward op lacks does nothing). */
static void copy_conv_attrs(mt_gnode* n) {
  for (int i = 0; i < (int)(sizeof conv_attrs / sizeof conv_attrs[0]); i++)
    mt_g_copy_attr(n, conv_attrs[i]);
}

static TF_Output conv_node(mt_grad_ctx* g, const char* type, TF_Output a, TF_Output b,
                           TF_Output c) {
  mt_gnode n = mt_g_begin(g, type, NULL);
  mt_g_in(&n, a);
  mt_g_in(&n, b);
  if (c.oper) mt_g_in(&n, c);
  copy_conv_attrs(&n);
  return mt_g_end0(&n);
}

static void conv2d_grad(mt_grad_ctx* g) {
  TF_Output both[2] = {mt_g_x(g, 0), mt_g_x(g, 1)};
  mt_gnode s = mt_g_begin(g, "ShapeN", NULL);
  mt_g_in_list(&s, both, 2);
  mt_g_attr_type(&s, "out_type", TF_INT32);
  TF_Operation* shapes = mt_g_end(&s);
  if (!shapes) return;
  g->dx[0] = conv_node(g, "Conv2DBackpropInput", (TF_Output){shapes, 0}, both[1], g->dy[0]);
  g->dx[1] = conv_node(g, "Conv2DBackpropFilter", both[0], (TF_Output){shapes, 1}, g->dy[0]);
}

static void depthwise_grad(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0), f = mt_g_x(g, 1);
  TF_Output xs = mt_g_shape(g, x);
  g->dx[0] = conv_node(g, "DepthwiseConv2dNativeBackpropInput", xs, f, g->dy[0]);
  TF_Output fs = mt_g_shape(g, f);
  g->dx[1] = conv_node(g, "DepthwiseConv2dNativeBackpropFilter", x, fs, g->dy[0]);
}

/* op(input_sizes, filter, out_backprop) is linear in filter and in out_backprop: the
 * filter's gradient is the filter backprop of (grad, out_backprop), out_backprop's the
 * forward conv of (grad, filter). */
static void backprop_input_grad(mt_grad_ctx* g, const char* filter_op, const char* fwd_op) {
  TF_Output f = mt_g_x(g, 1), dy = mt_g_x(g, 2);
  TF_Output fs = mt_g_shape(g, f);
  g->dx[1] = conv_node(g, filter_op, g->dy[0], fs, dy);
  g->dx[2] = conv_node(g, fwd_op, g->dy[0], f, (TF_Output){NULL, 0});
}

/* op(input, filter_sizes, out_backprop): input's gradient is the input backprop of
 * (grad, out_backprop), out_backprop's the forward conv of (input, grad). */
static void backprop_filter_grad(mt_grad_ctx* g, const char* input_op, const char* fwd_op) {
  TF_Output x = mt_g_x(g, 0), dy = mt_g_x(g, 2);
  TF_Output xs = mt_g_shape(g, x);
  g->dx[0] = conv_node(g, input_op, xs, g->dy[0], dy);
  g->dx[2] = conv_node(g, fwd_op, x, g->dy[0], (TF_Output){NULL, 0});
}

static void conv2d_backprop_input_grad(mt_grad_ctx* g) {
  backprop_input_grad(g, "Conv2DBackpropFilter", "Conv2D");
}
static void conv2d_backprop_filter_grad(mt_grad_ctx* g) {
  backprop_filter_grad(g, "Conv2DBackpropInput", "Conv2D");
}
static void depthwise_backprop_input_grad(mt_grad_ctx* g) {
  backprop_input_grad(g, "DepthwiseConv2dNativeBackpropFilter", "DepthwiseConv2dNative");
}
static void depthwise_backprop_filter_grad(mt_grad_ctx* g) {
  backprop_filter_grad(g, "DepthwiseConv2dNativeBackpropInput", "DepthwiseConv2dNative");
}

/* Conv3D and its V2 backprops (runtime/kernels/conv3d_ops.c): as the 2-D ones, with
 * the V2 ops and ShapeN / Shape as TensorFlow's nn_grad.py. */
static void conv3d_grad(mt_grad_ctx* g) {
  TF_Output both[2] = {mt_g_x(g, 0), mt_g_x(g, 1)};
  mt_gnode s = mt_g_begin(g, "ShapeN", NULL);
  mt_g_in_list(&s, both, 2);
  mt_g_attr_type(&s, "out_type", TF_INT32);
  TF_Operation* shapes = mt_g_end(&s);
  if (!shapes) return;
  g->dx[0] = conv_node(g, "Conv3DBackpropInputV2", (TF_Output){shapes, 0}, both[1], g->dy[0]);
  g->dx[1] = conv_node(g, "Conv3DBackpropFilterV2", both[0], (TF_Output){shapes, 1}, g->dy[0]);
}
static void conv3d_backprop_input_grad(mt_grad_ctx* g) {
  backprop_input_grad(g, "Conv3DBackpropFilterV2", "Conv3D");
}
static void conv3d_backprop_filter_grad(mt_grad_ctx* g) {
  backprop_filter_grad(g, "Conv3DBackpropInputV2", "Conv3D");
}

static const mt_grad_spec conv_grads[] = {
    {"Conv3D", conv3d_grad},
    {"Conv3DBackpropInputV2", conv3d_backprop_input_grad},
    {"Conv3DBackpropFilterV2", conv3d_backprop_filter_grad},
    {"Conv2D", conv2d_grad},
    {"DepthwiseConv2dNative", depthwise_grad},
    {"Conv2DBackpropInput", conv2d_backprop_input_grad},
    {"Conv2DBackpropFilter", conv2d_backprop_filter_grad},
    {"DepthwiseConv2dNativeBackpropInput", depthwise_backprop_input_grad},
    {"DepthwiseConv2dNativeBackpropFilter", depthwise_backprop_filter_grad},
};

void mt_register_conv_grads(void) {
  mt_register_gradients(conv_grads, (int)(sizeof conv_grads / sizeof conv_grads[0]));
}
