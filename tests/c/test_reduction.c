/* Reduction and linalg kernels through the public C API, for what the golden fixtures cannot
 * reach: bfloat16 (Python cannot feed it yet) and run-time shape checks behind unknown static
 * shapes. Expected values were checked against TensorFlow 2.21. */
#include <math.h>
#include <stdint.h>
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
  if (len) memcpy(TF_TensorData(t), data, len);
  return t;
}

/* Takes ownership of value. */
static TF_Operation* cst(TF_Graph* g, const char* name, TF_Tensor* value) {
  TF_OperationDescription* d = TF_NewOperation(g, "Const", name);
  TF_SetAttrTensor(d, "value", value, S);
  TF_SetAttrType(d, "dtype", TF_TensorType(value));
  TF_DeleteTensor(value);
  return TF_FinishOperation(d, S);
}
#define D(...) ((int64_t[]){__VA_ARGS__})
#define CB(g, name, dims, nd, ...) \
  cst(g, name, tensor(TF_BFLOAT16, dims, nd, (uint16_t[]){__VA_ARGS__}))
#define CI(g, name, dims, nd, ...) cst(g, name, tensor(TF_INT32, dims, nd, (int32_t[]){__VA_ARGS__}))

static TF_Operation* ph(TF_Graph* g, const char* name, TF_DataType dt) {
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  TF_SetAttrType(d, "dtype", dt);
  return TF_FinishOperation(d, S);
}

static TF_Operation* op2(TF_Graph* g, const char* type, const char* name, TF_Operation* a,
                         TF_Operation* b) {
  TF_OperationDescription* d = TF_NewOperation(g, type, name);
  TF_AddInput(d, (TF_Output){a, 0});
  TF_AddInput(d, (TF_Output){b, 0});
  return TF_FinishOperation(d, S);
}

/* Runs a fresh session feeding up to 2 placeholders; returns the fetched
 * tensor (caller deletes) or NULL with S set. Takes the fed values. */
static TF_Tensor* run(TF_Graph* g, TF_Operation* fetch, int nf, TF_Operation** fops,
                      TF_Tensor** fvals) {
  TF_Session* sess = TF_NewSession(g, NULL, S);
  TF_Output feeds[2];
  for (int i = 0; i < nf; i++) feeds[i] = (TF_Output){fops[i], 0};
  TF_Output f = {fetch, 0};
  TF_Tensor* out = NULL;
  TF_SessionRun(sess, NULL, feeds, fvals, nf, &f, &out, 1, NULL, 0, NULL, S);
  TF_Status* s2 = TF_NewStatus();
  TF_CloseSession(sess, s2);
  TF_DeleteSession(sess, s2);
  TF_DeleteStatus(s2);
  for (int i = 0; i < nf; i++) TF_DeleteTensor(fvals[i]);
  return out;
}

static int bits_are(const TF_Tensor* t, int n, const uint16_t* want) {
  if (!t || TF_TensorType(t) != TF_BFLOAT16 || TF_TensorElementCount(t) != n) return 0;
  return memcmp(TF_TensorData(t), want, (size_t)n * 2) == 0;
}
#define BITS(t, ...) \
  bits_are(t, (int)(sizeof((uint16_t[]){__VA_ARGS__}) / 2), (uint16_t[]){__VA_ARGS__})

/* bfloat16 bits: 1 = 0x3F80, 2^-8 = 0x3B80, 1 + 2^-6 = 0x3F82, 0.203125 = 0x3E50. */
static void test_bfloat16(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = CB(g, "x", D(5), 1, 0x3F80, 0x3B80, 0x3B80, 0x3B80, 0x3B80);
  TF_Operation* ax = CI(g, "ax", D(1), 1, 0);
  TF_Operation* a0 = CI(g, "a0", NULL, 0, 0);
  /* Sum and Mean accumulate bfloat16 in float; the scan rounds every step. */
  TF_Tensor* t = run(g, op2(g, "Sum", "sum", x, ax), 0, NULL, NULL);
  CHECK_OK(S);
  CHECK(BITS(t, 0x3F82));
  TF_DeleteTensor(t);
  t = run(g, op2(g, "Mean", "mean", x, ax), 0, NULL, NULL);
  CHECK(BITS(t, 0x3E50));
  TF_DeleteTensor(t);
  t = run(g, op2(g, "Cumsum", "cumsum", x, a0), 0, NULL, NULL);
  CHECK(BITS(t, 0x3F80, 0x3F80, 0x3F80, 0x3F80, 0x3F80));
  TF_DeleteTensor(t);
  /* Max propagates NaN; ArgMin takes the first minimum. 1.5 -2 3 NaN / 3 -1 -1 2 */
  TF_Operation* y = CB(g, "y", D(4), 1, 0x3FC0, 0xC000, 0x4040, 0x7FC0);
  t = run(g, op2(g, "Max", "max", y, ax), 0, NULL, NULL);
  CHECK(t && TF_TensorType(t) == TF_BFLOAT16 && (((uint16_t*)TF_TensorData(t))[0] & 0x7FFF) > 0x7F80);
  TF_DeleteTensor(t);
  TF_Operation* z = CB(g, "z", D(4), 1, 0x4040, 0xBF80, 0xBF80, 0x4000);
  t = run(g, op2(g, "ArgMin", "argmin", z, a0), 0, NULL, NULL);
  CHECK(t && TF_TensorType(t) == TF_INT64 && ((int64_t*)TF_TensorData(t))[0] == 1);
  TF_DeleteTensor(t);
  /* BatchMatMulV3 bfloat16 x int8 -> bfloat16: [1.5 2] . [2 3] = 9 (0x4110) */
  TF_Operation* p = CB(g, "p", D(1, 1, 2), 3, 0x3FC0, 0x4000);
  TF_Operation* q = cst(g, "q", tensor(TF_INT8, D(1, 2, 1), 3, (int8_t[]){2, 3}));
  TF_OperationDescription* d = TF_NewOperation(g, "BatchMatMulV3", "v3");
  TF_AddInput(d, (TF_Output){p, 0});
  TF_AddInput(d, (TF_Output){q, 0});
  TF_SetAttrType(d, "Tout", TF_BFLOAT16);
  TF_Operation* v3 = TF_FinishOperation(d, S);
  CHECK_OK(S);
  t = run(g, v3, 0, NULL, NULL);
  CHECK(BITS(t, 0x4110));
  TF_DeleteTensor(t);
  TF_DeleteGraph(g);
}

