/* TensorFlow's tensor bundle: entries, writer, reader, merge (bundle.h). */
#include "runtime/bundle.h"

#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include "minitf/core/protobuf/tensor_bundle.pb-c.h"
#include "runtime/crc32c.h"
#include "runtime/graphdef.h"
#include "runtime/proto.h"
#include "runtime/status.h"
#include "runtime/tensor.h"

/* kTensorBundleVersion / kTensorBundleMinConsumer. */
#define BUNDLE_VERSION 1
#define BUNDLE_MIN_CONSUMER 0

static size_t index_block_size = 0;
void mt_bundle_set_index_block_size(size_t n) { index_block_size = n; }

static char* str_printf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
#include <stdarg.h>
static char* str_printf(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char* out = NULL;
  if (vasprintf(&out, fmt, ap) < 0) out = NULL;
  va_end(ap);
  return out;
}

char* mt_bundle_index_name(const char* prefix) { return str_printf("%s.index", prefix); }
char* mt_bundle_data_name(const char* prefix, int shard, int nshards) {
  return str_printf("%s.data-%05d-of-%05d", prefix, shard, nshards);
}

static void oom(TF_Status* s) { mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "Out of memory"); }

/* ---- entry protos ---- */

void mt_bundle_entry_clear(mt_bundle_entry* e) {
  free(e->slices);
  memset(e, 0, sizeof(*e));
}

/* The entry and header protos are decoded and encoded with the protoc-c codec generated
 * from pyfront/minitf/core/protobuf/tensor_bundle.proto (the schema the Python reader uses).
 * protoc-c writes fields in number order and leaves proto3 zeros out, set sub-messages and
 * oneof members in, as TensorFlow's C++ does, so the bytes stay TF's. */

static int shape_from_pb(const Tensorflow__TensorShapeProto* p, mt_shape* out) {
  out->rank = 0;
  if (!p) return 1; /* unset: a scalar */
  if (p->n_dim > MT_MAX_DIMS) return 0;
  for (size_t d = 0; d < p->n_dim; d++) {
    if (p->dim[d]->size < -1) return 0;
    out->dims[out->rank++] = p->dim[d]->size;
  }
  if (p->unknown_rank) out->rank = -1;
  return 1;
}

static int slice_from_pb(const Tensorflow__TensorSliceProto* p, mt_tensor_slice* sl) {
  memset(sl, 0, sizeof(*sl));
  if (p->n_extent > MT_MAX_DIMS) return 0;
  for (size_t d = 0; d < p->n_extent; d++) {
    const Tensorflow__TensorSliceProto__Extent* x = p->extent[d];
    sl->start[d] = x->start;
    sl->length[d] =
        x->has_length_case == TENSORFLOW__TENSOR_SLICE_PROTO__EXTENT__HAS_LENGTH_LENGTH ? x->length
                                                                                        : -1;
  }
  sl->ndims = (int)p->n_extent;
  return 1;
}

static int entry_from_pb(const Tensorflow__BundleEntryProto* p, mt_bundle_entry* e) {
  e->dtype = (TF_DataType)p->dtype;
  e->shard_id = p->shard_id;
  e->offset = p->offset;
  e->size = p->size;
  e->crc32c = p->crc32c;
  if (!shape_from_pb(p->shape, &e->shape)) return 0;
  if (!p->n_slices) return 1;
  e->slices = malloc(p->n_slices * sizeof(*e->slices));
  if (!e->slices) return 0;
  for (size_t i = 0; i < p->n_slices; i++, e->nslices++)
    if (!slice_from_pb(p->slices[i], &e->slices[i])) return 0;
  return 1;
}

int mt_bundle_entry_decode(const void* data, size_t len, const char* key, mt_bundle_entry* e,
                           TF_Status* s) {
  memset(e, 0, sizeof(*e));
  e->shape = mt_shape_scalar();
  Tensorflow__BundleEntryProto* p = tensorflow__bundle_entry_proto__unpack(NULL, len, data);
  int ok = p && entry_from_pb(p, e);
  if (p) tensorflow__bundle_entry_proto__free_unpacked(p, NULL);
  if (!ok) {
    mt_bundle_entry_clear(e);
    mt_status_setf(s, TF_DATA_LOSS, "Entry for key %s not parseable.", key);
  }
  return ok;
}

/* Appends message `m` packed by protoc-c to `w`. */
static void put_packed(mt_pb_writer* w, const ProtobufCMessage* m) {
  size_t n = protobuf_c_message_get_packed_size(m);
  uint8_t stack[256];
  uint8_t* buf = n <= sizeof stack ? stack : malloc(n);
  if (!buf) {
    w->failed = 1;
    return;
  }
  protobuf_c_message_pack(m, buf);
  mt_pb_put_raw(w, buf, n);
  if (buf != stack) free(buf);
}

void mt_bundle_entry_encode(mt_pb_writer* w, const mt_bundle_entry* e) {
  Tensorflow__BundleEntryProto p = TENSORFLOW__BUNDLE_ENTRY_PROTO__INIT;
  Tensorflow__TensorShapeProto shape = TENSORFLOW__TENSOR_SHAPE_PROTO__INIT;
  Tensorflow__TensorShapeProto__Dim dims[MT_MAX_DIMS];
  Tensorflow__TensorShapeProto__Dim* dimp[MT_MAX_DIMS];
  p.dtype = (Tensorflow__DataType)e->dtype;
  p.shape = &shape; /* set even for scalars (TF's mutable_shape) */
  shape.unknown_rank = e->shape.rank < 0;
  for (int d = 0; d < e->shape.rank; d++) {
    tensorflow__tensor_shape_proto__dim__init(&dims[d]);
    dims[d].size = e->shape.dims[d];
    dimp[d] = &dims[d];
  }
  shape.n_dim = e->shape.rank > 0 ? (size_t)e->shape.rank : 0;
  shape.dim = dimp;
  p.shard_id = e->shard_id;
  p.offset = e->offset;
  p.size = e->size;
  p.crc32c = e->crc32c;
  Tensorflow__TensorSliceProto* slices = NULL;
  Tensorflow__TensorSliceProto** slicep = NULL;
  Tensorflow__TensorSliceProto__Extent* ext = NULL;
  Tensorflow__TensorSliceProto__Extent** extp = NULL;
  size_t n = (size_t)e->nslices, m = n * MT_MAX_DIMS;
  if (n) {
    slices = malloc(n * sizeof(*slices));
    slicep = malloc(n * sizeof(*slicep));
    ext = malloc(m * sizeof(*ext));
    extp = malloc(m * sizeof(*extp));
    if (!slices || !slicep || !ext || !extp) {
      w->failed = 1;
      goto done;
    }
  }
  for (size_t i = 0; i < n; i++) {
    const mt_tensor_slice* sl = &e->slices[i];
    tensorflow__tensor_slice_proto__init(&slices[i]);
    for (int d = 0; d < sl->ndims; d++) {
      Tensorflow__TensorSliceProto__Extent* x = &ext[i * MT_MAX_DIMS + (size_t)d];
      tensorflow__tensor_slice_proto__extent__init(x);
      x->start = sl->start[d];
      /* a full extent leaves has_length unset; a set length is written even when 0 */
      if (sl->length[d] >= 0) {
        x->has_length_case = TENSORFLOW__TENSOR_SLICE_PROTO__EXTENT__HAS_LENGTH_LENGTH;
        x->length = sl->length[d];
      }
      extp[i * MT_MAX_DIMS + (size_t)d] = x;
    }
    slices[i].n_extent = (size_t)sl->ndims;
    slices[i].extent = &extp[i * MT_MAX_DIMS];
    slicep[i] = &slices[i];
  }
  p.n_slices = n;
  p.slices = slicep;
  put_packed(w, &p.base);
done:
  free(slices);
  free(slicep);
  free(ext);
  free(extp);
}

