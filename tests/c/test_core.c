/* Core C API: status, buffers, tensors, TF_TString, graph construction and
 * validation, the executor (pruning, feeds cutting the graph, plan reuse)
 * and session lifetime. Values worked by hand. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"
#include "tensorflow/c/c_api.h"

static TF_Tensor* scalar_f(float v) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, NULL, 0, sizeof(float));
  *(float*)TF_TensorData(t) = v;
  return t;
}

static TF_Operation* constant(TF_Graph* g, const char* name, TF_Tensor* value, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "Const", name);
  TF_SetAttrTensor(d, "value", value, s);
  TF_SetAttrType(d, "dtype", TF_TensorType(value));
  TF_DeleteTensor(value);
  return TF_FinishOperation(d, s);
}

static TF_Operation* placeholder(TF_Graph* g, const char* name, TF_DataType dt, const int64_t* dims,
                                 int ndims, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  TF_SetAttrType(d, "dtype", dt);
  if (ndims >= 0) TF_SetAttrShape(d, "shape", dims, ndims);
  return TF_FinishOperation(d, s);
}

static TF_Operation* binary(TF_Graph* g, const char* type, const char* name, TF_Operation* a,
                            TF_Operation* b, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, type, name);
  TF_AddInput(d, (TF_Output){a, 0});
  TF_AddInput(d, (TF_Output){b, 0});
  return TF_FinishOperation(d, s);
}

static void test_status_and_buffers(void) {
  TF_Status* s = TF_NewStatus();
  CHECK(TF_GetCode(s) == TF_OK);
  CHECK(strcmp(TF_Message(s), "") == 0);
  TF_SetStatus(s, TF_NOT_FOUND, "missing thing");
  CHECK(TF_GetCode(s) == TF_NOT_FOUND);
  CHECK(strcmp(TF_Message(s), "missing thing") == 0);
  TF_SetStatus(s, TF_OK, "ignored");
  CHECK(strcmp(TF_Message(s), "") == 0);
  TF_DeleteStatus(s);
  CHECK(TF_INVALID_ARGUMENT == 3 && TF_UNAUTHENTICATED == 16 && TF_DATA_LOSS == 15);

  TF_Buffer* b = TF_NewBufferFromString("abc\0d", 5);
  CHECK(b->length == 5 && memcmp(b->data, "abc\0d", 5) == 0);
  TF_Buffer copy = TF_GetBuffer(b);
  CHECK(copy.data == b->data && copy.length == 5);
  TF_DeleteBuffer(b);
  TF_Buffer* empty = TF_NewBuffer();
  CHECK(empty->data == NULL && empty->length == 0);
  TF_DeleteBuffer(empty);
}

static int dealloc_calls;
static void count_dealloc(void* data, size_t len, void* arg) {
  dealloc_calls++;
  CHECK(arg == (void*)0x1234);
}

static void test_tensors(void) {
  CHECK(TF_DataTypeSize(TF_FLOAT) == 4 && TF_DataTypeSize(TF_DOUBLE) == 8);
  CHECK(TF_DataTypeSize(TF_BOOL) == 1 && TF_DataTypeSize(TF_INT64) == 8);
  CHECK(TF_DataTypeSize(TF_STRING) == 24 && TF_DataTypeSize(TF_RESOURCE) == 0);
  int64_t dims[2] = {2, 3};
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, dims, 2, 24);
  CHECK(t != NULL);
  CHECK(TF_TensorType(t) == TF_INT32 && TF_NumDims(t) == 2 && TF_Dim(t, 1) == 3);
  CHECK(TF_TensorByteSize(t) == 24 && TF_TensorElementCount(t) == 6);
  CHECK(TF_TensorIsAligned(t));
  TF_DeleteTensor(t);
  CHECK(TF_AllocateTensor(TF_INT32, dims, 2, 20) == NULL); /* len must match */

  static float data[6] = {1, 2, 3, 4, 5, 6};
  dealloc_calls = 0;
  t = TF_NewTensor(TF_FLOAT, dims, 2, data, sizeof(data), count_dealloc, (void*)0x1234);
  CHECK(TF_TensorData(t) == data);
  TF_DeleteTensor(t);
  CHECK(dealloc_calls == 1);
  /* too short a buffer: refused, deallocator still called once */
  int64_t big[1] = {100};
  t = TF_NewTensor(TF_FLOAT, big, 1, data, sizeof(data), count_dealloc, (void*)0x1234);
  CHECK(t == NULL && dealloc_calls == 2);
  int64_t neg[1] = {-2};
  CHECK(TF_AllocateTensor(TF_FLOAT, neg, 1, 0) == NULL);
}

