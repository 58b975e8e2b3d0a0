/* Summary ops: each returns a serialized tensorflow.Summary as a TF_STRING
 * scalar, as TensorFlow's summary kernels do (summary_op.cc,
 * summary_tensor_op.cc, summary_image_op.cc). ScalarSummary,
 * HistogramSummary (TensorFlow's default exponential buckets),
 * ImageSummary (PNG images), TensorSummaryV2 (tf.summary.text and other
 * plugin summaries) and MergeSummary.
 *
 * Summary proto: value = 1 (Value: tag = 1, simple_value = 2, image = 4,
 * histo = 5, tensor = 8, metadata = 9). HistogramProto: min 1, max 2, num 3,
 * sum 4, sum_squares 5, bucket_limit 6, bucket 7 (packed doubles).
 * Summary.Image: height 1, width 2, colorspace 3, encoded_image_string 4. */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/graphdef.h"
#include "runtime/kernel.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/png.h"
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
/* ImageSummary(tag: string, tensor: T) -> summary: string. tensor is
 * [batch, height, width, channels] with channels 1, 3 or 4; the first
 * max_images images become PNGs. uint8 pixels pass through; half, float and
 * double images are mapped into [0, 255] as TensorFlow does (below). */

/* The affine map x * scale + offset of one image, evaluated as TensorFlow's
 * Eigen expression does in the input type T: float in float, double in
 * double (scale and offset computed in float, then widened), half with
 * each product and sum rounded to half. */
typedef struct image_map {
  TF_DataType dtype;
  float scale, offset; /* already rounded to T for half */
} image_map;

static double pixel_value(const void* d, TF_DataType dt, int64_t k) {
  switch (dt) {
    case TF_FLOAT: return ((const float*)d)[k];
    case TF_HALF: return mt_half_to_float(((const mt_half*)d)[k]);
    default: return ((const double*)d)[k];
  }
}

static float round_half(float v) { return mt_half_to_float(mt_float_to_half(v)); }

static uint8_t map_pixel(const image_map* m, double x) {
  double y;
  if (m->dtype == TF_FLOAT) {
    float p = (float)x * m->scale;
    y = p + m->offset;
  } else if (m->dtype == TF_HALF) {
    y = round_half(round_half((float)x * m->scale) + m->offset);
  } else {
    y = x * (double)m->scale + (double)m->offset;
  }
  /* Truncation, as Eigen's cast<uint8>; the map keeps finite pixels in
   * [0, 256), and the clamp only guards the conversion. */
  return y <= 0 ? 0 : y >= 255 ? 255 : (uint8_t)y;
}

static int pixel_finite(const void* d, TF_DataType dt, int64_t at, int depth) {
  for (int j = 0; j < depth; j++)
    if (!isfinite(pixel_value(d, dt, at + j))) return 0;
  return 1;
}

/* Pixels with all channels finite are scaled so the largest value becomes
 * 255 when none is negative, else by 127 / max|x| and shifted by 128; the
 * range is taken in float, and a range under 1e-6 gives scale 0. A pixel
 * with any non-finite channel becomes bad_color. */
static void normalize_image(const void* d, TF_DataType dt, int64_t hw, int depth,
                            const uint8_t* bad_color, uint8_t* out) {
  float mn = INFINITY, mx = -INFINITY;
  for (int64_t i = 0; i < hw; i++) {
    if (!pixel_finite(d, dt, i * depth, depth)) continue;
    for (int j = 0; j < depth; j++) {
      float v = (float)pixel_value(d, dt, i * depth + j);
      mn = v < mn ? v : mn;
      mx = v > mx ? v : mx;
    }
  }
  const float kZeroThreshold = 1e-6f;
  image_map m = {dt, 0.0f, 0.0f};
  if (mn < 0) {
    float max_abs = fabsf(mn) > fabsf(mx) ? fabsf(mn) : fabsf(mx);
    m.scale = max_abs < kZeroThreshold ? 0.0f : 127.0f / max_abs;
    m.offset = 128.0f;
  } else {
    m.scale = mx < kZeroThreshold ? 0.0f : 255.0f / mx;
  }
  if (dt == TF_HALF) m.scale = round_half(m.scale);
  for (int64_t i = 0; i < hw; i++) {
    uint8_t* px = out + i * depth;
    if (!pixel_finite(d, dt, i * depth, depth)) {
      memcpy(px, bad_color, (size_t)depth);
      continue;
    }
    for (int j = 0; j < depth; j++) px[j] = map_pixel(&m, pixel_value(d, dt, i * depth + j));
  }
}

