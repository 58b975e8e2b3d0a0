/* TensorFlow's sorted string table: builder and whole-file reader (see
 * table.h for the format). */
#include "runtime/table.h"

#include <stdlib.h>
#include <string.h>
#include "runtime/crc32c.h"
#include "runtime/status.h"

#define TRAILER_LEN 5

static void put_fixed32(mt_pb_writer* w, uint32_t v) {
  uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
  mt_pb_put_raw(w, b, 4);
}

static uint32_t get_fixed32(const uint8_t* p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* Copies key into a growable string; returns 0 on allocation failure. */
static int set_key(char** dst, size_t* len, size_t* cap, const void* key, size_t klen) {
  if (klen + 1 > *cap) {
    size_t ncap = *cap ? *cap : 32;
    while (ncap < klen + 1) ncap *= 2;
    char* p = realloc(*dst, ncap);
    if (!p) return 0;
    *dst = p;
    *cap = ncap;
  }
  if (klen) memcpy(*dst, key, klen);
  *len = klen;
  return 1;
}

/* ---- block builder ---- */

static void block_reset(mt_block_builder* bb) {
  bb->buf.len = 0;
  bb->nrestarts = 1;
  bb->restarts[0] = 0;
  bb->counter = 0;
  bb->last_len = 0;
}

static void block_init(mt_block_builder* bb, int interval) {
  memset(bb, 0, sizeof(*bb));
  bb->interval = interval;
  bb->cap_restarts = 16;
  bb->restarts = malloc(bb->cap_restarts * sizeof(uint32_t));
  if (!bb->restarts) {
    bb->failed = 1;
    bb->cap_restarts = 0;
    return;
  }
  block_reset(bb);
}

static void block_free(mt_block_builder* bb) {
  mt_pb_writer_free(&bb->buf);
  free(bb->restarts);
  free(bb->last_key);
  memset(bb, 0, sizeof(*bb));
}

static void block_add(mt_block_builder* bb, const char* key, size_t klen, const void* val,
                      size_t vlen) {
  if (bb->failed) return;
  size_t shared = 0;
  if (bb->counter < bb->interval) {
    size_t m = klen < bb->last_len ? klen : bb->last_len;
    while (shared < m && bb->last_key[shared] == key[shared]) shared++;
  } else {
    if (bb->nrestarts == bb->cap_restarts) {
      uint32_t* p = realloc(bb->restarts, 2 * bb->cap_restarts * sizeof(uint32_t));
      if (!p) {
        bb->failed = 1;
        return;
      }
      bb->restarts = p;
      bb->cap_restarts *= 2;
    }
    bb->restarts[bb->nrestarts++] = (uint32_t)bb->buf.len;
    bb->counter = 0;
  }
  mt_pb_put_varint(&bb->buf, shared);
  mt_pb_put_varint(&bb->buf, klen - shared);
  mt_pb_put_varint(&bb->buf, vlen);
  mt_pb_put_raw(&bb->buf, key + shared, klen - shared);
  mt_pb_put_raw(&bb->buf, val, vlen);
  if (!set_key(&bb->last_key, &bb->last_len, &bb->last_cap, key, klen)) bb->failed = 1;
  bb->counter++;
}

static void block_finish(mt_block_builder* bb) {
  for (size_t i = 0; i < bb->nrestarts; i++) put_fixed32(&bb->buf, bb->restarts[i]);
  put_fixed32(&bb->buf, (uint32_t)bb->nrestarts);
}

static size_t block_estimate(const mt_block_builder* bb) {
  return bb->buf.len + bb->nrestarts * 4 + 4;
}

/* ---- table builder ---- */

void mt_table_builder_init(mt_table_builder* b, size_t block_size) {
  memset(b, 0, sizeof(*b));
  b->block_size = block_size ? block_size : MT_TABLE_BLOCK_SIZE;
  block_init(&b->data, 16);
  block_init(&b->index, 1);
}

void mt_table_builder_free(mt_table_builder* b) {
  mt_pb_writer_free(&b->out);
  block_free(&b->data);
  block_free(&b->index);
  free(b->last_key);
  memset(b, 0, sizeof(*b));
}

static void write_block(mt_table_builder* b, mt_block_builder* bb, uint64_t* off,
                        uint64_t* size) {
  block_finish(bb);
  if (bb->buf.failed) bb->failed = 1;
  *off = b->out.len;
  *size = bb->buf.len;
  mt_pb_put_raw(&b->out, bb->buf.data, bb->buf.len);
  uint8_t type = 0; /* kNoCompression */
  uint32_t crc = mt_crc32c_extend(mt_crc32c(bb->buf.data, bb->buf.len), &type, 1);
  mt_pb_put_raw(&b->out, &type, 1);
  put_fixed32(&b->out, mt_crc32c_mask(crc));
  if (bb->failed) b->failed = 1;
  block_reset(bb);
}

static void put_handle(mt_pb_writer* w, uint64_t off, uint64_t size) {
  mt_pb_put_varint(w, off);
  mt_pb_put_varint(w, size);
}

static void add_pending_index(mt_table_builder* b) {
  mt_pb_writer h = mt_pb_writer_make();
  put_handle(&h, b->pending_off, b->pending_size);
  if (h.failed) b->failed = 1;
  block_add(&b->index, b->last_key, b->last_len, h.data, h.len);
  mt_pb_writer_free(&h);
  b->pending_index = 0;
}

static void flush(mt_table_builder* b) {
  if (b->data.buf.len == 0) return;
  write_block(b, &b->data, &b->pending_off, &b->pending_size);
  b->pending_index = 1;
}

/* The shortest key in [last_key, limit): bumps the first differing byte
 * when that keeps it below limit (TensorFlow's FindShortestSeparator). */
static void shortest_separator(mt_table_builder* b, const uint8_t* limit, size_t llen) {
  uint8_t* start = (uint8_t*)b->last_key;
  size_t m = b->last_len < llen ? b->last_len : llen;
  size_t i = 0;
  while (i < m && start[i] == limit[i]) i++;
  if (i >= m) return; /* one is a prefix of the other */
  if (start[i] < 0xff && start[i] + 1 < limit[i]) {
    start[i]++;
    b->last_len = i + 1;
  }
}

/* The shortest key >= last_key (TensorFlow's FindShortSuccessor). */
static void short_successor(mt_table_builder* b) {
  uint8_t* k = (uint8_t*)b->last_key;
  for (size_t i = 0; i < b->last_len; i++) {
    if (k[i] != 0xff) {
      k[i]++;
      b->last_len = i + 1;
      return;
    }
  }
}

void mt_table_add(mt_table_builder* b, const void* key, size_t klen, const void* val,
                  size_t vlen) {
  if (b->failed) return;
  if (b->nentries > 0 && klen + vlen >= 2 * b->block_size) flush(b);
  if (b->pending_index) {
    shortest_separator(b, key, klen);
    add_pending_index(b);
  }
  if (!set_key(&b->last_key, &b->last_len, &b->last_cap, key, klen)) {
    b->failed = 1;
    return;
  }
  b->nentries++;
  block_add(&b->data, key, klen, val, vlen);
  if (b->data.failed) b->failed = 1;
  if (block_estimate(&b->data) >= b->block_size) flush(b);
}

int mt_table_finish(mt_table_builder* b, uint8_t** data, size_t* len, TF_Status* s) {
  flush(b);
  uint64_t meta_off, meta_size, index_off, index_size;
  mt_block_builder meta;
  block_init(&meta, 16);
  if (meta.failed) b->failed = 1;
  else write_block(b, &meta, &meta_off, &meta_size);
  block_free(&meta);
  if (b->pending_index) {
    short_successor(b);
    add_pending_index(b);
  }
  write_block(b, &b->index, &index_off, &index_size);
  size_t footer_start = b->out.len;
  put_handle(&b->out, meta_off, meta_size);
  put_handle(&b->out, index_off, index_size);
  static const uint8_t zeros[40] = {0};
  mt_pb_put_raw(&b->out, zeros, 40 - (b->out.len - footer_start));
  put_fixed32(&b->out, (uint32_t)(MT_TABLE_MAGIC & 0xffffffffu));
  put_fixed32(&b->out, (uint32_t)(MT_TABLE_MAGIC >> 32));
  int ok = !b->failed && !b->out.failed;
  if (ok) {
    *data = mt_pb_writer_take(&b->out, len);
  } else {
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "Out of memory while building a table");
  }
  mt_table_builder_free(b);
  return ok;
}

