/* Shared machinery for op families: dtype X-macros, NumPy/TensorFlow
 * broadcasting for elementwise binary ops, elementwise unary loops,
 * reductions over a set of axes, and TensorFlow-worded error helpers.
 *
 * Adding an elementwise op is one line plus its spec entry, e.g.
 *
 *   MT_BINARY_OP(maximum, MT_REAL_TYPES, x > y ? x : y)
 *   { "Maximum", "x: T, y: T", "z: T", "T: {...}", mt_binary_shape, maximum_kernel }
 *
 * The expression sees `x`, `y` (or only `x` for unary ops) of the element
 * type `T`, the type `W` (an unsigned type at least as wide as int for
 * integers, so `(T)((W)x + (W)y)` wraps like TensorFlow instead of being
 * undefined; T itself for floats), and may set `err = 1` (the kernel then
 * fails with TF_INVALID_ARGUMENT and the op's error message).
 *
 * Storage type vs compute type: every list entry names the C type stored in
 * the tensor; the loops load each element into its compute type
 * `mt_compute_<ctype>` (float for mt_half and mt_bfloat16, the type itself
 * otherwise), evaluate the expression with `T` = that compute type, and
 * store the result rounded back (round to nearest even, as Eigen). So one
 * expression serves float16/bfloat16 too: list MT_FLOATING_TYPES instead of
 * MT_FLOAT_TYPES. Complex types (C11 `float _Complex`) compute as
 * themselves; expressions for them use <complex.h> functions.
 *
 * When the expression differs per type class (Div truncates for ints),
 * stamp loops per class with MT_BINARY_LOOPS and assemble one table:
 *
 *   MT_BINARY_LOOPS(div_f, MT_FLOAT_TYPES, x / y)
 *   MT_BINARY_LOOPS(div_u, MT_UINT_TYPES, y == 0 ? (err = 1, (T)0) : x / y)
 *   static const mt_binary_fn div_fns[MT_NUM_DTYPES] = {
 *       MT_ENTRIES(div_f, MT_FLOAT_TYPES) MT_ENTRIES(div_u, MT_UINT_TYPES)};
 *   MT_BINARY_KERNEL(div, div_fns, "Integer division by zero")
 *
 * All functions here are thread-safe (no shared state). */
#ifndef MINITF_RUNTIME_KERNELS_KERNEL_UTIL_H_
#define MINITF_RUNTIME_KERNELS_KERNEL_UTIL_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "runtime/kernel.h"
#include "runtime/kernels/half.h"

/* One past the largest TF_DataType value: size of per-dtype tables. */
#define MT_NUM_DTYPES 33

/* ---- dtype lists: X(TF_ENUM, c_type, extra args...) ---- */
#define MT_FLOAT_TYPES(X, ...) X(TF_FLOAT, float, __VA_ARGS__) X(TF_DOUBLE, double, __VA_ARGS__)
#define MT_SINT_TYPES(X, ...)                                                       \
  X(TF_INT8, int8_t, __VA_ARGS__) X(TF_INT16, int16_t, __VA_ARGS__)                 \
  X(TF_INT32, int32_t, __VA_ARGS__) X(TF_INT64, int64_t, __VA_ARGS__)
#define MT_UINT_TYPES(X, ...)                                                       \
  X(TF_UINT8, uint8_t, __VA_ARGS__) X(TF_UINT16, uint16_t, __VA_ARGS__)             \
  X(TF_UINT32, uint32_t, __VA_ARGS__) X(TF_UINT64, uint64_t, __VA_ARGS__)
#define MT_INT_TYPES(X, ...) MT_SINT_TYPES(X, __VA_ARGS__) MT_UINT_TYPES(X, __VA_ARGS__)
/* Floats and signed integers: types with a meaningful negation. */
#define MT_SIGNED_TYPES(X, ...) MT_FLOAT_TYPES(X, __VA_ARGS__) MT_SINT_TYPES(X, __VA_ARGS__)
#define MT_REAL_TYPES(X, ...) MT_FLOAT_TYPES(X, __VA_ARGS__) MT_INT_TYPES(X, __VA_ARGS__)
/* bool through a typedef: `bool` is a macro, which would expand differently
 * in pasted and plain uses of the type name. */
