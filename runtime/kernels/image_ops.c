/* Image resizing: ResizeBilinear, ResizeNearestNeighbor, ResizeArea and the gradient
 * kernels ResizeBilinearGrad, ResizeNearestNeighborGrad. Signatures,
 * shape functions and CPU dtypes are TensorFlow's (image_ops.cc,
 * resize_bilinear_op.cc, resize_nearest_neighbor_op.cc, image_resizer_state.h).
 *
 * Source coordinates follow TensorFlow exactly, in float: scale =
 * in/out (or (in-1)/(out-1) with align_corners), the legacy scaler x*scale
 * or the half-pixel one (x+0.5)*scale-0.5 (bilinear) / (x+0.5)*scale
 * (nearest). Bilinear output is float for every input type, interpolated
 * as top + (bottom - top) * y_lerp with top/bottom interpolated along x,
 * as TensorFlow does (so results match bit for bit in float). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/half.h"
#include "runtime/kernels/image/image_family.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/window_util.h" /* MT_SIMD_CLONES */

static void resize_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 4) || !mt_shape_with_rank(ctx, 1, 1)) return;
  const int64_t nsize = ctx->in[1].rank == 1 ? ctx->in[1].dims[0] : -1;
  if (nsize >= 0 && nsize != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension must be 2 but is %lld",
                   (long long)nsize);
    return;
  }
  const mt_shape* in = &ctx->in[0];
  mt_shape out;
  out.rank = 4;
  out.dims[0] = in->rank == 4 ? in->dims[0] : -1;
  out.dims[3] = in->rank == 4 ? in->dims[3] : -1;
  int64_t v[2];
  if (mt_shape_input_as_ints(ctx, 1, v, 2) == 2) {
    out.dims[1] = v[0] < 0 ? -1 : v[0];
    out.dims[2] = v[1] < 0 ? -1 : v[1];
  } else {
    out.dims[1] = out.dims[2] = -1;
  }
  ctx->out[0] = out;
}

/* Vectorize the channel loops: -O2's "very cheap" cost model skips loops whose
 * trip count is not known to be a multiple of the vector width. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

/* TensorFlow's ImageResizerState checks; fills the output size. */
static int resize_setup(mt_kernel_ctx* ctx, int64_t* oh, int64_t* ow, float* hs, float* ws) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_Tensor* size = ctx->inputs[1];
  const int align = mt_op_attr_bool(ctx->op, "align_corners", 0);
  const int half = mt_op_attr_bool(ctx->op, "half_pixel_centers", 0);
  char b[256];
  if (align && half) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "If half_pixel_centers is True, align_corners must be False.");
    return 0;
  }
  if (x->ndims != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "input must be 4-dimensional%s",
                   mt_dims_str(x->dims, x->ndims, b, sizeof b));
    return 0;
  }
  if (size->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "shape_t must be 1-dimensional%s",
                   mt_dims_str(size->dims, size->ndims, b, sizeof b));
    return 0;
  }
  if (size->dims[0] != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "shape_t must have two elements%s",
                   mt_dims_str(size->dims, size->ndims, b, sizeof b));
    return 0;
  }
  int64_t v[2];
  mt_tensor_ints(size, v, 2);
  if (v[0] <= 0 || v[1] <= 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "output dimensions must be positive");
    return 0;
  }
  if (x->dims[1] > INT32_MAX || x->dims[2] > INT32_MAX) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "input sizes must be between 0 and max int32");
    return 0;
  }
  *oh = v[0];
  *ow = v[1];
  const int64_t ih = x->dims[1], iw = x->dims[2];
  *hs = align && *oh > 1 ? (float)(ih - 1) / (float)(*oh - 1) : (float)ih / (float)*oh;
  *ws = align && *ow > 1 ? (float)(iw - 1) / (float)(*ow - 1) : (float)iw / (float)*ow;
  return 1;
}

