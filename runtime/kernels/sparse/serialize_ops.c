/* SerializeSparse, SerializeManySparse and DeserializeManySparse (TensorFlow's
 * serialize_sparse_op.cc, deserialize_sparse_string_op.cc): a SparseTensor
 * as three serialized TensorProtos (indices, values, dense_shape), written
 * as TensorFlow's AsProtoTensorContent writes them (tensor_content; strings
 * in string_val), so the bytes equal TensorFlow's. The many-forms split a
 * minibatch along dimension 0 into [N, 3] and join such rows back,
 * dimension 0 growing by one per row and the others taking their largest
 * size. The string forms only: out_type variant has no kernel here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/graphdef.h"
#include "runtime/kernels/move_util.h"
#include "runtime/kernels/sparse/sparse_more.h"
#include "runtime/proto.h"
#include "runtime/status.h"
#include "runtime/tensor.h"

/* The TensorProto bytes of t into string element dst. */
static int put_proto(mt_kernel_ctx* ctx, TF_TString* dst, const TF_Tensor* t) {
  mt_pb_writer w = mt_pb_writer_make();
  mt_tensor_to_proto_as(&w, t, MT_PROTO_CONTENT);
  if (w.failed) {
    mt_pb_writer_free(&w);
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return 0;
  }
  TF_StringCopy(dst, w.len ? (const char*)w.data : "", w.len);
  mt_pb_writer_free(&w);
  return 1;
}

static int check_triple(mt_kernel_ctx* ctx) {
  char buf[256];
  if (ctx->inputs[0]->ndims != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input indices should be a matrix but received shape %s",
                   mt_sp_dims(ctx->inputs[0], buf, sizeof buf));
    return 0;
  }
  if (ctx->inputs[1]->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input values should be a vector but received shape %s",
                   mt_sp_dims(ctx->inputs[1], buf, sizeof buf));
    return 0;
  }
  if (ctx->inputs[2]->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input shape should be a vector but received shape %s",
                   mt_sp_dims(ctx->inputs[2], buf, sizeof buf));
    return 0;
  }
  if (mt_op_attr_type(ctx->op, "out_type", TF_STRING) != TF_STRING) {
    mt_kernel_unsupported(ctx, "out_type", TF_VARIANT);
    return 0;
  }
  if (!mv_esize(ctx->inputs[1]->dtype)) {
    mt_kernel_unsupported(ctx, "T", ctx->inputs[1]->dtype);
    return 0;
  }
  return 1;
}

static void serialize_sparse_kernel(mt_kernel_ctx* ctx) {
  if (!check_triple(ctx)) return;
  const int64_t three = 3;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_STRING, &three, 1);
  if (!out) return;
  TF_TString* s = mt_tensor_data(out);
  for (int i = 0; i < 3; i++)
    if (!put_proto(ctx, &s[i], ctx->inputs[i])) return;
}

/* Rows [b, e) of the (sorted) input as entry `row` of the batch. */
static int put_row(mt_kernel_ctx* ctx, TF_TString* dst, int64_t b, int64_t e) {
  const TF_Tensor* ix = ctx->inputs[0];
  const TF_Tensor* vals = ctx->inputs[1];
  const int64_t rank = ix->dims[1], n = e - b;
  const int64_t idims[2] = {n, rank - 1};
  TF_Tensor* oi = mt_tensor_new(TF_INT64, idims, 2, ctx->status);
  TF_Tensor* ov = oi ? mt_tensor_new(vals->dtype, &n, 1, ctx->status) : NULL;
  int ok = ov != NULL;
  if (ok) {
    const int64_t* src = mt_tensor_data(ix);
    int64_t* d = mt_tensor_data(oi);
    for (int64_t i = 0; i < n; i++) {
      for (int64_t k = 1; k < rank; k++) d[i * (rank - 1) + k - 1] = src[(b + i) * rank + k];
      mv_copy(ov, i, vals, b + i, 1);
    }
    ok = put_proto(ctx, &dst[0], oi) && put_proto(ctx, &dst[1], ov);
  }
  if (oi) mt_tensor_free(oi);
  if (ov) mt_tensor_free(ov);
  return ok;
}

