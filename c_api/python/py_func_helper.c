/* The Python side of PyFunc / EagerPyFunc nodes (TensorFlow's
 * python/lib/core/py_func.cc): the callback the runtime calls (see
 * MT_SetPyFuncCallback) takes the GIL, turns the input tensors into NumPy
 * values, calls the Python trampoline (minitf.ops.script_ops registers
 * FuncRegistry's, taking (token, is_eager, args) and returning a list of
 * values) and turns what it returns back into tensors. A Python exception
 * becomes the status TensorFlow gives it, carrying its text. */
#define PY_SSIZE_T_CLEAN
#include "py_func_helper.h"

#include <string.h>

#include "session_helper.h"
#include "tensorflow/c/python_api.h"

static PyObject* trampoline; /* guarded by the GIL */

/* TensorFlow's mapping of Python exceptions to codes. */
static TF_Code code_of(PyObject* type) {
  if (PyErr_GivenExceptionMatches(type, PyExc_ValueError) ||
      PyErr_GivenExceptionMatches(type, PyExc_TypeError))
    return TF_INVALID_ARGUMENT;
  if (PyErr_GivenExceptionMatches(type, PyExc_StopIteration)) return TF_OUT_OF_RANGE;
  if (PyErr_GivenExceptionMatches(type, PyExc_MemoryError)) return TF_RESOURCE_EXHAUSTED;
  if (PyErr_GivenExceptionMatches(type, PyExc_NotImplementedError)) return TF_UNIMPLEMENTED;
  return TF_UNKNOWN;
}

/* "<Type>: <value>\n" followed by the traceback lines joined by "\n", as
 * TensorFlow words it; a new str or NULL. */
static PyObject* exception_text(PyObject* type, PyObject* value, PyObject* tb) {
  PyObject* mod = PyImport_ImportModule("traceback");
  if (!mod) return NULL;
  PyObject* lines = PyObject_CallMethod(mod, "format_exception", "(OOO)", type,
                                        value ? value : Py_None, tb ? tb : Py_None);
  Py_DECREF(mod);
  if (!lines) return NULL;
  PyObject* sep = PyUnicode_FromString("\n");
  PyObject* joined = sep ? PyUnicode_Join(sep, lines) : NULL;
  Py_XDECREF(sep);
  Py_DECREF(lines);
  if (!joined) return NULL;
  PyObject* name = PyObject_GetAttrString(type, "__name__");
  PyObject* text = name ? PyUnicode_FromFormat("%U: %S\n%U", name, value ? value : Py_None,
                                               joined)
                        : NULL;
  Py_XDECREF(name);
  Py_DECREF(joined);
  return text;
}

/* Moves the pending Python exception into `status`. */
static void status_from_exception(TF_Status* status) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  if (!type) {
    TF_SetStatus(status, TF_UNKNOWN, "py_func failed without a Python exception");
    return;
  }
  if (tb) PyException_SetTraceback(value, tb);
  PyObject* text = exception_text(type, value, tb);
  const char* msg = text ? PyUnicode_AsUTF8(text) : NULL;
  TF_SetStatus(status, code_of(type), msg ? msg : "Python exception (its text is unavailable)");
  PyErr_Clear();
  Py_XDECREF(text);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(tb);
}

/* The input tensors as a list of NumPy values (0-d: NumPy scalars or
 * bytes), as Session.run returns them; takes ownership of the tensors. */
static PyObject* args_list(TF_Tensor** inputs, int n) {
  PyObject* list = PyList_New(n);
  int k = 0;
  for (; list && k < n; k++) {
    PyObject* v = MT_TensorToNdarray(inputs[k]);
    if (!v) {
      Py_CLEAR(list);
      k++;
      break;
    }
    PyList_SET_ITEM(list, k, v);
  }
  for (; k < n; k++) TF_DeleteTensor(inputs[k]);
  return list;
}

/* Converts the trampoline's list of values into outputs. */
static void store_outputs(const char* token, PyObject* result, TF_Tensor** outputs, int n,
                          TF_Status* status) {
  PyObject* seq = PySequence_Fast(result, "the py_func trampoline must return a list");
  if (!seq) {
    status_from_exception(status);
    return;
  }
  const Py_ssize_t got = PySequence_Fast_GET_SIZE(seq);
  if (got != n) {
    char msg[256];
    snprintf(msg, sizeof msg, "%s returns %zd values, but expects to see %d values.", token, got,
             n);
    TF_SetStatus(status, TF_INVALID_ARGUMENT, msg);
    Py_DECREF(seq);
    return;
  }
  for (int k = 0; k < n; k++) {
    outputs[k] = MT_NdarrayToTensor(PySequence_Fast_GET_ITEM(seq, k), 0);
    if (!outputs[k]) {
      status_from_exception(status);
      break;
    }
  }
  Py_DECREF(seq);
}

static void call_trampoline(void* arg, const char* token, int is_eager, TF_Tensor** inputs,
                            int ninputs, TF_Tensor** outputs, int noutputs, TF_Status* status) {
  (void)arg;
  PyGILState_STATE g = PyGILState_Ensure();
  PyObject* fn = trampoline;
  Py_XINCREF(fn);
  PyObject* args = args_list(inputs, ninputs);
  if (!fn) {
    TF_SetStatus(status, TF_INVALID_ARGUMENT,
                 "Missing py trampoline. Most likely, it is a link error.");
  } else if (!args) {
    status_from_exception(status);
  } else {
    PyObject* result = PyObject_CallFunction(fn, "(siO)", token, is_eager, args);
    if (!result) status_from_exception(status);
    else store_outputs(token, result, outputs, noutputs, status);
    Py_XDECREF(result);
  }
  Py_XDECREF(args);
  Py_XDECREF(fn);
  PyGILState_Release(g);
}

PyObject* MT_RegisterPyFuncTrampoline(PyObject* fn) {
  if (MT_InitHelper() < 0) return NULL;
  if (fn != Py_None && !PyCallable_Check(fn))
    return PyErr_Format(PyExc_TypeError, "the py_func trampoline must be callable");
  PyObject* old = trampoline;
  trampoline = fn == Py_None ? NULL : fn;
  Py_XINCREF(trampoline);
  Py_XDECREF(old);
  MT_SetPyFuncCallback(trampoline ? call_trampoline : NULL, NULL);
  Py_RETURN_NONE;
}
