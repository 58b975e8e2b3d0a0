/* The public C API (TensorFlow's c_api.h): thin functions over the runtime.
 * The GraphDef/proto-related entry points live in c_api_proto.c. */
#include "tensorflow/c/c_api.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/attr.h"
#include "runtime/graph.h"
#include "runtime/graph_build.h"
#include "runtime/session.h"
#include "runtime/status.h"
#include "runtime/tensor.h"

const char* TF_Version(void) { return "2.21.0-minitf"; }

/* ---- status ---- */

TF_Status* TF_NewStatus(void) { return calloc(1, sizeof(TF_Status)); }

void TF_DeleteStatus(TF_Status* s) {
  if (!s) return;
  free(s->msg);
  free(s);
}

void TF_SetStatus(TF_Status* s, TF_Code code, const char* msg) {
  free(s->msg);
  s->msg = NULL;
  s->code = code;
  if (code != TF_OK && msg) s->msg = strdup(msg);
}

TF_Code TF_GetCode(const TF_Status* s) { return s->code; }

const char* TF_Message(const TF_Status* s) { return s->msg ? s->msg : ""; }

/* ---- buffers ---- */

static void free_buffer_data(void* data, size_t length) { free(data); }

TF_Buffer* TF_NewBuffer(void) { return calloc(1, sizeof(TF_Buffer)); }

TF_Buffer* TF_NewBufferFromString(const void* proto, size_t proto_len) {
  TF_Buffer* b = TF_NewBuffer();
  void* copy = malloc(proto_len ? proto_len : 1);
  if (!b || !copy) {
    free(b);
    free(copy);
    return NULL;
  }
  if (proto_len) memcpy(copy, proto, proto_len);
  b->data = copy;
  b->length = proto_len;
  b->data_deallocator = free_buffer_data;
  return b;
}

void TF_DeleteBuffer(TF_Buffer* buffer) {
  if (!buffer) return;
  if (buffer->data_deallocator) buffer->data_deallocator((void*)buffer->data, buffer->length);
  free(buffer);
}

TF_Buffer TF_GetBuffer(TF_Buffer* buffer) { return *buffer; }

/* ---- tensors ---- */

TF_Tensor* TF_NewTensor(TF_DataType dtype, const int64_t* dims, int num_dims, void* data,
                        size_t len, void (*deallocator)(void* data, size_t len, void* arg),
                        void* deallocator_arg) {
  TF_Status st = {TF_OK, NULL};
  int64_t n = num_dims >= 0 && num_dims <= MT_MAX_DIMS ? mt_num_elements(dims, num_dims) : -1;
  size_t esize = TF_DataTypeSize(dtype);
  TF_Tensor* t = NULL;
  if (n >= 0 && (esize == 0 || (uint64_t)n <= len / esize))
    t = mt_tensor_wrap(dtype, dims, num_dims, data, len, deallocator, deallocator_arg, 0, &st);
  free(st.msg);
  if (!t && deallocator) deallocator(data, len, deallocator_arg);
  return t;
}

TF_Tensor* TF_AllocateTensor(TF_DataType dtype, const int64_t* dims, int num_dims, size_t len) {
  TF_Status st = {TF_OK, NULL};
  TF_Tensor* t = mt_tensor_new(dtype, dims, num_dims, &st);
  if (t && t->buf->len != len) { /* TensorFlow requires len to match the shape */
    mt_tensor_free(t);
    t = NULL;
  }
  free(st.msg);
  return t;
}

void TF_DeleteTensor(TF_Tensor* t) { mt_tensor_free(t); }
TF_DataType TF_TensorType(const TF_Tensor* t) { return t->dtype; }
int TF_NumDims(const TF_Tensor* t) { return t->ndims; }
int64_t TF_Dim(const TF_Tensor* t, int i) { return i >= 0 && i < t->ndims ? t->dims[i] : -1; }
size_t TF_TensorByteSize(const TF_Tensor* t) { return t->buf ? t->buf->len : 0; }
void* TF_TensorData(const TF_Tensor* t) { return mt_tensor_data(t); }
int64_t TF_TensorElementCount(const TF_Tensor* t) { return mt_tensor_nelems(t); }
TF_Tensor* TF_TensorMaybeMove(TF_Tensor* t) { return t && mt_tensor_unique(t) ? t : NULL; }

