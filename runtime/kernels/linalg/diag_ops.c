/* Diagonals and bands of (batched) matrices, and the cross product:
 * MatrixBandPart, MatrixDiag / V2 / V3, MatrixDiagPart / V2 / V3,
 * MatrixSetDiag / V2 / V3, Diag, DiagPart, Cross. Signatures, shape
 * functions and messages are TensorFlow 2.21's (array_ops.cc, math_ops.cc,
 * matrix_diag_op.cc, matrix_set_diag_op.cc, matrix_band_part_op.cc,
 * diag_op.cc, cross_op.h).
 *
 * The diagonal kernels only move elements, so they work on bytes for every
 * fixed-size dtype (TensorFlow registers them for its POD types). A band of
 * diagonals k = [lo, hi] is stored in TensorFlow's packed layout: diagonal
 * hi first, each padded to the longest length, aligned left or right as
 * `align` says (V1 and V2 align every diagonal left). */
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/half.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/linalg/linalg.h"

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* Strings, resources and variants have no kernel (TensorFlow's POD list). */
static int pod_dtype(mt_kernel_ctx* ctx, TF_DataType dt) {
  if (dt == TF_STRING || dt == TF_RESOURCE || dt == TF_VARIANT || TF_DataTypeSize(dt) == 0) {
    mt_kernel_unsupported(ctx, "T", dt);
    return 0;
  }
  return 1;
}

/* ---- diagonal bands ---- */

/* Which side each diagonal is aligned to (TensorFlow's ReadAlignment). */
typedef struct band {
  int64_t lo, hi;
  int left_super, left_sub;
} band;

static void read_align(const TF_Operation* op, band* b) {
  const char* a = mt_op_attr_str(op, "align", "LEFT_LEFT");
  b->left_super = !strcmp(a, "LEFT_LEFT") || !strcmp(a, "LEFT_RIGHT");
  b->left_sub = !strcmp(a, "LEFT_LEFT") || !strcmp(a, "RIGHT_LEFT");
}

/* Length of diagonal d of a rows x cols matrix, and where its values start
 * in a padded row of max_len. */
static int64_t diag_len(int64_t d, int64_t rows, int64_t cols) {
  return min64(rows + min64(0, d), cols - max64(0, d));
}

static int64_t content_offset(const band* b, int64_t d, int64_t max_len, int64_t rows,
                              int64_t cols) {
  const int left = (d >= 0 && b->left_super) || (d <= 0 && b->left_sub);
  return left ? 0 : max_len - diag_len(d, rows, cols);
}

/* Reads k (a scalar or a vector of one or two int32s) at run time. */
static int read_k(mt_kernel_ctx* ctx, const TF_Tensor* k, band* b) {
  char buf[128];
  if (k->ndims > 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "diag_index must be a scalar or vector, received shape: %s",
                   mt_dims_str(k->dims, k->ndims, buf, sizeof buf));
    return 0;
  }
  const int32_t* kv = mt_tensor_data(k);
  if (k->ndims == 1 && (k->dims[0] < 1 || k->dims[0] > 2)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "diag_index must have only one or two elements, received %lld elements.",
                   (long long)k->dims[0]);
    return 0;
  }
  b->lo = b->hi = kv[0];
  if (k->ndims == 1 && k->dims[0] == 2) b->hi = kv[1];
  return 1;
}

/* Checks lo/hi against a rows x cols matrix (TensorFlow's kernel checks;
 * `dot` is the "." after the lower bound message only MatrixDiagPart has). */
static int check_band(mt_kernel_ctx* ctx, const band* b, int64_t rows, int64_t cols,
                      const char* dot) {
  if (!((-rows < b->lo && b->lo < cols) || b->lo == 0)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "lower_diag_index is out of bound: %lld%s It must be between %lld and %lld",
                   (long long)b->lo, dot, (long long)-rows, (long long)cols);
    return 0;
  }
  if (!((-rows < b->hi && b->hi < cols) || b->hi == 0)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "upper_diag_index is out of bound: %lld It must be between %lld and %lld",
                   (long long)b->hi, (long long)-rows, (long long)cols);
    return 0;
  }
  if (b->lo > b->hi) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "lower_diag_index must not be larger than upper_diag_index: %lld > %lld",
                   (long long)b->lo, (long long)b->hi);
    return 0;
  }
  return 1;
}

/* Static k for a shape function: 1 and *b set when known, 0 when unknown,
 * -1 on error (status set). */
static int static_k(mt_shape_ctx* ctx, int idx, band* b) {
  int64_t v[3];
  const mt_shape* ks = &ctx->in[idx];
  if (ks->rank > 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be at most rank 1 but is rank %d",
                   ks->rank);
    return -1;
  }
  const int n = mt_shape_input_as_ints(ctx, idx, v, 3);
  if (n < 0 || !mt_shape_known(ks)) return 0;
  if (ks->rank == 1 && n != 1 && n != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "diag_index must be a vector with one or two elements. It has %d elements.",
                   n);
    return -1;
  }
  b->lo = b->hi = v[0];
  if (n == 2) b->hi = v[1];
  if (b->lo > b->hi) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "lower_diag_index is greater than upper_diag_index");
    return -1;
  }
  return 1;
}

