/* Functions through the C API: TF_GraphToFunction, TF_GraphCopyFunction,
 * FunctionDef round trips, PartitionedCall / StatelessIf / StatelessWhile
 * calling them, and the errors for bad libraries. Values worked by hand. */
#include "ctest_graph.h"
#include "tensorflow/c/python_api.h"

/* f(a, b) = a * b + a, built in its own graph. */
static TF_Function* make_fma(const char* name) {
  TF_Graph* body = TF_NewGraph();
  TF_Operation* a = ph(body, "A", TF_FLOAT, NULL, -1);
  TF_Operation* b = ph(body, "b/in", TF_FLOAT, NULL, -1);
  TF_Operation* m = op2(body, "Mul", "mul", a, b);
  TF_Operation* s = op2(body, "AddV2", "out", m, a);
  TF_Output in[2] = {{a, 0}, {b, 0}}, out[1] = {{s, 0}};
  TF_Function* f = TF_GraphToFunction(body, name, 0, -1, NULL, 2, in, 1, out, NULL, NULL, "fma",
                                      S);
  CHECK_OK(S);
  TF_DeleteGraph(body);
  return f;
}

static TF_Operation* call(TF_Graph* g, const char* type, const char* name, const char* fn,
                          TF_Output* args, int nargs, TF_DataType tout) {
  TF_OperationDescription* d = TF_NewOperation(g, type, name);
  TF_AddInputList(d, args, nargs);
  TF_DataType tin[4] = {TF_FLOAT, TF_FLOAT, TF_FLOAT, TF_FLOAT};
  TF_SetAttrTypeList(d, "Tin", tin, nargs);
  TF_SetAttrTypeList(d, "Tout", &tout, 1);
  TF_SetAttrFuncName(d, "f", fn, strlen(fn));
  return TF_FinishOperation(d, S);
}

static void test_names_and_round_trip(void) {
  TF_Function* f = make_fma("fma");
  CHECK(strcmp(TF_FunctionName(f), "fma") == 0);
  TF_Buffer* buf = TF_NewBuffer();
  TF_FunctionToFunctionDef(f, buf, S);
  CHECK_OK(S);
  /* argument names: op names lowercased, '/' as '_'; the result named after its op */
  CHECK(memmem(buf->data, buf->length, "b_in", 4) != NULL);
  CHECK(memmem(buf->data, buf->length, "mul:z:0", 7) != NULL);
  CHECK(memmem(buf->data, buf->length, "out_0:z:0", 9) != NULL); /* node renamed past output "out" */
  TF_Function* g = TF_FunctionImportFunctionDef(buf->data, buf->length, S);
  CHECK_OK(S);
  TF_Buffer* again = TF_NewBuffer();
  TF_FunctionToFunctionDef(g, again, S);
  CHECK(again->length == buf->length && memcmp(again->data, buf->data, buf->length) == 0);
  TF_Function* bad = TF_FunctionImportFunctionDef("\xff\xff", 2, S);
  CHECK(bad == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  TF_DeleteBuffer(buf);
  TF_DeleteBuffer(again);
  TF_DeleteFunction(f);
  TF_DeleteFunction(g);
}

static void test_partitioned_call(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Function* f = make_fma("fma");
  TF_GraphCopyFunction(g, f, NULL, S);
  CHECK_OK(S);
  TF_GraphCopyFunction(g, f, NULL, S); /* the same definition again is fine */
  CHECK_OK(S);
  CHECK(TF_GraphNumFunctions(g) == 1);
  TF_Operation* x = CF(g, "x", D(2), 1, 2.0f, 3.0f);
  TF_Operation* y = CF(g, "y", D(2), 1, 10.0f, -1.0f);
  TF_Output args[2] = {{x, 0}, {y, 0}};
  TF_Operation* c = call(g, "PartitionedCall", "call", "fma", args, 2, TF_FLOAT);
  CHECK_OK(S);
  TF_Tensor* out = run(g, c);
  CHECK_OK(S);
  CHECK(floats_are(out, 2, (float[]){22.0f, 0.0f}, 0));
  TF_DeleteTensor(out);
  /* the library goes out with the GraphDef and comes back in */
  TF_Buffer* gd = TF_NewBuffer();
  TF_GraphToGraphDef(g, gd, S);
  TF_Graph* g2 = TF_NewGraph();
  TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
  TF_GraphImportGraphDef(g2, gd, o, S);
  CHECK_OK(S);
  CHECK(TF_GraphNumFunctions(g2) == 1);
  out = run(g2, TF_GraphOperationByName(g2, "call"));
  CHECK(floats_are(out, 2, (float[]){22.0f, 0.0f}, 0));
  TF_DeleteTensor(out);
  TF_Function* fns[2] = {NULL, NULL};
  CHECK(TF_GraphGetFunctions(g2, fns, 2, S) == 1);
  CHECK(strcmp(TF_FunctionName(fns[0]), "fma") == 0);
  TF_DeleteFunction(fns[0]);
  /* a different function under the same name is refused */
  TF_Graph* other = TF_NewGraph();
  TF_Operation* p = ph(other, "p", TF_FLOAT, NULL, -1);
  TF_Operation* n = op1(other, "Neg", "neg", p);
  TF_Output pin = {p, 0}, nout = {n, 0};
  TF_Function* clash = TF_GraphToFunction(other, "fma", 0, -1, NULL, 1, &pin, 1, &nout, NULL,
                                          NULL, NULL, S);
  TF_GraphCopyFunction(g, clash, NULL, S);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "a different function with the same name");
  TF_DeleteFunction(clash);
  TF_DeleteGraph(other);
  TF_DeleteImportGraphDefOptions(o);
  TF_DeleteBuffer(gd);
  TF_DeleteGraph(g2);
  TF_DeleteFunction(f);
  TF_DeleteGraph(g);
}

