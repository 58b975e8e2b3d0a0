"""tf.compat.v1.metrics: TensorFlow 1's streaming metrics (TensorFlow 2.21's
python/ops/metrics_impl.py, graph mode).

Every metric returns a pair (value, update_op). Its state lives in local variables (resource
variables initialized to zeros, not trainable, in the LOCAL_VARIABLES and METRIC_VARIABLES
collections, named as TensorFlow names them: `accuracy/total`, `accuracy/count`,
`auc/true_positives`, `mean_iou/total_confusion_matrix`, ...); run
tf.local_variables_initializer() first. Running update_op adds one batch to the state and
returns the metric over everything seen so far; `value` reads the state without changing it.
`metrics_collections` / `updates_collections` name collections that value / update_op are
added to. With no distribution strategy in minitf, TensorFlow's cross-replica aggregation is
the plain value (an Identity for the count metrics, as TensorFlow's default strategy reads a
variable).

Shapes: labels and predictions must have compatible shapes (a trailing size-1 dimension of
either is squeezed); weights are None, a scalar, or broadcastable to the values (checked at
construction when shapes are known, ValueError, else at run time, InvalidArgumentError).
Predictions of the threshold metrics (auc, *_at_thresholds, sensitivity_at_specificity, ...)
must lie in [0, 1] (InvalidArgumentError "predictions must be in [0, 1]" at run time).
"""
from minitf.framework import dtypes, ops
from minitf.framework import sparse_tensor
from minitf.ops import (array_ops, check_ops, confusion_matrix, control_flow_ops, indexing_ops,
                        math_ops, reduction_ops, variable_scope, variables,
                        weights_broadcast_ops)
from minitf.ops import sets_impl as sets

_KEPSILON = 1e-7


def metric_variable(shape, dtype, validate_shape=True, name=None):
    """A non-trainable variable of zeros in LOCAL_VARIABLES and METRIC_VARIABLES (TensorFlow's
    metrics_impl.metric_variable; a resource variable, as tf.compat.v1 graph mode makes)."""
    return variables.ResourceVariable(
        lambda: array_ops.zeros(shape, dtype), trainable=False,
        collections=[ops.GraphKeys.LOCAL_VARIABLES, ops.GraphKeys.METRIC_VARIABLES],
        validate_shape=validate_shape, name=name)


class _UnreadVariable(variables.ResourceVariable):
    """TensorFlow's _UnreadVariable: what assign_add / scatter_add on a resource variable
    return in graph mode, the variable after `parent_op`. Every use reads it anew (a
    ReadVariableOp in the user's name scope, run after parent_op), so the update ops' nodes are
    TensorFlow's (`mean/update_op/ReadVariableOp`); Session.run fetches the read made here."""

    def __init__(self, var, parent_op):  # pylint: disable=super-init-not-called
        self.__dict__.update(var.__dict__)
        self._parent_op = parent_op
        self._cached_value = None
        self._graph_element = self._read_variable_op()

    @property
    def name(self):
        return self._parent_op.name

    def value(self):
        return self._read_variable_op()

    def read_value(self):
        return self._read_variable_op()

    def _read_variable_op(self, name=None):
        with ops.control_dependencies([self._parent_op]):
            return variables.ResourceVariable._read_variable_op(self, name)


def _assign_add(var, value):
    """var += value as TensorFlow's state_ops.assign_add on a resource variable (an
    AssignAddVariableOp, named by default whatever name is asked), read lazily."""
    return _UnreadVariable(var, var.assign_add(value, read_value=False))


def _scatter_add(var, indices, updates):
    """TensorFlow's state_ops.scatter_add on a resource variable (ResourceScatterAdd), read
    lazily."""
    from minitf.framework.op_def_library import apply_op
    updates = ops.convert_to_tensor(updates, var.dtype)
    return _UnreadVariable(var, apply_op("ResourceScatterAdd", resource=var.handle,
                                         indices=indices, updates=updates))


def _add(collections, value):
    if collections:
        ops.add_to_collections(collections, value)


def _remove_squeezable_dimensions(predictions, labels, weights):
    """Squeezes a trailing size-1 dim of predictions or labels when their ranks differ by 1,
    and squeezes or expands weights' last dim to predictions' rank (a scalar stays scalar).
    Unknown ranks add tf.cond nodes, as TensorFlow's."""
    predictions = ops.convert_to_tensor(predictions)
    if labels is not None:
        labels, predictions = confusion_matrix.remove_squeezable_dimensions(labels, predictions)
        predictions.get_shape().assert_is_compatible_with(labels.get_shape())
    if weights is None:
        return predictions, labels, None
    weights = ops.convert_to_tensor(weights)
    w_shape = weights.get_shape()
    w_rank = w_shape.ndims
    if w_rank == 0:
        return predictions, labels, weights
    p_rank = predictions.get_shape().ndims
    if p_rank is not None and w_rank is not None:
        if w_rank - p_rank == 1:
            weights = array_ops.squeeze(weights, [-1])
        elif p_rank - w_rank == 1:
            weights = array_ops.expand_dims(weights, [-1])
        return predictions, labels, weights
    w_rank_t = array_ops.rank(weights)
    rank_diff = w_rank_t - array_ops.rank(predictions)
    w = weights

    def maybe_expand():
        return control_flow_ops.cond(math_ops.equal(rank_diff, -1),
                                     lambda: array_ops.expand_dims(w, [-1]), lambda: w)

    if w_rank is not None and not w_shape.dims[-1].is_compatible_with(1):
        maybe_squeeze = lambda: w  # noqa: E731
    else:
        maybe_squeeze = lambda: array_ops.squeeze(w, [-1])  # noqa: E731

    def maybe_adjust():
        return control_flow_ops.cond(math_ops.equal(rank_diff, 1), maybe_squeeze, maybe_expand)

    weights = control_flow_ops.cond(math_ops.equal(w_rank_t, 0), lambda: w, maybe_adjust)
    return predictions, labels, weights


def _maybe_expand_labels(labels, predictions):
    """labels with predictions' rank: a last dim added when labels' rank is one less
    (SparseTensor labels: a SparseReshape under a cond); ValueError for other ranks."""
    with ops.name_scope(None, "expand_labels", (labels, predictions)) as scope:
        labels = sparse_tensor.convert_to_tensor_or_sparse_tensor(labels)
        if isinstance(labels, sparse_tensor.SparseTensor):
            return _maybe_expand_sparse_labels(labels, predictions)
        l_rank = labels.get_shape().ndims
        if l_rank is not None:
            p_rank = predictions.get_shape().ndims
            if p_rank is not None:
                if p_rank == l_rank:
                    return labels
                if p_rank == l_rank + 1:
                    return array_ops.expand_dims(labels, -1, name=scope)
                raise ValueError(
                    "Unexpected labels shape %s for predictions shape %s. Predictions rank "
                    "should be the same rank as labels rank or labels rank plus one ." % (
                        labels.get_shape(), predictions.get_shape()))
        lab = labels
        return control_flow_ops.cond(
            math_ops.equal(array_ops.rank(predictions), array_ops.rank(lab) + 1),
            lambda: array_ops.expand_dims(lab, -1, name=scope), lambda: lab)


def _maybe_expand_sparse_labels(labels, predictions):
    """A SparseTensor `labels` with a last dimension of 1 added when predictions' rank is
    its rank + 1 (TensorFlow reshapes under a tf.cond; here the ranks are compared at
    construction when known, else the indices and shape are chosen by tf.cond)."""
    p_rank = predictions.get_shape().ndims
    n = labels.dense_shape.get_shape().as_list()[0]
    indices, shape = labels.indices, labels.dense_shape

    def expanded():
        zeros = array_ops.zeros_like(indices[:, :1])
        return (array_ops.concat((indices, zeros), 1),
                array_ops.concat((shape, math_ops.cast([1], dtypes.int64)), 0))

    if p_rank is not None and n is not None:
        if p_rank != n + 1:
            return labels
        new_indices, new_shape = expanded()
    else:
        pred = math_ops.equal(array_ops.rank(predictions), array_ops.size(shape) + 1)
        new_indices, new_shape = control_flow_ops.cond(pred, expanded, lambda: (indices, shape))
    return sparse_tensor.SparseTensor(new_indices, labels.values, new_shape)


