/* Indexing and space kernels through the public C API, mostly for the
 * sanitizer build: string deep copies (no leaks, no double frees), huge
 * requested sizes (clean errors, no allocation), out-of-range indices.
 * Values worked by hand; TensorFlow 2.21 gives the same. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"
#include "tensorflow/c/c_api.h"

#include "ctest_graph.h"

/* An op over inputs ins[0..n) (output 0 of each). */
static TF_OperationDescription* opn(TF_Graph* g, const char* type, const char* name,
                                    TF_Operation** ins, int n) {
  TF_OperationDescription* d = TF_NewOperation(g, type, name);
  for (int i = 0; i < n; i++) TF_AddInput(d, (TF_Output){ins[i], 0});
  return d;
}

static int strings_are(const TF_Tensor* t, int n, const char* const* want) {
  if (!t || TF_TensorType(t) != TF_STRING || TF_TensorElementCount(t) != n) return 0;
  const TF_TString* s = TF_TensorData(t);
  for (int i = 0; i < n; i++) {
    if (TF_StringGetSize(&s[i]) != strlen(want[i]) ||
        memcmp(TF_StringGetDataPointer(&s[i]), want[i], strlen(want[i])) != 0)
      return 0;
  }
  return 1;
}

static const char* const kWords[] = {"a", "a string longer than the small-string buffer", "c",
                                     "dd", "another rather long string to force a heap copy",
                                     "f"};

static void test_strings(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = cst(g, "x", strings(D(2, 3), 2, kWords));
  /* x[::-1, ::2] */
  TF_Operation* ins[4] = {x, CI(g, "b", D(2), 1, 0, 0), CI(g, "e", D(2), 1, 0, 0),
                          CI(g, "s", D(2), 1, -1, 2)};
  TF_OperationDescription* d = opn(g, "StridedSlice", "ss", ins, 4);
  TF_SetAttrInt(d, "begin_mask", 3);
  TF_SetAttrInt(d, "end_mask", 3);
  TF_Operation* ss = TF_FinishOperation(d, S);
  CHECK_OK(S);
  TF_Tensor* t = run(g, ss);
  CHECK_OK(S);
  CHECK(strings_are(t, 4, (const char* const[]){kWords[3], kWords[5], kWords[0], kWords[2]}));
  TF_DeleteTensor(t);

  TF_Operation* gins[3] = {x, CI(g, "i", D(3), 1, 1, 1, 0), CI(g, "ax", D(), 0, 1)};
  TF_Operation* ga = TF_FinishOperation(opn(g, "GatherV2", "ga", gins, 3), S);
  t = run(g, ga);
  CHECK_OK(S);
  CHECK(strings_are(t, 6, (const char* const[]){kWords[1], kWords[1], kWords[0], kWords[4],
                                                kWords[4], kWords[3]}));
  TF_DeleteTensor(t);

  TF_Operation* mins[2] = {x, CI(g, "p", D(2, 2), 2, 1, 0, 0, 1)};
  d = opn(g, "MirrorPad", "mp", mins, 2);
  TF_SetAttrString(d, "mode", "SYMMETRIC", 9);
  TF_Operation* mp = TF_FinishOperation(d, S);
  t = run(g, mp);
  CHECK_OK(S);
  CHECK(strings_are(t, 12, (const char* const[]){kWords[0], kWords[1], kWords[2], kWords[2],
                                                 kWords[0], kWords[1], kWords[2], kWords[2],
                                                 kWords[3], kWords[4], kWords[5], kWords[5]}));
  TF_DeleteTensor(t);

  TF_Operation* pins[3] = {x, CI(g, "p2", D(2, 2), 2, 0, 0, 1, 0),
                           cst(g, "cv", strings(D(), 0, (const char* const[]){kWords[4]}))};
  TF_Operation* pv = TF_FinishOperation(opn(g, "PadV2", "pv", pins, 3), S);
  t = run(g, pv);
  CHECK_OK(S);
  CHECK(strings_are(t, 8, (const char* const[]){kWords[4], kWords[0], kWords[1], kWords[2],
                                                kWords[4], kWords[3], kWords[4], kWords[5]}));
  TF_DeleteTensor(t);

  TF_Operation* oins[4] = {CL(g, "oi", D(2), 1, 1, 9), CI(g, "dp", D(), 0, 2),
                           cst(g, "on", strings(D(), 0, (const char* const[]){kWords[1]})),
                           cst(g, "off", strings(D(), 0, (const char* const[]){""}))};
  TF_Operation* oh = TF_FinishOperation(opn(g, "OneHot", "oh", oins, 4), S);
  t = run(g, oh);
  CHECK_OK(S);
  CHECK(strings_are(t, 4, (const char* const[]){"", kWords[1], "", ""}));
  TF_DeleteTensor(t);
  TF_DeleteGraph(g);
}

