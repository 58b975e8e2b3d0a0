/* Array ops: Tile, BroadcastTo, BroadcastArgs, Fill, ZerosLike, OnesLike, Range.
 * Signatures, shape functions and error messages are TensorFlow's
 * (array_ops.cc and the CPU kernels). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/array/array_util.h"
#include "runtime/kernels/half.h"
#include "runtime/kernels/list_ops.h"
#include "runtime/kernels/summarize.h"

/* ======================================================================
 * Tile, BroadcastTo, BroadcastArgs, ReverseV2 (strided gathers)
 * ====================================================================== */

static void tile_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[0];
  mt_shape mult;
  if (!ar_shape_from_shape_tensor(ctx, 1, &mult)) return;
  if (in->rank >= 0) {
    if (mult.rank >= 0 && mult.rank != in->rank) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be rank %d but is rank %d",
                     in->rank, mult.rank);
      return;
    }
    const int64_t len = ctx->in[1].rank == 1 ? ctx->in[1].dims[0] : -1;
    if (len >= 0 && len != in->rank) {
      char a[64], b[64];
      mt_shape v;
      v.rank = 1;
      v.dims[0] = in->rank;
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Dimension 0 in both shapes must be equal, but are %lld and %d. Shapes are "
                     "%s and %s.",
                     (long long)len, in->rank, mt_shape_str(&ctx->in[1], a, sizeof a),
                     mt_shape_str(&v, b, sizeof b));
      return;
    }
    if (mult.rank < 0) ar_unknown_of_rank(&mult, in->rank);
  }
  if (mult.rank < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  if (!mt_shape_with_rank(ctx, 0, mult.rank)) return;
  mt_shape* out = &ctx->out[0];
  out->rank = mult.rank;
  for (int d = 0; d < mult.rank; d++) {
    const int64_t x = in->rank < 0 ? -1 : in->dims[d];
    if (!ar_multiply_dims(ctx, x, mult.dims[d], &out->dims[d])) return;
  }
}

static void tile_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_Tensor* mt = ctx->inputs[1];
  const int nd = in->ndims;
  if (mt->ndims != 1 || mt->dims[0] != nd) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected multiples argument to be a vector of length %d but got length %lld",
                   nd, (long long)(mt->ndims == 1 ? mt->dims[0] : mt_tensor_nelems(mt)));
    return;
  }
  int64_t mult[MT_MAX_DIMS], odims[MT_MAX_DIMS];
  mt_tensor_ints(mt, mult, MT_MAX_DIMS);
  for (int d = 0; d < nd; d++) {
    if (mult[d] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Expected multiples[%d] >= 0, but got %lld",
                     d, (long long)mult[d]);
      return;
    }
    if (mult[d] > 0 && in->dims[d] > INT64_MAX / mult[d]) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Encountered overflow when multiplying %lld with %lld",
                     (long long)in->dims[d], (long long)mult[d]);
      return;
    }
    odims[d] = in->dims[d] * mult[d];
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, odims, nd);
  if (!out) return;
  /* Output [m0*d0, m1*d1, ...] is [m0, d0, m1, d1, ...] reading the input
   * with stride 0 along each m. */
  int64_t str[MT_MAX_DIMS], gd[GATHER_MAX_DIMS], gs[GATHER_MAX_DIMS];
  ar_row_major_strides(in->dims, nd, str);
  for (int d = 0; d < nd; d++) {
    gd[2 * d] = mult[d];
    gs[2 * d] = 0;
    gd[2 * d + 1] = in->dims[d];
    gs[2 * d + 1] = str[d];
  }
  gather_plan p;
  ar_gather_init(&p, in->dtype, mt_tensor_data(in), mt_tensor_data(out), 2 * nd, gd, gs, 0);
  ar_gather_run(ctx, &p);
}

