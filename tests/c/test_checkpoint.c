/* Tests of the V2 checkpoint format in C: CRC32C on the RFC 3720 test
 * vectors, TF's sorted string table (block bytes worked out by hand, many
 * blocks, snappy blocks, every bit flip and truncation of a table giving a
 * clean TF_DATA_LOSS), and SaveV2 / RestoreV2 through the C API on the
 * checkpoint real TensorFlow wrote (tests/fixtures/checkpoints/basic),
 * including every bit flip of its index. The table code is hidden inside
 * libc_api.so, so this test compiles runtime/{crc32c,table,proto,status}.c
 * in directly. */
#include "runtime/crc32c.c"
#include "runtime/proto.c"
#include "runtime/status.c"
#include "runtime/table.c"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctest.h"
#include "ctest_graph.h"

static void test_crc32c(void) {
  uint8_t buf[32];
  CHECK(mt_crc32c("123456789", 9) == 0xe3069283u);
  memset(buf, 0, 32);
  CHECK(mt_crc32c(buf, 32) == 0x8a9136aau);
  memset(buf, 0xff, 32);
  CHECK(mt_crc32c(buf, 32) == 0x62a8ab43u);
  for (int i = 0; i < 32; i++) buf[i] = (uint8_t)i;
  CHECK(mt_crc32c(buf, 32) == 0x46dd794eu);
  for (int i = 0; i < 32; i++) buf[i] = (uint8_t)(31 - i);
  CHECK(mt_crc32c(buf, 32) == 0x113fdb5cu);
  /* Extending in pieces equals one pass; masking round-trips. */
  CHECK(mt_crc32c_extend(mt_crc32c("hello ", 6), "world", 5) == mt_crc32c("hello world", 11));
  CHECK(mt_crc32c_unmask(mt_crc32c_mask(0x12345678u)) == 0x12345678u);
  CHECK(mt_crc32c_mask(0) == 0xa282ead8u);
  /* The table-driven and instruction paths agree with a bit-at-a-time CRC
   * at every length and alignment. */
  uint8_t data[300];
  for (int i = 0; i < 300; i++) data[i] = (uint8_t)(i * 131 + 7);
  int same = 1;
  for (int off = 0; off < 8; off++) {
    for (int n = 0; n + off <= 300; n += 13) {
      uint32_t c = 0xffffffffu;
      for (int i = 0; i < n; i++) {
        c ^= data[off + i];
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0x82f63b78u & (0u - (c & 1u)));
      }
      uint32_t want = ~c;
      same &= crc_sw(0, data + off, (size_t)n) == want && mt_crc32c(data + off, (size_t)n) == want;
    }
  }
  CHECK(same);
}

static uint8_t* build(const char* const* keys, int n, size_t block_size, size_t* len) {
  mt_table_builder b;
  mt_table_builder_init(&b, block_size);
  for (int i = 0; i < n; i++) mt_table_add(&b, keys[i], strlen(keys[i]), keys[i], 1);
  uint8_t* data = NULL;
  TF_Status* s = TF_NewStatus();
  CHECK(mt_table_finish(&b, &data, len, s));
  TF_DeleteStatus(s);
  return data;
}

