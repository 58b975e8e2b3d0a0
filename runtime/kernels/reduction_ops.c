/* Reductions over axes (Sum, Mean, Prod, Max, Min, All, Any), ArgMax/ArgMin
 * and the scans Cumsum/Cumprod. Signatures and CPU dtypes are TensorFlow's
 * (math_ops.cc, reduction_ops_*.cc, argmax_op.cc, scan_ops.cc).
 *
 * float16 and bfloat16 are computed in float: the input is widened once, a
 * float loop runs, the result is rounded back. Where TensorFlow (Eigen)
 * accumulates in the narrow type itself (half sums, means and products,
 * bfloat16 products, both scans) the float loop rounds after every step, so
 * overflow to inf and rounding match. Complex types are not computed (they
 * pass the registry's type check and fail in the kernel). */
/* Column reductions and argmax rows are written to auto-vectorize; -O2's
 * "very cheap" cost model skips loops that need an alias check, so ask for
 * the dynamic model; no-trapping-math lets it compute both sides of the
 * NaN-aware max/min selects. Nothing is reassociated: every output still
 * folds its inputs in index order. */
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic", "no-trapping-math")

#include <complex.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/half.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/vec_math.h"

/* ---- helpers for float16 / bfloat16 ---- */

/* Round a float to half/bfloat16 precision and back (one narrow step). */
#define RH(v) mt_half_to_float(mt_float_to_half((float)(v)))
#define RB(v) mt_bfloat16_to_float(mt_float_to_bfloat16((float)(v)))

/* Pseudo type lists: the narrow types stored as float while computing. The
 * generated functions are named NAME_float, so each NAME is used once. */
#define HALF_AS_FLOAT(X, ...) X(TF_HALF, float, __VA_ARGS__)
#define BF16_AS_FLOAT(X, ...) X(TF_BFLOAT16, float, __VA_ARGS__)

static int is_narrow(TF_DataType dt) { return dt == TF_HALF || dt == TF_BFLOAT16; }

/* n elements of half/bfloat16 `in` widened into float `out`. */
static void widen(TF_DataType dt, const void* in, float* out, int64_t n) {
  if (dt == TF_HALF)
    for (int64_t i = 0; i < n; i++) out[i] = mt_half_to_float(((const mt_half*)in)[i]);
  else
    for (int64_t i = 0; i < n; i++) out[i] = mt_bfloat16_to_float(((const mt_bfloat16*)in)[i]);
}

static void narrow(TF_DataType dt, const float* in, void* out, int64_t n) {
  if (dt == TF_HALF)
    for (int64_t i = 0; i < n; i++) ((mt_half*)out)[i] = mt_float_to_half(in[i]);
  else
    for (int64_t i = 0; i < n; i++) ((mt_bfloat16*)out)[i] = mt_float_to_bfloat16(in[i]);
}

/* A float copy of a narrow tensor's data; NULL + status on failure. */
static float* widened_copy(const TF_Tensor* t, TF_Status* s) {
  const int64_t n = mt_tensor_nelems(t);
  float* f = mt_malloc((size_t)(n > 0 ? n : 1) * sizeof(float), s);
  if (f) widen(t->dtype, mt_tensor_data(t), f, n);
  return f;
}

/* ---- axis reductions ---- */

/* Accumulator types by prefix + C type. `acc_`: floats in double, integers
 * in their own type (wrapping through W). `wide_`: the integer Mean
 * accumulates in 64 bits as TensorFlow does to avoid overflow. `own_`:
 * the element type itself (Eigen's float arithmetic). */
typedef double acc_float, acc_double;
typedef int8_t acc_int8_t;
typedef int16_t acc_int16_t;
typedef int32_t acc_int32_t;
typedef int64_t acc_int64_t;
typedef uint8_t acc_uint8_t;
typedef uint16_t acc_uint16_t;
typedef uint32_t acc_uint32_t;
typedef uint64_t acc_uint64_t;
typedef mt_bool acc_mt_bool;
/* complex sums and products in their own type (Eigen's complex reducers) */
typedef mt_complex64 acc_mt_complex64;
typedef mt_complex128 acc_mt_complex128;
typedef int64_t wide_int8_t, wide_int16_t, wide_int32_t, wide_int64_t;
typedef uint64_t wide_uint8_t, wide_uint16_t, wide_uint32_t, wide_uint64_t;
typedef float own_float;
typedef double own_double;

/* Identity elements of Max/Min (-inf / +inf for floats, as TensorFlow). */
#define LOWEST(T)                                                                       \
  _Generic((T)0, float: -INFINITY, double: -INFINITY, int8_t: INT8_MIN,                 \
           int16_t: INT16_MIN, int32_t: INT32_MIN, int64_t: INT64_MIN, default: 0)
#define HIGHEST(T)                                                                      \
  _Generic((T)0, float: INFINITY, double: INFINITY, int8_t: INT8_MAX, int16_t: INT16_MAX, \
           int32_t: INT32_MAX, int64_t: INT64_MAX, uint8_t: UINT8_MAX,                   \
           uint16_t: UINT16_MAX, uint32_t: UINT32_MAX, default: UINT64_MAX)

/* Collapsed shapes [len, cols] and [outer, len, cols] reduced over len
 * (e.g. axis 1 of [64,256,256]): *len and *cols, else 0. Outputs are then
 * folded column-wise, contiguous runs of accumulators per input row. */