typedef struct bundle_header {
  int32_t num_shards;
  int endianness;
  int32_t producer, min_consumer;
  int bad_consumer; /* our version is listed in bad_consumers */
} bundle_header;

static int header_decode(const uint8_t* data, size_t len, bundle_header* h, TF_Status* s) {
  memset(h, 0, sizeof(*h));
  Tensorflow__BundleHeaderProto* p = tensorflow__bundle_header_proto__unpack(NULL, len, data);
  if (!p) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "malformed BundleHeaderProto");
    return 0;
  }
  h->num_shards = p->num_shards;
  h->endianness = (int)p->endianness;
  if (p->version) {
    h->producer = p->version->producer;
    h->min_consumer = p->version->min_consumer;
    for (size_t i = 0; i < p->version->n_bad_consumers; i++)
      if (p->version->bad_consumers[i] == BUNDLE_VERSION) h->bad_consumer = 1;
  }
  tensorflow__bundle_header_proto__free_unpacked(p, NULL);
  return 1;
}

static void header_encode(mt_pb_writer* w, int32_t num_shards, int32_t producer,
                          int32_t min_consumer) {
  Tensorflow__BundleHeaderProto p = TENSORFLOW__BUNDLE_HEADER_PROTO__INIT;
  Tensorflow__VersionDef v = TENSORFLOW__VERSION_DEF__INIT;
  p.num_shards = num_shards;
  v.producer = producer;
  v.min_consumer = min_consumer;
  p.version = &v; /* set even when empty, as TF writes it */
  put_packed(w, &p.base);
}

/* ---- files ---- */

static uint8_t* read_file(const char* path, size_t* len, TF_Status* s) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    mt_status_setf(s, mt_errno_code(errno), "%s; %s", path,
                   strerror(errno));
    return NULL;
  }
  struct stat st;
  uint8_t* buf = NULL;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    mt_status_setf(s, TF_FAILED_PRECONDITION, "%s; not a regular file", path);
    goto done;
  }
  buf = malloc(st.st_size ? (size_t)st.st_size : 1);
  if (!buf) {
    oom(s);
    goto done;
  }
  size_t got = 0;
  while (got < (size_t)st.st_size) {
    ssize_t k = pread(fd, buf + got, (size_t)st.st_size - got, (off_t)got);
    if (k <= 0) break;
    got += (size_t)k;
  }
  *len = got;
done:
  close(fd);
  return buf;
}

static int write_all(int fd, const void* data, size_t n) {
  const uint8_t* p = data;
  while (n) {
    ssize_t k = write(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return 0;
    p += k;
    n -= (size_t)k;
  }
  return 1;
}

static void io_error(TF_Status* s, const char* what, const char* path) {
  mt_status_setf(s, mt_errno_code(errno), "%s%s : %s", what, path, strerror(errno));
}

static char* temp_name(const char* path) {
  uint64_t r = 0;
  if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r) r = (uint64_t)getpid() * 2654435761u;
  return str_printf("%s.tempstate%llu", path, (unsigned long long)r);
}

/* Writes `data` to a temporary name and renames it to `path`. */
static int write_file_atomic(const char* path, const uint8_t* data, size_t n, TF_Status* s) {
  char* tmp = temp_name(path);
  if (!tmp) {
    oom(s);
    return 0;
  }
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int ok = fd >= 0;
  if (!ok) io_error(s, "Failed to create a NewWriteableFile: ", tmp);
  if (ok && !write_all(fd, data, n)) {
    io_error(s, "Failed to write to file ", tmp);
    ok = 0;
  }
  if (fd >= 0 && close(fd) != 0 && ok) {
    io_error(s, "Failed to close file ", tmp);
    ok = 0;
  }
  if (ok && rename(tmp, path) != 0) {
    io_error(s, "Failed to rename: ", tmp);
    ok = 0;
  }
  if (!ok) unlink(tmp);
  free(tmp);
  return ok;
}

/* The directory part of a path, as io::Dirname ("" when none). */
static char* dirname_of(const char* path) {
  const char* slash = strrchr(path, '/');
  if (!slash) return strdup("");
  if (slash == path) return strdup("/");
  return strndup(path, (size_t)(slash - path));
}

/* Env::CreateDir of the prefix's directory: one level; an existing one is
 * fine. */
static int create_parent_dir(const char* prefix, TF_Status* s) {
  char* dir = dirname_of(prefix);
  if (!dir) {
    oom(s);
    return 0;
  }
  int ok = 1;
  if (dir[0] && mkdir(dir, 0755) != 0 && errno != EEXIST) {
    mt_status_setf(s, mt_errno_code(errno),
                   "%s; %s", dir, strerror(errno));
    ok = 0;
  }
  free(dir);
  return ok;
}

/* ---- writer ---- */

typedef struct pending_entry {
  char* key;
  size_t klen;
  mt_bundle_entry e;
} pending_entry;

struct mt_bundle_writer {
  char* prefix;
  char* data_tmp;
  int fd;
  int64_t size; /* bytes written to the data file */
  pending_entry* entries;
  int n, cap;
  uint8_t* buf; /* write buffer */
  size_t buf_len, buf_cap;
  TF_Status* status; /* first error, as BundleWriter's status_ */
};

