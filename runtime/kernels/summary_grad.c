/* The summary ops have no gradient: TensorFlow declares them not differentiable
 * (summary_ops), so tf.gradients gives None through them. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"

static const mt_grad_spec summary_grads[] = {
    {"ScalarSummary", NULL},   {"HistogramSummary", NULL}, {"ImageSummary", NULL},
    {"TensorSummaryV2", NULL}, {"MergeSummary", NULL},
};

void mt_register_summary_grads(void) {
  mt_register_gradients(summary_grads, (int)(sizeof summary_grads / sizeof summary_grads[0]));
}
