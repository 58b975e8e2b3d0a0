"""The tf.nn convolution and pooling functions that TensorFlow 2.21 composes in Python
(nn_ops.py, nn_impl.py): with_space_to_batch (atrous convolution through SpaceToBatchND /
BatchToSpaceND), convolution, conv1d, conv1d_transpose, conv_transpose, pool, max_pool1d,
avg_pool1d, atrous_conv2d, atrous_conv2d_transpose, separable_conv2d, conv2d_backprop_filter
and the depthwise backprops. They build TensorFlow's nodes with TensorFlow's names.
"""
import numpy as np

from minitf.framework import dtypes, ops, tensor_shape, tensor_util
from minitf.framework.op_def_library import apply_op, outputs_of
from minitf.ops import nn_conv
from minitf.ops.nn_conv import _convert_padding, _get_sequence

_CHANNELS_LAST_FORMATS = frozenset({"NWC", "NHC", "NHWC", "NWHC", "NDHWC", "NDWHC", "NHDWC",
                                    "NHWDC", "NWDHC", "NWHDC"})


def _op(op_type, name=None, **kw):
    return outputs_of(apply_op(op_type, name=name, **kw))


def _lookup(new_name, new_value, old_name, old_value):
    """TensorFlow's deprecated_argument_lookup: the old name's value when given."""
    if old_value is not None:
        if new_value is not None:
            raise ValueError("Cannot specify both '%s' and '%s'." % (old_name, new_name))
        return old_value
    return new_value


def _dimension_at_index(shape, index):
    """TensorFlow's tensor_shape.dimension_at_index: dims[index], unknown for unknown rank."""
    if shape.rank is None:
        return tensor_shape.Dimension(None)
    return shape.dims[index]


def _a():
    from minitf.ops import array_ops
    return array_ops


# ---- with_space_to_batch ----

def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None, name=None):
    """(paddings, crops) making input_shape + base paddings divisible by block_shape
    (TensorFlow's array_ops.required_space_to_batch_paddings); constants when every input is
    constant, else nodes."""
    a = _a()
    from minitf.ops import math_ops
    with ops.name_scope(name, "required_space_to_batch_paddings", [input_shape, block_shape]):
        input_shape = ops.convert_to_tensor(input_shape, dtype=dtypes.int32, name="input_shape")
        block_shape = ops.convert_to_tensor(block_shape, dtype=dtypes.int32, name="block_shape")
        block_shape.get_shape().assert_is_fully_defined()
        block_shape.get_shape().assert_has_rank(1)
        num_block_dims = block_shape.get_shape().dims[0].value
        if num_block_dims == 0:
            return a.zeros([0, 2], dtypes.int32), a.zeros([0, 2], dtypes.int32)
        input_shape.get_shape().assert_is_compatible_with([num_block_dims])
        if base_paddings is not None:
            base_paddings = ops.convert_to_tensor(base_paddings, dtype=dtypes.int32,
                                                  name="base_paddings")
            base_paddings.get_shape().assert_is_compatible_with([num_block_dims, 2])
        else:
            base_paddings = a.zeros([num_block_dims, 2], dtypes.int32)
        cb = tensor_util.constant_value(block_shape)
        ci = tensor_util.constant_value(input_shape)
        cp = tensor_util.constant_value(base_paddings)
        if cb is not None and ci is not None and cp is not None:
            block_shape, input_shape, base_paddings = cb, ci, cp
        pad_start = base_paddings[:, 0]
        orig_pad_end = base_paddings[:, 1]
        full_input_shape = input_shape + pad_start + orig_pad_end
        pad_end_extra = (block_shape - full_input_shape % block_shape) % block_shape
        pad_end = orig_pad_end + pad_end_extra
        result_paddings = a.stack([[pad_start[i], pad_end[i]] for i in range(num_block_dims)],
                                  name="paddings")
        result_crops = a.stack([[0, pad_end_extra[i]] for i in range(num_block_dims)],
                               name="crops")
        _ = math_ops
        return result_paddings, result_crops


def _base_paddings(filter_shape, num_spatial_dims, rate):
    filter_spatial_shape = filter_shape[:num_spatial_dims]
    pad_extra_shape = (filter_spatial_shape - 1) * rate
    pad_extra_start = pad_extra_shape // 2
    pad_extra_end = pad_extra_shape - pad_extra_start
    return _a().stack([[pad_extra_start[i], pad_extra_end[i]]
                       for i in range(num_spatial_dims)])


def _adjust(orig, fill_value, spatial_dims):
    """orig's rows for spatial_dims, with fill_value rows for the dims between them."""
    fill_dims = orig.get_shape().as_list()[1:]
    dtype = orig.dtype.as_numpy_dtype
    parts = []
    const_orig = tensor_util.constant_value(orig)
    const_or_orig = const_orig if const_orig is not None else orig
    prev_spatial_dim = 0
    i = 0
    while i < len(spatial_dims):
        start_i = i
        start_spatial_dim = spatial_dims[i]
        if start_spatial_dim > 1:
            parts.append(np.full([start_spatial_dim - 1 - prev_spatial_dim] + fill_dims,
                                 fill_value, dtype=dtype))
        while i + 1 < len(spatial_dims) and spatial_dims[i + 1] == spatial_dims[i] + 1:
            i += 1
        parts.append(const_or_orig[start_i:i + 1])
        prev_spatial_dim = spatial_dims[i]
        i += 1
    if const_orig is not None:
        return np.concatenate(parts)
    return _a().concat(parts, 0)


