/* Partial runs (TF_SessionPRunSetup / TF_SessionPRun / TF_DeletePRunHandle):
 * one execution spread over several calls, each node run at most once;
 * errors worded as TensorFlow's DirectSession::PRun. Values by hand. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctest_graph.h"

static float scalar_of(TF_Tensor* t) { return *(float*)TF_TensorData(t); }

/* One step fetching `fetch` (may be NULL) with feeds; returns the fetched
 * tensor (caller deletes) or NULL. */
static TF_Tensor* step(TF_Session* sess, const char* h, int nfeeds, TF_Operation** fops,
                       TF_Tensor** fvals, TF_Operation* fetch, TF_Operation* target) {
  TF_Output feeds[4];
  for (int k = 0; k < nfeeds; k++) feeds[k] = (TF_Output){fops[k], 0};
  TF_Output out = {fetch, 0};
  TF_Tensor* value = NULL;
  const TF_Operation* targets[1] = {target};
  TF_SessionPRun(sess, h, feeds, fvals, nfeeds, &out, &value, fetch ? 1 : 0, targets,
                 target ? 1 : 0, S);
  return value;
}

static void test_stateful_op_runs_once(void) {
  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d = TF_NewOperation(g, "RandomUniform", "r");
  TF_AddInput(d, (TF_Output){CI(g, "shape", D(1), 1, 4), 0});
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_Operation* r = TF_FinishOperation(d, S);
  TF_Operation* b = op2(g, "AddV2", "b", r, CF(g, "one", NULL, 0, 1));
  TF_Operation* c = op2(g, "Mul", "c", r, CF(g, "two", NULL, 0, 2));
  CHECK_OK(S);
  TF_Session* sess = TF_NewSession(g, NULL, S);
  TF_Output fetches[3] = {{b, 0}, {c, 0}, {r, 0}};
  const char* h = NULL;
  TF_SessionPRunSetup(sess, NULL, 0, fetches, 3, NULL, 0, &h, S);
  CHECK_OK(S);
  CHECK(h != NULL);
  TF_Tensor* tb = step(sess, h, 0, NULL, NULL, b, NULL);
  CHECK_OK(S);
  TF_Tensor* tc = step(sess, h, 0, NULL, NULL, c, NULL);
  CHECK_OK(S);
  TF_Tensor* tr = step(sess, h, 0, NULL, NULL, r, NULL);
  CHECK_OK(S);
  /* one draw of r behind all three fetches */
  const float *vb = TF_TensorData(tb), *vc = TF_TensorData(tc), *vr = TF_TensorData(tr);
  for (int i = 0; i < 4; i++) {
    CHECK(vb[i] == vr[i] + 1.0f);
    CHECK(vc[i] == vr[i] * 2.0f);
  }
  /* everything fetched: the partial run is over */
  CHECK(step(sess, h, 0, NULL, NULL, b, NULL) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK(strcmp(TF_Message(S), "Must run 'setup' before performing partial runs!") == 0);
  TF_DeleteTensor(tb);
  TF_DeleteTensor(tc);
  TF_DeleteTensor(tr);
  TF_DeletePRunHandle(h);
  TF_DeleteSession(sess, S);
  TF_DeleteGraph(g);
}

static void test_feeds_across_calls_and_errors(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* a = ph(g, "a", TF_FLOAT, NULL, 0);
  TF_Operation* b = ph(g, "b", TF_FLOAT, NULL, 0);
  TF_Operation* c = ph(g, "c", TF_FLOAT, NULL, 0);
  TF_Operation* r1 = op2(g, "AddV2", "r1", a, b);
  TF_Operation* r2 = op2(g, "Mul", "r2", r1, c);
  CHECK_OK(S);
  TF_Session* sess = TF_NewSession(g, NULL, S);
  TF_Output feeds[3] = {{a, 0}, {b, 0}, {c, 0}}, fetches[2] = {{r1, 0}, {r2, 0}};
  const char* h = NULL;
  TF_SessionPRunSetup(sess, feeds, 3, fetches, 2, NULL, 0, &h, S);
  CHECK_OK(S);
  TF_Tensor* one = tensor(TF_FLOAT, NULL, 0, (float[]){1});
  TF_Tensor* two = tensor(TF_FLOAT, NULL, 0, (float[]){2});
  TF_Tensor* three = tensor(TF_FLOAT, NULL, 0, (float[]){3});
  /* r2 needs c, not fed yet: the state is left as it was */
  CHECK(step(sess, h, 1, (TF_Operation*[]){a}, (TF_Tensor*[]){one}, r2, NULL) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK(strcmp(TF_Message(S),
               "Fetch c:0 can't be computed from the feeds that have been fed so far.") == 0);
  TF_Tensor* t = step(sess, h, 2, (TF_Operation*[]){a, b}, (TF_Tensor*[]){one, two}, r1, NULL);
  CHECK_OK(S);
  CHECK(t && scalar_of(t) == 3.0f);
  TF_DeleteTensor(t);
  CHECK(step(sess, h, 1, (TF_Operation*[]){a}, (TF_Tensor*[]){one}, r2, NULL) == NULL);
  CHECK(strcmp(TF_Message(S), "The feed a:0 has already been fed.") == 0);
  CHECK(step(sess, h, 1, (TF_Operation*[]){c}, (TF_Tensor*[]){three}, r1, NULL) == NULL);
  CHECK(strcmp(TF_Message(S), "The fetch r1:0 has already been fetched.") == 0);
  CHECK(step(sess, h, 1, (TF_Operation*[]){r1}, (TF_Tensor*[]){three}, r2, NULL) == NULL);
  CHECK(strcmp(TF_Message(S), "The feed r1:0 was not specified in partial_run_setup.") == 0);
  CHECK(step(sess, h, 0, NULL, NULL, a, NULL) == NULL);
  CHECK(strcmp(TF_Message(S), "The fetch a:0 was not specified in partial_run_setup.") == 0);
  CHECK(step(sess, h, 0, NULL, NULL, NULL, r1) == NULL);
  CHECK(strcmp(TF_Message(S), "The target r1 was not specified in partial_run_setup.") == 0);
  TF_Tensor* wrong = tensor(TF_INT32, NULL, 0, (int32_t[]){3});
  CHECK(step(sess, h, 1, (TF_Operation*[]){c}, (TF_Tensor*[]){wrong}, r2, NULL) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  TF_DeleteTensor(wrong);
  t = step(sess, h, 1, (TF_Operation*[]){c}, (TF_Tensor*[]){three}, r2, NULL);
  CHECK_OK(S);
  CHECK(t && scalar_of(t) == 9.0f);
  TF_DeleteTensor(t);
  TF_DeletePRunHandle(h);
  CHECK(step(sess, "bogus", 0, NULL, NULL, r1, NULL) == NULL);
  CHECK(strcmp(TF_Message(S), "Must run 'setup' before performing partial runs!") == 0);
  /* both fed and fetched */
  h = (const char*)1;
  TF_SessionPRunSetup(sess, feeds, 1, feeds, 1, NULL, 0, &h, S);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK(strcmp(TF_Message(S), "a:0 is both fed and fetched.") == 0);
  CHECK(h == NULL);
  /* nothing declared as fed: the placeholder fails and ends the run */
  TF_SessionPRunSetup(sess, NULL, 0, fetches, 1, NULL, 0, &h, S);
  CHECK_OK(S);
  CHECK(step(sess, h, 0, NULL, NULL, r1, NULL) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "You must feed a value for placeholder tensor 'a'");
  CHECK(step(sess, h, 0, NULL, NULL, r1, NULL) == NULL);
  CHECK(strcmp(TF_Message(S), "Must run 'setup' before performing partial runs!") == 0);
  TF_DeletePRunHandle(h);
  /* a live partial run holding a fed tensor: deleting the handle frees it,
   * and so does closing the session */
  TF_SessionPRunSetup(sess, feeds, 3, fetches, 2, NULL, 0, &h, S);
  CHECK_OK(S);
  step(sess, h, 1, (TF_Operation*[]){a}, (TF_Tensor*[]){one}, NULL, NULL);
  CHECK_OK(S);
  TF_DeletePRunHandle(h);
  TF_SessionPRunSetup(sess, feeds, 3, fetches, 2, NULL, 0, &h, S);
  step(sess, h, 1, (TF_Operation*[]){a}, (TF_Tensor*[]){one}, NULL, NULL);
  CHECK_OK(S);
  TF_CloseSession(sess, S);
  CHECK(step(sess, h, 0, NULL, NULL, r1, NULL) == NULL);
  CHECK_CODE(S, TF_FAILED_PRECONDITION);
  TF_DeletePRunHandle(h);
  TF_DeleteTensor(one);
  TF_DeleteTensor(two);
  TF_DeleteTensor(three);
  TF_DeleteSession(sess, S);
  TF_DeleteGraph(g);
}

static void test_target_runs_once(void) {
  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d = TF_NewOperation(g, "VarHandleOp", "v");
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_SetAttrShape(d, "shape", D(2), 1);
  TF_SetAttrString(d, "shared_name", "v", 1);
  TF_Operation* v = TF_FinishOperation(d, S);
  d = desc(g, "AssignVariableOp", "init", v, CF(g, "init_val", D(2), 1, 1.5f, -2));
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_Operation* init = TF_FinishOperation(d, S);
  d = desc(g, "ReadVariableOp", "read", v, NULL);
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_Operation* read = TF_FinishOperation(d, S);
  d = desc(g, "AssignVariableOp", "double", v,
           op2(g, "Mul", "twice", read, CF(g, "two", NULL, 0, 2)));
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_Operation* dbl = TF_FinishOperation(d, S);
  TF_Operation* a = ph(g, "a", TF_FLOAT, NULL, 0);
  TF_Operation* b = ph(g, "b", TF_FLOAT, NULL, 0);
  TF_Operation* x1 = op2(g, "AddV2", "x1", a, CF(g, "one", NULL, 0, 1));
  TF_Operation* x2 = op2(g, "AddV2", "x2", b, CF(g, "one_", NULL, 0, 1));
  CHECK_OK(S);
  TF_Session* sess = TF_NewSession(g, NULL, S);
  const TF_Operation* init_t[1] = {init};
  TF_SessionRun(sess, NULL, NULL, NULL, 0, NULL, NULL, 0, init_t, 1, NULL, S);
  CHECK_OK(S);
  TF_Output feeds[2] = {{a, 0}, {b, 0}}, fetches[2] = {{x1, 0}, {x2, 0}};
  const TF_Operation* targets[1] = {dbl};
  const char* h = NULL;
  TF_SessionPRunSetup(sess, feeds, 2, fetches, 2, targets, 1, &h, S);
  CHECK_OK(S);
  TF_Tensor* five = tensor(TF_FLOAT, NULL, 0, (float[]){5});
  TF_Tensor* t = step(sess, h, 1, (TF_Operation*[]){a}, (TF_Tensor*[]){five}, x1, dbl);
  CHECK_OK(S);
  CHECK(t && scalar_of(t) == 6.0f);
  TF_DeleteTensor(t);
  t = step(sess, h, 1, (TF_Operation*[]){b}, (TF_Tensor*[]){five}, x2, dbl);
  CHECK_OK(S);
  CHECK(t && scalar_of(t) == 6.0f);
  TF_DeleteTensor(t);
  TF_DeletePRunHandle(h);
  TF_Output fr = {read, 0};
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &fr, &t, 1, NULL, 0, NULL, S);
  CHECK_OK(S);
  /* doubled once over the two steps */
  CHECK(t && ((float*)TF_TensorData(t))[0] == 3.0f && ((float*)TF_TensorData(t))[1] == -4.0f);
  TF_DeleteTensor(t);
  TF_DeleteTensor(five);
  TF_DeleteSession(sess, S);
  TF_DeleteGraph(g);
}

int main(void) {
  S = TF_NewStatus();
  test_stateful_op_runs_once();
  test_feeds_across_calls_and_errors();
  test_target_runs_once();
  TF_DeleteStatus(S);
  CTEST_END();
}
