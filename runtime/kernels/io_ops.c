/* Checkpoint ops (TensorFlow's io_ops.cc / save_restore_v2_ops.cc): SaveV2,
 * RestoreV2 and MergeV2Checkpoints over the tensor bundle of
 * runtime/bundle.h, and ShardedFilename / ShardedFilespec, which Saver uses
 * to name the shards of a sharded save; ReadFile, WriteFile, MatchingFiles
 * (files as TensorFlow's local file system sees them). */
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "runtime/bundle.h"
#include "runtime/kernel.h"
#include "runtime/kernels/io_v1.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/summarize.h"

static const char* tstr(const TF_Tensor* t, int64_t i, size_t* len) {
  const TF_TString* s = (const TF_TString*)mt_tensor_data(t) + i;
  if (len) *len = TF_StringGetSize(s);
  return TF_StringGetDataPointer(s);
}

/* A NUL-terminated copy of string element i (names and paths are C
 * strings in the runtime; an embedded NUL is refused). */
static char* tstr_dup(mt_kernel_ctx* ctx, const TF_Tensor* t, int64_t i, const char* what) {
  size_t n;
  const char* p = tstr(t, i, &n);
  if (memchr(p, 0, n)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s must not contain NUL bytes", what);
    return NULL;
  }
  char* out = malloc(n + 1);
  if (!out) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "Out of memory");
    return NULL;
  }
  memcpy(out, p, n);
  out[n] = 0;
  return out;
}

static const char* dims_of(const TF_Tensor* t, char* buf, size_t cap) {
  return mt_dims_str(t->dims, t->ndims, buf, cap);
}

/* ValidateInputs of save_restore_v2_ops.cc. */
static int validate_inputs(mt_kernel_ctx* ctx, int is_save) {
  const TF_Tensor* prefix = ctx->inputs[0];
  const TF_Tensor* names = ctx->inputs[1];
  const TF_Tensor* specs = ctx->inputs[2];
  char b1[128], b2[128];
  if (mt_tensor_nelems(prefix) != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input prefix should have a single element, got %lld instead.",
                   (long long)mt_tensor_nelems(prefix));
    return 0;
  }
  if (names->ndims != 1 || specs->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input tensor_names and shape_and_slices should be an 1-D tensors, got %s and "
                   "%s instead.",
                   dims_of(names, b1, sizeof b1), dims_of(specs, b2, sizeof b2));
    return 0;
  }
  if (names->dims[0] != specs->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "tensor_names and shape_and_slices have different number of elements: %lld "
                   "vs. %lld",
                   (long long)names->dims[0], (long long)specs->dims[0]);
    return 0;
  }
  if (is_save && ctx->ninputs != names->dims[0] + 3) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Got %lld tensor names but %d tensors.",
                   (long long)names->dims[0], ctx->ninputs - 3);
    return 0;
  }
  return 1;
}

/* ---- SaveV2 ---- */

static int save_one(mt_kernel_ctx* ctx, mt_bundle_writer* w, int i) {
  const TF_Tensor* t = ctx->inputs[3 + i];
  char* name = tstr_dup(ctx, ctx->inputs[1], i, "tensor_names");
  if (!name) return 0;
  size_t speclen;
  tstr(ctx->inputs[2], i, &speclen);
  int ok;
  if (speclen == 0) {
    ok = mt_bundle_writer_add(w, name, t, ctx->status);
  } else {
    char* sp = tstr_dup(ctx, ctx->inputs[2], i, "shape_and_slices");
    mt_shape full, slice_shape;
    mt_tensor_slice slice;
    ok = sp && mt_parse_shape_and_slice(sp, &full, &slice, &slice_shape, ctx->status);
    if (ok) {
      mt_shape ts = mt_shape_make(t->dims, t->ndims);
      int same = ts.rank == slice_shape.rank;
      for (int d = 0; same && d < ts.rank; d++) same = ts.dims[d] == slice_shape.dims[d];
      if (!same) {
        char b[256];
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "Slice in shape_and_slice specification does not match the shape of the "
                       "tensor to  save: %s, tensor: %s",
                       sp, dims_of(t, b, sizeof b));
        ok = 0;
      }
    }
    ok = ok && mt_bundle_writer_add_slice(w, name, &full, &slice, t, ctx->status);
    free(sp);
  }
  free(name);
  return ok;
}