mt_bundle_writer* mt_bundle_writer_new(const char* prefix, TF_Status* s) {
  mt_bundle_writer* w = calloc(1, sizeof(*w));
  char* data = mt_bundle_data_name(prefix, 0, 1);
  if (!w || !data) {
    free(w);
    free(data);
    oom(s);
    return NULL;
  }
  w->fd = -1;
  w->prefix = strdup(prefix);
  w->data_tmp = temp_name(data);
  free(data);
  w->status = TF_NewStatus();
  w->buf_cap = (size_t)8 << 20; /* 8 MB, as BundleWriter's buffer */
  w->buf = malloc(w->buf_cap);
  if (!w->prefix || !w->data_tmp || !w->buf) {
    oom(s);
    mt_bundle_writer_abort(w);
    return NULL;
  }
  if (!create_parent_dir(prefix, s)) {
    mt_bundle_writer_abort(w);
    return NULL;
  }
  w->fd = open(w->data_tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (w->fd < 0) {
    io_error(s, "Failed to create a NewWriteableFile: ", w->data_tmp);
    mt_bundle_writer_abort(w);
    return NULL;
  }
  return w;
}

static void writer_fail(mt_bundle_writer* w, TF_Status* s) {
  if (mt_ok(w->status)) mt_status_copy(w->status, s);
}

static int flush_buf(mt_bundle_writer* w, TF_Status* s) {
  if (w->buf_len && !write_all(w->fd, w->buf, w->buf_len)) {
    io_error(s, "Failed to write to file ", w->data_tmp);
    return 0;
  }
  w->buf_len = 0;
  return 1;
}

/* Appends bytes to the data file, extending *crc over them. */
static int append(mt_bundle_writer* w, const void* data, size_t n, uint32_t* crc, TF_Status* s) {
  if (crc) *crc = mt_crc32c_extend(*crc, data, n);
  if (n > w->buf_cap - w->buf_len) {
    if (!flush_buf(w, s)) return 0;
    if (n > w->buf_cap) {
      if (!write_all(w->fd, data, n)) {
        io_error(s, "Failed to write to file ", w->data_tmp);
        return 0;
      }
      w->size += (int64_t)n;
      return 1;
    }
  }
  memcpy(w->buf + w->buf_len, data, n);
  w->buf_len += n;
  w->size += (int64_t)n;
  return 1;
}

/* The string layout of bundle.h; *crc ends as TensorFlow's WriteStringTensor
 * leaves it. */
static int append_strings(mt_bundle_writer* w, const TF_Tensor* t, uint32_t* crc, TF_Status* s) {
  const TF_TString* str = (const TF_TString*)mt_tensor_data(t);
  int64_t n = mt_tensor_nelems(t);
  for (int64_t i = 0; i < n; i++) {
    uint64_t len = TF_StringGetSize(&str[i]);
    uint8_t v[10];
    int k = 0;
    uint64_t x = len;
    do {
      v[k] = (uint8_t)(x & 0x7f);
      x >>= 7;
      if (x) v[k] |= 0x80;
      k++;
    } while (x);
    if (!append(w, v, (size_t)k, NULL, s)) return 0;
    if (len <= UINT32_MAX) {
      uint32_t l32 = (uint32_t)len;
      *crc = mt_crc32c_extend(*crc, &l32, 4);
    } else {
      *crc = mt_crc32c_extend(*crc, &len, 8);
    }
  }
  uint32_t masked = mt_crc32c_mask(*crc);
  if (!append(w, &masked, 4, crc, s)) return 0;
  for (int64_t i = 0; i < n; i++) {
    if (!append(w, TF_StringGetDataPointer(&str[i]), TF_StringGetSize(&str[i]), crc, s)) return 0;
  }
  return 1;
}

static int find_pending(const mt_bundle_writer* w, const char* key) {
  for (int i = 0; i < w->n; i++)
    if (strcmp(w->entries[i].key, key) == 0) return i;
  return -1;
}

static pending_entry* new_pending(mt_bundle_writer* w, const char* key, TF_Status* s) {
  if (w->n == w->cap) {
    int ncap = w->cap ? 2 * w->cap : 16;
    pending_entry* p = realloc(w->entries, (size_t)ncap * sizeof(*p));
    if (!p) {
      oom(s);
      return NULL;
    }
    w->entries = p;
    w->cap = ncap;
  }
  pending_entry* pe = &w->entries[w->n];
  memset(pe, 0, sizeof(*pe));
  pe->key = strdup(key);
  if (!pe->key) {
    oom(s);
    return NULL;
  }
  pe->klen = strlen(key);
  w->n++;
  return pe;
}

static int add_tensor(mt_bundle_writer* w, const char* key, size_t klen, const TF_Tensor* t,
                      TF_Status* s) {
  if (t->dtype == TF_VARIANT || t->dtype == TF_RESOURCE) {
    mt_status_setf(s, TF_UNIMPLEMENTED, "Saving %s tensors is not supported: %s",
                   mt_dtype_name(t->dtype), key);
    return 0;
  }
  for (int i = 0; i < w->n; i++) {
    if (w->entries[i].klen == klen && memcmp(w->entries[i].key, key, klen) == 0) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "Adding duplicate key: %s", key);
      return 0;
    }
  }
  pending_entry* pe = new_pending(w, key, s);
  if (!pe) return 0;
  pe->e.dtype = t->dtype;
  pe->e.shape = mt_shape_make(t->dims, t->ndims);
  pe->e.offset = w->size;
  uint32_t crc = 0;
  int64_t start = w->size;
  int ok;
  if (t->dtype == TF_STRING) {
    ok = append_strings(w, t, &crc, s);
  } else {
    size_t bytes = (size_t)mt_tensor_nelems(t) * TF_DataTypeSize(t->dtype);
    ok = append(w, mt_tensor_data(t), bytes, &crc, s);
  }
  pe->e.size = w->size - start;
  pe->e.crc32c = mt_crc32c_mask(crc);
  return ok;
}

int mt_bundle_writer_add(mt_bundle_writer* w, const char* key, const TF_Tensor* t, TF_Status* s) {
  if (!mt_ok(w->status)) {
    mt_status_copy(s, w->status);
    return 0;
  }
  int ok = add_tensor(w, key, strlen(key), t, s);
  if (!ok) writer_fail(w, s);
  return ok;
}

static int slice_is_full(const mt_tensor_slice* sl, const mt_shape* full) {
  for (int d = 0; d < sl->ndims; d++)
    if (sl->length[d] >= 0 && !(sl->start[d] == 0 && sl->length[d] == full->dims[d])) return 0;
  return 1;
}

int mt_bundle_writer_add_slice(mt_bundle_writer* w, const char* key, const mt_shape* full,
                               const mt_tensor_slice* slice, const TF_Tensor* t, TF_Status* s) {
  if (slice_is_full(slice, full)) return mt_bundle_writer_add(w, key, t, s);
  if (!mt_ok(w->status)) {
    mt_status_copy(s, w->status);
    return 0;
  }
  int i = find_pending(w, key);
  pending_entry* pe = i >= 0 ? &w->entries[i] : new_pending(w, key, s);
  if (!pe) return writer_fail(w, s), 0;
  if (pe->e.nslices == 0 && i >= 0) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Adding duplicate key: %s", key);
    return writer_fail(w, s), 0;
  }
  mt_tensor_slice* p = realloc(pe->e.slices, (size_t)(pe->e.nslices + 1) * sizeof(*p));
  if (!p) return oom(s), writer_fail(w, s), 0;
  pe->e.slices = p;
  p[pe->e.nslices++] = *slice;
  pe->e.dtype = t->dtype;
  pe->e.shape = *full;
  size_t klen;
  char* skey = mt_encode_tensor_name_slice(key, slice, &klen);
  if (!skey) return oom(s), writer_fail(w, s), 0;
  int ok = add_tensor(w, skey, klen, t, s);
  /* The slice key may hold NULs: keep its length (add_tensor strdup'd it). */
  if (ok) {
    pending_entry* last = &w->entries[w->n - 1];
    free(last->key);
    last->key = skey;
    last->klen = klen;
  } else {
    free(skey);
    writer_fail(w, s);
  }
  return ok;
}

static void pending_free(mt_bundle_writer* w) {
  for (int i = 0; i < w->n; i++) {
    free(w->entries[i].key);
    mt_bundle_entry_clear(&w->entries[i].e);
  }
  free(w->entries);
  w->entries = NULL;
  w->n = 0;
}