static void test_huge_sizes(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = CI(g, "x", D(2), 1, 1, 2);
  /* constant paddings near INT64_MAX: the shape function rejects the sum */
  TF_Operation* ins[2] = {x, CL(g, "p", D(1, 2), 2, INT64_MAX - 1, 5)};
  TF_Operation* pad = TF_FinishOperation(opn(g, "Pad", "pad", ins, 2), S);
  CHECK(pad == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "Dimension size overflow");
  TF_SetStatus(S, TF_OK, "");
  TF_Tensor* t = NULL;
  /* a large but representable size: resource exhausted, not an OOM kill */
  TF_Operation* ins2[2] = {x, CL(g, "p2", D(1, 2), 2, (int64_t)1 << 50, 0)};
  TF_Operation* pad2 = TF_FinishOperation(opn(g, "Pad", "pad2", ins2, 2), S);
  t = run(g, pad2);
  CHECK(t == NULL);
  CHECK_CODE(S, TF_RESOURCE_EXHAUSTED);
  CHECK_STR_CONTAINS(TF_Message(S), "pad2");
  TF_SetStatus(S, TF_OK, "");
  /* OneHot with a huge depth: 9 * 2e9 int64 elements exceed the allocation limit */
  TF_Operation* oins[4] = {CL(g, "oi", D(3, 3), 2, 1, 2, 3, 4, 5, 6, 7, 8, 9),
                           CI(g, "dp", D(), 0, 2000000000), CL(g, "on", D(), 0, 1),
                           CL(g, "off", D(), 0, 0)};
  TF_Operation* oh = TF_FinishOperation(opn(g, "OneHot", "oh", oins, 4), S);
  CHECK_OK(S);
  t = run(g, oh);
  CHECK(t == NULL);
  CHECK_CODE(S, TF_RESOURCE_EXHAUSTED);
  TF_SetStatus(S, TF_OK, "");
  TF_DeleteGraph(g);
}

static void test_indices(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* p = CI(g, "p", D(2, 2), 2, 1, 2, 3, 4);
  TF_Operation* ins[2] = {p, CL(g, "i", D(2, 2), 2, 1, 1, 0, INT64_MIN)};
  TF_Operation* gn = TF_FinishOperation(opn(g, "GatherNd", "gn", ins, 2), S);
  CHECK_OK(S);
  TF_Tensor* t = run(g, gn);
  CHECK(t == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "indices[1] = [0, -9223372036854775808] does not index into "
                                    "param shape [2,2]");
  TF_SetStatus(S, TF_OK, "");
  /* duplicates sum and wrap like int32 arithmetic */
  TF_Operation* sins[3] = {CI(g, "si", D(2, 1), 2, 1, 1), CI(g, "su", D(2), 1, INT32_MAX, 2),
                           CI(g, "sh", D(1), 1, 3)};
  TF_Operation* sc = TF_FinishOperation(opn(g, "ScatterNd", "sc", sins, 3), S);
  CHECK_OK(S);
  t = run(g, sc);
  CHECK_OK(S);
  CHECK(t && TF_TensorElementCount(t) == 3 &&
        memcmp(TF_TensorData(t), (int32_t[]){0, INT32_MIN + 1, 0}, 12) == 0);
  TF_DeleteTensor(t);
  /* Where over 3-D int64 */
  TF_Operation* w = TF_FinishOperation(
      opn(g, "Where", "w", (TF_Operation*[]){CL(g, "wc", D(1, 2, 2), 3, 0, 5, 0, -1)}, 1), S);
  t = run(g, w);
  CHECK_OK(S);
  CHECK(t && TF_NumDims(t) == 2 && TF_Dim(t, 0) == 2 && TF_Dim(t, 1) == 3 &&
        memcmp(TF_TensorData(t), (int64_t[]){0, 0, 1, 0, 1, 1}, 48) == 0);
  TF_DeleteTensor(t);
  TF_DeleteGraph(g);
}

int main(void) {
  S = TF_NewStatus();
  test_strings();
  test_huge_sizes();
  test_indices();
  TF_DeleteStatus(S);
  CTEST_END();
}
