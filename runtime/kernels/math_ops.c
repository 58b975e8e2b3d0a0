/* Math ops: elementwise binary arithmetic and comparisons, Cast, AddN,
 * Select/SelectV2, ClipByValue and MatMul. Signatures, attrs and CPU dtypes
 * are TensorFlow's (math_ops.cc / cwise_op_*.cc / cast_op.cc /
 * matmul_op.cc). float16/bfloat16 compute in float (kernel_util.h). */
#include <cblas.h>
#include <complex.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/list_ops.h"

/* ---- elementwise binary: arithmetic ---- */

/* Integer arithmetic goes through W so that overflow wraps (as in
 * TensorFlow) instead of being undefined behaviour. */
MT_BINARY_OP(add, MT_NUMBER_TYPES, (T)((W)x + (W)y))
MT_BINARY_OP(sub, MT_NUMBER_TYPES, (T)((W)x - (W)y))
MT_BINARY_OP(mul, MT_NUMBER_TYPES, (T)((W)x * (W)y))

/* Real and complex division (TensorFlow has no CPU kernel for integers). */
#define MT_FLOATING_COMPLEX_TYPES(X, ...) \
  MT_FLOATING_TYPES(X, __VA_ARGS__) MT_COMPLEX_TYPES(X, __VA_ARGS__)
MT_BINARY_OP(realdiv, MT_FLOATING_COMPLEX_TYPES, x / y)
/* 0 where y == 0 (even for x NaN/Inf), else x / y. */
MT_BINARY_OP(divnonan, MT_FLOATING_COMPLEX_TYPES, y == 0 ? (T)0 : x / y)

/* Div: true division for floats, C (truncating) division for integers,
 * failing on a zero divisor like TensorFlow's safe_div. INT_MIN / -1 wraps. */
#define INT_DIV_S_(x, y) (y == 0 ? (err = 1, (T)0) : y == -1 ? (T)((W)0 - (W)x) : (T)(x / y))
#define INT_DIV_U_(x, y) (y == 0 ? (err = 1, (T)0) : (T)(x / y))
MT_BINARY_LOOPS(div_f, MT_FLOATING_COMPLEX_TYPES, x / y)
MT_BINARY_LOOPS(div_s, MT_SINT_TYPES, INT_DIV_S_(x, y))
MT_BINARY_LOOPS(div_u, MT_UINT_TYPES, INT_DIV_U_(x, y))
static const mt_binary_fn div_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(div_f, MT_FLOATING_COMPLEX_TYPES) MT_ENTRIES(div_s, MT_SINT_TYPES)
        MT_ENTRIES(div_u, MT_UINT_TYPES)};
MT_BINARY_KERNEL(div, div_fns, "Integer division by zero")

/* TruncateDiv: like Div for integers, trunc(x / y) for floats. A zero
 * integer divisor is an Internal error in TensorFlow (its functor does not
 * declare the error), with this message. */
#define TRUNCATEDIV_ERR "Unexpected error in binary operator (only integer div and mod should have errors)"
MT_BINARY_LOOPS(truncatediv_f, MT_FLOATING_TYPES, trunc(x / y))
static const mt_binary_fn truncatediv_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(truncatediv_f, MT_FLOATING_TYPES) MT_ENTRIES(div_s, MT_SINT_TYPES)
        MT_ENTRIES(div_u, MT_UINT_TYPES)};
static void truncatediv_kernel(mt_kernel_ctx* ctx) {
  mt_binary_run(ctx, truncatediv_fns, (TF_DataType)0, TRUNCATEDIV_ERR);
  if (TF_GetCode(ctx->status) == TF_INVALID_ARGUMENT &&
      strcmp(TF_Message(ctx->status), TRUNCATEDIV_ERR) == 0)
    mt_status_setf(ctx->status, TF_INTERNAL, "%s", TRUNCATEDIV_ERR);
}

/* FloorDiv/FloorMod (TensorFlow's google_floor_div / google_floor_fmod):
 * the quotient rounds toward -inf, the remainder takes the divisor's sign. */
static inline double floor_mod_d(double x, double y) {
  const double r = fmod(x, y);
  return (r != 0 && ((y < 0) != (r < 0))) ? r + y : r;
}
MT_BINARY_LOOPS(floordiv_f, MT_FLOATING_TYPES, floor(x / y))
MT_BINARY_LOOPS(floordiv_s, MT_SINT_TYPES,
                y == 0    ? (err = 1, (T)0)
                : y == -1 ? (T)((W)0 - (W)x)
                          : (T)(x / y - ((x % y != 0) && ((x < 0) != (y < 0)))))
static const mt_binary_fn floordiv_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(floordiv_f, MT_FLOATING_TYPES) MT_ENTRIES(floordiv_s, MT_SINT_TYPES)
        MT_ENTRIES(div_u, MT_UINT_TYPES)};
MT_BINARY_KERNEL(floordiv, floordiv_fns, "Integer division by zero")

MT_BINARY_LOOPS(floormod_f, MT_FLOATING_TYPES, (T)floor_mod_d(x, y))
MT_BINARY_LOOPS(floormod_s, MT_SINT_TYPES,
                y == 0    ? (err = 1, (T)0)
                : y == -1 ? (T)0
                          : (T)(x % y + ((x % y != 0 && ((x % y < 0) != (y < 0))) ? y : 0)))
MT_BINARY_LOOPS(floormod_u, MT_UINT_TYPES, y == 0 ? (err = 1, (T)0) : (T)(x % y))
static const mt_binary_fn floormod_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(floormod_f, MT_FLOATING_TYPES) MT_ENTRIES(floormod_s, MT_SINT_TYPES)
        MT_ENTRIES(floormod_u, MT_UINT_TYPES)};
MT_BINARY_KERNEL(floormod, floormod_fns, "Integer division by zero")

/* MulNoNan: 0 where y is 0, even for an inf or NaN x. */
MT_BINARY_OP(mulnonan, MT_FLOATING_COMPLEX_TYPES, y == 0 ? (T)0 : x * y)

/* TruncateMod: C's remainder (sign of x); fmod for floats. A zero integer
 * divisor fails as TruncateDiv's (TensorFlow's functor declares no error). */
#define TRUNCMOD_TYPES(X, ...) X(TF_INT32, int32_t, __VA_ARGS__) X(TF_INT64, int64_t, __VA_ARGS__)
MT_BINARY_LOOPS(truncatemod_f, MT_FLOATING_TYPES, (T)fmod(x, y))
MT_BINARY_LOOPS(truncatemod_i, TRUNCMOD_TYPES, y == 0 ? (err = 1, (T)0) : y == -1 ? (T)0 : (T)(x % y))
static const mt_binary_fn truncatemod_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(truncatemod_f, MT_FLOATING_TYPES) MT_ENTRIES(truncatemod_i, TRUNCMOD_TYPES)};
static void truncatemod_kernel(mt_kernel_ctx* ctx) {
  mt_binary_run(ctx, truncatemod_fns, (TF_DataType)0, TRUNCATEDIV_ERR);
  if (TF_GetCode(ctx->status) == TF_INVALID_ARGUMENT &&
      strcmp(TF_Message(ctx->status), TRUNCATEDIV_ERR) == 0)
    mt_status_setf(ctx->status, TF_INTERNAL, "%s", TRUNCATEDIV_ERR);
}

/* NextAfter: the next representable value after x1 towards x2. */
MT_BINARY_OP(nextafter, MT_FLOAT_TYPES, _Generic((x), float: nextafterf, default: nextafter)(x, y))

