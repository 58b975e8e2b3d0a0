/* Lookup tables (TensorFlow's lookup_table_op.cc, lookup_table_init_op.cc):
 * HashTableV2 (initialized once, then read-only) and MutableHashTableV2 are
 * session resources (mt_state_object), keyed "table:<container>/<name>";
 * their handle tensors hold a reference on the table, so the table ops read
 * it straight from the handle. Keys are string, int32 or int64 scalars and
 * values scalars of any fixed-size dtype or string; both are kept as bytes
 * (an element's raw bytes, or a string's) in one open-addressing hash map,
 * hashed with FarmHash's Fingerprint64. Each table has a mutex: the ops are
 * safe from concurrent runs. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernel.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/string/hash.h"
#include "runtime/resource.h"

typedef struct bytes {
  char* p;
  size_t n;
} bytes;

typedef struct entry {
  bytes key, value; /* key.p == NULL: empty slot */
  uint64_t hash;
} entry;

typedef struct table {
  mt_variant base;
  pthread_mutex_t mu;
  TF_DataType kdt, vdt;
  int is_mutable, initialized;
  int64_t n, cap; /* live entries; slots (a power of two, or 0) */
  entry* slots;
} table;

static const char TABLE_TYPE[] = "tensorflow::lookup::LookupInterface";

static void table_destroy(mt_variant* v) {
  table* t = (table*)v;
  for (int64_t i = 0; i < t->cap; i++) {
    free(t->slots[i].key.p);
    free(t->slots[i].value.p);
  }
  free(t->slots);
  pthread_mutex_destroy(&t->mu);
  free(t);
}

/* ---- the map ---- */

/* Slot of `key` or of the empty slot where it would go. Deleted entries are
 * removed by re-inserting their run (no tombstones). */
static int64_t find_slot(const table* t, const char* k, size_t n, uint64_t h) {
  const int64_t mask = t->cap - 1;
  for (int64_t i = (int64_t)(h & (uint64_t)mask);; i = (i + 1) & mask) {
    const entry* e = &t->slots[i];
    if (!e->key.p || (e->hash == h && e->key.n == n && memcmp(e->key.p, k, n) == 0)) return i;
  }
}

static int rehash(table* t, int64_t cap) {
  entry* old = t->slots;
  const int64_t old_cap = t->cap;
  entry* slots = calloc((size_t)cap, sizeof(entry));
  if (!slots) return 0;
  t->slots = slots;
  t->cap = cap;
  for (int64_t i = 0; i < old_cap; i++)
    if (old[i].key.p) t->slots[find_slot(t, old[i].key.p, old[i].key.n, old[i].hash)] = old[i];
  free(old);
  return 1;
}

static char* dup_bytes(const char* p, size_t n) {
  char* d = malloc(n + 1); /* +1: never NULL for empty strings */
  if (d) memcpy(d, p, n);
  return d;
}

static const entry* map_get(const table* t, const char* k, size_t n) {
  if (t->cap == 0) return NULL;
  const entry* e = &t->slots[find_slot(t, k, n, mt_fingerprint64(k, n))];
  return e->key.p ? e : NULL;
}

/* Sets key -> value (replacing). 0 on OOM. */
static int map_put(table* t, const char* k, size_t kn, const char* v, size_t vn) {
  if ((t->n + 1) * 4 > t->cap * 3 && !rehash(t, t->cap ? t->cap * 2 : 16)) return 0;
  const uint64_t h = mt_fingerprint64(k, kn);
  entry* e = &t->slots[find_slot(t, k, kn, h)];
  char* nv = dup_bytes(v, vn);
  if (!nv) return 0;
  if (e->key.p) {
    free(e->value.p);
  } else {
    if (!(e->key.p = dup_bytes(k, kn))) {
      free(nv);
      return 0;
    }
    e->key.n = kn;
    e->hash = h;
    t->n++;
  }
  e->value.p = nv;
  e->value.n = vn;
  return 1;
}

