/* Convolutions: Conv2D, DepthwiseConv2dNative and their backward ops
 * Conv2DBackpropInput, Conv2DBackpropFilter,
 * DepthwiseConv2dNativeBackpropInput, DepthwiseConv2dNativeBackpropFilter.
 * Signatures, shape functions and CPU dtypes are TensorFlow's (nn_ops.cc,
 * common_shape_fns.cc, conv_ops.cc, depthwise_conv_op.cc,
 * conv_grad_input_ops.cc, conv_grad_filter_ops.cc).
 *
 * Kernels compute in NHWC on a "work type": float (for float, half and
 * bfloat16, which are converted once), double or int32. NCHW tensors are
 * transposed to NHWC and back. Conv2D and its input gradient are
 * im2col/col2im + GEMM (BLAS for double and transposed products, an
 * AVX-512 kernel of our own for float forward tiles where the CPU has it)
 * tiled over output rows so the patch matrix stays small; the filter
 * gradient is im2col + GEMM too (patches^T * out_backprop, summed over
 * tiles). A 1x1 stride-1 unpadded conv and a conv whose window covers the
 * whole input use the input as the patch matrix directly. Depthwise
 * convolution and its gradients are direct loops over channels, rows shared
 * out over the intra-op threads. */
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

/* Patch-matrix tile, in elements: 512 KiB of floats stays in a core's L2
 * between im2col writing it and the GEMM reading it (measured: OpenBLAS's
 * single-threaded sgemm runs as fast at 128 rows as at 4096 for these
 * shapes), and makes enough tiles for the threads to share out on a busy
 * machine. At least CONV_TILE_MIN_ROWS rows for big patches, while the tile
 * stays under CONV_TILE_MAX_ELEMS (16 MiB of floats). */
#define CONV_TILE_ELEMS ((int64_t)1 << 17)
#define CONV_TILE_MIN_ROWS 64
#define CONV_TILE_MAX_ELEMS ((int64_t)1 << 22)

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

/* The shape a sizes input (filter_sizes, input_sizes) holds, of rank 4
 * (TensorFlow's MakeShapeFromShapeTensor + WithRank(4)). */
static void shape_from_sizes(mt_shape_ctx* ctx, int idx) {
  mt_shape s;
  if (!mt_shape_with_rank(ctx, idx, 1)) return;
  if (!mt_shape_input_as_shape(ctx, idx, &s)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input %d is not a shape", idx);
    return;
  }
  if (s.rank >= 0 && s.rank != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be rank 4 but is rank %d",
                   s.rank);
    return;
  }
  if (s.rank < 0) {
    s.rank = 4;
    for (int d = 0; d < 4; d++) s.dims[d] = -1;
  }
  ctx->out[0] = s;
}

static void backprop_filter_shape(mt_shape_ctx* ctx) { shape_from_sizes(ctx, 1); }
static void dw_backprop_input_shape(mt_shape_ctx* ctx) { shape_from_sizes(ctx, 0); }

/* ---- GEMM on the work type ---- */

/* An AVX-512 float GEMM for the conv tiles (c = a * b, row-major, b not
 * transposed). OpenBLAS may run its AVX2 kernels on an AVX-512 CPU (it
 * honours OPENBLAS_CORETYPE, which this machine's environment pins to
 * Haswell), at half the speed TensorFlow's oneDNN convolutions get there;
 * these register-blocked kernels close most of that gap. Blocks of 6 rows
 * x 64 columns: 24 accumulators, 4 vectors of a row of b and a broadcast
 * element of a per step of k (31 of the 32 registers); a partial last
 * column block loads and stores through a mask. Sums run over k in order
 * with fused multiply-adds, as OpenBLAS's and oneDNN's kernels do. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#include <immintrin.h>
#define CONV_HAVE_AVX512 1
/* Accumulators are named variables, not an array: GCC keeps an array of
 * __m512 in memory and stores every accumulator on every step of k. Rows i
 * >= MR and vectors v >= NV are dead code the compiler removes. */
#define SG_LOAD_(v, MR, NV)                                                                \
  const __m512 b##v = NV > v + 1 ? _mm512_loadu_ps(bp + 16 * v)                           \
                      : NV == v + 1 ? _mm512_maskz_loadu_ps(last, bp + 16 * v)            \
                                    : _mm512_setzero_ps();
#define SG_FMA_(i, MR, NV)                                                                 \
  if (MR > i) {                                                                            \
    const __m512 ai = _mm512_set1_ps(a[i * lda + p]);                                      \
    c##i##0 = _mm512_fmadd_ps(ai, b0, c##i##0);                                            \
    if (NV > 1) c##i##1 = _mm512_fmadd_ps(ai, b1, c##i##1);                                \
    if (NV > 2) c##i##2 = _mm512_fmadd_ps(ai, b2, c##i##2);                                \
    if (NV > 3) c##i##3 = _mm512_fmadd_ps(ai, b3, c##i##3);                                \
  }
