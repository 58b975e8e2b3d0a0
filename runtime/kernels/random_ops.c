/* Stateful random ops: RandomUniform, RandomUniformInt,
 * RandomStandardNormal, TruncatedNormal, RandomShuffle, Multinomial
 * (TensorFlow's random_op.cc, multinomial_op.cc, random_shuffle_op.cc).
 *
 * The numbers are TensorFlow's, bit for bit, for the same seeds: the same
 * Philox4x32-10 counter-based generator (key from `seed`, high counter words
 * from `seed2`), the same reservation of generator samples per kernel call
 * (GuardedPhiloxRandom: the per-node state advances by what each call
 * reserves, so a second run of the same node in the same session gives new
 * numbers exactly as TensorFlow), and the same bit-level conversions
 * (Uint32ToFloat, Uint64ToDouble, Box-Muller with glibc's sincosf/sincos,
 * TruncatedNormal's rejection loop). The generator state of a node lives in
 * the session state (mt_state_rng), so it is per (session, node) like
 * TensorFlow's per-kernel GuardedPhiloxRandom.
 *
 * Work is split over groups of outputs, each group positioned in the
 * generator independently of the split (as TensorFlow's FillPhiloxRandom),
 * so results never depend on the thread count. Multinomial is the
 * exception, in TensorFlow too: each shard of rows starts its own stream, so
 * its numbers depend on how TensorFlow's Shard/Eigen parallelFor splits the
 * batch over the intra-op threads; tf_row_blocks reproduces that split for
 * the session's intra-op thread count (TensorFlow's default, like ours, is
 * the number of usable CPUs). */
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/half.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/random/philox.h"
#include "runtime/resource.h"

/* ---- Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as
 * 1, 2, 3"; TensorFlow's philox_random.h layout) ---- */

enum {
  PHILOX_W32A = 0x9E3779B9u, /* key schedule increments */
  PHILOX_W32B = 0xBB67AE85u,
};
#define PHILOX_M4X32A 0xD2511F53u /* round multipliers */
#define PHILOX_M4X32B 0xCD9E8D57u

/* seed fills the key, seed2 the upper half of the 128-bit counter. */
void mt_philox_seed(mt_philox* g, uint64_t seed, uint64_t seed2) {
  g->key[0] = (uint32_t)seed;
  g->key[1] = (uint32_t)(seed >> 32);
  g->ctr[0] = g->ctr[1] = 0;
  g->ctr[2] = (uint32_t)seed2;
  g->ctr[3] = (uint32_t)(seed2 >> 32);
}

/* Advances the 128-bit counter by n samples. */
void mt_philox_skip(mt_philox* g, uint64_t n) {
  const uint32_t lo = (uint32_t)n;
  uint32_t hi = (uint32_t)(n >> 32);
  g->ctr[0] += lo;
  if (g->ctr[0] < lo) hi++;
  g->ctr[1] += hi;
  if (g->ctr[1] < hi && ++g->ctr[2] == 0) g->ctr[3]++;
}

