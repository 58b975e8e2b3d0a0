/* Image codecs: DecodeJpeg, DecodePng, DecodeGif, DecodeBmp, DecodeImage,
 * DecodeAndCropJpeg, EncodePng, EncodeJpeg, EncodeJpegVariableQuality,
 * ExtractJpegShape. OpDefs, shape functions and messages are TensorFlow's
 * (image_ops.cc, decode_image_op.cc, encode_*_op.cc); the codecs are libpng,
 * libjpeg-turbo and giflib (runtime/png.h, runtime/jpeg.h, runtime/gif.h).
 *
 * As in TensorFlow, every Decode* op sniffs the format: DecodeJpeg and
 * DecodePng read JPEG, PNG and single-frame GIF alike (3-D), DecodeGif gives
 * 4-D for all three, only DecodeImage and DecodeBmp read BMP. Corrupt bytes
 * are an InvalidArgument error, never a crash. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/gif.h"
#include "runtime/jpeg.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/image/image_family.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/png.h"

/* ---- shape functions ---- */

static int channels_dim(mt_shape_ctx* ctx, int64_t* dim) {
  const int64_t c = mt_op_attr_int(ctx->op, "channels", 0);
  if (c < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "channels must be non-negative, got %lld",
                   (long long)c);
    return 0;
  }
  *dim = c == 0 ? -1 : c;
  return 1;
}

static void decode_shape(mt_shape_ctx* ctx) {
  int64_t c;
  if (!mt_shape_with_rank(ctx, 0, 0) || !channels_dim(ctx, &c)) return;
  const int64_t d[3] = {-1, -1, c};
  ctx->out[0] = mt_shape_make(d, 3);
}

static void decode_image_shape(mt_shape_ctx* ctx) {
  int64_t c;
  if (!mt_shape_with_rank(ctx, 0, 0) || !channels_dim(ctx, &c)) return;
  if (mt_op_attr_bool(ctx->op, "expand_animations", 1)) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  const int64_t d[3] = {-1, -1, c};
  ctx->out[0] = mt_shape_make(d, 3);
}

static void decode_gif_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 0)) return;
  const int64_t d[4] = {-1, -1, -1, 3};
  ctx->out[0] = mt_shape_make(d, 4);
}

static void decode_crop_shape(mt_shape_ctx* ctx) {
  int64_t c;
  if (!mt_shape_with_rank(ctx, 0, 0) || !channels_dim(ctx, &c)) return;
  if (!mt_shape_with_rank(ctx, 1, 1)) return;
  const int64_t nw = ctx->in[1].rank == 1 ? ctx->in[1].dims[0] : -1;
  if (nw >= 0 && nw != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension must be 4 but is %lld",
                   (long long)nw);
    return;
  }
  int64_t d[3] = {-1, -1, c}, w[4];
  if (mt_shape_input_as_ints(ctx, 1, w, 4) == 4) {
    d[0] = w[2];
    d[1] = w[3];
  }
  ctx->out[0] = mt_shape_make(d, 3);
}

static void encode_png_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank_at_least(ctx, 0, 3)) return;
  const mt_shape* in = &ctx->in[0];
  if (in->rank < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  ctx->out[0] = mt_shape_make(in->dims, in->rank - 3);
}

static void encode_jpeg_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 3)) return; /* quality's rank is checked at run time */
  ctx->out[0] = mt_shape_scalar();
}

static void jpeg_shape_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 0)) return;
  const int64_t d[1] = {3};
  ctx->out[0] = mt_shape_make(d, 1);
}

/* ---- decoding ---- */

enum { FMT_UNKNOWN, FMT_PNG, FMT_JPEG, FMT_GIF, FMT_BMP, FMT_WEBP };

static int starts_with(const uint8_t* p, size_t n, const char* magic, size_t m) {
  return n >= m && memcmp(p, magic, m) == 0;
}

