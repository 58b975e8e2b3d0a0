/* Node builders that follow TensorFlow's Python wrappers (grad_util.h). */
#include "runtime/kernels/array_grad_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/status.h"
#include "runtime/tensor.h"

static const TF_Output kNone = {NULL, 0};

static int is_int_type(TF_DataType t) {
  return t == TF_INT32 || t == TF_INT64 || t == TF_INT16 || t == TF_INT8 || t == TF_UINT8 ||
         t == TF_UINT16 || t == TF_UINT32 || t == TF_UINT64;
}

static void oom(mt_grad_ctx* g) {
  if (mt_ok(g->status))
    mt_status_setf(g->status, TF_RESOURCE_EXHAUSTED, "out of memory building gradients");
}

/* 1 if every output is set; else fails the gradient (an input it needs is missing). */
static int all_set(mt_grad_ctx* g, const TF_Output* xs, int n) {
  if (!mt_ok(g->status)) return 0;
  for (int i = 0; i < n; i++) {
    if (xs[i].oper) continue;
    mt_status_setf(g->status, TF_INTERNAL, "gradient of %s: missing input %d of a list",
                   g->op->name, i);
    return 0;
  }
  return 1;
}

/* ---- name scopes ---- */

void gu_enter(gu_scope* s, mt_gnode* n) {
  s->g = n->g;
  s->saved = n->g->scope;
  s->name = NULL;
  if (!n->d) return;
  size_t len = strlen(n->d->name) + 2;
  s->name = malloc(len);
  if (!s->name) {
    oom(n->g);
    return;
  }
  snprintf(s->name, len, "%s/", n->d->name);
  n->g->scope = s->name;
}

void gu_leave(gu_scope* s) {
  s->g->scope = s->saved;
  free(s->name);
  s->name = NULL;
}

/* ---- constants ---- */

TF_Output gu_const_ints(mt_grad_ctx* g, TF_DataType dt, const int64_t* v, int n, int vector,
                        const char* name) {
  if (!mt_ok(g->status)) return kNone;
  double buf[16] = {0};
  double* vals = n <= 16 ? buf : malloc(sizeof(double) * (size_t)n);
  if (!vals) {
    oom(g);
    return kNone;
  }
  for (int i = 0; i < n; i++) vals[i] = (double)v[i];
  int64_t dim = n;
  TF_Output out = mt_g_const(g, dt, &dim, vector ? 1 : 0, vals, name);
  if (vals != buf) free(vals);
  return out;
}

/* The dtype Python gives a list of ints: int32 unless a value needs 64 bits. */
static TF_DataType py_int_type(const int64_t* v, int n) {
  for (int i = 0; i < n; i++)
    if (v[i] > INT32_MAX || v[i] < INT32_MIN) return TF_INT64;
  return TF_INT32;
}

static int cv(TF_Output o, int64_t* out, int cap, int* scalar, int depth);

static int cv_const(TF_Output o, int64_t* out, int cap, int* scalar) {
  const TF_Tensor* t = mt_g_const_value(o);
  if (!t || t->ndims > 1 || (t->dtype != TF_INT32 && t->dtype != TF_INT64)) return -1;
  int64_t n = mt_tensor_nelems(t);
  if (n > cap) return -1;
  for (int64_t i = 0; i < n; i++)
    out[i] = t->dtype == TF_INT32 ? ((const int32_t*)mt_tensor_data(t))[i]
                                  : ((const int64_t*)mt_tensor_data(t))[i];
  *scalar = t->ndims == 0;
  return (int)n;
}

static int cv_pack(TF_Operation* op, int64_t* out, int cap, int depth) {
  if (mt_op_attr_int(op, "axis", 0) != 0 || op->ninputs > cap) return -1;
  for (int k = 0; k < op->ninputs; k++) {
    int s = 0;
    if (cv(op->inputs[k], &out[k], 1, &s, depth + 1) != 1 || !s) return -1;
  }
  return op->ninputs;
}

