/* TensorArray ops, TensorFlow 2.21's TensorArrayV3 family (data_flow_ops.cc,
 * tensor_array.h, tensor_array_ops.cc): the array is a resource that
 * TensorArrayV3 creates and its handle keeps alive (TensorFlow keeps it in
 * the step's container; here it goes with the last handle, i.e. at the end
 * of the step unless a handle is fetched), plus a float "flow" scalar that
 * orders the ops that use it. Gradient arrays (TensorArrayGradV3) hang off
 * their forward array, one per gradient `source`; their writes to one index
 * add up, and reading an unwritten index gives zeros.
 * Error messages are TensorFlow's; names are "<tensor_array_name or node
 * name>_<n>" as TensorFlow numbers them. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/container_util.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/resource.h"

static const char tarray_type_name[] = "tensorflow::TensorArray";

typedef struct ta_elem {
  TF_Tensor* value; /* NULL: not written, or cleared after a read */
  mt_shape shape;   /* grad arrays: the forward element's shape (for zeros) */
  unsigned char written, read, cleared;
} ta_elem;

typedef struct mt_tarray mt_tarray;
struct mt_tarray {
  mt_variant base;
  pthread_mutex_t mu;
  char* name;
  TF_DataType dtype;
  mt_shape eshape;
  int identical, dynamic, clear_after_read, is_grad, closed;
  int64_t n, cap;
  ta_elem* elems;
  int ngrads;
  struct ta_grad {
    char* source;
    mt_tarray* ta;
  }* grads;
};

static atomic_long tarray_counter;

static void tarray_destroy(mt_variant* v) {
  mt_tarray* ta = (mt_tarray*)v;
  for (int64_t i = 0; i < ta->n; i++) mt_tensor_free(ta->elems[i].value);
  for (int i = 0; i < ta->ngrads; i++) {
    free(ta->grads[i].source);
    mt_variant_unref(&ta->grads[i].ta->base);
  }
  free(ta->grads);
  free(ta->elems);
  free(ta->name);
  pthread_mutex_destroy(&ta->mu);
  free(ta);
}

static int tarray_resize(mt_tarray* ta, int64_t n, TF_Status* s) {
  if (n > ta->cap) {
    int64_t cap = ta->cap ? ta->cap : 4;
    while (cap < n) cap *= 2;
    ta_elem* e = realloc(ta->elems, sizeof(ta_elem) * (size_t)cap);
    if (!e) {
      mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM growing a TensorArray");
      return 0;
    }
    ta->elems = e;
    ta->cap = cap;
  }
  for (int64_t i = ta->n; i < n; i++) {
    memset(&ta->elems[i], 0, sizeof(ta_elem));
    ta->elems[i].shape = mt_shape_unknown();
  }
  if (n > ta->n) ta->n = n;
  return 1;
}

static mt_tarray* tarray_new(const char* name, TF_DataType dtype, const mt_shape* eshape,
                             int64_t n, TF_Status* s) {
  mt_tarray* ta = mt_calloc(1, sizeof(*ta), s);
  if (!ta) return NULL;
  mt_variant_init(&ta->base, tarray_type_name, tarray_destroy);
  pthread_mutex_init(&ta->mu, NULL);
  ta->dtype = dtype;
  ta->eshape = *eshape;
  ta->name = strdup(name);
  if (!ta->name || !tarray_resize(ta, n, s)) {
    if (mt_ok(s)) mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM creating a TensorArray");
    tarray_destroy(&ta->base);
    return NULL;
  }
  return ta;
}

/* The array behind input 0, or NULL + status. */
static mt_tarray* input_array(mt_kernel_ctx* ctx) {
  const mt_resource_handle* h = mt_resource_get(ctx->inputs[0], ctx->status);
  if (!h) return NULL;
  if (!h->obj || h->obj->type_name != tarray_type_name) {
    mt_status_setf(ctx->status, TF_NOT_FOUND, "Resource %s/%s does not exist.", h->container,
                   h->name);
    return NULL;
  }
  return (mt_tarray*)h->obj;
}

static int check_open(mt_kernel_ctx* ctx, const mt_tarray* ta) {
  if (!ta->closed) return 1;
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "TensorArray %s has already been closed.",
                 ta->name);
  return 0;
}

