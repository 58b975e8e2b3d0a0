"""tf.math.confusion_matrix / tf.compat.v1.confusion_matrix and the rank helper the metrics
and losses share (TensorFlow 2.21's python/ops/confusion_matrix.py, same nodes and names).

The matrix is a ScatterNd of `weights` (or ones) at [label, prediction] indices into a
[num_classes, num_classes] tensor, so repeated pairs add up. Labels and predictions are checked
at run time: negative values, or values >= num_classes when it is given, fail with
InvalidArgumentError ("`labels` contains negative values", "`labels` out of bound", ...).
"""
from minitf.framework import dtypes, ops
from minitf.ops import array_ops, check_ops, control_flow_ops, math_ops, reduction_ops


def _last_dim_may_be_one(shape):
    return shape.dims[-1].is_compatible_with(1)


def remove_squeezable_dimensions(labels, predictions, expected_rank_diff=0, name=None):
    """Squeezes the last dimension of `predictions` or `labels` when their ranks differ by
    expected_rank_diff + 1 or - 1 and that dimension can be 1 (TensorFlow's
    confusion_matrix.remove_squeezable_dimensions). Static ranks decide at construction; an
    unknown rank adds a tf.cond on the run-time rank difference. Returns (labels, predictions)."""
    from minitf.ops import control_flow_ops as cf
    with ops.name_scope(name, "remove_squeezable_dimensions", [labels, predictions]):
        predictions = ops.convert_to_tensor(predictions)
        labels = ops.convert_to_tensor(labels)
        p_shape, l_shape = predictions.get_shape(), labels.get_shape()
        p_rank, l_rank = p_shape.ndims, l_shape.ndims
        if p_rank is not None and l_rank is not None:
            diff = p_rank - l_rank
            if diff == expected_rank_diff + 1 and _last_dim_may_be_one(p_shape):
                predictions = array_ops.squeeze(predictions, [-1])
            elif diff == expected_rank_diff - 1 and _last_dim_may_be_one(l_shape):
                labels = array_ops.squeeze(labels, [-1])
            return labels, predictions
        rank_diff = array_ops.rank(predictions) - array_ops.rank(labels)
        if p_rank is None or _last_dim_may_be_one(p_shape):
            p = predictions
            predictions = cf.cond(math_ops.equal(expected_rank_diff + 1, rank_diff),
                                  lambda: array_ops.squeeze(p, [-1]), lambda: p)
        if l_rank is None or _last_dim_may_be_one(l_shape):
            lab = labels
            labels = cf.cond(math_ops.equal(expected_rank_diff - 1, rank_diff),
                             lambda: array_ops.squeeze(lab, [-1]), lambda: lab)
        return labels, predictions


def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=dtypes.int32,
                     name=None):
    """The [num_classes, num_classes] confusion matrix of 1-D `labels` (rows) and
    `predictions` (columns) (tf.math.confusion_matrix, TF2 argument order).

    labels, predictions: integer 1-D tensors of equal length (a trailing size-1 dimension is
    squeezed); num_classes: scalar, default max(labels, predictions) + 1; weights: optional
    tensor of predictions' shape, the amounts added; dtype: the result's dtype.
    Raises ValueError at construction when weights' shape is incompatible with predictions';
    InvalidArgumentError at run time for negative or out-of-bound values."""
    with ops.name_scope(name, "confusion_matrix",
                        (predictions, labels, num_classes, weights)) as name:
        labels, predictions = remove_squeezable_dimensions(
            ops.convert_to_tensor(labels, name="labels"),
            ops.convert_to_tensor(predictions, name="predictions"))
        predictions = math_ops.cast(predictions, dtypes.int64)
        labels = math_ops.cast(labels, dtypes.int64)
        labels = control_flow_ops.with_dependencies(
            [check_ops.assert_non_negative(labels, message="`labels` contains negative values")],
            labels)
        predictions = control_flow_ops.with_dependencies(
            [check_ops.assert_non_negative(
                predictions, message="`predictions` contains negative values")], predictions)
        if num_classes is None:
            num_classes = math_ops.maximum(reduction_ops.reduce_max(predictions),
                                           reduction_ops.reduce_max(labels)) + 1
        else:
            n64 = math_ops.cast(num_classes, dtypes.int64)
            labels = control_flow_ops.with_dependencies(
                [check_ops.assert_less(labels, n64, message="`labels` out of bound")], labels)
            predictions = control_flow_ops.with_dependencies(
                [check_ops.assert_less(predictions, n64, message="`predictions` out of bound")],
                predictions)
        if weights is not None:
            weights = ops.convert_to_tensor(weights, name="weights")
            predictions.get_shape().assert_is_compatible_with(weights.get_shape())
            weights = math_ops.cast(weights, dtype)
        shape = array_ops.stack([num_classes, num_classes])
        indices = array_ops.stack([labels, predictions], axis=1)
        values = array_ops.ones_like(predictions, dtype) if weights is None else weights
        from minitf.ops import indexing_ops
        return indexing_ops.scatter_nd(indices=indices, updates=values,
                                       shape=math_ops.cast(shape, dtypes.int64))


def confusion_matrix_v1(labels, predictions, num_classes=None, dtype=dtypes.int32, name=None,
                        weights=None):
    """tf.compat.v1.confusion_matrix / tf.compat.v1.math.confusion_matrix: as
    confusion_matrix, with TF1's argument order (dtype and name before weights)."""
    return confusion_matrix(labels, predictions, num_classes, weights, dtype, name)