static int cv_concat(TF_Operation* op, int64_t* out, int cap, int depth) {
  int64_t axis;
  int s = 0, n = 0;
  if (cv(op->inputs[op->ninputs - 1], &axis, 1, &s, depth + 1) != 1 || (axis != 0 && axis != -1))
    return -1;
  for (int k = 0; k < op->ninputs - 1; k++) {
    int got = cv(op->inputs[k], out + n, cap - n, &s, depth + 1);
    if (got < 0 || s) return -1;
    n += got;
  }
  return n;
}

static int cv(TF_Output o, int64_t* out, int cap, int* scalar, int depth) {
  if (!o.oper || depth > 16) return -1;
  TF_Operation* op = o.oper;
  const char* t = op->op_type;
  *scalar = 0;
  if (strcmp(t, "Const") == 0) return cv_const(o, out, cap, scalar);
  if (strcmp(t, "Shape") == 0 || strcmp(t, "Size") == 0 || strcmp(t, "Rank") == 0) {
    const mt_shape* s = mt_g_static_shape(op->inputs[0]);
    if (strcmp(t, "Rank") == 0) {
      if (s->rank < 0 || cap < 1) return -1;
      out[0] = s->rank;
      *scalar = 1;
      return 1;
    }
    if (!mt_g_fully_defined(s)) return -1;
    if (strcmp(t, "Size") == 0) {
      out[0] = mt_shape_nelems(s);
      *scalar = 1;
      return cap < 1 ? -1 : 1;
    }
    if (s->rank > cap) return -1;
    for (int d = 0; d < s->rank; d++) out[d] = s->dims[d];
    return s->rank;
  }
  if (strcmp(t, "Identity") == 0 || strcmp(t, "StopGradient") == 0 ||
      (strcmp(t, "Cast") == 0 && is_int_type(op->output_types[0])))
    return cv(op->inputs[0], out, cap, scalar, depth + 1);
  if (strcmp(t, "Pack") == 0) return cv_pack(op, out, cap, depth);
  if (strcmp(t, "ConcatV2") == 0) return cv_concat(op, out, cap, depth);
  return -1;
}

int gu_constant_value(TF_Output o, int64_t* out, int cap, int* is_scalar) {
  int scalar = 0;
  int n = cv(o, out, cap, &scalar, 0);
  if (is_scalar) *is_scalar = scalar;
  return n;
}

/* ---- wrappers ---- */

TF_Output gu_op1(mt_grad_ctx* g, const char* op_type, const char* name, TF_Output x) {
  mt_gnode n = mt_g_begin(g, op_type, name);
  mt_g_in(&n, x);
  return mt_g_end0(&n);
}

TF_Output gu_op2(mt_grad_ctx* g, const char* op_type, const char* name, TF_Output x, TF_Output y) {
  mt_gnode n = mt_g_begin(g, op_type, name);
  mt_g_in(&n, x);
  mt_g_in(&n, y);
  return mt_g_end0(&n);
}

TF_Output gu_shape(mt_grad_ctx* g, TF_Output x, TF_DataType out_type) {
  if (!mt_ok(g->status)) return kNone;
  const mt_shape* s = mt_g_static_shape(x);
  if (mt_g_fully_defined(s)) return gu_const_ints(g, out_type, s->dims, s->rank, 1, "Shape");
  mt_gnode n = mt_g_begin(g, "Shape", NULL);
  mt_g_in(&n, x);
  mt_g_attr_type(&n, "out_type", out_type);
  return mt_g_end0(&n);
}

TF_Output gu_size(mt_grad_ctx* g, TF_Output x) {
  if (!mt_ok(g->status)) return kNone;
  const mt_shape* s = mt_g_static_shape(x);
  if (mt_g_fully_defined(s)) {
    int64_t n = mt_shape_nelems(s);
    return gu_const_ints(g, TF_INT32, &n, 1, 0, "Size");
  }
  mt_gnode n = mt_g_begin(g, "Size", NULL);
  mt_g_in(&n, x);
  mt_g_attr_type(&n, "out_type", TF_INT32);
  return mt_g_end0(&n);
}

