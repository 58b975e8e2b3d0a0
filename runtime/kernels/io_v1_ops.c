/* V1 checkpoint ops (TensorFlow's save_op.cc, restore_op.cc,
 * save_restore_tensor.cc): Save, SaveSlices, Restore, RestoreSlice over the
 * format of runtime/checkpoint_v1.h, and the V1 read path RestoreV2 takes for
 * a prefix without an `.index` (io_v1.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/checkpoint_v1.h"
#include "runtime/kernel.h"
#include "runtime/kernels/io_v1.h"
#include "runtime/kernels/kernel_util.h"

static const char* tstr(const TF_Tensor* t, int64_t i, size_t* len) {
  const TF_TString* s = (const TF_TString*)mt_tensor_data(t) + i;
  if (len) *len = TF_StringGetSize(s);
  return TF_StringGetDataPointer(s);
}

/* A NUL-terminated copy of string element i (NULL + status for an embedded
 * NUL or no memory). */
static char* tstr_dup(mt_kernel_ctx* ctx, const TF_Tensor* t, int64_t i, const char* what) {
  size_t n;
  const char* p = tstr(t, i, &n);
  if (memchr(p, 0, n)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s must not contain NUL bytes", what);
    return NULL;
  }
  char* out = strndup(p, n);
  if (!out) mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "Out of memory");
  return out;
}

static mt_tensor_slice full_slice(int rank) {
  mt_tensor_slice sl;
  sl.ndims = rank;
  for (int d = 0; d < rank; d++) sl.start[d] = 0, sl.length[d] = -1;
  return sl;
}

static int same_dims(const mt_shape* a, const TF_Tensor* t) {
  if (a->rank != t->ndims) return 0;
  for (int d = 0; d < a->rank; d++)
    if (a->dims[d] != t->dims[d]) return 0;
  return 1;
}

/* ---- Save / SaveSlices ---- */

static const TF_Tensor* sort_names; /* qsort has no context argument */
static int cmp_name_idx(const void* a, const void* b) {
  size_t la, lb;
  const char* x = tstr(sort_names, *(const int*)a, &la);
  const char* y = tstr(sort_names, *(const int*)b, &lb);
  int c = memcmp(x, y, la < lb ? la : lb);
  if (c == 0 && la != lb) c = la < lb ? -1 : 1;
  if (c == 0) c = *(const int*)a < *(const int*)b ? -1 : 1; /* stable */
  return c;
}

/* The input indices in tensor-name order: SaveTensors adds in that order. */
static int* name_order(const TF_Tensor* names, int n) {
  int* order = malloc((size_t)(n ? n : 1) * sizeof(int));
  if (!order) return NULL;
  for (int i = 0; i < n; i++) order[i] = i;
  static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&mu);
  sort_names = names;
  qsort(order, (size_t)n, sizeof(int), cmp_name_idx);
  pthread_mutex_unlock(&mu);
  return order;
}

static int save_check_inputs(mt_kernel_ctx* ctx, int fixed, int* n_out) {
  const TF_Tensor* filename = ctx->inputs[0];
  if (mt_tensor_nelems(filename) != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input 0 (filename) must be a string scalar; got a tensor of %lld"
                   "elements", /* sic: TensorFlow has no space */
                   (long long)mt_tensor_nelems(filename));
    return 0;
  }
  int64_t n = mt_tensor_nelems(ctx->inputs[1]);
  if (fixed == 3 && mt_tensor_nelems(ctx->inputs[2]) != n) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected %lld elements for the tensor shapes and slices but got %lld",
                   (long long)n, (long long)mt_tensor_nelems(ctx->inputs[2]));
    return 0;
  }
  if (ctx->ninputs != n + fixed) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected totally %lld inputs as input #1 (which is a string tensor of saved "
                   "names) contains %lld names, but received %d inputs",
                   (long long)(n + fixed), (long long)n, ctx->ninputs);
    return 0;
  }
  *n_out = (int)n;
  return 1;
}

/* Adds input i (its spec parsed when SaveSlices gives one). */
static int save_add(mt_kernel_ctx* ctx, mt_v1_writer* w, int fixed, int i) {
  const TF_Tensor* t = ctx->inputs[fixed + i];
  mt_shape full = mt_shape_make(t->dims, t->ndims);
  mt_tensor_slice slice = full_slice(t->ndims);
  size_t speclen = 0;
  if (fixed == 3) tstr(ctx->inputs[2], i, &speclen);
  if (speclen) {
    char* spec = tstr_dup(ctx, ctx->inputs[2], i, "shapes_and_slices");
    mt_shape slice_shape;
    int ok = spec && mt_parse_shape_and_slice(spec, &full, &slice, &slice_shape, ctx->status);
    if (ok && !same_dims(&slice_shape, t)) {
      char b[256];
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Slice in shape_and_slice specification does not match the shape of the "
                     "tensor to  save: %s, tensor: %s",
                     spec, mt_dims_str(t->dims, t->ndims, b, sizeof b));
      ok = 0;
    }
    free(spec);
    if (!ok) return 0;
  }
  if (!mt_v1_kernel_dtype(t->dtype)) {
    mt_status_setf(ctx->status, TF_UNIMPLEMENTED, "Saving data type %s not yet supported",
                   mt_dtype_name(t->dtype));
    return 0;
  }
  char* name = tstr_dup(ctx, ctx->inputs[1], i, "tensor_names");
  int ok = name && mt_v1_writer_add(w, name, &full, &slice, t, ctx->status);
  free(name);
  return ok;
}