static int scalar_input(mt_shape_ctx* ctx, int idx) { return mt_shape_with_rank(ctx, idx, 0); }

/* ---- MatrixDiagPart ---- */

static void diag_part_shape_v2(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank_at_least(ctx, 0, 2) || !scalar_input(ctx, 2)) return;
  band b;
  const int known = static_k(ctx, 1, &b);
  if (known < 0) return;
  const mt_shape* in = &ctx->in[0];
  if (in->rank < 0 || !known) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  const int64_t rows = in->dims[in->rank - 2], cols = in->dims[in->rank - 1];
  int64_t len = -1;
  if (rows >= 0 && cols >= 0) {
    if (b.lo != 0 && (-rows >= b.lo || b.lo >= cols)) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "lower_diag_index is out of bound.");
      return;
    }
    if (b.hi != 0 && (-rows >= b.hi || b.hi >= cols)) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "upper_diag_index is out of bound.");
      return;
    }
    len = min64(rows + min64(b.hi, 0), cols - max64(b.lo, 0));
  }
  mt_shape* out = &ctx->out[0];
  *out = *in;
  out->rank = in->rank - 2;
  if (b.lo < b.hi) out->dims[out->rank++] = b.hi - b.lo + 1;
  out->dims[out->rank++] = len;
}

static void diag_part_shape_v1(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank_at_least(ctx, 0, 2)) return;
  const mt_shape* in = &ctx->in[0];
  if (in->rank < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  const int64_t rows = in->dims[in->rank - 2], cols = in->dims[in->rank - 1];
  mt_shape* out = &ctx->out[0];
  *out = *in;
  out->rank = in->rank - 1;
  out->dims[out->rank - 1] = rows < 0 || cols < 0 ? (rows == 0 || cols == 0 ? 0 : -1)
                                                   : min64(rows, cols);
}

/* out[batch][m][n] = input's diagonal hi - m, element n (padded). */
static void diag_part_run(mt_kernel_ctx* ctx, const band* b, const void* pad) {
  const TF_Tensor* in = ctx->inputs[0];
  char buf[256];
  if (in->ndims < 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "input must be at least 2-dim, received shape: %s",
                   mt_dims_str(in->dims, in->ndims, buf, sizeof buf));
    return;
  }
  const int r = in->ndims;
  const int64_t rows = in->dims[r - 2], cols = in->dims[r - 1];
  if (!check_band(ctx, b, rows, cols, ".")) return;
  int64_t od[MT_MAX_DIMS];
  int on = 0;
  for (int i = 0; i < r - 2; i++) od[on++] = in->dims[i];
  const int64_t nd = b->hi - b->lo + 1;
  if (nd > 1) od[on++] = nd;
  const int64_t max_len = min64(rows + min64(b->hi, 0), cols - max64(b->lo, 0));
  od[on++] = max_len;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, od, on);
  if (!out) return;
  const size_t es = TF_DataTypeSize(in->dtype);
  const int64_t nb = mt_num_elements(in->dims, r - 2);
  const char* src = mt_tensor_data(in);
  char* dst = mt_tensor_data(out);
  for (int64_t bi = 0; bi < nb; bi++) {
    for (int64_t m = 0; m < nd; m++) {
      const int64_t d = b->hi - m, len = diag_len(d, rows, cols);
      const int64_t off = content_offset(b, d, max_len, rows, cols);
      const int64_t y0 = max64(0, -d), x0 = max64(0, d);
      for (int64_t n = 0; n < max_len; n++) {
        char* o = dst + (size_t)n * es;
        if (n >= off && n < off + len)
          memcpy(o, src + (size_t)(((bi * rows) + n - off + y0) * cols + n - off + x0) * es, es);
        else
          memcpy(o, pad, es);
      }
      dst += (size_t)max_len * es;
    }
  }
}

static void diag_part_v1_kernel(mt_kernel_ctx* ctx) {
  if (!pod_dtype(ctx, ctx->inputs[0]->dtype)) return;
  band b = {0, 0, 1, 1};
  char zero[16] = {0};
  diag_part_run(ctx, &b, zero);
}

static void diag_part_v2_kernel(mt_kernel_ctx* ctx) {
  if (!pod_dtype(ctx, ctx->inputs[0]->dtype)) return;
  band b = {0, 0, 1, 1};
  read_align(ctx->op, &b);
  if (!read_k(ctx, ctx->inputs[1], &b)) return;
  diag_part_run(ctx, &b, mt_tensor_data(ctx->inputs[2]));
}

