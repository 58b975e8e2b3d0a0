/* Proto encoders for shapes, tensors, attrs, nodes, graphs and op defs, and the
 * ConfigProto subset (see graphdef.h). Field numbers are TensorFlow's. The decoders are
 * in graphdef_decode.c, over protoc-c's generated codec. */
#include "runtime/graphdef.h"
#include "runtime/function.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minitf/core/protobuf/config.pb-c.h"
#include "runtime/status.h"
#include "runtime/tensor.h"

/* ------------------------------------------------------------------------ */
/* TensorShapeProto: dim = 2 { size = 1, name = 2 }, unknown_rank = 3. */

void mt_shape_to_proto(mt_pb_writer* w, const mt_shape* sh) {
  if (sh->rank < 0) {
    mt_pb_put_bool_field(w, 3, 1);
    return;
  }
  for (int k = 0; k < sh->rank; k++) {
    mt_pb_writer d = mt_pb_writer_make();
    if (sh->dims[k] != 0) mt_pb_put_int64_field(&d, 1, sh->dims[k]);
    mt_pb_put_message(w, 2, &d);
  }
}

/* ------------------------------------------------------------------------ */
/* TensorProto: dtype = 1, tensor_shape = 2, tensor_content = 4, typed
 * values: float_val 5, double_val 6, int_val 7, string_val 8, scomplex_val
 * 9, int64_val 10, bool_val 11, dcomplex_val 12, half_val 13, uint32_val 16,
 * uint64_val 17, float8_val 18. */

typedef struct value_field {
  int num;       /* field number holding this dtype's values; 0 = unsupported */
  int wire;      /* element wire type (MT_PB_LEN for strings / float8 bytes) */
  int comps;     /* proto values per element (2 for complex) */
} value_field;

static value_field value_field_for(TF_DataType dt) {
  value_field v = {0, 0, 1};
  switch (dt) {
    case TF_FLOAT: v.num = 5; v.wire = MT_PB_FIXED32; break;
    case TF_DOUBLE: v.num = 6; v.wire = MT_PB_FIXED64; break;
    case TF_INT32: case TF_INT16: case TF_INT8: case TF_UINT8: case TF_UINT16:
    case TF_QINT8: case TF_QUINT8: case TF_QINT16: case TF_QUINT16: case TF_QINT32:
    case TF_INT4: case TF_UINT4: case TF_INT2: case TF_UINT2:
      v.num = 7; v.wire = MT_PB_VARINT; break;
    case TF_STRING: v.num = 8; v.wire = MT_PB_LEN; break;
    case TF_COMPLEX64: v.num = 9; v.wire = MT_PB_FIXED32; v.comps = 2; break;
    case TF_INT64: v.num = 10; v.wire = MT_PB_VARINT; break;
    case TF_BOOL: v.num = 11; v.wire = MT_PB_VARINT; break;
    case TF_COMPLEX128: v.num = 12; v.wire = MT_PB_FIXED64; v.comps = 2; break;
    case TF_HALF: case TF_BFLOAT16: v.num = 13; v.wire = MT_PB_VARINT; break;
    case TF_UINT32: v.num = 16; v.wire = MT_PB_VARINT; break;
    case TF_UINT64: v.num = 17; v.wire = MT_PB_VARINT; break;
    case TF_FLOAT8_E5M2: case TF_FLOAT8_E4M3FN: case TF_FLOAT8_E4M3FNUZ:
    case TF_FLOAT8_E4M3B11FNUZ: case TF_FLOAT8_E5M2FNUZ:
      v.num = 18; v.wire = MT_PB_LEN; break;
    default: break;
  }
  return v;
}

static const TF_TString* tstr(const TF_Tensor* t) { return (const TF_TString*)mt_tensor_data(t); }

/* Raw element bits widened as the typed proto field wants them (int_val
 * holds sign- or zero-extended int32s). */