static void test_missing_function_fails_at_run(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = CF(g, "x", D(1), 1, 1.0f);
  TF_Output args[2] = {{x, 0}, {x, 0}};
  TF_Operation* c = call(g, "PartitionedCall", "call", "nowhere", args, 2, TF_FLOAT);
  CHECK_OK(S);
  TF_Tensor* out = run(g, c);
  CHECK(out == NULL);
  CHECK_CODE(S, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(S), "Function nowhere is not defined.");
  CHECK_STR_CONTAINS(TF_Message(S), "{{node call}}");
  TF_DeleteGraph(g);
}

/* A GraphDef whose library has f calling itself through PartitionedCall. */
static void test_recursive_library_is_refused_at_import(void) {
  TF_Graph* body = TF_NewGraph();
  TF_Operation* p = ph(body, "p", TF_FLOAT, NULL, -1);
  TF_Output args[2] = {{p, 0}, {p, 0}};
  TF_Operation* c = call(body, "PartitionedCall", "again", "loop", args, 2, TF_FLOAT);
  TF_Output pin = {p, 0}, cout = {c, 0};
  TF_Function* f = TF_GraphToFunction(body, "loop", 0, -1, NULL, 1, &pin, 1, &cout, NULL, NULL,
                                      NULL, S);
  CHECK_OK(S);
  TF_Graph* g = TF_NewGraph();
  TF_GraphCopyFunction(g, f, NULL, S);
  TF_Buffer* gd = TF_NewBuffer();
  TF_GraphToGraphDef(g, gd, S);
  TF_Graph* g2 = TF_NewGraph();
  TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
  TF_GraphImportGraphDef(g2, gd, o, S);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "'loop' calls itself");
  CHECK(TF_GraphNumFunctions(g2) == 0); /* rolled back */
  TF_DeleteImportGraphDefOptions(o);
  TF_DeleteBuffer(gd);
  TF_DeleteGraph(g2);
  TF_DeleteGraph(g);
  TF_DeleteFunction(f);
  TF_DeleteGraph(body);
}

