/* What shape functions and kernels see. Include this (and only this) from
 * the files in runtime/kernels/. */
#ifndef MINITF_RUNTIME_KERNEL_H_
#define MINITF_RUNTIME_KERNEL_H_

#include "runtime/attr.h"
#include "runtime/graph.h"
#include "runtime/op_registry.h"
#include "runtime/status.h"
#include "runtime/tensor.h"

/* Shape inference, run at TF_FinishOperation. Outputs start as unknown
 * shapes; a shape function sets ctx->out[i] and may fail with
 * TF_INVALID_ARGUMENT (the graph names the node in the message). */
typedef struct mt_shape_ctx {
  const TF_Operation* op; /* attrs (defaults filled), name, types */
  int ninputs;
  const mt_shape* in;
  const TF_DataType* in_types;
  /* Value of input i when it is known at construction: a Const, or a small
   * stateless expression of constants (and of Shape/Size/Rank of tensors
   * whose static shape is known) that the graph folds by running its
   * kernels, up to MT_FOLD_MAX_ELEMS elements per tensor; NULL otherwise. */
  const TF_Tensor* const* in_values;
  int noutputs;
  mt_shape* out;
  TF_Status* status;
} mt_shape_ctx;

struct mt_session_state;
struct mt_threadpool;
struct mt_run_ctl;

/* A kernel call. Inputs are borrowed; the kernel stores new tensor handles
 * (owned by the executor) in outputs[i]. On error, set status (the executor
 * appends the node name) and leave outputs as they are (the executor frees
 * whatever was set). */
typedef struct mt_kernel_ctx {
  const TF_Operation* op;
  int ninputs;
  TF_Tensor* const* inputs;
  /* forwardable[i]: the executor holds the last reference to inputs[i]'s
   * buffer, so an output may reuse it in place (use mt_ctx_forward). */
  const unsigned char* forwardable;
  int noutputs;
  TF_Tensor** outputs;
  struct mt_session_state* state; /* resources: variables */
  struct mt_threadpool* pool;     /* intra-op; may be NULL */
  int intra_threads;
  TF_Status* status;
  /* Nonzero (read atomically) once the step is cancelled: LoopCond fails
   * then, as TensorFlow's does. NULL when the step cannot be cancelled. */
  const int* cancelled;
  /* The step's deadline and cancellation (NULL: none): kernels that run
   * functions (While, If, PartitionedCall) run them under it. */
  const struct mt_run_ctl* ctl;
  /* movable[i] == 1: the executor drops its handle of inputs[i] right after
   * this call and nothing else reads that handle, so mt_ctx_set_shared and
   * mt_ctx_forward may hand that very handle out as an output (they set
   * movable[i] = 2 and the executor lets go of it): no new handle, no
   * reference count traffic. NULL: no input is movable. */
  unsigned char* movable;
} mt_kernel_ctx;

/* Allocates outputs[idx] with the given type/shape; NULL + status on error. */
TF_Tensor* mt_ctx_alloc(mt_kernel_ctx* ctx, int idx, TF_DataType dtype, const int64_t* dims,
                        int ndims);
/* Reuses input in_idx's buffer for outputs[idx] when it is forwardable and
 * matches dtype and element count; else allocates. */
TF_Tensor* mt_ctx_forward(mt_kernel_ctx* ctx, int in_idx, int idx, TF_DataType dtype,
                          const int64_t* dims, int ndims);
/* outputs[idx] = a new handle sharing `t` (no copy). */
void mt_ctx_set_shared(mt_kernel_ctx* ctx, int idx, const TF_Tensor* t);

/* Runs fn(begin, end, arg) over [0, n) split across the intra-op pool (or
 * inline when small / no pool). `cost` is a rough per-item cost in
 * elementary operations used to decide whether to split. */
void mt_parallel_for(mt_kernel_ctx* ctx, int64_t n, int64_t cost,
                     void (*fn)(int64_t begin, int64_t end, void* arg), void* arg);

/* The shape that shape-function input `idx` (a 1-D int32/int64 shape
 * tensor, e.g. Reshape's `shape`) describes, as far as it is known at
 * construction: from its folded value, or from the expression that makes
 * it (Shape of a tensor, Pack of scalars taken from shapes or constants,
 * ConcatV2 of such), as TensorFlow's InferenceContext does with
 * input_tensors_as_shapes. Elements of -1 are unknown dims. Sets an unknown
 * rank when nothing is known; returns 0 when the input's value is known and
 * not a valid shape vector (the caller reports it). */
int mt_shape_input_as_shape(const mt_shape_ctx* ctx, int idx, mt_shape* out);

/* Values of a shape-function input as int64 (int32/int64 tensors): returns
 * the count, -1 if not known or not an integer tensor. */
int mt_shape_input_as_ints(const mt_shape_ctx* ctx, int idx, int64_t* out, int cap);

#endif
