/* The hook through which the PyFunc kernels reach a Python callable. The
 * runtime has no Python in it: the Python session helper registers a
 * callback (MT_SetPyFuncCallback in c_api/include/tensorflow/c/
 * python_api.h wraps mt_set_py_func_callback), and the kernels call it
 * with the node's `token` attr. */
#ifndef MINITF_RUNTIME_PY_FUNC_H_
#define MINITF_RUNTIME_PY_FUNC_H_

#include "tensorflow/c/c_api.h"

/* Runs the callable registered under `token`. `inputs` are new handles
 * (sharing the kernel's input buffers) that the callback owns and frees
 * with TF_DeleteTensor, even on error; the callback stores `noutputs` new tensors (owned by the caller) in
 * `outputs`, or sets `status` (outputs stored so far are freed by the
 * caller). `eager`: 1 for EagerPyFunc (tf.py_function). Called from
 * executor threads, possibly several at once. */
typedef void (*mt_py_func_callback)(void* arg, const char* token, int eager,
                                    TF_Tensor** inputs, int ninputs, TF_Tensor** outputs,
                                    int noutputs, TF_Status* status);

/* Installs (fn != NULL) or removes the callback. Thread-safe. */
void mt_set_py_func_callback(mt_py_func_callback fn, void* arg);

#endif
