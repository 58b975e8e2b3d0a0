"""Batched float32 matmul GFLOP/s: minitf's BatchMatMulV2 (BLAS sgemm per batch matrix, one
sgemm when the right operand is shared) and Einsum "bij,bjk->bik" beside NumPy's ``@`` in the
same run, and real TensorFlow when available.

        python bench/bench_batch_matmul.py [--tf-python PATH | --no-tf]

Shapes: [64,128,128]@[64,128,128] (many mid-size), [512,32,32]@[512,32,32] (many small),
[8,256,256]@[256,256] (shared right operand).
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

CASES = [((64, 128, 128), (64, 128, 128)), ((512, 32, 32), (512, 32, 32)),
         ((8, 256, 256), (256, 256))]


def inputs(sa, sb):
    rng = np.random.default_rng(0)
    return (rng.standard_normal(sa, dtype=np.float32), rng.standard_normal(sb, dtype=np.float32))


def measure(tf, sa, sb, how):
    a, b = inputs(sa, sb)
    with tf.Graph().as_default():
        pa = tf.placeholder(tf.float32, sa)
        pb = tf.placeholder(tf.float32, sb)
        if how == "einsum":
            c = tf.einsum("bij,bjk->bik" if len(sb) == 3 else "bij,jk->bik", pa, pb)
        else:
            c = tf.matmul(pa, pb)
        with tf.Session() as sess:
            feed = {pa: a, pb: b}
            np.testing.assert_allclose(sess.run(c, feed), a @ b, rtol=1e-3, atol=1e-3)
            return common.median_time(lambda: sess.run(c, feed), repeats=7, number=3)


def flops(sa, sb):
    return 2.0 * np.prod(sa) * sb[-1]


def main():
    if "--tf-side" in sys.argv:
        import tensorflow.compat.v1 as tf

        tf.disable_eager_execution()
        common.emit_tf_side({"%s|%s" % (c, how): measure(tf, *c, how)
                             for c in CASES for how in ("matmul", "einsum")})
        return
    import minitf.compat.v1 as mtf

    theirs = common.run_tf_side(os.path.abspath(__file__), common.tf_python(sys.argv))
    print("Batched matmul float32, GFLOP/s (median of 7 x 3 runs; minitf/TF include feed+fetch)")
    for sa, sb in CASES:
        fl = flops(sa, sb)
        a, b = inputs(sa, sb)
        numpy_t = common.median_time(lambda: a @ b, repeats=7, number=3)
        line = "  %-28s NumPy %6.1f" % ("%s @ %s" % (sa, sb), fl / numpy_t / 1e9)
        for how in ("matmul", "einsum"):
            ours = measure(mtf, sa, sb, how)
            line += " | minitf %s %6.1f" % (how, fl / ours / 1e9)
            if theirs:
                line += " TF %6.1f" % (fl / theirs["%s|%s" % ((sa, sb), how)] / 1e9)
        print(line)


if __name__ == "__main__":
    main()