class _WithSpaceToBatch:
    """TensorFlow's nn_ops._WithSpaceToBatch: calls build_op directly when every rate is 1,
    else pads/moves blocks to the batch, runs the op with VALID padding, and moves back."""

    def __init__(self, input_shape, dilation_rate, padding, build_op, filter_shape=None,
                 spatial_dims=None, data_format=None, num_batch_dims=1):
        dilation_rate = ops.convert_to_tensor(dilation_rate, dtypes.int32, name="dilation_rate")
        if dilation_rate.shape.ndims not in (None, 1):
            raise ValueError("`dilation_rate.shape.rank` must be 1. Received: dilation_rate=%s "
                             "of rank %s" % (dilation_rate, dilation_rate.shape.rank))
        if not dilation_rate.shape.is_fully_defined():
            raise ValueError("`dilation_rate.shape` must be fully defined. Received: "
                             "dilation_rate=%s with shape %s" % (dilation_rate,
                                                                 dilation_rate.shape))
        num_spatial_dims = dilation_rate.shape.dims[0].value
        nc = data_format is not None and data_format.startswith("NC")
        starting_spatial_dim = num_batch_dims + 1 if nc else num_batch_dims
        if spatial_dims is None:
            spatial_dims = range(starting_spatial_dim, num_spatial_dims + starting_spatial_dim)
        orig_spatial_dims = list(spatial_dims)
        spatial_dims = sorted(set(int(x) for x in orig_spatial_dims))
        if spatial_dims != orig_spatial_dims or any(x < 1 for x in spatial_dims):
            raise ValueError("`spatial_dims` must be a monotonically increasing sequence of "
                             "positive integers. Received: spatial_dims=%s" % orig_spatial_dims)
        expected_input_rank = spatial_dims[-1] if nc else spatial_dims[-1] + 1
        try:
            input_shape.with_rank_at_least(expected_input_rank)
        except ValueError:
            raise ValueError("`input.shape.rank` must be at least %d. Received: input.shape=%s "
                             "with rank %s" % (expected_input_rank, input_shape,
                                               input_shape.rank)) from None
        const_rate = tensor_util.constant_value(dilation_rate)
        rate_or_const_rate = dilation_rate
        if const_rate is not None:
            rate_or_const_rate = const_rate
            if np.any(const_rate < 1):
                raise ValueError("`dilation_rate` must be positive. Received: dilation_rate=%s"
                                 % const_rate)
            if np.all(const_rate == 1):
                self.call = build_op(num_spatial_dims, padding)
                return
        padding, explicit_paddings = _convert_padding(padding)
        if padding == "SAME":
            if filter_shape is None:
                raise ValueError("`filter_shape` must be specified for `padding='SAME'`. "
                                 "Received: filter_shape=%s and padding=%s"
                                 % (filter_shape, padding))
            filter_shape = ops.convert_to_tensor(filter_shape, name="filter_shape")
            const_filter_shape = tensor_util.constant_value(filter_shape)
            if const_filter_shape is not None:
                self.base_paddings = _base_paddings(const_filter_shape, num_spatial_dims,
                                                    rate_or_const_rate)
            else:
                self.num_spatial_dims = num_spatial_dims
                self.rate_or_const_rate = rate_or_const_rate
                self.base_paddings = None
        elif padding == "VALID":
            self.base_paddings = np.zeros([num_spatial_dims, 2], np.int32)
        elif padding == "EXPLICIT":
            base = np.array(explicit_paddings).reshape([num_spatial_dims + 2, 2])
            self.base_paddings = base[2:] if nc else base[1:-1]
        else:
            raise ValueError("`padding` must be one of 'SAME' or 'VALID'. Received: padding=%s"
                             % padding)
        self.input_shape = input_shape
        self.spatial_dims = spatial_dims
        self.dilation_rate = dilation_rate
        self.data_format = data_format
        self.op = build_op(num_spatial_dims, "VALID")
        self.call = self._with_space_to_batch_call

    def _with_space_to_batch_call(self, inp, filter):  # noqa: A002
        a = _a()
        from minitf.ops import indexing_ops
        input_spatial_shape = None
        if self.input_shape.ndims is not None:
            shape_list = self.input_shape.as_list()
            input_spatial_shape = [shape_list[i] for i in self.spatial_dims]
        if input_spatial_shape is None or None in input_spatial_shape:
            input_shape_tensor = a.shape(inp)
            input_spatial_shape = a.stack([input_shape_tensor[i] for i in self.spatial_dims])
        base_paddings = self.base_paddings
        if base_paddings is None:
            base_paddings = _base_paddings(a.shape(filter), self.num_spatial_dims,
                                           self.rate_or_const_rate)
        paddings, crops = required_space_to_batch_paddings(
            input_shape=input_spatial_shape, base_paddings=base_paddings,
            block_shape=self.dilation_rate)
        dilation_rate = _adjust(self.dilation_rate, 1, self.spatial_dims)
        paddings = _adjust(paddings, 0, self.spatial_dims)
        crops = _adjust(crops, 0, self.spatial_dims)
        input_converted = indexing_ops.space_to_batch_nd(input=inp, block_shape=dilation_rate,
                                                         paddings=paddings)
        result = self.op(input_converted, filter)
        result_converted = indexing_ops.batch_to_space_nd(input=result,
                                                          block_shape=dilation_rate, crops=crops)
        if self.data_format is not None and self.data_format.startswith("NC"):
            if not result_converted.shape.dims[1].value and filter is not None:
                output_shape = result_converted.shape.as_list()
                output_shape[1] = filter.shape[-1]
                result_converted.set_shape(output_shape)
        return result_converted

    def __call__(self, inp, filter):  # noqa: A002
        return self.call(inp, filter)


