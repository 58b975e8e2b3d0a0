/* Readers, TensorFlow 2.21's V2 reader ops (io_ops.cc, reader_base.cc,
 * whole_file_read_ops.cc, text_line_reader_op.cc,
 * fixed_length_record_reader_op.cc, identity_reader_op.cc): a reader is a
 * session resource (as the queues, runtime/kernels/queue_ops.c) that takes
 * work items (file names) from a string queue and turns each into records.
 *
 * ReaderReadV2 holds the reader's lock for the whole call, as TensorFlow's
 * ReaderBase does, including while it waits on the queue for the next work
 * item (that wait honours the step's cancellation and deadline). A work
 * item whose file cannot be opened fails the read with TensorFlow's
 * "<path>; <strerror>" error and is dropped. Keys are TensorFlow's:
 * "<file>:<line>" (1-based, counting skipped header lines) for text lines,
 * "<file>:<record>" (0-based) for fixed-length records, the work item for
 * whole files and the identity reader. TFRecordReaderV2 is not here (it
 * needs the TFRecord format). Serialize/RestoreState are TensorFlow's: the
 * identity and whole-file readers' ReaderBaseState proto, Unimplemented for the
 * others. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "c_api/include/tensorflow/c/tf_tstring.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/queue_ops.h"
#include "runtime/resource.h"

static const char reader_type_name[] = "tensorflow::ReaderInterface";

enum { R_WHOLE_FILE, R_TEXT_LINE, R_FIXED_LENGTH, R_IDENTITY };

typedef struct mt_reader {
  mt_variant base;
  pthread_mutex_t mu;
  int kind;
  char* name;
  int64_t skip_header_lines;
  int64_t header_bytes, record_bytes, footer_bytes, hop_bytes;
  int encoding; /* fixed length: 0 none, 1 ZLIB, 2 GZIP */
  char* inflated; /* the decompressed work item r->f reads (fmemopen) */
  /* the work item in progress (work_started > work_finished) */
  char* work;
  FILE* f;
  int64_t end_offset; /* fixed length: where the footer starts */
  int64_t offset;     /* fixed length: next record's offset */
  int64_t line_number, record_number;
  int64_t work_started, work_finished, records_produced;
} mt_reader;

static void close_work(mt_reader* r) {
  if (r->f) fclose(r->f);
  r->f = NULL;
  free(r->inflated);
  r->inflated = NULL;
  free(r->work);
  r->work = NULL;
}

static void reader_destroy(mt_variant* v) {
  mt_reader* r = (mt_reader*)v;
  close_work(r);
  free(r->name);
  pthread_mutex_destroy(&r->mu);
  free(r);
}

typedef struct make_args {
  mt_kernel_ctx* ctx;
  int kind;
  const char* shared;
} make_args;

static mt_variant* make_reader(void* arg, TF_Status* s) {
  const make_args* a = arg;
  const TF_Operation* op = a->ctx->op;
  mt_reader* r = mt_calloc(1, sizeof(*r), s);
  if (!r) return NULL;
  mt_variant_init(&r->base, reader_type_name, reader_destroy);
  pthread_mutex_init(&r->mu, NULL);
  r->kind = a->kind;
  r->skip_header_lines = mt_op_attr_int(op, "skip_header_lines", 0);
  r->header_bytes = mt_op_attr_int(op, "header_bytes", 0);
  r->record_bytes = mt_op_attr_int(op, "record_bytes", 0);
  r->footer_bytes = mt_op_attr_int(op, "footer_bytes", 0);
  r->hop_bytes = mt_op_attr_int(op, "hop_bytes", 0);
  const char* enc = mt_op_attr_str(op, "encoding", "");
  r->encoding = strcmp(enc, "ZLIB") == 0 ? 1 : strcmp(enc, "GZIP") == 0 ? 2 : 0;
  static const char* const types[] = {"WholeFileReader", "TextLineReader",
                                      "FixedLengthRecordReader", "IdentityReader"};
  /* TensorFlow's reader name in messages: "<Type> '<node name>'" */
  if (asprintf(&r->name, "%s '%s'", types[a->kind], op->name) < 0) r->name = NULL;
  if (!r->name) {
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM creating a reader");
    mt_variant_unref(&r->base);
    return NULL;
  }
  return &r->base;
}

