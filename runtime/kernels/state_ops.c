/* Variables and state ops. Resource variables: VarHandleOp,
 * ReadVariableOp, AssignVariableOp, Assign{Add,Sub}VariableOp,
 * VarIsInitializedOp, VariableShape, DestroyResourceOp, ResourceGather[Nd],
 * ResourceScatter{Add,Sub,Mul,Div,Min,Max,Update}, ResourceScatterNd{Update,
 * Add,Sub} (TensorFlow's resource_variable_ops.cc). Ref variables:
 * VariableV2, TemporaryVariable, DestroyTemporaryVariable, Assign,
 * Assign{Add,Sub}, Scatter{Update,Add,Sub,Mul,Div,Min,Max}, ScatterNd{Update,
 * Add,Sub}, IsVariableInitialized, CountUpTo (state_ops.cc). Values live in
 * the session state (runtime/resource.h) and survive across runs; a ref
 * output names the variable (runtime/resource.h), so ref consumers update
 * the variable's own buffer. Updates check every shape and index before
 * touching the value (a failed update leaves the variable unchanged), hold
 * the variable's lock while they change it, and copy the buffer first when
 * something else still holds it (values read earlier keep their contents). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/resource.h"

static mt_shape attr_shape(const TF_Operation* op, const char* name) {
  const mt_attr_value* v = mt_op_attr(op, name);
  return v && v->kind == MT_ATTR_SHAPE && !v->is_list ? v->v.shape : mt_shape_unknown();
}

static void scalar_shape(mt_shape_ctx* ctx) { ctx->out[0] = mt_shape_scalar(); }

/* A scalar handle naming (container, shared_name); an empty shared_name
 * means the node's name, an empty container "localhost" (TF1 semantics). */
static void var_handle_kernel(mt_kernel_ctx* ctx) {
  const char* container = mt_op_attr_str(ctx->op, "container", "");
  const char* shared = mt_op_attr_str(ctx->op, "shared_name", "");
  const mt_shape shape = attr_shape(ctx->op, "shape");
  TF_Tensor* t = mt_resource_tensor_new(*container ? container : "localhost",
                                        *shared ? shared : ctx->op->name,
                                        mt_op_attr_type(ctx->op, "dtype", TF_FLOAT), &shape,
                                        ctx->status);
  if (t) ctx->outputs[0] = t;
}

/* TensorFlow takes the shape from the handle's shape-and-type data; here
 * the handle's producer is followed when it is a VarHandleOp. */
static void read_variable_shape(mt_shape_ctx* ctx) {
  const TF_Operation* src = ctx->op->ninputs > 0 ? ctx->op->inputs[0].oper : NULL;
  if (src && strcmp(src->op_type, "VarHandleOp") == 0)
    ctx->out[0] = attr_shape(src, "shape");
  else
    ctx->out[0] = mt_shape_unknown();
}

static void read_variable_kernel(mt_kernel_ctx* ctx) {
  const mt_resource_handle* h = mt_resource_get(ctx->inputs[0], ctx->status);
  if (!h) return;
  const TF_DataType want = mt_op_attr_type(ctx->op, "dtype", h->dtype);
  if (want != h->dtype) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Trying to read variable with wrong dtype. Expected %s got %s",
                   mt_dtype_name(h->dtype), mt_dtype_name(want));
    return;
  }
  TF_Tensor* v = mt_var_read(ctx->state, h, ctx->status);
  if (v) ctx->outputs[0] = v;
}

static void assign_variable_kernel(mt_kernel_ctx* ctx) {
  const mt_resource_handle* h = mt_resource_get(ctx->inputs[0], ctx->status);
  if (!h) return;
  const TF_Tensor* value = ctx->inputs[1];
  if (value->dtype != h->dtype) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Trying to assign variable with wrong dtype. Expected %s got %s",
                   mt_dtype_name(h->dtype), mt_dtype_name(value->dtype));
    return;
  }
  if (mt_op_attr_bool(ctx->op, "validate_shape", 0) && mt_var_initialized(ctx->state, h)) {
    TF_Tensor* old = mt_var_read(ctx->state, h, ctx->status);
    if (!old) return;
    const int same = old->ndims == value->ndims &&
                     memcmp(old->dims, value->dims, sizeof(int64_t) * (size_t)old->ndims) == 0;
    char a[256], b[256];
    if (!same)
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Trying to assign to variable with tensor with wrong shape. Expected %s got %s",
                     mt_dims_str(old->dims, old->ndims, a, sizeof a),
                     mt_dims_str(value->dims, value->ndims, b, sizeof b));
    TF_DeleteTensor(old);
    if (!same) return;
  }
  mt_var_assign(ctx->state, h, value, ctx->status);
}

static void var_is_initialized_kernel(mt_kernel_ctx* ctx) {
  const mt_resource_handle* h = mt_resource_get(ctx->inputs[0], ctx->status);
  if (!h) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_BOOL, NULL, 0);
  if (out) *(mt_bool*)mt_tensor_data(out) = mt_var_initialized(ctx->state, h) != 0;
}

/* ---- element updates: dst[i] = f(dst[i], src[i * ss]) ---- */

typedef enum { U_ASSIGN, U_ADD, U_SUB, U_MUL, U_DIV, U_MIN, U_MAX, U_NKINDS } upd_kind;
typedef void (*upd_fn)(void* dst, const void* src, int64_t n, int64_t ss);

#define UPD_(DT, CT, NAME, EXPR)                                             \
  static void NAME##_##CT(void* d_, const void* s_, int64_t n, int64_t ss) { \
    typedef mt_compute_##CT T;                                               \
    typedef mt_wide_##CT W;                                                  \
    CT* d = d_;                                                              \
    const CT* u = s_;                                                        \
    for (int64_t i = 0; i < n; i++) {                                        \
      const T x = mt_load_##CT(d[i]), y = mt_load_##CT(u[i * ss]);           \
      (void)sizeof(W);                                                       \
      d[i] = mt_store_##CT((T)(EXPR));                                       \
    }                                                                        \
  }
MT_NUMBER_TYPES(UPD_, upd_add, (W)x + (W)y)
MT_NUMBER_TYPES(UPD_, upd_sub, (W)x - (W)y)
MT_NUMBER_TYPES(UPD_, upd_mul, (W)x * (W)y)
MT_FLOATING_TYPES(UPD_, upd_div, x / y)
MT_COMPLEX_TYPES(UPD_, upd_div, x / y)
/* integer division by zero gives 0 (TensorFlow's CPU result is undefined) */
MT_UINT_TYPES(UPD_, upd_div, y == 0 ? 0 : x / y)
MT_SINT_TYPES(UPD_, upd_div, y == 0 ? 0 : y == -1 ? (T)(0 - (W)x) : x / y)
MT_REALNUMBER_TYPES(UPD_, upd_min, y < x ? y : x)
MT_REALNUMBER_TYPES(UPD_, upd_max, y > x ? y : x)
#undef UPD_

