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


/* Wraps caller memory (no copy); `dealloc(data, len, arg)` runs when the last
 * reference goes (NULL = free). owns_strings: free TF_TString elements too. */
TF_Tensor* mt_tensor_wrap(TF_DataType dtype, const int64_t* dims, int ndims, void* data,
                          size_t len, void (*dealloc)(void*, size_t, void*), void* arg,
                          int owns_strings, TF_Status* s);
/* Drops one handle (NULL ok). */
void mt_tensor_free(TF_Tensor* t);

#endif
