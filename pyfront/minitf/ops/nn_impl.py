"""Composite tf.nn functions that TensorFlow 2.21 writes in Python (nn_impl.py, nn_ops.py,
nn_impl_distribute.py): the sigmoid / weighted cross-entropies, log_poisson_loss, moments
and their helpers, l2_normalize, zero_fraction, crelu, swish, xw_plus_b, relu_layer,
batch_norm_with_global_normalization, compute_average_loss and scale_regularization_loss.

Each builds the nodes TensorFlow's function builds, in the same order and with the same
names, so graphs and gradients match TensorFlow's.
"""
import math

import numpy as np

from minitf.framework import constant_op, dtypes, ops


def _tf():
    """The public minitf namespace (imported late: tf.nn is set up while minitf loads)."""
    import minitf
    return minitf


def _lookup(new_name, new_value, old_name, old_value):
    """TensorFlow's deprecated_argument_lookup: the old name's value when given."""
    if old_value is not None:
        if new_value is not None:
            raise ValueError("Cannot specify both '%s' and '%s'." % (old_name, new_name))
        return old_value
    return new_value


def _div_no_nan(x, y, name=None):
    """x / y, 0 where y == 0, named as TensorFlow's math_ops.div_no_nan (scope div_no_nan)."""
    from minitf.framework.op_def_library import apply_op, outputs_of
    with ops.name_scope(name, "div_no_nan", [x, y]) as name:
        x = ops.convert_to_tensor(x, name="x")
        y = ops.convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype)
        return outputs_of(apply_op("DivNoNan", x=x, y=y, name=name))


def _ensure_xent_args(name, labels, logits):
    if labels is None or logits is None:
        raise ValueError("Both `labels` and `logits` must be provided for %sReceived: "
                         "labels=%s and logits=%s" % (name, labels, logits))


def _same_shape(a, b, what):
    try:
        a.get_shape().assert_is_compatible_with(b.get_shape())
    except ValueError:
        raise ValueError("%s must have the same shape, received (%s vs %s)."
                         % (what, b.get_shape(), a.get_shape())) from None


# ---- losses ----

def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """exp(log_input) - log_input * targets, plus the Stirling term
    targets * log(targets) - targets + 0.5 * log(2 pi targets) where targets > 1 when
    compute_full_loss (tf.nn.log_poisson_loss). targets and log_input: same shape and
    floating dtype. ValueError for incompatible static shapes."""
    tf = _tf()
    with ops.name_scope(name, "log_poisson_loss", [log_input, targets]) as name:
        log_input = ops.convert_to_tensor(log_input, name="log_input")
        targets = ops.convert_to_tensor(targets, name="targets")
        _same_shape(targets, log_input, "`log_input` and `targets`")
        result = tf.exp(log_input) - log_input * targets
        if compute_full_loss:
            point_five = constant_op.constant(0.5, dtype=targets.dtype)
            two_pi = constant_op.constant(2 * math.pi, dtype=targets.dtype)
            stirling_approx = (targets * tf.log(targets)) - targets + (
                point_five * tf.log(two_pi * targets))
            zeros = tf.zeros_like(targets, dtype=targets.dtype)
            ones = tf.ones_like(targets, dtype=targets.dtype)
            cond = tf.logical_and(targets >= zeros, targets <= ones)
            result += tf.where(cond, zeros, stirling_approx)
        return result


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """max(logits, 0) - logits * labels + log(1 + exp(-|logits|)) elementwise
    (tf.compat.v1.nn.sigmoid_cross_entropy_with_logits; name scope `logistic_loss`).
    labels and logits: same shape and floating dtype. ValueError when either is missing or
    the static shapes differ."""
    tf = _tf()
    _ensure_xent_args("sigmoid_cross_entropy_with_logits", labels, logits)
    with ops.name_scope(name, "logistic_loss", [logits, labels]) as name:
        logits = ops.convert_to_tensor(logits, name="logits")
        labels = ops.convert_to_tensor(labels, name="labels")
        _same_shape(labels, logits, "`logits` and `labels`")
        zeros = tf.zeros_like(logits, dtype=logits.dtype)
        cond = (logits >= zeros)
        relu_logits = tf.where(cond, logits, zeros)
        neg_abs_logits = tf.where(cond, -logits, logits)
        return tf.add(relu_logits - logits * labels, tf.log1p(tf.exp(neg_abs_logits)),
                      name=name)