int TF_TensorIsAligned(const TF_Tensor* t) {
  return ((uintptr_t)mt_tensor_data(t) % MT_ALIGN) == 0;
}

void TF_TensorBitcastFrom(const TF_Tensor* from, TF_DataType type, TF_Tensor* to,
                          const int64_t* new_dims, int num_new_dims, TF_Status* status) {
  TF_SetStatus(status, TF_OK, NULL);
  int64_t n = num_new_dims >= 0 && num_new_dims <= MT_MAX_DIMS
                  ? mt_num_elements(new_dims, num_new_dims) : -1;
  if (n < 0 || (uint64_t)n * TF_DataTypeSize(type) != TF_TensorByteSize(from)) {
    mt_status_setf(status, TF_INVALID_ARGUMENT,
                   "TensorShape and DataType do not match the source tensor's byte size");
    return;
  }
  TF_Tensor* shared = mt_tensor_reshape(from, new_dims, num_new_dims);
  if (!shared) {
    mt_status_setf(status, TF_RESOURCE_EXHAUSTED, "OOM");
    return;
  }
  mt_buffer* old = to->buf;
  to->buf = shared->buf;
  to->dtype = type;
  to->ndims = num_new_dims;
  memcpy(to->dims, new_dims, sizeof(int64_t) * (size_t)num_new_dims);
  shared->buf = old; /* releases `to`'s old buffer */
  mt_tensor_free(shared);
}

/* ---- session options ---- */

TF_SessionOptions* TF_NewSessionOptions(void) { return calloc(1, sizeof(TF_SessionOptions)); }

void TF_SetTarget(TF_SessionOptions* o, const char* target) {
  free(o->target);
  o->target = target ? strdup(target) : NULL;
}

void TF_DeleteSessionOptions(TF_SessionOptions* o) {
  if (!o) return;
  free(o->target);
  free(o);
}

/* ---- graph ---- */

TF_Graph* TF_NewGraph(void) { return mt_graph_new(); }

void TF_DeleteGraph(TF_Graph* g) {
  if (!g) return;
  pthread_mutex_lock(&g->mu);
  int now = g->nsessions == 0;
  g->delete_requested = 1;
  pthread_mutex_unlock(&g->mu);
  if (now) mt_graph_free(g);
}

static int get_static_shape(TF_Graph* g, TF_Output o, mt_shape** out, TF_Status* s) {
  TF_SetStatus(s, TF_OK, NULL);
  if (!o.oper || o.oper->graph != g || o.index < 0 || o.index >= o.oper->noutputs) {
    mt_status_setf(s, TF_OUT_OF_RANGE, "Output index out of range or operation not in graph");
    return 0;
  }
  *out = &o.oper->output_shapes[o.index];
  return 1;
}

int TF_GraphGetTensorNumDims(TF_Graph* g, TF_Output o, TF_Status* s) {
  mt_shape* sh;
  if (!get_static_shape(g, o, &sh, s)) return -1;
  return sh->rank;
}

void TF_GraphGetTensorShape(TF_Graph* g, TF_Output o, int64_t* dims, int num_dims, TF_Status* s) {
  mt_shape* sh;
  if (!get_static_shape(g, o, &sh, s)) return;
  if (num_dims != sh->rank) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Expected rank is %d but actual rank is %d", num_dims,
                   sh->rank);
    return;
  }
  for (int k = 0; k < num_dims; k++) dims[k] = sh->dims[k];
}

