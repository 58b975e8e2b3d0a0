/* Gradients of the string ops: TensorFlow declares StringJoin not
 * differentiable (string_ops.py); StaticRegexFullMatch has no entry there. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"

static const mt_grad_spec string_grads[] = {
    {"StringJoin", NULL},
};

void mt_register_string_grads(void) {
  mt_register_gradients(string_grads, (int)(sizeof string_grads / sizeof string_grads[0]));
}
