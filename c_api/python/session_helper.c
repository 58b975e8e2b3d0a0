/* Session helper: ndarray <-> TF_Tensor conversion and TF_SessionRun for the
 * SWIG module. See session_helper.h for the contracts. */
#define PY_SSIZE_T_CLEAN
#include "session_helper.h"

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <string.h>

#define MT_MAX_DIMS 32
static const char kTensorCapsule[] = "minitf.TF_Tensor";

int MT_InitHelper(void) {
  static int ready = 0; /* guarded by the GIL */
  if (ready) return 0;
  if (_import_array() < 0) return -1;
  ready = 1;
  return 0;
}

PyObject* MT_RaiseStatus(const TF_Status* status) {
  const char* msg = TF_Message(status);
  PyObject* mod = PyImport_ImportModule("minitf.errors");
  if (mod == NULL) return NULL;
  PyObject* exc = PyObject_CallMethod(mod, "_status_to_exception", "(iN)", (int)TF_GetCode(status),
                                      PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "replace"));
  Py_DECREF(mod);
  if (exc == NULL) return NULL;
  PyErr_SetObject((PyObject*)Py_TYPE(exc), exc);
  Py_DECREF(exc);
  return NULL;
}

/* NumPy type number of ml_dtypes.bfloat16 (a user-defined NumPy type), or
 * -1 when ml_dtypes is not installed. Looked up once; guarded by the GIL. */
static int bfloat16_type_num(void) {
  static int num = -2;
  if (num != -2) return num;
  num = -1;
  PyObject* mod = PyImport_ImportModule("ml_dtypes");
  PyObject* type = mod ? PyObject_GetAttrString(mod, "bfloat16") : NULL;
  PyArray_Descr* d = type ? PyArray_DescrFromTypeObject(type) : NULL;
  if (d) num = d->type_num;
  Py_XDECREF(d);
  Py_XDECREF(type);
  Py_XDECREF(mod);
  PyErr_Clear();
  return num;
}

/* NumPy type number for a TF dtype, or -1 when NumPy has no equivalent. */
static int npy_type_of(TF_DataType dt) {
  switch (dt) {
    case TF_BFLOAT16: return bfloat16_type_num();
    case TF_FLOAT: return NPY_FLOAT32;
    case TF_DOUBLE: return NPY_FLOAT64;
    case TF_INT32: return NPY_INT32;
    case TF_UINT8: return NPY_UINT8;
    case TF_INT16: return NPY_INT16;
    case TF_INT8: return NPY_INT8;
    case TF_COMPLEX64: return NPY_COMPLEX64;
    case TF_INT64: return NPY_INT64;
    case TF_BOOL: return NPY_BOOL;
    case TF_UINT16: return NPY_UINT16;
    case TF_COMPLEX128: return NPY_COMPLEX128;
    case TF_HALF: return NPY_FLOAT16;
    case TF_UINT32: return NPY_UINT32;
    case TF_UINT64: return NPY_UINT64;
    case TF_QINT8: return NPY_INT8;
    case TF_QUINT8: return NPY_UINT8;
    case TF_QINT16: return NPY_INT16;
    case TF_QUINT16: return NPY_UINT16;
    case TF_QINT32: return NPY_INT32;
    default: return -1;
  }
}

/* The NumPy dtype of bfloat16 arrays: ml_dtypes.bfloat16, as TensorFlow
 * uses. New reference; NULL + TypeError without ml_dtypes. GIL held. */
static PyArray_Descr* bfloat16_descr(void) {
  int num = bfloat16_type_num();
  if (num < 0) {
    PyErr_SetString(PyExc_TypeError, "bfloat16 values need the ml_dtypes package");
    return NULL;
  }
  return PyArray_DescrFromType(num);
}

