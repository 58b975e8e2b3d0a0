/* Map-order-independent comparison of protobuf-c messages (see pb_canon.h). */
#include "runtime/pb_canon.h"

#include <stdlib.h>
#include <string.h>

static int is_map_entry(const ProtobufCMessageDescriptor* d) {
  size_t n = strlen(d->short_name);
  return d->n_fields == 2 && d->fields[0].id == 1 && d->fields[1].id == 2 && n > 5 &&
         strcmp(d->short_name + n - 5, "Entry") == 0;
}

/* The key of a map entry, read as a string or as a signed or unsigned integer. */
typedef struct map_key {
  const char* str;
  int64_t i;
  uint64_t u;
} map_key;

static map_key key_of(const ProtobufCMessage* e) {
  const ProtobufCFieldDescriptor* f = &e->descriptor->fields[0];
  const char* at = (const char*)e + f->offset;
  map_key k = {NULL, 0, 0};
  switch (f->type) {
    case PROTOBUF_C_TYPE_STRING: k.str = *(const char* const*)at; break;
    case PROTOBUF_C_TYPE_INT32: case PROTOBUF_C_TYPE_SINT32: case PROTOBUF_C_TYPE_SFIXED32:
      k.i = *(const int32_t*)at; break;
    case PROTOBUF_C_TYPE_INT64: case PROTOBUF_C_TYPE_SINT64: case PROTOBUF_C_TYPE_SFIXED64:
      k.i = *(const int64_t*)at; break;
    case PROTOBUF_C_TYPE_UINT32: case PROTOBUF_C_TYPE_FIXED32: k.u = *(const uint32_t*)at; break;
    case PROTOBUF_C_TYPE_BOOL: k.u = (uint64_t)*(const protobuf_c_boolean*)at; break;
    default: k.u = *(const uint64_t*)at; break;
  }
  return k;
}

static int cmp_entries(const void* pa, const void* pb) {
  map_key a = key_of(*(ProtobufCMessage* const*)pa), b = key_of(*(ProtobufCMessage* const*)pb);
  if (a.str || b.str) return strcmp(a.str ? a.str : "", b.str ? b.str : "");
  if (a.i != b.i) return a.i < b.i ? -1 : 1;
  return a.u < b.u ? -1 : a.u > b.u;
}

void mt_pb_sort_maps(ProtobufCMessage* m) {
  const ProtobufCMessageDescriptor* d = m->descriptor;
  for (unsigned k = 0; k < d->n_fields; k++) {
    const ProtobufCFieldDescriptor* f = &d->fields[k];
    if (f->type != PROTOBUF_C_TYPE_MESSAGE) continue;
    char* at = (char*)m + f->offset;
    if (f->label == PROTOBUF_C_LABEL_REPEATED) {
      size_t n = *(size_t*)((char*)m + f->quantifier_offset);
      ProtobufCMessage** items = *(ProtobufCMessage***)at;
      for (size_t i = 0; i < n; i++) mt_pb_sort_maps(items[i]);
      if (n > 1 && is_map_entry(f->descriptor)) qsort(items, n, sizeof *items, cmp_entries);
      continue;
    }
    /* a oneof member is set only when the case field names it */
    if ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
        *(uint32_t*)((char*)m + f->quantifier_offset) != f->id)
      continue;
    ProtobufCMessage* sub = *(ProtobufCMessage**)at;
    if (sub) mt_pb_sort_maps(sub);
  }
}

/* The canonical bytes of an encoding (malloc'd, *len), or NULL when it does not decode. */
static uint8_t* canonical(const ProtobufCMessageDescriptor* desc, const uint8_t* data, size_t len,
                          size_t* out_len) {
  ProtobufCMessage* m = protobuf_c_message_unpack(desc, NULL, len, data);
  if (!m) return NULL;
  mt_pb_sort_maps(m);
  size_t n = protobuf_c_message_get_packed_size(m);
  uint8_t* buf = malloc(n ? n : 1);
  if (buf) *out_len = protobuf_c_message_pack(m, buf);
  protobuf_c_message_free_unpacked(m, NULL);
  return buf;
}

int mt_pb_same_message(const ProtobufCMessageDescriptor* desc, const uint8_t* a, size_t alen,
                       const uint8_t* b, size_t blen) {
  if (alen == blen && memcmp(a, b, alen) == 0) return 1;
  size_t ca_len = 0, cb_len = 0;
  uint8_t* ca = canonical(desc, a, alen, &ca_len);
  uint8_t* cb = ca ? canonical(desc, b, blen, &cb_len) : NULL;
  int same = ca && cb && ca_len == cb_len && memcmp(ca, cb, ca_len) == 0;
  free(ca);
  free(cb);
  return same;
}
