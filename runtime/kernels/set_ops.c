/* Set ops over the last dimension of dense or sparse tensors (TensorFlow's
 * set_kernels.cc): SetSize, DenseToDenseSetOperation,
 * DenseToSparseSetOperation, SparseToSparseSetOperation. A "group" is the
 * values sharing the first n-1 coordinates; each group is a set (duplicates
 * count once). The result is a SparseTensor whose group g holds the sorted
 * result set of g at positions 0..k-1, shape group_shape + [largest k].
 * Used by tf.sets and by the *_at_k metrics. No gradients (as TensorFlow). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernel.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"

/* ---- elements: integers compared as int64, strings as bytes ---- */

typedef struct {
  int64_t i;
  const char* p; /* strings only */
  size_t n;
} set_elem;

typedef struct {
  TF_DataType dt;
  set_elem* v;
  int64_t n, cap;
} set_buf;

static int64_t load_int(const TF_Tensor* t, int64_t k) {
  const void* d = mt_tensor_data(t);
  switch (t->dtype) {
    case TF_INT8: return ((const int8_t*)d)[k];
    case TF_INT16: return ((const int16_t*)d)[k];
    case TF_INT32: return ((const int32_t*)d)[k];
    case TF_UINT8: return ((const uint8_t*)d)[k];
    case TF_UINT16: return ((const uint16_t*)d)[k];
    default: return ((const int64_t*)d)[k];
  }
}

static void store_elem(TF_Tensor* t, int64_t k, const set_elem* e) {
  void* d = mt_tensor_data(t);
  switch (t->dtype) {
    case TF_INT8: ((int8_t*)d)[k] = (int8_t)e->i; break;
    case TF_INT16: ((int16_t*)d)[k] = (int16_t)e->i; break;
    case TF_INT32: ((int32_t*)d)[k] = (int32_t)e->i; break;
    case TF_UINT8: ((uint8_t*)d)[k] = (uint8_t)e->i; break;
    case TF_UINT16: ((uint16_t*)d)[k] = (uint16_t)e->i; break;
    case TF_STRING: TF_StringCopy(&((TF_TString*)d)[k], e->n ? e->p : "", e->n); break;
    default: ((int64_t*)d)[k] = e->i; break;
  }
}

static int cmp_elem(const set_elem* a, const set_elem* b, TF_DataType dt) {
  if (dt != TF_STRING) return a->i < b->i ? -1 : a->i > b->i;
  const size_t n = a->n < b->n ? a->n : b->n;
  const int c = n ? memcmp(a->p, b->p, n) : 0;
  if (c) return c < 0 ? -1 : 1;
  return a->n < b->n ? -1 : a->n > b->n;
}

static int cmp_int_elem(const void* a, const void* b) {
  return cmp_elem(a, b, TF_INT64);
}
static int cmp_str_elem(const void* a, const void* b) {
  return cmp_elem(a, b, TF_STRING);
}

static int buf_push(set_buf* b, set_elem e, TF_Status* s) {
  if (b->n == b->cap) {
    const int64_t cap = b->cap ? 2 * b->cap : 16;
    set_elem* v = realloc(b->v, sizeof(set_elem) * (size_t)cap);
    if (!v) {
      mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
      return 0;
    }
    b->v = v;
    b->cap = cap;
  }
  b->v[b->n++] = e;
  return 1;
}

static int buf_add(set_buf* b, const TF_Tensor* t, int64_t k, TF_Status* s) {
  set_elem e = {0, NULL, 0};
  if (t->dtype == TF_STRING) {
    const TF_TString* str = (const TF_TString*)mt_tensor_data(t) + k;
    e.p = TF_StringGetDataPointer(str);
    e.n = TF_StringGetSize(str);
  } else {
    e.i = load_int(t, k);
  }
  return buf_push(b, e, s);
}

/* Sorts b and drops duplicates: b becomes a set in ascending order. */
static void buf_make_set(set_buf* b) {
  if (b->n < 2) return;
  qsort(b->v, (size_t)b->n, sizeof(set_elem), b->dt == TF_STRING ? cmp_str_elem : cmp_int_elem);
  int64_t w = 1;
  for (int64_t r = 1; r < b->n; r++)
    if (cmp_elem(&b->v[w - 1], &b->v[r], b->dt) != 0) b->v[w++] = b->v[r];
  b->n = w;
}