static void test_tstring(void) {
  TF_TString s;
  TF_StringInit(&s);
  CHECK(TF_StringGetSize(&s) == 0 && TF_StringGetType(&s) == TF_TSTR_SMALL);
  TF_StringCopy(&s, "hi\0there", 8);
  CHECK(TF_StringGetSize(&s) == 8 && memcmp(TF_StringGetDataPointer(&s), "hi\0there", 8) == 0);
  const char* longer = "a string that is longer than twenty-two bytes";
  TF_StringCopy(&s, longer, strlen(longer));
  CHECK(TF_StringGetType(&s) == TF_TSTR_LARGE);
  CHECK(TF_StringGetSize(&s) == strlen(longer));
  CHECK(memcmp(TF_StringGetDataPointer(&s), longer, strlen(longer)) == 0);
  TF_StringDealloc(&s);
  CHECK(TF_StringGetSize(&s) == 0);
  TF_StringAssignView(&s, longer, 4);
  CHECK(TF_StringGetType(&s) == TF_TSTR_VIEW && TF_StringGetDataPointer(&s) == longer);
  TF_StringDealloc(&s);
}

static void test_graph_building(void) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* a = constant(g, "a", scalar_f(3.0f), s);
  CHECK_OK(s);
  TF_Operation* b = constant(g, "b", scalar_f(4.0f), s);
  TF_Operation* add = binary(g, "AddV2", "add", a, b, s);
  CHECK_OK(s);
  CHECK(strcmp(TF_OperationName(add), "add") == 0);
  CHECK(strcmp(TF_OperationOpType(add), "AddV2") == 0);
  CHECK(TF_OperationNumInputs(add) == 2 && TF_OperationNumOutputs(add) == 1);
  CHECK(TF_OperationOutputType((TF_Output){add, 0}) == TF_FLOAT);
  TF_Output in1 = TF_OperationInput((TF_Input){add, 1});
  CHECK(in1.oper == b && in1.index == 0);
  CHECK(TF_OperationOutputNumConsumers((TF_Output){a, 0}) == 1);
  TF_Input cons[2];
  CHECK(TF_OperationOutputConsumers((TF_Output){a, 0}, cons, 2) == 1 && cons[0].oper == add);
  CHECK(TF_GraphGetTensorNumDims(g, (TF_Output){add, 0}, s) == 0);
  TF_DataType T = 0;
  TF_OperationGetAttrType(add, "T", &T, s);
  CHECK_OK(s);
  CHECK(T == TF_FLOAT);
  CHECK(TF_GraphOperationByName(g, "add") == add);
  CHECK(TF_GraphOperationByName(g, "nope") == NULL);
  size_t pos = 0;
  int n = 0;
  while (TF_GraphNextOperation(g, &pos)) n++;
  CHECK(n == 3);

  /* control inputs */
  TF_OperationDescription* d = TF_NewOperation(g, "NoOp", "init");
  TF_AddControlInput(d, add);
  TF_AddControlInput(d, add); /* duplicates collapse */
  TF_Operation* init = TF_FinishOperation(d, s);
  CHECK_OK(s);
  CHECK(TF_OperationNumControlInputs(init) == 1);
  TF_Operation* ctrl[2];
  CHECK(TF_OperationGetControlInputs(init, ctrl, 2) == 1 && ctrl[0] == add);
  CHECK(TF_OperationNumControlOutputs(add) == 1);

  /* errors: duplicate name, unknown op, bad name, wrong input count, type clash */
  constant(g, "a", scalar_f(1.0f), s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Duplicate node name in graph: 'a'");
  d = TF_NewOperation(g, "NoSuchOp", "x");
  TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "Op type not registered 'NoSuchOp'");
  d = TF_NewOperation(g, "NoOp", "_bad");
  TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  d = TF_NewOperation(g, "AddV2", "add1");
  TF_AddInput(d, (TF_Output){a, 0});
  TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "add1");
  int64_t one = 7;
  TF_Tensor* it = TF_AllocateTensor(TF_INT32, NULL, 0, 4);
  *(int32_t*)TF_TensorData(it) = (int32_t)one;
  TF_Operation* i7 = constant(g, "i7", it, s);
  CHECK_OK(s);
  binary(g, "AddV2", "mixed", a, i7, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "mixed");
  /* attr of the wrong kind, attr value not allowed */
  d = TF_NewOperation(g, "Placeholder", "p_bad");
  TF_SetAttrInt(d, "dtype", 1);
  TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  d = TF_NewOperation(g, "MatMul", "mm_bool");
  TF_Tensor* bt = TF_AllocateTensor(TF_BOOL, NULL, 0, 1);
  TF_Operation* bc = constant(g, "bc", bt, s);
  TF_AddInput(d, (TF_Output){bc, 0});
  TF_AddInput(d, (TF_Output){bc, 0});
  TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "not in the list of allowed values");
  /* a failed op leaves no trace */
  CHECK(TF_GraphOperationByName(g, "mm_bool") == NULL);

  /* static shapes: placeholder [?,3], refine with SetTensorShape */
  int64_t pdims[2] = {-1, 3};
  TF_Operation* p = placeholder(g, "p", TF_FLOAT, pdims, 2, s);
  CHECK_OK(s);
  int64_t got[2];
  TF_GraphGetTensorShape(g, (TF_Output){p, 0}, got, 2, s);
  CHECK(got[0] == -1 && got[1] == 3);
  int64_t refine[2] = {5, -1};
  TF_GraphSetTensorShape(g, (TF_Output){p, 0}, refine, 2, s);
  CHECK_OK(s);
  TF_GraphGetTensorShape(g, (TF_Output){p, 0}, got, 2, s);
  CHECK(got[0] == 5 && got[1] == 3);
  int64_t clash[2] = {5, 4};
  TF_GraphSetTensorShape(g, (TF_Output){p, 0}, clash, 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

static void test_sessions(void) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = placeholder(g, "x", TF_FLOAT, NULL, -1, s);
  TF_Operation* one = constant(g, "one", scalar_f(1.0f), s);
  TF_Operation* y = binary(g, "AddV2", "y", x, one, s);
  TF_Operation* z = binary(g, "Mul", "z", y, y, s);
  CHECK_OK(s);
  TF_Session* sess = TF_NewSession(g, NULL, s);
  CHECK_OK(s);
  /* fetch z with x fed, twice (second run reuses the cached plan) */
  for (int k = 0; k < 2; k++) {
    TF_Tensor* xv = scalar_f(2.0f + (float)k);
    TF_Output feed = {x, 0}, fetch = {z, 0};
    TF_Tensor* out = NULL;
    TF_SessionRun(sess, NULL, &feed, &xv, 1, &fetch, &out, 1, NULL, 0, NULL, s);
    CHECK_OK(s);
    CHECK(out && *(float*)TF_TensorData(out) == (3.0f + k) * (3.0f + k));
    TF_DeleteTensor(out);
    TF_DeleteTensor(xv);
  }
  /* feeding y cuts the graph: x need not be fed */
  TF_Tensor* yv = scalar_f(5.0f);
  TF_Output feed = {y, 0}, fetch = {z, 0};
  TF_Tensor* out = NULL;
  TF_SessionRun(sess, NULL, &feed, &yv, 1, &fetch, &out, 1, NULL, 0, NULL, s);
  CHECK_OK(s);
  CHECK(out && *(float*)TF_TensorData(out) == 25.0f);
  TF_DeleteTensor(out);
  /* fetching a fed tensor returns the fed value */
  TF_SessionRun(sess, NULL, &feed, &yv, 1, &feed, &out, 1, NULL, 0, NULL, s);
  CHECK_OK(s);
  CHECK(out && *(float*)TF_TensorData(out) == 5.0f);
  TF_DeleteTensor(out);
  /* unfed placeholder: InvalidArgument naming x; session still usable */
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &fetch, &out, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "You must feed a value for placeholder tensor 'x'");
  CHECK(out == NULL);
  /* wrong feed dtype */
  TF_Tensor* iv = TF_AllocateTensor(TF_INT32, NULL, 0, 4);
  *(int32_t*)TF_TensorData(iv) = 1;
  TF_Output xf = {x, 0};
  TF_SessionRun(sess, NULL, &xf, &iv, 1, &fetch, &out, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteTensor(iv);
  /* duplicate feed */
  TF_Output two[2] = {{y, 0}, {y, 0}};
  TF_Tensor* vals[2] = {yv, yv};
  TF_SessionRun(sess, NULL, two, vals, 2, &fetch, &out, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* still usable */
  TF_SessionRun(sess, NULL, &feed, &yv, 1, &fetch, &out, 1, NULL, 0, NULL, s);
  CHECK_OK(s);
  CHECK(out && *(float*)TF_TensorData(out) == 25.0f);
  TF_DeleteTensor(out);
  TF_DeleteTensor(yv);
  /* graph deleted before the session: stays alive until the session goes */
  TF_DeleteGraph(g);
  TF_CloseSession(sess, s);
  CHECK_OK(s);
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &fetch, &out, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  TF_DeleteSession(sess, s);
  CHECK_OK(s);
  TF_DeleteStatus(s);
}

/* The construction-time shape error reads exactly as TensorFlow 2.21's
 * (checked with tf.compat.v1: placeholder [2] + constant [1., 2., 3.]). */
static void test_shape_error_message(void) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  int64_t two = 2, three = 3;
  TF_Operation* p = placeholder(g, "Placeholder", TF_FLOAT, &two, 1, s);
  TF_Tensor* v = TF_AllocateTensor(TF_FLOAT, &three, 1, 3 * sizeof(float));
  float* d = TF_TensorData(v);
  d[0] = 1, d[1] = 2, d[2] = 3;
  TF_Operation* c = constant(g, "Const", v, s);
  CHECK_OK(s);
  binary(g, "AddV2", "add", p, c, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(strcmp(TF_Message(s),
               "Dimensions must be equal, but are 2 and 3 for '{{node add}} = "
               "AddV2[T=DT_FLOAT](Placeholder, Const)' with input shapes: [2], [3].") == 0);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

static TF_Operation* unary(TF_Graph* g, const char* type, const char* name, TF_Operation* a,
                           TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, type, name);
  TF_AddInput(d, (TF_Output){a, 0});
  return TF_FinishOperation(d, s);
}

/* Shape functions see constants computed from constant expressions: a
 * Reshape whose shape is Identity(Const) or Const + Const has a static
 * shape, as in TensorFlow; a placeholder in the expression stops it. */
static void test_constant_folding_for_shapes(void) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  int64_t six = 6, two = 2;
  TF_Operation* x = placeholder(g, "x", TF_FLOAT, &six, 1, s);
  TF_Tensor* sv = TF_AllocateTensor(TF_INT32, &two, 1, 8);
  ((int32_t*)TF_TensorData(sv))[0] = 1;
  ((int32_t*)TF_TensorData(sv))[1] = 1;
  TF_Operation* base = constant(g, "base", sv, s);
  TF_Tensor* dv = TF_AllocateTensor(TF_INT32, &two, 1, 8);
  ((int32_t*)TF_TensorData(dv))[0] = 1;
  ((int32_t*)TF_TensorData(dv))[1] = 2;
  TF_Operation* delta = constant(g, "delta", dv, s);
  TF_Operation* shape = binary(g, "AddV2", "shape", base, delta, s); /* [2, 3] */
  TF_Operation* ident = unary(g, "Identity", "ident", shape, s);
  CHECK_OK(s);
  TF_Operation* r = binary(g, "Reshape", "r", x, ident, s);
  CHECK_OK(s);
  int64_t dims[2] = {0, 0};
  CHECK(TF_GraphGetTensorNumDims(g, (TF_Output){r, 0}, s) == 2);
  TF_GraphGetTensorShape(g, (TF_Output){r, 0}, dims, 2, s);
  CHECK(dims[0] == 2 && dims[1] == 3);
  /* an incompatible folded shape is caught at construction */
  TF_Operation* bad = binary(g, "AddV2", "bad", shape, shape, s); /* [4, 6] */
  binary(g, "Reshape", "r2", x, bad, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* a fed placeholder in the expression: not a constant, shape unknown */
  TF_Operation* p = placeholder(g, "p", TF_INT32, &two, 1, s);
  TF_Operation* dyn = binary(g, "AddV2", "dyn", shape, p, s);
  TF_Operation* r3 = binary(g, "Reshape", "r3", x, dyn, s);
  CHECK_OK(s);
  CHECK(TF_GraphGetTensorNumDims(g, (TF_Output){r3, 0}, s) == 2);
  TF_GraphGetTensorShape(g, (TF_Output){r3, 0}, dims, 2, s);
  CHECK(dims[0] == -1 && dims[1] == -1);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

static void test_session_options(void) {
  TF_Status* s = TF_NewStatus();
  TF_SessionOptions* o = TF_NewSessionOptions();
  TF_SetTarget(o, "grpc://elsewhere:2222");
  TF_Graph* g = TF_NewGraph();
  TF_Session* sess = TF_NewSession(g, o, s);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  CHECK(sess == NULL);
  TF_DeleteSessionOptions(o);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

int main(void) {
  test_status_and_buffers();
  test_tensors();
  test_tstring();
  test_graph_building();
  test_sessions();
  test_shape_error_message();
  test_constant_folding_for_shapes();
  test_session_options();
  CTEST_END();
}
