/* Convolutions: Conv2D, DepthwiseConv2dNative, Conv2DBackpropInput.
 * Signatures, shape functions and CPU dtypes are TensorFlow's (nn_ops.cc,
 * common_shape_fns.cc, conv_ops.cc, depthwise_conv_op.cc,
 * conv_grad_input_ops.cc).
 *
 * Kernels compute in NHWC on a "work type": float (for float, half and
 * bfloat16, which are converted once), double or int32. NCHW tensors are
 * transposed to NHWC and back. Conv2D and its input gradient are
 * im2col/col2im + GEMM (BLAS for float/double) tiled over output rows so
 * the patch matrix stays small; a 1x1 stride-1 unpadded conv and a conv
 * whose window covers the whole input use the input as the patch matrix
 * directly. Depthwise convolution is a direct loop over channels. */
#include <cblas.h>
#include <stdatomic.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/window_util.h"

/* Vectorize the channel loops: -O2's "very cheap" cost model skips loops whose
 * trip count is not known to be a multiple of the vector width. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

/* Patch-matrix budget per tile, in elements (4 MiB of floats): large
 * enough for efficient GEMMs, small enough to stay in cache-friendly
 * sizes and bound memory on big inputs. */
#define CONV_TILE_ELEMS ((int64_t)1 << 20)

/* Geometry in NHWC terms, whatever the data format. */
typedef struct conv_geom {
  int nchw;
  int64_t n, ih, iw, ic;      /* input */
  int64_t kh, kw, kic, oc;    /* filter [kh, kw, kic, oc]; depthwise: oc = ic * multiplier */
  int64_t oh, ow;             /* output */
  int64_t sh, sw, dh, dw;     /* strides, dilations */
  int64_t pt, pl;             /* padding before (top, left) */
  int64_t groups;
} conv_geom;

/* ---- shared attr handling ---- */

/* Reads strides/dilations (4 values each, checked by the caller) at the
 * H and W positions of the data format. */
static void spatial_attrs(const TF_Operation* op, int nchw, conv_geom* g) {
  int n;
  const int64_t* s = mt_attr_ints(op, "strides", &n);
  const int h = nchw ? 2 : 1, w = nchw ? 3 : 2;
  g->sh = s[h];
  g->sw = s[w];
  const int64_t* d = mt_attr_ints(op, "dilations", &n);
  g->dh = d ? d[h] : 1;
  g->dw = d ? d[w] : 1;
}

/* Checks the strides/dilations list lengths; `what` is the op's name in
 * TensorFlow's messages. */
static int check_attr_lengths(const TF_Operation* op, const char* what, int nchw, int depthwise,
                              TF_Status* s) {
  int ns, nd;
  mt_attr_ints(op, "strides", &ns);
  const int64_t* d = mt_attr_ints(op, "dilations", &nd);
  if (ns != 4) {
    if (depthwise)
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "%s requires the stride attribute to contain 4 values, but got: %d", what, ns);
    else
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "%s on data format %s requires the stride attribute to contain 4 values, "
                     "but got: %d", what, nchw ? "NCHW" : "NHWC", ns);
    return 0;
  }
  if (d && nd != 4) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "%s requires the dilation attribute to contain 4 values, but got: %d", what,
                   nd);
    return 0;
  }
  return 1;
}

/* Kernel-time checks TensorFlow's kernels make on strides/dilations. */
static int check_batch_depth_attrs(mt_kernel_ctx* ctx, int nchw) {
  int n;
  const int64_t* s = mt_attr_ints(ctx->op, "strides", &n);
  const int c = nchw ? 1 : 3;
  if (s[0] != 1 || s[c] != 1) {
    mt_status_setf(ctx->status, TF_UNIMPLEMENTED,
                   "Current implementation does not yet support strides in the batch and depth "
                   "dimensions.");
    return 0;
  }
  const int64_t* d = mt_attr_ints(ctx->op, "dilations", &n);
  if (d && (d[0] != 1 || d[c] != 1)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Current implementation does not yet support dilations in the batch and "
                   "depth dimensions.");
    return 0;
  }
  return 1;
}

/* Padding before/after for the H and W dims (EXPLICIT only). */
static void explicit_pads(const TF_Operation* op, int nchw, int64_t pads[4]) {
  int n;
  const int64_t* p = mt_attr_ints(op, "explicit_paddings", &n);
  const int h = nchw ? 2 : 1, w = nchw ? 3 : 2;
  if (n == 8) {
    pads[0] = p[2 * h];
    pads[1] = p[2 * h + 1];
    pads[2] = p[2 * w];
    pads[3] = p[2 * w + 1];
  } else {
    pads[0] = pads[1] = pads[2] = pads[3] = 0;
  }
}

/* NHWC-order dims of a rank-4 static shape (all -1 when the rank is unknown). */
static void nhwc_dims(const mt_shape* s, int nchw, int64_t d[4]) {
  if (s->rank != 4) {
    d[0] = d[1] = d[2] = d[3] = -1;
    return;
  }
  d[0] = s->dims[0];
  d[1] = s->dims[nchw ? 2 : 1];
  d[2] = s->dims[nchw ? 3 : 2];
  d[3] = s->dims[nchw ? 1 : 3];
}

