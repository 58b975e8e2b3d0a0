/* 3-D convolution and pooling (TensorFlow's conv_ops_3d.cc, conv_grad_ops_3d.cc,
 * pooling_ops_3d.cc): Conv3D, Conv3DBackpropInputV2, Conv3DBackpropFilterV2,
 * MaxPool3D, AvgPool3D, MaxPool3DGrad, AvgPool3DGrad, MaxPool3DGradGrad.
 *
 * One window walk serves the three convolutions: for each output position and
 * filter tap inside the input, input x filter -> output (Conv3D), filter x
 * out_backprop -> input (backprop input), input x out_backprop -> filter
 * (backprop filter), accumulated in double and stored in the tensor's dtype
 * (float, double). Both layouts (NDHWC, NCDHW) and dilations are handled by
 * index arithmetic (the walk supports grouped filters, which TensorFlow's CPU
 * kernels refuse, and so do these).
 * Pooling is float, as TensorFlow's CPU kernels: windows count only in-bounds
 * cells; MaxPool3DGrad routes a gradient to every window cell within 1e-5 of
 * the maximum, MaxPool3DGradGrad takes the first cell equal to it, both as
 * TensorFlow's CPU code does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"

/* ---- geometry ---- */

typedef struct geom {
  int cf; /* channels first (NCDHW) */
  int64_t n, c, in[3];       /* batch, channels, spatial input sizes */
  int64_t out[3], oc;        /* spatial output sizes, output channels */
  int64_t k[3], s[3], d[3];  /* window, strides, dilations (spatial) */
  int64_t pad[3];            /* leading padding */
} geom;

static int64_t dim5(const int64_t* dims, int cf, char which) {
  /* which: 'N', 'C', '0'..'2' (depth, height, width) */
  if (which == 'N') return dims[0];
  if (which == 'C') return cf ? dims[1] : dims[4];
  return cf ? dims[2 + (which - '0')] : dims[1 + (which - '0')];
}

static int64_t idx5(const geom* g, int64_t n, int64_t c, int64_t z, int64_t y, int64_t x,
                    const int64_t sp[3], int64_t nc) {
  if (g->cf) return (((n * nc + c) * sp[0] + z) * sp[1] + y) * sp[2] + x;
  return (((n * sp[0] + z) * sp[1] + y) * sp[2] + x) * nc + c;
}

/* TensorFlow's GetWindowedOutputSizeVerbose: SAME pads half the excess at the
 * front; VALID needs the window to fit. */
static int window_size(TF_Status* st, int64_t in, int64_t k, int64_t dil, int64_t s, int same,
                       int shape_msg, int64_t* out, int64_t* pad) {
  const int64_t eff = (k - 1) * dil + 1;
  if (s <= 0) {
    mt_status_setf(st, TF_INVALID_ARGUMENT, "Stride must be > 0, but got %lld", (long long)s);
    return 0;
  }
  if (same) {
    *out = (in + s - 1) / s;
    const int64_t total = (*out - 1) * s + eff - in;
    *pad = total > 0 ? total / 2 : 0;
  } else {
    *out = in - eff < 0 ? -1 : (in - eff + s) / s;
    *pad = 0;
  }
  if (*out < 0 && shape_msg) {
    /* the shape function's wording (construction time) */
    mt_status_setf(st, TF_INVALID_ARGUMENT,
                   "Negative dimension size caused by subtracting %lld from %lld",
                   (long long)eff, (long long)in);
    return 0;
  }
  if (*out < 0) {
    mt_status_setf(st, TF_INVALID_ARGUMENT,
                   "Computed output size would be negative: %lld [input_size: %lld, "
                   "effective_filter_size: %lld, stride: %lld]",
                   (long long)((in - eff + s) / s), (long long)in, (long long)eff, (long long)s);
    return 0;
  }
  return 1;
}

static int list5(const TF_Operation* op, const char* name, int64_t v[5]) {
  const mt_attr_value* a = mt_op_attr(op, name);
  if (!a || !a->is_list || a->list.n != 5) {
    for (int i = 0; i < 5; i++) v[i] = 1;
    return a == NULL;
  }
  for (int i = 0; i < 5; i++) v[i] = a->list.i[i];
  return 1;
}

/* Spatial values of a 5-entry attr in data_format order. */
static void spatial(const int64_t v[5], int cf, int64_t out[3]) {
  for (int i = 0; i < 3; i++) out[i] = cf ? v[2 + i] : v[1 + i];
}

