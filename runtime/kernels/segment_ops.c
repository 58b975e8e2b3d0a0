/* Segment reductions: SegmentSum/Mean/Prod/Max/Min over sorted segment ids and
 * UnsortedSegmentSum/Prod/Max/Min (UnsortedSegmentSum also densifies IndexedSlices and
 * computes the gradient of a gather along an axis). Signatures, shape functions, empty-
 * segment values and error messages are TensorFlow 2.21's (math_ops.cc,
 * segment_reduction_ops_impl.h). */
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/half.h"
#include "runtime/kernels/kernel_util.h"

/* out[oi..oi+n) += in[ii..ii+n) for one dtype. */
typedef void (*seg_add_fn)(void* out, int64_t oi, const void* in, int64_t ii, int64_t n);
#define SEG_ADD_(DT, CT, UNUSED)                                                          \
  static void seg_add_##CT(void* out, int64_t oi, const void* in, int64_t ii, int64_t n) { \
    typedef mt_compute_##CT T;                                                            \
    typedef mt_wide_##CT W;                                                               \
    (void)sizeof(T);                                                                      \
    CT* o = (CT*)out + oi;                                                                \
    const CT* u = (const CT*)in + ii;                                                     \
    for (int64_t i = 0; i < n; i++)                                                       \
      o[i] = mt_store_##CT((T)((W)mt_load_##CT(o[i]) + (W)mt_load_##CT(u[i])));           \
  }
MT_NUMBER_TYPES(SEG_ADD_, 0)
#undef SEG_ADD_
static const seg_add_fn seg_add_fns[MT_NUM_DTYPES] = {MT_ENTRIES(seg_add, MT_NUMBER_TYPES)};

/* ---- row combiners of the other reductions ---- */

enum { SEG_SUM, SEG_PROD, SEG_MAX, SEG_MIN, SEG_NAN = 8 };

/* out[oi..oi+n) = out (op) in[ii..ii+n), op SUM or PROD. */
typedef void (*seg_arith_fn)(void* out, int64_t oi, const void* in, int64_t ii, int64_t n,
                             int mode);
/* out[oi..oi+n) = v (0 or 1), or out / count (count > 0; integer division for ints). */
typedef void (*seg_set_fn)(void* out, int64_t oi, int64_t n, int64_t v, int divide);
#define SEG_ARITH_(DT, CT, UNUSED)                                                          \
  static void seg_arith_##CT(void* out, int64_t oi, const void* in, int64_t ii, int64_t n,   \
                             int mode) {                                                    \
    typedef mt_compute_##CT T;                                                              \
    typedef mt_wide_##CT W;                                                                 \
    CT* o = (CT*)out + oi;                                                                  \
    const CT* u = (const CT*)in + ii;                                                       \
    for (int64_t i = 0; i < n; i++) {                                                       \
      const T a = mt_load_##CT(o[i]), b = mt_load_##CT(u[i]);                               \
      o[i] = mt_store_##CT(mode == SEG_SUM ? (T)((W)a + (W)b) : (T)((W)a * (W)b));          \
    }                                                                                       \
  }                                                                                         \
  static void seg_set_##CT(void* out, int64_t oi, int64_t n, int64_t v, int divide) {       \
    typedef mt_compute_##CT T;                                                              \
    CT* o = (CT*)out + oi;                                                                  \
    for (int64_t i = 0; i < n; i++)                                                         \
      o[i] = mt_store_##CT(divide ? (T)(mt_load_##CT(o[i]) / (T)v) : (T)v);                 \
  }
MT_NUMBER_TYPES(SEG_ARITH_, 0)
#undef SEG_ARITH_
static const seg_arith_fn seg_arith_fns[MT_NUM_DTYPES] = {MT_ENTRIES(seg_arith, MT_NUMBER_TYPES)};
static const seg_set_fn seg_set_fns[MT_NUM_DTYPES] = {MT_ENTRIES(seg_set, MT_NUMBER_TYPES)};

/* out = max/min(out, in) for real types. mode SEG_MAX/SEG_MIN: a NaN in `in` is
 * skipped (the sorted kernels: Eigen's reducer from lowest()/highest(), which keeps out
 * when a comparison is false); mode | SEG_NAN: a NaN in `in` wins and stays (the unsorted
 * kernels). */