/* TensorFlow's ClassifyFileFormat. */
static int sniff(const uint8_t* p, size_t n) {
  if (starts_with(p, n, "\xff\xd8\xff", 3)) return FMT_JPEG;
  if (starts_with(p, n, "\x89PNG\r\n\x1a\n", 8)) return FMT_PNG;
  if (starts_with(p, n, "GIF8", 4)) return FMT_GIF;
  if (starts_with(p, n, "BM", 2)) return FMT_BMP;
  if (n > 12 && starts_with(p, n, "RIFF", 4) && memcmp(p + 8, "WEBP", 4) == 0) return FMT_WEBP;
  return FMT_UNKNOWN;
}

/* What a Decode* kernel call needs to know about itself. */
typedef struct decode_call {
  mt_kernel_ctx* ctx;
  const char* op;     /* op type */
  int channels;
  TF_DataType dtype;  /* output dtype */
  int expand;         /* DecodeImage's expand_animations */
  size_t size;        /* input bytes */
  uint8_t* scratch;   /* uint8 pixels to convert to dtype (freed by the caller) */
  TF_Tensor* out;
  int64_t dims[4];
  int ndims;
} decode_call;

static int is_op(const decode_call* d, const char* name) { return strcmp(d->op, name) == 0; }

static void bad(decode_call* d, const char* fmt, const char* arg) {
  mt_status_setf(d->ctx->status, TF_INVALID_ARGUMENT, fmt, arg);
}

/* Allocates the output of frames x h x w x c (frames < 0: a 3-D image) and
 * returns where uint8 pixels go: the output itself, or scratch when the
 * dtype is wider. */
static uint8_t* alloc_pixels(decode_call* d, int64_t frames, int64_t h, int64_t w, int64_t c) {
  d->ndims = 0;
  if (frames >= 0) d->dims[d->ndims++] = frames;
  d->dims[d->ndims++] = h;
  d->dims[d->ndims++] = w;
  d->dims[d->ndims++] = c;
  d->out = mt_ctx_alloc(d->ctx, 0, d->dtype, d->dims, d->ndims);
  if (!d->out) return NULL;
  if (d->dtype == TF_UINT8) return mt_tensor_data(d->out);
  const int64_t n = mt_tensor_nelems(d->out);
  d->scratch = mt_malloc((size_t)(n > 0 ? n : 1), d->ctx->status);
  return d->scratch;
}

/* uint8 scratch -> uint16 (x 256, as TensorFlow scales) or float
 * (x 1/255). */
static void widen_scratch(decode_call* d) {
  if (!d->scratch || !d->out) return;
  const int64_t n = mt_tensor_nelems(d->out);
  if (d->dtype == TF_UINT16) {
    uint16_t* o = mt_tensor_data(d->out);
    for (int64_t i = 0; i < n; i++) o[i] = (uint16_t)(d->scratch[i] * 256u);
  } else if (d->dtype == TF_FLOAT) {
    float* o = mt_tensor_data(d->out);
    const float scale = (float)(1.0 / 255.0);
    for (int64_t i = 0; i < n; i++) o[i] = (float)d->scratch[i] * scale;
  }
}

/* -- JPEG -- */

static uint8_t* jpeg_alloc(void* arg, int w, int h, int c) {
  decode_call* d = arg;
  return alloc_pixels(d, is_op(d, "DecodeGif") ? 1 : -1, h, w, c);
}

