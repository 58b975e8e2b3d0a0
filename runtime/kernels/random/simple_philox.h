/* TensorFlow's SimplePhilox draws over a one-word-at-a-time adapter
 * (SingleSampleAdapter) on the runtime's one Philox4x32-10 generator
 * (runtime/kernels/random/philox.h), so a kernel family outside the random ops
 * (the candidate samplers) draws TensorFlow's numbers for the same seeds. */
#ifndef MINITF_RUNTIME_KERNELS_RANDOM_SIMPLE_PHILOX_H_
#define MINITF_RUNTIME_KERNELS_RANDOM_SIMPLE_PHILOX_H_

#include <stdint.h>
#include <string.h>

#include "runtime/kernels/random/philox.h"

/* SimplePhilox: 32-bit words taken one at a time from 128-bit samples. */
typedef struct mt_simple_philox {
  mt_philox g;
  uint32_t buf[4];
  int used;
} mt_simple_philox;

static inline void mt_simple_philox_init(mt_simple_philox* s, const mt_philox* g) {
  s->g = *g;
  s->used = 4;
}

static inline uint32_t mt_sp_rand32(mt_simple_philox* s) {
  if (s->used == 4) {
    mt_philox_next(&s->g, s->buf);
    s->used = 0;
  }
  return s->buf[s->used++];
}

static inline uint64_t mt_sp_rand64(mt_simple_philox* s) {
  const uint32_t lo = mt_sp_rand32(s);
  const uint32_t hi = mt_sp_rand32(s);
  return lo | (uint64_t)hi << 32;
}

/* [0, 1) from 23 random bits (Uint32ToFloat). */
static inline float mt_sp_rand_float(mt_simple_philox* s) {
  const uint32_t bits = 0x3f800000u | (mt_sp_rand32(s) & 0x7fffffu);
  float f;
  memcpy(&f, &bits, sizeof f);
  return f - 1.0f;
}

/* [0, 1) from 52 random bits of two words (Uint64ToDouble). */
static inline double mt_sp_rand_double(mt_simple_philox* s) {
  const uint32_t x0 = mt_sp_rand32(s), x1 = mt_sp_rand32(s);
  const uint64_t bits = (uint64_t)1023 << 52 | (uint64_t)(x0 & 0xfffffu) << 32 | x1;
  double d;
  memcpy(&d, &bits, sizeof d);
  return d - 1.0;
}

/* Uniform integers in [0, n) by rejecting the low remainder
 * (ExactUniformInt): n = 0 still consumes a draw. */
static inline uint32_t mt_sp_uniform(mt_simple_philox* s, uint32_t n) {
  if (n == 0) return mt_sp_rand32(s) * n;
  if ((n & (n - 1)) == 0) return mt_sp_rand32(s) & (n - 1);
  const uint32_t rem = (UINT32_MAX % n) + 1;
  uint32_t r;
  do r = mt_sp_rand32(s);
  while (r < rem);
  return r % n;
}

static inline uint64_t mt_sp_uniform64(mt_simple_philox* s, uint64_t n) {
  if (n == 0) return mt_sp_rand64(s) * n;
  if ((n & (n - 1)) == 0) return mt_sp_rand64(s) & (n - 1);
  const uint64_t rem = (UINT64_MAX % n) + 1;
  uint64_t r;
  do r = mt_sp_rand64(s);
  while (r < rem);
  return r % n;
}

#endif
