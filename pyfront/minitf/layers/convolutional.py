"""tf.compat.v1.layers convolutions (TensorFlow 2.21: tf-keras's legacy layers over
keras.layers.Conv1D/2D, Conv2DTranspose, SeparableConv1D/2D) and their functional forms,
with TensorFlow's op sequences (conv2d/Conv2D, conv1d/Conv1D/ExpandDims ... Squeeze,
conv2d_transpose/conv2d_transpose, separable_conv2d/separable_conv2d/depthwise, then BiasAdd
and the activation).

One difference: a dilated convolution passes its rate as the Conv2D op's `dilations` (the
same values); TensorFlow builds it with SpaceToBatchND / BatchToSpaceND around the Conv2D.
"""
import warnings

from minitf.framework import constant_op, dtypes, ops, tensor_shape
from minitf.layers import base, utils
from minitf.layers.core import get_activation
from minitf.ops import array_ops, indexing_ops, init_ops, nn_conv, nn_conv_nd, nn_ops


def _expand_dims(x, axis):
    return array_ops.expand_dims(x, axis)


class _Conv(base.Layer):
    """N-D convolution layer (rank 1, 2 or 3): activation(conv(inputs, kernel) + bias).

    Args: filters (> 0); kernel_size, strides, dilation_rate: an int or `rank` ints;
    padding "valid"/"same" ("causal" for Conv1D); data_format "channels_last"/
    "channels_first"; activation, use_bias, kernel/bias initializer, regularizer and
    constraint, activity_regularizer, trainable, name.
    Variables "<scope>/kernel" kernel_size + [in_channels, filters] and "<scope>/bias".
    Raises ValueError (Keras's messages) for filters <= 0, zero kernel sizes or strides,
    strides > 1 with dilation_rate > 1, an unknown channel dimension, or inputs of rank
    < rank + 2.
    """

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid",
                 data_format="channels_last", dilation_rate=1, activation=None, use_bias=True,
                 kernel_initializer=None, bias_initializer=init_ops.zeros_initializer(),
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
                 **kwargs):
        super().__init__(trainable=trainable, name=name,
                         activity_regularizer=activity_regularizer, **kwargs)
        self.rank = rank
        if isinstance(filters, float):
            filters = int(filters)
        if filters is not None and filters <= 0:
            raise ValueError("Invalid value for argument `filters`. Expected a strictly "
                             f"positive value. Received filters={filters}.")
        self.filters = filters
        self.kernel_size = utils.normalize_tuple(kernel_size, rank, "kernel_size")
        self.strides = utils.normalize_tuple(strides, rank, "strides", allow_zero=True)
        self.padding = utils.normalize_padding(padding)
        self.data_format = utils.normalize_data_format(data_format)
        self.dilation_rate = utils.normalize_tuple(dilation_rate, rank, "dilation_rate")
        self.activation = get_activation(activation)
        self.use_bias = use_bias
        self.kernel_initializer = kernel_initializer
        self.bias_initializer = bias_initializer
        self.kernel_regularizer = kernel_regularizer
        self.bias_regularizer = bias_regularizer
        self.kernel_constraint = kernel_constraint
        self.bias_constraint = bias_constraint
        self.input_spec = base.InputSpec(min_ndim=rank + 2)
        self._validate_init()
        self._channels_first = self.data_format == "channels_first"
        self._tf_data_format = utils.convert_data_format(self.data_format, rank + 2)

    def _validate_init(self):
        if not all(self.kernel_size):
            raise ValueError("The argument `kernel_size` cannot contain 0(s). Received: %s"
                             % (self.kernel_size,))
        if not all(self.strides):
            raise ValueError("The argument `strides` cannot contains 0(s). Received: %s"
                             % (self.strides,))
        if self.padding == "causal" and not isinstance(self, (Conv1D, SeparableConv1D)):
            raise ValueError("Causal padding is only supported for `Conv1D`and "
                             "`SeparableConv1D`.")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError("`strides > 1` not supported in conjunction with "
                             f"`dilation_rate > 1`. Received: strides={self.strides} and "
                             f"dilation_rate={self.dilation_rate}")

    def _get_channel_axis(self):
        return 1 if self.data_format == "channels_first" else -1

    def _get_input_channel(self, input_shape):
        channel_axis = self._get_channel_axis()
        if input_shape.dims[channel_axis].value is None:
            raise ValueError("The channel dimension of the inputs should be defined. The "
                             f"input_shape received is {input_shape}, where axis "
                             f"{channel_axis} (0-based) is the channel dimension, which "
                             "found to be `None`.")
        return int(input_shape[channel_axis])

    def build(self, input_shape):
        input_shape = tensor_shape.TensorShape(input_shape)
        input_channel = self._get_input_channel(input_shape)
        kernel_shape = self.kernel_size + (input_channel, self.filters)
        self.compute_output_shape(input_shape)
        self.kernel = self.add_weight(name="kernel", shape=kernel_shape,
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint, trainable=True,
                                      dtype=self.dtype)
        if self.use_bias:
            self.bias = self.add_weight(name="bias", shape=(self.filters,),
                                        initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint, trainable=True,
                                        dtype=self.dtype)
        else:
            self.bias = None
        self.input_spec = base.InputSpec(min_ndim=self.rank + 2,
                                         axes={self._get_channel_axis(): input_channel})
        self.built = True

    def _compute_causal_padding(self):
        left_pad = self.dilation_rate[0] * (self.kernel_size[0] - 1)
        if self.data_format == "channels_last":
            return [[0, 0], [left_pad, 0], [0, 0]]
        return [[0, 0], [0, 0], [left_pad, 0]]

    def _convolution_op(self, inputs, kernel):
        padding = "VALID" if self.padding == "causal" else self.padding.upper()
        if self.rank == 3:
            # Keras's tf.nn.convolution(name="Conv3D"): Conv3D, or SpaceToBatchND + Conv3D +
            # BatchToSpaceND when a dilation rate is > 1 (as TensorFlow builds it).
            return nn_conv_nd.convolution_internal(
                inputs, kernel, strides=list(self.strides), padding=padding,
                dilations=list(self.dilation_rate), data_format=self._tf_data_format,
                name=type(self).__name__)
        with ops.name_scope(None, type(self).__name__, [inputs, kernel]) as name:
            if self.rank == 1:
                return self._conv1d(inputs, kernel, padding, name)
            kernel = ops.convert_to_tensor(kernel)
            fmt = self._tf_data_format
            ci = 1 if fmt.startswith("NC") else len(fmt) - 1
            strides = [1] * (self.rank + 2)
            dilations = [1] * (self.rank + 2)
            spatial = [i for i in range(self.rank + 2) if i not in (0, ci)]
            for i, axis in enumerate(spatial):
                strides[axis] = self.strides[i]
                dilations[axis] = self.dilation_rate[i]
            return nn_conv._op("Conv2D", name=name, input=inputs, filter=kernel,
                               strides=strides, padding=padding, data_format=fmt,
                               dilations=dilations)

    def _conv1d(self, inputs, kernel, padding, name):
        # tf.nn.conv1d: a Conv2D over a height-1 image (ExpandDims at -3 / -2).
        if self._channels_first:
            spatial_start_dim, fmt = -2, "NCHW"
            strides = [1, 1, 1, self.strides[0]]
            dilations = [1, 1, 1, self.dilation_rate[0]]
        else:
            spatial_start_dim, fmt = -3, "NHWC"
            strides = [1, 1, self.strides[0], 1]
            dilations = [1, 1, self.dilation_rate[0], 1]
        value = _expand_dims(inputs, spatial_start_dim)
        filters = _expand_dims(kernel, 0)
        result = nn_conv._op("Conv2D", name=name, input=value, filter=filters,
                             strides=strides, padding=padding, data_format=fmt,
                             dilations=dilations)
        return array_ops.squeeze(result, [spatial_start_dim])

    def call(self, inputs):
        input_shape = inputs.shape
        if self.padding == "causal":
            inputs = indexing_ops.pad(inputs, self._compute_causal_padding())
        outputs = self._convolution_op(inputs, self.kernel)
        if self.use_bias:
            if self.rank == 1 and self._channels_first:
                bias = array_ops.reshape(self.bias, (1, self.filters, 1))
                outputs += bias
            else:
                # tf.nn.bias_add reads NWC/NDHWC as NHWC and NCW/NCDHW as NCHW.
                fmt = "NCHW" if self._channels_first else "NHWC"
                outputs = nn_ops.bias_add(outputs, self.bias, data_format=fmt)
        if input_shape.rank:
            outputs.set_shape(self.compute_output_shape(input_shape))
        if self.activation is not None:
            return self.activation(outputs)
        return outputs

    def _spatial_output_shape(self, spatial_input_shape):
        return [utils.conv_output_length(length, self.kernel_size[i], padding=self.padding,
                                         stride=self.strides[i],
                                         dilation=self.dilation_rate[i])
                for i, length in enumerate(spatial_input_shape)]

    def compute_output_shape(self, input_shape):
        input_shape = tensor_shape.TensorShape(input_shape).as_list()
        batch_rank = len(input_shape) - self.rank - 1
        if self.data_format == "channels_last":
            out = (input_shape[:batch_rank] +
                   self._spatial_output_shape(input_shape[batch_rank:-1]) + [self.filters])
        else:
            out = (input_shape[:batch_rank] + [self.filters] +
                   self._spatial_output_shape(input_shape[batch_rank + 1:]))
        if any(d is not None and d < 0 for d in out):
            raise ValueError("One of the dimensions in the output is <= 0 due to downsampling "
                             f"in {self.name}. Consider increasing the input size. Received "
                             f"input shape {input_shape} which would produce output shape "
                             "with a zero or negative value in a dimension.")
        return tensor_shape.TensorShape(out)