def _divide(x, y):
    """x / y as TensorFlow's math_ops.divide without a name: a variable x is read before the
    division's name scope opens (so its read is `scope/ReadVariableOp_N`)."""
    return math_ops.divide(ops.convert_to_tensor(x, dtype=y.dtype.base_dtype), y)


def _safe_scalar_div(numerator, denominator, name):
    numerator.get_shape().with_rank_at_most(1)
    denominator.get_shape().with_rank_at_most(1)
    return math_ops.div_no_nan(numerator, denominator, name=name)


def _streaming_confusion_matrix(labels, predictions, num_classes, weights=None):
    """A float64 [num_classes, num_classes] variable `total_confusion_matrix` and the op
    adding one batch's confusion matrix to it (inputs of rank > 1 are flattened)."""
    total_cm = metric_variable([num_classes, num_classes], dtypes.float64,
                               name="total_confusion_matrix")
    predictions = math_ops.cast(predictions, dtypes.int64)
    labels = math_ops.cast(labels, dtypes.int64)
    num_classes = math_ops.cast(num_classes, dtypes.int64)
    if predictions.get_shape().ndims > 1:
        predictions = array_ops.reshape(predictions, [-1])
    if labels.get_shape().ndims > 1:
        labels = array_ops.reshape(labels, [-1])
    if weights is not None and weights.get_shape().ndims > 1:
        weights = array_ops.reshape(weights, [-1])
    current_cm = confusion_matrix.confusion_matrix(labels, predictions, num_classes,
                                                   weights=weights, dtype=dtypes.float64)
    return total_cm, _assign_add(total_cm, current_cm)


def _read_count(v, collections):
    """A count variable's value as TensorFlow's default strategy reads it (an Identity)."""
    value = array_ops.identity(v)
    _add(collections, value)
    return value


# ---- means ----

