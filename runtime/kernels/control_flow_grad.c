/* Gradients of the control-flow family. TensorFlow's gradients of Switch,
 * Merge, Enter, Exit and NextIteration (control_flow_grad.py) build
 * backward loops through its Python control-flow contexts; they are not
 * written here yet (tests/python/test_gradient_registry.py lists them).
 * LoopCond's gradient in TensorFlow returns None: not differentiable here,
 * the same result for tf.gradients. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"

static const mt_grad_spec control_flow_grads[] = {
    {"LoopCond", NULL},
};

void mt_register_control_flow_grads(void) {
  mt_register_gradients(control_flow_grads,
                        (int)(sizeof control_flow_grads / sizeof control_flow_grads[0]));
}
