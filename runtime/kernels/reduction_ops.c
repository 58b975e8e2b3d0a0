/* Reductions over axes (Sum, Mean) and ArgMax. Signatures and CPU dtypes
 * are TensorFlow's (math_ops.cc, reduction_ops_*.cc, argmax_op.cc). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"

/* ---- Sum / Mean ---- */

/* Floats accumulate in double (A); integers wrap through W. Mean of an
 * empty float set is 0/0 = NaN, of an empty integer set 0, and integer
 * means truncate toward zero, all as TensorFlow. */
MT_REDUCE_LOOPS(sum_f, MT_FLOAT_TYPES, 0, acc + x, acc)
MT_REDUCE_LOOPS(sum_i, MT_INT_TYPES, 0, (W)acc + (W)x, acc)
MT_REDUCE_LOOPS(mean_f, MT_FLOAT_TYPES, 0, acc + x, acc / (double)n)
MT_REDUCE_LOOPS(mean_i, MT_INT_TYPES, 0, (W)acc + (W)x, n ? acc / n : 0)
static const mt_reduce_fn sum_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(sum_f, MT_FLOAT_TYPES) MT_ENTRIES(sum_i, MT_INT_TYPES)};
static const mt_reduce_fn mean_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(mean_f, MT_FLOAT_TYPES) MT_ENTRIES(mean_i, MT_INT_TYPES)};

static void sum_kernel(mt_kernel_ctx* ctx) { mt_reduce_run(ctx, sum_fns); }
static void mean_kernel(mt_kernel_ctx* ctx) { mt_reduce_run(ctx, mean_fns); }

/* ---- ArgMax ---- */

/* Index of the first maximum along the axis. NaNs are skipped unless all
 * are NaN (then 0), matching TensorFlow's Eigen argmax on CPU. */
typedef void (*argmax_fn)(const void* in, int64_t outer, int64_t len, int64_t inner,
                          int64_t* out);
#define ARGMAX_LOOP_(DT, CT, NAME, BETTER)                                              \
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
MT_FLOAT_TYPES(ARGMAX_LOOP_, argmax_f, v > best || (best != best && v == v))
MT_INT_TYPES(ARGMAX_LOOP_, argmax_i, v > best)
MT_BOOL_TYPES(ARGMAX_LOOP_, argmax_b, v > best)
static const argmax_fn argmax_fns[MT_NUM_DTYPES] = {
    MT_ENTRIES(argmax_f, MT_FLOAT_TYPES) MT_ENTRIES(argmax_i, MT_INT_TYPES)
        MT_ENTRIES(argmax_b, MT_BOOL_TYPES)};

static void argmax_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_Tensor* dim = ctx->inputs[1];
  char buf[256];
  if (dim->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "dim must be a scalar, but received tensor of shape: %s",
                   mt_dims_str(dim->dims, dim->ndims, buf, sizeof buf));
    return;
  }
  int64_t axis;
  if (mt_tensor_ints(dim, &axis, 1) != 1) {
    mt_kernel_unsupported(ctx, "Tidx", dim->dtype);
    return;
  }
  const int rank = in->ndims;
  if (axis < -rank || axis >= rank) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected dimension in the range [%d, %d), but got %lld", -rank, rank,
                   (long long)axis);
    return;
  }
  if (axis < 0) axis += rank;
  argmax_fn fn = (unsigned)in->dtype < MT_NUM_DTYPES ? argmax_fns[in->dtype] : NULL;
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
  if (!idx) return;
  fn(mt_tensor_data(in), outer, len, inner, idx);
  if (ot == TF_INT64) return;
  void* od = mt_tensor_data(out);
  for (int64_t i = 0; i < n; i++) {
    if (ot == TF_INT32) ((int32_t*)od)[i] = (int32_t)idx[i];
    else if (ot == TF_INT16) ((int16_t*)od)[i] = (int16_t)idx[i];
    else ((uint16_t*)od)[i] = (uint16_t)idx[i];
  }
  free(idx);
}

/* TensorFlow's ArgOpShape. */
static void argmax_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank_at_least(ctx, 0, 1) || !mt_shape_with_rank(ctx, 1, 0)) return;
  const mt_shape* in = &ctx->in[0];
  mt_shape* out = &ctx->out[0];
  if (in->rank < 0) {
    *out = mt_shape_unknown();
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

static const mt_op_spec reduction_specs[] = {
    {.name = "Sum", .inputs = "input: T, reduction_indices: Tidx", .outputs = "output: T",
     .attrs = "keep_dims: bool = false;"
              " T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8,"
              " qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64};"
              " Tidx: {int32, int64} = DT_INT32",
     .shape = mt_reduce_shape, .kernel = sum_kernel},
    {.name = "Mean", .inputs = "input: T, reduction_indices: Tidx", .outputs = "output: T",
     .attrs = "keep_dims: bool = false;"
              " T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8,"
              " qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64};"
              " Tidx: {int32, int64} = DT_INT32",
     .shape = mt_reduce_shape, .kernel = mean_kernel},
    {.name = "ArgMax", .inputs = "input: T, dimension: Tidx", .outputs = "output: output_type",
     .attrs = "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half,"
              " uint32, uint64, qint8, quint8, qint32, qint16, quint16, bool};"
              " Tidx: {int16, int32, int64} = DT_INT32;"
              " output_type: {int16, uint16, int32, int64} = DT_INT64",
     .shape = argmax_shape, .kernel = argmax_kernel},
};

void mt_register_reduction_ops(void) {
  mt_register_ops(reduction_specs, (int)(sizeof reduction_specs / sizeof reduction_specs[0]));
}