/* ---- snappy ---- */

static int read_le(const uint8_t** p, const uint8_t* end, int nbytes, uint32_t* out) {
  if (end - *p < nbytes) return 0;
  uint32_t v = 0;
  for (int i = 0; i < nbytes; i++) v |= (uint32_t)(*p)[i] << (8 * i);
  *p += nbytes;
  *out = v;
  return 1;
}

uint8_t* mt_snappy_uncompress(const uint8_t* in, size_t n, size_t* out_len, TF_Status* s) {
  const uint8_t* p = in;
  const uint8_t* end = in + n;
  uint64_t ulen;
  /* The longest expansion is a 64-byte copy from a 3-byte tag: a larger
   * claimed length is corrupt, so nothing unbounded is allocated. */
  if (!mt_pb_read_varint(&p, end, &ulen) || ulen > UINT32_MAX || ulen > (uint64_t)n * 22 + 64)
    goto corrupt;
  uint8_t* out = malloc(ulen ? ulen : 1);
  if (!out) {
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "Out of memory decompressing a block");
    return NULL;
  }
  size_t op = 0;
  while (p < end) {
    uint8_t tag = *p++;
    uint32_t len, off = 0;
    if ((tag & 3) == 0) {
      len = tag >> 2;
      if (len >= 60) {
        if (!read_le(&p, end, (int)len - 59, &len)) goto corrupt_free;
      }
      len += 1;
      if (len == 0 || (size_t)(end - p) < len || ulen - op < len) goto corrupt_free;
      memcpy(out + op, p, len);
      p += len;
      op += len;
      continue;
    }
    if ((tag & 3) == 1) {
      len = 4 + ((tag >> 2) & 7);
      if (p >= end) goto corrupt_free;
      off = ((uint32_t)(tag >> 5) << 8) | *p++;
    } else {
      len = (tag >> 2) + 1u;
      if (!read_le(&p, end, (tag & 3) == 2 ? 2 : 4, &off)) goto corrupt_free;
    }
    if (off == 0 || off > op || ulen - op < len) goto corrupt_free;
    for (uint32_t i = 0; i < len; i++, op++) out[op] = out[op - off]; /* may overlap */
  }
  if (op != ulen) goto corrupt_free;
  *out_len = ulen;
  return out;
