/* The gradient registry and the node builder gradient functions use (see
 * gradient.h). */
#include "runtime/gradient.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/half.h"
#include "runtime/status.h"
#include "runtime/tensor.h"

/* ---- registry ----------------------------------------------------------- */

static struct {
  int n, cap;
  mt_grad_spec* items;
} grads;
static pthread_once_t grads_once = PTHREAD_ONCE_INIT;

void mt_register_gradients(const mt_grad_spec* specs, int n) {
  for (int i = 0; i < n; i++) {
    int k = 0;
    while (k < grads.n && strcmp(grads.items[k].op_type, specs[i].op_type) != 0) k++;
    if (k == grads.n) {
      if (grads.n == grads.cap) {
        int cap = grads.cap ? grads.cap * 2 : 256;
        mt_grad_spec* grown = realloc(grads.items, sizeof(*grown) * (size_t)cap);
        if (!grown) {
          fprintf(stderr, "minitf: out of memory registering gradients\n");
          return;
        }
        grads.items = grown;
        grads.cap = cap;
      }
      grads.n++;
    }
    grads.items[k] = specs[i];
  }
}

static int cmp_spec(const void* a, const void* b) {
  return strcmp(((const mt_grad_spec*)a)->op_type, ((const mt_grad_spec*)b)->op_type);
}

