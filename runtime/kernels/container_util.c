/* See container_util.h. */
#include "runtime/kernels/container_util.h"

#include <stdio.h>
#include <string.h>

#include "runtime/kernels/kernel_util.h"

mt_shape mt_cu_shape_of(const TF_Tensor* t) { return mt_shape_make(t->dims, t->ndims); }

int mt_cu_shape_from_tensor(const TF_Tensor* t, mt_shape* out, TF_Status* s) {
  if (t->dtype != TF_INT32 && t->dtype != TF_INT64) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Expected an int32 or int64 shape tensor; found %s",
                   mt_dtype_name(t->dtype));
    return 0;
  }
  int64_t v[MT_MAX_DIMS + 1];
  const int64_t n = mt_tensor_nelems(t);
  if (t->ndims == 0) {
    mt_tensor_ints(t, v, 1);
    if (v[0] == -1) {
      *out = mt_shape_unknown();
      return 1;
    }
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "The only valid scalar shape tensor is the fully unknown shape specified "
                   "as -1.");
    return 0;
  }
  if (t->ndims != 1 || n > MT_MAX_DIMS) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Shape tensor must be a vector of at most %d dims",
                   MT_MAX_DIMS);
    return 0;
  }
  mt_tensor_ints(t, v, n);
  out->rank = (int)n;
  for (int64_t i = 0; i < n; i++) {
    if (v[i] < -1) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "Dimension %lld must be >= -1", (long long)v[i]);
      return 0;
    }
    out->dims[i] = v[i];
  }
  return 1;
}

int mt_cu_compatible(const mt_shape* a, const mt_shape* b) {
  if (a->rank < 0 || b->rank < 0) return 1;
  if (a->rank != b->rank) return 0;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] >= 0 && b->dims[i] >= 0 && a->dims[i] != b->dims[i]) return 0;
  return 1;
}

int mt_cu_merge(mt_shape* a, const mt_shape* b, TF_Status* s) {
  if (mt_cu_compatible(a, b)) {
    mt_shape_merge(a, b);
    return 1;
  }
  char x[256], y[256];
  mt_status_setf(s, TF_INVALID_ARGUMENT, "Incompatible shapes during merge: %s vs. %s",
                 mt_shape_str(a, x, sizeof x), mt_shape_str(b, y, sizeof y));
  return 0;
}

const char* mt_cu_dims_str(const TF_Tensor* t, char* buf, size_t cap) {
  return mt_dims_str(t->dims, t->ndims, buf, cap);
}

void mt_cu_copy_elems(void* dst, const void* src, int64_t n, TF_DataType dtype) {
  if (n <= 0) return;
  if (dtype == TF_STRING) {
    const TF_TString* f = src;
    TF_TString* t = dst;
    for (int64_t i = 0; i < n; i++)
      TF_StringCopy(&t[i], TF_StringGetDataPointer(&f[i]), TF_StringGetSize(&f[i]));
  } else if (dtype == TF_VARIANT) {
    mt_variant* const* f = src;
    mt_variant** t = dst;
    for (int64_t i = 0; i < n; i++) t[i] = mt_variant_ref(f[i]);
  } else {
    memcpy(dst, src, (size_t)n * TF_DataTypeSize(dtype));
  }
}

TF_Tensor* mt_cu_zeros(TF_DataType dtype, const mt_shape* shape, TF_Status* s) {
  return mt_tensor_zeros(dtype, shape->dims, shape->rank, s);
}

static size_t elem_size(TF_DataType dtype) {
  return dtype == TF_VARIANT ? sizeof(void*) : TF_DataTypeSize(dtype);
}

TF_Tensor* mt_cu_rows(const TF_Tensor* t, int64_t begin, int64_t len, int squeeze, TF_Status* s) {
  int64_t dims[MT_MAX_DIMS];
  int nd = 0;
  if (!squeeze) dims[nd++] = len;
  for (int d = 1; d < t->ndims; d++) dims[nd++] = t->dims[d];
  TF_Tensor* out = mt_tensor_new(t->dtype, dims, nd, s);
  if (!out) return NULL;
  const int64_t row = t->dims[0] ? mt_tensor_nelems(t) / t->dims[0] : 0;
  const char* src = mt_tensor_data(t);
  mt_cu_copy_elems(mt_tensor_data(out), src + (size_t)(begin * row) * elem_size(t->dtype),
                   len * row, t->dtype);
  return out;
}

TF_Tensor* mt_cu_stack(mt_kernel_ctx* ctx, int idx, TF_DataType dtype, TF_Tensor* const* items,
                       int64_t n, const mt_shape* elem) {
  int64_t dims[MT_MAX_DIMS];
  if (elem->rank + 1 > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Stacked rank exceeds %d", MT_MAX_DIMS);
    return NULL;
  }
  dims[0] = n;
  for (int d = 0; d < elem->rank; d++) dims[d + 1] = elem->dims[d];
  TF_Tensor* out = mt_ctx_alloc(ctx, idx, dtype, dims, elem->rank + 1);
  if (!out) return NULL;
  const int64_t row = mt_shape_nelems(elem);
  const size_t es = elem_size(dtype);
  char* dst = mt_tensor_data(out);
  for (int64_t i = 0; i < n; i++, dst += (size_t)row * es) {
    if (items[i])
      mt_cu_copy_elems(dst, mt_tensor_data(items[i]), row, dtype);
    else if (dtype != TF_STRING && dtype != TF_VARIANT)
      memset(dst, 0, (size_t)row * es);
  }
  return out;
}