corrupt_free:
  free(out);
corrupt:
  mt_status_setf(s, TF_DATA_LOSS, "corrupted compressed block contents");
  return NULL;
}

/* ---- reader ---- */

static int add_chunk(mt_table* t, uint8_t* p, TF_Status* s) {
  if (t->nchunks == t->cap_chunks) {
    size_t ncap = t->cap_chunks ? 2 * t->cap_chunks : 8;
    uint8_t** c = realloc(t->chunks, ncap * sizeof(*c));
    if (!c) {
      free(p);
      mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "Out of memory reading a table");
      return 0;
    }
    t->chunks = c;
    t->cap_chunks = ncap;
  }
  t->chunks[t->nchunks++] = p;
  return 1;
}

/* Reads the block at a handle: checks bounds and CRC, decompresses.
 * *contents points into `file` or into a new chunk of t. */
static int read_block(mt_table* t, const uint8_t* file, size_t n, uint64_t off, uint64_t size,
                      const uint8_t** contents, size_t* clen, TF_Status* s) {
  if (size > SIZE_MAX - TRAILER_LEN) {
    mt_status_setf(s, TF_DATA_LOSS, "handle.size() too big");
    return 0;
  }
  if (off > n || n - off < size + TRAILER_LEN) {
    mt_status_setf(s, TF_DATA_LOSS, "truncated block read");
    return 0;
  }
  const uint8_t* data = file + off;
  uint32_t stored = mt_crc32c_unmask(get_fixed32(data + size + 1));
  if (mt_crc32c(data, size + 1) != stored) {
    mt_status_setf(s, TF_DATA_LOSS, "block checksum mismatch");
    return 0;
  }
  if (data[size] == 0) {
    *contents = data;
    *clen = size;
    return 1;
  }
  if (data[size] != 1) {
    mt_status_setf(s, TF_DATA_LOSS, "bad block type");
    return 0;
  }
  uint8_t* u = mt_snappy_uncompress(data, size, clen, s);
  if (!u || !add_chunk(t, u, s)) return 0;
  *contents = u;
  return 1;
}

typedef struct decoded {
  mt_table_entry* e;
  size_t* key_off; /* key offsets into `keys` until the arena stops moving */
  int64_t n, cap;
  mt_pb_writer keys;
  size_t key_limit;
} decoded;

