/* Math ops: elementwise arithmetic (Add, AddV2, Sub, Mul, RealDiv, Div,
 * Neg), Cast and MatMul. Signatures, attrs and CPU dtypes are
 * TensorFlow's (math_ops.cc / cwise_op_*.cc / cast_op.cc / matmul_op.cc). */
#include <cblas.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"

/* ---- elementwise binary ---- */

/* Integer arithmetic goes through W so that overflow wraps (as in
 * TensorFlow) instead of being undefined behaviour. */
MT_BINARY_OP(add, MT_REAL_TYPES, (T)((W)x + (W)y))
MT_BINARY_OP(sub, MT_REAL_TYPES, (T)((W)x - (W)y))
MT_BINARY_OP(mul, MT_REAL_TYPES, (T)((W)x * (W)y))
MT_BINARY_OP(realdiv, MT_FLOAT_TYPES, x / y)

/* Div: true division for floats, C (truncating) division for integers,
 * failing on a zero divisor like TensorFlow's safe_div. INT_MIN / -1 wraps. */
MT_BINARY_LOOPS(div_f, MT_FLOAT_TYPES, x / y)
MT_BINARY_LOOPS(div_s, MT_SINT_TYPES,
                y == 0 ? (err = 1, (T)0) : y == -1 ? (T)((W)0 - (W)x) : (T)(x / y))
MT_BINARY_LOOPS(div_u, MT_UINT_TYPES, y == 0 ? (err = 1, (T)0) : (T)(x / y))
static const mt_binary_fn div_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(div_f, MT_FLOAT_TYPES) MT_ENTRIES(div_s, MT_SINT_TYPES)
        MT_ENTRIES(div_u, MT_UINT_TYPES)};
MT_BINARY_KERNEL(div, div_fns, "Integer division by zero")

/* Add on strings concatenates (TensorFlow registers it for Add, not AddV2). */
static void add_string(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_Tensor* y = ctx->inputs[1];
  mt_bcast b;
  if (!mt_bcast_init(&b, x->dims, x->ndims, y->dims, y->ndims, ctx->status)) return;
  TF_Tensor* z = mt_ctx_alloc(ctx, 0, TF_STRING, b.out_dims, b.out_ndims);
  if (!z || b.n == 0) return;
  const TF_TString* xs = mt_tensor_data(x);
  const TF_TString* ys = mt_tensor_data(y);
  TF_TString* zs = mt_tensor_data(z);
  const int64_t inner = b.dims[b.ndims - 1];
  const int xin = b.xstr[b.ndims - 1] != 0, yin = b.ystr[b.ndims - 1] != 0;
  mt_bcast_pos p;
  mt_bcast_seek(&b, &p, 0);
  for (int64_t i = 0; i < b.n; i++) {
    const TF_TString* a = xs + p.xrow + (xin ? p.col : 0);
    const TF_TString* c = ys + p.yrow + (yin ? p.col : 0);
    const size_t la = TF_StringGetSize(a), lc = TF_StringGetSize(c);
    char* buf = mt_malloc(la + lc + 1, ctx->status);
    if (!buf) return;
    memcpy(buf, TF_StringGetDataPointer(a), la);
    memcpy(buf + la, TF_StringGetDataPointer(c), lc);
    TF_StringCopy(&zs[i], buf, la + lc);
    free(buf);
    if (++p.col == inner) mt_bcast_next_row(&b, &p);
  }
}

static void add_any_kernel(mt_kernel_ctx* ctx) {
  if (ctx->inputs[0]->dtype == TF_STRING && ctx->inputs[1]->dtype == TF_STRING)
    add_string(ctx);
  else
    add_kernel(ctx);
}

/* ---- elementwise unary ---- */

/* Integers negate through W: -INT_MIN wraps to INT_MIN as in TensorFlow. */
MT_UNARY_LOOPS(neg_f, MT_FLOAT_TYPES, -x)
MT_UNARY_LOOPS(neg_s, MT_SINT_TYPES, (T)((W)0 - (W)x))
static const mt_unary_fn neg_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(neg_f, MT_FLOAT_TYPES) MT_ENTRIES(neg_s, MT_SINT_TYPES)};
MT_UNARY_KERNEL(neg, neg_fns, NULL)

/* ---- Cast ---- */

/* Float -> integer conversions as x86 (and so TensorFlow on CPU) does them:
 * truncation toward zero; NaN and out-of-range give the minimum value of a
 * 32/64-bit integer; narrower integers wrap from the 32-bit result. Plain C
 * would be undefined behaviour here. */
