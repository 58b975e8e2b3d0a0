/* TFRecord reader and writer (see record_io.h). Compression is zlib's; the
 * writer drives deflate with TensorFlow's buffer sizes and flush points, which
 * is what makes the compressed bytes equal TensorFlow's. */
#include "runtime/record_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "runtime/crc32c.h"

enum { DEFAULT_BUFFER = 256 << 10, MAX_GROWTH = 16 << 20 };

int mt_record_compression_parse(const char* s, mt_record_compression* out, TF_Status* status) {
  if (!s || !*s) {
    *out = MT_RECORD_NONE;
  } else if (!strcmp(s, "ZLIB")) {
    *out = MT_RECORD_ZLIB;
  } else if (!strcmp(s, "GZIP")) {
    *out = MT_RECORD_GZIP;
  } else {
    mt_status_setf(status, TF_INVALID_ARGUMENT, "Unsupported compression_type: %s", s);
    return 0;
  }
  return 1;
}

void mt_zlib_options_default(mt_record_compression c, mt_zlib_options* o) {
  o->flush_mode = Z_NO_FLUSH;
  o->input_buffer_size = DEFAULT_BUFFER;
  o->output_buffer_size = DEFAULT_BUFFER;
  o->window_bits = c == MT_RECORD_GZIP ? MAX_WBITS + 16 : MAX_WBITS;
  o->compression_level = Z_DEFAULT_COMPRESSION;
  o->compression_method = Z_DEFLATED;
  o->mem_level = 9;
  o->compression_strategy = Z_DEFAULT_STRATEGY;
}

static void put_le32(unsigned char* p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get_le32(const unsigned char* p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void mt_record_header(size_t len, unsigned char out[MT_RECORD_HEADER_SIZE]) {
  uint64_t n = len;
  for (int i = 0; i < 8; i++) out[i] = (unsigned char)(n >> (8 * i));
  put_le32(out + 8, mt_crc32c_mask(mt_crc32c(out, 8)));
}

void mt_record_footer(const void* data, size_t len, unsigned char out[MT_RECORD_FOOTER_SIZE]) {
  put_le32(out, mt_crc32c_mask(mt_crc32c(data, len)));
}

static void set_errno_status(TF_Status* s, int err, const char* path) {
  mt_status_setf(s, mt_errno_code(err), "%s; %s", path, strerror(err));
}

/* ================================================================ reader */

struct mt_record_reader {
  char* path;
  int fd;
  mt_record_compression comp;
  uint64_t file_size;  /* for NONE: bounds a record length before allocating */
  unsigned char* in;   /* file bytes read ahead */
  size_t in_cap, in_pos, in_len;
  z_stream z;
  int z_ready, z_end;
  uint64_t pos;        /* bytes of the record stream consumed */
  uint64_t offset;     /* start of the next record */
  unsigned char* rec;
  size_t rec_cap;
};

/* Refills r->in from the file; returns bytes read (0 at end), -1 on error. */
static ssize_t refill(mt_record_reader* r, TF_Status* s) {
  ssize_t got;
  do got = read(r->fd, r->in, r->in_cap);
  while (got < 0 && errno == EINTR);
  if (got < 0) {
    set_errno_status(s, errno, r->path);
    return -1;
  }
  r->in_pos = 0;
  r->in_len = (size_t)got;
  return got;
}

static int inflate_start(mt_record_reader* r, TF_Status* s) {
  memset(&r->z, 0, sizeof(r->z));
  int bits = r->comp == MT_RECORD_GZIP ? MAX_WBITS + 16 : MAX_WBITS;
  if (inflateInit2(&r->z, bits) != Z_OK) {
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "inflateInit failed for %s", r->path);
    return 0;
  }
  r->z_ready = 1;
  r->z_end = 0;
  return 1;
}

/* Reads up to n bytes of the record stream into dst (fewer only at its
 * end). Returns the count, or -1 with s set. */
static ssize_t stream_read(mt_record_reader* r, unsigned char* dst, size_t n, TF_Status* s) {
  size_t done = 0;
  while (done < n) {
    if (r->in_pos == r->in_len && !(r->comp != MT_RECORD_NONE && r->z_end)) {
      ssize_t got = refill(r, s);
      if (got < 0) return -1;
      if (got == 0) break;
    }
    if (r->comp == MT_RECORD_NONE) {
      size_t k = r->in_len - r->in_pos;
      if (k > n - done) k = n - done;
      memcpy(dst + done, r->in + r->in_pos, k);
      r->in_pos += k;
      done += k;
      continue;
    }
    if (r->z_end) break;
    r->z.next_in = r->in + r->in_pos;
    r->z.avail_in = (uInt)(r->in_len - r->in_pos);
    r->z.next_out = dst + done;
    r->z.avail_out = (uInt)(n - done > (1u << 30) ? (1u << 30) : n - done);
    uInt before = r->z.avail_out;
    int rc = inflate(&r->z, Z_NO_FLUSH);
    done += before - r->z.avail_out;
    r->in_pos = r->in_len - r->z.avail_in;
    if (rc == Z_STREAM_END) {
      r->z_end = 1;
    } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
      mt_status_setf(s, TF_DATA_LOSS, "inflate() failed with error %d%s%s reading %s", rc,
                     r->z.msg ? ": " : "", r->z.msg ? r->z.msg : "", r->path);
      return -1;
    }
  }
  r->pos += done;
  return (ssize_t)done;
}

