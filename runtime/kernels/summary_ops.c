/* Summary ops: each returns a serialized tensorflow.Summary as a TF_STRING
 * scalar, as TensorFlow's summary kernels do (summary_op.cc,
 * summary_tensor_op.cc). ScalarSummary, HistogramSummary (TensorFlow's
 * default exponential buckets), TensorSummaryV2 (tf.summary.text and other
 * plugin summaries) and MergeSummary.
 *
 * Summary proto: value = 1 (Value: tag = 1, simple_value = 2, histo = 5,
 * tensor = 8, metadata = 9). HistogramProto: min 1, max 2, num 3, sum 4,
 * sum_squares 5, bucket_limit 6, bucket 7 (packed doubles). */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/graphdef.h"
#include "runtime/kernel.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/proto.h"

/* Stores the writer's bytes as the op's TF_STRING scalar output 0. */
static void emit_summary(mt_kernel_ctx* ctx, mt_pb_writer* w) {
  if (w->failed) {
    mt_pb_writer_free(w);
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "out of memory writing a Summary");
    return;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_STRING, NULL, 0);
  if (out) TF_StringCopy((TF_TString*)mt_tensor_data(out), (const char*)w->data, w->len);
  mt_pb_writer_free(w);
}

static const TF_TString* tstrings(const TF_Tensor* t) {
  return (const TF_TString*)mt_tensor_data(t);
}

/* IEEE binary16 bits -> double. */
static double half_to_double(uint16_t h) {
  int sign = h >> 15, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  double v;
  if (exp == 0) v = ldexp(man, -24);
  else if (exp == 31) v = man ? NAN : INFINITY;
  else v = ldexp(man + 1024, exp - 25);
  return sign ? -v : v;
}

/* Element k of a real-number tensor as a double. */
static double as_double(const TF_Tensor* t, int64_t k) {
  const void* d = mt_tensor_data(t);
  switch (t->dtype) {
#define CASE(E, C, _) \
  case E: return (double)((const C*)d)[k];
    MT_REAL_TYPES(CASE, _)
#undef CASE
    case TF_HALF: return half_to_double(((const uint16_t*)d)[k]);
    case TF_BFLOAT16: {
      union { uint32_t u; float f; } c = {(uint32_t)((const uint16_t*)d)[k] << 16};
      return c.f;
    }
    default: return 0;
  }
}

static void put_tag(mt_pb_writer* v, const TF_TString* tag) {
  mt_pb_put_bytes_field(v, 1, TF_StringGetDataPointer(tag), TF_StringGetSize(tag));
}

static int same_shape(const TF_Tensor* a, const TF_Tensor* b) {
  if (a->ndims != b->ndims) return 0;
  for (int i = 0; i < a->ndims; i++)
    if (a->dims[i] != b->dims[i]) return 0;
  return 1;
}

/* ------------------------------------------------------------------------ */
/* ScalarSummary(tags: string, values: T) -> summary: string */

static void scalar_summary_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* tags = ctx->inputs[0];
  const TF_Tensor* values = ctx->inputs[1];
  if (!same_shape(tags, values)) {
    char a[256], b[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "tags and values are not the same shape: %s != %s",
                   mt_dims_str(tags->dims, tags->ndims, a, sizeof a),
                   mt_dims_str(values->dims, values->ndims, b, sizeof b));
    return;
  }
  mt_pb_writer w = mt_pb_writer_make();
  int64_t n = mt_tensor_nelems(tags);
  for (int64_t k = 0; k < n; k++) {
    mt_pb_writer v = mt_pb_writer_make();
    put_tag(&v, &tstrings(tags)[k]);
    mt_pb_put_float_field(&v, 2, (float)as_double(values, k));
    mt_pb_put_message(&w, 1, &v);
  }
  emit_summary(ctx, &w);
}

/* ------------------------------------------------------------------------ */
/* HistogramSummary(tag: string, values: T) -> summary: string */

/* TensorFlow's default bucket limits (core/lib/histogram): -DBL_MAX, the
 * negated powers 1e-12 * 1.1^k below 1e20 in descending magnitude, 0, the
 * same powers ascending, DBL_MAX. Built once, read-only after. */
static double* g_limits;
static int g_nlimits;
static pthread_once_t g_limits_once = PTHREAD_ONCE_INIT;