#define SG_STORE1_(i, v, NV)                                                               \
  if (NV == v + 1) _mm512_mask_storeu_ps(c + i * ldc + 16 * v, last, c##i##v);            \
  else if (NV > v + 1) _mm512_storeu_ps(c + i * ldc + 16 * v, c##i##v);
#define SG_STORE_(i, MR, NV)                                                               \
  if (MR > i) {                                                                            \
    SG_STORE1_(i, 0, NV) SG_STORE1_(i, 1, NV) SG_STORE1_(i, 2, NV) SG_STORE1_(i, 3, NV)    \
  }
#define SG_ZERO_(i) __m512 c##i##0 = z, c##i##1 = z, c##i##2 = z, c##i##3 = z;
#define SGEMM_KERNEL_(MR, NV)                                                              \
  __attribute__((target("avx512f"))) static void sgemm_##MR##x##NV(                        \
      int64_t k, const float* a, int64_t lda, const float* b, int64_t ldb, float* c,        \
      int64_t ldc, __mmask16 last) {                                                       \
    const __m512 z = _mm512_setzero_ps();                                                  \
    SG_ZERO_(0) SG_ZERO_(1) SG_ZERO_(2) SG_ZERO_(3) SG_ZERO_(4) SG_ZERO_(5)                \
    for (int64_t p = 0; p < k; p++) {                                                      \
      const float* bp = b + p * ldb;                                                       \
      SG_LOAD_(0, MR, NV) SG_LOAD_(1, MR, NV) SG_LOAD_(2, MR, NV) SG_LOAD_(3, MR, NV)      \
      SG_FMA_(0, MR, NV) SG_FMA_(1, MR, NV) SG_FMA_(2, MR, NV)                             \
      SG_FMA_(3, MR, NV) SG_FMA_(4, MR, NV) SG_FMA_(5, MR, NV)                             \
    }                                                                                      \
    SG_STORE_(0, MR, NV) SG_STORE_(1, MR, NV) SG_STORE_(2, MR, NV)                         \
    SG_STORE_(3, MR, NV) SG_STORE_(4, MR, NV) SG_STORE_(5, MR, NV)                         \
  }
SGEMM_KERNEL_(6, 1)
SGEMM_KERNEL_(6, 2)
SGEMM_KERNEL_(6, 3)
SGEMM_KERNEL_(6, 4)
SGEMM_KERNEL_(1, 1)
SGEMM_KERNEL_(1, 2)
SGEMM_KERNEL_(1, 3)
SGEMM_KERNEL_(1, 4)

typedef void (*sgemm_kernel)(int64_t, const float*, int64_t, const float*, int64_t, float*,
                             int64_t, __mmask16);
static const sgemm_kernel sgemm_rows6[4] = {sgemm_6x1, sgemm_6x2, sgemm_6x3, sgemm_6x4};
static const sgemm_kernel sgemm_rows1[4] = {sgemm_1x1, sgemm_1x2, sgemm_1x3, sgemm_1x4};

static void sgemm_avx512(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
                         const float* b, int64_t ldb, float* c, int64_t ldc) {
  for (int64_t n0 = 0; n0 < n; n0 += 64) {
    const int64_t nn = n - n0 < 64 ? n - n0 : 64;
    const int nv = (int)((nn + 15) / 16);
    const __mmask16 last = (__mmask16)((1u << (nn - 16 * (nv - 1))) - 1u);
    int64_t i = 0;
    for (; i + 6 <= m; i += 6)
      sgemm_rows6[nv - 1](k, a + i * lda, lda, b + n0, ldb, c + i * ldc + n0, ldc, last);
    for (; i < m; i++)
      sgemm_rows1[nv - 1](k, a + i * lda, lda, b + n0, ldb, c + i * ldc + n0, ldc, last);
  }
}

/* MT_CONV_NO_AVX512 (any value) sends conv tiles to OpenBLAS instead, to
 * compare the two in one benchmark run. */
static int use_avx512(void) {
  static int cached = -1; /* benign race: every thread computes the same value */
  if (cached < 0) cached = __builtin_cpu_supports("avx512f") && !getenv("MT_CONV_NO_AVX512");
  return cached;
}
#else
#define CONV_HAVE_AVX512 0
#endif

/* c[m, n] = a[m, k] * (tb ? b[n, k]^T : b[k, n]), row-major with leading
 * dimensions. int32 wraps like TensorFlow's (two's complement). */
static void gemm(TF_DataType wt, int tb, int64_t m, int64_t n, int64_t k, const void* a,
                 int64_t lda, const void* b, int64_t ldb, void* c, int64_t ldc) {
  if (m == 0 || n == 0) return;
  const enum CBLAS_TRANSPOSE tr = tb ? CblasTrans : CblasNoTrans;
#if CONV_HAVE_AVX512
  if (wt == TF_FLOAT && !tb && k > 0 && use_avx512()) {
    sgemm_avx512(m, n, k, a, lda, b, ldb, c, ldc);
    return;
  }
#endif
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
  if (k < 1) k = 1;
  int64_t r = CONV_TILE_ELEMS / k;
  if (r < CONV_TILE_MIN_ROWS) r = CONV_TILE_MIN_ROWS;
  if (r > CONV_TILE_MAX_ELEMS / k) r = CONV_TILE_MAX_ELEMS / k;
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
 * on 3640x288x64 tiles; serial tiles with 2-thread GEMMs 25x slower than
 * tiles shared out over the pool), so conv tiles run one single-threaded
 * GEMM each, claimed by the intra-op threads from a shared counter
 * (window_util.h). The thread count is process-global in OpenBLAS: set
 * around the parallel region and restored (a concurrent kernel may briefly
 * see 1 thread: slower, never wrong). */
int scipy_openblas_get_num_threads(void);
void scipy_openblas_set_num_threads(int);

/* Runs `fn` in each intra-op thread with OpenBLAS held to one thread. */
static void run_single_blas(mt_kernel_ctx* ctx, TF_DataType wt, int64_t n, int64_t cost,
                            void (*fn)(int64_t, int64_t, void*), void* arg) {
  const int blas_threads = wt == TF_INT32 ? 1 : scipy_openblas_get_num_threads();
  if (blas_threads > 1) scipy_openblas_set_num_threads(1);
  mt_run_workers(ctx, n, cost, fn, arg);
  if (blas_threads > 1) scipy_openblas_set_num_threads(blas_threads);
}

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
  mt_shared_loop tiles;
} fwd_task;

/* One thread's share: claims tiles of `step` output rows; per tile and
 * group, im2col into this thread's patch buffer, then GEMM. */
static void fwd_worker(int64_t wb, int64_t we, void* arg) {
  fwd_task* ft = arg;
  const conv_geom* g = ft->g;
  const size_t es = TF_DataTypeSize(ft->wt);
  const int64_t cg = g->kic, ocg = g->oc / g->groups, k = ft->k;
  char* col = NULL;
  (void)wb, (void)we;
  if (!ft->direct) {
    col = malloc((size_t)(ft->step * k) * es);
    if (!col) {
      atomic_store(&ft->oom, 1);
      return;
    }
  }
  col_task t = {g, ft->x, NULL, col, es, 0, 0, cg, k, ft->wt};
  int64_t b, e;
  while (mt_claim_chunk(&ft->tiles, &b, &e)) {
    const int64_t tile = b;
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
    (void)e;
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
  ft.step = tile_rows(k, ft.total);
  if (ft.step > INT_MAX / 2) ft.step = INT_MAX / 2;
  const int64_t ntiles = (ft.total + ft.step - 1) / ft.step;
  ft.tiles.n = ntiles;
  ft.tiles.grain = 1;
  atomic_init(&ft.tiles.next, 0);
  run_single_blas(ctx, wt, ntiles, 2 * ft.step * k * g->oc, fwd_worker, &ft);
  if (atomic_load(&ft.oom)) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM allocating the im2col buffer");
    return 0;
  }
  return 1;
}