/* Maximum/Minimum propagate NaN (TensorFlow uses Eigen's PropagateNaN). */
MT_BINARY_LOOPS(maximum_f, MT_FLOATING_TYPES, x != x ? x : y != y ? y : x > y ? x : y)
MT_BINARY_LOOPS(maximum_i, MT_INT_TYPES, x > y ? x : y)
static const mt_binary_fn maximum_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(maximum_f, MT_FLOATING_TYPES) MT_ENTRIES(maximum_i, MT_INT_TYPES)};
MT_BINARY_KERNEL(maximum, maximum_fns, NULL)
MT_BINARY_LOOPS(minimum_f, MT_FLOATING_TYPES, x != x ? x : y != y ? y : x < y ? x : y)
MT_BINARY_LOOPS(minimum_i, MT_INT_TYPES, x < y ? x : y)
static const mt_binary_fn minimum_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(minimum_f, MT_FLOATING_TYPES) MT_ENTRIES(minimum_i, MT_INT_TYPES)};
MT_BINARY_KERNEL(minimum, minimum_fns, NULL)

/* Integer powers by squaring in the wrapping type W; negative exponents
 * are an error, as in TensorFlow. */
static inline uint64_t ipow_u64(uint64_t base, int64_t e) {
  uint64_t r = 1;
  for (; e > 0; e >>= 1, base *= base)
    if (e & 1) r *= base;
  return r;
}
MT_BINARY_LOOPS(pow_f, MT_FLOATING_TYPES, (T)pow(x, y))
MT_BINARY_LOOPS(pow_i, MT_SINT_TYPES, y < 0 ? (err = 1, (T)0) : (T)ipow_u64((uint64_t)(W)x, y))
MT_BINARY_LOOPS(pow_c, MT_COMPLEX_TYPES, (T)cpow(x, y))
static const mt_binary_fn pow_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(pow_f, MT_FLOATING_TYPES) MT_ENTRIES(pow_i, MT_SINT_TYPES)
        MT_ENTRIES(pow_c, MT_COMPLEX_TYPES)};
MT_BINARY_KERNEL(pow, pow_fns, "Integers to negative integer powers are not allowed")

/* (x - y) * conj(x - y); integers wrap. */
MT_BINARY_LOOPS(sqdiff_f, MT_FLOATING_TYPES, (x - y) * (x - y))
MT_BINARY_LOOPS(sqdiff_i, MT_SINT_TYPES, (T)(((W)x - (W)y) * ((W)x - (W)y)))
MT_BINARY_LOOPS(sqdiff_c, MT_COMPLEX_TYPES, (x - y) * conj(x - y))
static const mt_binary_fn sqdiff_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(sqdiff_f, MT_FLOATING_TYPES) MT_ENTRIES(sqdiff_i, MT_SINT_TYPES)
        MT_ENTRIES(sqdiff_c, MT_COMPLEX_TYPES)};
MT_BINARY_KERNEL(sqdiff, sqdiff_fns, NULL)

MT_BINARY_OP(atan2, MT_FLOATING_TYPES, (T)atan2(x, y))

/* ---- elementwise binary: comparisons, logical, bitwise ---- */

MT_COMPARE_OP(less, MT_REALNUMBER_TYPES, x < y)
MT_COMPARE_OP(less_equal, MT_REALNUMBER_TYPES, x <= y)
MT_COMPARE_OP(greater, MT_REALNUMBER_TYPES, x > y)
MT_COMPARE_OP(greater_equal, MT_REALNUMBER_TYPES, x >= y)
MT_COMPARE_OP(logical_and, MT_BOOL_TYPES, x && y)
MT_COMPARE_OP(logical_or, MT_BOOL_TYPES, x || y)
MT_BINARY_OP(bitwise_and, MT_INT_TYPES, x & y)
MT_BINARY_OP(bitwise_or, MT_INT_TYPES, x | y)
MT_BINARY_OP(bitwise_xor, MT_INT_TYPES, x ^ y)
/* The shift clamped to [0, bits - 1] and done unsigned, as TensorFlow's
 * left_shift_op (so 5 << 9 in int8 is 5 << 7 = -128). */
MT_BINARY_OP(left_shift, MT_INT_TYPES,
             (T)((W)x << (y > 0 ? ((uint64_t)y >= 8 * sizeof(T) ? 8 * sizeof(T) - 1
                                                                 : (uint64_t)y)
                                : 0)))

MT_BINARY_LOOPS_BOOL(equal, MT_ALL_POD_TYPES, x == y)
static const mt_binary_fn equal_fns[MT_NUM_DTYPES] = {MT_ENTRIES(equal, MT_ALL_POD_TYPES)};
MT_BINARY_LOOPS_BOOL(not_equal, MT_ALL_POD_TYPES, x != y)
static const mt_binary_fn not_equal_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(not_equal, MT_ALL_POD_TYPES)};

/* Calls fn(a, b, arg) for each output element of the broadcast of two
 * string tensors, in order (strings have no fixed-size loops). */
static void string_bcast_each(const mt_bcast* b, const TF_Tensor* x, const TF_Tensor* y,
                              int (*fn)(const TF_TString*, const TF_TString*, int64_t, void*),
                              void* arg) {
  const TF_TString* xs = mt_tensor_data(x);
  const TF_TString* ys = mt_tensor_data(y);
  const int64_t inner = b->dims[b->ndims - 1];
  const int xin = b->xstr[b->ndims - 1] != 0, yin = b->ystr[b->ndims - 1] != 0;
  mt_bcast_pos p;
  mt_bcast_seek(b, &p, 0);
  for (int64_t i = 0; i < b->n; i++) {
    if (!fn(xs + p.xrow + (xin ? p.col : 0), ys + p.yrow + (yin ? p.col : 0), i, arg)) return;
    if (++p.col == inner) mt_bcast_next_row(b, &p);
  }
}

typedef struct string_cmp_arg {
  mt_bool* out;
  int want_equal;
} string_cmp_arg;

static int string_cmp_one(const TF_TString* a, const TF_TString* c, int64_t i, void* argv) {
  string_cmp_arg* arg = argv;
  const size_t la = TF_StringGetSize(a), lc = TF_StringGetSize(c);
  const int eq = la == lc && memcmp(TF_StringGetDataPointer(a), TF_StringGetDataPointer(c), la) == 0;
  arg->out[i] = eq == arg->want_equal;
  return 1;
}

/* Equal/NotEqual: any dtype (strings compare bytes). With
 * incompatible_shape_error=false, shapes that do not broadcast give a
 * scalar false (Equal) or true (NotEqual), as TensorFlow. */
static void equality_run(mt_kernel_ctx* ctx, const mt_binary_fn* fns, int want_equal) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_Tensor* y = ctx->inputs[1];
  mt_bcast b;
  TF_Status* tmp = TF_NewStatus();
  const int ok = mt_bcast_init(&b, x->dims, x->ndims, y->dims, y->ndims, tmp);
  TF_DeleteStatus(tmp);
  if (!ok && !mt_op_attr_bool(ctx->op, "incompatible_shape_error", 1)) {
    TF_Tensor* z = mt_ctx_alloc(ctx, 0, TF_BOOL, NULL, 0);
    if (z) *(mt_bool*)mt_tensor_data(z) = !want_equal;
    return;
  }
  if (x->dtype != TF_STRING || y->dtype != TF_STRING) {
    mt_binary_run(ctx, fns, TF_BOOL, NULL);
    return;
  }
  if (!mt_bcast_init(&b, x->dims, x->ndims, y->dims, y->ndims, ctx->status)) return;
  TF_Tensor* z = mt_ctx_alloc(ctx, 0, TF_BOOL, b.out_dims, b.out_ndims);
  if (!z || b.n == 0) return;
  string_cmp_arg arg = {mt_tensor_data(z), want_equal};
  string_bcast_each(&b, x, y, string_cmp_one, &arg);
}

