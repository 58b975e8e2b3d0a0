/* Array ops: constants, placeholders, identities, shapes, reshaping,
 * concatenation and splitting, tiling and broadcasting, transposition,
 * reversal, ranges, fills, numeric checks, assertions, Unique, ListDiff, and the
 * InvertPermutation/ConcatOffset helpers of the Transpose/ConcatV2 gradients.
 * Signatures, shape functions and error messages are TensorFlow's
 * (array_ops.cc and the CPU kernels). Most of these ops only move elements:
 * kernels work on element size (strings through TF_TString copies), so
 * every dtype TensorFlow registers works without a per-type loop. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/list_ops.h"
#include "runtime/kernels/half.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/summarize.h"

/* ======================================================================
 * Moving elements of any dtype
 * ====================================================================== */

/* Copies n elements; string elements of dst (a fresh tensor's, so empty)
 * get deep copies. */
static void copy_elems(TF_DataType dt, void* dst, const void* src, int64_t n) {
  if (n <= 0) return;
  if (dt == TF_STRING) {
    TF_TString* d = dst;
    const TF_TString* s = src;
    for (int64_t i = 0; i < n; i++)
      TF_StringCopy(&d[i], TF_StringGetDataPointer(&s[i]), TF_StringGetSize(&s[i]));
    return;
  }
  memcpy(dst, src, (size_t)n * TF_DataTypeSize(dt));
}

/* Fills n elements of dst with copies of the element at `value`. */
static void fill_elems(TF_DataType dt, void* dst, const void* value, int64_t n) {
  const size_t es = TF_DataTypeSize(dt);
  if (n <= 0) return;
  if (dt == TF_STRING) {
    const TF_TString* v = value;
    for (int64_t i = 0; i < n; i++)
      TF_StringCopy((TF_TString*)dst + i, TF_StringGetDataPointer(v), TF_StringGetSize(v));
    return;
  }
  /* Doubling memcpy: log(n) calls whatever the element size. */
  memcpy(dst, value, es);
  int64_t done = 1;
  while (done < n) {
    const int64_t k = done < n - done ? done : n - done;
    memcpy((char*)dst + done * es, dst, (size_t)k * es);
    done += k;
  }
}

/* A strided gather: the output, contiguous in row-major order, takes
 * element in[base + sum(idx[d] * str[d])]. Transpose, Tile, BroadcastTo
 * and ReverseV2 are all this with different strides (0 = broadcast,
 * negative = reversed). Tile needs two dims per input dim, hence 2x. */
#define GATHER_MAX_DIMS (2 * MT_MAX_DIMS)

typedef struct gather_plan {
  TF_DataType dt;
  size_t es;
  int nd; /* collapsed, >= 1 */
  int64_t dims[GATHER_MAX_DIMS];
  int64_t str[GATHER_MAX_DIMS];
  int64_t base, n, inner, rows;
  const char* in;
  char* out;
} gather_plan;

/* Drops size-1 dims and merges neighbours that are also neighbours in the
 * input, so a transpose of NHWC->NCHW becomes a 3-D [N, C, HW] gather and
 * a plain copy a single memcpy. */
static void gather_init(gather_plan* p, TF_DataType dt, const void* in, void* out, int nd,
                        const int64_t* dims, const int64_t* str, int64_t base) {
  p->dt = dt;
  p->es = TF_DataTypeSize(dt);
  p->in = in;
  p->out = out;
  p->base = base;
  p->nd = 0;
  p->n = 1;
  for (int d = 0; d < nd; d++) {
    p->n *= dims[d];
    if (dims[d] == 1) continue;
    const int k = p->nd;
    if (k > 0 && p->str[k - 1] == str[d] * dims[d]) {
      p->dims[k - 1] *= dims[d];
      p->str[k - 1] = str[d];
    } else {
      p->dims[k] = dims[d];
      p->str[k] = str[d];
      p->nd++;
    }
  }
  if (p->nd == 0) {
    p->nd = 1;
    p->dims[0] = 1;
    p->str[0] = 1;
  }
  p->inner = p->dims[p->nd - 1];
  p->rows = p->n > 0 ? p->n / p->inner : 0;
}

#define GATHER_ROW(T)                                                   \
  {                                                                     \
    const T* x = (const T*)src;                                         \
    T* y = (T*)dst;                                                     \
    if (s == 0) {                                                       \
      const T v = x[0];                                                 \
      for (int64_t i = 0; i < n; i++) y[i] = v;                         \
    } else {                                                            \
      for (int64_t i = 0; i < n; i++) y[i] = x[i * s];                  \
    }                                                                   \
  }                                                                     \
  break;

typedef struct mt_elem16 {
  uint64_t lo, hi;
} mt_elem16;

/* One output row of n elements from input element `off`, input stride s. */
static void gather_row(const gather_plan* p, char* dst, int64_t off, int64_t s, int64_t n) {
  if (p->dt == TF_STRING) {
    const TF_TString* x = (const TF_TString*)p->in + off;
    TF_TString* y = (TF_TString*)dst;
    for (int64_t i = 0; i < n; i++)
      TF_StringCopy(&y[i], TF_StringGetDataPointer(&x[i * s]), TF_StringGetSize(&x[i * s]));
    return;
  }
  const char* src = p->in + off * (int64_t)p->es;
  if (s == 1) {
    memcpy(dst, src, (size_t)n * p->es);
    return;
  }
  switch (p->es) {
    case 1: GATHER_ROW(uint8_t)
    case 2: GATHER_ROW(uint16_t)
    case 4: GATHER_ROW(uint32_t)
    case 8: GATHER_ROW(uint64_t)
    case 16: GATHER_ROW(mt_elem16)
    default:
      for (int64_t i = 0; i < n; i++) memcpy(dst + i * p->es, src + i * s * p->es, p->es);
  }
}

/* Input offset of the start of output row `row` (rows over dims[0..nd-2]),
 * filling idx with its indices. */
static int64_t gather_seek(const gather_plan* p, int64_t row, int64_t* idx) {
  int64_t off = p->base;
  for (int d = p->nd - 2; d >= 0; d--) {
    idx[d] = row % p->dims[d];
    row /= p->dims[d];
    off += idx[d] * p->str[d];
  }
  return off;
}

static int64_t gather_next(const gather_plan* p, int64_t* idx, int64_t off) {
  for (int d = p->nd - 2; d >= 0; d--) {
    off += p->str[d];
    if (++idx[d] < p->dims[d]) break;
    off -= p->str[d] * p->dims[d];
    idx[d] = 0;
  }
  return off;
}

static void gather_rows(int64_t begin, int64_t end, void* arg) {
  const gather_plan* p = arg;
  int64_t idx[GATHER_MAX_DIMS];
  int64_t off = gather_seek(p, begin, idx);
  const int64_t s = p->str[p->nd - 1];
  for (int64_t row = begin; row < end; row++) {
    gather_row(p, p->out + row * p->inner * (int64_t)p->es, off, s, p->inner);
    off = gather_next(p, idx, off);
  }
}

/* The transpose fast path: the last two collapsed output dims [R, C] read
 * the input with strides (1, sc), a 2-D transpose per outer "plane".
 * Blocks of TILE x TILE keep both the reads and the writes in cache. */
#define TILE 32

#define TRANSPOSE_BLOCK(T)                                                       \
  {                                                                              \
    const T* x = (const T*)p->in + off;                                          \
    T* y = (T*)p->out + plane * R * C;                                           \
    for (int64_t c0 = 0; c0 < C; c0 += TILE) {                                   \
      const int64_t c1 = c0 + TILE < C ? c0 + TILE : C;                          \
      for (int64_t r = r0; r < r1; r++)                                          \
        for (int64_t c = c0; c < c1; c++) y[r * C + c] = x[r + c * sc];          \
    }                                                                            \
  }                                                                              \
  break;

static void transpose_blocks(int64_t begin, int64_t end, void* arg) {
  const gather_plan* p = arg;
  const int64_t R = p->dims[p->nd - 2], C = p->dims[p->nd - 1], sc = p->str[p->nd - 1];
  const int64_t rblocks = (R + TILE - 1) / TILE;
  for (int64_t u = begin; u < end; u++) {
    const int64_t plane = u / rblocks, r0 = (u % rblocks) * TILE;
    const int64_t r1 = r0 + TILE < R ? r0 + TILE : R;
    int64_t idx[GATHER_MAX_DIMS], off = p->base, rest = plane;
    for (int d = p->nd - 3; d >= 0; d--) {
      idx[d] = rest % p->dims[d];
      rest /= p->dims[d];
      off += idx[d] * p->str[d];
    }
    switch (p->es) {
      case 1: TRANSPOSE_BLOCK(uint8_t)
      case 2: TRANSPOSE_BLOCK(uint16_t)
      case 4: TRANSPOSE_BLOCK(uint32_t)
      case 8: TRANSPOSE_BLOCK(uint64_t)
      case 16: TRANSPOSE_BLOCK(mt_elem16)
      default: break;
    }
  }
}

/* Runs a gather into out (a fresh tensor of p->n elements). */
static void gather_run(mt_kernel_ctx* ctx, gather_plan* p) {
  if (p->n == 0) return;
  const int nd = p->nd;
  if (nd >= 2 && p->dt != TF_STRING && p->str[nd - 2] == 1 && p->str[nd - 1] != 1 &&
      p->dims[nd - 1] >= 4 && (p->es & (p->es - 1)) == 0 && p->es <= 16) {
    const int64_t R = p->dims[nd - 2], C = p->dims[nd - 1];
    const int64_t units = p->n / (R * C) * ((R + TILE - 1) / TILE);
    mt_parallel_for(ctx, units, TILE * C, transpose_blocks, p);
    return;
  }
  mt_parallel_for(ctx, p->rows, p->inner + 8, gather_rows, p);
}

/* Row-major element strides of a shape. */
static void row_major_strides(const int64_t* dims, int nd, int64_t* str) {
  int64_t s = 1;
  for (int d = nd - 1; d >= 0; d--) {
    str[d] = s;
    s *= dims[d];
  }
}