#define SEG_EXTREME_(DT, CT, UNUSED)                                                        \
  static void seg_extreme_##CT(void* out, int64_t oi, const void* in, int64_t ii, int64_t n, \
                               int mode) {                                                  \
    typedef mt_compute_##CT T;                                                              \
    CT* o = (CT*)out + oi;                                                                  \
    const CT* u = (const CT*)in + ii;                                                       \
    for (int64_t i = 0; i < n; i++) {                                                       \
      const T a = mt_load_##CT(o[i]), b = mt_load_##CT(u[i]);                               \
      if (((mode & SEG_NAN) && b != b) || ((mode & ~SEG_NAN) == SEG_MAX ? a < b : b < a))     \
        o[i] = u[i];                                     \
    }                                                                                       \
  }
MT_REALNUMBER_TYPES(SEG_EXTREME_, 0)
#undef SEG_EXTREME_
static const seg_arith_fn seg_extreme_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(seg_extreme, MT_REALNUMBER_TYPES)};

/* numeric_limits<T>::lowest() (lowest = 1) or max() into elements [b, b + n) of t: the
 * value of an empty unsorted Max (Min) segment, and the start of every segment's. */
static void seg_fill_extreme_at(TF_Tensor* t, int64_t b, int64_t n, int lowest) {
  void* p = mt_tensor_data(t);
  for (int64_t i = b; i < b + n; i++) {
    switch (t->dtype) {
#define EXT_(DT, CT, LO, HI) \
  case DT: ((CT*)p)[i] = lowest ? (LO) : (HI); break;
      EXT_(TF_FLOAT, float, -FLT_MAX, FLT_MAX)
      EXT_(TF_DOUBLE, double, -DBL_MAX, DBL_MAX)
      EXT_(TF_INT8, int8_t, INT8_MIN, INT8_MAX)
      EXT_(TF_INT16, int16_t, INT16_MIN, INT16_MAX)
      EXT_(TF_INT32, int32_t, INT32_MIN, INT32_MAX)
      EXT_(TF_INT64, int64_t, INT64_MIN, INT64_MAX)
      EXT_(TF_UINT8, uint8_t, 0, UINT8_MAX)
      EXT_(TF_UINT16, uint16_t, 0, UINT16_MAX)
      EXT_(TF_UINT32, uint32_t, 0, UINT32_MAX)
      EXT_(TF_UINT64, uint64_t, 0, UINT64_MAX)
#undef EXT_
      case TF_HALF: ((uint16_t*)p)[i] = lowest ? 0xfbff : 0x7bff; break;
      case TF_BFLOAT16: ((uint16_t*)p)[i] = lowest ? 0xff7f : 0x7f7f; break;
      default: break;
    }
  }
}
static void seg_fill_extreme(TF_Tensor* t, int lowest) {
  seg_fill_extreme_at(t, 0, mt_tensor_nelems(t), lowest);
}

/* TensorFlow's UnsortedSegmentReductionShapeFn: [num_segments] followed by
 * the dims of data after segment_ids' rank. */
static void unsorted_segment_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 2, 0)) return;
  const mt_shape *data = &ctx->in[0], *ids = &ctx->in[1];
  if (ids->rank < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  if (!mt_shape_with_rank_at_least(ctx, 0, ids->rank)) return;
  int64_t unused;
  for (int d = 0; data->rank >= 0 && d < ids->rank; d++)
    if (!mt_merge_dim(ctx, data->dims[d], ids->dims[d], &unused)) return;
  int64_t num = -1, v;
  if (mt_shape_input_as_ints(ctx, 2, &v, 1) == 1) {
    if (v < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Dimension size, given by scalar input 2, must be non-negative but is %lld",
                     (long long)v);
      return;
    }
    num = v;
  }
  if (data->rank < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  mt_shape out = {.rank = 1 + data->rank - ids->rank};
  out.dims[0] = num;
  for (int d = ids->rank; d < data->rank; d++) out.dims[1 + d - ids->rank] = data->dims[d];
  ctx->out[0] = out;
}

