/* Array ops through the public C API, checked element by element against
 * loops written here (TensorFlow 2.21 agrees): the strided-gather paths of
 * Transpose/Tile/BroadcastTo/ReverseV2 for every element size and strings,
 * concat/split of strings, Unique, and hostile inputs (overflowing sizes,
 * huge shapes) that must fail cleanly. Run under ASan/UBSan by make
 * asan-ctest. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"
#include "tensorflow/c/c_api.h"

static TF_Status* S;

static TF_Tensor* tensor(TF_DataType dt, const int64_t* dims, int nd, const void* data) {
  int64_t n = 1;
  for (int i = 0; i < nd; i++) n *= dims[i];
  const size_t len = (size_t)n * TF_DataTypeSize(dt);
  TF_Tensor* t = TF_AllocateTensor(dt, dims, nd, len);
  if (len && data) memcpy(TF_TensorData(t), data, len);
  return t;
}

/* Strings "s<i>" (long ones past index 100 to use heap storage). */
static TF_Tensor* strings(const int64_t* dims, int nd) {
  int64_t n = 1;
  for (int i = 0; i < nd; i++) n *= dims[i];
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, dims, nd, (size_t)n * sizeof(TF_TString));
  TF_TString* s = TF_TensorData(t);
  for (int64_t i = 0; i < n; i++) {
    char buf[64];
    snprintf(buf, sizeof buf, i >= 100 ? "a-long-heap-allocated-string-%lld" : "s%lld",
             (long long)i);
    TF_StringInit(&s[i]);
    TF_StringCopy(&s[i], buf, strlen(buf));
  }
  return t;
}

static int str_is(const TF_Tensor* t, int64_t i, const char* want) {
  const TF_TString* s = (const TF_TString*)TF_TensorData(t) + i;
  return TF_StringGetSize(s) == strlen(want) &&
         memcmp(TF_StringGetDataPointer(s), want, strlen(want)) == 0;
}

static TF_Operation* cst(TF_Graph* g, const char* name, TF_Tensor* value) {
  TF_OperationDescription* d = TF_NewOperation(g, "Const", name);
  TF_SetAttrTensor(d, "value", value, S);
  TF_SetAttrType(d, "dtype", TF_TensorType(value));
  TF_DeleteTensor(value);
  return TF_FinishOperation(d, S);
}
#define CI(g, name, dims, nd, ...) cst(g, name, tensor(TF_INT32, dims, nd, (int32_t[]){__VA_ARGS__}))
#define CL(g, name, dims, nd, ...) cst(g, name, tensor(TF_INT64, dims, nd, (int64_t[]){__VA_ARGS__}))
#define D(...) ((int64_t[]){__VA_ARGS__})

static TF_Operation* ph(TF_Graph* g, const char* name, TF_DataType dt) {
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  TF_SetAttrType(d, "dtype", dt);
  return TF_FinishOperation(d, S);
}

static TF_Operation* op2(TF_Graph* g, const char* type, const char* name, TF_Operation* a,
                         TF_Operation* b) {
  TF_OperationDescription* d = TF_NewOperation(g, type, name);
  TF_AddInput(d, (TF_Output){a, 0});
  if (b) TF_AddInput(d, (TF_Output){b, 0});
  return TF_FinishOperation(d, S);
}

/* Runs output `idx` of `fetch`, feeding `feed` (owned) to placeholder fop. */
static TF_Tensor* run(TF_Graph* g, TF_Operation* fetch, int idx, TF_Operation* fop,
                      TF_Tensor* feed) {
  TF_Session* sess = TF_NewSession(g, NULL, S);
  if (TF_GetCode(S) != TF_OK) return NULL;
  TF_Output f = {fetch, idx}, in = {fop, 0};
  TF_Tensor* out = NULL;
  TF_SessionRun(sess, NULL, &in, &feed, fop ? 1 : 0, &f, &out, 1, NULL, 0, NULL, S);
  TF_Status* s2 = TF_NewStatus();
  TF_CloseSession(sess, s2);
  TF_DeleteSession(sess, s2);
  TF_DeleteStatus(s2);
  if (feed) TF_DeleteTensor(feed);
  return out;
}