static uint64_t element_bits(TF_DataType dt, const uint8_t* p, size_t sz) {
  uint64_t v = 0;
  for (size_t k = 0; k < sz; k++) v |= (uint64_t)p[k] << (8 * k);
  int is_signed = dt == TF_INT8 || dt == TF_INT16 || dt == TF_INT32 || dt == TF_QINT8 ||
                  dt == TF_QINT16 || dt == TF_QINT32 || dt == TF_INT4 || dt == TF_INT2;
  if (is_signed && sz < 8 && (v >> (8 * sz - 1)) & 1) v |= ~(uint64_t)0 << (8 * sz);
  if (dt == TF_BOOL) v = v != 0;
  return v;
}

/* The typed repeated field (packed), as make_tensor_proto writes scalars,
 * bools and complex values. */
static void put_typed_values(mt_pb_writer* w, const TF_Tensor* t, int64_t n) {
  value_field vf = value_field_for(t->dtype);
  const uint8_t* d = mt_tensor_data(t);
  size_t csz = TF_DataTypeSize(t->dtype) / (size_t)vf.comps;
  int64_t ncomps = n * vf.comps;
  if (vf.wire == MT_PB_LEN) { /* float8_val: the raw bytes */
    mt_pb_put_bytes_field(w, (uint32_t)vf.num, d, (size_t)n);
    return;
  }
  mt_pb_writer sub = mt_pb_writer_make();
  for (int64_t k = 0; k < ncomps; k++) {
    const uint8_t* p = d + (size_t)k * csz;
    if (vf.wire == MT_PB_VARINT) mt_pb_put_varint(&sub, element_bits(t->dtype, p, csz));
    else mt_pb_put_raw(&sub, p, csz); /* fixed32/64 bits, little-endian host */
  }
  mt_pb_put_message(w, (uint32_t)vf.num, &sub);
}

/* tensor_content of a string tensor, as TensorFlow encodes a string list:
 * every length as a varint, then all the bytes (see decode_string_content). */
static void put_string_content(mt_pb_writer* w, const TF_Tensor* t, int64_t n) {
  const TF_TString* e = tstr(t);
  mt_pb_writer sub = mt_pb_writer_make();
  for (int64_t k = 0; k < n; k++) mt_pb_put_varint(&sub, TF_StringGetSize(&e[k]));
  for (int64_t k = 0; k < n; k++)
    mt_pb_put_raw(&sub, TF_StringGetDataPointer(&e[k]), TF_StringGetSize(&e[k]));
  mt_pb_put_message(w, 4, &sub);
}

void mt_tensor_to_proto(mt_pb_writer* w, const TF_Tensor* t) {
  mt_tensor_to_proto_as(w, t, MT_PROTO_AUTO);
}

void mt_tensor_to_proto_as(mt_pb_writer* w, const TF_Tensor* t, mt_proto_layout layout) {
  mt_pb_put_int64_field(w, 1, t->dtype);
  mt_shape sh = mt_shape_make(t->dims, t->ndims);
  mt_pb_writer sw = mt_pb_writer_make();
  mt_shape_to_proto(&sw, &sh);
  mt_pb_put_message(w, 2, &sw);
  int64_t n = mt_tensor_nelems(t);
  if (n <= 0 || !value_field_for(t->dtype).num) return;
  if (t->dtype == TF_STRING && layout == MT_PROTO_CONTENT) {
    put_string_content(w, t, n);
    return;
  }
  if (t->dtype == TF_STRING) {
    const TF_TString* e = tstr(t);
    for (int64_t k = 0; k < n; k++)
      mt_pb_put_bytes_field(w, 8, TF_StringGetDataPointer(&e[k]), TF_StringGetSize(&e[k]));
    return;
  }
  /* TensorFlow's make_tensor_proto: compact tensor_content for several
   * elements of a plain numeric type, the typed field otherwise. */
  /* (uint16 is missing from TensorFlow's _TENSOR_CONTENT_TYPES.) */
  int content_type = t->dtype != TF_BOOL && t->dtype != TF_COMPLEX64 &&
                     t->dtype != TF_COMPLEX128 && t->dtype != TF_UINT16;
  int use_content = layout == MT_PROTO_CONTENT || (layout == MT_PROTO_AUTO && n > 1 && content_type);
  if (use_content)
    mt_pb_put_bytes_field(w, 4, mt_tensor_data(t), (size_t)n * TF_DataTypeSize(t->dtype));
  else
    put_typed_values(w, t, n);
}

