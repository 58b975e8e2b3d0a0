/* Shared kernel machinery: see kernel_util.h. */
#include "runtime/kernels/kernel_util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors ---- */

const char* mt_dt_enum_name(TF_DataType dt, char* buf, size_t cap) {
  const char* name = mt_dtype_name(dt);
  size_t i = 0;
  snprintf(buf, cap, "DT_");
  for (i = 3; name && *name && i + 1 < cap; name++, i++) buf[i] = (char)toupper((unsigned char)*name);
  buf[i < cap ? i : cap - 1] = '\0';
  return buf;
}

void mt_kernel_unsupported(mt_kernel_ctx* ctx, const char* attr, TF_DataType dt) {
  char dts[32];
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                 "No OpKernel was registered to support Op '%s' used by {{node %s}} with these "
                 "attrs: [%s=%s]",
                 ctx->op->op_type, ctx->op->name, attr, mt_dt_enum_name(dt, dts, sizeof dts));
}

int mt_check_rank(mt_kernel_ctx* ctx, int idx, const char* what, int min, int max) {
  const TF_Tensor* t = ctx->inputs[idx];
  if (t->ndims >= min && (max < 0 || t->ndims <= max)) return 1;
  char buf[256];
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s must be %s%d-D, got shape %s", what,
                 max < 0 ? "at least " : "", min, mt_dims_str(t->dims, t->ndims, buf, sizeof buf));
  return 0;
}

/* ---- broadcasting ---- */

/* Equal shapes (scalars included): one flat row, nothing broadcast. */
static int same_shape_init(mt_bcast* b, const int64_t* dims, int nd) {
  int64_t n = 1;
  for (int i = 0; i < nd; i++) {
    if (dims[i] < 0) return 0;
    n *= dims[i];
    b->out_dims[i] = dims[i];
  }
  b->out_ndims = nd;
  b->n = n;
  b->ndims = 1;
  b->dims[0] = n;
  b->xstr[0] = b->ystr[0] = 1;
  return 1;
}

int mt_bcast_init(mt_bcast* b, const int64_t* xdims, int xnd, const int64_t* ydims, int ynd,
                  TF_Status* s) {
  if (xnd == ynd && (xnd == 0 || memcmp(xdims, ydims, sizeof(int64_t) * (size_t)xnd) == 0) &&
      same_shape_init(b, xdims, xnd))
    return 1;
  const int nd = xnd > ynd ? xnd : ynd;
  unsigned char xb[MT_MAX_DIMS], yb[MT_MAX_DIMS];
  b->out_ndims = nd;
  b->ndims = 0;
  b->n = 1;
  for (int i = 0; i < nd; i++) {
    const int64_t xd = i >= nd - xnd ? xdims[i - (nd - xnd)] : 1;
    const int64_t yd = i >= nd - ynd ? ydims[i - (nd - ynd)] : 1;
    int64_t od;
    if (xd == yd || yd == 1) {
      od = xd;
    } else if (xd == 1) {
      od = yd;
    } else {
      char xs[256], ys[256];
      mt_status_setf(s, TF_INVALID_ARGUMENT, "Incompatible shapes: %s vs. %s",
                     mt_dims_str(xdims, xnd, xs, sizeof xs), mt_dims_str(ydims, ynd, ys, sizeof ys));
      return 0;
    }
    b->out_dims[i] = od;
    b->n *= od;
    if (od == 1) continue; /* contributes nothing to the iteration */
    const unsigned char bx = xd == 1, by = yd == 1;
    const int k = b->ndims;
    if (k > 0 && xb[k - 1] == bx && yb[k - 1] == by) {
      b->dims[k - 1] *= od;
    } else {
      xb[k] = bx;
      yb[k] = by;
      b->dims[k] = od;
      b->ndims++;
    }
  }
  if (b->ndims == 0) {
    b->ndims = 1;
    b->dims[0] = 1;
    xb[0] = yb[0] = 0;
  }
  int64_t xs = 1, ys = 1;
  for (int d = b->ndims - 1; d >= 0; d--) {
    b->xstr[d] = xb[d] ? 0 : xs;
    b->ystr[d] = yb[d] ? 0 : ys;
    if (!xb[d]) xs *= b->dims[d];
    if (!yb[d]) ys *= b->dims[d];
  }
  return 1;
}

