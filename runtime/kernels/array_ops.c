/* Array ops: Const, Placeholder, PlaceholderWithDefault, Identity, Reshape.
 * Signatures are TensorFlow's (array_ops.cc); none of these copies data:
 * outputs share their source buffer. */
#include <stdio.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"

/* ---- Const ---- */

static const TF_Tensor* const_value(const TF_Operation* op) {
  const mt_attr_value* v = mt_op_attr(op, "value");
  return v && v->kind == MT_ATTR_TENSOR && !v->is_list ? v->v.tensor : NULL;
}

static void const_shape(mt_shape_ctx* ctx) {
  const TF_Tensor* t = const_value(ctx->op);
  if (!t) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Const requires a tensor 'value' attr");
    return;
  }
  ctx->out[0] = mt_shape_make(t->dims, t->ndims);
}

/* Outputs the `value` attr's tensor, shared (no copy). */
static void const_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* t = const_value(ctx->op);
  const TF_DataType dt = mt_op_attr_type(ctx->op, "dtype", t ? t->dtype : TF_FLOAT);
  if (!t) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Const requires a tensor 'value' attr");
    return;
  }
  if (t->dtype != dt) {
    char a[32], b[32];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Type mismatch between value (%s) and dtype (%s)",
                   mt_dt_enum_name(t->dtype, a, sizeof a), mt_dt_enum_name(dt, b, sizeof b));
    return;
  }
  mt_ctx_set_shared(ctx, 0, t);
}

/* ---- Placeholder ---- */

static mt_shape attr_shape(const TF_Operation* op, const char* name) {
  const mt_attr_value* v = mt_op_attr(op, name);
  return v && v->kind == MT_ATTR_SHAPE && !v->is_list ? v->v.shape : mt_shape_unknown();
}

static void placeholder_shape(mt_shape_ctx* ctx) { ctx->out[0] = attr_shape(ctx->op, "shape"); }

/* Runs only when not fed: TensorFlow's exact complaint. */
static void placeholder_kernel(mt_kernel_ctx* ctx) {
  const mt_shape shape = attr_shape(ctx->op, "shape");
  const TF_DataType dt = mt_op_attr_type(ctx->op, "dtype", TF_FLOAT);
  if (shape.rank <= 0) { /* TensorFlow names the shape only for rank >= 1 */
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "You must feed a value for placeholder tensor '%s' with dtype %s",
                   ctx->op->name, mt_dtype_name(dt));
  } else {
    char buf[512];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "You must feed a value for placeholder tensor '%s' with dtype %s and shape %s",
                   ctx->op->name, mt_dtype_name(dt), mt_shape_str(&shape, buf, sizeof buf));
  }
}

/* The input must be compatible with the `shape` attr; the output has the
 * attr's (possibly less precise) shape, as in TensorFlow. */
static void placeholder_with_default_shape(mt_shape_ctx* ctx) {
  const mt_shape shape = attr_shape(ctx->op, "shape");
  mt_shape unused;
  if (!mt_merge_shape(ctx, &ctx->in[0], &shape, &unused)) return;
  ctx->out[0] = shape;
}

/* Identity and PlaceholderWithDefault: the input, shared. */
static void identity_kernel(mt_kernel_ctx* ctx) { mt_ctx_set_shared(ctx, 0, ctx->inputs[0]); }

/* ---- Reshape ---- */

/* Reshape's shape function: with a constant `shape` input, its dims (one
 * -1 inferred from a fully known input); otherwise the rank when the shape
 * input's length is known. */
static void reshape_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[0];
  mt_shape* out = &ctx->out[0];
  int64_t v[MT_MAX_DIMS];
  const int n = mt_shape_input_as_ints(ctx, 1, v, MT_MAX_DIMS);
  if (n < 0 || n > MT_MAX_DIMS) {
    const mt_shape* s = &ctx->in[1];
    if (s->rank == 1 && s->dims[0] >= 0 && s->dims[0] <= MT_MAX_DIMS) {
      out->rank = (int)s->dims[0];
      for (int d = 0; d < out->rank; d++) out->dims[d] = -1;
    } else {
      *out = mt_shape_unknown();
    }
    return;
  }
  int unknown = -1, nunknown = 0;
  int64_t product = 1;
  out->rank = n;
  for (int d = 0; d < n; d++) {
    out->dims[d] = v[d] < 0 ? -1 : v[d];
    if (v[d] == -1) {
      unknown = d;
      nunknown++;
    } else if (v[d] >= 0) {
      product *= v[d];
    }
  }
  const int64_t in_n = mt_shape_nelems(in);
  if (nunknown > 1 || in_n < 0) return; /* the kernel reports errors */
  if (nunknown == 0) {
    if (product != in_n) {
      char a[256];
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Cannot reshape a tensor with %lld elements to shape %s (%lld elements)",
                     (long long)in_n, mt_shape_str(out, a, sizeof a), (long long)product);
    }
    return;
  }
  if (product > 0) {
    if (in_n % product != 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Dimension size must be evenly divisible by %lld but is %lld",
                     (long long)product, (long long)in_n);
      return;
    }
    out->dims[unknown] = in_n / product;
  }
}

