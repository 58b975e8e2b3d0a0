/* Gradients of the segment family (runtime/gradient.h), node for node as
 * TensorFlow 2.21's math_grad.py builds them. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/array_grad_util.h"

/* TensorFlow's _GatherDropNegatives(grad, ids): grad gathered at the ids
 * clipped to 0, zeroed where an id is negative. */
static void unsorted_segment_sum_grad(mt_grad_ctx* g) {
  TF_Output ids = mt_g_x(g, 1);
  TF_Output zeros = gu_zeros_like(g, ids);
  TF_Output clipped = gu_op2(g, "Maximum", NULL, ids, zeros);
  mt_gnode n = mt_g_begin(g, "GatherV2", NULL);
  mt_g_in(&n, g->dy[0]);
  mt_g_in(&n, clipped);
  int32_t zero = 0;
  mt_g_in_const_i32(&n, "axis", &zero, 1, 0);
  mt_g_attr_int(&n, "batch_dims", 0);
  TF_Output gathered = mt_g_end0(&n);
  TF_Output positive = gu_binop(g, "GreaterEqual", "GreaterEqual", gu_t(ids), gu_i(0));
  TF_Output positive_shape = gu_shape(g, positive, TF_INT32);
  TF_Output rank_gathered = gu_rank(g, gathered);
  TF_Output rank_positive = gu_rank(g, positive);
  gu_val extra = gu_t(gu_binop(g, "Sub", "sub", gu_t(rank_gathered), gu_t(rank_positive)));
  TF_Output ones = gu_ones(g, &extra, TF_INT32, "ones");
  gu_part parts[2] = {gu_pt(positive_shape), gu_pt(ones)};
  TF_Output shape = gu_concat(g, parts, 2, 0, (TF_Output){NULL, 0});
  positive = gu_reshape(g, positive, gu_pt(shape));
  TF_Output all = gu_ones_like(g, gathered, TF_BOOL);
  positive = gu_op2(g, "LogicalAnd", "and", positive, all);
  TF_Output zero_slice = gu_zeros_like(g, gathered);
  mt_gnode s = mt_g_begin(g, "SelectV2", NULL);
  mt_g_in(&s, positive);
  mt_g_in(&s, gathered);
  mt_g_in(&s, zero_slice);
  g->dx[0] = mt_g_end0(&s);
}

static const mt_grad_spec segment_grads[] = {
    {"UnsortedSegmentSum", unsorted_segment_sum_grad},
};

void mt_register_segment_grads(void) {
  mt_register_gradients(segment_grads, (int)(sizeof segment_grads / sizeof segment_grads[0]));
}
