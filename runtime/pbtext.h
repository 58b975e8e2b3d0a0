/* Protobuf text format -> binary wire format, driven by a protoc-c message descriptor (the
 * generated codecs', see tools/gen_codecs.sh), so a text file (saved_model.pbtxt, a
 * `checkpoint` state file) is read with the same schema as its binary form: parse the text
 * here, then unpack the bytes with the generated codec.
 *
 * Accepts what protobuf's text printers write and its parser reads: `name: value`, `name
 * { ... }` / `name < ... >` (the colon optional before a message), repeated fields given once
 * per element or as `[a, b]`, `,`/`;` separators, `#` comments, strings in double or single
 * quotes with C escapes (octal, hex, \n ...) and adjacent strings concatenated, integers in
 * decimal/hex/octal, floats incl. inf/nan and an `f` suffix, enums by name or number, bools
 * as true/false/t/f/1/0, map entries as `{ key: ... value: ... }`, an Any expanded as
 * `[type.googleapis.com/<message>] { ... }` (any message of the generated codecs). Not
 * accepted: extensions and groups.
 *
 * Thread-safe (no state). */
#ifndef MINITF_RUNTIME_PBTEXT_H_
#define MINITF_RUNTIME_PBTEXT_H_

#include <stddef.h>
#include <stdint.h>

#include <protobuf-c/protobuf-c.h>

/* The wire bytes of `text` parsed as message `d` (caller frees), *out_len their length; NULL
 * on malformed text with "line:col: reason" in err (err_cap bytes) or on out of memory. */
uint8_t* mt_pbtext_parse(const ProtobufCMessageDescriptor* d, const char* text, size_t len,
                         size_t* out_len, char* err, size_t err_cap);

#endif
