/* Tests of the codec layer over libpng, libjpeg-turbo and giflib (runtime/png.c,
 * runtime/jpeg.c, runtime/gif.c): PNG round trips for every channel count and bit depth,
 * TensorFlow's channel conversions worked by hand, bad arguments, and a fuzz of all
 * three decoders over the files in tests/fixtures/images -- every truncation and
 * thousands of random bit flips -- which must return an error or an image, never crash,
 * read out of bounds or leak (the asan-ctest build checks that). The codecs are hidden
 * inside libc_api.so, so this test compiles them in directly (the Makefile links the
 * Debian libraries). */
#include "runtime/gif.c"
#include "runtime/jpeg.c"
#include "runtime/png.c"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"

typedef struct buf {
  uint8_t* p;
  size_t cap;
} buf;

static void* png_into(void* arg, int64_t w, int64_t h, int c) {
  buf* b = arg;
  const size_t need = (size_t)(w * h * c) * 2;
  if (need > b->cap) {
    free(b->p);
    b->p = malloc(need);
    b->cap = need;
  }
  return b->p;
}

static uint8_t* jpeg_into(void* arg, int w, int h, int c) {
  return png_into(arg, w, h, c);
}

static uint8_t* gif_into(void* arg, int frames, int w, int h, int c, char* err, size_t cap) {
  (void)err;
  (void)cap;
  return png_into(arg, (int64_t)frames * w, h, c);
}

/* Every channel count at 8 and 16 bits decodes to the pixels encoded. */
static void test_png_round_trips(void) {
  buf b = {0};
  for (int bits = 8; bits <= 16; bits += 8) {
    for (int c = 1; c <= 4; c++) {
      const int w = 7, h = 5, n = w * h * c;
      uint16_t px16[7 * 5 * 4];
      uint8_t px8[7 * 5 * 4];
      for (int i = 0; i < n; i++) {
        px16[i] = (uint16_t)(i * 2731 + 17);
        px8[i] = (uint8_t)(i * 37 + 5);
      }
      const void* px = bits == 8 ? (const void*)px8 : (const void*)px16;
      uint8_t* png;
      size_t len;
      CHECK(mt_png_encode(px, w, h, c, bits, -1, &png, &len) == 1);
      uint32_t gw, gh;
      CHECK(mt_png_decode(png, len, 0, bits, png_into, &b, &gw, &gh) == MT_PNG_OK);
      CHECK(gw == (uint32_t)w && gh == (uint32_t)h);
      CHECK(memcmp(b.p, px, (size_t)n * (size_t)(bits / 8)) == 0);
      free(png);
    }
  }
  free(b.p);
}

/* TensorFlow's conversions: gray -> RGB repeats, RGB -> gray with the 0.299/0.587 weights,
 * an added alpha is opaque, 8-bit samples widen as v * 257. */
static void test_png_conversions(void) {
  buf b = {0};
  const uint8_t rgb[2 * 3] = {255, 0, 0, 10, 200, 30};
  uint8_t* png;
  size_t len;
  uint32_t w, h;
  CHECK(mt_png_encode(rgb, 2, 1, 3, 8, 6, &png, &len) == 1);
  CHECK(mt_png_decode(png, len, 4, 8, png_into, &b, &w, &h) == MT_PNG_OK);
  const uint8_t rgba[8] = {255, 0, 0, 255, 10, 200, 30, 255};
  CHECK(memcmp(b.p, rgba, 8) == 0);
  CHECK(mt_png_decode(png, len, 1, 8, png_into, &b, &w, &h) == MT_PNG_OK);
  /* libpng's fixed-point weights: red 0.299 * 255 = 76.2 -> 76 */
  CHECK(b.p[0] == 76);
  CHECK(mt_png_decode(png, len, 3, 16, png_into, &b, &w, &h) == MT_PNG_OK);
  const uint16_t* wide = (const uint16_t*)b.p;
  CHECK(wide[0] == 65535 && wide[1] == 0 && wide[3] == 10 * 257 && wide[4] == 200 * 257);
  free(png);
  const uint8_t gray[3] = {0, 128, 255};
  CHECK(mt_png_encode(gray, 3, 1, 1, 8, 0, &png, &len) == 1);
  CHECK(mt_png_decode(png, len, 3, 8, png_into, &b, &w, &h) == MT_PNG_OK);
  const uint8_t rgb3[9] = {0, 0, 0, 128, 128, 128, 255, 255, 255};
  CHECK(memcmp(b.p, rgb3, 9) == 0);
  free(png);
  free(b.p);
}

static void test_png_bad_arguments(void) {
  const uint8_t px[16] = {0};
  uint8_t* png = (uint8_t*)1;
  size_t len = 1;
  CHECK(mt_png_encode(px, 0, 2, 1, 8, -1, &png, &len) == 0 && png == NULL && len == 0);
  CHECK(mt_png_encode(px, 2, 2, 5, 8, -1, &png, &len) == 0);
  CHECK(mt_png_encode(px, 2, 2, 1, 12, -1, &png, &len) == 0);
  CHECK(mt_png_encode(px, 2, 2, 1, 8, 10, &png, &len) == 0);
  CHECK(mt_png_encode(px, (int64_t)1 << 31, 1, 1, 8, -1, &png, &len) == 0);
  buf b = {0};
  uint32_t w, h;
  CHECK(mt_png_decode((const uint8_t*)"not a png", 9, 0, 8, png_into, &b, &w, &h) ==
        MT_PNG_BAD_HEADER);
  free(b.p);
}

