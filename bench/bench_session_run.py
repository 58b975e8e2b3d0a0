"""Per-call time of ``Session.run`` for ``x + 1.0`` on a fed float32 scalar (median of many calls),
minitf beside real TensorFlow (when a TensorFlow interpreter is available, see bench/common.py).

        python bench/bench_session_run.py [--tf-python PATH | --no-tf]
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

CALLS = 2000


def measure(tf):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, shape=())
        y = x + 1.0
        with tf.Session() as sess:
            feed = {x: np.float32(2.0)}
            assert sess.run(y, feed) == 3.0
            for _ in range(200):  # warm-up: plan cache, allocator
                sess.run(y, feed)
            return common.median_time(lambda: sess.run(y, feed), repeats=9, number=CALLS)


def main():
    if "--tf-side" in sys.argv:
        import tensorflow.compat.v1 as tf

        tf.disable_eager_execution()
        common.emit_tf_side({"seconds": measure(tf)})
        return
    import minitf.compat.v1 as mtf

    ours = measure(mtf)
    theirs = common.run_tf_side(os.path.abspath(__file__), common.tf_python(sys.argv))
    print("Session.run(x + 1.0), fed scalar, median of 9 x %d calls" % CALLS)
    print("  minitf      %8.1f us/call" % (ours * 1e6))
    if theirs:
        t = theirs["seconds"]
        print("  TensorFlow  %8.1f us/call   (minitf is %.1fx faster)" % (t * 1e6, t / ours))
    else:
        print("  TensorFlow  not available (pass --tf-python PATH)")


if __name__ == "__main__":
    main()
