/* Elementwise unary ops: Neg, Abs, Sign, Square, Sqrt, Rsqrt, Reciprocal,
 * Inv, Exp, Expm1, Log, Log1p, Sin, Cos, Tan, Tanh, Sigmoid, Erf, Floor,
 * Ceil, Round, Rint, IsNan, IsInf, IsFinite, LogicalNot, and the inverse
 * trigonometric and hyperbolic functions Acos, Asin, Atan, Sinh, Cosh,
 * Asinh, Acosh, Atanh (libm, as Eigen's std:: calls). Signatures and
 * CPU dtypes are TensorFlow's (math_ops.cc / cwise_op_*.cc); float16 and
 * bfloat16 compute in float and round back (kernel_util.h). */
#include <complex.h>
#include <math.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/vec_math.h"

/* The float or double libm function for the compute type of x (float math
 * for float, half and bfloat16, as Eigen), and the complex ones. */
#define RF(fn, x) _Generic((x), float: fn##f, default: fn)(x)
#define CF(fn, x) _Generic((x), mt_complex64: fn##f, default: fn)(x)

#define FLOATING_COMPLEX(X, ...) MT_FLOATING_TYPES(X, __VA_ARGS__) MT_COMPLEX_TYPES(X, __VA_ARGS__)

/* One op over real floating types (expression F) and complex types (C). */
#define FLOAT_COMPLEX_OP(NAME, F, C)                                                   \
  MT_UNARY_LOOPS(NAME##_f, MT_FLOATING_TYPES, F)                                       \
  MT_UNARY_LOOPS(NAME##_c, MT_COMPLEX_TYPES, C)                                        \
  static const mt_unary_fn NAME##_fns[MT_NUM_DTYPES] = {                               \
      MT_ENTRIES(NAME##_f, MT_FLOATING_TYPES) MT_ENTRIES(NAME##_c, MT_COMPLEX_TYPES)}; \
  MT_UNARY_KERNEL(NAME, NAME##_fns, NULL)

/* Integers negate/abs through W: INT_MIN wraps to itself as in TensorFlow. */
MT_UNARY_LOOPS(neg_f, FLOATING_COMPLEX, -x)
MT_UNARY_LOOPS(neg_s, MT_SINT_TYPES, (T)((W)0 - (W)x))
static const mt_unary_fn neg_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(neg_f, FLOATING_COMPLEX) MT_ENTRIES(neg_s, MT_SINT_TYPES)};
MT_UNARY_KERNEL(neg, neg_fns, NULL)

MT_UNARY_LOOPS(abs_f, MT_FLOATING_TYPES, RF(fabs, x))
MT_UNARY_LOOPS(abs_s, MT_SINT_TYPES, x < 0 ? (T)((W)0 - (W)x) : x)
static const mt_unary_fn abs_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(abs_f, MT_FLOATING_TYPES) MT_ENTRIES(abs_s, MT_SINT_TYPES)};
MT_UNARY_KERNEL(abs, abs_fns, NULL)

/* Sign: -1/0/1, NaN stays NaN; complex x / |x| (0 at 0). */
MT_UNARY_LOOPS(sign_f, MT_FLOATING_TYPES, x != x ? x : (T)((x > 0) - (x < 0)))
MT_UNARY_LOOPS(sign_s, MT_SINT_TYPES, (T)((x > 0) - (x < 0)))
MT_UNARY_LOOPS(sign_c, MT_COMPLEX_TYPES, x == 0 ? (T)0 : x / CF(cabs, x))
static const mt_unary_fn sign_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(sign_f, MT_FLOATING_TYPES) MT_ENTRIES(sign_s, MT_SINT_TYPES)
        MT_ENTRIES(sign_c, MT_COMPLEX_TYPES)};
MT_UNARY_KERNEL(sign, sign_fns, NULL)

MT_UNARY_OP(square, MT_NUMBER_TYPES, (T)((W)x * (W)x))

/* expm1 and log1p of complex numbers, accurate near 0 like Eigen's:
 * exp(a+bi) - 1 = (expm1(a) cos b - 2 sin^2(b/2)) + i exp(a) sin b;
 * log(1+z) = log|1+z| + i arg(1+z) with log|1+z| = log1p(2a + a^2 + b^2)/2. */
static inline mt_complex128 cexpm1_d(mt_complex128 z) {
  const double a = creal(z), b = cimag(z), s = sin(b / 2);
  return CMPLX(expm1(a) * cos(b) - 2 * s * s, exp(a) * sin(b));
}
static inline mt_complex128 clog1p_d(mt_complex128 z) {
  const double a = creal(z), b = cimag(z);
  return CMPLX(0.5 * log1p(2 * a + a * a + b * b), atan2(b, 1 + a));
}

FLOAT_COMPLEX_OP(sqrt, RF(sqrt, x), CF(csqrt, x))
FLOAT_COMPLEX_OP(rsqrt, 1 / RF(sqrt, x), 1 / CF(csqrt, x))
FLOAT_COMPLEX_OP(reciprocal, 1 / x, 1 / x)
/* Exp, Tanh and Sigmoid of float, half and bfloat16 run on 16-lane vectors
 * (vec_math.h: TensorFlow's Eigen kernels are SIMD approximations too);
 * double and complex use libm per element. */
#define VEC_UNARY_OP(NAME, V16, F, C)                                                   \
  MT_V16_MAP(NAME##_v_float, float, , , V16(x))                                         \
  MT_V16_MAP(NAME##_v_half, mt_half, mt_half_to_float, mt_float_to_half, V16(x))        \
  MT_V16_MAP(NAME##_v_bf16, mt_bfloat16, mt_bfloat16_to_float, mt_float_to_bfloat16, V16(x)) \
  static void NAME##_float(const void* x, void* y, int64_t b, int64_t e, atomic_int* err) { \
    (void)err;                                                                          \
    NAME##_v_float(x, y, b, e, 0.0f);                                                   \
  }                                                                                     \
  static void NAME##_half(const void* x, void* y, int64_t b, int64_t e, atomic_int* err) { \
    (void)err;                                                                          \
    NAME##_v_half(x, y, b, e, 0.0f);                                                    \
  }                                                                                     \
  static void NAME##_bf16(const void* x, void* y, int64_t b, int64_t e, atomic_int* err) { \
    (void)err;                                                                          \
    NAME##_v_bf16(x, y, b, e, 0.0f);                                                    \
  }                                                                                     \
  MT_UNARY_LOOPS(NAME##_d, DOUBLE_TYPE, F)                                              \
  MT_UNARY_LOOPS(NAME##_c, MT_COMPLEX_TYPES, C)                                         \
  static const mt_unary_fn NAME##_fns[MT_NUM_DTYPES] = {                                \
      [TF_FLOAT] = NAME##_float, [TF_HALF] = NAME##_half, [TF_BFLOAT16] = NAME##_bf16,  \
      MT_ENTRIES(NAME##_d, DOUBLE_TYPE) MT_ENTRIES(NAME##_c, MT_COMPLEX_TYPES)};        \
  MT_UNARY_KERNEL(NAME, NAME##_fns, NULL)
#define DOUBLE_TYPE(X, ...) X(TF_DOUBLE, double, __VA_ARGS__)

VEC_UNARY_OP(exp, vexpf16, exp(x), CF(cexp, x))
FLOAT_COMPLEX_OP(expm1, RF(expm1, x), (T)cexpm1_d(x))
FLOAT_COMPLEX_OP(log, RF(log, x), CF(clog, x))
FLOAT_COMPLEX_OP(log1p, RF(log1p, x), (T)clog1p_d(x))
FLOAT_COMPLEX_OP(sin, RF(sin, x), CF(csin, x))
FLOAT_COMPLEX_OP(cos, RF(cos, x), CF(ccos, x))
FLOAT_COMPLEX_OP(tan, RF(tan, x), CF(ctan, x))
FLOAT_COMPLEX_OP(acos, RF(acos, x), CF(cacos, x))
FLOAT_COMPLEX_OP(asin, RF(asin, x), CF(casin, x))
FLOAT_COMPLEX_OP(atan, RF(atan, x), CF(catan, x))
FLOAT_COMPLEX_OP(sinh, RF(sinh, x), CF(csinh, x))
FLOAT_COMPLEX_OP(cosh, RF(cosh, x), CF(ccosh, x))
FLOAT_COMPLEX_OP(asinh, RF(asinh, x), CF(casinh, x))
FLOAT_COMPLEX_OP(acosh, RF(acosh, x), CF(cacosh, x))
FLOAT_COMPLEX_OP(atanh, RF(atanh, x), CF(catanh, x))
VEC_UNARY_OP(tanh, vtanhf16, tanh(x), CF(ctanh, x))
VEC_UNARY_OP(sigmoid, vsigmoidf16, 1 / (1 + exp(-x)), 1 / (1 + CF(cexp, -x)))

/* TensorFlow 2.21's double erf (Eigen's rational approximation) gives NaN
 * once x * x overflows, erf(+-inf) included; float is exact there. */
static inline double erf_tf(double x) { return isinf(x * x) ? NAN : erf(x); }
MT_UNARY_LOOPS(erf_f, MT_HALF_TYPES, erff(x))
MT_UNARY_LOOPS(erf_d, MT_FLOAT_TYPES, _Generic(x, double: erf_tf, default: erff)(x))
static const mt_unary_fn erf_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(erf_f, MT_HALF_TYPES) MT_ENTRIES(erf_d, MT_FLOAT_TYPES)};
MT_UNARY_KERNEL(erf, erf_fns, NULL)
MT_UNARY_OP(floor, MT_FLOATING_TYPES, RF(floor, x))
MT_UNARY_OP(ceil, MT_FLOATING_TYPES, RF(ceil, x))
/* Round half to even (the default rounding mode). TensorFlow 2.21's CPU
 * kernel for int32/int64 returns zeros (observed for every input);
 * minitf reproduces that result. */
MT_UNARY_LOOPS(round_f, MT_FLOATING_TYPES, RF(rint, x))
#define ROUND_INT_TYPES(X, ...) X(TF_INT32, int32_t, __VA_ARGS__) X(TF_INT64, int64_t, __VA_ARGS__)
MT_UNARY_LOOPS(round_i, ROUND_INT_TYPES, ((void)x, (T)0))
static const mt_unary_fn round_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(round_f, MT_FLOATING_TYPES) MT_ENTRIES(round_i, ROUND_INT_TYPES)};
MT_UNARY_KERNEL(round, round_fns, NULL)
MT_UNARY_OP(rint, MT_FLOAT_TYPES, RF(rint, x))

#define MT_UNARY_BOOL_OP(NAME, TYPES, ...)                                               \
  MT_UNARY_LOOPS_BOOL(NAME, TYPES, __VA_ARGS__)                                          \
  static const mt_unary_fn NAME##_fns[MT_NUM_DTYPES] = {MT_ENTRIES(NAME, TYPES)};        \
  static void NAME##_kernel(mt_kernel_ctx* ctx) { mt_unary_run(ctx, NAME##_fns, TF_BOOL, NULL); }
MT_UNARY_BOOL_OP(is_nan, MT_FLOATING_TYPES, isnan(x))
MT_UNARY_BOOL_OP(is_inf, MT_FLOATING_TYPES, isinf(x))
MT_UNARY_BOOL_OP(is_finite, MT_FLOATING_TYPES, isfinite(x))
MT_UNARY_BOOL_OP(logical_not, MT_BOOL_TYPES, !x)

/* ---- registrations ---- */

#define FLOAT_COMPLEX_T "T: {bfloat16, half, float, double, complex64, complex128}"
#define FLOATING_T "T: {bfloat16, half, float, double}"
#define UNARY(NAME, ATTRS, KERNEL)                                                 \
  {.name = NAME, .inputs = "x: T", .outputs = "y: T", .attrs = ATTRS,              \
   .shape = mt_unchanged_shape, .kernel = KERNEL}
#define UNARY_BOOL(NAME, ATTRS, KERNEL)                                            \
  {.name = NAME, .inputs = "x: T", .outputs = "y: bool", .attrs = ATTRS,           \
   .shape = mt_unchanged_shape, .kernel = KERNEL}

static const mt_op_spec unary_specs[] = {
    UNARY("Neg", "T: {bfloat16, half, float, double, int8, int16, int32, int64, complex64,"
                 " complex128}", neg_kernel),
    UNARY("Abs", "T: {bfloat16, half, float, double, int8, int16, int32, int64}", abs_kernel),
    UNARY("Sign", "T: {bfloat16, half, float, double, int8, int16, int32, int64, complex64,"
                  " complex128}", sign_kernel),
    UNARY("Square", "T: {bfloat16, half, float, double, int8, int16, int32, int64, uint8,"
                    " uint16, uint32, uint64, complex64, complex128}", square_kernel),
    UNARY("Sqrt", FLOAT_COMPLEX_T, sqrt_kernel),
    UNARY("Rsqrt", FLOAT_COMPLEX_T, rsqrt_kernel),
    UNARY("Reciprocal", "T: {bfloat16, half, float, double, int8, int16, int32, int64,"
                        " complex64, complex128}", reciprocal_kernel),
    UNARY("Inv", "T: {bfloat16, half, float, double, int8, int16, int32, int64, complex64,"
                 " complex128}", reciprocal_kernel),
    UNARY("Exp", FLOAT_COMPLEX_T, exp_kernel),
    UNARY("Expm1", FLOAT_COMPLEX_T, expm1_kernel),
    UNARY("Log", FLOAT_COMPLEX_T, log_kernel),
    UNARY("Log1p", FLOAT_COMPLEX_T, log1p_kernel),
    UNARY("Sin", FLOAT_COMPLEX_T, sin_kernel),
    UNARY("Cos", FLOAT_COMPLEX_T, cos_kernel),
    UNARY("Tan", FLOAT_COMPLEX_T, tan_kernel),
    UNARY("Tanh", FLOAT_COMPLEX_T, tanh_kernel),
    UNARY("Acos", FLOAT_COMPLEX_T, acos_kernel),
    UNARY("Asin", FLOAT_COMPLEX_T, asin_kernel),
    UNARY("Atan", FLOAT_COMPLEX_T, atan_kernel),
    UNARY("Sinh", FLOAT_COMPLEX_T, sinh_kernel),
    UNARY("Cosh", FLOAT_COMPLEX_T, cosh_kernel),
    UNARY("Asinh", FLOAT_COMPLEX_T, asinh_kernel),
    UNARY("Acosh", FLOAT_COMPLEX_T, acosh_kernel),
    UNARY("Atanh", FLOAT_COMPLEX_T, atanh_kernel),
    UNARY("Sigmoid", FLOAT_COMPLEX_T, sigmoid_kernel),
    UNARY("Erf", FLOATING_T, erf_kernel),
    UNARY("Floor", FLOATING_T, floor_kernel),
    UNARY("Ceil", FLOATING_T, ceil_kernel),
    UNARY("Round", "T: {bfloat16, half, float, double, int8, int16, int32, int64, complex64,"
                   " complex128}", round_kernel),
    UNARY("Rint", FLOATING_T, rint_kernel),
    UNARY_BOOL("IsNan", FLOATING_T, is_nan_kernel),
    UNARY_BOOL("IsInf", FLOATING_T, is_inf_kernel),
    UNARY_BOOL("IsFinite", FLOATING_T, is_finite_kernel),
    {.name = "LogicalNot", .inputs = "x: bool", .outputs = "y: bool",
     .shape = mt_unchanged_shape, .kernel = logical_not_kernel},
};

void mt_register_unary_ops(void) {
  mt_register_ops(unary_specs, (int)(sizeof unary_specs / sizeof unary_specs[0]));
}
