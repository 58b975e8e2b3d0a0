/* Tensors and their refcounted buffers. */
#include "runtime/tensor.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "runtime/status.h"

size_t TF_DataTypeSize(TF_DataType dt) {
  switch (dt) {
    case TF_FLOAT: case TF_INT32: case TF_QINT32: case TF_UINT32: return 4;
    case TF_DOUBLE: case TF_INT64: case TF_UINT64: case TF_COMPLEX64: return 8;
    case TF_UINT8: case TF_INT8: case TF_BOOL: case TF_QINT8: case TF_QUINT8:
    case TF_FLOAT8_E5M2: case TF_FLOAT8_E4M3FN: case TF_FLOAT8_E4M3FNUZ:
    case TF_FLOAT8_E4M3B11FNUZ: case TF_FLOAT8_E5M2FNUZ: case TF_INT4: case TF_UINT4:
    case TF_INT2: case TF_UINT2: return 1;
    case TF_INT16: case TF_UINT16: case TF_QINT16: case TF_QUINT16: case TF_BFLOAT16:
    case TF_HALF: return 2;
    case TF_COMPLEX128: return 16;
    case TF_STRING: return sizeof(TF_TString);
    default: return 0; /* TF_RESOURCE, TF_VARIANT, unknown */
  }
}

static const struct { TF_DataType dt; const char* name; const char* alias; } kNames[] = {
    {TF_FLOAT, "float", "float32"},       {TF_DOUBLE, "double", "float64"},
    {TF_INT32, "int32", NULL},            {TF_UINT8, "uint8", NULL},
    {TF_INT16, "int16", NULL},            {TF_INT8, "int8", NULL},
    {TF_STRING, "string", NULL},          {TF_COMPLEX64, "complex64", NULL},
    {TF_INT64, "int64", NULL},            {TF_BOOL, "bool", NULL},
    {TF_QINT8, "qint8", NULL},            {TF_QUINT8, "quint8", NULL},
    {TF_QINT32, "qint32", NULL},          {TF_BFLOAT16, "bfloat16", NULL},
    {TF_QINT16, "qint16", NULL},          {TF_QUINT16, "quint16", NULL},
    {TF_UINT16, "uint16", NULL},          {TF_COMPLEX128, "complex128", NULL},
    {TF_HALF, "half", "float16"},         {TF_RESOURCE, "resource", NULL},
    {TF_VARIANT, "variant", NULL},        {TF_UINT32, "uint32", NULL},
    {TF_UINT64, "uint64", NULL},          {TF_FLOAT8_E5M2, "float8_e5m2", NULL},
    {TF_FLOAT8_E4M3FN, "float8_e4m3fn", NULL}, {TF_INT4, "int4", NULL},
    {TF_UINT4, "uint4", NULL},
};

/* "float_ref" etc. for ref types (dtype + 100), built once. */
static char ref_names[sizeof(kNames) / sizeof(kNames[0])][32];
static pthread_once_t ref_names_once = PTHREAD_ONCE_INIT;
static void init_ref_names(void) {
  for (size_t i = 0; i < sizeof(kNames) / sizeof(kNames[0]); i++)
    snprintf(ref_names[i], sizeof ref_names[i], "%s_ref", kNames[i].name);
}

const char* mt_dtype_name(TF_DataType dt) {
  for (size_t i = 0; i < sizeof(kNames) / sizeof(kNames[0]); i++)
    if (kNames[i].dt == dt) return kNames[i].name;
  if ((int)dt > 100) {
    pthread_once(&ref_names_once, init_ref_names);
    for (size_t i = 0; i < sizeof(kNames) / sizeof(kNames[0]); i++)
      if ((int)kNames[i].dt == (int)dt - 100) return ref_names[i];
  }
  return "unknown";
}

