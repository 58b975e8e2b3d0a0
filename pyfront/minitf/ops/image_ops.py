"""tf.compat.v1.image: codecs, flips/rotations/crops/pads, dtype and colour-space
conversions, per-image statistics (TensorFlow's image_ops_impl.py in graph mode).

Every function takes TensorFlow's parameters and builds the ops TensorFlow's does (Decode*/
Encode* codecs, ReverseV2, Transpose, Slice, Pad, Cast, ...) under TensorFlow's name scopes.
Static checks raise TensorFlow's ValueError wording at construction; a shape known only at
run time is checked by the same Assert ops TensorFlow adds (InvalidArgumentError when run).
"""
import numpy as np

from minitf.framework import dtypes, ops, tensor_util
from minitf.framework.op_def_library import apply_op, outputs_of
from minitf.ops import array_ops, check_ops, control_flow_ops, indexing_ops, math_ops
from minitf.ops import reduction_ops
from minitf.ops.logging_ops import Assert


def _op(op_type, name=None, **kw):
    return outputs_of(apply_op(op_type, name=name, **kw))


def _is_tensor(x):
    from minitf.ops.variables import Variable
    return isinstance(x, (ops.Tensor, Variable))


def _assert(cond, ex_type, msg):
    """[Assert(cond, [msg])] for a tensor condition; else raises ex_type(msg) when it is
    false and returns []."""
    if _is_tensor(cond):
        return [Assert(cond, [msg])]
    if not cond:
        raise ex_type(msg)
    return []


def _image_dimensions(image, rank):
    """Static dims as ints, unknown ones as scalar tensors of Shape(image)."""
    if image.shape.is_fully_defined():
        return image.shape.as_list()
    static = image.shape.with_rank(rank).as_list()
    dynamic = array_ops.unstack(array_ops.shape(image), rank)
    return [s if s is not None else d for s, d in zip(static, dynamic)]


def _check_3d_image(image, require_static=True):
    try:
        image_shape = image.shape.with_rank(3)
    except ValueError:
        raise ValueError("'image' (shape %s) must be three-dimensional." % image.shape)
    if require_static and not image_shape.is_fully_defined():
        raise ValueError("'image' (shape %s) must be fully defined." % image_shape)
    if any(x == 0 for x in image_shape.as_list()):
        raise ValueError("all dims of 'image.shape' must be > 0: %s" % image_shape)
    if not image_shape.is_fully_defined():
        return [check_ops.assert_positive(array_ops.shape(image),
                                          ["all dims of 'image.shape' must be > 0."])]
    return []


def _check_at_least_3d_image(image, require_static=True):
    try:
        if image.shape.ndims is None:
            image_shape = image.shape.with_rank(3)
        else:
            image_shape = image.shape.with_rank_at_least(3)
    except ValueError:
        raise ValueError("'image' (shape %s) must be at least three-dimensional." %
                         image.shape)
    if require_static and not image_shape.is_fully_defined():
        raise ValueError("'image' must be fully defined.")
    inner = image_shape[-3:]
    if any(x == 0 for x in inner.as_list()):
        raise ValueError("inner 3 dims of 'image.shape' must be > 0: %s" % image_shape)
    if not inner.is_fully_defined():
        return [
            check_ops.assert_positive(array_ops.shape(image)[-3:],
                                      ["inner 3 dims of 'image.shape' must be > 0."]),
            check_ops.assert_greater_equal(array_ops.rank(image), 3,
                                           message="'image' must be at least three-dimensional."),
        ]
    return []


def _assert_at_least_3d_image(image):
    return control_flow_ops.with_dependencies(_check_at_least_3d_image(image, False), image)


def _check_grayscale_image(image, require_static=True):
    shape = image.get_shape()  # TensorFlow's check: an AttributeError for a NumPy array
    try:
        if shape.ndims is None:
            image_shape = shape.with_rank(2)
        else:
            image_shape = shape.with_rank_at_least(2)
    except ValueError:
        raise ValueError("A grayscale image (shape %s) must be at least two-dimensional." %
                         image.shape)
    if require_static and not image_shape.is_fully_defined():
        raise ValueError("'image' must be fully defined.")
    if image_shape.is_fully_defined():
        if image_shape[-1] != 1:
            raise ValueError("Last dimension of a grayscale image should be size 1.")
        return []
    return [
        check_ops.assert_equal(array_ops.shape(image)[-1], 1,
                               message="Last dimension of a grayscale image should be size 1."),
        check_ops.assert_greater_equal(array_ops.rank(image), 3,
                                       message="A grayscale image must be at least "
                                               "two-dimensional."),
    ]


def _fix_image_flip_shape(image, result):
    if image.shape.ndims is None:
        result.set_shape([None, None, None])
    else:
        result.set_shape(image.shape)
    return result


# ---- codecs ----

def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None):
    """Decodes a PNG (also JPEG, single-frame GIF) string scalar to a uint8/uint16
    [height, width, channels] image (tf.image.decode_png; op DecodePng, libpng).
    channels: 0 (as stored), 1, 3 or 4. Corrupt data: InvalidArgumentError at run time."""
    return _op("DecodePng", name=name, contents=contents, channels=channels, dtype=dtype)


def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
                acceptable_fraction=1, dct_method="", name=None):
    """Decodes a JPEG (also PNG, single-frame GIF) string scalar to a uint8
    [height, width, channels] image (tf.image.decode_jpeg; op DecodeJpeg, libjpeg-turbo).
    ratio: 1, 2, 4 or 8 (downscaled decode); dct_method '', 'INTEGER_FAST' or
    'INTEGER_ACCURATE'. Corrupt data: InvalidArgumentError at run time."""
    return _op("DecodeJpeg", name=name, contents=contents, channels=channels, ratio=ratio,
               fancy_upscaling=fancy_upscaling, try_recover_truncated=try_recover_truncated,
               acceptable_fraction=acceptable_fraction, dct_method=dct_method)


def decode_and_crop_jpeg(contents, crop_window, channels=0, ratio=1, fancy_upscaling=True,
                         try_recover_truncated=False, acceptable_fraction=1, dct_method="",
                         name=None):
    """Decodes the crop_window = [y, x, height, width] (int32) of a JPEG
    (tf.image.decode_and_crop_jpeg; op DecodeAndCropJpeg). A window outside the image is an
    InvalidArgumentError at run time."""
    return _op("DecodeAndCropJpeg", name=name, contents=contents, crop_window=crop_window,
               channels=channels, ratio=ratio, fancy_upscaling=fancy_upscaling,
               try_recover_truncated=try_recover_truncated,
               acceptable_fraction=acceptable_fraction, dct_method=dct_method)


def decode_gif(contents, name=None):
    """Decodes a GIF (every frame, composed as TensorFlow does) to uint8
    [frames, height, width, 3] (tf.image.decode_gif; op DecodeGif, giflib)."""
    return _op("DecodeGif", name=name, contents=contents)


def decode_bmp(contents, channels=0, name=None):
    """Decodes an uncompressed 8/24/32-bit BMP to uint8 [height, width, channels]
    (tf.image.decode_bmp; op DecodeBmp). channels: 0, 3 or 4."""
    return _op("DecodeBmp", name=name, contents=contents, channels=channels)


