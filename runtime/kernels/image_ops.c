/* Image resizing: ResizeBilinear, ResizeNearestNeighbor. Signatures,
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
};

void mt_register_image_ops(void) {
  mt_register_ops(image_specs, (int)(sizeof image_specs / sizeof image_specs[0]));
}