static mt_shape make_out_shape(int nchw, int64_t n, int64_t h, int64_t w, int64_t c) {
  mt_shape o;
  o.rank = 4;
  o.dims[0] = n;
  o.dims[nchw ? 2 : 1] = h;
  o.dims[nchw ? 3 : 2] = w;
  o.dims[nchw ? 1 : 3] = c;
  return o;
}

/* Output spatial sizes and pads from the attrs; shape_msg selects the
 * static-shape wording of errors. */
static int spatial_out(const TF_Operation* op, conv_geom* g, int shape_msg, TF_Status* s) {
  const int mode = mt_padding_mode(op);
  int64_t pads[4];
  explicit_pads(op, g->nchw, pads);
  return mt_windowed_size(g->ih, g->kh, g->dh, g->sh, mode, pads[0], pads[1], shape_msg, &g->oh,
                          &g->pt, s) &&
         mt_windowed_size(g->iw, g->kw, g->dw, g->sw, mode, pads[2], pads[3], shape_msg, &g->ow,
                          &g->pl, s);
}

/* ---- shape functions ---- */

/* Common part of Conv2D/Depthwise shape functions: ranks, attrs, geometry
 * from the static shapes (unknown dims are -1). */
static int conv_shape_common(mt_shape_ctx* ctx, const char* what, int depthwise, conv_geom* g) {
  memset(g, 0, sizeof *g);
  g->nchw = mt_is_nchw(ctx->op);
  if (!check_attr_lengths(ctx->op, what, g->nchw, depthwise, ctx->status)) return 0;
  if (!mt_shape_with_rank(ctx, 0, 4) || !mt_shape_with_rank(ctx, 1, 4)) return 0;
  const int mode = mt_padding_mode(ctx->op);
  if (!mt_check_explicit_paddings(ctx->op, mode, g->nchw ? 2 : 1, g->nchw ? 3 : 2, ctx->status))
    return 0;
  spatial_attrs(ctx->op, g->nchw, g);
  int64_t d[4];
  nhwc_dims(&ctx->in[0], g->nchw, d);
  g->n = d[0], g->ih = d[1], g->iw = d[2], g->ic = d[3];
  const mt_shape* f = &ctx->in[1];
  const int fk = f->rank == 4;
  g->kh = fk ? f->dims[0] : -1;
  g->kw = fk ? f->dims[1] : -1;
  g->kic = fk ? f->dims[2] : -1;
  g->oc = fk ? f->dims[3] : -1;
  return 1;
}

/* Output size of a spatial dim when the filter size may be unknown. */
static int shape_spatial(mt_shape_ctx* ctx, conv_geom* g) {
  conv_geom t = *g;
  /* SAME output sizes do not depend on the filter size */
  const int same = mt_padding_mode(ctx->op) == MT_PAD_SAME;
  if (t.kh < 0) t.ih = same ? t.ih : -1, t.kh = 1;
  if (t.kw < 0) t.iw = same ? t.iw : -1, t.kw = 1;
  if (!spatial_out(ctx->op, &t, 1, ctx->status)) return 0;
  g->oh = t.oh;
  g->ow = t.ow;
  return 1;
}

static void conv2d_shape(mt_shape_ctx* ctx) {
  conv_geom g;
  if (!conv_shape_common(ctx, "Conv2D", 0, &g)) return;
  if (g.kic == 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Depth of filter must not be 0");
    return;
  }
  if (g.ic >= 0 && g.kic > 0) {
    if (g.ic % g.kic != 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Depth of input (%lld) is not a multiple of input depth of filter (%lld)",
                     (long long)g.ic, (long long)g.kic);
      return;
    }
    const int64_t groups = g.ic / g.kic;
    if (g.oc >= 0 && groups > 0 && g.oc % groups != 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Depth of output (%lld) is not a multiple of the number of groups (%lld)",
                     (long long)g.oc, (long long)groups);
      return;
    }
  }
  if (!shape_spatial(ctx, &g)) return;
  ctx->out[0] = make_out_shape(g.nchw, g.n, g.oh, g.ow, g.oc);
}

static void depthwise_shape(mt_shape_ctx* ctx) {
  conv_geom g;
  if (!conv_shape_common(ctx, "DepthwiseConv2D", 1, &g)) return;
  /* TensorFlow merges the input depth with the filter's in-channels. */
  int64_t ic;
  if (!mt_merge_dim(ctx, g.ic, g.kic, &ic)) return;
  if (!shape_spatial(ctx, &g)) return;
  const int64_t oc = ic >= 0 && g.oc >= 0 ? ic * g.oc : -1;
  ctx->out[0] = make_out_shape(g.nchw, g.n, g.oh, g.ow, oc);
}