static void set_flow(mt_kernel_ctx* ctx, int idx) {
  TF_Tensor* f = mt_ctx_alloc(ctx, idx, TF_FLOAT, NULL, 0);
  if (f) *(float*)mt_tensor_data(f) = 0.0f;
}

static int set_handle(mt_kernel_ctx* ctx, int idx, mt_tarray* ta) {
  ctx->outputs[idx] = mt_resource_tensor_obj("_tensor_arrays", ta->name, &ta->base, ctx->status);
  return ctx->outputs[idx] != NULL;
}

/* Adds b into a (same dtype and shape): a gradient array's second write. */
static TF_Tensor* add_tensors(const TF_Tensor* a, const TF_Tensor* b, TF_Status* s) {
  TF_Tensor* out = mt_tensor_new(a->dtype, a->dims, a->ndims, s);
  if (!out) return NULL;
  const int64_t n = mt_tensor_nelems(a);
#define ADD_CASE(DT, CT, unused)                                                   \
  case DT: {                                                                       \
    const CT* x = mt_tensor_data(a);                                               \
    const CT* y = mt_tensor_data(b);                                               \
    CT* z = mt_tensor_data(out);                                                   \
    for (int64_t i = 0; i < n; i++)                                                \
      z[i] = mt_store_##CT((mt_compute_##CT)(mt_load_##CT(x[i]) + mt_load_##CT(y[i]))); \
    return out;                                                                    \
  }
  switch (a->dtype) {
    MT_NUMBER_TYPES(ADD_CASE, 0)
    default: break;
  }
#undef ADD_CASE
  mt_tensor_free(out);
  mt_status_setf(s, TF_UNIMPLEMENTED, "TensorArray gradient aggregation of %s",
                 mt_dtype_name(a->dtype));
  return NULL;
}

/* TensorArray::WriteOrAggregate; ta->mu held. */
static int ta_write(mt_kernel_ctx* ctx, mt_tarray* ta, int64_t i, const TF_Tensor* v) {
  char a[256], b[256];
  if (i < 0 || (!ta->dynamic && i >= ta->n)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "TensorArray %s: Tried to write to index %lld but array is not resizeable "
                   "and size is: %lld",
                   ta->name, (long long)i, (long long)ta->n);
    return 0;
  }
  if (i >= ta->n && !tarray_resize(ta, i + 1, ctx->status)) return 0;
  ta_elem* e = &ta->elems[i];
  if (v->dtype != ta->dtype) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "TensorArray %s: Could not write to TensorArray index %lld because the value "
                   "dtype is %s but TensorArray dtype is %s.",
                   ta->name, (long long)i, mt_dtype_name(v->dtype), mt_dtype_name(ta->dtype));
    return 0;
  }
  mt_shape vs = mt_cu_shape_of(v);
  if (!mt_cu_compatible(&ta->eshape, &vs)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "TensorArray %s: Could not write to TensorArray index %lld because the value "
                   "shape is %s which is incompatible with the TensorArray's inferred element "
                   "shape: %s (consider setting infer_shape=False).",
                   ta->name, (long long)i, mt_cu_dims_str(v, a, sizeof a),
                   mt_shape_str(&ta->eshape, b, sizeof b));
    return 0;
  }
  if (ta->identical && !mt_shape_known(&ta->eshape)) ta->eshape = vs;
  if (e->read) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "TensorArray %s: Could not write to TensorArray index %lld because it has "
                   "already been read.",
                   ta->name, (long long)i);
    return 0;
  }
  if (!ta->is_grad && e->written) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "TensorArray %s: Could not write to TensorArray index %lld because it has "
                   "already been written to.",
                   ta->name, (long long)i);
    return 0;
  }
  if (e->written && e->value) {
    if (e->value->ndims != v->ndims || memcmp(e->value->dims, v->dims, sizeof(int64_t) * v->ndims)) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "TensorArray %s: Could not aggregate to TensorArray index %lld because the "
                     "existing shape is %s but the new input shape is %s.",
                     ta->name, (long long)i, mt_cu_dims_str(e->value, a, sizeof a),
                     mt_cu_dims_str(v, b, sizeof b));
      return 0;
    }
    TF_Tensor* sum = add_tensors(e->value, v, ctx->status);
    if (!sum) return 0;
    mt_tensor_free(e->value);
    e->value = sum;
  } else {
    mt_tensor_free(e->value);
    e->value = mt_tensor_share(v);
  }
  e->written = 1;
  e->shape = vs;
  return 1;
}

