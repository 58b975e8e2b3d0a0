/* Gradients of the logging ops (TensorFlow's logging_ops.py). */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"

/* Print passes its input through: the gradient flows to `input` only
 * (_PrintGrad); the printed data get none. */
static void print_grad(mt_grad_ctx* g) { g->dx[0] = g->dy[0]; }

/* NULL: not differentiable (TensorFlow's ops.NotDifferentiable). */
static const mt_grad_spec logging_grads[] = {
    {"Assert", NULL},
    {"Print", print_grad},
    {"Timestamp", NULL},
};

void mt_register_logging_grads(void) {
  mt_register_gradients(logging_grads, (int)(sizeof logging_grads / sizeof logging_grads[0]));
}