/* ---- bilinear ---- */

typedef struct lerp_idx {
  int64_t lo, hi;
  float lerp;
} lerp_idx;

static void lerp_weights(lerp_idx* w, int64_t out, int64_t in, float scale, int half) {
  for (int64_t i = 0; i < out; i++) {
    const float src = half ? ((float)i + 0.5f) * scale - 0.5f : (float)i * scale;
    const float f = floorf(src);
    const int64_t lo = (int64_t)f, hi = (int64_t)ceilf(src);
    w[i].lo = lo > 0 ? lo : 0;
    w[i].hi = hi < in - 1 ? hi : in - 1;
    w[i].lerp = src - f;
  }
}

typedef struct bilinear_task {
  const void* x;
  float* y;
  int64_t ih, iw, c, oh, ow;
  const lerp_idx *ys, *xs;
} bilinear_task;

#define LOAD_PLAIN_(v) ((float)(v))
#define LOAD_HALF_(v) mt_half_to_float(v)
#define LOAD_BF16_(v) mt_bfloat16_to_float(v)
#define BILINEAR_ROWS_(NAME, CT, LOAD)                                                   \
  MT_SIMD_CLONES static void bilinear_##NAME(int64_t b, int64_t e, void* arg) {                        \
    const bilinear_task* t = arg;                                                       \
    const CT* x = t->x;                                                                 \
    const int64_t c = t->c;                                                             \
    for (int64_t row = b; row < e; row++) {                                             \
      const int64_t img = row / t->oh, oy = row % t->oh;                                \
      const lerp_idx wy = t->ys[oy];                                                    \
      const CT* top = x + (img * t->ih + wy.lo) * t->iw * c;                            \
      const CT* bot = x + (img * t->ih + wy.hi) * t->iw * c;                            \
      float* out = t->y + row * t->ow * c;                                              \
      for (int64_t ox = 0; ox < t->ow; ox++) {                                          \
        const lerp_idx wx = t->xs[ox];                                                  \
        for (int64_t j = 0; j < c; j++) {                                               \
          const float tl = LOAD(top[wx.lo * c + j]), tr = LOAD(top[wx.hi * c + j]);     \
          const float bl = LOAD(bot[wx.lo * c + j]), br = LOAD(bot[wx.hi * c + j]);     \
          const float tv = tl + (tr - tl) * wx.lerp;                                    \
          const float bv = bl + (br - bl) * wx.lerp;                                    \
          out[ox * c + j] = tv + (bv - tv) * wy.lerp;                                   \
        }                                                                               \
      }                                                                                 \
    }                                                                                   \
  }
BILINEAR_ROWS_(int8, int8_t, LOAD_PLAIN_)
BILINEAR_ROWS_(uint8, uint8_t, LOAD_PLAIN_)
BILINEAR_ROWS_(int16, int16_t, LOAD_PLAIN_)
BILINEAR_ROWS_(uint16, uint16_t, LOAD_PLAIN_)
BILINEAR_ROWS_(int32, int32_t, LOAD_PLAIN_)
BILINEAR_ROWS_(int64, int64_t, LOAD_PLAIN_)
BILINEAR_ROWS_(float, float, LOAD_PLAIN_)
BILINEAR_ROWS_(double, double, LOAD_PLAIN_)
BILINEAR_ROWS_(half, mt_half, LOAD_HALF_)
BILINEAR_ROWS_(bfloat16, mt_bfloat16, LOAD_BF16_)

static void (*const bilinear_fns[MT_NUM_DTYPES])(int64_t, int64_t, void*) = {
    [TF_INT8] = bilinear_int8,     [TF_UINT8] = bilinear_uint8, [TF_INT16] = bilinear_int16,
    [TF_UINT16] = bilinear_uint16, [TF_INT32] = bilinear_int32, [TF_INT64] = bilinear_int64,
    [TF_FLOAT] = bilinear_float,   [TF_DOUBLE] = bilinear_double, [TF_HALF] = bilinear_half,
    [TF_BFLOAT16] = bilinear_bfloat16};

