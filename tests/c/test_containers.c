/* The control-flow containers through the C API, for their lifetimes: a
 * TensorArray (TensorArrayV3 + writes + gather, and its gradient array),
 * a TensorList (variant tensors shared between consumers, one fetched by
 * the caller) and a Stack left non-empty are all freed when the step ends
 * or the last handle goes; the ASan build (make asan-ctest, detect_leaks=1)
 * fails on any leak. Values worked by hand; errors in TensorFlow 2.21's words. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctest_graph.h"

static TF_Operation* ta_v3(TF_Graph* g, const char* name, int size) {
  TF_OperationDescription* d = TF_NewOperation(g, "TensorArrayV3", name);
  TF_AddInput(d, (TF_Output){CI(g, "size", D(0), 0, size), 0});
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  return TF_FinishOperation(d, S);
}

static TF_Operation* ta_write(TF_Graph* g, const char* name, TF_Operation* ta, TF_Output flow,
                              int index, TF_Operation* value) {
  char iname[128];
  snprintf(iname, sizeof iname, "%s/index", name);
  TF_OperationDescription* d = TF_NewOperation(g, "TensorArrayWriteV3", name);
  TF_AddInput(d, (TF_Output){ta, 0});
  TF_AddInput(d, (TF_Output){CI(g, iname, D(0), 0, index), 0});
  TF_AddInput(d, (TF_Output){value, 0});
  TF_AddInput(d, flow);
  return TF_FinishOperation(d, S);
}

static TF_Operation* ta_gather(TF_Graph* g, TF_Operation* ta, TF_Operation* flow) {
  TF_OperationDescription* d = TF_NewOperation(g, "TensorArrayGatherV3", "gather");
  TF_AddInput(d, (TF_Output){ta, 0});
  TF_AddInput(d, (TF_Output){CI(g, "indices", D(2), 1, 1, 0), 0});
  TF_AddInput(d, (TF_Output){flow, 0});
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  return TF_FinishOperation(d, S);
}

/* Runs `fetch` `n` times in one session (a TensorArray per step). */
static TF_Tensor* run_n(TF_Graph* g, TF_Operation* fetch, int n) {
  TF_Session* sess = TF_NewSession(g, NULL, S);
  TF_Tensor* out = NULL;
  TF_Output f = {fetch, 0};
  for (int i = 0; i < n && TF_GetCode(S) == TF_OK; i++) {
    TF_DeleteTensor(out);
    out = NULL;
    TF_SessionRun(sess, NULL, NULL, NULL, 0, &f, &out, 1, NULL, 0, NULL, S);
  }
  TF_Status* s2 = TF_NewStatus();
  TF_CloseSession(sess, s2);
  TF_DeleteSession(sess, s2);
  TF_DeleteStatus(s2);
  return out;
}

static void test_tensor_array_per_step(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* ta = ta_v3(g, "ta", 2);
  TF_Operation* w0 = ta_write(g, "w0", ta, (TF_Output){ta, 1}, 0, CF(g, "a", D(2), 1, 1, 2));
  TF_Operation* w1 = ta_write(g, "w1", ta, (TF_Output){w0, 0}, 1, CF(g, "b", D(2), 1, 3, 4));
  TF_Operation* gather = ta_gather(g, ta, w1);
  CHECK_OK(S);
  CHECK(static_shape_is(g, ta, 1, D(2))); /* the v3 handle is a [2] vector statically */
  TF_Tensor* t = run_n(g, gather, 3);     /* three steps, three arrays, all freed */
  CHECK_OK(S);
  CHECK(shape_is(t, 2, D(2, 2)) && FLOATS(t, 0, 3, 4, 1, 2));
  TF_DeleteTensor(t);
  /* writing index 0 twice: TensorFlow's words, the node named */
  TF_Operation* again = ta_write(g, "again", ta, (TF_Output){w1, 0}, 0, CF(g, "c", D(2), 1, 5, 6));
  t = run(g, again);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "because it has already been written to.");
  CHECK_STR_CONTAINS(TF_Message(S), "{{node again}}");
  TF_DeleteGraph(g);
}