/* "a" -> "a", "ab" -> "a": one data block, by hand. */
static void test_table_bytes(void) {
  const char* keys[] = {"a", "ab"};
  size_t len;
  uint8_t* t = build(keys, 2, 0, &len);
  static const uint8_t block[] = {0, 1, 1, 'a', 'a', 1, 1, 1, 'b', 'a', 0, 0, 0, 0, 1, 0, 0, 0};
  CHECK(memcmp(t, block, sizeof block) == 0);
  CHECK(t[sizeof block] == 0); /* no compression */
  uint8_t type = 0;
  uint32_t crc = mt_crc32c_extend(mt_crc32c(block, sizeof block), &type, 1);
  CHECK(get_fixed32(t + sizeof block + 1) == mt_crc32c_mask(crc));
  /* Then the empty metaindex block (restart 0, count 1), and the index
   * block with one entry: the successor of "ab" ("b") -> handle (0, 18). */
  const uint8_t* meta = t + sizeof block + 5;
  static const uint8_t empty[] = {0, 0, 0, 0, 1, 0, 0, 0};
  CHECK(memcmp(meta, empty, 8) == 0);
  const uint8_t* index = meta + 8 + 5;
  static const uint8_t ib[] = {0, 1, 2, 'b', 0, 18, 0, 0, 0, 0, 1, 0, 0, 0};
  CHECK(memcmp(index, ib, sizeof ib) == 0);
  const uint8_t* foot = t + len - 48;
  CHECK(foot[0] == 23 && foot[1] == 8 && foot[2] == 36 && foot[3] == 14 && foot[4] == 0);
  CHECK(get_fixed32(foot + 40) == 0x8b80fb57u && get_fixed32(foot + 44) == 0xdb477524u);
  CHECK(len == (size_t)(index - t) + sizeof ib + 5 + 48);
  mt_table tab;
  TF_Status* s = TF_NewStatus();
  CHECK(mt_table_open(t, len, &tab, s));
  CHECK(tab.n == 2 && tab.entries[1].klen == 2 && memcmp(tab.entries[1].key, "ab", 2) == 0);
  CHECK(mt_table_get(&tab, "ab", 2) && !mt_table_get(&tab, "b", 1));
  mt_table_free(&tab);
  TF_DeleteStatus(s);
  free(t);
}

/* 3000 keys in 1 KiB blocks: many data blocks and restart points. */
static void test_table_many_blocks(void) {
  enum { N = 3000 };
  static char kbuf[N][32];
  const char* keys[N];
  for (int i = 0; i < N; i++) {
    snprintf(kbuf[i], sizeof kbuf[i], "key/%06d/x", i * 7);
    keys[i] = kbuf[i];
  }
  size_t len;
  uint8_t* t = build(keys, N, 1024, &len);
  mt_table tab;
  TF_Status* s = TF_NewStatus();
  CHECK(mt_table_open(t, len, &tab, s));
  CHECK_OK(s);
  CHECK(tab.n == N);
  int good = 1;
  for (int i = 0; i < N && good; i++)
    good = tab.entries[i].klen == strlen(keys[i]) &&
           memcmp(tab.entries[i].key, keys[i], tab.entries[i].klen) == 0 &&
           tab.entries[i].vlen == 1 && tab.entries[i].val[0] == keys[i][0];
  CHECK(good);
  CHECK(mt_table_seek(&tab, "key/000008", 10) == 2); /* first key >= it: key/000014/x */
  mt_table_free(&tab);
  /* Every truncation is a clean TF_DATA_LOSS. */
  int clean = 1;
  for (size_t n = 0; n < len && clean; n += 97) {
    TF_SetStatus(s, TF_OK, "");
    clean = !mt_table_open(t, n, &tab, s) && TF_GetCode(s) == TF_DATA_LOSS;
  }
  CHECK(clean);
  TF_DeleteStatus(s);
  free(t);
}

/* Every bit of a small table flipped: a clean error or the same entries. */
static void test_table_bit_flips(void) {
  const char* keys[] = {"", "alpha", "alphabet", "beta", "gamma/delta"};
  size_t len;
  uint8_t* t = build(keys, 5, 16, &len);
  TF_Status* s = TF_NewStatus();
  int ok = 1, errors = 0;
  for (size_t i = 0; i < len; i++) {
    for (int bit = 0; bit < 8; bit++) {
      t[i] ^= (uint8_t)(1u << bit);
      mt_table tab;
      TF_SetStatus(s, TF_OK, "");
      if (mt_table_open(t, len, &tab, s)) {
        ok &= tab.n == 5;
        for (int k = 0; k < 5 && tab.n == 5; k++)
          ok &= tab.entries[k].klen == strlen(keys[k]) &&
                memcmp(tab.entries[k].key, keys[k], tab.entries[k].klen) == 0;
        mt_table_free(&tab);
      } else {
        ok &= TF_GetCode(s) == TF_DATA_LOSS;
        errors++;
      }
      t[i] ^= (uint8_t)(1u << bit);
    }
  }
  CHECK(ok);
  CHECK(errors > (int)len * 8 * 3 / 4);
  TF_DeleteStatus(s);
  free(t);
}