void mt_bundle_writer_abort(mt_bundle_writer* w) {
  if (!w) return;
  if (w->fd >= 0) close(w->fd);
  if (w->data_tmp && w->fd >= 0) unlink(w->data_tmp);
  pending_free(w);
  free(w->prefix);
  free(w->data_tmp);
  free(w->buf);
  TF_DeleteStatus(w->status);
  free(w);
}

static int cmp_bytes(const char* a, size_t al, const char* b, size_t bl) {
  size_t m = al < bl ? al : bl;
  int c = m ? memcmp(a, b, m) : 0;
  if (c) return c;
  return al < bl ? -1 : al > bl;
}

static int cmp_pending(const void* a, const void* b) {
  const pending_entry* x = a;
  const pending_entry* y = b;
  return cmp_bytes(x->key, x->klen, y->key, y->klen);
}

/* Builds an index table from a header and sorted entries. */
static int build_index(const char* path, int32_t num_shards, int32_t producer,
                       int32_t min_consumer, pending_entry* e, int n, TF_Status* s) {
  mt_table_builder tb;
  mt_table_builder_init(&tb, index_block_size);
  mt_pb_writer h = mt_pb_writer_make();
  header_encode(&h, num_shards, producer, min_consumer);
  mt_table_add(&tb, "", 0, h.data, h.len);
  int failed = h.failed;
  mt_pb_writer_free(&h);
  for (int i = 0; i < n; i++) {
    mt_pb_writer v = mt_pb_writer_make();
    mt_bundle_entry_encode(&v, &e[i].e);
    failed |= v.failed;
    mt_table_add(&tb, e[i].key, e[i].klen, v.data, v.len);
    mt_pb_writer_free(&v);
  }
  uint8_t* bytes = NULL;
  size_t len = 0;
  if (failed) {
    mt_table_builder_free(&tb);
    oom(s);
    return 0;
  }
  if (!mt_table_finish(&tb, &bytes, &len, s)) return 0;
  int ok = write_file_atomic(path, bytes, len, s);
  free(bytes);
  return ok;
}

int mt_bundle_writer_finish(mt_bundle_writer* w, TF_Status* s) {
  if (!mt_ok(w->status)) {
    mt_status_copy(s, w->status);
    mt_bundle_writer_abort(w);
    return 0;
  }
  int ok = flush_buf(w, s);
  if (close(w->fd) != 0 && ok) {
    io_error(s, "Failed to close file ", w->data_tmp);
    ok = 0;
  }
  w->fd = -1;
  char* data = mt_bundle_data_name(w->prefix, 0, 1);
  char* index = mt_bundle_index_name(w->prefix);
  if (ok && (!data || !index)) ok = 0, oom(s);
  if (ok && rename(w->data_tmp, data) != 0) {
    io_error(s, "Failed to rename: ", w->data_tmp);
    ok = 0;
  }
  if (!ok) unlink(w->data_tmp);
  if (ok) {
    qsort(w->entries, (size_t)w->n, sizeof(*w->entries), cmp_pending);
    ok = build_index(index, 1, BUNDLE_VERSION, BUNDLE_MIN_CONSUMER, w->entries, w->n, s);
  }
  free(data);
  free(index);
  mt_bundle_writer_abort(w);
  return ok;
}

/* ---- reader ---- */

struct mt_bundle_reader {
  char* prefix;
  char* index_path;
  mt_table table;
  int32_t num_shards;
  int* fds; /* per shard, -1 until opened */
};

const mt_table* mt_bundle_reader_table(const mt_bundle_reader* r) { return &r->table; }

/* TensorFlow's CorruptFileError wording around a cause. */
static void corrupt_file(TF_Status* s, const char* file, const char* detail) {
  mt_status_prefix(s,
                   "Unable to read file (%s). Perhaps the file is corrupt or was produced by a "
                   "newer version of TensorFlow with format changes (%s): ",
                   file, detail);
}

static int reader_header(mt_bundle_reader* r, TF_Status* s) {
  const mt_table_entry* h = r->table.n > 0 && r->table.entries[0].klen == 0
                                ? &r->table.entries[0] : NULL;
  if (!h) {
    mt_status_setf(s, TF_INTERNAL,
                   "Unable to read file (%s). Perhaps the file is corrupt or was produced by a "
                   "newer version of TensorFlow with format changes (failed to seek to header "
                   "entry)",
                   r->index_path);
    return 0;
  }
  bundle_header hd;
  TF_Status* tmp = TF_NewStatus();
  int ok = header_decode(h->val, h->vlen, &hd, tmp);
  TF_DeleteStatus(tmp);
  if (!ok) {
    mt_status_setf(s, TF_DATA_LOSS, "Entry for key  not parseable.");
    corrupt_file(s, r->index_path, "unable to parse header");
    return 0;
  }
  if (hd.endianness != 0) {
    mt_status_setf(s, TF_UNIMPLEMENTED,
                   "TensorBundle at %s is big-endian; reading big-endian bundles is not "
                   "supported",
                   r->prefix);
    return 0;
  }
  if (BUNDLE_VERSION < hd.min_consumer) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Checkpoint min consumer version %d above current version %d for checkpoint",
                   hd.min_consumer, BUNDLE_VERSION);
    return 0;
  }
  if (hd.bad_consumer) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Checkpoint disallows consumer version %d.  Please upgrade TensorFlow: this "
                   "version is likely buggy.",
                   BUNDLE_VERSION);
    return 0;
  }
  if (hd.num_shards < 0 || hd.num_shards > 1000000) {
    mt_status_setf(s, TF_DATA_LOSS, "Invalid number of shards %d in %s", hd.num_shards,
                   r->index_path);
    return 0;
  }
  r->num_shards = hd.num_shards;
  r->fds = malloc((size_t)(hd.num_shards ? hd.num_shards : 1) * sizeof(int));
  if (!r->fds) {
    oom(s);
    return 0;
  }
  for (int i = 0; i < hd.num_shards; i++) r->fds[i] = -1;
  return 1;
}

mt_bundle_reader* mt_bundle_reader_open(const char* prefix, TF_Status* s) {
  mt_bundle_reader* r = calloc(1, sizeof(*r));
  if (!r || !(r->prefix = strdup(prefix)) || !(r->index_path = mt_bundle_index_name(prefix))) {
    oom(s);
    mt_bundle_reader_free(r);
    return NULL;
  }
  size_t len = 0;
  uint8_t* bytes = read_file(r->index_path, &len, s);
  if (!bytes) {
    mt_bundle_reader_free(r);
    return NULL;
  }
  int ok = mt_table_open(bytes, len, &r->table, s);
  free(bytes);
  if (!ok) {
    /* TensorFlow's table errors do not say which file: this one does. */
    if (TF_GetCode(s) == TF_DATA_LOSS) mt_status_append(s, " (%s)", r->index_path);
    mt_bundle_reader_free(r);
    return NULL;
  }
  if (!reader_header(r, s)) {
    mt_bundle_reader_free(r);
    return NULL;
  }
  return r;
}

