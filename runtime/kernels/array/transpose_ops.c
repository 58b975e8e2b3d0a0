/* Array ops: Transpose, InvertPermutation, ReverseV2, Roll.
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
 * Roll (manip_ops.cc, roll_op.cc)
 * ====================================================================== */

/* "Shape must be at most rank 1 but is rank 2" (WithRankAtMost). */
static int rank_at_most(mt_shape_ctx* ctx, int idx, int rank) {
  const mt_shape* s = &ctx->in[idx];
  if (s->rank <= rank) return 1;
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be at most rank %d but is rank %d",
                 rank, s->rank);
  return 0;
}

static void roll_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank_at_least(ctx, 0, 1) || !rank_at_most(ctx, 1, 1) ||
      !rank_at_most(ctx, 2, 1))
    return;
  mt_shape unused;
  if (!ar_merge_shapes(ctx, &ctx->in[1], &ctx->in[2], &unused)) return;
  ctx->out[0] = ctx->in[0];
}

typedef struct roll_plan {
  TF_DataType dt;
  size_t es;
  int nd;
  const int64_t* dims;
  int64_t shift[MT_MAX_DIMS]; /* in [0, dims[d]) */
  int64_t str[MT_MAX_DIMS];
  const char* in;
  char* out;
} roll_plan;

/* Output rows [begin, end) (rows = all dims but the last): each reads the
 * rolled source row in two contiguous pieces. */
static void roll_rows(int64_t begin, int64_t end, void* arg) {
  const roll_plan* p = arg;
  const int last = p->nd - 1;
  const int64_t n = p->dims[last], s = p->shift[last];
  for (int64_t row = begin; row < end; row++) {
    int64_t rest = row, src = 0;
    for (int d = last - 1; d >= 0; d--) {
      const int64_t o = rest % p->dims[d];
      rest /= p->dims[d];
      src += ((o - p->shift[d] + p->dims[d]) % p->dims[d]) * p->str[d];
    }
    char* dst = p->out + row * n * (int64_t)p->es;
    /* out[j] = in[(j - s) mod n]: first s from the row's tail */
    ar_copy_elems(p->dt, dst, p->in + (src + n - s) * (int64_t)p->es, s);
    ar_copy_elems(p->dt, dst + s * (int64_t)p->es, p->in + src * (int64_t)p->es, n - s);
  }
}

static void roll_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor *x = ctx->inputs[0], *sh = ctx->inputs[1], *ax = ctx->inputs[2];
  char a[256];
  if (x->ndims < 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "input must be 1-D or higher");
    return;
  }
  if (sh->ndims > 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "shift must be a scalar or a 1-D vector. Found: %s",
                   mt_dims_str(sh->dims, sh->ndims, a, sizeof a));
    return;
  }
  if (ax->ndims > 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "axis must be a scalar or a 1-D vector. Found: %s",
                   mt_dims_str(ax->dims, ax->ndims, a, sizeof a));
    return;
  }
  if (sh->ndims != ax->ndims || (sh->ndims == 1 && sh->dims[0] != ax->dims[0])) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "shift and axis must have the same size");
    return;
  }
  const int64_t k = mt_tensor_nelems(sh);
  int64_t* shifts = mt_malloc(sizeof(int64_t) * (size_t)(2 * k + 1), ctx->status);
  if (!shifts) return;
  int64_t* axes = shifts + k;
  mt_tensor_ints(sh, shifts, k);
  mt_tensor_ints(ax, axes, k);
  roll_plan p = {.dt = x->dtype, .es = TF_DataTypeSize(x->dtype), .nd = x->ndims,
                 .dims = x->dims, .in = mt_tensor_data(x)};
  for (int64_t i = 0; i < k; i++) {
    int64_t axis = axes[i];
    if (axis < 0) axis += x->ndims;
    if (axis < 0 || axis >= x->ndims) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "axis %lld is out of range",
                     (long long)axis);
      free(shifts);
      return;
    }
    /* TensorFlow sums repeated axes' shifts, modulo the dim (in int32) */
    const int32_t ds = x->dims[axis] > 1 ? (int32_t)x->dims[axis] : 1;
    const int32_t sum = (int32_t)p.shift[axis] + (int32_t)shifts[i];
    p.shift[axis] = (sum % ds + ds) % ds;
  }
  free(shifts);
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, x->dtype, x->dims, x->ndims);
  if (!out || mt_tensor_nelems(x) == 0) return;
  p.out = mt_tensor_data(out);
  ar_row_major_strides(x->dims, x->ndims, p.str);
  const int64_t n = x->dims[x->ndims - 1];
  mt_parallel_for(ctx, mt_tensor_nelems(x) / n, n + 8, roll_rows, &p);
}

/* ======================================================================
 * Registration
 * ====================================================================== */

static const mt_op_spec transpose_specs[] = {
    {.name = "Transpose", .inputs = "x: T, perm: Tperm", .outputs = "y: T",
     .attrs = "T: type; Tperm: " INDEX_T, .shape = transpose_shape, .kernel = transpose_kernel},
    {.name = "InvertPermutation", .inputs = "x: T", .outputs = "y: T", .attrs = "T: " INDEX_T,
     .shape = invert_permutation_shape, .kernel = invert_permutation_kernel},
    {.name = "Roll", .inputs = "input: T, shift: Tshift, axis: Taxis", .outputs = "output: T",
     .attrs = "T: type; Tshift: {int32, int64}; Taxis: {int32, int64}", .shape = roll_shape,
     .kernel = roll_kernel},
    {.name = "ReverseV2", .inputs = "tensor: T, axis: Tidx", .outputs = "output: T",
     .attrs = "Tidx: " INDEX_T "; T: {uint8, int8, uint16, int16, int32, uint32, int64, uint64, "
              "bool, bfloat16, half, float, double, complex64, complex128, string}",
     .shape = reverse_shape, .kernel = reverse_kernel},
};

void mt_register_array_transpose_ops(void) {
  mt_register_ops(transpose_specs, (int)(sizeof transpose_specs / sizeof transpose_specs[0]));
}