/* Concatenation as a 2-D problem: `outer` rows, each made of part k's
 * chunk[k] elements in turn. split = 1 runs it backwards (Split, Unpack). */
typedef struct concat_plan {
  TF_DataType dt;
  size_t es;
  int n;
  char** parts;
  const int64_t* chunk;
  int64_t row; /* sum of chunks */
  char* whole;
  int split;
} concat_plan;

static void concat_rows(int64_t begin, int64_t end, void* arg) {
  const concat_plan* p = arg;
  for (int64_t o = begin; o < end; o++) {
    int64_t at = o * p->row;
    for (int k = 0; k < p->n; k++) {
      char* part = p->parts[k] + o * p->chunk[k] * (int64_t)p->es;
      char* w = p->whole + at * (int64_t)p->es;
      if (p->split) copy_elems(p->dt, part, w, p->chunk[k]);
      else copy_elems(p->dt, w, part, p->chunk[k]);
      at += p->chunk[k];
    }
  }
}

static void concat_run(mt_kernel_ctx* ctx, concat_plan* p, int64_t outer) {
  if (outer <= 0 || p->row <= 0) return;
  mt_parallel_for(ctx, outer, p->row + 8, concat_rows, p);
}

/* ======================================================================
 * Shape-function helpers (TensorFlow's InferenceContext behaviour)
 * ====================================================================== */

static void unknown_of_rank(mt_shape* s, int rank) {
  s->rank = rank;
  for (int d = 0; d < rank; d++) s->dims[d] = -1;
}

/* TensorFlow's shape Merge, with its message naming both shapes. */
static int merge_shapes(mt_shape_ctx* ctx, const mt_shape* a, const mt_shape* b, mt_shape* out) {
  if (a->rank < 0 || b->rank < 0) {
    *out = a->rank < 0 ? *b : *a;
    return 1;
  }
  if (a->rank != b->rank) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Shapes must be equal rank, but are %d and %d", a->rank, b->rank);
    return 0;
  }
  mt_shape m;
  m.rank = a->rank;
  for (int d = 0; d < a->rank; d++) {
    const int64_t x = a->dims[d], y = b->dims[d];
    if (x >= 0 && y >= 0 && x != y) {
      char as[256], bs[256];
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Dimension %d in both shapes must be equal, but are %lld and %lld. Shapes "
                     "are %s and %s.",
                     d, (long long)x, (long long)y, mt_shape_str(a, as, sizeof as),
                     mt_shape_str(b, bs, sizeof bs));
      return 0;
    }
    m.dims[d] = x >= 0 ? x : y;
  }
  *out = m;
  return 1;
}

/* "Dimension must be 3 but is 2" (InferenceContext::WithValue). */
static int dim_with_value(mt_shape_ctx* ctx, int64_t dim, int64_t value) {
  if (dim < 0 || dim == value) return 1;
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension must be %lld but is %lld",
                 (long long)value, (long long)dim);
  return 0;
}

/* InferenceContext::MakeShapeFromShapeTensor: the shape that 1-D shape
 * tensor input idx describes, as far as known (-1 = unknown dim). */
static int shape_from_shape_tensor(mt_shape_ctx* ctx, int idx, mt_shape* out) {
  if (!mt_shape_with_rank(ctx, idx, 1)) return 0;
  const TF_Tensor* v = ctx->in_values ? ctx->in_values[idx] : NULL;
  if (v) {
    if (v->dtype != TF_INT32 && v->dtype != TF_INT64) {
      char a[32];
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Input tensor must be int32 or int64, but was %s",
                     mt_dtype_name(v->dtype) ? mt_dt_enum_name(v->dtype, a, sizeof a) + 3 : "?");
      return 0;
    }
    int64_t vals[MT_MAX_DIMS];
    const int64_t n = mt_tensor_nelems(v);
    if (n > MT_MAX_DIMS) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape of %lld dims exceeds %d dims",
                     (long long)n, MT_MAX_DIMS);
      return 0;
    }
    mt_tensor_ints(v, vals, MT_MAX_DIMS);
    out->rank = (int)n;
    for (int64_t d = 0; d < n; d++) {
      if (vals[d] < -1) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "Invalid value in tensor used for shape: %lld", (long long)vals[d]);
        return 0;
      }
      out->dims[d] = vals[d];
    }
    return 1;
  }
  /* Shape(x), Pack of dims and constants, ConcatV2 of those (the graph
   * reads the expression, as TensorFlow's input_tensors_as_shapes). */
  mt_shape s;
  if (mt_shape_input_as_shape(ctx, idx, &s) && s.rank >= 0) {
    *out = s;
    return 1;
  }
  const mt_shape* st = &ctx->in[idx];
  if (st->rank == 1 && st->dims[0] >= 0 && st->dims[0] <= MT_MAX_DIMS) {
    unknown_of_rank(out, (int)st->dims[0]);
  } else {
    *out = mt_shape_unknown();
  }
  return 1;
}

/* A scalar integer input's value: 1 if known (into *v), 0 if not. */
static int scalar_input(const mt_shape_ctx* ctx, int idx, int64_t* v) {
  int64_t buf[1];
  if (mt_shape_input_as_ints(ctx, idx, buf, 1) != 1) return 0;
  *v = buf[0];
  return 1;
}

/* InferenceContext::MakeDimForScalarInputWithNegativeIndexing: the axis in
 * input idx, wrapped by `rank`; -1 when unknown. 0 + status when out of
 * range. */
static int axis_dim(mt_shape_ctx* ctx, int idx, int rank, int64_t* out) {
  int64_t v;
  *out = -1;
  if (!scalar_input(ctx, idx, &v)) return 1;
  if (v < 0) {
    if (rank < 0) return 1;
    if (v + rank < 0) goto bad;
    v += rank;
  } else if (rank > 0 && v >= rank) {
    goto bad;
  }
  *out = v;
  return 1;
bad:
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                 "Dimension size, given by scalar input %lld must be in range [-%d, %d)",
                 (long long)v, rank, rank);
  return 0;
}

/* InferenceContext::Multiply for dims (-1 unknown). */
static int multiply_dims(mt_shape_ctx* ctx, int64_t a, int64_t b, int64_t* out) {
  if (a == 0 || b == 0) *out = 0;
  else if (a == 1) *out = b;
  else if (b == 1) *out = a;
  else if (a < 0 || b < 0) *out = -1;
  else if (a > INT64_MAX / b) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Negative dimension size caused by overflow when multiplying %lld and %lld",
                   (long long)a, (long long)b);
    return 0;
  } else *out = a * b;
  return 1;
}

/* ======================================================================
 * Kernel-side helpers
 * ====================================================================== */

/* A shape from a 1-D int32/int64 tensor, TensorShapeUtils::MakeShape's
 * checks ("Dimension -1 must be >= 0"). */
static int kernel_shape_from_tensor(mt_kernel_ctx* ctx, const TF_Tensor* t, const char* what,
                                    int64_t* dims, int* nd) {
  char buf[256];
  if (t->ndims > 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s must be a vector, got shape %s", what,
                   mt_dims_str(t->dims, t->ndims, buf, sizeof buf));
    return 0;
  }
  const int64_t n = mt_tensor_nelems(t);
  if (n > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Too many dimensions in %s: %lld > %d", what,
                   (long long)n, MT_MAX_DIMS);
    return 0;
  }
  mt_tensor_ints(t, dims, MT_MAX_DIMS);
  for (int64_t d = 0; d < n; d++) {
    if (dims[d] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                     (long long)dims[d]);
      return 0;
    }
  }
  *nd = (int)n;
  return 1;
}

/* First value of an int32/int64 tensor. */
static int64_t first_int(const TF_Tensor* t) {
  int64_t v = 0;
  mt_tensor_ints(t, &v, 1);
  return v;
}

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
    } else if (!multiply_dims(ctx, *known, s->dims[d], known)) {
      return 0;
    }
  }
  return 1;
}

/* TensorFlow's SetOutputShapeForReshape: the requested shape (partially
 * known through shape_from_shape_tensor), with one unknown dim inferred
 * from the input's element count where both sides allow it. */
static void reshape_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[0];
  mt_shape out;
  if (!shape_from_shape_tensor(ctx, 1, &out)) return;
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
  if (!dt || in->rank < 0 || !scalar_input(ctx, 1, &dim)) {
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
  int64_t dim = first_int(dt);
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
 * Transpose
 * ====================================================================== */

static void transpose_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[0];
  const mt_shape* ps = &ctx->in[1];
  int64_t perm[MT_MAX_DIMS];
  const int np = mt_shape_input_as_ints(ctx, 1, perm, MT_MAX_DIMS);
  const int64_t perm_elems = ps->rank == 1 ? ps->dims[0] : ps->rank == 0 ? 1 : -1;
  if (in->rank < 0 && perm_elems < 0 && np < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  const int64_t rank = in->rank >= 0 ? in->rank : perm_elems >= 0 ? perm_elems : np;
  if (in->rank < 0 && rank < 2) {
    ctx->out[0] = *in; /* a 1-element perm is a scalar's or a vector's */
    return;
  }
  if (rank > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Transpose of rank %lld exceeds %d dims",
                   (long long)rank, MT_MAX_DIMS);
    return;
  }
  if (!mt_shape_with_rank(ctx, 0, (int)rank) || !mt_shape_with_rank(ctx, 1, 1)) return;
  if (!dim_with_value(ctx, perm_elems, rank)) return;
  mt_shape* out = &ctx->out[0];
  out->rank = (int)rank;
  for (int i = 0; i < rank; i++) {
    if (np < 0) {
      out->dims[i] = -1;
      continue;
    }
    const int64_t p = perm[i];
    if (p >= rank || p < -rank) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "perm dim %lld is out of range of input rank %lld", (long long)p,
                     (long long)rank);
      return;
    }
    out->dims[i] = in->rank < 0 ? -1 : in->dims[p < 0 ? p + rank : p];
  }
}