/* One 128-bit sample (4 words); advances the counter by one. */
void mt_philox_next(mt_philox* g, uint32_t out[4]) {
  uint32_t c0 = g->ctr[0], c1 = g->ctr[1], c2 = g->ctr[2], c3 = g->ctr[3];
  uint32_t k0 = g->key[0], k1 = g->key[1];
  for (int round = 0; round < 10; round++) {
    if (round) {
      k0 += PHILOX_W32A;
      k1 += PHILOX_W32B;
    }
    const uint64_t p0 = (uint64_t)PHILOX_M4X32A * c0;
    const uint64_t p1 = (uint64_t)PHILOX_M4X32B * c2;
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

/* TensorFlow's SingleSampleAdapter: one 32-bit word at a time. */
typedef struct single_sampler {
  mt_philox* g;
  uint32_t buf[4];
  int used;
} single_sampler;

static single_sampler single_make(mt_philox* g) {
  single_sampler s = {.g = g, .used = 4};
  return s;
}

static uint32_t single_next(single_sampler* s) {
  if (s->used == 4) {
    mt_philox_next(s->g, s->buf);
    s->used = 0;
  }
  return s->buf[s->used++];
}

/* ---- bits to numbers (random_distributions_utils.h) ---- */

/* [0, 1) from the low 23 bits: a float in [1, 2) minus 1. */
static float u32_to_float(uint32_t x) {
  return mt_f32_from_bits(0x3f800000u | (x & 0x7fffffu)) - 1.0f;
}

/* [0, 1) from 52 bits (20 of x0, 32 of x1). */
static double u64_to_double(uint32_t x0, uint32_t x1) {
  const uint64_t bits = (UINT64_C(1023) << 52) | ((uint64_t)(x0 & 0xfffffu) << 32) | x1;
  double d;
  memcpy(&d, &bits, sizeof d);
  return d - 1.0;
}

static mt_half u16_to_half(uint32_t x) {
  const mt_half one_to_two = {(uint16_t)((15u << 10) | (x & 0x3ffu))};
  return mt_float_to_half(mt_half_to_float(one_to_two) - 1.0f); /* exact */
}

static mt_bfloat16 u16_to_bfloat16(uint32_t x) {
  const mt_bfloat16 one_to_two = {(uint16_t)((127u << 7) | (x & 0x7fu))};
  return mt_float_to_bfloat16(mt_bfloat16_to_float(one_to_two) - 1.0f); /* exact */
}

/* Box-Muller in float as TensorFlow computes it: the angle in double then
 * rounded, the radius with float log/sqrt, glibc's sincosf. */
static void box_muller_float(uint32_t x0, uint32_t x1, float* f0, float* f1) {
  float u1 = u32_to_float(x0);
  if (u1 < 1.0e-7f) u1 = 1.0e-7f; /* keep log() finite */
  const float v1 = (float)(2.0 * M_PI * (double)u32_to_float(x1));
  const float u2 = sqrtf(-2.0f * logf(u1));
  sincosf(v1, f0, f1);
  *f0 *= u2;
  *f1 *= u2;
}

static void box_muller_double(uint32_t x0, uint32_t x1, uint32_t x2, uint32_t x3, double* d0,
                              double* d1) {
  double u1 = u64_to_double(x0, x1);
  if (u1 < 1.0e-7) u1 = 1.0e-7;
  const double v1 = 2 * M_PI * u64_to_double(x2, x3);
  const double u2 = sqrt(-2.0 * log(u1));
  sincos(v1, d0, d1);
  *d0 *= u2;
  *d1 *= u2;
}

/* ---- distributions: one call fills one group of outputs ---- */


static void uniform_float(mt_philox* g, void* out, const mt_rng_range* r) {
  uint32_t s[4];
  mt_philox_next(g, s);
  for (int i = 0; i < 4; i++) ((float*)out)[i] = u32_to_float(s[i]);
}

static void uniform_double(mt_philox* g, void* out, const mt_rng_range* r) {
  uint32_t s[4];
  mt_philox_next(g, s);
  for (int i = 0; i < 2; i++) ((double*)out)[i] = u64_to_double(s[2 * i], s[2 * i + 1]);
}

static void uniform_half(mt_philox* g, void* out, const mt_rng_range* r) {
  uint32_t s[4];
  mt_philox_next(g, s);
  for (int i = 0; i < 4; i++) ((mt_half*)out)[i] = u16_to_half(s[i]);
}

static void uniform_bfloat16(mt_philox* g, void* out, const mt_rng_range* r) {
  uint32_t s[4];
  mt_philox_next(g, s);
  for (int i = 0; i < 4; i++) ((mt_bfloat16*)out)[i] = u16_to_bfloat16(s[i]);
}

/* lo + (bits % range), added in unsigned arithmetic: the sum is always in
 * range, so wrapping gives TensorFlow's SignedAdd result without overflow. */
static void uniform_int32(mt_philox* g, void* out, const mt_rng_range* r) {
  uint32_t s[4];
  mt_philox_next(g, s);
  for (int i = 0; i < 4; i++)
    ((int32_t*)out)[i] = (int32_t)((uint32_t)r->lo + s[i] % (uint32_t)r->range);
}

static void uniform_int64(mt_philox* g, void* out, const mt_rng_range* r) {
  uint32_t s[4];
  mt_philox_next(g, s);
  for (int i = 0; i < 2; i++) {
    const uint64_t bits = s[2 * i] | (uint64_t)s[2 * i + 1] << 32;
    ((int64_t*)out)[i] = (int64_t)((uint64_t)r->lo + bits % r->range);
  }
}

static void normal_float4(mt_philox* g, float f[4]) {
  uint32_t s[4];
  mt_philox_next(g, s);
  box_muller_float(s[0], s[1], &f[0], &f[1]);
  box_muller_float(s[2], s[3], &f[2], &f[3]);
}

static void normal_float(mt_philox* g, void* out, const mt_rng_range* r) { normal_float4(g, out); }

static void normal_half(mt_philox* g, void* out, const mt_rng_range* r) {
  float f[4];
  normal_float4(g, f);
  for (int i = 0; i < 4; i++) ((mt_half*)out)[i] = mt_float_to_half(f[i]);
}

static void normal_bfloat16(mt_philox* g, void* out, const mt_rng_range* r) {
  float f[4];
  normal_float4(g, f);
  for (int i = 0; i < 4; i++) ((mt_bfloat16*)out)[i] = mt_float_to_bfloat16(f[i]);
}

static void normal_double(mt_philox* g, void* out, const mt_rng_range* r) {
  uint32_t s[4];
  mt_philox_next(g, s);
  box_muller_double(s[0], s[1], s[2], s[3], &((double*)out)[0], &((double*)out)[1]);
}

/* Normal samples within (-2, 2): Box-Muller pairs, keeping those inside. */
static void truncated_float4(mt_philox* g, float f[4]) {
  single_sampler s = single_make(g);
  int n = 0;
  for (;;) {
    const uint32_t x0 = single_next(&s), x1 = single_next(&s);
    float p[2];
    box_muller_float(x0, x1, &p[0], &p[1]);
    for (int k = 0; k < 2; k++) {
      if (fabsf(p[k]) < 2.0f) {
        f[n++] = p[k];
        if (n == 4) return;
      }
    }
  }
}

static void truncated_float(mt_philox* g, void* out, const mt_rng_range* r) { truncated_float4(g, out); }

static void truncated_half(mt_philox* g, void* out, const mt_rng_range* r) {
  float f[4];
  truncated_float4(g, f);
  for (int i = 0; i < 4; i++) ((mt_half*)out)[i] = mt_float_to_half(f[i]);
}

static void truncated_bfloat16(mt_philox* g, void* out, const mt_rng_range* r) {
  float f[4];
  truncated_float4(g, f);
  for (int i = 0; i < 4; i++) ((mt_bfloat16*)out)[i] = mt_float_to_bfloat16(f[i]);
}

static void truncated_double(mt_philox* g, void* out, const mt_rng_range* r) {
  single_sampler s = single_make(g);
  double* d = out;
  int n = 0;
  for (;;) {
    uint32_t x[4];
    for (int k = 0; k < 4; k++) x[k] = single_next(&s);
    double p[2];
    box_muller_double(x[0], x[1], x[2], x[3], &p[0], &p[1]);
    for (int k = 0; k < 2; k++) {
      if (fabs(p[k]) < 2.0) {
        d[n++] = p[k];
        if (n == 2) return;
      }
    }
  }
}

/* ---- the per-node generator (GuardedPhiloxRandom) ---- */

/* 64 random bits from the OS, for seed = seed2 = 0 ("nondeterministic"). */
static uint64_t os_random64(void) {
  uint64_t v = 0;
  if (getrandom(&v, sizeof v, 0) == (ssize_t)sizeof v) return v;
  static atomic_uint_fast64_t fallback;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  v = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^ (uint64_t)ts.tv_sec ^
      atomic_fetch_add(&fallback, 0x632BE59BD9B4E019ull);
  return v;
}

static void seed_from_attrs(const TF_Operation* op, mt_philox* g) {
  uint64_t seed = (uint64_t)mt_op_attr_int(op, "seed", 0);
  uint64_t seed2 = (uint64_t)mt_op_attr_int(op, "seed2", 0);
  if (seed == 0 && seed2 == 0) {
    seed = os_random64();
    seed2 = os_random64();
  }
  mt_philox_seed(g, seed, seed2);
}

int mt_philox_reserve(mt_kernel_ctx* ctx, uint64_t samples, mt_philox* out) {
  if (!ctx->state) {
    seed_from_attrs(ctx->op, out);
    return 1;
  }
  mt_rng_state* st = mt_state_rng(ctx->state, ctx->op, ctx->status);
  if (!st) return 0;
  pthread_mutex_lock(&st->mu);
  mt_philox g;
  if (!st->initialized) {
    seed_from_attrs(ctx->op, &g);
    st->initialized = 1;
  } else {
    memcpy(g.ctr, st->words, sizeof g.ctr);
    memcpy(g.key, st->words + 4, sizeof g.key);
  }
  *out = g;
  mt_philox_skip(&g, samples);
  memcpy(st->words, g.ctr, sizeof g.ctr);
  memcpy(st->words + 4, g.key, sizeof g.key);
  pthread_mutex_unlock(&st->mu);
  return 1;
}

/* ---- filling a tensor (FillPhiloxRandom) ---- */

typedef struct fill_job {
  const mt_rng_dist* d;
  mt_philox base;
  const mt_rng_range* range;
  unsigned char* data;
  size_t elem;
  int64_t n; /* outputs */
} fill_job;

/* Groups [begin, end): group i starts at sample i (fixed distributions) or
 * i * stride (variable ones) of the reserved range. */
static void fill_groups(int64_t begin, int64_t end, void* arg) {
  const fill_job* j = arg;
  const int group = j->d->group;
  mt_philox g = j->base;
  if (!j->d->stride) mt_philox_skip(&g, (uint64_t)begin);
  for (int64_t i = begin; i < end; i++) {
    if (j->d->stride) {
      g = j->base;
      mt_philox_skip(&g, (uint64_t)i * (uint64_t)j->d->stride);
    }
    const int64_t off = i * group;
    const int64_t count = j->n - off < group ? j->n - off : group;
    if (count == group) {
      j->d->fn(&g, j->data + (size_t)off * j->elem, j->range);
    } else { /* the last, partial group */
      _Alignas(16) unsigned char tmp[4 * sizeof(double)];
      j->d->fn(&g, tmp, j->range);
      memcpy(j->data + (size_t)off * j->elem, tmp, (size_t)count * j->elem);
    }
  }
}

/* Output shape from the `shape` input (a vector of int32/int64), with
 * TensorFlow's run-time messages. Returns the rank, -1 + status on error. */
int mt_rng_shape_from_input(mt_kernel_ctx* ctx, int64_t* dims) {
  const TF_Tensor* t = ctx->inputs[0];
  char buf[256];
  if (t->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "shape must be a vector of {int32,int64}, got shape %s",
                   mt_dims_str(t->dims, t->ndims, buf, sizeof buf));
    return -1;
  }
  const int64_t n = t->dims[0];
  if (n > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Too many dimensions in tensor");
    return -1;
  }
  if (mt_tensor_ints(t, dims, n) != n) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "shape must be a vector of {int32,int64}.");
    return -1;
  }
  /* Element count built up dim by dim, failing at the first overflow (a
   * zero dim after it does not help), as TensorFlow's TensorShape. */
  int64_t total = 1;
  for (int64_t k = 0; k < n; k++) {
    if (dims[k] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                     (long long)dims[k]);
      return -1;
    }
    if (dims[k] && total > INT64_MAX / dims[k]) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Shape %s would have more than 2**63 - 1 elements",
                     mt_dims_str(dims, (int)n, buf, sizeof buf));
      return -1;
    }
    total *= dims[k];
  }
  return (int)n;
}

