/* Gradients of the parsing ops: TensorFlow declares DecodeRaw, SerializeTensor,
 * ParseTensor, EncodeBase64 and DecodeBase64 not differentiable (parsing_ops.py,
 * string_ops.py); there is nothing to differentiate through bytes. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"

/* NULL: not differentiable (TensorFlow's ops.NotDifferentiable). */
static const mt_grad_spec parsing_grads[] = {
    {"DecodeBase64", NULL},  {"DecodeRaw", NULL},   {"EncodeBase64", NULL},
    {"ParseTensor", NULL},   {"SerializeTensor", NULL},
};

void mt_register_parsing_grads(void) {
  mt_register_gradients(parsing_grads, (int)(sizeof parsing_grads / sizeof parsing_grads[0]));
}