static void map_remove(table* t, const char* k, size_t n) {
  if (t->cap == 0) return;
  const int64_t mask = t->cap - 1;
  int64_t i = find_slot(t, k, n, mt_fingerprint64(k, n));
  if (!t->slots[i].key.p) return;
  free(t->slots[i].key.p);
  free(t->slots[i].value.p);
  memset(&t->slots[i], 0, sizeof(entry));
  t->n--;
  /* Re-place the rest of the run so lookups still find them. */
  for (int64_t j = (i + 1) & mask; t->slots[j].key.p; j = (j + 1) & mask) {
    entry e = t->slots[j];
    memset(&t->slots[j], 0, sizeof(entry));
    t->slots[find_slot(t, e.key.p, e.key.n, e.hash)] = e;
  }
}

static void map_clear(table* t) {
  for (int64_t i = 0; i < t->cap; i++) {
    free(t->slots[i].key.p);
    free(t->slots[i].value.p);
  }
  memset(t->slots, 0, sizeof(entry) * (size_t)t->cap);
  t->n = 0;
}

/* ---- elements as bytes ---- */

static bytes elem(const TF_Tensor* x, int64_t i) {
  bytes b;
  if (x->dtype == TF_STRING) {
    const TF_TString* s = (const TF_TString*)mt_tensor_data(x) + i;
    b.p = (char*)TF_StringGetDataPointer(s);
    b.n = TF_StringGetSize(s);
  } else {
    const size_t es = TF_DataTypeSize(x->dtype);
    b.p = (char*)mt_tensor_data(x) + (size_t)i * es;
    b.n = es;
  }
  return b;
}

static void put_elem(TF_Tensor* x, int64_t i, const char* p, size_t n) {
  if (x->dtype == TF_STRING) {
    TF_StringCopy((TF_TString*)mt_tensor_data(x) + i, p, n);
  } else {
    memcpy((char*)mt_tensor_data(x) + (size_t)i * n, p, n);
  }
}

/* A key as TF prints it in messages (a number, or the string). */
static void elem_str(const TF_Tensor* x, int64_t i, char* buf, size_t cap) {
  const bytes b = elem(x, i);
  switch (x->dtype) {
    case TF_STRING: snprintf(buf, cap, "%.*s", (int)(b.n < 200 ? b.n : 200), b.p); break;
    case TF_INT64: snprintf(buf, cap, "%lld", (long long)*(const int64_t*)b.p); break;
    case TF_INT32: snprintf(buf, cap, "%d", *(const int32_t*)b.p); break;
    case TF_FLOAT: snprintf(buf, cap, "%g", *(const float*)b.p); break;
    case TF_DOUBLE: snprintf(buf, cap, "%g", *(const double*)b.p); break;
    case TF_BOOL: snprintf(buf, cap, "%d", *(const unsigned char*)b.p); break;
    default: snprintf(buf, cap, "<%zu bytes>", b.n); break;
  }
}

/* ---- the resource ---- */

typedef struct make_args {
  TF_DataType kdt, vdt;
  int is_mutable;
} make_args;

static mt_variant* table_make(void* arg, TF_Status* s) {
  const make_args* a = arg;
  table* t = mt_calloc(1, sizeof(table), s);
  if (!t) return NULL;
  mt_variant_init(&t->base, TABLE_TYPE, table_destroy);
  pthread_mutex_init(&t->mu, NULL);
  t->kdt = a->kdt;
  t->vdt = a->vdt;
  t->is_mutable = a->is_mutable;
  return &t->base;
}

