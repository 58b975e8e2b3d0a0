/* Protobuf text format -> wire format over protoc-c descriptors (pbtext.h). A recursive
 * descent parser: each message's fields are encoded into its own writer as they are read,
 * nested messages into a sub-writer appended as a length-delimited field. */
#include "runtime/pbtext.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/proto.h"

#define MAX_DEPTH 100

typedef struct parser {
  const char* p;
  const char* end;
  const char* start;
  char* err;
  size_t err_cap;
  int failed;
  /* scratch for a string token (unescaped) */
  char* buf;
  size_t blen, bcap;
} parser;

static void fail(parser* ps, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

static void fail(parser* ps, const char* fmt, ...) {
  if (ps->failed) return;
  ps->failed = 1;
  int line = 1, col = 1;
  for (const char* q = ps->start; q < ps->p && q < ps->end; q++) {
    if (*q == '\n') line++, col = 1;
    else col++;
  }
  int n = snprintf(ps->err, ps->err_cap, "%d:%d: ", line, col);
  if (n < 0 || (size_t)n >= ps->err_cap) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ps->err + n, ps->err_cap - (size_t)n, fmt, ap);
  va_end(ap);
}

static void skip_space(parser* ps) {
  while (ps->p < ps->end) {
    if (isspace((unsigned char)*ps->p)) {
      ps->p++;
    } else if (*ps->p == '#') {
      while (ps->p < ps->end && *ps->p != '\n') ps->p++;
    } else {
      break;
    }
  }
}

static int peek(parser* ps) {
  skip_space(ps);
  return ps->p < ps->end ? (unsigned char)*ps->p : -1;
}

static int accept(parser* ps, char c) {
  if (peek(ps) != c) return 0;
  ps->p++;
  return 1;
}

static int is_ident_char(int c) { return isalnum(c) || c == '_'; }

/* An identifier or number-like token ([A-Za-z0-9_.+-]*); *n its length. */
static const char* word(parser* ps, size_t* n) {
  skip_space(ps);
  const char* s = ps->p;
  while (ps->p < ps->end &&
         (is_ident_char((unsigned char)*ps->p) || *ps->p == '.' || *ps->p == '-' ||
          *ps->p == '+'))
    ps->p++;
  *n = (size_t)(ps->p - s);
  if (*n == 0) fail(ps, "expected a name or value");
  return s;
}

static int buf_put(parser* ps, char c) {
  if (ps->blen == ps->bcap) {
    size_t cap = ps->bcap ? 2 * ps->bcap : 64;
    char* b = realloc(ps->buf, cap);
    if (!b) {
      fail(ps, "out of memory");
      return 0;
    }
    ps->buf = b;
    ps->bcap = cap;
  }
  ps->buf[ps->blen++] = c;
  return 1;
}

static int hexval(int c) {
  return isdigit(c) ? c - '0' : isxdigit(c) ? (tolower(c) - 'a' + 10) : -1;
}

/* One quoted string (escapes undone) appended to ps->buf. */
static int quoted(parser* ps) {
  char q = *ps->p++;
  while (ps->p < ps->end && *ps->p != q) {
    char c = *ps->p++;
    if (c == '\n') break;
    if (c != '\\') {
      if (!buf_put(ps, c)) return 0;
      continue;
    }
    if (ps->p >= ps->end) break;
    c = *ps->p++;
    int v;
    switch (c) {
      case 'n': v = '\n'; break;
      case 't': v = '\t'; break;
      case 'r': v = '\r'; break;
      case 'a': v = '\a'; break;
      case 'b': v = '\b'; break;
      case 'f': v = '\f'; break;
      case 'v': v = '\v'; break;
      case 'x': case 'X': {
        v = 0;
        int k = 0;
        while (k < 2 && ps->p < ps->end && hexval((unsigned char)*ps->p) >= 0)
          v = v * 16 + hexval((unsigned char)*ps->p++), k++;
        if (k == 0) {
          fail(ps, "invalid \\x escape");
          return 0;
        }
        break;
      }
      default:
        if (c >= '0' && c <= '7') {
          v = c - '0';
          for (int k = 0; k < 2 && ps->p < ps->end && *ps->p >= '0' && *ps->p <= '7'; k++)
            v = v * 8 + (*ps->p++ - '0');
          if (v > 255) {
            fail(ps, "octal escape out of range");
            return 0;
          }
        } else if (c == '\\' || c == '\'' || c == '"' || c == '?') {
          v = c;
        } else {
          fail(ps, "invalid escape \\%c", c);
          return 0;
        }
    }
    if (!buf_put(ps, (char)v)) return 0;
  }
  if (ps->p >= ps->end || *ps->p != q) {
    fail(ps, "unterminated string");
    return 0;
  }
  ps->p++;
  return 1;
}

