/* Graph mutations the Python frontend needs after an operation exists, as
 * TensorFlow's tensorflow/c/python_api.h (AddControlInput, SetAttr,
 * SetRequestedDevice), with C names. Not thread-safe against concurrent
 * construction on the same graph (like graph building in TensorFlow); they
 * take the graph lock for the edit itself. Sessions that already ran the
 * graph build new plans after a control input is added (plans are keyed by
 * the graph's mutation count). */
#ifndef TENSORFLOW_C_PYTHON_API_H_
#define TENSORFLOW_C_PYTHON_API_H_

#include <stddef.h>

#include "tensorflow/c/c_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Adds `input` as a control input of `op` (no-op when already one).
 * TF_INVALID_ARGUMENT for ops of different graphs or input == op;
 * TF_RESOURCE_EXHAUSTED when out of memory. */
TF_CAPI_EXPORT extern void MT_AddControlInput(TF_Graph* graph, TF_Operation* op,
                                              TF_Operation* input, TF_Status* status);

/* Replaces (or adds) attr `attr_name` of `op` with a serialized AttrValue.
 * TF_INVALID_ARGUMENT for unparseable bytes; the op is unchanged then. */
TF_CAPI_EXPORT extern void MT_SetAttr(TF_Graph* graph, TF_Operation* op, const char* attr_name,
                                      const void* proto, size_t proto_len, TF_Status* status);

/* Sets the requested device of `op` (a copy of `device`; "" clears it). */
TF_CAPI_EXPORT extern void MT_SetRequestedDevice(TF_Graph* graph, TF_Operation* op,
                                                 const char* device, TF_Status* status);

/* Like TF_SetAttrTensor, but shares `value`'s buffer instead of copying it
 * (the caller keeps its own reference and may delete it at once; the
 * operation keeps the buffer alive). Lets the importer turn a large
 * tensor_content into a Const without a second copy. */
TF_CAPI_EXPORT extern void MT_SetAttrTensorShared(TF_OperationDescription* desc,
                                                  const char* attr_name, TF_Tensor* value,
                                                  TF_Status* status);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_PYTHON_API_H_ */
