"""Convolution, pooling and image-resize wrappers of the TF1 API: tf.nn.conv2d,
tf.nn.depthwise_conv2d(_native), tf.nn.conv2d_transpose, tf.nn.max_pool / avg_pool
(and their 2d/v2 spellings), tf.image.resize_bilinear / resize_nearest_neighbor /
resize_images (tf.compat.v1.image.resize).

The ops themselves (Conv2D, DepthwiseConv2dNative, Conv2DBackpropInput, MaxPool,
AvgPool, MaxPoolV2, ResizeBilinear, ResizeNearestNeighbor) are registered in C; these
functions only add TensorFlow's user-facing argument handling (strides/ksize given as
1, 2 or 4 values, explicit padding as a list of pairs, argument aliases).
"""
import warnings

import numpy as np

from minitf.framework import dtypes, ops
from minitf.framework.op_def_library import apply_op, outputs_of


def _op(op_type, name=None, **kw):
    return outputs_of(apply_op(op_type, name=name, **kw))


def _get_sequence(value, n, channel_index, name):
    """TensorFlow's nn_ops._get_sequence: 1, n or n+2 values -> n+2 values."""
    if value is None:
        return [1] * (n + 2)
    if isinstance(value, (list, tuple)):
        value = list(value)
    elif isinstance(value, (int, np.integer)):
        value = [int(value)]
    else:
        try:
            value = list(value)
        except TypeError:
            value = [value]
    if len(value) == n + 2:
        return value
    if len(value) == 1:
        value = value * n
    elif len(value) != n:
        raise ValueError("%s should be of length 1, %d or %d. Received: %s=%s of length %d" %
                         (name, n, n + 2, name, value, len(value)))
    return [1, 1] + value if channel_index == 1 else [1] + value + [1]


def _convert_padding(padding, expected_length=4):
    """TensorFlow's nn_ops.convert_padding: a list of pairs -> ("EXPLICIT", flat list)."""
    explicit_paddings = []
    if padding == "EXPLICIT":
        raise ValueError("'EXPLICIT' is not a valid value for `padding`. To use explicit "
                         "padding, `padding` must be a list.")
    if isinstance(padding, (list, tuple)):
        for i, dim_paddings in enumerate(padding):
            if not isinstance(dim_paddings, (list, tuple)):
                raise ValueError("When `padding` is a list, each element of `padding` must be a "
                                 "list/tuple of size 2. Received: padding=%s with element at "
                                 "index %d of type %s" % (padding, i, type(dim_paddings)))
            if len(dim_paddings) != 2:
                raise ValueError("When `padding` is a list, each element of `padding` must be a "
                                 "list/tuple of size 2. Received: padding=%s with element at "
                                 "index %d of size %d" % (padding, i, len(dim_paddings)))
            explicit_paddings.extend(int(p) for p in dim_paddings)
        if len(padding) != expected_length:
            raise ValueError("When padding is a list, it must be of size %d. Received: "
                             "padding=%s of size %d" % (expected_length, padding, len(padding)))
        padding = "EXPLICIT"
    return padding, explicit_paddings


def _alias(new_name, new_value, old_name, old_value):
    """deprecated_argument_lookup: one of two spellings of an argument."""
    if new_value is not None:
        if old_value is not None:
            raise ValueError("Cannot specify both '%s' and '%s'" % (old_name, new_name))
        return new_value
    return old_value


def _channel_index(data_format):
    return 1 if data_format is not None and data_format.startswith("NC") else 3


# ---- convolutions ----

def conv2d(input, filter=None, strides=None, padding=None, use_cudnn_on_gpu=True,  # noqa: A002
           data_format="NHWC", dilations=[1, 1, 1, 1], name=None, filters=None):  # noqa: B006
    """2-D convolution (tf.compat.v1.nn.conv2d; op Conv2D).

    input: [batch, in_height, in_width, in_channels] (NHWC) or NCHW; half, bfloat16,
    float32, float64 or int32. filter (alias filters): [filter_height, filter_width,
    in_channels / groups, out_channels]. strides/dilations: 1, 2 or 4 ints. padding:
    "SAME", "VALID" or a list of 4 [before, after] pairs (EXPLICIT padding). Returns a
    tensor of input's dtype, [batch, out_height, out_width, out_channels].
    Raises ValueError for bad strides/padding or incompatible static shapes.
    """
    filter = _alias("filters", filters, "filter", filter)
    padding, explicit_paddings = _convert_padding(padding)
    if data_format is None:
        data_format = "NHWC"
    ci = _channel_index(data_format)
    strides = _get_sequence(strides, 2, ci, "strides")
    dilations = _get_sequence(dilations, 2, ci, "dilations")
    return _op("Conv2D", name=name, input=input, filter=filter, strides=strides,
               padding=padding, use_cudnn_on_gpu=use_cudnn_on_gpu,
               explicit_paddings=explicit_paddings, data_format=data_format,
               dilations=dilations)


