"""Neural-network ops of the TF1 API (tf.nn.relu, tf.nn.softmax, tf.nn.bias_add)."""
from minitf.framework import ops
from minitf.framework.op_def_library import apply_op, outputs_of


def relu(features, name=None):
    """max(features, 0) elementwise (tf.nn.relu; op Relu)."""
    return outputs_of(apply_op("Relu", features=features, name=name))


def softmax(logits, axis=None, name=None, dim=None):
    """exp(logits) / sum(exp(logits)) along the last axis (tf.nn.softmax; op Softmax).

    Only the last axis is supported (axis None or -1 or rank-1).
    """
    axis = dim if axis is None else axis
    logits = ops.convert_to_tensor(logits)
    rank = logits.shape.rank
    if axis is not None and axis != -1 and not (rank is not None and axis == rank - 1):
        raise NotImplementedError("minitf's softmax supports the last axis only")
    return outputs_of(apply_op("Softmax", logits=logits, name=name))


def bias_add(value, bias, data_format=None, name=None):
    """value + bias where bias is 1-D and matches value's last dim (NHWC) or
    dim 1 (NCHW) (tf.nn.bias_add; op BiasAdd)."""
    with ops.name_scope(name, "BiasAdd", [value, bias]) as name:
        value = ops.convert_to_tensor(value, name="input")
        bias = ops.convert_to_tensor(bias, dtype=value.dtype, name="bias")
        kw = {} if data_format is None else {"data_format": data_format}
        return outputs_of(apply_op("BiasAdd", value=value, bias=bias, name=name, **kw))