def with_space_to_batch(input, dilation_rate, padding, op, filter_shape=None,  # noqa: A002
                        spatial_dims=None, data_format=None):
    """op(input, num_spatial_dims, padding) evaluated as an atrous op of rate dilation_rate
    (tf.nn.with_space_to_batch): with all rates 1, op itself; otherwise SpaceToBatchND, op
    with VALID padding, BatchToSpaceND. filter_shape is needed for padding "SAME".
    ValueError for a rate < 1, a non-monotonic spatial_dims or a too-small input rank."""
    input = ops.convert_to_tensor(input, name="input")  # noqa: A001

    def build_op(num_spatial_dims, padding):
        return lambda inp, _: op(inp, num_spatial_dims, padding)

    new_op = _WithSpaceToBatch(input.shape, dilation_rate, padding, build_op,
                               filter_shape=filter_shape, spatial_dims=spatial_dims,
                               data_format=data_format)
    return new_op(input, None)


# ---- convolution ----

def _get_strides_and_dilation_rate(num_spatial_dims, strides, dilation_rate):
    if dilation_rate is None:
        dilation_rate = [1] * num_spatial_dims
    elif len(dilation_rate) != num_spatial_dims:
        raise ValueError("`len(dilation_rate)` should be %d. Received: dilation_rate=%s of "
                         "length %d" % (num_spatial_dims, dilation_rate, len(dilation_rate)))
    dilation_rate = np.array(dilation_rate, dtype=np.int32)
    if np.any(dilation_rate < 1):
        raise ValueError("all values of `dilation_rate` must be positive. Received: "
                         "dilation_rate=%s" % dilation_rate)
    if strides is None:
        strides = [1] * num_spatial_dims
    elif len(strides) != num_spatial_dims:
        raise ValueError("`len(strides)` should be %d. Received: strides=%s of length %d"
                         % (num_spatial_dims, strides, len(strides)))
    strides = np.array(strides, dtype=np.int32)
    if np.any(strides < 1):
        raise ValueError("all values of `strides` must be positive. Received: strides=%s"
                         % strides)
    if np.any(strides > 1) and np.any(dilation_rate > 1):
        raise ValueError("`strides > 1` not supported in conjunction with `dilation_rate > 1`. "
                         "Received: strides=%s and dilation_rate=%s" % (strides, dilation_rate))
    return strides, dilation_rate


def _conv_op(num_spatial_dims):
    if num_spatial_dims == 2:
        return lambda input, filters, strides, padding, data_format, dilations, name: \
            nn_conv.conv2d(input, filters, strides, padding, data_format=data_format,
                           dilations=dilations, name=name)
    if num_spatial_dims == 3:
        return _conv3d
    return lambda input, filters, strides, padding, data_format, dilations, name: conv1d(
        input, filters, strides, padding, data_format=data_format, dilations=dilations,
        name=name)


def _conv3d(input, filters, strides, padding, data_format, dilations, name):  # noqa: A002
    kw = {} if dilations is None else {"dilations": dilations}
    return _op("Conv3D", input=input, filter=filters, strides=strides, padding=padding,
               data_format=data_format or "NDHWC", name=name, **kw)


def _non_atrous(input_shape, filter_shape, padding, data_format, strides, name,  # noqa: C901
                num_batch_dims):
    """TensorFlow's _NonAtrousConvolution, as a function (input, filter) -> output."""
    if input_shape.ndims is None:
        raise ValueError("Rank of convolution must be known. Received: input_shape=%s of "
                         "rank %s" % (input_shape, input_shape.rank))
    if input_shape.ndims < 3 or input_shape.ndims - num_batch_dims + 1 > 5:
        raise ValueError("`input_shape.rank - num_batch_dims + 1` must be at least 3 and at "
                         "most 5. Received: input_shape.rank=%s and num_batch_dims=%s"
                         % (input_shape.rank, num_batch_dims))
    conv_dims = input_shape.ndims - num_batch_dims - 1
    if strides is None:
        strides = [1] * conv_dims
    elif len(strides) != conv_dims:
        raise ValueError("`len(strides)` should be %d. Received: strides=%s of length %d"
                         % (conv_dims, strides, len(strides)))
    strides = list(strides)
    if conv_dims == 1:
        if data_format is None:
            data_format = "NWC"
        elif data_format not in {"NCW", "NWC", "NCHW", "NHWC"}:
            raise ValueError("`data_format` must be 'NWC' or 'NCW'. Received: data_format=%s"
                             % data_format)
        return lambda inp, filt: conv1d(value=inp, filters=filt, stride=strides[0],
                                        padding=padding, data_format=data_format, name=name)
    if conv_dims == 2:
        if data_format is None or data_format == "NHWC":
            data_format, strides = "NHWC", [1] + strides + [1]
        elif data_format == "NCHW":
            strides = [1, 1] + strides
        else:
            raise ValueError("`data_format` must be 'NHWC' or 'NCHW'. Received: data_format=%s"
                             % data_format)
        return lambda inp, filt: nn_conv.conv2d(input=inp, filter=filt, strides=strides,
                                                padding=padding, data_format=data_format,
                                                name=name)
    if data_format is None or data_format == "NDHWC":
        strides = [1] + strides + [1]
    elif data_format == "NCDHW":
        strides = [1, 1] + strides
    else:
        raise ValueError("`data_format` must be 'NDHWC' or 'NCDHW'. Received: data_format=%s"
                         % data_format)
    return lambda inp, filt: _conv3d(inp, filt, strides, padding, data_format, None, name)


