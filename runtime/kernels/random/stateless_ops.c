/* Stateless random ops (TensorFlow's stateless_random_ops.cc and
 * stateless_random_ops_v2.cc): the same numbers for the same seed on every
 * run, bit for bit TensorFlow's.
 *
 * V1 ops take a seed [2] (int32/int64) and scramble it into a Philox key and
 * counter with one Philox call (TensorFlow's GenerateKey). V2 ops take that
 * key ([1] uint64) and counter ([2] uint64) and an algorithm id;
 * StatelessRandomGetKeyCounter[Alg] compute them from a seed. On CPU only
 * Philox (1) exists; auto-select (3) picks it, as TensorFlow's kernels do.
 * The generator is not advanced between calls: each call fills its output
 * from the start of the stream, with the stateful kernels' fill loops. */
#include <stdio.h>
#include <string.h>

#include "runtime/kernels/random/philox.h"

enum { RNG_ALG_PHILOX = 1, RNG_ALG_THREEFRY = 2, RNG_ALG_AUTO_SELECT = 3 };

/* ---- seeds, keys and counters ---- */

/* A seed tensor's two values, sign-extended to 64 bits as TensorFlow reads
 * them (int32 or int64). */
static int seed_values(mt_kernel_ctx* ctx, const TF_Tensor* seed, uint64_t v[2]) {
  if (seed->dtype != TF_INT32 && seed->dtype != TF_INT64) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Invalid seed type: %s",
                   mt_dtype_name(seed->dtype));
    return 0;
  }
  for (int i = 0; i < 2; i++)
    v[i] = seed->dtype == TF_INT32 ? (uint64_t)(int64_t)((const int32_t*)mt_tensor_data(seed))[i]
                                   : (uint64_t)((const int64_t*)mt_tensor_data(seed))[i];
  return 1;
}

/* TensorFlow's GenerateKey: one Philox sample of the seed under a fixed key
 * gives the key (2 words) and the high half of the counter. */
static int generate_key(mt_kernel_ctx* ctx, const TF_Tensor* seed, mt_philox* g) {
  uint64_t v[2];
  if (!seed_values(ctx, seed, v)) return 0;
  mt_philox mix = {.ctr = {(uint32_t)v[0], (uint32_t)(v[0] >> 32), (uint32_t)v[1],
                           (uint32_t)(v[1] >> 32)},
                   .key = {0x3ec8f720u, 0x02461e29u}};
  uint32_t s[4];
  mt_philox_next(&mix, s);
  g->key[0] = s[0];
  g->key[1] = s[1];
  g->ctr[0] = g->ctr[1] = 0;
  g->ctr[2] = s[2];
  g->ctr[3] = s[3];
  return 1;
}

/* "seed must have shape [2], not [3]" (V1 kernels). */
static int check_seed(mt_kernel_ctx* ctx, int idx) {
  const TF_Tensor* t = ctx->inputs[idx];
  if (t->ndims == 1 && t->dims[0] == 2) return 1;
  char buf[256];
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "seed must have shape [2], not %s",
                 mt_dims_str(t->dims, t->ndims, buf, sizeof buf));
  return 0;
}

/* The algorithm input (int32 scalar) as TensorFlow's GetScalar reads it. */
static int alg_input(mt_kernel_ctx* ctx, int idx, int* alg) {
  const TF_Tensor* t = ctx->inputs[idx];
  char buf[256];
  if (t->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "input %d (0-based) must have shape [], not %s", idx,
                   mt_dims_str(t->dims, t->ndims, buf, sizeof buf));
    return 0;
  }
  *alg = *(const int32_t*)mt_tensor_data(t);
  return 1;
}

/* TensorFlow's GetKeyCounterAlgFromInputs + CheckKeyCounterShape: the key
 * and counter inputs for algorithm `alg` (auto-select = Philox), loaded
 * into a generator. TensorFlow 2.21 checks the counter's length against the
 * algorithm's id (Philox 1, ThreeFry 2, any other n: n), not its counter
 * size; the same checks here give the same errors. A Philox counter of one
 * word is accepted as there; its missing high word reads as 0 (TensorFlow
 * reads past the tensor). */
