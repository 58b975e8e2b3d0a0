/* Array ops: ConcatOffset, ConcatV2, Pack, Unpack, Split, SplitV, ParallelConcat.
 * Signatures, shape functions and error messages are TensorFlow's
 * (array_ops.cc and the CPU kernels). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/array/array_util.h"

/* A shape vector as TensorFlow prints tensor values: "[3 5]". */
static const char* np_shape_str(const int64_t* v, int n, char* buf, size_t cap) {
  size_t at = 0;
  at += (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < n && at < cap; i++)
    at += (size_t)snprintf(buf + at, cap - at, i ? " %lld" : "%lld", (long long)v[i]);
  if (at < cap) snprintf(buf + at, cap - at, "]");
  return buf;
}

/* Output i is input i + 1's shape (TensorFlow's ConcatOffset shape fn). */
static void concat_offset_shape(mt_shape_ctx* ctx) {
  for (int i = 1; i < ctx->ninputs; i++) ctx->out[i - 1] = ctx->in[i];
}

/* Offsets of each input of a concatenation along concat_dim: the running
 * sum of the sizes before it in that dim, 0 in the others. */
static void concat_offset_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* cd = ctx->inputs[0];
  char buf[256];
  if (cd->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Concat dim tensor should be a scalar integer, but got shape %s",
                   mt_dims_str(cd->dims, cd->ndims, buf, sizeof buf));
    return;
  }
  for (int i = 1; i < ctx->ninputs; i++) {
    const TF_Tensor* s = ctx->inputs[i];
    if (s->ndims != 1) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "input %d should be a vector, but got shape %s",
                     i, mt_dims_str(s->dims, s->ndims, buf, sizeof buf));
      return;
    }
  }
  const int n = ctx->ninputs - 1;
  const int64_t dims = ctx->inputs[1]->dims[0];
  const int64_t given = *(const int32_t*)mt_tensor_data(cd);
  const int64_t cdim = given < 0 ? given + dims : given;
  if (cdim < 0 || cdim >= dims) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Concat dim is out of range: %lld vs. %lld",
                   (long long)given, (long long)dims);
    return;
  }
  int64_t first[MT_MAX_DIMS], cur[MT_MAX_DIMS], off[MT_MAX_DIMS];
  if (dims > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Concat of rank %lld exceeds %d dims",
                   (long long)dims, MT_MAX_DIMS);
    return;
  }
  mt_tensor_ints(ctx->inputs[1], first, MT_MAX_DIMS);
  int64_t offset = 0;
  for (int i = 0; i < n; i++) {
    const TF_Tensor* s = ctx->inputs[1 + i];
    if (s->dims[0] != dims) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "input %d should contain %lld elements, but got %lld", i, (long long)dims,
                     (long long)s->dims[0]);
      return;
    }
    mt_tensor_ints(s, cur, MT_MAX_DIMS);
    for (int64_t j = 0; j < dims; j++) {
      if (j != cdim && cur[j] != first[j]) {
        char a[256], b[256];
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "All dimensions except %lld must match. Input %d has shape %s and doesn't "
                       "match input 0 with shape %s.",
                       (long long)cdim, i, np_shape_str(cur, (int)dims, a, sizeof a),
                       np_shape_str(first, (int)dims, b, sizeof b));
        return;
      }
      off[j] = j == cdim ? offset : 0;
    }
    offset += cur[cdim];
    TF_Tensor* out = mt_ctx_alloc(ctx, i, s->dtype, &s->dims[0], 1);
    if (!out) return;
    for (int64_t j = 0; j < dims; j++) {
      if (s->dtype == TF_INT64) ((int64_t*)mt_tensor_data(out))[j] = off[j];
      else ((int32_t*)mt_tensor_data(out))[j] = (int32_t)off[j];
    }
  }
}

/* ======================================================================
 * ConcatV2, Pack, Unpack, Split, SplitV
 * ====================================================================== */

/* Dims [from, to) of s as a shape (unknown if s's rank is unknown). */
static mt_shape subshape(const mt_shape* s, int from, int to) {
  if (s->rank < 0) return mt_shape_unknown();
  mt_shape r;
  r.rank = to - from;
  for (int d = from; d < to; d++) r.dims[d - from] = s->dims[d];
  return r;
}

