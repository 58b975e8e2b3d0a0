/* TF_Tensor <-> DLPack (tensorflow/c/dlpack.h). Export shares the tensor's
 * refcounted buffer; import wraps the producer's memory with a deallocator
 * that calls the DLPack deleter, so neither direction copies. */
#include <stdlib.h>
#include <string.h>

#include "runtime/status.h"
#include "runtime/tensor.h"
#include "tensorflow/c/dlpack.h"

/* ------------------------------------------------------------------------ */
/* dtypes */

static int dl_type_of(TF_DataType dt, DLDataType* out) {
  uint8_t code;
  switch (dt) {
    case TF_FLOAT: case TF_DOUBLE: case TF_HALF: code = kDLFloat; break;
    case TF_BFLOAT16: code = kDLBfloat; break;
    case TF_INT8: case TF_INT16: case TF_INT32: case TF_INT64: code = kDLInt; break;
    case TF_UINT8: case TF_UINT16: case TF_UINT32: case TF_UINT64: code = kDLUInt; break;
    case TF_BOOL: code = kDLBool; break;
    case TF_COMPLEX64: case TF_COMPLEX128: code = kDLComplex; break;
    default: return 0;
  }
  out->code = code;
  out->bits = (uint8_t)(8 * TF_DataTypeSize(dt));
  out->lanes = 1;
  return 1;
}

static TF_DataType tf_type_of(DLDataType t) {
  if (t.lanes != 1) return (TF_DataType)0;
  switch (t.code) {
    case kDLFloat:
      return t.bits == 16 ? TF_HALF : t.bits == 32 ? TF_FLOAT : t.bits == 64 ? TF_DOUBLE : 0;
    case kDLBfloat: return t.bits == 16 ? TF_BFLOAT16 : 0;
    case kDLInt:
      return t.bits == 8 ? TF_INT8 : t.bits == 16 ? TF_INT16 : t.bits == 32 ? TF_INT32
             : t.bits == 64 ? TF_INT64 : 0;
    case kDLUInt:
      /* NumPy < 1.25 exported bool as uint8 bits 8: that reads as uint8. */
      return t.bits == 8 ? TF_UINT8 : t.bits == 16 ? TF_UINT16 : t.bits == 32 ? TF_UINT32
             : t.bits == 64 ? TF_UINT64 : 0;
    case kDLBool: return t.bits == 8 ? TF_BOOL : 0;
    case kDLComplex: return t.bits == 64 ? TF_COMPLEX64 : t.bits == 128 ? TF_COMPLEX128 : 0;
    default: return (TF_DataType)0;
  }
}

/* ------------------------------------------------------------------------ */
/* Export */

/* The managed struct comes first so a deleter can cast `self` back. */
typedef struct legacy_ctx {
  DLManagedTensor m;
  TF_Tensor* tensor; /* our own handle on the buffer */
  int64_t shape[MT_MAX_DIMS];
  int64_t strides[MT_MAX_DIMS];
} legacy_ctx;

typedef struct versioned_ctx {
  DLManagedTensorVersioned m;
  TF_Tensor* tensor;
  int64_t shape[MT_MAX_DIMS];
  int64_t strides[MT_MAX_DIMS];
} versioned_ctx;

static void legacy_deleter(DLManagedTensor* self) {
  legacy_ctx* c = (legacy_ctx*)self;
  mt_tensor_free(c->tensor);
  free(c);
}

static void versioned_deleter(DLManagedTensorVersioned* self) {
  versioned_ctx* c = (versioned_ctx*)self;
  mt_tensor_free(c->tensor);
  free(c);
}

/* Fills `dl` to view `t` (shape/strides arrays supplied by the caller). */
static int describe(const TF_Tensor* t, DLTensor* dl, int64_t* shape, int64_t* strides,
                    TF_Status* s) {
  memset(dl, 0, sizeof *dl);
  if (!t) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "TF_TensorToDLPack: NULL tensor");
    return 0;
  }
  if (!dl_type_of(t->dtype, &dl->dtype)) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "DLPack does not support tensors of type %s",
                   mt_dtype_name(t->dtype));
    return 0;
  }
  int64_t step = 1;
  for (int i = t->ndims - 1; i >= 0; i--) {
    shape[i] = t->dims[i];
    strides[i] = step;
    step *= t->dims[i] > 0 ? t->dims[i] : 1;
  }
  dl->data = mt_tensor_data(t);
  dl->device.device_type = kDLCPU;
  dl->device.device_id = 0;
  dl->ndim = t->ndims;
  dl->shape = shape;
  dl->strides = strides;
  dl->byte_offset = 0;
  return 1;
}

DLManagedTensor* TF_TensorToDLPack(const TF_Tensor* tensor, TF_Status* status) {
  legacy_ctx* c = calloc(1, sizeof *c);
  if (!c) {
    mt_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory exporting to DLPack");
    return NULL;
  }
  if (!describe(tensor, &c->m.dl_tensor, c->shape, c->strides, status)) {
    free(c);
    return NULL;
  }
  c->tensor = mt_tensor_share(tensor);
  c->m.manager_ctx = c;
  c->m.deleter = legacy_deleter;
  TF_SetStatus(status, TF_OK, "");
  return &c->m;
}