typedef _Bool mt_bool;
#define MT_BOOL_TYPES(X, ...) X(TF_BOOL, mt_bool, __VA_ARGS__)
/* Every fixed-size type this runtime computes on (without half/complex;
 * see MT_ALL_POD_TYPES). */
#define MT_POD_TYPES(X, ...) MT_REAL_TYPES(X, __VA_ARGS__) MT_BOOL_TYPES(X, __VA_ARGS__)

/* 16-bit floats: stored as mt_half/mt_bfloat16, computed in float. */
#define MT_HALF_TYPES(X, ...) X(TF_HALF, mt_half, __VA_ARGS__) X(TF_BFLOAT16, mt_bfloat16, __VA_ARGS__)
/* Complex numbers as C11 complex types (TensorFlow's layout: real, imag). */
typedef float _Complex mt_complex64;
typedef double _Complex mt_complex128;
#define MT_COMPLEX_TYPES(X, ...) \
  X(TF_COMPLEX64, mt_complex64, __VA_ARGS__) X(TF_COMPLEX128, mt_complex128, __VA_ARGS__)
/* TensorFlow's type sets: "floating" (half, bfloat16, float, double),
 * "realnumbertype" (floating + integers), "numbertype" (+ complex). */
#define MT_FLOATING_TYPES(X, ...) MT_HALF_TYPES(X, __VA_ARGS__) MT_FLOAT_TYPES(X, __VA_ARGS__)
#define MT_REALNUMBER_TYPES(X, ...) MT_FLOATING_TYPES(X, __VA_ARGS__) MT_INT_TYPES(X, __VA_ARGS__)
#define MT_NUMBER_TYPES(X, ...) MT_REALNUMBER_TYPES(X, __VA_ARGS__) MT_COMPLEX_TYPES(X, __VA_ARGS__)
/* Floating and signed integers (with 16-bit floats). */
#define MT_SIGNED_ALL_TYPES(X, ...) MT_FLOATING_TYPES(X, __VA_ARGS__) MT_SINT_TYPES(X, __VA_ARGS__)
/* Every fixed-size type: numbers and bool. */
#define MT_ALL_POD_TYPES(X, ...) MT_NUMBER_TYPES(X, __VA_ARGS__) MT_BOOL_TYPES(X, __VA_ARGS__)

/* Compute type, load and store per storage type (see the header comment).
 * Stores convert like a C cast for the plain types. */
#define MT_PLAIN_LOAD_STORE_(DT, CT, unused)         \
  typedef CT mt_compute_##CT;                        \
  static inline CT mt_load_##CT(CT v) { return v; } \
  static inline CT mt_store_##CT(CT v) { return v; }
MT_POD_TYPES(MT_PLAIN_LOAD_STORE_, 0)
MT_COMPLEX_TYPES(MT_PLAIN_LOAD_STORE_, 0)
#undef MT_PLAIN_LOAD_STORE_
typedef float mt_compute_mt_half, mt_compute_mt_bfloat16;
static inline float mt_load_mt_half(mt_half v) { return mt_half_to_float(v); }
static inline mt_half mt_store_mt_half(float v) { return mt_float_to_half(v); }
static inline float mt_load_mt_bfloat16(mt_bfloat16 v) { return mt_bfloat16_to_float(v); }
static inline mt_bfloat16 mt_store_mt_bfloat16(float v) { return mt_float_to_bfloat16(v); }

/* Wrap types (see above) and reduction accumulator types, by C type name. */
typedef uint32_t mt_wide_int8_t, mt_wide_int16_t, mt_wide_int32_t;
typedef uint32_t mt_wide_uint8_t, mt_wide_uint16_t, mt_wide_uint32_t;
typedef uint64_t mt_wide_int64_t, mt_wide_uint64_t;
typedef float mt_wide_float, mt_wide_mt_half, mt_wide_mt_bfloat16;
typedef double mt_wide_double;
typedef mt_complex64 mt_wide_mt_complex64;
typedef mt_complex128 mt_wide_mt_complex128;
typedef unsigned mt_wide_mt_bool;
/* Float sums accumulate in double (closer to TF's tree reductions and
 * NumPy's pairwise sums than a naive float loop); integers in their own
 * type (wrapping through W). */
