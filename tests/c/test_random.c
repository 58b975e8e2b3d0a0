/* Random ops through the C API: a node's stream advances across runs of one
 * session and restarts in a new session (TensorFlow's per-kernel
 * GuardedPhiloxRandom); string shuffles own their bytes; errors. Expected
 * numbers are TensorFlow 2.21's for the same seeds (see
 * tests/fixtures/random_program). */
#include <stdint.h>

#include "ctest.h"
#include "tensorflow/c/c_api.h"

static TF_Status* S;

static TF_Operation* shape_const(TF_Graph* g, const char* name, const int32_t* v, int n) {
  const int64_t dims[1] = {n};
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, dims, 1, sizeof(int32_t) * (size_t)n);
  memcpy(TF_TensorData(t), v, sizeof(int32_t) * (size_t)n);
  TF_OperationDescription* d = TF_NewOperation(g, "Const", name);
  TF_SetAttrTensor(d, "value", t, S);
  TF_SetAttrType(d, "dtype", TF_INT32);
  TF_Operation* op = TF_FinishOperation(d, S);
  TF_DeleteTensor(t);
  return op;
}

static TF_Tensor* run_once(TF_Session* sess, TF_Operation* op) {
  TF_Output out = {op, 0};
  TF_Tensor* val = NULL;
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &out, &val, 1, NULL, 0, NULL, S);
  return val;
}

static void test_stream_advances_per_session_and_node(void) {
  TF_Graph* g = TF_NewGraph();
  const int32_t dims[2] = {2, 3};
  TF_Operation* shape = shape_const(g, "shape", dims, 2);
  TF_OperationDescription* d = TF_NewOperation(g, "RandomUniform", "u");
  TF_AddInput(d, (TF_Output){shape, 0});
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_SetAttrInt(d, "seed", 1);
  TF_SetAttrInt(d, "seed2", 0);
  TF_Operation* u = TF_FinishOperation(d, S);
  CHECK_OK(S);
  /* tf.set_random_seed(1); tf.random.uniform([2, 3]) in TensorFlow. */
  const float run1[6] = {0.812696457f, 0.0785746574f, 0.891685486f,
                         0.169255137f, 0.0631135702f, 0.545310736f};
  const float run2[6] = {0.22804296f, 0.292503953f, 0.263346672f,
                         0.504946947f, 0.273818374f, 0.769265294f};
  for (int session = 0; session < 2; session++) {
    TF_SessionOptions* opts = TF_NewSessionOptions();
    TF_Session* sess = TF_NewSession(g, opts, S);
    TF_DeleteSessionOptions(opts);
    CHECK_OK(S);
    for (int r = 0; r < 2; r++) {
      TF_Tensor* v = run_once(sess, u);
      CHECK_OK(S);
      if (v) CHECK(memcmp(TF_TensorData(v), r ? run2 : run1, sizeof run1) == 0);
      if (v) TF_DeleteTensor(v);
    }
    TF_CloseSession(sess, S);
    TF_DeleteSession(sess, S);
  }
  TF_DeleteGraph(g);
}

static int str_is(const TF_TString* t, const char* want) {
  return TF_StringGetSize(t) == strlen(want) &&
         memcmp(TF_StringGetDataPointer(t), want, strlen(want)) == 0;
}

static void test_string_shuffle(void) {
  TF_Graph* g = TF_NewGraph();
  const char* words[6] = {"a", "bb", "", "a string longer than the inline buffer of a tstring",
                          "e", "another long string, to be moved and freed exactly once"};
  const int64_t dims[2] = {3, 2};
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, dims, 2, sizeof(TF_TString) * 6);
  TF_TString* s = TF_TensorData(t);
  for (int k = 0; k < 6; k++) {
    TF_StringInit(&s[k]);
    TF_StringCopy(&s[k], words[k], strlen(words[k]));
  }
  TF_OperationDescription* d = TF_NewOperation(g, "Const", "v");
  TF_SetAttrTensor(d, "value", t, S);
  TF_SetAttrType(d, "dtype", TF_STRING);
  TF_Operation* v = TF_FinishOperation(d, S);
  TF_DeleteTensor(t);
  d = TF_NewOperation(g, "RandomShuffle", "shuffle");
  TF_AddInput(d, (TF_Output){v, 0});
  TF_SetAttrInt(d, "seed", 3);
  TF_SetAttrInt(d, "seed2", 3);
  TF_Operation* sh = TF_FinishOperation(d, S);
  CHECK_OK(S);
  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_Session* sess = TF_NewSession(g, opts, S);
  TF_DeleteSessionOptions(opts);
  for (int r = 0; r < 3; r++) {
    TF_Tensor* out = run_once(sess, sh);
    CHECK_OK(S);
    if (!out) continue;
    /* Rows stay whole: each output row is one of the input rows. */
    const TF_TString* o = TF_TensorData(out);
    int seen = 0;
    for (int row = 0; row < 3; row++)
      for (int src = 0; src < 3; src++)
        if (str_is(&o[2 * row], words[2 * src]) && str_is(&o[2 * row + 1], words[2 * src + 1]))
          seen |= 1 << src;
    CHECK(seen == 7);
    TF_DeleteTensor(out);
  }
  TF_CloseSession(sess, S);
  TF_DeleteSession(sess, S);
  TF_DeleteGraph(g);
}

static void test_errors(void) {
  TF_Graph* g = TF_NewGraph();
  const int32_t bad[2] = {2, -3};
  TF_Operation* shape = shape_const(g, "shape", bad, 2);
  TF_OperationDescription* d = TF_NewOperation(g, "TruncatedNormal", "t");
  TF_AddInput(d, (TF_Output){shape, 0});
  TF_SetAttrType(d, "dtype", TF_DOUBLE);
  TF_FinishOperation(d, S);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "Invalid value in tensor used for shape: -3");
  TF_DeleteGraph(g);
}

int main(void) {
  S = TF_NewStatus();
  test_stream_advances_per_session_and_node();
  test_string_shuffle();
  test_errors();
  TF_DeleteStatus(S);
  CTEST_END();
}
