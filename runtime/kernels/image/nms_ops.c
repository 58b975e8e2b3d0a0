/* Non-max suppression: NonMaxSuppression (V1..V5) and NonMaxSuppressionWithOverlaps.
 * OpDefs, shape functions and messages are TensorFlow's (image_ops.cc,
 * non_max_suppression_op.cc). Selection follows TensorFlow's greedy loop exactly:
 * candidates above score_threshold taken by score (ties: lower index first), each
 * compared with the boxes selected so far (last first, each pair once); hard
 * suppression above the IOU threshold, or (V5, soft_nms_sigma > 0) the Gaussian weight
 * exp(-0.5 / sigma * iou^2) with a re-queued candidate. Computed in float (half
 * inputs are read as float). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/half.h"
#include "runtime/kernels/image/image_family.h"
#include "runtime/kernels/kernel_util.h"

/* ---- shape functions (TensorFlow's NMSShapeFn family) ---- */

static int nms_common_shape(mt_shape_ctx* ctx, int boxes_are_overlaps, int nscalars) {
  if (!mt_shape_with_rank(ctx, 0, 2) || !mt_shape_with_rank(ctx, 1, 1)) return 0;
  for (int i = 2; i < 2 + nscalars; i++)
    if (!mt_shape_with_rank(ctx, i, 0)) return 0;
  const mt_shape *b = &ctx->in[0], *s = &ctx->in[1];
  int64_t n;
  if (b->rank == 2 && !boxes_are_overlaps && b->dims[1] >= 0 && b->dims[1] != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension must be 4 but is %lld",
                   (long long)b->dims[1]);
    return 0;
  }
  if (!mt_merge_dim(ctx, b->rank == 2 ? b->dims[0] : -1, s->rank == 1 ? s->dims[0] : -1, &n))
    return 0;
  if (boxes_are_overlaps && b->rank == 2 && !mt_merge_dim(ctx, n, b->dims[1], &n)) return 0;
  return 1;
}

static void set_vector_out(mt_shape_ctx* ctx, int idx, int64_t n) {
  ctx->out[idx] = mt_shape_make(&n, 1);
}

static void nms_v1_shape(mt_shape_ctx* ctx) {
  if (nms_common_shape(ctx, 0, 1)) set_vector_out(ctx, 0, -1);
}

static void nms_v2_shape(mt_shape_ctx* ctx) {
  if (nms_common_shape(ctx, 0, 2)) set_vector_out(ctx, 0, -1);
}

static void nms_v3_shape(mt_shape_ctx* ctx) {
  if (nms_common_shape(ctx, 0, 3)) set_vector_out(ctx, 0, -1);
}

static void nms_overlaps_shape(mt_shape_ctx* ctx) {
  if (nms_common_shape(ctx, 1, 3)) set_vector_out(ctx, 0, -1);
}

/* V4/V5: [max_output_size] when padded and known, else [?]; valid_outputs scalar. */
static void nms_padded_shape(mt_shape_ctx* ctx, int nscalars, int nvec) {
  if (!nms_common_shape(ctx, 0, nscalars)) return;
  int64_t n = -1, v;
  if (mt_op_attr_bool(ctx->op, "pad_to_max_output_size", 0) &&
      mt_shape_input_as_ints(ctx, 2, &v, 1) == 1 && v >= 0)
    n = v;
  for (int i = 0; i < nvec; i++) set_vector_out(ctx, i, n);
  ctx->out[nvec] = mt_shape_scalar();
}

static void nms_v4_shape(mt_shape_ctx* ctx) { nms_padded_shape(ctx, 3, 1); }
static void nms_v5_shape(mt_shape_ctx* ctx) { nms_padded_shape(ctx, 4, 2); }

/* ---- the greedy selection ---- */

typedef struct candidate {
  int index;
  float score;
  int begin; /* selected boxes before this one were already compared */
} candidate;

/* a ranks above b: higher score, then lower index */
static int above(const candidate* a, const candidate* b) {
  return a->score > b->score || (a->score == b->score && a->index < b->index);
}

typedef struct heap {
  candidate* c;
  int n;
} heap;