static void register_all(void) {
#define MT_CALL_GRADS(name) \
  if (mt_register_##name##_grads != NULL) mt_register_##name##_grads();
  MT_OP_FAMILIES(MT_CALL_GRADS)
#undef MT_CALL_GRADS
  if (grads.n) qsort(grads.items, (size_t)grads.n, sizeof(*grads.items), cmp_spec);
}

int mt_gradient_lookup(const char* op_type, mt_grad_fn* fn) {
  pthread_once(&grads_once, register_all);
  mt_grad_spec key = {.op_type = op_type};
  const mt_grad_spec* hit =
      grads.n ? bsearch(&key, grads.items, (size_t)grads.n, sizeof(key), cmp_spec) : NULL;
  if (!hit) return 0;
  *fn = hit->fn;
  return 1;
}

/* ---- names ---------------------------------------------------------------- */

struct mt_grad_name {
  char* key; /* lower-cased full name */
  int count;
};

static struct mt_grad_name* find_name(mt_grad_ctx* g, const char* key) {
  for (int i = 0; i < g->nnames; i++)
    if (strcmp(g->names[i].key, key) == 0) return &g->names[i];
  return NULL;
}

static int add_name(mt_grad_ctx* g, const char* key, int count) {
  if (g->nnames == g->names_cap) {
    int cap = g->names_cap ? g->names_cap * 2 : 8;
    struct mt_grad_name* grown = realloc(g->names, sizeof(*grown) * (size_t)cap);
    if (!grown) return 0;
    g->names = grown;
    g->names_cap = cap;
  }
  char* k = strdup(key);
  if (!k) return 0;
  g->names[g->nnames].key = k;
  g->names[g->nnames].count = count;
  g->nnames++;
  return 1;
}

static char* lower_dup(const char* s) {
  char* out = strdup(s);
  for (char* p = out; p && *p; p++) *p = (char)tolower((unsigned char)*p);
  return out;
}

/* TensorFlow's Graph.unique_name over the names this call used (plus a
 * check against the graph, for names that exist already). */
static char* unique_name(mt_grad_ctx* g, const char* base) {
  size_t len = strlen(g->scope) + strlen(base) + 24;
  char* name = malloc(len);
  char* key = NULL;
  if (!name) return NULL;
  snprintf(name, len, "%s%s", g->scope, base);
  key = lower_dup(name);
  if (!key) goto oom;
  struct mt_grad_name* hit = find_name(g, key);
  int i = hit ? hit->count : 0;
  if (hit)
    hit->count++;
  else if (!add_name(g, key, 1))
    goto oom;
  if (i > 0 || mt_graph_find(g->graph, name)) {
    if (i == 0) i = 1;
    char* cand = malloc(len);
    if (!cand) goto oom;
    for (;;) {
      snprintf(cand, len, "%s_%d", key, i);
      snprintf(name, len, "%s%s_%d", g->scope, base, i);
      i++;
      if (!find_name(g, cand) && !mt_graph_find(g->graph, name)) break;
    }
    int ok = add_name(g, cand, 1);
    free(cand);
    if (!ok) goto oom;
  }
  free(key);
  return name;
oom:
  free(key);
  free(name);
  return NULL;
}

void mt_grad_ctx_clear(mt_grad_ctx* g) {
  for (int i = 0; i < g->nnames; i++) free(g->names[i].key);
  free(g->names);
  g->names = NULL;
  g->nnames = g->names_cap = 0;
}

void mt_g_set_sparse(mt_grad_ctx* g, int i, TF_Output values, TF_Output indices,
                     TF_Output dense_shape) {
  g->dx[i] = values;
  if (g->dx_indices && g->dx_dense_shape) {
    g->dx_indices[i] = indices;
    g->dx_dense_shape[i] = dense_shape;
    return;
  }
  /* No room for slices: densify as TensorFlow's IndexedSlices conversion
   * does (UnsortedSegmentSum over the first dimension). */
  if (!values.oper || !indices.oper || !dense_shape.oper) {
    g->dx[i] = (TF_Output){NULL, 0};
    return;
  }
  mt_gnode n = mt_g_begin(g, "StridedSlice", NULL);
  mt_g_in(&n, dense_shape);
  int32_t b = 0, e = 1, st = 1;
  mt_g_in_const_i32(&n, "stack", &b, 1, 1);
  mt_g_in_const_i32(&n, "stack_1", &e, 1, 1);
  mt_g_in_const_i32(&n, "stack_2", &st, 1, 1);
  mt_g_attr_int(&n, "shrink_axis_mask", 1);
  TF_Output rows = mt_g_end0(&n);
  mt_gnode u = mt_g_begin(g, "UnsortedSegmentSum", NULL);
  mt_g_in(&u, values);
  mt_g_in(&u, indices);
  mt_g_in(&u, rows);
  g->dx[i] = mt_g_end0(&u);
}

int mt_gradient_run(mt_grad_ctx* g, mt_grad_fn fn) {
  for (int i = 0; i < g->op->ninputs; i++) {
    g->dx[i] = (TF_Output){NULL, 0};
    if (g->dx_indices) g->dx_indices[i] = g->dx_dense_shape[i] = (TF_Output){NULL, 0};
  }
  if (fn) fn(g);
  if (!mt_ok(g->status)) return 0;
  for (int i = 0; i < g->op->ninputs; i++) {
    if (g->dx[i].oper && mt_g_dtype(g->dx[i]) != g->op->input_types[i] &&
        g->op->input_types[i] != TF_RESOURCE) {
      mt_status_setf(g->status, TF_INTERNAL,
                     "Gradient of %s (op type %s) for input %d has dtype %s, expected %s",
                     g->op->name, g->op->op_type, i, mt_dtype_name(mt_g_dtype(g->dx[i])),
                     mt_dtype_name(g->op->input_types[i]));
      return 0;
    }
  }
  return 1;
}

/* ---- builder ------------------------------------------------------------- */

int mt_g_ok(const mt_grad_ctx* g) { return mt_ok(g->status); }

mt_gnode mt_g_begin(mt_grad_ctx* g, const char* op_type, const char* name) {
  mt_gnode n = {g, NULL};
  if (!mt_ok(g->status)) return n;
  char* full = unique_name(g, name ? name : op_type);
  if (!full) {
    mt_status_setf(g->status, TF_RESOURCE_EXHAUSTED, "out of memory building gradients");
    return n;
  }
  n.d = mt_desc_new(g->graph, op_type, full);
  free(full);
  if (!n.d) mt_status_setf(g->status, TF_RESOURCE_EXHAUSTED, "out of memory building gradients");
  if (n.d && g->op->device && g->op->device[0]) mt_desc_set_device(n.d, g->op->device);
  return n;
}

void mt_g_in(mt_gnode* n, TF_Output x) {
  if (!n->d) return;
  if (!x.oper) {
    mt_status_setf(n->g->status, TF_INTERNAL, "gradient of %s: missing input for %s",
                   n->g->op->name, n->d->name);
    mt_desc_free(n->d);
    n->d = NULL;
    return;
  }
  mt_desc_add_input(n->d, &x, 1, 0);
}

static void set_scalar(mt_gnode* n, const char* name, mt_attr_value v) {
  if (n->d)
    mt_desc_set_attr(n->d, name, &v);
  else
    mt_attr_value_clear(&v);
}

/* A Const named exactly `name` (already unique), for mt_g_in_const_i32. */
static TF_Output exact_const(mt_grad_ctx* g, const char* name, TF_Tensor* t) {
  mt_gnode n = {g, NULL};
  char* key = lower_dup(name);
  if (!key || !add_name(g, key, 1)) {
    free(key);
    mt_tensor_free(t);
    mt_status_setf(g->status, TF_RESOURCE_EXHAUSTED, "out of memory building gradients");
    return (TF_Output){NULL, 0};
  }
  free(key);
  n.d = mt_desc_new(g->graph, "Const", name);
  if (n.d && g->op->device && g->op->device[0]) mt_desc_set_device(n.d, g->op->device);
  mt_attr_value v = mt_attr_scalar(MT_ATTR_TENSOR);
  v.v.tensor = t;
  set_scalar(&n, "value", v);
  mt_g_attr_type(&n, "dtype", t->dtype);
  return mt_g_end0(&n);
}

void mt_g_in_const_i32(mt_gnode* n, const char* arg, const int32_t* values, int count, int vector) {
  if (!n->d) return;
  int64_t dim = count;
  TF_Tensor* t = mt_tensor_new(TF_INT32, &dim, vector ? 1 : 0, n->g->status);
  if (!t) {
    mt_desc_free(n->d);
    n->d = NULL;
    return;
  }
  if (count) memcpy(mt_tensor_data(t), values, sizeof(int32_t) * (size_t)count);
  size_t len = strlen(n->d->name) + strlen(arg) + 2;
  char* name = malloc(len);
  TF_Output c = {NULL, 0};
  if (name) {
    snprintf(name, len, "%s/%s", n->d->name, arg);
    c = exact_const(n->g, name, t);
    free(name);
  } else {
    mt_tensor_free(t);
  }
  if (!c.oper) {
    if (mt_ok(n->g->status))
      mt_status_setf(n->g->status, TF_RESOURCE_EXHAUSTED, "out of memory building gradients");
    mt_desc_free(n->d);
    n->d = NULL;
    return;
  }
  mt_desc_add_input(n->d, &c, 1, 0);
}

void mt_g_in_list(mt_gnode* n, const TF_Output* xs, int count) {
  if (n->d) mt_desc_add_input(n->d, xs, count, 1);
}

void mt_g_control(mt_gnode* n, TF_Operation* op) {
  if (n->d && op) mt_desc_add_control(n->d, op);
}

void mt_g_attr_bool(mt_gnode* n, const char* name, int b) {
  mt_attr_value v = mt_attr_scalar(MT_ATTR_B);
  v.v.b = b != 0;
  set_scalar(n, name, v);
}

void mt_g_attr_int(mt_gnode* n, const char* name, int64_t i) {
  mt_attr_value v = mt_attr_scalar(MT_ATTR_I);
  v.v.i = i;
  set_scalar(n, name, v);
}

void mt_g_attr_float(mt_gnode* n, const char* name, float f) {
  mt_attr_value v = mt_attr_scalar(MT_ATTR_F);
  v.v.f = f;
  set_scalar(n, name, v);
}

void mt_g_attr_type(mt_gnode* n, const char* name, TF_DataType t) {
  mt_attr_value v = mt_attr_scalar(MT_ATTR_TYPE);
  v.v.type = t;
  set_scalar(n, name, v);
}

void mt_g_attr_str(mt_gnode* n, const char* name, const char* s) {
  if (!n->d) return;
  mt_attr_value v = mt_attr_scalar(MT_ATTR_S);
  mt_desc_set_bytes(&v.v.s, s, strlen(s), n->d);
  mt_desc_set_attr(n->d, name, &v);
}

void mt_g_attr_ints(mt_gnode* n, const char* name, const int64_t* vals, int count) {
  if (!n->d) return;
  mt_attr_value v = mt_attr_list(MT_ATTR_I, count);
  v.list.i = calloc((size_t)(count > 0 ? count : 1), sizeof(int64_t));
  if (!v.list.i) {
    n->d->alloc_failed = 1;
    return;
  }
  for (int k = 0; k < count; k++) v.list.i[k] = vals[k];
  mt_desc_set_attr(n->d, name, &v);
}

void mt_g_copy_attr(mt_gnode* n, const char* name) {
  if (!n->d) return;
  const mt_attr_value* src = mt_op_attr(n->g->op, name);
  if (!src) return;
  mt_attr_value v;
  if (!mt_attr_value_copy(&v, src)) {
    n->d->alloc_failed = 1;
    return;
  }
  mt_desc_set_attr(n->d, name, &v);
}

TF_Operation* mt_g_end(mt_gnode* n) {
  if (!n->d) return NULL;
  TF_Status s = {TF_OK, NULL};
  TF_Operation* op = mt_graph_finish(n->d, &s);
  n->d = NULL;
  if (!op && mt_ok(n->g->status)) mt_status_copy(n->g->status, &s);
  free(s.msg);
  return op;
}

TF_Output mt_g_end0(mt_gnode* n) {
  TF_Operation* op = mt_g_end(n);
  return (TF_Output){op, 0};
}

/* ---- common nodes --------------------------------------------------------- */

TF_Output mt_g_x(mt_grad_ctx* g, int i) { return g->op->inputs[i]; }
TF_Output mt_g_y(mt_grad_ctx* g, int i) { return (TF_Output){g->op, i}; }

TF_DataType mt_g_dtype(TF_Output o) { return o.oper ? o.oper->output_types[o.index] : 0; }

const mt_shape* mt_g_static_shape(TF_Output o) { return &o.oper->output_shapes[o.index]; }

TF_Output mt_g_unary(mt_grad_ctx* g, const char* op_type, TF_Output x) {
  mt_gnode n = mt_g_begin(g, op_type, NULL);
  mt_g_in(&n, x);
  return mt_g_end0(&n);
}

TF_Output mt_g_binary(mt_grad_ctx* g, const char* op_type, TF_Output x, TF_Output y) {
  mt_gnode n = mt_g_begin(g, op_type, NULL);
  mt_g_in(&n, x);
  mt_g_in(&n, y);
  return mt_g_end0(&n);
}

TF_Output mt_g_shape(mt_grad_ctx* g, TF_Output x) {
  const mt_shape* sx = mt_g_static_shape(x);
  if (mt_g_fully_defined(sx)) { /* array_ops.shape folds a known shape */
    int32_t dims[MT_MAX_DIMS];
    for (int i = 0; i < sx->rank; i++) dims[i] = (int32_t)sx->dims[i];
    return mt_g_const_i32(g, dims, sx->rank, 1, "Shape");
  }
  mt_gnode n = mt_g_begin(g, "Shape", NULL);
  mt_g_in(&n, x);
  mt_g_attr_type(&n, "out_type", TF_INT32);
  return mt_g_end0(&n);
}

static void store_value(TF_DataType dt, void* data, int64_t i, double v) {
  switch (dt) {
    case TF_FLOAT: ((float*)data)[i] = (float)v; break;
    case TF_DOUBLE: ((double*)data)[i] = v; break;
    case TF_HALF: ((mt_half*)data)[i] = mt_float_to_half((float)v); break;
    case TF_BFLOAT16: ((mt_bfloat16*)data)[i] = mt_float_to_bfloat16((float)v); break;
    case TF_INT32: ((int32_t*)data)[i] = (int32_t)v; break;
    case TF_INT64: ((int64_t*)data)[i] = (int64_t)v; break;
    case TF_INT16: ((int16_t*)data)[i] = (int16_t)v; break;
    case TF_INT8: ((int8_t*)data)[i] = (int8_t)v; break;
    case TF_UINT8: ((uint8_t*)data)[i] = (uint8_t)v; break;
    case TF_UINT16: ((uint16_t*)data)[i] = (uint16_t)v; break;
    case TF_UINT32: ((uint32_t*)data)[i] = (uint32_t)v; break;
    case TF_UINT64: ((uint64_t*)data)[i] = (uint64_t)v; break;
    case TF_COMPLEX64: ((float*)data)[2 * i] = (float)v; ((float*)data)[2 * i + 1] = 0; break;
    case TF_COMPLEX128: ((double*)data)[2 * i] = v; ((double*)data)[2 * i + 1] = 0; break;
    case TF_BOOL: ((unsigned char*)data)[i] = v != 0; break;
    default: break;
  }
}

TF_Output mt_g_const(mt_grad_ctx* g, TF_DataType dtype, const int64_t* dims, int ndims,
                     const double* values, const char* name) {
  TF_Output none = {NULL, 0};
  if (!mt_ok(g->status)) return none;
  TF_Tensor* t = mt_tensor_new(dtype, dims, ndims, g->status);
  if (!t) return none;
  int64_t count = mt_tensor_nelems(t);
  for (int64_t i = 0; i < count; i++) store_value(dtype, mt_tensor_data(t), i, values[i]);
  mt_gnode n = mt_g_begin(g, "Const", name);
  mt_attr_value v = mt_attr_scalar(MT_ATTR_TENSOR);
  v.v.tensor = t;
  set_scalar(&n, "value", v);
  mt_g_attr_type(&n, "dtype", dtype);
  return mt_g_end0(&n);
}

TF_Output mt_g_const_i32(mt_grad_ctx* g, const int32_t* values, int count, int vector,
                         const char* name) {
  double buf[MT_MAX_DIMS + 1] = {0};
  double* vals = count <= MT_MAX_DIMS + 1 ? buf : malloc(sizeof(double) * (size_t)count);
  if (!vals) {
    mt_status_setf(g->status, TF_RESOURCE_EXHAUSTED, "out of memory building gradients");
    return (TF_Output){NULL, 0};
  }
  for (int i = 0; i < count; i++) vals[i] = values[i];
  int64_t dim = count;
  TF_Output out = mt_g_const(g, TF_INT32, &dim, vector ? 1 : 0, vals, name);
  if (vals != buf) free(vals);
  return out;
}

TF_Output mt_g_scalar_like(mt_grad_ctx* g, TF_Output x, double v, const char* name) {
  return mt_g_const(g, mt_g_dtype(x), NULL, 0, &v, name);
}

TF_Output mt_g_sum(mt_grad_ctx* g, TF_Output x, TF_Output axes, int keep_dims) {
  mt_gnode n = mt_g_begin(g, "Sum", NULL);
  mt_g_in(&n, x);
  mt_g_in(&n, axes);
  mt_g_attr_bool(&n, "keep_dims", keep_dims);
  return mt_g_end0(&n);
}

TF_Output mt_g_reshape(mt_grad_ctx* g, TF_Output x, TF_Output shape) {
  return mt_g_binary(g, "Reshape", x, shape);
}

int mt_g_fully_defined(const mt_shape* a) {
  if (a->rank < 0) return 0;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] < 0) return 0;
  return 1;
}

