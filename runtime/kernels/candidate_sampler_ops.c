/* Candidate samplers of sampled losses (TensorFlow's candidate_sampler_ops.cc
 * and range_sampler.cc): UniformCandidateSampler, LogUniformCandidateSampler,
 * FixedUnigramCandidateSampler, AllCandidateSampler, and ComputeAccidentalHits.
 *
 * Each sampler draws from a per-(session, node) Philox generator advanced by
 * 2048 * num_sampled 32-bit words a run (GuardedPhiloxRandom's
 * ReserveSamples32), through SimplePhilox's draws, so the samples are
 * TensorFlow's for the same seeds. With `unique`, values are redrawn until
 * num_sampled distinct ones are found, and the expected counts use the number
 * of tries: 1 - (1 - p)^tries, in float as TensorFlow computes them.
 * LearnedUnigramCandidateSampler (whose weights grow across runs) is not here. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/random/simple_philox.h"
#include "runtime/resource.h"
#include "runtime/status.h"

/* ---- samplers ---- */

typedef enum { SAMPLER_UNIFORM, SAMPLER_LOG_UNIFORM, SAMPLER_FIXED, SAMPLER_ALL } sampler_kind;

typedef struct sampler {
  sampler_kind kind;
  int64_t range;
  float inv_range;  /* uniform */
  double log_range; /* log-uniform: log1p(range) */
  /* fixed unigram: weights (distorted), their float total, alias table */
  float* weights;
  float total_weight;
  float* prob;
  int* alt;
} sampler;

static void sampler_free(sampler* s) {
  free(s->weights);
  free(s->prob);
  free(s->alt);
}

static int64_t sampler_sample(const sampler* s, mt_simple_philox* r) {
  switch (s->kind) {
    case SAMPLER_UNIFORM:
      return (int64_t)mt_sp_uniform64(r, (uint64_t)s->range);
    case SAMPLER_LOG_UNIFORM: {
      const int64_t v = (int64_t)exp(mt_sp_rand_double(r) * s->log_range) - 1;
      return v % s->range;
    }
    case SAMPLER_FIXED: {
      const float u = mt_sp_rand_float(r);
      const int idx = (int)mt_sp_uniform(r, (uint32_t)s->range);
      return u < s->prob[idx] ? idx : s->alt[idx];
    }
    default:
      return 0;
  }
}

static float sampler_probability(const sampler* s, int64_t v) {
  switch (s->kind) {
    case SAMPLER_UNIFORM:
      return s->inv_range;
    case SAMPLER_LOG_UNIFORM:
      return (float)(log((v + 2.0) / (v + 1.0)) / s->log_range);
    case SAMPLER_FIXED:
      return v < 0 || v >= s->range ? 0.0f : s->weights[v] / s->total_weight;
    default:
      return 1.0f;
  }
}

/* Walker's alias table over the weights, pairing the last low bucket with
 * the last high one as TensorFlow's DistributionSampler does; leftovers
 * (rounding) keep probability 1 and point to themselves. */
static int build_alias(sampler* s) {
  const int n = (int)s->range;
  double* pr = malloc(sizeof(double) * (size_t)n);
  int* low = malloc(sizeof(int) * (size_t)n);
  int* high = malloc(sizeof(int) * (size_t)n);
  s->prob = malloc(sizeof(float) * (size_t)n);
  s->alt = malloc(sizeof(int) * (size_t)n);
  if (!pr || !low || !high || !s->prob || !s->alt) {
    free(pr), free(low), free(high);
    return 0;
  }
  double sum = 0.0;
  for (int i = 0; i < n; i++) {
    sum += s->weights[i];
    s->alt[i] = -1;
  }
  int nl = 0, nh = 0;
  for (int i = 0; i < n; i++) {
    const double p = (double)(s->weights[i] * (float)n) / sum;
    pr[i] = p;
    if (p < 1.0)
      low[nl++] = i;
    else
      high[nh++] = i;
  }
  while (nh > 0 && nl > 0) {
    const int l = low[--nl], h = high[--nh];
    s->alt[l] = h;
    const double remaining = pr[h] - (1.0 - pr[l]);
    pr[h] = remaining;
    if (remaining < 1.0)
      low[nl++] = h;
    else
      high[nh++] = h;
  }
  for (int i = 0; i < n; i++) s->prob[i] = (float)pr[i];
  for (int i = 0; i < nh; i++) s->prob[high[i]] = 1.0f, s->alt[high[i]] = high[i];
  for (int i = 0; i < nl; i++) s->prob[low[i]] = 1.0f, s->alt[low[i]] = low[i];
  free(pr), free(low), free(high);
  return 1;
}