void mt_bcast_seek(const mt_bcast* b, mt_bcast_pos* p, int64_t elem) {
  if (elem == 0) { /* the usual start (one task): no divisions */
    p->col = p->xrow = p->yrow = 0;
    for (int d = b->ndims - 2; d >= 0; d--) p->idx[d] = 0;
    return;
  }
  const int64_t inner = b->dims[b->ndims - 1];
  int64_t row = inner ? elem / inner : 0;
  p->col = inner ? elem % inner : 0;
  p->xrow = p->yrow = 0;
  for (int d = b->ndims - 2; d >= 0; d--) {
    p->idx[d] = row % b->dims[d];
    row /= b->dims[d];
    p->xrow += p->idx[d] * b->xstr[d];
    p->yrow += p->idx[d] * b->ystr[d];
  }
}

void mt_bcast_next_row(const mt_bcast* b, mt_bcast_pos* p) {
  p->col = 0;
  for (int d = b->ndims - 2; d >= 0; d--) {
    p->idx[d]++;
    p->xrow += b->xstr[d];
    p->yrow += b->ystr[d];
    if (p->idx[d] < b->dims[d]) return;
    p->xrow -= b->xstr[d] * b->dims[d];
    p->yrow -= b->ystr[d] * b->dims[d];
    p->idx[d] = 0;
  }
}

typedef struct binary_task {
  mt_binary_fn fn;
  const mt_bcast* b;
  const void *x, *y;
  void* z;
  atomic_int err;
} binary_task;

static void binary_task_run(int64_t begin, int64_t end, void* arg) {
  binary_task* t = arg;
  t->fn(t->b, t->x, t->y, t->z, begin, end, &t->err);
}

/* Two scalars (a loop counter, a step size): no broadcast to work out and
 * nothing to split, which is most of such a call's cost. */
static void binary_scalars(mt_kernel_ctx* ctx, mt_binary_fn fn, TF_DataType ot,
                           const char* err_msg) {
  static const mt_bcast scalar = {.out_ndims = 0, .n = 1, .ndims = 1, .dims = {1},
                                  .xstr = {1}, .ystr = {1}};
  const TF_Tensor* x = ctx->inputs[0];
  const TF_Tensor* y = ctx->inputs[1];
  const int in_idx = ctx->forwardable && ctx->forwardable[0] && x->dtype == ot ? 0 : 1;
  TF_Tensor* z = mt_ctx_forward(ctx, in_idx, 0, ot, NULL, 0);
  if (!z) return;
  atomic_int err = 0;
  fn(&scalar, mt_tensor_data(x), mt_tensor_data(y), mt_tensor_data(z), 0, 1, &err);
  if (atomic_load(&err))
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s",
                   err_msg ? err_msg : "Integer division by zero");
}

void mt_binary_run(mt_kernel_ctx* ctx, const mt_binary_fn* fns, TF_DataType out_type,
                   const char* err_msg) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_Tensor* y = ctx->inputs[1];
  if (x->dtype != y->dtype) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input dtypes differ: %s vs. %s",
                   mt_dtype_name(x->dtype), mt_dtype_name(y->dtype));
    return;
  }
  mt_binary_fn fn = (unsigned)x->dtype < MT_NUM_DTYPES ? fns[x->dtype] : NULL;
  if (!fn) {
    mt_kernel_unsupported(ctx, "T", x->dtype);
    return;
  }
  const TF_DataType ot = out_type ? out_type : x->dtype;
  if (x->ndims == 0 && y->ndims == 0) {
    binary_scalars(ctx, fn, ot, err_msg);
    return;
  }
  mt_bcast b;
  if (!mt_bcast_init(&b, x->dims, x->ndims, y->dims, y->ndims, ctx->status)) return;
  /* Reuse x's buffer in place when we hold its last reference, else y's;
   * mt_ctx_forward allocates when neither can be reused. */
  const int in_idx = ctx->forwardable && ctx->forwardable[0] && x->dtype == ot &&
                             mt_tensor_nelems(x) == b.n ? 0 : 1;
  TF_Tensor* z = mt_ctx_forward(ctx, in_idx, 0, ot, b.out_dims, b.out_ndims);
  if (!z || b.n == 0) return;
  binary_task t = {fn, &b, mt_tensor_data(x), mt_tensor_data(y), mt_tensor_data(z), 0};
  if (b.n < 4096) binary_task_run(0, b.n, &t); /* far below what is worth splitting */
  else mt_parallel_for(ctx, b.n, 1, binary_task_run, &t);
  if (atomic_load(&t.err))
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s",
                   err_msg ? err_msg : "Integer division by zero");
}