int mt_g_shapes_equal_full(TF_Output x, TF_Output y, TF_Output grad) {
  const mt_shape* sx = mt_g_static_shape(x);
  const mt_shape* sy = mt_g_static_shape(y);
  const mt_shape* sg = mt_g_static_shape(grad);
  if (!mt_g_fully_defined(sx) || sx->rank != sy->rank || sx->rank != sg->rank) return 0;
  for (int i = 0; i < sx->rank; i++)
    if (sx->dims[i] != sy->dims[i] || sx->dims[i] != sg->dims[i]) return 0;
  return 1;
}

/* TensorFlow's _InferGradientReductionAxes: the axes each side was
 * broadcast along, when the static shapes decide it; 0 when they do not. */
static int infer_reduction_axes(const mt_shape* sx, const mt_shape* sy, int32_t* ax, int* nax,
                                int32_t* ay, int* nay) {
  if (sx->rank < 0 || sy->rank < 0) return 0;
  int rank = sx->rank > sy->rank ? sx->rank : sy->rank;
  *nax = *nay = 0;
  for (int a = 0; a < rank; a++) {
    int64_t dx = a < rank - sx->rank ? 1 : sx->dims[a - (rank - sx->rank)];
    int64_t dy = a < rank - sy->rank ? 1 : sy->dims[a - (rank - sy->rank)];
    if (dx == 1 && dy != 1)
      ax[(*nax)++] = a;
    else if (dy == 1 && dx != 1)
      ay[(*nay)++] = a;
    else if (dx < 0 || dy < 0)
      return 0;
  }
  return 1;
}

