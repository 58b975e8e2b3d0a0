/* Array ops: TensorScatterUpdate, TensorScatterAdd, TensorScatterSub,
 * TensorScatterMax, TensorScatterMin (tf.tensor_scatter_nd_*): a copy of
 * `tensor` with slices at `indices` updated from `updates`, in index order
 * (a repeated index sees the earlier updates, as TensorFlow's CPU functor).
 * Signatures, shape function and messages are TensorFlow 2.21's
 * (array_ops.cc ScatterNdTensorShape, scatter_nd_op.cc TensorScatterOp). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/array/array_util.h"

/* ---- shape function ---- */

/* Dims [from, to) of s (known rank) as a shape. */
static mt_shape sub_dims(const mt_shape* s, int from, int to) {
  mt_shape r = {.rank = 0};
  for (int d = from; d < to; d++) r.dims[r.rank++] = s->dims[d];
  return r;
}

/* TensorFlow's ScatterNdShapeHelper: prefix dims of indices and updates
 * agree, and the output's dims past the index depth agree with the updates'
 * inner dims. (ScatterNd's own copy is in indexing_ops.c.) */
static int scatter_dims_agree(mt_shape_ctx* ctx, const mt_shape* ind, const mt_shape* upd,
                              const mt_shape* out) {
  if (out->rank >= 0 && mt_shape_nelems(out) == 0 &&
      (mt_shape_nelems(ind) > 0 || mt_shape_nelems(upd) > 0)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Indices and updates specified for empty input");
    return 0;
  }
  if (ind->rank < 0 || upd->rank <= 0 || ind->dims[ind->rank - 1] < 0) return 1;
  const int outer = ind->rank - 1;
  const int64_t ix = ind->dims[outer];
  char a[256], b[256], c[256], d[256], m[600];
  if (upd->rank < outer) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Shape must be at least rank %d but is rank %d", outer, upd->rank);
    return 0;
  }
  mt_shape pi = sub_dims(ind, 0, outer), pu = sub_dims(upd, 0, outer), unused;
  TF_Status* tmp = TF_NewStatus();
  mt_shape_ctx quiet = *ctx; /* merges whose message goes into ours */
  quiet.status = tmp;
  int ok = ar_merge_shapes(&quiet, &pi, &pu, &unused);
  if (!ok) {
    snprintf(m, sizeof m, "%s", TF_Message(tmp));
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Dimensions [0,%d) of indices[shape=%s] = %s must match dimensions [0,%d) "
                   "of updates[shape=%s] = %s: %s",
                   outer, mt_shape_str(ind, a, sizeof a), mt_shape_str(&pi, b, sizeof b), outer,
                   mt_shape_str(upd, c, sizeof c), mt_shape_str(&pu, d, sizeof d), m);
  } else if (out->rank >= 0) {
    mt_shape su = sub_dims(upd, outer, upd->rank);
    if (ix > out->rank) {
      ok = 0;
      snprintf(m, sizeof m, "Subshape start out of bounds");
    } else {
      mt_shape so = sub_dims(out, (int)ix, out->rank);
      ok = ar_merge_shapes(&quiet, &so, &su, &unused);
      if (!ok) snprintf(m, sizeof m, "%s", TF_Message(tmp));
    }
    if (!ok) {
      mt_shape so = ix <= out->rank ? sub_dims(out, (int)ix, out->rank) : (mt_shape){.rank = 0};
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Dimensions [%lld,%d) of input[shape=%s] = %s must match dimensions "
                     "[%d,%d) of updates[shape=%s] = %s: %s",
                     (long long)ix, out->rank, mt_shape_str(out, a, sizeof a),
                     mt_shape_str(&so, b, sizeof b), outer, upd->rank,
                     mt_shape_str(upd, c, sizeof c), mt_shape_str(&su, d, sizeof d), m);
    }
  }
  TF_DeleteStatus(tmp);
  return ok;
}

