/* Gradients of the factorization and solver ops (runtime/gradient.h), node
 * for node as TensorFlow 2.21's linalg_grad.py builds them: MatrixInverse,
 * MatrixDeterminant, LogMatrixDeterminant, Cholesky, MatrixSolve,
 * MatrixTriangularSolve. Wrapper calls inside those functions keep their
 * Python names: linalg_ops.eye is the "eye/..." block, matrix_triangular_solve
 * "triangular_solve/MatrixTriangularSolve", _linalg.adjoint
 * "adjoint/matrix_transpose/transpose". */
#include <stdio.h>
#include <string.h>

#include "runtime/gradient.h"
#include "runtime/kernels/grad_util.h"
#include "runtime/kernels/linalg/linalg.h"

static int is_cx(TF_DataType t) { return t == TF_COMPLEX64 || t == TF_COMPLEX128; }

/* A scalar Const of dtype named "<node>/<arg>" as input of n (a Python float
 * operand converted inside the operator's name scope, e.g. "mul/x"). */
static void in_scalar(mt_gnode* n, const char* arg, TF_DataType dt, double v) {
  if (!n->d) return;
  const char* full = n->d->name;
  const size_t sl = strlen(n->g->scope);
  const char* rel = strncmp(full, n->g->scope, sl) == 0 ? full + sl : full;
  char buf[512];
  snprintf(buf, sizeof buf, "%s/%s", rel, arg);
  mt_g_in(n, mt_g_const(n->g, dt, NULL, 0, &v, buf));
}

/* v * x (scalar_first) or x * v, a Mul named "mul" (Python's operator). */
static TF_Output scale(mt_grad_ctx* g, TF_Output x, double v, int scalar_first) {
  mt_gnode n = mt_g_begin(g, "Mul", "mul");
  if (scalar_first) in_scalar(&n, "x", mt_g_dtype(x), v);
  mt_g_in(&n, x);
  if (!scalar_first) in_scalar(&n, "y", mt_g_dtype(x), v);
  return mt_g_end0(&n);
}

static TF_Output neg(mt_grad_ctx* g, TF_Output x) { return mt_g_unary(g, "Neg", x); }

/* array_ops.matrix_band_part(x, lower, upper) with Python int bounds. */
static TF_Output band_part(mt_grad_ctx* g, TF_Output x, int32_t lower, int32_t upper) {
  mt_gnode n = mt_g_begin(g, "MatrixBandPart", NULL);
  mt_g_in(&n, x);
  mt_g_in_const_i32(&n, "num_lower", &lower, 1, 0);
  mt_g_in_const_i32(&n, "num_upper", &upper, 1, 0);
  return mt_g_end0(&n);
}

/* linalg_ops.matrix_triangular_solve(a, b, lower, adjoint): in its
 * "triangular_solve" name scope. */
static TF_Output tri_solve(mt_grad_ctx* g, TF_Output a, TF_Output b, int lower, int adjoint) {
  mt_gnode n = mt_g_begin(g, "MatrixTriangularSolve", "triangular_solve/MatrixTriangularSolve");
  mt_g_in(&n, a);
  mt_g_in(&n, b);
  mt_g_attr_bool(&n, "lower", lower);
  mt_g_attr_bool(&n, "adjoint", adjoint);
  return mt_g_end0(&n);
}

/* reshape(x, concat([shape(c), [1, 1]], 0)): a batch of scalars made
 * [..., 1, 1] to scale a batch of matrices. */
static TF_Output as_matrix_batch(mt_grad_ctx* g, TF_Output x, TF_Output c) {
  TF_Output sh = mt_g_shape(g, c);
  mt_gnode cat = mt_g_begin(g, "ConcatV2", "concat");
  const int32_t ones[2] = {1, 1}, zero = 0;
  TF_Output parts[2] = {sh, mt_gu_const_i32_sub(g, &cat, "values_1", ones, 2)};
  mt_g_in_list(&cat, parts, 2);
  mt_g_in_const_i32(&cat, "axis", &zero, 1, 0);
  return mt_g_reshape(g, x, mt_g_end0(&cat));
}

