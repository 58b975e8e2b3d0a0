"""Random ops on 4M elements (and Multinomial, RandomShuffle): minitf beside real TensorFlow
(same graph, same seeds, so the same numbers) and NumPy's Generator.

        python bench/bench_random.py [--tf-python PATH | --no-tf]

Prints milliseconds per Session.run (fetch included) and the minitf / TensorFlow ratio.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

N = 1 << 22
LOGITS = np.random.default_rng(0).standard_normal((64, 1000)).astype(np.float32)

# name -> (graph builder(tf), NumPy equivalent or None)
CASES = {
    "uniform float32 [4M]": (lambda tf: tf.random.uniform([N], seed=1),
                             lambda g: g.random(N, dtype=np.float32)),
    "uniform float64 [4M]": (lambda tf: tf.random.uniform([N], dtype=tf.float64, seed=1),
                             lambda g: g.random(N)),
    "uniform int32 [4M]": (lambda tf: tf.random.uniform([N], maxval=1000, dtype=tf.int32, seed=1),
                           lambda g: g.integers(0, 1000, N, dtype=np.int32)),
    "normal float32 [4M]": (lambda tf: tf.random.normal([N], seed=1),
                            lambda g: g.standard_normal(N, dtype=np.float32)),
    "truncated_normal float32 [4M]": (lambda tf: tf.random.truncated_normal([N], seed=1), None),
    "shuffle int32 [1M]": (lambda tf: tf.random.shuffle(np.arange(1 << 20, dtype=np.int32), seed=1),
                           lambda g: g.permutation(1 << 20)),
    "categorical [64,1000] x 100": (lambda tf: tf.random.categorical(LOGITS, 100, seed=1), None),
}


def measure(tf):
    out = {}
    for name, (build, _) in CASES.items():
        g = tf.Graph()
        with g.as_default():
            t = build(tf)
            with tf.Session() as sess:
                sess.run(t)
                out[name] = common.median_time(lambda: sess.run(t), repeats=5)
    return out


def main():
    if "--tf-side" in sys.argv:
        import tensorflow.compat.v1 as tf
        tf.disable_eager_execution()
        common.emit_tf_side(measure(tf))
        return
    import minitf as tf
    mine = measure(tf)
    theirs = common.run_tf_side(os.path.abspath(__file__), common.tf_python(sys.argv)) or {}
    gen = np.random.default_rng(0)
    print("%-32s %10s %10s %8s %10s" % ("case", "minitf ms", "TF ms", "ratio", "NumPy ms"))
    for name, (_, np_fn) in CASES.items():
        tf_ms = theirs.get(name)
        np_ms = common.median_time(lambda: np_fn(gen), repeats=5) * 1e3 if np_fn else None
        print("%-32s %10.2f %10s %8s %10s" % (
            name, mine[name] * 1e3, "%.2f" % (tf_ms * 1e3) if tf_ms else "-",
            "%.2f" % (mine[name] / tf_ms) if tf_ms else "-", "%.2f" % np_ms if np_ms else "-"))


if __name__ == "__main__":
    main()