/* Sum(grad, axes, keep_dims=True) reshaped to shape. */
static TF_Output reduce_to(mt_grad_ctx* g, TF_Output grad, TF_Output axes, const int32_t* static_axes,
                           int naxes, TF_Output shape) {
  mt_gnode n = mt_g_begin(g, "Sum", NULL);
  mt_g_in(&n, grad);
  if (axes.oper)
    mt_g_in(&n, axes);
  else
    mt_g_in_const_i32(&n, "reduction_indices", static_axes, naxes, 1);
  mt_g_attr_bool(&n, "keep_dims", 1);
  return mt_g_reshape(g, mt_g_end0(&n), shape);
}

void mt_g_reduce_broadcast(mt_grad_ctx* g, TF_Output x, TF_Output y, TF_Output gx, TF_Output gy,
                           TF_Output* out_x, TF_Output* out_y) {
  *out_x = *out_y = (TF_Output){NULL, 0};
  if (!gx.oper && !gy.oper) return;
  const mt_shape* sx = mt_g_static_shape(x);
  const mt_shape* sy = mt_g_static_shape(y);
  TF_Output shape_x = mt_g_shape(g, x);
  TF_Output shape_y = mt_g_shape(g, y);
  int32_t ax[MT_MAX_DIMS], ay[MT_MAX_DIMS];
  int nax = 0, nay = 0;
  if (infer_reduction_axes(sx, sy, ax, &nax, ay, &nay)) {
    int reduce_x = nax > 0 || sx->rank < sy->rank;
    int reduce_y = nay > 0 || sy->rank < sx->rank;
    TF_Output none = {NULL, 0};
    *out_x = gx.oper && reduce_x ? reduce_to(g, gx, none, ax, nax, shape_x) : gx;
    *out_y = gy.oper && reduce_y ? reduce_to(g, gy, none, ay, nay, shape_y) : gy;
    return;
  }
  mt_gnode n = mt_g_begin(g, "BroadcastGradientArgs", NULL);
  mt_g_in(&n, shape_x);
  mt_g_in(&n, shape_y);
  TF_Operation* args = mt_g_end(&n);
  if (!args) return;
  if (gx.oper) *out_x = reduce_to(g, gx, (TF_Output){args, 0}, NULL, 0, shape_x);
  if (gy.oper) *out_y = reduce_to(g, gy, (TF_Output){args, 1}, NULL, 0, shape_y);
}