static void transpose_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_Tensor* pt = ctx->inputs[1];
  char buf[256];
  if (pt->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "perm must be rank 1, got shape %s",
                   mt_dims_str(pt->dims, pt->ndims, buf, sizeof buf));
    return;
  }
  const int nd = in->ndims;
  if (pt->dims[0] != nd) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "transpose expects a vector of size %d. But input(1) is a vector of size %lld",
                   nd, (long long)pt->dims[0]);
    return;
  }
  int64_t perm[MT_MAX_DIMS], raw[MT_MAX_DIMS];
  mt_tensor_ints(pt, raw, MT_MAX_DIMS);
  unsigned char seen[MT_MAX_DIMS] = {0};
  for (int i = 0; i < nd; i++) {
    int64_t d = raw[i] < 0 ? raw[i] + nd : raw[i];
    if (d < 0 || d >= nd) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%lld is out of range [0 .. %d)",
                     (long long)d, nd);
      return;
    }
    seen[d] = 1;
    perm[i] = d;
  }
  for (int i = 0; i < nd; i++) {
    if (!seen[i]) {
      size_t len = 0;
      buf[0] = '\0';
      for (int k = 0; k < nd && len + 24 < sizeof buf; k++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%lld", k ? "," : "",
                                (long long)raw[k]);
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%d is missing from {%s}.", i, buf);
      return;
    }
  }
  int identity = 1;
  for (int i = 0; i < nd; i++) identity &= perm[i] == i;
  if (identity) {
    mt_ctx_set_shared(ctx, 0, in);
    return;
  }
  int64_t str[MT_MAX_DIMS], ostr[MT_MAX_DIMS], odims[MT_MAX_DIMS];
  row_major_strides(in->dims, nd, str);
  for (int i = 0; i < nd; i++) {
    odims[i] = in->dims[perm[i]];
    ostr[i] = str[perm[i]];
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, odims, nd);
  if (!out) return;
  gather_plan p;
  gather_init(&p, in->dtype, mt_tensor_data(in), mt_tensor_data(out), nd, odims, ostr, 0);
  gather_run(ctx, &p);
}

/* ======================================================================
 * InvertPermutation, ConcatOffset (helpers of the Transpose and ConcatV2
 * gradients)
 * ====================================================================== */

static void invert_permutation_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 1)) return;
  ctx->out[0] = ctx->in[0];
}

static void invert_permutation_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  if (in->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "invert_permutation expects a 1D vector.");
    return;
  }
  const int64_t n = in->dims[0];
  if (n > INT32_MAX) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "permutation of nonnegative int32s must have <= int32 max elements");
    return;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, in->dims, 1);
  if (!out) return;
  const int wide = in->dtype == TF_INT64;
  const void* src = mt_tensor_data(in);
  void* dst = mt_tensor_data(out);
  for (int64_t i = 0; i < n; i++) {
    if (wide) ((int64_t*)dst)[i] = -1;
    else ((int32_t*)dst)[i] = -1;
  }
  for (int64_t i = 0; i < n; i++) {
    const int64_t d = wide ? ((const int64_t*)src)[i] : ((const int32_t*)src)[i];
    if (d < 0 || d >= n) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%lld is not between 0 and %lld",
                     (long long)d, (long long)n);
      return;
    }
    const int64_t seen = wide ? ((int64_t*)dst)[d] : ((int32_t*)dst)[d];
    if (seen != -1) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%lld is duplicated in the input.",
                     (long long)d);
      return;
    }
    if (wide) ((int64_t*)dst)[d] = i;
    else ((int32_t*)dst)[d] = (int32_t)i;
  }
}

/* A shape vector as TensorFlow prints tensor values: "[3 5]". */
static const char* np_shape_str(const int64_t* v, int n, char* buf, size_t cap) {
  size_t at = 0;
  at += (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < n && at < cap; i++)
    at += (size_t)snprintf(buf + at, cap - at, i ? " %lld" : "%lld", (long long)v[i]);
  if (at < cap) snprintf(buf + at, cap - at, "]");
  return buf;
}

/* Output i is input i + 1's shape (TensorFlow's ConcatOffset shape fn). */
static void concat_offset_shape(mt_shape_ctx* ctx) {
  for (int i = 1; i < ctx->ninputs; i++) ctx->out[i - 1] = ctx->in[i];
}

/* Offsets of each input of a concatenation along concat_dim: the running
 * sum of the sizes before it in that dim, 0 in the others. */
static void concat_offset_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* cd = ctx->inputs[0];
  char buf[256];
  if (cd->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Concat dim tensor should be a scalar integer, but got shape %s",
                   mt_dims_str(cd->dims, cd->ndims, buf, sizeof buf));
    return;
  }
  for (int i = 1; i < ctx->ninputs; i++) {
    const TF_Tensor* s = ctx->inputs[i];
    if (s->ndims != 1) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "input %d should be a vector, but got shape %s",
                     i, mt_dims_str(s->dims, s->ndims, buf, sizeof buf));
      return;
    }
  }
  const int n = ctx->ninputs - 1;
  const int64_t dims = ctx->inputs[1]->dims[0];
  const int64_t given = *(const int32_t*)mt_tensor_data(cd);
  const int64_t cdim = given < 0 ? given + dims : given;
  if (cdim < 0 || cdim >= dims) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Concat dim is out of range: %lld vs. %lld",
                   (long long)given, (long long)dims);
    return;
  }
  int64_t first[MT_MAX_DIMS], cur[MT_MAX_DIMS], off[MT_MAX_DIMS];
  if (dims > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Concat of rank %lld exceeds %d dims",
                   (long long)dims, MT_MAX_DIMS);
    return;
  }
  mt_tensor_ints(ctx->inputs[1], first, MT_MAX_DIMS);
  int64_t offset = 0;
  for (int i = 0; i < n; i++) {
    const TF_Tensor* s = ctx->inputs[1 + i];
    if (s->dims[0] != dims) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "input %d should contain %lld elements, but got %lld", i, (long long)dims,
                     (long long)s->dims[0]);
      return;
    }
    mt_tensor_ints(s, cur, MT_MAX_DIMS);
    for (int64_t j = 0; j < dims; j++) {
      if (j != cdim && cur[j] != first[j]) {
        char a[256], b[256];
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "All dimensions except %lld must match. Input %d has shape %s and doesn't "
                       "match input 0 with shape %s.",
                       (long long)cdim, i, np_shape_str(cur, (int)dims, a, sizeof a),
                       np_shape_str(first, (int)dims, b, sizeof b));
        return;
      }
      off[j] = j == cdim ? offset : 0;
    }
    offset += cur[cdim];
    TF_Tensor* out = mt_ctx_alloc(ctx, i, s->dtype, &s->dims[0], 1);
    if (!out) return;
    for (int64_t j = 0; j < dims; j++) {
      if (s->dtype == TF_INT64) ((int64_t*)mt_tensor_data(out))[j] = off[j];
      else ((int32_t*)mt_tensor_data(out))[j] = (int32_t)off[j];
    }
  }
}

/* ======================================================================
 * ConcatV2, Pack, Unpack, Split, SplitV
 * ====================================================================== */

/* Dims [from, to) of s as a shape (unknown if s's rank is unknown). */
static mt_shape subshape(const mt_shape* s, int from, int to) {
  if (s->rank < 0) return mt_shape_unknown();
  mt_shape r;
  r.rank = to - from;
  for (int d = from; d < to; d++) r.dims[d - from] = s->dims[d];
  return r;
}

/* TensorFlow's ConcatShapeHelper with the axis as the last input. */
static void concat_shape(mt_shape_ctx* ctx) {
  const int n = ctx->ninputs - 1;
  if (!mt_shape_with_rank(ctx, n, 0)) return;
  /* all inputs have the first known rank, scalars excluded */
  int rank = -1;
  for (int k = 0; k < n && rank < 0; k++) rank = ctx->in[k].rank;
  if (rank == 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Can't concatenate scalars (use tf.stack instead)");
    return;
  }
  for (int k = 0; k < n && rank >= 0; k++)
    if (!mt_shape_with_rank(ctx, k, rank)) return;
  int64_t axis;
  if (!scalar_input(ctx, n, &axis)) {
    if (rank < 0) ctx->out[0] = mt_shape_unknown();
    else unknown_of_rank(&ctx->out[0], rank);
    return;
  }
  const int64_t min_rank = axis < 0 ? -axis : axis + 1;
  if (min_rank > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Shape must be at least rank %lld but is rank %d", (long long)min_rank,
                   ctx->in[n - 1].rank);
    return;
  }
  mt_shape before = mt_shape_unknown(), after = mt_shape_unknown();
  int64_t middle = 0;
  for (int k = n - 1; k >= 0; k--) {
    const mt_shape* s = &ctx->in[k];
    if (!mt_shape_with_rank_at_least(ctx, k, (int)min_rank)) return;
    mt_shape b, a;
    int64_t m = -1;
    if (s->rank >= 0) {
      const int ax = (int)(axis < 0 ? axis + s->rank : axis);
      b = subshape(s, 0, ax);
      m = s->dims[ax];
      a = subshape(s, ax + 1, s->rank);
    } else {
      b = a = mt_shape_unknown();
    }
    if (k == n - 1) {
      before = b;
      after = a;
      middle = m;
      continue;
    }
    if (!merge_shapes(ctx, &b, &before, &before)) return;
    middle = middle < 0 || m < 0 ? -1 : middle + m;
    if (!merge_shapes(ctx, &a, &after, &after)) return;
  }
  mt_shape* out = &ctx->out[0];
  if (before.rank < 0 || after.rank < 0) {
    *out = mt_shape_unknown();
    return;
  }
  out->rank = before.rank + 1 + after.rank;
  for (int d = 0; d < before.rank; d++) out->dims[d] = before.dims[d];
  out->dims[before.rank] = middle;
  for (int d = 0; d < after.rank; d++) out->dims[before.rank + 1 + d] = after.dims[d];
}

