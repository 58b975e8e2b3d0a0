/* Proto codecs for shapes, tensors, attrs, nodes, graphs, op defs and the
 * ConfigProto subset (see graphdef.h). Field numbers are TensorFlow's. */
#include "runtime/graphdef.h"
#include "runtime/function.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minitf/core/protobuf/config.pb-c.h"
#include "runtime/status.h"
#include "runtime/tensor.h"

/* Grows *arr (element size `sz`) so that it can hold `need` elements.
 * `need` is always bounded by the input size (each element costs at least
 * one byte of input), so this never over-allocates on hostile input. */
static int grow(void** arr, int* cap, int64_t need, size_t sz, TF_Status* s) {
  if (need <= *cap) return 1;
  if (need > INT32_MAX / 2) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Malformed proto: too many repeated elements");
    return 0;
  }
  int64_t c = *cap ? *cap : 4;
  while (c < need) c *= 2;
  void* p = realloc(*arr, (size_t)c * sz);
  if (!p) {
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory decoding a proto");
    return 0;
  }
  *arr = p;
  *cap = (int)c;
  return 1;
}

static int set_bytes(mt_bytes* b, const mt_pb_field* f, const char* what, TF_Status* s) {
  char* d = mt_pb_strdup(f, what, s);
  if (!d) return 0;
  b->data = d;
  b->len = f->len;
  return 1;
}

/* ------------------------------------------------------------------------ */
/* TensorShapeProto: dim = 2 { size = 1, name = 2 }, unknown_rank = 3. */

static int dim_from_proto(mt_pb_reader* r, int64_t* size, TF_Status* s) {
  mt_pb_field f;
  int rc;
  *size = 0;
  while ((rc = mt_pb_next(r, &f, "TensorShapeProto.Dim", s)) > 0) {
    if (f.num == 1) {
      if (!mt_pb_expect(&f, MT_PB_VARINT, "TensorShapeProto.Dim", s)) return 0;
      *size = (int64_t)f.v;
    }
  }
  return rc == 0;
}

int mt_shape_from_proto(mt_pb_reader* r, mt_shape* out, TF_Status* s) {
  mt_pb_field f;
  mt_pb_reader sub;
  int rc, unknown_rank = 0;
  out->rank = 0;
  while ((rc = mt_pb_next(r, &f, "TensorShapeProto", s)) > 0) {
    if (f.num == 2) {
      int64_t size;
      if (!mt_pb_sub(r, &f, &sub, "TensorShapeProto", s) || !dim_from_proto(&sub, &size, s))
        return 0;
      if (size < -1) {
        mt_status_setf(s, TF_INVALID_ARGUMENT,
                       "Shape has dimensions with values below -1 (where -1 means unknown)");
        return 0;
      }
      if (out->rank >= MT_MAX_DIMS) {
        mt_status_setf(s, TF_INVALID_ARGUMENT, "Shape has more than %d dimensions", MT_MAX_DIMS);
        return 0;
      }
      out->dims[out->rank++] = size;
    } else if (f.num == 3) {
      if (!mt_pb_expect(&f, MT_PB_VARINT, "TensorShapeProto", s)) return 0;
      unknown_rank = f.v != 0;
    }
  }
  if (rc < 0) return 0;
  if (unknown_rank) out->rank = -1;
  return 1;
}

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

typedef struct tensor_head {
  int64_t dtype;
  mt_shape shape;
  const uint8_t* content;
  size_t content_len;
} tensor_head;

static int tensor_head_read(mt_pb_reader* r, tensor_head* h, TF_Status* s) {
  mt_pb_field f;
  mt_pb_reader sub;
  int rc;
  memset(h, 0, sizeof *h);
  while ((rc = mt_pb_next(r, &f, "TensorProto", s)) > 0) {
    if (f.num == 1) {
      if (!mt_pb_expect(&f, MT_PB_VARINT, "TensorProto", s)) return 0;
      h->dtype = (int64_t)f.v;
    } else if (f.num == 2) {
      if (!mt_pb_sub(r, &f, &sub, "TensorProto", s) || !mt_shape_from_proto(&sub, &h->shape, s))
        return 0;
    } else if (f.num == 4) {
      if (!mt_pb_expect(&f, MT_PB_LEN, "TensorProto", s)) return 0;
      h->content = f.data;
      h->content_len = f.len;
    }
  }
  return rc == 0;
}

