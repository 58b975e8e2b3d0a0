/* Tensors: dtype + shape + refcounted 64-byte-aligned buffer. Buffers are
 * immutable once a kernel has produced them; a kernel may write into an
 * input's buffer only when the executor tells it that it holds the last
 * reference (see mt_kernel_ctx.forwardable). */
#ifndef MINITF_RUNTIME_TENSOR_H_
#define MINITF_RUNTIME_TENSOR_H_

#include <stdatomic.h>
#include <stdint.h>
#include "tensorflow/c/tf_tensor.h"
#include "tensorflow/c/tf_tstring.h"

#define MT_MAX_DIMS 32
#define MT_ALIGN 64
/* Largest single tensor allocation we attempt (bytes): beyond it,
 * TF_RESOURCE_EXHAUSTED instead of an OOM kill. */
/* Largest tensor (elements) construction-time constant folding keeps. */
#define MT_FOLD_MAX_ELEMS 1024
#define MT_MAX_ALLOC ((size_t)1 << 36)

typedef struct mt_buffer {
  void* data;
  size_t len;
  atomic_int refs;
  /* Called with (data, len, arg) when refs drops to 0; NULL = free(data). */
  void (*dealloc)(void* data, size_t len, void* arg);
  void* dealloc_arg;
  /* 1 when the runtime allocated this TF_STRING buffer and so must free the
   * TF_TString elements (user-provided buffers keep their strings). */
  int owns_strings;
  /* 1 when the runtime allocated this TF_VARIANT buffer: each non-NULL
   * element is an mt_variant* the buffer holds a reference on. */
  int owns_variants;
} mt_buffer;

struct TF_Tensor {
  TF_DataType dtype;
  int ndims;
  int64_t dims[MT_MAX_DIMS];
  mt_buffer* buf;
};

/* Product of dims; -1 if any dim is negative or the product overflows. */
int64_t mt_num_elements(const int64_t* dims, int ndims);

/* New tensor with a fresh aligned buffer sized for the shape (TF_STRING
 * elements initialized empty; other bytes uninitialized). Errors:
 * TF_INVALID_ARGUMENT (bad rank/dims/dtype), TF_RESOURCE_EXHAUSTED. */
TF_Tensor* mt_tensor_new(TF_DataType dtype, const int64_t* dims, int ndims, TF_Status* s);

/* Same, zero-filled. */
TF_Tensor* mt_tensor_zeros(TF_DataType dtype, const int64_t* dims, int ndims, TF_Status* s);

/* A new handle sharing `t`'s buffer (refcount +1). Never fails. */
TF_Tensor* mt_tensor_share(const TF_Tensor* t);

/* A new handle sharing `t`'s buffer with another shape of the same element
 * count (caller checks the count). */
TF_Tensor* mt_tensor_reshape(const TF_Tensor* t, const int64_t* dims, int ndims);

/* Deep copy (strings copied). NULL + status on allocation failure. */
TF_Tensor* mt_tensor_copy(const TF_Tensor* t, TF_Status* s);

/* 1 if this handle's buffer has no other reference. */
int mt_tensor_unique(const TF_Tensor* t);

static inline int64_t mt_tensor_nelems(const TF_Tensor* t) {
  return mt_num_elements(t->dims, t->ndims);
}
static inline void* mt_tensor_data(const TF_Tensor* t) { return t->buf ? t->buf->data : NULL; }

/* "[2,3]" style shape string into buf (TensorFlow's DebugString form). */
const char* mt_dims_str(const int64_t* dims, int ndims, char* buf, size_t cap);

/* TensorFlow's short dtype names: "float", "double", "int32", "string", ... */
const char* mt_dtype_name(TF_DataType dt);
/* Parses "float"/"DT_FLOAT"/"float32" etc.; returns 0 if unknown. */
TF_DataType mt_dtype_from_name(const char* name);
int mt_dtype_valid(TF_DataType dt);


/* A TF_VARIANT element: a refcounted object (TensorFlow's Variant holds a
 * TensorList, ...). Tensors allocated by the runtime start with NULL
 * elements; storing a pointer into one hands it a reference, which the
 * buffer drops when freed (mt_tensor_copy takes one more per element).
 * Objects are immutable once shared: a kernel changes one in place only
 * when it holds the only reference (refs == 1), as TensorFlow forwards a
 * TensorList whose RefCountIsOne. */
typedef struct mt_variant {
  atomic_int refs;
  const char* type_name; /* "tensorflow::TensorList", for error messages */
  void (*destroy)(struct mt_variant* v);
} mt_variant;

/* Starts v with one reference. */
void mt_variant_init(mt_variant* v, const char* type_name, void (*destroy)(mt_variant*));
static inline mt_variant* mt_variant_ref(mt_variant* v) {
  if (v) atomic_fetch_add(&v->refs, 1);
  return v;
}
/* Drops one reference (NULL ok); destroys v at zero. */
void mt_variant_unref(mt_variant* v);
/* The element of a scalar TF_VARIANT tensor (borrowed), or NULL. */
mt_variant* mt_variant_get(const TF_Tensor* t);
/* A new scalar TF_VARIANT tensor holding v; takes over the caller's
 * reference (unrefs it on failure). NULL + status on OOM. */
TF_Tensor* mt_variant_tensor(mt_variant* v, TF_Status* s);

/* Wraps caller memory (no copy); `dealloc(data, len, arg)` runs when the last
 * reference goes (NULL = free). owns_strings: free TF_TString elements too. */
TF_Tensor* mt_tensor_wrap(TF_DataType dtype, const int64_t* dims, int ndims, void* data,
                          size_t len, void (*dealloc)(void*, size_t, void*), void* arg,
                          int owns_strings, TF_Status* s);
/* Drops one handle (NULL ok). */
void mt_tensor_free(TF_Tensor* t);

#endif