static void backprop_input_shape(mt_shape_ctx* ctx) {
  const int nchw = mt_is_nchw(ctx->op);
  if (!check_attr_lengths(ctx->op, "Conv2DBackpropInput", nchw, 0, ctx->status)) return;
  if (!mt_shape_with_rank(ctx, 0, 1) || !mt_shape_with_rank(ctx, 1, 4) ||
      !mt_shape_with_rank(ctx, 2, 4))
    return;
  const int mode = mt_padding_mode(ctx->op);
  if (!mt_check_explicit_paddings(ctx->op, mode, nchw ? 2 : 1, nchw ? 3 : 2, ctx->status)) return;
  int64_t nsizes = ctx->in[0].rank == 1 ? ctx->in[0].dims[0] : -1;
  if (nsizes >= 0 && nsizes != 4 && nsizes != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Conv2DBackpropInput requires input_sizes to contain 4 values or 2 values, "
                   "but got: %lld", (long long)nsizes);
    return;
  }
  int64_t dy[4];
  nhwc_dims(&ctx->in[2], nchw, dy);
  const mt_shape* f = &ctx->in[1];
  int64_t oc;
  if (!mt_merge_dim(ctx, dy[3], f->rank == 4 ? f->dims[3] : -1, &oc)) return;
  int64_t v[4];
  const int nv = mt_shape_input_as_ints(ctx, 0, v, 4);
  if (nv == 4) {
    for (int i = 0; i < 4; i++) ctx->out[0].dims[i] = v[i] < 0 ? -1 : v[i];
    ctx->out[0].rank = 4;
  } else if (nv == 2 || nsizes == 2) {
    ctx->out[0] = make_out_shape(nchw, dy[0], nv == 2 && v[0] >= 0 ? v[0] : -1,
                                 nv == 2 && v[1] >= 0 ? v[1] : -1, f->rank == 4 ? f->dims[2] : -1);
  } else {
    ctx->out[0] = make_out_shape(nchw, -1, -1, -1, -1);
  }
}

/* ---- work buffers ---- */

static TF_DataType work_type(TF_DataType dt) {
  return mt_is_half_type(dt) ? TF_FLOAT : dt;
}

/* Tensor data as NHWC in the work type. *owned receives a buffer to free
 * (NULL when the tensor's own data is used). NULL + status on OOM. */
static const void* to_work(mt_kernel_ctx* ctx, const TF_Tensor* t, int transpose, void** owned) {
  const int64_t n = mt_tensor_nelems(t);
  const void* data = mt_tensor_data(t);
  const TF_DataType wt = work_type(t->dtype);
  const size_t es = TF_DataTypeSize(wt);
  void* conv = NULL;
  *owned = NULL;
  if (mt_is_half_type(t->dtype)) {
    conv = mt_scratch((size_t)n * es, ctx->status);
    if (!conv) return NULL;
    mt_to_float(t->dtype, data, conv, n);
    data = conv;
  }
  if (transpose) {
    void* tr = mt_scratch((size_t)n * es, ctx->status);
    if (!tr) {
      free(conv);
      return NULL;
    }
    mt_transpose_last2(data, tr, t->dims[0], t->dims[1], t->dims[2] * t->dims[3], es);
    free(conv);
    conv = tr;
    data = tr;
  }
  *owned = conv;
  return data;
}

/* Where the kernel writes its NHWC work-type result: the output tensor
 * itself when no conversion is needed, else a scratch buffer. */
static void* out_work(mt_kernel_ctx* ctx, TF_Tensor* out, int nchw, void** owned) {
  *owned = NULL;
  if (!nchw && !mt_is_half_type(out->dtype)) return mt_tensor_data(out);
  const size_t es = TF_DataTypeSize(work_type(out->dtype));
  *owned = mt_scratch((size_t)mt_tensor_nelems(out) * es, ctx->status);
  return *owned;
}

/* Moves an NHWC work result into `out` (NCHW and/or half). */
static int finish_out(mt_kernel_ctx* ctx, TF_Tensor* out, int nchw, void* work) {
  if (!work || work == mt_tensor_data(out)) return 1;
  const int64_t n = mt_tensor_nelems(out);
  const size_t es = TF_DataTypeSize(work_type(out->dtype));
  const int half = mt_is_half_type(out->dtype);
  void* src = work;
  void* tmp = NULL;
  if (nchw) {
    void* dst = mt_tensor_data(out);
    if (half) {
      tmp = mt_scratch((size_t)n * es, ctx->status);
      if (!tmp) return 0;
      dst = tmp;
    }
    /* out dims [N, C, H, W]: NHWC is [N, H*W, C] */
    mt_transpose_last2(work, dst, out->dims[0], out->dims[2] * out->dims[3], out->dims[1], es);
    src = dst;
  }
  if (half) mt_from_float(out->dtype, src, mt_tensor_data(out), n);
  free(tmp);
  return 1;
}

/* ---- GEMM on the work type ---- */

/* c[m, n] = a[m, k] * (tb ? b[n, k]^T : b[k, n]), row-major with leading
 * dimensions. int32 wraps like TensorFlow's (two's complement). */
