/* One byte string per meaning for protobuf-c messages: map entries sorted by key,
 * as protobuf's deterministic serialization writes them. */
#ifndef MINITF_RUNTIME_PB_CANON_H_
#define MINITF_RUNTIME_PB_CANON_H_

#include <stddef.h>
#include <stdint.h>
#include <protobuf-c/protobuf-c.h>

/* Sorts every map field (a repeated "...Entry" message of key = 1, value = 2) of m
 * and of the messages inside it by key, in place. Keys: strings by bytes, integers
 * by value, as protobuf's deterministic serialization orders them. */
void mt_pb_sort_maps(ProtobufCMessage* m);

/* Whether two encodings of the message type `desc` mean the same message: equal bytes,
 * or equal once decoded, map-sorted and encoded again (TensorFlow compares FunctionDefs
 * by meaning; a map's entries may come in any order). Undecodable input is unequal. */
int mt_pb_same_message(const ProtobufCMessageDescriptor* desc, const uint8_t* a, size_t alen,
                       const uint8_t* b, size_t blen);

#endif  // MINITF_RUNTIME_PB_CANON_H_