static int key_counter_inputs(mt_kernel_ctx* ctx, int key_idx, mt_philox* g) {
  int alg;
  if (!alg_input(ctx, key_idx + 2, &alg)) return 0;
  if (alg == RNG_ALG_AUTO_SELECT) alg = RNG_ALG_PHILOX;
  const TF_Tensor* key = ctx->inputs[key_idx];
  const TF_Tensor* ctr = ctx->inputs[key_idx + 1];
  char buf[256];
  if (key->ndims != 1 || key->dims[0] != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "key must have shape [1], not %s. (Note that batched keys are not "
                   "supported yet.)",
                   mt_dims_str(key->dims, key->ndims, buf, sizeof buf));
    return 0;
  }
  if (ctr->ndims != 1 || ctr->dims[0] < alg) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "counter must be a vector with length at least %d; got shape: %s. (Note "
                   "that batched counters are not supported yet.)",
                   alg, mt_dims_str(ctr->dims, ctr->ndims, buf, sizeof buf));
    return 0;
  }
  if (alg != RNG_ALG_PHILOX) { /* TensorFlow's CPU kernels have Philox only */
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Unsupported algorithm id: %d", alg);
    return 0;
  }
  const uint64_t k = *(const uint64_t*)mt_tensor_data(key);
  const uint64_t* c = mt_tensor_data(ctr);
  const uint64_t c1 = ctr->dims[0] > 1 ? c[1] : 0;
  g->key[0] = (uint32_t)k;
  g->key[1] = (uint32_t)(k >> 32);
  g->ctr[0] = (uint32_t)c[0];
  g->ctr[1] = (uint32_t)(c[0] >> 32);
  g->ctr[2] = (uint32_t)c1;
  g->ctr[3] = (uint32_t)(c1 >> 32);
  return 1;
}

/* ---- distributions by dtype ---- */

/* Full-range integers: the raw bits (one word per 32-bit value, two per
 * 64-bit value, low word first). */
static void full_int32(mt_philox* g, void* out, const mt_rng_range* r) {
  (void)r;
  mt_philox_next(g, out);
}

static void full_int64(mt_philox* g, void* out, const mt_rng_range* r) {
  (void)r;
  uint32_t s[4];
  mt_philox_next(g, s);
  for (int i = 0; i < 2; i++) ((uint64_t*)out)[i] = s[2 * i] | (uint64_t)s[2 * i + 1] << 32;
}

static const mt_rng_dist full_int_dists[MT_NUM_DTYPES] = {
    [TF_INT32] = {4, 0, full_int32},
    [TF_UINT32] = {4, 0, full_int32},
    [TF_INT64] = {2, 0, full_int64},
    [TF_UINT64] = {2, 0, full_int64},
};

/* The bounded-int distribution of a dtype (unsigned types wrap the same way
 * as their signed twins: lo + bits % range in unsigned arithmetic). */
static const mt_rng_dist* int_dist(mt_kernel_ctx* ctx, TF_DataType dt) {
  /* TensorFlow's OpDef of StatelessRandomUniformIntV2 allows uint32/uint64,
   * but it registers CPU kernels for int32/int64 only. */
  return mt_rng_dist_for(ctx, mt_rng_int_dists, "dtype", dt);
}

/* ---- kernels ---- */

/* StatelessRandomUniform/Normal, StatelessTruncatedNormal,
 * StatelessRandomUniformFullInt (shape, seed). */
static void stateless_v1(mt_kernel_ctx* ctx, const mt_rng_dist* table) {
  const TF_DataType dt = mt_op_attr_type(ctx->op, "dtype", TF_FLOAT);
  const mt_rng_dist* d = mt_rng_dist_for(ctx, table, "dtype", dt);
  if (!d) return;
  int64_t dims[MT_MAX_DIMS];
  const int nd = mt_rng_shape_from_input(ctx, dims);
  if (nd < 0 || !check_seed(ctx, 1)) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, dt, dims, nd);
  if (!out || mt_tensor_nelems(out) == 0) return;
  mt_philox g;
  if (generate_key(ctx, ctx->inputs[1], &g)) mt_rng_fill(ctx, out, d, NULL, &g);
}

