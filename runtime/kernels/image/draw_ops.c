/* DrawBoundingBoxes and DrawBoundingBoxesV2: a copy of the images with each box's outline
 * drawn, as TensorFlow's draw_bounding_box_op.cc draws it (coordinates scaled by
 * size - 1 in float and truncated; inverted boxes and boxes wholly outside are skipped;
 * colours from `colors` or TensorFlow's default table of ten, cycling per box).
 * A non-finite or huge coordinate skips its box (TensorFlow's cast is undefined there). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/half.h"
#include "runtime/kernels/image/image_family.h"
#include "runtime/kernels/kernel_util.h"

static void draw_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 4)) return;
  const mt_shape* in = &ctx->in[0];
  const int64_t d = in->rank == 4 ? in->dims[3] : -1;
  if (d >= 0 && d != 1 && d != 3 && d != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA)");
    return;
  }
  ctx->out[0] = *in;
}

static const float kDefaultColors[10][4] = {
    {1, 1, 0, 1}, {0, 0, 1, 1}, {1, 0, 0, 1}, {0, 1, 0, 1}, {0.5f, 0, 0.5f, 1},
    {0.5f, 0.5f, 0, 1}, {0.5f, 0, 0, 1}, {0, 0, 0.5f, 1}, {0, 1, 1, 1}, {1, 0, 1, 1}};

typedef struct canvas {
  void* px;
  TF_DataType dt;
  int64_t h, w, d;
} canvas;

static void put(const canvas* cv, int64_t b, int64_t y, int64_t x, const float* color) {
  const int64_t at = ((b * cv->h + y) * cv->w + x) * cv->d;
  for (int64_t c = 0; c < cv->d; c++) {
    if (cv->dt == TF_HALF) ((mt_half*)cv->px)[at + c] = mt_float_to_half(color[c]);
    else ((float*)cv->px)[at + c] = color[c];
  }
}

/* The box coordinate v scaled as TensorFlow does; 0 if it cannot be represented. */
static int scaled(float v, int64_t size, int64_t* out) {
  const float s = v * (float)(size - 1);
  if (!(fabsf(s) < 4.0e18f)) return 0;
  *out = (int64_t)s;
  return 1;
}

static void draw_box(const canvas* cv, int64_t b, const float* box, const float* color) {
  int64_t r0, c0, r1, c1;
  if (!scaled(box[0], cv->h, &r0) || !scaled(box[2], cv->h, &r1) ||
      !scaled(box[1], cv->w, &c0) || !scaled(box[3], cv->w, &c1))
    return;
  if (r0 > r1 || c0 > c1) return;                            /* inverted */
  if (r0 >= cv->h || r1 < 0 || c0 >= cv->w || c1 < 0) return; /* outside */
  const int64_t r0c = r0 > 0 ? r0 : 0, r1c = r1 < cv->h - 1 ? r1 : cv->h - 1;
  const int64_t c0c = c0 > 0 ? c0 : 0, c1c = c1 < cv->w - 1 ? c1 : cv->w - 1;
  for (int64_t j = c0c; j <= c1c; j++) {
    if (r0 >= 0) put(cv, b, r0, j, color);
    if (r1 < cv->h) put(cv, b, r1, j, color);
  }
  for (int64_t i = r0c; i <= r1c; i++) {
    if (c0 >= 0) put(cv, b, i, c0, color);
    if (c1 < cv->w) put(cv, b, i, c1, color);
  }
}

static void draw_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor *images = ctx->inputs[0], *boxes = ctx->inputs[1];
  const TF_DataType dt = images->dtype;
  char buf[128];
  if (dt != TF_FLOAT && dt != TF_HALF) {
    mt_kernel_unsupported(ctx, "T", dt);
    return;
  }
  const char* msg = images->ndims != 4 ? "The rank of the images should be 4"
                    : boxes->ndims != 3 ? "The rank of the boxes tensor should be 3"
                    : images->dims[0] != boxes->dims[0] ? "The batch sizes should be the same"
                    : NULL;
  const int64_t depth = images->ndims == 4 ? images->dims[3] : 0;
  if (!msg && depth != 1 && depth != 3 && depth != 4)
    msg = "Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA)";
  if (msg) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s", msg);
    return;
  }
  if (boxes->dims[2] != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "The size of the third dimension of the box must be 4. Received: %lld",
                   (long long)boxes->dims[2]);
    return;
  }
  const TF_Tensor* colors = ctx->ninputs == 3 ? ctx->inputs[2] : NULL;
  int64_t ncolors = 10;
  const float* table = &kDefaultColors[0][0];
  int64_t stride = 4;
  float gray[10][4];
  if (colors) {
    if (colors->ndims != 2) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "colors must be a 2-D matrix%s",
                     mt_dims_str(colors->dims, colors->ndims, buf, sizeof buf));
      return;
    }
    if (colors->dims[1] < depth) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "colors must have equal or more channels than the image provided: %s",
                     mt_dims_str(colors->dims, colors->ndims, buf, sizeof buf));
      return;
    }
    if (mt_tensor_nelems(colors) != 0) {
      table = mt_tensor_data(colors);
      ncolors = colors->dims[0];
      stride = colors->dims[1];
    }
  }
  if (table == &kDefaultColors[0][0] && depth == 1) { /* gray: full intensity */
    memcpy(gray, kDefaultColors, sizeof gray);
    for (int i = 0; i < 10; i++) gray[i][0] = 1;
    table = &gray[0][0];
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, dt, images->dims, 4);
  if (!out) return;
  memcpy(mt_tensor_data(out), mt_tensor_data(images),
         (size_t)mt_tensor_nelems(images) * TF_DataTypeSize(dt));
  canvas cv = {mt_tensor_data(out), dt, images->dims[1], images->dims[2], depth};
  const float* bx = mt_tensor_data(boxes);
  const int64_t nb = boxes->dims[1];
  for (int64_t b = 0; b < images->dims[0]; b++)
    for (int64_t k = 0; k < nb; k++)
      draw_box(&cv, b, bx + (b * nb + k) * 4, table + (k % ncolors) * stride);
}

static const mt_op_spec draw_specs[] = {
    {.name = "DrawBoundingBoxes", .inputs = "images: T, boxes: float", .outputs = "output: T",
     .attrs = "T: {float, half} = DT_FLOAT", .shape = draw_shape, .kernel = draw_kernel},
    {.name = "DrawBoundingBoxesV2", .inputs = "images: T, boxes: float, colors: float",
     .outputs = "output: T", .attrs = "T: {float, half} = DT_FLOAT", .shape = draw_shape,
     .kernel = draw_kernel},
};

void mt_register_image_draw_ops(void) {
  mt_register_ops(draw_specs, (int)(sizeof draw_specs / sizeof draw_specs[0]));
}