TF_Output gu_rank(mt_grad_ctx* g, TF_Output x) {
  if (!mt_ok(g->status)) return kNone;
  const mt_shape* s = mt_g_static_shape(x);
  if (s->rank >= 0) {
    int64_t r = s->rank;
    return gu_const_ints(g, TF_INT32, &r, 1, 0, "Rank");
  }
  return gu_op1(g, "Rank", NULL, x);
}

TF_Output gu_cast(mt_grad_ctx* g, TF_Output x, TF_DataType dt) {
  if (!x.oper || mt_g_dtype(x) == dt) return x;
  mt_gnode n = mt_g_begin(g, "Cast", NULL);
  mt_g_in(&n, x);
  mt_g_attr_type(&n, "DstT", dt);
  mt_g_attr_bool(&n, "Truncate", 0);
  return mt_g_end0(&n);
}

TF_Output gu_binop(mt_grad_ctx* g, const char* op_type, const char* name, gu_val x, gu_val y) {
  mt_gnode n = mt_g_begin(g, op_type, name);
  TF_DataType dt = x.t.oper ? mt_g_dtype(x.t) : mt_g_dtype(y.t);
  gu_scope s;
  gu_enter(&s, &n);
  TF_Output a = x.t.oper ? x.t : gu_const_ints(g, dt, &x.i, 1, 0, "x");
  TF_Output b = y.t.oper ? y.t : gu_const_ints(g, dt, &y.i, 1, 0, "y");
  gu_leave(&s);
  mt_g_in(&n, a);
  mt_g_in(&n, b);
  return mt_g_end0(&n);
}

TF_Output gu_pack(mt_grad_ctx* g, const char* name, const gu_val* items, int n, TF_DataType dtype) {
  if (!mt_ok(g->status)) return kNone;
  int64_t ints[GU_MAX_LIST + 8];
  int all_int = n <= (int)(sizeof ints / sizeof ints[0]);
  for (int i = 0; all_int && i < n; i++) {
    if (items[i].t.oper) all_int = 0;
    else ints[i] = items[i].i;
  }
  if (all_int) return gu_const_ints(g, dtype ? dtype : py_int_type(ints, n), ints, n, 1, name);
  for (int i = 0; !dtype && i < n; i++)
    if (items[i].t.oper) dtype = mt_g_dtype(items[i].t);
  TF_Output* conv = calloc((size_t)n + 1, sizeof(TF_Output));
  if (!conv) {
    oom(g);
    return kNone;
  }
  for (int i = 0; i < n; i++)
    if (items[i].t.oper) conv[i] = gu_cast(g, items[i].t, dtype);
  mt_gnode p = mt_g_begin(g, "Pack", name);
  gu_scope s;
  gu_enter(&s, &p);
  for (int i = 0; i < n; i++) {
    if (items[i].t.oper) continue;
    char sub[24];
    snprintf(sub, sizeof sub, "%d", i);
    conv[i] = gu_const_ints(g, dtype, &items[i].i, 1, 0, sub);
  }
  gu_leave(&s);
  if (all_set(g, conv, n)) mt_g_in_list(&p, conv, n);
  mt_g_attr_int(&p, "axis", 0);
  free(conv);
  return mt_g_end0(&p);
}

TF_Output gu_stack_axis(mt_grad_ctx* g, const TF_Output* items, int n, int axis) {
  mt_gnode p = mt_g_begin(g, "Pack", "stack");
  if (all_set(g, items, n)) mt_g_in_list(&p, items, n);
  mt_g_attr_int(&p, "axis", axis);
  return mt_g_end0(&p);
}

