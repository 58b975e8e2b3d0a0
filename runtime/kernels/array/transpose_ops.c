/* Array ops: Transpose, InvertPermutation, ReverseV2.
 * Signatures, shape functions and error messages are TensorFlow's
 * (array_ops.cc and the CPU kernels). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/array/array_util.h"

/* ======================================================================
 * Transpose
 * ====================================================================== */

static void transpose_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[0];
  const mt_shape* ps = &ctx->in[1];
  int64_t perm[MT_MAX_DIMS];
  const int np = mt_shape_input_as_ints(ctx, 1, perm, MT_MAX_DIMS);
  const int64_t perm_elems = ps->rank == 1 ? ps->dims[0] : ps->rank == 0 ? 1 : -1;
  if (in->rank < 0 && perm_elems < 0 && np < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  const int64_t rank = in->rank >= 0 ? in->rank : perm_elems >= 0 ? perm_elems : np;
  if (in->rank < 0 && rank < 2) {
    ctx->out[0] = *in; /* a 1-element perm is a scalar's or a vector's */
    return;
  }
  if (rank > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Transpose of rank %lld exceeds %d dims",
                   (long long)rank, MT_MAX_DIMS);
    return;
  }
  if (!mt_shape_with_rank(ctx, 0, (int)rank) || !mt_shape_with_rank(ctx, 1, 1)) return;
  if (!ar_dim_with_value(ctx, perm_elems, rank)) return;
  mt_shape* out = &ctx->out[0];
  out->rank = (int)rank;
  for (int i = 0; i < rank; i++) {
    if (np < 0) {
      out->dims[i] = -1;
      continue;
    }
    const int64_t p = perm[i];
    if (p >= rank || p < -rank) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "perm dim %lld is out of range of input rank %lld", (long long)p,
                     (long long)rank);
      return;
    }
    out->dims[i] = in->rank < 0 ? -1 : in->dims[p < 0 ? p + rank : p];
  }
}

static void transpose_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_Tensor* pt = ctx->inputs[1];
  char buf[256];
  if (pt->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "perm must be rank 1, got shape %s",
                   mt_dims_str(pt->dims, pt->ndims, buf, sizeof buf));
    return;
  }
  const int nd = in->ndims;
  if (pt->dims[0] != nd) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "transpose expects a vector of size %d. But input(1) is a vector of size %lld",
                   nd, (long long)pt->dims[0]);
    return;
  }
  int64_t perm[MT_MAX_DIMS], raw[MT_MAX_DIMS];
  mt_tensor_ints(pt, raw, MT_MAX_DIMS);
  unsigned char seen[MT_MAX_DIMS] = {0};
  for (int i = 0; i < nd; i++) {
    int64_t d = raw[i] < 0 ? raw[i] + nd : raw[i];
    if (d < 0 || d >= nd) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%lld is out of range [0 .. %d)",
                     (long long)d, nd);
      return;
    }
    seen[d] = 1;
    perm[i] = d;
  }
  for (int i = 0; i < nd; i++) {
    if (!seen[i]) {
      size_t len = 0;
      buf[0] = '\0';
      for (int k = 0; k < nd && len + 24 < sizeof buf; k++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%lld", k ? "," : "",
                                (long long)raw[k]);
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%d is missing from {%s}.", i, buf);
      return;
    }
  }
  int identity = 1;
  for (int i = 0; i < nd; i++) identity &= perm[i] == i;
  if (identity) {
    mt_ctx_set_shared(ctx, 0, in);
    return;
  }
  int64_t str[MT_MAX_DIMS], ostr[MT_MAX_DIMS], odims[MT_MAX_DIMS];
  ar_row_major_strides(in->dims, nd, str);
  for (int i = 0; i < nd; i++) {
    odims[i] = in->dims[perm[i]];
    ostr[i] = str[perm[i]];
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, odims, nd);
  if (!out) return;
  gather_plan p;
  ar_gather_init(&p, in->dtype, mt_tensor_data(in), mt_tensor_data(out), nd, odims, ostr, 0);
  ar_gather_run(ctx, &p);
}

/* ======================================================================
 * InvertPermutation, ConcatOffset (helpers of the Transpose and ConcatV2
 * gradients)
 * ====================================================================== */

static void invert_permutation_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 1)) return;
  ctx->out[0] = ctx->in[0];
}

static void invert_permutation_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  if (in->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "invert_permutation expects a 1D vector.");
    return;
  }
  const int64_t n = in->dims[0];
  if (n > INT32_MAX) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "permutation of nonnegative int32s must have <= int32 max elements");
    return;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, in->dims, 1);
  if (!out) return;
  const int wide = in->dtype == TF_INT64;
  const void* src = mt_tensor_data(in);
  void* dst = mt_tensor_data(out);
  for (int64_t i = 0; i < n; i++) {
    if (wide) ((int64_t*)dst)[i] = -1;
    else ((int32_t*)dst)[i] = -1;
  }
  for (int64_t i = 0; i < n; i++) {
    const int64_t d = wide ? ((const int64_t*)src)[i] : ((const int32_t*)src)[i];
    if (d < 0 || d >= n) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%lld is not between 0 and %lld",
                     (long long)d, (long long)n);
      return;
    }
    const int64_t seen = wide ? ((int64_t*)dst)[d] : ((int32_t*)dst)[d];
    if (seen != -1) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%lld is duplicated in the input.",
                     (long long)d);
      return;
    }
    if (wide) ((int64_t*)dst)[d] = i;
    else ((int32_t*)dst)[d] = (int32_t)i;
  }
}