/* TensorFlow's constructor checks of a FixedLengthRecordReader. */
static int check_reader_attrs(mt_kernel_ctx* ctx, int kind) {
  const TF_Operation* op = ctx->op;
  const char* msg = NULL;
  if (kind == R_TEXT_LINE && mt_op_attr_int(op, "skip_header_lines", 0) < 0)
    msg = "skip_header_lines must be >= 0 not %lld";
  if (kind == R_FIXED_LENGTH) {
    const char* enc = mt_op_attr_str(op, "encoding", "");
    if (*enc && strcmp(enc, "ZLIB") != 0 && strcmp(enc, "GZIP") != 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "FixedLengthRecordReader encoding '%s' is not ZLIB or GZIP", enc);
      return 0;
    }
    if (mt_op_attr_int(op, "header_bytes", 0) < 0) msg = "header_bytes must be >= 0 not %lld";
    if (mt_op_attr_int(op, "footer_bytes", 0) < 0) msg = "footer_bytes must be >= 0 not %lld";
    if (mt_op_attr_int(op, "hop_bytes", 0) < 0) msg = "hop_bytes must be >= 0 not %lld";
  }
  if (!msg) return 1;
  const char* attr = msg[0] == 's' ? "skip_header_lines" : NULL;
  if (!attr) {
    static const char* const names[] = {"header_bytes", "record_bytes", "footer_bytes",
                                        "hop_bytes"};
    for (int k = 0; k < 4 && !attr; k++)
      if (strncmp(msg, names[k], strlen(names[k])) == 0) attr = names[k];
  }
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, msg,
                 (long long)mt_op_attr_int(op, attr, 0));
  return 0;
}

static void reader_op_kernel(mt_kernel_ctx* ctx, int kind) {
  if (!check_reader_attrs(ctx, kind)) return;
  const char* container = mt_op_attr_str(ctx->op, "container", "");
  const char* shared = mt_op_attr_str(ctx->op, "shared_name", "");
  if (!*container) container = "localhost";
  char key[1024];
  if (*shared)
    snprintf(key, sizeof key, "%s/%s", container, shared);
  else
    snprintf(key, sizeof key, "%s/node:%p", container, (const void*)ctx->op);
  make_args a = {ctx, kind, shared};
  int created = 0;
  mt_variant* obj =
      mt_state_object(ctx->state, key, reader_type_name, make_reader, &a, &created, ctx->status);
  if (!obj) return;
  if (((mt_reader*)obj)->kind != kind)
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Shared reader %s is of another type than node '%s' (%s)",
                   ((mt_reader*)obj)->name, ctx->op->name, ctx->op->op_type);
  else
    ctx->outputs[0] = mt_resource_tensor_obj(container, *shared ? shared : ctx->op->name, obj,
                                             ctx->status);
  mt_variant_unref(obj);
}

static void whole_file_reader_kernel(mt_kernel_ctx* ctx) { reader_op_kernel(ctx, R_WHOLE_FILE); }
static void text_line_reader_kernel(mt_kernel_ctx* ctx) { reader_op_kernel(ctx, R_TEXT_LINE); }
static void fixed_length_reader_kernel(mt_kernel_ctx* ctx) {
  reader_op_kernel(ctx, R_FIXED_LENGTH);
}
static void identity_reader_kernel(mt_kernel_ctx* ctx) { reader_op_kernel(ctx, R_IDENTITY); }

static mt_reader* input_reader(mt_kernel_ctx* ctx) {
  const mt_resource_handle* h = mt_resource_get(ctx->inputs[0], ctx->status);
  if (!h) return NULL;
  if (!h->obj || h->obj->type_name != reader_type_name) {
    mt_status_setf(ctx->status, TF_NOT_FOUND, "Resource %s/%s does not exist.", h->container,
                   h->name);
    return NULL;
  }
  return (mt_reader*)h->obj;
}

static int file_error(mt_kernel_ctx* ctx, const char* path, int err) {
  mt_status_setf(ctx->status, mt_errno_code(err), "%s; %s", path, strerror(err));
  return 0;
}

/* ---- one record ---- */

