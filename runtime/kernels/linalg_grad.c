/* Gradients of the linalg family (runtime/gradient.h), node for node as
 * TensorFlow 2.21's math_grad.py (BatchMatMul, BatchMatMulV2, BatchMatMulV3)
 * and linalg_grad.py (Einsum) build them. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/grad_util.h"
#include "runtime/kernels/linalg/linalg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_complex(TF_DataType t) { return t == TF_COMPLEX64 || t == TF_COMPLEX128; }

/* The four products of TensorFlow's _BatchMatMul / _BatchMatMulV2 (grad
 * flags only for V2 and V3). */
static void bmm_products(mt_grad_ctx* g, int flags, TF_Output* gx, TF_Output* gy) {
  const int adj_x = mt_op_attr_bool(g->op, "adj_x", 0);
  const int adj_y = mt_op_attr_bool(g->op, "adj_y", 0);
  TF_Output x = mt_g_x(g, 0), y = mt_g_x(g, 1), grad = g->dy[0];
  if (!adj_x && !adj_y) {
    *gx = mt_gu_matmul(g, grad, y, 0, 1, flags, 0);
    *gy = mt_gu_matmul(g, x, grad, 1, 0, 0, flags);
  } else if (!adj_x) {
    *gx = mt_gu_matmul(g, grad, y, 0, 0, flags, 0);
    *gy = mt_gu_matmul(g, grad, x, 1, 0, 0, flags);
  } else if (!adj_y) {
    *gx = mt_gu_matmul(g, y, grad, 0, 1, flags, 0);
    *gy = mt_gu_matmul(g, x, grad, 0, 0, 0, flags);
  } else {
    *gx = mt_gu_matmul(g, y, grad, 1, 1, flags, 0);
    *gy = mt_gu_matmul(g, grad, x, 1, 1, 0, flags);
  }
}

static void batch_matmul_grad(mt_grad_ctx* g) { bmm_products(g, 0, &g->dx[0], &g->dx[1]); }

/* s[:-2] is fully defined in both and equal. */
static int batch_shapes_match(const mt_shape* a, const mt_shape* b) {
  if (a->rank < 0 || b->rank < 0) return 0;
  const int na = a->rank > 2 ? a->rank - 2 : 0, nb = b->rank > 2 ? b->rank - 2 : 0;
  if (na != nb) return 0;
  for (int i = 0; i < na; i++)
    if (a->dims[i] < 0 || a->dims[i] != b->dims[i]) return 0;
  return 1;
}

/* Sum(grad, axes) reshaped to shape: undoes a broadcast. */
static TF_Output unbroadcast(mt_grad_ctx* g, TF_Output grad, TF_Output axes, TF_Output shape) {
  return mt_g_reshape(g, mt_gu_reduce(g, "Sum", grad, axes), shape);
}

/* TensorFlow's _BatchMatMulV2: the products, then a sum over the batch dims
 * that were broadcast unless the static batch shapes show there were none. */
static void batch_matmul_v2_grad(mt_grad_ctx* g) {
  TF_Output gx, gy;
  bmm_products(g, 1, &gx, &gy);
  const mt_shape* sx = mt_g_static_shape(mt_g_x(g, 0));
  const mt_shape* sy = mt_g_static_shape(mt_g_x(g, 1));
  const int may_batch = sx->rank < 0 || sx->rank > 2 || sy->rank < 0 || sy->rank > 2;
  if (!may_batch || batch_shapes_match(sx, sy)) {
    g->dx[0] = gx;
    g->dx[1] = gy;
    return;
  }
  TF_Output shx = mt_g_shape(g, mt_g_x(g, 0)), shy = mt_g_shape(g, mt_g_x(g, 1));
  TF_Output bx = mt_gu_slice1(g, shx, 0, 0, 1, -2), by = mt_gu_slice1(g, shy, 0, 0, 1, -2);
  mt_gnode b = mt_g_begin(g, "BroadcastGradientArgs", NULL);
  mt_g_in(&b, bx);
  mt_g_in(&b, by);
  TF_Operation* args = mt_g_end(&b);
  if (!args) return;
  g->dx[0] = unbroadcast(g, gx, (TF_Output){args, 0}, shx);
  g->dx[1] = unbroadcast(g, gy, (TF_Output){args, 1}, shy);
}

