/* Factorizations and solvers of batched matrices over LAPACK (the LAPACKE
 * of scipy-openblas32, prefix scipy_): Cholesky, MatrixInverse,
 * MatrixDeterminant, LogMatrixDeterminant, MatrixSolve,
 * MatrixTriangularSolve, Qr, Svd, SelfAdjointEigV2 (MatrixSolveLs and Lu
 * are to come with their gradients).
 * Signatures, shape functions and messages are TensorFlow 2.21's
 * (linalg_ops.cc, linalg_ops_common.cc and the kernels in
 * core/kernels/linalg/).
 *
 * Each matrix of a batch is converted to double (complex128 for complex
 * types), factored by the double-precision LAPACK routine and rounded
 * back: float32 results are the float64 ones rounded, at least as close
 * as TensorFlow's float32 Eigen kernels (which round at each step).
 * TensorFlow's CPU kernels exist for float, double, complex64 and
 * complex128 (float16 only has GPU kernels): float16 is refused as
 * TensorFlow refuses it. */
#include <cblas.h>
#include <complex.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/linalg/linalg.h"

typedef double _Complex zdouble;

static int is_cx(TF_DataType dt) { return dt == TF_COMPLEX64 || dt == TF_COMPLEX128; }

/* Elements of the computing type: 1 double or 1 zdouble. */
static size_t ws(TF_DataType dt) { return is_cx(dt) ? sizeof(zdouble) : sizeof(double); }

static int cpu_dtype(mt_kernel_ctx* ctx, TF_DataType dt) {
  if (dt == TF_FLOAT || dt == TF_DOUBLE || dt == TF_COMPLEX64 || dt == TF_COMPLEX128) return 1;
  mt_kernel_unsupported(ctx, "T", dt);
  return 0;
}

/* n elements of t from element off, into the computing type. */
static void load(const TF_Tensor* t, int64_t off, int64_t n, void* dst) {
  const void* s = mt_tensor_data(t);
  switch (t->dtype) {
    case TF_FLOAT:
      for (int64_t i = 0; i < n; i++) ((double*)dst)[i] = ((const float*)s)[off + i];
      break;
    case TF_DOUBLE: memcpy(dst, (const double*)s + off, (size_t)n * sizeof(double)); break;
    case TF_COMPLEX64:
      for (int64_t i = 0; i < n; i++) ((zdouble*)dst)[i] = ((const float _Complex*)s)[off + i];
      break;
    default: memcpy(dst, (const zdouble*)s + off, (size_t)n * sizeof(zdouble)); break;
  }
}

static void store(TF_Tensor* t, int64_t off, int64_t n, const void* src) {
  void* d = mt_tensor_data(t);
  switch (t->dtype) {
    case TF_FLOAT:
      for (int64_t i = 0; i < n; i++) ((float*)d)[off + i] = (float)((const double*)src)[i];
      break;
    case TF_DOUBLE: memcpy((double*)d + off, src, (size_t)n * sizeof(double)); break;
    case TF_COMPLEX64:
      for (int64_t i = 0; i < n; i++)
        ((float _Complex*)d)[off + i] = (float _Complex)((const zdouble*)src)[i];
      break;
    default: memcpy((zdouble*)d + off, src, (size_t)n * sizeof(zdouble)); break;
  }
}

/* A real value (the determinant's log, an eigenvalue, a singular value)
 * stored at element off of t (real part for complex tensors). */
static void store_real(TF_Tensor* t, int64_t off, double v) {
  void* d = mt_tensor_data(t);
  switch (t->dtype) {
    case TF_FLOAT: ((float*)d)[off] = (float)v; break;
    case TF_DOUBLE: ((double*)d)[off] = v; break;
    case TF_COMPLEX64: ((float _Complex*)d)[off] = (float)v; break;
    default: ((zdouble*)d)[off] = v; break;
  }
}

static void store_scalar(TF_Tensor* t, int64_t off, zdouble v) {
  if (is_cx(t->dtype)) store(t, off, 1, &v);
  else store_real(t, off, creal(v));
}

/* ---- shared checks (TensorFlow's LinearAlgebraOp wording) ---- */

static int check_matrix(mt_kernel_ctx* ctx, int i) {
  const TF_Tensor* t = ctx->inputs[i];
  if (t->ndims < 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input tensor %d must have rank >= 2, got %d",
                   i, t->ndims);
    return 0;
  }
  return 1;
}

static int check_square(mt_kernel_ctx* ctx, int i) {
  const TF_Tensor* t = ctx->inputs[i];
  if (!check_matrix(ctx, i)) return 0;
  if (t->dims[t->ndims - 1] != t->dims[t->ndims - 2]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input matrix must be square.");
    return 0;
  }
  return 1;
}

