/* Gradients of the sparse family (runtime/gradient.h), node for node as
 * TensorFlow 2.21's sparse_grad.py: SparseToDense, SparseReorder,
 * SparseTensorDenseMatMul, SparseAdd (through the SparseAddGrad kernel),
 * SparseTensorDenseAdd; SparseAddGrad itself has none. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/grad_util.h"

#include <stdlib.h>
#include <string.h>

/* array_ops.zeros_like(x), named "zeros_like": a Const of zeros when x's
 * shape is fully defined and small (under 1000 elements), a Fill of
 * "zeros_like/shape_as_tensor" when larger, else a ZerosLike op. */
static TF_Output zeros_like(mt_grad_ctx* g, TF_Output x) {
  const mt_shape* s = mt_g_static_shape(x);
  if (!mt_g_fully_defined(s)) {
    mt_gnode z = mt_g_begin(g, "ZerosLike", "zeros_like");
    mt_g_in(&z, x);
    return mt_g_end0(&z);
  }
  int64_t n = 1;
  for (int i = 0; i < s->rank; i++) n *= s->dims[i];
  const TF_DataType dt = mt_g_dtype(x);
  if (n < 1000) {
    double zeros[1000] = {0};
    return mt_g_const(g, dt, s->dims, s->rank, zeros, "zeros_like");
  }
  mt_gnode f = mt_g_begin(g, "Fill", "zeros_like");
  int32_t dims[MT_MAX_DIMS];
  for (int i = 0; i < s->rank; i++) dims[i] = (int32_t)s->dims[i];
  mt_g_in_const_i32(&f, "shape_as_tensor", dims, s->rank, 1);
  const int64_t zero = 0;
  mt_gu_in_const_int(&f, "Const", dt, &zero, 1, 0);
  return mt_g_end0(&f);
}

static TF_Output gather_nd(mt_grad_ctx* g, TF_Output params, TF_Output indices) {
  return mt_g_binary(g, "GatherNd", params, indices);
}

/* TensorFlow's _SparseToDenseGrad: the values take the gradient at their
 * indices, the default value the rest of it. */
static void sparse_to_dense_grad(mt_grad_ctx* g) {
  TF_Output indices = mt_g_x(g, 0), grad = g->dy[0];
  TF_Output values_grad = gather_nd(g, grad, indices);
  TF_Output total = mt_gu_reduce_sum_all(g, grad);
  TF_Output taken = mt_gu_reduce_sum_all(g, values_grad);
  g->dx[3] = mt_gu_binary_named(g, "Sub", "sub", total, taken);
  g->dx[2] = values_grad;
  g->dx[0] = zeros_like(g, indices);
  g->dx[1] = zeros_like(g, mt_g_x(g, 1));
}

/* TensorFlow's _SparseReorderGrad: reorders the entry numbers the same way
 * and gathers the gradient back through the inverse permutation. */
static void sparse_reorder_grad(mt_grad_ctx* g) {
  TF_Output indices = mt_g_x(g, 0), shape = mt_g_x(g, 2);
  TF_Output count = mt_gu_element(g, mt_g_shape(g, indices), 0);
  TF_Output entries = mt_gu_range(g, count);
  /* the two SparseTensor(...) of the Python code open name scopes
   * "SparseTensor" and "SparseTensor_1" */
  mt_gnode scope1 = mt_g_begin(g, "NoOp", "SparseTensor");
  if (scope1.d) mt_desc_free(scope1.d);
  mt_gnode r = mt_g_begin(g, "SparseReorder", NULL);
  mt_g_in(&r, indices);
  mt_g_in(&r, entries);
  mt_g_in(&r, shape);
  TF_Operation* reordered = mt_g_end(&r);
  if (!reordered) return;
  /* sparse_ops.sparse_reorder: the dense shape as a constant when known,
   * else an Identity of it; nothing uses it here */
  mt_gnode scope2 = mt_g_begin(g, "NoOp", "SparseTensor");
  int64_t dims[MT_MAX_DIMS];
  const int n = mt_gu_const_ints(shape, dims, MT_MAX_DIMS);
  if (n >= 0 && scope2.d) {
    mt_gu_in_const_int(&scope2, "dense_shape", TF_INT64, dims, n, 1);
  } else {
    mt_g_unary(g, "Identity", shape);
  }
  if (scope2.d) mt_desc_free(scope2.d);
  TF_Output inverse = mt_g_unary(g, "InvertPermutation", (TF_Output){reordered, 1});
  g->dx[1] = mt_gu_gather(g, g->dy[1], inverse, 0);
}

