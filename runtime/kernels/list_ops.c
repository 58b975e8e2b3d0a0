/* TensorList ops (TensorFlow 2.21's list_ops.cc / list_kernels.*): a
 * TensorList is an immutable-once-shared list of tensors in a scalar
 * DT_VARIANT tensor. tf.TensorArray under control flow v2 and the
 * accumulators of v2 while loops are built on it. A kernel that changes a
 * list changes it in place when it holds the only reference to it (the
 * input tensor is forwardable and the list's refcount is 1), as TensorFlow
 * forwards; otherwise it copies the list (the item tensors are shared).
 * Error messages are TensorFlow's. */
#include "runtime/kernels/list_ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/container_util.h"
#include "runtime/kernels/kernel_util.h"

const char mt_tlist_type_name[] = "tensorflow::TensorList";

static void tlist_destroy(mt_variant* v) {
  mt_tlist* l = (mt_tlist*)v;
  for (int64_t i = 0; i < l->n; i++) mt_tensor_free(l->items[i]);
  free(l->items);
  free(l);
}

/* Room for n items (new ones NULL). */
static int tlist_resize(mt_tlist* l, int64_t n, TF_Status* s) {
  if (n > l->cap) {
    int64_t cap = l->cap ? l->cap : 4;
    while (cap < n) cap *= 2;
    TF_Tensor** items = realloc(l->items, sizeof(TF_Tensor*) * (size_t)cap);
    if (!items) {
      mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM growing a TensorList to %lld items",
                     (long long)n);
      return 0;
    }
    l->items = items;
    l->cap = cap;
  }
  for (int64_t i = n; i < l->n; i++) mt_tensor_free(l->items[i]);
  for (int64_t i = l->n; i < n; i++) l->items[i] = NULL;
  l->n = n;
  return 1;
}

static mt_tlist* tlist_new(TF_DataType dtype, const mt_shape* eshape, int64_t max, int64_t n,
                           TF_Status* s) {
  mt_tlist* l = mt_calloc(1, sizeof(*l), s);
  if (!l) return NULL;
  mt_variant_init(&l->base, mt_tlist_type_name, tlist_destroy);
  l->dtype = dtype;
  l->eshape = *eshape;
  l->max = max;
  if (!tlist_resize(l, n, s)) {
    tlist_destroy(&l->base);
    return NULL;
  }
  return l;
}

/* outputs[idx] = a new list variant holding l (takes l's reference). */
static void set_list_output(mt_kernel_ctx* ctx, int idx, mt_tlist* l) {
  if (l) ctx->outputs[idx] = mt_variant_tensor(&l->base, ctx->status);
}

/* The list in input idx (GetInputList). */
static const mt_tlist* input_list(mt_kernel_ctx* ctx, int idx) {
  const TF_Tensor* t = ctx->inputs[idx];
  char buf[256];
  if (t->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input list must be a scalar saw: %s",
                   mt_cu_dims_str(t, buf, sizeof buf));
    return NULL;
  }
  mt_variant* v = mt_variant_get(t);
  if (!v || v->type_name != mt_tlist_type_name) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input handle is not a list. Saw: '%s'",
                   v ? v->type_name : "");
    return NULL;
  }
  return (const mt_tlist*)v;
}

/* Input idx's list with element dtype checked against attr element_dtype. */
static const mt_tlist* typed_input_list(mt_kernel_ctx* ctx, int idx) {
  const mt_tlist* l = input_list(ctx, idx);
  if (!l) return NULL;
  const TF_DataType want = mt_op_attr_type(ctx->op, "element_dtype", l->dtype);
  if (want != l->dtype) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Invalid data types; op elements %s but list elements %s",
                   mt_dtype_name(want), mt_dtype_name(l->dtype));
    return NULL;
  }
  return l;
}

/* The list to change for output out_idx: input in_idx's own when nothing
 * else refers to it (ForwardInputOrCreateNewList), else a copy. */
static mt_tlist* writable_list(mt_kernel_ctx* ctx, int in_idx, int out_idx, const mt_tlist* l) {
  if (ctx->forwardable[in_idx] && atomic_load(&l->base.refs) == 1) {
    mt_ctx_set_shared(ctx, out_idx, ctx->inputs[in_idx]);
    return (mt_tlist*)l;
  }
  mt_tlist* c = tlist_new(l->dtype, &l->eshape, l->max, l->n, ctx->status);
  if (!c) return NULL;
  for (int64_t i = 0; i < l->n; i++) c->items[i] = l->items[i] ? mt_tensor_share(l->items[i]) : NULL;
  set_list_output(ctx, out_idx, c);
  return ctx->outputs[out_idx] ? c : NULL;
}

/* element_shape input idx merged with the list's (GetElementShapeFromInput). */
static int element_shape_input(mt_kernel_ctx* ctx, const mt_tlist* l, int idx, mt_shape* out) {
  return mt_cu_shape_from_tensor(ctx->inputs[idx], out, ctx->status) &&
         mt_cu_merge(out, &l->eshape, ctx->status);
}