static void equal_kernel(mt_kernel_ctx* ctx) { equality_run(ctx, equal_fns, 1); }
static void not_equal_kernel(mt_kernel_ctx* ctx) { equality_run(ctx, not_equal_fns, 0); }

/* Shape function of Equal/NotEqual: broadcasting; with
 * incompatible_shape_error=false a known clash gives a scalar and an
 * unknown dim against a known one > 1 gives an unknown shape (TensorFlow's
 * BroadcastBinaryOpOutputShapeFnHelper). */
static void equality_shape(mt_shape_ctx* ctx) {
  if (mt_op_attr_bool(ctx->op, "incompatible_shape_error", 1)) {
    mt_binary_shape(ctx);
    return;
  }
  const mt_shape* x = &ctx->in[0];
  const mt_shape* y = &ctx->in[1];
  mt_shape* out = &ctx->out[0];
  if (x->rank < 0 || y->rank < 0) {
    *out = mt_shape_unknown();
    return;
  }
  const int nd = x->rank > y->rank ? x->rank : y->rank;
  out->rank = nd;
  for (int i = 0; i < nd; i++) {
    const int64_t xd = i >= nd - x->rank ? x->dims[i - (nd - x->rank)] : 1;
    const int64_t yd = i >= nd - y->rank ? y->dims[i - (nd - y->rank)] : 1;
    if (xd == 1 || yd == 1) {
      out->dims[i] = xd == 1 ? yd : xd;
    } else if (xd < 0 && yd < 0) {
      out->dims[i] = -1;
    } else if (xd < 0 || yd < 0) {
      *out = mt_shape_unknown();
      return;
    } else if (xd == yd) {
      out->dims[i] = xd;
    } else {
      out->rank = 0; /* the kernel returns a scalar */
      return;
    }
  }
}

/* ---- Add on strings ---- */

typedef struct string_cat_arg {
  TF_TString* out;
  TF_Status* status;
} string_cat_arg;

static int string_cat_one(const TF_TString* a, const TF_TString* c, int64_t i, void* argv) {
  string_cat_arg* arg = argv;
  const size_t la = TF_StringGetSize(a), lc = TF_StringGetSize(c);
  char* buf = mt_malloc(la + lc + 1, arg->status);
  if (!buf) return 0;
  memcpy(buf, TF_StringGetDataPointer(a), la);
  memcpy(buf + la, TF_StringGetDataPointer(c), lc);
  TF_StringCopy(&arg->out[i], buf, la + lc);
  free(buf);
  return 1;
}

/* Add on strings concatenates (TensorFlow registers it for Add, not AddV2). */
static void add_any_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_Tensor* y = ctx->inputs[1];
  if (x->dtype != TF_STRING || y->dtype != TF_STRING) {
    add_kernel(ctx);
    return;
  }
  mt_bcast b;
  if (!mt_bcast_init(&b, x->dims, x->ndims, y->dims, y->ndims, ctx->status)) return;
  TF_Tensor* z = mt_ctx_alloc(ctx, 0, TF_STRING, b.out_dims, b.out_ndims);
  if (!z || b.n == 0) return;
  string_cat_arg arg = {mt_tensor_data(z), ctx->status};
  string_bcast_each(&b, x, y, string_cat_one, &arg);
}

/* ---- Cast ---- */

/* Float -> integer conversions as x86 (and so TensorFlow on CPU) does them:
 * truncation toward zero; NaN and out-of-range give the minimum value of a
 * 32/64-bit integer; narrower integers wrap from the 32-bit result. Plain C
 * would be undefined behaviour here. Complex sources convert their real
 * part; 16-bit floats arrive loaded as float. */
static inline int32_t f2i32(double v) {
  return (v != v || v >= 2147483648.0 || v <= -2147483649.0) ? INT32_MIN : (int32_t)v;
}
static inline int64_t f2i64(double v) {
  return (v != v || v >= 9223372036854775808.0 || v < -9223372036854775808.0) ? INT64_MIN
                                                                               : (int64_t)v;
}
static inline uint64_t f2u64(double v) {
  if (v >= 9223372036854775808.0 && v < 18446744073709551616.0) return (uint64_t)v;
  return (uint64_t)f2i64(v);
}
#define FLOAT_OR(v, F, T)                                                                   \
  _Generic((v), float: (T)F(v), double: (T)F(v), mt_complex64: (T)F(crealf(v)),             \
           mt_complex128: (T)F(creal(v)), default: (T)(v))
#define CVT_float(v) ((float)(v))
#define CVT_double(v) ((double)(v))
#define CVT_mt_half(v) mt_float_to_half((float)(v))
#define CVT_mt_bfloat16(v) mt_float_to_bfloat16((float)(v))
#define CVT_mt_complex64(v) ((mt_complex64)(v))
#define CVT_mt_complex128(v) ((mt_complex128)(v))
/* Complex to bool looks at the real part only, as TensorFlow. */
#define CVT_mt_bool(v) \
  _Generic((v), mt_complex64: crealf(v) != 0, mt_complex128: creal(v) != 0, default: (v) != 0)
#define CVT_int8_t(v) FLOAT_OR(v, f2i32, int8_t)
#define CVT_int16_t(v) FLOAT_OR(v, f2i32, int16_t)
#define CVT_int32_t(v) FLOAT_OR(v, f2i32, int32_t)
#define CVT_int64_t(v) FLOAT_OR(v, f2i64, int64_t)
#define CVT_uint8_t(v) FLOAT_OR(v, f2i32, uint8_t)
#define CVT_uint16_t(v) FLOAT_OR(v, f2i32, uint16_t)
#define CVT_uint32_t(v) FLOAT_OR(v, f2i64, uint32_t)
#define CVT_uint64_t(v) FLOAT_OR(v, f2u64, uint64_t)

/* The destination list is spelled out: a list macro cannot expand inside
 * its own expansion, and the source side uses MT_ALL_POD_TYPES. */
#define CAST_DST_TYPES(X, S)                                                            \
  X(TF_FLOAT, float, S) X(TF_DOUBLE, double, S) X(TF_INT8, int8_t, S)                   \
  X(TF_INT16, int16_t, S) X(TF_INT32, int32_t, S) X(TF_INT64, int64_t, S)               \
  X(TF_UINT8, uint8_t, S) X(TF_UINT16, uint16_t, S) X(TF_UINT32, uint32_t, S)           \
  X(TF_UINT64, uint64_t, S) X(TF_BOOL, mt_bool, S) X(TF_HALF, mt_half, S)               \
  X(TF_BFLOAT16, mt_bfloat16, S) X(TF_COMPLEX64, mt_complex64, S)                       \
  X(TF_COMPLEX128, mt_complex128, S)

typedef void (*cast_fn)(const void* in, void* out, int64_t begin, int64_t end);
#define CAST_FN_(DDT, DCT, SCT)                                                         \
  static void cast_##SCT##_##DCT(const void* in, void* out, int64_t begin, int64_t end) { \
    const SCT* x = in;                                                                  \
    DCT* y = out;                                                                       \
    for (int64_t i = begin; i < end; i++) y[i] = CVT_##DCT(mt_load_##SCT(x[i]));        \
  }
#define CAST_SRC_(SDT, SCT, unused) CAST_DST_TYPES(CAST_FN_, SCT)
MT_ALL_POD_TYPES(CAST_SRC_, 0)
#define CAST_ROW_(SDT, SCT, unused) CAST_DST_TYPES(CAST_ENTRY2_, (SDT, SCT))
/* Entries need both the source enum and the source C type. */
#define CAST_ENTRY2_(DDT, DCT, S) CAST_ENTRY3_(DDT, DCT, CAST_UNPACK_ S)
#define CAST_UNPACK_(a, b) a, b
#define CAST_ENTRY3_(...) CAST_ENTRY4_(__VA_ARGS__)
#define CAST_ENTRY4_(DDT, DCT, SDT, SCT) [SDT][DDT] = cast_##SCT##_##DCT,
static const cast_fn cast_table[MT_NUM_DTYPES][MT_NUM_DTYPES] = {MT_ALL_POD_TYPES(CAST_ROW_, 0)};