int mt_broadcast_shapes(const mt_shape* x, const mt_shape* y, mt_shape* out, TF_Status* s) {
  if (x->rank < 0 || y->rank < 0) {
    *out = mt_shape_unknown();
    return 1;
  }
  const int nd = x->rank > y->rank ? x->rank : y->rank;
  out->rank = nd;
  for (int i = 0; i < nd; i++) {
    const int64_t xd = i >= nd - x->rank ? x->dims[i - (nd - x->rank)] : 1;
    const int64_t yd = i >= nd - y->rank ? y->dims[i - (nd - y->rank)] : 1;
    int64_t od;
    if (xd < 0 || yd < 0) {
      /* One side unknown: a known dim > 1 wins (assume the program is
       * right), a 1 yields the other side, else unknown. */
      if (xd > 1) od = xd;
      else if (yd > 1) od = yd;
      else if (xd == 1) od = yd;
      else if (yd == 1) od = xd;
      else od = -1;
    } else if (xd == 1 || yd == 1) {
      od = xd == 1 ? yd : xd;
    } else if (xd == yd) {
      od = xd;
    } else {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "Dimensions must be equal, but are %lld and %lld",
                     (long long)xd, (long long)yd);
      return 0;
    }
    out->dims[i] = od;
  }
  return 1;
}

void mt_binary_shape(mt_shape_ctx* ctx) {
  mt_broadcast_shapes(&ctx->in[0], &ctx->in[1], &ctx->out[0], ctx->status);
}

/* ---- unary ---- */

typedef struct unary_task {
  mt_unary_fn fn;
  const void* x;
  void* y;
  atomic_int err;
} unary_task;

static void unary_task_run(int64_t begin, int64_t end, void* arg) {
  unary_task* t = arg;
  t->fn(t->x, t->y, begin, end, &t->err);
}

void mt_unary_run(mt_kernel_ctx* ctx, const mt_unary_fn* fns, TF_DataType out_type,
                  const char* err_msg) {
  const TF_Tensor* x = ctx->inputs[0];
  mt_unary_fn fn = (unsigned)x->dtype < MT_NUM_DTYPES ? fns[x->dtype] : NULL;
  if (!fn) {
    mt_kernel_unsupported(ctx, "T", x->dtype);
    return;
  }
  const TF_DataType ot = out_type ? out_type : x->dtype;
  TF_Tensor* y = mt_ctx_forward(ctx, 0, 0, ot, x->dims, x->ndims);
  const int64_t n = mt_tensor_nelems(x);
  if (!y || n <= 0) return;
  unary_task t = {fn, mt_tensor_data(x), mt_tensor_data(y), 0};
  mt_parallel_for(ctx, n, 1, unary_task_run, &t);
  if (atomic_load(&t.err))
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s", err_msg ? err_msg : "Invalid value");
}

void mt_unchanged_shape(mt_shape_ctx* ctx) { ctx->out[0] = ctx->in[0]; }

/* ---- reductions ---- */

int64_t mt_tensor_ints(const TF_Tensor* t, int64_t* out, int64_t cap) {
  const int64_t n = mt_tensor_nelems(t);
  const void* d = mt_tensor_data(t);
  if (n < 0) return -1;
  for (int64_t i = 0; i < n && i < cap; i++) {
    switch (t->dtype) {
      case TF_INT16: out[i] = ((const int16_t*)d)[i]; break;
      case TF_INT32: out[i] = ((const int32_t*)d)[i]; break;
      case TF_INT64: out[i] = ((const int64_t*)d)[i]; break;
      default: return -1;
    }
  }
  if (t->dtype != TF_INT16 && t->dtype != TF_INT32 && t->dtype != TF_INT64) return -1;
  return n;
}