typedef double mt_acc_float, mt_acc_double;
typedef int8_t mt_acc_int8_t;
typedef int16_t mt_acc_int16_t;
typedef int32_t mt_acc_int32_t;
typedef int64_t mt_acc_int64_t;
typedef uint8_t mt_acc_uint8_t;
typedef uint16_t mt_acc_uint16_t;
typedef uint32_t mt_acc_uint32_t;
typedef uint64_t mt_acc_uint64_t;
typedef mt_bool mt_acc_mt_bool;
/* 16-bit floats accumulate in float, as TensorFlow's half reductions. */
typedef float mt_acc_mt_half, mt_acc_mt_bfloat16;
typedef mt_complex64 mt_acc_mt_complex64;
typedef mt_complex128 mt_acc_mt_complex128;

/* Table entry `[TF_X] = NAME_ctype,` for each type of a list. */
#define MT_ENTRY_(DT, CT, NAME) [DT] = NAME##_##CT,
#define MT_ENTRIES(NAME, TYPES) TYPES(MT_ENTRY_, NAME)

/* ---- errors ---- */

/* "DT_FLOAT" etc. (TensorFlow's DataTypeString of the enum). */
const char* mt_dt_enum_name(TF_DataType dt, char* buf, size_t cap);
/* TF_INVALID_ARGUMENT "No OpKernel was registered to support Op 'X' used by
 * {{node n}} with these attrs: [T=DT_HALF]" for a dtype the kernel does not
 * implement (TensorFlow's words). */
void mt_kernel_unsupported(mt_kernel_ctx* ctx, const char* attr, TF_DataType dt);
/* Checks a kernel input's rank against [min, max] (max < 0: no max). */
int mt_check_rank(mt_kernel_ctx* ctx, int idx, const char* what, int min, int max);

/* ---- broadcasting ---- */

/* Broadcast of x and y, computed once per kernel call: the output shape and
 * a collapsed iteration space (adjacent dims broadcast the same way merged,
 * size-1 dims dropped) with per-input element strides (0 = broadcast). The
 * innermost collapsed dim has stride 0 or 1 for each input. */
typedef struct mt_bcast {
  int out_ndims;
  int64_t out_dims[MT_MAX_DIMS];
  int64_t n; /* output element count */
  int ndims; /* collapsed, >= 1 */
  int64_t dims[MT_MAX_DIMS];
  int64_t xstr[MT_MAX_DIMS], ystr[MT_MAX_DIMS];
} mt_bcast;

/* Returns 0 with TF_INVALID_ARGUMENT "Incompatible shapes: [2,3] vs. [4]"
 * when the shapes do not broadcast. */
int mt_bcast_init(mt_bcast* b, const int64_t* xdims, int xnd, const int64_t* ydims, int ynd,
                  TF_Status* s);

/* Position while walking a broadcast in output order. */
typedef struct mt_bcast_pos {
  int64_t idx[MT_MAX_DIMS]; /* indices of the outer collapsed dims */
  int64_t xrow, yrow;       /* element offsets of the current row start */
  int64_t col;              /* index in the innermost dim */
} mt_bcast_pos;

void mt_bcast_seek(const mt_bcast* b, mt_bcast_pos* p, int64_t elem);
/* Moves to the start of the next row. */
void mt_bcast_next_row(const mt_bcast* b, mt_bcast_pos* p);

typedef void (*mt_binary_fn)(const mt_bcast* b, const void* x, const void* y, void* z,
                             int64_t begin, int64_t end, atomic_int* err);

/* Runs a binary elementwise op: checks dtypes, broadcasts, forwards an
 * input buffer when possible, splits the work over the intra-op pool.
 * out_type 0 = same as the inputs. err_msg: message when an element sets
 * err (NULL = "Integer division by zero"). */
void mt_binary_run(mt_kernel_ctx* ctx, const mt_binary_fn* fns, TF_DataType out_type,
                   const char* err_msg);

/* Shape function of broadcasting binary ops (TensorFlow's
 * BroadcastBinaryOpShapeFn): unknown dims propagate; clashing known dims
 * fail with "Dimensions must be equal, but are 2 and 3". */
void mt_binary_shape(mt_shape_ctx* ctx);
/* Static broadcast of two shapes into *out; 0 + status on a clash. */
int mt_broadcast_shapes(const mt_shape* x, const mt_shape* y, mt_shape* out, TF_Status* s);

