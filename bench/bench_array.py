"""Array-op throughput: Transpose (NHWC<->NCHW, 2-D), ConcatV2, Tile, next to NumPy and, when
importable, TensorFlow. Prints figures; never fails.

Usage: python bench/bench_array.py [--tf]   (--tf also times tensorflow.compat.v1)
"""
import sys
import time

import numpy as np


def best(fn, reps=7):
    """Median seconds of `reps` calls (the machine is shared: medians are steadier)."""
    fn()
    t = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        t.append(time.perf_counter() - t0)
    return sorted(t)[len(t) // 2]


def cases(tf):
    x4 = np.random.rand(16, 64, 64, 32).astype(np.float32)
    x2 = np.random.rand(2048, 2048).astype(np.float32)
    a = np.random.rand(256, 1024).astype(np.float32)
    return [
        ("Transpose NHWC->NCHW 16x64x64x32 f32", x4,
         lambda p: tf.transpose(p, [0, 3, 1, 2]), lambda v: np.ascontiguousarray(v.transpose(0, 3, 1, 2))),
        ("Transpose NCHW->NHWC 16x32x64x64 f32", x4.reshape(16, 32, 64, 64),
         lambda p: tf.transpose(p, [0, 2, 3, 1]), lambda v: np.ascontiguousarray(v.transpose(0, 2, 3, 1))),
        ("Transpose 2048x2048 f32", x2, lambda p: tf.transpose(p), lambda v: np.ascontiguousarray(v.T)),
        ("ConcatV2 4x[256,1024] axis 1", a,
         lambda p: tf.concat([p, p, p, p], 1), lambda v: np.concatenate([v, v, v, v], 1)),
        ("Tile [256,1024] x [4,2]", a, lambda p: tf.tile(p, [4, 2]), lambda v: np.tile(v, (4, 2))),
    ]


def run(tf, label):
    out = {}
    for name, value, build, _ in cases(tf):
        g = tf.Graph()
        with g.as_default():
            p = tf.placeholder(tf.float32, value.shape)
            y = build(p)
            with tf.Session() as sess:
                out[name] = best(lambda: sess.run(y, {p: value}))
    return out


def main():
    import minitf
    mt = run(minitf, "minitf")
    tfr = {}
    if "--tf" in sys.argv:
        import tensorflow.compat.v1 as tf1
        tf1.disable_eager_execution()
        tfr = run(tf1, "tf")
    print("%-40s %10s %10s %10s" % ("case", "minitf ms", "numpy ms", "tf ms"))
    for name, value, _, npf in cases(minitf):
        n = best(lambda: npf(value))
        t = tfr.get(name)
        print("%-40s %10.2f %10.2f %10s" % (name, mt[name] * 1e3, n * 1e3,
                                            "%.2f" % (t * 1e3) if t else "-"))


if __name__ == "__main__":
    main()