void mt_bundle_reader_free(mt_bundle_reader* r) {
  if (!r) return;
  for (int i = 0; r->fds && i < r->num_shards; i++)
    if (r->fds[i] >= 0) close(r->fds[i]);
  free(r->fds);
  mt_table_free(&r->table);
  free(r->prefix);
  free(r->index_path);
  free(r);
}

static int shape_valid(const mt_shape* sh) {
  if (sh->rank < 0) return 0;
  int64_t n = 1;
  for (int d = 0; d < sh->rank; d++) {
    if (sh->dims[d] < 0) return 0;
    if (sh->dims[d] && n > INT64_MAX / sh->dims[d]) return 0;
    n *= sh->dims[d];
  }
  return 1;
}

static int entry_by_key(mt_bundle_reader* r, const char* key, size_t klen, const char* name,
                        mt_bundle_entry* e, TF_Status* s) {
  const mt_table_entry* te = mt_table_get(&r->table, key, klen);
  if (!te) {
    mt_status_setf(s, TF_NOT_FOUND, "Key %s not found in checkpoint", name);
    return 0;
  }
  if (!mt_bundle_entry_decode(te->val, te->vlen, name, e, s)) return 0;
  char buf[256];
  if (!shape_valid(&e->shape) || !mt_dtype_valid(e->dtype)) {
    mt_status_setf(s, TF_DATA_LOSS, "Invalid tensor shape: %s %s (in %s)", name,
                   mt_shape_str(&e->shape, buf, sizeof buf), r->index_path);
    mt_bundle_entry_clear(e);
    return 0;
  }
  return 1;
}

int mt_bundle_reader_entry(mt_bundle_reader* r, const char* key, mt_bundle_entry* e,
                           TF_Status* s) {
  return entry_by_key(r, key, strlen(key), key, e, s);
}

static int shard_fd(mt_bundle_reader* r, int32_t shard, char** path, TF_Status* s) {
  *path = NULL;
  if (shard < 0 || shard >= r->num_shards) {
    mt_status_setf(s, TF_DATA_LOSS, "Invalid shard id %d in %s (%d shards)", shard,
                   r->index_path, r->num_shards);
    return -1;
  }
  *path = mt_bundle_data_name(r->prefix, shard, r->num_shards);
  if (!*path) {
    oom(s);
    return -1;
  }
  if (r->fds[shard] < 0) {
    r->fds[shard] = open(*path, O_RDONLY | O_CLOEXEC);
    if (r->fds[shard] < 0) {
      mt_status_setf(s, mt_errno_code(errno), "%s; %s", *path,
                     strerror(errno));
      return -1;
    }
  }
  return r->fds[shard];
}

static int read_at(int fd, void* buf, size_t n, int64_t off, const char* path, TF_Status* s) {
  size_t got = 0;
  while (got < n) {
    ssize_t k = pread(fd, (uint8_t*)buf + got, n - got, (off_t)(off + (int64_t)got));
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    got += (size_t)k;
  }
  if (got < n) {
    mt_status_setf(s, TF_DATA_LOSS,
                   "Read less bytes than requested: %zu of %zu bytes at offset %lld of %s "
                   "(truncated file?)",
                   got, n, (long long)off, path);
    return 0;
  }
  return 1;
}

/* Decodes the string layout of `size` bytes into n TF_TStrings. */
static int decode_strings(const uint8_t* b, size_t size, int64_t n, TF_TString* out,
                          uint32_t* crc, const char* path, TF_Status* s) {
  const uint8_t* p = b;
  const uint8_t* end = b + size;
  uint64_t* lens = malloc((size_t)(n ? n : 1) * sizeof(uint64_t));
  if (!lens) return oom(s), 0;
  int ok = 0;
  for (int64_t i = 0; i < n; i++) {
    if (!mt_pb_read_varint(&p, end, &lens[i])) {
      mt_status_setf(s, TF_DATA_LOSS, "String lengths longer than expected offset %zu in %s",
                     size, path);
      goto done;
    }
    if (lens[i] <= UINT32_MAX) {
      uint32_t l32 = (uint32_t)lens[i];
      *crc = mt_crc32c_extend(*crc, &l32, 4);
    } else {
      *crc = mt_crc32c_extend(*crc, &lens[i], 8);
    }
  }
  if (end - p < 4) {
    mt_status_setf(s, TF_DATA_LOSS, "String lengths longer than expected offset %zu in %s", size,
                   path);
    goto done;
  }
  uint32_t raw;
  memcpy(&raw, p, 4);
  p += 4;
  if (mt_crc32c_unmask(raw) != *crc) {
    mt_status_setf(s, TF_DATA_LOSS,
                   "The length checksum does not match: expected %08u but actual is %08u (%s)",
                   mt_crc32c_unmask(raw), *crc, path);
    goto done;
  }
  *crc = mt_crc32c_extend(*crc, &raw, 4);
  for (int64_t i = 0; i < n; i++) {
    if ((uint64_t)(end - p) < lens[i]) {
      mt_status_setf(s, TF_DATA_LOSS, "String bytes longer than the entry's %zu bytes in %s",
                     size, path);
      goto done;
    }
    TF_StringCopy(&out[i], (const char*)p, (size_t)lens[i]);
    *crc = mt_crc32c_extend(*crc, p, (size_t)lens[i]);
    p += lens[i];
  }
  ok = 1;
done:
  free(lens);
  return ok;
}

/* The value of one stored (non-sliced) entry. */
static TF_Tensor* entry_value(mt_bundle_reader* r, const char* name, const mt_bundle_entry* e,
                              TF_Status* s) {
  if (e->dtype == TF_VARIANT || e->dtype == TF_RESOURCE) {
    mt_status_setf(s, TF_UNIMPLEMENTED, "Restoring %s tensors is not supported: %s",
                   mt_dtype_name(e->dtype), name);
    return NULL;
  }
  int64_t n = mt_shape_nelems(&e->shape);
  if (e->dtype != TF_STRING) {
    uint64_t want = (uint64_t)n * TF_DataTypeSize(e->dtype);
    if (n > 0 && want / (uint64_t)n != TF_DataTypeSize(e->dtype)) want = UINT64_MAX;
    if ((uint64_t)e->size != want) {
      mt_status_setf(s, TF_DATA_LOSS,
                     "Invalid size in bundle entry: key %s; stored size %lld; expected size %llu",
                     name, (long long)e->size, (unsigned long long)want);
      return NULL;
    }
  } else if (e->size < n) {
    mt_status_setf(s, TF_DATA_LOSS,
                   "Invalid size in bundle entry: key %s; stored size %lld; expected size is at "
                   "least %lld",
                   name, (long long)e->size, (long long)n);
    return NULL;
  }
  char* path;
  int fd = shard_fd(r, e->shard_id, &path, s);
  TF_Tensor* t = NULL;
  uint8_t* sbuf = NULL;
  if (fd < 0) goto done;
  struct stat st;
  if (fstat(fd, &st) != 0 || e->offset < 0 || e->offset > (int64_t)st.st_size ||
      e->size > (int64_t)st.st_size - e->offset) {
    mt_status_setf(s, TF_DATA_LOSS,
                   "Entry %s (offset %lld, %lld bytes) lies beyond the end of %s (%lld bytes): "
                   "truncated or corrupt checkpoint",
                   name, (long long)e->offset, (long long)e->size, path,
                   (long long)st.st_size);
    goto done;
  }
  t = mt_tensor_new(e->dtype, e->shape.dims, e->shape.rank, s);
  if (!t) goto done;
  uint32_t crc = 0;
  int ok;
  if (e->dtype == TF_STRING) {
    sbuf = malloc(e->size ? (size_t)e->size : 1);
    ok = sbuf != NULL;
    if (!ok) oom(s);
    ok = ok && (e->size == 0 || (read_at(fd, sbuf, (size_t)e->size, e->offset, path, s) &&
                                 decode_strings(sbuf, (size_t)e->size, n,
                                                (TF_TString*)mt_tensor_data(t), &crc, path, s)));
  } else {
    ok = read_at(fd, mt_tensor_data(t), (size_t)e->size, e->offset, path, s);
    if (ok) crc = mt_crc32c(mt_tensor_data(t), (size_t)e->size);
  }
  if (ok && mt_crc32c_unmask(e->crc32c) != crc) {
    mt_status_setf(s, TF_DATA_LOSS,
                   "TensorBundle at %s shard %d (%lld bytes): Checksum does not match: stored "
                   "%08u vs. calculated on the restored bytes %u (%s)",
                   r->prefix, e->shard_id, (long long)e->size, mt_crc32c_unmask(e->crc32c), crc,
                   path);
    ok = 0;
  }
  if (!ok) {
    mt_tensor_free(t);
    t = NULL;
  }
done:
  free(sbuf);
  free(path);
  return t;
}