/* ---- MatrixDiag ---- */

static void matrix_diag_shape_v1(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank_at_least(ctx, 0, 1)) return;
  const mt_shape* in = &ctx->in[0];
  if (in->rank < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  ctx->out[0] = *in;
  ctx->out[0].dims[ctx->out[0].rank++] = in->dims[in->rank - 1];
}

static void matrix_diag_shape_v2(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank_at_least(ctx, 0, 1)) return;
  if (ctx->in[1].rank > 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be at most rank 1 but is rank %d",
                   ctx->in[1].rank);
    return;
  }
  if (!scalar_input(ctx, 2) || !scalar_input(ctx, 3) || !scalar_input(ctx, 4)) return;
  band b;
  const int known = static_k(ctx, 1, &b);
  if (known < 0) return;
  const mt_shape* in = &ctx->in[0];
  if (in->rank < 0 || !known) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  const int r = in->rank;
  if (b.lo < b.hi) {
    const int64_t nd = r >= 2 ? in->dims[r - 2] : -1;
    if (nd != b.hi - b.lo + 1) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "The number of rows of `diagonal` doesn't match the number of diagonals "
                     "implied from `d_lower` and `d_upper`.\nnum_diags = %lld, d_lower = %lld, "
                     "d_upper = %lld %d %lld",
                     (long long)nd, (long long)b.lo, (long long)b.hi, r,
                     (long long)in->dims[r - 1]);
      return;
    }
  }
  int64_t rows = -1, cols = -1, v;
  if (mt_shape_input_as_ints(ctx, 2, &v, 1) == 1) rows = v;
  if (mt_shape_input_as_ints(ctx, 3, &v, 1) == 1) cols = v;
  const int64_t max_len = in->dims[r - 1];
  mt_shape* out = &ctx->out[0];
  *out = *in;
  if (max_len < 0) { /* TensorFlow's arithmetic on an unknown length gives unknown dims */
    if (b.lo == b.hi) out->dims[r - 1] = -1, out->dims[out->rank++] = -1;
    else out->dims[r - 2] = out->dims[r - 1] = -1;
    return;
  }
  const int64_t min_rows = max_len - min64(b.hi, 0), min_cols = max_len + max64(b.lo, 0);
  if (rows == -1 && cols == -1) rows = cols = max64(min_rows, min_cols);
  if (rows == -1) {
    rows = min_rows;
  } else if (rows < min_rows) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "num_rows is too small");
    return;
  }
  if (cols == -1) {
    cols = min_cols;
  } else if (cols < min_cols) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "num_cols is too small.");
    return;
  }
  if (rows != min_rows && cols != min_cols) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "num_rows and num_cols are not consistent with lower_diag_index, "
                   "upper_diag_index, and the length of the given diagonals.\nnum_rows = %lld != "
                   "min_num_rows = %lld, num_cols = %lld != min_num_cols = %lld",
                   (long long)rows, (long long)min_rows, (long long)cols, (long long)min_cols);
    return;
  }
  if (b.lo == b.hi) {
    out->dims[r - 1] = rows;
    out->dims[out->rank++] = cols;
  } else {
    out->dims[r - 2] = rows;
    out->dims[r - 1] = cols;
  }
}

static void matrix_diag_run(mt_kernel_ctx* ctx, const band* b, int64_t rows, int64_t cols,
                            const void* pad) {
  const TF_Tensor* dg = ctx->inputs[0];
  char buf[256];
  const int r = dg->ndims;
  const int64_t nd = b->hi - b->lo + 1;
  if (r < 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "diagonal must be at least 1-dim, received shape: %s",
                   mt_dims_str(dg->dims, dg->ndims, buf, sizeof buf));
    return;
  }
  if (b->lo > b->hi) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "lower_diag_index must not be larger than upper_diag_index: %lld > %lld",
                   (long long)b->lo, (long long)b->hi);
    return;
  }
  if (!(b->lo == b->hi || (r >= 2 && dg->dims[r - 2] == nd))) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "The number of diagonals provided in the input does not match the "
                   "lower_diag_index and upper_diag_index range.");
    return;
  }
  const int64_t max_len = dg->dims[r - 1];
  const int64_t min_rows = max_len - min64(b->hi, 0), min_cols = max_len + max64(b->lo, 0);
  if (rows != -1 && rows < min_rows) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "The number of rows is too small.");
    return;
  }
  if (cols != -1 && cols < min_cols) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "The number of columns is too small.");
    return;
  }
  if (rows == -1 && cols == -1) rows = cols = max64(min_rows, min_cols);
  else if (rows == -1) rows = min_rows;
  else if (cols == -1) cols = min_cols;
  if (rows != min_rows && cols != min_cols) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "The number of rows or columns is not consistent with the specified d_lower, "
                   "d_upper, and diagonal.");
    return;
  }
  int64_t od[MT_MAX_DIMS + 1];
  int on = r;
  memcpy(od, dg->dims, sizeof(int64_t) * (size_t)r);
  if (nd == 1) {
    od[r - 1] = rows;
    od[on++] = cols;
  } else {
    od[r - 2] = rows;
    od[r - 1] = cols;
  }
  if (on > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "output rank exceeds %d", MT_MAX_DIMS);
    return;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, dg->dtype, od, on);
  if (!out) return;
  const size_t es = TF_DataTypeSize(dg->dtype);
  const int64_t nb = mt_num_elements(od, on - 2);
  const char* src = mt_tensor_data(dg);
  char* dst = mt_tensor_data(out);
  for (int64_t bi = 0; bi < nb; bi++) {
    const char* base = src + (size_t)(bi * nd * max_len) * es;
    for (int64_t i = 0; i < rows; i++)
      for (int64_t j = 0; j < cols; j++, dst += es) {
        const int64_t d = j - i;
        if (d < b->lo || d > b->hi) {
          memcpy(dst, pad, es);
          continue;
        }
        const int64_t idx = j - max64(d, 0) + content_offset(b, d, max_len, rows, cols);
        memcpy(dst, base + (size_t)((b->hi - d) * max_len + idx) * es, es);
      }
  }
}