/* Window attrs + input dims -> geometry; `filter` (NULL for pooling) gives k
 * and the output channels. */
static int geom_init(TF_Status* st, const TF_Operation* op, const int64_t* in_dims,
                     const int64_t* fdims, geom* g, const char* kattr, int shape_msg) {
  memset(g, 0, sizeof *g);
  g->cf = strcmp(mt_op_attr_str(op, "data_format", "NDHWC"), "NCDHW") == 0;
  const int same = strcmp(mt_op_attr_str(op, "padding", "VALID"), "SAME") == 0;
  int64_t s5[5], d5[5] = {1, 1, 1, 1, 1}, k5[5];
  list5(op, "strides", s5);
  if (!kattr) list5(op, "dilations", d5);
  if (s5[0] != 1 || (g->cf ? s5[1] : s5[4]) != 1) {
    mt_status_setf(st, TF_UNIMPLEMENTED, kattr
                   ? "Pooling is not yet supported on the batch dimension."
                   : "Current implementation does not yet support strides in the batch and "
                     "depth dimensions.");
    return 0;
  }
  g->n = dim5(in_dims, g->cf, 'N');
  g->c = dim5(in_dims, g->cf, 'C');
  for (int i = 0; i < 3; i++) g->in[i] = dim5(in_dims, g->cf, (char)('0' + i));
  spatial(s5, g->cf, g->s);
  spatial(d5, g->cf, g->d);
  if (kattr) {
    list5(op, kattr, k5);
    if (k5[0] != 1 || (g->cf ? k5[1] : k5[4]) != 1) {
      mt_status_setf(st, TF_UNIMPLEMENTED,
                     "Pooling is not yet supported on the batch dimension.");
      return 0;
    }
    spatial(k5, g->cf, g->k);
    g->oc = g->c;
  } else {
    for (int i = 0; i < 3; i++) g->k[i] = fdims[i];
    g->oc = fdims[4];
  }
  for (int i = 0; i < 3; i++)
    if (!window_size(st, g->in[i], g->k[i], g->d[i], g->s[i], same, shape_msg, &g->out[i],
                     &g->pad[i]))
      return 0;
  return 1;
}

static void out_dims(const geom* g, int64_t c, int64_t dims[5]) {
  dims[0] = g->n;
  if (g->cf) {
    dims[1] = c;
    for (int i = 0; i < 3; i++) dims[2 + i] = g->out[i];
  } else {
    for (int i = 0; i < 3; i++) dims[1 + i] = g->out[i];
    dims[4] = c;
  }
}

/* ---- shapes ---- */

static int known5(const mt_shape* s) {
  if (s->rank != 5) return 0;
  for (int i = 0; i < 5; i++)
    if (s->dims[i] < 0) return 0;
  return 1;
}

static void conv3d_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 5) || !mt_shape_with_rank(ctx, 1, 5)) return;
  const mt_shape* x = &ctx->in[0];
  const mt_shape* f = &ctx->in[1];
  int64_t unknown[5] = {-1, -1, -1, -1, -1};
  ctx->out[0] = mt_shape_make(unknown, 5);
  if (!known5(x) || !known5(f)) return;
  const int cf = strcmp(mt_op_attr_str(ctx->op, "data_format", "NDHWC"), "NCDHW") == 0;
  const int64_t in_depth = dim5(x->dims, cf, 'C');
  if (in_depth % f->dims[3] != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Depth of input (%lld) is not a multiple of input depth of filter (%lld)",
                   (long long)in_depth, (long long)f->dims[3]);
    return;
  }
  const int64_t groups = in_depth / f->dims[3];
  if (f->dims[4] % groups != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Depth of output (%lld) is not a multiple of the number of groups (%lld)",
                   (long long)f->dims[4], (long long)groups);
    return;
  }
  geom g;
  if (!geom_init(ctx->status, ctx->op, x->dims, f->dims, &g, NULL, 1)) {
    if (TF_GetCode(ctx->status) == TF_UNIMPLEMENTED) TF_SetStatus(ctx->status, TF_OK, "");
    return;
  }
  int64_t od[5];
  out_dims(&g, g.oc, od);
  ctx->out[0] = mt_shape_make(od, 5);
}