/* Fast paths for the common float casts, same results as the table's:
 * cvttps2dq truncates and gives INT32_MIN for NaN and out-of-range values
 * (f2i32's rule); F16C's vcvtps2ph rounds to nearest even with
 * mt_float_to_half's overflow, subnormal and NaN results. */
#if defined(__x86_64__) && defined(__GNUC__) && defined(__SSE2__)
#include <immintrin.h>
static void cast_f32_i32_sse2(const void* in, void* out, int64_t begin, int64_t end) {
  const float* x = in;
  int32_t* y = out;
  int64_t i = begin;
  for (; i + 4 <= end; i += 4)
    _mm_storeu_si128((__m128i*)(y + i), _mm_cvttps_epi32(_mm_loadu_ps(x + i)));
  for (; i < end; i++) y[i] = f2i32(x[i]);
}
__attribute__((target("avx,f16c"))) static void cast_f32_f16_f16c(const void* in, void* out,
                                                                   int64_t begin, int64_t end) {
  const float* x = in;
  mt_half* y = out;
  int64_t i = begin;
  for (; i + 8 <= end; i += 8) {
    const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT);
    memcpy(y + i, &h, sizeof h);
  }
  for (; i < end; i++) y[i] = mt_float_to_half(x[i]);
}
/* The fast function for (src, dst), or fn. */
static cast_fn cast_fast(TF_DataType src, TF_DataType dst, cast_fn fn) {
  if (src == TF_FLOAT && dst == TF_INT32) return cast_f32_i32_sse2;
  if (src == TF_FLOAT && dst == TF_HALF && __builtin_cpu_supports("avx2")) return cast_f32_f16_f16c;
  return fn;
}
#else
static cast_fn cast_fast(TF_DataType src, TF_DataType dst, cast_fn fn) { return fn; }
#endif

typedef struct cast_task {
  cast_fn fn;
  const void* in;
  void* out;
} cast_task;

static void cast_task_run(int64_t begin, int64_t end, void* arg) {
  cast_task* t = arg;
  t->fn(t->in, t->out, begin, end);
}

/* Mantissa bits of the floating types Truncate applies to. */
static int mantissa_bits(TF_DataType dt) {
  switch (dt) {
    case TF_DOUBLE: return 52;
    case TF_FLOAT: return 23;
    case TF_HALF: return 10;
    case TF_BFLOAT16: return 7;
    default: return -1;
  }
}

/* Cast with Truncate=true from float/double to a narrower floating type:
 * TensorFlow zeroes the low mantissa bits the destination cannot hold
 * before converting, so the value truncates instead of rounding. Returns a
 * new tensor (NULL + status on error) or NULL with no error when Truncate
 * does not apply. */
static TF_Tensor* cast_truncated_input(mt_kernel_ctx* ctx, const TF_Tensor* x, TF_DataType dst) {
  const int sb = mantissa_bits(x->dtype), db = mantissa_bits(dst);
  if (!mt_op_attr_bool(ctx->op, "Truncate", 0) || sb < 23 || db < 0 || db >= sb) return NULL;
  TF_Tensor* t = mt_tensor_copy(x, ctx->status);
  if (!t) return NULL;
  const int64_t n = mt_tensor_nelems(t);
  const int shift = sb - db;
  if (x->dtype == TF_FLOAT) {
    uint32_t* u = mt_tensor_data(t);
    for (int64_t i = 0; i < n; i++) /* finite values only: NaN stays NaN */
      if ((u[i] & 0x7f800000u) != 0x7f800000u) u[i] &= ~((1u << shift) - 1u);
  } else {
    uint64_t* u = mt_tensor_data(t);
    const uint64_t exp = UINT64_C(0x7ff0000000000000);
    for (int64_t i = 0; i < n; i++)
      if ((u[i] & exp) != exp) u[i] &= ~((UINT64_C(1) << shift) - 1u);
  }
  return t;
}

static void cast_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_DataType dst = mt_op_attr_type(ctx->op, "DstT", x->dtype);
  if (dst == x->dtype) { /* TensorFlow forwards the input unchanged */
    mt_ctx_set_shared(ctx, 0, x);
    return;
  }
  cast_fn fn = (unsigned)x->dtype < MT_NUM_DTYPES && (unsigned)dst < MT_NUM_DTYPES
                   ? cast_table[x->dtype][dst]
                   : NULL;
  if (!fn) {
    char a[32], b[32];
    mt_status_setf(ctx->status, TF_UNIMPLEMENTED, "Cast %s to %s is not supported",
                   mt_dt_enum_name(x->dtype, a, sizeof a) + 3,
                   mt_dt_enum_name(dst, b, sizeof b) + 3);
    return;
  }
  TF_Tensor* y = mt_ctx_alloc(ctx, 0, dst, x->dims, x->ndims);
  const int64_t n = mt_tensor_nelems(x);
  if (!y || n <= 0) return;
  TF_Tensor* truncated = cast_truncated_input(ctx, x, dst);
  if (TF_GetCode(ctx->status) != TF_OK) return;
  cast_task t = {cast_fast(x->dtype, dst, fn), mt_tensor_data(truncated ? truncated : x),
                 mt_tensor_data(y)};
  mt_parallel_for(ctx, n, 1, cast_task_run, &t);
  if (truncated) mt_tensor_free(truncated);
}

static void cast_shape(mt_shape_ctx* ctx) { ctx->out[0] = ctx->in[0]; }

/* ---- shape merging with TensorFlow's InferenceContext::Merge wording ---- */

/* Merges b into a (unknown dims take the other side); 0 + status on a
 * clash: "Dimension 1 in both shapes must be equal, but are 3 and 4. Shapes
 * are [2,3] and [2,4]." or "Shapes must be equal rank, but are 2 and 1". */
static int merge_shapes(mt_shape_ctx* ctx, const mt_shape* a, const mt_shape* b, mt_shape* out,
                        const char* context) {
  if (a->rank < 0 || b->rank < 0) {
    *out = a->rank < 0 ? *b : *a;
    return 1;
  }
  if (a->rank != b->rank) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Shapes must be equal rank, but are %d and %d%s", a->rank, b->rank, context);
    return 0;
  }
  mt_shape m = *a;
  for (int d = 0; d < a->rank; d++) {
    const int64_t x = a->dims[d], y = b->dims[d];
    if (x >= 0 && y >= 0 && x != y) {
      char sa[256], sb[256];
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Dimension %d in both shapes must be equal, but are %lld and %lld. Shapes "
                     "are %s and %s.%s",
                     d, (long long)x, (long long)y, mt_shape_str(a, sa, sizeof sa),
                     mt_shape_str(b, sb, sizeof sb), context);
      return 0;
    }
    m.dims[d] = x >= 0 ? x : y;
  }
  *out = m;
  return 1;
}

static const char* shape_debug(const TF_Tensor* t, char* buf, size_t cap) {
  return mt_dims_str(t->dims, t->ndims, buf, cap);
}

static int same_dims(const TF_Tensor* a, const TF_Tensor* b) {
  if (a->ndims != b->ndims) return 0;
  for (int d = 0; d < a->ndims; d++)
    if (a->dims[d] != b->dims[d]) return 0;
  return 1;
}