static int read_jpeg_flags(decode_call* d, mt_jpeg_decode_flags* f) {
  memset(f, 0, sizeof *f);
  f->components = d->channels;
  f->ratio = 1;
  f->fancy_upscaling = 1;
  f->min_acceptable_fraction = 1.0f;
  if (!is_op(d, "DecodeJpeg") && !is_op(d, "DecodeAndCropJpeg")) return 1;
  const TF_Operation* op = d->ctx->op;
  f->ratio = (int)mt_op_attr_int(op, "ratio", 1);
  if (f->ratio != 1 && f->ratio != 2 && f->ratio != 4 && f->ratio != 8) {
    mt_status_setf(d->ctx->status, TF_INVALID_ARGUMENT, "ratio must be 1, 2, 4, or 8, got %d",
                   f->ratio);
    return 0;
  }
  f->fancy_upscaling = mt_op_attr_bool(op, "fancy_upscaling", 1);
  f->try_recover_truncated = mt_op_attr_bool(op, "try_recover_truncated", 0);
  f->min_acceptable_fraction = mt_op_attr_float(op, "acceptable_fraction", 1.0f);
  const char* dct = mt_op_attr_str(op, "dct_method", "");
  if (strcmp(dct, "") != 0 && strcmp(dct, "INTEGER_FAST") != 0 &&
      strcmp(dct, "INTEGER_ACCURATE") != 0) {
    mt_status_setf(d->ctx->status, TF_INVALID_ARGUMENT,
                   "dct_method must be one of {'', 'INTEGER_FAST', 'INTEGER_ACCURATE'}");
    return 0;
  }
  f->dct_accurate = strcmp(dct, "INTEGER_ACCURATE") == 0;
  return 1;
}

static int read_crop_window(decode_call* d, mt_jpeg_decode_flags* f) {
  const TF_Tensor* w = d->ctx->inputs[1];
  char b[128];
  if (w->ndims != 1) {
    bad(d, "crop_window must be 1-D, got shape %s", mt_dims_str(w->dims, w->ndims, b, sizeof b));
    return 0;
  }
  if (w->dims[0] != 4) {
    bad(d, "crop_size must have four elements %s", mt_dims_str(w->dims, w->ndims, b, sizeof b));
    return 0;
  }
  const int32_t* v = mt_tensor_data(w);
  f->crop = 1;
  f->crop_y = v[0];
  f->crop_x = v[1];
  f->crop_height = v[2];
  f->crop_width = v[3];
  return 1;
}

static void decode_jpeg_data(decode_call* d, const uint8_t* p, size_t n) {
  if (d->channels == 4) {
    bad(d, "%s", "JPEG does not support 4 channels");
    return;
  }
  mt_jpeg_decode_flags f;
  if (!read_jpeg_flags(d, &f)) return;
  if (is_op(d, "DecodeAndCropJpeg") && !read_crop_window(d, &f)) return;
  if (is_op(d, "DecodeBmp")) {
    bad(d, "%s", "Trying to decode JPEG format using DecodeBmp op. Use `decode_jpeg` or "
                 "`decode_image` instead.");
    return;
  }
  if (!mt_jpeg_decode(p, n, &f, jpeg_alloc, d)) {
    if (TF_GetCode(d->ctx->status) == TF_OK)
      bad(d, "%s", "jpeg::Uncompress failed. Invalid JPEG data or crop window.");
    return;
  }
  widen_scratch(d);
}

/* -- PNG -- */

typedef struct png_call {
  decode_call* d;
  int bits;
  void* wide; /* 16-bit pixels for a float output */
} png_call;

static void* png_alloc(void* arg, int64_t w, int64_t h, int c) {
  png_call* pc = arg;
  decode_call* d = pc->d;
  if (is_op(d, "DecodeBmp")) {
    bad(d, "%s", "Trying to decode PNG format using DecodeBmp op. Use `decode_png` or "
                 "`decode_image` instead.");
    return NULL;
  }
  if (is_op(d, "DecodeAndCropJpeg")) {
    bad(d, "%s", "DecodeAndCropJpeg operation can run on JPEG only, but detected PNG.");
    return NULL;
  }
  d->ndims = 0;
  if (is_op(d, "DecodeGif")) d->dims[d->ndims++] = 1;
  d->dims[d->ndims++] = h;
  d->dims[d->ndims++] = w;
  d->dims[d->ndims++] = c;
  d->out = mt_ctx_alloc(d->ctx, 0, d->dtype, d->dims, d->ndims);
  if (!d->out) return NULL;
  if (d->dtype != TF_FLOAT) return mt_tensor_data(d->out);
  pc->wide = mt_malloc((size_t)(w * h * c) * 2, d->ctx->status);
  return pc->wide;
}

