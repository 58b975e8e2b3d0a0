/* GraphDef-family decoding (see graphdef.h): protoc-c's codec, generated from the same
 * .proto files the Python side uses (pyfront/minitf/core/framework/), unpacks the bytes
 * into an arena (runtime/pb_unpack.h); the functions here convert the unpacked messages
 * into the runtime's structures and check what the wire format cannot (dtypes, shapes,
 * sizes). */
#include "runtime/graphdef.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minitf/core/framework/graph.pb-c.h"
#include "runtime/function.h"
#include "runtime/pb_unpack.h"
#include "runtime/status.h"
#include "runtime/tensor.h"

static int oom(TF_Status* s) {
  mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory decoding a proto");
  return 0;
}

static int copy_bin(mt_bytes* b, const void* data, size_t len, TF_Status* s) {
  b->data = malloc(len + 1);
  if (!b->data) return oom(s);
  if (len) memcpy(b->data, data, len);
  b->data[len] = '\0';
  b->len = len;
  return 1;
}

static char* copy_str(const char* str, TF_Status* s) {
  char* d = mt_strdup(str ? str : "");
  if (!d) oom(s);
  return d;
}

/* ------------------------------------------------------------------------ */
/* TensorShapeProto */

int mt_shape_from_pb(const Tensorflow__TensorShapeProto* p, mt_shape* out, TF_Status* s) {
  out->rank = 0;
  if (!p) return 1;
  for (size_t k = 0; k < p->n_dim; k++) {
    int64_t size = p->dim[k]->size;
    if (size < -1) {
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "Shape has dimensions with values below -1 (where -1 means unknown)");
      return 0;
    }
    if (k >= MT_MAX_DIMS) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "Shape has more than %d dimensions", MT_MAX_DIMS);
      return 0;
    }
    out->dims[k] = size;
  }
  out->rank = p->unknown_rank ? -1 : (int)p->n_dim;
  return 1;
}

int mt_shape_parse(const void* data, size_t len, mt_shape* out, TF_Status* s) {
  mt_pb_arena a;
  mt_pb_arena_init(&a);
  ProtobufCMessage* m =
      mt_pb_unpack(&tensorflow__tensor_shape_proto__descriptor, data, len, &a, "TensorShapeProto", s);
  int ok = m && mt_shape_from_pb((Tensorflow__TensorShapeProto*)m, out, s);
  mt_pb_arena_free(&a);
  return ok;
}

/* ------------------------------------------------------------------------ */
/* TensorProto */

/* The typed repeated field holding a dtype's values: `count` components of `width` bytes
 * each at `data` (complex values are two components), or data == NULL for a dtype that
 * has none (unsupported). Each component's low bytes are the element's bytes
 * (little-endian), which is how int_val's int32 becomes int8/int16 and half_val's int32
 * a half: TensorFlow's static_cast. */
typedef struct typed_values {
  const void* data;
  size_t count, width;
  int comps;
} typed_values;

static typed_values typed_values_of(const Tensorflow__TensorProto* p, TF_DataType dt) {
  static const int none = 0;
  typed_values v = {NULL, 0, 4, 1};
#define FROM(field, w) (v.data = p->field ? (const void*)p->field : &none, v.count = p->n_##field, v.width = (w))
  switch (dt) {
    case TF_FLOAT: FROM(float_val, 4); break;
    case TF_DOUBLE: FROM(double_val, 8); break;
    case TF_INT32: case TF_INT16: case TF_INT8: case TF_UINT8: case TF_UINT16:
    case TF_QINT8: case TF_QUINT8: case TF_QINT16: case TF_QUINT16: case TF_QINT32:
    case TF_INT4: case TF_UINT4: case TF_INT2: case TF_UINT2:
      FROM(int_val, 4); break;
    case TF_STRING: FROM(string_val, sizeof(ProtobufCBinaryData)); break;
    case TF_COMPLEX64: FROM(scomplex_val, 4); v.comps = 2; break;
    case TF_INT64: FROM(int64_val, 8); break;
    case TF_BOOL: FROM(bool_val, sizeof(protobuf_c_boolean)); break;
    case TF_COMPLEX128: FROM(dcomplex_val, 8); v.comps = 2; break;
    case TF_HALF: case TF_BFLOAT16: FROM(half_val, 4); break;
    case TF_UINT32: FROM(uint32_val, 4); break;
    case TF_UINT64: FROM(uint64_val, 8); break;
    case TF_FLOAT8_E5M2: case TF_FLOAT8_E4M3FN: case TF_FLOAT8_E4M3FNUZ:
    case TF_FLOAT8_E4M3B11FNUZ: case TF_FLOAT8_E5M2FNUZ: /* bytes, one element per byte */
      v.data = p->float8_val.data ? (const void*)p->float8_val.data : &none;
      v.count = p->float8_val.len;
      v.width = 1;
      break;
    default: break;
  }
#undef FROM
  return v;
}