/* Appends w^distortion for the ids of this shard (word ids count from
 * *word_id). */
static int fixed_push(sampler* s, int64_t* cap, int64_t* n, int64_t* word_id, float w,
                      float distortion, int64_t num_shards, int64_t shard, int reserved) {
  if (*word_id % num_shards == shard) {
    if (*n == *cap) {
      *cap = *cap ? 2 * *cap : 64;
      float* nw = realloc(s->weights, sizeof(float) * (size_t)*cap);
      if (!nw) return 0;
      s->weights = nw;
    }
    if (reserved) {
      s->weights[(*n)++] = 0.0f;
    } else {
      w = powf(w, distortion);
      s->total_weight += w;
      s->weights[(*n)++] = w;
    }
  }
  ++*word_id;
  return 1;
}

/* The weights of a vocabulary file: one entry per line, the weight in its
 * last comma-separated field. */
static int fixed_load_file(mt_kernel_ctx* ctx, sampler* s, const char* path, int64_t* cap,
                           int64_t* n, int64_t* word_id, float distortion, int64_t num_shards,
                           int64_t shard) {
  FILE* f = fopen(path, "r");
  if (!f) {
    mt_status_setf(ctx->status, mt_errno_code(errno), "%s; %s", path, strerror(errno));
    return 0;
  }
  char* line = NULL;
  size_t lcap = 0;
  ssize_t len;
  int ok = 1;
  while (ok && (len = getline(&line, &lcap, f)) >= 0) {
    if (len > 0 && line[len - 1] == '\n') line[--len] = 0;
    if (*word_id % num_shards == shard) {
      const char* last = strrchr(line, ',');
      last = last ? last + 1 : line;
      char* end = NULL;
      errno = 0;
      const float w = strtof(last, &end);
      if (end == last || *end || errno) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Wrong vocabulary format at line: %s",
                       line);
        ok = 0;
        break;
      }
      ok = fixed_push(s, cap, n, word_id, w, distortion, num_shards, shard, 0);
    } else {
      ++*word_id;
    }
  }
  free(line);
  fclose(f);
  return ok;
}

static int fixed_init(mt_kernel_ctx* ctx, sampler* s) {
  const TF_Operation* op = ctx->op;
  const char* vocab = mt_op_attr_str(op, "vocab_file", "");
  const mt_attr_value* ua = mt_op_attr(op, "unigrams");
  const int nu = ua && ua->is_list ? ua->list.n : 0;
  if (!vocab[0] && nu == 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Must provide either vocab_file or unigrams.");
    return 0;
  }
  if (vocab[0] && nu > 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Must only provide one of vocab_file and unigrams.");
    return 0;
  }
  const float distortion = mt_op_attr_float(op, "distortion", 1.0f);
  const int64_t reserved = mt_op_attr_int(op, "num_reserved_ids", 0);
  const int64_t num_shards = mt_op_attr_int(op, "num_shards", 1);
  const int64_t shard = mt_op_attr_int(op, "shard", 0);
  int64_t cap = 0, n = 0, word_id = 0;
  for (int64_t id = 0; id < reserved; id++) {
    if (id % num_shards == shard && !fixed_push(s, &cap, &n, &word_id, 0, 1, 1, 0, 1)) goto oom;
  }
  word_id = n;
  if (vocab[0]) {
    if (!fixed_load_file(ctx, s, vocab, &cap, &n, &word_id, distortion, num_shards, shard))
      return 0;
  } else {
    for (int i = 0; i < nu; i++)
      if (!fixed_push(s, &cap, &n, &word_id, ua->list.f[i], distortion, num_shards, shard, 0))
        goto oom;
  }
  if (s->range != n) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "range is %lld must be equal to weights "
                   "size  %lld", (long long)s->range, (long long)n);
    return 0;
  }
  if (!build_alias(s)) goto oom;
  return 1;
