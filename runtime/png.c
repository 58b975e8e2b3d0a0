/* PNG encode/decode over libpng (see png.h). */
#include "runtime/png.h"

#include <png.h>
#include <stdlib.h>
#include <string.h>

/* libpng's fatal errors jump back to the setjmp of the function that
 * started the work; warnings are dropped (TensorFlow only logs them). */
static void png_on_error(png_structp png, png_const_charp msg) {
  (void)msg;
  png_longjmp(png, 1);
}

static void png_on_warning(png_structp png, png_const_charp msg) {
  (void)png;
  (void)msg;
}

/* ---- encoding ---- */

typedef struct png_sink {
  uint8_t* buf;
  size_t len, cap;
  int failed;
} png_sink;

static void sink_write(png_structp png, png_bytep data, png_size_t n) {
  png_sink* s = png_get_io_ptr(png);
  if (s->failed) return;
  if (s->len + n > s->cap) {
    size_t cap = s->cap ? s->cap : 256;
    while (cap < s->len + n) cap *= 2;
    uint8_t* nb = realloc(s->buf, cap);
    if (!nb) {
      s->failed = 1;
      png_error(png, "out of memory");
    }
    s->buf = nb;
    s->cap = cap;
  }
  memcpy(s->buf + s->len, data, n);
  s->len += n;
}

static void sink_flush(png_structp png) { (void)png; }

typedef struct png_encode_job {
  const uint8_t* pixels;
  uint32_t width, height;
  int channels, bits, compression;
  png_structp png;
  png_infop info;
  png_sink sink;
} png_encode_job;

static const int kColorTypes[5] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                                   PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA};

/* Everything that may longjmp, with the job in memory (no locals live
 * across the jump). Returns 1 when the stream is complete. */
static int png_encode_run(png_encode_job* j) {
  if (setjmp(png_jmpbuf(j->png))) return 0;
  png_set_write_fn(j->png, &j->sink, sink_write, sink_flush);
  png_set_compression_level(j->png, j->compression < 0 ? 6 : j->compression);
  png_set_compression_mem_level(j->png, 9);
  png_set_IHDR(j->png, j->info, j->width, j->height, j->bits, kColorTypes[j->channels],
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(j->png, j->info);
  if (j->bits == 16) png_set_swap(j->png); /* samples are little-endian here */
  const size_t row = (size_t)j->width * (size_t)j->channels * (size_t)(j->bits / 8);
  for (uint32_t y = 0; y < j->height; y++)
    png_write_row(j->png, (png_const_bytep)(j->pixels + (size_t)y * row));
  png_write_end(j->png, NULL);
  return 1;
}

int mt_png_encode(const void* pixels, int64_t width, int64_t height, int channels, int bits,
                  int compression, uint8_t** out, size_t* out_len) {
  *out = NULL;
  *out_len = 0;
  if (width < 1 || height < 1 || width > INT32_MAX || height > INT32_MAX) return 0;
  if (channels < 1 || channels > 4 || (bits != 8 && bits != 16)) return 0;
  if (compression < -1 || compression > 9) return 0;
  png_encode_job j = {pixels, (uint32_t)width, (uint32_t)height, channels, bits, compression,
                      NULL, NULL, {NULL, 0, 0, 0}};
  j.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, png_on_error, png_on_warning);
  if (!j.png) return 0;
  j.info = png_create_info_struct(j.png);
  const int ok = j.info && png_encode_run(&j);
  png_destroy_write_struct(&j.png, &j.info);
  if (!ok || j.sink.failed) {
    free(j.sink.buf);
    return 0;
  }
  *out = j.sink.buf;
  *out_len = j.sink.len;
  return 1;
}

/* ---- decoding ---- */

typedef struct png_decode_job {
  const uint8_t* data;
  size_t left;
  int channels, bits;
  png_structp png;
  png_infop info;
  uint32_t width, height;
  int bit_depth, color_type, passes, synth16;
  uint8_t* out;
} png_decode_job;

static void source_read(png_structp png, png_bytep data, png_size_t n) {
  png_decode_job* j = png_get_io_ptr(png);
  if (j->left < n) png_error(png, "More bytes requested to read than available");
  memcpy(data, j->data, n);
  j->data += n;
  j->left -= n;
}