/* The shape `es` refined by every set item when it is not fully defined. */
static int merge_items(mt_kernel_ctx* ctx, const mt_tlist* l, mt_shape* es) {
  if (mt_shape_known(&l->eshape)) return 1;
  for (int64_t i = 0; i < l->n; i++)
    if (l->items[i]) {
      mt_shape t = mt_cu_shape_of(l->items[i]);
      if (!mt_cu_merge(es, &t, ctx->status)) return 0;
    }
  return 1;
}

static int scalar_int(mt_kernel_ctx* ctx, int idx, const char* what, int64_t* v) {
  const TF_Tensor* t = ctx->inputs[idx];
  if (mt_tensor_nelems(t) != 1 || t->ndims != 0) {
    char buf[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s expected to be a scalar but got shape: %s",
                   what, mt_cu_dims_str(t, buf, sizeof buf));
    return 0;
  }
  mt_tensor_ints(t, v, 1);
  return 1;
}

/* ---- kernels ---- */

static void empty_tensor_list_kernel(mt_kernel_ctx* ctx) {
  int64_t max;
  mt_shape es;
  if (!scalar_int(ctx, 1, "max_num_elements", &max)) return;
  if (!mt_cu_shape_from_tensor(ctx->inputs[0], &es, ctx->status)) return;
  set_list_output(ctx, 0,
                  tlist_new(mt_op_attr_type(ctx->op, "element_dtype", TF_FLOAT), &es, max, 0,
                            ctx->status));
}

static void tensor_list_reserve_kernel(mt_kernel_ctx* ctx) {
  mt_shape es;
  int64_t n;
  if (!mt_cu_shape_from_tensor(ctx->inputs[0], &es, ctx->status)) return;
  if (mt_tensor_nelems(ctx->inputs[1]) != 1) {
    char buf[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "The num_elements to reserve must be a tensor size 1, but got %s",
                   mt_cu_dims_str(ctx->inputs[1], buf, sizeof buf));
    return;
  }
  mt_tensor_ints(ctx->inputs[1], &n, 1);
  if (n < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "The num_elements to reserve must be a non negative number, but got %lld",
                   (long long)n);
    return;
  }
  set_list_output(ctx, 0,
                  tlist_new(mt_op_attr_type(ctx->op, "element_dtype", TF_FLOAT), &es, -1, n,
                            ctx->status));
}

static void tensor_list_push_back_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[1];
  const TF_DataType want = mt_op_attr_type(ctx->op, "element_dtype", x->dtype);
  char a[256], b[256];
  if (want != x->dtype) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Invalid data types; list elements %s but tried to append %s",
                   mt_dtype_name(want), mt_dtype_name(x->dtype));
    return;
  }
  const mt_tlist* l = input_list(ctx, 0);
  if (!l) return;
  mt_shape xs = mt_cu_shape_of(x);
  if (!mt_cu_compatible(&l->eshape, &xs)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Tried to append a tensor with incompatible shape to a list. Op element "
                   "shape: %s list shape: %s",
                   mt_cu_dims_str(x, a, sizeof a), mt_shape_str(&l->eshape, b, sizeof b));
    return;
  }
  if (!(l = typed_input_list(ctx, 0))) return;
  if (l->max != -1 && l->n >= l->max) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Tried to push item into a full list list size: %lld max_num_elements: %lld",
                   (long long)l->n, (long long)l->max);
    return;
  }
  mt_tlist* out = writable_list(ctx, 0, 0, l);
  if (!out || !tlist_resize(out, out->n + 1, ctx->status)) return;
  out->items[out->n - 1] = mt_tensor_share(x);
}

/* Item i of l, or zeros of the element shape `es` refined by the set items
 * (TensorListGetItem's reading of an unset item). `what` ends the message. */
static TF_Tensor* item_or_zeros(mt_kernel_ctx* ctx, const mt_tlist* l, int64_t i, int es_input,
                                int refine) {
  if (l->items[i]) return mt_tensor_share(l->items[i]);
  mt_shape es;
  if (!element_shape_input(ctx, l, es_input, &es)) return NULL;
  if (refine && !mt_shape_known(&es) && !merge_items(ctx, l, &es)) return NULL;
  if (!mt_shape_known(&es)) {
    char buf[256];
    if (refine)
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Trying to read an uninitialized tensor but element_shape is not fully "
                     "defined: %s and no list element is set.",
                     mt_shape_str(&es, buf, sizeof buf));
    else
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Trying to read an uninitialized tensor but element_shape is not fully "
                     "defined.%s",
                     mt_shape_str(&es, buf, sizeof buf));
    return NULL;
  }
  return mt_cu_zeros(l->dtype, &es, ctx->status);
}

static void tensor_list_pop_back_kernel(mt_kernel_ctx* ctx) {
  const mt_tlist* l = typed_input_list(ctx, 0);
  if (!l) return;
  if (l->n == 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Trying to pop from an empty list.");
    return;
  }
  ctx->outputs[1] = item_or_zeros(ctx, l, l->n - 1, 1, 0);
  if (!ctx->outputs[1]) return;
  mt_tlist* out = writable_list(ctx, 0, 0, l);
  if (out) tlist_resize(out, out->n - 1, ctx->status);
}

