/* Variables through the C API as a libtensorflow program writes them: a
 * resource-variable "train step" (VarHandleOp, AssignVariableOp init,
 * AssignAddVariableOp as the target, run N times, read back) and the same
 * with ref variables (VariableV2, Assign, AssignAdd, ScatterAdd, Identity
 * reads). Values worked by hand; error codes and words as TensorFlow 2.21. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctest_graph.h"

static TF_Session* new_session(TF_Graph* g) { return TF_NewSession(g, NULL, S); }

static void close_session(TF_Session* s) {
  TF_Status* st = TF_NewStatus();
  TF_CloseSession(s, st);
  TF_DeleteSession(s, st);
  TF_DeleteStatus(st);
}

/* Runs `target` (may be NULL) and fetches output 0 of `fetch` (may be NULL). */
static TF_Tensor* run_step(TF_Session* s, TF_Operation* fetch, TF_Operation* target) {
  TF_Output out = {fetch, 0};
  TF_Tensor* value = NULL;
  const TF_Operation* targets[1] = {target};
  TF_SessionRun(s, NULL, NULL, NULL, 0, &out, &value, fetch ? 1 : 0, targets, target ? 1 : 0,
                NULL, S);
  return value;
}

static TF_Operation* var_handle(TF_Graph* g, const char* name, const int64_t* dims, int nd) {
  TF_OperationDescription* d = TF_NewOperation(g, "VarHandleOp", name);
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_SetAttrShape(d, "shape", dims, nd);
  TF_SetAttrString(d, "shared_name", name, strlen(name));
  return TF_FinishOperation(d, S);
}

static TF_Operation* read_var(TF_Graph* g, const char* name, TF_Operation* h) {
  TF_OperationDescription* d = TF_NewOperation(g, "ReadVariableOp", name);
  TF_AddInput(d, (TF_Output){h, 0});
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  return TF_FinishOperation(d, S);
}

static void test_resource_train_step(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* w = var_handle(g, "w", D(2), 1);
  TF_Operation* init = op2(g, "AssignVariableOp", "w/Assign", w, CF(g, "w/init", D(2), 1, 1, 2));
  /* w += lr * grad, with lr * grad = 0.5 * [1, -2] */
  TF_Operation* delta = op2(g, "Mul", "delta", CF(g, "lr", D(0), 0, 0.5f),
                            CF(g, "grad", D(2), 1, 1, -2));
  TF_Operation* step = op2(g, "AssignAddVariableOp", "step", w, delta);
  TF_Operation* read = read_var(g, "w/read", w);
  CHECK_OK(S);
  CHECK(TF_OperationOutputType((TF_Output){w, 0}) == TF_RESOURCE);
  TF_Session* s = new_session(g);
  /* reading before the initializer ran: FailedPrecondition, TF's words */
  TF_Tensor* t = run_step(s, read, NULL);
  CHECK_CODE(S, TF_FAILED_PRECONDITION);
  CHECK_STR_CONTAINS(TF_Message(S), "Could not find variable w. This could mean that the "
                                    "variable has been deleted. In TF1, it can also mean the "
                                    "variable is uninitialized.");
  CHECK(t == NULL);
  run_step(s, NULL, init);
  CHECK_OK(S);
  for (int k = 0; k < 10; k++) run_step(s, NULL, step);
  CHECK_OK(S);
  t = run_step(s, read, NULL);
  CHECK_OK(S);
  CHECK(FLOATS(t, 0, 6, -8)); /* [1, 2] + 10 * [0.5, -1] */
  TF_DeleteTensor(t);
  /* an update of the wrong shape fails naming the node, the value stays */
  /* known statically: refused at construction, as TensorFlow's shape function */
  op2(g, "AssignAddVariableOp", "bad_static", w, CF(g, "three", D(3), 1, 1, 1, 1));
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  TF_Operation* x = ph(g, "x", TF_FLOAT, NULL, -1);
  TF_Operation* bad = op2(g, "AssignAddVariableOp", "bad", w, x);
  CHECK_OK(S);
  TF_Output xin = {x, 0};
  TF_Tensor* three = tensor(TF_FLOAT, D(3), 1, (float[]){1, 1, 1});
  const TF_Operation* targets[1] = {bad};
  TF_SessionRun(s, NULL, &xin, &three, 1, NULL, NULL, 0, targets, 1, NULL, S);
  TF_DeleteTensor(three);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "Cannot update variable with shape [2] using a Tensor with "
                                    "shape [3], shapes must be equal.");
  CHECK_STR_CONTAINS(TF_Message(S), "{{node bad}}");
  t = run_step(s, read, NULL);
  CHECK(FLOATS(t, 0, 6, -8));
  TF_DeleteTensor(t);
  close_session(s);
  /* state lives in the session: a new one starts uninitialized */
  s = new_session(g);
  run_step(s, read, NULL);
  CHECK_CODE(S, TF_FAILED_PRECONDITION);
  close_session(s);
  TF_DeleteGraph(g);
}