static void serialize_many_sparse_kernel(mt_kernel_ctx* ctx) {
  if (!check_triple(ctx)) return;
  const TF_Tensor* ix = ctx->inputs[0];
  const TF_Tensor* shape = ctx->inputs[2];
  const int64_t rank = shape->dims[0];
  if (rank <= 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Rank of input SparseTensor should be > 1, but saw rank: %lld",
                   (long long)rank);
    return;
  }
  const int64_t* sv = mt_tensor_data(shape);
  const int64_t nnz = ix->dims[0], batch = sv[0];
  if (ix->dims[1] != rank || ctx->inputs[1]->dims[0] != nnz) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "indices and values rows (indexing dimension) must match. (indices = %lld, "
                   "values = %lld)",
                   (long long)nnz, (long long)ctx->inputs[1]->dims[0]);
    return;
  }
  const int64_t* src = mt_tensor_data(ix);
  if (!mt_sparse_indices_valid(ix, nnz, rank, sv, ctx->status)) return;
  if (batch < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                   (long long)batch);
    return;
  }
  const int64_t odims[2] = {batch, 3};
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_STRING, odims, 2);
  if (!out) return;
  TF_TString* s = mt_tensor_data(out);
  /* every row starts empty, with the shape of one batch entry */
  const int64_t sub = rank - 1, zero_dims[2] = {0, rank - 1}, zero = 0;
  TF_Tensor* sh = mt_tensor_new(TF_INT64, &sub, 1, ctx->status);
  TF_Tensor* bi = sh ? mt_tensor_new(TF_INT64, zero_dims, 2, ctx->status) : NULL;
  TF_Tensor* bv = bi ? mt_tensor_new(ctx->inputs[1]->dtype, &zero, 1, ctx->status) : NULL;
  int ok = bv != NULL;
  if (ok) memcpy(mt_tensor_data(sh), sv + 1, sizeof(int64_t) * (size_t)sub);
  for (int64_t r = 0; ok && r < batch; r++)
    ok = put_proto(ctx, &s[r * 3], bi) && put_proto(ctx, &s[r * 3 + 1], bv) &&
         put_proto(ctx, &s[r * 3 + 2], sh);
  for (int64_t b = 0; ok && b < nnz;) {
    int64_t e = b + 1;
    while (e < nnz && src[e * rank] == src[b * rank]) e++;
    const int64_t row = src[b * rank];
    if (row < 0 || row >= batch) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Received unexpected column 0 value in input SparseTensor: %lld < 0 or >= "
                     "N (= %lld)",
                     (long long)row, (long long)batch);
      break;
    }
    ok = put_row(ctx, &s[row * 3], b, e);
    b = e;
  }
  if (sh) mt_tensor_free(sh);
  if (bi) mt_tensor_free(bi);
  if (bv) mt_tensor_free(bv);
}

/* ---- DeserializeManySparse ---- */

static TF_Tensor* parse(mt_kernel_ctx* ctx, const TF_TString* s, int64_t i, int col) {
  TF_Status st = {TF_OK, NULL};
  TF_Tensor* t = mt_tensor_parse(TF_StringGetDataPointer(s), TF_StringGetSize(s), &st);
  free(st.msg);
  if (!t) {
    (void)i, (void)col; /* TensorFlow's message names no position */
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Could not parse serialized proto");
  }
  return t;
}

typedef struct parsed {
  TF_Tensor* t[3];
} parsed;