/* array_ops.transpose(x) of a 2-D (or unknown-rank) x: perm reversed. */
static TF_Output transpose_reversed(mt_grad_ctx* g, TF_Output x, const char* name) {
  const int rank = mt_g_static_shape(x)->rank;
  mt_gnode t = mt_g_begin(g, "Transpose", name);
  mt_g_in(&t, x);
  if (rank >= 0) {
    int32_t perm[MT_MAX_DIMS];
    for (int i = 0; i < rank; i++) perm[i] = rank - 1 - i;
    mt_g_in_const_i32(&t, "perm", perm, rank, 1);
    return mt_g_end0(&t);
  }
  /* Range(Rank(x) - 1, -1, -1) under the transpose's scope */
  mt_gnode rk = mt_gu_begin_sub(g, &t, "Rank", "Rank");
  mt_g_in(&rk, x);
  mt_gnode sub = mt_gu_begin_sub(g, &t, "Sub", "sub");
  mt_g_in(&sub, mt_g_end0(&rk));
  int32_t one = 1, minus1 = -1;
  mt_g_in_const_i32(&sub, "y", &one, 1, 0);
  mt_gnode range = mt_gu_begin_sub(g, &t, "Range", "Range");
  mt_g_in(&range, mt_g_end0(&sub));
  mt_g_in_const_i32(&range, "limit", &minus1, 1, 0);
  mt_g_in_const_i32(&range, "delta", &minus1, 1, 0);
  mt_g_in(&t, mt_g_end0(&range));
  return mt_g_end0(&t);
}

/* a_indices[:, col] */
static TF_Output index_column(mt_grad_ctx* g, TF_Output indices, int32_t col) {
  const int32_t b[2] = {0, col}, e[2] = {0, col + 1}, st[2] = {1, 1};
  return mt_gu_strided_slice(g, indices, b, e, st, 2, 1, 1, 2);
}

/* TensorFlow's _SparseTensorDenseMatMulGrad: b's gradient is another
 * sparse-dense product; a's values take grad[r, :] . b[c, :] at each
 * nonzero (r, c), as a batch of 1x1 matmuls. */