/* ---- Einsum ----------------------------------------------------------------------------- */

#define SUBS_CAP 128

/* Labels of `subs` (a subscript, "..." allowed) missing from every string
 * of `keep` and not '.', each once, in their order in subs. (TensorFlow
 * takes a Python set's order; the gradient is the same for any order.) */
static void reduced_labels(const char* subs, const char* keep, char* out) {
  int n = 0;
  for (const char* p = subs; *p; p++)
    if (*p != '.' && !strchr(keep, *p) && !memchr(out, *p, (size_t)n)) out[n++] = *p;
  out[n] = '\0';
}

static void without_labels(const char* subs, const char* labels, char* out) {
  int n = 0;
  for (const char* p = subs; *p; p++)
    if (!strchr(labels, *p) || *p == '.') out[n++] = *p;
  out[n] = '\0';
}

/* _GetAxisFromLabel: the axis of the leftmost occurrence, negative after
 * an ellipsis. */
static int axis_of_label(const char* subs, char label) {
  const char* ell = strstr(subs, "...");
  const size_t head = ell ? (size_t)(ell - subs) : strlen(subs);
  for (size_t i = 0; i < head; i++)
    if (subs[i] == label) return (int)i;
  if (!ell) return 0;
  const char* tail = ell + 3;
  const int len = (int)strlen(tail);
  for (int i = 0; i < len; i++)
    if (tail[i] == label) return i - len;
  return 0;
}

/* len(set(s)) counting each char (dots included), as TensorFlow does. */
static int distinct_chars(const char* s) {
  int n = 0;
  for (const char* p = s; *p; p++)
    if (!memchr(s, *p, (size_t)(p - s))) n++;
  return n;
}

static TF_Output einsum(mt_grad_ctx* g, const TF_Output* xs, int n, const char* eq) {
  mt_gnode e = mt_g_begin(g, "Einsum", NULL);
  mt_g_in_list(&e, xs, n);
  mt_g_attr_str(&e, "equation", eq);
  return mt_g_end0(&e);
}

/* _GetGradReduced: the gradient of the unary einsum input_subs ->
 * output_subs, whose input has the labels `reduced` summed out. */
static TF_Output grad_reduced(mt_grad_ctx* g, TF_Output out_grad, const char* output_subs,
                              const char* input_subs, TF_Output input_shape,
                              const char* reduced) {
  const int nred = (int)strlen(reduced);
  TF_Output dims[SUBS_CAP] = {{NULL, 0}};
  int32_t axes[SUBS_CAP];
  for (int i = 0; i < nred; i++) {
    axes[i] = axis_of_label(input_subs, reduced[i]);
    dims[i] = mt_gu_element(g, input_shape, axes[i]);
  }
  TF_Output reduced_dims = mt_gu_pack(g, NULL, dims, nred, 0);
  const int repeated = distinct_chars(input_subs) + distinct_chars(output_subs) <
                       (int)(strlen(input_subs) + strlen(output_subs));
  char rest[SUBS_CAP];
  without_labels(input_subs, reduced, rest);
  if (!repeated && strcmp(rest, output_subs) == 0) { /* a plain sum: broadcast back */
    TF_Output ax = mt_g_const_i32(g, axes, nred, 1, "Const");
    mt_gu_kept_shape kept;
    if (!mt_gu_reduced_shape(g, input_shape, ax, &kept)) return (TF_Output){NULL, 0};
    return mt_g_binary(g, "BroadcastTo", mt_gu_reshape_kept(g, out_grad, &kept), input_shape);
  }
  /* the reduced labels prepended to the output: "bdca->ca" is a broadcast,
   * then "bdca->aabbcd" an einsum */
  TF_Output grad_shape = mt_g_shape(g, out_grad);
  const TF_Output full_parts[2] = {reduced_dims, grad_shape};
  TF_Output full = mt_gu_concat(g, full_parts, 2, 0);
  mt_gnode ones = mt_g_begin(g, "Fill", "ones");
  int32_t count = nred, one = 1;
  mt_g_in_const_i32(&ones, "shape_as_tensor", &count, 1, 1);
  mt_g_in_const_i32(&ones, "Const", &one, 1, 0);
  TF_Output kept_parts[2];
  kept_parts[0] = mt_g_end0(&ones);
  kept_parts[1] = mt_g_shape(g, out_grad);
  TF_Output kept = mt_gu_concat(g, kept_parts, 2, 0);
  TF_Output wide = mt_g_binary(g, "BroadcastTo", mt_g_reshape(g, out_grad, kept), full);
  char eq[3 * SUBS_CAP + 4];
  snprintf(eq, sizeof eq, "%s%s->%s", reduced, output_subs, input_subs);
  return einsum(g, &wide, 1, eq);
}