static TF_Operation* variable_v2(TF_Graph* g, const char* name, const int64_t* dims, int nd) {
  TF_OperationDescription* d = TF_NewOperation(g, "VariableV2", name);
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_SetAttrShape(d, "shape", dims, nd);
  return TF_FinishOperation(d, S);
}

static void test_ref_variable_graph(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* v = variable_v2(g, "v", D(3), 1);
  TF_Operation* assign = op2(g, "Assign", "v/Assign", v, CF(g, "v/initial_value", D(3), 1, 1, 2, 3));
  TF_Operation* read = op1(g, "Identity", "v/read", v);
  TF_Operation* add = op2(g, "AssignAdd", "add", v, CF(g, "one", D(3), 1, 1, 1, 1));
  TF_OperationDescription* d = TF_NewOperation(g, "ScatterAdd", "scatter");
  TF_AddInput(d, (TF_Output){v, 0});
  TF_AddInput(d, (TF_Output){CI(g, "idx", D(3), 1, 0, 2, 0), 0});
  TF_AddInput(d, (TF_Output){CF(g, "upd", D(3), 1, 10, 20, 30), 0});
  TF_Operation* scatter = TF_FinishOperation(d, S);
  /* a non-ref consumer of the AssignAdd output reads the value after it */
  TF_Operation* twice = op2(g, "Mul", "twice", add, CF(g, "two", D(0), 0, 2));
  CHECK_OK(S);
  /* ref outputs report TensorFlow's ref dtypes (DT_FLOAT_REF = 101) */
  CHECK(TF_OperationOutputType((TF_Output){v, 0}) == (TF_DataType)(TF_FLOAT + 100));
  CHECK(TF_OperationOutputType((TF_Output){add, 0}) == (TF_DataType)(TF_FLOAT + 100));
  CHECK(TF_OperationInputType((TF_Input){assign, 0}) == (TF_DataType)(TF_FLOAT + 100));
  CHECK(TF_OperationInputType((TF_Input){read, 0}) == TF_FLOAT);
  CHECK(TF_OperationOutputType((TF_Output){read, 0}) == TF_FLOAT);
  CHECK(static_shape_is(g, add, 1, D(3)));

  TF_Session* s = new_session(g);
  TF_Tensor* t = run_step(s, read, NULL);
  CHECK_CODE(S, TF_FAILED_PRECONDITION);
  CHECK_STR_CONTAINS(TF_Message(S), "Attempting to use uninitialized value v");
  t = run_step(s, add, NULL);
  CHECK_CODE(S, TF_FAILED_PRECONDITION);
  CHECK_STR_CONTAINS(TF_Message(S), "{{node add}}");
  t = run_step(s, v, assign); /* fetching the ref gives its value */
  CHECK_OK(S);
  CHECK(FLOATS(t, 0, 1, 2, 3));
  TF_DeleteTensor(t);
  for (int k = 0; k < 3; k++) run_step(s, NULL, add);
  t = run_step(s, read, NULL);
  CHECK(FLOATS(t, 0, 4, 5, 6));
  TF_DeleteTensor(t);
  /* duplicates accumulate: v[0] += 10 + 30, v[2] += 20 */
  t = run_step(s, scatter, NULL);
  CHECK_OK(S);
  CHECK(FLOATS(t, 0, 44, 5, 26));
  TF_DeleteTensor(t);
  t = run_step(s, twice, NULL);
  CHECK_OK(S);
  CHECK(FLOATS(t, 0, 90, 12, 54)); /* 2 * ([44, 5, 26] + 1) */
  TF_DeleteTensor(t);
  /* two reads with no update between share the variable's buffer (no copy) */
  TF_Tensor* a = run_step(s, read, NULL);
  TF_Tensor* b = run_step(s, v, NULL);
  CHECK(a && b && TF_TensorData(a) == TF_TensorData(b));
  CHECK(FLOATS(b, 0, 45, 6, 27));
  /* an update copies first when a fetched value still holds the buffer */
  run_step(s, NULL, add);
  CHECK(FLOATS(a, 0, 45, 6, 27));
  TF_DeleteTensor(a);
  TF_DeleteTensor(b);
  t = run_step(s, read, NULL);
  CHECK(FLOATS(t, 0, 46, 7, 28));
  TF_DeleteTensor(t);
  /* bad index: InvalidArgument naming the node, TF's words */
  d = TF_NewOperation(g, "ScatterAdd", "bad_scatter");
  TF_AddInput(d, (TF_Output){v, 0});
  TF_AddInput(d, (TF_Output){CI(g, "idx9", D(1), 1, 9), 0});
  TF_AddInput(d, (TF_Output){CF(g, "upd1", D(1), 1, 1), 0});
  TF_Operation* bad = TF_FinishOperation(d, S);
  CHECK_OK(S);
  run_step(s, NULL, bad);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "indices[0] = 9 is not in [0, 3)");
  CHECK_STR_CONTAINS(TF_Message(S), "{{node bad_scatter}}");
  close_session(s);
  TF_DeleteGraph(g);
}

