/* Array ops: Const, Placeholder, PlaceholderWithDefault, Identity, IdentityN, StopGradient,
 * PreventGradient, Snapshot, CheckNumerics, Bitcast.
 * Signatures, shape functions and error messages are TensorFlow's
 * (array_ops.cc and the CPU kernels). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/array/array_util.h"
#include "runtime/kernels/half.h"

/* ======================================================================
 * Constants, placeholders, identities
 * ====================================================================== */

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
  const TF_DataType dt = ctx->op->output_types[0]; /* the dtype attr */
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

/* EnsureShape: the input's shape merged with the `shape` attr (TensorFlow's
 * Merge message when they disagree). */
static void ensure_shape_shape(mt_shape_ctx* ctx) {
  const mt_shape want = attr_shape(ctx->op, "shape");
  mt_shape merged;
  if (!ar_merge_shapes(ctx, &want, &ctx->in[0], &merged)) return;
  ctx->out[0] = merged;
}

/* The input, shared, once its run-time shape fits the attr: else
 * "Shape of tensor x [2] is not compatible with expected shape [3]." naming
 * the input as the NodeDef does ("x", "x:1"). */
static void ensure_shape_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  const mt_shape want = attr_shape(ctx->op, "shape");
  int ok = want.rank < 0 || want.rank == x->ndims;
  for (int d = 0; ok && want.rank >= 0 && d < want.rank; d++)
    ok = want.dims[d] < 0 || want.dims[d] == x->dims[d];
  if (!ok) {
    char name[320], a[256], b[256];
    const TF_Output src = ctx->op->inputs[0];
    if (src.index) snprintf(name, sizeof name, "%s:%d", src.oper->name, src.index);
    else snprintf(name, sizeof name, "%s", src.oper->name);
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Shape of tensor %s %s is not compatible with expected shape %s.", name,
                   mt_dims_str(x->dims, x->ndims, a, sizeof a), mt_shape_str(&want, b, sizeof b));
    return;
  }
  mt_ctx_set_shared(ctx, 0, x);
}

/* GuaranteeConst: the input, shared; TensorFlow refuses resource handles. */
static void guarantee_const_kernel(mt_kernel_ctx* ctx) {
  if (ctx->inputs[0]->dtype == TF_RESOURCE) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "GuaranteeConst does not support DT_RESOURCE");
    return;
  }
  mt_ctx_set_shared(ctx, 0, ctx->inputs[0]);
}


/* ======================================================================
 * Bitcast
 * ====================================================================== */

static void bitcast_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[0];
  if (in->rank < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  const TF_DataType it = mt_op_attr_type(ctx->op, "T", TF_FLOAT);
  const TF_DataType ot = mt_op_attr_type(ctx->op, "type", TF_FLOAT);
  const size_t is = TF_DataTypeSize(it), os = TF_DataTypeSize(ot);
  if (is == 0 || os == 0) {
    char a[32], b[32];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Cannot bitcast types %s to %s because one of the type sizes is zero.",
                   mt_dt_enum_name(it, a, sizeof a) + 3, mt_dt_enum_name(ot, b, sizeof b) + 3);
    return;
  }
  mt_shape out = *in;
  if (is < os) {
    if (!mt_shape_with_rank_at_least(ctx, 0, 1)) return;
    const int64_t last = in->dims[in->rank - 1];
    const int64_t div = (int64_t)(os / is);
    if (last >= 0 && last != div) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Cannot bitcast from %d to %d due to shape. %lld does not match %lld",
                     (int)it, (int)ot, (long long)last, (long long)div);
      return;
    }
    out.rank--;
  } else if (is > os) {
    if (in->rank + 1 > MT_MAX_DIMS) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Bitcast result exceeds %d dims",
                     MT_MAX_DIMS);
      return;
    }
    out.dims[out.rank++] = (int64_t)(is / os);
  }
  ctx->out[0] = out;
}

/* A view of the input's bytes as another type (no copy). */
static void bitcast_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_DataType ot = mt_op_attr_type(ctx->op, "type", TF_FLOAT);
  const size_t is = TF_DataTypeSize(in->dtype), os = TF_DataTypeSize(ot);
  const int nd = in->ndims;
  if (is == 0 || os == 0 ||
      !(is >= os || (nd > 0 && in->dims[nd - 1] == (int64_t)(os / is)))) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Cannot bitcast from %d to %d",
                   (int)in->dtype, (int)ot);
    return;
  }
  int64_t dims[MT_MAX_DIMS];
  int ond = nd;
  memcpy(dims, in->dims, sizeof(int64_t) * (size_t)nd);
  if (is < os) {
    ond--;
  } else if (is > os) {
    if (nd + 1 > MT_MAX_DIMS) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Bitcast result exceeds %d dims",
                     MT_MAX_DIMS);
      return;
    }
    dims[ond++] = (int64_t)(is / os);
  }
  TF_Tensor* t = mt_tensor_reshape(in, dims, ond);
  if (t) t->dtype = ot;
  ctx->outputs[0] = t;
}