def _dilated_convolution(input, filters, padding, strides, dilation_rate, name,  # noqa: A002
                         data_format, num_spatial_dims):
    """TensorFlow's Convolution class: an atrous convolution through _WithSpaceToBatch."""
    input_shape = tensor_shape.as_shape(input.shape)
    filter_shape = tensor_shape.as_shape(filters.shape)
    num_batch_dims = input_shape.ndims - num_spatial_dims - 1 \
        if input_shape.ndims is not None else 1
    if data_format is None or not data_format.startswith("NC"):
        input_channels_dim = _dimension_at_index(input_shape,
                                                             num_spatial_dims + num_batch_dims)
        spatial_dims = range(num_batch_dims, num_spatial_dims + num_batch_dims)
    else:
        input_channels_dim = _dimension_at_index(input_shape, num_batch_dims)
        spatial_dims = range(num_batch_dims + 1, num_spatial_dims + num_batch_dims + 1)
    filter_dim = _dimension_at_index(filter_shape, num_spatial_dims)
    if not (input_channels_dim % filter_dim).is_compatible_with(0):
        raise ValueError("The number of input channels is not divisible by the corresponding "
                         "number of output filters. Received: input.shape=%s with %s channels "
                         "and filters.shape=%s with %s output filters."
                         % (input_shape, input_channels_dim, filter_shape, filter_dim))
    strides, dilation_rate = _get_strides_and_dilation_rate(num_spatial_dims, strides,
                                                            dilation_rate)

    def build_op(_, padding):
        return _non_atrous(input_shape, filter_shape, padding, data_format, strides, name,
                           num_batch_dims)

    conv_op = _WithSpaceToBatch(input_shape, dilation_rate=dilation_rate, padding=padding,
                                build_op=build_op, filter_shape=filter_shape,
                                spatial_dims=spatial_dims, data_format=data_format,
                                num_batch_dims=num_batch_dims)
    return conv_op(input, filters)


def convolution_internal(input, filters, strides=None, padding="VALID",  # noqa: A002
                         data_format=None, dilations=None, name=None, num_spatial_dims=None):
    """TensorFlow's nn_ops.convolution_internal (no TPU context): Conv2D/Conv3D/conv1d, or
    the SpaceToBatch form when a dilation is > 1."""
    from minitf.ops import variables
    if not isinstance(filters, (ops.Tensor, variables.Variable)):
        with ops.name_scope("convolution_internal", None, [filters, input]):
            filters = ops.convert_to_tensor(filters, name="filters")
    if not isinstance(input, ops.Tensor):
        with ops.name_scope("convolution_internal", None, [filters, input]):
            input = ops.convert_to_tensor(input, name="input")  # noqa: A001
    filters_rank = filters.shape.rank
    inputs_rank = input.shape.rank
    if num_spatial_dims is None:
        if filters_rank:
            num_spatial_dims = filters_rank - 2
        elif inputs_rank:
            num_spatial_dims = inputs_rank - 2
        else:
            raise ValueError("When `num_spatial_dims` is not set, one of `input.shape.rank` or "
                             "`filters.shape.rank` must be known. Received: input.shape=%s of "
                             "rank %s and filters.shape=%s of rank %s"
                             % (input.shape, inputs_rank, filters.shape, filters_rank))
    elif filters_rank and filters_rank - 2 != num_spatial_dims:
        raise ValueError("`filters.shape.rank - 2` should equal `num_spatial_dims`. Received: "
                         "filters.shape=%s of rank %s and num_spatial_dims=%s"
                         % (filters.shape, filters_rank, num_spatial_dims))
    num_batch_dims = inputs_rank - num_spatial_dims - 1 if inputs_rank else 1
    if num_spatial_dims not in {1, 2, 3}:
        raise ValueError("`num_spatial_dims` must be 1, 2, or 3. Received: num_spatial_dims=%s."
                         % num_spatial_dims)
    if data_format is None or data_format in _CHANNELS_LAST_FORMATS:
        channel_index = num_batch_dims + num_spatial_dims
    else:
        channel_index = num_batch_dims
    if dilations is None:
        dilations = _get_sequence(dilations, num_spatial_dims, channel_index, "dilations")
        is_dilated_conv = False
    else:
        dilations = _get_sequence(dilations, num_spatial_dims, channel_index, "dilations")
        is_dilated_conv = any(i != 1 for i in dilations)
    strides = _get_sequence(strides, num_spatial_dims, channel_index, "strides")
    default_name = None if name else "convolution"
    with ops.name_scope(name, default_name, [input, filters]) as name:
        if not is_dilated_conv:
            return _conv_op(num_spatial_dims)(input, filters, strides, padding=padding,
                                              data_format=data_format, dilations=dilations,
                                              name=name)
        if channel_index == 1:
            strides, dilations = strides[2:], dilations[2:]
        else:
            strides, dilations = strides[1:-1], dilations[1:-1]
        return _dilated_convolution(input, filters, padding, strides, dilations, name,
                                    data_format, num_spatial_dims)


def convolution(input, filter, padding, strides=None, dilation_rate=None,  # noqa: A002
                name=None, data_format=None, filters=None, dilations=None):
    """N-D convolution, N = 1, 2 or 3 (tf.compat.v1.nn.convolution): conv1d, Conv2D or
    Conv3D, through SpaceToBatchND / BatchToSpaceND when a dilation rate is > 1 (TensorFlow's
    graph). input [batch, spatial..., in_channels] (channels last, default) or channels
    first; filter (alias filters) [spatial..., in_channels, out_channels]; strides and
    dilation_rate (alias dilations): N ints. ValueError for unknown ranks, strides > 1 with a
    dilation > 1, or channels that do not divide."""
    filter = _lookup("filters", filters, "filter", filter)  # noqa: A001
    dilation_rate = _lookup("dilations", dilations, "dilation_rate", dilation_rate)
    return convolution_internal(input, filter, strides=strides, padding=padding,
                                data_format=data_format, dilations=dilation_rate, name=name)


def atrous_conv2d(value, filters, rate, padding, name=None):
    """2-D convolution with holes: convolution(value, filters, padding, dilation_rate=[rate,
    rate]) (tf.nn.atrous_conv2d). value NHWC, filters [h, w, in, out]."""
    return convolution(input=value, filter=filters, padding=padding,
                       dilation_rate=np.broadcast_to(rate, (2,)), name=name)