/* The V2 forms (shape, key, counter, alg). */
static void stateless_v2(mt_kernel_ctx* ctx, const mt_rng_dist* table) {
  const TF_DataType dt = mt_op_attr_type(ctx->op, "dtype", TF_FLOAT);
  const mt_rng_dist* d = mt_rng_dist_for(ctx, table, "dtype", dt);
  if (!d) return;
  int64_t dims[MT_MAX_DIMS];
  const int nd = mt_rng_shape_from_input(ctx, dims);
  mt_philox g;
  if (nd < 0 || !key_counter_inputs(ctx, 1, &g)) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, dt, dims, nd);
  if (!out || mt_tensor_nelems(out) == 0) return;
  mt_rng_fill(ctx, out, d, NULL, &g);
}

#define TABLE_KERNELS(name, table)                                              \
  static void name##_v1_kernel(mt_kernel_ctx* ctx) { stateless_v1(ctx, table); } \
  static void name##_v2_kernel(mt_kernel_ctx* ctx) { stateless_v2(ctx, table); }
TABLE_KERNELS(uniform, mt_rng_uniform_dists)
TABLE_KERNELS(normal, mt_rng_normal_dists)
TABLE_KERNELS(truncated, mt_rng_truncated_dists)
TABLE_KERNELS(full_int, full_int_dists)

/* minval/maxval (inputs lo_idx, lo_idx + 1) as scalars of the output type. */
static int int_bounds(mt_kernel_ctx* ctx, int lo_idx, TF_DataType dt, mt_rng_range* r) {
  static const char* const what[2] = {"minval", "maxval"};
  uint64_t v[2];
  char buf[256];
  for (int i = 0; i < 2; i++) {
    const TF_Tensor* t = ctx->inputs[lo_idx + i];
    if (t->ndims != 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s must be 0-D, got shape %s", what[i],
                     mt_dims_str(t->dims, t->ndims, buf, sizeof buf));
      return 0;
    }
    const void* p = mt_tensor_data(t);
    switch (dt) {
      case TF_INT32: v[i] = (uint64_t)(int64_t) * (const int32_t*)p; break;
      case TF_UINT32: v[i] = *(const uint32_t*)p; break;
      default: v[i] = *(const uint64_t*)p; break; /* int64, uint64 */
    }
  }
  r->lo = (int64_t)v[0];
  /* hi - lo in the output type's unsigned arithmetic (fits when lo < hi). */
  r->range = dt == TF_INT32 || dt == TF_UINT32 ? (uint64_t)(uint32_t)((uint32_t)v[1] - (uint32_t)v[0])
                                               : v[1] - v[0];
  return 1;
}

/* "Need minval < maxval, got 3 >= 3" in the output type's order. */
static int check_lo_hi(mt_kernel_ctx* ctx, int lo_idx, TF_DataType dt) {
  const void* a = mt_tensor_data(ctx->inputs[lo_idx]);
  const void* b = mt_tensor_data(ctx->inputs[lo_idx + 1]);
  int ok;
  char msg[128];
  switch (dt) {
    case TF_INT32:
      ok = *(const int32_t*)a < *(const int32_t*)b;
      snprintf(msg, sizeof msg, "%d >= %d", *(const int32_t*)a, *(const int32_t*)b);
      break;
    case TF_UINT32:
      ok = *(const uint32_t*)a < *(const uint32_t*)b;
      snprintf(msg, sizeof msg, "%u >= %u", *(const uint32_t*)a, *(const uint32_t*)b);
      break;
    case TF_UINT64:
      ok = *(const uint64_t*)a < *(const uint64_t*)b;
      snprintf(msg, sizeof msg, "%llu >= %llu", (unsigned long long)*(const uint64_t*)a,
               (unsigned long long)*(const uint64_t*)b);
      break;
    default:
      ok = *(const int64_t*)a < *(const int64_t*)b;
      snprintf(msg, sizeof msg, "%lld >= %lld", (long long)*(const int64_t*)a,
               (long long)*(const int64_t*)b);
      break;
  }
  if (!ok) mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Need minval < maxval, got %s", msg);
  return ok;
}