static inline int32_t f2i32(double v) {
  return (v != v || v >= 2147483648.0 || v <= -2147483649.0) ? INT32_MIN : (int32_t)v;
}
static inline int64_t f2i64(double v) {
  return (v != v || v >= 9223372036854775808.0 || v < -9223372036854775808.0) ? INT64_MIN
                                                                               : (int64_t)v;
}
static inline uint64_t f2u64(double v) {
  if (v >= 9223372036854775808.0 && v < 18446744073709551616.0) return (uint64_t)v;
  return (uint64_t)f2i64(v);
}
#define FLOAT_OR(v, F, T) _Generic((v), float: (T)F(v), double: (T)F(v), default: (T)(v))
#define CVT_float(v) ((float)(v))
#define CVT_double(v) ((double)(v))
#define CVT_mt_bool(v) ((v) != 0)
#define CVT_int8_t(v) FLOAT_OR(v, f2i32, int8_t)
#define CVT_int16_t(v) FLOAT_OR(v, f2i32, int16_t)
#define CVT_int32_t(v) FLOAT_OR(v, f2i32, int32_t)
#define CVT_int64_t(v) FLOAT_OR(v, f2i64, int64_t)
#define CVT_uint8_t(v) FLOAT_OR(v, f2i32, uint8_t)
#define CVT_uint16_t(v) FLOAT_OR(v, f2i32, uint16_t)
#define CVT_uint32_t(v) FLOAT_OR(v, f2i64, uint32_t)
#define CVT_uint64_t(v) FLOAT_OR(v, f2u64, uint64_t)

/* The destination list is spelled out: a list macro cannot expand inside
 * its own expansion, and the source side uses MT_POD_TYPES. */
#define CAST_DST_TYPES(X, S)                                                            \
  X(TF_FLOAT, float, S) X(TF_DOUBLE, double, S) X(TF_INT8, int8_t, S)                   \
  X(TF_INT16, int16_t, S) X(TF_INT32, int32_t, S) X(TF_INT64, int64_t, S)               \
  X(TF_UINT8, uint8_t, S) X(TF_UINT16, uint16_t, S) X(TF_UINT32, uint32_t, S)           \
  X(TF_UINT64, uint64_t, S) X(TF_BOOL, mt_bool, S)

typedef void (*cast_fn)(const void* in, void* out, int64_t begin, int64_t end);
#define CAST_FN_(DDT, DCT, SCT)                                                         \
  static void cast_##SCT##_##DCT(const void* in, void* out, int64_t begin, int64_t end) { \
    const SCT* x = in;                                                                  \
    DCT* y = out;                                                                       \
    for (int64_t i = begin; i < end; i++) y[i] = CVT_##DCT(x[i]);                       \
  }
#define CAST_SRC_(SDT, SCT, unused) CAST_DST_TYPES(CAST_FN_, SCT)
MT_POD_TYPES(CAST_SRC_, 0)
#define CAST_ROW_(SDT, SCT, unused) CAST_DST_TYPES(CAST_ENTRY2_, (SDT, SCT))
/* Entries need both the source enum and the source C type. */
#define CAST_ENTRY2_(DDT, DCT, S) CAST_ENTRY3_(DDT, DCT, CAST_UNPACK_ S)
#define CAST_UNPACK_(a, b) a, b
#define CAST_ENTRY3_(...) CAST_ENTRY4_(__VA_ARGS__)
#define CAST_ENTRY4_(DDT, DCT, SDT, SCT) [SDT][DDT] = cast_##SCT##_##DCT,
static const cast_fn cast_table[MT_NUM_DTYPES][MT_NUM_DTYPES] = {MT_POD_TYPES(CAST_ROW_, 0)};

typedef struct cast_task {
  cast_fn fn;
  const void* in;
  void* out;
} cast_task;

static void cast_task_run(int64_t begin, int64_t end, void* arg) {
  cast_task* t = arg;
  t->fn(t->in, t->out, begin, end);
}

