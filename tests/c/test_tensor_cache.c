/* The large-buffer cache of runtime/tensor.c through the public C API: a
 * freed buffer of 32 MiB or more is reused for the next tensor of the same
 * size (a session running a plan again), never for another size, and
 * tensors that must start zeroed (strings, zeros) still do. */
#include <stdint.h>

#include "ctest.h"
#include "tensorflow/c/c_api.h"

static TF_Tensor* floats(int64_t n) {
  return TF_AllocateTensor(TF_FLOAT, &n, 1, (size_t)n * sizeof(float));
}

int main(void) {
  const int64_t big = (int64_t)10 << 20; /* 40 MiB of floats */
  TF_Tensor* a = floats(big);
  CHECK(a != NULL);
  float* pa = TF_TensorData(a);
  for (int64_t i = 0; i < big; i += 4096) pa[i] = 1.0f;
  TF_DeleteTensor(a);

  /* same size: the cached buffer comes back (contents unspecified, as malloc's) */
  TF_Tensor* b = floats(big);
  CHECK(b != NULL && TF_TensorData(b) == (void*)pa);
  CHECK(TF_TensorByteSize(b) == (size_t)big * sizeof(float));

  /* while b holds it, another tensor of that size gets other memory */
  TF_Tensor* c = floats(big);
  CHECK(c != NULL && TF_TensorData(c) != TF_TensorData(b));
  TF_DeleteTensor(c);
  TF_DeleteTensor(b);

  /* a different size never takes a cached buffer */
  TF_Tensor* d = floats(big + 1024);
  CHECK(d != NULL && TF_TensorData(d) != (void*)pa);
  TF_DeleteTensor(d);

  /* small tensors are not cached */
  TF_Tensor* e = floats(1000);
  float* pe = TF_TensorData(e);
  TF_DeleteTensor(e);
  TF_Tensor* f = floats(2000);
  CHECK(f != NULL && TF_TensorByteSize(f) == 2000 * sizeof(float));
  (void)pe;
  TF_DeleteTensor(f);

  /* a graph run's big outputs: ZerosLike starts from zeros even on a reused buffer */
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* desc = TF_NewOperation(g, "Placeholder", "x");
  TF_SetAttrType(desc, "dtype", TF_FLOAT);
  TF_Operation* x = TF_FinishOperation(desc, s);
  CHECK_OK(s);
  desc = TF_NewOperation(g, "ZerosLike", "z");
  TF_AddInput(desc, (TF_Output){x, 0});
  TF_Operation* z = TF_FinishOperation(desc, s);
  CHECK_OK(s);
  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_Session* sess = TF_NewSession(g, opts, s);
  CHECK_OK(s);
  for (int run = 0; run < 2; run++) {
    TF_Tensor* in = floats(big);
    float* pin = TF_TensorData(in);
    for (int64_t i = 0; i < big; i++) pin[i] = 3.0f; /* garbage for the next buffer */
    TF_Output feed = {x, 0}, fetch = {z, 0};
    TF_Tensor* out = NULL;
    TF_SessionRun(sess, NULL, &feed, &in, 1, &fetch, &out, 1, NULL, 0, NULL, s);
    CHECK_OK(s);
    int zeros = out != NULL;
    const float* po = out ? TF_TensorData(out) : NULL;
    for (int64_t i = 0; zeros && i < big; i++) zeros = po[i] == 0.0f;
    CHECK(zeros);
    TF_DeleteTensor(in);
    if (out) TF_DeleteTensor(out);
  }
  TF_CloseSession(sess, s);
  TF_DeleteSession(sess, s);
  TF_DeleteSessionOptions(opts);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  CTEST_END();
}