/* The dtype of the first tensor among parts (0 if none). */
static TF_DataType parts_dtype(const gu_part* parts, int n) {
  for (int i = 0; i < n; i++) {
    if (parts[i].t.oper) return mt_g_dtype(parts[i].t);
    for (int k = 0; k < parts[i].n; k++)
      if (parts[i].list[k].t.oper) return mt_g_dtype(parts[i].list[k].t);
  }
  return 0;
}

/* An op input given as a tensor or a Python list, converted in the op's
 * scope under the arg's name. */
static TF_Output part_tensor(mt_grad_ctx* g, const gu_part* p, TF_DataType dtype,
                             const char* arg) {
  if (!p->n) return p->t;
  return gu_pack(g, arg, p->list, p->n, dtype);
}

/* array_ops.concat of one value: an Identity "concat" inside the "concat"
 * scope it opens, with a Python int axis converted there too. */
static TF_Output concat_one(mt_grad_ctx* g, const gu_part* part, int axis, TF_Output axis_t) {
  mt_gnode scope = mt_g_begin(g, "NoOp", "concat"); /* only its name scope is used */
  gu_scope s;
  gu_enter(&s, &scope);
  if (!axis_t.oper) {
    int64_t a = axis;
    gu_const_ints(g, TF_INT32, &a, 1, 0, "concat_dim");
  }
  TF_Output v = part_tensor(g, part, parts_dtype(part, 1), "values_0");
  TF_Output out = gu_op1(g, "Identity", "concat", v);
  gu_leave(&s);
  if (scope.d) mt_desc_free(scope.d);
  return out;
}

TF_Output gu_concat(mt_grad_ctx* g, const gu_part* parts, int n, int axis, TF_Output axis_t) {
  if (n == 1) return concat_one(g, parts, axis, axis_t);
  TF_DataType dt = parts_dtype(parts, n);
  if (!dt) dt = TF_INT32;
  TF_Output* vals = calloc((size_t)n + 1, sizeof(TF_Output));
  if (!vals) {
    oom(g);
    return kNone;
  }
  mt_gnode c = mt_g_begin(g, "ConcatV2", "concat");
  gu_scope s;
  gu_enter(&s, &c);
  for (int i = 0; i < n; i++) {
    char arg[24];
    snprintf(arg, sizeof arg, "values_%d", i);
    vals[i] = part_tensor(g, &parts[i], dt, arg);
  }
  int64_t a = axis;
  TF_Output ax = axis_t.oper ? axis_t : gu_const_ints(g, TF_INT32, &a, 1, 0, "axis");
  gu_leave(&s);
  if (all_set(g, vals, n)) mt_g_in_list(&c, vals, n);
  mt_g_in(&c, ax);
  free(vals);
  return mt_g_end0(&c);
}

static TF_DataType best_index_type(gu_val a, int has_a, gu_val b, int has_b) {
  TF_DataType dt = 0;
  const gu_val* vs[2] = {has_a ? &a : NULL, has_b ? &b : NULL};
  for (int k = 0; k < 2; k++) {
    if (!vs[k] || !vs[k]->t.oper) continue;
    TF_DataType t = mt_g_dtype(vs[k]->t);
    if (t == TF_INT64) dt = TF_INT64;
    else if (t == TF_INT32 && dt != TF_INT64) dt = TF_INT32;
    else if (t == TF_INT16 && !dt) dt = TF_INT16;
  }
  return dt;
}

static gu_val const_val(mt_grad_ctx* g, TF_DataType dt, int64_t v) {
  return gu_t(gu_const_ints(g, dt, &v, 1, 0, "Const"));
}

static TF_DataType packed_type(TF_Output t) { return mt_g_dtype(t); }