typedef struct bwd_task {
  const conv_geom* g;
  TF_DataType wt;
  const void* dy;
  const void* f;
  void* dx;
  int64_t step, k;
  atomic_int oom;
  mt_shared_loop images;
} bwd_task;

/* One thread's share: claims whole images (col2im of neighbouring output
 * pixels adds into the same dx pixels, so an image is one thread's) and
 * runs them in tiles of `step` output rows: GEMM into the patch buffer,
 * then col2im per group. */
static void bwd_worker(int64_t wb, int64_t we, void* arg) {
  bwd_task* bt = arg;
  const conv_geom* g = bt->g;
  const size_t es = TF_DataTypeSize(bt->wt);
  const int64_t cg = g->kic, ocg = g->oc / g->groups, k = bt->k, per_img = g->oh * g->ow;
  (void)wb, (void)we;
  char* col = malloc((size_t)(bt->step * k) * es);
  if (!col) {
    atomic_store(&bt->oom, 1);
    return;
  }
  col_task t = {g, NULL, bt->dx, col, es, 0, 0, cg, k, bt->wt};
  int64_t img, e;
  while (mt_claim_chunk(&bt->images, &img, &e)) {
    const int64_t img_elems = g->ih * g->iw * g->ic;
    memset((char*)bt->dx + (size_t)(img * img_elems) * es, 0, (size_t)img_elems * es);
    for (int64_t r = img * per_img; r < (img + 1) * per_img; r += bt->step) {
      const int64_t left = (img + 1) * per_img - r;
      const int64_t rows = left < bt->step ? left : bt->step;
      for (int64_t grp = 0; grp < g->groups; grp++) {
        gemm(bt->wt, 0, rows, k, ocg, (const char*)bt->dy + (size_t)(r * g->oc + grp * ocg) * es,
             g->oc, (const char*)bt->f + (size_t)(grp * ocg * k) * es, k, col, k);
        t.row0 = r;
        t.c0 = grp * cg;
        col2im(&t, rows);
      }
    }
    (void)e;
  }
  free(col);
}

/* dx (NHWC) = col2im(dy * filter^T), per group (filter^T: [oc, k]), images shared out over the
 * intra-op threads with single-threaded GEMMs (see run_single_blas). */
static int conv_backward_input(mt_kernel_ctx* ctx, const conv_geom* g, TF_DataType wt,
                               const void* dy, const void* f, void* dx) {
  const int64_t k = g->kh * g->kw * g->kic;
  if (!check_gemm_dims(ctx, k, g->oc)) return 0;
  const int64_t per_img = g->oh * g->ow;
  if (per_img == 0) { /* nothing to scatter: dx is all zeros */
    memset(dx, 0, (size_t)(g->n * g->ih * g->iw * g->ic) * TF_DataTypeSize(wt));
    return 1;
  }
  /* The filter transposed once to [oc, k]: the tiles' products are then plain
   * (untransposed) GEMMs, which the float AVX-512 kernel takes. */
  const size_t es = TF_DataTypeSize(wt);
  void* ft = mt_scratch((size_t)(k * g->oc) * es, ctx->status);
  if (!ft) return 0;
  mt_transpose_last2(f, ft, 1, k, g->oc, es);
  bwd_task bt = {g, wt, dy, ft, dx, tile_rows(k, per_img), k, 0};
  bt.images.n = g->n;
  bt.images.grain = 1;
  atomic_init(&bt.images.next, 0);
  run_single_blas(ctx, wt, g->n, 2 * per_img * k * g->oc, bwd_worker, &bt);
  free(ft);
  if (atomic_load(&bt.oom)) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM allocating the im2col buffer");
    return 0;
  }
  return 1;
}

/* c[m, n] = a[k, m]^T * b[k, n] (row-major, leading dimensions): the
 * filter gradient's product of patches and out_backprop over one tile. */
static void gemm_tn(TF_DataType wt, int64_t m, int64_t n, int64_t k, const void* a, int64_t lda,
                    const void* b, int64_t ldb, void* c, int64_t ldc) {
  if (m == 0 || n == 0) return;
  if (wt == TF_FLOAT)
    scipy_cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)m, (int)n, (int)k, 1.0f, a,
                      (int)lda, b, (int)ldb, 0.0f, c, (int)ldc);
  else
    scipy_cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)m, (int)n, (int)k, 1.0, a,
                      (int)lda, b, (int)ldb, 0.0, c, (int)ldc);
}

/* Filter-gradient sums: each tile's product (FILT_TILE_ROWS output pixels at most, so a
 * float sum runs over no more than that many terms) is added into a double accumulator; a
 * fixed number of chunk accumulators (each chunk of tiles added by one thread, chunks added
 * in order) keeps the result independent of the thread count. (Sums of float tiles over a
 * whole batch drift a trained CNN's loss from TensorFlow's by 1e-4 within 200 steps.) */
#define FILT_TILE_ROWS 512
#define FILT_MAX_CHUNKS 16
#define FILT_MAX_PART_BYTES ((int64_t)64 << 20)

typedef struct filt_task {
  const conv_geom* g;
  TF_DataType wt;
  const void* x;
  const void* dy;
  double* parts; /* per chunk: [k, oc] */
  int64_t step, total, k, ntiles, per_chunk;
  int direct;
  atomic_int oom;
  mt_shared_loop chunks;
} filt_task;