static void table_kernel(mt_kernel_ctx* ctx, int is_mutable) {
  const mt_attr_value* c = mt_op_attr(ctx->op, "container");
  const mt_attr_value* sn = mt_op_attr(ctx->op, "shared_name");
  const char* container = c && c->v.s.len ? c->v.s.data : "localhost";
  char name[512];
  if (sn && sn->v.s.len) {
    snprintf(name, sizeof name, "%s", sn->v.s.data);
  } else if (mt_op_attr_bool(ctx->op, "use_node_name_sharing", 0)) {
    snprintf(name, sizeof name, "%s", ctx->op->name);
  } else {
    /* TF makes a name private to the kernel: one table per (session, node). */
    snprintf(name, sizeof name, "_%p_%s", (const void*)ctx->op, ctx->op->name);
  }
  char key[1100];
  snprintf(key, sizeof key, "table:%s/%s", container, name);
  make_args a = {mt_op_attr_type(ctx->op, "key_dtype", TF_STRING),
                 mt_op_attr_type(ctx->op, "value_dtype", TF_INT64), is_mutable};
  if (!ctx->state) {
    mt_status_setf(ctx->status, TF_INTERNAL, "lookup tables need a session");
    return;
  }
  int created;
  mt_variant* v = mt_state_object(ctx->state, key, TABLE_TYPE, table_make, &a, &created,
                                  ctx->status);
  if (!v) return;
  table* t = (table*)v;
  if (t->kdt != a.kdt || t->vdt != a.vdt || t->is_mutable != is_mutable) {
    char k1[32], v1[32];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Conflicting key/value dtypes %s->%s with %s->%s for table %s",
                   mt_dt_enum_name(a.kdt, k1, sizeof k1), mt_dt_enum_name(a.vdt, v1, sizeof v1),
                   mt_dtype_name(t->kdt), mt_dtype_name(t->vdt), name);
  } else {
    TF_Tensor* h = mt_resource_tensor_obj(container, name, v, ctx->status);
    if (h) ctx->outputs[0] = h;
  }
  mt_variant_unref(v); /* mt_state_object's reference; the session and the handle keep theirs */
}

static void hash_table_kernel(mt_kernel_ctx* ctx) { table_kernel(ctx, 0); }
static void mutable_table_kernel(mt_kernel_ctx* ctx) { table_kernel(ctx, 1); }

/* The table input 0 names, or NULL + status. */
static table* table_of(mt_kernel_ctx* ctx) {
  const mt_resource_handle* h = mt_resource_get(ctx->inputs[0], ctx->status);
  if (!h) return NULL;
  if (!h->obj || h->obj->type_name != TABLE_TYPE) {
    mt_status_setf(ctx->status, TF_FAILED_PRECONDITION,
                   "Resource %s/%s is not a lookup table", h->container, h->name);
    return NULL;
  }
  return (table*)h->obj;
}

static int check_dtype(mt_kernel_ctx* ctx, const char* what, TF_DataType want, TF_DataType got) {
  if (want == got) return 1;
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s must be type %s but got %s.", what,
                 mt_dtype_name(want), mt_dtype_name(got));
  return 0;
}

static int same_dims(const TF_Tensor* a, const TF_Tensor* b) {
  return a->ndims == b->ndims && memcmp(a->dims, b->dims, sizeof(int64_t) * a->ndims) == 0;
}

/* ---- find / size / export ---- */

static void find_kernel(mt_kernel_ctx* ctx) {
  table* t = table_of(ctx);
  if (!t) return;
  const TF_Tensor* keys = ctx->inputs[1];
  const TF_Tensor* dflt = ctx->inputs[2];
  if (!check_dtype(ctx, "Key", t->kdt, keys->dtype) ||
      !check_dtype(ctx, "Value", t->vdt, dflt->dtype))
    return;
  const int64_t n = mt_tensor_nelems(keys);
  const int dflt_each = !t->is_mutable ? 0 : mt_tensor_nelems(dflt) == n && dflt->ndims > 0;
  if (mt_tensor_nelems(dflt) != 1 && !dflt_each) {
    char b[128];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Expected shape [] for default value, got %s",
                   mt_dims_str(dflt->dims, dflt->ndims, b, sizeof b));
    return;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, t->vdt, keys->dims, keys->ndims);
  if (!out) return;
  pthread_mutex_lock(&t->mu);
  if (!t->is_mutable && !t->initialized) {
    pthread_mutex_unlock(&t->mu);
    mt_status_setf(ctx->status, TF_FAILED_PRECONDITION, "Table not initialized.");
    return;
  }
  for (int64_t i = 0; i < n; i++) {
    const bytes k = elem(keys, i);
    const entry* e = map_get(t, k.p, k.n);
    const bytes d = elem(dflt, dflt_each ? i : 0);
    put_elem(out, i, e ? e->value.p : d.p, e ? e->value.n : d.n);
  }
  pthread_mutex_unlock(&t->mu);
}