/* ---- whole-graph gradients ------------------------------------------------ */

int mt_dtype_trainable(TF_DataType t) {
  switch (t) {
    case TF_HALF: case TF_BFLOAT16: case TF_FLOAT: case TF_DOUBLE:
    case TF_COMPLEX64: case TF_COMPLEX128: case TF_RESOURCE: case TF_VARIANT:
      return 1;
    default:
      return 0;
  }
}

int mt_add_op_gradient(TF_Graph* graph, TF_Operation* op, const char* grad_type, const char* scope,
                       const TF_Output* dy, TF_Output* dx, TF_Output* dx_indices,
                       TF_Output* dx_dense_shape, TF_Status* s) {
  mt_grad_fn fn = NULL;
  for (int i = 0; i < op->ninputs; i++)
    dx[i] = dx_indices[i] = dx_dense_shape[i] = (TF_Output){NULL, 0};
  if (!mt_gradient_lookup(grad_type ? grad_type : op->op_type, &fn)) return 0;
  if (!fn) return 2;
  mt_grad_ctx g = {.graph = graph, .op = op, .dy = dy, .dx = dx, .dx_indices = dx_indices,
                   .dx_dense_shape = dx_dense_shape, .status = s, .scope = scope};
  int ok = mt_gradient_run(&g, fn);
  mt_grad_ctx_clear(&g);
  return ok ? 1 : -1;
}

