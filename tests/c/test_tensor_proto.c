/* TF_TensorFromProto / TF_TensorToProto (tensorflow/c/tensor_proto.h)
 * against TensorProtos written by real TensorFlow 2.21
 * (tests/fixtures/tensor_proto, tools/gen_tensor_proto_fixtures.py):
 * every dtype as tf.make_tensor_proto and tf.io.serialize_tensor write it,
 * scalars, empty tensors, strings with NULs, typed fields shorter than the
 * shape; then our encodings (typed field, tensor_content, make_tensor_proto
 * layout) byte-compared with TensorFlow's and decoded back; bad input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/tensor_proto.h"

#define DIR "tests/fixtures/tensor_proto/"

typedef struct dtype_case {
  const char* name;
  TF_DataType dt;
} dtype_case;

static const dtype_case kTypes[] = {
    {"float32", TF_FLOAT},   {"float64", TF_DOUBLE},     {"float16", TF_HALF},
    {"bfloat16", TF_BFLOAT16}, {"int8", TF_INT8},        {"int16", TF_INT16},
    {"int32", TF_INT32},     {"int64", TF_INT64},        {"uint8", TF_UINT8},
    {"uint16", TF_UINT16},   {"uint32", TF_UINT32},      {"uint64", TF_UINT64},
    {"bool", TF_BOOL},       {"complex64", TF_COMPLEX64}, {"complex128", TF_COMPLEX128},
};

static TF_Buffer* read_buffer(const char* path) {
  size_t len = 0;
  char* data = ctest_read_file(path, &len);
  if (!data) {
    fprintf(stderr, "cannot read %s\n", path);
    return NULL;
  }
  TF_Buffer* b = TF_NewBufferFromString(data, len);
  free(data);
  return b;
}

static TF_Tensor* decode_file(const char* path, TF_Status* s) {
  TF_Buffer* b = read_buffer(path);
  TF_Tensor* t = NULL;
  if (b) TF_TensorFromProto(b, &t, s);
  TF_DeleteBuffer(b);
  return t;
}

/* The raw data of a version-1 .npy file (header skipped); *len set. */
static char* npy_data(const char* path, size_t* len, char** whole) {
  size_t n = 0;
  char* f = ctest_read_file(path, &n);
  *whole = f;
  if (!f || n < 10) return NULL;
  size_t hlen = (unsigned char)f[8] | ((size_t)(unsigned char)f[9] << 8);
  *len = n - 10 - hlen;
  return f + 10 + hlen;
}

/* Tensor bytes equal the .npy's values. */
static int same_as_npy(const TF_Tensor* t, const char* npy) {
  size_t len = 0;
  char* whole = NULL;
  char* d = npy_data(npy, &len, &whole);
  int ok = d && len == TF_TensorByteSize(t) && (len == 0 || !memcmp(d, TF_TensorData(t), len));
  free(whole);
  return ok;
}

/* a and b hold the same dtype, shape and bytes (strings compared by value). */
static int same_tensor(const TF_Tensor* a, const TF_Tensor* b) {
  if (!a || !b || TF_TensorType(a) != TF_TensorType(b) || TF_NumDims(a) != TF_NumDims(b))
    return 0;
  for (int i = 0; i < TF_NumDims(a); i++)
    if (TF_Dim(a, i) != TF_Dim(b, i)) return 0;
  if (TF_TensorType(a) != TF_STRING)
    return TF_TensorByteSize(a) == TF_TensorByteSize(b) &&
           !memcmp(TF_TensorData(a), TF_TensorData(b), TF_TensorByteSize(a));
  const TF_TString* x = TF_TensorData(a);
  const TF_TString* y = TF_TensorData(b);
  for (int64_t k = 0; k < TF_TensorElementCount(a); k++)
    if (TF_StringGetSize(&x[k]) != TF_StringGetSize(&y[k]) ||
        memcmp(TF_StringGetDataPointer(&x[k]), TF_StringGetDataPointer(&y[k]),
               TF_StringGetSize(&x[k])))
      return 0;
  return 1;
}

