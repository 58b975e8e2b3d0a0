/* Array ops: Reshape, ExpandDims, Squeeze (views), Shape, ShapeN, Size, Rank,
 * UnravelIndex.
 * Signatures, shape functions and error messages are TensorFlow's
 * (array_ops.cc and the CPU kernels). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/array/array_util.h"

/* ======================================================================
 * Reshape, ExpandDims, Squeeze (views: no copy)
 * ====================================================================== */

/* Element count of the known dims of s, and the index of its one unknown
 * dim (-1 if none; *many = 1 if more than one). */
static int known_elems(mt_shape_ctx* ctx, const mt_shape* s, int64_t* known, int* unknown,
                       int* many) {
  *known = 1;
  *unknown = -1;
  for (int d = 0; d < s->rank; d++) {
    if (s->dims[d] < 0) {
      if (*unknown >= 0) {
        *many = 1;
        return 1;
      }
      *unknown = d;
    } else if (!ar_multiply_dims(ctx, *known, s->dims[d], known)) {
      return 0;
    }
  }
  return 1;
}

/* TensorFlow's SetOutputShapeForReshape: the requested shape (partially
 * known through ar_shape_from_shape_tensor), with one unknown dim inferred
 * from the input's element count where both sides allow it. */
static void reshape_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[0];
  mt_shape out;
  if (!ar_shape_from_shape_tensor(ctx, 1, &out)) return;
  ctx->out[0] = out;
  if (out.rank < 0 || in->rank < 0) return;
  int64_t kout, kin;
  int uout, uin, many = 0;
  if (!known_elems(ctx, &out, &kout, &uout, &many)) return;
  if (!known_elems(ctx, in, &kin, &uin, &many)) return;
  if (many) return;
  char a[256];
  if (uin < 0 && uout < 0) {
    if (kin != kout)
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Cannot reshape a tensor with %lld elements to shape %s (%lld elements)",
                     (long long)kin, mt_shape_str(&out, a, sizeof a), (long long)kout);
  } else if (uin < 0 && uout >= 0 && kout > 0) {
    if (kin % kout != 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Dimension size must be evenly divisible by %lld but is %lld",
                     (long long)kout, (long long)kin);
      return;
    }
    ctx->out[0].dims[uout] = kin / kout;
  } else if (uin >= 0 && uout < 0 && kin != 0) {
    if (kout % kin != 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Dimension size must be evenly divisible by %lld but is %lld",
                     (long long)kin, (long long)kout);
    }
  } else if (uin >= 0 && uout >= 0 && kin == kout) {
    ctx->out[0].dims[uout] = in->dims[uin];
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


/* ExpandDims: TensorFlow checks the dim's value against the input rank. */
static void expand_dims_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[0];
  const TF_Tensor* dt = ctx->in_values ? ctx->in_values[1] : NULL;
  if (dt && mt_tensor_nelems(dt) != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "'dim' input must be a tensor with a single value");
    return;
  }
  int64_t dim;
  if (!dt || in->rank < 0 || !ar_scalar_input(ctx, 1, &dim)) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  const int rank = in->rank;
  if (dim < -rank - 1 || dim > rank) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "dim %lld not in the interval [%d, %d].",
                   (long long)dim, -rank - 1, rank);
    return;
  }
  if (rank + 1 > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "ExpandDims result exceeds %d dims",
                   MT_MAX_DIMS);
    return;
  }
  if (dim < 0) dim += rank + 1;
  mt_shape* out = &ctx->out[0];
  out->rank = rank + 1;
  for (int d = 0, k = 0; d <= rank; d++) out->dims[d] = d == dim ? 1 : in->dims[k++];
}

static void expand_dims_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_Tensor* dt = ctx->inputs[1];
  if (mt_tensor_nelems(dt) != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "'dim' must be a tensor with a single value");
    return;
  }
  int64_t dim = ar_first_int(dt);
  const int rank = in->ndims;
  if (dim < -1 - rank || dim > rank) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Tried to expand dim index %lld for tensor with %d dimensions.",
                   (long long)dim, rank);
    return;
  }
  if (rank + 1 > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "ExpandDims result exceeds %d dims",
                   MT_MAX_DIMS);
    return;
  }
  if (dim < 0) dim += rank + 1;
  int64_t dims[MT_MAX_DIMS];
  for (int d = 0, k = 0; d <= rank; d++) dims[d] = d == dim ? 1 : in->dims[k++];
  ctx->outputs[0] = mt_tensor_reshape(in, dims, rank + 1);
}

/* squeeze_dims wrapped into a mask over `rank` dims; 0 + message when one
 * is out of range. */