_CONV_DOC = """{cls} layer (tf.compat.v1.layers.{cls}); see _Conv for the arguments."""


class Conv1D(_Conv):
    __doc__ = _CONV_DOC.format(cls="Conv1D")

    def __init__(self, filters, kernel_size, strides=1, padding="valid",
                 data_format="channels_last", dilation_rate=1, activation=None, use_bias=True,
                 kernel_initializer=None, bias_initializer=init_ops.zeros_initializer(),
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
                 **kwargs):
        super().__init__(1, filters, kernel_size, strides, padding, data_format,
                         dilation_rate, activation, use_bias, kernel_initializer,
                         bias_initializer, kernel_regularizer, bias_regularizer,
                         activity_regularizer, kernel_constraint, bias_constraint, trainable,
                         name, **kwargs)


class Conv2D(_Conv):
    __doc__ = _CONV_DOC.format(cls="Conv2D")

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid",
                 data_format="channels_last", dilation_rate=(1, 1), activation=None,
                 use_bias=True, kernel_initializer=None,
                 bias_initializer=init_ops.zeros_initializer(), kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, trainable=True, name=None, **kwargs):
        super().__init__(2, filters, kernel_size, strides, padding, data_format,
                         dilation_rate, activation, use_bias, kernel_initializer,
                         bias_initializer, kernel_regularizer, bias_regularizer,
                         activity_regularizer, kernel_constraint, bias_constraint, trainable,
                         name, **kwargs)