static int reduce_cols(const mt_reduce* r, int64_t* len, int64_t* cols) {
  if (r->ndims == 2 && r->red[0] && !r->red[1]) {
    *len = r->dims[0];
    *cols = r->dims[1];
    return 1;
  }
  if (r->ndims == 3 && !r->red[0] && r->red[1] && !r->red[2]) {
    *len = r->dims[1];
    *cols = r->dims[2];
    return 1;
  }
  return 0;
}

/* Columns per tile of the column path: the tile's accumulators stay in L1. */
#define COL_TILE 1024

/* One reduce function per type (see mt_reduce_fn): INIT, COMBINE(acc, x)
 * and FINAL(acc, n) over accumulator type APFX##CT. Each output element
 * folds its inputs in index order. */
#define RED_LOOP_(DT, CT, NAME, APFX, INIT, COMBINE, FINAL)                            \
  static void NAME##_##CT(const mt_reduce* r, const void* inv, void* outv, void* scratch, \
                          int64_t begin, int64_t end) {                                \
    typedef CT T;                                                                      \
    typedef mt_wide_##CT W;                                                            \
    typedef APFX##CT A;                                                                \
    (void)sizeof(W);                                                                   \
    const T* xp = inv;                                                                 \
    T* op = outv;                                                                      \
    const int64_t n = r->count;                                                        \
    (void)n;                                                                           \
    const int64_t inner = r->dims[r->ndims - 1];                                       \
    if (mt_reduce_rows(r)) {                                                           \
      for (int64_t o = begin; o < end; o++) {                                          \
        const T* xr = xp + o * inner;                                                  \
        A acc = (INIT);                                                                \
        for (int64_t i = 0; i < inner; i++) {                                          \
          const T x = xr[i];                                                           \
          acc = (A)(COMBINE);                                                          \
        }                                                                              \
        op[o] = (T)(FINAL);                                                            \
      }                                                                                \
      return;                                                                          \
    }                                                                                  \
    int64_t len_, cols_;                                                               \
    if (reduce_cols(r, &len_, &cols_)) { /* outputs [begin, end), by column tiles */   \
      A* ab = scratch;                                                                 \
      for (int64_t o = begin; o < end;) {                                              \
        const int64_t q = o / cols_, c0 = o - q * cols_;                               \
        int64_t m = (end - o < cols_ - c0 ? end - o : cols_ - c0);                     \
        if (m > COL_TILE) m = COL_TILE;                                                \
        A* ar = ab + o;                                                                \
        for (int64_t c = 0; c < m; c++) ar[c] = (INIT);                                \
        for (int64_t j = 0; j < len_; j++) {                                           \
          const T* xr = xp + (q * len_ + j) * cols_ + c0;                              \
          for (int64_t c = 0; c < m; c++) {                                            \
            const T x = xr[c];                                                         \
            const A acc = ar[c];                                                       \
            ar[c] = (A)(COMBINE);                                                      \
          }                                                                            \
        }                                                                              \
        for (int64_t c = 0; c < m; c++) {                                              \
          const A acc = ar[c];                                                         \
          op[o + c] = (T)(FINAL);                                                      \
        }                                                                              \
        o += m;                                                                        \
      }                                                                                \
      return;                                                                          \
    }                                                                                  \
    A* ab = scratch;                                                                   \
    for (int64_t o = 0; o < r->out_n; o++) ab[o] = (INIT);                             \
    int64_t idx[MT_MAX_DIMS] = {0}, ooff = 0;                                          \
    const int64_t rows = r->in_n ? r->in_n / inner : 0;                                \
    for (int64_t row = 0; row < rows; row++) {                                         \
      const T* xr = xp + row * inner;                                                  \
      A* ar = ab + ooff;                                                               \
      const int red_inner = r->red[r->ndims - 1];                                      \
      for (int64_t i = 0; i < inner; i++) {                                            \
        const T x = xr[i];                                                             \
        A* slot = red_inner ? ar : ar + i;                                             \
        const A acc = *slot;                                                           \
        *slot = (A)(COMBINE);                                                          \
      }                                                                                \
      mt_reduce_next_row(r, idx, &ooff);                                               \
    }                                                                                  \
    for (int64_t o = 0; o < r->out_n; o++) {                                           \
      const A acc = ab[o];                                                             \
      op[o] = (T)(FINAL);                                                              \
    }                                                                                  \
  }
#define RED_LOOPS(NAME, TYPES, APFX, INIT, COMBINE, FINAL) \
  TYPES(RED_LOOP_, NAME, APFX, INIT, COMBINE, FINAL)

/* A reduction: its per-dtype functions and the accumulator size the
 * general (strided) path needs per output element. */
typedef struct reducer {
  mt_reduce_fn fns[MT_NUM_DTYPES];
  size_t acc_size;
} reducer;

/* Sum: floats in double; bfloat16 in float (TensorFlow's casting
 * specialization); half in half (Eigen), integers wrap. */
RED_LOOPS(sum_f, MT_FLOAT_TYPES, acc_, 0, acc + x, acc)
RED_LOOPS(sum_h, HALF_AS_FLOAT, acc_, 0, RH(acc + x), acc)
RED_LOOPS(sum_i, MT_INT_TYPES, acc_, 0, (W)acc + (W)x, acc)
RED_LOOPS(sum_c, MT_COMPLEX_TYPES, acc_, 0, acc + x, acc)
static const reducer sum_r = {
    {MT_ENTRIES(sum_f, MT_FLOAT_TYPES) MT_ENTRIES(sum_i, MT_INT_TYPES)
         MT_ENTRIES(sum_c, MT_COMPLEX_TYPES)[TF_HALF] = sum_h_float,
     [TF_BFLOAT16] = sum_f_float},
    16};

