/* Gradients of the data-flow ops (runtime/gradient.h), as TensorFlow 2.21's
 * data_flow_grad.py: DynamicStitch hands each data input the rows of the gradient its
 * indices name (GatherV2); the indices get none. */
#include <stdlib.h>

#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/grad_util.h"

/* An IndexedSlices gradient arrives here densified (see DESIGN.md), so TensorFlow's
 * unsorted_segment_sum of it is not needed. */
static void dynamic_stitch_grad(mt_grad_ctx* g) {
  const int n = g->op->ninputs / 2;
  for (int i = 0; i < n; i++) g->dx[n + i] = mt_gu_gather(g, g->dy[0], mt_g_x(g, i), 0);
}

/* TensorFlow's _DynamicPartitionGrads: the flat positions of `partitions`
 * (Reshape(range(Prod(Shape))) partitioned the same way) stitch the
 * outputs' gradients back into data's shape; partitions get none. */
static void dynamic_partition_grad(mt_grad_ctx* g) {
  const int np = g->op->noutputs;
  TF_Output prefix = mt_g_shape(g, mt_g_x(g, 1));
  const int32_t zero = 0;
  TF_Output axes = mt_g_const_i32(g, &zero, 1, 1, NULL);
  TF_Output total = mt_gu_reduce(g, "Prod", prefix, axes);
  TF_Output original = mt_g_reshape(g, mt_gu_range(g, total), prefix);
  mt_gnode part = mt_g_begin(g, "DynamicPartition", NULL);
  mt_g_in(&part, original);
  mt_g_in(&part, mt_g_x(g, 1));
  mt_g_attr_int(&part, "num_partitions", np);
  TF_Operation* parts = mt_g_end(&part);
  if (!parts) return;
  TF_Output* idx = malloc(sizeof *idx * (size_t)np);
  if (!idx) return;
  for (int i = 0; i < np; i++) idx[i] = (TF_Output){parts, i};
  mt_gnode st = mt_g_begin(g, "ParallelDynamicStitch", NULL);
  mt_g_in_list(&st, idx, np);
  mt_g_in_list(&st, g->dy, np);
  TF_Output stitched = mt_g_end0(&st);
  free(idx);
  if (!stitched.oper) return;
  g->dx[0] = mt_g_reshape(g, stitched, mt_g_shape(g, mt_g_x(g, 0)));
}

static const mt_grad_spec data_flow_grads[] = {
    {"DynamicStitch", dynamic_stitch_grad},
    {"ParallelDynamicStitch", dynamic_stitch_grad},
    {"DynamicPartition", dynamic_partition_grad},
};

void mt_register_data_flow_grads(void) {
  mt_register_gradients(data_flow_grads,
                        (int)(sizeof data_flow_grads / sizeof data_flow_grads[0]));
}