/* TensorFlow's ValidateInputsAreSameShape message. */
static int inputs_same_shape(mt_kernel_ctx* ctx, int first, int n) {
  for (int i = first + 1; i < first + n; i++) {
    if (same_dims(ctx->inputs[first], ctx->inputs[i])) continue;
    char a[256], b[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Inputs to operation %s of type %s must have the same size and shape.  "
                   "Input %d: %s != input %d: %s",
                   ctx->op->name, ctx->op->op_type, first,
                   shape_debug(ctx->inputs[first], a, sizeof a), i,
                   shape_debug(ctx->inputs[i], b, sizeof b));
    return 0;
  }
  return 1;
}

/* ---- AddN ---- */

/* out[i] += in[i] in the storage type, rounding after each addition like
 * TensorFlow's chained Eigen sums (matters for float16). */
typedef void (*addn_fn)(void* out, const void* in, int64_t begin, int64_t end);
#define ADDN_LOOP_(DT, CT, unused)                                                        \
  static void addn_##CT(void* outv, const void* inv, int64_t begin, int64_t end) {        \
    typedef mt_compute_##CT T;                                                            \
    typedef mt_wide_##CT W;                                                               \
    CT* o = outv;                                                                         \
    const CT* a = inv;                                                                    \
    for (int64_t i = begin; i < end; i++)                                                 \
      o[i] = mt_store_##CT((T)((W)mt_load_##CT(o[i]) + (W)mt_load_##CT(a[i])));           \
  }
MT_NUMBER_TYPES(ADDN_LOOP_, 0)
static const addn_fn addn_fns[MT_NUM_DTYPES] = {MT_ENTRIES(addn, MT_NUMBER_TYPES)};

typedef struct addn_task {
  addn_fn fn;
  TF_Tensor* const* inputs;
  int n;
  size_t esize;
  char* out;
} addn_task;

static void addn_task_run(int64_t begin, int64_t end, void* arg) {
  addn_task* t = arg;
  memcpy(t->out + begin * t->esize, (const char*)mt_tensor_data(t->inputs[0]) + begin * t->esize,
         (size_t)(end - begin) * t->esize);
  for (int k = 1; k < t->n; k++) t->fn(t->out, mt_tensor_data(t->inputs[k]), begin, end);
}

static void addn_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  if (x->dtype == TF_VARIANT) { /* gradients of TensorLists */
    mt_tlist_add_n(ctx);
    return;
  }
  addn_fn fn = (unsigned)x->dtype < MT_NUM_DTYPES ? addn_fns[x->dtype] : NULL;
  if (!fn) {
    mt_kernel_unsupported(ctx, "T", x->dtype);
    return;
  }
  if (!inputs_same_shape(ctx, 0, ctx->ninputs)) return;
  if (ctx->ninputs == 1) {
    mt_ctx_set_shared(ctx, 0, x);
    return;
  }
  TF_Tensor* z = mt_ctx_alloc(ctx, 0, x->dtype, x->dims, x->ndims);
  const int64_t n = mt_tensor_nelems(x);
  if (!z || n <= 0) return;
  addn_task t = {fn, ctx->inputs, ctx->ninputs, TF_DataTypeSize(x->dtype), mt_tensor_data(z)};
  mt_parallel_for(ctx, n, ctx->ninputs, addn_task_run, &t);
}

/* TensorFlow's AddN shape function: merges every input of known rank into
 * the last one of known rank. */
static void addn_shape(mt_shape_ctx* ctx) {
  mt_shape cur = ctx->in[ctx->ninputs - 1];
  for (int i = ctx->ninputs - 2; i >= 0 && cur.rank < 0; i--) cur = ctx->in[i];
  for (int i = ctx->ninputs - 1; i >= 0; i--) {
    if (ctx->in[i].rank < 0) continue;
    char context[64];
    snprintf(context, sizeof context, "\n\tFrom merging shape %d with other shapes.", i);
    if (!merge_shapes(ctx, &ctx->in[i], &cur, &cur, context)) return;
  }
  ctx->out[0] = cur;
}

/* ---- Select / SelectV2 ---- */

/* Copies element si of src to element di of dst (strings deep-copied). */
static inline void copy_elem(TF_DataType dt, size_t esize, void* dst, int64_t di, const void* src,
                             int64_t si) {
  if (dt == TF_STRING) {
    const TF_TString* s = (const TF_TString*)src + si;
    TF_StringCopy((TF_TString*)dst + di, TF_StringGetDataPointer(s), TF_StringGetSize(s));
  } else {
    memcpy((char*)dst + di * esize, (const char*)src + si * esize, esize);
  }
}

static int select_dtype_ok(mt_kernel_ctx* ctx, TF_DataType dt) {
  if (dt == TF_STRING || dt == TF_BOOL || (dt < MT_NUM_DTYPES && addn_fns[dt])) return 1;
  mt_kernel_unsupported(ctx, "T", dt);
  return 0;
}

/* TF1 Select: cond a scalar (picks a whole input), of the inputs' shape
 * (elementwise), or a vector picking rows of higher-rank inputs. */
static void select_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* c = ctx->inputs[0];
  const TF_Tensor* t = ctx->inputs[1];
  const TF_Tensor* e = ctx->inputs[2];
  char a[256], b[256];
  if (!select_dtype_ok(ctx, t->dtype)) return;
  const int scalar = c->ndims == 0;
  const int rows = c->ndims == 1 && t->ndims != 1;
  if (scalar || rows) {
    if (rows && t->ndims == 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "'then' must be at least a vector, but saw shape: %s",
                     shape_debug(t, a, sizeof a));
      return;
    }
    if (rows && t->dims[0] != c->dims[0]) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Number of batches of 'then' must match size of 'cond', but saw: %lld vs. "
                     "%lld",
                     (long long)t->dims[0], (long long)c->dims[0]);
      return;
    }
    if (!same_dims(t, e)) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "'then' and 'else' must have the same size.  but received: %s vs. %s",
                     shape_debug(t, a, sizeof a), shape_debug(e, b, sizeof b));
      return;
    }
  } else if (!inputs_same_shape(ctx, 0, 3)) {
    return;
  }
  const mt_bool* cv = mt_tensor_data(c);
  if (scalar) {
    mt_ctx_set_shared(ctx, 0, cv[0] ? t : e);
    return;
  }
  TF_Tensor* z = mt_ctx_alloc(ctx, 0, t->dtype, t->dims, t->ndims);
  const int64_t n = mt_tensor_nelems(t);
  if (!z || n <= 0) return;
  const size_t esize = t->dtype == TF_STRING ? sizeof(TF_TString) : TF_DataTypeSize(t->dtype);
  const int64_t row = rows ? n / t->dims[0] : 1; /* elements per cond entry */
  const void *tv = mt_tensor_data(t), *ev = mt_tensor_data(e);
  void* zv = mt_tensor_data(z);
  for (int64_t i = 0; i < n; i++)
    copy_elem(t->dtype, esize, zv, i, cv[i / row] ? tv : ev, i);
}

/* TensorFlow's Select shape function: then/else merge; a vector cond
 * merges with their first dim, any other known-rank cond (not a scalar)
 * with their shape. */
static void select_shape(mt_shape_ctx* ctx) {
  mt_shape data;
  if (!merge_shapes(ctx, &ctx->in[1], &ctx->in[2], &data, "")) return;
  const mt_shape* cond = &ctx->in[0];
  if (cond->rank < 0 || data.rank < 0 || cond->rank == 0) {
    ctx->out[0] = data;
    return;
  }
  if (cond->rank != 1 || data.rank == 0) {
    if (!merge_shapes(ctx, &data, cond, &data, "")) return;
    ctx->out[0] = data;
    return;
  }
  mt_shape first = {.rank = 1};
  first.dims[0] = data.dims[0];
  mt_shape merged;
  if (!merge_shapes(ctx, cond, &first, &merged, "")) return;
  ctx->out[0] = data;
}