def weighted_cross_entropy_with_logits(labels=None, logits=None, pos_weight=None, name=None,
                                       targets=None):
    """Sigmoid cross-entropy with the positive term weighted by pos_weight:
    (1 - labels) * logits + (1 + (pos_weight - 1) * labels) *
    (log1p(exp(-|logits|)) + relu(-logits))
    (tf.compat.v1.nn.weighted_cross_entropy_with_logits; `targets` is TF1's deprecated
    alias of labels). ValueError for incompatible static shapes."""
    tf = _tf()
    labels = _lookup("labels", labels, "targets", targets)
    with ops.name_scope(name, "logistic_loss", [logits, labels]) as name:
        logits = ops.convert_to_tensor(logits, name="logits")
        labels = ops.convert_to_tensor(labels, name="labels")
        _same_shape(labels, logits, "`logits` and `labels`")
        log_weight = 1 + (pos_weight - 1) * labels
        return tf.add((1 - labels) * logits,
                      log_weight * (tf.log1p(tf.exp(-tf.abs(logits))) + tf.nn.relu(-logits)),
                      name=name)


# ---- moments ----

def _keep_dims(keepdims, keep_dims):
    value = _lookup("keepdims", keepdims, "keep_dims", keep_dims)
    return False if value is None else value


def sufficient_statistics(x, axes, shift=None, keep_dims=None, name=None, keepdims=None):
    """(count, sum(x - shift), sum((x - shift)^2), shift) over `axes`
    (tf.compat.v1.nn.sufficient_statistics). count is a constant of x's dtype when the
    reduced dims are static, else reduce_prod of the gathered shape. shift may be None."""
    tf = _tf()
    axes = list(set(axes))
    keep_dims = _keep_dims(keepdims, keep_dims)
    with ops.name_scope(name, "sufficient_statistics", [x, shift]):
        x = ops.convert_to_tensor(x, name="x")
        x_shape = x.get_shape()
        if x_shape.rank is not None and all(x_shape.dims[d].value is not None for d in axes):
            counts = 1
            for d in axes:
                counts *= x_shape.dims[d].value
            counts = constant_op.constant(counts, dtype=x.dtype)
        else:
            rank = tf.rank(x)
            positive_axes = [axis + rank if axis < 0 else axis for axis in axes]
            x_dims = tf.gather(tf.cast(tf.shape(x), x.dtype), positive_axes)
            counts = tf.reduce_prod(x_dims, name="count")
        if shift is not None:
            shift = ops.convert_to_tensor(shift, name="shift")
            m_ss = tf.subtract(x, shift)
            v_ss = tf.squared_difference(x, shift)
        else:
            m_ss = x
            v_ss = tf.square(x)
        m_ss = tf.reduce_sum(m_ss, axes, keepdims=keep_dims, name="mean_ss")
        v_ss = tf.reduce_sum(v_ss, axes, keepdims=keep_dims, name="var_ss")
    return counts, m_ss, v_ss, shift


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """(mean, variance) from sufficient statistics: mean = mean_ss / counts (+ shift),
    variance = variance_ss / counts - (mean_ss / counts)^2 (tf.nn.normalize_moments)."""
    tf = _tf()
    with ops.name_scope(name, "normalize", [counts, mean_ss, variance_ss, shift]):
        divisor = tf.reciprocal(counts, name="divisor")
        if shift is not None:
            shifted_mean = tf.multiply(mean_ss, divisor, name="shifted_mean")
            mean = tf.add(shifted_mean, shift, name="mean")
        else:
            shifted_mean = tf.multiply(mean_ss, divisor, name="mean")
            mean = shifted_mean
        variance = tf.subtract(tf.multiply(variance_ss, divisor), tf.square(shifted_mean),
                               name="variance")
    return (mean, variance)