/* Collects typed values (or their components) into a tensor buffer. */
typedef struct fill_ctx {
  uint8_t* data;
  int64_t cap;   /* components that fit */
  int64_t count; /* components seen */
  size_t csz;    /* bytes per component */
  int is_bool;
} fill_ctx;

static void put_component(uint64_t raw, void* arg) {
  fill_ctx* c = arg;
  if (c->count < c->cap) {
    uint8_t* p = c->data + (size_t)c->count * c->csz;
    if (c->is_bool) raw = raw != 0;
    /* Little-endian truncation: int_val's int32 becomes int8/int16 the way
     * TensorFlow's static_cast does; floats arrive as their bit pattern. */
    for (size_t k = 0; k < c->csz; k++) p[k] = (uint8_t)(raw >> (8 * k));
  }
  c->count++;
}

static TF_TString* tstr(const TF_Tensor* t) { return (TF_TString*)mt_tensor_data(t); }

/* Reads the typed value fields into t; returns the element count present. */
static int64_t read_typed_values(mt_pb_reader r, TF_Tensor* t, value_field vf, TF_Status* s) {
  int64_t n = mt_tensor_nelems(t);
  size_t dtsize = TF_DataTypeSize(t->dtype);
  fill_ctx c = {(uint8_t*)mt_tensor_data(t), n * vf.comps, 0, dtsize / (size_t)vf.comps,
                t->dtype == TF_BOOL};
  mt_pb_field f;
  int rc;
  while ((rc = mt_pb_next(&r, &f, "TensorProto", s)) > 0) {
    if ((int)f.num != vf.num) continue;
    if (vf.num == 8) { /* string_val: one element per field */
      if (!mt_pb_expect(&f, MT_PB_LEN, "TensorProto", s)) return -1;
      if (c.count < n) TF_StringCopy(&tstr(t)[c.count], (const char*)f.data, f.len);
      c.count++;
    } else if (vf.num == 18) { /* float8_val: bytes, one element per byte */
      if (!mt_pb_expect(&f, MT_PB_LEN, "TensorProto", s)) return -1;
      for (size_t k = 0; k < f.len; k++) put_component(f.data[k], &c);
    } else if (!mt_pb_each_repeated(&f, vf.wire, put_component, &c, "TensorProto", s)) {
      return -1;
    }
  }
  if (rc < 0) return -1;
  return c.count / vf.comps;
}

/* TensorFlow's rule: missing trailing elements repeat the last value given. */
static void fill_from_last(TF_Tensor* t, int64_t have) {
  int64_t n = mt_tensor_nelems(t);
  if (have <= 0 || have >= n) return;
  if (t->dtype == TF_STRING) {
    TF_TString* e = tstr(t);
    const char* src = TF_StringGetDataPointer(&e[have - 1]);
    size_t len = TF_StringGetSize(&e[have - 1]);
    for (int64_t k = have; k < n; k++) TF_StringCopy(&e[k], src, len);
    return;
  }
  size_t sz = TF_DataTypeSize(t->dtype);
  uint8_t* d = mt_tensor_data(t);
  for (int64_t k = have; k < n; k++) memcpy(d + (size_t)k * sz, d + (size_t)(have - 1) * sz, sz);
}

/* tensor_content of a string tensor: all lengths as varints, then bytes. */
static int decode_string_content(const tensor_head* h, TF_Tensor* t, TF_Status* s) {
  int64_t n = mt_tensor_nelems(t);
  const uint8_t* p = h->content;
  const uint8_t* end = p + h->content_len;
  const uint8_t* lens = p;
  uint64_t total = 0, len;
  for (int64_t k = 0; k < n; k++) {
    if (!mt_pb_read_varint(&p, end, &len) || len > (uint64_t)(end - p)) goto bad;
    total += len;
  }
  if (total != (uint64_t)(end - p)) goto bad;
  for (int64_t k = 0; k < n; k++) {
    mt_pb_read_varint(&lens, end, &len);
    TF_StringCopy(&tstr(t)[k], (const char*)p, (size_t)len);
    p += len;
  }
  return 1;
bad:
  mt_status_setf(s, TF_INVALID_ARGUMENT, "Malformed TensorProto: bad string tensor_content");
  return 0;
}

