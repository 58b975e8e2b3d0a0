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
        if arr.size == 0 and not isinstance(original, (np.ndarray, np.generic)):
            return np.empty(arr.shape, dtype=object)  # tf.constant([], tf.string)
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
    # An empty list is a valid bool tensor in TensorFlow (e.g. tf.constant([], tf.bool)).
    if dtype.is_bool and arr.dtype != np.bool_ and arr.size and \
            not isinstance(original, np.ndarray):
        raise TypeError("Expected bool, but got %r of type '%s'." %
                        (original, type(original).__name__))
    if dtype.is_integer and arr.dtype.kind in "iu" and arr.size:
        info = np.iinfo(np_dtype)
        if arr.min() < info.min or arr.max() > info.max:
            raise TypeError("Value out of range for %s: %r" % (dtype.name, original))
    return arr.astype(np_dtype, copy=False)


# Dtypes whose several-element protos carry tensor_content (TensorFlow's
# _TENSOR_CONTENT_TYPES: uint16, bool, complex and string use typed fields).
_CONTENT_TYPES = frozenset([
    dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.uint8, dtypes.int16,
    dtypes.int8, dtypes.int64, dtypes.qint8, dtypes.quint8, dtypes.qint16, dtypes.quint16,
    dtypes.qint32, dtypes.uint32, dtypes.uint64, dtypes.bfloat16])


def _append_typed(proto, dt, flat):
    """Appends the flat values to the typed repeated field TensorFlow uses."""
    if dt == dtypes.string:
        proto.string_val.extend(bytes(v) for v in flat)
    elif dt in (dtypes.float16, dtypes.bfloat16):
        proto.half_val.extend(int(v) for v in np.asarray(flat).view(np.uint16))
    elif dt == dtypes.float32:
        proto.float_val.extend(flat.tolist())
    elif dt == dtypes.float64:
        proto.double_val.extend(flat.tolist())
    elif dt == dtypes.complex64:
        proto.scomplex_val.extend(np.asarray(flat).view(np.float32).tolist())
    elif dt == dtypes.complex128:
        proto.dcomplex_val.extend(np.asarray(flat).view(np.float64).tolist())
    elif dt == dtypes.bool:
        proto.bool_val.extend(flat.tolist())
    elif dt == dtypes.int64:
        proto.int64_val.extend(flat.tolist())
    elif dt == dtypes.uint32:
        proto.uint32_val.extend(flat.tolist())
    elif dt == dtypes.uint64:
        proto.uint64_val.extend(flat.tolist())
    elif dt.is_integer or dt.is_quantized:
        proto.int_val.extend(int(v) for v in flat)
    else:
        raise TypeError("Unrecognized data type: %s" % dt.name)


def make_tensor_proto(values, dtype=None, shape=None, verify_shape=False, allow_broadcast=False):
    """A TensorProto holding `values` (tf.make_tensor_proto).

    Args:
      values: a Python scalar, (nested) list, bytes/str or NumPy array.
      dtype: optional DType (or anything tf.as_dtype takes); inferred as
        tf.constant infers it when None.
      shape: optional list of ints. When given and `values` has fewer
        elements, only those are stored and readers repeat the last one.
      verify_shape: require `values` to have exactly `shape`.
      allow_broadcast: allow a scalar or 1-element value for any `shape`,
        else require the element counts to match.
    Returns:
      A TensorProto laid out as TensorFlow lays it out: `tensor_content`
      for more than one element of a numeric dtype (not bool, complex or
      uint16), the typed field (`float_val`, `int_val`, `half_val`,
      `string_val`, ...) otherwise.
    Raises:
      TypeError: values incompatible with dtype, or a shape mismatch under
        verify_shape / allow_broadcast.
      ValueError: more values than `shape` holds; content over 2 GB.
    """
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    if shape is not None and np.prod(shape, dtype=np.int64) == 0:
        arr = np.empty(shape, dtype=object if dtype == dtypes.string else
                       (dtype.as_numpy_dtype if dtype is not None else np.float32))
    else:
        arr = to_numpy(values, dtype)
    dt = dtype if dtype is not None else dtypes.as_dtype(arr.dtype)
    if shape is None:
        shape = list(arr.shape)
        same_size = True
        size = arr.size
    else:
        shape = [int(d) for d in shape]
        size = int(np.prod(shape, dtype=np.int64))
        same_size = size == arr.size
        if allow_broadcast:
            if arr.shape not in ((1,), ()) and arr.size != size:
                raise TypeError("Expected Tensor's shape: %s, but got %s." %
                                (tuple(shape), arr.shape))
        else:
            if verify_shape and arr.shape != tuple(shape):
                raise TypeError("Expected Tensor's shape: %s, but got %s." %
                                (tuple(shape), arr.shape))
            if arr.size > size:
                raise ValueError("Too many elements provided. Takes at most %d, but got %d." %
                                 (size, arr.size))
    proto = tensor_pb2.TensorProto(dtype=dt.as_datatype_enum,
                                   tensor_shape=tensor_shape.TensorShape(shape).as_proto())
    if same_size and dt in _CONTENT_TYPES and size > 1:
        if arr.nbytes >= 1 << 31:
            raise ValueError("Cannot create a tensor proto whose content is larger than 2GB.")
        np_dtype = np.dtype(dt.as_numpy_dtype) if dt != dtypes.bfloat16 else arr.dtype
        proto.tensor_content = np.ascontiguousarray(arr).astype(
            np_dtype.newbyteorder("<"), copy=False).tobytes()
        return proto
    _append_typed(proto, dt, arr.reshape(-1))
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


