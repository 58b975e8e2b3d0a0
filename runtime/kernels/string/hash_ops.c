/* Hashing string ops (TensorFlow's string_to_hash_bucket_op.cc,
 * fingerprint_op.cc): StringToHashBucket (legacy Hash64),
 * StringToHashBucketFast (FarmHash Fingerprint64), StringToHashBucketStrong
 * (SipHash-2-4 keyed by attr `key`), Fingerprint (farmhash64 of each row's
 * bytes, as 8 little-endian bytes). The hashes are in hash.c. */
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/string/hash.h"
#include "runtime/kernels/string/string_util.h"

enum { HASH_LEGACY, HASH_FAST, HASH_STRONG };

static void bucket(mt_kernel_ctx* ctx, int kind) {
  const TF_Tensor* in = ctx->inputs[0];
  const int64_t buckets = mt_op_attr_int(ctx->op, "num_buckets", 1);
  uint64_t k0 = 0, k1 = 0;
  if (kind == HASH_STRONG) {
    const mt_attr_value* key = mt_op_attr(ctx->op, "key");
    if (!key || key->list.n != 2) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Key must have 2 elements");
      return;
    }
    k0 = (uint64_t)key->list.i[0];
    k1 = (uint64_t)key->list.i[1];
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_INT64, in->dims, in->ndims);
  if (!out) return;
  const TF_TString* s = mt_str_in(in);
  int64_t* o = mt_tensor_data(out);
  const int64_t n = mt_tensor_nelems(in);
  for (int64_t i = 0; i < n; i++) {
    const char* p = TF_StringGetDataPointer(&s[i]);
    const size_t len = TF_StringGetSize(&s[i]);
    const uint64_t h = kind == HASH_FAST     ? mt_fingerprint64(p, len)
                       : kind == HASH_STRONG ? mt_siphash24(k0, k1, p, len)
                                             : mt_hash64(p, len, 0xDECAFCAFFEULL);
    o[i] = (int64_t)(h % (uint64_t)buckets);
  }
}

static void legacy_kernel(mt_kernel_ctx* ctx) { bucket(ctx, HASH_LEGACY); }
static void fast_kernel(mt_kernel_ctx* ctx) { bucket(ctx, HASH_FAST); }
static void strong_kernel(mt_kernel_ctx* ctx) { bucket(ctx, HASH_STRONG); }

/* ---- Fingerprint ---- */

static void put64(unsigned char* o, uint64_t v) {
  for (int k = 0; k < 8; k++) o[k] = (unsigned char)(v >> (8 * k));
}

static int method_ok(const TF_Tensor* m) {
  if (m->dtype != TF_STRING || m->ndims != 0) return 0;
  const TF_TString* s = mt_str_in(m);
  return TF_StringGetSize(s) == 10 && memcmp(TF_StringGetDataPointer(s), "farmhash64", 10) == 0;
}

static void fingerprint_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_Tensor* m = ctx->inputs[1];
  char buf[128];
  if (m->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "`method` should be a scalar string: %s",
                   mt_dims_str(m->dims, m->ndims, buf, sizeof buf));
    return;
  }
  if (!method_ok(m)) {
    const TF_TString* s = mt_str_in(m);
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Unsupported fingerprint method: %.*s",
                   (int)TF_StringGetSize(s), TF_StringGetDataPointer(s));
    return;
  }
  if (in->ndims < 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "`data` should have at least one dimension: %s",
                   mt_dims_str(in->dims, in->ndims, buf, sizeof buf));
    return;
  }
  const int64_t rows = in->dims[0];
  const int64_t dims[2] = {rows, 8};
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_UINT8, dims, 2);
  if (!out) return;
  unsigned char* o = mt_tensor_data(out);
  const int64_t per_row = rows > 0 ? mt_tensor_nelems(in) / rows : 0;
  if (in->dtype != TF_STRING) {
    const size_t row_bytes = (size_t)per_row * TF_DataTypeSize(in->dtype);
    const char* p = mt_tensor_data(in);
    for (int64_t r = 0; r < rows; r++)
      put64(o + 8 * r, mt_fingerprint64(p + r * row_bytes, row_bytes));
    return;
  }
  /* Strings: each string's fingerprint; a row of several is the fingerprint
   * of its strings' fingerprints, one after another. */
  const TF_TString* s = mt_str_in(in);
  unsigned char* tmp = per_row > 1 ? mt_malloc((size_t)per_row * 8, ctx->status) : NULL;
  if (per_row > 1 && !tmp) return;
  for (int64_t r = 0; r < rows; r++) {
    if (per_row == 1) {
      put64(o + 8 * r, mt_fingerprint64(TF_StringGetDataPointer(&s[r]), TF_StringGetSize(&s[r])));
      continue;
    }
    for (int64_t k = 0; k < per_row; k++) {
      const TF_TString* t = &s[r * per_row + k];
      put64(tmp + 8 * k, mt_fingerprint64(TF_StringGetDataPointer(t), TF_StringGetSize(t)));
    }
    put64(o + 8 * r, mt_fingerprint64((const char*)tmp, (size_t)per_row * 8));
  }
  free(tmp);
}

static void fingerprint_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank_at_least(ctx, 0, 1)) return;
  if (!mt_shape_with_rank(ctx, 1, 0)) return;
  const TF_Tensor* m = ctx->in_values ? ctx->in_values[1] : NULL;
  if (m && m->dtype == TF_STRING && m->ndims == 0 && !method_ok(m)) {
    const TF_TString* s = mt_str_in(m);
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Unsupported method: %.*s",
                   (int)TF_StringGetSize(s), TF_StringGetDataPointer(s));
    return;
  }
  const int64_t d[2] = {ctx->in[0].rank > 0 ? ctx->in[0].dims[0] : -1, 8};
  ctx->out[0] = mt_shape_make(d, 2);
}

static const mt_op_spec hash_ops[] = {
    {.name = "StringToHashBucket",
     .inputs = "string_tensor: string",
     .outputs = "output: int64",
     .attrs = "num_buckets: int >= 1",
     .shape = mt_unchanged_shape,
     .kernel = legacy_kernel},
    {.name = "StringToHashBucketFast",
     .inputs = "input: string",
     .outputs = "output: int64",
     .attrs = "num_buckets: int >= 1",
     .shape = mt_unchanged_shape,
     .kernel = fast_kernel},
    {.name = "StringToHashBucketStrong",
     .inputs = "input: string",
     .outputs = "output: int64",
     .attrs = "num_buckets: int >= 1; key: list(int)",
     .shape = mt_unchanged_shape,
     .kernel = strong_kernel},
    {.name = "Fingerprint",
     .inputs = "data: T, method: string",
     .outputs = "fingerprint: uint8",
     .attrs = "T: type",
     .shape = fingerprint_shape,
     .kernel = fingerprint_kernel},
};

void mt_register_string_hash_ops(void) {
  mt_register_ops(hash_ops, (int)(sizeof hash_ops / sizeof hash_ops[0]));
}
