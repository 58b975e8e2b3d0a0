/* Element-wise string ops (TensorFlow's string_length_op.cc, string_lower_op.cc,
 * string_upper_op.cc, string_strip_op.cc, substr_op.cc, string_to_number_op.cc,
 * as_string_op.cc): StringLength, StringLower, StringUpper, StringStrip,
 * Substr, StringToNumber, AsString. Case mapping is ASCII (encoding ''), as
 * TensorFlow's default; encoding 'utf-8' (ICU case mapping in TF) is
 * refused with Unimplemented. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/half.h"
#include "runtime/kernels/string/string_util.h"

int64_t mt_utf8_len(const char* s, size_t n) {
  int64_t c = 0;
  for (size_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xC0) != 0x80;
  return c;
}

static int is_utf8_unit(const mt_kernel_ctx* ctx) {
  const mt_attr_value* u = mt_op_attr(ctx->op, "unit");
  return u && u->v.s.len == 9 && memcmp(u->v.s.data, "UTF8_CHAR", 9) == 0;
}

/* ---- StringLength ---- */

static void length_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_INT32, in->dims, in->ndims);
  if (!out) return;
  const int utf8 = is_utf8_unit(ctx);
  const TF_TString* s = mt_str_in(in);
  int32_t* o = mt_tensor_data(out);
  const int64_t n = mt_tensor_nelems(in);
  for (int64_t i = 0; i < n; i++) {
    const size_t len = TF_StringGetSize(&s[i]);
    o[i] = (int32_t)(utf8 ? mt_utf8_len(TF_StringGetDataPointer(&s[i]), len) : (int64_t)len);
  }
}

/* ---- StringLower / StringUpper / StringStrip ---- */

/* Output i = f(input i) for a byte-preserving or shrinking transform done in a
 * scratch copy: mode 'l' lower, 'u' upper, 's' strip. */
static void transform(mt_kernel_ctx* ctx, char mode) {
  if (mode != 's') {
    const mt_attr_value* e = mt_op_attr(ctx->op, "encoding");
    if (e && e->v.s.len > 0) {
      mt_status_setf(ctx->status, TF_UNIMPLEMENTED,
                     "encoding '%s' is not supported by minitf's %s (only ASCII case mapping, "
                     "encoding '')",
                     e->v.s.data, mode == 'l' ? "StringLower" : "StringUpper");
      return;
    }
  }
  const TF_Tensor* in = ctx->inputs[0];
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_STRING, in->dims, in->ndims);
  if (!out) return;
  const TF_TString* s = mt_str_in(in);
  TF_TString* o = mt_str_out(out);
  const int64_t n = mt_tensor_nelems(in);
  char* buf = NULL;
  size_t cap = 0;
  for (int64_t i = 0; i < n; i++) {
    const char* p = TF_StringGetDataPointer(&s[i]);
    size_t len = TF_StringGetSize(&s[i]);
    if (mode == 's') {
      while (len > 0 && isspace((unsigned char)p[0])) p++, len--;
      while (len > 0 && isspace((unsigned char)p[len - 1])) len--;
      TF_StringCopy(&o[i], p, len);
      continue;
    }
    if (len > cap) {
      char* nb = realloc(buf, len);
      if (!nb) {
        mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "Out of memory");
        break;
      }
      buf = nb;
      cap = len;
    }
    for (size_t k = 0; k < len; k++)
      buf[k] = (char)(mode == 'l' ? tolower((unsigned char)p[k]) : toupper((unsigned char)p[k]));
    TF_StringCopy(&o[i], len ? buf : "", len);
  }
  free(buf);
}

static void lower_kernel(mt_kernel_ctx* ctx) { transform(ctx, 'l'); }
static void upper_kernel(mt_kernel_ctx* ctx) { transform(ctx, 'u'); }
static void strip_kernel(mt_kernel_ctx* ctx) { transform(ctx, 's'); }

/* ---- Substr ---- */

/* Offset of element e of a tensor of dims `d` (rank nd) broadcast to the
 * output dims `od` (rank ond). */
