/* String ops that change the element count (TensorFlow's string_split_op.cc,
 * reduce_join_op.cc, unsorted_segment_join_op.cc, string_ngrams_op.cc):
 * StringSplit, StringSplitV2 (a SparseTensor of tokens), ReduceJoin,
 * UnsortedSegmentJoin, StringNGrams. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/string/string_util.h"
#include "runtime/kernels/summarize.h"

static void oom(mt_kernel_ctx* ctx) {
  mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "Out of memory");
}

/* ---- StringSplit / StringSplitV2 ---- */

typedef struct token {
  int64_t row, col;
  const char* p;
  size_t n;
} token;

typedef struct tokens {
  token* t;
  int64_t n, cap;
  int failed;
} tokens;

static void push(tokens* ts, int64_t row, int64_t col, const char* p, size_t n) {
  if (ts->failed) return;
  if (ts->n == ts->cap) {
    const int64_t cap = ts->cap ? ts->cap * 2 : 64;
    token* nt = realloc(ts->t, sizeof(token) * (size_t)cap);
    if (!nt) {
      ts->failed = 1;
      return;
    }
    ts->t = nt;
    ts->cap = cap;
  }
  token k = {row, col, p, n};
  ts->t[ts->n++] = k;
}

/* v1: split at any byte of `delim` (each byte on its own when delim is
 * empty); empty tokens dropped when skip_empty. Returns the token count. */
static int64_t split_v1(tokens* ts, int64_t row, const char* s, size_t n, const char* d,
                        size_t dn, int skip_empty) {
  int64_t col = 0;
  if (dn == 0) {
    for (size_t i = 0; i < n; i++) push(ts, row, col++, s + i, 1);
    return col;
  }
  size_t start = 0;
  for (size_t i = 0; i <= n; i++) {
    if (i < n && !memchr(d, s[i], dn)) continue;
    if (!skip_empty || i > start) push(ts, row, col++, s + start, i - start);
    start = i + 1;
  }
  return col;
}

/* v2 with sep '': runs of ASCII whitespace separate, none kept at either end;
 * after maxsplit tokens the rest (possibly empty) is the last token. */
static int64_t split_ws(tokens* ts, int64_t row, const char* s, size_t n, int64_t maxsplit) {
  int64_t col = 0;
  size_t i = 0;
  while (i < n && isspace((unsigned char)s[i])) i++;
  while (i < n) {
    const size_t start = i;
    while (i < n && !isspace((unsigned char)s[i])) i++;
    push(ts, row, col++, s + start, i - start);
    while (i < n && isspace((unsigned char)s[i])) i++;
    if (maxsplit >= 0 && col == maxsplit) {
      push(ts, row, col++, s + i, n - i);
      break;
    }
  }
  return col;
}

/* v2 with a separator: every occurrence separates, at most maxsplit times. */
static int64_t split_sep(tokens* ts, int64_t row, const char* s, size_t n, const char* d,
                         size_t dn, int64_t maxsplit) {
  int64_t col = 0;
  size_t start = 0, i = 0;
  while (i + dn <= n && (maxsplit < 0 || col < maxsplit)) {
    if (memcmp(s + i, d, dn) == 0) {
      push(ts, row, col++, s + start, i - start);
      i += dn;
      start = i;
    } else {
      i++;
    }
  }
  push(ts, row, col++, s + start, n - start);
  return col;
}

static int split_inputs(mt_kernel_ctx* ctx, const char* delim_name) {
  char buf[128];
  const TF_Tensor* in = ctx->inputs[0];
  const TF_Tensor* d = ctx->inputs[1];
  if (in->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "input must be a vector, got shape: %s",
                   mt_dims_str(in->dims, in->ndims, buf, sizeof buf));
    return 0;
  }
  if (d->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s must be a scalar, got shape: %s",
                   delim_name, mt_dims_str(d->dims, d->ndims, buf, sizeof buf));
    return 0;
  }
  return 1;
}

