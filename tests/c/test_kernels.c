/* Kernels through the public C API: tiny graphs, values worked by hand
 * (TensorFlow 2.21 agrees on each; see the comments for its behaviour). */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"
#include "tensorflow/c/c_api.h"

#include "ctest_graph.h"

/* ---- tests ---- */

static void test_broadcasting(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* a = CF(g, "a", D(2, 3), 2, 1, 2, 3, 4, 5, 6);
  TF_Operation* b = CF(g, "b", D(3), 1, 10, 20, 30);
  TF_Operation* add = op2(g, "AddV2", "add", a, b);
  CHECK_OK(S);
  CHECK(static_shape_is(g, add, 2, D(2, 3)));
  TF_Tensor* t = run(g, add);
  CHECK_OK(S);
  CHECK(shape_is(t, 2, D(2, 3)) && FLOATS(t, 0, 11, 22, 33, 14, 25, 36));
  TF_DeleteTensor(t);

  /* [2,1] * [1,3] -> [2,3] outer product, int32 */
  TF_Operation* c = CI(g, "c", D(2, 1), 2, 2, 3);
  TF_Operation* d = CI(g, "d", D(1, 3), 2, 1, 10, 100);
  TF_Operation* mul = op2(g, "Mul", "mul", c, d);
  CHECK(static_shape_is(g, mul, 2, D(2, 3)));
  t = run(g, mul);
  CHECK_OK(S);
  CHECK(shape_is(t, 2, D(2, 3)) && INTS_ARE(t, TF_INT32, int32_t, 2, 20, 200, 3, 30, 300));
  TF_DeleteTensor(t);

  /* scalar - tensor, and int32 overflow wraps like TensorFlow */
  TF_Operation* big = CI(g, "big", NULL, 0, INT32_MAX);
  TF_Operation* v = CI(g, "v", D(3), 1, 1, 2, -1);
  t = run(g, op2(g, "AddV2", "wrap", big, v));
  CHECK(INTS_ARE(t, TF_INT32, int32_t, INT32_MIN, INT32_MIN + 1, INT32_MAX - 1));
  TF_DeleteTensor(t);
  t = run(g, op2(g, "Sub", "sub", v, big));
  CHECK(INTS_ARE(t, TF_INT32, int32_t, 1 - INT32_MAX, 2 - INT32_MAX, INT32_MIN));
  TF_DeleteTensor(t);

  /* static shapes with unknown dims: [2,?]+[?] -> [2,?]; [?]+[3] -> [3]; [1]+[?] -> [?] */
  TF_Operation* p1 = ph(g, "p1", TF_FLOAT, D(2, -1), 2);
  TF_Operation* p2 = ph(g, "p2", TF_FLOAT, D(-1), 1);
  TF_Operation* p3 = ph(g, "p3", TF_FLOAT, D(3), 1);
  TF_Operation* p4 = ph(g, "p4", TF_FLOAT, D(1), 1);
  CHECK(static_shape_is(g, op2(g, "AddV2", "s1", p1, p2), 2, D(2, -1)));
  CHECK(static_shape_is(g, op2(g, "AddV2", "s2", p2, p3), 1, D(3)));
  CHECK(static_shape_is(g, op2(g, "AddV2", "s3", p4, p2), 1, D(-1)));
  TF_Operation* pu = ph(g, "pu", TF_FLOAT, NULL, -1);
  TF_Operation* s4 = op2(g, "AddV2", "s4", pu, p3);
  CHECK(TF_GraphGetTensorNumDims(g, (TF_Output){s4, 0}, S) == -1);

  /* construction-time clash names the node */
  TF_Operation* x2 = ph(g, "x2", TF_FLOAT, D(2), 1);
  CHECK(op2(g, "AddV2", "bad_add", x2, p3) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "Dimensions must be equal, but are 2 and 3");
  CHECK_STR_CONTAINS(TF_Message(S), "bad_add");

  /* run-time clash: TensorFlow's "Incompatible shapes" */
  TF_Operation* pv = ph(g, "pv", TF_FLOAT, NULL, -1);
  TF_Operation* rt = op2(g, "AddV2", "rt", pu, pv);
  TF_Operation* fo[2] = {pu, pv};
  TF_Tensor* fv[2] = {tensor(TF_FLOAT, D(2, 3), 2, (float[]){0, 0, 0, 0, 0, 0}),
                      tensor(TF_FLOAT, D(4), 1, (float[]){0, 0, 0, 0})};
  t = run_feeds(g, rt, 2, fo, fv);
  CHECK(t == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "Incompatible shapes: [2,3] vs. [4]");

  /* empty broadcast: [0,3] + [3] -> [0,3] */
  TF_Tensor* fe[2] = {tensor(TF_FLOAT, D(0, 3), 2, NULL), tensor(TF_FLOAT, D(3), 1, (float[]){1, 2, 3})};
  t = run_feeds(g, rt, 2, fo, fe);
  CHECK_OK(S);
  CHECK(shape_is(t, 2, D(0, 3)));
  TF_DeleteTensor(t);
  TF_DeleteGraph(g);
}