/* Element i of a tensor as raw bytes compared with element j of another. */
static int elem_eq(const TF_Tensor* a, int64_t i, const TF_Tensor* b, int64_t j) {
  const size_t es = TF_DataTypeSize(TF_TensorType(a));
  if (TF_TensorType(a) == TF_STRING) {
    const TF_TString* x = (const TF_TString*)TF_TensorData(a) + i;
    const TF_TString* y = (const TF_TString*)TF_TensorData(b) + j;
    return TF_StringGetSize(x) == TF_StringGetSize(y) &&
           memcmp(TF_StringGetDataPointer(x), TF_StringGetDataPointer(y), TF_StringGetSize(x)) ==
               0;
  }
  return memcmp((const char*)TF_TensorData(a) + i * es, (const char*)TF_TensorData(b) + j * es,
                es) == 0;
}

/* Bytes 0, 1, 2, ... for a numeric tensor of n elements of dt. */
static TF_Tensor* counting(TF_DataType dt, const int64_t* dims, int nd) {
  if (dt == TF_STRING) return strings(dims, nd);
  TF_Tensor* t = tensor(dt, dims, nd, NULL);
  unsigned char* p = TF_TensorData(t);
  for (size_t k = 0; k < TF_TensorByteSize(t); k++) p[k] = (unsigned char)(k * 7 + 1);
  return t;
}

/* Transposes of a 3-D tensor for each element size: every output element
 * checked against the index arithmetic. */
static void test_transpose_all_sizes(void) {
  const TF_DataType types[] = {TF_UINT8, TF_HALF, TF_FLOAT, TF_DOUBLE, TF_COMPLEX128, TF_STRING};
  const int perms[][3] = {{0, 2, 1}, {2, 0, 1}, {1, 2, 0}, {2, 1, 0}, {1, 0, 2}};
  const int64_t dims[3] = {3, 37, 45}; /* past the 32x32 tile, ragged edges */
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
    for (size_t p = 0; p < sizeof perms / sizeof perms[0]; p++) {
      TF_Graph* g = TF_NewGraph();
      TF_Tensor* x = counting(types[t], dims, 3);
      TF_Tensor* keep = counting(types[t], dims, 3);
      TF_Operation* xo = cst(g, "x", x);
      TF_Operation* po = CI(g, "p", D(3), 1, perms[p][0], perms[p][1], perms[p][2]);
      TF_Operation* tr = op2(g, "Transpose", "t", xo, po);
      CHECK_OK(S);
      TF_Tensor* out = run(g, tr, 0, NULL, NULL);
      CHECK_OK(S);
      int ok = out != NULL;
      int64_t od[3] = {dims[perms[p][0]], dims[perms[p][1]], dims[perms[p][2]]};
      int64_t idx[3];
      for (idx[0] = 0; ok && idx[0] < od[0]; idx[0]++)
        for (idx[1] = 0; ok && idx[1] < od[1]; idx[1]++)
          for (idx[2] = 0; ok && idx[2] < od[2]; idx[2]++) {
            int64_t in[3];
            for (int k = 0; k < 3; k++) in[perms[p][k]] = idx[k];
            ok = elem_eq(out, (idx[0] * od[1] + idx[1]) * od[2] + idx[2], keep,
                         (in[0] * dims[1] + in[1]) * dims[2] + in[2]);
          }
      if (!ok) fprintf(stderr, "  transpose dtype %d perm %zu\n", (int)types[t], p);
      CHECK(ok);
      TF_DeleteTensor(out);
      TF_DeleteTensor(keep);
      TF_DeleteGraph(g);
    }
  }
}

