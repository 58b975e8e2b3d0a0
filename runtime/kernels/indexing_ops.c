/* Indexing ops: Slice, StridedSlice, GatherV2, GatherNd, ScatterNd, OneHot,
 * Where, Pad, PadV2, MirrorPad, and the gradient kernels StridedSliceGrad and
 * MirrorPadGrad. Signatures, shape functions and error
 * messages are TensorFlow 2.21's (array_ops.cc and the CPU kernels); the
 * kernels move elements by size, so they serve every dtype TensorFlow
 * registers (strings deep-copied). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/half.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/move_util.h"

/* ---- shared helpers ---- */

/* TensorFlow's InferenceContext::Merge of two shapes, with its wording. */
static int merge_shapes(TF_Status* st, const mt_shape* a, const mt_shape* b, mt_shape* out) {
  if (a->rank < 0) {
    *out = *b;
    return 1;
  }
  if (b->rank < 0) {
    *out = *a;
    return 1;
  }
  if (a->rank != b->rank) {
    mt_status_setf(st, TF_INVALID_ARGUMENT, "Shapes must be equal rank, but are %d and %d",
                   a->rank, b->rank);
    return 0;
  }
  mt_shape r = *a;
  for (int d = 0; d < a->rank; d++) {
    if (a->dims[d] >= 0 && b->dims[d] >= 0 && a->dims[d] != b->dims[d]) {
      char x[256], y[256];
      mt_status_setf(st, TF_INVALID_ARGUMENT,
                     "Dimension %d in both shapes must be equal, but are %lld and %lld. "
                     "Shapes are %s and %s.",
                     d, (long long)a->dims[d], (long long)b->dims[d],
                     mt_shape_str(a, x, sizeof x), mt_shape_str(b, y, sizeof y));
      return 0;
    }
    if (r.dims[d] < 0) r.dims[d] = b->dims[d];
  }
  *out = r;
  return 1;
}

/* Unknown dims of a known rank. */
static mt_shape unknown_of_rank(int rank) {
  mt_shape s;
  s.rank = rank;
  for (int d = 0; d < rank && d < MT_MAX_DIMS; d++) s.dims[d] = -1;
  return s;
}

/* TensorFlow's MakeShapeFromShapeTensor for input idx: the values when
 * constant (-1 = unknown dim), else unknown dims of the vector's length. */
static int shape_from_shape_tensor(mt_shape_ctx* ctx, int idx, mt_shape* out) {
  int64_t v[MT_MAX_DIMS];
  const int n = mt_shape_input_as_ints(ctx, idx, v, MT_MAX_DIMS);
  const mt_shape* s = &ctx->in[idx];
  if (n >= 0 && n <= MT_MAX_DIMS && s->rank == 1) {
    out->rank = n;
    for (int d = 0; d < n; d++) {
      if (v[d] < -1) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "Dimension %d must be >= -1, but got %lld", d, (long long)v[d]);
        return 0;
      }
      out->dims[d] = v[d];
    }
    return 1;
  }
  if (s->rank == 0) { /* a scalar -1 means unknown rank */
    *out = mt_shape_unknown();
    return 1;
  }
  if (s->rank == 1 && s->dims[0] >= 0 && s->dims[0] <= MT_MAX_DIMS) {
    *out = unknown_of_rank((int)s->dims[0]);
    return 1;
  }
  *out = mt_shape_unknown();
  return 1;
}

/* "[1,2]"-style index of flat position i in dims (TF's SliceDebugString). */
static const char* index_str(const int64_t* dims, int n, int64_t i, char* buf, size_t cap) {
  int64_t idx[MT_MAX_DIMS];
  for (int d = n - 1; d >= 0; d--) {
    idx[d] = dims[d] ? i % dims[d] : 0;
    i = dims[d] ? i / dims[d] : 0;
  }
  return mt_dims_str(idx, n, buf, cap);
}

/* Fails with the no-kernel message for dtypes without a fixed size. */
static int check_movable(mt_kernel_ctx* ctx, const char* attr, TF_DataType dt) {
  if (mv_esize(dt)) return 1;
  mt_kernel_unsupported(ctx, attr, dt);
  return 0;
}

/* Moves elements between the box of `boxed` starting at begin[d], stepping
 * step[d], with counts[d] elements per dim (rank boxed->ndims), and the dense
 * tensor `dense` (same element count): into the box when into_box, else out
 * of it. Innermost runs with step 1 move contiguously. */
static void box_move(TF_Tensor* boxed, TF_Tensor* dense, const int64_t* begin,
                     const int64_t* step, const int64_t* counts, int into_box) {
  const int n = boxed->ndims;
  int64_t total = 1;
  for (int d = 0; d < n; d++) total *= counts[d];
  if (total == 0) return;
  if (n == 0) {
    if (into_box) mv_copy(boxed, 0, dense, 0, 1);
    else mv_copy(dense, 0, boxed, 0, 1);
    return;
  }
  int64_t istr[MT_MAX_DIMS], idx[MT_MAX_DIMS] = {0};
  mv_strides(boxed->dims, n, istr);
  const int64_t inner = counts[n - 1], s = step[n - 1];
  int64_t o = 0;
  do {
    int64_t off = 0;
    for (int d = 0; d < n - 1; d++) off += (begin[d] + idx[d] * step[d]) * istr[d];
    off += begin[n - 1] * istr[n - 1];
    if (s == 1 && into_box) {
      mv_copy(boxed, off, dense, o, inner);
    } else if (s == 1) {
      mv_copy(dense, o, boxed, off, inner);
    } else {
      for (int64_t k = 0; k < inner; k++) {
        if (into_box) mv_copy(boxed, off + k * s, dense, o + k, 1);
        else mv_copy(dense, o + k, boxed, off + k * s, 1);
      }
    }
    o += inner;
  } while (mv_next(idx, counts, n - 1));
}

/* Copies the box of `in` (see box_move) into out (dense). */
static void box_copy(TF_Tensor* out, const TF_Tensor* in, const int64_t* begin,
                     const int64_t* step, const int64_t* counts) {
  box_move((TF_Tensor*)in, out, begin, step, counts, 0);
}

/* ---- Slice ---- */

static void slice_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 1, 1) || !mt_shape_with_rank(ctx, 2, 1)) return;
  mt_shape bs;
  if (!merge_shapes(ctx->status, &ctx->in[1], &ctx->in[2], &bs)) return;
  const mt_shape* in = &ctx->in[0];
  if (bs.rank == 1 && bs.dims[0] >= 0 && !mt_shape_with_rank(ctx, 0, (int)bs.dims[0])) return;
  mt_shape begin;
  if (!shape_from_shape_tensor(ctx, 1, &begin)) return;
  int64_t sizes[MT_MAX_DIMS];
  const int ns = mt_shape_input_as_ints(ctx, 2, sizes, MT_MAX_DIMS);
  mt_shape* out = &ctx->out[0];
  if (ns >= 0 && ns <= MT_MAX_DIMS) {
    if (begin.rank >= 0 && begin.rank != ns) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be rank %d but is rank %d",
                     ns, begin.rank);
      return;
    }
    out->rank = ns;
    for (int i = 0; i < ns; i++) {
      const int64_t dim = in->rank > i ? in->dims[i] : -1;
      if (sizes[i] != -1) {
        if (sizes[i] < 0) {
          mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                         "Out of bounds slicing on dimension %d of length %lld: sizes vector "
                         "cannot be < -1, but was %lld",
                         i, (long long)dim, (long long)sizes[i]);
          return;
        }
        out->dims[i] = sizes[i];
      } else {
        const int64_t b = begin.rank > i ? begin.dims[i] : -1;
        if (dim < 0 || b < 0) {
          out->dims[i] = -1;
        } else if (dim < b) {
          mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                         "Negative dimension size caused by subtracting %lld from %lld",
                         (long long)b, (long long)dim);
          return;
        } else {
          out->dims[i] = dim - b;
        }
      }
    }
    return;
  }
  mt_shape sz;
  if (!shape_from_shape_tensor(ctx, 2, &sz)) return;
  if (sz.rank >= 0) {
    *out = unknown_of_rank(sz.rank);
    return;
  }
  *out = in->rank >= 0 ? unknown_of_rank(in->rank) : mt_shape_unknown();
}