static TF_TString* tstrings(const TF_Tensor* t) { return (TF_TString*)mt_tensor_data(t); }

/* TensorFlow's rule: missing trailing elements repeat the last value given. */
static void fill_from_last(TF_Tensor* t, int64_t have) {
  int64_t n = mt_tensor_nelems(t);
  if (have <= 0 || have >= n) return;
  if (t->dtype == TF_STRING) {
    TF_TString* e = tstrings(t);
    const char* src = TF_StringGetDataPointer(&e[have - 1]);
    size_t len = TF_StringGetSize(&e[have - 1]);
    for (int64_t k = have; k < n; k++) TF_StringCopy(&e[k], src, len);
    return;
  }
  size_t sz = TF_DataTypeSize(t->dtype);
  uint8_t* d = mt_tensor_data(t);
  for (int64_t k = have; k < n; k++) memcpy(d + (size_t)k * sz, d + (size_t)(have - 1) * sz, sz);
}

/* Copies the typed values into t (extra values are ignored) and pads from the last. */
static void put_typed_values(TF_Tensor* t, typed_values v) {
  int64_t n = mt_tensor_nelems(t);
  if (t->dtype == TF_STRING) {
    const ProtobufCBinaryData* strs = v.data;
    int64_t have = (int64_t)v.count < n ? (int64_t)v.count : n;
    for (int64_t k = 0; k < have; k++)
      TF_StringCopy(&tstrings(t)[k], (const char*)strs[k].data, strs[k].len);
    fill_from_last(t, have);
    return;
  }
  size_t csz = TF_DataTypeSize(t->dtype) / (size_t)v.comps;
  uint64_t ncomps = (uint64_t)n * (uint64_t)v.comps;
  size_t take = v.count < ncomps ? v.count : (size_t)ncomps;
  uint8_t* d = mt_tensor_data(t);
  const uint8_t* src = v.data;
  if (csz == v.width) {
    if (take) memcpy(d, src, take * csz);
  } else {
    for (size_t k = 0; k < take; k++) memcpy(d + k * csz, src + k * v.width, csz);
  }
  fill_from_last(t, (int64_t)(v.count / (size_t)v.comps));
}

/* tensor_content of a string tensor: all lengths as varints, then the bytes. */
static int put_string_content(TF_Tensor* t, const ProtobufCBinaryData* c, TF_Status* s) {
  int64_t n = mt_tensor_nelems(t);
  const uint8_t* p = c->data;
  const uint8_t* end = p + c->len;
  const uint8_t* lens = p;
  uint64_t total = 0, len;
  for (int64_t k = 0; k < n; k++) {
    if (!mt_pb_read_varint(&p, end, &len) || len > (uint64_t)(end - p)) goto bad;
    total += len;
  }
  if (total != (uint64_t)(end - p)) goto bad;
  for (int64_t k = 0; k < n; k++) {
    mt_pb_read_varint(&lens, end, &len);
    TF_StringCopy(&tstrings(t)[k], (const char*)p, (size_t)len);
    p += len;
  }
  return 1;
bad:
  mt_status_setf(s, TF_INVALID_ARGUMENT, "Malformed TensorProto: bad string tensor_content");
  return 0;
}

/* Checks that the values given can fill the shape without asking for more memory than
 * the input justifies. */
