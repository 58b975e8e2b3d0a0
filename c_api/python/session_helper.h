/* The session helper: the one place where TF_Tensors meet NumPy arrays.
 *
 * Only this file pair (and the SWIG wrapper) includes Python.h / numpy.
 * Every function here must be called with the GIL held; MT_SessionRun
 * releases it around TF_SessionRun itself.
 */
#ifndef MINITF_C_API_PYTHON_SESSION_HELPER_H_
#define MINITF_C_API_PYTHON_SESSION_HELPER_H_

#include <Python.h>

#include "tensorflow/c/c_api.h"

/* Imports NumPy's C API for this file on first use (the functions below
 * call it); returns 0, or -1 with a Python exception set. */
int MT_InitHelper(void);

/* Raises the minitf.errors exception matching `status` (which must not be
 * OK): minitf.errors._status_to_exception(code, message) builds it.
 * Always returns NULL, for `return MT_RaiseStatus(s);`. */
PyObject* MT_RaiseStatus(const TF_Status* status);

/* Converts `value` to a new TF_Tensor of dtype `dtype` (pass 0 to keep the
 * NumPy dtype of `value`). A C-contiguous, aligned ndarray of the matching
 * dtype is wrapped without copying: the tensor keeps a reference to the
 * array and its deallocator drops it (taking the GIL). Anything else
 * (lists, scalars, other dtypes, strided arrays) is converted once.
 * Object / bytes / str arrays become TF_STRING tensors (TF_TString
 * elements, str encoded as UTF-8). Returns a tensor the caller frees with
 * TF_DeleteTensor, or NULL with a Python exception (TypeError/ValueError). */
TF_Tensor* MT_NdarrayToTensor(PyObject* value, int dtype);

/* Wraps `tensor` as a Python value and takes ownership of it (it is
 * deleted when the value dies, or at once on error or when copied):
 *   - numeric tensors: a writable ndarray; when the tensor is the sole
 *     owner of its buffer (TF_TensorMaybeMove) the array views
 *     TF_TensorData without a copy and its base object owns the TF_Tensor,
 *     otherwise (buffer shared with a constant, variable or feed) the data
 *     is copied, as TensorFlow does; 0-d tensors: a NumPy scalar;
 *   - TF_STRING: an object ndarray of bytes, 0-d: a bytes object.
 * Returns a new reference, or NULL with a Python exception. */
PyObject* MT_TensorToNdarray(TF_Tensor* tensor);

/* Runs `session` once. `feed_outputs` / `fetch_outputs`: sequences of
 * (TF_Operation*, index) pairs; `feed_values`: values convertible by
 * MT_NdarrayToTensor, converted to the dtype of the fed output; `targets`:
 * sequence of TF_Operation*. The GIL is released during TF_SessionRun.
 * Returns a new list with one value per fetch (see MT_TensorToNdarray).
 * Errors: a Python exception (conversion), or `status` holds the runtime's
 * code/message and NULL is returned (the SWIG typemap raises it). */
PyObject* MT_SessionRun(TF_Session* session, PyObject* feed_outputs, PyObject* feed_values,
                        PyObject* fetch_outputs, PyObject* targets, TF_Status* status);

/* MT_SessionRun with a serialized RunOptions (bytes, or None) and, when
 * `want_metadata`, a RunMetadata buffer. Returns a new (values, metadata)
 * tuple: metadata is the serialized RunMetadata (bytes) or None. With
 * RunOptions.trace_level > 0 the metadata carries per-node step stats.
 * Errors as MT_SessionRun. */
PyObject* MT_SessionRunWithOptions(TF_Session* session, PyObject* run_options,
                                   PyObject* feed_outputs, PyObject* feed_values,
                                   PyObject* fetch_outputs, PyObject* targets, int want_metadata,
                                   TF_Status* status);
/* Partial runs. MT_SessionPRunSetup declares feeds, fetches (sequences of
 * (TF_Operation*, index)) and targets (TF_Operation*) and returns a new
 * (handle, owner) tuple: `handle` a str naming the run, `owner` a capsule
 * whose death calls TF_DeletePRunHandle, ending the run if still live.
 * MT_SessionPRun continues run `handle` (a str) as TF_SessionPRun, feeds
 * converted as in MT_SessionRun, no targets; returns a new list of the
 * fetched values. The GIL is released around the C calls. Errors as
 * MT_SessionRun. */
PyObject* MT_SessionPRunSetup(TF_Session* session, PyObject* feed_outputs,
                              PyObject* fetch_outputs, PyObject* targets, TF_Status* status);
PyObject* MT_SessionPRun(TF_Session* session, PyObject* handle, PyObject* feed_outputs,
                         PyObject* feed_values, PyObject* fetch_outputs, TF_Status* status);
/* DLPack (Python protocol). MT_ToDLPack: `value` (converted like a feed,
 * without a copy when it is a C-contiguous ndarray) exported as a new
 * PyCapsule named "dltensor" (DLManagedTensor) or, with `versioned`,
 * "dltensor_versioned" (DLManagedTensorVersioned); an unconsumed capsule
 * frees the tensor when it dies. BufferError for dtypes DLPack cannot
 * describe (strings).
 * MT_FromDLPack: consumes such a capsule (renaming it "used_dltensor" /
 * "used_dltensor_versioned", so it is consumed at most once) and returns an
 * ndarray viewing the producer's memory (see MT_TensorToNdarray; strided
 * inputs are copied once). BufferError for a consumed capsule, a non-CPU
 * device or an unsupported dtype (the capsule is then left untouched);
 * TypeError for anything else than a DLPack capsule. */
PyObject* MT_ToDLPack(PyObject* value, int versioned);
PyObject* MT_FromDLPack(PyObject* capsule);

/* Parses a (TF_Operation*, index) pair as SWIG wraps them into `out`;
 * 0 on success, -1 with a TypeError. Implemented in the SWIG wrapper
 * (tensorflow.i), which owns the SWIG type table. */
int MT_PyToOutput(PyObject* obj, TF_Output* out);
int MT_PyToOperation(PyObject* obj, TF_Operation** out);

#endif
