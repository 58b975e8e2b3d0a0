/* Gradients of the reductions (runtime/gradient.h), node for node as TensorFlow 2.21's
 * math_grad.py: Sum, Mean, Prod, Max, Min, Cumsum, Cumprod; ArgMax/ArgMin have none. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/grad_util.h"

#include <stdio.h>
#include <string.h>

static TF_Output tile(mt_grad_ctx* g, TF_Output x, TF_Output multiples) {
  return mt_g_binary(g, "Tile", x, multiples);
}

/* np.array_equal(axes, np.arange(rank)): a vector naming every dim in order. */
static int reduces_all_in_order(TF_Output axes_t, const int64_t* axes, int nax, int rank) {
  const TF_Tensor* t = mt_g_const_value(axes_t);
  if (!t || t->ndims != 1 || nax != rank) return 0;
  for (int i = 0; i < nax; i++)
    if (axes[i] != i) return 0;
  return 1;
}

/* TensorFlow works out the tile multiples once per graph and (shape, axes)
 * (its _reduced_shape_cache) as shape // maximum(kept, 1) with graph ops it
 * then folds: those nodes stay in its graph, unused, and so they do here. */
static int note_tile_scaling(mt_grad_ctx* g, const int64_t* dims, int rank, const int64_t* axes,
                             int nax, const int32_t* kept) {
  char key[64 + 2 * 24 * (MT_MAX_DIMS + 64)];
  size_t len = (size_t)snprintf(key, sizeof key, "reduced_shape_cache:");
  for (int i = 0; i < rank; i++)
    len += (size_t)snprintf(key + len, sizeof key - len, "%lld,", (long long)dims[i]);
  len += (size_t)snprintf(key + len, sizeof key - len, "|");
  for (int i = 0; i < nax; i++)
    len += (size_t)snprintf(key + len, sizeof key - len, "%lld,", (long long)axes[i]);
  const int added = mt_graph_grad_key_add(g->graph, key);
  if (added < 0) {
    mt_status_setf(g->status, TF_RESOURCE_EXHAUSTED, "out of memory building gradients");
    return 0;
  }
  if (!added) return 1;
  int32_t shape[MT_MAX_DIMS], one = 1;
  for (int i = 0; i < rank; i++) shape[i] = (int32_t)dims[i];
  mt_gnode m = mt_g_begin(g, "Maximum", NULL);
  mt_g_in_const_i32(&m, "x", kept, rank, 1);
  mt_g_in_const_i32(&m, "y", &one, 1, 0);
  TF_Output floor = mt_g_end0(&m);
  mt_gnode d = mt_g_begin(g, "FloorDiv", "floordiv");
  mt_g_in_const_i32(&d, "x", shape, rank, 1);
  mt_g_in(&d, floor);
  mt_g_end(&d);
  return mt_g_ok(g);
}

/* _SumGrad's fast paths (static rank and axes): Reshape and Tile. {NULL}
 * when they do not apply. */