static void broadcast_to_shape(mt_shape_ctx* ctx) {
  mt_shape out;
  if (!ar_shape_from_shape_tensor(ctx, 1, &out)) return;
  const mt_shape* in = &ctx->in[0];
  if (out.rank < 0 || in->rank < 0) {
    ctx->out[0] = out;
    return;
  }
  if (in->rank > out.rank) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be at most rank %d but is rank %d",
                   out.rank, in->rank);
    return;
  }
  for (int i = 0; i < in->rank; i++) {
    const int64_t x = in->dims[in->rank - 1 - i];
    int64_t* o = &out.dims[out.rank - 1 - i];
    if (x > 1 && !mt_merge_dim(ctx, x, *o, o)) return;
  }
  ctx->out[0] = out;
}

static void broadcast_to_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  int64_t odims[MT_MAX_DIMS];
  int ond;
  if (!ar_kernel_shape_from_tensor(ctx, ctx->inputs[1], "shape", odims, &ond)) return;
  int same = ond == in->ndims;
  for (int d = 0; same && d < ond; d++) same = odims[d] == in->dims[d];
  if (same) {
    mt_ctx_set_shared(ctx, 0, in);
    return;
  }
  if (in->ndims > ond) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Rank of input (%d) must be no greater than rank of output shape (%d).",
                   in->ndims, ond);
    return;
  }
  if (mt_num_elements(odims, ond) == 0) {
    mt_ctx_alloc(ctx, 0, in->dtype, odims, ond);
    return;
  }
  char a[256], b[256];
  int64_t str[MT_MAX_DIMS], gs[MT_MAX_DIMS];
  ar_row_major_strides(in->dims, in->ndims, str);
  const int lead = ond - in->ndims;
  for (int d = 0; d < ond; d++) {
    const int64_t x = d < lead ? 1 : in->dims[d - lead];
    if (x != odims[d] && x != 1) {
      /* a valid broadcast of both that is not the requested shape */
      const int valid = odims[d] == 1;
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     valid ? "Unable to broadcast tensor of shape %s to tensor of shape %s"
                           : "Incompatible shapes: %s vs. %s",
                     mt_dims_str(in->dims, in->ndims, a, sizeof a),
                     mt_dims_str(odims, ond, b, sizeof b));
      return;
    }
    gs[d] = d < lead || x == 1 ? 0 : str[d - lead];
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, odims, ond);
  if (!out) return;
  gather_plan p;
  ar_gather_init(&p, in->dtype, mt_tensor_data(in), mt_tensor_data(out), ond, odims, gs, 0);
  ar_gather_run(ctx, &p);
}

static void broadcast_args_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 1) || !mt_shape_with_rank(ctx, 1, 1)) return;
  const int64_t x = ctx->in[0].rank == 1 ? ctx->in[0].dims[0] : -1;
  const int64_t y = ctx->in[1].rank == 1 ? ctx->in[1].dims[0] : -1;
  ctx->out[0].rank = 1;
  ctx->out[0].dims[0] = x < 0 || y < 0 ? -1 : x > y ? x : y;
}

static void broadcast_args_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* s0 = ctx->inputs[0];
  const TF_Tensor* s1 = ctx->inputs[1];
  if (s0->ndims != 1 || s1->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "In[0] and In[1] must be vectors.");
    return;
  }
  const int64_t n0 = s0->dims[0], n1 = s1->dims[0];
  const int64_t n = n0 > n1 ? n0 : n1;
  int64_t* a = mt_malloc(sizeof(int64_t) * (size_t)(n0 + 1), ctx->status);
  int64_t* b = mt_malloc(sizeof(int64_t) * (size_t)(n1 + 1), ctx->status);
  int64_t* r = mt_malloc(sizeof(int64_t) * (size_t)(n + 1), ctx->status);
  if (!a || !b || !r) goto done;
  mt_tensor_ints(s0, a, n0);
  mt_tensor_ints(s1, b, n1);
  for (int64_t i = 0; i < n; i++) {
    const int64_t x = i < n - n0 ? 1 : a[i - (n - n0)];
    const int64_t y = i < n - n1 ? 1 : b[i - (n - n1)];
    if (x == y || y == 1) {
      r[i] = x;
    } else if (x == 1) {
      r[i] = y;
    } else {
      char as[512], bs[512];
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Incompatible shapes: %s vs. %s",
                     mt_dims_str(a, (int)(n0 < MT_MAX_DIMS ? n0 : MT_MAX_DIMS), as, sizeof as),
                     mt_dims_str(b, (int)(n1 < MT_MAX_DIMS ? n1 : MT_MAX_DIMS), bs, sizeof bs));
      goto done;
    }
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, s0->dtype, &n, 1);
  if (!out) goto done;
  for (int64_t i = 0; i < n; i++) {
    if (s0->dtype == TF_INT32) ((int32_t*)mt_tensor_data(out))[i] = (int32_t)r[i];
    else ((int64_t*)mt_tensor_data(out))[i] = r[i];
  }