static void tensor_scatter_shape(mt_shape_ctx* ctx) {
  for (int i = 0; i < 3; i++)
    if (!mt_shape_with_rank_at_least(ctx, i, 1)) return;
  if (!scatter_dims_agree(ctx, &ctx->in[1], &ctx->in[2], &ctx->in[0])) return;
  ctx->out[0] = ctx->in[0];
}

/* ---- element updates: d[i] = f(d[i], u[i]) for one slice ---- */

typedef enum { TS_UPDATE, TS_ADD, TS_SUB, TS_MAX, TS_MIN, TS_NKINDS } ts_kind;
typedef void (*ts_fn)(void* d, const void* u, int64_t n);

#define TS_(DT, CT, NAME, EXPR)                                   \
  static void NAME##_##CT(void* d_, const void* u_, int64_t n) { \
    typedef mt_compute_##CT T;                                    \
    typedef mt_wide_##CT W;                                       \
    CT* d = d_;                                                   \
    const CT* u = u_;                                             \
    for (int64_t i = 0; i < n; i++) {                             \
      const T x = mt_load_##CT(d[i]), y = mt_load_##CT(u[i]);     \
      (void)sizeof(W);                                            \
      d[i] = mt_store_##CT((T)(EXPR));                            \
    }                                                             \
  }
MT_NUMBER_TYPES(TS_, ts_add, (W)x + (W)y)
MT_NUMBER_TYPES(TS_, ts_sub, (W)x - (W)y)
/* Eigen's scalar_max/min: y only when it compares greater (so a NaN update
 * leaves the element, a NaN element stays) */
MT_REALNUMBER_TYPES(TS_, ts_max, x < y ? y : x)
MT_REALNUMBER_TYPES(TS_, ts_min, y < x ? y : x)
#undef TS_

static const ts_fn ts_fns[TS_NKINDS][MT_NUM_DTYPES] = {
    [TS_ADD] = {MT_ENTRIES(ts_add, MT_NUMBER_TYPES)},
    [TS_SUB] = {MT_ENTRIES(ts_sub, MT_NUMBER_TYPES)},
    [TS_MAX] = {MT_ENTRIES(ts_max, MT_REALNUMBER_TYPES)},
    [TS_MIN] = {MT_ENTRIES(ts_min, MT_REALNUMBER_TYPES)},
};

/* ---- kernel ---- */

/* "[3,2]" as TensorShape::DebugString prints it. */
static const char* dbg(const int64_t* dims, int nd, char* buf, size_t cap) {
  return mt_dims_str(dims, nd, buf, cap);
}

/* TensorScatterOp's checks of shapes (before any index is read). */
static int check_shapes(mt_kernel_ctx* ctx, const TF_Tensor* t, const TF_Tensor* ind,
                        const TF_Tensor* upd) {
  char a[256], b[256];
  if (ind->ndims < 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Indices shape must have rank at least one. Found:%s",
                   dbg(ind->dims, ind->ndims, a, sizeof a));
    return 0;
  }
  if (upd->ndims < 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Updates shape must have rank at least one. Found:%s",
                   dbg(upd->dims, upd->ndims, a, sizeof a));
    return 0;
  }
  /* ValidEmptyOutputShape */
  const int64_t nt = mt_tensor_nelems(t), ni = mt_tensor_nelems(ind), nu = mt_tensor_nelems(upd);
  if (!(ni == 0 && nu == 0) && !(nt != 0 && ni != 0 && nu != 0)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Indices and updates specified for empty output shape");
    return 0;
  }
  const int outer = ind->ndims - 1;
  for (int i = 0; i < outer; i++) {
    if (i >= upd->ndims || ind->dims[i] != upd->dims[i]) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Outer dimensions of indices and update must match. Indices shape: %s, "
                     "updates shape:%s",
                     dbg(ind->dims, ind->ndims, a, sizeof a),
                     dbg(upd->dims, upd->ndims, b, sizeof b));
      return 0;
    }
  }
  const int64_t ix = ind->dims[outer];
  if (upd->ndims - outer != t->ndims - ix) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Inner dimensions of output shape must match inner dimensions of updates "
                   "shape. Output: %s updates: %s",
                   dbg(t->dims, t->ndims, a, sizeof a), dbg(upd->dims, upd->ndims, b, sizeof b));
    return 0;
  }
  for (int i = 0; i + outer < upd->ndims; i++) {
    if (upd->dims[i + outer] != t->dims[ix + i]) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "The inner %lld dimensions of output.shape=%s must match the inner %d "
                     "dimensions of updates.shape=%s",
                     (long long)(t->ndims - ix), dbg(t->dims, t->ndims, a, sizeof a),
                     upd->ndims - outer, dbg(upd->dims, upd->ndims, b, sizeof b));
      return 0;
    }
  }
  return 1;
}