static void slice_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_Tensor* bt = ctx->inputs[1];
  const TF_Tensor* st = ctx->inputs[2];
  if (!check_movable(ctx, "T", in->dtype)) return;
  const int r = in->ndims;
  if (bt->ndims != 1 || st->ndims != 1 || bt->dims[0] != r || st->dims[0] != r) {
    char a[256], b[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected begin and size arguments to be 1-D tensors of size %d, but got "
                   "shapes %s and %s instead.",
                   r, mt_dims_str(bt->dims, bt->ndims, a, sizeof a),
                   mt_dims_str(st->dims, st->ndims, b, sizeof b));
    return;
  }
  int64_t begin[MT_MAX_DIMS], size[MT_MAX_DIMS], step[MT_MAX_DIMS];
  mt_tensor_ints(bt, begin, MT_MAX_DIMS);
  mt_tensor_ints(st, size, MT_MAX_DIMS);
  for (int i = 0; i < r; i++) {
    const int64_t b = begin[i], dim = in->dims[i];
    int64_t s = size[i];
    if (s == -1) s = dim - b;
    if (b < 0 || b > dim) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Expected begin[%d] in [0, %lld], but got %lld", i, (long long)dim,
                     (long long)b);
      return;
    }
    if (s < 0 || s > dim - b) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Expected size[%d] in [0, %lld], but got %lld", i, (long long)(dim - b),
                     (long long)s);
      return;
    }
    size[i] = s;
    step[i] = 1;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, size, r);
  if (!out) return;
  box_copy(out, in, begin, step, size);
}

/* ---- StridedSlice ---- */

enum { kNewAxis = -1, kShrinkAxis = -2 };

/* The canonical (dense) slice: one entry per input dim, and how the final
 * shape gathers the processing shape (TensorFlow's ValidateStridedSliceOp). */
typedef struct ss_plan {
  int rank; /* input rank */
  int64_t begin[MT_MAX_DIMS], end[MT_MAX_DIMS], stride[MT_MAX_DIMS];
  int64_t proc[MT_MAX_DIMS]; /* processing shape; -1 unknown */
  int nfinal;
  int64_t final[MT_MAX_DIMS];
} ss_plan;

typedef struct ss_spec {
  int n; /* sparse length */
  const int64_t *begin, *end, *stride; /* begin/end may be NULL (unknown) */
  int64_t begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask;
} ss_spec;

static int64_t ss_canonical(int64_t x, int masked, int c, int64_t stride, int64_t dim) {
  const int64_t lo = stride > 0 ? 0 : -1, hi = stride > 0 ? dim : dim - 1;
  if (masked) return stride > 0 ? (c == 0 ? lo : hi) : (c == 0 ? hi : lo);
  const int64_t fwd = x < 0 ? dim + x : x;
  return fwd < lo ? lo : (fwd > hi ? hi : fwd);
}

/* Builds the plan for input dims `in` (-1 = unknown, rank known). */
static int ss_build(const ss_spec* sp, const int64_t* in, int rank, ss_plan* p, TF_Status* st) {
  if (sp->ellipsis_mask & (sp->ellipsis_mask - 1)) {
    mt_status_setf(st, TF_INVALID_ARGUMENT, "Multiple ellipses in slice spec not allowed");
    return 0;
  }
  int sdims = sp->n, found = 0, add_after = 0;
  int64_t ell = sp->ellipsis_mask;
  for (int i = 0; i < sdims; i++) {
    if (found && ((1LL << i) & sp->new_axis_mask)) add_after++;
    if ((1LL << i) & ell) found = 1;
  }
  if (!found) ell |= 1LL << sdims++;
  int64_t bmask = 0, emask = 0, smask = 0;
  int gather[2 * MT_MAX_DIMS + 2];
  int ng = 0, full = 0;
  p->rank = rank;
  for (int d = 0; d < rank; d++) {
    p->begin[d] = p->end[d] = 0;
    p->stride[d] = 1;
  }
  for (int i = 0; i < sdims; i++) {
    if (ng >= (int)(sizeof gather / sizeof gather[0]) - 1) {
      mt_status_setf(st, TF_INVALID_ARGUMENT, "Requested more than %d dimensions", MT_MAX_DIMS);
      return 0;
    }
    if ((1LL << i) & ell) {
      int next = rank - (sdims - i) + 1 + add_after;
      if (next > rank) next = rank;
      for (; full < next; full++) {
        p->begin[full] = p->end[full] = 0;
        p->stride[full] = 1;
        bmask |= 1LL << full;
        emask |= 1LL << full;
        gather[ng++] = full;
      }
    } else if ((1LL << i) & sp->new_axis_mask) {
      gather[ng++] = kNewAxis;
    } else {
      if (full == rank) {
        if (rank == 0) mt_status_setf(st, TF_INVALID_ARGUMENT, "Attempting to slice scalar input.");
        else
          mt_status_setf(st, TF_INVALID_ARGUMENT,
                         "Index out of range using input dim %d; input has only %d dims", full,
                         rank);
        return 0;
      }
      if (sp->begin) p->begin[full] = sp->begin[i];
      if (sp->end) p->end[full] = sp->end[i];
      p->stride[full] = sp->stride[i];
      if (sp->begin_mask & (1LL << i)) bmask |= 1LL << full;
      if (sp->end_mask & (1LL << i)) emask |= 1LL << full;
      if (sp->shrink_axis_mask & (1LL << i)) {
        gather[ng++] = kShrinkAxis;
        smask |= 1LL << full;
      } else {
        gather[ng++] = full;
      }
      full++;
    }
  }
  const int known = sp->begin && sp->end;
  for (int i = 0; i < rank; i++) {
    int64_t *b = &p->begin[i], *e = &p->end[i];
    const int64_t s = p->stride[i], dim = in[i];
    if (s == 0) {
      mt_status_setf(st, TF_INVALID_ARGUMENT, "strides[%d] must be non-zero", i);
      return 0;
    }
    const int shrink = (smask >> i) & 1;
    if (dim == -1) {
      p->proc[i] = shrink ? 1 : -1;
      continue;
    }
    const int bm = (bmask >> i) & 1, em = (emask >> i) & 1;
    if (known) {
      if (shrink) {
        const int64_t fwd = *b < 0 ? dim + *b : *b;
        if (fwd < 0 || fwd >= dim) {
          mt_status_setf(st, TF_INVALID_ARGUMENT,
                         "slice index %lld of dimension %d out of bounds.", (long long)*b, i);
          return 0;
        }
        *b = fwd;
        *e = fwd + 1;
      } else {
        *b = ss_canonical(*b, bm, 0, s, dim);
        *e = ss_canonical(*e, em, 1, s, dim);
      }
    }
    int64_t len = 0;
    int have = 0;
    if (known) {
      len = *e - *b;
      have = 1;
    } else if (shrink) {
      len = 1;
      have = 1;
    } else if (bm && em) {
      len = s < 0 ? -dim : dim;
      have = 1;
    }
    if (!have) {
      p->proc[i] = -1;
    } else if (len == 0 || ((len < 0) != (s < 0))) {
      p->proc[i] = 0;
    } else {
      p->proc[i] = len / s + (len % s != 0 ? 1 : 0);
    }
  }
  p->nfinal = 0;
  for (int g = 0; g < ng; g++) {
    if (gather[g] == kShrinkAxis) continue;
    if (p->nfinal >= MT_MAX_DIMS) {
      mt_status_setf(st, TF_INVALID_ARGUMENT, "Requested more than %d dimensions", MT_MAX_DIMS);
      return 0;
    }
    p->final[p->nfinal++] = gather[g] >= 0 ? p->proc[gather[g]] : 1;
  }
  return 1;
}

static void ss_masks(const TF_Operation* op, ss_spec* sp) {
  /* TensorFlow reads the masks as int32. */
  sp->begin_mask = (int32_t)mt_op_attr_int(op, "begin_mask", 0);
  sp->end_mask = (int32_t)mt_op_attr_int(op, "end_mask", 0);
  sp->ellipsis_mask = (uint32_t)(int32_t)mt_op_attr_int(op, "ellipsis_mask", 0);
  sp->new_axis_mask = (int32_t)mt_op_attr_int(op, "new_axis_mask", 0);
  sp->shrink_axis_mask = (int32_t)mt_op_attr_int(op, "shrink_axis_mask", 0);
}