/* TF dtype for a NumPy array, or 0 when TensorFlow has none. */
static TF_DataType tf_type_of(PyArrayObject* a) {
  /* Integers by signedness and size: NumPy has two type numbers for some
   * 64-bit integers (long / long long), either of which an array can carry. */
  int num = PyArray_TYPE(a);
  if (PyTypeNum_ISINTEGER(num)) {
    int unsigned_ = PyTypeNum_ISUNSIGNED(num);
    switch (PyArray_ITEMSIZE(a)) {
      case 1: return unsigned_ ? TF_UINT8 : TF_INT8;
      case 2: return unsigned_ ? TF_UINT16 : TF_INT16;
      case 4: return unsigned_ ? TF_UINT32 : TF_INT32;
      case 8: return unsigned_ ? TF_UINT64 : TF_INT64;
      default: return (TF_DataType)0;
    }
  }
  switch (PyArray_TYPE(a)) {
    case NPY_FLOAT32: return TF_FLOAT;
    case NPY_FLOAT64: return TF_DOUBLE;
    case NPY_INT32: return TF_INT32;
    case NPY_UINT8: return TF_UINT8;
    case NPY_INT16: return TF_INT16;
    case NPY_INT8: return TF_INT8;
    case NPY_COMPLEX64: return TF_COMPLEX64;
    case NPY_INT64: return TF_INT64;
    case NPY_BOOL: return TF_BOOL;
    case NPY_UINT16: return TF_UINT16;
    case NPY_COMPLEX128: return TF_COMPLEX128;
    case NPY_FLOAT16: return TF_HALF;
    case NPY_UINT32: return TF_UINT32;
    case NPY_UINT64: return TF_UINT64;
    case NPY_OBJECT: case NPY_STRING: case NPY_UNICODE: return TF_STRING;
    default:
      if (PyArray_TYPE(a) >= NPY_USERDEF && PyArray_TYPE(a) == bfloat16_type_num())
        return TF_BFLOAT16;
      return (TF_DataType)0;
  }
}

/* TF_NewTensor deallocator for wrapped arrays: drops the array reference.
 * The runtime may call it from any thread, with or without the GIL. */
static void release_array(void* data, size_t len, void* arg) {
  (void)data;
  (void)len;
  if (!Py_IsInitialized()) return;
  PyGILState_STATE g = PyGILState_Ensure();
  Py_DECREF((PyObject*)arg);
  PyGILState_Release(g);
}

static int fill_dims(PyArrayObject* a, int64_t* dims) {
  int nd = PyArray_NDIM(a);
  if (nd > MT_MAX_DIMS) {
    PyErr_Format(PyExc_ValueError, "arrays of rank %d are not supported (max %d)", nd,
                 MT_MAX_DIMS);
    return -1;
  }
  for (int i = 0; i < nd; i++) dims[i] = (int64_t)PyArray_DIM(a, i);
  return nd;
}

/* One string element as bytes (str is encoded as UTF-8). New reference. */
static PyObject* as_bytes(PyObject* item) {
  if (PyBytes_Check(item)) {
    Py_INCREF(item);
    return item;
  }
  if (PyUnicode_Check(item)) return PyUnicode_AsUTF8String(item);
  PyErr_Format(PyExc_TypeError, "expected bytes or str for a string tensor element, got %s",
               Py_TYPE(item)->tp_name);
  return NULL;
}

