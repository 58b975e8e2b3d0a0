/* Gradients of the string ops: TensorFlow declares StringJoin and
 * RegexReplace not differentiable (string_ops.py); the full-match ops and
 * StaticRegexReplace have no registration there, so none here either. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"

/* NULL: not differentiable (TensorFlow's ops.NotDifferentiable). */
static const mt_grad_spec string_grads[] = {
    {"RegexReplace", NULL},
    {"StringJoin", NULL},
};

void mt_register_string_grads(void) {
  mt_register_gradients(string_grads, (int)(sizeof string_grads / sizeof string_grads[0]));
}