void TF_UpdateEdge(TF_Graph* g, TF_Output new_src, TF_Input dst, TF_Status* s) {
  if (!new_src.oper || !dst.oper || new_src.oper->graph != g || dst.oper->graph != g) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Cannot update edge: operations of another graph");
    return;
  }
  if (new_src.index < 0 || new_src.index >= new_src.oper->noutputs) {
    mt_status_setf(s, TF_OUT_OF_RANGE,
                   "Cannot update edge. Output index [%d] is greater than the number of total "
                   "outputs [%d].", new_src.index, new_src.oper->noutputs);
    return;
  }
  if (dst.index < 0 || dst.index >= dst.oper->ninputs) {
    mt_status_setf(s, TF_OUT_OF_RANGE,
                   "Cannot update edge. Input index [%d] is greater than the number of total "
                   "inputs [%d].", dst.index, dst.oper->ninputs);
    return;
  }
  TF_Output old = dst.oper->inputs[dst.index];
  mt_shape merged = old.oper->output_shapes[old.index];
  const mt_shape* want = &new_src.oper->output_shapes[new_src.index];
  if (!mt_shape_merge(&merged, want)) {
    char a[128], b[128];
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Cannot update edge, incompatible shapes: %s and %s.",
                   mt_shape_str(want, a, sizeof(a)),
                   mt_shape_str(&old.oper->output_shapes[old.index], b, sizeof(b)));
    return;
  }
  if (mt_graph_update_input(g, dst.oper, dst.index, new_src, s)) TF_SetStatus(s, TF_OK, "");
}

void TF_GraphSetTensorShape(TF_Graph* g, TF_Output o, const int64_t* dims, const int num_dims,
                            TF_Status* s) {
  mt_shape* sh;
  if (!get_static_shape(g, o, &sh, s)) return;
  if (num_dims > MT_MAX_DIMS) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Rank %d exceeds the maximum %d", num_dims, MT_MAX_DIMS);
    return;
  }
  mt_shape want = num_dims < 0 ? mt_shape_unknown() : mt_shape_make(dims, num_dims);
  pthread_mutex_lock(&g->mu);
  mt_shape merged = *sh;
  int ok = mt_shape_merge(&merged, &want);
  if (ok) *sh = merged;
  pthread_mutex_unlock(&g->mu);
  if (!ok) {
    char a[256], b[256];
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Dimensions must be equal, but shapes %s and %s are not compatible for '%s'",
                   mt_shape_str(sh, a, sizeof(a)), mt_shape_str(&want, b, sizeof(b)),
                   o.oper->name);
  }
}

/* ---- operation descriptions ---- */

TF_OperationDescription* TF_NewOperation(TF_Graph* graph, const char* op_type,
                                         const char* oper_name) {
  return mt_desc_new(graph, op_type, oper_name);
}

void TF_SetDevice(TF_OperationDescription* d, const char* device) { mt_desc_set_device(d, device); }

void TF_AddInput(TF_OperationDescription* d, TF_Output input) { mt_desc_add_input(d, &input, 1, 0); }

void TF_AddInputList(TF_OperationDescription* d, const TF_Output* inputs, int num_inputs) {
  mt_desc_add_input(d, inputs, num_inputs, 1);
}

void TF_AddControlInput(TF_OperationDescription* d, TF_Operation* input) {
  mt_desc_add_control(d, input);
}

void TF_SetAttrString(TF_OperationDescription* d, const char* name, const void* value,
                      size_t length) {
  mt_attr_value v = mt_attr_scalar(MT_ATTR_S);
  mt_desc_set_bytes(&v.v.s, value, length, d);
  mt_desc_set_attr(d, name, &v);
}

void TF_SetAttrStringList(TF_OperationDescription* d, const char* name, const void* const* values,
                          const size_t* lengths, int num_values) {
  mt_attr_value v = mt_attr_list(MT_ATTR_S, num_values);
  v.list.s = calloc((size_t)(v.list.n ? v.list.n : 1), sizeof(mt_bytes));
  if (!v.list.s) d->alloc_failed = 1;
  for (int k = 0; v.list.s && k < v.list.n; k++) mt_desc_set_bytes(&v.list.s[k], values[k], lengths[k], d);
  mt_desc_set_attr(d, name, &v);
}