/* Mean: integer sums in 64 bits then a truncating division; an empty
 * float mean is NaN, an empty integer mean 0. half sums in half (Eigen),
 * bfloat16 in float (as TensorFlow 2.21 measures). */
RED_LOOPS(mean_f, MT_FLOAT_TYPES, acc_, 0, acc + x, acc / (double)n)
RED_LOOPS(mean_h, HALF_AS_FLOAT, acc_, 0, RH(acc + x), RH(acc / (double)n))
RED_LOOPS(mean_s, MT_SINT_TYPES, wide_, 0, (uint64_t)acc + (uint64_t)(int64_t)x,
          n ? acc / n : 0)
RED_LOOPS(mean_u, MT_UINT_TYPES, wide_, 0, acc + x, n ? acc / (uint64_t)n : 0)
/* an empty complex mean is 0, as TensorFlow 2.21 returns (not NaN) */
RED_LOOPS(mean_c, MT_COMPLEX_TYPES, acc_, 0, acc + x, n ? acc / (double)n : 0)
static const reducer mean_r = {
    {MT_ENTRIES(mean_f, MT_FLOAT_TYPES) MT_ENTRIES(mean_s, MT_SINT_TYPES)
         MT_ENTRIES(mean_u, MT_UINT_TYPES) MT_ENTRIES(mean_c, MT_COMPLEX_TYPES)[TF_HALF] =
             mean_h_float,
     [TF_BFLOAT16] = mean_f_float},
    16};

RED_LOOPS(prod_f, MT_FLOAT_TYPES, acc_, 1, acc* x, acc)
RED_LOOPS(prod_h, HALF_AS_FLOAT, acc_, 1, RH(acc* x), acc)
RED_LOOPS(prod_b, BF16_AS_FLOAT, acc_, 1, RB(acc* x), acc)
RED_LOOPS(prod_i, MT_INT_TYPES, acc_, 1, (W)acc * (W)x, acc)
RED_LOOPS(prod_c, MT_COMPLEX_TYPES, acc_, 1, acc * x, acc)
static const reducer prod_r = {
    {MT_ENTRIES(prod_f, MT_FLOAT_TYPES) MT_ENTRIES(prod_i, MT_INT_TYPES)
         MT_ENTRIES(prod_c, MT_COMPLEX_TYPES)[TF_HALF] = prod_h_float,
     [TF_BFLOAT16] = prod_b_float},
    16};

/* Max/Min propagate NaN (TensorFlow's reducers are NaN-propagating). The
 * narrow types share the float loops: comparisons are exact. */
RED_LOOPS(max_f, MT_FLOAT_TYPES, own_, LOWEST(T), (x > acc || x != x) ? x : acc, acc)
RED_LOOPS(max_i, MT_INT_TYPES, acc_, LOWEST(T), x > acc ? x : acc, acc)
RED_LOOPS(min_f, MT_FLOAT_TYPES, own_, HIGHEST(T), (x < acc || x != x) ? x : acc, acc)
RED_LOOPS(min_i, MT_INT_TYPES, acc_, HIGHEST(T), x < acc ? x : acc, acc)
static const reducer max_r = {
    {MT_ENTRIES(max_f, MT_FLOAT_TYPES) MT_ENTRIES(max_i, MT_INT_TYPES)[TF_HALF] = max_f_float,
     [TF_BFLOAT16] = max_f_float},
    8};
static const reducer min_r = {
    {MT_ENTRIES(min_f, MT_FLOAT_TYPES) MT_ENTRIES(min_i, MT_INT_TYPES)[TF_HALF] = min_f_float,
     [TF_BFLOAT16] = min_f_float},
    8};

/* EuclideanNorm: sqrt(sum(x conj(x))); integers take the truncated square root of their
 * (wrapping) sum of squares, complex numbers a complex root of a real sum. */
RED_LOOPS(enorm_f, MT_FLOAT_TYPES, acc_, 0, acc + (double)x * x, sqrt(acc))
RED_LOOPS(enorm_h, HALF_AS_FLOAT, acc_, 0, RH(acc + x * x), sqrtf(acc))
RED_LOOPS(enorm_i, MT_INT_TYPES, acc_, 0, (W)acc + (W)x * (W)x, sqrt((double)acc))
RED_LOOPS(enorm_c, MT_COMPLEX_TYPES, acc_, 0, acc + x * conj(x), csqrt(acc))
static const reducer enorm_r = {
    {MT_ENTRIES(enorm_f, MT_FLOAT_TYPES) MT_ENTRIES(enorm_i, MT_INT_TYPES)
         MT_ENTRIES(enorm_c, MT_COMPLEX_TYPES)[TF_HALF] = enorm_h_float,
     [TF_BFLOAT16] = enorm_f_float},
    16};

RED_LOOPS(all_b, MT_BOOL_TYPES, acc_, 1, acc && x, acc)
RED_LOOPS(any_b, MT_BOOL_TYPES, acc_, 0, acc || x, acc)
static const reducer all_r = {{MT_ENTRIES(all_b, MT_BOOL_TYPES)}, 1};
static const reducer any_r = {{MT_ENTRIES(any_b, MT_BOOL_TYPES)}, 1};

