/* Decoding with protoc-c's generated codecs, made safe for hostile bytes and cheap for
 * large messages.
 *
 * protobuf-c's unpack recurses once per nested message and has no depth limit, so a few
 * kilobytes of nested AttrValue/NameAttrList (or TensorProto/VariantTensorDataProto)
 * bytes could exhaust the stack. mt_pb_unpack first walks the bytes over the message's
 * descriptor with the bounds-checked wire reader (runtime/proto.h) and refuses nesting
 * deeper than MT_PB_MAX_DEPTH, as protobuf's own parser does; only then does it unpack.
 * Everything unpack allocates comes from an arena released at once (one bump pointer
 * instead of a malloc/free per string and sub-message); allocations are bounded by the
 * input size, as protobuf-c sizes every array from the bytes it read.
 *
 * Thread-safety: an arena belongs to one thread; no globals. */
#ifndef MINITF_RUNTIME_PB_UNPACK_H_
#define MINITF_RUNTIME_PB_UNPACK_H_

#include <stddef.h>
#include <protobuf-c/protobuf-c.h>

#include "tensorflow/c/tf_status.h"

struct mt_pb_chunk;

typedef struct mt_pb_arena {
  ProtobufCAllocator allocator; /* what unpack is given; allocator_data is the arena */
  struct mt_pb_chunk* chunks;
  int failed; /* an allocation failed (unpack then returns NULL) */
} mt_pb_arena;

void mt_pb_arena_init(mt_pb_arena* a);
/* Frees every allocation made from the arena; it may be initialized again. */
void mt_pb_arena_free(mt_pb_arena* a);

/* Decodes `len` bytes as a `desc` message into the arena (NULL: malloc'd, free with
 * protobuf_c_message_free_unpacked). NULL with TF_INVALID_ARGUMENT naming `what` on
 * malformed, truncated or too deeply nested bytes, TF_RESOURCE_EXHAUSTED when memory ran
 * out. The message lives until the arena is freed. */
ProtobufCMessage* mt_pb_unpack(const ProtobufCMessageDescriptor* desc, const void* data,
                               size_t len, mt_pb_arena* arena, const char* what, TF_Status* s);

#endif  // MINITF_RUNTIME_PB_UNPACK_H_