static void reshape_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_Tensor* sizes = ctx->inputs[1];
  char buf[256];
  if (sizes->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "sizes input must be 1-D, not %s",
                   mt_dims_str(sizes->dims, sizes->ndims, buf, sizeof buf));
    return;
  }
  if (sizes->dtype != TF_INT32 && sizes->dtype != TF_INT64) {
    char a[32];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "desired shape must be a DT_INT32 or DT_INT64 vector, not a %s",
                   mt_dt_enum_name(sizes->dtype, a, sizeof a) + 3);
    return;
  }
  const int64_t n = sizes->dims[0];
  if (n > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Reshape to rank %lld exceeds %d dims",
                   (long long)n, MT_MAX_DIMS);
    return;
  }
  int64_t dims[MT_MAX_DIMS];
  mt_tensor_ints(sizes, dims, MT_MAX_DIMS);
  int unknown = -1, has_zero = 0;
  int64_t product = 1;
  for (int d = 0; d < n; d++) {
    if (dims[d] == -1) {
      if (unknown >= 0) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "Only one input size may be -1, not both %d and %d", unknown, d);
        return;
      }
      unknown = d;
    } else if (dims[d] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Size %d must be non-negative, not %lld",
                     d, (long long)dims[d]);
      return;
    } else if (dims[d] == 0) {
      has_zero = 1;
    } else {
      product *= dims[d];
    }
  }
  const int64_t in_n = mt_tensor_nelems(in);
  if (unknown >= 0) {
    /* Zero-sized dims are left out on both sides so -1 can still be
     * inferred for empty tensors (TensorFlow does the same). */
    int64_t known_in = 1;
    int in_has_zero = 0;
    for (int d = 0; d < in->ndims; d++) {
      if (in->dims[d] > 0 || !has_zero) known_in *= in->dims[d];
      else in_has_zero = 1;
    }
    const int64_t missing = known_in / product;
    if (!in_has_zero && product * missing != known_in) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Input to reshape is a tensor with %lld values, but the requested shape "
                     "requires a multiple of %lld",
                     (long long)known_in, (long long)product);
      return;
    }
    dims[unknown] = missing;
  }
  const int64_t out_n = mt_num_elements(dims, (int)n);
  if (out_n != in_n) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input to reshape is a tensor with %lld values, but the requested shape has "
                   "%lld",
                   (long long)in_n, (long long)out_n);
    return;
  }
  ctx->outputs[0] = mt_tensor_reshape(in, dims, (int)n);
}

static const mt_op_spec array_specs[] = {
    {.name = "Const", .outputs = "output: dtype", .attrs = "value: tensor; dtype: type",
     .shape = const_shape, .kernel = const_kernel},
    {.name = "Placeholder", .outputs = "output: dtype",
     .attrs = "dtype: type; shape: shape = unknown",
     .shape = placeholder_shape, .kernel = placeholder_kernel},
    {.name = "PlaceholderWithDefault", .inputs = "input: dtype", .outputs = "output: dtype",
     .attrs = "dtype: type; shape: shape",
     .shape = placeholder_with_default_shape, .kernel = identity_kernel},
    {.name = "Identity", .inputs = "input: T", .outputs = "output: T", .attrs = "T: type",
     .shape = mt_unchanged_shape, .kernel = identity_kernel},
    {.name = "Reshape", .inputs = "tensor: T, shape: Tshape", .outputs = "output: T",
     .attrs = "T: type; Tshape: {int32, int64} = DT_INT32",
     .shape = reshape_shape, .kernel = reshape_kernel},
};

void mt_register_array_ops(void) {
  mt_register_ops(array_specs, (int)(sizeof array_specs / sizeof array_specs[0]));
}