#define COPY_(DT, CT, UNUSED)                                                     \
  static void upd_copy_##CT(void* d_, const void* s_, int64_t n, int64_t ss) {    \
    CT* d = d_;                                                                   \
    const CT* u = s_;                                                             \
    if (ss) memcpy(d, u, sizeof(CT) * (size_t)n);                                 \
    else for (int64_t i = 0; i < n; i++) d[i] = u[0];                             \
  }
MT_ALL_POD_TYPES(COPY_, 0)
#undef COPY_
static void upd_copy_string(void* d_, const void* s_, int64_t n, int64_t ss) {
  TF_TString* d = d_;
  const TF_TString* u = s_;
  for (int64_t i = 0; i < n; i++)
    TF_StringCopy(&d[i], TF_StringGetDataPointer(&u[i * ss]), TF_StringGetSize(&u[i * ss]));
}

static const upd_fn upd_fns[U_NKINDS][MT_NUM_DTYPES] = {
    [U_ASSIGN] = {MT_ENTRIES(upd_copy, MT_ALL_POD_TYPES)[TF_STRING] = upd_copy_string},
    [U_ADD] = {MT_ENTRIES(upd_add, MT_NUMBER_TYPES)},
    [U_SUB] = {MT_ENTRIES(upd_sub, MT_NUMBER_TYPES)},
    [U_MUL] = {MT_ENTRIES(upd_mul, MT_NUMBER_TYPES)},
    [U_DIV] = {MT_ENTRIES(upd_div, MT_NUMBER_TYPES)},
    [U_MIN] = {MT_ENTRIES(upd_min, MT_REALNUMBER_TYPES)},
    [U_MAX] = {MT_ENTRIES(upd_max, MT_REALNUMBER_TYPES)},
};

static upd_fn upd_lookup(mt_kernel_ctx* ctx, upd_kind k, TF_DataType dt, const char* attr) {
  upd_fn f = dt > 0 && dt < MT_NUM_DTYPES ? upd_fns[k][dt] : NULL;
  if (!f) mt_kernel_unsupported(ctx, attr, dt);
  return f;
}

static size_t elem_size(TF_DataType dt) { return TF_DataTypeSize(dt); }

/* The input that carried input i, "node" or "node:k", for messages. */
static const char* input_name(const mt_kernel_ctx* ctx, int i, char* buf, size_t cap) {
  const TF_Output src = ctx->op->inputs[i];
  if (src.index) snprintf(buf, cap, "%s:%d", src.oper->name, src.index);
  else snprintf(buf, cap, "%s", src.oper->name);
  return buf;
}

/* ---- validated updates of a whole value ---- */

/* Indices of a Scatter* op as int64 offsets into dim 0 (checked). */
static int64_t* scatter_rows(mt_kernel_ctx* ctx, const TF_Tensor* ind, int64_t limit,
                             int64_t* ngood) {
  const int64_t n = mt_tensor_nelems(ind);
  int64_t* rows = mt_malloc(sizeof(int64_t) * (size_t)(n ? n : 1), ctx->status);
  if (!rows) return NULL;
  *ngood = n;
  for (int64_t i = 0; i < n; i++) {
    rows[i] = ind->dtype == TF_INT32 ? ((const int32_t*)mt_tensor_data(ind))[i]
                                     : ((const int64_t*)mt_tensor_data(ind))[i];
    if (rows[i] < 0 || rows[i] >= limit) {
      char at[256];
      int at_len = snprintf(at, sizeof at, "[");
      int64_t rem = i, strides[MT_MAX_DIMS];
      for (int d = ind->ndims - 1, st = 1; d >= 0; d--) {
        strides[d] = st;
        st *= (int)ind->dims[d];
      }
      for (int d = 0; d < ind->ndims && at_len < (int)sizeof at; d++) {
        at_len += snprintf(at + at_len, sizeof at - (size_t)at_len, d ? ",%lld" : "%lld",
                           (long long)(rem / strides[d]));
        rem %= strides[d];
      }
      if (at_len < (int)sizeof at) snprintf(at + at_len, sizeof at - (size_t)at_len, "]");
      if (ind->ndims == 0) snprintf(at, sizeof at, "%s", "");
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "indices%s = %lld is not in [0, %lld)",
                     at, (long long)rows[i], (long long)limit);
      *ngood = i; /* TensorFlow has applied the rows before the bad one */
      return rows;
    }
  }
  return rows;
}

/* Checks a Scatter* update of `params` (TensorFlow's messages); returns
 * the row offsets (caller frees) or NULL + status. *rowlen: elements per
 * row; *scalar: updates is a scalar broadcast to every row. */
static int64_t* scatter_check(mt_kernel_ctx* ctx, const TF_Tensor* params, const TF_Tensor* ind,
                              const TF_Tensor* upd, int64_t* rowlen, int* scalar,
                              int64_t* ngood) {
  char a[256], b[256], c[256];
  if (params->ndims < 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "params must be at least 1-D, got shape %s",
                   mt_dims_str(params->dims, params->ndims, a, sizeof a));
    return NULL;
  }
  int ok = upd->ndims == 0 || upd->ndims == ind->ndims + params->ndims - 1;
  for (int d = 0; ok && upd->ndims && d < ind->ndims; d++) ok = upd->dims[d] == ind->dims[d];
  for (int d = 1; ok && upd->ndims && d < params->ndims; d++)
    ok = upd->dims[ind->ndims + d - 1] == params->dims[d];
  if (!ok) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Must have updates.shape = indices.shape + params.shape[1:] or updates.shape "
                   "= [], got updates.shape %s, indices.shape %s, params.shape %s",
                   mt_dims_str(upd->dims, upd->ndims, a, sizeof a),
                   mt_dims_str(ind->dims, ind->ndims, b, sizeof b),
                   mt_dims_str(params->dims, params->ndims, c, sizeof c));
    return NULL;
  }
  *rowlen = 1;
  for (int d = 1; d < params->ndims; d++) *rowlen *= params->dims[d];
  *scalar = upd->ndims == 0;
  return scatter_rows(ctx, ind, params->dims[0], ngood);
}

static void scatter_apply(TF_Tensor* params, const TF_Tensor* upd, const int64_t* rows,
                          int64_t nrows, int64_t rowlen, int scalar, upd_fn f) {
  const size_t es = elem_size(params->dtype);
  char* p = mt_tensor_data(params);
  const char* u = mt_tensor_data(upd);
  for (int64_t i = 0; i < nrows; i++)
    f(p + (size_t)(rows[i] * rowlen) * es, scalar ? u : u + (size_t)(i * rowlen) * es, rowlen,
      scalar ? 0 : 1);
}

static int64_t prod(const int64_t* d, int a, int b) {
  int64_t n = 1;
  for (int k = a; k < b; k++) n *= d[k];
  return n;
}

