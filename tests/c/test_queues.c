/* Queues and readers through the C API, for their lifetimes: queues of each kind left holding
 * elements (strings among them) when the session closes, a reader left in the middle of a
 * file, and a dequeue that times out; the ASan build (make asan-ctest, detect_leaks=1) fails
 * on any leak. Values worked by hand; errors in TensorFlow 2.21's words. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctest_graph.h"

static TF_Operation* queue(TF_Graph* g, const char* type, const char* name) {
  TF_OperationDescription* d = TF_NewOperation(g, type, name);
  TF_DataType types[2] = {TF_INT32, TF_STRING};
  const int64_t* dims[2] = {NULL, NULL};
  int nds[2] = {0, 0};
  const int pri = strcmp(type, "PriorityQueueV2") == 0;
  TF_SetAttrTypeList(d, "component_types", types + pri, 2 - pri);
  TF_SetAttrShapeList(d, "shapes", dims + pri, nds + pri, 2 - pri);
  TF_SetAttrInt(d, "capacity", 10);
  if (strcmp(type, "RandomShuffleQueueV2") == 0) TF_SetAttrInt(d, "seed", 3);
  return TF_FinishOperation(d, S);
}

static TF_Operation* enqueue_many(TF_Graph* g, const char* name, TF_Operation* q, int pri) {
  char a[64], b[64];
  snprintf(a, sizeof a, "%s/ints", name);
  snprintf(b, sizeof b, "%s/strs", name);
  static const char* const words[3] = {"a", "a string longer than the short-string buffer", "c"};
  TF_Operation* ints = pri ? CL(g, a, D(3), 1, 2, 1, 3) : CI(g, a, D(3), 1, 7, 8, 9);
  TF_Operation* strs = cst(g, b, strings(D(3), 1, words));
  TF_OperationDescription* d = TF_NewOperation(g, "QueueEnqueueManyV2", name);
  TF_AddInput(d, (TF_Output){q, 0});
  TF_Output comps[2] = {{ints, 0}, {strs, 0}};
  TF_AddInputList(d, comps, 2);
  return TF_FinishOperation(d, S);
}

static TF_Operation* dequeue(TF_Graph* g, const char* name, TF_Operation* q, int pri) {
  TF_OperationDescription* d = TF_NewOperation(g, "QueueDequeueV2", name);
  TF_AddInput(d, (TF_Output){q, 0});
  TF_DataType types[2] = {pri ? TF_INT64 : TF_INT32, TF_STRING};
  TF_SetAttrTypeList(d, "component_types", types, 2);
  return TF_FinishOperation(d, S);
}

static void test_queues_left_holding_elements(void) {
  static const char* const kinds[4] = {"FIFOQueueV2", "PaddingFIFOQueueV2",
                                       "RandomShuffleQueueV2", "PriorityQueueV2"};
  for (int k = 0; k < 4; k++) {
    TF_Graph* g = TF_NewGraph();
    const int pri = k == 3;
    TF_Operation* q = queue(g, kinds[k], "q");
    CHECK_OK(S);
    TF_Operation* enq = enqueue_many(g, "enq", q, pri);
    TF_Operation* deq = dequeue(g, "deq", q, pri);
    CHECK_OK(S);
    TF_Session* sess = TF_NewSession(g, NULL, S);
    TF_SessionRun(sess, NULL, NULL, NULL, 0, NULL, NULL, 0, (const TF_Operation* const*)&enq, 1,
                  NULL, S);
    CHECK_OK(S);
    TF_Output outs[2] = {{deq, 0}, {deq, 1}};
    TF_Tensor* vals[2] = {NULL, NULL};
    TF_SessionRun(sess, NULL, NULL, NULL, 0, outs, vals, 2, NULL, 0, NULL, S);
    CHECK_OK(S);
    if (vals[0] && k < 2) CHECK(*(int32_t*)TF_TensorData(vals[0]) == 7);
    if (vals[0] && pri) CHECK(*(int64_t*)TF_TensorData(vals[0]) == 1);
    if (vals[1] && pri)
      CHECK(TF_StringGetSize((const TF_TString*)TF_TensorData(vals[1])) ==
            strlen("a string longer than the short-string buffer"));
    for (int i = 0; i < 2; i++) TF_DeleteTensor(vals[i]);
    TF_CloseSession(sess, S); /* two elements stay in the queue */
    TF_DeleteSession(sess, S);
    TF_DeleteGraph(g);
  }
}