static void sparse_dense_matmul_grad(mt_grad_ctx* g) {
  TF_Output indices = mt_g_x(g, 0), values = mt_g_x(g, 1), b = mt_g_x(g, 3), grad = g->dy[0];
  const int adj_a = mt_op_attr_bool(g->op, "adjoint_a", 0);
  const int adj_b = mt_op_attr_bool(g->op, "adjoint_b", 0);
  if (mt_g_dtype(values) != mt_g_dtype(b)) {
    mt_status_setf(g->status, TF_INVALID_ARGUMENT,
                   "SparseTensorDenseMatMul op received operands with different types: `%s` "
                   "and `%s`.",
                   mt_dtype_name(mt_g_dtype(values)), mt_dtype_name(mt_g_dtype(b)));
    return;
  }
  mt_gnode m = mt_g_begin(g, "SparseTensorDenseMatMul", NULL);
  mt_g_in(&m, indices);
  mt_g_in(&m, values);
  mt_g_in(&m, mt_g_x(g, 2));
  mt_g_in(&m, grad);
  mt_g_attr_bool(&m, "adjoint_a", !adj_a);
  mt_g_attr_bool(&m, "adjoint_b", 0);
  TF_Output b_grad = mt_g_end0(&m);
  if (adj_b) { /* array_ops.matrix_transpose(b_grad, conjugate=True) of a matrix */
    const TF_DataType dt = mt_g_dtype(b_grad);
    const int cplx = dt == TF_COMPLEX64 || dt == TF_COMPLEX128;
    mt_gnode t = mt_g_begin(g, cplx ? "ConjugateTranspose" : "Transpose",
                            "matrix_transpose/transpose");
    mt_g_in(&t, b_grad);
    const int32_t perm[2] = {1, 0};
    mt_g_in_const_i32(&t, "perm", perm, 2, 1);
    b_grad = mt_g_end0(&t);
  }
  TF_Output rows = index_column(g, indices, 0), cols = index_column(g, indices, 1);
  TF_Output parts_a = mt_gu_gather(g, grad, adj_a ? cols : rows, 0);
  TF_Output bb = adj_b ? transpose_reversed(g, b, "transpose") : b;
  TF_Output parts_b = mt_gu_gather(g, bb, adj_a ? rows : cols, 0);
  /* row or column vectors so each product is grad[r, :] . conj(b[c, :]) */
  TF_Output ea = mt_gu_expand_dims(g, parts_a, adj_a ? -1 : -2);
  TF_Output eb = mt_gu_expand_dims(g, parts_b, adj_b ? (adj_a ? -2 : -1) : (adj_a ? -1 : -2));
  TF_Output prod = mt_gu_matmul(g, ea, eb, adj_a, !adj_b ? !adj_a : adj_a, 0, 0);
  mt_gnode sq = mt_g_begin(g, "Squeeze", NULL);
  mt_g_in(&sq, prod);
  const int64_t dims[2] = {-2, -1};
  mt_g_attr_ints(&sq, "squeeze_dims", dims, 2);
  g->dx[1] = mt_g_end0(&sq);
  g->dx[3] = b_grad;
}

/* TensorFlow's _SparseAddGrad: SparseAddGrad routes the sum's value
 * gradient to the operands' values. */
static void sparse_add_grad(mt_grad_ctx* g) {
  mt_gnode n = mt_g_begin(g, "SparseAddGrad", NULL);
  mt_g_in(&n, g->dy[1]);
  mt_g_in(&n, mt_g_x(g, 0));
  mt_g_in(&n, mt_g_x(g, 3));
  mt_g_in(&n, mt_g_y(g, 0));
  TF_Operation* op = mt_g_end(&n);
  if (!op) return;
  g->dx[1] = (TF_Output){op, 0};
  g->dx[4] = (TF_Output){op, 1};
}

static void sparse_dense_add_grad(mt_grad_ctx* g) {
  g->dx[1] = gather_nd(g, g->dy[0], mt_g_x(g, 0));
  g->dx[3] = g->dy[0];
}

/* math_ops.reduced_shape of an int64 dense shape: folded when constant (as
 * mt_gu_reduced_shape), else TensorFlow's DynamicStitch with int64 ones. */
static int sparse_reduced_shape(mt_grad_ctx* g, TF_Output shape, TF_Output axes,
                                mt_gu_kept_shape* out) {
  int64_t v[MT_MAX_DIMS], a[64];
  if (mt_gu_const_ints(shape, v, MT_MAX_DIMS) >= 0 && mt_gu_const_ints(axes, a, 64) >= 0)
    return mt_gu_reduced_shape(g, shape, axes, out);
  memset(out, 0, sizeof *out);
  if (mt_g_dtype(axes) != TF_INT32) return mt_gu_reduced_shape(g, shape, axes, out);
  TF_Output rank_t = mt_gu_size(g, shape, TF_INT32);
  TF_Output shifted = mt_gu_binary_named(g, "AddV2", "add", axes, rank_t);
  TF_Output canon = mt_gu_binary_named(g, "FloorMod", "mod", shifted, rank_t);
  TF_Output axes_shape = mt_g_shape(g, canon);
  TF_Output idx = mt_gu_range(g, rank_t);
  mt_gnode f = mt_g_begin(g, "Fill", "ones");
  mt_g_in(&f, axes_shape);
  const int64_t one = 1;
  mt_gu_in_const_int(&f, "Const", TF_INT64, &one, 1, 0);
  TF_Output ones = mt_g_end0(&f);
  mt_gnode d = mt_g_begin(g, "DynamicStitch", NULL);
  const TF_Output indices[2] = {idx, canon}, data[2] = {shape, ones};
  mt_g_in_list(&d, indices, 2);
  mt_g_in_list(&d, data, 2);
  out->tensor = mt_g_end0(&d);
  return out->tensor.oper != NULL;
}

