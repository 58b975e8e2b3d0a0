"""Second derivatives through the gradient kernels (SigmoidGrad, TanhGrad, ReluGrad, ...):
for each case, g = tf.gradients(sum(f(x) * w), x)[0] and then tf.gradients(sum(g * v), [x, w]),
in float64 on fixed inputs, written against the TF1 API so the same code runs on TensorFlow
2.21 and on minitf. tools/gen_second_order_expected.py records TensorFlow's values
(tests/fixtures/second_order_expected.json); tests/python/test_second_order.py replays them
and checks each against a numerical Jacobian."""
import numpy as np

X = np.array([[0.3, -1.2, 2.0], [0.7, 0.05, -0.4]])
POS = np.abs(X) + 0.2  # for sqrt / rsqrt / reciprocal
W = np.cos(np.arange(6.0)).reshape(2, 3)
V = np.sin(np.arange(6.0) + 1).reshape(2, 3)

CASES = {
    "sigmoid": (lambda tf, x: tf.sigmoid(x), X),
    "tanh": (lambda tf, x: tf.tanh(x), X),
    "sqrt": (lambda tf, x: tf.sqrt(x), POS),
    "rsqrt": (lambda tf, x: tf.math.rsqrt(x), POS),
    "reciprocal": (lambda tf, x: tf.math.reciprocal(x), POS),
}


def build(tf, name):
    """(x, w, [d/dx, d/dw] of sum(g v)) in the default graph."""
    fn, value = CASES[name]
    x = tf.constant(value, name="x")
    w = tf.constant(W, name="w")
    g = tf.gradients(tf.reduce_sum(fn(tf, x) * w), x)[0]
    return x, w, tf.gradients(tf.reduce_sum(g * tf.constant(V)), [x, w])


def run(tf, name):
    with tf.Graph().as_default():
        _, _, grads = build(tf, name)
        with tf.Session() as sess:
            return [np.asarray(v).tolist() for v in sess.run(grads)]