static int check_index(mt_kernel_ctx* ctx, const mt_tlist* l, int64_t i, const char* verb) {
  if (i >= 0 && i < l->n) return 1;
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Trying to %s element %lld in a list with %lld elements.",
                 verb, (long long)i, (long long)l->n);
  return 0;
}

static void tensor_list_get_item_kernel(mt_kernel_ctx* ctx) {
  const mt_tlist* l = typed_input_list(ctx, 0);
  int64_t i;
  if (!l || !scalar_int(ctx, 1, "index", &i) || !check_index(ctx, l, i, "access")) return;
  ctx->outputs[0] = item_or_zeros(ctx, l, i, 2, 1);
}

static void tensor_list_set_item_kernel(mt_kernel_ctx* ctx) {
  const mt_tlist* l = typed_input_list(ctx, 0);
  int64_t i;
  if (!l || !scalar_int(ctx, 1, "index", &i)) return;
  const int resize = mt_op_attr_bool(ctx->op, "resize_if_index_out_of_bounds", 0);
  if (!(resize && i >= l->n) && !check_index(ctx, l, i, "modify")) return;
  const TF_Tensor* x = ctx->inputs[2];
  mt_shape xs = mt_cu_shape_of(x);
  if (!mt_cu_compatible(&l->eshape, &xs)) {
    char a[256], b[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Tried to set a tensor with incompatible shape at a list index. Item "
                   "element shape: %s list shape: %s",
                   mt_cu_dims_str(x, a, sizeof a), mt_shape_str(&l->eshape, b, sizeof b));
    return;
  }
  mt_tlist* out = writable_list(ctx, 0, 0, l);
  if (!out || (i >= out->n && !tlist_resize(out, i + 1, ctx->status))) return;
  mt_tensor_free(out->items[i]);
  out->items[i] = mt_tensor_share(x);
}

/* outputs[0] = items idx[0..n) stacked, with the element shape from input
 * es_input (TensorListStack / TensorListGather). */
static void stack_items(mt_kernel_ctx* ctx, const mt_tlist* l, const int64_t* idx, int64_t n,
                        int es_input) {
  mt_shape es;
  char buf[256];
  if (!element_shape_input(ctx, l, es_input, &es)) return;
  if (!mt_shape_known(&es) && l->n == 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Tried to stack elements of an empty list with non-fully-defined "
                   "element_shape: %s",
                   mt_shape_str(&es, buf, sizeof buf));
    return;
  }
  if (!merge_items(ctx, l, &es)) return;
  if (!mt_shape_known(&es)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Tried to stack list which only contains uninitialized tensors and has a "
                   "non-fully-defined element_shape: %s",
                   mt_shape_str(&es, buf, sizeof buf));
    return;
  }
  TF_Tensor** items = mt_calloc((size_t)n + 1, sizeof(TF_Tensor*), ctx->status);
  if (!items) return;
  for (int64_t k = 0; k < n; k++) {
    items[k] = l->items[idx ? idx[k] : k];
    mt_shape is = items[k] ? mt_cu_shape_of(items[k]) : es;
    if (!mt_cu_compatible(&is, &es) || is.rank != es.rank) {
      char a[256];
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Incompatible shapes during merge: %s vs. %s",
                     mt_shape_str(&es, buf, sizeof buf), mt_shape_str(&is, a, sizeof a));
      break;
    }
  }
  if (mt_ok(ctx->status)) mt_cu_stack(ctx, 0, l->dtype, items, n, &es);
  free(items);
}

static void tensor_list_stack_kernel(mt_kernel_ctx* ctx) {
  const mt_tlist* l = typed_input_list(ctx, 0);
  if (!l) return;
  const int64_t want = mt_op_attr_int(ctx->op, "num_elements", -1);
  if (want != -1 && l->n != want) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Operation expected a list with %lld elements but got a list with %lld "
                   "elements.",
                   (long long)want, (long long)l->n);
    return;
  }
  stack_items(ctx, l, NULL, l->n, 1);
}

static void tensor_list_gather_kernel(mt_kernel_ctx* ctx) {
  const mt_tlist* l = typed_input_list(ctx, 0);
  if (!l) return;
  const TF_Tensor* ind = ctx->inputs[1];
  const int64_t n = mt_tensor_nelems(ind);
  int64_t* idx = mt_calloc((size_t)n + 1, sizeof(int64_t), ctx->status);
  if (!idx) return;
  mt_tensor_ints(ind, idx, n);
  int ok = 1;
  for (int64_t k = 0; k < n && ok; k++) ok = check_index(ctx, l, idx[k], "access");
  if (ok) stack_items(ctx, l, idx, n, 2);
  free(idx);
}

static int at_least_vector(mt_kernel_ctx* ctx, const TF_Tensor* t) {
  if (t->ndims >= 1) return 1;
  char buf[256];
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                 "Tensor must be at least a vector, but saw shape: %s",
                 mt_cu_dims_str(t, buf, sizeof buf));
  return 0;
}