static void strided_slice_shape(mt_shape_ctx* ctx) {
  for (int i = 1; i <= 3; i++)
    if (!mt_shape_with_rank(ctx, i, 1)) return;
  mt_shape bs;
  if (!merge_shapes(ctx->status, &ctx->in[1], &ctx->in[2], &bs)) return;
  if (!merge_shapes(ctx->status, &bs, &ctx->in[3], &bs)) return;
  const mt_shape* in = &ctx->in[0];
  int64_t b[32], e[32], s[32];
  const int ns = mt_shape_input_as_ints(ctx, 3, s, 32);
  if (in->rank < 0 || bs.rank != 1 || bs.dims[0] < 0 || ns < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  if (ns >= 32) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected begin, end, and strides to be 1D equal size tensors");
    return;
  }
  ss_spec sp = {.n = ns, .stride = s};
  const int nb = mt_shape_input_as_ints(ctx, 1, b, 32);
  const int ne = mt_shape_input_as_ints(ctx, 2, e, 32);
  sp.begin = nb == ns ? b : NULL;
  sp.end = ne == ns ? e : NULL;
  ss_masks(ctx->op, &sp);
  ss_plan p;
  if (!ss_build(&sp, in->dims, in->rank, &p, ctx->status)) return;
  ctx->out[0] = mt_shape_make(p.final, p.nfinal);
}

/* Reads the begin/end/strides vectors of a strided slice (inputs first..+2). */
static int ss_read_spec(mt_kernel_ctx* ctx, int first, int64_t* b, int64_t* e, int64_t* s,
                        ss_spec* sp) {
  const TF_Tensor *bt = ctx->inputs[first], *et = ctx->inputs[first + 1];
  const TF_Tensor* st = ctx->inputs[first + 2];
  const int64_t n = st->ndims == 1 ? st->dims[0] : -1;
  if (bt->ndims != 1 || et->ndims != 1 || st->ndims != 1 || bt->dims[0] != n ||
      et->dims[0] != n || n >= 32) {
    char x[256], y[256], z[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected begin, end, and strides to be 1D equal size tensors, but got "
                   "shapes %s, %s, and %s instead.",
                   mt_dims_str(bt->dims, bt->ndims, x, sizeof x),
                   mt_dims_str(et->dims, et->ndims, y, sizeof y),
                   mt_dims_str(st->dims, st->ndims, z, sizeof z));
    return 0;
  }
  mt_tensor_ints(bt, b, 32);
  mt_tensor_ints(et, e, 32);
  mt_tensor_ints(st, s, 32);
  *sp = (ss_spec){.n = (int)n, .begin = b, .end = e, .stride = s};
  ss_masks(ctx->op, sp);
  return 1;
}

static void strided_slice_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  if (!check_movable(ctx, "T", in->dtype)) return;
  int64_t b[32], e[32], s[32];
  ss_spec sp;
  ss_plan p;
  if (!ss_read_spec(ctx, 1, b, e, s, &sp) || !ss_build(&sp, in->dims, in->ndims, &p, ctx->status))
    return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, p.final, p.nfinal);
  if (!out) return;
  box_copy(out, in, p.begin, p.stride, p.proc);
}

/* ---- StridedSliceGrad ---- */

/* The input's shape from the `shape` input (TensorFlow's
 * MakeShapeFromShapeTensor). */
static void strided_slice_grad_shape(mt_shape_ctx* ctx) {
  mt_shape out;
  if (mt_shape_input_as_shape(ctx, 0, &out)) {
    ctx->out[0] = out;
    return;
  }
  if (shape_from_shape_tensor(ctx, 0, &out)) ctx->out[0] = out;
}

/* The gradient of StridedSlice: zeros of `shape` with dy written into the
 * slice's positions. */
static void strided_slice_grad_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor *sh = ctx->inputs[0], *dy = ctx->inputs[4];
  if (!check_movable(ctx, "T", dy->dtype)) return;
  char a[256], b[256];
  if (sh->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "shape must be 1-D, got shape.shape = %s",
                   mt_dims_str(sh->dims, sh->ndims, a, sizeof a));
    return;
  }
  if (sh->dims[0] > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape has more than %d dims", MT_MAX_DIMS);
    return;
  }
  int64_t dims[MT_MAX_DIMS];
  const int rank = (int)sh->dims[0];
  mt_tensor_ints(sh, dims, MT_MAX_DIMS);
  for (int d = 0; d < rank; d++) {
    if (dims[d] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                     (long long)dims[d]);
      return;
    }
  }
  if (mt_num_elements(dims, rank) < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape %s is too large",
                   mt_dims_str(dims, rank, a, sizeof a));
    return;
  }
  int64_t bv[32], ev[32], sv[32];
  ss_spec sp;
  ss_plan p;
  if (!ss_read_spec(ctx, 1, bv, ev, sv, &sp) || !ss_build(&sp, dims, rank, &p, ctx->status))
    return;
  int same = dy->ndims == p.nfinal;
  for (int d = 0; same && d < p.nfinal; d++) same = dy->dims[d] == p.final[d];
  if (!same) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "shape of dy was %s instead of %s",
                   mt_dims_str(dy->dims, dy->ndims, a, sizeof a),
                   mt_dims_str(p.final, p.nfinal, b, sizeof b));
    return;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, dy->dtype, dims, rank);
  if (!out) return;
  mv_zero(out, 0, mt_tensor_nelems(out));
  box_move(out, (TF_Tensor*)dy, p.begin, p.stride, p.proc, 1);
}

/* ---- GatherV2 ---- */

static void gather_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank_at_least(ctx, 0, 1) || !mt_shape_with_rank(ctx, 2, 0)) return;
  const mt_shape *params = &ctx->in[0], *indices = &ctx->in[1];
  int64_t batch_dims = mt_op_attr_int(ctx->op, "batch_dims", 0);
  int64_t axis;
  if (mt_shape_input_as_ints(ctx, 2, &axis, 1) != 1) {
    if (params->rank >= 0 && indices->rank >= 0) {
      const int64_t r = params->rank + indices->rank - 1 - batch_dims;
      ctx->out[0] = r >= 0 && r <= MT_MAX_DIMS ? unknown_of_rank((int)r) : mt_shape_unknown();
    } else {
      ctx->out[0] = mt_shape_unknown();
    }
    return;
  }
  if (axis < -(MT_MAX_DIMS + 1) || axis > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Invalid axis %lld for params of rank %d",
                   (long long)axis, params->rank);
    return;
  }
  if (batch_dims < -(MT_MAX_DIMS + 1) || batch_dims > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Invalid batch_dims %lld",
                   (long long)batch_dims);
    return;
  }
  const int64_t need = axis < 0 ? -axis : axis + 1;
  if (need > MT_MAX_DIMS + 1 || !mt_shape_with_rank_at_least(ctx, 0, (int)need)) {
    if (mt_ok(ctx->status))
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Invalid axis %lld", (long long)axis);
    return;
  }
  const int64_t abs_bd = batch_dims < 0 ? -batch_dims : batch_dims;
  if (abs_bd > MT_MAX_DIMS || !mt_shape_with_rank_at_least(ctx, 1, (int)abs_bd)) {
    if (mt_ok(ctx->status))
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Invalid batch_dims %lld",
                     (long long)batch_dims);
    return;
  }
  if (params->rank < 0 || indices->rank < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  if (batch_dims < 0) batch_dims += indices->rank;
  if (!mt_shape_with_rank_at_least(ctx, 0, (int)batch_dims + 1)) return;
  if (axis < 0) axis += params->rank;
  mt_shape out;
  out.rank = 0;
  for (int d = 0; d < axis; d++) out.dims[out.rank++] = params->dims[d];
  for (int d = (int)batch_dims; d < indices->rank && out.rank < MT_MAX_DIMS; d++)
    out.dims[out.rank++] = indices->dims[d];
  for (int d = (int)axis + 1; d < params->rank && out.rank < MT_MAX_DIMS; d++)
    out.dims[out.rank++] = params->dims[d];
  if (axis + indices->rank - batch_dims + params->rank - axis - 1 > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Gather result has more than %d dims",
                   MT_MAX_DIMS);
    return;
  }
  ctx->out[0] = out;
}