static void test_gradient_array_lives_with_its_array(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* ta = ta_v3(g, "ta", 1);
  TF_Operation* w = ta_write(g, "w", ta, (TF_Output){ta, 1}, 0, CF(g, "a", D(1), 1, 1));
  TF_OperationDescription* d = TF_NewOperation(g, "TensorArrayGradV3", "grad");
  TF_AddInput(d, (TF_Output){ta, 0});
  TF_AddInput(d, (TF_Output){w, 0});
  TF_SetAttrString(d, "source", "gradients", 9);
  TF_Operation* grad = TF_FinishOperation(d, S);
  /* two writes to one index of a gradient array add up */
  TF_Operation* g0 = ta_write(g, "g0", grad, (TF_Output){grad, 1}, 0, CF(g, "d1", D(1), 1, 2));
  TF_Operation* g1 = ta_write(g, "g1", grad, (TF_Output){g0, 0}, 0, CF(g, "d2", D(1), 1, 5));
  d = TF_NewOperation(g, "TensorArrayReadV3", "read");
  TF_AddInput(d, (TF_Output){grad, 0});
  TF_AddInput(d, (TF_Output){CI(g, "i", D(0), 0, 0), 0});
  TF_AddInput(d, (TF_Output){g1, 0});
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_Operation* read = TF_FinishOperation(d, S);
  CHECK_OK(S);
  TF_Tensor* t = run_n(g, read, 2);
  CHECK_OK(S);
  CHECK(FLOATS(t, 0, 7));
  TF_DeleteTensor(t);
  TF_DeleteGraph(g);
}

static void test_list_fetched_and_shared(void) {
  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d = TF_NewOperation(g, "TensorListFromTensor", "l0");
  TF_AddInput(d, (TF_Output){CF(g, "x", D(2, 1), 2, 1, 2), 0});
  TF_AddInput(d, (TF_Output){CI(g, "es", D(1), 1, 1), 0});
  TF_Operation* l0 = TF_FinishOperation(d, S);
  d = TF_NewOperation(g, "TensorListPushBack", "l1");
  TF_AddInput(d, (TF_Output){l0, 0});
  TF_AddInput(d, (TF_Output){CF(g, "y", D(1), 1, 3), 0});
  TF_Operation* l1 = TF_FinishOperation(d, S);
  d = TF_NewOperation(g, "TensorListLength", "n");
  TF_AddInput(d, (TF_Output){l1, 0});
  TF_Operation* n = TF_FinishOperation(d, S);
  CHECK_OK(S);
  TF_Session* sess = TF_NewSession(g, NULL, S);
  TF_Output fetch[3] = {{l0, 0}, {l1, 0}, {n, 0}};
  TF_Tensor* out[3] = {NULL, NULL, NULL};
  TF_SessionRun(sess, NULL, NULL, NULL, 0, fetch, out, 3, NULL, 0, NULL, S);
  CHECK_OK(S);
  CHECK(out[0] && TF_TensorType(out[0]) == TF_VARIANT && TF_NumDims(out[0]) == 0);
  CHECK(INTS_ARE(out[2], TF_INT32, int32_t, 3));
  TF_Status* s2 = TF_NewStatus();
  TF_CloseSession(sess, s2);
  TF_DeleteSession(sess, s2);
  TF_DeleteStatus(s2);
  for (int i = 0; i < 3; i++) TF_DeleteTensor(out[i]); /* the lists go with the tensors */
  TF_DeleteGraph(g);
}

static void test_stack_left_full(void) {
  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d = TF_NewOperation(g, "StackV2", "st");
  TF_AddInput(d, (TF_Output){CI(g, "max", D(0), 0, -1), 0});
  TF_SetAttrType(d, "elem_type", TF_FLOAT);
  TF_Operation* st = TF_FinishOperation(d, S);
  TF_Operation* p1 = op2(g, "StackPushV2", "p1", st, CF(g, "a", D(1), 1, 1));
  d = desc(g, "StackPushV2", "p2", st, CF(g, "b", D(1), 1, 2));
  TF_AddControlInput(d, p1);
  TF_Operation* p2 = TF_FinishOperation(d, S);
  d = TF_NewOperation(g, "StackPopV2", "pop");
  TF_AddInput(d, (TF_Output){st, 0});
  TF_AddControlInput(d, p2);
  TF_SetAttrType(d, "elem_type", TF_FLOAT);
  TF_Operation* pop = TF_FinishOperation(d, S);
  CHECK_OK(S);
  TF_Tensor* t = run_n(g, pop, 2); /* [1] stays on each step's stack */
  CHECK_OK(S);
  CHECK(FLOATS(t, 0, 2));
  TF_DeleteTensor(t);
  TF_DeleteGraph(g);
}

int main(void) {
  S = TF_NewStatus();
  test_tensor_array_per_step();
  test_gradient_array_lives_with_its_array();
  test_list_fetched_and_shared();
  test_stack_left_full();
  TF_DeleteStatus(S);
  CTEST_END();
}
