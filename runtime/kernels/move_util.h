/* Helpers for kernels that only move elements (slicing, gathering,
 * padding, space/batch/depth rearrangements): they work on the element
 * size, so one loop serves every fixed-size dtype, and deep-copy TF_STRING
 * elements. Shared by indexing_ops.c and space_ops.c; all thread-safe. */
#ifndef MINITF_RUNTIME_KERNELS_MOVE_UTIL_H_
#define MINITF_RUNTIME_KERNELS_MOVE_UTIL_H_

#include <string.h>

#include "runtime/kernels/kernel_util.h"

/* Bytes per element of a dtype a mover handles; 0 for resource/variant
 * (no kernel). */
static inline size_t mv_esize(TF_DataType dt) {
  if (dt == TF_RESOURCE || dt == TF_VARIANT) return 0;
  return TF_DataTypeSize(dt);
}

/* Copies n contiguous elements from src element si to dst element di.
 * Strings are deep-copied (dst elements must be initialized, as
 * mt_tensor_new leaves them). */
static inline void mv_copy(TF_Tensor* dst, int64_t di, const TF_Tensor* src, int64_t si,
                           int64_t n) {
  if (n <= 0) return;
  if (dst->dtype == TF_STRING) {
    TF_TString* d = (TF_TString*)mt_tensor_data(dst) + di;
    const TF_TString* s = (const TF_TString*)mt_tensor_data(src) + si;
    for (int64_t i = 0; i < n; i++)
      TF_StringCopy(&d[i], TF_StringGetDataPointer(&s[i]), TF_StringGetSize(&s[i]));
    return;
  }
  const size_t es = TF_DataTypeSize(dst->dtype);
  memcpy((char*)mt_tensor_data(dst) + (size_t)di * es,
         (const char*)mt_tensor_data(src) + (size_t)si * es, (size_t)n * es);
}

/* Fills n elements of dst from element 0 of `value` (a scalar). */
static inline void mv_fill(TF_Tensor* dst, int64_t di, const TF_Tensor* value, int64_t n) {
  if (n <= 0) return;
  if (dst->dtype == TF_STRING) {
    const TF_TString* s = (const TF_TString*)mt_tensor_data(value);
    TF_TString* d = (TF_TString*)mt_tensor_data(dst) + di;
    for (int64_t i = 0; i < n; i++)
      TF_StringCopy(&d[i], TF_StringGetDataPointer(s), TF_StringGetSize(s));
    return;
  }
  const size_t es = TF_DataTypeSize(dst->dtype);
  char* d = (char*)mt_tensor_data(dst) + (size_t)di * es;
  const char* v = mt_tensor_data(value);
  int all_zero = 1;
  for (size_t b = 0; b < es; b++) all_zero &= v[b] == 0;
  if (all_zero) {
    memset(d, 0, (size_t)n * es);
    return;
  }
  for (int64_t i = 0; i < n; i++) memcpy(d + (size_t)i * es, v, es);
}

/* Fills n elements with zero bytes (0, 0.0, false; strings stay empty). */
static inline void mv_zero(TF_Tensor* dst, int64_t di, int64_t n) {
  if (n <= 0 || dst->dtype == TF_STRING) return;
  const size_t es = TF_DataTypeSize(dst->dtype);
  memset((char*)mt_tensor_data(dst) + (size_t)di * es, 0, (size_t)n * es);
}

/* Row-major strides (in elements) of dims. */
static inline void mv_strides(const int64_t* dims, int n, int64_t* strides) {
  int64_t s = 1;
  for (int d = n - 1; d >= 0; d--) {
    strides[d] = s;
    s *= dims[d];
  }
}

/* Advances a row-major multi-index over dims[0..n) by one, innermost first;
 * returns 0 when it wraps around. */
static inline int mv_next(int64_t* idx, const int64_t* dims, int n) {
  for (int d = n - 1; d >= 0; d--) {
    if (++idx[d] < dims[d]) return 1;
    idx[d] = 0;
  }
  return 0;
}

/* 1 if `dt` is an index dtype among int16/int32/int64 (what mt_tensor_ints
 * reads). */
static inline int mv_is_index(TF_DataType dt) {
  return dt == TF_INT16 || dt == TF_INT32 || dt == TF_INT64;
}

/* Reads element i of an int16/int32/int64/uint8/int8 tensor. */
static inline int64_t mv_int_at(const TF_Tensor* t, int64_t i) {
  const void* d = mt_tensor_data(t);
  switch (t->dtype) {
    case TF_INT8: return ((const int8_t*)d)[i];
    case TF_UINT8: return ((const uint8_t*)d)[i];
    case TF_INT16: return ((const int16_t*)d)[i];
    case TF_INT32: return ((const int32_t*)d)[i];
    case TF_INT64: return ((const int64_t*)d)[i];
    default: return 0;
  }
}

#endif