/* ------------------------------------------------------------------------ */
/* AttrValue: list = 1, s = 2, i = 3, f = 4, b = 5, type = 6, shape = 7,
 * tensor = 8, placeholder = 9, func = 10 (NameAttrList{name = 1}).
 * ListValue: s = 2, i = 3, f = 4, b = 5, type = 6, shape = 7, tensor = 8,
 * func = 9. */

static void func_to_proto(mt_pb_writer* w, uint32_t num, const mt_bytes* name) {
  mt_pb_writer sub = mt_pb_writer_make();
  mt_pb_put_bytes_field(&sub, 1, name->data, name->len);
  mt_pb_put_message(w, num, &sub);
}

static void put_packed_varints(mt_pb_writer* w, uint32_t num, const mt_attr_value* v) {
  mt_pb_writer sub = mt_pb_writer_make();
  for (int k = 0; k < v->list.n; k++) {
    uint64_t x = v->kind == MT_ATTR_I ? (uint64_t)v->list.i[k]
               : v->kind == MT_ATTR_B ? (uint64_t)(v->list.b[k] != 0)
                                      : (uint64_t)(int64_t)v->list.type[k];
    mt_pb_put_varint(&sub, x);
  }
  mt_pb_put_message(w, num, &sub);
}

static void list_to_proto(mt_pb_writer* w, const mt_attr_value* v) {
  int n = v->list.n;
  if (n <= 0) return;
  switch (v->kind) {
    case MT_ATTR_S: case MT_ATTR_PLACEHOLDER:
      for (int k = 0; k < n; k++) mt_pb_put_bytes_field(w, 2, v->list.s[k].data, v->list.s[k].len);
      break;
    case MT_ATTR_I: put_packed_varints(w, 3, v); break;
    case MT_ATTR_F: mt_pb_put_packed_float(w, 4, v->list.f, (size_t)n); break;
    case MT_ATTR_B: put_packed_varints(w, 5, v); break;
    case MT_ATTR_TYPE: put_packed_varints(w, 6, v); break;
    case MT_ATTR_SHAPE:
      for (int k = 0; k < n; k++) {
        mt_pb_writer sub = mt_pb_writer_make();
        mt_shape_to_proto(&sub, &v->list.shape[k]);
        mt_pb_put_message(w, 7, &sub);
      }
      break;
    case MT_ATTR_TENSOR:
      for (int k = 0; k < n; k++) {
        mt_pb_writer sub = mt_pb_writer_make();
        mt_tensor_to_proto(&sub, v->list.tensor[k]);
        mt_pb_put_message(w, 8, &sub);
      }
      break;
    case MT_ATTR_FUNC:
      for (int k = 0; k < n; k++) func_to_proto(w, 9, &v->list.s[k]);
      break;
    default: break;
  }
}

