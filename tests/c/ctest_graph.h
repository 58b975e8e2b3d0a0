/* Graph-building helpers shared by the C kernel tests: tensors from
 * literals, Const/Placeholder/op nodes, and a one-shot session run. Every
 * helper reports through the file-wide status S (defined here, one per test
 * program). */
#ifndef MINITF_TESTS_CTEST_GRAPH_H_
#define MINITF_TESTS_CTEST_GRAPH_H_

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

static TF_Tensor* strings(const int64_t* dims, int nd, const char* const* v) {
  int64_t n = 1;
  for (int i = 0; i < nd; i++) n *= dims[i];
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, dims, nd, (size_t)n * sizeof(TF_TString));
  TF_TString* s = TF_TensorData(t);
  for (int64_t i = 0; i < n; i++) {
    TF_StringInit(&s[i]);
    TF_StringCopy(&s[i], v[i], strlen(v[i]));
  }
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
#define CF(g, name, dims, nd, ...) cst(g, name, tensor(TF_FLOAT, dims, nd, (float[]){__VA_ARGS__}))
#define CD(g, name, dims, nd, ...) cst(g, name, tensor(TF_DOUBLE, dims, nd, (double[]){__VA_ARGS__}))
#define CI(g, name, dims, nd, ...) cst(g, name, tensor(TF_INT32, dims, nd, (int32_t[]){__VA_ARGS__}))
#define CL(g, name, dims, nd, ...) cst(g, name, tensor(TF_INT64, dims, nd, (int64_t[]){__VA_ARGS__}))
#define D(...) ((int64_t[]){__VA_ARGS__})

static TF_Operation* ph(TF_Graph* g, const char* name, TF_DataType dt, const int64_t* dims,
                        int nd) {
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  TF_SetAttrType(d, "dtype", dt);
  if (nd >= 0) TF_SetAttrShape(d, "shape", dims, nd);
  return TF_FinishOperation(d, S);
}

static TF_OperationDescription* desc(TF_Graph* g, const char* type, const char* name,
                                     TF_Operation* a, TF_Operation* b) {
  TF_OperationDescription* d = TF_NewOperation(g, type, name);
  if (a) TF_AddInput(d, (TF_Output){a, 0});
  if (b) TF_AddInput(d, (TF_Output){b, 0});
  return d;
}
static TF_Operation* op2(TF_Graph* g, const char* type, const char* name, TF_Operation* a,
                         TF_Operation* b) {
  return TF_FinishOperation(desc(g, type, name, a, b), S);
}
static TF_Operation* op1(TF_Graph* g, const char* type, const char* name, TF_Operation* a) {
  return op2(g, type, name, a, NULL);
}

/* Runs a fresh session; returns the fetched tensor (caller deletes) or NULL
 * with S set. */
static TF_Tensor* run_feeds(TF_Graph* g, TF_Operation* fetch, int nfeeds, TF_Operation** fops,
                            TF_Tensor** fvals) {
  TF_Session* sess = TF_NewSession(g, NULL, S);
  if (TF_GetCode(S) != TF_OK) return NULL;
  TF_Output feeds[4];
  for (int i = 0; i < nfeeds; i++) feeds[i] = (TF_Output){fops[i], 0};
  TF_Output f = {fetch, 0};
  TF_Tensor* out = NULL;
  TF_SessionRun(sess, NULL, feeds, fvals, nfeeds, &f, &out, 1, NULL, 0, NULL, S);
  TF_Status* s2 = TF_NewStatus();
  TF_CloseSession(sess, s2);
  TF_DeleteSession(sess, s2);
  TF_DeleteStatus(s2);
  for (int i = 0; i < nfeeds; i++) TF_DeleteTensor(fvals[i]);
  return out;
}
static TF_Tensor* run(TF_Graph* g, TF_Operation* fetch) { return run_feeds(g, fetch, 0, NULL, NULL); }

static int shape_is(const TF_Tensor* t, int nd, const int64_t* dims) {
  if (!t || TF_NumDims(t) != nd) return 0;
  for (int i = 0; i < nd; i++)
    if (TF_Dim(t, i) != dims[i]) return 0;
  return 1;
}
static int static_shape_is(TF_Graph* g, TF_Operation* op, int nd, const int64_t* dims) {
  TF_Status* s = TF_NewStatus();
  int64_t got[8];
  const int n = TF_GraphGetTensorNumDims(g, (TF_Output){op, 0}, s);
  int ok = n == nd;
  if (ok && nd > 0) {
    TF_GraphGetTensorShape(g, (TF_Output){op, 0}, got, nd, s);
    for (int i = 0; i < nd; i++) ok = ok && got[i] == dims[i];
  }
  ok = ok && TF_GetCode(s) == TF_OK;
  TF_DeleteStatus(s);
  return ok;
}
static int floats_are(const TF_Tensor* t, int n, const float* want, double tol) {
  if (!t || TF_TensorType(t) != TF_FLOAT || TF_TensorElementCount(t) != n) return 0;
  const float* v = TF_TensorData(t);
  for (int i = 0; i < n; i++) {
    if (isnan(want[i]) ? !isnan(v[i]) : fabs(v[i] - want[i]) > tol) {
      fprintf(stderr, "  element %d: got %.9g want %.9g\n", i, v[i], want[i]);
      return 0;
    }
  }
  return 1;
}
#define FLOATS(t, tol, ...) \
  floats_are(t, (int)(sizeof((float[]){__VA_ARGS__}) / sizeof(float)), (float[]){__VA_ARGS__}, tol)
#define INTS_ARE(t, DT, CT, ...)                                                          \
  ((t) && TF_TensorType(t) == DT &&                                                       \
   TF_TensorElementCount(t) == (int64_t)(sizeof((CT[]){__VA_ARGS__}) / sizeof(CT)) &&     \
   memcmp(TF_TensorData(t), (CT[]){__VA_ARGS__}, sizeof((CT[]){__VA_ARGS__})) == 0)

#endif
