/* Gradients of the array family (runtime/gradient.h), as TensorFlow 2.21's
 * array_grad.py builds them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/array/array_util.h"
#include "runtime/kernels/array_grad_util.h"
#include "runtime/status.h"

static void identity_grad(mt_grad_ctx* g) { g->dx[0] = g->dy[0]; }

static void identity_n_grad(mt_grad_ctx* g) {
  for (int i = 0; i < g->op->ninputs; i++) g->dx[i] = g->dy[i];
}

/* TensorFlow's _ReshapeToInput: Reshape(grad, Shape(input)), for Reshape, ExpandDims and
 * Squeeze. */
static void reshape_to_input_grad(mt_grad_ctx* g) {
  TF_Output shape = mt_g_shape(g, mt_g_x(g, 0));
  g->dx[0] = mt_g_reshape(g, g->dy[0], shape);
}

/* TensorFlow's _ReshapeGrad: an input shape of known rank with exactly one unknown dim
 * (and no 0) becomes the list with -1 there (the Const "Reshape/shape"), else as above. */
static void reshape_grad(mt_grad_ctx* g) {
  const mt_shape* s = mt_g_static_shape(mt_g_x(g, 0));
  int unknown = 0, zero = 0;
  for (int d = 0; s->rank > 0 && d < s->rank; d++) {
    unknown += s->dims[d] < 0;
    zero |= s->dims[d] == 0;
  }
  if (unknown != 1 || zero) {
    reshape_to_input_grad(g);
    return;
  }
  int32_t dims[MT_MAX_DIMS];
  for (int d = 0; d < s->rank; d++) dims[d] = (int32_t)s->dims[d];
  mt_gnode r = mt_g_begin(g, "Reshape", NULL);
  mt_g_in(&r, g->dy[0]);
  mt_g_in_const_i32(&r, "shape", dims, s->rank, 1);
  g->dx[0] = mt_g_end0(&r);
}


/* transpose(grad, invert_permutation(perm)). */
static void transpose_grad(mt_grad_ctx* g) {
  TF_Output inv = gu_op1(g, "InvertPermutation", NULL, mt_g_x(g, 1));
  g->dx[0] = gu_transpose(g, g->dy[0], inv);
}

/* TensorFlow's _ExtractInputShapes: Shape consts while every input's shape
 * is known; at the first that is not, one ShapeN of all (the Shape made for
 * it stays, unused, as in TensorFlow). */
static void concat_input_shapes(mt_grad_ctx* g, int n, TF_Output* sizes) {
  for (int i = 0; i < n; i++) {
    sizes[i] = gu_shape(g, mt_g_x(g, i), TF_INT32);
    if (!sizes[i].oper || strcmp(sizes[i].oper->op_type, "Const") == 0) continue;
    mt_gnode s = mt_g_begin(g, "ShapeN", NULL);
    TF_Output* xs = g->op->inputs;
    mt_g_in_list(&s, xs, n);
    mt_g_attr_type(&s, "out_type", TF_INT32);
    TF_Operation* op = mt_g_end(&s);
    for (int k = 0; k < n; k++) sizes[k] = (TF_Output){op, k};
    return;
  }
}

/* Many inputs: split(grad, sizes along the axis) with one SplitV. */
static void concat_grad_split(mt_grad_ctx* g, int n, TF_Output axis, const TF_Output* sizes) {
  TF_Output stack = gu_stack_axis(g, sizes, n, 1);
  TF_Output sl = gu_slice(g, stack, gu_pl2(gu_t(axis), gu_i(0)), gu_pl2(gu_i(1), gu_i(-1)));
  mt_gnode q = mt_g_begin(g, "Squeeze", NULL);
  mt_g_in(&q, sl);
  mt_g_attr_ints(&q, "squeeze_dims", NULL, 0);
  TF_Output sq = mt_g_end0(&q);
  mt_gnode s = mt_g_begin(g, "SplitV", "split");
  mt_g_in(&s, g->dy[0]);
  mt_g_in(&s, sq);
  mt_g_in(&s, axis);
  mt_g_attr_int(&s, "num_split", n);
  TF_Operation* op = mt_g_end(&s);
  for (int i = 0; op && i < n; i++) g->dx[i] = (TF_Output){op, i};
}

/* TensorFlow's _ConcatGradHelper for a dense gradient: the slices of grad
 * at ConcatOffset (16 inputs or fewer), else one SplitV. */
