"""Conv/pooling/resize at batch 64: minitf beside real TensorFlow (run in another
interpreter) and NumPy where a NumPy spelling is meaningful. Each figure is the median of
several ``sess.run(op, feed)`` calls (the op is a target, so neither side copies the result
out), in milliseconds; the ratio column is minitf / TensorFlow (< 1 = minitf faster).

        python bench/bench_conv.py [--repeats 5] [--rounds 3] [--only NAME]
                                   [--tf-python PATH | --no-tf]

minitf and TensorFlow (kept running in a --tf-serve subprocess) are timed alternately, case by
case and round by round (the machine is shared; see common.interleaved).
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

BATCH = 64


def _arg(name, default):
    return type(default)(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def _rand(*shape):
    return np.random.default_rng(len(shape) + sum(shape)).standard_normal(shape).astype(
        np.float32)


def cases():
    """name -> (input shape, builder(tf, x) -> tensor)."""
    n = BATCH

    def conv(k, cin, cout, stride=1, padding="SAME"):
        w = _rand(k, k, cin, cout) * 0.1
        return lambda tf, x: tf.nn.conv2d(x, w, stride, padding)

    def digits_cnn(tf, x):
        # the Keras-style digits CNN: 8x8x1 -> conv3x3(16) relu -> maxpool 2 ->
        # conv3x3(32) relu -> flatten -> dense(10) -> softmax
        w1, b1 = _rand(3, 3, 1, 16) * 0.3, _rand(16) * 0.1
        w2, b2 = _rand(3, 3, 16, 32) * 0.1, _rand(32) * 0.1
        w3, b3 = _rand(4 * 4 * 32, 10) * 0.05, _rand(10) * 0.1
        h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w1, 1, "SAME"), b1))
        h = tf.nn.max_pool(h, 2, 2, "VALID")
        h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(h, w2, 1, "SAME"), b2))
        h = tf.reshape(h, [-1, 4 * 4 * 32])
        return tf.nn.softmax(tf.nn.bias_add(tf.matmul(h, w3), b3))

    wd = _rand(3, 3, 64, 1) * 0.1
    wt = _rand(3, 3, 32, 64) * 0.1
    return {
        "conv3x3 28x28 32->64": ((n, 28, 28, 32), conv(3, 32, 64)),
        "conv3x3 56x56 64->64": ((n, 56, 56, 64), conv(3, 64, 64)),
        "conv3x3 14x14 64->64": ((n, 14, 14, 64), conv(3, 64, 64)),
        "conv3x3 s2 28x28 32->64": ((n, 28, 28, 32), conv(3, 32, 64, 2)),
        "conv1x1 28x28 64->128": ((n, 28, 28, 64), conv(1, 64, 128)),
        "conv5x5 valid 8x8 1->16": ((n, 8, 8, 1), conv(5, 1, 16, 1, "VALID")),
        "depthwise3x3 56x56x64": ((n, 56, 56, 64), lambda tf, x: tf.nn.depthwise_conv2d(
            x, wd, [1, 1, 1, 1], "SAME")),
        "conv2d_transpose s2 14->28 64->32": ((n, 14, 14, 64), lambda tf, x: tf.nn.conv2d_transpose(
            x, wt, [n, 28, 28, 32], 2, "SAME")),
        "maxpool2x2 56x56x64": ((n, 56, 56, 64), lambda tf, x: tf.nn.max_pool(x, 2, 2, "VALID")),
        "maxpool3x3 s2 SAME 56x56x64": ((n, 56, 56, 64), lambda tf, x: tf.nn.max_pool(
            x, 3, 2, "SAME")),
        "avgpool2x2 56x56x64": ((n, 56, 56, 64), lambda tf, x: tf.nn.avg_pool(x, 2, 2, "VALID")),
        "resize_bilinear 28->56 x32": ((n, 28, 28, 32), lambda tf, x: tf.image.resize_bilinear(
            x, [56, 56])),
        "resize_nearest 28->56 x32": ((n, 28, 28, 32), lambda tf, x: tf.image.resize_nearest_neighbor(
            x, [56, 56])),
        "digits CNN 8x8x1 end to end": ((n, 8, 8, 1), digits_cnn),
    }


def numpy_side():
    """NumPy spellings: a tensordot conv (no im2col) and a reshape-max pool."""
    def conv3x3(x, w):
        xp = np.pad(x, [(0, 0), (1, 1), (1, 1), (0, 0)])
        h, wd = x.shape[1:3]
        out = np.zeros(x.shape[:3] + (w.shape[3],), np.float32)
        for i in range(3):
            for j in range(3):
                out += np.tensordot(xp[:, i:i + h, j:j + wd], w[i, j], axes=([3], [0]))
        return out

    x = _rand(BATCH, 28, 28, 32)
    w = _rand(3, 3, 32, 64) * 0.1
    xm = _rand(BATCH, 56, 56, 64)
    return {
        "conv3x3 28x28 32->64": lambda: conv3x3(x, w),
        "maxpool2x2 56x56x64": lambda: xm.reshape(BATCH, 28, 2, 28, 2, 64).max(axis=(2, 4)),
    }


def setup(tf, name):
    """A warmed-up callable running case `name` once (the op is a target: no fetch copy)."""
    shape, build = cases()[name]
    x = _rand(*shape)
    g = tf.Graph()
    with g.as_default():
        px = tf.placeholder(tf.float32, shape)
        y = build(tf, px)
    sess = tf.Session(graph=g)
    sess.run(y.op, {px: x})  # warm up (plans, oneDNN primitives)
    return lambda: sess.run(y.op, {px: x})


def main():
    only = _arg("--only", "")
    repeats = _arg("--repeats", 5)
    rounds = _arg("--rounds", 3)
    if "--tf-serve" in sys.argv:
        common.tf_serve(setup)
        return
    names = [n for n in cases() if not only or only in n]
    res = common.interleaved(os.path.abspath(__file__), setup, names, sys.argv, rounds, repeats)
    nps = {k: common.median_time(f, repeats=3) for k, f in numpy_side().items()
           if not only or only in k}
    print("batch %d, %d rounds x median of %d runs, ms (ratio = median of same-round "
          "minitf / TensorFlow)" % (BATCH, rounds, repeats))
    print("%-36s %10s %10s %10s %7s %7s" % ("case", "minitf", "TF", "NumPy", "ratio",
                                             "best"))
    for name, (t, tt, ratio, best) in res.items():
        npt = nps.get(name)
        print("%-36s %10.2f %10s %10s %7s %7s" % (
            name, t * 1e3, "%.2f" % (tt * 1e3) if tt else "-",
            "%.2f" % (npt * 1e3) if npt else "-", "%.2f" % ratio if ratio else "-",
            "%.2f" % best if best else "-"))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
