"""Backward kernels at batch 64: Conv2DBackpropInput, Conv2DBackpropFilter, MaxPoolGrad,
AvgPoolGrad, BiasAddGrad and FusedBatchNormGradV3 in minitf beside real TensorFlow (run in
another interpreter, kept alive in a --tf-serve subprocess and timed alternately, case by case
and round by round: see common.interleaved). Each figure is the median of several
``sess.run(op, feed)`` calls (the op is a target: no fetch copy), in milliseconds; "ratio" is
minitf / TensorFlow (< 1 = minitf faster), "best" the ratio of each side's fastest run.

        python bench/bench_backward_kernels.py [--repeats 5] [--rounds 3] [--only NAME]
                                               [--tf-python PATH | --no-tf]
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

BATCH = 64


def _arg(name, default):
    return type(default)(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def _rand(seed, *shape):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _conv_input(k, h, cin, cout, stride=1, padding="SAME"):
    oh = (h + stride - 1) // stride if padding == "SAME" else (h - k) // stride + 1
    feeds = {"f": _rand(1, k, k, cin, cout) * 0.1, "dy": _rand(2, BATCH, oh, oh, cout)}

    def build(tf, p):
        return tf.raw_ops.Conv2DBackpropInput(input_sizes=[BATCH, h, h, cin], filter=p["f"],
                                              out_backprop=p["dy"], strides=[1, stride, stride, 1],
                                              padding=padding)
    return feeds, build


def _conv_filter(k, h, cin, cout, stride=1, padding="SAME"):
    oh = (h + stride - 1) // stride if padding == "SAME" else (h - k) // stride + 1
    feeds = {"x": _rand(3, BATCH, h, h, cin), "dy": _rand(4, BATCH, oh, oh, cout)}

    def build(tf, p):
        return tf.raw_ops.Conv2DBackpropFilter(input=p["x"], filter_sizes=[k, k, cin, cout],
                                               out_backprop=p["dy"],
                                               strides=[1, stride, stride, 1], padding=padding)
    return feeds, build


def _max_pool_grad(k, s, padding, h=56, c=64):
    oh = (h + s - 1) // s if padding == "SAME" else (h - k) // s + 1
    x = _rand(5, BATCH, h, h, c)
    feeds = {"x": x, "dy": _rand(6, BATCH, oh, oh, c)}

    def build(tf, p):
        y = tf.nn.max_pool(p["x"], k, s, padding)
        return tf.raw_ops.MaxPoolGrad(orig_input=p["x"], orig_output=y, grad=p["dy"],
                                      ksize=[1, k, k, 1], strides=[1, s, s, 1], padding=padding)
    return feeds, build


def _avg_pool_grad(k, s, padding, h=56, c=64):
    oh = (h + s - 1) // s if padding == "SAME" else (h - k) // s + 1
    feeds = {"dy": _rand(7, BATCH, oh, oh, c)}

    def build(tf, p):
        return tf.raw_ops.AvgPoolGrad(orig_input_shape=[BATCH, h, h, c], grad=p["dy"],
                                      ksize=[1, k, k, 1], strides=[1, s, s, 1], padding=padding)
    return feeds, build


def _bias_add_grad(fmt):
    shape = (BATCH, 56, 56, 64) if fmt == "NHWC" else (BATCH, 64, 56, 56)
    feeds = {"dy": _rand(8, *shape)}
    return feeds, lambda tf, p: tf.raw_ops.BiasAddGrad(out_backprop=p["dy"], data_format=fmt)


def _batch_norm_grad(training, h=56, c=64):
    feeds = {"dy": _rand(9, BATCH, h, h, c), "x": _rand(10, BATCH, h, h, c),
             "s": _rand(11, c) + 1, "m": _rand(12, c) * 0.1,
             "v": np.abs(_rand(13, c)) + 0.5}

    def build(tf, p):
        return tf.raw_ops.FusedBatchNormGradV3(
            y_backprop=p["dy"], x=p["x"], scale=p["s"], reserve_space_1=p["m"],
            reserve_space_2=p["v"], reserve_space_3=tf.zeros([0]), epsilon=0.001,
            is_training=training)[0]
    return feeds, build


def cases():
    return {
        "Conv2DBackpropInput 3x3 28x28 32->64": _conv_input(3, 28, 32, 64),
        "Conv2DBackpropInput 3x3 56x56 64->64": _conv_input(3, 56, 64, 64),
        "Conv2DBackpropInput 3x3 14x14 64->64": _conv_input(3, 14, 64, 64),
        "Conv2DBackpropInput 3x3 s2 28x28 32->64": _conv_input(3, 28, 32, 64, 2),
        "Conv2DBackpropInput 1x1 28x28 64->128": _conv_input(1, 28, 64, 128),
        "Conv2DBackpropFilter 3x3 28x28 32->64": _conv_filter(3, 28, 32, 64),
        "Conv2DBackpropFilter 3x3 56x56 64->64": _conv_filter(3, 56, 64, 64),
        "Conv2DBackpropFilter 3x3 14x14 64->64": _conv_filter(3, 14, 64, 64),
        "Conv2DBackpropFilter 3x3 s2 28x28 32->64": _conv_filter(3, 28, 32, 64, 2),
        "Conv2DBackpropFilter 1x1 28x28 64->128": _conv_filter(1, 28, 64, 128),
        "Conv2DBackpropFilter 3x3 8x8 1->16": _conv_filter(3, 8, 1, 16),
        "MaxPoolGrad 2x2 56x56x64 (+MaxPool)": _max_pool_grad(2, 2, "VALID"),
        "MaxPoolGrad 3x3 s2 SAME 56x56x64 (+MaxPool)": _max_pool_grad(3, 2, "SAME"),
        "AvgPoolGrad 2x2 56x56x64": _avg_pool_grad(2, 2, "VALID"),
        "AvgPoolGrad 3x3 s2 SAME 56x56x64": _avg_pool_grad(3, 2, "SAME"),
        "BiasAddGrad NHWC 56x56x64": _bias_add_grad("NHWC"),
        "BiasAddGrad NCHW 64x56x56": _bias_add_grad("NCHW"),
        "FusedBatchNormGradV3 train 56x56x64": _batch_norm_grad(True),
        "FusedBatchNormGradV3 infer 56x56x64": _batch_norm_grad(False),
    }


def setup(tf, name):
    """A warmed-up callable running case `name` once (the op is a target: no fetch copy)."""
    feeds, build = cases()[name]
    g = tf.Graph()
    with g.as_default():
        phs = {k: tf.placeholder(tf.float32, v.shape) for k, v in feeds.items()}
        y = build(tf, phs)
    sess = tf.Session(graph=g)
    feed = {phs[k]: v for k, v in feeds.items()}
    sess.run(y.op, feed)  # warm up (plans, oneDNN primitives)
    return lambda: sess.run(y.op, feed)


def main():
    only = _arg("--only", "")
    repeats = _arg("--repeats", 5)
    rounds = _arg("--rounds", 3)
    if "--tf-serve" in sys.argv:
        common.tf_serve(setup)
        return
    names = [n for n in cases() if not only or only in n]
    res = common.interleaved(os.path.abspath(__file__), setup, names, sys.argv, rounds, repeats)
    print("batch %d, %d rounds x median of %d runs, ms (ratio = median of same-round "
          "minitf / TensorFlow)" % (BATCH, rounds, repeats))
    print("%-44s %10s %10s %7s %7s" % ("case", "minitf", "TF", "ratio", "best"))
    for name, (t, tt, ratio, best) in res.items():
        print("%-44s %10.2f %10s %7s %7s" % (
            name, t * 1e3, "%.2f" % (tt * 1e3) if tt else "-",
            "%.2f" % ratio if ratio else "-", "%.2f" % best if best else "-"))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