/* Puts the stream back at r->offset (after a failed read): reopen the
 * stream from the file's start and skip, as TensorFlow's reader does. */
static int reposition(mt_record_reader* r, TF_Status* s) {
  if (r->pos == r->offset) return 1;
  if (lseek(r->fd, 0, SEEK_SET) < 0) {
    set_errno_status(s, errno, r->path);
    return 0;
  }
  r->in_pos = r->in_len = 0;
  r->pos = 0;
  if (r->comp != MT_RECORD_NONE) {
    inflateEnd(&r->z);
    r->z_ready = 0;
    if (!inflate_start(r, s)) return 0;
  }
  unsigned char skip[4096];
  while (r->pos < r->offset) {
    uint64_t want = r->offset - r->pos;
    ssize_t got = stream_read(r, skip, want < sizeof(skip) ? (size_t)want : sizeof(skip), s);
    if (got <= 0) {
      if (got == 0)
        mt_status_setf(s, TF_DATA_LOSS, "%s shrank while being read", r->path);
      return 0;
    }
  }
  return 1;
}

mt_record_reader* mt_record_reader_open(const char* path, mt_record_compression c,
                                        size_t buffer_size, TF_Status* status) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    set_errno_status(status, errno, path);
    return NULL;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    int err = S_ISDIR(st.st_mode) ? EISDIR : errno;
    close(fd);
    set_errno_status(status, err, path);
    return NULL;
  }
  mt_record_reader* r = mt_calloc(1, sizeof(*r), status);
  if (!r) {
    close(fd);
    return NULL;
  }
  r->fd = fd;
  r->comp = c;
  r->file_size = (uint64_t)st.st_size;
  r->in_cap = buffer_size ? buffer_size : DEFAULT_BUFFER;
  r->path = mt_strdup(path);
  r->in = mt_malloc(r->in_cap, status);
  if (!r->path || !r->in || (c != MT_RECORD_NONE && !inflate_start(r, status))) {
    if (!r->path) mt_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    mt_record_reader_free(r);
    return NULL;
  }
  TF_SetStatus(status, TF_OK, "");
  return r;
}

static int grow_record(mt_record_reader* r, size_t want, TF_Status* s) {
  if (want <= r->rec_cap) return 1;
  size_t cap = r->rec_cap ? r->rec_cap : 256;
  while (cap < want) cap = cap > SIZE_MAX / 2 ? want : cap * 2;
  unsigned char* p = realloc(r->rec, cap);
  if (!p) {
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory reading a record of %s", r->path);
    return 0;
  }
  r->rec = p;
  r->rec_cap = cap;
  return 1;
}

static const char* suffix_at(uint64_t offset) {
  return offset == 0 ? " (Is this even a TFRecord file?)" : "";
}

static int truncated(mt_record_reader* r, TF_Status* s) {
  mt_status_setf(s, TF_DATA_LOSS, "truncated record at %llu%s in file %s",
                 (unsigned long long)r->offset, suffix_at(r->offset), r->path);
  return -1;
}

static int corrupted(mt_record_reader* r, uint64_t at, TF_Status* s) {
  mt_status_setf(s, TF_DATA_LOSS, "corrupted record at %llu%s in file %s",
                 (unsigned long long)at, suffix_at(at), r->path);
  return -1;
}

/* Reads the n data bytes + 4 CRC bytes of a record into r->rec, growing the
 * buffer with what arrives (a compressed stream's size is not known ahead). */
static int read_payload(mt_record_reader* r, uint64_t n, TF_Status* s) {
  uint64_t total = n + MT_RECORD_FOOTER_SIZE;
  if (r->comp == MT_RECORD_NONE && total > r->file_size - (r->pos < r->file_size ? r->pos : r->file_size))
    return truncated(r, s);
  if (total > SIZE_MAX) return truncated(r, s);
  size_t have = 0;
  while (have < total) {
    size_t step = (size_t)(total - have);
    if (r->comp != MT_RECORD_NONE && step > MAX_GROWTH) step = MAX_GROWTH;
    if (!grow_record(r, have + step, s)) return -1;
    ssize_t got = stream_read(r, r->rec + have, step, s);
    if (got < 0) return -1;
    have += (size_t)got;
    if ((size_t)got < step) return truncated(r, s);
  }
  return 1;
}