static void save_v2_kernel(mt_kernel_ctx* ctx) {
  if (!validate_inputs(ctx, 1)) return;
  char* prefix = tstr_dup(ctx, ctx->inputs[0], 0, "prefix");
  if (!prefix) return;
  mt_bundle_writer* w = mt_bundle_writer_new(prefix, ctx->status);
  free(prefix);
  if (!w) return;
  int64_t n = ctx->inputs[1]->dims[0];
  for (int64_t i = 0; i < n; i++) {
    if (!save_one(ctx, w, (int)i)) {
      mt_bundle_writer_abort(w);
      return;
    }
  }
  mt_bundle_writer_finish(w, ctx->status);
}

static void save_v2_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 0)) return;
  for (int i = 1; i <= 2; i++) {
    if (!mt_shape_with_rank(ctx, i, 1)) return;
    const mt_shape* s = &ctx->in[i];
    if (s->rank == 1 && s->dims[0] >= 0 && s->dims[0] != ctx->ninputs - 3) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Dimension must be %d but is %lld", ctx->ninputs - 3, (long long)s->dims[0]);
      return;
    }
  }
}

/* ---- RestoreV2 ---- */

typedef struct restore_item {
  int idx;
  char* name;
} restore_item;

static int cmp_items(const void* a, const void* b) {
  return strcmp(((const restore_item*)a)->name, ((const restore_item*)b)->name);
}

static int same_shape(const mt_shape* a, const mt_shape* b) {
  if (a->rank != b->rank) return 0;
  for (int d = 0; d < a->rank; d++)
    if (a->dims[d] != b->dims[d]) return 0;
  return 1;
}

/* Output i: the whole tensor, or the slice its spec names. */
static TF_Tensor* restore_one(mt_kernel_ctx* ctx, mt_bundle_reader* r, int i, const char* name,
                              const mt_bundle_entry* e) {
  size_t speclen;
  tstr(ctx->inputs[2], i, &speclen);
  if (speclen == 0) return mt_bundle_reader_lookup(r, name, ctx->status);
  char* sp = tstr_dup(ctx, ctx->inputs[2], i, "shape_and_slices");
  mt_shape full, slice_shape;
  mt_tensor_slice slice;
  TF_Tensor* t = NULL;
  if (sp && mt_parse_shape_and_slice(sp, &full, &slice, &slice_shape, ctx->status)) {
    if (!same_shape(&full, &e->shape)) {
      char b1[256], b2[256];
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "tensor_name = %s; shape in shape_and_slice spec %s does not match the "
                     "shape stored in checkpoint: %s",
                     name, mt_dims_str(full.dims, full.rank, b1, sizeof b1),
                     mt_dims_str(e->shape.dims, e->shape.rank, b2, sizeof b2));
    } else {
      t = mt_bundle_reader_lookup_slice(r, name, &slice, ctx->status);
    }
  }
  free(sp);
  return t;
}

/* Checks every dtype before reading anything (all mismatches in one
 * message, as TensorFlow). */
static int check_dtypes(mt_kernel_ctx* ctx, mt_bundle_reader* r, restore_item* items, int n,
                        const TF_DataType* dtypes, mt_bundle_entry* entries) {
  mt_strbuf msg = {0};
  for (int k = 0; k < n; k++) {
    if (!mt_bundle_reader_entry(r, items[k].name, &entries[items[k].idx], ctx->status)) {
      free(msg.s);
      return 0;
    }
    TF_DataType have = entries[items[k].idx].dtype;
    TF_DataType want = dtypes[items[k].idx];
    if (have != want) {
      char line[512];
      snprintf(line, sizeof line,
               "%stensor_name = %s; expected dtype %s does not equal original dtype %s",
               msg.len ? "\n" : "", items[k].name, mt_dtype_name(want), mt_dtype_name(have));
      mt_sb_str(&msg, line);
    }
  }
  if (msg.len) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s", msg.s);
    free(msg.s);
    return 0;
  }
  return 1;
}