static void init_limits(void) {
  int npos = 0;
  for (double v = 1.0e-12; v < 1.0e20; v *= 1.1) npos++;
  g_nlimits = 2 * (npos + 1) + 1;
  g_limits = malloc((size_t)g_nlimits * sizeof(double));
  if (!g_limits) {
    g_nlimits = 0;
    return;
  }
  double v = 1.0e-12;
  double* pos = g_limits + npos + 2; /* after -DBL_MAX, negatives, 0 */
  for (int i = 0; i < npos; i++, v *= 1.1) {
    pos[i] = v;
    g_limits[npos - i] = -v;
  }
  g_limits[0] = -DBL_MAX;
  g_limits[npos + 1] = 0.0;
  g_limits[g_nlimits - 1] = DBL_MAX;
}

/* First limit > x (std::upper_bound), clamped to the last bucket. */
static int bucket_of(double x) {
  int lo = 0, hi = g_nlimits;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (g_limits[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo < g_nlimits ? lo : g_nlimits - 1;
}

static void put_double_nz(mt_pb_writer* w, uint32_t num, double v) {
  if (v != 0.0 || signbit(v)) mt_pb_put_double_field(w, num, v);
}

static void histogram_summary_kernel(mt_kernel_ctx* ctx) {
  pthread_once(&g_limits_once, init_limits);
  const TF_Tensor* tag = ctx->inputs[0];
  const TF_Tensor* values = ctx->inputs[1];
  if (tag->ndims != 0 || !g_nlimits) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "tags must be scalar");
    return;
  }
  double* counts = calloc((size_t)g_nlimits, sizeof(double));
  if (!counts) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  double mn = DBL_MAX, mx = -DBL_MAX, num = 0, sum = 0, sumsq = 0;
  int64_t n = mt_tensor_nelems(values);
  const TF_TString* t = tstrings(tag);
  for (int64_t k = 0; k < n; k++) {
    double x = as_double(values, k);
    if (!isfinite(x)) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s in summary histogram for: %.*s",
                     isnan(x) ? "Nan" : "Infinity", (int)TF_StringGetSize(t),
                     TF_StringGetDataPointer(t));
      free(counts);
      return;
    }
    counts[bucket_of(x)] += 1;
    if (x < mn) mn = x;
    if (x > mx) mx = x;
    num += 1;
    sum += x;
    sumsq += x * x;
  }
  /* Runs of empty buckets collapse into one entry (the run's last limit),
   * as Histogram::EncodeToProto(preserve_zero_buckets = false) does. */
  mt_pb_writer lim = mt_pb_writer_make(), cnt = mt_pb_writer_make();
  int nb = 0;
  for (int i = 0; i < g_nlimits;) {
    double end = g_limits[i], c = counts[i];
    i++;
    if (c <= 0.0)
      while (i < g_nlimits && counts[i] <= 0.0) end = g_limits[i++];
    mt_pb_put_raw(&lim, &end, sizeof end);
    mt_pb_put_raw(&cnt, &c, sizeof c);
    nb++;
  }
  free(counts);
  mt_pb_writer h = mt_pb_writer_make();
  put_double_nz(&h, 1, mn);
  put_double_nz(&h, 2, mx);
  put_double_nz(&h, 3, num);
  put_double_nz(&h, 4, sum);
  put_double_nz(&h, 5, sumsq);
  mt_pb_put_message(&h, 6, &lim);
  mt_pb_put_message(&h, 7, &cnt);
  (void)nb;
  mt_pb_writer v = mt_pb_writer_make();
  put_tag(&v, t);
  mt_pb_put_message(&v, 5, &h);
  mt_pb_writer w = mt_pb_writer_make();
  mt_pb_put_message(&w, 1, &v);
  emit_summary(ctx, &w);
}

/* ------------------------------------------------------------------------ */
/* TensorSummaryV2(tag: string, tensor: T, serialized_summary_metadata:
 * string) -> summary: string */

static void tensor_summary_v2_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* tag = ctx->inputs[0];
  const TF_Tensor* tensor = ctx->inputs[1];
  const TF_Tensor* meta = ctx->inputs[2];
  if (tag->ndims != 0 || meta->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "tag and serialized_summary_metadata must be scalars");
    return;
  }
  mt_pb_writer v = mt_pb_writer_make();
  put_tag(&v, tstrings(tag));
  /* TensorFlow writes strings as string_val (readers' make_ndarray cannot
   * read string tensor_content), everything else as tensor_content. */
  mt_pb_writer tp = mt_pb_writer_make();
  mt_tensor_to_proto_as(&tp, tensor, tensor->dtype == TF_STRING ? MT_PROTO_TYPED : MT_PROTO_CONTENT);
  mt_pb_put_message(&v, 8, &tp);
  const TF_TString* m = tstrings(meta);
  mt_pb_put_bytes_field(&v, 9, TF_StringGetDataPointer(m), TF_StringGetSize(m));
  mt_pb_writer w = mt_pb_writer_make();
  mt_pb_put_message(&w, 1, &v);
  emit_summary(ctx, &w);
}

