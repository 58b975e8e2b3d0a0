"""MatMul 1024x1024 float32 GFLOP/s: minitf's MatMul kernel (BLAS sgemm from scipy-openblas32)
beside NumPy's ``@`` in the same run, and real TensorFlow when available.

        python bench/bench_matmul.py [--n 1024] [--tf-python PATH | --no-tf]
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402


def size():
    return int(sys.argv[sys.argv.index("--n") + 1]) if "--n" in sys.argv else 1024


def measure_graph(tf, n):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n), dtype=np.float32)
    b = rng.standard_normal((n, n), dtype=np.float32)
    with tf.Graph().as_default():
        pa = tf.placeholder(tf.float32, (n, n))
        pb = tf.placeholder(tf.float32, (n, n))
        c = tf.matmul(pa, pb)
        with tf.Session() as sess:
            feed = {pa: a, pb: b}
            got = sess.run(c, feed)
            np.testing.assert_allclose(got, a @ b, rtol=1e-3, atol=1e-3)
            return common.median_time(lambda: sess.run(c, feed), repeats=7, number=3)


def main():
    n = size()
    flops = 2.0 * n**3
    if "--tf-side" in sys.argv:
        import tensorflow.compat.v1 as tf

        tf.disable_eager_execution()
        common.emit_tf_side({"seconds": measure_graph(tf, n)})
        return
    import minitf.compat.v1 as mtf

    ours = measure_graph(mtf, n)
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n), dtype=np.float32)
    b = rng.standard_normal((n, n), dtype=np.float32)
    numpy_t = common.median_time(lambda: a @ b, repeats=7, number=3)
    theirs = common.run_tf_side(os.path.abspath(__file__), common.tf_python(sys.argv))
    print("MatMul %dx%d float32 (median of 7 x 3 runs; minitf/TF include feed+fetch)" % (n, n))
    print("  minitf      %7.1f GFLOP/s  (%.2f ms)" % (flops / ours / 1e9, ours * 1e3))
    print("  NumPy @     %7.1f GFLOP/s  (%.2f ms)" % (flops / numpy_t / 1e9, numpy_t * 1e3))
    if theirs:
        t = theirs["seconds"]
        print("  TensorFlow  %7.1f GFLOP/s  (%.2f ms)" % (flops / t / 1e9, t * 1e3))
    print("  minitf / NumPy speed ratio: %.2f" % (numpy_t / ours))


if __name__ == "__main__":
    main()