/* Checks a ScatterNd* update; returns element offsets of each index row. */
static int64_t* scatter_nd_check(mt_kernel_ctx* ctx, const TF_Tensor* params,
                                 const TF_Tensor* ind, const TF_Tensor* upd, int64_t* nrows,
                                 int64_t* slice) {
  char a[256], b[256];
  if (ind->ndims < 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Indices shape must have rank at least one. Found:%s",
                   mt_dims_str(ind->dims, ind->ndims, a, sizeof a));
    return NULL;
  }
  const int outer = ind->ndims - 1;
  const int64_t nd = ind->dims[outer];
  if (nd > params->ndims) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Output must have rank at least %lld but is rank %d", (long long)nd,
                   params->ndims);
    return NULL;
  }
  if (upd->ndims < outer) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Dimensions [0,%d) of indices[shape=%s] must match dimensions [0,%d) of "
                   "updates[shape=%s]",
                   outer, mt_dims_str(ind->dims, ind->ndims, a, sizeof a), outer,
                   mt_dims_str(upd->dims, upd->ndims, b, sizeof b));
    return NULL;
  }
  int ok = 1;
  for (int k = 0; ok && k < outer; k++) ok = upd->dims[k] == ind->dims[k];
  if (!ok) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Dimensions [0,%d) of indices[shape=%s] = %lld must match dimensions [0,%d) "
                   "of updates[shape=%s] = %lld",
                   outer, mt_dims_str(ind->dims, ind->ndims, a, sizeof a),
                   (long long)prod(ind->dims, 0, outer), outer,
                   mt_dims_str(upd->dims, upd->ndims, b, sizeof b),
                   (long long)prod(upd->dims, 0, outer));
    return NULL;
  }
  ok = upd->ndims - outer == params->ndims - nd;
  for (int k = 0; ok && k < params->ndims - nd; k++)
    ok = upd->dims[outer + k] == params->dims[nd + k];
  if (!ok) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Dimensions [%lld,%d) of input[shape=%s] must match dimensions [%d,%d) "
                   "of updates[shape=%s]",
                   (long long)nd, params->ndims,
                   mt_dims_str(params->dims, params->ndims, a, sizeof a), outer, upd->ndims,
                   mt_dims_str(upd->dims, upd->ndims, b, sizeof b));
    return NULL;
  }
  *nrows = prod(ind->dims, 0, outer);
  *slice = prod(params->dims, (int)nd, params->ndims);
  int64_t* offs = mt_malloc(sizeof(int64_t) * (size_t)(*nrows ? *nrows : 1), ctx->status);
  if (!offs) return NULL;
  for (int64_t r = 0; r < *nrows; r++) {
    int64_t off = 0;
    for (int k = 0; k < nd; k++) {
      const int64_t i = ind->dtype == TF_INT32
                            ? ((const int32_t*)mt_tensor_data(ind))[r * nd + k]
                            : ((const int64_t*)mt_tensor_data(ind))[r * nd + k];
      if (i < 0 || i >= params->dims[k]) {
        char at[256], row[512];
        int len = 0;
        row[0] = '\0';
        for (int j = 0; j < nd && len < (int)sizeof row; j++) {
          const int64_t v = ind->dtype == TF_INT32
                                ? ((const int32_t*)mt_tensor_data(ind))[r * nd + j]
                                : ((const int64_t*)mt_tensor_data(ind))[r * nd + j];
          len += snprintf(row + len, sizeof row - (size_t)len, j ? ", %lld" : "%lld",
                          (long long)v);
        }
        /* the bad row's position among the outer dims */
        int64_t rem = r, pos[MT_MAX_DIMS];
        for (int d = outer - 1; d >= 0; d--) {
          pos[d] = ind->dims[d] ? rem % ind->dims[d] : 0;
          rem = ind->dims[d] ? rem / ind->dims[d] : 0;
        }
        int al = snprintf(at, sizeof at, "[");
        for (int d = 0; d < outer && al < (int)sizeof at; d++)
          al += snprintf(at + al, sizeof at - (size_t)al, d ? ",%lld" : "%lld", (long long)pos[d]);
        if (al < (int)sizeof at) snprintf(at + al, sizeof at - (size_t)al, "]");
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "indices%s = [%s] does not index into shape %s",
                       at, row, mt_dims_str(params->dims, params->ndims, a, sizeof a));
        *nrows = r; /* TensorFlow has applied the rows before the bad one */
        return offs;
      }
      off = off * params->dims[k] + i;
    }
    offs[r] = off * *slice;
  }
  return offs;
}

static void scatter_nd_apply(TF_Tensor* params, const TF_Tensor* upd, const int64_t* offs,
                             int64_t nrows, int64_t slice, upd_fn f) {
  const size_t es = elem_size(params->dtype);
  char* p = mt_tensor_data(params);
  const char* u = mt_tensor_data(upd);
  for (int64_t r = 0; r < nrows; r++) f(p + (size_t)offs[r] * es, u + (size_t)(r * slice) * es, slice, 1);
}

typedef enum { K_DENSE, K_SCATTER, K_SCATTER_ND } upd_shape_kind;

/* Validates the update of v->value (v->mu held, value set), then applies it
 * in place (after copy-on-write). Returns 0 + status, leaving the value. */
static int apply_update(mt_kernel_ctx* ctx, mt_var* v, upd_shape_kind sk, upd_kind k,
                        const TF_Tensor* ind, const TF_Tensor* upd, int resource) {
  TF_Tensor* params = v->value;
  upd_fn f = upd_lookup(ctx, k, params->dtype, resource && sk != K_SCATTER_ND ? "dtype" : "T");
  if (!f) return 0;
  if (upd->dtype != params->dtype) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Trying to update variable with wrong dtype. Expected %s got %s",
                   mt_dtype_name(params->dtype), mt_dtype_name(upd->dtype));
    return 0;
  }
  int64_t *rows = NULL, nrows = 0, rowlen = 0;
  int scalar = 0;
  char a[256], b[256];
  if (sk == K_DENSE) {
    const int same = params->ndims == upd->ndims &&
                     memcmp(params->dims, upd->dims, sizeof(int64_t) * (size_t)upd->ndims) == 0;
    if (!same) {
      if (resource)
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "Cannot update variable with shape %s using a Tensor with shape %s, "
                       "shapes must be equal.",
                       mt_dims_str(params->dims, params->ndims, a, sizeof a),
                       mt_dims_str(upd->dims, upd->ndims, b, sizeof b));
      else
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "Parameters and update must be the same size");
      return 0;
    }
  } else if (sk == K_SCATTER) {
    if (!(rows = scatter_check(ctx, params, ind, upd, &rowlen, &scalar, &nrows))) return 0;
  } else {
    if (!(rows = scatter_nd_check(ctx, params, ind, upd, &nrows, &rowlen))) return 0;
  }
  /* a bad index fails the op after the rows before it (as TensorFlow) */
  const int ok = mt_ok(ctx->status);
  if (!ok && nrows == 0) {
    free(rows);
    return 0;
  }
  TF_Status* cow = TF_NewStatus();
  if (!cow || !mt_var_make_unique(v, cow)) {
    if (ok && cow) TF_SetStatus(ctx->status, TF_GetCode(cow), TF_Message(cow));
    TF_DeleteStatus(cow);
    free(rows);
    return 0;
  }
  TF_DeleteStatus(cow);
  params = v->value;
  if (sk == K_DENSE) f(mt_tensor_data(params), mt_tensor_data(upd), mt_tensor_nelems(params), 1);
  else if (sk == K_SCATTER) scatter_apply(params, upd, rows, nrows, rowlen, scalar, f);
  else scatter_nd_apply(params, upd, rows, nrows, rowlen, f);
  free(rows);
  return ok;
}

