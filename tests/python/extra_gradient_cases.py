"""Gradients of DynamicStitch and ResourceGatherNd (no op golden cases reach them), written
against the TF1 API so the same code runs on TensorFlow 2.21 and on minitf: the gradient
values (IndexedSlices densified) and the backward nodes (name and type) under "gradients/".
tools/gen_extra_gradient_expected.py records TensorFlow's; tests/python/
test_extra_gradients.py replays them."""
import numpy as np


def _stitch(tf):
    a = tf.constant(np.arange(6.0).reshape(3, 2))
    b = tf.constant(np.arange(4.0).reshape(2, 2) + 10)
    y = tf.dynamic_stitch([tf.constant([0, 4, 2]), tf.constant([1, 3])], [a, b])
    return tf.reduce_sum(y * np.cos(np.arange(10.0)).reshape(5, 2)), [a, b]


def _gather_nd(tf, indices):
    v = tf.Variable(np.arange(12.0).reshape(4, 3), name="v")
    y = tf.gather_nd(v, indices)
    return tf.reduce_sum(y * y), [v]


CASES = {
    "dynamic_stitch": _stitch,
    "resource_gather_nd_rows": lambda tf: _gather_nd(tf, [[2], [0], [2]]),
    "resource_gather_nd_elements": lambda tf: _gather_nd(tf, [[1, 2], [3, 0], [1, 2]]),
}


def run(tf, name):
    g = tf.Graph()
    with g.as_default():
        loss, xs = CASES[name](tf)
        grads = tf.gradients(loss, xs)
        dense = [tf.convert_to_tensor(x) for x in grads]
        nodes = sorted("%s %s" % (op.name, op.type) for op in g.get_operations()
                       if op.name.startswith("gradients/") and "/Convert" not in op.name)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            return {"values": [np.asarray(v).tolist() for v in sess.run(dense)],
                    "sparse": [type(x).__name__ == "IndexedSlices" for x in grads],
                    "nodes": nodes}
