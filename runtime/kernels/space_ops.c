/* Space rearrangement ops: SpaceToDepth, DepthToSpace, SpaceToBatchND,
 * BatchToSpaceND. Signatures, shape functions and messages are TensorFlow
 * 2.21's (array_ops.cc and the CPU kernels). The kernels move elements by
 * size; like TensorFlow's CPU kernels, the depth ops take every dtype (NHWC
 * only) and the batch ops real number types. */
#include <stdio.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/move_util.h"

/* ---- shape-function arithmetic with TensorFlow's wording ---- */

/* Dimension / d, evenly (-1 stays unknown). */
static int dim_divide(mt_shape_ctx* ctx, int64_t x, int64_t d, int64_t* out) {
  if (x < 0) {
    *out = -1;
    return 1;
  }
  if (x % d != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Dimension size must be evenly divisible by %lld but is %lld", (long long)d,
                   (long long)x);
    return 0;
  }
  *out = x / d;
  return 1;
}

static int dim_subtract(mt_shape_ctx* ctx, int64_t x, int64_t y, int64_t* out) {
  if (x < 0) {
    *out = -1;
    return 1;
  }
  if (x < y) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Negative dimension size caused by subtracting %lld from %lld", (long long)y,
                   (long long)x);
    return 0;
  }
  *out = x - y;
  return 1;
}

/* x * y for non-negative sizes; 0 + status when it overflows int64. */
static int mul_ok(TF_Status* st, int64_t x, int64_t y, int64_t* out) {
  if (y != 0 && x > INT64_MAX / y) {
    mt_status_setf(st, TF_INVALID_ARGUMENT, "Dimension size overflow from multiplying %lld and %lld",
                   (long long)x, (long long)y);
    return 0;
  }
  *out = x * y;
  return 1;
}

/* ---- SpaceToDepth / DepthToSpace ---- */

/* Positions of H, W, C in the shape for a data_format; 0 for NCHW_VECT_C
 * (rank 5, shape left unknown). */
static int hwc_axes(const char* fmt, int* h, int* w, int* c) {
  if (strcmp(fmt, "NCHW") == 0) {
    *c = 1, *h = 2, *w = 3;
    return 1;
  }
  if (strcmp(fmt, "NHWC") == 0) {
    *h = 1, *w = 2, *c = 3;
    return 1;
  }
  return 0;
}

static void depth_shape(mt_shape_ctx* ctx, int to_depth) {
  const char* fmt = mt_op_attr_str(ctx->op, "data_format", "NHWC");
  int h, w, c;
  const int known_fmt = hwc_axes(fmt, &h, &w, &c);
  if (!mt_shape_with_rank(ctx, 0, known_fmt ? 4 : 5)) return;
  const mt_shape* in = &ctx->in[0];
  if (!known_fmt || in->rank < 0) {
    ctx->out[0] = known_fmt ? (mt_shape){.rank = 4, .dims = {-1, -1, -1, -1}} : mt_shape_unknown();
    return;
  }
  const int64_t b = mt_op_attr_int(ctx->op, "block_size", 2);
  int64_t bb;
  if (b < 2 || !mul_ok(ctx->status, b, b, &bb)) {
    if (mt_ok(ctx->status))
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "block_size must be > 1");
    return;
  }
  mt_shape out = *in;
  if (to_depth) {
    if (!dim_divide(ctx, in->dims[h], b, &out.dims[h])) return;
    if (!dim_divide(ctx, in->dims[w], b, &out.dims[w])) return;
    if (in->dims[c] < 0) out.dims[c] = -1;
    else if (!mul_ok(ctx->status, in->dims[c], bb, &out.dims[c])) return;
  } else {
    if (in->dims[h] < 0) out.dims[h] = -1;
    else if (!mul_ok(ctx->status, in->dims[h], b, &out.dims[h])) return;
    if (in->dims[w] < 0) out.dims[w] = -1;
    else if (!mul_ok(ctx->status, in->dims[w], b, &out.dims[w])) return;
    if (!dim_divide(ctx, in->dims[c], bb, &out.dims[c])) return;
  }
  ctx->out[0] = out;
}