static TF_Tensor* string_tensor(PyObject* value) {
  PyArrayObject* a = (PyArrayObject*)PyArray_FromAny(value, NULL, 0, 0, NPY_ARRAY_CARRAY, NULL);
  if (a == NULL) return NULL;
  if (tf_type_of(a) != TF_STRING) {
    PyErr_Format(PyExc_TypeError, "cannot convert an array of dtype %R to a string tensor",
                 (PyObject*)PyArray_DESCR(a));
    Py_DECREF(a);
    return NULL;
  }
  int64_t dims[MT_MAX_DIMS];
  int nd = fill_dims(a, dims);
  npy_intp n = PyArray_SIZE(a);
  TF_Tensor* t = nd < 0 ? NULL : TF_AllocateTensor(TF_STRING, dims, nd, (size_t)n * sizeof(TF_TString));
  if (t == NULL) {
    if (!PyErr_Occurred()) PyErr_NoMemory();
    Py_DECREF(a);
    return NULL;
  }
  TF_TString* dst = (TF_TString*)TF_TensorData(t);
  char* src = PyArray_BYTES(a);
  npy_intp step = PyArray_ITEMSIZE(a);
  for (npy_intp i = 0; i < n; i++) {
    PyObject* item = PyArray_GETITEM(a, src + i * step);
    PyObject* b = item ? as_bytes(item) : NULL;
    Py_XDECREF(item);
    if (b == NULL) {
      TF_DeleteTensor(t);
      Py_DECREF(a);
      return NULL;
    }
    TF_StringCopy(&dst[i], PyBytes_AS_STRING(b), (size_t)PyBytes_GET_SIZE(b));
    Py_DECREF(b);
  }
  Py_DECREF(a);
  return t;
}

TF_Tensor* MT_NdarrayToTensor(PyObject* value, int dtype) {
  if (MT_InitHelper() < 0) return NULL;
  if (dtype == TF_STRING) return string_tensor(value);
  PyArray_Descr* descr = NULL;
  if (dtype == TF_BFLOAT16) {
    if ((descr = bfloat16_descr()) == NULL) return NULL;
  } else if (dtype != 0) {
    int nt = npy_type_of((TF_DataType)dtype);
    if (nt < 0) {
      PyErr_Format(PyExc_TypeError, "cannot feed or convert values of TF dtype %d", dtype);
      return NULL;
    }
    descr = PyArray_DescrFromType(nt);
  }
  /* No copy when `value` already is a C-contiguous aligned array of the
   * dtype; FORCECAST converts other dtypes as np.asarray(value, dtype). */
  PyArrayObject* a = (PyArrayObject*)PyArray_FromAny(
      value, descr, 0, 0, NPY_ARRAY_CARRAY_RO | NPY_ARRAY_FORCECAST, NULL);
  if (a == NULL) return NULL;
  TF_DataType dt = dtype != 0 ? (TF_DataType)dtype : tf_type_of(a);
  if (dt == TF_STRING) {
    Py_DECREF(a);
    return string_tensor(value);
  }
  if (dt == 0) {
    PyErr_Format(PyExc_TypeError, "unsupported NumPy dtype %R", (PyObject*)PyArray_DESCR(a));
    Py_DECREF(a);
    return NULL;
  }
  int64_t dims[MT_MAX_DIMS];
  int nd = fill_dims(a, dims);
  if (nd < 0) {
    Py_DECREF(a);
    return NULL;
  }
  /* The tensor takes over our reference to `a` (released by release_array,
   * which TF_NewTensor also calls when it fails). */
  TF_Tensor* t = TF_NewTensor(dt, dims, nd, PyArray_DATA(a), (size_t)PyArray_NBYTES(a),
                              release_array, a);
  if (t == NULL) PyErr_SetString(PyExc_ValueError, "TF_NewTensor refused the array");
  return t;
}

static void tensor_capsule_free(PyObject* cap) {
  TF_DeleteTensor((TF_Tensor*)PyCapsule_GetPointer(cap, kTensorCapsule));
}