/* Gradients received by one op output, summed when it is time to use them. */
typedef struct grad_list {
  int n, cap;
  TF_Output* items;
} grad_list;

typedef struct walk {
  TF_Graph* graph;
  TF_Status* s;
  char* scope; /* "gradients/" */
  unsigned char* between; /* per op id: on a path from an x to a y */
  grad_list** grads;      /* per op id: one list per output, or NULL */
} walk;

static int push_grad(walk* w, TF_Output at, TF_Output grad) {
  int id = at.oper->id;
  if (!w->grads[id]) {
    w->grads[id] = calloc((size_t)(at.oper->noutputs ? at.oper->noutputs : 1), sizeof(grad_list));
    if (!w->grads[id]) return 0;
  }
  grad_list* l = &w->grads[id][at.index];
  if (l->n == l->cap) {
    int cap = l->cap ? l->cap * 2 : 2;
    TF_Output* grown = realloc(l->items, sizeof(*grown) * (size_t)cap);
    if (!grown) return 0;
    l->items = grown;
    l->cap = cap;
  }
  l->items[l->n++] = grad;
  return 1;
}

/* One node in the walk's own scope ("gradients/AddN", ...). */
static mt_grad_ctx scope_ctx(walk* w, TF_Operation* near, const char* scope) {
  mt_grad_ctx g = {.graph = w->graph, .op = near, .status = w->s, .scope = scope};
  return g;
}

/* The summed gradient of an output ({NULL} when none reached it). */
static TF_Output summed(walk* w, mt_grad_ctx* g, TF_Output at) {
  grad_list* l = w->grads[at.oper->id] ? &w->grads[at.oper->id][at.index] : NULL;
  if (!l || l->n == 0) return (TF_Output){NULL, 0};
  if (l->n == 1) return l->items[0];
  mt_gnode n = mt_g_begin(g, "AddN", NULL);
  mt_g_in_list(&n, l->items, l->n);
  return mt_g_end0(&n);
}