/* TensorFlow's ConcatShapeHelper with the axis as the last input. */
static void concat_shape(mt_shape_ctx* ctx) {
  const int n = ctx->ninputs - 1;
  if (!mt_shape_with_rank(ctx, n, 0)) return;
  /* all inputs have the first known rank, scalars excluded */
  int rank = -1;
  for (int k = 0; k < n && rank < 0; k++) rank = ctx->in[k].rank;
  if (rank == 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Can't concatenate scalars (use tf.stack instead)");
    return;
  }
  for (int k = 0; k < n && rank >= 0; k++)
    if (!mt_shape_with_rank(ctx, k, rank)) return;
  int64_t axis;
  if (!ar_scalar_input(ctx, n, &axis)) {
    if (rank < 0) ctx->out[0] = mt_shape_unknown();
    else ar_unknown_of_rank(&ctx->out[0], rank);
    return;
  }
  const int64_t min_rank = axis < 0 ? -axis : axis + 1;
  if (min_rank > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Shape must be at least rank %lld but is rank %d", (long long)min_rank,
                   ctx->in[n - 1].rank);
    return;
  }
  mt_shape before = mt_shape_unknown(), after = mt_shape_unknown();
  int64_t middle = 0;
  for (int k = n - 1; k >= 0; k--) {
    const mt_shape* s = &ctx->in[k];
    if (!mt_shape_with_rank_at_least(ctx, k, (int)min_rank)) return;
    mt_shape b, a;
    int64_t m = -1;
    if (s->rank >= 0) {
      const int ax = (int)(axis < 0 ? axis + s->rank : axis);
      b = subshape(s, 0, ax);
      m = s->dims[ax];
      a = subshape(s, ax + 1, s->rank);
    } else {
      b = a = mt_shape_unknown();
    }
    if (k == n - 1) {
      before = b;
      after = a;
      middle = m;
      continue;
    }
    if (!ar_merge_shapes(ctx, &b, &before, &before)) return;
    middle = middle < 0 || m < 0 ? -1 : middle + m;
    if (!ar_merge_shapes(ctx, &a, &after, &after)) return;
  }
  mt_shape* out = &ctx->out[0];
  if (before.rank < 0 || after.rank < 0) {
    *out = mt_shape_unknown();
    return;
  }
  out->rank = before.rank + 1 + after.rank;
  for (int d = 0; d < before.rank; d++) out->dims[d] = before.dims[d];
  out->dims[before.rank] = middle;
  for (int d = 0; d < after.rank; d++) out->dims[before.rank + 1 + d] = after.dims[d];
}

