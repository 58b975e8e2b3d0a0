/* The elementwise family (math_ops.c, unary_ops.c) through the public C
 * API: a sanitizer sweep of every op over every dtype with extreme bit
 * patterns (NaN, Inf, subnormals, INT_MIN, zero divisors), which must give
 * a result or TensorFlow's error codes and never undefined behaviour; and
 * edge values worked by hand (TensorFlow 2.21 agrees on each). */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"
#include "tensorflow/c/c_api.h"

#include "ctest_graph.h"

#define CF(g, name, dims, nd, ...) cst(g, name, tensor(TF_FLOAT, dims, nd, (float[]){__VA_ARGS__}))
#define CD(g, name, dims, nd, ...) cst(g, name, tensor(TF_DOUBLE, dims, nd, (double[]){__VA_ARGS__}))

static const TF_DataType kTypes[] = {TF_FLOAT, TF_DOUBLE, TF_HALF, TF_BFLOAT16, TF_INT8,
                                     TF_INT16, TF_INT32, TF_INT64, TF_UINT8, TF_UINT16,
                                     TF_UINT32, TF_UINT64, TF_BOOL, TF_COMPLEX64, TF_COMPLEX128};
enum { NTYPES = sizeof kTypes / sizeof kTypes[0], NELEM = 24 };

/* Tensor of NELEM elements whose bytes mix extreme patterns and noise. */
static TF_Tensor* extreme(TF_DataType dt, unsigned seed) {
  const size_t es = TF_DataTypeSize(dt);
  TF_Tensor* t = TF_AllocateTensor(dt, D(NELEM), 1, es * NELEM);
  unsigned char* p = TF_TensorData(t);
  static const unsigned char pats[] = {0x00, 0xff, 0x80, 0x7f, 0x01};
  for (int i = 0; i < NELEM; i++) {
    for (size_t b = 0; b < es; b++) {
      seed = seed * 1103515245u + 12345u;
      unsigned char v = (unsigned char)(seed >> 16);
      if (i < 5) v = pats[i]; /* all-zero, all-one, sign bit ... */
      if (i == 5) v = b + 1 == es ? 0x80 : 0x00; /* INT_MIN / -0.0 */
      if (i == 6) v = b + 1 == es ? 0x7f : 0xff; /* INT_MAX / NaN */
      p[i * es + b] = v;
    }
    if (dt == TF_BOOL) p[i] &= 1;
  }
  return t;
}

static void sweep_op(const char* type, int arity) {
  for (int k = 0; k < NTYPES; k++) {
    TF_Graph* g = TF_NewGraph();
    TF_Operation* x = ph(g, "x", kTypes[k], D(NELEM), 1);
    TF_Operation* y = ph(g, "y", kTypes[k], D(NELEM), 1);
    TF_Operation* o = arity == 2 ? op2(g, type, "op", x, y) : op1(g, type, "op", x);
    if (!o) { /* dtype not registered for the op: TensorFlow's error kind */
      CHECK_CODE(S, TF_INVALID_ARGUMENT);
      TF_DeleteGraph(g);
      continue;
    }
    TF_Operation* fo[2] = {x, y};
    TF_Tensor* fv[2] = {extreme(kTypes[k], 7u + (unsigned)k),
                        arity == 2 ? extreme(kTypes[k], 99u) : NULL};
    TF_Tensor* out = run_feeds(g, o, arity, fo, fv);
    const TF_Code c = TF_GetCode(S);
    CHECK(c == TF_OK || c == TF_INVALID_ARGUMENT || c == TF_INTERNAL);
    if (c == TF_OK) CHECK(out && TF_TensorElementCount(out) == NELEM);
    if (c != TF_OK && c != TF_INVALID_ARGUMENT && c != TF_INTERNAL)
      fprintf(stderr, "  %s dtype %d: %s\n", type, (int)kTypes[k], TF_Message(S));
    if (out) TF_DeleteTensor(out);
    TF_DeleteGraph(g);
  }
}

static void test_sweep(void) {
  static const char* binary[] = {"Add", "AddV2", "Sub", "Mul", "RealDiv", "Div", "DivNoNan",
                                 "FloorDiv", "FloorMod", "TruncateDiv", "Maximum", "Minimum",
                                 "Pow", "SquaredDifference", "Atan2", "Equal", "NotEqual",
                                 "Less", "LessEqual", "Greater", "GreaterEqual", "LogicalAnd",
                                 "LogicalOr", "BitwiseAnd", "BitwiseOr", "BitwiseXor"};
  static const char* unary[] = {"Neg", "Abs", "Sign", "Square", "Sqrt", "Rsqrt", "Reciprocal",
                                "Inv", "Exp", "Expm1", "Log", "Log1p", "Sin", "Cos", "Tan",
                                "Tanh", "Sigmoid", "Erf", "Floor", "Ceil", "Round", "Rint",
                                "IsNan", "IsInf", "IsFinite", "LogicalNot"};
  for (size_t i = 0; i < sizeof binary / sizeof *binary; i++) sweep_op(binary[i], 2);
  for (size_t i = 0; i < sizeof unary / sizeof *unary; i++) sweep_op(unary[i], 1);
}

