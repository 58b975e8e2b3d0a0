/* TensorFlow's V1 checkpoint format: writer and reader (checkpoint_v1.h). */
#include "runtime/checkpoint_v1.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include "runtime/graphdef.h"
#include "runtime/proto.h"
#include "runtime/status.h"
#include "runtime/tensor.h"

/* TF_CHECKPOINT_VERSION, TF_CHECKPOINT_VERSION_MIN_PRODUCER/CONSUMER. */
#define CKPT_VERSION 1
#define CKPT_MIN_PRODUCER 0
#define CKPT_MIN_CONSUMER 0
/* TensorSliceWriter's kMaxMessageBytes and kTensorProtoHeaderBytes. */
#define MAX_MESSAGE_BYTES ((uint64_t)1 << 31)
#define PROTO_HEADER_BYTES 1024

static void oom(TF_Status* s) { mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "Out of memory"); }

size_t mt_v1_max_bytes_per_element(TF_DataType dt) {
  switch (dt) {
    case TF_FLOAT: case TF_COMPLEX64: return dt == TF_FLOAT ? 4 : 8;
    case TF_DOUBLE: return 8;
    case TF_COMPLEX128: return 16;
    case TF_INT32: case TF_INT16: case TF_INT8: case TF_INT64: case TF_QINT8: case TF_QINT32:
    case TF_QINT16:
      return 10;
    case TF_UINT8: case TF_QUINT8: return 2;
    case TF_BOOL: return 1;
    case TF_UINT16: case TF_QUINT16: case TF_HALF: return 3;
    default: return 0;
  }
}

int mt_v1_kernel_dtype(TF_DataType dt) {
  switch (dt) {
    case TF_FLOAT: case TF_DOUBLE: case TF_INT32: case TF_UINT8: case TF_INT16: case TF_INT8:
    case TF_INT64: case TF_UINT16: case TF_UINT32: case TF_UINT64: case TF_HALF:
    case TF_COMPLEX64: case TF_COMPLEX128: case TF_BOOL: case TF_STRING: case TF_QINT8:
    case TF_QUINT8: case TF_QINT32:
      return 1;
    default:
      return 0;
  }
}

/* ---- slices (geometry in runtime/tensor_slice.h) ---- */

static int same_slice(const mt_tensor_slice* a, const mt_tensor_slice* b) {
  if (a->ndims != b->ndims) return 0;
  for (int d = 0; d < a->ndims; d++) {
    if ((a->length[d] < 0) != (b->length[d] < 0)) return 0;
    if (a->length[d] >= 0 && (a->start[d] != b->start[d] || a->length[d] != b->length[d]))
      return 0;
  }
  return 1;
}

/* Same extents once full dims are read as [0, dim). */
static int same_extents(const mt_tensor_slice* a, const mt_tensor_slice* b, const mt_shape* full) {
  for (int d = 0; d < full->rank; d++)
    if (mt_slice_start(a, d) != mt_slice_start(b, d) ||
        mt_slice_end(a, d, full) != mt_slice_end(b, d, full))
      return 0;
  return 1;
}

/* TensorSlice::SliceTensorShape's checks. */
static int slice_fits(const mt_tensor_slice* sl, const mt_shape* full, TF_Status* s) {
  char a[256], b[256];
  int d;
  if (mt_slice_fits(sl, full, &d)) return 1;
  mt_slice_str(sl, b, sizeof b);
  mt_shape_str(full, a, sizeof a);
  if (d < 0)
    mt_status_setf(s, TF_INTERNAL, "Mismatching ranks: shape = %s, slice = %s", a, b);
  else
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Extent in dimension %d out of bounds: shape = %s, slice = %s", d, a, b);
  return 0;
}

/* ---- SavedTensorSlices encoding (saved_tensor_slice.proto) ---- */

/* TensorSliceProto: one Extent per dim, empty for a full one. */
static void put_slice(mt_pb_writer* w, uint32_t field, const mt_tensor_slice* sl) {
  mt_pb_writer x = mt_pb_writer_make();
  for (int d = 0; d < sl->ndims; d++) {
    mt_pb_writer e = mt_pb_writer_make();
    if (sl->length[d] >= 0) {
      if (sl->start[d]) mt_pb_put_int64_field(&e, 1, sl->start[d]);
      mt_pb_put_int64_field(&e, 2, sl->length[d]);
    }
    mt_pb_put_message(&x, 1, &e);
  }
  mt_pb_put_message(w, field, &x);
}

/* The TensorProto field TensorFlow's Fill() sets for a dtype, and whether
 * its elements are varints (else fixed32 / fixed64 / strings). */
enum { VAL_FIXED32, VAL_FIXED64, VAL_VARINT, VAL_STRING };
static uint32_t val_field(TF_DataType dt, int* kind) {
  switch (dt) {
    case TF_FLOAT: *kind = VAL_FIXED32; return 5;
    case TF_DOUBLE: *kind = VAL_FIXED64; return 6;
    case TF_COMPLEX64: *kind = VAL_FIXED32; return 9;
    case TF_COMPLEX128: *kind = VAL_FIXED64; return 12;
    case TF_STRING: *kind = VAL_STRING; return 8;
    case TF_INT64: *kind = VAL_VARINT; return 10;
    case TF_BOOL: *kind = VAL_VARINT; return 11;
    case TF_HALF: *kind = VAL_VARINT; return 13;
    default: *kind = VAL_VARINT; return 7; /* int_val: the int32-or-narrower types */
  }
}