/* Fills `out` from generator position `base` (TensorFlow's FillPhiloxRandom). */
void mt_rng_fill(mt_kernel_ctx* ctx, TF_Tensor* out, const mt_rng_dist* d, const mt_rng_range* r,
                 const mt_philox* base) {
  fill_job j = {.d = d, .range = r, .data = mt_tensor_data(out),
                .elem = TF_DataTypeSize(out->dtype), .n = mt_tensor_nelems(out), .base = *base};
  const int64_t groups = (j.n + d->group - 1) / d->group;
  mt_parallel_for(ctx, groups, d->stride ? 400 : 40, fill_groups, &j);
}

/* Allocates the output from input 0, reserves num_elements * 256 samples
 * (TensorFlow's multiplier) and fills it. */
static void fill_output(mt_kernel_ctx* ctx, TF_DataType dt, const mt_rng_dist* d,
                        const mt_rng_range* r) {
  int64_t dims[MT_MAX_DIMS];
  const int nd = mt_rng_shape_from_input(ctx, dims);
  if (nd < 0) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, dt, dims, nd);
  if (!out) return;
  mt_philox g;
  if (!mt_philox_reserve(ctx, (uint64_t)mt_tensor_nelems(out) * 256u, &g)) return;
  mt_rng_fill(ctx, out, d, r, &g);
}