static void test_division(void) {
  TF_Graph* g = TF_NewGraph();
  /* Div on integers truncates toward zero; INT_MIN / -1 wraps */
  TF_Operation* x = CI(g, "x", D(5), 1, 7, -7, 7, -7, INT32_MIN);
  TF_Operation* y = CI(g, "y", D(5), 1, 2, 2, -2, -2, -1);
  TF_Tensor* t = run(g, op2(g, "Div", "div", x, y));
  CHECK_OK(S);
  CHECK(INTS_ARE(t, TF_INT32, int32_t, 3, -3, -3, 3, INT32_MIN));
  TF_DeleteTensor(t);
  /* int64 too */
  TF_Operation* xl = CL(g, "xl", D(2), 1, -9, 9);
  TF_Operation* yl = CL(g, "yl", D(1), 1, 4);
  t = run(g, op2(g, "Div", "divl", xl, yl));
  CHECK(INTS_ARE(t, TF_INT64, int64_t, -2, 2));
  TF_DeleteTensor(t);
  /* division by zero is an error, not a crash */
  TF_Operation* z = CI(g, "z", D(2), 1, 1, 0);
  t = run(g, op2(g, "Div", "divz", x, CI(g, "z5", D(5), 1, 1, 1, 0, 1, 1)));
  CHECK(t == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "Integer division by zero");
  (void)z;
  /* Div and RealDiv on floats: true division */
  TF_Operation* a = CF(g, "a", D(3), 1, 7, -7, 1);
  TF_Operation* b = CF(g, "b", D(3), 1, 2, 2, 0);
  t = run(g, op2(g, "Div", "divf", a, b));
  CHECK(FLOATS(t, 0, 3.5f, -3.5f, INFINITY));
  TF_DeleteTensor(t);
  t = run(g, op2(g, "RealDiv", "realdiv", a, b));
  CHECK(FLOATS(t, 0, 3.5f, -3.5f, INFINITY));
  TF_DeleteTensor(t);
  /* RealDiv has no int32 CPU kernel in TensorFlow */
  t = run(g, op2(g, "RealDiv", "realdiv_i", x, y));
  CHECK(t == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "No OpKernel was registered to support Op 'RealDiv'");
  /* Neg: -0.0 for floats, INT_MIN wraps */
  t = run(g, op1(g, "Neg", "negf", CF(g, "zf", D(2), 1, 0, 2.5f)));
  CHECK(FLOATS(t, 0, 0, -2.5f) && signbit(((float*)TF_TensorData(t))[0]));
  TF_DeleteTensor(t);
  t = run(g, op1(g, "Neg", "negi", x));
  CHECK(INTS_ARE(t, TF_INT32, int32_t, -7, 7, -7, 7, INT32_MIN));
  TF_DeleteTensor(t);
  TF_DeleteGraph(g);
}

static TF_Operation* matmul(TF_Graph* g, const char* name, TF_Operation* a, TF_Operation* b,
                            int ta, int tb) {
  TF_OperationDescription* d = desc(g, "MatMul", name, a, b);
  TF_SetAttrBool(d, "transpose_a", (unsigned char)ta);
  TF_SetAttrBool(d, "transpose_b", (unsigned char)tb);
  return TF_FinishOperation(d, S);
}

