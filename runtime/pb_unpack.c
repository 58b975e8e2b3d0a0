/* protobuf-c unpack with a nesting limit and an arena (see pb_unpack.h). */
#include "runtime/pb_unpack.h"

#include <stdint.h>
#include <stdlib.h>

#include "runtime/proto.h"
#include "runtime/status.h"

/* Chunks grow geometrically up to this size; a larger request gets a chunk of its own. */
#define FIRST_CHUNK ((size_t)16 << 10)
#define MAX_CHUNK ((size_t)1 << 20)

typedef struct mt_pb_chunk {
  struct mt_pb_chunk* next;
  size_t used, cap;
  max_align_t data[]; /* cap bytes */
} mt_pb_chunk;

static mt_pb_chunk* new_chunk(mt_pb_arena* a, size_t cap) {
  mt_pb_chunk* c = malloc(sizeof(mt_pb_chunk) + cap);
  if (!c) return NULL;
  c->used = 0;
  c->cap = cap;
  c->next = a->chunks;
  a->chunks = c;
  return c;
}

static void* arena_alloc(void* data, size_t size) {
  mt_pb_arena* a = data;
  size = (size + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
  mt_pb_chunk* c = a->chunks;
  if (!c || c->cap - c->used < size) {
    size_t cap = c ? c->cap * 2 : FIRST_CHUNK;
    if (cap > MAX_CHUNK) cap = MAX_CHUNK;
    if (size > cap / 4) { /* a big string or array: its own chunk, behind the current one */
      mt_pb_chunk* big = malloc(sizeof(mt_pb_chunk) + size);
      if (!big) goto oom;
      big->used = big->cap = size;
      if (c) {
        big->next = c->next;
        c->next = big;
      } else {
        big->next = NULL;
        a->chunks = big;
      }
      return big->data;
    }
    if (!(c = new_chunk(a, cap))) goto oom;
  }
  void* p = (char*)c->data + c->used;
  c->used += size;
  return p;
oom:
  a->failed = 1;
  return NULL;
}

static void arena_free_one(void* data, void* p) { (void)data, (void)p; }

void mt_pb_arena_init(mt_pb_arena* a) {
  a->allocator.alloc = arena_alloc;
  a->allocator.free = arena_free_one;
  a->allocator.allocator_data = a;
  a->chunks = NULL;
  a->failed = 0;
}

void mt_pb_arena_free(mt_pb_arena* a) {
  while (a->chunks) {
    mt_pb_chunk* next = a->chunks->next;
    free(a->chunks);
    a->chunks = next;
  }
  a->failed = 0;
}

/* Walks one message's fields, descending into the length-delimited fields its
 * descriptor declares as messages. Malformed wire bytes fail here with the reader's
 * message; so does nesting beyond MT_PB_MAX_DEPTH. */
static int check_nesting(const ProtobufCMessageDescriptor* d, const uint8_t* p, size_t len,
                         int depth, const char* what, TF_Status* s) {
  if (depth > MT_PB_MAX_DEPTH) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Malformed %s: messages nested deeper than %d levels", what, MT_PB_MAX_DEPTH);
    return 0;
  }
  mt_pb_reader r = mt_pb_reader_make(p, len, depth);
  mt_pb_field f;
  int rc;
  while ((rc = mt_pb_next(&r, &f, what, s)) > 0) {
    if (f.wire != MT_PB_LEN) continue;
    const ProtobufCFieldDescriptor* fd = protobuf_c_message_descriptor_get_field(d, f.num);
    if (fd && fd->type == PROTOBUF_C_TYPE_MESSAGE &&
        !check_nesting(fd->descriptor, f.data, f.len, depth + 1, what, s))
      return 0;
  }
  return rc == 0;
}

/* The message re-encoded field by field without its groups. protobuf-c 1.4 cannot skip a
 * (deprecated) group in an unknown field, which protobuf's parsers do; the wire reader
 * skips them, so writing back what it reads drops them. Only tried when unpack fails. */
static void without_groups(const ProtobufCMessageDescriptor* d, const uint8_t* p, size_t len,
                           mt_pb_writer* w) {
  mt_pb_reader r = mt_pb_reader_make(p, len, 0);
  mt_pb_field f;
  TF_Status s = {TF_OK, NULL}; /* the bytes were checked already: no errors here */
  while (mt_pb_next(&r, &f, "", &s) > 0) {
    const ProtobufCFieldDescriptor* fd = protobuf_c_message_descriptor_get_field(d, f.num);
    if (f.wire == MT_PB_LEN && fd && fd->type == PROTOBUF_C_TYPE_MESSAGE) {
      mt_pb_writer sub = mt_pb_writer_make();
      without_groups(fd->descriptor, f.data, f.len, &sub);
      mt_pb_put_message(w, f.num, &sub);
    } else if (f.wire == MT_PB_LEN) {
      mt_pb_put_bytes_field(w, f.num, f.data, f.len);
    } else if (f.wire == MT_PB_VARINT) {
      mt_pb_put_uint64_field(w, f.num, f.v);
    } else if (f.wire == MT_PB_FIXED32) {
      mt_pb_put_fixed32_field(w, f.num, (uint32_t)f.v);
    } else {
      mt_pb_put_fixed64_field(w, f.num, f.v);
    }
  }
  free(s.msg);
}

ProtobufCMessage* mt_pb_unpack(const ProtobufCMessageDescriptor* desc, const void* data,
                               size_t len, mt_pb_arena* arena, const char* what, TF_Status* s) {
  static const uint8_t empty = 0;
  if (!data) data = &empty; /* a NULL buffer of length 0 is the empty message */
  if (!check_nesting(desc, data, len, 0, what, s)) return NULL;
  ProtobufCAllocator* alloc = arena ? &arena->allocator : NULL;
  ProtobufCMessage* m = protobuf_c_message_unpack(desc, alloc, len, data);
  if (!m && !(arena && arena->failed)) { /* perhaps a group protobuf-c cannot skip */
    mt_pb_writer w = mt_pb_writer_make();
    without_groups(desc, data, len, &w);
    if (!w.failed) m = protobuf_c_message_unpack(desc, alloc, w.len, w.data);
    mt_pb_writer_free(&w);
  }
  if (m) return m;
  if (arena && arena->failed)
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory decoding a %s", what);
  else
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Malformed %s: the bytes do not decode", what);
  return NULL;
}