static int check_parsed(mt_kernel_ctx* ctx, const parsed* p, int64_t i, TF_DataType dt) {
  char buf[256];
  if (p->t[0]->ndims != 2 || p->t[0]->dtype != TF_INT64) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected serialized_sparse[%lld, 0] to represent an index matrix but "
                   "received shape %s",
                   (long long)i, mt_sp_dims(p->t[0], buf, sizeof buf));
    return 0;
  }
  if (p->t[1]->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected serialized_sparse[%lld, 1] to represent a values vector but "
                   "received shape %s",
                   (long long)i, mt_sp_dims(p->t[1], buf, sizeof buf));
    return 0;
  }
  if (p->t[2]->ndims != 1 || p->t[2]->dtype != TF_INT64) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected serialized_sparse[%lld, 2] to be a shape vector but its shape is %s",
                   (long long)i, mt_sp_dims(p->t[2], buf, sizeof buf));
    return 0;
  }
  if (p->t[1]->dtype != dt) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Requested SparseTensor of type %s but SparseTensor[%lld].values.dtype() == %s",
                   mt_dtype_name(dt), (long long)i, mt_dtype_name(p->t[1]->dtype));
    return 0;
  }
  if (p->t[0]->dims[0] != p->t[1]->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected row counts of SparseTensor[%lld].indices and SparseTensor[%lld]."
                   "values to match but they do not: %lld vs. %lld",
                   (long long)i, (long long)i, (long long)p->t[0]->dims[0],
                   (long long)p->t[1]->dims[0]);
    return 0;
  }
  if (p->t[0]->dims[1] != p->t[2]->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected column counts of SparseTensor[%lld].indices to match size of "
                   "SparseTensor[%lld].shape but they do not: %lld vs. %lld",
                   (long long)i, (long long)i, (long long)p->t[0]->dims[1],
                   (long long)p->t[2]->dims[0]);
    return 0;
  }
  if (p->t[2]->dims[0] + 1 > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Too many dimensions in tensor");
    return 0;
  }
  return 1;
}

static void free_parsed(parsed* p, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    for (int k = 0; k < 3; k++)
      if (p[i].t[k]) mt_tensor_free(p[i].t[k]);
  free(p);
}

/* Writes the joined outputs: row i's entries, in their serialized order,
 * with i prefixed (TensorFlow's Concat along dimension 0). */
static void join_rows(mt_kernel_ctx* ctx, const parsed* p, int64_t n, TF_DataType dt) {
  const int64_t rank = p[0].t[2]->dims[0];
  int64_t total = 0, shape[MT_MAX_DIMS] = {0};
  for (int64_t i = 0; i < n; i++) {
    if (p[i].t[2]->dims[0] != rank) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Inconsistent shape across SparseTensors: rank prior to SparseTensor[%lld] "
                     "was: %lld but rank of SparseTensor[%lld] is: %lld",
                     (long long)i, (long long)rank + 1, (long long)i,
                     (long long)p[i].t[2]->dims[0] + 1);
      return;
    }
    total += p[i].t[0]->dims[0];
    const int64_t* sv = mt_tensor_data(p[i].t[2]);
    for (int64_t d = 0; d < rank; d++)
      if (sv[d] > shape[d]) shape[d] = sv[d];
  }
  const int64_t idims[2] = {total, rank + 1}, r1 = rank + 1;
  TF_Tensor* oi = mt_ctx_alloc(ctx, 0, TF_INT64, idims, 2);
  TF_Tensor* ov = oi ? mt_ctx_alloc(ctx, 1, dt, &total, 1) : NULL;
  TF_Tensor* os = ov ? mt_ctx_alloc(ctx, 2, TF_INT64, &r1, 1) : NULL;
  if (!os) return;
  int64_t* d = mt_tensor_data(oi);
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++) {
    const int64_t* src = mt_tensor_data(p[i].t[0]);
    for (int64_t e = 0; e < p[i].t[0]->dims[0]; e++, k++) {
      d[k * (rank + 1)] = i;
      memcpy(d + k * (rank + 1) + 1, src + e * rank, sizeof(int64_t) * (size_t)rank);
      mv_copy(ov, k, p[i].t[1], e, 1);
    }
  }
  int64_t* sv = mt_tensor_data(os);
  sv[0] = n;
  memcpy(sv + 1, shape, sizeof(int64_t) * (size_t)rank);
}

