/* Philox4x32-10 with TensorFlow's layout (philox_random.h): key from
 * `seed`, the upper counter words from `seed2`; SimplePhilox's draws over a
 * one-word-at-a-time adapter (SingleSampleAdapter). Header-only so a kernel
 * family can draw TensorFlow's numbers for the same seeds. random_ops.c
 * carries the same generator privately (it predates this header); the two
 * must stay bit-identical. */
#ifndef MINITF_RUNTIME_KERNELS_PHILOX_H_
#define MINITF_RUNTIME_KERNELS_PHILOX_H_

#include <stdint.h>
#include <string.h>

typedef struct mt_philox {
  uint32_t ctr[4];
  uint32_t key[2];
} mt_philox;

static inline void mt_philox_seed(mt_philox* g, uint64_t seed, uint64_t seed2) {
  g->key[0] = (uint32_t)seed;
  g->key[1] = (uint32_t)(seed >> 32);
  g->ctr[0] = g->ctr[1] = 0;
  g->ctr[2] = (uint32_t)seed2;
  g->ctr[3] = (uint32_t)(seed2 >> 32);
}

/* Advances the 128-bit counter by n samples. */
static inline void mt_philox_skip(mt_philox* g, uint64_t n) {
  const uint32_t lo = (uint32_t)n;
  uint32_t hi = (uint32_t)(n >> 32);
  g->ctr[0] += lo;
  if (g->ctr[0] < lo) hi++;
  g->ctr[1] += hi;
  if (g->ctr[1] < hi && ++g->ctr[2] == 0) g->ctr[3]++;
}

/* One 128-bit sample (4 words); advances the counter by one. */
static inline void mt_philox_next(mt_philox* g, uint32_t out[4]) {
  uint32_t c0 = g->ctr[0], c1 = g->ctr[1], c2 = g->ctr[2], c3 = g->ctr[3];
  uint32_t k0 = g->key[0], k1 = g->key[1];
  for (int round = 0; round < 10; round++) {
    if (round) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    const uint64_t p0 = (uint64_t)0xD2511F53u * c0;
    const uint64_t p1 = (uint64_t)0xCD9E8D57u * c2;
    const uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0;
    const uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
    c1 = (uint32_t)p1;
    c3 = (uint32_t)p0;
    c0 = n0;
    c2 = n2;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
  mt_philox_skip(g, 1);
}

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