int mt_reduce_init(mt_reduce* r, const TF_Tensor* in, const TF_Tensor* axes, int keep_dims,
                   TF_Status* s) {
  const int rank = in->ndims;
  unsigned char reduced[MT_MAX_DIMS] = {0};
  int64_t ax[256];
  const int64_t nax = mt_tensor_ints(axes, ax, 256);
  if (nax < 0 || (axes->dtype != TF_INT32 && axes->dtype != TF_INT64)) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "reduction_indices must be int32 or int64, not %s",
                   mt_dtype_name(axes->dtype));
    return 0;
  }
  for (int64_t i = 0; i < nax; i++) {
    if (i >= 256) { /* more axes than dims: some repeat */
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "Invalid reduction arguments: Axes contains duplicate dimension");
      return 0;
    }
    int64_t a = ax[i];
    if (a < -rank || a >= rank) {
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "Invalid reduction dimension (%lld for input with %d dimension(s)",
                     (long long)a, rank);
      return 0;
    }
    if (a < 0) a += rank;
    if (reduced[a]) {
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "Invalid reduction arguments: Axes contains duplicate dimension: %lld",
                     (long long)a);
      return 0;
    }
    reduced[a] = 1;
  }
  r->out_ndims = 0;
  r->in_n = r->out_n = r->count = 1;
  r->ndims = 0;
  for (int d = 0; d < rank; d++) {
    const int64_t n = in->dims[d];
    r->in_n *= n;
    if (reduced[d]) {
      r->count *= n;
      if (keep_dims) r->out_dims[r->out_ndims++] = 1;
    } else {
      r->out_n *= n;
      r->out_dims[r->out_ndims++] = n;
    }
    if (n == 1) continue;
    const int k = r->ndims;
    if (k > 0 && r->red[k - 1] == reduced[d]) {
      r->dims[k - 1] *= n;
    } else {
      r->dims[k] = n;
      r->red[k] = reduced[d];
      r->ndims++;
    }
  }
  if (r->ndims == 0) {
    r->ndims = 1;
    r->dims[0] = 1;
    r->red[0] = 0;
  }
  int64_t os = 1;
  for (int d = r->ndims - 1; d >= 0; d--) {
    r->ostr[d] = r->red[d] ? 0 : os;
    if (!r->red[d]) os *= r->dims[d];
  }
  return 1;
}

void mt_reduce_next_row(const mt_reduce* r, int64_t* idx, int64_t* ooff) {
  for (int d = r->ndims - 2; d >= 0; d--) {
    idx[d]++;
    *ooff += r->ostr[d];
    if (idx[d] < r->dims[d]) return;
    *ooff -= r->ostr[d] * r->dims[d];
    idx[d] = 0;
  }
}

size_t mt_acc_size(TF_DataType dt) {
  switch (dt) {
#define ACC_SIZE_(DT, CT, unused) \
  case DT: return sizeof(mt_acc_##CT);
    MT_ALL_POD_TYPES(ACC_SIZE_, 0)
#undef ACC_SIZE_
    default: return 8;
  }
}

typedef struct reduce_task {
  mt_reduce_fn fn;
  const mt_reduce* r;
  const void* in;
  void* out;
} reduce_task;

static void reduce_task_run(int64_t begin, int64_t end, void* arg) {
  reduce_task* t = arg;
  t->fn(t->r, t->in, t->out, NULL, begin, end);
}

void mt_reduce_run(mt_kernel_ctx* ctx, const mt_reduce_fn* fns) {
  const TF_Tensor* in = ctx->inputs[0];
  mt_reduce_fn fn = (unsigned)in->dtype < MT_NUM_DTYPES ? fns[in->dtype] : NULL;
  if (!fn) {
    mt_kernel_unsupported(ctx, "T", in->dtype);
    return;
  }
  mt_reduce r;
  if (!mt_reduce_init(&r, in, ctx->inputs[1], mt_op_attr_bool(ctx->op, "keep_dims", 0),
                      ctx->status))
    return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, r.out_dims, r.out_ndims);
  if (!out || r.out_n == 0) return;
  if (mt_reduce_rows(&r)) {
    reduce_task t = {fn, &r, mt_tensor_data(in), mt_tensor_data(out)};
    mt_parallel_for(ctx, r.out_n, r.dims[r.ndims - 1] + 1, reduce_task_run, &t);
    return;
  }
  void* scratch = mt_malloc((size_t)r.out_n * mt_acc_size(in->dtype), ctx->status);
  if (!scratch) return;
  fn(&r, mt_tensor_data(in), mt_tensor_data(out), scratch, 0, r.out_n);
  free(scratch);
}