static void concat_kernel(mt_kernel_ctx* ctx) {
  const int n = ctx->ninputs - 1;
  const TF_Tensor* at = ctx->inputs[n];
  char a[256], b[256];
  if (!(at->ndims == 0 || (at->ndims == 1 && at->dims[0] == 1))) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "axis tensor should be a scalar integer, but got shape %s",
                   mt_dims_str(at->dims, at->ndims, a, sizeof a));
    return;
  }
  const int64_t concat_dim = ar_first_int(at);
  const TF_Tensor* first = ctx->inputs[0];
  const int nd = first->ndims;
  const int64_t axis = concat_dim < 0 ? concat_dim + nd : concat_dim;
  if (!((0 <= axis && axis < nd) || concat_dim == 0)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "ConcatOp : Expected concatenating dimensions in the range [%d, %d), but got "
                   "%lld",
                   -nd, nd, (long long)concat_dim);
    return;
  }
  int64_t outer = 1, total = 0;
  for (int d = 0; d < axis; d++) outer *= first->dims[d];
  int64_t* chunk = mt_malloc(sizeof(int64_t) * (size_t)n + 1, ctx->status);
  char** parts = mt_malloc(sizeof(char*) * (size_t)n + 1, ctx->status);
  if (!chunk || !parts) goto done;
  int64_t row = 0;
  for (int k = 0; k < n; k++) {
    const TF_Tensor* in = ctx->inputs[k];
    if (in->dtype != first->dtype) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "ConcatOp : input dtypes differ");
      goto done;
    }
    if (in->ndims != nd) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "ConcatOp : Ranks of all input tensors should match: shape[0] = %s vs. "
                     "shape[%d] = %s",
                     mt_dims_str(first->dims, nd, a, sizeof a), k,
                     mt_dims_str(in->dims, in->ndims, b, sizeof b));
      goto done;
    }
    for (int d = 0; d < nd; d++) {
      if (d != axis && in->dims[d] != first->dims[d]) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "ConcatOp : Dimension %d in both shapes must be equal: shape[0] = %s vs. "
                       "shape[%d] = %s",
                       d, mt_dims_str(first->dims, nd, a, sizeof a), k,
                       mt_dims_str(in->dims, in->ndims, b, sizeof b));
        goto done;
      }
    }
    total += nd > 0 ? in->dims[axis] : 1;
    chunk[k] = 1;
    for (int d = (int)axis; d < nd; d++) chunk[k] *= in->dims[d];
    row += chunk[k];
    parts[k] = mt_tensor_data(in);
  }
  int64_t dims[MT_MAX_DIMS];
  memcpy(dims, first->dims, sizeof(int64_t) * (size_t)nd);
  int ond = nd;
  if (nd == 0) {
    ond = 1;
    dims[0] = total;
  } else {
    dims[axis] = total;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, first->dtype, dims, ond);
  if (!out) goto done;
  concat_plan p = {first->dtype, TF_DataTypeSize(first->dtype), n, parts, chunk, row,
                   mt_tensor_data(out), 0};
  ar_concat_run(ctx, &p, outer);
done:
  free(chunk);
  free(parts);
}

/* Axis for Pack/Unpack in [-rank, rank) (GetAxisForPackAndUnpack). */
static int pack_axis(mt_shape_ctx* ctx, int rank, int* axis) {
  int64_t a = mt_op_attr_int(ctx->op, "axis", 0);
  if (a < -rank || a >= rank) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Invalid axis: %lld; must be in [%d,%d)",
                   (long long)a, -rank, rank);
    return 0;
  }
  *axis = (int)(a < 0 ? a + rank : a);
  return 1;
}

static void pack_shape(mt_shape_ctx* ctx) {
  const int n = ctx->ninputs;
  mt_shape cur = ctx->in[n - 1];
  for (int k = n - 2; k >= 0; k--)
    if (!ar_merge_shapes(ctx, &ctx->in[k], &cur, &cur)) return;
  if (cur.rank < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  if (cur.rank + 1 > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Pack result exceeds %d dims", MT_MAX_DIMS);
    return;
  }
  int axis;
  if (!pack_axis(ctx, cur.rank + 1, &axis)) return;
  mt_shape* out = &ctx->out[0];
  out->rank = cur.rank + 1;
  for (int d = 0, k = 0; d < out->rank; d++) out->dims[d] = d == axis ? n : cur.dims[k++];
}

static void pack_kernel(mt_kernel_ctx* ctx) {
  const int n = ctx->ninputs;
  const TF_Tensor* first = ctx->inputs[0];
  const int64_t ax = mt_op_attr_int(ctx->op, "axis", 0);
  const int end = first->ndims + 1;
  const int64_t axis = ax < 0 ? ax + end : ax;
  if (axis < 0 || axis >= end || end > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "axis = %lld not in [%d, %d)",
                   (long long)ax, -end, end);
    return;
  }
  int64_t dims[MT_MAX_DIMS];
  for (int d = 0, k = 0; d < end; d++) dims[d] = d == axis ? n : first->dims[k++];
  if (n == 1) {
    ctx->outputs[0] = mt_tensor_reshape(first, dims, end);
    return;
  }
  int64_t* chunk = mt_malloc(sizeof(int64_t) * (size_t)n, ctx->status);
  char** parts = mt_malloc(sizeof(char*) * (size_t)n, ctx->status);
  if (!chunk || !parts) goto done;
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; d++) outer *= first->dims[d];
  for (int d = (int)axis; d < first->ndims; d++) inner *= first->dims[d];
  for (int k = 0; k < n; k++) {
    const TF_Tensor* in = ctx->inputs[k];
    int same = in->ndims == first->ndims && in->dtype == first->dtype;
    for (int d = 0; same && d < in->ndims; d++) same = in->dims[d] == first->dims[d];
    if (!same) {
      char a[256], b[256];
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Shapes of all inputs must match: values[0].shape = %s != values[%d].shape "
                     "= %s",
                     mt_dims_str(first->dims, first->ndims, a, sizeof a), k,
                     mt_dims_str(in->dims, in->ndims, b, sizeof b));
      goto done;
    }
    chunk[k] = inner;
    parts[k] = mt_tensor_data(in);
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, first->dtype, dims, end);
  if (!out) goto done;
  concat_plan p = {first->dtype, TF_DataTypeSize(first->dtype), n, parts, chunk, inner * n,
                   mt_tensor_data(out), 0};
  ar_concat_run(ctx, &p, outer);