/* ---- set operations on sorted sets ---- */

typedef enum { OP_A_MINUS_B, OP_B_MINUS_A, OP_INTERSECTION, OP_UNION } set_op;

/* Appends (a op b) to out, ascending. */
static int apply_set_op(set_op op, const set_buf* a, const set_buf* b, set_buf* out,
                        TF_Status* s) {
  if (op == OP_B_MINUS_A) {
    const set_buf* t = a;
    a = b;
    b = t;
    op = OP_A_MINUS_B;
  }
  int64_t i = 0, j = 0;
  while (i < a->n || j < b->n) {
    int c;
    if (i == a->n) c = 1;
    else if (j == b->n) c = -1;
    else c = cmp_elem(&a->v[i], &b->v[j], a->dt);
    int keep = 0;
    set_elem e = c <= 0 ? a->v[i] : b->v[j];
    if (op == OP_UNION) keep = 1;
    else if (op == OP_INTERSECTION) keep = c == 0;
    else keep = c < 0;
    if (keep && !buf_push(out, e, s)) return 0;
    if (c <= 0) i++;
    if (c >= 0) j++;
  }
  return 1;
}

/* ---- sparse inputs ---- */

typedef struct {
  const TF_Tensor* ix;
  const TF_Tensor* vals;
  int64_t shape[MT_MAX_DIMS];
  int rank;
  int64_t nnz;
} sparse_in;

static const int64_t* ix_row(const sparse_in* sp, int64_t r) {
  return (const int64_t*)mt_tensor_data(sp->ix) + r * sp->rank;
}

static const char* row_str(const int64_t* row, int n, char* buf, size_t cap) {
  size_t used = (size_t)snprintf(buf, cap, "[");
  for (int d = 0; d < n && used < cap; d++)
    used += (size_t)snprintf(buf + used, cap - used, "%lld%s", (long long)row[d],
                             d < n - 1 ? "," : "]");
  return buf;
}

/* TensorFlow's SparseTensor::IndicesValid: in bounds, strictly increasing. */
static int sparse_indices_valid(const sparse_in* sp, TF_Status* s) {
  char row[256], dims[256];
  for (int64_t r = 0; r < sp->nnz; r++) {
    const int64_t* cur = ix_row(sp, r);
    int valid = 1, different = r == 0, increasing = 1;
    for (int d = 0; d < sp->rank; d++) {
      if (cur[d] < 0 || cur[d] >= sp->shape[d]) valid = 0;
      if (r == 0) continue;
      const int64_t diff = cur[d] - ix_row(sp, r - 1)[d];
      if (diff > 0) different = 1;
      if (!different && diff < 0) increasing = 0;
    }
    if (valid && increasing && different) continue;
    row_str(cur, sp->rank, row, sizeof row);
    if (!valid) {
      char* p = dims;
      size_t left = sizeof dims;
      for (int d = 0; d < sp->rank && left > 1; d++) {
        const int w = snprintf(p, left, "%s%lld", d ? "," : "", (long long)sp->shape[d]);
        if (w < 0 || (size_t)w >= left) break;
        p += w;
        left -= (size_t)w;
      }
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "indices[%lld] = %s is out of bounds: need 0 <= index < [%s]", (long long)r,
                     row, dims);
    } else if (!increasing) {
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "indices[%lld] = %s is out of order. Many sparse ops require sorted "
                     "indices.\n    Use `tf.sparse.reorder` to create a correctly ordered "
                     "copy.\n\n",
                     (long long)r, row);
    } else {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "indices[%lld] = %s is repeated", (long long)r, row);
    }
    return 0;
  }
  return 1;
}

/* TensorFlow's SparseTensorFromContext: inputs base..base+2 as a sparse
 * tensor of rank >= 2, checked as SparseTensor::Create does (first error
 * wins, as TensorFlow's status keeps the first failure). */