static int push_entry(decoded* d, size_t koff, size_t klen, const uint8_t* val, size_t vlen,
                      TF_Status* s) {
  if (d->n == d->cap) {
    int64_t ncap = d->cap ? 2 * d->cap : 64;
    mt_table_entry* e = realloc(d->e, (size_t)ncap * sizeof(*e));
    if (e) d->e = e;
    size_t* k = e ? realloc(d->key_off, (size_t)ncap * sizeof(*k)) : NULL;
    if (!k) {
      mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "Out of memory reading a table");
      return 0;
    }
    d->key_off = k;
    d->cap = ncap;
  }
  d->e[d->n].klen = klen;
  d->e[d->n].val = val;
  d->e[d->n].vlen = vlen;
  d->key_off[d->n] = koff;
  d->n++;
  return 1;
}

static int bad_entry(TF_Status* s) {
  mt_status_setf(s, TF_DATA_LOSS, "bad entry in block");
  return 0;
}

/* Decodes every entry of one block into d: keys to d->keys, values
 * pointing into the block. */
static int decode_block(const uint8_t* b, size_t size, decoded* d, TF_Status* s) {
  if (size < 4) {
    mt_status_setf(s, TF_DATA_LOSS, "bad block contents");
    return 0;
  }
  uint32_t nrestarts = get_fixed32(b + size - 4);
  if (nrestarts > (size - 4) / 4) {
    mt_status_setf(s, TF_DATA_LOSS, "bad block contents");
    return 0;
  }
  if (nrestarts == 0) return 1; /* TensorFlow reads such a block as empty */
  const uint8_t* p = b;
  const uint8_t* limit = b + size - (1 + (size_t)nrestarts) * 4;
  size_t prev_off = 0, prev_len = 0;
  while (p < limit) {
    uint64_t shared, unshared, vlen;
    if (!mt_pb_read_varint(&p, limit, &shared) || !mt_pb_read_varint(&p, limit, &unshared) ||
        !mt_pb_read_varint(&p, limit, &vlen) || shared > UINT32_MAX || unshared > UINT32_MAX ||
        vlen > UINT32_MAX || shared > prev_len || (uint64_t)(limit - p) < unshared + vlen)
      return bad_entry(s);
    size_t klen = (size_t)(shared + unshared);
    if (d->keys.len + klen > d->key_limit) return bad_entry(s);
    size_t koff = d->keys.len;
    /* The shared prefix comes from the previous key in the arena, which may
     * move when it grows: copy it aside first then. */
    if (shared) {
      size_t need = d->keys.len + (size_t)shared;
      if (need > d->keys.cap) {
        uint8_t tmp_small[256];
        uint8_t* tmp = shared <= sizeof tmp_small ? tmp_small : malloc((size_t)shared);
        if (!tmp) return bad_entry(s);
        memcpy(tmp, d->keys.data + prev_off, (size_t)shared);
        mt_pb_put_raw(&d->keys, tmp, (size_t)shared);
        if (tmp != tmp_small) free(tmp);
      } else {
        mt_pb_put_raw(&d->keys, d->keys.data + prev_off, (size_t)shared);
      }
    }
    mt_pb_put_raw(&d->keys, p, (size_t)unshared);
    if (d->keys.failed) {
      mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "Out of memory reading a table");
      return 0;
    }
    p += unshared;
    if (!push_entry(d, koff, klen, p, (size_t)vlen, s)) return 0;
    p += vlen;
    prev_off = koff;
    prev_len = klen;
  }
  return 1;
}

static void decoded_free(decoded* d) {
  free(d->e);
  free(d->key_off);
  mt_pb_writer_free(&d->keys);
}

static int decode_handle(const uint8_t** p, const uint8_t* end, uint64_t* off, uint64_t* size,
                         TF_Status* s) {
  if (!mt_pb_read_varint(p, end, off) || !mt_pb_read_varint(p, end, size)) {
    mt_status_setf(s, TF_DATA_LOSS, "bad block handle");
    return 0;
  }
  return 1;
}

static int cmp_keys(const uint8_t* a, size_t al, const uint8_t* b, size_t bl) {
  size_t m = al < bl ? al : bl;
  int c = m ? memcmp(a, b, m) : 0;
  if (c) return c;
  return al < bl ? -1 : al > bl;
}

