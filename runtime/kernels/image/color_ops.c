/* Colour ops: AdjustContrastv2, AdjustHue, AdjustSaturation.
 * OpDefs, shape functions, messages and CPU dtypes are TensorFlow's (image_ops.cc,
 * adjust_*_op.cc); the per-pixel arithmetic follows TensorFlow's CPU
 * kernels operation for operation (including their double constants), so float results
 * agree to the last bits. half/bfloat16 are computed in float and rounded once.
 *
 * TensorFlow's hue loops (`while (h >= 6) h -= 6`) never end for an infinite hue; here a
 * non-finite hue gives NaN pixels instead of a hang. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/half.h"
#include "runtime/kernels/image/image_family.h"
#include "runtime/kernels/kernel_util.h"

/* ---- element access: every supported dtype through float or double ---- */

static double load(const void* p, TF_DataType dt, int64_t i) {
  switch (dt) {
    case TF_DOUBLE: return ((const double*)p)[i];
    case TF_HALF: return mt_half_to_float(((const mt_half*)p)[i]);
    case TF_BFLOAT16: return mt_bfloat16_to_float(((const mt_bfloat16*)p)[i]);
    default: return ((const float*)p)[i];
  }
}

static void store(void* p, TF_DataType dt, int64_t i, double v) {
  switch (dt) {
    case TF_DOUBLE: ((double*)p)[i] = v; break;
    case TF_HALF: ((mt_half*)p)[i] = mt_float_to_half((float)v); break;
    case TF_BFLOAT16: ((mt_bfloat16*)p)[i] = mt_float_to_bfloat16((float)v); break;
    default: ((float*)p)[i] = (float)v; break;
  }
}

/* ---- AdjustContrastv2 ---- */

static void adjust_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank_at_least(ctx, 0, 3) || !mt_shape_with_rank(ctx, 1, 0)) return;
  ctx->out[0] = ctx->in[0];
}

static int adjust_inputs_ok(mt_kernel_ctx* ctx, const char* what, int need3) {
  const TF_Tensor *x = ctx->inputs[0], *f = ctx->inputs[1];
  char b[128];
  if (x->ndims < 3) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "input must be at least 3-D, got shape%s",
                   mt_dims_str(x->dims, x->ndims, b, sizeof b));
    return 0;
  }
  if (f->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s must be scalar: %s", what,
                   mt_dims_str(f->dims, f->ndims, b, sizeof b));
    return 0;
  }
  const int64_t c = x->dims[x->ndims - 1];
  if (need3 && c != 3) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "input must have 3 channels but instead has %lld channels.", (long long)c);
    return 0;
  }
  return 1;
}

/* Per image and channel: mean = sum / (h * w), out = mean + (x - mean) * factor. */
static void adjust_contrast_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_DataType dt = x->dtype;
  if (dt != TF_FLOAT) { /* TensorFlow's CPU kernel is float only */
    mt_kernel_unsupported(ctx, "T", dt);
    return;
  }
  if (!adjust_inputs_ok(ctx, "contrast_factor", 0)) return;
  TF_Tensor* y = mt_ctx_alloc(ctx, 0, dt, x->dims, x->ndims);
  if (!y || mt_tensor_nelems(x) == 0) return;
  const float factor = *(const float*)mt_tensor_data(ctx->inputs[1]);
  const int64_t c = x->dims[x->ndims - 1], w = x->dims[x->ndims - 2], h = x->dims[x->ndims - 3];
  const int64_t batch = mt_tensor_nelems(x) / (h * w * c);
  const float count = (float)(h * w);
  const void* in = mt_tensor_data(x);
  void* out = mt_tensor_data(y);
  for (int64_t bi = 0; bi < batch; bi++) {
    const int64_t base = bi * h * w * c;
    for (int64_t ch = 0; ch < c; ch++) {
      double sum = 0;
      for (int64_t p = 0; p < h * w; p++) sum += load(in, dt, base + p * c + ch);
      const float mean = (float)sum / count;
      for (int64_t p = 0; p < h * w; p++) {
        const int64_t i = base + p * c + ch;
        store(out, dt, i, mean + ((float)load(in, dt, i) - mean) * factor);
      }
    }
  }
}

/* ---- AdjustHue (adjust_hue_op.cc: hue as [0, 6) and the value range) ---- */

static void rgb_to_hv_range(float r, float g, float b, float* h, float* vmin, float* vmax) {
  float vmid;
  int cat;
  if (r < g) {
    if (b < r) { *vmax = g; vmid = r; *vmin = b; cat = 1; }
    else if (b > g) { *vmax = b; vmid = g; *vmin = r; cat = 3; }
    else { *vmax = g; vmid = b; *vmin = r; cat = 2; }
  } else {
    if (b < g) { *vmax = r; vmid = g; *vmin = b; cat = 0; }
    else if (b > r) { *vmax = b; vmid = r; *vmin = g; cat = 4; }
    else { *vmax = r; vmid = b; *vmin = g; cat = 5; }
  }
  if (*vmax == *vmin) {
    *h = 0;
    return;
  }
  const float ratio = (vmid - *vmin) / (*vmax - *vmin);
  *h = (float)cat + ((cat & 1) == 0 ? ratio : 1 - ratio);
}