static PyObject* string_array(TF_Tensor* t) {
  int nd = TF_NumDims(t);
  npy_intp dims[MT_MAX_DIMS];
  for (int i = 0; i < nd; i++) dims[i] = (npy_intp)TF_Dim(t, i);
  int64_t n = TF_TensorElementCount(t);
  const TF_TString* src = (const TF_TString*)TF_TensorData(t);
  if (nd == 0) {
    PyObject* b = PyBytes_FromStringAndSize(TF_StringGetDataPointer(&src[0]),
                                            (Py_ssize_t)TF_StringGetSize(&src[0]));
    TF_DeleteTensor(t);
    return b;
  }
  PyArrayObject* a = (PyArrayObject*)PyArray_SimpleNew(nd, dims, NPY_OBJECT);
  if (a == NULL) {
    TF_DeleteTensor(t);
    return NULL;
  }
  PyObject** out = (PyObject**)PyArray_DATA(a);
  for (int64_t i = 0; i < n; i++) {
    PyObject* b = PyBytes_FromStringAndSize(TF_StringGetDataPointer(&src[i]),
                                            (Py_ssize_t)TF_StringGetSize(&src[i]));
    if (b == NULL) {
      Py_DECREF(a);
      TF_DeleteTensor(t);
      return NULL;
    }
    Py_XSETREF(out[i], b);
  }
  TF_DeleteTensor(t);
  return (PyObject*)a;
}

PyObject* MT_TensorToNdarray(TF_Tensor* t) {
  if (MT_InitHelper() < 0) {
    TF_DeleteTensor(t);
    return NULL;
  }
  TF_DataType dt = TF_TensorType(t);
  if (dt == TF_STRING) return string_array(t);
  int nt = npy_type_of(dt);
  int nd = TF_NumDims(t);
  if (dt == TF_VARIANT) { /* a TensorList: TensorFlow's session refuses it so */
    TF_DeleteTensor(t);
    TF_Status* st = TF_NewStatus();
    TF_SetStatus(st, TF_INTERNAL, "Tensorflow type 21 not convertible to numpy dtype.");
    MT_RaiseStatus(st);
    TF_DeleteStatus(st);
    return NULL;
  }
  if ((nt < 0 && dt != TF_BFLOAT16) || nd > MT_MAX_DIMS) {
    TF_DeleteTensor(t);
    return PyErr_Format(PyExc_TypeError, "cannot fetch a tensor of TF dtype %d and rank %d",
                        (int)dt, nd);
  }
  PyArray_Descr* descr = dt == TF_BFLOAT16 ? bfloat16_descr() : PyArray_DescrFromType(nt);
  if (descr == NULL) {
    TF_DeleteTensor(t);
    return NULL;
  }
  if (nd == 0) { /* NumPy scalar, as tf.Session.run returns for 0-d values */
    PyObject* s = PyArray_Scalar(TF_TensorData(t), descr, NULL);
    Py_DECREF(descr);
    TF_DeleteTensor(t);
    return s;
  }
  npy_intp dims[MT_MAX_DIMS];
  for (int i = 0; i < nd; i++) dims[i] = (npy_intp)TF_Dim(t, i);
  void* data = TF_TensorData(t);
  if (data == NULL || TF_TensorElementCount(t) == 0) {
    TF_DeleteTensor(t);
    return PyArray_Empty(nd, dims, descr, 0);
  }
  if (TF_TensorMaybeMove(t) == NULL) {
    /* Shared with a constant, a variable, a fed array or another fetch:
     * copy, as TensorFlow does, so that writing to the result changes
     * nothing else. */
    PyObject* a = PyArray_Empty(nd, dims, descr, 0);
    if (a != NULL) memcpy(PyArray_DATA((PyArrayObject*)a), data, TF_TensorByteSize(t));
    TF_DeleteTensor(t);
    return a;
  }
  /* Sole owner: the array views the tensor's memory (no copy) and its base
   * object owns the TF_Tensor. */
  PyObject* owner = PyCapsule_New(t, kTensorCapsule, tensor_capsule_free);
  if (owner == NULL) {
    Py_DECREF(descr);
    TF_DeleteTensor(t);
    return NULL;
  }
  PyObject* a = PyArray_NewFromDescr(&PyArray_Type, descr, nd, dims, NULL, data,
                                     NPY_ARRAY_CARRAY, NULL);
  if (a == NULL) {
    Py_DECREF(owner);
    return NULL;
  }
  if (PyArray_SetBaseObject((PyArrayObject*)a, owner) < 0) { /* steals owner */
    Py_DECREF(a);
    return NULL;
  }
  return a;
}