static void space_to_depth_shape(mt_shape_ctx* ctx) { depth_shape(ctx, 1); }
static void depth_to_space_shape(mt_shape_ctx* ctx) { depth_shape(ctx, 0); }

/* The CPU kernels exist for NHWC only, as in TensorFlow. */
static int depth_checks(mt_kernel_ctx* ctx, int64_t* b) {
  const TF_Tensor* in = ctx->inputs[0];
  const char* fmt = mt_op_attr_str(ctx->op, "data_format", "NHWC");
  if (strcmp(fmt, "NHWC") != 0 || !mv_esize(in->dtype)) {
    char dts[32];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "No OpKernel was registered to support Op '%s' with these attrs: "
                   "[T=%s, data_format=\"%s\"]",
                   ctx->op->op_type, mt_dt_enum_name(in->dtype, dts, sizeof dts), fmt);
    return 0;
  }
  if (in->ndims != 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input rank should be: 4 instead of: %d",
                   in->ndims);
    return 0;
  }
  *b = mt_op_attr_int(ctx->op, "block_size", 2);
  if (*b < 2 || *b > ((int64_t)1 << 31)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Block size should be > 1, but was: %lld",
                   (long long)*b);
    return 0;
  }
  return 1;
}

static void space_to_depth_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  int64_t b;
  if (!depth_checks(ctx, &b)) return;
  const int64_t n = in->dims[0], h = in->dims[1], w = in->dims[2], c = in->dims[3];
  if (h % b != 0 || w % b != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Image width %lld and height %lld should be divisible by block_size: %lld",
                   (long long)w, (long long)h, (long long)b);
    return;
  }
  int64_t oc;
  if (!mul_ok(ctx->status, c, b * b, &oc)) return;
  const int64_t oh = h / b, ow = w / b;
  const int64_t odims[4] = {n, oh, ow, oc};
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, odims, 4);
  if (!out || mt_tensor_nelems(out) == 0) return;
  /* out[n, y, x, (by * b + bx) * c + k] = in[n, y * b + by, x * b + bx, k] */
  for (int64_t i = 0; i < n; i++)
    for (int64_t y = 0; y < oh; y++)
      for (int64_t x = 0; x < ow; x++)
        for (int64_t by = 0; by < b; by++)
          for (int64_t bx = 0; bx < b; bx++)
            mv_copy(out, ((i * oh + y) * ow + x) * oc + (by * b + bx) * c, in,
                    ((i * h + y * b + by) * w + x * b + bx) * c, c);
}

static void depth_to_space_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  int64_t b;
  if (!depth_checks(ctx, &b)) return;
  const int64_t n = in->dims[0], h = in->dims[1], w = in->dims[2], c = in->dims[3];
  if (c % (b * b) != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input depth dimension %lld should be divisible by: %lld", (long long)c,
                   (long long)(b * b));
    return;
  }
  int64_t oh, ow;
  if (!mul_ok(ctx->status, h, b, &oh) || !mul_ok(ctx->status, w, b, &ow)) return;
  const int64_t oc = c / (b * b);
  const int64_t odims[4] = {n, oh, ow, oc};
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, odims, 4);
  if (!out || mt_tensor_nelems(out) == 0) return;
  for (int64_t i = 0; i < n; i++)
    for (int64_t y = 0; y < h; y++)
      for (int64_t x = 0; x < w; x++)
        for (int64_t by = 0; by < b; by++)
          for (int64_t bx = 0; bx < b; bx++)
            mv_copy(out, ((i * oh + y * b + by) * ow + x * b + bx) * oc, in,
                    ((i * h + y) * w + x) * c + (by * b + bx) * oc, oc);
}

/* ---- SpaceToBatchND / BatchToSpaceND ---- */

/* TensorFlow's SpaceToBatchShapeHelper / BatchToSpaceShapeHelper; inputs
 * (input, block_shape, paddings-or-crops). */
