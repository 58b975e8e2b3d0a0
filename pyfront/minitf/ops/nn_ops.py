"""Neural-network ops of the TF1 API (tf.nn.*): activations, softmax, batch normalization,
local response normalization, the softmax cross-entropy losses, top_k, in_top_k, l2_loss and
bias_add. Each wraps the C op of the same TensorFlow name (runtime/kernels/nn_ops.c) with
TensorFlow 1's Python signature and defaults.
"""
import collections

import numpy as np

from minitf import errors
from minitf.framework import dtypes, ops
from minitf.framework.op_def_library import apply_op, get_registered_ops, outputs_of


def _op(op_type, name=None, **kw):
    return outputs_of(apply_op(op_type, name=name, **kw))


def _have(op_type):
    """Whether `op_type` is registered (composite wrappers use ops of other families)."""
    return op_type in get_registered_ops()


def _need(op_type, what):
    if not _have(op_type):
        raise NotImplementedError("%s needs the %s op, which this minitf build does not register"
                                  % (what, op_type))


# ---- activations ----

def relu(features, name=None):
    """max(features, 0) elementwise (tf.nn.relu; op Relu). Real dtypes; NaN stays NaN."""
    return _op("Relu", features=features, name=name)


def relu6(features, name=None):
    """min(max(features, 0), 6) elementwise (tf.nn.relu6; op Relu6). Real dtypes."""
    return _op("Relu6", features=features, name=name)


def elu(features, name=None):
    """exp(features) - 1 where features < 0, else features (tf.nn.elu; op Elu).
    half, bfloat16, float32, float64; TypeError for other dtypes."""
    return _op("Elu", features=features, name=name)


def selu(features, name=None):
    """Scaled ELU: scale * (alpha * (exp(x) - 1) if x < 0 else x), scale = 1.0507...,
    alpha = 1.6732... (tf.nn.selu; op Selu). Floating dtypes."""
    return _op("Selu", features=features, name=name)


def leaky_relu(features, alpha=0.2, name=None):
    """features if features > 0 else alpha * features (tf.nn.leaky_relu; op LeakyRelu).

    Integer inputs are cast to float32 first, as TensorFlow does.
    """
    with ops.name_scope(name, "LeakyRelu", [features, alpha]) as name:
        features = ops.convert_to_tensor(features, name="features")
        if features.dtype.is_integer:
            from minitf.ops.math_ops import cast
            features = cast(features, dtypes.float32)
        return _op("LeakyRelu", features=features, alpha=float(alpha), name=name)


def softplus(features, name=None):
    """log(exp(features) + 1), with TensorFlow's thresholds for large |x| (tf.nn.softplus;
    op Softplus). Floating dtypes."""
    return _op("Softplus", features=features, name=name)


def softsign(features, name=None):
    """features / (abs(features) + 1) (tf.nn.softsign; op Softsign). Floating dtypes."""
    return _op("Softsign", features=features, name=name)


# ---- softmax ----

def _swap_last(x, axis, rank, name=None):
    """Transpose x so that `axis` and the last dim swap (an involution)."""
    perm = list(range(rank))
    perm[axis], perm[rank - 1] = perm[rank - 1], perm[axis]
    return _op("Transpose", x=x, perm=np.int32(perm), name=name)


def _along_axis(op_type, logits, axis, name):
    logits = ops.convert_to_tensor(logits, name="logits")
    if axis is None or axis == -1:
        return _op(op_type, logits=logits, name=name)
    rank = logits.shape.rank
    if rank is None:
        raise NotImplementedError("%s along axis %d needs a known rank" % (op_type, axis))
    if not -rank <= axis < rank:
        raise errors.InvalidArgumentError(
            None, None, "Dimension (%d) must be in the range [%d, %d) where %d is the number "
            "of dimensions in the input." % (axis, -rank, rank, rank))
    axis %= rank
    if axis == rank - 1:
        return _op(op_type, logits=logits, name=name)
    _need("Transpose", "%s along axis %d" % (op_type, axis))
    with ops.name_scope(name, op_type, [logits]) as scope:
        out = _op(op_type, logits=_swap_last(logits, axis, rank))
        return _swap_last(out, axis, rank, name=scope)