static void gather_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor *params = ctx->inputs[0], *indices = ctx->inputs[1], *at = ctx->inputs[2];
  if (!check_movable(ctx, "Tparams", params->dtype)) return;
  char buf[256];
  if (at->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "axis must be scalar, but got %s",
                   mt_dims_str(at->dims, at->ndims, buf, sizeof buf));
    return;
  }
  int64_t axis = mv_int_at(at, 0);
  const int pr = params->ndims, ir = indices->ndims;
  /* TensorFlow re-runs shape inference with the fed axis first: its words. */
  if (pr < 1 || axis < -pr || axis >= pr) {
    const int64_t need = pr < 1 ? 1 : axis < 0 ? (axis < -INT64_MAX ? INT64_MAX : -axis)
                                                : (axis == INT64_MAX ? INT64_MAX : axis + 1);
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Shape must be at least rank %lld but is rank %d", (long long)need, pr);
    return;
  }
  if (axis < 0) axis += pr;
  int64_t bd = mt_op_attr_int(ctx->op, "batch_dims", 0);
  if (bd != 0) {
    if (bd < -ir || bd >= (ir > 0 ? ir : 1)) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Expected batch_dims in the range [%d, %d), but got %lld", -ir, ir,
                     (long long)bd);
      return;
    }
    if (bd < 0) bd += ir;
    if (bd >= pr) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "batch_dims (%lld) must be less than rank(params) (%d).", (long long)bd, pr);
      return;
    }
    if (axis < bd) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "batch_dims (%lld) must be less than or equal to axis (%lld).",
                     (long long)bd, (long long)axis);
      return;
    }
    for (int d = 0; d < bd; d++) {
      if (params->dims[d] != indices->dims[d]) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "params.shape[%d]: %lld should be equal to indices.shape[%d]: %lld", d,
                       (long long)params->dims[d], d, (long long)indices->dims[d]);
        return;
      }
    }
  }
  if (pr + ir - 1 - bd > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Gather result has more than %d dims",
                   MT_MAX_DIMS);
    return;
  }
  int64_t odims[MT_MAX_DIMS];
  int orank = 0;
  int64_t batch = 1, outer = 1, inner = 1, nidx = 1;
  for (int d = 0; d < axis; d++) {
    odims[orank++] = params->dims[d];
    if (d < bd) batch *= params->dims[d];
    else outer *= params->dims[d];
  }
  for (int d = (int)bd; d < ir; d++) {
    odims[orank++] = indices->dims[d];
    nidx *= indices->dims[d];
  }
  for (int d = (int)axis + 1; d < pr; d++) {
    odims[orank++] = params->dims[d];
    inner *= params->dims[d];
  }
  const int64_t limit = params->dims[axis];
  const int64_t total_idx = mt_tensor_nelems(indices);
  for (int64_t i = 0; i < total_idx; i++) {
    const int64_t v = mv_int_at(indices, i);
    if (v < 0 || v >= limit) {
      char pos[256];
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "indices%s = %lld is not in [0, %lld)",
                     index_str(indices->dims, ir, i, pos, sizeof pos), (long long)v,
                     (long long)limit);
      return;
    }
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, params->dtype, odims, orank);
  if (!out || mt_tensor_nelems(out) == 0) return;
  int64_t o = 0;
  for (int64_t b = 0; b < batch; b++)
    for (int64_t q = 0; q < outer; q++)
      for (int64_t i = 0; i < nidx; i++) {
        const int64_t v = mv_int_at(indices, b * nidx + i);
        mv_copy(out, o, params, ((b * outer + q) * limit + v) * inner, inner);
        o += inner;
      }
}

/* ---- GatherNd ---- */

static void gather_nd_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank_at_least(ctx, 1, 1)) return;
  const mt_shape *params = &ctx->in[0], *indices = &ctx->in[1];
  if (params->rank < 0 || indices->rank < 0 || indices->dims[indices->rank - 1] < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  const int64_t nd = indices->dims[indices->rank - 1];
  if (nd > params->rank) {
    char a[256], b[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "indices.shape[-1] must be <= params.rank, but saw indices shape: %s and "
                   "params shape: %s",
                   mt_shape_str(indices, a, sizeof a), mt_shape_str(params, b, sizeof b));
    return;
  }
  mt_shape out;
  out.rank = 0;
  for (int d = 0; d < indices->rank - 1; d++) out.dims[out.rank++] = indices->dims[d];
  for (int d = (int)nd; d < params->rank; d++) {
    if (out.rank >= MT_MAX_DIMS) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "GatherNd result has more than %d dims",
                     MT_MAX_DIMS);
      return;
    }
    out.dims[out.rank++] = params->dims[d];
  }
  ctx->out[0] = out;
}

/* Flat offsets (in slices of `inner` elements) of each index row of a
 * [rows, nd] index matrix into dims[0..nd); -1 + the bad row on error. */
static int64_t nd_offsets(const TF_Tensor* indices, int64_t rows, int nd, const int64_t* dims,
                          int64_t* offs) {
  for (int64_t r = 0; r < rows; r++) {
    int64_t off = 0;
    for (int k = 0; k < nd; k++) {
      const int64_t v = mv_int_at(indices, r * nd + k);
      if (v < 0 || v >= dims[k]) return r;
      off = off * dims[k] + v;
    }
    offs[r] = off;
  }
  return -1;
}

/* "[1, 4]" of index row r. */
static const char* index_row_str(const TF_Tensor* indices, int64_t r, int nd, char* buf,
                                 size_t cap) {
  size_t at = (size_t)snprintf(buf, cap, "[");
  for (int k = 0; k < nd && at < cap; k++)
    at += (size_t)snprintf(buf + at, cap - at, k ? ", %lld" : "%lld",
                           (long long)mv_int_at(indices, r * nd + k));
  if (at < cap) snprintf(buf + at, cap - at, "]");
  return buf;
}

static void gather_nd_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor *params = ctx->inputs[0], *indices = ctx->inputs[1];
  if (!check_movable(ctx, "Tparams", params->dtype)) return;
  char a[256], b[256], c[256];
  if (indices->ndims < 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "indices must be at least a vector");
    return;
  }
  const int64_t nd = indices->dims[indices->ndims - 1];
  if (nd > params->ndims) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "index innermost dimension length must be <= params rank; saw: %lld vs. %d",
                   (long long)nd, params->ndims);
    return;
  }
  int64_t odims[MT_MAX_DIMS];
  int orank = 0;
  int64_t rows = 1, inner = 1;
  for (int d = 0; d < indices->ndims - 1; d++) {
    odims[orank++] = indices->dims[d];
    rows *= indices->dims[d];
  }
  for (int d = (int)nd; d < params->ndims; d++) {
    if (orank >= MT_MAX_DIMS) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "GatherNd result has more than %d dims",
                     MT_MAX_DIMS);
      return;
    }
    odims[orank++] = params->dims[d];
    inner *= params->dims[d];
  }
  if (mt_tensor_nelems(params) == 0 && rows > 0 && inner > 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Requested more than 0 entries, but params is empty.  Params shape: %s",
                   mt_dims_str(params->dims, params->ndims, a, sizeof a));
    return;
  }
  int64_t* offs = mt_malloc(sizeof(int64_t) * (size_t)(rows ? rows : 1), ctx->status);
  if (!offs) return;
  const int64_t bad = nd_offsets(indices, rows, (int)nd, params->dims, offs);
  if (bad >= 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "indices%s = %s does not index into param shape %s, node name: %s",
                   index_str(indices->dims, indices->ndims - 1, bad, b, sizeof b),
                   index_row_str(indices, bad, (int)nd, a, sizeof a),
                   mt_dims_str(params->dims, params->ndims, c, sizeof c),
                   ctx->op->name);
    free(offs);
    return;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, params->dtype, odims, orank);
  if (out)
    for (int64_t r = 0; r < rows; r++) mv_copy(out, r * inner, params, offs[r] * inner, inner);
  free(offs);
}

/* ---- ScatterNd ---- */

