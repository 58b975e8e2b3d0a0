/* Node patterns shared by the gradient families (grad_util.h), named as
 * TensorFlow 2.21's Python helpers name them. */
#include "runtime/kernels/grad_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/tensor.h"

/* "<parent name relative to the scope>/<sub>" in buf. */
static const char* sub_name(const mt_grad_ctx* g, const mt_gnode* parent, const char* sub,
                            char* buf, size_t cap) {
  const char* full = parent->d ? parent->d->name : "";
  size_t sl = strlen(g->scope);
  const char* rel = strncmp(full, g->scope, sl) == 0 ? full + sl : full;
  snprintf(buf, cap, "%s/%s", rel, sub);
  return buf;
}

mt_gnode mt_gu_begin_sub(mt_grad_ctx* g, const mt_gnode* parent, const char* op_type,
                         const char* sub) {
  char buf[512];
  if (!parent->d) return (mt_gnode){g, NULL};
  return mt_g_begin(g, op_type, sub_name(g, parent, sub, buf, sizeof buf));
}

TF_Output mt_gu_const_i32_sub(mt_grad_ctx* g, const mt_gnode* parent, const char* sub,
                              const int32_t* values, int count) {
  char buf[512];
  if (!parent->d) return (TF_Output){NULL, 0};
  return mt_g_const_i32(g, values, count, 1, sub_name(g, parent, sub, buf, sizeof buf));
}

void mt_gu_in_const_int(mt_gnode* n, const char* arg, TF_DataType dtype, const int64_t* values,
                        int count, int vector) {
  if (!n->d) return;
  char buf[512];
  double small[MT_MAX_DIMS + 1];
  double* vals = count <= MT_MAX_DIMS + 1 ? small : malloc(sizeof(double) * (size_t)count);
  if (!vals) {
    mt_status_setf(n->g->status, TF_RESOURCE_EXHAUSTED, "out of memory building gradients");
    mt_desc_free(n->d);
    n->d = NULL;
    return;
  }
  for (int i = 0; i < count; i++) vals[i] = (double)values[i];
  int64_t dim = count;
  TF_Output c = mt_g_const(n->g, dtype, &dim, vector ? 1 : 0, vals,
                           sub_name(n->g, n, arg, buf, sizeof buf));
  if (vals != small) free(vals);
  if (!c.oper) {
    mt_desc_free(n->d);
    n->d = NULL;
    return;
  }
  mt_g_in(n, c);
}

TF_Output mt_gu_strided_slice(mt_grad_ctx* g, TF_Output x, const int32_t* begin,
                              const int32_t* end, const int32_t* stride, int n, int begin_mask,
                              int end_mask, int shrink_mask) {
  mt_gnode s = mt_g_begin(g, "StridedSlice", "strided_slice");
  mt_g_in(&s, x);
  mt_g_in_const_i32(&s, "stack", begin, n, 1);
  mt_g_in_const_i32(&s, "stack_1", end, n, 1);
  mt_g_in_const_i32(&s, "stack_2", stride, n, 1);
  mt_g_attr_int(&s, "begin_mask", begin_mask);
  mt_g_attr_int(&s, "end_mask", end_mask);
  mt_g_attr_int(&s, "ellipsis_mask", 0);
  mt_g_attr_int(&s, "new_axis_mask", 0);
  mt_g_attr_int(&s, "shrink_axis_mask", shrink_mask);
  return mt_g_end0(&s);
}

TF_Output mt_gu_element(mt_grad_ctx* g, TF_Output v, int32_t i) {
  /* Python's v[i] slices [i:i+1:1] and shrinks (v[-1] is [-1:0:1]) */
  int32_t b = i, e = i + 1, st = 1;
  return mt_gu_strided_slice(g, v, &b, &e, &st, 1, 0, 0, 1);
}