/* TensorArray::Read; ta->mu held. A new handle, or NULL + status. */
static TF_Tensor* ta_read(mt_kernel_ctx* ctx, mt_tarray* ta, int64_t i) {
  char buf[256];
  if (i < 0 || (!ta->is_grad && i >= ta->n)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Tried to read from index %lld but array size is: %lld", (long long)i,
                   (long long)ta->n);
    return NULL;
  }
  if (i >= ta->n || !ta->elems[i].written) {
    /* An unwritten element reads as zeros when its shape is known (a
     * gradient that no path wrote). */
    mt_shape shape = ta->eshape;
    if (ta->is_grad && i < ta->n && ta->elems[i].shape.rank > 0) {
      shape = ta->elems[i].shape;
    } else if (!mt_shape_known(&ta->eshape)) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "TensorArray %s: Could not read from TensorArray index %lld.  Furthermore, "
                     "the element shape is not fully defined: %s.  It is possible you are "
                     "working with a resizeable TensorArray and stop_gradients is not allowing "
                     "the gradients to be written.  If you set the full element_shape property "
                     "on the forward TensorArray, the proper all-zeros tensor will be returned "
                     "instead of incurring this error.",
                     ta->name, (long long)i, mt_shape_str(&ta->eshape, buf, sizeof buf));
      return NULL;
    }
    const int64_t old = ta->n;
    if (i >= ta->n && !tarray_resize(ta, i + 1, ctx->status)) return NULL;
    for (int64_t k = (i >= old ? old : i); k <= i; k++) {
      ta->elems[k].shape = shape;
      ta->elems[k].written = 1;
    }
  }
  ta_elem* e = &ta->elems[i];
  if (e->cleared) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "TensorArray %s: Could not read index %lld twice because it was cleared "
                   "after a previous read (perhaps try setting clear_after_read = false?).",
                   ta->name, (long long)i);
    return NULL;
  }
  TF_Tensor* v = e->value ? mt_tensor_share(e->value) : mt_cu_zeros(ta->dtype, &e->shape, ctx->status);
  if (v && ta->clear_after_read) {
    mt_tensor_free(e->value);
    e->value = NULL;
    e->cleared = 1;
  }
  if (v) e->read = 1;
  return v;
}

static int scalar_arg(mt_kernel_ctx* ctx, int idx, const char* what, int64_t* v) {
  if (ctx->inputs[idx]->ndims != 0) {
    char buf[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s must be scalar, but had shape: %s", what,
                   mt_cu_dims_str(ctx->inputs[idx], buf, sizeof buf));
    return 0;
  }
  mt_tensor_ints(ctx->inputs[idx], v, 1);
  return 1;
}

/* ---- kernels ---- */

static void tensor_array_v3_kernel(mt_kernel_ctx* ctx) {
  int64_t n;
  if (!scalar_arg(ctx, 0, "TensorArray size", &n)) return;
  if (n < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Size should be >= 0.");
    return;
  }
  const char* given = mt_op_attr_str(ctx->op, "tensor_array_name", "");
  char name[512];
  snprintf(name, sizeof name, "%s_%ld", *given ? given : ctx->op->name,
           atomic_fetch_add(&tarray_counter, 1));
  const mt_attr_value* es = mt_op_attr(ctx->op, "element_shape");
  mt_shape eshape = es ? es->v.shape : mt_shape_unknown();
  mt_tarray* ta = tarray_new(name, mt_op_attr_type(ctx->op, "dtype", TF_FLOAT), &eshape, n,
                             ctx->status);
  if (!ta) return;
  ta->identical = mt_op_attr_bool(ctx->op, "identical_element_shapes", 0);
  ta->dynamic = mt_op_attr_bool(ctx->op, "dynamic_size", 0);
  ta->clear_after_read = mt_op_attr_bool(ctx->op, "clear_after_read", 1);
  if (set_handle(ctx, 0, ta)) set_flow(ctx, 1);
  mt_variant_unref(&ta->base);
}