void TF_SetAttrInt(TF_OperationDescription* d, const char* name, int64_t value) {
  mt_attr_value v = mt_attr_scalar(MT_ATTR_I);
  v.v.i = value;
  mt_desc_set_attr(d, name, &v);
}

/* Copies a plain array into a freshly allocated list field. */
#define SET_LIST(kind, field, values, count)                                            \
  do {                                                                                \
    mt_attr_value v = mt_attr_list(kind, count);                                           \
    v.list.field = calloc((size_t)(v.list.n ? v.list.n : 1), sizeof(*v.list.field));  \
    if (!v.list.field) d->alloc_failed = 1;                                           \
    for (int k = 0; v.list.field && k < v.list.n; k++) v.list.field[k] = (values)[k]; \
    mt_desc_set_attr(d, name, &v);                                                            \
  } while (0)

void TF_SetAttrIntList(TF_OperationDescription* d, const char* name, const int64_t* values,
                       int num_values) {
  SET_LIST(MT_ATTR_I, i, values, num_values);
}

void TF_SetAttrFloat(TF_OperationDescription* d, const char* name, float value) {
  mt_attr_value v = mt_attr_scalar(MT_ATTR_F);
  v.v.f = value;
  mt_desc_set_attr(d, name, &v);
}

void TF_SetAttrFloatList(TF_OperationDescription* d, const char* name, const float* values,
                         int num_values) {
  SET_LIST(MT_ATTR_F, f, values, num_values);
}

void TF_SetAttrBool(TF_OperationDescription* d, const char* name, unsigned char value) {
  mt_attr_value v = mt_attr_scalar(MT_ATTR_B);
  v.v.b = value != 0;
  mt_desc_set_attr(d, name, &v);
}

void TF_SetAttrBoolList(TF_OperationDescription* d, const char* name, const unsigned char* values,
                        int num_values) {
  SET_LIST(MT_ATTR_B, b, values, num_values);
}

void TF_SetAttrType(TF_OperationDescription* d, const char* name, TF_DataType value) {
  mt_attr_value v = mt_attr_scalar(MT_ATTR_TYPE);
  v.v.type = value;
  mt_desc_set_attr(d, name, &v);
}

void TF_SetAttrTypeList(TF_OperationDescription* d, const char* name, const TF_DataType* values,
                        int num_values) {
  SET_LIST(MT_ATTR_TYPE, type, values, num_values);
}

void TF_SetAttrPlaceholder(TF_OperationDescription* d, const char* name, const char* placeholder) {
  mt_attr_value v = mt_attr_scalar(MT_ATTR_PLACEHOLDER);
  mt_desc_set_bytes(&v.v.s, placeholder, placeholder ? strlen(placeholder) : 0, d);
  mt_desc_set_attr(d, name, &v);
}

void TF_SetAttrFuncName(TF_OperationDescription* d, const char* name, const char* value,
                        size_t length) {
  mt_attr_value v = mt_attr_scalar(MT_ATTR_FUNC);
  mt_desc_set_bytes(&v.v.s, value, length, d);
  mt_desc_set_attr(d, name, &v);
}

static void defer_error(TF_OperationDescription* d, TF_Code code, const char* msg,
                        const char* name) {
  if (!d->deferred) d->deferred = TF_NewStatus();
  if (d->deferred && mt_ok(d->deferred))
    mt_status_setf(d->deferred, code, "%s (attr '%s' of node '%s')", msg, name, d->name);
}

static mt_shape shape_from(const int64_t* dims, int num_dims, TF_OperationDescription* d,
                           const char* name) {
  if (num_dims < 0) return mt_shape_unknown();
  if (num_dims > MT_MAX_DIMS) {
    defer_error(d, TF_INVALID_ARGUMENT, "Shape rank exceeds the maximum", name);
    return mt_shape_unknown();
  }
  return mt_shape_make(dims, num_dims);
}