static void heap_push(heap* h, candidate x) {
  int i = h->n++;
  while (i > 0 && above(&x, &h->c[(i - 1) / 2])) {
    h->c[i] = h->c[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h->c[i] = x;
}

static candidate heap_pop(heap* h) {
  const candidate top = h->c[0], last = h->c[--h->n];
  int i = 0;
  for (;;) {
    int k = 2 * i + 1;
    if (k >= h->n) break;
    if (k + 1 < h->n && above(&h->c[k + 1], &h->c[k])) k++;
    if (!above(&h->c[k], &last)) break;
    h->c[i] = h->c[k];
    i = k;
  }
  if (h->n > 0) h->c[i] = last;
  return top;
}

typedef struct nms_in {
  const float* boxes;    /* [n, 4] as float, or NULL with overlaps */
  const float* overlaps; /* [n, n] */
  const float* scores;
  int n, max_out;
  float threshold, score_threshold, sigma;
} nms_in;

static float box_iou(const float* b, int i, int j) {
  const float* p = b + 4 * i;
  const float* q = b + 4 * j;
  const float ymin_i = fminf(p[0], p[2]), xmin_i = fminf(p[1], p[3]);
  const float ymax_i = fmaxf(p[0], p[2]), xmax_i = fmaxf(p[1], p[3]);
  const float ymin_j = fminf(q[0], q[2]), xmin_j = fminf(q[1], q[3]);
  const float ymax_j = fmaxf(q[0], q[2]), xmax_j = fmaxf(q[1], q[3]);
  const float area_i = (ymax_i - ymin_i) * (xmax_i - xmin_i);
  const float area_j = (ymax_j - ymin_j) * (xmax_j - xmin_j);
  if (area_i <= 0 || area_j <= 0) return 0.0f;
  const float iy = fmaxf(fminf(ymax_i, ymax_j) - fmaxf(ymin_i, ymin_j), 0.0f);
  const float ix = fmaxf(fminf(xmax_i, xmax_j) - fmaxf(xmin_i, xmin_j), 0.0f);
  const float inter = iy * ix;
  return inter / (area_i + area_j - inter);
}

static float similarity(const nms_in* in, int i, int j) {
  return in->boxes ? box_iou(in->boxes, i, j) : in->overlaps[(int64_t)i * in->n + j];
}

/* Fills sel/sel_scores (capacity max_out); returns the count, -1 when out of memory. */
static int nms_select(const nms_in* in, int* sel, float* sel_scores) {
  heap h = {malloc(sizeof(candidate) * (size_t)(in->n > 0 ? in->n : 1)), 0};
  if (!h.c) return -1;
  for (int i = 0; i < in->n; i++)
    if (in->scores[i] > in->score_threshold) heap_push(&h, (candidate){i, in->scores[i], 0});
  const int soft = in->sigma > 0.0f;
  const float scale = soft ? -0.5f / in->sigma : 0.0f;
  int count = 0;
  while (count < in->max_out && h.n > 0) {
    candidate c = heap_pop(&h);
    const float original = c.score;
    int hard = 0;
    for (int j = count - 1; j >= c.begin; j--) {
      const float sim = similarity(in, c.index, sel[j]);
      const float w = expf(scale * sim * sim);
      c.score *= soft || sim <= in->threshold ? w : 0.0f;
      if (!soft && sim > in->threshold) {
        hard = 1;
        break;
      }
      if (c.score <= in->score_threshold) break;
    }
    c.begin = count;
    if (hard) continue;
    if (c.score == original) {
      sel[count] = c.index;
      sel_scores[count++] = c.score;
    } else if (c.score > in->score_threshold) {
      heap_push(&h, c);
    }
  }
  free(h.c);
  return count;
}

/* ---- kernels ---- */

static int scalar_input(mt_kernel_ctx* ctx, int idx, const char* what, int rank_note) {
  const TF_Tensor* t = ctx->inputs[idx];
  if (t->ndims == 0) return 1;
  char b[128];
  if (rank_note)
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "%s must be 0-D, got shape %s (Shape must be rank 0 but is rank %d)", what,
                   mt_dims_str(t->dims, t->ndims, b, sizeof b), t->ndims);
  else
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s must be 0-D, got shape %s", what,
                   mt_dims_str(t->dims, t->ndims, b, sizeof b));
  return 0;
}

static float scalar_value(const TF_Tensor* t) {
  if (t->dtype == TF_HALF) return mt_half_to_float(*(const mt_half*)mt_tensor_data(t));
  return *(const float*)mt_tensor_data(t);
}