static void matrix_diag_v1_kernel(mt_kernel_ctx* ctx) {
  if (!pod_dtype(ctx, ctx->inputs[0]->dtype)) return;
  band b = {0, 0, 1, 1};
  char zero[16] = {0};
  matrix_diag_run(ctx, &b, -1, -1, zero);
}

static void matrix_diag_v2_kernel(mt_kernel_ctx* ctx) {
  if (!pod_dtype(ctx, ctx->inputs[0]->dtype)) return;
  band b = {0, 0, 1, 1};
  read_align(ctx->op, &b);
  if (!read_k(ctx, ctx->inputs[1], &b)) return;
  const int64_t rows = ((const int32_t*)mt_tensor_data(ctx->inputs[2]))[0];
  const int64_t cols = ((const int32_t*)mt_tensor_data(ctx->inputs[3]))[0];
  matrix_diag_run(ctx, &b, rows, cols, mt_tensor_data(ctx->inputs[4]));
}

/* ---- MatrixSetDiag ---- */

static void set_diag_shape_common(mt_shape_ctx* ctx, int has_k) {
  if (!mt_shape_with_rank_at_least(ctx, 0, 2) || !mt_shape_with_rank_at_least(ctx, 1, 1)) return;
  band b = {0, 0, 1, 1};
  int known = !has_k;
  if (has_k && (known = static_k(ctx, 2, &b)) < 0) return;
  const mt_shape* in = &ctx->in[0];
  const mt_shape* dg = &ctx->in[1];
  if (in->rank >= 0) {
    const int r = in->rank;
    if (known) {
      const int want = b.lo == b.hi ? r - 1 : r;
      if (dg->rank >= 0 && dg->rank != want) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be rank %d but is rank %d",
                       want, dg->rank);
        return;
      }
    } else if (dg->rank >= 0 && (dg->rank < r - 1 || dg->rank > r)) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     dg->rank < r - 1 ? "Shape must be at least rank %d but is rank %d"
                                      : "Shape must be at most rank %d but is rank %d",
                     dg->rank < r - 1 ? r - 1 : r, dg->rank);
      return;
    }
    const int64_t rows = in->dims[r - 2], cols = in->dims[r - 1];
    if (has_k && rows >= 0 && cols >= 0) {
      if (b.lo != 0 && (-rows >= b.lo || b.lo >= cols)) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "lower_diag_index is out of bound.");
        return;
      }
      if (b.hi != 0 && (-rows >= b.hi || b.hi >= cols)) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "upper_diag_index is out of bound.");
        return;
      }
    }
    if (!has_k && dg->rank >= 0) { /* V1: the diagonal's length is min(rows, cols) */
      int64_t smallest = rows >= 0 && cols >= 0 ? min64(rows, cols) : -1, merged;
      if (!mt_merge_dim(ctx, smallest, dg->dims[dg->rank - 1], &merged)) return;
    }
  }
  mt_shape out = *in;
  if (dg->rank >= 0 && !mt_shape_known(in)) {
    mt_shape pre = *dg;
    pre.rank = dg->rank - (b.lo == b.hi ? 1 : 2);
    if (pre.rank < 0) pre.rank = 0;
    pre.dims[pre.rank++] = -1;
    pre.dims[pre.rank++] = -1;
    if (!mt_merge_shape(ctx, in, &pre, &out)) return;
  }
  ctx->out[0] = out;
}

static void set_diag_shape_v1(mt_shape_ctx* ctx) { set_diag_shape_common(ctx, 0); }
static void set_diag_shape_v2(mt_shape_ctx* ctx) { set_diag_shape_common(ctx, 1); }