/* Same leading dims in inputs 0 and 1. */
static int check_same_batch(mt_kernel_ctx* ctx) {
  const TF_Tensor* a = ctx->inputs[0];
  const TF_Tensor* b = ctx->inputs[1];
  int same = a->ndims == b->ndims;
  for (int d = 0; same && d < a->ndims - 2; d++) same = a->dims[d] == b->dims[d];
  if (!same) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "All input tensors must have the same outer dimensions.");
    return 0;
  }
  return 1;
}

static int64_t batch_of(const TF_Tensor* t) { return mt_num_elements(t->dims, t->ndims - 2); }

static int too_large(mt_kernel_ctx* ctx, int64_t m, int64_t n) {
  if (m > 46340 || n > 46340) { /* lapack_int elements per matrix */
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "matrix dimensions too large for LAPACK");
    return 1;
  }
  return 0;
}

/* Scratch of count computing-type elements (at least one). */
static void* scratch(mt_kernel_ctx* ctx, TF_DataType dt, int64_t count) {
  return mt_malloc((size_t)(count > 0 ? count : 1) * ws(dt), ctx->status);
}

/* ---- shape functions (linalg_ops.cc) ---- */

/* Input idx as a batch of square matrices: the merged shape in *s. */
static int square_input(mt_shape_ctx* ctx, int idx, mt_shape* s) {
  if (!mt_shape_with_rank_at_least(ctx, idx, 2)) return 0;
  *s = ctx->in[idx];
  if (s->rank < 0) return 1;
  int64_t d;
  if (!mt_merge_dim(ctx, s->dims[s->rank - 2], s->dims[s->rank - 1], &d)) return 0;
  s->dims[s->rank - 2] = s->dims[s->rank - 1] = d;
  return 1;
}

static void square_shape(mt_shape_ctx* ctx) {
  mt_shape s;
  if (square_input(ctx, 0, &s)) ctx->out[0] = s;
}

/* Batch dims of a square input (the determinants' shape). */
static void det_shape(mt_shape_ctx* ctx) {
  mt_shape s;
  if (!square_input(ctx, 0, &s)) return;
  if (s.rank >= 0) s.rank -= 2;
  for (int i = 0; i < ctx->noutputs; i++) ctx->out[i] = s;
}

/* MatrixSolve: square lhs [..., M, M], rhs [..., M, K] with the same batch
 * dims -> [..., M, K]. */
static void solve_shape(mt_shape_ctx* ctx) {
  mt_shape lhs;
  if (!square_input(ctx, 0, &lhs) || !mt_shape_with_rank_at_least(ctx, 1, 2)) return;
  const mt_shape* rhs = &ctx->in[1];
  if (lhs.rank < 0 || rhs->rank < 0) {
    ctx->out[0] = mt_shape_unknown();
    if (lhs.rank < 0 && rhs->rank >= 0) ctx->out[0] = *rhs;
    return;
  }
  mt_shape lb = lhs, rb = *rhs, batch;
  lb.rank -= 2;
  rb.rank -= 2;
  if (!mt_merge_shape(ctx, &lb, &rb, &batch)) return;
  int64_t m;
  if (!mt_merge_dim(ctx, lhs.dims[lhs.rank - 2], rhs->dims[rhs->rank - 2], &m)) return;
  mt_shape* out = &ctx->out[0];
  *out = batch;
  out->dims[out->rank++] = m;
  out->dims[out->rank++] = rhs->dims[rhs->rank - 1];
}

/* MatrixTriangularSolve: batch dims broadcast. */
static void triangular_solve_shape(mt_shape_ctx* ctx) {
  mt_shape lhs;
  if (!square_input(ctx, 0, &lhs) || !mt_shape_with_rank_at_least(ctx, 1, 2)) return;
  const mt_shape* rhs = &ctx->in[1];
  if (lhs.rank < 0 || rhs->rank < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  mt_shape lb = lhs, rb = *rhs, batch;
  lb.rank -= 2;
  rb.rank -= 2;
  if (!mt_broadcast_shapes(&lb, &rb, &batch, ctx->status)) return;
  int64_t m;
  if (!mt_merge_dim(ctx, lhs.dims[lhs.rank - 2], rhs->dims[rhs->rank - 2], &m)) return;
  mt_shape* out = &ctx->out[0];
  *out = batch;
  out->dims[out->rank++] = m;
  out->dims[out->rank++] = rhs->dims[rhs->rank - 1];
}

static int64_t dmin(int64_t a, int64_t b) {
  if (a < 0 || b < 0) return a == 0 || b == 0 ? 0 : -1;
  return a < b ? a : b;
}

static void qr_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank_at_least(ctx, 0, 2)) return;
  const mt_shape* in = &ctx->in[0];
  if (in->rank < 0) {
    ctx->out[0] = ctx->out[1] = mt_shape_unknown();
    return;
  }
  const int full = mt_op_attr_bool(ctx->op, "full_matrices", 0);
  const int r = in->rank;
  const int64_t m = in->dims[r - 2], n = in->dims[r - 1], p = dmin(m, n);
  mt_shape q = *in, rr = *in;
  q.dims[r - 1] = full ? m : p;
  rr.dims[r - 2] = full ? m : p;
  ctx->out[0] = q;
  ctx->out[1] = rr;
}