/* Element i of a numeric buffer as the int64 its *_val field holds. */
static int64_t varint_value(const void* data, TF_DataType dt, int64_t i) {
  switch (dt) {
    case TF_INT8: case TF_QINT8: return ((const int8_t*)data)[i];
    case TF_UINT8: case TF_QUINT8: case TF_BOOL: return ((const uint8_t*)data)[i];
    case TF_INT16: case TF_QINT16: return ((const int16_t*)data)[i];
    case TF_UINT16: case TF_QUINT16: case TF_HALF: return ((const uint16_t*)data)[i];
    case TF_INT64: return ((const int64_t*)data)[i];
    default: return ((const int32_t*)data)[i];
  }
}

static size_t varint_len(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) v >>= 7, n++;
  return n;
}

/* The TensorProto of a slice's values: only the typed field, packed. */
static void put_values(mt_pb_writer* w, const TF_Tensor* t) {
  int kind;
  uint32_t field = val_field(t->dtype, &kind);
  int64_t n = mt_tensor_nelems(t);
  const void* data = mt_tensor_data(t);
  if (kind == VAL_STRING) {
    const TF_TString* str = data;
    for (int64_t i = 0; i < n; i++)
      mt_pb_put_bytes_field(w, field, TF_StringGetDataPointer(&str[i]), TF_StringGetSize(&str[i]));
    return;
  }
  if (n == 0) return;
  if (kind != VAL_VARINT) {
    size_t bytes = (size_t)n * TF_DataTypeSize(t->dtype);
    mt_pb_put_tag(w, field, MT_PB_LEN);
    mt_pb_put_varint(w, bytes);
    mt_pb_put_raw(w, data, bytes);
    return;
  }
  size_t len = 0;
  for (int64_t i = 0; i < n; i++) len += varint_len((uint64_t)varint_value(data, t->dtype, i));
  mt_pb_put_tag(w, field, MT_PB_LEN);
  mt_pb_put_varint(w, len);
  for (int64_t i = 0; i < n; i++) mt_pb_put_varint(w, (uint64_t)varint_value(data, t->dtype, i));
}

/* SavedTensorSlices { data: SavedSlice { name, slice, data } }. */
static void put_record(mt_pb_writer* w, const char* name, const mt_tensor_slice* sl,
                       const TF_Tensor* t) {
  mt_pb_writer ss = mt_pb_writer_make();
  if (name[0]) mt_pb_put_string_field(&ss, 1, name);
  put_slice(&ss, 2, sl);
  mt_pb_writer tp = mt_pb_writer_make();
  put_values(&tp, t);
  mt_pb_put_message(&ss, 3, &tp);
  mt_pb_put_message(w, 2, &ss);
}

/* ---- writer ---- */

typedef struct v1_meta {
  char* name;
  mt_shape shape;
  TF_DataType dtype;
  mt_tensor_slice* slices;
  int nslices;
} v1_meta;

typedef struct v1_item {
  uint8_t* key;
  size_t klen;
  int meta; /* index into the metas */
  mt_tensor_slice slice;
  const TF_Tensor* t;
  int seq;
} v1_item;

struct mt_v1_writer {
  char* filename;
  v1_meta* metas;
  int nmetas, cap_metas;
  v1_item* items;
  int nitems, cap_items;
};

mt_v1_writer* mt_v1_writer_new(const char* filename, TF_Status* s) {
  mt_v1_writer* w = calloc(1, sizeof(*w));
  if (!w || !(w->filename = strdup(filename))) {
    free(w);
    oom(s);
    return NULL;
  }
  return w;
}

void mt_v1_writer_abort(mt_v1_writer* w) {
  if (!w) return;
  for (int i = 0; i < w->nmetas; i++) free(w->metas[i].name), free(w->metas[i].slices);
  for (int i = 0; i < w->nitems; i++) free(w->items[i].key);
  free(w->metas);
  free(w->items);
  free(w->filename);
  free(w);
}

static int find_meta(const mt_v1_writer* w, const char* name) {
  for (int i = 0; i < w->nmetas; i++)
    if (strcmp(w->metas[i].name, name) == 0) return i;
  return -1;
}

static int new_meta(mt_v1_writer* w, const char* name, const mt_shape* full, TF_DataType dt,
                    TF_Status* s) {
  if (w->nmetas == w->cap_metas) {
    int ncap = w->cap_metas ? 2 * w->cap_metas : 16;
    v1_meta* m = realloc(w->metas, (size_t)ncap * sizeof(*m));
    if (!m) return oom(s), -1;
    w->metas = m;
    w->cap_metas = ncap;
  }
  v1_meta* m = &w->metas[w->nmetas];
  memset(m, 0, sizeof(*m));
  if (!(m->name = strdup(name))) return oom(s), -1;
  m->shape = *full;
  m->dtype = dt;
  return w->nmetas++;
}

