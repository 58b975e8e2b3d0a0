"""nn kernels at batch 64: minitf beside real TensorFlow (same graph, same inputs, feed and
fetch included on both sides) and a NumPy formula where one is short.

        python bench/bench_nn.py [--tf-python PATH | --no-tf] [--only NAME] [--rounds 5]

minitf and TensorFlow (kept running in a --tf-serve subprocess) are timed alternately, case by
case and round by round (the machine is shared; see common.interleaved).

Prints milliseconds per Session.run and the minitf / TensorFlow time ratio (the issue asks for
<= 2 at batch 64): the median of same-round ratios, and the ratio of each side's fastest run
(the least disturbed on a shared machine).
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

B = 64


def _inputs():
    rng = np.random.default_rng(0)
    img = rng.standard_normal((B, 32, 32, 64), dtype=np.float32)
    logits = rng.standard_normal((B, 1000), dtype=np.float32) * 3
    labels = rng.random((B, 1000), dtype=np.float32)
    labels /= labels.sum(1, keepdims=True)
    return {
        "img": img,
        "img_nchw": np.ascontiguousarray(img.transpose(0, 3, 1, 2)),
        "small": rng.standard_normal((B, 16, 16, 64), dtype=np.float32),
        "c64": rng.standard_normal(64, dtype=np.float32),
        "var64": rng.random(64, dtype=np.float32) + 0.5,
        "logits": logits,
        "labels": labels,
        "ids": rng.integers(0, 1000, B).astype(np.int32),
    }


def _softmax_np(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


# name -> (input keys, graph builder(tf, *placeholders), NumPy formula or None)
CASES = {
    "softmax [64,1000]": (["logits"], lambda tf, x: tf.nn.softmax(x), _softmax_np),
    "log_softmax [64,1000]": (["logits"], lambda tf, x: tf.nn.log_softmax(x), None),
    "bias_add NHWC [64,32,32,64]": (["img", "c64"], lambda tf, x, b: tf.nn.bias_add(x, b),
                                    lambda x, b: x + b),
    "bias_add NCHW [64,64,32,32]": (
        ["img_nchw", "c64"], lambda tf, x, b: tf.nn.bias_add(x, b, data_format="NCHW"),
        lambda x, b: x + b[:, None, None]),
    "fused_batch_norm infer [64,32,32,64]": (
        ["img", "c64", "c64", "c64", "var64"],
        lambda tf, x, s, o, m, v: tf.nn.fused_batch_norm(x, s, o, m, v, is_training=False)[0],
        lambda x, s, o, m, v: (x - m) * (s / np.sqrt(v + 1e-3)) + o),
    "fused_batch_norm train [64,32,32,64]": (
        ["img", "c64", "c64"], lambda tf, x, s, o: tf.nn.fused_batch_norm(x, s, o)[0], None),
    "relu [64,32,32,64]": (["img"], lambda tf, x: tf.nn.relu(x), lambda x: np.maximum(x, 0)),
    "relu6 [64,32,32,64]": (["img"], lambda tf, x: tf.nn.relu6(x), None),
    "elu [64,32,32,64]": (["img"], lambda tf, x: tf.nn.elu(x), None),
    "selu [64,32,32,64]": (["img"], lambda tf, x: tf.nn.selu(x), None),
    "leaky_relu [64,32,32,64]": (["img"], lambda tf, x: tf.nn.leaky_relu(x), None),
    "softplus [64,32,32,64]": (["img"], lambda tf, x: tf.nn.softplus(x), None),
    "softsign [64,32,32,64]": (["img"], lambda tf, x: tf.nn.softsign(x), None),
    "lrn [64,16,16,64]": (["small"], lambda tf, x: tf.nn.lrn(x), None),
    "softmax_xent [64,1000]": (
        ["labels", "logits"],
        lambda tf, y, x: tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=x), None),
    "sparse_softmax_xent [64,1000]": (
        ["ids", "logits"],
        lambda tf, y, x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=x),
        None),
    "top_k k=5 [64,1000]": (["logits"], lambda tf, x: tf.nn.top_k(x, 5)[0], None),
    "in_top_k k=5 [64,1000]": (["logits", "ids"], lambda tf, x, t: tf.nn.in_top_k(x, t, 5),
                               None),
    "l2_loss [64,32,32,64]": (["img"], lambda tf, x: tf.nn.l2_loss(x), None),
}


def setup(tf, name):
    """A warmed-up callable running case `name` once (feed and fetch included)."""
    keys, build, _ = CASES[name]
    return common.fed_graph_runner(tf, _inputs(), keys, build)


def main():
    names, rounds = common.selected_cases(list(CASES), sys.argv)
    if "--tf-serve" in sys.argv:
        common.tf_serve(setup)
        return
    res = common.interleaved(os.path.abspath(__file__), setup, names, sys.argv, rounds,
                             repeats=7, number=3)
    data = _inputs()
    print("nn kernels, batch %d (ms per Session.run, %d rounds x median of 7 x 3, feed+fetch "
          "included; mt/TF = median of same-round ratios)" % (B, rounds))
    print("%-38s %9s %9s %9s %8s %6s" % ("case", "minitf", "TF", "NumPy", "mt/TF", "best"))
    for name in names:
        fn = CASES[name][2]
        np_t = common.median_time(lambda: fn(*[data[k] for k in CASES[name][0]]), 5, 3) \
            if fn else None
        t, tt, ratio, best = res[name]
        print("%-38s %9.3f %9s %9s %8s %6s" % (
            name, t * 1e3, "%.3f" % (tt * 1e3) if tt else "-",
            "%.3f" % (np_t * 1e3) if np_t else "-", "%.2f" % ratio if ratio else "-",
            "%.2f" % best if best else "-"))


if __name__ == "__main__":
    main()