def _functional(cls, inputs, reuse, name, warn, **kw):
    warnings.warn("`tf.layers.%s` is deprecated and will be removed in a future version. "
                  "Please Use `tf.keras.layers.%s` instead." % (warn, cls.__name__),
                  stacklevel=3)
    layer = cls(name=name, _reuse=reuse, _scope=name, **kw)
    return layer(inputs)


def conv1d(inputs, filters, kernel_size, strides=1, padding="valid",
           data_format="channels_last", dilation_rate=1, activation=None, use_bias=True,
           kernel_initializer=None, bias_initializer=init_ops.zeros_initializer(),
           kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
           kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
           reuse=None):
    """Functional form of Conv1D (tf.compat.v1.layers.conv1d)."""
    return _functional(Conv1D, inputs, reuse, name, "conv1d", filters=filters,
                       kernel_size=kernel_size, strides=strides, padding=padding,
                       data_format=data_format, dilation_rate=dilation_rate,
                       activation=activation, use_bias=use_bias,
                       kernel_initializer=kernel_initializer,
                       bias_initializer=bias_initializer,
                       kernel_regularizer=kernel_regularizer,
                       bias_regularizer=bias_regularizer,
                       activity_regularizer=activity_regularizer,
                       kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                       trainable=trainable)


def conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
           data_format="channels_last", dilation_rate=(1, 1), activation=None, use_bias=True,
           kernel_initializer=None, bias_initializer=init_ops.zeros_initializer(),
           kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
           kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
           reuse=None):
    """Functional form of Conv2D (tf.compat.v1.layers.conv2d)."""
    return _functional(Conv2D, inputs, reuse, name, "conv2d", filters=filters,
                       kernel_size=kernel_size, strides=strides, padding=padding,
                       data_format=data_format, dilation_rate=dilation_rate,
                       activation=activation, use_bias=use_bias,
                       kernel_initializer=kernel_initializer,
                       bias_initializer=bias_initializer,
                       kernel_regularizer=kernel_regularizer,
                       bias_regularizer=bias_regularizer,
                       activity_regularizer=activity_regularizer,
                       kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                       trainable=trainable)