/* ---- resource variable updates ---- */

/* TensorFlow's NotFound when a resource op finds no variable. */
static mt_var* resource_var(mt_kernel_ctx* ctx, const mt_resource_handle** hp) {
  const mt_resource_handle* h = mt_resource_get(ctx->inputs[0], ctx->status);
  if (!h) return NULL;
  if (hp) *hp = h;
  mt_var* v = mt_var_lookup(ctx->state, h, 0);
  if (!v || !mt_var_initialized(ctx->state, h)) {
    char why[1024];
    mt_var_not_found(ctx->state, h, why, sizeof why);
    mt_status_setf(ctx->status, TF_NOT_FOUND, "%s", why);
    return NULL;
  }
  return v;
}

static void resource_update(mt_kernel_ctx* ctx, upd_shape_kind sk, upd_kind k) {
  mt_var* v = resource_var(ctx, NULL);
  if (!v) return;
  const TF_Tensor* ind = sk == K_DENSE ? NULL : ctx->inputs[1];
  const TF_Tensor* upd = ctx->inputs[sk == K_DENSE ? 1 : 2];
  pthread_mutex_lock(&v->mu);
  if (v->value) apply_update(ctx, v, sk, k, ind, upd, 1);
  pthread_mutex_unlock(&v->mu);
}

#define RESOURCE_KERNEL(name, sk, k) \
  static void name##_kernel(mt_kernel_ctx* ctx) { resource_update(ctx, sk, k); }
RESOURCE_KERNEL(assign_add_variable, K_DENSE, U_ADD)
RESOURCE_KERNEL(assign_sub_variable, K_DENSE, U_SUB)
RESOURCE_KERNEL(resource_scatter_add, K_SCATTER, U_ADD)
RESOURCE_KERNEL(resource_scatter_sub, K_SCATTER, U_SUB)
RESOURCE_KERNEL(resource_scatter_mul, K_SCATTER, U_MUL)
RESOURCE_KERNEL(resource_scatter_div, K_SCATTER, U_DIV)
RESOURCE_KERNEL(resource_scatter_min, K_SCATTER, U_MIN)
RESOURCE_KERNEL(resource_scatter_max, K_SCATTER, U_MAX)
RESOURCE_KERNEL(resource_scatter_update, K_SCATTER, U_ASSIGN)
RESOURCE_KERNEL(resource_scatter_nd_update, K_SCATTER_ND, U_ASSIGN)
RESOURCE_KERNEL(resource_scatter_nd_add, K_SCATTER_ND, U_ADD)
RESOURCE_KERNEL(resource_scatter_nd_sub, K_SCATTER_ND, U_SUB)

/* ResourceGather / ResourceGatherNd: GatherV2 / GatherNd on the current
 * value (the same kernels, so the same results and messages). */
static void resource_gather_common(mt_kernel_ctx* ctx, const char* kernel_op, int with_axis) {
  mt_var* v = resource_var(ctx, NULL);
  if (!v) return;
  const mt_op_def* def = mt_op_lookup(kernel_op);
  pthread_mutex_lock(&v->mu);
  TF_Tensor* value = v->value ? mt_tensor_share(v->value) : NULL;
  pthread_mutex_unlock(&v->mu);
  if (!value || !def || !def->kernel) {
    mt_tensor_free(value);
    mt_status_setf(ctx->status, TF_INTERNAL, "%s is not available", kernel_op);
    return;
  }
  const int64_t bd = mt_op_attr_int(ctx->op, "batch_dims", 0);
  int32_t axis_v = (int32_t)bd;
  TF_Tensor* axis = with_axis ? mt_tensor_new(TF_INT32, NULL, 0, ctx->status) : NULL;
  if (with_axis && !axis) {
    mt_tensor_free(value);
    return;
  }
  if (axis) memcpy(mt_tensor_data(axis), &axis_v, sizeof axis_v);
  TF_Tensor* ins[3] = {value, ctx->inputs[1], axis};
  const unsigned char fwd[3] = {0, 0, 0};
  mt_kernel_ctx sub = *ctx;
  sub.ninputs = with_axis ? 3 : 2;
  sub.inputs = ins;
  sub.forwardable = fwd;
  def->kernel(&sub);
  mt_tensor_free(value);
  mt_tensor_free(axis);
}
static void resource_gather_kernel(mt_kernel_ctx* ctx) { resource_gather_common(ctx, "GatherV2", 1); }
static void resource_gather_nd_kernel(mt_kernel_ctx* ctx) {
  resource_gather_common(ctx, "GatherNd", 0);
}

static void variable_shape_kernel(mt_kernel_ctx* ctx) {
  mt_var* v = resource_var(ctx, NULL);
  if (!v) return;
  pthread_mutex_lock(&v->mu);
  int64_t dims[MT_MAX_DIMS];
  const int nd = v->value ? v->value->ndims : 0;
  if (v->value) memcpy(dims, v->value->dims, sizeof(int64_t) * (size_t)nd);
  pthread_mutex_unlock(&v->mu);
  const TF_DataType ot = mt_op_attr_type(ctx->op, "out_type", TF_INT32);
  const int64_t n = nd;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, ot, &n, 1);
  if (!out) return;
  for (int k = 0; k < nd; k++) {
    if (ot == TF_INT32) ((int32_t*)mt_tensor_data(out))[k] = (int32_t)dims[k];
    else ((int64_t*)mt_tensor_data(out))[k] = dims[k];
  }
}

static void variable_shape_shape(mt_shape_ctx* ctx) {
  const TF_Operation* src = ctx->op->ninputs > 0 ? ctx->op->inputs[0].oper : NULL;
  mt_shape out = {.rank = 1};
  out.dims[0] = -1;
  if (src && strcmp(src->op_type, "VarHandleOp") == 0) {
    const mt_shape sh = attr_shape(src, "shape");
    if (sh.rank >= 0) out.dims[0] = sh.rank;
  }
  ctx->out[0] = out;
}

/* DestroyResourceOp: drops the variable's value (the handle may be used to
 * create it again). */
/* TensorFlow switches a variable from copy-on-write to copy-on-read here
 * (Saver runs it before each read it saves). minitf's variables have one
 * mode: a read shares the buffer and a later update copies it only while
 * a read still holds it, so there is nothing to switch; the handle is
 * still checked. An uninitialized variable is reported by the read after
 * it (TensorFlow reports it here, as a missing resource). */