/* while (i < n) { i += 1; acc *= 2 } with StatelessWhile over two functions. */
static void test_while(void) {
  TF_Graph* cg = TF_NewGraph();
  TF_Operation* ci = ph(cg, "i", TF_INT32, NULL, -1);
  TF_Operation* ca = ph(cg, "acc", TF_FLOAT, NULL, -1);
  TF_Operation* lim = CI(cg, "lim", D(0), 0, 20);
  TF_Operation* less = op2(cg, "Less", "less", ci, lim);
  TF_Output cin[2] = {{ci, 0}, {ca, 0}}, cout = {less, 0};
  TF_Function* cond = TF_GraphToFunction(cg, "cond", 0, -1, NULL, 2, cin, 1, &cout, NULL, NULL,
                                         NULL, S);
  CHECK_OK(S);
  TF_Graph* bg = TF_NewGraph();
  TF_Operation* bi = ph(bg, "i", TF_INT32, NULL, -1);
  TF_Operation* ba = ph(bg, "acc", TF_FLOAT, NULL, -1);
  TF_Operation* one = CI(bg, "one", D(0), 0, 1);
  TF_Operation* two = CF(bg, "two", D(0), 0, 2.0f);
  TF_Operation* ni = op2(bg, "AddV2", "ni", bi, one);
  TF_Operation* na = op2(bg, "Mul", "na", ba, two);
  TF_Output bin[2] = {{bi, 0}, {ba, 0}}, bout[2] = {{ni, 0}, {na, 0}};
  TF_Function* body = TF_GraphToFunction(bg, "body", 0, -1, NULL, 2, bin, 2, bout, NULL, NULL,
                                         NULL, S);
  CHECK_OK(S);
  TF_Graph* g = TF_NewGraph();
  TF_GraphCopyFunction(g, cond, NULL, S);
  TF_GraphCopyFunction(g, body, NULL, S);
  TF_Operation* i0 = CI(g, "i0", D(0), 0, 0);
  TF_Operation* a0 = CF(g, "a0", D(0), 0, 1.0f);
  TF_OperationDescription* d = TF_NewOperation(g, "StatelessWhile", "loop");
  TF_Output ins[2] = {{i0, 0}, {a0, 0}};
  TF_AddInputList(d, ins, 2);
  TF_DataType t[2] = {TF_INT32, TF_FLOAT};
  TF_SetAttrTypeList(d, "T", t, 2);
  TF_SetAttrFuncName(d, "cond", "cond", 4);
  TF_SetAttrFuncName(d, "body", "body", 4);
  TF_Operation* w = TF_FinishOperation(d, S);
  CHECK_OK(S);
  TF_Session* sess = TF_NewSession(g, NULL, S);
  TF_Output fetch[2] = {{w, 0}, {w, 1}};
  TF_Tensor* out[2] = {NULL, NULL};
  TF_SessionRun(sess, NULL, NULL, NULL, 0, fetch, out, 2, NULL, 0, NULL, S);
  CHECK_OK(S);
  CHECK(out[0] && *(int32_t*)TF_TensorData(out[0]) == 20);
  CHECK(out[1] && *(float*)TF_TensorData(out[1]) == 1048576.0f);
  TF_DeleteTensor(out[0]);
  TF_DeleteTensor(out[1]);
  TF_CloseSession(sess, S);
  TF_DeleteSession(sess, S);
  TF_DeleteGraph(g);
  TF_DeleteGraph(cg);
  TF_DeleteGraph(bg);
  TF_DeleteFunction(cond);
  TF_DeleteFunction(body);
}

/* MT_FunctionToGraph: the body of fma as ops of another graph, runnable there. */
static void test_function_to_graph(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Function* f = make_fma("fma");
  TF_GraphCopyFunction(g, f, NULL, S);
  TF_Graph* dst = TF_NewGraph();
  int nargs = 0, nrets = 0;
  CHECK(MT_FunctionArity(g, "fma", &nargs, &nrets) == 1 && nargs == 2 && nrets == 1);
  CHECK(MT_FunctionArity(g, "nope", &nargs, &nrets) == 0);
  TF_Output args[2], rets[1];
  MT_FunctionToGraph(g, "fma", dst, args, 2, rets, 1, S);
  CHECK_OK(S);
  CHECK(strcmp(TF_OperationOpType(args[0].oper), "Placeholder") == 0);
  CHECK(strcmp(TF_OperationName(args[1].oper), "b_in") == 0);
  float av[2] = {2.0f, 3.0f}, bv[2] = {10.0f, -1.0f};
  int64_t dims[1] = {2};
  TF_Tensor* feeds[2] = {TF_AllocateTensor(TF_FLOAT, dims, 1, 8),
                         TF_AllocateTensor(TF_FLOAT, dims, 1, 8)};
  memcpy(TF_TensorData(feeds[0]), av, 8);
  memcpy(TF_TensorData(feeds[1]), bv, 8);
  TF_Session* sess = TF_NewSession(dst, NULL, S);
  TF_Tensor* out = NULL;
  TF_SessionRun(sess, NULL, args, feeds, 2, rets, &out, 1, NULL, 0, NULL, S);
  CHECK_OK(S);
  CHECK(floats_are(out, 2, (float[]){22.0f, 0.0f}, 0));
  TF_DeleteTensor(out);
  /* building it twice into the same graph clashes on names */
  MT_FunctionToGraph(g, "fma", dst, args, 2, rets, 1, S);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  MT_FunctionToGraph(g, "fma", dst, args, 1, rets, 1, S);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  TF_CloseSession(sess, S);
  TF_DeleteSession(sess, S);
  TF_DeleteTensor(feeds[0]);
  TF_DeleteTensor(feeds[1]);
  TF_DeleteGraph(dst);
  TF_DeleteFunction(f);
  TF_DeleteGraph(g);
}