/* Output = the value of a shape input (input_sizes / filter_sizes) when known. */
static void sizes_shape(mt_shape_ctx* ctx, int idx) {
  int64_t v[5] = {-1, -1, -1, -1, -1};
  if (mt_shape_input_as_ints(ctx, idx, v, 5) != 5)
    for (int i = 0; i < 5; i++) v[i] = -1;
  ctx->out[0] = mt_shape_make(v, 5);
}
static void backprop_input_shape(mt_shape_ctx* ctx) { sizes_shape(ctx, 0); }
static void backprop_filter_shape(mt_shape_ctx* ctx) { sizes_shape(ctx, 1); }

static void pool3d_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 5)) return;
  int64_t unknown[5] = {-1, -1, -1, -1, -1};
  ctx->out[0] = mt_shape_make(unknown, 5);
  if (!known5(&ctx->in[0])) return;
  geom g;
  if (!geom_init(ctx->status, ctx->op, ctx->in[0].dims, NULL, &g, "ksize", 1)) {
    if (TF_GetCode(ctx->status) == TF_UNIMPLEMENTED) TF_SetStatus(ctx->status, TF_OK, "");
    return;
  }
  int64_t od[5];
  out_dims(&g, g.c, od);
  ctx->out[0] = mt_shape_make(od, 5);
}

static void same_as_input0(mt_shape_ctx* ctx) { ctx->out[0] = ctx->in[0]; }
static void same_as_input1(mt_shape_ctx* ctx) { ctx->out[0] = ctx->in[1]; }
static void avg_pool3d_grad_shape(mt_shape_ctx* ctx) { sizes_shape(ctx, 0); }

/* ---- element access ---- */

static double ld(const void* p, TF_DataType t, int64_t i) {
  return t == TF_DOUBLE ? ((const double*)p)[i] : ((const float*)p)[i];
}

static void st_all(void* p, TF_DataType t, const double* v, int64_t n) {
  if (t == TF_DOUBLE)
    memcpy(p, v, sizeof(double) * (size_t)n);
  else
    for (int64_t i = 0; i < n; i++) ((float*)p)[i] = (float)v[i];
}

/* ---- the convolution walk ---- */

typedef enum { WALK_FORWARD, WALK_INPUT, WALK_FILTER } walk_mode;

/* x: input, f: filter [k..., c / groups, oc], y: output; the one of the
 * three that `mode` names is accumulated into acc (zeroed) from the other two. */
static void conv_run(const geom* g, int64_t fin, walk_mode mode, const void* x, const void* f,
                     const void* y, TF_DataType t, double* acc) {
  const int64_t groups = g->c / fin, opg = g->oc / groups;
  for (int64_t n = 0; n < g->n; n++)
    for (int64_t oz = 0; oz < g->out[0]; oz++)
      for (int64_t oy = 0; oy < g->out[1]; oy++)
        for (int64_t ox = 0; ox < g->out[2]; ox++)
          for (int64_t kz = 0; kz < g->k[0]; kz++) {
            const int64_t iz = oz * g->s[0] - g->pad[0] + kz * g->d[0];
            if (iz < 0 || iz >= g->in[0]) continue;
            for (int64_t ky = 0; ky < g->k[1]; ky++) {
              const int64_t iy = oy * g->s[1] - g->pad[1] + ky * g->d[1];
              if (iy < 0 || iy >= g->in[1]) continue;
              for (int64_t kx = 0; kx < g->k[2]; kx++) {
                const int64_t ix = ox * g->s[2] - g->pad[2] + kx * g->d[2];
                if (ix < 0 || ix >= g->in[2]) continue;
                const int64_t fbase = ((kz * g->k[1] + ky) * g->k[2] + kx) * fin * g->oc;
                for (int64_t oc = 0; oc < g->oc; oc++) {
                  const int64_t grp = oc / opg;
                  const int64_t yi = idx5(g, n, oc, oz, oy, ox, g->out, g->oc);
                  for (int64_t ic = 0; ic < fin; ic++) {
                    const int64_t xi = idx5(g, n, grp * fin + ic, iz, iy, ix, g->in, g->c);
                    const int64_t fi = fbase + ic * g->oc + oc;
                    if (mode == WALK_FORWARD)
                      acc[yi] += ld(x, t, xi) * ld(f, t, fi);
                    else if (mode == WALK_INPUT)
                      acc[xi] += ld(f, t, fi) * ld(y, t, yi);
                    else
                      acc[fi] += ld(x, t, xi) * ld(y, t, yi);
                  }
                }
              }
            }
          }
}

