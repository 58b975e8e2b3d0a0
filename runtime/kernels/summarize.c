/* Tensor values as text, TensorFlow's Tensor::SummarizeValue (see
 * summarize.h). */
#include "runtime/kernels/summarize.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/half.h"
#include "runtime/tensor.h"

void mt_sb_add(mt_strbuf* b, const char* s, size_t n) {
  if (b->failed) return;
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 256;
    while (cap < b->len + n + 1) cap *= 2;
    char* p = realloc(b->s, cap);
    if (!p) {
      b->failed = 1;
      return;
    }
    b->s = p;
    b->cap = cap;
  }
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = '\0';
}

void mt_sb_str(mt_strbuf* b, const char* s) { mt_sb_add(b, s, strlen(s)); }

const char* mt_fmt_float(float f, char* buf, size_t cap) {
  if (isnan(f)) return snprintf(buf, cap, "nan"), buf;
  if (isinf(f)) return snprintf(buf, cap, f < 0 ? "-inf" : "inf"), buf;
  snprintf(buf, cap, "%.*g", FLT_DIG, (double)f);
  if (strtof(buf, NULL) != f) snprintf(buf, cap, "%.*g", FLT_DIG + 3, (double)f);
  return buf;
}

const char* mt_fmt_double(double f, char* buf, size_t cap) {
  if (isnan(f)) return snprintf(buf, cap, "nan"), buf;
  if (isinf(f)) return snprintf(buf, cap, f < 0 ? "-inf" : "inf"), buf;
  snprintf(buf, cap, "%.*g", DBL_DIG, f);
  if (strtod(buf, NULL) != f) snprintf(buf, cap, "%.*g", DBL_DIG + 2, f);
  return buf;
}

void mt_sb_cescape(mt_strbuf* b, const char* s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    const unsigned char c = (unsigned char)s[i];
    char e[8];
    switch (c) {
      case '\n': mt_sb_str(b, "\\n"); break;
      case '\r': mt_sb_str(b, "\\r"); break;
      case '\t': mt_sb_str(b, "\\t"); break;
      case '\"': mt_sb_str(b, "\\\""); break;
      case '\'': mt_sb_str(b, "\\'"); break;
      case '\\': mt_sb_str(b, "\\\\"); break;
      default:
        if (c < 0x20 || c == 0x7f) {
          snprintf(e, sizeof e, "\\%03o", c);
          mt_sb_str(b, e);
        } else {
          mt_sb_add(b, (const char*)&c, 1);
        }
    }
  }
}

/* The types SummarizeValue prints element by element; others print "?". */
static int printable(TF_DataType dt) {
  switch (dt) {
    case TF_FLOAT: case TF_HALF: case TF_BFLOAT16: case TF_DOUBLE: case TF_INT8:
    case TF_INT16: case TF_INT32: case TF_INT64: case TF_UINT8: case TF_UINT16:
    case TF_UINT32: case TF_UINT64: case TF_BOOL: case TF_STRING: case TF_QINT8:
    case TF_QUINT8: case TF_QINT16: case TF_QUINT16:
      return 1;
    default: return 0;
  }
}

/* One element (PrintOneElement): v2 quotes strings. */
static void sb_elem(mt_strbuf* b, const TF_Tensor* t, int64_t i, int print_v2) {
  const void* p = mt_tensor_data(t);
  char buf[64];
  switch (t->dtype) {
    case TF_FLOAT: mt_fmt_float(((const float*)p)[i], buf, sizeof buf); break;
    case TF_HALF: mt_fmt_float(mt_half_to_float(((const mt_half*)p)[i]), buf, sizeof buf); break;
    case TF_BFLOAT16:
      mt_fmt_float(mt_bfloat16_to_float(((const mt_bfloat16*)p)[i]), buf, sizeof buf);
      break;
    case TF_DOUBLE: mt_fmt_double(((const double*)p)[i], buf, sizeof buf); break;
    case TF_INT8: case TF_QINT8: snprintf(buf, sizeof buf, "%d", ((const int8_t*)p)[i]); break;
    case TF_INT16: case TF_QINT16:
      snprintf(buf, sizeof buf, "%d", ((const int16_t*)p)[i]);
      break;
    case TF_INT32: snprintf(buf, sizeof buf, "%d", ((const int32_t*)p)[i]); break;
    case TF_INT64: snprintf(buf, sizeof buf, "%lld", (long long)((const int64_t*)p)[i]); break;
    case TF_UINT8: case TF_QUINT8:
      snprintf(buf, sizeof buf, "%u", ((const uint8_t*)p)[i]);
      break;
    case TF_UINT16: case TF_QUINT16:
      snprintf(buf, sizeof buf, "%u", ((const uint16_t*)p)[i]);
      break;
    case TF_UINT32: snprintf(buf, sizeof buf, "%u", ((const uint32_t*)p)[i]); break;
    case TF_UINT64:
      snprintf(buf, sizeof buf, "%llu", (unsigned long long)((const uint64_t*)p)[i]);
      break;
    case TF_BOOL: snprintf(buf, sizeof buf, "%d", ((const uint8_t*)p)[i] ? 1 : 0); break;
    case TF_STRING: {
      const TF_TString* s = (const TF_TString*)p + i;
      if (print_v2) mt_sb_str(b, "\"");
      mt_sb_cescape(b, TF_StringGetDataPointer(s), TF_StringGetSize(s));
      if (print_v2) mt_sb_str(b, "\"");
      return;
    }
    default: snprintf(buf, sizeof buf, "?"); break;
  }
  mt_sb_str(b, buf);
}