/* Picks the distribution for the output dtype from a table by dtype. */
const mt_rng_dist* mt_rng_dist_for(mt_kernel_ctx* ctx, const mt_rng_dist* table, const char* attr,
                            TF_DataType dt) {
  if (dt <= 0 || dt >= MT_NUM_DTYPES || !table[dt].fn) {
    mt_kernel_unsupported(ctx, attr, dt);
    return NULL;
  }
  return &table[dt];
}

const mt_rng_dist mt_rng_uniform_dists[MT_NUM_DTYPES] = {
    [TF_FLOAT] = {4, 0, uniform_float},
    [TF_DOUBLE] = {2, 0, uniform_double},
    [TF_HALF] = {4, 0, uniform_half},
    [TF_BFLOAT16] = {4, 0, uniform_bfloat16},
};
const mt_rng_dist mt_rng_normal_dists[MT_NUM_DTYPES] = {
    [TF_FLOAT] = {4, 0, normal_float},
    [TF_DOUBLE] = {2, 0, normal_double},
    [TF_HALF] = {4, 0, normal_half},
    [TF_BFLOAT16] = {4, 0, normal_bfloat16},
};
/* Group stride: group * 256 / 4 samples. */
const mt_rng_dist mt_rng_truncated_dists[MT_NUM_DTYPES] = {
    [TF_FLOAT] = {4, 256, truncated_float},
    [TF_DOUBLE] = {2, 128, truncated_double},
    [TF_HALF] = {4, 256, truncated_half},
    [TF_BFLOAT16] = {4, 256, truncated_bfloat16},
};
const mt_rng_dist mt_rng_int_dists[MT_NUM_DTYPES] = {
    [TF_INT32] = {4, 0, uniform_int32},
    [TF_INT64] = {2, 0, uniform_int64},
};