done:
  free(chunk);
  free(parts);
}

static void unpack_shape(mt_shape_ctx* ctx) {
  const mt_shape* s = &ctx->in[0];
  mt_shape out = *s;
  if (s->rank >= 0) {
    int axis;
    if (!pack_axis(ctx, s->rank, &axis)) return;
    if (!ar_dim_with_value(ctx, s->dims[axis], ctx->noutputs)) return;
    out = subshape(s, 0, axis);
    for (int d = axis + 1; d < s->rank; d++) out.dims[out.rank++] = s->dims[d];
  }
  for (int k = 0; k < ctx->noutputs; k++) ctx->out[k] = out;
}

/* Splits input 0 of `ctx` along `axis` into parts of sizes[k]. */
static void split_into(mt_kernel_ctx* ctx, const TF_Tensor* in, int axis, const int64_t* sizes,
                       int n, int drop_axis) {
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; d++) outer *= in->dims[d];
  for (int d = axis + 1; d < in->ndims; d++) inner *= in->dims[d];
  int64_t* chunk = mt_malloc(sizeof(int64_t) * (size_t)n + 1, ctx->status);
  char** parts = mt_malloc(sizeof(char*) * (size_t)n + 1, ctx->status);
  if (!chunk || !parts) goto done;
  for (int k = 0; k < n; k++) {
    int64_t dims[MT_MAX_DIMS];
    int nd = 0;
    for (int d = 0; d < in->ndims; d++) {
      if (d != axis) dims[nd++] = in->dims[d];
      else if (!drop_axis) dims[nd++] = sizes[k];
    }
    TF_Tensor* o = mt_ctx_alloc(ctx, k, in->dtype, dims, nd);
    if (!o) goto done;
    chunk[k] = sizes[k] * inner;
    parts[k] = mt_tensor_data(o);
  }
  int64_t row = in->dims[axis] * inner;
  concat_plan p = {in->dtype, TF_DataTypeSize(in->dtype), n, parts, chunk, row,
                   mt_tensor_data(in), 1};
  ar_concat_run(ctx, &p, outer);
done:
  free(chunk);
  free(parts);
}

static void unpack_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const int num = ctx->noutputs;
  const int64_t ax = mt_op_attr_int(ctx->op, "axis", 0);
  const int64_t axis = ax < 0 ? ax + in->ndims : ax;
  if (axis < 0 || axis >= in->ndims) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "axis = %lld not in [%d, %d)",
                   (long long)ax, -in->ndims, in->ndims);
    return;
  }
  if (in->dims[axis] != num) {
    char a[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input shape axis %lld must equal %d, got shape %s", (long long)axis, num,
                   mt_dims_str(in->dims, in->ndims, a, sizeof a));
    return;
  }
  int64_t* sizes = mt_malloc(sizeof(int64_t) * (size_t)num + 1, ctx->status);
  if (!sizes) return;
  for (int k = 0; k < num; k++) sizes[k] = 1;
  split_into(ctx, in, (int)axis, sizes, num, 1);
  free(sizes);
}

/* ReplaceDim(s, d, v) with TensorFlow's negative d (counts from the end). */
static mt_shape replace_dim(const mt_shape* s, int64_t d, int64_t v) {
  mt_shape r = *s;
  if (r.rank < 0) return r;
  if (d < 0) d += r.rank;
  if (d >= 0 && d < r.rank) r.dims[d] = v;
  return r;
}

