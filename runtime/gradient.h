/* Built-in gradients: one C function per differentiable op type, written
 * once and used both by tf.gradients in Python (through
 * MT_AddOpGradient, tensorflow/c/python_api.h) and by TF_AddGradients in
 * the C API. A gradient function adds the backward nodes of one forward op
 * to the graph, the way TensorFlow's Python gradient functions
 * (math_grad.py, nn_grad.py, ...) do: same op types, same node names.
 *
 * Gradient functions live beside their op family in
 * runtime/kernels/<family>_grad.c; each such file defines
 * `void mt_register_<family>_grads(void)` calling mt_register_gradients
 * once (declared weak in all_ops.h, so a family without a file registers
 * nothing).
 *
 * Errors: builder calls after the first failure do nothing and return
 * empty outputs; the first error is kept in g->status. Not thread-safe: one
 * gradient call at a time per graph (graph building is single-threaded, as
 * in TensorFlow). */
#ifndef MINITF_RUNTIME_GRADIENT_H_
#define MINITF_RUNTIME_GRADIENT_H_

#include <stdint.h>

#include "runtime/graph.h"
#include "runtime/graph_build.h"

typedef struct mt_grad_ctx {
  TF_Graph* graph;
  TF_Operation* op; /* the forward op */
  /* One per output of op: the gradient flowing into it (already summed);
   * .oper == NULL where none flows (only for outputs that are not
   * trainable: callers fill zeros for float outputs, as TensorFlow does). */
  const TF_Output* dy;
  /* One per input of op, preset to {NULL, 0} ("no gradient"): set by the
   * gradient function. */
  TF_Output* dx;
  /* One per input, preset to {NULL, 0}: a gradient function that returns
   * an IndexedSlices for input i (Gather's) sets dx[i] to its values and
   * these to its indices and dense_shape (see mt_g_set_sparse). */
  TF_Output* dx_indices;
  TF_Output* dx_dense_shape;
  TF_Status* status;
  /* Node names are scope + base name, made unique within the call the
   * way TensorFlow's Graph.unique_name does (case-insensitive, "_1"...). */
  const char* scope;
  int nnames, names_cap;
  struct mt_grad_name* names;
} mt_grad_ctx;

typedef void (*mt_grad_fn)(mt_grad_ctx* g);

typedef struct mt_grad_spec {
  const char* op_type;
  mt_grad_fn fn; /* NULL: registered as not differentiable (tf.NoGradient) */
} mt_grad_spec;

/* Called once per family from mt_register_<family>_grads. A later entry
 * for the same op type replaces an earlier one. */
void mt_register_gradients(const mt_grad_spec* specs, int n);

/* 1 if a gradient is registered for op_type (*fn set, NULL = not
 * differentiable), 0 if none is. Thread-safe (built once on first use). */
int mt_gradient_lookup(const char* op_type, mt_grad_fn* fn);

/* Runs the gradient of g->op. Returns 0 (status set) on failure; the ops it
 * added before failing stay in the graph (they have no consumers). */
int mt_gradient_run(mt_grad_ctx* g, mt_grad_fn fn);
void mt_grad_ctx_clear(mt_grad_ctx* g);

/* ---- building nodes ---------------------------------------------------- */

/* One node under construction; `name` NULL means the op type. */
typedef struct mt_gnode {
  mt_grad_ctx* g;
  TF_OperationDescription* d;
} mt_gnode;

mt_gnode mt_g_begin(mt_grad_ctx* g, const char* op_type, const char* name);
void mt_g_in(mt_gnode* n, TF_Output x);
void mt_g_in_list(mt_gnode* n, const TF_Output* xs, int count);
/* An int32 Const input named "<node>/<arg>", as TensorFlow's generated
 * wrappers name the constants they make from Python lists. */
void mt_g_in_const_i32(mt_gnode* n, const char* arg, const int32_t* values, int count, int vector);
void mt_g_control(mt_gnode* n, TF_Operation* op);
void mt_g_attr_bool(mt_gnode* n, const char* name, int v);
void mt_g_attr_int(mt_gnode* n, const char* name, int64_t v);
void mt_g_attr_float(mt_gnode* n, const char* name, float v);
void mt_g_attr_type(mt_gnode* n, const char* name, TF_DataType v);
void mt_g_attr_str(mt_gnode* n, const char* name, const char* v);
void mt_g_attr_ints(mt_gnode* n, const char* name, const int64_t* v, int count);
/* Copies attr `name` of the forward op (if it has it). */
void mt_g_copy_attr(mt_gnode* n, const char* name);
/* Adds the node; NULL on failure (g->status set). */
TF_Operation* mt_g_end(mt_gnode* n);
/* mt_g_end and output 0 ({NULL, 0} on failure). */
TF_Output mt_g_end0(mt_gnode* n);

/* ---- common nodes (named as TensorFlow's Python wrappers name them) ---- */

/* Returns IndexedSlices(values, indices, dense_shape) as the gradient of
 * input i: tf.gradients keeps it sparse, TF_AddGradients densifies it. */