/* Frees the C arrays and tensors MT_SessionRun allocated. */
typedef struct run_args {
  int nfeeds, nfetches, ntargets;
  TF_Output* feeds;
  TF_Tensor** feed_values;
  TF_Output* fetches;
  TF_Tensor** fetch_values;
  TF_Operation** targets;
} run_args;

static void free_run_args(run_args* r) {
  for (int i = 0; r->feed_values && i < r->nfeeds; i++) TF_DeleteTensor(r->feed_values[i]);
  for (int i = 0; r->fetch_values && i < r->nfetches; i++) TF_DeleteTensor(r->fetch_values[i]);
  PyMem_Free(r->feeds);
  PyMem_Free(r->feed_values);
  PyMem_Free(r->fetches);
  PyMem_Free(r->fetch_values);
  PyMem_Free(r->targets);
}

static int parse_outputs(PyObject* seq, TF_Output* out, int n) {
  for (int i = 0; i < n; i++)
    if (MT_PyToOutput(PySequence_Fast_GET_ITEM(seq, i), &out[i]) < 0) return -1;
  return 0;
}

/* `with_values`: 0 for a partial run setup, which declares feeds only. */
static int prepare(run_args* r, PyObject* feeds, PyObject* values, PyObject* fetches,
                   PyObject* targets, int with_values) {
  r->nfeeds = (int)PySequence_Fast_GET_SIZE(feeds);
  r->nfetches = (int)PySequence_Fast_GET_SIZE(fetches);
  r->ntargets = (int)PySequence_Fast_GET_SIZE(targets);
  if (with_values && PySequence_Fast_GET_SIZE(values) != r->nfeeds) {
    PyErr_SetString(PyExc_ValueError, "feed_outputs and feed_values differ in length");
    return -1;
  }
  r->feeds = PyMem_Calloc((size_t)r->nfeeds + 1, sizeof(TF_Output));
  r->feed_values = PyMem_Calloc((size_t)r->nfeeds + 1, sizeof(TF_Tensor*));
  r->fetches = PyMem_Calloc((size_t)r->nfetches + 1, sizeof(TF_Output));
  r->fetch_values = PyMem_Calloc((size_t)r->nfetches + 1, sizeof(TF_Tensor*));
  r->targets = PyMem_Calloc((size_t)r->ntargets + 1, sizeof(TF_Operation*));
  if (!r->feeds || !r->feed_values || !r->fetches || !r->fetch_values || !r->targets) {
    PyErr_NoMemory();
    return -1;
  }
  if (parse_outputs(feeds, r->feeds, r->nfeeds) < 0) return -1;
  if (parse_outputs(fetches, r->fetches, r->nfetches) < 0) return -1;
  for (int i = 0; i < r->ntargets; i++)
    if (MT_PyToOperation(PySequence_Fast_GET_ITEM(targets, i), &r->targets[i]) < 0) return -1;
  for (int i = 0; with_values && i < r->nfeeds; i++) {
    int dt = (int)TF_OperationOutputType(r->feeds[i]);
    r->feed_values[i] = MT_NdarrayToTensor(PySequence_Fast_GET_ITEM(values, i), dt);
    if (r->feed_values[i] == NULL) return -1;
  }
  return 0;
}

static PyObject* collect(run_args* r) {
  PyObject* list = PyList_New(r->nfetches);
  if (list == NULL) return NULL;
  for (int i = 0; i < r->nfetches; i++) {
    TF_Tensor* t = r->fetch_values[i];
    r->fetch_values[i] = NULL; /* MT_TensorToNdarray owns it now */
    PyObject* v = t ? MT_TensorToNdarray(t) : (Py_INCREF(Py_None), Py_None);
    if (v == NULL) {
      Py_DECREF(list);
      return NULL;
    }
    PyList_SET_ITEM(list, i, v);
  }
  return list;
}

