"""tf.compat.v1.losses (TensorFlow 2.21's python/ops/losses/losses_impl.py and util.py):
each loss builds TensorFlow's nodes under its name scope (softmax_cross_entropy_loss/...,
mean_squared_error/...), weights them in compute_weighted_loss (weighted_loss/...), reduces
them as `reduction` says and adds the result to `loss_collection` (GraphKeys.LOSSES).

Weights must broadcast to the losses: a scalar, or the losses' rank with each dimension 1 or
the losses'. Known shapes are checked at construction (ValueError "weights can not be
broadcast to values. ..."), others by an Assert when the graph runs (InvalidArgumentError).
One difference there: TensorFlow compares the dimensions with a DenseToDenseSetOperation,
minitf with Equal/LogicalOr/All (same result, other node names inside has_invalid_dims).
"""
from minitf.framework import constant_op, dtypes, ops
from minitf.ops import array_ops, control_flow_ops, math_ops, nn_ops
from minitf.ops import reduction_ops
from minitf.ops import weights_broadcast_ops


class Reduction:
    """Types of loss reduction (tf.compat.v1.losses.Reduction): NONE (unreduced), SUM,
    MEAN (sum / sum of weights), SUM_OVER_BATCH_SIZE (sum / number of elements),
    SUM_BY_NONZERO_WEIGHTS = SUM_OVER_NONZERO_WEIGHTS (sum / number of non-zero weights,
    the default)."""

    NONE = "none"
    SUM = "weighted_sum"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    MEAN = "weighted_mean"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

    @classmethod
    def all(cls):
        return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE,
                cls.SUM_OVER_NONZERO_WEIGHTS, cls.SUM_BY_NONZERO_WEIGHTS)

    @classmethod
    def validate(cls, key):
        if key not in cls.all():
            raise ValueError(f"Invalid Reduction Key {key}. Key should be one of {cls.all()}.")


# -- collections (losses/util.py) ------------------------------------------------------
def add_loss(loss, loss_collection=ops.GraphKeys.LOSSES):
    """Adds `loss` to the collection `loss_collection` (nothing when it is None/empty)."""
    if loss_collection:
        ops.add_to_collection(loss_collection, loss)


def get_losses(scope=None, loss_collection=ops.GraphKeys.LOSSES):
    """The losses in `loss_collection` whose names match `scope` (a regex prefix)."""
    return ops.get_collection(loss_collection, scope)


def get_regularization_losses(scope=None):
    """The tensors in GraphKeys.REGULARIZATION_LOSSES (filtered by `scope`)."""
    return ops.get_collection(ops.GraphKeys.REGULARIZATION_LOSSES, scope)


def get_regularization_loss(scope=None, name="total_regularization_loss"):
    """The sum of the regularization losses (AddN named `name`), or a constant 0.0."""
    losses = get_regularization_losses(scope)
    if losses:
        return math_ops.add_n(losses, name=name)
    return constant_op.constant(0.0)


def get_total_loss(add_regularization_losses=True, name="total_loss", scope=None):
    """The sum of get_losses(scope) (and the regularization losses): AddN named `name`.
    ValueError from AddN when there are no losses."""
    losses = get_losses(scope=scope)
    if add_regularization_losses:
        losses += get_regularization_losses(scope=scope)
    return math_ops.add_n(losses, name=name)


# -- weights: TF's weights_broadcast_ops (one copy, shared with the metrics) -----------
_assert_broadcastable = weights_broadcast_ops.assert_broadcastable
_broadcast_weights = weights_broadcast_ops.broadcast_weights


# -- reductions ------------------------------------------------------------------------
def _safe_mean(losses, num_present):
    total_loss = reduction_ops.reduce_sum(losses)
    return math_ops.div_no_nan(total_loss, num_present, name="value")


def _num_elements(losses):
    with ops.name_scope(None, "num_elements", values=[losses]) as scope:
        return math_ops.cast(array_ops.size(losses, name=scope), dtype=losses.dtype)