/* Checks an added slice against its tensor's earlier ones (Add's checks). */
static int meta_for(mt_v1_writer* w, const char* name, const mt_shape* full, TF_DataType dt,
                    TF_Status* s) {
  int i = find_meta(w, name);
  if (i < 0) return new_meta(w, name, full, dt, s);
  char a[256], b[256];
  const v1_meta* m = &w->metas[i];
  if (mt_shape_nelems(&m->shape) != mt_shape_nelems(full) || m->shape.rank != full->rank) {
    mt_status_setf(s, TF_INTERNAL,
                   "Mismatching shapes: existing tensor = %s, trying to add name %s, shape = %s",
                   mt_shape_str(&m->shape, a, sizeof a), name, mt_shape_str(full, b, sizeof b));
    return -1;
  }
  if (m->dtype != dt) {
    mt_status_setf(s, TF_INTERNAL,
                   "Mismatching types: existing type = %s, trying to add name %s, type = %s",
                   mt_dtype_name(m->dtype), name, mt_dtype_name(dt));
    return -1;
  }
  return i;
}

/* SaveData's conservative size bound. */
static int check_record_size(const char* name, const TF_Tensor* t, TF_Status* s) {
  int64_t n = mt_tensor_nelems(t);
  uint64_t bound = strlen(name) + 16 + 4 * MT_MAX_DIMS + PROTO_HEADER_BYTES;
  if (t->dtype == TF_STRING) {
    const TF_TString* str = mt_tensor_data(t);
    bound += (uint64_t)n * mt_v1_max_bytes_per_element(TF_INT32);
    for (int64_t i = 0; i < n; i++) bound += TF_StringGetSize(&str[i]);
  } else {
    bound += (uint64_t)n * mt_v1_max_bytes_per_element(t->dtype);
  }
  if (bound > MAX_MESSAGE_BYTES) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Tensor slice is too large to serialize (conservative estimate: %llu bytes)",
                   (unsigned long long)bound);
    return 0;
  }
  return 1;
}

int mt_v1_writer_add(mt_v1_writer* w, const char* name, const mt_shape* full,
                     const mt_tensor_slice* slice, const TF_Tensor* t, TF_Status* s) {
  char a[256], b[256];
  if (full->rank != slice->ndims) {
    mt_slice_str(slice, b, sizeof b);
    mt_status_setf(s, TF_INTERNAL, "Incompatible tensor shape and slice: shape = %s, slice = %s",
                   mt_shape_str(full, a, sizeof a), b);
    return 0;
  }
  if (t->dtype != TF_STRING && mt_v1_max_bytes_per_element(t->dtype) == 0) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Tensor slice serialization not implemented for dtype %d", (int)t->dtype);
    return 0;
  }
  int mi = meta_for(w, name, full, t->dtype, s);
  if (mi < 0 || !slice_fits(slice, full, s) || !check_record_size(name, t, s)) return 0;
  v1_meta* m = &w->metas[mi];
  mt_tensor_slice* sl = realloc(m->slices, (size_t)(m->nslices + 1) * sizeof(*sl));
  if (!sl) return oom(s), 0;
  m->slices = sl;
  sl[m->nslices++] = *slice;
  if (w->nitems == w->cap_items) {
    int ncap = w->cap_items ? 2 * w->cap_items : 16;
    v1_item* it = realloc(w->items, (size_t)ncap * sizeof(*it));
    if (!it) return oom(s), 0;
    w->items = it;
    w->cap_items = ncap;
  }
  v1_item* it = &w->items[w->nitems];
  it->key = (uint8_t*)mt_encode_tensor_name_slice(name, slice, &it->klen);
  if (!it->key) return oom(s), 0;
  it->meta = mi;
  it->slice = *slice;
  it->t = t;
  it->seq = w->nitems++;
  return 1;
}

/* SavedTensorSlices { meta: SavedTensorSliceMeta { tensor..., versions } }. */
static void put_meta(mt_pb_writer* w, const mt_v1_writer* wr) {
  mt_pb_writer meta = mt_pb_writer_make();
  for (int i = 0; i < wr->nmetas; i++) {
    const v1_meta* m = &wr->metas[i];
    mt_pb_writer x = mt_pb_writer_make();
    if (m->name[0]) mt_pb_put_string_field(&x, 1, m->name);
    mt_pb_writer sh = mt_pb_writer_make();
    mt_shape_to_proto(&sh, &m->shape);
    mt_pb_put_message(&x, 2, &sh);
    mt_pb_put_int64_field(&x, 3, m->dtype);
    for (int k = 0; k < m->nslices; k++) put_slice(&x, 4, &m->slices[k]);
    mt_pb_put_message(&meta, 1, &x);
  }
  mt_pb_writer v = mt_pb_writer_make();
  mt_pb_put_int64_field(&v, 1, CKPT_VERSION);
  if (CKPT_MIN_CONSUMER) mt_pb_put_int64_field(&v, 2, CKPT_MIN_CONSUMER);
  mt_pb_put_message(&meta, 2, &v);
  mt_pb_put_message(w, 1, &meta);
}