/* The header and TensorFlow's conversions (CommonInitDecode). */
static int png_decode_header(png_decode_job* j) {
  if (setjmp(png_jmpbuf(j->png))) return 0;
  png_set_read_fn(j->png, j, source_read);
  png_read_info(j->png, j->info);
  png_get_IHDR(j->png, j->info, &j->width, &j->height, &j->bit_depth, &j->color_type, NULL,
               NULL, NULL);
  if (j->width == 0 || j->height == 0) return 0;
  const int trns = png_get_valid(j->png, j->info, PNG_INFO_tRNS) != 0;
  if (j->channels == 0) {
    if (j->color_type == PNG_COLOR_TYPE_PALETTE) j->channels = trns ? 4 : 3;
    else j->channels = png_get_channels(j->png, j->info);
  }
  const int has_alpha = (j->color_type & PNG_COLOR_MASK_ALPHA) != 0;
  if ((j->channels & 1) == 0) { /* alpha wanted */
    if (!has_alpha) {
      if (trns) png_set_tRNS_to_alpha(j->png);
      else png_set_add_alpha(j->png, (1u << j->bit_depth) - 1, PNG_FILLER_AFTER);
    }
  } else if (has_alpha || trns) {
    png_set_strip_alpha(j->png);
  }
  if (j->bit_depth > 8 && j->bits <= 8) png_set_strip_16(j->png);
  j->synth16 = j->bit_depth <= 8 && j->bits == 16;
  png_set_packing(j->png);
  j->passes = png_set_interlace_handling(j->png);
  if (j->bits > 8) png_set_swap(j->png);
  if (j->color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(j->png);
  const int is_gray = !(j->color_type & PNG_COLOR_MASK_COLOR);
  if (is_gray && j->bit_depth < 8) png_set_expand_gray_1_2_4_to_8(j->png);
  if (j->channels < 3) {
    if (!is_gray) png_set_rgb_to_gray(j->png, 1, 0.299, 0.587);
  } else if (is_gray) {
    png_set_gray_to_rgb(j->png);
  }
  png_read_update_info(j->png, j->info);
  return 1;
}

static int png_decode_rows(png_decode_job* j) {
  if (setjmp(png_jmpbuf(j->png))) return 0;
  const size_t row = (size_t)j->width * (size_t)j->channels * (size_t)(j->bits / 8);
  for (int p = 0; p < j->passes; p++)
    for (uint32_t y = 0; y < j->height; y++) png_read_row(j->png, j->out + (size_t)y * row, NULL);
  png_read_end(j->png, j->info);
  return 1;
}

/* 8-bit samples decoded at the start of each 16-bit row, widened in place
 * (last first) as v * 257. */
static void widen_8_to_16(uint8_t* buf, uint32_t width, uint32_t height, int channels) {
  const size_t n = (size_t)width * (size_t)channels;
  for (uint32_t y = 0; y < height; y++) {
    uint8_t* row = buf + (size_t)y * n * 2;
    uint16_t* wide = (uint16_t*)row;
    for (size_t i = n; i-- > 0;) wide[i] = (uint16_t)(row[i] * 257u);
  }
}

int mt_png_decode(const uint8_t* data, size_t n, int channels, int bits, mt_png_alloc_fn alloc,
                  void* arg, uint32_t* width, uint32_t* height) {
  png_decode_job j;
  memset(&j, 0, sizeof j);
  j.data = data;
  j.left = n;
  j.channels = channels;
  j.bits = bits;
  *width = *height = 0;
  j.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, png_on_error, png_on_warning);
  if (!j.png) return MT_PNG_BAD_HEADER;
  j.info = png_create_info_struct(j.png);
  int rc = MT_PNG_OK;
  if (!j.info || !png_decode_header(&j)) {
    rc = MT_PNG_BAD_HEADER;
  } else {
    *width = j.width;
    *height = j.height;
    const uint64_t total = (uint64_t)j.width * j.height;
    if (j.width >= (1u << 27) || j.height >= (1u << 27) || total >= ((uint64_t)1 << 29)) {
      rc = MT_PNG_TOO_LARGE;
    } else if (!(j.out = alloc(arg, j.width, j.height, j.channels))) {
      rc = MT_PNG_ALLOC_FAILED;
    } else if (!png_decode_rows(&j)) {
      rc = MT_PNG_BAD_DATA;
    } else if (j.synth16) {
      widen_8_to_16(j.out, j.width, j.height, j.channels);
    }
  }
  png_destroy_read_struct(&j.png, j.info ? &j.info : NULL, NULL);
  return rc;
}