def mean(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The (weighted) mean of `values` over the stream (tf.compat.v1.metrics.mean).

    Local variables `mean/total` and `mean/count` (float32 scalars); update_op adds
    sum(values * weights) and sum(weights) (or size(values)). Returns (mean, update_op),
    float32 scalars: total / count, 0 while count is 0."""
    with variable_scope.variable_scope(name, "mean", (values, weights)):
        values = math_ops.cast(values, dtypes.float32)
        total = metric_variable([], dtypes.float32, name="total")
        count = metric_variable([], dtypes.float32, name="count")
        if weights is None:
            num_values = math_ops.cast(array_ops.size(values), dtypes.float32)
        else:
            values, _, weights = _remove_squeezable_dimensions(
                predictions=values, labels=None, weights=weights)
            weights = weights_broadcast_ops.broadcast_weights(
                math_ops.cast(weights, dtypes.float32), values)
            values = math_ops.multiply(values, weights)
            num_values = reduction_ops.reduce_sum(weights)
        update_total_op = _assign_add(total, reduction_ops.reduce_sum(values))
        with ops.control_dependencies([values]):
            update_count_op = _assign_add(count, num_values)
        mean_t = math_ops.div_no_nan(total, math_ops.maximum(count, 0), name="value")
        _add(metrics_collections, mean_t)
        update_op = math_ops.div_no_nan(update_total_op, math_ops.maximum(update_count_op, 0),
                                        name="update_op")
        _add(updates_collections, update_op)
        return mean_t, update_op


def mean_tensor(values, weights=None, metrics_collections=None, updates_collections=None,
                name=None):
    """The element-wise (weighted) mean of `values` over the stream
    (tf.compat.v1.metrics.mean_tensor): variables `mean/total_tensor` and
    `mean/count_tensor` of values' (fully defined) shape; returns tensors of that shape."""
    with variable_scope.variable_scope(name, "mean", (values, weights)):
        values = math_ops.cast(values, dtypes.float32)
        total = metric_variable(values.get_shape(), dtypes.float32, name="total_tensor")
        count = metric_variable(values.get_shape(), dtypes.float32, name="count_tensor")
        num_values = array_ops.ones_like(values)
        if weights is not None:
            values, _, weights = _remove_squeezable_dimensions(
                predictions=values, labels=None, weights=weights)
            weights = weights_broadcast_ops.broadcast_weights(
                math_ops.cast(weights, dtypes.float32), values)
            values = math_ops.multiply(values, weights)
            num_values = math_ops.multiply(num_values, weights)
        update_total_op = _assign_add(total, values)
        with ops.control_dependencies([values]):
            update_count_op = _assign_add(count, num_values)
        mean_t = math_ops.div_no_nan(total, math_ops.maximum(count, 0), name="value")
        _add(metrics_collections, mean_t)
        update_op = math_ops.div_no_nan(update_total_op, math_ops.maximum(update_count_op, 0),
                                        name="update_op")
        _add(updates_collections, update_op)
        return mean_t, update_op


def accuracy(labels, predictions, weights=None, metrics_collections=None,
             updates_collections=None, name=None):
    """How often predictions equal labels (tf.compat.v1.metrics.accuracy): the mean of
    is_correct (1.0 / 0.0) weighted by `weights`, variables `accuracy/total`, `accuracy/count`.
    predictions are cast to labels' dtype. ValueError for incompatible shapes."""
    predictions, labels, weights = _remove_squeezable_dimensions(
        predictions=predictions, labels=labels, weights=weights)
    predictions.get_shape().assert_is_compatible_with(labels.get_shape())
    if labels.dtype != predictions.dtype:
        predictions = math_ops.cast(predictions, labels.dtype)
    is_correct = math_ops.cast(math_ops.equal(predictions, labels), dtypes.float32)
    return mean(is_correct, weights, metrics_collections, updates_collections,
                name or "accuracy")


def mean_absolute_error(labels, predictions, weights=None, metrics_collections=None,
                        updates_collections=None, name=None):
    """The (weighted) mean of |predictions - labels| (tf.compat.v1.metrics.mean_absolute_error;
    variables `mean_absolute_error/total`, `.../count`)."""
    predictions, labels, weights = _remove_squeezable_dimensions(
        predictions=predictions, labels=labels, weights=weights)
    absolute_errors = math_ops.abs(predictions - labels)
    return mean(absolute_errors, weights, metrics_collections, updates_collections,
                name or "mean_absolute_error")


def mean_squared_error(labels, predictions, weights=None, metrics_collections=None,
                       updates_collections=None, name=None):
    """The (weighted) mean of (labels - predictions)^2
    (tf.compat.v1.metrics.mean_squared_error)."""
    predictions, labels, weights = _remove_squeezable_dimensions(
        predictions=predictions, labels=labels, weights=weights)
    squared_error = math_ops.squared_difference(labels, predictions)
    return mean(squared_error, weights, metrics_collections, updates_collections,
                name or "mean_squared_error")


def root_mean_squared_error(labels, predictions, weights=None, metrics_collections=None,
                            updates_collections=None, name=None):
    """sqrt of the streaming mean squared error (tf.compat.v1.metrics.root_mean_squared_error;
    variables `root_mean_squared_error/total`, `.../count`)."""
    predictions, labels, weights = _remove_squeezable_dimensions(
        predictions=predictions, labels=labels, weights=weights)
    mse, update_mse_op = mean_squared_error(labels, predictions, weights, None, None,
                                            name or "root_mean_squared_error")
    rmse = math_ops.sqrt(mse)
    _add(metrics_collections, rmse)
    update_rmse_op = math_ops.sqrt(update_mse_op)
    _add(updates_collections, update_rmse_op)
    return rmse, update_rmse_op


def mean_relative_error(labels, predictions, normalizer, weights=None, metrics_collections=None,
                        updates_collections=None, name=None):
    """The (weighted) mean of |labels - predictions| / normalizer, 0 where normalizer is 0
    (tf.compat.v1.metrics.mean_relative_error). normalizer has predictions' shape."""
    predictions, labels, weights = _remove_squeezable_dimensions(
        predictions=predictions, labels=labels, weights=weights)
    predictions, normalizer = confusion_matrix.remove_squeezable_dimensions(predictions,
                                                                             normalizer)
    predictions.get_shape().assert_is_compatible_with(normalizer.get_shape())
    relative_errors = indexing_ops.where(
        math_ops.equal(normalizer, 0.0), array_ops.zeros_like(labels),
        math_ops.divide(math_ops.abs(labels - predictions), normalizer))
    return mean(relative_errors, weights, metrics_collections, updates_collections,
                name or "mean_relative_error")


def mean_cosine_distance(labels, predictions, dim, weights=None, metrics_collections=None,
                         updates_collections=None, name=None):
    """1 - the (weighted) mean of sum(labels * predictions, axis=dim)
    (tf.compat.v1.metrics.mean_cosine_distance; inputs are expected unit-normalized along
    dim)."""
    predictions, labels, weights = _remove_squeezable_dimensions(
        predictions=predictions, labels=labels, weights=weights)
    radial_diffs = math_ops.multiply(predictions, labels)
    radial_diffs = reduction_ops.reduce_sum(radial_diffs, axis=[dim], keepdims=True)
    mean_distance, update_op = mean(radial_diffs, weights, None, None,
                                    name or "mean_cosine_distance")
    mean_distance = math_ops.subtract(1.0, mean_distance)
    update_op = math_ops.subtract(1.0, update_op)
    _add(metrics_collections, mean_distance)
    _add(updates_collections, update_op)
    return mean_distance, update_op


def percentage_below(values, threshold, weights=None, metrics_collections=None,
                     updates_collections=None, name=None):
    """The (weighted) fraction of values < threshold (tf.compat.v1.metrics.percentage_below;
    variables `percentage_below_threshold/total`, `.../count`)."""
    is_below_threshold = math_ops.cast(math_ops.less(values, threshold), dtypes.float32)
    return mean(is_below_threshold, weights, metrics_collections, updates_collections,
                name or "percentage_below_threshold")


# ---- per class: mean_per_class_accuracy, mean_iou ----

def mean_per_class_accuracy(labels, predictions, num_classes, weights=None,
                            metrics_collections=None, updates_collections=None, name=None):
    """The mean over classes of each class's accuracy
    (tf.compat.v1.metrics.mean_per_class_accuracy): variables `mean_accuracy/total` (weight
    seen per label class) and `mean_accuracy/count` (weight correct per class), float32
    [num_classes]. Returns (mean accuracy scalar, update_op: the [num_classes] per-class
    accuracies). Inputs of rank > 1 are flattened."""
    with variable_scope.variable_scope(name, "mean_accuracy", (predictions, labels, weights)):
        labels = math_ops.cast(labels, dtypes.int64)
        if labels.get_shape().ndims > 1:
            labels = array_ops.reshape(labels, [-1])
        if predictions.get_shape().ndims > 1:
            predictions = array_ops.reshape(predictions, [-1])
        predictions.get_shape().assert_is_compatible_with(labels.get_shape())
        total = metric_variable([num_classes], dtypes.float32, name="total")
        count = metric_variable([num_classes], dtypes.float32, name="count")
        ones = array_ops.ones([array_ops.size(labels)], dtypes.float32)
        if labels.dtype != predictions.dtype:
            predictions = math_ops.cast(predictions, labels.dtype)
        is_correct = math_ops.cast(math_ops.equal(predictions, labels), dtypes.float32)
        if weights is not None:
            if weights.get_shape().ndims > 1:
                weights = array_ops.reshape(weights, [-1])
            weights = math_ops.cast(weights, dtypes.float32)
            is_correct *= weights
            ones *= weights
        update_total_op = _scatter_add(total, labels, ones)
        update_count_op = _scatter_add(count, labels, is_correct)
        per_class_accuracy = math_ops.div_no_nan(count, math_ops.maximum(total, 0),
                                                 name="div_no_nan")
        mean_accuracy_v = reduction_ops.reduce_mean(per_class_accuracy, name="mean_accuracy")
        _add(metrics_collections, mean_accuracy_v)
        update_op = math_ops.div_no_nan(update_count_op, math_ops.maximum(update_total_op, 0),
                                        name="update_op")
        _add(updates_collections, update_op)
        return mean_accuracy_v, update_op


def _diag_part(m, n):
    """The diagonal of the [n, n] matrix m (GatherNd at [i, i]): TensorFlow uses DiagPart,
    which minitf does not have yet; the values are the same."""
    idx = array_ops.range(n)
    return indexing_ops.gather_nd(m, array_ops.stack([idx, idx], axis=1))


def mean_iou(labels, predictions, num_classes, weights=None, metrics_collections=None,
             updates_collections=None, name=None):
    """Mean intersection-over-union over the classes present (tf.compat.v1.metrics.mean_iou):
    a float64 [num_classes, num_classes] confusion matrix variable
    `mean_iou/total_confusion_matrix`; update_op returns the updated matrix, value the mean of
    diag / (row sum + column sum - diag) over classes with a nonzero denominator (float32)."""
    with variable_scope.variable_scope(name, "mean_iou", (predictions, labels, weights)):
        predictions = ops.convert_to_tensor(predictions)
        labels = ops.convert_to_tensor(labels)
        predictions.get_shape().assert_is_compatible_with(labels.get_shape())
        total_cm, update_op = _streaming_confusion_matrix(labels, predictions, num_classes,
                                                          weights)
        sum_over_row = math_ops.cast(reduction_ops.reduce_sum(total_cm, 0), dtypes.float32)
        sum_over_col = math_ops.cast(reduction_ops.reduce_sum(total_cm, 1), dtypes.float32)
        cm_diag = math_ops.cast(_diag_part(total_cm, num_classes), dtypes.float32)
        denominator = sum_over_row + sum_over_col - cm_diag
        num_valid_entries = reduction_ops.reduce_sum(
            math_ops.cast(math_ops.not_equal(denominator, 0), dtype=dtypes.float32))
        denominator = indexing_ops.where(math_ops.greater(denominator, 0), denominator,
                                         array_ops.ones_like(denominator))
        iou = math_ops.divide(cm_diag, denominator)
        mean_iou_v = indexing_ops.where(
            math_ops.greater(num_valid_entries, 0),
            reduction_ops.reduce_sum(iou, name="mean_iou") / num_valid_entries, 0)
        _add(metrics_collections, mean_iou_v)
        _add(updates_collections, update_op)
        return mean_iou_v, update_op


# ---- confusion counts ----

def _count_condition(values, weights=None, metrics_collections=None, updates_collections=None):
    check_ops.assert_type(values, dtypes.bool)
    count = metric_variable([], dtypes.float32, name="count")
    values = math_ops.cast(values, dtypes.float32)
    if weights is not None:
        with ops.control_dependencies((check_ops.assert_rank_in(
                weights, (0, array_ops.rank(values))),)):
            weights = math_ops.cast(weights, dtypes.float32)
            values = math_ops.multiply(values, weights)
    value_tensor = _read_count(count, metrics_collections)
    update_op = _assign_add(count, reduction_ops.reduce_sum(values))
    _add(updates_collections, update_op)
    return value_tensor, update_op


def _count_metric(default_name, label_value, prediction_value, labels, predictions, weights,
                  metrics_collections, updates_collections, name):
    with variable_scope.variable_scope(name, default_name, (predictions, labels, weights)):
        predictions, labels, weights = _remove_squeezable_dimensions(
            predictions=math_ops.cast(predictions, dtype=dtypes.bool),
            labels=math_ops.cast(labels, dtype=dtypes.bool), weights=weights)
        is_condition = math_ops.logical_and(math_ops.equal(labels, label_value),
                                            math_ops.equal(predictions, prediction_value))
        return _count_condition(is_condition, weights, metrics_collections, updates_collections)


def true_positives(labels, predictions, weights=None, metrics_collections=None,
                   updates_collections=None, name=None):
    """The (weighted) number of labels True with predictions True
    (tf.compat.v1.metrics.true_positives; variable `true_positives/count`, float32).
    labels and predictions are cast to bool."""
    return _count_metric("true_positives", True, True, labels, predictions, weights,
                         metrics_collections, updates_collections, name)


def false_positives(labels, predictions, weights=None, metrics_collections=None,
                    updates_collections=None, name=None):
    """The (weighted) number of labels False with predictions True
    (tf.compat.v1.metrics.false_positives; variable `false_positives/count`)."""
    return _count_metric("false_positives", False, True, labels, predictions, weights,
                         metrics_collections, updates_collections, name)


def true_negatives(labels, predictions, weights=None, metrics_collections=None,
                   updates_collections=None, name=None):
    """The (weighted) number of labels False with predictions False
    (tf.compat.v1.metrics.true_negatives; variable `true_negatives/count`)."""
    return _count_metric("true_negatives", False, False, labels, predictions, weights,
                         metrics_collections, updates_collections, name)


def false_negatives(labels, predictions, weights=None, metrics_collections=None,
                    updates_collections=None, name=None):
    """The (weighted) number of labels True with predictions False
    (tf.compat.v1.metrics.false_negatives; variable `false_negatives/count`)."""
    return _count_metric("false_negatives", True, False, labels, predictions, weights,
                         metrics_collections, updates_collections, name)


def _confusion_matrix_at_thresholds(labels, predictions, thresholds, weights=None,
                                    includes=None):
    """Variables true_positives / false_negatives / true_negatives / false_positives
    (float32 [len(thresholds)], those named in `includes`) and their update ops: entry i
    counts predictions above (positive) or at most (negative) thresholds[i]."""
    all_includes = ("tp", "fn", "tn", "fp")
    if includes is None:
        includes = all_includes
    else:
        for include in includes:
            if include not in all_includes:
                raise ValueError("Invalid key: %s" % include)
    predictions = ops.convert_to_tensor(predictions)
    with ops.control_dependencies([
            check_ops.assert_greater_equal(predictions,
                                           math_ops.cast(0.0, dtype=predictions.dtype),
                                           message="predictions must be in [0, 1]"),
            check_ops.assert_less_equal(predictions,
                                        math_ops.cast(1.0, dtype=predictions.dtype),
                                        message="predictions must be in [0, 1]")]):
        predictions, labels, weights = _remove_squeezable_dimensions(
            predictions=math_ops.cast(predictions, dtypes.float32),
            labels=math_ops.cast(labels, dtype=dtypes.bool), weights=weights)
    num_thresholds = len(thresholds)
    predictions_2d = array_ops.reshape(predictions, [-1, 1])
    labels_2d = array_ops.reshape(math_ops.cast(labels, dtype=dtypes.bool), [1, -1])
    num_predictions = predictions_2d.get_shape().as_list()[0]
    if num_predictions is None:
        num_predictions = array_ops.shape(predictions_2d)[0]
    from minitf.framework import constant_op
    thresh_tiled = array_ops.tile(
        array_ops.expand_dims(constant_op.constant(thresholds), [1]),
        array_ops.stack([1, num_predictions]))
    pred_is_pos = math_ops.greater(
        array_ops.tile(array_ops.transpose(predictions_2d), [num_thresholds, 1]), thresh_tiled)
    if "fn" in includes or "tn" in includes:
        pred_is_neg = math_ops.logical_not(pred_is_pos)
    label_is_pos = array_ops.tile(labels_2d, [num_thresholds, 1])
    if "fp" in includes or "tn" in includes:
        label_is_neg = math_ops.logical_not(label_is_pos)
    if weights is not None:
        weights = weights_broadcast_ops.broadcast_weights(
            math_ops.cast(weights, dtypes.float32), predictions)
        weights_tiled = array_ops.tile(array_ops.reshape(weights, [1, -1]), [num_thresholds, 1])
        thresh_tiled.get_shape().assert_is_compatible_with(weights_tiled.get_shape())
    else:
        weights_tiled = None
    values, update_ops = {}, {}
    cases = (("tp", "true_positives", lambda: (label_is_pos, pred_is_pos)),
             ("fn", "false_negatives", lambda: (label_is_pos, pred_is_neg)),
             ("tn", "true_negatives", lambda: (label_is_neg, pred_is_neg)),
             ("fp", "false_positives", lambda: (label_is_neg, pred_is_pos)))
    for key, var_name, operands in cases:
        if key not in includes:
            continue
        var = metric_variable([num_thresholds], dtypes.float32, name=var_name)
        is_case = math_ops.cast(math_ops.logical_and(*operands()), dtypes.float32)
        if weights_tiled is not None:
            is_case *= weights_tiled
        update_ops[key] = _assign_add(var, reduction_ops.reduce_sum(is_case, 1))
        values[key] = var
    return values, update_ops


def _count_at_thresholds(key, default_name, labels, predictions, thresholds, weights,
                         metrics_collections, updates_collections, name):
    with variable_scope.variable_scope(name, default_name, (predictions, labels, weights)):
        values, update_ops = _confusion_matrix_at_thresholds(
            labels, predictions, thresholds, weights=weights, includes=(key,))
        value = _read_count(values[key], metrics_collections)
        _add(updates_collections, update_ops[key])
        return value, update_ops[key]


def true_positives_at_thresholds(labels, predictions, thresholds, weights=None,
                                 metrics_collections=None, updates_collections=None, name=None):
    """Per threshold t, the (weighted) number of labels True with predictions > t
    (tf.compat.v1.metrics.true_positives_at_thresholds; variable
    `true_positives/true_positives`, float32 [len(thresholds)])."""
    return _count_at_thresholds("tp", "true_positives", labels, predictions, thresholds,
                                weights, metrics_collections, updates_collections, name)


def false_positives_at_thresholds(labels, predictions, thresholds, weights=None,
                                  metrics_collections=None, updates_collections=None, name=None):
    """Per threshold t, the (weighted) number of labels False with predictions > t
    (tf.compat.v1.metrics.false_positives_at_thresholds)."""
    return _count_at_thresholds("fp", "false_positives", labels, predictions, thresholds,
                                weights, metrics_collections, updates_collections, name)


def true_negatives_at_thresholds(labels, predictions, thresholds, weights=None,
                                 metrics_collections=None, updates_collections=None, name=None):
    """Per threshold t, the (weighted) number of labels False with predictions <= t
    (tf.compat.v1.metrics.true_negatives_at_thresholds)."""
    return _count_at_thresholds("tn", "true_negatives", labels, predictions, thresholds,
                                weights, metrics_collections, updates_collections, name)


def false_negatives_at_thresholds(labels, predictions, thresholds, weights=None,
                                  metrics_collections=None, updates_collections=None, name=None):
    """Per threshold t, the (weighted) number of labels True with predictions <= t
    (tf.compat.v1.metrics.false_negatives_at_thresholds)."""
    return _count_at_thresholds("fn", "false_negatives", labels, predictions, thresholds,
                                weights, metrics_collections, updates_collections, name)


# ---- precision, recall ----

def _ratio_metric(default_name, second, labels, predictions, weights, metrics_collections,
                  updates_collections, name):
    """tp / (tp + second), 0 while the sum is 0: precision (second = false_positives) or
    recall (false_negatives), as Select nodes named value / update_op."""
    with variable_scope.variable_scope(name, default_name, (predictions, labels, weights)):
        predictions, labels, weights = _remove_squeezable_dimensions(
            predictions=math_ops.cast(predictions, dtype=dtypes.bool),
            labels=math_ops.cast(labels, dtype=dtypes.bool), weights=weights)
        tp, tp_update = true_positives(labels, predictions, weights)
        other, other_update = second(labels, predictions, weights)

        def ratio(a, b, op_name):
            positive = math_ops.greater(a + b, 0)
            return indexing_ops.where(positive, _divide(a, a + b), 0, op_name)

        value = ratio(tp, other, "value")
        _add(metrics_collections, value)
        update_op = ratio(tp_update, other_update, "update_op")
        _add(updates_collections, update_op)
        return value, update_op


def precision(labels, predictions, weights=None, metrics_collections=None,
              updates_collections=None, name=None):
    """true_positives / (true_positives + false_positives) over the stream
    (tf.compat.v1.metrics.precision): variables `precision/true_positives/count` and
    `precision/false_positives/count`; 0 while nothing was predicted positive."""
    return _ratio_metric("precision", false_positives, labels, predictions, weights,
                         metrics_collections, updates_collections, name)


def recall(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
           name=None):
    """true_positives / (true_positives + false_negatives) over the stream
    (tf.compat.v1.metrics.recall): variables `recall/true_positives/count`,
    `recall/false_negatives/count`."""
    return _ratio_metric("recall", false_negatives, labels, predictions, weights,
                         metrics_collections, updates_collections, name)


def _ratio_at_thresholds(default_name, second_key, prefix, labels, predictions, thresholds,
                         weights, metrics_collections, updates_collections, name):
    with variable_scope.variable_scope(name, default_name, (predictions, labels, weights)):
        values, update_ops = _confusion_matrix_at_thresholds(
            labels, predictions, thresholds, weights, includes=("tp", second_key))

        def ratio(tp, other, suffix):
            return math_ops.divide(tp, _KEPSILON + tp + other, name=prefix + suffix)

        value = ratio(values["tp"], values[second_key], "value")
        _add(metrics_collections, value)
        update_op = ratio(update_ops["tp"], update_ops[second_key], "update_op")
        _add(updates_collections, update_op)
        return value, update_op


def precision_at_thresholds(labels, predictions, thresholds, weights=None,
                            metrics_collections=None, updates_collections=None, name=None):
    """Per threshold, tp / (tp + fp + 1e-7) (tf.compat.v1.metrics.precision_at_thresholds;
    variables `precision_at_thresholds/true_positives`, `.../false_positives`)."""
    return _ratio_at_thresholds("precision_at_thresholds", "fp", "precision_", labels,
                                predictions, thresholds, weights, metrics_collections,
                                updates_collections, name)


def recall_at_thresholds(labels, predictions, thresholds, weights=None,
                         metrics_collections=None, updates_collections=None, name=None):
    """Per threshold, tp / (tp + fn + 1e-7) (tf.compat.v1.metrics.recall_at_thresholds)."""
    return _ratio_at_thresholds("recall_at_thresholds", "fn", "recall_", labels, predictions,
                                thresholds, weights, metrics_collections, updates_collections,
                                name)


# ---- auc, sensitivity / specificity ----

def _auc_thresholds(num_thresholds, thresholds=None, top=1.0 + _KEPSILON):
    if thresholds is not None:
        inner = sorted(thresholds)
    else:
        inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    return [0.0 - _KEPSILON] + inner + [top]


def _interpolate_pr_auc(tp, fp, fn, n):
    """PR-AUC by Davis & Goadrich's interpolation (TensorFlow's careful_interpolation)."""
    dtp = tp[:n - 1] - tp[1:]
    p = tp + fp
    prec_slope = math_ops.div_no_nan(dtp, math_ops.maximum(p[:n - 1] - p[1:], 0),
                                     name="prec_slope")
    intercept = tp[1:] - math_ops.multiply(prec_slope, p[1:])
    safe_p_ratio = indexing_ops.where(
        math_ops.logical_and(p[:n - 1] > 0, p[1:] > 0),
        math_ops.div_no_nan(p[:n - 1], math_ops.maximum(p[1:], 0),
                            name="recall_relative_ratio"),
        array_ops.ones_like(p[1:]))
    return reduction_ops.reduce_sum(
        math_ops.div_no_nan(prec_slope * (dtp + intercept * math_ops.log(safe_p_ratio)),
                            math_ops.maximum(tp[1:] + fn[1:], 0), name="pr_auc_increment"),
        name="interpolate_pr_auc")


def _compute_auc(tp, fn, tn, fp, n, curve, summation_method, name):
    from minitf.platform import tf_logging as logging
    epsilon = 1.0e-6
    if curve == "PR":
        if summation_method == "trapezoidal":
            logging.warning("Trapezoidal rule is known to produce incorrect PR-AUCs; "
                            "please switch to \"careful_interpolation\" instead.")
        elif summation_method == "careful_interpolation":
            return _interpolate_pr_auc(tp, fp, fn, n)
    rec = _divide(tp + epsilon, tp + fn + epsilon)
    if curve == "ROC":
        x, y = _divide(fp, fp + tn + epsilon), rec
    else:
        x, y = rec, _divide(tp + epsilon, tp + fp + epsilon)
    if summation_method not in ("trapezoidal", "careful_interpolation", "minoring", "majoring"):
        raise ValueError("Invalid summation_method: %s summation_method should be "
                         "'trapezoidal', 'careful_interpolation', 'minoring', or "
                         "'majoring'." % summation_method)
    widths = x[:n - 1] - x[1:]
    if summation_method == "minoring":
        heights = math_ops.minimum(y[:n - 1], y[1:])
    elif summation_method == "majoring":
        heights = math_ops.maximum(y[:n - 1], y[1:])
    else:
        heights = (y[:n - 1] + y[1:]) / 2.
    return reduction_ops.reduce_sum(math_ops.multiply(widths, heights), name=name)


def auc(labels, predictions, weights=None, num_thresholds=200, metrics_collections=None,
        updates_collections=None, curve="ROC", name=None, summation_method="trapezoidal",
        thresholds=None):
    """The approximate area under the ROC or PR curve by a Riemann sum over thresholds
    (tf.compat.v1.metrics.auc).

    num_thresholds - 2 evenly spaced thresholds in (0, 1) (or the sorted `thresholds`), plus
    -1e-7 and 1 + 1e-7; variables `auc/true_positives`, `auc/false_negatives`,
    `auc/true_negatives`, `auc/false_positives` (float32 [num_thresholds]). curve 'ROC' or
    'PR'; summation_method 'trapezoidal', 'careful_interpolation', 'minoring' or 'majoring'.
    ValueError for another curve or summation method; predictions must lie in [0, 1]."""
    with variable_scope.variable_scope(name, "auc", (labels, predictions, weights)):
        if curve != "ROC" and curve != "PR":
            raise ValueError("Curve must be either ROC or PR. Curve %s is unknown." % curve)
        # TF slices the curves with num_thresholds as given (len(thresholds) + 2 when the
        # thresholds are listed), even when it is not the number of thresholds (0 or 1)
        n = num_thresholds if thresholds is None else len(thresholds) + 2
        thresholds = _auc_thresholds(num_thresholds, thresholds)
        values, update_ops = _confusion_matrix_at_thresholds(labels, predictions, thresholds,
                                                             weights)
        auc_value = _compute_auc(values["tp"], values["fn"], values["tn"], values["fp"], n,
                                 curve, summation_method, "value")
        _add(metrics_collections, auc_value)
        update_op = _compute_auc(update_ops["tp"], update_ops["fn"], update_ops["tn"],
                                 update_ops["fp"], n, curve, summation_method, "update_op")
        _add(updates_collections, update_op)
        return auc_value, update_op


def sensitivity_at_specificity(labels, predictions, specificity, weights=None,
                               num_thresholds=200, metrics_collections=None,
                               updates_collections=None, name=None):
    """The sensitivity (recall) at the threshold whose specificity is nearest `specificity`
    (tf.compat.v1.metrics.sensitivity_at_specificity; variables
    `sensitivity_at_specificity/true_positives`, ...). ValueError unless 0 <= specificity
    <= 1."""
    if specificity < 0 or specificity > 1:
        raise ValueError("`specificity` must be in the range [0, 1]. Currently, "
                         "`specificity` got %s." % specificity)
    with variable_scope.variable_scope(name, "sensitivity_at_specificity",
                                       (predictions, labels, weights)):
        thresholds = _auc_thresholds(num_thresholds)
        values, update_ops = _confusion_matrix_at_thresholds(labels, predictions, thresholds,
                                                             weights)

        def compute(tp, tn, fp, fn, op_name):
            specificities = _divide(tn, tn + fp + _KEPSILON)
            tf_index = reduction_ops.argmin(math_ops.abs(specificities - specificity), 0)
            tf_index = math_ops.cast(tf_index, dtypes.int32)
            return math_ops.divide(tp[tf_index], tp[tf_index] + fn[tf_index] + _KEPSILON,
                                   op_name)

        value = compute(values["tp"], values["tn"], values["fp"], values["fn"], "value")
        _add(metrics_collections, value)
        update_op = compute(update_ops["tp"], update_ops["tn"], update_ops["fp"],
                            update_ops["fn"], "update_op")
        _add(updates_collections, update_op)
        return value, update_op


def specificity_at_sensitivity(labels, predictions, sensitivity, weights=None,
                               num_thresholds=200, metrics_collections=None,
                               updates_collections=None, name=None):
    """The specificity at the (last) threshold whose sensitivity is nearest `sensitivity`
    (tf.compat.v1.metrics.specificity_at_sensitivity). ValueError unless 0 <= sensitivity
    <= 1."""
    if sensitivity < 0 or sensitivity > 1:
        raise ValueError("`sensitivity` must be in the range [0, 1]. Currently, "
                         "`sensitivity` is %s." % sensitivity)
    with variable_scope.variable_scope(name, "specificity_at_sensitivity",
                                       (predictions, labels, weights)):
        thresholds = _auc_thresholds(num_thresholds, top=1.0 - _KEPSILON)
        values, update_ops = _confusion_matrix_at_thresholds(labels, predictions, thresholds,
                                                             weights)

        def compute(tp, tn, fp, fn, op_name):
            sensitivities = _divide(tp, tp + fn + _KEPSILON)
            min_val = reduction_ops.reduce_min(math_ops.abs(sensitivities - sensitivity))
            at_min = math_ops.equal(math_ops.abs(sensitivities - sensitivity), min_val)
            at_min = reduction_ops.cumsum(math_ops.cast(at_min, dtypes.int64))
            tf_index = math_ops.cast(reduction_ops.argmax(at_min, 0), dtypes.int32)
            return math_ops.divide(tn[tf_index], tn[tf_index] + fp[tf_index] + _KEPSILON,
                                   op_name)

        value = compute(values["tp"], values["tn"], values["fp"], values["fn"], "value")
        _add(metrics_collections, value)
        update_op = compute(update_ops["tp"], update_ops["tn"], update_ops["fp"],
                            update_ops["fn"], "update_op")
        _add(updates_collections, update_op)
        return value, update_op


# ---- top-k metrics: precision / recall / average precision at k ----

def _at_k_name(name, k=None, class_id=None):
    name = "%s_at_%d" % (name, k) if k is not None else "%s_at_k" % name
    if class_id is not None:
        name = "%s_class%d" % (name, class_id)
    return name


def _sparse_retain(sp, to_retain):
    """The entries of SparseTensor sp where to_retain is True (TensorFlow's
    sparse_ops.sparse_retain: Where + Gather of indices and values)."""
    with ops.name_scope(None, "SparseRetain", [sp]):
        where_true = array_ops.reshape(indexing_ops.where(to_retain), [-1])
        new_indices = indexing_ops.gather(sp.indices, where_true)
        new_values = indexing_ops.gather(sp.values, where_true)
        return sparse_tensor.SparseTensor(new_indices, new_values,
                                          array_ops.identity(sp.dense_shape))


def _select_class_id(ids, selected_id):
    """ids filtered to selected_id, as a SparseTensor over ids' shape: for a dense `ids`
    ([D1, ... DN, num_labels]) the intersection of each row's set with {selected_id}."""
    ids = sparse_tensor.convert_to_tensor_or_sparse_tensor(ids)
    if isinstance(ids, sparse_tensor.SparseTensor):
        return _sparse_retain(ids, math_ops.equal(ids.values, selected_id))
    ids_shape = array_ops.shape(ids, out_type=dtypes.int64)
    ids_last_dim = array_ops.size(ids_shape) - 1
    filled_shape = _reduced_shape(ids_shape, array_ops.reshape(ids_last_dim, [1]))
    filled_selected_id = array_ops.fill(filled_shape, math_ops.cast(selected_id, dtypes.int64))
    result = sets.set_intersection(filled_selected_id, ids)
    return sparse_tensor.SparseTensor(indices=result.indices, values=result.values,
                                      dense_shape=ids_shape)


def _reduced_shape(input_shape, axes):
    """input_shape with the dims in `axes` set to 1 (TensorFlow's math_ops.reduced_shape,
    same nodes)."""
    from minitf.framework import tensor_util
    import numpy as np
    constant_input_shape = tensor_util.constant_value(input_shape)
    if constant_input_shape is not None:
        constant_axes = tensor_util.constant_value(axes)
        if constant_axes is not None:
            constant_axes = np.array(constant_axes, dtype=np.int32)
            constant_input_shape = np.array(constant_input_shape, dtype=np.int32)
            constant_input_shape[constant_axes] = 1
            return constant_input_shape
    axes = ops.convert_to_tensor(axes)
    input_rank = array_ops.size(input_shape, out_type=axes.dtype)
    axes = (axes + input_rank) % input_rank
    axes_shape = array_ops.shape(axes)
    return array_ops.dynamic_stitch(
        [array_ops.range(input_rank), axes],
        [input_shape, array_ops.ones(axes_shape, dtype=input_shape.dtype)])


def _maybe_select_class_id(labels, predictions_idx, selected_id=None):
    if selected_id is None:
        return labels, predictions_idx
    return (_select_class_id(labels, selected_id),
            _select_class_id(predictions_idx, selected_id))


def _weighted_count(count, weights):
    count = math_ops.cast(count, dtypes.float64)
    if weights is not None:
        with ops.control_dependencies((weights_broadcast_ops.assert_broadcastable(weights,
                                                                                  count),)):
            weights = math_ops.cast(weights, dtypes.float64)
            count = math_ops.multiply(count, weights)
    return count


def _sparse_true_positive_at_k(labels, predictions_idx, class_id=None, weights=None, name=None):
    """Per row, the number of predicted ids that are labels (float64, times weights)."""
    with ops.name_scope(name, "true_positives", (predictions_idx, labels, weights)):
        labels, predictions_idx = _maybe_select_class_id(labels, predictions_idx, class_id)
        tp = sets.set_size(sets.set_intersection(predictions_idx, labels))
        return _weighted_count(tp, weights)


def _sparse_false_negative_at_k(labels, predictions_idx, class_id=None, weights=None):
    with ops.name_scope(None, "false_negatives", (predictions_idx, labels, weights)):
        labels, predictions_idx = _maybe_select_class_id(labels, predictions_idx, class_id)
        fn = sets.set_size(sets.set_difference(predictions_idx, labels, aminusb=False))
        return _weighted_count(fn, weights)


def _sparse_false_positive_at_k(labels, predictions_idx, class_id=None, weights=None):
    with ops.name_scope(None, "false_positives", (predictions_idx, labels, weights)):
        labels, predictions_idx = _maybe_select_class_id(labels, predictions_idx, class_id)
        fp = sets.set_size(sets.set_difference(predictions_idx, labels, aminusb=True))
        return _weighted_count(fp, weights)


def _streaming_at_k(kind, count_fn, labels, predictions_idx, k, class_id, weights):
    """A float64 scalar variable named after the scope (e.g. `true_positive_at_2`) and the
    op adding the batch's total of count_fn."""
    with ops.name_scope(None, _at_k_name(kind, k, class_id=class_id),
                        (predictions_idx, labels, weights)) as scope:
        counts = count_fn(labels=labels, predictions_idx=predictions_idx, class_id=class_id,
                          weights=weights)
        batch_total = math_ops.cast(reduction_ops.reduce_sum(counts), dtypes.float64)
        var = metric_variable([], dtypes.float64, name=scope)
        return var, _assign_add(var, batch_total)


def _top_k_ratio(kind, other_kind, other_fn, labels, predictions_idx, k, class_id, weights,
                 metrics_collections, updates_collections, name):
    with ops.name_scope(name, _at_k_name(kind, k, class_id=class_id),
                        (predictions_idx, labels, weights)) as scope:
        labels = _maybe_expand_labels(labels, predictions_idx)
        top_k_idx = math_ops.cast(predictions_idx, dtypes.int64)
        tp, tp_update = _streaming_at_k("true_positive", _sparse_true_positive_at_k, labels,
                                        top_k_idx, k, class_id, weights)
        other, other_update = _streaming_at_k(other_kind, other_fn, labels, top_k_idx, k,
                                              class_id, weights)
        metric = math_ops.divide(tp, math_ops.add(tp, other), name=scope)
        _add(metrics_collections, metric)
        update = math_ops.divide(tp_update, math_ops.add(tp_update, other_update),
                                 name="update")
        _add(updates_collections, update)
        return metric, update


def recall_at_top_k(labels, predictions_idx, k=None, class_id=None, weights=None,
                    metrics_collections=None, updates_collections=None, name=None):
    """Recall of the top-k predicted ids `predictions_idx` ([D1, ... DN, k], integers) against
    `labels` (int64 Tensor or SparseTensor [D1, ... DN, num_labels] or [D1, ... DN]), over
    the stream (tf.compat.v1.metrics.recall_at_top_k): tp / (tp + fn) with float64 variables
    `recall_at_<k>/true_positive_at_<k>` and `.../false_negative_at_<k>`. class_id restricts
    to one class (NaN while that class never occurred)."""
    return _top_k_ratio("recall", "false_negative", _sparse_false_negative_at_k, labels,
                        predictions_idx, k, class_id, weights, metrics_collections,
                        updates_collections, name)


def precision_at_top_k(labels, predictions_idx, k=None, class_id=None, weights=None,
                       metrics_collections=None, updates_collections=None, name=None):
    """Precision of the top-k predicted ids against `labels` over the stream
    (tf.compat.v1.metrics.precision_at_top_k): tp / (tp + fp), float64 variables
    `precision_at_<k>/true_positive_at_<k>`, `.../false_positive_at_<k>`."""
    return _top_k_ratio("precision", "false_positive", _sparse_false_positive_at_k, labels,
                        predictions_idx, k, class_id, weights, metrics_collections,
                        updates_collections, name)


def recall_at_k(labels, predictions, k, class_id=None, weights=None, metrics_collections=None,
                updates_collections=None, name=None):
    """recall_at_top_k of the top k ids of `predictions` (float [D1, ... DN, num_classes],
    via tf.nn.top_k) (tf.compat.v1.metrics.recall_at_k)."""
    from minitf.ops import nn_ops
    with ops.name_scope(name, _at_k_name("recall", k, class_id=class_id),
                        (predictions, labels, weights)) as scope:
        _, top_k_idx = nn_ops.top_k(predictions, k)
        return recall_at_top_k(labels=labels, predictions_idx=top_k_idx, k=k,
                               class_id=class_id, weights=weights,
                               metrics_collections=metrics_collections,
                               updates_collections=updates_collections, name=scope)


def precision_at_k(labels, predictions, k, class_id=None, weights=None, metrics_collections=None,
                   updates_collections=None, name=None):
    """precision_at_top_k of the top k ids of `predictions` (tf.compat.v1.metrics.precision_at_k
    and its deprecated alias sparse_precision_at_k)."""
    from minitf.ops import nn_ops
    with ops.name_scope(name, _at_k_name("precision", k, class_id=class_id),
                        (predictions, labels, weights)) as scope:
        _, top_k_idx = nn_ops.top_k(predictions, k)
        return precision_at_top_k(labels=labels, predictions_idx=top_k_idx, k=k,
                                  class_id=class_id, weights=weights,
                                  metrics_collections=metrics_collections,
                                  updates_collections=updates_collections, name=scope)


def sparse_precision_at_k(labels, predictions, k, class_id=None, weights=None,
                          metrics_collections=None, updates_collections=None, name=None):
    """Deprecated alias of precision_at_k (tf.compat.v1.metrics.sparse_precision_at_k)."""
    return precision_at_k(labels=labels, predictions=predictions, k=k, class_id=class_id,
                          weights=weights, metrics_collections=metrics_collections,
                          updates_collections=updates_collections, name=name)


def _expand_and_tile(tensor, multiple, dim=0, name=None):
    """`tensor` with a new dimension at `dim` repeated `multiple` times (dense: ExpandDims +
    Tile; SparseTensor: the indices gain the copy's coordinate, then SparseReorder, the
    same SparseTensor TensorFlow's SparseReshape + SparseConcat give)."""
    if multiple < 1:
        raise ValueError("Invalid argument multiple=%s for expand_and_tile  call. `multiple` "
                         "must be an integer > 0" % multiple)
    with ops.name_scope(name, "expand_and_tile", (tensor, multiple, dim)) as scope:
        tensor = sparse_tensor.convert_to_tensor_or_sparse_tensor(tensor)
        if isinstance(tensor, sparse_tensor.SparseTensor):
            return _sparse_expand_and_tile(tensor, multiple, dim, scope)
        expanded = array_ops.expand_dims(tensor, dim if dim >= 0 else dim - 1, name="expand")
        if multiple == 1:
            return expanded
        ones = array_ops.ones_like(array_ops.shape(tensor))
        tile_multiples = array_ops.concat((ones[:dim], (multiple,), ones[dim:]), 0,
                                          name="multiples")
        return array_ops.tile(expanded, tile_multiples, name=scope)


def _insert_column(matrix, pos, column):
    """matrix [N, r] with `column` ([N, 1]) inserted before column `pos` (a scalar tensor)."""
    return array_ops.concat((matrix[:, :pos], column, matrix[:, pos:]), 1)


def _sparse_expand_and_tile(sp, multiple, dim, scope):
    from minitf.ops import sparse_ops
    rank = array_ops.size(sp.dense_shape)
    pos = array_ops.reshape(rank + dim if dim < 0 else dim, [])
    shape = sp.dense_shape
    n = array_ops.shape(sp.indices, out_type=dtypes.int64)[:1]
    parts_ix, parts_val = [], []
    for c in range(multiple):
        col = array_ops.fill(array_ops.concat((n, [1]), 0), math_ops.cast(c, dtypes.int64))
        parts_ix.append(_insert_column(sp.indices, pos, col))
        parts_val.append(sp.values)
    new_shape = array_ops.concat(
        (shape[:pos], math_ops.cast([multiple], dtypes.int64), shape[pos:]), 0)
    tiled = sparse_tensor.SparseTensor(array_ops.concat(parts_ix, 0),
                                       array_ops.concat(parts_val, 0), new_shape)
    return sparse_ops.sparse_reorder(tiled, name=scope) if multiple > 1 else tiled


def _num_relevant(labels, k):
    """Per row, min(number of labels, k): the denominator of average precision."""
    if k < 1:
        raise ValueError("Invalid k=%s" % k)
    with ops.name_scope(None, "num_relevant", (labels,)) as scope:
        labels = sparse_tensor.convert_to_tensor_or_sparse_tensor(labels)
        if isinstance(labels, sparse_tensor.SparseTensor):
            return math_ops.minimum(sets.set_size(labels), k, name=scope)
        num_labels = reduction_ops.reduce_sum(
            math_ops.where_v2(math_ops.greater_equal(labels, 0), array_ops.ones_like(labels),
                              array_ops.zeros_like(labels)), axis=-1)
        return math_ops.minimum(num_labels, k, name=scope)


def _sparse_average_precision_at_top_k(labels, predictions_idx):
    """Per row, the average precision of the ranked ids predictions_idx ([..., k]) against
    labels (float64 [...])."""
    with ops.name_scope(None, "average_precision", (predictions_idx, labels)) as scope:
        predictions_idx = math_ops.cast(predictions_idx, dtypes.int64, name="predictions_idx")
        if predictions_idx.get_shape().ndims == 0:
            raise ValueError("The rank of `predictions_idx` must be at least 1.")
        k = predictions_idx.get_shape().as_list()[-1]
        if k is None:
            raise ValueError("The last dimension of predictions_idx must be set. Currently, "
                             "it is None.")
        labels = _maybe_expand_labels(labels, predictions_idx)
        predictions_idx_per_k = array_ops.expand_dims(predictions_idx, -1,
                                                      name="predictions_idx_per_k")
        labels_per_k = _expand_and_tile(labels, multiple=k, dim=-1, name="labels_per_k")
        relevant_per_k = _sparse_true_positive_at_k(labels_per_k, predictions_idx_per_k,
                                                    name="relevant_per_k")
        tp_per_k = reduction_ops.cumsum(relevant_per_k, axis=-1, name="tp_per_k")
        retrieved_per_k = reduction_ops.cumsum(array_ops.ones_like(relevant_per_k), axis=-1,
                                               name="retrieved_per_k")
        precision_per_k = math_ops.divide(math_ops.cast(tp_per_k, dtypes.float64),
                                          math_ops.cast(retrieved_per_k, dtypes.float64),
                                          name="precision_per_k")
        relevant_precision_per_k = math_ops.multiply(
            precision_per_k, math_ops.cast(relevant_per_k, dtypes.float64),
            name="relevant_precision_per_k")
        precision_sum = reduction_ops.reduce_sum(relevant_precision_per_k, axis=(-1,),
                                                 name="precision_sum")
        num_relevant_items = math_ops.cast(_num_relevant(labels, k), dtypes.float64)
        return math_ops.divide(precision_sum, num_relevant_items, name=scope)


def _streaming_sparse_average_precision_at_top_k(labels, predictions_idx, weights=None,
                                                 metrics_collections=None,
                                                 updates_collections=None, name=None):
    with ops.name_scope(name, "average_precision_at_top_k",
                        (predictions_idx, labels, weights)) as scope:
        average_precision = _sparse_average_precision_at_top_k(
            predictions_idx=predictions_idx, labels=labels)
        if weights is not None:
            weights = weights_broadcast_ops.broadcast_weights(
                math_ops.cast(weights, dtypes.float64), average_precision)
            average_precision = math_ops.multiply(average_precision, weights)
        with ops.name_scope(None, "max", (average_precision,)) as max_scope:
            max_var = metric_variable([], dtypes.float64, name=max_scope)
            if weights is None:
                batch_max = math_ops.cast(array_ops.size(average_precision, name="batch_max"),
                                          dtypes.float64)
            else:
                batch_max = reduction_ops.reduce_sum(weights, name="batch_max")
            max_update = _assign_add(max_var, batch_max)
        with ops.name_scope(None, "total", (average_precision,)) as total_scope:
            total_var = metric_variable([], dtypes.float64, name=total_scope)
            batch_total = reduction_ops.reduce_sum(average_precision, name="batch_total")
            total_update = _assign_add(total_var, batch_total)
        mean_average_precision = _safe_scalar_div(total_var, max_var, name="mean")
        _add(metrics_collections, mean_average_precision)
        update = _safe_scalar_div(total_update, max_update, name=scope)
        _add(updates_collections, update)
        return mean_average_precision, update


def _clean_out_of_range_indices(labels, num_classes):
    """labels with values >= num_classes replaced by -1 (under a tf.cond on their max)."""
    is_sparse = isinstance(labels, (sparse_tensor.SparseTensor, sparse_tensor.SparseTensorValue))

    def clean(values):
        return math_ops.where_v2(math_ops.greater_equal(values, num_classes),
                                 -1 * array_ops.ones_like(values), values)

    if is_sparse:
        labels = sparse_tensor.SparseTensor.from_value(labels)
        values = labels.values
        cleaned = control_flow_ops.cond(
            math_ops.greater_equal(reduction_ops.reduce_max(values), num_classes),
            lambda: clean(values), lambda: values)
        return sparse_tensor.SparseTensor(labels.indices, cleaned, labels.dense_shape)
    labels = ops.convert_to_tensor(labels)
    return control_flow_ops.cond(
        math_ops.greater_equal(reduction_ops.reduce_max(labels), num_classes),
        lambda: clean(labels), lambda: labels)


def average_precision_at_k(labels, predictions, k, weights=None, metrics_collections=None,
                           updates_collections=None, name=None):
    """Mean average precision at k over the stream (tf.compat.v1.metrics.average_precision_at_k
    and its deprecated alias sparse_average_precision_at_k).

    labels: int64 Tensor or SparseTensor [D1, ... DN, num_labels] or [D1, ... DN] (ids
    outside [0, num_classes) count as no label); predictions: float [D1, ... DN,
    num_classes], whose top k ids are ranked. Float64 variables
    `average_precision_at_<k>/max` and `.../total`. ValueError for k < 1."""
    from minitf.ops import nn_ops
    if k < 1:
        raise ValueError("Invalid k=%s. `k` should be >= 1." % k)
    with ops.name_scope(name, _at_k_name("average_precision", k),
                        (predictions, labels, weights)) as scope:
        _, predictions_idx = nn_ops.top_k(predictions, k)
        labels = _clean_out_of_range_indices(
            labels, math_ops.cast(array_ops.shape(predictions)[-1], dtypes.int64))
        return _streaming_sparse_average_precision_at_top_k(
            labels=labels, predictions_idx=predictions_idx, weights=weights,
            metrics_collections=metrics_collections, updates_collections=updates_collections,
            name=scope)


def sparse_average_precision_at_k(labels, predictions, k, weights=None,
                                  metrics_collections=None, updates_collections=None,
                                  name=None):
    """Deprecated alias of average_precision_at_k
    (tf.compat.v1.metrics.sparse_average_precision_at_k)."""
    return average_precision_at_k(labels=labels, predictions=predictions, k=k, weights=weights,
                                  metrics_collections=metrics_collections,
                                  updates_collections=updates_collections, name=name)