static void run_float_dist(mt_kernel_ctx* ctx, const mt_rng_dist* table) {
  const TF_DataType dt = mt_op_attr_type(ctx->op, "dtype", TF_FLOAT);
  const mt_rng_dist* d = mt_rng_dist_for(ctx, table, "dtype", dt);
  if (d) fill_output(ctx, dt, d, NULL);
}

static void random_uniform_kernel(mt_kernel_ctx* ctx) { run_float_dist(ctx, mt_rng_uniform_dists); }
static void random_normal_kernel(mt_kernel_ctx* ctx) { run_float_dist(ctx, mt_rng_normal_dists); }
static void truncated_normal_kernel(mt_kernel_ctx* ctx) { run_float_dist(ctx, mt_rng_truncated_dists); }

static int scalar_int(mt_kernel_ctx* ctx, int idx, const char* what, int64_t* v) {
  const TF_Tensor* t = ctx->inputs[idx];
  char buf[256];
  if (t->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s must be 0-D, got shape %s", what,
                   mt_dims_str(t->dims, t->ndims, buf, sizeof buf));
    return 0;
  }
  if (mt_tensor_ints(t, v, 1) != 1) {
    mt_kernel_unsupported(ctx, "Tout", t->dtype);
    return 0;
  }
  return 1;
}

static void random_uniform_int_kernel(mt_kernel_ctx* ctx) {
  const TF_DataType dt = ctx->inputs[1]->dtype;
  const mt_rng_dist* d = mt_rng_dist_for(ctx, mt_rng_int_dists, "Tout", dt);
  int64_t lo, hi;
  if (!d || !scalar_int(ctx, 1, "minval", &lo) || !scalar_int(ctx, 2, "maxval", &hi)) return;
  if (lo >= hi) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Need minval < maxval, got %lld >= %lld",
                   (long long)lo, (long long)hi);
    return;
  }
  /* hi - lo in the output type's unsigned arithmetic (fits by lo < hi). */
  const mt_rng_range r = {lo, dt == TF_INT32 ? (uint64_t)(uint32_t)((uint32_t)hi - (uint32_t)lo)
                                          : (uint64_t)hi - (uint64_t)lo};
  fill_output(ctx, dt, d, &r);
}

/* ---- RandomShuffle ---- */

static void swap_bytes(unsigned char* a, unsigned char* b, size_t n) {
  unsigned char tmp[256];
  while (n) {
    const size_t k = n < sizeof tmp ? n : sizeof tmp;
    memcpy(tmp, a, k);
    memcpy(a, b, k);
    memcpy(b, tmp, k);
    a += k;
    b += k;
    n -= k;
  }
}

/* Fisher-Yates along dim 0 with exactly size - 1 words, word % (size - i)
 * (TensorFlow's ShuffleRange). Rows are swapped in place in a deep copy:
 * the same as TensorFlow's shuffled index gather. Strings move as whole
 * TF_TString structs, which own their (copied) bytes. */