TF_Tensor* mt_tensor_from_proto(mt_pb_reader* r, TF_Status* s) {
  tensor_head h;
  mt_pb_reader start = *r;
  if (!tensor_head_read(r, &h, s)) return NULL;
  TF_DataType dt = (TF_DataType)h.dtype;
  value_field vf = value_field_for(dt);
  if (h.dtype <= 0 || h.dtype > 1000 || !vf.num) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "TensorProto has unsupported dtype %lld",
                   (long long)h.dtype);
    return NULL;
  }
  int64_t n = mt_shape_nelems(&h.shape);
  if (h.shape.rank < 0 || n < 0) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "TensorProto has an invalid shape");
    return NULL;
  }
  size_t dtsize = TF_DataTypeSize(dt);
  if (h.content_len > 0) {
    if (dt != TF_STRING && ((uint64_t)n > h.content_len / dtsize ||
                            (size_t)n * dtsize != h.content_len)) {
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "TensorProto tensor_content has %zu bytes, want %lld elements of %zu bytes",
                     h.content_len, (long long)n, dtsize);
      return NULL;
    }
    if (dt == TF_STRING && (uint64_t)n > h.content_len) { /* >= 1 length byte each */
      mt_status_setf(s, TF_INVALID_ARGUMENT, "Malformed TensorProto: bad string tensor_content");
      return NULL;
    }
  } else if (n > 0 && (uint64_t)n > MT_PB_MAX_FILL_BYTES / dtsize) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "TensorProto of %lld elements is too large to expand from its values",
                   (long long)n);
    return NULL;
  }
  TF_Tensor* t = mt_tensor_zeros(dt, h.shape.dims, h.shape.rank, s);
  if (!t) return NULL;
  if (h.content_len > 0 && dt != TF_STRING) {
    memcpy(mt_tensor_data(t), h.content, h.content_len);
    return t;
  }
  if (h.content_len > 0) {
    if (decode_string_content(&h, t, s)) return t;
  } else {
    int64_t have = read_typed_values(start, t, vf, s);
    if (have >= 0) {
      fill_from_last(t, have);
      return t;
    }
  }
  TF_DeleteTensor(t);
  return NULL;
}

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

static int func_name_from_proto(mt_pb_reader* r, mt_bytes* out, TF_Status* s) {
  mt_pb_field f;
  int rc;
  memset(out, 0, sizeof *out);
  while ((rc = mt_pb_next(r, &f, "NameAttrList", s)) > 0) {
    if (f.num != 1) continue;
    free(out->data);
    if (!set_bytes(out, &f, "NameAttrList", s)) return 0;
  }
  if (rc == 0 && !out->data) {
    out->data = calloc(1, 1);
    if (!out->data) {
      mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
      return 0;
    }
  }
  return rc == 0;
}

/* ListValue accumulator: every repeated field is collected; the first
 * non-empty one (in field order) becomes the list. */
typedef struct list_acc {
  int n[10], cap[10];
  mt_bytes* s;
  int64_t* i;
  float* f;
  unsigned char* b;
  TF_DataType* type;
  mt_shape* shape;
  TF_Tensor** tensor;
  mt_bytes* func;
} list_acc;

static void list_acc_free(list_acc* a) {
  for (int k = 0; k < a->n[2]; k++) free(a->s[k].data);
  for (int k = 0; k < a->n[9]; k++) free(a->func[k].data);
  for (int k = 0; k < a->n[8]; k++) TF_DeleteTensor(a->tensor[k]);
  free(a->s); free(a->i); free(a->f); free(a->b); free(a->type);
  free(a->shape); free(a->tensor); free(a->func);
  memset(a, 0, sizeof *a);
}

typedef struct scalar_sink {
  list_acc* a;
  int num;
} scalar_sink;

static void put_list_scalar(uint64_t raw, void* arg) {
  scalar_sink* k = arg;
  list_acc* a = k->a;
  int at = a->n[k->num]++;
  switch (k->num) {
    case 3: a->i[at] = (int64_t)raw; break;
    case 4: a->f[at] = mt_pb_as_float(raw); break;
    case 5: a->b[at] = raw != 0; break;
    case 6: a->type[at] = (TF_DataType)(int32_t)raw; break;
  }
}

static int list_scalar_field(list_acc* a, const mt_pb_field* f, TF_Status* s) {
  static const size_t sizes[7] = {0, 0, 0, sizeof(int64_t), sizeof(float), 1, sizeof(TF_DataType)};
  int wire = f->num == 4 ? MT_PB_FIXED32 : MT_PB_VARINT;
  int64_t c = mt_pb_count_repeated(f, wire, "AttrValue.ListValue", s);
  if (c < 0) return 0;
  void** arr = f->num == 3 ? (void**)&a->i : f->num == 4 ? (void**)&a->f
             : f->num == 5 ? (void**)&a->b : (void**)&a->type;
  if (!grow(arr, &a->cap[f->num], a->n[f->num] + c, sizes[f->num], s)) return 0;
  scalar_sink k = {a, (int)f->num};
  return mt_pb_each_repeated(f, wire, put_list_scalar, &k, "AttrValue.ListValue", s);
}