/* TF_UpdateEdge rewires an input; a dtype mismatch is refused in TF's words. */
static void test_update_edge(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = CF(g, "x", D(0), 0, 3.0f);
  TF_Operation* y = CF(g, "y", D(0), 0, 5.0f);
  TF_Operation* k = CI(g, "k", D(0), 0, 1);
  TF_Operation* sum = op2(g, "AddV2", "sum", x, y);
  TF_Tensor* out = run(g, sum);
  CHECK(out && *(float*)TF_TensorData(out) == 8.0f);
  TF_DeleteTensor(out);
  TF_UpdateEdge(g, (TF_Output){x, 0}, (TF_Input){sum, 1}, S);
  CHECK_OK(S);
  out = run(g, sum);
  CHECK(out && *(float*)TF_TensorData(out) == 6.0f);
  TF_DeleteTensor(out);
  TF_UpdateEdge(g, (TF_Output){k, 0}, (TF_Input){sum, 1}, S);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "Input 1 of node sum was passed int32 from k:0 incompatible "
                     "with expected float.");
  TF_UpdateEdge(g, (TF_Output){x, 0}, (TF_Input){sum, 2}, S);
  CHECK_CODE(S, TF_OUT_OF_RANGE);
  TF_DeleteGraph(g);
}

/* A While given one more loop variable after it was built (how a gradient adds
 * accumulators): MT_SetAttr of T and body, MT_AddWhileInputs, MT_RefreshOutputs. */