static void tensor_list_from_tensor_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* t = ctx->inputs[0];
  mt_shape es;
  if (!mt_cu_shape_from_tensor(ctx->inputs[1], &es, ctx->status) || !at_least_vector(ctx, t))
    return;
  mt_shape row = mt_shape_make(t->dims + 1, t->ndims - 1);
  if (!mt_cu_compatible(&es, &row)) {
    char a[256], b[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Specified a list with shape %s from a tensor with shape %s",
                   mt_shape_str(&es, a, sizeof a), mt_shape_str(&row, b, sizeof b));
    return;
  }
  mt_tlist* l = tlist_new(t->dtype, &es, -1, t->dims[0], ctx->status);
  for (int64_t i = 0; l && i < l->n; i++)
    if (!(l->items[i] = mt_cu_rows(t, i, 1, 1, ctx->status))) {
      tlist_destroy(&l->base);
      return;
    }
  set_list_output(ctx, 0, l);
}

static void tensor_list_length_kernel(mt_kernel_ctx* ctx) {
  const mt_tlist* l = input_list(ctx, 0);
  TF_Tensor* out = l ? mt_ctx_alloc(ctx, 0, TF_INT32, NULL, 0) : NULL;
  if (out) *(int32_t*)mt_tensor_data(out) = (int32_t)l->n;
}

static void tensor_list_element_shape_kernel(mt_kernel_ctx* ctx) {
  const mt_tlist* l = input_list(ctx, 0);
  if (!l) return;
  const TF_DataType t = mt_op_attr_type(ctx->op, "shape_type", TF_INT32);
  const int unknown = l->eshape.rank < 0;
  int64_t n = unknown ? 0 : l->eshape.rank;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, t, &n, unknown ? 0 : 1);
  if (!out) return;
  for (int64_t i = 0; i < (unknown ? 1 : n); i++) {
    const int64_t v = unknown ? -1 : l->eshape.dims[i];
    if (t == TF_INT32) ((int32_t*)mt_tensor_data(out))[i] = (int32_t)v;
    else ((int64_t*)mt_tensor_data(out))[i] = v;
  }
}

/* Checks TensorListScatter's tensor and indices; returns the largest index
 * (or -1), or -2 on error. */
static int64_t scatter_check(mt_kernel_ctx* ctx, const TF_Tensor* t, const TF_Tensor* ind,
                             int64_t* idx) {
  if (!at_least_vector(ctx, t)) return -2;
  const int64_t n = mt_tensor_nelems(ind);
  if (n != t->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected len(indices) == tensor.shape[0], but saw: %lld vs. %lld",
                   (long long)n, (long long)t->dims[0]);
    return -2;
  }
  mt_tensor_ints(ind, idx, n);
  int64_t max = -1;
  for (int64_t k = 0; k < n; k++) {
    if (idx[k] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Indices in TensorListScatter must all be non-negative.");
      return -2;
    }
    if (idx[k] > max) max = idx[k];
  }
  return max;
}

/* Stores row k of t at idx[k] of l (which has room). */
static void scatter_rows(mt_kernel_ctx* ctx, mt_tlist* l, const TF_Tensor* t, const int64_t* idx) {
  for (int64_t k = 0; k < t->dims[0]; k++) {
    TF_Tensor* row = mt_cu_rows(t, k, 1, 1, ctx->status);
    if (!row) return;
    mt_tensor_free(l->items[idx[k]]);
    l->items[idx[k]] = row;
  }
}

static void scatter_into(mt_kernel_ctx* ctx, mt_tlist* l, const TF_Tensor* t, const int64_t* idx,
                         int64_t max) {
  if (max >= l->n && !tlist_resize(l, max + 1, ctx->status)) return;
  scatter_rows(ctx, l, t, idx);
}

static int check_row_shape(mt_kernel_ctx* ctx, const mt_shape* es, const TF_Tensor* t) {
  mt_shape row = mt_shape_make(t->dims + 1, t->ndims - 1);
  if (mt_cu_compatible(es, &row)) return 1;
  char a[256], b[256];
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Incompatible shapes during merge: %s vs. %s",
                 mt_shape_str(es, a, sizeof a), mt_shape_str(&row, b, sizeof b));
  return 0;
}

static void tensor_list_scatter_into_existing_list_kernel(mt_kernel_ctx* ctx) {
  const mt_tlist* l = typed_input_list(ctx, 0);
  const TF_Tensor* t = ctx->inputs[1];
  if (!l) return;
  int64_t* idx = mt_calloc((size_t)mt_tensor_nelems(ctx->inputs[2]) + 1, sizeof(int64_t),
                           ctx->status);
  if (!idx) return;
  const int64_t max = scatter_check(ctx, t, ctx->inputs[2], idx);
  if (max > -2 && check_row_shape(ctx, &l->eshape, t)) {
    mt_tlist* out = writable_list(ctx, 0, 0, l);
    if (out) scatter_into(ctx, out, t, idx, max);
  }
  free(idx);
}