typedef struct reduce_task {
  mt_reduce_fn fn;
  const mt_reduce* r;
  const void* in;
  void* out;
  void* scratch;
} reduce_task;

static void reduce_task_run(int64_t begin, int64_t end, void* arg) {
  reduce_task* t = arg;
  t->fn(t->r, t->in, t->out, t->scratch, begin, end);
}

/* ---- float sums of a few long rows (reduce_sum of everything) ----
 * Each row is cut into SUM_BLOCK-element blocks summed in parallel, each
 * in double on 8 lanes; a row's result adds its blocks' sums in block
 * order. Deterministic (fixed blocks, fixed order) and in double, so well
 * within TensorFlow's float tree sums. */
#define SUM_BLOCK 16384
typedef double v8d __attribute__((vector_size(64)));
typedef float v8f __attribute__((vector_size(32)));

MT_SIMD_CLONES static double sum_block_float(const float* x, int64_t n) {
  v8d acc = {0};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    v8f v;
    memcpy(&v, x + i, sizeof v);
    acc += __builtin_convertvector(v, v8d);
  }
  double s = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
  for (; i < n; i++) s += x[i];
  return s;
}

MT_SIMD_CLONES static double sum_block_double(const double* x, int64_t n) {
  v8d acc = {0};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    v8d v;
    memcpy(&v, x + i, sizeof v);
    acc += v;
  }
  double s = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
  for (; i < n; i++) s += x[i];
  return s;
}

typedef struct sum_task {
  const void* in;
  int is_double;
  int64_t len, nblocks;
  double* part; /* rows * nblocks block sums */
} sum_task;

static void sum_task_run(int64_t begin, int64_t end, void* arg) {
  const sum_task* t = arg;
  for (int64_t b = begin; b < end; b++) {
    const int64_t row = b / t->nblocks, k = b - row * t->nblocks;
    const int64_t off = row * t->len + k * SUM_BLOCK;
    const int64_t n = t->len - k * SUM_BLOCK < SUM_BLOCK ? t->len - k * SUM_BLOCK : SUM_BLOCK;
    t->part[b] = t->is_double ? sum_block_double((const double*)t->in + off, n)
                              : sum_block_float((const float*)t->in + off, n);
  }
}

/* Sum (mean when `mean`) of r's rows in blocks, for a few long rows;
 * returns 0 when r is not that case. */
static int sum_rows_blocked(mt_kernel_ctx* ctx, const mt_reduce* r, int is_double, int mean,
                            const void* in, void* out) {
  const int64_t len = r->dims[r->ndims - 1];
  if (!mt_reduce_rows(r) || r->out_n > 16 || len < 4 * SUM_BLOCK) return 0;
  const int64_t nblocks = (len + SUM_BLOCK - 1) / SUM_BLOCK;
  double* part = mt_malloc((size_t)(r->out_n * nblocks) * sizeof(double), ctx->status);
  if (!part) return 1;
  sum_task t = {in, is_double, len, nblocks, part};
  mt_parallel_for(ctx, r->out_n * nblocks, SUM_BLOCK, sum_task_run, &t);
  for (int64_t o = 0; o < r->out_n; o++) {
    double s = 0;
    for (int64_t k = 0; k < nblocks; k++) s += part[o * nblocks + k];
    if (mean) s /= (double)r->count;
    if (is_double) ((double*)out)[o] = s;
    else ((float*)out)[o] = (float)s;
  }
  free(part);
  return 1;
}

/* Runs fn over (in, out) data of the computing type: rows of the output in
 * parallel when each folds a contiguous run, column tiles in parallel for
 * a reduced middle axis, else one strided pass. */
static void reduce_exec(mt_kernel_ctx* ctx, mt_reduce_fn fn, const mt_reduce* r,
                        const void* in, void* out, size_t acc_size) {
  if (mt_reduce_rows(r)) {
    reduce_task t = {fn, r, in, out, NULL};
    mt_parallel_for(ctx, r->out_n, r->dims[r->ndims - 1] + 1, reduce_task_run, &t);
    return;
  }
  void* scratch = mt_malloc((size_t)r->out_n * acc_size, ctx->status);
  if (!scratch) return;
  int64_t len, cols;
  if (reduce_cols(r, &len, &cols)) {
    reduce_task t = {fn, r, in, out, scratch};
    mt_parallel_for(ctx, r->out_n, len + 1, reduce_task_run, &t);
  } else {
    fn(r, in, out, scratch, 0, r->out_n);
  }
  free(scratch);
}