static void emit_tokens(mt_kernel_ctx* ctx, const tokens* ts, int64_t rows, int64_t width) {
  if (ts->failed) {
    oom(ctx);
    return;
  }
  const int64_t id[2] = {ts->n, 2}, sd[1] = {2};
  TF_Tensor* ix = mt_ctx_alloc(ctx, 0, TF_INT64, id, 2);
  TF_Tensor* vals = ix ? mt_ctx_alloc(ctx, 1, TF_STRING, id, 1) : NULL;
  TF_Tensor* shape = vals ? mt_ctx_alloc(ctx, 2, TF_INT64, sd, 1) : NULL;
  if (!shape) return;
  int64_t* ip = mt_tensor_data(ix);
  TF_TString* vp = mt_str_out(vals);
  for (int64_t k = 0; k < ts->n; k++) {
    ip[2 * k] = ts->t[k].row;
    ip[2 * k + 1] = ts->t[k].col;
    TF_StringCopy(&vp[k], ts->t[k].p, ts->t[k].n);
  }
  int64_t* sp = mt_tensor_data(shape);
  sp[0] = rows;
  sp[1] = width;
}

static void split_kernel(mt_kernel_ctx* ctx, int v2) {
  if (!split_inputs(ctx, v2 ? "sep" : "delimiter")) return;
  const TF_Tensor* in = ctx->inputs[0];
  const TF_TString* d = mt_str_in(ctx->inputs[1]);
  const char* dp = TF_StringGetDataPointer(d);
  const size_t dn = TF_StringGetSize(d);
  const int skip_empty = mt_op_attr_bool(ctx->op, "skip_empty", 1);
  const int64_t maxsplit = mt_op_attr_int(ctx->op, "maxsplit", -1);
  const TF_TString* s = mt_str_in(in);
  const int64_t rows = in->dims[0];
  tokens ts = {0};
  int64_t width = 0;
  for (int64_t r = 0; r < rows; r++) {
    const char* p = TF_StringGetDataPointer(&s[r]);
    const size_t n = TF_StringGetSize(&s[r]);
    const int64_t c = !v2        ? split_v1(&ts, r, p, n, dp, dn, skip_empty)
                      : dn == 0 ? split_ws(&ts, r, p, n, maxsplit)
                                : split_sep(&ts, r, p, n, dp, dn, maxsplit);
    if (c > width) width = c;
  }
  emit_tokens(ctx, &ts, rows, width);
  free(ts.t);
}

static void split_v1_kernel(mt_kernel_ctx* ctx) { split_kernel(ctx, 0); }
static void split_v2_kernel(mt_kernel_ctx* ctx) { split_kernel(ctx, 1); }

static void split_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 1) || !mt_shape_with_rank(ctx, 1, 0)) return;
  const int64_t ix[2] = {-1, 2}, v[1] = {-1}, sh[1] = {2};
  ctx->out[0] = mt_shape_make(ix, 2);
  ctx->out[1] = mt_shape_make(v, 1);
  ctx->out[2] = mt_shape_make(sh, 1);
}

/* ---- ReduceJoin ---- */

/* Marks the reduced axes of a rank-`rank` input from `axes` (an int32 tensor)
 * with TF's errors; returns 0 + status on a bad or repeated axis. */
static int reduced_axes(TF_Status* st, const int32_t* axes, int64_t n, int rank,
                        unsigned char* mark) {
  memset(mark, 0, MT_MAX_DIMS);
  for (int64_t k = 0; k < n; k++) {
    const int64_t a = axes[k];
    if (a < -rank || a >= rank) {
      mt_status_setf(st, TF_OUT_OF_RANGE,
                     "Invalid reduction dimension %lld for input with %d dimension(s)",
                     (long long)a, rank);
      return 0;
    }
    const int ax = (int)(a < 0 ? a + rank : a);
    if (mark[ax]) {
      mt_status_setf(st, TF_INVALID_ARGUMENT, "Duplicate reduction dimension %lld",
                     (long long)a);
      return 0;
    }
    mark[ax] = 1;
  }
  return 1;
}