static void space_batch_shape(mt_shape_ctx* ctx, int to_batch) {
  const mt_shape *in = &ctx->in[0], *bs = &ctx->in[1], *ps = &ctx->in[2];
  if (bs->rank != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "block_shape must have rank 1.");
    return;
  }
  const int64_t m = bs->dims[0];
  if (m < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "block_shape must have known size.");
    return;
  }
  if (m + 1 > MT_MAX_DIMS || !mt_shape_with_rank_at_least(ctx, 0, (int)m + 1)) {
    if (mt_ok(ctx->status))
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "block_shape has too many dims");
    return;
  }
  if (ps->rank >= 0) {
    if (ps->rank != 2) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Shapes must be equal rank, but are %d and 2", ps->rank);
      return;
    }
    const int64_t want[2] = {m, 2};
    for (int d = 0; d < 2; d++) {
      if (ps->dims[d] >= 0 && ps->dims[d] != want[d]) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "Dimension %d in both shapes must be equal, but are %lld and %lld. Shapes "
                       "are [%lld,%lld] and [%lld,2].",
                       d, (long long)ps->dims[d], (long long)want[d], (long long)ps->dims[0],
                       (long long)ps->dims[1], (long long)m);
        return;
      }
    }
  }
  int64_t block[MT_MAX_DIMS], pads[2 * MT_MAX_DIMS];
  const int nb = mt_shape_input_as_ints(ctx, 1, block, MT_MAX_DIMS);
  const int np = mt_shape_input_as_ints(ctx, 2, pads, 2 * MT_MAX_DIMS);
  const int have_block = nb == m, have_pads = np == 2 * m;
  mt_shape out;
  out.rank = 1 + (int)m;
  int64_t batch = in->rank >= 0 ? in->dims[0] : -1;
  for (int d = 0; d < m; d++) out.dims[1 + d] = -1;
  if (have_block && m > 0) {
    for (int d = 0; d < m; d++) {
      if (block[d] < 1) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "block_shape must be positive");
        return;
      }
      if (to_batch) {
        if (batch >= 0 && !mul_ok(ctx->status, batch, block[d], &batch)) return;
      }
      else if (!dim_divide(ctx, batch, block[d], &batch)) return;
    }
  } else if (m > 0) {
    batch = -1;
  }
  out.dims[0] = batch;
  if (have_pads && m > 0) {
    for (int d = 0; d < m; d++) {
      const int64_t p0 = pads[2 * d], p1 = pads[2 * d + 1];
      if (p0 < 0 || p1 < 0) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       to_batch ? "paddings cannot be negative" : "crops cannot be negative");
        return;
      }
      if (!have_block) continue;
      const int64_t x = in->rank >= 0 ? in->dims[1 + d] : -1;
      if (p0 > INT64_MAX / 4 || p1 > INT64_MAX / 4 || (x >= 0 && x > INT64_MAX / 2 - p0 - p1)) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension size overflow");
        return;
      }
      if (to_batch) {
        if (!dim_divide(ctx, x < 0 ? -1 : x + p0 + p1, block[d], &out.dims[1 + d])) return;
      } else {
        int64_t y = -1;
        if (x >= 0 && !mul_ok(ctx->status, x, block[d], &y)) return;
        if (!dim_subtract(ctx, y, p0, &y)) return;
        if (!dim_subtract(ctx, y, p1, &out.dims[1 + d])) return;
      }
    }
  }
  if (in->rank < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  for (int d = 1 + (int)m; d < in->rank; d++) out.dims[out.rank++] = in->dims[d];
  ctx->out[0] = out;
}

static void space_to_batch_shape(mt_shape_ctx* ctx) { space_batch_shape(ctx, 1); }
static void batch_to_space_shape(mt_shape_ctx* ctx) { space_batch_shape(ctx, 0); }

/* Reads block_shape and paddings/crops with TensorFlow's run-time checks;
 * returns the number of block dims or -1 + status. */
