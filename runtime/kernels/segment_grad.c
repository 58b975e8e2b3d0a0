/* Gradients of the segment family (runtime/gradient.h), node for node as
 * TensorFlow 2.21's math_grad.py builds them. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/array_grad_util.h"

/* array_ops.gather(params, ids) at axis 0 ("GatherV2", "GatherV2/axis"). */
static TF_Output gather0(mt_grad_ctx* g, TF_Output params, TF_Output ids) {
  mt_gnode n = mt_g_begin(g, "GatherV2", NULL);
  mt_g_in(&n, params);
  mt_g_in(&n, ids);
  int32_t zero = 0;
  mt_g_in_const_i32(&n, "axis", &zero, 1, 0);
  mt_g_attr_int(&n, "batch_dims", 0);
  return mt_g_end0(&n);
}

static TF_Output select_v2(mt_grad_ctx* g, TF_Output c, TF_Output a, TF_Output b) {
  mt_gnode s = mt_g_begin(g, "SelectV2", NULL);
  mt_g_in(&s, c);
  mt_g_in(&s, a);
  mt_g_in(&s, b);
  return mt_g_end0(&s);
}

/* TensorFlow's _GatherDropNegatives(params, ids, zero_clipped_indices, is_positive):
 * params gathered at the ids clipped to 0, zeroed where an id is negative. *clipped and
 * *positive are computed when their .oper is NULL (and returned for reuse). */
static TF_Output gather_drop_negatives(mt_grad_ctx* g, TF_Output params, TF_Output ids,
                                       TF_Output* clipped, TF_Output* positive) {
  if (!clipped->oper) *clipped = gu_op2(g, "Maximum", NULL, ids, gu_zeros_like(g, ids));
  TF_Output gathered = gather0(g, params, *clipped);
  if (!positive->oper) {
    TF_Output pos = gu_binop(g, "GreaterEqual", "GreaterEqual", gu_t(ids), gu_i(0));
    TF_Output positive_shape = gu_shape(g, pos, TF_INT32);
    TF_Output rank_gathered = gu_rank(g, gathered);
    TF_Output rank_positive = gu_rank(g, pos);
    gu_val extra = gu_t(gu_binop(g, "Sub", "sub", gu_t(rank_gathered), gu_t(rank_positive)));
    TF_Output ones = gu_ones(g, &extra, TF_INT32, "ones");
    gu_part parts[2] = {gu_pt(positive_shape), gu_pt(ones)};
    TF_Output shape = gu_concat(g, parts, 2, 0, (TF_Output){NULL, 0});
    pos = gu_reshape(g, pos, gu_pt(shape));
    TF_Output all = gu_ones_like(g, gathered, TF_BOOL);
    *positive = gu_op2(g, "LogicalAnd", "and", pos, all);
  }
  TF_Output zero_slice = gu_zeros_like(g, gathered);
  return select_v2(g, *positive, gathered, zero_slice);
}

static void unsorted_segment_sum_grad(mt_grad_ctx* g) {
  TF_Output clipped = {NULL, 0}, positive = {NULL, 0};
  g->dx[0] = gather_drop_negatives(g, g->dy[0], mt_g_x(g, 1), &clipped, &positive);
}

static TF_Output cast_to(mt_grad_ctx* g, TF_Output x, TF_DataType dt) {
  mt_gnode n = mt_g_begin(g, "Cast", NULL);
  mt_g_in(&n, x);
  mt_g_attr_type(&n, "DstT", dt);
  return mt_g_end0(&n);
}

/* math_ops.segment_sum / unsorted_segment_sum of x over the forward op's ids. */
static TF_Output segment_sum_of(mt_grad_ctx* g, TF_Output x, int unsorted) {
  mt_gnode n = mt_g_begin(g, unsorted ? "UnsortedSegmentSum" : "SegmentSum", NULL);
  mt_g_in(&n, x);
  mt_g_in(&n, mt_g_x(g, 1));
  if (unsorted) mt_g_in(&n, mt_g_x(g, 2));
  return mt_g_end0(&n);
}

static TF_Output truediv(mt_grad_ctx* g, TF_Output x, TF_Output y) {
  return gu_op2(g, "RealDiv", "truediv", x, y);
}

static void segment_sum_grad(mt_grad_ctx* g) { g->dx[0] = gather0(g, g->dy[0], mt_g_x(g, 1)); }

/* grad / (segment sizes), gathered back. */
static void segment_mean_grad(mt_grad_ctx* g) {
  TF_Output data = mt_g_x(g, 0), ids = mt_g_x(g, 1);
  TF_Output rank = gu_rank(g, data);
  TF_Output ids_shape = gu_shape(g, ids, TF_INT32);
  TF_Output rm1 = gu_binop(g, "Sub", "sub", gu_t(rank), gu_i(1));
  TF_Output dims = gu_expand_dims(g, rm1, 0);
  mt_gnode f = mt_g_begin(g, "Fill", "ones");
  gu_scope sc;
  gu_enter(&sc, &f);
  double one = 1;
  TF_Output k = mt_g_const(g, TF_INT32, NULL, 0, &one, "Const");
  gu_leave(&sc);
  mt_g_in(&f, dims);
  mt_g_in(&f, k);
  TF_Output remaining = mt_g_end0(&f);
  gu_part parts[2] = {gu_pt(ids_shape), gu_pt(remaining)};
  TF_Output ones_shape = gu_concat(g, parts, 2, 0, (TF_Output){NULL, 0});
  mt_gnode f2 = mt_g_begin(g, "Fill", "ones");
  gu_enter(&sc, &f2);
  TF_Output k2 = mt_g_const(g, mt_g_dtype(g->dy[0]), NULL, 0, &one, "Const");
  gu_leave(&sc);
  mt_g_in(&f2, ones_shape);
  mt_g_in(&f2, k2);
  TF_Output ones = mt_g_end0(&f2);
  TF_Output scaled = truediv(g, g->dy[0], segment_sum_of(g, ones, 0));
  g->dx[0] = gather0(g, scaled, ids);
}