static int sparse_from_ctx(mt_kernel_ctx* ctx, int base, int validate, sparse_in* sp) {
  TF_Status* s = ctx->status;
  const TF_Tensor* shape_t = ctx->inputs[base + 2];
  sp->ix = ctx->inputs[base];
  sp->vals = ctx->inputs[base + 1];
  if (shape_t->ndims != 1) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Shape must be a 1D tensor.");
    return 0;
  }
  const int64_t rank = shape_t->dims[0];
  if (rank > MT_MAX_DIMS) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Too many dimensions in tensor");
    return 0;
  }
  const int64_t* sv = mt_tensor_data(shape_t);
  for (int64_t d = 0; d < rank; d++) {
    if (sv[d] < 0) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "Expected shape dimensions to be non-negative, got %lld",
                     (long long)sv[d]);
      return 0;
    }
    sp->shape[d] = sv[d];
  }
  sp->rank = (int)rank;
  char a[128], b[128];
  if (rank < 2) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Invalid rank %lld.", (long long)rank);
  } else if (sp->vals->ndims != 1) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "vals must be a vec, but got: %s",
                   mt_dims_str(sp->vals->dims, sp->vals->ndims, a, sizeof a));
  } else if (sp->ix->ndims < 1 || sp->ix->dims[0] != sp->vals->dims[0]) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "indices and values rows (indexing dimension) must match. (indices = %lld, "
                   "values = %lld)",
                   (long long)(sp->ix->ndims ? sp->ix->dims[0] : 0), (long long)sp->vals->dims[0]);
  } else if (sp->ix->ndims != 2) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "indices must be a matrix, but got: %s",
                   mt_dims_str(sp->ix->dims, sp->ix->ndims, b, sizeof b));
  } else if (sp->ix->dims[1] != rank) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Order length must be SparseTensor rank.");
  }
  if (!mt_ok(s)) return 0;
  sp->nnz = sp->ix->dims[0];
  return !validate || sparse_indices_valid(sp, s);
}

/* End (exclusive) of the run of rows starting at r that share the first
 * rank-1 coordinates: TensorFlow's SparseTensor::group over those dims. */
static int64_t group_end(const sparse_in* sp, int64_t r) {
  int64_t e = r + 1;
  while (e < sp->nnz && memcmp(ix_row(sp, e), ix_row(sp, r), sizeof(int64_t) * (size_t)(sp->rank - 1)) == 0)
    e++;
  return e;
}

/* TensorFlow's CheckGroup (an Internal error when indices were not
 * validated), then the group's values as a set. */
static int sparse_group_set(mt_kernel_ctx* ctx, const sparse_in* sp, int64_t r, int64_t e,
                            set_buf* out) {
  for (int j = 0; j < sp->rank; j++) {
    if (sp->shape[j] <= 0) {
      mt_status_setf(ctx->status, TF_INTERNAL, "Invalid dim_size[%d] = %lld.", j,
                     (long long)sp->shape[j]);
      return 0;
    }
    for (int64_t i = r; i < e; i++) {
      if (ix_row(sp, i)[j] >= sp->shape[j]) {
        mt_status_setf(ctx->status, TF_INTERNAL, "indices[%lld, %d] expected < %lld, got %lld.",
                       (long long)(i - r), j, (long long)sp->shape[j], (long long)ix_row(sp, i)[j]);
        return 0;
      }
    }
  }
  out->n = 0;
  for (int64_t i = r; i < e; i++)
    if (!buf_add(out, sp->vals, i, ctx->status)) return 0;
  buf_make_set(out);
  return 1;
}

/* ---- SetSize ---- */

static void set_size_kernel(mt_kernel_ctx* ctx) {
  const int validate = mt_op_attr_bool(ctx->op, "validate_indices", 1);
  sparse_in sp;
  if (!sparse_from_ctx(ctx, 0, validate, &sp)) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_INT32, sp.shape, sp.rank - 1);
  if (!out) return;
  int32_t* o = mt_tensor_data(out);
  const int64_t nout = mt_tensor_nelems(out);
  memset(o, 0, sizeof(int32_t) * (size_t)nout);
  set_buf set = {sp.vals->dtype, NULL, 0, 0};
  for (int64_t r = 0; r < sp.nnz;) {
    const int64_t e = group_end(&sp, r);
    if (!sparse_group_set(ctx, &sp, r, e, &set)) break;
    int64_t flat = 0;
    for (int d = 0; d < sp.rank - 1; d++) flat = flat * sp.shape[d] + ix_row(&sp, r)[d];
    if (flat < 0 || flat >= nout) {
      char buf[128];
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Index out of range, %lld vs %s",
                     (long long)flat, mt_dims_str(sp.shape, sp.rank - 1, buf, sizeof buf));
      break;
    }
    o[flat] = (int32_t)set.n;
    r = e;
  }
  free(set.v);
}

