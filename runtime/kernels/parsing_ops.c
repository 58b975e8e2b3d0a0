/* Parsing ops (TensorFlow's parsing_ops.cc / decode_raw_op.cc /
 * serialize_tensor_op.cc) and the base64 pair of string_ops.cc:
 * DecodeRaw, SerializeTensor, ParseTensor, EncodeBase64, DecodeBase64.
 * The base64 ops live here rather than in string_ops.c because they turn
 * bytes into other bytes as the decoders do; their alphabet is TensorFlow's
 * web-safe one ('-' and '_'), with optional '=' padding. */
#include <stdlib.h>
#include <string.h>
#include "runtime/graphdef.h"
#include "runtime/kernel.h"
#include "runtime/kernels/kernel_util.h"

static const TF_TString* tstrings(const TF_Tensor* t) {
  return (const TF_TString*)mt_tensor_data(t);
}

static void oom(mt_kernel_ctx* ctx) {
  mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "Out of memory");
}

static void same_shape(mt_shape_ctx* ctx) { ctx->out[0] = ctx->in[0]; }
static void scalar_shape(mt_shape_ctx* ctx) { ctx->out[0] = mt_shape_scalar(); }

/* ---- DecodeRaw ---- */

/* input shape + [?] (the byte count per element is known only at run time). */
static void decode_raw_shape(mt_shape_ctx* ctx) {
  mt_shape s = ctx->in[0];
  if (s.rank < 0) {
    ctx->out[0] = s;
    return;
  }
  if (s.rank >= MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must have rank < %d", MT_MAX_DIMS);
    return;
  }
  s.dims[s.rank++] = -1;
  ctx->out[0] = s;
}

/* Copies n bytes of elements of `width` bytes from src to dst, reversing
 * each part of `part` bytes when the data's byte order differs from ours
 * (complex types swap their real and imaginary halves separately). */
static void copy_elems(char* dst, const char* src, size_t n, size_t part, int swap) {
  if (!swap || part == 1) {
    memcpy(dst, src, n);
    return;
  }
  for (size_t off = 0; off < n; off += part)
    for (size_t b = 0; b < part; b++) dst[off + b] = src[off + part - 1 - b];
}

static void decode_raw_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_DataType dt = mt_op_attr_type(ctx->op, "out_type", TF_FLOAT);
  const int64_t n = mt_tensor_nelems(in);
  const TF_TString* s = tstrings(in);
  int64_t size = -1;
  for (int64_t i = 0; i < n; i++) {
    const int64_t len = (int64_t)TF_StringGetSize(&s[i]);
    if (size == -1) {
      size = len;
    } else if (len != size) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "DecodeRaw requires input strings to all be the same size, but element "
                     "%lld has size %lld != %lld",
                     (long long)i, (long long)size, (long long)len);
      return;
    }
  }
  int64_t dims[MT_MAX_DIMS];
  for (int d = 0; d < in->ndims; d++) dims[d] = in->dims[d];
  const size_t width = TF_DataTypeSize(dt);
  if (size <= 0) {
    dims[in->ndims] = 0;
    mt_ctx_alloc(ctx, 0, dt, dims, in->ndims + 1);
    return;
  }
  if (width == 0 || size % (int64_t)width != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input to DecodeRaw has length %lld that is not a multiple of %zu, the size "
                   "of %s",
                   (long long)size, width, mt_dtype_name(dt));
    return;
  }
  dims[in->ndims] = size / (int64_t)width;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, dt, dims, in->ndims + 1);
  if (!out) return;
  const int swap = !mt_op_attr_bool(ctx->op, "little_endian", 1); /* hosts are little-endian */
  const size_t part = (dt == TF_COMPLEX64 || dt == TF_COMPLEX128) ? width / 2 : width;
  char* dst = mt_tensor_data(out);
  for (int64_t i = 0; i < n; i++)
    copy_elems(dst + i * size, TF_StringGetDataPointer(&s[i]), (size_t)size, part, swap);
}

static size_t b64_encode(const unsigned char* src, size_t n, int pad, char* dst);

/* ---- SerializeTensor / ParseTensor ---- */