/* The gradient goes, split evenly, to the elements equal to their segment's extreme. */
static void segment_min_max_grad(mt_grad_ctx* g) {
  TF_Output data = mt_g_x(g, 0), ids = mt_g_x(g, 1);
  TF_Output zeros = gu_zeros_like(g, data);
  TF_Output gathered = gather0(g, mt_g_y(g, 0), ids);
  TF_Output selected = gu_op2(g, "Equal", "Equal", data, gathered);
  TF_Output num = segment_sum_of(g, cast_to(g, selected, mt_g_dtype(g->dy[0])), 0);
  TF_Output weighted = truediv(g, g->dy[0], num);
  TF_Output gathered_grads = gather0(g, weighted, ids);
  g->dx[0] = select_v2(g, selected, gathered_grads, zeros);
}

static void unsorted_segment_min_max_grad(mt_grad_ctx* g) {
  TF_Output clipped = {NULL, 0}, positive = {NULL, 0};
  TF_Output gathered = gather_drop_negatives(g, mt_g_y(g, 0), mt_g_x(g, 1), &clipped, &positive);
  TF_Output selected = gu_op2(g, "Equal", "Equal", mt_g_x(g, 0), gathered);
  selected = gu_op2(g, "LogicalAnd", "LogicalAnd", selected, positive);
  TF_Output num = segment_sum_of(g, cast_to(g, selected, mt_g_dtype(g->dy[0])), 1);
  TF_Output weighted = truediv(g, g->dy[0], num);
  TF_Output gathered_grads = gather_drop_negatives(g, weighted, (TF_Output){NULL, 0}, &clipped,
                                                   &positive);
  TF_Output zeros = gu_zeros_like(g, gathered_grads);
  g->dx[0] = select_v2(g, selected, gathered_grads, zeros);
}

/* Products: the segment's product over each element, except where a segment has zeros (one
 * zero: the product of the others for it, 0 for the rest; two or more: 0). */
static void segment_prod_grads(mt_grad_ctx* g, int unsorted) {
  TF_Output data = mt_g_x(g, 0), ids = mt_g_x(g, 1), grad = g->dy[0];
  TF_Output is_zero = gu_binop(g, "Equal", "Equal", gu_t(data), gu_i(0));
  TF_Output num_zeros = segment_sum_of(g, cast_to(g, is_zero, TF_INT32), unsorted);
  TF_Output many = gu_binop(g, "Greater", "Greater", gu_t(num_zeros), gu_i(1));
  grad = select_v2(g, many, gu_zeros_like(g, grad), grad);
  TF_Output non_zero_data = select_v2(g, is_zero, gu_ones_like(g, data, mt_g_dtype(data)), data);
  mt_gnode p = mt_g_begin(g, unsorted ? "UnsortedSegmentProd" : "SegmentProd", NULL);
  mt_g_in(&p, non_zero_data);
  mt_g_in(&p, ids);
  if (unsorted) mt_g_in(&p, mt_g_x(g, 2));
  TF_Output non_zero_prod = mt_g_end0(&p);
  TF_Output clipped = ids, positive = {NULL, 0};
  if (unsorted) clipped = gu_op2(g, "Maximum", NULL, ids, gu_zeros_like(g, ids));
  TF_Output gathered_prod = gather0(g, mt_g_y(g, 0), clipped);
  TF_Output gathered_non_zero = gather0(g, non_zero_prod, clipped);
  TF_Output divided = truediv(g, gathered_prod, unsorted ? data : non_zero_data);
  TF_Output partial = select_v2(g, is_zero, gathered_non_zero, divided);
  TF_Output gathered_grad = unsorted ? gather_drop_negatives(g, grad, ids, &clipped, &positive)
                                     : gather0(g, grad, ids);
  g->dx[0] = gu_op2(g, "Mul", "mul", gathered_grad, partial);
}
static void segment_prod_grad(mt_grad_ctx* g) { segment_prod_grads(g, 0); }
static void unsorted_segment_prod_grad(mt_grad_ctx* g) { segment_prod_grads(g, 1); }

static const mt_grad_spec segment_grads[] = {
    {"UnsortedSegmentSum", unsorted_segment_sum_grad},
    {"UnsortedSegmentMax", unsorted_segment_min_max_grad},
    {"UnsortedSegmentMin", unsorted_segment_min_max_grad},
    {"UnsortedSegmentProd", unsorted_segment_prod_grad},
    {"SegmentSum", segment_sum_grad},
    {"SegmentMean", segment_mean_grad},
    {"SegmentMax", segment_min_max_grad},
    {"SegmentMin", segment_min_max_grad},
    {"SegmentProd", segment_prod_grad},
};

void mt_register_segment_grads(void) {
  mt_register_gradients(segment_grads, (int)(sizeof segment_grads / sizeof segment_grads[0]));
}
