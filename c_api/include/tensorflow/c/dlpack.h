/* DLPack: the in-memory tensor exchange ABI shared by NumPy, PyTorch, JAX,
 * CuPy and others (https://dmlc.github.io/dlpack/latest/c_api.html).
 *
 * The structs below are written from the DLPack 1.1 specification and are
 * ABI-compatible with the reference dlpack.h (same field order, types and
 * enum values): DLManagedTensor is the legacy (0.x, capsule "dltensor")
 * exchange struct, DLManagedTensorVersioned the 1.x one (capsule
 * "dltensor_versioned"). If the reference header was included first, its
 * definitions are used. The TensorFlow-style functions that produce and
 * consume them follow the structs. */
#ifndef TENSORFLOW_C_DLPACK_H_
#define TENSORFLOW_C_DLPACK_H_

#include <stdint.h>

#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef DLPACK_MAJOR_VERSION
#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 1

typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

typedef enum {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17,
} DLDeviceType;

typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

typedef enum {
  kDLInt = 0U,
  kDLUInt = 1U,
  kDLFloat = 2U,
  kDLOpaqueHandle = 3U,
  kDLBfloat = 4U,
  kDLComplex = 5U,
  kDLBool = 6U,
  kDLFloat8_e3m4 = 7U,
  kDLFloat8_e4m3 = 8U,
  kDLFloat8_e4m3b11fnuz = 9U,
  kDLFloat8_e4m3fn = 10U,
  kDLFloat8_e4m3fnuz = 11U,
  kDLFloat8_e5m2 = 12U,
  kDLFloat8_e5m2fnuz = 13U,
  kDLFloat8_e8m0fnu = 14U,
  kDLFloat6_e2m3fn = 15U,
  kDLFloat6_e3m2fn = 16U,
  kDLFloat4_e2m1fn = 17U,
} DLDataTypeCode;

typedef struct {
  uint8_t code; /* a DLDataTypeCode */
  uint8_t bits;
  uint16_t lanes;
} DLDataType;

typedef struct {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides; /* in elements; NULL = compact row-major */
  uint64_t byte_offset;
} DLTensor;

typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensor* self);
} DLManagedTensor;

#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (1UL << 2UL)

typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;
#endif /* DLPACK_MAJOR_VERSION */

/* ---------------------------------------------------------------------- */
/* minitf <-> DLPack (CPU only). Supported dtypes: float16/32/64, bfloat16,
 * int8/16/32/64, uint8/16/32/64, bool (kDLBool, 8 bits), complex64/128.
 * Thread-safety: reentrant; the deleter may run on any thread. */

/* Exports `tensor` without copying: the result views TF_TensorData(tensor)
 * (compact row-major, explicit strides, device kDLCPU:0) and holds its own
 * reference to the buffer, so the caller may delete `tensor` at once; the
 * memory stays valid until the consumer calls result->deleter(result)
 * exactly once. Returns NULL with TF_INVALID_ARGUMENT for a dtype DLPack
 * cannot describe (string, resource, variant, quantized, float8) and
 * TF_RESOURCE_EXHAUSTED when out of memory. */
TF_CAPI_EXPORT extern DLManagedTensor* TF_TensorToDLPack(const TF_Tensor* tensor,
                                                         TF_Status* status);
/* Same, as the versioned 1.x struct (version {1, 1}, flags 0). */
TF_CAPI_EXPORT extern DLManagedTensorVersioned* TF_TensorToDLPackVersioned(
    const TF_Tensor* tensor, TF_Status* status);

/* Imports `dlm`. Compact row-major tensors whose data is aligned for their
 * element type are wrapped without copying; on success the returned tensor
 * owns `dlm` and calls dlm->deleter(dlm) when its last reference goes (the
 * caller must not use `dlm` again). Strided or misaligned tensors are copied
 * into a new buffer and dlm->deleter is called before returning.
 * On error (NULL returned) `dlm` is untouched and still owned by the caller:
 * TF_INVALID_ARGUMENT for a device other than kDLCPU, an unsupported dtype
 * or lanes != 1, more than 32 dims, negative dims, NULL data with elements;
 * TF_UNIMPLEMENTED for a versioned tensor whose major version is not 1;
 * TF_RESOURCE_EXHAUSTED when out of memory. Caller frees the result with
 * TF_DeleteTensor. */
TF_CAPI_EXPORT extern TF_Tensor* TF_TensorFromDLPack(DLManagedTensor* dlm, TF_Status* status);
TF_CAPI_EXPORT extern TF_Tensor* TF_TensorFromDLPackVersioned(DLManagedTensorVersioned* dlm,
                                                              TF_Status* status);

#ifdef __cplusplus
}
#endif

#endif