static void resize_bilinear_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  void (*fn)(int64_t, int64_t, void*) =
      (unsigned)x->dtype < MT_NUM_DTYPES ? bilinear_fns[x->dtype] : NULL;
  if (!fn) {
    mt_kernel_unsupported(ctx, "T", x->dtype);
    return;
  }
  int64_t oh, ow;
  float hs, ws;
  if (!resize_setup(ctx, &oh, &ow, &hs, &ws)) return;
  const int64_t dims[4] = {x->dims[0], oh, ow, x->dims[3]};
  TF_Tensor* y = mt_ctx_alloc(ctx, 0, TF_FLOAT, dims, 4);
  if (!y || mt_tensor_nelems(y) == 0) return;
  if (x->dims[1] == 0 || x->dims[2] == 0) { /* nothing to sample from */
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "input image must be of non-zero size");
    return;
  }
  const int half = mt_op_attr_bool(ctx->op, "half_pixel_centers", 0);
  lerp_idx* w = malloc((size_t)(oh + ow) * sizeof *w);
  if (!w) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM allocating resize weights");
    return;
  }
  lerp_weights(w, oh, x->dims[1], hs, half);
  lerp_weights(w + oh, ow, x->dims[2], ws, half);
  bilinear_task t = {mt_tensor_data(x), mt_tensor_data(y), x->dims[1], x->dims[2], x->dims[3],
                     oh, ow, w, w + oh};
  mt_parallel_for_shared(ctx, x->dims[0] * oh, 8, ow * x->dims[3] * 8, fn, &t);
  free(w);
}

/* ---- nearest neighbor ---- */

static void nearest_index(int64_t* idx, int64_t out, int64_t in, float scale, int align,
                          int half) {
  for (int64_t i = 0; i < out; i++) {
    const float src = half ? ((float)i + 0.5f) * scale : (float)i * scale;
    int64_t k = align ? (int64_t)roundf(src) : (int64_t)floorf(src);
    if (k > in - 1) k = in - 1;
    if (half && k < 0) k = 0;
    idx[i] = k;
  }
}

typedef struct nearest_task {
  const char* x;
  char* y;
  size_t pix; /* bytes per pixel (C elements) */
  int64_t ih, iw, oh, ow;
  const int64_t *ys, *xs;
} nearest_task;

static void nearest_rows(int64_t b, int64_t e, void* arg) {
  const nearest_task* t = arg;
  for (int64_t row = b; row < e; row++) {
    const int64_t img = row / t->oh, oy = row % t->oh;
    const char* src = t->x + (size_t)((img * t->ih + t->ys[oy]) * t->iw) * t->pix;
    char* dst = t->y + (size_t)(row * t->ow) * t->pix;
    for (int64_t ox = 0; ox < t->ow; ox++)
      memcpy(dst + (size_t)ox * t->pix, src + (size_t)t->xs[ox] * t->pix, t->pix);
  }
}