static void concat_kernel(mt_kernel_ctx* ctx) {
  const int n = ctx->ninputs - 1;
  const TF_Tensor* at = ctx->inputs[n];
  char a[256], b[256];
  if (!(at->ndims == 0 || (at->ndims == 1 && at->dims[0] == 1))) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "axis tensor should be a scalar integer, but got shape %s",
                   mt_dims_str(at->dims, at->ndims, a, sizeof a));
    return;
  }
  const int64_t concat_dim = first_int(at);
  const TF_Tensor* first = ctx->inputs[0];
  const int nd = first->ndims;
  const int64_t axis = concat_dim < 0 ? concat_dim + nd : concat_dim;
  if (!((0 <= axis && axis < nd) || concat_dim == 0)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "ConcatOp : Expected concatenating dimensions in the range [%d, %d), but got "
                   "%lld",
                   -nd, nd, (long long)concat_dim);
    return;
  }
  int64_t outer = 1, total = 0;
  for (int d = 0; d < axis; d++) outer *= first->dims[d];
  int64_t* chunk = mt_malloc(sizeof(int64_t) * (size_t)n + 1, ctx->status);
  char** parts = mt_malloc(sizeof(char*) * (size_t)n + 1, ctx->status);
  if (!chunk || !parts) goto done;
  int64_t row = 0;
  for (int k = 0; k < n; k++) {
    const TF_Tensor* in = ctx->inputs[k];
    if (in->dtype != first->dtype) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "ConcatOp : input dtypes differ");
      goto done;
    }
    if (in->ndims != nd) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "ConcatOp : Ranks of all input tensors should match: shape[0] = %s vs. "
                     "shape[%d] = %s",
                     mt_dims_str(first->dims, nd, a, sizeof a), k,
                     mt_dims_str(in->dims, in->ndims, b, sizeof b));
      goto done;
    }
    for (int d = 0; d < nd; d++) {
      if (d != axis && in->dims[d] != first->dims[d]) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "ConcatOp : Dimension %d in both shapes must be equal: shape[0] = %s vs. "
                       "shape[%d] = %s",
                       d, mt_dims_str(first->dims, nd, a, sizeof a), k,
                       mt_dims_str(in->dims, in->ndims, b, sizeof b));
        goto done;
      }
    }
    total += nd > 0 ? in->dims[axis] : 1;
    chunk[k] = 1;
    for (int d = (int)axis; d < nd; d++) chunk[k] *= in->dims[d];
    row += chunk[k];
    parts[k] = mt_tensor_data(in);
  }
  int64_t dims[MT_MAX_DIMS];
  memcpy(dims, first->dims, sizeof(int64_t) * (size_t)nd);
  int ond = nd;
  if (nd == 0) {
    ond = 1;
    dims[0] = total;
  } else {
    dims[axis] = total;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, first->dtype, dims, ond);
  if (!out) goto done;
  concat_plan p = {first->dtype, TF_DataTypeSize(first->dtype), n, parts, chunk, row,
                   mt_tensor_data(out), 0};
  concat_run(ctx, &p, outer);
done:
  free(chunk);
  free(parts);
}

/* Axis for Pack/Unpack in [-rank, rank) (GetAxisForPackAndUnpack). */
static int pack_axis(mt_shape_ctx* ctx, int rank, int* axis) {
  int64_t a = mt_op_attr_int(ctx->op, "axis", 0);
  if (a < -rank || a >= rank) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Invalid axis: %lld; must be in [%d,%d)",
                   (long long)a, -rank, rank);
    return 0;
  }
  *axis = (int)(a < 0 ? a + rank : a);
  return 1;
}

static void pack_shape(mt_shape_ctx* ctx) {
  const int n = ctx->ninputs;
  mt_shape cur = ctx->in[n - 1];
  for (int k = n - 2; k >= 0; k--)
    if (!merge_shapes(ctx, &ctx->in[k], &cur, &cur)) return;
  if (cur.rank < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  if (cur.rank + 1 > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Pack result exceeds %d dims", MT_MAX_DIMS);
    return;
  }
  int axis;
  if (!pack_axis(ctx, cur.rank + 1, &axis)) return;
  mt_shape* out = &ctx->out[0];
  out->rank = cur.rank + 1;
  for (int d = 0, k = 0; d < out->rank; d++) out->dims[d] = d == axis ? n : cur.dims[k++];
}

static void pack_kernel(mt_kernel_ctx* ctx) {
  const int n = ctx->ninputs;
  const TF_Tensor* first = ctx->inputs[0];
  const int64_t ax = mt_op_attr_int(ctx->op, "axis", 0);
  const int end = first->ndims + 1;
  const int64_t axis = ax < 0 ? ax + end : ax;
  if (axis < 0 || axis >= end || end > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "axis = %lld not in [%d, %d)",
                   (long long)ax, -end, end);
    return;
  }
  int64_t dims[MT_MAX_DIMS];
  for (int d = 0, k = 0; d < end; d++) dims[d] = d == axis ? n : first->dims[k++];
  if (n == 1) {
    ctx->outputs[0] = mt_tensor_reshape(first, dims, end);
    return;
  }
  int64_t* chunk = mt_malloc(sizeof(int64_t) * (size_t)n, ctx->status);
  char** parts = mt_malloc(sizeof(char*) * (size_t)n, ctx->status);
  if (!chunk || !parts) goto done;
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; d++) outer *= first->dims[d];
  for (int d = (int)axis; d < first->ndims; d++) inner *= first->dims[d];
  for (int k = 0; k < n; k++) {
    const TF_Tensor* in = ctx->inputs[k];
    int same = in->ndims == first->ndims && in->dtype == first->dtype;
    for (int d = 0; same && d < in->ndims; d++) same = in->dims[d] == first->dims[d];
    if (!same) {
      char a[256], b[256];
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Shapes of all inputs must match: values[0].shape = %s != values[%d].shape "
                     "= %s",
                     mt_dims_str(first->dims, first->ndims, a, sizeof a), k,
                     mt_dims_str(in->dims, in->ndims, b, sizeof b));
      goto done;
    }
    chunk[k] = inner;
    parts[k] = mt_tensor_data(in);
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, first->dtype, dims, end);
  if (!out) goto done;
  concat_plan p = {first->dtype, TF_DataTypeSize(first->dtype), n, parts, chunk, inner * n,
                   mt_tensor_data(out), 0};
  concat_run(ctx, &p, outer);
done:
  free(chunk);
  free(parts);
}

static void unpack_shape(mt_shape_ctx* ctx) {
  const mt_shape* s = &ctx->in[0];
  mt_shape out = *s;
  if (s->rank >= 0) {
    int axis;
    if (!pack_axis(ctx, s->rank, &axis)) return;
    if (!dim_with_value(ctx, s->dims[axis], ctx->noutputs)) return;
    out = subshape(s, 0, axis);
    for (int d = axis + 1; d < s->rank; d++) out.dims[out.rank++] = s->dims[d];
  }
  for (int k = 0; k < ctx->noutputs; k++) ctx->out[k] = out;
}

/* Splits input 0 of `ctx` along `axis` into parts of sizes[k]. */
static void split_into(mt_kernel_ctx* ctx, const TF_Tensor* in, int axis, const int64_t* sizes,
                       int n, int drop_axis) {
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; d++) outer *= in->dims[d];
  for (int d = axis + 1; d < in->ndims; d++) inner *= in->dims[d];
  int64_t* chunk = mt_malloc(sizeof(int64_t) * (size_t)n + 1, ctx->status);
  char** parts = mt_malloc(sizeof(char*) * (size_t)n + 1, ctx->status);
  if (!chunk || !parts) goto done;
  for (int k = 0; k < n; k++) {
    int64_t dims[MT_MAX_DIMS];
    int nd = 0;
    for (int d = 0; d < in->ndims; d++) {
      if (d != axis) dims[nd++] = in->dims[d];
      else if (!drop_axis) dims[nd++] = sizes[k];
    }
    TF_Tensor* o = mt_ctx_alloc(ctx, k, in->dtype, dims, nd);
    if (!o) goto done;
    chunk[k] = sizes[k] * inner;
    parts[k] = mt_tensor_data(o);
  }
  int64_t row = in->dims[axis] * inner;
  concat_plan p = {in->dtype, TF_DataTypeSize(in->dtype), n, parts, chunk, row,
                   mt_tensor_data(in), 1};
  concat_run(ctx, &p, outer);
done:
  free(chunk);
  free(parts);
}

static void unpack_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const int num = ctx->noutputs;
  const int64_t ax = mt_op_attr_int(ctx->op, "axis", 0);
  const int64_t axis = ax < 0 ? ax + in->ndims : ax;
  if (axis < 0 || axis >= in->ndims) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "axis = %lld not in [%d, %d)",
                   (long long)ax, -in->ndims, in->ndims);
    return;
  }
  if (in->dims[axis] != num) {
    char a[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Input shape axis %lld must equal %d, got shape %s", (long long)axis, num,
                   mt_dims_str(in->dims, in->ndims, a, sizeof a));
    return;
  }
  int64_t* sizes = mt_malloc(sizeof(int64_t) * (size_t)num + 1, ctx->status);
  if (!sizes) return;
  for (int k = 0; k < num; k++) sizes[k] = 1;
  split_into(ctx, in, (int)axis, sizes, num, 1);
  free(sizes);
}

/* ReplaceDim(s, d, v) with TensorFlow's negative d (counts from the end). */
static mt_shape replace_dim(const mt_shape* s, int64_t d, int64_t v) {
  mt_shape r = *s;
  if (r.rank < 0) return r;
  if (d < 0) d += r.rank;
  if (d >= 0 && d < r.rank) r.dims[d] = v;
  return r;
}

