/* 16-lane float vectors (GCC vector extensions) and the branch-free float
 * math on them that the elementwise kernels share: vexpf16 (exp), the
 * tanh rational approximation and a loop that maps such an expression over
 * a float/half/bfloat16 buffer. Each MT_SIMD_CLONES clone of the loop maps
 * the vectors onto SSE2, AVX2 or AVX-512 registers; every lane computes the
 * same operations in the same order, so all clones give the same bits.
 * Header-only (static functions); thread-safe. */
#ifndef MINITF_RUNTIME_KERNELS_VEC_MATH_H_
#define MINITF_RUNTIME_KERNELS_VEC_MATH_H_

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "runtime/kernels/half.h"
#include "runtime/kernels/window_util.h" /* MT_SIMD_CLONES */

/* Helpers are always inlined into the clones: no 64-byte vector crosses a
 * call, so GCC's note on that ABI does not apply. */
#pragma GCC diagnostic ignored "-Wpsabi"
#define V16_INLINE static inline __attribute__((always_inline))
typedef float v16f __attribute__((vector_size(64)));
typedef int32_t v16i __attribute__((vector_size(64)));

/* m (all-ones / zero lanes, as vector comparisons give) ? a : b */
V16_INLINE v16f v16_sel(v16i m, v16f a, v16f b) {
  return (v16f)((m & (v16i)a) | (~m & (v16i)b));
}

V16_INLINE v16f v16_splat(float c) {
  return (v16f){0} + c;
}

/* exp on 16 lanes without branches or library calls (TensorFlow's Eigen
 * kernels use a SIMD exp too): Cephes' polynomial after a Cody-Waite
 * reduction, within ~2 ulp of expf. NaN stays NaN, exp(x) = inf above
 * ~88.38, 0 below ~-88.38 (no subnormal results). */
V16_INLINE v16f vexpf16(v16f x) {
  const float hi = 88.3762626647949f, lo = -88.3762626647949f;
  const v16i nan = x != x;
  v16f xc = v16_sel(nan, v16_splat(0.0f), x);
  xc = v16_sel(xc < lo, v16_splat(lo), v16_sel(xc > hi, v16_splat(hi), xc));
  const v16f fx = xc * 1.44269504088896341f + 0.5f;
  v16i mi = __builtin_convertvector(fx, v16i);
  mi += __builtin_convertvector(mi, v16f) > fx; /* floor: true lanes are -1 */
  const v16f m = __builtin_convertvector(mi, v16f);
  v16f r = xc - m * 0.693359375f;
  r = r + m * 2.12194440e-4f;
  v16f y = v16_splat(1.9875691500e-4f);
  y = y * r + 1.3981999507e-3f;
  y = y * r + 8.3334519073e-3f;
  y = y * r + 4.1665795894e-2f;
  y = y * r + 1.6666665459e-1f;
  y = y * r + 5.0000001201e-1f;
  y = y * (r * r) + r + 1.0f;
  /* times 2^m in two steps: m may be 128, beyond one float exponent */
  const v16i m1 = mi >> 1, m2 = mi - m1;
  y = y * (v16f)((m1 + 127) << 23) * (v16f)((m2 + 127) << 23);
  y = v16_sel(x > hi, v16_splat(INFINITY), v16_sel(x < lo, v16_splat(0.0f), y));
  return v16_sel(nan, x, y);
}

/* tanh on 16 lanes: Eigen's fast float tanh (the one TensorFlow's Tanh
 * uses), an odd/even [9/8] rational approximation on x clamped to
 * +-7.90738964 (where it evaluates to exactly +-1, the non-FMA bound: ISO
 * C mode contracts nothing). NaN stays NaN (the clamp keeps it), -0 stays
 * -0, +-inf gives +-1. */
V16_INLINE v16f vtanhf16(v16f x) {
  const float c = 7.90738964080810547f;
  x = v16_sel(x > c, v16_splat(c), v16_sel(x < -c, v16_splat(-c), x));
  const v16f x2 = x * x, x3 = x2 * x;
  v16f p = v16_splat(1.394553628e-8f);
  p = p * x2 + 2.102733560e-5f;
  p = p * x2 + 3.520756727e-3f;
  p = p * x2 + 1.340216100e-1f;
  v16f q = v16_splat(8.015776984e-7f);
  q = q * x2 + 3.326951409e-4f;
  q = q * x2 + 2.597254514e-2f;
  q = q * x2 + 4.673548340e-1f;
  q = q * x2 + 1.0f;
  return (x3 * p + x) / q;
}

/* 1 / (1 + exp(-x)) on 16 lanes: 0 below ~-88.38 (exp overflows), 1 where
 * exp(-x) underflows, NaN stays NaN. */
V16_INLINE v16f vsigmoidf16(v16f x) {
  return 1.0f / (1.0f + vexpf16(-x));
}

/* Defines `static void NAME(const void* x, void* y, int64_t begin,
 * int64_t end, float pf)`, cloned per vector width: y[i] = EXPR for i in
 * [begin, end), EXPR a v16f of `x` (16 elements loaded as float with LOAD)
 * and `pf`, stored back with STORE. float moves whole vectors (no
 * per-element staging: a vector load of just-stored scalars stalls store
 * forwarding); the tail and the 16-bit types go through a float buffer. */
#define MT_V16_MAP(NAME, CT, LOAD, STORE, EXPR)                                            \
  MT_SIMD_CLONES static void NAME(const void* xv, void* yv, int64_t begin, int64_t end,    \
                                  float pf) {                                              \
    const CT* xp = xv;                                                                     \
    CT* yp = yv;                                                                           \
    const int direct = sizeof(CT) == sizeof(float);                                        \
    (void)pf;                                                                              \
    float buf[16];                                                                         \
    for (int64_t i = begin; i < end; i += 16) {                                            \
      const int64_t n = end - i < 16 ? end - i : 16;                                       \
      v16f x;                                                                              \
      if (direct && n == 16) {                                                             \
        memcpy(&x, xp + i, sizeof x);                                                      \
      } else {                                                                             \
        for (int j = 0; j < 16; j++) buf[j] = j < n ? LOAD(xp[i + j]) : 0.0f;              \
        memcpy(&x, buf, sizeof x);                                                         \
      }                                                                                    \
      const v16f r = (EXPR);                                                               \
      if (direct && n == 16) {                                                             \
        memcpy(yp + i, &r, sizeof r);                                                      \
      } else {                                                                             \
        memcpy(buf, &r, sizeof r);                                                         \
        for (int64_t j = 0; j < n; j++) yp[i + j] = STORE(buf[j]);                         \
      }                                                                                    \
    }                                                                                      \
  }

#endif