/* acc += tile (fsz elements of the work type). */
static void add_tile(TF_DataType wt, double* acc, const void* tile, int64_t fsz) {
  if (wt == TF_FLOAT) {
    const float* t = tile;
    for (int64_t i = 0; i < fsz; i++) acc[i] += t[i];
  } else {
    const double* t = tile;
    for (int64_t i = 0; i < fsz; i++) acc[i] += t[i];
  }
}

/* One thread's share: claims chunks; per tile and group, im2col of the
 * tile's output pixels, then tile[k, ocg block] = patches^T * dy (BLAS with A
 * transposed), the tile added to the chunk's accumulator. */
static void filt_worker(int64_t wb, int64_t we, void* arg) {
  filt_task* ft = arg;
  const conv_geom* g = ft->g;
  const size_t es = TF_DataTypeSize(ft->wt);
  const int64_t cg = g->kic, ocg = g->oc / g->groups, k = ft->k, fsz = k * g->oc;
  char* col = NULL;
  char* tile = malloc((size_t)fsz * es);
  (void)wb, (void)we;
  if (!tile || (!ft->direct && !(col = malloc((size_t)(ft->step * k) * es)))) {
    atomic_store(&ft->oom, 1);
    free(tile);
    return;
  }
  col_task t = {g, ft->x, NULL, col, es, 0, 0, cg, k, ft->wt};
  int64_t c, ce;
  while (mt_claim_chunk(&ft->chunks, &c, &ce)) {
    double* acc = ft->parts + c * fsz;
    memset(acc, 0, (size_t)fsz * sizeof(double));
    const int64_t t1 = (c + 1) * ft->per_chunk < ft->ntiles ? (c + 1) * ft->per_chunk : ft->ntiles;
    for (int64_t ti = c * ft->per_chunk; ti < t1; ti++) {
      const int64_t r = ti * ft->step;
      const int64_t rows = ft->total - r < ft->step ? ft->total - r : ft->step;
      for (int64_t grp = 0; grp < g->groups; grp++) {
        const void* a = (const char*)ft->x + (size_t)(r * k) * es;
        if (!ft->direct) {
          t.row0 = r;
          t.c0 = grp * cg;
          im2col_rows(0, rows, &t);
          a = col;
        }
        gemm_tn(ft->wt, k, ocg, rows, a, k,
                (const char*)ft->dy + (size_t)(r * g->oc + grp * ocg) * es, g->oc,
                tile + (size_t)(grp * ocg) * es, g->oc);
      }
      add_tile(ft->wt, acc, tile, fsz);
    }
    (void)ce;
  }
  free(col);
  free(tile);
}

/* dfilter[k, oc] = patches(x)^T * dy per group (x, dy NHWC; dfilter in
 * the filter's [kh, kw, kic, oc] layout, which is [k, oc]). */