static int space_batch_args(mt_kernel_ctx* ctx, int to_batch, int64_t* block, int64_t* pads) {
  const TF_Tensor *in = ctx->inputs[0], *bt = ctx->inputs[1], *pt = ctx->inputs[2];
  char a[256];
  if (in->dtype == TF_BOOL || in->dtype == TF_STRING || in->dtype == TF_COMPLEX64 ||
      in->dtype == TF_COMPLEX128 || !mv_esize(in->dtype)) {
    mt_kernel_unsupported(ctx, "T", in->dtype);
    return -1;
  }
  if (bt->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "block_shape rank should be 1 instead of %d",
                   bt->ndims);
    return -1;
  }
  const int64_t m = bt->dims[0];
  if (in->ndims < 1 + m) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "input rank should be >= %lld instead of %d",
                   (long long)(1 + m), in->ndims);
    return -1;
  }
  if (pt->ndims != 2 || pt->dims[0] != m || pt->dims[1] != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s should have shape [%lld, 2] instead of %s",
                   to_batch ? "paddings" : "crops", (long long)m,
                   mt_dims_str(pt->dims, pt->ndims, a, sizeof a));
    return -1;
  }
  mt_tensor_ints(bt, block, MT_MAX_DIMS);
  mt_tensor_ints(pt, pads, 2 * MT_MAX_DIMS);
  for (int d = 0; d < m; d++) {
    if (pads[2 * d] > INT64_MAX / 4 || pads[2 * d + 1] > INT64_MAX / 4) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s too large: %lld %lld",
                     to_batch ? "Paddings" : "Crops", (long long)pads[2 * d],
                     (long long)pads[2 * d + 1]);
      return -1;
    }
    if (pads[2 * d] < 0 || pads[2 * d + 1] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     to_batch ? "Paddings must be non-negative" : "Crops must be non-negative");
      return -1;
    }
    if (block[d] < 1) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "All values in block_shape must be positive, got value, %lld at index %d.",
                     (long long)block[d], d);
      return -1;
    }
  }
  return (int)m;
}

/* Walks the batch-side tensor [B * prod(block), j_1..j_m, rest...] and
 * moves each run of `rest` elements from/to the space-side tensor
 * [B, s_1..s_m, rest...] at s_i = j_i * block_i + k_i - pad_i (k = the block
 * offset encoded in the batch index); outside the space side: zero (to
 * batch) or skipped (cropped, to space). */
static void space_batch_move(TF_Tensor* batch_t, TF_Tensor* space_t, int m, const int64_t* block,
                             const int64_t* pads, int to_batch) {
  const TF_Tensor* bside = batch_t;
  const TF_Tensor* sside = space_t;
  const int64_t nbatch = bside->dims[0], B = sside->dims[0];
  int64_t rest = 1;
  for (int d = 1 + m; d < bside->ndims; d++) rest *= bside->dims[d];
  int64_t sstr[MT_MAX_DIMS];
  mv_strides(sside->dims, 1 + m, sstr); /* in units of `rest` runs */
  int64_t jdims[MT_MAX_DIMS], j[MT_MAX_DIMS] = {0}, k[MT_MAX_DIMS];
  int64_t per = 1;
  for (int d = 0; d < m; d++) {
    jdims[d] = bside->dims[1 + d];
    per *= jdims[d];
  }
  if (per == 0 || rest == 0) return;
  int64_t bo = 0; /* run index on the batch side */
  for (int64_t ob = 0; ob < nbatch; ob++) {
    const int64_t b = ob % B;
    int64_t off = ob / B;
    for (int d = m - 1; d >= 0; d--) {
      k[d] = off % block[d];
      off /= block[d];
    }
    for (int d = 0; d < m; d++) j[d] = 0;
    for (int64_t q = 0; q < per; q++, bo++) {
      int64_t so = b * sstr[0];
      int inside = 1;
      for (int d = 0; d < m && inside; d++) {
        const int64_t s = j[d] * block[d] + k[d] - pads[2 * d];
        inside = s >= 0 && s < sside->dims[1 + d];
        so += s * sstr[1 + d];
      }
      if (to_batch) {
        if (inside) mv_copy(batch_t, bo * rest, space_t, so * rest, rest);
        else mv_zero(batch_t, bo * rest, rest);
      } else if (inside) {
        mv_copy(space_t, so * rest, batch_t, bo * rest, rest);
      }
      mv_next(j, jdims, m);
    }
  }
}