static int conv_dtype_ok(mt_kernel_ctx* ctx, TF_DataType t) {
  if (t == TF_FLOAT || t == TF_DOUBLE) return 1;
  mt_kernel_unsupported(ctx, "T", t);
  return 0;
}

static int read_sizes(mt_kernel_ctx* ctx, const TF_Tensor* t, const char* what, int64_t v[5]) {
  if (t->ndims != 1 || t->dims[0] != 5 || mt_tensor_ints(t, v, 5) != 5) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s must be a 5-element vector", what);
    return 0;
  }
  return 1;
}

/* Checks x [5-D], filter [5-D] and (when given) out_backprop against the
 * geometry; fills g. */
static int conv_setup(mt_kernel_ctx* ctx, const int64_t* xd, const int64_t* fd,
                      const TF_Tensor* dy, geom* g) {
  const int cf = strcmp(mt_op_attr_str(ctx->op, "data_format", "NDHWC"), "NCDHW") == 0;
  const int64_t in_depth = dim5(xd, cf, 'C');
  /* The OpDef's shape function admits groups; TensorFlow's CPU kernels do not. */
  if (in_depth != fd[3]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "input and filter must have the same depth: %lld vs %lld",
                   (long long)in_depth, (long long)fd[3]);
    return 0;
  }
  if (!geom_init(ctx->status, ctx->op, xd, fd, g, NULL, 0)) return 0;
  if (dy) {
    int64_t od[5];
    out_dims(g, g->oc, od);
    if (dy->ndims != 5 || memcmp(dy->dims, od, sizeof od) != 0) {
      char a[128], b[128];
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Conv3DBackprop: out_backprop has shape %s but the convolution gives %s",
                     mt_dims_str(dy->dims, dy->ndims, a, sizeof a), mt_dims_str(od, 5, b, sizeof b));
      return 0;
    }
  }
  return 1;
}

static void finish(mt_kernel_ctx* ctx, TF_DataType t, const int64_t* dims, double* acc) {
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, t, dims, 5);
  if (out) st_all(mt_tensor_data(out), t, acc, mt_tensor_nelems(out));
  free(acc);
}

static double* zeros(mt_kernel_ctx* ctx, const int64_t* dims) {
  int64_t n = 1;
  for (int i = 0; i < 5; i++) n *= dims[i];
  double* a = calloc((size_t)(n ? n : 1), sizeof(double));
  if (!a) mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM in a 3-D convolution");
  return a;
}

static int rank5(mt_kernel_ctx* ctx, const TF_Tensor* t, const char* what) {
  if (t->ndims == 5) return 1;
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s must be 5-dimensional", what);
  return 0;
}

static void conv3d_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_Tensor* f = ctx->inputs[1];
  if (!rank5(ctx, x, "input") || !rank5(ctx, f, "filter") || !conv_dtype_ok(ctx, x->dtype))
    return;
  geom g;
  if (!conv_setup(ctx, x->dims, f->dims, NULL, &g)) return;
  int64_t od[5];
  out_dims(&g, g.oc, od);
  double* acc = zeros(ctx, od);
  if (!acc) return;
  conv_run(&g, f->dims[3], WALK_FORWARD, mt_tensor_data(x), mt_tensor_data(f), NULL, x->dtype,
           acc);
  finish(ctx, x->dtype, od, acc);
}

static void conv3d_backprop_input_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* f = ctx->inputs[1];
  const TF_Tensor* dy = ctx->inputs[2];
  int64_t xd[5];
  if (!read_sizes(ctx, ctx->inputs[0], "input_sizes", xd) || !rank5(ctx, f, "filter") ||
      !conv_dtype_ok(ctx, f->dtype))
    return;
  geom g;
  if (!conv_setup(ctx, xd, f->dims, dy, &g)) return;
  double* acc = zeros(ctx, xd);
  if (!acc) return;
  conv_run(&g, f->dims[3], WALK_INPUT, NULL, mt_tensor_data(f), mt_tensor_data(dy), f->dtype,
           acc);
  finish(ctx, f->dtype, xd, acc);
}