/* "[1,2]": the multi-index of flat position i in dims (TensorFlow's
 * SliceDebugString). */
static const char* index_str(const int64_t* dims, int n, int64_t i, char* buf, size_t cap) {
  int64_t idx[MT_MAX_DIMS];
  for (int d = n - 1; d >= 0; d--) {
    idx[d] = dims[d] ? i % dims[d] : 0;
    i = dims[d] ? i / dims[d] : 0;
  }
  return mt_dims_str(idx, n, buf, cap);
}

static int64_t load_index(const TF_Tensor* t, int64_t i) {
  const void* p = mt_tensor_data(t);
  switch (t->dtype) {
    case TF_INT16: return ((const int16_t*)p)[i];
    case TF_INT32: return ((const int32_t*)p)[i];
    default: return ((const int64_t*)p)[i];
  }
}

/* Validates the inputs as TensorFlow's ValidateUnsortedSegmentReduction;
 * sets *rows (num_segments). */
static int unsorted_segment_check(mt_kernel_ctx* ctx, int64_t* rows) {
  const TF_Tensor *data = ctx->inputs[0], *ids = ctx->inputs[1], *num = ctx->inputs[2];
  char a[256], b[256];
  if (num->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "num_segments should be a scalar, not shape %s",
                   mt_dims_str(num->dims, num->ndims, a, sizeof a));
    return 0;
  }
  int starts = ids->ndims <= data->ndims;
  for (int d = 0; starts && d < ids->ndims; d++) starts = ids->dims[d] == data->dims[d];
  if (!starts) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "data.shape = %s does not start with segment_ids.shape = %s",
                   mt_dims_str(data->dims, data->ndims, a, sizeof a),
                   mt_dims_str(ids->dims, ids->ndims, b, sizeof b));
    return 0;
  }
  *rows = load_index(num, 0);
  if (*rows < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input num_segments == %lld must not be negative.",
                   (long long)*rows);
    return 0;
  }
  return 1;
}

/* output[ids[i], ...] += data[i, ...]; negative ids are dropped, ids past
 * num_segments are an error. */
static void unsorted_segment_sum_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor *data = ctx->inputs[0], *ids = ctx->inputs[1];
  const seg_add_fn add = data->dtype < MT_NUM_DTYPES ? seg_add_fns[data->dtype] : NULL;
  if (!add) {
    mt_kernel_unsupported(ctx, "T", data->dtype);
    return;
  }
  int64_t rows;
  if (!unsorted_segment_check(ctx, &rows)) return;
  int64_t odims[MT_MAX_DIMS + 1];
  int orank = 1 + data->ndims - ids->ndims;
  odims[0] = rows;
  int64_t inner = 1;
  for (int d = ids->ndims; d < data->ndims; d++) {
    odims[1 + d - ids->ndims] = data->dims[d];
    inner *= data->dims[d];
  }
  if (orank > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Output has more than %d dims", MT_MAX_DIMS);
    return;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, data->dtype, odims, orank);
  if (!out) return;
  memset(mt_tensor_data(out), 0, (size_t)mt_tensor_nelems(out) * TF_DataTypeSize(data->dtype));
  const int64_t n = mt_tensor_nelems(ids);
  for (int64_t i = 0; i < n; i++) {
    const int64_t j = load_index(ids, i);
    if (j < 0) continue;
    if (j >= rows) {
      char a[256];
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "segment_ids%s = %lld is out of range [0, %lld)",
                     index_str(ids->dims, ids->ndims, i, a, sizeof a), (long long)j,
                     (long long)rows);
      return;
    }
    add(mt_tensor_data(out), j * inner, mt_tensor_data(data), i * inner, inner);
  }
}

/* ---- UnsortedSegmentProd / Max / Min ---- */

