/* Gradients of the pooling ops (runtime/gradient.h), node for node as TensorFlow 2.21's
 * nn_grad.py: MaxPool, MaxPoolV2, AvgPool, and the second-order ones of MaxPoolGrad,
 * MaxPoolGradV2, MaxPoolGradGrad and AvgPoolGrad; the same for the 3-D pools. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void copy_window_attrs(mt_gnode* n, int explicit_paddings) {
  mt_g_copy_attr(n, "ksize");
  mt_g_copy_attr(n, "strides");
  mt_g_copy_attr(n, "padding");
  if (explicit_paddings) mt_g_copy_attr(n, "explicit_paddings");
  mt_g_copy_attr(n, "data_format");
}

/* TensorFlow's array_ops.zeros_like in graph mode: a Const when x's shape
 * is fully defined and small (< 1000 elements), a Fill of a constant shape
 * when it is larger, ZerosLike otherwise; named "zeros_like". */
static TF_Output zeros_like(mt_grad_ctx* g, TF_Output x) {
  const mt_shape* s = mt_g_static_shape(x);
  const TF_DataType dt = mt_g_dtype(x);
  if (!mt_g_fully_defined(s)) {
    mt_gnode n = mt_g_begin(g, "ZerosLike", "zeros_like");
    mt_g_in(&n, x);
    return mt_g_end0(&n);
  }
  int64_t count = 1;
  for (int i = 0; i < s->rank; i++) count *= s->dims[i];
  if (count < 1000) {
    double* zeros = calloc((size_t)(count ? count : 1), sizeof(double));
    if (!zeros) {
      mt_status_setf(g->status, TF_RESOURCE_EXHAUSTED, "out of memory building gradients");
      return (TF_Output){NULL, 0};
    }
    TF_Output c = mt_g_const(g, dt, s->dims, s->rank, zeros, "zeros_like");
    free(zeros);
    return c;
  }
  /* zeros_like/shape_as_tensor, zeros_like/Const, then the Fill "zeros_like" */
  mt_gnode n = mt_g_begin(g, "Fill", "zeros_like");
  if (!n.d) return (TF_Output){NULL, 0};
  int32_t dims[MT_MAX_DIMS];
  for (int i = 0; i < s->rank; i++) dims[i] = (int32_t)s->dims[i];
  mt_g_in_const_i32(&n, "shape_as_tensor", dims, s->rank, 1);
  char name[512];
  const size_t scope = strlen(g->scope);
  snprintf(name, sizeof name, "%s/Const", n.d ? n.d->name + scope : "zeros_like");
  const double zero = 0;
  TF_Output z = mt_g_const(g, dt, NULL, 0, &zero, name);
  mt_g_in(&n, z);
  return mt_g_end0(&n);
}

static void max_pool_grad(mt_grad_ctx* g) {
  mt_gnode n = mt_g_begin(g, "MaxPoolGrad", NULL);
  mt_g_in(&n, mt_g_x(g, 0));
  mt_g_in(&n, mt_g_y(g, 0));
  mt_g_in(&n, g->dy[0]);
  copy_window_attrs(&n, 1);
  g->dx[0] = mt_g_end0(&n);
}

/* ksize and strides are inputs 1 and 2 (no gradient). */
static void max_pool_v2_grad(mt_grad_ctx* g) {
  mt_gnode n = mt_g_begin(g, "MaxPoolGradV2", NULL);
  mt_g_in(&n, mt_g_x(g, 0));
  mt_g_in(&n, mt_g_y(g, 0));
  mt_g_in(&n, g->dy[0]);
  mt_g_in(&n, mt_g_x(g, 1));
  mt_g_in(&n, mt_g_x(g, 2));
  mt_g_copy_attr(&n, "padding");
  mt_g_copy_attr(&n, "data_format");
  g->dx[0] = mt_g_end0(&n);
}

static void avg_pool_grad(mt_grad_ctx* g) {
  TF_Output shape = mt_g_shape(g, mt_g_x(g, 0));
  mt_gnode n = mt_g_begin(g, "AvgPoolGrad", NULL);
  mt_g_in(&n, shape);
  mt_g_in(&n, g->dy[0]);
  copy_window_attrs(&n, 0);
  g->dx[0] = mt_g_end0(&n);
}

/* AvgPoolGrad is linear in its gradient input: AvgPool of the incoming
 * gradient (TensorFlow also returns stop_gradient(orig_input_shape), an
 * int32 that no gradient flows to). */