def moments(x, axes, shift=None, name=None, keep_dims=None, keepdims=None):
    """(mean, variance) of x over `axes` (tf.compat.v1.nn.moments): Mean, then the Mean of
    SquaredDifference(x, StopGradient(mean)); float16 is computed in float32. `shift` is
    ignored, as in TensorFlow. Dims are kept when keepdims (alias keep_dims)."""
    tf = _tf()
    keep_dims = _keep_dims(keepdims, keep_dims)
    with ops.name_scope(name, "moments", [x, axes]):
        x = ops.convert_to_tensor(x)
        y = tf.cast(x, dtypes.float32) if x.dtype == dtypes.float16 else x
        mean = tf.reduce_mean(y, axes, keepdims=True, name="mean")
        variance = tf.reduce_mean(tf.squared_difference(y, tf.stop_gradient(mean)), axes,
                                  keepdims=True, name="variance")
        if not keep_dims:
            mean = tf.squeeze(mean, axes)
            variance = tf.squeeze(variance, axes)
        if x.dtype == dtypes.float16:
            return (tf.cast(mean, dtypes.float16), tf.cast(variance, dtypes.float16))
        return (mean, variance)


def weighted_moments(x, axes, frequency_weights, name=None, keep_dims=None, keepdims=None):
    """Frequency-weighted (mean, variance) of x over `axes`
    (tf.compat.v1.nn.weighted_moments): sums of w*x and of broadcast w, DivNoNan (so all-zero
    weights give 0). frequency_weights broadcast against x; float16 computed in float32."""
    tf = _tf()
    keep_dims = _keep_dims(keepdims, keep_dims)
    with ops.name_scope(name, "weighted_moments", [x, frequency_weights, axes]):
        x = ops.convert_to_tensor(x, name="x")
        frequency_weights = ops.convert_to_tensor(frequency_weights, name="frequency_weights")
        needs_cast = x.dtype == dtypes.float16
        if needs_cast:
            x = tf.cast(x, dtypes.float32)
        if frequency_weights.dtype != x.dtype:
            frequency_weights = tf.cast(frequency_weights, x.dtype)
        weighted_input_sum = tf.reduce_sum(frequency_weights * x, axes,
                                           name="weighted_input_sum", keepdims=True)
        broadcasted_weights = frequency_weights + tf.zeros_like(x)
        sum_of_weights = tf.reduce_sum(broadcasted_weights, axes, name="sum_of_weights",
                                       keepdims=True)
        weighted_mean = _div_no_nan(weighted_input_sum, sum_of_weights)
        weighted_distsq = tf.reduce_sum(
            frequency_weights * tf.squared_difference(x, weighted_mean), axes,
            name="weighted_distsq", keepdims=True)
        weighted_variance = _div_no_nan(weighted_distsq, sum_of_weights)
        if not keep_dims:
            weighted_mean = tf.squeeze(weighted_mean, axis=axes)
            weighted_variance = tf.squeeze(weighted_variance, axis=axes)
        if needs_cast:
            weighted_mean = tf.cast(weighted_mean, dtypes.float16)
            weighted_variance = tf.cast(weighted_variance, dtypes.float16)
        return weighted_mean, weighted_variance


def batch_norm_with_global_normalization(t=None, m=None, v=None, beta=None, gamma=None,
                                         variance_epsilon=None,
                                         scale_after_normalization=None, name=None,
                                         input=None, mean=None, variance=None):  # noqa: A002
    """tf.compat.v1.nn.batch_norm_with_global_normalization: batch_normalization(t, m, v,
    beta, gamma if scale_after_normalization else None, variance_epsilon). input, mean and
    variance are the newer names of t, m and v (give one of each pair)."""
    t = _lookup("input", input, "t", t)
    m = _lookup("mean", mean, "m", m)
    v = _lookup("variance", variance, "v", v)
    from minitf.ops.nn_ops import batch_normalization
    return batch_normalization(t, m, v, beta, gamma if scale_after_normalization else None,
                               variance_epsilon, name)


# ---- normalization helpers ----