static void split_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[1];
  const int n = ctx->noutputs;
  int64_t dim;
  if (!axis_dim(ctx, 0, in->rank, &dim)) return;
  mt_shape out;
  if (dim < 0) {
    if (in->rank >= 0) unknown_of_rank(&out, in->rank);
    else out = mt_shape_unknown();
  } else {
    if (!mt_shape_with_rank_at_least(ctx, 1, (int)dim + 1)) return;
    int64_t size = -1;
    if (in->rank >= 0 && in->dims[dim] >= 0) {
      if (in->dims[dim] % n != 0) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "Dimension size must be evenly divisible by %d but is %lld", n,
                       (long long)in->dims[dim]);
        return;
      }
      size = in->dims[dim] / n;
    }
    out = replace_dim(in, dim, size);
  }
  for (int k = 0; k < n; k++) ctx->out[k] = out;
}

/* Split: the split dim is the first input. */
static void split_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* sd = ctx->inputs[0];
  const TF_Tensor* in = ctx->inputs[1];
  const int n = ctx->noutputs;
  if (sd->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "split_dim must be a scalar but has rank %d",
                   sd->ndims);
    return;
  }
  const int64_t orig = first_int(sd);
  const int64_t dim = orig < 0 ? orig + in->ndims : orig;
  if (dim < 0 || dim >= in->ndims) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "-input rank(-%d) <= split_dim < input rank (%d), but got %lld", in->ndims,
                   in->ndims, (long long)orig);
    return;
  }
  if (in->dims[dim] % n != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Number of ways to split should evenly divide the split dimension, but got "
                   "split_dim %lld (size = %lld) and num_split %d",
                   (long long)dim, (long long)in->dims[dim], n);
    return;
  }
  if (n == 1) {
    mt_ctx_set_shared(ctx, 0, in);
    return;
  }
  int64_t* sizes = mt_malloc(sizeof(int64_t) * (size_t)n, ctx->status);
  if (!sizes) return;
  for (int k = 0; k < n; k++) sizes[k] = in->dims[dim] / n;
  split_into(ctx, in, (int)dim, sizes, n, 0);
  free(sizes);
}

static void splitv_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[0];
  const int n = ctx->noutputs;
  int64_t dim;
  if (!axis_dim(ctx, 2, in->rank, &dim)) return;
  const TF_Tensor* sv = ctx->in_values ? ctx->in_values[1] : NULL;
  if (in->rank < 0) {
    for (int k = 0; k < n; k++) ctx->out[k] = mt_shape_unknown();
    return;
  }
  if (in->rank == 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Can't split scalars");
    return;
  }
  if (!sv) {
    for (int k = 0; k < n; k++) {
      if (dim >= 0) ctx->out[k] = replace_dim(in, dim, -1);
      else unknown_of_rank(&ctx->out[k], in->rank);
    }
    return;
  }
  /* Known sizes with an unknown dim use dim -1, the last one, as
   * TensorFlow does. */
  if (!mt_shape_with_rank_at_least(ctx, 0, (int)dim + 1)) return;
  const int64_t count = mt_tensor_nelems(sv);
  if (count != n) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Length of size_splits should be equal to num_outputs");
    return;
  }
  int64_t* data = mt_malloc(sizeof(int64_t) * (size_t)n, ctx->status);
  if (!data) return;
  mt_tensor_ints(sv, data, n);
  int64_t total = 0;
  int neg = 0;
  for (int k = 0; k < n; k++) {
    if (data[k] == -1) {
      if (neg) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "size_splits can only have one -1");
        goto done;
      }
      neg = 1;
    } else {
      total = (int64_t)((uint64_t)total + (uint64_t)data[k]);
    }
  }
  const int64_t dsize = in->dims[dim < 0 ? in->rank - 1 : dim];
  for (int k = 0; k < n; k++) {
    int64_t size = data[k];
    if (size == -1 && dsize >= 0) size = dsize - total;
    if (size < -1 || (size == -1 && dsize >= 0)) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Split size at index %d must be >= 0. Got: %lld", k, (long long)size);
      goto done;
    }
    ctx->out[k] = replace_dim(in, dim, size);
  }
  if (dsize >= 0 && (neg ? total > dsize : total != dsize)) {
    char buf[512];
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; k < n && len + 24 < sizeof buf; k++)
      len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%lld", k ? "," : "",
                              (long long)data[k]);
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "can't split axis of size %lld into pieces of size [%s]", (long long)dsize,
                   buf);
  }
done:
  free(data);
}

static void splitv_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_Tensor* st = ctx->inputs[1];
  const TF_Tensor* sd = ctx->inputs[2];
  const int n = ctx->noutputs;
  if (mt_tensor_nelems(sd) != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "split_dim_tensor must have exactly one element.");
    return;
  }
  const int64_t orig = first_int(sd);
  const int64_t dim = orig < 0 ? orig + in->ndims : orig;
  if (st->ndims != 1 || mt_tensor_nelems(st) != n) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "size of the split_tensor must be 1-D and have the same elements as outputs "
                   "got %d -D and %lld elements",
                   st->ndims, (long long)mt_tensor_nelems(st));
    return;
  }
  if (dim < 0 || dim >= in->ndims) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "-input rank(-%d) <= split_dim < input rank (%d), but got %lld", in->ndims,
                   in->ndims, (long long)orig);
    return;
  }
  int64_t* sizes = mt_malloc(sizeof(int64_t) * (size_t)n, ctx->status);
  if (!sizes) return;
  if (st->dtype == TF_INT8) {
    for (int k = 0; k < n; k++) sizes[k] = ((const int8_t*)mt_tensor_data(st))[k];
  } else {
    mt_tensor_ints(st, sizes, n);
  }
  const int64_t dsize = in->dims[dim];
  if (n == 1) {
    if (sizes[0] != dsize) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "If there is only one output, it must have the same size as the input. "
                     "Input size: %lld output size: %lld",
                     (long long)dsize, (long long)sizes[0]);
    } else {
      mt_ctx_set_shared(ctx, 0, in);
    }
    goto done;
  }
  int neg = -1;
  int64_t determined = 0;
  for (int k = 0; k < n; k++) {
    if (sizes[k] == -1) {
      if (neg >= 0) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "There can only be one -1 in the input.");
        goto done;
      }
      neg = k;
    } else {
      /* wraps instead of overflowing; sizes beyond the dim fail below */
      determined = (int64_t)((uint64_t)determined + (uint64_t)sizes[k]);
    }
  }
  if (!((neg < 0 && determined == dsize) || (neg >= 0 && determined <= dsize))) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Determined shape must either match input shape along split_dim exactly if "
                   "fully specified, or be less than the size of the input along split_dim if "
                   "not fully specified.  Got: %lld",
                   (long long)determined);
    goto done;
  }
  if (neg >= 0) sizes[neg] = dsize - determined;
  for (int k = 0; k < n; k++) {
    if (sizes[k] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Split size at index %d must be >= 0. Got: %lld", k, (long long)sizes[k]);
      goto done;
    }
  }
  /* The wrapping sum above matched; make sure it did not wrap (sizes that
   * overflow would read out of bounds). */
  int64_t sum = 0;
  for (int k = 0; k < n; k++) {
    if (sizes[k] > dsize - sum) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Determined shape must either match input shape along split_dim exactly if "
                     "fully specified, or be less than the size of the input along split_dim if "
                     "not fully specified.  Got: %lld",
                     (long long)determined);
      goto done;
    }
    sum += sizes[k];
  }
  split_into(ctx, in, (int)dim, sizes, n, 0);
done:
  free(sizes);
}

/* ======================================================================
 * Tile, BroadcastTo, BroadcastArgs, ReverseV2 (strided gathers)
 * ====================================================================== */

static void tile_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[0];
  mt_shape mult;
  if (!shape_from_shape_tensor(ctx, 1, &mult)) return;
  if (in->rank >= 0) {
    if (mult.rank >= 0 && mult.rank != in->rank) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be rank %d but is rank %d",
                     in->rank, mult.rank);
      return;
    }
    const int64_t len = ctx->in[1].rank == 1 ? ctx->in[1].dims[0] : -1;
    if (len >= 0 && len != in->rank) {
      char a[64], b[64];
      mt_shape v;
      v.rank = 1;
      v.dims[0] = in->rank;
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Dimension 0 in both shapes must be equal, but are %lld and %d. Shapes are "
                     "%s and %s.",
                     (long long)len, in->rank, mt_shape_str(&ctx->in[1], a, sizeof a),
                     mt_shape_str(&v, b, sizeof b));
      return;
    }
    if (mult.rank < 0) unknown_of_rank(&mult, in->rank);
  }
  if (mult.rank < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  if (!mt_shape_with_rank(ctx, 0, mult.rank)) return;
  mt_shape* out = &ctx->out[0];
  out->rank = mult.rank;
  for (int d = 0; d < mult.rank; d++) {
    const int64_t x = in->rank < 0 ? -1 : in->dims[d];
    if (!multiply_dims(ctx, x, mult.dims[d], &out->dims[d])) return;
  }
}

static void tile_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_Tensor* mt = ctx->inputs[1];
  const int nd = in->ndims;
  if (mt->ndims != 1 || mt->dims[0] != nd) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected multiples argument to be a vector of length %d but got length %lld",
                   nd, (long long)(mt->ndims == 1 ? mt->dims[0] : mt_tensor_nelems(mt)));
    return;
  }
  int64_t mult[MT_MAX_DIMS], odims[MT_MAX_DIMS];
  mt_tensor_ints(mt, mult, MT_MAX_DIMS);
  for (int d = 0; d < nd; d++) {
    if (mult[d] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Expected multiples[%d] >= 0, but got %lld",
                     d, (long long)mult[d]);
      return;
    }
    if (mult[d] > 0 && in->dims[d] > INT64_MAX / mult[d]) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Encountered overflow when multiplying %lld with %lld",
                     (long long)in->dims[d], (long long)mult[d]);
      return;
    }
    odims[d] = in->dims[d] * mult[d];
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, odims, nd);
  if (!out) return;
  /* Output [m0*d0, m1*d1, ...] is [m0, d0, m1, d1, ...] reading the input
   * with stride 0 along each m. */
  int64_t str[MT_MAX_DIMS], gd[GATHER_MAX_DIMS], gs[GATHER_MAX_DIMS];
  row_major_strides(in->dims, nd, str);
  for (int d = 0; d < nd; d++) {
    gd[2 * d] = mult[d];
    gs[2 * d] = 0;
    gd[2 * d + 1] = in->dims[d];
    gs[2 * d + 1] = str[d];
  }
  gather_plan p;
  gather_init(&p, in->dtype, mt_tensor_data(in), mt_tensor_data(out), 2 * nd, gd, gs, 0);
  gather_run(ctx, &p);
}