static void size_kernel(mt_kernel_ctx* ctx) {
  table* t = table_of(ctx);
  if (!t) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_INT64, NULL, 0);
  if (!out) return;
  pthread_mutex_lock(&t->mu);
  *(int64_t*)mt_tensor_data(out) = t->n;
  pthread_mutex_unlock(&t->mu);
}

static void export_kernel(mt_kernel_ctx* ctx) {
  table* t = table_of(ctx);
  if (!t) return;
  pthread_mutex_lock(&t->mu);
  const int64_t d[1] = {t->n};
  TF_Tensor* k = mt_ctx_alloc(ctx, 0, t->kdt, d, 1);
  TF_Tensor* v = k ? mt_ctx_alloc(ctx, 1, t->vdt, d, 1) : NULL;
  if (v) {
    int64_t j = 0;
    for (int64_t i = 0; i < t->cap; i++) {
      const entry* e = &t->slots[i];
      if (!e->key.p) continue;
      put_elem(k, j, e->key.p, e->key.n);
      put_elem(v, j, e->value.p, e->value.n);
      j++;
    }
  }
  pthread_mutex_unlock(&t->mu);
}

/* ---- filling ---- */

/* Checks keys/values against the table; TF's "Expected shape [2] for value,
 * got [1]". */
static int check_pairs(mt_kernel_ctx* ctx, table* t, const TF_Tensor* keys,
                       const TF_Tensor* vals) {
  char b1[128], b2[128];
  if (!check_dtype(ctx, "Key", t->kdt, keys->dtype) ||
      !check_dtype(ctx, "Value", t->vdt, vals->dtype))
    return 0;
  if (!same_dims(keys, vals)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Expected shape %s for value, got %s",
                   mt_dims_str(keys->dims, keys->ndims, b1, sizeof b1),
                   mt_dims_str(vals->dims, vals->ndims, b2, sizeof b2));
    return 0;
  }
  return 1;
}

/* Inserts into an initializable table: a key already there with another
 * value is TF's FailedPrecondition; the same value is fine. Caller holds mu. */
static int insert_static(mt_kernel_ctx* ctx, table* t, const TF_Tensor* keys,
                         const TF_Tensor* vals, int64_t i) {
  const bytes k = elem(keys, i), v = elem(vals, i);
  const entry* e = map_get(t, k.p, k.n);
  if (e) {
    if (e->value.n == v.n && memcmp(e->value.p, v.p, v.n) == 0) return 1;
    char ks[256], old[256], nv[256];
    elem_str(keys, i, ks, sizeof ks);
    if (t->vdt == TF_STRING) {
      snprintf(old, sizeof old, "%.*s", (int)(e->value.n < 200 ? e->value.n : 200), e->value.p);
    } else if (t->vdt == TF_INT64) {
      snprintf(old, sizeof old, "%lld", (long long)*(const int64_t*)e->value.p);
    } else if (t->vdt == TF_INT32) {
      snprintf(old, sizeof old, "%d", *(const int32_t*)e->value.p);
    } else if (t->vdt == TF_FLOAT) {
      snprintf(old, sizeof old, "%g", *(const float*)e->value.p);
    } else if (t->vdt == TF_DOUBLE) {
      snprintf(old, sizeof old, "%g", *(const double*)e->value.p);
    } else {
      snprintf(old, sizeof old, "<%zu bytes>", e->value.n);
    }
    elem_str(vals, i, nv, sizeof nv);
    mt_status_setf(ctx->status, TF_FAILED_PRECONDITION,
                   "HashTable has different value for same key. Key %s has %s and trying to add "
                   "value %s",
                   ks, old, nv);
    return 0;
  }
  if (!map_put(t, k.p, k.n, v.p, v.n)) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "Out of memory");
    return 0;
  }
  return 1;
}