static int list_message_field(list_acc* a, const mt_pb_reader* r, const mt_pb_field* f,
                              TF_Status* s) {
  mt_pb_reader sub;
  int num = (int)f->num;
  int at = a->n[num];
  if (num == 2) {
    if (!grow((void**)&a->s, &a->cap[2], at + 1, sizeof(mt_bytes), s) ||
        !set_bytes(&a->s[at], f, "AttrValue.ListValue", s))
      return 0;
  } else {
    if (!mt_pb_sub(r, f, &sub, "AttrValue.ListValue", s)) return 0;
    if (num == 7) {
      if (!grow((void**)&a->shape, &a->cap[7], at + 1, sizeof(mt_shape), s) ||
          !mt_shape_from_proto(&sub, &a->shape[at], s))
        return 0;
    } else if (num == 8) {
      if (!grow((void**)&a->tensor, &a->cap[8], at + 1, sizeof(TF_Tensor*), s)) return 0;
      if (!(a->tensor[at] = mt_tensor_from_proto(&sub, s))) return 0;
    } else {
      if (!grow((void**)&a->func, &a->cap[9], at + 1, sizeof(mt_bytes), s) ||
          !func_name_from_proto(&sub, &a->func[at], s))
        return 0;
    }
  }
  a->n[num]++;
  return 1;
}

/* Moves the chosen list out of the accumulator into *out. */
static void list_take(list_acc* a, mt_attr_value* out) {
  static const mt_attr_kind kinds[10] = {0, 0, MT_ATTR_S, MT_ATTR_I, MT_ATTR_F, MT_ATTR_B,
                                         MT_ATTR_TYPE, MT_ATTR_SHAPE, MT_ATTR_TENSOR,
                                         MT_ATTR_FUNC};
  memset(out, 0, sizeof *out);
  out->is_list = 1;
  out->kind = MT_ATTR_NONE;
  for (int num = 2; num <= 9; num++) {
    if (!a->n[num]) continue;
    out->kind = kinds[num];
    out->list.n = a->n[num];
    switch (num) {
      case 2: out->list.s = a->s; a->s = NULL; break;
      case 3: out->list.i = a->i; a->i = NULL; break;
      case 4: out->list.f = a->f; a->f = NULL; break;
      case 5: out->list.b = a->b; a->b = NULL; break;
      case 6: out->list.type = a->type; a->type = NULL; break;
      case 7: out->list.shape = a->shape; a->shape = NULL; break;
      case 8: out->list.tensor = a->tensor; a->tensor = NULL; break;
      case 9: out->list.s = a->func; a->func = NULL; break;
    }
    a->n[num] = 0;
    break;
  }
  list_acc_free(a);
}

static int list_from_proto(mt_pb_reader* r, mt_attr_value* out, TF_Status* s) {
  list_acc a;
  mt_pb_field f;
  int rc;
  memset(&a, 0, sizeof a);
  while ((rc = mt_pb_next(r, &f, "AttrValue.ListValue", s)) > 0) {
    int ok = 1;
    if (f.num >= 3 && f.num <= 6) ok = list_scalar_field(&a, &f, s);
    else if (f.num == 2 || (f.num >= 7 && f.num <= 9)) ok = list_message_field(&a, r, &f, s);
    if (!ok) {
      rc = -1;
      break;
    }
  }
  if (rc != 0) {
    list_acc_free(&a);
    return 0;
  }
  list_take(&a, out);
  return 1;
}

