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
    "relu": (lambda tf, x: tf.nn.relu(x) * x, X),
    "relu6": (lambda tf, x: tf.nn.relu6(x * 4.0) * x, X),
    "leaky_relu": (lambda tf, x: tf.nn.leaky_relu(x, alpha=0.3) * x, X),
    "elu": (lambda tf, x: tf.nn.elu(x), X),
    "selu": (lambda tf, x: tf.nn.selu(x), X),
    "softplus": (lambda tf, x: tf.nn.softplus(x), X),
    "bias_add": (lambda tf, x: tf.square(tf.nn.bias_add(x, tf.reduce_sum(x, 0))), X),
    "bias_add_nchw": (lambda tf, x: tf.square(tf.nn.bias_add(
        tf.reshape(x, [1, 2, 3, 1]), tf.reduce_sum(x, 1), data_format="NCHW")) [0, :, :, 0], X),
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