/* 1 when the table holds exactly these pairs (TF lets a table be
 * initialized again with the same data). Caller holds mu. */
static int same_contents(const table* t, const TF_Tensor* keys, const TF_Tensor* vals) {
  const int64_t n = mt_tensor_nelems(keys);
  int64_t distinct = 0;
  for (int64_t i = 0; i < n; i++) {
    const bytes k = elem(keys, i), v = elem(vals, i);
    const entry* e = map_get(t, k.p, k.n);
    if (!e || e->value.n != v.n || memcmp(e->value.p, v.p, v.n) != 0) return 0;
    distinct++;
  }
  return distinct >= t->n;
}

static void initialize(mt_kernel_ctx* ctx, table* t, const TF_Tensor* keys,
                       const TF_Tensor* vals) {
  pthread_mutex_lock(&t->mu);
  if (t->initialized) {
    if (!same_contents(t, keys, vals))
      mt_status_setf(ctx->status, TF_FAILED_PRECONDITION,
                     "Table was already initialized with different data.");
    pthread_mutex_unlock(&t->mu);
    return;
  }
  const int64_t n = mt_tensor_nelems(keys);
  int ok = 1;
  for (int64_t i = 0; i < n && ok; i++) ok = insert_static(ctx, t, keys, vals, i);
  if (ok) t->initialized = 1;
  else map_clear(t);
  pthread_mutex_unlock(&t->mu);
}

static void import_kernel(mt_kernel_ctx* ctx) {
  table* t = table_of(ctx);
  if (!t || !check_pairs(ctx, t, ctx->inputs[1], ctx->inputs[2])) return;
  if (!t->is_mutable) {
    initialize(ctx, t, ctx->inputs[1], ctx->inputs[2]);
    return;
  }
  pthread_mutex_lock(&t->mu);
  map_clear(t);
  const int64_t n = mt_tensor_nelems(ctx->inputs[1]);
  for (int64_t i = 0; i < n; i++) {
    const bytes k = elem(ctx->inputs[1], i), v = elem(ctx->inputs[2], i);
    if (!map_put(t, k.p, k.n, v.p, v.n)) {
      mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "Out of memory");
      break;
    }
  }
  pthread_mutex_unlock(&t->mu);
}

static void init_kernel(mt_kernel_ctx* ctx) {
  table* t = table_of(ctx);
  if (!t || !check_pairs(ctx, t, ctx->inputs[1], ctx->inputs[2])) return;
  if (t->is_mutable) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Table %s is not initializable",
                   "MutableHashTable");
    return;
  }
  initialize(ctx, t, ctx->inputs[1], ctx->inputs[2]);
}

static void insert_kernel(mt_kernel_ctx* ctx) {
  table* t = table_of(ctx);
  if (!t || !check_pairs(ctx, t, ctx->inputs[1], ctx->inputs[2])) return;
  if (!t->is_mutable) {
    mt_status_setf(ctx->status, TF_UNIMPLEMENTED, "Insert not supported by HashTable.");
    return;
  }
  pthread_mutex_lock(&t->mu);
  const int64_t n = mt_tensor_nelems(ctx->inputs[1]);
  for (int64_t i = 0; i < n; i++) {
    const bytes k = elem(ctx->inputs[1], i), v = elem(ctx->inputs[2], i);
    if (!map_put(t, k.p, k.n, v.p, v.n)) {
      mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "Out of memory");
      break;
    }
  }
  pthread_mutex_unlock(&t->mu);
}

static void remove_kernel(mt_kernel_ctx* ctx) {
  table* t = table_of(ctx);
  if (!t || !check_dtype(ctx, "Key", t->kdt, ctx->inputs[1]->dtype)) return;
  if (!t->is_mutable) {
    mt_status_setf(ctx->status, TF_UNIMPLEMENTED, "Remove not supported by HashTable.");
    return;
  }
  pthread_mutex_lock(&t->mu);
  const int64_t n = mt_tensor_nelems(ctx->inputs[1]);
  for (int64_t i = 0; i < n; i++) {
    const bytes k = elem(ctx->inputs[1], i);
    map_remove(t, k.p, k.n);
  }
  pthread_mutex_unlock(&t->mu);
}