void TF_SetAttrShape(TF_OperationDescription* d, const char* name, const int64_t* dims,
                     int num_dims) {
  mt_attr_value v = mt_attr_scalar(MT_ATTR_SHAPE);
  v.v.shape = shape_from(dims, num_dims, d, name);
  mt_desc_set_attr(d, name, &v);
}

void TF_SetAttrShapeList(TF_OperationDescription* d, const char* name, const int64_t* const* dims,
                         const int* num_dims, int num_shapes) {
  mt_attr_value v = mt_attr_list(MT_ATTR_SHAPE, num_shapes);
  v.list.shape = calloc((size_t)(v.list.n ? v.list.n : 1), sizeof(mt_shape));
  if (!v.list.shape) d->alloc_failed = 1;
  for (int k = 0; v.list.shape && k < v.list.n; k++)
    v.list.shape[k] = shape_from(dims[k], num_dims[k], d, name);
  mt_desc_set_attr(d, name, &v);
}

void TF_SetAttrTensor(TF_OperationDescription* d, const char* name, TF_Tensor* value,
                      TF_Status* s) {
  TF_SetStatus(s, TF_OK, NULL);
  if (!value) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "NULL tensor for attr '%s'", name);
    return;
  }
  mt_attr_value v = mt_attr_scalar(MT_ATTR_TENSOR);
  v.v.tensor = mt_tensor_copy(value, s);
  if (!v.v.tensor) return;
  mt_desc_set_attr(d, name, &v);
}

void TF_SetAttrTensorList(TF_OperationDescription* d, const char* name, TF_Tensor* const* values,
                          int num_values, TF_Status* s) {
  TF_SetStatus(s, TF_OK, NULL);
  mt_attr_value v = mt_attr_list(MT_ATTR_TENSOR, num_values);
  v.list.tensor = mt_calloc((size_t)(v.list.n ? v.list.n : 1), sizeof(TF_Tensor*), s);
  for (int k = 0; v.list.tensor && k < v.list.n && mt_ok(s); k++)
    v.list.tensor[k] = values[k] ? mt_tensor_copy(values[k], s) : NULL;
  if (mt_ok(s)) {
    for (int k = 0; k < v.list.n; k++)
      if (!v.list.tensor[k]) mt_status_setf(s, TF_INVALID_ARGUMENT, "NULL tensor in attr '%s'", name);
  }
  if (!mt_ok(s)) {
    mt_attr_value_clear(&v);
    return;
  }
  mt_desc_set_attr(d, name, &v);
}

void TF_ColocateWith(TF_OperationDescription* d, TF_Operation* op) { mt_desc_colocate_with(d, op); }

TF_Operation* TF_FinishOperation(TF_OperationDescription* d, TF_Status* s) {
  if (!d) {
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM creating an operation description");
    return NULL;
  }
  return mt_graph_finish(d, s);
}

/* ---- operation accessors ---- */

const char* TF_OperationName(TF_Operation* op) { return op->name; }
const char* TF_OperationOpType(TF_Operation* op) { return op->op_type; }
const char* TF_OperationDevice(TF_Operation* op) { return op->device; }
int TF_OperationNumOutputs(TF_Operation* op) { return op->noutputs; }
int TF_OperationNumInputs(TF_Operation* op) { return op->ninputs; }

TF_DataType TF_OperationOutputType(TF_Output o) {
  return o.index >= 0 && o.index < o.oper->noutputs ? o.oper->output_types[o.index] : 0;
}

TF_DataType TF_OperationInputType(TF_Input in) {
  return in.index >= 0 && in.index < in.oper->ninputs ? in.oper->input_types[in.index] : 0;
}