static void disable_copy_on_read_kernel(mt_kernel_ctx* ctx) {
  (void)mt_resource_get(ctx->inputs[0], ctx->status);
}

static void destroy_resource_kernel(mt_kernel_ctx* ctx) {
  const mt_resource_handle* h = mt_resource_get(ctx->inputs[0], ctx->status);
  if (!h) return;
  mt_var* v = mt_var_lookup(ctx->state, h, 0);
  TF_Tensor* old = NULL;
  if (v) {
    pthread_mutex_lock(&v->mu);
    old = v->value;
    v->value = NULL;
    pthread_mutex_unlock(&v->mu);
  }
  if (!old && !mt_op_attr_bool(ctx->op, "ignore_lookup_error", 1))
    mt_status_setf(ctx->status, TF_NOT_FOUND, "Container %s does not exist.", h->container);
  mt_tensor_free(old);
}

/* Shape functions for resource updates: the handle's producer's shape when
 * it is a VarHandleOp (TensorFlow's handle data), checked like TF. */
static mt_shape handle_shape(const mt_shape_ctx* ctx) {
  const TF_Operation* src = ctx->op->ninputs > 0 ? ctx->op->inputs[0].oper : NULL;
  return src && strcmp(src->op_type, "VarHandleOp") == 0 ? attr_shape(src, "shape")
                                                          : mt_shape_unknown();
}

static void assign_update_variable_shape(mt_shape_ctx* ctx) {
  mt_shape var = handle_shape(ctx), merged;
  mt_merge_shape(ctx, &var, &ctx->in[1], &merged);
}

static void resource_gather_shape(mt_shape_ctx* ctx) {
  const mt_shape params = handle_shape(ctx);
  const mt_shape* ind = &ctx->in[1];
  int64_t bd = mt_op_attr_int(ctx->op, "batch_dims", 0);
  if (params.rank < 0 || ind->rank < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  if (bd < 0) bd += ind->rank;
  if (params.rank < 1 || bd < 0 || bd > ind->rank || bd >= params.rank + 1) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  /* params[:bd] + indices[bd:] + params[bd+1:] */
  mt_shape out = {.rank = 0};
  for (int d = 0; d < bd && out.rank < MT_MAX_DIMS; d++) out.dims[out.rank++] = params.dims[d];
  for (int d = (int)bd; d < ind->rank && out.rank < MT_MAX_DIMS; d++)
    out.dims[out.rank++] = ind->dims[d];
  for (int d = (int)bd + 1; d < params.rank && out.rank < MT_MAX_DIMS; d++)
    out.dims[out.rank++] = params.dims[d];
  ctx->out[0] = out;
}

static void resource_gather_nd_shape(mt_shape_ctx* ctx) {
  const mt_shape params = handle_shape(ctx);
  const mt_shape* ind = &ctx->in[1];
  if (params.rank < 0 || ind->rank < 1 || ind->dims[ind->rank - 1] < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  const int64_t nd = ind->dims[ind->rank - 1];
  if (nd > params.rank) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "indices.shape[-1] must be <= params.rank, but saw indices shape: %s and "
                   "params shape: %s", "?", "?");
    return;
  }
  mt_shape out = {.rank = 0};
  for (int d = 0; d < ind->rank - 1; d++) out.dims[out.rank++] = ind->dims[d];
  for (int d = (int)nd; d < params.rank && out.rank < MT_MAX_DIMS; d++)
    out.dims[out.rank++] = params.dims[d];
  ctx->out[0] = out;
}

/* ---- ref variables ---- */

static void variable_shape_attr(mt_shape_ctx* ctx) { ctx->out[0] = attr_shape(ctx->op, "shape"); }

/* VariableV2: the ref names the session's variable (container,
 * shared_name or the node name), created uninitialized on first run. */
static void variable_v2_kernel(mt_kernel_ctx* ctx) {
  const char* container = mt_op_attr_str(ctx->op, "container", "");
  const char* shared = mt_op_attr_str(ctx->op, "shared_name", "");
  char* key = NULL;
  if (asprintf(&key, "%s/%s", *container ? container : "localhost",
               *shared ? shared : ctx->op->name) < 0) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM creating a variable");
    return;
  }
  const TF_DataType dt = mt_op_attr_type(ctx->op, "dtype", TF_FLOAT);
  mt_var* v = mt_state_ref_var(ctx->state, key, dt, ctx->status);
  free(key);
  if (v) ctx->outputs[0] = mt_ref_tensor_new(v, dt, ctx->status);
}

/* TemporaryVariable: a variable allocated (zeroed) now, with the given
 * shape, until DestroyTemporaryVariable. */
static void temporary_variable_kernel(mt_kernel_ctx* ctx) {
  const char* var_name = mt_op_attr_str(ctx->op, "var_name", "");
  char* key = NULL;
  if (asprintf(&key, "tmp_var/%s", *var_name ? var_name : ctx->op->name) < 0) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM creating a variable");
    return;
  }
  const TF_DataType dt = mt_op_attr_type(ctx->op, "dtype", TF_FLOAT);
  const mt_shape sh = attr_shape(ctx->op, "shape");
  mt_var* v = mt_state_ref_var(ctx->state, key, dt, ctx->status);
  free(key);
  if (!v) return;
  if (sh.rank < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "TemporaryVariable needs a fully defined shape");
    return;
  }
  for (int d = 0; d < sh.rank; d++)
    if (sh.dims[d] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "TemporaryVariable needs a fully defined shape");
      return;
    }
  TF_Tensor* value = mt_tensor_zeros(dt, sh.dims, sh.rank, ctx->status);
  if (!value) return;
  pthread_mutex_lock(&v->mu);
  TF_Tensor* old = v->value;
  v->value = value;
  v->dtype = dt;
  pthread_mutex_unlock(&v->mu);
  mt_tensor_free(old);
  ctx->outputs[0] = mt_ref_tensor_new(v, dt, ctx->status);
}

/* The variable behind ref input 0, locked, with its value set (else
 * FailedPrecondition "Attempting to use uninitialized value <input>");
 * NULL when not (nothing locked). */
static mt_var* ref_input_locked(mt_kernel_ctx* ctx, int need_value) {
  mt_var* v = mt_ref_var(ctx->inputs[0]);
  char name[512];
  if (!v) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input 0 of %s is not a ref (%s)",
                   ctx->op->name, input_name(ctx, 0, name, sizeof name));
    return NULL;
  }
  pthread_mutex_lock(&v->mu);
  if (need_value && !v->value) {
    pthread_mutex_unlock(&v->mu);
    mt_status_setf(ctx->status, TF_FAILED_PRECONDITION, "Attempting to use uninitialized value %s",
                   input_name(ctx, 0, name, sizeof name));
    return NULL;
  }
  return v;
}

static void destroy_temporary_variable_kernel(mt_kernel_ctx* ctx) {
  mt_var* v = ref_input_locked(ctx, 1);
  if (!v) return;
  TF_Tensor* value = v->value;
  v->value = NULL;
  pthread_mutex_unlock(&v->mu);
  ctx->outputs[0] = value;
}