static void test_while_gains_a_loop_variable(void) {
  TF_Graph* cg = TF_NewGraph();
  TF_Operation* ci = ph(cg, "i", TF_INT32, NULL, -1);
  TF_Operation* ca = ph(cg, "a", TF_FLOAT, NULL, -1);
  TF_Operation* cb = ph(cg, "b", TF_FLOAT, NULL, -1);
  TF_Operation* less = op2(cg, "Less", "less", ci, CI(cg, "lim", D(0), 0, 3));
  TF_Output cin[3] = {{ci, 0}, {ca, 0}, {cb, 0}}, cout = {less, 0};
  TF_Function* cond = TF_GraphToFunction(cg, "cond3", 0, -1, NULL, 3, cin, 1, &cout, NULL, NULL,
                                         NULL, S);
  TF_Function* cond2 = TF_GraphToFunction(cg, "cond2", 0, -1, NULL, 2, cin, 1, &cout, NULL,
                                          NULL, NULL, S);
  TF_Graph* bg = TF_NewGraph();
  TF_Operation* bi = ph(bg, "i", TF_INT32, NULL, -1);
  TF_Operation* ba = ph(bg, "a", TF_FLOAT, NULL, -1);
  TF_Operation* bb = ph(bg, "b", TF_FLOAT, NULL, -1);
  TF_Operation* ni = op2(bg, "AddV2", "ni", bi, CI(bg, "one", D(0), 0, 1));
  TF_Operation* na = op2(bg, "Mul", "na", ba, CF(bg, "two", D(0), 0, 2.0f));
  TF_Operation* nb = op2(bg, "AddV2", "nb", bb, na);
  TF_Output bin[3] = {{bi, 0}, {ba, 0}, {bb, 0}}, bout[3] = {{ni, 0}, {na, 0}, {nb, 0}};
  TF_Output bin2[2] = {{bi, 0}, {ba, 0}};
  TF_Function* body2 = TF_GraphToFunction(bg, "body2", 0, 4, (const TF_Operation* const[]){
      TF_GraphOperationByName(bg, "one"), TF_GraphOperationByName(bg, "two"), ni, na}, 2, bin2,
      2, bout, NULL, NULL, NULL, S);
  CHECK_OK(S);
  TF_Function* body3 = TF_GraphToFunction(bg, "body3", 0, -1, NULL, 3, bin, 3, bout, NULL, NULL,
                                          NULL, S);
  CHECK_OK(S);
  TF_Graph* g = TF_NewGraph();
  TF_Function* fns[4] = {cond, cond2, body2, body3};
  for (int k = 0; k < 4; k++) TF_GraphCopyFunction(g, fns[k], NULL, S);
  TF_OperationDescription* d = TF_NewOperation(g, "StatelessWhile", "loop");
  TF_Output ins[2] = {{CI(g, "i0", D(0), 0, 0), 0}, {CF(g, "a0", D(0), 0, 1.0f), 0}};
  TF_AddInputList(d, ins, 2);
  TF_SetAttrTypeList(d, "T", (TF_DataType[]){TF_INT32, TF_FLOAT}, 2);
  TF_SetAttrFuncName(d, "cond", "cond2", 5);
  TF_SetAttrFuncName(d, "body", "body2", 5);
  TF_Operation* w = TF_FinishOperation(d, S);
  CHECK_OK(S);
  TF_Session* sess = TF_NewSession(g, NULL, S);
  TF_Output fetch[3] = {{w, 0}, {w, 1}, {w, 2}};
  TF_Tensor* out[3] = {NULL, NULL, NULL};
  TF_SessionRun(sess, NULL, NULL, NULL, 0, fetch, out, 2, NULL, 0, NULL, S);
  CHECK_OK(S);
  CHECK(*(float*)TF_TensorData(out[1]) == 8.0f);
  TF_DeleteTensor(out[0]);
  TF_DeleteTensor(out[1]);
  /* AttrValue protos: list { type: [DT_INT32, DT_FLOAT, DT_FLOAT] }, func { name } */
  const unsigned char types[] = {0x0a, 0x05, 0x32, 0x03, 0x03, 0x01, 0x01};
  const unsigned char fbody[] = {0x52, 0x07, 0x0a, 0x05, 'b', 'o', 'd', 'y', '3'};
  const unsigned char fcond[] = {0x52, 0x07, 0x0a, 0x05, 'c', 'o', 'n', 'd', '3'};
  MT_SetAttr(g, w, "T", types, sizeof types, S);
  MT_SetAttr(g, w, "body", fbody, sizeof fbody, S);
  MT_SetAttr(g, w, "cond", fcond, sizeof fcond, S);
  CHECK_OK(S);
  TF_Output extra = {CF(g, "b0", D(0), 0, 10.0f), 0};
  MT_AddWhileInputs(g, w, &extra, 1, S);
  CHECK_OK(S);
  MT_RefreshOutputs(g, w, S);
  CHECK_OK(S);
  CHECK(TF_OperationNumInputs(w) == 3 && TF_OperationNumOutputs(w) == 3);
  CHECK(TF_OperationOutputType(fetch[2]) == TF_FLOAT);
  /* the same session builds a new plan: b = 10 + 2 + 4 + 8 */
  TF_SessionRun(sess, NULL, NULL, NULL, 0, fetch, out, 3, NULL, 0, NULL, S);
  CHECK_OK(S);
  CHECK(*(float*)TF_TensorData(out[1]) == 8.0f && *(float*)TF_TensorData(out[2]) == 24.0f);
  for (int k = 0; k < 3; k++) TF_DeleteTensor(out[k]);
  /* outputs can only be added; a Const has no list input to append to */
  const unsigned char fewer[] = {0x0a, 0x03, 0x32, 0x01, 0x03};
  MT_SetAttr(g, w, "T", fewer, sizeof fewer, S);
  MT_RefreshOutputs(g, w, S);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  MT_SetAttr(g, w, "T", types, sizeof types, S);
  MT_AddWhileInputs(g, extra.oper, &extra, 1, S);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  TF_CloseSession(sess, S);
  TF_DeleteSession(sess, S);
  TF_DeleteGraph(g);
  TF_DeleteGraph(cg);
  TF_DeleteGraph(bg);
  for (int k = 0; k < 4; k++) TF_DeleteFunction(fns[k]);
}

int main(void) {
  S = TF_NewStatus();
  test_names_and_round_trip();
  test_partitioned_call();
  test_missing_function_fails_at_run();
  test_recursive_library_is_refused_at_import();
  test_while();
  test_function_to_graph();
  test_update_edge();
  test_while_gains_a_loop_variable();
  TF_DeleteStatus(S);
  CTEST_END();
}