static void test_matmul(void) {
  TF_Graph* g = TF_NewGraph();
  /* A = [[1,2,3],[4,5,6]], B = [[7,8],[9,10],[11,12]]: AB = [[58,64],[139,154]] */
  TF_Operation* a = CF(g, "a", D(2, 3), 2, 1, 2, 3, 4, 5, 6);
  TF_Operation* b = CF(g, "b", D(3, 2), 2, 7, 8, 9, 10, 11, 12);
  TF_Operation* ab = matmul(g, "ab", a, b, 0, 0);
  CHECK(static_shape_is(g, ab, 2, D(2, 2)));
  TF_Tensor* t = run(g, ab);
  CHECK(shape_is(t, 2, D(2, 2)) && FLOATS(t, 0, 58, 64, 139, 154));
  TF_DeleteTensor(t);
  /* A^T given as its transpose [3,2]; B^T given as [2,3] */
  TF_Operation* at = CF(g, "at", D(3, 2), 2, 1, 4, 2, 5, 3, 6);
  TF_Operation* bt = CF(g, "bt", D(2, 3), 2, 7, 9, 11, 8, 10, 12);
  t = run(g, matmul(g, "atb", at, b, 1, 0));
  CHECK(FLOATS(t, 0, 58, 64, 139, 154));
  TF_DeleteTensor(t);
  t = run(g, matmul(g, "abt", a, bt, 0, 1));
  CHECK(FLOATS(t, 0, 58, 64, 139, 154));
  TF_DeleteTensor(t);
  TF_Operation* atbt = matmul(g, "atbt", at, bt, 1, 1);
  CHECK(static_shape_is(g, atbt, 2, D(2, 2)));
  t = run(g, atbt);
  CHECK(FLOATS(t, 0, 58, 64, 139, 154));
  TF_DeleteTensor(t);
  /* double and int32 */
  TF_Operation* ad = CD(g, "ad", D(2, 2), 2, 0.5, 1, 2, 4);
  TF_Operation* bd = CD(g, "bd", D(2, 1), 2, 2, 3);
  t = run(g, matmul(g, "mmd", ad, bd, 1, 0)); /* [[0.5,2],[1,4]] @ [2,3] = [7, 14] */
  CHECK(t && TF_TensorType(t) == TF_DOUBLE && ((double*)TF_TensorData(t))[0] == 7.0 &&
        ((double*)TF_TensorData(t))[1] == 14.0);
  TF_DeleteTensor(t);
  TF_Operation* ai = CI(g, "ai", D(2, 3), 2, 1, 2, 3, 4, 5, 6);
  TF_Operation* bi = CI(g, "bi", D(2, 3), 2, 1, 0, -1, 2, 1, 0);
  t = run(g, matmul(g, "mmi", ai, bi, 0, 1)); /* A @ B^T = [[-2,4],[-2,13]] */
  CHECK(shape_is(t, 2, D(2, 2)) && INTS_ARE(t, TF_INT32, int32_t, -2, 4, -2, 13));
  TF_DeleteTensor(t);
  /* k = 0: zeros */
  TF_Operation* e1 = cst(g, "e1", tensor(TF_FLOAT, D(2, 0), 2, NULL));
  TF_Operation* e2 = cst(g, "e2", tensor(TF_FLOAT, D(0, 3), 2, NULL));
  t = run(g, matmul(g, "mme", e1, e2, 0, 0));
  CHECK(shape_is(t, 2, D(2, 3)) && FLOATS(t, 0, 0, 0, 0, 0, 0, 0));
  TF_DeleteTensor(t);
  /* construction errors */
  CHECK(matmul(g, "mm_bad", a, a, 0, 0) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "Dimensions must be equal, but are 3 and 2");
  CHECK_STR_CONTAINS(TF_Message(S), "mm_bad");
  TF_Operation* v = CF(g, "v", D(3), 1, 1, 2, 3);
  CHECK(matmul(g, "mm_rank", v, b, 0, 0) == NULL);
  CHECK_STR_CONTAINS(TF_Message(S), "Shape must be rank 2 but is rank 1");
  /* run-time mismatch (unknown static shapes) */
  TF_Operation* pa = ph(g, "pa", TF_FLOAT, NULL, -1);
  TF_Operation* pb = ph(g, "pb", TF_FLOAT, NULL, -1);
  TF_Operation* fo[2] = {pa, pb};
  TF_Tensor* fv[2] = {tensor(TF_FLOAT, D(2, 3), 2, (float[]){0, 0, 0, 0, 0, 0}),
                      tensor(TF_FLOAT, D(4, 1), 2, (float[]){0, 0, 0, 0})};
  t = run_feeds(g, matmul(g, "mm_rt", pa, pb, 0, 0), 2, fo, fv);
  CHECK(t == NULL);
  CHECK_STR_CONTAINS(TF_Message(S), "Matrix size-incompatible: In[0]: [2,3], In[1]: [4,1]");
  TF_DeleteGraph(g);
}

