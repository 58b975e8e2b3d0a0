/* Gradients of the string ops: TensorFlow declares these not differentiable
 * (string_ops.py, parsing_ops.py); the full-match ops, StaticRegexReplace and
 * the other string ops have no registration there, so none here either. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"

/* NULL: not differentiable (TensorFlow's ops.NotDifferentiable). */
static const mt_grad_spec string_grads[] = {
    {"AsString", NULL},
    {"ReduceJoin", NULL},
    {"RegexReplace", NULL},
    {"StringJoin", NULL},
    {"StringSplit", NULL},
    {"StringToHashBucket", NULL},
    {"StringToHashBucketFast", NULL},
    {"StringToHashBucketStrong", NULL},
    {"StringToNumber", NULL},
};

void mt_register_string_grads(void) {
  mt_register_gradients(string_grads, (int)(sizeof string_grads / sizeof string_grads[0]));
}