static int cmp_items(const void* a, const void* b) {
  const v1_item* x = a;
  const v1_item* y = b;
  size_t m = x->klen < y->klen ? x->klen : y->klen;
  int c = memcmp(x->key, y->key, m);
  if (c) return c;
  if (x->klen != y->klen) return x->klen < y->klen ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int write_all(int fd, const uint8_t* p, size_t n) {
  while (n) {
    ssize_t k = write(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return 0;
    p += k;
    n -= (size_t)k;
  }
  return 1;
}

static TF_Code errno_code(int e) {
  return e == ENOENT ? TF_NOT_FOUND
         : e == EACCES || e == EPERM ? TF_PERMISSION_DENIED
         : e == ENOSPC ? TF_RESOURCE_EXHAUSTED : TF_UNKNOWN;
}

/* The bytes to `<filename>.tempstate<random>`, renamed to `filename`. */
static int write_renamed(const char* filename, const uint8_t* data, size_t n, TF_Status* s) {
  uint64_t r = 0;
  if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r) r = (uint64_t)getpid() * 2654435761u;
  char* tmp = NULL;
  if (asprintf(&tmp, "%s.tempstate%llu", filename, (unsigned long long)r) < 0) return oom(s), 0;
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int ok = fd >= 0;
  if (!ok) mt_status_setf(s, errno_code(errno), "%s; %s", tmp, strerror(errno));
  if (ok && !write_all(fd, data, n)) {
    mt_status_setf(s, TF_INTERNAL, "Error writing (tmp) checkpoint file: %s: %s", tmp,
                   strerror(errno));
    ok = 0;
  }
  if (fd >= 0 && close(fd) != 0 && ok) {
    mt_status_setf(s, TF_INTERNAL, "Error writing (tmp) checkpoint file: %s: %s", tmp,
                   strerror(errno));
    ok = 0;
  }
  if (ok && rename(tmp, filename) != 0) {
    mt_status_setf(s, errno_code(errno), "%s; %s", tmp, strerror(errno));
    ok = 0;
  }
  if (!ok && fd >= 0) unlink(tmp);
  free(tmp);
  return ok;
}

int mt_v1_writer_finish(mt_v1_writer* w, TF_Status* s) {
  qsort(w->items, (size_t)w->nitems, sizeof(*w->items), cmp_items);
  mt_table_builder tb;
  mt_table_builder_init(&tb, 0);
  mt_pb_writer v = mt_pb_writer_make();
  put_meta(&v, w);
  int failed = v.failed;
  mt_table_add(&tb, "", 0, v.data, v.len);
  mt_pb_writer_free(&v);
  for (int i = 0; !failed && i < w->nitems; i++) {
    const v1_item* it = &w->items[i];
    /* A key added twice keeps its first record, as TensorSliceWriter's map. */
    if (i > 0 && w->items[i - 1].klen == it->klen &&
        memcmp(w->items[i - 1].key, it->key, it->klen) == 0)
      continue;
    v = mt_pb_writer_make();
    put_record(&v, w->metas[it->meta].name, &it->slice, it->t);
    failed |= v.failed;
    mt_table_add(&tb, it->key, it->klen, v.data, v.len);
    mt_pb_writer_free(&v);
  }
  uint8_t* bytes = NULL;
  size_t len = 0;
  int ok;
  if (failed) {
    mt_table_builder_free(&tb);
    oom(s);
    ok = 0;
  } else {
    ok = mt_table_finish(&tb, &bytes, &len, s) && write_renamed(w->filename, bytes, len, s);
  }
  free(bytes);
  mt_v1_writer_abort(w);
  return ok;
}

/* ---- SavedTensorSlices decoding (small, self-contained: it can move to a
 * generated codec) ---- */

typedef struct v1_slice {
  mt_tensor_slice slice;
  int file;
} v1_slice;

typedef struct v1_tensor {
  char* name;
  mt_shape shape;
  TF_DataType dtype;
  v1_slice* slices;
  int n, cap;
} v1_tensor;

typedef struct v1_file {
  char* path;
  mt_table table;
} v1_file;

struct mt_v1_reader {
  char* pattern;
  v1_file* files;
  int nfiles;
  v1_tensor* tensors;
  int ntensors, cap;
  int reg_failed; /* the meta parsed, its slices did not register */
};

/* TensorSliceProto -> slice (an extent without length is full). */
static int decode_slice(mt_pb_reader* r, mt_tensor_slice* sl, TF_Status* s) {
  memset(sl, 0, sizeof(*sl));
  mt_pb_field f;
  int rc;
  while ((rc = mt_pb_next(r, &f, "TensorSliceProto", s)) == 1) {
    if (f.num != 1) continue;
    mt_pb_reader sub;
    if (!mt_pb_expect(&f, MT_PB_LEN, "TensorSliceProto", s) ||
        !mt_pb_sub(r, &f, &sub, "TensorSliceProto", s))
      return 0;
    if (sl->ndims == MT_MAX_DIMS) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "too many dims in a TensorSliceProto");
      return 0;
    }
    int d = sl->ndims++;
    int64_t start = 0, length = -1;
    mt_pb_field g;
    while ((rc = mt_pb_next(&sub, &g, "Extent", s)) == 1) {
      if ((g.num == 1 || g.num == 2) && !mt_pb_expect(&g, MT_PB_VARINT, "Extent", s)) return 0;
      if (g.num == 1) start = (int64_t)g.v;
      if (g.num == 2) length = (int64_t)g.v;
    }
    if (rc < 0) return 0;
    sl->start[d] = length < 0 ? 0 : start;
    sl->length[d] = length < 0 ? -1 : length;
  }
  return rc == 0;
}

typedef struct v1_versions {
  int32_t producer, min_consumer;
  int bad;
} v1_versions;

static void bad_consumer(uint64_t raw, void* arg) {
  if ((int32_t)raw == CKPT_VERSION) *(int*)arg = 1;
}