static void test_nn(void) {
  TF_Graph* g = TF_NewGraph();
  /* BiasAdd NHWC: [2,3] + [3] */
  TF_Operation* x = CF(g, "x", D(2, 3), 2, 1, 2, 3, 4, 5, 6);
  TF_Operation* b3 = CF(g, "b3", D(3), 1, 10, 20, 30);
  TF_Tensor* t = run(g, op2(g, "BiasAdd", "ba", x, b3));
  CHECK(FLOATS(t, 0, 11, 22, 33, 14, 25, 36));
  TF_DeleteTensor(t);
  /* NCHW: [1,2,2] (C = 2 at dim 1) + [10,20] */
  TF_Operation* xc = CF(g, "xc", D(1, 2, 2), 3, 1, 2, 3, 4);
  TF_Operation* b2 = CF(g, "b2", D(2), 1, 10, 20);
  TF_OperationDescription* d = desc(g, "BiasAdd", "ba_nchw", xc, b2);
  TF_SetAttrString(d, "data_format", "NCHW", 4);
  TF_Operation* banchw = TF_FinishOperation(d, S);
  CHECK_OK(S);
  CHECK(static_shape_is(g, banchw, 3, D(1, 2, 2)));
  t = run(g, banchw);
  CHECK(FLOATS(t, 0, 11, 12, 23, 24));
  TF_DeleteTensor(t);
  /* bias length must match the channel dim */
  CHECK(op2(g, "BiasAdd", "ba_bad", x, b2) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "Dimensions must be equal, but are 3 and 2");
  CHECK(op2(g, "BiasAdd", "ba_rank", b3, b3) == NULL);
  CHECK_STR_CONTAINS(TF_Message(S), "Shape must be at least rank 2 but is rank 1");

  /* Relu keeps NaN and -0.0 */
  TF_Operation* r = op1(g, "Relu", "relu", CF(g, "rx", D(5), 1, -1, 0, 2, NAN, -0.0f));
  t = run(g, r);
  CHECK(FLOATS(t, 0, 0, 0, 2, NAN, 0) && signbit(((float*)TF_TensorData(t))[4]));
  TF_DeleteTensor(t);
  t = run(g, op1(g, "Relu", "relu_i", CI(g, "ri", D(3), 1, -5, 0, 5)));
  CHECK(INTS_ARE(t, TF_INT32, int32_t, 0, 0, 5));
  TF_DeleteTensor(t);

  /* Softmax over the last axis: e^{x-max} / sum */
  TF_Operation* lg = CF(g, "lg", D(3, 3), 2, 1, 2, 3, 0, 0, 0, 1000, 1000, 0);
  TF_Operation* sm = op1(g, "Softmax", "sm", lg);
  CHECK(static_shape_is(g, sm, 2, D(3, 3)));
  t = run(g, sm);
  const double e1 = exp(-1.0), e2 = exp(-2.0), z = 1 + e1 + e2;
  CHECK(FLOATS(t, 1e-7, (float)(e2 / z), (float)(e1 / z), (float)(1 / z), 1 / 3.f, 1 / 3.f,
               1 / 3.f, 0.5f, 0.5f, 0));
  if (t) {
    const float* v = TF_TensorData(t);
    for (int row = 0; row < 3; row++) CHECK_NEAR(v[3 * row] + v[3 * row + 1] + v[3 * row + 2], 1, 1e-6);
  }
  TF_DeleteTensor(t);
  CHECK(op1(g, "Softmax", "sm0", CF(g, "s0", NULL, 0, 1)) == NULL);
  CHECK_STR_CONTAINS(TF_Message(S), "Shape must be at least rank 1 but is rank 0");
  TF_DeleteGraph(g);
}

static TF_Operation* reduce(TF_Graph* g, const char* type, const char* name, TF_Operation* x,
                            TF_Operation* axes, int keep) {
  TF_OperationDescription* d = desc(g, type, name, x, axes);
  TF_SetAttrBool(d, "keep_dims", (unsigned char)keep);
  return TF_FinishOperation(d, S);
}