/* StatelessRandomUniformInt (shape, seed, minval, maxval): TensorFlow checks
 * the bounds only for a non-empty output. */
static void stateless_int_kernel(mt_kernel_ctx* ctx) {
  const TF_DataType dt = mt_op_attr_type(ctx->op, "dtype", TF_INT32);
  const mt_rng_dist* d = int_dist(ctx, dt);
  if (!d) return;
  int64_t dims[MT_MAX_DIMS];
  const int nd = mt_rng_shape_from_input(ctx, dims);
  if (nd < 0 || !check_seed(ctx, 1)) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, dt, dims, nd);
  if (!out || mt_tensor_nelems(out) == 0) return;
  mt_rng_range r;
  if (!int_bounds(ctx, 2, dt, &r) || !check_lo_hi(ctx, 2, dt)) return;
  mt_philox g;
  if (generate_key(ctx, ctx->inputs[1], &g)) mt_rng_fill(ctx, out, d, &r, &g);
}

/* StatelessRandomUniformIntV2 (shape, key, counter, alg, minval, maxval). */
static void stateless_int_v2_kernel(mt_kernel_ctx* ctx) {
  const TF_DataType dt = mt_op_attr_type(ctx->op, "dtype", TF_INT32);
  const mt_rng_dist* d = int_dist(ctx, dt);
  if (!d) return;
  int64_t dims[MT_MAX_DIMS];
  const int nd = mt_rng_shape_from_input(ctx, dims);
  mt_philox g;
  mt_rng_range r;
  if (nd < 0 || !key_counter_inputs(ctx, 1, &g) || !int_bounds(ctx, 4, dt, &r)) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, dt, dims, nd);
  if (!out || mt_tensor_nelems(out) == 0 || !check_lo_hi(ctx, 4, dt)) return;
  mt_rng_fill(ctx, out, d, &r, &g);
}

/* The key and counter words of a generator as TensorFlow's uint64 tensors:
 * key [1], counter [2] (Philox's counter size). */
static int write_key_counter(mt_kernel_ctx* ctx, const mt_philox* g) {
  const int64_t one = 1, two = 2;
  TF_Tensor* key = mt_ctx_alloc(ctx, 0, TF_UINT64, &one, 1);
  TF_Tensor* ctr = key ? mt_ctx_alloc(ctx, 1, TF_UINT64, &two, 1) : NULL;
  if (!ctr) return 0;
  *(uint64_t*)mt_tensor_data(key) = g->key[0] | (uint64_t)g->key[1] << 32;
  uint64_t* c = mt_tensor_data(ctr);
  c[0] = g->ctr[0] | (uint64_t)g->ctr[1] << 32;
  c[1] = g->ctr[2] | (uint64_t)g->ctr[3] << 32;
  return 1;
}

static void get_key_counter_kernel(mt_kernel_ctx* ctx) {
  if (!check_seed(ctx, 0)) return;
  mt_philox g;
  if (!generate_key(ctx, ctx->inputs[0], &g) || !write_key_counter(ctx, &g)) return;
  if (ctx->noutputs < 3) return;
  TF_Tensor* alg = mt_ctx_alloc(ctx, 2, TF_INT32, NULL, 0);
  if (alg) *(int32_t*)mt_tensor_data(alg) = RNG_ALG_PHILOX;
}

static void get_alg_kernel(mt_kernel_ctx* ctx) {
  TF_Tensor* alg = mt_ctx_alloc(ctx, 0, TF_INT32, NULL, 0);
  if (alg) *(int32_t*)mt_tensor_data(alg) = RNG_ALG_PHILOX;
}