static void reduce_run(mt_kernel_ctx* ctx, const reducer* red) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_DataType dt = in->dtype;
  mt_reduce_fn fn = (unsigned)dt < MT_NUM_DTYPES ? red->fns[dt] : NULL;
  if (!fn) {
    mt_kernel_unsupported(ctx, "T", dt);
    return;
  }
  mt_reduce r;
  if (!mt_reduce_init(&r, in, ctx->inputs[1], mt_op_attr_bool(ctx->op, "keep_dims", 0),
                      ctx->status))
    return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, dt, r.out_dims, r.out_ndims);
  if (!out || r.out_n == 0) return;
  /* float/double Sum and Mean (bfloat16 sums in float too) of long rows */
  const int blocked = fn == sum_f_float || fn == sum_f_double || fn == mean_f_float ||
                      fn == mean_f_double;
  if (!is_narrow(dt)) {
    if (blocked && sum_rows_blocked(ctx, &r, dt == TF_DOUBLE, fn == mean_f_float ||
                                    fn == mean_f_double, mt_tensor_data(in), mt_tensor_data(out)))
      return;
    reduce_exec(ctx, fn, &r, mt_tensor_data(in), mt_tensor_data(out), red->acc_size);
    return;
  }
  float* fin = widened_copy(in, ctx->status);
  float* fout = fin ? mt_malloc((size_t)r.out_n * sizeof(float), ctx->status) : NULL;
  if (fout) {
    reduce_exec(ctx, fn, &r, fin, fout, red->acc_size);
    narrow(dt, fout, mt_tensor_data(out), r.out_n);
  }
  free(fin);
  free(fout);
}

static void sum_kernel(mt_kernel_ctx* ctx) { reduce_run(ctx, &sum_r); }
static void mean_kernel(mt_kernel_ctx* ctx) { reduce_run(ctx, &mean_r); }
static void prod_kernel(mt_kernel_ctx* ctx) { reduce_run(ctx, &prod_r); }
static void enorm_kernel(mt_kernel_ctx* ctx) { reduce_run(ctx, &enorm_r); }
static void max_kernel(mt_kernel_ctx* ctx) { reduce_run(ctx, &max_r); }
static void min_kernel(mt_kernel_ctx* ctx) { reduce_run(ctx, &min_r); }
static void all_kernel(mt_kernel_ctx* ctx) { reduce_run(ctx, &all_r); }
static void any_kernel(mt_kernel_ctx* ctx) { reduce_run(ctx, &any_r); }

/* ---- ArgMax / ArgMin ---- */

/* Index of the first extreme value along the axis. NaNs are skipped unless
 * all are NaN (then 0), matching TensorFlow's Eigen arg reducers on CPU. */
typedef void (*arg_fn)(const void* in, int64_t outer, int64_t len, int64_t inner, int64_t* out);
#define ARG_LOOP_(DT, CT, NAME, BETTER)                                                 \
  static void NAME##_##CT(const void* inv, int64_t outer, int64_t len, int64_t inner, \
                          int64_t* out) {                                             \
    const CT* xp = inv;                                                               \
    for (int64_t o = 0; o < outer; o++)                                               \
      for (int64_t i = 0; i < inner; i++) {                                           \
        const CT* x = xp + o * len * inner + i;                                       \
        CT best = x[0];                                                               \
        int64_t bi = 0;                                                               \
        for (int64_t j = 1; j < len; j++) {                                           \
          const CT v = x[j * inner];                                                  \
          if (BETTER) {                                                               \
            best = v;                                                                 \
            bi = j;                                                                   \
          }                                                                           \
        }                                                                             \
        out[o * inner + i] = bi;                                                      \
      }                                                                               \
  }
MT_FLOAT_TYPES(ARG_LOOP_, argmax_f, v > best || (best != best && v == v))
MT_INT_TYPES(ARG_LOOP_, argmax_i, v > best)
MT_BOOL_TYPES(ARG_LOOP_, argmax_b, v > best)
MT_FLOAT_TYPES(ARG_LOOP_, argmin_f, v < best || (best != best && v == v))
MT_INT_TYPES(ARG_LOOP_, argmin_i, v < best)
MT_BOOL_TYPES(ARG_LOOP_, argmin_b, v < best)
static const arg_fn argmax_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(argmax_f, MT_FLOAT_TYPES) MT_ENTRIES(argmax_i, MT_INT_TYPES)
        MT_ENTRIES(argmax_b, MT_BOOL_TYPES)[TF_HALF] = argmax_f_float,
    [TF_BFLOAT16] = argmax_f_float};
static const arg_fn argmin_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(argmin_f, MT_FLOAT_TYPES) MT_ENTRIES(argmin_i, MT_INT_TYPES)
        MT_ENTRIES(argmin_b, MT_BOOL_TYPES)[TF_HALF] = argmin_f_float,
    [TF_BFLOAT16] = argmin_f_float};

/* Float ArgMax/ArgMin along the last axis, a row at a time: the extreme
 * value first (16 lanes; NaN lanes never win a comparison, so NaNs are
 * skipped), then the first index holding it; a row of NaNs gives 0. The
 * same index as the sequential loop above. */
MT_SIMD_CLONES static void arg_rows_float(const float* xp, int64_t rows, int64_t len,
                                          int64_t* out, int is_min) {
  const float init = is_min ? INFINITY : -INFINITY;
  for (int64_t r = 0; r < rows; r++) {
    const float* x = xp + r * len;
    v16f mv = v16_splat(init);
    int64_t j = 0;
    for (; j + 16 <= len; j += 16) {
      v16f v;
      memcpy(&v, x + j, sizeof v);
      mv = v16_sel(is_min ? v < mv : v > mv, v, mv);
    }
    float m = init;
    for (int l = 0; l < 16; l++) m = (is_min ? mv[l] < m : mv[l] > m) ? mv[l] : m;
    for (; j < len; j++) m = (is_min ? x[j] < m : x[j] > m) ? x[j] : m;
    int64_t bi = 0;
    for (j = 0; j < len; j++)
      if (x[j] == m) {
        bi = j;
        break;
      }
    out[r] = bi;
  }
}

