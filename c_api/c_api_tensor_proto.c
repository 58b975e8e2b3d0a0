/* TF_TensorFromProto / TF_TensorToProto (tensor_proto.h) over the codec in
 * runtime/graphdef.c. */
#include <stdlib.h>

#include "runtime/graphdef.h"
#include "runtime/status.h"
#include "runtime/tensor.h"
#include "tensorflow/c/tensor_proto.h"

void TF_TensorFromProto(const TF_Buffer* from, TF_Tensor** to, TF_Status* status) {
  *to = NULL;
  if (from == NULL || (from->data == NULL && from->length > 0)) {
    mt_status_setf(status, TF_INVALID_ARGUMENT, "TF_TensorFromProto: NULL buffer");
    return;
  }
  *to = mt_tensor_parse(from->data, from->length, status);
  if (*to) TF_SetStatus(status, TF_OK, "");
}

static void free_proto_bytes(void* data, size_t len) {
  (void)len;
  free(data);
}

void TF_TensorToProto(const TF_Tensor* tensor, TF_Buffer* to, int use_tensor_content,
                      TF_Status* status) {
  if (tensor == NULL || to == NULL) {
    mt_status_setf(status, TF_INVALID_ARGUMENT, "TF_TensorToProto: NULL tensor or buffer");
    return;
  }
  if (!mt_dtype_valid(tensor->dtype) || tensor->dtype == TF_RESOURCE ||
      tensor->dtype == TF_VARIANT) {
    mt_status_setf(status, TF_INVALID_ARGUMENT,
                   "TF_TensorToProto: dtype %s has no TensorProto encoding",
                   mt_dtype_name(tensor->dtype));
    return;
  }
  mt_proto_layout layout = use_tensor_content < 0   ? MT_PROTO_AUTO
                           : use_tensor_content > 0 ? MT_PROTO_CONTENT
                                                    : MT_PROTO_TYPED;
  mt_pb_writer w = mt_pb_writer_make();
  mt_tensor_to_proto_as(&w, tensor, layout);
  if (w.failed) {
    mt_pb_writer_free(&w);
    mt_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory serializing a TensorProto");
    return;
  }
  size_t len;
  uint8_t* data = mt_pb_writer_take(&w, &len);
  to->data = data;
  to->length = len;
  to->data_deallocator = data ? free_proto_bytes : NULL;
  TF_SetStatus(status, TF_OK, "");
}