typedef struct record {
  char* key;
  char* value;
  size_t key_len, value_len;
} record;

static void record_clear(record* rec) {
  free(rec->key);
  free(rec->value);
  memset(rec, 0, sizeof *rec);
}

static int set_bytes(char** dst, size_t* len, const char* src, size_t n) {
  *dst = malloc(n + 1);
  if (!*dst) return 0;
  if (n) memcpy(*dst, src, n);
  (*dst)[n] = 0;
  *len = n;
  return 1;
}

static int set_key_num(record* rec, const char* work, int64_t n) {
  char* k = NULL;
  const int len = asprintf(&k, "%s:%lld", work, (long long)n);
  if (len < 0) return 0;
  rec->key = k;
  rec->key_len = (size_t)len;
  return 1;
}

/* A compressed fixed-length work item: the whole file inflated with zlib
 * (ZLIB or GZIP framing) into r->inflated, which r->f then reads; the
 * header, records and footer are of the decompressed bytes, as TensorFlow's
 * ZlibInputStream gives them. DataLoss for corrupt data. */
static int inflate_work(mt_kernel_ctx* ctx, mt_reader* r, int64_t* size) {
  z_stream z;
  memset(&z, 0, sizeof z);
  if (inflateInit2(&z, r->encoding == 2 ? 15 + 16 : 15) != Z_OK) {
    mt_status_setf(ctx->status, TF_INTERNAL, "zlib init failed for %s", r->work);
    return 0;
  }
  size_t cap = 1 << 16, n = 0;
  char* out = malloc(cap);
  unsigned char in[1 << 16];
  int rc = Z_OK;
  while (out && rc != Z_STREAM_END) {
    if (z.avail_in == 0) {
      z.avail_in = (uInt)fread(in, 1, sizeof in, r->f);
      z.next_in = in;
      if (z.avail_in == 0) break; /* truncated */
    }
    if (n == cap) {
      char* grown = realloc(out, cap * 2);
      if (!grown) break;
      out = grown;
      cap *= 2;
    }
    z.next_out = (Bytef*)out + n;
    z.avail_out = (uInt)(cap - n);
    rc = inflate(&z, Z_NO_FLUSH);
    n = cap - z.avail_out;
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) break;
  }
  char zmsg[128];
  snprintf(zmsg, sizeof zmsg, "%s", z.msg ? z.msg : "");
  inflateEnd(&z);
  fclose(r->f);
  r->f = NULL;
  if (out && rc != Z_STREAM_END && rc != Z_OK && rc != Z_BUF_ERROR) {
    free(out); /* TensorFlow's ZlibInputStream words */
    mt_status_setf(ctx->status, TF_DATA_LOSS, "inflate() failed with error %d: %s", rc, zmsg);
    return 0;
  }
  if (!out || rc != Z_STREAM_END) {
    free(out);
    mt_status_setf(ctx->status, out ? TF_DATA_LOSS : TF_RESOURCE_EXHAUSTED,
                   out ? "%s: corrupt or truncated %s data" : "OOM inflating %s", r->work,
                   r->encoding == 2 ? "GZIP" : "ZLIB");
    return 0;
  }
  r->inflated = out;
  r->f = fmemopen(out, n ? n : 1, "rb");
  if (!r->f) return file_error(ctx, r->work, errno);
  *size = (int64_t)n;
  return 1;
}

/* Opens the work item's file (OnWorkStartedLocked). */
static int start_work(mt_kernel_ctx* ctx, mt_reader* r) {
  r->line_number = r->record_number = 0;
  if (r->kind == R_IDENTITY || r->kind == R_WHOLE_FILE) return 1;
  r->f = fopen(r->work, "rb");
  if (!r->f) return file_error(ctx, r->work, errno);
  if (r->kind == R_TEXT_LINE) {
    char* line = NULL;
    size_t cap = 0;
    for (; r->line_number < r->skip_header_lines; r->line_number++)
      if (getline(&line, &cap, r->f) < 0) break;
    free(line);
    return 1;
  }
  int64_t size;
  if (r->encoding) {
    if (!inflate_work(ctx, r, &size)) return 0;
  } else {
    struct stat st;
    if (fstat(fileno(r->f), &st) != 0) return file_error(ctx, r->work, errno);
    size = (int64_t)st.st_size;
  }
  r->offset = r->header_bytes;
  r->end_offset = size - r->footer_bytes;
  return 1;
}