/* _linalg.adjoint(x) for a known rank: adjoint/matrix_transpose/transpose. */
static TF_Output adjoint(mt_grad_ctx* g, TF_Output x) {
  const mt_shape* s = mt_g_static_shape(x);
  if (s->rank < 2) {
    mt_status_setf(g->status, TF_UNIMPLEMENTED,
                   "gradient of %s: adjoint of a tensor of unknown rank", g->op->name);
    return (TF_Output){NULL, 0};
  }
  int32_t perm[MT_MAX_DIMS];
  for (int i = 0; i < s->rank; i++) perm[i] = i;
  perm[s->rank - 2] = s->rank - 1;
  perm[s->rank - 1] = s->rank - 2;
  mt_gnode t = mt_g_begin(g, is_cx(mt_g_dtype(x)) ? "ConjugateTranspose" : "Transpose",
                          "adjoint/matrix_transpose/transpose");
  mt_g_in(&t, x);
  mt_g_in_const_i32(&t, "perm", perm, s->rank, 1);
  return mt_g_end0(&t);
}

static void inverse_grad(mt_grad_ctx* g) {
  const int adj = mt_op_attr_bool(g->op, "adjoint", 0);
  TF_Output ainv = mt_g_y(g, 0);
  TF_Output inner = mt_gu_matmul(g, g->dy[0], ainv, adj, !adj, 0, 0);
  g->dx[0] = neg(g, mt_gu_matmul(g, ainv, inner, !adj, 0, 0, 0));
}

/* linalg_ops.matrix_inverse(a, adjoint=True). */
static TF_Output adjoint_inverse(mt_grad_ctx* g) {
  mt_gnode n = mt_g_begin(g, "MatrixInverse", NULL);
  mt_g_in(&n, mt_g_x(g, 0));
  mt_g_attr_bool(&n, "adjoint", 1);
  return mt_g_end0(&n);
}

static void det_grad(mt_grad_ctx* g) {
  TF_Output c = mt_g_y(g, 0);
  TF_Output inv = adjoint_inverse(g);
  TF_Output m = as_matrix_batch(g, mt_gu_binary_named(g, "Mul", "mul", g->dy[0], c), c);
  g->dx[0] = mt_gu_binary_named(g, "Mul", "mul", m, inv);
}

static void log_det_grad(mt_grad_ctx* g) {
  TF_Output inv = adjoint_inverse(g);
  TF_Output m = as_matrix_batch(g, g->dy[1], mt_g_y(g, 1));
  g->dx[0] = mt_gu_binary_named(g, "Mul", "mul", m, inv);
}

/* linalg_ops.eye(n, batch_shape=batch) for int32 scalar / vector tensors. */
static TF_Output eye_dynamic(mt_grad_ctx* g, TF_Output n, TF_Output batch, TF_DataType dt) {
  TF_Output size = mt_gu_binary_named(g, "Minimum", "eye/Minimum", n, n);
  TF_Output packed = mt_gu_pack(g, "eye/concat/values_1", &size, 1, 0);
  mt_gnode cat = mt_g_begin(g, "ConcatV2", "eye/concat");
  const TF_Output parts[2] = {batch, packed};
  const int32_t zero = 0;
  mt_g_in_list(&cat, parts, 2);
  mt_g_in_const_i32(&cat, "axis", &zero, 1, 0);
  TF_Output shape = mt_g_end0(&cat);
  mt_gnode ones = mt_g_begin(g, "Fill", "eye/ones");
  const int64_t one = 1, k = 0, minus = -1;
  mt_g_in(&ones, shape);
  mt_gu_in_const_int(&ones, "Const", dt, &one, 1, 0);
  TF_Output diag_ones = mt_g_end0(&ones);
  mt_gnode d = mt_g_begin(g, "MatrixDiagV3", "eye/diag");
  mt_g_in(&d, diag_ones);
  mt_gu_in_const_int(&d, "k", TF_INT32, &k, 1, 0);
  mt_gu_in_const_int(&d, "num_rows", TF_INT32, &minus, 1, 0);
  mt_gu_in_const_int(&d, "num_cols", TF_INT32, &minus, 1, 0);
  mt_gu_in_const_int(&d, "padding_value", dt, &k, 1, 0);
  mt_g_attr_str(&d, "align", "RIGHT_LEFT");
  return mt_g_end0(&d);
}