static void save_tensors(mt_kernel_ctx* ctx, int fixed) {
  int n;
  if (!save_check_inputs(ctx, fixed, &n)) return;
  char* filename = tstr_dup(ctx, ctx->inputs[0], 0, "filename");
  mt_v1_writer* w = filename ? mt_v1_writer_new(filename, ctx->status) : NULL;
  free(filename);
  int* order = w ? name_order(ctx->inputs[1], n) : NULL;
  if (w && !order) mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "Out of memory");
  int ok = order != NULL;
  for (int k = 0; ok && k < n; k++) ok = save_add(ctx, w, fixed, order[k]);
  free(order);
  if (ok) mt_v1_writer_finish(w, ctx->status);
  else mt_v1_writer_abort(w);
}

static void save_kernel(mt_kernel_ctx* ctx) { save_tensors(ctx, 2); }
static void save_slices_kernel(mt_kernel_ctx* ctx) { save_tensors(ctx, 3); }

/* WithValue(Dim(input i, 0), n): "Dimension must be n but is m". */
static int dim0_is(mt_shape_ctx* ctx, int i, int n) {
  if (!mt_shape_with_rank(ctx, i, 1)) return 0;
  const mt_shape* s = &ctx->in[i];
  if (s->rank == 1 && s->dims[0] >= 0 && s->dims[0] != n) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension must be %d but is %lld", n,
                   (long long)s->dims[0]);
    return 0;
  }
  return 1;
}

static void save_shape(mt_shape_ctx* ctx) {
  if (mt_shape_with_rank(ctx, 0, 0)) dim0_is(ctx, 1, ctx->ninputs - 2);
}

static void save_slices_shape(mt_shape_ctx* ctx) {
  if (mt_shape_with_rank(ctx, 0, 0) && dim0_is(ctx, 1, ctx->ninputs - 3))
    dim0_is(ctx, 2, ctx->ninputs - 3);
}

/* ---- Restore / RestoreSlice / RestoreV2's V1 path ---- */

/* RestoreTensor: output `idx` is tensor_names[idx] (the slice
 * shape_and_slices[idx] names when restore_slice) from reader r. */
static int restore_tensor(mt_kernel_ctx* ctx, mt_v1_reader* r, const char* pattern,
                          int restore_slice, int idx) {
  const TF_Tensor* names = ctx->inputs[1];
  if (mt_tensor_nelems(names) <= idx) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input 1 (file_pattern) must be a have at least %d elements", idx + 1);
    return 0;
  }
  char* name = tstr_dup(ctx, names, idx, "tensor_name");
  if (!name) return 0;
  int ti = mt_v1_reader_find(r, name);
  mt_shape saved = mt_shape_scalar();
  TF_DataType have = 0;
  if (ti >= 0) mt_v1_reader_info(r, ti, &saved, &have, NULL);
  const mt_attr_value* dts = mt_op_attr(ctx->op, "dtypes");
  TF_DataType want0 = dts ? dts->list.type[0] : mt_op_attr_type(ctx->op, "dt", 0);
  TF_DataType want = dts ? dts->list.type[idx] : want0;
  mt_shape out_shape = saved;
  mt_tensor_slice slice = full_slice(saved.rank);
  int ok = 1;
  if (ti < 0) {
    mt_status_setf(ctx->status, TF_NOT_FOUND, "Tensor name \"%s\" not found in checkpoint files %s",
                   name, pattern);
    ok = 0;
  } else if (have != want) {
    /* TensorFlow names the dtype of output 0 here, whichever output it is. */
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected to restore a tensor of type %s, got a tensor of type %s instead: "
                   "tensor_name = %s",
                   mt_dtype_name(want0), mt_dtype_name(have), name);
    ok = 0;
  }
  size_t speclen = 0;
  if (ok && restore_slice) tstr(ctx->inputs[2], idx, &speclen);
  if (ok && speclen) {
    char* spec = tstr_dup(ctx, ctx->inputs[2], idx, "shape_and_slice");
    mt_shape parsed;
    ok = spec && mt_parse_shape_and_slice(spec, &parsed, &slice, &out_shape, ctx->status);
    if (ok && (parsed.rank != saved.rank || mt_shape_nelems(&parsed) != mt_shape_nelems(&saved) ||
               memcmp(parsed.dims, saved.dims, sizeof(int64_t) * (size_t)saved.rank) != 0)) {
      char a[256], b[256];
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Shape in shape_and_slice spec does not match the shape in the save file: "
                     "%s, save file shape: %s",
                     mt_shape_str(&parsed, a, sizeof a), mt_shape_str(&saved, b, sizeof b));
      ok = 0;
    }
    free(spec);
  }
  TF_Tensor* out = ok ? mt_tensor_new(have, out_shape.dims, out_shape.rank, ctx->status) : NULL;
  if (out && mt_tensor_nelems(out) > 0) {
    if (!mt_v1_kernel_dtype(have)) {
      mt_status_setf(ctx->status, TF_UNIMPLEMENTED, "Restoring data type %s not yet supported",
                     mt_dtype_name(have));
      ok = 0;
    } else {
      ok = mt_v1_reader_copy(r, ti, &slice, out, ctx->status);
    }
  }
  if (out && ok) {
    ctx->outputs[idx] = out;
  } else {
    mt_tensor_free(out);
    ok = 0;
  }
  free(name);
  return ok;
}