static void test_ref_input_needs_a_ref(void) {
  TF_Graph* g = TF_NewGraph();
  op2(g, "Assign", "a", CF(g, "c", D(1), 1, 1), CF(g, "x", D(1), 1, 2));
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "float_ref");
  TF_DeleteGraph(g);
}

static void test_count_up_to(void) {
  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d = TF_NewOperation(g, "VariableV2", "c");
  TF_SetAttrType(d, "dtype", TF_INT32);
  TF_SetAttrShape(d, "shape", NULL, 0);
  TF_Operation* c = TF_FinishOperation(d, S);
  TF_Operation* init = op2(g, "Assign", "c/Assign", c, CI(g, "zero", D(0), 0, 0));
  d = TF_NewOperation(g, "CountUpTo", "count");
  TF_AddInput(d, (TF_Output){c, 0});
  TF_SetAttrInt(d, "limit", 2);
  TF_Operation* count = TF_FinishOperation(d, S);
  CHECK_OK(S);
  TF_Session* s = new_session(g);
  run_step(s, NULL, init);
  TF_Tensor* t0 = run_step(s, count, NULL);
  TF_Tensor* t1 = run_step(s, count, NULL);
  CHECK(INTS_ARE(t0, TF_INT32, int32_t, 0));
  CHECK(INTS_ARE(t1, TF_INT32, int32_t, 1));
  TF_DeleteTensor(t0);
  TF_DeleteTensor(t1);
  run_step(s, count, NULL);
  CHECK_CODE(S, TF_OUT_OF_RANGE);
  CHECK_STR_CONTAINS(TF_Message(S), "Reached limit of 2");
  close_session(s);
  TF_DeleteGraph(g);
}

int main(void) {
  S = TF_NewStatus();
  test_resource_train_step();
  test_ref_variable_graph();
  test_ref_input_needs_a_ref();
  test_count_up_to();
  TF_DeleteStatus(S);
  CTEST_END();
}
