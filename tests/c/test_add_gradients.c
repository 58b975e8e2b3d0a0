/* TF_AddGradients / TF_AddGradientsWithPrefix: a C program differentiates a small model with
 * the same built-in gradients tf.gradients uses; values worked by hand. */
#include "ctest_graph.h"

static const char* name_of(TF_Output o) { return o.oper ? TF_OperationName(o.oper) : "(none)"; }

/* z = (x w) * (x w); dz/dx = 2 (x w) w^T, dz/dw = x^T 2 (x w). */
static void test_matmul_square(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = CF(g, "x", D(2, 2), 2, 1, 2, 3, 4);
  TF_Operation* w = CF(g, "w", D(2, 2), 2, 0.5f, -1, 2, 0);
  TF_Operation* y = op2(g, "MatMul", "y", x, w);
  TF_Operation* z = op2(g, "Mul", "z", y, y);
  TF_Output ys[1] = {{z, 0}}, xs[2] = {{x, 0}, {w, 0}}, dy[2];
  TF_AddGradients(g, ys, 1, xs, 2, NULL, S, dy);
  CHECK_OK(S);
  CHECK(strcmp(name_of(dy[0]), "gradients/y_grad/MatMul") == 0);
  CHECK(strcmp(name_of(dy[1]), "gradients/y_grad/MatMul_1") == 0);
  /* y = [[4.5, -1], [9.5, -3]]; 2y = [[9, -2], [19, -6]] */
  TF_Tensor* gx = run(g, dy[0].oper);
  CHECK_OK(S);
  /* 2y w^T: w^T = [[0.5, 2], [-1, 0]] */
  CHECK(floats_are(gx, 4, (float[]){6.5f, 18, 15.5f, 38}, 1e-5));
  TF_Tensor* gw = run(g, dy[1].oper);
  /* x^T 2y: x^T = [[1, 3], [2, 4]] */
  CHECK(floats_are(gw, 4, (float[]){66, -20, 94, -28}, 1e-5));
  TF_DeleteTensor(gx);
  TF_DeleteTensor(gw);

  /* A second call takes the next scope; a taken prefix is refused. */
  TF_AddGradients(g, ys, 1, xs, 1, NULL, S, dy);
  CHECK_OK(S);
  CHECK(strncmp(name_of(dy[0]), "gradients_1/", 12) == 0);
  TF_AddGradientsWithPrefix(g, "gradients", ys, 1, xs, 1, NULL, S, dy);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "prefix [gradients] conflicts with existing node");
  TF_AddGradientsWithPrefix(g, "train/grads", ys, 1, xs, 1, NULL, S, dy);
  CHECK_OK(S);
  CHECK(strncmp(name_of(dy[0]), "train/grads/", 12) == 0);
  TF_DeleteGraph(g);
}

/* Initial gradients, a sum over two consumers (AddN), an x no y depends on. */
static void test_dx_and_unreachable(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* a = CF(g, "a", D(3), 1, 1, 2, 3);
  TF_Operation* b = CF(g, "b", D(3), 1, 10, 20, 30);
  TF_Operation* c = CF(g, "c", D(3), 1, 7, 7, 7);
  TF_Operation* s = op2(g, "AddV2", "s", a, b);
  TF_Operation* d = op2(g, "Sub", "d", s, a); /* d = b, but through both uses of a */
  TF_Operation* seed = CF(g, "seed", D(3), 1, 2, 3, 4);
  TF_Output ys[1] = {{d, 0}}, xs[3] = {{a, 0}, {b, 0}, {c, 0}}, dx[1] = {{seed, 0}}, dy[3];
  TF_AddGradients(g, ys, 1, xs, 3, dx, S, dy);
  CHECK_OK(S);
  CHECK(dy[0].oper && strcmp(TF_OperationOpType(dy[0].oper), "AddN") == 0);
  TF_Tensor* ga = run(g, dy[0].oper);
  CHECK(floats_are(ga, 3, (float[]){0, 0, 0}, 0));
  TF_Tensor* gb = run(g, dy[1].oper);
  CHECK(floats_are(gb, 3, (float[]){2, 3, 4}, 0));
  CHECK(dy[2].oper == NULL && dy[2].index == -1);
  TF_DeleteTensor(ga);
  TF_DeleteTensor(gb);
  TF_DeleteGraph(g);
}