/* Encodes t with `mode` and decodes it again: same tensor back. */
static void check_round_trip(const TF_Tensor* t, int mode, TF_Status* s) {
  TF_Buffer* b = TF_NewBuffer();
  TF_TensorToProto(t, b, mode, s);
  CHECK_OK(s);
  TF_Tensor* back = NULL;
  TF_TensorFromProto(b, &back, s);
  CHECK_OK(s);
  CHECK(same_tensor(t, back));
  TF_DeleteTensor(back);
  TF_DeleteBuffer(b);
}

/* Our make_tensor_proto layout writes the very bytes TensorFlow wrote. */
static void check_same_bytes_as_tf(const TF_Tensor* t, const char* path, TF_Status* s) {
  size_t len = 0;
  char* want = ctest_read_file(path, &len);
  TF_Buffer* b = TF_NewBuffer();
  TF_TensorToProto(t, b, -1, s);
  CHECK_OK(s);
  int same = want && b->length == len && !memcmp(b->data, want, len);
  if (!same) fprintf(stderr, "bytes differ from TensorFlow's for %s\n", path);
  CHECK(same);
  free(want);
  TF_DeleteBuffer(b);
}

static void test_numeric_fixtures(TF_Status* s) {
  static const char* kForms[] = {"make_%s_2x3", "make_%s_scalar", "make_%s_empty",
                                 "content_%s_2x3"};
  char name[128], pb[256], npy[256];
  for (size_t i = 0; i < sizeof kTypes / sizeof kTypes[0]; i++) {
    for (size_t f = 0; f < 4; f++) {
      snprintf(name, sizeof name, kForms[f], kTypes[i].name);
      snprintf(pb, sizeof pb, DIR "%s.pb", name);
      snprintf(npy, sizeof npy, DIR "%s.npy", name);
      TF_Tensor* t = decode_file(pb, s);
      CHECK_OK(s);
      if (!t) continue;
      CHECK(TF_TensorType(t) == kTypes[i].dt);
      CHECK(TF_NumDims(t) == (f == 1 ? 0 : 2));
      int values_ok = same_as_npy(t, npy);
      if (!values_ok) fprintf(stderr, "values differ for %s\n", name);
      CHECK(values_ok);
      if (f < 3) check_same_bytes_as_tf(t, pb, s);
      check_round_trip(t, 0, s);
      check_round_trip(t, 1, s);
      TF_DeleteTensor(t);
    }
  }
}

static void test_short_fields(TF_Status* s) {
  static const char* kShort[] = {"short_float32", "short_int32",     "short_int64",
                                 "short_bool",    "short_float16",   "short_complex64",
                                 "short_uint8",   "empty_field_float32"};
  char pb[256], npy[256];
  for (size_t i = 0; i < sizeof kShort / sizeof kShort[0]; i++) {
    snprintf(pb, sizeof pb, DIR "%s.pb", kShort[i]);
    snprintf(npy, sizeof npy, DIR "%s.npy", kShort[i]);
    TF_Tensor* t = decode_file(pb, s);
    CHECK_OK(s);
    CHECK(t && same_as_npy(t, npy));
    TF_DeleteTensor(t);
  }
  /* By hand: int_val [7] over shape [4] -> 7 7 7 7. */
  TF_Tensor* t = decode_file(DIR "short_int32.pb", s);
  CHECK(t && TF_Dim(t, 0) == 4 && ((int32_t*)TF_TensorData(t))[3] == 7);
  TF_DeleteTensor(t);
}

static int str_is(const TF_TString* e, const char* want, size_t len) {
  return TF_StringGetSize(e) == len && !memcmp(TF_StringGetDataPointer(e), want, len);
}

