/* Gradients of the diagonal, band and cross-product ops (runtime/gradient.h),
 * node for node as TensorFlow 2.21's array_grad.py (Diag, DiagPart,
 * MatrixDiag*, MatrixDiagPart*, MatrixSetDiag*, MatrixBandPart) and
 * math_grad.py (Cross) build them, through the Python wrappers' names
 * (array_ops.matrix_diag_part is a MatrixDiagPartV3 "diag_part" with Consts
 * "diag_part/k" and "diag_part/padding_value", and so on).
 *
 * One difference: MatrixSetDiag*'s gradient with a diagonal whose static
 * shape is not fully known builds its zero diagonal as ZerosLike of the
 * gradient's diagonal part, where TensorFlow computes that shape with
 * Shape/Slice (V1) or two conds (V2, V3): the same values. */
#include <stdlib.h>
#include <string.h>

#include "runtime/gradient.h"
#include "runtime/kernels/grad_util.h"
#include "runtime/kernels/linalg/linalg.h"

static const int64_t kZero = 0;

static const char* align_of(mt_grad_ctx* g) {
  return mt_op_attr_str(g->op, "align", "RIGHT_LEFT");
}

/* array_ops.matrix_diag_part(x, k=k or 0, align): MatrixDiagPartV3 "diag_part". */
static TF_Output diag_part_v3(mt_grad_ctx* g, TF_Output x, const TF_Output* k, const char* align) {
  mt_gnode n = mt_g_begin(g, "MatrixDiagPartV3", "diag_part");
  mt_g_in(&n, x);
  if (k) mt_g_in(&n, *k);
  else mt_gu_in_const_int(&n, "k", TF_INT32, &kZero, 1, 0);
  mt_gu_in_const_int(&n, "padding_value", mt_g_dtype(x), &kZero, 1, 0);
  mt_g_attr_str(&n, "align", align);
  return mt_g_end0(&n);
}

/* array_ops.matrix_diag(d, k, num_rows, num_cols, align): MatrixDiagV3 "diag". */
static TF_Output diag_v3(mt_grad_ctx* g, TF_Output d, const TF_Output* k, int64_t rows,
                         int64_t cols, const char* align) {
  mt_gnode n = mt_g_begin(g, "MatrixDiagV3", "diag");
  mt_g_in(&n, d);
  if (k) mt_g_in(&n, *k);
  else mt_gu_in_const_int(&n, "k", TF_INT32, &kZero, 1, 0);
  mt_gu_in_const_int(&n, "num_rows", TF_INT32, &rows, 1, 0);
  mt_gu_in_const_int(&n, "num_cols", TF_INT32, &cols, 1, 0);
  mt_gu_in_const_int(&n, "padding_value", mt_g_dtype(d), &kZero, 1, 0);
  mt_g_attr_str(&n, "align", align);
  return mt_g_end0(&n);
}

/* array_ops.matrix_set_diag(x, d, k, align): MatrixSetDiagV3 "set_diag". */
static TF_Output set_diag_v3(mt_grad_ctx* g, TF_Output x, TF_Output d, const TF_Output* k,
                             const char* align) {
  mt_gnode n = mt_g_begin(g, "MatrixSetDiagV3", "set_diag");
  mt_g_in(&n, x);
  mt_g_in(&n, d);
  if (k) mt_g_in(&n, *k);
  else mt_gu_in_const_int(&n, "k", TF_INT32, &kZero, 1, 0);
  mt_g_attr_str(&n, "align", align);
  return mt_g_end0(&n);
}

/* array_ops.zeros(static shape, dtype) named `name`: a Const below 1000
 * elements, else Fill(name/shape_as_tensor, name/Const). */
static TF_Output zeros_static(mt_grad_ctx* g, const mt_shape* s, TF_DataType dt,
                              const char* name) {
  const int64_t n = mt_num_elements(s->dims, s->rank);
  if (n < 1000) {
    double* vals = calloc((size_t)(n > 0 ? n : 1), sizeof(double));
    if (!vals) {
      mt_status_setf(g->status, TF_RESOURCE_EXHAUSTED, "out of memory building gradients");
      return (TF_Output){NULL, 0};
    }
    TF_Output c = mt_g_const(g, dt, s->dims, s->rank, vals, name);
    free(vals);
    return c;
  }
  mt_gnode f = mt_g_begin(g, "Fill", name);
  mt_gu_in_const_int(&f, "shape_as_tensor", TF_INT32, s->dims, s->rank, 1);
  mt_gu_in_const_int(&f, "Const", dt, &kZero, 1, 0);
  return mt_g_end0(&f);
}

/* array_ops.zeros_like(x): a Const "zeros_like" when x's shape is static, else ZerosLike. */
static TF_Output zeros_like(mt_grad_ctx* g, TF_Output x) {
  const mt_shape* s = mt_g_static_shape(x);
  if (mt_g_fully_defined(s)) return zeros_static(g, s, mt_g_dtype(x), "zeros_like");
  mt_gnode n = mt_g_begin(g, "ZerosLike", "zeros_like");
  mt_g_in(&n, x);
  return mt_g_end0(&n);
}

static void diag_grad(mt_grad_ctx* g) { g->dx[0] = mt_g_unary(g, "DiagPart", g->dy[0]); }
static void diag_part_grad(mt_grad_ctx* g) { g->dx[0] = mt_g_unary(g, "Diag", g->dy[0]); }

static void matrix_diag_grad(mt_grad_ctx* g) {
  g->dx[0] = diag_part_v3(g, g->dy[0], NULL, "RIGHT_LEFT");
}