oom:
  mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM building the unigram sampler");
  return 0;
}

/* ---- the sampling ---- */

/* An open-addressing set of int64 values (the unique draws). */
typedef struct int_set {
  int64_t* keys;
  unsigned char* used;
  uint64_t mask;
} int_set;

static int set_insert(int_set* s, int64_t v) {
  uint64_t h = ((uint64_t)v * 0x9E3779B97F4A7C15ull) & s->mask;
  while (s->used[h]) {
    if (s->keys[h] == v) return 0;
    h = (h + 1) & s->mask;
  }
  s->used[h] = 1;
  s->keys[h] = v;
  return 1;
}

static float expected_count(float p, int batch_size, int num_tries) {
  if (num_tries == batch_size) return p * (float)batch_size;
  return -expm1f((float)num_tries * log1pf(-p));
}

static int sample_batch(mt_kernel_ctx* ctx, const sampler* s, int unique, mt_simple_philox* r,
                        int64_t* batch, int nb, int* tries) {
  if (s->kind == SAMPLER_ALL) {
    for (int i = 0; i < nb; i++) batch[i] = i;
    *tries = nb;
    return 1;
  }
  if (!unique) {
    for (int i = 0; i < nb; i++) batch[i] = sampler_sample(s, r);
    *tries = nb;
    return 1;
  }
  uint64_t cap = 16;
  while (cap < 2 * (uint64_t)nb) cap <<= 1;
  int_set set = {malloc(sizeof(int64_t) * cap), calloc(cap, 1), cap - 1};
  if (!set.keys || !set.used) {
    free(set.keys), free(set.used);
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM in the candidate sampler");
    return 0;
  }
  int picked = 0, n = 0;
  while (picked < nb) {
    n++;
    const int64_t v = sampler_sample(s, r);
    if (set_insert(&set, v)) batch[picked++] = v;
  }
  free(set.keys), free(set.used);
  *tries = n;
  return 1;
}

static void sampler_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 2)) return;
  const int64_t num_sampled = mt_op_attr_int(ctx->op, "num_sampled", 0);
  const int64_t dims[2] = {ctx->in[0].rank == 2 ? ctx->in[0].dims[0] : -1,
                           mt_op_attr_int(ctx->op, "num_true", 0)};
  ctx->out[0] = ctx->out[2] = mt_shape_make(&num_sampled, 1);
  ctx->out[1] = mt_shape_make(dims, 2);
}

static int sampler_init(mt_kernel_ctx* ctx, sampler_kind kind, sampler* s) {
  memset(s, 0, sizeof *s);
  s->kind = kind;
  s->range = kind == SAMPLER_ALL ? mt_op_attr_int(ctx->op, "num_sampled", 1)
                                 : mt_op_attr_int(ctx->op, "range_max", 1);
  if (s->range <= 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "range_max must be positive");
    return 0;
  }
  s->inv_range = (float)(1.0 / (double)s->range);
  s->log_range = log1p((double)s->range);
  if (kind == SAMPLER_FIXED) return fixed_init(ctx, s);
  return 1;
}

