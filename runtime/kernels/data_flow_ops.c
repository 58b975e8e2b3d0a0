/* Data-flow ops: DynamicStitch (math_ops.reduced_shape builds the kept-dims
 * shape of a reduction gradient with it). Signature, shape function and
 * error messages are TensorFlow's (data_flow_ops.cc, dynamic_stitch_op.cc). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"

/* TensorFlow's DynamicStitchShapeFunction: [max index + 1 when every
 * indices input is known, else ?] + the merged trailing shape of data. */
static void dynamic_stitch_shape(mt_shape_ctx* ctx) {
  const int n = ctx->ninputs / 2;
  int all_known = 1;
  int64_t max_index = -1;
  mt_shape extra = mt_shape_unknown();
  for (int i = 0; i < n; i++) {
    const mt_shape* ind = &ctx->in[i];
    const mt_shape* data = &ctx->in[n + i];
    if (ind->rank < 0) {
      all_known = 0;
      continue;
    }
    if (data->rank >= 0) {
      if (data->rank < ind->rank) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "Shape must be at least rank %d but is rank %d", ind->rank, data->rank);
        return;
      }
      int64_t unused;
      for (int d = 0; d < ind->rank; d++)
        if (!mt_merge_dim(ctx, data->dims[d], ind->dims[d], &unused)) return;
      mt_shape rest;
      rest.rank = data->rank - ind->rank;
      for (int d = 0; d < rest.rank; d++) rest.dims[d] = data->dims[ind->rank + d];
      if (!mt_merge_shape(ctx, &extra, &rest, &extra)) return;
    }
    const TF_Tensor* v = ctx->in_values ? ctx->in_values[i] : NULL;
    if (!v) {
      all_known = 0;
      continue;
    }
    const int32_t* p = mt_tensor_data(v);
    for (int64_t k = 0; k < mt_tensor_nelems(v); k++)
      if (p[k] > max_index) max_index = p[k];
  }
  mt_shape* out = &ctx->out[0];
  if (extra.rank < 0) {
    *out = mt_shape_unknown();
    return;
  }
  if (extra.rank + 1 > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "DynamicStitch result exceeds %d dims",
                   MT_MAX_DIMS);
    return;
  }
  out->rank = extra.rank + 1;
  out->dims[0] = all_known ? max_index + 1 : -1;
  for (int d = 0; d < extra.rank; d++) out->dims[d + 1] = extra.dims[d];
}

/* data[i].shape[indices[i].ndims:] == data[0].shape[indices[0].ndims:] */
static int same_extra_shape(const TF_Tensor* d0, const TF_Tensor* i0, const TF_Tensor* d,
                            const TF_Tensor* i) {
  const int e0 = d0->ndims - i0->ndims, e = d->ndims - i->ndims;
  if (e0 != e) return 0;
  for (int k = 0; k < e; k++)
    if (d0->dims[i0->ndims + k] != d->dims[i->ndims + k]) return 0;
  return 1;
}

static int starts_with(const TF_Tensor* data, const TF_Tensor* ind) {
  if (data->ndims < ind->ndims) return 0;
  for (int d = 0; d < ind->ndims; d++)
    if (data->dims[d] != ind->dims[d]) return 0;
  return 1;
}

static int check_stitch_args(mt_kernel_ctx* ctx, int n) {
  const TF_Tensor *d0 = ctx->inputs[n], *i0 = ctx->inputs[0];
  for (int k = 0; k < n; k++) {
    const TF_Tensor *ind = ctx->inputs[k], *data = ctx->inputs[n + k];
    char a[256], b[256], c[256], e[256];
    if (!starts_with(data, ind)) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "data[%d].shape = %s does not start with indices[%d].shape = %s", k,
                     mt_dims_str(data->dims, data->ndims, a, sizeof a), k,
                     mt_dims_str(ind->dims, ind->ndims, b, sizeof b));
      return 0;
    }
    if (k > 0 && !same_extra_shape(d0, i0, data, ind)) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Need data[0].shape[%d:] = data[%d].shape[%d:], got data[0].shape = %s, "
                     "data[%d].shape = %s, indices[0].shape = %s, indices[%d].shape = %s",
                     i0->ndims, k, ind->ndims, mt_dims_str(d0->dims, d0->ndims, a, sizeof a), k,
                     mt_dims_str(data->dims, data->ndims, b, sizeof b),
                     mt_dims_str(i0->dims, i0->ndims, c, sizeof c), k,
                     mt_dims_str(ind->dims, ind->ndims, e, sizeof e));
      return 0;
    }
  }
  return 1;
}