int TF_OperationOutputListLength(TF_Operation* op, const char* arg_name, TF_Status* s) {
  int start, len;
  TF_SetStatus(s, TF_OK, NULL);
  if (!mt_op_output_range(op, arg_name, &start, &len)) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Output arg '%s' not found in op '%s'", arg_name,
                   op->name);
    return -1;
  }
  return len;
}

int TF_OperationInputListLength(TF_Operation* op, const char* arg_name, TF_Status* s) {
  int start, len;
  TF_SetStatus(s, TF_OK, NULL);
  if (!mt_op_input_range(op, arg_name, &start, &len)) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Input arg '%s' not found in op '%s'", arg_name,
                   op->name);
    return -1;
  }
  return len;
}

TF_Output TF_OperationInput(TF_Input in) {
  if (in.index < 0 || in.index >= in.oper->ninputs) {
    TF_Output none = {NULL, -1};
    return none;
  }
  return in.oper->inputs[in.index];
}

void TF_OperationAllInputs(TF_Operation* op, TF_Output* inputs, int max_inputs) {
  for (int k = 0; k < op->ninputs && k < max_inputs; k++) inputs[k] = op->inputs[k];
}

int TF_OperationOutputNumConsumers(TF_Output o) {
  return o.index >= 0 && o.index < o.oper->noutputs ? o.oper->consumers[o.index].n : 0;
}

int TF_OperationOutputConsumers(TF_Output o, TF_Input* consumers, int max_consumers) {
  if (o.index < 0 || o.index >= o.oper->noutputs) return 0;
  const mt_consumers* c = &o.oper->consumers[o.index];
  for (int k = 0; k < c->n && k < max_consumers; k++) consumers[k] = c->items[k];
  return c->n;
}

int TF_OperationNumControlInputs(TF_Operation* op) { return op->ncontrol_inputs; }

int TF_OperationGetControlInputs(TF_Operation* op, TF_Operation** out, int max) {
  int n = 0;
  for (; n < op->ncontrol_inputs && n < max; n++) out[n] = op->control_inputs[n];
  return n;
}

int TF_OperationNumControlOutputs(TF_Operation* op) { return op->ncontrol_outputs; }

int TF_OperationGetControlOutputs(TF_Operation* op, TF_Operation** out, int max) {
  int n = 0;
  for (; n < op->ncontrol_outputs && n < max; n++) out[n] = op->control_outputs[n];
  return n;
}

/* ---- attr getters ---- */

static const mt_attr_value* find_attr(TF_Operation* op, const char* name, TF_Status* s) {
  TF_SetStatus(s, TF_OK, NULL);
  const mt_attr_value* v = mt_op_attr(op, name);
  if (!v)
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Operation '%s' has no attr named '%s'.", op->name,
                   name);
  return v;
}

static const mt_attr_value* typed_attr(TF_Operation* op, const char* name, mt_attr_kind kind,
                                       int is_list, TF_Status* s) {
  const mt_attr_value* v = find_attr(op, name, s);
  if (!v) return NULL;
  int empty_list = v->is_list && v->list.n == 0;
  if (v->is_list != is_list || (v->kind != kind && !empty_list)) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Attribute '%s' of '%s' is not of the requested type (it is %s)",
                   name, op->name, mt_attr_type_name(v));
    return NULL;
  }
  return v;
}

static TF_AttrType attr_type_of(mt_attr_kind k) {
  switch (k) {
    case MT_ATTR_S: return TF_ATTR_STRING;
    case MT_ATTR_I: return TF_ATTR_INT;
    case MT_ATTR_F: return TF_ATTR_FLOAT;
    case MT_ATTR_B: return TF_ATTR_BOOL;
    case MT_ATTR_TYPE: return TF_ATTR_TYPE;
    case MT_ATTR_SHAPE: return TF_ATTR_SHAPE;
    case MT_ATTR_TENSOR: return TF_ATTR_TENSOR;
    case MT_ATTR_PLACEHOLDER: return TF_ATTR_PLACEHOLDER;
    default: return TF_ATTR_FUNC;
  }
}