def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """x * rsqrt(max(sum(x^2, axis, keepdims), epsilon)) (tf.nn.l2_normalize /
    tf.math.l2_normalize; `dim` is the deprecated alias of axis). Complex x normalizes
    real and imaginary parts by the modulus."""
    tf = _tf()
    axis = _lookup("axis", axis, "dim", dim)
    with ops.name_scope(name, "l2_normalize", [x]) as name:
        x = ops.convert_to_tensor(x, name="x")
        if x.dtype.is_complex:
            square_real = tf.square(tf.real(x))
            square_imag = tf.square(tf.imag(x))
            square_sum = tf.real(tf.reduce_sum(square_real + square_imag, axis, keepdims=True))
            x_inv_norm = tf.rsqrt(tf.maximum(square_sum, epsilon))
            norm_real = tf.multiply(tf.real(x), x_inv_norm)
            norm_imag = tf.multiply(tf.imag(x), x_inv_norm)
            return tf.complex(norm_real, norm_imag, name=name)
        square_sum = tf.reduce_sum(tf.square(x), axis, keepdims=True)
        x_inv_norm = tf.rsqrt(tf.maximum(square_sum, epsilon))
        return tf.multiply(x, x_inv_norm, name=name)


def _count_nonzero(input_tensor, dtype=dtypes.int64):
    tf = _tf()
    with ops.name_scope("count_nonzero", values=[input_tensor]):
        zero = tf.zeros([], dtype=input_tensor.dtype)
        return tf.reduce_sum(tf.cast(tf.not_equal(input_tensor, zero), dtype=dtype),
                             name="nonzero_count")


def zero_fraction(value, name=None):
    """The fraction of zeros in value, a float32 scalar (tf.nn.zero_fraction /
    tf.math.zero_fraction): a cond counts in int32 while the size fits, else int64."""
    tf = _tf()
    with ops.name_scope(name, "zero_fraction", [value]):
        value = ops.convert_to_tensor(value, name="value")
        size = tf.size(value, out_type=dtypes.int64)
        num_nonzero = tf.cond(
            size <= dtypes.int32.max,
            true_fn=lambda: tf.cast(_count_nonzero(value, dtype=dtypes.int32),
                                    dtype=dtypes.int64),
            false_fn=lambda: _count_nonzero(value, dtype=dtypes.int64))
        with ops.name_scope("counts_to_fraction"):
            num_zero = size - num_nonzero
            num_zero_float32 = tf.cast(num_zero, dtype=dtypes.float32)
            size_float32 = tf.cast(size, dtype=dtypes.float32)
            zero_fraction_float32 = num_zero_float32 / size_float32
        return tf.identity(zero_fraction_float32, "fraction")


# ---- activations and layers ----

def crelu(features, name=None, axis=-1):
    """Relu(concat([features, -features], axis)) (tf.compat.v1.nn.crelu): twice the size
    along axis."""
    tf = _tf()
    with ops.name_scope(name, "CRelu", [features]) as name:
        features = ops.convert_to_tensor(features, name="features")
        c = tf.concat([features, -features], axis, name=name)
        return tf.nn.relu(c)


def swish(features, beta=1.0):
    """features * sigmoid(beta * features) (tf.nn.swish / tf.nn.silu), with TensorFlow's
    custom gradient: d/dx = s * (1 + beta * x * (1 - s)), d/dbeta = sum(dy * x^2 * s * (1-s))
    where s = sigmoid(beta * x)."""
    tf = _tf()
    features = ops.convert_to_tensor(features, name="features")
    beta = ops.convert_to_tensor(beta, name="beta")
    beta = tf.cast(beta, features.dtype)

    @tf.custom_gradient
    def swish_impl(features, beta):
        def grad(dy):
            with ops.control_dependencies([dy]):
                sigmoid_features = tf.sigmoid(beta * features)
            activation_grad = sigmoid_features * (
                1.0 + (beta * features) * (1.0 - sigmoid_features))
            beta_grad = tf.reduce_sum(dy * tf.square(features) * sigmoid_features *
                                      (1.0 - sigmoid_features))
            return (dy * activation_grad, beta_grad)
        return features * tf.sigmoid(beta * features), grad

    return swish_impl(features, beta)


silu = swish


def xw_plus_b(x, weights, biases, name=None):
    """matmul(x, weights) + biases (tf.compat.v1.nn.xw_plus_b): x [batch, in],
    weights [in, out], biases [out]; BiasAdd named `name` (default xw_plus_b)."""
    tf = _tf()
    with ops.name_scope(name, "xw_plus_b", [x, weights, biases]) as name:
        x = ops.convert_to_tensor(x, name="x")
        weights = ops.convert_to_tensor(weights, name="weights")
        biases = ops.convert_to_tensor(biases, name="biases")
        mm = tf.matmul(x, weights)
        return tf.nn.bias_add(mm, biases, name=name)


