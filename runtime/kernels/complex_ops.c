/* Complex-number ops: Complex (real, imag -> complex, broadcast), Real, Imag, Angle,
 * ComplexAbs (complex -> its real type), Conj. Signatures are TensorFlow 2.21's
 * (math_ops.cc); Conj of a DT_VARIANT is not supported (no CPU variant conjugation). */
#include <complex.h>
#include <math.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"

/* Complex(x, y) = x + i y, broadcast NumPy-style. */
#define COMPLEX_REAL_TYPES(X, ...) X(TF_FLOAT, float, __VA_ARGS__) X(TF_DOUBLE, double, __VA_ARGS__)
MT_BINARY_LOOP_(TF_FLOAT, float, mt_complex64, to_cplx, CMPLXF(x, y))
MT_BINARY_LOOP_(TF_DOUBLE, double, mt_complex128, to_cplx, CMPLX(x, y))
static const mt_binary_fn complex_fns[MT_NUM_DTYPES] = {MT_ENTRIES(to_cplx, COMPLEX_REAL_TYPES)};

static void complex_kernel(mt_kernel_ctx* ctx) {
  const TF_DataType t = ctx->inputs[0]->dtype;
  mt_binary_run(ctx, complex_fns, t == TF_DOUBLE ? TF_COMPLEX128 : TF_COMPLEX64, NULL);
}

/* Complex -> real projections: one loop per input type, output of its real type. */
#define PROJECT(NAME, F64, F128)                                                           \
  static void NAME##_c64(const void* xv, void* yv, int64_t b, int64_t e, atomic_int* err) { \
    (void)err;                                                                              \
    const mt_complex64* x = xv;                                                             \
    float* y = yv;                                                                          \
    for (int64_t i = b; i < e; i++) y[i] = F64(x[i]);                                       \
  }                                                                                         \
  static void NAME##_c128(const void* xv, void* yv, int64_t b, int64_t e, atomic_int* err) { \
    (void)err;                                                                              \
    const mt_complex128* x = xv;                                                            \
    double* y = yv;                                                                         \
    for (int64_t i = b; i < e; i++) y[i] = F128(x[i]);                                      \
  }                                                                                         \
  static const mt_unary_fn NAME##_fns[MT_NUM_DTYPES] = {[TF_COMPLEX64] = NAME##_c64,        \
                                                        [TF_COMPLEX128] = NAME##_c128};     \
  static void NAME##_kernel(mt_kernel_ctx* ctx) {                                           \
    const TF_DataType t = ctx->inputs[0]->dtype;                                            \
    mt_unary_run(ctx, NAME##_fns, t == TF_COMPLEX128 ? TF_DOUBLE : TF_FLOAT, NULL);         \
  }
PROJECT(real, crealf, creal)
PROJECT(imag, cimagf, cimag)
PROJECT(angle, cargf, carg)
PROJECT(complex_abs, cabsf, cabs)

MT_UNARY_OP(conj, MT_COMPLEX_TYPES, _Generic((x), mt_complex64: conjf, default: conj)(x))

/* Output 0: input 0's shape (the projections and Conj). Complex broadcasts. */
#define REAL_T "T: {complex64, complex128} = DT_COMPLEX64; Tout: {float, double} = DT_FLOAT"
static const mt_op_spec complex_specs[] = {
    {.name = "Complex", .inputs = "real: T, imag: T", .outputs = "out: Tout",
     .attrs = "T: {float, double} = DT_FLOAT; Tout: {complex64, complex128} = DT_COMPLEX64",
     .shape = mt_binary_shape, .kernel = complex_kernel},
    {.name = "Real", .inputs = "input: T", .outputs = "output: Tout", .attrs = REAL_T,
     .shape = mt_unchanged_shape, .kernel = real_kernel},
    {.name = "Imag", .inputs = "input: T", .outputs = "output: Tout", .attrs = REAL_T,
     .shape = mt_unchanged_shape, .kernel = imag_kernel},
    {.name = "Angle", .inputs = "input: T", .outputs = "output: Tout", .attrs = REAL_T,
     .shape = mt_unchanged_shape, .kernel = angle_kernel},
    {.name = "ComplexAbs", .inputs = "x: T", .outputs = "y: Tout", .attrs = REAL_T,
     .shape = mt_unchanged_shape, .kernel = complex_abs_kernel},
    {.name = "Conj", .inputs = "input: T", .outputs = "output: T",
     .attrs = "T: {complex64, complex128, variant} = DT_COMPLEX64",
     .shape = mt_unchanged_shape, .kernel = conj_kernel},
};

void mt_register_complex_ops(void) {
  mt_register_ops(complex_specs, (int)(sizeof complex_specs / sizeof complex_specs[0]));
}