/* array_ops.matrix_diag_part / matrix_set_diag with k = 0. */
static TF_Output diag_part(mt_grad_ctx* g, TF_Output x) {
  mt_gnode n = mt_g_begin(g, "MatrixDiagPartV3", "diag_part");
  const int64_t zero = 0;
  mt_g_in(&n, x);
  mt_gu_in_const_int(&n, "k", TF_INT32, &zero, 1, 0);
  mt_gu_in_const_int(&n, "padding_value", mt_g_dtype(x), &zero, 1, 0);
  mt_g_attr_str(&n, "align", "RIGHT_LEFT");
  return mt_g_end0(&n);
}

static TF_Output set_diag(mt_grad_ctx* g, TF_Output x, TF_Output d) {
  mt_gnode n = mt_g_begin(g, "MatrixSetDiagV3", "set_diag");
  const int64_t zero = 0;
  mt_g_in(&n, x);
  mt_g_in(&n, d);
  mt_gu_in_const_int(&n, "k", TF_INT32, &zero, 1, 0);
  mt_g_attr_str(&n, "align", "RIGHT_LEFT");
  return mt_g_end0(&n);
}

/* TensorFlow's _CholeskyGrad: l^-H ((l^H grad) * (tril(ones) - eye / 2)) l^-1, symmetrized. */
static void cholesky_grad(mt_grad_ctx* g) {
  TF_Output l = mt_g_y(g, 0);
  const TF_DataType dt = mt_g_dtype(l);
  TF_Output rows = mt_gu_element(g, mt_g_shape(g, l), -1);
  TF_Output batch = mt_gu_slice1(g, mt_g_shape(g, l), 0, 0, 1, -2);
  TF_Output l_inv = tri_solve(g, l, eye_dynamic(g, rows, batch, dt), 1, 0);
  TF_Output middle = mt_gu_matmul(g, l, g->dy[0], 1, 0, 0, 0);
  middle = set_diag(g, middle, scale(g, diag_part(g, middle), 0.5, 1));
  middle = band_part(g, middle, -1, 0);
  TF_Output ga = mt_gu_matmul(g, mt_gu_matmul(g, l_inv, middle, 1, 0, 0, 0), l_inv, 0, 0, 0, 0);
  ga = mt_gu_binary_named(g, "AddV2", "add", ga, adjoint(g, ga));
  g->dx[0] = scale(g, ga, 0.5, 0);
}

static void solve_grad(mt_grad_ctx* g) {
  const int adj = mt_op_attr_bool(g->op, "adjoint", 0);
  TF_Output c = mt_g_y(g, 0);
  mt_gnode n = mt_g_begin(g, "MatrixSolve", NULL);
  mt_g_in(&n, mt_g_x(g, 0));
  mt_g_in(&n, g->dy[0]);
  mt_g_attr_bool(&n, "adjoint", !adj);
  TF_Output gb = mt_g_end0(&n);
  g->dx[0] = neg(g, adj ? mt_gu_matmul(g, c, gb, 0, 1, 0, 0) : mt_gu_matmul(g, gb, c, 0, 1, 0, 0));
  g->dx[1] = gb;
}

/* Static shapes fully defined with equal batch dims. */
static int same_static_batch(const mt_shape* a, const mt_shape* b) {
  if (!mt_g_fully_defined(a) || !mt_g_fully_defined(b) || a->rank != b->rank) return 0;
  for (int i = 0; i < a->rank - 2; i++)
    if (a->dims[i] != b->dims[i]) return 0;
  return 1;
}