def softmax(logits, axis=None, name=None, dim=None):
    """exp(logits) / reduce_sum(exp(logits), axis) (tf.nn.softmax; op Softmax).

    logits: half, bfloat16, float32 or float64, rank >= 1. axis defaults to the last
    dimension (`dim` is TF1's alias); another axis is moved last with Transpose.
    Raises InvalidArgumentError for an axis out of [-rank, rank), ValueError for rank 0.
    """
    return _along_axis("Softmax", logits, dim if axis is None else axis, name)


def log_softmax(logits, axis=None, name=None, dim=None):
    """logits - log(reduce_sum(exp(logits), axis)) (tf.nn.log_softmax; op LogSoftmax).
    Same arguments and errors as softmax."""
    return _along_axis("LogSoftmax", logits, dim if axis is None else axis, name)


# ---- batch normalization ----

def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """(x - mean) * scale / sqrt(variance + variance_epsilon) + offset, composed of
    elementwise ops as TensorFlow does: inv = rsqrt(variance + eps) * scale;
    x * inv + (offset - mean * inv) (tf.nn.batch_normalization). Broadcasting operands;
    offset and scale may be None. Needs the Rsqrt op."""
    from minitf.ops import math_ops
    _need("Rsqrt", "batch_normalization")
    with ops.name_scope(name, "batchnorm", [x, mean, variance, scale, offset]):
        variance = ops.convert_to_tensor(variance)
        inv = _op("Rsqrt", x=variance + variance_epsilon)
        if scale is not None:
            inv *= scale
        x = ops.convert_to_tensor(x)
        scaled = x * math_ops.cast(inv, x.dtype)
        shift = offset - mean * inv if offset is not None else -mean * inv
        return scaled + math_ops.cast(shift, x.dtype)


def fused_batch_norm(x, scale, offset, mean=None, variance=None, epsilon=0.001,
                     data_format="NHWC", is_training=True, name=None,
                     exponential_avg_factor=1.0):
    """Batch normalization of a 4-D (or 5-D) x in one op (tf.compat.v1.nn.fused_batch_norm;
    op FusedBatchNormV3). Returns (y, running_mean, running_var).

    x: half, bfloat16 or float32 [N, H, W, C] (NHWC) or [N, C, H, W] (NCHW); scale, offset,
    mean, variance: float32 [C]. is_training=True normalizes with the batch statistics and
    returns them blended with mean/variance by exponential_avg_factor (variance unbiased);
    otherwise mean/variance are used. epsilon is raised to 1.001e-5 like TensorFlow.
    ValueError when mean/variance are missing but needed, or shapes disagree.
    """
    if (not is_training or exponential_avg_factor != 1.0) and (mean is None or
                                                              variance is None):
        raise ValueError("Both `mean` and `variance` must be a 1D tensor when `is_training` is "
                         "False or `exponential_avg_factor` != 1.0. Received: `mean` %r and "
                         "`variance` %r" % (mean, variance))
    # As TensorFlow 2.21: no name scope, the op named `name` (default FusedBatchNormV3), empty
    # Consts for missing statistics, and offset required.
    x = ops.convert_to_tensor(x, name="input")
    scale = ops.convert_to_tensor(scale, name="scale")
    if offset is None:
        raise ValueError("None values not supported.")
    offset = ops.convert_to_tensor(offset, name="offset")
    mean = ops.convert_to_tensor(np.zeros([0], np.float32) if mean is None else mean)
    variance = ops.convert_to_tensor(np.zeros([0], np.float32) if variance is None else variance)
    y, running_mean, running_var, _, _, _ = _op(
        "FusedBatchNormV3", x=x, scale=scale, offset=offset, mean=mean, variance=variance,
        epsilon=max(float(epsilon), 1.001e-5),
        exponential_avg_factor=float(exponential_avg_factor), data_format=data_format,
        is_training=is_training, name=name)
    return y, running_mean, running_var


def lrn(input, depth_radius=5, bias=1, alpha=1, beta=0.5, name=None):  # noqa: A002
    """Local response normalization over the last dim of a 4-D input:
    input / (bias + alpha * sum(input[..., d-r:d+r+1] ** 2)) ** beta
    (tf.nn.lrn / tf.nn.local_response_normalization; op LRN). float32 or half."""
    return _op("LRN", input=input, depth_radius=int(depth_radius), bias=float(bias),
               alpha=float(alpha), beta=float(beta), name=name)


