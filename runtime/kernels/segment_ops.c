/* Segment reductions: UnsortedSegmentSum (the op that densifies
 * IndexedSlices and computes the gradient of a gather along an axis).
 * Signature, shape function and error messages are TensorFlow 2.21's
 * (math_ops.cc, segment_reduction_ops_impl.h). */
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

static const mt_op_spec segment_specs[] = {
    {.name = "UnsortedSegmentSum", .inputs = "data: T, segment_ids: Tindices, num_segments: Tnumsegments",
     .outputs = "output: T",
     .attrs = "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, "
              "qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}; "
              "Tindices: {int16, int32, int64}; Tnumsegments: {int32, int64} = DT_INT32",
     .shape = unsorted_segment_shape, .kernel = unsorted_segment_sum_kernel},
};

void mt_register_segment_ops(void) {
  mt_register_ops(segment_specs, (int)(sizeof segment_specs / sizeof segment_specs[0]));
}