static void scatter_nd_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank_at_least(ctx, 0, 1) || !mt_shape_with_rank_at_least(ctx, 1, 1)) return;
  const mt_shape *ind = &ctx->in[0], *upd = &ctx->in[1];
  mt_shape out;
  if (!shape_from_shape_tensor(ctx, 2, &out)) return;
  const int64_t out_n = mt_shape_nelems(&out);
  if (out.rank >= 0 && out_n == 0 &&
      (mt_shape_nelems(ind) > 0 || mt_shape_nelems(upd) > 0)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Indices and updates specified for empty input");
    return;
  }
  if (ind->rank >= 0 && upd->rank > 0 && ind->dims[ind->rank - 1] >= 0) {
    const int outer = ind->rank - 1;
    const int64_t ix = ind->dims[ind->rank - 1];
    char a[256], b[256], c[256], d[256], m[600];
    mt_shape pi = {.rank = outer}, pu = {.rank = outer}, unused;
    if (upd->rank < outer) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be at least rank %d but is rank %d",
                     outer, upd->rank);
      return;
    }
    for (int k = 0; k < outer; k++) {
      pi.dims[k] = ind->dims[k];
      pu.dims[k] = upd->dims[k];
    }
    TF_Status* tmp = TF_NewStatus();
    if (!merge_shapes(tmp, &pi, &pu, &unused)) {
      snprintf(m, sizeof m, "%s", TF_Message(tmp));
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Dimensions [0,%d) of indices[shape=%s] = %s must match dimensions [0,%d) "
                     "of updates[shape=%s] = %s: %s",
                     outer, mt_shape_str(ind, a, sizeof a), mt_shape_str(&pi, b, sizeof b), outer,
                     mt_shape_str(upd, c, sizeof c), mt_shape_str(&pu, d, sizeof d), m);
      TF_DeleteStatus(tmp);
      return;
    }
    if (out.rank >= 0) {
      mt_shape so = {.rank = 0}, su = {.rank = 0};
      for (int k = (int)ix; k < out.rank; k++) so.dims[so.rank++] = out.dims[k];
      for (int k = outer; k < upd->rank; k++) su.dims[su.rank++] = upd->dims[k];
      if (ix > out.rank || !merge_shapes(tmp, &so, &su, &unused)) {
        if (ix > out.rank) snprintf(m, sizeof m, "Subshape start out of bounds");
        else snprintf(m, sizeof m, "%s", TF_Message(tmp));
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "Dimensions [%lld,%d) of input[shape=%s] = %s must match dimensions "
                       "[%d,%d) of updates[shape=%s] = %s: %s",
                       (long long)ix, out.rank, mt_shape_str(&out, a, sizeof a),
                       mt_shape_str(&so, b, sizeof b), outer, upd->rank,
                       mt_shape_str(upd, c, sizeof c), mt_shape_str(&su, d, sizeof d), m);
        TF_DeleteStatus(tmp);
        return;
      }
    }
    TF_DeleteStatus(tmp);
  }
  ctx->out[0] = out;
}

typedef void (*scatter_add_fn)(void* out, int64_t oi, const void* upd, int64_t ui, int64_t n);
#define SCATTER_ADD_(DT, CT, UNUSED)                                                       \
  static void scatter_add_##CT(void* out, int64_t oi, const void* upd, int64_t ui,          \
                               int64_t n) {                                                 \
    typedef mt_wide_##CT W;                                                                 \
    CT* o = (CT*)out + oi;                                                                  \
    const CT* u = (const CT*)upd + ui;                                                      \
    for (int64_t i = 0; i < n; i++) o[i] = (CT)((W)o[i] + (W)u[i]);                         \
  }
MT_REAL_TYPES(SCATTER_ADD_, 0)
static void scatter_add_mt_bool(void* out, int64_t oi, const void* upd, int64_t ui, int64_t n) {
  mt_bool* o = (mt_bool*)out + oi;
  const mt_bool* u = (const mt_bool*)upd + ui;
  for (int64_t i = 0; i < n; i++) o[i] = o[i] || u[i];
}
static void scatter_add_half(void* out, int64_t oi, const void* upd, int64_t ui, int64_t n) {
  mt_half* o = (mt_half*)out + oi;
  const mt_half* u = (const mt_half*)upd + ui;
  for (int64_t i = 0; i < n; i++)
    o[i] = mt_float_to_half(mt_half_to_float(o[i]) + mt_half_to_float(u[i]));
}
static void scatter_add_bf16(void* out, int64_t oi, const void* upd, int64_t ui, int64_t n) {
  mt_bfloat16* o = (mt_bfloat16*)out + oi;
  const mt_bfloat16* u = (const mt_bfloat16*)upd + ui;
  for (int64_t i = 0; i < n; i++)
    o[i] = mt_float_to_bfloat16(mt_bfloat16_to_float(o[i]) + mt_bfloat16_to_float(u[i]));
}
/* Complex: add the float/double parts pairwise. */
static void scatter_add_c64(void* out, int64_t oi, const void* upd, int64_t ui, int64_t n) {
  scatter_add_float(out, 2 * oi, upd, 2 * ui, 2 * n);
}
static void scatter_add_c128(void* out, int64_t oi, const void* upd, int64_t ui, int64_t n) {
  scatter_add_double(out, 2 * oi, upd, 2 * ui, 2 * n);
}
/* Strings "add" by concatenation, as TensorFlow's ScatterNd does for tstring. */
static void scatter_add_string(void* out, int64_t oi, const void* upd, int64_t ui, int64_t n) {
  TF_TString* o = (TF_TString*)out + oi;
  const TF_TString* u = (const TF_TString*)upd + ui;
  for (int64_t i = 0; i < n; i++) {
    const size_t a = TF_StringGetSize(&o[i]), b = TF_StringGetSize(&u[i]);
    char* buf = malloc(a + b + 1);
    if (!buf) continue; /* out of memory for one string: it keeps its value so far */
    memcpy(buf, TF_StringGetDataPointer(&o[i]), a);
    memcpy(buf + a, TF_StringGetDataPointer(&u[i]), b);
    TF_StringCopy(&o[i], buf, a + b);
    free(buf);
  }
}
static const scatter_add_fn scatter_add_fns[MT_NUM_DTYPES] = {
    [TF_STRING] = scatter_add_string,
    MT_ENTRIES(scatter_add, MT_REAL_TYPES)[TF_BOOL] = scatter_add_mt_bool,
    [TF_HALF] = scatter_add_half, [TF_BFLOAT16] = scatter_add_bf16,
    [TF_COMPLEX64] = scatter_add_c64, [TF_COMPLEX128] = scatter_add_c128};

static void scatter_nd_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor *ind = ctx->inputs[0], *upd = ctx->inputs[1], *sh = ctx->inputs[2];
  const scatter_add_fn add = upd->dtype < MT_NUM_DTYPES ? scatter_add_fns[upd->dtype] : NULL;
  if (!add) {
    mt_kernel_unsupported(ctx, "T", upd->dtype);
    return;
  }
  char a[256], b[256], c[256];
  if (sh->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape must be a 1-D vector, got shape %s",
                   mt_dims_str(sh->dims, sh->ndims, a, sizeof a));
    return;
  }
  if (sh->dims[0] > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape has more than %d dims", MT_MAX_DIMS);
    return;
  }
  int64_t odims[MT_MAX_DIMS];
  const int orank = (int)sh->dims[0];
  mt_tensor_ints(sh, odims, MT_MAX_DIMS);
  for (int d = 0; d < orank; d++) {
    if (odims[d] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                     (long long)odims[d]);
      return;
    }
  }
  if (mt_num_elements(odims, orank) < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Shape %s is too large",
                   mt_dims_str(odims, orank, a, sizeof a));
    return;
  }
  if (ind->ndims < 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Indices shape must have rank at least one. Found:%s",
                   mt_dims_str(ind->dims, ind->ndims, a, sizeof a));
    return;
  }
  /* TensorFlow's ValidEmptyOutputShape: indices and updates both empty, or
   * shape, indices and updates all non-empty. */
  const int64_t n_ind = mt_tensor_nelems(ind), n_upd = mt_tensor_nelems(upd);
  if (!(n_ind == 0 && n_upd == 0) && !(sh->dims[0] != 0 && n_ind != 0 && n_upd != 0)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Indices and updates specified for empty output shape");
    return;
  }
  const int64_t nd = ind->dims[ind->ndims - 1];
  const int outer = ind->ndims - 1;
  int ok = nd <= orank && upd->ndims == outer + orank - nd;
  for (int k = 0; ok && k < outer; k++) ok = upd->dims[k] == ind->dims[k];
  for (int k = 0; ok && k < orank - nd; k++) ok = upd->dims[outer + k] == odims[nd + k];
  if (!ok) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Must have updates.shape = indices.shape[:batch_dim] + params_shape[slice_dim:], "
                   "got updates.shape: %s, indices.shape: %s, params_shape: %s",
                   mt_dims_str(upd->dims, upd->ndims, a, sizeof a),
                   mt_dims_str(ind->dims, ind->ndims, b, sizeof b),
                   mt_dims_str(odims, orank, c, sizeof c));
    return;
  }
  int64_t rows = 1, inner = 1;
  for (int k = 0; k < outer; k++) rows *= ind->dims[k];
  for (int k = (int)nd; k < orank; k++) inner *= odims[k];
  int64_t* offs = mt_malloc(sizeof(int64_t) * (size_t)(rows ? rows : 1), ctx->status);
  if (!offs) return;
  const int64_t bad = nd_offsets(ind, rows, (int)nd, odims, offs);
  if (bad >= 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "indices%s = %s does not index into shape %s",
                   index_str(ind->dims, outer, bad, b, sizeof b),
                   index_row_str(ind, bad, (int)nd, a, sizeof a),
                   mt_dims_str(odims, orank, c, sizeof c));
    free(offs);
    return;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, upd->dtype, odims, orank);
  if (out) {
    mv_zero(out, 0, mt_tensor_nelems(out));
    for (int64_t r = 0; r < rows; r++)
      add(mt_tensor_data(out), offs[r] * inner, mt_tensor_data(upd), r * inner, inner);
  }
  free(offs);
}

