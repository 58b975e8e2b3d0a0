/* Counting ops: HistogramFixedWidth (tf.histogram_fixed_width) and DenseBincount
 * (tf.math.bincount). Signatures, shape functions, binning arithmetic and error messages are
 * TensorFlow 2.21's (math_ops.cc, histogram_op.cc, bincount_op.cc). */
#include <stdio.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"

static double load_num(const TF_Tensor* t, int64_t i) {
  const void* p = mt_tensor_data(t);
  switch (t->dtype) {
    case TF_INT32: return ((const int32_t*)p)[i];
    case TF_INT64: return (double)((const int64_t*)p)[i];
    case TF_FLOAT: return ((const float*)p)[i];
    default: return ((const double*)p)[i];
  }
}

static int64_t load_int(const TF_Tensor* t, int64_t i) {
  const void* p = mt_tensor_data(t);
  return t->dtype == TF_INT64 ? ((const int64_t*)p)[i] : ((const int32_t*)p)[i];
}

/* ---- HistogramFixedWidth ---- */

static void histogram_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 1, 1) || !mt_shape_with_rank(ctx, 2, 0)) return;
  int64_t nbins;
  if (mt_shape_input_as_ints(ctx, 2, &nbins, 1) == 1) {
    if (nbins < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Desired nbins must be positive");
      return;
    }
    ctx->out[0] = (mt_shape){.rank = 1, .dims = {nbins}};
    return;
  }
  ctx->out[0] = (mt_shape){.rank = 1, .dims = {-1}};
}

/* The bin of v: ((max(v, lo) - lo) in T, as double, / (hi - lo) * nbins) truncated, at
 * most nbins - 1 (TensorFlow's HistogramFixedWidthFunctor). */
static int64_t bin_of(const TF_Tensor* values, int64_t i, double lo, double step, int32_t nbins) {
  double shifted;
  const void* p = mt_tensor_data(values);
  switch (values->dtype) {
    case TF_FLOAT: {
      const float v = ((const float*)p)[i], l = (float)lo;
      shifted = (double)((v > l ? v : l) - l);
      break;
    }
    case TF_INT32: {
      const int32_t v = ((const int32_t*)p)[i], l = (int32_t)lo;
      shifted = (double)(int32_t)((uint32_t)(v > l ? v : l) - (uint32_t)l);
      break;
    }
    case TF_INT64: {
      const int64_t v = ((const int64_t*)p)[i], l = (int64_t)lo;
      shifted = (double)(int64_t)((uint64_t)(v > l ? v : l) - (uint64_t)l);
      break;
    }
    default: {
      const double v = ((const double*)p)[i];
      shifted = (v > lo ? v : lo) - lo;
    }
  }
  const double scaled = shifted / step * nbins;
  if (scaled != scaled) return -1; /* NaN */
  int64_t b = scaled >= 2147483647.0 ? 2147483647 : (int64_t)scaled;
  return b > nbins - 1 ? nbins - 1 : b;
}

static void histogram_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor *values = ctx->inputs[0], *range = ctx->inputs[1], *nb = ctx->inputs[2];
  if (range->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "value_range should be a vector.");
    return;
  }
  if (range->dims[0] != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "value_range should be a vector of 2 elements.");
    return;
  }
  if (nb->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "nbins should be a scalar.");
    return;
  }
  const int32_t nbins = *(const int32_t*)mt_tensor_data(nb);
  const double lo = load_num(range, 0), hi = load_num(range, 1);
  if (!(lo < hi)) {
    char a[64], b[64];
    if (range->dtype == TF_INT32 || range->dtype == TF_INT64) {
      snprintf(a, sizeof a, "%lld", (long long)load_int(range, 0));
      snprintf(b, sizeof b, "%lld", (long long)load_int(range, 1));
    } else {
      snprintf(a, sizeof a, "%g", lo);
      snprintf(b, sizeof b, "%g", hi);
    }
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "value_range should satisfy value_range[0] < value_range[1], but got '[%s, %s]'",
                   a, b);
    return;
  }
  if (nbins <= 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "nbins should be a positive number, but got '%d'",
                   nbins);
    return;
  }
  const TF_DataType out_type = mt_op_attr_type(ctx->op, "dtype", TF_INT32);
  int64_t dim = nbins;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, out_type, &dim, 1);
  if (!out) return;
  memset(mt_tensor_data(out), 0, (size_t)nbins * TF_DataTypeSize(out_type));
  const double step = hi - lo;
  const int64_t n = mt_tensor_nelems(values);
  for (int64_t i = 0; i < n; i++) {
    const int64_t b = bin_of(values, i, lo, step, nbins);
    if (b < 0) continue; /* a NaN value falls in no bin */
    if (out_type == TF_INT64)
      ((int64_t*)mt_tensor_data(out))[b]++;
    else
      ((int32_t*)mt_tensor_data(out))[b]++;
  }
}