static void svd_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank_at_least(ctx, 0, 2)) return;
  const mt_shape* in = &ctx->in[0];
  const int uv = mt_op_attr_bool(ctx->op, "compute_uv", 1);
  const int full = mt_op_attr_bool(ctx->op, "full_matrices", 0);
  if (in->rank < 0) {
    for (int i = 0; i < 3; i++) ctx->out[i] = mt_shape_unknown();
    return;
  }
  const int r = in->rank;
  const int64_t m = in->dims[r - 2], n = in->dims[r - 1], p = dmin(m, n);
  mt_shape s = *in;
  s.rank = r - 1;
  s.dims[r - 2] = p;
  ctx->out[0] = s;
  if (uv) {
    mt_shape u = *in, v = *in;
    u.dims[r - 1] = full ? m : p;
    v.dims[r - 2] = n;
    v.dims[r - 1] = full ? n : p;
    ctx->out[1] = u;
    ctx->out[2] = v;
  } else {
    const int64_t zero = 0;
    ctx->out[1] = ctx->out[2] = mt_shape_make(&zero, 1);
  }
}

static void eig_shape(mt_shape_ctx* ctx) {
  mt_shape s;
  if (!square_input(ctx, 0, &s)) return;
  if (s.rank < 0) {
    ctx->out[0] = ctx->out[1] = mt_shape_unknown();
    return;
  }
  mt_shape e = s;
  e.rank -= 1;
  ctx->out[0] = e;
  if (mt_op_attr_bool(ctx->op, "compute_v", 1)) {
    ctx->out[1] = s;
  } else {
    const int64_t zero = 0;
    ctx->out[1] = mt_shape_make(&zero, 1);
  }
}

/* ---- Cholesky ---- */

/* A matrix that is not positive definite gives NaNs in the lower triangle
 * (TensorFlow 2.21 logs a warning and fills it so, without an error; its
 * upper triangle is left unwritten there, zeros here). */
static void cholesky_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  if (!cpu_dtype(ctx, in->dtype) || !check_square(ctx, 0)) return;
  const int64_t n = in->dims[in->ndims - 1], nb = batch_of(in);
  if (too_large(ctx, n, n)) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, in->dims, in->ndims);
  if (!out || n == 0) return;
  void* a = scratch(ctx, in->dtype, n * n);
  if (!a) return;
  const size_t e = ws(in->dtype);
  for (int64_t b = 0; b < nb; b++) {
    load(in, b * n * n, n * n, a);
    /* TensorFlow reads the lower triangle and zeroes the upper one */
    const int info = is_cx(in->dtype)
                         ? scipy_LAPACKE_zpotrf(LAPACK_ROW_MAJOR, 'L', (int)n, a, (int)n)
                         : scipy_LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', (int)n, a, (int)n);
    for (int64_t i = 0; i < n; i++) {
      memset((char*)a + (size_t)(i * n + i + 1) * e, 0, (size_t)(n - i - 1) * e);
      if (info != 0)
        for (int64_t j = 0; j <= i; j++) {
          if (is_cx(in->dtype)) ((zdouble*)a)[i * n + j] = NAN;
          else ((double*)a)[i * n + j] = NAN;
        }
    }
    store(out, b * n * n, n * n, a);
  }
  free(a);
}

/* ---- LU based: MatrixInverse, MatrixDeterminant, LogMatrixDeterminant,
 * MatrixSolve ---- */

/* LU of the n x n matrix a in place (getrf); returns LAPACK's info. */
static int lu_factor(TF_DataType dt, int64_t n, void* a, lapack_int* ipiv) {
  return is_cx(dt) ? scipy_LAPACKE_zgetrf(LAPACK_ROW_MAJOR, (int)n, (int)n, a, (int)n, ipiv)
                   : scipy_LAPACKE_dgetrf(LAPACK_ROW_MAJOR, (int)n, (int)n, a, (int)n, ipiv);
}