static char* make_scope(TF_Graph* graph, const char* prefix, TF_Status* s) {
  const char* base = prefix ? prefix : "gradients";
  size_t len = strlen(base) + 24;
  char* name = malloc(len);
  if (!name) {
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory building gradients");
    return NULL;
  }
  for (int k = 0;; k++) {
    if (k == 0)
      snprintf(name, len, "%s", base);
    else
      snprintf(name, len, "%s_%d", base, k);
    size_t nl = strlen(name);
    TF_Operation* clash = NULL;
    for (int i = 0; i < graph->nops && !clash; i++) {
      const char* on = graph->ops[i]->name;
      if (strncmp(on, name, nl) == 0 && (on[nl] == 0 || on[nl] == '/')) clash = graph->ops[i];
    }
    if (!clash) break;
    if (prefix) {
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "prefix [%s] conflicts with existing node in the graph named [%s]", prefix,
                     clash->name);
      free(name);
      return NULL;
    }
  }
  strcat(name, "/");
  return name;
}

/* Marks the ops on a path from an x to a y. */
static int mark_between(walk* w, const TF_Output* y, int ny, const TF_Output* x, int nx) {
  int n = w->graph->nops;
  unsigned char* from_x = calloc((size_t)n + 1, 1);
  unsigned char* to_y = calloc((size_t)n + 1, 1);
  if (!from_x || !to_y) {
    free(from_x);
    free(to_y);
    return 0;
  }
  for (int i = 0; i < nx; i++) from_x[x[i].oper->id] = 1;
  for (int id = 0; id < n; id++) { /* ids are a topological order */
    TF_Operation* op = w->graph->ops[id];
    for (int k = 0; k < op->ninputs && !from_x[id]; k++)
      if (from_x[op->inputs[k].oper->id]) from_x[id] = 1;
  }
  for (int i = 0; i < ny; i++) to_y[y[i].oper->id] = 1;
  for (int id = n - 1; id >= 0; id--) {
    if (!to_y[id]) continue;
    TF_Operation* op = w->graph->ops[id];
    for (int k = 0; k < op->ninputs; k++) to_y[op->inputs[k].oper->id] = 1;
  }
  for (int id = 0; id < n; id++) w->between[id] = from_x[id] && to_y[id];
  free(from_x);
  free(to_y);
  return 1;
}

/* Backpropagates through one op: sums what reached its outputs, fills
 * zeros for trainable outputs nothing reached, runs its gradient and hands
 * the results to its inputs. */
static void backprop_op(walk* w, TF_Operation* op) {
  int any = 0;
  for (int i = 0; i < op->noutputs; i++)
    if (w->grads[op->id] && w->grads[op->id][i].n) any = 1;
  int feeds_between = 0;
  for (int k = 0; k < op->ninputs; k++)
    if (w->between[op->inputs[k].oper->id]) feeds_between = 1;
  if (!any || !feeds_between) return;
  mt_grad_fn fn = NULL;
  if (!mt_gradient_lookup(op->op_type, &fn)) {
    mt_status_setf(w->s, TF_NOT_FOUND, "No gradient defined for op: %s", op->op_type);
    return;
  }
  if (!fn) return;
  TF_Output* dy = calloc((size_t)op->noutputs + 1, sizeof(TF_Output));
  TF_Output* dx = calloc((size_t)op->ninputs + 1, sizeof(TF_Output));
  size_t slen = strlen(w->scope) + strlen(op->name) + 8;
  char* scope = malloc(slen);
  if (!dy || !dx || !scope) {
    mt_status_setf(w->s, TF_RESOURCE_EXHAUSTED, "out of memory building gradients");
    goto done;
  }
  mt_grad_ctx top = scope_ctx(w, op, w->scope);
  for (int i = 0; i < op->noutputs && mt_ok(w->s); i++) {
    dy[i] = summed(w, &top, (TF_Output){op, i});
    if (!dy[i].oper && mt_dtype_trainable(op->output_types[i]) &&
        op->output_types[i] != TF_RESOURCE && op->output_types[i] != TF_VARIANT)
      dy[i] = mt_g_unary(&top, "ZerosLike", (TF_Output){op, i});
  }
  mt_grad_ctx_clear(&top);
  if (!mt_ok(w->s)) goto done;
  snprintf(scope, slen, "%s%s_grad/", w->scope, op->name);
  mt_grad_ctx g = {.graph = w->graph, .op = op, .dy = dy, .dx = dx, .status = w->s, .scope = scope};
  int ok = mt_gradient_run(&g, fn);
  mt_grad_ctx_clear(&g);
  for (int k = 0; ok && k < op->ninputs; k++) {
    TF_Output in = op->inputs[k];
    if (!dx[k].oper || !w->between[in.oper->id] || !mt_dtype_trainable(op->input_types[k]))
      continue;
    if (!push_grad(w, in, dx[k])) {
      mt_status_setf(w->s, TF_RESOURCE_EXHAUSTED, "out of memory building gradients");
      break;
    }
  }
done:
  free(dy);
  free(dx);
  free(scope);
}