/* TensorFlow writes Tensor::AsProtoTensorContent, which for strings is the
 * string_val field (MT_PROTO_TYPED here). */
static void serialize_tensor_kernel(mt_kernel_ctx* ctx) {
  mt_pb_writer w = mt_pb_writer_make();
  const TF_Tensor* t = ctx->inputs[0];
  mt_tensor_to_proto_as(&w, t, t->dtype == TF_STRING ? MT_PROTO_TYPED : MT_PROTO_CONTENT);
  size_t len = 0;
  uint8_t* bytes = mt_pb_writer_take(&w, &len);
  if (!bytes && len) {
    oom(ctx);
    return;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_STRING, NULL, 0);
  if (out) TF_StringCopy((TF_TString*)mt_tensor_data(out), (const char*)bytes, len);
  free(bytes);
}

static void parse_tensor_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  if (in->ndims != 0) {
    char b[128];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected `serialized` to be a scalar, got shape: %s",
                   mt_dims_str(in->dims, in->ndims, b, sizeof b));
    return;
  }
  const TF_TString* s = tstrings(in);
  const size_t len = TF_StringGetSize(s);
  TF_Status* st = TF_NewStatus();
  TF_Tensor* t = mt_tensor_parse(TF_StringGetDataPointer(s), len, st);
  TF_DeleteStatus(st);
  if (!t) {
    /* TensorFlow shows the bytes in standard, padded base64. */
    char* b64 = malloc(4 * (len / 3) + 5);
    if (!b64) {
      oom(ctx);
      return;
    }
    const size_t n = b64_encode((const unsigned char*)TF_StringGetDataPointer(s), len, 1, b64);
    for (size_t k = 0; k < n; k++)
      b64[k] = b64[k] == '-' ? '+' : b64[k] == '_' ? '/' : b64[k];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Could not parse `serialized` as TensorProto, base64: %.*s", (int)n, b64);
    free(b64);
    return;
  }
  const TF_DataType want = mt_op_attr_type(ctx->op, "out_type", TF_FLOAT);
  if (t->dtype != want) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Type mismatch between parsed tensor (%s) and dtype (%s)",
                   mt_dtype_name(t->dtype), mt_dtype_name(want));
    TF_DeleteTensor(t);
    return;
  }
  mt_ctx_set_shared(ctx, 0, t);
  TF_DeleteTensor(t);
}

/* ---- EncodeBase64 / DecodeBase64 ---- */

static const char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* The 6-bit value of a web-safe base64 character, or -1. */
static int b64_value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

/* Encodes src into dst (room for 4 * (n / 3) + 4 bytes); returns the length. */
static size_t b64_encode(const unsigned char* src, size_t n, int pad, char* dst) {
  size_t o = 0, i = 0;
  for (; i + 3 <= n; i += 3) {
    const uint32_t v = (uint32_t)src[i] << 16 | (uint32_t)src[i + 1] << 8 | src[i + 2];
    dst[o++] = kB64[v >> 18];
    dst[o++] = kB64[(v >> 12) & 63];
    dst[o++] = kB64[(v >> 6) & 63];
    dst[o++] = kB64[v & 63];
  }
  if (n - i == 2) {
    const uint32_t v = (uint32_t)src[i] << 16 | (uint32_t)src[i + 1] << 8;
    dst[o++] = kB64[v >> 18];
    dst[o++] = kB64[(v >> 12) & 63];
    dst[o++] = kB64[(v >> 6) & 63];
    if (pad) dst[o++] = '=';
  } else if (n - i == 1) {
    const uint32_t v = (uint32_t)src[i] << 16;
    dst[o++] = kB64[v >> 18];
    dst[o++] = kB64[(v >> 12) & 63];
    if (pad) {
      dst[o++] = '=';
      dst[o++] = '=';
    }
  }
  return o;
}

/* Decodes four characters into three bytes; 0 if one is not base64. */
static int b64_quad(const char* q, unsigned char* out) {
  int v[4];
  for (int k = 0; k < 4; k++)
    if ((v[k] = b64_value((unsigned char)q[k])) < 0) return 0;
  const uint32_t x = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | v[3];
  out[0] = (unsigned char)(x >> 16);
  out[1] = (unsigned char)(x >> 8);
  out[2] = (unsigned char)x;
  return 1;
}