static void decode_png_data(decode_call* d, const uint8_t* p, size_t n) {
  png_call pc = {d, d->dtype == TF_UINT8 ? 8 : 16, NULL};
  uint32_t w, h;
  const int rc = mt_png_decode(p, n, d->channels, pc.bits, png_alloc, &pc, &w, &h);
  char num[64];
  switch (rc) {
    case MT_PNG_OK:
      break;
    case MT_PNG_BAD_HEADER:
      bad(d, "%s", "Invalid PNG. Failed to initialize decoder.");
      break;
    case MT_PNG_TOO_LARGE:
      mt_status_setf(d->ctx->status, TF_INVALID_ARGUMENT, "PNG size too large for int: %u by %u",
                     w, h);
      break;
    case MT_PNG_BAD_DATA:
      snprintf(num, sizeof num, "%zu", n);
      bad(d, "Invalid PNG data, size %s", num);
      break;
    default: /* the allocator set the status */
      break;
  }
  if (rc == MT_PNG_OK && pc.wide) {
    float* o = mt_tensor_data(d->out);
    const uint16_t* s = pc.wide;
    const float scale = (float)(1.0 / 65535.0);
    for (int64_t i = 0, e = mt_tensor_nelems(d->out); i < e; i++) o[i] = (float)s[i] * scale;
  }
  free(pc.wide);
}

/* -- GIF -- */

static uint8_t* gif_alloc(void* arg, int frames, int w, int h, int c, char* err, size_t cap) {
  decode_call* d = arg;
  if (is_op(d, "DecodePng") || is_op(d, "DecodeJpeg")) {
    if (frames != 1) {
      snprintf(err, cap, "Got %d frames, but animated gifs can only be decoded by "
               "tf.io.decode_gif or tf.io.decode_image", frames);
      mt_status_setf(d->ctx->status, TF_INVALID_ARGUMENT, "%s", err);
      return NULL;
    }
    return alloc_pixels(d, -1, h, w, c);
  }
  if (is_op(d, "DecodeGif") || d->expand) return alloc_pixels(d, frames, h, w, c);
  return alloc_pixels(d, -1, h, w, c);
}

static void decode_gif_data(decode_call* d, const uint8_t* p, size_t n) {
  if (d->channels != 0 && d->channels != 3) {
    mt_status_setf(d->ctx->status, TF_INVALID_ARGUMENT, "channels must be 0 or 3 for GIF, got %d",
                   d->channels);
    return;
  }
  if (is_op(d, "DecodeBmp")) {
    bad(d, "%s", "Trying to decode GIF format using DecodeBmp op. Use `decode_gif` or "
                 "`decode_image` instead.");
    return;
  }
  if (is_op(d, "DecodeAndCropJpeg")) {
    bad(d, "%s", "DecodeAndCropJpeg operation can run on JPEG only, but detected GIF.");
    return;
  }
  char err[256] = "";
  if (!mt_gif_decode(p, n, !is_op(d, "DecodeImage") || d->expand, gif_alloc, d, err,
                     sizeof err)) {
    if (TF_GetCode(d->ctx->status) == TF_OK)
      mt_status_setf(d->ctx->status, TF_INVALID_ARGUMENT, "Invalid GIF data (size %zu), %s", n,
                     err);
    return;
  }
  widen_scratch(d);
}

/* -- BMP (TensorFlow's own reader: uncompressed 8/24/32-bit rows) -- */

static int32_t le32(const uint8_t* p) {
  return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                   (uint32_t)p[3] << 24);
}