/* ---- the set operations ---- */

typedef enum { DENSE_DENSE, DENSE_SPARSE, SPARSE_SPARSE } set_inputs;

/* The result: group keys (rank-1 coordinates each) and the concatenated
 * result sets, each with its length. */
typedef struct {
  int grank;
  int64_t* keys;  /* ngroups * grank */
  int64_t* sizes; /* ngroups */
  int64_t ngroups, cap;
  set_buf vals;
  int64_t max_size;
} set_result;

static int result_add(set_result* res, const int64_t* key, const set_buf* a, const set_buf* b,
                      set_op op, TF_Status* s) {
  const int64_t before = res->vals.n;
  if (!apply_set_op(op, a, b, &res->vals, s)) return 0;
  const int64_t k = res->vals.n - before;
  if (k == 0) return 1;
  if (res->ngroups == res->cap) {
    const int64_t cap = res->cap ? 2 * res->cap : 16;
    int64_t* keys = realloc(res->keys, sizeof(int64_t) * (size_t)(cap * (res->grank + 1)));
    if (!keys) {
      mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
      return 0;
    }
    res->keys = keys;
    int64_t* sizes = realloc(res->sizes, sizeof(int64_t) * (size_t)cap);
    if (!sizes) {
      mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
      return 0;
    }
    res->sizes = sizes;
    res->cap = cap;
  }
  memcpy(res->keys + res->ngroups * res->grank, key, sizeof(int64_t) * (size_t)res->grank);
  res->sizes[res->ngroups++] = k;
  if (k > res->max_size) res->max_size = k;
  return 1;
}

static void result_output(mt_kernel_ctx* ctx, const set_result* res, const int64_t* gshape,
                          TF_DataType dt) {
  const int rank = res->grank + 1;
  const int64_t idims[2] = {res->vals.n, rank};
  TF_Tensor* ix = mt_ctx_alloc(ctx, 0, TF_INT64, idims, 2);
  TF_Tensor* vals = ix ? mt_ctx_alloc(ctx, 1, dt, &res->vals.n, 1) : NULL;
  const int64_t sdims = rank;
  TF_Tensor* shape = vals ? mt_ctx_alloc(ctx, 2, TF_INT64, &sdims, 1) : NULL;
  if (!shape) return;
  int64_t* o = mt_tensor_data(ix);
  int64_t v = 0;
  for (int64_t g = 0; g < res->ngroups; g++) {
    for (int64_t j = 0; j < res->sizes[g]; j++, v++) {
      memcpy(o + v * rank, res->keys + g * res->grank, sizeof(int64_t) * (size_t)res->grank);
      o[v * rank + res->grank] = j;
      store_elem(vals, v, &res->vals.v[v]);
    }
  }
  int64_t* sh = mt_tensor_data(shape);
  for (int d = 0; d < res->grank; d++) sh[d] = gshape[d];
  sh[res->grank] = res->max_size;
}

static int parse_set_op(mt_kernel_ctx* ctx, set_op* op) {
  const char* name = mt_op_attr_str(ctx->op, "set_operation", NULL);
  if (!name) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Missing set_operation.");
    return 0;
  }
  char low[64];
  size_t n = strlen(name);
  if (n >= sizeof low) n = sizeof low - 1;
  for (size_t i = 0; i < n; i++) low[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] + 32 : name[i]);
  low[n] = 0;
  if (!strcmp(low, "a-b")) *op = OP_A_MINUS_B;
  else if (!strcmp(low, "b-a")) *op = OP_B_MINUS_A;
  else if (!strcmp(low, "intersection")) *op = OP_INTERSECTION;
  else if (!strcmp(low, "union")) *op = OP_UNION;
  else {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Invalid set_operation %s.", low);
    return 0;
  }
  return 1;
}

static const char* join_dims(const int64_t* d, int n, char* buf, size_t cap) {
  size_t used = 0;
  buf[0] = 0;
  for (int i = 0; i < n && used < cap; i++)
    used += (size_t)snprintf(buf + used, cap - used, "%s%lld", i ? "," : "", (long long)d[i]);
  return buf;
}