static void tensor_array_write_v3_kernel(mt_kernel_ctx* ctx) {
  mt_tarray* ta = input_array(ctx);
  int64_t i;
  if (!ta || !scalar_arg(ctx, 1, "TensorArray index", &i)) return;
  pthread_mutex_lock(&ta->mu);
  int ok = check_open(ctx, ta) && ta_write(ctx, ta, i, ctx->inputs[2]);
  pthread_mutex_unlock(&ta->mu);
  if (ok) set_flow(ctx, 0);
}

static void tensor_array_read_v3_kernel(mt_kernel_ctx* ctx) {
  mt_tarray* ta = input_array(ctx);
  int64_t i;
  if (!ta || !scalar_arg(ctx, 1, "TensorArray index", &i)) return;
  const TF_DataType want = mt_op_attr_type(ctx->op, "dtype", ta->dtype);
  pthread_mutex_lock(&ta->mu);
  if (want != ta->dtype)
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "TensorArray dtype is %s but Op requested dtype %s.", mt_dtype_name(ta->dtype),
                   mt_dtype_name(want));
  else if (check_open(ctx, ta))
    ctx->outputs[0] = ta_read(ctx, ta, i);
  pthread_mutex_unlock(&ta->mu);
}

/* Reads the elements idx[0..n) (all of them when idx is NULL) into
 * items (new handles); ta->mu held. */
static int read_many(mt_kernel_ctx* ctx, mt_tarray* ta, const int64_t* idx, int64_t n,
                     TF_Tensor** items) {
  for (int64_t k = 0; k < n; k++)
    if (!(items[k] = ta_read(ctx, ta, idx ? idx[k] : k))) return 0;
  return 1;
}

static void free_items(TF_Tensor** items, int64_t n) {
  for (int64_t k = 0; k < n; k++) mt_tensor_free(items[k]);
  free(items);
}

/* TensorArrayGatherV3 (and the stack of TensorArray.stack). */
static void tensor_array_gather_v3_kernel(mt_kernel_ctx* ctx) {
  mt_tarray* ta = input_array(ctx);
  if (!ta) return;
  const TF_Tensor* ind = ctx->inputs[1];
  char a[256], b[256];
  if (ind->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "indices must be rank 1");
    return;
  }
  const int64_t n = mt_tensor_nelems(ind);
  int64_t* idx = mt_calloc((size_t)n + 1, sizeof(int64_t), ctx->status);
  TF_Tensor** items = idx ? mt_calloc((size_t)n + 1, sizeof(TF_Tensor*), ctx->status) : NULL;
  if (!items) {
    free(idx);
    return;
  }
  mt_tensor_ints(ind, idx, n);
  const mt_attr_value* esa = mt_op_attr(ctx->op, "element_shape");
  mt_shape es = esa ? esa->v.shape : mt_shape_unknown();
  pthread_mutex_lock(&ta->mu);
  if (check_open(ctx, ta) && mt_cu_merge(&es, &ta->eshape, ctx->status)) {
    if (n == 0 && !mt_shape_known(&es))
      mt_status_setf(ctx->status, TF_UNIMPLEMENTED,
                     "TensorArray has size zero, but element shape %s is not fully defined. "
                     "Currently only static shapes are supported when packing zero-size "
                     "TensorArrays.",
                     mt_shape_str(&es, a, sizeof a));
    else if (read_many(ctx, ta, idx, n, items)) {
      mt_shape first = n ? mt_cu_shape_of(items[0]) : es;
      for (int64_t k = 1; k < n && mt_ok(ctx->status); k++) {
        mt_shape sk = mt_cu_shape_of(items[k]);
        if (sk.rank != first.rank || memcmp(sk.dims, first.dims, sizeof(int64_t) * sk.rank))
          mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                         "TensorArray has inconsistent shapes.  Index 0 has shape: %s but index "
                         "%lld has shape: %s",
                         mt_shape_str(&first, a, sizeof a), (long long)k,
                         mt_shape_str(&sk, b, sizeof b));
      }
      if (mt_ok(ctx->status)) mt_cu_stack(ctx, 0, ta->dtype, items, n, &first);
    }
  }
  pthread_mutex_unlock(&ta->mu);
  free_items(items, n);
  free(idx);
}

