"""tf.compat.v1.layers pooling (TensorFlow 2.21: tf-keras's legacy layers over
keras.layers.MaxPooling1D/2D/3D, AveragePooling1D/2D/3D) and their functional forms, with
TensorFlow's nodes (max_pooling2d/MaxPool; max_pooling1d/ExpandDims, MaxPool, Squeeze)."""
import warnings

from minitf.layers import base, utils
from minitf.ops import array_ops, nn_conv, nn_conv_nd


class _Pooling(base.Layer):
    """Pooling over `rank` spatial dims: pool_size and strides (required, an int or rank
    ints), padding "valid"/"same", data_format. ValueError when strides is None."""

    _rank = 2
    _kind = "max"

    def __init__(self, pool_size, strides, padding="valid", data_format="channels_last",
                 name=None, **kwargs):
        if strides is None:
            raise ValueError("Argument `strides` must not be None.")
        super().__init__(name=name, **kwargs)
        if data_format is None:
            data_format = "channels_last"
        self.pool_size = utils.normalize_tuple(pool_size, self._rank, "pool_size")
        self.strides = utils.normalize_tuple(strides, self._rank, "strides", allow_zero=True)
        self.padding = utils.normalize_padding(padding)
        self.data_format = utils.normalize_data_format(data_format)
        self.input_spec = base.InputSpec(ndim=self._rank + 2)

    def _pool(self, x, ksize, strides, padding, fmt):
        fn = nn_conv.max_pool if self._kind == "max" else nn_conv.avg_pool
        return fn(x, ksize=ksize, strides=strides, padding=padding, data_format=fmt)

    def call(self, inputs):
        if self._rank == 3:
            return self._call3d(inputs)
        if self._rank == 1:
            # backend.pool2d over an added width-1 axis (axis 2, channels_last).
            pad_axis = 2 if self.data_format == "channels_last" else 3
            inputs = array_ops.expand_dims(inputs, pad_axis)
            ksize, strides = self.pool_size + (1,), self.strides + (1,)
            if self.data_format == "channels_last":
                outputs = self._pool(inputs, (1,) + ksize + (1,), (1,) + strides + (1,),
                                     self.padding.upper(), "NHWC")
            else:
                outputs = self._pool(inputs, (1, 1) + ksize, (1, 1) + strides,
                                     self.padding.upper(), "NCHW")
            return array_ops.squeeze(outputs, pad_axis)
        if self.data_format == "channels_last":
            ksize, strides = (1,) + self.pool_size + (1,), (1,) + self.strides + (1,)
        else:
            ksize, strides = (1, 1) + self.pool_size, (1, 1) + self.strides
        return self._pool(inputs, ksize, strides, self.padding.upper(),
                          utils.convert_data_format(self.data_format, 4))

    def _call3d(self, inputs):
        # Keras's Pooling3D: the 3-D pooling ops run NDHWC only, so channels_first inputs
        # are transposed there and back.
        ksize, strides = (1,) + self.pool_size + (1,), (1,) + self.strides + (1,)
        if self.data_format == "channels_first":
            inputs = array_ops.transpose(inputs, (0, 2, 3, 4, 1))
        fn = nn_conv_nd.max_pool3d if self._kind == "max" else nn_conv_nd.avg_pool3d
        outputs = fn(inputs, ksize=ksize, strides=strides, padding=self.padding.upper())
        if self.data_format == "channels_first":
            outputs = array_ops.transpose(outputs, (0, 4, 1, 2, 3))
        return outputs

    def compute_output_shape(self, input_shape):
        from minitf.framework import tensor_shape
        shape = tensor_shape.TensorShape(input_shape).as_list()
        first = 2 if self.data_format == "channels_first" else 1
        for i in range(self._rank):
            shape[first + i] = utils.conv_output_length(shape[first + i], self.pool_size[i],
                                                        self.padding, self.strides[i])
        return tensor_shape.TensorShape(shape)


class MaxPooling1D(_Pooling):
    """Max pooling over 1-D inputs [batch, steps, channels] (tf.compat.v1.layers)."""
    _rank, _kind = 1, "max"


class AveragePooling1D(_Pooling):
    """Average pooling over 1-D inputs [batch, steps, channels] (tf.compat.v1.layers)."""
    _rank, _kind = 1, "avg"


class MaxPooling2D(_Pooling):
    """Max pooling over 2-D inputs [batch, h, w, channels] (tf.compat.v1.layers)."""
    _rank, _kind = 2, "max"


class AveragePooling2D(_Pooling):
    """Average pooling over 2-D inputs [batch, h, w, channels] (tf.compat.v1.layers)."""
    _rank, _kind = 2, "avg"


class MaxPooling3D(_Pooling):
    """Max pooling over 3-D inputs [batch, d, h, w, channels] (tf.compat.v1.layers; node
    max_pooling3d/MaxPool3D, Transposes around it for "channels_first")."""
    _rank, _kind = 3, "max"


class AveragePooling3D(_Pooling):
    """Average pooling over 3-D inputs [batch, d, h, w, channels] (tf.compat.v1.layers;
    node average_pooling3d/AvgPool3D; "same" padding averages the in-bounds cells only)."""
    _rank, _kind = 3, "avg"


def _apply(cls, warn, inputs, pool_size, strides, padding, data_format, name):
    warnings.warn("`tf.layers.%s` is deprecated and will be removed in a future version. "
                  "Please use `tf.keras.layers.%s` instead." % (warn, cls.__name__),
                  stacklevel=3)
    layer = cls(pool_size=pool_size, strides=strides, padding=padding,
                data_format=data_format, name=name)
    return layer(inputs)


def max_pooling1d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                  name=None):
    """Functional form of MaxPooling1D (tf.compat.v1.layers.max_pooling1d)."""
    return _apply(MaxPooling1D, "max_pooling1d", inputs, pool_size, strides, padding,
                  data_format, name)


def average_pooling1d(inputs, pool_size, strides, padding="valid",
                      data_format="channels_last", name=None):
    """Functional form of AveragePooling1D (tf.compat.v1.layers.average_pooling1d)."""
    return _apply(AveragePooling1D, "average_pooling1d", inputs, pool_size, strides, padding,
                  data_format, name)


def max_pooling2d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                  name=None):
    """Functional form of MaxPooling2D (tf.compat.v1.layers.max_pooling2d)."""
    return _apply(MaxPooling2D, "max_pooling2d", inputs, pool_size, strides, padding,
                  data_format, name)


def average_pooling2d(inputs, pool_size, strides, padding="valid",
                      data_format="channels_last", name=None):
    """Functional form of AveragePooling2D (tf.compat.v1.layers.average_pooling2d)."""
    return _apply(AveragePooling2D, "average_pooling2d", inputs, pool_size, strides, padding,
                  data_format, name)


def max_pooling3d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                  name=None):
    """Functional form of MaxPooling3D (tf.compat.v1.layers.max_pooling3d): inputs 5-D;
    pool_size, strides an int or 3 ints. ValueError when strides is None."""
    return _apply(MaxPooling3D, "max_pooling3d", inputs, pool_size, strides, padding,
                  data_format, name)


def average_pooling3d(inputs, pool_size, strides, padding="valid",
                      data_format="channels_last", name=None):
    """Functional form of AveragePooling3D (tf.compat.v1.layers.average_pooling3d)."""
    return _apply(AveragePooling3D, "average_pooling3d", inputs, pool_size, strides, padding,
                  data_format, name)