TF_Output gu_getitem(mt_grad_ctx* g, TF_Output x, int is_index, int has_start, gu_val start,
                     int has_stop, gu_val stop) {
  gu_val b, e, st;
  int bm = 0, em = 0, sm = 0;
  if (is_index) {
    b = start;
    if (start.t.oper) {
      e = gu_t(gu_binop(g, "AddV2", "add", start, gu_i(1)));
      TF_DataType t = mt_g_dtype(start.t);
      st = t == TF_INT16 || t == TF_INT64 ? const_val(g, t, 1) : gu_i(1);
    } else {
      e = gu_i(start.i + 1);
      st = gu_i(1);
    }
    sm = 1;
  } else {
    TF_DataType dt = best_index_type(start, has_start, stop, has_stop);
    if (has_start) {
      b = start;
    } else {
      b = dt ? const_val(g, dt, 0) : gu_i(0);
      bm = 1;
    }
    if (has_stop) {
      e = stop;
    } else {
      e = dt ? const_val(g, dt, 0) : gu_i(0);
      em = 1;
    }
    st = dt ? const_val(g, dt, 1) : gu_i(1);
  }
  mt_gnode n = mt_g_begin(g, "StridedSlice", "strided_slice");
  gu_scope s;
  gu_enter(&s, &n);
  TF_Output pb = gu_pack(g, "stack", &b, 1, 0);
  TF_Output pe = gu_pack(g, "stack_1", &e, 1, 0);
  TF_Output ps = gu_pack(g, "stack_2", &st, 1, 0);
  if (mt_ok(g->status) && (packed_type(pb) == TF_INT64 || packed_type(pe) == TF_INT64 ||
                           packed_type(ps) == TF_INT64)) {
    pb = gu_cast(g, pb, TF_INT64);
    pe = gu_cast(g, pe, TF_INT64);
    ps = gu_cast(g, ps, TF_INT64);
  }
  gu_leave(&s);
  mt_g_in(&n, x);
  mt_g_in(&n, pb);
  mt_g_in(&n, pe);
  mt_g_in(&n, ps);
  mt_g_attr_int(&n, "begin_mask", bm);
  mt_g_attr_int(&n, "end_mask", em);
  mt_g_attr_int(&n, "ellipsis_mask", 0);
  mt_g_attr_int(&n, "new_axis_mask", 0);
  mt_g_attr_int(&n, "shrink_axis_mask", sm);
  return mt_g_end0(&n);
}

TF_Output gu_expand_dims(mt_grad_ctx* g, TF_Output x, int dim) {
  mt_gnode n = mt_g_begin(g, "ExpandDims", NULL);
  mt_g_in(&n, x);
  int32_t d = dim;
  mt_g_in_const_i32(&n, "dim", &d, 1, 0);
  return mt_g_end0(&n);
}

TF_Output gu_reshape(mt_grad_ctx* g, TF_Output x, gu_part shape) {
  mt_gnode n = mt_g_begin(g, "Reshape", NULL);
  gu_scope s;
  gu_enter(&s, &n);
  TF_Output sh = part_tensor(g, &shape, parts_dtype(&shape, 1), "shape");
  gu_leave(&s);
  mt_g_in(&n, x);
  mt_g_in(&n, sh);
  return mt_g_end0(&n);
}

TF_Output gu_slice(mt_grad_ctx* g, TF_Output x, gu_part begin, gu_part size) {
  gu_part both[2] = {begin, size};
  TF_DataType dt = parts_dtype(both, 2);
  mt_gnode n = mt_g_begin(g, "Slice", NULL);
  gu_scope s;
  gu_enter(&s, &n);
  TF_Output b = part_tensor(g, &begin, dt, "begin");
  if (!dt && b.oper) dt = mt_g_dtype(b);
  TF_Output z = part_tensor(g, &size, dt, "size");
  gu_leave(&s);
  mt_g_in(&n, x);
  mt_g_in(&n, b);
  mt_g_in(&n, z);
  return mt_g_end0(&n);
}