static void gemm(TF_DataType wt, int tb, int64_t m, int64_t n, int64_t k, const void* a,
                 int64_t lda, const void* b, int64_t ldb, void* c, int64_t ldc) {
  if (m == 0 || n == 0) return;
  const enum CBLAS_TRANSPOSE tr = tb ? CblasTrans : CblasNoTrans;
  if (wt == TF_FLOAT) {
    scipy_cblas_sgemm(CblasRowMajor, CblasNoTrans, tr, (int)m, (int)n, (int)k, 1.0f, a, (int)lda,
                      b, (int)ldb, 0.0f, c, (int)ldc);
  } else if (wt == TF_DOUBLE) {
    scipy_cblas_dgemm(CblasRowMajor, CblasNoTrans, tr, (int)m, (int)n, (int)k, 1.0, a, (int)lda,
                      b, (int)ldb, 0.0, c, (int)ldc);
  } else {
    const uint32_t* A = a;
    const uint32_t* B = b;
    uint32_t* C = c;
    for (int64_t i = 0; i < m; i++) {
      uint32_t* ci = C + i * ldc;
      for (int64_t j = 0; j < n; j++) ci[j] = 0;
      for (int64_t p = 0; p < k; p++) {
        const uint32_t av = A[i * lda + p];
        if (tb)
          for (int64_t j = 0; j < n; j++) ci[j] += av * B[j * ldb + p];
        else
          for (int64_t j = 0; j < n; j++) ci[j] += av * B[p * ldb + j];
      }
    }
  }
}

/* ---- im2col / col2im ---- */

typedef struct col_task {
  const conv_geom* g;
  const char* x; /* im2col source */
  char* dx;      /* col2im destination */
  char* col;
  size_t es;
  int64_t row0, c0, cg, k;
  TF_DataType wt;
} col_task;

/* Rows [b, e) of the tile: patch of output pixel row0 + r, channels
 * [c0, c0 + cg) of each window position; zeros where the window is in the
 * padding. */
static void im2col_rows(int64_t b, int64_t e, void* arg) {
  const col_task* t = arg;
  const conv_geom* g = t->g;
  const size_t es = t->es, run = (size_t)t->cg * es;
  for (int64_t r = b; r < e; r++) {
    const int64_t row = t->row0 + r;
    const int64_t img = row / (g->oh * g->ow), rem = row % (g->oh * g->ow);
    const int64_t oy = rem / g->ow, ox = rem % g->ow;
    char* dst = t->col + (size_t)(r * t->k) * es;
    for (int64_t ky = 0; ky < g->kh; ky++) {
      const int64_t iy = oy * g->sh - g->pt + ky * g->dh;
      if (iy < 0 || iy >= g->ih) {
        memset(dst, 0, run * (size_t)g->kw);
        dst += run * (size_t)g->kw;
        continue;
      }
      for (int64_t kx = 0; kx < g->kw; kx++, dst += run) {
        const int64_t ix = ox * g->sw - g->pl + kx * g->dw;
        if (ix < 0 || ix >= g->iw) {
          memset(dst, 0, run);
          continue;
        }
        const char* src = t->x + (size_t)(((img * g->ih + iy) * g->iw + ix) * g->ic + t->c0) * es;
        if (es == 4 && t->cg < 8) { /* tiny runs (first layers): skip memcpy calls */
          for (int64_t c = 0; c < t->cg; c++) ((uint32_t*)dst)[c] = ((const uint32_t*)src)[c];
        } else {
          memcpy(dst, src, run);
        }
      }
    }
  }
}

/* Adds the tile's patch rows back into dx (the transpose of im2col).
 * Serial: windows of neighbouring pixels overlap. */
#define COL2IM_(CT, ADD)                                                                  \
  static void col2im_##CT(const col_task* t, int64_t rows) {                              \
    const conv_geom* g = t->g;                                                            \
    CT* dx = (CT*)t->dx;                                                                  \
    for (int64_t r = 0; r < rows; r++) {                                                  \
      const int64_t row = t->row0 + r;                                                    \
      const int64_t img = row / (g->oh * g->ow), rem = row % (g->oh * g->ow);             \
      const int64_t oy = rem / g->ow, ox = rem % g->ow;                                   \
      const CT* src = (const CT*)t->col + r * t->k;                                       \
      for (int64_t ky = 0; ky < g->kh; ky++) {                                            \
        const int64_t iy = oy * g->sh - g->pt + ky * g->dh;                               \
        for (int64_t kx = 0; kx < g->kw; kx++, src += t->cg) {                            \
          const int64_t ix = ox * g->sw - g->pl + kx * g->dw;                             \
          if (iy < 0 || iy >= g->ih || ix < 0 || ix >= g->iw) continue;                   \
          CT* dst = dx + ((img * g->ih + iy) * g->iw + ix) * g->ic + t->c0;               \
          for (int64_t c = 0; c < t->cg; c++) dst[c] = ADD(dst[c], src[c]);               \
        }                                                                                 \
      }                                                                                   \
    }                                                                                     \
  }
#define PLAIN_ADD_(a, b) ((a) + (b))
#define WRAP_ADD_(a, b) ((uint32_t)(a) + (uint32_t)(b))
COL2IM_(float, PLAIN_ADD_)
COL2IM_(double, PLAIN_ADD_)
COL2IM_(uint32_t, WRAP_ADD_)

static void col2im(const col_task* t, int64_t rows) {
  if (t->wt == TF_FLOAT) col2im_float(t, rows);
  else if (t->wt == TF_DOUBLE) col2im_double(t, rows);
  else col2im_uint32_t(t, rows);
}