TF_Output mt_gu_slice1(mt_grad_ctx* g, TF_Output v, int has_start, int32_t start, int has_end,
                       int32_t end) {
  int32_t b = has_start ? start : 0, e = has_end ? end : 0, st = 1;
  return mt_gu_strided_slice(g, v, &b, &e, &st, 1, has_start ? 0 : 1, has_end ? 0 : 1, 0);
}

TF_Output mt_gu_pack(mt_grad_ctx* g, const char* name, const TF_Output* xs, int n, int axis) {
  mt_gnode p = mt_g_begin(g, "Pack", name ? name : "stack");
  mt_g_in_list(&p, xs, n);
  mt_g_attr_int(&p, "axis", axis);
  return mt_g_end0(&p);
}

TF_Output mt_gu_concat(mt_grad_ctx* g, const TF_Output* xs, int n, int32_t axis) {
  mt_gnode c = mt_g_begin(g, "ConcatV2", "concat");
  mt_g_in_list(&c, xs, n);
  mt_g_in_const_i32(&c, "axis", &axis, 1, 0);
  return mt_g_end0(&c);
}

TF_Output mt_gu_range(mt_grad_ctx* g, TF_Output limit) {
  mt_gnode r = mt_g_begin(g, "Range", "range");
  int32_t zero = 0, one = 1;
  /* the wrapper converts start before limit and delta after it */
  mt_g_in_const_i32(&r, "start", &zero, 1, 0);
  mt_g_in(&r, limit);
  mt_g_in_const_i32(&r, "delta", &one, 1, 0);
  return mt_g_end0(&r);
}

TF_Output mt_gu_ones_i32(mt_grad_ctx* g, TF_Output shape) {
  mt_gnode f = mt_g_begin(g, "Fill", "ones");
  mt_g_in(&f, shape);
  int32_t one = 1;
  mt_g_in_const_i32(&f, "Const", &one, 1, 0);
  return mt_g_end0(&f);
}

TF_Output mt_gu_rank(mt_grad_ctx* g, TF_Output x) {
  const mt_shape* s = mt_g_static_shape(x);
  if (s->rank >= 0) {
    int32_t r = s->rank;
    return mt_g_const_i32(g, &r, 1, 0, "Rank");
  }
  return mt_g_unary(g, "Rank", x);
}

TF_Output mt_gu_size(mt_grad_ctx* g, TF_Output v, TF_DataType out_type) {
  const mt_shape* s = mt_g_static_shape(v);
  if (mt_g_fully_defined(s)) {
    double n = 1;
    for (int i = 0; i < s->rank; i++) n *= (double)s->dims[i];
    return mt_g_const(g, out_type, NULL, 0, &n, "Size");
  }
  mt_gnode n = mt_g_begin(g, "Size", NULL);
  mt_g_in(&n, v);
  mt_g_attr_type(&n, "out_type", out_type);
  return mt_g_end0(&n);
}

TF_Output mt_gu_binary_named(mt_grad_ctx* g, const char* op_type, const char* name, TF_Output a,
                             TF_Output b) {
  mt_gnode n = mt_g_begin(g, op_type, name);
  mt_g_in(&n, a);
  mt_g_in(&n, b);
  return mt_g_end0(&n);
}

TF_Output mt_gu_reshape_const(mt_grad_ctx* g, TF_Output x, const int32_t* dims, int n) {
  mt_gnode r = mt_g_begin(g, "Reshape", NULL);
  mt_g_in(&r, x);
  mt_g_in_const_i32(&r, "shape", dims, n, 1);
  return mt_g_end0(&r);
}

TF_Output mt_gu_gather(mt_grad_ctx* g, TF_Output params, TF_Output indices, int32_t axis) {
  mt_gnode n = mt_g_begin(g, "GatherV2", NULL);
  mt_g_in(&n, params);
  mt_g_in(&n, indices);
  mt_g_in_const_i32(&n, "axis", &axis, 1, 0);
  mt_g_attr_int(&n, "batch_dims", 0);
  return mt_g_end0(&n);
}

TF_Output mt_gu_transpose(mt_grad_ctx* g, TF_Output x, TF_Output perm) {
  return mt_gu_binary_named(g, "Transpose", "transpose", x, perm);
}