static void resize_nearest_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  switch (x->dtype) {
    case TF_INT8: case TF_UINT8: case TF_INT16: case TF_UINT16: case TF_INT32: case TF_INT64:
    case TF_HALF: case TF_FLOAT: case TF_DOUBLE: case TF_BFLOAT16:
      break;
    default:
      mt_kernel_unsupported(ctx, "T", x->dtype);
      return;
  }
  int64_t oh, ow;
  float hs, ws;
  if (!resize_setup(ctx, &oh, &ow, &hs, &ws)) return;
  const int64_t dims[4] = {x->dims[0], oh, ow, x->dims[3]};
  TF_Tensor* y = mt_ctx_alloc(ctx, 0, x->dtype, dims, 4);
  if (!y || mt_tensor_nelems(y) == 0) return;
  if (x->dims[1] == 0 || x->dims[2] == 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "input image must be of non-zero size");
    return;
  }
  const int align = mt_op_attr_bool(ctx->op, "align_corners", 0);
  const int half = mt_op_attr_bool(ctx->op, "half_pixel_centers", 0);
  int64_t* idx = malloc((size_t)(oh + ow) * sizeof *idx);
  if (!idx) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM allocating resize indices");
    return;
  }
  nearest_index(idx, oh, x->dims[1], hs, align, half);
  nearest_index(idx + oh, ow, x->dims[2], ws, align, half);
  nearest_task t = {mt_tensor_data(x), mt_tensor_data(y),
                    (size_t)x->dims[3] * TF_DataTypeSize(x->dtype), x->dims[1], x->dims[2],
                    oh, ow, idx, idx + oh};
  mt_parallel_for_shared(ctx, x->dims[0] * oh, 8, ow * x->dims[3], nearest_rows, &t);
  free(idx);
}

/* ---- area (TensorFlow's resize_area_op.cc) ---- */

typedef struct area_span {
  int64_t start, end;      /* source cells [start, end) that overlap the target cell */
  float first, last;       /* the overlap of cells start and end - 1 */
} area_span;

/* The overlap of cell v with [lo, hi), as TensorFlow's ternaries compute it. */
static float area_overlap(int64_t v, float lo, float hi, float scale) {
  if ((float)v < lo) return (float)(v + 1) > hi ? scale : (float)(v + 1) - lo;
  return (float)(v + 1) > hi ? hi - (float)v : 1.0f;
}

static void area_spans(area_span* sp, int64_t out, float scale) {
  for (int64_t i = 0; i < out; i++) {
    const float lo = (float)i * scale, hi = (float)(i + 1) * scale;
    sp[i].start = (int64_t)floorf(lo);
    sp[i].end = (int64_t)ceilf(hi);
    sp[i].first = area_overlap(sp[i].start, lo, hi, scale);
    sp[i].last = area_overlap(sp[i].end - 1, lo, hi, scale);
  }
}

static int64_t bound(int64_t v, int64_t n) { return v < 0 ? 0 : (v > n - 1 ? n - 1 : v); }

static float area_load(const void* x, TF_DataType dt, int64_t i) {
  switch (dt) {
    case TF_INT8: return (float)((const int8_t*)x)[i];
    case TF_UINT8: return (float)((const uint8_t*)x)[i];
    case TF_INT16: return (float)((const int16_t*)x)[i];
    case TF_UINT16: return (float)((const uint16_t*)x)[i];
    case TF_INT32: return (float)((const int32_t*)x)[i];
    case TF_INT64: return (float)((const int64_t*)x)[i];
    case TF_HALF: return mt_half_to_float(((const mt_half*)x)[i]);
    case TF_BFLOAT16: return mt_bfloat16_to_float(((const mt_bfloat16*)x)[i]);
    case TF_DOUBLE: return (float)((const double*)x)[i];
    default: return ((const float*)x)[i];
  }
}

/* One target pixel: per channel, the rows' x-sums weighted by their y overlaps. */
static void area_pixel(const void* x, TF_DataType dt, int64_t img, int64_t ih, int64_t iw,
                       int64_t c, const area_span* ys, const area_span* xs, float scale,
                       float* out) {
  for (int64_t ch = 0; ch < c; ch++) {
    float sum = 0;
    for (int64_t r = ys->start; r < ys->end; r++) {
      const float wy = r == ys->start ? ys->first : (r == ys->end - 1 ? ys->last : 1.0f);
      const int64_t row = (img * ih + bound(r, ih)) * iw;
      float sy = area_load(x, dt, (row + bound(xs->start, iw)) * c + ch) * xs->first;
      if (xs->start + 1 != xs->end) {
        for (int64_t k = xs->start + 1; k < xs->end - 1; k++)
          sy += area_load(x, dt, (row + bound(k, iw)) * c + ch);
        sy += area_load(x, dt, (row + bound(xs->end - 1, iw)) * c + ch) * xs->last;
      }
      sum += sy * wy;
    }
    out[ch] = sum * scale;
  }
}