def conv2d_backprop_input(input_sizes, filter=None, out_backprop=None, strides=None,  # noqa: A002
                          padding=None, use_cudnn_on_gpu=True, data_format="NHWC",
                          dilations=[1, 1, 1, 1], name=None, filters=None):  # noqa: B006
    """Gradient of conv2d with respect to its input (tf.compat.v1.nn.conv2d_backprop_input;
    op Conv2DBackpropInput). input_sizes: int32 [4] (or [2] spatial) shape of the input."""
    filter = _alias("filters", filters, "filter", filter)
    padding, explicit_paddings = _convert_padding(padding)
    return _op("Conv2DBackpropInput", name=name, input_sizes=input_sizes, filter=filter,
               out_backprop=out_backprop, strides=strides, padding=padding,
               use_cudnn_on_gpu=use_cudnn_on_gpu, explicit_paddings=explicit_paddings,
               data_format=data_format, dilations=dilations)


def conv2d_transpose(value=None, filter=None, output_shape=None, strides=None,  # noqa: A002
                     padding="SAME", data_format="NHWC", name=None, input=None,  # noqa: A002
                     filters=None, dilations=None):
    """Transposed 2-D convolution (tf.compat.v1.nn.conv2d_transpose; op
    Conv2DBackpropInput, whose output is the gradient of a conv2d of shape output_shape).

    value (alias input): [batch, height, width, in_channels]; filter (alias filters):
    [height, width, output_channels, in_channels]; output_shape: 1-D [4] int32 (list or
    tensor). Returns a tensor of value's dtype with shape output_shape.
    """
    value = _alias("input", input, "value", value)
    filter = _alias("filters", filters, "filter", filter)
    with ops.name_scope(name, "conv2d_transpose", [value, filter, output_shape]) as name:
        if data_format is None:
            data_format = "NHWC"
        ci = _channel_index(data_format)
        strides = _get_sequence(strides, 2, ci, "strides")
        dilations = _get_sequence(dilations, 2, ci, "dilations")
        padding, explicit_paddings = _convert_padding(padding)
        return _op("Conv2DBackpropInput", name=name, input_sizes=output_shape, filter=filter,
                   out_backprop=value, strides=strides, padding=padding,
                   explicit_paddings=explicit_paddings, data_format=data_format,
                   dilations=dilations)


def depthwise_conv2d_native(input, filter, strides, padding, data_format="NHWC",  # noqa: A002
                            dilations=[1, 1, 1, 1], name=None):  # noqa: B006
    """Depthwise 2-D convolution (tf.compat.v1.nn.depthwise_conv2d_native; op
    DepthwiseConv2dNative). filter: [h, w, in_channels, channel_multiplier]; output has
    in_channels * channel_multiplier channels. strides: 4 ints. padding: "SAME", "VALID"
    or a list of 4 [before, after] pairs."""
    padding, explicit_paddings = _convert_padding(padding)
    return _op("DepthwiseConv2dNative", name=name, input=input, filter=filter, strides=strides,
               padding=padding, explicit_paddings=explicit_paddings, data_format=data_format,
               dilations=dilations)


def depthwise_conv2d(input, filter, strides, padding, rate=None, name=None,  # noqa: A002
                     data_format=None, dilations=None):
    """Depthwise 2-D convolution with optional atrous rate (tf.compat.v1.nn.depthwise_conv2d).

    input: 4-D NHWC (or NCHW); filter: [h, w, in_channels, channel_multiplier]; strides: 4
    ints; rate (alias dilations): 2 ints, the dilation of the filter, built as TensorFlow
    does with with_space_to_batch (SpaceToBatchND, the op with VALID padding, BatchToSpaceND).
    Warns when rate > 1 is combined with strides != 1, as TensorFlow does.
    """
    rate = _alias("dilations", dilations, "rate", rate)
    with ops.name_scope(name, "depthwise", [input, filter]) as name:
        input = ops.convert_to_tensor(input, name="tensor_in")
        filter = ops.convert_to_tensor(filter, name="filter_in")
        if rate is None:
            rate = [1, 1]
        if any(r > 1 for r in rate) and any(s != 1 for s in strides):
            warnings.warn("When dilation rate is greater than 1, then all values of strides "
                          "must be 1. Received: `dilation rate` %s and `strides` %s" %
                          (rate, strides))
        from minitf.ops import array_ops
        from minitf.ops.nn_conv_nd import with_space_to_batch

        def op(input_converted, _, padding):
            return depthwise_conv2d_native(input=input_converted, filter=filter,
                                           strides=strides, padding=padding,
                                           data_format=data_format or "NHWC", name=name)

        return with_space_to_batch(input=input, filter_shape=array_ops.shape(filter),
                                   dilation_rate=rate, padding=padding,
                                   data_format=data_format, op=op)


