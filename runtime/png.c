/* PNG encoder (see png.h). Layout of the file written:
 *   8-byte signature, IHDR (13 bytes), one IDAT, IEND.
 * Every chunk is length (big-endian) | type | data | CRC-32 of type+data.
 * IDAT holds a zlib stream: header 0x78 0x01, stored deflate blocks of at
 * most 65535 bytes (BFINAL bit | BTYPE 00, LEN, ~LEN, raw bytes), then the
 * big-endian Adler-32 of the uncompressed data. The uncompressed data is
 * each row prefixed by its filter type byte (0, "None"). */
#include "runtime/png.h"

#include <stdlib.h>
#include <string.h>

/* Bitwise CRC with the reflected polynomial 0xEDB88320, one table of 256
 * entries computed on the stack per call: summaries are rare and small, and
 * a local table keeps this file free of global state. */
static void crc_table(uint32_t table[256]) {
  for (uint32_t n = 0; n < 256; n++) {
    uint32_t c = n;
    for (int k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[n] = c;
  }
}

static uint32_t crc_update(const uint32_t table[256], const uint8_t* p, size_t n, uint32_t crc) {
  uint32_t c = crc ^ 0xFFFFFFFFu;
  for (size_t i = 0; i < n; i++) c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

uint32_t mt_crc32(const void* data, size_t n, uint32_t crc) {
  uint32_t table[256];
  crc_table(table);
  return crc_update(table, (const uint8_t*)data, n, crc);
}

uint32_t mt_adler32(const void* data, size_t n, uint32_t adler) {
  const uint8_t* p = (const uint8_t*)data;
  uint32_t a = adler & 0xFFFF, b = adler >> 16;
  while (n > 0) {
    /* 5552 bytes is the most that cannot overflow 32 bits before the
     * modulo (RFC 1950's NMAX). */
    size_t chunk = n < 5552 ? n : 5552;
    for (size_t i = 0; i < chunk; i++) {
      a += p[i];
      b += a;
    }
    a %= 65521;
    b %= 65521;
    p += chunk;
    n -= chunk;
  }
  return (b << 16) | a;
}

static void put_be32(uint8_t* p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

/* Output cursor over a buffer sized exactly in advance. */
typedef struct png_out {
  uint8_t* p;
  uint32_t table[256];
} png_out;

/* Writes a whole chunk whose data is `data[0..n)`. */
static void put_chunk(png_out* o, const char type[4], const uint8_t* data, uint32_t n) {
  put_be32(o->p, n);
  memcpy(o->p + 4, type, 4);
  if (n) memcpy(o->p + 8, data, n);
  put_be32(o->p + 8 + n, crc_update(o->table, o->p + 4, (size_t)n + 4, 0));
  o->p += 12 + (size_t)n;
}

/* Stored-block framing of `raw_len` bytes: 5 header bytes per block. */
enum { kMaxStored = 65535 };

/* Size of the zlib stream for raw_len bytes, or 0 on overflow. */
static size_t zlib_size(size_t raw_len) {
  size_t blocks = raw_len ? (raw_len + kMaxStored - 1) / kMaxStored : 1;
  if (blocks > (SIZE_MAX - 6 - raw_len) / 5) return 0;
  return 2 + blocks * 5 + raw_len + 4;
}

/* Writes the IDAT data (zlib stream of the filtered rows) at o->p + 8 and
 * then frames it as a chunk of `z_len` bytes. The rows are produced on the
 * fly, one filter byte then the row's samples, so nothing is copied twice. */
static void put_idat(png_out* o, const uint8_t* pixels, size_t row_len, size_t height,
                     size_t z_len) {
  uint8_t* start = o->p;
  uint8_t* q = start + 8;
  *q++ = 0x78; /* CM = 8 (deflate), CINFO = 7 (32K window) */
  *q++ = 0x01; /* FLEVEL 0, no dictionary; (0x78 << 8 | 0x01) % 31 == 0 */
  size_t raw_len = height * (row_len + 1), done = 0, row = 0, col = 0;
  uint32_t adler = 1;
  do {
    size_t n = raw_len - done < kMaxStored ? raw_len - done : kMaxStored;
    *q++ = done + n == raw_len ? 1 : 0; /* BFINAL, BTYPE = 00 (stored) */
    q[0] = (uint8_t)n;
    q[1] = (uint8_t)(n >> 8);
    q[2] = (uint8_t)~n;
    q[3] = (uint8_t)(~n >> 8);
    q += 4;
    uint8_t* block = q;
    /* col counts the row's bytes including its filter byte (col 0). */
    for (size_t left = n; left > 0;) {
      if (col == 0) {
        *q++ = 0; /* filter type None */
        col = 1;
        left--;
        continue;
      }
      size_t take = row_len - (col - 1);
      if (take > left) take = left;
      memcpy(q, pixels + row * row_len + (col - 1), take);
      q += take;
      left -= take;
      col += take;
      if (col == row_len + 1) {
        col = 0;
        row++;
      }
    }
    adler = mt_adler32(block, n, adler);
    done += n;
  } while (done < raw_len);
  put_be32(q, adler);
  /* Frame the chunk around the data just written in place. */
  put_be32(start, (uint32_t)z_len);
  memcpy(start + 4, "IDAT", 4);
  put_be32(start + 8 + z_len, crc_update(o->table, start + 4, z_len + 4, 0));
  o->p = start + 12 + z_len;
}

int mt_png_encode(const uint8_t* pixels, int64_t width, int64_t height, int channels,
                  uint8_t** out, size_t* out_len) {
  *out = NULL;
  *out_len = 0;
  if (width < 1 || height < 1 || width > INT32_MAX || height > INT32_MAX) return 0;
  if (channels != 1 && channels != 3 && channels != 4) return 0;
  size_t row_len = (size_t)width * (size_t)channels;
  if ((size_t)height > (SIZE_MAX - 1) / (row_len + 1)) return 0;
  size_t raw_len = (size_t)height * (row_len + 1);
  size_t z_len = zlib_size(raw_len);
  /* A chunk's length field is 31 bits (PNG spec: at most 2^31 - 1). */
  if (z_len == 0 || z_len > INT32_MAX) return 0;
  size_t total = 8 + (12 + 13) + (12 + z_len) + 12;
  png_out o;
  o.p = malloc(total);
  if (!o.p) return 0;
  crc_table(o.table);
  uint8_t* buf = o.p;
  static const uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  memcpy(o.p, kSignature, 8);
  o.p += 8;
  /* IHDR: width, height, bit depth 8, colour type (0 gray, 2 RGB, 6 RGBA),
   * compression 0, filter method 0, interlace 0. */
  uint8_t ihdr[13];
  put_be32(ihdr, (uint32_t)width);
  put_be32(ihdr + 4, (uint32_t)height);
  ihdr[8] = 8;
  ihdr[9] = channels == 1 ? 0 : channels == 3 ? 2 : 6;
  ihdr[10] = ihdr[11] = ihdr[12] = 0;
  put_chunk(&o, "IHDR", ihdr, 13);
  put_idat(&o, pixels, row_len, (size_t)height, z_len);
  put_chunk(&o, "IEND", NULL, 0);
  *out = buf;
  *out_len = total;
  return 1;
}
