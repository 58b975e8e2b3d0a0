/* Attribute values (the AttrValue kinds) and small shape records. */
#ifndef MINITF_RUNTIME_ATTR_H_
#define MINITF_RUNTIME_ATTR_H_

#include <stddef.h>
#include <stdint.h>
#include "runtime/tensor.h"

/* Static shape: rank -1 = unknown rank; dims[i] -1 = unknown dim. */
typedef struct mt_shape {
  int rank;
  int64_t dims[MT_MAX_DIMS];
} mt_shape;

static inline mt_shape mt_shape_unknown(void) {
  mt_shape s;
  s.rank = -1;
  return s;
}
mt_shape mt_shape_make(const int64_t* dims, int rank);
mt_shape mt_shape_scalar(void);
/* Fully defined: known rank and every dim known. */
int mt_shape_known(const mt_shape* s);
/* Element count, or -1 when not fully defined. */
int64_t mt_shape_nelems(const mt_shape* s);
/* Merges b into *a: returns 0 if incompatible. */
int mt_shape_merge(mt_shape* a, const mt_shape* b);
/* "[2,?,3]" or "<unknown>" into buf. */
const char* mt_shape_str(const mt_shape* s, char* buf, size_t cap);

typedef enum mt_attr_kind {
  MT_ATTR_NONE = 0, /* element kind of an empty list read from a proto */
  MT_ATTR_S,
  MT_ATTR_I,
  MT_ATTR_F,
  MT_ATTR_B,
  MT_ATTR_TYPE,
  MT_ATTR_SHAPE,
  MT_ATTR_TENSOR,
  MT_ATTR_FUNC,
  MT_ATTR_PLACEHOLDER,
} mt_attr_kind;

typedef struct mt_bytes {
  char* data; /* NUL-terminated for convenience; may hold NULs */
  size_t len;
} mt_bytes;

typedef struct mt_attr_value {
  mt_attr_kind kind; /* scalar kind, or element kind when is_list */
  int is_list;
  union {
    mt_bytes s; /* S, FUNC (function name), PLACEHOLDER */
    int64_t i;
    float f;
    int b;
    TF_DataType type;
    mt_shape shape;
    TF_Tensor* tensor; /* owned */
  } v;
  struct {
    int n;
    mt_bytes* s;
    int64_t* i;
    float* f;
    unsigned char* b;
    TF_DataType* type;
    mt_shape* shape;
    TF_Tensor** tensor; /* owned */
  } list;
} mt_attr_value;

typedef struct mt_attr {
  char* name;
  mt_attr_value value;
} mt_attr;

void mt_attr_value_clear(mt_attr_value* v);
/* Deep copy; returns 0 on allocation failure. */
int mt_attr_value_copy(mt_attr_value* dst, const mt_attr_value* src);
/* Structural equality (used for allowed-value checks and tests). */
int mt_attr_value_equal(const mt_attr_value* a, const mt_attr_value* b);
/* TensorFlow's attr type names: "string", "int", "list(int)", ... */
const char* mt_attr_type_name(const mt_attr_value* v);

/* Attr lists (on nodes and descriptions). */
const mt_attr* mt_attrs_find(const mt_attr* attrs, int n, const char* name);
/* Replaces or appends; takes ownership of *v (leaves it cleared). Returns 0
 * on allocation failure. */
int mt_attrs_set(mt_attr** attrs, int* n, const char* name, mt_attr_value* v);
void mt_attrs_free(mt_attr* attrs, int n);

#endif
