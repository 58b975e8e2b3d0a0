/* Gradients of the variable ops (runtime/gradient.h), as TensorFlow 2.21's
 * resource_variable_ops.py and state_grad.py: a read passes its gradient to the handle. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"

static void read_grad(mt_grad_ctx* g) { g->dx[0] = g->dy[0]; }

static const mt_grad_spec state_grads[] = {
    {"ReadVariableOp", read_grad},
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