class Conv2DTranspose(Conv2D):
    """Transposed 2-D convolution (tf.compat.v1.layers.Conv2DTranspose): kernel
    kernel_size + [filters, in_channels]; output size per spatial dim in * stride +
    max(kernel - stride, 0) ("valid") or in * stride ("same")."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid",
                 data_format="channels_last", activation=None, use_bias=True,
                 kernel_initializer=None, bias_initializer=init_ops.zeros_initializer(),
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
                 **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, activation=activation, use_bias=use_bias,
                         kernel_initializer=kernel_initializer,
                         bias_initializer=bias_initializer,
                         kernel_regularizer=kernel_regularizer,
                         bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         kernel_constraint=kernel_constraint,
                         bias_constraint=bias_constraint, trainable=trainable, name=name,
                         **kwargs)
        self.output_padding = None
        self.input_spec = base.InputSpec(ndim=4)

    def build(self, input_shape):
        input_shape = tensor_shape.TensorShape(input_shape)
        if len(input_shape) != 4:
            raise ValueError("Inputs should have rank 4. Received input_shape=%s"
                             % (input_shape,))
        channel_axis = self._get_channel_axis()
        if input_shape.dims[channel_axis].value is None:
            raise ValueError("The channel dimension of the inputs to `Conv2DTranspose` "
                             f"should be defined. The input_shape received is {input_shape}, "
                             f"where axis {channel_axis} (0-based) is the channel dimension, "
                             "which found to be `None`.")
        input_dim = int(input_shape[channel_axis])
        self.input_spec = base.InputSpec(ndim=4, axes={channel_axis: input_dim})
        kernel_shape = self.kernel_size + (self.filters, input_dim)
        self.kernel = self.add_weight(name="kernel", shape=kernel_shape,
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint, trainable=True,
                                      dtype=self.dtype)
        if self.use_bias:
            self.bias = self.add_weight(name="bias", shape=(self.filters,),
                                        initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint, trainable=True,
                                        dtype=self.dtype)
        else:
            self.bias = None
        self.built = True

    def call(self, inputs):
        inputs_shape = array_ops.shape(inputs)
        batch_size = inputs_shape[0]
        h_axis, w_axis = (2, 3) if self.data_format == "channels_first" else (1, 2)
        height = width = None
        if inputs.shape.rank is not None:
            dims = inputs.shape.as_list()
            height, width = dims[h_axis], dims[w_axis]
        height = height if height is not None else inputs_shape[h_axis]
        width = width if width is not None else inputs_shape[w_axis]
        out_height = utils.deconv_output_length(height, self.kernel_size[0], self.padding,
                                                stride=self.strides[0],
                                                dilation=self.dilation_rate[0])
        out_width = utils.deconv_output_length(width, self.kernel_size[1], self.padding,
                                               stride=self.strides[1],
                                               dilation=self.dilation_rate[1])
        if self.data_format == "channels_first":
            output_shape = (batch_size, self.filters, out_height, out_width)
            fmt, strides = "NCHW", (1, 1) + self.strides
        else:
            output_shape = (batch_size, out_height, out_width, self.filters)
            fmt, strides = "NHWC", (1,) + self.strides + (1,)
        output_shape_tensor = array_ops.stack(output_shape)
        # Keras's backend.conv2d_transpose looks at output_shape[0] (a strided slice).
        output_shape_tensor[0]
        outputs = nn_conv.conv2d_transpose(inputs, self.kernel, output_shape_tensor,
                                           strides, padding=self.padding.upper(),
                                           data_format=fmt)
        if inputs.shape.rank:
            outputs.set_shape(self.compute_output_shape(inputs.shape))
        if self.use_bias:
            outputs = nn_ops.bias_add(outputs, self.bias, data_format=fmt)
        if self.activation is not None:
            return self.activation(outputs)
        return outputs

    def compute_output_shape(self, input_shape):
        output_shape = list(tensor_shape.TensorShape(input_shape).as_list())
        if self.data_format == "channels_first":
            c_axis, h_axis, w_axis = 1, 2, 3
        else:
            c_axis, h_axis, w_axis = 3, 1, 2
        output_shape[c_axis] = self.filters
        output_shape[h_axis] = utils.deconv_output_length(
            output_shape[h_axis], self.kernel_size[0], self.padding, stride=self.strides[0],
            dilation=self.dilation_rate[0])
        output_shape[w_axis] = utils.deconv_output_length(
            output_shape[w_axis], self.kernel_size[1], self.padding, stride=self.strides[1],
            dilation=self.dilation_rate[1])
        return tensor_shape.TensorShape(output_shape)


def conv2d_transpose(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
                     data_format="channels_last", activation=None, use_bias=True,
                     kernel_initializer=None, bias_initializer=init_ops.zeros_initializer(),
                     kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                     kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
                     reuse=None):
    """Functional form of Conv2DTranspose (tf.compat.v1.layers.conv2d_transpose)."""
    return _functional(Conv2DTranspose, inputs, reuse, name, "conv2d_transpose",
                       filters=filters, kernel_size=kernel_size, strides=strides,
                       padding=padding, data_format=data_format, activation=activation,
                       use_bias=use_bias, kernel_initializer=kernel_initializer,
                       bias_initializer=bias_initializer,
                       kernel_regularizer=kernel_regularizer,
                       bias_regularizer=bias_regularizer,
                       activity_regularizer=activity_regularizer,
                       kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                       trainable=trainable)


class _SeparableConv(_Conv):
    """Depthwise then pointwise convolution: variables "<scope>/depthwise_kernel"
    kernel_size + [in_channels, depth_multiplier], "<scope>/pointwise_kernel"
    [1]*rank + [in_channels * depth_multiplier, filters], "<scope>/bias"."""

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid",
                 data_format="channels_last", dilation_rate=1, depth_multiplier=1,
                 activation=None, use_bias=True, depthwise_initializer=None,
                 pointwise_initializer=None, bias_initializer=init_ops.zeros_initializer(),
                 depthwise_regularizer=None, pointwise_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, depthwise_constraint=None,
                 pointwise_constraint=None, bias_constraint=None, trainable=True, name=None,
                 **kwargs):
        super().__init__(rank, filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate,
                         activation=activation, use_bias=use_bias,
                         bias_initializer=bias_initializer, bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         bias_constraint=bias_constraint, trainable=trainable, name=name,
                         **kwargs)
        self.depth_multiplier = depth_multiplier
        self.depthwise_initializer = depthwise_initializer
        self.pointwise_initializer = pointwise_initializer
        self.depthwise_regularizer = depthwise_regularizer
        self.pointwise_regularizer = pointwise_regularizer
        self.depthwise_constraint = depthwise_constraint
        self.pointwise_constraint = pointwise_constraint

    def build(self, input_shape):
        input_shape = tensor_shape.TensorShape(input_shape)
        channel_axis = self._get_channel_axis()
        if input_shape.dims[channel_axis].value is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found "
                             "`None`.")
        input_dim = int(input_shape[channel_axis])
        self.input_spec = base.InputSpec(ndim=self.rank + 2, axes={channel_axis: input_dim})
        depthwise_kernel_shape = self.kernel_size + (input_dim, self.depth_multiplier)
        pointwise_kernel_shape = (1,) * self.rank + (self.depth_multiplier * input_dim,
                                                     self.filters)
        self.depthwise_kernel = self.add_weight(
            name="depthwise_kernel", shape=depthwise_kernel_shape,
            initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer,
            constraint=self.depthwise_constraint, trainable=True, dtype=self.dtype)
        self.pointwise_kernel = self.add_weight(
            name="pointwise_kernel", shape=pointwise_kernel_shape,
            initializer=self.pointwise_initializer, regularizer=self.pointwise_regularizer,
            constraint=self.pointwise_constraint, trainable=True, dtype=self.dtype)
        if self.use_bias:
            self.bias = self.add_weight(name="bias", shape=(self.filters,),
                                        initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint, trainable=True,
                                        dtype=self.dtype)
        else:
            self.bias = None
        self.built = True

    def _separable_conv2d(self, inputs, depthwise, pointwise, strides, padding, rate, fmt):
        # tf.compat.v1.nn.separable_conv2d: DepthwiseConv2dNative "depthwise", then a 1x1
        # Conv2D named after the scope.
        with ops.name_scope(None, "separable_conv2d", [inputs, depthwise, pointwise]) as name:
            inputs = ops.convert_to_tensor(inputs, name="tensor_in")
            depthwise = ops.convert_to_tensor(depthwise, name="depthwise_filter")
            pointwise = ops.convert_to_tensor(pointwise, name="pointwise_filter")
            array_ops.shape(depthwise)
            constant_op.constant(list(rate), dtype=dtypes.int32, name="dilation_rate")
            dil = [1, 1] + list(rate) if fmt == "NCHW" else [1] + list(rate) + [1]
            dw = nn_conv.depthwise_conv2d_native(inputs, depthwise, list(strides), padding,
                                                 data_format=fmt, dilations=dil,
                                                 name="depthwise")
            return nn_conv._op("Conv2D", name=name, input=dw, filter=pointwise,
                               strides=[1, 1, 1, 1], padding="VALID", data_format=fmt)

    def call(self, inputs):
        fmt = utils.convert_data_format(self.data_format, 4)
        if self.rank == 1:
            if self.padding == "causal":
                inputs = indexing_ops.pad(inputs, self._compute_causal_padding())
            if self.data_format == "channels_last":
                strides = (1,) + self.strides * 2 + (1,)
                spatial_start_dim = 1
            else:
                strides = (1, 1) + self.strides * 2
                spatial_start_dim = 2
            inputs = array_ops.expand_dims(inputs, spatial_start_dim)
            depthwise = array_ops.expand_dims(self.depthwise_kernel, 0)
            pointwise = array_ops.expand_dims(self.pointwise_kernel, 0)
            rate = (1,) + self.dilation_rate
            padding = "valid" if self.padding == "causal" else self.padding
            outputs = self._separable_conv2d(inputs, depthwise, pointwise, strides,
                                             padding.upper(), rate, fmt)
            if self.use_bias:
                outputs = nn_ops.bias_add(outputs, self.bias, data_format=fmt)
            outputs = array_ops.squeeze(outputs, [spatial_start_dim])
        else:
            if self.data_format == "channels_last":
                strides = (1,) + self.strides + (1,)
            else:
                strides = (1, 1) + self.strides
            outputs = self._separable_conv2d(inputs, self.depthwise_kernel,
                                             self.pointwise_kernel, strides,
                                             self.padding.upper(), self.dilation_rate, fmt)
            if self.use_bias:
                outputs = nn_ops.bias_add(outputs, self.bias, data_format=fmt)
        if self.activation is not None:
            return self.activation(outputs)
        return outputs


class SeparableConv1D(_SeparableConv):
    """Depthwise separable 1-D convolution (tf.compat.v1.layers.SeparableConv1D)."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid",
                 data_format="channels_last", dilation_rate=1, depth_multiplier=1,
                 activation=None, use_bias=True, depthwise_initializer=None,
                 pointwise_initializer=None, bias_initializer=init_ops.zeros_initializer(),
                 depthwise_regularizer=None, pointwise_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, depthwise_constraint=None,
                 pointwise_constraint=None, bias_constraint=None, trainable=True, name=None,
                 **kwargs):
        super().__init__(1, filters, kernel_size, strides, padding, data_format,
                         dilation_rate, depth_multiplier, activation, use_bias,
                         depthwise_initializer, pointwise_initializer, bias_initializer,
                         depthwise_regularizer, pointwise_regularizer, bias_regularizer,
                         activity_regularizer, depthwise_constraint, pointwise_constraint,
                         bias_constraint, trainable, name, **kwargs)