static int64_t tile_rows(int64_t k, int64_t total) {
  int64_t r = CONV_TILE_ELEMS / (k > 0 ? k : 1);
  if (r < 1) r = 1;
  return r < total ? r : total;
}

/* GEMM dims go to BLAS as int. */
static int check_gemm_dims(mt_kernel_ctx* ctx, int64_t k, int64_t n) {
  if (k > INT_MAX / 2 || n > INT_MAX / 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Convolution too large: patch size %lld, channels %lld", (long long)k,
                   (long long)n);
    return 0;
  }
  return 1;
}

/* OpenBLAS's own threads sync badly on a busy machine for the many
 * medium-sized GEMMs of a tiled conv (measured: 2 threads 6x slower than 1
 * on 3640x288x64 tiles), so conv tiles run one single-threaded GEMM each,
 * spread over the intra-op pool. The thread count is process-global in
 * OpenBLAS: set around the parallel region and restored (a concurrent
 * kernel may briefly see 1 thread: slower, never wrong). */
int scipy_openblas_get_num_threads(void);
void scipy_openblas_set_num_threads(int);

typedef struct fwd_task {
  mt_kernel_ctx* ctx;
  const conv_geom* g;
  TF_DataType wt;
  const void* x;
  const void* f;
  void* y;
  int64_t step, total, k;
  int direct; /* x rows are the patches (1x1 / whole-image window) */
  atomic_int oom;
} fwd_task;

/* Tiles [b, e) of `step` output rows: im2col per group, then GEMM. */
static void fwd_tiles(int64_t b, int64_t e, void* arg) {
  fwd_task* ft = arg;
  const conv_geom* g = ft->g;
  const size_t es = TF_DataTypeSize(ft->wt);
  const int64_t cg = g->kic, ocg = g->oc / g->groups, k = ft->k;
  char* col = NULL;
  if (!ft->direct) {
    col = malloc((size_t)(ft->step * k) * es);
    if (!col) {
      atomic_store(&ft->oom, 1);
      return;
    }
  }
  col_task t = {g, ft->x, NULL, col, es, 0, 0, cg, k, ft->wt};
  for (int64_t tile = b; tile < e; tile++) {
    const int64_t r = tile * ft->step;
    const int64_t rows = ft->total - r < ft->step ? ft->total - r : ft->step;
    for (int64_t grp = 0; grp < g->groups; grp++) {
      const void* a = (const char*)ft->x + (size_t)(r * k) * es;
      if (!ft->direct) {
        t.row0 = r;
        t.c0 = grp * cg;
        im2col_rows(0, rows, &t);
        a = col;
      }
      gemm(ft->wt, 0, rows, ocg, k, a, k, (const char*)ft->f + (size_t)(grp * ocg) * es, g->oc,
           (char*)ft->y + (size_t)(r * g->oc + grp * ocg) * es, g->oc);
    }
  }
  free(col);
}

/* y[N*OH*OW, OC] = patches(x) * filter, per group. */
static int conv_forward(mt_kernel_ctx* ctx, const conv_geom* g, TF_DataType wt, const void* x,
                        const void* f, void* y) {
  const int64_t k = g->kh * g->kw * g->kic;
  if (!check_gemm_dims(ctx, k, g->oc)) return 0;
  const int unpadded = g->pt == 0 && g->pl == 0;
  const int one_by_one = g->kh == 1 && g->kw == 1 && g->sh == 1 && g->sw == 1;
  const int whole = g->kh == g->ih && g->kw == g->iw && g->oh == 1 && g->ow == 1;
  fwd_task ft = {ctx, g, wt, x, f, y, 0, g->n * g->oh * g->ow, k, 0, 0};
  ft.direct = g->groups == 1 && unpadded && (one_by_one || whole);
  /* at least one tile per thread; the patch tile bounded by CONV_TILE_ELEMS */
  int threads = ctx->intra_threads > 0 ? ctx->intra_threads : 2;
  ft.step = tile_rows(k, ft.total);
  const int64_t per_thread = (ft.total + threads - 1) / threads;
  if (per_thread > 0 && ft.step > per_thread) ft.step = per_thread;
  if (ft.step > INT_MAX / 2) ft.step = INT_MAX / 2;
  const int64_t ntiles = (ft.total + ft.step - 1) / ft.step;
  const int blas_threads = wt == TF_INT32 ? 1 : scipy_openblas_get_num_threads();
  if (blas_threads > 1 && ntiles > 1) scipy_openblas_set_num_threads(1);
  mt_parallel_for(ctx, ntiles, 2 * ft.step * k * (g->oc / g->groups), fwd_tiles, &ft);
  if (blas_threads > 1 && ntiles > 1) scipy_openblas_set_num_threads(blas_threads);
  if (atomic_load(&ft.oom)) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM allocating the im2col buffer");
    return 0;
  }
  return 1;
}