def conv1d(value=None, filters=None, stride=None, padding=None, use_cudnn_on_gpu=None,
           data_format=None, name=None, input=None, dilations=None):  # noqa: A002
    """1-D convolution as a Conv2D over an expanded dim (tf.compat.v1.nn.conv1d).
    value (alias input) [batch, width, in] (NWC) or [batch, in, width] (NCW); filters
    [width, in, out]; stride and dilations: 1 or 3 ints. ValueError for another data_format."""
    a = _a()
    value = _lookup("input", input, "value", value)
    with ops.name_scope(name, "conv1d", [value, filters]) as name:
        if data_format is None or data_format == "NHWC" or data_format == "NWC":
            data_format, spatial_start_dim, channel_index = "NHWC", -3, 2
        elif data_format == "NCHW" or data_format == "NCW":
            data_format, spatial_start_dim, channel_index = "NCHW", -2, 1
        else:
            raise ValueError("`data_format` must be 'NWC' or 'NCW'. Received: data_format=%s"
                             % data_format)
        strides = [1] + _get_sequence(stride, 1, channel_index, "stride")
        dilations = [1] + _get_sequence(dilations, 1, channel_index, "dilations")
        value = a.expand_dims(value, spatial_start_dim)
        filters = a.expand_dims(filters, 0)
        if value.shape.ndims not in (4, 3, 2, 1, 0, None):
            raise NotImplementedError("conv1d over more than one batch dimension "
                                      "(TensorFlow's squeeze_batch_dims)")
        result = _op("Conv2D", input=value, filter=filters, strides=strides, padding=padding,
                     use_cudnn_on_gpu=True if use_cudnn_on_gpu is None else use_cudnn_on_gpu,
                     data_format=data_format, dilations=dilations, name=name)
        return a.squeeze(result, [spatial_start_dim])


def conv1d_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                     data_format="NWC", dilations=None, name=None):
    """Transposed 1-D convolution: Conv2DBackpropInput over an expanded dim
    (tf.nn.conv1d_transpose). input [batch, width, in]; filters [width, out, in];
    output_shape: 3 ints (or an int32 tensor). ValueError for another data_format."""
    a = _a()
    with ops.name_scope(name, "conv1d_transpose", [input, filters, output_shape]) as name:
        if data_format is None or data_format == "NWC":
            data_format, spatial_start_dim, channel_index = "NHWC", 1, 2
        elif data_format == "NCW":
            data_format, spatial_start_dim, channel_index = "NCHW", 2, 1
        else:
            raise ValueError("`data_format` must be 'NWC' or 'NCW'. Received: data_format=%s"
                             % data_format)
        strides = [1] + _get_sequence(strides, 1, channel_index, "stride")
        dilations = [1] + _get_sequence(dilations, 1, channel_index, "dilations")
        input = a.expand_dims(input, spatial_start_dim)  # noqa: A001
        filters = a.expand_dims(filters, 0)
        output_shape = output_shape if isinstance(output_shape, ops.Tensor) \
            else list(output_shape)
        output_shape = a.concat([output_shape[:spatial_start_dim], [1],
                                 output_shape[spatial_start_dim:]], 0)
        result = _op("Conv2DBackpropInput", input_sizes=output_shape, filter=filters,
                     out_backprop=input, strides=strides, padding=padding,
                     data_format=data_format, dilations=dilations, name=name)
        return a.squeeze(result, spatial_start_dim)


def conv_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                   data_format=None, dilations=None, name=None):
    """Transposed N-D convolution (tf.nn.conv_transpose): conv1d_transpose,
    conv2d_transpose or conv3d_transpose by len(output_shape) - 2 (or the filters' rank)."""
    with ops.name_scope(name, "conv_transpose", [input, filters, output_shape]) as name:
        if isinstance(output_shape, ops.Tensor):
            n = output_shape.shape[0].value - 2 if output_shape.shape.rank == 1 and \
                output_shape.shape[0].value is not None else None
        else:
            n = len(output_shape) - 2
        if n is None:
            n = filters.shape.rank - 2
        if not 1 <= n <= 3:
            raise ValueError("`output_shape` must be of length 3, 4 or 5. Received: "
                             "output_shape=%s of length %d." % (output_shape, n + 2))
        if n == 1:
            return conv1d_transpose(input, filters, output_shape, strides, padding=padding,
                                    data_format=data_format or "NWC", dilations=dilations,
                                    name=name)
        if n == 2:
            return nn_conv.conv2d_transpose(input, filters, output_shape, strides,
                                            padding=padding,
                                            data_format=data_format or "NHWC",
                                            dilations=dilations, name=name)
        return conv3d_transpose(input, filters, output_shape, strides, padding=padding,
                                data_format=data_format or "NDHWC", dilations=dilations,
                                name=name)