/* TensorFlow's GroupShapeFromInputs: both ranks >= 2, equal first n-1 dims. */
static int group_shape(mt_kernel_ctx* ctx, const int64_t* s1, int r1, const int64_t* s2, int r2) {
  char a[256], b[256];
  const int64_t* bad = r1 < 2 ? s1 : r2 < 2 ? s2 : NULL;
  if (bad) {
    const int r = bad == s1 ? r1 : r2;
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape [%s] has rank %d < 2",
                   join_dims(bad, r, a, sizeof a), r);
    return 0;
  }
  if (r1 != r2 || memcmp(s1, s2, sizeof(int64_t) * (size_t)(r1 - 1)) != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Mismatched shapes [%s] vs [%s]",
                   join_dims(s1, r1 - 1, a, sizeof a), join_dims(s2, r2 - 1, b, sizeof b));
    return 0;
  }
  return 1;
}

static int dense_group_set(mt_kernel_ctx* ctx, const TF_Tensor* t, int64_t g, set_buf* out) {
  const int64_t last = t->dims[t->ndims - 1];
  out->n = 0;
  for (int64_t k = g * last; k < (g + 1) * last; k++)
    if (!buf_add(out, t, k, ctx->status)) return 0;
  buf_make_set(out);
  return 1;
}

static void unflatten(int64_t flat, const int64_t* shape, int n, int64_t* key) {
  for (int d = n - 1; d >= 0; d--) {
    key[d] = flat % shape[d];
    flat /= shape[d];
  }
}

/* Dense set1 against dense or sparse set2, group by group in row-major order. */
static void dense_first(mt_kernel_ctx* ctx, const sparse_in* sp2, set_op op, set_result* res,
                        set_buf* a, set_buf* b) {
  const TF_Tensor* t1 = ctx->inputs[0];
  const TF_Tensor* t2 = sp2 ? NULL : ctx->inputs[1];
  const int64_t* s2 = sp2 ? sp2->shape : t2->dims;
  const int r2 = sp2 ? sp2->rank : t2->ndims;
  if (!group_shape(ctx, t1->dims, t1->ndims, s2, r2)) return;
  res->grank = t1->ndims - 1;
  const int64_t ngroups = mt_num_elements(t1->dims, res->grank);
  int64_t key[MT_MAX_DIMS];
  int64_t r = 0;
  for (int64_t g = 0; g < ngroups; g++) {
    unflatten(g, t1->dims, res->grank, key);
    if (!dense_group_set(ctx, t1, g, a)) return;
    b->n = 0;
    if (t2) {
      if (!dense_group_set(ctx, t2, g, b)) return;
    } else if (r < sp2->nnz &&
               memcmp(ix_row(sp2, r), key, sizeof(int64_t) * (size_t)res->grank) == 0) {
      const int64_t e = group_end(sp2, r);
      if (!sparse_group_set(ctx, sp2, r, e, b)) return;
      r = e;
    }
    if (!result_add(res, key, a, b, op, ctx->status)) return;
  }
  result_output(ctx, res, t1->dims, t1->dtype);
}

/* Two sparse sets: their groups merged in row-major order. */
static void sparse_sparse(mt_kernel_ctx* ctx, const sparse_in* s1, const sparse_in* s2,
                          set_op op, set_result* res, set_buf* a, set_buf* b) {
  if (!group_shape(ctx, s1->shape, s1->rank, s2->shape, s2->rank)) return;
  res->grank = s1->rank - 1;
  const size_t kbytes = sizeof(int64_t) * (size_t)res->grank;
  int64_t i = 0, j = 0;
  while (i < s1->nnz || j < s2->nnz) {
    int c = i == s1->nnz ? 1 : j == s2->nnz ? -1 : 0;
    for (int d = 0; c == 0 && d < res->grank; d++) {
      const int64_t x = ix_row(s1, i)[d], y = ix_row(s2, j)[d];
      c = x < y ? -1 : x > y;
    }
    const int64_t* key = c <= 0 ? ix_row(s1, i) : ix_row(s2, j);
    int64_t keep[MT_MAX_DIMS];
    memcpy(keep, key, kbytes);
    a->n = b->n = 0;
    if (c <= 0) {
      const int64_t e = group_end(s1, i);
      if (!sparse_group_set(ctx, s1, i, e, a)) return;
      i = e;
    }
    if (c >= 0) {
      const int64_t e = group_end(s2, j);
      if (!sparse_group_set(ctx, s2, j, e, b)) return;
      j = e;
    }
    if (!result_add(res, keep, a, b, op, ctx->status)) return;
  }
  result_output(ctx, res, s1->shape, s1->vals->dtype);
}