static void split_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[1];
  const int n = ctx->noutputs;
  int64_t dim;
  if (!ar_axis_dim(ctx, 0, in->rank, &dim)) return;
  mt_shape out;
  if (dim < 0) {
    if (in->rank >= 0) ar_unknown_of_rank(&out, in->rank);
    else out = mt_shape_unknown();
  } else {
    if (!mt_shape_with_rank_at_least(ctx, 1, (int)dim + 1)) return;
    int64_t size = -1;
    if (in->rank >= 0 && in->dims[dim] >= 0) {
      if (in->dims[dim] % n != 0) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "Dimension size must be evenly divisible by %d but is %lld", n,
                       (long long)in->dims[dim]);
        return;
      }
      size = in->dims[dim] / n;
    }
    out = replace_dim(in, dim, size);
  }
  for (int k = 0; k < n; k++) ctx->out[k] = out;
}

/* Split: the split dim is the first input. */
static void split_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* sd = ctx->inputs[0];
  const TF_Tensor* in = ctx->inputs[1];
  const int n = ctx->noutputs;
  if (sd->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "split_dim must be a scalar but has rank %d",
                   sd->ndims);
    return;
  }
  const int64_t orig = ar_first_int(sd);
  const int64_t dim = orig < 0 ? orig + in->ndims : orig;
  if (dim < 0 || dim >= in->ndims) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "-input rank(-%d) <= split_dim < input rank (%d), but got %lld", in->ndims,
                   in->ndims, (long long)orig);
    return;
  }
  if (in->dims[dim] % n != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Number of ways to split should evenly divide the split dimension, but got "
                   "split_dim %lld (size = %lld) and num_split %d",
                   (long long)dim, (long long)in->dims[dim], n);
    return;
  }
  if (n == 1) {
    mt_ctx_set_shared(ctx, 0, in);
    return;
  }
  int64_t* sizes = mt_malloc(sizeof(int64_t) * (size_t)n, ctx->status);
  if (!sizes) return;
  for (int k = 0; k < n; k++) sizes[k] = in->dims[dim] / n;
  split_into(ctx, in, (int)dim, sizes, n, 0);
  free(sizes);
}

static void splitv_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[0];
  const int n = ctx->noutputs;
  int64_t dim;
  if (!ar_axis_dim(ctx, 2, in->rank, &dim)) return;
  const TF_Tensor* sv = ctx->in_values ? ctx->in_values[1] : NULL;
  if (in->rank < 0) {
    for (int k = 0; k < n; k++) ctx->out[k] = mt_shape_unknown();
    return;
  }
  if (in->rank == 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Can't split scalars");
    return;
  }
  if (!sv) {
    for (int k = 0; k < n; k++) {
      if (dim >= 0) ctx->out[k] = replace_dim(in, dim, -1);
      else ar_unknown_of_rank(&ctx->out[k], in->rank);
    }
    return;
  }
  /* Known sizes with an unknown dim use dim -1, the last one, as
   * TensorFlow does. */
  if (!mt_shape_with_rank_at_least(ctx, 0, (int)dim + 1)) return;
  const int64_t count = mt_tensor_nelems(sv);
  if (count != n) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Length of size_splits should be equal to num_outputs");
    return;
  }
  int64_t* data = mt_malloc(sizeof(int64_t) * (size_t)n, ctx->status);
  if (!data) return;
  mt_tensor_ints(sv, data, n);
  int64_t total = 0;
  int neg = 0;
  for (int k = 0; k < n; k++) {
    if (data[k] == -1) {
      if (neg) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "size_splits can only have one -1");
        goto done;
      }
      neg = 1;
    } else {
      total = (int64_t)((uint64_t)total + (uint64_t)data[k]);
    }
  }
  const int64_t dsize = in->dims[dim < 0 ? in->rank - 1 : dim];
  for (int k = 0; k < n; k++) {
    int64_t size = data[k];
    if (size == -1 && dsize >= 0) size = dsize - total;
    if (size < -1 || (size == -1 && dsize >= 0)) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Split size at index %d must be >= 0. Got: %lld", k, (long long)size);
      goto done;
    }
    ctx->out[k] = replace_dim(in, dim, size);
  }
  if (dsize >= 0 && (neg ? total > dsize : total != dsize)) {
    char buf[512];
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; k < n && len + 24 < sizeof buf; k++)
      len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%lld", k ? "," : "",
                              (long long)data[k]);
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "can't split axis of size %lld into pieces of size [%s]", (long long)dsize,
                   buf);
  }
