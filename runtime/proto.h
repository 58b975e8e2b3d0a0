/* Protocol-buffer wire format: a bounds-checked reader and a growable writer.
 *
 * The reader never trusts a length: every varint, fixed-width value and
 * length-delimited field is checked against the bytes that remain, so a
 * malformed or truncated message yields TF_INVALID_ARGUMENT and nothing is
 * read past the end. Allocations made by callers are sized from decoded
 * counts that are themselves bounded by the input length (see
 * mt_pb_count_repeated).
 *
 * Thread-safety: readers and writers are plain values owned by one thread.
 */
#ifndef MINITF_RUNTIME_PROTO_H_
#define MINITF_RUNTIME_PROTO_H_

#include <stddef.h>
#include <stdint.h>
#include "tensorflow/c/tf_status.h"

enum {
  MT_PB_VARINT = 0,
  MT_PB_FIXED64 = 1,
  MT_PB_LEN = 2,
  MT_PB_SGROUP = 3, /* deprecated groups: skipped when unknown */
  MT_PB_EGROUP = 4,
  MT_PB_FIXED32 = 5,
};

/* Nesting limit for sub-messages (protobuf's default recursion limit). */
#define MT_PB_MAX_DEPTH 100

typedef struct mt_pb_reader {
  const uint8_t* p;
  const uint8_t* end;
  int depth; /* nesting level of this message (0 = top) */
} mt_pb_reader;

/* One decoded field. For MT_PB_VARINT / FIXED32 / FIXED64, `v` holds the raw
 * value; for MT_PB_LEN, `data`/`len` point into the input (borrowed). */
typedef struct mt_pb_field {
  uint32_t num;
  int wire;
  uint64_t v;
  const uint8_t* data;
  size_t len;
} mt_pb_field;

static inline mt_pb_reader mt_pb_reader_make(const void* data, size_t len, int depth) {
  mt_pb_reader r;
  r.p = (const uint8_t*)data;
  r.end = r.p + len;
  r.depth = depth;
  return r;
}

/* Reads the next field of the message. Returns 1 with *f filled, 0 at the
 * clean end of the message, -1 with TF_INVALID_ARGUMENT in `s` on malformed
 * or truncated input. Groups (wire types 3/4) are skipped whole, so callers
 * only ever see wire types 0, 1, 2 and 5. `what` names the message in error
 * messages ("GraphDef", "NodeDef", ...). */
int mt_pb_next(mt_pb_reader* r, mt_pb_field* f, const char* what, TF_Status* s);

/* A reader over the bytes of a length-delimited field, one level deeper.
 * Fails with TF_INVALID_ARGUMENT when the depth limit is exceeded. */
int mt_pb_sub(const mt_pb_reader* parent, const mt_pb_field* f, mt_pb_reader* sub,
              const char* what, TF_Status* s);

/* Reads one varint from [*p, end); returns 0 on truncation or overlong
 * encoding (more than 10 bytes). */
int mt_pb_read_varint(const uint8_t** p, const uint8_t* end, uint64_t* out);

/* Checks that field `f` has wire type `wire`, else TF_INVALID_ARGUMENT. */
int mt_pb_expect(const mt_pb_field* f, int wire, const char* what, TF_Status* s);

/* Repeated scalar fields arrive packed (one LEN field) or unpacked (one
 * field per element). `elem_wire` is the element's wire type
 * (MT_PB_VARINT, MT_PB_FIXED32 or MT_PB_FIXED64). */

/* Number of elements field `f` contributes (1 for an unpacked element); -1
 * with TF_INVALID_ARGUMENT when a packed payload is malformed. */
int64_t mt_pb_count_repeated(const mt_pb_field* f, int elem_wire, const char* what,
                             TF_Status* s);

/* Calls fn(raw, arg) for each element field `f` contributes, in order.
 * Returns 0 with TF_INVALID_ARGUMENT on malformed input or wrong wire type. */
int mt_pb_each_repeated(const mt_pb_field* f, int elem_wire,
                        void (*fn)(uint64_t raw, void* arg), void* arg, const char* what,
                        TF_Status* s);

/* Copies a LEN field into a new NUL-terminated heap string (caller frees).
 * NULL + TF_RESOURCE_EXHAUSTED on allocation failure; wrong wire type gives
 * TF_INVALID_ARGUMENT. */
char* mt_pb_strdup(const mt_pb_field* f, const char* what, TF_Status* s);

static inline float mt_pb_as_float(uint64_t raw) {
  union { uint32_t u; float f; } c;
  c.u = (uint32_t)raw;
  return c.f;
}
static inline double mt_pb_as_double(uint64_t raw) {
  union { uint64_t u; double d; } c;
  c.u = raw;
  return c.d;
}

/* ------------------------------------------------------------------------ */
/* Writer: appends to a growable byte array. An allocation failure sets
 * `failed` and makes every later call a no-op; check it once at the end. */
typedef struct mt_pb_writer {
  uint8_t* data;
  size_t len, cap;
  int failed;
} mt_pb_writer;

static inline mt_pb_writer mt_pb_writer_make(void) {
  mt_pb_writer w = {0};
  return w;
}
void mt_pb_writer_free(mt_pb_writer* w);
/* Hands the bytes to the caller (free() them); the writer is left empty. */
uint8_t* mt_pb_writer_take(mt_pb_writer* w, size_t* len);

void mt_pb_put_raw(mt_pb_writer* w, const void* data, size_t n);
void mt_pb_put_varint(mt_pb_writer* w, uint64_t v);
void mt_pb_put_tag(mt_pb_writer* w, uint32_t num, int wire);

/* Field writers. int32/enum values are sign-extended to 64 bits, as the
 * protobuf spec requires for negative values. */
void mt_pb_put_uint64_field(mt_pb_writer* w, uint32_t num, uint64_t v);
void mt_pb_put_int64_field(mt_pb_writer* w, uint32_t num, int64_t v);
void mt_pb_put_bool_field(mt_pb_writer* w, uint32_t num, int v);
void mt_pb_put_fixed32_field(mt_pb_writer* w, uint32_t num, uint32_t v);
void mt_pb_put_fixed64_field(mt_pb_writer* w, uint32_t num, uint64_t v);
void mt_pb_put_float_field(mt_pb_writer* w, uint32_t num, float v);
void mt_pb_put_double_field(mt_pb_writer* w, uint32_t num, double v);
void mt_pb_put_bytes_field(mt_pb_writer* w, uint32_t num, const void* data, size_t n);
void mt_pb_put_string_field(mt_pb_writer* w, uint32_t num, const char* str);
/* Appends `sub`'s bytes as a length-delimited field and frees `sub`
 * (propagating its failure flag). */
void mt_pb_put_message(mt_pb_writer* w, uint32_t num, mt_pb_writer* sub);

/* Packed repeated fields (written only when n > 0). */
void mt_pb_put_packed_int64(mt_pb_writer* w, uint32_t num, const int64_t* v, size_t n);
void mt_pb_put_packed_float(mt_pb_writer* w, uint32_t num, const float* v, size_t n);

#endif