static void unsorted_segment_reduce(mt_kernel_ctx* ctx, int mode) {
  const TF_Tensor *data = ctx->inputs[0], *ids = ctx->inputs[1];
  const int dt = data->dtype;
  const seg_arith_fn comb = dt >= MT_NUM_DTYPES ? NULL
                            : mode == SEG_PROD  ? seg_arith_fns[dt]
                                                : seg_extreme_fns[dt];
  if (!comb) {
    mt_kernel_unsupported(ctx, "T", data->dtype);
    return;
  }
  int64_t rows;
  if (!unsorted_segment_check(ctx, &rows)) return;
  int64_t odims[MT_MAX_DIMS + 1];
  const int orank = 1 + data->ndims - ids->ndims;
  if (orank > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Output has more than %d dims", MT_MAX_DIMS);
    return;
  }
  odims[0] = rows;
  int64_t inner = 1;
  for (int d = ids->ndims; d < data->ndims; d++) {
    odims[1 + d - ids->ndims] = data->dims[d];
    inner *= data->dims[d];
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, data->dtype, odims, orank);
  if (!out) return;
  if (mode == SEG_PROD)
    seg_set_fns[dt](mt_tensor_data(out), 0, mt_tensor_nelems(out), 1, 0);
  else
    seg_fill_extreme(out, mode == SEG_MAX);
  const int64_t n = mt_tensor_nelems(ids);
  for (int64_t i = 0; i < n; i++) {
    const int64_t j = load_index(ids, i);
    if (j < 0) continue;
    if (j >= rows) {
      char a[256];
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "segment_ids%s = %lld is out of range [0, %lld)",
                     index_str(ids->dims, ids->ndims, i, a, sizeof a), (long long)j,
                     (long long)rows);
      return;
    }
    comb(mt_tensor_data(out), j * inner, mt_tensor_data(data), i * inner, inner,
         mode == SEG_PROD ? mode : mode | SEG_NAN);
  }
}
static void unsorted_segment_prod_kernel(mt_kernel_ctx* ctx) { unsorted_segment_reduce(ctx, SEG_PROD); }
static void unsorted_segment_max_kernel(mt_kernel_ctx* ctx) { unsorted_segment_reduce(ctx, SEG_MAX); }
static void unsorted_segment_min_kernel(mt_kernel_ctx* ctx) { unsorted_segment_reduce(ctx, SEG_MIN); }

/* ---- SegmentSum / Mean / Prod / Max / Min over sorted ids ---- */

/* TensorFlow's SegmentReductionShapeFn: data of rank >= 1, ids a vector; the output is
 * [unknown] + data's dims after the first (the ids' length is checked at run time). */
static void segment_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank_at_least(ctx, 0, 1) || !mt_shape_with_rank(ctx, 1, 1)) return;
  const mt_shape* data = &ctx->in[0];
  if (data->rank < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  mt_shape out = *data;
  out.dims[0] = -1;
  ctx->out[0] = out;
}

enum { SEG_MEAN = 4 };