static int squeeze_mask(const TF_Operation* op, int rank, unsigned char* mask, int* any,
                        int kernel, TF_Status* s) {
  const mt_attr_value* v = mt_op_attr(op, "squeeze_dims");
  memset(mask, 0, MT_MAX_DIMS);
  *any = 0;
  const int n = v && v->is_list ? v->list.n : 0;
  for (int k = 0; k < n; k++) {
    int64_t d = v->list.i[k];
    if (d < -rank || d >= rank) {
      if (kernel)
        mt_status_setf(s, TF_INVALID_ARGUMENT,
                       "Tried to squeeze dim index %lld for tensor with %d dimensions.",
                       (long long)d, rank);
      else
        mt_status_setf(s, TF_INVALID_ARGUMENT, "squeeze_dims[%d] not in [%d,%d).", k, -rank,
                       rank);
      return 0;
    }
    mask[d < 0 ? d + rank : d] = 1;
    *any = 1;
  }
  return 1;
}

static void squeeze_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[0];
  if (in->rank < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  unsigned char mask[MT_MAX_DIMS];
  int any;
  if (!squeeze_mask(ctx->op, in->rank, mask, &any, 0, ctx->status)) return;
  mt_shape out;
  out.rank = 0;
  for (int d = 0; d < in->rank; d++) {
    const int64_t x = in->dims[d];
    if (x < 0) {
      if (mask[d]) continue; /* assumed to be 1 at run time */
      if (!any) {            /* cannot tell whether it will be squeezed */
        ctx->out[0] = mt_shape_unknown();
        return;
      }
      out.dims[out.rank++] = x;
    } else if (x == 1 && (!any || mask[d])) {
      continue;
    } else if (mask[d]) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Can not squeeze dim[%d], expected a dimension of 1, got %lld", d,
                     (long long)x);
      return;
    } else {
      out.dims[out.rank++] = x;
    }
  }
  ctx->out[0] = out;
}

static void squeeze_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  unsigned char mask[MT_MAX_DIMS];
  int any;
  if (!squeeze_mask(ctx->op, in->ndims, mask, &any, 1, ctx->status)) return;
  int64_t dims[MT_MAX_DIMS];
  int nd = 0;
  for (int d = 0; d < in->ndims; d++) {
    if (any && mask[d]) {
      if (in->dims[d] != 1) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "Can not squeeze dim[%d], expected a dimension of 1, got %lld", d,
                       (long long)in->dims[d]);
        return;
      }
    } else if (any || in->dims[d] != 1) {
      dims[nd++] = in->dims[d];
    }
  }
  ctx->outputs[0] = mt_tensor_reshape(in, dims, nd);
}

/* ======================================================================
 * Shape, ShapeN, Size, Rank
 * ====================================================================== */

static void shape_shape(mt_shape_ctx* ctx) {
  for (int k = 0; k < ctx->noutputs; k++) {
    ctx->out[k].rank = 1;
    ctx->out[k].dims[0] = ctx->in[k].rank;
  }
}

static void scalar_shape(mt_shape_ctx* ctx) { ctx->out[0] = mt_shape_scalar(); }

/* Writes n int64 values into a new int32/int64 tensor at outputs[idx];
 * int32 overflow is TensorFlow's error. */
static void output_ints(mt_kernel_ctx* ctx, int idx, TF_DataType dt, const int64_t* v, int n,
                        int vector) {
  int64_t len = n;
  TF_Tensor* t = mt_ctx_alloc(ctx, idx, dt, &len, vector ? 1 : 0);
  if (!t) return;
  for (int k = 0; k < n; k++) {
    if (dt == TF_INT32) {
      if (v[k] > INT32_MAX) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       vector ? "Shape output type is 32-bit  but dim %d is %lld"
                              : "Number of elements was larger than representable by 32-bit "
                                "output type",
                       k, (long long)v[k]);
        return;
      }
      ((int32_t*)mt_tensor_data(t))[k] = (int32_t)v[k];
    } else {
      ((int64_t*)mt_tensor_data(t))[k] = v[k];
    }
  }
}

static void shape_kernel(mt_kernel_ctx* ctx) {
  const TF_DataType dt = mt_op_attr_type(ctx->op, "out_type", TF_INT32);
  for (int k = 0; k < ctx->ninputs && mt_ok(ctx->status); k++)
    output_ints(ctx, k, dt, ctx->inputs[k]->dims, ctx->inputs[k]->ndims, 1);
}

static void size_kernel(mt_kernel_ctx* ctx) {
  const int64_t n = mt_tensor_nelems(ctx->inputs[0]);
  output_ints(ctx, 0, mt_op_attr_type(ctx->op, "out_type", TF_INT32), &n, 1, 0);
}

static void rank_kernel(mt_kernel_ctx* ctx) {
  const int64_t n = ctx->inputs[0]->ndims;
  output_ints(ctx, 0, TF_INT32, &n, 1, 0);
}

/* ======================================================================
 * UnravelIndex
 * ====================================================================== */

static void unravel_index_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 1, 1)) return;
  const mt_shape *ind = &ctx->in[0], *dims = &ctx->in[1];
  const int64_t nd = dims->rank == 1 ? dims->dims[0] : -1;
  if (ind->rank == 0) {
    ctx->out[0] = (mt_shape){.rank = 1, .dims = {nd}};
  } else if (ind->rank > 0) {
    ctx->out[0] = (mt_shape){.rank = 2, .dims = {nd, mt_shape_nelems(ind)}};
  } else {
    ctx->out[0] = mt_shape_unknown();
  }
}

