/* PNG through libpng (Debian's libpng16, with zlib), configured as
 * TensorFlow's png_io.cc configures it, so EncodePng, DecodePng and the image
 * summaries write and read what TensorFlow's do.
 *
 * Encoding: 8- or 16-bit gray, gray+alpha, RGB or RGBA, no interlace,
 * libpng's default (adaptive) filters, zlib level `compression` (-1 = zlib's
 * default, 6) and memory level 9.
 * Decoding: any PNG libpng reads, converted to the channel count and bit
 * depth asked for (TensorFlow's CommonInitDecode transformations: palette to
 * RGB, tRNS to alpha, gray <-> RGB with the 0.299/0.587 weights, 16 <-> 8
 * bits, interlace passes).
 *
 * libpng's errors are caught (setjmp in one function, nothing volatile across
 * it) and become return codes; nothing here prints or aborts.
 * Thread-safety: every function is reentrant (no global state).
 */
#ifndef MINITF_RUNTIME_PNG_H_
#define MINITF_RUNTIME_PNG_H_

#include <stddef.h>
#include <stdint.h>

/* Encodes a width x height image of `channels` (1..4) interleaved samples of
 * `bits` (8, or 16 in native byte order), rows `width * channels * bits / 8`
 * bytes apart. On success returns 1 and sets *out to a malloc'd buffer of
 * *out_len bytes (the caller frees it). Returns 0 with *out = NULL when a
 * dimension is not in [1, 2^31 - 1], channels or bits are out of range,
 * compression is not in [-1, 9], or libpng fails (out of memory). */
int mt_png_encode(const void* pixels, int64_t width, int64_t height, int channels, int bits,
                  int compression, uint8_t** out, size_t* out_len);

/* Called once the header is read: returns where to write height rows of
 * width * channels samples of `bits` (8 or 16, native order), or NULL to stop
 * (mt_png_decode then returns MT_PNG_ALLOC_FAILED). */
typedef void* (*mt_png_alloc_fn)(void* arg, int64_t width, int64_t height, int channels);

enum {
  MT_PNG_OK = 0,
  MT_PNG_BAD_HEADER = 1,   /* not a PNG, or libpng could not read its header */
  MT_PNG_TOO_LARGE = 2,    /* width or height >= 2^27, or width*height >= 2^29 */
  MT_PNG_BAD_DATA = 3,     /* the pixel data is corrupt or truncated */
  MT_PNG_ALLOC_FAILED = 4, /* the allocator returned NULL */
};

/* Decodes `data` (n bytes) to `channels` (0 = as stored: palette images give
 * 3, or 4 with tRNS) samples of `bits` (8 or 16). *width / *height are set
 * once the header is read (also for MT_PNG_TOO_LARGE). */
int mt_png_decode(const uint8_t* data, size_t n, int channels, int bits, mt_png_alloc_fn alloc,
                  void* arg, uint32_t* width, uint32_t* height);

#endif
