/* Discrete Fourier transforms: FFT, IFFT, FFT2D, IFFT2D, FFT3D, IFFT3D over the innermost
 * 1/2/3 dimensions. Signatures are TensorFlow 2.21's (spectral_ops.cc); its FFTND family
 * has GPU kernels only and is not registered here. transform() takes axes and lengths
 * (crop / zero-pad), as the RFFT family will need. The transform is our own: iterative radix-2 for power-of-two lengths,
 * Bluestein's chirp-z (through a radix-2 convolution) for the others, in double precision
 * (float inputs are rounded once at the end). Inverse transforms divide by the length. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"

typedef double complex cplx;

/* In-place radix-2 transform of a[0..n), n a power of two; sign -1 forward, +1 inverse
 * (unscaled). */
static void fft_pow2(cplx* a, int64_t n, int sign) {
  for (int64_t i = 1, j = 0; i < n; i++) {
    int64_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      const cplx t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }
  for (int64_t len = 2; len <= n; len <<= 1) {
    const double ang = sign * 2 * M_PI / (double)len;
    for (int64_t k = 0; k < len / 2; k++) {
      const cplx w = cexp(I * ang * (double)k); /* exact twiddles per k, no drift */
      for (int64_t i = k; i < n; i += len) {
        const cplx u = a[i], v = a[i + len / 2] * w;
        a[i] = u + v;
        a[i + len / 2] = u - v;
      }
    }
  }
}

/* Unscaled DFT of a[0..n) in place, any n >= 1. Returns 0 when out of memory. */
static int dft(cplx* a, int64_t n, int sign) {
  if (n <= 1) return 1;
  if ((n & (n - 1)) == 0) {
    fft_pow2(a, n, sign);
    return 1;
  }
  /* Bluestein: X_k = conj(w_k) sum_j (a_j conj(w_j)) w_{k-j}, w_j = exp(sign*-i pi j^2/n)
   * with sign folded in; the convolution runs as a power-of-two FFT of size m >= 2n - 1. */
  int64_t m = 1;
  while (m < 2 * n - 1) m <<= 1;
  cplx* w = malloc(sizeof(cplx) * (size_t)n);
  cplx* x = calloc((size_t)m, sizeof(cplx));
  cplx* y = calloc((size_t)m, sizeof(cplx));
  if (!w || !x || !y) {
    free(w);
    free(x);
    free(y);
    return 0;
  }
  for (int64_t j = 0; j < n; j++) {
    const int64_t j2 = (int64_t)(((uint64_t)j * (uint64_t)j) % (uint64_t)(2 * n)); /* exact angle */
    w[j] = cexp(sign * I * M_PI * (double)j2 / (double)n);
  }
  for (int64_t j = 0; j < n; j++) x[j] = a[j] * w[j];
  y[0] = conj(w[0]);
  for (int64_t j = 1; j < n; j++) y[j] = y[m - j] = conj(w[j]);
  fft_pow2(x, m, -1);
  fft_pow2(y, m, -1);
  for (int64_t i = 0; i < m; i++) x[i] *= y[i];
  fft_pow2(x, m, 1);
  for (int64_t k = 0; k < n; k++) a[k] = x[k] * w[k] / (double)m;
  free(w);
  free(x);
  free(y);
  return 1;
}

/* A dense array of double complex values with its dims. */
typedef struct grid {
  cplx* v;
  int nd;
  int64_t dims[MT_MAX_DIMS];
} grid;

static int64_t grid_size(const grid* g) {
  int64_t n = 1;
  for (int d = 0; d < g->nd; d++) n *= g->dims[d];
  return n;
}

/* Axis `axis` cropped or zero-padded to length len. */
static int grid_resize(grid* g, int axis, int64_t len) {
  if (g->dims[axis] == len) return 1;
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; d++) outer *= g->dims[d];
  for (int d = axis + 1; d < g->nd; d++) inner *= g->dims[d];
  const int64_t old = g->dims[axis], keep = old < len ? old : len;
  cplx* v = calloc((size_t)(outer * len * inner > 0 ? outer * len * inner : 1), sizeof(cplx));
  if (!v) return 0;
  for (int64_t o = 0; o < outer; o++)
    memcpy(v + o * len * inner, g->v + o * old * inner, sizeof(cplx) * (size_t)(keep * inner));
  free(g->v);
  g->v = v;
  g->dims[axis] = len;
  return 1;
}

/* DFT along one axis (scaled by 1/n when inverse). */
static int grid_dft(grid* g, int axis, int sign) {
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; d++) outer *= g->dims[d];
  for (int d = axis + 1; d < g->nd; d++) inner *= g->dims[d];
  const int64_t n = g->dims[axis];
  if (n == 0 || outer * inner == 0) return 1;
  cplx* line = malloc(sizeof(cplx) * (size_t)n);
  if (!line) return 0;
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < inner; i++) {
      cplx* base = g->v + o * n * inner + i;
      for (int64_t k = 0; k < n; k++) line[k] = base[k * inner];
      if (!dft(line, n, sign)) {
        free(line);
        return 0;
      }
      for (int64_t k = 0; k < n; k++) base[k * inner] = sign > 0 ? line[k] / (double)n : line[k];
    }
  free(line);
  return 1;
}