/* Shared body of MT_SessionRun and MT_SessionRunWithOptions: `opts` and
 * `md` may be NULL. */
static PyObject* session_run(TF_Session* session, const TF_Buffer* opts, TF_Buffer* md,
                             PyObject* feed_outputs, PyObject* feed_values,
                             PyObject* fetch_outputs, PyObject* targets, TF_Status* status) {
  PyObject* f = PySequence_Fast(feed_outputs, "feed_outputs must be a sequence");
  PyObject* v = PySequence_Fast(feed_values, "feed_values must be a sequence");
  PyObject* o = PySequence_Fast(fetch_outputs, "fetch_outputs must be a sequence");
  PyObject* g = PySequence_Fast(targets, "targets must be a sequence");
  run_args r = {0};
  PyObject* result = NULL;
  if (MT_InitHelper() == 0 && f && v && o && g && prepare(&r, f, v, o, g, 1) == 0) {
    Py_BEGIN_ALLOW_THREADS
    TF_SessionRun(session, opts, r.feeds, r.feed_values, r.nfeeds, r.fetches, r.fetch_values,
                  r.nfetches, (const TF_Operation* const*)r.targets, r.ntargets, md, status);
    Py_END_ALLOW_THREADS
    if (TF_GetCode(status) == TF_OK) result = collect(&r);
  }
  free_run_args(&r);
  Py_XDECREF(f);
  Py_XDECREF(v);
  Py_XDECREF(o);
  Py_XDECREF(g);
  return result;
}

PyObject* MT_SessionRun(TF_Session* session, PyObject* feed_outputs, PyObject* feed_values,
                        PyObject* fetch_outputs, PyObject* targets, TF_Status* status) {
  return session_run(session, NULL, NULL, feed_outputs, feed_values, fetch_outputs, targets,
                     status);
}

PyObject* MT_SessionRunWithOptions(TF_Session* session, PyObject* run_options,
                                   PyObject* feed_outputs, PyObject* feed_values,
                                   PyObject* fetch_outputs, PyObject* targets, int want_metadata,
                                   TF_Status* status) {
  TF_Buffer opts = {0};
  char* data = NULL;
  Py_ssize_t len = 0;
  if (run_options != Py_None) {
    if (PyBytes_AsStringAndSize(run_options, &data, &len) < 0) return NULL;
    opts.data = data;
    opts.length = (size_t)len;
  }
  TF_Buffer* md = want_metadata ? TF_NewBuffer() : NULL;
  if (want_metadata && md == NULL) return PyErr_NoMemory();
  PyObject* values = session_run(session, run_options != Py_None ? &opts : NULL, md,
                                 feed_outputs, feed_values, fetch_outputs, targets, status);
  PyObject* result = NULL;
  if (values != NULL) {
    PyObject* mdb = md ? PyBytes_FromStringAndSize((const char*)md->data, (Py_ssize_t)md->length)
                       : (Py_INCREF(Py_None), Py_None);
    if (mdb != NULL) result = Py_BuildValue("(NN)", values, mdb);
    else Py_DECREF(values);
  }
  if (md) TF_DeleteBuffer(md);
  return result;
}

/* ------------------------------------------------------------------------ */
/* Partial runs. */

static const char kPRunHandle[] = "minitf.prun_handle";

/* The capsule owns the C handle: its death ends the partial run. */
static void prun_capsule_free(PyObject* cap) {
  const char* h = PyCapsule_GetPointer(cap, kPRunHandle);
  if (h) TF_DeletePRunHandle(h);
}