local_response_normalization = lrn


# ---- losses ----

def _flatten_outer_dims(logits):
    """logits reshaped to [-1, last dim] through Rank/Shape/Slice/ConcatV2 nodes, as
    TensorFlow's nn_ops._flatten_outer_dims, with the static shape set when known."""
    from minitf.ops import array_ops, indexing_ops, math_ops
    rank = array_ops.rank(logits)
    last_dim_size = indexing_ops.slice(array_ops.shape(logits), [math_ops.subtract(rank, 1)],
                                       [1])
    output = array_ops.reshape(logits, array_ops.concat([[-1], last_dim_size], 0))
    shape = logits.get_shape()
    if shape.rank is not None:
        dims = shape.as_list()
        if all(d is not None for d in dims[:-1]):
            output.set_shape([int(np.prod(dims[:-1], dtype=np.int64)), dims[-1]])
    return output


def softmax_cross_entropy_with_logits_v2(labels, logits, axis=None, name=None, dim=None):
    """Per-example -sum(labels * log_softmax(logits), axis) (tf.nn.
    softmax_cross_entropy_with_logits_v2 / TF2's softmax_cross_entropy_with_logits; op
    SoftmaxCrossEntropyWithLogits). Returns loss of logits' shape without `axis`.

    labels are cast to logits' dtype; float16/bfloat16 logits are computed in float32.
    axis (alias dim) defaults to -1; another axis is moved last with Transpose. Inputs are
    flattened to 2-D and the loss reshaped back, node for node as TensorFlow.
    """
    from minitf.ops import array_ops, indexing_ops, math_ops
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'dim' and 'axis'.")
        axis = dim
    if axis is None:
        axis = -1
    with ops.name_scope(name, "softmax_cross_entropy_with_logits", [logits, labels]) as name:
        logits = ops.convert_to_tensor(logits, name="logits")
        labels = ops.convert_to_tensor(labels, name="labels")
        convert_to_float32 = logits.dtype in (dtypes.float16, dtypes.bfloat16)
        precise_logits = math_ops.cast(logits, dtypes.float32) if convert_to_float32 \
            else logits
        labels = math_ops.cast(labels, precise_logits.dtype)
        input_rank = array_ops.rank(precise_logits)
        shape = logits.get_shape()
        if axis != -1:
            def move_dim_to_end(tensor, dim_index, rank):
                return array_ops.transpose(tensor, array_ops.concat(
                    [math_ops.range(dim_index), math_ops.range(dim_index + 1, rank),
                     [dim_index]], 0))
            precise_logits = move_dim_to_end(precise_logits, axis, input_rank)
            labels = move_dim_to_end(labels, axis, input_rank)
        input_shape = array_ops.shape(precise_logits)
        precise_logits = _flatten_outer_dims(precise_logits)
        labels = _flatten_outer_dims(labels)
        cost = _op("SoftmaxCrossEntropyWithLogits", features=precise_logits, labels=labels,
                   name=name)[0]
        output_shape = indexing_ops.slice(input_shape, [0], [math_ops.subtract(input_rank, 1)])
        cost = array_ops.reshape(cost, output_shape)
        if shape.rank is not None:
            dims = shape.as_list()
            del dims[axis]
            cost.set_shape(dims)
        if convert_to_float32:
            return math_ops.cast(cost, logits.dtype)
        return cost


def _ensure_xent_args(name, labels, logits):
    if labels is None or logits is None:
        raise ValueError("Both `labels` and `logits` must be provided for %sReceived: "
                         "labels=%s and logits=%s" % (name, labels, logits))