static void restore_v2_kernel(mt_kernel_ctx* ctx) {
  const mt_attr_value* dt = mt_op_attr(ctx->op, "dtypes");
  int n = dt ? dt->list.n : 0;
  if (mt_tensor_nelems(ctx->inputs[1]) != n) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Got %lld tensor names, but %d expected dtypes.",
                   (long long)mt_tensor_nelems(ctx->inputs[1]), n);
    return;
  }
  if (!validate_inputs(ctx, 0)) return;
  char* prefix = tstr_dup(ctx, ctx->inputs[0], 0, "prefix");
  if (!prefix) return;
  mt_bundle_reader* r = mt_bundle_reader_open(prefix, ctx->status);
  if (!r) {
    /* No index: TensorFlow reads the prefix as a V1 checkpoint pattern. */
    if (TF_GetCode(ctx->status) == TF_NOT_FOUND) {
      TF_SetStatus(ctx->status, TF_OK, "");
      mt_restore_v1_tensors(ctx);
    }
    free(prefix);
    return;
  }
  free(prefix);
  restore_item* items = calloc((size_t)(n ? n : 1), sizeof(*items));
  mt_bundle_entry* entries = calloc((size_t)(n ? n : 1), sizeof(*entries));
  int ok = items && entries;
  if (!ok) mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "Out of memory");
  for (int i = 0; ok && i < n; i++) {
    items[i].idx = i;
    items[i].name = tstr_dup(ctx, ctx->inputs[1], i, "tensor_names");
    ok = items[i].name != NULL;
  }
  if (ok) {
    qsort(items, (size_t)n, sizeof(*items), cmp_items); /* TensorFlow reads in name order */
    ok = check_dtypes(ctx, r, items, n, dt->list.type, entries);
  }
  for (int k = 0; ok && k < n; k++) {
    int i = items[k].idx;
    TF_Tensor* t = restore_one(ctx, r, i, items[k].name, &entries[i]);
    if (!t) ok = 0;
    else ctx->outputs[i] = t;
  }
  for (int i = 0; items && i < n; i++) free(items[i].name);
  for (int i = 0; entries && i < n; i++) mt_bundle_entry_clear(&entries[i]);
  free(items);
  free(entries);
  mt_bundle_reader_free(r);
}

static void restore_v2_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 0) || !mt_shape_with_rank(ctx, 1, 1) ||
      !mt_shape_with_rank(ctx, 2, 1))
    return;
  const mt_shape* a = &ctx->in[1];
  const mt_shape* b = &ctx->in[2];
  if (a->rank == 1 && b->rank == 1 && a->dims[0] >= 0 && b->dims[0] >= 0 &&
      a->dims[0] != b->dims[0]) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Dimension 0 in both shapes must be equal, but are %lld and %lld. Shapes are "
                   "[%lld] and [%lld].",
                   (long long)a->dims[0], (long long)b->dims[0], (long long)a->dims[0],
                   (long long)b->dims[0]);
    return;
  }
  const TF_Tensor* specs = ctx->in_values ? ctx->in_values[2] : NULL;
  if (!specs || specs->dtype != TF_STRING) return;
  if (mt_tensor_nelems(specs) != ctx->noutputs) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "The number of shape_and_slice doesn't match tensor outputs.");
    return;
  }
  for (int i = 0; i < ctx->noutputs; i++) {
    size_t n;
    const char* p = tstr(specs, i, &n);
    if (n == 0 || memchr(p, 0, n)) continue;
    char* sp = strndup(p, n);
    mt_shape full, slice_shape;
    mt_tensor_slice slice;
    if (sp && mt_parse_shape_and_slice(sp, &full, &slice, &slice_shape, ctx->status))
      ctx->out[i] = slice_shape;
    free(sp);
    if (!mt_ok(ctx->status)) return;
  }
}