/* Tile and ReverseV2 of strings, Split and ConcatV2 round trip. */
static void test_strings_move(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = cst(g, "x", strings(D(2, 60), 2)); /* s0..s99 short, then long */
  TF_Operation* tile = op2(g, "Tile", "tile", x, CI(g, "m", D(2), 1, 2, 1));
  TF_Operation* rev = op2(g, "ReverseV2", "rev", x, CI(g, "ax", D(1), 1, -1));
  CHECK_OK(S);
  TF_Tensor* t = run(g, tile, 0, NULL, NULL);
  CHECK(t && TF_Dim(t, 0) == 4 && str_is(t, 0, "s0") && str_is(t, 120, "s0") &&
        str_is(t, 239, "a-long-heap-allocated-string-119"));
  TF_DeleteTensor(t);
  t = run(g, rev, 0, NULL, NULL);
  CHECK(t && str_is(t, 0, "s59") && str_is(t, 60, "a-long-heap-allocated-string-119") &&
        str_is(t, 119, "s60"));
  TF_DeleteTensor(t);
  /* Split(axis 1, 3 ways) then ConcatV2 back. */
  TF_OperationDescription* d = TF_NewOperation(g, "Split", "split");
  TF_AddInput(d, (TF_Output){CI(g, "sd", D(0), 0, 1), 0});
  TF_AddInput(d, (TF_Output){x, 0});
  TF_SetAttrInt(d, "num_split", 3);
  TF_Operation* split = TF_FinishOperation(d, S);
  CHECK_OK(S);
  d = TF_NewOperation(g, "ConcatV2", "concat");
  TF_Output parts[3] = {{split, 0}, {split, 1}, {split, 2}};
  TF_AddInputList(d, parts, 3);
  TF_AddInput(d, (TF_Output){CI(g, "cax", D(0), 0, -1), 0});
  TF_Operation* concat = TF_FinishOperation(d, S);
  CHECK_OK(S);
  t = run(g, split, 2, NULL, NULL);
  CHECK(t && TF_Dim(t, 1) == 20 && str_is(t, 0, "s40") &&
        str_is(t, 39, "a-long-heap-allocated-string-119"));
  TF_DeleteTensor(t);
  t = run(g, concat, 0, NULL, NULL);
  int ok = t && TF_TensorElementCount(t) == 120;
  TF_Tensor* want = strings(D(2, 60), 2);
  for (int64_t i = 0; ok && i < 120; i++) ok = elem_eq(t, i, want, i);
  CHECK(ok);
  TF_DeleteTensor(want);
  TF_DeleteTensor(t);
  TF_DeleteGraph(g);
}

/* Unique keeps first occurrences; strings past the small-string size. */
static void test_unique_strings(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Tensor* x = strings(D(250), 1);
  TF_TString* s = TF_TensorData(x);
  for (int i = 0; i < 250; i++) { /* values repeat every 5 */
    const char* v[5] = {"a", "bb", "a-very-long-string-beyond-small-storage", "", "bb2"};
    TF_StringCopy(&s[i], v[i % 5], strlen(v[i % 5]));
  }
  TF_Operation* u = op2(g, "Unique", "u", cst(g, "x", x), NULL);
  CHECK_OK(S);
  TF_Tensor* y = run(g, u, 0, NULL, NULL);
  CHECK(y && TF_TensorElementCount(y) == 5 && str_is(y, 2, "a-very-long-string-beyond-small-storage") &&
        str_is(y, 3, ""));
  TF_DeleteTensor(y);
  TF_Tensor* idx = run(g, u, 1, NULL, NULL);
  int ok = idx && TF_TensorType(idx) == TF_INT32;
  for (int i = 0; ok && i < 250; i++) ok = ((int32_t*)TF_TensorData(idx))[i] == i % 5;
  CHECK(ok);
  TF_DeleteTensor(idx);
  TF_DeleteGraph(g);
}

/* Sizes that wrap around when added, shapes too large to allocate, and
 * overflowing tiles fail with a status; nothing is read out of bounds. */
