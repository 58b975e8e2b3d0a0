"""tf.constant: Const operations from Python values."""
import numpy as np

from minitf.framework import dtypes, op_def_library, ops, tensor_util


def constant(value, dtype=None, shape=None, name="Const", verify_shape=False):
    """A Const tensor holding `value` (tf.compat.v1.constant).

    Args:
      value: a Python scalar, nested list, NumPy array or bytes/str.
      dtype: the element type; inferred as TensorFlow does when None
        (float -> float32, int -> int32, bool -> bool, str/bytes -> string,
        NumPy arrays keep theirs).
      shape: optional; a scalar is broadcast to it, an array of as many
        elements reshaped.
      name: the op name, made unique in the graph ("Const", "Const_1").
    Returns:
      The Const op's output Tensor.
    Raises:
      TypeError: `value` is not compatible with `dtype` or `shape`.
    """
    arr = tensor_util.to_numpy(value, dtype)
    if shape is not None:
        arr = tensor_util.reshape_for_constant(arr, shape, verify_shape)
    dt = dtypes.as_dtype(dtype) if dtype is not None else dtypes.as_dtype(arr.dtype)
    g = ops.get_default_graph()
    op = g.create_op("Const", [], name=name, attrs={"value": arr, "dtype": dt})
    return op.outputs[0]


def _constant_if_fits(value, dtype, name):
    """constant(value, dtype) when `value` converts to `dtype` without loss."""
    arr = tensor_util.to_numpy(value)
    target = dtypes.as_dtype(dtype)
    src = dtypes.as_dtype(arr.dtype)
    if arr.size == 0 and not isinstance(value, (np.ndarray, np.generic)):
        return constant(value, dtype=target, name=name or "Const")  # [] fits any dtype
    if src != target and src.is_integer and target.is_integer and \
            not (target.min <= arr.min() and arr.max() <= target.max):
        raise TypeError("incompatible")  # e.g. [2**40] for int32: the inferred int64 is used
    if src != target:
        if target == dtypes.string or src == dtypes.string:
            raise TypeError("incompatible")
        if src.is_floating and not (target.is_floating or target.is_complex):
            raise TypeError("incompatible")
        if src.is_bool != target.is_bool:
            raise TypeError("incompatible")
    return constant(value, dtype=target, name=name or "Const")


def _tensor_from_proto(proto, name="Const"):
    g = ops.get_default_graph()
    from minitf.core.framework import attr_value_pb2
    op = g.create_op("Const", [], name=name, attrs={
        "value": attr_value_pb2.AttrValue(tensor=proto), "dtype": dtypes.as_dtype(proto.dtype)})
    return op.outputs[0]


def is_constant(tensor_or_op):
    """True when the tensor (or op) is a Const (TensorFlow's constant_op.is_constant)."""
    op = tensor_or_op.op if hasattr(tensor_or_op, "value_index") else tensor_or_op
    return op.type == "Const"