static int decode_versions(mt_pb_reader* r, v1_versions* v, TF_Status* s) {
  mt_pb_field f;
  int rc;
  while ((rc = mt_pb_next(r, &f, "VersionDef", s)) == 1) {
    if ((f.num == 1 || f.num == 2) && !mt_pb_expect(&f, MT_PB_VARINT, "VersionDef", s)) return 0;
    if (f.num == 1) v->producer = (int32_t)f.v;
    if (f.num == 2) v->min_consumer = (int32_t)f.v;
    if (f.num == 3 && !mt_pb_each_repeated(&f, MT_PB_VARINT, bad_consumer, &v->bad, "VersionDef", s))
      return 0;
  }
  return rc == 0;
}

/* One SavedSliceMeta: calls add(name, shape, dtype, slice) per slice. */
typedef int (*slice_cb)(mt_v1_reader* r, int file, const char* name, const mt_shape* shape,
                        TF_DataType dt, const mt_tensor_slice* sl, TF_Status* s);

static int decode_slice_meta(mt_pb_reader* r, mt_v1_reader* rd, int file, slice_cb add,
                             TF_Status* s) {
  /* Two passes: the slices may come before the name, shape and type. */
  mt_pb_reader again = *r;
  char* name = NULL;
  mt_shape shape = mt_shape_scalar();
  TF_DataType dt = 0;
  mt_pb_field f;
  int rc, ok = 1;
  while (ok && (rc = mt_pb_next(r, &f, "SavedSliceMeta", s)) == 1) {
    mt_pb_reader sub;
    if (f.num == 1) {
      free(name);
      ok = (name = mt_pb_strdup(&f, "SavedSliceMeta", s)) != NULL;
    } else if (f.num == 2) {
      ok = mt_pb_expect(&f, MT_PB_LEN, "SavedSliceMeta", s) &&
           mt_pb_sub(r, &f, &sub, "SavedSliceMeta", s) &&
           mt_shape_parse(f.data, f.len, &shape, s);
    } else if (f.num == 3) {
      ok = mt_pb_expect(&f, MT_PB_VARINT, "SavedSliceMeta", s);
      dt = (TF_DataType)(int32_t)f.v;
    }
  }
  if (ok && rc < 0) ok = 0;
  if (ok && !name && !(name = strdup(""))) ok = 0, oom(s);
  while (ok && (rc = mt_pb_next(&again, &f, "SavedSliceMeta", s)) == 1) {
    if (f.num != 4) continue;
    mt_pb_reader sub;
    mt_tensor_slice sl;
    ok = mt_pb_expect(&f, MT_PB_LEN, "SavedSliceMeta", s) &&
         mt_pb_sub(&again, &f, &sub, "SavedSliceMeta", s) && decode_slice(&sub, &sl, s) &&
         add(rd, file, name, &shape, dt, &sl, s);
  }
  if (ok && rc < 0) ok = 0;
  free(name);
  return ok;
}

/* The meta record: every tensor's slices and the versions. */
static int decode_meta(const uint8_t* data, size_t len, mt_v1_reader* rd, int file, slice_cb add,
                       v1_versions* v, TF_Status* s) {
  mt_pb_reader top = mt_pb_reader_make(data, len, 0);
  mt_pb_field f;
  int rc;
  while ((rc = mt_pb_next(&top, &f, "SavedTensorSlices", s)) == 1) {
    if (f.num != 1) continue;
    mt_pb_reader meta;
    if (!mt_pb_expect(&f, MT_PB_LEN, "SavedTensorSlices", s) ||
        !mt_pb_sub(&top, &f, &meta, "SavedTensorSlices", s))
      return 0;
    mt_pb_field g;
    while ((rc = mt_pb_next(&meta, &g, "SavedTensorSliceMeta", s)) == 1) {
      mt_pb_reader sub;
      if (g.num != 1 && g.num != 2) continue;
      if (!mt_pb_expect(&g, MT_PB_LEN, "SavedTensorSliceMeta", s) ||
          !mt_pb_sub(&meta, &g, &sub, "SavedTensorSliceMeta", s))
        return 0;
      if (g.num == 1 && !decode_slice_meta(&sub, rd, file, add, s)) return 0;
      if (g.num == 2 && !decode_versions(&sub, v, s)) return 0;
    }
    if (rc < 0) return 0;
  }
  return rc == 0;
}

/* Decoding the values of a record into `dst` (n elements of dt). */
typedef struct val_sink {
  uint8_t* dst;
  TF_DataType dt;
  int64_t n, got; /* elements expected / written (scalars: complex counts 2) */
  int over;
} val_sink;

static void put_varint_elem(uint64_t raw, void* arg) {
  val_sink* k = arg;
  if (k->got >= k->n) {
    k->over = 1;
    return;
  }
  int64_t i = k->got++;
  switch (k->dt) {
    case TF_INT8: case TF_QINT8: ((int8_t*)k->dst)[i] = (int8_t)raw; break;
    case TF_UINT8: case TF_QUINT8: ((uint8_t*)k->dst)[i] = (uint8_t)raw; break;
    case TF_BOOL: ((uint8_t*)k->dst)[i] = raw != 0; break;
    case TF_INT16: case TF_QINT16: ((int16_t*)k->dst)[i] = (int16_t)raw; break;
    case TF_UINT16: case TF_QUINT16: case TF_HALF: ((uint16_t*)k->dst)[i] = (uint16_t)raw; break;
    case TF_INT64: ((int64_t*)k->dst)[i] = (int64_t)raw; break;
    default: ((int32_t*)k->dst)[i] = (int32_t)raw; break;
  }
}

