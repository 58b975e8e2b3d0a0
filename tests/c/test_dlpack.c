/* DLPack export/import (tensorflow/c/dlpack.h): the ABI layout the spec
 * fixes, zero-copy in both directions with the lifetimes the spec
 * prescribes, strided inputs copied, bad devices/dtypes refused. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/dlpack.h"

static void noop_dealloc(void* data, size_t len, void* arg) { *(int*)arg += 1; }

/* Layout from the DLPack spec (64-bit): DLTensor 48 bytes, legacy 64,
 * versioned 80 with flags at 24 and dl_tensor at 32. */
static void test_abi(void) {
  CHECK(sizeof(DLTensor) == 48);
  CHECK(offsetof(DLTensor, ndim) == 16);
  CHECK(offsetof(DLTensor, dtype) == 20);
  CHECK(offsetof(DLTensor, shape) == 24);
  CHECK(offsetof(DLTensor, byte_offset) == 40);
  CHECK(sizeof(DLManagedTensor) == 64);
  CHECK(offsetof(DLManagedTensor, deleter) == 56);
  CHECK(sizeof(DLManagedTensorVersioned) == 80);
  CHECK(offsetof(DLManagedTensorVersioned, flags) == 24);
  CHECK(offsetof(DLManagedTensorVersioned, dl_tensor) == 32);
}