static void ref_update(mt_kernel_ctx* ctx, upd_shape_kind sk, upd_kind k) {
  mt_var* v = ref_input_locked(ctx, 1);
  if (!v) return;
  const TF_Tensor* ind = sk == K_DENSE ? NULL : ctx->inputs[1];
  const TF_Tensor* upd = ctx->inputs[sk == K_DENSE ? 1 : 2];
  const int ok = apply_update(ctx, v, sk, k, ind, upd, 0);
  pthread_mutex_unlock(&v->mu);
  if (ok) mt_ctx_set_shared(ctx, 0, ctx->inputs[0]);
}

#define REF_KERNEL(name, sk, k) \
  static void name##_kernel(mt_kernel_ctx* ctx) { ref_update(ctx, sk, k); }
REF_KERNEL(assign_add, K_DENSE, U_ADD)
REF_KERNEL(assign_sub, K_DENSE, U_SUB)
REF_KERNEL(scatter_update, K_SCATTER, U_ASSIGN)
REF_KERNEL(scatter_add, K_SCATTER, U_ADD)
REF_KERNEL(scatter_sub, K_SCATTER, U_SUB)
REF_KERNEL(scatter_mul, K_SCATTER, U_MUL)
REF_KERNEL(scatter_div, K_SCATTER, U_DIV)
REF_KERNEL(scatter_min, K_SCATTER, U_MIN)
REF_KERNEL(scatter_max, K_SCATTER, U_MAX)
REF_KERNEL(scatter_nd_update, K_SCATTER_ND, U_ASSIGN)
REF_KERNEL(scatter_nd_add, K_SCATTER_ND, U_ADD)
REF_KERNEL(scatter_nd_sub, K_SCATTER_ND, U_SUB)

/* Assign: copies into the variable's buffer when the shapes agree and
 * nothing else holds it (TensorFlow keeps the buffer too); otherwise the
 * variable takes the value's buffer (when unique) or a copy. */
static void assign_kernel(mt_kernel_ctx* ctx) {
  mt_var* v = ref_input_locked(ctx, 0);
  if (!v) return;
  const TF_Tensor* value = ctx->inputs[1];
  const int same = v->value && v->value->ndims == value->ndims &&
                   memcmp(v->value->dims, value->dims, sizeof(int64_t) * (size_t)value->ndims) == 0;
  if (v->value && !same && mt_op_attr_bool(ctx->op, "validate_shape", 1)) {
    char a[256], b[256];
    pthread_mutex_unlock(&v->mu);
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Assign requires shapes of both tensors to match. lhs shape= %s rhs shape= %s",
                   mt_dims_str(v->value->dims, v->value->ndims, a, sizeof a),
                   mt_dims_str(value->dims, value->ndims, b, sizeof b));
    return;
  }
  TF_Tensor* old = NULL;
  if (same && value->dtype != TF_STRING && v->value->dtype == value->dtype &&
      mt_tensor_unique(v->value)) {
    const size_t n = (size_t)mt_tensor_nelems(value) * elem_size(value->dtype);
    if (n) memmove(mt_tensor_data(v->value), mt_tensor_data(value), n);
  } else {
    TF_Tensor* copy = ctx->forwardable[1] ? mt_tensor_share(value) : mt_tensor_copy(value, ctx->status);
    if (!copy) {
      pthread_mutex_unlock(&v->mu);
      return;
    }
    old = v->value;
    v->value = copy;
    v->dtype = value->dtype;
  }
  pthread_mutex_unlock(&v->mu);
  mt_tensor_free(old);
  mt_ctx_set_shared(ctx, 0, ctx->inputs[0]);
}

static void is_variable_initialized_kernel(mt_kernel_ctx* ctx) {
  mt_var* v = mt_ref_var(ctx->inputs[0]);
  int init = 0;
  if (v) {
    pthread_mutex_lock(&v->mu);
    init = v->value != NULL;
    pthread_mutex_unlock(&v->mu);
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_BOOL, NULL, 0);
  if (out) *(mt_bool*)mt_tensor_data(out) = init != 0;
}

/* CountUpTo / ResourceCountUpTo: outputs the old value and increments,
 * OutOfRange at limit. v->mu held (released here). */
static void count_up_to_locked(mt_kernel_ctx* ctx, mt_var* v);

static void count_up_to_kernel(mt_kernel_ctx* ctx) {
  mt_var* v = ref_input_locked(ctx, 1);
  if (v) count_up_to_locked(ctx, v);
}

static void resource_count_up_to_kernel(mt_kernel_ctx* ctx) {
  mt_var* v = resource_var(ctx, NULL);
  if (!v) return;
  pthread_mutex_lock(&v->mu);
  if (!v->value) {
    pthread_mutex_unlock(&v->mu);
    mt_status_setf(ctx->status, TF_FAILED_PRECONDITION, "Attempting to use uninitialized value");
    return;
  }
  count_up_to_locked(ctx, v);
}

static void count_up_to_locked(mt_kernel_ctx* ctx, mt_var* v) {
  const int64_t limit = mt_op_attr_int(ctx->op, "limit", 0);
  TF_Tensor* val = v->value;
  if (val->ndims != 0 || (val->dtype != TF_INT32 && val->dtype != TF_INT64)) {
    char a[256];
    pthread_mutex_unlock(&v->mu);
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "input is not a scalar: %s",
                   mt_dims_str(val->dims, val->ndims, a, sizeof a));
    return;
  }
  const int64_t before = val->dtype == TF_INT32 ? *(int32_t*)mt_tensor_data(val)
                                                : *(int64_t*)mt_tensor_data(val);
  if (before >= limit) {
    pthread_mutex_unlock(&v->mu);
    mt_status_setf(ctx->status, TF_OUT_OF_RANGE, "Reached limit of %lld", (long long)limit);
    return;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, val->dtype, NULL, 0);
  if (!out || !mt_var_make_unique(v, ctx->status)) {
    pthread_mutex_unlock(&v->mu);
    return;
  }
  val = v->value;
  if (val->dtype == TF_INT32) {
    *(int32_t*)mt_tensor_data(out) = (int32_t)before;
    *(int32_t*)mt_tensor_data(val) = (int32_t)(before + 1);
  } else {
    *(int64_t*)mt_tensor_data(out) = before;
    *(int64_t*)mt_tensor_data(val) = before + 1;
  }
  pthread_mutex_unlock(&v->mu);
}

/* ---- ref shape functions (TensorFlow's state_ops.cc) ---- */

static void assign_shape(mt_shape_ctx* ctx) {
  if (mt_op_attr_bool(ctx->op, "validate_shape", 1)) {
    mt_shape merged;
    if (!mt_merge_shape(ctx, &ctx->in[0], &ctx->in[1], &merged)) return;
    ctx->out[0] = merged;
  } else {
    ctx->out[0] = ctx->in[1];
  }
}