PyObject* MT_SessionPRunSetup(TF_Session* session, PyObject* feed_outputs,
                              PyObject* fetch_outputs, PyObject* targets, TF_Status* status) {
  PyObject* f = PySequence_Fast(feed_outputs, "feed_outputs must be a sequence");
  PyObject* none = PyTuple_New(0);
  PyObject* o = PySequence_Fast(fetch_outputs, "fetch_outputs must be a sequence");
  PyObject* g = PySequence_Fast(targets, "targets must be a sequence");
  run_args r = {0};
  PyObject* result = NULL;
  if (f && none && o && g && prepare(&r, f, none, o, g, 0) == 0) {
    const char* handle = NULL;
    Py_BEGIN_ALLOW_THREADS
    TF_SessionPRunSetup(session, r.feeds, r.nfeeds, r.fetches, r.nfetches,
                        (const TF_Operation* const*)r.targets, r.ntargets, &handle, status);
    Py_END_ALLOW_THREADS
    if (TF_GetCode(status) == TF_OK) {
      PyObject* cap = PyCapsule_New((void*)handle, kPRunHandle, prun_capsule_free);
      if (cap == NULL) TF_DeletePRunHandle(handle);
      else result = Py_BuildValue("(sN)", handle, cap);
    }
  }
  free_run_args(&r);
  Py_XDECREF(f);
  Py_XDECREF(none);
  Py_XDECREF(o);
  Py_XDECREF(g);
  return result;
}

PyObject* MT_SessionPRun(TF_Session* session, PyObject* handle, PyObject* feed_outputs,
                         PyObject* feed_values, PyObject* fetch_outputs, TF_Status* status) {
  const char* h = PyUnicode_AsUTF8(handle);
  if (h == NULL) return NULL;
  PyObject* f = PySequence_Fast(feed_outputs, "feed_outputs must be a sequence");
  PyObject* v = PySequence_Fast(feed_values, "feed_values must be a sequence");
  PyObject* o = PySequence_Fast(fetch_outputs, "fetch_outputs must be a sequence");
  PyObject* none = PyTuple_New(0);
  run_args r = {0};
  PyObject* result = NULL;
  if (MT_InitHelper() == 0 && f && v && o && none && prepare(&r, f, v, o, none, 1) == 0) {
    Py_BEGIN_ALLOW_THREADS
    TF_SessionPRun(session, h, r.feeds, r.feed_values, r.nfeeds, r.fetches, r.fetch_values,
                   r.nfetches, NULL, 0, status);
    Py_END_ALLOW_THREADS
    if (TF_GetCode(status) == TF_OK) result = collect(&r);
  }
  free_run_args(&r);
  Py_XDECREF(f);
  Py_XDECREF(v);
  Py_XDECREF(o);
  Py_XDECREF(none);
  return result;
}

/* ------------------------------------------------------------------------ */
/* DLPack capsules (the Python DLPack protocol). */

#include "tensorflow/c/dlpack.h"

static const char kDLTensor[] = "dltensor";
static const char kDLTensorVersioned[] = "dltensor_versioned";
static const char kUsedDLTensor[] = "used_dltensor";
static const char kUsedDLTensorVersioned[] = "used_dltensor_versioned";

/* Capsule destructor: a capsule nobody consumed still owns its tensor. */
static void dltensor_capsule_free(PyObject* cap) {
  if (PyCapsule_IsValid(cap, kDLTensor)) {
    DLManagedTensor* m = PyCapsule_GetPointer(cap, kDLTensor);
    if (m && m->deleter) m->deleter(m);
  } else if (PyCapsule_IsValid(cap, kDLTensorVersioned)) {
    DLManagedTensorVersioned* m = PyCapsule_GetPointer(cap, kDLTensorVersioned);
    if (m && m->deleter) m->deleter(m);
  }
}

/* BufferError carrying the status message, as the protocol prescribes. */
static PyObject* buffer_error(const TF_Status* s) {
  PyErr_SetString(PyExc_BufferError, TF_Message(s));
  return NULL;
}