static void reduce_join_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_Tensor* ax = ctx->inputs[1];
  const int keep = mt_op_attr_bool(ctx->op, "keep_dims", 0);
  unsigned char mark[MT_MAX_DIMS];
  if (!reduced_axes(ctx->status, mt_tensor_data(ax), mt_tensor_nelems(ax), in->ndims, mark))
    return;
  int64_t odims[MT_MAX_DIMS];
  int ond = 0;
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < in->ndims; d++) {
    if (!mark[d]) {
      odims[ond++] = in->dims[d];
      outer *= in->dims[d];
    } else {
      inner *= in->dims[d];
      if (keep) odims[ond++] = 1;
    }
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_STRING, odims, ond);
  if (!out) return;
  const mt_attr_value* sa = mt_op_attr(ctx->op, "separator");
  const char* sep = sa ? sa->v.s.data : "";
  const size_t sep_n = sa ? sa->v.s.len : 0;
  const TF_TString* s = mt_str_in(in);
  TF_TString* o = mt_str_out(out);
  /* Each output element joins the inputs that differ from it only in the
   * reduced axes; the first axis listed varies fastest (as in TF, whose
   * default list, the axes last to first, gives row-major order). */
  int order[MT_MAX_DIMS];
  int nax = 0;
  const int32_t* axv = mt_tensor_data(ax);
  for (int64_t k = 0; k < mt_tensor_nelems(ax); k++)
    order[nax++] = axv[k] < 0 ? axv[k] + in->ndims : axv[k];
  int64_t strides[MT_MAX_DIMS];
  int64_t acc = 1;
  for (int d = in->ndims - 1; d >= 0; d--) {
    strides[d] = acc;
    acc *= in->dims[d];
  }
  mt_strbuf b = {0};
  for (int64_t e = 0; e < outer && !b.failed; e++) {
    int64_t base = 0, rest = e;
    for (int d = in->ndims - 1; d >= 0; d--) {
      if (mark[d]) continue;
      base += (rest % in->dims[d]) * strides[d];
      rest /= in->dims[d];
    }
    b.len = 0;
    for (int64_t k = 0; k < inner; k++) {
      int64_t off = base, r = k;
      for (int j = 0; j < nax; j++) {
        off += (r % in->dims[order[j]]) * strides[order[j]];
        r /= in->dims[order[j]];
      }
      if (k > 0) mt_sb_add(&b, sep, sep_n);
      mt_sb_add(&b, TF_StringGetDataPointer(&s[off]), TF_StringGetSize(&s[off]));
    }
    if (!b.failed) TF_StringCopy(&o[e], b.len ? b.s : "", b.len);
  }
  if (b.failed) oom(ctx);
  free(b.s);
}

static void reduce_join_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[0];
  int32_t axes[MT_MAX_DIMS + 1];
  int64_t v[MT_MAX_DIMS + 1];
  const int n = mt_shape_input_as_ints(ctx, 1, v, MT_MAX_DIMS + 1);
  if (in->rank < 0 || n < 0 || n > MT_MAX_DIMS) return; /* unknown */
  for (int k = 0; k < n; k++) axes[k] = (int32_t)v[k];
  unsigned char mark[MT_MAX_DIMS];
  if (!reduced_axes(ctx->status, axes, n, in->rank, mark)) {
    TF_SetStatus(ctx->status, TF_INVALID_ARGUMENT, TF_Message(ctx->status));
    return;
  }
  const int keep = mt_op_attr_bool(ctx->op, "keep_dims", 0);
  int64_t d[MT_MAX_DIMS];
  int nd = 0;
  for (int k = 0; k < in->rank; k++) {
    if (!mark[k]) d[nd++] = in->dims[k];
    else if (keep) d[nd++] = 1;
  }
  ctx->out[0] = mt_shape_make(d, nd);
}

