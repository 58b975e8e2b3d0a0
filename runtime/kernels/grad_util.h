/* Node patterns that several gradient families build, each named as the
 * TensorFlow 2.21 Python helper that makes it names its nodes (so the
 * backward graphs line up with TensorFlow's): array_ops.strided_slice,
 * stack, concat, ones, range, rank, size, math_ops.reduced_shape,
 * math_ops.matmul. Built on the node builder of runtime/gradient.h; errors
 * land in g->status like any builder call. Not thread-safe (one gradient
 * call at a time per graph). */
#ifndef MINITF_RUNTIME_KERNELS_GRAD_UTIL_H_
#define MINITF_RUNTIME_KERNELS_GRAD_UTIL_H_

#include <stdint.h>

#include "runtime/gradient.h"

/* A node named "<parent's name>/<sub>", as an op that a wrapper creates
 * inside the name scope of the node it is building ("Reshape_2/shape"). */
mt_gnode mt_gu_begin_sub(mt_grad_ctx* g, const mt_gnode* parent, const char* op_type,
                         const char* sub);

/* An int32 vector Const named "<parent's name>/<sub>" (a Python list a wrapper converts
 * inside the node's scope, e.g. "concat_1/values_1"). */
TF_Output mt_gu_const_i32_sub(mt_grad_ctx* g, const mt_gnode* parent, const char* sub,
                              const int32_t* values, int count);

/* An int32 Const input named "<node>/<arg>" (mt_g_in_const_i32) of any int
 * dtype: int32 or int64. */
void mt_gu_in_const_int(mt_gnode* n, const char* arg, TF_DataType dtype, const int64_t* values,
                        int count, int vector);

/* x[begin:end:stride] over the leading len(begin) dims of x, int32 index
 * vectors in "strided_slice/stack", "stack_1", "stack_2", with the masks. */
TF_Output mt_gu_strided_slice(mt_grad_ctx* g, TF_Output x, const int32_t* begin,
                              const int32_t* end, const int32_t* stride, int n, int begin_mask,
                              int end_mask, int shrink_mask);
/* shape[i] of a 1-D tensor (a shrinking StridedSlice). */
TF_Output mt_gu_element(mt_grad_ctx* g, TF_Output v, int32_t i);
/* Python slice v[start:end] of a 1-D tensor; has_start / has_end 0 for an
 * omitted bound (the begin_mask / end_mask bit). */
TF_Output mt_gu_slice1(mt_grad_ctx* g, TF_Output v, int has_start, int32_t start, int has_end,
                       int32_t end);

/* Pack(xs, axis) named `name` (NULL = "stack"). */
TF_Output mt_gu_pack(mt_grad_ctx* g, const char* name, const TF_Output* xs, int n, int axis);
/* ConcatV2(xs, "concat/axis") named "concat". */
TF_Output mt_gu_concat(mt_grad_ctx* g, const TF_Output* xs, int n, int32_t axis);
/* math_ops.range(limit) over int32: Range(range/start, limit, range/delta). */
TF_Output mt_gu_range(mt_grad_ctx* g, TF_Output limit);
/* array_ops.ones(shape tensor, int32): Fill(shape, ones/Const). */
TF_Output mt_gu_ones_i32(mt_grad_ctx* g, TF_Output shape);
/* array_ops.rank(x): a Const "Rank" when the rank is known, else a Rank op. */
TF_Output mt_gu_rank(mt_grad_ctx* g, TF_Output x);
/* array_ops.size(v, out_type) of a shape vector: a Const "Size" when v's
 * length is known, else a Size op. */
TF_Output mt_gu_size(mt_grad_ctx* g, TF_Output v, TF_DataType out_type);
/* op_type(a, b) named `name`. */
TF_Output mt_gu_binary_named(mt_grad_ctx* g, const char* op_type, const char* name, TF_Output a,
                             TF_Output b);
/* Reshape(x, "Reshape/shape" Const of dims). */
TF_Output mt_gu_reshape_const(mt_grad_ctx* g, TF_Output x, const int32_t* dims, int n);
/* GatherV2(params, indices, "GatherV2/axis" = axis), batch_dims 0. */
TF_Output mt_gu_gather(mt_grad_ctx* g, TF_Output params, TF_Output indices, int32_t axis);
/* Transpose(x, perm) named "transpose". */
TF_Output mt_gu_transpose(mt_grad_ctx* g, TF_Output x, TF_Output perm);
/* Transpose(x, "transpose/perm" Const) named "transpose". */
TF_Output mt_gu_transpose_const(mt_grad_ctx* g, TF_Output x, const int32_t* perm, int n);
/* ExpandDims(x, "ExpandDims/dim" = dim). */
TF_Output mt_gu_expand_dims(mt_grad_ctx* g, TF_Output x, int32_t dim);
/* Cast(x, dst) named "Cast" (x itself when it has that dtype already). */
TF_Output mt_gu_cast(mt_grad_ctx* g, TF_Output x, TF_DataType dst);
/* Sum(x, axes) / Prod(x, axes) without keep_dims, named as the op type. */
TF_Output mt_gu_reduce(mt_grad_ctx* g, const char* op_type, TF_Output x, TF_Output axes);
/* math_ops.reduce_sum(x) over every dim: axes = "Const" range(rank) when
 * the rank is known and positive, else Range(0, rank(x), 1) as TensorFlow
 * builds it. */
TF_Output mt_gu_reduce_sum_all(mt_grad_ctx* g, TF_Output x);

/* math_ops.matmul(a, b, adjoint_a, adjoint_b, grad_a, grad_b) for real
 * dtypes, named "MatMul": BatchMatMulV2 when either static rank is unknown
 * or above 2, else MatMul with the adjoints as transposes. */
TF_Output mt_gu_matmul(mt_grad_ctx* g, TF_Output a, TF_Output b, int adj_a, int adj_b,
                       int grad_a, int grad_b);

/* math_ops.reduced_shape(input_shape, axes): the shape of a reduction with
 * keep_dims. When both are Consts it is folded (static = 1, dims set, as
 * TensorFlow folds it with numpy); else it is the DynamicStitch of
 * TensorFlow's graph (static = 0, tensor set). */
typedef struct mt_gu_kept_shape {
  int is_static;
  int rank;
  int32_t dims[MT_MAX_DIMS];
  TF_Output tensor;
} mt_gu_kept_shape;
int mt_gu_reduced_shape(mt_grad_ctx* g, TF_Output input_shape, TF_Output axes,
                        mt_gu_kept_shape* out);
/* Reshape(x, kept shape): a "Reshape/shape" Const when static. */
TF_Output mt_gu_reshape_kept(mt_grad_ctx* g, TF_Output x, const mt_gu_kept_shape* k);

/* The int values of a Const (int32/int64, any rank) in out[0..cap); the
 * count, or -1 when o is not such a Const or has more than cap values. */
int mt_gu_const_ints(TF_Output o, int64_t* out, int cap);

#endif
