/* The string hashes TensorFlow's ops use, written from the algorithms'
 * public definitions:
 *   mt_fingerprint64  FarmHash's Fingerprint64 (farmhashna::Hash64), TF's
 *                     Fingerprint64: StringToHashBucketFast, Fingerprint.
 *   mt_siphash24      SipHash-2-4 with a 128-bit key (k0, k1), TF's
 *                     StrongKeyedHash: StringToHashBucketStrong.
 *   mt_hash64         TF's legacy Hash64 (MurmurHash64A, seed 0xDECAFCAFFE):
 *                     StringToHashBucket.
 * Pure functions of their bytes: thread-safe, no allocation. */
#ifndef MINITF_RUNTIME_KERNELS_STRING_HASH_H_
#define MINITF_RUNTIME_KERNELS_STRING_HASH_H_
#include <stddef.h>
#include <stdint.h>

uint64_t mt_fingerprint64(const char* s, size_t len);
uint64_t mt_siphash24(uint64_t k0, uint64_t k1, const char* s, size_t len);
uint64_t mt_hash64(const char* s, size_t len, uint64_t seed);

#endif