static int check_tensor_size(TF_DataType dt, int64_t n, size_t content_len, TF_Status* s) {
  size_t dtsize = TF_DataTypeSize(dt);
  if (content_len > 0) {
    if (dt != TF_STRING && ((uint64_t)n > content_len / dtsize || (size_t)n * dtsize != content_len)) {
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "TensorProto tensor_content has %zu bytes, want %lld elements of %zu bytes",
                     content_len, (long long)n, dtsize);
      return 0;
    }
    if (dt == TF_STRING && (uint64_t)n > content_len) { /* >= 1 length byte each */
      mt_status_setf(s, TF_INVALID_ARGUMENT, "Malformed TensorProto: bad string tensor_content");
      return 0;
    }
  } else if (n > 0 && (uint64_t)n > MT_PB_MAX_FILL_BYTES / dtsize) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "TensorProto of %lld elements is too large to expand from its values",
                   (long long)n);
    return 0;
  }
  return 1;
}

TF_Tensor* mt_tensor_from_pb(const Tensorflow__TensorProto* p, TF_Status* s) {
  mt_shape shape;
  int64_t dtype = (int64_t)p->dtype;
  TF_DataType dt = (TF_DataType)dtype;
  typed_values vals = typed_values_of(p, dt);
  if (dtype <= 0 || dtype > 1000 || !vals.data) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "TensorProto has unsupported dtype %lld",
                   (long long)dtype);
    return NULL;
  }
  if (!mt_shape_from_pb(p->tensor_shape, &shape, s)) return NULL;
  int64_t n = mt_shape_nelems(&shape);
  if (shape.rank < 0 || n < 0) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "TensorProto has an invalid shape");
    return NULL;
  }
  const ProtobufCBinaryData* content = &p->tensor_content;
  if (!check_tensor_size(dt, n, content->len, s)) return NULL;
  TF_Tensor* t = mt_tensor_zeros(dt, shape.dims, shape.rank, s);
  if (!t) return NULL;
  if (content->len > 0 && dt != TF_STRING) {
    memcpy(mt_tensor_data(t), content->data, content->len);
  } else if (content->len > 0) {
    if (!put_string_content(t, content, s)) {
      TF_DeleteTensor(t);
      return NULL;
    }
  } else {
    put_typed_values(t, vals);
  }
  return t;
}

TF_Tensor* mt_tensor_parse(const void* data, size_t len, TF_Status* s) {
  mt_pb_arena a;
  mt_pb_arena_init(&a);
  ProtobufCMessage* m = mt_pb_unpack(&tensorflow__tensor_proto__descriptor, data, len, &a,
                                     "TensorProto", s);
  TF_Tensor* t = m ? mt_tensor_from_pb((Tensorflow__TensorProto*)m, s) : NULL;
  mt_pb_arena_free(&a);
  return t;
}

/* ------------------------------------------------------------------------ */
/* AttrValue. For func values only the function's name is kept (the NameAttrList's attrs
 * are dropped). */

static const char* func_name(const Tensorflow__NameAttrList* f) {
  return f && f->name ? f->name : "";
}

/* list.s / list.func: n byte strings. */
static int list_bytes(mt_attr_value* out, size_t n, const ProtobufCBinaryData* bin,
                      Tensorflow__NameAttrList* const* funcs, TF_Status* s) {
  if (!(out->list.s = calloc(n, sizeof(mt_bytes)))) return oom(s);
  out->list.n = (int)n;
  for (size_t k = 0; k < n; k++) {
    const char* name = bin ? NULL : func_name(funcs[k]);
    if (!copy_bin(&out->list.s[k], bin ? (const void*)bin[k].data : name,
                  bin ? bin[k].len : strlen(name), s))
      return 0;
  }
  return 1;
}

static int list_tensors(mt_attr_value* out, size_t n, Tensorflow__TensorProto* const* ts,
                        TF_Status* s) {
  if (!(out->list.tensor = calloc(n, sizeof(TF_Tensor*)))) return oom(s);
  out->list.n = (int)n;
  for (size_t k = 0; k < n; k++)
    if (!(out->list.tensor[k] = mt_tensor_from_pb(ts[k], s))) return 0;
  return 1;
}

static int list_shapes(mt_attr_value* out, size_t n, Tensorflow__TensorShapeProto* const* sh,
                       TF_Status* s) {
  if (!(out->list.shape = calloc(n, sizeof(mt_shape)))) return oom(s);
  out->list.n = (int)n;
  for (size_t k = 0; k < n; k++)
    if (!mt_shape_from_pb(sh[k], &out->list.shape[k], s)) return 0;
  return 1;
}