static void test_hostile_inputs(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = cst(g, "x", counting(TF_FLOAT, D(2, 4), 2));
  TF_Operation* sizes = ph(g, "sizes", TF_INT64);
  TF_OperationDescription* d = TF_NewOperation(g, "SplitV", "splitv");
  TF_AddInput(d, (TF_Output){x, 0});
  TF_AddInput(d, (TF_Output){sizes, 0});
  TF_AddInput(d, (TF_Output){CI(g, "dim", D(0), 0, 1), 0});
  TF_SetAttrInt(d, "num_split", 3);
  TF_Operation* sv = TF_FinishOperation(d, S);
  CHECK_OK(S);
  TF_Tensor* feed = tensor(TF_INT64, D(3), 1, (int64_t[]){INT64_MAX, INT64_MAX, 6});
  TF_Tensor* t = run(g, sv, 0, sizes, feed);
  CHECK(t == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  TF_SetStatus(S, TF_OK, "");

  TF_Operation* dims = ph(g, "dims", TF_INT64);
  TF_Operation* fill = op2(g, "Fill", "fill", dims, cst(g, "v", counting(TF_FLOAT, D(0), 0)));
  CHECK_OK(S);
  t = run(g, fill, 0, dims, tensor(TF_INT64, D(2), 1, (int64_t[]){1LL << 40, 1LL << 40}));
  CHECK(t == NULL && TF_GetCode(S) != TF_OK);
  TF_SetStatus(S, TF_OK, "");

  TF_Operation* mult = ph(g, "mult", TF_INT64);
  TF_Operation* tile = op2(g, "Tile", "tile", x, mult);
  CHECK_OK(S);
  t = run(g, tile, 0, mult, tensor(TF_INT64, D(2), 1, (int64_t[]){INT64_MAX / 2, 3}));
  CHECK(t == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  TF_SetStatus(S, TF_OK, "");

  TF_Operation* lim = ph(g, "lim", TF_INT64);
  TF_OperationDescription* rd = TF_NewOperation(g, "Range", "range");
  TF_AddInput(rd, (TF_Output){CL(g, "start", D(0), 0, INT64_MIN), 0});
  TF_AddInput(rd, (TF_Output){lim, 0});
  TF_AddInput(rd, (TF_Output){CL(g, "delta", D(0), 0, 1), 0});
  TF_SetAttrType(rd, "Tidx", TF_INT64);
  TF_Operation* range = TF_FinishOperation(rd, S);
  CHECK_OK(S);
  t = run(g, range, 0, lim, tensor(TF_INT64, D(0), 0, (int64_t[]){INT64_MAX}));
  CHECK(t == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "Requires ((limit - start) / delta) <= 9223372036854775807");
  TF_SetStatus(S, TF_OK, "");

  TF_Operation* ax = ph(g, "ax", TF_INT32);
  TF_Operation* rev = op2(g, "ReverseV2", "rev", x, ax);
  CHECK_OK(S);
  int32_t many[40];
  for (int i = 0; i < 40; i++) many[i] = i % 2;
  t = run(g, rev, 0, ax, tensor(TF_INT32, D(40), 1, many));
  CHECK(t == NULL);
  CHECK_STR_CONTAINS(TF_Message(S), "axis 0 specified more than once.");
  TF_SetStatus(S, TF_OK, "");
  TF_DeleteGraph(g);
}

/* Assert's message: nested brackets and "..." as TensorFlow's
 * SummarizeValue, strings C-escaped. */
static void test_assert_message(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* c = cst(g, "c", tensor(TF_BOOL, D(0), 0, (unsigned char[]){0}));
  TF_Operation* m = cst(g, "m", counting(TF_INT32, D(2, 2, 2), 3));
  TF_Operation* s = cst(g, "s", strings(D(1), 1));
  TF_OperationDescription* d = TF_NewOperation(g, "Assert", "assert");
  TF_AddInput(d, (TF_Output){c, 0});
  TF_Output data[2] = {{m, 0}, {s, 0}};
  TF_AddInputList(d, data, 2);
  TF_SetAttrInt(d, "summarize", 5);
  TF_Operation* a = TF_FinishOperation(d, S);
  CHECK_OK(S);
  TF_Session* sess = TF_NewSession(g, NULL, S);
  const TF_Operation* targets[1] = {a};
  TF_SessionRun(sess, NULL, NULL, NULL, 0, NULL, NULL, 0, targets, 1, NULL, S);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  /* counting() bytes as int32: element k = bytes 28k+1, 28k+8, 28k+15, 28k+22 */
  char want[256];
  int32_t e[5];
  TF_Tensor* ref = counting(TF_INT32, D(5), 1);
  memcpy(e, TF_TensorData(ref), sizeof e);
  TF_DeleteTensor(ref);
  snprintf(want, sizeof want, "assertion failed: [[[%d %d][%d %d]][[%d...]]...] [s0]", e[0],
           e[1], e[2], e[3], e[4]);
  CHECK_STR_CONTAINS(TF_Message(S), want);
  if (!strstr(TF_Message(S), want)) fprintf(stderr, "  got: %s\n  want: %s\n", TF_Message(S), want);
  TF_Status* s2 = TF_NewStatus();
  TF_CloseSession(sess, s2);
  TF_DeleteSession(sess, s2);
  TF_DeleteStatus(s2);
  TF_DeleteGraph(g);
}

int main(void) {
  S = TF_NewStatus();
  test_transpose_all_sizes();
  test_strings_move();
  test_unique_strings();
  test_hostile_inputs();
  test_assert_message();
  TF_DeleteStatus(S);
  CTEST_END();
}
