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
        inv = _op("Rsqrt", x=math_ops.add(variance, variance_epsilon))
        if scale is not None:
            inv = math_ops.multiply(inv, scale)
        x = ops.convert_to_tensor(x)
        inv = math_ops.cast(inv, x.dtype)
        if offset is not None:
            shift = math_ops.subtract(offset, math_ops.multiply(mean, inv))
        else:
            shift = math_ops.negative(math_ops.multiply(mean, inv))
        return math_ops.add(math_ops.multiply(x, inv), math_ops.cast(shift, x.dtype))


def fused_batch_norm(x, scale, offset=None, mean=None, variance=None, epsilon=0.001,
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

def _flatten_to_2d(t, what):
    """t reshaped to [-1, last]; needs a static last dim."""
    from minitf.ops.array_ops import reshape
    last = t.shape.as_list()[-1] if t.shape.rank else None
    if last is None:
        raise NotImplementedError("%s of rank != 2 needs a static last dimension" % what)
    return reshape(t, [-1, last])


def softmax_cross_entropy_with_logits_v2(labels, logits, axis=None, name=None, dim=None):
    """Per-example -sum(labels * log_softmax(logits), axis) (tf.nn.
    softmax_cross_entropy_with_logits_v2 / TF2's softmax_cross_entropy_with_logits; op
    SoftmaxCrossEntropyWithLogits). Returns loss of logits' shape without `axis`.

    labels are cast to logits' dtype; float16 logits are computed in float32 (inside the
    kernel, where TensorFlow casts around it: same values).
    axis (alias dim) defaults to -1; another axis is moved last with Transpose.
    """
    from minitf.ops import math_ops
    axis = -1 if axis is None and dim is None else (dim if axis is None else axis)
    with ops.name_scope(name, "softmax_cross_entropy_with_logits", [logits, labels]) as name:
        logits = ops.convert_to_tensor(logits, name="logits")
        labels = ops.convert_to_tensor(labels, name="labels")
        labels = math_ops.cast(labels, logits.dtype)
        rank = logits.shape.rank
        if rank is not None and axis % max(rank, 1) != rank - 1:
            _need("Transpose", "softmax_cross_entropy_with_logits along axis %d" % axis)
            logits = _swap_last(logits, axis % rank, rank)
            labels = _swap_last(labels, axis % rank, rank)
        if rank == 2 or rank is None:
            loss = _op("SoftmaxCrossEntropyWithLogits", features=logits, labels=labels,
                       name=name)[0]
        else:
            from minitf.ops.array_ops import reshape
            out_shape = logits.shape.as_list()[:-1]
            if any(d is None for d in out_shape):
                raise NotImplementedError("softmax_cross_entropy_with_logits of rank %d needs "
                                          "static leading dimensions" % rank)
            loss = _op("SoftmaxCrossEntropyWithLogits",
                       features=_flatten_to_2d(logits, "logits"),
                       labels=_flatten_to_2d(labels, "labels"))[0]
            loss = reshape(loss, out_shape, name=name)
        return loss


def softmax_cross_entropy_with_logits(_sentinel=None, labels=None, logits=None, dim=-1,
                                      name=None, axis=None):
    """TF1's tf.nn.softmax_cross_entropy_with_logits: keyword arguments only (labels=,
    logits=), labels get no gradient (StopGradient). Otherwise as _v2; ValueError when
    called positionally or without labels/logits."""
    if _sentinel is not None or labels is None or logits is None:
        raise ValueError("Only call `softmax_cross_entropy_with_logits` with named arguments "
                         "(labels=..., logits=..., ...). Received unnamed argument: %s"
                         % (_sentinel,))
    axis = dim if axis is None else axis
    with ops.name_scope(name, "softmax_cross_entropy_with_logits_sg", [logits, labels]) as name:
        if _have("StopGradient"):
            labels = _op("StopGradient", input=ops.convert_to_tensor(labels, name="labels"),
                         name="labels_stop_gradient")
        return softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits, axis=axis,
                                                    name=name)


def sparse_softmax_cross_entropy_with_logits(_sentinel=None, labels=None, logits=None,
                                             name=None):
    """Per-example -log_softmax(logits)[labels] (tf.nn.sparse_softmax_cross_entropy_with_logits;
    op SparseSoftmaxCrossEntropyWithLogits). labels: int32/int64 of logits' shape without the
    last dim; returns loss of that shape, logits' dtype (float16 computed in float32 inside
    the kernel).

    ValueError for a rank mismatch (static); InvalidArgumentError at run time for a label
    outside [0, num_classes).
    """
    if _sentinel is not None or labels is None or logits is None:
        raise ValueError("Only call `sparse_softmax_cross_entropy_with_logits` with named "
                         "arguments (labels=..., logits=..., ...). Received unnamed argument: "
                         "%s" % (_sentinel,))
    with ops.name_scope(name, "SparseSoftmaxCrossEntropyWithLogits", [labels, logits]) as name:
        labels = ops.convert_to_tensor(labels)
        logits = ops.convert_to_tensor(logits)
        lr, gr = labels.shape.rank, logits.shape.rank
        if gr == 0:
            raise ValueError("Logits cannot be scalars - received shape %s." % logits.shape)
        if lr is not None and gr is not None and lr != gr - 1:
            raise ValueError("Rank mismatch: Rank of labels (received %d) should equal rank of "
                             "logits minus 1 (received %d)." % (lr, gr))
        if gr == 2 or gr is None:
            loss = _op("SparseSoftmaxCrossEntropyWithLogits", features=logits, labels=labels,
                       name=name)[0]
        else:
            from minitf.ops.array_ops import reshape
            out_shape = labels.shape.as_list()
            if any(d is None for d in out_shape):
                raise NotImplementedError("sparse_softmax_cross_entropy_with_logits of rank %d "
                                          "needs static leading dimensions" % gr)
            loss = _op("SparseSoftmaxCrossEntropyWithLogits",
                       features=_flatten_to_2d(logits, "logits"), labels=reshape(labels, [-1]))[0]
            loss = reshape(loss, out_shape, name=name)
        return loss


def l2_loss(t, name=None):
    """sum(t ** 2) / 2, a scalar (tf.nn.l2_loss; op L2Loss). Floating dtypes."""
    return _op("L2Loss", t=t, name=name)


# ---- top_k ----

def top_k(input, k=1, sorted=True, name=None):  # noqa: A002
    """The k largest entries of the last dimension and their indices (tf.nn.top_k /
    tf.math.top_k; op TopKV2). Returns (values, indices int32), both of input's shape with
    the last dim k; ties give the lower index first. Real dtypes.

    ValueError at construction when a constant k < 0 or k > the last dim;
    InvalidArgumentError at run time for a fed k out of range.
    """
    values, indices = _op("TopKV2", input=input, k=k, sorted=sorted, name=name)
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
