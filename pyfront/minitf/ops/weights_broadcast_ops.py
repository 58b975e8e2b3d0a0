"""Weight broadcasting for the metrics and losses (TensorFlow 2.21's
python/ops/weights_broadcast_ops.py, same nodes and names).

`weights` may be a scalar, or have the rank of `values` with each dimension either 1 or
values' dimension. Known shapes are checked at construction (ValueError "weights can not be
broadcast to values. ..."); otherwise an Assert checks them when the graph runs
(InvalidArgumentError with the same prefix).
"""
from minitf.framework import ops, tensor_util
from minitf.ops import array_ops, control_flow_ops, math_ops

_ERROR_PREFIX = "weights can not be broadcast to values."


def _has_valid_dims(weights_shape, values_shape):
    from minitf.ops import sets_impl
    with ops.name_scope(None, "has_invalid_dims", (weights_shape, values_shape)) as scope:
        values_shape_2d = array_ops.expand_dims(values_shape, -1)
        valid_dims = array_ops.concat(
            (values_shape_2d, array_ops.ones_like(values_shape_2d)), axis=1)
        weights_shape_2d = array_ops.expand_dims(weights_shape, -1)
        invalid_dims = sets_impl.set_difference(weights_shape_2d, valid_dims)
        num_invalid_dims = array_ops.size(invalid_dims.values, name="num_invalid_dims")
        return math_ops.equal(0, num_invalid_dims, name=scope)


def _has_valid_nonscalar_shape(weights_rank, weights_shape, values_rank, values_shape):
    with ops.name_scope(None, "has_valid_nonscalar_shape",
                        (weights_rank, weights_shape, values_rank, values_shape)) as scope:
        is_same_rank = math_ops.equal(values_rank, weights_rank, name="is_same_rank")
        return control_flow_ops.cond(
            is_same_rank, lambda: _has_valid_dims(weights_shape, values_shape),
            lambda: is_same_rank, name=scope)


def assert_broadcastable(weights, values):
    """An op that checks `weights` can be broadcast to `values`: a NoOp when the shapes are
    known and valid (ValueError at construction when known and invalid), else an Assert run
    in the graph (InvalidArgumentError "weights can not be broadcast to values. ...")."""
    from minitf.ops.logging_ops import Assert
    with ops.name_scope(None, "assert_broadcastable", (weights, values)) as scope:
        with ops.name_scope(None, "weights", (weights,)) as weights_scope:
            weights = ops.convert_to_tensor(weights, name=weights_scope)
            weights_shape = array_ops.shape(weights, name="shape")
            weights_rank = array_ops.rank(weights, name="rank")
        weights_rank_static = tensor_util.constant_value(weights_rank)
        with ops.name_scope(None, "values", (values,)) as values_scope:
            values = ops.convert_to_tensor(values, name=values_scope)
            values_shape = array_ops.shape(values, name="shape")
            values_rank = array_ops.rank(values, name="rank")
        values_rank_static = tensor_util.constant_value(values_rank)
        if weights_rank_static is not None and values_rank_static is not None:
            if weights_rank_static == 0:
                return control_flow_ops.no_op(name="static_scalar_check_success")
            if weights_rank_static != values_rank_static:
                raise ValueError(
                    "%s values.rank=%s. weights.rank=%s. values.shape=%s. weights.shape=%s. "
                    "Received weights=%s, values=%s" % (
                        _ERROR_PREFIX, values_rank_static, weights_rank_static, values.shape,
                        weights.shape, weights, values))
            w_static = tensor_util.constant_value(weights_shape)
            v_static = tensor_util.constant_value(values_shape)
            if w_static is not None and v_static is not None:
                for i in range(len(v_static)):
                    if w_static[i] not in (1, v_static[i]):
                        raise ValueError(
                            "%s Mismatch at dim %d. values.shape=%s, weights.shape=%s. "
                            "Received weights=%s, values=%s" % (
                                _ERROR_PREFIX, i, v_static, w_static, weights, values))
                return control_flow_ops.no_op(name="static_dims_check_success")
        is_scalar = math_ops.equal(0, weights_rank, name="is_scalar")
        data = (_ERROR_PREFIX, "weights.shape=", weights.name, weights_shape,
                "values.shape=", values.name, values_shape, "is_scalar=", is_scalar)
        is_valid_shape = control_flow_ops.cond(
            is_scalar, lambda: is_scalar,
            lambda: _has_valid_nonscalar_shape(weights_rank, weights_shape, values_rank,
                                               values_shape),
            name="is_valid_shape")
        return Assert(is_valid_shape, data, name=scope)


def broadcast_weights(weights, values):
    """`weights` broadcast to values' shape (weights * ones_like(values), after
    assert_broadcastable), or weights itself when both shapes are known and equal.
    weights is converted to values' dtype."""
    with ops.name_scope(None, "broadcast_weights", (weights, values)) as scope:
        values = ops.convert_to_tensor(values, name="values")
        weights = ops.convert_to_tensor(weights, dtype=values.dtype.base_dtype, name="weights")
        w_shape, v_shape = weights.get_shape(), values.get_shape()
        if (w_shape.is_fully_defined() and v_shape.is_fully_defined()
                and w_shape.is_compatible_with(v_shape)):
            return weights
        with ops.control_dependencies((assert_broadcastable(weights, values),)):
            return math_ops.multiply(weights, array_ops.ones_like(values), name=scope)