int mt_record_reader_next(mt_record_reader* r, const char** data, size_t* len,
                          TF_Status* status) {
  TF_SetStatus(status, TF_OK, "");
  if (!reposition(r, status)) return -1;
  unsigned char head[MT_RECORD_HEADER_SIZE];
  ssize_t got = stream_read(r, head, sizeof(head), status);
  if (got < 0) return -1;
  if (got == 0) return 0;
  if ((size_t)got < sizeof(head)) return truncated(r, status);
  if (mt_crc32c_unmask(get_le32(head + 8)) != mt_crc32c(head, 8))
    return corrupted(r, r->offset, status);
  uint64_t n = 0;
  for (int i = 7; i >= 0; i--) n = n << 8 | head[i];
  if (read_payload(r, n, status) < 0) return -1;
  if (mt_crc32c_unmask(get_le32(r->rec + n)) != mt_crc32c(r->rec, (size_t)n))
    return corrupted(r, r->offset + MT_RECORD_HEADER_SIZE, status);
  r->offset = r->pos;
  *data = (const char*)r->rec;
  *len = (size_t)n;
  return 1;
}

uint64_t mt_record_reader_offset(const mt_record_reader* r) { return r->offset; }

const char* mt_record_reader_path(const mt_record_reader* r) { return r->path; }

void mt_record_reader_free(mt_record_reader* r) {
  if (!r) return;
  if (r->z_ready) inflateEnd(&r->z);
  if (r->fd >= 0) close(r->fd);
  free(r->in);
  free(r->rec);
  free(r->path);
  free(r);
}

/* ================================================================ writer */

struct mt_record_writer {
  char* path;
  FILE* f;
  mt_record_compression comp;
  mt_zlib_options opt;
  z_stream z;
  int z_ready;
  unsigned char* in;  /* TensorFlow's z_stream input buffer */
  unsigned char* out; /* and its output buffer */
};

static int file_write(mt_record_writer* w, const void* p, size_t n, TF_Status* s) {
  if (n && fwrite(p, 1, n, w->f) != n) {
    set_errno_status(s, errno ? errno : EIO, w->path);
    return 0;
  }
  return 1;
}

static int out_to_file(mt_record_writer* w, TF_Status* s) {
  size_t n = (size_t)w->opt.output_buffer_size - w->z.avail_out;
  if (!file_write(w, w->out, n, s)) return 0;
  w->z.next_out = w->out;
  w->z.avail_out = (uInt)w->opt.output_buffer_size;
  return 1;
}

static int run_deflate(mt_record_writer* w, int mode, TF_Status* s) {
  int rc = deflate(&w->z, mode);
  if (rc == Z_OK || rc == Z_BUF_ERROR || (rc == Z_STREAM_END && mode == Z_FINISH)) return 1;
  mt_status_setf(s, TF_DATA_LOSS, "deflate() failed with error %d%s%s writing %s", rc,
                 w->z.msg ? ": " : "", w->z.msg ? w->z.msg : "", w->path);
  return 0;
}

/* Deflates what is in the input buffer with `mode`, writing full output
 * buffers; the input buffer is empty afterwards. */
static int deflate_buffered(mt_record_writer* w, int mode, TF_Status* s) {
  int sync = mode == Z_SYNC_FLUSH || mode == Z_FULL_FLUSH;
  do {
    /* zlib asks for more than 6 free bytes for sync/full flush markers. */
    if ((w->z.avail_out == 0 || (sync && w->z.avail_out < 6)) && !out_to_file(w, s)) return 0;
    if (!run_deflate(w, mode, s)) return 0;
  } while (w->z.avail_out == 0);
  w->z.next_in = w->in;
  return 1;
}

static void add_input(mt_record_writer* w, const void* data, size_t n) {
  size_t used = (size_t)(w->z.next_in - w->in) + w->z.avail_in;
  if (n > (size_t)w->opt.input_buffer_size - used) {
    memmove(w->in, w->z.next_in, w->z.avail_in);
    w->z.next_in = w->in;
  }
  memcpy(w->z.next_in + w->z.avail_in, data, n);
  w->z.avail_in += (uInt)n;
}

/* Buffers `data` for deflate the way TensorFlow's ZlibOutputBuffer::Append
 * does (the flush points decide the compressed bytes). */