void mt_attr_value_to_proto(mt_pb_writer* w, const mt_attr_value* v) {
  mt_pb_writer sub = mt_pb_writer_make();
  if (v->is_list) {
    list_to_proto(&sub, v);
    mt_pb_put_message(w, 1, &sub);
    return;
  }
  switch (v->kind) {
    case MT_ATTR_S: mt_pb_put_bytes_field(w, 2, v->v.s.data, v->v.s.len); break;
    case MT_ATTR_I: mt_pb_put_int64_field(w, 3, v->v.i); break;
    case MT_ATTR_F: mt_pb_put_float_field(w, 4, v->v.f); break;
    case MT_ATTR_B: mt_pb_put_bool_field(w, 5, v->v.b); break;
    case MT_ATTR_TYPE: mt_pb_put_int64_field(w, 6, v->v.type); break;
    case MT_ATTR_SHAPE:
      mt_shape_to_proto(&sub, &v->v.shape);
      mt_pb_put_message(w, 7, &sub);
      break;
    case MT_ATTR_TENSOR:
      if (v->v.tensor) mt_tensor_to_proto(&sub, v->v.tensor);
      mt_pb_put_message(w, 8, &sub);
      break;
    case MT_ATTR_PLACEHOLDER: mt_pb_put_bytes_field(w, 9, v->v.s.data, v->v.s.len); break;
    case MT_ATTR_FUNC: func_to_proto(w, 10, &v->v.s); break;
    default: break;
  }
  mt_pb_writer_free(&sub);
}

/* ------------------------------------------------------------------------ */
/* NodeDef: name = 1, op = 2, input = 3, device = 4, attr = 5 (map entry
 * key = 1, value = 2). GraphDef: node = 1, library = 2, versions = 4
 * (VersionDef producer = 1, min_consumer = 2). */

/* ------------------------------------------------------------------------ */
/* Export */

static int cmp_attr_ptr(const void* a, const void* b) {
  const mt_attr* x = *(const mt_attr* const*)a;
  const mt_attr* y = *(const mt_attr* const*)b;
  return strcmp(x->name, y->name);
}

static void put_input(mt_pb_writer* w, const char* name, int index, int control) {
  size_t n = strlen(name);
  char* buf = malloc(n + 16);
  if (!buf) {
    w->failed = 1;
    return;
  }
  if (control) snprintf(buf, n + 16, "^%s", name);
  else if (index == 0) memcpy(buf, name, n + 1);
  else snprintf(buf, n + 16, "%s:%d", name, index);
  mt_pb_put_string_field(w, 3, buf);
  free(buf);
}

static int cmp_op_name(const void* a, const void* b) {
  return strcmp((*(TF_Operation* const*)a)->name, (*(TF_Operation* const*)b)->name);
}

/* Control inputs in the order they were added, or sorted by name as
 * TensorFlow's Graph::ToGraphDef writes them. */
static void put_control_inputs(mt_pb_writer* w, const TF_Operation* op, int sort) {
  const int n = op->ncontrol_inputs;
  TF_Operation** ctl = op->control_inputs;
  TF_Operation** sorted = NULL;
  if (sort && n > 1) {
    sorted = malloc(sizeof *sorted * (size_t)n);
    if (!sorted) {
      w->failed = 1;
      return;
    }
    memcpy(sorted, ctl, sizeof *sorted * (size_t)n);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_op_name);
    ctl = sorted;
  }
  for (int k = 0; k < n; k++) put_input(w, ctl[k]->name, 0, 1);
  free(sorted);
}

static void node_def(mt_pb_writer* w, const TF_Operation* op, int sort_controls) {
  mt_pb_put_string_field(w, 1, op->name);
  mt_pb_put_string_field(w, 2, op->op_type);
  for (int k = 0; k < op->ninputs; k++)
    put_input(w, op->inputs[k].oper->name, op->inputs[k].index, 0);
  put_control_inputs(w, op, sort_controls);
  if (op->device && op->device[0]) mt_pb_put_string_field(w, 4, op->device);
  mt_attrs_to_proto(w, 5, op->attrs, op->nattrs);
}

void mt_operation_to_node_def(mt_pb_writer* w, const TF_Operation* op) { node_def(w, op, 0); }