static void run_sampler(mt_kernel_ctx* ctx, sampler_kind kind) {
  const TF_Tensor* tc = ctx->inputs[0];
  const int64_t num_true = mt_op_attr_int(ctx->op, "num_true", 1);
  const int64_t num_sampled = mt_op_attr_int(ctx->op, "num_sampled", 1);
  const int unique = mt_op_attr_bool(ctx->op, "unique", 0);
  if (tc->ndims != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "true_classes must be a matrix");
    return;
  }
  if (tc->dims[1] != num_true) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "true_classes must have num_true columns, expected: %lld was: %lld",
                   (long long)tc->dims[1], (long long)num_true);
    return;
  }
  sampler s;
  if (!sampler_init(ctx, kind, &s)) {
    sampler_free(&s);
    return;
  }
  if (unique && num_sampled > s.range) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Sampler's range is too small.");
    sampler_free(&s);
    return;
  }
  const int64_t batch_size = tc->dims[0];
  const int64_t tdims[2] = {batch_size, num_true};
  TF_Tensor* cand = mt_ctx_alloc(ctx, 0, TF_INT64, &num_sampled, 1);
  TF_Tensor* tec = cand ? mt_ctx_alloc(ctx, 1, TF_FLOAT, tdims, 2) : NULL;
  TF_Tensor* sec = tec ? mt_ctx_alloc(ctx, 2, TF_FLOAT, &num_sampled, 1) : NULL;
  const int64_t* tv = mt_tensor_data(tc);
  const int64_t nt = batch_size * num_true;
  for (int64_t i = 0; sec && i < nt; i++) {
    if (tv[i] < 0 || tv[i] >= s.range) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "`true_candidate` out of range [0, %lld), received %lld", (long long)s.range,
                     (long long)tv[i]);
      sec = NULL;
    }
  }
  mt_philox g;
  if (sec && mt_philox_reserve(ctx, ((uint64_t)2048 * (uint64_t)num_sampled + 3) / 4, &g)) {
    mt_simple_philox r;
    mt_simple_philox_init(&r, &g);
    int64_t* batch = mt_tensor_data(cand);
    int tries = 0;
    if (sample_batch(ctx, &s, unique, &r, batch, (int)num_sampled, &tries)) {
      float* se = mt_tensor_data(sec);
      float* te = mt_tensor_data(tec);
      for (int64_t i = 0; i < num_sampled; i++)
        se[i] = s.kind == SAMPLER_ALL ? 1.0f
                : expected_count(sampler_probability(&s, batch[i]), (int)num_sampled, tries);
      for (int64_t i = 0; i < nt; i++)
        te[i] = s.kind == SAMPLER_ALL ? 1.0f
                : expected_count(sampler_probability(&s, tv[i]), (int)num_sampled, tries);
    }
  }
  sampler_free(&s);
}

static void uniform_kernel(mt_kernel_ctx* ctx) { run_sampler(ctx, SAMPLER_UNIFORM); }
static void log_uniform_kernel(mt_kernel_ctx* ctx) { run_sampler(ctx, SAMPLER_LOG_UNIFORM); }
static void fixed_unigram_kernel(mt_kernel_ctx* ctx) { run_sampler(ctx, SAMPLER_FIXED); }
static void all_kernel(mt_kernel_ctx* ctx) { run_sampler(ctx, SAMPLER_ALL); }

/* ---- ComputeAccidentalHits ---- */

static void hits_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 2)) return;
  const int64_t num_true = mt_op_attr_int(ctx->op, "num_true", 0);
  if (ctx->in[0].rank == 2 && ctx->in[0].dims[1] >= 0 && ctx->in[0].dims[1] != num_true) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension must be %lld but is %lld",
                   (long long)num_true, (long long)ctx->in[0].dims[1]);
    return;
  }
  if (!mt_shape_with_rank(ctx, 1, 1)) return;
  const int64_t unknown = -1;
  ctx->out[0] = ctx->out[1] = ctx->out[2] = mt_shape_make(&unknown, 1);
}

/* For each true class that is also a sampled candidate: its row, the
 * candidate's position (the last one when a value was sampled twice) and
 * weight -FLT_MAX, in row-major order of the true classes. */
