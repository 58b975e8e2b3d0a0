/* Gradients of the stack family: TensorFlow declares the legacy ref-handle
 * Stack ops not differentiable (data_flow_grad.py) and registers nothing
 * for the StackV2 forms, which only the gradient loops themselves use. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"

static const mt_grad_spec stack_grads[] = {
    {"Stack", NULL}, {"StackPush", NULL}, {"StackPop", NULL}, {"StackClose", NULL},
};

void mt_register_stack_grads(void) {
  mt_register_gradients(stack_grads, (int)(sizeof stack_grads / sizeof stack_grads[0]));
}
