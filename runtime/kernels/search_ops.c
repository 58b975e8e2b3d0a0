/* Binary search ops: LowerBound and UpperBound (tf.searchsorted), row by row over 2-D
 * sorted_inputs [B, N] and values [B, M]. Signatures, shape function and errors are
 * TensorFlow 2.21's (array_ops.cc, searchsorted_op.cc). */
#include <stdint.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"

static void bound_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank_at_least(ctx, 0, 1) || !mt_shape_with_rank_at_least(ctx, 1, 1)) return;
  ctx->out[0] = ctx->in[1];
}

/* First index in row[0..n) whose value is >= v (upper: > v). */
#define BOUND_(DT, CT, UNUSED)                                                               \
  static int64_t bound_##CT(const void* rowv, int64_t n, const void* vv, int upper) {         \
    typedef mt_compute_##CT T;                                                               \
    const CT* row = rowv;                                                                    \
    const T v = mt_load_##CT(*(const CT*)vv);                                                \
    int64_t lo = 0, hi = n;                                                                  \
    while (lo < hi) {                                                                        \
      const int64_t mid = lo + (hi - lo) / 2;                                                \
      const T x = mt_load_##CT(row[mid]);                                                    \
      if (upper ? !(v < x) : x < v)                                                          \
        lo = mid + 1;                                                                        \
      else                                                                                   \
        hi = mid;                                                                            \
    }                                                                                        \
    return lo;                                                                               \
  }
typedef int64_t (*bound_fn)(const void* row, int64_t n, const void* v, int upper);
MT_REALNUMBER_TYPES(BOUND_, 0)
#undef BOUND_
static const bound_fn bound_fns[MT_NUM_DTYPES] = {MT_ENTRIES(bound, MT_REALNUMBER_TYPES)};

static void bound_kernel(mt_kernel_ctx* ctx, int upper) {
  const TF_Tensor *sorted = ctx->inputs[0], *values = ctx->inputs[1];
  const bound_fn fn = sorted->dtype < MT_NUM_DTYPES ? bound_fns[sorted->dtype] : NULL;
  if (!fn) {
    mt_kernel_unsupported(ctx, "T", sorted->dtype);
    return;
  }
  if (sorted->ndims != 2 || values->ndims != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "sorted_inputs and values must be 2-D");
    return;
  }
  if (sorted->dims[0] != values->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Leading dim_size of both tensors must match.");
    return;
  }
  const TF_DataType out_type = mt_op_attr_type(ctx->op, "out_type", TF_INT32);
  if (out_type == TF_INT32 && sorted->dims[1] >= INT32_MAX) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "trailing dim_size must less than INT_MAX for int32 output type, was %lld",
                   (long long)sorted->dims[1]);
    return;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, out_type, values->dims, values->ndims);
  if (!out) return;
  const size_t es = TF_DataTypeSize(sorted->dtype);
  const int64_t rows = values->dims[0], m = values->dims[1], n = sorted->dims[1];
  const char* sp = mt_tensor_data(sorted);
  const char* vp = mt_tensor_data(values);
  for (int64_t r = 0; r < rows; r++)
    for (int64_t j = 0; j < m; j++) {
      const int64_t idx = fn(sp + (size_t)(r * n) * es, n, vp + (size_t)(r * m + j) * es, upper);
      if (out_type == TF_INT64)
        ((int64_t*)mt_tensor_data(out))[r * m + j] = idx;
      else
        ((int32_t*)mt_tensor_data(out))[r * m + j] = (int32_t)idx;
    }
}
static void lower_bound_kernel(mt_kernel_ctx* ctx) { bound_kernel(ctx, 0); }
static void upper_bound_kernel(mt_kernel_ctx* ctx) { bound_kernel(ctx, 1); }

static const mt_op_spec search_specs[] = {
    {.name = "LowerBound", .inputs = "sorted_inputs: T, values: T", .outputs = "output: out_type",
     .attrs = "T: type; out_type: {int32, int64} = DT_INT32", .shape = bound_shape,
     .kernel = lower_bound_kernel},
    {.name = "UpperBound", .inputs = "sorted_inputs: T, values: T", .outputs = "output: out_type",
     .attrs = "T: type; out_type: {int32, int64} = DT_INT32", .shape = bound_shape,
     .kernel = upper_bound_kernel},
};

void mt_register_search_ops(void) {
  mt_register_ops(search_specs, (int)(sizeof search_specs / sizeof search_specs[0]));
}
