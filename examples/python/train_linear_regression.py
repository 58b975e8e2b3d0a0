"""Fits y = 3x + 2 by gradient descent in a TF1 graph and writes a TensorBoard log directory
with the graph and the loss curve.

    python examples/python/train_linear_regression.py [LOGDIR]
    tensorboard --logdir LOGDIR

minitf has no tf.gradients yet, so the gradients of the mean squared error are written out as
ops; everything else is the TF1 program as one would write it for TensorFlow (only the import
differs).
"""
import sys
import tempfile

import numpy as np

import minitf as tf


def train(logdir, steps=100, learning_rate=0.1):
    """Runs `steps` updates; returns (w, b, losses). Writes events to logdir."""
    rng = np.random.default_rng(0)
    xs = rng.uniform(-1, 1, size=(64, 1)).astype(np.float32)
    ys = (3 * xs + 2 + rng.normal(0, 0.05, size=(64, 1))).astype(np.float32)
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None, 1], name="x")
        y = tf.placeholder(tf.float32, [None, 1], name="y")
        with tf.name_scope("model"):
            w = tf.Variable(np.zeros((1, 1), np.float32), name="w")
            b = tf.Variable(np.zeros((1,), np.float32), name="b")
            pred = tf.matmul(x, w) + b
        with tf.name_scope("mse"):
            err = pred - y
            loss = tf.reduce_mean(tf.square(err))
        with tf.name_scope("train"):
            n = tf.cast(tf.shape(x)[0], tf.float32)
            grad_w = tf.matmul(x, err, transpose_a=True) * (2.0 / n)
            grad_b = tf.reduce_sum(err, axis=0) * (2.0 / n)
            step = tf.group(w.assign(w - learning_rate * grad_w),
                            b.assign(b - learning_rate * grad_b))
        tf.summary.scalar("loss", loss)
        merged = tf.summary.merge_all()
        losses = []
        with tf.Session() as sess, tf.summary.FileWriter(logdir, sess.graph) as writer:
            sess.run(tf.global_variables_initializer())
            for i in range(steps):
                summary, value, _ = sess.run([merged, loss, step], {x: xs, y: ys})
                writer.add_summary(summary, i)
                losses.append(float(value))
            w_value, b_value = sess.run([w, b])
    return float(w_value[0, 0]), float(b_value[0]), losses


if __name__ == "__main__":
    logdir = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="minitf-train-")
    w, b, losses = train(logdir)
    print("w = %.3f, b = %.3f (true 3, 2); loss %.4f -> %.4f" % (w, b, losses[0], losses[-1]))
    print("TensorBoard log: tensorboard --logdir %s" % logdir)