TF_AttrMetadata TF_OperationGetAttrMetadata(TF_Operation* op, const char* name, TF_Status* s) {
  TF_AttrMetadata m = {0, -1, TF_ATTR_STRING, -1};
  const mt_attr_value* v = find_attr(op, name, s);
  if (!v) return m;
  m.type = attr_type_of(v->kind);
  m.is_list = (unsigned char)v->is_list;
  if (v->is_list) {
    m.list_size = v->list.n;
    if (v->kind == MT_ATTR_S) {
      m.total_size = 0;
      for (int k = 0; k < v->list.n; k++) m.total_size += (int64_t)v->list.s[k].len;
    } else if (v->kind == MT_ATTR_SHAPE) {
      m.total_size = 0;
      for (int k = 0; k < v->list.n; k++)
        m.total_size += v->list.shape[k].rank < 0 ? 0 : v->list.shape[k].rank;
    }
  } else if (v->kind == MT_ATTR_S || v->kind == MT_ATTR_FUNC || v->kind == MT_ATTR_PLACEHOLDER) {
    m.total_size = (int64_t)v->v.s.len;
  } else if (v->kind == MT_ATTR_SHAPE) {
    m.total_size = v->v.shape.rank;
  }
  return m;
}

void TF_OperationGetAttrString(TF_Operation* op, const char* name, void* value, size_t max_length,
                               TF_Status* s) {
  const mt_attr_value* v = typed_attr(op, name, MT_ATTR_S, 0, s);
  if (!v) return;
  size_t n = v->v.s.len < max_length ? v->v.s.len : max_length;
  if (n) memcpy(value, v->v.s.data, n);
}

void TF_OperationGetAttrInt(TF_Operation* op, const char* name, int64_t* value, TF_Status* s) {
  const mt_attr_value* v = typed_attr(op, name, MT_ATTR_I, 0, s);
  if (v) *value = v->v.i;
}

void TF_OperationGetAttrIntList(TF_Operation* op, const char* name, int64_t* values,
                                int max_values, TF_Status* s) {
  const mt_attr_value* v = typed_attr(op, name, MT_ATTR_I, 1, s);
  for (int k = 0; v && k < v->list.n && k < max_values; k++) values[k] = v->list.i[k];
}

void TF_OperationGetAttrFloat(TF_Operation* op, const char* name, float* value, TF_Status* s) {
  const mt_attr_value* v = typed_attr(op, name, MT_ATTR_F, 0, s);
  if (v) *value = v->v.f;
}

void TF_OperationGetAttrBool(TF_Operation* op, const char* name, unsigned char* value,
                             TF_Status* s) {
  const mt_attr_value* v = typed_attr(op, name, MT_ATTR_B, 0, s);
  if (v) *value = (unsigned char)v->v.b;
}

void TF_OperationGetAttrType(TF_Operation* op, const char* name, TF_DataType* value,
                             TF_Status* s) {
  const mt_attr_value* v = typed_attr(op, name, MT_ATTR_TYPE, 0, s);
  if (v) *value = v->v.type;
}

void TF_OperationGetAttrTypeList(TF_Operation* op, const char* name, TF_DataType* values,
                                 int max_values, TF_Status* s) {
  const mt_attr_value* v = typed_attr(op, name, MT_ATTR_TYPE, 1, s);
  for (int k = 0; v && k < v->list.n && k < max_values; k++) values[k] = v->list.type[k];
}

void TF_OperationGetAttrShape(TF_Operation* op, const char* name, int64_t* value, int num_dims,
                              TF_Status* s) {
  const mt_attr_value* v = typed_attr(op, name, MT_ATTR_SHAPE, 0, s);
  for (int k = 0; v && k < v->v.shape.rank && k < num_dims; k++) value[k] = v->v.shape.dims[k];
}