# ---- pooling ----

def max_pool(value, ksize, strides, padding, data_format="NHWC", name=None,
             input=None):  # noqa: A002
    """Max pooling (tf.compat.v1.nn.max_pool; op MaxPool).

    value (alias input): 4-D NHWC/NCHW tensor of a real type. ksize/strides: 1, 2 or 4 ints.
    padding: "SAME", "VALID" or a list of 4 [before, after] pairs. Windows ignore NaN and
    padding, as TensorFlow's CPU kernel.
    """
    value = _alias("input", input, "value", value)
    with ops.name_scope(name, "MaxPool", [value]) as name:
        padding, explicit_paddings = _convert_padding(padding)
        ci = _channel_index(data_format)
        ksize = _get_sequence(ksize, 2, ci, "ksize")
        strides = _get_sequence(strides, 2, ci, "strides")
        return _op("MaxPool", name=name, input=value, ksize=ksize, strides=strides,
                   padding=padding, explicit_paddings=explicit_paddings,
                   data_format=data_format)


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """Max pooling over 4-D input (tf.nn.max_pool2d; op MaxPool); see max_pool."""
    with ops.name_scope(name, "MaxPool2d", [input]) as name:
        if data_format is None:
            data_format = "NHWC"
        ci = _channel_index(data_format)
        ksize = _get_sequence(ksize, 2, ci, "ksize")
        strides = _get_sequence(strides, 2, ci, "strides")
        padding, explicit_paddings = _convert_padding(padding)
        return _op("MaxPool", name=name, input=input, ksize=ksize, strides=strides,
                   padding=padding, explicit_paddings=explicit_paddings,
                   data_format=data_format)