static void hv_range_to_rgb(float h, float vmin, float vmax, float* o) {
  const int cat = isfinite(h) ? (int)h : -1; /* NaN: the default case, as on x86 */
  float ratio = h - (float)cat;
  if (cat & 1) ratio = 1 - ratio;
  const float vmid = vmin + ratio * (vmax - vmin);
  switch (cat) {
    case 0: o[0] = vmax; o[1] = vmid; o[2] = vmin; break;
    case 1: o[0] = vmid; o[1] = vmax; o[2] = vmin; break;
    case 2: o[0] = vmin; o[1] = vmax; o[2] = vmid; break;
    case 3: o[0] = vmin; o[1] = vmid; o[2] = vmax; break;
    case 4: o[0] = vmid; o[1] = vmin; o[2] = vmax; break;
    default: o[0] = vmax; o[1] = vmin; o[2] = vmid; break;
  }
}

static void adjust_hue_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  if (x->dtype != TF_FLOAT) { /* TensorFlow's CPU kernel is float only */
    mt_kernel_unsupported(ctx, "T", x->dtype);
    return;
  }
  if (!adjust_inputs_ok(ctx, "delta", 1)) return;
  TF_Tensor* y = mt_ctx_forward(ctx, 0, 0, TF_FLOAT, x->dims, x->ndims);
  if (!y) return;
  const float delta = *(const float*)mt_tensor_data(ctx->inputs[1]);
  const float* p = mt_tensor_data(x);
  float* q = mt_tensor_data(y);
  for (int64_t i = 0, n = mt_tensor_nelems(x) / 3; i < n; i++, p += 3, q += 3) {
    float h, vmin, vmax;
    rgb_to_hv_range(p[0], p[1], p[2], &h, &vmin, &vmax);
    h += delta * 6;
    /* where adding 6 no longer changes h, TensorFlow loops forever */
    if (!(fabsf(h) < 16777216.0f)) h = NAN;
    while (h < 0) h += 6;
    while (h >= 6) h -= 6;
    float o[3];
    hv_range_to_rgb(h, vmin, vmax, o);
    q[0] = o[0];
    q[1] = o[1];
    q[2] = o[2];
  }
}

/* ---- AdjustSaturation (adjust_saturation_op.cc's own HSV round trip) ---- */

static void sat_rgb_to_hsv(float r, float g, float b, float* h, float* s, float* v) {
  const float vv = fmaxf(r, fmaxf(g, b));
  const float range = vv - fminf(r, fminf(g, b));
  *s = vv > 0 ? range / vv : 0;
  const float norm = 1.0f / (6.0f * range);
  float hh;
  if (r == vv) hh = norm * (g - b);
  else if (g == vv) hh = (float)((double)(norm * (b - r)) + 2.0 / 6.0);
  else hh = (float)((double)(norm * (r - g)) + 4.0 / 6.0);
  if (range <= 0.0) hh = 0;
  if (hh < 0.0) hh = hh + 1;
  *v = vv;
  *h = hh;
}

static void sat_hsv_to_rgb(float h, float s, float v, float* o) {
  const float c = s * v, m = v - c, dh = h * 6;
  const int cat = isfinite(dh) ? (int)dh : -1;
  float f = dh;
  if (!(fabsf(f) < 16777216.0f)) f = NAN; /* TensorFlow loops forever here */
  while (f <= 0) f += 2.0f;
  while (f >= 2.0f) f -= 2.0f;
  const float x = c * (1 - fabsf(f - 1));
  float rr = 0, gg = 0, bb = 0;
  switch (cat) {
    case 0: rr = c; gg = x; break;
    case 1: rr = x; gg = c; break;
    case 2: gg = c; bb = x; break;
    case 3: gg = x; bb = c; break;
    case 4: rr = x; bb = c; break;
    case 5: rr = c; bb = x; break;
    default: break;
  }
  o[0] = rr + m;
  o[1] = gg + m;
  o[2] = bb + m;
}

static void adjust_saturation_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  if (x->dtype != TF_FLOAT) {
    mt_kernel_unsupported(ctx, "T", x->dtype);
    return;
  }
  if (!adjust_inputs_ok(ctx, "scale", 1)) return;
  TF_Tensor* y = mt_ctx_alloc(ctx, 0, TF_FLOAT, x->dims, x->ndims);
  if (!y) return;
  const float scale = *(const float*)mt_tensor_data(ctx->inputs[1]);
  const float* p = mt_tensor_data(x);
  float* q = mt_tensor_data(y);
  for (int64_t i = 0, n = mt_tensor_nelems(x) / 3; i < n; i++, p += 3, q += 3) {
    float h, s, v;
    sat_rgb_to_hsv(p[0], p[1], p[2], &h, &s, &v);
    s = fminf(1.0f, fmaxf(0.0f, s * scale));
    sat_hsv_to_rgb(h, s, v, q);
  }
}

static const mt_op_spec color_specs[] = {
    {.name = "AdjustContrastv2", .inputs = "images: T, contrast_factor: float",
     .outputs = "output: T", .attrs = "T: {half, float} = DT_FLOAT", .shape = adjust_shape,
     .kernel = adjust_contrast_kernel},
    {.name = "AdjustHue", .inputs = "images: T, delta: float", .outputs = "output: T",
     .attrs = "T: {half, float} = DT_FLOAT", .shape = adjust_shape, .kernel = adjust_hue_kernel},
    {.name = "AdjustSaturation", .inputs = "images: T, scale: float", .outputs = "output: T",
     .attrs = "T: {half, float} = DT_FLOAT", .shape = adjust_shape,
     .kernel = adjust_saturation_kernel},
};

void mt_register_image_color_ops(void) {
  mt_register_ops(color_specs, (int)(sizeof color_specs / sizeof color_specs[0]));
}