static void bmp_pixels(const uint8_t* src, int64_t row_size, uint8_t* dst, int64_t w, int64_t h,
                       int out_c, int in_c, int top_down) {
  for (int64_t i = 0; i < h; i++) {
    const uint8_t* r = src + (top_down ? i : h - 1 - i) * row_size;
    for (int64_t j = 0; j < w; j++) {
      const uint8_t* s = r + j * in_c;
      uint8_t* o = dst + (i * w + j) * out_c;
      if (in_c == 1) {
        o[0] = s[0];
        if (out_c >= 3) o[1] = o[2] = s[0];
        if (out_c == 4) o[3] = 255;
      } else { /* BGR(A) -> RGB(A) */
        o[0] = s[2];
        o[1] = s[1];
        o[2] = s[0];
        if (out_c == 4) o[3] = in_c == 4 ? s[3] : 255;
      }
    }
  }
}

static void decode_bmp_data(decode_call* d, const uint8_t* p, size_t n) {
  mt_kernel_ctx* ctx = d->ctx;
  if (d->channels == 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "`channels` must be 0, 3 or 4 for BMP, but got %d", d->channels);
    return;
  }
  if (!is_op(d, "DecodeBmp") && !is_op(d, "DecodeImage")) {
    if (is_op(d, "DecodeAndCropJpeg"))
      bad(d, "%s", "DecodeAndCropJpeg operation can run on JPEG only, but detected BMP.");
    else
      bad(d, "Trying to decode BMP format using a wrong op. Use `decode_bmp` or `decode_image` "
             "instead. Op used: %s", d->op);
    return;
  }
  if (n < 32) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Incomplete bmp content, requires at least 32 bytes to find the header "
                   "size, width, height, and bpp, got %zu bytes", n);
    return;
  }
  const int32_t header = le32(p + 10), width = le32(p + 18), height = le32(p + 22);
  const int16_t bpp = (int16_t)(p[28] | p[29] << 8);
  const int in_c = bpp / 8;
  if (in_c != 1 && in_c != 3 && in_c != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Number of channels inherent in the image must be 1, 3 or 4, was %d", in_c);
    return;
  }
  const int out_c = d->channels ? d->channels : in_c;
  const char* msg = width <= 0 ? "Width must be positive"
                    : height == 0 ? "Height must be nonzero"
                    : header < 0 ? "header size must be nonnegative" : NULL;
  const int64_t abs_h = height < 0 ? -(int64_t)height : height;
  if (!msg && (int64_t)width * abs_h >= INT32_MAX / 8)
    msg = "Total possible pixel bytes must be less than 2^30";
  if (msg) {
    bad(d, "%s", msg);
    return;
  }
  const int64_t row_size = ((int64_t)in_c * width + 3) / 4 * 4;
  const int64_t diff = (int64_t)n - header - row_size * abs_h;
  if (diff != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input size should match (header_size + row_size * abs_height) but they "
                   "differ by %lld", (long long)(int32_t)diff);
    return;
  }
  uint8_t* dst = alloc_pixels(d, -1, abs_h, width, out_c);
  if (!dst) return;
  bmp_pixels(p + header, row_size, dst, width, abs_h, out_c, in_c, height < 0);
  widen_scratch(d);
}