/* Scalars widened or narrowed into the runtime's element type. */
static int list_scalars(mt_attr_value* out, size_t n, const void* src, TF_Status* s) {
  size_t k;
  switch (out->kind) {
    case MT_ATTR_I:
      if (!(out->list.i = malloc(n * sizeof(int64_t)))) return oom(s);
      memcpy(out->list.i, src, n * sizeof(int64_t));
      break;
    case MT_ATTR_F:
      if (!(out->list.f = malloc(n * sizeof(float)))) return oom(s);
      memcpy(out->list.f, src, n * sizeof(float));
      break;
    case MT_ATTR_B:
      if (!(out->list.b = malloc(n))) return oom(s);
      for (k = 0; k < n; k++) out->list.b[k] = ((const protobuf_c_boolean*)src)[k] != 0;
      break;
    default: /* MT_ATTR_TYPE */
      if (!(out->list.type = malloc(n * sizeof(TF_DataType)))) return oom(s);
      for (k = 0; k < n; k++) out->list.type[k] = (TF_DataType)((const Tensorflow__DataType*)src)[k];
      break;
  }
  out->list.n = (int)n;
  return 1;
}

/* The first non-empty repeated field (in field order) is the list; none: an empty list
 * of kind MT_ATTR_NONE. */
static int list_from_pb(const Tensorflow__AttrValue__ListValue* l, mt_attr_value* out,
                        TF_Status* s) {
  out->is_list = 1;
  out->kind = MT_ATTR_NONE;
  if (!l) return 1;
  if (l->n_s) return out->kind = MT_ATTR_S, list_bytes(out, l->n_s, l->s, NULL, s);
  if (l->n_i) return out->kind = MT_ATTR_I, list_scalars(out, l->n_i, l->i, s);
  if (l->n_f) return out->kind = MT_ATTR_F, list_scalars(out, l->n_f, l->f, s);
  if (l->n_b) return out->kind = MT_ATTR_B, list_scalars(out, l->n_b, l->b, s);
  if (l->n_type) return out->kind = MT_ATTR_TYPE, list_scalars(out, l->n_type, l->type, s);
  if (l->n_shape) return out->kind = MT_ATTR_SHAPE, list_shapes(out, l->n_shape, l->shape, s);
  if (l->n_tensor) return out->kind = MT_ATTR_TENSOR, list_tensors(out, l->n_tensor, l->tensor, s);
  if (l->n_func) return out->kind = MT_ATTR_FUNC, list_bytes(out, l->n_func, NULL, l->func, s);
  return 1;
}

static int attr_from_pb(const Tensorflow__AttrValue* p, mt_attr_value* v, TF_Status* s) {
  switch (p->value_case) {
    case TENSORFLOW__ATTR_VALUE__VALUE_LIST: return list_from_pb(p->list, v, s);
    case TENSORFLOW__ATTR_VALUE__VALUE_S:
      v->kind = MT_ATTR_S;
      return copy_bin(&v->v.s, p->s.data, p->s.len, s);
    case TENSORFLOW__ATTR_VALUE__VALUE_PLACEHOLDER:
      v->kind = MT_ATTR_PLACEHOLDER;
      return copy_bin(&v->v.s, p->placeholder, strlen(p->placeholder), s);
    case TENSORFLOW__ATTR_VALUE__VALUE_FUNC:
      v->kind = MT_ATTR_FUNC;
      return copy_bin(&v->v.s, func_name(p->func), strlen(func_name(p->func)), s);
    case TENSORFLOW__ATTR_VALUE__VALUE_I: v->kind = MT_ATTR_I, v->v.i = p->i; return 1;
    case TENSORFLOW__ATTR_VALUE__VALUE_F: v->kind = MT_ATTR_F, v->v.f = p->f; return 1;
    case TENSORFLOW__ATTR_VALUE__VALUE_B: v->kind = MT_ATTR_B, v->v.b = p->b != 0; return 1;
    case TENSORFLOW__ATTR_VALUE__VALUE_TYPE:
      v->kind = MT_ATTR_TYPE, v->v.type = (TF_DataType)p->type;
      return 1;
    case TENSORFLOW__ATTR_VALUE__VALUE_SHAPE:
      v->kind = MT_ATTR_SHAPE;
      return mt_shape_from_pb(p->shape, &v->v.shape, s);
    case TENSORFLOW__ATTR_VALUE__VALUE_TENSOR:
      v->kind = MT_ATTR_TENSOR;
      return (v->v.tensor = mt_tensor_from_pb(p->tensor, s)) != NULL;
    default: return 1; /* no value set */
  }
}