static void concat_grad(mt_grad_ctx* g) {
  const int n = g->op->ninputs - 1;
  TF_Output rank = gu_rank(g, mt_g_x(g, 0));
  TF_Output axis = gu_binop(g, "FloorMod", "mod", gu_t(mt_g_x(g, n)), gu_t(rank));
  TF_Output* sizes = calloc((size_t)n + 1, sizeof(TF_Output));
  if (!sizes) {
    mt_status_setf(g->status, TF_RESOURCE_EXHAUSTED, "out of memory building gradients");
    return;
  }
  concat_input_shapes(g, n, sizes);
  if (n > 16) {
    concat_grad_split(g, n, axis, sizes);
    free(sizes);
    return;
  }
  mt_gnode c = mt_g_begin(g, "ConcatOffset", NULL);
  mt_g_in(&c, axis);
  if (mt_g_ok(g)) mt_g_in_list(&c, sizes, n);
  TF_Operation* off = mt_g_end(&c);
  for (int i = 0; off && i < n; i++)
    g->dx[i] = gu_slice(g, g->dy[0], gu_pt((TF_Output){off, i}), gu_pt(sizes[i]));
  free(sizes);
}

/* 1 if every output has a gradient (the walkers give zeros to float
 * outputs nothing reached; others have none). */
static int all_dy(mt_grad_ctx* g) {
  for (int i = 0; i < g->op->noutputs; i++) {
    if (g->dy[i].oper) continue;
    mt_status_setf(g->status, TF_INVALID_ARGUMENT, "gradient of %s: output %d has no gradient",
                   g->op->name, i);
    return 0;
  }
  return 1;
}

static void pack_grad(mt_grad_ctx* g) {
  mt_gnode u = mt_g_begin(g, "Unpack", "unstack");
  mt_g_in(&u, g->dy[0]);
  mt_g_attr_int(&u, "num", g->op->ninputs);
  mt_g_copy_attr(&u, "axis");
  TF_Operation* op = mt_g_end(&u);
  for (int i = 0; op && i < g->op->ninputs; i++) g->dx[i] = (TF_Output){op, i};
}

static void unpack_grad(mt_grad_ctx* g) {
  if (!all_dy(g)) return;
  mt_gnode p = mt_g_begin(g, "Pack", "stack");
  if (mt_g_ok(g)) mt_g_in_list(&p, g->dy, g->op->noutputs);
  mt_g_copy_attr(&p, "axis");
  g->dx[0] = mt_g_end0(&p);
}

/* concat(grads, axis) for Split (axis input 0, value 1) and SplitV (value
 * 0, axis 2). */
static void split_grads(mt_grad_ctx* g, int value, int axis) {
  const int n = g->op->noutputs;
  if (!all_dy(g)) return;
  gu_part* parts = calloc((size_t)n + 1, sizeof(gu_part));
  if (!parts) {
    mt_status_setf(g->status, TF_RESOURCE_EXHAUSTED, "out of memory building gradients");
    return;
  }
  for (int i = 0; i < n; i++) parts[i] = gu_pt(g->dy[i]);
  g->dx[value] = gu_concat(g, parts, n, 0, mt_g_x(g, axis));
  free(parts);
}
static void split_grad(mt_grad_ctx* g) { split_grads(g, 1, 0); }
static void splitv_grad(mt_grad_ctx* g) { split_grads(g, 0, 2); }

/* Sums grad over the tiled copies: reshaped to interleaved
 * [multiples[0], shape[0], multiples[1], ...], reduced over the even axes. */
static void tile_grad(mt_grad_ctx* g) {
  TF_Output mult = mt_g_x(g, 1);
  TF_Output in_shape = gu_shape(g, mt_g_x(g, 0), mt_g_dtype(mult));
  gu_val both[2] = {gu_t(mult), gu_t(in_shape)};
  TF_Output stack = gu_pack(g, "stack", both, 2, 0);
  TF_Output split_shape = gu_reshape(g, gu_transpose(g, stack, (TF_Output){NULL, 0}),
                                     gu_pl1(gu_i(-1)));
  TF_Output axes = gu_range(g, gu_i(0), gu_t(gu_size(g, split_shape)), gu_i(2));
  TF_Output r = gu_reshape(g, g->dy[0], gu_pt(split_shape));
  g->dx[0] = gu_reduce_sum(g, r, axes, 0);
}

