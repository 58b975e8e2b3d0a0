"""Sorting and searching of the TF1 API: tf.sort / tf.argsort (TensorFlow's sort_ops: TopKV2
over the last axis, a transpose for another axis, and negation for ascending order) and
tf.searchsorted (ops LowerBound / UpperBound, runtime/kernels/search_ops.c).
"""
import numpy as np

from minitf.framework import constant_op, dtypes, ops, tensor_util


def _descending_sort(values, axis, return_argsort):
    from minitf.ops import array_ops, nn_ops
    k = array_ops.shape(values)[axis]
    array_ops.rank(values)  # made (and unused) by TensorFlow's _descending_sort too
    static_rank = values.shape.ndims
    if axis == -1 or axis + 1 == static_rank:
        top_k_input, transposition = values, None
    else:
        if static_rank is None:
            raise ValueError("minitf's sort along an axis other than the last needs a tensor of"
                             " known rank")
        if axis < 0:
            axis += static_rank
        transposition = constant_op.constant(
            np.r_[np.arange(axis), [static_rank - 1], np.arange(axis + 1, static_rank - 1),
                  [axis]], name="transposition")
        top_k_input = array_ops.transpose(values, transposition)
    values, indices = nn_ops.top_k(top_k_input, k)
    out = indices if return_argsort else values
    if transposition is not None:
        out = array_ops.transpose(out, transposition)
    return out


def _ascending_sort(values, axis, return_argsort):
    dtype = values.dtype
    if dtype.is_unsigned:
        offset = dtype.max
        out = _descending_sort(offset - values, axis, return_argsort)
        return out if return_argsort else offset - out
    if dtype.is_integer:
        out = _descending_sort(-values - 1, axis, return_argsort)
        return out if return_argsort else -out - 1
    out = _descending_sort(-values, axis, return_argsort)
    return out if return_argsort else -out


_SORT_IMPL = {"ASCENDING": _ascending_sort, "DESCENDING": _descending_sort}


def _sort_or_argsort(values, axis, direction, return_argsort):
    if direction not in _SORT_IMPL:
        valid = ", ".join(sorted(_SORT_IMPL.keys()))
        raise ValueError(f"Argument `direction` should be one of {valid}. Received: "
                         f"direction={direction}")
    axis = ops.convert_to_tensor(axis, name="axis")
    axis_static = tensor_util.constant_value(axis)
    if axis.shape.ndims not in (None, 0) or axis_static is None:
        raise ValueError(f"Argument `axis` must be a constant scalar. Received: axis={axis}.")
    values = ops.convert_to_tensor(values, name="values")
    return _SORT_IMPL[direction](values, int(axis_static), return_argsort)


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """The values sorted along `axis` (tf.sort; TopKV2 nodes in scope `sort`).

    values: a real numeric tensor; axis: a constant int; direction: "ASCENDING" or
    "DESCENDING". Raises ValueError for another direction or a non-constant axis.
    """
    with ops.name_scope(name, "sort"):
        return _sort_or_argsort(values, axis, direction, return_argsort=False)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """int32 indices that sort `values` along `axis` (tf.argsort; TopKV2 nodes in scope
    `argsort`). Ties keep their order (TopKV2 is stable), whatever `stable` says."""
    del stable
    with ops.name_scope(name, "argsort"):
        return _sort_or_argsort(values, axis, direction, return_argsort=True)


def searchsorted(sorted_sequence, values, side="left", out_type=dtypes.int32, name=None):
    """Insertion indices of `values` in the innermost rows of `sorted_sequence`
    (tf.searchsorted; ops LowerBound for side "left", UpperBound for "right", between
    TensorFlow's reshapes to 2-D and back to values' shape).

    sorted_sequence [..., N] and values [..., M] share their leading dims. out_type: int32
    or int64. Raises ValueError for another side; InvalidArgumentError at run time when the
    leading dims differ.
    """
    from minitf.ops import array_ops

    def shape_of(t):
        t = ops.convert_to_tensor(t)
        if t.shape.is_fully_defined():
            with ops.name_scope(None, "Shape"):
                return constant_op.constant(t.shape.as_list(), dtypes.int32,
                                            name="shape_as_tensor")
        return array_ops.shape(t)
    sorted_sequence = ops.convert_to_tensor(sorted_sequence)
    values = ops.convert_to_tensor(values)
    sequence_size = shape_of(sorted_sequence)[-1]
    values_size = shape_of(values)[-1]
    sorted_2d = array_ops.reshape(sorted_sequence, [-1, sequence_size])
    values_2d = array_ops.reshape(values, [-1, values_size])
    if side == "right":
        op_type = "UpperBound"
    elif side == "left":
        op_type = "LowerBound"
    else:
        raise ValueError(f"Argument `side` must be either 'right' or 'left'. Received: `side` = "
                         f"'{side}'.")
    from minitf.framework.op_def_library import apply_op, outputs_of
    output = outputs_of(apply_op(op_type, name=name, sorted_inputs=sorted_2d, values=values_2d,
                                 out_type=dtypes.as_dtype(out_type)))
    return array_ops.reshape(output, shape_of(values))