typedef struct arg_task {
  const float* in;
  int64_t len;
  int64_t* out;
  int is_min;
} arg_task;

static void arg_task_run(int64_t begin, int64_t end, void* arg) {
  const arg_task* t = arg;
  arg_rows_float(t->in + begin * t->len, end - begin, t->len, t->out + begin, t->is_min);
}

/* Reads the scalar axis input `idx` into *axis, checked against the rank;
 * TensorFlow's wording via `fmt` (two %d bounds, one %lld value). */
static int scalar_axis(mt_kernel_ctx* ctx, int idx, const char* what, int rank,
                       int64_t* axis) {
  const TF_Tensor* dim = ctx->inputs[idx];
  char buf[256];
  if (dim->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s", what);
    mt_status_append(ctx->status, "%s", mt_dims_str(dim->dims, dim->ndims, buf, sizeof buf));
    return 0;
  }
  if (mt_tensor_ints(dim, axis, 1) != 1) {
    mt_kernel_unsupported(ctx, "Tidx", dim->dtype);
    return 0;
  }
  return 1;
}

static void arg_run(mt_kernel_ctx* ctx, const arg_fn* fns) {
  const TF_Tensor* in = ctx->inputs[0];
  char buf[256];
  int64_t axis;
  if (!scalar_axis(ctx, 1, "dim must be a scalar, but received tensor of shape: ", in->ndims,
                   &axis))
    return;
  const int rank = in->ndims;
  if (axis < -rank || axis >= rank) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected dimension in the range [%d, %d), but got %lld", -rank, rank,
                   (long long)axis);
    return;
  }
  if (axis < 0) axis += rank;
  arg_fn fn = (unsigned)in->dtype < MT_NUM_DTYPES ? fns[in->dtype] : NULL;
  if (!fn) {
    mt_kernel_unsupported(ctx, "T", in->dtype);
    return;
  }
  const TF_DataType ot = mt_op_attr_type(ctx->op, "output_type", TF_INT64);
  if (ot != TF_INT64 && ot != TF_INT32 && ot != TF_INT16 && ot != TF_UINT16) {
    mt_kernel_unsupported(ctx, "output_type", ot);
    return;
  }
  const int64_t len = in->dims[axis];
  if (len == 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Reduction axis %lld is empty in shape %s",
                   (long long)axis, mt_dims_str(in->dims, in->ndims, buf, sizeof buf));
    return;
  }
  int64_t odims[MT_MAX_DIMS];
  int64_t outer = 1, inner = 1;
  int ond = 0;
  for (int d = 0; d < rank; d++) {
    if (d == axis) continue;
    odims[ond++] = in->dims[d];
    if (d < axis) outer *= in->dims[d];
    else inner *= in->dims[d];
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, ot, odims, ond);
  const int64_t n = outer * inner;
  if (!out || n == 0) return;
  /* Indices land in int64 first (in place when the output is int64). */
  int64_t* idx = ot == TF_INT64 ? mt_tensor_data(out) : mt_malloc((size_t)n * 8, ctx->status);
  float* fin = NULL;
  if (idx && is_narrow(in->dtype)) fin = widened_copy(in, ctx->status);
  const int float_rows = inner == 1 && (fn == argmax_f_float || fn == argmin_f_float);
  if (idx && float_rows && (fin || !is_narrow(in->dtype))) {
    arg_task t = {fin ? fin : (const float*)mt_tensor_data(in), len, idx, fn == argmin_f_float};
    mt_parallel_for(ctx, outer, len, arg_task_run, &t);
  } else if (idx && (fin || !is_narrow(in->dtype))) {
    fn(fin ? (const void*)fin : mt_tensor_data(in), outer, len, inner, idx);
  }
  free(fin);
  if (!idx || ot == TF_INT64 || !mt_ok(ctx->status)) {
    if (ot != TF_INT64) free(idx);
    return;
  }
  void* od = mt_tensor_data(out);
  for (int64_t i = 0; i < n; i++) {
    if (ot == TF_INT32) ((int32_t*)od)[i] = (int32_t)idx[i];
    else if (ot == TF_INT16) ((int16_t*)od)[i] = (int16_t)idx[i];
    else ((uint16_t*)od)[i] = (uint16_t)idx[i];
  }
  free(idx);
}

static void argmax_kernel(mt_kernel_ctx* ctx) { arg_run(ctx, argmax_fns); }
static void argmin_kernel(mt_kernel_ctx* ctx) { arg_run(ctx, argmin_fns); }

/* TensorFlow's ArgOpShape. */
static void arg_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 1, 0)) return;
  const mt_shape* in = &ctx->in[0];
  mt_shape* out = &ctx->out[0];
  if (in->rank <= 0) { /* a scalar input passes here and fails in the kernel */
    *out = in->rank == 0 ? *in : mt_shape_unknown();
    return;
  }
  int64_t axis;
  if (mt_shape_input_as_ints(ctx, 1, &axis, 1) != 1) {
    out->rank = in->rank <= 1 ? 0 : in->rank - 1;
    for (int d = 0; d < out->rank; d++) out->dims[d] = -1;
    return;
  }
  if (axis < -in->rank || axis >= in->rank) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Dimension (%lld) must be in the range [%d, %d), where %d is the number of "
                   "dimensions in the input.",
                   (long long)axis, -in->rank, in->rank, in->rank);
    return;
  }
  if (axis < 0) axis += in->rank;
  out->rank = 0;
  for (int d = 0; d < in->rank; d++)
    if (d != axis) out->dims[out->rank++] = in->dims[d];
}

