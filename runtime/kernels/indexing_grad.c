/* Gradients of the indexing family (runtime/gradient.h), node for node as
 * TensorFlow 2.21's array_grad.py builds them: Slice and Pad pad or slice
 * the gradient back, StridedSlice uses StridedSliceGrad, GatherV2 returns
 * IndexedSlices (axis 0) or scatters with UnsortedSegmentSum, GatherNd and
 * ScatterNd are each other's gradient. */
#include <string.h>

#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/array_grad_util.h"
#include "runtime/status.h"

static const TF_Output kNone = {NULL, 0};

/* Pad(grad, [begin, shape(x) - shape(y) - begin]) as an [rank, 2] matrix. */
static void slice_grad(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0), begin = mt_g_x(g, 1);
  TF_DataType idt = mt_g_dtype(begin);
  TF_Output rank = gu_rank(g, x);
  TF_Output slice_size = gu_shape(g, mt_g_y(g, 0), idt);
  gu_val st[2] = {gu_t(rank), gu_i(1)};
  TF_Output shape = gu_pack(g, "stack", st, 2, 0);
  TF_Output before = gu_reshape(g, begin, gu_pt(shape));
  TF_Output in_shape = gu_shape(g, x, idt);
  TF_Output sub = gu_binop(g, "Sub", "sub", gu_t(in_shape), gu_t(slice_size));
  sub = gu_binop(g, "Sub", "sub", gu_t(sub), gu_t(begin));
  TF_Output after = gu_reshape(g, sub, gu_pt(shape));
  gu_part pads[2] = {gu_pt(before), gu_pt(after)};
  TF_Output paddings = gu_concat(g, pads, 2, 1, kNone);
  g->dx[0] = gu_op2(g, "Pad", NULL, g->dy[0], paddings);
}

static void copy_slice_masks(mt_gnode* n) {
  static const char* masks[] = {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                                "shrink_axis_mask"};
  for (int i = 0; i < 5; i++) mt_g_copy_attr(n, masks[i]);
}

/* An input of StridedSliceGrad: the Const "StridedSliceGrad/<arg>" of o's
 * value when tensor_util.constant_value knows it, else o. */
static TF_Output static_or(mt_grad_ctx* g, TF_Output o, const char* arg) {
  int64_t v[32];
  int scalar = 0;
  int n = gu_constant_value(o, v, 32, &scalar);
  if (n < 0) return o;
  return gu_const_ints(g, mt_g_dtype(o), v, n, !scalar, arg);
}

static void strided_slice_grad(mt_grad_ctx* g) {
  TF_Output begin = mt_g_x(g, 1);
  TF_Output shape = gu_shape(g, mt_g_x(g, 0), mt_g_dtype(begin));
  mt_gnode n = mt_g_begin(g, "StridedSliceGrad", NULL);
  gu_scope s;
  gu_enter(&s, &n);
  TF_Output in[4] = {static_or(g, shape, "shape"), static_or(g, begin, "begin"),
                     static_or(g, mt_g_x(g, 2), "end"), static_or(g, mt_g_x(g, 3), "strides")};
  gu_leave(&s);
  for (int i = 0; i < 4; i++) mt_g_in(&n, in[i]);
  mt_g_in(&n, g->dy[0]);
  copy_slice_masks(&n);
  g->dx[0] = mt_g_end0(&n);
}

/* The gradient of StridedSliceGrad's dy: the same slice of the gradient. */
static void strided_slice_grad_grad(mt_grad_ctx* g) {
  mt_gnode n = mt_g_begin(g, "StridedSlice", NULL);
  mt_g_in(&n, g->dy[0]);
  for (int i = 1; i <= 3; i++) mt_g_in(&n, mt_g_x(g, i));
  copy_slice_masks(&n);
  g->dx[4] = mt_g_end0(&n);
}

/* gather(params, indices, axis=0) ("GatherV2", "GatherV2/axis"). */
static TF_Output gather0(mt_grad_ctx* g, TF_Output params, TF_Output indices) {
  mt_gnode n = mt_g_begin(g, "GatherV2", NULL);
  mt_g_in(&n, params);
  mt_g_in(&n, indices);
  int32_t zero = 0;
  mt_g_in_const_i32(&n, "axis", &zero, 1, 0);
  mt_g_attr_int(&n, "batch_dims", 0);
  return mt_g_end0(&n);
}