static void assign_update_shape(mt_shape_ctx* ctx) {
  mt_shape merged;
  if (!mt_merge_shape(ctx, &ctx->in[0], &ctx->in[1], &merged)) return;
  ctx->out[0] = merged;
}

/* ScatterUpdate & co: updates = indices.shape + ref.shape[1:] or scalar. */
static void scatter_update_shape(mt_shape_ctx* ctx) {
  const mt_shape *var = &ctx->in[0], *ind = &ctx->in[1], *upd = &ctx->in[2];
  ctx->out[0] = *var;
  if (var->rank == 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be at least rank 1 but is rank 0");
    return;
  }
  if (var->rank < 0 || ind->rank < 0 || upd->rank <= 0) return;
  mt_shape want = {.rank = 0}, merged;
  for (int d = 0; d < ind->rank && want.rank < MT_MAX_DIMS; d++) want.dims[want.rank++] = ind->dims[d];
  for (int d = 1; d < var->rank && want.rank < MT_MAX_DIMS; d++) want.dims[want.rank++] = var->dims[d];
  mt_merge_shape(ctx, upd, &want, &merged);
}

static void scatter_nd_update_shape(mt_shape_ctx* ctx) {
  const mt_shape *var = &ctx->in[0], *ind = &ctx->in[1], *upd = &ctx->in[2];
  if (ctx->noutputs > 0) ctx->out[0] = *var;
  if (ind->rank == 0 || upd->rank == 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be at least rank 1 but is rank 0");
    return;
  }
  if (var->rank < 0 || ind->rank < 0 || upd->rank < 0 || ind->dims[ind->rank - 1] < 0) return;
  const int outer = ind->rank - 1;
  const int64_t nd = ind->dims[outer];
  char a[256], b[256], c[256], d[256];
  for (int k = 0; k < outer && k < upd->rank; k++)
    if (ind->dims[k] >= 0 && upd->dims[k] >= 0 && ind->dims[k] != upd->dims[k]) {
      mt_shape pi = {.rank = outer}, pu = {.rank = outer};
      for (int j = 0; j < outer; j++) {
        pi.dims[j] = ind->dims[j];
        pu.dims[j] = j < upd->rank ? upd->dims[j] : -1;
      }
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Dimensions [0,%d) of indices[shape=%s] = %s must match dimensions [0,%d) "
                     "of updates[shape=%s] = %s: Dimension %d in both shapes must be equal, but "
                     "are %lld and %lld. Shapes are %s and %s.",
                     outer, mt_shape_str(ind, a, sizeof a), mt_shape_str(&pi, b, sizeof b), outer,
                     mt_shape_str(upd, c, sizeof c), mt_shape_str(&pu, d, sizeof d), k,
                     (long long)ind->dims[k], (long long)upd->dims[k],
                     mt_shape_str(&pi, b, sizeof b), mt_shape_str(&pu, d, sizeof d));
      return;
    }
  (void)nd;
}