/* Broadcast strides of a tensor inside an output of rank nd (0 where the
 * tensor is broadcast). */
static void bcast_strides(const TF_Tensor* t, int nd, const int64_t* out_dims, int64_t* str) {
  int64_t s = 1;
  for (int d = nd - 1; d >= 0; d--) {
    const int k = d - (nd - t->ndims);
    const int64_t td = k >= 0 ? t->dims[k] : 1;
    str[d] = (td == 1 && out_dims[d] != 1) || k < 0 ? 0 : s;
    s *= td;
  }
}

/* SelectV2: cond, then and else broadcast together (NumPy rules). */
static void select_v2_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in[3] = {ctx->inputs[0], ctx->inputs[1], ctx->inputs[2]};
  if (!select_dtype_ok(ctx, in[1]->dtype)) return;
  int nd = 0;
  for (int i = 0; i < 3; i++)
    if (in[i]->ndims > nd) nd = in[i]->ndims;
  int64_t dims[MT_MAX_DIMS];
  for (int d = 0; d < nd; d++) {
    dims[d] = 1;
    for (int i = 0; i < 3; i++) {
      const int k = d - (nd - in[i]->ndims);
      const int64_t v = k >= 0 ? in[i]->dims[k] : 1;
      if (v == dims[d] || v == 1) continue;
      if (dims[d] != 1) {
        char a[256], b[256], c[256];
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "condition %s, then %s, and else %s must be broadcastable",
                       shape_debug(in[0], a, sizeof a), shape_debug(in[1], b, sizeof b),
                       shape_debug(in[2], c, sizeof c));
        return;
      }
      dims[d] = v;
    }
  }
  TF_Tensor* z = mt_ctx_alloc(ctx, 0, in[1]->dtype, dims, nd);
  const int64_t n = mt_num_elements(dims, nd);
  if (!z || n <= 0) return;
  int64_t str[3][MT_MAX_DIMS], idx[MT_MAX_DIMS] = {0}, off[3] = {0, 0, 0};
  for (int i = 0; i < 3; i++) bcast_strides(in[i], nd, dims, str[i]);
  const TF_DataType dt = in[1]->dtype;
  const size_t esize = dt == TF_STRING ? sizeof(TF_TString) : TF_DataTypeSize(dt);
  const mt_bool* cv = mt_tensor_data(in[0]);
  const void *tv = mt_tensor_data(in[1]), *ev = mt_tensor_data(in[2]);
  void* zv = mt_tensor_data(z);
  for (int64_t o = 0; o < n; o++) {
    if (cv[off[0]]) copy_elem(dt, esize, zv, o, tv, off[1]);
    else copy_elem(dt, esize, zv, o, ev, off[2]);
    for (int d = nd - 1; d >= 0; d--) { /* odometer step with per-input offsets */
      for (int i = 0; i < 3; i++) off[i] += str[i][d];
      if (++idx[d] < dims[d]) break;
      for (int i = 0; i < 3; i++) off[i] -= str[i][d] * dims[d];
      idx[d] = 0;
    }
  }
}

/* TensorFlow's SelectV2 shape function: broadcast then with else, then
 * cond with the result. */
static void select_v2_shape(mt_shape_ctx* ctx) {
  mt_shape other;
  if (!mt_broadcast_shapes(&ctx->in[1], &ctx->in[2], &other, ctx->status)) return;
  mt_broadcast_shapes(&ctx->in[0], &other, &ctx->out[0], ctx->status);
}

/* ---- ClipByValue ---- */

/* min(max) as TensorFlow's functor: min(x, hi) then max with lo, so lo
 * wins when lo > hi and a NaN x stays NaN. lo/hi are scalars or of x's
 * shape (strides 0 or 1). */
typedef void (*clip_fn)(const void* x, const void* lo, const void* hi, void* z, int64_t n,
                        int los, int his);
#define CLIP_LOOP_(DT, CT, unused)                                                       \
  static void clip_##CT(const void* xv, const void* lov, const void* hiv, void* zv,      \
                        int64_t n, int los, int his) {                                   \
    typedef mt_compute_##CT T;                                                           \
    const CT *xp = xv, *lp = lov, *hp = hiv;                                             \
    CT* zp = zv;                                                                         \
    for (int64_t i = 0; i < n; i++) {                                                    \
      const T x = mt_load_##CT(xp[i]);                                                   \
      const T lo = mt_load_##CT(lp[los ? i : 0]), hi = mt_load_##CT(hp[his ? i : 0]);    \
      const T m = hi < x ? hi : x;                                                       \
      zp[i] = mt_store_##CT(m < lo ? lo : m);                                            \
    }                                                                                    \
  }
#define CLIP_TYPES(X, ...)                                                               \
  MT_FLOATING_TYPES(X, __VA_ARGS__) X(TF_INT8, int8_t, __VA_ARGS__)                      \
  X(TF_INT16, int16_t, __VA_ARGS__) X(TF_INT32, int32_t, __VA_ARGS__)                    \
  X(TF_INT64, int64_t, __VA_ARGS__) X(TF_UINT8, uint8_t, __VA_ARGS__)                    \
  X(TF_UINT16, uint16_t, __VA_ARGS__)
CLIP_TYPES(CLIP_LOOP_, 0)
static const clip_fn clip_fns[MT_NUM_DTYPES] = {MT_ENTRIES(clip, CLIP_TYPES)};

static void clip_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_Tensor* lo = ctx->inputs[1];
  const TF_Tensor* hi = ctx->inputs[2];
  clip_fn fn = (unsigned)x->dtype < MT_NUM_DTYPES ? clip_fns[x->dtype] : NULL;
  if (!fn) {
    mt_kernel_unsupported(ctx, "T", x->dtype);
    return;
  }
  if ((!same_dims(x, lo) && lo->ndims != 0) || (!same_dims(x, hi) && hi->ndims != 0)) {
    char a[256], b[256], c[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "clip_value_min and clip_value_max must be either of the same shape as "
                   "input, or a scalar. input shape: %sclip_value_min shape: %sclip_value_max "
                   "shape: %s",
                   shape_debug(x, a, sizeof a), shape_debug(lo, b, sizeof b),
                   shape_debug(hi, c, sizeof c));
    return;
  }
  TF_Tensor* z = mt_ctx_forward(ctx, 0, 0, x->dtype, x->dims, x->ndims);
  const int64_t n = mt_tensor_nelems(x);
  if (!z || n <= 0) return;
  fn(mt_tensor_data(x), mt_tensor_data(lo), mt_tensor_data(hi), mt_tensor_data(z), n,
     lo->ndims != 0, hi->ndims != 0);
}

/* ---- MatMul ---- */

static void matmul_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 2) || !mt_shape_with_rank(ctx, 1, 2)) return;
  const mt_shape* a = &ctx->in[0];
  const mt_shape* b = &ctx->in[1];
  const int ta = mt_op_attr_bool(ctx->op, "transpose_a", 0);
  const int tb = mt_op_attr_bool(ctx->op, "transpose_b", 0);
  const int64_t m = a->rank < 0 ? -1 : a->dims[ta ? 1 : 0];
  const int64_t ka = a->rank < 0 ? -1 : a->dims[ta ? 0 : 1];
  const int64_t kb = b->rank < 0 ? -1 : b->dims[tb ? 1 : 0];
  const int64_t n = b->rank < 0 ? -1 : b->dims[tb ? 0 : 1];
  int64_t k;
  if (!mt_merge_dim(ctx, ka, kb, &k)) return;
  ctx->out[0].rank = 2;
  ctx->out[0].dims[0] = m;
  ctx->out[0].dims[1] = n;
}

/* Integer products by a plain i-k-j loop (cache-friendly on row-major B);
 * arithmetic wraps through W. */