static void set_diag_run(mt_kernel_ctx* ctx, const band* b) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_Tensor* dg = ctx->inputs[1];
  char s1[256], s2[256], s3[256];
  if (in->ndims < 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "input must be at least 2-dim, received shape: %s",
                   mt_dims_str(in->dims, in->ndims, s1, sizeof s1));
    return;
  }
  if (dg->ndims < 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "diagonal must be at least 1-dim, received shape: %s",
                   mt_dims_str(dg->dims, dg->ndims, s1, sizeof s1));
    return;
  }
  const int r = in->ndims;
  const int64_t rows = in->dims[r - 2], cols = in->dims[r - 1];
  if (!check_band(ctx, b, rows, cols, "")) return;
  const int64_t nd = b->hi - b->lo + 1;
  if (!(b->lo == b->hi || (dg->ndims > r - 2 && dg->dims[r - 2] == nd))) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "The number of diagonals provided in `diag` is not consistent with "
                   "`lower_diag_index` and `upper_diag_index`");
    return;
  }
  int64_t want[MT_MAX_DIMS];
  int wn = 0;
  for (int i = 0; i < r - 2; i++) want[wn++] = in->dims[i];
  if (nd > 1) want[wn++] = nd;
  const int64_t max_len = min64(rows + min64(b->hi, 0), cols - max64(b->lo, 0));
  want[wn++] = max_len;
  int same = wn == dg->ndims;
  for (int i = 0; same && i < wn; i++) same = want[i] == dg->dims[i];
  if (!same) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Either first dimensions of diagonal don't match input.shape[:-2], or "
                   "diagonal.shape[:-1] is not equal to the longests diagonal in range "
                   "[lower_diag_index:upper_diag_index].\nInput shape: %s\nDiagonal shape: "
                   "%s\nExpected diagonal shape: %s",
                   mt_dims_str(in->dims, r, s1, sizeof s1),
                   mt_dims_str(dg->dims, dg->ndims, s2, sizeof s2),
                   mt_dims_str(want, wn, s3, sizeof s3));
    return;
  }
  const int64_t n = mt_tensor_nelems(in);
  if (n == 0) {
    mt_ctx_set_shared(ctx, 0, in);
    return;
  }
  TF_Tensor* out = mt_ctx_forward(ctx, 0, 0, in->dtype, in->dims, r);
  if (!out) return;
  const size_t es = TF_DataTypeSize(in->dtype);
  char* dst = mt_tensor_data(out);
  if (dst != mt_tensor_data(in)) memcpy(dst, mt_tensor_data(in), (size_t)n * es);
  const char* src = mt_tensor_data(dg);
  const int64_t nb = mt_num_elements(in->dims, r - 2);
  for (int64_t bi = 0; bi < nb; bi++) {
    char* mat = dst + (size_t)(bi * rows * cols) * es;
    for (int64_t m = 0; m < nd; m++, src += (size_t)max_len * es) {
      const int64_t d = b->hi - m, len = diag_len(d, rows, cols);
      const int64_t off = content_offset(b, d, max_len, rows, cols);
      const int64_t y0 = max64(0, -d), x0 = max64(0, d);
      for (int64_t k = 0; k < len; k++)
        memcpy(mat + (size_t)((k + y0) * cols + k + x0) * es, src + (size_t)(k + off) * es, es);
    }
  }
}

static void set_diag_v1_kernel(mt_kernel_ctx* ctx) {
  if (!pod_dtype(ctx, ctx->inputs[0]->dtype)) return;
  band b = {0, 0, 1, 1};
  set_diag_run(ctx, &b);
}

static void set_diag_v2_kernel(mt_kernel_ctx* ctx) {
  if (!pod_dtype(ctx, ctx->inputs[0]->dtype)) return;
  band b = {0, 0, 1, 1};
  read_align(ctx->op, &b);
  if (!read_k(ctx, ctx->inputs[2], &b)) return;
  set_diag_run(ctx, &b);
}

/* ---- MatrixBandPart ---- */

static void band_part_shape(mt_shape_ctx* ctx) { ctx->out[0] = ctx->in[0]; }

static int band_bound(mt_kernel_ctx* ctx, int idx, const char* what, const char* dim_name,
                      int64_t limit, int64_t* out) {
  const TF_Tensor* t = ctx->inputs[idx];
  char buf[128];
  if (t->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s must be scalar, got shape %s", what,
                   mt_dims_str(t->dims, t->ndims, buf, sizeof buf));
    return 0;
  }
  int64_t v;
  mt_tensor_ints(t, &v, 1);
  if (v > limit) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "%s must be negative or less or equal to number of %s (%lld) got: %lld", what,
                   dim_name, (long long)limit, (long long)v);
    return 0;
  }
  *out = v;
  return 1;
}

