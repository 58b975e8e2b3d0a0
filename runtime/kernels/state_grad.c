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

static const mt_grad_spec state_grads[] = {
    {"ReadVariableOp", read_grad},
    {"ResourceGather", resource_gather_grad},
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