#define MATMUL_INT_(DT, CT, unused)                                                     \
  static void matmul_##CT(const CT* a, const CT* b, CT* c, int64_t m, int64_t n,      \
                          int64_t k, int ta, int tb, int64_t lda, int64_t ldb) {      \
    typedef mt_wide_##CT W;                                                             \
    memset(c, 0, (size_t)(m * n) * sizeof(CT));                                         \
    for (int64_t i = 0; i < m; i++)                                                     \
      for (int64_t p = 0; p < k; p++) {                                                 \
        const W av = (W)(ta ? a[p * lda + i] : a[i * lda + p]);                         \
        CT* cr = c + i * n;                                                             \
        for (int64_t j = 0; j < n; j++)                                                 \
          cr[j] = (CT)((W)cr[j] + av * (W)(tb ? b[j * ldb + p] : b[p * ldb + j]));      \
      }                                                                                 \
  }
MATMUL_INT_(TF_INT32, int32_t, 0)
MATMUL_INT_(TF_INT64, int64_t, 0)

/* C = op(A) op(B) through BLAS for float, double, complex64, complex128;
 * row-major, sizes already checked to fit int. (MatMul's transposes are
 * plain transposes for complex too, not adjoints.) */
static void gemm(TF_DataType dt, int ta, int tb, int64_t m, int64_t n, int64_t k, const void* a,
                 int64_t lda, const void* b, int64_t ldb, void* c) {
  const enum CBLAS_TRANSPOSE tra = ta ? CblasTrans : CblasNoTrans;
  const enum CBLAS_TRANSPOSE trb = tb ? CblasTrans : CblasNoTrans;
  static const float one_c[2] = {1, 0}, zero_c[2] = {0, 0};
  static const double one_z[2] = {1, 0}, zero_z[2] = {0, 0};
  switch (dt) {
    case TF_FLOAT:
      scipy_cblas_sgemm(CblasRowMajor, tra, trb, (int)m, (int)n, (int)k, 1.0f, a, (int)lda, b,
                        (int)ldb, 0.0f, c, (int)n);
      break;
    case TF_DOUBLE:
      scipy_cblas_dgemm(CblasRowMajor, tra, trb, (int)m, (int)n, (int)k, 1.0, a, (int)lda, b,
                        (int)ldb, 0.0, c, (int)n);
      break;
    case TF_COMPLEX64:
      scipy_cblas_cgemm(CblasRowMajor, tra, trb, (int)m, (int)n, (int)k, one_c, a, (int)lda, b,
                        (int)ldb, zero_c, c, (int)n);
      break;
    default:
      scipy_cblas_zgemm(CblasRowMajor, tra, trb, (int)m, (int)n, (int)k, one_z, a, (int)lda, b,
                        (int)ldb, zero_z, c, (int)n);
      break;
  }
}

/* float16/bfloat16 products: widened to float, one sgemm, rounded back. */
static void matmul_half(mt_kernel_ctx* ctx, const TF_Tensor* a, const TF_Tensor* b, TF_Tensor* c,
                        int64_t m, int64_t n, int64_t k, int ta, int tb) {
  const int64_t na = mt_tensor_nelems(a), nb = mt_tensor_nelems(b);
  float* fa = mt_malloc((size_t)(na + nb + m * n) * sizeof(float), ctx->status);
  if (!fa) return;
  float* fb = fa + na;
  float* fc = fb + nb;
  const int half = a->dtype == TF_HALF;
  for (int64_t i = 0; i < na; i++)
    fa[i] = half ? mt_half_to_float(((const mt_half*)mt_tensor_data(a))[i])
                 : mt_bfloat16_to_float(((const mt_bfloat16*)mt_tensor_data(a))[i]);
  for (int64_t i = 0; i < nb; i++)
    fb[i] = half ? mt_half_to_float(((const mt_half*)mt_tensor_data(b))[i])
                 : mt_bfloat16_to_float(((const mt_bfloat16*)mt_tensor_data(b))[i]);
  gemm(TF_FLOAT, ta, tb, m, n, k, fa, a->dims[1], fb, b->dims[1], fc);
  for (int64_t i = 0; i < m * n; i++) {
    if (half) ((mt_half*)mt_tensor_data(c))[i] = mt_float_to_half(fc[i]);
    else ((mt_bfloat16*)mt_tensor_data(c))[i] = mt_float_to_bfloat16(fc[i]);
  }
  free(fa);
}

static void matmul_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* a = ctx->inputs[0];
  const TF_Tensor* b = ctx->inputs[1];
  char sa[256], sb[256];
  for (int i = 0; i < 2; i++) {
    const TF_Tensor* t = ctx->inputs[i];
    if (t->ndims != 2) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "In[%d] is not a matrix. Instead it has shape %s", i,
                     mt_dims_str(t->dims, t->ndims, sa, sizeof sa));
      return;
    }
  }
  const int ta = mt_op_attr_bool(ctx->op, "transpose_a", 0);
  const int tb = mt_op_attr_bool(ctx->op, "transpose_b", 0);
  const int64_t m = a->dims[ta ? 1 : 0], k = a->dims[ta ? 0 : 1];
  const int64_t kb = b->dims[tb ? 1 : 0], n = b->dims[tb ? 0 : 1];
  if (k != kb) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Matrix size-incompatible: In[0]: %s, In[1]: %s",
                   mt_dims_str(a->dims, 2, sa, sizeof sa), mt_dims_str(b->dims, 2, sb, sizeof sb));
    return;
  }
  const TF_DataType dt = a->dtype;
  if (dt != TF_FLOAT && dt != TF_DOUBLE && dt != TF_INT32 && dt != TF_INT64 && dt != TF_HALF &&
      dt != TF_BFLOAT16 && dt != TF_COMPLEX64 && dt != TF_COMPLEX128) {
    mt_kernel_unsupported(ctx, "T", dt); /* uint*: registered but, as in TF, no CPU kernel */
    return;
  }
  const int64_t dims[2] = {m, n};
  TF_Tensor* c = mt_ctx_alloc(ctx, 0, dt, dims, 2);
  if (!c || m == 0 || n == 0) return;
  const int64_t lda = a->dims[1], ldb = b->dims[1];
  if (dt == TF_INT32) {
    matmul_int32_t(mt_tensor_data(a), mt_tensor_data(b), mt_tensor_data(c), m, n, k, ta, tb, lda, ldb);
    return;
  }
  if (dt == TF_INT64) {
    matmul_int64_t(mt_tensor_data(a), mt_tensor_data(b), mt_tensor_data(c), m, n, k, ta, tb, lda, ldb);
    return;
  }
  if (k == 0) { /* BLAS may leave C untouched when k == 0 */
    memset(mt_tensor_data(c), 0, (size_t)(m * n) * TF_DataTypeSize(dt));
    return;
  }
  if (m > INT_MAX || n > INT_MAX || k > INT_MAX || lda > INT_MAX || ldb > INT_MAX) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "MatMul dimensions exceed 2^31-1");
    return;
  }
  if (dt == TF_HALF || dt == TF_BFLOAT16) {
    matmul_half(ctx, a, b, c, m, n, k, ta, tb);
    return;
  }
  gemm(dt, ta, tb, m, n, k, mt_tensor_data(a), lda, mt_tensor_data(b), ldb, mt_tensor_data(c));
}

/* ---- registrations ---- */

