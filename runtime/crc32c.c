/* CRC-32C, slicing by 8 over the reflected polynomial 0x82f63b78; on x86-64
 * with SSE4.2 the crc32 instruction instead (checked at run time), as
 * TensorFlow's crc32c does, so checksums keep up with the disk. */
#include "runtime/crc32c.h"

#include <pthread.h>
#include <string.h>

static uint32_t crc_tab[8][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0x82f63b78u & (0u - (c & 1u)));
    crc_tab[0][i] = c;
  }
  for (int t = 1; t < 8; t++)
    for (int i = 0; i < 256; i++)
      crc_tab[t][i] = (crc_tab[t - 1][i] >> 8) ^ crc_tab[0][crc_tab[t - 1][i] & 0xff];
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <nmmintrin.h>
static int have_sse42;

__attribute__((target("sse4.2"))) static uint32_t crc_hw(uint32_t crc, const uint8_t* p,
                                                          size_t n) {
  uint64_t c = ~crc;
  while (n >= 8) {
    uint64_t v;
    memcpy(&v, p, 8);
    c = _mm_crc32_u64(c, v);
    p += 8;
    n -= 8;
  }
  uint32_t c32 = (uint32_t)c;
  while (n--) c32 = _mm_crc32_u8(c32, *p++);
  return ~c32;
}
#endif

static void crc_setup(void) {
  crc_init();
#if defined(__x86_64__) && defined(__GNUC__)
  have_sse42 = __builtin_cpu_supports("sse4.2");
#endif
}

static uint32_t crc_sw(uint32_t crc, const uint8_t* p, size_t n) {
  uint32_t c = ~crc;
  while (n >= 8) {
    uint32_t lo, hi;
    memcpy(&lo, p, 4); /* little-endian hosts only, as the runtime assumes */
    memcpy(&hi, p + 4, 4);
    lo ^= c;
    c = crc_tab[7][lo & 0xff] ^ crc_tab[6][(lo >> 8) & 0xff] ^ crc_tab[5][(lo >> 16) & 0xff] ^
        crc_tab[4][lo >> 24] ^ crc_tab[3][hi & 0xff] ^ crc_tab[2][(hi >> 8) & 0xff] ^
        crc_tab[1][(hi >> 16) & 0xff] ^ crc_tab[0][hi >> 24];
    p += 8;
    n -= 8;
  }
  while (n--) c = (c >> 8) ^ crc_tab[0][(c ^ *p++) & 0xff];
  return ~c;
}

uint32_t mt_crc32c_extend(uint32_t crc, const void* data, size_t n) {
  pthread_once(&crc_once, crc_setup);
#if defined(__x86_64__) && defined(__GNUC__)
  if (have_sse42) return crc_hw(crc, (const uint8_t*)data, n);
#endif
  return crc_sw(crc, (const uint8_t*)data, n);
}