static TF_Output sum_grad_static(mt_grad_ctx* g, TF_Output x, TF_Output grad) {
  const mt_shape* xs = mt_g_static_shape(x);
  int64_t axes[64];
  const int nax = xs->rank >= 0 ? mt_gu_const_ints(mt_g_x(g, 1), axes, 64) : -1;
  if (nax < 0) return (TF_Output){NULL, 0};
  if (reduces_all_in_order(mt_g_x(g, 1), axes, nax, xs->rank)) {
    int32_t ones[MT_MAX_DIMS];
    for (int i = 0; i < xs->rank; i++) ones[i] = 1;
    TF_Output reshaped = mt_gu_reshape_const(g, grad, ones, xs->rank);
    TF_Output shape;
    if (mt_g_fully_defined(xs)) {
      int32_t dims[MT_MAX_DIMS];
      for (int i = 0; i < xs->rank; i++) dims[i] = (int32_t)xs->dims[i];
      shape = mt_g_const_i32(g, dims, xs->rank, 1, "Const");
    } else {
      shape = mt_g_shape(g, x);
    }
    return tile(g, reshaped, shape);
  }
  if (!mt_g_fully_defined(xs)) return (TF_Output){NULL, 0};
  /* static kept-dims shape and tile multiples (graph-level cache in TensorFlow) */
  int64_t dims[MT_MAX_DIMS];
  for (int i = 0; i < xs->rank; i++) dims[i] = xs->dims[i];
  mt_gu_kept_shape kept;
  kept.is_static = 1;
  kept.rank = xs->rank;
  for (int i = 0; i < xs->rank; i++) kept.dims[i] = (int32_t)dims[i];
  for (int i = 0; i < nax; i++) {
    int64_t a = axes[i] < 0 ? axes[i] + xs->rank : axes[i];
    if (a < 0 || a >= xs->rank) {
      mt_status_setf(g->status, TF_INVALID_ARGUMENT, "Invalid reduction axis %lld for %s",
                     (long long)axes[i], g->op->name);
      return (TF_Output){NULL, 0};
    }
    kept.dims[a] = 1;
  }
  int32_t mult[MT_MAX_DIMS];
  for (int i = 0; i < xs->rank; i++)
    mult[i] = (int32_t)(dims[i] / (kept.dims[i] > 1 ? kept.dims[i] : 1));
  if (!note_tile_scaling(g, dims, xs->rank, axes, nax, kept.dims)) return (TF_Output){NULL, 0};
  TF_Output reshaped = mt_gu_reshape_kept(g, grad, &kept);
  mt_gnode t = mt_g_begin(g, "Tile", NULL);
  mt_g_in(&t, reshaped);
  mt_g_in_const_i32(&t, "multiples", mult, xs->rank, 1);
  return mt_g_end0(&t);
}

/* TensorFlow's _SumGrad: the gradient reshaped to the kept-dims shape and
 * broadcast back to the input's. */
static TF_Output sum_grad_of(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0), grad = g->dy[0];
  TF_Output fast = sum_grad_static(g, x, grad);
  if (fast.oper || !mt_g_ok(g)) return fast;
  TF_Output shape = mt_g_shape(g, x);
  if (!mt_op_attr_bool(g->op, "keep_dims", 0)) {
    mt_gu_kept_shape kept;
    if (!mt_gu_reduced_shape(g, shape, mt_g_x(g, 1), &kept)) return (TF_Output){NULL, 0};
    grad = mt_gu_reshape_kept(g, grad, &kept);
  }
  return mt_g_binary(g, "BroadcastTo", grad, shape);
}

static void sum_grad(mt_grad_ctx* g) { g->dx[0] = sum_grad_of(g); }

static int64_t num_elements(const mt_shape* s) {
  int64_t n = 1;
  for (int i = 0; i < s->rank; i++) n *= s->dims[i];
  return n;
}

/* TensorFlow's _MeanGrad: the Sum gradient divided by the number of elements averaged. */
static void mean_grad(mt_grad_ctx* g) {
  TF_Output sum = sum_grad_of(g);
  if (!sum.oper) return;
  const mt_shape* xs = mt_g_static_shape(mt_g_x(g, 0));
  const mt_shape* ys = mt_g_static_shape(mt_g_y(g, 0));
  TF_Output factor;
  if (mt_g_fully_defined(xs) && mt_g_fully_defined(ys)) {
    int64_t out = num_elements(ys);
    double f = (double)(num_elements(xs) / (out > 1 ? out : 1));
    factor = mt_g_const(g, mt_g_dtype(sum), NULL, 0, &f, "Const");
  } else {
    TF_Output shape = mt_g_shape(g, mt_g_x(g, 0));
    TF_Output size = mt_gu_size(g, shape, TF_INT32);
    TF_Output axes = mt_gu_cast(g, mt_g_x(g, 1), TF_INT32);
    TF_Output shifted = mt_gu_binary_named(g, "AddV2", "add", axes, size);
    TF_Output canon = mt_gu_binary_named(g, "FloorMod", "mod", shifted, size);
    TF_Output dims = mt_gu_gather(g, shape, canon, 0);
    /* reduce_prod over every axis of dims: none for a scalar axis, as
     * TensorFlow's _ReductionDims gives np.arange(rank) */
    int32_t ax0 = 0;
    const mt_shape* as = mt_g_static_shape(mt_g_x(g, 1));
    TF_Output all = mt_g_const_i32(g, &ax0, as->rank == 0 ? 0 : 1, 1, "Const");
    TF_Output count = mt_gu_reduce(g, "Prod", dims, all);
    factor = mt_gu_cast(g, count, mt_g_dtype(sum));
  }
  g->dx[0] = mt_gu_binary_named(g, "RealDiv", "truediv", sum, factor);
}

