/* Attribute values and static shapes. */
#include "runtime/attr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/status.h"

mt_shape mt_shape_make(const int64_t* dims, int rank) {
  mt_shape s;
  s.rank = rank;
  for (int i = 0; i < rank && i < MT_MAX_DIMS; i++) s.dims[i] = dims[i] < 0 ? -1 : dims[i];
  return s;
}

mt_shape mt_shape_scalar(void) {
  mt_shape s;
  s.rank = 0;
  return s;
}

int mt_shape_known(const mt_shape* s) {
  if (s->rank < 0) return 0;
  for (int i = 0; i < s->rank; i++)
    if (s->dims[i] < 0) return 0;
  return 1;
}

int64_t mt_shape_nelems(const mt_shape* s) {
  return mt_shape_known(s) ? mt_num_elements(s->dims, s->rank) : -1;
}

int mt_shape_merge(mt_shape* a, const mt_shape* b) {
  if (b->rank < 0) return 1;
  if (a->rank < 0) {
    *a = *b;
    return 1;
  }
  if (a->rank != b->rank) return 0;
  for (int i = 0; i < a->rank; i++) {
    if (a->dims[i] >= 0 && b->dims[i] >= 0 && a->dims[i] != b->dims[i]) return 0;
  }
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] < 0) a->dims[i] = b->dims[i];
  return 1;
}

const char* mt_shape_str(const mt_shape* s, char* buf, size_t cap) {
  if (s->rank < 0) {
    snprintf(buf, cap, "<unknown>");
    return buf;
  }
  size_t at = (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < s->rank && at < cap; i++) {
    if (s->dims[i] < 0)
      at += (size_t)snprintf(buf + at, cap - at, i ? ",?" : "?");
    else
      at += (size_t)snprintf(buf + at, cap - at, i ? ",%lld" : "%lld", (long long)s->dims[i]);
  }
  if (at < cap) snprintf(buf + at, cap - at, "]");
  return buf;
}

static void free_bytes(mt_bytes* b) {
  free(b->data);
  b->data = NULL;
  b->len = 0;
}

void mt_attr_value_clear(mt_attr_value* v) {
  if (v->is_list) {
    for (int k = 0; k < v->list.n; k++) {
      if (v->list.s) free_bytes(&v->list.s[k]);
      if (v->list.tensor) mt_tensor_free(v->list.tensor[k]);
    }
    free(v->list.s);
    free(v->list.i);
    free(v->list.f);
    free(v->list.b);
    free(v->list.type);
    free(v->list.shape);
    free(v->list.tensor);
  } else if (v->kind == MT_ATTR_S || v->kind == MT_ATTR_FUNC || v->kind == MT_ATTR_PLACEHOLDER) {
    free_bytes(&v->v.s);
  } else if (v->kind == MT_ATTR_TENSOR) {
    mt_tensor_free(v->v.tensor);
  }
  memset(v, 0, sizeof(*v));
}

static int copy_bytes(mt_bytes* dst, const mt_bytes* src) {
  dst->len = src->len;
  dst->data = malloc(src->len + 1);
  if (!dst->data) return 0;
  if (src->len) memcpy(dst->data, src->data, src->len);
  dst->data[src->len] = '\0';
  return 1;
}

#define COPY_ARRAY(field)                                                       \
  if (src->list.field) {                                                        \
    size_t sz = sizeof(*src->list.field) * (size_t)(n ? n : 1);                 \
    dst->list.field = malloc(sz);                                               \
    if (!dst->list.field) goto fail;                                            \
    if (n) memcpy(dst->list.field, src->list.field, sizeof(*src->list.field) * (size_t)n); \
  }

int mt_attr_value_copy(mt_attr_value* dst, const mt_attr_value* src) {
  memset(dst, 0, sizeof(*dst));
  dst->kind = src->kind;
  dst->is_list = src->is_list;
  if (!src->is_list) {
    dst->v = src->v;
    if (src->kind == MT_ATTR_S || src->kind == MT_ATTR_FUNC || src->kind == MT_ATTR_PLACEHOLDER) {
      if (!copy_bytes(&dst->v.s, &src->v.s)) goto fail;
    } else if (src->kind == MT_ATTR_TENSOR) {
      dst->v.tensor = src->v.tensor ? mt_tensor_share(src->v.tensor) : NULL;
    }
    return 1;
  }
  int n = src->list.n;
  dst->list.n = n;
  COPY_ARRAY(i);
  COPY_ARRAY(f);
  COPY_ARRAY(b);
  COPY_ARRAY(type);
  COPY_ARRAY(shape);
  if (src->list.s) {
    dst->list.s = calloc((size_t)(n ? n : 1), sizeof(mt_bytes));
    if (!dst->list.s) goto fail;
    for (int k = 0; k < n; k++)
      if (!copy_bytes(&dst->list.s[k], &src->list.s[k])) goto fail;
  }
  if (src->list.tensor) {
    dst->list.tensor = calloc((size_t)(n ? n : 1), sizeof(TF_Tensor*));
    if (!dst->list.tensor) goto fail;
    for (int k = 0; k < n; k++) dst->list.tensor[k] = mt_tensor_share(src->list.tensor[k]);
  }
  return 1;
fail:
  mt_attr_value_clear(dst);
  return 0;
}

static int shape_equal(const mt_shape* a, const mt_shape* b) {
  if (a->rank != b->rank) return 0;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return 0;
  return 1;
}