static const mt_op_spec state_specs[] = {
    {.name = "VarHandleOp", .outputs = "resource: resource",
     .attrs = "container: string = ''; shared_name: string = ''; debug_name: string = '';"
              " dtype: type; shape: shape; allowed_devices: list(string) = []",
     .shape = scalar_shape, .kernel = var_handle_kernel, .flags = MT_OP_STATEFUL},
    {.name = "ReadVariableOp", .inputs = "resource: resource", .outputs = "value: dtype",
     .attrs = "dtype: type", .shape = read_variable_shape, .kernel = read_variable_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "AssignVariableOp", .inputs = "resource: resource, value: dtype",
     .attrs = "dtype: type; validate_shape: bool = false", .kernel = assign_variable_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "VarIsInitializedOp", .inputs = "resource: resource",
     .outputs = "is_initialized: bool", .shape = scalar_shape,
     .kernel = var_is_initialized_kernel, .flags = MT_OP_STATEFUL},
    {.name = "AssignAddVariableOp", .inputs = "resource: resource, value: dtype",
     .attrs = "dtype: type", .shape = assign_update_variable_shape,
     .kernel = assign_add_variable_kernel, .flags = MT_OP_STATEFUL},
    {.name = "AssignSubVariableOp", .inputs = "resource: resource, value: dtype",
     .attrs = "dtype: type", .shape = assign_update_variable_shape,
     .kernel = assign_sub_variable_kernel, .flags = MT_OP_STATEFUL},
    {.name = "ResourceGather", .inputs = "resource: resource, indices: Tindices",
     .outputs = "output: dtype",
     .attrs = "batch_dims: int = 0; validate_indices: bool = true; dtype: type;"
              " Tindices: {int32, int64}",
     .shape = resource_gather_shape, .kernel = resource_gather_kernel, .flags = MT_OP_STATEFUL},
    {.name = "ResourceGatherNd", .inputs = "resource: resource, indices: Tindices",
     .outputs = "output: dtype", .attrs = "dtype: type; Tindices: {int32, int64}",
     .shape = resource_gather_nd_shape, .kernel = resource_gather_nd_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "ResourceScatterAdd", .inputs = "resource: resource, indices: Tindices, updates: dtype",
     .attrs = "dtype: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}; Tindices: {int32, int64}", .kernel = resource_scatter_add_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "ResourceScatterSub", .inputs = "resource: resource, indices: Tindices, updates: dtype",
     .attrs = "dtype: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}; Tindices: {int32, int64}", .kernel = resource_scatter_sub_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "ResourceScatterMul", .inputs = "resource: resource, indices: Tindices, updates: dtype",
     .attrs = "dtype: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}; Tindices: {int32, int64}", .kernel = resource_scatter_mul_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "ResourceScatterDiv", .inputs = "resource: resource, indices: Tindices, updates: dtype",
     .attrs = "dtype: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}; Tindices: {int32, int64}", .kernel = resource_scatter_div_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "ResourceScatterMin", .inputs = "resource: resource, indices: Tindices, updates: dtype",
     .attrs = "dtype: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}; Tindices: {int32, int64}", .kernel = resource_scatter_min_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "ResourceScatterMax", .inputs = "resource: resource, indices: Tindices, updates: dtype",
     .attrs = "dtype: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}; Tindices: {int32, int64}", .kernel = resource_scatter_max_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "ResourceScatterUpdate", .inputs = "resource: resource, indices: Tindices, updates: dtype",
     .attrs = "dtype: type; Tindices: {int32, int64}", .kernel = resource_scatter_update_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "ResourceScatterNdUpdate", .inputs = "ref: resource, indices: Tindices, updates: T",
     .attrs = "T: type; Tindices: {int32, int64}; use_locking: bool = true; bad_indices_policy: string = ''",
     .kernel = resource_scatter_nd_update_kernel, .flags = MT_OP_STATEFUL},
    {.name = "ResourceScatterNdAdd", .inputs = "ref: resource, indices: Tindices, updates: T",
     .attrs = "T: type; Tindices: {int32, int64}; use_locking: bool = true; bad_indices_policy: string = ''",
     .kernel = resource_scatter_nd_add_kernel, .flags = MT_OP_STATEFUL},
    {.name = "ResourceScatterNdSub", .inputs = "ref: resource, indices: Tindices, updates: T",
     .attrs = "T: type; Tindices: {int32, int64}; use_locking: bool = true; bad_indices_policy: string = ''",
     .kernel = resource_scatter_nd_sub_kernel, .flags = MT_OP_STATEFUL},
    {.name = "DisableCopyOnRead", .inputs = "resource: resource",
     .kernel = disable_copy_on_read_kernel, .flags = MT_OP_STATEFUL},
    {.name = "DestroyResourceOp", .inputs = "resource: resource",
     .attrs = "ignore_lookup_error: bool = true", .kernel = destroy_resource_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "VariableShape", .inputs = "input: resource", .outputs = "output: out_type",
     .attrs = "out_type: {int32, int64} = DT_INT32", .shape = variable_shape_shape,
     .kernel = variable_shape_kernel, .flags = MT_OP_STATEFUL},
    {.name = "VariableV2", .outputs = "ref: Ref(dtype)",
     .attrs = "shape: shape; dtype: type; container: string = ''; shared_name: string = ''",
     .shape = variable_shape_attr, .kernel = variable_v2_kernel, .flags = MT_OP_STATEFUL},
    {.name = "TemporaryVariable", .outputs = "ref: Ref(dtype)",
     .attrs = "shape: shape; dtype: type; var_name: string = ''", .shape = variable_shape_attr,
     .kernel = temporary_variable_kernel, .flags = MT_OP_STATEFUL},
    {.name = "DestroyTemporaryVariable", .inputs = "ref: Ref(T)", .outputs = "value: T",
     .attrs = "T: type; var_name: string", .shape = mt_unchanged_shape,
     .kernel = destroy_temporary_variable_kernel},
    {.name = "Assign", .inputs = "ref: Ref(T), value: T", .outputs = "output_ref: Ref(T)",
     .attrs = "T: type; validate_shape: bool = true; use_locking: bool = true",
     .shape = assign_shape, .kernel = assign_kernel, .flags = MT_OP_ALLOWS_UNINITIALIZED_INPUT},
    {.name = "AssignAdd", .inputs = "ref: Ref(T), value: T", .outputs = "output_ref: Ref(T)",
     .attrs = "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}; use_locking: bool = false",
     .shape = assign_update_shape, .kernel = assign_add_kernel},
    {.name = "AssignSub", .inputs = "ref: Ref(T), value: T", .outputs = "output_ref: Ref(T)",
     .attrs = "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}; use_locking: bool = false",
     .shape = assign_update_shape, .kernel = assign_sub_kernel},
    {.name = "ScatterUpdate", .inputs = "ref: Ref(T), indices: Tindices, updates: T",
     .outputs = "output_ref: Ref(T)",
     .attrs = "T: type; Tindices: {int32, int64}; use_locking: bool = true",
     .shape = scatter_update_shape, .kernel = scatter_update_kernel},
    {.name = "ScatterAdd", .inputs = "ref: Ref(T), indices: Tindices, updates: T",
     .outputs = "output_ref: Ref(T)",
     .attrs = "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}; Tindices: {int32, int64}; use_locking: bool = false",
     .shape = scatter_update_shape, .kernel = scatter_add_kernel},
    {.name = "ScatterSub", .inputs = "ref: Ref(T), indices: Tindices, updates: T",
     .outputs = "output_ref: Ref(T)",
     .attrs = "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}; Tindices: {int32, int64}; use_locking: bool = false",
     .shape = scatter_update_shape, .kernel = scatter_sub_kernel},
    {.name = "ScatterMul", .inputs = "ref: Ref(T), indices: Tindices, updates: T",
     .outputs = "output_ref: Ref(T)",
     .attrs = "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}; Tindices: {int32, int64}; use_locking: bool = false",
     .shape = scatter_update_shape, .kernel = scatter_mul_kernel},
    {.name = "ScatterDiv", .inputs = "ref: Ref(T), indices: Tindices, updates: T",
     .outputs = "output_ref: Ref(T)",
     .attrs = "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}; Tindices: {int32, int64}; use_locking: bool = false",
     .shape = scatter_update_shape, .kernel = scatter_div_kernel},
    {.name = "ScatterMin", .inputs = "ref: Ref(T), indices: Tindices, updates: T",
     .outputs = "output_ref: Ref(T)",
     .attrs = "T: {half, bfloat16, float, double, int32, int64}; Tindices: {int32, int64}; use_locking: bool = false",
     .shape = scatter_update_shape, .kernel = scatter_min_kernel},
    {.name = "ScatterMax", .inputs = "ref: Ref(T), indices: Tindices, updates: T",
     .outputs = "output_ref: Ref(T)",
     .attrs = "T: {half, bfloat16, float, double, int32, int64}; Tindices: {int32, int64}; use_locking: bool = false",
     .shape = scatter_update_shape, .kernel = scatter_max_kernel},
    {.name = "ScatterNdUpdate", .inputs = "ref: Ref(T), indices: Tindices, updates: T",
     .outputs = "output_ref: Ref(T)",
     .attrs = "T: type; Tindices: {int32, int64}; use_locking: bool = true; bad_indices_policy: string = ''",
     .shape = scatter_nd_update_shape, .kernel = scatter_nd_update_kernel},
    {.name = "ScatterNdAdd", .inputs = "ref: Ref(T), indices: Tindices, updates: T",
     .outputs = "output_ref: Ref(T)",
     .attrs = "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}; Tindices: {int32, int64}; use_locking: bool = false; bad_indices_policy: string = ''",
     .shape = scatter_nd_update_shape, .kernel = scatter_nd_add_kernel},
    {.name = "ScatterNdSub", .inputs = "ref: Ref(T), indices: Tindices, updates: T",
     .outputs = "output_ref: Ref(T)",
     .attrs = "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}; Tindices: {int32, int64}; use_locking: bool = false; bad_indices_policy: string = ''",
     .shape = scatter_nd_update_shape, .kernel = scatter_nd_sub_kernel},
    {.name = "IsVariableInitialized", .inputs = "ref: Ref(dtype)", .outputs = "is_initialized: bool",
     .attrs = "dtype: type", .shape = scalar_shape, .kernel = is_variable_initialized_kernel,
     .flags = MT_OP_ALLOWS_UNINITIALIZED_INPUT},
    {.name = "ResourceCountUpTo", .inputs = "resource: resource", .outputs = "output: T",
     .attrs = "limit: int; T: {int32, int64}", .shape = scalar_shape,
     .kernel = resource_count_up_to_kernel, .flags = MT_OP_STATEFUL},
    {.name = "CountUpTo", .inputs = "ref: Ref(T)", .outputs = "output: T",
     .attrs = "limit: int; T: {int32, int64}", .shape = scalar_shape, .kernel = count_up_to_kernel},
};

void mt_register_state_ops(void) {
  mt_register_ops(state_specs, (int)(sizeof state_specs / sizeof state_specs[0]));
}