static int64_t index_at(const TF_Tensor* ind, int64_t k) {
  const void* p = mt_tensor_data(ind);
  switch (ind->dtype) {
    case TF_INT16: return ((const int16_t*)p)[k];
    case TF_UINT16: return ((const uint16_t*)p)[k];
    case TF_INT32: return ((const int32_t*)p)[k];
    default: return ((const int64_t*)p)[k];
  }
}

/* Element offsets of each index row into t (NULL + status on a bad row:
 * "indices[1] = [5] does not index into shape [4]", TensorFlow's
 * PrepareAndValidateInputs/DoScatterNd wording). */
static int64_t* row_offsets(mt_kernel_ctx* ctx, const TF_Tensor* t, const TF_Tensor* ind,
                            int64_t rows, int nd, int64_t slice) {
  int64_t* offs = mt_malloc(sizeof(int64_t) * (size_t)(rows ? rows : 1), ctx->status);
  if (!offs) return NULL;
  for (int64_t r = 0; r < rows; r++) {
    int64_t off = 0;
    for (int k = 0; k < nd; k++) {
      const int64_t i = index_at(ind, r * nd + k);
      if (i < 0 || i >= t->dims[k]) {
        char at[256], row[512], sh[256];
        int len = snprintf(row, sizeof row, "[");
        for (int j = 0; j < nd && len < (int)sizeof row; j++)
          len += snprintf(row + len, sizeof row - (size_t)len, j ? ", %lld" : "%lld",
                          (long long)index_at(ind, r * nd + j));
        if (len < (int)sizeof row) snprintf(row + len, sizeof row - (size_t)len, "]");
        /* SliceDebugString: the bad row's position among the outer dims */
        const int outer = ind->ndims - 1;
        int64_t rem = r, pos[MT_MAX_DIMS];
        for (int d = outer - 1; d >= 0; d--) {
          pos[d] = rem % ind->dims[d];
          rem /= ind->dims[d];
        }
        int al = snprintf(at, sizeof at, "[");
        for (int d = 0; d < outer && al < (int)sizeof at; d++)
          al += snprintf(at + al, sizeof at - (size_t)al, d ? ",%lld" : "%lld",
                         (long long)pos[d]);
        if (al < (int)sizeof at) snprintf(at + al, sizeof at - (size_t)al, "]");
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "indices%s = %s does not index into shape %s", outer ? at : "", row,
                       dbg(t->dims, t->ndims, sh, sizeof sh));
        free(offs);
        return NULL;
      }
      off = off * t->dims[k] + i;
    }
    offs[r] = off * slice;
  }
  return offs;
}