static void broadcast_to_shape(mt_shape_ctx* ctx) {
  mt_shape out;
  if (!shape_from_shape_tensor(ctx, 1, &out)) return;
  const mt_shape* in = &ctx->in[0];
  if (out.rank < 0 || in->rank < 0) {
    ctx->out[0] = out;
    return;
  }
  if (in->rank > out.rank) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be at most rank %d but is rank %d",
                   out.rank, in->rank);
    return;
  }
  for (int i = 0; i < in->rank; i++) {
    const int64_t x = in->dims[in->rank - 1 - i];
    int64_t* o = &out.dims[out.rank - 1 - i];
    if (x > 1 && !mt_merge_dim(ctx, x, *o, o)) return;
  }
  ctx->out[0] = out;
}

static void broadcast_to_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  int64_t odims[MT_MAX_DIMS];
  int ond;
  if (!kernel_shape_from_tensor(ctx, ctx->inputs[1], "shape", odims, &ond)) return;
  int same = ond == in->ndims;
  for (int d = 0; same && d < ond; d++) same = odims[d] == in->dims[d];
  if (same) {
    mt_ctx_set_shared(ctx, 0, in);
    return;
  }
  if (in->ndims > ond) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Rank of input (%d) must be no greater than rank of output shape (%d).",
                   in->ndims, ond);
    return;
  }
  if (mt_num_elements(odims, ond) == 0) {
    mt_ctx_alloc(ctx, 0, in->dtype, odims, ond);
    return;
  }
  char a[256], b[256];
  int64_t str[MT_MAX_DIMS], gs[MT_MAX_DIMS];
  row_major_strides(in->dims, in->ndims, str);
  const int lead = ond - in->ndims;
  for (int d = 0; d < ond; d++) {
    const int64_t x = d < lead ? 1 : in->dims[d - lead];
    if (x != odims[d] && x != 1) {
      /* a valid broadcast of both that is not the requested shape */
      const int valid = odims[d] == 1;
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     valid ? "Unable to broadcast tensor of shape %s to tensor of shape %s"
                           : "Incompatible shapes: %s vs. %s",
                     mt_dims_str(in->dims, in->ndims, a, sizeof a),
                     mt_dims_str(odims, ond, b, sizeof b));
      return;
    }
    gs[d] = d < lead || x == 1 ? 0 : str[d - lead];
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, odims, ond);
  if (!out) return;
  gather_plan p;
  gather_init(&p, in->dtype, mt_tensor_data(in), mt_tensor_data(out), ond, odims, gs, 0);
  gather_run(ctx, &p);
}

static void broadcast_args_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 1) || !mt_shape_with_rank(ctx, 1, 1)) return;
  const int64_t x = ctx->in[0].rank == 1 ? ctx->in[0].dims[0] : -1;
  const int64_t y = ctx->in[1].rank == 1 ? ctx->in[1].dims[0] : -1;
  ctx->out[0].rank = 1;
  ctx->out[0].dims[0] = x < 0 || y < 0 ? -1 : x > y ? x : y;
}

static void broadcast_args_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* s0 = ctx->inputs[0];
  const TF_Tensor* s1 = ctx->inputs[1];
  if (s0->ndims != 1 || s1->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "In[0] and In[1] must be vectors.");
    return;
  }
  const int64_t n0 = s0->dims[0], n1 = s1->dims[0];
  const int64_t n = n0 > n1 ? n0 : n1;
  int64_t* a = mt_malloc(sizeof(int64_t) * (size_t)(n0 + 1), ctx->status);
  int64_t* b = mt_malloc(sizeof(int64_t) * (size_t)(n1 + 1), ctx->status);
  int64_t* r = mt_malloc(sizeof(int64_t) * (size_t)(n + 1), ctx->status);
  if (!a || !b || !r) goto done;
  mt_tensor_ints(s0, a, n0);
  mt_tensor_ints(s1, b, n1);
  for (int64_t i = 0; i < n; i++) {
    const int64_t x = i < n - n0 ? 1 : a[i - (n - n0)];
    const int64_t y = i < n - n1 ? 1 : b[i - (n - n1)];
    if (x == y || y == 1) {
      r[i] = x;
    } else if (x == 1) {
      r[i] = y;
    } else {
      char as[512], bs[512];
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Incompatible shapes: %s vs. %s",
                     mt_dims_str(a, (int)(n0 < MT_MAX_DIMS ? n0 : MT_MAX_DIMS), as, sizeof as),
                     mt_dims_str(b, (int)(n1 < MT_MAX_DIMS ? n1 : MT_MAX_DIMS), bs, sizeof bs));
      goto done;
    }
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, s0->dtype, &n, 1);
  if (!out) goto done;
  for (int64_t i = 0; i < n; i++) {
    if (s0->dtype == TF_INT32) ((int32_t*)mt_tensor_data(out))[i] = (int32_t)r[i];
    else ((int64_t*)mt_tensor_data(out))[i] = r[i];
  }
done:
  free(a);
  free(b);
  free(r);
}

/* Checks ReverseV2's axes against `rank` into mask; 0 + status if bad. */
static int reverse_axes(const int64_t* ax, int n, int rank, unsigned char* mask, TF_Status* s) {
  memset(mask, 0, MT_MAX_DIMS);
  for (int i = 0; i < n; i++) {
    const int64_t c = ax[i] < 0 ? ax[i] + rank : ax[i];
    if (c < 0 || c >= rank) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "'axis'[%d] = %lld is out of valid range [0, %d", i,
                     (long long)ax[i], rank - 1);
      return 0;
    }
    if (mask[c]) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "axis %lld specified more than once.", (long long)c);
      return 0;
    }
    mask[c] = 1;
  }
  return 1;
}

static void reverse_shape(mt_shape_ctx* ctx) {
  const mt_shape* in = &ctx->in[0];
  if (!mt_shape_with_rank(ctx, 1, 1)) return;
  if (in->rank > 8) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "reverse does not work on tensors with more than 8 dimensions");
    return;
  }
  int64_t ax[MT_MAX_DIMS];
  const int n = mt_shape_input_as_ints(ctx, 1, ax, MT_MAX_DIMS);
  unsigned char mask[MT_MAX_DIMS];
  if (n >= 0 && in->rank >= 0) {
    if (n > in->rank && in->rank < MT_MAX_DIMS) { /* a duplicate or out of range for sure */
      int64_t all[MT_MAX_DIMS + 1];
      const int m = n <= MT_MAX_DIMS ? n : MT_MAX_DIMS;
      memcpy(all, ax, sizeof(int64_t) * (size_t)m);
      if (!reverse_axes(all, m, in->rank, mask, ctx->status)) return;
    } else if (!reverse_axes(ax, n, in->rank, mask, ctx->status)) {
      return;
    }
  }
  ctx->out[0] = *in;
}

static void reverse_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_Tensor* at = ctx->inputs[1];
  if (in->ndims == 0 || mt_tensor_nelems(in) == 0) {
    mt_ctx_set_shared(ctx, 0, in);
    return;
  }
  if (at->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "'dims' must be 1-dimension, not %d",
                   at->ndims);
    return;
  }
  const int64_t n = at->dims[0];
  int64_t ax[MT_MAX_DIMS + 1];
  unsigned char mask[MT_MAX_DIMS];
  /* more axes than dims means a duplicate: the first MT_MAX_DIMS+1 show it */
  const int m = (int)(n <= MT_MAX_DIMS + 1 ? n : MT_MAX_DIMS + 1);
  int64_t* all = mt_malloc(sizeof(int64_t) * (size_t)(n + 1), ctx->status);
  if (!all) return;
  mt_tensor_ints(at, all, n);
  memcpy(ax, all, sizeof(int64_t) * (size_t)m);
  free(all);
  if (!reverse_axes(ax, m, in->ndims, mask, ctx->status)) return;
  if (in->ndims > 8) {
    mt_status_setf(ctx->status, TF_UNIMPLEMENTED,
                   "reverse is not implemented for tensors of rank > 8.");
    return;
  }
  int64_t str[MT_MAX_DIMS], base = 0;
  row_major_strides(in->dims, in->ndims, str);
  for (int d = 0; d < in->ndims; d++) {
    if (!mask[d]) continue;
    base += (in->dims[d] - 1) * str[d];
    str[d] = -str[d];
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, in->dims, in->ndims);
  if (!out) return;
  gather_plan p;
  gather_init(&p, in->dtype, mt_tensor_data(in), mt_tensor_data(out), in->ndims, in->dims, str,
              base);
  gather_run(ctx, &p);
}

/* ======================================================================
 * Fill, ZerosLike, OnesLike
 * ====================================================================== */

static void fill_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 1) || !mt_shape_with_rank(ctx, 1, 0)) return;
  int64_t v[MT_MAX_DIMS];
  const int n = mt_shape_input_as_ints(ctx, 0, v, MT_MAX_DIMS);
  for (int i = 0; i < n && i < MT_MAX_DIMS; i++) {
    if (v[i] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Fill dimensions must be >= 0");
      return;
    }
  }
  mt_shape out;
  if (!shape_from_shape_tensor(ctx, 0, &out)) return;
  ctx->out[0] = out;
}