static void decode_kernel(mt_kernel_ctx* ctx) {
  decode_call d;
  memset(&d, 0, sizeof d);
  d.ctx = ctx;
  d.op = ctx->op->op_type;
  d.expand = mt_op_attr_bool(ctx->op, "expand_animations", 1);
  d.dtype = mt_op_attr_type(ctx->op, "dtype", TF_UINT8);
  d.channels = is_op(&d, "DecodeGif") ? 3 : (int)mt_op_attr_int(ctx->op, "channels", 0);
  if (d.channels != 0 && d.channels != 1 && d.channels != 3 && d.channels != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "`channels` must be 0, 1, 3 or 4 but got %d",
                   d.channels);
    return;
  }
  const TF_Tensor* in = ctx->inputs[0];
  char b[128];
  if (in->ndims != 0) {
    bad(&d, "`contents` must be scalar but got shape%s",
        mt_dims_str(in->dims, in->ndims, b, sizeof b));
    return;
  }
  const TF_TString* s = mt_tensor_data(in);
  const uint8_t* p = (const uint8_t*)TF_StringGetDataPointer(s);
  const size_t n = TF_StringGetSize(s);
  if (n == 0) {
    bad(&d, "%s", "Input is empty.");
    return;
  }
  if (n > INT_MAX) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input contents are too large for int: %zu",
                   n);
    return;
  }
  d.size = n;
  switch (sniff(p, n)) {
    case FMT_JPEG: decode_jpeg_data(&d, p, n); break;
    case FMT_PNG: decode_png_data(&d, p, n); break;
    case FMT_GIF: decode_gif_data(&d, p, n); break;
    case FMT_BMP: decode_bmp_data(&d, p, n); break;
    case FMT_WEBP: /* TensorFlow decodes WebP with libwebp; minitf has no WebP decoder */
      bad(&d, "%s", "WebP images are not supported by minitf's decoders.");
      break;
    default:
      bad(&d, "%s", "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP "
                    "required.");
  }
  free(d.scratch);
}

/* ---- ExtractJpegShape ---- */

static void extract_jpeg_shape_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  char b[128];
  if (in->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "contents must be scalar, got shape %s",
                   mt_dims_str(in->dims, in->ndims, b, sizeof b));
    return;
  }
  const TF_TString* s = mt_tensor_data(in);
  int w, h, c;
  const size_t n = TF_StringGetSize(s);
  if (!mt_jpeg_info((const uint8_t*)TF_StringGetDataPointer(s), n, &w, &h, &c)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Invalid JPEG data, size %zu", n);
    return;
  }
  const TF_DataType dt = mt_op_attr_type(ctx->op, "output_type", TF_INT32);
  const int64_t three = 3;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, dt, &three, 1);
  if (!out) return;
  const int64_t v[3] = {h, w, c};
  for (int i = 0; i < 3; i++) {
    if (dt == TF_INT64) ((int64_t*)mt_tensor_data(out))[i] = v[i];
    else ((int32_t*)mt_tensor_data(out))[i] = (int32_t)v[i];
  }
}

/* ---- encoding ---- */

static void encode_png_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* img = ctx->inputs[0];
  const int64_t level = mt_op_attr_int(ctx->op, "compression", -1);
  char b[128];
  if (level < -1 || level > 9) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "compression should be in [-1,9], got %lld",
                   (long long)level);
    return;
  }
  if (img->ndims < 3) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "images must be at least rank 3%s",
                   mt_dims_str(img->dims, img->ndims, b, sizeof b));
    return;
  }
  if (mt_tensor_nelems(img) >= INT32_MAX) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "image cannot have >= int32 max elements");
    return;
  }
  const int bd = img->ndims - 3;
  const int64_t h = img->dims[bd], w = img->dims[bd + 1], c = img->dims[bd + 2];
  if (w * c >= INT32_MAX / 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "image too wide to encode");
    return;
  }
  if (c < 1 || c > 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "image must have 1, 2, 3, or 4 channels, got %lld", (long long)c);
    return;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_STRING, img->dims, bd);
  if (!out) return;
  const int bits = img->dtype == TF_UINT16 ? 16 : 8;
  const size_t bytes = (size_t)(h * w * c) * (size_t)(bits / 8);
  TF_TString* o = mt_tensor_data(out);
  const uint8_t* px = mt_tensor_data(img);
  char failed[256] = "";
  size_t flen = 0;
  for (int64_t i = 0, nb = mt_tensor_nelems(out); i < nb; i++) {
    uint8_t* png;
    size_t len;
    if (!mt_png_encode(px + (size_t)i * bytes, w, h, (int)c, bits, (int)level, &png, &len)) {
      if (flen < sizeof failed - 24)
        flen += (size_t)snprintf(failed + flen, sizeof failed - flen, "%s%lld", flen ? ", " : "",
                                 (long long)i);
      continue;
    }
    TF_StringCopy(&o[i], (const char*)png, len);
    free(png);
  }
  if (flen)
    mt_status_setf(ctx->status, TF_INTERNAL,
                   "PNG encoding failed at the following flattened batch indices: %s", failed);
}