static int64_t bcast_offset(const int64_t* od, int ond, const int64_t* d, int nd, int64_t e) {
  int64_t off = 0, stride = 1;
  for (int k = ond - 1, j = nd - 1; k >= 0; k--, j--) {
    const int64_t idx = e % od[k];
    e /= od[k];
    if (j >= 0) {
      if (d[j] != 1) off += idx * stride;
      stride *= d[j];
    }
  }
  return off;
}

static int64_t int_at(const TF_Tensor* t, int64_t i) {
  return t->dtype == TF_INT64 ? ((const int64_t*)mt_tensor_data(t))[i]
                              : ((const int32_t*)mt_tensor_data(t))[i];
}

/* Byte offset of the start of UTF-8 character `k` of s (k <= count). */
static size_t utf8_offset(const char* s, size_t n, int64_t k) {
  size_t i = 0;
  while (k > 0 && i < n) {
    i++;
    while (i < n && ((unsigned char)s[i] & 0xC0) == 0x80) i++;
    k--;
  }
  return i;
}

static int substr_one(mt_kernel_ctx* ctx, const TF_TString* in, int64_t pos, int64_t len,
                      int utf8, int64_t index, TF_TString* out) {
  const char* p = TF_StringGetDataPointer(in);
  const size_t n = TF_StringGetSize(in);
  const int64_t units = utf8 ? mt_utf8_len(p, n) : (int64_t)n;
  const int64_t start = pos < 0 ? pos + units : pos;
  if (start < 0 || start > units) {
    /* TF's two wordings: the UTF-8 path leaves the string out. */
    if (utf8)
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "pos %lld out of range for string at index %lld", (long long)pos,
                     (long long)index);
    else
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "pos %lld out of range for string b'%.*s' at index %lld", (long long)pos,
                     (int)n, p, (long long)index);
    return 0;
  }
  /* A negative len means "to the end", as TF's size_t conversion does. */
  const int64_t count = len < 0 || len > units - start ? units - start : len;
  if (!utf8) {
    TF_StringCopy(out, p + start, (size_t)count);
    return 1;
  }
  const size_t b = utf8_offset(p, n, start);
  const size_t e = b + utf8_offset(p + b, n - b, count);
  TF_StringCopy(out, p + b, e - b);
  return 1;
}

static void substr_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_Tensor* pos = ctx->inputs[1];
  const TF_Tensor* len = ctx->inputs[2];
  char b1[128], b2[128];
  if (pos->ndims != len->ndims || memcmp(pos->dims, len->dims, sizeof(int64_t) * pos->ndims)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "pos and len should have the same shape, got: %s vs. %s",
                   mt_dims_str(pos->dims, pos->ndims, b1, sizeof b1),
                   mt_dims_str(len->dims, len->ndims, b2, sizeof b2));
    return;
  }
  mt_shape a = mt_shape_make(in->dims, in->ndims), b = mt_shape_make(pos->dims, pos->ndims), o;
  if (!mt_broadcast_shapes(&a, &b, &o, ctx->status)) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_STRING, o.dims, o.rank);
  if (!out) return;
  const int utf8 = is_utf8_unit(ctx);
  const int64_t n = mt_tensor_nelems(out);
  TF_TString* dst = mt_str_out(out);
  for (int64_t e = 0; e < n; e++) {
    const int64_t si = bcast_offset(o.dims, o.rank, in->dims, in->ndims, e);
    const int64_t pi = bcast_offset(o.dims, o.rank, pos->dims, pos->ndims, e);
    if (!substr_one(ctx, mt_str_in(in) + si, int_at(pos, pi), int_at(len, pi), utf8, e,
                    &dst[e]))
      return;
  }
}

static void substr_shape(mt_shape_ctx* ctx) {
  mt_shape pl;
  if (!mt_merge_shape(ctx, &ctx->in[1], &ctx->in[2], &pl)) return;
  mt_broadcast_shapes(&ctx->in[0], &pl, &ctx->out[0], ctx->status);
}

