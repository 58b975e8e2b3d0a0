/* Tests of the PNG encoder behind ImageSummary (runtime/png.c): CRC-32 and
 * Adler-32 on known data, a 2x2 image whose file is worked out byte by byte,
 * a large image whose stored deflate blocks are decoded by hand here, and
 * bad arguments. The encoder is hidden inside libc_api.so, so this test
 * compiles runtime/png.c in directly (it needs only the C library). */
#include "runtime/png.c"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"

#define U8(...) ((const uint8_t[]){__VA_ARGS__}), sizeof((const uint8_t[]){__VA_ARGS__})

/* An independent bit-at-a-time CRC-32, to check the table-driven one. */
static uint32_t slow_crc32(const uint8_t* p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; i++) {
    c ^= p[i];
    for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
  }
  return ~c;
}

/* Adler-32 with the modulo after every byte (RFC 1950's definition). */
static uint32_t slow_adler32(const uint8_t* p, size_t n) {
  uint32_t a = 1, b = 0;
  for (size_t i = 0; i < n; i++) {
    a = (a + p[i]) % 65521;
    b = (b + a) % 65521;
  }
  return (b << 16) | a;
}

static uint32_t be32(const uint8_t* p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void test_checksums(void) {
  /* The CRC-32 check value, and the CRC every PNG's IEND chunk carries. */
  CHECK(mt_crc32("123456789", 9, 0) == 0xCBF43926u);
  CHECK(mt_crc32("IEND", 4, 0) == 0xAE426082u);
  CHECK(mt_crc32("", 0, 0) == 0);
  /* Chaining: CRC("1234" then "56789") == CRC("123456789"). */
  CHECK(mt_crc32("56789", 5, mt_crc32("1234", 4, 0)) == 0xCBF43926u);
  /* Adler-32 of "Wikipedia" (RFC 1950's worked example) and of nothing. */
  CHECK(mt_adler32("Wikipedia", 9, 1) == 0x11E60398u);
  CHECK(mt_adler32("", 0, 1) == 1);
  CHECK(mt_adler32("pedia", 5, mt_adler32("Wiki", 4, 1)) == 0x11E60398u);
  /* 100000 bytes of 0xFF cross the 5552-byte blocks of deferred modulo. */
  size_t n = 100000;
  uint8_t* buf = malloc(n);
  memset(buf, 0xFF, n);
  CHECK(mt_adler32(buf, n, 1) == slow_adler32(buf, n));
  for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)(i * 7 + (i >> 8));
  CHECK(mt_adler32(buf, n, 1) == slow_adler32(buf, n));
  CHECK(mt_crc32(buf, n, 0) == slow_crc32(buf, n));
  free(buf);
}

/* 2x2 grayscale {0x00, 0xFF; 0x80, 0x01}. Filtered rows: 00 00 FF | 00 80
 * 01. Adler-32 by hand: a = 1+0+0+255+0+128+1 = 385 = 0x181; b = sum of the
 * running a values 1+1+256+256+384+385 = 1283 = 0x503. IHDR and IDAT CRCs
 * are checked against the bit-at-a-time CRC above. */
static void test_tiny_gray(void) {
  const uint8_t pixels[] = {0x00, 0xFF, 0x80, 0x01};
  uint8_t* png;
  size_t len;
  CHECK(mt_png_encode(pixels, 2, 2, 1, &png, &len) == 1);
  static const uint8_t want_head[] = {
      0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A,           /* signature */
      0, 0, 0, 13, 'I', 'H', 'D', 'R', 0, 0, 0, 2, 0, 0, 0, 2, /* 2 x 2 */
      8, 0, 0, 0, 0,                                          /* 8-bit gray */
  };
  static const uint8_t want_idat[] = {
      0, 0, 0, 17, 'I', 'D', 'A', 'T',
      0x78, 0x01,                   /* zlib header: deflate, 32K window */
      0x01, 0x06, 0x00, 0xF9, 0xFF, /* final stored block, LEN 6, NLEN */
      0x00, 0x00, 0xFF, 0x00, 0x80, 0x01, /* filter 0 + row, twice */
      0x05, 0x03, 0x01, 0x81,       /* Adler-32 */
  };
  static const uint8_t want_iend[] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82};
  size_t want_len = sizeof want_head + 4 + sizeof want_idat + 4 + sizeof want_iend;
  CHECK(len == want_len);
  if (len == want_len) {
    CHECK(memcmp(png, want_head, sizeof want_head) == 0);
    CHECK(be32(png + 29) == slow_crc32(png + 12, 17));
    CHECK(be32(png + 29) == 0x57DD52F8u); /* IHDR CRC, as zlib.crc32 gives */
    const uint8_t* idat = png + 33;
    CHECK(memcmp(idat, want_idat, sizeof want_idat) == 0);
    CHECK(be32(idat + sizeof want_idat) == slow_crc32(idat + 4, 4 + 17));
    CHECK(memcmp(idat + sizeof want_idat + 4, want_iend, sizeof want_iend) == 0);
  }
  free(png);
}

/* Walks the chunks: IHDR (checked against the arguments), IDATs, IEND;
 * every CRC checked. Returns the IDAT data (malloc'd) in *z / *zlen. */
