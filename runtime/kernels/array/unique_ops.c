/* Array ops: Unique, UniqueWithCounts, ListDiff.
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
 * Unique
 * ====================================================================== */

/* Element equality and hash with C's == for floating types, as
 * TensorFlow's hash map: -0 equals 0, a NaN equals nothing. */
static double float_elem(TF_DataType dt, const void* p, int64_t i, int part) {
  switch (dt) {
    case TF_FLOAT: return ((const float*)p)[i];
    case TF_DOUBLE: return ((const double*)p)[i];
    case TF_HALF: return mt_half_to_float(((const mt_half*)p)[i]);
    case TF_BFLOAT16: return mt_bfloat16_to_float(((const mt_bfloat16*)p)[i]);
    case TF_COMPLEX64: return ((const float*)p)[2 * i + part];
    case TF_COMPLEX128: return ((const double*)p)[2 * i + part];
    default: return 0;
  }
}

static int is_floating(TF_DataType dt) {
  return dt == TF_FLOAT || dt == TF_DOUBLE || dt == TF_HALF || dt == TF_BFLOAT16 ||
         dt == TF_COMPLEX64 || dt == TF_COMPLEX128;
}

static uint64_t mix64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

static uint64_t hash_bytes(const void* p, size_t n) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; i++) h = (h ^ ((const unsigned char*)p)[i]) * 1099511628211ULL;
  return mix64(h);
}

static uint64_t elem_hash(TF_DataType dt, const void* p, int64_t i) {
  if (dt == TF_STRING) {
    const TF_TString* s = (const TF_TString*)p + i;
    return hash_bytes(TF_StringGetDataPointer(s), TF_StringGetSize(s));
  }
  if (is_floating(dt)) {
    double v[2] = {float_elem(dt, p, i, 0), 0};
    if (dt == TF_COMPLEX64 || dt == TF_COMPLEX128) v[1] = float_elem(dt, p, i, 1);
    for (int k = 0; k < 2; k++) {
      if (v[k] == 0) v[k] = 0;                         /* -0 hashes as 0 */
      if (isnan(v[k])) return mix64((uint64_t)i + 1); /* equals nothing: spread */
    }
    return hash_bytes(v, sizeof v);
  }
  const size_t es = TF_DataTypeSize(dt);
  return hash_bytes((const char*)p + i * (int64_t)es, es);
}

/* p[i] == q[j] (two buffers of dtype dt). */
static int elem_equal2(TF_DataType dt, const void* p, int64_t i, const void* q, int64_t j) {
  if (dt == TF_STRING) {
    const TF_TString* a = (const TF_TString*)p + i;
    const TF_TString* b = (const TF_TString*)q + j;
    const size_t n = TF_StringGetSize(a);
    return n == TF_StringGetSize(b) &&
           memcmp(TF_StringGetDataPointer(a), TF_StringGetDataPointer(b), n) == 0;
  }
  if (is_floating(dt)) {
    const int cplx = dt == TF_COMPLEX64 || dt == TF_COMPLEX128;
    return float_elem(dt, p, i, 0) == float_elem(dt, q, j, 0) &&
           (!cplx || float_elem(dt, p, i, 1) == float_elem(dt, q, j, 1));
  }
  const size_t es = TF_DataTypeSize(dt);
  return memcmp((const char*)p + i * (int64_t)es, (const char*)q + j * (int64_t)es, es) == 0;
}

static int elem_equal(TF_DataType dt, const void* p, int64_t i, int64_t j) {
  return elem_equal2(dt, p, i, p, j);
}

static void unique_shape(mt_shape_ctx* ctx) {
  ctx->out[0].rank = 1;
  ctx->out[0].dims[0] = -1;
  ctx->out[1] = ctx->in[0];
  mt_shape_with_rank(ctx, 0, 1);
}

