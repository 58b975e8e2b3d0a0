/* Tests of the protobuf wire codec and the proto C API: hand-built bytes for
 * each wire type and field rule, malformed and truncated input, GraphDefs
 * written by real TensorFlow 2.21 (tests/fixtures), import options,
 * rollback, export round trips.
 *
 * The wire reader is hidden inside libc_api.so, so this test compiles
 * runtime/proto.c in directly (it depends only on the public TF_SetStatus). */
#include "runtime/proto.c"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"
#include "runtime/session.h" /* struct TF_SessionOptions, to check TF_SetConfig */
#include "tensorflow/c/c_api.h"

#define U8(...) ((const uint8_t[]){__VA_ARGS__}), sizeof((const uint8_t[]){__VA_ARGS__})

/* ------------------------------------------------------------------------ */
/* Wire format */

/* Field 1 varint 150; field 2 fixed32 1.0f; field 3 fixed64 2.5; field 4
 * "abc"; field 5 a group holding a varint; field 6 varint -1 (10 bytes). */
static const uint8_t kMsg[] = {
    0x08, 0x96, 0x01,                                     /* 0..3 */
    0x15, 0x00, 0x00, 0x80, 0x3f,                         /* 3..8 */
    0x19, 0, 0, 0, 0, 0, 0, 0x04, 0x40,                   /* 8..17 */
    0x22, 0x03, 'a', 'b', 'c',                            /* 17..22 */
    0x2b, 0x08, 0x01, 0x2c,                               /* 22..26 */
    0x30, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, /* 26..37 */
};
static const int kMsgBoundaries[] = {0, 3, 8, 17, 22, 26, 37};

/* Reads all fields; returns the count or -1 on error. */
static int read_all(const uint8_t* p, size_t n, mt_pb_field* out, int cap, TF_Status* s) {
  mt_pb_reader r = mt_pb_reader_make(p, n, 0);
  int k = 0, rc;
  mt_pb_field f;
  while ((rc = mt_pb_next(&r, &f, "Test", s)) > 0)
    if (k < cap) out[k++] = f;
  return rc < 0 ? -1 : k;
}

static void test_wire_fields(TF_Status* s) {
  mt_pb_field f[8];
  int n = read_all(kMsg, sizeof kMsg, f, 8, s);
  CHECK(n == 5); /* the group is skipped */
  CHECK(f[0].num == 1 && f[0].wire == MT_PB_VARINT && f[0].v == 150);
  CHECK(f[1].num == 2 && f[1].wire == MT_PB_FIXED32 && mt_pb_as_float(f[1].v) == 1.0f);
  CHECK(f[2].num == 3 && f[2].wire == MT_PB_FIXED64 && mt_pb_as_double(f[2].v) == 2.5);
  CHECK(f[3].num == 4 && f[3].wire == MT_PB_LEN && f[3].len == 3 && !memcmp(f[3].data, "abc", 3));
  CHECK(f[4].num == 6 && (int64_t)f[4].v == -1);

  /* Every prefix: clean end exactly at field boundaries, else an error. */
  int bad_seen = 0, clean_ok = 1;
  for (size_t len = 0; len <= sizeof kMsg; len++) {
    int boundary = 0;
    for (size_t b = 0; b < sizeof kMsgBoundaries / sizeof(int); b++)
      boundary |= kMsgBoundaries[b] == (int)len;
    int got = read_all(kMsg, len, f, 8, s);
    if (boundary && got < 0) clean_ok = 0;
    if (!boundary && got >= 0) clean_ok = 0;
    if (got < 0) {
      bad_seen++;
      if (TF_GetCode(s) != TF_INVALID_ARGUMENT) clean_ok = 0;
    }
  }
  CHECK(clean_ok);
  CHECK(bad_seen == (int)sizeof kMsg + 1 - 7);
}

static int reads_bad(const uint8_t* p, size_t n, TF_Status* s) {
  mt_pb_field f[4];
  return read_all(p, n, f, 4, s) < 0 && TF_GetCode(s) == TF_INVALID_ARGUMENT;
}

static void test_wire_malformed(TF_Status* s) {
  CHECK(reads_bad(U8(0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), s));
  CHECK(reads_bad(U8(0x22, 0x05, 'a', 'b'), s));           /* length beyond the input */
  CHECK(reads_bad(U8(0x22, 0xff, 0xff, 0xff, 0xff, 0x0f), s)); /* 4 GiB length */
  CHECK(reads_bad(U8(0x02, 0x00), s));                      /* field number 0 */
  CHECK(reads_bad(U8(0x0f, 0x00), s));                      /* wire type 7 */
  CHECK(reads_bad(U8(0x0e, 0x00), s));                      /* wire type 6 */
  CHECK(reads_bad(U8(0x0c), s));                            /* end group without start */
  CHECK(reads_bad(U8(0x0b, 0x08, 0x01), s));                /* unterminated group */
  CHECK(reads_bad(U8(0x0b, 0x14), s));                      /* mismatched end group */
  CHECK(reads_bad(U8(0x80, 0x80, 0x80, 0x80, 0x80, 0x01), s)); /* tag above 32 bits */
  /* Groups nested past the depth limit: an error, not a stack overflow. */
  uint8_t deep[400];
  for (int k = 0; k < 200; k++) deep[k] = 0x0b, deep[200 + k] = 0x0c;
  CHECK(reads_bad(deep, sizeof deep, s));
  for (int k = 0; k < 50; k++) deep[k] = 0x0b, deep[50 + k] = 0x0c;
  mt_pb_field f[2];
  CHECK(read_all(deep, 100, f, 2, s) == 0); /* 50 deep is fine */

  /* Sub-message depth limit. */
  mt_pb_reader r = mt_pb_reader_make(U8(0x0a, 0x00), MT_PB_MAX_DEPTH), sub;
  mt_pb_field g;
  CHECK(mt_pb_next(&r, &g, "Test", s) == 1);
  CHECK(mt_pb_sub(&r, &g, &sub, "Test", s) == 0 && TF_GetCode(s) == TF_INVALID_ARGUMENT);
}

static void sum_raw(uint64_t raw, void* arg) { *(uint64_t*)arg = *(uint64_t*)arg * 1000 + raw; }

static void test_wire_repeated(TF_Status* s) {
  /* (named arrays: the fields point into them after the reads) */
  static const uint8_t packed[] = {0x1a, 0x03, 0x01, 0x96, 0x01};       /* [1, 150] */
  static const uint8_t unpacked[] = {0x18, 0x01, 0x18, 0x96, 0x01};
  static const uint8_t bad_fixed[] = {0x22, 0x06, 0, 0, 0x80, 0x3f, 0, 0}; /* 6 bytes */
  static const uint8_t cut_varint[] = {0x1a, 0x01, 0x80};
  static const uint8_t wrong_wire[] = {0x1d, 0, 0, 0x80, 0x3f};
  mt_pb_field f[4];
  CHECK(read_all(packed, sizeof packed, f, 4, s) == 1);
  CHECK(mt_pb_count_repeated(&f[0], MT_PB_VARINT, "T", s) == 2);
  uint64_t acc = 0;
  CHECK(mt_pb_each_repeated(&f[0], MT_PB_VARINT, sum_raw, &acc, "T", s) && acc == 1150);
  /* unpacked: one element per field */
  CHECK(read_all(unpacked, sizeof unpacked, f, 4, s) == 2);
  CHECK(mt_pb_count_repeated(&f[1], MT_PB_VARINT, "T", s) == 1);
  acc = 7;
  CHECK(mt_pb_each_repeated(&f[1], MT_PB_VARINT, sum_raw, &acc, "T", s) && acc == 7150);
  /* packed fixed32 of a bad length; truncated packed varint; wrong wire */
  CHECK(read_all(bad_fixed, sizeof bad_fixed, f, 4, s) == 1);
  CHECK(mt_pb_count_repeated(&f[0], MT_PB_FIXED32, "T", s) == -1);
  CHECK(read_all(cut_varint, sizeof cut_varint, f, 4, s) == 1);
  CHECK(mt_pb_count_repeated(&f[0], MT_PB_VARINT, "T", s) == -1);
  CHECK(!mt_pb_each_repeated(&f[0], MT_PB_VARINT, sum_raw, &acc, "T", s));
  CHECK(read_all(wrong_wire, sizeof wrong_wire, f, 4, s) == 1);
  CHECK(mt_pb_count_repeated(&f[0], MT_PB_VARINT, "T", s) == -1);
}

static void test_wire_writer(TF_Status* s) {
  mt_pb_writer w = mt_pb_writer_make();
  mt_pb_put_int64_field(&w, 1, -1);
  mt_pb_put_float_field(&w, 2, 1.0f);
  mt_pb_put_double_field(&w, 3, 2.5);
  mt_pb_put_string_field(&w, 4, "abc");
  const uint8_t want[] = {0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
                          0x15, 0x00, 0x00, 0x80, 0x3f, 0x19, 0, 0, 0, 0, 0, 0, 0x04, 0x40,
                          0x22, 0x03, 'a', 'b', 'c'};
  CHECK(!w.failed && w.len == sizeof want && !memcmp(w.data, want, sizeof want));
  mt_pb_writer_free(&w);
  int64_t v[3] = {1, 150, 3};
  mt_pb_put_packed_int64(&w, 3, v, 3);
  CHECK(w.len == 6 && !memcmp(w.data, (const uint8_t[]){0x1a, 0x04, 0x01, 0x96, 0x01, 0x03}, 6));
  mt_pb_writer_free(&w);
}