static void random_shuffle_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_DataType dt = in->dtype;
  const size_t elem = dt == TF_STRING ? sizeof(TF_TString) : TF_DataTypeSize(dt);
  if (dt == TF_RESOURCE || dt == TF_VARIANT || elem == 0) {
    mt_kernel_unsupported(ctx, "T", dt);
    return;
  }
  const int64_t n = mt_tensor_nelems(in);
  if (n <= 1 || in->dims[0] <= 1) { /* nothing to shuffle: no samples used */
    mt_ctx_set_shared(ctx, 0, in);
    return;
  }
  const int64_t size = in->dims[0];
  mt_philox g;
  if (!mt_philox_reserve(ctx, ((uint64_t)size - 1 + 3) / 4, &g)) return;
  TF_Tensor* out = mt_tensor_copy(in, ctx->status);
  if (!out) return;
  ctx->outputs[0] = out;
  unsigned char* data = mt_tensor_data(out);
  const size_t row = (size_t)(n / size) * elem;
  single_sampler s = single_make(&g);
  for (int64_t i = 0; i + 1 < size; i++) {
    const int64_t j = i + (int64_t)(single_next(&s) % (uint32_t)(size - i));
    if (j != i) swap_bytes(data + (size_t)i * row, data + (size_t)j * row, row);
  }
}

/* ---- Multinomial ---- */

static double logit_at(const void* p, TF_DataType dt, int64_t k) {
  switch (dt) {
    case TF_FLOAT: return ((const float*)p)[k];
    case TF_DOUBLE: return ((const double*)p)[k];
    case TF_HALF: return mt_half_to_float(((const mt_half*)p)[k]);
    default: return mt_bfloat16_to_float(((const mt_bfloat16*)p)[k]);
  }
}

/* The most negative finite value of the logits' type (the max's start). */
static double lowest_of(TF_DataType dt) {
  switch (dt) {
    case TF_FLOAT: return -3.4028234663852886e38;
    case TF_DOUBLE: return -1.7976931348623157e308;
    case TF_HALF: return -65504.0;
    default: return -3.3895313892515355e38; /* bfloat16 */
  }
}

/* Threads of TensorFlow's intra-op pool: the configured count, else the
 * CPUs this process may run on (port::MaxParallelism). */
static int tf_intra_threads(const mt_kernel_ctx* ctx) {
  if (ctx->intra_threads > 0) return ctx->intra_threads;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  return 1;
}

static int64_t divup(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* The block size TensorFlow's Shard (through Eigen's
 * ThreadPoolDevice::parallelFor and its cost model: 100000 cycles of
 * start-up and per thread, 40000-cycle tasks, at most 4 blocks per thread,
 * then coarser blocks while parallel efficiency does not drop) gives n
 * items of `cost` cycles each on `threads` threads; n = one block. */
static int64_t tf_block_size(int64_t n, double cost, int threads) {
  if (n <= 1 || threads <= 1) return n;
  const double want = (n * cost - 100000.0) / 100000.0 + 0.9;
  if (want < 2.0) return n; /* the cost model picks one thread: inline */
  const double per_task = 40000.0 / cost;
  int64_t bs = divup(n, 4 * (int64_t)threads);
  if ((int64_t)per_task > bs) bs = (int64_t)per_task;
  if (bs > n) bs = n;
  const int64_t max_bs = n < 2 * bs ? n : 2 * bs;
  int64_t count = divup(n, bs);
  double best = (double)count / (double)(divup(count, threads) * threads);
  for (int64_t prev = count; best < 1.0 && prev > 1;) {
    const int64_t coarser = divup(n, prev - 1);
    if (coarser > max_bs) break;
    const int64_t coarser_count = divup(n, coarser);
    prev = coarser_count;
    const double eff =
        (double)coarser_count / (double)(divup(coarser_count, threads) * threads);
    if (eff + 0.01 >= best) {
      bs = coarser;
      if (eff > best) best = eff;
    }
  }
  return bs;
}

/* Rows [begin, end) from their own stream, which starts begin * (samples +
 * 3) / 4 samples into the reserved range (TensorFlow's DoWork). Per row:
 * unnormalized CDF of exp(logit - max finite logit) over finite logits (in
 * double), then per sample the first class whose CDF exceeds RandDouble() *
 * total (std::upper_bound); all-non-finite rows give num_classes, as
 * TensorFlow. */