/* ---- InitializeTableFromTextFileV2 ---- */

enum { WHOLE_LINE = -2, LINE_NUMBER = -1 };

/* Field `index` of line (split at delim), or the whole line. 0 when short. */
static int field_of(const char* line, size_t n, const char* delim, size_t dn, int64_t index,
                    bytes* out, int64_t* ncols) {
  if (index == WHOLE_LINE) {
    out->p = (char*)line;
    out->n = n;
    return 1;
  }
  int64_t col = 0;
  size_t start = 0;
  int found = 0;
  for (size_t i = 0; i <= n; i++) {
    if (i < n && !(dn && i + dn <= n && memcmp(line + i, delim, dn) == 0)) continue;
    if (col == index) {
      out->p = (char*)line + start;
      out->n = i - start;
      found = 1;
    }
    col++;
    if (i < n) {
      i += dn - 1;
      start = i + 1;
    }
  }
  *ncols = col;
  return found;
}

/* Converts a text field into one element of dtype dt (stored in buf). */
static int parse_field(TF_DataType dt, const bytes* f, char* buf, bytes* out) {
  char tmp[128];
  if (dt == TF_STRING) {
    *out = *f;
    return 1;
  }
  if (f->n == 0 || f->n >= sizeof tmp) return 0;
  memcpy(tmp, f->p, f->n);
  tmp[f->n] = 0;
  char* end;
  out->p = buf;
  switch (dt) {
    case TF_INT64: {
      const long long v = strtoll(tmp, &end, 10);
      memcpy(buf, &(int64_t){v}, 8);
      out->n = 8;
      break;
    }
    case TF_INT32: {
      const long long v = strtoll(tmp, &end, 10);
      if (v < INT32_MIN || v > INT32_MAX) return 0;
      memcpy(buf, &(int32_t){(int32_t)v}, 4);
      out->n = 4;
      break;
    }
    case TF_FLOAT: {
      const float v = strtof(tmp, &end);
      memcpy(buf, &v, 4);
      out->n = 4;
      break;
    }
    case TF_DOUBLE: {
      const double v = strtod(tmp, &end);
      memcpy(buf, &v, 8);
      out->n = 8;
      break;
    }
    default: return 0;
  }
  return *end == 0;
}

/* One side (key or value) of a text-file line as an element of dt. */
static int line_elem(mt_kernel_ctx* ctx, const char* file, const char* line, size_t n,
                     int64_t lineno, int64_t index, int64_t offset, int64_t max_index,
                     TF_DataType dt, const char* delim, size_t dn, char* buf, bytes* out) {
  if (index == LINE_NUMBER) {
    const int64_t v = lineno + offset;
    if (dt == TF_INT32) memcpy(buf, &(int32_t){(int32_t)v}, 4);
    else memcpy(buf, &v, 8);
    out->p = buf;
    out->n = dt == TF_INT32 ? 4 : 8;
    return 1;
  }
  bytes f;
  int64_t ncols = 0;
  if (!field_of(line, n, delim, dn, index, &f, &ncols)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Invalid number of columns in %s line %lld (%.*s) : expected at least %lld "
                   "got %lld",
                   file, (long long)lineno, (int)n, line, (long long)max_index + 1,
                   (long long)ncols);
    return 0;
  }
  if (!parse_field(dt, &f, buf, out)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Field %.*s in line %lld is not a valid %s.",
                   (int)f.n, f.p, (long long)lineno, mt_dtype_name(dt));
    return 0;
  }
  return 1;
}

/* Builds the key and value tensors of the file's first `vocab` lines (all
 * when -1), so the table fills through the same path as InitializeTableV2. */
