"""Python functions as graph nodes: tf.py_func, tf.numpy_function, tf.py_function.

Mirrors tensorflow/python/ops/script_ops.py. Each call registers the callable in the
process-wide FuncRegistry under a token "pyfunc_<n>" and builds a PyFunc /
PyFuncStateless / EagerPyFunc node carrying that token; the graph keeps a strong
reference to the callable (the registry holds it weakly, so it goes with its graph).
When the node runs, the runtime calls the session helper's callback (C, taking the
GIL on the executor thread), which calls FuncRegistry's trampoline here.

Arguments the callable receives:
  * py_func / numpy_function: NumPy values as Session.run returns them (ndarrays,
    NumPy scalars for 0-d, bytes for 0-d strings), as TensorFlow passes them.
  * py_function: TensorFlow passes EagerTensors; minitf has no eager mode and passes
    EagerArg values instead: NumPy arrays (always ndarrays, 0-d included) that also
    have `.numpy()`, so code written for EagerTensors (x.numpy(), arithmetic) runs.
Errors raised by the callable become the run's error with TensorFlow's codes
(ValueError/TypeError: InvalidArgumentError, StopIteration: OutOfRangeError,
MemoryError: ResourceExhaustedError, NotImplementedError: UnimplementedError, others:
UnknownError), the message "<Type>: <text>" followed by the traceback.
"""
import functools
import threading
import weakref

import numpy as np

from minitf import pywrap_tensorflow_internal as c_api
from minitf.framework import dtypes, ops
from minitf.framework.op_def_library import apply_op


class EagerArg(np.ndarray):
    """What tf.py_function's callable receives for each input: an ndarray with .numpy()."""

    def numpy(self):
        return np.asarray(self)


class FuncRegistry:
    """token -> callable (TensorFlow's FuncRegistry); thread-safe."""

    def __init__(self):
        self._lock = threading.Lock()
        self._unique_id = 0
        self._funcs = weakref.WeakValueDictionary()

    def insert(self, func):
        with self._lock:
            token = "pyfunc_%d" % self._unique_id
            self._unique_id += 1
            self._funcs[token] = func
        return token

    def remove(self, token):
        with self._lock:
            self._funcs.pop(token, None)

    def size(self):
        return len(self._funcs)

    @staticmethod
    def _convert(value, dtype=None):
        # TensorFlow's FuncRegistry._convert: C-ordered arrays; str becomes bytes.
        result = np.asarray(value, dtype=dtype, order="C")
        if result.dtype.char == "S" and result is not value:
            return np.asarray(value, order="C", dtype=object)
        if result.dtype.char == "U" and result is not value:
            value = np.vectorize(lambda x: x.encode("utf8"))(value)
            return np.asarray(value, order="C", dtype=object)
        if result.dtype.char == "U":
            return result.astype(np.bytes_)
        return result

    @staticmethod
    def _convert_eager(value, dtype):
        """The value as a tensor of `dtype`, as convert_to_tensor(value, dtype) would:
        Python numbers and lists convert, arrays of another dtype are an error."""
        if isinstance(value, EagerArg):  # a tensor: its dtype must match, as TensorFlow's
            have = dtypes.string if value.dtype.kind in "OSU" else dtypes.as_dtype(value.dtype)
            if have != dtype:
                raise ValueError("Tensor conversion requested dtype %s for Tensor with dtype "
                                 "%s: %r" % (dtype.name, have.name, value))
        if dtype == dtypes.string:
            return FuncRegistry._convert(value)
        return np.asarray(value, dtype=dtype.as_numpy_dtype, order="C")

    def __call__(self, token, is_eager, args):
        func = self._funcs.get(token)
        if func is None:
            raise ValueError("callback %s is not found" % token)
        if is_eager:
            return func.eager_call(args)
        ret = func(*args)
        if ret is None:
            return []
        if isinstance(ret, bytes):
            ret = np.asarray(ret, dtype=object)
        if isinstance(ret, (tuple, list)):
            return [self._convert(x) for x in ret]
        return [self._convert(ret)]


class _EagerFunc:
    """tf.py_function's callable with its output dtypes (TensorFlow's EagerFunc)."""

    def __init__(self, func, tout):
        self._func = func
        self._tout = tout

    def eager_call(self, args):
        wrapped = [np.asarray(a).view(EagerArg) if not isinstance(a, bytes)
                   else np.asarray(a, dtype=object).view(EagerArg) for a in args]
        ret = self._func(*wrapped)
        if not self._tout:
            return []
        if isinstance(ret, (tuple, list)):
            return [FuncRegistry._convert_eager(v, d) for v, d in zip(ret, self._tout)] + \
                [FuncRegistry._convert(v) for v in ret[len(self._tout):]]
        return [FuncRegistry._convert_eager(ret, self._tout[0])]