/* Checks ReverseV2's axes against `rank` into mask; 0 + status if bad. */
static int reverse_axes(const int64_t* ax, int n, int rank, unsigned char* mask, TF_Status* s) {
  memset(mask, 0, MT_MAX_DIMS);
  for (int i = 0; i < n; i++) {
    const int64_t c = ax[i] < 0 ? ax[i] + rank : ax[i];
    if (c < 0 || c >= rank) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "'axis'[%d] = %lld is out of valid range [0, %d", i,
                     (long long)ax[i], rank - 1);
      return 0;
    }
    if (mask[c]) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "axis %lld specified more than once.", (long long)c);
      return 0;
    }
    mask[c] = 1;
  }
  return 1;
}

static void reverse_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[0];
  if (!mt_shape_with_rank(ctx, 1, 1)) return;
  if (in->rank > 8) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "reverse does not work on tensors with more than 8 dimensions");
    return;
  }
  int64_t ax[MT_MAX_DIMS];
  const int n = mt_shape_input_as_ints(ctx, 1, ax, MT_MAX_DIMS);
  unsigned char mask[MT_MAX_DIMS];
  if (n >= 0 && in->rank >= 0) {
    if (n > in->rank && in->rank < MT_MAX_DIMS) { /* a duplicate or out of range for sure */
      int64_t all[MT_MAX_DIMS + 1];
      const int m = n <= MT_MAX_DIMS ? n : MT_MAX_DIMS;
      memcpy(all, ax, sizeof(int64_t) * (size_t)m);
      if (!reverse_axes(all, m, in->rank, mask, ctx->status)) return;
    } else if (!reverse_axes(ax, n, in->rank, mask, ctx->status)) {
      return;
    }
  }
  ctx->out[0] = *in;
}

static void reverse_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_Tensor* at = ctx->inputs[1];
  if (in->ndims == 0 || mt_tensor_nelems(in) == 0) {
    mt_ctx_set_shared(ctx, 0, in);
    return;
  }
  if (at->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "'dims' must be 1-dimension, not %d",
                   at->ndims);
    return;
  }
  const int64_t n = at->dims[0];
  int64_t ax[MT_MAX_DIMS + 1];
  unsigned char mask[MT_MAX_DIMS];
  /* more axes than dims means a duplicate: the first MT_MAX_DIMS+1 show it */
  const int m = (int)(n <= MT_MAX_DIMS + 1 ? n : MT_MAX_DIMS + 1);
  int64_t* all = mt_malloc(sizeof(int64_t) * (size_t)(n + 1), ctx->status);
  if (!all) return;
  mt_tensor_ints(at, all, n);
  memcpy(ax, all, sizeof(int64_t) * (size_t)m);
  free(all);
  if (!reverse_axes(ax, m, in->ndims, mask, ctx->status)) return;
  if (in->ndims > 8) {
    mt_status_setf(ctx->status, TF_UNIMPLEMENTED,
                   "reverse is not implemented for tensors of rank > 8.");
    return;
  }
  int64_t str[MT_MAX_DIMS], base = 0;
  ar_row_major_strides(in->dims, in->ndims, str);
  for (int d = 0; d < in->ndims; d++) {
    if (!mask[d]) continue;
    base += (in->dims[d] - 1) * str[d];
    str[d] = -str[d];
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, in->dims, in->ndims);
  if (!out) return;
  gather_plan p;
  ar_gather_init(&p, in->dtype, mt_tensor_data(in), mt_tensor_data(out), in->ndims, in->dims, str,
                 base);
  ar_gather_run(ctx, &p);
}

/* ======================================================================
 * Registration
 * ====================================================================== */

static const mt_op_spec transpose_specs[] = {
    {.name = "Transpose", .inputs = "x: T, perm: Tperm", .outputs = "y: T",
     .attrs = "T: type; Tperm: " INDEX_T, .shape = transpose_shape, .kernel = transpose_kernel},
    {.name = "InvertPermutation", .inputs = "x: T", .outputs = "y: T", .attrs = "T: " INDEX_T,
     .shape = invert_permutation_shape, .kernel = invert_permutation_kernel},
    {.name = "ReverseV2", .inputs = "tensor: T, axis: Tidx", .outputs = "output: T",
     .attrs = "Tidx: " INDEX_T "; T: {uint8, int8, uint16, int16, int32, uint32, int64, uint64, "
              "bool, bfloat16, half, float, double, complex64, complex128, string}",
     .shape = reverse_shape, .kernel = reverse_kernel},
};

void mt_register_array_transpose_ops(void) {
  mt_register_ops(transpose_specs, (int)(sizeof transpose_specs / sizeof transpose_specs[0]));
}