/* boxes [n, 4] and scores [n], TensorFlow's wording; *n set. */
static int boxes_scores_ok(mt_kernel_ctx* ctx, int overlaps, int* n) {
  const TF_Tensor *b = ctx->inputs[0], *s = ctx->inputs[1];
  char buf[128];
  const char* name = overlaps ? "overlaps" : "boxes";
  if (b->ndims != 2) {
    if (overlaps)
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "overlaps must be 2-D%s",
                     mt_dims_str(b->dims, b->ndims, buf, sizeof buf));
    else
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "%s must be 2-D%s (Shape must be rank 2 but is rank %d)", name,
                     mt_dims_str(b->dims, b->ndims, buf, sizeof buf), b->ndims);
    return 0;
  }
  *n = (int)b->dims[0];
  if (overlaps && b->dims[1] != *n) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "overlaps must be square%s",
                   mt_dims_str(b->dims, b->ndims, buf, sizeof buf));
    return 0;
  }
  if (!overlaps && b->dims[1] != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "boxes must have 4 columns (Dimension must be 4 but is %lld)",
                   (long long)b->dims[1]);
    return 0;
  }
  if (s->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "scores must be 1-D%s (Shape must be rank 1 but is rank %d)",
                   mt_dims_str(s->dims, s->ndims, buf, sizeof buf), s->ndims);
    return 0;
  }
  if (s->dims[0] != *n) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "scores has incompatible shape (Dimensions must be equal, but are %d and "
                   "%lld)", *n, (long long)s->dims[0]);
    return 0;
  }
  return 1;
}

/* A float copy of a float or half tensor (the caller frees it). */
static float* as_floats(mt_kernel_ctx* ctx, const TF_Tensor* t) {
  const int64_t n = mt_tensor_nelems(t);
  float* f = mt_malloc(sizeof(float) * (size_t)(n > 0 ? n : 1), ctx->status);
  if (!f) return NULL;
  for (int64_t i = 0; i < n; i++)
    f[i] = t->dtype == TF_HALF ? mt_half_to_float(((const mt_half*)mt_tensor_data(t))[i])
                               : ((const float*)mt_tensor_data(t))[i];
  return f;
}

/* version: 1..5, or 0 for WithOverlaps. */
static void nms_run(mt_kernel_ctx* ctx, int version) {
  const int has_iou_input = version >= 2 || version == 0;
  if (!scalar_input(ctx, 2, "max_output_size", version == 3)) return;
  float threshold;
  if (version == 1) {
    threshold = mt_op_attr_float(ctx->op, "iou_threshold", 0.5f);
  } else {
    if (!scalar_input(ctx, 3, version ? "iou_threshold" : "overlap_threshold", version == 3))
      return;
    threshold = scalar_value(ctx->inputs[3]);
  }
  if (version != 0 && !(threshold >= 0.0f && threshold <= 1.0f)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "iou_threshold must be in [0, 1]");
    return;
  }
  float score_threshold = -INFINITY, sigma = 0.0f;
  if (version >= 3 || version == 0) {
    if (!scalar_input(ctx, 4, "score_threshold", 0)) return;
    score_threshold = scalar_value(ctx->inputs[4]);
  }
  if (version == 1 || version == 2) score_threshold = -3.40282347e38f; /* lowest() */
  if (version == 5) {
    if (!scalar_input(ctx, 5, "soft_nms_sigma", 0)) return;
    sigma = scalar_value(ctx->inputs[5]);
    if (!(sigma >= 0.0f)) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "soft_nms_sigma_val must be >= 0");
      return;
    }
  }
  (void)has_iou_input;
  int n;
  if (!boxes_scores_ok(ctx, version == 0, &n)) return;
  const int max_out = *(const int32_t*)mt_tensor_data(ctx->inputs[2]);
  if (max_out < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "output size must be non-negative");
    return;
  }
  float* boxes = as_floats(ctx, ctx->inputs[0]);
  float* scores = boxes ? as_floats(ctx, ctx->inputs[1]) : NULL;
  const int cap = max_out < n ? max_out : n;
  int* sel = scores ? mt_malloc(sizeof(int) * (size_t)(cap + 1), ctx->status) : NULL;
  float* sel_scores = sel ? mt_malloc(sizeof(float) * (size_t)(cap + 1), ctx->status) : NULL;
  if (sel_scores) {
    nms_in in = {version ? boxes : NULL, version ? NULL : boxes, scores, n, cap, threshold,
                 score_threshold, sigma};
    const int count = nms_select(&in, sel, sel_scores);
    const int pad = (version == 4 || version == 5) &&
                    mt_op_attr_bool(ctx->op, "pad_to_max_output_size", 0);
    const int64_t len = pad ? max_out : count;
    TF_Tensor* idx = count >= 0 ? mt_ctx_alloc(ctx, 0, TF_INT32, &len, 1) : NULL;
    TF_Tensor* sc = idx && version == 5 ? mt_ctx_alloc(ctx, 1, ctx->inputs[1]->dtype, &len, 1)
                                        : NULL;
    if (count < 0) mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "out of memory");
    if (idx) {
      int32_t* o = mt_tensor_data(idx);
      for (int64_t i = 0; i < len; i++) o[i] = i < count ? sel[i] : 0;
    }
    if (sc) {
      for (int64_t i = 0; i < len; i++) {
        const float v = i < count ? sel_scores[i] : 0.0f;
        if (sc->dtype == TF_HALF) ((mt_half*)mt_tensor_data(sc))[i] = mt_float_to_half(v);
        else ((float*)mt_tensor_data(sc))[i] = v;
      }
    }
    if (idx && (version == 4 || (version == 5 && sc))) {
      TF_Tensor* valid = mt_ctx_alloc(ctx, version == 4 ? 1 : 2, TF_INT32, NULL, 0);
      if (valid) *(int32_t*)mt_tensor_data(valid) = count;
    }
  }
  free(sel_scores);
  free(sel);
  free(scores);
  free(boxes);
}