static void triangular_solve_grad(mt_grad_ctx* g) {
  const int adj = mt_op_attr_bool(g->op, "adjoint", 0);
  const int lower = mt_op_attr_bool(g->op, "lower", 1);
  TF_Output a = mt_g_x(g, 0), b = mt_g_x(g, 1), c = mt_g_y(g, 0);
  TF_Output gb = tri_solve(g, a, g->dy[0], lower, !adj);
  TF_Output ga =
      neg(g, adj ? mt_gu_matmul(g, c, gb, 0, 1, 0, 0) : mt_gu_matmul(g, gb, c, 0, 1, 0, 0));
  ga = lower ? band_part(g, ga, -1, 0) : band_part(g, ga, 0, -1);
  if (same_static_batch(mt_g_static_shape(a), mt_g_static_shape(b))) {
    g->dx[0] = ga;
    g->dx[1] = gb;
    return;
  }
  TF_Output sa = mt_g_shape(g, a), sb = mt_g_shape(g, b);
  TF_Output ba = mt_gu_slice1(g, sa, 0, 0, 1, -2), bb = mt_gu_slice1(g, sb, 0, 0, 1, -2);
  mt_gnode args = mt_g_begin(g, "BroadcastGradientArgs", NULL);
  mt_g_in(&args, ba);
  mt_g_in(&args, bb);
  TF_Operation* r = mt_g_end(&args);
  if (!r) return;
  g->dx[0] = mt_g_reshape(g, mt_gu_reduce(g, "Sum", ga, (TF_Output){r, 0}), sa);
  g->dx[1] = mt_g_reshape(g, mt_gu_reduce(g, "Sum", gb, (TF_Output){r, 1}), sb);
}


/* ---- SelfAdjointEigV2, Svd, Qr ----------------------------------------------------------
 * TensorFlow's formulas (_SelfAdjointEigV2Grad, _SvdGrad, _QrGrad) with the same products in
 * the same order; the graphs are not compared node for node with TensorFlow's (its
 * control_dependencies wrappers are left out). Svd and Qr: real dtypes and static matrix
 * dims, as TensorFlow's need static dims (NotImplemented otherwise). */

static TF_Output sub(mt_grad_ctx* g, TF_Output a, TF_Output b) {
  return mt_gu_binary_named(g, "Sub", "sub", a, b);
}
static TF_Output mul(mt_grad_ctx* g, TF_Output a, TF_Output b) {
  return mt_gu_binary_named(g, "Mul", "mul", a, b);
}
static TF_Output add(mt_grad_ctx* g, TF_Output a, TF_Output b) {
  return mt_gu_binary_named(g, "AddV2", "add", a, b);
}
static TF_Output mm(mt_grad_ctx* g, TF_Output a, TF_Output b, int adj_a, int adj_b) {
  return mt_gu_matmul(g, a, b, adj_a, adj_b, 0, 0);
}

/* _SafeReciprocal: x / (x^2 + 1e-20), finite at degenerate values. */
static TF_Output safe_reciprocal(mt_grad_ctx* g, TF_Output x) {
  mt_gnode n = mt_g_begin(g, "AddV2", "add");
  mt_g_in(&n, mul(g, x, x));
  in_scalar(&n, "y", mt_g_dtype(x), 1e-20);
  return mul(g, x, mt_g_unary(g, "Reciprocal", mt_g_end0(&n)));
}

/* array_ops.matrix_diag(d) with k = 0. */
static TF_Output mdiag(mt_grad_ctx* g, TF_Output d) {
  mt_gnode n = mt_g_begin(g, "MatrixDiagV3", "diag");
  const int64_t zero = 0, minus = -1;
  mt_g_in(&n, d);
  mt_gu_in_const_int(&n, "k", TF_INT32, &zero, 1, 0);
  mt_gu_in_const_int(&n, "num_rows", TF_INT32, &minus, 1, 0);
  mt_gu_in_const_int(&n, "num_cols", TF_INT32, &minus, 1, 0);
  mt_gu_in_const_int(&n, "padding_value", mt_g_dtype(d), &zero, 1, 0);
  mt_g_attr_str(&n, "align", "RIGHT_LEFT");
  return mt_g_end0(&n);
}