TF_Output mt_gu_transpose_const(mt_grad_ctx* g, TF_Output x, const int32_t* perm, int n) {
  mt_gnode t = mt_g_begin(g, "Transpose", "transpose");
  mt_g_in(&t, x);
  mt_g_in_const_i32(&t, "perm", perm, n, 1);
  return mt_g_end0(&t);
}

TF_Output mt_gu_expand_dims(mt_grad_ctx* g, TF_Output x, int32_t dim) {
  mt_gnode e = mt_g_begin(g, "ExpandDims", NULL);
  mt_g_in(&e, x);
  mt_g_in_const_i32(&e, "dim", &dim, 1, 0);
  return mt_g_end0(&e);
}

TF_Output mt_gu_cast(mt_grad_ctx* g, TF_Output x, TF_DataType dst) {
  if (!x.oper || mt_g_dtype(x) == dst) return x;
  mt_gnode c = mt_g_begin(g, "Cast", NULL);
  mt_g_in(&c, x);
  mt_g_attr_type(&c, "DstT", dst);
  return mt_g_end0(&c);
}

TF_Output mt_gu_reduce(mt_grad_ctx* g, const char* op_type, TF_Output x, TF_Output axes) {
  mt_gnode n = mt_g_begin(g, op_type, NULL);
  mt_g_in(&n, x);
  mt_g_in(&n, axes);
  mt_g_attr_bool(&n, "keep_dims", 0);
  return mt_g_end0(&n);
}

TF_Output mt_gu_reduce_sum_all(mt_grad_ctx* g, TF_Output x) {
  const mt_shape* s = mt_g_static_shape(x);
  TF_Output axes;
  if (s->rank > 0) { /* rank 0 takes the Range branch ("if x_rank:") */
    int32_t ax[MT_MAX_DIMS];
    for (int i = 0; i < s->rank; i++) ax[i] = i;
    axes = mt_g_const_i32(g, ax, s->rank, 1, "Const");
  } else {
    /* math_ops._ReductionDims: range(0, rank(x)) */
    axes = mt_gu_range(g, mt_gu_rank(g, x));
  }
  return mt_gu_reduce(g, "Sum", x, axes);
}

TF_Output mt_gu_matmul(mt_grad_ctx* g, TF_Output a, TF_Output b, int adj_a, int adj_b,
                       int grad_a, int grad_b) {
  const int ra = mt_g_static_shape(a)->rank, rb = mt_g_static_shape(b)->rank;
  if (ra < 0 || ra > 2 || rb < 0 || rb > 2) {
    mt_gnode n = mt_g_begin(g, "BatchMatMulV2", "MatMul");
    mt_g_in(&n, a);
    mt_g_in(&n, b);
    mt_g_attr_bool(&n, "adj_x", adj_a);
    mt_g_attr_bool(&n, "adj_y", adj_b);
    mt_g_attr_bool(&n, "grad_x", grad_a);
    mt_g_attr_bool(&n, "grad_y", grad_b);
    return mt_g_end0(&n);
  }
  mt_gnode n = mt_g_begin(g, "MatMul", "MatMul");
  const TF_DataType dt = mt_g_dtype(a);
  if (dt == TF_COMPLEX64 || dt == TF_COMPLEX128) { /* adjoint = conj + transpose */
    for (int k = 0; k < 2; k++) {
      if (!(k ? adj_b : adj_a)) continue;
      mt_gnode c = mt_gu_begin_sub(g, &n, "Conj", "Conj");
      mt_g_in(&c, k ? b : a);
      *(k ? &b : &a) = mt_g_end0(&c);
    }
  }
  mt_g_in(&n, a);
  mt_g_in(&n, b);
  mt_g_attr_bool(&n, "transpose_a", adj_a);
  mt_g_attr_bool(&n, "transpose_b", adj_b);
  mt_g_attr_bool(&n, "grad_a", grad_a);
  mt_g_attr_bool(&n, "grad_b", grad_b);
  return mt_g_end0(&n);
}

