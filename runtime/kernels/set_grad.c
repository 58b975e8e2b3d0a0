/* The set ops have no gradient (TensorFlow's sets_impl.py marks them
 * NotDifferentiable): their outputs are indices, sets of integers or strings. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"

static const mt_grad_spec set_grads[] = {
    {"SetSize", NULL},
    {"DenseToDenseSetOperation", NULL},
    {"DenseToSparseSetOperation", NULL},
    {"SparseToSparseSetOperation", NULL},
};

void mt_register_set_grads(void) {
  mt_register_gradients(set_grads, (int)(sizeof set_grads / sizeof set_grads[0]));
}