static void set_operation(mt_kernel_ctx* ctx, set_inputs kind) {
  set_op op;
  if (!parse_set_op(ctx, &op)) return;
  const int validate = mt_op_attr_bool(ctx->op, "validate_indices", 1);
  sparse_in s1, s2;
  if (kind == SPARSE_SPARSE) {
    if (!sparse_from_ctx(ctx, 0, validate, &s1)) return;
    if (!sparse_from_ctx(ctx, 3, validate, &s2)) return;
  } else if (kind == DENSE_SPARSE && !sparse_from_ctx(ctx, 1, validate, &s2)) {
    return;
  }
  const TF_DataType dt = kind == SPARSE_SPARSE ? s1.vals->dtype : ctx->inputs[0]->dtype;
  set_buf a = {dt, NULL, 0, 0}, b = {dt, NULL, 0, 0};
  set_result res = {0, NULL, NULL, 0, 0, {dt, NULL, 0, 0}, 0};
  if (kind == SPARSE_SPARSE) sparse_sparse(ctx, &s1, &s2, op, &res, &a, &b);
  else dense_first(ctx, kind == DENSE_SPARSE ? &s2 : NULL, op, &res, &a, &b);
  free(a.v);
  free(b.v);
  free(res.vals.v);
  free(res.keys);
  free(res.sizes);
}

static void dense_dense_kernel(mt_kernel_ctx* ctx) { set_operation(ctx, DENSE_DENSE); }
static void dense_sparse_kernel(mt_kernel_ctx* ctx) { set_operation(ctx, DENSE_SPARSE); }
static void sparse_sparse_kernel(mt_kernel_ctx* ctx) { set_operation(ctx, SPARSE_SPARSE); }

/* ---- shape functions (TensorFlow's set_ops.cc) ---- */

static void set_outputs(mt_shape_ctx* ctx, int64_t rank) {
  ctx->out[0] = mt_shape_make((const int64_t[]){-1, rank}, 2);
  ctx->out[1] = mt_shape_make((const int64_t[]){-1}, 1);
  ctx->out[2] = mt_shape_make(&rank, 1);
}

/* TensorFlow's ValidateSparseTensor over inputs ix, ix+1, ix+2. */
static int validate_sparse(mt_shape_ctx* ctx, int ix) {
  if (!mt_shape_with_rank(ctx, ix, 2) || !mt_shape_with_rank(ctx, ix + 1, 1) ||
      !mt_shape_with_rank(ctx, ix + 2, 1))
    return 0;
  const mt_shape* i = &ctx->in[ix];
  const mt_shape* v = &ctx->in[ix + 1];
  const mt_shape* s = &ctx->in[ix + 2];
  if (i->rank == 2 && v->rank == 1 && i->dims[0] >= 0 && v->dims[0] >= 0 &&
      i->dims[0] != v->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Number of elements in index (%lld) and values (%lld) do not match.",
                   (long long)i->dims[0], (long long)v->dims[0]);
    return 0;
  }
  if (i->rank == 2 && s->rank == 1 && i->dims[1] >= 0 && s->dims[0] >= 0 &&
      i->dims[1] != s->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Index rank (%lld) and shape rank (%lld) do not match.", (long long)i->dims[1],
                   (long long)s->dims[0]);
    return 0;
  }
  return 1;
}

static int64_t sparse_rank_dim(const mt_shape_ctx* ctx, int shape_idx) {
  const mt_shape* s = &ctx->in[shape_idx];
  return s->rank == 1 ? s->dims[0] : -1;
}

/* TensorFlow's InferenceContext::Merge of the two group shapes (all but the
 * last dim), in its words. */