static void test_reductions(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = CF(g, "x", D(2, 3), 2, 1, 2, 3, 4, 5, 6);
  TF_Operation* last = CI(g, "last", NULL, 0, -1);
  TF_Operation* s = reduce(g, "Sum", "sum_keep", x, last, 1);
  CHECK_OK(S);
  CHECK(static_shape_is(g, s, 2, D(2, 1)));
  TF_Tensor* t = run(g, s);
  CHECK(shape_is(t, 2, D(2, 1)) && FLOATS(t, 0, 6, 15));
  TF_DeleteTensor(t);
  TF_Operation* m0 = reduce(g, "Mean", "mean0", x, CL(g, "ax0", D(1), 1, 0), 0);
  CHECK(static_shape_is(g, m0, 1, D(3)));
  t = run(g, m0);
  CHECK(FLOATS(t, 0, 2.5f, 3.5f, 4.5f));
  TF_DeleteTensor(t);
  TF_Operation* all = reduce(g, "Sum", "sum_all", x, CI(g, "both", D(2), 1, 1, -2), 0);
  CHECK(static_shape_is(g, all, 0, NULL));
  t = run(g, all);
  CHECK(shape_is(t, 0, NULL) && FLOATS(t, 0, 21));
  TF_DeleteTensor(t);
  /* no axes: identity */
  t = run(g, reduce(g, "Sum", "sum_none", x, cst(g, "noax", tensor(TF_INT32, D(0), 1, NULL)), 0));
  CHECK(shape_is(t, 2, D(2, 3)) && FLOATS(t, 0, 1, 2, 3, 4, 5, 6));
  TF_DeleteTensor(t);
  /* 3-D, middle axis (general path) */
  TF_Operation* x3 = CI(g, "x3", D(2, 2, 2), 3, 1, 2, 3, 4, 5, 6, 7, 8);
  t = run(g, reduce(g, "Sum", "sum_mid", x3, CI(g, "one", NULL, 0, 1), 0));
  CHECK(INTS_ARE(t, TF_INT32, int32_t, 4, 6, 12, 14));
  TF_DeleteTensor(t);
  t = run(g, reduce(g, "Sum", "sum_outer", x3, CI(g, "ax02", D(2), 1, 0, 2), 1));
  CHECK(INTS_ARE(t, TF_INT32, int32_t, 14, 22));
  TF_DeleteTensor(t);
  /* integer Mean truncates toward zero */
  TF_Operation* xi = CI(g, "xi", D(2, 2), 2, 1, 2, -1, -2);
  t = run(g, reduce(g, "Mean", "mean_i", xi, last, 0));
  CHECK(INTS_ARE(t, TF_INT32, int32_t, 1, -1));
  TF_DeleteTensor(t);
  /* empty: Sum 0, float Mean NaN, int Mean 0 */
  TF_Operation* ef = cst(g, "ef", tensor(TF_FLOAT, D(0, 3), 2, NULL));
  TF_Operation* zero = CI(g, "zero", NULL, 0, 0);
  t = run(g, reduce(g, "Sum", "sum_e", ef, zero, 0));
  CHECK(shape_is(t, 1, D(3)) && FLOATS(t, 0, 0, 0, 0));
  TF_DeleteTensor(t);
  t = run(g, reduce(g, "Mean", "mean_e", ef, zero, 0));
  CHECK(FLOATS(t, 0, NAN, NAN, NAN));
  TF_DeleteTensor(t);
  TF_Operation* ei = cst(g, "ei", tensor(TF_INT32, D(0, 2), 2, NULL));
  t = run(g, reduce(g, "Mean", "mean_ei", ei, zero, 0));
  CHECK(INTS_ARE(t, TF_INT32, int32_t, 0, 0));
  TF_DeleteTensor(t);
  /* unknown axes: rank kept with keep_dims, unknown otherwise */
  TF_Operation* pax = ph(g, "pax", TF_INT32, D(1), 1);
  CHECK(static_shape_is(g, reduce(g, "Sum", "sum_pk", x, pax, 1), 2, D(-1, -1)));
  TF_Operation* su = reduce(g, "Sum", "sum_pu", x, pax, 0);
  CHECK(TF_GraphGetTensorNumDims(g, (TF_Output){su, 0}, S) == -1);
  /* errors: static bad axis; run-time duplicate and out-of-range */
  CHECK(reduce(g, "Sum", "sum_bad", x, CI(g, "two", NULL, 0, 2), 0) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "Invalid reduction dimension 2 for input with 2 dimensions.");
  TF_Tensor* fv = tensor(TF_INT32, D(2), 1, (int32_t[]){1, -1});
  TF_Operation* pax2 = ph(g, "pax2", TF_INT32, D(2), 1);
  t = run_feeds(g, reduce(g, "Sum", "sum_dup", x, pax2, 0), 1, &pax2, &fv);
  CHECK(t == NULL);
  CHECK_STR_CONTAINS(TF_Message(S), "Axes contains duplicate dimension: 1");
  fv = tensor(TF_INT32, D(1), 1, (int32_t[]){3});
  t = run_feeds(g, su, 1, &pax, &fv);
  CHECK(t == NULL);
  CHECK_STR_CONTAINS(TF_Message(S), "Invalid reduction dimension (3 for input with 2 dimension(s)");
  TF_DeleteGraph(g);
}