/* dx (zeroed, NHWC) += col2im(dy * filter^T), per group. */
static int conv_backward_input(mt_kernel_ctx* ctx, const conv_geom* g, TF_DataType wt,
                               const void* dy, const void* f, void* dx) {
  const size_t es = TF_DataTypeSize(wt);
  const int64_t cg = g->kic, ocg = g->oc / g->groups, k = g->kh * g->kw * cg;
  const int64_t total = g->n * g->oh * g->ow;
  memset(dx, 0, (size_t)(g->n * g->ih * g->iw * g->ic) * es);
  if (!check_gemm_dims(ctx, k, g->oc)) return 0;
  const int64_t step = tile_rows(k, total);
  char* col = mt_scratch((size_t)(step * k) * es, ctx->status);
  if (!col) return 0;
  col_task t = {g, NULL, dx, col, es, 0, 0, cg, k, wt};
  for (int64_t r = 0; r < total; r += step) {
    const int64_t rows = total - r < step ? total - r : step;
    for (int64_t grp = 0; grp < g->groups; grp++) {
      gemm(wt, 1, rows, k, ocg, (const char*)dy + (size_t)(r * g->oc + grp * ocg) * es, g->oc,
           (const char*)f + (size_t)(grp * ocg) * es, g->oc, col, k);
      t.row0 = r;
      t.c0 = grp * cg;
      col2im(&t, rows);
    }
  }
  free(col);
  return 1;
}

/* ---- depthwise ---- */

typedef struct dw_task {
  const conv_geom* g;
  const void* x;
  const void* f;
  void* y;
  int64_t mult;
} dw_task;

/* Output rows [b, e) of (image, oy): each output pixel accumulates
 * x[c] * f[ky, kx, c, m] into y[c * mult + m]. */
#define DW_ROWS_(CT)                                                                      \
  static void dw_rows_##CT(int64_t b, int64_t e, void* arg) {                             \
    const dw_task* t = arg;                                                               \
    const conv_geom* g = t->g;                                                            \
    const CT* x = t->x;                                                                   \
    const CT* f = t->f;                                                                   \
    const int64_t c = g->ic, m = t->mult, oc = c * m;                                     \
    for (int64_t row = b; row < e; row++) {                                               \
      const int64_t img = row / g->oh, oy = row % g->oh;                                  \
      CT* yr = (CT*)t->y + row * g->ow * oc;                                              \
      for (int64_t ox = 0; ox < g->ow; ox++) {                                            \
        CT* out = yr + ox * oc;                                                           \
        for (int64_t j = 0; j < oc; j++) out[j] = 0;                                      \
        for (int64_t ky = 0; ky < g->kh; ky++) {                                          \
          const int64_t iy = oy * g->sh - g->pt + ky * g->dh;                             \
          if (iy < 0 || iy >= g->ih) continue;                                            \
          for (int64_t kx = 0; kx < g->kw; kx++) {                                        \
            const int64_t ix = ox * g->sw - g->pl + kx * g->dw;                           \
            if (ix < 0 || ix >= g->iw) continue;                                          \
            const CT* xin = x + ((img * g->ih + iy) * g->iw + ix) * c;                    \
            const CT* fk = f + (ky * g->kw + kx) * oc;                                    \
            if (m == 1) {                                                                 \
              for (int64_t j = 0; j < c; j++) out[j] += xin[j] * fk[j];                   \
            } else {                                                                      \
              for (int64_t j = 0; j < c; j++)                                             \
                for (int64_t q = 0; q < m; q++) out[j * m + q] += xin[j] * fk[j * m + q]; \
            }                                                                             \
          }                                                                               \
        }                                                                                 \
      }                                                                                   \
    }                                                                                     \
  }
DW_ROWS_(float)
DW_ROWS_(double)

/* ---- kernels ---- */

static int supported(mt_kernel_ctx* ctx, TF_DataType dt, int allow_int32) {
  if (dt == TF_FLOAT || dt == TF_DOUBLE || dt == TF_HALF || dt == TF_BFLOAT16 ||
      (allow_int32 && dt == TF_INT32))
    return 1;
  mt_kernel_unsupported(ctx, "T", dt);
  return 0;
}

/* Geometry from the run-time tensors (input NHWC-ordered dims from x). */
static void geom_from_tensors(conv_geom* g, const TF_Operation* op, const TF_Tensor* x,
                              const TF_Tensor* f) {
  memset(g, 0, sizeof *g);
  g->nchw = mt_is_nchw(op);
  spatial_attrs(op, g->nchw, g);
  g->n = x->dims[0];
  g->ih = x->dims[g->nchw ? 2 : 1];
  g->iw = x->dims[g->nchw ? 3 : 2];
  g->ic = x->dims[g->nchw ? 1 : 3];
  g->kh = f->dims[0];
  g->kw = f->dims[1];
  g->kic = f->dims[2];
  g->oc = f->dims[3];
}

static int check_rank4(mt_kernel_ctx* ctx, const TF_Tensor* t, const char* what) {
  if (t->ndims == 4) return 1;
  char b[256];
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s must be 4-dimensional: %s", what,
                 mt_dims_str(t->dims, t->ndims, b, sizeof b));
  return 0;
}

