/* Node builders (gu_*) of the array, indexing, segment and state gradients that follow TensorFlow's Python
 * wrappers node for node: the nodes they add, the constants they make from
 * Python ints and lists, and the names of both (array_ops.shape folding a
 * known shape into the Const "Shape", `x[1:]` becoming "strided_slice" with
 * the Consts "strided_slice/stack", ..., `x + 1` becoming "add" with
 * "add/y"). Gradients written with them line up with the GraphDefs
 * TensorFlow 2.21's array_grad.py and math_grad.py build.
 *
 * All builders follow runtime/gradient.h's error convention: after the
 * first failure (kept in g->status) they do nothing and return {NULL, 0}. */
#ifndef MINITF_RUNTIME_KERNELS_ARRAY_GRAD_UTIL_H_
#define MINITF_RUNTIME_KERNELS_ARRAY_GRAD_UTIL_H_

#include <stdint.h>

#include "runtime/gradient.h"

/* A value Python code hands to a wrapper: a tensor, or (t.oper == NULL) a
 * Python int that the wrapper turns into a constant. */
typedef struct gu_val {
  TF_Output t;
  int64_t i;
} gu_val;

static inline gu_val gu_t(TF_Output t) {
  gu_val v = {t, 0};
  return v;
}
static inline gu_val gu_i(int64_t i) {
  gu_val v = {{NULL, 0}, i};
  return v;
}

/* An operand that is a tensor, or (n > 0) a Python list of n values. */
#define GU_MAX_LIST 4
typedef struct gu_part {
  TF_Output t;
  int n;
  gu_val list[GU_MAX_LIST];
} gu_part;

static inline gu_part gu_pt(TF_Output t) {
  gu_part p = {.t = t};
  return p;
}
static inline gu_part gu_pl1(gu_val a) {
  gu_part p = {.n = 1, .list = {a}};
  return p;
}
static inline gu_part gu_pl2(gu_val a, gu_val b) {
  gu_part p = {.n = 2, .list = {a, b}};
  return p;
}

/* ---- name scopes ---- */

/* Nodes built between gu_enter and gu_leave are named under node n (its
 * full name + "/"), as the constants a wrapper converts inside its op's
 * name scope. */
typedef struct gu_scope {
  mt_grad_ctx* g;
  const char* saved;
  char* name;
} gu_scope;
void gu_enter(gu_scope* s, mt_gnode* n);
void gu_leave(gu_scope* s);

/* ---- constants and static values ---- */

/* A Const of dtype dt (an integer type) from int64 values. */
TF_Output gu_const_ints(mt_grad_ctx* g, TF_DataType dt, const int64_t* v, int n, int vector,
                        const char* name);
/* The int64 values of o when TensorFlow's tensor_util.constant_value knows
 * them (Const, Shape/Size/Rank of a tensor of known shape, Pack, ConcatV2,
 * Cast, Identity, StopGradient of such); returns the count (a scalar: 1,
 * *is_scalar set), -1 when unknown. */
int gu_constant_value(TF_Output o, int64_t* out, int cap, int* is_scalar);

/* ---- wrappers ---- */

/* array_ops.shape(x, out_type): the Const "Shape" when x's shape is fully
 * defined, else a Shape node. */
TF_Output gu_shape(mt_grad_ctx* g, TF_Output x, TF_DataType out_type);
/* array_ops.size(x) (int32): the Const "Size" when known, else Size. */
TF_Output gu_size(mt_grad_ctx* g, TF_Output x);
/* array_ops.rank(x): the Const "Rank" when known, else Rank. */
TF_Output gu_rank(mt_grad_ctx* g, TF_Output x);
/* math_ops.cast: x itself when it has dtype dt already, else "Cast". */
TF_Output gu_cast(mt_grad_ctx* g, TF_Output x, TF_DataType dt);
/* A Python binary operator (x + y: op_type "AddV2", name "add"); an int
 * operand becomes the Const "<name>/y" (or "/x") of the other's dtype. */