static void fill_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* dt = ctx->inputs[0];
  const TF_Tensor* val = ctx->inputs[1];
  char buf[256];
  if (dt->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "dims must be a vector, got shape %s",
                   mt_dims_str(dt->dims, dt->ndims, buf, sizeof buf));
    return;
  }
  if (!(val->ndims == 0 || (val->ndims == 1 && val->dims[0] == 1))) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "value must be a scalar, got shape %s",
                   mt_dims_str(val->dims, val->ndims, buf, sizeof buf));
    return;
  }
  int64_t dims[MT_MAX_DIMS];
  int nd;
  if (!kernel_shape_from_tensor(ctx, dt, "dims", dims, &nd)) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, val->dtype, dims, nd);
  if (!out) return;
  fill_elems(val->dtype, mt_tensor_data(out), mt_tensor_data(val), mt_tensor_nelems(out));
}

static void zeros_like_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  if (x->dtype == TF_VARIANT && mt_tlist_zeros_like(ctx)) return; /* gradients of lists */
  ctx->outputs[0] = mt_tensor_zeros(x->dtype, x->dims, x->ndims, ctx->status);
}

/* The element 1 of dt into buf (16 bytes); 0 if dt has no one. */
static int one_of(TF_DataType dt, void* buf) {
  memset(buf, 0, 16);
  switch (dt) {
    case TF_FLOAT: case TF_COMPLEX64: *(float*)buf = 1.0f; return 1;
    case TF_DOUBLE: case TF_COMPLEX128: *(double*)buf = 1.0; return 1;
    case TF_HALF: *(mt_half*)buf = mt_float_to_half(1.0f); return 1;
    case TF_BFLOAT16: *(mt_bfloat16*)buf = mt_float_to_bfloat16(1.0f); return 1;
    case TF_INT8: case TF_UINT8: case TF_BOOL: *(uint8_t*)buf = 1; return 1;
    case TF_INT16: case TF_UINT16: *(uint16_t*)buf = 1; return 1;
    case TF_INT32: case TF_UINT32: *(uint32_t*)buf = 1; return 1;
    case TF_INT64: case TF_UINT64: *(uint64_t*)buf = 1; return 1;
    default: return 0;
  }
}

static void ones_like_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  _Alignas(16) unsigned char one[16];
  if (!one_of(x->dtype, one)) {
    mt_kernel_unsupported(ctx, "T", x->dtype);
    return;
  }
  TF_Tensor* out = mt_ctx_forward(ctx, 0, 0, x->dtype, x->dims, x->ndims);
  if (!out) return;
  fill_elems(x->dtype, mt_tensor_data(out), one, mt_tensor_nelems(out));
}

/* ======================================================================
 * Range
 * ====================================================================== */

/* Range's scalars, by class: signed, unsigned or floating. */
typedef struct range_args {
  TF_DataType dt;
  int cls; /* 's', 'u', 'f' */
  int64_t s[3];
  uint64_t u[3];
  double f[3];
} range_args;

/* A floating value rounded to dt, as that type's arithmetic would store it. */
static double round_to(TF_DataType dt, double x) {
  switch (dt) {
    case TF_FLOAT: return (float)x;
    case TF_HALF: return mt_half_to_float(mt_float_to_half((float)x));
    case TF_BFLOAT16: return mt_bfloat16_to_float(mt_float_to_bfloat16((float)x));
    default: return x;
  }
}

static int range_read(const TF_Tensor* t, int k, range_args* a) {
  const void* p = mt_tensor_data(t);
  a->dt = t->dtype;
  switch (t->dtype) {
    case TF_INT8: a->cls = 's'; a->s[k] = *(const int8_t*)p; return 1;
    case TF_INT16: a->cls = 's'; a->s[k] = *(const int16_t*)p; return 1;
    case TF_INT32: a->cls = 's'; a->s[k] = *(const int32_t*)p; return 1;
    case TF_INT64: a->cls = 's'; a->s[k] = *(const int64_t*)p; return 1;
    case TF_UINT8: a->cls = 'u'; a->u[k] = *(const uint8_t*)p; return 1;
    case TF_UINT16: a->cls = 'u'; a->u[k] = *(const uint16_t*)p; return 1;
    case TF_UINT32: a->cls = 'u'; a->u[k] = *(const uint32_t*)p; return 1;
    case TF_UINT64: a->cls = 'u'; a->u[k] = *(const uint64_t*)p; return 1;
    case TF_FLOAT: a->cls = 'f'; a->f[k] = *(const float*)p; return 1;
    case TF_DOUBLE: a->cls = 'f'; a->f[k] = *(const double*)p; return 1;
    case TF_HALF: a->cls = 'f'; a->f[k] = mt_half_to_float(*(const mt_half*)p); return 1;
    case TF_BFLOAT16:
      a->cls = 'f';
      a->f[k] = mt_bfloat16_to_float(*(const mt_bfloat16*)p);
      return 1;
    default: return 0;
  }
}

static const char* range_fmt(const range_args* a, int k, char* buf, size_t cap) {
  if (a->cls == 's') snprintf(buf, cap, "%lld", (long long)a->s[k]);
  else if (a->cls == 'u') snprintf(buf, cap, "%llu", (unsigned long long)a->u[k]);
  else if (a->dt == TF_DOUBLE) mt_fmt_double(a->f[k], buf, cap);
  else mt_fmt_float((float)a->f[k], buf, cap);
  return buf;
}

/* sign of start - limit and of delta: -1, 0, 1 (NaN compares as 0). */
static int range_cmp(const range_args* a, int x, int y) {
  switch (a->cls) {
    case 's': return (a->s[x] > a->s[y]) - (a->s[x] < a->s[y]);
    case 'u': return (a->u[x] > a->u[y]) - (a->u[x] < a->u[y]);
    default: return (a->f[x] > a->f[y]) - (a->f[x] < a->f[y]);
  }
}

static int range_delta_sign(const range_args* a) {
  switch (a->cls) {
    case 's': return (a->s[2] > 0) - (a->s[2] < 0);
    case 'u': return a->u[2] > 0;
    default: return (a->f[2] > 0) - (a->f[2] < 0);
  }
}

/* Checks the arguments in the shape function's order (kernel = 0) or the
 * kernel's (delta first), then the element count; 0 + status on error. */
static int range_size(const range_args* a, int kernel, int64_t* size, TF_Status* s) {
  char b0[64], b1[64], b2[64];
  const int c = range_cmp(a, 0, 1), ds = range_delta_sign(a);
  const int zero = a->cls == 'f' ? a->f[2] == 0 : ds == 0;
  if (kernel && zero) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Requires delta != 0: %s", range_fmt(a, 2, b2, 64));
    return 0;
  }
  if (c > 0 && ds > 0) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Requires start <= limit when delta > 0: %s/%s",
                   range_fmt(a, 0, b0, 64), range_fmt(a, 1, b1, 64));
    return 0;
  }
  if (c < 0 && ds < 0) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Requires start >= limit when delta < 0: %s/%s",
                   range_fmt(a, 0, b0, 64), range_fmt(a, 1, b1, 64));
    return 0;
  }
  if (zero) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Requires delta != 0");
    return 0;
  }
  uint64_t diff, ad;
  if (a->cls == 'f') {
    const double q = round_to(a->dt, round_to(a->dt, a->f[1] - a->f[0]) / a->f[2]);
    const double n = ceil(fabs(q));
    if (!(n < 9223372036854775807.0)) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "Requires ((limit - start) / delta) <= %lld",
                     (long long)INT64_MAX);
      return 0;
    }
    *size = (int64_t)n;
    return 1;
  }
  if (a->cls == 's') {
    diff = a->s[0] <= a->s[1] ? (uint64_t)a->s[1] - (uint64_t)a->s[0]
                              : (uint64_t)a->s[0] - (uint64_t)a->s[1];
    ad = a->s[2] < 0 ? 0 - (uint64_t)a->s[2] : (uint64_t)a->s[2];
  } else {
    diff = a->u[0] <= a->u[1] ? a->u[1] - a->u[0] : a->u[0] - a->u[1];
    ad = a->u[2];
  }
  const uint64_t n = diff / ad + (diff % ad != 0);
  if (n > (uint64_t)INT64_MAX) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Requires ((limit - start) / delta) <= %lld",
                   (long long)INT64_MAX);
    return 0;
  }
  *size = (int64_t)n;
  return 1;
}

static void range_shape(mt_shape_ctx* ctx) {
  static const char* names[3] = {"start", "limit", "delta"};
  for (int k = 0; k < 3; k++) {
    if (ctx->in[k].rank > 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Shape must be rank 0 but is rank %d\n\t for '%s'", ctx->in[k].rank,
                     names[k]);
      return;
    }
  }
  ctx->out[0].rank = 1;
  ctx->out[0].dims[0] = -1;
  range_args a;
  for (int k = 0; k < 3; k++) {
    const TF_Tensor* v = ctx->in_values ? ctx->in_values[k] : NULL;
    if (!v || mt_tensor_nelems(v) != 1 || !range_read(v, k, &a)) return;
  }
  if (a.dt == TF_HALF) { /* TensorFlow's RangeSize has no half case */
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Unsupported dtype%d", (int)a.dt);
    return;
  }
  range_size(&a, 0, &ctx->out[0].dims[0], ctx->status);
}