void mt_attrs_to_proto(mt_pb_writer* w, uint32_t num, const mt_attr* attrs, int nattrs) {
  if (nattrs <= 0) return;
  const mt_attr** sorted = malloc(sizeof(mt_attr*) * (size_t)nattrs);
  if (!sorted) {
    w->failed = 1;
    return;
  }
  for (int k = 0; k < nattrs; k++) sorted[k] = &attrs[k];
  qsort(sorted, (size_t)nattrs, sizeof *sorted, cmp_attr_ptr);
  for (int k = 0; k < nattrs; k++) {
    mt_pb_writer entry = mt_pb_writer_make(), val = mt_pb_writer_make();
    mt_pb_put_string_field(&entry, 1, sorted[k]->name);
    mt_attr_value_to_proto(&val, &sorted[k]->value);
    mt_pb_put_message(&entry, 2, &val);
    mt_pb_put_message(w, num, &entry);
  }
  free(sorted);
}

int mt_arg_length(const mt_op_def* def, const mt_arg_def* a, const mt_attr* attrs, int nattrs) {
  const char* attr = a->number_attr ? a->number_attr : a->type_list_attr;
  if (!attr) return 1;
  const mt_attr* found = mt_attrs_find(attrs, nattrs, attr);
  const mt_attr_value* v = found ? &found->value : NULL;
  if (!v) {
    const mt_attr_def* ad = mt_op_attr_def(def, attr);
    if (ad && ad->has_default) v = &ad->default_value;
  }
  if (!v) return -1;
  if (!a->number_attr) return v->is_list ? v->list.n : -1;
  if (v->is_list || v->kind != MT_ATTR_I || v->v.i < 0 || v->v.i > (1 << 30)) return -1;
  return (int)v->v.i;
}

void mt_graph_to_graph_def(mt_pb_writer* w, TF_Graph* g) {
  for (int k = 0; k < g->nops; k++) {
    mt_pb_writer node = mt_pb_writer_make();
    node_def(&node, g->ops[k], 1);
    mt_pb_put_message(w, 1, &node);
  }
  mt_pb_writer lib = mt_pb_writer_make();
  mt_graph_library_to_proto(&lib, g);
  if (lib.len) mt_pb_put_message(w, 2, &lib);
  else mt_pb_writer_free(&lib);
  mt_pb_writer v = mt_pb_writer_make();
  mt_pb_put_int64_field(&v, 1, MT_GRAPH_DEF_PRODUCER);
  if (MT_GRAPH_DEF_MIN_CONSUMER) mt_pb_put_int64_field(&v, 2, MT_GRAPH_DEF_MIN_CONSUMER);
  mt_pb_put_message(w, 4, &v);
}

/* OpDef: name = 1, input_arg = 2, output_arg = 3, attr = 4, is_aggregate =
 * 16, is_stateful = 17, is_commutative = 18, allows_uninitialized_input =
 * 19, is_distributed_communication = 21. ArgDef: name = 1, type = 3, type_attr = 4, number_attr = 5,
 * type_list_attr = 6, is_ref = 16. AttrDef: name = 1, type = 2,
 * default_value = 3, has_minimum = 5, minimum = 6, allowed_values = 7. */

static void put_opt_string(mt_pb_writer* w, uint32_t num, const char* str) {
  if (str && str[0]) mt_pb_put_string_field(w, num, str);
}

static void arg_def_to_proto(mt_pb_writer* w, uint32_t num, const mt_arg_def* a) {
  mt_pb_writer sub = mt_pb_writer_make();
  mt_pb_put_string_field(&sub, 1, a->name);
  if (a->type) mt_pb_put_int64_field(&sub, 3, a->type);
  put_opt_string(&sub, 4, a->type_attr);
  put_opt_string(&sub, 5, a->number_attr);
  put_opt_string(&sub, 6, a->type_list_attr);
  if (a->is_ref) mt_pb_put_bool_field(&sub, 16, 1);
  mt_pb_put_message(w, num, &sub);
}