def _num_present(losses, weights, per_batch=False):
    if isinstance(weights, float) and weights != 0.0:
        return _num_elements(losses)
    with ops.name_scope(None, "num_present", (losses, weights)) as scope:
        weights = math_ops.cast(weights, dtype=dtypes.float32)
        present = math_ops.where(math_ops.equal(weights, 0.0), array_ops.zeros_like(weights),
                                 array_ops.ones_like(weights))
        present = _broadcast_weights(present, losses)
        if per_batch:
            return reduction_ops.reduce_sum(
                present, axis=array_ops.range(1, array_ops.rank(present)), keepdims=True,
                name=scope)
        return reduction_ops.reduce_sum(present, name=scope)


def compute_weighted_loss(losses, weights=1.0, scope=None, loss_collection=ops.GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """losses * weights, reduced as `reduction` says, cast back to the losses' dtype and
    added to `loss_collection` (tf.compat.v1.losses.compute_weighted_loss).

    Args:
      losses: a tensor [batch_size, d1, ... dN]. weights: a scalar or a tensor that
      broadcasts to losses (rank 0 or losses' rank, each dim 1 or losses'). scope: name
      scope (default "weighted_loss"). loss_collection. reduction: a Reduction key.

    Returns: a scalar (losses' shape for Reduction.NONE).
    Raises: ValueError for an unknown reduction or weights that cannot broadcast.
    """
    Reduction.validate(reduction)
    with ops.name_scope(scope, "weighted_loss", (losses, weights)):
        ops.get_default_graph()._last_loss_reduction = reduction
        with ops.control_dependencies((_assert_broadcastable(weights, losses),)):
            losses = ops.convert_to_tensor(losses)
            input_dtype = losses.dtype
            losses = math_ops.cast(losses, dtype=dtypes.float32)
            weights = math_ops.cast(weights, dtype=dtypes.float32)
            weighted_losses = math_ops.multiply(losses, weights)
            if reduction == Reduction.NONE:
                loss = weighted_losses
            else:
                loss = reduction_ops.reduce_sum(weighted_losses)
                if reduction == Reduction.MEAN:
                    loss = _safe_mean(loss, reduction_ops.reduce_sum(
                        array_ops.ones_like(losses) * weights))
                elif reduction == Reduction.SUM_BY_NONZERO_WEIGHTS:
                    loss = _safe_mean(loss, _num_present(losses, weights))
                elif reduction == Reduction.SUM_OVER_BATCH_SIZE:
                    loss = _safe_mean(loss, _num_elements(losses))
            loss = math_ops.cast(loss, input_dtype)
            add_loss(loss, loss_collection)
            return loss


def _not_none(**kw):
    for name, value in kw.items():
        if value is None:
            raise ValueError("Argument `%s` must not be None." % name)


def _cast_pair(predictions, labels):
    predictions = math_ops.cast(predictions, dtype=dtypes.float32)
    labels = math_ops.cast(labels, dtype=dtypes.float32)
    predictions.shape.assert_is_compatible_with(labels.shape)
    return predictions, labels


def absolute_difference(labels, predictions, weights=1.0, scope=None,
                        loss_collection=ops.GraphKeys.LOSSES,
                        reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """|predictions - labels| weighted and reduced (tf.compat.v1.losses.absolute_difference).
    ValueError for None inputs or incompatible shapes."""
    _not_none(labels=labels, predictions=predictions)
    with ops.name_scope(scope, "absolute_difference", (predictions, labels, weights)) as scope:
        predictions, labels = _cast_pair(predictions, labels)
        losses = math_ops.abs(math_ops.subtract(predictions, labels))
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def cosine_distance(labels, predictions, axis=None, weights=1.0, scope=None,
                    loss_collection=ops.GraphKeys.LOSSES,
                    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS, dim=None):
    """1 - sum(predictions * labels, axis) for unit-normalized inputs, weighted and reduced
    (tf.compat.v1.losses.cosine_distance; `dim` is the deprecated name of axis).
    ValueError without an axis, for None inputs or incompatible shapes."""
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    if axis is None:
        raise ValueError("You must specify argument `axis`.")
    _not_none(labels=labels, predictions=predictions)
    with ops.name_scope(scope, "cosine_distance_loss",
                        (predictions, labels, weights)) as scope:
        predictions, labels = _cast_pair(predictions, labels)
        radial_diffs = math_ops.multiply(predictions, labels)
        losses = 1 - reduction_ops.reduce_sum(radial_diffs, axis=(axis,), keepdims=True)
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def hinge_loss(labels, logits, weights=1.0, scope=None, loss_collection=ops.GraphKeys.LOSSES,
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """relu(1 - (2 * labels - 1) * logits) for labels in {0, 1}, weighted and reduced
    (tf.compat.v1.losses.hinge_loss)."""
    _not_none(labels=labels, logits=logits)
    with ops.name_scope(scope, "hinge_loss", (logits, labels, weights)) as scope:
        logits, labels = _cast_pair(logits, labels)
        all_ones = array_ops.ones_like(labels)
        labels = math_ops.subtract(2 * labels, all_ones)
        losses = nn_ops.relu(math_ops.subtract(all_ones, math_ops.multiply(labels, logits)))
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def huber_loss(labels, predictions, weights=1.0, delta=1.0, scope=None,
               loss_collection=ops.GraphKeys.LOSSES,
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """0.5 * x^2 for |x| <= delta, else 0.5 * delta^2 + delta * (|x| - delta), with
    x = predictions - labels, weighted and reduced (tf.compat.v1.losses.huber_loss)."""
    _not_none(labels=labels, predictions=predictions)
    with ops.name_scope(scope, "huber_loss", (predictions, labels, weights)) as scope:
        predictions, labels = _cast_pair(predictions, labels)
        error = math_ops.subtract(predictions, labels)
        abs_error = math_ops.abs(error)
        quadratic = math_ops.minimum(abs_error, delta)
        linear = math_ops.subtract(abs_error, quadratic)
        losses = math_ops.add(
            math_ops.multiply(ops.convert_to_tensor(0.5, dtype=quadratic.dtype),
                              math_ops.multiply(quadratic, quadratic)),
            math_ops.multiply(delta, linear))
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def log_loss(labels, predictions, weights=1.0, epsilon=1e-7, scope=None,
             loss_collection=ops.GraphKeys.LOSSES, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """-labels * log(p + eps) - (1 - labels) * log(1 - p + eps), weighted and reduced
    (tf.compat.v1.losses.log_loss)."""
    _not_none(labels=labels, predictions=predictions)
    with ops.name_scope(scope, "log_loss", (predictions, labels, weights)) as scope:
        predictions, labels = _cast_pair(predictions, labels)
        losses = -math_ops.multiply(labels, math_ops.log(predictions + epsilon)) - \
            math_ops.multiply(1 - labels, math_ops.log(1 - predictions + epsilon))
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def mean_pairwise_squared_error(labels, predictions, weights=1.0, scope=None,
                                loss_collection=ops.GraphKeys.LOSSES):
    """The mean of (d_i - d_j)^2 over pairs of elements of each batch entry, d =
    predictions - labels, weighted per batch entry
    (tf.compat.v1.losses.mean_pairwise_squared_error)."""
    _not_none(labels=labels, predictions=predictions)
    with ops.name_scope(scope, "mean_pairwise_squared_error",
                        (predictions, labels, weights)) as scope:
        weights = math_ops.cast(weights, dtype=dtypes.float32)
        labels = math_ops.cast(labels, dtype=dtypes.float32)
        with ops.control_dependencies((_assert_broadcastable(weights, labels),)):
            predictions = math_ops.cast(predictions, dtype=dtypes.float32)
            predictions.shape.assert_is_compatible_with(labels.shape)
            diffs = math_ops.subtract(predictions, labels)
            axis = array_ops.range(1, array_ops.rank(diffs))
            sum_squares_diff_per_batch = reduction_ops.reduce_sum(
                math_ops.square(diffs), axis=axis, keepdims=True)
            num_present_per_batch = _num_present(diffs, weights, per_batch=True)
            term1 = 2.0 * math_ops.div_no_nan(
                sum_squares_diff_per_batch,
                math_ops.maximum(num_present_per_batch - 1, 0), name="value")
            sum_diff = reduction_ops.reduce_sum(diffs, axis=axis, keepdims=True)
            term2 = 2.0 * math_ops.div_no_nan(
                math_ops.square(sum_diff),
                math_ops.maximum(math_ops.multiply(num_present_per_batch,
                                                   num_present_per_batch - 1), 0),
                name="value")
            weighted_losses = math_ops.multiply(term1 - term2, weights)
            loss = reduction_ops.reduce_sum(weighted_losses)
            mean_loss = math_ops.where(
                reduction_ops.reduce_sum(num_present_per_batch) > 0, loss,
                array_ops.zeros_like(loss), name="value")
            add_loss(mean_loss, loss_collection)
            return mean_loss


def mean_squared_error(labels, predictions, weights=1.0, scope=None,
                       loss_collection=ops.GraphKeys.LOSSES,
                       reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """(predictions - labels)^2 (SquaredDifference), weighted and reduced
    (tf.compat.v1.losses.mean_squared_error)."""
    _not_none(labels=labels, predictions=predictions)
    with ops.name_scope(scope, "mean_squared_error", (predictions, labels, weights)) as scope:
        predictions, labels = _cast_pair(predictions, labels)
        losses = math_ops.squared_difference(predictions, labels)
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def _sigmoid_cross_entropy_with_logits(labels, logits, name):
    # tf.nn.sigmoid_cross_entropy_with_logits' nodes (name scope "xentropy"):
    # max(x, 0) - x * z + log(1 + exp(-|x|)) built with Select as TensorFlow does.
    with ops.name_scope(name, "logistic_loss", [logits, labels]) as name:
        logits = ops.convert_to_tensor(logits, name="logits")
        labels = ops.convert_to_tensor(labels, name="labels")
        try:
            labels.shape.assert_is_compatible_with(logits.shape)
        except ValueError:
            raise ValueError("`logits` and `labels` must have the same shape, received "
                             "(%s vs %s)." % (logits.shape, labels.shape))
        zeros = array_ops.zeros_like(logits, dtype=logits.dtype)
        cond = logits >= zeros
        relu_logits = math_ops.where(cond, logits, zeros)
        neg_abs_logits = math_ops.where(cond, -logits, logits)
        return math_ops.add(relu_logits - logits * labels,
                            math_ops.log1p(math_ops.exp(neg_abs_logits)), name=name)


def sigmoid_cross_entropy(multi_class_labels, logits, weights=1.0, label_smoothing=0,
                          scope=None, loss_collection=ops.GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Sigmoid cross-entropy of logits against {0, 1} labels (smoothed towards 1/2 by
    label_smoothing), weighted and reduced (tf.compat.v1.losses.sigmoid_cross_entropy)."""
    _not_none(multi_class_labels=multi_class_labels, logits=logits)
    with ops.name_scope(scope, "sigmoid_cross_entropy_loss",
                        (logits, multi_class_labels, weights)) as scope:
        logits = ops.convert_to_tensor(logits)
        multi_class_labels = math_ops.cast(multi_class_labels, logits.dtype)
        logits.shape.assert_is_compatible_with(multi_class_labels.shape)
        if label_smoothing > 0:
            multi_class_labels = (multi_class_labels * (1 - label_smoothing) +
                                  0.5 * label_smoothing)
        losses = _sigmoid_cross_entropy_with_logits(multi_class_labels, logits, "xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def softmax_cross_entropy(onehot_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection=ops.GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Softmax cross-entropy of logits [batch, classes] against one-hot labels (smoothed
    to labels * (1 - s) + s / classes), weighted and reduced
    (tf.compat.v1.losses.softmax_cross_entropy). ValueError for None inputs or
    incompatible shapes."""
    _not_none(onehot_labels=onehot_labels, logits=logits)
    with ops.name_scope(scope, "softmax_cross_entropy_loss",
                        (logits, onehot_labels, weights)) as scope:
        logits = ops.convert_to_tensor(logits)
        onehot_labels = math_ops.cast(onehot_labels, logits.dtype)
        logits.shape.assert_is_compatible_with(onehot_labels.shape)
        if label_smoothing > 0:
            num_classes = math_ops.cast(array_ops.shape(onehot_labels)[-1], logits.dtype)
            smooth_positives = 1.0 - label_smoothing
            smooth_negatives = label_smoothing / num_classes
            onehot_labels = onehot_labels * smooth_positives + smooth_negatives
        onehot_labels = array_ops.stop_gradient(onehot_labels, name="labels_stop_gradient")
        losses = nn_ops.softmax_cross_entropy_with_logits_v2(labels=onehot_labels,
                                                             logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def _remove_squeezable_dimensions(labels, predictions, weights=None, expected_rank_diff=0):
    with ops.name_scope(None, "remove_squeezable_dimensions", [labels, predictions]):
        predictions = ops.convert_to_tensor(predictions)
        labels = ops.convert_to_tensor(labels)
        p_shape, l_shape = predictions.shape, labels.shape
        if p_shape.ndims is not None and l_shape.ndims is not None:
            rank_diff = p_shape.ndims - l_shape.ndims
            if (rank_diff == expected_rank_diff + 1 and
                    p_shape.dims[-1].is_compatible_with(1)):
                predictions = array_ops.squeeze(predictions, [-1])
            elif (rank_diff == expected_rank_diff - 1 and
                  l_shape.dims[-1].is_compatible_with(1)):
                labels = array_ops.squeeze(labels, [-1])
        else:
            rank_diff = array_ops.rank(predictions) - array_ops.rank(labels)
            if p_shape.ndims is None or p_shape.dims[-1].is_compatible_with(1):
                predictions = control_flow_ops.cond(
                    math_ops.equal(expected_rank_diff + 1, rank_diff),
                    lambda: array_ops.squeeze(predictions, [-1]), lambda: predictions)
            if l_shape.ndims is None or l_shape.dims[-1].is_compatible_with(1):
                labels = control_flow_ops.cond(
                    math_ops.equal(expected_rank_diff - 1, rank_diff),
                    lambda: array_ops.squeeze(labels, [-1]), lambda: labels)
    if weights is not None:
        weights = ops.convert_to_tensor(weights)
        labels_rank = labels.shape.ndims
        weights_shape = weights.shape
        weights_rank = weights_shape.ndims
        if labels_rank is not None and weights_rank is not None:
            if weights_rank - labels_rank == 1:
                weights = array_ops.squeeze(weights, [-1])
            return labels, predictions, weights
        rank_diff = array_ops.rank(weights) - array_ops.rank(labels)
        if weights_rank is None or (weights_rank > 0 and
                                    weights_shape.dims[-1].is_compatible_with(1)):
            weights = control_flow_ops.cond(math_ops.equal(1, rank_diff),
                                            lambda: array_ops.squeeze(weights, [-1]),
                                            lambda: weights)
    return labels, predictions, weights


def sparse_softmax_cross_entropy(labels, logits, weights=1.0, scope=None,
                                 loss_collection=ops.GraphKeys.LOSSES,
                                 reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Softmax cross-entropy of logits [d0, ..., dn, classes] against integer labels
    [d0, ..., dn] (a trailing 1 is squeezed), weighted and reduced
    (tf.compat.v1.losses.sparse_softmax_cross_entropy). Labels outside [0, classes) are
    an InvalidArgumentError when run."""
    _not_none(labels=labels, logits=logits)
    with ops.name_scope(scope, "sparse_softmax_cross_entropy_loss",
                        (logits, labels, weights)) as scope:
        labels, logits, weights = _remove_squeezable_dimensions(labels, logits, weights,
                                                                expected_rank_diff=1)
        losses = nn_ops.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits,
                                                                 name="xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)