/* ------------------------------------------------------------------------ */
/* AttrValue and TensorProto through TF_SetAttrValueProto on a NoOp's "_a". */

static TF_Operation* noop_with_attr(TF_Graph* g, const char* name, const uint8_t* p, size_t n,
                                    TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "NoOp", name);
  TF_SetAttrValueProto(d, "_a", p, n, s);
  if (TF_GetCode(s) != TF_OK) {
    TF_Status* s2 = TF_NewStatus();
    TF_FinishOperation(d, s2); /* frees the description */
    TF_DeleteStatus(s2);
    return NULL;
  }
  return TF_FinishOperation(d, s);
}

/* The attr re-serialized: equal to `want`? */
static int attr_bytes_are(TF_Operation* op, const uint8_t* want, size_t n) {
  TF_Status* s = TF_NewStatus();
  TF_Buffer* b = TF_NewBuffer();
  TF_OperationGetAttrValueProto(op, "_a", b, s);
  int ok = TF_GetCode(s) == TF_OK && b->length == n && !memcmp(b->data, want, n);
  if (!ok) {
    fprintf(stderr, "  attr bytes (%zu):", b->length);
    for (size_t k = 0; k < b->length; k++) fprintf(stderr, " %02x", ((const uint8_t*)b->data)[k]);
    fprintf(stderr, "\n");
  }
  TF_DeleteBuffer(b);
  TF_DeleteStatus(s);
  return ok;
}

static void test_attr_scalars(TF_Graph* g, TF_Status* s) {
  TF_Operation* op = noop_with_attr(g, "s", U8(0x12, 0x03, 'f', 'o', 'o'), s);
  char str[8] = {0};
  CHECK_OK(s);
  TF_OperationGetAttrString(op, "_a", str, 3, s);
  CHECK(!strcmp(str, "foo"));
  CHECK(attr_bytes_are(op, U8(0x12, 0x03, 'f', 'o', 'o')));

  /* i = -5 (10-byte varint), with unknown fields of every wire type first. */
  op = noop_with_attr(g, "i", U8(0x78, 0x07,                    /* 15 varint */
                                 0x81, 0x01, 1, 2, 3, 4, 5, 6, 7, 8, /* 16 fixed64 */
                                 0x8a, 0x01, 0x02, 'z', 'z',    /* 17 LEN */
                                 0x93, 0x01, 0x08, 0x01, 0x94, 0x01, /* 18 group */
                                 0x9d, 0x01, 1, 2, 3, 4,        /* 19 fixed32 */
                                 0x18, 0xfb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                 0x01), s);
  CHECK_OK(s);
  int64_t i = 0;
  TF_OperationGetAttrInt(op, "_a", &i, s);
  CHECK(i == -5);

  op = noop_with_attr(g, "f", U8(0x25, 0x00, 0x00, 0x00, 0x3f), s);
  float f = 0;
  TF_OperationGetAttrFloat(op, "_a", &f, s);
  CHECK(f == 0.5f);
  op = noop_with_attr(g, "b", U8(0x28, 0x01), s);
  unsigned char b = 0;
  TF_OperationGetAttrBool(op, "_a", &b, s);
  CHECK(b == 1);
  op = noop_with_attr(g, "t", U8(0x30, 0x03), s);
  TF_DataType t = 0;
  TF_OperationGetAttrType(op, "_a", &t, s);
  CHECK(t == TF_INT32);
  /* oneof: the last member wins (i then s) */
  op = noop_with_attr(g, "last", U8(0x18, 0x05, 0x12, 0x01, 'x'), s);
  CHECK(attr_bytes_are(op, U8(0x12, 0x01, 'x')));

  /* shape [2, -1] */
  op = noop_with_attr(g, "shape", U8(0x3a, 0x11, 0x12, 0x02, 0x08, 0x02, 0x12, 0x0b, 0x08, 0xff,
                                     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), s);
  CHECK_OK(s);
  int64_t dims[2] = {0, 0};
  TF_OperationGetAttrShape(op, "_a", dims, 2, s);
  CHECK(dims[0] == 2 && dims[1] == -1);
  op = noop_with_attr(g, "unk", U8(0x3a, 0x02, 0x18, 0x01), s);
  TF_AttrMetadata m = TF_OperationGetAttrMetadata(op, "_a", s);
  CHECK(m.total_size == -1);
  CHECK(attr_bytes_are(op, U8(0x3a, 0x02, 0x18, 0x01)));

  op = noop_with_attr(g, "func", U8(0x52, 0x05, 0x0a, 0x03, 'f', 'o', 'o'), s);
  CHECK_OK(s);
  CHECK(attr_bytes_are(op, U8(0x52, 0x05, 0x0a, 0x03, 'f', 'o', 'o')));
  op = noop_with_attr(g, "ph", U8(0x4a, 0x01, 'T'), s);
  CHECK(attr_bytes_are(op, U8(0x4a, 0x01, 'T')));
}