static void band_part_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  if (!pod_dtype(ctx, in->dtype)) return;
  char buf[256];
  if (in->ndims < 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "input must be at least 2-dim, received shape: %s",
                   mt_dims_str(in->dims, in->ndims, buf, sizeof buf));
    return;
  }
  const int r = in->ndims;
  const int64_t rows = in->dims[r - 2], cols = in->dims[r - 1];
  int64_t lower, upper;
  if (!band_bound(ctx, 1, "num_lower", "rows", rows, &lower) ||
      !band_bound(ctx, 2, "num_upper", "columns", cols, &upper))
    return;
  TF_Tensor* out = mt_ctx_forward(ctx, 0, 0, in->dtype, in->dims, r);
  if (!out) return;
  const int64_t n = mt_tensor_nelems(in);
  if (n == 0) return;
  const size_t es = TF_DataTypeSize(in->dtype);
  const char* src = mt_tensor_data(in);
  char* dst = mt_tensor_data(out);
  const int64_t nb = mt_num_elements(in->dims, r - 2);
  for (int64_t bi = 0; bi < nb; bi++)
    for (int64_t i = 0; i < rows; i++)
      for (int64_t j = 0; j < cols; j++) {
        const size_t o = (size_t)((bi * rows + i) * cols + j) * es;
        const int keep = (lower < 0 || i - j <= lower) && (upper < 0 || j - i <= upper);
        if (!keep) memset(dst + o, 0, es);
        else if (dst != src) memcpy(dst + o, src + o, es);
      }
}

/* ---- Diag / DiagPart ---- */

static void diag_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank_at_least(ctx, 0, 1)) return;
  const mt_shape* in = &ctx->in[0];
  if (in->rank < 0 || 2 * in->rank > MT_MAX_DIMS) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  mt_shape* out = &ctx->out[0];
  out->rank = 2 * in->rank;
  for (int i = 0; i < in->rank; i++) out->dims[i] = out->dims[i + in->rank] = in->dims[i];
}

static void diag_part_op_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[0];
  if (in->rank < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  char buf[256];
  if (in->rank % 2 != 0 || in->rank == 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input must have even and non-zero rank, input rank is %d",
                   in->rank);
    return;
  }
  const int h = in->rank / 2;
  mt_shape* out = &ctx->out[0];
  out->rank = h;
  for (int i = 0; i < h; i++) {
    if (!mt_merge_dim(ctx, in->dims[i], in->dims[i + h], &out->dims[i])) return;
  }
  (void)buf;
}

static int diag_dtype_ok(mt_kernel_ctx* ctx, TF_DataType dt) {
  switch (dt) {
    case TF_BFLOAT16: case TF_HALF: case TF_FLOAT: case TF_DOUBLE: case TF_INT32: case TF_INT64:
    case TF_COMPLEX64: case TF_COMPLEX128: return 1;
    default: mt_kernel_unsupported(ctx, "T", dt); return 0;
  }
}

static void diag_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  if (!diag_dtype_ok(ctx, in->dtype)) return;
  char buf[256];
  if (in->ndims < 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input must be at least rank 1, got %d", in->ndims);
    return;
  }
  if (2 * in->ndims > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input rank %d too large: %s", in->ndims,
                   mt_dims_str(in->dims, in->ndims, buf, sizeof buf));
    return;
  }
  int64_t od[MT_MAX_DIMS];
  for (int i = 0; i < in->ndims; i++) od[i] = od[i + in->ndims] = in->dims[i];
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, od, 2 * in->ndims);
  if (!out) return;
  const int64_t n = mt_tensor_nelems(in);
  const size_t es = TF_DataTypeSize(in->dtype);
  char* dst = mt_tensor_data(out);
  if (n == 0) return;
  memset(dst, 0, (size_t)(n * n) * es);
  for (int64_t i = 0; i < n; i++)
    memcpy(dst + (size_t)(i * n + i) * es, (const char*)mt_tensor_data(in) + (size_t)i * es, es);
}

static void diag_part_op_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  if (!diag_dtype_ok(ctx, in->dtype)) return;
  char buf[256];
  const int r = in->ndims;
  if (r % 2 != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "The rank of the tensor should be even and positive, got shape %s",
                   mt_dims_str(in->dims, r, buf, sizeof buf));
    return;
  }
  const int h = r / 2;
  for (int i = 0; i < h; i++)
    if (in->dims[i] != in->dims[i + h]) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Invalid shape %s: dimensions %d and %d do not match.",
                     mt_dims_str(in->dims, r, buf, sizeof buf), i, i + h);
      return;
    }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, in->dims, h);
  if (!out) return;
  const int64_t n = mt_num_elements(in->dims, h);
  const size_t es = TF_DataTypeSize(in->dtype);
  for (int64_t i = 0; i < n; i++)
    memcpy((char*)mt_tensor_data(out) + (size_t)i * es,
           (const char*)mt_tensor_data(in) + (size_t)(i * n + i) * es, es);
}

