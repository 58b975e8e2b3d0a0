/* Gradients of the TensorScatter* ops, Roll and EnsureShape (runtime/gradient.h), node for
 * node as TensorFlow 2.21's array_grad.py / manip_grad.py / check_ops.py build them. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/array/array_util.h"
#include "runtime/kernels/array_grad_util.h"

/* array_ops.gather_nd(params, indices, bad_indices_policy=policy) ("GatherNd"). */
static TF_Output gather_nd(mt_grad_ctx* g, TF_Output params, TF_Output indices, int copy_policy) {
  mt_gnode n = mt_g_begin(g, "GatherNd", NULL);
  mt_g_in(&n, params);
  mt_g_in(&n, indices);
  if (copy_policy) mt_g_copy_attr(&n, "bad_indices_policy");
  else mt_g_attr_str(&n, "bad_indices_policy", "");
  return mt_g_end0(&n);
}

/* tensor: the gradient with the scattered slices zeroed; updates: those slices. */
static void tensor_scatter_update_grad(mt_grad_ctx* g) {
  TF_Output indices = mt_g_x(g, 1);
  g->dx[2] = gather_nd(g, g->dy[0], indices, 0);
  TF_Output ident = gu_op1(g, "Identity", NULL, g->dy[0]);
  TF_Output zeros = gu_zeros_like(g, mt_g_x(g, 2));
  mt_gnode n = mt_g_begin(g, "TensorScatterUpdate", NULL);
  mt_g_in(&n, ident);
  mt_g_in(&n, indices);
  mt_g_in(&n, zeros);
  g->dx[0] = mt_g_end0(&n);
}

static void tensor_scatter_add_grad(mt_grad_ctx* g) {
  g->dx[2] = gather_nd(g, g->dy[0], mt_g_x(g, 1), 0);
  g->dx[0] = gu_op1(g, "Identity", NULL, g->dy[0]);
}

static void tensor_scatter_sub_grad(mt_grad_ctx* g) {
  TF_Output upd = gather_nd(g, g->dy[0], mt_g_x(g, 1), 0);
  g->dx[0] = gu_op1(g, "Identity", NULL, g->dy[0]);
  g->dx[2] = gu_op1(g, "Neg", NULL, upd);
}

/* _TensorScatterMinOrMaxGrad: the gradient goes to the elements equal to the output,
 * shared evenly among ties of the tensor and its updates. */
static void tensor_scatter_min_max_grad(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0), indices = mt_g_x(g, 1), y = mt_g_x(g, 2), out = mt_g_y(g, 0);
  const TF_DataType dt = mt_g_dtype(g->dy[0]);
  TF_Output x_ind = gu_cast(g, gu_op2(g, "Equal", NULL, x, out), dt);
  TF_Output y_out = gather_nd(g, out, indices, 1);
  TF_Output y_ind = gu_cast(g, gu_op2(g, "Equal", NULL, y, y_out), dt);
  TF_Output shape = gu_shape(g, x, mt_g_dtype(indices));
  mt_gnode s = mt_g_begin(g, "ScatterNd", NULL);
  mt_g_in(&s, indices);
  mt_g_in(&s, y_ind);
  mt_g_in(&s, shape);
  mt_g_copy_attr(&s, "bad_indices_policy");
  TF_Output ys_ind = mt_g_end0(&s);
  TF_Output ind = gu_binop(g, "AddV2", "add", gu_t(x_ind), gu_t(ys_ind));
  TF_Output gx = gu_binop(g, "Mul", "mul", gu_t(g->dy[0]), gu_t(x_ind));
  g->dx[0] = gu_binop(g, "RealDiv", "truediv", gu_t(gx), gu_t(ind));
  TF_Output share = gu_binop(g, "RealDiv", "truediv", gu_t(g->dy[0]), gu_t(ind));
  TF_Output gy = gather_nd(g, share, indices, 1);
  g->dx[2] = gu_binop(g, "Mul", "mul", gu_t(gy), gu_t(y_ind));
}

/* roll(grad, -shift, axis). */
static void roll_grad(mt_grad_ctx* g) {
  TF_Output neg = gu_op1(g, "Neg", NULL, mt_g_x(g, 1));
  mt_gnode n = mt_g_begin(g, "Roll", NULL);
  mt_g_in(&n, g->dy[0]);
  mt_g_in(&n, neg);
  mt_g_in(&n, mt_g_x(g, 2));
  g->dx[0] = mt_g_end0(&n);
}

static void pass_through_grad(mt_grad_ctx* g) { g->dx[0] = g->dy[0]; }

static const mt_grad_spec scatter_grads[] = {
    {"TensorScatterUpdate", tensor_scatter_update_grad},
    {"TensorScatterAdd", tensor_scatter_add_grad},
    {"TensorScatterSub", tensor_scatter_sub_grad},
    {"TensorScatterMax", tensor_scatter_min_max_grad},
    {"TensorScatterMin", tensor_scatter_min_max_grad},
    {"Roll", roll_grad},
    {"EnsureShape", pass_through_grad},
};

void mt_register_array_scatter_grads(void) {
  mt_register_gradients(scatter_grads, (int)(sizeof scatter_grads / sizeof scatter_grads[0]));
}