/* Snapshot: TensorFlow registers it for the fixed-size types only. */
static void snapshot_kernel(mt_kernel_ctx* ctx) {
  if (ctx->inputs[0]->dtype == TF_STRING) {
    mt_kernel_unsupported(ctx, "T", TF_STRING);
    return;
  }
  mt_ctx_set_shared(ctx, 0, ctx->inputs[0]);
}

/* ======================================================================
 * IdentityN, CheckNumerics (Assert is in logging_ops.c)
 * ====================================================================== */

static void identity_n_shape(mt_shape_ctx* ctx) {
  for (int k = 0; k < ctx->noutputs && k < ctx->ninputs; k++) ctx->out[k] = ctx->in[k];
}

static void identity_n_kernel(mt_kernel_ctx* ctx) {
  for (int k = 0; k < ctx->noutputs && k < ctx->ninputs; k++)
    mt_ctx_set_shared(ctx, k, ctx->inputs[k]);
}

static void check_numerics_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  const int64_t n = mt_tensor_nelems(x);
  const void* p = mt_tensor_data(x);
  int nan = 0, inf = 0;
  for (int64_t i = 0; i < n; i++) {
    double v;
    switch (x->dtype) {
      case TF_FLOAT: v = ((const float*)p)[i]; break;
      case TF_DOUBLE: v = ((const double*)p)[i]; break;
      case TF_HALF: v = mt_half_to_float(((const mt_half*)p)[i]); break;
      case TF_BFLOAT16: v = mt_bfloat16_to_float(((const mt_bfloat16*)p)[i]); break;
      default: mt_kernel_unsupported(ctx, "T", x->dtype); return;
    }
    nan |= isnan(v) != 0;
    inf |= isinf(v) != 0;
  }
  if (nan || inf) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s : Tensor had %s values",
                   mt_op_attr_str(ctx->op, "message", ""),
                   nan && inf ? "Inf and NaN" : nan ? "NaN" : "Inf");
    return;
  }
  mt_ctx_set_shared(ctx, 0, x);
}

/* ======================================================================
 * Registration
 * ====================================================================== */

static const mt_op_spec constant_specs[] = {
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
    {.name = "IdentityN", .inputs = "input: T", .outputs = "output: T",
     .attrs = "T: list(type) >= 1", .shape = identity_n_shape, .kernel = identity_n_kernel},
    {.name = "StopGradient", .inputs = "input: T", .outputs = "output: T", .attrs = "T: type",
     .shape = mt_unchanged_shape, .kernel = identity_kernel},
    {.name = "PreventGradient", .inputs = "input: T", .outputs = "output: T",
     .attrs = "T: type; message: string = ''", .shape = mt_unchanged_shape,
     .kernel = identity_kernel},
    {.name = "EnsureShape", .inputs = "input: T", .outputs = "output: T",
     .attrs = "shape: shape; T: type", .shape = ensure_shape_shape,
     .kernel = ensure_shape_kernel},
    {.name = "GuaranteeConst", .inputs = "input: T", .outputs = "output: T", .attrs = "T: type",
     .shape = mt_unchanged_shape, .kernel = guarantee_const_kernel, .flags = MT_OP_STATEFUL},
    {.name = "Snapshot", .inputs = "input: T", .outputs = "output: T", .attrs = "T: type",
     .shape = mt_unchanged_shape, .kernel = snapshot_kernel},
    {.name = "CheckNumerics", .inputs = "tensor: T", .outputs = "output: T",
     .attrs = "T: {bfloat16, half, float, double}; message: string",
     .shape = mt_unchanged_shape, .kernel = check_numerics_kernel, .flags = MT_OP_STATEFUL},
    {.name = "Bitcast", .inputs = "input: T", .outputs = "output: type",
     .attrs = "T: {bfloat16, half, float, double, int64, int32, uint8, uint16, uint32, uint64, "
              "int8, int16, complex64, complex128, qint8, quint8, qint16, quint16, qint32}; "
              "type: {bfloat16, half, float, double, int64, int32, uint8, uint16, uint32, "
              "uint64, int8, int16, complex64, complex128, qint8, quint8, qint16, quint16, "
              "qint32}",
     .shape = bitcast_shape, .kernel = bitcast_kernel},
};

void mt_register_array_constant_ops(void) {
  mt_register_ops(constant_specs, (int)(sizeof constant_specs / sizeof constant_specs[0]));
}
