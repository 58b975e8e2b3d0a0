/* Gradients of the py_func ops (TensorFlow's script_ops.py). */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/status.h"

/* TensorFlow differentiates tf.py_function by replaying the eager
 * GradientTape its EagerPyFunc recorded (_EagerPyFuncGrad); minitf has no
 * eager mode and no tape, so the gradient is registered (tf.gradients
 * finds one, as in TensorFlow) and fails with this explanation when built. */
static void eager_py_func_grad(mt_grad_ctx* g) {
  mt_status_setf(g->status, TF_UNIMPLEMENTED,
                 "The gradient of EagerPyFunc '%s' (tf.py_function) needs TensorFlow's eager "
                 "GradientTape, which minitf does not have",
                 g->op->name);
}

/* NULL: not differentiable (TensorFlow's ops.NotDifferentiable). */
static const mt_grad_spec py_func_grads[] = {
    {"PyFunc", NULL},
    {"PyFuncStateless", NULL},
    {"EagerPyFunc", eager_py_func_grad},
};

void mt_register_py_func_grads(void) {
  mt_register_gradients(py_func_grads, (int)(sizeof py_func_grads / sizeof py_func_grads[0]));
}