/* The attrs' checks TensorFlow makes when it builds the kernel. */
static const TF_Tensor* image_bad_color(mt_kernel_ctx* ctx, int64_t* max_images) {
  *max_images = mt_op_attr_int(ctx->op, "max_images", 3);
  if (*max_images >= ((int64_t)1 << 31)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "max_images must be < 2^31");
    return NULL;
  }
  const mt_attr_value* v = mt_op_attr(ctx->op, "bad_color");
  const TF_Tensor* bad = v && v->kind == MT_ATTR_TENSOR && !v->is_list ? v->v.tensor : NULL;
  if (!bad) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "bad_color is not set");
  } else if (bad->dtype != TF_UINT8) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "bad_color must be uint8, got %s",
                   mt_dtype_name(bad->dtype));
    bad = NULL;
  } else if (bad->ndims != 1) {
    char b[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "bad_color must be a vector, got shape %s",
                   mt_dims_str(bad->dims, bad->ndims, b, sizeof b));
    bad = NULL;
  }
  return bad;
}

/* Input checks, in TensorFlow's order; 1 when the op can go on. */
static int image_inputs_ok(mt_kernel_ctx* ctx, const TF_Tensor* bad) {
  const TF_Tensor* tag = ctx->inputs[0];
  const TF_Tensor* t = ctx->inputs[1];
  char b[256];
  /* TensorFlow accepts a "legacy scalar": shape [] or [1]. */
  if (!(tag->ndims == 0 || (tag->ndims == 1 && tag->dims[0] == 1))) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Tags must be a scalar");
    return 0;
  }
  if (t->ndims != 4 || (t->dims[3] != 1 && t->dims[3] != 3 && t->dims[3] != 4)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Tensor must be 4-D with last dim 1, 3, or 4, not %s",
                   mt_dims_str(t->dims, t->ndims, b, sizeof b));
    return 0;
  }
  const int64_t k31 = (int64_t)1 << 31, k29 = (int64_t)1 << 29;
  if (t->dims[0] >= k31 || t->dims[1] >= k31 || t->dims[2] >= k31 ||
      t->dims[1] * t->dims[2] >= k29) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Tensor too large for summary %s",
                   mt_dims_str(t->dims, t->ndims, b, sizeof b));
    return 0;
  }
  if (t->dims[1] * t->dims[2] <= 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "input tensor must have non-zero dims. Found: [%lld, %lld, %lld, %lld].",
                   (long long)t->dims[0], (long long)t->dims[1], (long long)t->dims[2],
                   (long long)t->dims[3]);
    return 0;
  }
  if (t->dtype != TF_UINT8 && bad->dims[0] < t->dims[3]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "expected depth <= bad_color.size, got depth = %lld, bad_color.size = %lld",
                   (long long)t->dims[3], (long long)bad->dims[0]);
    return 0;
  }
  return 1;
}