def extract_jpeg_shape(contents, output_type=dtypes.int32, name=None):
    """[height, width, channels] of a JPEG from its header (tf.image.extract_jpeg_shape; op
    ExtractJpegShape); output_type int32 or int64."""
    return _op("ExtractJpegShape", name=name, contents=contents, output_type=output_type)


def encode_png(image, compression=-1, name=None):
    """PNG-encodes uint8/uint16 [..., height, width, channels] images (1 to 4 channels)
    with zlib level `compression` (-1 = default) (tf.image.encode_png; op EncodePng,
    libpng): a string per image."""
    return _op("EncodePng", name=name, image=ops.convert_to_tensor(image),
               compression=compression)


def encode_jpeg(image, format="", quality=95, progressive=False, optimize_size=False,  # noqa: A002
                chroma_downsampling=True, density_unit="in", x_density=300, y_density=300,
                xmp_metadata="", name=None):
    """JPEG-encodes a uint8 [height, width, 1 or 3] image (tf.image.encode_jpeg; op
    EncodeJpeg, libjpeg-turbo)."""
    return _op("EncodeJpeg", name=name, image=image, format=format, quality=quality,
               progressive=progressive, optimize_size=optimize_size,
               chroma_downsampling=chroma_downsampling, density_unit=density_unit,
               x_density=x_density, y_density=y_density, xmp_metadata=xmp_metadata)


def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None, expand_animations=True):
    """Decodes BMP, GIF, JPEG or PNG by its magic bytes (tf.image.decode_image; op
    DecodeImage). dtype uint8, uint16 or float32 (others through convert_image_dtype).
    expand_animations=True: GIFs are 4-D; False: 3-D (first frame) with that static rank."""
    with ops.name_scope(name, "decode_image"):
        channels = 0 if channels is None else channels
        dtype = dtypes.as_dtype(dtype)
        decode_dtype = dtype if dtype in (dtypes.float32, dtypes.uint8, dtypes.uint16) \
            else dtypes.uint16
        image = _op("DecodeImage", contents=contents, channels=channels,
                    expand_animations=expand_animations, dtype=decode_dtype)
        if decode_dtype != dtype:
            image = convert_image_dtype(image, dtype)
        if not expand_animations:
            image.set_shape([None, None, channels if channels != 0 else None])
        return image


def adjust_jpeg_quality(image, jpeg_quality, dct_method="", name=None):
    """The image JPEG-encoded at jpeg_quality (0..100) and decoded again, in its own dtype
    (tf.image.adjust_jpeg_quality: EncodeJpegVariableQuality + DecodeJpeg)."""
    with ops.name_scope(name, "adjust_jpeg_quality", [image]):
        image = ops.convert_to_tensor(image, name="image")
        channels = image.shape.as_list()[-1]
        orig_dtype = image.dtype
        image = convert_image_dtype(image, dtypes.uint8, saturate=True)
        if not _is_tensor(jpeg_quality):
            jpeg_quality = ops.convert_to_tensor(jpeg_quality, dtype=dtypes.int32)
        image = _op("EncodeJpegVariableQuality", images=image, quality=jpeg_quality)
        image = _op("DecodeJpeg", contents=image, channels=channels, dct_method=dct_method)
        return convert_image_dtype(image, orig_dtype, saturate=True)


# ---- flips, rotations, transposes ----

def _flip(image, flip_index, scope_name):
    with ops.name_scope(None, scope_name, [image]):
        image = ops.convert_to_tensor(image, name="image")
        image = _assert_at_least_3d_image(image)
        shape = image.shape
        if shape.ndims is None:
            rank = array_ops.rank(image)
            return control_flow_ops.cond(
                math_ops.equal(rank, 3),
                lambda: _fix_image_flip_shape(image, array_ops.reverse(image, [flip_index])),
                lambda: array_ops.reverse(image, [flip_index + 1]))
        if shape.ndims == 3:
            return _fix_image_flip_shape(image, array_ops.reverse(image, [flip_index]))
        if shape.ndims == 4:
            return array_ops.reverse(image, [flip_index + 1])
        raise ValueError("'image' (shape %s)must have either 3 or 4 dimensions." % shape)


def flip_left_right(image):
    """Reverses the width axis of a 3-D [h, w, c] or 4-D [n, h, w, c] image
    (tf.image.flip_left_right; op ReverseV2)."""
    return _flip(image, 1, "flip_left_right")


def flip_up_down(image):
    """Reverses the height axis of a 3-D or 4-D image (tf.image.flip_up_down; ReverseV2)."""
    return _flip(image, 0, "flip_up_down")


def _random_flip(image, flip_index, seed, scope_name):
    from minitf.ops import random_ops
    with ops.name_scope(None, scope_name, [image]) as scope:
        image = ops.convert_to_tensor(image, name="image")
        image = _assert_at_least_3d_image(image)
        shape = image.shape

        def f_rank3():
            u = random_ops.random_uniform(shape=[], minval=0, maxval=1.0, seed=seed)
            result = control_flow_ops.cond(math_ops.less(u, .5),
                                           lambda: array_ops.reverse(image, [flip_index]),
                                           lambda: image, name=scope)
            return _fix_image_flip_shape(image, result)

        def f_rank4():
            batch_size = array_ops.shape(image)[0]
            u = random_ops.random_uniform(shape=[batch_size], minval=0, maxval=1.0, seed=seed)
            flips = math_ops.round(array_ops.reshape(u, [batch_size, 1, 1, 1]))
            flips = math_ops.cast(flips, image.dtype)
            flipped = array_ops.reverse(image, [flip_index + 1])
            return flips * flipped + (1 - flips) * image

        if shape.ndims is None:
            return control_flow_ops.cond(math_ops.equal(array_ops.rank(image), 3), f_rank3,
                                         f_rank4)
        if shape.ndims == 3:
            return f_rank3()
        if shape.ndims == 4:
            return f_rank4()
        raise ValueError("'image' (shape %s) must have either 3 or 4 dimensions." % shape)


def random_flip_left_right(image, seed=None):
    """flip_left_right with probability 1/2 (per image of a batch)
    (tf.image.random_flip_left_right; RandomUniform with `seed`)."""
    return _random_flip(image, 1, seed, "random_flip_left_right")


def random_flip_up_down(image, seed=None):
    """flip_up_down with probability 1/2 (per image of a batch) (tf.image.random_flip_up_down)."""
    return _random_flip(image, 0, seed, "random_flip_up_down")


def _rot90_cases(image, k, scope, axes, perm):
    h, w = axes
    cases = [
        (math_ops.equal(k, 1),
         lambda: array_ops.transpose(array_ops.reverse_v2(image, [w]), perm)),
        (math_ops.equal(k, 2), lambda: array_ops.reverse_v2(image, [h, w])),
        (math_ops.equal(k, 3),
         lambda: array_ops.reverse_v2(array_ops.transpose(image, perm), [w])),
    ]
    return control_flow_ops.case(cases, default=lambda: image, exclusive=True, name=scope)


def _rot90_3d(image, k, scope):
    result = _rot90_cases(image, k, scope, (0, 1), [1, 0, 2])
    result.set_shape([None, None, image.shape[2]])
    return result


def _rot90_4d(images, k, scope):
    result = _rot90_cases(images, k, scope, (1, 2), [0, 2, 1, 3])
    shape = result.shape
    result.set_shape([shape[0], None, None, shape[3]])
    return result


