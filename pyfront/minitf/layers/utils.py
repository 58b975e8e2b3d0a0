"""Helpers the TF1 layers share (Keras's conv_utils and smart_cond, as TensorFlow 2.21's
tf-keras legacy layers use them)."""
from minitf.framework import ops, tensor_util


def smart_cond(pred, true_fn, false_fn, name=None):
    """true_fn() or false_fn() when `pred` is a Python bool or a tensor of constant value,
    else tf.cond(pred, true_fn, false_fn, name=name)."""
    from minitf.ops import control_flow_ops
    if isinstance(pred, ops.Tensor):
        value = tensor_util.constant_value(pred)
        if value is None:
            return control_flow_ops.cond(pred, true_fn=true_fn, false_fn=false_fn, name=name)
        pred = bool(value)
    elif not isinstance(pred, (bool, int)) and hasattr(pred, "value"):
        # A variable: always a cond.
        return control_flow_ops.cond(pred, true_fn=true_fn, false_fn=false_fn, name=name)
    elif not isinstance(pred, (bool, int)):
        raise TypeError("`pred` must be a Tensor, or a Python bool, or 1 or 0. "
                        "Found instead: %s" % type(pred))
    return true_fn() if pred else false_fn()


def normalize_tuple(value, n, name, allow_zero=False):
    """An int or an iterable of n ints -> a tuple of n ints (Keras's messages)."""
    error_msg = (f"The `{name}` argument must be a tuple of {n} integers. "
                 f"Received: {value}")
    if isinstance(value, int):
        value_tuple = (value,) * n
    else:
        try:
            value_tuple = tuple(value)
        except TypeError:
            raise ValueError(error_msg)
        if len(value_tuple) != n:
            raise ValueError(error_msg)
        for single_value in value_tuple:
            try:
                int(single_value)
            except (ValueError, TypeError):
                error_msg += (f"including element {single_value} of type "
                              f"{type(single_value)}")
                raise ValueError(error_msg)
    if allow_zero:
        unqualified = {v for v in value_tuple if v < 0}
        req_msg = ">= 0"
    else:
        unqualified = {v for v in value_tuple if v <= 0}
        req_msg = "> 0"
    if unqualified:
        error_msg += (f" including {unqualified} that does not satisfy the requirement "
                      f"`{req_msg}`.")
        raise ValueError(error_msg)
    return value_tuple


def normalize_data_format(value):
    if value is None:
        value = "channels_last"
    data_format = value.lower()
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError('The `data_format` argument must be one of "channels_first", '
                         f'"channels_last". Received: {value}')
    return data_format


def normalize_padding(value):
    if isinstance(value, (list, tuple)):
        return value
    padding = value.lower()
    if padding not in {"valid", "same", "causal"}:
        raise ValueError('The `padding` argument must be a list/tuple or one of "valid", '
                         f'"same" (or "causal", only for `Conv1D). Received: {padding}')
    return padding


def convert_data_format(data_format, ndim):
    if data_format == "channels_last":
        if ndim == 3:
            return "NWC"
        if ndim == 4:
            return "NHWC"
        if ndim == 5:
            return "NDHWC"
        raise ValueError(f"Input rank not supported: {ndim}. Expected values are [3, 4, 5]")
    if data_format == "channels_first":
        if ndim == 3:
            return "NCW"
        if ndim == 4:
            return "NCHW"
        if ndim == 5:
            return "NCDHW"
        raise ValueError(f"Input rank not supported: {ndim}. Expected values are [3, 4, 5]")
    raise ValueError(f"Invalid data_format: {data_format}")


def conv_output_length(input_length, filter_size, padding, stride, dilation=1):
    if input_length is None:
        return None
    assert padding in {"same", "valid", "full", "causal"}
    dilated_filter_size = filter_size + (filter_size - 1) * (dilation - 1)
    if padding in ["same", "causal"]:
        output_length = input_length
    elif padding == "valid":
        output_length = input_length - dilated_filter_size + 1
    elif padding == "full":
        output_length = input_length + dilated_filter_size - 1
    return (output_length + stride - 1) // stride


def deconv_output_length(input_length, filter_size, padding, output_padding=None, stride=0,
                         dilation=1):
    assert padding in {"same", "valid", "full"}
    if input_length is None:
        return None
    filter_size = filter_size + (filter_size - 1) * (dilation - 1)
    if output_padding is None:
        if padding == "valid":
            length = input_length * stride + max(filter_size - stride, 0)
        elif padding == "full":
            length = input_length * stride - (stride + filter_size - 2)
        elif padding == "same":
            length = input_length * stride
    else:
        if padding == "same":
            pad = filter_size // 2
        elif padding == "valid":
            pad = 0
        elif padding == "full":
            pad = filter_size - 1
        length = (input_length - 1) * stride + filter_size - 2 * pad + output_padding
    return length