/* ---- Cross ---- */

static void cross_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank_at_least(ctx, 0, 1)) return;
  mt_shape s;
  if (!mt_merge_shape(ctx, &ctx->in[0], &ctx->in[1], &s)) return;
  if (s.rank >= 0) {
    const int64_t last = s.dims[s.rank - 1];
    if (last >= 0 && last != 3) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension must be 3 but is %lld",
                     (long long)last);
      return;
    }
    s.dims[s.rank - 1] = 3;
  }
  ctx->out[0] = s;
}

/* out = a x b per row of three; integer arithmetic wraps as in C++,
 * 16-bit floats round after each operation as Eigen's half type does. */
#define CROSS_INT_(CT, UT)                                                         \
  static void cross_##CT(const void* av, const void* bv, void* ov, int64_t rows) { \
    const CT* a = av;                                                              \
    const CT* b = bv;                                                              \
    CT* o = ov;                                                                    \
    for (int64_t r = 0; r < rows; r++, a += 3, b += 3, o += 3) {                   \
      const UT a0 = (UT)a[0], a1 = (UT)a[1], a2 = (UT)a[2];                        \
      const UT b0 = (UT)b[0], b1 = (UT)b[1], b2 = (UT)b[2];                        \
      o[0] = (CT)(UT)(a1 * b2 - a2 * b1);                                          \
      o[1] = (CT)(UT)(a2 * b0 - a0 * b2);                                          \
      o[2] = (CT)(UT)(a0 * b1 - a1 * b0);                                          \
    }                                                                              \
  }
CROSS_INT_(int8_t, uint32_t)
CROSS_INT_(uint8_t, uint32_t)
CROSS_INT_(int16_t, uint32_t)
CROSS_INT_(uint16_t, uint32_t)
CROSS_INT_(int32_t, uint32_t)
CROSS_INT_(uint32_t, uint32_t)
CROSS_INT_(int64_t, uint64_t)
CROSS_INT_(uint64_t, uint64_t)

#define CROSS_FLOAT_(CT)                                                           \
  static void cross_##CT(const void* av, const void* bv, void* ov, int64_t rows) { \
    const CT* a = av;                                                              \
    const CT* b = bv;                                                              \
    CT* o = ov;                                                                    \
    for (int64_t r = 0; r < rows; r++, a += 3, b += 3, o += 3) {                   \
      const CT x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2];       \
      const CT z = a[0] * b[1] - a[1] * b[0];                                      \
      o[0] = x, o[1] = y, o[2] = z;                                                \
    }                                                                              \
  }
CROSS_FLOAT_(float)
CROSS_FLOAT_(double)

#define CROSS_HALF_(CT, TOF, FROMF)                                                \
  static float CT##_mul(CT a, CT b) { return TOF(FROMF(TOF(a) * TOF(b))); }        \
  static CT CT##_dif(float a, float b) { return FROMF(a - b); }                    \
  static void cross_##CT(const void* av, const void* bv, void* ov, int64_t rows) { \
    const CT* a = av;                                                              \
    const CT* b = bv;                                                              \
    CT* o = ov;                                                                    \
    for (int64_t r = 0; r < rows; r++, a += 3, b += 3, o += 3) {                   \
      o[0] = CT##_dif(CT##_mul(a[1], b[2]), CT##_mul(a[2], b[1]));                 \
      o[1] = CT##_dif(CT##_mul(a[2], b[0]), CT##_mul(a[0], b[2]));                 \
      o[2] = CT##_dif(CT##_mul(a[0], b[1]), CT##_mul(a[1], b[0]));                 \
    }                                                                              \
  }
CROSS_HALF_(mt_half, mt_half_to_float, mt_float_to_half)
CROSS_HALF_(mt_bfloat16, mt_bfloat16_to_float, mt_float_to_bfloat16)

typedef void (*cross_fn)(const void*, const void*, void*, int64_t);

static cross_fn cross_for(TF_DataType dt) {
  switch (dt) {
    case TF_FLOAT: return cross_float;
    case TF_DOUBLE: return cross_double;
    case TF_HALF: return cross_mt_half;
    case TF_BFLOAT16: return cross_mt_bfloat16;
    case TF_INT8: return cross_int8_t;
    case TF_UINT8: return cross_uint8_t;
    case TF_INT16: return cross_int16_t;
    case TF_UINT16: return cross_uint16_t;
    case TF_INT32: return cross_int32_t;
    case TF_UINT32: return cross_uint32_t;
    case TF_INT64: return cross_int64_t;
    case TF_UINT64: return cross_uint64_t;
    default: return NULL;
  }
}

