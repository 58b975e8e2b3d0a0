/* A small PNG encoder for image summaries (ImageSummary): 8-bit grayscale,
 * RGB or RGBA, filter type 0 on every row, and a zlib stream of stored
 * (uncompressed) deflate blocks. Any PNG decoder reads the result; the
 * bytes differ from libpng's (which compresses), the pixels do not.
 *
 * Depends on the C library only, so tests can include png.c directly.
 * Thread-safety: every function is reentrant (no global state).
 */
#ifndef MINITF_RUNTIME_PNG_H_
#define MINITF_RUNTIME_PNG_H_

#include <stddef.h>
#include <stdint.h>

/* CRC-32 (ISO 3309, as PNG chunks and gzip use) of data, continuing from
 * `crc` (pass 0 to start): mt_crc32(b, n2, mt_crc32(a, n1, 0)) equals the
 * CRC of a followed by b. */
uint32_t mt_crc32(const void* data, size_t n, uint32_t crc);

/* Adler-32 (RFC 1950) of data, continuing from `adler` (pass 1 to start). */
uint32_t mt_adler32(const void* data, size_t n, uint32_t adler);

/* Encodes a width x height image of `channels` (1 gray, 3 RGB, 4 RGBA)
 * interleaved 8-bit samples, rows `width * channels` bytes apart, as PNG.
 * On success returns 1 and sets *out to a malloc'd buffer of *out_len bytes
 * (the caller frees it). Returns 0 with *out = NULL when width or height is
 * not in [1, 2^31 - 1], channels is not 1, 3 or 4, the encoded size would
 * overflow size_t, or memory runs out. */
int mt_png_encode(const uint8_t* pixels, int64_t width, int64_t height, int channels,
                  uint8_t** out, size_t* out_len);

#endif