/* TensorFlow's _SparseReduceSumGrad: the output gradient reshaped to the
 * kept-dims shape, gathered at each entry's index scaled down to it. */
static void sparse_reduce_sum_grad(mt_grad_ctx* g) {
  TF_Output indices = mt_g_x(g, 0), shape = mt_g_x(g, 2), axes = mt_g_x(g, 3);
  mt_gu_kept_shape kept;
  if (!sparse_reduced_shape(g, shape, axes, &kept)) return;
  TF_Output reshaped = mt_gu_reshape_kept(g, g->dy[0], &kept);
  TF_Output kept64;
  if (kept.is_static) { /* math_ops.cast of the folded numpy shape */
    mt_gnode c = mt_g_begin(g, "Cast", NULL);
    int64_t dims[MT_MAX_DIMS];
    for (int i = 0; i < kept.rank; i++) dims[i] = kept.dims[i];
    mt_gu_in_const_int(&c, "x", TF_INT32, dims, kept.rank, 1);
    mt_g_attr_type(&c, "DstT", TF_INT64);
    kept64 = mt_g_end0(&c);
  } else {
    kept64 = mt_gu_cast(g, kept.tensor, TF_INT64);
  }
  TF_Output scale = mt_gu_binary_named(g, "FloorDiv", "floordiv", shape, kept64);
  TF_Output scaled = mt_gu_binary_named(g, "FloorDiv", "floordiv_1", indices, scale);
  g->dx[1] = gather_nd(g, reshaped, scaled);
}

/* TensorFlow's _SparseFillEmptyRowsGrad: SparseFillEmptyRowsGrad over the
 * forward op's reverse_index_map routes the values' gradient back. */
static void sparse_fill_empty_rows_grad(mt_grad_ctx* g) {
  if (!g->dy[1].oper) return;
  mt_gnode n = mt_g_begin(g, "SparseFillEmptyRowsGrad", NULL);
  mt_g_in(&n, mt_g_y(g, 3));
  mt_g_in(&n, g->dy[1]);
  TF_Operation* op = mt_g_end(&n);
  if (!op) return;
  g->dx[1] = (TF_Output){op, 0};
  g->dx[3] = (TF_Output){op, 1};
}

/* TensorFlow's _SparseSliceGrad: SparseSliceGrad matches the slice's
 * entries back to the input's. */
static void sparse_slice_grad(mt_grad_ctx* g) {
  if (!g->dy[1].oper) return;
  mt_gnode n = mt_g_begin(g, "SparseSliceGrad", NULL);
  mt_g_in(&n, g->dy[1]);
  mt_g_in(&n, mt_g_x(g, 0));
  mt_g_in(&n, mt_g_x(g, 3));
  mt_g_in(&n, mt_g_y(g, 0));
  g->dx[1] = mt_g_end0(&n);
}

static const mt_grad_spec sparse_grads[] = {
    {"SparseSlice", sparse_slice_grad},
    {"SparseFillEmptyRows", sparse_fill_empty_rows_grad},
    {"SparseReduceSum", sparse_reduce_sum_grad},
    {"SparseConcat", NULL},
    {"SparseToDense", sparse_to_dense_grad},
    {"SparseReorder", sparse_reorder_grad},
    {"SparseTensorDenseMatMul", sparse_dense_matmul_grad},
    {"SparseAdd", sparse_add_grad},
    {"SparseTensorDenseAdd", sparse_dense_add_grad},
    {"SparseAddGrad", NULL},
};

void mt_register_sparse_grads(void) {
  mt_register_gradients(sparse_grads, (int)(sizeof sparse_grads / sizeof sparse_grads[0]));
}