def atrous_conv2d_transpose(value, filters, output_shape, rate, padding, name=None):
    """Transposed atrous 2-D convolution (tf.nn.atrous_conv2d_transpose): SpaceToBatch,
    Conv2DBackpropInput with VALID padding, BatchToSpace, as TensorFlow builds it.
    value NHWC; filters [h, w, out, in]; output_shape 4 ints. ValueError for rate < 1,
    channel mismatches or padding other than SAME/VALID."""
    a = _a()
    from minitf.ops import indexing_ops
    from minitf.ops.nn_impl import space_to_batch
    with ops.name_scope(name, "atrous_conv2d_transpose", [value, filters, output_shape]) as name:
        value = ops.convert_to_tensor(value, name="value")
        filters = ops.convert_to_tensor(filters, name="filters")
        if not value.get_shape().dims[3].is_compatible_with(filters.get_shape()[3]):
            raise ValueError(
                "`value` channel count must be compatible with `filters` input channel count. "
                "Received: value.shape=%s with channel count %s and filters.shape=%s with input "
                "channel count %s." % (value.get_shape(), value.get_shape()[3],
                                       filters.get_shape(), filters.get_shape()[3]))
        if rate < 1:
            raise ValueError("`rate` cannot be less than one. Received: rate=%s" % rate)
        if rate == 1:
            return nn_conv.conv2d_transpose(value, filters, output_shape, strides=[1, 1, 1, 1],
                                            padding=padding, data_format="NHWC")
        output_shape_ = ops.convert_to_tensor(output_shape, name="output_shape")
        if not output_shape_.get_shape().is_compatible_with(tensor_shape.TensorShape([4])):
            raise ValueError("`output_shape` must have shape (4,). Received: output_shape=%s"
                             % output_shape_.get_shape())
        if isinstance(output_shape, tuple):
            output_shape = list(output_shape)
        if isinstance(output_shape, (list, np.ndarray)):
            if not filters.get_shape().dims[2].is_compatible_with(output_shape[3]):
                raise ValueError(
                    "`output_shape` channel count must be compatible with `filters` output "
                    "channel count. Received: output_shape=%s with channel count %s and "
                    "filters.shape=%s with output channel count %s."
                    % (output_shape, output_shape[3], filters.get_shape(),
                       filters.get_shape()[3]))
        if padding == "SAME":
            if filters.get_shape().is_fully_defined():
                filter_shape = filters.get_shape().as_list()
            else:
                filter_shape = a.shape(filters)
            fh, fw = filter_shape[0], filter_shape[1]
            pad_height = fh + (fh - 1) * (rate - 1) - 1
            pad_width = fw + (fw - 1) * (rate - 1) - 1
            pad_top = pad_height // 2
            pad_bottom = pad_height - pad_top
            pad_left = pad_width // 2
            pad_right = pad_width - pad_left
        elif padding == "VALID":
            pad_top = pad_bottom = pad_left = pad_right = 0
        else:
            raise ValueError("`padding` must be either 'VALID' or 'SAME'. Received: padding=%s"
                             % padding)
        in_height = output_shape[1] + pad_top + pad_bottom
        in_width = output_shape[2] + pad_left + pad_right
        pad_bottom_extra = (rate - in_height % rate) % rate
        pad_right_extra = (rate - in_width % rate) % rate
        value = space_to_batch(input=value, paddings=[[0, pad_bottom_extra],
                                                      [0, pad_right_extra]], block_size=rate)
        input_sizes = [rate * rate * output_shape[0], (in_height + pad_bottom_extra) // rate,
                       (in_width + pad_right_extra) // rate, output_shape[3]]
        value = _op("Conv2DBackpropInput", input_sizes=input_sizes, filter=filters,
                    out_backprop=value, strides=[1, 1, 1, 1], padding="VALID",
                    data_format="NHWC")
        crops = [[pad_top, pad_bottom + pad_bottom_extra], [pad_left, pad_right + pad_right_extra]]
        return batch_to_space(input=value, crops=crops, block_size=rate)


def batch_to_space(input, crops, block_size, name=None, block_shape=None):  # noqa: A002
    """BatchToSpaceND of a 4-D input with block [block_size, block_size]
    (tf.compat.v1.batch_to_space)."""
    from minitf.ops import indexing_ops
    block_size = _lookup("block_shape", block_shape, "block_size", block_size)
    result = indexing_ops.batch_to_space_nd(
        input, crops=crops, block_shape=np.array([block_size, block_size], dtype=np.int64),
        name=name)
    result.set_shape(result.get_shape().with_rank(4))
    return result


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding,  # noqa: A002
                     rate=None, name=None, data_format=None, dilations=None):
    """Depthwise convolution (with optional atrous rate, through with_space_to_batch)
    followed by a 1x1 Conv2D (tf.compat.v1.nn.separable_conv2d). input NHWC;
    depthwise_filter [h, w, in, multiplier]; pointwise_filter [1, 1, in * multiplier, out].
    ValueError when pointwise_filter is not 1x1."""
    rate = _lookup("dilations", dilations, "rate", rate)
    with ops.name_scope(name, "separable_conv2d",
                        [input, depthwise_filter, pointwise_filter]) as name:
        input = ops.convert_to_tensor(input, name="tensor_in")  # noqa: A001
        depthwise_filter = ops.convert_to_tensor(depthwise_filter, name="depthwise_filter")
        pointwise_filter = ops.convert_to_tensor(pointwise_filter, name="pointwise_filter")
        pointwise_filter_shape = pointwise_filter.get_shape().with_rank(4)
        pointwise_filter_shape.dims[0].assert_is_compatible_with(1)
        pointwise_filter_shape.dims[1].assert_is_compatible_with(1)
        if rate is None:
            rate = [1, 1]

        def op(input_converted, _, padding):
            return nn_conv.depthwise_conv2d_native(
                input=input_converted, filter=depthwise_filter, strides=strides,
                padding=padding, data_format=data_format or "NHWC", name="depthwise")

        depthwise = with_space_to_batch(input=input, filter_shape=_a().shape(depthwise_filter),
                                        dilation_rate=rate, padding=padding,
                                        data_format=data_format, op=op)
        return nn_conv.conv2d(depthwise, pointwise_filter, [1, 1, 1, 1], padding="VALID",
                              data_format=data_format or "NHWC", name=name)


# ---- pooling ----