/* ---- Cumsum / Cumprod ---- */

/* One scan over [outer, len, inner] in the element type (wrapping through W
 * for integers), exclusive/reverse as the attrs say; narrow types run on
 * float data with rounding `R` after every step. */
typedef void (*scan_fn)(const void* in, void* out, int64_t outer, int64_t len, int64_t inner,
                        int exclusive, int reverse);
#define SCAN_LOOP_(DT, CT, NAME, INIT, STEP)                                              \
  static void NAME##_##CT(const void* inv, void* outv, int64_t outer, int64_t len,      \
                          int64_t inner, int exclusive, int reverse) {                  \
    typedef CT T;                                                                       \
    typedef mt_wide_##CT W;                                                             \
    (void)sizeof(W);                                                                    \
    const T* xp = inv;                                                                  \
    T* yp = outv;                                                                       \
    for (int64_t o = 0; o < outer; o++)                                                 \
      for (int64_t i = 0; i < inner; i++) {                                             \
        const int64_t base = o * len * inner + i;                                       \
        T acc = (T)(INIT);                                                              \
        for (int64_t s = 0; s < len; s++) {                                             \
          const int64_t j = base + (reverse ? len - 1 - s : s) * inner;                 \
          const T x = xp[j];                                                            \
          if (exclusive) {                                                              \
            yp[j] = acc;                                                                \
            acc = (T)(STEP);                                                            \
          } else {                                                                      \
            acc = (T)(STEP);                                                            \
            yp[j] = acc;                                                                \
          }                                                                             \
        }                                                                               \
      }                                                                                 \
  }
MT_FLOAT_TYPES(SCAN_LOOP_, cumsum_f, 0, acc + x)
HALF_AS_FLOAT(SCAN_LOOP_, cumsum_h, 0, RH(acc + x))
BF16_AS_FLOAT(SCAN_LOOP_, cumsum_b, 0, RB(acc + x))
MT_INT_TYPES(SCAN_LOOP_, cumsum_i, 0, (W)acc + (W)x)
MT_FLOAT_TYPES(SCAN_LOOP_, cumprod_f, 1, acc* x)
HALF_AS_FLOAT(SCAN_LOOP_, cumprod_h, 1, RH(acc* x))
BF16_AS_FLOAT(SCAN_LOOP_, cumprod_b, 1, RB(acc* x))
MT_INT_TYPES(SCAN_LOOP_, cumprod_i, 1, (W)acc * (W)x)
MT_COMPLEX_TYPES(SCAN_LOOP_, cumsum_c, 0, acc + x)
MT_COMPLEX_TYPES(SCAN_LOOP_, cumprod_c, 1, acc * x)
/* log(exp(a) + exp(b)), stable: max + log1p(exp(-|a - b|)); -inf when both are. */
static inline double log_add_exp(double a, double b) {
  if (a == -INFINITY) return b;
  if (b == -INFINITY) return a;
  const double m = a > b ? a : b;
  return m + log1p(exp(-fabs(a - b)));
}
MT_FLOAT_TYPES(SCAN_LOOP_, cumlse_f, -INFINITY, log_add_exp(acc, x))
HALF_AS_FLOAT(SCAN_LOOP_, cumlse_h, -INFINITY, RH(log_add_exp(acc, x)))
BF16_AS_FLOAT(SCAN_LOOP_, cumlse_b, -INFINITY, RB(log_add_exp(acc, x)))
static const scan_fn cumlse_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(cumlse_f, MT_FLOAT_TYPES)[TF_HALF] = cumlse_h_float,
    [TF_BFLOAT16] = cumlse_b_float};
static const scan_fn cumsum_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(cumsum_f, MT_FLOAT_TYPES) MT_ENTRIES(cumsum_i, MT_INT_TYPES)
        MT_ENTRIES(cumsum_c, MT_COMPLEX_TYPES)[TF_HALF] = cumsum_h_float,
    [TF_BFLOAT16] = cumsum_b_float};
static const scan_fn cumprod_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(cumprod_f, MT_FLOAT_TYPES) MT_ENTRIES(cumprod_i, MT_INT_TYPES)
        MT_ENTRIES(cumprod_c, MT_COMPLEX_TYPES)[TF_HALF] = cumprod_h_float,
    [TF_BFLOAT16] = cumprod_b_float};