/* Every Cast pair over the extreme patterns. */
static void test_cast_sweep(void) {
  for (int a = 0; a < NTYPES; a++)
    for (int b = 0; b < NTYPES; b++)
      for (int trunc = 0; trunc < 2; trunc++) {
        TF_Graph* g = TF_NewGraph();
        TF_Operation* x = ph(g, "x", kTypes[a], D(NELEM), 1);
        TF_OperationDescription* d = desc(g, "Cast", "op", x, NULL);
        TF_SetAttrType(d, "DstT", kTypes[b]);
        TF_SetAttrBool(d, "Truncate", (unsigned char)trunc);
        TF_Operation* o = TF_FinishOperation(d, S);
        CHECK_OK(S);
        TF_Operation* fo[1] = {x};
        TF_Tensor* fv[1] = {extreme(kTypes[a], 3u + (unsigned)b)};
        TF_Tensor* out = run_feeds(g, o, 1, fo, fv);
        CHECK_OK(S);
        CHECK(out && TF_TensorType(out) == kTypes[b] && TF_TensorElementCount(out) == NELEM);
        if (out) TF_DeleteTensor(out);
        TF_DeleteGraph(g);
      }
}

static TF_Tensor* binary_i32(const char* type, int n, const int32_t* a, const int32_t* b) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* o = op2(g, type, "op", cst(g, "a", tensor(TF_INT32, D(n), 1, a)),
                        cst(g, "b", tensor(TF_INT32, D(n), 1, b)));
  TF_Tensor* out = o ? run(g, o) : NULL;
  TF_DeleteGraph(g);
  return out;
}

static void test_integer_edges(void) {
  const int32_t a[] = {INT32_MIN, INT32_MIN, 7, -7, -7, 2};
  const int32_t b[] = {-1, 1, -2, 2, -2, 31};
  TF_Tensor* t = binary_i32("FloorDiv", 6, a, b);
  CHECK_OK(S);
  CHECK(INTS_ARE(t, TF_INT32, int32_t, INT32_MIN, INT32_MIN, -4, -4, 3, 0));
  TF_DeleteTensor(t);
  t = binary_i32("FloorMod", 6, a, b);
  CHECK(INTS_ARE(t, TF_INT32, int32_t, 0, 0, -1, 1, -1, 2));
  TF_DeleteTensor(t);
  t = binary_i32("Pow", 6, (int32_t[]){2, 3, -2, 0, 1, -1}, (int32_t[]){31, 21, 31, 0, 5, 7});
  /* wraps modulo 2^32 as TensorFlow's integer pow */
  CHECK(INTS_ARE(t, TF_INT32, int32_t, INT32_MIN, (int32_t)(uint32_t)10460353203ull, INT32_MIN, 1,
                 1, -1));
  TF_DeleteTensor(t);
  t = binary_i32("TruncateDiv", 1, (int32_t[]){1}, (int32_t[]){0});
  CHECK_CODE(S, TF_INTERNAL);
  CHECK(t == NULL);
  t = binary_i32("Pow", 1, (int32_t[]){2}, (int32_t[]){-1});
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "Integers to negative integer powers are not allowed");
  TF_Graph* g = TF_NewGraph();
  TF_Tensor* r = run(g, op1(g, "Abs", "op", CI(g, "a", D(2), 1, INT32_MIN, -3)));
  CHECK(INTS_ARE(r, TF_INT32, int32_t, INT32_MIN, 3));
  TF_DeleteTensor(r);
  TF_DeleteGraph(g);
}

static void test_half_rounding(void) {
  /* float -> half rounds to nearest even: 1 + 2^-11 ties to 1, 1 + 3*2^-11 to 1 + 2^-9;
   * 65520 overflows to inf; bfloat16 keeps 8 bits. */
  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d = desc(g, "Cast", "op",
                                    CF(g, "a", D(4), 1, 1.00048828125f, 1.00146484375f, 65520.0f,
                                       -65504.0f), NULL);
  TF_SetAttrType(d, "DstT", TF_HALF);
  TF_Tensor* t = run(g, TF_FinishOperation(d, S));
  CHECK(INTS_ARE(t, TF_HALF, uint16_t, 0x3c00, 0x3c02, 0x7c00, 0xfbff));
  TF_DeleteTensor(t);
  TF_DeleteGraph(g);
}

static void test_equal_incompatible(void) {
  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d = desc(g, "NotEqual", "op", CF(g, "a", D(2), 1, 1, 2),
                                    CF(g, "b", D(3), 1, 1, 2, 3));
  TF_SetAttrBool(d, "incompatible_shape_error", 0);
  TF_Operation* o = TF_FinishOperation(d, S);
  CHECK_OK(S);
  CHECK(static_shape_is(g, o, 0, NULL));
  TF_Tensor* t = run(g, o);
  CHECK(t && TF_NumDims(t) == 0 && *(unsigned char*)TF_TensorData(t) == 1);
  TF_DeleteTensor(t);
  TF_DeleteGraph(g);
}

int main(void) {
  S = TF_NewStatus();
  test_integer_edges();
  test_half_rounding();
  test_equal_incompatible();
  test_sweep();
  test_cast_sweep();
  TF_DeleteStatus(S);
  CTEST_END();
}