static void conv3d_backprop_filter_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_Tensor* dy = ctx->inputs[2];
  int64_t fd[5];
  if (!rank5(ctx, x, "input") || !read_sizes(ctx, ctx->inputs[1], "filter_sizes", fd) ||
      !conv_dtype_ok(ctx, x->dtype))
    return;
  geom g;
  if (!conv_setup(ctx, x->dims, fd, dy, &g)) return;
  double* acc = zeros(ctx, fd);
  if (!acc) return;
  conv_run(&g, fd[3], WALK_FILTER, mt_tensor_data(x), NULL, mt_tensor_data(dy), x->dtype, acc);
  finish(ctx, x->dtype, fd, acc);
}

/* ---- pooling ---- */

typedef struct win {
  int64_t lo[3], hi[3]; /* in-bounds input range of one output cell */
} win;

static win window_at(const geom* g, int64_t oz, int64_t oy, int64_t ox) {
  win w;
  const int64_t o[3] = {oz, oy, ox};
  for (int i = 0; i < 3; i++) {
    const int64_t s = o[i] * g->s[i] - g->pad[i];
    w.lo[i] = s < 0 ? 0 : s;
    w.hi[i] = s + g->k[i] < g->in[i] ? s + g->k[i] : g->in[i];
  }
  return w;
}

static int pool_setup(mt_kernel_ctx* ctx, const int64_t* xd, geom* g, TF_DataType t) {
  if (t != TF_FLOAT) {
    mt_kernel_unsupported(ctx, "T", t);
    return 0;
  }
  return geom_init(ctx->status, ctx->op, xd, NULL, g, "ksize", 0);
}

typedef enum { POOL_MAX, POOL_AVG } pool_kind;

static void pool3d_run(mt_kernel_ctx* ctx, pool_kind kind) {
  const TF_Tensor* x = ctx->inputs[0];
  if (!rank5(ctx, x, "tensor_in")) return;
  geom g;
  if (!pool_setup(ctx, x->dims, &g, x->dtype)) return;
  int64_t od[5];
  out_dims(&g, g.c, od);
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_FLOAT, od, 5);
  if (!out) return;
  const float* xv = mt_tensor_data(x);
  float* yv = mt_tensor_data(out);
  for (int64_t n = 0; n < g.n; n++)
    for (int64_t oz = 0; oz < g.out[0]; oz++)
      for (int64_t oy = 0; oy < g.out[1]; oy++)
        for (int64_t ox = 0; ox < g.out[2]; ox++) {
          const win w = window_at(&g, oz, oy, ox);
          for (int64_t c = 0; c < g.c; c++) {
            float m = -INFINITY, sum = 0;
            int64_t cnt = 0;
            for (int64_t z = w.lo[0]; z < w.hi[0]; z++)
              for (int64_t y = w.lo[1]; y < w.hi[1]; y++)
                for (int64_t xx = w.lo[2]; xx < w.hi[2]; xx++) {
                  const float v = xv[idx5(&g, n, c, z, y, xx, g.in, g.c)];
                  if (v > m) m = v;
                  sum += v;
                  cnt++;
                }
            yv[idx5(&g, n, c, oz, oy, ox, g.out, g.c)] =
                kind == POOL_MAX ? m : (cnt ? sum / (float)cnt : 0.0f);
          }
        }
}

static void max_pool3d_kernel(mt_kernel_ctx* ctx) { pool3d_run(ctx, POOL_MAX); }
static void avg_pool3d_kernel(mt_kernel_ctx* ctx) { pool3d_run(ctx, POOL_AVG); }

static int same_dims(mt_kernel_ctx* ctx, const TF_Tensor* t, const int64_t* want,
                     const char* what) {
  if (t->ndims == 5 && memcmp(t->dims, want, sizeof(int64_t) * 5) == 0) return 1;
  char a[128], b[128];
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Expected %s shape to be %s, but got %s",
                 what, mt_dims_str(want, 5, a, sizeof a), mt_dims_str(t->dims, t->ndims, b,
                                                                        sizeof b));
  return 0;
}