static TF_Output zeros_like_op(mt_grad_ctx* g, TF_Output x) {
  mt_gnode n = mt_g_begin(g, "ZerosLike", "zeros_like");
  mt_g_in(&n, x);
  return mt_g_end0(&n);
}

/* f = set_diag(SafeReciprocal(e[..., None, :] - e[..., :, None]), 0) */
static TF_Output reciprocal_gaps(mt_grad_ctx* g, TF_Output e) {
  TF_Output d = sub(g, mt_gu_expand_dims(g, e, -2), mt_gu_expand_dims(g, e, -1));
  return set_diag(g, safe_reciprocal(g, d), zeros_like_op(g, e));
}

static void eig_grad(mt_grad_ctx* g) {
  TF_Output e = mt_g_y(g, 0), ge = g->dy[0];
  TF_Output ga;
  if (mt_op_attr_bool(g->op, "compute_v", 1)) {
    TF_Output v = mt_g_y(g, 1), gv = g->dy[1];
    TF_Output f = reciprocal_gaps(g, e);
    TF_Output inner = add(g, mdiag(g, ge), mul(g, f, mm(g, v, gv, 1, 0)));
    ga = mm(g, v, mm(g, inner, v, 0, 1), 0, 0);
  } else {
    mt_gnode n = mt_g_begin(g, "SelfAdjointEigV2", NULL);
    mt_g_in(&n, mt_g_x(g, 0));
    mt_g_attr_bool(&n, "compute_v", 1);
    TF_Operation* op = mt_g_end(&n);
    if (!op) return;
    TF_Output v = {op, 1};
    ga = mm(g, v, mm(g, mdiag(g, ge), v, 0, 1), 0, 0);
  }
  ga = band_part(g, add(g, ga, adjoint(g, ga)), -1, 0);
  g->dx[0] = set_diag(g, ga, scale(g, diag_part(g, ga), 0.5, 1));
}

/* x[..., :, begin:end] (has_end 0: to the end). */
static TF_Output cols(mt_grad_ctx* g, TF_Output x, int32_t begin, int has_end, int32_t end) {
  mt_gnode n = mt_g_begin(g, "StridedSlice", "strided_slice");
  const int32_t b[3] = {0, 0, begin}, e[3] = {0, 0, has_end ? end : 0}, st[3] = {1, 1, 1};
  mt_g_in(&n, x);
  mt_g_in_const_i32(&n, "stack", b, 3, 1);
  mt_g_in_const_i32(&n, "stack_1", e, 3, 1);
  mt_g_in_const_i32(&n, "stack_2", st, 3, 1);
  mt_g_attr_int(&n, "begin_mask", 2 | (begin == 0 ? 4 : 0));
  mt_g_attr_int(&n, "end_mask", 2 | (has_end ? 0 : 4));
  mt_g_attr_int(&n, "ellipsis_mask", 1);
  mt_g_attr_int(&n, "new_axis_mask", 0);
  mt_g_attr_int(&n, "shrink_axis_mask", 0);
  return mt_g_end0(&n);
}

static int static_mn(mt_grad_ctx* g, TF_Output x, int64_t* m, int64_t* n, const char* what) {
  const mt_shape* s = mt_g_static_shape(x);
  if (s->rank < 2 || s->dims[s->rank - 2] < 0 || s->dims[s->rank - 1] < 0) {
    mt_status_setf(g->status, TF_UNIMPLEMENTED,
                   "%s gradient has not been implemented for input with unknown inner matrix "
                   "shape.", what);
    return 0;
  }
  if (is_cx(mt_g_dtype(x))) {
    mt_status_setf(g->status, TF_UNIMPLEMENTED,
                   "gradient of %s: complex %s gradients are not implemented", g->op->name, what);
    return 0;
  }
  *m = s->dims[s->rank - 2];
  *n = s->dims[s->rank - 1];
  return 1;
}