def rot90(image, k=1, name=None):
    """Rotates a 3-D or 4-D image by k * 90 degrees counter-clockwise (tf.image.rot90: a
    case over k mod 4 of ReverseV2/Transpose)."""
    with ops.name_scope(name, "rot90", [image, k]) as scope:
        image = ops.convert_to_tensor(image, name="image")
        image = _assert_at_least_3d_image(image)
        k = ops.convert_to_tensor(k, dtype=dtypes.int32, name="k")
        k.shape.assert_has_rank(0)
        k = math_ops.mod(k, 4)
        shape = image.shape
        if shape.ndims is None:
            return control_flow_ops.cond(math_ops.equal(array_ops.rank(image), 3),
                                         lambda: _rot90_3d(image, k, scope),
                                         lambda: _rot90_4d(image, k, scope))
        if shape.ndims == 3:
            return _rot90_3d(image, k, scope)
        if shape.ndims == 4:
            return _rot90_4d(image, k, scope)
        raise ValueError("'image' (shape %s) must have either 3 or 4 dimensions." % shape)


def transpose(image, name=None):
    """Swaps height and width of a 3-D or 4-D image (tf.image.transpose /
    transpose_image; op Transpose)."""
    with ops.name_scope(name, "transpose", [image]):
        image = ops.convert_to_tensor(image, name="image")
        image = _assert_at_least_3d_image(image)
        shape = image.shape
        if shape.ndims is None:
            return control_flow_ops.cond(
                math_ops.equal(array_ops.rank(image), 3),
                lambda: array_ops.transpose(image, [1, 0, 2], name=name),
                lambda: array_ops.transpose(image, [0, 2, 1, 3], name=name))
        if shape.ndims == 3:
            return array_ops.transpose(image, [1, 0, 2], name=name)
        if shape.ndims == 4:
            return array_ops.transpose(image, [0, 2, 1, 3], name=name)
        raise ValueError("'image' (shape %s) must have either 3 or 4 dimensions." % shape)


transpose_image = transpose


# ---- crops and pads ----

def _batched(image):
    """(4-D image, is_batch) as TensorFlow's crop/pad helpers expand a 3-D or unknown-rank
    image."""
    shape = image.shape
    if shape.ndims == 3:
        return array_ops.expand_dims(image, 0), False
    if shape.ndims is None:
        image = array_ops.expand_dims(image, 0)
        image.set_shape([None] * 4)
        return image, False
    if shape.ndims != 4:
        raise ValueError("'image' (shape %s) must have either 3 or 4 dimensions." % shape)
    return image, True


def central_crop(image, central_fraction):
    """The central `central_fraction` (in (0, 1]) of each image's height and width
    (tf.image.central_crop; op Slice). ValueError for a fraction outside (0, 1] or a rank
    other than 3 or 4."""
    with ops.name_scope(None, "central_crop", [image]):
        image = ops.convert_to_tensor(image, name="image")
        frac = tensor_util.constant_value(central_fraction) if _is_tensor(central_fraction) \
            else central_fraction
        if frac is not None:
            if frac <= 0.0 or frac > 1.0:
                raise ValueError("central_fraction must be within (0, 1]")
            if frac == 1.0:
                return image
        else:
            image = control_flow_ops.with_dependencies(_assert(
                math_ops.logical_or(central_fraction > 0.0, central_fraction <= 1.0),
                ValueError, "central_fraction must be within (0, 1]"), image)
        _assert_at_least_3d_image(image)
        rank = image.shape.ndims
        if rank != 3 and rank != 4:
            raise ValueError("`image` should either be a Tensor with rank = 3 or rank = 4. "
                             "Had rank = {}.".format(rank))

        def get_dim(idx):
            static = image.shape.as_list()[idx]
            if static is not None:
                return static, False
            return array_ops.shape(image)[idx], True

        off = 0 if rank == 3 else 1
        img_h, dyn_h = get_dim(off)
        img_w, dyn_w = get_dim(off + 1)
        img_d = image.shape[off + 2]
        dyn_h = dyn_h or frac is None
        dyn_w = dyn_w or frac is None

        def start(size, dynamic):
            if dynamic:
                sd = math_ops.cast(size, dtypes.float64)
                return math_ops.cast(
                    (sd - sd * math_ops.cast(central_fraction, dtypes.float64)) / 2,
                    dtypes.int32)
            sd = float(size)
            return int((sd - sd * frac) / 2)

        h_start, w_start = start(img_h, dyn_h), start(img_w, dyn_w)
        h_size, w_size = img_h - h_start * 2, img_w - w_start * 2
        if rank == 3:
            begin = array_ops.stack([h_start, w_start, 0])
            size = array_ops.stack([h_size, w_size, -1])
        else:
            begin = array_ops.stack([0, h_start, w_start, 0])
            size = array_ops.stack([-1, h_size, w_size, -1])
        image = indexing_ops.slice(image, begin, size)
        inner = [None if dyn_h else h_size, None if dyn_w else w_size, img_d]
        image.set_shape(inner if rank == 3 else [image.shape[0]] + inner)
        return image