void mt_reduce_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[0];
  const int keep = mt_op_attr_bool(ctx->op, "keep_dims", 0);
  int64_t ax[MT_MAX_DIMS * 4];
  const int nax = mt_shape_input_as_ints(ctx, 1, ax, MT_MAX_DIMS * 4);
  if (nax < 0 || nax > MT_MAX_DIMS * 4 || in->rank < 0) {
    if (keep && in->rank >= 0) {
      ctx->out[0].rank = in->rank;
      for (int d = 0; d < in->rank; d++) ctx->out[0].dims[d] = -1;
    } else {
      ctx->out[0] = mt_shape_unknown();
    }
    return;
  }
  unsigned char reduced[MT_MAX_DIMS] = {0};
  for (int i = 0; i < nax; i++) {
    int64_t a = ax[i];
    if (a < -in->rank || a >= in->rank) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Invalid reduction dimension %lld for input with %d dimensions.",
                     (long long)a, in->rank);
      return;
    }
    reduced[a < 0 ? a + in->rank : a] = 1;
  }
  mt_shape* out = &ctx->out[0];
  out->rank = 0;
  for (int d = 0; d < in->rank; d++) {
    if (!reduced[d]) out->dims[out->rank++] = in->dims[d];
    else if (keep) out->dims[out->rank++] = 1;
  }
}

/* ---- shape-function helpers ---- */

int mt_shape_with_rank(mt_shape_ctx* ctx, int idx, int rank) {
  const int r = ctx->in[idx].rank;
  if (r < 0 || r == rank) return 1;
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be rank %d but is rank %d", rank, r);
  return 0;
}

int mt_shape_with_rank_at_least(mt_shape_ctx* ctx, int idx, int rank) {
  const int r = ctx->in[idx].rank;
  if (r < 0 || r >= rank) return 1;
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                 "Shape must be at least rank %d but is rank %d", rank, r);
  return 0;
}

int mt_merge_dim(mt_shape_ctx* ctx, int64_t a, int64_t b, int64_t* out) {
  if (a >= 0 && b >= 0 && a != b) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Dimensions must be equal, but are %lld and %lld", (long long)a, (long long)b);
    return 0;
  }
  *out = a >= 0 ? a : b;
  return 1;
}

int mt_merge_shape(mt_shape_ctx* ctx, const mt_shape* a, const mt_shape* b, mt_shape* out) {
  if (a->rank < 0 || b->rank < 0) {
    *out = a->rank < 0 ? *b : *a;
    return 1;
  }
  if (a->rank != b->rank) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Shapes must be equal rank, but are %d and %d", a->rank, b->rank);
    return 0;
  }
  mt_shape m;
  m.rank = a->rank;
  for (int d = 0; d < a->rank; d++)
    if (!mt_merge_dim(ctx, a->dims[d], b->dims[d], &m.dims[d])) return 0;
  *out = m;
  return 1;
}

/* ---- shape-function inputs ---- */

int mt_shape_input_as_ints(const mt_shape_ctx* ctx, int idx, int64_t* out, int cap) {
  if (!ctx->in_values || idx < 0 || idx >= ctx->ninputs || !ctx->in_values[idx]) return -1;
  const int64_t n = mt_tensor_ints(ctx->in_values[idx], out, cap);
  if (n > 0x7fffffff) return -1;
  return (int)n;
}