void TF_OperationGetAttrTensor(TF_Operation* op, const char* name, TF_Tensor** value,
                               TF_Status* s) {
  const mt_attr_value* v = typed_attr(op, name, MT_ATTR_TENSOR, 0, s);
  if (v) *value = mt_tensor_copy(v->v.tensor, s);
}

/* ---- graph traversal ---- */

TF_Operation* TF_GraphOperationByName(TF_Graph* g, const char* name) {
  return mt_graph_find(g, name);
}

TF_Operation* TF_GraphNextOperation(TF_Graph* g, size_t* pos) {
  if (*pos >= (size_t)g->nops) return NULL;
  return g->ops[(*pos)++];
}

/* ---- sessions ---- */

TF_Session* TF_NewSession(TF_Graph* graph, const TF_SessionOptions* opts, TF_Status* s) {
  TF_SetStatus(s, TF_OK, NULL);
  return mt_session_new(graph, opts, s);
}

void TF_CloseSession(TF_Session* sess, TF_Status* s) {
  TF_SetStatus(s, TF_OK, NULL);
  mt_session_close(sess);
}

void TF_DeleteSession(TF_Session* sess, TF_Status* s) {
  TF_SetStatus(s, TF_OK, NULL);
  if (!sess) return;
  TF_Graph* g = sess->graph;
  if (mt_session_delete(sess)) mt_graph_free(g);
}

void TF_SessionRun(TF_Session* sess, const TF_Buffer* run_options, const TF_Output* inputs,
                   TF_Tensor* const* input_values, int ninputs, const TF_Output* outputs,
                   TF_Tensor** output_values, int noutputs, const TF_Operation* const* target_opers,
                   int ntargets, TF_Buffer* run_metadata, TF_Status* s) {
  TF_SetStatus(s, TF_OK, NULL);
  int trace = run_options ? mt_run_options_trace_level(run_options->data, run_options->length, s)
                          : 0;
  if (trace < 0) return;
  int64_t timeout_ms =
      run_options ? mt_run_options_timeout_ms(run_options->data, run_options->length, s) : 0;
  if (!mt_ok(s)) return;
  if (!run_metadata || trace == 0) {
    mt_session_run_opts(sess, inputs, input_values, ninputs, outputs, output_values, noutputs,
                        target_opers, ntargets, timeout_ms, NULL, s);
    if (run_metadata && mt_ok(s)) mt_run_metadata_write(NULL, run_metadata, s);
    return;
  }
  /* Traced run: per-node step stats into run_metadata (RunMetadata proto). */
  mt_step_stats stats = {0};
  mt_session_run_opts(sess, inputs, input_values, ninputs, outputs, output_values, noutputs,
                      target_opers, ntargets, timeout_ms, &stats, s);
  if (mt_ok(s)) mt_run_metadata_write(&stats, run_metadata, s);
  mt_step_stats_free(&stats);
}

/* ---- partial runs ---- */

void TF_SessionPRunSetup(TF_Session* session, const TF_Output* inputs, int ninputs,
                         const TF_Output* outputs, int noutputs,
                         const TF_Operation* const* target_opers, int ntargets,
                         const char** handle, TF_Status* status) {
  TF_SetStatus(status, TF_OK, NULL);
  mt_session_prun_setup(session, inputs, ninputs, outputs, noutputs, target_opers, ntargets,
                        handle, status);
}

void TF_SessionPRun(TF_Session* session, const char* handle, const TF_Output* inputs,
                    TF_Tensor* const* input_values, int ninputs, const TF_Output* outputs,
                    TF_Tensor** output_values, int noutputs,
                    const TF_Operation* const* target_opers, int ntargets, TF_Status* status) {
  TF_SetStatus(status, TF_OK, NULL);
  mt_session_prun(session, handle, inputs, input_values, ninputs, outputs, output_values,
                  noutputs, target_opers, ntargets, status);
}

void TF_DeletePRunHandle(const char* handle) {
  mt_prun_delete_handle(handle);
  free((char*)handle);
}