/* Reads one oneof member into *v (a fresh, zeroed value). */
static int attr_member(mt_pb_reader* r, const mt_pb_field* f, mt_attr_value* v, TF_Status* s) {
  mt_pb_reader sub;
  const char* what = "AttrValue";
  switch (f->num) {
    case 1:
      return mt_pb_sub(r, f, &sub, what, s) && list_from_proto(&sub, v, s);
    case 2: case 9:
      v->kind = f->num == 2 ? MT_ATTR_S : MT_ATTR_PLACEHOLDER;
      return set_bytes(&v->v.s, f, what, s);
    case 3: case 5: case 6:
      if (!mt_pb_expect(f, MT_PB_VARINT, what, s)) return 0;
      if (f->num == 3) v->kind = MT_ATTR_I, v->v.i = (int64_t)f->v;
      if (f->num == 5) v->kind = MT_ATTR_B, v->v.b = f->v != 0;
      if (f->num == 6) v->kind = MT_ATTR_TYPE, v->v.type = (TF_DataType)(int32_t)f->v;
      return 1;
    case 4:
      if (!mt_pb_expect(f, MT_PB_FIXED32, what, s)) return 0;
      v->kind = MT_ATTR_F;
      v->v.f = mt_pb_as_float(f->v);
      return 1;
    case 7:
      v->kind = MT_ATTR_SHAPE;
      return mt_pb_sub(r, f, &sub, what, s) && mt_shape_from_proto(&sub, &v->v.shape, s);
    case 8:
      v->kind = MT_ATTR_TENSOR;
      return mt_pb_sub(r, f, &sub, what, s) && (v->v.tensor = mt_tensor_from_proto(&sub, s));
    case 10:
      v->kind = MT_ATTR_FUNC;
      return mt_pb_sub(r, f, &sub, what, s) && func_name_from_proto(&sub, &v->v.s, s);
  }
  return 1; /* unknown field: skipped */
}

int mt_attr_value_from_proto(mt_pb_reader* r, mt_attr_value* out, TF_Status* s) {
  mt_pb_field f;
  int rc;
  memset(out, 0, sizeof *out);
  while ((rc = mt_pb_next(r, &f, "AttrValue", s)) > 0) {
    if (f.num < 1 || f.num > 10) continue;
    mt_attr_value v;
    memset(&v, 0, sizeof v);
    if (!attr_member(r, &f, &v, s)) {
      mt_attr_value_clear(&v);
      mt_attr_value_clear(out);
      return 0;
    }
    mt_attr_value_clear(out); /* oneof: the last member wins */
    *out = v;
  }
  if (rc < 0) mt_attr_value_clear(out);
  return rc == 0;
}

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

void mt_node_def_clear(mt_node_def* n) {
  free(n->name);
  free(n->op);
  free(n->device);
  for (int k = 0; k < n->ninputs; k++) free(n->inputs[k]);
  free(n->inputs);
  mt_attrs_free(n->attrs, n->nattrs);
  memset(n, 0, sizeof *n);
}

int mt_attr_map_entry_from_proto(mt_pb_reader* r, mt_attr** attrs, int* nattrs, TF_Status* s) {
  mt_pb_field f;
  mt_pb_reader sub;
  char* key = NULL;
  mt_attr_value v;
  int rc;
  memset(&v, 0, sizeof v);
  while ((rc = mt_pb_next(r, &f, "NodeDef.AttrEntry", s)) > 0) {
    if (f.num == 1) {
      free(key);
      if (!(key = mt_pb_strdup(&f, "NodeDef.AttrEntry", s))) {
        rc = -1;
        break;
      }
    } else if (f.num == 2) {
      mt_attr_value_clear(&v);
      if (!mt_pb_sub(r, &f, &sub, "NodeDef.AttrEntry", s) ||
          !mt_attr_value_from_proto(&sub, &v, s)) {
        rc = -1;
        break;
      }
    }
  }
  int ok = rc == 0;
  if (ok && !mt_attrs_set(attrs, nattrs, key ? key : "", &v)) {
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory reading attrs");
    ok = 0;
  }
  free(key);
  mt_attr_value_clear(&v);
  return ok;
}

static int node_field(mt_pb_reader* r, const mt_pb_field* f, mt_node_def* n, int* cap,
                      TF_Status* s) {
  char** slot = f->num == 1 ? &n->name : f->num == 2 ? &n->op : f->num == 4 ? &n->device : NULL;
  if (slot) {
    free(*slot);
    return (*slot = mt_pb_strdup(f, "NodeDef", s)) != NULL;
  }
  if (f->num == 3) {
    if (!grow((void**)&n->inputs, cap, n->ninputs + 1, sizeof(char*), s)) return 0;
    if (!(n->inputs[n->ninputs] = mt_pb_strdup(f, "NodeDef", s))) return 0;
    n->ninputs++;
    return 1;
  }
  if (f->num == 5) {
    mt_pb_reader sub;
    return mt_pb_sub(r, f, &sub, "NodeDef", s) &&
           mt_attr_map_entry_from_proto(&sub, &n->attrs, &n->nattrs, s);
  }
  return 1;
}

