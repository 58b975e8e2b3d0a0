#!/usr/bin/env python3
"""Writes ImageSummary outputs of real TensorFlow 2.21 for the pixel
comparison tests (developer tool; run with /opt/tfvenv/bin/python).

PNG bytes depend on the encoder (libpng's filters, zlib's compression), so
tests compare decoded pixels, not bytes. For each case NAME,
tests/fixtures/summary/image/:
  NAME.npz   tensor (the op's input), max_images, bad_color (empty = the
             attr's default) and, per emitted image k, pixels_k: TF's PNG
             decoded by tf.io.decode_png ([height, width, channels] uint8)
  NAME.pb    the serialized Summary TensorFlow's ImageSummary returned
  opdef.pbtxt  TensorFlow's OpDef of ImageSummary (docs stripped)
"""
import os

import numpy as np
import tensorflow as tf
from google.protobuf import text_format
from tensorflow.core.framework import op_def_pb2
from tensorflow.python.framework import op_def_registry
from tensorflow.python.ops import gen_logging_ops

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures",
                   "summary", "image")


def cases():
    rng = np.random.default_rng(5)
    c = {}
    pos = rng.uniform(0, 3, (2, 5, 7, 3)).astype(np.float32)
    pos[0, 0, 0, 0] = 0.0
    c["float32_pos_rgb"] = (pos, 3, None)
    g = rng.normal(0, 2, (3, 6, 5, 1)).astype(np.float32)
    g[0, 1, 1, 0], g[0, 2, 3, 0], g[1, 0, 0, 0] = np.nan, np.inf, -np.inf
    c["float32_mixed_gray_nan_max1"] = (g, 1, None)
    r = rng.normal(0, 1, (1, 4, 4, 4)).astype(np.float32)
    r[0, 1, 2, 3], r[0, 3, 0, 0] = np.nan, -np.inf
    c["float32_rgba_bad_color"] = (r, 3, np.array([10, 20, 30, 40, 50], np.uint8))
    h = (rng.normal(0, 3, (2, 8, 8, 3))).astype(np.float16)
    h[1, 2, 2, 1] = np.nan
    c["float16_mixed_rgb"] = (h, 3, None)
    c["float16_pos_rgba_max2"] = (rng.uniform(0, 0.7, (4, 6, 6, 4)).astype(np.float16), 2, None)
    d = rng.normal(0, 1e5, (2, 9, 9, 1))
    d[0, 4, 4, 0] = np.nan
    c["float64_mixed_gray"] = (d, 3, None)
    c["float64_pos_rgb"] = (rng.uniform(0, 1e-3, (1, 7, 3, 3)), 3, None)
    huge = rng.uniform(0, 1, (1, 3, 3, 1))
    huge[0, 0, 0, 0] = 1e300  # finite in double, inf as float: scale 0
    c["float64_beyond_float_range"] = (huge, 3, None)
    c["uint8_rgba"] = (rng.integers(0, 256, (5, 3, 4, 4), dtype=np.uint8), 3, None)
    c["uint8_gray_max1"] = (rng.integers(0, 256, (2, 4, 6, 1), dtype=np.uint8), 1, None)
    c["float32_zeros"] = (np.zeros((1, 2, 3, 1), np.float32), 3, None)
    c["float32_tiny_negative"] = (rng.uniform(-1e-7, 1e-7, (1, 2, 2, 3)).astype(np.float32), 3,
                                  None)
    c["float32_all_nan"] = (np.full((1, 2, 2, 3), np.nan, np.float32), 3, None)
    # Larger random images exercise the rounding of the affine transform.
    c["float32_mixed_large"] = (rng.normal(0, 7, (1, 32, 32, 3)).astype(np.float32), 3, None)
    c["float32_pos_large"] = (rng.uniform(0, 13.7, (1, 32, 32, 3)).astype(np.float32), 3, None)
    c["float16_pos_large"] = (rng.uniform(0, 5.3, (1, 32, 32, 3)).astype(np.float16), 3, None)
    c["float16_mixed_large"] = (rng.normal(0, 9, (1, 32, 32, 1)).astype(np.float16), 3, None)
    c["float64_mixed_large"] = (rng.normal(0, 0.3, (1, 32, 32, 4)), 3, None)
    c["float32_batch0"] = (np.zeros((0, 2, 2, 3), np.float32), 3, None)
    return c


def write_opdef():
    op = op_def_pb2.OpDef()
    op.CopyFrom(op_def_registry.get("ImageSummary"))
    for f in ("summary", "description"):
        op.ClearField(f)
    for a in list(op.input_arg) + list(op.output_arg) + list(op.attr):
        a.ClearField("description")
    with open(os.path.join(OUT, "opdef.pbtxt"), "w") as f:
        f.write(text_format.MessageToString(op))


def main():
    os.makedirs(OUT, exist_ok=True)
    write_opdef()
    v1 = tf.compat.v1
    for name, (tensor, max_images, bad_color) in cases().items():
        kw = {} if bad_color is None else {"bad_color": tf.make_tensor_proto(bad_color)}
        with tf.Graph().as_default():
            s = gen_logging_ops.image_summary("tag", tf.constant(tensor), max_images=max_images,
                                              **kw)
            with v1.Session() as sess:
                out = sess.run(s)
        summary = v1.Summary.FromString(out)
        arrays = {"tensor": tensor, "max_images": np.int64(max_images),
                  "bad_color": bad_color if bad_color is not None else np.zeros(0, np.uint8)}
        for k, v in enumerate(summary.value):
            arrays[f"pixels_{k}"] = tf.io.decode_png(v.image.encoded_image_string).numpy()
        np.savez(os.path.join(OUT, name + ".npz"), **arrays)
        with open(os.path.join(OUT, name + ".pb"), "wb") as f:
            f.write(out)
        print(name, [v.tag for v in summary.value])


if __name__ == "__main__":
    main()