TF_DataType mt_dtype_from_name(const char* name) {
  if (strncmp(name, "DT_", 3) == 0) {
    name += 3;
  }
  for (size_t i = 0; i < sizeof(kNames) / sizeof(kNames[0]); i++) {
    if (strcasecmp(kNames[i].name, name) == 0) return kNames[i].dt;
    if (kNames[i].alias && strcasecmp(kNames[i].alias, name) == 0) return kNames[i].dt;
  }
  return (TF_DataType)0;
}

int mt_dtype_valid(TF_DataType dt) {
  return (int)dt < 100 && strcmp(mt_dtype_name(dt), "unknown") != 0;
}

int64_t mt_num_elements(const int64_t* dims, int ndims) {
  int64_t n = 1;
  for (int i = 0; i < ndims; i++) {
    if (dims[i] < 0) return -1;
    if (dims[i] != 0 && n > INT64_MAX / dims[i]) return -1;
    n *= dims[i];
  }
  return n;
}

const char* mt_dims_str(const int64_t* dims, int ndims, char* buf, size_t cap) {
  size_t at = 0;
  at += (size_t)snprintf(buf + at, cap - at, "[");
  for (int i = 0; i < ndims && at < cap; i++)
    at += (size_t)snprintf(buf + at, cap - at, i ? ",%lld" : "%lld", (long long)dims[i]);
  if (at < cap) snprintf(buf + at, cap - at, "]");
  return buf;
}

static void free_strings(void* data, size_t len) {
  TF_TString* s = data;
  for (size_t i = 0; i < len / sizeof(TF_TString); i++) TF_StringDealloc(&s[i]);
}

static void free_variants(void* data, size_t len) {
  mt_variant** v = data;
  for (size_t i = 0; i < len / sizeof(mt_variant*); i++) mt_variant_unref(v[i]);
}

void mt_variant_init(mt_variant* v, const char* type_name, void (*destroy)(mt_variant*)) {
  atomic_init(&v->refs, 1);
  v->type_name = type_name;
  v->destroy = destroy;
}

void mt_variant_unref(mt_variant* v) {
  if (v && atomic_fetch_sub(&v->refs, 1) == 1) v->destroy(v);
}

mt_variant* mt_variant_get(const TF_Tensor* t) {
  if (!t || t->dtype != TF_VARIANT || mt_tensor_nelems(t) != 1 || !t->buf || !t->buf->owns_variants)
    return NULL;
  return *(mt_variant**)t->buf->data;
}

TF_Tensor* mt_variant_tensor(mt_variant* v, TF_Status* s) {
  TF_Tensor* t = mt_tensor_new(TF_VARIANT, NULL, 0, s);
  if (!t) {
    mt_variant_unref(v);
    return NULL;
  }
  *(mt_variant**)t->buf->data = v;
  return t;
}

/* Freed tensor handles, and the blocks of small buffers (small_block),
 * kept per thread for reuse: a loop allocates and frees several of each per
 * iteration, and malloc's own small caches are too small for that churn.
 * Emptied when the thread exits. */
#define HANDLE_CACHE 128
#define BLOCK_CACHE 128
typedef struct handle_cache {
  int n, nblocks;
  TF_Tensor* items[HANDLE_CACHE];
  void* blocks[BLOCK_CACHE];
} handle_cache;
/* initial-exec: one pointer of static TLS (glibc keeps room for that in
 * libraries loaded later), read without a __tls_get_addr call on every
 * tensor allocation and free */
static _Thread_local handle_cache* my_cache __attribute__((tls_model("initial-exec")));
static pthread_key_t cache_key;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;

static void cache_drop(void* p) {
  handle_cache* c = p;
  for (int k = 0; k < c->n; k++) free(c->items[k]);
  for (int k = 0; k < c->nblocks; k++) free(c->blocks[k]);
  free(c);
  my_cache = NULL;
}

static void cache_key_init(void) { pthread_key_create(&cache_key, cache_drop); }