static void scan_run(mt_kernel_ctx* ctx, const scan_fn* fns) {
  const TF_Tensor* in = ctx->inputs[0];
  const int rank = in->ndims;
  int64_t axis;
  if (!scalar_axis(ctx, 1, "ScanOp: axis must be a scalar, not ", rank, &axis)) return;
  if (axis < 0) axis += rank; /* TensorFlow reports the axis after this shift */
  if (axis < 0 || axis >= rank) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "ScanOp: Expected scan axis in the range [%d, %d), but got %lld", -rank, rank,
                   (long long)axis);
    return;
  }
  scan_fn fn = (unsigned)in->dtype < MT_NUM_DTYPES ? fns[in->dtype] : NULL;
  if (!fn) {
    mt_kernel_unsupported(ctx, "T", in->dtype);
    return;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, in->dims, in->ndims);
  const int64_t n = mt_tensor_nelems(in);
  if (!out || n == 0) return;
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < rank; d++) {
    if (d < axis) outer *= in->dims[d];
    if (d > axis) inner *= in->dims[d];
  }
  const int64_t len = in->dims[axis];
  const int excl = mt_op_attr_bool(ctx->op, "exclusive", 0);
  const int rev = mt_op_attr_bool(ctx->op, "reverse", 0);
  if (!is_narrow(in->dtype)) {
    fn(mt_tensor_data(in), mt_tensor_data(out), outer, len, inner, excl, rev);
    return;
  }
  float* f = widened_copy(in, ctx->status);
  if (!f) return;
  fn(f, f, outer, len, inner, excl, rev); /* in place: each element is read before written */
  narrow(in->dtype, f, mt_tensor_data(out), n);
  free(f);
}

static void cumsum_kernel(mt_kernel_ctx* ctx) { scan_run(ctx, cumsum_fns); }
static void cumprod_kernel(mt_kernel_ctx* ctx) { scan_run(ctx, cumprod_fns); }
static void cumlse_kernel(mt_kernel_ctx* ctx) { scan_run(ctx, cumlse_fns); }

/* TensorFlow's Cumsum shape function: the input's shape (axis unchecked). */
static void scan_shape(mt_shape_ctx* ctx) { ctx->out[0] = ctx->in[0]; }

/* ---- registrations ---- */

#define NUMBER_TYPES                                                                    \
  "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8,"      \
  " qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}"
#define REAL_LIST                                                                       \
  "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32,"    \
  " uint64, qint8, quint8, qint32, qint16, quint16"
#define REAL_TYPES "T: {" REAL_LIST "}"
#define REDUCE_IO .inputs = "input: T, reduction_indices: Tidx", .outputs = "output: T"
#define BOOL_IO .inputs = "input: bool, reduction_indices: Tidx", .outputs = "output: bool"
#define TIDX "Tidx: {int32, int64} = DT_INT32"

static const mt_op_spec reduction_specs[] = {
    {.name = "Sum", REDUCE_IO, .attrs = "keep_dims: bool = false; " NUMBER_TYPES "; " TIDX,
     .shape = mt_reduce_shape, .kernel = sum_kernel},
    {.name = "Mean", REDUCE_IO, .attrs = "keep_dims: bool = false; " NUMBER_TYPES "; " TIDX,
     .shape = mt_reduce_shape, .kernel = mean_kernel},
    {.name = "Prod", REDUCE_IO, .attrs = "keep_dims: bool = false; " NUMBER_TYPES "; " TIDX,
     .shape = mt_reduce_shape, .kernel = prod_kernel},
    {.name = "Max", REDUCE_IO, .attrs = "keep_dims: bool = false; " REAL_TYPES "; " TIDX,
     .shape = mt_reduce_shape, .kernel = max_kernel},
    {.name = "Min", REDUCE_IO, .attrs = "keep_dims: bool = false; " REAL_TYPES "; " TIDX,
     .shape = mt_reduce_shape, .kernel = min_kernel},
    {.name = "All", BOOL_IO, .attrs = "keep_dims: bool = false; " TIDX,
     .shape = mt_reduce_shape, .kernel = all_kernel},
    {.name = "Any", BOOL_IO, .attrs = "keep_dims: bool = false; " TIDX,
     .shape = mt_reduce_shape, .kernel = any_kernel},
    {.name = "ArgMax", .inputs = "input: T, dimension: Tidx", .outputs = "output: output_type",
     .attrs = "T: {" REAL_LIST ", bool}; Tidx: {int16, int32, int64} = DT_INT32;"
                         " output_type: {int16, uint16, int32, int64} = DT_INT64",
     .shape = arg_shape, .kernel = argmax_kernel},
    {.name = "ArgMin", .inputs = "input: T, dimension: Tidx", .outputs = "output: output_type",
     .attrs = "T: {" REAL_LIST ", bool}; " TIDX "; output_type: {int32, int64} = DT_INT64",
     .shape = arg_shape, .kernel = argmin_kernel},
    {.name = "Cumsum", .inputs = "x: T, axis: Tidx", .outputs = "out: T",
     .attrs = "exclusive: bool = false; reverse: bool = false; " NUMBER_TYPES "; " TIDX,
     .shape = scan_shape, .kernel = cumsum_kernel},
    {.name = "EuclideanNorm", REDUCE_IO,
     .attrs = "keep_dims: bool = false; " NUMBER_TYPES "; " TIDX,
     .shape = mt_reduce_shape, .kernel = enorm_kernel},
    {.name = "CumulativeLogsumexp", .inputs = "x: T, axis: Tidx", .outputs = "out: T",
     .attrs = "exclusive: bool = false; reverse: bool = false; T: {bfloat16, half, float, "
              "double}; " TIDX,
     .shape = scan_shape, .kernel = cumlse_kernel},
    {.name = "Cumprod", .inputs = "x: T, axis: Tidx", .outputs = "out: T",
     .attrs = "exclusive: bool = false; reverse: bool = false; " NUMBER_TYPES "; " TIDX,
     .shape = scan_shape, .kernel = cumprod_kernel},
};

void mt_register_reduction_ops(void) {
  mt_register_ops(reduction_specs, (int)(sizeof reduction_specs / sizeof reduction_specs[0]));
}
