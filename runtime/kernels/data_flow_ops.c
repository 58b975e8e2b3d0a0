/* Data-flow ops: DynamicStitch (math_ops.reduced_shape builds the kept-dims
 * shape of a reduction gradient with it), ParallelDynamicStitch and
 * DynamicPartition (embedding_lookup over a list of params). Signatures,
 * shape functions and error messages are TensorFlow's (data_flow_ops.cc,
 * dynamic_stitch_op.cc, dynamic_partition_op.cc). */
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

/* Every output: [?] + data.shape[rank(partitions):], data's shape checked
 * to start with the partitions' (unknown when their rank is). */
static void dynamic_partition_shape(mt_shape_ctx* ctx) {
  const mt_shape* data = &ctx->in[0];
  const mt_shape* part = &ctx->in[1];
  mt_shape out = mt_shape_unknown();
  if (part->rank < 0) goto done;
  if (data->rank >= 0) {
    if (data->rank < part->rank) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Shape must be at least rank %d but is rank %d", part->rank, data->rank);
      return;
    }
    int64_t unused;
    for (int d = 0; d < part->rank; d++)
      if (!mt_merge_dim(ctx, data->dims[d], part->dims[d], &unused)) return;
    out.rank = data->rank - part->rank + 1;
    out.dims[0] = -1;
    for (int d = part->rank; d < data->rank; d++) out.dims[d - part->rank + 1] = data->dims[d];
  }
done:
  for (int i = 0; i < ctx->noutputs; i++) ctx->out[i] = out;
}

/* "[1,2]": the multi-index of flat element i of `dims` (TensorFlow's
 * SliceDebugString; "" for a scalar). */
static const char* index_str(const int64_t* dims, int nd, int64_t i, char* buf, size_t cap) {
  int64_t idx[MT_MAX_DIMS];
  for (int d = nd - 1; d >= 0; d--) {
    idx[d] = dims[d] ? i % dims[d] : 0;
    i = dims[d] ? i / dims[d] : 0;
  }
  size_t len = 0;
  buf[0] = 0;
  for (int d = 0; d < nd && len < cap; d++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%lld", d ? "," : "[", (long long)idx[d]);
  if (nd && len < cap) snprintf(buf + len, cap - len, "]");
  return buf;
}

/* outputs[p] = the rows data[i] with partitions[i] == p, in order. */
static void dynamic_partition_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor *data = ctx->inputs[0], *part = ctx->inputs[1];
  const int np = ctx->noutputs;
  char a[256], b[256];
  if (!starts_with(data, part)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "data.shape must start with partitions.shape, got data.shape = %s, "
                   "partitions.shape = %s", mt_dims_str(data->dims, data->ndims, a, sizeof a),
                   mt_dims_str(part->dims, part->ndims, b, sizeof b));
    return;
  }
  const int32_t* p = mt_tensor_data(part);
  const int64_t n = mt_tensor_nelems(part);
  int64_t* count = calloc((size_t)np, sizeof *count);
  if (!count) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "Out of memory");
    return;
  }
  for (int64_t i = 0; i < n; i++) {
    if (p[i] < 0 || p[i] >= np) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "partitions%s = %d is not in [0, %d)",
                     index_str(part->dims, part->ndims, i, a, sizeof a), p[i], np);
      free(count);
      return;
    }
    count[p[i]]++;
  }
  int64_t dims[MT_MAX_DIMS];
  const int nd = data->ndims - part->ndims + 1;
  int64_t row = 1;
  for (int d = part->ndims; d < data->ndims; d++) {
    dims[d - part->ndims + 1] = data->dims[d];
    row *= data->dims[d];
  }
  char** dst = calloc((size_t)np, sizeof *dst);
  for (int k = 0; dst && k < np; k++) {
    dims[0] = count[k];
    TF_Tensor* out = mt_ctx_alloc(ctx, k, data->dtype, dims, nd);
    if (!out) break;
    dst[k] = mt_tensor_data(out);
  }
  if (!dst) mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "Out of memory");
  if (dst && TF_GetCode(ctx->status) == TF_OK) {
    const size_t es = TF_DataTypeSize(data->dtype), rb = (size_t)row * es;
    const char* src = mt_tensor_data(data);
    for (int64_t i = 0; i < n; i++) {
      char* to = dst[p[i]];
      const char* from = src + (size_t)i * rb;
      if (data->dtype != TF_STRING) {
        if (rb) memcpy(to, from, rb);
      } else {
        for (int64_t e = 0; e < row; e++) {
          const TF_TString* f = (const TF_TString*)from + e;
          TF_StringCopy((TF_TString*)to + e, TF_StringGetDataPointer(f), TF_StringGetSize(f));
        }
      }
      dst[p[i]] = to + rb;
    }
  }
  free(dst);
  free(count);
}

static const mt_op_spec data_flow_specs[] = {
    {.name = "DynamicStitch", .inputs = "indices: N * int32, data: N * T",
     .outputs = "merged: T", .attrs = "N: int >= 1; T: type", .shape = dynamic_stitch_shape,
     .kernel = dynamic_stitch_kernel},
    /* TensorFlow's may copy rows in any order, so a repeated index may take
     * any of its rows; this one takes the last, as DynamicStitch. */
    {.name = "ParallelDynamicStitch", .inputs = "indices: N * int32, data: N * T",
     .outputs = "merged: T", .attrs = "N: int >= 1; T: type", .shape = dynamic_stitch_shape,
     .kernel = dynamic_stitch_kernel},
    {.name = "DynamicPartition", .inputs = "data: T, partitions: int32",
     .outputs = "outputs: num_partitions * T", .attrs = "num_partitions: int >= 1; T: type",
     .shape = dynamic_partition_shape, .kernel = dynamic_partition_kernel},
};

void mt_register_data_flow_ops(void) {
  mt_register_ops(data_flow_specs, (int)(sizeof data_flow_specs / sizeof data_flow_specs[0]));
}