/* _GetGradWrt: the gradient of one operand of a binary einsum, before any
 * unbroadcasting. */
static TF_Output grad_wrt(mt_grad_ctx* g, TF_Output out_grad, TF_Output other,
                          TF_Output input_shape, const char* input_subs, const char* other_subs,
                          const char* output_subs) {
  char keep[2 * SUBS_CAP + 2], reduced[SUBS_CAP], left[SUBS_CAP], eq[3 * SUBS_CAP + 8];
  snprintf(keep, sizeof keep, "%s%s", output_subs, other_subs);
  reduced_labels(input_subs, keep, reduced);
  without_labels(input_subs, reduced, left);
  snprintf(eq, sizeof eq, "%s,%s->%s", output_subs, other_subs, left);
  const TF_Output ins[2] = {out_grad, other};
  TF_Output partial = einsum(g, ins, 2, eq);
  if (!reduced[0]) return partial;
  return grad_reduced(g, partial, left, input_subs, input_shape, reduced);
}

/* _GetBcastSubshape: [start, end) of the ellipsis dims; has_end 0 for an
 * ellipsis at the end (Python's None). */
static void bcast_subshape(const char* subs, int* start, int* has_end, int* end) {
  const char* ell = strstr(subs, "...");
  *start = ell ? (int)(ell - subs) : 0;
  const int remaining = ell ? (int)strlen(ell + 3) : 0;
  *has_end = !ell || remaining > 0;
  *end = ell ? -remaining : 0;
}

/* Static dims [start, end) of s (end <= 0 counts from the back, has_end 0
 * = to the end) as a shape; 0 when s is not fully defined. */
static int static_slice(const mt_shape* s, int start, int has_end, int end, mt_shape* out) {
  if (!mt_g_fully_defined(s)) return 0;
  int e = has_end ? (end <= 0 ? s->rank + end : end) : s->rank;
  int b = start;
  if (b > s->rank) b = s->rank;
  if (e < b) e = b;
  out->rank = e - b;
  for (int i = b; i < e; i++) out->dims[i - b] = s->dims[i];
  return 1;
}

static int same_shape(const mt_shape* a, const mt_shape* b) {
  if (a->rank != b->rank) return 0;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return 0;
  return 1;
}

/* Sum(grad, start + axes) reshaped to shape. */
static TF_Output unbroadcast_from(mt_grad_ctx* g, TF_Output grad, int32_t start, TF_Output axes,
                                  TF_Output shape) {
  mt_gnode a = mt_g_begin(g, "AddV2", "add");
  mt_g_in_const_i32(&a, "x", &start, 1, 0);
  mt_g_in(&a, axes);
  return unbroadcast(g, grad, mt_g_end0(&a), shape);
}

static int split_equation(mt_grad_ctx* g, const char* eq, char* ins, char* out) {
  const char* arrow = strstr(eq, "->");
  if (!arrow || (size_t)(arrow - eq) >= SUBS_CAP || strlen(arrow + 2) >= SUBS_CAP) {
    mt_status_setf(g->status, TF_INVALID_ARGUMENT,
                   "gradient of %s: unsupported Einsum equation '%s'", g->op->name, eq);
    return 0;
  }
  memcpy(ins, eq, (size_t)(arrow - eq));
  ins[arrow - eq] = '\0';
  strcpy(out, arrow + 2);
  return 1;
}

static void einsum_unary_grad(mt_grad_ctx* g, const char* in_subs, const char* out_subs) {
  TF_Output shape = mt_g_shape(g, mt_g_x(g, 0));
  char keep[SUBS_CAP + 4], reduced[SUBS_CAP], eq[2 * SUBS_CAP + 4];
  snprintf(keep, sizeof keep, "%s...", out_subs);
  reduced_labels(in_subs, keep, reduced);
  if (!reduced[0]) {
    snprintf(eq, sizeof eq, "%s->%s", out_subs, in_subs);
    g->dx[0] = einsum(g, &g->dy[0], 1, eq);
    return;
  }
  g->dx[0] = grad_reduced(g, g->dy[0], out_subs, in_subs, shape, reduced);
}

