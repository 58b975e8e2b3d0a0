/* A C program builds and trains a model with the C API alone: resource variables
 * (VarHandleOp / AssignVariableOp / ReadVariableOp), a mean squared error, TF_AddGradients,
 * and one optimizer update op per variable (ResourceApplyGradientDescent for the resource
 * variables, ApplyMomentum on a ref variable); values worked by hand. */
#include "ctest_graph.h"

typedef struct model {
  TF_Graph* g;
  TF_Operation *w, *b, *init_w, *init_b, *loss, *train_w, *train_b;
} model;

static TF_Operation* resource_var(TF_Graph* g, const char* name) {
  TF_OperationDescription* d = TF_NewOperation(g, "VarHandleOp", name);
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_SetAttrShape(d, "shape", NULL, 0);
  TF_SetAttrString(d, "shared_name", name, strlen(name));
  return TF_FinishOperation(d, S);
}

static TF_Operation* read_var(TF_Graph* g, const char* name, TF_Operation* v) {
  TF_OperationDescription* d = desc(g, "ReadVariableOp", name, v, NULL);
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  return TF_FinishOperation(d, S);
}

static TF_Operation* apply_gd(TF_Graph* g, const char* name, TF_Operation* v,
                              TF_Operation* lr, TF_Output grad) {
  TF_OperationDescription* d = TF_NewOperation(g, "ResourceApplyGradientDescent", name);
  TF_AddInput(d, (TF_Output){v, 0});
  TF_AddInput(d, (TF_Output){lr, 0});
  TF_AddInput(d, grad);
  return TF_FinishOperation(d, S);
}

/* loss = mean((x w + b - y)^2) over x = 0, 1, 2, 3 and y = 2 x + 1; train_* apply lr * d loss / d var. */
static model build(void) {
  model m;
  TF_Graph* g = m.g = TF_NewGraph();
  TF_Operation* x = CF(g, "x", D(4), 1, 0, 1, 2, 3);
  TF_Operation* y = CF(g, "y", D(4), 1, 1, 3, 5, 7);
  m.w = resource_var(g, "w");
  m.b = resource_var(g, "b");
  m.init_w = op2(g, "AssignVariableOp", "w/Assign", m.w, CF(g, "w/init", D(0), 0, 0));
  m.init_b = op2(g, "AssignVariableOp", "b/Assign", m.b, CF(g, "b/init", D(0), 0, 0));
  TF_Operation* rw = read_var(g, "w/read", m.w);
  TF_Operation* rb = read_var(g, "b/read", m.b);
  TF_Operation* pred = op2(g, "AddV2", "pred", op2(g, "Mul", "xw", x, rw), rb);
  TF_Operation* sq = op1(g, "Square", "sq", op2(g, "Sub", "err", pred, y));
  m.loss = op2(g, "Mean", "loss", sq, CI(g, "axes", D(1), 1, 0));
  TF_Output ys[1] = {{m.loss, 0}}, xs[2] = {{rw, 0}, {rb, 0}}, grads[2];
  TF_AddGradients(g, ys, 1, xs, 2, NULL, S, grads);
  CHECK_OK(S);
  TF_Operation* lr = CF(g, "lr", D(0), 0, 0.1f);
  m.train_w = apply_gd(g, "train/w", m.w, lr, grads[0]);
  m.train_b = apply_gd(g, "train/b", m.b, lr, grads[1]);
  CHECK_OK(S);
  return m;
}

static float fetch_scalar(TF_Session* sess, TF_Operation* op) {
  TF_Output o = {op, 0};
  TF_Tensor* t = NULL;
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &o, &t, 1, NULL, 0, NULL, S);
  CHECK_OK(S);
  const float v = t ? *(const float*)TF_TensorData(t) : NAN;
  if (t) TF_DeleteTensor(t);
  return v;
}

static void run_targets(TF_Session* sess, TF_Operation** targets, int n) {
  TF_SessionRun(sess, NULL, NULL, NULL, 0, NULL, NULL, 0, (const TF_Operation* const*)targets, n,
                NULL, S);
  CHECK_OK(S);
}

