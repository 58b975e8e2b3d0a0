#!/usr/bin/env python3
"""Writes serialized Summary protos from real TensorFlow's TF1 summary ops
(developer tool; run with /opt/tfvenv/bin/python).

tests/fixtures/summary/:
  histogram.pb   tf.compat.v1.summary.histogram("h", VALUES) (default buckets)
  scalar.pb      tf.compat.v1.summary.scalar("loss", 0.25)
  text.pb        tf.compat.v1.summary.text("note", "hello")
  merged.pb      tf.compat.v1.summary.merge([scalar, histogram])
  values.npy     VALUES
"""
import os

import numpy as np
import tensorflow as tf

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures",
                   "summary")
VALUES = np.array([-3.5, -1e-13, 0.0, 0.0, 1e-6, 0.5, 1.0, 2.0, 2.0, 7.25, 1e3], np.float32)


def main():
    os.makedirs(OUT, exist_ok=True)
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        h = v1.summary.histogram("h", tf.constant(VALUES))
        s = v1.summary.scalar("loss", tf.constant(0.25))
        t = v1.summary.text("note", tf.constant("hello"))
        m = v1.summary.merge([s, h])
        with v1.Session() as sess:
            out = sess.run({"histogram": h, "scalar": s, "text": t, "merged": m})
    for k, v in out.items():
        with open(os.path.join(OUT, k + ".pb"), "wb") as f:
            f.write(v)
    np.save(os.path.join(OUT, "values.npy"), VALUES)
    print("wrote", sorted(out))


if __name__ == "__main__":
    main()