/* ---- MergeV2Checkpoints ---- */

static char* dirname_dup(const char* path) {
  const char* slash = strrchr(path, '/');
  if (!slash) return strdup("");
  if (slash == path) return strdup("/");
  return strndup(path, (size_t)(slash - path));
}

static void merge_v2_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* prefixes = ctx->inputs[0];
  const TF_Tensor* dest = ctx->inputs[1];
  char b[128];
  if (prefixes->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input checkpoint_prefixes should be an 1-D tensor, got %s instead.",
                   dims_of(prefixes, b, sizeof b));
    return;
  }
  if (dest->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input destination_prefix should be a scalar tensor, got %s instead.",
                   dims_of(dest, b, sizeof b));
    return;
  }
  int n = (int)prefixes->dims[0];
  char** in = calloc((size_t)(n ? n : 1), sizeof(char*));
  char* merged = tstr_dup(ctx, dest, 0, "destination_prefix");
  int ok = in && merged;
  for (int i = 0; ok && i < n; i++) ok = (in[i] = tstr_dup(ctx, prefixes, i, "checkpoint_prefixes")) != NULL;
  if (ok)
    ok = mt_bundle_merge((const char* const*)in, n, merged,
                         mt_op_attr_bool(ctx->op, "allow_missing_files", 0), ctx->status);
  if (ok && mt_op_attr_bool(ctx->op, "delete_old_dirs", 1)) {
    /* Best effort: the inputs' (temporary) directories, when empty. */
    char* mdir = dirname_dup(merged);
    for (int i = 0; mdir && i < n; i++) {
      char* d = dirname_dup(in[i]);
      if (d && d[0] && strcmp(d, mdir) != 0) rmdir(d);
      free(d);
    }
    free(mdir);
  }
  for (int i = 0; in && i < n; i++) free(in[i]);
  free(in);
  free(merged);
}

static void merge_v2_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 1)) return;
  mt_shape_with_rank(ctx, 1, 0);
}

/* ---- ShardedFilename / ShardedFilespec ---- */

static int scalar_input(mt_kernel_ctx* ctx, int idx, const char* what) {
  if (ctx->inputs[idx]->ndims == 0) return 1;
  char b[128];
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input %s should be a scalar, got %s instead.",
                 what, dims_of(ctx->inputs[idx], b, sizeof b));
  return 0;
}

static void set_string_output(mt_kernel_ctx* ctx, const char* s) {
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_STRING, NULL, 0);
  if (out) TF_StringCopy((TF_TString*)mt_tensor_data(out), s, strlen(s));
}

static void sharded_filename_kernel(mt_kernel_ctx* ctx) {
  if (!scalar_input(ctx, 0, "basename") || !scalar_input(ctx, 1, "shard") ||
      !scalar_input(ctx, 2, "num_shards"))
    return;
  size_t n;
  const char* base = tstr(ctx->inputs[0], 0, &n);
  int32_t shard = *(const int32_t*)mt_tensor_data(ctx->inputs[1]);
  int32_t num = *(const int32_t*)mt_tensor_data(ctx->inputs[2]);
  char* s = NULL;
  if (asprintf(&s, "%.*s-%05d-of-%05d", (int)n, base, shard, num) < 0) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "Out of memory");
    return;
  }
  set_string_output(ctx, s);
  free(s);
}