def max_pool_v2(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """N-D max pooling (tf.nn.max_pool / tf.compat.v1.nn.max_pool_v2); minitf supports
    4-D input (op MaxPool). Raises ValueError for other ranks it cannot build."""
    input = ops.convert_to_tensor(input)
    rank = input.shape.rank
    if rank is not None and rank != 4:
        raise ValueError("minitf's max_pool_v2 supports 4-D input only; input has rank %d" % rank)
    return max_pool2d(input, ksize, strides, padding, data_format=data_format or "NHWC",
                      name=name)


def avg_pool(value, ksize, strides, padding, data_format="NHWC", name=None,
             input=None):  # noqa: A002
    """Average pooling (tf.compat.v1.nn.avg_pool / avg_pool2d; op AvgPool).

    value (alias input): 4-D half/bfloat16/float32/float64 tensor. ksize/strides: 1, 2 or 4
    ints. padding: "SAME" or "VALID"; with SAME each output divides by the number of
    window elements inside the input, as TensorFlow.
    """
    value = _alias("input", input, "value", value)
    with ops.name_scope(name, "AvgPool", [value]) as name:
        ci = _channel_index(data_format)
        ksize = _get_sequence(ksize, 2, ci, "ksize")
        strides = _get_sequence(strides, 2, ci, "strides")
        return _op("AvgPool", name=name, value=value, ksize=ksize, strides=strides,
                   padding=padding, data_format=data_format)


avg_pool2d = avg_pool


def avg_pool_v2(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """N-D average pooling (tf.nn.avg_pool / tf.compat.v1.nn.avg_pool_v2); minitf supports
    4-D input (op AvgPool)."""
    input = ops.convert_to_tensor(input)
    rank = input.shape.rank
    if rank is not None and rank != 4:
        raise ValueError("minitf's avg_pool_v2 supports 4-D input only; input has rank %d" % rank)
    return avg_pool(input, ksize, strides, padding, data_format=data_format or "NHWC",
                    name=name)


# ---- image resizing ----

def resize_bilinear(images, size, align_corners=False, name=None, half_pixel_centers=False):
    """Bilinear resize of 4-D NHWC images to size = [new_height, new_width]
    (tf.compat.v1.image.resize_bilinear; op ResizeBilinear). Output is float32 for every
    input dtype."""
    return _op("ResizeBilinear", name=name, images=images, size=size,
               align_corners=align_corners, half_pixel_centers=half_pixel_centers)


def resize_nearest_neighbor(images, size, align_corners=False, name=None,
                            half_pixel_centers=False):
    """Nearest-neighbour resize of 4-D NHWC images to size = [new_height, new_width]
    (tf.compat.v1.image.resize_nearest_neighbor; op ResizeNearestNeighbor). Output has
    the input's dtype."""
    return _op("ResizeNearestNeighbor", name=name, images=images, size=size,
               align_corners=align_corners, half_pixel_centers=half_pixel_centers)


class ResizeMethod(object):
    """tf.compat.v1.image.ResizeMethod (TensorFlow's ResizeMethodV1)."""
    BILINEAR = 0
    NEAREST_NEIGHBOR = 1
    BICUBIC = 2
    AREA = 3


def resize_images(images, size, method=ResizeMethod.BILINEAR, align_corners=False,
                  preserve_aspect_ratio=False, name=None):
    """Resizes images to size (tf.compat.v1.image.resize_images = tf.compat.v1.image.resize).

    images: 4-D [batch, h, w, c] or 3-D [h, w, c]; size: [new_height, new_width] int32.
    method: ResizeMethod.BILINEAR / NEAREST_NEIGHBOR (0 / 1) or the strings "bilinear" /
    "nearest". Bilinear output is float32. When the static size already equals the
    image's, the images are returned unchanged (as TensorFlow 1). preserve_aspect_ratio
    needs static image dims and a constant size in minitf.
    Raises ValueError for bad ranks/sizes or unknown methods; NotImplementedError for
    bicubic/area.
    """
    with ops.name_scope(name, "resize", [images, size]):
        images = ops.convert_to_tensor(images, name="images")
        if images.shape.rank is None:
            raise ValueError("'images' contains no shape.")
        is_batch = True
        if images.shape.rank == 3:
            is_batch = False
            images = _op("ExpandDims", input=images, dim=0)
        elif images.shape.rank != 4:
            raise ValueError("'images' must have either 3 or 4 dimensions.")
        _, height, width, _ = images.shape.as_list()
        if preserve_aspect_ratio:
            sv = np.asarray(size) if not isinstance(size, ops.Tensor) else None
            if sv is None or height is None or width is None:
                raise NotImplementedError("minitf's preserve_aspect_ratio needs static image "
                                          "dims and a constant size")
            scale = min(np.float32(sv[0]) / np.float32(height),
                        np.float32(sv[1]) / np.float32(width))
            size = [int(np.round(scale * np.float32(height))),
                    int(np.round(scale * np.float32(width)))]
        try:
            size = ops.convert_to_tensor(size, dtypes.int32, name="size")
        except (TypeError, ValueError):
            raise ValueError("'size' must be a 1-D int32 Tensor")
        if not size.shape.is_compatible_with([2]):
            raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
        const = _const_value(size)
        new_h, new_w = (None, None) if const is None else (int(const[0]), int(const[1]))
        if new_h == height and new_w == width and height is not None and width is not None:
            return images if is_batch else _op("Squeeze", input=images, squeeze_dims=[0])
        if method in (ResizeMethod.BILINEAR, "bilinear"):
            out = resize_bilinear(images, size, align_corners=align_corners)
        elif method in (ResizeMethod.NEAREST_NEIGHBOR, "nearest"):
            out = resize_nearest_neighbor(images, size, align_corners=align_corners)
        elif method in (ResizeMethod.BICUBIC, ResizeMethod.AREA, "bicubic", "area"):
            raise NotImplementedError("minitf has no %s resize" % (method,))
        else:
            raise ValueError("Resize method is not implemented: {}".format(method))
        if not is_batch:
            out = _op("Squeeze", input=out, squeeze_dims=[0])
        return out


resize = resize_images


def _const_value(t):
    """The value of a Const tensor, else None."""
    if t.op.type != "Const":
        return None
    from minitf.framework import tensor_util
    return tensor_util.MakeNdarray(t.op.get_attr("value"))
