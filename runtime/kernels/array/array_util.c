/* Helpers of the array family (array_util.h): element moves, shape-function
 * and kernel-side shape helpers, as TensorFlow's InferenceContext and
 * TensorShapeUtils behave. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/array/array_util.h"

/* ======================================================================
 * Moving elements of any dtype
 * ====================================================================== */

/* Copies n elements; string elements of dst (a fresh tensor's, so empty)
 * get deep copies. */
void ar_copy_elems(TF_DataType dt, void* dst, const void* src, int64_t n) {
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
void ar_fill_elems(TF_DataType dt, void* dst, const void* value, int64_t n) {
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


/* Drops size-1 dims and merges neighbours that are also neighbours in the
 * input, so a transpose of NHWC->NCHW becomes a 3-D [N, C, HW] gather and
 * a plain copy a single memcpy. */
void ar_gather_init(gather_plan* p, TF_DataType dt, const void* in, void* out, int nd,
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
void ar_gather_run(mt_kernel_ctx* ctx, gather_plan* p) {
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
void ar_row_major_strides(const int64_t* dims, int nd, int64_t* str) {
  int64_t s = 1;
  for (int d = nd - 1; d >= 0; d--) {
    str[d] = s;
    s *= dims[d];
  }
}


static void concat_rows(int64_t begin, int64_t end, void* arg) {
  const concat_plan* p = arg;
  for (int64_t o = begin; o < end; o++) {
    int64_t at = o * p->row;
    for (int k = 0; k < p->n; k++) {
      char* part = p->parts[k] + o * p->chunk[k] * (int64_t)p->es;
      char* w = p->whole + at * (int64_t)p->es;
      if (p->split) ar_copy_elems(p->dt, part, w, p->chunk[k]);
      else ar_copy_elems(p->dt, w, part, p->chunk[k]);
      at += p->chunk[k];
    }
  }
}

void ar_concat_run(mt_kernel_ctx* ctx, concat_plan* p, int64_t outer) {
  if (outer <= 0 || p->row <= 0) return;
  mt_parallel_for(ctx, outer, p->row + 8, concat_rows, p);
}

/* ======================================================================
 * Shape-function helpers (TensorFlow's InferenceContext behaviour)
 * ====================================================================== */

void ar_unknown_of_rank(mt_shape* s, int rank) {
  s->rank = rank;
  for (int d = 0; d < rank; d++) s->dims[d] = -1;
}

/* TensorFlow's shape Merge, with its message naming both shapes. */
int ar_merge_shapes(mt_shape_ctx* ctx, const mt_shape* a, const mt_shape* b, mt_shape* out) {
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
int ar_dim_with_value(mt_shape_ctx* ctx, int64_t dim, int64_t value) {
  if (dim < 0 || dim == value) return 1;
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension must be %lld but is %lld",
                 (long long)value, (long long)dim);
  return 0;
}

/* InferenceContext::MakeShapeFromShapeTensor: the shape that 1-D shape
 * tensor input idx describes, as far as known (-1 = unknown dim). */
int ar_shape_from_shape_tensor(mt_shape_ctx* ctx, int idx, mt_shape* out) {
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
    ar_unknown_of_rank(out, (int)st->dims[0]);
  } else {
    *out = mt_shape_unknown();
  }
  return 1;
}

/* A scalar integer input's value: 1 if known (into *v), 0 if not. */
int ar_scalar_input(const mt_shape_ctx* ctx, int idx, int64_t* v) {
  int64_t buf[1];
  if (mt_shape_input_as_ints(ctx, idx, buf, 1) != 1) return 0;
  *v = buf[0];
  return 1;
}

/* InferenceContext::MakeDimForScalarInputWithNegativeIndexing: the axis in
 * input idx, wrapped by `rank`; -1 when unknown. 0 + status when out of
 * range. */
int ar_axis_dim(mt_shape_ctx* ctx, int idx, int rank, int64_t* out) {
  int64_t v;
  *out = -1;
  if (!ar_scalar_input(ctx, idx, &v)) return 1;
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
int ar_multiply_dims(mt_shape_ctx* ctx, int64_t a, int64_t b, int64_t* out) {
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
int ar_kernel_shape_from_tensor(mt_kernel_ctx* ctx, const TF_Tensor* t, const char* what,
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
int64_t ar_first_int(const TF_Tensor* t) {
  int64_t v = 0;
  mt_tensor_ints(t, &v, 1);
  return v;
}
