/* Protocol-buffer wire format reader and writer (see proto.h). */
#include "runtime/proto.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* This file uses only the public TF_SetStatus (not the runtime's helpers) so
 * that tests can compile it in directly and reach the hidden functions. */
static int bad(TF_Status* s, const char* what, const char* why) {
  char msg[256];
  snprintf(msg, sizeof msg, "Malformed %s proto: %s", what ? what : "", why);
  TF_SetStatus(s, TF_INVALID_ARGUMENT, msg);
  return -1;
}

int mt_pb_read_varint(const uint8_t** p, const uint8_t* end, uint64_t* out) {
  uint64_t v = 0;
  const uint8_t* q = *p;
  for (int shift = 0; shift < 70; shift += 7) {
    if (q >= end) return 0;
    uint8_t b = *q++;
    v |= (uint64_t)(b & 0x7f) << (shift < 64 ? shift : 63);
    if (!(b & 0x80)) {
      *p = q;
      *out = v;
      return 1;
    }
  }
  return 0; /* more than 10 bytes */
}

static int read_fixed(const uint8_t** p, const uint8_t* end, int nbytes, uint64_t* out) {
  if (end - *p < nbytes) return 0;
  uint64_t v = 0;
  for (int i = 0; i < nbytes; i++) v |= (uint64_t)(*p)[i] << (8 * i);
  *p += nbytes;
  *out = v;
  return 1;
}

/* Reads the payload of a field whose tag is already consumed. Groups are
 * skipped recursively (depth-limited) until their matching end tag. */
static int read_payload(const uint8_t** p, const uint8_t* end, uint32_t num, int wire,
                        int depth, mt_pb_field* f, const char* what, TF_Status* s) {
  uint64_t v = 0;
  switch (wire) {
    case MT_PB_VARINT:
      if (!mt_pb_read_varint(p, end, &v)) return bad(s, what, "truncated varint");
      f->v = v;
      return 1;
    case MT_PB_FIXED64:
      if (!read_fixed(p, end, 8, &v)) return bad(s, what, "truncated fixed64");
      f->v = v;
      return 1;
    case MT_PB_FIXED32:
      if (!read_fixed(p, end, 4, &v)) return bad(s, what, "truncated fixed32");
      f->v = v;
      return 1;
    case MT_PB_LEN:
      if (!mt_pb_read_varint(p, end, &v)) return bad(s, what, "truncated length");
      if (v > (uint64_t)(end - *p)) return bad(s, what, "field length exceeds the input");
      f->data = *p;
      f->len = (size_t)v;
      *p += v;
      return 1;
    case MT_PB_SGROUP: {
      if (depth >= MT_PB_MAX_DEPTH) return bad(s, what, "nesting too deep");
      for (;;) {
        uint64_t tag;
        if (!mt_pb_read_varint(p, end, &tag)) return bad(s, what, "unterminated group");
        uint32_t n = (uint32_t)(tag >> 3);
        int w = (int)(tag & 7);
        if (tag >> 32 || n == 0) return bad(s, what, "bad field number");
        if (w == MT_PB_EGROUP) {
          if (n != num) return bad(s, what, "mismatched end group");
          return 1;
        }
        mt_pb_field inner;
        if (read_payload(p, end, n, w, depth + 1, &inner, what, s) < 0) return -1;
      }
    }
    default:
      return bad(s, what, "bad wire type");
  }
}

int mt_pb_next(mt_pb_reader* r, mt_pb_field* f, const char* what, TF_Status* s) {
  for (;;) {
    if (r->p >= r->end) return 0;
    uint64_t tag;
    if (!mt_pb_read_varint(&r->p, r->end, &tag)) return bad(s, what, "truncated tag");
    uint32_t num = (uint32_t)(tag >> 3);
    int wire = (int)(tag & 7);
    if (tag >> 32 || num == 0) return bad(s, what, "bad field number");
    if (wire == MT_PB_EGROUP) return bad(s, what, "unexpected end group");
    memset(f, 0, sizeof *f);
    f->num = num;
    f->wire = wire;
    if (read_payload(&r->p, r->end, num, wire, r->depth, f, what, s) < 0) return -1;
    if (wire != MT_PB_SGROUP) return 1; /* groups are skipped: read on */
  }
}

