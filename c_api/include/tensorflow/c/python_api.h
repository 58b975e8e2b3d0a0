/* Graph mutations the Python frontend needs after an operation exists, as
 * TensorFlow's tensorflow/c/python_api.h (AddControlInput, SetAttr,
 * SetRequestedDevice), with C names. Not thread-safe against concurrent
 * construction on the same graph (like graph building in TensorFlow); they
 * take the graph lock for the edit itself. Sessions that already ran the
 * graph build new plans after a control input is added (plans are keyed by
 * the graph's mutation count). */
#ifndef TENSORFLOW_C_PYTHON_API_H_
#define TENSORFLOW_C_PYTHON_API_H_

#include <stddef.h>

#include "tensorflow/c/c_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Adds `input` as a control input of `op` (no-op when already one).
 * TF_INVALID_ARGUMENT for ops of different graphs or input == op;
 * TF_RESOURCE_EXHAUSTED when out of memory. */
TF_CAPI_EXPORT extern void MT_AddControlInput(TF_Graph* graph, TF_Operation* op,
                                              TF_Operation* input, TF_Status* status);

/* Drops every control input of `op` (TensorFlow's RemoveAllControlInputs:
 * a v1 control-flow context keeps only the control inputs of its own loop). */
TF_CAPI_EXPORT extern void MT_RemoveAllControlInputs(TF_Graph* graph, TF_Operation* op,
                                                     TF_Status* status);

/* Replaces (or adds) attr `attr_name` of `op` with a serialized AttrValue.
 * TF_INVALID_ARGUMENT for unparseable bytes; the op is unchanged then. */
TF_CAPI_EXPORT extern void MT_SetAttr(TF_Graph* graph, TF_Operation* op, const char* attr_name,
                                      const void* proto, size_t proto_len, TF_Status* status);

/* Sets the requested device of `op` (a copy of `device`; "" clears it). */
TF_CAPI_EXPORT extern void MT_SetRequestedDevice(TF_Graph* graph, TF_Operation* op,
                                                 const char* device, TF_Status* status);

/* Like TF_SetAttrTensor, but shares `value`'s buffer instead of copying it
 * (the caller keeps its own reference and may delete it at once; the
 * operation keeps the buffer alive). Lets the importer turn a large
 * tensor_content into a Const without a second copy. */
TF_CAPI_EXPORT extern void MT_SetAttrTensorShared(TF_OperationDescription* desc,
                                                  const char* attr_name, TF_Tensor* value,
                                                  TF_Status* status);

/* Appends `inputs` to the last (list) input of `op` — TensorFlow's
 * AddWhileInputHack: the gradient of a While gives the forward loop
 * accumulators this way. Set the list's type attr (T) with MT_SetAttr
 * first. TF_INVALID_ARGUMENT when op has no list input or an input is of
 * another graph. */
TF_CAPI_EXPORT extern void MT_AddWhileInputs(TF_Graph* graph, TF_Operation* op,
                                             const TF_Output* inputs, int ninputs,
                                             TF_Status* status);

/* Re-derives op's outputs after MT_SetAttr grew an attr that counts them
 * (an If's Tout, a While's T): TensorFlow's Operation._add_outputs. The
 * existing outputs and their consumers stay. TF_INVALID_ARGUMENT when the
 * attrs now give fewer outputs. */
TF_CAPI_EXPORT extern void MT_RefreshOutputs(TF_Graph* graph, TF_Operation* op,
                                             TF_Status* status);

/* The argument and result counts of function `name` of lib's library:
 * 1, or 0 when there is no such function. */
TF_CAPI_EXPORT extern int MT_FunctionArity(TF_Graph* lib, const char* name, int* nargs,
                                           int* nrets);

/* Builds function `name` of lib's library into `dst` (TensorFlow's
 * function_def_to_graph, for gradients of functional ops): a Placeholder
 * per argument named as the argument, then the body's nodes under their
 * names. `args` / `rets` (caller arrays of MT_FunctionArity's counts)
 * receive the placeholders and the results. TF_NOT_FOUND when there is no
 * such function; TF_INVALID_ARGUMENT for wrong counts or a name already in
 * dst (what was built before the error stays in dst). */
TF_CAPI_EXPORT extern void MT_FunctionToGraph(TF_Graph* lib, const char* name, TF_Graph* dst,
                                              TF_Output* args, int nargs, TF_Output* rets,
                                              int nrets, TF_Status* status);

/* Adds the built-in (C) gradient of one operation, for tf.gradients, which
 * walks the graph in Python and calls this per op. `grad_type`: the op
 * type whose gradient to use (NULL: the op's own; else the name
 * Graph.gradient_override_map gave). `scope` is the name
 * scope of the new nodes, ending in "/" ("gradients/MatMul_grad/").
 * `dy`: op's num_outputs gradients (oper NULL where none flows); `dx`:
 * caller-allocated, op's num_inputs items, receives the gradient of each
 * input (oper NULL: none); where dx_indices[i] is set too, input i's
 * gradient is IndexedSlices(dx[i], dx_indices[i], dx_dense_shape[i])
 * (same size arrays). `*first_new_op` receives the position (for
 * TF_GraphNextOperation) of the first node added. Returns 1 when the
 * gradient was added, 2 when the op type is registered as not
 * differentiable (every dx empty), 0 when no gradient is registered for
 * it, -1 with status set on error. Not thread-safe against other
 * construction on the same graph. */
TF_CAPI_EXPORT extern int MT_AddOpGradient(TF_Graph* graph, TF_Operation* op,
                                           const char* grad_type, const char* scope,
                                           const TF_Output* dy, int ndy, TF_Output* dx,
                                           TF_Output* dx_indices, TF_Output* dx_dense_shape,
                                           int ndx, size_t* first_new_op, TF_Status* status);

/* 0 when no built-in gradient is registered for op_type, 1 when one is,
 * 2 when it is registered as not differentiable. Thread-safe. */
TF_CAPI_EXPORT extern int MT_GradientRegistered(const char* op_type);

/* Python callables as graph nodes (PyFunc, PyFuncStateless, EagerPyFunc):
 * the runtime calls `fn(arg, token, is_eager, inputs, ninputs, outputs,
 * noutputs, status)` for each run of such a node, from executor threads
 * (without the GIL; the callback takes it). `inputs`: new tensors the
 * callback owns and deletes (even on error); `outputs`: the callback
 * stores `noutputs` new tensors (owned by the runtime) or sets `status`.
 * The runtime checks the outputs' dtypes against the node's Tout
 * (TF_INVALID_ARGUMENT "0-th value returned by pyfunc_0 is int64, but
 * expects float"). Without a callback such nodes fail with
 * TF_INVALID_ARGUMENT. */
typedef void (*MT_PyFuncCallback)(void* arg, const char* token, int is_eager,
                                  TF_Tensor** inputs, int ninputs, TF_Tensor** outputs,
                                  int noutputs, TF_Status* status);

/* Installs the callback (NULL removes it); `arg` is passed back to it.
 * Process-wide, thread-safe. The session helper (c_api/python/) installs
 * one that calls minitf's FuncRegistry. */
TF_CAPI_EXPORT extern void MT_SetPyFuncCallback(MT_PyFuncCallback fn, void* arg);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_PYTHON_API_H_ */