/* ------------------------------------------------------------------------ */
/* MergeSummary(inputs: N * string) -> summary: string. The merged Summary
 * is the concatenation of the inputs' Value fields (repeated fields
 * concatenate on the wire); a tag seen twice is an error, as in TF. */

typedef struct tag_set {
  const char** s;
  size_t* len;
  int n, cap;
} tag_set;

static int tag_seen(tag_set* ts, const char* s, size_t len) {
  for (int i = 0; i < ts->n; i++)
    if (ts->len[i] == len && !memcmp(ts->s[i], s, len)) return 1;
  if (ts->n == ts->cap) {
    int cap = ts->cap ? 2 * ts->cap : 16;
    const char** ns = realloc(ts->s, (size_t)cap * sizeof *ns);
    if (ns) ts->s = ns;
    size_t* nl = realloc(ts->len, (size_t)cap * sizeof *nl);
    if (nl) ts->len = nl;
    if (!ns || !nl) return -1;
    ts->cap = cap;
  }
  ts->s[ts->n] = s;
  ts->len[ts->n++] = len;
  return 0;
}

/* Appends the Value fields of one serialized Summary to w. */
static int merge_one(mt_kernel_ctx* ctx, const TF_TString* in, tag_set* ts, mt_pb_writer* w) {
  mt_pb_reader r = mt_pb_reader_make(TF_StringGetDataPointer(in), TF_StringGetSize(in), 0);
  mt_pb_field f, g;
  int rc;
  while ((rc = mt_pb_next(&r, &f, "Summary", ctx->status)) > 0) {
    if (f.num != 1 || f.wire != MT_PB_LEN) continue;
    mt_pb_reader v;
    if (!mt_pb_sub(&r, &f, &v, "Summary.Value", ctx->status)) return 0;
    const char* tag = "";
    size_t tag_len = 0;
    int vrc;
    while ((vrc = mt_pb_next(&v, &g, "Summary.Value", ctx->status)) > 0)
      if (g.num == 1 && g.wire == MT_PB_LEN) {
        tag = (const char*)g.data;
        tag_len = g.len;
      }
    if (vrc < 0) return 0;
    int seen = tag_seen(ts, tag, tag_len);
    if (seen) {
      mt_status_setf(ctx->status, seen < 0 ? TF_RESOURCE_EXHAUSTED : TF_INVALID_ARGUMENT,
                     seen < 0 ? "out of memory" : "Duplicate tag %.*s found in summary inputs",
                     (int)tag_len, tag);
      return 0;
    }
    mt_pb_put_bytes_field(w, 1, f.data, f.len);
  }
  if (rc < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Could not parse one of the summary inputs");
    return 0;
  }
  return 1;
}

static void merge_summary_kernel(mt_kernel_ctx* ctx) {
  mt_pb_writer w = mt_pb_writer_make();
  tag_set ts = {0};
  int ok = 1;
  for (int i = 0; ok && i < ctx->ninputs; i++) {
    const TF_Tensor* in = ctx->inputs[i];
    int64_t n = mt_tensor_nelems(in);
    for (int64_t k = 0; ok && k < n; k++) ok = merge_one(ctx, &tstrings(in)[k], &ts, &w);
  }
  free(ts.s);
  free(ts.len);
  if (ok) emit_summary(ctx, &w);
  else mt_pb_writer_free(&w);
}

static void scalar_string_shape(mt_shape_ctx* ctx) { ctx->out[0].rank = 0; }

static const mt_op_spec summary_specs[] = {
    {.name = "ScalarSummary", .inputs = "tags: string, values: T", .outputs = "summary: string",
     .attrs = "T: realnumbertype", .shape = scalar_string_shape, .kernel = scalar_summary_kernel},
    {.name = "HistogramSummary", .inputs = "tag: string, values: T",
     .outputs = "summary: string", .attrs = "T: realnumbertype = DT_FLOAT",
     .shape = scalar_string_shape, .kernel = histogram_summary_kernel},
    {.name = "TensorSummaryV2", .inputs = "tag: string, tensor: T, serialized_summary_metadata: string",
     .outputs = "summary: string", .attrs = "T: type", .shape = scalar_string_shape,
     .kernel = tensor_summary_v2_kernel},
    {.name = "MergeSummary", .inputs = "inputs: N * string", .outputs = "summary: string",
     .attrs = "N: int >= 1", .shape = scalar_string_shape, .kernel = merge_summary_kernel},
};

void mt_register_summary_ops(void) {
  mt_register_ops(summary_specs, (int)(sizeof summary_specs / sizeof summary_specs[0]));
}