static void tensor_list_scatter_v2_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* t = ctx->inputs[0];
  mt_shape es;
  int64_t num;
  if (!mt_cu_shape_from_tensor(ctx->inputs[2], &es, ctx->status) ||
      !scalar_int(ctx, 3, "num_elements", &num))
    return;
  int64_t* idx = mt_calloc((size_t)mt_tensor_nelems(ctx->inputs[1]) + 1, sizeof(int64_t),
                           ctx->status);
  if (!idx) return;
  const int64_t max = scatter_check(ctx, t, ctx->inputs[1], idx);
  if (max > -2 && check_row_shape(ctx, &es, t)) {
    const int64_t n = num == -1 ? max + 1 : num;
    if (max >= n) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "TensorListScatter: Trying to scatter at index %lld in list with size %lld",
                     (long long)max, (long long)n);
      free(idx);
      return;
    }
    mt_tlist* l = tlist_new(t->dtype, &es, -1, n, ctx->status);
    if (l) scatter_rows(ctx, l, t, idx);
    if (l && !mt_ok(ctx->status)) tlist_destroy(&l->base);
    else set_list_output(ctx, 0, l);
  }
  free(idx);
}

static void tensor_list_split_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* t = ctx->inputs[0];
  const TF_Tensor* lens = ctx->inputs[2];
  mt_shape es;
  if (!mt_cu_shape_from_tensor(ctx->inputs[1], &es, ctx->status) || !at_least_vector(ctx, t))
    return;
  if (es.rank >= 0 && es.rank < 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "TensorListSplit requires element_shape to be at least of rank 1, but saw: %s",
                   "[]");
    return;
  }
  const int64_t n = mt_tensor_nelems(lens);
  const int64_t* len = mt_tensor_data(lens);
  int64_t end = 0;
  for (int64_t i = 0; i < n; i++) { /* TensorFlow checks each piece as it slices */
    const int64_t start = end;
    end = start + len[i];
    if (len[i] < 0 || end > t->dims[0]) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Attempting to slice [%lld, %lld] from tensor with length %lld",
                     (long long)start, (long long)end, (long long)t->dims[0]);
      return;
    }
  }
  if (end != t->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Unused values in tensor. Length of tensor: %lld Values used: %lld",
                   (long long)t->dims[0], (long long)end);
    return;
  }
  mt_tlist* l = tlist_new(t->dtype, &es, -1, n, ctx->status);
  for (int64_t i = 0, at = 0; l && i < n; at += len[i++])
    if (!(l->items[i] = mt_cu_rows(t, at, len[i], 0, ctx->status))) {
      tlist_destroy(&l->base);
      return;
    }
  set_list_output(ctx, 0, l);
}

/* TensorListConcatV2: items joined along dim 0; unset items are zeros
 * [leading_dims[i] or the element shape's dim 0] + the rest. */
static void tensor_list_concat_v2_kernel(mt_kernel_ctx* ctx) {
  const mt_tlist* l = typed_input_list(ctx, 0);
  mt_shape es;
  char buf[256];
  if (!l || !element_shape_input(ctx, l, 1, &es)) return;
  if (es.rank == 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Concat requires elements to be at least vectors, found scalars instead.");
    return;
  }
  int64_t first = es.rank > 0 ? es.dims[0] : -1;
  mt_shape rest = es.rank > 0 ? mt_shape_make(es.dims + 1, es.rank - 1) : mt_shape_unknown();
  if (l->n == 0 && !mt_shape_known(&rest)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "All except the first dimension must be fully defined when concating an "
                   "empty tensor list. element_shape: %s",
                   mt_shape_str(&rest, buf, sizeof buf));
    return;
  }
  for (int64_t i = 0; i < l->n; i++) {
    const TF_Tensor* t = l->items[i];
    if (!t) continue;
    if (t->ndims < 1) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Concat saw a scalar shape at index %lld but requires at least vectors.",
                     (long long)i);
      return;
    }
    mt_shape tr = mt_shape_make(t->dims + 1, t->ndims - 1);
    if (!mt_cu_merge(&rest, &tr, ctx->status)) return;
  }
  const TF_Tensor* lead = ctx->inputs[2];
  const int64_t nlead = mt_tensor_nelems(lead);
  int64_t total = 0;
  int64_t* lengths = mt_calloc((size_t)l->n + 1, sizeof(int64_t), ctx->status);
  if (!lengths) return;
  for (int64_t i = 0; i < l->n && mt_ok(ctx->status); i++) {
    if (l->items[i]) lengths[i] = l->items[i]->dims[0];
    else if (nlead > i) lengths[i] = ((const int64_t*)mt_tensor_data(lead))[i];
    else if (first >= 0) lengths[i] = first;
    else
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Trying to concat list with only uninitialized tensors but "
                     "element_shape_except_first_dim_ is not fully defined: %s",
                     mt_shape_str(&rest, buf, sizeof buf));
    total += lengths[i];
  }
  if (mt_ok(ctx->status) && !mt_shape_known(&rest))
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Trying to concat list with only uninitialized tensors but "
                   "element_shape_except_first_dim_ is not fully defined: %s",
                   mt_shape_str(&rest, buf, sizeof buf));
  int64_t dims[MT_MAX_DIMS];
  dims[0] = total;
  for (int d = 0; d < rest.rank && d + 1 < MT_MAX_DIMS; d++) dims[d + 1] = rest.dims[d];
  TF_Tensor* out = mt_ok(ctx->status) ? mt_ctx_alloc(ctx, 0, l->dtype, dims, rest.rank + 1) : NULL;
  int64_t nl = l->n;
  TF_Tensor* lo = out ? mt_ctx_alloc(ctx, 1, TF_INT64, &nl, 1) : NULL;
  if (lo) {
    memcpy(mt_tensor_data(lo), lengths, sizeof(int64_t) * (size_t)nl);
    const int64_t row = mt_shape_nelems(&rest);
    const size_t es_bytes = l->dtype == TF_VARIANT ? sizeof(void*) : TF_DataTypeSize(l->dtype);
    char* dst = mt_tensor_data(out);
    for (int64_t i = 0; i < l->n; i++) {
      const int64_t cnt = lengths[i] * row;
      if (l->items[i]) mt_cu_copy_elems(dst, mt_tensor_data(l->items[i]), cnt, l->dtype);
      else if (l->dtype != TF_STRING && l->dtype != TF_VARIANT) memset(dst, 0, (size_t)cnt * es_bytes);
      dst += (size_t)cnt * es_bytes;
    }
  }
  free(lengths);
}