/* ---- DenseBincount ---- */

static void dense_bincount_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[0];
  if (in->rank > 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be at most rank 2 but is rank %d",
                   in->rank);
    return;
  }
  if (!mt_shape_with_rank(ctx, 1, 0)) return;
  int64_t size;
  if (mt_shape_input_as_ints(ctx, 1, &size, 1) != 1) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  if (size < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "size (%lld) must be non-negative",
                   (long long)size);
    return;
  }
  if (in->rank == 1)
    ctx->out[0] = (mt_shape){.rank = 1, .dims = {size}};
  else if (in->rank == 2)
    ctx->out[0] = (mt_shape){.rank = 2, .dims = {in->dims[0], size}};
  else
    ctx->out[0] = mt_shape_unknown();
}

static void add_weight(TF_Tensor* out, int64_t j, const TF_Tensor* w, int64_t i, int binary) {
  void* p = mt_tensor_data(out);
  const int has_w = w && mt_tensor_nelems(w) > 0;
  switch (out->dtype) {
#define ADD_(DT, CT)                                                                      \
  case DT:                                                                                \
    if (binary)                                                                           \
      ((CT*)p)[j] = 1;                                                                    \
    else                                                                                  \
      ((CT*)p)[j] += has_w ? ((const CT*)mt_tensor_data(w))[i] : (CT)1;                   \
    break;
    ADD_(TF_INT32, int32_t)
    ADD_(TF_INT64, int64_t)
    ADD_(TF_FLOAT, float)
    ADD_(TF_DOUBLE, double)
#undef ADD_
    default: break;
  }
}

static void dense_bincount_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor *data = ctx->inputs[0], *size_t_ = ctx->inputs[1], *w = ctx->inputs[2];
  char a[256];
  if (data->ndims > 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be at most rank 2 but is rank %d",
                   data->ndims);
    return;
  }
  if (size_t_->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be rank 0 but is rank %d",
                   size_t_->ndims);
    return;
  }
  int same = w->ndims == data->ndims;
  for (int d = 0; same && d < data->ndims; d++) same = w->dims[d] == data->dims[d];
  if (!same && mt_tensor_nelems(w) != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "`weights` must be the same shape as `arr` or a length-0 `Tensor`, in which "
                   "case it acts as all weights equal to 1. Received %s",
                   mt_dims_str(w->dims, w->ndims, a, sizeof a));
    return;
  }
  const int64_t size = load_int(size_t_, 0);
  if (size < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "size (%lld) must be non-negative",
                   (long long)size);
    return;
  }
  const int binary = mt_op_attr_bool(ctx->op, "binary_output", 0);
  const int64_t n = mt_tensor_nelems(data);
  for (int64_t i = 0; i < n; i++)
    if (load_int(data, i) < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input arr must be non-negative!");
      return;
    }
  const int64_t rows = data->ndims == 2 ? data->dims[0] : 1;
  const int64_t cols = data->ndims == 2 ? data->dims[1] : n;
  int64_t odims[2] = {rows, size};
  const int orank = data->ndims == 2 ? 2 : 1;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, w->dtype, orank == 2 ? odims : &odims[1], orank);
  if (!out) return;
  memset(mt_tensor_data(out), 0, (size_t)mt_tensor_nelems(out) * TF_DataTypeSize(w->dtype));
  for (int64_t r = 0; r < rows; r++)
    for (int64_t c = 0; c < cols; c++) {
      const int64_t v = load_int(data, r * cols + c);
      if (v < size) add_weight(out, r * size + v, w, r * cols + c, binary);
    }
}

static const mt_op_spec histogram_specs[] = {
    {.name = "HistogramFixedWidth", .inputs = "values: T, value_range: T, nbins: int32",
     .outputs = "out: dtype",
     .attrs = "T: {int32, int64, float, double}; dtype: {int32, int64} = DT_INT32",
     .shape = histogram_shape, .kernel = histogram_kernel},
    {.name = "DenseBincount", .inputs = "input: Tidx, size: Tidx, weights: T",
     .outputs = "output: T",
     .attrs = "Tidx: {int32, int64}; T: {int32, int64, float, double}; binary_output: bool = false",
     .shape = dense_bincount_shape, .kernel = dense_bincount_kernel},
};

void mt_register_histogram_ops(void) {
  mt_register_ops(histogram_specs, (int)(sizeof histogram_specs / sizeof histogram_specs[0]));
}