TF_Output gu_binop(mt_grad_ctx* g, const char* op_type, const char* name, gu_val x, gu_val y);
/* array_ops.stack(values) at axis 0 (autopacking): all ints -> a Const
 * named name; else Pack named name, ints becoming "name/<i>" and tensors of
 * another dtype Cast first. dtype 0: the first tensor's. */
TF_Output gu_pack(mt_grad_ctx* g, const char* name, const gu_val* items, int n, TF_DataType dtype);
/* array_ops.stack(values, axis) of tensors. */
TF_Output gu_stack_axis(mt_grad_ctx* g, const TF_Output* items, int n, int axis);
/* array_ops.concat(parts, axis) ("concat"); axis_t used when not NULL. */
TF_Output gu_concat(mt_grad_ctx* g, const gu_part* parts, int n, int axis, TF_Output axis_t);
/* One-dim indexing of a 1-D tensor as Tensor.__getitem__ (_slice_helper):
 * x[index] when is_index, else x[start:stop] (has_start/has_stop say which
 * are given). Named "strided_slice". */
TF_Output gu_getitem(mt_grad_ctx* g, TF_Output x, int is_index, int has_start, gu_val start,
                     int has_stop, gu_val stop);
/* array_ops.expand_dims(x, dim) ("ExpandDims", "ExpandDims/dim"). */
TF_Output gu_expand_dims(mt_grad_ctx* g, TF_Output x, int dim);
/* array_ops.reshape(x, shape) ("Reshape"; a list becomes "Reshape/shape"). */
TF_Output gu_reshape(mt_grad_ctx* g, TF_Output x, gu_part shape);
/* array_ops.slice(x, begin, size) ("Slice"). */
TF_Output gu_slice(mt_grad_ctx* g, TF_Output x, gu_part begin, gu_part size);
/* math_ops.range(start, limit, delta) ("range", "range/start", ...). */
TF_Output gu_range(mt_grad_ctx* g, gu_val start, gu_val limit, gu_val delta);
/* array_ops.transpose(x, perm) ("transpose"); perm {NULL}: reversed dims
 * ("transpose/perm"). */
TF_Output gu_transpose(mt_grad_ctx* g, TF_Output x, TF_Output perm);
/* math_ops.reduce_sum(x, axes, keepdims) ("Sum"); axes {NULL}: all dims
 * (the Const "Const" of range(rank), or range(0, rank(x))). */
TF_Output gu_reduce_sum(mt_grad_ctx* g, TF_Output x, TF_Output axes, int keepdims);
/* array_ops.zeros_like(x) ("zeros_like": a Const of zeros when x's shape is
 * known and small, a Fill when known and large, else ZerosLike). */
TF_Output gu_zeros_like(mt_grad_ctx* g, TF_Output x);
/* array_ops.ones_like(x, dtype) ("ones_like": Fill of Shape(x) and 1). */
TF_Output gu_ones_like(mt_grad_ctx* g, TF_Output x, TF_DataType dtype);
/* array_ops.ones(shape, dtype) of scalar shape () ("ones" Const) or of a
 * 1-element list [n] ("ones": Fill of "ones/packed" and "ones/Const"). */
TF_Output gu_ones(mt_grad_ctx* g, const gu_val* n, TF_DataType dtype, const char* name);
/* A unary/binary node with inferred T (name NULL = op type). */
TF_Output gu_op1(mt_grad_ctx* g, const char* op_type, const char* name, TF_Output x);
TF_Output gu_op2(mt_grad_ctx* g, const char* op_type, const char* name, TF_Output x, TF_Output y);

/* Python's repr of a bytes value (b'msg'), as TensorFlow's gradients print
 * string attrs into messages. Writes at most cap bytes. */
void gu_bytes_repr(const char* s, char* buf, size_t cap);

#endif