def softmax_cross_entropy_with_logits(labels=None, logits=None, dim=-1, name=None, axis=None):
    """TF1's tf.nn.softmax_cross_entropy_with_logits: labels get no gradient (StopGradient).
    Otherwise as _v2; ValueError without labels or logits."""
    if axis is not None:
        if dim is not None:
            raise ValueError("Cannot specify both 'dim' and 'axis'.")
        dim = axis
    _ensure_xent_args("softmax_cross_entropy_with_logits", labels, logits)
    with ops.name_scope(name, "softmax_cross_entropy_with_logits_sg", [logits, labels]) as name:
        labels = _op("StopGradient", input=labels, name="labels_stop_gradient")
    return softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits, axis=dim,
                                                name=name)


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """Per-example -log_softmax(logits)[labels] (tf.nn.sparse_softmax_cross_entropy_with_logits;
    op SparseSoftmaxCrossEntropyWithLogits). labels: int32/int64 of logits' shape without the
    last dim; returns loss of that shape, logits' dtype (float16 computed in float32 inside
    the kernel).

    ValueError for a rank mismatch (static); InvalidArgumentError at run time for a label
    outside [0, num_classes).
    """
    _ensure_xent_args("sparse_softmax_cross_entropy_with_logits", labels, logits)
    from minitf.ops import array_ops, math_ops
    with ops.name_scope(name, "SparseSoftmaxCrossEntropyWithLogits", [labels, logits]):
        labels = ops.convert_to_tensor(labels)
        logits = ops.convert_to_tensor(logits)
        precise_logits = math_ops.cast(logits, dtypes.float32) \
            if logits.dtype == dtypes.float16 else logits
        labels_static_shape = labels.get_shape()
        labels_shape = array_ops.shape(labels)
        static_shapes_fully_defined = (labels_static_shape.is_fully_defined() and
                                       logits.get_shape()[:-1].is_fully_defined())
        lr, gr = labels_static_shape.rank, logits.get_shape().rank
        if gr == 0:
            raise ValueError("`logits` cannot be a scalar. Received logits=%s`" % logits)
        if gr is not None and lr is not None and lr != gr - 1:
            raise ValueError(
                "`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: "
                "labels.shape=%s of rank %d and logits.shape=%s of rank %d"
                % (labels_static_shape, lr, logits.get_shape(), gr))
        if static_shapes_fully_defined and labels_static_shape != logits.get_shape()[:-1]:
            raise ValueError(
                "`labels.shape` must equal `logits.shape` except for the last dimension. "
                "Received: labels.shape=%s and logits.shape=%s"
                % (labels_static_shape, logits.get_shape()))
        if gr == 2:
            cost = _op("SparseSoftmaxCrossEntropyWithLogits", features=precise_logits,
                       labels=labels, name=name)[0]
            return math_ops.cast(cost, dtypes.float16) if logits.dtype == dtypes.float16 \
                else cost
        shape_checks = []
        if not static_shapes_fully_defined:
            from minitf.ops import check_ops
            shape_checks.append(check_ops.assert_equal(array_ops.shape(labels),
                                                       array_ops.shape(logits)[:-1]))
        with ops.control_dependencies(shape_checks):
            num_classes = array_ops.shape(logits)[array_ops.rank(logits) - 1]
            precise_logits = array_ops.reshape(precise_logits, [-1, num_classes])
            labels = array_ops.reshape(labels, [-1])
            cost = _op("SparseSoftmaxCrossEntropyWithLogits", features=precise_logits,
                       labels=labels, name=name)[0]
            cost = array_ops.reshape(cost, labels_shape)
            cost.set_shape(labels_static_shape)
            return math_ops.cast(cost, dtypes.float16) if logits.dtype == dtypes.float16 \
                else cost


def l2_loss(t, name=None):
    """sum(t ** 2) / 2, a scalar (tf.nn.l2_loss; op L2Loss). Floating dtypes."""
    return _op("L2Loss", t=t, name=name)


# ---- top_k ----

def top_k(input, k=1, sorted=True, index_type=dtypes.int32, name=None):  # noqa: A002
    """The k largest entries of the last dimension and their indices (tf.nn.top_k /
    tf.math.top_k; op TopKV2). Returns (values, indices of index_type: int16, int32 or
    int64), both of input's shape with the last dim k; ties give the lower index first.
    Real dtypes.

    ValueError at construction when a constant k < 0 or k > the last dim;
    InvalidArgumentError at run time for a fed k out of range.
    """
    values, indices = _op("TopKV2", input=input, k=k, sorted=sorted, index_type=index_type,
                          name=name)
    return _TopKV2(values, indices)


