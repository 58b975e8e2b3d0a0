/* tensorflow.i: the one SWIG interface between Python and minitf's C API.
 *
 * Generates minitf/pywrap_tensorflow_internal.py and the wrapper C of
 * minitf._pywrap_tensorflow_internal (its method table). Conventions of the
 * Python side of every wrapped function:
 *   - a trailing `TF_Status* status` parameter disappears: a non-OK status
 *     raises the matching minitf.errors exception (InvalidArgumentError...);
 *   - TF_Output / TF_Input are (TF_Operation*, index) tuples, both ways;
 *   - (pointer, length) buffers and strings are bytes; int/float/bool/type
 *     lists are Python lists; shapes are lists of ints (-1 unknown) or None
 *     (unknown rank);
 *   - `TF_Buffer* output_*` out-parameters are returned as bytes;
 *   - opaque handles (TF_Graph*, TF_Operation*, TF_Session*, ...) are SWIG
 *     pointer objects; int(p) is the address, used as a dictionary key.
 * Helpers named MT_* (below and in c_api/python/session_helper.h) replace C
 * functions whose out-arrays do not map to Python directly.
 */
%module(package="minitf") pywrap_tensorflow_internal

%{
#define SWIG_FILE_WITH_INIT
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/python_api.h"
#include "tensorflow/c/record_io.h"
#include "c_api/python/session_helper.h"
#include "c_api/python/py_func_helper.h"
%}

#define TF_CAPI_EXPORT
%include "stdint.i"

/* ---------------------------------------------------------------------- */
/* Status: hidden argument, raised as minitf.errors exceptions.           */

%typemap(in, numinputs=0) TF_Status* status {
  $1 = TF_NewStatus();
  if ($1 == NULL) SWIG_exception_fail(SWIG_MemoryError, "out of memory");
}
%typemap(argout) TF_Status* status {
  if (TF_GetCode($1) != TF_OK) {
    Py_XDECREF($result);
    $result = NULL;
    MT_RaiseStatus($1);
    SWIG_fail;
  }
}
%typemap(freearg) TF_Status* status { TF_DeleteStatus($1); }

/* ---------------------------------------------------------------------- */
/* TF_Output / TF_Input as (TF_Operation*, index) tuples.                 */

%{
int MT_PyToOperation(PyObject* obj, TF_Operation** out) {
  void* p = NULL;
  if (!SWIG_IsOK(SWIG_ConvertPtr(obj, &p, SWIGTYPE_p_TF_Operation, 0)) || p == NULL) {
    PyErr_SetString(PyExc_TypeError, "expected a TF_Operation pointer");
    return -1;
  }
  *out = (TF_Operation*)p;
  return 0;
}

int MT_PyToOutput(PyObject* obj, TF_Output* out) {
  if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 2) {
    PyErr_SetString(PyExc_TypeError, "expected an (operation, index) tuple");
    return -1;
  }
  if (MT_PyToOperation(PyTuple_GET_ITEM(obj, 0), &out->oper) < 0) return -1;
  long index = PyLong_AsLong(PyTuple_GET_ITEM(obj, 1));
  if (index == -1 && PyErr_Occurred()) return -1;
  out->index = (int)index;
  return 0;
}

static PyObject* MT_OutputToPy(TF_Operation* oper, int index) {
  if (oper == NULL) Py_RETURN_NONE;
  return Py_BuildValue("(Ni)", SWIG_NewPointerObj(oper, SWIGTYPE_p_TF_Operation, 0), index);
}
%}

%typemap(in) TF_Output {
  if (MT_PyToOutput($input, &$1) < 0) SWIG_fail;
}
%typemap(in) TF_Input {
  TF_Output tmp_out;
  if (MT_PyToOutput($input, &tmp_out) < 0) SWIG_fail;
  $1.oper = tmp_out.oper;
  $1.index = tmp_out.index;
}
%typemap(out) TF_Output { $result = MT_OutputToPy($1.oper, $1.index); }
%typemap(typecheck) TF_Output, TF_Input { $1 = PyTuple_Check($input); }

/* A list of (operation, index) tuples. */
%typemap(in) (const TF_Output* inputs, int num_inputs) {
  PyObject* seq = PySequence_Fast($input, "expected a list of (operation, index) tuples");
  if (seq == NULL) SWIG_fail;
  $2 = (int)PySequence_Fast_GET_SIZE(seq);
  $1 = (TF_Output*)calloc((size_t)$2 + 1, sizeof(TF_Output));
  for (int i = 0; i < $2; i++) {
    if (MT_PyToOutput(PySequence_Fast_GET_ITEM(seq, i), &$1[i]) < 0) {
      Py_DECREF(seq);
      SWIG_fail;
    }
  }
  Py_DECREF(seq);
}
%typemap(freearg) (const TF_Output* inputs, int num_inputs) { free($1); }