/* Higher levels compress a smooth image more; every level decodes to the same pixels. */
static void test_png_levels(void) {
  enum { W = 64, H = 48 };
  static uint8_t px[W * H * 3];
  for (int i = 0; i < W * H * 3; i++) px[i] = (uint8_t)((i / 3) % W + (i / (3 * W)));
  size_t prev = 0;
  buf b = {0};
  for (int level = 0; level <= 9; level += 9) {
    uint8_t* png;
    size_t len;
    uint32_t w, h;
    CHECK(mt_png_encode(px, W, H, 3, 8, level, &png, &len) == 1);
    if (level == 9) CHECK(len < prev / 4);
    prev = len;
    CHECK(mt_png_decode(png, len, 3, 8, png_into, &b, &w, &h) == MT_PNG_OK);
    CHECK(memcmp(b.p, px, sizeof px) == 0);
    free(png);
  }
  free(b.p);
}

static uint8_t* read_file(const char* name, size_t* n) {
  char path[256];
  snprintf(path, sizeof path, "tests/fixtures/images/%s", name);
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t* p = malloc((size_t)len);
  *n = fread(p, 1, (size_t)len, f);
  fclose(f);
  return p;
}

/* Decodes `data` with the decoder for `kind`; 1 if it gave an image. */
static int decode_any(char kind, const uint8_t* data, size_t n, buf* b, int variant) {
  if (kind == 'p') {
    uint32_t w, h;
    return mt_png_decode(data, n, variant % 5 == 2 ? 0 : variant % 5, variant & 8 ? 16 : 8,
                         png_into, b, &w, &h) == MT_PNG_OK;
  }
  if (kind == 'j') {
    mt_jpeg_decode_flags f = {0};
    f.components = (variant % 3) == 2 ? 3 : variant % 3;
    f.ratio = 1 << (variant % 4);
    f.fancy_upscaling = variant & 1;
    f.try_recover_truncated = (variant & 4) != 0;
    f.min_acceptable_fraction = (variant & 4) ? 0.25f : 1.0f;
    f.dct_accurate = (variant & 8) != 0;
    if (variant & 16) {
      f.crop = 1;
      f.crop_x = 1;
      f.crop_y = 2;
      f.crop_width = 5;
      f.crop_height = 3;
    }
    int w, h, c;
    (void)mt_jpeg_info(data, n, &w, &h, &c);
    return mt_jpeg_decode(data, n, &f, jpeg_into, b);
  }
  char err[256];
  return mt_gif_decode(data, n, variant & 1, gif_into, b, err, sizeof err);
}

static uint32_t rng_state = 12345;
static uint32_t rnd(void) {
  rng_state = rng_state * 1664525u + 1013904223u;
  return rng_state >> 8;
}

/* Every prefix of each file, and 400 copies with 1-4 random bits flipped, through the
 * decoder with varying options. The intact file must decode. */
static void fuzz_file(const char* name, char kind) {
  size_t n;
  uint8_t* data = read_file(name, &n);
  CHECK(data != NULL);
  if (!data) return;
  buf b = {0};
  CHECK(decode_any(kind, data, n, &b, 0) == 1);
  for (size_t len = 0; len < n; len++) (void)decode_any(kind, data, len, &b, (int)len);
  uint8_t* copy = malloc(n);
  for (int round = 0; round < 400; round++) {
    memcpy(copy, data, n);
    const int flips = 1 + (int)(rnd() % 4);
    for (int k = 0; k < flips; k++) copy[rnd() % n] ^= (uint8_t)(1u << (rnd() % 8));
    (void)decode_any(kind, copy, n, &b, round);
  }
  free(copy);
  free(data);
  free(b.p);
}

static void test_fuzz(void) {
  const char* pngs[] = {"rgb.png", "rgba.png", "gray.png", "gray_alpha.png", "palette.png",
                        "palette_trns.png", "gray1.png", "gray16.png"};
  for (size_t i = 0; i < sizeof pngs / sizeof pngs[0]; i++) fuzz_file(pngs[i], 'p');
  const char* jpegs[] = {"rgb.jpg", "rgb444.jpg", "progressive.jpg", "gray.jpg", "cmyk.jpg"};
  for (size_t i = 0; i < sizeof jpegs / sizeof jpegs[0]; i++) fuzz_file(jpegs[i], 'j');
  fuzz_file("anim.gif", 'g');
  fuzz_file("still.gif", 'g');
}

int main(void) {
  test_png_round_trips();
  test_png_conversions();
  test_png_bad_arguments();
  test_png_levels();
  test_fuzz();
  CTEST_END();
}