static int merge_group_shapes(mt_shape_ctx* ctx, const mt_shape* a, const mt_shape* b) {
  const int n = a->rank - 1;
  for (int d = 0; d < n; d++) {
    if (a->dims[d] < 0 || b->dims[d] < 0 || a->dims[d] == b->dims[d]) continue;
    char sa[256], sb[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Dimension %d in both shapes must be equal, but are %lld and %lld. Shapes are "
                   "%s and %s.",
                   d, (long long)a->dims[d], (long long)b->dims[d],
                   mt_dims_str(a->dims, n, sa, sizeof sa), mt_dims_str(b->dims, n, sb, sizeof sb));
    return 0;
  }
  return 1;
}

static void dense_dense_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank_at_least(ctx, 0, 2)) return;
  const mt_shape* a = &ctx->in[0];
  const mt_shape* b = &ctx->in[1];
  int64_t rank = -1;
  if (a->rank >= 0) {
    if (!mt_shape_with_rank(ctx, 1, a->rank)) return;
    if (b->rank >= 0 && !merge_group_shapes(ctx, a, b)) return;
    rank = a->rank;
  } else {
    if (!mt_shape_with_rank_at_least(ctx, 1, 2)) return;
    rank = b->rank >= 0 ? b->rank : -1;
  }
  set_outputs(ctx, rank);
}

static void dense_sparse_shape(mt_shape_ctx* ctx) {
  if (!validate_sparse(ctx, 1)) return;
  int64_t rank = sparse_rank_dim(ctx, 3);
  if (!mt_shape_with_rank_at_least(ctx, 0, 2)) return;
  const mt_shape* a = &ctx->in[0];
  if (a->rank >= 0) {
    if (rank >= 0 && rank != a->rank) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension must be %d but is %lld",
                     a->rank, (long long)rank);
      return;
    }
    rank = a->rank;
  }
  set_outputs(ctx, rank);
}

static void sparse_sparse_shape(mt_shape_ctx* ctx) {
  if (!validate_sparse(ctx, 0) || !validate_sparse(ctx, 3)) return;
  const int64_t r0 = sparse_rank_dim(ctx, 2), r1 = sparse_rank_dim(ctx, 5);
  int64_t rank = -1;
  if (r0 >= 0) {
    if (r0 < 2) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input 0, expected rank >= 2, got %lld.",
                     (long long)r0);
      return;
    }
    if (r1 >= 0 && r1 != r0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension must be %lld but is %lld",
                     (long long)r0, (long long)r1);
      return;
    }
    rank = r0;
  } else if (r1 >= 0) {
    if (r1 < 2) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input 1, expected rank >= 2, got %lld.",
                     (long long)r1);
      return;
    }
    rank = r1;
  }
  set_outputs(ctx, rank);
}

#define SET_TYPES "T: {int8, int16, int32, int64, uint8, uint16, string}"
#define SET_OUTPUTS "result_indices: int64, result_values: T, result_shape: int64"
#define SET_ATTRS "set_operation: string; validate_indices: bool = true; " SET_TYPES

static const mt_op_spec set_specs[] = {
    {.name = "SetSize", .inputs = "set_indices: int64, set_values: T, set_shape: int64",
     .outputs = "size: int32", .attrs = "validate_indices: bool = true; " SET_TYPES,
     .shape = NULL, .kernel = set_size_kernel},
    {.name = "DenseToDenseSetOperation", .inputs = "set1: T, set2: T", .outputs = SET_OUTPUTS,
     .attrs = SET_ATTRS, .shape = dense_dense_shape, .kernel = dense_dense_kernel},
    {.name = "DenseToSparseSetOperation",
     .inputs = "set1: T, set2_indices: int64, set2_values: T, set2_shape: int64",
     .outputs = SET_OUTPUTS, .attrs = SET_ATTRS, .shape = dense_sparse_shape,
     .kernel = dense_sparse_kernel},
    {.name = "SparseToSparseSetOperation",
     .inputs = "set1_indices: int64, set1_values: T, set1_shape: int64, set2_indices: int64, "
               "set2_values: T, set2_shape: int64",
     .outputs = SET_OUTPUTS, .attrs = SET_ATTRS, .shape = sparse_sparse_shape,
     .kernel = sparse_sparse_kernel},
};

void mt_register_set_ops(void) {
  mt_register_ops(set_specs, (int)(sizeof set_specs / sizeof set_specs[0]));
}