static TF_Output transpose_last(mt_grad_ctx* g, TF_Output x) {
  const mt_shape* s = mt_g_static_shape(x);
  int32_t perm[MT_MAX_DIMS];
  for (int i = 0; i < s->rank; i++) perm[i] = i;
  perm[s->rank - 2] = s->rank - 1;
  perm[s->rank - 1] = s->rank - 2;
  mt_gnode t = mt_g_begin(g, "Transpose", "matrix_transpose/transpose");
  mt_g_in(&t, x);
  mt_g_in_const_i32(&t, "perm", perm, s->rank, 1);
  return mt_g_end0(&t);
}

static void svd_grad(mt_grad_ctx* g) {
  TF_Output a = mt_g_x(g, 0);
  int64_t m, n;
  if (!static_mn(g, a, &m, &n, "SVD")) return;
  if (mt_g_static_shape(a)->rank < 0) return;
  TF_Output gs = g->dy[0];
  TF_Output gs_mat = mdiag(g, gs);
  if (!mt_op_attr_bool(g->op, "compute_uv", 1)) {
    mt_gnode sv = mt_g_begin(g, "Svd", NULL);
    mt_g_in(&sv, a);
    mt_g_attr_bool(&sv, "compute_uv", 1);
    mt_g_attr_bool(&sv, "full_matrices", 0);
    TF_Operation* op = mt_g_end(&sv);
    if (!op) return;
    g->dx[0] = mm(g, (TF_Output){op, 1}, mm(g, gs_mat, (TF_Output){op, 2}, 0, 1), 0, 0);
    return;
  }
  const int full = mt_op_attr_bool(g->op, "full_matrices", 0);
  TF_Output s = mt_g_y(g, 0), u = mt_g_y(g, 1), v = mt_g_y(g, 2);
  TF_Output gu = g->dy[1], gv = g->dy[2];
  const int use_adjoint = m > n;
  if (use_adjoint) {
    int64_t t = m;
    m = n;
    n = t;
    TF_Output x = u;
    u = v;
    v = x;
    x = gu;
    gu = gv;
    gv = x;
  }
  if (full && (n - m) > 1) {
    mt_status_setf(g->status, TF_UNIMPLEMENTED,
                   "svd gradient is not implemented for abs(m - n) > 1 when full_matrices is "
                   "True. Received: m=%lld and n=%lld", (long long)m, (long long)n);
    return;
  }
  TF_Output s_mat = mdiag(g, s);
  TF_Output s2 = mt_g_unary(g, "Square", s);
  TF_Output f = reciprocal_gaps(g, s2);
  TF_Output s_inv_mat = mdiag(g, safe_reciprocal(g, s));
  TF_Output v1 = cols(g, v, 0, 1, (int32_t)m), gv1 = cols(g, gv, 0, 1, (int32_t)m);
  TF_Output u_gu = mm(g, u, gu, 1, 0), v_gv = mm(g, v1, gv1, 1, 0);
  TF_Output f_u = mul(g, f, u_gu), f_v = mul(g, f, v_gv);
  TF_Output t1 = add(g, gs_mat, mm(g, add(g, f_u, adjoint(g, f_u)), s_mat, 0, 0));
  t1 = add(g, t1, mm(g, s_mat, add(g, f_v, adjoint(g, f_v)), 0, 0));
  TF_Output ga = mm(g, u, mm(g, t1, v1, 0, 1), 0, 0);
  if (m != n) {
    TF_Output gv1t = transpose_last(g, gv1);
    TF_Output t2 = sub(g, gv1t, mm(g, mm(g, gv1t, v1, 0, 0), v1, 0, 1));
    if (full) {
      TF_Output v2 = cols(g, v, (int32_t)m, 1, (int32_t)n);
      TF_Output gv2 = cols(g, gv, (int32_t)m, 1, (int32_t)n);
      t2 = sub(g, t2, mm(g, mm(g, v1, gv2, 1, 0), v2, 0, 1));
    }
    ga = add(g, ga, mm(g, mm(g, u, s_inv_mat, 0, 0), t2, 0, 0));
  }
  g->dx[0] = use_adjoint ? transpose_last(g, ga) : ga;
}

