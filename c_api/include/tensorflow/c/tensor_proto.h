/* TF_Tensor <-> serialized tensorflow.TensorProto.
 *
 * TensorFlow keeps these conversions internal (Tensor::FromProto,
 * Tensor::AsProtoField / AsProtoTensorContent; TF_TensorFromProto in
 * c_api_experimental); minitf exposes them with the same names so C programs
 * can read and write the tensors of GraphDefs, checkpoints and summaries.
 * The bytes are the wire format of tensorflow/core/framework/tensor.proto and
 * interchangeable with real TensorFlow's.
 *
 * Thread-safety: both functions are reentrant; concurrent calls on distinct
 * outputs are safe. */
#ifndef TENSORFLOW_C_TENSOR_PROTO_H_
#define TENSORFLOW_C_TENSOR_PROTO_H_

#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Decodes the TensorProto in `from` into a new tensor stored in *to (the
 * caller frees it with TF_DeleteTensor). Reads `tensor_content` when present,
 * else the typed repeated field of the dtype (float_val, double_val, int_val,
 * int64_val, bool_val, string_val, half_val, scomplex_val, dcomplex_val,
 * uint32_val, uint64_val, float8_val); a typed field shorter than the shape
 * is filled by repeating its last value (zeros when it is empty), extra
 * values are ignored, as TensorFlow does.
 * Status: TF_OK; TF_INVALID_ARGUMENT for malformed bytes, an unsupported
 * dtype (resource, variant), an unknown or negative shape, tensor_content
 * whose size disagrees with shape and dtype, or an expansion beyond 256 MiB
 * from a short typed field; TF_RESOURCE_EXHAUSTED when memory runs out.
 * On error *to is set to NULL. */
TF_CAPI_EXPORT extern void TF_TensorFromProto(const TF_Buffer* from, TF_Tensor** to,
                                              TF_Status* status);

/* Serializes `tensor` as a TensorProto into `to`, which must be empty (as
 * from TF_NewBuffer); its previous contents are not freed. The buffer owns
 * the bytes (TF_DeleteBuffer frees them).
 * use_tensor_content = 1: the values go to the compact `tensor_content`
 *   bytes (TensorFlow's AsProtoTensorContent; strings as varint lengths
 *   followed by the bytes);
 * use_tensor_content = 0: the typed repeated field, every element written
 *   (AsProtoField);
 * use_tensor_content = -1: what tf.make_tensor_proto writes: tensor_content
 *   for several elements of a numeric dtype, the typed field for scalars,
 *   bool, complex and string.
 * Status: TF_OK; TF_INVALID_ARGUMENT for a NULL tensor or a dtype that has
 * no TensorProto encoding; TF_RESOURCE_EXHAUSTED when memory runs out. */
TF_CAPI_EXPORT extern void TF_TensorToProto(const TF_Tensor* tensor, TF_Buffer* to,
                                            int use_tensor_content, TF_Status* status);

#ifdef __cplusplus
}
#endif

#endif