/* merged[indices[m][i]] = data[m][i] for m in order, so a later index
 * wins; rows that no index names are zeros (TensorFlow leaves them
 * uninitialized). */
static void dynamic_stitch_kernel(mt_kernel_ctx* ctx) {
  const int n = ctx->ninputs / 2;
  int32_t max_index = -1;
  for (int k = 0; k < n; k++) {
    const int32_t* p = mt_tensor_data(ctx->inputs[k]);
    for (int64_t i = 0; i < mt_tensor_nelems(ctx->inputs[k]); i++)
      if (p[i] > max_index) max_index = p[i];
  }
  if (!check_stitch_args(ctx, n)) return;
  const TF_Tensor *d0 = ctx->inputs[n], *i0 = ctx->inputs[0];
  int64_t dims[MT_MAX_DIMS];
  int nd = 0;
  dims[nd++] = (int64_t)max_index + 1;
  for (int d = i0->ndims; d < d0->ndims && nd < MT_MAX_DIMS; d++) dims[nd++] = d0->dims[d];
  if (d0->ndims - i0->ndims + 1 > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "DynamicStitch result exceeds %d dims",
                   MT_MAX_DIMS);
    return;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, d0->dtype, dims, nd);
  if (!out || dims[0] == 0) return; /* no index: nothing to check or copy */
  const size_t es = TF_DataTypeSize(d0->dtype);
  int64_t slice = 1;
  for (int d = 1; d < nd; d++) slice *= dims[d];
  const size_t slice_bytes = (size_t)slice * es;
  char* base = mt_tensor_data(out);
  const int strings = d0->dtype == TF_STRING;
  if (!strings && slice_bytes) memset(base, 0, (size_t)mt_tensor_nelems(out) * es);
  for (int k = 0; k < n; k++) {
    const int32_t* ind = mt_tensor_data(ctx->inputs[k]);
    const char* src = mt_tensor_data(ctx->inputs[n + k]);
    for (int64_t i = 0; i < mt_tensor_nelems(ctx->inputs[k]); i++) {
      if (ind[i] < 0) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "indices[%lld] is out of range",
                       (long long)i);
        return;
      }
      if (!slice_bytes) continue; /* empty rows: only the indices are checked */
      char* dst = base + (size_t)ind[i] * slice_bytes;
      const char* from = src + (size_t)i * slice_bytes;
      if (!strings) {
        memcpy(dst, from, slice_bytes);
        continue;
      }
      for (int64_t e = 0; e < slice; e++) { /* deep copies: the output owns its strings */
        const TF_TString* f = (const TF_TString*)from + e;
        TF_StringCopy((TF_TString*)dst + e, TF_StringGetDataPointer(f), TF_StringGetSize(f));
      }
    }
  }
}

static const mt_op_spec data_flow_specs[] = {
    {.name = "DynamicStitch", .inputs = "indices: N * int32, data: N * T",
     .outputs = "merged: T", .attrs = "N: int >= 1; T: type", .shape = dynamic_stitch_shape,
     .kernel = dynamic_stitch_kernel},
};

void mt_register_data_flow_ops(void) {
  mt_register_ops(data_flow_specs, (int)(sizeof data_flow_specs / sizeof data_flow_specs[0]));
}