/* StatelessMultinomial (logits, num_samples, seed): the stateful kernel's
 * rows from the seed's generator. */
static void stateless_multinomial_kernel(mt_kernel_ctx* ctx) {
  if (!check_seed(ctx, 2)) return;
  TF_Tensor* out = mt_rng_multinomial_prepare(ctx);
  if (!out) return;
  mt_philox g;
  if (generate_key(ctx, ctx->inputs[2], &g)) mt_rng_multinomial_run(ctx, out, &g);
}

/* ---- shape functions (TensorFlow's StatelessShape / StatelessShapeV2) ---- */

/* WithValue(Dim(input idx, 0), n): "Dimension must be 2 but is 3". */
static int dim0_is(mt_shape_ctx* ctx, int idx, int64_t n) {
  const mt_shape* s = &ctx->in[idx];
  if (s->rank < 1 || s->dims[0] < 0 || s->dims[0] == n) return 1;
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension must be %lld but is %lld",
                 (long long)n, (long long)s->dims[0]);
  return 0;
}

/* The output shape the shape input (input 0) describes. */
static void shape_from_shape_input(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 1)) return;
  mt_shape out;
  if (!mt_shape_input_as_shape(ctx, 0, &out)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Invalid value in tensor used for shape");
    return;
  }
  ctx->out[0] = out;
}

static void stateless_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 1, 1) || !dim0_is(ctx, 1, 2)) return;
  shape_from_shape_input(ctx);
}

static void stateless_int_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 2, 0) || !mt_shape_with_rank(ctx, 3, 0)) return;
  stateless_shape(ctx);
}

static void stateless_v2_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 1, 1) || !mt_shape_with_rank(ctx, 2, 1) ||
      !mt_shape_with_rank(ctx, 3, 0) || !dim0_is(ctx, 1, 1))
    return;
  shape_from_shape_input(ctx);
}

static void stateless_int_v2_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 4, 0) || !mt_shape_with_rank(ctx, 5, 0)) return;
  stateless_v2_shape(ctx);
}

static void get_key_counter_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 1) || !dim0_is(ctx, 0, 2)) return;
  const int64_t one = 1, two = 2;
  ctx->out[0] = mt_shape_make(&one, 1);
  ctx->out[1] = mt_shape_make(&two, 1);
  if (ctx->noutputs > 2) ctx->out[2] = mt_shape_scalar();
}

static void scalar_shape(mt_shape_ctx* ctx) { ctx->out[0] = mt_shape_scalar(); }

/* [batch, num_samples] (TensorFlow's StatelessMultinomial shape fn). */
static void stateless_multinomial_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 2) || !mt_shape_with_rank(ctx, 1, 0) ||
      !mt_shape_with_rank(ctx, 2, 1) || !dim0_is(ctx, 2, 2))
    return;
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

/* ---- registration ---- */

#define FLOATS "{half, bfloat16, float, double}"
#define V1_ATTRS(dtypes, def) \
  "dtype: " dtypes " = " def "; T: {int32, int64} = DT_INT32; Tseed: {int32, int64} = DT_INT64"
#define V2_ATTRS(dtypes, def) "dtype: " dtypes " = " def "; Tshape: {int32, int64} = DT_INT32"
#define V2_INPUTS "shape: Tshape, key: uint64, counter: uint64, alg: int32"

