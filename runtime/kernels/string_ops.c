/* String ops (TensorFlow's string_ops.cc / regex ops): StringJoin and the
 * RE2 regex family StaticRegexFullMatch, RegexFullMatch, StaticRegexReplace,
 * RegexReplace. The regexes are RE2's (runtime/regex.h), so patterns mean
 * what they mean in TensorFlow. The Static* forms compile their pattern
 * attr once per call here (TensorFlow compiles it at kernel construction;
 * the error, "Invalid pattern: ...", is the same and comes at the first run
 * either way). The rest of the family is in runtime/kernels/string/
 * (element-wise ops, hashes, split/join/ngrams); this file registers it. */
#include <stdlib.h>
#include <string.h>
#include "runtime/kernel.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/summarize.h"
#include "runtime/kernels/string/string_util.h"
#include "runtime/regex.h"

static const TF_TString* tstrings(const TF_Tensor* t) {
  return (const TF_TString*)mt_tensor_data(t);
}

static void oom(mt_kernel_ctx* ctx) {
  mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "Out of memory");
}

/* ---- StringJoin ---- */

/* Merges b into *a with InferenceContext::Merge's words ("Dimension 0 in
 * both shapes must be equal, but are 2 and 3. Shapes are [2] and [3]."). */
static int merge_shapes(mt_shape_ctx* ctx, mt_shape* a, const mt_shape* b) {
  char b1[128], b2[128];
  if (a->rank < 0) {
    *a = *b;
    return 1;
  }
  if (b->rank < 0) return 1;
  if (a->rank != b->rank) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Shapes must be equal rank, but are %d and %d", a->rank, b->rank);
    return 0;
  }
  mt_shape m = *a;
  for (int d = 0; d < a->rank; d++) {
    const int64_t x = a->dims[d], y = b->dims[d];
    if (x >= 0 && y >= 0 && x != y) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Dimension %d in both shapes must be equal, but are %lld and %lld. "
                     "Shapes are %s and %s.",
                     d, (long long)x, (long long)y, mt_shape_str(a, b1, sizeof b1),
                     mt_shape_str(b, b2, sizeof b2));
      return 0;
    }
    if (x < 0) m.dims[d] = y;
  }
  *a = m;
  return 1;
}

/* All scalars -> a scalar; else the merge of the inputs of known rank > 0
 * (an input of unknown rank may still be a scalar at run time). */
static void string_join_shape(mt_shape_ctx* ctx) {
  int all_scalar = 1;
  for (int i = 0; i < ctx->ninputs; i++)
    if (ctx->in[i].rank != 0) all_scalar = 0;
  if (all_scalar) {
    ctx->out[0] = mt_shape_scalar();
    return;
  }
  mt_shape out = mt_shape_unknown();
  for (int i = 0; i < ctx->ninputs; i++)
    if (ctx->in[i].rank > 0 && !merge_shapes(ctx, &out, &ctx->in[i])) return;
  ctx->out[0] = out;
}

static int same_dims(const TF_Tensor* a, const TF_Tensor* b) {
  if (a->ndims != b->ndims) return 0;
  for (int d = 0; d < a->ndims; d++)
    if (a->dims[d] != b->dims[d]) return 0;
  return 1;
}

static void string_join_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* shaped = NULL; /* the first non-scalar input */
  char b1[128], b2[128];
  for (int i = 0; i < ctx->ninputs; i++) {
    const TF_Tensor* t = ctx->inputs[i];
    if (t->ndims == 0) continue;
    if (!shaped) {
      shaped = t;
    } else if (!same_dims(shaped, t)) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input shapes do not match: %s vs. %s",
                     mt_dims_str(shaped->dims, shaped->ndims, b1, sizeof b1),
                     mt_dims_str(t->dims, t->ndims, b2, sizeof b2));
      return;
    }
  }
  TF_Tensor* out = shaped ? mt_ctx_alloc(ctx, 0, TF_STRING, shaped->dims, shaped->ndims)
                          : mt_ctx_alloc(ctx, 0, TF_STRING, NULL, 0);
  if (!out) return;
  const mt_attr_value* sep_attr = mt_op_attr(ctx->op, "separator");
  const char* sep = sep_attr ? sep_attr->v.s.data : "";
  const size_t sep_len = sep_attr ? sep_attr->v.s.len : 0;
  const int64_t n = mt_tensor_nelems(out);
  TF_TString* o = (TF_TString*)mt_tensor_data(out);
  mt_strbuf b = {0};
  for (int64_t e = 0; e < n; e++) {
    b.len = 0;
    for (int i = 0; i < ctx->ninputs; i++) {
      const TF_Tensor* t = ctx->inputs[i];
      const TF_TString* s = tstrings(t) + (t->ndims == 0 ? 0 : e);
      if (i > 0) mt_sb_add(&b, sep, sep_len);
      mt_sb_add(&b, TF_StringGetDataPointer(s), TF_StringGetSize(s));
    }
    if (b.failed) break;
    TF_StringCopy(&o[e], b.len ? b.s : "", b.len);
  }
  if (b.failed) oom(ctx);
  free(b.s);
}

/* ---- regexes ---- */

/* A compiled pattern, or NULL with TensorFlow's "Invalid pattern: <p>,
 * error: <RE2's words>" (or out of memory) in the status. */
static mt_regex* compile(mt_kernel_ctx* ctx, const char* p, size_t n) {
  mt_regex* re = mt_regex_new(p, n);
  if (!re) {
    oom(ctx);
    return NULL;
  }
  if (!mt_regex_ok(re)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Invalid pattern: %.*s, error: %s",
                   (int)n, p, mt_regex_error(re));
    mt_regex_free(re);
    return NULL;
  }
  return re;
}