static void test_snappy(void) {
  TF_Status* s = TF_NewStatus();
  /* "abcabcabcX": length 10, literal "abc", copy-1 (length 6, offset 3),
   * literal "X". */
  static const uint8_t c[] = {10, 0x08, 'a', 'b', 'c', 0x09, 0x03, 0x00, 'X'};
  size_t n;
  uint8_t* u = mt_snappy_uncompress(c, sizeof c, &n, s);
  CHECK(u && n == 10 && memcmp(u, "abcabcabcX", 10) == 0);
  free(u);
  /* copy-2: 9 bytes at offset 1 after "z" -> ten z's. */
  static const uint8_t c2[] = {10, 0x00, 'z', (8 << 2) | 2, 1, 0};
  u = mt_snappy_uncompress(c2, sizeof c2, &n, s);
  CHECK(u && n == 10 && memcmp(u, "zzzzzzzzzz", 10) == 0);
  free(u);
  /* Bad offsets, short input, wrong lengths. */
  static const uint8_t bad1[] = {4, 0x09, 0x05};
  static const uint8_t bad2[] = {5, 0x08, 'a'};
  static const uint8_t bad3[] = {200, 0x7f};
  CHECK(!mt_snappy_uncompress(bad1, sizeof bad1, &n, s) && TF_GetCode(s) == TF_DATA_LOSS);
  CHECK(!mt_snappy_uncompress(bad2, sizeof bad2, &n, s));
  CHECK(!mt_snappy_uncompress(bad3, sizeof bad3, &n, s));
  CHECK(strcmp(TF_Message(s), "corrupted compressed block contents") == 0);

  /* A table whose data block is snappy-compressed (all literals). */
  mt_block_builder bb;
  block_init(&bb, 16);
  block_add(&bb, "k1", 2, "v1", 2);
  block_add(&bb, "k2", 2, "v2", 2);
  block_finish(&bb);
  mt_pb_writer f = mt_pb_writer_make();
  mt_pb_writer comp = mt_pb_writer_make();
  mt_pb_put_varint(&comp, bb.buf.len);
  uint8_t tag = (uint8_t)((bb.buf.len - 1) << 2);
  mt_pb_put_raw(&comp, &tag, 1);
  mt_pb_put_raw(&comp, bb.buf.data, bb.buf.len);
  mt_pb_put_raw(&f, comp.data, comp.len);
  uint8_t type = 1;
  uint32_t crc = mt_crc32c_extend(mt_crc32c(comp.data, comp.len), &type, 1);
  mt_pb_put_raw(&f, &type, 1);
  put_fixed32(&f, mt_crc32c_mask(crc));
  /* The (empty) metaindex block, whose checksum the reader checks too. */
  mt_block_builder mb;
  block_init(&mb, 16);
  block_finish(&mb);
  uint64_t moff = f.len;
  mt_pb_put_raw(&f, mb.buf.data, mb.buf.len);
  type = 0;
  crc = mt_crc32c_extend(mt_crc32c(mb.buf.data, mb.buf.len), &type, 1);
  mt_pb_put_raw(&f, &type, 1);
  put_fixed32(&f, mt_crc32c_mask(crc));
  mt_block_builder ib;
  block_init(&ib, 1);
  mt_pb_writer h = mt_pb_writer_make();
  put_handle(&h, 0, comp.len);
  block_add(&ib, "l", 1, h.data, h.len);
  block_finish(&ib);
  uint64_t ioff = f.len;
  mt_pb_put_raw(&f, ib.buf.data, ib.buf.len);
  type = 0;
  crc = mt_crc32c_extend(mt_crc32c(ib.buf.data, ib.buf.len), &type, 1);
  mt_pb_put_raw(&f, &type, 1);
  put_fixed32(&f, mt_crc32c_mask(crc));
  size_t foot = f.len;
  put_handle(&f, moff, mb.buf.len);
  put_handle(&f, ioff, ib.buf.len);
  static const uint8_t zeros[40] = {0};
  mt_pb_put_raw(&f, zeros, 40 - (f.len - foot));
  put_fixed32(&f, (uint32_t)MT_TABLE_MAGIC);
  put_fixed32(&f, (uint32_t)(MT_TABLE_MAGIC >> 32));
  mt_table tab;
  TF_SetStatus(s, TF_OK, "");
  CHECK(mt_table_open(f.data, f.len, &tab, s));
  CHECK(tab.n == 2 && memcmp(tab.entries[1].key, "k2", 2) == 0 &&
        memcmp(tab.entries[1].val, "v2", 2) == 0);
  mt_table_free(&tab);
  block_free(&bb);
  block_free(&mb);
  block_free(&ib);
  mt_pb_writer_free(&f);
  mt_pb_writer_free(&comp);
  mt_pb_writer_free(&h);
  TF_DeleteStatus(s);
}