static void resize_area_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  switch (x->dtype) {
    case TF_INT8: case TF_UINT8: case TF_INT16: case TF_UINT16: case TF_INT32: case TF_INT64:
    case TF_HALF: case TF_FLOAT: case TF_DOUBLE: case TF_BFLOAT16:
      break;
    default:
      mt_kernel_unsupported(ctx, "T", x->dtype);
      return;
  }
  int64_t oh, ow;
  float hs, ws;
  if (!resize_setup(ctx, &oh, &ow, &hs, &ws)) return;
  const int64_t dims[4] = {x->dims[0], oh, ow, x->dims[3]};
  TF_Tensor* y = mt_ctx_alloc(ctx, 0, TF_FLOAT, dims, 4);
  if (!y || mt_tensor_nelems(y) == 0) return;
  if (x->dims[1] == 0 || x->dims[2] == 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "input image must be of non-zero size");
    return;
  }
  area_span* sp = mt_malloc((size_t)(oh + ow) * sizeof *sp, ctx->status);
  if (!sp) return;
  area_spans(sp, oh, hs);
  area_spans(sp + oh, ow, ws);
  const float scale = (float)(1.0 / (double)(hs * ws));
  const int64_t c = x->dims[3];
  float* out = mt_tensor_data(y);
  for (int64_t b = 0; b < x->dims[0]; b++)
    for (int64_t i = 0; i < oh; i++)
      for (int64_t j = 0; j < ow; j++, out += c)
        area_pixel(mt_tensor_data(x), x->dtype, b, x->dims[1], x->dims[2], c, &sp[i],
                   &sp[oh + j], scale, out);
  free(sp);
}

/* ---- gradients: ResizeBilinearGrad, ResizeNearestNeighborGrad ---- */

/* TensorFlow's shape function: original_image's shape, unchecked. */
static void resize_bilinear_grad_shape(mt_shape_ctx* ctx) { ctx->out[0] = ctx->in[1]; }

/* TensorFlow's ImageResizerGradientState checks. */
static int bilinear_grad_setup(mt_kernel_ctx* ctx, float* hs, float* ws) {
  const TF_Tensor *grads = ctx->inputs[0], *orig = ctx->inputs[1];
  const int align = mt_op_attr_bool(ctx->op, "align_corners", 0);
  const int half = mt_op_attr_bool(ctx->op, "half_pixel_centers", 0);
  char b[256];
  if (align && half) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "If half_pixel_centers is True, align_corners must be False.");
    return 0;
  }
  if (grads->ndims != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "input_grad must be 4-dimensional%s",
                   mt_dims_str(grads->dims, grads->ndims, b, sizeof b));
    return 0;
  }
  const int64_t rh = grads->dims[1], rw = grads->dims[2];
  if (rh <= 0 || rw <= 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "resized dimensions must be positive");
    return 0;
  }
  if (orig->ndims != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "original_image must be 4-dimensional%s",
                   mt_dims_str(orig->dims, orig->ndims, b, sizeof b));
    return 0;
  }
  const int64_t oh = orig->dims[1], ow = orig->dims[2];
  if (oh <= 0 || ow <= 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "original dimensions must be positive");
    return 0;
  }
  if (oh >= INT32_MAX || ow >= INT32_MAX) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "original sizes must be between 0 and max int32");
    return 0;
  }
  *hs = align && rh > 1 ? (float)(oh - 1) / (float)(rh - 1) : (float)oh / (float)rh;
  *ws = align && rw > 1 ? (float)(ow - 1) / (float)(rw - 1) : (float)ow / (float)rw;
  return 1;
}