done:
  free(a);
  free(b);
  free(r);
}


/* ======================================================================
 * Fill, ZerosLike, OnesLike
 * ====================================================================== */

static void fill_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 1) || !mt_shape_with_rank(ctx, 1, 0)) return;
  int64_t v[MT_MAX_DIMS];
  const int n = mt_shape_input_as_ints(ctx, 0, v, MT_MAX_DIMS);
  for (int i = 0; i < n && i < MT_MAX_DIMS; i++) {
    if (v[i] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Fill dimensions must be >= 0");
      return;
    }
  }
  mt_shape out;
  if (!ar_shape_from_shape_tensor(ctx, 0, &out)) return;
  ctx->out[0] = out;
}

static void fill_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* dt = ctx->inputs[0];
  const TF_Tensor* val = ctx->inputs[1];
  char buf[256];
  if (dt->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "dims must be a vector, got shape %s",
                   mt_dims_str(dt->dims, dt->ndims, buf, sizeof buf));
    return;
  }
  if (!(val->ndims == 0 || (val->ndims == 1 && val->dims[0] == 1))) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "value must be a scalar, got shape %s",
                   mt_dims_str(val->dims, val->ndims, buf, sizeof buf));
    return;
  }
  int64_t dims[MT_MAX_DIMS];
  int nd;
  if (!ar_kernel_shape_from_tensor(ctx, dt, "dims", dims, &nd)) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, val->dtype, dims, nd);
  if (!out) return;
  ar_fill_elems(val->dtype, mt_tensor_data(out), mt_tensor_data(val), mt_tensor_nelems(out));
}

static void zeros_like_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  if (x->dtype == TF_VARIANT && mt_tlist_zeros_like(ctx)) return; /* gradients of lists */
  ctx->outputs[0] = mt_tensor_zeros(x->dtype, x->dims, x->ndims, ctx->status);
}

/* The element 1 of dt into buf (16 bytes); 0 if dt has no one. */
static int one_of(TF_DataType dt, void* buf) {
  memset(buf, 0, 16);
  switch (dt) {
    case TF_FLOAT: case TF_COMPLEX64: *(float*)buf = 1.0f; return 1;
    case TF_DOUBLE: case TF_COMPLEX128: *(double*)buf = 1.0; return 1;
    case TF_HALF: *(mt_half*)buf = mt_float_to_half(1.0f); return 1;
    case TF_BFLOAT16: *(mt_bfloat16*)buf = mt_float_to_bfloat16(1.0f); return 1;
    case TF_INT8: case TF_UINT8: case TF_BOOL: *(uint8_t*)buf = 1; return 1;
    case TF_INT16: case TF_UINT16: *(uint16_t*)buf = 1; return 1;
    case TF_INT32: case TF_UINT32: *(uint32_t*)buf = 1; return 1;
    case TF_INT64: case TF_UINT64: *(uint64_t*)buf = 1; return 1;
    default: return 0;
  }
}

static void ones_like_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  _Alignas(16) unsigned char one[16];
  if (!one_of(x->dtype, one)) {
    mt_kernel_unsupported(ctx, "T", x->dtype);
    return;
  }
  TF_Tensor* out = mt_ctx_forward(ctx, 0, 0, x->dtype, x->dims, x->ndims);
  if (!out) return;
  ar_fill_elems(x->dtype, mt_tensor_data(out), one, mt_tensor_nelems(out));
}