static void range_kernel(mt_kernel_ctx* ctx) {
  static const char* names[3] = {"start", "limit", "delta"};
  range_args a;
  for (int k = 0; k < 3; k++) {
    const TF_Tensor* t = ctx->inputs[k];
    if (!(t->ndims == 0 || (t->ndims == 1 && t->dims[0] == 1))) {
      char buf[256];
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s must be a scalar, not shape %s",
                     names[k], mt_dims_str(t->dims, t->ndims, buf, sizeof buf));
      return;
    }
    /* TensorFlow's CPU kernels: floating types, int32 and int64 only */
    const TF_DataType dt = t->dtype;
    if (!(dt == TF_FLOAT || dt == TF_DOUBLE || dt == TF_HALF || dt == TF_BFLOAT16 ||
          dt == TF_INT32 || dt == TF_INT64) ||
        !range_read(t, k, &a)) {
      mt_kernel_unsupported(ctx, "Tidx", dt);
      return;
    }
  }
  int64_t n;
  if (!range_size(&a, 1, &n, ctx->status)) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, a.dt, &n, 1);
  if (!out) return;
  void* p = mt_tensor_data(out);
  /* element i = start + T(i) * delta, in T's arithmetic (integers wrap) */
  for (int64_t i = 0; i < n; i++) {
    switch (a.dt) {
      case TF_INT8: ((int8_t*)p)[i] = (int8_t)((uint64_t)a.s[0] + (uint64_t)i * (uint64_t)a.s[2]); break;
      case TF_INT16: ((int16_t*)p)[i] = (int16_t)((uint64_t)a.s[0] + (uint64_t)i * (uint64_t)a.s[2]); break;
      case TF_INT32: ((int32_t*)p)[i] = (int32_t)((uint64_t)a.s[0] + (uint64_t)i * (uint64_t)a.s[2]); break;
      case TF_INT64: ((int64_t*)p)[i] = (int64_t)((uint64_t)a.s[0] + (uint64_t)i * (uint64_t)a.s[2]); break;
      case TF_UINT8: ((uint8_t*)p)[i] = (uint8_t)(a.u[0] + (uint64_t)i * a.u[2]); break;
      case TF_UINT16: ((uint16_t*)p)[i] = (uint16_t)(a.u[0] + (uint64_t)i * a.u[2]); break;
      case TF_UINT32: ((uint32_t*)p)[i] = (uint32_t)(a.u[0] + (uint64_t)i * a.u[2]); break;
      case TF_UINT64: ((uint64_t*)p)[i] = a.u[0] + (uint64_t)i * a.u[2]; break;
      case TF_FLOAT: ((float*)p)[i] = (float)a.f[0] + (float)i * (float)a.f[2]; break;
      case TF_DOUBLE: ((double*)p)[i] = a.f[0] + (double)i * a.f[2]; break;
      case TF_HALF: {
        const float prod = (float)round_to(TF_HALF, (double)(float)round_to(TF_HALF, (double)i) * a.f[2]);
        ((mt_half*)p)[i] = mt_float_to_half((float)a.f[0] + prod);
        break;
      }
      case TF_BFLOAT16: {
        const float prod =
            (float)round_to(TF_BFLOAT16, (double)(float)round_to(TF_BFLOAT16, (double)i) * a.f[2]);
        ((mt_bfloat16*)p)[i] = mt_float_to_bfloat16((float)a.f[0] + prod);
        break;
      }
      default: break;
    }
  }
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

static void unique_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* x = ctx->inputs[0];
  const TF_DataType it = mt_op_attr_type(ctx->op, "out_idx", TF_INT32);
  if (x->dtype == TF_COMPLEX64 || x->dtype == TF_COMPLEX128 || TF_DataTypeSize(x->dtype) == 0) {
    char a[32], b[32]; /* TensorFlow registers real types, strings and bool */
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "No OpKernel was registered to support Op 'Unique' used by {{node %s}} with "
                   "these attrs: [out_idx=%s, T=%s]",
                   ctx->op->name, mt_dt_enum_name(it, a, sizeof a),
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
    copy_elems(x->dtype, (char*)mt_tensor_data(y) + u * (int64_t)es,
               (const char*)p + first[u] * (int64_t)es, 1);
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
    copy_elems(x->dtype, (char*)mt_tensor_data(out) + k * (int64_t)es,
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

#define INDEX_T "{int32, int64} = DT_INT32"

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
    {.name = "IdentityN", .inputs = "input: T", .outputs = "output: T",
     .attrs = "T: list(type) >= 1", .shape = identity_n_shape, .kernel = identity_n_kernel},
    {.name = "StopGradient", .inputs = "input: T", .outputs = "output: T", .attrs = "T: type",
     .shape = mt_unchanged_shape, .kernel = identity_kernel},
    {.name = "PreventGradient", .inputs = "input: T", .outputs = "output: T",
     .attrs = "T: type; message: string = ''", .shape = mt_unchanged_shape,
     .kernel = identity_kernel},
    {.name = "Snapshot", .inputs = "input: T", .outputs = "output: T", .attrs = "T: type",
     .shape = mt_unchanged_shape, .kernel = snapshot_kernel},
    {.name = "CheckNumerics", .inputs = "tensor: T", .outputs = "output: T",
     .attrs = "T: {bfloat16, half, float, double}; message: string",
     .shape = mt_unchanged_shape, .kernel = check_numerics_kernel, .flags = MT_OP_STATEFUL},
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
    {.name = "Rank", .inputs = "input: T", .outputs = "output: int32", .attrs = "T: type",
     .shape = scalar_shape, .kernel = rank_kernel},
    {.name = "Transpose", .inputs = "x: T, perm: Tperm", .outputs = "y: T",
     .attrs = "T: type; Tperm: " INDEX_T, .shape = transpose_shape, .kernel = transpose_kernel},
    {.name = "InvertPermutation", .inputs = "x: T", .outputs = "y: T", .attrs = "T: " INDEX_T,
     .shape = invert_permutation_shape, .kernel = invert_permutation_kernel},
    {.name = "ConcatOffset", .inputs = "concat_dim: int32, shape: N * shape_type",
     .outputs = "offset: N * shape_type", .attrs = "N: int >= 2; shape_type: " INDEX_T,
     .shape = concat_offset_shape, .kernel = concat_offset_kernel},
    {.name = "ConcatV2", .inputs = "values: N * T, axis: Tidx", .outputs = "output: T",
     .attrs = "N: int >= 2; T: type; Tidx: " INDEX_T, .shape = concat_shape,
     .kernel = concat_kernel},
    {.name = "Pack", .inputs = "values: N * T", .outputs = "output: T",
     .attrs = "N: int >= 1; T: type; axis: int = 0", .shape = pack_shape, .kernel = pack_kernel},
    {.name = "Unpack", .inputs = "value: T", .outputs = "output: num * T",
     .attrs = "num: int >= 0; T: type; axis: int = 0", .shape = unpack_shape,
     .kernel = unpack_kernel},
    {.name = "Split", .inputs = "split_dim: int32, value: T", .outputs = "output: num_split * T",
     .attrs = "num_split: int >= 1; T: type", .shape = split_shape, .kernel = split_kernel},
    {.name = "SplitV", .inputs = "value: T, size_splits: Tlen, split_dim: int32",
     .outputs = "output: num_split * T",
     .attrs = "num_split: int >= 1; T: type; Tlen: {int8, int32, int64} = DT_INT64",
     .shape = splitv_shape, .kernel = splitv_kernel},
    {.name = "Tile", .inputs = "input: T, multiples: Tmultiples", .outputs = "output: T",
     .attrs = "T: type; Tmultiples: " INDEX_T, .shape = tile_shape, .kernel = tile_kernel},
    {.name = "Fill", .inputs = "dims: index_type, value: T", .outputs = "output: T",
     .attrs = "T: type; index_type: " INDEX_T, .shape = fill_shape, .kernel = fill_kernel},
    {.name = "ZerosLike", .inputs = "x: T", .outputs = "y: T", .attrs = "T: type",
     .shape = mt_unchanged_shape, .kernel = zeros_like_kernel},
    {.name = "OnesLike", .inputs = "x: T", .outputs = "y: T",
     .attrs = "T: {bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, "
              "int64, uint64, complex64, complex128, bool}",
     .shape = mt_unchanged_shape, .kernel = ones_like_kernel},
    {.name = "Range", .inputs = "start: Tidx, limit: Tidx, delta: Tidx", .outputs = "output: Tidx",
     .attrs = "Tidx: {bfloat16, half, float, double, int8, int16, int32, int64, uint16, uint32, "
              "uint64} = DT_INT32",
     .shape = range_shape, .kernel = range_kernel},
    {.name = "BroadcastTo", .inputs = "input: T, shape: Tidx", .outputs = "output: T",
     .attrs = "T: type; Tidx: " INDEX_T, .shape = broadcast_to_shape,
     .kernel = broadcast_to_kernel},
    {.name = "BroadcastArgs", .inputs = "s0: T, s1: T", .outputs = "r0: T",
     .attrs = "T: " INDEX_T, .shape = broadcast_args_shape, .kernel = broadcast_args_kernel},
    {.name = "ReverseV2", .inputs = "tensor: T, axis: Tidx", .outputs = "output: T",
     .attrs = "Tidx: " INDEX_T "; T: {uint8, int8, uint16, int16, int32, uint32, int64, uint64, "
              "bool, bfloat16, half, float, double, complex64, complex128, string}",
     .shape = reverse_shape, .kernel = reverse_kernel},
    {.name = "Bitcast", .inputs = "input: T", .outputs = "output: type",
     .attrs = "T: {bfloat16, half, float, double, int64, int32, uint8, uint16, uint32, uint64, "
              "int8, int16, complex64, complex128, qint8, quint8, qint16, quint16, qint32}; "
              "type: {bfloat16, half, float, double, int64, int32, uint8, uint16, uint32, "
              "uint64, int8, int16, complex64, complex128, qint8, quint8, qint16, quint16, "
              "qint32}",
     .shape = bitcast_shape, .kernel = bitcast_kernel},
    {.name = "Unique", .inputs = "x: T", .outputs = "y: T, idx: out_idx",
     .attrs = "T: type; out_idx: " INDEX_T, .shape = unique_shape, .kernel = unique_kernel},
    {.name = "ListDiff", .inputs = "x: T, y: T", .outputs = "out: T, idx: out_idx",
     .attrs = "T: type; out_idx: " INDEX_T, .shape = vectors_shape, .kernel = list_diff_kernel},
};

void mt_register_array_ops(void) {
  mt_register_ops(array_specs, (int)(sizeof array_specs / sizeof array_specs[0]));
}