static void tensor_list_resize_kernel(mt_kernel_ctx* ctx) {
  const mt_tlist* l = input_list(ctx, 0);
  int64_t n;
  if (!l || !scalar_int(ctx, 1, "size", &n)) return;
  if (n < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "TensorListSlice expects size to be non-negative. Got: %lld", (long long)n);
    return;
  }
  mt_tlist* out = writable_list(ctx, 0, 0, l);
  if (out) tlist_resize(out, n, ctx->status);
}

/* a + b for two set items of the same shape (AddN's kernel does the sum). */
static TF_Tensor* add_items(mt_kernel_ctx* ctx, TF_Tensor* a, TF_Tensor* b) {
  const mt_op_def* addn = mt_op_lookup("AddN");
  TF_Tensor* in[2] = {a, b};
  TF_Tensor* out[1] = {NULL};
  const unsigned char fwd[2] = {0, 0};
  mt_kernel_ctx sub = *ctx;
  sub.ninputs = 2;
  sub.inputs = in;
  sub.forwardable = fwd;
  sub.noutputs = 1;
  sub.outputs = out;
  if (addn && addn->kernel) addn->kernel(&sub);
  return out[0];
}

void mt_tlist_add_n(mt_kernel_ctx* ctx) {
  const mt_tlist* first = input_list(ctx, 0);
  if (!first) return;
  mt_tlist* sum = tlist_new(first->dtype, &first->eshape, first->max, first->n, ctx->status);
  for (int64_t i = 0; sum && i < sum->n; i++)
    sum->items[i] = first->items[i] ? mt_tensor_share(first->items[i]) : NULL;
  for (int k = 1; sum && k < ctx->ninputs && mt_ok(ctx->status); k++) {
    const mt_tlist* l = input_list(ctx, k);
    if (!l) break;
    if (l->dtype != sum->dtype || l->n != sum->n) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Trying to add two lists of tensors with different lengths. One is %lld "
                     "and the other is %lld",
                     (long long)sum->n, (long long)l->n);
      break;
    }
    for (int64_t i = 0; i < l->n && mt_ok(ctx->status); i++) {
      TF_Tensor* b = l->items[i];
      if (!b) continue;
      if (!sum->items[i]) {
        sum->items[i] = mt_tensor_share(b);
        continue;
      }
      TF_Tensor* s = add_items(ctx, sum->items[i], b);
      if (!s) break;
      mt_tensor_free(sum->items[i]);
      sum->items[i] = s;
    }
  }
  if (sum && !mt_ok(ctx->status)) {
    tlist_destroy(&sum->base);
    return;
  }
  set_list_output(ctx, 0, sum);
}

int mt_tlist_zeros_like(mt_kernel_ctx* ctx) {
  mt_variant* v = mt_variant_get(ctx->inputs[0]);
  if (ctx->inputs[0]->ndims != 0 || !v || v->type_name != mt_tlist_type_name) return 0;
  const mt_tlist* l = (const mt_tlist*)v;
  mt_tlist* z = tlist_new(l->dtype, &l->eshape, l->max, l->n, ctx->status);
  for (int64_t i = 0; z && i < l->n && mt_ok(ctx->status); i++) {
    const TF_Tensor* t = l->items[i];
    if (t) z->items[i] = mt_tensor_zeros(t->dtype, t->dims, t->ndims, ctx->status);
  }
  if (z && !mt_ok(ctx->status)) {
    tlist_destroy(&z->base);
    return 1;
  }
  set_list_output(ctx, 0, z);
  return 1;
}

/* ---- shape functions ---- */

static void scalar_out_shape(mt_shape_ctx* ctx) {
  for (int i = 0; i < ctx->noutputs; i++) ctx->out[i] = mt_shape_scalar();
}

/* ---- static element shapes ----
 * TensorFlow's shape inference carries a list's element shape on its
 * variant outputs ("handle data"), so that GetItem / Stack / PopBack of a
 * list built from known shapes have static shapes even when their own
 * element_shape input is -1. Here the same shape is recomputed from the
 * ops that built the list. */