/* ---------------------------------------------------------------------- */
/* Byte buffers and strings.                                              */

%typemap(in) (const void* value, size_t length), (const void* proto, size_t proto_len),
             (const char* value, size_t length) {
  char* buf = NULL;
  Py_ssize_t len = 0;
  if (PyUnicode_Check($input)) {
    buf = (char*)PyUnicode_AsUTF8AndSize($input, &len);
    if (buf == NULL) SWIG_fail;
  } else if (PyBytes_AsStringAndSize($input, &buf, &len) < 0) {
    SWIG_fail;
  }
  $1 = ($1_ltype)buf;
  $2 = (size_t)len;
}

/* A serialized proto passed in: a TF_Buffer viewing the bytes object. */
%typemap(in) const TF_Buffer* graph_def (TF_Buffer tmp_buf) {
  char* buf = NULL;
  Py_ssize_t len = 0;
  if (PyBytes_AsStringAndSize($input, &buf, &len) < 0) SWIG_fail;
  tmp_buf.data = buf;
  tmp_buf.length = (size_t)len;
  tmp_buf.data_deallocator = NULL;
  $1 = &tmp_buf;
}

/* Serialized protos coming out: returned as bytes. */
%typemap(in, numinputs=0) TF_Buffer* output_graph_def, TF_Buffer* output_node_def,
                          TF_Buffer* output_attr_value, TF_Buffer* output_op_def,
                          TF_Buffer* output_func_def {
  $1 = TF_NewBuffer();
  if ($1 == NULL) SWIG_exception_fail(SWIG_MemoryError, "out of memory");
}
%typemap(argout) TF_Buffer* output_graph_def, TF_Buffer* output_node_def,
                 TF_Buffer* output_attr_value, TF_Buffer* output_op_def,
                 TF_Buffer* output_func_def {
  Py_XDECREF($result);
  $result = PyBytes_FromStringAndSize((const char*)$1->data, (Py_ssize_t)$1->length);
  if ($result == NULL) SWIG_fail;
}
%typemap(freearg) TF_Buffer* output_graph_def, TF_Buffer* output_node_def,
                  TF_Buffer* output_attr_value, TF_Buffer* output_op_def,
                  TF_Buffer* output_func_def {
  TF_DeleteBuffer($1);
}

/* ---------------------------------------------------------------------- */
/* Attribute lists.                                                       */

%define MT_LIST_TYPEMAP(CTYPE, ARGS, CONVERT)
%typemap(in) (const CTYPE* values, int num_values) {
  PyObject* seq = PySequence_Fast($input, "expected a list");
  if (seq == NULL) SWIG_fail;
  $2 = (int)PySequence_Fast_GET_SIZE(seq);
  $1 = (CTYPE*)calloc((size_t)$2 + 1, sizeof(CTYPE));
  for (int i = 0; i < $2; i++) {
    PyObject* item = PySequence_Fast_GET_ITEM(seq, i);
    $1[i] = (CTYPE)CONVERT(item);
    if (PyErr_Occurred()) {
      Py_DECREF(seq);
      SWIG_fail;
    }
  }
  Py_DECREF(seq);
}
%typemap(freearg) (const CTYPE* values, int num_values) { free((void*)$1); }
%enddef

MT_LIST_TYPEMAP(int64_t, , PyLong_AsLongLong)
MT_LIST_TYPEMAP(float, , PyFloat_AsDouble)
MT_LIST_TYPEMAP(unsigned char, , PyObject_IsTrue)
MT_LIST_TYPEMAP(TF_DataType, , PyLong_AsLong)