/* ---- OneHot ---- */

static void one_hot_shape(mt_shape_ctx* ctx) {
  const int64_t axis = mt_op_attr_int(ctx->op, "axis", -1);
  if (axis < -1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "axis must be >= -1");
    return;
  }
  int64_t depth = -1;
  if (mt_shape_input_as_ints(ctx, 1, &depth, 1) == 1 && depth < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Dimension size, given by scalar input 1, must be non-negative but is %lld",
                   (long long)depth);
    return;
  }
  if (!mt_shape_with_rank(ctx, 1, 0)) return;
  const mt_shape* ind = &ctx->in[0];
  if (ind->rank < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  if (ind->rank >= MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "OneHot result has more than %d dims",
                   MT_MAX_DIMS);
    return;
  }
  const int nr = ind->rank + 1;
  if (axis >= nr) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Shape must be at least rank %lld but is rank %d", (long long)axis, ind->rank);
    return;
  }
  const int at = (int)((axis + nr) % nr);
  mt_shape out = {.rank = nr};
  for (int d = 0, k = 0; d < nr; d++) out.dims[d] = d == at ? depth : ind->dims[k++];
  ctx->out[0] = out;
}

static void one_hot_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor *ind = ctx->inputs[0], *dt = ctx->inputs[1];
  const TF_Tensor *on = ctx->inputs[2], *off = ctx->inputs[3];
  if (!check_movable(ctx, "T", on->dtype)) return;
  char a[256];
  if (dt->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "depth must be a scalar, but got: %s",
                   mt_dims_str(dt->dims, dt->ndims, a, sizeof a));
    return;
  }
  if (on->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "on_value must be a scalar, but got: %s",
                   mt_dims_str(on->dims, on->ndims, a, sizeof a));
    return;
  }
  if (off->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "off_value must be a scalar, but got: %s",
                   mt_dims_str(off->dims, off->ndims, a, sizeof a));
    return;
  }
  const int nr = ind->ndims + 1;
  int64_t axis = mt_op_attr_int(ctx->op, "axis", -1);
  if (axis != -1 && (axis < 0 || axis >= nr)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected axis to be -1 or between [0, %d).  But received: %lld", nr,
                   (long long)axis);
    return;
  }
  const int64_t depth = mv_int_at(dt, 0);
  if (depth < 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "depth must be non-negative, got: %lld",
                   (long long)depth);
    return;
  }
  if (nr > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "OneHot result has more than %d dims",
                   MT_MAX_DIMS);
    return;
  }
  if (axis == -1) axis = nr - 1;
  int64_t odims[MT_MAX_DIMS], prefix = 1, suffix = 1;
  for (int d = 0, k = 0; d < nr; d++) {
    odims[d] = d == axis ? depth : ind->dims[k++];
    if (d < axis) prefix *= odims[d];
    else if (d > axis) suffix *= odims[d];
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, on->dtype, odims, nr);
  if (!out) return;
  mv_fill(out, 0, off, mt_tensor_nelems(out));
  /* indices viewed as [prefix, suffix]; output [prefix, depth, suffix] */
  for (int64_t p = 0; p < prefix; p++)
    for (int64_t s = 0; s < suffix; s++) {
      const int64_t v = mv_int_at(ind, p * suffix + s);
      if (v >= 0 && v < depth) mv_copy(out, (p * depth + v) * suffix + s, on, 0, 1);
    }
}

/* ---- Where ---- */

static void where_shape(mt_shape_ctx* ctx) {
  mt_shape out = {.rank = 2};
  out.dims[0] = -1;
  out.dims[1] = ctx->in[0].rank;
  ctx->out[0] = out;
}

/* 1 if element i is "true" (nonzero; NaN is true, -0.0 false). */
static int where_truth(const TF_Tensor* t, int64_t i) {
  const void* d = mt_tensor_data(t);
  switch (t->dtype) {
    case TF_FLOAT: return ((const float*)d)[i] != 0;
    case TF_DOUBLE: return ((const double*)d)[i] != 0;
    case TF_COMPLEX64: return ((const float*)d)[2 * i] != 0 || ((const float*)d)[2 * i + 1] != 0;
    case TF_COMPLEX128:
      return ((const double*)d)[2 * i] != 0 || ((const double*)d)[2 * i + 1] != 0;
    case TF_BFLOAT16: return (((const uint16_t*)d)[i] & 0x7fff) != 0;
    default: { /* integers, bool, quantized: any nonzero byte */
      const size_t es = TF_DataTypeSize(t->dtype);
      const unsigned char* p = (const unsigned char*)d + (size_t)i * es;
      for (size_t b = 0; b < es; b++)
        if (p[b]) return 1;
      return 0;
    }
  }
}

static void where_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  if (in->dtype == TF_HALF) {
    mt_status_setf(ctx->status, TF_UNIMPLEMENTED,
                   "No WhereOp available for float16/half type on CPU; dying in CPU WhereOp to "
                   "avoid silently creating costly copies from device.");
    return;
  }
  if (in->dtype == TF_STRING || !mv_esize(in->dtype)) {
    mt_kernel_unsupported(ctx, "T", in->dtype);
    return;
  }
  const int r = in->ndims;
  if (r == 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "WhereOp : Unhandled input dimensions: 0");
    return;
  }
  const int64_t n = mt_tensor_nelems(in);
  int64_t count = 0;
  for (int64_t i = 0; i < n; i++) count += where_truth(in, i);
  const int64_t odims[2] = {count, r};
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_INT64, odims, 2);
  if (!out || count == 0) return;
  int64_t* o = mt_tensor_data(out);
  int64_t idx[MT_MAX_DIMS] = {0};
  for (int64_t i = 0; i < n; i++) {
    if (where_truth(in, i)) {
      memcpy(o, idx, sizeof(int64_t) * (size_t)r);
      o += r;
    }
    mv_next(idx, in->dims, r);
  }
}

/* ---- Pad / PadV2 / MirrorPad ---- */

/* dim + a + b for shape functions (-1 stays unknown); 0 + TensorFlow's
 * overflow message when the sum does not fit. */
static int dim_add2(TF_Status* st, int64_t dim, int64_t a, int64_t b, int64_t* out) {
  if (dim < 0) {
    *out = -1;
    return 1;
  }
  if (a > INT64_MAX - dim || b > INT64_MAX - dim - a) {
    mt_status_setf(st, TF_INVALID_ARGUMENT, "Dimension size overflow from adding %lld and %lld",
                   (long long)dim, (long long)a);
    return 0;
  }
  *out = dim + a + b;
  return 1;
}

