"""tf.image cases, written against the TF1 API so the same code runs on TensorFlow 2.21
(tf.compat.v1) and on minitf. Each case takes `tf` and returns a tensor or a tuple of
tensors; tools/gen_image_expected.py records what TF builds (op type and static shape of
each result) and computes (values; strings as hex), or the error (class, message) building
or running it raises; tests/python/test_image_ops.py compares minitf's.

The codec cases decode the files of tests/fixtures/images (tools/gen_image_fixtures.py)
and corrupt copies of them, and encode images whose bytes TF's encoders (libpng with zlib,
libjpeg-turbo) must reproduce exactly.
"""
import os

import numpy as np

IMAGES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "images")


def data(name):
    with open(os.path.join(IMAGES, name), "rb") as f:
        return f.read()


def pattern(shape, dtype=np.uint8, seed=0):
    """Deterministic test pixels: uint8/uint16 spread over the range, floats in [0, 1)."""
    rs = np.random.RandomState(seed)
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return rs.rand(*shape).astype(dtype)
    hi = np.iinfo(dtype).max
    return rs.randint(0, int(hi) + 1, size=shape, dtype=np.int64).astype(dtype)


U8 = pattern((4, 5, 3))
U8_BATCH = pattern((2, 4, 5, 3), seed=1)
F32 = pattern((4, 5, 3), np.float32, seed=2)
F32_BATCH = pattern((2, 4, 6, 3), np.float32, seed=3)


def _ph(tf, value, shape=None):
    """value through a placeholder_with_default of (partly) unknown static shape."""
    return tf.placeholder_with_default(value, shape=shape)