static void test_attr_lists(TF_Graph* g, TF_Status* s) {
  int64_t v[4] = {0};
  /* packed, unpacked and mixed list(int) all give [1, 2, 3] */
  TF_Operation* p = noop_with_attr(g, "lp", U8(0x0a, 0x05, 0x1a, 0x03, 0x01, 0x02, 0x03), s);
  TF_Operation* u = noop_with_attr(g, "lu", U8(0x0a, 0x06, 0x18, 0x01, 0x18, 0x02, 0x18, 0x03), s);
  TF_Operation* x = noop_with_attr(g, "lx", U8(0x0a, 0x06, 0x18, 0x01, 0x1a, 0x02, 0x02, 0x03), s);
  CHECK_OK(s);
  TF_Operation* ops[3] = {p, u, x};
  for (int k = 0; k < 3; k++) {
    memset(v, 0, sizeof v);
    TF_AttrMetadata m = TF_OperationGetAttrMetadata(ops[k], "_a", s);
    CHECK(m.is_list && m.list_size == 3);
    TF_OperationGetAttrIntList(ops[k], "_a", v, 4, s);
    CHECK(v[0] == 1 && v[1] == 2 && v[2] == 3);
    /* written back packed, as TensorFlow does */
    CHECK(attr_bytes_are(ops[k], U8(0x0a, 0x05, 0x1a, 0x03, 0x01, 0x02, 0x03)));
  }
  TF_Operation* op = noop_with_attr(g, "lt", U8(0x0a, 0x04, 0x32, 0x02, 0x01, 0x03), s);
  TF_DataType types[2] = {0, 0};
  TF_OperationGetAttrTypeList(op, "_a", types, 2, s);
  CHECK(types[0] == TF_FLOAT && types[1] == TF_INT32);
  op = noop_with_attr(g, "ls", U8(0x0a, 0x08, 0x12, 0x01, 'a', 0x12, 0x03, 'b', 'c', 'd'), s);
  TF_AttrMetadata m = TF_OperationGetAttrMetadata(op, "_a", s);
  CHECK(m.is_list && m.list_size == 2 && m.type == TF_ATTR_STRING && m.total_size == 4);
  CHECK(attr_bytes_are(op, U8(0x0a, 0x08, 0x12, 0x01, 'a', 0x12, 0x03, 'b', 'c', 'd')));
  op = noop_with_attr(g, "lf", U8(0x0a, 0x0a, 0x22, 0x08, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40), s);
  CHECK(attr_bytes_are(op, U8(0x0a, 0x0a, 0x22, 0x08, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40)));
  op = noop_with_attr(g, "lb", U8(0x0a, 0x04, 0x2a, 0x02, 0x01, 0x00), s);
  CHECK(attr_bytes_are(op, U8(0x0a, 0x04, 0x2a, 0x02, 0x01, 0x00)));
  op = noop_with_attr(g, "empty", U8(0x0a, 0x00), s);
  CHECK_OK(s);
  m = TF_OperationGetAttrMetadata(op, "_a", s);
  CHECK(m.is_list && m.list_size == 0);
  CHECK(attr_bytes_are(op, U8(0x0a, 0x00)));

  /* malformed AttrValues: error, no op */
  CHECK(!noop_with_attr(g, "bad1", U8(0x0a, 0x05, 0x1a, 0x03, 0x01), s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(!noop_with_attr(g, "bad2", U8(0x0a, 0x02, 0x1a, 0x05), s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(!noop_with_attr(g, "bad3", U8(0x25, 0x00, 0x00), s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(!noop_with_attr(g, "bad4", U8(0x20, 0x01), s)); /* f as a varint */
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_GraphOperationByName(g, "bad1") == NULL);
}

/* A tensor attr from TensorProto bytes `tp` (wrapped in AttrValue.tensor). */
static TF_Tensor* tensor_from_proto(TF_Graph* g, const char* name, const uint8_t* tp, size_t n,
                                    TF_Status* s) {
  mt_pb_writer w = mt_pb_writer_make();
  mt_pb_put_bytes_field(&w, 8, tp, n);
  TF_Operation* op = noop_with_attr(g, name, w.data, w.len, s);
  mt_pb_writer_free(&w);
  if (!op) return NULL;
  TF_Tensor* t = NULL;
  TF_OperationGetAttrTensor(op, "_a", &t, s);
  return t;
}

static void test_tensor_proto(TF_Graph* g, TF_Status* s) {
  /* float [2] via tensor_content */
  TF_Tensor* t = tensor_from_proto(g, "tc", U8(0x08, 0x01, 0x12, 0x04, 0x12, 0x02, 0x08, 0x02,
                                               0x22, 0x08, 0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0), s);
  CHECK_OK(s);
  if (t) {
    const float* f = TF_TensorData(t);
    CHECK(TF_TensorType(t) == TF_FLOAT && TF_NumDims(t) == 1 && TF_Dim(t, 0) == 2);
    CHECK(f[0] == 1.0f && f[1] == -2.0f);
    TF_DeleteTensor(t);
  }
  /* float [4] from packed float_val [1, 2]: the last value repeats */
  t = tensor_from_proto(g, "fill", U8(0x08, 0x01, 0x12, 0x04, 0x12, 0x02, 0x08, 0x04,
                                      0x2a, 0x08, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40), s);
  CHECK_OK(s);
  if (t) {
    const float* f = TF_TensorData(t);
    CHECK(f[0] == 1 && f[1] == 2 && f[2] == 2 && f[3] == 2);
    TF_DeleteTensor(t);
  }
  /* int32 [3] with no values: zeros; unknown fields of each wire type skipped */
  t = tensor_from_proto(g, "zeros", U8(0x08, 0x03, 0x12, 0x04, 0x12, 0x02, 0x08, 0x03,
                                       0xf8, 0x01, 0x05, 0xf9, 0x01, 1, 2, 3, 4, 5, 6, 7, 8,
                                       0xfa, 0x01, 0x00, 0xfd, 0x01, 1, 2, 3, 4), s);
  CHECK_OK(s);
  if (t) {
    const int32_t* v = TF_TensorData(t);
    CHECK(v[0] == 0 && v[1] == 0 && v[2] == 0);
    TF_DeleteTensor(t);
  }
  /* int8 [3] from unpacked int_val -1, 5 -> [-1, 5, 5] */
  t = tensor_from_proto(g, "i8", U8(0x08, 0x06, 0x12, 0x04, 0x12, 0x02, 0x08, 0x03, 0x38, 0xff,
                                    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x38,
                                    0x05), s);
  CHECK_OK(s);
  if (t) {
    const int8_t* v = TF_TensorData(t);
    CHECK(v[0] == -1 && v[1] == 5 && v[2] == 5);
    TF_DeleteTensor(t);
  }
  /* int64 scalar, bool [2] packed, double [1], half [2] (0x3c00 = 1.0) */
  t = tensor_from_proto(g, "i64", U8(0x08, 0x09, 0x12, 0x00, 0x50, 0x80, 0x80, 0x80, 0x80, 0x10), s);
  CHECK(t && *(int64_t*)TF_TensorData(t) == ((int64_t)1 << 32) && TF_NumDims(t) == 0);
  TF_DeleteTensor(t);
  t = tensor_from_proto(g, "bool", U8(0x08, 0x0a, 0x12, 0x04, 0x12, 0x02, 0x08, 0x02,
                                      0x5a, 0x02, 0x00, 0x01), s);
  CHECK(t && ((uint8_t*)TF_TensorData(t))[0] == 0 && ((uint8_t*)TF_TensorData(t))[1] == 1);
  TF_DeleteTensor(t);
  t = tensor_from_proto(g, "dbl", U8(0x08, 0x02, 0x31, 0, 0, 0, 0, 0, 0, 0x04, 0x40), s);
  CHECK(t && *(double*)TF_TensorData(t) == 2.5);
  TF_DeleteTensor(t);
  t = tensor_from_proto(g, "half", U8(0x08, 0x13, 0x12, 0x04, 0x12, 0x02, 0x08, 0x02,
                                      0x68, 0x80, 0x78), s);
  CHECK(t && ((uint16_t*)TF_TensorData(t))[0] == 0x3c00 && ((uint16_t*)TF_TensorData(t))[1] == 0x3c00);
  TF_DeleteTensor(t);
  /* complex64 [2] from one scomplex pair (1, 2): pairs repeat */
  t = tensor_from_proto(g, "c64", U8(0x08, 0x08, 0x12, 0x04, 0x12, 0x02, 0x08, 0x02,
                                     0x4a, 0x08, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40), s);
  if (t) {
    const float* c = TF_TensorData(t);
    CHECK(c[0] == 1 && c[1] == 2 && c[2] == 1 && c[3] == 2);
    TF_DeleteTensor(t);
  }
  /* string [3] from string_val "x", "yz" -> ["x", "yz", "yz"] */
  t = tensor_from_proto(g, "str", U8(0x08, 0x07, 0x12, 0x04, 0x12, 0x02, 0x08, 0x03,
                                     0x42, 0x01, 'x', 0x42, 0x02, 'y', 'z'), s);
  CHECK_OK(s);
  if (t) {
    const TF_TString* e = TF_TensorData(t);
    CHECK(TF_StringGetSize(&e[0]) == 1 && !memcmp(TF_StringGetDataPointer(&e[0]), "x", 1));
    CHECK(TF_StringGetSize(&e[2]) == 2 && !memcmp(TF_StringGetDataPointer(&e[2]), "yz", 2));
    TF_DeleteTensor(t);
  }
  /* Errors: content of the wrong size, a huge fill, unknown rank, bad dtype */
  CHECK(!tensor_from_proto(g, "e1", U8(0x08, 0x01, 0x12, 0x04, 0x12, 0x02, 0x08, 0x02,
                                       0x22, 0x04, 0, 0, 0x80, 0x3f), s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(!tensor_from_proto(g, "e2", U8(0x08, 0x01, 0x12, 0x08, 0x12, 0x06, 0x08, 0x80, 0x80,
                                       0x80, 0x80, 0x20, 0x2d, 0, 0, 0x80, 0x3f), s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(!tensor_from_proto(g, "e3", U8(0x08, 0x01, 0x12, 0x02, 0x18, 0x01), s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(!tensor_from_proto(g, "e4", U8(0x08, 0x63), s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  /* Encoding: numeric tensors as compact tensor_content */
  mt_pb_writer w = mt_pb_writer_make();
  mt_pb_put_bytes_field(&w, 8, (const uint8_t[]){0x08, 0x01, 0x12, 0x04, 0x12, 0x02, 0x08, 0x02,
                                                 0x2d, 0, 0, 0x80, 0x3f}, 13);
  TF_Operation* op = noop_with_attr(g, "enc", w.data, w.len, s);
  mt_pb_writer_free(&w);
  CHECK(attr_bytes_are(op, U8(0x42, 0x12, 0x08, 0x01, 0x12, 0x04, 0x12, 0x02, 0x08, 0x02, 0x22,
                              0x08, 0, 0, 0x80, 0x3f, 0, 0, 0x80, 0x3f)));
  /* ... and scalars / bools in the packed typed field: int32 -3 from
   * tensor_content becomes int_val [-3] (sign-extended varint) */
  op = noop_with_attr(g, "enc2", U8(0x42, 0x0a, 0x08, 0x03, 0x12, 0x00, 0x22, 0x04, 0xfd, 0xff,
                                    0xff, 0xff), s);
  CHECK(attr_bytes_are(op, U8(0x42, 0x10, 0x08, 0x03, 0x12, 0x00, 0x3a, 0x0a, 0xfd, 0xff, 0xff,
                              0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01)));
  op = noop_with_attr(g, "enc3", U8(0x42, 0x0c, 0x08, 0x0a, 0x12, 0x04, 0x12, 0x02, 0x08, 0x02,
                                    0x22, 0x02, 0x01, 0x00), s);
  CHECK(attr_bytes_are(op, U8(0x42, 0x0c, 0x08, 0x0a, 0x12, 0x04, 0x12, 0x02, 0x08, 0x02, 0x5a,
                              0x02, 0x01, 0x00)));
}

static void test_config(TF_Status* s) {
  TF_SessionOptions* o = TF_NewSessionOptions();
  /* device_count map entry, intra 2, gpu_options (unknown sub-message),
   * inter 5, use_per_session_threads, an unknown fixed64 */
  TF_SetConfig(o, U8(0x0a, 0x07, 0x0a, 0x03, 'C', 'P', 'U', 0x10, 0x01, 0x10, 0x03,
                     0x32, 0x02, 0x20, 0x01, 0x28, 0x04, 0x48, 0x01,
                     0xf9, 0x07, 1, 2, 3, 4, 5, 6, 7, 8), s);
  CHECK_OK(s);
  CHECK(o->intra_op_threads == 3 && o->inter_op_threads == 4 && o->use_per_session_threads == 1);
  TF_SetConfig(o, U8(0x10, 0x07, 0x28), s); /* truncated: unchanged */
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(o->intra_op_threads == 3 && o->inter_op_threads == 4);
  TF_SetConfig(o, U8(0x15, 1, 2, 3, 4), s); /* intra as fixed32 */
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteSessionOptions(o);
}

/* ------------------------------------------------------------------------ */
/* Reading io.npz: an uncompressed (stored) zip of .npy files, with zip64
 * size fields as numpy writes them. */

typedef struct npy {
  char descr[8];
  int ndims;
  int64_t dims[4];
  const void* data;
  size_t len;
} npy;

/* .npy data inside the zip is not aligned: load element i with memcpy. */
static float npy_f32(const npy* a, int64_t i) {
  float v;
  memcpy(&v, (const char*)a->data + 4 * i, 4);
  return v;
}

static int npz_find(const uint8_t* z, size_t n, const char* name, npy* out) {
  size_t at = 0, want = strlen(name);
  while (at + 30 <= n && !memcmp(z + at, "PK\3\4", 4)) {
    const uint8_t* h = z + at;
    uint64_t csize = h[18] | h[19] << 8 | h[20] << 16 | (uint64_t)h[21] << 24;
    size_t fl = h[26] | h[27] << 8, el = h[28] | h[29] << 8;
    const uint8_t* extra = h + 30 + fl;
    if (csize == 0xffffffffu) { /* zip64: extra id 1 holds usize, csize */
      for (size_t e = 0; e + 4 <= el;) {
        size_t id = extra[e] | extra[e + 1] << 8, sz = extra[e + 2] | extra[e + 3] << 8;
        if (id == 1 && sz >= 16) memcpy(&csize, extra + e + 12, 8);
        e += 4 + sz;
      }
    }
    const uint8_t* data = extra + el;
    if (h[8] != 0 || data + csize > z + n) return 0; /* compressed or truncated */
    if (fl == want && !memcmp(h + 30, name, fl)) {
      size_t hl = data[8] | data[9] << 8;
      const char* hdr = (const char*)data + 10;
      const char* d = strstr(hdr, "'descr': '");
      const char* sh = strstr(hdr, "'shape': (");
      if (!d || !sh) return 0;
      memcpy(out->descr, d + 10, 3);
      out->descr[3] = 0;
      out->ndims = 0;
      for (const char* p = sh + 10; *p != ')' && out->ndims < 4;) {
        char* end;
        long long v = strtoll(p, &end, 10);
        if (end == p) break;
        out->dims[out->ndims++] = v;
        p = end;
        while (*p == ',' || *p == ' ') p++;
      }
      out->data = data + 10 + hl;
      out->len = csize - 10 - hl;
      return 1;
    }
    at = (size_t)(data + csize - z);
  }
  return 0;
}

/* ------------------------------------------------------------------------ */
/* GraphDef import */

static TF_Buffer* read_buffer(const char* path) {
  size_t n = 0;
  char* data = ctest_read_file(path, &n);
  if (!data) {
    fprintf(stderr, "cannot read %s\n", path);
    return NULL;
  }
  TF_Buffer* b = TF_NewBufferFromString(data, n);
  free(data);
  return b;
}

static int num_ops(TF_Graph* g) {
  size_t pos = 0;
  int n = 0;
  while (TF_GraphNextOperation(g, &pos)) n++;
  return n;
}

static TF_Tensor* run1(TF_Graph* g, TF_Output feed, TF_Tensor* feed_value, TF_Output fetch,
                       TF_Status* s) {
  TF_SessionOptions* o = TF_NewSessionOptions();
  TF_Session* sess = TF_NewSession(g, o, s);
  TF_DeleteSessionOptions(o);
  if (!sess) return NULL;
  TF_Tensor* out = NULL;
  TF_SessionRun(sess, NULL, &feed, &feed_value, feed_value ? 1 : 0, &fetch, &out, 1, NULL, 0,
                NULL, s);
  TF_Status* s2 = TF_NewStatus();
  TF_DeleteSession(sess, s2);
  TF_DeleteStatus(s2);
  return out;
}

static TF_Output out_named(TF_Graph* g, const char* name, int index) {
  TF_Output o = {TF_GraphOperationByName(g, name), index};
  return o;
}

static void test_import_seed(TF_Status* s) {
  TF_Buffer* gd = read_buffer("tests/fixtures/seed_examples/graph.pb");
  size_t zn = 0;
  uint8_t* z = (uint8_t*)ctest_read_file("tests/fixtures/seed_examples/io.npz", &zn);
  if (!gd || !z) {
    CHECK(0);
    return;
  }
  TF_Graph* g = TF_NewGraph();
  TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
  TF_GraphImportGraphDef(g, gd, o, s);
  CHECK_OK(s);
  CHECK(num_ops(g) == 8);
  const char* names[8] = {"Const", "Const_1", "add", "a", "b", "prod", "sum", "res"};
  const char* types[8] = {"Const", "Const", "AddV2", "Const", "Const", "Mul", "AddV2", "RealDiv"};
  size_t pos = 0;
  TF_Operation* op;
  for (int k = 0; (op = TF_GraphNextOperation(g, &pos)) && k < 8; k++) {
    CHECK(!strcmp(TF_OperationName(op), names[k]));
    CHECK(!strcmp(TF_OperationOpType(op), types[k]));
    CHECK(TF_OperationOutputType((TF_Output){op, 0}) == TF_FLOAT);
  }
  TF_Tensor* t = NULL;
  TF_OperationGetAttrTensor(TF_GraphOperationByName(g, "a"), "value", &t, s);
  CHECK(t && TF_NumDims(t) == 0 && *(float*)TF_TensorData(t) == 15.0f);
  TF_DeleteTensor(t);
  TF_Operation* res = TF_GraphOperationByName(g, "res");
  CHECK(TF_OperationNumInputs(res) == 2);
  CHECK(TF_OperationInput((TF_Input){res, 0}).oper == TF_GraphOperationByName(g, "prod"));
  TF_DataType T = 0;
  TF_OperationGetAttrType(res, "T", &T, s);
  CHECK(T == TF_FLOAT);

  const char* fetches[2] = {"add", "res"};
  const char* keys[2] = {"fetch:add:0.npy", "fetch:res:0.npy"};
  for (int k = 0; k < 2; k++) {
    npy want;
    CHECK(npz_find(z, zn, keys[k], &want) && !strcmp(want.descr, "<f4") && want.ndims == 0);
    TF_Output none = {NULL, 0};
    t = run1(g, none, NULL, out_named(g, fetches[k], 0), s);
    CHECK_OK(s);
    CHECK(t && *(float*)TF_TensorData(t) == npy_f32(&want, 0));
    TF_DeleteTensor(t);
  }
  /* Every prefix of the file: a clean error or success, never a crash, and
   * the graph is unchanged on error. */
  int prefix_ok = 1, nerr = 0;
  for (size_t len = 0; len < gd->length; len++) {
    TF_Graph* g2 = TF_NewGraph();
    TF_Buffer part = {gd->data, len, NULL};
    TF_GraphImportGraphDef(g2, &part, o, s);
    if (TF_GetCode(s) != TF_OK) {
      nerr++;
      if (num_ops(g2) != 0 || TF_GetCode(s) != TF_INVALID_ARGUMENT) prefix_ok = 0;
    }
    TF_DeleteGraph(g2);
  }
  CHECK(prefix_ok);
  CHECK(nerr > (int)gd->length / 2);
  TF_DeleteImportGraphDefOptions(o);
  TF_DeleteGraph(g);
  TF_DeleteBuffer(gd);
  free(z);
}

/* Random byte flips of a real GraphDef: each import succeeds or fails
 * cleanly, leaving the graph empty. */
static void fuzz_flips(const char* path, int rounds, TF_Status* s) {
  TF_Buffer* gd = read_buffer(path);
  if (!gd) {
    CHECK(0);
    return;
  }
  uint8_t* bytes = malloc(gd->length);
  uint32_t rng = 12345;
  int clean = 1, nerr = 0;
  for (int k = 0; k < rounds; k++) {
    memcpy(bytes, gd->data, gd->length);
    for (int j = 0; j < 1 + k % 3; j++) {
      rng = rng * 1103515245u + 12345u;
      size_t at = (rng >> 8) % gd->length;
      rng = rng * 1103515245u + 12345u;
      bytes[at] ^= (uint8_t)(1u << ((rng >> 16) % 8));
    }
    TF_Graph* g = TF_NewGraph();
    TF_Buffer b = {bytes, gd->length, NULL};
    TF_GraphImportGraphDef(g, &b, NULL, s);
    if (TF_GetCode(s) != TF_OK) {
      nerr++;
      if (num_ops(g) != 0) clean = 0;
    }
    TF_DeleteGraph(g);
  }
  CHECK(clean);
  CHECK(nerr > 0);
  free(bytes);
  TF_DeleteBuffer(gd);
}

/* Systematic mutation of a real GraphDef for the hand-written decoder (kept over the
 * protoc-c codec, bench/graphdef_decode.c): single-bit flips at every bit (strided evenly
 * over the file when it has more than `budget` bits) and truncations at every byte (strided
 * likewise). Each import succeeds or fails cleanly with the graph left empty; ASan/UBSan
 * (make asan-ctest) check that nothing is read out of bounds. */
static void mutate_systematic(const char* path, size_t budget, TF_Status* s) {
  TF_Buffer* gd = read_buffer(path);
  if (!gd) {
    CHECK(0);
    return;
  }
  size_t n = gd->length, bits = 8 * n;
  uint8_t* bytes = malloc(n);
  memcpy(bytes, gd->data, n);
  size_t bit_step = bits > budget ? bits / budget | 1 : 1;
  size_t cut_step = n > budget / 4 ? (n / (budget / 4)) | 1 : 1;
  int clean = 1, nerr = 0, nrun = 0;
  for (size_t b = 0; b < bits; b += bit_step) {
    bytes[b / 8] ^= (uint8_t)(1u << (b % 8));
    TF_Graph* g = TF_NewGraph();
    TF_Buffer buf = {bytes, n, NULL};
    TF_GraphImportGraphDef(g, &buf, NULL, s);
    nrun++;
    if (TF_GetCode(s) != TF_OK) {
      nerr++;
      if (num_ops(g) != 0) clean = 0;
    }
    TF_DeleteGraph(g);
    bytes[b / 8] ^= (uint8_t)(1u << (b % 8));
  }
  for (size_t len = 0; len < n; len += cut_step) {
    TF_Graph* g = TF_NewGraph();
    TF_Buffer buf = {bytes, len, NULL};
    TF_GraphImportGraphDef(g, &buf, NULL, s);
    nrun++;
    if (TF_GetCode(s) != TF_OK) {
      nerr++;
      if (num_ops(g) != 0) clean = 0;
    }
    TF_DeleteGraph(g);
  }
  CHECK(clean);
  CHECK(nerr > nrun / 8); /* most mutations of a GraphDef are caught */
  free(bytes);
  TF_DeleteBuffer(gd);
}

static TF_Buffer* export_graph(TF_Graph* g, TF_Status* s) {
  TF_Buffer* b = TF_NewBuffer();
  TF_GraphToGraphDef(g, b, s);
  return b;
}

static void write_file(const char* path, const TF_Buffer* b) {
  FILE* f = fopen(path, "wb");
  if (!f) return;
  fwrite(b->data, 1, b->length, f);
  fclose(f);
}

static void test_import_digits(TF_Status* s) {
  TF_Buffer* gd = read_buffer("tests/fixtures/digits_mlp/graph.pb");
  size_t zn = 0;
  uint8_t* z = (uint8_t*)ctest_read_file("tests/fixtures/digits_mlp/io.npz", &zn);
  if (!gd || !z) {
    CHECK(0);
    return;
  }
  TF_Graph* g = TF_NewGraph();
  TF_GraphImportGraphDef(g, gd, NULL, s);
  CHECK_OK(s);
  CHECK(num_ops(g) == 18);
  TF_Operation* mm = TF_GraphOperationByName(g, "hidden/MatMul");
  CHECK(mm && !strcmp(TF_OperationOpType(mm), "MatMul"));
  unsigned char tb = 1;
  TF_OperationGetAttrBool(mm, "transpose_b", &tb, s);
  CHECK(tb == 0);
  TF_Operation* x = TF_GraphOperationByName(g, "x");
  CHECK(x && !strcmp(TF_OperationOpType(x), "Placeholder"));
  int64_t dims[2] = {0, 0};
  TF_OperationGetAttrShape(x, "shape", dims, 2, s);
  CHECK(dims[0] == -1 && dims[1] == 64);
  TF_Tensor* k = NULL;
  TF_OperationGetAttrTensor(TF_GraphOperationByName(g, "hidden/kernel"), "value", &k, s);
  CHECK(k && TF_NumDims(k) == 2 && TF_Dim(k, 0) == 64 && TF_Dim(k, 1) == 64);
  TF_DeleteTensor(k);

  npy feed, logits, probs, pred;
  CHECK(npz_find(z, zn, "feed:x:0.npy", &feed) && !strcmp(feed.descr, "<f4"));
  CHECK(npz_find(z, zn, "fetch:logits:0.npy", &logits) && logits.dims[1] == 10);
  CHECK(npz_find(z, zn, "fetch:probs:0.npy", &probs));
  CHECK(npz_find(z, zn, "fetch:pred:0.npy", &pred) && !strcmp(pred.descr, "<i8"));
  TF_Tensor* xin = TF_AllocateTensor(TF_FLOAT, feed.dims, 2, feed.len);
  memcpy(TF_TensorData(xin), feed.data, feed.len);
  const char* names[3] = {"logits", "probs", "pred"};
  npy* want[3] = {&logits, &probs, &pred};
  for (int j = 0; j < 3; j++) {
    TF_Tensor* t = run1(g, out_named(g, "x", 0), xin, out_named(g, names[j], 0), s);
    CHECK_OK(s);
    if (!t) continue;
    CHECK(TF_TensorByteSize(t) == want[j]->len && TF_Dim(t, 0) == 397);
    double maxerr = 0;
    int64_t n = TF_TensorElementCount(t);
    for (int64_t e = 0; e < n && j < 2; e++) {
      double d = fabs(((float*)TF_TensorData(t))[e] - npy_f32(want[j], e));
      if (d > maxerr) maxerr = d;
    }
    if (j < 2) CHECK(maxerr < 1e-4);
    else CHECK(!memcmp(TF_TensorData(t), want[j]->data, want[j]->len));
    TF_DeleteTensor(t);
  }
  TF_DeleteTensor(xin);

  /* import -> export -> import -> export: identical bytes */
  TF_Buffer* e1 = export_graph(g, s);
  CHECK_OK(s);
  TF_Graph* g2 = TF_NewGraph();
  TF_GraphImportGraphDef(g2, e1, NULL, s);
  CHECK_OK(s);
  CHECK(num_ops(g2) == 18);
  TF_Buffer* e2 = export_graph(g2, s);
  CHECK(e1->length == e2->length && !memcmp(e1->data, e2->data, e1->length));
  /* same node set as the original */
  size_t pos = 0;
  TF_Operation* op;
  int same = 1;
  while ((op = TF_GraphNextOperation(g, &pos))) {
    TF_Operation* o2 = TF_GraphOperationByName(g2, TF_OperationName(op));
    same &= o2 && !strcmp(TF_OperationOpType(o2), TF_OperationOpType(op)) &&
            TF_OperationNumInputs(o2) == TF_OperationNumInputs(op);
  }
  CHECK(same);
  /* versions {producer: 2474} (min_consumer 0, left out, as TensorFlow) */
  mt_pb_reader r = mt_pb_reader_make(e1->data, e1->length, 0), vr;
  mt_pb_field f;
  int nnodes = 0, producer = 0, min_consumer = 0;
  while (mt_pb_next(&r, &f, "GraphDef", s) > 0) {
    if (f.num == 1) nnodes++;
    if (f.num != 4) continue;
    mt_pb_sub(&r, &f, &vr, "VersionDef", s);
    mt_pb_field v;
    while (mt_pb_next(&vr, &v, "VersionDef", s) > 0) {
      if (v.num == 1) producer = (int)v.v;
      if (v.num == 2) min_consumer = (int)v.v;
    }
  }
  CHECK(nnodes == 18 && producer == 2474 && min_consumer == 0);
  write_file("build/graphdef_test_digits.pb", e1);
  TF_DeleteBuffer(e1);
  TF_DeleteBuffer(e2);

  /* NodeDef of hidden/MatMul: inputs in order, attrs sorted by key */
  TF_Buffer* nb = TF_NewBuffer();
  TF_OperationToNodeDef(mm, nb, s);
  CHECK_OK(s);
  r = mt_pb_reader_make(nb->data, nb->length, 0);
  char inputs[2][64] = {{0}}, last_key[64] = "";
  int ninputs = 0, sorted = 1, nattrs = 0;
  while (mt_pb_next(&r, &f, "NodeDef", s) > 0) {
    if (f.num == 3 && ninputs < 2 && f.len < 63) memcpy(inputs[ninputs++], f.data, f.len);
    if (f.num != 5) continue;
    mt_pb_reader er;
    mt_pb_field kf;
    mt_pb_sub(&r, &f, &er, "Entry", s);
    while (mt_pb_next(&er, &kf, "Entry", s) > 0) {
      if (kf.num != 1 || kf.len >= 63) continue;
      char key[64] = {0};
      memcpy(key, kf.data, kf.len);
      if (strcmp(last_key, key) >= 0) sorted = 0;
      strcpy(last_key, key);
      nattrs++;
    }
  }
  CHECK(!strcmp(inputs[0], "x") && !strcmp(inputs[1], "hidden/MatMul/ReadVariableOp"));
  CHECK(sorted && nattrs >= 3);
  TF_DeleteBuffer(nb);
  nb = TF_NewBuffer();
  TF_OperationToNodeDef(mm, nb, s);
  TF_OperationToNodeDef(mm, nb, s); /* a non-empty buffer is refused */
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteBuffer(nb);

  TF_DeleteGraph(g2);
  TF_DeleteGraph(g);
  TF_DeleteBuffer(gd);
  free(z);
}

/* ------------------------------------------------------------------------ */
/* Hand-built GraphDefs */

static void put_attr(mt_pb_writer* node, const char* key, const uint8_t* val, size_t n) {
  mt_pb_writer e = mt_pb_writer_make();
  mt_pb_put_string_field(&e, 1, key);
  mt_pb_put_bytes_field(&e, 2, val, n);
  mt_pb_put_message(node, 5, &e);
}

static void put_node(mt_pb_writer* g, const char* name, const char* op, const char* in0,
                     const char* in1, const char* in2) {
  mt_pb_writer n = mt_pb_writer_make();
  mt_pb_put_string_field(&n, 1, name);
  mt_pb_put_string_field(&n, 2, op);
  const char* ins[3] = {in0, in1, in2};
  for (int k = 0; k < 3; k++)
    if (ins[k]) mt_pb_put_string_field(&n, 3, ins[k]);
  if (!strcmp(op, "Const")) {
    put_attr(&n, "dtype", U8(0x30, 0x01));
    /* value: float scalar 2.0 as float_val */
    put_attr(&n, "value", U8(0x42, 0x09, 0x08, 0x01, 0x12, 0x00, 0x2d, 0, 0, 0, 0x40));
  } else if (strcmp(op, "NoOp") != 0) {
    put_attr(&n, "T", U8(0x30, 0x01));
  }
  mt_pb_put_message(g, 1, &n);
}

static TF_Buffer* take_buffer(mt_pb_writer* w) {
  TF_Buffer* b = TF_NewBufferFromString(w->data, w->len);
  mt_pb_writer_free(w);
  return b;
}

static TF_Operation* make_const(TF_Graph* g, const char* name, float v, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "Const", name);
  int64_t none = 0;
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, &none, 0, sizeof(float));
  *(float*)TF_TensorData(t) = v;
  TF_SetAttrTensor(d, "value", t, s);
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_DeleteTensor(t);
  return TF_FinishOperation(d, s);
}

static float run_scalar(TF_Graph* g, TF_Output out, TF_Status* s) {
  TF_Output none = {NULL, 0};
  TF_Tensor* t = run1(g, none, NULL, out, s);
  float v = t ? *(float*)TF_TensorData(t) : -999.0f;
  TF_DeleteTensor(t);
  return v;
}

static void test_import_order_and_errors(TF_Status* s) {
  /* Consumers listed before producers import fine. */
  mt_pb_writer w = mt_pb_writer_make();
  put_node(&w, "out", "Mul", "sum", "c:0", NULL);
  put_node(&w, "sum", "AddV2", "c", "c", NULL);
  put_node(&w, "c", "Const", NULL, NULL, NULL);
  TF_Buffer* b = take_buffer(&w);
  TF_Graph* g = TF_NewGraph();
  TF_GraphImportGraphDef(g, b, NULL, s);
  CHECK_OK(s);
  CHECK(num_ops(g) == 3);
  CHECK(run_scalar(g, out_named(g, "out", 0), s) == 8.0f);
  TF_DeleteBuffer(b);

  /* Each bad GraphDef leaves the graph (3 ops) unchanged. */
  struct { const char* what; TF_Code code; const char* msg; } cases[] = {
      {"missing input", TF_INVALID_ARGUMENT, "Node 'y': Unknown input node 'zz'"},
      {"unknown op", TF_NOT_FOUND, "Op type not registered 'FooBar'"},
      {"cycle", TF_INVALID_ARGUMENT, "cycle"},
      {"bad arity", TF_INVALID_ARGUMENT, "Node 'bad'"},
      {"duplicate", TF_INVALID_ARGUMENT, "'d' is not unique"},
      {"exists", TF_INVALID_ARGUMENT, "'c' already exists"},
      {"bad output index", TF_INVALID_ARGUMENT, "invalid output 3"},
      {"control first", TF_INVALID_ARGUMENT, "Control dependencies must come after"},
  };
  for (int k = 0; k < (int)(sizeof cases / sizeof cases[0]); k++) {
    w = mt_pb_writer_make();
    put_node(&w, "c1", "Const", NULL, NULL, NULL);
    put_node(&w, "c2", "Const", NULL, NULL, NULL);
    put_node(&w, "ok1", "AddV2", "c1", "c2", NULL); /* built before the failure */
    switch (k) {
      case 0: put_node(&w, "y", "AddV2", "c1", "zz", NULL); break;
      case 1: put_node(&w, "foo", "FooBar", NULL, NULL, NULL); break;
      case 2:
        put_node(&w, "p", "AddV2", "c1", "q", NULL);
        put_node(&w, "q", "AddV2", "p", "c1", NULL);
        break;
      case 3: put_node(&w, "bad", "AddV2", "c1", NULL, NULL); break;
      case 4:
        put_node(&w, "d", "AddV2", "c1", "c2", NULL);
        put_node(&w, "d", "AddV2", "c1", "c2", NULL);
        break;
      case 5: put_node(&w, "c", "Const", NULL, NULL, NULL); break;
      case 6: put_node(&w, "y", "AddV2", "c1", "c2:3", NULL); break;
      case 7: put_node(&w, "y", "AddV2", "^c1", "c1", "c2"); break;
    }
    b = take_buffer(&w);
    TF_ImportGraphDefResults* r = TF_GraphImportGraphDefWithResults(g, b, NULL, s);
    CHECK(r == NULL);
    CHECK_CODE(s, cases[k].code);
    CHECK_STR_CONTAINS(TF_Message(s), cases[k].msg);
    CHECK(num_ops(g) == 3 && TF_GraphOperationByName(g, "c1") == NULL);
    TF_DeleteBuffer(b);
  }
  /* The graph still works after the rollbacks. */
  CHECK(run_scalar(g, out_named(g, "out", 0), s) == 8.0f);

  /* A NodeDef without its default-valued attrs gets them (Placeholder
   * shape = unknown); uniquify_names renames a clashing node and rewires
   * its consumers; return outputs through the array form. */
  w = mt_pb_writer_make();
  mt_pb_writer pn = mt_pb_writer_make();
  mt_pb_put_string_field(&pn, 1, "ph");
  mt_pb_put_string_field(&pn, 2, "Placeholder");
  put_attr(&pn, "dtype", U8(0x30, 0x01));
  mt_pb_put_message(&w, 1, &pn);
  put_node(&w, "c", "Const", NULL, NULL, NULL); /* clashes with the existing "c" */
  put_node(&w, "twice", "AddV2", "c", "c", NULL);
  b = take_buffer(&w);
  TF_ImportGraphDefOptions* uo = TF_NewImportGraphDefOptions();
  TF_ImportGraphDefOptionsSetUniquifyNames(uo, 1);
  TF_ImportGraphDefOptionsAddReturnOutput(uo, "twice", 0);
  TF_Output twice = {NULL, 0};
  TF_GraphImportGraphDefWithReturnOutputs(g, b, uo, &twice, 1, s);
  CHECK_OK(s);
  TF_Operation* ph = TF_GraphOperationByName(g, "ph");
  TF_AttrMetadata pm = TF_OperationGetAttrMetadata(ph, "shape", s);
  CHECK_OK(s);
  CHECK(pm.type == TF_ATTR_SHAPE && pm.total_size == -1);
  TF_Operation* c_1 = TF_GraphOperationByName(g, "c_1");
  CHECK(c_1 && twice.oper == TF_GraphOperationByName(g, "twice"));
  CHECK(twice.oper && TF_OperationInput((TF_Input){twice.oper, 0}).oper == c_1);
  CHECK(run_scalar(g, twice, s) == 4.0f);
  CHECK(num_ops(g) == 6);
  TF_DeleteImportGraphDefOptions(uo);
  TF_DeleteBuffer(b);

  /* Malformed bytes */
  TF_Buffer bad = {(const uint8_t[]){0x0a, 0x10, 0x0a}, 3, NULL};
  TF_GraphImportGraphDef(g, &bad, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* min_consumer above our version */
  TF_Buffer newer = {(const uint8_t[]){0x22, 0x03, 0x10, 0xe8, 0x07}, 5, NULL};
  TF_GraphImportGraphDef(g, &newer, NULL, s);
  CHECK_OK(s); /* 1000 <= 2474 */
  TF_Buffer newest = {(const uint8_t[]){0x22, 0x04, 0x10, 0x80, 0xe8, 0x30}, 6, NULL};
  TF_GraphImportGraphDef(g, &newest, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteGraph(g);
}

static void test_import_options(TF_Status* s) {
  TF_Buffer* gd = read_buffer("tests/fixtures/seed_examples/graph.pb");
  if (!gd) {
    CHECK(0);
    return;
  }
  TF_Graph* g = TF_NewGraph();
  TF_Operation* ten = make_const(g, "ten", 10.0f, s);
  TF_Operation* gate = make_const(g, "gate", 0.0f, s);
  CHECK_OK(s);
  TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
  TF_ImportGraphDefOptionsSetPrefix(o, "imp");
  TF_ImportGraphDefOptionsAddInputMapping(o, "a", 0, (TF_Output){ten, 0});
  TF_ImportGraphDefOptionsAddInputMapping(o, "nothere", 1, (TF_Output){ten, 0});
  TF_ImportGraphDefOptionsAddControlDependency(o, gate);
  TF_ImportGraphDefOptionsAddReturnOutput(o, "res", 0);
  TF_ImportGraphDefOptionsAddReturnOutput(o, "a", 0); /* mapped: returns `ten` */
  TF_ImportGraphDefOptionsAddReturnOperation(o, "prod");
  CHECK(TF_ImportGraphDefOptionsNumReturnOutputs(o) == 2);
  CHECK(TF_ImportGraphDefOptionsNumReturnOperations(o) == 1);
  TF_ImportGraphDefResults* r = TF_GraphImportGraphDefWithResults(g, gd, o, s);
  CHECK_OK(s);
  if (r) {
    int n = 0;
    TF_Output* outs = NULL;
    TF_ImportGraphDefResultsReturnOutputs(r, &n, &outs);
    CHECK(n == 2 && !strcmp(TF_OperationName(outs[0].oper), "imp/res") && outs[1].oper == ten);
    TF_Operation** opers = NULL;
    TF_ImportGraphDefResultsReturnOperations(r, &n, &opers);
    CHECK(n == 1 && !strcmp(TF_OperationName(opers[0]), "imp/prod"));
    const char** names = NULL;
    int* idx = NULL;
    TF_ImportGraphDefResultsMissingUnusedInputMappings(r, &n, &names, &idx);
    CHECK(n == 1 && !strcmp(names[0], "nothere") && idx[0] == 1);
    /* (10 * 5) / (10 + 5) */
    CHECK_NEAR(run_scalar(g, outs[0], s), 50.0 / 15.0, 1e-6);
    TF_DeleteImportGraphDefResults(r);
  }
  CHECK(num_ops(g) == 10);
  TF_Operation* prod = TF_GraphOperationByName(g, "imp/prod");
  CHECK(prod && TF_OperationInput((TF_Input){prod, 0}).oper == ten);
  /* The imported roots (Const, Const_1, b) got the control input on gate;
   * prod, fed by imp/b, did not. */
  TF_Operation* c = TF_GraphOperationByName(g, "imp/Const");
  TF_Operation* ctl = NULL;
  CHECK(TF_OperationNumControlInputs(c) == 1 && TF_OperationGetControlInputs(c, &ctl, 1) == 1 &&
        ctl == gate);
  CHECK(TF_OperationNumControlInputs(prod) == 0);

  /* Same prefix again: names clash unless the prefix is uniquified. */
  TF_ImportGraphDefOptions* o2 = TF_NewImportGraphDefOptions();
  TF_ImportGraphDefOptionsSetPrefix(o2, "imp/");
  TF_GraphImportGraphDef(g, gd, o2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(num_ops(g) == 10);
  TF_ImportGraphDefOptionsSetUniquifyPrefix(o2, 1);
  TF_ImportGraphDefOptionsSetDefaultDevice(o2, "/device:CPU:0");
  TF_GraphImportGraphDef(g, gd, o2, s);
  CHECK_OK(s);
  TF_Operation* res1 = TF_GraphOperationByName(g, "imp_1/res");
  CHECK(num_ops(g) == 18 && res1);
  CHECK(res1 && !strcmp(TF_OperationDevice(res1), "/device:CPU:0"));
  CHECK_NEAR(run_scalar(g, (TF_Output){res1, 0}, s), 75.0 / 20.0, 1e-6);

  /* Return-output count mismatch and unknown return names */
  TF_Output ro[2];
  TF_GraphImportGraphDefWithReturnOutputs(g, gd, o, ro, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_ImportGraphDefOptions* o3 = TF_NewImportGraphDefOptions();
  TF_ImportGraphDefOptionsSetPrefix(o3, "third");
  TF_ImportGraphDefOptionsAddReturnOutput(o3, "nope", 0);
  TF_GraphImportGraphDefWithReturnOutputs(g, gd, o3, ro, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(num_ops(g) == 18);
  /* Control-dependency remap: "^a" in the GraphDef becomes "^gate". */
  mt_pb_writer w = mt_pb_writer_make();
  put_node(&w, "a", "Const", NULL, NULL, NULL);
  put_node(&w, "n", "NoOp", "^a", NULL, NULL);
  TF_Buffer* cb = take_buffer(&w);
  TF_ImportGraphDefOptions* o4 = TF_NewImportGraphDefOptions();
  TF_ImportGraphDefOptionsSetPrefix(o4, "cr");
  TF_ImportGraphDefOptionsRemapControlDependency(o4, "a", gate);
  TF_GraphImportGraphDef(g, cb, o4, s);
  CHECK_OK(s);
  TF_Operation* nop = TF_GraphOperationByName(g, "cr/n");
  ctl = NULL;
  CHECK(nop && TF_OperationGetControlInputs(nop, &ctl, 1) == 1 && ctl == gate);

  /* Rollback also undoes the edges into existing ops: a failing import
   * that consumed `ten` and depended on `gate` leaves their consumer lists
   * as they were. */
  int ten_consumers = TF_OperationOutputNumConsumers((TF_Output){ten, 0});
  int gate_controls = TF_OperationNumControlOutputs(gate);
  int nops_before = num_ops(g);
  w = mt_pb_writer_make();
  put_node(&w, "x", "AddV2", "a", "a", NULL);
  put_node(&w, "y", "NoOp", NULL, NULL, NULL);
  put_node(&w, "z", "AddV2", "x", NULL, NULL); /* too few inputs */
  TF_Buffer* rb = take_buffer(&w);
  TF_ImportGraphDefOptions* o5 = TF_NewImportGraphDefOptions();
  TF_ImportGraphDefOptionsSetPrefix(o5, "rb");
  TF_ImportGraphDefOptionsAddInputMapping(o5, "a", 0, (TF_Output){ten, 0});
  TF_ImportGraphDefOptionsAddControlDependency(o5, gate);
  TF_GraphImportGraphDef(g, rb, o5, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Node 'z'");
  CHECK(num_ops(g) == nops_before && !TF_GraphOperationByName(g, "rb/x"));
  CHECK(TF_OperationOutputNumConsumers((TF_Output){ten, 0}) == ten_consumers);
  CHECK(TF_OperationNumControlOutputs(gate) == gate_controls);
  TF_DeleteImportGraphDefOptions(o5);
  TF_DeleteBuffer(rb);

  TF_Buffer* e = export_graph(g, s);
  CHECK_OK(s);
  write_file("build/graphdef_test_options.pb", e);
  TF_DeleteBuffer(e);
  TF_DeleteBuffer(cb);
  TF_DeleteImportGraphDefOptions(o4);
  TF_DeleteImportGraphDefOptions(o3);
  TF_DeleteImportGraphDefOptions(o2);
  TF_DeleteImportGraphDefOptions(o);
  TF_DeleteGraph(g);
  TF_DeleteBuffer(gd);
}

/* ------------------------------------------------------------------------ */
/* OpDef / OpList */

/* Finds the OpDef named `name` in an OpList; returns its bytes. */
static int find_op_def(const TF_Buffer* list, const char* name, mt_pb_field* out, TF_Status* s) {
  mt_pb_reader r = mt_pb_reader_make(list->data, list->length, 0), sub;
  mt_pb_field f, g;
  while (mt_pb_next(&r, &f, "OpList", s) > 0) {
    mt_pb_sub(&r, &f, &sub, "OpDef", s);
    while (mt_pb_next(&sub, &g, "OpDef", s) > 0) {
      if (g.num == 1 && g.len == strlen(name) && !memcmp(g.data, name, g.len)) {
        *out = f;
        return 1;
      }
    }
  }
  return 0;
}

static void test_op_defs(TF_Status* s) {
  TF_Buffer* list = TF_GetAllOpList();
  CHECK(list && list->length > 1000);
  if (!list) return;
  mt_pb_field md;
  CHECK(find_op_def(list, "MatMul", &md, s));
  write_file("build/graphdef_test_oplist.pb", list);

  TF_Graph* g = TF_NewGraph();
  TF_Buffer* b = TF_NewBuffer();
  TF_GraphGetOpDef(g, "MatMul", b, s);
  CHECK_OK(s);
  CHECK(b->length == md.len && !memcmp(b->data, md.data, md.len));
  /* input_arg a: T, b: T; attr transpose_a: bool = false; T allowed has float */
  mt_pb_reader r = mt_pb_reader_make(b->data, b->length, 0), sub, vr, lr;
  mt_pb_field f, g2;
  int nin = 0, t_has_float = 0, ta_default_false = 0;
  while (mt_pb_next(&r, &f, "OpDef", s) > 0) {
    if (f.num == 2) {
      mt_pb_sub(&r, &f, &sub, "ArgDef", s);
      char nm[8] = {0}, ta[8] = {0};
      while (mt_pb_next(&sub, &g2, "ArgDef", s) > 0) {
        if (g2.num == 1 && g2.len < 8) memcpy(nm, g2.data, g2.len);
        if (g2.num == 4 && g2.len < 8) memcpy(ta, g2.data, g2.len);
      }
      CHECK(!strcmp(nm, nin == 0 ? "a" : "b") && !strcmp(ta, "T"));
      nin++;
    }
    if (f.num != 4) continue;
    mt_pb_sub(&r, &f, &sub, "AttrDef", s);
    char nm[16] = {0}, ty[16] = {0};
    mt_pb_field dflt = {0}, allowed = {0};
    while (mt_pb_next(&sub, &g2, "AttrDef", s) > 0) {
      if (g2.num == 1 && g2.len < 16) memcpy(nm, g2.data, g2.len);
      if (g2.num == 2 && g2.len < 16) memcpy(ty, g2.data, g2.len);
      if (g2.num == 3) dflt = g2;
      if (g2.num == 7) allowed = g2;
    }
    if (!strcmp(nm, "transpose_a"))
      ta_default_false = !strcmp(ty, "bool") && dflt.len == 2 &&
                         !memcmp(dflt.data, (const uint8_t[]){0x28, 0x00}, 2);
    if (!strcmp(nm, "T") && allowed.len) {
      mt_pb_field lf, tf;
      mt_pb_sub(&sub, &allowed, &vr, "AttrValue", s);
      while (mt_pb_next(&vr, &lf, "AttrValue", s) > 0) {
        if (lf.num != 1) continue;
        mt_pb_sub(&vr, &lf, &lr, "ListValue", s);
        while (mt_pb_next(&lr, &tf, "ListValue", s) > 0) {
          if (tf.num != 6) continue;
          const uint8_t* p = tf.data;
          for (size_t j = 0; tf.wire == MT_PB_LEN && j < tf.len; j++) t_has_float |= p[j] == 1;
        }
      }
    }
  }
  CHECK(nin == 2 && ta_default_false && t_has_float);
  TF_DeleteBuffer(b);
  b = TF_NewBuffer();
  TF_GraphGetOpDef(g, "NoSuchOp", b, s);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "Op type not registered 'NoSuchOp'");
  TF_DeleteBuffer(b);
  TF_DeleteGraph(g);
  TF_DeleteBuffer(list);
}

/* ------------------------------------------------------------------------ */
/* The generated codec's guards and the library's original bytes */

static size_t varint_len(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) v >>= 7, n++;
  return n;
}

/* An AttrValue nesting func -> NameAttrList{name "f", attr {"k": AttrValue ...}} `depth`
 * times around {i: 7}: each level three messages deeper. Written outside-in in one pass
 * (lengths first), so 20,000 levels cost linear time. */
static void put_nested_attr(mt_pb_writer* w, int depth) {
  size_t* size = malloc(sizeof(size_t) * (size_t)(depth + 1));
  size_t* entry = malloc(sizeof(size_t) * (size_t)(depth + 1));
  size_t* func = malloc(sizeof(size_t) * (size_t)(depth + 1));
  size[0] = 2;
  for (int d = 1; d <= depth; d++) {
    entry[d] = 3 + 1 + varint_len(size[d - 1]) + size[d - 1];
    func[d] = 3 + 1 + varint_len(entry[d]) + entry[d];
    size[d] = 1 + varint_len(func[d]) + func[d];
  }
  for (int d = depth; d >= 1; d--) {
    mt_pb_put_tag(w, 10, MT_PB_LEN);
    mt_pb_put_varint(w, func[d]);
    mt_pb_put_raw(w, "\x0a\x01" "f", 3);
    mt_pb_put_tag(w, 2, MT_PB_LEN);
    mt_pb_put_varint(w, entry[d]);
    mt_pb_put_raw(w, "\x0a\x01" "k", 3);
    mt_pb_put_tag(w, 2, MT_PB_LEN);
    mt_pb_put_varint(w, size[d - 1]);
  }
  mt_pb_put_int64_field(w, 3, 7); /* i: 7 */
  free(size);
  free(entry);
  free(func);
}

static void test_nesting_limit(TF_Status* s) {
  TF_Graph* g = TF_NewGraph();
  /* 40 levels (120 messages deep) is beyond protobuf's limit of 100; 30 (90) is within. */
  int depths[2] = {30, 40};
  for (int k = 0; k < 2; k++) {
    mt_pb_writer w = mt_pb_writer_make();
    put_nested_attr(&w, depths[k]);
    TF_Operation* op = noop_with_attr(g, k ? "deep" : "shallow", w.data, w.len, s);
    if (k == 0) {
      CHECK_OK(s);
      CHECK(attr_bytes_are(op, U8(0x52, 0x03, 0x0a, 0x01, 'f'))); /* a func: its name kept */
    } else {
      CHECK(op == NULL);
      CHECK_CODE(s, TF_INVALID_ARGUMENT);
      CHECK(strstr(TF_Message(s), "nested deeper than 100") != NULL);
    }
    mt_pb_writer_free(&w);
  }
  /* 20,000 levels in a GraphDef node's attr: an error, not a stack overflow. */
  mt_pb_writer deep = mt_pb_writer_make(), node = mt_pb_writer_make(), gd = mt_pb_writer_make();
  put_nested_attr(&deep, 20000);
  mt_pb_put_string_field(&node, 1, "n");
  mt_pb_put_string_field(&node, 2, "NoOp");
  put_attr(&node, "_a", deep.data, deep.len);
  mt_pb_writer_free(&deep);
  mt_pb_put_message(&gd, 1, &node);
  TF_Buffer* b = take_buffer(&gd);
  TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
  TF_GraphImportGraphDef(g, b, o, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(strstr(TF_Message(s), "Invalid GraphDef: Malformed GraphDef: messages nested") != NULL);
  TF_DeleteImportGraphDefOptions(o);
  TF_DeleteBuffer(b);
  TF_DeleteGraph(g);
}

/* A FunctionDef (Identity of one float) written the way no serializer of ours would:
 * node_def before the signature, an unknown field (99) in the middle, the arg's
 * attr-less fields in reverse order. */
static void put_odd_function(mt_pb_writer* w, const char* name) {
  mt_pb_writer node = mt_pb_writer_make(), sig = mt_pb_writer_make(), arg = mt_pb_writer_make(),
               out = mt_pb_writer_make(), ret = mt_pb_writer_make();
  mt_pb_put_string_field(&node, 1, "id");
  mt_pb_put_string_field(&node, 2, "Identity");
  mt_pb_put_string_field(&node, 3, "x");
  put_attr(&node, "T", U8(0x30, 0x01));
  mt_pb_put_message(w, 3, &node);
  mt_pb_put_string_field(w, 99, "kept as it came");
  mt_pb_put_int64_field(&arg, 3, TF_FLOAT);
  mt_pb_put_string_field(&arg, 1, "x");
  mt_pb_put_int64_field(&out, 3, TF_FLOAT);
  mt_pb_put_string_field(&out, 1, "y");
  mt_pb_put_string_field(&sig, 1, name);
  mt_pb_put_message(&sig, 2, &arg);
  mt_pb_put_message(&sig, 3, &out);
  mt_pb_put_message(w, 1, &sig);
  mt_pb_put_string_field(&ret, 1, "y");
  mt_pb_put_string_field(&ret, 2, "id:output:0");
  mt_pb_put_message(w, 4, &ret);
}

/* The FunctionDef bytes of every library function in an exported GraphDef. */
static int library_functions(const TF_Buffer* gd, mt_pb_field* out, int cap, TF_Status* s) {
  mt_pb_reader r = mt_pb_reader_make(gd->data, gd->length, 0), lib;
  mt_pb_field f, g;
  int n = 0;
  while (mt_pb_next(&r, &f, "GraphDef", s) > 0) {
    if (f.num != 2) continue;
    lib = mt_pb_reader_make(f.data, f.len, 1);
    while (mt_pb_next(&lib, &g, "FunctionDefLibrary", s) > 0)
      if (g.num == 1 && n < cap) out[n++] = g;
  }
  return n;
}

static void test_library_bytes_kept(TF_Status* s) {
  mt_pb_writer fa = mt_pb_writer_make(), fb = mt_pb_writer_make(), gd = mt_pb_writer_make();
  put_odd_function(&fa, "odd_a");
  put_odd_function(&fb, "odd_b");
  /* two library fields (they merge) around a PartitionedCall of odd_b */
  mt_pb_writer lib1 = mt_pb_writer_make(), lib2 = mt_pb_writer_make(), call = mt_pb_writer_make();
  mt_pb_put_bytes_field(&lib1, 1, fa.data, fa.len);
  mt_pb_put_message(&gd, 2, &lib1);
  put_node(&gd, "c", "Const", NULL, NULL, NULL);
  mt_pb_put_string_field(&call, 1, "call");
  mt_pb_put_string_field(&call, 2, "PartitionedCall");
  mt_pb_put_string_field(&call, 3, "c");
  put_attr(&call, "Tin", U8(0x0a, 0x02, 0x30, 0x01));  /* [float] */
  put_attr(&call, "Tout", U8(0x0a, 0x02, 0x30, 0x01));
  put_attr(&call, "f", U8(0x52, 0x07, 0x0a, 0x05, 'o', 'd', 'd', '_', 'b'));
  mt_pb_put_message(&gd, 1, &call);
  mt_pb_put_bytes_field(&lib2, 1, fb.data, fb.len);
  mt_pb_put_message(&gd, 2, &lib2);
  TF_Buffer* b = take_buffer(&gd);
  TF_Graph* g = TF_NewGraph();
  TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
  TF_GraphImportGraphDef(g, b, o, s);
  CHECK_OK(s);
  CHECK(TF_GraphNumFunctions(g) == 2);
  CHECK(run_scalar(g, out_named(g, "call", 0), s) == 2.0f);
  CHECK_OK(s);
  TF_Buffer* ex = export_graph(g, s);
  mt_pb_field fns[4];
  int n = library_functions(ex, fns, 4, s);
  CHECK(n == 2);
  CHECK(n == 2 && fns[0].len == fa.len && !memcmp(fns[0].data, fa.data, fa.len));
  CHECK(n == 2 && fns[1].len == fb.len && !memcmp(fns[1].data, fb.data, fb.len));
  /* and one FunctionDef through TF_FunctionToFunctionDef */
  TF_Function* got[2];
  CHECK(TF_GraphGetFunctions(g, got, 2, s) == 2);
  TF_Buffer* one = TF_NewBuffer();
  TF_FunctionToFunctionDef(got[0], one, s);
  CHECK_OK(s);
  int same_a = one->length == fa.len && !memcmp(one->data, fa.data, fa.len);
  int same_b = one->length == fb.len && !memcmp(one->data, fb.data, fb.len);
  CHECK(same_a || same_b);
  TF_DeleteBuffer(one);
  TF_DeleteFunction(got[0]);
  TF_DeleteFunction(got[1]);
  TF_DeleteBuffer(ex);
  TF_DeleteImportGraphDefOptions(o);
  TF_DeleteBuffer(b);
  TF_DeleteGraph(g);
  mt_pb_writer_free(&fa);
  mt_pb_writer_free(&fb);
}

int main(void) {
  TF_Status* s = TF_NewStatus();
  test_wire_fields(s);
  test_wire_malformed(s);
  test_wire_repeated(s);
  test_wire_writer(s);
  TF_Graph* g = TF_NewGraph();
  test_attr_scalars(g, s);
  test_attr_lists(g, s);
  test_tensor_proto(g, s);
  TF_DeleteGraph(g);
  test_config(s);
  test_import_seed(s);
  fuzz_flips("tests/fixtures/seed_examples/graph.pb", 300, s);
  fuzz_flips("tests/fixtures/digits_mlp/graph.pb", 100, s);
  mutate_systematic("tests/fixtures/seed_examples/graph.pb", 1 << 20, s); /* every bit */
  mutate_systematic("tests/fixtures/models/tf1_control_flow/graph.pb", 2000, s);
  mutate_systematic("tests/fixtures/models/tf2_control_flow/graph.pb", 2000, s);
  mutate_systematic("tests/fixtures/models/keras_cnn/graph.pb", 1000, s);
  test_import_digits(s);
  test_import_order_and_errors(s);
  test_import_options(s);
  test_op_defs(s);
  test_nesting_limit(s);
  test_library_bytes_kept(s);
  TF_DeleteStatus(s);
  CTEST_END();
}