static int conv_backward_filter(mt_kernel_ctx* ctx, const conv_geom* g, TF_DataType wt,
                                const void* x, const void* dy, void* df) {
  const int64_t k = g->kh * g->kw * g->kic, fsz = k * g->oc;
  const size_t es = TF_DataTypeSize(wt);
  if (!check_gemm_dims(ctx, k, g->oc)) return 0;
  filt_task ft = {g, wt, x, dy, NULL, 0, g->n * g->oh * g->ow, k, 0, 0, 0, 0};
  const int unpadded = g->pt == 0 && g->pl == 0;
  const int one_by_one = g->kh == 1 && g->kw == 1 && g->sh == 1 && g->sw == 1;
  const int whole = g->kh == g->ih && g->kw == g->iw && g->oh == 1 && g->ow == 1;
  ft.direct = g->groups == 1 && unpadded && (one_by_one || whole);
  memset(df, 0, (size_t)fsz * es);
  if (ft.total == 0 || fsz == 0) return 1;
  ft.step = tile_rows(k, ft.total);
  if (ft.step > FILT_TILE_ROWS) ft.step = FILT_TILE_ROWS;
  ft.ntiles = (ft.total + ft.step - 1) / ft.step;
  int64_t nchunks = ft.ntiles < FILT_MAX_CHUNKS ? ft.ntiles : FILT_MAX_CHUNKS;
  const int64_t fit = FILT_MAX_PART_BYTES / (fsz * (int64_t)sizeof(double));
  if (nchunks > fit) nchunks = fit > 1 ? fit : 1;
  ft.per_chunk = (ft.ntiles + nchunks - 1) / nchunks;
  nchunks = (ft.ntiles + ft.per_chunk - 1) / ft.per_chunk;
  ft.parts = mt_scratch((size_t)(nchunks * fsz) * sizeof(double), ctx->status);
  if (!ft.parts) return 0;
  ft.chunks.n = nchunks;
  ft.chunks.grain = 1;
  atomic_init(&ft.chunks.next, 0);
  run_single_blas(ctx, wt, nchunks, 2 * ft.per_chunk * ft.step * k * g->oc, filt_worker, &ft);
  if (atomic_load(&ft.oom)) {
    free(ft.parts);
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM allocating the im2col buffer");
    return 0;
  }
  for (int64_t i = 0; i < fsz; i++) {
    double sum = 0;
    for (int64_t c = 0; c < nchunks; c++) sum += ft.parts[c * fsz + i];
    if (wt == TF_FLOAT)
      ((float*)df)[i] = (float)sum;
    else
      ((double*)df)[i] = sum;
  }
  free(ft.parts);
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
 * x[c] * f[ky, kx, c, m] into y[c * mult + m], taps in (ky, kx) order. With
 * multiplier 1 (the common case) channels go in blocks of DW_BLOCK whose
 * sums stay in vector registers over the taps (the same sums in the same
 * order as accumulating in y). */
#define DW_BLOCK 16
#define DW_ROWS_(CT)                                                                      \
  MT_SIMD_CLONES static void dw_rows_##CT(int64_t b, int64_t e, void* arg) {              \
    const dw_task* t = arg;                                                               \
    const conv_geom* g = t->g;                                                            \
    const CT* x = t->x;                                                                   \
    const CT* f = t->f;                                                                   \
    const int64_t c = g->ic, m = t->mult, oc = c * m;                                     \
    const int64_t blocked = m == 1 ? c - c % DW_BLOCK : 0;                                \
    for (int64_t row = b; row < e; row++) {                                               \
      const int64_t img = row / g->oh, oy = row % g->oh;                                  \
      CT* yr = (CT*)t->y + row * g->ow * oc;                                              \
      for (int64_t ox = 0; ox < g->ow; ox++) {                                            \
        CT* out = yr + ox * oc;                                                           \
        for (int64_t j0 = 0; j0 < blocked; j0 += DW_BLOCK) {                              \
          CT acc[DW_BLOCK] = {0};                                                         \
          for (int64_t ky = 0; ky < g->kh; ky++) {                                        \
            const int64_t iy = oy * g->sh - g->pt + ky * g->dh;                           \
            if (iy < 0 || iy >= g->ih) continue;                                          \
            for (int64_t kx = 0; kx < g->kw; kx++) {                                      \
              const int64_t ix = ox * g->sw - g->pl + kx * g->dw;                         \
              if (ix < 0 || ix >= g->iw) continue;                                        \
              const CT* xin = x + ((img * g->ih + iy) * g->iw + ix) * c + j0;             \
              const CT* fk = f + (ky * g->kw + kx) * oc + j0;                             \
              for (int q = 0; q < DW_BLOCK; q++) acc[q] += xin[q] * fk[q];                \
            }                                                                             \
          }                                                                               \
          for (int q = 0; q < DW_BLOCK; q++) out[j0 + q] = acc[q];                        \
        }                                                                                 \
        for (int64_t j = blocked * m; j < oc; j++) out[j] = 0;                            \
        for (int64_t ky = 0; ky < g->kh; ky++) {                                          \
          const int64_t iy = oy * g->sh - g->pt + ky * g->dh;                             \
          if (iy < 0 || iy >= g->ih) continue;                                            \
          for (int64_t kx = 0; kx < g->kw; kx++) {                                        \
            const int64_t ix = ox * g->sw - g->pl + kx * g->dw;                           \
            if (ix < 0 || ix >= g->iw) continue;                                          \
            const CT* xin = x + ((img * g->ih + iy) * g->iw + ix) * c;                    \
            const CT* fk = f + (ky * g->kw + kx) * oc;                                    \
            if (m == 1) {                                                                 \
              for (int64_t j = blocked; j < c; j++) out[j] += xin[j] * fk[j];             \
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

/* Input rows [b, e) of (image, row) of DepthwiseConv2dNativeBackpropInput,
 * gathered (no two rows write the same pixel): each input pixel sums, over
 * the taps whose output pixel exists, out_backprop times the filter (y is
 * dx, x is out_backprop in the task). */
#define DW_BWD_INPUT_(CT)                                                                 \
  MT_SIMD_CLONES static void dw_bwd_input_##CT(int64_t b, int64_t e, void* arg) {         \
    const dw_task* t = arg;                                                               \
    const conv_geom* g = t->g;                                                            \
    const CT* dy = t->x;                                                                  \
    const CT* f = t->f;                                                                   \
    const int64_t c = g->ic, m = t->mult, oc = c * m;                                     \
    for (int64_t row = b; row < e; row++) {                                               \
      const int64_t img = row / g->ih, iy = row % g->ih;                                  \
      for (int64_t ix = 0; ix < g->iw; ix++) {                                            \
        CT* o = (CT*)t->y + (row * g->iw + ix) * c;                                       \
        for (int64_t j = 0; j < c; j++) o[j] = 0;                                         \
        for (int64_t ky = 0; ky < g->kh; ky++) {                                          \
          const int64_t ty = iy + g->pt - ky * g->dh;                                     \
          if (ty < 0 || ty % g->sh != 0 || ty / g->sh >= g->oh) continue;                 \
          for (int64_t kx = 0; kx < g->kw; kx++) {                                        \
            const int64_t tx = ix + g->pl - kx * g->dw;                                   \
            if (tx < 0 || tx % g->sw != 0 || tx / g->sw >= g->ow) continue;               \
            const CT* d = dy + ((img * g->oh + ty / g->sh) * g->ow + tx / g->sw) * oc;    \
            const CT* fk = f + (ky * g->kw + kx) * oc;                                    \
            if (m == 1) {                                                                 \
              for (int64_t j = 0; j < c; j++) o[j] += d[j] * fk[j];                       \
            } else {                                                                      \
              for (int64_t j = 0; j < c; j++) {                                           \
                CT s = 0;                                                                 \
                for (int64_t q = 0; q < m; q++) s += d[j * m + q] * fk[j * m + q];        \
                o[j] += s;                                                                \
              }                                                                           \
            }                                                                             \
          }                                                                               \
        }                                                                                 \
      }                                                                                   \
    }                                                                                     \
  }
DW_BWD_INPUT_(float)
DW_BWD_INPUT_(double)

/* DepthwiseConv2dNativeBackpropFilter: partial sums over fixed blocks of
 * output rows (blocks added in order: the result does not depend on the
 * thread count). */
#define DW_FILT_BLOCKS 32
typedef struct dw_filt_task {
  const conv_geom* g;
  const void* x;
  const void* dy;
  void* parts; /* per block: [kh, kw, ic * mult] */
  int64_t mult, rows, per_block;
} dw_filt_task;

#define DW_BWD_FILTER_(CT)                                                                \
  MT_SIMD_CLONES static void dw_bwd_filter_##CT(int64_t b, int64_t e, void* arg) {        \
    const dw_filt_task* t = arg;                                                          \
    const conv_geom* g = t->g;                                                            \
    const CT* x = t->x;                                                                   \
    const int64_t c = g->ic, m = t->mult, oc = c * m, fsz = g->kh * g->kw * oc;           \
    for (int64_t blk = b; blk < e; blk++) {                                               \
      CT* acc = (CT*)t->parts + blk * fsz;                                                \
      for (int64_t i = 0; i < fsz; i++) acc[i] = 0;                                       \
      const int64_t r1 = (blk + 1) * t->per_block < t->rows ? (blk + 1) * t->per_block    \
                                                            : t->rows;                    \
      for (int64_t row = blk * t->per_block; row < r1; row++) {                           \
        const int64_t img = row / g->oh, oy = row % g->oh;                                \
        for (int64_t ox = 0; ox < g->ow; ox++) {                                          \
          const CT* d = (const CT*)t->dy + (row * g->ow + ox) * oc;                       \
          for (int64_t ky = 0; ky < g->kh; ky++) {                                        \
            const int64_t iy = oy * g->sh - g->pt + ky * g->dh;                           \
            if (iy < 0 || iy >= g->ih) continue;                                          \
            for (int64_t kx = 0; kx < g->kw; kx++) {                                      \
              const int64_t ix = ox * g->sw - g->pl + kx * g->dw;                         \
              if (ix < 0 || ix >= g->iw) continue;                                        \
              const CT* xin = x + ((img * g->ih + iy) * g->iw + ix) * c;                  \
              CT* a = acc + (ky * g->kw + kx) * oc;                                       \
              if (m == 1) {                                                               \
                for (int64_t j = 0; j < c; j++) a[j] += xin[j] * d[j];                    \
              } else {                                                                    \
                for (int64_t j = 0; j < c; j++)                                           \
                  for (int64_t q = 0; q < m; q++) a[j * m + q] += xin[j] * d[j * m + q];  \
              }                                                                           \
            }                                                                             \
          }                                                                               \
        }                                                                                 \
      }                                                                                   \
    }                                                                                     \
  }
DW_BWD_FILTER_(float)
DW_BWD_FILTER_(double)

static int dw_backward_filter(mt_kernel_ctx* ctx, const conv_geom* g, TF_DataType wt,
                              const void* x, const void* dy, void* df) {
  const int64_t mult = g->oc, fsz = g->kh * g->kw * g->ic * mult;
  const size_t es = TF_DataTypeSize(wt);
  memset(df, 0, (size_t)fsz * es);
  const int64_t rows = g->n * g->oh;
  if (rows == 0 || fsz == 0) return 1;
  const int64_t blocks = rows < DW_FILT_BLOCKS ? rows : DW_FILT_BLOCKS;
  dw_filt_task t = {g, x, dy, NULL, mult, rows, (rows + blocks - 1) / blocks};
  t.parts = mt_scratch((size_t)(blocks * fsz) * es, ctx->status);
  if (!t.parts) return 0;
  mt_parallel_for_shared(ctx, blocks, 1, t.per_block * g->ow * fsz,
                         wt == TF_DOUBLE ? dw_bwd_filter_double : dw_bwd_filter_float, &t);
  for (int64_t b = 0; b < blocks; b++) {
    if (wt == TF_FLOAT) {
      const float* p = (const float*)t.parts + b * fsz;
      float* o = df;
      for (int64_t i = 0; i < fsz; i++) o[i] += p[i];
    } else {
      const double* p = (const double*)t.parts + b * fsz;
      double* o = df;
      for (int64_t i = 0; i < fsz; i++) o[i] += p[i];
    }
  }
  free(t.parts);
  return 1;
}

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
  const void* xw = mt_work_in(ctx, x, g.nchw, &xo);
  const void* fw = xw ? mt_work_in(ctx, f, 0, &fo) : NULL;
  void* yw = fw ? mt_work_out(ctx, y, g.nchw, &yo) : NULL;
  if (yw && conv_forward(ctx, &g, mt_work_type(x->dtype), xw, fw, yw))
    mt_work_finish(ctx, y, g.nchw, yw);
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
  const void* xw = mt_work_in(ctx, x, g.nchw, &xo);
  const void* fw = xw ? mt_work_in(ctx, f, 0, &fo) : NULL;
  void* yw = fw ? mt_work_out(ctx, y, g.nchw, &yo) : NULL;
  if (yw) {
    dw_task t = {&g, xw, fw, yw, mult};
    const int64_t cost = g.ow * g.kh * g.kw * g.ic * mult;
    mt_parallel_for_shared(ctx, g.n * g.oh, 4, cost,
                           x->dtype == TF_DOUBLE ? dw_rows_double : dw_rows_float, &t);
    mt_work_finish(ctx, y, g.nchw, yw);
  }
  if (xw) free(xo);
  if (fw) free(fo);
  if (yw) free(yo);
}

/* What a backward kernel differentiates: its sizes input names the dims of
 * the input (BWD_*_INPUT) or of the filter (BWD_*_FILTER). */
enum { BWD_INPUT, BWD_FILTER, BWD_DW_INPUT, BWD_DW_FILTER };

static const char* const bwd_label[] = {"Conv2DCustomBackpropInput", "Conv2DCustomBackpropFilter",
                                        "DepthwiseConv2DBackpropInput",
                                        "DepthwiseConv2DBackpropFilter"};

/* The backward ops' checks (TensorFlow's ConvBackpropComputeDimensions
 * wording); fills g with the geometry: the input's and the filter's dims
 * from the tensor that is an input and from the sizes vector. */
static int bwd_setup(mt_kernel_ctx* ctx, const char* what, int mode, conv_geom* g) {
  const int filter_grad = mode == BWD_FILTER || mode == BWD_DW_FILTER;
  const int dw = mode == BWD_DW_INPUT || mode == BWD_DW_FILTER;
  const TF_Tensor* sizes = ctx->inputs[filter_grad ? 1 : 0];
  const TF_Tensor* known = ctx->inputs[filter_grad ? 0 : 1];
  const TF_Tensor* dy = ctx->inputs[2];
  const char* arg = filter_grad ? "filter_sizes" : "input_sizes";
  const int nchw = mt_is_nchw(ctx->op);
  if (!check_attr_lengths(ctx->op, what, nchw, dw, ctx->status) ||
      !check_batch_depth_attrs(ctx, nchw) ||
      !mt_check_explicit_paddings(ctx->op, mt_padding_mode(ctx->op), nchw ? 2 : 1, nchw ? 3 : 2,
                                  ctx->status))
    return 0;
  /* oneDNN, which runs TensorFlow's other NCHW cases on CPU, has no
   * explicit padding: its own kernels are NHWC only. */
  if (!dw && nchw && mt_padding_mode(ctx->op) == MT_PAD_EXPLICIT) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%sOp only supports NHWC.", bwd_label[mode]);
    return 0;
  }
  if (sizes->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s: %s input must be 1-dim, not %d", what,
                   arg, sizes->ndims);
    return 0;
  }
  int64_t v[4];
  const int64_t nv = sizes->dims[0];
  if (nv != 4 && !(mode == BWD_INPUT && nv == 2)) {
    if (mode == BWD_INPUT)
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Conv2DBackpropInput requires input_sizes to contain 4 values or 2 values, "
                     "but got: %lld", (long long)nv);
    else
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s: %s must contain 4 values, but got: %lld",
                     what, arg, (long long)nv);
    return 0;
  }
  if (!check_rank4(ctx, known, filter_grad ? "input" : "filter") ||
      !check_rank4(ctx, dy, "out_backprop"))
    return 0;
  mt_tensor_ints(sizes, v, 4);
  int64_t full[4];
  if (nv == 4) {
    memcpy(full, v, sizeof full);
  } else {
    const mt_shape s = make_out_shape(nchw, dy->dims[0], v[0], v[1], known->dims[2]);
    memcpy(full, s.dims, sizeof full);
  }
  for (int i = 0; i < 4; i++)
    if (full[i] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension %d must be >= 0, but got %lld",
                     i, (long long)full[i]);
      return 0;
    }
  TF_Tensor fx = {0}, ff = {0};
  fx.ndims = ff.ndims = 4;
  memcpy(fx.dims, filter_grad ? known->dims : full, sizeof full);
  memcpy(ff.dims, filter_grad ? full : known->dims, sizeof full);
  geom_from_tensors(g, ctx->op, &fx, &ff);
  const int64_t dyn = dy->dims[0], dyc = dy->dims[nchw ? 1 : 3];
  if (g->n != dyn) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "%s: input and out_backprop must have the same batch size, input batch: %lld "
                   "outbackprop batch: %lld batch_dim: 0",
                   what, (long long)g->n, (long long)dyn);
    return 0;
  }
  if (g->kic <= 0 || g->ic < g->kic || g->ic % g->kic != 0 || (dw && g->ic != g->kic)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "input depth must be evenly divisible by filter depth: %lld vs %lld",
                   (long long)g->ic, (long long)g->kic);
    return 0;
  }
  g->groups = g->ic / g->kic;
  if (g->oc % g->groups != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "output depth must be evenly divisible by number of groups: %lld vs %lld",
                   (long long)g->oc, (long long)g->groups);
    return 0;
  }
  if ((dw ? g->ic * g->oc : g->oc) != dyc) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "%s: filter and out_backprop must have the same out_depth", what);
    return 0;
  }
  if (!spatial_out(ctx->op, g, 0, ctx->status)) return 0;
  const int64_t got[2] = {dy->dims[nchw ? 2 : 1], dy->dims[nchw ? 3 : 2]};
  const int64_t want[2] = {g->oh, g->ow}, in[2] = {g->ih, g->iw}, k[2] = {g->kh, g->kw};
  const int64_t st[2] = {g->sh, g->sw}, dil[2] = {g->dh, g->dw};
  for (int i = 0; i < 2; i++)
    if (got[i] != want[i]) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "%s: Size of out_backprop doesn't match computed: actual = %lld, computed = "
                     "%lld spatial_dim: %d input: %lld filter: %lld output: %lld stride: %lld "
                     "dilation: %lld",
                     bwd_label[mode], (long long)got[i], (long long)want[i], (nchw ? 2 : 1) + i,
                     (long long)in[i], (long long)k[i], (long long)got[i], (long long)st[i],
                     (long long)dil[i]);
      return 0;
    }
  return 1;
}