/* ---- StringToNumber ---- */

/* s without leading/trailing ASCII whitespace, NUL-terminated in buf (NULL
 * when too long to be a number). */
static const char* trimmed(const char* p, size_t n, char* buf, size_t cap) {
  while (n > 0 && isspace((unsigned char)*p)) p++, n--;
  while (n > 0 && isspace((unsigned char)p[n - 1])) n--;
  if (n >= cap || memchr(p, 0, n)) return NULL;
  memcpy(buf, p, n);
  buf[n] = 0;
  return buf;
}

static int parse_double(const char* s, double* v) {
  if (!s || !*s) return 0;
  char* end;
  *v = strtod(s, &end);
  return *end == 0;
}

static int parse_int(const char* s, int64_t lo, int64_t hi, int64_t* v) {
  if (!s || !*s || isspace((unsigned char)*s)) return 0;
  char* end;
  errno = 0;
  const long long x = strtoll(s, &end, 10);
  if (*end != 0 || errno == ERANGE || x < lo || x > hi) return 0;
  *v = x;
  return 1;
}

static int parse_uint(const char* s, uint64_t hi, uint64_t* v) {
  if (!s || !*s || *s == '-' || isspace((unsigned char)*s)) return 0;
  char* end;
  errno = 0;
  const unsigned long long x = strtoull(s, &end, 10);
  if (*end != 0 || errno == ERANGE || x > hi) return 0;
  *v = x;
  return 1;
}

static void to_number_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_DataType dt = mt_op_attr_type(ctx->op, "out_type", TF_FLOAT);
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, dt, in->dims, in->ndims);
  if (!out) return;
  const TF_TString* s = mt_str_in(in);
  const int64_t n = mt_tensor_nelems(in);
  void* o = mt_tensor_data(out);
  char buf[512];
  for (int64_t i = 0; i < n; i++) {
    const char* p = TF_StringGetDataPointer(&s[i]);
    const size_t len = TF_StringGetSize(&s[i]);
    const char* t = trimmed(p, len, buf, sizeof buf);
    double d;
    int64_t x;
    uint64_t u;
    int ok = 0;
    switch (dt) {
      case TF_FLOAT:
        if ((ok = parse_double(t, &d))) ((float*)o)[i] = (float)d;
        break;
      case TF_DOUBLE:
        if ((ok = parse_double(t, &d))) ((double*)o)[i] = d;
        break;
      case TF_INT32:
        if ((ok = parse_int(t, INT32_MIN, INT32_MAX, &x))) ((int32_t*)o)[i] = (int32_t)x;
        break;
      case TF_INT64:
        if ((ok = parse_int(t, INT64_MIN, INT64_MAX, &x))) ((int64_t*)o)[i] = x;
        break;
      case TF_UINT32:
        if ((ok = parse_uint(t, UINT32_MAX, &u))) ((uint32_t*)o)[i] = (uint32_t)u;
        break;
      default:
        if ((ok = parse_uint(t, UINT64_MAX, &u))) ((uint64_t*)o)[i] = u;
        break;
    }
    if (!ok) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "StringToNumberOp could not correctly convert string: %.*s", (int)len, p);
      return;
    }
  }
}

/* ---- AsString ---- */

static int is_float_type(TF_DataType dt) {
  return dt == TF_FLOAT || dt == TF_DOUBLE || dt == TF_HALF || dt == TF_BFLOAT16 ||
         dt == TF_COMPLEX64 || dt == TF_COMPLEX128;
}

/* The printf conversion for one value ("%05d", "%.2f", ...) with TF's checks
 * of the attrs; 0 + status when they do not fit the dtype. */