static int bytes_equal(const mt_bytes* a, const mt_bytes* b) {
  return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

static int tensor_equal(const TF_Tensor* a, const TF_Tensor* b) {
  if (a == b) return 1;
  if (!a || !b || a->dtype != b->dtype || a->ndims != b->ndims) return 0;
  for (int i = 0; i < a->ndims; i++)
    if (a->dims[i] != b->dims[i]) return 0;
  if (a->dtype != TF_STRING) return a->buf->len == b->buf->len &&
                                    memcmp(a->buf->data, b->buf->data, a->buf->len) == 0;
  const TF_TString* x = mt_tensor_data(a);
  const TF_TString* y = mt_tensor_data(b);
  for (int64_t k = 0; k < mt_tensor_nelems(a); k++) {
    size_t n = TF_StringGetSize(&x[k]);
    if (n != TF_StringGetSize(&y[k]) ||
        memcmp(TF_StringGetDataPointer(&x[k]), TF_StringGetDataPointer(&y[k]), n) != 0)
      return 0;
  }
  return 1;
}

static int elem_equal(mt_attr_kind kind, const mt_attr_value* a, int i, const mt_attr_value* b,
                      int j) {
  switch (kind) {
    case MT_ATTR_S: case MT_ATTR_FUNC: case MT_ATTR_PLACEHOLDER:
      return bytes_equal(&a->list.s[i], &b->list.s[j]);
    case MT_ATTR_I: return a->list.i[i] == b->list.i[j];
    case MT_ATTR_F: return a->list.f[i] == b->list.f[j];
    case MT_ATTR_B: return a->list.b[i] == b->list.b[j];
    case MT_ATTR_TYPE: return a->list.type[i] == b->list.type[j];
    case MT_ATTR_SHAPE: return shape_equal(&a->list.shape[i], &b->list.shape[j]);
    case MT_ATTR_TENSOR: return tensor_equal(a->list.tensor[i], b->list.tensor[j]);
    default: return 1;
  }
}

int mt_attr_value_equal(const mt_attr_value* a, const mt_attr_value* b) {
  if (a->is_list != b->is_list) return 0;
  if (a->is_list) {
    if (a->list.n != b->list.n) return 0;
    if (a->list.n == 0) return 1;
    if (a->kind != b->kind) return 0;
    for (int k = 0; k < a->list.n; k++)
      if (!elem_equal(a->kind, a, k, b, k)) return 0;
    return 1;
  }
  if (a->kind != b->kind) return 0;
  switch (a->kind) {
    case MT_ATTR_S: case MT_ATTR_FUNC: case MT_ATTR_PLACEHOLDER:
      return bytes_equal(&a->v.s, &b->v.s);
    case MT_ATTR_I: return a->v.i == b->v.i;
    case MT_ATTR_F: return a->v.f == b->v.f;
    case MT_ATTR_B: return !a->v.b == !b->v.b;
    case MT_ATTR_TYPE: return a->v.type == b->v.type;
    case MT_ATTR_SHAPE: return shape_equal(&a->v.shape, &b->v.shape);
    case MT_ATTR_TENSOR: return tensor_equal(a->v.tensor, b->v.tensor);
    default: return 1;
  }
}

static const char* kind_name(mt_attr_kind k) {
  switch (k) {
    case MT_ATTR_S: return "string";
    case MT_ATTR_I: return "int";
    case MT_ATTR_F: return "float";
    case MT_ATTR_B: return "bool";
    case MT_ATTR_TYPE: return "type";
    case MT_ATTR_SHAPE: return "shape";
    case MT_ATTR_TENSOR: return "tensor";
    case MT_ATTR_FUNC: return "func";
    case MT_ATTR_PLACEHOLDER: return "placeholder";
    default: return "none";
  }
}

const char* mt_attr_type_name(const mt_attr_value* v) {
  static const char* lists[] = {"list(none)", "list(string)", "list(int)", "list(float)",
                                "list(bool)", "list(type)", "list(shape)", "list(tensor)",
                                "list(func)", "list(placeholder)"};
  if (v->is_list) return lists[v->kind];
  return kind_name(v->kind);
}

const mt_attr* mt_attrs_find(const mt_attr* attrs, int n, const char* name) {
  for (int k = 0; k < n; k++)
    if (strcmp(attrs[k].name, name) == 0) return &attrs[k];
  return NULL;
}

int mt_attrs_set(mt_attr** attrs, int* n, const char* name, mt_attr_value* v) {
  for (int k = 0; k < *n; k++) {
    if (strcmp((*attrs)[k].name, name) == 0) {
      mt_attr_value_clear(&(*attrs)[k].value);
      (*attrs)[k].value = *v;
      memset(v, 0, sizeof(*v));
      return 1;
    }
  }
  mt_attr* grown = realloc(*attrs, sizeof(mt_attr) * (size_t)(*n + 1));
  if (!grown) return 0;
  *attrs = grown;
  grown[*n].name = strdup(name);
  if (!grown[*n].name) return 0;
  grown[*n].value = *v;
  memset(v, 0, sizeof(*v));
  (*n)++;
  return 1;
}

void mt_attrs_free(mt_attr* attrs, int n) {
  for (int k = 0; k < n; k++) {
    free(attrs[k].name);
    mt_attr_value_clear(&attrs[k].value);
  }
  free(attrs);
}