static void backprop_input_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* f = ctx->inputs[1];
  const TF_Tensor* dy = ctx->inputs[2];
  conv_geom g;
  if (!supported(ctx, f->dtype, 1) || !bwd_setup(ctx, "Conv2DBackpropInput", BWD_INPUT, &g))
    return;
  const mt_shape os = make_out_shape(g.nchw, g.n, g.ih, g.iw, g.ic);
  TF_Tensor* dx = mt_ctx_alloc(ctx, 0, f->dtype, os.dims, 4);
  if (!dx || mt_tensor_nelems(dx) == 0) return;
  const TF_DataType wt = mt_work_type(f->dtype);
  void *dyo, *fo, *dxo;
  const void* dyw = mt_work_in(ctx, dy, g.nchw, &dyo);
  const void* fw = dyw ? mt_work_in(ctx, f, 0, &fo) : NULL;
  void* dxw = fw ? mt_work_out(ctx, dx, g.nchw, &dxo) : NULL;
  if (dxw && conv_backward_input(ctx, &g, wt, dyw, fw, dxw)) mt_work_finish(ctx, dx, g.nchw, dxw);
  if (dyw) free(dyo);
  if (fw) free(fo);
  if (dxw) free(dxo);
}

/* Float filter gradients of up to FILT_DOUBLE_MACS multiply-adds are computed in double
 * and rounded once (what a double accumulation costs is nothing at that size): a trained
 * small CNN then follows TensorFlow's loss curve to 1e-4 over 200 steps, which float tiles
 * (a few ulps off) do not. Larger ones run conv_backward_filter on the work type. */