static int as_string_format(mt_kernel_ctx* ctx, TF_DataType dt, char* fmt, size_t cap) {
  const int64_t precision = mt_op_attr_int(ctx->op, "precision", -1);
  const int64_t width = mt_op_attr_int(ctx->op, "width", -1);
  const int sci = mt_op_attr_bool(ctx->op, "scientific", 0);
  const int shortest = mt_op_attr_bool(ctx->op, "shortest", 0);
  const mt_attr_value* fa = mt_op_attr(ctx->op, "fill");
  const char* fill = fa ? fa->v.s.data : "";
  const size_t fill_len = fa ? fa->v.s.len : 0;
  const char* name = mt_dtype_name(dt);
  if (!is_float_type(dt)) {
    if (sci || shortest) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "scientific and shortest format not supported for datatype %s", name);
      return 0;
    }
    if (precision > -1) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "precision not supported for datatype %s", name);
      return 0;
    }
  }
  if (fill_len > 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Fill string must be one or fewer characters");
    return 0;
  }
  if (sci && shortest) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Cannot select both scientific and shortest notation");
    return 0;
  }
  size_t k = (size_t)snprintf(fmt, cap, "%%");
  if (fill_len == 1) {
    if (!strchr(" +-0#", fill[0])) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Fill argument not supported: \"%s\"",
                     fill);
      return 0;
    }
    k += (size_t)snprintf(fmt + k, cap - k, "%c", fill[0]);
  }
  if (width > -1) k += (size_t)snprintf(fmt + k, cap - k, "%lld", (long long)width);
  if (precision > -1) k += (size_t)snprintf(fmt + k, cap - k, ".%lld", (long long)precision);
  const char* conv = "s";
  switch (dt) {
    case TF_INT64: conv = "lld"; break;
    case TF_UINT64: conv = "llu"; break;
    case TF_UINT32: conv = "u"; break;
    case TF_INT8: case TF_UINT8: case TF_INT16: case TF_UINT16: case TF_INT32: conv = "d"; break;
    default:
      if (is_float_type(dt)) conv = shortest ? "g" : sci ? "e" : "f";
  }
  snprintf(fmt + k, cap - k, "%s", conv);
  return 1;
}

static double real_at(const TF_Tensor* t, int64_t i) {
  const void* p = mt_tensor_data(t);
  switch (t->dtype) {
    case TF_FLOAT: return ((const float*)p)[i];
    case TF_DOUBLE: return ((const double*)p)[i];
    case TF_HALF: return mt_half_to_float(((const mt_half*)p)[i]);
    case TF_BFLOAT16: return mt_bfloat16_to_float(((const mt_bfloat16*)p)[i]);
    case TF_COMPLEX64: return ((const float*)p)[2 * i];
    default: return ((const double*)p)[2 * i];
  }
}

static double imag_at(const TF_Tensor* t, int64_t i) {
  const void* p = mt_tensor_data(t);
  return t->dtype == TF_COMPLEX64 ? ((const float*)p)[2 * i + 1] : ((const double*)p)[2 * i + 1];
}

static long long sint_at(const TF_Tensor* t, int64_t i) {
  const void* p = mt_tensor_data(t);
  switch (t->dtype) {
    case TF_INT8: return ((const int8_t*)p)[i];
    case TF_UINT8: return ((const uint8_t*)p)[i];
    case TF_INT16: return ((const int16_t*)p)[i];
    case TF_UINT16: return ((const uint16_t*)p)[i];
    case TF_INT32: return ((const int32_t*)p)[i];
    case TF_UINT32: return ((const uint32_t*)p)[i];
    default: return ((const int64_t*)p)[i];
  }
}