/* TensorFlow's _EinsumGrad. */
static void einsum_grad(mt_grad_ctx* g) {
  const mt_attr_value* a = mt_op_attr(g->op, "equation");
  char eq[2 * SUBS_CAP + 4], ins[SUBS_CAP], out[SUBS_CAP];
  if (!a || a->kind != MT_ATTR_S || a->v.s.len >= sizeof eq) {
    mt_status_setf(g->status, TF_INVALID_ARGUMENT, "gradient of %s: bad Einsum equation",
                   g->op->name);
    return;
  }
  memcpy(eq, a->v.s.data, a->v.s.len);
  eq[a->v.s.len] = '\0';
  if (!split_equation(g, eq, ins, out)) return;
  if (g->op->ninputs == 1) {
    einsum_unary_grad(g, ins, out);
    return;
  }
  char xs[SUBS_CAP + 4], ys[SUBS_CAP + 4];
  const char* comma = strchr(ins, ',');
  if (g->op->ninputs != 2 || !comma) {
    mt_status_setf(g->status, TF_INVALID_ARGUMENT,
                   "gradient of %s: Einsum with %d inputs has no gradient", g->op->name,
                   g->op->ninputs);
    return;
  }
  snprintf(xs, sizeof xs, "%.*s", (int)(comma - ins), ins);
  snprintf(ys, sizeof ys, "%s", comma + 1);
  const int ell = strstr(out, "...") != NULL;
  if (ell && !strstr(xs, "...")) strcat(xs, "...");
  if (ell && !strstr(ys, "...")) strcat(ys, "...");
  TF_Output x = mt_g_x(g, 0), y = mt_g_x(g, 1);
  if (is_complex(mt_g_dtype(g->dy[0]))) {
    x = mt_g_unary(g, "Conj", x);
    y = mt_g_unary(g, "Conj", y);
  }
  TF_Output shx = mt_g_shape(g, x), shy = mt_g_shape(g, y);
  TF_Output gx = grad_wrt(g, g->dy[0], y, shx, xs, ys, out);
  TF_Output gy = grad_wrt(g, g->dy[0], x, shy, ys, xs, out);
  if (!ell) {
    g->dx[0] = gx;
    g->dx[1] = gy;
    return;
  }
  int bxs, bxh, bxe, bys, byh, bye;
  bcast_subshape(xs, &bxs, &bxh, &bxe);
  bcast_subshape(ys, &bys, &byh, &bye);
  mt_shape bx, by;
  if (static_slice(mt_g_static_shape(x), bxs, bxh, bxe, &bx) &&
      static_slice(mt_g_static_shape(y), bys, byh, bye, &by) && same_shape(&bx, &by)) {
    g->dx[0] = gx;
    g->dx[1] = gy;
    return;
  }
  TF_Output sx = mt_gu_slice1(g, shx, 1, bxs, bxh, bxe);
  TF_Output sy = mt_gu_slice1(g, shy, 1, bys, byh, bye);
  mt_gnode b = mt_g_begin(g, "BroadcastGradientArgs", NULL);
  mt_g_in(&b, sx);
  mt_g_in(&b, sy);
  TF_Operation* args = mt_g_end(&b);
  if (!args) return;
  g->dx[0] = unbroadcast_from(g, gx, bxs, (TF_Output){args, 0}, shx);
  g->dx[1] = unbroadcast_from(g, gy, bys, (TF_Output){args, 1}, shy);
}

static const mt_grad_spec linalg_grads[] = {
    {"BatchMatMul", batch_matmul_grad},
    {"BatchMatMulV2", batch_matmul_v2_grad},
    {"BatchMatMulV3", batch_matmul_v2_grad},
    {"Einsum", einsum_grad},
};

void mt_register_linalg_grads(void) {
  mt_register_gradients(linalg_grads, (int)(sizeof linalg_grads / sizeof linalg_grads[0]));
  mt_register_linalg_diag_grads();
  mt_register_linalg_lapack_grads();
}