void mt_g_set_sparse(mt_grad_ctx* g, int i, TF_Output values, TF_Output indices,
                     TF_Output dense_shape);

/* Input i / output i of the forward op. */
TF_Output mt_g_x(mt_grad_ctx* g, int i);
TF_Output mt_g_y(mt_grad_ctx* g, int i);
int mt_g_ok(const mt_grad_ctx* g);

/* op_type(x) with T inferred; named op_type. */
TF_Output mt_g_unary(mt_grad_ctx* g, const char* op_type, TF_Output x);
/* op_type(x, y) with T inferred. */
TF_Output mt_g_binary(mt_grad_ctx* g, const char* op_type, TF_Output x, TF_Output y);
/* Shape(x) as int32, named "Shape". */
TF_Output mt_g_shape(mt_grad_ctx* g, TF_Output x);
/* A Const of dtype with the given dims (ndims 0 = scalar) and values given
 * as doubles / int64s, named name (NULL = "Const"). */
TF_Output mt_g_const(mt_grad_ctx* g, TF_DataType dtype, const int64_t* dims, int ndims,
                     const double* values, const char* name);
TF_Output mt_g_const_i32(mt_grad_ctx* g, const int32_t* values, int n, int vector,
                         const char* name);
/* A scalar Const of x's dtype. */
TF_Output mt_g_scalar_like(mt_grad_ctx* g, TF_Output x, double v, const char* name);
/* Sum(x, axes, keep_dims) named "Sum". */
TF_Output mt_g_sum(mt_grad_ctx* g, TF_Output x, TF_Output axes, int keep_dims);
TF_Output mt_g_reshape(mt_grad_ctx* g, TF_Output x, TF_Output shape);
/* For a broadcasting binary op z = f(x, y): reduces gx / gy (either may be
 * {NULL}) back to the shapes of x and y as TensorFlow 2.21's
 * _ReduceGradientArgs does: Shape, Shape_1 (Consts when static), then
 * Sum(keep_dims)+Reshape per side that was broadcast, with static axes
 * when the static shapes decide them, else BroadcastGradientArgs. */
void mt_g_reduce_broadcast(mt_grad_ctx* g, TF_Output x, TF_Output y, TF_Output gx, TF_Output gy,
                           TF_Output* out_x, TF_Output* out_y);

/* 1 if x, y and grad have the same fully defined static shape (the fast
 * path of TensorFlow's binary-op gradients). */
int mt_g_shapes_equal_full(TF_Output x, TF_Output y, TF_Output grad);
int mt_g_fully_defined(const mt_shape* s);

/* Static shape of an output (not owned). */
const mt_shape* mt_g_static_shape(TF_Output o);
TF_DataType mt_g_dtype(TF_Output o);

#endif

/* ---- whole-graph gradients (TF_AddGradientsWithPrefix) ------------------ */

/* Adds nodes computing dy[i] = d(sum of y)/d x[i], scaled by the initial
 * gradients dx_init (NULL = OnesLike of each y), under the name scope
 * `prefix` (NULL = "gradients", made unique). Gradients of several
 * consumers are summed with AddN; paths through integer tensors are cut; an
 * x that no y depends on gets {NULL, -1}. TF_INVALID_ARGUMENT when prefix
 * names existing nodes, TF_NOT_FOUND when an op on a path has no
 * gradient. */
void mt_add_gradients(TF_Graph* g, const char* prefix, const TF_Output* y, int ny,
                      const TF_Output* x, int nx, const TF_Output* dx_init, TF_Output* dy,
                      TF_Status* s);

/* Adds the gradient of one op (tf.gradients in Python walks the graph and
 * calls this per op). grad_type: the op type whose gradient to use (the
 * op's own, or the one Graph.gradient_override_map names). scope: the full name scope of the new nodes, ending
 * in "/". dy: op->noutputs items. dx, dx_indices, dx_dense_shape:
 * op->ninputs items each, set on return (indices set = IndexedSlices).
 * Returns 1 when the gradient ran, 2 when the op is registered as not
 * differentiable (dx all empty), 0 when no gradient is registered, -1 on
 * error (status set). */
int mt_add_op_gradient(TF_Graph* g, TF_Operation* op, const char* grad_type, const char* scope,
                       const TF_Output* dy, TF_Output* dx, TF_Output* dx_indices,
                       TF_Output* dx_dense_shape, TF_Status* s);

/* 1 for dtypes gradients flow through (floating, complex, resource,
 * variant), as TensorFlow's backprop_util.IsTrainable. */
int mt_dtype_trainable(TF_DataType t);

/* The value of a Const output (not owned), or NULL when o is not a Const. */
const TF_Tensor* mt_g_const_value(TF_Output o);
/* 1 when o is known to be all zeros (a ZerosLike, or a Const of zeros): TensorFlow's
 * _is_zeros_tensor, which gradients use to skip terms. */
int mt_g_is_zeros(TF_Output o);