class SeparableConv2D(_SeparableConv):
    """Depthwise separable 2-D convolution (tf.compat.v1.layers.SeparableConv2D)."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid",
                 data_format="channels_last", dilation_rate=(1, 1), depth_multiplier=1,
                 activation=None, use_bias=True, depthwise_initializer=None,
                 pointwise_initializer=None, bias_initializer=init_ops.zeros_initializer(),
                 depthwise_regularizer=None, pointwise_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, depthwise_constraint=None,
                 pointwise_constraint=None, bias_constraint=None, trainable=True, name=None,
                 **kwargs):
        super().__init__(2, filters, kernel_size, strides, padding, data_format,
                         dilation_rate, depth_multiplier, activation, use_bias,
                         depthwise_initializer, pointwise_initializer, bias_initializer,
                         depthwise_regularizer, pointwise_regularizer, bias_regularizer,
                         activity_regularizer, depthwise_constraint, pointwise_constraint,
                         bias_constraint, trainable, name, **kwargs)


def _separable_functional(cls, warn, inputs, reuse, name, kw):
    return _functional(cls, inputs, reuse, name, warn, **kw)


def separable_conv1d(inputs, filters, kernel_size, strides=1, padding="valid",
                     data_format="channels_last", dilation_rate=1, depth_multiplier=1,
                     activation=None, use_bias=True, depthwise_initializer=None,
                     pointwise_initializer=None, bias_initializer=init_ops.zeros_initializer(),
                     depthwise_regularizer=None, pointwise_regularizer=None,
                     bias_regularizer=None, activity_regularizer=None,
                     depthwise_constraint=None, pointwise_constraint=None,
                     bias_constraint=None, trainable=True, name=None, reuse=None):
    """Functional form of SeparableConv1D (tf.compat.v1.layers.separable_conv1d)."""
    kw = dict(locals())
    for k in ("inputs", "name", "reuse"):
        kw.pop(k)
    return _separable_functional(SeparableConv1D, "separable_conv1d", inputs, reuse, name, kw)


def separable_conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
                     data_format="channels_last", dilation_rate=(1, 1), depth_multiplier=1,
                     activation=None, use_bias=True, depthwise_initializer=None,
                     pointwise_initializer=None, bias_initializer=init_ops.zeros_initializer(),
                     depthwise_regularizer=None, pointwise_regularizer=None,
                     bias_regularizer=None, activity_regularizer=None,
                     depthwise_constraint=None, pointwise_constraint=None,
                     bias_constraint=None, trainable=True, name=None, reuse=None):
    """Functional form of SeparableConv2D (tf.compat.v1.layers.separable_conv2d)."""
    kw = dict(locals())
    for k in ("inputs", "name", "reuse"):
        kw.pop(k)
    return _separable_functional(SeparableConv2D, "separable_conv2d", inputs, reuse, name, kw)


class Conv3D(_Conv):
    """3-D convolution layer (tf.compat.v1.layers.Conv3D) over inputs [batch, depth, height,
    width, channels] ("channels_last"; TensorFlow's CPU Conv3D has no NCDHW kernel, so
    "channels_first" fails when run, as in TensorFlow); kernel kernel_size + [in_channels,
    filters]. Node conv3d/Conv3D (SpaceToBatchND around it for a dilation rate > 1), then
    BiasAdd; see _Conv for the arguments and errors."""

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid",
                 data_format="channels_last", dilation_rate=(1, 1, 1), activation=None,
                 use_bias=True, kernel_initializer=None,
                 bias_initializer=init_ops.zeros_initializer(), kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, trainable=True, name=None, **kwargs):
        super().__init__(3, filters, kernel_size, strides, padding, data_format,
                         dilation_rate, activation, use_bias, kernel_initializer,
                         bias_initializer, kernel_regularizer, bias_regularizer,
                         activity_regularizer, kernel_constraint, bias_constraint, trainable,
                         name, **kwargs)


def conv3d(inputs, filters, kernel_size, strides=(1, 1, 1), padding="valid",
           data_format="channels_last", dilation_rate=(1, 1, 1), activation=None,
           use_bias=True, kernel_initializer=None,
           bias_initializer=init_ops.zeros_initializer(), kernel_regularizer=None,
           bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
           bias_constraint=None, trainable=True, name=None, reuse=None):
    """Functional form of Conv3D (tf.compat.v1.layers.conv3d): inputs 5-D float
    [batch, d, h, w, channels]; returns [batch, d', h', w', filters]. Variables
    "<name or conv3d>/kernel" and ".../bias"; reuse as tf.variable_scope's."""
    return _functional(Conv3D, inputs, reuse, name, "conv3d", filters=filters,
                       kernel_size=kernel_size, strides=strides, padding=padding,
                       data_format=data_format, dilation_rate=dilation_rate,
                       activation=activation, use_bias=use_bias,
                       kernel_initializer=kernel_initializer,
                       bias_initializer=bias_initializer,
                       kernel_regularizer=kernel_regularizer,
                       bias_regularizer=bias_regularizer,
                       activity_regularizer=activity_regularizer,
                       kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                       trainable=trainable)


class Conv3DTranspose(Conv3D):
    """Transposed 3-D convolution (tf.compat.v1.layers.Conv3DTranspose): inputs 5-D
    [batch, d, h, w, in_channels]; kernel kernel_size + [filters, in_channels]; output size
    per spatial dim in * stride + max(kernel - stride, 0) ("valid") or in * stride ("same"),
    computed from the input's dynamic shape (Shape, StridedSlice, Mul, Add, Pack) and fed
    to conv3d_transpose/Conv3DBackpropInputV2, then BiasAdd. ValueError for an input rank
    other than 5 or an unknown channel dimension."""

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid",
                 data_format="channels_last", activation=None, use_bias=True,
                 kernel_initializer=None, bias_initializer=init_ops.zeros_initializer(),
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
                 **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, activation=activation, use_bias=use_bias,
                         kernel_initializer=kernel_initializer,
                         bias_initializer=bias_initializer,
                         kernel_regularizer=kernel_regularizer,
                         bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         kernel_constraint=kernel_constraint,
                         bias_constraint=bias_constraint, trainable=trainable, name=name,
                         **kwargs)
        self.output_padding = None
        self.input_spec = base.InputSpec(ndim=5)

    def build(self, input_shape):
        input_shape = tensor_shape.TensorShape(input_shape)
        if len(input_shape) != 5:
            raise ValueError(f"Inputs should have rank 5. Received input_shape={input_shape}.")
        channel_axis = self._get_channel_axis()
        if input_shape.dims[channel_axis].value is None:
            raise ValueError("The channel dimension of the inputs to `Conv3DTranspose` "
                             f"should be defined. The input_shape received is {input_shape}, "
                             f"where axis {channel_axis} (0-based) is the channel dimension, "
                             "which found to be `None`.")
        input_dim = int(input_shape[channel_axis])
        kernel_shape = self.kernel_size + (self.filters, input_dim)
        self.input_spec = base.InputSpec(ndim=5, axes={channel_axis: input_dim})
        self.kernel = self.add_weight(name="kernel", shape=kernel_shape,
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint, trainable=True,
                                      dtype=self.dtype)
        if self.use_bias:
            self.bias = self.add_weight(name="bias", shape=(self.filters,),
                                        initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint, trainable=True,
                                        dtype=self.dtype)
        else:
            self.bias = None
        self.built = True

    def _spatial_axes(self):
        return (2, 3, 4) if self.data_format == "channels_first" else (1, 2, 3)

    def call(self, inputs):
        inputs_shape = array_ops.shape(inputs)
        batch_size = inputs_shape[0]
        # Keras reads every spatial size from the dynamic shape, known or not.
        sizes = [inputs_shape[axis] for axis in self._spatial_axes()]
        out = [utils.deconv_output_length(size, self.kernel_size[i], padding=self.padding,
                                          stride=self.strides[i])
               for i, size in enumerate(sizes)]
        if self.data_format == "channels_first":
            output_shape = [batch_size, self.filters] + out
            strides = (1, 1) + self.strides
        else:
            output_shape = [batch_size] + out + [self.filters]
            strides = (1,) + self.strides + (1,)
        output_shape_tensor = array_ops.stack(output_shape)
        outputs = nn_conv_nd.conv3d_transpose(
            inputs, self.kernel, output_shape_tensor, strides,
            data_format=utils.convert_data_format(self.data_format, 5),
            padding=self.padding.upper())
        if inputs.shape.rank:
            outputs.set_shape(self.compute_output_shape(inputs.shape))
        if self.use_bias:
            outputs = nn_ops.bias_add(outputs, self.bias,
                                      data_format=utils.convert_data_format(
                                          self.data_format, 4))
        if self.activation is not None:
            return self.activation(outputs)
        return outputs

    def compute_output_shape(self, input_shape):
        output_shape = list(tensor_shape.TensorShape(input_shape).as_list())
        c_axis = 1 if self.data_format == "channels_first" else 4
        output_shape[c_axis] = self.filters
        for i, axis in enumerate(self._spatial_axes()):
            output_shape[axis] = utils.deconv_output_length(
                output_shape[axis], self.kernel_size[i], padding=self.padding,
                stride=self.strides[i])
        return tensor_shape.TensorShape(output_shape)


def conv3d_transpose(inputs, filters, kernel_size, strides=(1, 1, 1), padding="valid",
                     data_format="channels_last", activation=None, use_bias=True,
                     kernel_initializer=None, bias_initializer=init_ops.zeros_initializer(),
                     kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                     kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
                     reuse=None):
    """Functional form of Conv3DTranspose (tf.compat.v1.layers.conv3d_transpose): inputs
    5-D [batch, d, h, w, channels]; returns [batch, d', h', w', filters]."""
    return _functional(Conv3DTranspose, inputs, reuse, name, "conv3d_transpose",
                       filters=filters, kernel_size=kernel_size, strides=strides,
                       padding=padding, data_format=data_format, activation=activation,
                       use_bias=use_bias, kernel_initializer=kernel_initializer,
                       bias_initializer=bias_initializer,
                       kernel_regularizer=kernel_regularizer,
                       bias_regularizer=bias_regularizer,
                       activity_regularizer=activity_regularizer,
                       kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                       trainable=trainable)