typedef struct bilinear_grad_task {
  const float* dy;
  void* dx; /* float or double (half/bfloat16 accumulate in float first) */
  int wide;
  int64_t oh, ow, c, rh, rw;
  const lerp_idx *ys, *xs;
} bilinear_grad_task;

/* One image per item: each resized pixel's gradient goes to its four
 * source pixels with the forward weights, products in float as TensorFlow's
 * CPU functor computes them. */
static void bilinear_grad_images(int64_t begin, int64_t end, void* arg) {
  const bilinear_grad_task* t = arg;
  const int64_t c = t->c;
  for (int64_t img = begin; img < end; img++) {
    for (int64_t y = 0; y < t->rh; y++) {
      const lerp_idx wy = t->ys[y];
      const float iy = 1.0f - wy.lerp;
      const int64_t top = (img * t->oh + wy.lo) * t->ow, bot = (img * t->oh + wy.hi) * t->ow;
      for (int64_t x = 0; x < t->rw; x++) {
        const lerp_idx wx = t->xs[x];
        const float ix = 1.0f - wx.lerp;
        const float* g = t->dy + ((img * t->rh + y) * t->rw + x) * c;
        const int64_t o[4] = {(top + wx.lo) * c, (top + wx.hi) * c, (bot + wx.lo) * c,
                              (bot + wx.hi) * c};
        for (int64_t j = 0; j < c; j++) {
          const float v[4] = {g[j] * iy * ix, g[j] * iy * wx.lerp, g[j] * wy.lerp * ix,
                              g[j] * wy.lerp * wx.lerp};
          for (int k = 0; k < 4; k++) {
            if (t->wide) ((double*)t->dx)[o[k] + j] += (double)v[k];
            else ((float*)t->dx)[o[k] + j] += v[k];
          }
        }
      }
    }
  }
}

static void resize_bilinear_grad_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor *grads = ctx->inputs[0], *orig = ctx->inputs[1];
  const TF_DataType dt = orig->dtype;
  if (dt != TF_FLOAT && dt != TF_DOUBLE && dt != TF_HALF && dt != TF_BFLOAT16) {
    mt_kernel_unsupported(ctx, "T", dt);
    return;
  }
  float hs, ws;
  if (!bilinear_grad_setup(ctx, &hs, &ws)) return;
  const int64_t n = grads->dims[0], c = grads->dims[3], oh = orig->dims[1], ow = orig->dims[2];
  const int64_t dims[4] = {n, oh, ow, c};
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, dt, dims, 4);
  if (!out) return;
  const int64_t count = mt_tensor_nelems(out);
  const int narrow = dt == TF_HALF || dt == TF_BFLOAT16;
  float* acc = narrow ? mt_malloc(sizeof(float) * (size_t)(count > 0 ? count : 1), ctx->status)
                      : NULL;
  if (narrow && !acc) return;
  void* dx = narrow ? (void*)acc : mt_tensor_data(out);
  memset(dx, 0, (size_t)count * (dt == TF_DOUBLE ? sizeof(double) : sizeof(float)));
  const int half = mt_op_attr_bool(ctx->op, "half_pixel_centers", 0);
  const int64_t rh = grads->dims[1], rw = grads->dims[2];
  lerp_idx* w = mt_malloc((size_t)(rh + rw) * sizeof *w, ctx->status);
  if (w && count > 0) {
    lerp_weights(w, rh, oh, hs, half);
    lerp_weights(w + rh, rw, ow, ws, half);
    bilinear_grad_task t = {mt_tensor_data(grads), dx, dt == TF_DOUBLE, oh, ow, c, rh, rw,
                            w, w + rh};
    mt_parallel_for_shared(ctx, n, 1, rh * rw * c * 16, bilinear_grad_images, &t);
  }
  if (narrow) { /* one rounding at the end, as TensorFlow's float temporary */
    for (int64_t i = 0; i < count; i++) {
      if (dt == TF_HALF) ((mt_half*)mt_tensor_data(out))[i] = mt_float_to_half(acc[i]);
      else ((mt_bfloat16*)mt_tensor_data(out))[i] = mt_float_to_bfloat16(acc[i]);
    }
  }
  free(w);
  free(acc);
}