int mt_node_def_from_proto(mt_pb_reader* r, mt_node_def* out, TF_Status* s) {
  mt_pb_field f;
  int rc, cap = 0;
  memset(out, 0, sizeof *out);
  while ((rc = mt_pb_next(r, &f, "NodeDef", s)) > 0) {
    if (!node_field(r, &f, out, &cap, s)) {
      rc = -1;
      break;
    }
  }
  char** strs[3] = {&out->name, &out->op, &out->device};
  for (int k = 0; rc == 0 && k < 3; k++) {
    if (!*strs[k] && !(*strs[k] = calloc(1, 1))) {
      mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
      rc = -1;
    }
  }
  if (rc != 0) mt_node_def_clear(out);
  return rc == 0;
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

static int versions_from_proto(mt_pb_reader* r, mt_graph_def* g, TF_Status* s) {
  mt_pb_field f;
  int rc;
  g->has_versions = 1;
  while ((rc = mt_pb_next(r, &f, "VersionDef", s)) > 0) {
    if (f.num != 1 && f.num != 2) continue;
    if (!mt_pb_expect(&f, MT_PB_VARINT, "VersionDef", s)) return 0;
    if (f.num == 1) g->producer = (int32_t)f.v;
    else g->min_consumer = (int32_t)f.v;
  }
  return rc == 0;
}

/* GradientDef: function_name = 1, gradient_func = 2. */
static int gradient_def_parse(mt_pb_reader* r, mt_graph_def* g, int* cap, TF_Status* s) {
  if (!grow((void**)&g->gradients, cap, 2 * g->ngradients + 2, sizeof(char*), s)) return 0;
  char** pair = &g->gradients[2 * g->ngradients];
  pair[0] = pair[1] = NULL;
  g->ngradients++;
  mt_pb_field f;
  int rc;
  while ((rc = mt_pb_next(r, &f, "GradientDef", s)) > 0) {
    if (f.num != 1 && f.num != 2) continue;
    free(pair[f.num - 1]);
    if (!(pair[f.num - 1] = mt_pb_strdup(&f, "GradientDef", s))) return 0;
  }
  for (int k = 0; rc == 0 && k < 2; k++)
    if (!pair[k] && !(pair[k] = calloc(1, 1))) {
      mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
      return 0;
    }
  return rc == 0;
}

/* FunctionDefLibrary: function = 1, gradient = 2. */
static int library_parse(mt_pb_reader* r, mt_graph_def* g, int* fcap, int* gcap, TF_Status* s) {
  mt_pb_field f;
  mt_pb_reader sub;
  int rc;
  while ((rc = mt_pb_next(r, &f, "FunctionDefLibrary", s)) > 0) {
    if (f.num == 1) {
      if (!mt_pb_expect(&f, MT_PB_LEN, "FunctionDefLibrary", s) ||
          !grow((void**)&g->functions, fcap, g->nfunctions + 1, sizeof(void*), s))
        return 0;
      struct mt_function* fn = mt_function_parse(f.data, f.len, s);
      if (!fn) return 0;
      g->functions[g->nfunctions++] = fn;
    } else if (f.num == 2) {
      if (!mt_pb_sub(r, &f, &sub, "FunctionDefLibrary", s) || !gradient_def_parse(&sub, g, gcap, s))
        return 0;
    }
  }
  return rc == 0;
}

int mt_graph_def_parse(const void* data, size_t len, mt_graph_def* out, TF_Status* s) {
  mt_pb_reader r = mt_pb_reader_make(data, len, 0), sub;
  mt_pb_field f;
  int rc, cap = 0, fcap = 0, gcap = 0;
  memset(out, 0, sizeof *out);
  while ((rc = mt_pb_next(&r, &f, "GraphDef", s)) > 0) {
    int ok = 1;
    if (f.num == 2) ok = mt_pb_sub(&r, &f, &sub, "GraphDef", s) && library_parse(&sub, out, &fcap, &gcap, s);
    if (f.num == 1) {
      ok = mt_pb_sub(&r, &f, &sub, "GraphDef", s) &&
           grow((void**)&out->nodes, &cap, out->nnodes + 1, sizeof(mt_node_def), s) &&
           mt_node_def_from_proto(&sub, &out->nodes[out->nnodes], s);
      if (ok) out->nnodes++;
    } else if (f.num == 4) {
      ok = mt_pb_sub(&r, &f, &sub, "GraphDef", s) && versions_from_proto(&sub, out, s);
    }
    if (!ok) {
      rc = -1;
      break;
    }
  }
  if (rc != 0) mt_graph_def_clear(out);
  return rc == 0;
}

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