/* A string value: one or more adjacent quoted strings, in ps->buf[0..blen). */
static int string_value(parser* ps) {
  ps->blen = 0;
  int c = peek(ps);
  if (c != '"' && c != '\'') {
    fail(ps, "expected a string");
    return 0;
  }
  while ((c = peek(ps)) == '"' || c == '\'')
    if (!quoted(ps)) return 0;
  return 1;
}

static int word_is(const char* s, size_t n, const char* lit) {
  return n == strlen(lit) && strncmp(s, lit, n) == 0;
}

static int parse_int(parser* ps, const char* s, size_t n, int is_signed, int64_t lo, uint64_t hi,
                     uint64_t* out) {
  char tmp[72];
  if (n == 0 || n >= sizeof tmp) {
    fail(ps, "invalid integer");
    return 0;
  }
  memcpy(tmp, s, n);
  tmp[n] = 0;
  char* end;
  errno = 0;
  if (tmp[0] == '-') {
    long long v = strtoll(tmp, &end, 0);
    if (*end || errno || !is_signed || v < lo) {
      fail(ps, "integer out of range or malformed: %s", tmp);
      return 0;
    }
    *out = (uint64_t)(int64_t)v;
    return 1;
  }
  unsigned long long v = strtoull(tmp, &end, 0);
  if (*end || errno || v > hi) {
    fail(ps, "integer out of range or malformed: %s", tmp);
    return 0;
  }
  *out = v;
  return 1;
}

static int parse_float(parser* ps, const char* s, size_t n, double* out) {
  char tmp[72];
  if (n == 0 || n >= sizeof tmp) {
    fail(ps, "invalid number");
    return 0;
  }
  memcpy(tmp, s, n);
  tmp[n] = 0;
  const char* t = tmp[0] == '-' ? tmp + 1 : tmp;
  double sign = tmp[0] == '-' ? -1 : 1;
  if (!strcasecmp(t, "inf") || !strcasecmp(t, "infinity") || !strcasecmp(t, "inff")) {
    *out = sign * INFINITY;
    return 1;
  }
  if (!strcasecmp(t, "nan") || !strcasecmp(t, "nanf")) {
    *out = NAN;
    return 1;
  }
  if (n > 1 && (tmp[n - 1] == 'f' || tmp[n - 1] == 'F') && !strchr(tmp, 'x')) tmp[n - 1] = 0;
  char* end;
  *out = strtod(tmp, &end);
  if (*end || end == tmp) {
    fail(ps, "invalid number: %s", tmp);
    return 0;
  }
  return 1;
}

static int message(parser* ps, const ProtobufCMessageDescriptor* d, mt_pb_writer* w,
                   char close, int depth);