/* Conjugate transpose (adjoint) of the n x n matrix a in place. */
static void adjoint_sq(TF_DataType dt, int64_t n, void* a) {
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = i; j < n; j++) {
      if (is_cx(dt)) {
        zdouble* z = a;
        const zdouble t = z[i * n + j];
        z[i * n + j] = conj(z[j * n + i]);
        z[j * n + i] = conj(t);
      } else {
        double* d = a;
        const double t = d[i * n + j];
        d[i * n + j] = d[j * n + i];
        d[j * n + i] = t;
      }
    }
}

static void inverse_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  if (!cpu_dtype(ctx, in->dtype) || !check_square(ctx, 0)) return;
  const int adjoint = mt_op_attr_bool(ctx->op, "adjoint", 0);
  const int64_t n = in->dims[in->ndims - 1], nb = batch_of(in);
  if (too_large(ctx, n, n)) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, in->dims, in->ndims);
  if (!out || n == 0) return;
  void* a = scratch(ctx, in->dtype, n * n);
  lapack_int* ipiv = a ? mt_malloc(sizeof(lapack_int) * (size_t)n, ctx->status) : NULL;
  for (int64_t b = 0; ipiv && b < nb; b++) {
    load(in, b * n * n, n * n, a);
    if (adjoint) adjoint_sq(in->dtype, n, a);
    int info = lu_factor(in->dtype, n, a, ipiv);
    if (info == 0)
      info = is_cx(in->dtype) ? scipy_LAPACKE_zgetri(LAPACK_ROW_MAJOR, (int)n, a, (int)n, ipiv)
                              : scipy_LAPACKE_dgetri(LAPACK_ROW_MAJOR, (int)n, a, (int)n, ipiv);
    if (info != 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input is not invertible.");
      break;
    }
    store(out, b * n * n, n * n, a);
  }
  free(ipiv);
  free(a);
}

/* det = sign * exp(logabs) of the LU factors: sign is +-1 (real) or a unit
 * complex number, logabs the sum of log |u_ii| (-inf when singular). */
static void lu_det(TF_DataType dt, int64_t n, const void* a, const lapack_int* ipiv,
                   zdouble* sign, double* logabs) {
  zdouble s = 1;
  double l = 0;
  for (int64_t i = 0; i < n; i++) {
    const zdouble u = is_cx(dt) ? ((const zdouble*)a)[i * n + i] : ((const double*)a)[i * n + i];
    const double m = cabs(u);
    if (m == 0) {
      *sign = 0;
      *logabs = -INFINITY;
      return;
    }
    s *= u / m;
    l += log(m);
    if (ipiv[i] != i + 1) s = -s;
  }
  if (!is_cx(dt)) s = creal(s) < 0 ? -1 : 1;
  *sign = s;
  *logabs = l;
}

static void det_common(mt_kernel_ctx* ctx, int log_form) {
  const TF_Tensor* in = ctx->inputs[0];
  if (!cpu_dtype(ctx, in->dtype) || !check_square(ctx, 0)) return;
  const int64_t n = in->dims[in->ndims - 1], nb = batch_of(in);
  if (too_large(ctx, n, n)) return;
  TF_Tensor* sign = mt_ctx_alloc(ctx, 0, in->dtype, in->dims, in->ndims - 2);
  TF_Tensor* val = log_form && sign ? mt_ctx_alloc(ctx, 1, in->dtype, in->dims, in->ndims - 2)
                                    : sign;
  if (!val || nb == 0) return;
  void* a = scratch(ctx, in->dtype, n * n);
  lapack_int* ipiv = a ? mt_malloc(sizeof(lapack_int) * (size_t)(n > 0 ? n : 1), ctx->status)
                       : NULL;
  for (int64_t b = 0; ipiv && b < nb; b++) {
    zdouble s = 1;
    double l = 0;
    if (n > 0) {
      load(in, b * n * n, n * n, a);
      lu_factor(in->dtype, n, a, ipiv); /* info > 0: singular, a zero pivot */
      lu_det(in->dtype, n, a, ipiv, &s, &l);
    }
    if (log_form) {
      store_scalar(sign, b, s);
      store_real(val, b, l);
    } else {
      store_scalar(val, b, s * exp(l));
    }
  }
  free(ipiv);
  free(a);
}

static void det_kernel(mt_kernel_ctx* ctx) { det_common(ctx, 0); }
static void log_det_kernel(mt_kernel_ctx* ctx) { det_common(ctx, 1); }