static void max_pool3d_grad_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_Tensor* y = ctx->inputs[1];
  const TF_Tensor* dy = ctx->inputs[2];
  if (!rank5(ctx, x, "tensor_in") || !rank5(ctx, y, "tensor_out") ||
      !rank5(ctx, dy, "out_backprop"))
    return;
  if (x->dtype != TF_FLOAT || dy->dtype != TF_FLOAT) {
    mt_kernel_unsupported(ctx, "T", dy->dtype);
    return;
  }
  geom g;
  if (!pool_setup(ctx, x->dims, &g, x->dtype)) return;
  int64_t od[5];
  out_dims(&g, g.c, od);
  if (!same_dims(ctx, y, od, "orig_output") || !same_dims(ctx, dy, od, "grad")) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_FLOAT, x->dims, 5);
  if (!out) return;
  const float *xv = mt_tensor_data(x), *yv = mt_tensor_data(y), *gv = mt_tensor_data(dy);
  float* dx = mt_tensor_data(out);
  memset(dx, 0, sizeof(float) * (size_t)mt_tensor_nelems(out));
  for (int64_t n = 0; n < g.n; n++)
    for (int64_t oz = 0; oz < g.out[0]; oz++)
      for (int64_t oy = 0; oy < g.out[1]; oy++)
        for (int64_t ox = 0; ox < g.out[2]; ox++) {
          const win w = window_at(&g, oz, oy, ox);
          for (int64_t c = 0; c < g.c; c++) {
            const int64_t oi = idx5(&g, n, c, oz, oy, ox, g.out, g.c);
            for (int64_t z = w.lo[0]; z < w.hi[0]; z++)
              for (int64_t yy = w.lo[1]; yy < w.hi[1]; yy++)
                for (int64_t xx = w.lo[2]; xx < w.hi[2]; xx++) {
                  const int64_t ii = idx5(&g, n, c, z, yy, xx, g.in, g.c);
                  if (fabsf(xv[ii] - yv[oi]) < 1e-5f) dx[ii] += gv[oi];
                }
          }
        }
}

static void max_pool3d_grad_grad_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_Tensor* y = ctx->inputs[1];
  const TF_Tensor* gg = ctx->inputs[2];
  if (!rank5(ctx, x, "tensor_in") || !rank5(ctx, y, "tensor_out") ||
      !rank5(ctx, gg, "out_grad_backprop"))
    return;
  geom g;
  if (!pool_setup(ctx, x->dims, &g, x->dtype)) return;
  if (g.cf) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Default MaxPooling3dGradGradOp only supportsNDHWC on CPU device type");
    return;
  }
  int64_t od[5];
  out_dims(&g, g.c, od);
  if (!same_dims(ctx, y, od, "orig_output") || !same_dims(ctx, gg, x->dims, "grad")) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_FLOAT, od, 5);
  if (!out) return;
  const float *xv = mt_tensor_data(x), *yv = mt_tensor_data(y), *gv = mt_tensor_data(gg);
  float* ov = mt_tensor_data(out);
  memset(ov, 0, sizeof(float) * (size_t)mt_tensor_nelems(out));
  for (int64_t n = 0; n < g.n; n++)
    for (int64_t oz = 0; oz < g.out[0]; oz++)
      for (int64_t oy = 0; oy < g.out[1]; oy++)
        for (int64_t ox = 0; ox < g.out[2]; ox++) {
          const win w = window_at(&g, oz, oy, ox);
          for (int64_t c = 0; c < g.c; c++) {
            const int64_t oi = idx5(&g, n, c, oz, oy, ox, g.out, g.c);
            int done = 0;
            for (int64_t z = w.lo[0]; z < w.hi[0] && !done; z++)
              for (int64_t yy = w.lo[1]; yy < w.hi[1] && !done; yy++)
                for (int64_t xx = w.lo[2]; xx < w.hi[2] && !done; xx++) {
                  const int64_t ii = idx5(&g, n, c, z, yy, xx, g.in, g.c);
                  if (xv[ii] == yv[oi]) ov[oi] = gv[ii], done = 1;
                }
          }
        }
}