static int read_whole_file(mt_kernel_ctx* ctx, const char* path, record* rec) {
  FILE* f = fopen(path, "rb");
  if (!f) return file_error(ctx, path, errno);
  size_t cap = 4096, n = 0;
  char* buf = malloc(cap + 1);
  for (size_t got = 1; buf && got > 0;) {
    if (n == cap) {
      char* grown = realloc(buf, cap * 2 + 1);
      if (!grown) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = grown;
      cap *= 2;
    }
    got = fread(buf + n, 1, cap - n, f);
    n += got;
  }
  const int err = ferror(f) ? errno : 0;
  fclose(f);
  if (!buf) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM reading %s", path);
    return 0;
  }
  if (err) {
    free(buf);
    return file_error(ctx, path, err);
  }
  buf[n] = 0;
  rec->value = buf;
  rec->value_len = n;
  return 1;
}

/* ReadLocked: one record into rec (*produced), or *at_end. 0 + status on
 * error. */
static int read_locked(mt_kernel_ctx* ctx, mt_reader* r, record* rec, int* produced,
                       int* at_end) {
  *produced = *at_end = 0;
  if (r->kind == R_IDENTITY || r->kind == R_WHOLE_FILE) {
    if (!set_bytes(&rec->key, &rec->key_len, r->work, strlen(r->work))) goto oom;
    if (r->kind == R_IDENTITY) {
      if (!set_bytes(&rec->value, &rec->value_len, r->work, strlen(r->work))) goto oom;
    } else if (!read_whole_file(ctx, r->work, rec)) {
      return 0;
    }
    *produced = *at_end = 1;
    return 1;
  }
  if (r->kind == R_TEXT_LINE) {
    char* line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, r->f);
    if (n < 0) {
      free(line);
      *at_end = 1;
      return 1;
    }
    if (n > 0 && line[n - 1] == '\n') n--;
    if (n > 0 && line[n - 1] == '\r') n--; /* as TensorFlow's InputBuffer::ReadLine */
    line[n] = 0;
    rec->value = line;
    rec->value_len = (size_t)n;
    r->line_number++;
    if (!set_key_num(rec, r->work, r->line_number)) goto oom;
    *produced = 1;
    return 1;
  }
  if (r->offset + r->record_bytes > r->end_offset) {
    *at_end = 1;
    return 1;
  }
  rec->value = malloc((size_t)r->record_bytes + 1);
  if (!rec->value) goto oom;
  if (fseeko(r->f, r->offset, SEEK_SET) != 0 ||
      fread(rec->value, 1, (size_t)r->record_bytes, r->f) != (size_t)r->record_bytes)
    return file_error(ctx, r->work, ferror(r->f) ? errno : EIO);
  rec->value[r->record_bytes] = 0;
  rec->value_len = (size_t)r->record_bytes;
  r->offset += r->hop_bytes > 0 ? r->hop_bytes : r->record_bytes;
  if (!set_key_num(rec, r->work, r->record_number++)) goto oom;
  *produced = 1;
  return 1;
oom:
  mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM reading %s", r->work);
  return 0;
}

/* One record, taking work items from the queue as needed (ReaderBase::Read);
 * r->mu held. 0 + status on error; 2 (no record) when stop_at_end and the
 * work item in progress ended, as TensorFlow's ReadUpTo ends a batch at the
 * end of a file. */
static int next_record(mt_kernel_ctx* ctx, mt_reader* r, const TF_Tensor* queue, record* rec,
                       int stop_at_end) {
  for (;;) {
    if (r->work_finished >= r->work_started) {
      char* work = NULL;
      size_t len = 0;
      if (!mt_queue_dequeue_string(ctx, queue, &work, &len)) return 0;
      close_work(r);
      r->work = work;
      if (!start_work(ctx, r)) {
        close_work(r);
        return 0;
      }
      r->work_started++;
    }
    int produced = 0, at_end = 0;
    if (!read_locked(ctx, r, rec, &produced, &at_end)) {
      record_clear(rec);
      return 0;
    }
    if (at_end) {
      if (r->f) fclose(r->f);
      r->f = NULL;
      r->work_finished = r->work_started;
    }
    if (at_end && !produced && stop_at_end) return 2;
    if (produced) {
      r->records_produced++;
      return 1;
    }
  }
}