/* out[b, dst(y), dst(x), c] += grads[b, y, x, c] with the forward's
 * nearest index; in the storage type (half/bfloat16 round every add, as
 * Eigen's += does). */
#define NN_GRAD_ADD_(NAME, CT, LOAD, STORE)                                              \
  static void nn_grad_##NAME(const void* gv, void* ov, int64_t n, int64_t ih, int64_t iw, \
                             int64_t oh, int64_t ow, int64_t c, const int64_t* ys,         \
                             const int64_t* xs) {                                          \
    const CT* g = gv;                                                                     \
    CT* o = ov;                                                                           \
    for (int64_t b = 0; b < n; b++)                                                       \
      for (int64_t y = 0; y < ih; y++)                                                    \
        for (int64_t x = 0; x < iw; x++) {                                                \
          const CT* src = g + ((b * ih + y) * iw + x) * c;                                \
          CT* dst = o + ((b * oh + ys[y]) * ow + xs[x]) * c;                              \
          for (int64_t j = 0; j < c; j++) dst[j] = STORE(LOAD(dst[j]) + LOAD(src[j]));    \
        }                                                                                 \
  }
#define PLAIN_(v) (v)
#define WRAP_I32_(v) ((int32_t)(uint32_t)(v))
#define WRAP_I8_(v) ((int8_t)(uint8_t)(v))
#define LOAD_WIDE_(v) ((int64_t)(v))
NN_GRAD_ADD_(float, float, PLAIN_, PLAIN_)
NN_GRAD_ADD_(double, double, PLAIN_, PLAIN_)
NN_GRAD_ADD_(int32, int32_t, LOAD_WIDE_, WRAP_I32_)
NN_GRAD_ADD_(int8, int8_t, LOAD_WIDE_, WRAP_I8_)
NN_GRAD_ADD_(uint8, uint8_t, LOAD_WIDE_, (uint8_t))
NN_GRAD_ADD_(half, mt_half, mt_half_to_float, mt_float_to_half)
NN_GRAD_ADD_(bfloat16, mt_bfloat16, mt_bfloat16_to_float, mt_float_to_bfloat16)

typedef void (*nn_grad_fn)(const void*, void*, int64_t, int64_t, int64_t, int64_t, int64_t,
                           int64_t, const int64_t*, const int64_t*);
static const nn_grad_fn nn_grad_fns[MT_NUM_DTYPES] = {
    [TF_FLOAT] = nn_grad_float, [TF_DOUBLE] = nn_grad_double,  [TF_INT32] = nn_grad_int32,
    [TF_INT8] = nn_grad_int8,   [TF_UINT8] = nn_grad_uint8,    [TF_HALF] = nn_grad_half,
    [TF_BFLOAT16] = nn_grad_bfloat16};