static int read_data_blocks(mt_table* t, const uint8_t* file, size_t n, const decoded* index,
                            decoded* d, TF_Status* s) {
  for (int64_t i = 0; i < index->n; i++) {
    const uint8_t* hp = index->e[i].val;
    uint64_t off, size;
    if (!decode_handle(&hp, hp + index->e[i].vlen, &off, &size, s)) return 0;
    const uint8_t* contents;
    size_t clen;
    if (!read_block(t, file, n, off, size, &contents, &clen, s)) return 0;
    if (!decode_block(contents, clen, d, s)) return 0;
  }
  return 1;
}

int mt_table_open(const uint8_t* file_in, size_t n, mt_table* t, TF_Status* s) {
  /* Values point into a private copy of the file, owned by the table. */
  uint8_t* file = malloc(n ? n : 1);
  if (!file) {
    memset(t, 0, sizeof(*t));
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "Out of memory reading a table");
    return 0;
  }
  memcpy(file, file_in, n);
  return mt_table_open_owned(file, n, t, s);
}

int mt_table_open_owned(uint8_t* file, size_t n, mt_table* t, TF_Status* s) {
  memset(t, 0, sizeof(*t));
  if (!add_chunk(t, file, s)) return 0; /* it frees file */
  const uint8_t* file_in = file;
  if (n < MT_TABLE_FOOTER_LEN) {
    mt_status_setf(s, TF_DATA_LOSS, "file is too short to be an sstable");
    mt_table_free(t);
    return 0;
  }
  const uint8_t* foot = file_in + n - MT_TABLE_FOOTER_LEN;
  uint64_t magic = get_fixed32(foot + 40) | ((uint64_t)get_fixed32(foot + 44) << 32);
  if (magic != MT_TABLE_MAGIC) {
    mt_status_setf(s, TF_DATA_LOSS, "not an sstable (bad magic number)");
    mt_table_free(t);
    return 0;
  }
  uint64_t meta_off, meta_size, index_off, index_size;
  const uint8_t* hp = foot;
  if (!decode_handle(&hp, foot + 40, &meta_off, &meta_size, s) ||
      !decode_handle(&hp, foot + 40, &index_off, &index_size, s)) {
    mt_table_free(t);
    return 0;
  }
  decoded index = {0}, d = {0};
  index.key_limit = d.key_limit = 256 * n + ((size_t)1 << 24);
  const uint8_t* contents;
  size_t clen;
  /* The metaindex block is empty in every file TensorFlow writes and it
   * reads nothing from it, but its checksum is still checked: a flipped bit
   * anywhere in a block is data loss. */
  int ok = read_block(t, file, n, meta_off, meta_size, &contents, &clen, s) &&
           read_block(t, file, n, index_off, index_size, &contents, &clen, s) &&
           decode_block(contents, clen, &index, s) &&
           read_data_blocks(t, file, n, &index, &d, s);
  decoded_free(&index);
  if (ok) {
    uint8_t* keys = mt_pb_writer_take(&d.keys, &clen);
    if (keys && !add_chunk(t, keys, s)) keys = NULL, ok = 0;
    for (int64_t i = 0; ok && i < d.n; i++) {
      d.e[i].key = keys ? keys + d.key_off[i] : (const uint8_t*)"";
      if (i > 0 && cmp_keys(d.e[i - 1].key, d.e[i - 1].klen, d.e[i].key, d.e[i].klen) >= 0) {
        mt_status_setf(s, TF_DATA_LOSS, "keys out of order in table");
        ok = 0;
      }
    }
  }
  if (ok) {
    t->entries = d.e;
    t->n = d.n;
    d.e = NULL;
  }
  decoded_free(&d);
  if (!ok) mt_table_free(t);
  return ok;
}

void mt_table_free(mt_table* t) {
  for (size_t i = 0; i < t->nchunks; i++) free(t->chunks[i]);
  free(t->chunks);
  free(t->entries);
  memset(t, 0, sizeof(*t));
}

int64_t mt_table_seek(const mt_table* t, const void* key, size_t klen) {
  int64_t lo = 0, hi = t->n;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (cmp_keys(t->entries[mid].key, t->entries[mid].klen, key, klen) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const mt_table_entry* mt_table_get(const mt_table* t, const void* key, size_t klen) {
  int64_t i = mt_table_seek(t, key, klen);
  if (i < t->n && cmp_keys(t->entries[i].key, t->entries[i].klen, key, klen) == 0)
    return &t->entries[i];
  return NULL;
}