#define MT_BINARY_LOOP_(DT, CT, TOUT, NAME, ...)                                          \
  static void NAME##_##CT(const mt_bcast* b, const void* xv, const void* yv, void* zv,    \
                          int64_t begin, int64_t end, atomic_int* errp) {                 \
    typedef mt_compute_##CT T;                                                            \
    typedef mt_wide_##CT W;                                                               \
    (void)sizeof(W);                                                                      \
    const CT* xp = xv;                                                                     \
    const CT* yp = yv;                                                                     \
    TOUT* zp = zv;                                                                        \
    int err = 0;                                                                          \
    const int64_t inner = b->dims[b->ndims - 1];                                          \
    const int xs = b->xstr[b->ndims - 1] != 0, ys = b->ystr[b->ndims - 1] != 0;           \
    mt_bcast_pos p;                                                                       \
    mt_bcast_seek(b, &p, begin);                                                          \
    while (begin < end) {                                                                 \
      int64_t len = inner - p.col;                                                        \
      if (len > end - begin) len = end - begin;                                           \
      const CT* xr = xp + p.xrow + (xs ? p.col : 0);                                       \
      const CT* yr = yp + p.yrow + (ys ? p.col : 0);                                       \
      TOUT* zr = zp + begin;                                                              \
      if (xs && ys) {                                                                     \
        for (int64_t i = 0; i < len; i++) {                                               \
          const T x = mt_load_##CT(xr[i]), y = mt_load_##CT(yr[i]);                                                   \
          zr[i] = mt_store_##TOUT(__VA_ARGS__);                                                    \
        }                                                                                 \
      } else if (xs) {                                                                    \
        const T y = mt_load_##CT(*yr);                                                                  \
        for (int64_t i = 0; i < len; i++) {                                               \
          const T x = mt_load_##CT(xr[i]);                                                              \
          zr[i] = mt_store_##TOUT(__VA_ARGS__);                                                    \
        }                                                                                 \
      } else if (ys) {                                                                    \
        const T x = mt_load_##CT(*xr);                                                                  \
        for (int64_t i = 0; i < len; i++) {                                               \
          const T y = mt_load_##CT(yr[i]);                                                              \
          zr[i] = mt_store_##TOUT(__VA_ARGS__);                                                    \
        }                                                                                 \
      } else {                                                                            \
        const T x = mt_load_##CT(*xr), y = mt_load_##CT(*yr);                                                         \
        const TOUT v = mt_store_##TOUT(__VA_ARGS__);                                               \
        for (int64_t i = 0; i < len; i++) zr[i] = v;                                      \
      }                                                                                   \
      begin += len;                                                                       \
      p.col += len;                                                                       \
      if (p.col == inner) mt_bcast_next_row(b, &p);                                       \
    }                                                                                     \
    if (err) atomic_store(errp, 1);                                                       \
  }
#define MT_BINARY_SAME_(DT, CT, NAME, ...) MT_BINARY_LOOP_(DT, CT, CT, NAME, __VA_ARGS__)
#define MT_BINARY_BOOL_(DT, CT, NAME, ...) MT_BINARY_LOOP_(DT, CT, mt_bool, NAME, __VA_ARGS__)

/* Loops NAME_<ctype> for each type of TYPES; output of the input type. */
#define MT_BINARY_LOOPS(NAME, TYPES, ...) TYPES(MT_BINARY_SAME_, NAME, __VA_ARGS__)
/* Same with a bool output (comparisons, logical ops). */
#define MT_BINARY_LOOPS_BOOL(NAME, TYPES, ...) TYPES(MT_BINARY_BOOL_, NAME, __VA_ARGS__)
/* NAME_kernel running table FNS. */
#define MT_BINARY_KERNEL(NAME, FNS, ERRMSG) \
  static void NAME##_kernel(mt_kernel_ctx* ctx) { mt_binary_run(ctx, FNS, (TF_DataType)0, ERRMSG); }
#define MT_BINARY_KERNEL_BOOL(NAME, FNS, ERRMSG) \
  static void NAME##_kernel(mt_kernel_ctx* ctx) { mt_binary_run(ctx, FNS, TF_BOOL, ERRMSG); }
