"""TensorProto <-> NumPy conversion (tf.make_tensor_proto, tf.make_ndarray)."""
import numpy as np

from minitf.core.framework import tensor_pb2
from minitf.framework import dtypes, tensor_shape

_INT32_MIN, _INT32_MAX = -(2 ** 31), 2 ** 31 - 1


def _is_str_like(x):
    return isinstance(x, (str, bytes))


def _flatten(x):
    if isinstance(x, (list, tuple)):
        for y in x:
            yield from _flatten(y)
    else:
        yield x


def to_numpy(values, dtype=None):
    """`values` as an ndarray with TensorFlow's dtype inference.

    Python floats -> float32, ints -> int32 (int64 if out of range), bools ->
    bool, str/bytes -> string (object array of bytes). NumPy arrays and
    scalars keep their dtype. With `dtype`, values are converted to it;
    TypeError when they are not compatible (e.g. 1.5 for int32, str for float).
    """
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    if isinstance(values, (np.ndarray, np.generic)):
        arr = np.asarray(values)
        if arr.dtype.kind in "SU":
            arr = np.vectorize(lambda s: s.encode() if isinstance(s, str) else s,
                               otypes=[object])(arr) if arr.size else arr.astype(object)
        if dtype is None:
            dtypes.as_dtype(arr.dtype)  # TypeError for unsupported dtypes
            return arr
        return _cast(arr, dtype, values)
    flat = list(_flatten(values))
    if any(_is_str_like(v) for v in flat):
        if dtype is not None and dtype != dtypes.string:
            raise TypeError("Expected %s, but got %r of type '%s'." %
                            (dtype.name, flat[0], type(flat[0]).__name__))
        if not all(_is_str_like(v) for v in flat):
            raise TypeError("Failed to convert elements of %r to Tensor: mixed strings and "
                            "non-strings." % (values,))
        obj = np.array(values, dtype=object)
        arr = np.vectorize(lambda s: s.encode() if isinstance(s, str) else s,
                           otypes=[object])(obj) if obj.size else obj
        return arr
    try:
        arr = np.array(values)
    except ValueError as e:
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from e
    if arr.dtype == object:
        raise TypeError("Failed to convert elements of %r to Tensor." % (values,))
    if dtype is None:
        if arr.dtype == np.float64:
            arr = arr.astype(np.float32)
        elif arr.dtype == np.int64:
            if arr.size == 0 or (arr.min() >= _INT32_MIN and arr.max() <= _INT32_MAX):
                arr = arr.astype(np.int32)
        elif arr.dtype.kind == "f" and arr.size == 0:
            arr = arr.astype(np.float32)
        return arr
    return _cast(arr, dtype, values)


def _cast(arr, dtype, original):
    np_dtype = np.dtype(dtype.as_numpy_dtype)
    if dtype == dtypes.string:
        if arr.dtype != object:
            raise TypeError("Expected string, but got %r of type '%s'." %
                            (original, type(original).__name__))
        return arr
    if arr.dtype == object:
        raise TypeError("Expected %s, but got %r of type '%s'." %
                        (dtype.name, original, type(original).__name__))
    if dtype.is_integer and arr.dtype.kind in "fc" and \
            not isinstance(original, (np.ndarray, np.generic)):
        if arr.size and not np.all(np.equal(np.mod(arr.real, 1), 0)):
            raise TypeError("Expected %s, but got %r of type '%s'." %
                            (dtype.name, original, type(original).__name__))
    if dtype.is_bool and arr.dtype != np.bool_ and not isinstance(original, np.ndarray):
        raise TypeError("Expected bool, but got %r of type '%s'." %
                        (original, type(original).__name__))
    if dtype.is_integer and arr.dtype.kind in "iu" and arr.size:
        info = np.iinfo(np_dtype)
        if arr.min() < info.min or arr.max() > info.max:
            raise TypeError("Value out of range for %s: %r" % (dtype.name, original))
    return arr.astype(np_dtype, copy=False)