/* ---- UnsortedSegmentJoin ---- */

static int64_t scalar_int(const TF_Tensor* t) {
  return t->dtype == TF_INT64 ? *(const int64_t*)mt_tensor_data(t)
                              : *(const int32_t*)mt_tensor_data(t);
}

static int64_t id_at(const TF_Tensor* t, int64_t i) {
  return t->dtype == TF_INT64 ? ((const int64_t*)mt_tensor_data(t))[i]
                              : ((const int32_t*)mt_tensor_data(t))[i];
}

static void segment_join_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_Tensor* ids = ctx->inputs[1];
  char b1[128], b2[128];
  if (ctx->inputs[2]->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Number of segments cannot be empty.");
    return;
  }
  const int64_t nseg = scalar_int(ctx->inputs[2]);
  if (nseg < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Number of segments cannot be negative.");
    return;
  }
  if (ids->ndims > in->ndims || memcmp(ids->dims, in->dims, sizeof(int64_t) * ids->ndims)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "segment_ids.shape = %s does not prefix input.shape = %s",
                   mt_dims_str(ids->dims, ids->ndims, b1, sizeof b1),
                   mt_dims_str(in->dims, in->ndims, b2, sizeof b2));
    return;
  }
  int64_t od[MT_MAX_DIMS];
  int ond = 0;
  od[ond++] = nseg;
  int64_t inner = 1;
  for (int d = ids->ndims; d < in->ndims; d++) {
    od[ond++] = in->dims[d];
    inner *= in->dims[d];
  }
  const int64_t nid = mt_tensor_nelems(ids);
  for (int64_t i = 0; i < nid; i++) {
    const int64_t id = id_at(ids, i);
    if (id < 0 || id >= nseg) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "segment_ids are not allowed to exceed num_segments or to have negative "
                     "values.");
      return;
    }
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_STRING, od, ond);
  if (!out) return;
  const mt_attr_value* sa = mt_op_attr(ctx->op, "separator");
  const char* sep = sa ? sa->v.s.data : "";
  const size_t sep_n = sa ? sa->v.s.len : 0;
  const TF_TString* s = mt_str_in(in);
  TF_TString* o = mt_str_out(out);
  mt_strbuf b = {0};
  for (int64_t seg = 0; seg < nseg && !b.failed; seg++) {
    for (int64_t k = 0; k < inner && !b.failed; k++) {
      b.len = 0;
      int first = 1;
      for (int64_t i = 0; i < nid; i++) {
        if (id_at(ids, i) != seg) continue;
        const TF_TString* t = &s[i * inner + k];
        if (!first) mt_sb_add(&b, sep, sep_n);
        first = 0;
        mt_sb_add(&b, TF_StringGetDataPointer(t), TF_StringGetSize(t));
      }
      if (!b.failed) TF_StringCopy(&o[seg * inner + k], b.len ? b.s : "", b.len);
    }
  }
  if (b.failed) oom(ctx);
  free(b.s);
}

static void segment_join_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[0];
  const mt_shape* ids = &ctx->in[1];
  int64_t ns[1];
  if (in->rank < 0 || ids->rank < 0) return;
  if (mt_shape_input_as_ints(ctx, 2, ns, 1) != 1) return;
  int64_t d[MT_MAX_DIMS];
  int nd = 0;
  d[nd++] = ns[0];
  for (int k = ids->rank; k < in->rank; k++) d[nd++] = in->dims[k];
  ctx->out[0] = mt_shape_make(d, nd);
}

/* ---- StringNGrams ---- */

typedef struct ngram_attrs {
  const mt_attr_value *sep, *left, *right;
  int64_t pad_width;
} ngram_attrs;