done:
  free(data);
}

static void splitv_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_Tensor* st = ctx->inputs[1];
  const TF_Tensor* sd = ctx->inputs[2];
  const int n = ctx->noutputs;
  if (mt_tensor_nelems(sd) != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "split_dim_tensor must have exactly one element.");
    return;
  }
  const int64_t orig = ar_first_int(sd);
  const int64_t dim = orig < 0 ? orig + in->ndims : orig;
  if (st->ndims != 1 || mt_tensor_nelems(st) != n) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "size of the split_tensor must be 1-D and have the same elements as outputs "
                   "got %d -D and %lld elements",
                   st->ndims, (long long)mt_tensor_nelems(st));
    return;
  }
  if (dim < 0 || dim >= in->ndims) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "-input rank(-%d) <= split_dim < input rank (%d), but got %lld", in->ndims,
                   in->ndims, (long long)orig);
    return;
  }
  int64_t* sizes = mt_malloc(sizeof(int64_t) * (size_t)n, ctx->status);
  if (!sizes) return;
  if (st->dtype == TF_INT8) {
    for (int k = 0; k < n; k++) sizes[k] = ((const int8_t*)mt_tensor_data(st))[k];
  } else {
    mt_tensor_ints(st, sizes, n);
  }
  const int64_t dsize = in->dims[dim];
  if (n == 1) {
    if (sizes[0] != dsize) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "If there is only one output, it must have the same size as the input. "
                     "Input size: %lld output size: %lld",
                     (long long)dsize, (long long)sizes[0]);
    } else {
      mt_ctx_set_shared(ctx, 0, in);
    }
    goto done;
  }
  int neg = -1;
  int64_t determined = 0;
  for (int k = 0; k < n; k++) {
    if (sizes[k] == -1) {
      if (neg >= 0) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "There can only be one -1 in the input.");
        goto done;
      }
      neg = k;
    } else {
      /* wraps instead of overflowing; sizes beyond the dim fail below */
      determined = (int64_t)((uint64_t)determined + (uint64_t)sizes[k]);
    }
  }
  if (!((neg < 0 && determined == dsize) || (neg >= 0 && determined <= dsize))) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Determined shape must either match input shape along split_dim exactly if "
                   "fully specified, or be less than the size of the input along split_dim if "
                   "not fully specified.  Got: %lld",
                   (long long)determined);
    goto done;
  }
  if (neg >= 0) sizes[neg] = dsize - determined;
  for (int k = 0; k < n; k++) {
    if (sizes[k] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Split size at index %d must be >= 0. Got: %lld", k, (long long)sizes[k]);
      goto done;
    }
  }
  /* The wrapping sum above matched; make sure it did not wrap (sizes that
   * overflow would read out of bounds). */
  int64_t sum = 0;
  for (int k = 0; k < n; k++) {
    if (sizes[k] > dsize - sum) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Determined shape must either match input shape along split_dim exactly if "
                     "fully specified, or be less than the size of the input along split_dim if "
                     "not fully specified.  Got: %lld",
                     (long long)determined);
      goto done;
    }
    sum += sizes[k];
  }
  split_into(ctx, in, (int)dim, sizes, n, 0);
done:
  free(sizes);
}

/* ======================================================================
 * ParallelConcat (tf.parallel_stack): inputs of shape [1, ...] stacked along
 * dim 0 into the `shape` attr, which must be fully defined.
 * ====================================================================== */

static mt_shape shape_attr(const TF_Operation* op) {
  const mt_attr_value* v = mt_op_attr(op, "shape");
  return v && v->kind == MT_ATTR_SHAPE && !v->is_list ? v->v.shape : mt_shape_unknown();
}