static void put_fixed_elem(uint64_t raw, void* arg) {
  val_sink* k = arg;
  if (k->got >= k->n) {
    k->over = 1;
    return;
  }
  int64_t i = k->got++;
  if (k->dt == TF_FLOAT || k->dt == TF_COMPLEX64) {
    uint32_t u = (uint32_t)raw;
    memcpy(k->dst + 4 * i, &u, 4);
  } else {
    memcpy(k->dst + 8 * i, &raw, 8);
  }
}

/* One occurrence of the value field. */
static int sink_field(val_sink* k, int kind, const mt_pb_field* f, TF_Status* s) {
  if (kind == VAL_STRING) {
    if (f->wire != MT_PB_LEN) return 0;
    if (k->got >= k->n) return k->over = 1, 1;
    TF_StringCopy((TF_TString*)k->dst + k->got++, (const char*)f->data, f->len);
    return 1;
  }
  size_t w = kind == VAL_FIXED32 ? 4 : 8;
  if (kind != VAL_VARINT && f->wire == MT_PB_LEN && f->len % w == 0) {
    /* Packed fixed-width values: one copy, straight into the output. */
    uint64_t m = f->len / w;
    if (m > (uint64_t)(k->n - k->got)) return k->over = 1, 1;
    memcpy(k->dst + (size_t)k->got * w, f->data, f->len);
    k->got += (int64_t)m;
    return 1;
  }
  int wire = kind == VAL_VARINT ? MT_PB_VARINT : kind == VAL_FIXED32 ? MT_PB_FIXED32 : MT_PB_FIXED64;
  return mt_pb_each_repeated(f, wire, kind == VAL_VARINT ? put_varint_elem : put_fixed_elem, k,
                             "TensorProto", s);
}

/* SavedTensorSlices.data.data's values -> dst (n elements of dt). */
static int decode_record(const uint8_t* data, size_t len, TF_DataType dt, uint8_t* dst, int64_t n,
                         TF_Status* s) {
  int kind;
  uint32_t field = val_field(dt, &kind);
  val_sink k = {dst, dt, n * ((dt == TF_COMPLEX64 || dt == TF_COMPLEX128) ? 2 : 1), 0, 0};
  mt_pb_reader top = mt_pb_reader_make(data, len, 0), ss, tp;
  mt_pb_field f;
  int rc, found = 0;
  while ((rc = mt_pb_next(&top, &f, "SavedTensorSlices", s)) == 1) {
    if (f.num != 2) continue;
    if (!mt_pb_expect(&f, MT_PB_LEN, "SavedTensorSlices", s) ||
        !mt_pb_sub(&top, &f, &ss, "SavedTensorSlices", s))
      return 0;
    mt_pb_field g;
    while ((rc = mt_pb_next(&ss, &g, "SavedSlice", s)) == 1) {
      if (g.num != 3) continue;
      if (!mt_pb_expect(&g, MT_PB_LEN, "SavedSlice", s) || !mt_pb_sub(&ss, &g, &tp, "SavedSlice", s))
        return 0;
      found = 1;
      mt_pb_field h;
      while ((rc = mt_pb_next(&tp, &h, "TensorProto", s)) == 1)
        if (h.num == field && !sink_field(&k, kind, &h, s)) return 0;
      if (rc < 0) return 0;
    }
    if (rc < 0) return 0;
  }
  return rc == 0 && found && !k.over && k.got == k.n;
}

/* ---- reader ---- */

static int cmp_tensor_names(const void* a, const void* b) {
  return strcmp(((const v1_tensor*)a)->name, ((const v1_tensor*)b)->name);
}

