"""Reductions and scans of the TF1 API: tf.reduce_sum/mean/prod/max/min/all/any, tf.argmax,
tf.argmin, tf.math.cumsum/cumprod (ops Sum, Mean, Prod, Max, Min, All, Any, ArgMax, ArgMin,
Cumsum, Cumprod, registered in runtime/kernels/reduction_ops.c).
"""
import numpy as np

from minitf.framework import constant_op, dtypes, ops
from minitf.framework.op_def_library import apply_op, get_registered_ops, outputs_of


def _op(op_type, name=None, **kw):
    return outputs_of(apply_op(op_type, name=name, **kw))


def _lookup(new_name, new_value, old_name, old_value):
    """TensorFlow's deprecated_argument_lookup: the value of whichever was given."""
    if old_value is not None:
        if new_value is not None:
            raise ValueError("Cannot specify both '%s' and '%s'" % (new_name, old_name))
        return old_value
    return new_value


def _reduction_dims(x, axis):
    """`axis` as given, or all of x's axes: a constant when x's rank is known and not 0,
    else range(0, rank(x)) (TensorFlow's _ReductionDims, same nodes and names)."""
    if axis is not None:
        return axis
    rank = x.shape.rank
    if rank:  # as TensorFlow: a scalar, like an unknown rank, takes the Range path
        return constant_op.constant(np.arange(rank, dtype=np.int32))
    from minitf.ops import array_ops
    return array_ops.range(0, array_ops.rank(x))


def _reduce(op_type, input_tensor, axis, keepdims, name, reduction_indices, keep_dims,
            dtype=None):
    axis = _lookup("axis", axis, "reduction_indices", reduction_indices)
    keepdims = _lookup("keepdims", keepdims, "keep_dims", keep_dims)
    keepdims = False if keepdims is None else bool(keepdims)
    x = ops.convert_to_tensor(input_tensor, dtype=dtype)
    out = _op(op_type, input=x, reduction_indices=_reduction_dims(x, axis), keep_dims=keepdims,
              name=name)
    if not keepdims and axis is None:
        out.set_shape([])  # TensorFlow's _may_reduce_to_scalar
    return out


_REDUCE_DOC = """%s of `input_tensor`'s elements over `axis` (tf.compat.v1.%s; op %s).

    Args:
      input_tensor: a %s tensor (or convertible value).
      axis: int or list of ints (negative count from the end) or an int32/int64 tensor; None
        (default) reduces every axis. `reduction_indices` is the deprecated alias.
      keepdims: keep the reduced axes with size 1 (`keep_dims` deprecated alias).
      name: the op's name.
    Returns a tensor of the input's dtype.%s
    Raises ValueError for an axis out of range when it is known at construction (at run time
    InvalidArgumentError), or when both an argument and its alias are given."""


def reduce_sum(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
               keep_dims=None):
    return _reduce("Sum", input_tensor, axis, keepdims, name, reduction_indices, keep_dims)


def reduce_mean(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
                keep_dims=None):
    return _reduce("Mean", input_tensor, axis, keepdims, name, reduction_indices, keep_dims)


def reduce_prod(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
                keep_dims=None):
    return _reduce("Prod", input_tensor, axis, keepdims, name, reduction_indices, keep_dims)


def reduce_max(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
               keep_dims=None):
    return _reduce("Max", input_tensor, axis, keepdims, name, reduction_indices, keep_dims)


def reduce_min(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
               keep_dims=None):
    return _reduce("Min", input_tensor, axis, keepdims, name, reduction_indices, keep_dims)


def reduce_all(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
               keep_dims=None):
    return _reduce("All", input_tensor, axis, keepdims, name, reduction_indices, keep_dims,
                   dtype=dtypes.bool)


def reduce_any(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
               keep_dims=None):
    return _reduce("Any", input_tensor, axis, keepdims, name, reduction_indices, keep_dims,
                   dtype=dtypes.bool)


for _fn, _what, _op_type, _dt, _extra in [
        (reduce_sum, "Sum", "Sum", "numeric", " Integer sums wrap on overflow."),
        (reduce_mean, "Mean", "Mean", "numeric",
         " Integer means truncate toward zero; the mean of no elements is NaN (0 for integers)."),
        (reduce_prod, "Product", "Prod", "numeric", " The product of no elements is 1."),
        (reduce_max, "Maximum", "Max", "real",
         " NaN propagates; the maximum of no elements is the dtype's lowest value (-inf)."),
        (reduce_min, "Minimum", "Min", "real",
         " NaN propagates; the minimum of no elements is the dtype's highest value (inf)."),
        (reduce_all, "Logical and", "All", "bool", " All of no elements is True."),
        (reduce_any, "Logical or", "Any", "bool", " Any of no elements is False.")]:
    _fn.__doc__ = _REDUCE_DOC % (_what, _fn.__name__, _op_type, _dt, _extra)


def _arg(op_type, input, axis, name, dimension, output_type):  # noqa: A002
    axis = _lookup("axis", axis, "dimension", dimension)
    if axis is None:
        axis = 0
    return _op(op_type, input=input, dimension=axis, output_type=dtypes.as_dtype(output_type),
               name=name)


def argmax(input, axis=None, name=None, dimension=None, output_type=dtypes.int64):  # noqa: A002
    """Index of the largest value along `axis` (default 0; `dimension` is the deprecated alias)
    (tf.compat.v1.argmax; op ArgMax). Ties give the first index; NaNs are skipped unless all
    are NaN. output_type: int64 (default), int32, int16 or uint16. Raises ValueError for an
    axis out of range known at construction; InvalidArgumentError at run time for an empty
    axis."""
    return _arg("ArgMax", input, axis, name, dimension, output_type)


def argmin(input, axis=None, name=None, dimension=None, output_type=dtypes.int64):  # noqa: A002
    """Index of the smallest value along `axis` (default 0; `dimension` is the deprecated alias)
    (tf.compat.v1.argmin; op ArgMin). Ties give the first index; NaNs are skipped unless all
    are NaN. output_type: int64 (default) or int32."""
    return _arg("ArgMin", input, axis, name, dimension, output_type)


def _scan(op_type, x, axis, exclusive, reverse, name):
    with ops.name_scope(name, op_type, [x]) as name:
        x = ops.convert_to_tensor(x, name="x")
        return _op(op_type, x=x, axis=axis, exclusive=bool(exclusive), reverse=bool(reverse),
                   name=name)


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    """Cumulative sum of `x` along `axis` (a scalar int32/int64, negative from the end)
    (tf.math.cumsum; op Cumsum). exclusive: each output excludes its own element (starts at 0);
    reverse: accumulate from the end. Same shape and dtype as x; InvalidArgumentError at run
    time for an axis out of range."""
    return _scan("Cumsum", x, axis, exclusive, reverse, name)


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    """Cumulative product of `x` along `axis` (tf.math.cumprod; op Cumprod); exclusive starts
    at 1. See cumsum."""
    return _scan("Cumprod", x, axis, exclusive, reverse, name)