/* ---- slices ---- */

static TF_Tensor* slice_value(mt_bundle_reader* r, const char* key, const mt_bundle_entry* e,
                              const mt_tensor_slice* want, TF_Status* s) {
  const mt_shape* full = &e->shape;
  char buf[512];
  if (!mt_slice_fits(want, full, NULL)) {
    mt_slice_str(want, buf, sizeof buf);
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Slice %s does not fit the shape of %s", buf, key);
    return NULL;
  }
  mt_tensor_slice whole;
  whole.ndims = full->rank;
  for (int d = 0; d < full->rank; d++) whole.start[d] = 0, whole.length[d] = -1;
  const mt_tensor_slice* stored = e->nslices ? e->slices : &whole;
  int nstored = e->nslices ? e->nslices : 1;
  int64_t covered = 0;
  for (int i = 0; i < nstored; i++) {
    mt_tensor_slice x;
    if (!mt_slice_fits(&stored[i], full, NULL)) {
      mt_status_setf(s, TF_DATA_LOSS, "Stored slice of %s does not fit its shape (%s)", key,
                     r->index_path);
      return NULL;
    }
    if (mt_slice_intersect(&stored[i], want, full, &x)) covered += mt_slice_nelems(&x, full);
  }
  if (covered != mt_slice_nelems(want, full)) {
    mt_slice_str(want, buf, sizeof buf);
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Does not have sufficient slices for partitioned tensor %s to restore in "
                   "slice_spec: %s",
                   key, buf);
    return NULL;
  }
  int64_t dims[MT_MAX_DIMS];
  for (int d = 0; d < full->rank; d++) dims[d] = mt_slice_end(want, d, full) - mt_slice_start(want, d);
  TF_Tensor* out = mt_tensor_new(e->dtype, dims, full->rank, s);
  for (int i = 0; out && i < nstored; i++) {
    mt_tensor_slice x;
    if (!mt_slice_intersect(&stored[i], want, full, &x)) continue;
    TF_Tensor* part = NULL;
    if (e->nslices == 0) {
      part = entry_value(r, key, e, s);
    } else {
      size_t klen;
      char* skey = mt_encode_tensor_name_slice(key, &stored[i], &klen);
      mt_bundle_entry se;
      if (!skey) {
        oom(s);
      } else if (entry_by_key(r, skey, klen, key, &se, s)) {
        int64_t want_n = mt_slice_nelems(&stored[i], full);
        if (se.dtype != e->dtype || mt_shape_nelems(&se.shape) != want_n)
          mt_status_setf(s, TF_DATA_LOSS, "Stored slice of %s has the wrong dtype or size (%s)",
                         key, r->index_path);
        else
          part = entry_value(r, key, &se, s);
        mt_bundle_entry_clear(&se);
      }
      free(skey);
    }
    if (!part) {
      mt_tensor_free(out);
      return NULL;
    }
    mt_slice_copy(mt_tensor_data(part), &stored[i], mt_tensor_data(out), want, &x, full,
                  part->dtype);
    mt_tensor_free(part);
  }
  return out;
}

TF_Tensor* mt_bundle_reader_lookup(mt_bundle_reader* r, const char* key, TF_Status* s) {
  mt_bundle_entry e;
  if (!mt_bundle_reader_entry(r, key, &e, s)) return NULL;
  TF_Tensor* t;
  if (e.nslices == 0) {
    t = entry_value(r, key, &e, s);
  } else {
    mt_tensor_slice whole;
    whole.ndims = e.shape.rank;
    for (int d = 0; d < e.shape.rank; d++) whole.start[d] = 0, whole.length[d] = -1;
    t = slice_value(r, key, &e, &whole, s);
  }
  mt_bundle_entry_clear(&e);
  return t;
}

TF_Tensor* mt_bundle_reader_lookup_slice(mt_bundle_reader* r, const char* key,
                                         const mt_tensor_slice* slice, TF_Status* s) {
  mt_bundle_entry e;
  if (!mt_bundle_reader_entry(r, key, &e, s)) return NULL;
  TF_Tensor* t = slice_value(r, key, &e, slice, s);
  mt_bundle_entry_clear(&e);
  return t;
}

/* ---- merge ---- */

typedef struct merge_state {
  int32_t num_shards;
  int seen_first;
  int32_t producer, min_consumer;
  pending_entry* e;
  int64_t* seq;
  int n, cap;
  char** files; /* data files in first-seen order: new shard id = index */
  int nfiles;
} merge_state;

static int merge_push(merge_state* m, const uint8_t* key, size_t klen, mt_bundle_entry* e,
                      TF_Status* s) {
  if (m->n == m->cap) {
    int ncap = m->cap ? 2 * m->cap : 64;
    pending_entry* p = realloc(m->e, (size_t)ncap * sizeof(*p));
    if (p) m->e = p;
    int64_t* q = p ? realloc(m->seq, (size_t)ncap * sizeof(*q)) : NULL;
    if (!q) return oom(s), 0;
    m->seq = q;
    m->cap = ncap;
  }
  pending_entry* pe = &m->e[m->n];
  pe->key = malloc(klen + 1);
  if (!pe->key) return oom(s), 0;
  memcpy(pe->key, key, klen);
  pe->key[klen] = 0;
  pe->klen = klen;
  pe->e = *e;
  m->seq[m->n] = m->n;
  m->n++;
  return 1;
}