static void hits_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* tc = ctx->inputs[0];
  const TF_Tensor* sc = ctx->inputs[1];
  const int64_t num_true = mt_op_attr_int(ctx->op, "num_true", 1);
  if (tc->ndims != 2 || tc->dims[1] != num_true) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "true_candidates must be a batch_size * num_true matrix");
    return;
  }
  if (sc->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "sampled_candidates must be a vector, which is typically an output from "
                   "CandidateSampler");
    return;
  }
  const int64_t batch = tc->dims[0], ns = sc->dims[0], nt = batch * num_true;
  const int64_t* tv = mt_tensor_data(tc);
  const int64_t* sv = mt_tensor_data(sc);
  uint64_t cap = 16;
  while (cap < 2 * (uint64_t)ns) cap <<= 1;
  int64_t* keys = malloc(sizeof(int64_t) * cap);
  int64_t* pos = malloc(sizeof(int64_t) * cap);
  unsigned char* used = calloc(cap, 1);
  int32_t* rows = malloc(sizeof(int32_t) * (size_t)(nt ? nt : 1));
  int64_t* ids = malloc(sizeof(int64_t) * (size_t)(nt ? nt : 1));
  if (!keys || !pos || !used || !rows || !ids) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM in ComputeAccidentalHits");
    goto done;
  }
  for (int64_t i = 0; i < ns; i++) {
    uint64_t h = ((uint64_t)sv[i] * 0x9E3779B97F4A7C15ull) & (cap - 1);
    while (used[h] && keys[h] != sv[i]) h = (h + 1) & (cap - 1);
    used[h] = 1, keys[h] = sv[i], pos[h] = i;
  }
  int64_t n = 0;
  for (int64_t i = 0; i < nt; i++) {
    uint64_t h = ((uint64_t)tv[i] * 0x9E3779B97F4A7C15ull) & (cap - 1);
    while (used[h] && keys[h] != tv[i]) h = (h + 1) & (cap - 1);
    if (used[h]) rows[n] = (int32_t)(i / num_true), ids[n++] = pos[h];
  }
  TF_Tensor* oi = mt_ctx_alloc(ctx, 0, TF_INT32, &n, 1);
  TF_Tensor* oid = oi ? mt_ctx_alloc(ctx, 1, TF_INT64, &n, 1) : NULL;
  TF_Tensor* ow = oid ? mt_ctx_alloc(ctx, 2, TF_FLOAT, &n, 1) : NULL;
  if (ow) {
    memcpy(mt_tensor_data(oi), rows, sizeof(int32_t) * (size_t)n);
    memcpy(mt_tensor_data(oid), ids, sizeof(int64_t) * (size_t)n);
    float* w = mt_tensor_data(ow);
    for (int64_t i = 0; i < n; i++) w[i] = -FLT_MAX;
  }
done:
  free(keys), free(pos), free(used), free(rows), free(ids);
}

#define SAMPLER_ATTRS "num_true: int >= 1; num_sampled: int >= 1; unique: bool; "
#define SEEDS "seed: int = 0; seed2: int = 0"
#define SAMPLER_IO                                                                      \
  .inputs = "true_classes: int64",                                                      \
  .outputs = "sampled_candidates: int64, true_expected_count: float, "                 \
             "sampled_expected_count: float",                                           \
  .shape = sampler_shape, .flags = MT_OP_STATEFUL

static const mt_op_spec candidate_sampler_specs[] = {
    {.name = "UniformCandidateSampler", SAMPLER_IO, .kernel = uniform_kernel,
     .attrs = SAMPLER_ATTRS "range_max: int >= 1; " SEEDS},
    {.name = "LogUniformCandidateSampler", SAMPLER_IO, .kernel = log_uniform_kernel,
     .attrs = SAMPLER_ATTRS "range_max: int >= 1; " SEEDS},
    {.name = "FixedUnigramCandidateSampler", SAMPLER_IO, .kernel = fixed_unigram_kernel,
     .attrs = SAMPLER_ATTRS "range_max: int >= 1; vocab_file: string = ''; distortion: float = 1; "
              "num_reserved_ids: int = 0; num_shards: int >= 1 = 1; shard: int >= 0 = 0; "
              "unigrams: list(float) = []; " SEEDS},
    {.name = "AllCandidateSampler", SAMPLER_IO, .kernel = all_kernel,
     .attrs = SAMPLER_ATTRS SEEDS},
    {.name = "ComputeAccidentalHits", .inputs = "true_classes: int64, sampled_candidates: int64",
     .outputs = "indices: int32, ids: int64, weights: float",
     .attrs = "num_true: int; " SEEDS, .shape = hits_shape, .kernel = hits_kernel},
};

void mt_register_candidate_sampler_ops(void) {
  mt_register_ops(candidate_sampler_specs,
                  (int)(sizeof candidate_sampler_specs / sizeof candidate_sampler_specs[0]));
}