/* v1 (PrintOneDim): the first `limit` elements in order, nested brackets. */
static void sb_dim_v1(mt_strbuf* b, const TF_Tensor* t, int d, int64_t limit, int64_t* at) {
  if (*at >= limit) return;
  const int64_t count = t->dims[d];
  if (d == t->ndims - 1) {
    for (int64_t i = 0; i < count; i++) {
      if (*at >= limit) {
        if (d != 0) mt_sb_str(b, "...");
        return;
      }
      if (i > 0) mt_sb_str(b, " ");
      sb_elem(b, t, (*at)++, 0);
    }
    return;
  }
  for (int64_t i = 0; i < count; i++) {
    int open = 0;
    if (*at < limit) {
      mt_sb_str(b, "[");
      open = 1;
    }
    sb_dim_v1(b, t, d + 1, limit, at);
    if (*at < limit || open) mt_sb_str(b, "]");
  }
}

/* Between two entries of dimension d: a space in the last dimension,
 * else one newline per inner dimension and d + 1 spaces (PrintDimSpacing). */
static void sb_spacing(mt_strbuf* b, int d, int ndims) {
  if (d == ndims - 1) {
    mt_sb_str(b, " ");
    return;
  }
  for (int j = 0; j < ndims - d - 1; j++) mt_sb_str(b, "\n");
  for (int j = 0; j <= d; j++) mt_sb_str(b, " ");
}

/* v2 (PrintOneDimV2): `ends` entries at each end of every dimension. */
static void sb_dim_v2(mt_strbuf* b, const TF_Tensor* t, int d, int64_t ends, int64_t base) {
  if (d == t->ndims) {
    sb_elem(b, t, base, 1);
    return;
  }
  mt_sb_str(b, "[");
  const int64_t count = t->dims[d];
  const int64_t start_of_end = ends > count - ends ? ends : count - ends;
  int64_t stride = 1;
  for (int k = d + 1; k < t->ndims; k++) stride *= t->dims[k];
  for (int64_t i = 0; i < ends && i < count; i++) {
    if (i > 0) sb_spacing(b, d, t->ndims);
    sb_dim_v2(b, t, d + 1, ends, base + stride * i);
  }
  if (count > 2 * ends) {
    sb_spacing(b, d, t->ndims);
    mt_sb_str(b, "...");
  }
  for (int64_t i = start_of_end; i < count; i++) {
    sb_spacing(b, d, t->ndims);
    sb_dim_v2(b, t, d + 1, ends, base + stride * i);
  }
  mt_sb_str(b, "]");
}

/* Types without an element printer: "?" per element (the resource and
 * variant forms are not produced here). */
static void sb_unprintable(mt_strbuf* b, const TF_Tensor* t, int64_t max_entries, int64_t limit,
                           int print_v2) {
  const int64_t n = mt_tensor_nelems(t);
  if (print_v2 && t->ndims > 0) mt_sb_str(b, "[");
  for (int64_t i = 0; i < limit; i++) mt_sb_str(b, i > 0 ? " ?" : "?");
  if (max_entries < n) mt_sb_str(b, "...");
  if (print_v2 && t->ndims > 0) mt_sb_str(b, "]");
}

void mt_summarize(mt_strbuf* b, const TF_Tensor* t, int64_t max_entries, int print_v2) {
  const int64_t n = mt_tensor_nelems(t);
  if (max_entries < 0) max_entries = n;
  const int64_t limit = max_entries < n ? max_entries : n;
  if (!printable(t->dtype)) {
    sb_unprintable(b, t, max_entries, limit, print_v2);
    return;
  }
  if (t->ndims == 0) {
    for (int64_t i = 0; i < limit; i++) {
      if (i > 0) mt_sb_str(b, " ");
      sb_elem(b, t, i, print_v2);
    }
    if (n > limit) mt_sb_str(b, "...");
    return;
  }
  if (print_v2) {
    sb_dim_v2(b, t, 0, limit, 0);
    return;
  }
  int64_t at = 0;
  sb_dim_v1(b, t, 0, limit, &at);
  if (n > limit) mt_sb_str(b, "...");
}
