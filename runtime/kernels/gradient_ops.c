/* Ops that exist for gradients and belong to no other family:
 * BroadcastGradientArgs (the reduction axes of a broadcasting binary op's
 * two inputs). Family-specific gradient kernels (ReluGrad, Conv2DBackprop*)
 * live with their family. */
#include "runtime/kernels/all_ops.h"
#include "runtime/kernel.h"

#include <string.h>

static void bga_shape(mt_shape_ctx* ctx) {
  for (int k = 0; k < 2; k++) {
    if (ctx->in[k].rank >= 0 && ctx->in[k].rank != 1) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be rank 1 but is rank %d",
                     ctx->in[k].rank);
      return;
    }
    ctx->out[k].rank = 1;
    ctx->out[k].dims[0] = -1;
  }
}

static int64_t read_int(const TF_Tensor* t, int64_t i) {
  return t->dtype == TF_INT64 ? ((const int64_t*)mt_tensor_data(t))[i]
                              : ((const int32_t*)mt_tensor_data(t))[i];
}

static void write_axes(mt_kernel_ctx* ctx, int idx, const int64_t* axes, int64_t n) {
  TF_DataType dt = ctx->inputs[0]->dtype;
  TF_Tensor* t = mt_ctx_alloc(ctx, idx, dt, &n, 1);
  if (!t) return;
  for (int64_t i = 0; i < n; i++) {
    if (dt == TF_INT64)
      ((int64_t*)mt_tensor_data(t))[i] = axes[i];
    else
      ((int32_t*)mt_tensor_data(t))[i] = (int32_t)axes[i];
  }
}

/* TensorFlow's BCast with reduction indices: right-aligns both shapes; an
 * axis is reduced for an input whose (padded) dim is 1 where the output's
 * is not, and for both when every dim there is 1. */
static void bga_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* s0 = ctx->inputs[0];
  const TF_Tensor* s1 = ctx->inputs[1];
  if (s0->ndims != 1 || s1->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Inputs must be vectors");
    return;
  }
  int64_t n0 = s0->dims[0], n1 = s1->dims[0];
  int64_t rank = n0 > n1 ? n0 : n1;
  if (rank > MT_MAX_DIMS * 4) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shapes of rank %lld are too large",
                   (long long)rank);
    return;
  }
  int64_t r0[MT_MAX_DIMS * 4], r1[MT_MAX_DIMS * 4];
  int64_t c0 = 0, c1 = 0;
  for (int64_t a = 0; a < rank; a++) {
    int64_t d0 = a < rank - n0 ? 1 : read_int(s0, a - (rank - n0));
    int64_t d1 = a < rank - n1 ? 1 : read_int(s1, a - (rank - n1));
    if (d0 != d1 && d0 != 1 && d1 != 1) {
      char b0[128], b1[128];
      int64_t v0[MT_MAX_DIMS * 4], v1[MT_MAX_DIMS * 4];
      for (int64_t i = 0; i < n0; i++) v0[i] = read_int(s0, i);
      for (int64_t i = 0; i < n1; i++) v1[i] = read_int(s1, i);
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Incompatible shapes: %s vs. %s",
                     mt_dims_str(v0, (int)n0, b0, sizeof b0), mt_dims_str(v1, (int)n1, b1, sizeof b1));
      return;
    }
    if (d0 == 1 && d1 == 1) {
      r0[c0++] = a;
      r1[c1++] = a;
    } else if (d0 == 1) {
      r0[c0++] = a;
    } else if (d1 == 1) {
      r1[c1++] = a;
    }
  }
  write_axes(ctx, 0, r0, c0);
  if (mt_ok(ctx->status)) write_axes(ctx, 1, r1, c1);
}

static const mt_op_spec gradient_specs[] = {
    {.name = "BroadcastGradientArgs", .inputs = "s0: T, s1: T", .outputs = "r0: T, r1: T",
     .attrs = "T: {int32, int64} = DT_INT32", .shape = bga_shape, .kernel = bga_kernel},
};

void mt_register_gradient_ops(void) {
  mt_register_ops(gradient_specs, (int)(sizeof gradient_specs / sizeof gradient_specs[0]));
}