static handle_cache* thread_cache(void) {
  if (my_cache) return my_cache;
  pthread_once(&cache_once, cache_key_init);
  handle_cache* c = calloc(1, sizeof(handle_cache));
  if (c && pthread_setspecific(cache_key, c) != 0) {
    free(c);
    c = NULL;
  }
  return my_cache = c;
}

/* A small buffer (up to SMALL_BYTES of data: scalars, short vectors) is
 * one block: its mt_buffer header, then the data at SMALL_HEADER (keeping
 * MT_ALIGN). One allocation instead of two, recycled through the thread's
 * cache; its dealloc is small_dealloc, which only marks it (buffer_unref
 * recycles the whole block). */
#define SMALL_HEADER MT_ALIGN
#define SMALL_BYTES 192
_Static_assert(sizeof(mt_buffer) <= SMALL_HEADER, "mt_buffer fits the small block header");

static void small_dealloc(void* data, size_t len, void* arg) { (void)data, (void)len, (void)arg; }

static mt_buffer* small_block_new(void) {
  handle_cache* c = my_cache;
  if (c && c->nblocks > 0) return c->blocks[--c->nblocks];
  return aligned_alloc(MT_ALIGN, SMALL_HEADER + SMALL_BYTES);
}

static void small_block_free(handle_cache* c, mt_buffer* b) {
  if (c && c->nblocks < BLOCK_CACHE) c->blocks[c->nblocks++] = b;
  else free(b);
}

/* c: this thread's cache (NULL: none). */
static void buffer_unref(handle_cache* c, mt_buffer* b) {
  if (!b || atomic_fetch_sub(&b->refs, 1) != 1) return;
  if (b->owns_strings) free_strings(b->data, b->len);
  if (b->owns_variants) free_variants(b->data, b->len);
  if (b->dealloc == small_dealloc) {
    small_block_free(c, b);
    return;
  }
  if (b->dealloc)
    b->dealloc(b->data, b->len, b->dealloc_arg);
  else
    free(b->data);
  free(b);
}

static int check_shape(TF_DataType dtype, const int64_t* dims, int ndims, TF_Status* s) {
  if (ndims < 0 || ndims > MT_MAX_DIMS) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Rank %d is outside [0, %d]", ndims, MT_MAX_DIMS);
    return 0;
  }
  if (mt_num_elements(dims, ndims) < 0) {
    char buf[256];
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Invalid tensor shape %s",
                   mt_dims_str(dims, ndims, buf, sizeof(buf)));
    return 0;
  }
  if (TF_DataTypeSize(dtype) == 0 && dtype != TF_RESOURCE && dtype != TF_VARIANT) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Unsupported dtype %d", (int)dtype);
    return 0;
  }
  return 1;
}

static TF_Tensor* wrap(TF_DataType dtype, const int64_t* dims, int ndims, mt_buffer* buf) {
  handle_cache* c = my_cache;
  TF_Tensor* t;
  if (c && c->n > 0) {
    t = c->items[--c->n]; /* dims past ndims are never read */
  } else {
    t = calloc(1, sizeof(TF_Tensor));
  }
  if (!t) return NULL;
  t->dtype = dtype;
  t->ndims = ndims;
  if (ndims) memcpy(t->dims, dims, sizeof(int64_t) * (size_t)ndims);
  t->buf = buf;
  return t;
}

TF_Tensor* mt_tensor_wrap(TF_DataType dtype, const int64_t* dims, int ndims, void* data,
                          size_t len, void (*dealloc)(void*, size_t, void*), void* arg,
                          int owns_strings, TF_Status* s) {
  if (!check_shape(dtype, dims, ndims, s)) return NULL;
  mt_buffer* b = calloc(1, sizeof(mt_buffer));
  TF_Tensor* t = b ? wrap(dtype, dims, ndims, b) : NULL;
  if (!t) {
    free(b);
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM allocating a tensor header");
    return NULL;
  }
  b->data = data;
  b->len = len;
  atomic_init(&b->refs, 1);
  b->dealloc = dealloc;
  b->dealloc_arg = arg;
  b->owns_strings = owns_strings;
  return t;
}