/* ======================================================================
 * Range
 * ====================================================================== */

/* Range's scalars, by class: signed, unsigned or floating. */
typedef struct range_args {
  TF_DataType dt;
  int cls; /* 's', 'u', 'f' */
  int64_t s[3];
  uint64_t u[3];
  double f[3];
} range_args;

/* A floating value rounded to dt, as that type's arithmetic would store it. */
static double round_to(TF_DataType dt, double x) {
  switch (dt) {
    case TF_FLOAT: return (float)x;
    case TF_HALF: return mt_half_to_float(mt_float_to_half((float)x));
    case TF_BFLOAT16: return mt_bfloat16_to_float(mt_float_to_bfloat16((float)x));
    default: return x;
  }
}

static int range_read(const TF_Tensor* t, int k, range_args* a) {
  const void* p = mt_tensor_data(t);
  a->dt = t->dtype;
  switch (t->dtype) {
    case TF_INT8: a->cls = 's'; a->s[k] = *(const int8_t*)p; return 1;
    case TF_INT16: a->cls = 's'; a->s[k] = *(const int16_t*)p; return 1;
    case TF_INT32: a->cls = 's'; a->s[k] = *(const int32_t*)p; return 1;
    case TF_INT64: a->cls = 's'; a->s[k] = *(const int64_t*)p; return 1;
    case TF_UINT8: a->cls = 'u'; a->u[k] = *(const uint8_t*)p; return 1;
    case TF_UINT16: a->cls = 'u'; a->u[k] = *(const uint16_t*)p; return 1;
    case TF_UINT32: a->cls = 'u'; a->u[k] = *(const uint32_t*)p; return 1;
    case TF_UINT64: a->cls = 'u'; a->u[k] = *(const uint64_t*)p; return 1;
    case TF_FLOAT: a->cls = 'f'; a->f[k] = *(const float*)p; return 1;
    case TF_DOUBLE: a->cls = 'f'; a->f[k] = *(const double*)p; return 1;
    case TF_HALF: a->cls = 'f'; a->f[k] = mt_half_to_float(*(const mt_half*)p); return 1;
    case TF_BFLOAT16:
      a->cls = 'f';
      a->f[k] = mt_bfloat16_to_float(*(const mt_bfloat16*)p);
      return 1;
    default: return 0;
  }
}

static const char* range_fmt(const range_args* a, int k, char* buf, size_t cap) {
  if (a->cls == 's') snprintf(buf, cap, "%lld", (long long)a->s[k]);
  else if (a->cls == 'u') snprintf(buf, cap, "%llu", (unsigned long long)a->u[k]);
  else if (a->dt == TF_DOUBLE) mt_fmt_double(a->f[k], buf, cap);
  else mt_fmt_float((float)a->f[k], buf, cap);
  return buf;
}

/* sign of start - limit and of delta: -1, 0, 1 (NaN compares as 0). */
static int range_cmp(const range_args* a, int x, int y) {
  switch (a->cls) {
    case 's': return (a->s[x] > a->s[y]) - (a->s[x] < a->s[y]);
    case 'u': return (a->u[x] > a->u[y]) - (a->u[x] < a->u[y]);
    default: return (a->f[x] > a->f[y]) - (a->f[x] < a->f[y]);
  }
}

static int range_delta_sign(const range_args* a) {
  switch (a->cls) {
    case 's': return (a->s[2] > 0) - (a->s[2] < 0);
    case 'u': return a->u[2] > 0;
    default: return (a->f[2] > 0) - (a->f[2] < 0);
  }
}

/* Checks the arguments in the shape function's order (kernel = 0) or the
 * kernel's (delta first), then the element count; 0 + status on error. */