static const mt_op_spec stateless_specs[] = {
    {.name = "StatelessRandomUniform", .inputs = "shape: T, seed: Tseed",
     .outputs = "output: dtype", .attrs = V1_ATTRS(FLOATS, "DT_FLOAT"),
     .shape = stateless_shape, .kernel = uniform_v1_kernel},
    {.name = "StatelessRandomNormal", .inputs = "shape: T, seed: Tseed",
     .outputs = "output: dtype", .attrs = V1_ATTRS(FLOATS, "DT_FLOAT"),
     .shape = stateless_shape, .kernel = normal_v1_kernel},
    {.name = "StatelessTruncatedNormal", .inputs = "shape: T, seed: Tseed",
     .outputs = "output: dtype", .attrs = V1_ATTRS(FLOATS, "DT_FLOAT"),
     .shape = stateless_shape, .kernel = truncated_v1_kernel},
    {.name = "StatelessRandomUniformInt",
     .inputs = "shape: T, seed: Tseed, minval: dtype, maxval: dtype", .outputs = "output: dtype",
     .attrs = "dtype: {int32, int64}; T: {int32, int64}; Tseed: {int32, int64} = DT_INT64",
     .shape = stateless_int_shape, .kernel = stateless_int_kernel},
    {.name = "StatelessRandomUniformFullInt", .inputs = "shape: T, seed: Tseed",
     .outputs = "output: dtype",
     .attrs = "dtype: {int32, int64, uint32, uint64} = DT_UINT64; T: {int32, int64} = DT_INT32;"
              " Tseed: {int32, int64, uint32, uint64} = DT_INT64",
     .shape = stateless_shape, .kernel = full_int_v1_kernel},
    {.name = "StatelessRandomUniformV2", .inputs = V2_INPUTS, .outputs = "output: dtype",
     .attrs = V2_ATTRS(FLOATS, "DT_FLOAT"), .shape = stateless_v2_shape,
     .kernel = uniform_v2_kernel},
    {.name = "StatelessRandomNormalV2", .inputs = V2_INPUTS, .outputs = "output: dtype",
     .attrs = V2_ATTRS(FLOATS, "DT_FLOAT"), .shape = stateless_v2_shape,
     .kernel = normal_v2_kernel},
    {.name = "StatelessTruncatedNormalV2", .inputs = V2_INPUTS, .outputs = "output: dtype",
     .attrs = V2_ATTRS(FLOATS, "DT_FLOAT"), .shape = stateless_v2_shape,
     .kernel = truncated_v2_kernel},
    {.name = "StatelessRandomUniformIntV2", .inputs = V2_INPUTS ", minval: dtype, maxval: dtype",
     .outputs = "output: dtype",
     .attrs = "dtype: {int32, int64, uint32, uint64}; Tshape: {int32, int64} = DT_INT32",
     .shape = stateless_int_v2_shape, .kernel = stateless_int_v2_kernel},
    {.name = "StatelessRandomUniformFullIntV2", .inputs = V2_INPUTS, .outputs = "output: dtype",
     .attrs = V2_ATTRS("{int32, int64, uint32, uint64}", "DT_UINT64"),
     .shape = stateless_v2_shape, .kernel = full_int_v2_kernel},
    {.name = "StatelessRandomGetKeyCounter", .inputs = "seed: Tseed",
     .outputs = "key: uint64, counter: uint64", .attrs = "Tseed: {int32, int64} = DT_INT64",
     .shape = get_key_counter_shape, .kernel = get_key_counter_kernel},
    {.name = "StatelessRandomGetKeyCounterAlg", .inputs = "seed: Tseed",
     .outputs = "key: uint64, counter: uint64, alg: int32",
     .attrs = "Tseed: {int32, int64} = DT_INT64", .shape = get_key_counter_shape,
     .kernel = get_key_counter_kernel},
    {.name = "StatelessRandomGetAlg", .outputs = "alg: int32", .shape = scalar_shape,
     .kernel = get_alg_kernel, .flags = MT_OP_STATEFUL},
    {.name = "StatelessMultinomial", .inputs = "logits: T, num_samples: int32, seed: Tseed",
     .outputs = "output: output_dtype",
     .attrs = "T: realnumbertype; Tseed: {int32, int64} = DT_INT64;"
              " output_dtype: {int32, int64} = DT_INT64",
     .shape = stateless_multinomial_shape, .kernel = stateless_multinomial_kernel},
};

void mt_register_stateless_random_ops(void) {
  mt_register_ops(stateless_specs, (int)(sizeof stateless_specs / sizeof stateless_specs[0]));
}