/* ---- large-buffer cache ----
 *
 * glibc's malloc maps buffers over 32 MiB with mmap and unmaps them when
 * freed, so an op that makes such a tensor on every run page-faults all of
 * it in afresh (measured: depthwise 3x3 on 64x56x56x64, 38 ms a run of
 * which ~26 ms are page faults). TensorFlow's allocator keeps its memory;
 * here freed buffers of at least BIG_BUFFER bytes are kept, up to
 * BIG_CACHE_SLOTS of them and BIG_CACHE_BYTES in all, for the next
 * allocation of exactly the same padded size (a session running the same
 * plan again asks for the same sizes). Thread-safe (one mutex). */
#define BIG_BUFFER ((size_t)32 << 20)
#define BIG_CACHE_SLOTS 8
#define BIG_CACHE_BYTES ((size_t)512 << 20)

static struct {
  pthread_mutex_t mu;
  void* data[BIG_CACHE_SLOTS];
  size_t size[BIG_CACHE_SLOTS];
  size_t bytes;
} big_cache = {PTHREAD_MUTEX_INITIALIZER, {0}, {0}, 0};

static size_t padded_size(size_t len) {
  const size_t padded = (len + MT_ALIGN - 1) / MT_ALIGN * MT_ALIGN;
  return padded ? padded : MT_ALIGN;
}

/* A cached buffer of exactly `padded` bytes, or NULL. */
static void* big_cache_take(size_t padded) {
  void* p = NULL;
  pthread_mutex_lock(&big_cache.mu);
  for (int i = 0; i < BIG_CACHE_SLOTS && !p; i++)
    if (big_cache.data[i] && big_cache.size[i] == padded) {
      p = big_cache.data[i];
      big_cache.data[i] = NULL;
      big_cache.bytes -= padded;
    }
  pthread_mutex_unlock(&big_cache.mu);
  return p;
}

/* Keeps `data` for reuse when there is room; 0 if the caller must free it. */
static int big_cache_put(void* data, size_t padded) {
  int kept = 0;
  pthread_mutex_lock(&big_cache.mu);
  if (big_cache.bytes + padded <= BIG_CACHE_BYTES)
    for (int i = 0; i < BIG_CACHE_SLOTS && !kept; i++)
      if (!big_cache.data[i]) {
        big_cache.data[i] = data;
        big_cache.size[i] = padded;
        big_cache.bytes += padded;
        kept = 1;
      }
  pthread_mutex_unlock(&big_cache.mu);
  return kept;
}

static void aligned_free(void* data, size_t len, void* arg) {
  const size_t padded = padded_size(len);
  if (padded >= BIG_BUFFER && big_cache_put(data, padded)) return;
  free(data);
}

/* alloc() for a buffer of at most SMALL_BYTES: one recycled block. */
static TF_Tensor* alloc_small(TF_DataType dtype, const int64_t* dims, int ndims, size_t len,
                              int zero, TF_Status* s) {
  mt_buffer* b = small_block_new();
  TF_Tensor* t = b ? wrap(dtype, dims, ndims, b) : NULL;
  if (!t) {
    free(b);
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM allocating a tensor header");
    return NULL;
  }
  b->data = (char*)b + SMALL_HEADER;
  b->len = len;
  atomic_init(&b->refs, 1);
  b->dealloc = small_dealloc;
  b->dealloc_arg = NULL;
  b->owns_strings = dtype == TF_STRING;
  b->owns_variants = dtype == TF_VARIANT;
  if (zero || dtype == TF_STRING || dtype == TF_VARIANT) memset(b->data, 0, len);
  return t;
}