static int range_size(const range_args* a, int kernel, int64_t* size, TF_Status* s) {
  char b0[64], b1[64], b2[64];
  const int c = range_cmp(a, 0, 1), ds = range_delta_sign(a);
  const int zero = a->cls == 'f' ? a->f[2] == 0 : ds == 0;
  if (kernel && zero) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Requires delta != 0: %s", range_fmt(a, 2, b2, 64));
    return 0;
  }
  if (c > 0 && ds > 0) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Requires start <= limit when delta > 0: %s/%s",
                   range_fmt(a, 0, b0, 64), range_fmt(a, 1, b1, 64));
    return 0;
  }
  if (c < 0 && ds < 0) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Requires start >= limit when delta < 0: %s/%s",
                   range_fmt(a, 0, b0, 64), range_fmt(a, 1, b1, 64));
    return 0;
  }
  if (zero) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Requires delta != 0");
    return 0;
  }
  uint64_t diff, ad;
  if (a->cls == 'f') {
    const double q = round_to(a->dt, round_to(a->dt, a->f[1] - a->f[0]) / a->f[2]);
    const double n = ceil(fabs(q));
    if (!(n < 9223372036854775807.0)) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "Requires ((limit - start) / delta) <= %lld",
                     (long long)INT64_MAX);
      return 0;
    }
    *size = (int64_t)n;
    return 1;
  }
  if (a->cls == 's') {
    diff = a->s[0] <= a->s[1] ? (uint64_t)a->s[1] - (uint64_t)a->s[0]
                              : (uint64_t)a->s[0] - (uint64_t)a->s[1];
    ad = a->s[2] < 0 ? 0 - (uint64_t)a->s[2] : (uint64_t)a->s[2];
  } else {
    diff = a->u[0] <= a->u[1] ? a->u[1] - a->u[0] : a->u[0] - a->u[1];
    ad = a->u[2];
  }
  const uint64_t n = diff / ad + (diff % ad != 0);
  if (n > (uint64_t)INT64_MAX) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Requires ((limit - start) / delta) <= %lld",
                   (long long)INT64_MAX);
    return 0;
  }
  *size = (int64_t)n;
  return 1;
}

static void range_shape(mt_shape_ctx* ctx) {
  static const char* names[3] = {"start", "limit", "delta"};
  for (int k = 0; k < 3; k++) {
    if (ctx->in[k].rank > 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Shape must be rank 0 but is rank %d\n\t for '%s'", ctx->in[k].rank,
                     names[k]);
      return;
    }
  }
  ctx->out[0].rank = 1;
  ctx->out[0].dims[0] = -1;
  range_args a;
  for (int k = 0; k < 3; k++) {
    const TF_Tensor* v = ctx->in_values ? ctx->in_values[k] : NULL;
    if (!v || mt_tensor_nelems(v) != 1 || !range_read(v, k, &a)) return;
  }
  if (a.dt == TF_HALF) { /* TensorFlow's RangeSize has no half case */
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Unsupported dtype%d", (int)a.dt);
    return;
  }
  range_size(&a, 0, &ctx->out[0].dims[0], ctx->status);
}