/* Sums grad over the broadcast dims (BroadcastGradientArgs of the target
 * shape, a Const when TensorFlow can evaluate it, and the input's). */
static void broadcast_to_grad(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0), shape = mt_g_x(g, 1);
  TF_DataType dt = mt_g_dtype(shape);
  TF_Output in_shape = gu_shape(g, x, dt);
  int64_t v[MT_MAX_DIMS];
  int scalar = 0;
  int n = gu_constant_value(shape, v, MT_MAX_DIMS, &scalar);
  int known = n >= 0 && !scalar;
  for (int i = 0; known && i < n; i++) known = v[i] >= 0;
  if (known) shape = gu_const_ints(g, dt, v, n, 1, "Const");
  mt_gnode b = mt_g_begin(g, "BroadcastGradientArgs", NULL);
  mt_g_in(&b, shape);
  mt_g_in(&b, in_shape);
  TF_Operation* args = mt_g_end(&b);
  TF_Output sum = gu_reduce_sum(g, g->dy[0], (TF_Output){args, 1}, 1);
  g->dx[0] = gu_reshape(g, sum, gu_pt(in_shape));
}

static void reverse_v2_grad(mt_grad_ctx* g) {
  g->dx[0] = gu_op2(g, "ReverseV2", NULL, g->dy[0], mt_g_x(g, 1));
}

/* Fill's value gets the sum of the gradient. */
static void fill_grad(mt_grad_ctx* g) {
  g->dx[1] = gu_reduce_sum(g, g->dy[0], (TF_Output){NULL, 0}, 0);
}

/* TensorFlow raises LookupError here; NOT_FOUND is how a C gradient says
 * "no gradient" (tf.gradients turns it into LookupError). */
static void prevent_gradient_grad(mt_grad_ctx* g) {
  char reason[512];
  gu_bytes_repr(mt_op_attr_str(g->op, "message", ""), reason, sizeof reason);
  mt_status_setf(g->status, TF_NOT_FOUND, "Gradient explicitly disabled. Reason: %s", reason);
}

/* check_numerics(grad) with TensorFlow's message (the forward message as
 * Python prints bytes). */
static void check_numerics_grad(mt_grad_ctx* g) {
  char reason[512], msg[640];
  gu_bytes_repr(mt_op_attr_str(g->op, "message", ""), reason, sizeof reason);
  snprintf(msg, sizeof msg,
           "Not a number (NaN) or infinity (Inf) values detected in gradient. %s", reason);
  mt_gnode n = mt_g_begin(g, "CheckNumerics", NULL);
  mt_g_in(&n, g->dy[0]);
  mt_g_attr_str(&n, "message", msg);
  g->dx[0] = mt_g_end0(&n);
}

/* NULL: not differentiable (TensorFlow's ops.NotDifferentiable). */
static const mt_grad_spec array_grads[] = {
    {"Identity", identity_grad},
    {"IdentityN", identity_n_grad},
    {"Reshape", reshape_grad},
    {"ExpandDims", reshape_to_input_grad},
    {"Squeeze", reshape_to_input_grad},
    {"PlaceholderWithDefault", identity_grad},
    {"StopGradient", NULL},
    {"Const", NULL},
    {"ZerosLike", NULL},
    {"OnesLike", NULL},
    {"Shape", NULL},
    {"ShapeN", NULL},
    {"Rank", NULL},
    {"Size", NULL},
    {"BroadcastGradientArgs", NULL},
    {"Transpose", transpose_grad},
    {"ConcatV2", concat_grad},
    {"Pack", pack_grad},
    {"Unpack", unpack_grad},
    {"Split", split_grad},
    {"SplitV", splitv_grad},
    {"Tile", tile_grad},
    {"BroadcastTo", broadcast_to_grad},
    {"ReverseV2", reverse_v2_grad},
    {"Fill", fill_grad},
    {"PreventGradient", prevent_gradient_grad},
    {"CheckNumerics", check_numerics_grad},
    {"InvertPermutation", NULL},
    {"ConcatOffset", NULL},
    {"Range", NULL},
};

void mt_register_array_grads(void) {
  mt_register_gradients(array_grads, (int)(sizeof array_grads / sizeof array_grads[0]));
  mt_register_array_scatter_grads();
}