static int read_text_pairs(mt_kernel_ctx* ctx, table* t, const char* file, TF_Tensor** keys,
                           TF_Tensor** vals) {
  const int64_t ki = mt_op_attr_int(ctx->op, "key_index", WHOLE_LINE);
  const int64_t vi = mt_op_attr_int(ctx->op, "value_index", LINE_NUMBER);
  const int64_t vocab = mt_op_attr_int(ctx->op, "vocab_size", -1);
  const int64_t offset = mt_op_attr_int(ctx->op, "offset", 0);
  const mt_attr_value* da = mt_op_attr(ctx->op, "delimiter");
  const char* delim = da ? da->v.s.data : "\t";
  const size_t dn = da ? da->v.s.len : 1;
  FILE* f = fopen(file, "rb");
  if (!f) {
    mt_status_setf(ctx->status, TF_NOT_FOUND, "%s; No such file or directory", file);
    return 0;
  }
  char* line = NULL;
  size_t lcap = 0;
  ssize_t got;
  int64_t count = 0, cap = 0;
  bytes *kb = NULL, *vb = NULL; /* owned copies */
  char kbuf[8], vbuf[8];
  int ok = 1;
  const int64_t max_index = ki > vi ? ki : vi;
  while (ok && (vocab < 0 || count < vocab) && (got = getline(&line, &lcap, f)) >= 0) {
    size_t n = (size_t)got;
    if (n > 0 && line[n - 1] == '\n') n--;
    if (n > 0 && line[n - 1] == '\r') n--;
    bytes k, v;
    if (!line_elem(ctx, file, line, n, count, ki, 0, max_index, t->kdt, delim, dn, kbuf, &k) ||
        !line_elem(ctx, file, line, n, count, vi, offset, max_index, t->vdt, delim, dn, vbuf,
                   &v)) {
      ok = 0;
      break;
    }
    if (count == cap) {
      cap = cap ? cap * 2 : 64;
      bytes* nk = realloc(kb, sizeof(bytes) * (size_t)cap);
      if (nk) kb = nk;
      bytes* nv = nk ? realloc(vb, sizeof(bytes) * (size_t)cap) : NULL;
      if (nv) vb = nv;
      if (!nk || !nv) {
        mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "Out of memory");
        ok = 0;
        break;
      }
    }
    kb[count].p = dup_bytes(k.p, k.n);
    kb[count].n = k.n;
    vb[count].p = dup_bytes(v.p, v.n);
    vb[count].n = v.n;
    count++;
  }
  free(line);
  fclose(f);
  if (ok && vocab >= 0 && count < vocab) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Invalid vocab_size in %s: expected %lld but got %lld", file,
                   (long long)vocab, (long long)count);
    ok = 0;
  }
  if (ok) {
    const int64_t d[1] = {count};
    *keys = mt_tensor_new(t->kdt, d, 1, ctx->status);
    *vals = *keys ? mt_tensor_new(t->vdt, d, 1, ctx->status) : NULL;
    ok = *vals != NULL;
    for (int64_t i = 0; ok && i < count; i++) {
      put_elem(*keys, i, kb[i].p, kb[i].n);
      put_elem(*vals, i, vb[i].p, vb[i].n);
    }
  }
  for (int64_t i = 0; i < count; i++) {
    free(kb[i].p);
    free(vb[i].p);
  }
  free(kb);
  free(vb);
  return ok;
}

static void init_from_file_kernel(mt_kernel_ctx* ctx) {
  table* t = table_of(ctx);
  if (!t) return;
  const TF_Tensor* fn = ctx->inputs[1];
  if (fn->ndims != 0) {
    char b[128];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "filename should be a single string, but got %s",
                   mt_dims_str(fn->dims, fn->ndims, b, sizeof b));
    return;
  }
  const TF_TString* s = (const TF_TString*)mt_tensor_data(fn);
  char path[4096];
  snprintf(path, sizeof path, "%.*s", (int)TF_StringGetSize(s), TF_StringGetDataPointer(s));
  pthread_mutex_lock(&t->mu);
  const int done = t->initialized;
  pthread_mutex_unlock(&t->mu);
  if (done) return; /* TF: a table initialized once is left as it is */
  TF_Tensor *keys = NULL, *vals = NULL;
  if (read_text_pairs(ctx, t, path, &keys, &vals)) initialize(ctx, t, keys, vals);
  mt_tensor_free(keys);
  mt_tensor_free(vals);
}