/* A shape: None (unknown rank) or a list of ints (-1 = unknown dim). */
%typemap(in) (const int64_t* dims, int num_dims), (const int64_t* dims, const int num_dims) {
  $1 = NULL;
  $2 = -1;
  if ($input != Py_None) {
    PyObject* seq = PySequence_Fast($input, "expected None or a list of ints");
    if (seq == NULL) SWIG_fail;
    int n = (int)PySequence_Fast_GET_SIZE(seq);
    int64_t* dims = (int64_t*)calloc((size_t)n + 1, sizeof(int64_t));
    for (int i = 0; i < n; i++) dims[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
    Py_DECREF(seq);
    $1 = dims;
    $2 = n;
    if (PyErr_Occurred()) SWIG_fail;
  }
}
%typemap(freearg) (const int64_t* dims, int num_dims), (const int64_t* dims, const int num_dims) {
  free((void*)$1);
}

/* A list of shapes, each None or a list of ints. */
%typemap(in) (const int64_t* const* dims, const int* num_dims, int num_shapes) {
  PyObject* seq = PySequence_Fast($input, "expected a list of shapes");
  if (seq == NULL) SWIG_fail;
  $3 = (int)PySequence_Fast_GET_SIZE(seq);
  int64_t** all = (int64_t**)calloc((size_t)$3 + 1, sizeof(int64_t*));
  int* ranks = (int*)calloc((size_t)$3 + 1, sizeof(int));
  $1 = ($1_ltype)all;
  $2 = ranks;
  for (int s = 0; s < $3 && !PyErr_Occurred(); s++) {
    PyObject* shape = PySequence_Fast_GET_ITEM(seq, s);
    ranks[s] = -1;
    if (shape == Py_None) continue;
    PyObject* dseq = PySequence_Fast(shape, "expected None or a list of ints");
    if (dseq == NULL) break;
    ranks[s] = (int)PySequence_Fast_GET_SIZE(dseq);
    all[s] = (int64_t*)calloc((size_t)ranks[s] + 1, sizeof(int64_t));
    for (int i = 0; i < ranks[s]; i++)
      all[s][i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(dseq, i));
    Py_DECREF(dseq);
  }
  Py_DECREF(seq);
  if (PyErr_Occurred()) SWIG_fail;
}
%typemap(freearg) (const int64_t* const* dims, const int* num_dims, int num_shapes) {
  for (int s = 0; $1 && s < $3; s++) free((void*)$1[s]);
  free((void*)$1);
  free((void*)$2);
}

/* A list of bytes / str. */
%typemap(in) (const void* const* values, const size_t* lengths, int num_values)
    (PyObject* seq_holder = NULL) {
  PyObject* seq = PySequence_Fast($input, "expected a list of bytes");
  if (seq == NULL) SWIG_fail;
  $3 = (int)PySequence_Fast_GET_SIZE(seq);
  $1 = ($1_ltype)calloc((size_t)$3 + 1, sizeof(void*));
  $2 = ($2_ltype)calloc((size_t)$3 + 1, sizeof(size_t));
  for (int i = 0; i < $3; i++) {
    PyObject* item = PySequence_Fast_GET_ITEM(seq, i);
    char* buf = NULL;
    Py_ssize_t len = 0;
    if (PyUnicode_Check(item)) {
      buf = (char*)PyUnicode_AsUTF8AndSize(item, &len);
    } else if (PyBytes_AsStringAndSize(item, &buf, &len) < 0) {
      buf = NULL;
    }
    if (buf == NULL) {
      Py_DECREF(seq);
      SWIG_fail;
    }
    ((const void**)$1)[i] = buf;
    ((size_t*)$2)[i] = (size_t)len;
  }
  /* The items stay alive: `seq` holds them until freearg. */
  seq_holder = seq;
}
%typemap(freearg) (const void* const* values, const size_t* lengths, int num_values) {
  free((void*)$1);
  free((void*)$2);
  Py_XDECREF(seq_holder$argnum);
}

/* A list of TF_Tensor pointers. */
%typemap(in) (TF_Tensor* const* values, int num_values) {
  PyObject* seq = PySequence_Fast($input, "expected a list of TF_Tensor pointers");
  if (seq == NULL) SWIG_fail;
  $2 = (int)PySequence_Fast_GET_SIZE(seq);
  TF_Tensor** ts = (TF_Tensor**)calloc((size_t)$2 + 1, sizeof(TF_Tensor*));
  $1 = ts;
  for (int i = 0; i < $2; i++) {
    void* p = NULL;
    if (!SWIG_IsOK(SWIG_ConvertPtr(PySequence_Fast_GET_ITEM(seq, i), &p, $descriptor(TF_Tensor*), 0))) {
      Py_DECREF(seq);
      SWIG_exception_fail(SWIG_TypeError, "expected a list of TF_Tensor pointers");
    }
    ts[i] = (TF_Tensor*)p;
  }
  Py_DECREF(seq);
}
%typemap(freearg) (TF_Tensor* const* values, int num_values) { free((void*)$1); }

/* ---------------------------------------------------------------------- */
/* What is not wrapped as is (replaced by MT_* helpers or not needed).    */

%ignore TF_Output;
%ignore TF_Input;
%ignore TF_Buffer;
%ignore TF_GetBuffer;
%ignore TF_NewTensor;
%ignore TF_AllocateTensor;
%ignore TF_TensorMaybeMove;
%ignore TF_TensorBitcastFrom;
%ignore TF_TString;
%ignore TF_TString_Large;
%ignore TF_TString_View;
%ignore TF_TString_Small;
%ignore TF_StringInit;
%ignore TF_StringCopy;
%ignore TF_StringAssignView;
%ignore TF_StringGetDataPointer;
%ignore TF_StringGetType;
%ignore TF_StringGetSize;
%ignore TF_StringGetCapacity;
%ignore TF_StringDealloc;
%ignore TF_GraphGetTensorShape;
%ignore TF_OperationAllInputs;
%ignore TF_OperationOutputConsumers;
%ignore TF_OperationGetControlInputs;
%ignore TF_OperationGetControlOutputs;
%ignore TF_OperationGetAttrString;
%ignore TF_OperationGetAttrInt;
%ignore TF_OperationGetAttrIntList;
%ignore TF_OperationGetAttrFloat;
%ignore TF_OperationGetAttrBool;
%ignore TF_OperationGetAttrType;
%ignore TF_OperationGetAttrTypeList;
%ignore TF_OperationGetAttrShape;
%ignore TF_OperationGetAttrTensor;
%ignore TF_GraphNextOperation;
%ignore TF_GetAllOpList;
%ignore TF_GraphImportGraphDefWithReturnOutputs;
%ignore TF_ImportGraphDefResultsReturnOutputs;
%ignore TF_ImportGraphDefResultsReturnOperations;
%ignore TF_ImportGraphDefResultsMissingUnusedInputMappings;
%ignore TF_SessionRun;
%ignore TF_SessionPRunSetup;
%ignore TF_SessionPRun;
%ignore TF_DeletePRunHandle;
%ignore TF_GraphToFunction;
%ignore TF_GraphToFunctionWithControlOutputs;
%ignore TF_GraphGetFunctions;

%include "tensorflow/c/tf_attrtype.h"
%include "tensorflow/c/tf_datatype.h"
%include "tensorflow/c/tf_status.h"
%include "tensorflow/c/tf_buffer.h"
%include "tensorflow/c/tf_tensor.h"
%include "tensorflow/c/c_api.h"
%ignore MT_AddOpGradient; /* through MT_OpGradient */
%ignore MT_SetPyFuncCallback; /* through MT_RegisterPyFuncTrampoline */
%ignore MT_AddWhileInputs; /* through MT_AddWhileInputsPy */
%ignore MT_FunctionArity; /* through MT_FunctionBodyToGraph */
%ignore MT_FunctionToGraph;
%include "tensorflow/c/python_api.h"

/* ---------------------------------------------------------------------- */
/* Helpers returning Python values (GIL held; no status unless stated).   */

%typemap(out) PyObject* { $result = $1; if ($result == NULL && PyErr_Occurred()) SWIG_fail; }

%inline %{
/* Static shape of `output`: None (unknown rank) or a list of ints, -1 for
 * unknown dims. Raises like TF_GraphGetTensorNumDims. */
PyObject* MT_GraphGetTensorShape(TF_Graph* graph, TF_Output output, TF_Status* status) {
  int nd = TF_GraphGetTensorNumDims(graph, output, status);
  if (TF_GetCode(status) != TF_OK) return NULL;
  if (nd < 0) Py_RETURN_NONE;
  int64_t dims[64];
  if (nd > 64) return PyErr_Format(PyExc_ValueError, "rank %d too large", nd);
  TF_GraphGetTensorShape(graph, output, dims, nd, status);
  if (TF_GetCode(status) != TF_OK) return NULL;
  PyObject* list = PyList_New(nd);
  for (int i = 0; list && i < nd; i++) PyList_SET_ITEM(list, i, PyLong_FromLongLong(dims[i]));
  return list;
}

/* Every operation of `graph` in creation order (a list of pointers). */
PyObject* MT_GraphOperations(TF_Graph* graph) {
  PyObject* list = PyList_New(0);
  size_t pos = 0;
  TF_Operation* op;
  while (list && (op = TF_GraphNextOperation(graph, &pos)) != NULL) {
    PyObject* p = SWIG_NewPointerObj(op, SWIGTYPE_p_TF_Operation, 0);
    if (PyList_Append(list, p) < 0) Py_CLEAR(list);
    Py_DECREF(p);
  }
  return list;
}

/* Producers of all inputs of `oper`: a list of (operation, index). */
PyObject* MT_OperationAllInputs(TF_Operation* oper) {
  int n = TF_OperationNumInputs(oper);
  PyObject* list = PyList_New(n);
  for (int i = 0; list && i < n; i++) {
    TF_Input in = {oper, i};
    TF_Output o = TF_OperationInput(in);
    PyList_SET_ITEM(list, i, MT_OutputToPy(o.oper, o.index));
  }
  return list;
}

/* Consumers of `output`: a list of (operation, input index). */
PyObject* MT_OperationOutputConsumers(TF_Output output) {
  int n = TF_OperationOutputNumConsumers(output);
  TF_Input* ins = (TF_Input*)calloc((size_t)n + 1, sizeof(TF_Input));
  if (ins == NULL) return PyErr_NoMemory();
  n = TF_OperationOutputConsumers(output, ins, n);
  PyObject* list = PyList_New(n);
  for (int i = 0; list && i < n; i++) PyList_SET_ITEM(list, i, MT_OutputToPy(ins[i].oper, ins[i].index));
  free(ins);
  return list;
}

static PyObject* mt_op_list(TF_Operation** ops, int n) {
  PyObject* list = PyList_New(n);
  for (int i = 0; list && i < n; i++)
    PyList_SET_ITEM(list, i, SWIG_NewPointerObj(ops[i], SWIGTYPE_p_TF_Operation, 0));
  return list;
}

/* Control inputs of `oper` (a list of pointers). */
PyObject* MT_OperationGetControlInputs(TF_Operation* oper) {
  int n = TF_OperationNumControlInputs(oper);
  TF_Operation** ops = (TF_Operation**)calloc((size_t)n + 1, sizeof(TF_Operation*));
  if (ops == NULL) return PyErr_NoMemory();
  n = TF_OperationGetControlInputs(oper, ops, n);
  PyObject* list = mt_op_list(ops, n);
  free(ops);
  return list;
}

/* Operations with a control input on `oper` (a list of pointers). */
PyObject* MT_OperationGetControlOutputs(TF_Operation* oper) {
  int n = TF_OperationNumControlOutputs(oper);
  TF_Operation** ops = (TF_Operation**)calloc((size_t)n + 1, sizeof(TF_Operation*));
  if (ops == NULL) return PyErr_NoMemory();
  n = TF_OperationGetControlOutputs(oper, ops, n);
  PyObject* list = mt_op_list(ops, n);
  free(ops);
  return list;
}

/* Every registered op as a serialized tensorflow.OpList (bytes). */
PyObject* MT_GetAllOpList(void) {
  TF_Buffer* buf = TF_GetAllOpList();
  if (buf == NULL) return PyErr_NoMemory();
  PyObject* b = PyBytes_FromStringAndSize((const char*)buf->data, (Py_ssize_t)buf->length);
  TF_DeleteBuffer(buf);
  return b;
}


/* Sequences of Python items as C arrays for MT_GraphToFunction. */
static int mt_outputs_from_py(PyObject* obj, TF_Output** out, int* n) {
  PyObject* seq = PySequence_Fast(obj, "expected a list of (operation, index) tuples");
  if (!seq) return -1;
  *n = (int)PySequence_Fast_GET_SIZE(seq);
  *out = (TF_Output*)calloc((size_t)*n + 1, sizeof(TF_Output));
  for (int i = 0; *out && i < *n; i++)
    if (MT_PyToOutput(PySequence_Fast_GET_ITEM(seq, i), &(*out)[i]) < 0) {
      Py_DECREF(seq);
      return -1;
    }
  Py_DECREF(seq);
  return *out ? 0 : (PyErr_NoMemory(), -1);
}

static int mt_opers_from_py(PyObject* obj, TF_Operation*** out, int* n) {
  PyObject* seq = PySequence_Fast(obj, "expected a list of operations");
  if (!seq) return -1;
  *n = (int)PySequence_Fast_GET_SIZE(seq);
  *out = (TF_Operation**)calloc((size_t)*n + 1, sizeof(TF_Operation*));
  for (int i = 0; *out && i < *n; i++)
    if (MT_PyToOperation(PySequence_Fast_GET_ITEM(seq, i), &(*out)[i]) < 0) {
      Py_DECREF(seq);
      return -1;
    }
  Py_DECREF(seq);
  return *out ? 0 : (PyErr_NoMemory(), -1);
}

/* A list of str (or None) as C strings borrowed from `seq` (kept alive by
 * the caller); NULL entries for None. */
static int mt_names_from_py(PyObject* seq, const char*** out, int n) {
  *out = (const char**)calloc((size_t)n + 1, sizeof(char*));
  if (!*out) return (PyErr_NoMemory(), -1);
  for (int i = 0; i < n; i++) {
    PyObject* item = PySequence_Fast_GET_ITEM(seq, i);
    if (item == Py_None) continue;
    if (!((*out)[i] = PyUnicode_AsUTF8(item))) return -1;
  }
  return 0;
}

/* TF_GraphToFunctionWithControlOutputs from Python lists: `opers` None =
 * every op (-1); `output_names` / `control_names` None or lists of str. */
TF_Function* MT_GraphToFunction(TF_Graph* graph, const char* name, PyObject* opers,
                                PyObject* inputs, PyObject* outputs, PyObject* output_names,
                                PyObject* control_outputs, PyObject* control_names,
                                const char* description, TF_Status* status) {
  TF_Output *ins = NULL, *outs = NULL;
  TF_Operation **ops = NULL, **ctrl = NULL;
  const char **onames = NULL, **cnames = NULL;
  PyObject *oseq = NULL, *cseq = NULL;
  int nops = -1, nin = 0, nout = 0, nctrl = 0;
  TF_Function* fn = NULL;
  if (opers != Py_None && mt_opers_from_py(opers, &ops, &nops) < 0) goto done;
  if (mt_outputs_from_py(inputs, &ins, &nin) < 0 || mt_outputs_from_py(outputs, &outs, &nout) < 0 ||
      mt_opers_from_py(control_outputs, &ctrl, &nctrl) < 0)
    goto done;
  if (output_names != Py_None) {
    if (!(oseq = PySequence_Fast(output_names, "output_names must be a list"))) goto done;
    if (PySequence_Fast_GET_SIZE(oseq) != nout) {
      PyErr_SetString(PyExc_ValueError, "output_names must name every output");
      goto done;
    }
    if (mt_names_from_py(oseq, &onames, nout) < 0) goto done;
  }
  if (control_names != Py_None) {
    if (!(cseq = PySequence_Fast(control_names, "control_names must be a list"))) goto done;
    if (PySequence_Fast_GET_SIZE(cseq) != nctrl) {
      PyErr_SetString(PyExc_ValueError, "control_names must name every control output");
      goto done;
    }
    if (mt_names_from_py(cseq, &cnames, nctrl) < 0) goto done;
  }
  fn = TF_GraphToFunctionWithControlOutputs(graph, name, 0, nops, (const TF_Operation* const*)ops,
                                            nin, ins, nout, outs, onames, nctrl,
                                            (const TF_Operation* const*)ctrl, cnames, NULL,
                                            description, status);
done:
  free(ins);
  free(outs);
  free(ops);
  free(ctrl);
  free(onames);
  free(cnames);
  Py_XDECREF(oseq);
  Py_XDECREF(cseq);
  return fn;
}

/* MT_AddWhileInputs with a list of (operation, index) tuples. */
void MT_AddWhileInputsPy(TF_Graph* graph, TF_Operation* op, PyObject* inputs,
                         TF_Status* status) {
  TF_Output* ins = NULL;
  int n = 0;
  if (mt_outputs_from_py(inputs, &ins, &n) == 0) MT_AddWhileInputs(graph, op, ins, n, status);
  free(ins);
}

/* MT_FunctionToGraph: ([argument placeholders], [results]) as lists of
 * (operation, index) tuples; NotFoundError when lib has no such function. */
PyObject* MT_FunctionBodyToGraph(TF_Graph* lib, const char* name, TF_Graph* dst,
                                 TF_Status* status) {
  int nargs = 0, nrets = 0;
  if (!MT_FunctionArity(lib, name, &nargs, &nrets)) {
    TF_SetStatus(status, TF_NOT_FOUND, "Function is not defined.");
    return NULL;
  }
  TF_Output* args = (TF_Output*)calloc((size_t)nargs + 1, sizeof(TF_Output));
  TF_Output* rets = (TF_Output*)calloc((size_t)nrets + 1, sizeof(TF_Output));
  PyObject* result = NULL;
  if (!args || !rets) {
    PyErr_NoMemory();
  } else {
    MT_FunctionToGraph(lib, name, dst, args, nargs, rets, nrets, status);
    if (TF_GetCode(status) == TF_OK) {
      PyObject* a = PyList_New(nargs);
      PyObject* r = PyList_New(nrets);
      for (int i = 0; a && i < nargs; i++) PyList_SET_ITEM(a, i, MT_OutputToPy(args[i].oper, args[i].index));
      for (int i = 0; r && i < nrets; i++) PyList_SET_ITEM(r, i, MT_OutputToPy(rets[i].oper, rets[i].index));
      if (a && r) result = Py_BuildValue("(NN)", a, r);
      else { Py_XDECREF(a); Py_XDECREF(r); }
    }
  }
  free(args);
  free(rets);
  return result;
}

/* The functions of g's library: a list of new TF_Function pointers the
 * caller deletes with TF_DeleteFunction. */
PyObject* MT_GraphGetFunctions(TF_Graph* graph, TF_Status* status) {
  int n = TF_GraphNumFunctions(graph);
  TF_Function** fns = (TF_Function**)calloc((size_t)n + 1, sizeof(TF_Function*));
  if (!fns) return PyErr_NoMemory();
  n = TF_GraphGetFunctions(graph, fns, n, status);
  PyObject* list = PyList_New(n);
  for (int i = 0; list && i < n; i++)
    PyList_SET_ITEM(list, i, SWIG_NewPointerObj(fns[i], SWIGTYPE_p_TF_Function, 0));
  free(fns);
  return list;
}

/* The names of the functions of g's own library (a list of str). */
PyObject* MT_GraphFunctionNames(TF_Graph* graph, TF_Status* status) {
  int n = TF_GraphNumFunctions(graph);
  TF_Function** fns = (TF_Function**)calloc((size_t)n + 1, sizeof(TF_Function*));
  if (!fns) return PyErr_NoMemory();
  n = TF_GraphGetFunctions(graph, fns, n, status);
  PyObject* list = PyList_New(n);
  for (int i = 0; i < n; i++) {
    if (list) PyList_SET_ITEM(list, i, PyUnicode_FromString(TF_FunctionName(fns[i])));
    TF_DeleteFunction(fns[i]);
  }
  free(fns);
  return list;
}

/* Outputs requested with TF_ImportGraphDefOptionsAddReturnOutput. */
PyObject* MT_ImportGraphDefResultsReturnOutputs(TF_ImportGraphDefResults* results) {
  int n = 0;
  TF_Output* outs = NULL;
  TF_ImportGraphDefResultsReturnOutputs(results, &n, &outs);
  PyObject* list = PyList_New(n);
  for (int i = 0; list && i < n; i++) PyList_SET_ITEM(list, i, MT_OutputToPy(outs[i].oper, outs[i].index));
  return list;
}

/* Operations requested with TF_ImportGraphDefOptionsAddReturnOperation. */
PyObject* MT_ImportGraphDefResultsReturnOperations(TF_ImportGraphDefResults* results) {
  int n = 0;
  TF_Operation** ops = NULL;
  TF_ImportGraphDefResultsReturnOperations(results, &n, &ops);
  return mt_op_list(ops, n);
}

/* Input mappings that matched nothing in the GraphDef: [(name, index)]. */
PyObject* MT_ImportGraphDefResultsMissingUnusedInputMappings(TF_ImportGraphDefResults* results) {
  int n = 0;
  const char** names = NULL;
  int* indexes = NULL;
  TF_ImportGraphDefResultsMissingUnusedInputMappings(results, &n, &names, &indexes);
  PyObject* list = PyList_New(n);
  for (int i = 0; list && i < n; i++) PyList_SET_ITEM(list, i, Py_BuildValue("(si)", names[i], indexes[i]));
  return list;
}
%}

/* The session helper (c_api/python/session_helper.c). */
%typemap(out) TF_Tensor* MT_NdarrayToTensor {
  if ($1 == NULL) SWIG_fail;
  $result = SWIG_NewPointerObj($1, $descriptor(TF_Tensor*), 0);
}
%typemap(in) PyObject* { $1 = $input; }
TF_Tensor* MT_NdarrayToTensor(PyObject* value, int dtype);
/* Takes ownership of `tensor`: do not TF_DeleteTensor it afterwards. */
PyObject* MT_TensorToNdarray(TF_Tensor* tensor);
PyObject* MT_SessionRun(TF_Session* session, PyObject* feed_outputs, PyObject* feed_values,
                        PyObject* fetch_outputs, PyObject* targets, TF_Status* status);
PyObject* MT_SessionRunWithOptions(TF_Session* session, PyObject* run_options,
                                   PyObject* feed_outputs, PyObject* feed_values,
                                   PyObject* fetch_outputs, PyObject* targets, int want_metadata,
                                   TF_Status* status);
/* Partial runs: (handle str, owner capsule) from setup; the capsule's death
 * ends the run. */
PyObject* MT_SessionPRunSetup(TF_Session* session, PyObject* feed_outputs,
                              PyObject* fetch_outputs, PyObject* targets, TF_Status* status);
PyObject* MT_SessionPRun(TF_Session* session, PyObject* handle, PyObject* feed_outputs,
                         PyObject* feed_values, PyObject* fetch_outputs, TF_Status* status);
/* DLPack capsules (c_api/python/session_helper.c; minitf.experimental.dlpack). */
PyObject* MT_ToDLPack(PyObject* value, int versioned);
PyObject* MT_FromDLPack(PyObject* capsule);
/* py_func nodes (c_api/python/py_func_helper.c; minitf.ops.script_ops). */
PyObject* MT_RegisterPyFuncTrampoline(PyObject* fn);

%inline %{
/* The built-in gradient of `oper` (MT_AddOpGradient): None when no
 * gradient is registered for its type; else (dx, new_ops) with dx a list
 * per input of (operation, index), None, or for IndexedSlices a triple of
 * (values, indices, dense_shape) outputs, and new_ops the operations
 * added. `dys`: a list of (operation, index) or None per output. */
PyObject* MT_OpGradient(TF_Graph* graph, TF_Operation* oper, const char* grad_type,
                        const char* scope, PyObject* dys, TF_Status* status) {
  int ny = TF_OperationNumOutputs(oper), nx = TF_OperationNumInputs(oper);
  PyObject* seq = PySequence_Fast(dys, "dys must be a sequence");
  if (!seq) return NULL;
  if (PySequence_Fast_GET_SIZE(seq) != ny) {
    Py_DECREF(seq);
    return PyErr_Format(PyExc_ValueError, "expected %d output gradients", ny);
  }
  TF_Output* dy = calloc((size_t)ny + 1, sizeof(TF_Output));
  TF_Output* dx = calloc((size_t)nx * 3 + 3, sizeof(TF_Output));
  TF_Output* dx_indices = dx ? dx + nx + 1 : NULL;
  TF_Output* dx_shape = dx ? dx + 2 * nx + 2 : NULL;
  PyObject* result = NULL;
  if (!dy || !dx) {
    PyErr_NoMemory();
    goto done;
  }
  for (int i = 0; i < ny; i++) {
    PyObject* item = PySequence_Fast_GET_ITEM(seq, i);
    if (item != Py_None && MT_PyToOutput(item, &dy[i]) < 0) goto done;
  }
  size_t pos = 0;
  int rc = MT_AddOpGradient(graph, oper, grad_type, scope, dy, ny, dx, dx_indices, dx_shape, nx,
                            &pos, status);
  if (rc < 0) goto done;
  if (rc == 0) {
    result = Py_None;
    Py_INCREF(result);
    goto done;
  }
  PyObject* grads = PyList_New(nx);
  PyObject* ops = PyList_New(0);
  for (int i = 0; grads && i < nx; i++) {
    PyObject* item = MT_OutputToPy(dx[i].oper, dx[i].index);
    if (item && dx[i].oper && dx_indices[i].oper)
      item = Py_BuildValue("(NNN)", item, MT_OutputToPy(dx_indices[i].oper, dx_indices[i].index),
                           MT_OutputToPy(dx_shape[i].oper, dx_shape[i].index));
    PyList_SET_ITEM(grads, i, item);
  }
  TF_Operation* op;
  while (ops && (op = TF_GraphNextOperation(graph, &pos)) != NULL) {
    PyObject* p = SWIG_NewPointerObj(op, SWIGTYPE_p_TF_Operation, 0);
    if (PyList_Append(ops, p) < 0) Py_CLEAR(ops);
    Py_DECREF(p);
  }
  if (grads && ops) result = Py_BuildValue("(OO)", grads, ops);
  Py_XDECREF(grads);
  Py_XDECREF(ops);
done:
  Py_DECREF(seq);
  free(dy);
  free(dx);
  return result;
}

%}

/* ---------------------------------------------------------------------- */
/* TFRecord files (tensorflow/c/record_io.h; minitf.lib.io.tf_record).    */

%ignore MT_RecordReaderNext; /* through MT_RecordReaderNextPy */
%include "tensorflow/c/record_io.h"

%inline %{
/* The next record as bytes, or None at the end of the file (the file is
 * read with the GIL released). */
PyObject* MT_RecordReaderNextPy(MT_RecordReader* reader, TF_Status* status) {
  const char* data = NULL;
  size_t len = 0;
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = MT_RecordReaderNext(reader, &data, &len, status);
  Py_END_ALLOW_THREADS
  if (rc <= 0) Py_RETURN_NONE; /* an error is raised from the status */
  return PyBytes_FromStringAndSize(data, (Py_ssize_t)len);
}
%}
