/* What the random op family's files share: TensorFlow's Philox4x32-10
 * generator, the distributions that turn its samples into numbers (one call
 * fills one group of outputs, as TensorFlow's distribution classes), and the
 * fill and multinomial loops. The stateful kernels (runtime/kernels/
 * random_ops.c) position the generator from their per-node state; the
 * stateless ones (runtime/kernels/random/stateless_ops.c) from a seed or a
 * key/counter input, so both give TensorFlow's numbers bit for bit. */
#ifndef MINITF_RUNTIME_KERNELS_RANDOM_PHILOX_H_
#define MINITF_RUNTIME_KERNELS_RANDOM_PHILOX_H_

#include <stdint.h>

#include "runtime/kernels/kernel_util.h"

typedef struct mt_philox {
  uint32_t ctr[4];
  uint32_t key[2];
} mt_philox;

/* TensorFlow's layout: `seed` fills the key, `seed2` the upper counter words. */
void mt_philox_seed(mt_philox* g, uint64_t seed, uint64_t seed2);
/* The node's generator (per session and node, seeded from its seed/seed2 attrs, or from
 * the OS when both are 0), valid for `samples` 128-bit samples; the node's state moves past
 * them (TensorFlow's ReserveSamples128). Without a session state (a kernel run outside a
 * session), a fresh generator. 0 with the status set when the state cannot be had. */
int mt_philox_reserve(mt_kernel_ctx* ctx, uint64_t samples, mt_philox* out);
/* Advances the 128-bit counter by n samples. */
void mt_philox_skip(mt_philox* g, uint64_t n);
/* One 128-bit sample (4 words); advances the counter by one. */
void mt_philox_next(mt_philox* g, uint32_t out[4]);

typedef struct mt_rng_range {
  int64_t lo;
  uint64_t range; /* hi - lo, computed unsigned (cannot overflow) */
} mt_rng_range;

/* Writes `group` outputs to `out` from generator g. */
typedef void (*mt_rng_dist_fn)(mt_philox* g, void* out, const mt_rng_range* r);

typedef struct mt_rng_dist {
  int group;      /* outputs per call (TensorFlow's kResultElementCount) */
  int64_t stride; /* 0: one 128-bit sample per group; else the generator
                     distance between groups (variable samples per output:
                     256 reserved per output, TensorFlow's
                     kReservedSamplesPerOutput) */
  mt_rng_dist_fn fn;
} mt_rng_dist;

/* Per output dtype (entries without fn: not supported). */
extern const mt_rng_dist mt_rng_uniform_dists[MT_NUM_DTYPES];
extern const mt_rng_dist mt_rng_normal_dists[MT_NUM_DTYPES];
extern const mt_rng_dist mt_rng_truncated_dists[MT_NUM_DTYPES];
extern const mt_rng_dist mt_rng_int_dists[MT_NUM_DTYPES];      /* lo + bits % range */

/* The table's entry for dt, else NULL + TensorFlow's "No OpKernel" error. */
const mt_rng_dist* mt_rng_dist_for(mt_kernel_ctx* ctx, const mt_rng_dist* table, const char* attr,
                                   TF_DataType dt);
/* Output dims from kernel input 0 (a shape vector), with TensorFlow's
 * messages. Returns the rank, -1 + status on error. */
int mt_rng_shape_from_input(mt_kernel_ctx* ctx, int64_t* dims);
/* Fills `out` from generator position `base`, group i at sample i (or
 * i * stride), so the split over threads never changes the numbers. */
void mt_rng_fill(mt_kernel_ctx* ctx, TF_Tensor* out, const mt_rng_dist* d, const mt_rng_range* r,
                 const mt_philox* base);

/* Multinomial over inputs 0 (logits) and 1 (num_samples): checks them and
 * allocates output 0 (NULL when done: an error, or nothing to draw), then
 * draws from generator position g. */
TF_Tensor* mt_rng_multinomial_prepare(mt_kernel_ctx* ctx);
void mt_rng_multinomial_run(mt_kernel_ctx* ctx, TF_Tensor* out, const mt_philox* g);

/* The stateless ops (random/stateless_ops.c), registered with the family. */
void mt_register_stateless_random_ops(void);

#endif