/* UniqueWithCounts checks no rank (its kernel does). */
static void unique_with_counts_shape(mt_shape_ctx* ctx) {
  ctx->out[0].rank = 1;
  ctx->out[0].dims[0] = -1;
  ctx->out[1] = ctx->in[0];
  ctx->out[2] = ctx->out[0];
}

static void unique_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_DataType it = mt_op_attr_type(ctx->op, "out_idx", TF_INT32);
  if (x->dtype == TF_COMPLEX64 || x->dtype == TF_COMPLEX128 || TF_DataTypeSize(x->dtype) == 0) {
    char a[32], b[32]; /* TensorFlow registers real types, strings and bool */
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "No OpKernel was registered to support Op '%s' used by {{node %s}} with "
                   "these attrs: [out_idx=%s, T=%s]",
                   ctx->op->op_type, ctx->op->name, mt_dt_enum_name(it, a, sizeof a),
                   mt_dt_enum_name(x->dtype, b, sizeof b));
    return;
  }
  if (x->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "unique expects a 1D vector.");
    return;
  }
  const int64_t n = x->dims[0];
  if (it == TF_INT32 && n > INT32_MAX) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "unique does not support input tensors larger than %d elements", INT32_MAX);
    return;
  }
  TF_Tensor* idx = mt_ctx_alloc(ctx, 1, it, x->dims, 1);
  if (!idx) return;
  int64_t cap = 16;
  while (cap < 2 * n) cap *= 2;
  int64_t* table = mt_malloc(sizeof(int64_t) * (size_t)cap, ctx->status);
  int64_t* first = mt_malloc(sizeof(int64_t) * (size_t)(n + 1), ctx->status);
  if (!table || !first) goto done;
  for (int64_t k = 0; k < cap; k++) table[k] = -1;
  const void* p = mt_tensor_data(x);
  int64_t nu = 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t slot = (int64_t)(elem_hash(x->dtype, p, i) & (uint64_t)(cap - 1)), id;
    for (;;) {
      const int64_t u = table[slot];
      if (u < 0) {
        table[slot] = nu;
        first[nu] = i;
        id = nu++;
        break;
      }
      if (elem_equal(x->dtype, p, first[u], i)) {
        id = u;
        break;
      }
      slot = (slot + 1) & (cap - 1);
    }
    if (it == TF_INT32) ((int32_t*)mt_tensor_data(idx))[i] = (int32_t)id;
    else ((int64_t*)mt_tensor_data(idx))[i] = id;
  }
  TF_Tensor* y = mt_ctx_alloc(ctx, 0, x->dtype, &nu, 1);
  if (!y) goto done;
  const size_t es = TF_DataTypeSize(x->dtype);
  for (int64_t u = 0; u < nu; u++)
    ar_copy_elems(x->dtype, (char*)mt_tensor_data(y) + u * (int64_t)es,
                  (const char*)p + first[u] * (int64_t)es, 1);
  if (ctx->noutputs > 2) { /* UniqueWithCounts: occurrences of each y */
    TF_Tensor* count = mt_ctx_alloc(ctx, 2, it, &nu, 1);
    if (!count) goto done;
    memset(mt_tensor_data(count), 0, (size_t)nu * TF_DataTypeSize(it));
    for (int64_t i = 0; i < n; i++) {
      if (it == TF_INT32) ((int32_t*)mt_tensor_data(count))[((int32_t*)mt_tensor_data(idx))[i]]++;
      else ((int64_t*)mt_tensor_data(count))[((int64_t*)mt_tensor_data(idx))[i]]++;
    }
  }
done:
  free(table);
  free(first);
}

/* ======================================================================
 * ListDiff (the shape arithmetic of reduction gradients; InvertPermutation is above)
 * ====================================================================== */

static void vectors_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 1) || !mt_shape_with_rank(ctx, 1, 1)) return;
  for (int k = 0; k < 2; k++) {
    ctx->out[k].rank = 1;
    ctx->out[k].dims[0] = -1;
  }
}