static void avg_pool_grad_grad(mt_grad_ctx* g) {
  mt_gnode s = mt_g_begin(g, "StopGradient", NULL);
  mt_g_in(&s, mt_g_x(g, 0));
  g->dx[0] = mt_g_end0(&s);
  mt_gnode n = mt_g_begin(g, "AvgPool", NULL);
  mt_g_in(&n, g->dy[0]);
  copy_window_attrs(&n, 0);
  g->dx[1] = mt_g_end0(&n);
}

/* The gradient of an op (orig_input, orig_output, grad[, ksize, strides])
 * that is linear in grad: zeros for the first two inputs, `kernel` of the
 * incoming gradient for grad. */
static void max_pool_second_order(mt_grad_ctx* g, const char* kernel, int v2) {
  g->dx[0] = zeros_like(g, mt_g_x(g, 0));
  g->dx[1] = zeros_like(g, mt_g_x(g, 1));
  mt_gnode n = mt_g_begin(g, kernel, NULL);
  mt_g_in(&n, mt_g_x(g, 0));
  mt_g_in(&n, mt_g_x(g, 1));
  mt_g_in(&n, g->dy[0]);
  if (v2) {
    mt_g_in(&n, mt_g_x(g, 3));
    mt_g_in(&n, mt_g_x(g, 4));
  } else {
    mt_g_copy_attr(&n, "ksize");
    mt_g_copy_attr(&n, "strides");
  }
  mt_g_copy_attr(&n, "padding");
  mt_g_copy_attr(&n, "data_format");
  g->dx[2] = mt_g_end0(&n);
}

static void max_pool_grad_grad(mt_grad_ctx* g) {
  max_pool_second_order(g, "MaxPoolGradGrad", 0);
}
static void max_pool_grad_v2_grad(mt_grad_ctx* g) {
  max_pool_second_order(g, "MaxPoolGradGradV2", 1);
}
static void max_pool_grad_grad_grad(mt_grad_ctx* g) {
  max_pool_second_order(g, "MaxPoolGrad", 0);
}

/* The 3-D pools (runtime/kernels/conv3d_ops.c), as TensorFlow's nn_grad.py. */
static void max_pool3d_grad(mt_grad_ctx* g) {
  mt_gnode n = mt_g_begin(g, "MaxPool3DGrad", NULL);
  mt_g_in(&n, mt_g_x(g, 0));
  mt_g_in(&n, mt_g_y(g, 0));
  mt_g_in(&n, g->dy[0]);
  copy_window_attrs(&n, 0);
  g->dx[0] = mt_g_end0(&n);
}

static void avg_pool3d_grad(mt_grad_ctx* g) {
  TF_Output shape = mt_g_shape(g, mt_g_x(g, 0));
  mt_gnode n = mt_g_begin(g, "AvgPool3DGrad", NULL);
  mt_g_in(&n, shape);
  mt_g_in(&n, g->dy[0]);
  copy_window_attrs(&n, 0);
  g->dx[0] = mt_g_end0(&n);
}

static void avg_pool3d_grad_grad(mt_grad_ctx* g) {
  mt_gnode s = mt_g_begin(g, "StopGradient", NULL);
  mt_g_in(&s, mt_g_x(g, 0));
  g->dx[0] = mt_g_end0(&s);
  mt_gnode n = mt_g_begin(g, "AvgPool3D", NULL);
  mt_g_in(&n, g->dy[0]);
  copy_window_attrs(&n, 0);
  g->dx[1] = mt_g_end0(&n);
}

static void max_pool3d_grad_grad(mt_grad_ctx* g) {
  max_pool_second_order(g, "MaxPool3DGradGrad", 0);
}
static void max_pool3d_grad_grad_grad(mt_grad_ctx* g) {
  max_pool_second_order(g, "MaxPool3DGrad", 0);
}

static const mt_grad_spec pooling_grads[] = {
    {"MaxPool3D", max_pool3d_grad},
    {"AvgPool3D", avg_pool3d_grad},
    {"AvgPool3DGrad", avg_pool3d_grad_grad},
    {"MaxPool3DGrad", max_pool3d_grad_grad},
    {"MaxPool3DGradGrad", max_pool3d_grad_grad_grad},
    {"MaxPool", max_pool_grad},
    {"MaxPoolV2", max_pool_v2_grad},
    {"AvgPool", avg_pool_grad},
    {"AvgPoolGrad", avg_pool_grad_grad},
    {"MaxPoolGrad", max_pool_grad_grad},
    {"MaxPoolGradV2", max_pool_grad_v2_grad},
    {"MaxPoolGradGrad", max_pool_grad_grad_grad},
};

void mt_register_pooling_grads(void) {
  mt_register_gradients(pooling_grads, (int)(sizeof pooling_grads / sizeof pooling_grads[0]));
}