int mt_attr_value_from_pb(const Tensorflow__AttrValue* p, mt_attr_value* out, TF_Status* s) {
  memset(out, 0, sizeof *out);
  if (!p || attr_from_pb(p, out, s)) return 1;
  mt_attr_value_clear(out);
  return 0;
}

int mt_attr_value_parse(const void* data, size_t len, mt_attr_value* out, TF_Status* s) {
  mt_pb_arena a;
  mt_pb_arena_init(&a);
  memset(out, 0, sizeof *out);
  ProtobufCMessage* m =
      mt_pb_unpack(&tensorflow__attr_value__descriptor, data, len, &a, "AttrValue", s);
  int ok = m && mt_attr_value_from_pb((Tensorflow__AttrValue*)m, out, s);
  mt_pb_arena_free(&a);
  return ok;
}

int mt_attr_entry_from_pb(const char* key, const Tensorflow__AttrValue* value, mt_attr** attrs,
                          int* nattrs, TF_Status* s) {
  mt_attr_value v;
  if (!mt_attr_value_from_pb(value, &v, s)) return 0;
  if (!mt_attrs_set(attrs, nattrs, key ? key : "", &v)) {
    mt_attr_value_clear(&v);
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory reading attrs");
    return 0;
  }
  return 1;
}

/* ------------------------------------------------------------------------ */
/* NodeDef, GraphDef */

void mt_node_def_clear(mt_node_def* n) {
  free(n->name);
  free(n->op);
  free(n->device);
  for (int k = 0; k < n->ninputs; k++) free(n->inputs[k]);
  free(n->inputs);
  mt_attrs_free(n->attrs, n->nattrs);
  memset(n, 0, sizeof *n);
}

static int node_from_pb(const Tensorflow__NodeDef* p, mt_node_def* out, TF_Status* s) {
  if (!(out->name = copy_str(p->name, s)) || !(out->op = copy_str(p->op, s)) ||
      !(out->device = copy_str(p->device, s)))
    return 0;
  if (p->n_input > INT32_MAX / 2 || p->n_attr > INT32_MAX / 2) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Malformed NodeDef: too many repeated elements");
    return 0;
  }
  if (p->n_input && !(out->inputs = calloc(p->n_input, sizeof(char*)))) return oom(s);
  for (size_t k = 0; k < p->n_input; k++) {
    if (!(out->inputs[k] = copy_str(p->input[k], s))) return 0;
    out->ninputs++;
  }
  for (size_t k = 0; k < p->n_attr; k++)
    if (!mt_attr_entry_from_pb(p->attr[k]->key, p->attr[k]->value, &out->attrs, &out->nattrs, s))
      return 0;
  return 1;
}

int mt_node_def_from_pb(const Tensorflow__NodeDef* p, mt_node_def* out, TF_Status* s) {
  memset(out, 0, sizeof *out);
  if (node_from_pb(p, out, s)) return 1;
  mt_node_def_clear(out);
  return 0;
}

void mt_graph_def_clear(mt_graph_def* g) {
  for (int k = 0; k < g->nnodes; k++) mt_node_def_clear(&g->nodes[k]);
  free(g->nodes);
  for (int k = 0; k < g->nfunctions; k++) mt_function_unref(g->functions[k]);
  free(g->functions);
  for (int k = 0; k < 2 * g->ngradients; k++) free(g->gradients[k]);
  free(g->gradients);
  memset(g, 0, sizeof *g);
}

/* Where each FunctionDef of the library sits in the GraphDef's bytes: a function keeps
 * its original bytes (export writes them back byte for byte), which the unpacked message
 * does not have. A shallow walk: GraphDef.library (2) -> FunctionDefLibrary.function (1),
 * every other field skipped by its length. Several library fields merge, in order, as
 * protobuf merges them. */
