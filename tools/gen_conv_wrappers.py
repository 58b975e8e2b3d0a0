"""Writes tests/fixtures/conv_wrappers/ from real TensorFlow: the TF1 conv/pooling/resize
wrappers (tf.nn.conv2d, conv2d_transpose, depthwise_conv2d, max_pool, avg_pool, ...,
tf.image.resize_*) applied to fixed inputs, with output names, static shapes and values.

Run: /opt/tfvenv/bin/python tools/gen_conv_wrappers.py (developer tool; never a test dep).
The same calls are spelled in tests/python/test_conv_ops.py (WRAPPER_CASES).
"""
import json
import os
import sys

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))
from conv_wrapper_cases import INPUTS, WRAPPER_CASES  # noqa: E402

out_dir = os.path.join(ROOT, "tests", "fixtures", "conv_wrappers")
arrays, meta = {}, []
for name, fn in WRAPPER_CASES:
    g = tf.Graph()
    with g.as_default():
        feeds, ph = {}, {}
        for k, v in INPUTS.items():
            ph[k] = tf.placeholder(tf.as_dtype(v.dtype), v.shape, name=k)
            feeds[ph[k]] = v
        t = fn(tf, ph)
        with tf.Session() as s:
            arrays[name] = s.run(t, feeds)
        meta.append({"name": name, "tensor": t.name, "op": t.op.type,
                     "shape": None if t.shape.rank is None else
                     [-1 if d is None else d for d in t.shape.as_list()]})
os.makedirs(out_dir, exist_ok=True)
np.savez_compressed(os.path.join(out_dir, "arrays.npz"), **arrays)
with open(os.path.join(out_dir, "cases.json"), "w") as f:
    json.dump({"tf_version": tf.__version__, "cases": meta}, f, indent=1)
print(len(meta), "cases")
