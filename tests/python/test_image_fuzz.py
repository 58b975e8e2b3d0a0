"""Corrupt image bytes through every decoder op: truncations and random bit flips of the
files in tests/fixtures/images fed to DecodeImage, DecodePng, DecodeJpeg, DecodeGif,
DecodeBmp, DecodeAndCropJpeg and ExtractJpegShape. Each run either decodes (an image of
the op's rank) or fails with InvalidArgumentError -- never a crash, a hang or another
error. `make asan-pytest` runs this with the ASan/UBSan build of the runtime."""
import os

import numpy as np
import pytest

import minitf as tf

import image_cases

FILES = sorted(os.listdir(image_cases.IMAGES))


def _feed(b):
    # a 0-d object array: minitf's feed of a bytes scalar drops trailing NUL bytes
    return np.array(b, dtype=object)


def _mutations(data, seed, flips=60):
    rs = np.random.RandomState(seed)
    n = len(data)
    for cut in sorted(set(list(range(0, min(n, 64))) + list(range(0, n, max(1, n // 40))))):
        yield data[:cut]
    for _ in range(flips):
        b = bytearray(data)
        for _ in range(rs.randint(1, 5)):
            b[rs.randint(n)] ^= 1 << rs.randint(8)
        yield bytes(b)


def _decoders(tf, contents):
    return {
        "image": (tf.image.decode_image(contents), None),
        "image_first": (tf.image.decode_image(contents, expand_animations=False), 3),
        "png": (tf.image.decode_png(contents, channels=3), 3),
        "png16": (tf.image.decode_png(contents, dtype=tf.uint16), 3),
        "jpeg": (tf.image.decode_jpeg(contents), 3),
        "jpeg_recover": (tf.image.decode_jpeg(contents, try_recover_truncated=True,
                                              acceptable_fraction=0.2, ratio=2), 3),
        "gif": (tf.image.decode_gif(contents), 4),
        "bmp": (tf.image.decode_bmp(contents), 3),
        "crop": (tf.image.decode_and_crop_jpeg(contents, [1, 2, 4, 5]), 3),
        "shape": (tf.image.extract_jpeg_shape(contents), 1),
    }


@pytest.mark.parametrize("name", FILES)
def test_corrupt_bytes_give_invalid_argument(name):
    data = image_cases.data(name)
    with tf.Graph().as_default():
        contents = tf.placeholder(tf.string, [])
        ops = _decoders(tf, contents)
        with tf.Session() as sess:
            for k, (t, rank) in ops.items():  # the intact file decodes with its own op
                if k in ("image", "image_first"):
                    assert sess.run(t, {contents: _feed(data)}).ndim in (3, 4)
            decoded = failed = 0
            for m in _mutations(data, seed=len(name)):
                for k, (t, rank) in ops.items():
                    try:
                        v = sess.run(t, {contents: _feed(m)})
                    except tf.errors.InvalidArgumentError:
                        failed += 1
                        continue
                    decoded += 1
                    assert rank is None or v.ndim == rank, (k, v.shape)
            assert failed > 0
            # PNG checks a CRC per chunk, so all its flipped copies fail; the others survive
            # some flips (pixel data) and decode
            assert decoded > 0 or name.endswith(".png")
