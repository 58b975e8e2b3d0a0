/* FarmHash Fingerprint64, SipHash-2-4 and MurmurHash64A (see hash.h). All
 * loads are little-endian, as the algorithms define them (the byte order of
 * every machine minitf builds for). */
#include "runtime/kernels/string/hash.h"

#include <string.h>

static uint64_t load64(const char* p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

static uint32_t load32(const char* p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

static uint64_t rot64(uint64_t v, int shift) {
  return shift == 0 ? v : (v >> shift) | (v << (64 - shift));
}

/* ---- FarmHash (farmhashna) ---- */

static const uint64_t K0 = 0xc3a5c85c97cb3127ULL;
static const uint64_t K1 = 0xb492b66fbe98f273ULL;
static const uint64_t K2 = 0x9ae16a3b2f90404fULL;

static uint64_t shift_mix(uint64_t v) { return v ^ (v >> 47); }

static uint64_t hash_len16(uint64_t u, uint64_t v, uint64_t mul) {
  uint64_t a = (u ^ v) * mul;
  a ^= a >> 47;
  uint64_t b = (v ^ a) * mul;
  b ^= b >> 47;
  return b * mul;
}

static uint64_t hash_len0to16(const char* s, size_t len) {
  if (len >= 8) {
    const uint64_t mul = K2 + len * 2;
    const uint64_t a = load64(s) + K2;
    const uint64_t b = load64(s + len - 8);
    const uint64_t c = rot64(b, 37) * mul + a;
    const uint64_t d = (rot64(a, 25) + b) * mul;
    return hash_len16(c, d, mul);
  }
  if (len >= 4) {
    const uint64_t mul = K2 + len * 2;
    const uint64_t a = load32(s);
    return hash_len16(len + (a << 3), load32(s + len - 4), mul);
  }
  if (len > 0) {
    const uint8_t a = (uint8_t)s[0], b = (uint8_t)s[len >> 1], c = (uint8_t)s[len - 1];
    const uint32_t y = (uint32_t)a + ((uint32_t)b << 8);
    const uint32_t z = (uint32_t)len + ((uint32_t)c << 2);
    return shift_mix(y * K2 ^ z * K0) * K2;
  }
  return K2;
}

static uint64_t hash_len17to32(const char* s, size_t len) {
  const uint64_t mul = K2 + len * 2;
  const uint64_t a = load64(s) * K1;
  const uint64_t b = load64(s + 8);
  const uint64_t c = load64(s + len - 8) * mul;
  const uint64_t d = load64(s + len - 16) * K2;
  return hash_len16(rot64(a + b, 43) + rot64(c, 30) + d, a + rot64(b + K2, 18) + c, mul);
}

static uint64_t hash_len33to64(const char* s, size_t len) {
  const uint64_t mul = K2 + len * 2;
  const uint64_t a = load64(s) * K2;
  const uint64_t b = load64(s + 8);
  const uint64_t c = load64(s + len - 8) * mul;
  const uint64_t d = load64(s + len - 16) * K2;
  const uint64_t y = rot64(a + b, 43) + rot64(c, 30) + d;
  const uint64_t z = hash_len16(y, a + rot64(b + K2, 18) + c, mul);
  const uint64_t e = load64(s + 16) * mul;
  const uint64_t f = load64(s + 24);
  const uint64_t g = (y + load64(s + len - 32)) * mul;
  const uint64_t h = (z + load64(s + len - 24)) * mul;
  return hash_len16(rot64(e + f, 43) + rot64(g, 30) + h, e + rot64(f + a, 18) + g, mul);
}

typedef struct pair64 {
  uint64_t first, second;
} pair64;

/* Weak hash of 32 bytes at s with seeds a, b. */
static pair64 weak32(const char* s, uint64_t a, uint64_t b) {
  const uint64_t w = load64(s), x = load64(s + 8), y = load64(s + 16), z = load64(s + 24);
  a += w;
  b = rot64(b + a + z, 21);
  const uint64_t c = a;
  a += x;
  a += y;
  b += rot64(a, 44);
  pair64 r = {a + z, b + c};
  return r;
}

uint64_t mt_fingerprint64(const char* s, size_t len) {
  if (len <= 16) return hash_len0to16(s, len);
  if (len <= 32) return hash_len17to32(s, len);
  if (len <= 64) return hash_len33to64(s, len);
  const uint64_t seed = 81;
  uint64_t x = seed, y = seed * K1 + 113, z = shift_mix(y * K2 + 113) * K2;
  pair64 v = {0, 0}, w = {0, 0};
  x = x * K2 + load64(s);
  const char* end = s + ((len - 1) / 64) * 64;
  const char* last64 = end + ((len - 1) & 63) - 63;
  do {
    x = rot64(x + y + v.first + load64(s + 8), 37) * K1;
    y = rot64(y + v.second + load64(s + 48), 42) * K1;
    x ^= w.second;
    y += v.first + load64(s + 40);
    z = rot64(z + w.first, 33) * K1;
    v = weak32(s, v.second * K1, x + w.first);
    w = weak32(s + 32, z + w.second, y + load64(s + 16));
    const uint64_t t = z;
    z = x;
    x = t;
    s += 64;
  } while (s != end);
  const uint64_t mul = K1 + ((z & 0xff) << 1);
  s = last64;
  w.first += ((len - 1) & 63);
  v.first += w.first;
  w.first += v.first;
  x = rot64(x + y + v.first + load64(s + 8), 37) * mul;
  y = rot64(y + v.second + load64(s + 48), 42) * mul;
  x ^= w.second * 9;
  y += v.first * 9 + load64(s + 40);
  z = rot64(z + w.first, 33) * mul;
  v = weak32(s, v.second * mul, x + w.first);
  w = weak32(s + 32, z + w.second, y + load64(s + 16));
  const uint64_t t = z;
  z = x;
  x = t;
  return hash_len16(hash_len16(v.first, w.first, mul) + shift_mix(y) * K0 + z,
                    hash_len16(v.second, w.second, mul) + x, mul);
}

/* ---- SipHash-2-4 ---- */

#define SIP_ROUND(v0, v1, v2, v3) \
  do {                            \
    v0 += v1;                     \
    v1 = rot64(v1, 51);           \
    v1 ^= v0;                     \
    v0 = rot64(v0, 32);           \
    v2 += v3;                     \
    v3 = rot64(v3, 48);           \
    v3 ^= v2;                     \
    v0 += v3;                     \
    v3 = rot64(v3, 43);           \
    v3 ^= v0;                     \
    v2 += v1;                     \
    v1 = rot64(v1, 47);           \
    v1 ^= v2;                     \
    v2 = rot64(v2, 32);           \
  } while (0)

uint64_t mt_siphash24(uint64_t k0, uint64_t k1, const char* s, size_t len) {
  uint64_t v0 = k0 ^ 0x736f6d6570736575ULL, v1 = k1 ^ 0x646f72616e646f6dULL;
  uint64_t v2 = k0 ^ 0x6c7967656e657261ULL, v3 = k1 ^ 0x7465646279746573ULL;
  const size_t full = len & ~(size_t)7;
  for (size_t i = 0; i < full; i += 8) {
    const uint64_t m = load64(s + i);
    v3 ^= m;
    SIP_ROUND(v0, v1, v2, v3);
    SIP_ROUND(v0, v1, v2, v3);
    v0 ^= m;
  }
  /* The last block: the remaining bytes, then the length's low byte on top. */
  uint64_t b = (uint64_t)(len & 0xff) << 56;
  for (size_t i = full; i < len; i++) b |= (uint64_t)(uint8_t)s[i] << (8 * (i - full));
  v3 ^= b;
  SIP_ROUND(v0, v1, v2, v3);
  SIP_ROUND(v0, v1, v2, v3);
  v0 ^= b;
  v2 ^= 0xff;
  for (int r = 0; r < 4; r++) SIP_ROUND(v0, v1, v2, v3);
  return v0 ^ v1 ^ v2 ^ v3;
}

/* ---- MurmurHash64A ---- */

uint64_t mt_hash64(const char* s, size_t n, uint64_t seed) {
  const uint64_t m = 0xc6a4a7935bd1e995ULL;
  const int r = 47;
  uint64_t h = seed ^ (n * m);
  while (n >= 8) {
    uint64_t k = load64(s);
    s += 8;
    n -= 8;
    k *= m;
    k ^= k >> r;
    k *= m;
    h ^= k;
    h *= m;
  }
  if (n > 0) {
    for (size_t i = n; i-- > 0;) h ^= (uint64_t)(uint8_t)s[i] << (8 * i);
    h *= m;
  }
  h ^= h >> r;
  h *= m;
  h ^= h >> r;
  return h;
}