typedef struct span {
  const uint8_t* data;
  size_t len;
} span;

static int function_spans(const void* data, size_t len, span* out, size_t n, TF_Status* s) {
  mt_pb_reader r = mt_pb_reader_make(data, len, 0), lib;
  mt_pb_field f, g;
  size_t at = 0;
  int rc, rc2;
  while ((rc = mt_pb_next(&r, &f, "GraphDef", s)) > 0) {
    if (f.num != 2 || f.wire != MT_PB_LEN) continue;
    lib = mt_pb_reader_make(f.data, f.len, 1);
    while ((rc2 = mt_pb_next(&lib, &g, "FunctionDefLibrary", s)) > 0)
      if (g.num == 1 && g.wire == MT_PB_LEN && at < n) out[at++] = (span){g.data, g.len};
    if (rc2 < 0) return 0;
  }
  if (rc == 0 && at != n) /* the codec and the walk disagree: never for bytes that decode */
    mt_status_setf(s, TF_INTERNAL, "GraphDef library: %zu FunctionDefs, %zu found", n, at);
  return rc == 0 && at == n;
}

static int gradients_from_pb(const Tensorflow__FunctionDefLibrary* lib, mt_graph_def* g,
                             TF_Status* s) {
  if (!lib->n_gradient) return 1;
  if (!(g->gradients = calloc(2 * lib->n_gradient, sizeof(char*)))) return oom(s);
  for (size_t k = 0; k < lib->n_gradient; k++) {
    g->ngradients++;
    if (!(g->gradients[2 * k] = copy_str(lib->gradient[k]->function_name, s)) ||
        !(g->gradients[2 * k + 1] = copy_str(lib->gradient[k]->gradient_func, s)))
      return 0;
  }
  return 1;
}

static int library_from_pb(const Tensorflow__FunctionDefLibrary* lib, const void* data,
                           size_t len, mt_graph_def* g, TF_Status* s) {
  size_t n = lib->n_function;
  if (n > INT32_MAX / 2) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Malformed GraphDef: too many functions");
    return 0;
  }
  span* spans = n ? malloc(n * sizeof(span)) : NULL;
  if (n && (!spans || !(g->functions = calloc(n, sizeof(void*))))) {
    free(spans);
    return oom(s);
  }
  int ok = !n || function_spans(data, len, spans, n, s);
  for (size_t k = 0; ok && k < n; k++) {
    mt_function* fn = mt_function_from_pb(lib->function[k], spans[k].data, spans[k].len, s);
    if (!fn) ok = 0;
    else g->functions[g->nfunctions++] = fn;
  }
  free(spans);
  return ok && gradients_from_pb(lib, g, s);
}

static int graph_from_pb(const Tensorflow__GraphDef* p, const void* data, size_t len,
                         mt_graph_def* g, TF_Status* s) {
  if (p->n_node > INT32_MAX / 2) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Malformed GraphDef: too many nodes");
    return 0;
  }
  if (p->n_node && !(g->nodes = calloc(p->n_node, sizeof(mt_node_def)))) return oom(s);
  for (size_t k = 0; k < p->n_node; k++) {
    if (!mt_node_def_from_pb(p->node[k], &g->nodes[k], s)) return 0;
    g->nnodes++;
  }
  if (p->versions) {
    g->has_versions = 1;
    g->producer = p->versions->producer;
    g->min_consumer = p->versions->min_consumer;
  }
  return !p->library || library_from_pb(p->library, data, len, g, s);
}

int mt_graph_def_parse(const void* data, size_t len, mt_graph_def* out, TF_Status* s) {
  mt_pb_arena a;
  mt_pb_arena_init(&a);
  memset(out, 0, sizeof *out);
  ProtobufCMessage* m =
      mt_pb_unpack(&tensorflow__graph_def__descriptor, data, len, &a, "GraphDef", s);
  int ok = m && graph_from_pb((Tensorflow__GraphDef*)m, data, len, out, s);
  mt_pb_arena_free(&a);
  if (!ok) mt_graph_def_clear(out);
  return ok;
}