/* TensorFlow's PadShapeFn (Pad, PadV2). */
static void pad_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 1, 2)) return;
  const mt_shape* ps = &ctx->in[1];
  const mt_shape* in = &ctx->in[0];
  if (ps->rank == 2 && ps->dims[1] >= 0 && ps->dims[1] != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Dimension must be 2 but is %lld",
                   (long long)ps->dims[1]);
    return;
  }
  int64_t n = ps->rank == 2 ? ps->dims[0] : -1;
  if (n >= 0) {
    if (n > MT_MAX_DIMS) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Paddings for more than %d dims",
                     MT_MAX_DIMS);
      return;
    }
    if (!mt_shape_with_rank(ctx, 0, (int)n)) return;
  } else if (in->rank >= 0) {
    n = in->rank;
  }
  int64_t pads[2 * MT_MAX_DIMS];
  const int np = mt_shape_input_as_ints(ctx, 1, pads, 2 * MT_MAX_DIMS);
  if (np < 0 || n < 0 || np != 2 * n) {
    ctx->out[0] = n >= 0 ? unknown_of_rank((int)n) : mt_shape_unknown();
    return;
  }
  mt_shape out = {.rank = (int)n};
  for (int d = 0; d < n; d++) {
    const int64_t p0 = pads[2 * d], p1 = pads[2 * d + 1];
    if (p0 < 0 || p1 < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Paddings must be non-negative");
      return;
    }
    if (!dim_add2(ctx->status, in->dims[d], p0, p1, &out.dims[d])) return;
  }
  ctx->out[0] = out;
}

/* Reads and checks the paddings input ([rank, 2]); 0 + status on error. */
static int read_paddings(mt_kernel_ctx* ctx, const TF_Tensor* in, const TF_Tensor* pt,
                         int64_t* pads) {
  char a[256], b[256];
  if (pt->ndims != 2 || pt->dims[1] != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "paddings must be a matrix with 2 columns: %s",
                   mt_dims_str(pt->dims, pt->ndims, a, sizeof a));
    return 0;
  }
  if (pt->dims[0] != in->ndims) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "The first dimension of paddings must be the rank of inputs%s %s",
                   mt_dims_str(pt->dims, pt->ndims, a, sizeof a),
                   mt_dims_str(in->dims, in->ndims, b, sizeof b));
    return 0;
  }
  mt_tensor_ints(pt, pads, 2 * MT_MAX_DIMS);
  return 1;
}

static void pad_common(mt_kernel_ctx* ctx, const TF_Tensor* value) {
  const TF_Tensor *in = ctx->inputs[0], *pt = ctx->inputs[1];
  if (!check_movable(ctx, "T", in->dtype)) return;
  int64_t pads[2 * MT_MAX_DIMS], odims[MT_MAX_DIMS], ones[MT_MAX_DIMS];
  if (!read_paddings(ctx, in, pt, pads)) return;
  const int r = in->ndims;
  for (int d = 0; d < r; d++) {
    const int64_t p0 = pads[2 * d], p1 = pads[2 * d + 1];
    if (p0 < 0 || p1 < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Paddings must be non-negative: %lld %lld",
                     (long long)p0, (long long)p1);
      return;
    }
    if (p0 > INT64_MAX / 4 || p1 > INT64_MAX / 4 || in->dims[d] + p0 > INT64_MAX / 2 - p1) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Paddings too large: %lld %lld",
                     (long long)p0, (long long)p1);
      return;
    }
    odims[d] = in->dims[d] + p0 + p1;
    ones[d] = 1;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, odims, r);
  if (!out) return;
  const int64_t on = mt_tensor_nelems(out);
  if (value) mv_fill(out, 0, value, on);
  else mv_zero(out, 0, on);
  const int64_t n = mt_tensor_nelems(in);
  if (n == 0) return;
  if (r == 0) {
    mv_copy(out, 0, in, 0, 1);
    return;
  }
  /* copy each input row into its place */
  int64_t ostr[MT_MAX_DIMS], idx[MT_MAX_DIMS] = {0};
  mv_strides(odims, r, ostr);
  const int64_t inner = in->dims[r - 1];
  int64_t i = 0;
  (void)ones;
  do {
    int64_t off = pads[2 * (r - 1)];
    for (int d = 0; d < r - 1; d++) off += (idx[d] + pads[2 * d]) * ostr[d];
    mv_copy(out, off, in, i, inner);
    i += inner;
  } while (mv_next(idx, in->dims, r - 1));
}

static void pad_kernel(mt_kernel_ctx* ctx) { pad_common(ctx, NULL); }

static void pad_v2_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* cv = ctx->inputs[2];
  if (cv->ndims != 0) {
    char a[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "constant_values must be a scalar. Found: %s",
                   mt_dims_str(cv->dims, cv->ndims, a, sizeof a));
    return;
  }
  pad_common(ctx, cv);
}

/* TensorFlow's MirrorPadShape. */
static void mirror_pad_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 1, 2)) return;
  const mt_shape* ps = &ctx->in[1];
  if (ps->rank != 2 || ps->dims[0] < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  const int64_t n = ps->dims[0];
  if (n > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Paddings for more than %d dims",
                   MT_MAX_DIMS);
    return;
  }
  if (!mt_shape_with_rank(ctx, 0, (int)n)) return;
  if (ps->dims[1] >= 0 && ps->dims[1] != 2) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Dimension 1 in both shapes must be equal, but are %lld and 2. Shapes are "
                   "[%lld,%lld] and [%lld,2].",
                   (long long)ps->dims[1], (long long)n, (long long)ps->dims[1], (long long)n);
    return;
  }
  int64_t pads[2 * MT_MAX_DIMS];
  const int np = mt_shape_input_as_ints(ctx, 1, pads, 2 * MT_MAX_DIMS);
  if (np != 2 * n) {
    ctx->out[0] = unknown_of_rank((int)n);
    return;
  }
  const mt_shape* in = &ctx->in[0];
  mt_shape out = {.rank = (int)n};
  for (int d = 0; d < n; d++) {
    if (pads[2 * d] < 0 || pads[2 * d + 1] < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Paddings must be non-negative");
      return;
    }
    if (!dim_add2(ctx->status, in->rank < 0 ? -1 : in->dims[d], pads[2 * d],
                  pads[2 * d + 1], &out.dims[d]))
      return;
  }
  ctx->out[0] = out;
}

static void mirror_pad_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor *in = ctx->inputs[0], *pt = ctx->inputs[1];
  if (!check_movable(ctx, "T", in->dtype)) return;
  const char* mode = mt_op_attr_str(ctx->op, "mode", "REFLECT");
  const int reflect = strcmp(mode, "REFLECT") == 0;
  int64_t pads[2 * MT_MAX_DIMS], odims[MT_MAX_DIMS];
  if (!read_paddings(ctx, in, pt, pads)) return;
  const int r = in->ndims;
  for (int d = 0; d < r; d++) {
    const int64_t p0 = pads[2 * d], p1 = pads[2 * d + 1], dim = in->dims[d];
    if (p0 < 0 || p1 < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "paddings must be non-negative: %lld %lld",
                     (long long)p0, (long long)p1);
      return;
    }
    const int64_t lim = dim - (reflect ? 1 : 0);
    if (p0 > lim || p1 > lim) {
      if (reflect)
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "paddings must be less than the dimension size: %lld, %lld not less than "
                       "%lld",
                       (long long)p0, (long long)p1, (long long)dim);
      else
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "paddings must be no greater than the dimension size: %lld, %lld greater "
                       "than %lld",
                       (long long)p0, (long long)p1, (long long)dim);
      return;
    }
    odims[d] = dim + p0 + p1;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, odims, r);
  if (!out) return;
  const int64_t on = mt_tensor_nelems(out);
  if (on == 0) return;
  if (r == 0) {
    mv_copy(out, 0, in, 0, 1);
    return;
  }
  int64_t istr[MT_MAX_DIMS], idx[MT_MAX_DIMS] = {0};
  mv_strides(in->dims, r, istr);
  for (int64_t o = 0; o < on; o++) {
    int64_t off = 0;
    for (int d = 0; d < r; d++) {
      const int64_t n = in->dims[d];
      int64_t i = idx[d] - pads[2 * d];
      if (i < 0) i = reflect ? -i : -i - 1;
      else if (i >= n) i = reflect ? 2 * n - 2 - i : 2 * n - 1 - i;
      off += i * istr[d];
    }
    mv_copy(out, o, in, off, 1);
    mv_next(idx, odims, r);
  }
}

/* TensorFlow's MirrorPadGrad shape fn: the padded input's dims minus the
 * paddings. */