# TensorFlow's generated wrapper returns this namedtuple (.values, .indices).
_TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])


def in_top_k(predictions, targets, k, name=None):
    """Whether targets[i] is among the top k predictions[i] (tf.nn.in_top_k; op InTopKV2).

    predictions: float32 [batch, classes]; targets: int32/int64 [batch]; k: int. A target out
    of range or a row with a non-finite prediction gives False, as TensorFlow.
    """
    with ops.name_scope(name, "in_top_k"):
        targets = ops.convert_to_tensor(targets, name="targets")
        k = ops.convert_to_tensor(k, dtype=targets.dtype, name="k")
        return _op("InTopKV2", predictions=predictions, targets=targets, k=k, name=name)


# ---- bias_add ----

def bias_add(value, bias, data_format=None, name=None):
    """value + bias where bias is 1-D and matches value's last dim (NHWC, default) or dim 1
    (NCHW, rank >= 3) (tf.nn.bias_add; op BiasAdd). All numeric dtypes incl. half, bfloat16
    and complex. ValueError for mismatched static shapes."""
    with ops.name_scope(name, "BiasAdd", [value, bias]) as name:
        value = ops.convert_to_tensor(value, name="input")
        bias = ops.convert_to_tensor(bias, dtype=value.dtype, name="bias")
        kw = {} if data_format is None else {"data_format": data_format}
        return outputs_of(apply_op("BiasAdd", value=value, bias=bias, name=name, **kw))


def dropout_v2(x, rate, noise_shape=None, seed=None, name=None):
    """x with each element zeroed with probability `rate` and the rest scaled by
    1 / (1 - rate) (tf.nn.dropout in TF2; TF 2.21's op sequence: Mul or RealDiv,
    RandomUniform, GreaterEqual, SelectV2).

    Args: x floating tensor; rate float in [0, 1) or scalar tensor; noise_shape
    (default shape(x)); seed. A float rate of 0 returns x.
    Raises ValueError for a float rate outside [0, 1) or a non-floating x.
    """
    import numbers
    from minitf.framework import constant_op
    from minitf.ops import array_ops, math_ops, random_ops
    with ops.name_scope(name, "dropout", [x]) as name:
        is_rate_number = isinstance(rate, numbers.Real)
        if is_rate_number and (rate < 0 or rate >= 1):
            raise ValueError("`rate` must be a scalar tensor or a float in the range [0, 1). "
                             "Received: rate=%s" % rate)
        x = ops.convert_to_tensor(x, name="x")
        if not x.dtype.is_floating:
            raise ValueError("`x.dtype` must be a floating point tensor as `x` will be scaled. "
                             "Received: x_dtype=%s" % x.dtype)
        if is_rate_number and rate == 0:
            return x
        if not isinstance(rate, ops.Tensor):
            scale = ops.convert_to_tensor(1 / (1 - rate), dtype=x.dtype)
            ret = _op("Mul", x=x, y=scale)
        else:
            if rate.dtype != x.dtype:
                rate = _op("Cast", x=rate, DstT=x.dtype, name="rate")
            one = constant_op.constant(1, dtype=x.dtype)
            ret = _op("RealDiv", x=x, y=_op("Sub", x=one, y=rate))
        shape = array_ops.shape(x) if noise_shape is None else noise_shape
        random_tensor = random_ops.random_uniform(shape=shape, seed=seed, dtype=x.dtype)
        keep_mask = random_tensor >= rate
        zero = constant_op.constant(0, dtype=x.dtype)
        ret = math_ops.where_v2(keep_mask, ret, zero)
        ret.set_shape(x.shape)
        return ret


def dropout(x, keep_prob=None, noise_shape=None, seed=None, name=None, rate=None):
    """tf.compat.v1.nn.dropout: dropout_v2 with rate = 1 - keep_prob (give one of them).
    Raises ValueError when neither or both are given."""
    if keep_prob is not None and rate is not None:
        raise ValueError("Cannot specify both 'rate' and 'keep_prob'.")
    if keep_prob is not None:
        rate = 1. - keep_prob
    if rate is None:
        raise ValueError("You must provide a rate to dropout. Received: rate=%s" % rate)
    return dropout_v2(x, rate, noise_shape=noise_shape, seed=seed, name=name)