/* output[i][j] = (indices[j] % stride[i]) / stride[i + 1], stride[i] the
 * product of dims[i:], in Tidx arithmetic as TensorFlow's Eigen kernel
 * (which checks only index < prod(dims), so a negative index is unravelled
 * as C division does). */
static void unravel_index_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor *ind = ctx->inputs[0], *dt = ctx->inputs[1];
  char a[256];
  if (dt->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "The indices can only be scalar or vector, got \"%s\"",
                   mt_dims_str(dt->dims, dt->ndims, a, sizeof a));
    return;
  }
  const int wide = dt->dtype == TF_INT64;
  const int64_t nd = dt->dims[0], n = mt_tensor_nelems(ind);
  int64_t* v = mt_malloc(sizeof(int64_t) * (size_t)(2 * nd + 2 + n), ctx->status);
  if (!v) return;
  int64_t *stride = v + nd, *idx = v + 2 * nd + 2;
  mt_tensor_ints(dt, v, nd);
  mt_tensor_ints(ind, idx, n);
  const double limit = wide ? (double)INT64_MAX : (double)INT32_MAX;
  double prod = 1;
  for (int64_t i = 0; i < nd; i++) {
    if (v[i] == 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Input dims cannot contain a dim of zero, but dims contains zero at index "
                     "%lld", (long long)i);
    } else if (v[i] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Input dims cannot be negative. Got dim = %lld at index %lld",
                     (long long)v[i], (long long)i);
    } else if (prod > limit / (double)v[i]) {
      char s[512];
      int len = 0;
      s[0] = 0;
      for (int64_t j = 0; j < nd && len < (int)sizeof s; j++)
        len += snprintf(s + len, sizeof s - (size_t)len, j ? " %lld" : "%lld", (long long)v[j]);
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Input dims product is causing integer overflow: (%s)", s);
    } else {
      prod *= (double)v[i];
      continue;
    }
    free(v);
    return;
  }
  stride[nd] = 1;
  for (int64_t i = nd - 1; i >= 0; i--) stride[i] = stride[i + 1] * v[i];
  for (int64_t j = 0; j < n; j++) {
    if (idx[j] >= stride[0]) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "index is out of bound as with dims");
      free(v);
      return;
    }
  }
  int64_t od[2] = {nd, n};
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, dt->dtype, od, ind->ndims == 0 ? 1 : 2);
  if (out) {
    for (int64_t i = 0; i < nd; i++) {
      for (int64_t j = 0; j < n; j++) {
        const int64_t r = wide ? idx[j] % stride[i] / stride[i + 1]
                               : (int64_t)((int32_t)idx[j] % (int32_t)stride[i] /
                                           (int32_t)stride[i + 1]);
        if (wide) ((int64_t*)mt_tensor_data(out))[i * n + j] = r;
        else ((int32_t*)mt_tensor_data(out))[i * n + j] = (int32_t)r;
      }
    }
  }
  free(v);
}

/* ======================================================================
 * Registration
 * ====================================================================== */

static const mt_op_spec shape_specs[] = {
    {.name = "Reshape", .inputs = "tensor: T, shape: Tshape", .outputs = "output: T",
     .attrs = "T: type; Tshape: " INDEX_T, .shape = reshape_shape, .kernel = reshape_kernel},
    {.name = "ExpandDims", .inputs = "input: T, dim: Tdim", .outputs = "output: T",
     .attrs = "T: type; Tdim: " INDEX_T, .shape = expand_dims_shape,
     .kernel = expand_dims_kernel},
    {.name = "Squeeze", .inputs = "input: T", .outputs = "output: T",
     .attrs = "T: type; squeeze_dims: list(int) >= 0 = []", .shape = squeeze_shape,
     .kernel = squeeze_kernel},
    {.name = "Shape", .inputs = "input: T", .outputs = "output: out_type",
     .attrs = "T: type; out_type: " INDEX_T, .shape = shape_shape, .kernel = shape_kernel},
    {.name = "ShapeN", .inputs = "input: N * T", .outputs = "output: N * out_type",
     .attrs = "N: int >= 1; T: type; out_type: " INDEX_T, .shape = shape_shape,
     .kernel = shape_kernel},
    {.name = "Size", .inputs = "input: T", .outputs = "output: out_type",
     .attrs = "T: type; out_type: " INDEX_T, .shape = scalar_shape, .kernel = size_kernel},
    {.name = "UnravelIndex", .inputs = "indices: Tidx, dims: Tidx", .outputs = "output: Tidx",
     .attrs = "Tidx: " INDEX_T, .shape = unravel_index_shape, .kernel = unravel_index_kernel},
    {.name = "Rank", .inputs = "input: T", .outputs = "output: int32", .attrs = "T: type",
     .shape = scalar_shape, .kernel = rank_kernel},
};

void mt_register_array_shape_ops(void) {
  mt_register_ops(shape_specs, (int)(sizeof shape_specs / sizeof shape_specs[0]));
}