/* Attr and rank checks common to the forward kernels. */
static int conv_kernel_setup(mt_kernel_ctx* ctx, const char* what, int depthwise, conv_geom* g) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_Tensor* f = ctx->inputs[1];
  const int nchw = mt_is_nchw(ctx->op);
  if (!check_attr_lengths(ctx->op, what, nchw, depthwise, ctx->status) ||
      !check_batch_depth_attrs(ctx, nchw) ||
      !mt_check_explicit_paddings(ctx->op, mt_padding_mode(ctx->op), nchw ? 2 : 1, nchw ? 3 : 2,
                                  ctx->status) ||
      !check_rank4(ctx, x, "input") || !check_rank4(ctx, f, "filter"))
    return 0;
  geom_from_tensors(g, ctx->op, x, f);
  return spatial_out(ctx->op, g, 0, ctx->status);
}

static void conv2d_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_Tensor* f = ctx->inputs[1];
  conv_geom g;
  if (!supported(ctx, x->dtype, 1) || !conv_kernel_setup(ctx, "Conv2D", 0, &g)) return;
  if (mt_tensor_nelems(f) == 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "filter must not have zero elements (i.e. all dimensions must be non-zero)");
    return;
  }
  if (g.ic < g.kic || g.ic % g.kic != 0 || g.oc % (g.ic / g.kic) != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "input depth must be evenly divisible by filter depth: %lld vs %lld",
                   (long long)g.ic, (long long)g.kic);
    return;
  }
  g.groups = g.ic / g.kic;
  const mt_shape os = make_out_shape(g.nchw, g.n, g.oh, g.ow, g.oc);
  TF_Tensor* y = mt_ctx_alloc(ctx, 0, x->dtype, os.dims, 4);
  if (!y || mt_tensor_nelems(y) == 0) return;
  void *xo, *fo, *yo;
  const void* xw = to_work(ctx, x, g.nchw, &xo);
  const void* fw = xw ? to_work(ctx, f, 0, &fo) : NULL;
  void* yw = fw ? out_work(ctx, y, g.nchw, &yo) : NULL;
  if (yw && conv_forward(ctx, &g, work_type(x->dtype), xw, fw, yw))
    finish_out(ctx, y, g.nchw, yw);
  if (xw) free(xo);
  if (fw) free(fo);
  if (yw) free(yo);
}

static void depthwise_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_Tensor* f = ctx->inputs[1];
  conv_geom g;
  if (!supported(ctx, x->dtype, 0) ||
      !conv_kernel_setup(ctx, "DepthwiseConv2D", 1, &g))
    return;
  if (g.ic != g.kic) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "input and filter must have the same depth: %lld vs %lld", (long long)g.ic,
                   (long long)g.kic);
    return;
  }
  const int64_t mult = g.oc;
  const mt_shape os = make_out_shape(g.nchw, g.n, g.oh, g.ow, g.ic * mult);
  TF_Tensor* y = mt_ctx_alloc(ctx, 0, x->dtype, os.dims, 4);
  if (!y || mt_tensor_nelems(y) == 0) return;
  void *xo, *fo, *yo;
  const void* xw = to_work(ctx, x, g.nchw, &xo);
  const void* fw = xw ? to_work(ctx, f, 0, &fo) : NULL;
  void* yw = fw ? out_work(ctx, y, g.nchw, &yo) : NULL;
  if (yw) {
    dw_task t = {&g, xw, fw, yw, mult};
    const int64_t cost = g.ow * g.kh * g.kw * g.ic * mult;
    mt_parallel_for(ctx, g.n * g.oh, cost, x->dtype == TF_DOUBLE ? dw_rows_double : dw_rows_float,
                    &t);
    finish_out(ctx, y, g.nchw, yw);
  }
  if (xw) free(xo);
  if (fw) free(fo);
  if (yw) free(yo);
}

/* Conv2DBackpropInput's checks (TensorFlow's ConvBackpropComputeDimensions
 * wording); fills g with the input geometry from input_sizes. */