static void deserialize_many_sparse_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_DataType dt = mt_op_attr_type(ctx->op, "dtype", TF_FLOAT);
  char buf[256];
  if (in->ndims != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Serialized sparse should be a matrix but received shape %s",
                   mt_sp_dims(in, buf, sizeof buf));
    return;
  }
  if (in->dims[1] != 3) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Serialized sparse should have 3 columns but received shape %s",
                   mt_sp_dims(in, buf, sizeof buf));
    return;
  }
  const int64_t n = in->dims[0];
  if (n <= 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Must have at least 1 serialized SparseTensor, but input matrix has 0 rows");
    return;
  }
  if (!mv_esize(dt)) {
    mt_kernel_unsupported(ctx, "dtype", dt);
    return;
  }
  parsed* p = calloc((size_t)n, sizeof *p);
  if (!p) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  const TF_TString* s = mt_tensor_data(in);
  for (int64_t i = 0; i < n; i++) {
    for (int k = 0; k < 3; k++) {
      p[i].t[k] = parse(ctx, &s[i * 3 + k], i, k);
      if (!p[i].t[k]) {
        free_parsed(p, n);
        return;
      }
    }
    if (!check_parsed(ctx, &p[i], i, dt)) {
      free_parsed(p, n);
      return;
    }
  }
  join_rows(ctx, p, n, dt);
  free_parsed(p, n);
}

/* ---- shape functions ---- */

static void serialize_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 2) || !mt_shape_with_rank(ctx, 1, 1) ||
      !mt_shape_with_rank(ctx, 2, 1))
    return;
  const int64_t three = 3;
  ctx->out[0] = mt_shape_make(&three, 1);
}

static void serialize_many_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 2) || !mt_shape_with_rank(ctx, 1, 1) ||
      !mt_shape_with_rank(ctx, 2, 1))
    return;
  const int64_t dims[2] = {-1, 3};
  ctx->out[0] = mt_shape_make(dims, 2);
}

static void deserialize_many_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 2)) return;
  const mt_shape* s = &ctx->in[0];
  if (s->rank == 2 && s->dims[1] >= 0 && s->dims[1] != 3) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension must be 3 but is %lld",
                   (long long)s->dims[1]);
    return;
  }
  const int64_t idims[2] = {-1, -1}, unknown = -1;
  ctx->out[0] = mt_shape_make(idims, 2);
  ctx->out[1] = mt_shape_make(&unknown, 1);
  ctx->out[2] = mt_shape_make(&unknown, 1);
}

static const mt_op_spec serialize_specs[] = {
    {.name = "SerializeSparse",
     .inputs = "sparse_indices: int64, sparse_values: T, sparse_shape: int64",
     .outputs = "serialized_sparse: out_type",
     .attrs = "T: type; out_type: {string, variant} = DT_STRING", .shape = serialize_shape,
     .kernel = serialize_sparse_kernel},
    {.name = "SerializeManySparse",
     .inputs = "sparse_indices: int64, sparse_values: T, sparse_shape: int64",
     .outputs = "serialized_sparse: out_type",
     .attrs = "T: type; out_type: {string, variant} = DT_STRING", .shape = serialize_many_shape,
     .kernel = serialize_many_sparse_kernel},
    {.name = "DeserializeManySparse", .inputs = "serialized_sparse: string",
     .outputs = "sparse_indices: int64, sparse_values: dtype, sparse_shape: int64",
     .attrs = "dtype: type", .shape = deserialize_many_shape,
     .kernel = deserialize_many_sparse_kernel},
};

void mt_register_sparse_serialize_ops(void) {
  mt_register_ops(serialize_specs, (int)(sizeof serialize_specs / sizeof serialize_specs[0]));
}