static void attr_def_to_proto(mt_pb_writer* w, const mt_attr_def* a) {
  mt_pb_writer sub = mt_pb_writer_make(), val = mt_pb_writer_make();
  mt_pb_put_string_field(&sub, 1, a->name);
  mt_pb_put_string_field(&sub, 2, a->type);
  if (a->has_default && a->default_value.kind == MT_ATTR_TENSOR && !a->default_value.is_list &&
      a->default_value.v.tensor) {
    /* REGISTER_OP's text defaults are typed fields (int_val: 255 ...), so
     * OpDefs carry them that way, not as tensor_content. */
    mt_pb_writer tp = mt_pb_writer_make();
    mt_tensor_to_proto_as(&tp, a->default_value.v.tensor, MT_PROTO_TYPED);
    mt_pb_put_message(&val, 8, &tp);
    mt_pb_put_message(&sub, 3, &val);
  } else if (a->has_default) {
    mt_attr_value_to_proto(&val, &a->default_value);
    mt_pb_put_message(&sub, 3, &val);
  }
  if (a->has_minimum) {
    mt_pb_put_bool_field(&sub, 5, 1);
    mt_pb_put_int64_field(&sub, 6, a->minimum);
  }
  if (a->has_allowed) {
    mt_attr_value_to_proto(&val, &a->allowed_values);
    mt_pb_put_message(&sub, 7, &val);
  }
  mt_pb_writer_free(&val);
  mt_pb_put_message(w, 4, &sub);
}

void mt_op_def_to_proto(mt_pb_writer* w, const mt_op_def* def) {
  mt_pb_put_string_field(w, 1, def->name);
  for (int k = 0; k < def->ninputs; k++) arg_def_to_proto(w, 2, &def->inputs[k]);
  for (int k = 0; k < def->noutputs; k++) arg_def_to_proto(w, 3, &def->outputs[k]);
  for (int k = 0; k < def->nattrs; k++) attr_def_to_proto(w, &def->attrs[k]);
  if (def->flags & MT_OP_AGGREGATE) mt_pb_put_bool_field(w, 16, 1);
  if (def->flags & MT_OP_STATEFUL) mt_pb_put_bool_field(w, 17, 1);
  if (def->flags & MT_OP_COMMUTATIVE) mt_pb_put_bool_field(w, 18, 1);
  if (def->flags & MT_OP_ALLOWS_UNINITIALIZED_INPUT) mt_pb_put_bool_field(w, 19, 1);
  if (def->flags & MT_OP_DISTRIBUTED_COMMUNICATION) mt_pb_put_bool_field(w, 21, 1);
}

void mt_op_list_to_proto(mt_pb_writer* w, const mt_registry* reg) {
  for (int k = 0; reg && k < reg->nops; k++) {
    mt_pb_writer sub = mt_pb_writer_make();
    mt_op_def_to_proto(&sub, &reg->ops[k]);
    mt_pb_put_message(w, 1, &sub);
  }
}

/* ConfigProto, decoded with the protoc-c codec generated from config.proto: the thread
 * counts, use_per_session_threads, operation_timeout_in_ms, allow_soft_placement and device_count["CPU"]. */
int mt_config_from_proto(const void* data, size_t len, struct TF_SessionOptions* opts,
                         TF_Status* s) {
  Tensorflow__ConfigProto* c = tensorflow__config_proto__unpack(NULL, len, data);
  if (!c) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "malformed ConfigProto");
    return 0;
  }
  /* Values are kept as given (TensorFlow gives negative inter-op counts a
   * meaning: run in the caller's thread); the session interprets them. */
  opts->intra_op_threads = c->intra_op_parallelism_threads;
  opts->inter_op_threads = c->inter_op_parallelism_threads;
  opts->use_per_session_threads = c->use_per_session_threads != 0;
  opts->operation_timeout_ms = c->operation_timeout_in_ms;
  opts->allow_soft_placement = c->allow_soft_placement != 0;
  for (size_t k = 0; k < c->n_device_count; k++)
    if (c->device_count[k]->key && strcmp(c->device_count[k]->key, "CPU") == 0)
      opts->cpu_devices = c->device_count[k]->value;
  tensorflow__config_proto__free_unpacked(c, NULL);
  return 1;
}