static void tensor_array_scatter_v3_kernel(mt_kernel_ctx* ctx) {
  mt_tarray* ta = input_array(ctx);
  if (!ta) return;
  const TF_Tensor* ind = ctx->inputs[1];
  const TF_Tensor* v = ctx->inputs[2];
  char buf[256];
  if (v->ndims < 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input value for unpack must be at least a vector but received shape: %s",
                   mt_cu_dims_str(v, buf, sizeof buf));
    return;
  }
  const int64_t n = mt_tensor_nelems(ind);
  if (ind->ndims != 1 || n != v->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected len(indices) == values.shape[0], but saw: %lld vs. %lld",
                   (long long)n, (long long)v->dims[0]);
    return;
  }
  int64_t* idx = mt_calloc((size_t)n + 1, sizeof(int64_t), ctx->status);
  if (!idx) return;
  mt_tensor_ints(ind, idx, n);
  pthread_mutex_lock(&ta->mu);
  int ok = check_open(ctx, ta);
  for (int64_t k = 0; k < n && ok; k++) {
    TF_Tensor* row = mt_cu_rows(v, k, 1, 1, ctx->status);
    ok = row && ta_write(ctx, ta, idx[k], row);
    mt_tensor_free(row);
  }
  pthread_mutex_unlock(&ta->mu);
  free(idx);
  if (ok) set_flow(ctx, 0);
}

static void tensor_array_concat_v3_kernel(mt_kernel_ctx* ctx) {
  mt_tarray* ta = input_array(ctx);
  if (!ta) return;
  char a[256], b[256];
  const mt_attr_value* esa = mt_op_attr(ctx->op, "element_shape_except0");
  mt_shape rest = esa ? esa->v.shape : mt_shape_unknown();
  pthread_mutex_lock(&ta->mu);
  const int64_t n = ta->n;
  TF_Tensor** items = mt_calloc((size_t)n + 1, sizeof(TF_Tensor*), ctx->status);
  if (items && check_open(ctx, ta)) {
    if (n == 0 && !mt_shape_known(&rest))
      mt_status_setf(ctx->status, TF_UNIMPLEMENTED,
                     "TensorArray has size zero, but element_shape_except0 %s is not fully "
                     "defined. Currently only static shapes are supported when concatenating "
                     "zero-size TensorArrays.",
                     mt_shape_str(&rest, a, sizeof a));
    else
      read_many(ctx, ta, NULL, n, items);
  }
  pthread_mutex_unlock(&ta->mu);
  int64_t total = 0;
  mt_shape inner = rest;
  for (int64_t k = 0; k < n && mt_ok(ctx->status); k++) {
    const TF_Tensor* t = items[k];
    if (t->ndims < 1) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Concat saw a scalar shape at index %lld but requires at least vectors.  "
                     "Did you mean to call TensorArray.pack?",
                     (long long)k);
      break;
    }
    mt_shape tr = mt_shape_make(t->dims + 1, t->ndims - 1);
    if (k == 0) {
      inner = tr;
    } else if (tr.rank != inner.rank || memcmp(tr.dims, inner.dims, sizeof(int64_t) * tr.rank)) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "TensorArray has inconsistent shapes.  Index 0 has (excepting dimension 0) "
                     "shape: %s but index %lld has (excepting dimension 0) shape: %s",
                     mt_shape_str(&inner, a, sizeof a), (long long)k, mt_shape_str(&tr, b, sizeof b));
      break;
    }
    total += t->dims[0];
  }
  if (items && mt_ok(ctx->status)) {
    int64_t dims[MT_MAX_DIMS];
    dims[0] = total;
    for (int d = 0; d < inner.rank; d++) dims[d + 1] = inner.dims[d];
    TF_Tensor* out = mt_ctx_alloc(ctx, 0, ta->dtype, dims, inner.rank + 1);
    int64_t nl = n;
    TF_Tensor* lo = out ? mt_ctx_alloc(ctx, 1, TF_INT64, &nl, 1) : NULL;
    if (lo) {
      const size_t es = TF_DataTypeSize(ta->dtype) ? TF_DataTypeSize(ta->dtype) : sizeof(void*);
      char* dst = mt_tensor_data(out);
      for (int64_t k = 0; k < n; k++) {
        ((int64_t*)mt_tensor_data(lo))[k] = items[k]->dims[0];
        const int64_t cnt = mt_tensor_nelems(items[k]);
        mt_cu_copy_elems(dst, mt_tensor_data(items[k]), cnt, ta->dtype);
        dst += (size_t)cnt * es;
      }
    }
  }
  if (items) free_items(items, n);
}