static void test_argmax(void) {
  TF_Graph* g = TF_NewGraph();
  /* ties -> first index; NaN skipped unless all NaN */
  TF_Operation* x = CF(g, "x", D(4, 3), 2, 1, 3, 3, 5, 2, 5, 1, NAN, 3, NAN, 5, 5);
  TF_Operation* one = CI(g, "one", NULL, 0, 1);
  TF_Operation* am = op2(g, "ArgMax", "am", x, one);
  CHECK(static_shape_is(g, am, 1, D(4)));
  TF_Tensor* t = run(g, am);
  CHECK(INTS_ARE(t, TF_INT64, int64_t, 1, 0, 2, 1));
  TF_DeleteTensor(t);
  /* axis 0, output_type int32 */
  TF_OperationDescription* d = desc(g, "ArgMax", "am0", x, CL(g, "zero", NULL, 0, 0));
  TF_SetAttrType(d, "output_type", TF_INT32);
  t = run(g, TF_FinishOperation(d, S));
  CHECK(INTS_ARE(t, TF_INT32, int32_t, 1, 3, 1));
  TF_DeleteTensor(t);
  /* int input, negative axis */
  TF_Operation* xi = CI(g, "xi", D(2, 2), 2, -3, -7, 4, 9);
  t = run(g, op2(g, "ArgMax", "ami", xi, CI(g, "neg", NULL, 0, -1)));
  CHECK(INTS_ARE(t, TF_INT64, int64_t, 0, 1));
  TF_DeleteTensor(t);
  /* shape errors */
  CHECK(op2(g, "ArgMax", "am_bad", x, CI(g, "two", NULL, 0, 2)) == NULL);
  CHECK_STR_CONTAINS(TF_Message(S), "Dimension (2) must be in the range [-2, 2)");
  TF_Operation* e = cst(g, "e", tensor(TF_FLOAT, D(2, 0), 2, NULL));
  t = run(g, op2(g, "ArgMax", "am_e", e, one));
  CHECK(t == NULL);
  CHECK_STR_CONTAINS(TF_Message(S), "Reduction axis 1 is empty in shape [2,0]");
  TF_DeleteGraph(g);
}

static TF_Operation* reshape(TF_Graph* g, const char* name, TF_Operation* x, TF_Operation* shape) {
  return op2(g, "Reshape", name, x, shape);
}

static void test_reshape(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = CF(g, "x", D(2, 3), 2, 1, 2, 3, 4, 5, 6);
  TF_Operation* r = reshape(g, "r", x, CI(g, "s", D(2), 1, 3, -1));
  CHECK_OK(S);
  CHECK(static_shape_is(g, r, 2, D(3, 2)));
  TF_Tensor* t = run(g, r);
  CHECK(shape_is(t, 2, D(3, 2)) && FLOATS(t, 0, 1, 2, 3, 4, 5, 6));
  TF_DeleteTensor(t);
  t = run(g, reshape(g, "flat", x, CL(g, "m1", D(1), 1, -1)));
  CHECK(shape_is(t, 1, D(6)));
  TF_DeleteTensor(t);
  /* static error */
  CHECK(reshape(g, "r_bad", x, CI(g, "four", D(1), 1, 4)) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "Cannot reshape a tensor with 6 elements to shape [4] (4 elements)");
  /* run-time errors with a fed shape */
  TF_Operation* ps = ph(g, "ps", TF_INT32, D(2), 1);
  TF_Operation* rr = reshape(g, "rr", x, ps);
  CHECK(static_shape_is(g, rr, 2, D(-1, -1)));
  TF_Tensor* fv = tensor(TF_INT32, D(2), 1, (int32_t[]){4, -1});
  CHECK(run_feeds(g, rr, 1, &ps, &fv) == NULL);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "Input to reshape is a tensor with 6 values, but the requested shape requires a multiple of 4");
  fv = tensor(TF_INT32, D(2), 1, (int32_t[]){2, 2});
  CHECK(run_feeds(g, rr, 1, &ps, &fv) == NULL);
  CHECK_STR_CONTAINS(TF_Message(S), "Input to reshape is a tensor with 6 values, but the requested shape has 4");
  fv = tensor(TF_INT32, D(2), 1, (int32_t[]){-1, -1});
  CHECK(run_feeds(g, rr, 1, &ps, &fv) == NULL);
  CHECK_STR_CONTAINS(TF_Message(S), "Only one input size may be -1, not both 0 and 1");
  TF_DeleteGraph(g);
}

static TF_Operation* cast(TF_Graph* g, const char* name, TF_Operation* x, TF_DataType dst) {
  TF_OperationDescription* d = desc(g, "Cast", name, x, NULL);
  TF_SetAttrType(d, "DstT", dst);
  return TF_FinishOperation(d, S);
}