/* ---- shapes ---- */

static void handle_shape(mt_shape_ctx* ctx) { ctx->out[0] = mt_shape_scalar(); }

static void find_shape(mt_shape_ctx* ctx) { ctx->out[0] = ctx->in[1]; }

static void scalar_shape(mt_shape_ctx* ctx) { ctx->out[0] = mt_shape_scalar(); }

static void export_shape(mt_shape_ctx* ctx) {
  const int64_t d[1] = {-1};
  ctx->out[0] = mt_shape_make(d, 1);
  ctx->out[1] = mt_shape_make(d, 1);
}

static void no_output_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 0)) return;
}

#define TABLE_ATTRS                                                                     \
  "container: string = ''; shared_name: string = ''; use_node_name_sharing: bool = false; " \
  "key_dtype: type; value_dtype: type"

static const mt_op_spec lookup_ops[] = {
    {.name = "HashTableV2", .outputs = "table_handle: resource", .attrs = TABLE_ATTRS,
     .flags = MT_OP_STATEFUL, .shape = handle_shape, .kernel = hash_table_kernel},
    {.name = "MutableHashTableV2", .outputs = "table_handle: resource", .attrs = TABLE_ATTRS,
     .flags = MT_OP_STATEFUL, .shape = handle_shape, .kernel = mutable_table_kernel},
    {.name = "LookupTableFindV2",
     .inputs = "table_handle: resource, keys: Tin, default_value: Tout",
     .outputs = "values: Tout", .attrs = "Tin: type; Tout: type", .flags = MT_OP_STATEFUL,
     .shape = find_shape, .kernel = find_kernel},
    {.name = "LookupTableImportV2", .inputs = "table_handle: resource, keys: Tin, values: Tout",
     .attrs = "Tin: type; Tout: type", .flags = MT_OP_STATEFUL, .shape = no_output_shape,
     .kernel = import_kernel},
    {.name = "LookupTableInsertV2", .inputs = "table_handle: resource, keys: Tin, values: Tout",
     .attrs = "Tin: type; Tout: type", .flags = MT_OP_STATEFUL, .shape = no_output_shape,
     .kernel = insert_kernel},
    {.name = "LookupTableRemoveV2", .inputs = "table_handle: resource, keys: Tin",
     .attrs = "Tin: type", .flags = MT_OP_STATEFUL, .shape = no_output_shape,
     .kernel = remove_kernel},
    {.name = "LookupTableSizeV2", .inputs = "table_handle: resource", .outputs = "size: int64",
     .flags = MT_OP_STATEFUL, .shape = scalar_shape, .kernel = size_kernel},
    {.name = "LookupTableExportV2", .inputs = "table_handle: resource",
     .outputs = "keys: Tkeys, values: Tvalues", .attrs = "Tkeys: type; Tvalues: type",
     .flags = MT_OP_STATEFUL, .shape = export_shape, .kernel = export_kernel},
    {.name = "InitializeTableV2", .inputs = "table_handle: resource, keys: Tkey, values: Tval",
     .attrs = "Tkey: type; Tval: type", .flags = MT_OP_STATEFUL, .shape = no_output_shape,
     .kernel = init_kernel},
    {.name = "InitializeTableFromTextFileV2", .inputs = "table_handle: resource, filename: string",
     .attrs = "key_index: int >= -2; value_index: int >= -2; vocab_size: int >= -1 = -1; "
              "delimiter: string = '\t'; offset: int = 0",
     .flags = MT_OP_STATEFUL, .shape = no_output_shape, .kernel = init_from_file_kernel},
};

void mt_register_lookup_ops(void) {
  mt_register_ops(lookup_ops, (int)(sizeof lookup_ops / sizeof lookup_ops[0]));
}