/* Appends Value{tag, image{height, width, colorspace, PNG}} to w. */
static int add_image(mt_kernel_ctx* ctx, mt_pb_writer* w, const TF_TString* base, int64_t i,
                     int64_t max_images, const uint8_t* pixels) {
  const TF_Tensor* t = ctx->inputs[1];
  uint8_t* png;
  size_t png_len;
  if (!mt_png_encode(pixels, t->dims[2], t->dims[1], (int)t->dims[3], 8, -1, &png, &png_len)) {
    mt_status_setf(ctx->status, TF_INTERNAL, "PNG encoding failed");
    return 0;
  }
  /* The tag depends on the number of images requested, not produced. */
  size_t blen = TF_StringGetSize(base);
  char suffix[48];
  int slen = max_images > 1 ? snprintf(suffix, sizeof suffix, "/image/%lld", (long long)i)
                            : snprintf(suffix, sizeof suffix, "/image");
  char* tag = malloc(blen + (size_t)slen + 1);
  if (!tag) {
    free(png);
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return 0;
  }
  if (blen) memcpy(tag, TF_StringGetDataPointer(base), blen);
  memcpy(tag + blen, suffix, (size_t)slen + 1);
  mt_pb_writer img = mt_pb_writer_make(), v = mt_pb_writer_make();
  mt_pb_put_int64_field(&img, 1, t->dims[1]);
  mt_pb_put_int64_field(&img, 2, t->dims[2]);
  mt_pb_put_int64_field(&img, 3, t->dims[3]);
  mt_pb_put_bytes_field(&img, 4, png, png_len);
  mt_pb_put_bytes_field(&v, 1, tag, blen + (size_t)slen);
  mt_pb_put_message(&v, 4, &img);
  mt_pb_put_message(w, 1, &v);
  free(tag);
  free(png);
  return 1;
}

static void image_summary_kernel(mt_kernel_ctx* ctx) {
  int64_t max_images;
  const TF_Tensor* bad = image_bad_color(ctx, &max_images);
  if (!bad || !image_inputs_ok(ctx, bad)) return;
  const TF_Tensor* t = ctx->inputs[1];
  int64_t batch = t->dims[0], hw = t->dims[1] * t->dims[2];
  int depth = (int)t->dims[3];
  size_t image_bytes = (size_t)hw * (size_t)depth;
  int64_t n = max_images < batch ? max_images : batch;
  /* One scratch image, reused: float images are normalized into it. */
  uint8_t* scratch = NULL;
  if (t->dtype != TF_UINT8 && n > 0 && !(scratch = malloc(image_bytes))) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  const char* data = (const char*)mt_tensor_data(t);
  size_t elem = TF_DataTypeSize(t->dtype);
  mt_pb_writer w = mt_pb_writer_make();
  int ok = 1;
  for (int64_t i = 0; ok && i < n; i++) {
    const void* img = data + (size_t)i * image_bytes * elem;
    const uint8_t* pixels = (const uint8_t*)img;
    if (scratch) {
      normalize_image(img, t->dtype, hw, depth, (const uint8_t*)mt_tensor_data(bad), scratch);
      pixels = scratch;
    }
    ok = add_image(ctx, &w, tstrings(ctx->inputs[0]), i, max_images, pixels);
  }
  free(scratch);
  if (ok) emit_summary(ctx, &w);
  else mt_pb_writer_free(&w);
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
    {.name = "ImageSummary", .inputs = "tag: string, tensor: T", .outputs = "summary: string",
     .attrs = "max_images: int >= 1 = 3; T: {uint8, float, half, float64} = DT_FLOAT;"
              " bad_color: tensor = { dtype: DT_UINT8 tensor_shape { dim { size: 4 } }"
              " int_val: 255 int_val: 0 int_val: 0 int_val: 255 }",
     .shape = scalar_string_shape, .kernel = image_summary_kernel},
    {.name = "TensorSummaryV2", .inputs = "tag: string, tensor: T, serialized_summary_metadata: string",
     .outputs = "summary: string", .attrs = "T: type", .shape = scalar_string_shape,
     .kernel = tensor_summary_v2_kernel},
    {.name = "MergeSummary", .inputs = "inputs: N * string", .outputs = "summary: string",
     .attrs = "N: int >= 1", .shape = scalar_string_shape, .kernel = merge_summary_kernel},
};

void mt_register_summary_ops(void) {
  mt_register_ops(summary_specs, (int)(sizeof summary_specs / sizeof summary_specs[0]));
}