static void test_cast(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* f = CF(g, "f", D(6), 1, 1.7f, -1.7f, NAN, 3e10f, -0.0f, 2.5f);
  TF_Operation* c = cast(g, "c", f, TF_INT32);
  CHECK_OK(S);
  CHECK(static_shape_is(g, c, 1, D(6)));
  TF_Tensor* t = run(g, c);
  CHECK(INTS_ARE(t, TF_INT32, int32_t, 1, -1, INT32_MIN, INT32_MIN, 0, 2));
  TF_DeleteTensor(t);
  t = run(g, cast(g, "cb", f, TF_BOOL));
  CHECK(INTS_ARE(t, TF_BOOL, unsigned char, 1, 1, 1, 1, 0, 1));
  TF_DeleteTensor(t);
  t = run(g, cast(g, "cu8", CF(g, "f2", D(3), 1, 300, -1.7f, 255.9f), TF_UINT8));
  CHECK(INTS_ARE(t, TF_UINT8, uint8_t, 44, 255, 255));
  TF_DeleteTensor(t);
  TF_Operation* bl = cst(g, "bl", tensor(TF_BOOL, D(2), 1, (unsigned char[]){1, 0}));
  t = run(g, cast(g, "bf", bl, TF_FLOAT));
  CHECK(FLOATS(t, 0, 1, 0));
  TF_DeleteTensor(t);
  t = run(g, cast(g, "il", CI(g, "i", D(2), 1, -5, 16777217), TF_INT64));
  CHECK(INTS_ARE(t, TF_INT64, int64_t, -5, 16777217));
  TF_DeleteTensor(t);
  t = run(g, cast(g, "id", CL(g, "l", D(1), 1, 16777217), TF_DOUBLE));
  CHECK(t && ((double*)TF_TensorData(t))[0] == 16777217.0);
  TF_DeleteTensor(t);
  TF_DeleteGraph(g);
}

static void test_array_ops(void) {
  TF_Graph* g = TF_NewGraph();
  /* unfed placeholder: TensorFlow's wording */
  TF_Operation* x = ph(g, "x", TF_FLOAT, D(-1, 64), 2);
  CHECK(static_shape_is(g, x, 2, D(-1, 64)));
  TF_Tensor* t = run(g, op1(g, "Identity", "idx", x));
  CHECK(t == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "You must feed a value for placeholder tensor 'x' with dtype float and shape [?,64]");
  TF_Operation* y = ph(g, "y", TF_INT32, NULL, -1);
  CHECK(run(g, y) == NULL);
  CHECK_STR_CONTAINS(TF_Message(S), "You must feed a value for placeholder tensor 'y' with dtype int32");
  CHECK(strstr(TF_Message(S), "and shape") == NULL);

  /* Identity shares the Const's buffer */
  TF_Operation* c = CF(g, "c", D(2), 1, 1, 2);
  TF_Operation* id = op1(g, "Identity", "id", c);
  TF_Session* sess = TF_NewSession(g, NULL, S);
  TF_Output fetch[2] = {{c, 0}, {id, 0}};
  TF_Tensor* out[2] = {NULL, NULL};
  TF_SessionRun(sess, NULL, NULL, NULL, 0, fetch, out, 2, NULL, 0, NULL, S);
  CHECK_OK(S);
  CHECK(out[0] && out[1] && TF_TensorData(out[0]) == TF_TensorData(out[1]));
  CHECK(FLOATS(out[1], 0, 1, 2));
  TF_DeleteTensor(out[0]);
  TF_DeleteTensor(out[1]);
  TF_CloseSession(sess, S);
  TF_DeleteSession(sess, S);

  /* PlaceholderWithDefault: the default unless fed */
  TF_OperationDescription* d = desc(g, "PlaceholderWithDefault", "pwd", c, NULL);
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_SetAttrShape(d, "shape", D(-1), 1);
  TF_Operation* pwd = TF_FinishOperation(d, S);
  CHECK_OK(S);
  CHECK(static_shape_is(g, pwd, 1, D(-1)));
  t = run(g, pwd);
  CHECK(FLOATS(t, 0, 1, 2));
  TF_DeleteTensor(t);
  TF_Tensor* fv = tensor(TF_FLOAT, D(3), 1, (float[]){7, 8, 9});
  t = run_feeds(g, pwd, 1, &pwd, &fv);
  CHECK(FLOATS(t, 0, 7, 8, 9));
  TF_DeleteTensor(t);
  d = desc(g, "PlaceholderWithDefault", "pwd_bad", c, NULL);
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_SetAttrShape(d, "shape", D(3), 1);
  CHECK(TF_FinishOperation(d, S) == NULL);
  CHECK_STR_CONTAINS(TF_Message(S), "Dimensions must be equal, but are 2 and 3");

  /* strings: Const, Identity, Add concatenates with broadcasting */
  TF_Operation* sa = cst(g, "sa", strings(D(2), 1, (const char*[]){"a", "a longer string, not inline"}));
  TF_Operation* sb = cst(g, "sb", strings(NULL, 0, (const char*[]){"c"}));
  t = run(g, op2(g, "Add", "sadd", op1(g, "Identity", "sid", sa), sb));
  CHECK_OK(S);
  CHECK(t && TF_TensorType(t) == TF_STRING && TF_TensorElementCount(t) == 2);
  if (t) {
    const TF_TString* s = TF_TensorData(t);
    CHECK(TF_StringGetSize(&s[0]) == 2 && memcmp(TF_StringGetDataPointer(&s[0]), "ac", 2) == 0);
    CHECK(TF_StringGetSize(&s[1]) == 28 &&
          memcmp(TF_StringGetDataPointer(&s[1]), "a longer string, not inlinec", 28) == 0);
  }
  TF_DeleteTensor(t);
  TF_DeleteGraph(g);
}