/* _QrGrad's _TriangularSolve: x @ inv(r)^H for upper triangular r. */
static TF_Output qr_tri(mt_grad_ctx* g, TF_Output x, TF_Output r) {
  return adjoint(g, tri_solve(g, r, adjoint(g, x), 0, 0));
}

static TF_Output qr_grad_deep(mt_grad_ctx* g, TF_Output q, TF_Output r, TF_Output dq,
                              TF_Output dr) {
  TF_Output qdq = mm(g, q, dq, 1, 0);
  TF_Output qdq_ = sub(g, qdq, adjoint(g, qdq));
  TF_Output rdr = mm(g, r, dr, 0, 1);
  TF_Output rdr_ = sub(g, rdr, adjoint(g, rdr));
  TF_Output tril = band_part(g, add(g, qdq_, rdr_), -1, 0);
  TF_Output ga = mm(g, q, add(g, dr, qr_tri(g, tril, r)), 0, 0);
  TF_Output gb = qr_tri(g, sub(g, dq, mm(g, q, qdq, 0, 0)), r);
  return add(g, ga, gb);
}

static void qr_grad(mt_grad_ctx* g) {
  TF_Output q = mt_g_y(g, 0), r = mt_g_y(g, 1);
  int64_t rm, rn, qm, qn;
  if (!static_mn(g, r, &rm, &rn, "Qr") || !static_mn(g, q, &qm, &qn, "Qr")) return;
  if (rm > rn && qm == qn) {
    mt_status_setf(g->status, TF_UNIMPLEMENTED,
                   "QrGrad not implemented when nrows > ncols and full_matrices is true.");
    return;
  }
  TF_Output dq = g->dy[0], dr = g->dy[1];
  if (qm >= rn) {
    g->dx[0] = qr_grad_deep(g, q, r, dq, dr);
    return;
  }
  TF_Output y = cols(g, mt_g_x(g, 0), (int32_t)qm, 0, 0);
  TF_Output u = cols(g, r, 0, 1, (int32_t)qm);
  TF_Output dv = cols(g, dr, (int32_t)qm, 0, 0);
  TF_Output du = cols(g, dr, 0, 1, (int32_t)qm);
  TF_Output dy = mm(g, q, dv, 0, 0);
  TF_Output dx = qr_grad_deep(g, q, u, add(g, dq, mm(g, y, dv, 0, 1)), du);
  const TF_Output parts[2] = {dx, dy};
  mt_gnode c = mt_g_begin(g, "ConcatV2", "concat");
  const int32_t axis = -1;
  mt_g_in_list(&c, parts, 2);
  mt_g_in_const_i32(&c, "axis", &axis, 1, 0);
  g->dx[0] = mt_g_end0(&c);
}

static const mt_grad_spec lapack_grads[] = {
    {"MatrixInverse", inverse_grad},
    {"MatrixDeterminant", det_grad},
    {"LogMatrixDeterminant", log_det_grad},
    {"Cholesky", cholesky_grad},
    {"MatrixSolve", solve_grad},
    {"MatrixTriangularSolve", triangular_solve_grad},
    {"SelfAdjointEigV2", eig_grad},
    {"Svd", svd_grad},
    {"Qr", qr_grad},
};

void mt_register_linalg_lapack_grads(void) {
  mt_register_gradients(lapack_grads, (int)(sizeof lapack_grads / sizeof lapack_grads[0]));
}
