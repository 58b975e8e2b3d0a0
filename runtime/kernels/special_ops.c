/* Special-function ops: Lgamma, Digamma, Erfc, Erfinv, Ndtri, BesselI0/I1/I0e/I1e,
 * Igamma, Igammac, IgammaGradA, Zeta, Polygamma, Betainc, and the zero-safe products
 * Xlogy, Xdivy, Xlog1py. Signatures and CPU dtypes are TensorFlow 2.21's (math_ops.cc,
 * special_math_ops.cc, cwise_op_*.cc). Every real dtype is evaluated in double
 * (special_math.h) and rounded once. */
#include <complex.h>
#include <math.h>
#include <stdio.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/special_math.h"

#define D(fn, x) ((T)fn((double)(x)))
#define D2(fn, x, y) ((T)fn((double)(x), (double)(y)))

#define SPECIAL_UNARY(NAME, FN) MT_UNARY_OP(NAME, MT_FLOATING_TYPES, D(FN, x))
SPECIAL_UNARY(lgamma, mt_lgamma)
SPECIAL_UNARY(digamma, mt_digamma)
SPECIAL_UNARY(erfc, erfc)
SPECIAL_UNARY(erfinv, mt_erfinv)
SPECIAL_UNARY(ndtri, mt_ndtri)
SPECIAL_UNARY(bessel_i0e, mt_bessel_i0e)
SPECIAL_UNARY(bessel_i1e, mt_bessel_i1e)
SPECIAL_UNARY(bessel_i0, mt_bessel_i0)
SPECIAL_UNARY(bessel_i1, mt_bessel_i1)

MT_BINARY_OP(igamma, MT_FLOATING_TYPES, D2(mt_igamma, x, y))
MT_BINARY_OP(igammac, MT_FLOATING_TYPES, D2(mt_igammac, x, y))
MT_BINARY_OP(igamma_grad_a, MT_FLOAT_TYPES, D2(mt_igamma_grad_a, x, y))
MT_BINARY_OP(zeta, MT_FLOAT_TYPES, D2(mt_zeta, x, y))
MT_BINARY_OP(polygamma, MT_FLOAT_TYPES, D2(mt_polygamma, x, y))

/* x * f(y), 0 where x == 0 (TensorFlow 2.21: even for a NaN y). */
#define CLOG(v) _Generic((v), mt_complex64: clogf, default: clog)(v)
MT_BINARY_LOOPS(xlogy_f, MT_FLOATING_TYPES, x == 0 ? (T)0 : (T)(x * D(log, y)))
MT_BINARY_LOOPS(xlogy_c, MT_COMPLEX_TYPES, x == 0 ? (T)0 : x * CLOG(y))
MT_BINARY_LOOPS(xlog1py_f, MT_FLOATING_TYPES, x == 0 ? (T)0 : (T)(x * D(log1p, y)))
MT_BINARY_LOOPS(xlog1py_c, MT_COMPLEX_TYPES, x == 0 ? (T)0 : x * CLOG(1 + y))
MT_BINARY_LOOPS(xdivy_f, MT_FLOATING_TYPES, x == 0 ? (T)0 : x / y)
MT_BINARY_LOOPS(xdivy_c, MT_COMPLEX_TYPES, x == 0 ? (T)0 : x / y)
#define XFNS(NAME)                                                                         \
  static const mt_binary_fn NAME##_fns[MT_NUM_DTYPES] = {                                  \
      MT_ENTRIES(NAME##_f, MT_FLOATING_TYPES) MT_ENTRIES(NAME##_c, MT_COMPLEX_TYPES)};     \
  MT_BINARY_KERNEL(NAME, NAME##_fns, NULL)
XFNS(xlogy)
XFNS(xlog1py)
XFNS(xdivy)

/* ---- Betainc: a, b, x of one shape, or scalars (no other broadcasting) ---- */

/* Merges *in into *out with TensorFlow's Merge wording. */
static int merge_betainc(mt_shape_ctx* ctx, mt_shape* out, const mt_shape* in) {
  char a[256], b[256];
  if (in->rank != out->rank) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Shapes must be equal rank, but are %d and %d", out->rank, in->rank);
    return 0;
  }
  for (int d = 0; d < in->rank; d++) {
    const int64_t x = out->dims[d], y = in->dims[d];
    if (x >= 0 && y >= 0 && x != y) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Dimension %d in both shapes must be equal, but are %lld and %lld. Shapes "
                     "are %s and %s.", d, (long long)x, (long long)y,
                     mt_dims_str(out->dims, out->rank, a, sizeof a),
                     mt_dims_str(in->dims, in->rank, b, sizeof b));
      return 0;
    }
    if (x < 0) out->dims[d] = y;
  }
  return 1;
}