static void test_variables(void) {
  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d = TF_NewOperation(g, "VarHandleOp", "v");
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_SetAttrShape(d, "shape", D(2), 1);
  TF_SetAttrString(d, "shared_name", "v", 1);
  TF_Operation* v = TF_FinishOperation(d, S);
  CHECK_OK(S);
  CHECK(static_shape_is(g, v, 0, NULL));
  TF_Operation* init_val = CF(g, "init_val", D(2), 1, 1.5f, -2);
  d = desc(g, "AssignVariableOp", "assign", v, init_val);
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_Operation* assign = TF_FinishOperation(d, S);
  CHECK_OK(S);
  d = desc(g, "ReadVariableOp", "read", v, NULL);
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_Operation* read = TF_FinishOperation(d, S);
  CHECK_OK(S);
  CHECK(static_shape_is(g, read, 1, D(2)));
  TF_Operation* inited = op1(g, "VarIsInitializedOp", "inited", v);
  d = TF_NewOperation(g, "NoOp", "init");
  TF_AddControlInput(d, assign);
  TF_Operation* init = TF_FinishOperation(d, S);
  CHECK_OK(S);
  /* x2 = read * 2, assigned back: state survives across runs */
  TF_Operation* twice = op2(g, "Mul", "twice", read, CF(g, "two", NULL, 0, 2));
  d = desc(g, "AssignVariableOp", "assign2", v, twice);
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_Operation* assign2 = TF_FinishOperation(d, S);
  CHECK_OK(S);

  TF_Session* sess = TF_NewSession(g, NULL, S);
  TF_Output fr = {read, 0}, fi = {inited, 0};
  TF_Tensor* out = NULL;
  /* uninitialized: VarIsInitializedOp false, read fails with FAILED_PRECONDITION */
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &fi, &out, 1, NULL, 0, NULL, S);
  CHECK_OK(S);
  CHECK(out && *(unsigned char*)TF_TensorData(out) == 0);
  TF_DeleteTensor(out);
  out = NULL;
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &fr, &out, 1, NULL, 0, NULL, S);
  CHECK_CODE(S, TF_FAILED_PRECONDITION);
  CHECK(out == NULL);
  /* run 1: init (target only); run 2: read */
  const TF_Operation* targets[1] = {init};
  TF_SessionRun(sess, NULL, NULL, NULL, 0, NULL, NULL, 0, targets, 1, NULL, S);
  CHECK_OK(S);
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &fr, &out, 1, NULL, 0, NULL, S);
  CHECK_OK(S);
  CHECK(FLOATS(out, 0, 1.5f, -2));
  TF_DeleteTensor(out);
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &fi, &out, 1, NULL, 0, NULL, S);
  CHECK(out && *(unsigned char*)TF_TensorData(out) == 1);
  TF_DeleteTensor(out);
  const TF_Operation* t2[1] = {assign2};
  TF_SessionRun(sess, NULL, NULL, NULL, 0, NULL, NULL, 0, t2, 1, NULL, S);
  CHECK_OK(S);
  TF_SessionRun(sess, NULL, NULL, NULL, 0, NULL, NULL, 0, t2, 1, NULL, S);
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &fr, &out, 1, NULL, 0, NULL, S);
  CHECK(FLOATS(out, 0, 6, -8));
  TF_DeleteTensor(out);
  TF_CloseSession(sess, S);
  TF_DeleteSession(sess, S);

  /* a new session starts uninitialized */
  out = run(g, read);
  CHECK(out == NULL);
  CHECK_CODE(S, TF_FAILED_PRECONDITION);
  /* assigning the wrong dtype */
  d = desc(g, "AssignVariableOp", "assign_i", v, CI(g, "iv", D(2), 1, 1, 2));
  TF_SetAttrType(d, "dtype", TF_INT32);
  TF_Operation* ai = TF_FinishOperation(d, S);
  CHECK_OK(S);
  sess = TF_NewSession(g, NULL, S);
  const TF_Operation* t3[1] = {ai};
  TF_SessionRun(sess, NULL, NULL, NULL, 0, NULL, NULL, 0, t3, 1, NULL, S);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  TF_CloseSession(sess, S);
  TF_DeleteSession(sess, S);
  TF_DeleteGraph(g);
}

int main(void) {
  S = TF_NewStatus();
  test_broadcasting();
  test_division();
  test_matmul();
  test_nn();
  test_reductions();
  test_argmax();
  test_reshape();
  test_cast();
  test_array_ops();
  test_variables();
  TF_DeleteStatus(S);
  CTEST_END();
}
