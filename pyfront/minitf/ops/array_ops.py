"""Array ops of the TF1 API: placeholder, identity, reshape, ..."""
from minitf.framework import dtypes, ops, tensor_shape
from minitf.framework.op_def_library import apply_op, outputs_of


def placeholder(dtype, shape=None, name=None):
    """A tensor that must be fed at Session.run (tf.compat.v1.placeholder).

    Args:
      dtype: element type of the fed values.
      shape: None (any shape) or a list with None for unknown dims.
    Running a fetch that needs it unfed raises InvalidArgumentError ("You must
    feed a value for placeholder tensor 'x' with dtype float ...").
    """
    return outputs_of(apply_op("Placeholder", dtype=dtypes.as_dtype(dtype),
                               shape=tensor_shape.as_shape(shape), name=name))


def placeholder_with_default(input, shape, name=None):  # noqa: A002
    """A tensor that takes `input`'s value unless fed (op PlaceholderWithDefault).

    `shape` may be less specific than input's shape (None dims).
    """
    input = ops.convert_to_tensor(input)
    return outputs_of(apply_op("PlaceholderWithDefault", input=input,
                               shape=tensor_shape.as_shape(shape), name=name))


def identity(input, name=None):  # noqa: A002
    """A tensor with the same value, shape and dtype as `input` (op Identity)."""
    if hasattr(input, "value") and not isinstance(input, ops.Tensor):
        input = input.value()
    return outputs_of(apply_op("Identity", input=input, name=name))


def reshape(tensor, shape, name=None):
    """`tensor` with a new shape (tf.reshape; op Reshape).

    One dim of `shape` may be -1 (inferred). Element counts must agree
    (ValueError at construction when known, InvalidArgumentError at run time).
    """
    return outputs_of(apply_op("Reshape", tensor=tensor, shape=shape, name=name))