def _string_content(content, n):
    """Strings from a string tensor's tensor_content: n varint lengths, then
    the bytes (TensorFlow's string-list encoding)."""
    lens, pos = [], 0
    for _ in range(n):
        v, shift = 0, 0
        while True:
            if pos >= len(content):
                raise ValueError("Malformed string tensor_content")
            b = content[pos]
            pos += 1
            v |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        lens.append(v)
    if pos + sum(lens) != len(content):
        raise ValueError("Malformed string tensor_content")
    out = []
    for ln in lens:
        out.append(content[pos:pos + ln])
        pos += ln
    return out


def MakeNdarray(tensor):  # noqa: N802 (TensorFlow's name)
    """The ndarray held by a TensorProto (tf.make_ndarray).

    Reads tensor_content, or the typed field for the dtype, repeating its
    last value up to the shape's element count (zeros, or "" for strings,
    when it is empty), as TensorFlow does. Returns an array of the proto's
    shape; string tensors give object arrays of bytes.
    Raises:
      TypeError: an unsupported dtype (resource, variant).
      ValueError: tensor_content whose size disagrees with shape and dtype.
    """
    shape = [d.size for d in tensor.tensor_shape.dim]
    n = int(np.prod(shape, dtype=np.int64))
    dt = dtypes.as_dtype(tensor.dtype)
    if dt in (dtypes.resource, dtypes.variant):
        raise TypeError("Unsupported tensor type: %s" % dt.name)
    if dt == dtypes.string:
        if tensor.tensor_content:
            vals = _string_content(tensor.tensor_content, n)
        else:
            vals = list(tensor.string_val)[:n]
            if len(vals) < n:
                vals.extend([vals[-1] if vals else b""] * (n - len(vals)))
        arr = np.empty(n, dtype=object)
        arr[:] = vals
        return arr.reshape(shape)
    np_dtype = np.dtype(dt.as_numpy_dtype)
    if tensor.tensor_content:
        if len(tensor.tensor_content) != n * np_dtype.itemsize:
            raise ValueError("TensorProto tensor_content has %d bytes, want %d elements of %d "
                             "bytes" % (len(tensor.tensor_content), n, np_dtype.itemsize))
        return np.frombuffer(tensor.tensor_content, dtype=np_dtype.newbyteorder("<")) \
            .astype(np_dtype).reshape(shape)
    if dt in (dtypes.float16, dtypes.bfloat16):
        vals = np.array(list(tensor.half_val), dtype=np.uint32).astype(np.uint16).view(np_dtype)
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
        vals = (v[0::2] + 1j * v[1::2]).astype(np_dtype)
    elif dt == dtypes.complex128:
        v = np.array(list(tensor.dcomplex_val), dtype=np.float64)
        vals = v[0::2] + 1j * v[1::2]
    else:  # int_val carries int32 (sign-extended): truncate as a C cast does
        vals = np.array(list(tensor.int_val), dtype=np.int64).astype(np_dtype)
    vals = vals.astype(np_dtype)[:n]
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