static void tensor_scatter(mt_kernel_ctx* ctx, ts_kind kind) {
  const TF_Tensor *t = ctx->inputs[0], *ind = ctx->inputs[1], *upd = ctx->inputs[2];
  const TF_DataType dt = t->dtype;
  ts_fn f = NULL;
  if (kind != TS_UPDATE) {
    f = dt < MT_NUM_DTYPES ? ts_fns[kind][dt] : NULL;
    if (!f) {
      mt_kernel_unsupported(ctx, "T", dt);
      return;
    }
  }
  if (!check_shapes(ctx, t, ind, upd)) return;
  const int outer = ind->ndims - 1;
  const int nd = (int)ind->dims[outer];
  if (nd > t->ndims) {
    char a[256], b[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Index innermost dimension length must be <= params rank; saw: %d vs. %d "
                   ": indices shape %s params shape %s",
                   nd, t->ndims, dbg(ind->dims, ind->ndims, a, sizeof a),
                   dbg(t->dims, t->ndims, b, sizeof b));
    return;
  }
  int64_t rows = 1, slice = 1;
  for (int k = 0; k < outer; k++) rows *= ind->dims[k];
  for (int k = nd; k < t->ndims; k++) slice *= t->dims[k];
  if (mt_tensor_nelems(ind) == 0) rows = 0;
  int64_t* offs = row_offsets(ctx, t, ind, rows, nd, slice);
  if (!offs) return;
  TF_Tensor* out = mt_ctx_forward(ctx, 0, 0, dt, t->dims, t->ndims);
  if (!out) goto done;
  if (mt_tensor_data(out) != mt_tensor_data(t))
    ar_copy_elems(dt, mt_tensor_data(out), mt_tensor_data(t), mt_tensor_nelems(t));
  const size_t es = TF_DataTypeSize(dt);
  char* o = mt_tensor_data(out);
  const char* u = mt_tensor_data(upd);
  for (int64_t r = 0; r < rows; r++) {
    char* dst = o + (size_t)offs[r] * es;
    const char* src = u + (size_t)(r * slice) * es;
    if (kind != TS_UPDATE) f(dst, src, slice);
    else if (dt == TF_STRING) {
      for (int64_t i = 0; i < slice; i++) {
        const TF_TString* s = (const TF_TString*)src + i;
        TF_StringCopy((TF_TString*)dst + i, TF_StringGetDataPointer(s), TF_StringGetSize(s));
      }
    } else {
      memcpy(dst, src, (size_t)slice * es);
    }
  }
done:
  free(offs);
}

static void tensor_scatter_update_kernel(mt_kernel_ctx* ctx) { tensor_scatter(ctx, TS_UPDATE); }
static void tensor_scatter_add_kernel(mt_kernel_ctx* ctx) { tensor_scatter(ctx, TS_ADD); }
static void tensor_scatter_sub_kernel(mt_kernel_ctx* ctx) { tensor_scatter(ctx, TS_SUB); }
static void tensor_scatter_max_kernel(mt_kernel_ctx* ctx) { tensor_scatter(ctx, TS_MAX); }
static void tensor_scatter_min_kernel(mt_kernel_ctx* ctx) { tensor_scatter(ctx, TS_MIN); }

/* ======================================================================
 * Registration
 * ====================================================================== */

#define TS_SIG .inputs = "tensor: T, indices: Tindices, updates: T", .outputs = "output: T"
#define TS_POLICY "; bad_indices_policy: string = ''"

static const mt_op_spec scatter_specs[] = {
    {.name = "TensorScatterUpdate", TS_SIG,
     .attrs = "T: type; Tindices: {int16, int32, int64, uint16}" TS_POLICY,
     .shape = tensor_scatter_shape, .kernel = tensor_scatter_update_kernel},
    {.name = "TensorScatterAdd", TS_SIG, .attrs = "T: type; Tindices: {int32, int64}" TS_POLICY,
     .shape = tensor_scatter_shape, .kernel = tensor_scatter_add_kernel},
    {.name = "TensorScatterSub", TS_SIG, .attrs = "T: type; Tindices: {int32, int64}" TS_POLICY,
     .shape = tensor_scatter_shape, .kernel = tensor_scatter_sub_kernel},
    {.name = "TensorScatterMax", TS_SIG, .attrs = "T: type; Tindices: {int32, int64}" TS_POLICY,
     .shape = tensor_scatter_shape, .kernel = tensor_scatter_max_kernel},
    {.name = "TensorScatterMin", TS_SIG, .attrs = "T: type; Tindices: {int32, int64}" TS_POLICY,
     .shape = tensor_scatter_shape, .kernel = tensor_scatter_min_kernel},
};

void mt_register_array_scatter_ops(void) {
  mt_register_ops(scatter_specs, (int)(sizeof scatter_specs / sizeof scatter_specs[0]));
}