static int find_tensor(const mt_v1_reader* r, const char* name) {
  int lo = 0, hi = r->ntensors;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    int c = strcmp(r->tensors[mid].name, name);
    if (c == 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

static int linear_find(const mt_v1_reader* r, const char* name) {
  for (int i = 0; i < r->ntensors; i++)
    if (strcmp(r->tensors[i].name, name) == 0) return i;
  return -1;
}

static int new_tensor(mt_v1_reader* r, const char* name, const mt_shape* shape, TF_DataType dt,
                      TF_Status* s) {
  if (r->ntensors == r->cap) {
    int ncap = r->cap ? 2 * r->cap : 16;
    v1_tensor* t = realloc(r->tensors, (size_t)ncap * sizeof(*t));
    if (!t) return oom(s), -1;
    r->tensors = t;
    r->cap = ncap;
  }
  v1_tensor* t = &r->tensors[r->ntensors];
  memset(t, 0, sizeof(*t));
  if (!(t->name = strdup(name))) return oom(s), -1;
  t->shape = *shape;
  t->dtype = dt;
  return r->ntensors++;
}

/* RegisterTensorSlice + TensorSliceSet::Register. */
static int register_one(mt_v1_reader* r, int file, const char* name, const mt_shape* shape,
                        TF_DataType dt, const mt_tensor_slice* sl, TF_Status* s) {
  char a[256], b[256];
  for (int d = 0; d < shape->rank; d++) {
    if (shape->dims[d] < 0) {
      mt_status_setf(s, TF_DATA_LOSS, "Invalid shape %s of tensor %s in %s",
                     mt_shape_str(shape, a, sizeof a), name, r->files[file].path);
      return 0;
    }
  }
  int i = linear_find(r, name);
  if (i < 0 && (i = new_tensor(r, name, shape, dt, s)) < 0) return 0;
  v1_tensor* t = &r->tensors[i];
  if (t->shape.rank != shape->rank || mt_shape_nelems(&t->shape) != mt_shape_nelems(shape)) {
    mt_status_setf(s, TF_INTERNAL,
                   "Incompatible tensor shapes detected for tensor %s: existing = %s, new = %s",
                   name, mt_shape_str(&t->shape, a, sizeof a), mt_shape_str(shape, b, sizeof b));
    return 0;
  }
  if (t->dtype != dt) {
    mt_status_setf(s, TF_INTERNAL,
                   "Incompatible tensor types detected for tensor %s: existing = %s, new = %s",
                   name, mt_dtype_name(t->dtype), mt_dtype_name(dt));
    return 0;
  }
  if (!slice_fits(sl, &t->shape, s)) return 0;
  for (int k = 0; k < t->n; k++) {
    mt_tensor_slice x;
    if (mt_slice_intersect(&t->slices[k].slice, sl, &t->shape, &x)) {
      mt_slice_str(&t->slices[k].slice, a, sizeof a);
      mt_slice_str(sl, b, sizeof b);
      mt_status_setf(s, TF_INTERNAL, "Overlapping slices: existing slice = %s, new slice = %s", a,
                     b);
      return 0;
    }
  }
  if (t->n == t->cap) {
    int ncap = t->cap ? 2 * t->cap : 4;
    v1_slice* p = realloc(t->slices, (size_t)ncap * sizeof(*p));
    if (!p) return oom(s), 0;
    t->slices = p;
    t->cap = ncap;
  }
  t->slices[t->n].slice = *sl;
  t->slices[t->n].file = file;
  t->n++;
  return 1;
}

static int register_slice(mt_v1_reader* r, int file, const char* name, const mt_shape* shape,
                          TF_DataType dt, const mt_tensor_slice* sl, TF_Status* s) {
  int ok = register_one(r, file, name, shape, dt, sl, s);
  if (!ok) r->reg_failed = 1;
  return ok;
}

static uint8_t* read_whole(const char* path, size_t* len, TF_Status* s) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    mt_status_setf(s, errno_code(errno), "%s; %s", path, strerror(errno));
    if (fd >= 0) close(fd);
    return NULL;
  }
  uint8_t* buf = malloc(st.st_size ? (size_t)st.st_size : 1);
  size_t got = 0;
  while (buf && got < (size_t)st.st_size) {
    ssize_t k = pread(fd, buf + got, (size_t)st.st_size - got, (off_t)got);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    got += (size_t)k;
  }
  close(fd);
  if (!buf) oom(s);
  *len = got;
  return buf;
}

static int check_versions(const v1_versions* v, TF_Status* s) {
  if (v->producer < CKPT_MIN_PRODUCER) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Checkpoint producer version %d below min producer %d supported by "
                   "TensorFlow.  Please regenerate your checkpoint.",
                   v->producer, CKPT_MIN_PRODUCER);
    return 0;
  }
  if (CKPT_VERSION < v->min_consumer) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Checkpoint min consumer version %d above current version %d for "
                   "TensorFlow.  Please upgrade TensorFlow.",
                   v->min_consumer, CKPT_VERSION);
    return 0;
  }
  if (v->bad) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Checkpoint disallows consumer version %d.  Please upgrade TensorFlow: this "
                   "version is likely buggy.",
                   CKPT_VERSION);
    return 0;
  }
  return 1;
}

/* LoadShard: opens file i, registers its meta. */
static int load_file(mt_v1_reader* r, int i, TF_Status* s) {
  v1_file* f = &r->files[i];
  size_t len = 0;
  uint8_t* bytes = read_whole(f->path, &len, s);
  int read = bytes != NULL;
  int ok = read && mt_table_open_owned(bytes, len, &f->table, s); /* takes bytes */
  if (!ok) {
    /* TensorFlow's words around the cause (its Status::ToString). */
    static const char* codes[] = {"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT",
                                  "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
                                  "PERMISSION_DENIED", "RESOURCE_EXHAUSTED",
                                  "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
                                  "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS"};
    TF_Code code = TF_GetCode(s);
    char* msg = strdup(TF_Message(s));
    mt_status_setf(s, TF_DATA_LOSS, "Unable to open table file %s: %s: %s%s", f->path,
                   code >= 0 && code <= 15 ? codes[code] : "UNKNOWN", msg ? msg : "",
                   read ? ": perhaps your file is in a different file format and you need to "
                           "use a different restore operator?"
                         : "");
    free(msg);
    return 0;
  }
  const mt_table_entry* e = mt_table_get(&f->table, "", 0);
  v1_versions v = {0};
  TF_Status* tmp = TF_NewStatus();
  ok = e && decode_meta(e->val, e->vlen, r, i, register_slice, &v, tmp);
  if (!ok) {
    if (r->reg_failed)
      mt_status_copy(s, tmp); /* a registration error, not a parse error */
    else
      mt_status_setf(s, TF_INTERNAL,
                     "Failed to find the saved tensor slices at the beginning of the checkpoint "
                     "file: %s",
                     f->path);
  }
  TF_DeleteStatus(tmp);
  return ok && check_versions(&v, s);
}

