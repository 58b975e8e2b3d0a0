/* Gradients of the variable ops (runtime/gradient.h), as TensorFlow 2.21's
 * resource_variable_ops.py and state_grad.py: a read passes its gradient to the handle. */
#include <string.h>

#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/array_grad_util.h"

static void read_grad(mt_grad_ctx* g) { g->dx[0] = g->dy[0]; }

/* resource_variable_ops.variable_shape(handle): the Const "Const" of the
 * variable's shape when its handle carries a fully defined one (a
 * VarHandleOp's `shape`, through Identity), else VariableShape. */
static TF_Output variable_shape(mt_grad_ctx* g, TF_Output handle) {
  TF_Operation* op = handle.oper;
  while (op && strcmp(op->op_type, "Identity") == 0 && op->ninputs == 1) op = op->inputs[0].oper;
  const mt_attr_value* v =
      op && strcmp(op->op_type, "VarHandleOp") == 0 ? mt_op_attr(op, "shape") : NULL;
  if (v && v->kind == MT_ATTR_SHAPE && !v->is_list && mt_g_fully_defined(&v->v.shape))
    return gu_const_ints(g, TF_INT32, v->v.shape.dims, v->v.shape.rank, 1, "Const");
  mt_gnode n = mt_g_begin(g, "VariableShape", NULL);
  mt_g_in(&n, handle);
  mt_g_attr_type(&n, "out_type", TF_INT32);
  return mt_g_end0(&n);
}

/* resource_variable_ops._GatherGrad: IndexedSlices of the gradient rows at
 * the flattened indices, dense shape the variable's. */
static void resource_gather_grad(mt_grad_ctx* g) {
  TF_Output indices = mt_g_x(g, 1);
  TF_Output params_shape = variable_shape(g, mt_g_x(g, 0));
  TF_Output size = gu_expand_dims(g, gu_size(g, indices), 0);
  TF_Output tail = gu_getitem(g, params_shape, 0, 1, gu_i(1), 0, gu_i(0));
  gu_part vs[2] = {gu_pt(size), gu_pt(tail)};
  TF_Output values = gu_reshape(g, g->dy[0], gu_pt(gu_concat(g, vs, 2, 0, (TF_Output){NULL, 0})));
  TF_Output idx = gu_reshape(g, indices, gu_pt(size));
  mt_g_set_sparse(g, 0, values, idx, params_shape);
}

/* resource_variable_ops._GatherNdGrad: VariableShape(handle, out_type = the indices' dtype);
 * indices of shape [n, 1] give IndexedSlices of the gradient at Squeeze(indices, -1), others
 * ScatterNd(indices, grad, shape). */
static void resource_gather_nd_grad(mt_grad_ctx* g) {
  TF_Output handle = mt_g_x(g, 0), indices = mt_g_x(g, 1);
  mt_gnode vs = mt_g_begin(g, "VariableShape", NULL);
  mt_g_in(&vs, handle);
  mt_g_attr_type(&vs, "out_type", mt_g_dtype(indices));
  TF_Output shape = mt_g_end0(&vs);
  const mt_shape* si = mt_g_static_shape(indices);
  if (si && si->rank == 2 && si->dims[1] == 1) {
    mt_gnode sq = mt_g_begin(g, "Squeeze", NULL);
    mt_g_in(&sq, indices);
    const int64_t axis = -1;
    mt_g_attr_ints(&sq, "squeeze_dims", &axis, 1);
    mt_g_set_sparse(g, 0, g->dy[0], mt_g_end0(&sq), shape);
    return;
  }
  mt_gnode sc = mt_g_begin(g, "ScatterNd", NULL);
  mt_g_in(&sc, indices);
  mt_g_in(&sc, g->dy[0]);
  mt_g_in(&sc, shape);
  g->dx[0] = mt_g_end0(&sc);
}

static const mt_grad_spec state_grads[] = {
    {"ReadVariableOp", read_grad},
    {"ResourceGather", resource_gather_grad},
    {"ResourceGatherNd", resource_gather_nd_grad},
    {"VarIsInitializedOp", NULL},
    {"VariableShape", NULL},
    {"Assign", NULL},
    {"AssignAdd", NULL},
    {"AssignSub", NULL},
    {"ScatterAdd", NULL},
    {"ScatterSub", NULL},
    {"ScatterMul", NULL},
    {"ScatterDiv", NULL},
    {"ScatterNdUpdate", NULL},
    {"ScatterNdAdd", NULL},
    {"ScatterNdSub", NULL},
};

void mt_register_state_grads(void) {
  mt_register_gradients(state_grads, (int)(sizeof state_grads / sizeof state_grads[0]));
}
