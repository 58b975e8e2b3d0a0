/* Gradient of ReverseSequence: the same reversal of the incoming gradient
 * (the lengths get none), as TensorFlow's _ReverseSequenceGrad. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"

static void reverse_sequence_grad(mt_grad_ctx* g) {
  mt_gnode n = mt_g_begin(g, "ReverseSequence", NULL);
  mt_g_in(&n, g->dy[0]);
  mt_g_in(&n, mt_g_x(g, 1));
  mt_g_copy_attr(&n, "batch_dim");
  mt_g_copy_attr(&n, "seq_dim");
  g->dx[0] = mt_g_end0(&n);
}

static const mt_grad_spec sequence_grads[] = {
    {"ReverseSequence", reverse_sequence_grad},
};

void mt_register_sequence_grads(void) {
  mt_register_gradients(sequence_grads, (int)(sizeof sequence_grads / sizeof sequence_grads[0]));
}