static int shard_index(merge_state* m, char* file, TF_Status* s) {
  for (int i = 0; i < m->nfiles; i++) {
    if (strcmp(m->files[i], file) == 0) {
      free(file);
      return i;
    }
  }
  char** f = realloc(m->files, (size_t)(m->nfiles + 1) * sizeof(*f));
  if (!f) {
    free(file);
    oom(s);
    return -1;
  }
  m->files = f;
  f[m->nfiles] = file;
  return m->nfiles++;
}

static int merge_one(merge_state* m, const char* prefix, TF_Status* s) {
  mt_bundle_reader* r = mt_bundle_reader_open(prefix, s);
  if (!r) return 0;
  const mt_table* t = &r->table;
  bundle_header hd;
  header_decode(t->entries[0].val, t->entries[0].vlen, &hd, s); /* checked by open */
  m->num_shards += hd.num_shards;
  if (!m->seen_first) {
    m->seen_first = 1;
    m->producer = hd.producer;
    m->min_consumer = hd.min_consumer;
  } else if (hd.producer != m->producer || hd.min_consumer != m->min_consumer) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Merging bundles with different format versions: merged producer %d vs. curr "
                   "producer %d",
                   m->producer, hd.producer);
    mt_bundle_reader_free(r);
    return 0;
  }
  int ok = 1;
  for (int64_t i = 1; ok && i < t->n; i++) {
    const mt_table_entry* te = &t->entries[i];
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(te->klen < 60 ? te->klen : 60), (const char*)te->key);
    mt_bundle_entry e;
    if (!mt_bundle_entry_decode(te->val, te->vlen, name, &e, s)) {
      ok = 0;
      break;
    }
    char* file = mt_bundle_data_name(prefix, e.shard_id, hd.num_shards);
    int id = file ? shard_index(m, file, s) : (oom(s), -1);
    if (id < 0) {
      mt_bundle_entry_clear(&e);
      ok = 0;
      break;
    }
    e.shard_id = id;
    ok = merge_push(m, te->key, te->klen, &e, s);
    if (!ok) mt_bundle_entry_clear(&e);
  }
  mt_bundle_reader_free(r);
  return ok;
}

static merge_state* cmp_state;
static int cmp_merge_idx(const void* a, const void* b) {
  const pending_entry* x = &cmp_state->e[*(const int*)a];
  const pending_entry* y = &cmp_state->e[*(const int*)b];
  int c = cmp_bytes(x->key, x->klen, y->key, y->klen);
  if (c) return c;
  return *(const int*)a < *(const int*)b ? -1 : 1;
}

/* Sorts entries by key (then by arrival) and folds the slices of a
 * partitioned tensor met in several bundles into its first entry. */
static int merge_fold(merge_state* m, pending_entry** out, int* nout, TF_Status* s) {
  int* order = malloc((size_t)(m->n ? m->n : 1) * sizeof(int));
  pending_entry* res = malloc((size_t)(m->n ? m->n : 1) * sizeof(*res));
  if (!order || !res) {
    free(order);
    free(res);
    return oom(s), 0;
  }
  for (int i = 0; i < m->n; i++) order[i] = i;
  static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&mu); /* qsort has no context argument in C11 */
  cmp_state = m;
  qsort(order, (size_t)m->n, sizeof(int), cmp_merge_idx);
  pthread_mutex_unlock(&mu);
  int k = 0, ok = 1;
  for (int j = 0; ok && j < m->n; j++) {
    pending_entry* pe = &m->e[order[j]];
    pending_entry* prev = k ? &res[k - 1] : NULL;
    if (!prev || cmp_bytes(prev->key, prev->klen, pe->key, pe->klen) != 0) {
      res[k++] = *pe;
      pe->key = NULL;
      pe->e.slices = NULL;
      continue;
    }
    if (prev->e.nslices == 0 || pe->e.nslices == 0) {
      mt_status_setf(s, prev->e.nslices == 0 ? TF_INVALID_ARGUMENT : TF_INTERNAL,
                     prev->e.nslices == 0 ? "Duplicate tensor keyed by %s encountered, when "
                                            "merging bundles"
                                          : "Duplicate tensor keyed by %s; attempting to merge "
                                            "in a non-slice bundle entry",
                     pe->key);
      ok = 0;
      break;
    }
    mt_tensor_slice* p = realloc(prev->e.slices,
                                 (size_t)(prev->e.nslices + pe->e.nslices) * sizeof(*p));
    if (!p) {
      oom(s);
      ok = 0;
      break;
    }
    memcpy(p + prev->e.nslices, pe->e.slices, (size_t)pe->e.nslices * sizeof(*p));
    prev->e.slices = p;
    prev->e.nslices += pe->e.nslices;
  }
  free(order);
  if (!ok) {
    for (int i = 0; i < k; i++) free(res[i].key), mt_bundle_entry_clear(&res[i].e);
    free(res);
    return 0;
  }
  *out = res;
  *nout = k;
  return 1;
}

static void merge_free(merge_state* m) {
  for (int i = 0; i < m->n; i++) {
    free(m->e[i].key);
    mt_bundle_entry_clear(&m->e[i].e);
  }
  free(m->e);
  free(m->seq);
  for (int i = 0; i < m->nfiles; i++) free(m->files[i]);
  free(m->files);
}

static int file_exists(const char* path) {
  struct stat st;
  return stat(path, &st) == 0;
}

int mt_bundle_merge(const char* const* prefixes, int n, const char* merged,
                    int allow_missing_files, TF_Status* s) {
  if (!create_parent_dir(merged, s)) return 0;
  merge_state m = {0};
  int ok = 1, any = 0;
  for (int i = 0; ok && i < n; i++) {
    char* idx = mt_bundle_index_name(prefixes[i]);
    int exists = idx && file_exists(idx);
    free(idx);
    if (!exists) {
      if (allow_missing_files) continue;
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "allow_missing_files was set to false and %s did not exist.", prefixes[i]);
      ok = 0;
      break;
    }
    any = 1;
    ok = merge_one(&m, prefixes[i], s);
  }
  if (ok && !any) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "At least one prefix checkpoint file must exist, but none existed.");
    ok = 0;
  }
  for (int i = 0; ok && i < m.nfiles; i++) {
    char* dst = mt_bundle_data_name(merged, i, m.nfiles);
    if (!dst || (strcmp(dst, m.files[i]) != 0 && rename(m.files[i], dst) != 0)) {
      if (dst) io_error(s, "Failed to rename: ", m.files[i]);
      else oom(s);
      ok = 0;
    }
    free(dst);
  }
  pending_entry* folded = NULL;
  int nfolded = 0;
  if (ok) ok = merge_fold(&m, &folded, &nfolded, s);
  if (ok) {
    char* idx = mt_bundle_index_name(merged);
    ok = idx && build_index(idx, m.num_shards, m.producer, m.min_consumer, folded, nfolded, s);
    if (!idx) oom(s);
    free(idx);
  }
  for (int i = 0; i < nfolded; i++) free(folded[i].key), mt_bundle_entry_clear(&folded[i].e);
  free(folded);
  merge_free(&m);
  if (ok) {
    /* Best effort, as TensorFlow: the inputs' index files go. */
    char* keep = mt_bundle_index_name(merged);
    for (int i = 0; i < n; i++) {
      char* idx = mt_bundle_index_name(prefixes[i]);
      if (idx && keep && strcmp(idx, keep) != 0) unlink(idx);
      free(idx);
    }
    free(keep);
  }
  return ok;
}