static void as_string_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_DataType dt = in->dtype;
  if (dt == TF_VARIANT) {
    mt_kernel_unsupported(ctx, "T", dt);
    return;
  }
  char fmt[64];
  if (!as_string_format(ctx, dt, fmt, sizeof fmt)) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_STRING, in->dims, in->ndims);
  if (!out) return;
  const int64_t n = mt_tensor_nelems(in);
  TF_TString* o = mt_str_out(out);
  char cfmt[160];
  snprintf(cfmt, sizeof cfmt, "(%s,%s)", fmt, fmt);
  for (int64_t i = 0; i < n; i++) {
    char small[512];
    char* s = small;
    int len;
    if (dt == TF_BOOL) {
      const int v = ((const unsigned char*)mt_tensor_data(in))[i];
      len = snprintf(s, sizeof small, "%s", v ? "true" : "false");
    } else if (dt == TF_STRING) {
      const TF_TString* t = mt_str_in(in) + i;
      const size_t tn = TF_StringGetSize(t);
      const int64_t width = mt_op_attr_int(ctx->op, "width", -1);
      const size_t w = width > (int64_t)tn ? (size_t)width : tn;
      s = malloc(w + 1);
      if (!s) {
        mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "Out of memory");
        return;
      }
      const mt_attr_value* fa = mt_op_attr(ctx->op, "fill");
      const int left = fa && fa->v.s.len == 1 && fa->v.s.data[0] == '-';
      const size_t padn = w - tn;
      if (left) {
        memcpy(s, TF_StringGetDataPointer(t), tn);
        memset(s + tn, ' ', padn);
      } else {
        memset(s, ' ', padn);
        memcpy(s + padn, TF_StringGetDataPointer(t), tn);
      }
      len = (int)w;
    } else if (dt == TF_COMPLEX64 || dt == TF_COMPLEX128) {
      len = snprintf(s, sizeof small, cfmt, real_at(in, i), imag_at(in, i));
    } else if (is_float_type(dt)) {
      len = snprintf(s, sizeof small, fmt, real_at(in, i));
    } else if (dt == TF_UINT64) {
      len = snprintf(s, sizeof small, fmt,
                     (unsigned long long)((const uint64_t*)mt_tensor_data(in))[i]);
    } else if (dt == TF_INT64) {
      len = snprintf(s, sizeof small, fmt, sint_at(in, i));
    } else {
      len = snprintf(s, sizeof small, fmt, (int)sint_at(in, i));
    }
    if (len >= (int)sizeof small && s == small) len = (int)sizeof small - 1;
    TF_StringCopy(&o[i], s, (size_t)len);
    if (s != small) free(s);
  }
}

#define STR_TYPES "float, double, int32, int64, uint32, uint64"

static const mt_op_spec basic_ops[] = {
    {.name = "StringLength",
     .inputs = "input: string",
     .outputs = "output: int32",
     .attrs = "unit: {'BYTE', 'UTF8_CHAR'} = 'BYTE'",
     .shape = mt_unchanged_shape,
     .kernel = length_kernel},
    {.name = "StringLower",
     .inputs = "input: string",
     .outputs = "output: string",
     .attrs = "encoding: string = ''",
     .shape = mt_unchanged_shape,
     .kernel = lower_kernel},
    {.name = "StringUpper",
     .inputs = "input: string",
     .outputs = "output: string",
     .attrs = "encoding: string = ''",
     .shape = mt_unchanged_shape,
     .kernel = upper_kernel},
    {.name = "StringStrip",
     .inputs = "input: string",
     .outputs = "output: string",
     .shape = mt_unchanged_shape,
     .kernel = strip_kernel},
    {.name = "Substr",
     .inputs = "input: string, pos: T, len: T",
     .outputs = "output: string",
     .attrs = "T: {int32, int64}; unit: {'BYTE', 'UTF8_CHAR'} = 'BYTE'",
     .shape = substr_shape,
     .kernel = substr_kernel},
    {.name = "StringToNumber",
     .inputs = "string_tensor: string",
     .outputs = "output: out_type",
     .attrs = "out_type: {" STR_TYPES "} = DT_FLOAT",
     .shape = mt_unchanged_shape,
     .kernel = to_number_kernel},
    {.name = "AsString",
     .inputs = "input: T",
     .outputs = "output: string",
     .attrs = "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, "
              "uint32, uint64, complex64, complex128, bool, variant, string}; "
              "precision: int = -1; scientific: bool = false; shortest: bool = false; "
              "width: int = -1; fill: string = ''",
     .shape = mt_unchanged_shape,
     .kernel = as_string_kernel},
};

void mt_register_string_basic_ops(void) {
  mt_register_ops(basic_ops, (int)(sizeof basic_ops / sizeof basic_ops[0]));
}