static void mirror_pad_grad_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 1, 2)) return;
  const mt_shape* ps = &ctx->in[1];
  if (ps->rank != 2 || ps->dims[0] < 0) {
    ctx->out[0] = mt_shape_unknown();
    return;
  }
  const int64_t n = ps->dims[0];
  if (n > MT_MAX_DIMS) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Paddings for more than %d dims",
                   MT_MAX_DIMS);
    return;
  }
  if (!mt_shape_with_rank(ctx, 0, (int)n)) return;
  int64_t unused;
  if (!mt_merge_dim(ctx, ps->dims[1], 2, &unused)) return;
  int64_t pads[2 * MT_MAX_DIMS];
  if (mt_shape_input_as_ints(ctx, 1, pads, 2 * MT_MAX_DIMS) != 2 * n) {
    ctx->out[0] = unknown_of_rank((int)n);
    return;
  }
  const mt_shape* in = &ctx->in[0];
  mt_shape out = {.rank = (int)n};
  for (int d = 0; d < n; d++) {
    const int64_t p0 = pads[2 * d], p1 = pads[2 * d + 1];
    if (p0 < 0 || p1 < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Paddings must be non-negative");
      return;
    }
    const int64_t dim = in->rank < 0 ? -1 : in->dims[d];
    if (dim >= 0 && dim < p0 + p1) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Negative dimension size caused by subtracting %lld from %lld",
                     (long long)(p0 + p1), (long long)dim);
      return;
    }
    out.dims[d] = dim < 0 ? -1 : dim - p0 - p1;
  }
  ctx->out[0] = out;
}

/* The gradient of MirrorPad: each element of the padded gradient is added
 * to the input element it mirrors. */
static void mirror_pad_grad_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor *in = ctx->inputs[0], *pt = ctx->inputs[1];
  const TF_DataType dt = in->dtype;
  const scatter_add_fn add = dt < MT_NUM_DTYPES && dt != TF_BOOL && dt != TF_STRING
                                 ? scatter_add_fns[dt] : NULL;
  if (!add) {
    mt_kernel_unsupported(ctx, "T", dt);
    return;
  }
  const int r = in->ndims;
  if (r > 5) {
    mt_status_setf(ctx->status, TF_UNIMPLEMENTED, "inputs rank not in [0,5]: %d", r);
    return;
  }
  const int reflect = strcmp(mt_op_attr_str(ctx->op, "mode", "REFLECT"), "REFLECT") == 0;
  int64_t pads[2 * MT_MAX_DIMS], odims[MT_MAX_DIMS];
  if (!read_paddings(ctx, in, pt, pads)) return;
  for (int d = 0; d < r; d++) {
    const int64_t p0 = pads[2 * d], p1 = pads[2 * d + 1];
    if (p0 < 0 || p1 < 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Paddings must be non-negative: %lld, %lld",
                     (long long)p0, (long long)p1);
      return;
    }
    odims[d] = in->dims[d] - (p0 + p1);
    const int64_t n = odims[d];
    if (reflect ? (p0 >= n || p1 >= n) : (p0 > n || p1 > n)) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     reflect ? "paddings must be less than the output dimension size: %lld, %lld "
                               "not less than %lld"
                             : "paddings must be no greater than the output dimension size: "
                               "%lld, %lld greater than %lld",
                     (long long)p0, (long long)p1, (long long)n);
      return;
    }
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, dt, odims, r);
  if (!out) return;
  mv_zero(out, 0, mt_tensor_nelems(out));
  const int64_t total = mt_tensor_nelems(in);
  if (total == 0) return;
  int64_t ostr[MT_MAX_DIMS], idx[MT_MAX_DIMS] = {0};
  mv_strides(odims, r, ostr);
  for (int64_t i = 0; i < total; i++) {
    int64_t off = 0;
    for (int d = 0; d < r; d++) {
      const int64_t n = odims[d];
      int64_t k = idx[d] - pads[2 * d];
      if (k < 0) k = reflect ? -k : -k - 1;
      else if (k >= n) k = reflect ? 2 * n - 2 - k : 2 * n - 1 - k;
      off += k * ostr[d];
    }
    add(mt_tensor_data(out), off, mt_tensor_data(in), i, 1);
    mv_next(idx, in->dims, r);
  }
}

/* Every dtype TensorFlow's Where accepts (numbertype + bool, its order). */
#define WHERE_TYPES                                                                              \
  "{float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "        \
  "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64, bool} = DT_BOOL"

static const mt_op_spec indexing_specs[] = {
    {.name = "Slice", .inputs = "input: T, begin: Index, size: Index", .outputs = "output: T",
     .attrs = "T: type; Index: {int32, int64}", .shape = slice_shape, .kernel = slice_kernel},
    {.name = "StridedSlice", .inputs = "input: T, begin: Index, end: Index, strides: Index",
     .outputs = "output: T",
     .attrs = "T: type; Index: {int16, int32, int64}; begin_mask: int = 0; end_mask: int = 0;"
              " ellipsis_mask: int = 0; new_axis_mask: int = 0; shrink_axis_mask: int = 0",
     .shape = strided_slice_shape, .kernel = strided_slice_kernel},
    {.name = "GatherV2", .inputs = "params: Tparams, indices: Tindices, axis: Taxis",
     .outputs = "output: Tparams",
     .attrs = "batch_dims: int = 0; Tparams: type; Tindices: {int16, int32, int64};"
              " Taxis: {int32, int64}",
     .shape = gather_shape, .kernel = gather_kernel},
    {.name = "GatherNd", .inputs = "params: Tparams, indices: Tindices",
     .outputs = "output: Tparams",
     .attrs = "Tparams: type; Tindices: {int16, int32, int64}; bad_indices_policy: string = ''",
     .shape = gather_nd_shape, .kernel = gather_nd_kernel},
    {.name = "ScatterNd", .inputs = "indices: Tindices, updates: T, shape: Tindices",
     .outputs = "output: T",
     .attrs = "T: type; Tindices: {int16, int32, int64}; bad_indices_policy: string = ''",
     .shape = scatter_nd_shape, .kernel = scatter_nd_kernel},
    {.name = "OneHot", .inputs = "indices: TI, depth: int32, on_value: T, off_value: T",
     .outputs = "output: T",
     .attrs = "axis: int = -1; T: type; TI: {uint8, int8, int32, int64} = DT_INT64",
     .shape = one_hot_shape, .kernel = one_hot_kernel},
    {.name = "Where", .inputs = "input: T", .outputs = "index: int64", .attrs = "T: " WHERE_TYPES,
     .shape = where_shape, .kernel = where_kernel},
    {.name = "Pad", .inputs = "input: T, paddings: Tpaddings", .outputs = "output: T",
     .attrs = "T: type; Tpaddings: {int32, int64} = DT_INT32", .shape = pad_shape,
     .kernel = pad_kernel},
    {.name = "PadV2", .inputs = "input: T, paddings: Tpaddings, constant_values: T",
     .outputs = "output: T", .attrs = "T: type; Tpaddings: {int32, int64} = DT_INT32",
     .shape = pad_shape, .kernel = pad_v2_kernel},
    {.name = "MirrorPad", .inputs = "input: T, paddings: Tpaddings", .outputs = "output: T",
     .attrs = "T: type; Tpaddings: {int32, int64} = DT_INT32; mode: {'REFLECT', 'SYMMETRIC'}",
     .shape = mirror_pad_shape, .kernel = mirror_pad_kernel},
    {.name = "MirrorPadGrad", .inputs = "input: T, paddings: Tpaddings", .outputs = "output: T",
     .attrs = "T: type; Tpaddings: {int32, int64} = DT_INT32; mode: {'REFLECT', 'SYMMETRIC'}",
     .shape = mirror_pad_grad_shape, .kernel = mirror_pad_grad_kernel},
    {.name = "StridedSliceGrad",
     .inputs = "shape: Index, begin: Index, end: Index, strides: Index, dy: T",
     .outputs = "output: T",
     .attrs = "T: type; Index: {int32, int64}; begin_mask: int = 0; end_mask: int = 0;"
              " ellipsis_mask: int = 0; new_axis_mask: int = 0; shrink_axis_mask: int = 0",
     .shape = strided_slice_grad_shape, .kernel = strided_slice_grad_kernel},
};

void mt_register_indexing_ops(void) {
  mt_register_ops(indexing_specs, (int)(sizeof indexing_specs / sizeof indexing_specs[0]));
}