static int64_t pad_for(const ngram_attrs* a, int64_t width) {
  const int64_t p = a->pad_width < 0 ? width - 1 : a->pad_width;
  return p < width - 1 ? p : width - 1;
}

/* Appends the `count` ngrams of `width` over data[0..len) padded by `pad`
 * on each side (as TF's CreateNgrams). */
static void make_ngrams(const ngram_attrs* a, const TF_TString* data, int64_t len, int64_t width,
                        int64_t pad, int64_t count, TF_TString* out, mt_strbuf* b) {
  for (int64_t g = 0; g < count; g++) {
    const int64_t lp = pad - g > 0 ? pad - g : 0;
    const int64_t rp0 = pad - (count - (g + 1));
    const int64_t rp = rp0 > 0 ? rp0 : 0;
    const int64_t ntok = width - (lp + rp);
    const int64_t start = lp > 0 ? 0 : g - pad;
    b->len = 0;
    int first = 1;
#define ADD(p, n)                                         \
  do {                                                    \
    if (!first) mt_sb_add(b, a->sep->v.s.data, a->sep->v.s.len); \
    first = 0;                                            \
    mt_sb_add(b, p, n);                                   \
  } while (0)
    for (int64_t k = 0; k < lp; k++) ADD(a->left->v.s.data, a->left->v.s.len);
    for (int64_t k = 0; k < ntok && start + k < len; k++)
      ADD(TF_StringGetDataPointer(&data[start + k]), TF_StringGetSize(&data[start + k]));
    for (int64_t k = 0; k < rp; k++) ADD(a->right->v.s.data, a->right->v.s.len);
#undef ADD
    if (!b->failed) TF_StringCopy(&out[g], b->len ? b->s : "", b->len);
  }
}

static int check_splits(mt_kernel_ctx* ctx, const TF_Tensor* sp, int64_t ndata) {
  const int64_t n = mt_tensor_nelems(sp);
  if (n < 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input data_splits must be at least 1 (was %lld)", (long long)n);
    return 0;
  }
  int64_t prev = 0;
  for (int64_t i = 0; i < n; i++) {
    const int64_t v = id_at(sp, i);
    if ((i == 0 && v != 0) || v < prev || v > ndata) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Invalid split value %lld at index %lld (data size %lld)", (long long)v,
                     (long long)i, (long long)ndata);
      return 0;
    }
    prev = v;
  }
  if (prev != ndata) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Last split value must be data size. Expected %lld, got %lld",
                   (long long)ndata, (long long)prev);
    return 0;
  }
  return 1;
}