def _codec_cases():
    c = {}
    for f in ["rgb.png", "rgba.png", "gray.png", "gray_alpha.png", "palette.png",
              "palette_trns.png", "gray1.png", "gray16.png"]:
        stem = f[:-4]
        c["decode_png_" + stem] = lambda tf, f=f: tf.image.decode_png(data(f))
        for ch in (1, 3, 4):
            c["decode_png_%s_c%d" % (stem, ch)] = \
                lambda tf, f=f, ch=ch: tf.image.decode_png(data(f), channels=ch)
        c["decode_png_%s_u16" % stem] = \
            lambda tf, f=f: tf.image.decode_png(data(f), dtype=tf.uint16)
    c["decode_png_gray_alpha_c2"] = lambda tf: tf.image.decode_png(data("gray_alpha.png"),
                                                                   channels=2)
    for f in ["rgb.jpg", "rgb444.jpg", "progressive.jpg", "gray.jpg", "cmyk.jpg"]:
        stem = f[:-4]
        c["decode_jpeg_" + stem] = lambda tf, f=f: tf.image.decode_jpeg(data(f))
        c["decode_jpeg_%s_c1" % stem] = lambda tf, f=f: tf.image.decode_jpeg(data(f), channels=1)
        c["decode_jpeg_%s_c3" % stem] = lambda tf, f=f: tf.image.decode_jpeg(data(f), channels=3)
        c["decode_jpeg_%s_accurate" % stem] = \
            lambda tf, f=f: tf.image.decode_jpeg(data(f), dct_method="INTEGER_ACCURATE")
        c["jpeg_shape_" + stem] = lambda tf, f=f: tf.image.extract_jpeg_shape(data(f))
    for r in (2, 4, 8):
        c["decode_jpeg_big_ratio%d" % r] = lambda tf, r=r: tf.image.decode_jpeg(
            data("big.jpg"), ratio=r)
    c["decode_jpeg_no_fancy"] = lambda tf: tf.image.decode_jpeg(data("big.jpg"),
                                                                fancy_upscaling=False)
    c["decode_jpeg_c4"] = lambda tf: tf.image.decode_jpeg(data("rgb.jpg"), channels=4)
    c["decode_jpeg_bad_ratio"] = lambda tf: tf.image.decode_jpeg(data("rgb.jpg"), ratio=3)
    c["decode_jpeg_bad_dct"] = lambda tf: tf.image.decode_jpeg(data("rgb.jpg"), dct_method="x")
    c["decode_jpeg_bad_channels"] = lambda tf: tf.image.decode_jpeg(data("rgb.jpg"), channels=2)
    big = data("big.jpg")
    c["decode_jpeg_truncated"] = lambda tf: tf.image.decode_jpeg(big[:len(big) * 2 // 3])
    c["decode_jpeg_truncated_recover"] = lambda tf: tf.image.decode_jpeg(
        big[:len(big) * 2 // 3], try_recover_truncated=True, acceptable_fraction=0.1)
    c["decode_jpeg_truncated_recover_too_little"] = lambda tf: tf.image.decode_jpeg(
        big[:len(big) // 3], try_recover_truncated=True, acceptable_fraction=0.9)
    c["decode_jpeg_header_only"] = lambda tf: tf.image.decode_jpeg(big[:200])
    c["jpeg_shape_int64"] = lambda tf: tf.image.extract_jpeg_shape(big, output_type=tf.int64)
    c["jpeg_shape_png"] = lambda tf: tf.image.extract_jpeg_shape(data("rgb.png"))
    c["jpeg_shape_not_scalar"] = lambda tf: tf.image.extract_jpeg_shape(
        _ph(tf, [big], shape=None))
    for win in ([2, 3, 20, 30], [0, 0, 40, 56], [5, 9, 1, 1], [1, 17, 30, 33]):
        c["crop_jpeg_%d_%d_%d_%d" % tuple(win)] = lambda tf, win=win: \
            tf.image.decode_and_crop_jpeg(big, win)
    c["crop_jpeg_gray"] = lambda tf: tf.image.decode_and_crop_jpeg(data("gray.jpg"),
                                                                   [1, 2, 5, 7])
    c["crop_jpeg_cmyk"] = lambda tf: tf.image.decode_and_crop_jpeg(data("cmyk.jpg"),
                                                                   [1, 3, 6, 9])
    c["crop_jpeg_progressive_c1"] = lambda tf: tf.image.decode_and_crop_jpeg(
        data("progressive.jpg"), [2, 1, 8, 11], channels=1)
    c["crop_jpeg_outside"] = lambda tf: tf.image.decode_and_crop_jpeg(big, [30, 0, 20, 10])
    c["crop_jpeg_png"] = lambda tf: tf.image.decode_and_crop_jpeg(data("rgb.png"), [0, 0, 2, 2])
    c["crop_jpeg_bad_window"] = lambda tf: tf.image.decode_and_crop_jpeg(
        big, _ph(tf, [1, 2, 3], shape=None))
    c["crop_jpeg_static_bad_window"] = lambda tf: tf.image.decode_and_crop_jpeg(big, [1, 2, 3])
    for f in ["anim.gif", "still.gif"]:
        stem = f[:-4]
        c["decode_gif_" + stem] = lambda tf, f=f: tf.image.decode_gif(data(f))
        c["decode_image_" + stem] = lambda tf, f=f: tf.image.decode_image(data(f))
        c["decode_image_%s_first" % stem] = lambda tf, f=f: tf.image.decode_image(
            data(f), expand_animations=False)
    c["decode_png_still_gif"] = lambda tf: tf.image.decode_png(data("still.gif"))
    c["decode_png_anim_gif"] = lambda tf: tf.image.decode_png(data("anim.gif"))
    c["decode_gif_png"] = lambda tf: tf.image.decode_gif(data("rgb.png"))
    c["decode_gif_jpeg"] = lambda tf: tf.image.decode_gif(data("rgb.jpg"))
    c["decode_jpeg_png"] = lambda tf: tf.image.decode_jpeg(data("rgba.png"))
    c["decode_png_jpeg"] = lambda tf: tf.image.decode_png(data("rgb.jpg"), channels=1)
    anim = data("anim.gif")
    c["decode_gif_truncated"] = lambda tf: tf.image.decode_gif(anim[:len(anim) // 2])
    for f in ["rgb24.bmp", "rgba32.bmp", "rgb24_topdown.bmp"]:
        stem = f[:-4]
        c["decode_bmp_" + stem] = lambda tf, f=f: tf.image.decode_bmp(data(f))
        c["decode_bmp_%s_c4" % stem] = lambda tf, f=f: tf.image.decode_bmp(data(f), channels=4)
        c["decode_bmp_%s_c3" % stem] = lambda tf, f=f: tf.image.decode_bmp(data(f), channels=3)
        c["decode_image_" + stem] = lambda tf, f=f: tf.image.decode_image(data(f))
    bmp = data("rgb24.bmp")
    c["decode_bmp_c1"] = lambda tf: tf.image.decode_bmp(bmp, channels=1)
    c["decode_bmp_truncated"] = lambda tf: tf.image.decode_bmp(bmp[:-5])
    c["decode_bmp_short"] = lambda tf: tf.image.decode_bmp(bmp[:20])
    c["decode_bmp_png"] = lambda tf: tf.image.decode_bmp(data("rgb.png"))
    c["decode_bmp_jpeg"] = lambda tf: tf.image.decode_bmp(data("rgb.jpg"))
    c["decode_png_bmp"] = lambda tf: tf.image.decode_png(bmp)
    for f in ["rgb.png", "gray16.png", "rgb.jpg", "gray.jpg"]:
        stem = f.replace(".", "_")
        c["decode_image_" + stem] = lambda tf, f=f: tf.image.decode_image(data(f))
        c["decode_image_%s_float" % stem] = lambda tf, f=f: tf.image.decode_image(
            data(f), dtype=tf.float32)
        c["decode_image_%s_u16" % stem] = lambda tf, f=f: tf.image.decode_image(
            data(f), dtype=tf.uint16)
    c["decode_image_channels3"] = lambda tf: tf.image.decode_image(data("gray.png"), channels=3,
                                                                   expand_animations=False)
    c["decode_image_float64"] = lambda tf: tf.image.decode_image(data("rgb.png"),
                                                                 dtype=tf.float64)
    c["decode_image_unknown"] = lambda tf: tf.image.decode_image(b"hello world")
    c["decode_image_empty"] = lambda tf: tf.image.decode_image(b"")
    c["decode_png_not_scalar"] = lambda tf: tf.image.decode_png(_ph(tf, [data("rgb.png")], None))
    c["decode_png_static_not_scalar"] = lambda tf: tf.image.decode_png([data("rgb.png")])
    c["decode_png_bad_channels"] = lambda tf: tf.image.decode_png(data("rgb.png"), channels=2)
    c["decode_png_negative_channels"] = lambda tf: tf.image.decode_png(data("rgb.png"),
                                                                       channels=-1)
    png = data("rgb.png")
    c["decode_png_truncated_header"] = lambda tf: tf.image.decode_png(png[:30])
    c["decode_png_truncated_data"] = lambda tf: tf.image.decode_png(png[:len(png) - 40])
    c["decode_png_bad_crc"] = lambda tf: tf.image.decode_png(
        png[:50] + bytes([png[50] ^ 0x40]) + png[51:])
    # encoders: TF's bytes
    for name, img in [("u8_rgb", U8), ("u8_gray", pattern((6, 7, 1), seed=4)),
                      ("u8_ga", pattern((3, 9, 2), seed=5)), ("u8_rgba", pattern((5, 4, 4), seed=6)),
                      ("u16_rgb", pattern((4, 3, 3), np.uint16, seed=7)),
                      ("u16_gray", pattern((5, 6, 1), np.uint16, seed=8))]:
        c["encode_png_" + name] = lambda tf, img=img: tf.image.encode_png(img)
    smooth = np.repeat(np.repeat(pattern((4, 4, 3), seed=9), 8, 0), 8, 1)
    for lvl in (0, 1, 6, 9):
        c["encode_png_level%d" % lvl] = lambda tf, lvl=lvl: tf.image.encode_png(smooth, lvl)
    c["encode_png_batch"] = lambda tf: tf.image.encode_png(U8_BATCH)
    c["encode_png_bad_level"] = lambda tf: tf.image.encode_png(U8, compression=10)
    c["encode_png_rank2"] = lambda tf: tf.image.encode_png(U8[0])
    c["encode_png_5_channels"] = lambda tf: tf.image.encode_png(pattern((2, 2, 5)))
    c["encode_png_roundtrip"] = lambda tf: tf.image.decode_png(tf.image.encode_png(smooth))
    for q in (10, 50, 95, 100):
        c["encode_jpeg_q%d" % q] = lambda tf, q=q: tf.image.encode_jpeg(smooth, quality=q)
    c["encode_jpeg_gray"] = lambda tf: tf.image.encode_jpeg(pattern((9, 11, 1), seed=10))
    c["encode_jpeg_progressive"] = lambda tf: tf.image.encode_jpeg(smooth, progressive=True)
    c["encode_jpeg_optimize"] = lambda tf: tf.image.encode_jpeg(smooth, optimize_size=True)
    c["encode_jpeg_no_chroma"] = lambda tf: tf.image.encode_jpeg(smooth,
                                                                 chroma_downsampling=False)
    c["encode_jpeg_density"] = lambda tf: tf.image.encode_jpeg(smooth, density_unit="cm",
                                                               x_density=72, y_density=96)
    c["encode_jpeg_xmp"] = lambda tf: tf.image.encode_jpeg(smooth, xmp_metadata="<x:xmpmeta/>")
    c["encode_jpeg_format_rgb"] = lambda tf: tf.image.encode_jpeg(smooth, format="rgb")
    c["encode_jpeg_format_mismatch"] = lambda tf: tf.image.encode_jpeg(smooth,
                                                                       format="grayscale")
    c["encode_jpeg_4_channels"] = lambda tf: tf.image.encode_jpeg(pattern((3, 3, 4)))
    c["encode_jpeg_bad_quality"] = lambda tf: tf.image.encode_jpeg(smooth, quality=101)
    c["encode_jpeg_rank4"] = lambda tf: tf.image.encode_jpeg(U8_BATCH)
    c["encode_jpeg_roundtrip"] = lambda tf: tf.image.decode_jpeg(tf.image.encode_jpeg(smooth))
    c["adjust_jpeg_quality_u8"] = lambda tf: tf.image.adjust_jpeg_quality(smooth, 40)
    c["adjust_jpeg_quality_float"] = lambda tf: tf.image.adjust_jpeg_quality(
        smooth.astype(np.float32) / 255, 70)
    c["adjust_jpeg_quality_bad"] = lambda tf: tf.image.adjust_jpeg_quality(smooth, 120)
    c["encode_jpeg_vq_not_scalar"] = lambda tf: tf.raw_ops.EncodeJpegVariableQuality(
        images=smooth, quality=[50])
    return c


def _geometry_cases():
    c = {}
    f4 = F32_BATCH
    for fn in ("flip_left_right", "flip_up_down", "transpose", "transpose_image"):
        c[fn + "_3d"] = lambda tf, fn=fn: getattr(tf.image, fn)(U8)
        c[fn + "_4d"] = lambda tf, fn=fn: getattr(tf.image, fn)(f4)
        c[fn + "_partial"] = lambda tf, fn=fn: getattr(tf.image, fn)(
            _ph(tf, U8, shape=[None, None, 3]))
        c[fn + "_rank2"] = lambda tf, fn=fn: getattr(tf.image, fn)(U8[0])
        c[fn + "_rank5"] = lambda tf, fn=fn: getattr(tf.image, fn)(f4[None])
    c["flip_left_right_zero_dim"] = lambda tf: tf.image.flip_left_right(np.zeros((0, 2, 3)))
    c["flip_left_right_run_zero"] = lambda tf: tf.image.flip_left_right(
        _ph(tf, np.zeros((0, 2, 3), np.float32), shape=[None, 2, 3]))
    for k in range(-1, 6):
        c["rot90_3d_k%d" % k] = lambda tf, k=k: tf.image.rot90(U8, k)
    c["rot90_4d_k1"] = lambda tf: tf.image.rot90(f4)
    c["rot90_4d_k3"] = lambda tf: tf.image.rot90(f4, 3)
    c["rot90_tensor_k"] = lambda tf: tf.image.rot90(U8, tf.constant(2))
    c["rot90_bad_k_rank"] = lambda tf: tf.image.rot90(U8, [1])
    c["rot90_rank2"] = lambda tf: tf.image.rot90(U8[0])
    big = pattern((6, 9, 2), np.float32, seed=11)
    for frac in (0.5, 0.33, 1.0, 0.9):
        c["central_crop_%g" % frac] = lambda tf, frac=frac: tf.image.central_crop(big, frac)
    c["central_crop_4d"] = lambda tf: tf.image.central_crop(f4, 0.6)
    c["central_crop_partial"] = lambda tf: tf.image.central_crop(
        _ph(tf, big, shape=[None, None, 2]), 0.5)
    c["central_crop_bad"] = lambda tf: tf.image.central_crop(big, 1.5)
    c["central_crop_zero"] = lambda tf: tf.image.central_crop(big, 0.0)
    c["central_crop_rank2"] = lambda tf: tf.image.central_crop(big[0], 0.5)
    c["crop_to_bbox"] = lambda tf: tf.image.crop_to_bounding_box(big, 1, 2, 3, 4)
    c["crop_to_bbox_4d"] = lambda tf: tf.image.crop_to_bounding_box(f4, 1, 1, 2, 3)
    c["crop_to_bbox_dynamic"] = lambda tf: tf.image.crop_to_bounding_box(
        _ph(tf, big, shape=[None, None, None]), 1, 2, 3, 4)
    c["crop_to_bbox_dynamic_too_big"] = lambda tf: tf.image.crop_to_bounding_box(
        _ph(tf, big, shape=[None, None, None]), 4, 2, 3, 4)
    c["crop_to_bbox_tensor_offset"] = lambda tf: tf.image.crop_to_bounding_box(
        big, tf.constant(2), 1, 2, 2)
    c["crop_to_bbox_too_big"] = lambda tf: tf.image.crop_to_bounding_box(big, 4, 2, 3, 4)
    c["crop_to_bbox_negative"] = lambda tf: tf.image.crop_to_bounding_box(big, -1, 2, 3, 4)
    c["crop_to_bbox_zero_target"] = lambda tf: tf.image.crop_to_bounding_box(big, 1, 2, 0, 4)
    c["crop_to_bbox_rank2"] = lambda tf: tf.image.crop_to_bounding_box(big[0], 0, 0, 1, 1)
    c["pad_to_bbox"] = lambda tf: tf.image.pad_to_bounding_box(big, 1, 2, 9, 12)
    c["pad_to_bbox_4d"] = lambda tf: tf.image.pad_to_bounding_box(f4, 0, 3, 5, 9)
    c["pad_to_bbox_dynamic"] = lambda tf: tf.image.pad_to_bounding_box(
        _ph(tf, big, shape=None), 1, 2, 9, 12)
    c["pad_to_bbox_dynamic_small"] = lambda tf: tf.image.pad_to_bounding_box(
        _ph(tf, big, shape=None), 1, 2, 6, 12)
    c["pad_to_bbox_small"] = lambda tf: tf.image.pad_to_bounding_box(big, 1, 2, 6, 12)
    c["pad_to_bbox_negative"] = lambda tf: tf.image.pad_to_bounding_box(big, 0, -2, 9, 12)
    for th, tw in ((4, 4), (8, 12), (6, 9), (3, 15), (10, 5)):
        c["crop_or_pad_%dx%d" % (th, tw)] = lambda tf, th=th, tw=tw: \
            tf.image.resize_with_crop_or_pad(big, th, tw)
    c["crop_or_pad_4d"] = lambda tf: tf.image.resize_image_with_crop_or_pad(f4, 3, 8)
    c["crop_or_pad_dynamic"] = lambda tf: tf.image.resize_image_with_crop_or_pad(
        _ph(tf, big, shape=[None, None, 2]), 5, 11)
    c["crop_or_pad_zero"] = lambda tf: tf.image.resize_with_crop_or_pad(big, 0, 4)
    for src in ("uint8", "uint16", "int32", "int8", "float32", "float64", "float16"):
        for dst in ("uint8", "uint16", "int32", "int16", "float32", "float64"):
            if src == dst:
                continue
            # floats in [0, 1) without saturation (a cast out of range is undefined);
            # with saturation also beyond, where the clamp decides
            img = pattern((3, 4, 2), np.float64, seed=12).astype(src) \
                if src.startswith("float") else pattern((3, 4, 2), src, seed=12)
            wide = (pattern((3, 4, 2), np.float64, seed=12) * 1.2 - 0.1).astype(src) \
                if src.startswith("float") else img
            c["convert_%s_%s" % (src, dst)] = lambda tf, img=img, dst=dst: \
                tf.image.convert_image_dtype(img, getattr(tf, dst))
            c["convert_%s_%s_sat" % (src, dst)] = lambda tf, img=wide, dst=dst: \
                tf.image.convert_image_dtype(img, getattr(tf, dst), saturate=True)
    c["convert_same"] = lambda tf: tf.image.convert_image_dtype(U8, tf.uint8)
    c["convert_bad_dtype"] = lambda tf: tf.image.convert_image_dtype(U8, tf.string)
    c["convert_bool_image"] = lambda tf: tf.image.convert_image_dtype(U8 > 3, tf.float32)
    return c


def _color_cases():
    c = {}
    for dt in ("uint8", "float32"):
        img = U8 if dt == "uint8" else F32
        c["rgb_to_grayscale_" + dt] = lambda tf, img=img: tf.image.rgb_to_grayscale(img)
        c["grayscale_to_rgb_" + dt] = lambda tf, img=img: tf.image.grayscale_to_rgb(
            tf.constant(img[..., :1]))
        c["grayscale_to_rgb_numpy_" + dt] = lambda tf, img=img: tf.image.grayscale_to_rgb(
            img[..., :1])
    c["rgb_to_grayscale_batch"] = lambda tf: tf.image.rgb_to_grayscale(F32_BATCH)
    c["rgb_to_grayscale_dynamic"] = lambda tf: tf.image.rgb_to_grayscale(_ph(tf, F32, None))
    c["grayscale_to_rgb_bad"] = lambda tf: tf.image.grayscale_to_rgb(tf.constant(F32))
    c["grayscale_to_rgb_rank1"] = lambda tf: tf.image.grayscale_to_rgb(
        tf.constant(F32[0, 0, :1]))
    c["grayscale_to_rgb_dynamic"] = lambda tf: tf.image.grayscale_to_rgb(
        _ph(tf, F32[..., :1], [None, None, None]))
    for fn in ("rgb_to_yiq", "yiq_to_rgb", "rgb_to_yuv", "yuv_to_rgb"):
        c[fn] = lambda tf, fn=fn: getattr(tf.image, fn)(F32)
        c[fn + "_batch_f64"] = lambda tf, fn=fn: getattr(tf.image, fn)(
            F32_BATCH.astype(np.float64))
    for d in (-0.7, -0.2, 0.0, 0.1, 0.45, 1.5):
        c["adjust_hue_%g" % d] = lambda tf, d=d: tf.image.adjust_hue(F32_BATCH, d)
    c["adjust_hue_u8"] = lambda tf: tf.image.adjust_hue(U8, 0.3)
    c["adjust_hue_2_channels"] = lambda tf: tf.image.adjust_hue(F32[..., :2], 0.3)
    c["adjust_hue_rank2"] = lambda tf: tf.image.adjust_hue(F32[0], 0.3)
    for f in (0.0, 0.5, 1.0, 1.7, 4.0):
        c["adjust_saturation_%g" % f] = lambda tf, f=f: tf.image.adjust_saturation(F32_BATCH, f)
    c["adjust_saturation_u8"] = lambda tf: tf.image.adjust_saturation(U8, 2.0)
    c["adjust_saturation_bad_factor"] = lambda tf: tf.image.adjust_saturation(
        F32, _ph(tf, [1.0, 2.0], None))
    for f in (0.0, 0.5, 1.0, 2.5, -1.0):
        c["adjust_contrast_%g" % f] = lambda tf, f=f: tf.image.adjust_contrast(F32_BATCH, f)
    c["adjust_contrast_u8"] = lambda tf: tf.image.adjust_contrast(U8, 1.8)
    c["adjust_contrast_f16"] = lambda tf: tf.image.adjust_contrast(F32.astype(np.float16), 1.5)
    c["adjust_contrast_5d"] = lambda tf: tf.image.adjust_contrast(F32_BATCH[None], 0.3)
    c["adjust_contrast_rank2"] = lambda tf: tf.image.adjust_contrast(F32[0], 0.3)
    c["adjust_brightness_f32"] = lambda tf: tf.image.adjust_brightness(F32, 0.25)
    c["adjust_brightness_u8"] = lambda tf: tf.image.adjust_brightness(U8, -0.3)
    c["adjust_brightness_u8_up"] = lambda tf: tf.image.adjust_brightness(U8, 0.6)
    c["adjust_brightness_f64"] = lambda tf: tf.image.adjust_brightness(F32.astype(np.float64),
                                                                       0.1)
    for g, gain in ((1, 1), (0.5, 1), (2.2, 0.8), (0, 2)):
        c["adjust_gamma_%g_%g" % (g, gain)] = lambda tf, g=g, gain=gain: \
            tf.image.adjust_gamma(F32, g, gain)
    c["adjust_gamma_u8"] = lambda tf: tf.image.adjust_gamma(U8, 0.7)
    c["adjust_gamma_negative"] = lambda tf: tf.image.adjust_gamma(F32, -1.0)
    c["adjust_gamma_tensor_negative"] = lambda tf: tf.image.adjust_gamma(F32, tf.constant(-1.0))
    c["per_image_standardization"] = lambda tf: tf.image.per_image_standardization(F32_BATCH)
    c["per_image_standardization_u8"] = lambda tf: tf.image.per_image_standardization(U8)
    c["per_image_standardization_flat"] = lambda tf: tf.image.per_image_standardization(
        np.full((3, 3, 2), 0.5, np.float32))
    c["per_image_standardization_rank2"] = lambda tf: tf.image.per_image_standardization(F32[0])
    c["total_variation_3d"] = lambda tf: tf.image.total_variation(tf.constant(F32))
    c["total_variation_4d"] = lambda tf: tf.image.total_variation(tf.constant(F32_BATCH))
    c["total_variation_u8"] = lambda tf: tf.image.total_variation(
        tf.constant(U8.astype(np.int32)))
    c["total_variation_rank2"] = lambda tf: tf.image.total_variation(tf.constant(F32[0]))
    c["image_gradients"] = lambda tf: tf.image.image_gradients(tf.constant(F32_BATCH))
    c["image_gradients_rank3"] = lambda tf: tf.image.image_gradients(tf.constant(F32))
    c["sobel_edges"] = lambda tf: tf.image.sobel_edges(tf.constant(F32_BATCH))
    c["sobel_edges_f64"] = lambda tf: tf.image.sobel_edges(
        tf.constant(F32_BATCH[:1].astype(np.float64)))
    other = pattern(F32_BATCH.shape, np.float32, seed=20)
    c["psnr_f32"] = lambda tf: tf.image.psnr(tf.constant(F32_BATCH), other, 1.0)
    c["psnr_u8"] = lambda tf: tf.image.psnr(tf.constant(U8_BATCH), U8_BATCH[::-1], 255)
    c["psnr_same"] = lambda tf: tf.image.psnr(tf.constant(F32), F32, 1.0)
    c["psnr_mismatch"] = lambda tf: tf.image.psnr(tf.constant(F32), F32_BATCH, 1.0)
    s1 = pattern((2, 16, 18, 3), np.float32, seed=21)
    s2 = np.clip(s1 + (pattern(s1.shape, np.float32, seed=22) - 0.5) * 0.2, 0, 1)
    c["ssim"] = lambda tf: tf.image.ssim(tf.constant(s1), s2, 1.0)
    c["ssim_small_filter"] = lambda tf: tf.image.ssim(tf.constant(s1), s2, 1.0, filter_size=5,
                                                      filter_sigma=0.8, k1=0.02, k2=0.05)
    c["ssim_map"] = lambda tf: tf.image.ssim(tf.constant(s1[:1]), s2[:1], 1.0, filter_size=7,
                                             return_index_map=True)
    c["ssim_u8"] = lambda tf: tf.image.ssim(tf.constant((s1 * 255).astype(np.uint8)),
                                            (s2 * 255).astype(np.uint8), 255)
    c["ssim_too_small"] = lambda tf: tf.image.ssim(tf.constant(F32), F32, 1.0)
    c["ssim_mismatch"] = lambda tf: tf.image.ssim(tf.constant(s1), s2[:, :8], 1.0)
    m1 = pattern((1, 36, 34, 2), np.float32, seed=23)
    m2 = np.clip(m1 * 0.8 + 0.1, 0, 1)
    c["ssim_multiscale"] = lambda tf: tf.image.ssim_multiscale(
        tf.constant(m1), m2, 1.0, power_factors=(0.3, 0.3, 0.4), filter_size=5)
    c["ssim_multiscale_two"] = lambda tf: tf.image.ssim_multiscale(
        tf.constant(m1), m2, 1.0, power_factors=(0.5, 0.5), filter_size=3, filter_sigma=0.7)
    return c


def _random_cases():
    c = {}
    c["random_flip_left_right_3d"] = lambda tf: tf.image.random_flip_left_right(U8, seed=3)
    c["random_flip_up_down_4d"] = lambda tf: tf.image.random_flip_up_down(
        F32_BATCH, seed=5)
    c["random_brightness"] = lambda tf: tf.image.random_brightness(F32, 0.3, seed=1)
    c["random_brightness_negative"] = lambda tf: tf.image.random_brightness(F32, -0.3)
    c["random_contrast"] = lambda tf: tf.image.random_contrast(F32_BATCH, 0.5, 1.5, seed=2)
    c["random_contrast_bad"] = lambda tf: tf.image.random_contrast(F32, 1.5, 0.5)
    c["random_contrast_negative"] = lambda tf: tf.image.random_contrast(F32, -0.5, 0.5)
    c["random_hue"] = lambda tf: tf.image.random_hue(F32_BATCH, 0.2, seed=4)
    c["random_hue_too_big"] = lambda tf: tf.image.random_hue(F32, 0.6)
    c["random_saturation"] = lambda tf: tf.image.random_saturation(F32_BATCH, 0.3, 1.9, seed=6)
    c["random_saturation_bad"] = lambda tf: tf.image.random_saturation(F32, 2.0, 1.0)
    c["random_jpeg_quality"] = lambda tf: tf.image.random_jpeg_quality(U8, 20, 80, seed=8)
    c["random_jpeg_quality_bad"] = lambda tf: tf.image.random_jpeg_quality(U8, 80, 20)
    c["random_jpeg_quality_range"] = lambda tf: tf.image.random_jpeg_quality(U8, 20, 180)
    c["random_crop"] = lambda tf: tf.image.random_crop(pattern((6, 7, 3), seed=9), [3, 4, 3],
                                                       seed=9)
    c["random_crop_too_big"] = lambda tf: tf.image.random_crop(U8, [5, 5, 3], seed=1)
    return c


def _nms_cases():
    c = {}
    rs = np.random.RandomState(30)
    corner = rs.rand(40, 2).astype(np.float32)
    boxes = np.concatenate([corner, corner + rs.rand(40, 2).astype(np.float32) * 0.4], 1)
    boxes[::7] = boxes[::7][:, [2, 3, 0, 1]]  # some given as (max, min)
    scores = rs.rand(40).astype(np.float32)
    scores[5] = scores[9]  # a tie: the lower index first
    ov = rs.rand(12, 12).astype(np.float32)
    c["nms"] = lambda tf: tf.image.non_max_suppression(boxes, scores, 10)
    c["nms_iou_0.2"] = lambda tf: tf.image.non_max_suppression(boxes, scores, 40, 0.2)
    c["nms_score_threshold"] = lambda tf: tf.image.non_max_suppression(boxes, scores, 40, 0.6,
                                                                       0.5)
    c["nms_zero_out"] = lambda tf: tf.image.non_max_suppression(boxes, scores, 0)
    c["nms_bad_iou"] = lambda tf: tf.image.non_max_suppression(boxes, scores, 4, 1.5)
    c["nms_bad_boxes"] = lambda tf: tf.image.non_max_suppression(boxes[:, :3], scores, 4)
    c["nms_mismatch"] = lambda tf: tf.image.non_max_suppression(boxes, scores[:5], 4)
    c["nms_run_mismatch"] = lambda tf: tf.image.non_max_suppression(
        _ph(tf, boxes, None), _ph(tf, scores[:5], None), 4)
    c["nms_negative_out"] = lambda tf: tf.image.non_max_suppression(boxes, scores, -1)
    c["nms_with_scores_hard"] = lambda tf: tf.image.non_max_suppression_with_scores(
        boxes, scores, 12, 0.4)
    c["nms_with_scores_soft"] = lambda tf: tf.image.non_max_suppression_with_scores(
        boxes, scores, 25, 1.0, 0.1, soft_nms_sigma=0.5)
    c["nms_with_scores_soft_small"] = lambda tf: tf.image.non_max_suppression_with_scores(
        boxes, scores, 40, 0.5, 0.0, soft_nms_sigma=0.1)
    c["nms_with_scores_bad_sigma"] = lambda tf: tf.image.non_max_suppression_with_scores(
        boxes, scores, 4, 0.5, 0.0, soft_nms_sigma=-1.0)
    c["nms_overlaps"] = lambda tf: tf.image.non_max_suppression_overlaps(ov, scores[:12], 6,
                                                                         0.7, 0.2)
    c["nms_overlaps_not_square"] = lambda tf: tf.image.non_max_suppression_overlaps(
        ov[:, :5], scores[:12], 6)
    c["nms_v1"] = lambda tf: tf.raw_ops.NonMaxSuppression(boxes=boxes, scores=scores,
                                                          max_output_size=8, iou_threshold=0.3)
    c["nms_v2"] = lambda tf: tf.raw_ops.NonMaxSuppressionV2(boxes=boxes, scores=scores,
                                                            max_output_size=8,
                                                            iou_threshold=0.3)
    c["nms_v4_pad"] = lambda tf: tf.raw_ops.NonMaxSuppressionV4(
        boxes=boxes, scores=scores, max_output_size=30, iou_threshold=0.2, score_threshold=0.3,
        pad_to_max_output_size=True)
    c["nms_v4"] = lambda tf: tf.raw_ops.NonMaxSuppressionV4(
        boxes=boxes, scores=scores, max_output_size=30, iou_threshold=0.2, score_threshold=0.3)
    c["nms_v5_pad"] = lambda tf: tf.raw_ops.NonMaxSuppressionV5(
        boxes=boxes, scores=scores, max_output_size=30, iou_threshold=0.5, score_threshold=0.3,
        soft_nms_sigma=0.3, pad_to_max_output_size=True)
    return c


def _draw_cases():
    c = {}
    imgs = pattern((2, 9, 11, 3), np.float32, seed=40)
    boxes = np.array([[[0.1, 0.2, 0.8, 0.9], [0.5, 0.5, 0.5, 0.5], [-0.2, -0.1, 0.4, 1.3],
                       [0.9, 0.1, 0.2, 0.6]],
                      [[0.0, 0.0, 1.0, 1.0], [1.2, 0.2, 1.5, 0.4], [0.3, 0.6, 0.7, 0.61],
                       [0.05, 0.05, 0.95, 0.95]]], np.float32)
    colors = np.array([[0.2, 0.4, 0.6, 1.0], [1.0, 0.5, 0.0, 0.5]], np.float32)
    c["draw_boxes"] = lambda tf: tf.image.draw_bounding_boxes(imgs, boxes)
    c["draw_boxes_gray"] = lambda tf: tf.image.draw_bounding_boxes(imgs[..., :1], boxes)
    c["draw_boxes_rgba"] = lambda tf: tf.image.draw_bounding_boxes(
        np.concatenate([imgs, imgs[..., :1]], -1), boxes)
    c["draw_boxes_colors"] = lambda tf: tf.image.draw_bounding_boxes(imgs, boxes, colors=colors)
    c["draw_boxes_half"] = lambda tf: tf.image.draw_bounding_boxes(
        tf.constant(imgs.astype(np.float16)), boxes)
    c["draw_boxes_bad_depth"] = lambda tf: tf.image.draw_bounding_boxes(imgs[..., :2], boxes)
    c["draw_boxes_bad_batch"] = lambda tf: tf.image.draw_bounding_boxes(imgs, boxes[:1])
    c["draw_boxes_bad_colors"] = lambda tf: tf.image.draw_bounding_boxes(imgs, boxes,
                                                                         colors=colors[:, :2])
    c["draw_boxes_rank3"] = lambda tf: tf.image.draw_bounding_boxes(imgs[0], boxes)
    return c


def _resize_cases():
    c = {}
    img = pattern((2, 7, 9, 3), np.float32, seed=50)
    for size in ((3, 4), (7, 9), (10, 13), (2, 9), (5, 3), (1, 1)):
        for align in (False, True):
            c["resize_area_%dx%d_%d" % (size + (align,))] = \
                lambda tf, size=size, align=align: tf.image.resize_area(img, size, align)
    c["resize_area_u8_gray"] = lambda tf: tf.image.resize_area(pattern((1, 8, 6, 1)), [3, 5])
    c["resize_area_i64_4c"] = lambda tf: tf.image.resize_area(
        pattern((1, 5, 5, 4), np.uint16).astype(np.int64), [2, 3])
    c["resize_area_f64"] = lambda tf: tf.image.resize_area(img.astype(np.float64), [4, 4])
    c["resize_area_dynamic_size"] = lambda tf: tf.image.resize_area(
        img, _ph(tf, np.array([4, 5], np.int32), [2]))
    c["resize_area_bad_size"] = lambda tf: tf.image.resize_area(img, [0, 4])
    c["resize_area_rank3"] = lambda tf: tf.image.resize_area(img[0], [2, 2])
    return c


CASES = dict(_codec_cases())
CASES.update(_resize_cases())
CASES.update(_draw_cases())
CASES.update(_nms_cases())
CASES.update(_geometry_cases())
CASES.update(_color_cases())
CASES.update(_random_cases())


def jsonable(v):
    """A fetched value as JSON: {"dtype", "shape", "value"} with bytes as hex."""
    a = np.asarray(v)
    if a.dtype.kind in "SOU":
        flat = [x.hex() if isinstance(x, bytes) else str(x) for x in a.reshape(-1).tolist()]
        return {"dtype": "string", "shape": list(a.shape), "value": flat}
    vals = a.reshape(-1)
    if a.dtype.kind == "f":
        vals = [float(x) for x in vals.astype(np.float64)]
    elif a.dtype.kind == "b":
        vals = [bool(x) for x in vals]
    else:
        vals = [int(x) for x in vals]
    return {"dtype": a.dtype.name, "shape": list(a.shape), "value": vals}


def outputs(result):
    return list(result) if isinstance(result, (tuple, list)) else [result]


def describe(t):
    """[op type, static shape (None = unknown rank, -1 = unknown dim)] of a result."""
    shape = None if t.shape.ndims is None else [d if d is not None else -1
                                                for d in t.shape.as_list()]
    return [t.op.type, shape]