static void resize_nearest_grad_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor *grads = ctx->inputs[0], *size = ctx->inputs[1];
  const nn_grad_fn fn =
      (unsigned)grads->dtype < MT_NUM_DTYPES ? nn_grad_fns[grads->dtype] : NULL;
  char b[256];
  if (!fn) {
    mt_kernel_unsupported(ctx, "T", grads->dtype);
    return;
  }
  if (grads->ndims != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "input must be 4-dimensional%s",
                   mt_dims_str(grads->dims, grads->ndims, b, sizeof b));
    return;
  }
  if (size->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "shape_t must be 1-dimensional%s",
                   mt_dims_str(size->dims, size->ndims, b, sizeof b));
    return;
  }
  if (size->dims[0] != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "shape_t must have two elements%s",
                   mt_dims_str(size->dims, size->ndims, b, sizeof b));
    return;
  }
  int64_t v[2];
  mt_tensor_ints(size, v, 2);
  if (v[0] <= 0 || v[1] <= 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "shape_t's elements must be positive");
    return;
  }
  const int64_t n = grads->dims[0], ih = grads->dims[1], iw = grads->dims[2];
  const int64_t c = grads->dims[3], oh = v[0], ow = v[1];
  const int64_t dims[4] = {n, oh, ow, c};
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, grads->dtype, dims, 4);
  if (!out || mt_tensor_nelems(out) == 0) return;
  memset(mt_tensor_data(out), 0,
         (size_t)mt_tensor_nelems(out) * TF_DataTypeSize(grads->dtype));
  const int align = mt_op_attr_bool(ctx->op, "align_corners", 0);
  const int half = mt_op_attr_bool(ctx->op, "half_pixel_centers", 0);
  /* the scales of the forward resize oh x ow -> ih x iw */
  if (ih == 0 || iw == 0) return; /* nothing flows back: zeros */
  const float hs = align && ih > 1 ? (float)(oh - 1) / (float)(ih - 1) : (float)oh / (float)ih;
  const float ws = align && iw > 1 ? (float)(ow - 1) / (float)(iw - 1) : (float)ow / (float)iw;
  int64_t* idx = mt_malloc((size_t)(ih + iw + 1) * sizeof *idx, ctx->status);
  if (!idx) return;
  nearest_index(idx, ih, oh, hs, align, half);
  nearest_index(idx + ih, iw, ow, ws, align, half);
  fn(mt_tensor_data(grads), mt_tensor_data(out), n, ih, iw, oh, ow, c, idx, idx + ih);
  free(idx);
}

static const mt_op_spec image_specs[] = {
    {.name = "ResizeBilinear", .inputs = "images: T, size: int32",
     .outputs = "resized_images: float",
     .attrs = "T: {int8, uint8, int16, uint16, int32, int64, bfloat16, half, float, double,"
              " bfloat16}; align_corners: bool = false; half_pixel_centers: bool = false",
     .shape = resize_shape, .kernel = resize_bilinear_kernel},
    {.name = "ResizeNearestNeighbor", .inputs = "images: T, size: int32",
     .outputs = "resized_images: T",
     .attrs = "T: {int8, uint8, int16, uint16, int32, int64, half, float, double, bfloat16};"
              " align_corners: bool = false; half_pixel_centers: bool = false",
     .shape = resize_shape, .kernel = resize_nearest_kernel},
    {.name = "ResizeArea", .inputs = "images: T, size: int32",
     .outputs = "resized_images: float",
     .attrs = "T: {int8, uint8, int16, uint16, int32, int64, half, float, double, bfloat16};"
              " align_corners: bool = false",
     .shape = resize_shape, .kernel = resize_area_kernel},
    {.name = "ResizeBilinearGrad", .inputs = "grads: float, original_image: T",
     .outputs = "output: T",
     .attrs = "T: {float, bfloat16, half, double}; align_corners: bool = false;"
              " half_pixel_centers: bool = false",
     .shape = resize_bilinear_grad_shape, .kernel = resize_bilinear_grad_kernel},
    {.name = "ResizeNearestNeighborGrad", .inputs = "grads: T, size: int32",
     .outputs = "output: T",
     .attrs = "T: {uint8, int8, int32, half, float, double, bfloat16};"
              " align_corners: bool = false; half_pixel_centers: bool = false",
     .shape = resize_shape, .kernel = resize_nearest_grad_kernel}, /* the forward's rule */
};

void mt_register_image_ops(void) {
  mt_register_ops(image_specs, (int)(sizeof image_specs / sizeof image_specs[0]));
  mt_register_image_codec_ops();
  mt_register_image_color_ops();
  mt_register_image_nms_ops();
  mt_register_image_draw_ops();
}