static void nms_v1_kernel(mt_kernel_ctx* ctx) { nms_run(ctx, 1); }
static void nms_v2_kernel(mt_kernel_ctx* ctx) { nms_run(ctx, 2); }
static void nms_v3_kernel(mt_kernel_ctx* ctx) { nms_run(ctx, 3); }
static void nms_v4_kernel(mt_kernel_ctx* ctx) { nms_run(ctx, 4); }
static void nms_v5_kernel(mt_kernel_ctx* ctx) { nms_run(ctx, 5); }
static void nms_overlaps_kernel(mt_kernel_ctx* ctx) { nms_run(ctx, 0); }

static const mt_op_spec nms_specs[] = {
    {.name = "NonMaxSuppression", .inputs = "boxes: float, scores: float, max_output_size: int32",
     .outputs = "selected_indices: int32", .attrs = "iou_threshold: float = 0.5",
     .shape = nms_v1_shape, .kernel = nms_v1_kernel},
    {.name = "NonMaxSuppressionV2",
     .inputs = "boxes: T, scores: T, max_output_size: int32, iou_threshold: T_threshold",
     .outputs = "selected_indices: int32",
     .attrs = "T: {half, float} = DT_FLOAT; T_threshold: {half, float} = DT_FLOAT",
     .shape = nms_v2_shape, .kernel = nms_v2_kernel},
    {.name = "NonMaxSuppressionV3",
     .inputs = "boxes: T, scores: T, max_output_size: int32, iou_threshold: T_threshold,"
               " score_threshold: T_threshold",
     .outputs = "selected_indices: int32",
     .attrs = "T: {half, float} = DT_FLOAT; T_threshold: {half, float} = DT_FLOAT",
     .shape = nms_v3_shape, .kernel = nms_v3_kernel},
    {.name = "NonMaxSuppressionV4",
     .inputs = "boxes: T, scores: T, max_output_size: int32, iou_threshold: T_threshold,"
               " score_threshold: T_threshold",
     .outputs = "selected_indices: int32, valid_outputs: int32",
     .attrs = "T: {half, float} = DT_FLOAT; T_threshold: {half, float} = DT_FLOAT;"
              " pad_to_max_output_size: bool = false",
     .shape = nms_v4_shape, .kernel = nms_v4_kernel},
    {.name = "NonMaxSuppressionV5",
     .inputs = "boxes: T, scores: T, max_output_size: int32, iou_threshold: T,"
               " score_threshold: T, soft_nms_sigma: T",
     .outputs = "selected_indices: int32, selected_scores: T, valid_outputs: int32",
     .attrs = "T: {half, float} = DT_FLOAT; pad_to_max_output_size: bool = false",
     .shape = nms_v5_shape, .kernel = nms_v5_kernel},
    {.name = "NonMaxSuppressionWithOverlaps",
     .inputs = "overlaps: float, scores: float, max_output_size: int32,"
               " overlap_threshold: float, score_threshold: float",
     .outputs = "selected_indices: int32", .shape = nms_overlaps_shape,
     .kernel = nms_overlaps_kernel},
};

void mt_register_image_nms_ops(void) {
  mt_register_ops(nms_specs, (int)(sizeof nms_specs / sizeof nms_specs[0]));
}