/* Shapes the static check could not see fail at run time, naming the node. */
static void test_runtime_shape_errors(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* a = ph(g, "a", TF_FLOAT);
  TF_Operation* b = ph(g, "b", TF_FLOAT);
  TF_Operation* ops[] = {op2(g, "BatchMatMul", "v1", a, b), op2(g, "BatchMatMulV2", "v2", a, b)};
  CHECK_OK(S);
  CHECK(TF_GraphGetTensorNumDims(g, (TF_Output){ops[1], 0}, S) == -1);
  const float ones[24] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  struct {
    int op;
    int64_t ad[3], bd[3];
    int an, bn;
    const char* msg;
  } cases[] = {
      {0, {2, 3, 4}, {4, 2}, 3, 2, "In[0] and In[1] has different ndims: [2,3,4] vs. [4,2]"},
      {0, {2, 2, 3}, {3, 3, 2}, 3, 3, "In[0].dim(0) and In[1].dim(0) must be the same"},
      {1, {2, 3, 4}, {3, 4, 2}, 3, 3,
       "In[0] and In[1] must have compatible batch dimensions: [2,3,4] vs. [3,4,2]"},
      {1, {2, 3, 4}, {2, 3, 4}, 3, 3, "Matrix size-incompatible: In[0]: [2,3,4], In[1]: [2,3,4]"},
      {1, {4}, {4, 1}, 1, 2, "In[0] ndims must be >= 2: 1"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    TF_Operation* f[] = {a, b};
    TF_Tensor* v[] = {tensor(TF_FLOAT, cases[i].ad, cases[i].an, ones),
                      tensor(TF_FLOAT, cases[i].bd, cases[i].bn, ones)};
    TF_Tensor* t = run(g, ops[cases[i].op], 2, f, v);
    CHECK(t == NULL);
    CHECK_CODE(S, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(S), cases[i].msg);
    CHECK_STR_CONTAINS(TF_Message(S), cases[i].op ? "v2" : "v1");
  }
  /* Einsum over unknown ranks: static shape from the labels, checks at run time. */
  TF_OperationDescription* d = TF_NewOperation(g, "Einsum", "es");
  TF_Output in[] = {{a, 0}, {b, 0}};
  TF_AddInputList(d, in, 2);
  TF_SetAttrString(d, "equation", "ij,jk->ki", 9);
  TF_Operation* es = TF_FinishOperation(d, S);
  CHECK_OK(S);
  CHECK(TF_GraphGetTensorNumDims(g, (TF_Output){es, 0}, S) == 2);
  TF_Operation* f[] = {a, b};
  TF_Tensor* v[] = {tensor(TF_FLOAT, D(1, 2), 2, (float[]){1, 2}),
                    tensor(TF_FLOAT, D(2, 3), 2, (float[]){1, 2, 3, 4, 5, 6})};
  TF_Tensor* t = run(g, es, 2, f, v);
  CHECK_OK(S);
  CHECK(t && TF_NumDims(t) == 2 && TF_Dim(t, 0) == 3 && TF_Dim(t, 1) == 1);
  if (t) CHECK(memcmp(TF_TensorData(t), (float[]){9, 12, 15}, 12) == 0);
  TF_DeleteTensor(t);
  TF_Tensor* v2[] = {tensor(TF_FLOAT, D(1, 2), 2, (float[]){1, 2}),
                     tensor(TF_FLOAT, D(3, 3), 2, ones)};
  t = run(g, es, 2, f, v2);
  CHECK(t == NULL);
  CHECK_STR_CONTAINS(TF_Message(S), "Dimensions must be equal, but are 2 and 3");
  TF_DeleteGraph(g);
}

int main(void) {
  S = TF_NewStatus();
  test_bfloat16();
  test_runtime_shape_errors();
  TF_DeleteStatus(S);
  CTEST_END();
}