/* The one-liner: loops, table NAME_fns and NAME_kernel. */
#define MT_BINARY_OP(NAME, TYPES, ...)                                                   \
  MT_BINARY_LOOPS(NAME, TYPES, __VA_ARGS__)                                              \
  static const mt_binary_fn NAME##_fns[MT_NUM_DTYPES] = {MT_ENTRIES(NAME, TYPES)};       \
  MT_BINARY_KERNEL(NAME, NAME##_fns, NULL)
#define MT_COMPARE_OP(NAME, TYPES, ...)                                                  \
  MT_BINARY_LOOPS_BOOL(NAME, TYPES, __VA_ARGS__)                                         \
  static const mt_binary_fn NAME##_fns[MT_NUM_DTYPES] = {MT_ENTRIES(NAME, TYPES)};       \
  MT_BINARY_KERNEL_BOOL(NAME, NAME##_fns, NULL)

/* ---- unary elementwise ---- */

typedef void (*mt_unary_fn)(const void* x, void* y, int64_t begin, int64_t end,
                            atomic_int* err);

/* Runs a unary elementwise op over input 0 (forwarding its buffer when
 * possible). out_type 0 = the input's type. */
void mt_unary_run(mt_kernel_ctx* ctx, const mt_unary_fn* fns, TF_DataType out_type,
                  const char* err_msg);
/* Shape function: output 0 = input 0's shape. */
void mt_unchanged_shape(mt_shape_ctx* ctx);

#define MT_UNARY_LOOP_(DT, CT, TOUT, NAME, ...)                                        \
  static void NAME##_##CT(const void* xv, void* yv, int64_t begin, int64_t end,        \
                          atomic_int* errp) {                                          \
    typedef mt_compute_##CT T;                                                         \
    typedef mt_wide_##CT W;                                                            \
    (void)sizeof(W);                                                                   \
    const CT* xp = xv;                                                                  \
    TOUT* yp = yv;                                                                     \
    int err = 0;                                                                       \
    for (int64_t i = begin; i < end; i++) {                                            \
      const T x = mt_load_##CT(xp[i]);                                                               \
      yp[i] = mt_store_##TOUT(__VA_ARGS__);                                                     \
    }                                                                                  \
    if (err) atomic_store(errp, 1);                                                    \
  }
#define MT_UNARY_SAME_(DT, CT, NAME, ...) MT_UNARY_LOOP_(DT, CT, CT, NAME, __VA_ARGS__)
#define MT_UNARY_BOOL_(DT, CT, NAME, ...) MT_UNARY_LOOP_(DT, CT, mt_bool, NAME, __VA_ARGS__)
#define MT_UNARY_LOOPS(NAME, TYPES, ...) TYPES(MT_UNARY_SAME_, NAME, __VA_ARGS__)
#define MT_UNARY_LOOPS_BOOL(NAME, TYPES, ...) TYPES(MT_UNARY_BOOL_, NAME, __VA_ARGS__)
#define MT_UNARY_KERNEL(NAME, FNS, ERRMSG) \
  static void NAME##_kernel(mt_kernel_ctx* ctx) { mt_unary_run(ctx, FNS, (TF_DataType)0, ERRMSG); }
#define MT_UNARY_OP(NAME, TYPES, ...)                                                    \
  MT_UNARY_LOOPS(NAME, TYPES, __VA_ARGS__)                                               \
  static const mt_unary_fn NAME##_fns[MT_NUM_DTYPES] = {MT_ENTRIES(NAME, TYPES)};        \
  MT_UNARY_KERNEL(NAME, NAME##_fns, NULL)

/* ---- reductions ---- */

/* A reduction of one tensor over a set of axes, collapsed: adjacent dims
 * with the same reduced/kept role merged, size-1 dims dropped. */
typedef struct mt_reduce {
  int out_ndims;
  int64_t out_dims[MT_MAX_DIMS]; /* with keep_dims applied */
  int64_t in_n, out_n;
  int64_t count; /* input elements folded into each output element */
  int ndims;     /* collapsed, >= 1 */
  int64_t dims[MT_MAX_DIMS];
  unsigned char red[MT_MAX_DIMS];
  int64_t ostr[MT_MAX_DIMS]; /* output stride per collapsed dim, 0 if reduced */
} mt_reduce;

/* Axes from an int32/int64 tensor of any rank (negative axes count from the
 * end). Errors (TF_INVALID_ARGUMENT, TensorFlow's wording): "Invalid
 * reduction dimension (3 for input with 3 dimension(s)", "Invalid reduction
 * arguments: Axes contains duplicate dimension: 1". */
int mt_reduce_init(mt_reduce* r, const TF_Tensor* in, const TF_Tensor* axes, int keep_dims,
                   TF_Status* s);
/* 1 when each output element folds one contiguous input run (reduce the
 * innermost dims only): the fast, parallel path. */
static inline int mt_reduce_rows(const mt_reduce* r) {
  return r->red[r->ndims - 1] && (r->ndims == 1 || (r->ndims == 2 && !r->red[0]));
}
/* Output offset of the next input row (general path). */
void mt_reduce_next_row(const mt_reduce* r, int64_t* idx, int64_t* ooff);

/* Per-type reduce function: INIT (accumulator start, type A), COMBINE (new
 * accumulator from `acc` and element `x`), FINAL (the T result from `acc`
 * and the folded count `n`). `scratch` holds out_n accumulators (general
 * path only). */
typedef void (*mt_reduce_fn)(const mt_reduce* r, const void* in, void* out, void* scratch,
                             int64_t begin, int64_t end);
#define MT_REDUCE_LOOP_(DT, CT, NAME, INIT, COMBINE, FINAL)                             \
  static void NAME##_##CT(const mt_reduce* r, const void* inv, void* outv, void* scratch, \
                          int64_t begin, int64_t end) {                                 \
    typedef mt_compute_##CT T;                                                          \
    typedef mt_wide_##CT W;                                                             \
    typedef mt_acc_##CT A;                                                              \
    (void)sizeof(W);                                                                    \
    const CT* xp = inv;                                                                  \
    CT* op = outv;                                                                       \
    const int64_t n = r->count;                                                         \
    (void)n;                                                                            \
    const int64_t inner = r->dims[r->ndims - 1];                                        \
    if (mt_reduce_rows(r)) { /* rows [begin, end) of the output */                      \
      for (int64_t o = begin; o < end; o++) {                                           \
        const CT* xr = xp + o * inner;                                                   \
        A acc = (INIT);                                                                 \
        for (int64_t i = 0; i < inner; i++) {                                           \
          const T x = mt_load_##CT(xr[i]);                                                            \
          acc = (A)(COMBINE);                                                           \
        }                                                                               \
        op[o] = mt_store_##CT((T)(FINAL));                                                             \
      }                                                                                 \
      return;                                                                           \
    }                                                                                   \
    A* ab = scratch;                                                                    \
    for (int64_t o = 0; o < r->out_n; o++) ab[o] = (INIT);                              \
    int64_t idx[MT_MAX_DIMS] = {0}, ooff = 0;                                           \
    const int64_t rows = r->in_n ? r->in_n / inner : 0;                                 \
    for (int64_t row = 0; row < rows; row++) {                                          \
      const CT* xr = xp + row * inner;                                                   \
      if (r->red[r->ndims - 1]) {                                                       \
        A acc = ab[ooff];                                                               \
        for (int64_t i = 0; i < inner; i++) {                                           \
          const T x = mt_load_##CT(xr[i]);                                                            \
          acc = (A)(COMBINE);                                                           \
        }                                                                               \
        ab[ooff] = acc;                                                                 \
      } else {                                                                          \
        A* ar = ab + ooff;                                                              \
        for (int64_t i = 0; i < inner; i++) {                                           \
          const T x = mt_load_##CT(xr[i]);                                                            \
          const A acc = ar[i];                                                          \
          ar[i] = (A)(COMBINE);                                                         \
        }                                                                               \
      }                                                                                 \
      mt_reduce_next_row(r, idx, &ooff);                                                \
    }                                                                                   \
    for (int64_t o = 0; o < r->out_n; o++) {                                            \
      const A acc = ab[o];                                                              \
      op[o] = mt_store_##CT((T)(FINAL));                                                               \
    }                                                                                   \
  }
#define MT_REDUCE_LOOPS(NAME, TYPES, INIT, COMBINE, FINAL) \
  TYPES(MT_REDUCE_LOOP_, NAME, INIT, COMBINE, FINAL)

/* Size of one accumulator (A) per dtype, for the scratch buffer. */
size_t mt_acc_size(TF_DataType dt);

/* Runs a reduction kernel with inputs (input, reduction_indices) and the
 * keep_dims attr. */
void mt_reduce_run(mt_kernel_ctx* ctx, const mt_reduce_fn* fns);
/* Shape function of Sum/Mean/Prod/Max/... (TensorFlow's ReductionShape). */
void mt_reduce_shape(mt_shape_ctx* ctx);

/* ---- shape-function helpers (TensorFlow's InferenceContext wording) ---- */

/* "Shape must be rank 2 but is rank 3"; unknown rank passes. */
int mt_shape_with_rank(mt_shape_ctx* ctx, int idx, int rank);
/* "Shape must be at least rank 2 but is rank 1"; unknown rank passes. */
int mt_shape_with_rank_at_least(mt_shape_ctx* ctx, int idx, int rank);
/* Merges two dims (-1 = unknown) into *out: "Dimensions must be equal, but
 * are 3 and 4". */
int mt_merge_dim(mt_shape_ctx* ctx, int64_t a, int64_t b, int64_t* out);
/* Merges two shapes: "Shapes must be equal rank, but are 2 and 3" or the
 * dimension message. */
int mt_merge_shape(mt_shape_ctx* ctx, const mt_shape* a, const mt_shape* b, mt_shape* out);

/* ---- misc ---- */

/* Converts an int16/int32/int64 tensor's values to int64 (up to cap);
 * returns the count or -1 if the dtype is not an integer index type. */
int64_t mt_tensor_ints(const TF_Tensor* t, int64_t* out, int64_t cap);

/* ---- work sharing ----
 *
 * mt_parallel_for gives each thread one fixed slice. On a machine shared
 * with other processes a thread is often descheduled for a while, and the
 * op then waits for its slice (measured on a busy 2-core machine: the two
 * halves of a conv took 12 and 37 ms). Here each thread instead claims
 * chunks of `grain` items from a shared counter until none is left, so a
 * thread that has a core does the work of one that has not. */
typedef struct mt_shared_loop {
  void (*fn)(int64_t begin, int64_t end, void* arg);
  void* arg;
  int64_t n, grain;
  atomic_llong next;
} mt_shared_loop;

/* Claims the next chunk [*b, *e); 0 when the loop is done. */
static inline int mt_claim_chunk(mt_shared_loop* l, int64_t* b, int64_t* e) {
  const int64_t s = (int64_t)atomic_fetch_add(&l->next, l->grain);
  if (s >= l->n) return 0;
  *b = s;
  *e = l->n - s < l->grain ? l->n : s + l->grain;
  return 1;
}

static inline void mt_shared_loop_worker(int64_t b, int64_t e, void* arg) {
  mt_shared_loop* l = arg;
  (void)b, (void)e;
  int64_t cb, ce;
  while (mt_claim_chunk(l, &cb, &ce)) l->fn(cb, ce, l->arg);
}

/* Workers for a shared loop over n items costing `cost` each: one per intra-op
 * thread (one in all when the loop is small, as mt_parallel_for decides). */
static inline void mt_run_workers(mt_kernel_ctx* ctx, int64_t n, int64_t cost,
                                  void (*worker)(int64_t, int64_t, void*), void* arg) {
  int64_t threads = ctx && ctx->intra_threads > 0 ? ctx->intra_threads : 2;
  if (threads > n) threads = n > 0 ? n : 1;
  const double total = (double)n * (double)(cost > 0 ? cost : 1);
  mt_parallel_for(ctx, threads, (int64_t)(total / (double)threads) + 1, worker, arg);
}

/* fn over [0, n) in chunks of `grain` items (cost: per item), shared out
 * dynamically among the intra-op threads. Chunks may run in any order and
 * concurrently. */
static inline void mt_parallel_for_shared(mt_kernel_ctx* ctx, int64_t n, int64_t grain,
                                          int64_t cost,
                                          void (*fn)(int64_t begin, int64_t end, void* arg),
                                          void* arg) {
  if (n <= 0) return;
  mt_shared_loop l = {fn, arg, n, grain > 0 ? grain : 1, 0};
  atomic_init(&l.next, 0);
  mt_run_workers(ctx, n, cost, mt_shared_loop_worker, &l);
}

#endif