def pool(input, window_shape, pooling_type, padding, dilation_rate=None,  # noqa: A002
         strides=None, name=None, data_format=None, dilations=None):
    """N-D max or average pooling, N = 1, 2 or 3, atrous
    through with_space_to_batch (tf.compat.v1.nn.pool). pooling_type "MAX" or "AVG".
    ValueError for SAME padding with a dilation > 1 or strides > window_shape."""
    dilation_rate = _lookup("dilations", dilations, "dilation_rate", dilation_rate)
    a = _a()
    with ops.name_scope(name, "%s_pool" % (pooling_type.lower()), [input]) as scope:
        input = ops.convert_to_tensor(input, name="input")  # noqa: A001
        num_spatial_dims = len(window_shape)
        if num_spatial_dims < 1 or num_spatial_dims > 3:
            raise ValueError("`len(window_shape)` must be 1, 2, or 3. Received: window_shape=%s "
                             "of length %d" % (window_shape, len(window_shape)))
        input.get_shape().with_rank(num_spatial_dims + 2)
        strides, dilation_rate = _get_strides_and_dilation_rate(num_spatial_dims, strides,
                                                                dilation_rate)
        if padding == "SAME" and np.any(dilation_rate > 1):
            raise ValueError("pooling with 'SAME' padding is not implemented for "
                             "`dilation_rate` > 1. Received: padding=%s and dilation_rate=%s"
                             % (padding, dilation_rate))
        if np.any(strides > window_shape):
            raise ValueError("`strides` > `window_shape` not supported due to inconsistency "
                             "between CPU and GPU implementations. Received: strides=%s and "
                             "window_shape=%s" % (strides, window_shape))
        pooling_ops = {("MAX", 1): nn_conv.max_pool, ("MAX", 2): nn_conv.max_pool,
                       ("AVG", 1): nn_conv.avg_pool, ("AVG", 2): nn_conv.avg_pool}
        pooling_ops[("MAX", 3)] = max_pool3d
        pooling_ops[("AVG", 3)] = avg_pool3d
        op_key = (pooling_type, num_spatial_dims)
        if op_key not in pooling_ops:
            raise ValueError("%d-D %s pooling is not supported." % (num_spatial_dims,
                                                                    pooling_type))
        if data_format is None or not data_format.startswith("NC"):
            adjusted_window_shape = [1] + list(window_shape) + [1]
            adjusted_strides = [1] + list(strides) + [1]
            spatial_dims = range(1, num_spatial_dims + 1)
        else:
            adjusted_window_shape = [1, 1] + list(window_shape)
            adjusted_strides = [1, 1] + list(strides)
            spatial_dims = range(2, num_spatial_dims + 2)
        if num_spatial_dims == 1:
            if data_format is None or data_format == "NWC":
                data_format_kwargs = dict(data_format="NHWC")
            elif data_format == "NCW":
                data_format_kwargs = dict(data_format="NCHW")
            else:
                raise ValueError("data_format must be either 'NWC' or 'NCW'. Received: "
                                 "data_format=%s" % data_format)
            adjusted_window_shape = [1] + adjusted_window_shape
            adjusted_strides = [1] + adjusted_strides
        else:
            data_format_kwargs = dict(data_format=data_format)
        if data_format_kwargs["data_format"] is None:
            data_format_kwargs = {}

        def op(converted_input, _, converted_padding):
            if num_spatial_dims == 1:
                converted_input = a.expand_dims(converted_input, spatial_dims[0])
            result = pooling_ops[op_key](converted_input, adjusted_window_shape,
                                         [int(s) for s in adjusted_strides], converted_padding,
                                         name=scope, **data_format_kwargs)
            if num_spatial_dims == 1:
                result = a.squeeze(result, [spatial_dims[0]])
            return result

        return with_space_to_batch(input=input, dilation_rate=dilation_rate, padding=padding,
                                   op=op, spatial_dims=spatial_dims, filter_shape=window_shape)


def _pool1d(op_type, default_name, input, ksize, strides, padding, data_format,  # noqa: A002
            name, explicit=False):
    a = _a()
    with ops.name_scope(name, default_name, [input]) as name:
        if data_format is None:
            data_format = "NWC"
        channel_index = 1 if data_format.startswith("NC") else 2
        ksize = [1] + _get_sequence(ksize, 1, channel_index, "ksize")
        strides = [1] + _get_sequence(strides, 1, channel_index, "strides")
        kw = {}
        if explicit:
            padding, explicit_paddings = _convert_padding(padding, 3)
            if padding == "EXPLICIT":
                explicit_paddings = [0, 0] + explicit_paddings
            kw["explicit_paddings"] = explicit_paddings
        expanding_dim = 1 if data_format == "NWC" else 2
        data_format = "NHWC" if data_format == "NWC" else "NCHW"
        input = a.expand_dims(input, expanding_dim)  # noqa: A001
        result = _op(op_type, value=input, ksize=ksize, strides=strides, padding=padding,
                     data_format=data_format, name=name, **kw) if op_type == "AvgPool" else \
            _op(op_type, input=input, ksize=ksize, strides=strides, padding=padding,
                data_format=data_format, name=name, **kw)
        return a.squeeze(result, expanding_dim)


def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """1-D max pooling as a MaxPool over an expanded dim (tf.nn.max_pool1d). input
    [batch, width, channels] (NWC) or NCW; ksize, strides: 1 or 3 ints; padding SAME, VALID
    or 3 [before, after] pairs."""
    return _pool1d("MaxPool", "MaxPool1d", input, ksize, strides, padding, data_format, name,
                   explicit=True)


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """1-D average pooling as an AvgPool over an expanded dim (tf.nn.avg_pool1d)."""
    return _pool1d("AvgPool", "AvgPool1D", input, ksize, strides, padding, data_format, name)


# ---- backprops under their tf.nn names ----

def conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                           use_cudnn_on_gpu=True, data_format="NHWC",
                           dilations=[1, 1, 1, 1], name=None):  # noqa: B006
    """Gradient of conv2d with respect to its filter (tf.compat.v1.nn.conv2d_backprop_filter;
    op Conv2DBackpropFilter). filter_sizes: int32 [4]."""
    padding, explicit_paddings = _convert_padding(padding)
    return _op("Conv2DBackpropFilter", input=input, filter_sizes=filter_sizes,
               out_backprop=out_backprop, strides=strides, padding=padding,
               use_cudnn_on_gpu=use_cudnn_on_gpu, explicit_paddings=explicit_paddings,
               data_format=data_format, dilations=dilations, name=name)