/* A Const shape tensor's value as a partial shape (-1 scalar: unknown). */
static int const_shape(TF_Output o, mt_shape* out, int depth);

static int list_shape(TF_Output o, mt_shape* out, int depth);

static const TF_Tensor* const_of(TF_Output o) {
  if (!o.oper || strcmp(o.oper->op_type, "Const") != 0) return NULL;
  const mt_attr_value* v = mt_op_attr(o.oper, "value");
  return v && v->kind == MT_ATTR_TENSOR && !v->is_list ? v->v.tensor : NULL;
}

static int const_shape(TF_Output o, mt_shape* out, int depth) {
  *out = mt_shape_unknown();
  if (o.oper && strcmp(o.oper->op_type, "TensorListElementShape") == 0)
    return list_shape(o.oper->inputs[0], out, depth + 1);
  const TF_Tensor* t = const_of(o);
  if (!t || (t->dtype != TF_INT32 && t->dtype != TF_INT64)) return 0;
  TF_Status* s = TF_NewStatus();
  const int ok = mt_cu_shape_from_tensor(t, out, s);
  TF_DeleteStatus(s);
  if (!ok) *out = mt_shape_unknown();
  return ok;
}

static void merge_quiet(mt_shape* a, const mt_shape* b) {
  if (mt_cu_compatible(a, b)) mt_shape_merge(a, b);
}

/* The element shape of the list `o` as far as its producers tell. */
static int list_shape(TF_Output o, mt_shape* out, int depth) {
  *out = mt_shape_unknown();
  if (!o.oper || depth > 64) return 0;
  const TF_Operation* op = o.oper;
  const char* t = op->op_type;
  if (!strcmp(t, "TensorListReserve") || !strcmp(t, "EmptyTensorList"))
    return const_shape(op->inputs[0], out, depth);
  if (!strcmp(t, "TensorListScatterV2") || !strcmp(t, "TensorListSplit") ||
      !strcmp(t, "TensorListFromTensor")) {
    const_shape(op->inputs[!strcmp(t, "TensorListScatterV2") ? 2 : 1], out, depth);
    if (strcmp(t, "TensorListSplit") != 0) {
      const mt_shape* x = &op->inputs[0].oper->output_shapes[op->inputs[0].index];
      if (x->rank >= 1) {
        mt_shape row = mt_shape_make(x->dims + 1, x->rank - 1);
        merge_quiet(out, &row);
      }
    }
    return 1;
  }
  if (!strcmp(t, "TensorListPushBack") || !strcmp(t, "TensorListSetItem")) {
    list_shape(op->inputs[0], out, depth + 1);
    const TF_Output item = op->inputs[!strcmp(t, "TensorListPushBack") ? 1 : 2];
    merge_quiet(out, &item.oper->output_shapes[item.index]);
    return 1;
  }
  if ((!strcmp(t, "TensorListPopBack") && o.index == 0) || !strcmp(t, "TensorListResize") ||
      !strcmp(t, "TensorListScatterIntoExistingList") || !strcmp(t, "Identity"))
    return list_shape(op->inputs[0], out, depth + 1);
  return 0;
}

/* The element shape an element_shape input describes (unknown rank for a
 * scalar -1, as TensorFlow's MakeShapeFromShapeTensorTreatScalarAsUnknownShape),
 * merged with what the list input (input 0) is known to hold. */
static mt_shape es_input_shape(mt_shape_ctx* ctx, int idx) {
  mt_shape s = mt_shape_unknown();
  if (ctx->in[idx].rank != 0) mt_shape_input_as_shape(ctx, idx, &s);
  mt_shape h;
  if (ctx->in_types[0] == TF_VARIANT && list_shape(ctx->op->inputs[0], &h, 0)) merge_quiet(&s, &h);
  return s;
}

static void prepend_dim(mt_shape* out, int64_t d, const mt_shape* es) {
  if (es->rank < 0 || es->rank + 1 > MT_MAX_DIMS) {
    *out = mt_shape_unknown();
    return;
  }
  out->rank = es->rank + 1;
  out->dims[0] = d;
  for (int i = 0; i < es->rank; i++) out->dims[i + 1] = es->dims[i];
}

static void pop_back_shape(mt_shape_ctx* ctx) {
  ctx->out[0] = mt_shape_scalar();
  ctx->out[1] = es_input_shape(ctx, 1);
}

static void get_item_shape(mt_shape_ctx* ctx) { ctx->out[0] = es_input_shape(ctx, 2); }

static void stack_shape(mt_shape_ctx* ctx) {
  mt_shape es = es_input_shape(ctx, 1);
  prepend_dim(&ctx->out[0], mt_op_attr_int(ctx->op, "num_elements", -1), &es);
}

static void gather_shape(mt_shape_ctx* ctx) {
  mt_shape es = es_input_shape(ctx, 2);
  const mt_shape* ind = &ctx->in[1];
  prepend_dim(&ctx->out[0], ind->rank == 1 ? ind->dims[0] : -1, &es);
}