mt_v1_reader* mt_v1_reader_open(const char* pattern, TF_Status* s) {
  mt_v1_reader* r = calloc(1, sizeof(*r));
  if (!r || !(r->pattern = strdup(pattern))) {
    free(r);
    oom(s);
    return NULL;
  }
  glob_t g;
  int rc = glob(pattern, 0, NULL, &g);
  if (rc != 0) {
    if (rc == GLOB_NOMATCH)
      mt_status_setf(s, TF_NOT_FOUND,
                     "Unsuccessful TensorSliceReader constructor: Failed to find any matching "
                     "files for %s",
                     pattern);
    else
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "Unsuccessful TensorSliceReader constructor: Failed to get matching files "
                     "on %s",
                     pattern);
    if (rc != GLOB_NOMATCH || g.gl_pathc) globfree(&g);
    mt_v1_reader_free(r);
    return NULL;
  }
  r->files = calloc(g.gl_pathc, sizeof(*r->files));
  int ok = r->files != NULL;
  if (!ok) oom(s);
  for (size_t i = 0; ok && i < g.gl_pathc; i++) {
    ok = (r->files[i].path = strdup(g.gl_pathv[i])) != NULL;
    if (!ok) oom(s);
    r->nfiles++;
  }
  globfree(&g);
  for (int i = 0; ok && i < r->nfiles; i++) ok = load_file(r, i, s);
  if (ok) qsort(r->tensors, (size_t)r->ntensors, sizeof(*r->tensors), cmp_tensor_names);
  if (!ok) {
    mt_v1_reader_free(r);
    return NULL;
  }
  return r;
}

void mt_v1_reader_free(mt_v1_reader* r) {
  if (!r) return;
  for (int i = 0; i < r->nfiles; i++) {
    free(r->files[i].path);
    mt_table_free(&r->files[i].table);
  }
  for (int i = 0; i < r->ntensors; i++) free(r->tensors[i].name), free(r->tensors[i].slices);
  free(r->files);
  free(r->tensors);
  free(r->pattern);
  free(r);
}

int mt_v1_reader_count(const mt_v1_reader* r) { return r->ntensors; }

const char* mt_v1_reader_info(const mt_v1_reader* r, int i, mt_shape* shape, TF_DataType* dtype,
                              int* nslices) {
  const v1_tensor* t = &r->tensors[i];
  if (shape) *shape = t->shape;
  if (dtype) *dtype = t->dtype;
  if (nslices) *nslices = t->n;
  return t->name;
}

int mt_v1_reader_find(const mt_v1_reader* r, const char* name) { return find_tensor(r, name); }

static int copy_failed(TF_Status* s) {
  mt_status_setf(s, TF_INVALID_ARGUMENT, "Error copying slice data");
  return 0;
}

/* Decodes stored slice k of tensor t into `dst` (the stored slice's shape). */
static int read_stored(mt_v1_reader* r, const v1_tensor* t, int k, uint8_t* dst, TF_Status* s) {
  const v1_slice* vs = &t->slices[k];
  size_t klen;
  char* key = mt_encode_tensor_name_slice(t->name, &vs->slice, &klen);
  if (!key) return oom(s), 0;
  const mt_table_entry* e = mt_table_get(&r->files[vs->file].table, key, klen);
  free(key);
  if (!e) return copy_failed(s);
  TF_Status* tmp = TF_NewStatus();
  int ok = decode_record(e->val, e->vlen, t->dtype, dst, mt_slice_nelems(&vs->slice, &t->shape), tmp);
  TF_DeleteStatus(tmp);
  if (!ok) {
    char b[256];
    mt_slice_str(&vs->slice, b, sizeof b);
    mt_status_setf(s, TF_DATA_LOSS,
                   "The record of tensor %s slice \"%s\" in %s does not parse or does not hold "
                   "the slice's values",
                   t->name, b, r->files[vs->file].path);
  }
  return ok;
}

int mt_v1_reader_copy(mt_v1_reader* r, int i, const mt_tensor_slice* want, TF_Tensor* out,
                      TF_Status* s) {
  const v1_tensor* t = &r->tensors[i];
  const mt_shape* full = &t->shape;
  if (want->ndims != full->rank || !slice_fits(want, full, s)) return copy_failed(s);
  /* QueryMeta: the exact slice, or slices that cover it together. */
  int64_t covered = 0;
  for (int k = 0; k < t->n; k++) {
    mt_tensor_slice x;
    if (same_slice(&t->slices[k].slice, want)) {
      covered = mt_slice_nelems(want, full);
      break;
    }
    if (mt_slice_intersect(&t->slices[k].slice, want, full, &x)) covered += mt_slice_nelems(&x, full);
  }
  if (covered != mt_slice_nelems(want, full)) return copy_failed(s);
  for (int k = 0; k < t->n; k++) {
    const mt_tensor_slice* st = &t->slices[k].slice;
    mt_tensor_slice x;
    if (!mt_slice_intersect(st, want, full, &x)) continue;
    if (same_extents(st, want, full)) {
      /* The Saver's case: the record decodes straight into the output. */
      if (!read_stored(r, t, k, mt_tensor_data(out), s)) return 0;
      continue;
    }
    int64_t dims[MT_MAX_DIMS];
    for (int d = 0; d < full->rank; d++) dims[d] = mt_slice_end(st, d, full) - mt_slice_start(st, d);
    TF_Tensor* part = mt_tensor_new(t->dtype, dims, full->rank, s);
    if (!part) return 0;
    int ok = read_stored(r, t, k, mt_tensor_data(part), s);
    if (ok)
      mt_slice_copy(mt_tensor_data(part), st, mt_tensor_data(out), want, &x, full, t->dtype);
    mt_tensor_free(part);
    if (!ok) return 0;
  }
  return 1;
}