static void cast_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_DataType dst = mt_op_attr_type(ctx->op, "DstT", x->dtype);
  if (dst == x->dtype) { /* TensorFlow forwards the input unchanged */
    mt_ctx_set_shared(ctx, 0, x);
    return;
  }
  cast_fn fn = (unsigned)x->dtype < MT_NUM_DTYPES && (unsigned)dst < MT_NUM_DTYPES
                   ? cast_table[x->dtype][dst]
                   : NULL;
  if (!fn) {
    char a[32], b[32];
    mt_status_setf(ctx->status, TF_UNIMPLEMENTED, "Cast %s to %s is not supported",
                   mt_dt_enum_name(x->dtype, a, sizeof a) + 3,
                   mt_dt_enum_name(dst, b, sizeof b) + 3);
    return;
  }
  TF_Tensor* y = mt_ctx_alloc(ctx, 0, dst, x->dims, x->ndims);
  const int64_t n = mt_tensor_nelems(x);
  if (!y || n <= 0) return;
  cast_task t = {fn, mt_tensor_data(x), mt_tensor_data(y)};
  mt_parallel_for(ctx, n, 1, cast_task_run, &t);
}

static void cast_shape(mt_shape_ctx* ctx) { ctx->out[0] = ctx->in[0]; }

/* ---- MatMul ---- */

static void matmul_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 2) || !mt_shape_with_rank(ctx, 1, 2)) return;
  const mt_shape* a = &ctx->in[0];
  const mt_shape* b = &ctx->in[1];
  const int ta = mt_op_attr_bool(ctx->op, "transpose_a", 0);
  const int tb = mt_op_attr_bool(ctx->op, "transpose_b", 0);
  const int64_t m = a->rank < 0 ? -1 : a->dims[ta ? 1 : 0];
  const int64_t ka = a->rank < 0 ? -1 : a->dims[ta ? 0 : 1];
  const int64_t kb = b->rank < 0 ? -1 : b->dims[tb ? 1 : 0];
  const int64_t n = b->rank < 0 ? -1 : b->dims[tb ? 0 : 1];
  int64_t k;
  if (!mt_merge_dim(ctx, ka, kb, &k)) return;
  ctx->out[0].rank = 2;
  ctx->out[0].dims[0] = m;
  ctx->out[0].dims[1] = n;
}

/* Integer products by a plain i-k-j loop (cache-friendly on row-major B);
 * arithmetic wraps through W. */
#define MATMUL_INT_(DT, CT, unused)                                                     \
  static void matmul_##CT(const CT* a, const CT* b, CT* c, int64_t m, int64_t n,      \
                          int64_t k, int ta, int tb, int64_t lda, int64_t ldb) {      \
    typedef mt_wide_##CT W;                                                             \
    memset(c, 0, (size_t)(m * n) * sizeof(CT));                                         \
    for (int64_t i = 0; i < m; i++)                                                     \
      for (int64_t p = 0; p < k; p++) {                                                 \
        const W av = (W)(ta ? a[p * lda + i] : a[i * lda + p]);                         \
        CT* cr = c + i * n;                                                             \
        for (int64_t j = 0; j < n; j++)                                                 \
          cr[j] = (CT)((W)cr[j] + av * (W)(tb ? b[j * ldb + p] : b[p * ldb + j]));      \
      }                                                                                 \
  }
MATMUL_INT_(TF_INT32, int32_t, 0)
MATMUL_INT_(TF_INT64, int64_t, 0)