static void sharded_filespec_kernel(mt_kernel_ctx* ctx) {
  if (!scalar_input(ctx, 0, "basename") || !scalar_input(ctx, 1, "num_shards")) return;
  size_t n;
  const char* base = tstr(ctx->inputs[0], 0, &n);
  int32_t num = *(const int32_t*)mt_tensor_data(ctx->inputs[1]);
  char* s = NULL;
  if (asprintf(&s, "%.*s-?\?\?\?\?-of-%05d", (int)n, base, num) < 0) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "Out of memory");
    return;
  }
  set_string_output(ctx, s);
  free(s);
}

/* ---- ReadFile / WriteFile / MatchingFiles ---- */

/* TensorFlow's file system error for errno on `path`: "<path>; <strerror>". */
static void file_error(mt_kernel_ctx* ctx, const char* path, int err) {
  mt_status_setf(ctx->status, mt_errno_code(err), "%s; %s", path, strerror(err));
}

/* ReadFile's and WriteFile's words for a non-scalar input. */
static int scalar_file_input(mt_kernel_ctx* ctx, int idx, const char* what) {
  if (ctx->inputs[idx]->ndims == 0) return 1;
  char b[128];
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s tensor must be scalar, but had shape: %s",
                 what, dims_of(ctx->inputs[idx], b, sizeof b));
  return 0;
}

static void read_file_kernel(mt_kernel_ctx* ctx) {
  if (!scalar_file_input(ctx, 0, "Input filename")) return;
  char* path = tstr_dup(ctx, ctx->inputs[0], 0, "filename");
  if (!path) return;
  FILE* f = fopen(path, "rb");
  struct stat st;
  if (!f || fstat(fileno(f), &st) != 0) {
    file_error(ctx, path, errno);
  } else if (S_ISDIR(st.st_mode)) {
    file_error(ctx, path, EISDIR);
  } else {
    char* buf = malloc(st.st_size > 0 ? (size_t)st.st_size : 1);
    size_t got = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
    if (!buf) {
      mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "Out of memory");
    } else if (got != (size_t)st.st_size) {
      mt_status_setf(ctx->status, TF_DATA_LOSS, "%s; File shorter than expected", path);
    } else {
      TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_STRING, NULL, 0);
      if (out) TF_StringCopy((TF_TString*)mt_tensor_data(out), buf, got);
    }
    free(buf);
  }
  if (f) fclose(f);
  free(path);
}

/* mkdir -p of the directory part of `path` (TensorFlow's WriteFile creates
 * it); 0 + status on failure. */
static int make_parent_dirs(mt_kernel_ctx* ctx, const char* path) {
  char* dir = strdup(path);
  if (!dir) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "Out of memory");
    return 0;
  }
  char* slash = strrchr(dir, '/');
  int ok = 1;
  if (slash && slash != dir) {
    *slash = 0;
    for (char* p = dir + 1; ok; p++) {
      const char c = *p;
      if (c != '/' && c != 0) continue;
      *p = 0;
      struct stat st;
      if (stat(dir, &st) != 0 && mkdir(dir, 0755) != 0 && errno != EEXIST) {
        file_error(ctx, dir, errno);
        ok = 0;
      }
      *p = c;
      if (!c) break;
    }
  }
  free(dir);
  return ok;
}

static void write_file_kernel(mt_kernel_ctx* ctx) {
  if (!scalar_file_input(ctx, 0, "Input filename") || !scalar_file_input(ctx, 1, "Contents"))
    return;
  char* path = tstr_dup(ctx, ctx->inputs[0], 0, "filename");
  if (!path) return;
  if (make_parent_dirs(ctx, path)) {
    size_t n;
    const char* data = tstr(ctx->inputs[1], 0, &n);
    FILE* f = fopen(path, "wb");
    if (!f) {
      file_error(ctx, path, errno);
    } else {
      const int ok = fwrite(data, 1, n, f) == n;
      const int err = errno;
      if (fclose(f) != 0 || !ok) file_error(ctx, path, ok ? errno : err);
    }
  }
  free(path);
}

static int cmp_cstr(const void* a, const void* b) {
  return strcmp(*(char* const*)a, *(char* const*)b);
}