static mt_regex* compile_attr(mt_kernel_ctx* ctx, const char* name) {
  const mt_attr_value* a = mt_op_attr(ctx->op, name);
  return a ? compile(ctx, a->v.s.data, a->v.s.len) : compile(ctx, "", 0);
}

/* Input `idx` as a scalar string: "<What> must be scalar, but received [2]". */
static const TF_TString* scalar_string(mt_kernel_ctx* ctx, int idx, const char* what) {
  const TF_Tensor* t = ctx->inputs[idx];
  if (t->ndims != 0) {
    char buf[128];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s must be scalar, but received %s",
                   what, mt_dims_str(t->dims, t->ndims, buf, sizeof buf));
    return NULL;
  }
  return tstrings(t);
}

static mt_regex* compile_input(mt_kernel_ctx* ctx, int idx) {
  const TF_TString* p = scalar_string(ctx, idx, "Pattern");
  return p ? compile(ctx, TF_StringGetDataPointer(p), TF_StringGetSize(p)) : NULL;
}

static void full_match(mt_kernel_ctx* ctx, mt_regex* re) {
  const TF_Tensor* in = ctx->inputs[0];
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_BOOL, in->dims, in->ndims);
  if (out) {
    const TF_TString* s = tstrings(in);
    unsigned char* o = mt_tensor_data(out);
    const int64_t n = mt_tensor_nelems(in);
    for (int64_t i = 0; i < n; i++)
      o[i] = (unsigned char)mt_regex_full_match(re, TF_StringGetDataPointer(&s[i]),
                                                TF_StringGetSize(&s[i]));
  }
  mt_regex_free(re);
}

static void static_full_match_kernel(mt_kernel_ctx* ctx) {
  mt_regex* re = compile_attr(ctx, "pattern");
  if (re) full_match(ctx, re);
}

static void full_match_kernel(mt_kernel_ctx* ctx) {
  mt_regex* re = compile_input(ctx, 1);
  if (re) full_match(ctx, re);
}

static void replace(mt_kernel_ctx* ctx, mt_regex* re, const char* rw, size_t rn) {
  const TF_Tensor* in = ctx->inputs[0];
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_STRING, in->dims, in->ndims);
  const int global = mt_op_attr_bool(ctx->op, "replace_global", 1);
  if (out) {
    const TF_TString* s = tstrings(in);
    TF_TString* o = (TF_TString*)mt_tensor_data(out);
    const int64_t n = mt_tensor_nelems(in);
    for (int64_t i = 0; i < n; i++) {
      char* r;
      size_t len;
      if (!mt_regex_replace(re, TF_StringGetDataPointer(&s[i]), TF_StringGetSize(&s[i]), rw,
                            rn, global, &r, &len)) {
        oom(ctx);
        break;
      }
      TF_StringCopy(&o[i], r, len);
      free(r);
    }
  }
  mt_regex_free(re);
}

static void static_replace_kernel(mt_kernel_ctx* ctx) {
  mt_regex* re = compile_attr(ctx, "pattern");
  if (!re) return;
  const mt_attr_value* rw = mt_op_attr(ctx->op, "rewrite");
  replace(ctx, re, rw ? rw->v.s.data : "", rw ? rw->v.s.len : 0);
}

static void replace_kernel(mt_kernel_ctx* ctx) {
  mt_regex* re = compile_input(ctx, 1);
  if (!re) return;
  const TF_TString* rw = scalar_string(ctx, 2, "Rewrite");
  if (!rw) {
    mt_regex_free(re);
    return;
  }
  replace(ctx, re, TF_StringGetDataPointer(rw), TF_StringGetSize(rw));
}

/* Output: input 0's shape; inputs 1.. (pattern, rewrite) must be scalars. */
static void elementwise_shape(mt_shape_ctx* ctx) {
  for (int i = 1; i < ctx->ninputs; i++)
    if (!mt_shape_with_rank(ctx, i, 0)) return;
  ctx->out[0] = ctx->in[0];
}

static const mt_op_spec string_ops[] = {
    {.name = "StringJoin",
     .inputs = "inputs: N * string",
     .outputs = "output: string",
     .attrs = "N: int >= 0; separator: string = ''",
     .shape = string_join_shape,
     .kernel = string_join_kernel},
    {.name = "StaticRegexFullMatch",
     .inputs = "input: string",
     .outputs = "output: bool",
     .attrs = "pattern: string",
     .shape = elementwise_shape,
     .kernel = static_full_match_kernel},
    {.name = "RegexFullMatch",
     .inputs = "input: string, pattern: string",
     .outputs = "output: bool",
     .shape = elementwise_shape,
     .kernel = full_match_kernel},
    {.name = "StaticRegexReplace",
     .inputs = "input: string",
     .outputs = "output: string",
     .attrs = "pattern: string; rewrite: string; replace_global: bool = true",
     .shape = elementwise_shape,
     .kernel = static_replace_kernel},
    {.name = "RegexReplace",
     .inputs = "input: string, pattern: string, rewrite: string",
     .outputs = "output: string",
     .attrs = "replace_global: bool = true",
     .shape = elementwise_shape,
     .kernel = replace_kernel},
};

void mt_register_string_ops(void) {
  mt_register_ops(string_ops, (int)(sizeof string_ops / sizeof string_ops[0]));
  mt_register_string_basic_ops();
  mt_register_string_hash_ops();
  mt_register_string_split_ops();
}