DLManagedTensorVersioned* TF_TensorToDLPackVersioned(const TF_Tensor* tensor, TF_Status* status) {
  versioned_ctx* c = calloc(1, sizeof *c);
  if (!c) {
    mt_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory exporting to DLPack");
    return NULL;
  }
  if (!describe(tensor, &c->m.dl_tensor, c->shape, c->strides, status)) {
    free(c);
    return NULL;
  }
  c->tensor = mt_tensor_share(tensor);
  c->m.version.major = DLPACK_MAJOR_VERSION;
  c->m.version.minor = DLPACK_MINOR_VERSION;
  c->m.manager_ctx = c;
  c->m.deleter = versioned_deleter;
  c->m.flags = 0;
  TF_SetStatus(status, TF_OK, "");
  return &c->m;
}

/* ------------------------------------------------------------------------ */
/* Import */

static void call_legacy_deleter(void* data, size_t len, void* arg) {
  DLManagedTensor* m = arg;
  if (m->deleter) m->deleter(m);
}

static void call_versioned_deleter(void* data, size_t len, void* arg) {
  DLManagedTensorVersioned* m = arg;
  if (m->deleter) m->deleter(m);
}

/* 1 when `dl`'s strides (if any) are those of a compact row-major array;
 * dims of size 1 may carry any stride (PyTorch writes 1 there). */
static int is_compact(const DLTensor* dl) {
  if (!dl->strides) return 1;
  int64_t step = 1;
  for (int i = dl->ndim - 1; i >= 0; i--) {
    if (dl->shape[i] != 1 && dl->strides[i] != step) return 0;
    step *= dl->shape[i];
  }
  return 1;
}

/* Copies a strided tensor element by element into dst (row-major). */
static void copy_strided(const DLTensor* dl, const uint8_t* src, uint8_t* dst, size_t esize,
                         int64_t n) {
  int64_t idx[MT_MAX_DIMS] = {0};
  for (int64_t k = 0; k < n; k++) {
    int64_t off = 0;
    for (int i = 0; i < dl->ndim; i++) off += idx[i] * dl->strides[i];
    memcpy(dst + (size_t)k * esize, src + off * (int64_t)esize, esize);
    for (int i = dl->ndim - 1; i >= 0; i--) {
      if (++idx[i] < dl->shape[i]) break;
      idx[i] = 0;
    }
  }
}

/* The import common to both structs. `release(arg)` hands the producer's
 * memory back; it becomes the tensor's deallocator when wrapping. */
static TF_Tensor* import(const DLTensor* dl, void (*release)(void*, size_t, void*), void* arg,
                         TF_Status* s) {
  if (dl->device.device_type != kDLCPU) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "DLPack tensor is on device type %d (id %d); only CPU (kDLCPU) tensors can "
                   "be imported", (int)dl->device.device_type, (int)dl->device.device_id);
    return NULL;
  }
  TF_DataType dt = tf_type_of(dl->dtype);
  if (!dt) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "DLPack dtype (code %u, bits %u, lanes %u) has no TensorFlow equivalent",
                   (unsigned)dl->dtype.code, (unsigned)dl->dtype.bits,
                   (unsigned)dl->dtype.lanes);
    return NULL;
  }
  if (dl->ndim < 0 || dl->ndim > MT_MAX_DIMS || (dl->ndim > 0 && !dl->shape)) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "DLPack tensor has a bad rank %d", (int)dl->ndim);
    return NULL;
  }
  int64_t n = mt_num_elements(dl->shape, dl->ndim);
  size_t esize = TF_DataTypeSize(dt);
  if (n < 0 || (uint64_t)n > MT_MAX_ALLOC / esize) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "DLPack tensor has a bad shape");
    return NULL;
  }
  uint8_t* data = dl->data ? (uint8_t*)dl->data + dl->byte_offset : NULL;
  if (n > 0 && !dl->data) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "DLPack tensor has NULL data");
    return NULL;
  }
  size_t len = (size_t)n * esize;
  if (is_compact(dl) && ((uintptr_t)data % esize == 0 || n == 0)) {
    TF_Tensor* t = mt_tensor_wrap(dt, dl->shape, dl->ndim, n ? data : NULL, len, release, arg,
                                  0, s);
    if (t) TF_SetStatus(s, TF_OK, "");
    return t;
  }
  /* Strided or misaligned: one copy into an aligned buffer, then the
   * producer's memory goes back at once. */
  TF_Tensor* t = mt_tensor_new(dt, dl->shape, dl->ndim, s);
  if (!t) return NULL;
  if (is_compact(dl)) memcpy(mt_tensor_data(t), data, len);
  else copy_strided(dl, data, mt_tensor_data(t), esize, n);
  release(NULL, 0, arg);
  TF_SetStatus(s, TF_OK, "");
  return t;
}

TF_Tensor* TF_TensorFromDLPack(DLManagedTensor* dlm, TF_Status* status) {
  if (!dlm) {
    mt_status_setf(status, TF_INVALID_ARGUMENT, "TF_TensorFromDLPack: NULL tensor");
    return NULL;
  }
  return import(&dlm->dl_tensor, call_legacy_deleter, dlm, status);
}

TF_Tensor* TF_TensorFromDLPackVersioned(DLManagedTensorVersioned* dlm, TF_Status* status) {
  if (!dlm) {
    mt_status_setf(status, TF_INVALID_ARGUMENT, "TF_TensorFromDLPackVersioned: NULL tensor");
    return NULL;
  }
  if (dlm->version.major != 1) {
    mt_status_setf(status, TF_UNIMPLEMENTED,
                   "DLPack major version %u is not supported (want 1)",
                   (unsigned)dlm->version.major);
    return NULL;
  }
  return import(&dlm->dl_tensor, call_versioned_deleter, dlm, status);
}