/* out = the items of x not in y, in x's order (duplicates in x kept), and
 * their positions in x. Membership uses a hash set of y with C's ==, so a
 * NaN in y removes nothing, as in TensorFlow. */
static void list_diff_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor *x = ctx->inputs[0], *y = ctx->inputs[1];
  const TF_DataType it = mt_op_attr_type(ctx->op, "out_idx", TF_INT32);
  /* TensorFlow's CPU kernel: real number types and strings */
  if (x->dtype == TF_COMPLEX64 || x->dtype == TF_COMPLEX128 || x->dtype == TF_BOOL ||
      (x->dtype != TF_STRING && TF_DataTypeSize(x->dtype) == 0)) {
    mt_kernel_unsupported(ctx, "T", x->dtype);
    return;
  }
  if (x->ndims != 1 || y->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s should be a 1D vector.",
                   x->ndims != 1 ? "x" : "y");
    return;
  }
  const int64_t nx = x->dims[0], ny = y->dims[0];
  const void *px = mt_tensor_data(x), *py = mt_tensor_data(y);
  int64_t cap = 16;
  while (cap < 2 * ny) cap *= 2;
  int64_t* table = mt_malloc(sizeof(int64_t) * (size_t)cap, ctx->status);
  int64_t* keep = mt_malloc(sizeof(int64_t) * (size_t)(nx + 1), ctx->status);
  if (!table || !keep) goto done;
  for (int64_t k = 0; k < cap; k++) table[k] = -1;
  for (int64_t j = 0; j < ny; j++) {
    int64_t slot = (int64_t)(elem_hash(y->dtype, py, j) & (uint64_t)(cap - 1));
    while (table[slot] >= 0 && !elem_equal(y->dtype, py, table[slot], j))
      slot = (slot + 1) & (cap - 1);
    if (table[slot] < 0) table[slot] = j;
  }
  int64_t nk = 0;
  for (int64_t i = 0; i < nx; i++) {
    int64_t slot = (int64_t)(elem_hash(x->dtype, px, i) & (uint64_t)(cap - 1));
    int found = 0;
    while (!found && table[slot] >= 0) {
      found = elem_equal2(x->dtype, px, i, py, table[slot]);
      slot = (slot + 1) & (cap - 1);
    }
    if (!found) keep[nk++] = i;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, x->dtype, &nk, 1);
  TF_Tensor* idx = out ? mt_ctx_alloc(ctx, 1, it, &nk, 1) : NULL;
  if (!idx) goto done;
  const size_t es = TF_DataTypeSize(x->dtype);
  for (int64_t k = 0; k < nk; k++) {
    ar_copy_elems(x->dtype, (char*)mt_tensor_data(out) + k * (int64_t)es,
                  (const char*)px + keep[k] * (int64_t)es, 1);
    if (it == TF_INT32) ((int32_t*)mt_tensor_data(idx))[k] = (int32_t)keep[k];
    else ((int64_t*)mt_tensor_data(idx))[k] = keep[k];
  }
done:
  free(table);
  free(keep);
}

/* ======================================================================
 * Registration
 * ====================================================================== */

static const mt_op_spec unique_specs[] = {
    {.name = "Unique", .inputs = "x: T", .outputs = "y: T, idx: out_idx",
     .attrs = "T: type; out_idx: " INDEX_T, .shape = unique_shape, .kernel = unique_kernel},
    {.name = "UniqueWithCounts", .inputs = "x: T", .outputs = "y: T, idx: out_idx, count: out_idx",
     .attrs = "T: type; out_idx: " INDEX_T, .shape = unique_with_counts_shape,
     .kernel = unique_kernel},
    {.name = "ListDiff", .inputs = "x: T, y: T", .outputs = "out: T, idx: out_idx",
     .attrs = "T: type; out_idx: " INDEX_T, .shape = vectors_shape, .kernel = list_diff_kernel},
};

void mt_register_array_unique_ops(void) {
  mt_register_ops(unique_specs, (int)(sizeof unique_specs / sizeof unique_specs[0]));
}
