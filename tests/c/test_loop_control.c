/* v2 loops through the C API: GraphDefs TensorFlow 2.21 wrote with a
 * StatelessWhile and its function library (tests/fixtures/
 * control_flow_v2_loops) imported with TF_GraphImportGraphDef and run with
 * TF_SessionRun: TensorFlow's value, 1,000,000 iterations in flat memory,
 * and a loop that never ends stopped by a step deadline (RunOptions or
 * ConfigProto.operation_timeout_in_ms) or by TF_CloseSession from another
 * thread, the session usable after a deadline. Timing bounds are loose: the
 * point is that the error arrives and is the right one. */
#include <pthread.h>
#include <stdint.h>
#include <sys/resource.h>
#include <time.h>

#include "ctest.h"
#include "ctest_import.h"
#include "tensorflow/c/c_api.h"

static TF_Graph* import(const char* name, TF_Status* s) {
  return ctest_import_fixture("control_flow_v2_loops", name, s);
}

static TF_Output out(TF_Graph* g, const char* name, int index) { return ctest_out(g, name, index); }

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One int32 fetch with an optional int32 feed `n`; -1 on error. */
static int64_t run_i32(TF_Session* sess, TF_Graph* g, int n, const char* fetch,
                       const TF_Buffer* opts, TF_Status* s) {
  TF_Output feed = out(g, "n", 0), f = out(g, fetch, 0);
  TF_Tensor* v = NULL;
  if (n >= 0) {
    v = TF_AllocateTensor(TF_INT32, NULL, 0, sizeof(int32_t));
    *(int32_t*)TF_TensorData(v) = n;
  }
  TF_Tensor* got = NULL;
  TF_SessionRun(sess, opts, &feed, &v, v ? 1 : 0, &f, &got, 1, NULL, 0, NULL, s);
  if (v) TF_DeleteTensor(v);
  if (TF_GetCode(s) != TF_OK || !got) return -1;
  int64_t r = *(int32_t*)TF_TensorData(got);
  TF_DeleteTensor(got);
  return r;
}

static long max_rss_kib(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

/* million_loop: i + 1 counted to n (TF: 1000 for n = 1000); 1e6
 * iterations free every iteration's tensors. */
static void test_counter_and_flat_memory(TF_Status* s) {
  TF_Graph* g = import("million_loop", s);
  CHECK_OK(s);
  TF_SessionOptions* so = TF_NewSessionOptions();
  TF_Session* sess = TF_NewSession(g, so, s);
  CHECK(run_i32(sess, g, 1000, "count/Identity_2", NULL, s) == 1000);
  CHECK_OK(s);
  CHECK(run_i32(sess, g, 0, "count/Identity_2", NULL, s) == 0);
  long before = max_rss_kib();
#ifdef __SANITIZE_ADDRESS__
  int32_t iters = 100000; /* ASan keeps freed memory in quarantine: no RSS check */
  const int check_rss = 0;
#else
  int32_t iters = 1000000;
  const int check_rss = 1;
#endif
  CHECK(run_i32(sess, g, iters, "count/Identity_2", NULL, s) == iters);
  CHECK_OK(s);
  long grown = max_rss_kib() - before;
  printf("max RSS grew by %ld KiB over %d v2 iterations\n", grown, (int)iters);
  if (check_rss) CHECK(grown < 16 * 1024);
  TF_DeleteSession(sess, s);
  TF_DeleteSessionOptions(so);
  TF_DeleteGraph(g);
}

/* RunOptions{timeout_in_ms: 40} (field 2, varint): DEADLINE_EXCEEDED with
 * TensorFlow's message and no node; the session runs the next step. */
static void test_run_options_deadline(TF_Status* s) {
  TF_Graph* g = import("endless_loop", s);
  CHECK_OK(s);
  TF_SessionOptions* so = TF_NewSessionOptions();
  TF_Session* sess = TF_NewSession(g, so, s);
  const unsigned char opts[] = {0x10, 40};
  TF_Buffer* ro = TF_NewBufferFromString(opts, sizeof opts);
  double t0 = now_s();
  run_i32(sess, g, -1, "forever/Identity_2", ro, s);
  double took = now_s() - t0;
  printf("40 ms deadline -> error after %.1f ms\n", took * 1e3);
  CHECK_CODE(s, TF_DEADLINE_EXCEEDED);
  CHECK(strcmp(TF_Message(s), "Timed out waiting for notification") == 0);
  CHECK(took >= 0.04 && took < 2.04);
  CHECK(run_i32(sess, g, -1, "Const", NULL, s) == 0);
  CHECK_OK(s);
  TF_DeleteBuffer(ro);
  TF_DeleteSession(sess, s);
  TF_DeleteSessionOptions(so);
  TF_DeleteGraph(g);
}

/* ConfigProto{operation_timeout_in_ms: 30} (field 11, varint) is the
 * deadline of runs whose RunOptions set none. */
static void test_operation_timeout(TF_Status* s) {
  TF_Graph* g = import("endless_loop", s);
  CHECK_OK(s);
  TF_SessionOptions* so = TF_NewSessionOptions();
  const unsigned char config[] = {0x58, 30};
  TF_SetConfig(so, config, sizeof config, s);
  CHECK_OK(s);
  TF_Session* sess = TF_NewSession(g, so, s);
  double t0 = now_s();
  run_i32(sess, g, -1, "forever/Identity_2", NULL, s);
  double took = now_s() - t0;
  CHECK_CODE(s, TF_DEADLINE_EXCEEDED);
  CHECK(took >= 0.03 && took < 2.03);
  TF_DeleteSession(sess, s);
  TF_DeleteSessionOptions(so);
  TF_DeleteGraph(g);
}

typedef struct step_arg {
  TF_Session* sess;
  TF_Graph* g;
  TF_Code code;
  char msg[256];
} step_arg;

static void* endless_step(void* p) {
  step_arg* a = p;
  TF_Status* s = TF_NewStatus();
  run_i32(a->sess, a->g, -1, "forever/Identity_2", NULL, s);
  a->code = TF_GetCode(s);
  snprintf(a->msg, sizeof a->msg, "%s", TF_Message(s));
  TF_DeleteStatus(s);
  return NULL;
}

/* TF_CloseSession from this thread while another runs the loop: the step
 * ends with CANCELLED, close returns once it has. */
static void test_close_cancels(TF_Status* s) {
  TF_Graph* g = import("endless_loop", s);
  CHECK_OK(s);
  TF_SessionOptions* so = TF_NewSessionOptions();
  TF_Session* sess = TF_NewSession(g, so, s);
  step_arg a = {sess, g, TF_OK, ""};
  pthread_t t;
  CHECK(pthread_create(&t, NULL, endless_step, &a) == 0);
  struct timespec wait = {0, 200 * 1000000};
  nanosleep(&wait, NULL);
  TF_CloseSession(sess, s);
  CHECK_OK(s);
  pthread_join(t, NULL);
  CHECK(a.code == TF_CANCELLED);
  CHECK_STR_CONTAINS(a.msg, "Loop execution was cancelled.");
  TF_DeleteSession(sess, s);
  TF_DeleteSessionOptions(so);
  TF_DeleteGraph(g);
}

int main(void) {
  TF_Status* s = TF_NewStatus();
  test_counter_and_flat_memory(s);
  test_run_options_deadline(s);
  test_operation_timeout(s);
  test_close_cancels(s);
  TF_DeleteStatus(s);
  CTEST_END();
}