static void multinomial_rows(const void* logits, TF_DataType dt, int64_t begin, int64_t end,
                             int64_t classes, int64_t samples, mt_philox g, double* cdf, void* out,
                             int out64) {
  mt_philox_skip(&g, (uint64_t)(begin * (samples + 3) / 4));
  single_sampler s = single_make(&g);
  for (int64_t b = begin; b < end; b++) {
    const int64_t base = b * classes;
    double max = lowest_of(dt);
    for (int64_t j = 0; j < classes; j++) {
      const double v = logit_at(logits, dt, base + j);
      if (isfinite(v) && v > max) max = v;
    }
    double total = 0;
    for (int64_t j = 0; j < classes; j++) {
      const double v = logit_at(logits, dt, base + j);
      if (isfinite(v)) total += exp(v - max);
      cdf[j] = total;
    }
    for (int64_t k = 0; k < samples; k++) {
      const uint32_t x0 = single_next(&s), x1 = single_next(&s);
      const double to_find = u64_to_double(x0, x1) * total;
      int64_t lo = 0, hi = classes; /* first index with cdf > to_find */
      while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (cdf[mid] > to_find) hi = mid; else lo = mid + 1;
      }
      if (out64) ((int64_t*)out)[b * samples + k] = lo;
      else ((int32_t*)out)[b * samples + k] = (int32_t)lo;
    }
  }
}

/* Checks Multinomial's inputs (logits, num_samples: inputs 0 and 1) and
 * allocates its output; NULL when done (error, or nothing to draw). */
TF_Tensor* mt_rng_multinomial_prepare(mt_kernel_ctx* ctx) {
  const TF_Tensor* logits = ctx->inputs[0];
  const TF_Tensor* ns = ctx->inputs[1];
  const TF_DataType dt = logits->dtype;
  const TF_DataType ot = mt_op_attr_type(ctx->op, "output_dtype", TF_INT64);
  char buf[256];
  if (dt != TF_FLOAT && dt != TF_DOUBLE && dt != TF_HALF && dt != TF_BFLOAT16) {
    mt_kernel_unsupported(ctx, "T", dt);
    return NULL;
  }
  if (logits->ndims != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "logits should be a matrix, got shape %s",
                   mt_dims_str(logits->dims, logits->ndims, buf, sizeof buf));
    return NULL;
  }
  if (ns->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "num_samples should be a scalar, got shape %s",
                   mt_dims_str(ns->dims, ns->ndims, buf, sizeof buf));
    return NULL;
  }
  const int64_t samples = *(const int32_t*)mt_tensor_data(ns);
  if (samples < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "num_samples should be non-negative, got %lld",
                   (long long)samples);
    return NULL;
  }
  const int64_t batch = logits->dims[0], classes = logits->dims[1];
  if (batch > INT32_MAX) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "batch_size cannot exceed max int");
    return NULL;
  }
  if (classes > INT32_MAX) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "num_classes cannot exceed max int");
    return NULL;
  }
  if (classes <= 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "num_classes should be positive, got %lld",
                   (long long)classes);
    return NULL;
  }
  const int64_t dims[2] = {batch, samples};
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, ot, dims, 2);
  return out && batch * samples != 0 ? out : NULL;
}

/* Draws Multinomial's samples into `out` from generator position g. */
void mt_rng_multinomial_run(mt_kernel_ctx* ctx, TF_Tensor* out, const mt_philox* g) {
  const TF_Tensor* logits = ctx->inputs[0];
  const TF_DataType dt = logits->dtype;
  const int64_t batch = logits->dims[0], classes = logits->dims[1], samples = out->dims[1];
  double* cdf = mt_malloc(sizeof(double) * (size_t)classes, ctx->status);
  if (!cdf) return;
  /* TensorFlow's rough cycles per row, truncated to an integer as there. */
  const int64_t cost =
      (int64_t)(50 * ((double)samples * log((double)classes) / log(2.0) + (double)classes));
  const int64_t block = tf_block_size(batch, (double)cost, tf_intra_threads(ctx));
  for (int64_t b = 0; b < batch; b += block)
    multinomial_rows(mt_tensor_data(logits), dt, b, b + block < batch ? b + block : batch,
                     classes, samples, *g, cdf, mt_tensor_data(out),
                     out->dtype == TF_INT64);
  free(cdf);
}