static int read_chunks(const uint8_t* png, size_t len, uint32_t w, uint32_t h, int color,
                       uint8_t** z, size_t* zlen) {
  static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  if (len < 8 || memcmp(png, sig, 8) != 0) return 0;
  *z = NULL;
  *zlen = 0;
  size_t at = 8;
  int seen_end = 0, seen_hdr = 0;
  while (!seen_end && at + 12 <= len) {
    uint32_t n = be32(png + at);
    if (n > len - at - 12) return 0;
    const uint8_t* type = png + at + 4;
    const uint8_t* data = png + at + 8;
    if (be32(data + n) != slow_crc32(type, (size_t)n + 4)) return 0;
    if (!memcmp(type, "IHDR", 4)) {
      seen_hdr = n == 13 && be32(data) == w && be32(data + 4) == h && data[8] == 8 &&
                 data[9] == color && !data[10] && !data[11] && !data[12];
    } else if (!memcmp(type, "IDAT", 4)) {
      uint8_t* grown = realloc(*z, *zlen + n);
      if (!grown) return 0;
      memcpy(grown + *zlen, data, n);
      *z = grown;
      *zlen += n;
    } else if (!memcmp(type, "IEND", 4)) {
      seen_end = n == 0;
    }
    at += 12 + (size_t)n;
  }
  return seen_hdr && seen_end && at == len;
}

/* Inflates a zlib stream made only of stored blocks; returns the raw bytes
 * (malloc'd) or NULL. Counts the blocks in *nblocks. */
static uint8_t* inflate_stored(const uint8_t* z, size_t zlen, size_t* out_len, int* nblocks) {
  if (zlen < 6 || z[0] != 0x78 || ((z[0] << 8) | z[1]) % 31 != 0) return NULL;
  uint8_t* out = malloc(zlen);
  size_t at = 2, n = 0;
  int final = 0;
  *nblocks = 0;
  while (!final && at + 5 <= zlen) {
    final = z[at] & 1;
    if ((z[at] >> 1) != 0) break; /* BTYPE must be 00 */
    size_t blen = z[at + 1] | z[at + 2] << 8;
    size_t nlen = z[at + 3] | z[at + 4] << 8;
    if ((blen ^ 0xFFFF) != nlen || at + 5 + blen > zlen) break;
    memcpy(out + n, z + at + 5, blen);
    n += blen;
    at += 5 + blen;
    ++*nblocks;
  }
  if (!final || at + 4 != zlen || be32(z + at) != slow_adler32(out, n)) {
    free(out);
    return NULL;
  }
  *out_len = n;
  return out;
}

/* Checks that png decodes to `pixels` (w x h x channels). */
static void check_decodes(const uint8_t* png, size_t len, const uint8_t* pixels, uint32_t w,
                          uint32_t h, int channels, int want_blocks) {
  uint8_t* z;
  size_t zlen, raw_len = 0;
  int color = channels == 1 ? 0 : channels == 3 ? 2 : 6, nblocks = 0;
  CHECK(read_chunks(png, len, w, h, color, &z, &zlen));
  uint8_t* raw = z ? inflate_stored(z, zlen, &raw_len, &nblocks) : NULL;
  size_t row = (size_t)w * channels;
  CHECK(raw != NULL && raw_len == h * (row + 1));
  CHECK(nblocks == want_blocks);
  if (raw && raw_len == h * (row + 1)) {
    int rows_ok = 1;
    for (uint32_t y = 0; y < h; y++)
      rows_ok &= raw[y * (row + 1)] == 0 && !memcmp(raw + y * (row + 1) + 1, pixels + y * row, row);
    CHECK(rows_ok);
  }
  free(raw);
  free(z);
}

static void test_large_and_color(void) {
  /* 70000 x 2 gray: 140002 filtered bytes -> blocks of 65535, 65535, 8932,
   * with a row boundary inside the second block. */
  uint32_t w = 70000, h = 2;
  uint8_t* pixels = malloc((size_t)w * h);
  for (size_t i = 0; i < (size_t)w * h; i++) pixels[i] = (uint8_t)(i * 31 + (i >> 9));
  uint8_t* png;
  size_t len;
  CHECK(mt_png_encode(pixels, w, h, 1, &png, &len) == 1);
  if (png) check_decodes(png, len, pixels, w, h, 1, 3);
  free(png);
  /* RGB and RGBA, odd sizes. */
  CHECK(mt_png_encode(pixels, 5, 3, 3, &png, &len) == 1);
  if (png) check_decodes(png, len, pixels, 5, 3, 3, 1);
  free(png);
  CHECK(mt_png_encode(pixels, 1, 7, 4, &png, &len) == 1);
  if (png) check_decodes(png, len, pixels, 1, 7, 4, 1);
  free(png);
  /* Exactly one full block: 65534 samples + 1 filter byte. */
  CHECK(mt_png_encode(pixels, 65534, 1, 1, &png, &len) == 1);
  if (png) check_decodes(png, len, pixels, 65534, 1, 1, 1);
  free(png);
  free(pixels);
}

static void test_bad_arguments(void) {
  const uint8_t px[16] = {0};
  uint8_t* png = (uint8_t*)px;
  size_t len = 99;
  CHECK(mt_png_encode(px, 0, 1, 1, &png, &len) == 0 && png == NULL && len == 0);
  CHECK(mt_png_encode(px, 1, 0, 3, &png, &len) == 0 && png == NULL);
  CHECK(mt_png_encode(px, -1, 1, 1, &png, &len) == 0);
  CHECK(mt_png_encode(px, 1, 1, 2, &png, &len) == 0);
  CHECK(mt_png_encode(px, 1, 1, 0, &png, &len) == 0);
  CHECK(mt_png_encode(px, (int64_t)1 << 31, 1, 1, &png, &len) == 0);
  /* A stream over the 2^31 - 1 chunk length limit is refused before any
   * allocation (and before the pixels are read). */
  CHECK(mt_png_encode(px, 1 << 30, 3, 1, &png, &len) == 0 && png == NULL);
}

int main(void) {
  test_checksums();
  test_tiny_gray();
  test_large_and_color();
  test_bad_arguments();
  CTEST_END();
}