int mt_pb_sub(const mt_pb_reader* parent, const mt_pb_field* f, mt_pb_reader* sub,
              const char* what, TF_Status* s) {
  if (f->wire != MT_PB_LEN) return bad(s, what, "sub-message with wrong wire type") + 1;
  if (parent->depth + 1 > MT_PB_MAX_DEPTH) return bad(s, what, "nesting too deep") + 1;
  *sub = mt_pb_reader_make(f->data, f->len, parent->depth + 1);
  return 1;
}

int mt_pb_expect(const mt_pb_field* f, int wire, const char* what, TF_Status* s) {
  if (f->wire == wire) return 1;
  char msg[256];
  snprintf(msg, sizeof msg, "Malformed %s proto: field %u has wire type %d, want %d", what,
           f->num, f->wire, wire);
  TF_SetStatus(s, TF_INVALID_ARGUMENT, msg);
  return 0;
}

static int elem_size(int elem_wire) {
  return elem_wire == MT_PB_FIXED32 ? 4 : elem_wire == MT_PB_FIXED64 ? 8 : 0;
}

int64_t mt_pb_count_repeated(const mt_pb_field* f, int elem_wire, const char* what,
                             TF_Status* s) {
  if (f->wire == elem_wire) return 1;
  if (f->wire != MT_PB_LEN) {
    mt_pb_expect(f, elem_wire, what, s);
    return -1;
  }
  int sz = elem_size(elem_wire);
  if (sz) {
    if (f->len % (size_t)sz) return bad(s, what, "packed field length not a multiple of the element size");
    return (int64_t)(f->len / (size_t)sz);
  }
  /* Varints: count bytes without the continuation bit; validate as we go. */
  const uint8_t* p = f->data;
  const uint8_t* end = p + f->len;
  int64_t n = 0;
  while (p < end) {
    uint64_t v;
    if (!mt_pb_read_varint(&p, end, &v)) return bad(s, what, "truncated packed varint");
    n++;
  }
  return n;
}

int mt_pb_each_repeated(const mt_pb_field* f, int elem_wire,
                        void (*fn)(uint64_t raw, void* arg), void* arg, const char* what,
                        TF_Status* s) {
  if (f->wire == elem_wire) {
    fn(f->v, arg);
    return 1;
  }
  if (mt_pb_count_repeated(f, elem_wire, what, s) < 0) return 0;
  const uint8_t* p = f->data;
  const uint8_t* end = p + f->len;
  int sz = elem_size(elem_wire);
  while (p < end) {
    uint64_t v;
    int ok = sz ? read_fixed(&p, end, sz, &v) : mt_pb_read_varint(&p, end, &v);
    if (!ok) return bad(s, what, "truncated packed field") + 1;
    fn(v, arg);
  }
  return 1;
}