PyObject* MT_ToDLPack(PyObject* value, int versioned) {
  TF_Tensor* t = MT_NdarrayToTensor(value, 0);
  if (t == NULL) return NULL;
  TF_Status* s = TF_NewStatus();
  PyObject* cap = NULL;
  if (versioned) {
    DLManagedTensorVersioned* m = TF_TensorToDLPackVersioned(t, s);
    if (m && !(cap = PyCapsule_New(m, kDLTensorVersioned, dltensor_capsule_free)))
      m->deleter(m);
  } else {
    DLManagedTensor* m = TF_TensorToDLPack(t, s);
    if (m && !(cap = PyCapsule_New(m, kDLTensor, dltensor_capsule_free))) m->deleter(m);
  }
  if (TF_GetCode(s) != TF_OK) buffer_error(s);
  TF_DeleteTensor(t); /* the export holds its own reference */
  TF_DeleteStatus(s);
  return cap;
}

/* An ndarray viewing `t`'s memory whatever its owner (the array's base owns
 * t); 0-d, empty and non-NumPy dtypes go through MT_TensorToNdarray. */
static PyObject* view_tensor(TF_Tensor* t) {
  int nt = npy_type_of(TF_TensorType(t));
  int nd = TF_NumDims(t);
  if (nt < 0 || nd == 0 || nd > MT_MAX_DIMS || TF_TensorElementCount(t) == 0)
    return MT_TensorToNdarray(t);
  npy_intp dims[MT_MAX_DIMS];
  for (int i = 0; i < nd; i++) dims[i] = (npy_intp)TF_Dim(t, i);
  PyObject* owner = PyCapsule_New(t, kTensorCapsule, tensor_capsule_free);
  if (owner == NULL) {
    TF_DeleteTensor(t);
    return NULL;
  }
  PyObject* a = PyArray_NewFromDescr(&PyArray_Type, PyArray_DescrFromType(nt), nd, dims, NULL,
                                     TF_TensorData(t), NPY_ARRAY_CARRAY, NULL);
  if (a == NULL || PyArray_SetBaseObject((PyArrayObject*)a, owner) < 0) { /* steals owner */
    if (a == NULL) Py_DECREF(owner);
    Py_XDECREF(a);
    return NULL;
  }
  return a;
}

PyObject* MT_FromDLPack(PyObject* capsule) {
  if (MT_InitHelper() < 0) return NULL;
  int versioned = PyCapsule_IsValid(capsule, kDLTensorVersioned);
  if (!versioned && !PyCapsule_IsValid(capsule, kDLTensor)) {
    if (PyCapsule_IsValid(capsule, kUsedDLTensor) ||
        PyCapsule_IsValid(capsule, kUsedDLTensorVersioned))
      PyErr_SetString(PyExc_BufferError, "this DLPack capsule was already consumed");
    else
      PyErr_SetString(PyExc_TypeError,
                      "expected a PyCapsule named 'dltensor' or 'dltensor_versioned'");
    return NULL;
  }
  TF_Status* s = TF_NewStatus();
  TF_Tensor* t;
  if (versioned)
    t = TF_TensorFromDLPackVersioned(PyCapsule_GetPointer(capsule, kDLTensorVersioned), s);
  else
    t = TF_TensorFromDLPack(PyCapsule_GetPointer(capsule, kDLTensor), s);
  if (t == NULL) { /* the capsule keeps the tensor; its destructor frees it */
    buffer_error(s);
    TF_DeleteStatus(s);
    return NULL;
  }
  TF_DeleteStatus(s);
  /* Consumed: the capsule no longer owns the tensor (t does). */
  if (PyCapsule_SetName(capsule, versioned ? kUsedDLTensorVersioned : kUsedDLTensor) < 0) {
    TF_DeleteTensor(t);
    return NULL;
  }
  PyCapsule_SetDestructor(capsule, NULL);
  return view_tensor(t);
}