int mt_gu_const_ints(TF_Output o, int64_t* out, int cap) {
  const TF_Tensor* t = o.oper ? mt_g_const_value(o) : NULL;
  if (!t || (t->dtype != TF_INT32 && t->dtype != TF_INT64)) return -1;
  int64_t n = mt_tensor_nelems(t);
  if (n > cap) return -1;
  for (int64_t i = 0; i < n; i++)
    out[i] = t->dtype == TF_INT64 ? ((const int64_t*)mt_tensor_data(t))[i]
                                  : ((const int32_t*)mt_tensor_data(t))[i];
  return (int)n;
}

/* The numpy branch: input_shape[axes] = 1 on the constant shape. */
static int fold_reduced_shape(mt_grad_ctx* g, const int64_t* shape, int rank,
                              const int64_t* axes, int nax, mt_gu_kept_shape* out) {
  out->is_static = 1;
  out->rank = rank;
  for (int i = 0; i < rank; i++) out->dims[i] = (int32_t)shape[i];
  for (int i = 0; i < nax; i++) {
    int64_t a = axes[i] < 0 ? axes[i] + rank : axes[i];
    if (a < 0 || a >= rank) {
      mt_status_setf(g->status, TF_INVALID_ARGUMENT,
                     "gradient of %s: reduction axis %lld is out of bounds for a tensor of "
                     "rank %d",
                     g->op->name, (long long)axes[i], rank);
      return 0;
    }
    out->dims[a] = 1;
  }
  return 1;
}

int mt_gu_reduced_shape(mt_grad_ctx* g, TF_Output input_shape, TF_Output axes,
                        mt_gu_kept_shape* out) {
  memset(out, 0, sizeof *out);
  if (!mt_g_ok(g)) return 0;
  int64_t shape[MT_MAX_DIMS], ax[64];
  const int rank = mt_gu_const_ints(input_shape, shape, MT_MAX_DIMS);
  const int nax = rank >= 0 ? mt_gu_const_ints(axes, ax, 64) : -1;
  if (rank >= 0 && nax >= 0) return fold_reduced_shape(g, shape, rank, ax, nax, out);
  /* DynamicStitch([range(rank), (axes + rank) % rank], [shape, ones]):
   * its indices are int32 only, as TensorFlow's wrapper requires. */
  const TF_DataType at = mt_g_dtype(axes);
  if (at != TF_INT32) {
    mt_status_setf(g->status, TF_INVALID_ARGUMENT,
                   "gradient of %s: Tensors in list passed to 'indices' of 'DynamicStitch' Op "
                   "have types [%s, %s] that do not match expected type int32.",
                   g->op->name, mt_dtype_name(at), mt_dtype_name(at));
    return 0;
  }
  TF_Output rank_t = mt_gu_size(g, input_shape, at);
  TF_Output shifted = mt_gu_binary_named(g, "AddV2", "add", axes, rank_t);
  TF_Output canon = mt_gu_binary_named(g, "FloorMod", "mod", shifted, rank_t);
  TF_Output axes_shape = mt_g_shape(g, canon);
  TF_Output idx = mt_gu_range(g, rank_t);
  TF_Output ones = mt_gu_ones_i32(g, axes_shape);
  mt_gnode d = mt_g_begin(g, "DynamicStitch", NULL);
  const TF_Output indices[2] = {idx, canon}, data[2] = {input_shape, ones};
  mt_g_in_list(&d, indices, 2);
  mt_g_in_list(&d, data, 2);
  out->tensor = mt_g_end0(&d);
  return out->tensor.oper != NULL;
}

TF_Output mt_gu_reshape_kept(mt_grad_ctx* g, TF_Output x, const mt_gu_kept_shape* k) {
  if (k->is_static) return mt_gu_reshape_const(g, x, k->dims, k->rank);
  return mt_g_reshape(g, x, k->tensor);
}