/* ---- shape_and_slice specs and slice keys ---- */

static int parse_i64(const char* s, size_t n, int64_t* out) {
  if (n == 0 || n > 20) return 0;
  char buf[24];
  memcpy(buf, s, n);
  buf[n] = 0;
  char* end;
  errno = 0;
  long long v = strtoll(buf, &end, 10);
  if (errno || *end || end == buf) return 0;
  *out = v;
  return 1;
}

/* TensorSlice::Parse: "-" or "start,length" per dim, ':'-separated. */
static int parse_slice(const char* str, mt_tensor_slice* sl, TF_Status* s) {
  memset(sl, 0, sizeof(*sl));
  const char* p = str;
  while (1) {
    const char* colon = strchr(p, ':');
    size_t n = colon ? (size_t)(colon - p) : strlen(p);
    if (sl->ndims == MT_MAX_DIMS) goto bad;
    int d = sl->ndims++;
    if (n == 1 && p[0] == '-') {
      sl->start[d] = 0;
      sl->length[d] = -1;
    } else {
      const char* comma = memchr(p, ',', n);
      if (!comma || !parse_i64(p, (size_t)(comma - p), &sl->start[d]) ||
          !parse_i64(comma + 1, n - (size_t)(comma - p) - 1, &sl->length[d]))
        goto bad_extent;
      if (sl->start[d] < 0 || sl->length[d] <= 0) {
        mt_status_setf(s, TF_INVALID_ARGUMENT,
                       "Expected non-negative start and positive length but got start = %lld, "
                       "length = %lld: string = %s",
                       (long long)sl->start[d], (long long)sl->length[d], str);
        return 0;
      }
    }
    if (!colon) break;
    p = colon + 1;
    continue;
  bad_extent:
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Expected a pair of numbers or '-' but got '%.*s': string = %s", (int)n, p, str);
    return 0;
  }
  return 1;
bad:
  mt_status_setf(s, TF_INVALID_ARGUMENT, "Too many dimensions in slice spec: %s", str);
  return 0;
}

int mt_parse_shape_and_slice(const char* spec, mt_shape* full, mt_tensor_slice* slice,
                             mt_shape* slice_shape, TF_Status* s) {
  const char* last = strrchr(spec, ' ');
  if (!last) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Need least two elements in shape_and_slice specification: %s", spec);
    return 0;
  }
  if (!parse_slice(last + 1, slice, s)) return 0;
  full->rank = 0;
  const char* p = spec;
  while (p < last + 1) {
    const char* sp = strchr(p, ' ');
    int64_t v;
    if (full->rank == MT_MAX_DIMS || !parse_i64(p, (size_t)(sp - p), &v) || v < 0) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "Non numerical dimension in shape_and_slice: %s",
                     spec);
      return 0;
    }
    full->dims[full->rank++] = v;
    p = sp + 1;
  }
  char fb[256], sb[256];
  if (slice->ndims != full->rank) {
    mt_slice_str(slice, sb, sizeof sb);
    mt_status_setf(s, TF_INTERNAL, "Mismatching ranks: shape = %s, slice = %s",
                   mt_shape_str(full, fb, sizeof fb), sb);
    return 0;
  }
  slice_shape->rank = full->rank;
  for (int d = 0; d < full->rank; d++) {
    if (slice->length[d] < 0) {
      slice_shape->dims[d] = full->dims[d];
    } else if (slice->start[d] + slice->length[d] > full->dims[d]) {
      mt_slice_str(slice, sb, sizeof sb);
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "Extent in dimension %d out of bounds: shape = %s, slice = %s", d,
                     mt_shape_str(full, fb, sizeof fb), sb);
      return 0;
    } else {
      slice_shape->dims[d] = slice->length[d];
    }
  }
  return 1;
}

/* OrderedCode (tensorflow/core/lib/strings/ordered_code.cc). */
static void oc_num_increasing(mt_pb_writer* w, uint64_t v) {
  uint8_t buf[9];
  int n = 0;
  while (v) {
    buf[8 - n] = (uint8_t)v;
    v >>= 8;
    n++;
  }
  buf[8 - n] = (uint8_t)n;
  mt_pb_put_raw(w, buf + 8 - n, (size_t)n + 1);
}

static void oc_string(mt_pb_writer* w, const char* str) {
  for (const uint8_t* p = (const uint8_t*)str; *p; p++) {
    uint8_t esc[2] = {*p, *p == 0xff ? 0x00 : 0xff};
    mt_pb_put_raw(w, esc, *p == 0xff ? 2 : 1);
  }
  /* A name never holds a NUL (it comes from a C string): only 0xff is
   * escaped; the terminator is 0x00 0x01. */
  static const uint8_t term[2] = {0x00, 0x01};
  mt_pb_put_raw(w, term, 2);
}

static void oc_signed_increasing(mt_pb_writer* w, int64_t val) {
  uint64_t x = val < 0 ? ~(uint64_t)val : (uint64_t)val;
  if (x < 64) {
    uint8_t b = (uint8_t)(0x80 ^ (uint8_t)val);
    mt_pb_put_raw(w, &b, 1);
    return;
  }
  static const uint8_t hdr[11][2] = {{0, 0},       {0x80, 0},    {0xc0, 0}, {0xe0, 0},
                                     {0xf0, 0},    {0xf8, 0},    {0xfc, 0}, {0xfe, 0},
                                     {0xff, 0},    {0xff, 0x80}, {0xff, 0xc0}};
  int bits = 0;
  while (bits < 64 && (x >> bits)) bits++;
  int len = bits / 7 + 1;
  uint8_t buf[10];
  uint8_t sign = val < 0 ? 0xff : 0x00;
  buf[0] = buf[1] = sign;
  for (int i = 0; i < 8; i++) buf[2 + i] = (uint8_t)((uint64_t)val >> (56 - 8 * i));
  uint8_t* begin = buf + 10 - len;
  begin[0] ^= hdr[len][0];
  begin[1] ^= hdr[len][1];
  mt_pb_put_raw(w, begin, (size_t)len);
}

char* mt_encode_tensor_name_slice(const char* name, const mt_tensor_slice* slice, size_t* len) {
  mt_pb_writer w = mt_pb_writer_make();
  oc_num_increasing(&w, 0);
  oc_string(&w, name);
  oc_num_increasing(&w, (uint64_t)slice->ndims);
  for (int d = 0; d < slice->ndims; d++) {
    /* A full extent is start 0, length -1 (kFullExtent), as TensorSlice
     * holds it. */
    int64_t st = slice->length[d] < 0 ? 0 : slice->start[d];
    int64_t ln = slice->length[d] < 0 ? -1 : slice->length[d];
    oc_signed_increasing(&w, st);
    oc_signed_increasing(&w, ln);
  }
  mt_pb_put_raw(&w, "", 1); /* NUL for callers that print it; not counted */
  if (w.failed) {
    mt_pb_writer_free(&w);
    return NULL;
  }
  uint8_t* out = mt_pb_writer_take(&w, len);
  *len -= 1;
  return (char*)out;
}