/* tile(input, multiples) for Python lists ("Tile/input", "Tile/multiples"). */
static TF_Output tile_lists(mt_grad_ctx* g, gu_part input, gu_part multiples) {
  mt_gnode n = mt_g_begin(g, "Tile", NULL);
  gu_scope s;
  gu_enter(&s, &n);
  TF_Output in = input.n ? gu_pack(g, "input", input.list, input.n, 0) : input.t;
  TF_Output m = multiples.n ? gu_pack(g, "multiples", multiples.list, multiples.n, 0)
                            : multiples.t;
  gu_leave(&s);
  mt_g_in(&n, in);
  mt_g_in(&n, m);
  return mt_g_end0(&n);
}

/* TensorFlow's _GetBatchIndices: indices plus the flat offset of each
 * batch position (range over each batch dim, scaled by the dims inside it,
 * reshaped to broadcast). */
static TF_Output batch_indices(mt_grad_ctx* g, TF_Output params_shape, TF_Output indices,
                               int batch_dims) {
  TF_DataType idt = mt_g_dtype(indices);
  TF_Output out = indices;
  TF_Output shape = gu_cast(g, params_shape, idt);
  TF_Output accum = gu_ones(g, NULL, idt, "ones");
  for (int dim = batch_dims; dim > 0; dim--) {
    TF_Output dim_value = gu_getitem(g, shape, 1, 1, gu_i(dim - 1), 0, gu_i(0));
    TF_Output inner = gu_getitem(g, shape, 1, 1, gu_i(dim), 0, gu_i(0));
    accum = gu_binop(g, "Mul", "mul", gu_t(accum), gu_t(inner));
    double zero = 0;
    TF_Output start = mt_g_const(g, idt, NULL, 0, &zero, "zeros");
    TF_Output step = gu_ones(g, NULL, idt, "ones");
    TF_Output idx = gu_range(g, gu_t(start), gu_t(dim_value), gu_t(step));
    idx = gu_binop(g, "Mul", "mul", gu_t(idx), gu_t(accum));
    TF_Output t1 = tile_lists(g, gu_pl1(gu_i(1)), gu_pl1(gu_i(dim - 1)));
    TF_Output sub = gu_binop(g, "Sub", "sub", gu_t(gu_rank(g, indices)), gu_i(dim));
    TF_Output t2 = tile_lists(g, gu_pl1(gu_i(1)), gu_pl1(gu_t(sub)));
    gu_part parts[3] = {gu_pt(t1), gu_pl1(gu_t(dim_value)), gu_pt(t2)};
    TF_Output dim_shape = gu_concat(g, parts, 3, 0, kNone);
    out = gu_binop(g, "AddV2", "add", gu_t(out), gu_t(gu_reshape(g, idx, gu_pt(dim_shape))));
  }
  return out;
}

/* TensorFlow's _BatchGatherGrad: UnsortedSegmentSum of the values over
 * the (batch-offset) indices, batch dims flattened and restored. */
static TF_Output batch_gather_grad(mt_grad_ctx* g, TF_Output params_shape, TF_Output values,
                                   TF_Output indices, int batch_dims, TF_Output gather_dim_size) {
  TF_Output indices_size = gu_expand_dims(g, gu_size(g, indices), 0);
  TF_Output outer = kNone, flat_shape = kNone;
  if (batch_dims) {
    TF_Output values_shape = gu_shape(g, values, TF_INT32);
    outer = gu_getitem(g, values_shape, 0, 0, gu_i(0), 1, gu_i(batch_dims));
    TF_Output inner = gu_getitem(g, values_shape, 0, 1, gu_i(batch_dims), 0, gu_i(0));
    inner = gu_getitem(g, inner, 0, 1, gu_i(1), 0, gu_i(0));
    mt_gnode p = mt_g_begin(g, "Prod", NULL);
    mt_g_in(&p, outer);
    int32_t zero = 0;
    mt_g_in_const_i32(&p, "reduction_indices", &zero, 1, 1);
    mt_g_attr_bool(&p, "keep_dims", 0);
    TF_Output batch_size = mt_g_end0(&p);
    gu_part fp[2] = {gu_pl1(gu_i(-1)), gu_pt(inner)};
    flat_shape = gu_concat(g, fp, 2, 0, kNone);
    gather_dim_size = gu_binop(g, "Mul", "mul", gu_t(gather_dim_size), gu_t(batch_size));
    indices = batch_indices(g, params_shape, indices, batch_dims);
    values = gu_reshape(g, values, gu_pt(flat_shape));
  }
  indices = gu_reshape(g, indices, gu_pt(indices_size));
  mt_gnode u = mt_g_begin(g, "UnsortedSegmentSum", NULL);
  mt_g_in(&u, values);
  mt_g_in(&u, indices);
  mt_g_in(&u, gather_dim_size);
  TF_Output grad = mt_g_end0(&u);
  if (batch_dims) {
    gu_part rp[2] = {gu_pt(outer), gu_pt(flat_shape)};
    grad = gu_reshape(g, grad, gu_pt(gu_concat(g, rp, 2, 0, kNone)));
  }
  return grad;
}