static void cross_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* a = ctx->inputs[0];
  const TF_Tensor* b = ctx->inputs[1];
  const cross_fn fn = cross_for(a->dtype);
  if (!fn) {
    mt_kernel_unsupported(ctx, "T", a->dtype);
    return;
  }
  char s1[256], s2[256];
  int same = a->ndims == b->ndims;
  for (int i = 0; same && i < a->ndims; i++) same = a->dims[i] == b->dims[i];
  if (!same) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Both inputs must be of same shape: %s vs. %s",
                   mt_dims_str(a->dims, a->ndims, s1, sizeof s1),
                   mt_dims_str(b->dims, b->ndims, s2, sizeof s2));
    return;
  }
  if (a->ndims < 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input must be at least 1D%s",
                   mt_dims_str(a->dims, a->ndims, s1, sizeof s1));
    return;
  }
  const int64_t last = a->dims[a->ndims - 1];
  if (last != 3) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Trailing dimension must be of size 3, got: %lld", (long long)last);
    return;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, a->dtype, a->dims, a->ndims);
  if (!out) return;
  fn(mt_tensor_data(a), mt_tensor_data(b), mt_tensor_data(out), mt_tensor_nelems(a) / 3);
}

/* ---- registrations ---- */

#define DIAG_TYPES "{bfloat16, half, float, double, int32, int64, complex64, complex128}"
#define ALIGN_ATTR \
  "align: {'LEFT_RIGHT', 'RIGHT_LEFT', 'LEFT_LEFT', 'RIGHT_RIGHT'} = 'RIGHT_LEFT'"

static const mt_op_spec diag_specs[] = {
    {.name = "MatrixBandPart", .inputs = "input: T, num_lower: Tindex, num_upper: Tindex",
     .outputs = "band: T", .attrs = "T: type; Tindex: {int32, int64} = DT_INT64",
     .shape = band_part_shape, .kernel = band_part_kernel},
    {.name = "MatrixDiag", .inputs = "diagonal: T", .outputs = "output: T", .attrs = "T: type",
     .shape = matrix_diag_shape_v1, .kernel = matrix_diag_v1_kernel},
    {.name = "MatrixDiagV2",
     .inputs = "diagonal: T, k: int32, num_rows: int32, num_cols: int32, padding_value: T",
     .outputs = "output: T", .attrs = "T: type", .shape = matrix_diag_shape_v2,
     .kernel = matrix_diag_v2_kernel},
    {.name = "MatrixDiagV3",
     .inputs = "diagonal: T, k: int32, num_rows: int32, num_cols: int32, padding_value: T",
     .outputs = "output: T", .attrs = "T: type; " ALIGN_ATTR, .shape = matrix_diag_shape_v2,
     .kernel = matrix_diag_v2_kernel},
    {.name = "MatrixDiagPart", .inputs = "input: T", .outputs = "diagonal: T",
     .attrs = "T: type", .shape = diag_part_shape_v1, .kernel = diag_part_v1_kernel},
    {.name = "MatrixDiagPartV2", .inputs = "input: T, k: int32, padding_value: T",
     .outputs = "diagonal: T", .attrs = "T: type", .shape = diag_part_shape_v2,
     .kernel = diag_part_v2_kernel},
    {.name = "MatrixDiagPartV3", .inputs = "input: T, k: int32, padding_value: T",
     .outputs = "diagonal: T", .attrs = "T: type; " ALIGN_ATTR, .shape = diag_part_shape_v2,
     .kernel = diag_part_v2_kernel},
    {.name = "MatrixSetDiag", .inputs = "input: T, diagonal: T", .outputs = "output: T",
     .attrs = "T: type", .shape = set_diag_shape_v1, .kernel = set_diag_v1_kernel},
    {.name = "MatrixSetDiagV2", .inputs = "input: T, diagonal: T, k: int32",
     .outputs = "output: T", .attrs = "T: type", .shape = set_diag_shape_v2,
     .kernel = set_diag_v2_kernel},
    {.name = "MatrixSetDiagV3", .inputs = "input: T, diagonal: T, k: int32",
     .outputs = "output: T", .attrs = "T: type; " ALIGN_ATTR, .shape = set_diag_shape_v2,
     .kernel = set_diag_v2_kernel},
    {.name = "Diag", .inputs = "diagonal: T", .outputs = "output: T", .attrs = "T: " DIAG_TYPES,
     .shape = diag_shape, .kernel = diag_kernel},
    {.name = "DiagPart", .inputs = "input: T", .outputs = "diagonal: T",
     .attrs = "T: " DIAG_TYPES, .shape = diag_part_op_shape, .kernel = diag_part_op_kernel},
    {.name = "Cross", .inputs = "a: T, b: T", .outputs = "product: T",
     .attrs = "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half,"
              " uint32, uint64}",
     .shape = cross_shape, .kernel = cross_kernel},
};

void mt_register_linalg_diag_ops(void) {
  mt_register_ops(diag_specs, (int)(sizeof diag_specs / sizeof diag_specs[0]));
}