static void space_to_batch_kernel(mt_kernel_ctx* ctx) {
  TF_Tensor* in = ctx->inputs[0];
  int64_t block[MT_MAX_DIMS], pads[2 * MT_MAX_DIMS], odims[MT_MAX_DIMS];
  const int m = space_batch_args(ctx, 1, block, pads);
  if (m < 0) return;
  odims[0] = in->dims[0];
  for (int d = 0; d < m; d++) {
    const int64_t padded = in->dims[1 + d] + pads[2 * d] + pads[2 * d + 1];
    if (padded % block[d] != 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "padded_shape[%d]=%lld is not divisible by block_shape[%d]=%lld", d,
                     (long long)padded, d, (long long)block[d]);
      return;
    }
    if (odims[0] > INT64_MAX / block[d]) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Output batch size overflows");
      return;
    }
    odims[0] *= block[d];
    odims[1 + d] = padded / block[d];
  }
  for (int d = 1 + m; d < in->ndims; d++) odims[d] = in->dims[d];
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, odims, in->ndims);
  if (!out || mt_tensor_nelems(out) == 0) return;
  space_batch_move(out, in, m, block, pads, 1);
}

static void batch_to_space_kernel(mt_kernel_ctx* ctx) {
  TF_Tensor* in = ctx->inputs[0];
  int64_t block[MT_MAX_DIMS], crops[2 * MT_MAX_DIMS], odims[MT_MAX_DIMS];
  const int m = space_batch_args(ctx, 0, block, crops);
  if (m < 0) return;
  int64_t prod = 1;
  for (int d = 0; d < m; d++) {
    if (prod > INT64_MAX / block[d]) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "block_shape product overflows");
      return;
    }
    prod *= block[d];
  }
  if (in->dims[0] % prod != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input batch dimension (%lld) is not divisible by product of block sizes "
                   "(%lld)",
                   (long long)in->dims[0], (long long)prod);
    return;
  }
  odims[0] = in->dims[0] / prod;
  for (int d = 0; d < m; d++) {
    int64_t full;
    if (!mul_ok(ctx->status, in->dims[1 + d], block[d], &full)) return;
    const int64_t cropped = full - crops[2 * d] - crops[2 * d + 1];
    if (cropped < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "cropped_shape[%d]=%lld must be non-negative",
                     d, (long long)cropped);
      return;
    }
    odims[1 + d] = cropped;
  }
  for (int d = 1 + m; d < in->ndims; d++) odims[d] = in->dims[d];
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, odims, in->ndims);
  if (!out || mt_tensor_nelems(out) == 0) return;
  space_batch_move(in, out, m, block, crops, 0);
}

static const mt_op_spec space_specs[] = {
    {.name = "SpaceToDepth", .inputs = "input: T", .outputs = "output: T",
     .attrs = "T: type; block_size: int >= 2;"
              " data_format: {'NHWC', 'NCHW', 'NCHW_VECT_C'} = 'NHWC'",
     .shape = space_to_depth_shape, .kernel = space_to_depth_kernel},
    {.name = "DepthToSpace", .inputs = "input: T", .outputs = "output: T",
     .attrs = "T: type; block_size: int >= 2;"
              " data_format: {'NHWC', 'NCHW', 'NCHW_VECT_C'} = 'NHWC'",
     .shape = depth_to_space_shape, .kernel = depth_to_space_kernel},
    {.name = "SpaceToBatchND",
     .inputs = "input: T, block_shape: Tblock_shape, paddings: Tpaddings",
     .outputs = "output: T",
     .attrs = "T: type; Tblock_shape: {int32, int64} = DT_INT32;"
              " Tpaddings: {int32, int64} = DT_INT32",
     .shape = space_to_batch_shape, .kernel = space_to_batch_kernel},
    {.name = "BatchToSpaceND", .inputs = "input: T, block_shape: Tblock_shape, crops: Tcrops",
     .outputs = "output: T",
     .attrs = "T: type; Tblock_shape: {int32, int64} = DT_INT32;"
              " Tcrops: {int32, int64} = DT_INT32",
     .shape = batch_to_space_shape, .kernel = batch_to_space_kernel},
};

void mt_register_space_ops(void) {
  mt_register_ops(space_specs, (int)(sizeof space_specs / sizeof space_specs[0]));
}