/* Broadcasting reduces back to each input's shape; integer paths carry no gradient. */
static void test_broadcast_and_int_path(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = CF(g, "x", D(2, 3), 2, 1, 2, 3, 4, 5, 6);
  TF_Operation* bias = CF(g, "bias", D(3), 1, 1, 1, 1);
  TF_Operation* y = op2(g, "Mul", "y", x, bias);
  TF_Output ys[1] = {{y, 0}}, xs[2] = {{x, 0}, {bias, 0}}, dy[2];
  TF_AddGradients(g, ys, 1, xs, 2, NULL, S, dy);
  CHECK_OK(S);
  TF_Tensor* gb = run(g, dy[1].oper);
  CHECK(shape_is(gb, 1, D(3)));
  CHECK(floats_are(gb, 3, (float[]){5, 7, 9}, 0));
  TF_DeleteTensor(gb);
  TF_Operation* xi = CI(g, "xi", D(2), 1, 1, 2);
  TF_Operation* yi = op2(g, "Mul", "yi", xi, xi);
  TF_Output ys2[1] = {{yi, 0}}, xs2[1] = {{xi, 0}};
  TF_AddGradients(g, ys2, 1, xs2, 1, NULL, S, dy);
  CHECK_OK(S);
  CHECK(dy[0].oper == NULL);
  TF_DeleteGraph(g);
}

/* A gather's gradient is IndexedSlices in tf.gradients; TF_AddGradients gives it dense
 * (UnsortedSegmentSum over the rows): repeated rows add, untouched rows are 0. Through a
 * concat and a transpose first. */
static void test_gather_concat_transpose(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = CF(g, "x", D(3, 2), 2, 1, 2, 3, 4, 5, 6);
  TF_Operation* idx = CI(g, "idx", D(3), 1, 0, 0, 2);
  TF_Operation* axis = CI(g, "axis", D(1), 0, 0);
  TF_OperationDescription* d = desc(g, "GatherV2", "gather", x, idx);
  TF_AddInput(d, (TF_Output){axis, 0});
  TF_Operation* gath = TF_FinishOperation(d, S);
  CHECK_OK(S);
  d = TF_NewOperation(g, "ConcatV2", "concat");
  TF_Output parts[2] = {{gath, 0}, {x, 0}};
  TF_AddInputList(d, parts, 2);
  TF_AddInput(d, (TF_Output){axis, 0});
  TF_Operation* cat = TF_FinishOperation(d, S); /* [6, 2] */
  CHECK_OK(S);
  TF_Operation* perm = CI(g, "perm", D(2), 1, 1, 0);
  TF_Operation* tr = op2(g, "Transpose", "tr", cat, perm); /* [2, 6] */
  TF_Operation* w = CF(g, "w", D(2, 6), 2, 1, 2, 3, 4, 5, 6, 10, 20, 30, 40, 50, 60);
  TF_Operation* z = op2(g, "Mul", "z", tr, w);
  TF_Output ys[1] = {{z, 0}}, xs[1] = {{x, 0}}, dy[1];
  TF_AddGradients(g, ys, 1, xs, 1, NULL, S, dy);
  CHECK_OK(S);
  CHECK(strcmp(TF_OperationOpType(dy[0].oper), "AddN") == 0);
  TF_Tensor* gx = run(g, dy[0].oper);
  CHECK_OK(S);
  /* dz/dcat = w^T rows: [1,10] [2,20] [3,30] (gathered rows 0, 0, 2), [4,40] [5,50] [6,60] (x) */
  CHECK(floats_are(gx, 6, (float[]){1 + 2 + 4, 10 + 20 + 40, 5, 50, 3 + 6, 30 + 60}, 0));
  TF_DeleteTensor(gx);
  TF_DeleteGraph(g);
}

int main(void) {
  S = TF_NewStatus();
  test_matmul_square();
  test_dx_and_unreachable();
  test_broadcast_and_int_path();
  test_gather_concat_transpose();
  TF_DeleteStatus(S);
  CTEST_END();
}