static int encode_jpeg_image_ok(mt_kernel_ctx* ctx, const TF_Tensor* img) {
  char b[128];
  if (img->ndims != 3) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "image must be 3-dimensional%s",
                   mt_dims_str(img->dims, img->ndims, b, sizeof b));
    return 0;
  }
  if (mt_tensor_nelems(img) >= INT32_MAX) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Cannot encode images with >= max int32 elements");
    return 0;
  }
  return 1;
}

static void encode_jpeg_run(mt_kernel_ctx* ctx, const TF_Tensor* img,
                            const mt_jpeg_encode_flags* f) {
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_STRING, NULL, 0);
  if (!out) return;
  uint8_t* jpg;
  size_t len;
  /* an empty image encodes to "" (TensorFlow's Compress fails and its
   * string stays empty: an Internal error) */
  if (!mt_jpeg_encode(mt_tensor_data(img), (int)img->dims[1], (int)img->dims[0], f, &jpg, &len)) {
    mt_status_setf(ctx->status, TF_INTERNAL, "JPEG encoding failed");
    return;
  }
  TF_StringCopy((TF_TString*)mt_tensor_data(out), (const char*)jpg, len);
  free(jpg);
}

static int channels_for(mt_kernel_ctx* ctx, const TF_Tensor* img, const char* format) {
  char b[128];
  const int64_t c = img->dims[2];
  if (format[0] == 0) {
    if (c == 1 || c == 3) return (int)c;
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "image must have 1 or 3 channels, got %s",
                   mt_dims_str(img->dims, img->ndims, b, sizeof b));
    return 0;
  }
  const int want = strcmp(format, "grayscale") == 0 ? 1 : 3;
  if (c != want) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "format %s expects %d channels, got %s",
                   format, want, mt_dims_str(img->dims, img->ndims, b, sizeof b));
    return 0;
  }
  return want;
}

static void encode_jpeg_kernel(mt_kernel_ctx* ctx) {
  const TF_Operation* op = ctx->op;
  mt_jpeg_encode_flags f = {0};
  f.quality = (int)mt_op_attr_int(op, "quality", 95);
  if (f.quality < 0 || f.quality > 100) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "quality must be in [0,100], got %d",
                   f.quality);
    return;
  }
  f.progressive = mt_op_attr_bool(op, "progressive", 0);
  f.optimize_size = mt_op_attr_bool(op, "optimize_size", 0);
  f.chroma_downsampling = mt_op_attr_bool(op, "chroma_downsampling", 1);
  f.density_unit = strcmp(mt_op_attr_str(op, "density_unit", "in"), "cm") == 0 ? 2 : 1;
  f.x_density = (int)mt_op_attr_int(op, "x_density", 300);
  f.y_density = (int)mt_op_attr_int(op, "y_density", 300);
  const mt_attr_value* xmp = mt_op_attr(op, "xmp_metadata");
  if (xmp && xmp->v.s.len) {
    f.xmp = xmp->v.s.data;
    f.xmp_len = xmp->v.s.len;
  }
  const TF_Tensor* img = ctx->inputs[0];
  if (!encode_jpeg_image_ok(ctx, img)) return;
  f.components = channels_for(ctx, img, mt_op_attr_str(op, "format", ""));
  if (f.components) encode_jpeg_run(ctx, img, &f);
}