#define FILT_DOUBLE_MACS ((int64_t)1 << 22)
static int filter_grad_small_float(mt_kernel_ctx* ctx, const conv_geom* g, const void* x,
                                   const void* dy, void* df, TF_DataType wt) {
  const int64_t k = g->kh * g->kw * g->kic, rows = g->n * g->oh * g->ow;
  if (wt != TF_FLOAT || rows * k * (g->oc / g->groups) > FILT_DOUBLE_MACS)
    return conv_backward_filter(ctx, g, wt, x, dy, df);
  const int64_t nx = g->n * g->ih * g->iw * g->ic, nd = rows * g->oc, nf = k * g->oc;
  double* buf = mt_scratch((size_t)(nx + nd + nf + 1) * sizeof(double), ctx->status);
  if (!buf) return 0;
  for (int64_t i = 0; i < nx; i++) buf[i] = ((const float*)x)[i];
  for (int64_t i = 0; i < nd; i++) buf[nx + i] = ((const float*)dy)[i];
  const int ok = conv_backward_filter(ctx, g, TF_DOUBLE, buf, buf + nx, buf + nx + nd);
  for (int64_t i = 0; ok && i < nf; i++) ((float*)df)[i] = (float)buf[nx + nd + i];
  free(buf);
  return ok;
}