static void tensor_array_split_v3_kernel(mt_kernel_ctx* ctx) {
  mt_tarray* ta = input_array(ctx);
  if (!ta) return;
  const TF_Tensor* v = ctx->inputs[1];
  const TF_Tensor* lens = ctx->inputs[2];
  char buf[256];
  if (v->ndims < 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected value to be at least a vector, but received shape: %s",
                   mt_cu_dims_str(v, buf, sizeof buf));
    return;
  }
  if (lens->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected lengths to be a vector, received shape: %s",
                   mt_cu_dims_str(lens, buf, sizeof buf));
    return;
  }
  const int64_t n = mt_tensor_nelems(lens);
  const int64_t* len = mt_tensor_data(lens);
  int64_t sum = 0;
  for (int64_t k = 0; k < n; k++) {
    if (len[k] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Invalid value in lengths: %lld",
                     (long long)len[k]);
      return;
    }
    sum += len[k];
  }
  if (sum != v->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected sum of lengths to be equal to values.shape[0], but sum of lengths "
                   "is %lld and value's shape is: %s",
                   (long long)sum, mt_cu_dims_str(v, buf, sizeof buf));
    return;
  }
  pthread_mutex_lock(&ta->mu);
  int ok = check_open(ctx, ta);
  if (ok && !ta->dynamic && n != ta->n) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "TensorArray's size is not equal to the size of lengths (%lld vs. %lld), and "
                   "the TensorArray is not marked as dynamically resizeable",
                   (long long)n, (long long)ta->n);
    ok = 0;
  }
  for (int64_t k = 0, at = 0; k < n && ok; at += len[k++]) {
    TF_Tensor* piece = mt_cu_rows(v, at, len[k], 0, ctx->status);
    ok = piece && ta_write(ctx, ta, k, piece);
    mt_tensor_free(piece);
  }
  pthread_mutex_unlock(&ta->mu);
  if (ok) set_flow(ctx, 0);
}

static void tensor_array_size_v3_kernel(mt_kernel_ctx* ctx) {
  mt_tarray* ta = input_array(ctx);
  if (!ta) return;
  pthread_mutex_lock(&ta->mu);
  const int64_t n = ta->n;
  const int ok = check_open(ctx, ta);
  pthread_mutex_unlock(&ta->mu);
  TF_Tensor* out = ok ? mt_ctx_alloc(ctx, 0, TF_INT32, NULL, 0) : NULL;
  if (out) *(int32_t*)mt_tensor_data(out) = (int32_t)n;
}

static void tensor_array_close_v3_kernel(mt_kernel_ctx* ctx) {
  mt_tarray* ta = input_array(ctx);
  if (!ta) return;
  pthread_mutex_lock(&ta->mu);
  for (int64_t i = 0; i < ta->n; i++) {
    mt_tensor_free(ta->elems[i].value);
    ta->elems[i].value = NULL;
  }
  ta->closed = 1;
  pthread_mutex_unlock(&ta->mu);
}

/* The gradient array of ta for `source`, made on first use with ta's size,
 * dtype and element shape (`prepend` dims before it), aggregating writes. */
static mt_tarray* grad_array(mt_kernel_ctx* ctx, mt_tarray* ta, const char* source,
                             const int64_t* prepend, int nprepend) {
  for (int i = 0; i < ta->ngrads; i++)
    if (strcmp(ta->grads[i].source, source) == 0) return ta->grads[i].ta;
  char name[1024];
  snprintf(name, sizeof name, "%s@%s", ta->name, source);
  mt_shape es = ta->eshape;
  if (nprepend) {
    if (es.rank >= 0 && es.rank + nprepend <= MT_MAX_DIMS) {
      memmove(es.dims + nprepend, es.dims, sizeof(int64_t) * (size_t)es.rank);
      memcpy(es.dims, prepend, sizeof(int64_t) * (size_t)nprepend);
      es.rank += nprepend;
    }
  }
  struct ta_grad* gs = realloc(ta->grads, sizeof(*gs) * (size_t)(ta->ngrads + 1));
  if (!gs) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM creating a TensorArray gradient");
    return NULL;
  }
  ta->grads = gs;
  mt_tarray* g = tarray_new(name, ta->dtype, &es, ta->n, ctx->status);
  char* src = g ? strdup(source) : NULL;
  if (!src) {
    if (g) tarray_destroy(&g->base);
    if (mt_ok(ctx->status)) mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM");
    return NULL;
  }
  g->identical = ta->identical;
  g->is_grad = 1;
  g->clear_after_read = 1;
  for (int64_t i = 0; i < ta->n; i++) /* zeros for gradients nothing writes */
    if (ta->elems[i].written) {
      mt_shape s = ta->elems[i].shape;
      if (nprepend && s.rank >= 0 && s.rank + nprepend <= MT_MAX_DIMS) {
        memmove(s.dims + nprepend, s.dims, sizeof(int64_t) * (size_t)s.rank);
        memcpy(s.dims, prepend, sizeof(int64_t) * (size_t)nprepend);
        s.rank += nprepend;
      }
      g->elems[i].shape = s;
    }
  gs[ta->ngrads].source = src;
  gs[ta->ngrads].ta = g;
  ta->ngrads++;
  return g;
}

