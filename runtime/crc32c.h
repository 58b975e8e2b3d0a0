/* CRC-32C (Castagnoli), as TensorFlow's tsl/lib/hash/crc32c: the checksum of
 * checkpoint index blocks, bundle data and TFRecords. Table-driven
 * (slicing by 8); the tables are built once, thread-safely. */
#ifndef MINITF_RUNTIME_CRC32C_H_
#define MINITF_RUNTIME_CRC32C_H_

#include <stddef.h>
#include <stdint.h>

/* The CRC of data[0, n) appended to bytes whose CRC was `crc` (0 to start). */
uint32_t mt_crc32c_extend(uint32_t crc, const void* data, size_t n);
static inline uint32_t mt_crc32c(const void* data, size_t n) { return mt_crc32c_extend(0, data, n); }

/* TensorFlow stores CRCs masked (rotated and offset) so that the CRC of bytes
 * that embed CRCs stays well distributed. */
static inline uint32_t mt_crc32c_mask(uint32_t crc) {
  return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}
static inline uint32_t mt_crc32c_unmask(uint32_t masked) {
  uint32_t rot = masked - 0xa282ead8u;
  return (rot >> 17) | (rot << 15);
}

#endif