def relu_layer(x, weights, biases, name=None):
    """relu(matmul(x, weights) + biases) (tf.compat.v1.nn.relu_layer); shapes as
    xw_plus_b."""
    tf = _tf()
    with ops.name_scope(name, "relu_layer", [x, weights, biases]) as name:
        x = ops.convert_to_tensor(x, name="x")
        weights = ops.convert_to_tensor(weights, name="weights")
        biases = ops.convert_to_tensor(biases, name="biases")
        xw_plus_b = tf.nn.bias_add(tf.matmul(x, weights), biases)
        return tf.nn.relu(xw_plus_b, name=name)


# ---- distribution-aware losses (one replica in a plain graph) ----

def _squeeze_or_expand(losses, sample_weight):
    """TF's losses_util.squeeze_or_expand_dimensions for (losses, None, sample_weight) with
    static ranks: a weight of rank one more than losses with last dim 1 is squeezed, one of
    rank one less is expanded."""
    tf = _tf()
    wr, lr = sample_weight.shape.rank, losses.shape.rank
    if wr is None or lr is None:
        raise NotImplementedError("compute_average_loss with sample_weight needs static ranks")
    if wr == 0:
        return sample_weight
    diff = wr - lr
    if diff == 1 and sample_weight.shape.dims[-1].value in (1, None):
        return tf.squeeze(sample_weight, [-1])
    if diff == -1 and losses.shape.dims[-1].value in (1, None):
        return tf.expand_dims(sample_weight, -1)
    return sample_weight


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """sum(per_example_loss * sample_weight) / global_batch_size, DivNoNan
    (tf.nn.compute_average_loss). Without a distribution strategy there is one replica, so
    global_batch_size defaults to shape(per_example_loss)[0]. per_example_loss: rank >= 1
    (ValueError for a scalar); global_batch_size: a non-negative integer scalar (checked by
    asserts, InvalidArgumentError at run time)."""
    tf = _tf()
    per_example_loss = ops.convert_to_tensor(per_example_loss)
    input_dtype = per_example_loss.dtype
    rank = per_example_loss.shape.rank
    if rank == 0:
        raise ValueError("Invalid value passed for `per_example_loss`. Expected a tensor with "
                         "at least rank 1. Received per_example_loss=%s with rank 0"
                         % (per_example_loss,))
    deps = []
    if rank is None:
        deps = [tf.assert_greater_equal(
            tf.rank(per_example_loss), tf.cast(1, dtype=dtypes.int32),
            message="Invalid value passed for `per_example_loss`. Expected a tensor with at "
                    "least rank 1.")]
    with ops.control_dependencies(deps):
        if sample_weight is not None:
            sample_weight = ops.convert_to_tensor(sample_weight)
            losses = tf.cast(per_example_loss, dtypes.float32)
            sample_weight = tf.cast(sample_weight, dtypes.float32)
            sample_weight = _squeeze_or_expand(losses, sample_weight)
            per_example_loss = tf.multiply(losses, sample_weight)
        per_example_loss = tf.cast(per_example_loss, input_dtype)
        if global_batch_size is None:
            global_batch_size = tf.shape(per_example_loss)[0] * 1
        tf.debugging.assert_scalar(global_batch_size, message="global_batch_size must be scalar.")
        tf.debugging.assert_integer(global_batch_size,
                                    message="global_batch_size must be an integer.")
        tf.debugging.assert_non_negative(global_batch_size,
                                         message="global_batch_size must be non-negative.")
        loss = tf.reduce_sum(per_example_loss)
        global_batch_size = tf.cast(global_batch_size, input_dtype)
        return _div_no_nan(loss, global_batch_size)


def scale_regularization_loss(regularization_loss):
    """sum(regularization_loss) / num_replicas, 1 replica without a distribution strategy
    (tf.nn.scale_regularization_loss)."""
    tf = _tf()
    return tf.reduce_sum(regularization_loss) / 1


# ---- aliases ----