/* k columns of rhs batch b into col-contiguous row-major x (n x k). */
static void solve_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* a_t = ctx->inputs[0];
  const TF_Tensor* b_t = ctx->inputs[1];
  if (!cpu_dtype(ctx, a_t->dtype) || !check_square(ctx, 0) || !check_matrix(ctx, 1) ||
      !check_same_batch(ctx))
    return;
  const int adjoint = mt_op_attr_bool(ctx->op, "adjoint", 0);
  const int64_t n = a_t->dims[a_t->ndims - 1], k = b_t->dims[b_t->ndims - 1];
  if (b_t->dims[b_t->ndims - 2] != n) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input matrix and right-hand side must have the same number of rows.");
    return;
  }
  if (too_large(ctx, n, k)) return;
  const int64_t nb = batch_of(a_t);
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, a_t->dtype, b_t->dims, b_t->ndims);
  if (!out || n == 0 || k == 0) return;
  void* a = scratch(ctx, a_t->dtype, n * n);
  void* x = a ? scratch(ctx, a_t->dtype, n * k) : NULL;
  lapack_int* ipiv = x ? mt_malloc(sizeof(lapack_int) * (size_t)n, ctx->status) : NULL;
  for (int64_t b = 0; ipiv && b < nb; b++) {
    load(a_t, b * n * n, n * n, a);
    load(b_t, b * n * k, n * k, x);
    if (adjoint) adjoint_sq(a_t->dtype, n, a);
    const int info =
        is_cx(a_t->dtype)
            ? scipy_LAPACKE_zgesv(LAPACK_ROW_MAJOR, (int)n, (int)k, a, (int)n, ipiv, x, (int)k)
            : scipy_LAPACKE_dgesv(LAPACK_ROW_MAJOR, (int)n, (int)k, a, (int)n, ipiv, x, (int)k);
    if (info != 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input matrix is not invertible.");
      break;
    }
    store(out, b * n * k, n * k, x);
  }
  free(ipiv);
  free(x);
  free(a);
}

/* ---- MatrixTriangularSolve (batch dims broadcast) ---- */

static void triangular_solve_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* a_t = ctx->inputs[0];
  const TF_Tensor* b_t = ctx->inputs[1];
  char s1[256], s2[256];
  if (!cpu_dtype(ctx, a_t->dtype)) return;
  for (int i = 0; i < 2; i++)
    if (ctx->inputs[i]->ndims < 2) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "In[%d] ndims must be >= 2: %d", i,
                     ctx->inputs[i]->ndims);
      return;
    }
  const int an = a_t->ndims, bn = b_t->ndims;
  mt_bcast bc;
  TF_Status* tmp = TF_NewStatus();
  const int ok = mt_bcast_init(&bc, a_t->dims, an - 2, b_t->dims, bn - 2, tmp);
  TF_DeleteStatus(tmp);
  if (!ok) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "In[0] and In[1] must have compatible batch dimensions: %s vs. %s",
                   mt_dims_str(a_t->dims, an, s1, sizeof s1),
                   mt_dims_str(b_t->dims, bn, s2, sizeof s2));
    return;
  }
  const int64_t n = a_t->dims[an - 1], k = b_t->dims[bn - 1];
  if (a_t->dims[an - 2] != n) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input matrix must be square.");
    return;
  }
  if (b_t->dims[bn - 2] != n) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input matrix and right-hand side must have the same number of rows.");
    return;
  }
  if (too_large(ctx, n, k)) return;
  int64_t od[MT_MAX_DIMS];
  const int on = bc.out_ndims + 2;
  memcpy(od, bc.out_dims, sizeof(int64_t) * (size_t)bc.out_ndims);
  od[on - 2] = n;
  od[on - 1] = k;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, a_t->dtype, od, on);
  const int64_t nb = mt_num_elements(od, on - 2);
  if (!out || n == 0 || k == 0 || nb == 0) return;
  const int lower = mt_op_attr_bool(ctx->op, "lower", 1);
  const int adjoint = mt_op_attr_bool(ctx->op, "adjoint", 0);
  const char trans = adjoint ? (is_cx(a_t->dtype) ? 'C' : 'T') : 'N';
  int64_t* ab = mt_malloc(sizeof(int64_t) * 2 * (size_t)nb, ctx->status);
  void* a = ab ? scratch(ctx, a_t->dtype, n * n) : NULL;
  void* x = a ? scratch(ctx, a_t->dtype, n * k) : NULL;
  if (x) {
    /* operand batch of each output batch (broadcast) */
    int64_t idx[MT_MAX_DIMS] = {0};
    for (int64_t o = 0; o < nb; o++) {
      int64_t ia = 0, ib = 0, sa = 1, sb = 1;
      for (int d = bc.out_ndims - 1; d >= 0; d--) {
        const int da = d - (bc.out_ndims - (an - 2)), db = d - (bc.out_ndims - (bn - 2));
        const int64_t xa = da >= 0 ? a_t->dims[da] : 1, xb = db >= 0 ? b_t->dims[db] : 1;
        if (xa != 1) ia += idx[d] * sa;
        if (xb != 1) ib += idx[d] * sb;
        sa *= xa;
        sb *= xb;
      }
      ab[2 * o] = ia;
      ab[2 * o + 1] = ib;
      for (int d = bc.out_ndims - 1; d >= 0 && ++idx[d] == od[d]; d--) idx[d] = 0;
    }
  }
  for (int64_t o = 0; x && o < nb; o++) {
    load(a_t, ab[2 * o] * n * n, n * n, a);
    load(b_t, ab[2 * o + 1] * n * k, n * k, x);
    const char uplo = lower ? 'L' : 'U';
    const int info =
        is_cx(a_t->dtype)
            ? scipy_LAPACKE_ztrtrs(LAPACK_ROW_MAJOR, uplo, trans, 'N', (int)n, (int)k, a, (int)n,
                                   x, (int)k)
            : scipy_LAPACKE_dtrtrs(LAPACK_ROW_MAJOR, uplo, trans, 'N', (int)n, (int)k, a, (int)n,
                                   x, (int)k);
    if (info > 0) { /* a zero on the diagonal: TensorFlow's Eigen solve divides by it */
      const size_t e = ws(a_t->dtype);
      load(a_t, ab[2 * o] * n * n, n * n, a);
      load(b_t, ab[2 * o + 1] * n * k, n * k, x);
      (void)e;
      if (is_cx(a_t->dtype))
        scipy_cblas_ztrsm(CblasRowMajor, CblasLeft, lower ? CblasLower : CblasUpper,
                          adjoint ? CblasConjTrans : CblasNoTrans, CblasNonUnit, (int)n, (int)k,
                          &(zdouble){1}, a, (int)n, x, (int)k);
      else
        scipy_cblas_dtrsm(CblasRowMajor, CblasLeft, lower ? CblasLower : CblasUpper,
                          adjoint ? CblasTrans : CblasNoTrans, CblasNonUnit, (int)n, (int)k, 1.0,
                          a, (int)n, x, (int)k);
    }
    store(out, o * n * k, n * k, x);
  }
  free(x);
  free(a);
  free(ab);
}