static int deflate_append(mt_record_writer* w, const void* data, size_t n, TF_Status* s) {
  size_t space = (size_t)w->opt.input_buffer_size - w->z.avail_in;
  if (n <= space) {
    add_input(w, data, n);
    return 1;
  }
  if (!deflate_buffered(w, w->opt.flush_mode, s)) return 0;
  if (n <= (size_t)w->opt.input_buffer_size) {
    add_input(w, data, n);
    return 1;
  }
  const unsigned char* p = data;
  while (n > 0) { /* too big for the buffer: deflate it in place */
    size_t k = n > (1u << 30) ? (1u << 30) : n;
    w->z.next_in = (unsigned char*)p;
    w->z.avail_in = (uInt)k;
    do {
      if (w->z.avail_out == 0 && !out_to_file(w, s)) return 0;
      if (!run_deflate(w, w->opt.flush_mode, s)) return 0;
    } while (w->z.avail_out == 0);
    p += k;
    n -= k;
  }
  w->z.next_in = w->in;
  w->z.avail_in = 0;
  return 1;
}

static int writer_append(mt_record_writer* w, const void* data, size_t n, TF_Status* s) {
  if (w->comp == MT_RECORD_NONE) return file_write(w, data, n, s);
  return deflate_append(w, data, n, s);
}

static int deflate_start(mt_record_writer* w, TF_Status* s) {
  const mt_zlib_options* o = &w->opt;
  if (o->output_buffer_size <= 1 || o->input_buffer_size <= 0) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "output_buffer_bytes should be greater than 1");
    return 0;
  }
  w->in = mt_malloc((size_t)o->input_buffer_size, s);
  w->out = w->in ? mt_malloc((size_t)o->output_buffer_size, s) : NULL;
  if (!w->out) return 0;
  memset(&w->z, 0, sizeof(w->z));
  int rc = deflateInit2(&w->z, o->compression_level, o->compression_method, o->window_bits,
                        o->mem_level, o->compression_strategy);
  if (rc != Z_OK) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "deflateInit failed with status %d", rc);
    return 0;
  }
  w->z_ready = 1;
  w->z.next_in = w->in;
  w->z.next_out = w->out;
  w->z.avail_out = (uInt)o->output_buffer_size;
  return 1;
}

mt_record_writer* mt_record_writer_open(const char* path, mt_record_compression c,
                                        const mt_zlib_options* options, TF_Status* status) {
  mt_record_writer* w = mt_calloc(1, sizeof(*w), status);
  if (!w) return NULL;
  w->comp = c;
  if (options)
    w->opt = *options;
  else
    mt_zlib_options_default(c, &w->opt);
  w->path = mt_strdup(path);
  if (!w->path) {
    mt_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    free(w);
    return NULL;
  }
  if (c != MT_RECORD_NONE && !deflate_start(w, status)) {
    mt_record_writer_free(w);
    return NULL;
  }
  w->f = fopen(path, "wbe");
  if (!w->f) {
    set_errno_status(status, errno, path);
    mt_record_writer_free(w);
    return NULL;
  }
  TF_SetStatus(status, TF_OK, "");
  return w;
}

void mt_record_writer_write(mt_record_writer* w, const void* data, size_t len,
                            TF_Status* status) {
  TF_SetStatus(status, TF_OK, "");
  if (!w->f) {
    mt_status_setf(status, TF_FAILED_PRECONDITION, "Writer is closed.");
    return;
  }
  unsigned char head[MT_RECORD_HEADER_SIZE], foot[MT_RECORD_FOOTER_SIZE];
  mt_record_header(len, head);
  mt_record_footer(data, len, foot);
  /* Three appends, as TensorFlow's RecordWriter makes: they decide where the
   * input buffer fills, hence the compressed bytes. */
  if (writer_append(w, head, sizeof(head), status) && writer_append(w, data, len, status))
    writer_append(w, foot, sizeof(foot), status);
}

void mt_record_writer_flush(mt_record_writer* w, TF_Status* status) {
  TF_SetStatus(status, TF_OK, "");
  if (!w->f) return;
  if (w->comp != MT_RECORD_NONE &&
      !(deflate_buffered(w, Z_PARTIAL_FLUSH, status) && out_to_file(w, status)))
    return;
  if (fflush(w->f) != 0) set_errno_status(status, errno, w->path);
}

void mt_record_writer_close(mt_record_writer* w, TF_Status* status) {
  TF_SetStatus(status, TF_OK, "");
  if (!w->f) return;
  if (w->z_ready) {
    if (deflate_buffered(w, Z_FINISH, status)) out_to_file(w, status);
    deflateEnd(&w->z);
    w->z_ready = 0;
  }
  int rc = fclose(w->f);
  w->f = NULL;
  if (rc != 0 && mt_ok(status)) set_errno_status(status, errno, w->path);
}

void mt_record_writer_free(mt_record_writer* w) {
  if (!w) return;
  if (w->f) {
    TF_Status ignored = {TF_OK, NULL};
    mt_record_writer_close(w, &ignored);
    free(ignored.msg);
  }
  if (w->z_ready) deflateEnd(&w->z);
  free(w->in);
  free(w->out);
  free(w->path);
  free(w);
}