def space_to_batch(input, paddings, block_size=None, name=None, block_shape=None):  # noqa: A002
    """SpaceToBatchND of a 4-D input with block [block_size, block_size]
    (tf.compat.v1.nn.space_to_batch / tf.compat.v1.space_to_batch; block_shape is the newer
    name of block_size). input [B, H, W, C] -> [B*b*b, (H+pads)/b, (W+pads)/b, C]."""
    from minitf.ops.indexing_ops import space_to_batch_nd
    block_size = _lookup("block_shape", block_shape, "block_size", block_size)
    result = space_to_batch_nd(input, paddings=paddings,
                               block_shape=np.array([block_size, block_size], dtype=np.int64),
                               name=name)
    result.set_shape(result.get_shape().with_rank(4))
    return result


# ---- sampled losses ----

def _sum_rows(x):
    """Row sums of a matrix as matmul(x, ones([cols, 1])), as TensorFlow computes them."""
    tf = _tf()
    cols = tf.shape(x)[1]
    ones_shape = tf.stack([cols, 1])
    ones = tf.ones(ones_shape, x.dtype)
    return tf.reshape(tf.matmul(x, ones), [-1])


def _compute_sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes,
                            num_true=1, sampled_values=None, subtract_log_q=True,
                            remove_accidental_hits=False, partition_strategy="mod", name=None,
                            seed=None):
    """(logits [batch, num_true + num_sampled], labels of the same shape) of a sampled loss,
    node for node as TensorFlow's nn_impl._compute_sampled_logits."""
    tf = _tf()
    from minitf.ops import candidate_sampling_ops, embedding_ops, partitioned_variables
    if isinstance(weights, partitioned_variables.PartitionedVariable):
        weights = list(weights)
    if not isinstance(weights, list):
        weights = [weights]
    with ops.name_scope(name, "compute_sampled_logits", weights + [biases, inputs, labels]):
        labels = ops.convert_to_tensor(labels)
        if labels.dtype != dtypes.int64:
            labels = tf.cast(labels, dtypes.int64)
        labels_flat = tf.reshape(labels, [-1])
        if sampled_values is None:
            sampled_values = candidate_sampling_ops.log_uniform_candidate_sampler(
                true_classes=labels, num_true=num_true, num_sampled=num_sampled, unique=True,
                range_max=num_classes, seed=seed)
        sampled, true_expected_count, sampled_expected_count = (
            tf.stop_gradient(s) for s in sampled_values)
        sampled = tf.cast(sampled, dtypes.int64)
        all_ids = tf.concat([labels_flat, sampled], 0)
        all_w = embedding_ops.embedding_lookup(weights, all_ids,
                                               partition_strategy=partition_strategy)
        inputs = ops.convert_to_tensor(inputs)
        if all_w.dtype != inputs.dtype:
            all_w = tf.cast(all_w, inputs.dtype)
        true_w = tf.slice(all_w, [0, 0], tf.stack([tf.shape(labels_flat)[0], -1]))
        sampled_w = tf.slice(all_w, tf.stack([tf.shape(labels_flat)[0], 0]), [-1, -1])
        sampled_logits = tf.matmul(inputs, sampled_w, transpose_b=True)
        all_b = embedding_ops.embedding_lookup(biases, all_ids,
                                               partition_strategy=partition_strategy)
        if all_b.dtype != inputs.dtype:
            all_b = tf.cast(all_b, inputs.dtype)
        true_b = tf.slice(all_b, [0], tf.shape(labels_flat))
        sampled_b = tf.slice(all_b, tf.shape(labels_flat), [-1])
        dim = tf.shape(true_w)[1:2]
        new_true_w_shape = tf.concat([[-1, num_true], dim], 0)
        row_wise_dots = tf.multiply(tf.expand_dims(inputs, 1),
                                    tf.reshape(true_w, new_true_w_shape))
        dots_as_matrix = tf.reshape(row_wise_dots, tf.concat([[-1], dim], 0))
        true_logits = tf.reshape(_sum_rows(dots_as_matrix), [-1, num_true])
        true_b = tf.reshape(true_b, [-1, num_true])
        true_logits += true_b
        sampled_logits += sampled_b
        if remove_accidental_hits:
            acc_indices, acc_ids, acc_weights = candidate_sampling_ops.compute_accidental_hits(
                labels, sampled, num_true=num_true)
            acc_indices_2d = tf.reshape(acc_indices, [-1, 1])
            acc_ids_2d_int32 = tf.reshape(tf.cast(acc_ids, dtypes.int32), [-1, 1])
            sparse_indices = tf.concat([acc_indices_2d, acc_ids_2d_int32], 1, "sparse_indices")
            sampled_logits_shape = tf.concat(
                [tf.shape(labels)[:1], tf.expand_dims(num_sampled, 0)], 0)
            if sampled_logits.dtype != acc_weights.dtype:
                acc_weights = tf.cast(acc_weights, sampled_logits.dtype)
            from minitf.framework.op_def_library import apply_op, outputs_of
            sampled_logits += outputs_of(apply_op(
                "SparseToDense", sparse_indices=sparse_indices, output_shape=sampled_logits_shape,
                sparse_values=acc_weights,
                default_value=0.0,
                validate_indices=False))
        if subtract_log_q:
            true_logits -= tf.log(true_expected_count)
            sampled_logits -= tf.log(sampled_expected_count)
        out_logits = tf.concat([true_logits, sampled_logits], 1)
        out_labels = tf.concat([tf.ones_like(true_logits) / num_true,
                                tf.zeros_like(sampled_logits)], 1)
        return out_logits, out_labels