def _pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width,
                         check_dims):
    with ops.name_scope(None, "pad_to_bounding_box", [image]):
        image = ops.convert_to_tensor(image, name="image")
        image, is_batch = _batched(image)
        batch, height, width, depth = _image_dimensions(image, rank=4)
        after_w = target_width - offset_width - width
        after_h = target_height - offset_height - height
        if check_dims:
            checks = _check_at_least_3d_image(image, require_static=False)
            checks += _assert(offset_height >= 0, ValueError, "offset_height must be >= 0")
            checks += _assert(offset_width >= 0, ValueError, "offset_width must be >= 0")
            checks += _assert(after_w >= 0, ValueError, "width must be <= target - offset")
            checks += _assert(after_h >= 0, ValueError, "height must be <= target - offset")
            image = control_flow_ops.with_dependencies(checks, image)
        paddings = array_ops.reshape(
            array_ops.stack([0, 0, offset_height, after_h, offset_width, after_w, 0, 0]),
            [4, 2])
        padded = indexing_ops.pad(image, paddings)
        padded.set_shape([None if _is_tensor(i) else i
                          for i in [batch, target_height, target_width, depth]])
        if not is_batch:
            padded = array_ops.squeeze(padded, axis=[0])
        return padded


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """Zero-pads a 3-D or 4-D image to target_height x target_width with the image at
    (offset_height, offset_width) (tf.image.pad_to_bounding_box; op Pad). ValueError
    (static) / InvalidArgumentError (run time) for negative offsets or a target too small."""
    return _pad_to_bounding_box(image, offset_height, offset_width, target_height,
                                target_width, check_dims=True)


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The target_height x target_width window at (offset_height, offset_width) of a 3-D or
    4-D image (tf.image.crop_to_bounding_box; op Slice)."""
    with ops.name_scope(None, "crop_to_bounding_box", [image]):
        image = ops.convert_to_tensor(image, name="image")
        image, is_batch = _batched(image)
        checks = _check_at_least_3d_image(image, require_static=False)
        batch, height, width, depth = _image_dimensions(image, rank=4)
        checks += _assert(offset_width >= 0, ValueError, "offset_width must be >= 0.")
        checks += _assert(offset_height >= 0, ValueError, "offset_height must be >= 0.")
        checks += _assert(target_width > 0, ValueError, "target_width must be > 0.")
        checks += _assert(target_height > 0, ValueError, "target_height must be > 0.")
        checks += _assert(width >= (target_width + offset_width), ValueError,
                          "width must be >= target + offset.")
        checks += _assert(height >= (target_height + offset_height), ValueError,
                          "height must be >= target + offset.")
        image = control_flow_ops.with_dependencies(checks, image)
        cropped = indexing_ops.slice(
            image, array_ops.stack([0, offset_height, offset_width, 0]),
            array_ops.stack([array_ops.shape(image)[0], target_height, target_width,
                             array_ops.shape(image)[3]]))
        cropped.set_shape([None if _is_tensor(i) else i
                           for i in [batch, target_height, target_width, depth]])
        if not is_batch:
            cropped = array_ops.squeeze(cropped, axis=[0])
        return cropped


def _max(x, y):
    return math_ops.maximum(x, y) if _is_tensor(x) or _is_tensor(y) else max(x, y)


def _min(x, y):
    return math_ops.minimum(x, y) if _is_tensor(x) or _is_tensor(y) else min(x, y)


def _equal(x, y):
    return math_ops.equal(x, y) if _is_tensor(x) or _is_tensor(y) else x == y


def resize_image_with_crop_or_pad(image, target_height, target_width):
    """Centrally crops and/or zero-pads a 3-D or 4-D image to target_height x target_width
    (tf.image.resize_image_with_crop_or_pad = resize_with_crop_or_pad)."""
    with ops.name_scope(None, "resize_image_with_crop_or_pad", [image]):
        image = ops.convert_to_tensor(image, name="image")
        image, is_batch = _batched(image)
        checks = _check_at_least_3d_image(image, require_static=False)
        checks += _assert(target_width > 0, ValueError, "target_width must be > 0.")
        checks += _assert(target_height > 0, ValueError, "target_height must be > 0.")
        image = control_flow_ops.with_dependencies(checks, image)
        if _is_tensor(target_height):
            target_height = control_flow_ops.with_dependencies(checks, target_height)
        if _is_tensor(target_width):
            target_width = control_flow_ops.with_dependencies(checks, target_width)
        _, height, width, _ = _image_dimensions(image, rank=4)
        width_diff = target_width - width
        offset_crop_width = _max(-width_diff // 2, 0)
        offset_pad_width = _max(width_diff // 2, 0)
        height_diff = target_height - height
        offset_crop_height = _max(-height_diff // 2, 0)
        offset_pad_height = _max(height_diff // 2, 0)
        cropped = crop_to_bounding_box(image, offset_crop_height, offset_crop_width,
                                       _min(target_height, height), _min(target_width, width))
        resized = pad_to_bounding_box(cropped, offset_pad_height, offset_pad_width,
                                      target_height, target_width)
        if resized.shape.ndims is None:
            raise ValueError("resized contains no shape.")
        _, rh, rw, _ = _image_dimensions(resized, rank=4)
        checks = _assert(_equal(rh, target_height), ValueError, "resized height is not correct.")
        checks += _assert(_equal(rw, target_width), ValueError, "resized width is not correct.")
        resized = control_flow_ops.with_dependencies(checks, resized)
        if not is_batch:
            resized = array_ops.squeeze(resized, axis=[0])
        return resized


resize_with_crop_or_pad = resize_image_with_crop_or_pad


# ---- dtype and colour conversions ----

def _saturate_cast(value, dtype, name=None):
    """TensorFlow 2.21's saturate_cast: ClipByValue ("clamp") to dtype's range expressed in
    the input dtype (nudged towards 0 where that bound is not representable), then Cast."""
    with ops.name_scope(name, "saturate_cast", [value]) as name:
        value = ops.convert_to_tensor(value, name="value")
        dtype = dtypes.as_dtype(dtype).base_dtype
        in_dtype = value.dtype
        np_dtype = in_dtype.as_numpy_dtype
        try:
            promoted = np.promote_types(np_dtype, dtype.as_numpy_dtype)
        except TypeError:
            promoted = float
        lo = np_dtype(np.maximum(in_dtype.min, dtype.min))
        if np.array([lo, dtype.min], dtype=promoted)[0] < np.array([lo, dtype.min],
                                                                  dtype=promoted)[1]:
            lo = np.nextafter(lo, np_dtype(0), dtype=np_dtype)
        hi = np_dtype(np.minimum(float(in_dtype.max), float(dtype.max)))
        if np.array([hi, dtype.max], dtype=promoted)[0] > np.array([hi, dtype.max],
                                                                  dtype=promoted)[1]:
            hi = np.nextafter(hi, np_dtype(0), dtype=np_dtype)
        value = _op("ClipByValue", name="clamp", t=value,
                    clip_value_min=ops.convert_to_tensor(lo, dtype=in_dtype),
                    clip_value_max=ops.convert_to_tensor(hi, dtype=in_dtype))
        return math_ops.cast(value, dtype, name=name)


def convert_image_dtype(image, dtype, saturate=False, name=None):
    """Converts an image to dtype, rescaling: floats are in [0, 1), integers span
    [0, dtype.max] (tf.image.convert_image_dtype). Integer -> integer shifts by the range
    ratio (FloorDiv or Mul), integer <-> float scales by 1/max or max + 0.5 then Cast;
    saturate=True clamps before casting. AttributeError for a non-numeric dtype."""
    image = ops.convert_to_tensor(image, name="image")
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating and not dtype.is_integer:
        raise AttributeError("dtype must be either floating point or integer")
    if not image.dtype.is_floating and not image.dtype.is_integer:
        raise AttributeError("image dtype must be either floating point or integer")
    if dtype == image.dtype:
        return array_ops.identity(image, name=name)
    cast = _saturate_cast if saturate else math_ops.cast
    with ops.name_scope(name, "convert_image", [image]) as name:
        if image.dtype.is_integer and dtype.is_integer:
            scale_in, scale_out = image.dtype.max, dtype.max
            if scale_in > scale_out:
                scale = (scale_in + 1) // (scale_out + 1)
                return cast(math_ops.floordiv(image, scale), dtype, name=name)
            c = cast(image, dtype)
            return math_ops.multiply(c, (scale_out + 1) // (scale_in + 1), name=name)
        if image.dtype.is_floating and dtype.is_floating:
            return math_ops.cast(image, dtype, name=name)
        if image.dtype.is_integer:
            c = math_ops.cast(image, dtype)
            return math_ops.multiply(c, 1. / image.dtype.max, name=name)
        scaled = math_ops.multiply(image, dtype.max + 0.5)
        return cast(scaled, dtype, name=name)


def _tensordot_last(a, b, name=None):
    """a (rank r, last dim k) contracted with b [k, n] over a's last axis: TensorFlow's
    tensordot graph for axes [[r-1], [0]] (Reshape, MatMul, Reshape)."""
    with ops.name_scope(name, "Tensordot", [a, b]) as name:
        a = ops.convert_to_tensor(a, name="a")
        b = ops.convert_to_tensor(b, name="b", dtype=a.dtype)
        k, n = b.shape.as_list()
        a_shape = a.shape
        if a_shape.is_fully_defined():
            free = a_shape.as_list()[:-1]
            flat = array_ops.reshape(a, [int(np.prod(free)) if free else 1, k])
            out = math_ops.matmul(flat, b)
            return array_ops.reshape(out, free + [n], name=name)
        shape_a = array_ops.shape(a)
        free = shape_a[:-1]
        flat = array_ops.reshape(a, array_ops.stack([reduction_ops.reduce_prod(free), k]))
        out = math_ops.matmul(flat, b)
        result = array_ops.reshape(out, array_ops.concat([free, [n]], 0), name=name)
        if a_shape.ndims is not None:
            result.set_shape(a_shape[:-1].concatenate([n]))
        return result


def rgb_to_grayscale(images, name=None):
    """[..., 3] RGB -> [..., 1] luma with weights 0.2989, 0.5870, 0.1140, computed in
    float32 and converted back to the input dtype (tf.image.rgb_to_grayscale)."""
    with ops.name_scope(name, "rgb_to_grayscale", [images]) as name:
        images = ops.convert_to_tensor(images, name="images")
        orig_dtype = images.dtype
        flt = convert_image_dtype(images, dtypes.float32)
        weights = ops.convert_to_tensor(np.array([[0.2989], [0.5870], [0.1140]], np.float32))
        gray = _tensordot_last(flt, weights)
        return convert_image_dtype(gray, orig_dtype, name=name)


def grayscale_to_rgb(images, name=None):
    """[..., 1] -> [..., 3] by repeating the channel (tf.image.grayscale_to_rgb; op Tile).
    ValueError when the last dimension is known and not 1."""
    with ops.name_scope(name, "grayscale_to_rgb", [images]) as name:
        images = control_flow_ops.with_dependencies(
            _check_grayscale_image(images, require_static=False), images)
        images = ops.convert_to_tensor(images, name="images")
        rank_1 = array_ops.expand_dims(array_ops.rank(images) - 1, 0)
        multiples = array_ops.concat([array_ops.ones(rank_1, dtype=dtypes.int32),
                                      array_ops.expand_dims(3, 0)], 0)
        rgb = array_ops.tile(images, multiples, name=name)
        rgb.set_shape(images.shape[:-1].concatenate([3]))
        return rgb


_RGB_TO_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617],
               [0.114, -0.32134392, 0.31119955]]
_YIQ_TO_RGB = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021],
               [0.6208248, -0.64720424, 1.70423049]]
_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
               [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def _color_matrix(images, kernel):
    images = ops.convert_to_tensor(images, name="images")
    k = ops.convert_to_tensor(np.array(kernel, images.dtype.as_numpy_dtype), dtype=images.dtype,
                              name="kernel")
    return _tensordot_last(images, k)


def rgb_to_yiq(images):
    """[..., 3] RGB (floats in [0, 1]) -> YIQ (tf.image.rgb_to_yiq: a 3x3 matrix product)."""
    return _color_matrix(images, _RGB_TO_YIQ)


def yiq_to_rgb(images):
    """[..., 3] YIQ -> RGB (tf.image.yiq_to_rgb)."""
    return _color_matrix(images, _YIQ_TO_RGB)


def rgb_to_yuv(images):
    """[..., 3] RGB (floats in [0, 1]) -> YUV (tf.image.rgb_to_yuv)."""
    return _color_matrix(images, _RGB_TO_YUV)


def yuv_to_rgb(images):
    """[..., 3] YUV -> RGB (tf.image.yuv_to_rgb)."""
    return _color_matrix(images, _YUV_TO_RGB)


# ---- brightness, gamma, statistics ----

def _float_image(image):
    return image if image.dtype in (dtypes.float16, dtypes.float32) \
        else convert_image_dtype(image, dtypes.float32)


def adjust_brightness(image, delta):
    """image + delta in float (integer images through convert_image_dtype, saturated back)
    (tf.image.adjust_brightness)."""
    with ops.name_scope(None, "adjust_brightness", [image, delta]) as name:
        image = ops.convert_to_tensor(image, name="image")
        orig_dtype = image.dtype
        flt = _float_image(image)
        adjusted = math_ops.add(flt, math_ops.cast(delta, flt.dtype), name=name)
        return convert_image_dtype(adjusted, orig_dtype, saturate=True)


def adjust_gamma(image, gamma=1, gain=1):
    """gain * image ** gamma in float (tf.image.adjust_gamma). ValueError for a negative
    Python gamma; a tensor gamma is checked at run time."""
    with ops.name_scope(None, "adjust_gamma", [image, gamma, gain]):
        image = ops.convert_to_tensor(image, name="image")
        orig_dtype = image.dtype
        flt = _float_image(image)
        check = _assert(gamma >= 0, ValueError, "Gamma should be a non-negative real number.")
        if check:
            gamma = control_flow_ops.with_dependencies(check, gamma)
        adjusted = gain * flt ** gamma
        return convert_image_dtype(adjusted, orig_dtype, saturate=True)


def random_brightness(image, max_delta, seed=None):
    """adjust_brightness by a delta uniform in [-max_delta, max_delta)
    (tf.image.random_brightness). ValueError for a negative max_delta."""
    from minitf.ops import random_ops
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    delta = random_ops.random_uniform([], -max_delta, max_delta, seed=seed)
    return adjust_brightness(image, delta)


def _reduce_std(x, axis, keepdims):
    with ops.name_scope(None, "reduce_std", [x]):
        with ops.name_scope(None, "reduce_variance", [x]):
            means = reduction_ops.reduce_mean(x, axis=axis, keepdims=True)
            sq = math_ops.squared_difference(x, means) if hasattr(math_ops, "squared_difference") \
                else math_ops.square(x - means)
            var = reduction_ops.reduce_mean(sq, axis=axis, keepdims=keepdims)
        return math_ops.sqrt(var)


def per_image_standardization(image):
    """(image - mean) / max(stddev, 1 / sqrt(num_pixels)) over each image's last three
    dims, in float32 (tf.image.per_image_standardization)."""
    with ops.name_scope(None, "per_image_standardization", [image]) as scope:
        image = ops.convert_to_tensor(image, name="image")
        image = _assert_at_least_3d_image(image)
        image = math_ops.cast(image, dtype=dtypes.float32)
        num_pixels = reduction_ops.reduce_prod(array_ops.shape(image)[-3:])
        mean = reduction_ops.reduce_mean(image, axis=[-1, -2, -3], keepdims=True)
        stddev = _reduce_std(image, axis=[-1, -2, -3], keepdims=True)
        min_stddev = math_ops.rsqrt(math_ops.cast(num_pixels, dtypes.float32))
        adjusted = math_ops.maximum(stddev, min_stddev)
        image -= mean
        return math_ops.divide(image, adjusted, name=scope)


def total_variation(images, name=None):
    """Sum of absolute differences of neighbouring pixels: a scalar for a 3-D image, one
    per image for 4-D (tf.image.total_variation). ValueError for other ranks."""
    with ops.name_scope(name, "total_variation"):
        ndims = images.shape.ndims
        if ndims == 3:
            d1 = images[1:, :, :] - images[:-1, :, :]
            d2 = images[:, 1:, :] - images[:, :-1, :]
            axis = None
        elif ndims == 4:
            d1 = images[:, 1:, :, :] - images[:, :-1, :, :]
            d2 = images[:, :, 1:, :] - images[:, :, :-1, :]
            axis = [1, 2, 3]
        else:
            raise ValueError("'images' must be either 3 or 4-dimensional.")
        return (reduction_ops.reduce_sum(math_ops.abs(d1), axis=axis) +
                reduction_ops.reduce_sum(math_ops.abs(d2), axis=axis))


def image_gradients(image):
    """(dy, dx): forward differences along height and width of a 4-D image, zero in the last
    row/column (tf.image.image_gradients). ValueError unless 4-D."""
    if image.shape.ndims != 4:
        raise ValueError("image_gradients expects a 4D tensor [batch_size, h, w, d], not "
                         "{}.".format(image.shape))
    image_shape = array_ops.shape(image)
    batch_size, height, width, depth = array_ops.unstack(image_shape)
    dy = image[:, 1:, :, :] - image[:, :-1, :, :]
    dx = image[:, :, 1:, :] - image[:, :, :-1, :]
    shape = array_ops.stack([batch_size, 1, width, depth])
    dy = array_ops.concat([dy, array_ops.zeros(shape, image.dtype)], 1)
    dy = array_ops.reshape(dy, image_shape)
    shape = array_ops.stack([batch_size, height, 1, depth])
    dx = array_ops.concat([dx, array_ops.zeros(shape, image.dtype)], 2)
    dx = array_ops.reshape(dx, image_shape)
    return dy, dx


def _verify_compatible_image_shapes(img1, img2):
    shape1 = img1.shape.with_rank_at_least(3)
    shape2 = img2.shape.with_rank_at_least(3)
    shape1[-3:].assert_is_compatible_with(shape2[-3:])
    if shape1.ndims is not None and shape2.ndims is not None:
        for d1, d2 in zip(reversed(shape1.as_list()[:-3]), reversed(shape2.as_list()[:-3])):
            if not (d1 == 1 or d2 == 1 or d1 is None or d2 is None or d1 == d2):
                raise ValueError("Two images are not compatible: %s and %s" % (shape1, shape2))
    s1, s2 = array_ops.shape_n([img1, img2])
    checks = [
        Assert(math_ops.greater_equal(array_ops.size(s1), 3), [s1, s2], summarize=10),
        Assert(reduction_ops.reduce_all(math_ops.equal(s1[-3:], s2[-3:])), [s1, s2],
               summarize=10),
    ]
    return s1, s2, checks


def psnr(a, b, max_val, name=None):
    """Peak signal-to-noise ratio per image over the last three dims, in float32
    (tf.image.psnr). ValueError for incompatible static shapes."""
    with ops.name_scope(name, "PSNR", [a, b]):
        max_val = math_ops.cast(max_val, a.dtype)
        max_val = convert_image_dtype(max_val, dtypes.float32)
        a = convert_image_dtype(a, dtypes.float32)
        b = convert_image_dtype(b, dtypes.float32)
        mse = reduction_ops.reduce_mean(math_ops.squared_difference(a, b), [-3, -2, -1])
        value = math_ops.subtract(
            20 * math_ops.log(max_val) / math_ops.log(10.0),
            np.float32(10 / np.log(10)) * math_ops.log(mse), name="psnr")
        _, _, checks = _verify_compatible_image_shapes(a, b)
        with ops.control_dependencies(checks):
            return array_ops.identity(value)


# ---- colour adjustments (C ops) ----

def adjust_contrast(images, contrast_factor):
    """(x - mean) * contrast_factor + mean per image and channel, in float (integer images
    through convert_image_dtype, saturated back) (tf.image.adjust_contrast; op
    AdjustContrastv2)."""
    with ops.name_scope(None, "adjust_contrast", [images, contrast_factor]) as name:
        images = ops.convert_to_tensor(images, name="images")
        orig_dtype = images.dtype
        flt = _float_image(images)
        adjusted = _op("AdjustContrastv2", name=name, images=flt,
                       contrast_factor=contrast_factor)
        return convert_image_dtype(adjusted, orig_dtype, saturate=True)


def adjust_hue(image, delta, name=None):
    """Rotates the hue of [..., 3] RGB images by delta (a fraction of the colour wheel)
    (tf.image.adjust_hue; op AdjustHue)."""
    with ops.name_scope(name, "adjust_hue", [image]) as name:
        image = ops.convert_to_tensor(image, name="image")
        orig_dtype = image.dtype
        flt = _float_image(image)
        altered = _op("AdjustHue", images=flt, delta=delta)
        return convert_image_dtype(altered, orig_dtype)


def adjust_saturation(image, saturation_factor, name=None):
    """Scales the saturation of [..., 3] RGB images, clamped to [0, 1]
    (tf.image.adjust_saturation; op AdjustSaturation)."""
    with ops.name_scope(name, "adjust_saturation", [image]) as name:
        image = ops.convert_to_tensor(image, name="image")
        orig_dtype = image.dtype
        flt = _float_image(image)
        adjusted = _op("AdjustSaturation", images=flt, scale=saturation_factor)
        return convert_image_dtype(adjusted, orig_dtype)


def random_contrast(image, lower, upper, seed=None):
    """adjust_contrast by a factor uniform in [lower, upper) (tf.image.random_contrast).
    ValueError unless 0 <= lower < upper."""
    from minitf.ops import random_ops
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")
    factor = random_ops.random_uniform([], lower, upper, seed=seed)
    return adjust_contrast(image, factor)


def random_hue(image, max_delta, seed=None):
    """adjust_hue by a delta uniform in [-max_delta, max_delta) (tf.image.random_hue).
    ValueError unless 0 <= max_delta <= 0.5."""
    from minitf.ops import random_ops
    if max_delta > 0.5:
        raise ValueError("max_delta must be <= 0.5.")
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    delta = random_ops.random_uniform([], -max_delta, max_delta, seed=seed)
    return adjust_hue(image, delta)


def random_saturation(image, lower, upper, seed=None):
    """adjust_saturation by a factor uniform in [lower, upper) (tf.image.random_saturation).
    ValueError unless 0 <= lower < upper."""
    from minitf.ops import random_ops
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")
    factor = random_ops.random_uniform([], lower, upper, seed=seed)
    return adjust_saturation(image, factor)


def random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed=None):
    """adjust_jpeg_quality at a quality uniform in [min, max) (tf.image.random_jpeg_quality).
    ValueError for a range outside [0, 100] or min >= max."""
    from minitf.ops import random_ops
    if (min_jpeg_quality < 0 or max_jpeg_quality < 0 or min_jpeg_quality > 100 or
            max_jpeg_quality > 100):
        raise ValueError("jpeg encoding range must be between 0 and 100.")
    if min_jpeg_quality >= max_jpeg_quality:
        raise ValueError("`min_jpeg_quality` must be less than `max_jpeg_quality`.")
    quality = random_ops.random_uniform([], min_jpeg_quality, max_jpeg_quality, seed=seed,
                                        dtype=dtypes.int32)
    return adjust_jpeg_quality(image, quality)


def random_crop(value, size, seed=None, name=None):
    """A `size` slice of `value` at a uniformly random offset (tf.image.random_crop:
    RandomUniformInt % (shape - size + 1), Slice). InvalidArgumentError at run time when a
    dimension of value is smaller than size."""
    from minitf.ops import random_ops
    with ops.name_scope(name, "random_crop", [value, size]) as name:
        value = ops.convert_to_tensor(value, name="value")
        size = ops.convert_to_tensor(size, dtype=dtypes.int32, name="size")
        shape = array_ops.shape(value)
        check = Assert(reduction_ops.reduce_all(shape >= size),
                       ["Need value.shape >= size, got ", shape, size], summarize=1000)
        shape = control_flow_ops.with_dependencies([check], shape)
        limit = shape - size + 1
        offset = random_ops.random_uniform(array_ops.shape(shape), dtype=size.dtype,
                                           maxval=size.dtype.max, seed=seed) % limit
        return indexing_ops.slice(value, offset, size, name=name)


def resize_image_with_pad(image, target_height, target_width, method=0, align_corners=False):
    """Resizes keeping the aspect ratio, then zero-pads to target_height x target_width
    (tf.compat.v1.image.resize_image_with_pad)."""
    from minitf.image import resize_images
    with ops.name_scope(None, "resize_image_with_pad", [image]):
        image = ops.convert_to_tensor(image, name="image")
        image, is_batch = _batched(image)
        checks = _check_at_least_3d_image(image, require_static=False)
        checks += _assert(target_width > 0, ValueError, "target_width must be > 0.")
        checks += _assert(target_height > 0, ValueError, "target_height must be > 0.")
        image = control_flow_ops.with_dependencies(checks, image)
        _, height, width, _ = _image_dimensions(image, rank=4)
        f_h = math_ops.cast(height, dtype=dtypes.float32)
        f_w = math_ops.cast(width, dtype=dtypes.float32)
        f_th = math_ops.cast(target_height, dtype=dtypes.float32)
        f_tw = math_ops.cast(target_width, dtype=dtypes.float32)
        ratio = _max(f_w / f_tw, f_h / f_th)
        rh_f, rw_f = f_h / ratio, f_w / ratio
        rh = math_ops.cast(math_ops.floor(rh_f), dtype=dtypes.int32)
        rw = math_ops.cast(math_ops.floor(rw_f), dtype=dtypes.int32)
        p_h = _max(0, math_ops.cast(math_ops.floor((f_th - rh_f) / 2), dtype=dtypes.int32))
        p_w = _max(0, math_ops.cast(math_ops.floor((f_tw - rw_f) / 2), dtype=dtypes.int32))
        resized = resize_images(image, [rh, rw], method, align_corners=align_corners)
        padded = pad_to_bounding_box(resized, p_h, p_w, target_height, target_width)
        if padded.shape.ndims is None:
            raise ValueError("padded contains no shape.")
        _image_dimensions(padded, rank=4)
        if not is_batch:
            padded = array_ops.squeeze(padded, axis=[0])
        return padded


# ---- edges and similarity ----

def sobel_edges(image):
    """Sobel responses [batch, h, w, d, 2] (dy, dx) of a 4-D float image, reflect-padded
    (tf.image.sobel_edges: MirrorPad + DepthwiseConv2dNative)."""
    from minitf.ops import nn_conv
    static_shape = image.shape
    image_shape = array_ops.shape(image)
    kernels = [[[-1, -2, -1], [0, 0, 0], [1, 2, 1]], [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]]
    kernels = np.expand_dims(np.transpose(np.asarray(kernels), (1, 2, 0)), -2)
    kernels_tf = ops.convert_to_tensor(kernels.astype(image.dtype.as_numpy_dtype),
                                       dtype=image.dtype)
    kernels_tf = array_ops.tile(kernels_tf, [1, 1, image_shape[-1], 1], name="sobel_filters")
    padded = indexing_ops.pad(image, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    output = nn_conv.depthwise_conv2d(padded, kernels_tf, [1, 1, 1, 1], "VALID")
    output = array_ops.reshape(output, shape=array_ops.concat([image_shape, [2]], 0))
    output.set_shape(static_shape.concatenate([2]))
    return output


def _ssim_helper(x, y, reducer, max_val, compensation=1.0, k1=0.01, k2=0.03):
    c1 = (k1 * max_val) ** 2
    c2 = (k2 * max_val) ** 2
    mean0, mean1 = reducer(x), reducer(y)
    num0 = mean0 * mean1 * 2.0
    den0 = math_ops.square(mean0) + math_ops.square(mean1)
    luminance = (num0 + c1) / (den0 + c1)
    num1 = reducer(x * y) * 2.0
    den1 = reducer(math_ops.square(x) + math_ops.square(y))
    c2 *= compensation
    cs = (num1 - num0 + c2) / (den1 - den0 + c2)
    return luminance, cs


def _fspecial_gauss(size, sigma):
    from minitf.ops import nn_ops
    size = ops.convert_to_tensor(size, dtypes.int32)
    sigma = ops.convert_to_tensor(sigma)
    coords = math_ops.cast(array_ops.range(size), sigma.dtype)
    coords -= math_ops.cast(size - 1, sigma.dtype) / 2.0
    g = math_ops.square(coords)
    g *= -0.5 / math_ops.square(sigma)
    g = array_ops.reshape(g, shape=[1, -1]) + array_ops.reshape(g, shape=[-1, 1])
    g = array_ops.reshape(g, shape=[1, -1])
    g = nn_ops.softmax(g)
    return array_ops.reshape(g, shape=[size, size, 1, 1])


def _ssim_per_channel(img1, img2, max_val, filter_size, filter_sigma, k1, k2,
                      return_index_map=False):
    from minitf.ops import nn_conv
    filter_size = ops.convert_to_tensor(np.int32(filter_size), dtype=dtypes.int32)
    filter_sigma = ops.convert_to_tensor(np.array(filter_sigma, img1.dtype.as_numpy_dtype),
                                         dtype=img1.dtype)
    shape1, shape2 = array_ops.shape_n([img1, img2])
    checks = [
        Assert(reduction_ops.reduce_all(math_ops.greater_equal(shape1[-3:-1], filter_size)),
               [shape1, filter_size], summarize=8),
        Assert(reduction_ops.reduce_all(math_ops.greater_equal(shape2[-3:-1], filter_size)),
               [shape2, filter_size], summarize=8),
    ]
    with ops.control_dependencies(checks):
        img1 = array_ops.identity(img1)
    kernel = _fspecial_gauss(filter_size, filter_sigma)
    kernel = array_ops.tile(kernel, multiples=[1, 1, shape1[-1], 1])

    def reducer(x):
        shape = array_ops.shape(x)
        x = array_ops.reshape(x, shape=array_ops.concat([[-1], shape[-3:]], 0))
        y = nn_conv.depthwise_conv2d(x, kernel, strides=[1, 1, 1, 1], padding="VALID")
        return array_ops.reshape(y, array_ops.concat([shape[:-3], array_ops.shape(y)[1:]], 0))

    luminance, cs = _ssim_helper(img1, img2, reducer, max_val, 1.0, k1, k2)
    if return_index_map:
        return luminance * cs, cs
    axes = ops.convert_to_tensor(np.array([-3, -2], np.int32), dtype=dtypes.int32)
    return reduction_ops.reduce_mean(luminance * cs, axes), reduction_ops.reduce_mean(cs, axes)


def _ssim_inputs(img1, img2, max_val):
    img1 = ops.convert_to_tensor(img1, name="img1")
    img2 = ops.convert_to_tensor(img2, name="img2")
    s1, s2, checks = _verify_compatible_image_shapes(img1, img2)
    with ops.control_dependencies(checks):
        img1 = array_ops.identity(img1)
    max_val = math_ops.cast(max_val, img1.dtype)
    max_val = convert_image_dtype(max_val, dtypes.float32)
    return (convert_image_dtype(img1, dtypes.float32), convert_image_dtype(img2, dtypes.float32),
            max_val, s1, s2)


def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03,
         return_index_map=False):
    """Structural similarity of two batches of [..., h, w, c] images (Gaussian window,
    filter_size x filter_size, sigma filter_sigma), averaged over channels (tf.image.ssim).
    InvalidArgumentError at run time when an image is smaller than the filter."""
    with ops.name_scope(None, "SSIM", [img1, img2]):
        img1, img2, max_val, _, _ = _ssim_inputs(img1, img2, max_val)
        per_channel, _ = _ssim_per_channel(img1, img2, max_val, filter_size, filter_sigma, k1,
                                           k2, return_index_map)
        return reduction_ops.reduce_mean(per_channel, [-1])


def ssim_multiscale(img1, img2, max_val, power_factors=(0.0448, 0.2856, 0.3001, 0.2363, 0.1333),
                    filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
    """Multi-scale SSIM over len(power_factors) scales, each half the size of the last
    (2x2 average pooling, symmetric padding to even sizes) (tf.image.ssim_multiscale)."""
    from minitf.ops import nn_conv, nn_ops
    with ops.name_scope(None, "MS-SSIM", [img1, img2]):
        img1, img2, max_val, shape1, shape2 = _ssim_inputs(img1, img2, max_val)
        imgs = [img1, img2]
        heads = [s[:-3] for s in (shape1, shape2)]
        tails = [s[-3:] for s in (shape1, shape2)]
        divisor = [1, 2, 2, 1]
        divisor_tensor = ops.convert_to_tensor(np.array(divisor[1:], np.int32))

        def paddings(remainder):
            padding = array_ops.expand_dims(remainder, -1)
            return indexing_ops.pad(padding, [[1, 0], [1, 0]])

        def do_pad(images, padding):
            return [indexing_ops.pad(x, padding, mode="SYMMETRIC") for x in images]

        mcs = []
        for k in range(len(power_factors)):
            with ops.name_scope(None, "Scale%d" % k, imgs):
                if k > 0:
                    flat = [array_ops.reshape(x, array_ops.concat([[-1], t], 0))
                            for x, t in zip(imgs, tails)]
                    remainder = tails[0] % divisor_tensor
                    need = reduction_ops.reduce_any(math_ops.not_equal(remainder, 0))
                    # TensorFlow builds the paddings inside the true branch; minitf builds
                    # them before the cond (a Pad on a captured value inside a function
                    # body gets a wrong static shape when the body is instantiated)
                    padding = paddings(remainder)
                    padded = control_flow_ops.cond(need, lambda: do_pad(flat, padding),
                                                   lambda: flat)
                    down = [nn_conv.avg_pool(x, ksize=divisor, strides=divisor, padding="VALID")
                            for x in padded]
                    tails = [x[1:] for x in array_ops.shape_n(down)]
                    imgs = [array_ops.reshape(x, array_ops.concat([h, t], 0))
                            for x, h, t in zip(down, heads, tails)]
                per_channel, cs = _ssim_per_channel(*imgs, max_val=max_val,
                                                    filter_size=filter_size,
                                                    filter_sigma=filter_sigma, k1=k1, k2=k2)
                mcs.append(nn_ops.relu(cs))
        mcs.pop()
        stacked = array_ops.stack(mcs + [nn_ops.relu(per_channel)], axis=-1)
        ms = reduction_ops.reduce_prod(math_ops.pow(stacked, power_factors), [-1])
        return reduction_ops.reduce_mean(ms, [-1])


# ---- non-max suppression ----

def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5,
                        score_threshold=float("-inf"), name=None):
    """Indices (int32 [<= max_output_size]) of boxes [n, 4] kept by greedy non-max
    suppression at iou_threshold, by descending score above score_threshold
    (tf.image.non_max_suppression; op NonMaxSuppressionV3)."""
    with ops.name_scope(name, "non_max_suppression"):
        iou_threshold = ops.convert_to_tensor(iou_threshold, name="iou_threshold")
        score_threshold = ops.convert_to_tensor(score_threshold, name="score_threshold")
        return _op("NonMaxSuppressionV3", boxes=boxes, scores=scores,
                   max_output_size=max_output_size, iou_threshold=iou_threshold,
                   score_threshold=score_threshold)


def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0,
                                    name=None):
    """(selected indices, their scores): non_max_suppression, or Soft-NMS (Gaussian score
    decay) when soft_nms_sigma > 0 (tf.image.non_max_suppression_with_scores; op
    NonMaxSuppressionV5)."""
    with ops.name_scope(name, "non_max_suppression_with_scores"):
        iou_threshold = ops.convert_to_tensor(iou_threshold, name="iou_threshold")
        score_threshold = ops.convert_to_tensor(score_threshold, name="score_threshold")
        soft_nms_sigma = ops.convert_to_tensor(soft_nms_sigma, name="soft_nms_sigma")
        indices, sel_scores, _ = _op("NonMaxSuppressionV5", boxes=boxes, scores=scores,
                                     max_output_size=max_output_size,
                                     iou_threshold=iou_threshold,
                                     score_threshold=score_threshold,
                                     soft_nms_sigma=soft_nms_sigma,
                                     pad_to_max_output_size=False)
        return indices, sel_scores


def non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                 score_threshold=float("-inf"), name=None):
    """non_max_suppression over a precomputed [n, n] overlap matrix
    (tf.image.non_max_suppression_overlaps; op NonMaxSuppressionWithOverlaps)."""
    with ops.name_scope(name, "non_max_suppression_overlaps"):
        overlap_threshold = ops.convert_to_tensor(overlap_threshold, name="overlap_threshold")
        return _op("NonMaxSuppressionWithOverlaps", overlaps=overlaps, scores=scores,
                   max_output_size=max_output_size, overlap_threshold=overlap_threshold,
                   score_threshold=score_threshold)


def draw_bounding_boxes(images, boxes, name=None, colors=None):
    """images [batch, h, w, 1|3|4] (float/half) with the outline of each box [y_min, x_min,
    y_max, x_max] (relative to the image) of boxes [batch, n, 4] drawn, in `colors`
    [k, >= depth] cycling per box or TensorFlow's default table
    (tf.compat.v1.image.draw_bounding_boxes; ops DrawBoundingBoxes, DrawBoundingBoxesV2)."""
    if colors is None:
        return _op("DrawBoundingBoxes", name=name, images=images, boxes=boxes)
    return _op("DrawBoundingBoxesV2", name=name, images=images, boxes=boxes, colors=colors)


def resize_area(images, size, align_corners=False, name=None):
    """Area-averaging resize of 4-D NHWC images to size = [new_height, new_width]
    (tf.compat.v1.image.resize_area; op ResizeArea). Output is float32 for every input
    dtype."""
    return _op("ResizeArea", name=name, images=images, size=size, align_corners=align_corners)