static void test_linear_regression(void) {
  model m = build();
  TF_Session* sess = TF_NewSession(m.g, NULL, S);
  CHECK_OK(S);
  run_targets(sess, (TF_Operation*[]){m.init_w, m.init_b}, 2);
  /* At w = b = 0: loss = mean(y^2) = (1 + 9 + 25 + 49) / 4 = 21; d/dw = mean(-2 y x) = -17,
   * d/db = mean(-2 y) = -8; one step of lr 0.1 gives w = 1.7, b = 0.8. */
  CHECK(fetch_scalar(sess, m.loss) == 21.0f);
  run_targets(sess, (TF_Operation*[]){m.train_w, m.train_b}, 2);
  CHECK(fabsf(fetch_scalar(sess, read_var(m.g, "w/read2", m.w)) - 1.7f) < 1e-6f);
  CHECK(fabsf(fetch_scalar(sess, read_var(m.g, "b/read2", m.b)) - 0.8f) < 1e-6f);
  for (int i = 0; i < 999 && ctest_fail == 0; i++)
    run_targets(sess, (TF_Operation*[]){m.train_w, m.train_b}, 2);
  /* The data lie on y = 2 x + 1: gradient descent converges to it. */
  CHECK(fabsf(fetch_scalar(sess, read_var(m.g, "w/read3", m.w)) - 2.0f) < 1e-4f);
  CHECK(fabsf(fetch_scalar(sess, read_var(m.g, "b/read3", m.b)) - 1.0f) < 1e-4f);
  CHECK(fetch_scalar(sess, m.loss) < 1e-8f);
  TF_CloseSession(sess, S);
  TF_DeleteSession(sess, S);
  TF_DeleteGraph(m.g);
}

/* A ref variable (VariableV2) and its momentum slot updated by ApplyMomentum, whose output is
 * the updated variable: accum = 0.5 accum + g, var -= 0.1 accum. */
static void test_ref_momentum(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* vars[2];
  const char* names[2] = {"v", "accum"};
  for (int i = 0; i < 2; i++) {
    TF_OperationDescription* d = TF_NewOperation(g, "VariableV2", names[i]);
    TF_SetAttrType(d, "dtype", TF_FLOAT);
    TF_SetAttrShape(d, "shape", D(2), 1);
    vars[i] = TF_FinishOperation(d, S);
  }
  TF_Operation* init_v = op2(g, "Assign", "v/Assign", vars[0], CF(g, "v0", D(2), 1, 1, -1));
  TF_Operation* init_a = op2(g, "Assign", "a/Assign", vars[1], CF(g, "a0", D(2), 1, 0, 0));
  TF_OperationDescription* d = TF_NewOperation(g, "ApplyMomentum", "step");
  TF_AddInput(d, (TF_Output){vars[0], 0});
  TF_AddInput(d, (TF_Output){vars[1], 0});
  TF_AddInput(d, (TF_Output){CF(g, "lr", D(0), 0, 0.1f), 0});
  TF_AddInput(d, (TF_Output){CF(g, "grad", D(2), 1, 2, 4), 0});
  TF_AddInput(d, (TF_Output){CF(g, "momentum", D(0), 0, 0.5f), 0});
  TF_Operation* step = TF_FinishOperation(d, S);
  CHECK_OK(S);
  TF_Session* sess = TF_NewSession(g, NULL, S);
  run_targets(sess, (TF_Operation*[]){init_v, init_a}, 2);
  TF_Output out = {step, 0};
  TF_Tensor* t = NULL;
  for (int i = 0; i < 2; i++) {
    if (t) TF_DeleteTensor(t);
    t = NULL;
    TF_SessionRun(sess, NULL, NULL, NULL, 0, &out, &t, 1, NULL, 0, NULL, S);
    CHECK_OK(S);
  }
  /* step 1: accum = [2, 4], v = [0.8, -1.4]; step 2: accum = [3, 6], v = [0.5, -2.0] */
  CHECK(floats_are(t, 2, (float[]){0.5f, -2.0f}, 1e-6));
  TF_DeleteTensor(t);
  TF_CloseSession(sess, S);
  TF_DeleteSession(sess, S);
  TF_DeleteGraph(g);
}

int main(void) {
  S = TF_NewStatus();
  test_linear_regression();
  test_ref_momentum();
  TF_DeleteStatus(S);
  CTEST_END();
}