static void set_string(TF_Tensor* t, int64_t i, const char* p, size_t n) {
  TF_StringCopy((TF_TString*)mt_tensor_data(t) + i, p, n);
}

static void reader_read_kernel(mt_kernel_ctx* ctx) {
  mt_reader* r = input_reader(ctx);
  if (!r) return;
  record rec = {0};
  pthread_mutex_lock(&r->mu);
  const int ok = next_record(ctx, r, ctx->inputs[1], &rec, 0);
  pthread_mutex_unlock(&r->mu);
  if (ok) {
    TF_Tensor* k = mt_ctx_alloc(ctx, 0, TF_STRING, NULL, 0);
    TF_Tensor* v = k ? mt_ctx_alloc(ctx, 1, TF_STRING, NULL, 0) : NULL;
    if (v) {
      set_string(k, 0, rec.key, rec.key_len);
      set_string(v, 0, rec.value, rec.value_len);
    }
  }
  record_clear(&rec);
}

/* ReaderReadUpToV2: up to num_records records, fewer when the file in
 * progress ends or the queue closes after at least one (TensorFlow's
 * ReadUpTo). */
static void reader_read_up_to_kernel(mt_kernel_ctx* ctx) {
  mt_reader* r = input_reader(ctx);
  if (!r) return;
  const TF_Tensor* nt = ctx->inputs[2];
  if (nt->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "num_records must be a scalar");
    return;
  }
  const int64_t want = *(const int64_t*)mt_tensor_data(nt);
  if (want <= 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "num_records (%lld) must be > 0",
                   (long long)want);
    return;
  }
  record* recs = mt_calloc((size_t)want, sizeof(record), ctx->status);
  if (!recs) return;
  int64_t got = 0;
  pthread_mutex_lock(&r->mu);
  while (got < want) {
    if (got > 0 && r->work_finished >= r->work_started) break; /* a file ended the batch */
    const int rc = next_record(ctx, r, ctx->inputs[1], &recs[got], got > 0);
    if (rc != 1) break;
    got++;
  }
  pthread_mutex_unlock(&r->mu);
  if (got > 0 && ctx->status->code == TF_OUT_OF_RANGE) mt_status_setf(ctx->status, TF_OK, "%s", "");
  if (mt_ok(ctx->status)) {
    TF_Tensor* k = mt_ctx_alloc(ctx, 0, TF_STRING, &got, 1);
    TF_Tensor* v = k ? mt_ctx_alloc(ctx, 1, TF_STRING, &got, 1) : NULL;
    for (int64_t i = 0; v && i < got; i++) {
      set_string(k, i, recs[i].key, recs[i].key_len);
      set_string(v, i, recs[i].value, recs[i].value_len);
    }
  }
  for (int64_t i = 0; i < want; i++) record_clear(&recs[i]);
  free(recs);
}

/* Output 0 = the reader's count of records produced (records != 0) or of
 * work items finished. */
static void int64_out(mt_kernel_ctx* ctx, int records) {
  mt_reader* r = input_reader(ctx);
  if (!r) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_INT64, NULL, 0);
  if (!out) return;
  pthread_mutex_lock(&r->mu);
  *(int64_t*)mt_tensor_data(out) = records ? r->records_produced : r->work_finished;
  pthread_mutex_unlock(&r->mu);
}

static void num_records_kernel(mt_kernel_ctx* ctx) {
  int64_out(ctx, 1);
}

static void num_work_units_kernel(mt_kernel_ctx* ctx) {
  int64_out(ctx, 0);
}

static void reader_reset_kernel(mt_kernel_ctx* ctx) {
  mt_reader* r = input_reader(ctx);
  if (!r) return;
  pthread_mutex_lock(&r->mu);
  close_work(r);
  r->work_started = r->work_finished = r->records_produced = 0;
  r->line_number = r->record_number = 0;
  pthread_mutex_unlock(&r->mu);
}