static void test_strings(TF_Status* s) {
  static const char* kFiles[] = {DIR "make_string_2x3.pb", DIR "content_string_2x3.pb"};
  for (int i = 0; i < 2; i++) {
    TF_Tensor* t = decode_file(kFiles[i], s);
    CHECK_OK(s);
    if (!t) continue;
    const TF_TString* e = TF_TensorData(t);
    CHECK(TF_TensorType(t) == TF_STRING && TF_TensorElementCount(t) == 6);
    CHECK(str_is(&e[0], "", 0));
    CHECK(str_is(&e[1], "a\0b", 3));
    CHECK(str_is(&e[2], "hello", 5));
    CHECK(str_is(&e[3], "\xff\xfe", 2));
    CHECK(TF_StringGetSize(&e[4]) == 200);
    CHECK(str_is(&e[5], "\0", 1));
    check_round_trip(t, 0, s);
    check_round_trip(t, 1, s);
    if (i == 0) check_same_bytes_as_tf(t, kFiles[i], s);
    TF_DeleteTensor(t);
  }
  TF_Tensor* t = decode_file(DIR "short_string.pb", s); /* "a", "b\0c" over [4] */
  CHECK_OK(s);
  if (t) {
    const TF_TString* e = TF_TensorData(t);
    CHECK(str_is(&e[0], "a", 1) && str_is(&e[1], "b\0c", 3) && str_is(&e[3], "b\0c", 3));
  }
  TF_DeleteTensor(t);
  t = decode_file(DIR "make_string_scalar.pb", s);
  CHECK(t && TF_NumDims(t) == 0 && str_is(TF_TensorData(t), "a\0b", 3));
  if (t) check_same_bytes_as_tf(t, DIR "make_string_scalar.pb", s);
  TF_DeleteTensor(t);
  t = decode_file(DIR "make_string_empty.pb", s);
  CHECK(t && TF_TensorElementCount(t) == 0 && TF_Dim(t, 1) == 3);
  TF_DeleteTensor(t);
}

static void test_bad_input(TF_Status* s) {
  TF_Tensor* t = (TF_Tensor*)1;
  /* dtype float, shape [3], tensor_content of 8 bytes (want 12). */
  static const uint8_t kShortContent[] = {0x08, 0x01, 0x12, 0x04, 0x12, 0x02, 0x08, 0x03,
                                          0x22, 0x08, 0, 0, 0, 0, 0, 0, 0, 0};
  TF_Buffer b = {kShortContent, sizeof kShortContent, NULL};
  TF_TensorFromProto(&b, &t, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(t == NULL);
  CHECK_STR_CONTAINS(TF_Message(s), "tensor_content has 8 bytes");
  /* dtype resource (20). */
  static const uint8_t kResource[] = {0x08, 0x14, 0x12, 0x00};
  TF_Buffer r = {kResource, sizeof kResource, NULL};
  TF_TensorFromProto(&r, &t, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* Truncated: the shape claims 4 bytes, 1 follows. */
  static const uint8_t kTrunc[] = {0x08, 0x01, 0x12, 0x04, 0x12};
  TF_Buffer tr = {kTrunc, sizeof kTrunc, NULL};
  TF_TensorFromProto(&tr, &t, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* One float_val over a shape of 2^40 elements: refused, not allocated. */
  static const uint8_t kHuge[] = {0x08, 0x01, 0x12, 0x09, 0x12, 0x07, 0x08, 0x80,
                                  0x80, 0x80, 0x80, 0x80, 0x20, 0x2d, 0, 0, 0x80, 0x3f};
  TF_Buffer h = {kHuge, sizeof kHuge, NULL};
  TF_TensorFromProto(&h, &t, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(t == NULL);
  TF_Buffer* out = TF_NewBuffer();
  TF_TensorToProto(NULL, out, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(out->length == 0);
  TF_DeleteBuffer(out);
}

int main(void) {
  TF_Status* s = TF_NewStatus();
  test_numeric_fixtures(s);
  test_short_fields(s);
  test_strings(s);
  test_bad_input(s);
  TF_DeleteStatus(s);
  CTEST_END();
}