static void avg_pool3d_grad_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* dy = ctx->inputs[1];
  int64_t xd[5];
  if (!read_sizes(ctx, ctx->inputs[0], "orig_input_shape", xd) ||
      !rank5(ctx, dy, "out_backprop"))
    return;
  geom g;
  if (!pool_setup(ctx, xd, &g, dy->dtype)) return;
  int64_t od[5];
  out_dims(&g, g.c, od);
  if (!same_dims(ctx, dy, od, "grad")) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_FLOAT, xd, 5);
  if (!out) return;
  const float* gv = mt_tensor_data(dy);
  float* dx = mt_tensor_data(out);
  memset(dx, 0, sizeof(float) * (size_t)mt_tensor_nelems(out));
  for (int64_t n = 0; n < g.n; n++)
    for (int64_t oz = 0; oz < g.out[0]; oz++)
      for (int64_t oy = 0; oy < g.out[1]; oy++)
        for (int64_t ox = 0; ox < g.out[2]; ox++) {
          const win w = window_at(&g, oz, oy, ox);
          const int64_t cnt = (w.hi[0] - w.lo[0]) * (w.hi[1] - w.lo[1]) * (w.hi[2] - w.lo[2]);
          if (cnt <= 0) continue;
          for (int64_t c = 0; c < g.c; c++) {
            const float v = gv[idx5(&g, n, c, oz, oy, ox, g.out, g.c)] / (float)cnt;
            for (int64_t z = w.lo[0]; z < w.hi[0]; z++)
              for (int64_t yy = w.lo[1]; yy < w.hi[1]; yy++)
                for (int64_t xx = w.lo[2]; xx < w.hi[2]; xx++)
                  dx[idx5(&g, n, c, z, yy, xx, g.in, g.c)] += v;
          }
        }
}

#define CONV3D_ATTRS                                                                  \
  "T: {half, bfloat16, float, double}; strides: list(int) >= 5; "                    \
  "padding: {'SAME', 'VALID'}; data_format: {'NDHWC', 'NCDHW'} = 'NDHWC'; "           \
  "dilations: list(int) = [1, 1, 1, 1, 1]"
#define POOL3D_ATTRS                                                                  \
  "ksize: list(int) >= 5; strides: list(int) >= 5; padding: {'SAME', 'VALID'}; "      \
  "data_format: {'NDHWC', 'NCDHW'} = 'NDHWC'"

static const mt_op_spec conv3d_specs[] = {
    {.name = "Conv3D", .inputs = "input: T, filter: T", .outputs = "output: T",
     .attrs = CONV3D_ATTRS, .shape = conv3d_shape, .kernel = conv3d_kernel},
    {.name = "Conv3DBackpropInputV2", .inputs = "input_sizes: Tshape, filter: T, out_backprop: T",
     .outputs = "output: T", .attrs = CONV3D_ATTRS "; Tshape: {int32, int64} = DT_INT32",
     .shape = backprop_input_shape, .kernel = conv3d_backprop_input_kernel},
    {.name = "Conv3DBackpropFilterV2", .inputs = "input: T, filter_sizes: int32, out_backprop: T",
     .outputs = "output: T", .attrs = CONV3D_ATTRS, .shape = backprop_filter_shape,
     .kernel = conv3d_backprop_filter_kernel},
    {.name = "MaxPool3D", .inputs = "input: T", .outputs = "output: T",
     .attrs = POOL3D_ATTRS "; T: {half, bfloat16, float}", .shape = pool3d_shape,
     .kernel = max_pool3d_kernel},
    {.name = "AvgPool3D", .inputs = "input: T", .outputs = "output: T",
     .attrs = POOL3D_ATTRS "; T: {half, bfloat16, float, double}", .shape = pool3d_shape,
     .kernel = avg_pool3d_kernel},
    {.name = "MaxPool3DGrad", .inputs = "orig_input: TInput, orig_output: TInput, grad: T",
     .outputs = "output: T",
     .attrs = POOL3D_ATTRS "; T: {half, bfloat16, float} = DT_FLOAT; "
              "TInput: {half, bfloat16, float} = DT_FLOAT",
     .shape = same_as_input0, .kernel = max_pool3d_grad_kernel},
    {.name = "AvgPool3DGrad", .inputs = "orig_input_shape: int32, grad: T",
     .outputs = "output: T", .attrs = POOL3D_ATTRS "; T: {half, bfloat16, float, double}",
     .shape = avg_pool3d_grad_shape, .kernel = avg_pool3d_grad_kernel},
    {.name = "MaxPool3DGradGrad", .inputs = "orig_input: T, orig_output: T, grad: T",
     .outputs = "output: T", .attrs = POOL3D_ATTRS "; T: realnumbertype",
     .shape = same_as_input1, .kernel = max_pool3d_grad_grad_kernel},
};

void mt_register_conv3d_ops(void) {
  mt_register_ops(conv3d_specs, (int)(sizeof conv3d_specs / sizeof conv3d_specs[0]));
}