static void matrix_diag_v2_grad(mt_grad_ctx* g) {
  TF_Output k = mt_g_x(g, 1);
  g->dx[0] = diag_part_v3(g, g->dy[0], &k, align_of(g));
}

/* Static [rows, cols] of x when both known (1), else 0. */
static int static_matrix(TF_Output x, int64_t* rows, int64_t* cols) {
  const mt_shape* s = mt_g_static_shape(x);
  if (s->rank < 2) return 0;
  *rows = s->dims[s->rank - 2];
  *cols = s->dims[s->rank - 1];
  return *rows >= 0 && *cols >= 0;
}

static void matrix_diag_part_grad(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0);
  int64_t rows, cols;
  if (static_matrix(x, &rows, &cols) && rows == cols) {
    g->dx[0] = diag_v3(g, g->dy[0], NULL, -1, -1, "RIGHT_LEFT");
    return;
  }
  g->dx[0] = set_diag_v3(g, zeros_like(g, x), g->dy[0], NULL, "RIGHT_LEFT");
}

static void matrix_diag_part_v2_grad(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0), k = mt_g_x(g, 1);
  int64_t rows, cols;
  if (static_matrix(x, &rows, &cols)) {
    g->dx[0] = diag_v3(g, g->dy[0], &k, rows, cols, align_of(g));
    return;
  }
  g->dx[0] = set_diag_v3(g, zeros_like(g, x), g->dy[0], &k, align_of(g));
}

/* TensorFlow's _MatrixSetDiagGrad (V1) and _MatrixSetDiagGradV2/V3. */
static void matrix_set_diag_common(mt_grad_ctx* g, int v1) {
  TF_Output grad = g->dy[0];
  TF_Output k = v1 ? (TF_Output){NULL, 0} : mt_g_x(g, 2);
  const TF_Output* kp = v1 ? NULL : &k;
  const char* align = v1 ? "RIGHT_LEFT" : align_of(g);
  mt_shape dshape;
  int known;
  if (v1) { /* batch dims of input/grad/diag merged, + min(rows, cols) */
    mt_shape in = *mt_g_static_shape(mt_g_x(g, 0));
    const mt_shape* gs = mt_g_static_shape(grad);
    const mt_shape* ds = mt_g_static_shape(mt_g_x(g, 1));
    if (in.rank < 0) in = *gs;
    else if (gs->rank == in.rank)
      for (int i = 0; i < in.rank; i++)
        if (in.dims[i] < 0) in.dims[i] = gs->dims[i];
    known = in.rank >= 2;
    if (known) {
      dshape.rank = in.rank - 1;
      for (int i = 0; i < in.rank - 2; i++) {
        dshape.dims[i] = in.dims[i];
        if (dshape.dims[i] < 0 && ds->rank == in.rank - 1) dshape.dims[i] = ds->dims[i];
        known &= dshape.dims[i] >= 0;
      }
      const int64_t r = in.dims[in.rank - 2], c = in.dims[in.rank - 1];
      known &= r >= 0 && c >= 0;
      dshape.dims[in.rank - 2] = r < c ? r : c;
    }
  } else {
    dshape = *mt_g_static_shape(mt_g_x(g, 1));
    known = mt_g_fully_defined(&dshape);
  }
  TF_Output zeros;
  TF_Output part = {NULL, 0};
  if (known) {
    zeros = zeros_static(g, &dshape, mt_g_dtype(grad), "zeros");
  } else { /* see the file comment */
    part = diag_part_v3(g, grad, kp, align);
    mt_gnode z = mt_g_begin(g, "ZerosLike", "zeros");
    mt_g_in(&z, part);
    zeros = mt_g_end0(&z);
  }
  g->dx[0] = set_diag_v3(g, grad, zeros, kp, align);
  g->dx[1] = part.oper ? part : diag_part_v3(g, grad, kp, align);
}

static void matrix_set_diag_grad(mt_grad_ctx* g) { matrix_set_diag_common(g, 1); }
static void matrix_set_diag_v2_grad(mt_grad_ctx* g) { matrix_set_diag_common(g, 0); }

static void band_part_grad(mt_grad_ctx* g) {
  mt_gnode n = mt_g_begin(g, "MatrixBandPart", NULL);
  mt_g_in(&n, g->dy[0]);
  mt_g_in(&n, mt_g_x(g, 1));
  mt_g_in(&n, mt_g_x(g, 2));
  g->dx[0] = mt_g_end0(&n);
}

static void cross_grad(mt_grad_ctx* g) {
  g->dx[0] = mt_g_binary(g, "Cross", mt_g_x(g, 1), g->dy[0]);
  g->dx[1] = mt_g_binary(g, "Cross", g->dy[0], mt_g_x(g, 0));
}

static const mt_grad_spec diag_grads[] = {
    {"Diag", diag_grad},
    {"DiagPart", diag_part_grad},
    {"MatrixDiag", matrix_diag_grad},
    {"MatrixDiagV2", matrix_diag_v2_grad},
    {"MatrixDiagV3", matrix_diag_v2_grad},
    {"MatrixDiagPart", matrix_diag_part_grad},
    {"MatrixDiagPartV2", matrix_diag_part_v2_grad},
    {"MatrixDiagPartV3", matrix_diag_part_v2_grad},
    {"MatrixSetDiag", matrix_set_diag_grad},
    {"MatrixSetDiagV2", matrix_set_diag_v2_grad},
    {"MatrixSetDiagV3", matrix_set_diag_v2_grad},
    {"MatrixBandPart", band_part_grad},
    {"Cross", cross_grad},
};

void mt_register_linalg_diag_grads(void) {
  mt_register_gradients(diag_grads, (int)(sizeof diag_grads / sizeof diag_grads[0]));
}
