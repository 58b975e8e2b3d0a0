/* The random ops have no gradient: TensorFlow declares them not differentiable
 * (random_grad.py / random_ops.py), so tf.gradients gives None through them. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"

static const mt_grad_spec random_grads[] = {
    {"RandomUniform", NULL}, {"RandomStandardNormal", NULL},
    {"TruncatedNormal", NULL}, {"RandomShuffle", NULL}, {"Multinomial", NULL},
    /* stateless_random_ops.py: not differentiable (the key/counter ops have no
     * entry there, so tf.gradients fails through them, as TensorFlow's) */
    {"StatelessRandomUniform", NULL}, {"StatelessRandomNormal", NULL},
    {"StatelessTruncatedNormal", NULL}, {"StatelessRandomUniformInt", NULL},
    {"StatelessRandomUniformFullInt", NULL}, {"StatelessRandomUniformV2", NULL},
    {"StatelessRandomNormalV2", NULL}, {"StatelessTruncatedNormalV2", NULL},
    {"StatelessRandomUniformIntV2", NULL}, {"StatelessRandomUniformFullIntV2", NULL},
    {"StatelessMultinomial", NULL},
};

void mt_register_random_grads(void) {
  mt_register_gradients(random_grads, (int)(sizeof random_grads / sizeof random_grads[0]));
}