/* ---- Qr ---- */

static void qr_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  if (!cpu_dtype(ctx, in->dtype) || !check_matrix(ctx, 0)) return;
  const int full = mt_op_attr_bool(ctx->op, "full_matrices", 0);
  const int r = in->ndims;
  const int64_t m = in->dims[r - 2], n = in->dims[r - 1], p = m < n ? m : n;
  const int64_t qc = full ? m : p, rr = full ? m : p;
  if (too_large(ctx, m, n)) return;
  int64_t qd[MT_MAX_DIMS], rd[MT_MAX_DIMS];
  memcpy(qd, in->dims, sizeof(int64_t) * (size_t)r);
  memcpy(rd, in->dims, sizeof(int64_t) * (size_t)r);
  qd[r - 1] = qc;
  rd[r - 2] = rr;
  TF_Tensor* q_t = mt_ctx_alloc(ctx, 0, in->dtype, qd, r);
  TF_Tensor* r_t = q_t ? mt_ctx_alloc(ctx, 1, in->dtype, rd, r) : NULL;
  const int64_t nb = batch_of(in);
  if (!r_t || nb == 0) return;
  const TF_DataType dt = in->dtype;
  const int cx = is_cx(dt);
  const size_t e = ws(dt);
  if (m == 0 || n == 0) { /* q is an identity (or empty), r zeros */
    memset(mt_tensor_data(r_t), 0, (size_t)(nb * rr * n) * TF_DataTypeSize(dt));
    memset(mt_tensor_data(q_t), 0, (size_t)(nb * m * qc) * TF_DataTypeSize(dt));
    for (int64_t b = 0; b < nb; b++)
      for (int64_t i = 0; i < m && i < qc; i++) store_real(q_t, (b * m + i) * qc + i, 1.0);
    return;
  }
  const int64_t wc = qc > n ? qc : n; /* work matrix m x wc */
  void* a = scratch(ctx, dt, m * wc);
  void* tau = a ? scratch(ctx, dt, p) : NULL;
  void* row = tau ? scratch(ctx, dt, n) : NULL;
  void* rm = row ? scratch(ctx, dt, rr * n) : NULL;
  for (int64_t b = 0; rm && b < nb; b++) {
    memset(a, 0, (size_t)(m * wc) * e);
    for (int64_t i = 0; i < m; i++) {
      load(in, (b * m + i) * n, n, row);
      memcpy((char*)a + (size_t)(i * wc) * e, row, (size_t)n * e);
    }
    if (cx) scipy_LAPACKE_zgeqrf(LAPACK_ROW_MAJOR, (int)m, (int)n, a, (int)wc, tau);
    else scipy_LAPACKE_dgeqrf(LAPACK_ROW_MAJOR, (int)m, (int)n, a, (int)wc, tau);
    memset(rm, 0, (size_t)(rr * n) * e);
    for (int64_t i = 0; i < rr && i < m; i++)
      for (int64_t j = i; j < n; j++)
        memcpy((char*)rm + (size_t)(i * n + j) * e, (char*)a + (size_t)(i * wc + j) * e, e);
    store(r_t, b * rr * n, rr * n, rm);
    if (cx) scipy_LAPACKE_zungqr(LAPACK_ROW_MAJOR, (int)m, (int)qc, (int)p, a, (int)wc, tau);
    else scipy_LAPACKE_dorgqr(LAPACK_ROW_MAJOR, (int)m, (int)qc, (int)p, a, (int)wc, tau);
    for (int64_t i = 0; i < m; i++) store(q_t, (b * m + i) * qc, qc, (char*)a + (size_t)(i * wc) * e);
  }
  free(rm);
  free(row);
  free(tau);
  free(a);
}