/* A gather along axis > 0: the axis moved next to the batch dims, the
 * batch gather gradient, and the axis moved back. */
static void gather_axis_grad(mt_grad_ctx* g, TF_Output params_shape, int batch_dims) {
  TF_Output axis = mt_g_x(g, 2), indices = mt_g_x(g, 1);
  TF_Output outer = gu_getitem(g, params_shape, 0, 0, gu_i(0), 1, gu_t(axis));
  TF_Output inner = gu_getitem(g, params_shape, 0, 1, gu_t(axis), 0, gu_i(0));
  inner = gu_getitem(g, inner, 0, 1, gu_i(1), 0, gu_i(0));
  gu_part vs[3] = {gu_pt(outer), gu_pl1(gu_i(-1)), gu_pt(inner)};
  TF_Output values_shape = gu_concat(g, vs, 3, 0, kNone);
  TF_Output values_dims = gu_size(g, values_shape);
  TF_Output axis_dims = gu_size(g, outer);
  TF_Output outer_idx = gu_range(g, gu_i(0), gu_i(batch_dims), gu_i(1));
  TF_Output batch_axis_idx = gu_range(g, gu_i(batch_dims), gu_t(axis_dims), gu_i(1));
  TF_Output after = gu_binop(g, "AddV2", "add", gu_t(axis_dims), gu_i(1));
  TF_Output inner_idx = gu_range(g, gu_t(after), gu_t(values_dims), gu_i(1));
  TF_Output values = gu_reshape(g, g->dy[0], gu_pt(values_shape));
  gu_part td[4] = {gu_pt(outer_idx), gu_pl1(gu_t(axis_dims)), gu_pt(batch_axis_idx),
                   gu_pt(inner_idx)};
  TF_Output transpose_dims = gu_concat(g, td, 4, 0, kNone);
  TF_Output values_t = gu_transpose(g, values, transpose_dims);
  TF_Output shape_t = gather0(g, params_shape, transpose_dims);
  TF_Output dim_size = gu_getitem(g, params_shape, 1, 1, gu_t(axis), 0, gu_i(0));
  TF_Output grad = batch_gather_grad(g, shape_t, values_t, indices, batch_dims, dim_size);
  TF_Output moved = gu_binop(g, "AddV2", "add", gu_t(batch_axis_idx), gu_i(1));
  gu_part inv[4] = {gu_pt(outer_idx), gu_pt(moved), gu_pl1(gu_i(batch_dims)), gu_pt(inner_idx)};
  grad = gu_transpose(g, grad, gu_concat(g, inv, 4, 0, kNone));
  g->dx[0] = gu_reshape(g, grad, gu_pt(gu_shape(g, mt_g_x(g, 0), TF_INT32)));
}

static void gather_v2_grad(mt_grad_ctx* g) {
  TF_Output params = mt_g_x(g, 0), indices = mt_g_x(g, 1);
  TF_Output params_shape = gu_shape(g, params, TF_INT32);
  TF_Output indices_size = gu_expand_dims(g, gu_size(g, indices), 0);
  int64_t axis;
  int scalar = 0;
  int axis_known = gu_constant_value(mt_g_x(g, 2), &axis, 1, &scalar) == 1;
  int64_t batch_dims = mt_op_attr_int(g->op, "batch_dims", 0);
  if (batch_dims < 0) {
    const mt_shape* si = mt_g_static_shape(indices);
    if (si->rank < 0) {
      mt_status_setf(g->status, TF_INVALID_ARGUMENT,
                     "Currently, it is unsupported to take the gradient of tf.gather when "
                     "batch_dims < 0 and the rank of the indices is unknown. Please pass a "
                     "positive batch_dims or use tf.ensure_shape to update the shape of indices "
                     "when calling tf.gather. Got batch_dims=%lld and indices=%s",
                     (long long)batch_dims, indices.oper->name);
      return;
    }
    batch_dims += si->rank;
  }
  if (!mt_g_ok(g)) return;
  if (!(axis_known && axis == 0)) {
    gather_axis_grad(g, params_shape, (int)batch_dims);
    return;
  }
  TF_Output tail = gu_getitem(g, params_shape, 0, 1, gu_i(1), 0, gu_i(0));
  gu_part vs[2] = {gu_pt(indices_size), gu_pt(tail)};
  TF_Output values = gu_reshape(g, g->dy[0], gu_pt(gu_concat(g, vs, 2, 0, kNone)));
  TF_Output idx = gu_reshape(g, indices, gu_pt(indices_size));
  mt_g_set_sparse(g, 0, values, idx, params_shape);
}