/* ReaderBaseState (TensorFlow's reader_base.proto, proto3): work_started = 1,
 * work_finished = 2, num_records_produced = 3 (varints), current_work = 4 (bytes). */
static size_t put_varint(unsigned char* p, uint64_t v) {
  size_t n = 0;
  do {
    p[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v);
  return n;
}

static size_t encode_state(const mt_reader* r, unsigned char* out) {
  size_t n = 0;
  const int64_t nums[3] = {r->work_started, r->work_finished, r->records_produced};
  for (int f = 0; f < 3; f++)
    if (nums[f]) {
      out[n++] = (unsigned char)((f + 1) << 3);
      n += put_varint(out + n, (uint64_t)nums[f]);
    }
  const size_t wl = r->work ? strlen(r->work) : 0;
  if (wl) {
    out[n++] = (4 << 3) | 2;
    n += put_varint(out + n, wl);
    memcpy(out + n, r->work, wl);
    n += wl;
  }
  return n;
}

static int get_varint(const unsigned char* p, size_t len, size_t* i, uint64_t* v) {
  *v = 0;
  for (int shift = 0; *i < len && shift < 64; shift += 7) {
    const unsigned char b = p[(*i)++];
    *v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) return 1;
  }
  return 0;
}

/* Parses a ReaderBaseState into nums[3] and the work item; 0 when malformed. */
static int decode_state(const unsigned char* p, size_t len, int64_t* nums, char** work) {
  for (size_t i = 0; i < len;) {
    uint64_t tag, v;
    if (!get_varint(p, len, &i, &tag)) return 0;
    if ((tag >> 3) >= 1 && (tag >> 3) <= 3 && (tag & 7) == 0) {
      if (!get_varint(p, len, &i, &v)) return 0;
      nums[(tag >> 3) - 1] = (int64_t)v;
    } else if (tag == ((4 << 3) | 2)) {
      if (!get_varint(p, len, &i, &v) || v > len - i) return 0;
      free(*work);
      *work = strndup((const char*)p + i, (size_t)v);
      i += (size_t)v;
    } else {
      return 0;
    }
  }
  return 1;
}

/* Only the identity and whole-file readers have a state in TensorFlow (the others say
 * "Reader SerializeState" / "Reader RestoreState", Unimplemented). */
static void serialize_state_kernel(mt_kernel_ctx* ctx) {
  mt_reader* r = input_reader(ctx);
  if (!r) return;
  if (r->kind != R_IDENTITY && r->kind != R_WHOLE_FILE) {
    mt_status_setf(ctx->status, TF_UNIMPLEMENTED, "Reader SerializeState");
    return;
  }
  pthread_mutex_lock(&r->mu);
  unsigned char* buf = malloc(40 + (r->work ? strlen(r->work) : 0));
  const size_t n = buf ? encode_state(r, buf) : 0;
  pthread_mutex_unlock(&r->mu);
  TF_Tensor* out = buf ? mt_ctx_alloc(ctx, 0, TF_STRING, NULL, 0) : NULL;
  if (out) set_string(out, 0, (const char*)buf, n);
  if (!buf) mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM serializing a reader");
  free(buf);
}

static void restore_state_kernel(mt_kernel_ctx* ctx) {
  mt_reader* r = input_reader(ctx);
  if (!r) return;
  if (r->kind != R_IDENTITY && r->kind != R_WHOLE_FILE) {
    mt_status_setf(ctx->status, TF_UNIMPLEMENTED, "Reader RestoreState");
    return;
  }
  const TF_Tensor* t = ctx->inputs[1];
  if (t->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Reader state must be scalar");
    return;
  }
  const TF_TString* ts = mt_tensor_data(t);
  const unsigned char* p = (const unsigned char*)TF_StringGetDataPointer(ts);
  const size_t len = TF_StringGetSize(ts);
  int64_t nums[3] = {0, 0, 0};
  char* work = NULL;
  if (!decode_state(p, len, nums, &work) || nums[0] < 0 || nums[1] < 0 || nums[2] < 0) {
    char esc[256];
    size_t o = 0;
    for (size_t i = 0; i < len && o + 5 < sizeof esc; i++)
      o += (size_t)snprintf(esc + o, sizeof esc - o, p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\'
                                                          ? "%c" : "\\%03o", p[i]);
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Could not parse state for %s: %s",
                   r->name, esc);
    free(work);
    return;
  }
  pthread_mutex_lock(&r->mu);
  close_work(r);
  r->work = work;
  r->work_started = nums[0];
  r->work_finished = nums[1];
  r->records_produced = nums[2];
  pthread_mutex_unlock(&r->mu);
}