/* TensorFlow's _MinOrMaxGrad: the gradient shared equally among the
 * elements equal to the extremum. */
static void min_or_max_grad(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0), axes = mt_g_x(g, 1), y = mt_g_y(g, 0), grad = g->dy[0];
  TF_Output shape = mt_g_shape(g, x);
  mt_gu_kept_shape kept;
  if (!mt_op_attr_bool(g->op, "keep_dims", 0)) {
    if (!mt_gu_reduced_shape(g, shape, axes, &kept)) return;
    y = mt_gu_reshape_kept(g, y, &kept);
    grad = mt_gu_reshape_kept(g, grad, &kept);
  } else {
    kept.is_static = 0;
    kept.tensor = mt_g_shape(g, y);
  }
  TF_Output eq = mt_g_binary(g, "Equal", y, x);
  TF_Output indicators = mt_gu_cast(g, eq, mt_g_dtype(grad));
  TF_Output count = mt_gu_reduce(g, "Sum", indicators, axes);
  TF_Output selected = mt_gu_reshape_kept(g, count, &kept);
  TF_Output share = mt_gu_binary_named(g, "RealDiv", "truediv", indicators, selected);
  g->dx[0] = mt_gu_binary_named(g, "Mul", "mul", share, grad);
}

static TF_Output cumulative(mt_grad_ctx* g, const char* op_type, TF_Output x, TF_Output axis,
                            int exclusive, int reverse) {
  mt_gnode n = mt_g_begin(g, op_type, NULL);
  mt_g_in(&n, x);
  mt_g_in(&n, axis);
  mt_g_attr_bool(&n, "exclusive", exclusive);
  mt_g_attr_bool(&n, "reverse", reverse);
  return mt_g_end0(&n);
}

/* A Cumprod over axis 0 whose axis is the Const "<node>/axis". */
static TF_Output cumprod0(mt_grad_ctx* g, TF_Output x, int reverse) {
  mt_gnode n = mt_g_begin(g, "Cumprod", NULL);
  mt_g_in(&n, x);
  int32_t zero = 0;
  mt_g_in_const_i32(&n, "axis", &zero, 1, 0);
  mt_g_attr_bool(&n, "exclusive", 1);
  mt_g_attr_bool(&n, "reverse", reverse);
  return mt_g_end0(&n);
}

static int is_complex(TF_DataType t) { return t == TF_COMPLEX64 || t == TF_COMPLEX128; }

/* TensorFlow's _ProdGrad: the product of all other entries, as the
 * product of an exclusive cumprod from each side (so zeros are handled),
 * over the reduced dims packed into one leading dim. */