static void range_kernel(mt_kernel_ctx* ctx) {
  static const char* names[3] = {"start", "limit", "delta"};
  range_args a;
  for (int k = 0; k < 3; k++) {
    const TF_Tensor* t = ctx->inputs[k];
    if (!(t->ndims == 0 || (t->ndims == 1 && t->dims[0] == 1))) {
      char buf[256];
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s must be a scalar, not shape %s",
                     names[k], mt_dims_str(t->dims, t->ndims, buf, sizeof buf));
      return;
    }
    /* TensorFlow's CPU kernels: floating types, int32 and int64 only */
    const TF_DataType dt = t->dtype;
    if (!(dt == TF_FLOAT || dt == TF_DOUBLE || dt == TF_HALF || dt == TF_BFLOAT16 ||
          dt == TF_INT32 || dt == TF_INT64) ||
        !range_read(t, k, &a)) {
      mt_kernel_unsupported(ctx, "Tidx", dt);
      return;
    }
  }
  int64_t n;
  if (!range_size(&a, 1, &n, ctx->status)) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, a.dt, &n, 1);
  if (!out) return;
  void* p = mt_tensor_data(out);
  /* element i = start + T(i) * delta, in T's arithmetic (integers wrap) */
  for (int64_t i = 0; i < n; i++) {
    switch (a.dt) {
      case TF_INT8: ((int8_t*)p)[i] = (int8_t)((uint64_t)a.s[0] + (uint64_t)i * (uint64_t)a.s[2]); break;
      case TF_INT16: ((int16_t*)p)[i] = (int16_t)((uint64_t)a.s[0] + (uint64_t)i * (uint64_t)a.s[2]); break;
      case TF_INT32: ((int32_t*)p)[i] = (int32_t)((uint64_t)a.s[0] + (uint64_t)i * (uint64_t)a.s[2]); break;
      case TF_INT64: ((int64_t*)p)[i] = (int64_t)((uint64_t)a.s[0] + (uint64_t)i * (uint64_t)a.s[2]); break;
      case TF_UINT8: ((uint8_t*)p)[i] = (uint8_t)(a.u[0] + (uint64_t)i * a.u[2]); break;
      case TF_UINT16: ((uint16_t*)p)[i] = (uint16_t)(a.u[0] + (uint64_t)i * a.u[2]); break;
      case TF_UINT32: ((uint32_t*)p)[i] = (uint32_t)(a.u[0] + (uint64_t)i * a.u[2]); break;
      case TF_UINT64: ((uint64_t*)p)[i] = a.u[0] + (uint64_t)i * a.u[2]; break;
      case TF_FLOAT: ((float*)p)[i] = (float)a.f[0] + (float)i * (float)a.f[2]; break;
      case TF_DOUBLE: ((double*)p)[i] = a.f[0] + (double)i * a.f[2]; break;
      case TF_HALF: {
        const float prod = (float)round_to(TF_HALF, (double)(float)round_to(TF_HALF, (double)i) * a.f[2]);
        ((mt_half*)p)[i] = mt_float_to_half((float)a.f[0] + prod);
        break;
      }
      case TF_BFLOAT16: {
        const float prod =
            (float)round_to(TF_BFLOAT16, (double)(float)round_to(TF_BFLOAT16, (double)i) * a.f[2]);
        ((mt_bfloat16*)p)[i] = mt_float_to_bfloat16((float)a.f[0] + prod);
        break;
      }
      default: break;
    }
  }
}

/* ======================================================================
 * Registration
 * ====================================================================== */

static const mt_op_spec fill_specs[] = {
    {.name = "Tile", .inputs = "input: T, multiples: Tmultiples", .outputs = "output: T",
     .attrs = "T: type; Tmultiples: " INDEX_T, .shape = tile_shape, .kernel = tile_kernel},
    {.name = "Fill", .inputs = "dims: index_type, value: T", .outputs = "output: T",
     .attrs = "T: type; index_type: " INDEX_T, .shape = fill_shape, .kernel = fill_kernel},
    {.name = "ZerosLike", .inputs = "x: T", .outputs = "y: T", .attrs = "T: type",
     .shape = mt_unchanged_shape, .kernel = zeros_like_kernel},
    {.name = "OnesLike", .inputs = "x: T", .outputs = "y: T",
     .attrs = "T: {bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, "
              "int64, uint64, complex64, complex128, bool}",
     .shape = mt_unchanged_shape, .kernel = ones_like_kernel},
    {.name = "Range", .inputs = "start: Tidx, limit: Tidx, delta: Tidx", .outputs = "output: Tidx",
     .attrs = "Tidx: {bfloat16, half, float, double, int8, int16, int32, int64, uint16, uint32, "
              "uint64} = DT_INT32",
     .shape = range_shape, .kernel = range_kernel},
    {.name = "BroadcastTo", .inputs = "input: T, shape: Tidx", .outputs = "output: T",
     .attrs = "T: type; Tidx: " INDEX_T, .shape = broadcast_to_shape,
     .kernel = broadcast_to_kernel},
    {.name = "BroadcastArgs", .inputs = "s0: T, s1: T", .outputs = "r0: T",
     .attrs = "T: " INDEX_T, .shape = broadcast_args_shape, .kernel = broadcast_args_kernel},
};

void mt_register_array_fill_ops(void) {
  mt_register_ops(fill_specs, (int)(sizeof fill_specs / sizeof fill_specs[0]));
}