/* Position in TensorFlow's range dtype hierarchy (-1: not in it). */
static int range_rank(TF_DataType t) {
  static const TF_DataType order[] = {TF_INT32, TF_INT64, TF_HALF, TF_BFLOAT16, TF_FLOAT, TF_DOUBLE};
  for (int i = 0; i < 6; i++)
    if (order[i] == t) return i;
  return -1;
}

TF_Output gu_range(mt_grad_ctx* g, gu_val start, gu_val limit, gu_val delta) {
  mt_gnode n = mt_g_begin(g, "Range", "range");
  gu_scope s;
  gu_enter(&s, &n);
  const gu_val* in[3] = {&start, &limit, &delta};
  static const char* names[3] = {"start", "limit", "delta"};
  TF_Output t[3];
  for (int k = 0; k < 3; k++)
    t[k] = in[k]->t.oper ? in[k]->t
                         : gu_const_ints(g, py_int_type(&in[k]->i, 1), &in[k]->i, 1, 0, names[k]);
  TF_DataType dt = TF_INT32;
  for (int k = 0; k < 3; k++)
    if (t[k].oper && range_rank(mt_g_dtype(t[k])) > range_rank(dt)) dt = mt_g_dtype(t[k]);
  for (int k = 0; k < 3; k++) t[k] = gu_cast(g, t[k], dt);
  gu_leave(&s);
  for (int k = 0; k < 3; k++) mt_g_in(&n, t[k]);
  return mt_g_end0(&n);
}

TF_Output gu_transpose(mt_grad_ctx* g, TF_Output x, TF_Output perm) {
  mt_gnode n = mt_g_begin(g, "Transpose", "transpose");
  if (!perm.oper) {
    const mt_shape* sx = mt_g_static_shape(x);
    int64_t p[MT_MAX_DIMS];
    for (int d = 0; d < sx->rank; d++) p[d] = sx->rank - 1 - d;
    if (sx->rank < 0) {
      mt_status_setf(g->status, TF_UNIMPLEMENTED,
                     "gradient of %s: transpose of a tensor of unknown rank", g->op->name);
      if (n.d) mt_desc_free(n.d);
      return kNone;
    }
    gu_scope s;
    gu_enter(&s, &n);
    perm = gu_const_ints(g, TF_INT32, p, sx->rank, 1, "perm");
    gu_leave(&s);
  }
  mt_g_in(&n, x);
  mt_g_in(&n, perm);
  return mt_g_end0(&n);
}

TF_Output gu_reduce_sum(mt_grad_ctx* g, TF_Output x, TF_Output axes, int keepdims) {
  if (!axes.oper && mt_ok(g->status)) {
    const mt_shape* sx = mt_g_static_shape(x);
    if (sx->rank > 0) {
      int64_t p[MT_MAX_DIMS];
      for (int d = 0; d < sx->rank; d++) p[d] = d;
      axes = gu_const_ints(g, TF_INT32, p, sx->rank, 1, "Const");
    } else {
      axes = gu_range(g, gu_i(0), gu_t(gu_rank(g, x)), gu_i(1));
    }
  }
  mt_gnode n = mt_g_begin(g, "Sum", NULL);
  mt_g_in(&n, x);
  mt_g_in(&n, axes);
  mt_g_attr_bool(&n, "keep_dims", keepdims);
  return mt_g_end0(&n);
}

/* A Const of dtype dt with every element v (n elements, the given dims). */
static TF_Output filled_const(mt_grad_ctx* g, TF_DataType dt, const int64_t* dims, int ndims,
                              double v, const char* name) {
  int64_t n = mt_num_elements(dims, ndims);
  double* vals = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  if (!vals) {
    oom(g);
    return kNone;
  }
  for (int64_t i = 0; i < n; i++) vals[i] = v;
  TF_Output out = mt_g_const(g, dt, dims, ndims, vals, name);
  free(vals);
  return out;
}

/* A Fill named name of value v over the given dims, its shape and value
 * converted in its scope ("<name>/<shape_name>", "<name>/Const"). */