static void prod_grad(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0), axes = mt_g_x(g, 1), grad = g->dy[0];
  TF_Output shape = mt_g_shape(g, x);
  int32_t minus1 = -1;
  TF_Output indices = mt_gu_reshape_const(g, axes, &minus1, 1);
  if (!mt_op_attr_bool(g->op, "keep_dims", 0)) {
    mt_gu_kept_shape kept;
    if (!mt_gu_reduced_shape(g, shape, axes, &kept)) return;
    grad = mt_gu_reshape_kept(g, grad, &kept);
  }
  grad = mt_g_binary(g, "BroadcastTo", grad, shape);
  TF_Output rank = mt_gu_rank(g, x);
  indices = mt_gu_cast(g, indices, TF_INT32);
  TF_Output shifted = mt_gu_binary_named(g, "AddV2", "add", indices, rank);
  TF_Output reduced = mt_gu_binary_named(g, "FloorMod", "mod", shifted, rank);
  TF_Output idx = mt_gu_range(g, rank);
  mt_gnode ld = mt_g_begin(g, "ListDiff", NULL);
  mt_g_in(&ld, idx);
  mt_g_in(&ld, reduced);
  mt_g_attr_type(&ld, "out_idx", TF_INT32);
  TF_Output other = mt_g_end0(&ld);
  const TF_Output parts[2] = {reduced, other};
  TF_Output perm = mt_gu_concat(g, parts, 2, 0);
  int32_t ax0 = 0;
  TF_Output reduced_dims = mt_gu_gather(g, shape, reduced, 0);
  TF_Output reduced_num =
      mt_gu_reduce(g, "Prod", reduced_dims, mt_g_const_i32(g, &ax0, 1, 1, "Const"));
  TF_Output other_dims = mt_gu_gather(g, shape, other, 0);
  TF_Output other_num =
      mt_gu_reduce(g, "Prod", other_dims, mt_g_const_i32(g, &ax0, 1, 1, "Const"));
  TF_Output permuted = mt_gu_transpose(g, x, perm);
  TF_Output permuted_shape = mt_g_shape(g, permuted);
  mt_gnode r = mt_g_begin(g, "Reshape", NULL);
  mt_g_in(&r, permuted);
  mt_gnode p = mt_gu_begin_sub(g, &r, "Pack", "shape");
  const TF_Output nums[2] = {reduced_num, other_num};
  mt_g_in_list(&p, nums, 2);
  mt_g_attr_int(&p, "axis", 0);
  mt_g_in(&r, mt_g_end0(&p));
  TF_Output reshaped = mt_g_end0(&r);
  TF_Output left = cumprod0(g, reshaped, 0);
  TF_Output right = cumprod0(g, reshaped, 1);
  if (is_complex(mt_g_dtype(x))) { /* the gradient is in the conjugate direction */
    left = mt_g_unary(g, "Conj", left);
    right = mt_g_unary(g, "Conj", right);
  }
  TF_Output others = mt_gu_binary_named(g, "Mul", "mul", left, right);
  TF_Output y = mt_g_reshape(g, others, permuted_shape);
  TF_Output inverse = mt_g_unary(g, "InvertPermutation", perm);
  TF_Output back = mt_gu_transpose(g, y, inverse);
  TF_Output out = mt_gu_binary_named(g, "Mul", "mul", grad, back);
  g->dx[0] = mt_g_reshape(g, out, shape);
}

static void cumsum_grad(mt_grad_ctx* g) {
  const int exclusive = mt_op_attr_bool(g->op, "exclusive", 0);
  const int reverse = mt_op_attr_bool(g->op, "reverse", 0);
  g->dx[0] = cumulative(g, "Cumsum", g->dy[0], mt_g_x(g, 1), exclusive, !reverse);
}

/* TensorFlow's _CumprodGrad: cumsum(cumprod(x) * grad, reversed) / x, with
 * 0 where x is 0 (DivNoNan). */
static void cumprod_grad(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0), axis = mt_g_x(g, 1);
  const int exclusive = mt_op_attr_bool(g->op, "exclusive", 0);
  const int reverse = mt_op_attr_bool(g->op, "reverse", 0);
  TF_Output prod = cumulative(g, "Cumprod", x, axis, exclusive, reverse);
  TF_Output weighted = mt_gu_binary_named(g, "Mul", "mul", prod, g->dy[0]);
  TF_Output out = cumulative(g, "Cumsum", weighted, axis, exclusive, !reverse);
  g->dx[0] = mt_gu_binary_named(g, "DivNoNan", "div_no_nan", out, x);
}

/* A scalar Const of dtype dt named name. */
static TF_Output scalar_const(mt_grad_ctx* g, TF_DataType dt, double v, const char* name) {
  return mt_g_const(g, dt, NULL, 0, &v, name);
}

/* grad's dtype.min: the log of a zero part of the split gradient. */
static double dtype_min(TF_DataType dt) {
  switch (dt) {
    case TF_DOUBLE: return -1.7976931348623157e308;
    case TF_HALF: return -65504.0;
    case TF_BFLOAT16: return -3.3895313892515355e38;
    default: return -3.4028234663852886e38;
  }
}