/* ---- through the C API ---- */

static TF_Operation* str_const(TF_Graph* g, const char* name, int n, const char* const* v,
                               int scalar) {
  return cst(g, name, strings(scalar ? NULL : D(n), scalar ? 0 : 1, v));
}

/* RestoreV2 of `names` (dtypes given) from prefix; returns the outputs. */
static int restore(const char* prefix, int n, const char* const* names, const TF_DataType* dts,
                   TF_Tensor** out) {
  TF_Graph* g = TF_NewGraph();
  const char* specs[8] = {"", "", "", "", "", "", "", ""};
  TF_OperationDescription* d = TF_NewOperation(g, "RestoreV2", "restore");
  TF_AddInput(d, (TF_Output){str_const(g, "prefix", 1, &prefix, 1), 0});
  TF_AddInput(d, (TF_Output){str_const(g, "names", n, names, 0), 0});
  TF_AddInput(d, (TF_Output){str_const(g, "specs", n, specs, 0), 0});
  TF_SetAttrTypeList(d, "dtypes", dts, n);
  TF_Operation* r = TF_FinishOperation(d, S);
  TF_Session* sess = TF_NewSession(g, NULL, S);
  TF_Output fetch[8];
  for (int i = 0; i < n; i++) fetch[i] = (TF_Output){r, i};
  for (int i = 0; i < n; i++) out[i] = NULL;
  TF_SessionRun(sess, NULL, NULL, NULL, 0, fetch, out, n, NULL, 0, NULL, S);
  TF_Status* s2 = TF_NewStatus();
  TF_CloseSession(sess, s2);
  TF_DeleteSession(sess, s2);
  TF_DeleteStatus(s2);
  TF_DeleteGraph(g);
  return TF_GetCode(S) == TF_OK;
}

static const char* const NAMES[] = {"d", "i", "s", "w"};
static const TF_DataType DTS[] = {TF_DOUBLE, TF_INT32, TF_STRING, TF_FLOAT};