static void parallel_concat_shape(mt_shape_ctx* ctx) {
  const mt_shape passed = shape_attr(ctx->op);
  if (!mt_shape_known(&passed)) {
    mt_status_setf(ctx->status, TF_UNIMPLEMENTED, "shape attr must be fully defined.");
    return;
  }
  if (passed.rank < 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be at least rank 1 but is rank 0");
    return;
  }
  mt_shape cur = passed;
  cur.dims[0] = 1;
  for (int i = 0; i < ctx->ninputs; i++) {
    const mt_shape* in = &ctx->in[i];
    if (!mt_shape_known(in)) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "All input shapes must be fully defined.");
      return;
    }
    if (in->rank < 1 || in->dims[0] != 1) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Size of first dimension must be 1.");
      return;
    }
    if (!mt_merge_shape(ctx, in, &cur, &cur)) {
      char m[512];
      snprintf(m, sizeof m, "%s", TF_Message(ctx->status));
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s\n\tFrom merging shape %d with other "
                     "shapes.", m, i);
      return;
    }
  }
  ctx->out[0] = passed;
}

static void parallel_concat_kernel(mt_kernel_ctx* ctx) {
  const mt_shape passed = shape_attr(ctx->op);
  const TF_Tensor* first = ctx->inputs[0];
  const int64_t each = mt_tensor_nelems(first);
  if (passed.rank < 1 || passed.dims[0] != ctx->ninputs ||
      mt_shape_nelems(&passed) != each * ctx->ninputs) {
    char a[256], b[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Inputs of shape %s do not stack into shape %s",
                   mt_dims_str(first->dims, first->ndims, a, sizeof a),
                   mt_shape_str(&passed, b, sizeof b));
    return;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, first->dtype, passed.dims, passed.rank);
  if (!out) return;
  const size_t es = TF_DataTypeSize(first->dtype);
  for (int k = 0; k < ctx->ninputs; k++)
    ar_copy_elems(first->dtype, (char*)mt_tensor_data(out) + (size_t)(k * each) * es,
                  mt_tensor_data(ctx->inputs[k]), each);
}

/* ======================================================================
 * Registration
 * ====================================================================== */

static const mt_op_spec concat_specs[] = {
    {.name = "ConcatOffset", .inputs = "concat_dim: int32, shape: N * shape_type",
     .outputs = "offset: N * shape_type", .attrs = "N: int >= 2; shape_type: " INDEX_T,
     .shape = concat_offset_shape, .kernel = concat_offset_kernel},
    {.name = "ConcatV2", .inputs = "values: N * T, axis: Tidx", .outputs = "output: T",
     .attrs = "N: int >= 2; T: type; Tidx: " INDEX_T, .shape = concat_shape,
     .kernel = concat_kernel},
    {.name = "ParallelConcat", .inputs = "values: N * T", .outputs = "output: T",
     .attrs = "N: int >= 1; T: type; shape: shape", .shape = parallel_concat_shape,
     .kernel = parallel_concat_kernel},
    {.name = "Pack", .inputs = "values: N * T", .outputs = "output: T",
     .attrs = "N: int >= 1; T: type; axis: int = 0", .shape = pack_shape, .kernel = pack_kernel},
    {.name = "Unpack", .inputs = "value: T", .outputs = "output: num * T",
     .attrs = "num: int >= 0; T: type; axis: int = 0", .shape = unpack_shape,
     .kernel = unpack_kernel},
    {.name = "Split", .inputs = "split_dim: int32, value: T", .outputs = "output: num_split * T",
     .attrs = "num_split: int >= 1; T: type", .shape = split_shape, .kernel = split_kernel},
    {.name = "SplitV", .inputs = "value: T, size_splits: Tlen, split_dim: int32",
     .outputs = "output: num_split * T",
     .attrs = "num_split: int >= 1; T: type; Tlen: {int8, int32, int64} = DT_INT64",
     .shape = splitv_shape, .kernel = splitv_kernel},
};

void mt_register_array_concat_ops(void) {
  mt_register_ops(concat_specs, (int)(sizeof concat_specs / sizeof concat_specs[0]));
}
