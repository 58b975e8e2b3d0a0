/* float16 (IEEE half) and bfloat16 storage types and their conversions.
 * Kernels compute these types in float: load with mt_*_to_float, compute,
 * store with mt_float_to_* (round to nearest even, as TensorFlow/Eigen). */
#ifndef MINITF_RUNTIME_KERNELS_HALF_H_
#define MINITF_RUNTIME_KERNELS_HALF_H_

#include <stdint.h>
#include <string.h>

/* Distinct struct types so a half is never mistaken for an integer. */
typedef struct mt_half { uint16_t bits; } mt_half;
typedef struct mt_bfloat16 { uint16_t bits; } mt_bfloat16;

static inline uint32_t mt_f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof(u));
  return u;
}

static inline float mt_f32_from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof(f));
  return f;
}

static inline float mt_bfloat16_to_float(mt_bfloat16 h) {
  return mt_f32_from_bits((uint32_t)h.bits << 16);
}

static inline mt_bfloat16 mt_float_to_bfloat16(float f) {
  uint32_t u = mt_f32_bits(f);
  mt_bfloat16 h;
  if ((u & 0x7fffffffu) > 0x7f800000u) { /* NaN: keep it quiet, keep the sign */
    h.bits = (uint16_t)((u >> 16) | 0x0040u);
    return h;
  }
  u += 0x7fffu + ((u >> 16) & 1u); /* round to nearest even */
  h.bits = (uint16_t)(u >> 16);
  return h;
}

static inline float mt_half_to_float(mt_half h) {
  uint32_t sign = (uint32_t)(h.bits & 0x8000u) << 16;
  uint32_t exp = (h.bits >> 10) & 0x1fu;
  uint32_t man = h.bits & 0x3ffu;
  if (exp == 0x1f) return mt_f32_from_bits(sign | 0x7f800000u | (man << 13)); /* inf/NaN */
  if (exp == 0) {
    if (man == 0) return mt_f32_from_bits(sign);
    float sub = (float)man * (1.0f / 16777216.0f); /* man * 2^-24 */
    return sign ? -sub : sub;
  }
  return mt_f32_from_bits(sign | ((exp + 112u) << 23) | (man << 13));
}

static inline mt_half mt_float_to_half(float f) {
  uint32_t u = mt_f32_bits(f);
  uint32_t sign = (u >> 16) & 0x8000u;
  uint32_t a = u & 0x7fffffffu;
  mt_half h;
  if (a > 0x7f800000u) { /* NaN */
    h.bits = (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x3ffu));
    return h;
  }
  if (a >= 0x477ff000u) { /* rounds to >= 65520: infinity */
    h.bits = (uint16_t)(sign | 0x7c00u);
    return h;
  }
  if (a < 0x38800000u) { /* subnormal half (or zero): scale and round to nearest even */
    float mag = mt_f32_from_bits(a) * 16777216.0f; /* in units of 2^-24 */
    uint32_t m = (uint32_t)mag;
    float rest = mag - (float)m;
    if (rest > 0.5f || (rest == 0.5f && (m & 1u))) m++;
    h.bits = (uint16_t)(sign | m);
    return h;
  }
  uint32_t r = a + 0xfffu + ((a >> 13) & 1u) - (112u << 23); /* rebias, round nearest even */
  h.bits = (uint16_t)(sign | (r >> 13));
  return h;
}

#endif