static int seed_grads(walk* w, const TF_Output* y, int ny, const TF_Output* dx_init) {
  for (int i = 0; i < ny; i++) {
    TF_Output seed = dx_init ? dx_init[i] : (TF_Output){NULL, 0};
    if (!seed.oper) {
      mt_grad_ctx g = scope_ctx(w, y[i].oper, w->scope);
      seed = mt_g_unary(&g, "OnesLike", y[i]);
      mt_grad_ctx_clear(&g);
      if (!seed.oper) return 0;
    }
    if (!push_grad(w, y[i], seed)) {
      mt_status_setf(w->s, TF_RESOURCE_EXHAUSTED, "out of memory building gradients");
      return 0;
    }
  }
  return 1;
}

void mt_add_gradients(TF_Graph* graph, const char* prefix, const TF_Output* y, int ny,
                      const TF_Output* x, int nx, const TF_Output* dx_init, TF_Output* dy,
                      TF_Status* s) {
  for (int i = 0; i < ny + nx; i++) {
    TF_Output o = i < ny ? y[i] : x[i - ny];
    if (!o.oper || o.oper->graph != graph || o.index < 0 || o.index >= o.oper->noutputs) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "%s %d is not an output of an operation of the graph",
                     i < ny ? "y" : "x", i < ny ? i : i - ny);
      return;
    }
  }
  walk w = {.graph = graph, .s = s};
  int nops = graph->nops;
  w.scope = make_scope(graph, prefix, s);
  if (!w.scope) return;
  w.between = calloc((size_t)nops + 1, 1);
  w.grads = calloc((size_t)nops + 1, sizeof(grad_list*));
  if (!w.between || !w.grads || !mark_between(&w, y, ny, x, nx)) {
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory building gradients");
    goto done;
  }
  if (!seed_grads(&w, y, ny, dx_init)) goto done;
  for (int id = nops - 1; id >= 0 && mt_ok(s); id--)
    if (w.between[id]) backprop_op(&w, graph->ops[id]);
  for (int i = 0; i < nx && mt_ok(s); i++) {
    mt_grad_ctx g = scope_ctx(&w, x[i].oper, w.scope);
    grad_list* l = w.grads[x[i].oper->id] ? &w.grads[x[i].oper->id][x[i].index] : NULL;
    dy[i] = l && l->n ? summed(&w, &g, x[i]) : (TF_Output){NULL, -1};
    mt_grad_ctx_clear(&g);
  }
done:
  for (int id = 0; w.grads && id < nops; id++) {
    if (!w.grads[id]) continue;
    for (int k = 0; k < graph->ops[id]->noutputs; k++) free(w.grads[id][k].items);
    free(w.grads[id]);
  }
  free(w.grads);
  free(w.between);
  free(w.scope);
}

const TF_Tensor* mt_g_const_value(TF_Output o) {
  if (!o.oper || strcmp(o.oper->op_type, "Const") != 0) return NULL;
  const mt_attr_value* v = mt_op_attr(o.oper, "value");
  return v && v->kind == MT_ATTR_TENSOR && !v->is_list ? v->v.tensor : NULL;
}

int mt_g_is_zeros(TF_Output o) {
  if (!o.oper) return 1;
  if (strcmp(o.oper->op_type, "ZerosLike") == 0) return 1;
  const TF_Tensor* t = mt_g_const_value(o);
  if (!t) return 0;
  const unsigned char* p = mt_tensor_data(t);
  size_t n = t->buf ? t->buf->len : 0;
  for (size_t i = 0; i < n; i++)
    if (p[i]) return 0;
  return 1;
}
