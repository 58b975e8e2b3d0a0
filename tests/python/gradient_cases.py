"""Programs over tf.gradients written against the TF1 API, so that the same code runs on
TensorFlow 2.21 (tf.compat.v1 graph mode) and on minitf.

Each case takes the `tf` module and returns a dict of observable results: gradient values
(as [dtype name, nested list], None for no gradient), the backward graph (name, type and
inputs of every op the gradients call added) and errors (class name). tools/gen_gradient_expected.py
runs them on TensorFlow and writes tests/fixtures/gradient_expected.json;
tests/python/test_gradients.py replays them on minitf and compares.
"""
import numpy as np

X34 = np.arange(12, dtype=np.float32).reshape(3, 4) / 10.0 - 0.5
B4 = np.array([0.5, -1.0, 2.0, 0.25], np.float32)
W42 = np.arange(8, dtype=np.float32).reshape(4, 2) / 8.0 - 0.3


def val(x):
    if x is None:
        return None
    a = np.asarray(x)
    return [a.dtype.name, a.tolist()]


def new_ops(g, before):
    return [[op.name, op.type, [t.name for t in op.inputs]] for op in g.get_operations()[before:]]


def run(tf, g, fetches, feeds):
    present = [f for f in fetches if f is not None]
    with tf.Session(graph=g) as sess:
        values = iter(sess.run([tf.convert_to_tensor(f) for f in present], feeds))
    return [val(next(values)) if f is not None else None for f in fetches]


def mlp_like(tf):
    """Broadcast add, MatMul, a tensor used twice (AddN), default grad_ys."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [3, 4], name="x")
        b = tf.placeholder(tf.float32, [4], name="b")
        w = tf.placeholder(tf.float32, [4, 2], name="w")
        h = tf.matmul(x + b, w)
        y = h * h
        n = len(g.get_operations())
        grads = tf.gradients(y, [x, b, w])
        return {"ops": new_ops(g, n), "names": [t.name for t in grads],
                "values": run(tf, g, grads, {x: X34, b: B4, w: W42})}


def dynamic_shapes(tf):
    """Unknown batch dims: BroadcastGradientArgs decides the reductions at run time."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 4], name="x")
        y = tf.placeholder(tf.float32, [None, 1], name="y")
        z = x * y - x
        n = len(g.get_operations())
        grads = tf.gradients(z, [x, y], grad_ys=tf.constant(np.ones((3, 4), np.float32) * 2))
        xv = X34
        yv = np.array([[1.0], [2.0], [-1.0]], np.float32)
        return {"ops": new_ops(g, n), "values": run(tf, g, grads, {x: xv, y: yv})}


def float64_mul(tf):
    """float64 Mul of equal shapes takes the general path (TensorFlow's fast path is for
    float32/int32 only)."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float64, [2, 3], name="x")
        y = tf.placeholder(tf.float64, [2, 3], name="y")
        n = len(g.get_operations())
        grads = tf.gradients(x * y, [x, y])
        xv = np.arange(6.0).reshape(2, 3)
        return {"ops": new_ops(g, n), "values": run(tf, g, grads, {x: xv, y: xv + 1})}


def stop_gradients(tf):
    """tf.stop_gradient and the stop_gradients argument."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [3], name="x")
        a = x * x
        b = tf.stop_gradient(a) * x + a
        g1 = tf.gradients(b, x)
        g2 = tf.gradients(b, x, stop_gradients=[a])
        g3 = tf.gradients(b, [x, a], stop_gradients=[a])
        xv = np.array([1.0, 2.0, 3.0], np.float32)
        return {"values": run(tf, g, g1 + g2 + g3, {x: xv})}


def unconnected(tf):
    """An x no y depends on: None, or zeros with UnconnectedGradients.ZERO; integer paths
    are cut."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        z = tf.placeholder(tf.float32, [2], name="z")
        y = tf.cast(tf.cast(x, tf.int32), tf.float32) * 3.0 + x
        g1 = tf.gradients(y, [x, z])
        g2 = tf.gradients(y, [x, z], unconnected_gradients=tf.UnconnectedGradients.ZERO)
        xv = np.array([1.5, -2.0], np.float32)
        return {"values": run(tf, g, g1 + g2, {x: xv, z: xv})}


def override_and_custom(tf):
    """A Python gradient through gradient_override_map, and tf.custom_gradient."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        with g.gradient_override_map({"Identity": "TimesThreeForTest"}):
            y = tf.identity(x) * 2.0

        @tf.custom_gradient
        def square_with_five(v):
            def grad(dy):
                return dy * 5.0
            return v * v, grad

        z = square_with_five(x)
        g1 = tf.gradients(y, x)
        g2 = tf.gradients(z, x)
        xv = np.array([1.0, -2.0], np.float32)
        return {"values": run(tf, g, g1 + g2, {x: xv})}


def aggregation_tree(tf):
    """EXPERIMENTAL_TREE sums pairwise under <op>_gradient_sum."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        y = x * 2.0 + x * 3.0 - x
        n = len(g.get_operations())
        grads = tf.gradients(y, x,
                             aggregation_method=tf.AggregationMethod.EXPERIMENTAL_TREE)
        return {"ops": new_ops(g, n),
                "values": run(tf, g, grads, {x: np.array([1.0, 2.0], np.float32)})}


def gated(tf):
    """gate_gradients=True groups each op's input gradients with tf.tuple."""
    g = tf.Graph()
    with g.as_default():
        a = tf.placeholder(tf.float32, [2, 2], name="a")
        b = tf.placeholder(tf.float32, [2, 2], name="b")
        n = len(g.get_operations())
        grads = tf.gradients(tf.matmul(a, b), [a, b], gate_gradients=True)
        av = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
        return {"ops": new_ops(g, n), "values": run(tf, g, grads, {a: av, b: av.T})}


def errors(tf):
    """TensorFlow's errors for a bad aggregation method or unconnected_gradients value."""
    out = {}
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        y2 = tf.raw_ops.Neg(x=x)
        for key, fn in [("bad_aggregation", lambda: tf.gradients(x * 2.0, x,
                                                                   aggregation_method=7)),
                        ("bad_unconnected", lambda: tf.gradients(
                            x * 2.0, x, unconnected_gradients="sometimes")),
                        ("neg_has_one", lambda: tf.gradients(y2, x))]:
            try:
                r = fn()
                out[key] = ["ok", [t is None for t in r]]
            except Exception as e:  # noqa: BLE001 - class name is the result
                out[key] = [type(e).__name__]
    return out


CASES = [mlp_like, dynamic_shapes, float64_mul, stop_gradients, unconnected,
         override_and_custom, aggregation_tree, gated, errors]


def register_python_gradients(tf):
    """The Python gradient override_and_custom relies on (registered once per process)."""
    @tf.RegisterGradient("TimesThreeForTest")
    def _times_three(op, grad):
        return grad * 3.0