static void ngrams_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* data = ctx->inputs[0];
  const TF_Tensor* sp = ctx->inputs[1];
  if (!check_splits(ctx, sp, mt_tensor_nelems(data))) return;
  ngram_attrs a = {mt_op_attr(ctx->op, "separator"), mt_op_attr(ctx->op, "left_pad"),
                   mt_op_attr(ctx->op, "right_pad"), mt_op_attr_int(ctx->op, "pad_width", 0)};
  const mt_attr_value* widths = mt_op_attr(ctx->op, "ngram_widths");
  const int preserve = mt_op_attr_bool(ctx->op, "preserve_short_sequences", 0);
  const int64_t rows = mt_tensor_nelems(sp) - 1;
  const int nw = widths ? widths->list.n : 0;
  /* First pass: the count per row. */
  int64_t* counts = mt_malloc(sizeof(int64_t) * (size_t)(rows + 1), ctx->status);
  if (!counts) return;
  int64_t total = 0;
  for (int64_t r = 0; r < rows; r++) {
    const int64_t len = id_at(sp, r + 1) - id_at(sp, r);
    int64_t c = 0;
    for (int w = 0; w < nw; w++) {
      const int64_t width = widths->list.i[w];
      const int64_t g = len + 2 * pad_for(&a, width) - width + 1;
      c += g > 0 ? g : 0;
    }
    if (preserve && c == 0 && len > 0) c = 1;
    counts[r] = c;
    total += c;
  }
  const int64_t od[1] = {total}, sd[1] = {rows + 1};
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_STRING, od, 1);
  TF_Tensor* osp = out ? mt_ctx_alloc(ctx, 1, sp->dtype, sd, 1) : NULL;
  if (!osp) {
    free(counts);
    return;
  }
  TF_TString* o = mt_str_out(out);
  const TF_TString* s = mt_str_in(data);
  mt_strbuf b = {0};
  int64_t at = 0;
  for (int64_t r = 0; r < rows; r++) {
    if (sp->dtype == TF_INT64) ((int64_t*)mt_tensor_data(osp))[r] = at;
    else ((int32_t*)mt_tensor_data(osp))[r] = (int32_t)at;
    const int64_t start = id_at(sp, r), len = id_at(sp, r + 1) - start;
    const int64_t row_start = at;
    for (int w = 0; w < nw; w++) {
      const int64_t width = widths->list.i[w], pad = pad_for(&a, width);
      const int64_t g = len + 2 * pad - width + 1;
      if (g <= 0) continue;
      make_ngrams(&a, s + start, len, width, pad, g, o + at, &b);
      at += g;
    }
    if (preserve && at == row_start && len > 0) {
      const int64_t pad = a.pad_width > 0 ? a.pad_width : 0;
      make_ngrams(&a, s + start, len, len + 2 * pad, pad, 1, o + at, &b);
      at++;
    }
  }
  if (sp->dtype == TF_INT64) ((int64_t*)mt_tensor_data(osp))[rows] = at;
  else ((int32_t*)mt_tensor_data(osp))[rows] = (int32_t)at;
  if (b.failed) oom(ctx);
  free(b.s);
  free(counts);
}

static void ngrams_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 1) || !mt_shape_with_rank(ctx, 1, 1)) return;
  const int64_t v[1] = {-1};
  ctx->out[0] = mt_shape_make(v, 1);
  ctx->out[1] = ctx->in[1];
}

static const mt_op_spec split_ops[] = {
    {.name = "StringSplit",
     .inputs = "input: string, delimiter: string",
     .outputs = "indices: int64, values: string, shape: int64",
     .attrs = "skip_empty: bool = true",
     .shape = split_shape,
     .kernel = split_v1_kernel},
    {.name = "StringSplitV2",
     .inputs = "input: string, sep: string",
     .outputs = "indices: int64, values: string, shape: int64",
     .attrs = "maxsplit: int = -1",
     .shape = split_shape,
     .kernel = split_v2_kernel},
    {.name = "ReduceJoin",
     .inputs = "inputs: string, reduction_indices: int32",
     .outputs = "output: string",
     .attrs = "keep_dims: bool = false; separator: string = ''",
     .shape = reduce_join_shape,
     .kernel = reduce_join_kernel},
    {.name = "UnsortedSegmentJoin",
     .inputs = "inputs: string, segment_ids: Tindices, num_segments: Tnumsegments",
     .outputs = "output: string",
     .attrs = "separator: string = ''; Tindices: {int32, int64}; "
              "Tnumsegments: {int32, int64} = DT_INT32",
     .shape = segment_join_shape,
     .kernel = segment_join_kernel},
    {.name = "StringNGrams",
     .inputs = "data: string, data_splits: Tsplits",
     .outputs = "ngrams: string, ngrams_splits: Tsplits",
     .attrs = "separator: string; ngram_widths: list(int) >= 0; left_pad: string; "
              "right_pad: string; pad_width: int; preserve_short_sequences: bool; "
              "Tsplits: {int32, int64} = DT_INT64",
     .shape = ngrams_shape,
     .kernel = ngrams_kernel},
};

void mt_register_string_split_ops(void) {
  mt_register_ops(split_ops, (int)(sizeof split_ops / sizeof split_ops[0]));
}