/* ---- Svd ---- */

static void svd_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  if (!cpu_dtype(ctx, in->dtype) || !check_matrix(ctx, 0)) return;
  const int uv = mt_op_attr_bool(ctx->op, "compute_uv", 1);
  const int full = mt_op_attr_bool(ctx->op, "full_matrices", 0);
  const int r = in->ndims;
  const int64_t m = in->dims[r - 2], n = in->dims[r - 1], p = m < n ? m : n;
  if (too_large(ctx, m, n)) return;
  const int64_t uc = full ? m : p, vc = full ? n : p;
  int64_t sd[MT_MAX_DIMS], ud[MT_MAX_DIMS], vd[MT_MAX_DIMS];
  memcpy(sd, in->dims, sizeof(int64_t) * (size_t)r);
  memcpy(ud, in->dims, sizeof(int64_t) * (size_t)r);
  memcpy(vd, in->dims, sizeof(int64_t) * (size_t)r);
  sd[r - 2] = p;
  ud[r - 1] = uc;
  vd[r - 2] = n;
  vd[r - 1] = vc;
  const int64_t zero = 0;
  const TF_DataType dt = in->dtype;
  TF_Tensor* s_t = mt_ctx_alloc(ctx, 0, dt, sd, r - 1);
  TF_Tensor* u_t = s_t ? (uv ? mt_ctx_alloc(ctx, 1, dt, ud, r) : mt_ctx_alloc(ctx, 1, dt, &zero, 1))
                       : NULL;
  TF_Tensor* v_t = u_t ? (uv ? mt_ctx_alloc(ctx, 2, dt, vd, r) : mt_ctx_alloc(ctx, 2, dt, &zero, 1))
                       : NULL;
  const int64_t nb = batch_of(in);
  if (!v_t || nb == 0) return;
  const int cx = is_cx(dt);
  const size_t e = ws(dt);
  if (m == 0 || n == 0) { /* no singular values; full u, v are identities */
    if (uv) {
      memset(mt_tensor_data(u_t), 0, (size_t)(nb * m * uc) * TF_DataTypeSize(dt));
      memset(mt_tensor_data(v_t), 0, (size_t)(nb * n * vc) * TF_DataTypeSize(dt));
      for (int64_t b = 0; b < nb; b++) {
        for (int64_t i = 0; i < m && i < uc; i++) store_real(u_t, (b * m + i) * uc + i, 1.0);
        for (int64_t i = 0; i < n && i < vc; i++) store_real(v_t, (b * n + i) * vc + i, 1.0);
      }
    }
    return;
  }
  void* a = scratch(ctx, dt, m * n);
  double* s = a ? mt_malloc(sizeof(double) * (size_t)p, ctx->status) : NULL;
  void* u = s ? scratch(ctx, dt, m * uc) : NULL;
  void* vt = u ? scratch(ctx, dt, vc * n) : NULL;
  void* v = vt ? scratch(ctx, dt, n * vc) : NULL;
  const char job = !uv ? 'N' : full ? 'A' : 'S';
  for (int64_t b = 0; v && b < nb; b++) {
    load(in, b * m * n, m * n, a);
    const int info =
        cx ? scipy_LAPACKE_zgesdd(LAPACK_ROW_MAJOR, job, (int)m, (int)n, a, (int)n, s, u,
                                  (int)uc, vt, (int)n)
           : scipy_LAPACKE_dgesdd(LAPACK_ROW_MAJOR, job, (int)m, (int)n, a, (int)n, s, u,
                                  (int)uc, vt, (int)n);
    if (info != 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "SVD did not converge.");
      break;
    }
    for (int64_t i = 0; i < p; i++) store_real(s_t, b * p + i, s[i]);
    if (!uv) continue;
    store(u_t, b * m * uc, m * uc, u);
    for (int64_t i = 0; i < n; i++) /* v = vt^H */
      for (int64_t j = 0; j < vc; j++) {
        if (cx) ((zdouble*)v)[i * vc + j] = conj(((zdouble*)vt)[j * n + i]);
        else ((double*)v)[i * vc + j] = ((double*)vt)[j * n + i];
      }
    store(v_t, b * n * vc, n * vc, v);
    (void)e;
  }
  free(v);
  free(vt);
  free(u);
  free(s);
  free(a);
}