char* mt_pb_strdup(const mt_pb_field* f, const char* what, TF_Status* s) {
  if (!mt_pb_expect(f, MT_PB_LEN, what, s)) return NULL;
  char* out = malloc(f->len + 1);
  if (!out) {
    TF_SetStatus(s, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  if (f->len) memcpy(out, f->data, f->len);
  out[f->len] = 0;
  return out;
}

/* ------------------------------------------------------------------------ */
/* Writer */

void mt_pb_writer_free(mt_pb_writer* w) {
  free(w->data);
  w->data = NULL;
  w->len = w->cap = 0;
}

uint8_t* mt_pb_writer_take(mt_pb_writer* w, size_t* len) {
  uint8_t* d = w->data;
  *len = w->len;
  w->data = NULL;
  w->len = w->cap = 0;
  return d;
}

static int reserve(mt_pb_writer* w, size_t n) {
  if (w->failed) return 0;
  if (w->cap - w->len >= n) return 1;
  size_t cap = w->cap ? w->cap : 64;
  while (cap - w->len < n) {
    if (cap > SIZE_MAX / 2) {
      w->failed = 1;
      return 0;
    }
    cap *= 2;
  }
  uint8_t* d = realloc(w->data, cap);
  if (!d) {
    w->failed = 1;
    return 0;
  }
  w->data = d;
  w->cap = cap;
  return 1;
}

void mt_pb_put_raw(mt_pb_writer* w, const void* data, size_t n) {
  if (!n || !reserve(w, n)) return;
  memcpy(w->data + w->len, data, n);
  w->len += n;
}

void mt_pb_put_varint(mt_pb_writer* w, uint64_t v) {
  uint8_t b[10];
  size_t n = 0;
  do {
    b[n] = (uint8_t)(v & 0x7f);
    v >>= 7;
    if (v) b[n] |= 0x80;
    n++;
  } while (v);
  mt_pb_put_raw(w, b, n);
}

void mt_pb_put_tag(mt_pb_writer* w, uint32_t num, int wire) {
  mt_pb_put_varint(w, ((uint64_t)num << 3) | (uint64_t)wire);
}

void mt_pb_put_uint64_field(mt_pb_writer* w, uint32_t num, uint64_t v) {
  mt_pb_put_tag(w, num, MT_PB_VARINT);
  mt_pb_put_varint(w, v);
}

void mt_pb_put_int64_field(mt_pb_writer* w, uint32_t num, int64_t v) {
  mt_pb_put_uint64_field(w, num, (uint64_t)v);
}

void mt_pb_put_bool_field(mt_pb_writer* w, uint32_t num, int v) {
  mt_pb_put_uint64_field(w, num, v ? 1 : 0);
}

static void put_le(mt_pb_writer* w, uint64_t v, int nbytes) {
  uint8_t b[8];
  for (int i = 0; i < nbytes; i++) b[i] = (uint8_t)(v >> (8 * i));
  mt_pb_put_raw(w, b, (size_t)nbytes);
}

void mt_pb_put_fixed32_field(mt_pb_writer* w, uint32_t num, uint32_t v) {
  mt_pb_put_tag(w, num, MT_PB_FIXED32);
  put_le(w, v, 4);
}

void mt_pb_put_fixed64_field(mt_pb_writer* w, uint32_t num, uint64_t v) {
  mt_pb_put_tag(w, num, MT_PB_FIXED64);
  put_le(w, v, 8);
}

void mt_pb_put_float_field(mt_pb_writer* w, uint32_t num, float v) {
  union { float f; uint32_t u; } c;
  c.f = v;
  mt_pb_put_fixed32_field(w, num, c.u);
}

void mt_pb_put_double_field(mt_pb_writer* w, uint32_t num, double v) {
  union { double d; uint64_t u; } c;
  c.d = v;
  mt_pb_put_fixed64_field(w, num, c.u);
}

void mt_pb_put_bytes_field(mt_pb_writer* w, uint32_t num, const void* data, size_t n) {
  mt_pb_put_tag(w, num, MT_PB_LEN);
  mt_pb_put_varint(w, n);
  mt_pb_put_raw(w, data, n);
}

void mt_pb_put_string_field(mt_pb_writer* w, uint32_t num, const char* str) {
  mt_pb_put_bytes_field(w, num, str, strlen(str));
}

void mt_pb_put_message(mt_pb_writer* w, uint32_t num, mt_pb_writer* sub) {
  if (sub->failed) w->failed = 1;
  mt_pb_put_bytes_field(w, num, sub->data, sub->len);
  mt_pb_writer_free(sub);
}

void mt_pb_put_packed_int64(mt_pb_writer* w, uint32_t num, const int64_t* v, size_t n) {
  if (!n) return;
  mt_pb_writer sub = mt_pb_writer_make();
  for (size_t i = 0; i < n; i++) mt_pb_put_varint(&sub, (uint64_t)v[i]);
  mt_pb_put_message(w, num, &sub);
}

void mt_pb_put_packed_float(mt_pb_writer* w, uint32_t num, const float* v, size_t n) {
  if (!n) return;
  mt_pb_put_tag(w, num, MT_PB_LEN);
  mt_pb_put_varint(w, (uint64_t)n * 4);
  for (size_t i = 0; i < n; i++) {
    union { float f; uint32_t u; } c;
    c.f = v[i];
    put_le(w, c.u, 4);
  }
}