/* TensorFlow's Base64Decode: groups of four, then a tail of 2-4 characters
 * (one or two '=' allowed only in a final group of four); dst has room for
 * 3 * (n / 4) + 3 bytes. Returns the length, or -1 with the error text. */
static int64_t b64_decode(const char* src, size_t n, unsigned char* dst, const char** err) {
  if (n == 0) return 0;
  const char* p = src;
  const char* end = src + n;
  unsigned char* o = dst;
  for (; end - p > 4; p += 4, o += 3)
    if (!b64_quad(p, o)) goto bad_char;
  if (end - p == 4) {
    if (p[2] == '=' && p[3] == '=') end -= 2;
    else if (p[3] == '=') end -= 1;
  }
  const int remain = (int)(end - p);
  if (remain == 1) {
    *err = "Base64 string length cannot be 1 modulo 4.";
    return -1;
  }
  char tail[4] = {'A', 'A', 'A', 'A'};
  memcpy(tail, p, (size_t)remain);
  if (!b64_quad(tail, o)) goto bad_char;
  return (int64_t)(o - dst) + remain - 1;
bad_char:
  *err = "Invalid character found in base64.";
  return -1;
}

static void encode_base64_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const int pad = mt_op_attr_bool(ctx->op, "pad", 0);
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_STRING, in->dims, in->ndims);
  if (!out) return;
  const TF_TString* s = tstrings(in);
  TF_TString* d = (TF_TString*)mt_tensor_data(out);
  for (int64_t i = 0; i < mt_tensor_nelems(in); i++) {
    const size_t n = TF_StringGetSize(&s[i]);
    char* buf = malloc(4 * (n / 3) + 4);
    if (!buf) {
      oom(ctx);
      return;
    }
    const size_t len =
        b64_encode((const unsigned char*)TF_StringGetDataPointer(&s[i]), n, pad, buf);
    TF_StringCopy(&d[i], buf, len);
    free(buf);
  }
}

static void decode_base64_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_STRING, in->dims, in->ndims);
  if (!out) return;
  const TF_TString* s = tstrings(in);
  TF_TString* d = (TF_TString*)mt_tensor_data(out);
  for (int64_t i = 0; i < mt_tensor_nelems(in); i++) {
    const size_t n = TF_StringGetSize(&s[i]);
    unsigned char* buf = malloc(3 * (n / 4) + 3);
    if (!buf) {
      oom(ctx);
      return;
    }
    const char* err = NULL;
    const int64_t len = b64_decode(TF_StringGetDataPointer(&s[i]), n, buf, &err);
    if (len < 0) {
      free(buf);
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s", err);
      return;
    }
    TF_StringCopy(&d[i], (const char*)buf, (size_t)len);
    free(buf);
  }
}

static const mt_op_spec parsing_ops[] = {
    {.name = "DecodeRaw",
     .inputs = "bytes: string",
     .outputs = "output: out_type",
     .attrs = "out_type: {half, float, double, int32, uint16, uint8, int16, int8, int64, "
              "complex64, complex128, bool, bfloat16}; little_endian: bool = true",
     .shape = decode_raw_shape,
     .kernel = decode_raw_kernel},
    {.name = "SerializeTensor",
     .inputs = "tensor: T",
     .outputs = "serialized: string",
     .attrs = "T: type",
     .shape = scalar_shape,
     .kernel = serialize_tensor_kernel},
    {.name = "ParseTensor",
     .inputs = "serialized: string",
     .outputs = "output: out_type",
     .attrs = "out_type: type",
     .kernel = parse_tensor_kernel},
    {.name = "EncodeBase64",
     .inputs = "input: string",
     .outputs = "output: string",
     .attrs = "pad: bool = false",
     .shape = same_shape,
     .kernel = encode_base64_kernel},
    {.name = "DecodeBase64",
     .inputs = "input: string",
     .outputs = "output: string",
     .shape = same_shape,
     .kernel = decode_base64_kernel},
};

void mt_register_parsing_ops(void) {
  mt_register_ops(parsing_ops, (int)(sizeof parsing_ops / sizeof parsing_ops[0]));
}