/* ---- SelfAdjointEigV2 ---- */

static void eig_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  if (!cpu_dtype(ctx, in->dtype) || !check_square(ctx, 0)) return;
  const int cv = mt_op_attr_bool(ctx->op, "compute_v", 1);
  const int64_t n = in->dims[in->ndims - 1], nb = batch_of(in);
  if (too_large(ctx, n, n)) return;
  const TF_DataType dt = in->dtype;
  const int64_t zero = 0;
  TF_Tensor* e_t = mt_ctx_alloc(ctx, 0, dt, in->dims, in->ndims - 1);
  TF_Tensor* v_t = e_t ? (cv ? mt_ctx_alloc(ctx, 1, dt, in->dims, in->ndims)
                             : mt_ctx_alloc(ctx, 1, dt, &zero, 1))
                       : NULL;
  if (!v_t || n == 0 || nb == 0) return;
  void* a = scratch(ctx, dt, n * n);
  double* w = a ? mt_malloc(sizeof(double) * (size_t)n, ctx->status) : NULL;
  const char job = cv ? 'V' : 'N';
  for (int64_t b = 0; w && b < nb; b++) {
    load(in, b * n * n, n * n, a);
    /* TensorFlow's solver reads the lower triangle */
    const int info = is_cx(dt)
                         ? scipy_LAPACKE_zheevd(LAPACK_ROW_MAJOR, job, 'L', (int)n, a, (int)n, w)
                         : scipy_LAPACKE_dsyevd(LAPACK_ROW_MAJOR, job, 'L', (int)n, a, (int)n, w);
    if (info != 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Self-adjoint eigen decomposition was not "
                     "successful. The input might not be valid.");
      break;
    }
    for (int64_t i = 0; i < n; i++) store_real(e_t, b * n + i, w[i]);
    if (cv) store(v_t, b * n * n, n * n, a);
  }
  free(w);
  free(a);
}

/* ---- registrations ---- */

#define LINALG_T "T: {double, float, half, complex64, complex128}"

static const mt_op_spec lapack_specs[] = {
    {.name = "Cholesky", .inputs = "input: T", .outputs = "output: T", .attrs = LINALG_T,
     .shape = square_shape, .kernel = cholesky_kernel},
    {.name = "MatrixInverse", .inputs = "input: T", .outputs = "output: T",
     .attrs = "adjoint: bool = false; " LINALG_T, .shape = square_shape,
     .kernel = inverse_kernel},
    {.name = "MatrixDeterminant", .inputs = "input: T", .outputs = "output: T",
     .attrs = "T: {half, float, double, complex64, complex128}", .shape = det_shape,
     .kernel = det_kernel},
    {.name = "LogMatrixDeterminant", .inputs = "input: T",
     .outputs = "sign: T, log_abs_determinant: T",
     .attrs = "T: {half, float, double, complex64, complex128}", .shape = det_shape,
     .kernel = log_det_kernel},
    {.name = "MatrixSolve", .inputs = "matrix: T, rhs: T", .outputs = "output: T",
     .attrs = "adjoint: bool = false; " LINALG_T, .shape = solve_shape, .kernel = solve_kernel},
    {.name = "MatrixTriangularSolve", .inputs = "matrix: T, rhs: T", .outputs = "output: T",
     .attrs = "lower: bool = true; adjoint: bool = false;"
              " T: {bfloat16, double, float, half, complex64, complex128}",
     .shape = triangular_solve_shape, .kernel = triangular_solve_kernel},
    {.name = "Qr", .inputs = "input: T", .outputs = "q: T, r: T",
     .attrs = "full_matrices: bool = false; " LINALG_T, .shape = qr_shape, .kernel = qr_kernel},
    {.name = "Svd", .inputs = "input: T", .outputs = "s: T, u: T, v: T",
     .attrs = "compute_uv: bool = true; full_matrices: bool = false; " LINALG_T,
     .shape = svd_shape, .kernel = svd_kernel},
    {.name = "SelfAdjointEigV2", .inputs = "input: T", .outputs = "e: T, v: T",
     .attrs = "compute_v: bool = true; " LINALG_T, .shape = eig_shape, .kernel = eig_kernel},
};

void mt_register_linalg_lapack_ops(void) {
  mt_register_ops(lapack_specs, (int)(sizeof lapack_specs / sizeof lapack_specs[0]));
}
