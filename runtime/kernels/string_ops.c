/* String ops that TensorFlow's Saver puts in every sharded save (and so in
 * every SavedModel): StringJoin (the "<prefix>_temp/part" temporary prefix)
 * and StaticRegexFullMatch (its "^s3://.*" test). TensorFlow's kernels are
 * core/kernels/string_join_op.cc and regex_full_match_op.cc. */
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/kernel.h"
#include "runtime/kernels/kernel_util.h"

/* ---- StringJoin ---- */

/* Non-scalar inputs must agree in shape; scalars broadcast to it. */
static void string_join_shape(mt_shape_ctx* ctx) {
  mt_shape out = mt_shape_scalar();
  int have = 0;
  for (int i = 0; i < ctx->ninputs; i++) {
    const mt_shape* s = &ctx->in[i];
    if (s->rank == 0) continue;
    if (!have) {
      out = *s;
      have = 1;
    } else if (!mt_shape_merge(&out, s)) {
      char a[128], b[128];
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Non-scalar inputs must have the same shape, but input %d has shape %s "
                     "but input 0 has shape %s", i, mt_shape_str(s, a, sizeof a),
                     mt_shape_str(&out, b, sizeof b));
      return;
    }
    /* an input of unknown rank could still be a scalar */
    if (s->rank < 0) have = 0, out = mt_shape_unknown();
  }
  ctx->out[0] = out;
}

static void string_join_kernel(mt_kernel_ctx* ctx) {
  const char* sep = mt_op_attr_str(ctx->op, "separator", "");
  const size_t seplen = strlen(sep);
  const TF_Tensor* shaped = NULL;
  for (int i = 0; i < ctx->ninputs; i++) {
    const TF_Tensor* t = ctx->inputs[i];
    if (t->ndims == 0) continue;
    if (!shaped) {
      shaped = t;
    } else if (t->ndims != shaped->ndims ||
               memcmp(t->dims, shaped->dims, sizeof(int64_t) * (size_t)t->ndims) != 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Input shapes do not match: all non-scalar inputs must have the same "
                     "shape (input %d differs from the first non-scalar input)", i);
      return;
    }
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_STRING, shaped ? shaped->dims : NULL,
                                shaped ? shaped->ndims : 0);
  if (!out) return;
  const int64_t n = mt_tensor_nelems(out);
  TF_TString* dst = (TF_TString*)mt_tensor_data(out);
  for (int64_t e = 0; e < n; e++) {
    size_t total = 0;
    for (int i = 0; i < ctx->ninputs; i++) {
      const TF_Tensor* t = ctx->inputs[i];
      total += TF_StringGetSize((const TF_TString*)mt_tensor_data(t) + (t->ndims ? e : 0));
      if (i) total += seplen;
    }
    char* buf = malloc(total ? total : 1);
    if (!buf) {
      mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "Out of memory joining strings");
      return;
    }
    size_t at = 0;
    for (int i = 0; i < ctx->ninputs; i++) {
      const TF_Tensor* t = ctx->inputs[i];
      const TF_TString* s = (const TF_TString*)mt_tensor_data(t) + (t->ndims ? e : 0);
      if (i) memcpy(buf + at, sep, seplen), at += seplen;
      memcpy(buf + at, TF_StringGetDataPointer(s), TF_StringGetSize(s));
      at += TF_StringGetSize(s);
    }
    TF_StringCopy(dst + e, buf, total);
    free(buf);
  }
}

/* ---- StaticRegexFullMatch ---- */

/* The pattern is compiled as a POSIX extended regex (TensorFlow uses RE2,
 * whose syntax is a superset for the patterns graphs carry, "^s3://.*"),
 * anchored at both ends for a full match. */
static int compile_full(mt_kernel_ctx* ctx, const char* pattern, regex_t* re) {
  const size_t n = strlen(pattern);
  char* anchored = malloc(n + 5);
  if (!anchored) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "Out of memory");
    return 0;
  }
  memcpy(anchored, "^(", 2);
  memcpy(anchored + 2, pattern, n);
  memcpy(anchored + 2 + n, ")$", 3);
  const int rc = regcomp(re, anchored, REG_EXTENDED | REG_NOSUB);
  free(anchored);
  if (rc != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Invalid pattern: %s", pattern);
    return 0;
  }
  return 1;
}

static void regex_full_match_kernel(mt_kernel_ctx* ctx) {
  regex_t re;
  if (!compile_full(ctx, mt_op_attr_str(ctx->op, "pattern", ""), &re)) return;
  const TF_Tensor* in = ctx->inputs[0];
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_BOOL, in->dims, in->ndims);
  if (out) {
    const int64_t n = mt_tensor_nelems(in);
    const TF_TString* s = (const TF_TString*)mt_tensor_data(in);
    unsigned char* dst = (unsigned char*)mt_tensor_data(out);
    for (int64_t i = 0; i < n && TF_GetCode(ctx->status) == TF_OK; i++) {
      const size_t len = TF_StringGetSize(s + i);
      char* c = malloc(len + 1);
      if (!c) {
        mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "Out of memory");
        break;
      }
      memcpy(c, TF_StringGetDataPointer(s + i), len);
      c[len] = 0;
      /* an embedded NUL would end the C string early: such a string never matches */
      dst[i] = memchr(c, 0, len) == NULL && regexec(&re, c, 0, NULL, 0) == 0;
      free(c);
    }
  }
  regfree(&re);
}

static const mt_op_spec string_specs[] = {
    {.name = "StringJoin", .inputs = "inputs: N * string", .outputs = "output: string",
     .attrs = "N: int >= 0; separator: string = ''", .shape = string_join_shape,
     .kernel = string_join_kernel},
    {.name = "StaticRegexFullMatch", .inputs = "input: string", .outputs = "output: bool",
     .attrs = "pattern: string", .shape = mt_unchanged_shape,
     .kernel = regex_full_match_kernel},
};

void mt_register_string_ops(void) {
  mt_register_ops(string_specs, (int)(sizeof string_specs / sizeof string_specs[0]));
}