def make_tensor_proto(values, dtype=None, shape=None, verify_shape=False, allow_broadcast=False):
    """A TensorProto holding `values` (tf.make_tensor_proto); content as
    tensor_content bytes for numeric dtypes, string_val for strings."""
    arr = to_numpy(values, dtype)
    if shape is not None:
        arr = reshape_for_constant(arr, shape, verify_shape)
    dt = dtypes.as_dtype(arr.dtype) if dtype is None else dtypes.as_dtype(dtype)
    proto = tensor_pb2.TensorProto(dtype=dt.as_datatype_enum,
                                   tensor_shape=tensor_shape.TensorShape(arr.shape).as_proto())
    if dt == dtypes.string:
        proto.string_val.extend([bytes(s) for s in arr.reshape(-1)])
    else:
        proto.tensor_content = np.ascontiguousarray(arr).astype(
            np.dtype(dt.as_numpy_dtype).newbyteorder("<"), copy=False).tobytes()
    return proto


def reshape_for_constant(arr, shape, verify_shape=False):
    """`arr` given the requested constant `shape`: a scalar/1-element array is
    broadcast, an array of the same size reshaped; TypeError otherwise."""
    shape = tensor_shape.as_shape(shape)
    target = shape.as_list()
    if tuple(arr.shape) == tuple(target):
        return arr
    n = shape.num_elements()
    if verify_shape:
        raise TypeError("Expected Tensor's shape: %s, got %s." % (tuple(target), arr.shape))
    if arr.size == 1:
        return np.full(target, arr.reshape(()), dtype=arr.dtype) if arr.dtype != object else \
            np.full(target, arr.reshape(-1)[0], dtype=object)
    if arr.size == n:
        return arr.reshape(target)
    if arr.size > n:
        raise TypeError("Too many elements provided. Takes at most %d, but got %d." % (n, arr.size))
    raise TypeError("Expected Tensor's shape: %s, but got %s." % (tuple(target), arr.shape))


def MakeNdarray(tensor):  # noqa: N802 (TensorFlow's name)
    """The ndarray held by a TensorProto (tf.make_ndarray)."""
    shape = [d.size for d in tensor.tensor_shape.dim]
    n = int(np.prod(shape, dtype=np.int64))
    dt = dtypes.as_dtype(tensor.dtype)
    if dt == dtypes.string:
        vals = list(tensor.string_val)
        arr = np.empty(n, dtype=object)
        if vals:
            arr[:len(vals)] = vals
            arr[len(vals):] = vals[-1]
        return arr.reshape(shape)
    np_dtype = np.dtype(dt.as_numpy_dtype)
    if tensor.tensor_content:
        return np.frombuffer(tensor.tensor_content, dtype=np_dtype.newbyteorder("<")) \
            .astype(np_dtype).reshape(shape)
    if dt == dtypes.float16:
        vals = np.array(list(tensor.half_val), dtype=np.uint16).view(np.float16)
    elif dt == dtypes.float32:
        vals = np.array(list(tensor.float_val), dtype=np_dtype)
    elif dt == dtypes.float64:
        vals = np.array(list(tensor.double_val), dtype=np_dtype)
    elif dt in (dtypes.int64,):
        vals = np.array(list(tensor.int64_val), dtype=np_dtype)
    elif dt in (dtypes.uint32,):
        vals = np.array(list(tensor.uint32_val), dtype=np_dtype)
    elif dt in (dtypes.uint64,):
        vals = np.array(list(tensor.uint64_val), dtype=np_dtype)
    elif dt == dtypes.bool:
        vals = np.array(list(tensor.bool_val), dtype=np_dtype)
    elif dt == dtypes.complex64:
        v = np.array(list(tensor.scomplex_val), dtype=np.float32)
        vals = v[0::2] + 1j * v[1::2]
    elif dt == dtypes.complex128:
        v = np.array(list(tensor.dcomplex_val), dtype=np.float64)
        vals = v[0::2] + 1j * v[1::2]
    else:
        vals = np.array(list(tensor.int_val), dtype=np_dtype)
    vals = vals.astype(np_dtype)
    if vals.size == 0:
        return np.zeros(shape, dtype=np_dtype)
    if vals.size < n:
        vals = np.concatenate([vals, np.repeat(vals[-1:], n - vals.size)])
    return vals.reshape(shape)


make_ndarray = MakeNdarray


def constant_value(tensor):
    """The value of `tensor` when it is a Const (else None)."""
    if tensor.op.type == "Const":
        return MakeNdarray(tensor.op.get_attr("value"))
    return None