static const mt_op_spec math_specs[] = {
    {.name = "Add", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {bfloat16, half, float, double, uint8, int8, int16, int32, int64,"
              " complex64, complex128, string}",
     .shape = mt_binary_shape, .kernel = add_any_kernel},
    {.name = "AddV2", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {bfloat16, half, float, double, uint8, uint16, uint32, uint64, int8, int16,"
              " int32, int64, complex64, complex128}",
     .shape = mt_binary_shape, .kernel = add_kernel, .flags = MT_OP_COMMUTATIVE | MT_OP_AGGREGATE},
    {.name = "Sub", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, int64,"
              " complex64, complex128, uint32, uint64}",
     .shape = mt_binary_shape, .kernel = sub_kernel},
    {.name = "Mul", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32,"
              " uint64, int64, complex64, complex128}",
     .shape = mt_binary_shape, .kernel = mul_kernel, .flags = MT_OP_COMMUTATIVE},
    {.name = "RealDiv", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32,"
              " uint64, int64, complex64, complex128}",
     .shape = mt_binary_shape, .kernel = realdiv_kernel},
    {.name = "Div", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32,"
              " uint64, int64, complex64, complex128}",
     .shape = mt_binary_shape, .kernel = div_kernel},
    {.name = "DivNoNan", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {half, float, bfloat16, double, complex64, complex128}",
     .shape = mt_binary_shape, .kernel = divnonan_kernel},
    {.name = "MulNoNan", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {bfloat16, half, float, double, complex64, complex128}",
     .shape = mt_binary_shape, .kernel = mulnonan_kernel},
    {.name = "TruncateMod", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {int32, int64, bfloat16, half, float, double}",
     .shape = mt_binary_shape, .kernel = truncatemod_kernel},
    {.name = "NextAfter", .inputs = "x1: T, x2: T", .outputs = "output: T",
     .attrs = "T: {double, float} = DT_FLOAT",
     .shape = mt_binary_shape, .kernel = nextafter_kernel},
    {.name = "FloorDiv", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32,"
              " uint64, int64, complex64, complex128}",
     .shape = mt_binary_shape, .kernel = floordiv_kernel},
    {.name = "FloorMod", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {int8, int16, int32, int64, uint8, uint16, uint32, uint64, bfloat16, half,"
              " float, double}",
     .shape = mt_binary_shape, .kernel = floormod_kernel},
    {.name = "TruncateDiv", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32,"
              " uint64, int64, complex64, complex128}",
     .shape = mt_binary_shape, .kernel = truncatediv_kernel},
    {.name = "Maximum", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32,"
              " int64, uint64}",
     .shape = mt_binary_shape, .kernel = maximum_kernel},
    {.name = "Minimum", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32,"
              " int64, uint64}",
     .shape = mt_binary_shape, .kernel = minimum_kernel},
    {.name = "Pow", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {bfloat16, float, half, double, int8, int16, int32, int64, complex64,"
              " complex128}",
     .shape = mt_binary_shape, .kernel = pow_kernel},
    {.name = "SquaredDifference", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {bfloat16, half, float, double, int32, int64, complex64, complex128}",
     .shape = mt_binary_shape, .kernel = sqdiff_kernel, .flags = MT_OP_COMMUTATIVE},
    {.name = "Atan2", .inputs = "y: T, x: T", .outputs = "z: T",
     .attrs = "T: {bfloat16, half, float, double}",
     .shape = mt_binary_shape, .kernel = atan2_kernel},
    {.name = "Equal", .inputs = "x: T, y: T", .outputs = "z: bool",
     .attrs = "T: type; incompatible_shape_error: bool = true",
     .shape = equality_shape, .kernel = equal_kernel, .flags = MT_OP_COMMUTATIVE},
    {.name = "NotEqual", .inputs = "x: T, y: T", .outputs = "z: bool",
     .attrs = "T: type; incompatible_shape_error: bool = true",
     .shape = equality_shape, .kernel = not_equal_kernel, .flags = MT_OP_COMMUTATIVE},
    {.name = "Less", .inputs = "x: T, y: T", .outputs = "z: bool",
     .attrs = "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half,"
              " uint32, uint64}",
     .shape = mt_binary_shape, .kernel = less_kernel},
    {.name = "LessEqual", .inputs = "x: T, y: T", .outputs = "z: bool",
     .attrs = "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half,"
              " uint32, uint64}",
     .shape = mt_binary_shape, .kernel = less_equal_kernel},
    {.name = "Greater", .inputs = "x: T, y: T", .outputs = "z: bool",
     .attrs = "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half,"
              " uint32, uint64}",
     .shape = mt_binary_shape, .kernel = greater_kernel},
    {.name = "GreaterEqual", .inputs = "x: T, y: T", .outputs = "z: bool",
     .attrs = "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half,"
              " uint32, uint64}",
     .shape = mt_binary_shape, .kernel = greater_equal_kernel},
    {.name = "LogicalAnd", .inputs = "x: bool, y: bool", .outputs = "z: bool",
     .attrs = "",
     .shape = mt_binary_shape, .kernel = logical_and_kernel, .flags = MT_OP_COMMUTATIVE},
    {.name = "LogicalOr", .inputs = "x: bool, y: bool", .outputs = "z: bool",
     .attrs = "",
     .shape = mt_binary_shape, .kernel = logical_or_kernel, .flags = MT_OP_COMMUTATIVE},
    {.name = "BitwiseAnd", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {int8, int16, int32, int64, uint8, uint16, uint32, uint64}",
     .shape = mt_binary_shape, .kernel = bitwise_and_kernel, .flags = MT_OP_COMMUTATIVE},
    {.name = "BitwiseOr", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {int8, int16, int32, int64, uint8, uint16, uint32, uint64}",
     .shape = mt_binary_shape, .kernel = bitwise_or_kernel, .flags = MT_OP_COMMUTATIVE},
    {.name = "BitwiseXor", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {int8, int16, int32, int64, uint8, uint16, uint32, uint64}",
     .shape = mt_binary_shape, .kernel = bitwise_xor_kernel, .flags = MT_OP_COMMUTATIVE},
    {.name = "LeftShift", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {int8, int16, int32, int64, uint8, uint16, uint32, uint64}",
     .shape = mt_binary_shape, .kernel = left_shift_kernel},
    {.name = "AddN", .inputs = "inputs: N * T", .outputs = "sum: T",
     .attrs = "N: int >= 1; T: {float, double, int32, uint8, int16, int8, complex64, int64,"
              " qint8, quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half,"
              " uint32, uint64, variant}",
     .shape = addn_shape, .kernel = addn_kernel, .flags = MT_OP_COMMUTATIVE | MT_OP_AGGREGATE},
    {.name = "Select", .inputs = "condition: bool, t: T, e: T", .outputs = "output: T",
     .attrs = "T: type",
     .shape = select_shape, .kernel = select_kernel},
    {.name = "SelectV2", .inputs = "condition: bool, t: T, e: T", .outputs = "output: T",
     .attrs = "T: type",
     .shape = select_v2_shape, .kernel = select_v2_kernel},
    {.name = "ClipByValue", .inputs = "t: T, clip_value_min: T, clip_value_max: T", .outputs = "output: T",
     .attrs = "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8,"
              " qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}",
     .shape = mt_unchanged_shape, .kernel = clip_kernel},
    {.name = "Cast", .inputs = "x: SrcT", .outputs = "y: DstT",
     .attrs = "SrcT: type; DstT: type; Truncate: bool = false",
     .shape = cast_shape, .kernel = cast_kernel},
    {.name = "MatMul", .inputs = "a: T, b: T", .outputs = "product: T",
     .attrs = "transpose_a: bool = false; transpose_b: bool = false;"
              " T: {bfloat16, half, float, double, int32, int64, uint8, uint16, uint32, uint64,"
              " complex64, complex128}; grad_a: bool = false; grad_b: bool = false",
     .shape = matmul_shape, .kernel = matmul_kernel},
};

void mt_register_math_ops(void) {
  mt_register_ops(math_specs, (int)(sizeof math_specs / sizeof math_specs[0]));
}