/* One scalar or message value of field `f`, encoded into w. */
static int value(parser* ps, const ProtobufCFieldDescriptor* f, mt_pb_writer* w, int depth) {
  uint32_t num = f->id;
  if (f->type == PROTOBUF_C_TYPE_MESSAGE) {
    char close = accept(ps, '{') ? '}' : accept(ps, '<') ? '>' : 0;
    if (!close) {
      fail(ps, "expected { for field %s", f->name);
      return 0;
    }
    mt_pb_writer sub = mt_pb_writer_make();
    if (!message(ps, f->descriptor, &sub, close, depth + 1)) {
      mt_pb_writer_free(&sub);
      return 0;
    }
    mt_pb_put_message(w, num, &sub);
    return 1;
  }
  if (f->type == PROTOBUF_C_TYPE_STRING || f->type == PROTOBUF_C_TYPE_BYTES) {
    if (!string_value(ps)) return 0;
    mt_pb_put_tag(w, num, MT_PB_LEN);
    mt_pb_put_varint(w, ps->blen);
    mt_pb_put_raw(w, ps->buf, ps->blen);
    return 1;
  }
  size_t n;
  const char* s = word(ps, &n);
  if (ps->failed) return 0;
  uint64_t u;
  double x;
  switch (f->type) {
    case PROTOBUF_C_TYPE_INT32:
      if (!parse_int(ps, s, n, 1, INT32_MIN, INT32_MAX, &u)) return 0;
      mt_pb_put_int64_field(w, num, (int64_t)u);
      return 1;
    case PROTOBUF_C_TYPE_INT64:
      if (!parse_int(ps, s, n, 1, INT64_MIN, INT64_MAX, &u)) return 0;
      mt_pb_put_uint64_field(w, num, u);
      return 1;
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_UINT64:
      if (!parse_int(ps, s, n, 0, 0, f->type == PROTOBUF_C_TYPE_UINT32 ? UINT32_MAX : UINT64_MAX,
                     &u))
        return 0;
      mt_pb_put_uint64_field(w, num, u);
      return 1;
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SINT64: {
      int is32 = f->type == PROTOBUF_C_TYPE_SINT32;
      if (!parse_int(ps, s, n, 1, is32 ? INT32_MIN : INT64_MIN, is32 ? INT32_MAX : INT64_MAX, &u))
        return 0;
      int64_t v = (int64_t)u;
      mt_pb_put_uint64_field(w, num, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
      return 1;
    }
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_SFIXED32: {
      int sg = f->type == PROTOBUF_C_TYPE_SFIXED32;
      if (!parse_int(ps, s, n, sg, sg ? INT32_MIN : 0, sg ? INT32_MAX : UINT32_MAX, &u)) return 0;
      mt_pb_put_fixed32_field(w, num, (uint32_t)u);
      return 1;
    }
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_SFIXED64: {
      int sg = f->type == PROTOBUF_C_TYPE_SFIXED64;
      if (!parse_int(ps, s, n, sg, sg ? INT64_MIN : 0, sg ? INT64_MAX : UINT64_MAX, &u)) return 0;
      mt_pb_put_fixed64_field(w, num, u);
      return 1;
    }
    case PROTOBUF_C_TYPE_FLOAT:
      if (!parse_float(ps, s, n, &x)) return 0;
      mt_pb_put_float_field(w, num, (float)x);
      return 1;
    case PROTOBUF_C_TYPE_DOUBLE:
      if (!parse_float(ps, s, n, &x)) return 0;
      mt_pb_put_double_field(w, num, x);
      return 1;
    case PROTOBUF_C_TYPE_BOOL:
      if (word_is(s, n, "true") || word_is(s, n, "True") || word_is(s, n, "t") || word_is(s, n, "1"))
        u = 1;
      else if (word_is(s, n, "false") || word_is(s, n, "False") || word_is(s, n, "f") ||
               word_is(s, n, "0"))
        u = 0;
      else {
        fail(ps, "invalid bool for field %s", f->name);
        return 0;
      }
      mt_pb_put_uint64_field(w, num, u);
      return 1;
    case PROTOBUF_C_TYPE_ENUM: {
      const ProtobufCEnumDescriptor* e = f->descriptor;
      if (n && (isdigit((unsigned char)s[0]) || s[0] == '-')) {
        if (!parse_int(ps, s, n, 1, INT32_MIN, INT32_MAX, &u)) return 0;
        mt_pb_put_int64_field(w, num, (int64_t)u);
        return 1;
      }
      char name[128];
      if (n >= sizeof name) n = sizeof name - 1;
      memcpy(name, s, n);
      name[n] = 0;
      const ProtobufCEnumValue* ev = protobuf_c_enum_descriptor_get_value_by_name(e, name);
      if (!ev) {
        fail(ps, "unknown enumeration value \"%s\" for field %s", name, f->name);
        return 0;
      }
      mt_pb_put_int64_field(w, num, ev->value);
      return 1;
    }
    default:
      fail(ps, "unsupported field type for %s", f->name);
      return 0;
  }
}

/* Every generated message descriptor (tools/gen_codecs.sh writes the list into codecs.c). */
extern const ProtobufCMessageDescriptor* const mt_codec_descriptors[];

static const ProtobufCMessageDescriptor* descriptor_named(const char* full, size_t n) {
  for (const ProtobufCMessageDescriptor* const* d = mt_codec_descriptors; *d; d++)
    if (strlen((*d)->name) == n && strncmp((*d)->name, full, n) == 0) return *d;
  return NULL;
}

/* An Any written expanded, `[type.googleapis.com/tensorflow.AssetFileDef] { ... }`, as
 * protobuf's text printer writes it when it knows the type: type_url = 1, value = 2. */
static int expanded_any(parser* ps, const ProtobufCMessageDescriptor* d, mt_pb_writer* w,
                        int depth) {
  if (strcmp(d->name, "google.protobuf.Any") != 0) {
    fail(ps, "extensions are not supported (in %s)", d->name);
    return 0;
  }
  ps->p++; /* [ */
  skip_space(ps);
  const char* url = ps->p;
  while (ps->p < ps->end && *ps->p != ']' && !isspace((unsigned char)*ps->p)) ps->p++;
  size_t ulen = (size_t)(ps->p - url);
  if (!accept(ps, ']')) {
    fail(ps, "expected ] after the type URL");
    return 0;
  }
  const char* slash = memrchr(url, '/', ulen);
  const char* type = slash ? slash + 1 : url;
  const ProtobufCMessageDescriptor* t = descriptor_named(type, ulen - (size_t)(type - url));
  if (!slash || !t) {
    fail(ps, "unknown type in Any: %.*s", (int)ulen, url);
    return 0;
  }
  accept(ps, ':');
  char close = accept(ps, '{') ? '}' : accept(ps, '<') ? '>' : 0;
  if (!close) {
    fail(ps, "expected { after the Any's type");
    return 0;
  }
  mt_pb_writer sub = mt_pb_writer_make();
  if (!message(ps, t, &sub, close, depth + 1)) {
    mt_pb_writer_free(&sub);
    return 0;
  }
  mt_pb_put_tag(w, 1, MT_PB_LEN);
  mt_pb_put_varint(w, ulen);
  mt_pb_put_raw(w, url, ulen);
  mt_pb_put_message(w, 2, &sub);
  return 1;
}

/* The fields of message `d` up to `close` ('}' / '>', or 0 for the end of input). */
static int message(parser* ps, const ProtobufCMessageDescriptor* d, mt_pb_writer* w,
                   char close, int depth) {
  if (depth > MAX_DEPTH) {
    fail(ps, "message nesting deeper than %d", MAX_DEPTH);
    return 0;
  }
  for (;;) {
    int c = peek(ps);
    if (close ? c == close : c < 0) {
      if (close) ps->p++;
      return 1;
    }
    if (c < 0) {
      fail(ps, "expected %c", close);
      return 0;
    }
    if (c == '[') {
      if (!expanded_any(ps, d, w, depth)) return 0;
      if (!accept(ps, ',')) accept(ps, ';');
      continue;
    }
    skip_space(ps);
    const char* s = ps->p;
    while (ps->p < ps->end && is_ident_char((unsigned char)*ps->p)) ps->p++;
    size_t n = (size_t)(ps->p - s);
    char name[256];
    if (n == 0 || n >= sizeof name) {
      fail(ps, "expected a field name");
      return 0;
    }
    memcpy(name, s, n);
    name[n] = 0;
    const ProtobufCFieldDescriptor* f = protobuf_c_message_descriptor_get_field_by_name(d, name);
    if (!f) {
      ps->p = s;
      fail(ps, "Message type \"%s\" has no field named \"%s\".", d->name, name);
      return 0;
    }
    int colon = accept(ps, ':');
    if (!colon && f->type != PROTOBUF_C_TYPE_MESSAGE) {
      fail(ps, "expected : after %s", name);
      return 0;
    }
    if (accept(ps, '[')) {
      if (f->label != PROTOBUF_C_LABEL_REPEATED) {
        fail(ps, "field %s is not repeated", name);
        return 0;
      }
      if (!accept(ps, ']')) {
        do {
          if (!value(ps, f, w, depth)) return 0;
        } while (accept(ps, ','));
        if (!accept(ps, ']')) {
          fail(ps, "expected ]");
          return 0;
        }
      }
    } else if (!value(ps, f, w, depth)) {
      return 0;
    }
    if (!accept(ps, ',')) accept(ps, ';');
  }
}

uint8_t* mt_pbtext_parse(const ProtobufCMessageDescriptor* d, const char* text, size_t len,
                         size_t* out_len, char* err, size_t err_cap) {
  parser ps = {text, text + len, text, err, err_cap, 0, NULL, 0, 0};
  if (err_cap) err[0] = 0;
  mt_pb_writer w = mt_pb_writer_make();
  int ok = message(&ps, d, &w, 0, 0);
  free(ps.buf);
  if (ok && w.failed) {
    snprintf(err, err_cap, "out of memory");
    ok = 0;
  }
  if (!ok) {
    mt_pb_writer_free(&w);
    return NULL;
  }
  uint8_t* bytes = mt_pb_writer_take(&w, out_len);
  if (!bytes) bytes = malloc(1); /* an empty message */
  return bytes;
}