_py_funcs = FuncRegistry()
c_api.MT_RegisterPyFuncTrampoline(_py_funcs)


def _internal_py_func(func, inp, Tout, stateful, use_eager, name):  # noqa: N803
    single = not isinstance(Tout, (list, tuple))
    tout = [dtypes.as_dtype(Tout)] if single else [dtypes.as_dtype(t) for t in Tout]
    if use_eager:
        func = _EagerFunc(func, tout)
    graph = ops.get_default_graph()
    token = _py_funcs.insert(func)
    # The graph keeps the callable alive (the registry only holds it weakly).
    used = getattr(graph, "_py_funcs_used_in_graph", None)
    if used is None:
        used = []
        graph._py_funcs_used_in_graph = used
    used.append(func)
    if use_eager:
        op_type = "EagerPyFunc"
    else:
        op_type = "PyFunc" if stateful else "PyFuncStateless"
    op = apply_op(op_type, input=list(inp), token=token, Tout=tout, name=name)
    if not tout:
        return op
    return op.outputs[0] if single else list(op.outputs)


def py_func(func, inp, Tout, stateful=True, name=None):  # noqa: N803
    """Wraps the Python function `func` as a graph node (tf.compat.v1.py_func; op PyFunc,
    PyFuncStateless when stateful=False).

    func receives NumPy values of `inp` (a list of tensors) and returns NumPy values (or
    Python values convertible to them) whose dtypes must be `Tout` exactly (a DType, or a
    list of DTypes; [] for no outputs, then the Operation is returned). Outputs have unknown
    shapes. Run-time errors: InvalidArgumentError "0-th value returned by pyfunc_0 is int64,
    but expects float" / "pyfunc_0 returns 2 values, but expects to see 1 values.", or the
    callable's exception mapped as in the module docstring. Not differentiable.
    """
    return _internal_py_func(func, inp, Tout, stateful, False, name)


def _decorator_or_none(op, op_name, func, inp, Tout, **kwargs):  # noqa: N803
    """TF's checks of tf.py_function / tf.numpy_function arguments: Tout is required
    (TypeError); func=None makes a decorator (inp must then be unset), whose wrapped
    function builds the op from its call's arguments; else inp is required."""
    if Tout is None:
        raise TypeError("Missing required argument: 'Tout'\n  If using %s as a decorator, set "
                        "`Tout`\n  **by name** above the function:\n  `@%s(Tout=tout)`"
                        % (op_name, op_name))
    if func is None:
        if inp is not None:
            raise TypeError("Don't set the `inp` argument when using %s as a decorator "
                            "(`func=None`)." % op_name)

        def decorator(fun):
            @functools.wraps(fun)
            def wrapper(*args):
                return op(fun, inp=args, Tout=Tout, **kwargs)
            return wrapper
        return decorator
    if inp is None:
        raise TypeError("Missing argument `inp`:\n  You must set the `inp` argument (the list "
                        "of arguments to the\n  function), unless you use `%s` as a "
                        "decorator(`func=None`)." % op_name)
    return None


def numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None):  # noqa: N803
    """tf.numpy_function: py_func with the same semantics (NumPy in, NumPy out); with
    func=None, a decorator (`@tf.numpy_function(Tout=tf.float32)`)."""
    decorator = _decorator_or_none(numpy_function, "tf.numpy_function", func, inp, Tout,
                                   stateful=stateful, name=name)
    if decorator is not None:
        return decorator
    return _internal_py_func(func, inp, Tout, stateful, False, name)


def py_function(func=None, inp=None, Tout=None, name=None):  # noqa: N803
    """Wraps `func` as an EagerPyFunc node (tf.py_function).

    func receives EagerArg values (ndarrays with .numpy(), see the module docstring) and its
    results are converted to `Tout` as convert_to_tensor(value, dtype) would (Python numbers
    and lists convert; an array of another dtype raises ValueError "Tensor conversion
    requested dtype float32 for Tensor with dtype int32: ...", an InvalidArgumentError at
    run time). Gradients are not supported (TensorFlow replays an eager tape): tf.gradients
    through it raises UnimplementedError. With func=None, a decorator
    (`@tf.py_function(Tout=tf.float32)`).
    """
    decorator = _decorator_or_none(py_function, "tf.py_function", func, inp, Tout, name=name)
    if decorator is not None:
        return decorator
    return _internal_py_func(func, inp, Tout, True, True, name)