static void encode_jpeg_vq_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor *img = ctx->inputs[0], *q = ctx->inputs[1];
  char b[128];
  if (!encode_jpeg_image_ok(ctx, img)) return;
  if (q->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "quality must be scalar: %s",
                   mt_dims_str(q->dims, q->ndims, b, sizeof b));
    return;
  }
  mt_jpeg_encode_flags f = {0};
  f.quality = *(const int32_t*)mt_tensor_data(q);
  f.chroma_downsampling = 1;
  f.density_unit = 1;
  f.x_density = f.y_density = 300;
  if (f.quality < 0 || f.quality > 100) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "quality must be in [0,100], got %d",
                   f.quality);
    return;
  }
  f.components = channels_for(ctx, img, "");
  if (f.components) encode_jpeg_run(ctx, img, &f);
}

#define JPEG_DECODE_ATTRS                                                                 \
  "channels: int = 0; ratio: int = 1; fancy_upscaling: bool = true;"                      \
  " try_recover_truncated: bool = false; acceptable_fraction: float = 1;"                 \
  " dct_method: string = ''"

static const mt_op_spec codec_specs[] = {
    {.name = "DecodeJpeg", .inputs = "contents: string", .outputs = "image: uint8",
     .attrs = JPEG_DECODE_ATTRS, .shape = decode_shape, .kernel = decode_kernel},
    {.name = "DecodeAndCropJpeg", .inputs = "contents: string, crop_window: int32",
     .outputs = "image: uint8", .attrs = JPEG_DECODE_ATTRS, .shape = decode_crop_shape,
     .kernel = decode_kernel},
    {.name = "DecodePng", .inputs = "contents: string", .outputs = "image: dtype",
     .attrs = "channels: int = 0; dtype: {uint8, uint16} = DT_UINT8", .shape = decode_shape,
     .kernel = decode_kernel},
    {.name = "DecodeGif", .inputs = "contents: string", .outputs = "image: uint8",
     .shape = decode_gif_shape, .kernel = decode_kernel},
    {.name = "DecodeBmp", .inputs = "contents: string", .outputs = "image: uint8",
     .attrs = "channels: int = 0", .shape = decode_shape, .kernel = decode_kernel},
    {.name = "DecodeImage", .inputs = "contents: string", .outputs = "image: dtype",
     .attrs = "channels: int = 0; dtype: {uint8, uint16, float} = DT_UINT8;"
              " expand_animations: bool = true",
     .shape = decode_image_shape, .kernel = decode_kernel},
    {.name = "ExtractJpegShape", .inputs = "contents: string", .outputs = "image_shape: output_type",
     .attrs = "output_type: {int32, int64} = DT_INT32", .shape = jpeg_shape_shape,
     .kernel = extract_jpeg_shape_kernel},
    {.name = "EncodePng", .inputs = "image: T", .outputs = "contents: string",
     .attrs = "compression: int = -1; T: {uint8, uint16} = DT_UINT8", .shape = encode_png_shape,
     .kernel = encode_png_kernel},
    {.name = "EncodeJpeg", .inputs = "image: uint8", .outputs = "contents: string",
     .attrs = "format: {'', 'grayscale', 'rgb'} = ''; quality: int = 95;"
              " progressive: bool = false; optimize_size: bool = false;"
              " chroma_downsampling: bool = true; density_unit: {'in', 'cm'} = 'in';"
              " x_density: int = 300; y_density: int = 300; xmp_metadata: string = ''",
     .shape = encode_jpeg_shape, .kernel = encode_jpeg_kernel},
    {.name = "EncodeJpegVariableQuality", .inputs = "images: uint8, quality: int32",
     .outputs = "contents: string", .shape = encode_jpeg_shape, .kernel = encode_jpeg_vq_kernel},
};

void mt_register_image_codec_ops(void) {
  mt_register_ops(codec_specs, (int)(sizeof codec_specs / sizeof codec_specs[0]));
}