static int backprop_setup(mt_kernel_ctx* ctx, conv_geom* g) {
  const TF_Tensor* sizes = ctx->inputs[0];
  const TF_Tensor* f = ctx->inputs[1];
  const TF_Tensor* dy = ctx->inputs[2];
  const int nchw = mt_is_nchw(ctx->op);
  char b[256];
  if (!check_attr_lengths(ctx->op, "Conv2DBackpropInput", nchw, 0, ctx->status) ||
      !check_batch_depth_attrs(ctx, nchw) ||
      !mt_check_explicit_paddings(ctx->op, mt_padding_mode(ctx->op), nchw ? 2 : 1, nchw ? 3 : 2,
                                  ctx->status))
    return 0;
  if (sizes->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Conv2DBackpropInput: input_sizes input must be 1-dim, not %d", sizes->ndims);
    return 0;
  }
  int64_t v[4];
  const int64_t nv = sizes->dims[0];
  if (nv != 4 && nv != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Conv2DBackpropInput requires input_sizes to contain 4 values or 2 values, "
                   "but got: %lld", (long long)nv);
    return 0;
  }
  if (!check_rank4(ctx, f, "filter") || !check_rank4(ctx, dy, "out_backprop")) return 0;
  mt_tensor_ints(sizes, v, 4);
  int64_t full[4];
  if (nv == 4) {
    memcpy(full, v, sizeof full);
  } else {
    const mt_shape s = make_out_shape(nchw, dy->dims[0], v[0], v[1], f->dims[2]);
    memcpy(full, s.dims, sizeof full);
  }
  for (int i = 0; i < 4; i++)
    if (full[i] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension %d must be >= 0, but got %lld",
                     i, (long long)full[i]);
      return 0;
    }
  TF_Tensor fake = {0};
  fake.ndims = 4;
  memcpy(fake.dims, full, sizeof full);
  geom_from_tensors(g, ctx->op, &fake, f);
  const int64_t dyn = dy->dims[0], dyc = dy->dims[nchw ? 1 : 3];
  if (g->n != dyn) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Conv2DBackpropInput: input and out_backprop must have the same batch size, "
                   "input batch: %lld outbackprop batch: %lld batch_dim: 0",
                   (long long)g->n, (long long)dyn);
    return 0;
  }
  if (g->kic <= 0 || g->ic < g->kic || g->ic % g->kic != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "input depth must be evenly divisible by filter depth: %lld vs %lld",
                   (long long)g->ic, (long long)g->kic);
    return 0;
  }
  g->groups = g->ic / g->kic;
  if (g->oc != dyc || g->oc % g->groups != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Conv2DBackpropInput: filter and out_backprop must have the same out_depth");
    return 0;
  }
  if (!spatial_out(ctx->op, g, 0, ctx->status)) return 0;
  const int64_t got[2] = {dy->dims[nchw ? 2 : 1], dy->dims[nchw ? 3 : 2]};
  const int64_t want[2] = {g->oh, g->ow}, in[2] = {g->ih, g->iw}, k[2] = {g->kh, g->kw};
  const int64_t st[2] = {g->sh, g->sw}, dil[2] = {g->dh, g->dw};
  for (int i = 0; i < 2; i++)
    if (got[i] != want[i]) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Conv2DCustomBackpropInput: Size of out_backprop doesn't match computed: "
                     "actual = %lld, computed = %lld spatial_dim: %d input: %lld filter: %lld "
                     "output: %lld stride: %lld dilation: %lld",
                     (long long)got[i], (long long)want[i], (nchw ? 2 : 1) + i, (long long)in[i],
                     (long long)k[i], (long long)got[i], (long long)st[i], (long long)dil[i]);
      return 0;
    }
  (void)b;
  return 1;
}

static void backprop_input_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* f = ctx->inputs[1];
  const TF_Tensor* dy = ctx->inputs[2];
  conv_geom g;
  if (!supported(ctx, f->dtype, 1) || !backprop_setup(ctx, &g)) return;
  const mt_shape os = make_out_shape(g.nchw, g.n, g.ih, g.iw, g.ic);
  TF_Tensor* dx = mt_ctx_alloc(ctx, 0, f->dtype, os.dims, 4);
  if (!dx || mt_tensor_nelems(dx) == 0) return;
  const TF_DataType wt = work_type(f->dtype);
  void *dyo, *fo, *dxo;
  const void* dyw = to_work(ctx, dy, g.nchw, &dyo);
  const void* fw = dyw ? to_work(ctx, f, 0, &fo) : NULL;
  void* dxw = fw ? out_work(ctx, dx, g.nchw, &dxo) : NULL;
  if (dxw && conv_backward_input(ctx, &g, wt, dyw, fw, dxw)) finish_out(ctx, dx, g.nchw, dxw);
  if (dyw) free(dyo);
  if (fw) free(fo);
  if (dxw) free(dxo);
}

static const mt_op_spec conv_specs[] = {
    {.name = "Conv2D", .inputs = "input: T, filter: T", .outputs = "output: T",
     .attrs = "T: {half, bfloat16, float, double, int32}; strides: list(int);"
              " use_cudnn_on_gpu: bool = true; padding: {'SAME', 'VALID', 'EXPLICIT'};"
              " explicit_paddings: list(int) = []; data_format: {'NHWC', 'NCHW'} = 'NHWC';"
              " dilations: list(int) = [1, 1, 1, 1]",
     .shape = conv2d_shape, .kernel = conv2d_kernel},
    {.name = "DepthwiseConv2dNative", .inputs = "input: T, filter: T", .outputs = "output: T",
     .attrs = "T: {half, bfloat16, float, double}; strides: list(int);"
              " padding: {'SAME', 'VALID', 'EXPLICIT'}; explicit_paddings: list(int) = [];"
              " data_format: {'NHWC', 'NCHW'} = 'NHWC'; dilations: list(int) = [1, 1, 1, 1]",
     .shape = depthwise_shape, .kernel = depthwise_kernel},
    {.name = "Conv2DBackpropInput", .inputs = "input_sizes: int32, filter: T, out_backprop: T",
     .outputs = "output: T",
     .attrs = "T: {half, bfloat16, float, double, int32}; strides: list(int);"
              " use_cudnn_on_gpu: bool = true; padding: {'SAME', 'VALID', 'EXPLICIT'};"
              " explicit_paddings: list(int) = []; data_format: {'NHWC', 'NCHW'} = 'NHWC';"
              " dilations: list(int) = [1, 1, 1, 1]",
     .shape = backprop_input_shape, .kernel = backprop_input_kernel},
};

void mt_register_conv_ops(void) {
  mt_register_ops(conv_specs, (int)(sizeof conv_specs / sizeof conv_specs[0]));
}