/* ScatterNd of the gradient into the params' shape; IndexedSlices when the
 * indices are [n, 1] rows. */
static void gather_nd_grad(mt_grad_ctx* g) {
  TF_Output indices = mt_g_x(g, 1);
  TF_Output ref_shape = gu_shape(g, mt_g_x(g, 0), mt_g_dtype(indices));
  const mt_shape* si = mt_g_static_shape(indices);
  if (si->rank == 2 && si->dims[1] == 1) {
    mt_gnode q = mt_g_begin(g, "Squeeze", NULL);
    mt_g_in(&q, indices);
    int64_t last = -1;
    mt_g_attr_ints(&q, "squeeze_dims", &last, 1);
    mt_g_set_sparse(g, 0, g->dy[0], mt_g_end0(&q), ref_shape);
    return;
  }
  mt_gnode s = mt_g_begin(g, "ScatterNd", NULL);
  mt_g_in(&s, indices);
  mt_g_in(&s, g->dy[0]);
  mt_g_in(&s, ref_shape);
  mt_g_copy_attr(&s, "bad_indices_policy");
  g->dx[0] = mt_g_end0(&s);
}

static void scatter_nd_grad(mt_grad_ctx* g) {
  mt_gnode n = mt_g_begin(g, "GatherNd", NULL);
  mt_g_in(&n, g->dy[0]);
  mt_g_in(&n, mt_g_x(g, 0));
  mt_g_attr_str(&n, "bad_indices_policy", "");
  g->dx[1] = mt_g_end0(&n);
}

/* Pad and PadV2: the input's box of the gradient (Slice at the "before"
 * paddings). */
static void pad_grad(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0);
  gu_val st[2] = {gu_t(gu_rank(g, x)), gu_i(1)};
  TF_Output size = gu_pack(g, "stack", st, 2, 0);
  TF_Output before = gu_slice(g, mt_g_x(g, 1), gu_pl2(gu_i(0), gu_i(0)), gu_pt(size));
  TF_Output begin = gu_reshape(g, before, gu_pl1(gu_i(-1)));
  TF_Output sizes = gu_shape(g, x, mt_g_dtype(begin));
  g->dx[0] = gu_slice(g, g->dy[0], gu_pt(begin), gu_pt(sizes));
}

static TF_Output mirror(mt_grad_ctx* g, const char* op_type) {
  mt_gnode n = mt_g_begin(g, op_type, NULL);
  mt_g_in(&n, g->dy[0]);
  mt_g_in(&n, mt_g_x(g, 1));
  mt_g_copy_attr(&n, "mode");
  return mt_g_end0(&n);
}
static void mirror_pad_grad(mt_grad_ctx* g) { g->dx[0] = mirror(g, "MirrorPadGrad"); }
static void mirror_pad_grad_grad(mt_grad_ctx* g) { g->dx[0] = mirror(g, "MirrorPad"); }

/* NULL: not differentiable (TensorFlow's ops.NotDifferentiable). */
static const mt_grad_spec indexing_grads[] = {
    {"Slice", slice_grad},
    {"StridedSlice", strided_slice_grad},
    {"StridedSliceGrad", strided_slice_grad_grad},
    {"GatherV2", gather_v2_grad},
    {"GatherNd", gather_nd_grad},
    {"ScatterNd", scatter_nd_grad},
    {"Pad", pad_grad},
    {"PadV2", pad_grad},
    {"MirrorPad", mirror_pad_grad},
    {"MirrorPadGrad", mirror_pad_grad_grad},
    {"OneHot", NULL},
};

void mt_register_indexing_grads(void) {
  mt_register_gradients(indexing_grads, (int)(sizeof indexing_grads / sizeof indexing_grads[0]));
}
