"""tf.summary.image / ImageSummary against real TensorFlow 2.21.

PNG bytes depend on the encoder (TF's libpng compresses and filters; ours
writes stored deflate blocks), so the fixtures (tools/
gen_image_summary_fixtures.py, tests/fixtures/summary/image) hold TF's
Summary and TF's decoded pixels, and the tests compare pixels: our PNGs are
decoded by the small zlib-based decoder below (and by Pillow when it is
installed) and must equal the pixels of TF's own ImageSummary output."""
import glob
import os
import struct
import zlib

import numpy as np
import pytest

import minitf as tf

DIR = os.path.join(os.path.dirname(__file__), "..", "fixtures", "summary", "image")
CASES = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(DIR, "*.npz")))
CHANNELS = {0: 1, 2: 3, 6: 4}  # PNG colour type -> samples per pixel


def decode_png(data):
    """PNG (8-bit gray/RGB/RGBA, not interlaced) -> [h, w, c] uint8, checking
    every chunk CRC; handles all five row filters, so it reads TF's PNGs."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat, hdr = 8, b"", None
    while True:
        (n,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + n]
        assert struct.unpack(">I", data[at + 8 + n:at + 12 + n])[0] == zlib.crc32(kind + body)
        at += 12 + n
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    assert at == len(data)
    w, h, depth, color, _, _, interlace = hdr
    assert depth == 8 and interlace == 0
    c = CHANNELS[color]
    raw = zlib.decompress(idat)  # also checks the Adler-32
    stride = w * c
    assert len(raw) == h * (stride + 1)
    out = np.zeros((h, stride), np.int64)
    prev = np.zeros(stride, np.int64)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = np.frombuffer(raw, np.uint8, stride, y * (stride + 1) + 1).astype(np.int64)
        cur = np.zeros(stride, np.int64)
        for x in range(stride):
            a = cur[x - c] if x >= c else 0
            b = prev[x]
            d = prev[x - c] if x >= c else 0
            if f == 0:
                pred = 0
            elif f == 1:
                pred = a
            elif f == 2:
                pred = b
            elif f == 3:
                pred = (a + b) // 2
            else:
                p = a + b - d
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - d)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else d)
            cur[x] = (line[x] + pred) & 0xFF
        out[y] = prev = cur
    return out.astype(np.uint8).reshape(h, w, c)


def _load(name):
    z = np.load(os.path.join(DIR, name + ".npz"))
    with open(os.path.join(DIR, name + ".pb"), "rb") as f:
        theirs = tf.summary.Summary.FromString(f.read())
    return z, theirs


def _run(tensor, max_images, bad_color=None, name="tag"):
    with tf.Graph().as_default():
        if bad_color is None:
            s = tf.summary.image(name, tf.constant(tensor), max_outputs=max_images)
        else:
            s = tf.raw_ops.ImageSummary(tag=name, tensor=tf.constant(tensor),
                                        max_images=max_images, bad_color=bad_color)
        with tf.Session() as sess:
            return sess.run(s)


@pytest.mark.parametrize("case", CASES)
def test_pixels_equal_tensorflow(case):
    z, theirs = _load(case)
    bad = z["bad_color"] if z["bad_color"].size else None
    ours = tf.summary.Summary.FromString(_run(z["tensor"], int(z["max_images"]), bad))
    assert [v.tag for v in ours.value] == [v.tag for v in theirs.value]
    for k, (mine, tfv) in enumerate(zip(ours.value, theirs.value)):
        for field in ("height", "width", "colorspace"):
            assert getattr(mine.image, field) == getattr(tfv.image, field), field
        want = z["pixels_%d" % k]
        # Our decoder agrees with tf.io.decode_png on TF's own (filtered,
        # compressed) PNG, then reads ours.
        np.testing.assert_array_equal(decode_png(tfv.image.encoded_image_string), want)
        got = decode_png(mine.image.encoded_image_string)
        assert got.dtype == np.uint8 and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


def test_pixels_with_pillow():
    Image = pytest.importorskip("PIL.Image")
    import io
    for case in ("float32_pos_rgb", "float16_pos_rgba_max2", "uint8_gray_max1"):
        z, _ = _load(case)
        ours = tf.summary.Summary.FromString(_run(z["tensor"], int(z["max_images"])))
        for k, v in enumerate(ours.value):
            img = Image.open(io.BytesIO(v.image.encoded_image_string))
            img.load()
            got = np.asarray(img)
            want = z["pixels_%d" % k]
            np.testing.assert_array_equal(got.reshape(want.shape), want)
            assert img.mode == {1: "L", 3: "RGB", 4: "RGBA"}[want.shape[-1]]


def test_hand_worked_values():
    # Float, no negatives: 255 / max = 127.5; 1.0 -> 127.5 -> 127 (truncated).
    x = np.array([0.0, 1.0, 2.0, np.nan], np.float32).reshape(1, 2, 2, 1)
    s = tf.summary.Summary.FromString(_run(x, 1))
    (v,) = s.value
    assert (v.tag, v.image.height, v.image.width, v.image.colorspace) == ("tag/image", 2, 2, 1)
    # NaN takes bad_color[:1] = 255 (the default bad color is red).
    np.testing.assert_array_equal(decode_png(v.image.encoded_image_string).ravel(),
                                  [0, 127, 255, 255])
    # Negatives: scale 127 / max|x| = 63.5, offset 128: -2 -> 1, -1 -> 64.5
    # -> 64, 0.5 -> 159.75 -> 159; an RGB pixel with one Inf is all red.
    x = np.array([[-2, -1, 0.5], [0, 2, np.inf]], np.float64).reshape(1, 1, 2, 3)
    v = tf.summary.Summary.FromString(_run(x, 3)).value[0]
    assert v.tag == "tag/image/0" and v.image.colorspace == 3
    np.testing.assert_array_equal(decode_png(v.image.encoded_image_string).reshape(2, 3),
                                  [[1, 64, 159], [255, 0, 0]])


def test_max_images_and_tags():
    x = np.arange(5 * 2 * 3 * 4, dtype=np.uint8).reshape(5, 2, 3, 4)
    s = tf.summary.Summary.FromString(_run(x, 2, name="imgs"))
    assert [v.tag for v in s.value] == ["imgs/image/0", "imgs/image/1"]
    for k, v in enumerate(s.value):
        np.testing.assert_array_equal(decode_png(v.image.encoded_image_string), x[k])
    assert _run(np.zeros((0, 2, 2, 3), np.float32), 3) == b""
    with tf.Graph().as_default():
        with tf.name_scope("train"):
            a = tf.summary.image("in", np.zeros((1, 1, 1, 1), np.uint8), family="fam")
        b = tf.summary.image("in2", np.zeros((1, 1, 1, 1), np.uint8), collections=["mine"])
        assert tf.get_collection(tf.GraphKeys.SUMMARIES) == [a]
        assert tf.get_collection("mine") == [b]
        assert a.op.type == "ImageSummary" and a.op.get_attr("max_images") == 3
        with tf.Session() as sess:
            merged = tf.summary.Summary.FromString(sess.run(tf.summary.merge([a, b])))
    assert [v.tag for v in merged.value] == ["fam/train/fam/in/image/0", "in2/image/0"]  # as TF


def test_default_bad_color_attr():
    with tf.Graph().as_default():
        s = tf.summary.image("x", np.zeros((1, 1, 1, 3), np.float32))
        bad = tf.make_ndarray(s.op.get_attr("bad_color"))
    assert bad.dtype == np.uint8 and bad.tolist() == [255, 0, 0, 255]


# TF 2.21's messages, for the same inputs.
@pytest.mark.parametrize("tensor,bad_color,message", [
    (np.zeros((2, 3, 4), np.float32), None,
     r"Tensor must be 4-D with last dim 1, 3, or 4, not \[2,3,4\]"),
    (np.zeros((2, 3, 4, 2), np.float32), None,
     r"Tensor must be 4-D with last dim 1, 3, or 4, not \[2,3,4,2\]"),
    (np.zeros((2, 0, 4, 3), np.float32), None,
     r"input tensor must have non-zero dims. Found: \[2, 0, 4, 3\]\."),
    (np.zeros((2, 3, 0, 3), np.uint8), None,
     r"input tensor must have non-zero dims. Found: \[2, 3, 0, 3\]\."),
    (np.zeros((2, 3, 4, 3), np.float32), np.array([1, 2], np.uint8),
     r"expected depth <= bad_color.size, got depth = 3, bad_color.size = 2"),
    (np.zeros((2, 3, 4, 3), np.float32), np.array([1, 2, 3], np.int32),
     r"bad_color must be uint8, got int32"),
    (np.zeros((2, 3, 4, 3), np.float32), np.array(1, np.uint8),
     r"bad_color must be a vector, got shape \[\]"),
])
def test_errors_at_run_time(tensor, bad_color, message):
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.as_dtype(tensor.dtype))
        kw = {} if bad_color is None else {"bad_color": bad_color}
        s = tf.raw_ops.ImageSummary(tag="t", tensor=x, **kw)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match=message):
                sess.run(s, {x: tensor})


def test_errors_at_construction_and_tags():
    with tf.Graph().as_default():
        with pytest.raises(TypeError, match="DataType int32 not in list of allowed values: "
                                            "uint8, float32, float16, float64"):
            tf.summary.image("a", tf.constant(np.zeros((1, 2, 2, 1), np.int32)))  # TF: a numpy int32 becomes float32
        with pytest.raises(ValueError, match="Attr 'max_images' of 'ImageSummary' Op passed 0 "
                                             "less than minimum 1."):
            tf.summary.image("b", np.zeros((1, 2, 2, 1), np.float32), max_outputs=0)
        img = np.zeros((1, 2, 2, 1), np.uint8)
        legacy = tf.raw_ops.ImageSummary(tag=["one"], tensor=img)  # shape [1]: allowed
        two = tf.raw_ops.ImageSummary(tag=["a", "b"], tensor=img)
        # uint8 images never read bad_color, so a short one is no error.
        short = tf.raw_ops.ImageSummary(tag="c", tensor=img, bad_color=np.array([7], np.uint8))
        with tf.Session() as sess:
            assert tf.summary.Summary.FromString(sess.run(legacy)).value[0].tag == "one/image/0"
            assert tf.summary.Summary.FromString(sess.run(short)).value[0].image.width == 2
            with pytest.raises(tf.errors.InvalidArgumentError, match="Tags must be a scalar"):
                sess.run(two)


def test_images_read_by_tensorboard(tmp_path):
    ea_mod = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator")
    rgb = np.linspace(-1, 1, 2 * 3 * 5 * 3, dtype=np.float32).reshape(2, 3, 5, 3)
    with tf.Graph().as_default() as g:
        x = tf.compat.v1.placeholder(tf.float32, [None, 3, 5, 3])
        s = tf.summary.image("pics", x, max_outputs=2)
        with tf.summary.FileWriter(str(tmp_path), g) as w, tf.Session() as sess:
            w.add_summary(sess.run(s, {x: rgb}), 7)
    acc = ea_mod.EventAccumulator(str(tmp_path), size_guidance={"images": 0})
    acc.Reload()
    assert sorted(acc.Tags()["images"]) == ["pics/image/0", "pics/image/1"]
    for k in range(2):
        (ev,) = acc.Images("pics/image/%d" % k)
        assert (ev.step, ev.height, ev.width) == (7, 3, 5)
        # Image 0 holds [-1, -0.01]: scale 127 / max|x| = 127, offset 128.
        # Image 1 holds [0.01, 1]: no negatives, scale 255 / max = 255.
        scale, offset = (np.float32(127), np.float32(128)) if k == 0 else (np.float32(255), 0)
        want = np.trunc(rgb[k] * scale + offset).astype(np.uint8)
        np.testing.assert_array_equal(decode_png(ev.encoded_image_string), want)


def test_op_def_matches_tensorflow():
    from google.protobuf import text_format

    from minitf.core.framework import op_def_pb2
    from minitf.framework import op_def_library
    with open(os.path.join(DIR, "opdef.pbtxt")) as f:
        want = text_format.Parse(f.read(), op_def_pb2.OpDef())
    got = op_def_pb2.OpDef()
    got.CopyFrom(op_def_library.get_op_def("ImageSummary"))
    for f in ("summary", "description"):
        got.ClearField(f)
    for a in list(got.input_arg) + list(got.output_arg) + list(got.attr):
        a.ClearField("description")
    # Parsed and re-serialized, so packed / unpacked int_val compare equal.
    assert got.SerializeToString(deterministic=True) == want.SerializeToString(deterministic=True)