static mt_v1_reader* open_pattern(mt_kernel_ctx* ctx, char** pattern) {
  const TF_Tensor* p = ctx->inputs[0];
  *pattern = NULL;
  if (mt_tensor_nelems(p) != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input 0 (file_pattern) must be a string scalar; got a tensor of %lld "
                   "elements",
                   (long long)mt_tensor_nelems(p));
    return NULL;
  }
  *pattern = tstr_dup(ctx, p, 0, "file_pattern");
  return *pattern ? mt_v1_reader_open(*pattern, ctx->status) : NULL;
}

static void restore_op(mt_kernel_ctx* ctx, int restore_slice) {
  char* pattern;
  mt_v1_reader* r = open_pattern(ctx, &pattern);
  if (r) restore_tensor(ctx, r, pattern, restore_slice, 0);
  mt_v1_reader_free(r);
  free(pattern);
}

static void restore_kernel(mt_kernel_ctx* ctx) { restore_op(ctx, 0); }
static void restore_slice_kernel(mt_kernel_ctx* ctx) { restore_op(ctx, 1); }

void mt_restore_v1_tensors(mt_kernel_ctx* ctx) {
  char* pattern;
  mt_v1_reader* r = open_pattern(ctx, &pattern);
  int64_t n = mt_tensor_nelems(ctx->inputs[1]);
  for (int64_t i = 0; r && i < n; i++)
    if (!restore_tensor(ctx, r, pattern, 1, (int)i)) break;
  mt_v1_reader_free(r);
  free(pattern);
}

static void restore_shape(mt_shape_ctx* ctx) {
  if (mt_shape_with_rank(ctx, 0, 0)) mt_shape_with_rank(ctx, 1, 0);
}

static void restore_slice_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 0) || !mt_shape_with_rank(ctx, 1, 0) ||
      !mt_shape_with_rank(ctx, 2, 0))
    return;
  const TF_Tensor* spec = ctx->in_values ? ctx->in_values[2] : NULL;
  if (!spec) return;
  if (spec->dtype != TF_STRING) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Expected an input tensor of type string.");
    return;
  }
  size_t n;
  const char* p = tstr(spec, 0, &n);
  if (n == 0 || memchr(p, 0, n)) return;
  char* sp = strndup(p, n);
  mt_shape full, slice_shape;
  mt_tensor_slice slice;
  if (sp && mt_parse_shape_and_slice(sp, &full, &slice, &slice_shape, ctx->status))
    ctx->out[0] = slice_shape;
  free(sp);
}

static const mt_op_spec io_v1_ops[] = {
    {.name = "Save",
     .inputs = "filename: string, tensor_names: string, data: T",
     .attrs = "T: list(type) >= 1",
     .shape = save_shape,
     .kernel = save_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "SaveSlices",
     .inputs = "filename: string, tensor_names: string, shapes_and_slices: string, data: T",
     .attrs = "T: list(type) >= 1",
     .shape = save_slices_shape,
     .kernel = save_slices_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "Restore",
     .inputs = "file_pattern: string, tensor_name: string",
     .outputs = "tensor: dt",
     .attrs = "dt: type; preferred_shard: int = -1",
     .shape = restore_shape,
     .kernel = restore_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "RestoreSlice",
     .inputs = "file_pattern: string, tensor_name: string, shape_and_slice: string",
     .outputs = "tensor: dt",
     .attrs = "dt: type; preferred_shard: int = -1",
     .shape = restore_slice_shape,
     .kernel = restore_slice_kernel,
     .flags = MT_OP_STATEFUL},
};

void mt_register_io_v1_ops(void) {
  mt_register_ops(io_v1_ops, (int)(sizeof io_v1_ops / sizeof io_v1_ops[0]));
}