static int grid_load(grid* g, const TF_Tensor* t) {
  g->nd = t->ndims;
  memcpy(g->dims, t->dims, sizeof(int64_t) * (size_t)t->ndims);
  const int64_t n = mt_tensor_nelems(t);
  g->v = malloc(sizeof(cplx) * (size_t)(n > 0 ? n : 1));
  if (!g->v) return 0;
  const void* p = mt_tensor_data(t);
  for (int64_t i = 0; i < n; i++) {
    switch (t->dtype) {
      case TF_COMPLEX64: g->v[i] = ((const float complex*)p)[i]; break;
      default: g->v[i] = ((const double complex*)p)[i]; break;
    }
  }
  return 1;
}

static void grid_store(const grid* g, TF_Tensor* t) {
  const int64_t n = grid_size(g);
  void* p = mt_tensor_data(t);
  for (int64_t i = 0; i < n; i++) {
    switch (t->dtype) {
      case TF_COMPLEX64: ((float complex*)p)[i] = (float complex)g->v[i]; break;
      default: ((double complex*)p)[i] = g->v[i]; break;
    }
  }
}

enum { FWD, INV };

/* The transform of input 0 over axes[0..k), each cropped or zero-padded to len[i] first,
 * into output 0 of dtype out_type. */
static void transform(mt_kernel_ctx* ctx, int kind, const int* axes, const int64_t* len, int k,
                      TF_DataType out_type) {
  grid g;
  if (!grid_load(&g, ctx->inputs[0])) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "out of memory in %s", ctx->op->name);
    return;
  }
  int ok = 1;
  const int sign = kind == INV ? 1 : -1;
  for (int i = 0; ok && i < k; i++)
    ok = grid_resize(&g, axes[i], len[i]) && grid_dft(&g, axes[i], sign);
  if (!ok) {
    free(g.v);
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "out of memory in %s", ctx->op->name);
    return;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, out_type, g.dims, g.nd);
  if (out) grid_store(&g, out);
  free(g.v);
}

/* FFT/IFFT[2D|3D]: the innermost `rank` dims at their own lengths. */
static void inner_fft(mt_kernel_ctx* ctx, int rank, int kind) {
  const TF_Tensor* x = ctx->inputs[0];
  if (x->ndims < rank) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input must have rank of at least %d but got: %d",
                   rank, x->ndims);
    return;
  }
  int axes[3];
  int64_t len[3];
  for (int i = 0; i < rank; i++) {
    axes[i] = x->ndims - rank + i;
    len[i] = x->dims[axes[i]];
  }
  transform(ctx, kind, axes, len, rank, x->dtype);
}
static void fft_kernel(mt_kernel_ctx* ctx) { inner_fft(ctx, 1, FWD); }
static void ifft_kernel(mt_kernel_ctx* ctx) { inner_fft(ctx, 1, INV); }
static void fft2d_kernel(mt_kernel_ctx* ctx) { inner_fft(ctx, 2, FWD); }
static void ifft2d_kernel(mt_kernel_ctx* ctx) { inner_fft(ctx, 2, INV); }
static void fft3d_kernel(mt_kernel_ctx* ctx) { inner_fft(ctx, 3, FWD); }
static void ifft3d_kernel(mt_kernel_ctx* ctx) { inner_fft(ctx, 3, INV); }

/* UnchangedShapeWithRankAtLeast(rank). */
static void fft_shape_at_least(mt_shape_ctx* ctx, int rank) {
  if (!mt_shape_with_rank_at_least(ctx, 0, rank)) return;
  ctx->out[0] = ctx->in[0];
}
static void fft1_shape(mt_shape_ctx* ctx) { fft_shape_at_least(ctx, 1); }
static void fft2_shape(mt_shape_ctx* ctx) { fft_shape_at_least(ctx, 2); }
static void fft3_shape(mt_shape_ctx* ctx) { fft_shape_at_least(ctx, 3); }

#define CPLX_T "Tcomplex: {complex64, complex128} = DT_COMPLEX64"
#define INNER(NAME, SHAPE, KERNEL)                                                          \
  {.name = NAME, .inputs = "input: Tcomplex", .outputs = "output: Tcomplex", .attrs = CPLX_T, \
   .shape = SHAPE, .kernel = KERNEL}
static const mt_op_spec fft_specs[] = {
    INNER("FFT", fft1_shape, fft_kernel),
    INNER("IFFT", fft1_shape, ifft_kernel),
    INNER("FFT2D", fft2_shape, fft2d_kernel),
    INNER("IFFT2D", fft2_shape, ifft2d_kernel),
    INNER("FFT3D", fft3_shape, fft3d_kernel),
    INNER("IFFT3D", fft3_shape, ifft3d_kernel),
};

void mt_register_fft_ops(void) {
  mt_register_ops(fft_specs, (int)(sizeof fft_specs / sizeof fft_specs[0]));
}