static void test_export(TF_Status* s) {
  static float data[6] = {1, 2, 3, 4, 5, 6};
  int freed = 0;
  int64_t dims[2] = {2, 3};
  TF_Tensor* t = TF_NewTensor(TF_FLOAT, dims, 2, data, sizeof data, noop_dealloc, &freed);
  DLManagedTensor* m = TF_TensorToDLPack(t, s);
  CHECK_OK(s);
  TF_DeleteTensor(t); /* the export keeps the memory alive */
  CHECK(freed == 0);
  CHECK(m->dl_tensor.data == data); /* no copy */
  CHECK(m->dl_tensor.device.device_type == kDLCPU && m->dl_tensor.device.device_id == 0);
  CHECK(m->dl_tensor.ndim == 2 && m->dl_tensor.shape[0] == 2 && m->dl_tensor.shape[1] == 3);
  CHECK(m->dl_tensor.strides[0] == 3 && m->dl_tensor.strides[1] == 1);
  CHECK(m->dl_tensor.dtype.code == kDLFloat && m->dl_tensor.dtype.bits == 32 &&
        m->dl_tensor.dtype.lanes == 1);
  m->deleter(m);
  CHECK(freed == 1);

  freed = 0;
  t = TF_NewTensor(TF_FLOAT, dims, 2, data, sizeof data, noop_dealloc, &freed);
  DLManagedTensorVersioned* v = TF_TensorToDLPackVersioned(t, s);
  CHECK_OK(s);
  CHECK(v->version.major == 1 && v->flags == 0 && v->dl_tensor.data == data);
  /* Round trip: import our own export, still no copy. */
  TF_Tensor* back = TF_TensorFromDLPackVersioned(v, s);
  CHECK_OK(s);
  CHECK(TF_TensorData(back) == data && TF_Dim(back, 1) == 3 && TF_TensorType(back) == TF_FLOAT);
  TF_DeleteTensor(t);
  CHECK(freed == 0);
  TF_DeleteTensor(back); /* runs the versioned deleter, which drops the last ref */
  CHECK(freed == 1);

  /* bool and complex codes; strings refused. */
  TF_Tensor* b = TF_AllocateTensor(TF_BOOL, dims, 1, 2);
  m = TF_TensorToDLPack(b, s);
  CHECK(m && m->dl_tensor.dtype.code == kDLBool && m->dl_tensor.dtype.bits == 8);
  if (m) m->deleter(m);
  TF_DeleteTensor(b);
  TF_Tensor* c = TF_AllocateTensor(TF_COMPLEX128, dims, 1, 32);
  m = TF_TensorToDLPack(c, s);
  CHECK(m && m->dl_tensor.dtype.code == kDLComplex && m->dl_tensor.dtype.bits == 128);
  if (m) m->deleter(m);
  TF_DeleteTensor(c);
  TF_Tensor* str = TF_AllocateTensor(TF_STRING, dims, 1, 2 * sizeof(TF_TString));
  CHECK(TF_TensorToDLPack(str, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "string");
  TF_DeleteTensor(str);
}

/* A producer: heap memory and a deleter that counts its calls. */
typedef struct producer {
  DLManagedTensor m;
  int64_t shape[2], strides[2];
  int* deleted;
} producer;

static void producer_deleter(DLManagedTensor* self) {
  producer* p = (producer*)self;
  *p->deleted += 1;
  free(p->m.dl_tensor.data);
  free(p);
}

static producer* make_producer(int* deleted) {
  producer* p = calloc(1, sizeof *p);
  int32_t* d = malloc(6 * sizeof(int32_t));
  for (int i = 0; i < 6; i++) d[i] = i * 10; /* [[0 10 20] [30 40 50]] */
  p->shape[0] = 2;
  p->shape[1] = 3;
  p->m.dl_tensor.data = d;
  p->m.dl_tensor.device.device_type = kDLCPU;
  p->m.dl_tensor.ndim = 2;
  p->m.dl_tensor.dtype.code = kDLInt;
  p->m.dl_tensor.dtype.bits = 32;
  p->m.dl_tensor.dtype.lanes = 1;
  p->m.dl_tensor.shape = p->shape;
  p->m.deleter = producer_deleter;
  p->deleted = deleted;
  return p;
}

static void test_import(TF_Status* s) {
  int deleted = 0;
  producer* p = make_producer(&deleted);
  void* data = p->m.dl_tensor.data;
  TF_Tensor* t = TF_TensorFromDLPack(&p->m, s);
  CHECK_OK(s);
  CHECK(TF_TensorData(t) == data && TF_TensorType(t) == TF_INT32 && TF_Dim(t, 0) == 2);
  CHECK(((int32_t*)TF_TensorData(t))[5] == 50);
  CHECK(deleted == 0);
  TF_DeleteTensor(t);
  CHECK(deleted == 1);

  /* Transposed view (strides 1, 3 over shape 3x2): copied, deleter at once. */
  deleted = 0;
  p = make_producer(&deleted);
  p->shape[0] = 3;
  p->shape[1] = 2;
  p->strides[0] = 1;
  p->strides[1] = 3;
  p->m.dl_tensor.strides = p->strides;
  t = TF_TensorFromDLPack(&p->m, s);
  CHECK_OK(s);
  CHECK(deleted == 1);
  int32_t want[6] = {0, 30, 10, 40, 20, 50};
  CHECK(t && !memcmp(TF_TensorData(t), want, sizeof want));
  TF_DeleteTensor(t);

  /* byte_offset honoured: skip the first row. */
  deleted = 0;
  p = make_producer(&deleted);
  p->shape[0] = 1;
  p->m.dl_tensor.byte_offset = 3 * sizeof(int32_t);
  t = TF_TensorFromDLPack(&p->m, s);
  CHECK_OK(s);
  CHECK(t && ((int32_t*)TF_TensorData(t))[0] == 30 && TF_TensorElementCount(t) == 3);
  TF_DeleteTensor(t);
  CHECK(deleted == 1);
}

static void test_refused(TF_Status* s) {
  int deleted = 0;
  producer* p = make_producer(&deleted);
  p->m.dl_tensor.device.device_type = kDLCUDA;
  CHECK(TF_TensorFromDLPack(&p->m, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "only CPU");
  CHECK(deleted == 0); /* still the caller's */
  p->m.dl_tensor.device.device_type = kDLCPU;
  p->m.dl_tensor.dtype.lanes = 4;
  CHECK(TF_TensorFromDLPack(&p->m, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  p->m.dl_tensor.dtype.lanes = 1;
  p->m.dl_tensor.dtype.code = kDLFloat8_e5m2;
  p->m.dl_tensor.dtype.bits = 8;
  CHECK(TF_TensorFromDLPack(&p->m, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "no TensorFlow equivalent");
  p->m.deleter(&p->m);
  CHECK(deleted == 1);

  DLManagedTensorVersioned v;
  memset(&v, 0, sizeof v);
  v.version.major = 2;
  CHECK(TF_TensorFromDLPackVersioned(&v, s) == NULL);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
}

int main(void) {
  TF_Status* s = TF_NewStatus();
  test_abi();
  test_export(s);
  test_import(s);
  test_refused(s);
  TF_DeleteStatus(s);
  CTEST_END();
}