static void scalar_shape(mt_shape_ctx* ctx) {
  for (int i = 0; i < ctx->noutputs; i++) ctx->out[i] = mt_shape_scalar();
}

static void handle_input_shape(mt_shape_ctx* ctx) {
  if (mt_shape_with_rank(ctx, 0, 0)) scalar_shape(ctx);
}

static void read_shape(mt_shape_ctx* ctx) {
  if (mt_shape_with_rank(ctx, 0, 0) && mt_shape_with_rank(ctx, 1, 0)) scalar_shape(ctx);
}

static void read_up_to_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 0) || !mt_shape_with_rank(ctx, 1, 0) ||
      !mt_shape_with_rank(ctx, 2, 0))
    return;
  const int64_t unknown = -1;
  ctx->out[0] = ctx->out[1] = mt_shape_make(&unknown, 1);
}

#define SHARED_ATTRS "container: string = ''; shared_name: string = ''"

static const mt_op_spec reader_specs[] = {
    {.name = "WholeFileReaderV2", .outputs = "reader_handle: resource", .attrs = SHARED_ATTRS,
     .shape = scalar_shape, .kernel = whole_file_reader_kernel, .flags = MT_OP_STATEFUL},
    {.name = "TextLineReaderV2", .outputs = "reader_handle: resource",
     .attrs = "skip_header_lines: int = 0; " SHARED_ATTRS, .shape = scalar_shape,
     .kernel = text_line_reader_kernel, .flags = MT_OP_STATEFUL},
    {.name = "FixedLengthRecordReaderV2", .outputs = "reader_handle: resource",
     .attrs = "header_bytes: int = 0; record_bytes: int; footer_bytes: int = 0; "
              "hop_bytes: int = 0; " SHARED_ATTRS "; encoding: string = ''",
     .shape = scalar_shape, .kernel = fixed_length_reader_kernel, .flags = MT_OP_STATEFUL},
    {.name = "IdentityReaderV2", .outputs = "reader_handle: resource", .attrs = SHARED_ATTRS,
     .shape = scalar_shape, .kernel = identity_reader_kernel, .flags = MT_OP_STATEFUL},
    {.name = "ReaderReadV2", .inputs = "reader_handle: resource, queue_handle: resource",
     .outputs = "key: string, value: string", .shape = read_shape, .kernel = reader_read_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "ReaderReadUpToV2",
     .inputs = "reader_handle: resource, queue_handle: resource, num_records: int64",
     .outputs = "keys: string, values: string", .shape = read_up_to_shape,
     .kernel = reader_read_up_to_kernel, .flags = MT_OP_STATEFUL},
    {.name = "ReaderNumRecordsProducedV2", .inputs = "reader_handle: resource",
     .outputs = "records_produced: int64", .shape = handle_input_shape,
     .kernel = num_records_kernel, .flags = MT_OP_STATEFUL},
    {.name = "ReaderNumWorkUnitsCompletedV2", .inputs = "reader_handle: resource",
     .outputs = "units_completed: int64", .shape = handle_input_shape,
     .kernel = num_work_units_kernel, .flags = MT_OP_STATEFUL},
    {.name = "ReaderSerializeStateV2", .inputs = "reader_handle: resource",
     .outputs = "state: string", .shape = handle_input_shape, .kernel = serialize_state_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "ReaderRestoreStateV2", .inputs = "reader_handle: resource, state: string",
     .kernel = restore_state_kernel, .flags = MT_OP_STATEFUL},
    {.name = "ReaderResetV2", .inputs = "reader_handle: resource", .kernel = reader_reset_kernel,
     .flags = MT_OP_STATEFUL},
};

void mt_register_reader_ops(void) {
  mt_register_ops(reader_specs, (int)(sizeof reader_specs / sizeof reader_specs[0]));
}