/* The files matching each pattern (glob(3): '*', '?', '[...]' within one
 * path component, as TensorFlow's GetMatchingPaths), all patterns' matches
 * together, sorted as TensorFlow sorts them. No match is not an error. */
static void matching_files_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* pat = ctx->inputs[0];
  if (pat->ndims > 1) {
    char b[128];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input patterns tensor must be scalar or vector, but had shape: %s",
                   dims_of(pat, b, sizeof b));
    return;
  }
  glob_t g;
  memset(&g, 0, sizeof g);
  int started = 0;
  for (int64_t i = 0; i < mt_tensor_nelems(pat); i++) {
    char* p = tstr_dup(ctx, pat, i, "pattern");
    if (!p) {
      if (started) globfree(&g);
      return;
    }
    const int rc = glob(p, started ? GLOB_APPEND : 0, NULL, &g);
    free(p);
    if (rc == GLOB_NOSPACE) {
      mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "Out of memory");
      if (started) globfree(&g);
      return;
    }
    started = 1;
  }
  const int64_t n = started ? (int64_t)g.gl_pathc : 0;
  if (n > 1) qsort(g.gl_pathv, (size_t)n, sizeof(char*), cmp_cstr);
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_STRING, &n, 1);
  for (int64_t i = 0; out && i < n; i++)
    TF_StringCopy((TF_TString*)mt_tensor_data(out) + i, g.gl_pathv[i], strlen(g.gl_pathv[i]));
  if (started) globfree(&g);
}

static void read_file_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 0)) return;
  ctx->out[0] = mt_shape_scalar();
}

static void write_file_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 0)) return;
  mt_shape_with_rank(ctx, 1, 0);
}

static void matching_files_shape(mt_shape_ctx* ctx) {
  if (ctx->in[0].rank > 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be at most rank 1 but is rank %d",
                   ctx->in[0].rank);
    return;
  }
  const int64_t unknown = -1;
  ctx->out[0] = mt_shape_make(&unknown, 1);
}

static void scalar_shape(mt_shape_ctx* ctx) { ctx->out[0] = mt_shape_scalar(); }

static const mt_op_spec io_ops[] = {
    {.name = "SaveV2",
     .inputs = "prefix: string, tensor_names: string, shape_and_slices: string, tensors: dtypes",
     .attrs = "dtypes: list(type) >= 1",
     .shape = save_v2_shape,
     .kernel = save_v2_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "RestoreV2",
     .inputs = "prefix: string, tensor_names: string, shape_and_slices: string",
     .outputs = "tensors: dtypes",
     .attrs = "dtypes: list(type) >= 1",
     .shape = restore_v2_shape,
     .kernel = restore_v2_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "MergeV2Checkpoints",
     .inputs = "checkpoint_prefixes: string, destination_prefix: string",
     .attrs = "delete_old_dirs: bool = true; allow_missing_files: bool = false",
     .shape = merge_v2_shape,
     .kernel = merge_v2_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "ShardedFilename",
     .inputs = "basename: string, shard: int32, num_shards: int32",
     .outputs = "filename: string",
     .shape = scalar_shape,
     .kernel = sharded_filename_kernel},
    {.name = "ShardedFilespec",
     .inputs = "basename: string, num_shards: int32",
     .outputs = "filename: string",
     .shape = scalar_shape,
     .kernel = sharded_filespec_kernel},
    {.name = "ReadFile",
     .inputs = "filename: string",
     .outputs = "contents: string",
     .shape = read_file_shape,
     .kernel = read_file_kernel},
    {.name = "WriteFile",
     .inputs = "filename: string, contents: string",
     .shape = write_file_shape,
     .kernel = write_file_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "MatchingFiles",
     .inputs = "pattern: string",
     .outputs = "filenames: string",
     .shape = matching_files_shape,
     .kernel = matching_files_kernel},
};

void mt_register_io_ops(void) { mt_register_ops(io_ops, (int)(sizeof io_ops / sizeof io_ops[0])); }