static TF_Tensor* alloc(TF_DataType dtype, const int64_t* dims, int ndims, int zero,
                        TF_Status* s) {
  if (!check_shape(dtype, dims, ndims, s)) return NULL;
  size_t esize = TF_DataTypeSize(dtype);
  if (dtype == TF_RESOURCE || dtype == TF_VARIANT) esize = sizeof(void*);
  int64_t n = mt_num_elements(dims, ndims);
  if ((uint64_t)n > MT_MAX_ALLOC / esize) {
    char buf[256];
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM when allocating tensor with shape %s and type %s",
                   mt_dims_str(dims, ndims, buf, sizeof(buf)), mt_dtype_name(dtype));
    return NULL;
  }
  size_t len = (size_t)n * esize;
  if (len <= SMALL_BYTES) return alloc_small(dtype, dims, ndims, len, zero, s);
  const size_t padded = padded_size(len);
  void* data = padded >= BIG_BUFFER ? big_cache_take(padded) : NULL;
  if (!data) data = aligned_alloc(MT_ALIGN, padded);
  if (!data) {
    char buf[256];
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM when allocating tensor with shape %s and type %s",
                   mt_dims_str(dims, ndims, buf, sizeof(buf)), mt_dtype_name(dtype));
    return NULL;
  }
  if (zero || dtype == TF_STRING || dtype == TF_VARIANT) memset(data, 0, len);
  TF_Tensor* t = mt_tensor_wrap(dtype, dims, ndims, data, len, aligned_free, NULL,
                                dtype == TF_STRING, s);
  if (!t) free(data);
  else t->buf->owns_variants = dtype == TF_VARIANT;
  return t;
}

TF_Tensor* mt_tensor_new(TF_DataType dtype, const int64_t* dims, int ndims, TF_Status* s) {
  return alloc(dtype, dims, ndims, 0, s);
}

TF_Tensor* mt_tensor_zeros(TF_DataType dtype, const int64_t* dims, int ndims, TF_Status* s) {
  return alloc(dtype, dims, ndims, 1, s);
}

TF_Tensor* mt_tensor_share(const TF_Tensor* t) {
  TF_Tensor* out = wrap(t->dtype, t->dims, t->ndims, t->buf);
  if (out && t->buf) atomic_fetch_add(&t->buf->refs, 1);
  return out;
}

TF_Tensor* mt_tensor_reshape(const TF_Tensor* t, const int64_t* dims, int ndims) {
  TF_Tensor* out = mt_tensor_share(t);
  if (!out) return NULL;
  out->ndims = ndims;
  if (ndims) memcpy(out->dims, dims, sizeof(int64_t) * (size_t)ndims);
  return out;
}

TF_Tensor* mt_tensor_copy(const TF_Tensor* t, TF_Status* s) {
  TF_Tensor* out = mt_tensor_new(t->dtype, t->dims, t->ndims, s);
  if (!out) return NULL;
  if (t->dtype == TF_STRING) {
    const TF_TString* src = mt_tensor_data(t);
    TF_TString* dst = mt_tensor_data(out);
    for (int64_t i = 0; i < mt_tensor_nelems(t); i++)
      TF_StringCopy(&dst[i], TF_StringGetDataPointer(&src[i]), TF_StringGetSize(&src[i]));
  } else if (t->dtype == TF_VARIANT) {
    mt_variant* const* src = mt_tensor_data(t);
    mt_variant** dst = mt_tensor_data(out);
    const int owned = t->buf->owns_variants;
    for (int64_t i = 0; i < mt_tensor_nelems(t); i++) dst[i] = owned ? mt_variant_ref(src[i]) : NULL;
  } else if (out->buf->len) {
    memcpy(out->buf->data, t->buf->data, out->buf->len);
  }
  return out;
}

int mt_tensor_unique(const TF_Tensor* t) {
  return t->buf && atomic_load(&t->buf->refs) == 1 &&
         (t->buf->dealloc == aligned_free || t->buf->dealloc == small_dealloc);
}

void mt_tensor_free(TF_Tensor* t) {
  if (!t) return;
  handle_cache* c = thread_cache();
  buffer_unref(c, t->buf);
  if (c && c->n < HANDLE_CACHE) c->items[c->n++] = t;
  else free(t);
}