static void concat_v2_shape(mt_shape_ctx* ctx) {
  mt_shape es = es_input_shape(ctx, 1);
  mt_shape rest = es.rank > 0 ? mt_shape_make(es.dims + 1, es.rank - 1) : mt_shape_unknown();
  prepend_dim(&ctx->out[0], -1, &rest);
  int64_t d = -1;
  ctx->out[1] = mt_shape_make(&d, 1);
}

/* A vector of the element rank when known, else of unknown length. */
static void element_shape_shape(mt_shape_ctx* ctx) {
  mt_shape h;
  list_shape(ctx->op->inputs[0], &h, 0);
  int64_t d = h.rank;
  ctx->out[0] = mt_shape_make(&d, 1);
}

#define LIST_T "element_dtype: type; shape_type: {int32, int64}"

static const mt_op_spec list_specs[] = {
    {.name = "EmptyTensorList", .inputs = "element_shape: shape_type, max_num_elements: int32",
     .outputs = "handle: variant", .attrs = LIST_T, .shape = scalar_out_shape,
     .kernel = empty_tensor_list_kernel},
    {.name = "TensorListReserve", .inputs = "element_shape: shape_type, num_elements: int32",
     .outputs = "handle: variant", .attrs = LIST_T, .shape = scalar_out_shape,
     .kernel = tensor_list_reserve_kernel},
    {.name = "TensorListPushBack", .inputs = "input_handle: variant, tensor: element_dtype",
     .outputs = "output_handle: variant", .attrs = "element_dtype: type",
     .shape = scalar_out_shape, .kernel = tensor_list_push_back_kernel},
    {.name = "TensorListPopBack", .inputs = "input_handle: variant, element_shape: int32",
     .outputs = "output_handle: variant, tensor: element_dtype", .attrs = "element_dtype: type",
     .shape = pop_back_shape, .kernel = tensor_list_pop_back_kernel},
    {.name = "TensorListGetItem",
     .inputs = "input_handle: variant, index: int32, element_shape: Tshape",
     .outputs = "item: element_dtype",
     .attrs = "element_dtype: type; Tshape: {int32, int64} = DT_INT32",
     .shape = get_item_shape, .kernel = tensor_list_get_item_kernel},
    {.name = "TensorListSetItem",
     .inputs = "input_handle: variant, index: int32, item: element_dtype",
     .outputs = "output_handle: variant",
     .attrs = "element_dtype: type; resize_if_index_out_of_bounds: bool = false",
     .shape = scalar_out_shape, .kernel = tensor_list_set_item_kernel},
    {.name = "TensorListStack", .inputs = "input_handle: variant, element_shape: int32",
     .outputs = "tensor: element_dtype", .attrs = "element_dtype: type; num_elements: int = -1",
     .shape = stack_shape, .kernel = tensor_list_stack_kernel},
    {.name = "TensorListFromTensor", .inputs = "tensor: element_dtype, element_shape: shape_type",
     .outputs = "output_handle: variant", .attrs = LIST_T, .shape = scalar_out_shape,
     .kernel = tensor_list_from_tensor_kernel},
    {.name = "TensorListLength", .inputs = "input_handle: variant", .outputs = "length: int32",
     .shape = scalar_out_shape, .kernel = tensor_list_length_kernel},
    {.name = "TensorListElementShape", .inputs = "input_handle: variant",
     .outputs = "element_shape: shape_type", .attrs = "shape_type: {int32, int64}",
     .shape = element_shape_shape, .kernel = tensor_list_element_shape_kernel},
    {.name = "TensorListGather",
     .inputs = "input_handle: variant, indices: int32, element_shape: int32",
     .outputs = "values: element_dtype", .attrs = "element_dtype: type", .shape = gather_shape,
     .kernel = tensor_list_gather_kernel},
    {.name = "TensorListScatterIntoExistingList",
     .inputs = "input_handle: variant, tensor: element_dtype, indices: int32",
     .outputs = "output_handle: variant", .attrs = "element_dtype: type",
     .shape = scalar_out_shape, .kernel = tensor_list_scatter_into_existing_list_kernel},
    {.name = "TensorListScatterV2",
     .inputs = "tensor: element_dtype, indices: int32, element_shape: shape_type, "
               "num_elements: int32",
     .outputs = "output_handle: variant", .attrs = LIST_T, .shape = scalar_out_shape,
     .kernel = tensor_list_scatter_v2_kernel},
    {.name = "TensorListConcatV2",
     .inputs = "input_handle: variant, element_shape: shape_type, leading_dims: int64",
     .outputs = "tensor: element_dtype, lengths: int64", .attrs = LIST_T,
     .shape = concat_v2_shape, .kernel = tensor_list_concat_v2_kernel},
    {.name = "TensorListSplit",
     .inputs = "tensor: element_dtype, element_shape: shape_type, lengths: int64",
     .outputs = "output_handle: variant", .attrs = LIST_T, .shape = scalar_out_shape,
     .kernel = tensor_list_split_kernel},
    {.name = "TensorListResize", .inputs = "input_handle: variant, size: int32",
     .outputs = "output_handle: variant", .shape = scalar_out_shape,
     .kernel = tensor_list_resize_kernel},
};

void mt_register_list_ops(void) {
  mt_register_ops(list_specs, (int)(sizeof list_specs / sizeof list_specs[0]));
}
