/* PyFunc / EagerPyFunc support for the Python binding (see
 * py_func_helper.c). Call with the GIL held. */
#ifndef MINITF_C_API_PYTHON_PY_FUNC_HELPER_H_
#define MINITF_C_API_PYTHON_PY_FUNC_HELPER_H_

#include <Python.h>

/* Makes `fn` the trampoline PyFunc nodes call: fn(token: str, is_eager:
 * int, args: list) -> list of values convertible to tensors (their NumPy
 * dtype is kept; the runtime checks it against Tout). The callback runs on
 * executor threads and takes the GIL itself. None uninstalls it. Returns
 * None, or NULL with TypeError when fn is not callable. */
PyObject* MT_RegisterPyFuncTrampoline(PyObject* fn);

#endif