static void grad_kernel(mt_kernel_ctx* ctx, const int64_t* prepend, int nprepend) {
  mt_tarray* ta = input_array(ctx);
  if (!ta) return;
  const char* source = mt_op_attr_str(ctx->op, "source", "");
  pthread_mutex_lock(&ta->mu);
  mt_tarray* g = NULL;
  if (!ta->closed || ta->ngrads) g = grad_array(ctx, ta, source, prepend, nprepend);
  else check_open(ctx, ta);
  pthread_mutex_unlock(&ta->mu);
  if (g && set_handle(ctx, 0, g)) set_flow(ctx, 1);
}

static void tensor_array_grad_v3_kernel(mt_kernel_ctx* ctx) { grad_kernel(ctx, NULL, 0); }

static void tensor_array_grad_with_shape_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* p = ctx->inputs[2];
  int64_t dims[MT_MAX_DIMS];
  const int64_t n = mt_tensor_nelems(p);
  if (p->ndims != 1 || n > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "shape_to_prepend must be a vector");
    return;
  }
  mt_tensor_ints(p, dims, n);
  grad_kernel(ctx, dims, (int)n);
}

/* ---- shape functions (TensorFlow's; the v3 handle is a [2] vector) ---- */

static int64_t two = 2;

static int check_handle(mt_shape_ctx* ctx) {
  const mt_shape* h = &ctx->in[0];
  if (h->rank >= 0 && h->rank != 1 && h->rank != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be rank 1 but is rank %d",
                   h->rank);
    return 0;
  }
  return 1;
}

static void ta_v3_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 0)) return;
  ctx->out[0] = mt_shape_make(&two, 1);
  ctx->out[1] = mt_shape_scalar();
}

static void flow_out_shape(mt_shape_ctx* ctx) {
  if (check_handle(ctx)) ctx->out[0] = mt_shape_scalar();
}

static void read_shape(mt_shape_ctx* ctx) {
  if (check_handle(ctx) && mt_shape_with_rank(ctx, 1, 0)) ctx->out[0] = mt_shape_unknown();
}

static void gather_shape(mt_shape_ctx* ctx) {
  if (!check_handle(ctx) || !mt_shape_with_rank(ctx, 1, 1)) return;
  const mt_attr_value* es = mt_op_attr(ctx->op, "element_shape");
  mt_shape e = es ? es->v.shape : mt_shape_unknown();
  mt_shape* o = &ctx->out[0];
  if (e.rank < 0 || e.rank + 1 > MT_MAX_DIMS) {
    *o = mt_shape_unknown();
    return;
  }
  o->rank = e.rank + 1;
  o->dims[0] = ctx->in[1].rank == 1 ? ctx->in[1].dims[0] : -1;
  for (int d = 0; d < e.rank; d++) o->dims[d + 1] = e.dims[d];
}

static void concat_shape(mt_shape_ctx* ctx) {
  if (!check_handle(ctx)) return;
  const mt_attr_value* es = mt_op_attr(ctx->op, "element_shape_except0");
  mt_shape e = es ? es->v.shape : mt_shape_unknown();
  mt_shape* o = &ctx->out[0];
  if (e.rank < 0 || e.rank + 1 > MT_MAX_DIMS) {
    *o = mt_shape_unknown();
  } else {
    o->rank = e.rank + 1;
    o->dims[0] = -1;
    for (int d = 0; d < e.rank; d++) o->dims[d + 1] = e.dims[d];
  }
  int64_t d = -1;
  ctx->out[1] = mt_shape_make(&d, 1);
}