static void backprop_filter_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_Tensor* dy = ctx->inputs[2];
  conv_geom g;
  if (!supported(ctx, x->dtype, 0) || !bwd_setup(ctx, "Conv2DBackpropFilter", BWD_FILTER, &g))
    return;
  const int64_t fd[4] = {g.kh, g.kw, g.kic, g.oc};
  TF_Tensor* df = mt_ctx_alloc(ctx, 0, x->dtype, fd, 4);
  if (!df || mt_tensor_nelems(df) == 0) return;
  void *xo, *dyo, *fo;
  const void* xw = mt_work_in(ctx, x, g.nchw, &xo);
  const void* dyw = xw ? mt_work_in(ctx, dy, g.nchw, &dyo) : NULL;
  void* fw = dyw ? mt_work_out(ctx, df, 0, &fo) : NULL;
  if (fw && filter_grad_small_float(ctx, &g, xw, dyw, fw, mt_work_type(x->dtype)))
    mt_work_finish(ctx, df, 0, fw);
  if (xw) free(xo);
  if (dyw) free(dyo);
  if (fw) free(fo);
}

static void dw_backprop_input_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* f = ctx->inputs[1];
  const TF_Tensor* dy = ctx->inputs[2];
  conv_geom g;
  if (!supported(ctx, f->dtype, 0) ||
      !bwd_setup(ctx, "DepthwiseConv2DBackpropInput", BWD_DW_INPUT, &g))
    return;
  const mt_shape os = make_out_shape(g.nchw, g.n, g.ih, g.iw, g.ic);
  TF_Tensor* dx = mt_ctx_alloc(ctx, 0, f->dtype, os.dims, 4);
  if (!dx || mt_tensor_nelems(dx) == 0) return;
  void *dyo, *fo, *dxo;
  const void* dyw = mt_work_in(ctx, dy, g.nchw, &dyo);
  const void* fw = dyw ? mt_work_in(ctx, f, 0, &fo) : NULL;
  void* dxw = fw ? mt_work_out(ctx, dx, g.nchw, &dxo) : NULL;
  if (dxw) {
    dw_task t = {&g, dyw, fw, dxw, g.oc};
    const int64_t cost = g.iw * g.kh * g.kw * g.ic * g.oc / (g.sh * g.sw) + g.iw * g.ic;
    mt_parallel_for_shared(ctx, g.n * g.ih, 4, cost,
                           f->dtype == TF_DOUBLE ? dw_bwd_input_double : dw_bwd_input_float, &t);
    mt_work_finish(ctx, dx, g.nchw, dxw);
  }
  if (dyw) free(dyo);
  if (fw) free(fo);
  if (dxw) free(dxo);
}

static void dw_backprop_filter_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_Tensor* dy = ctx->inputs[2];
  conv_geom g;
  if (!supported(ctx, x->dtype, 0) ||
      !bwd_setup(ctx, "DepthwiseConv2DBackpropFilter", BWD_DW_FILTER, &g))
    return;
  const int64_t fd[4] = {g.kh, g.kw, g.kic, g.oc};
  TF_Tensor* df = mt_ctx_alloc(ctx, 0, x->dtype, fd, 4);
  if (!df || mt_tensor_nelems(df) == 0) return;
  void *xo, *dyo, *fo;
  const void* xw = mt_work_in(ctx, x, g.nchw, &xo);
  const void* dyw = xw ? mt_work_in(ctx, dy, g.nchw, &dyo) : NULL;
  void* fw = dyw ? mt_work_out(ctx, df, 0, &fo) : NULL;
  if (fw && dw_backward_filter(ctx, &g, mt_work_type(x->dtype), xw, dyw, fw))
    mt_work_finish(ctx, df, 0, fw);
  if (xw) free(xo);
  if (dyw) free(dyo);
  if (fw) free(fo);
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
    {.name = "Conv2DBackpropFilter",
     .inputs = "input: T, filter_sizes: int32, out_backprop: T", .outputs = "output: T",
     .attrs = "T: {half, bfloat16, float, double}; strides: list(int);"
              " use_cudnn_on_gpu: bool = true; padding: {'SAME', 'VALID', 'EXPLICIT'};"
              " explicit_paddings: list(int) = []; data_format: {'NHWC', 'NCHW'} = 'NHWC';"
              " dilations: list(int) = [1, 1, 1, 1]",
     .shape = backprop_filter_shape, .kernel = backprop_filter_kernel},
    {.name = "DepthwiseConv2dNativeBackpropInput",
     .inputs = "input_sizes: int32, filter: T, out_backprop: T", .outputs = "output: T",
     .attrs = "T: {half, bfloat16, float, double}; strides: list(int);"
              " padding: {'SAME', 'VALID', 'EXPLICIT'}; explicit_paddings: list(int) = [];"
              " data_format: {'NHWC', 'NCHW'} = 'NHWC'; dilations: list(int) = [1, 1, 1, 1]",
     .shape = dw_backprop_input_shape, .kernel = dw_backprop_input_kernel},
    {.name = "DepthwiseConv2dNativeBackpropFilter",
     .inputs = "input: T, filter_sizes: int32, out_backprop: T", .outputs = "output: T",
     .attrs = "T: {half, bfloat16, float, double}; strides: list(int);"
              " padding: {'SAME', 'VALID', 'EXPLICIT'}; explicit_paddings: list(int) = [];"
              " data_format: {'NHWC', 'NCHW'} = 'NHWC'; dilations: list(int) = [1, 1, 1, 1]",
     .shape = backprop_filter_shape, .kernel = dw_backprop_filter_kernel},
};

void mt_register_conv_ops(void) {
  mt_register_ops(conv_specs, (int)(sizeof conv_specs / sizeof conv_specs[0]));
}
