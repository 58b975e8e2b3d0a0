/* Gradients of the data-flow ops (runtime/gradient.h), as TensorFlow 2.21's
 * data_flow_grad.py: DynamicStitch hands each data input the rows of the gradient its
 * indices name (GatherV2); the indices get none. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/grad_util.h"

/* An IndexedSlices gradient arrives here densified (see DESIGN.md), so TensorFlow's
 * unsorted_segment_sum of it is not needed. */
static void dynamic_stitch_grad(mt_grad_ctx* g) {
  const int n = g->op->ninputs / 2;
  for (int i = 0; i < n; i++) g->dx[n + i] = mt_gu_gather(g, g->dy[0], mt_g_x(g, i), 0);
}

static const mt_grad_spec data_flow_grads[] = {
    {"DynamicStitch", dynamic_stitch_grad},
};

void mt_register_data_flow_grads(void) {
  mt_register_gradients(data_flow_grads,
                        (int)(sizeof data_flow_grads / sizeof data_flow_grads[0]));
}