static void test_dequeue_times_out(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* q = queue(g, "FIFOQueueV2", "q");
  TF_Operation* deq = dequeue(g, "deq", q, 0);
  TF_Session* sess = TF_NewSession(g, NULL, S);
  /* RunOptions { timeout_in_ms: 50 } */
  static const unsigned char opts[] = {0x10, 50};
  TF_Buffer* ro = TF_NewBufferFromString(opts, sizeof opts);
  TF_Output outs[2] = {{deq, 0}, {deq, 1}};
  TF_Tensor* vals[2] = {NULL, NULL};
  TF_SessionRun(sess, ro, NULL, NULL, 0, outs, vals, 2, NULL, 0, NULL, S);
  CHECK_CODE(S, TF_DEADLINE_EXCEEDED);
  CHECK_STR_CONTAINS(TF_Message(S), "Timed out waiting for notification");
  TF_DeleteBuffer(ro);
  TF_CloseSession(sess, S);
  TF_DeleteSession(sess, S);
  TF_DeleteGraph(g);
}

static void test_reader_left_mid_file(void) {
  char path[] = "/tmp/minitf_queue_test_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  CHECK(write(fd, "one\ntwo\nthree\n", 14) == 14);
  close(fd);
  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d = TF_NewOperation(g, "FIFOQueueV2", "files");
  TF_DataType st = TF_STRING;
  TF_SetAttrTypeList(d, "component_types", &st, 1);
  TF_Operation* fq = TF_FinishOperation(d, S);
  const char* names[1] = {path};
  TF_Operation* list = cst(g, "names", strings(D(1), 1, names));
  d = TF_NewOperation(g, "QueueEnqueueManyV2", "enq");
  TF_AddInput(d, (TF_Output){fq, 0});
  TF_Output comp = {list, 0};
  TF_AddInputList(d, &comp, 1);
  TF_Operation* enq = TF_FinishOperation(d, S);
  TF_Operation* reader = TF_FinishOperation(TF_NewOperation(g, "TextLineReaderV2", "r"), S);
  TF_Operation* read = op2(g, "ReaderReadV2", "read", reader, fq);
  CHECK_OK(S);
  TF_Session* sess = TF_NewSession(g, NULL, S);
  TF_SessionRun(sess, NULL, NULL, NULL, 0, NULL, NULL, 0, (const TF_Operation* const*)&enq, 1,
                  NULL, S);
  TF_Output outs[2] = {{read, 0}, {read, 1}};
  TF_Tensor* vals[2] = {NULL, NULL};
  TF_SessionRun(sess, NULL, NULL, NULL, 0, outs, vals, 2, NULL, 0, NULL, S);
  CHECK_OK(S);
  if (vals[1]) {
    const TF_TString* v = TF_TensorData(vals[1]);
    CHECK(TF_StringGetSize(v) == 3 && memcmp(TF_StringGetDataPointer(v), "one", 3) == 0);
    const TF_TString* k = TF_TensorData(vals[0]);
    CHECK(TF_StringGetSize(k) == strlen(path) + 2);
  }
  for (int i = 0; i < 2; i++) TF_DeleteTensor(vals[i]);
  TF_CloseSession(sess, S); /* the reader still has the file open */
  TF_DeleteSession(sess, S);
  TF_DeleteGraph(g);
  unlink(path);
}

int main(void) {
  S = TF_NewStatus();
  test_queues_left_holding_elements();
  test_dequeue_times_out();
  test_reader_left_mid_file();
  TF_DeleteStatus(S);
  CTEST_END();
}