/* exp(cumulative_logsumexp(log(+-grad) - y, not reverse) + x) for one sign of grad. */
static TF_Output cumlse_part(mt_grad_ctx* g, TF_Output log_grad, int exclusive, int reverse) {
  TF_Output d = mt_gu_binary_named(g, "Sub", "sub", log_grad, mt_g_y(g, 0));
  TF_Output c = cumulative(g, "CumulativeLogsumexp", d, mt_g_x(g, 1), exclusive, !reverse);
  TF_Output a = mt_gu_binary_named(g, "AddV2", "add", c, mt_g_x(g, 0));
  return mt_g_unary(g, "Exp", a);
}

/* TensorFlow's _CumulativeLogsumexpGrad: the gradient split into its positive and negative
 * parts, each carried in log space. */
static void cumlse_grad(mt_grad_ctx* g) {
  TF_Output grad = g->dy[0];
  TF_DataType dt = mt_g_dtype(grad);
  const int exclusive = mt_op_attr_bool(g->op, "exclusive", 0);
  const int reverse = mt_op_attr_bool(g->op, "reverse", 0);
  TF_Output pos = mt_gu_binary_named(g, "Greater", "Greater", grad,
                                     scalar_const(g, dt, 0.0, "Greater/y"));
  TF_Output log_pos = mt_g_unary(g, "Log", grad);
  mt_gnode s1 = mt_g_begin(g, "SelectV2", NULL);
  mt_g_in(&s1, pos);
  mt_g_in(&s1, log_pos);
  mt_g_in(&s1, scalar_const(g, dt, dtype_min(dt), "SelectV2/e"));
  TF_Output lgp = mt_g_end0(&s1);
  TF_Output neg = mt_gu_binary_named(g, "Less", "Less", grad, scalar_const(g, dt, 0.0, "Less/y"));
  TF_Output log_neg = mt_g_unary(g, "Log", mt_g_unary(g, "Neg", grad));
  mt_gnode s2 = mt_g_begin(g, "SelectV2", NULL);
  mt_g_in(&s2, neg);
  mt_g_in(&s2, log_neg);
  mt_g_in(&s2, scalar_const(g, dt, dtype_min(dt), "SelectV2_1/e"));
  TF_Output lgn = mt_g_end0(&s2);
  TF_Output out_pos = cumlse_part(g, lgp, exclusive, reverse);
  TF_Output out_neg = cumlse_part(g, lgn, exclusive, reverse);
  g->dx[0] = mt_gu_binary_named(g, "Sub", "sub", out_pos, out_neg);
}

/* TensorFlow's _EuclideanNormGrad: x / (norm / grad), both reshaped to the kept-dims shape
 * unless keep_dims. */
static void euclidean_norm_grad(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0), out = mt_g_y(g, 0), grad = g->dy[0];
  if (!mt_op_attr_bool(g->op, "keep_dims", 0)) {
    mt_gu_kept_shape k;
    if (!mt_gu_reduced_shape(g, mt_g_shape(g, x), mt_g_x(g, 1), &k)) return;
    out = mt_gu_reshape_kept(g, out, &k);
    grad = mt_gu_reshape_kept(g, grad, &k);
  }
  TF_Output ratio = mt_gu_binary_named(g, "RealDiv", "truediv", out, grad);
  g->dx[0] = mt_gu_binary_named(g, "RealDiv", "truediv", x, ratio);
}

static const mt_grad_spec reduction_grads[] = {
    {"EuclideanNorm", euclidean_norm_grad},
    {"CumulativeLogsumexp", cumlse_grad},
    {"Sum", sum_grad},       {"Mean", mean_grad},     {"Prod", prod_grad},
    {"Max", min_or_max_grad}, {"Min", min_or_max_grad}, {"Cumsum", cumsum_grad},
    {"Cumprod", cumprod_grad}, {"ArgMax", NULL},      {"ArgMin", NULL},
};

void mt_register_reduction_grads(void) {
  mt_register_gradients(reduction_grads, (int)(sizeof reduction_grads / sizeof reduction_grads[0]));
}