static void segment_reduce(mt_kernel_ctx* ctx, int mode) {
  const TF_Tensor *data = ctx->inputs[0], *ids = ctx->inputs[1];
  const int dt = data->dtype;
  const int arith = mode == SEG_SUM || mode == SEG_PROD || mode == SEG_MEAN;
  const seg_arith_fn comb = dt >= MT_NUM_DTYPES ? NULL : arith ? seg_arith_fns[dt] : seg_extreme_fns[dt];
  if (!comb || !seg_set_fns[dt]) {
    mt_kernel_unsupported(ctx, "T", data->dtype);
    return;
  }
  if (ids->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "segment_ids should be a vector.");
    return;
  }
  const int64_t n = ids->dims[0];
  if (data->ndims < 1 || n != data->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "segment_ids should be the same size as dimension 0 of input.");
    return;
  }
  const int64_t rows = n ? load_index(ids, n - 1) + 1 : 0;
  if (rows < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "segment ids must be >= 0");
    return;
  }
  int64_t odims[MT_MAX_DIMS];
  int64_t inner = 1;
  for (int d = 0; d < data->ndims; d++) {
    odims[d] = d ? data->dims[d] : rows;
    if (d) inner *= data->dims[d];
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, data->dtype, odims, data->ndims);
  if (!out) return;
  void* o = mt_tensor_data(out);
  const void* in = mt_tensor_data(data);
  /* Empty segments (gaps in the ids) are 0, or 1 for a product; a max (min) starts from
   * the lowest (highest) value, so a NaN element is skipped, as Eigen's reducer does. */
  seg_set_fns[dt](o, 0, mt_tensor_nelems(out), mode == SEG_PROD ? 1 : 0, 0);
  const size_t esize = TF_DataTypeSize(data->dtype);
  int64_t start = 0;
  while (start < n) {
    const int64_t id = load_index(ids, start);
    int64_t end = start + 1;
    while (end < n && load_index(ids, end) == id) end++;
    if (end < n && load_index(ids, end) < id) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "segment ids are not increasing");
      return;
    }
    if (id < 0 || id >= rows) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Segment id %lld out of range [0, %lld), possibly because 'segment_ids' "
                     "input is not sorted.", (long long)id, (long long)rows);
      return;
    }
    const int cmode = mode == SEG_MEAN ? SEG_SUM : mode;
    int64_t first = start + 1;
    if (arith) { /* the first row of the segment, then the others combined into it */
      memcpy((char*)o + (size_t)(id * inner) * esize, (const char*)in + (size_t)(start * inner) * esize,
             (size_t)inner * esize);
    } else {
      seg_fill_extreme_at(out, id * inner, inner, mode == SEG_MAX);
      first = start;
    }
    for (int64_t r = first; r < end; r++) comb(o, id * inner, in, r * inner, inner, cmode);
    if (mode == SEG_MEAN) seg_set_fns[dt](o, id * inner, inner, end - start, 1);
    start = end;
  }
}
static void segment_sum_kernel(mt_kernel_ctx* ctx) { segment_reduce(ctx, SEG_SUM); }
static void segment_mean_kernel(mt_kernel_ctx* ctx) { segment_reduce(ctx, SEG_MEAN); }
static void segment_prod_kernel(mt_kernel_ctx* ctx) { segment_reduce(ctx, SEG_PROD); }
static void segment_max_kernel(mt_kernel_ctx* ctx) { segment_reduce(ctx, SEG_MAX); }
static void segment_min_kernel(mt_kernel_ctx* ctx) { segment_reduce(ctx, SEG_MIN); }

#define SEG_ALL_T                                                                          \
  "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, " \
  "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}"
#define SEG_REAL_T                                                                         \
  "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "   \
  "uint64}"
#define SORTED(NAME, TYPES, KERNEL)                                                        \
  {.name = NAME, .inputs = "data: T, segment_ids: Tindices", .outputs = "output: T",       \
   .attrs = TYPES "; Tindices: {int32, int64}", .shape = segment_shape, .kernel = KERNEL}
#define UNSORTED(NAME, TYPES, KERNEL)                                                      \
  {.name = NAME, .inputs = "data: T, segment_ids: Tindices, num_segments: Tnumsegments",   \
   .outputs = "output: T",                                                                 \
   .attrs = TYPES "; Tindices: {int32, int64}; Tnumsegments: {int32, int64} = DT_INT32",    \
   .shape = unsorted_segment_shape, .kernel = KERNEL}

static const mt_op_spec segment_specs[] = {
    {.name = "UnsortedSegmentSum", .inputs = "data: T, segment_ids: Tindices, num_segments: Tnumsegments",
     .outputs = "output: T",
     .attrs = "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, "
              "qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}; "
              "Tindices: {int16, int32, int64}; Tnumsegments: {int32, int64} = DT_INT32",
     .shape = unsorted_segment_shape, .kernel = unsorted_segment_sum_kernel},
    UNSORTED("UnsortedSegmentProd", SEG_ALL_T, unsorted_segment_prod_kernel),
    UNSORTED("UnsortedSegmentMax", SEG_REAL_T, unsorted_segment_max_kernel),
    UNSORTED("UnsortedSegmentMin", SEG_REAL_T, unsorted_segment_min_kernel),
    SORTED("SegmentSum", SEG_ALL_T, segment_sum_kernel),
    SORTED("SegmentMean", SEG_ALL_T, segment_mean_kernel),
    SORTED("SegmentProd", SEG_ALL_T, segment_prod_kernel),
    SORTED("SegmentMax", SEG_REAL_T, segment_max_kernel),
    SORTED("SegmentMin", SEG_REAL_T, segment_min_kernel),
};

void mt_register_segment_ops(void) {
  mt_register_ops(segment_specs, (int)(sizeof segment_specs / sizeof segment_specs[0]));
}