static void multinomial_kernel(mt_kernel_ctx* ctx) {
  TF_Tensor* out = mt_rng_multinomial_prepare(ctx);
  if (!out) return;
  const int64_t batch = out->dims[0], samples = out->dims[1];
  /* TensorFlow reserves for doubles (2 words each), rounded up to 4 words. */
  const uint64_t words = (uint64_t)batch * (uint64_t)((samples + 3) / 4 * 4) * 2u;
  mt_philox g;
  if (!mt_philox_reserve(ctx, words * 256u, &g)) return;
  mt_rng_multinomial_run(ctx, out, &g);
}

/* ---- shape functions (TensorFlow's RandomShape etc.) ---- */

/* Output = the shape the `shape` input describes (a rank-1 tensor). */
static void random_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 1)) return;
  mt_shape out;
  if (!mt_shape_input_as_shape(ctx, 0, &out)) {
    int64_t v[MT_MAX_DIMS];
    const int n = mt_shape_input_as_ints(ctx, 0, v, MT_MAX_DIMS);
    for (int k = 0; k < n; k++) {
      if (v[k] < -1) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "Invalid value in tensor used for shape: %lld", (long long)v[k]);
        return;
      }
    }
    out = mt_shape_unknown();
  }
  ctx->out[0] = out;
}

static int scalar_input_shape(mt_shape_ctx* ctx, int idx, const char* what) {
  const mt_shape* s = &ctx->in[idx];
  if (s->rank <= 0) return 1;
  char buf[256];
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s must be a scalar; got a tensor of shape %s",
                 what, mt_shape_str(s, buf, sizeof buf));
  return 0;
}

static void random_uniform_int_shape(mt_shape_ctx* ctx) {
  if (scalar_input_shape(ctx, 1, "minval") && scalar_input_shape(ctx, 2, "maxval"))
    random_shape(ctx);
}

/* [batch, num_samples]: num_samples from its value when constant. */
static void multinomial_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 2) || !mt_shape_with_rank(ctx, 1, 0)) return;
  int64_t ns = -1;
  if (mt_shape_input_as_ints(ctx, 1, &ns, 1) == 1 && ns < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Dimension size, given by scalar input 1, must be non-negative but is %lld",
                   (long long)ns);
    return;
  }
  const int64_t dims[2] = {ctx->in[0].rank == 2 ? ctx->in[0].dims[0] : -1, ns};
  ctx->out[0] = mt_shape_make(dims, 2);
}

#define SEEDS "seed: int = 0; seed2: int = 0; "

static const mt_op_spec random_specs[] = {
    {.name = "RandomUniform", .inputs = "shape: T", .outputs = "output: dtype",
     .attrs = SEEDS "dtype: {half, bfloat16, float, double}; T: {int32, int64}",
     .shape = random_shape, .kernel = random_uniform_kernel, .flags = MT_OP_STATEFUL},
    {.name = "RandomUniformInt", .inputs = "shape: T, minval: Tout, maxval: Tout",
     .outputs = "output: Tout", .attrs = SEEDS "Tout: {int32, int64}; T: {int32, int64}",
     .shape = random_uniform_int_shape, .kernel = random_uniform_int_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "RandomStandardNormal", .inputs = "shape: T", .outputs = "output: dtype",
     .attrs = SEEDS "dtype: {half, bfloat16, float, double}; T: {int32, int64}",
     .shape = random_shape, .kernel = random_normal_kernel, .flags = MT_OP_STATEFUL},
    {.name = "TruncatedNormal", .inputs = "shape: T", .outputs = "output: dtype",
     .attrs = SEEDS "dtype: {half, bfloat16, float, double}; T: {int32, int64}",
     .shape = random_shape, .kernel = truncated_normal_kernel, .flags = MT_OP_STATEFUL},
    {.name = "RandomShuffle", .inputs = "value: T", .outputs = "output: T",
     .attrs = SEEDS "T: type", .shape = mt_unchanged_shape, .kernel = random_shuffle_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "Multinomial", .inputs = "logits: T, num_samples: int32",
     .outputs = "output: output_dtype",
     .attrs = SEEDS "T: realnumbertype; output_dtype: {int32, int64} = DT_INT64",
     .shape = multinomial_shape, .kernel = multinomial_kernel, .flags = MT_OP_STATEFUL},
};

void mt_register_random_ops(void) {
  mt_register_ops(random_specs, (int)(sizeof random_specs / sizeof random_specs[0]));
  mt_register_stateless_random_ops();
}