static TF_Output fill_const_shape(mt_grad_ctx* g, const char* name, const char* shape_name,
                                  TF_Output shape_t, const mt_shape* dims, TF_DataType dt,
                                  double v) {
  mt_gnode f = mt_g_begin(g, "Fill", name);
  gu_scope s;
  gu_enter(&s, &f);
  TF_Output sh = shape_t.oper ? shape_t
                              : gu_const_ints(g, py_int_type(dims->dims, dims->rank), dims->dims,
                                              dims->rank, 1, shape_name);
  TF_Output val = mt_g_const(g, dt, NULL, 0, &v, "Const");
  gu_leave(&s);
  mt_g_in(&f, sh);
  mt_g_in(&f, val);
  return mt_g_end0(&f);
}

TF_Output gu_zeros_like(mt_grad_ctx* g, TF_Output x) {
  if (!mt_ok(g->status)) return kNone;
  const mt_shape* sx = mt_g_static_shape(x);
  TF_DataType dt = mt_g_dtype(x);
  if (mt_g_fully_defined(sx) && dt != TF_VARIANT) {
    if (mt_shape_nelems(sx) < 1000) return filled_const(g, dt, sx->dims, sx->rank, 0, "zeros_like");
    return fill_const_shape(g, "zeros_like", "shape_as_tensor", kNone, sx, dt, 0);
  }
  return gu_op1(g, "ZerosLike", "zeros_like", x);
}

TF_Output gu_ones_like(mt_grad_ctx* g, TF_Output x, TF_DataType dtype) {
  if (!mt_ok(g->status)) return kNone;
  const mt_shape* sx = mt_g_static_shape(x);
  if (mt_g_fully_defined(sx))
    return fill_const_shape(g, "ones_like", "Shape/shape_as_tensor", kNone, sx, dtype, 1);
  mt_gnode f = mt_g_begin(g, "Fill", "ones_like");
  gu_scope s;
  gu_enter(&s, &f);
  TF_Output sh = gu_shape(g, x, TF_INT32);
  double one = 1;
  TF_Output val = mt_g_const(g, dtype, NULL, 0, &one, "Const");
  gu_leave(&s);
  mt_g_in(&f, sh);
  mt_g_in(&f, val);
  return mt_g_end0(&f);
}

TF_Output gu_ones(mt_grad_ctx* g, const gu_val* n, TF_DataType dtype, const char* name) {
  if (!mt_ok(g->status)) return kNone;
  double one = 1;
  if (!n) return mt_g_const(g, dtype, NULL, 0, &one, name);
  mt_gnode f = mt_g_begin(g, "Fill", name);
  gu_scope s;
  gu_enter(&s, &f);
  TF_Output sh = gu_pack(g, "packed", n, 1, TF_INT32);
  TF_Output val = mt_g_const(g, dtype, NULL, 0, &one, "Const");
  gu_leave(&s);
  mt_g_in(&f, sh);
  mt_g_in(&f, val);
  return mt_g_end0(&f);
}

void gu_bytes_repr(const char* str, char* buf, size_t cap) {
  const unsigned char* s = (const unsigned char*)str;
  int has_single = strchr(str, '\'') != NULL, has_double = strchr(str, '"') != NULL;
  char q = has_single && !has_double ? '"' : '\'';
  size_t at = 0;
#define PUT(...)                                                           \
  do {                                                                     \
    if (at < cap) at += (size_t)snprintf(buf + at, cap - at, __VA_ARGS__); \
  } while (0)
  PUT("b%c", q);
  for (; *s; s++) {
    if (*s == '\\' || *s == (unsigned char)q) PUT("\\%c", *s);
    else if (*s == '\n') PUT("\\n");
    else if (*s == '\r') PUT("\\r");
    else if (*s == '\t') PUT("\\t");
    else if (*s < 0x20 || *s >= 0x7f) PUT("\\x%02x", *s);
    else PUT("%c", *s);
  }
  PUT("%c", q);
#undef PUT
}