static int basic_values_ok(TF_Tensor** t) {
  const int32_t want_i[] = {1, -2, 2147483647, -2147483647 - 1};
  const TF_TString* s = TF_TensorData(t[2]);
  return *(double*)TF_TensorData(t[0]) == 3.141592653589793 &&
         memcmp(TF_TensorData(t[1]), want_i, sizeof want_i) == 0 && TF_NumDims(t[2]) == 1 &&
         TF_Dim(t[2], 0) == 3 && TF_StringGetSize(&s[0]) == 0 &&
         TF_StringGetSize(&s[1]) == 5 && memcmp(TF_StringGetDataPointer(&s[1]), "hello", 5) == 0 &&
         TF_StringGetSize(&s[2]) == 5 &&
         memcmp(TF_StringGetDataPointer(&s[2]), "\xff\0bin", 5) == 0 && TF_NumDims(t[3]) == 2 &&
         TF_Dim(t[3], 0) == 2 && TF_Dim(t[3], 1) == 3;
}

static void free_all(TF_Tensor** t, int n) {
  for (int i = 0; i < n; i++)
    if (t[i]) TF_DeleteTensor(t[i]);
}

static void test_restore_tf_checkpoint(void) {
  TF_Tensor* t[4];
  CHECK(restore("tests/fixtures/checkpoints/basic/model", 4, NAMES, DTS, t));
  CHECK_OK(S);
  CHECK(basic_values_ok(t));
  free_all(t, 4);
  const char* missing[] = {"nope"};
  CHECK(!restore("tests/fixtures/checkpoints/basic/model", 1, missing, DTS, t));
  CHECK_CODE(S, TF_NOT_FOUND);
  CHECK(strstr(TF_Message(S), "Key nope not found in checkpoint") != NULL);
}

static uint8_t* slurp(const char* path, size_t* n) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *n = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t* b = malloc(*n);
  if (fread(b, 1, *n, f) != *n) *n = 0;
  fclose(f);
  return b;
}

static void spit(const char* path, const uint8_t* b, size_t n) {
  FILE* f = fopen(path, "wb");
  fwrite(b, 1, n, f);
  fclose(f);
}

/* Every byte of TF's index flipped (one bit each): TF_DATA_LOSS or the same
 * values, never a crash (run under ASan by make asan-ctest). */
static void test_index_bit_flips(void) {
  size_t n, dn;
  uint8_t* idx = slurp("tests/fixtures/checkpoints/basic/model.index", &n);
  uint8_t* data = slurp("tests/fixtures/checkpoints/basic/model.data-00000-of-00001", &dn);
  CHECK(idx && data && n > 100);
  char dir[] = "/tmp/mt_ckpt_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char prefix[64], ipath[80], dpath[96];
  snprintf(prefix, sizeof prefix, "%s/model", dir);
  snprintf(ipath, sizeof ipath, "%s.index", prefix);
  snprintf(dpath, sizeof dpath, "%s.data-00000-of-00001", prefix);
  spit(dpath, data, dn);
  int ok = 1, losses = 0;
  for (size_t i = 0; i < n; i++) {
    idx[i] ^= (uint8_t)(1u << (i % 8));
    spit(ipath, idx, n);
    TF_Tensor* t[4];
    TF_SetStatus(S, TF_OK, "");
    if (restore(prefix, 4, NAMES, DTS, t)) {
      ok &= basic_values_ok(t);
    } else {
      ok &= TF_GetCode(S) == TF_DATA_LOSS && strstr(TF_Message(S), prefix) != NULL;
      if (TF_GetCode(S) != TF_DATA_LOSS) fprintf(stderr, "byte %zu: %s\n", i, TF_Message(S));
      losses++;
    }
    free_all(t, 4);
    idx[i] ^= (uint8_t)(1u << (i % 8));
  }
  CHECK(ok);
  CHECK(losses > (int)n - 60); /* only the metaindex and footer padding go unread */
  unlink(ipath);
  unlink(dpath);
  rmdir(dir);
  free(idx);
  free(data);
}

int main(void) {
  S = TF_NewStatus();
  test_crc32c();
  test_table_bytes();
  test_table_many_blocks();
  test_table_bit_flips();
  test_snappy();
  test_restore_tf_checkpoint();
  test_index_bit_flips();
  TF_DeleteStatus(S);
  CTEST_END();
}