static void matmul_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* a = ctx->inputs[0];
  const TF_Tensor* b = ctx->inputs[1];
  char sa[256], sb[256];
  for (int i = 0; i < 2; i++) {
    const TF_Tensor* t = ctx->inputs[i];
    if (t->ndims != 2) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "In[%d] is not a matrix. Instead it has shape %s", i,
                     mt_dims_str(t->dims, t->ndims, sa, sizeof sa));
      return;
    }
  }
  const int ta = mt_op_attr_bool(ctx->op, "transpose_a", 0);
  const int tb = mt_op_attr_bool(ctx->op, "transpose_b", 0);
  const int64_t m = a->dims[ta ? 1 : 0], k = a->dims[ta ? 0 : 1];
  const int64_t kb = b->dims[tb ? 1 : 0], n = b->dims[tb ? 0 : 1];
  if (k != kb) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Matrix size-incompatible: In[0]: %s, In[1]: %s",
                   mt_dims_str(a->dims, 2, sa, sizeof sa), mt_dims_str(b->dims, 2, sb, sizeof sb));
    return;
  }
  const TF_DataType dt = a->dtype;
  if (dt != TF_FLOAT && dt != TF_DOUBLE && dt != TF_INT32 && dt != TF_INT64) {
    mt_kernel_unsupported(ctx, "T", dt);
    return;
  }
  const int64_t dims[2] = {m, n};
  TF_Tensor* c = mt_ctx_alloc(ctx, 0, dt, dims, 2);
  if (!c || m == 0 || n == 0) return;
  const int64_t lda = a->dims[1], ldb = b->dims[1];
  if (dt == TF_INT32) {
    matmul_int32_t(mt_tensor_data(a), mt_tensor_data(b), mt_tensor_data(c), m, n, k, ta, tb, lda, ldb);
    return;
  }
  if (dt == TF_INT64) {
    matmul_int64_t(mt_tensor_data(a), mt_tensor_data(b), mt_tensor_data(c), m, n, k, ta, tb, lda, ldb);
    return;
  }
  if (k == 0) { /* BLAS may leave C untouched when k == 0 */
    memset(mt_tensor_data(c), 0, (size_t)(m * n) * (dt == TF_FLOAT ? 4 : 8));
    return;
  }
  if (m > INT_MAX || n > INT_MAX || k > INT_MAX || lda > INT_MAX || ldb > INT_MAX) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "MatMul dimensions exceed 2^31-1");
    return;
  }
  const enum CBLAS_TRANSPOSE tra = ta ? CblasTrans : CblasNoTrans;
  const enum CBLAS_TRANSPOSE trb = tb ? CblasTrans : CblasNoTrans;
  if (dt == TF_FLOAT)
    scipy_cblas_sgemm(CblasRowMajor, tra, trb, (int)m, (int)n, (int)k, 1.0f, mt_tensor_data(a),
                      (int)lda, mt_tensor_data(b), (int)ldb, 0.0f, mt_tensor_data(c), (int)n);
  else
    scipy_cblas_dgemm(CblasRowMajor, tra, trb, (int)m, (int)n, (int)k, 1.0, mt_tensor_data(a),
                      (int)lda, mt_tensor_data(b), (int)ldb, 0.0, mt_tensor_data(c), (int)n);
}

/* ---- registrations ---- */

static const mt_op_spec math_specs[] = {
    {.name = "Add", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {bfloat16, half, float, double, uint8, int8, int16, int32, int64, complex64,"
              " complex128, string}",
     .shape = mt_binary_shape, .kernel = add_any_kernel},
    {.name = "AddV2", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {bfloat16, half, float, double, uint8, uint16, uint32, uint64, int8, int16,"
              " int32, int64, complex64, complex128}",
     .shape = mt_binary_shape, .kernel = add_kernel, .flags = MT_OP_COMMUTATIVE | MT_OP_AGGREGATE},
    {.name = "Sub", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, int64,"
              " complex64, complex128, uint32, uint64}",
     .shape = mt_binary_shape, .kernel = sub_kernel},
    {.name = "Mul", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32,"
              " uint64, int64, complex64, complex128}",
     .shape = mt_binary_shape, .kernel = mul_kernel, .flags = MT_OP_COMMUTATIVE},
    {.name = "RealDiv", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32,"
              " uint64, int64, complex64, complex128}",
     .shape = mt_binary_shape, .kernel = realdiv_kernel},
    {.name = "Div", .inputs = "x: T, y: T", .outputs = "z: T",
     .attrs = "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32,"
              " uint64, int64, complex64, complex128}",
     .shape = mt_binary_shape, .kernel = div_kernel},
    {.name = "Neg", .inputs = "x: T", .outputs = "y: T",
     .attrs = "T: {bfloat16, half, float, double, int8, int16, int32, int64, complex64,"
              " complex128}",
     .shape = mt_unchanged_shape, .kernel = neg_kernel},
    {.name = "Cast", .inputs = "x: SrcT", .outputs = "y: DstT",
     .attrs = "SrcT: type; DstT: type; Truncate: bool = false",
     .shape = cast_shape, .kernel = cast_kernel},
    {.name = "MatMul", .inputs = "a: T, b: T", .outputs = "product: T",
     .attrs = "transpose_a: bool = false; transpose_b: bool = false;"
              " T: {bfloat16, half, float, double, int32, int64, uint8, uint16, uint32, uint64,"
              " complex64, complex128}; grad_a: bool = false; grad_b: bool = false",
     .shape = matmul_shape, .kernel = matmul_kernel},
};

void mt_register_math_ops(void) {
  mt_register_ops(math_specs, (int)(sizeof math_specs / sizeof math_specs[0]));
}