def depthwise_conv2d_native_backprop_input(input_sizes, filter, out_backprop,  # noqa: A002
                                           strides, padding, data_format="NHWC",
                                           dilations=[1, 1, 1, 1], name=None):  # noqa: B006
    """Gradient of depthwise_conv2d_native with respect to its input
    (tf.nn.depthwise_conv2d_backprop_input; op DepthwiseConv2dNativeBackpropInput)."""
    padding, explicit_paddings = _convert_padding(padding)
    return _op("DepthwiseConv2dNativeBackpropInput", input_sizes=input_sizes, filter=filter,
               out_backprop=out_backprop, strides=strides, padding=padding,
               explicit_paddings=explicit_paddings, data_format=data_format,
               dilations=dilations, name=name)


def depthwise_conv2d_native_backprop_filter(input, filter_sizes, out_backprop,  # noqa: A002
                                            strides, padding, data_format="NHWC",
                                            dilations=[1, 1, 1, 1], name=None):  # noqa: B006
    """Gradient of depthwise_conv2d_native with respect to its filter
    (tf.nn.depthwise_conv2d_backprop_filter; op DepthwiseConv2dNativeBackpropFilter)."""
    padding, explicit_paddings = _convert_padding(padding)
    return _op("DepthwiseConv2dNativeBackpropFilter", input=input, filter_sizes=filter_sizes,
               out_backprop=out_backprop, strides=strides, padding=padding,
               explicit_paddings=explicit_paddings, data_format=data_format,
               dilations=dilations, name=name)


# ---- 3-D convolution and pooling (ops of runtime/kernels/conv3d_ops.c) ----

def conv3d(input, filter=None, strides=None, padding=None, data_format="NDHWC",  # noqa: A002
           dilations=[1, 1, 1, 1, 1], name=None, filters=None):  # noqa: B006
    """3-D convolution (tf.compat.v1.nn.conv3d; op Conv3D). input [batch, depth, height,
    width, in] (NDHWC) or NCDHW, float32/float64 (half/bfloat16 have no CPU kernel here);
    filter (alias filters) [d, h, w, in / groups, out]; strides, dilations: 5 ints with 1
    for batch and channels; padding SAME or VALID. ValueError at construction when the
    input depth is not a multiple of the filter's."""
    filter = _lookup("filters", filters, "filter", filter)  # noqa: A001
    return _op("Conv3D", input=input, filter=filter, strides=strides, padding=padding,
               data_format=data_format, dilations=dilations, name=name)


def conv3d_backprop_filter_v2(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                              data_format="NDHWC", dilations=[1, 1, 1, 1, 1],  # noqa: B006
                              name=None):
    """Gradient of conv3d with respect to its filter (tf.compat.v1.nn.conv3d_backprop_filter
    and _v2; op Conv3DBackpropFilterV2). filter_sizes: int32 [5]."""
    return _op("Conv3DBackpropFilterV2", input=input, filter_sizes=filter_sizes,
               out_backprop=out_backprop, strides=strides, padding=padding,
               data_format=data_format, dilations=dilations, name=name)


conv3d_backprop_filter = conv3d_backprop_filter_v2


def conv3d_transpose(value, filter=None, output_shape=None, strides=None,  # noqa: A002
                     padding="SAME", data_format="NDHWC", name=None, input=None,  # noqa: A002
                     filters=None, dilations=None):
    """Transposed 3-D convolution (tf.compat.v1.nn.conv3d_transpose; op
    Conv3DBackpropInputV2). value (alias input) [batch, d, h, w, in]; filter (alias filters)
    [d, h, w, out, in]; output_shape: 5 ints or an int32 tensor; strides: 1, 3 or 5 ints."""
    filter = _lookup("filters", filters, "filter", filter)  # noqa: A001
    value = _lookup("input", input, "value", value)
    with ops.name_scope(name, "conv3d_transpose", [value, filter, output_shape]) as name:
        if data_format is None:
            data_format = "NDHWC"
        channel_index = 1 if data_format.startswith("NC") else 4
        strides = _get_sequence(strides, 3, channel_index, "strides")
        dilations = _get_sequence(dilations, 3, channel_index, "dilations")
        return _op("Conv3DBackpropInputV2", input_sizes=output_shape, filter=filter,
                   out_backprop=value, strides=strides, padding=padding,
                   data_format=data_format, dilations=dilations, name=name)


def _pool3d(op_type, default_name, input, ksize, strides, padding, data_format,  # noqa: A002
            name, channel_last):
    with ops.name_scope(name, default_name, [input]) as name:
        if data_format is None:
            data_format = "NDHWC"
        channel_index = 1 if data_format.startswith("NC") else channel_last
        ksize = _get_sequence(ksize, 3, channel_index, "ksize")
        strides = _get_sequence(strides, 3, channel_index, "strides")
        return _op(op_type, input=input, ksize=ksize, strides=strides, padding=padding,
                   data_format=data_format, name=name)


def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """3-D max pooling (tf.nn.max_pool3d; op MaxPool3D). input 5-D float32 NDHWC (or NCDHW);
    ksize, strides: 1, 3 or 5 ints; padding SAME or VALID (padding cells never win)."""
    return _pool3d("MaxPool3D", "MaxPool3D", input, ksize, strides, padding, data_format, name,
                   4)


def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """3-D average pooling over in-bounds cells (tf.nn.avg_pool3d; op AvgPool3D); arguments
    as max_pool3d."""
    return _pool3d("AvgPool3D", "AvgPool3D", input, ksize, strides, padding, data_format, name,
                   3)