static void size_shape(mt_shape_ctx* ctx) {
  if (check_handle(ctx)) ctx->out[0] = mt_shape_scalar();
}

static void grad_shape(mt_shape_ctx* ctx) {
  if (!check_handle(ctx)) return;
  ctx->out[0] = mt_shape_make(&two, 1);
  ctx->out[1] = mt_shape_scalar();
}

static const mt_op_spec tensor_array_specs[] = {
    {.name = "TensorArrayV3", .inputs = "size: int32", .outputs = "handle: resource, flow: float",
     .attrs = "dtype: type; element_shape: shape = unknown; dynamic_size: bool = false; "
              "clear_after_read: bool = true; identical_element_shapes: bool = false; "
              "tensor_array_name: string = ''",
     .shape = ta_v3_shape, .kernel = tensor_array_v3_kernel, .flags = MT_OP_STATEFUL},
    {.name = "TensorArrayReadV3", .inputs = "handle: resource, index: int32, flow_in: float",
     .outputs = "value: dtype", .attrs = "dtype: type", .shape = read_shape,
     .kernel = tensor_array_read_v3_kernel, .flags = MT_OP_STATEFUL},
    {.name = "TensorArrayWriteV3",
     .inputs = "handle: resource, index: int32, value: T, flow_in: float",
     .outputs = "flow_out: float", .attrs = "T: type", .shape = flow_out_shape,
     .kernel = tensor_array_write_v3_kernel, .flags = MT_OP_STATEFUL},
    {.name = "TensorArrayGatherV3", .inputs = "handle: resource, indices: int32, flow_in: float",
     .outputs = "value: dtype", .attrs = "dtype: type; element_shape: shape = unknown",
     .shape = gather_shape, .kernel = tensor_array_gather_v3_kernel, .flags = MT_OP_STATEFUL},
    {.name = "TensorArrayScatterV3",
     .inputs = "handle: resource, indices: int32, value: T, flow_in: float",
     .outputs = "flow_out: float", .attrs = "T: type", .shape = flow_out_shape,
     .kernel = tensor_array_scatter_v3_kernel, .flags = MT_OP_STATEFUL},
    {.name = "TensorArrayConcatV3", .inputs = "handle: resource, flow_in: float",
     .outputs = "value: dtype, lengths: int64",
     .attrs = "dtype: type; element_shape_except0: shape = unknown", .shape = concat_shape,
     .kernel = tensor_array_concat_v3_kernel, .flags = MT_OP_STATEFUL},
    {.name = "TensorArraySplitV3",
     .inputs = "handle: resource, value: T, lengths: int64, flow_in: float",
     .outputs = "flow_out: float", .attrs = "T: type", .shape = flow_out_shape,
     .kernel = tensor_array_split_v3_kernel, .flags = MT_OP_STATEFUL},
    {.name = "TensorArraySizeV3", .inputs = "handle: resource, flow_in: float",
     .outputs = "size: int32", .shape = size_shape, .kernel = tensor_array_size_v3_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "TensorArrayCloseV3", .inputs = "handle: resource",
     .kernel = tensor_array_close_v3_kernel, .flags = MT_OP_STATEFUL},
    {.name = "TensorArrayGradV3", .inputs = "handle: resource, flow_in: float",
     .outputs = "grad_handle: resource, flow_out: float", .attrs = "source: string",
     .shape = grad_shape, .kernel = tensor_array_grad_v3_kernel, .flags = MT_OP_STATEFUL},
    {.name = "TensorArrayGradWithShape",
     .inputs = "handle: resource, flow_in: float, shape_to_prepend: int32",
     .outputs = "grad_handle: resource, flow_out: float", .attrs = "source: string",
     .shape = grad_shape, .kernel = tensor_array_grad_with_shape_kernel,
     .flags = MT_OP_STATEFUL},
};

void mt_register_tensor_array_ops(void) {
  mt_register_ops(tensor_array_specs,
                  (int)(sizeof tensor_array_specs / sizeof tensor_array_specs[0]));
}
