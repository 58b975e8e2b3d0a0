"""Elementwise, reduction, matrix, array and indexing kernels at batch 64: minitf beside real
TensorFlow (same graph, same inputs, feed and fetch included on both sides).

        python bench/bench_ops.py [--tf-python PATH | --no-tf] [--only NAME] [--rounds 5]

Same harness as bench_nn.py (alternating rounds with TensorFlow kept running in a --tf-serve
subprocess); prints ms per Session.run and the minitf / TensorFlow ratio (issue 3 asks for
<= 2 at batch 64): the median of same-round ratios and the ratio of the fastest runs.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

B = 64


def _inputs():
    rng = np.random.default_rng(0)
    return {
        "a": rng.standard_normal((B, 256, 256), dtype=np.float32),
        "b": rng.standard_normal((B, 256, 256), dtype=np.float32),
        "row": rng.standard_normal((256,), dtype=np.float32),
        "ai": rng.integers(-1000, 1000, (B, 256, 256)).astype(np.int32),
        "m": rng.standard_normal((B, 1024), dtype=np.float32),
        "w": rng.standard_normal((1024, 1024), dtype=np.float32),
        "img": rng.standard_normal((B, 32, 32, 64), dtype=np.float32),
        "ids": rng.integers(0, 1000, (B, 50)).astype(np.int32),
        "table": rng.standard_normal((1000, 256), dtype=np.float32),
    }


# name -> (input keys, graph builder(tf, *placeholders))
CASES = {
    "add [64,256,256]": (["a", "b"], lambda tf, x, y: x + y),
    "add broadcast row": (["a", "row"], lambda tf, x, y: x + y),
    "mul": (["a", "b"], lambda tf, x, y: x * y),
    "maximum": (["a", "b"], lambda tf, x, y: tf.maximum(x, y)),
    "less -> bool": (["a", "b"], lambda tf, x, y: tf.less(x, y)),
    "floordiv int32": (["ai", "ai"], lambda tf, x, y: tf.math.floordiv(x, tf.abs(y) + 1)),
    "exp": (["a"], lambda tf, x: tf.exp(x)),
    "tanh": (["a"], lambda tf, x: tf.tanh(x)),
    "sigmoid": (["a"], lambda tf, x: tf.sigmoid(x)),
    "sqrt(abs)": (["a"], lambda tf, x: tf.sqrt(tf.abs(x))),
    "cast f32->int32": (["a"], lambda tf, x: tf.cast(x, tf.int32)),
    "cast f32->f16": (["a"], lambda tf, x: tf.cast(x, tf.float16)),
    "reduce_sum all": (["a"], lambda tf, x: tf.reduce_sum(x)),
    "reduce_sum axis -1": (["a"], lambda tf, x: tf.reduce_sum(x, axis=-1)),
    "reduce_mean axis 0": (["a"], lambda tf, x: tf.reduce_mean(x, axis=0)),
    "reduce_max axis 1": (["a"], lambda tf, x: tf.reduce_max(x, axis=1)),
    "argmax axis -1": (["a"], lambda tf, x: tf.argmax(x, axis=-1)),
    "cumsum axis 1": (["a"], lambda tf, x: tf.cumsum(x, axis=1)),
    "matmul [64,1024]x[1024,1024]": (["m", "w"], lambda tf, x, y: tf.matmul(x, y)),
    "batch matmul [64,256,256]^2": (["a", "b"], lambda tf, x, y: tf.matmul(x, y)),
    "transpose NHWC->NCHW": (["img"], lambda tf, x: tf.transpose(x, [0, 3, 1, 2])),
    "concat axis -1": (["a", "b"], lambda tf, x, y: tf.concat([x, y], axis=-1)),
    "tile [1,1,2]": (["a"], lambda tf, x: tf.tile(x, [1, 1, 2])),
    "pad 2 each side": (["img"], lambda tf, x: tf.pad(x, [[0, 0], [2, 2], [2, 2], [0, 0]])),
    "strided slice x[:, ::2, 1:-1]": (["a"], lambda tf, x: x[:, ::2, 1:-1]),
    "gather [1000,256] x [64,50]": (["table", "ids"], lambda tf, t, i: tf.gather(t, i)),
    "one_hot [64,50] depth 1000": (["ids"], lambda tf, i: tf.one_hot(i, 1000)),
    "reshape+identity": (["a"], lambda tf, x: tf.identity(tf.reshape(x, [B, -1]))),
}


def setup(tf, name):
    """A warmed-up callable running case `name` once (feed and fetch included)."""
    keys, build = CASES[name]
    return common.fed_graph_runner(tf, _inputs(), keys, build)


def main():
    names, rounds = common.selected_cases(list(CASES), sys.argv)
    if "--tf-serve" in sys.argv:
        common.tf_serve(setup)
        return
    res = common.interleaved(os.path.abspath(__file__), setup, names, sys.argv, rounds,
                             repeats=5, number=3)
    print("ops at batch %d (ms per Session.run, %d rounds x median of 5 x 3, feed+fetch "
          "included; mt/TF = median of same-round ratios)" % (B, rounds))
    print("%-34s %9s %9s %8s %6s" % ("case", "minitf", "TF", "mt/TF", "best"))
    for name in names:
        t, tt, ratio, best = res[name]
        print("%-34s %9.3f %9s %8s %6s" % (
            name, t * 1e3, "%.3f" % (tt * 1e3) if tt else "-",
            "%.2f" % ratio if ratio else "-", "%.2f" % best if best else "-"))


if __name__ == "__main__":
    main()