def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
             sampled_values=None, remove_accidental_hits=False, partition_strategy="mod",
             name="nce_loss"):
    """Noise-contrastive estimation loss per example (tf.compat.v1.nn.nce_loss): logits of
    the true classes and of num_sampled classes drawn by log_uniform_candidate_sampler (or
    sampled_values), corrected by log expected counts, through
    sigmoid_cross_entropy_with_logits, summed per row.

    weights [num_classes, dim] (a variable, a list of shards or a PartitionedVariable,
    looked up with partition_strategy), biases [num_classes], labels int [batch, num_true],
    inputs [batch, dim]. Returns float [batch]."""
    logits, labels = _compute_sampled_logits(
        weights=weights, biases=biases, labels=labels, inputs=inputs, num_sampled=num_sampled,
        num_classes=num_classes, num_true=num_true, sampled_values=sampled_values,
        subtract_log_q=True, remove_accidental_hits=remove_accidental_hits,
        partition_strategy=partition_strategy, name=name)
    sampled_losses = sigmoid_cross_entropy_with_logits(labels=labels, logits=logits,
                                                       name="sampled_losses")
    return _sum_rows(sampled_losses)


def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes,
                         num_true=1, sampled_values=None, remove_accidental_hits=True,
                         partition_strategy="mod", name="sampled_softmax_loss", seed=None):
    """Sampled softmax loss per example (tf.compat.v1.nn.sampled_softmax_loss): the softmax
    cross-entropy over the true classes and num_sampled sampled ones, accidental hits
    masked by default. Arguments as nce_loss; seed seeds the default sampler. Returns
    float [batch]."""
    tf = _tf()
    logits, labels = _compute_sampled_logits(
        weights=weights, biases=biases, labels=labels, inputs=inputs, num_sampled=num_sampled,
        num_classes=num_classes, num_true=num_true, sampled_values=sampled_values,
        subtract_log_q=True, remove_accidental_hits=remove_accidental_hits,
        partition_strategy=partition_strategy, name=name, seed=seed)
    labels = tf.stop_gradient(labels, name="labels_stop_gradient")
    return tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits)


# ---- CTC helpers that need no CTC op ----

def _get_dim(tensor, i):
    """The static size of dim i, else its Shape slice (TensorFlow's ctc_ops._get_dim)."""
    tf = _tf()
    return tensor.shape.dims[i].value or tf.shape(tensor)[i]


def ctc_unique_labels(labels, name=None):
    """Per row of labels [batch, max_len], its unique labels in order of first appearance,
    zero-padded to max_len (int64), and each label's index among them (int32), through
    map_fn over Unique (tf.nn.ctc_unique_labels). Returns (unique, idx), both
    [batch, max_len]."""
    tf = _tf()
    with ops.name_scope(name, "ctc_unique_labels", [labels]):
        labels = ops.convert_to_tensor(labels, name="labels")

        def _unique(x):
            uy, uidx = tf.unique(x)[:2]
            y = tf.pad(uy, [[0, _get_dim(uidx, 0) - _get_dim(uy, 0)]])
            y = tf.cast(y, dtypes.int64)
            return [y, uidx]

        return tf.map_fn(_unique, labels, dtype=[dtypes.int64, dtypes.int32])