/* TensorFlow's BetaincShape: the non-scalar inputs' shapes merged. */
static void betainc_shape(mt_shape_ctx* ctx) {
  mt_shape out = mt_shape_unknown(), some = mt_shape_unknown();
  int scalars = 0;
  for (int i = 0; i < 3; i++) {
    const mt_shape* in = &ctx->in[i];
    if (in->rank < 0) {
      some = *in;
    } else if (in->rank == 0) {
      scalars++;
    } else {
      if (out.rank >= 0 && !merge_betainc(ctx, &out, in)) return;
      if (out.rank < 0) out = *in;
      some = out;
    }
  }
  if (scalars == 2)
    out = some;
  else if (scalars == 3)
    out = ctx->in[0];
  ctx->out[0] = out;
}

static int same_dims(const TF_Tensor* a, const TF_Tensor* b) {
  if (a->ndims != b->ndims) return 0;
  for (int d = 0; d < a->ndims; d++)
    if (a->dims[d] != b->dims[d]) return 0;
  return 1;
}

static int betainc_check(mt_kernel_ctx* ctx, int i, int j, const char* what) {
  const TF_Tensor *p = ctx->inputs[i], *q = ctx->inputs[j];
  if (p->ndims > 0 && q->ndims > 0 && !same_dims(p, q)) {
    char s1[256], s2[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shapes of %s are inconsistent: %s vs. %s",
                   what, mt_dims_str(p->dims, p->ndims, s1, sizeof s1),
                   mt_dims_str(q->dims, q->ndims, s2, sizeof s2));
    return 0;
  }
  return 1;
}

static double load_real(const TF_Tensor* t, int64_t i) {
  const void* p = mt_tensor_data(t);
  return t->dtype == TF_FLOAT ? ((const float*)p)[i] : ((const double*)p)[i];
}

static void betainc_kernel(mt_kernel_ctx* ctx) {
  if (!betainc_check(ctx, 0, 1, "a and b") || !betainc_check(ctx, 0, 2, "a and x") ||
      !betainc_check(ctx, 1, 2, "b and x"))
    return;
  const TF_Tensor* big = ctx->inputs[0];
  for (int i = 1; i < 3; i++)
    if (ctx->inputs[i]->ndims > big->ndims) big = ctx->inputs[i];
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, big->dtype, big->dims, big->ndims);
  if (!out) return;
  const int64_t n = mt_tensor_nelems(out);
  const TF_Tensor *a = ctx->inputs[0], *b = ctx->inputs[1], *x = ctx->inputs[2];
  const int sa = a->ndims > 0, sb = b->ndims > 0, sx = x->ndims > 0;
  for (int64_t i = 0; i < n; i++) {
    const double v = mt_betainc(load_real(a, sa ? i : 0), load_real(b, sb ? i : 0),
                                load_real(x, sx ? i : 0));
    if (out->dtype == TF_FLOAT)
      ((float*)mt_tensor_data(out))[i] = (float)v;
    else
      ((double*)mt_tensor_data(out))[i] = v;
  }
}

/* ---- registrations ---- */

#define FLOATING_T "T: {bfloat16, half, float, double}"
#define UNARY(NAME, KERNEL)                                                       \
  {.name = NAME, .inputs = "x: T", .outputs = "y: T", .attrs = FLOATING_T,        \
   .shape = mt_unchanged_shape, .kernel = KERNEL}
#define BINARY(NAME, IN, ATTRS, KERNEL)                                            \
  {.name = NAME, .inputs = IN, .outputs = "z: T", .attrs = ATTRS,                  \
   .shape = mt_binary_shape, .kernel = KERNEL}
#define XLOG_T "T: {half, bfloat16, float, double, complex64, complex128}"

static const mt_op_spec special_specs[] = {
    UNARY("Lgamma", lgamma_kernel),
    UNARY("Digamma", digamma_kernel),
    UNARY("Erfc", erfc_kernel),
    UNARY("Erfinv", erfinv_kernel),
    UNARY("Ndtri", ndtri_kernel),
    UNARY("BesselI0e", bessel_i0e_kernel),
    UNARY("BesselI1e", bessel_i1e_kernel),
    UNARY("BesselI0", bessel_i0_kernel),
    UNARY("BesselI1", bessel_i1_kernel),
    BINARY("Igamma", "a: T, x: T", FLOATING_T, igamma_kernel),
    BINARY("Igammac", "a: T, x: T", FLOATING_T, igammac_kernel),
    BINARY("IgammaGradA", "a: T, x: T", "T: {float, double}", igamma_grad_a_kernel),
    BINARY("Zeta", "x: T, q: T", "T: {float, double}", zeta_kernel),
    BINARY("Polygamma", "a: T, x: T", "T: {float, double}", polygamma_kernel),
    BINARY("Xlogy", "x: T, y: T", XLOG_T, xlogy_kernel),
    BINARY("Xlog1py", "x: T, y: T", XLOG_T, xlog1py_kernel),
    BINARY("Xdivy", "x: T, y: T", XLOG_T, xdivy_kernel),
    {.name = "Betainc", .inputs = "a: T, b: T, x: T", .outputs = "z: T",
     .attrs = "T: {float, double}", .shape = betainc_shape, .kernel = betainc_kernel},
};

void mt_register_special_ops(void) {
  mt_register_ops(special_specs, (int)(sizeof special_specs / sizeof special_specs[0]));
}
