"""Gradients through tf.cond / tf.switch_case / tf.while_loop (v2 form, TF 2.21's default in
compat.v1 graph mode), written against the TF1 API so the same code runs on TensorFlow and on
minitf. Each case returns (fetches, feeds[, initializers]); fetches are gradients (and some
forward values). tools/gen_control_flow_grad_expected.py records TensorFlow's values
(tests/fixtures/control_flow_grad_expected.json); tests/python/test_control_flow_grad.py
replays them."""
import numpy as np

import case_runner

X3 = np.array([0.5, 1.0, 2.0], np.float32)


def _cond_basic(tf):
    x = tf.placeholder(tf.float32, [3], name="x")
    p = tf.placeholder(tf.bool, [], name="p")
    y = tf.cond(p, lambda: tf.sin(x) * x, lambda: tf.exp(x))
    return tf.gradients(tf.reduce_sum(y), [x]), [{"x:0": X3, "p:0": True},
                                                  {"x:0": X3, "p:0": False}]


def _cond_variable(tf):
    v = tf.get_variable("v", initializer=tf.constant([1.0, 2.0]), use_resource=True)
    p = tf.placeholder(tf.bool, [], name="p")
    y = tf.cond(p, lambda: v * v * 3.0, lambda: v + 1.0)
    return tf.gradients(tf.reduce_sum(y), [v]), [{"p:0": True}, {"p:0": False}], \
        [tf.global_variables_initializer()]


def _cond_variable_one_branch(tf):
    # the false branch never reads v: its gradient there is zeros of v's shape
    # (TF: Fill(VariableShape(v), 0))
    v = tf.get_variable("v", initializer=tf.constant([1.0, 2.0]), use_resource=True)
    p = tf.placeholder(tf.bool, [], name="p")
    y = tf.cond(p, lambda: v * 2.0, lambda: tf.constant([5.0, 6.0]))
    return tf.gradients(tf.reduce_sum(y), [v]), [{"p:0": True}, {"p:0": False}], \
        [tf.global_variables_initializer()]


def _cond_one_branch_constant(tf):
    x = tf.placeholder(tf.float32, [3], name="x")
    p = tf.placeholder(tf.bool, [], name="p")
    y = tf.cond(p, lambda: x * x, lambda: tf.constant([1.0, 2.0, 3.0]))
    return tf.gradients(tf.reduce_sum(y), [x]), [{"x:0": X3, "p:0": True},
                                                  {"x:0": X3, "p:0": False}]


def _cond_nested(tf):
    x = tf.placeholder(tf.float32, [], name="x")
    y = tf.cond(x > 0, lambda: tf.cond(x > 1, lambda: x * x * x, lambda: tf.sin(x)),
                lambda: tf.exp(x) * 2.0)
    return tf.gradients(y, [x]), [{"x:0": 2.0}, {"x:0": 0.5}, {"x:0": -1.0}]


def _cond_two_outputs(tf):
    x = tf.placeholder(tf.float32, [2], name="x")
    w = tf.constant([3.0, 4.0])
    a, b = tf.cond(tf.reduce_sum(x) > 0, lambda: (x * w, tf.square(x)),
                   lambda: (x - w, x * 5.0))
    loss = tf.reduce_sum(a * 2.0) + tf.reduce_sum(b * b)
    return tf.gradients(loss, [x]), [{"x:0": [1.0, 2.0]}, {"x:0": [-1.0, -2.0]}]


def _cond_matmul(tf):
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    w = tf.get_variable("w", initializer=tf.constant(
        [[0.1, 0.2], [0.3, -0.4], [0.5, 0.6]]), use_resource=True)
    p = tf.placeholder(tf.bool, [], name="p")
    y = tf.cond(p, lambda: tf.nn.relu(tf.matmul(x, w)), lambda: tf.tanh(tf.matmul(x, w)))
    loss = tf.reduce_mean(tf.square(y))
    feeds = [{"x:0": [[1.0, -2.0, 3.0], [0.5, 0.5, -1.0]], "p:0": v} for v in (True, False)]
    return tf.gradients(loss, [x, w]), feeds, [tf.global_variables_initializer()]


def _switch_case(tf):
    x = tf.placeholder(tf.float32, [], name="x")
    i = tf.placeholder(tf.int32, [], name="i")
    y = tf.switch_case(i, [lambda: x * x, lambda: tf.sin(x), lambda: tf.constant(7.0)])
    return tf.gradients(y, [x]), [{"x:0": 1.5, "i:0": 0}, {"x:0": 1.5, "i:0": 1},
                                  {"x:0": 1.5, "i:0": 2}]


def _while_basic(tf):
    x = tf.placeholder(tf.float32, [3], name="x")
    w = tf.get_variable("w", initializer=tf.constant([1.0, 2.0, 3.0]), use_resource=True)
    _, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, tf.sin(y) * w), [0, x])
    return tf.gradients(tf.reduce_sum(y), [x, w]), [{"x:0": X3}], \
        [tf.global_variables_initializer()]


def _while_loop_invariant(tf):
    x = tf.placeholder(tf.float32, [2], name="x")
    c = tf.placeholder(tf.float32, [2], name="c")
    _, y = tf.while_loop(lambda i, y: i < 4, lambda i, y: (i + 1, y * c + 1.0), [0, x])
    return tf.gradients(tf.reduce_sum(y), [x, c]), [{"x:0": [1.0, 2.0], "c:0": [0.5, -1.5]}]


def _while_maximum_iterations(tf):
    x = tf.placeholder(tf.float32, [], name="x")
    _, y = tf.while_loop(lambda i, y: i < 10, lambda i, y: (i + 1, y * 1.5 + tf.sin(y)),
                         [0, x], maximum_iterations=4)
    return tf.gradients(y, [x]) + [y], [{"x:0": 0.3}, {"x:0": -2.0}]


def _while_dynamic_count(tf):
    x = tf.placeholder(tf.float32, [], name="x")
    n = tf.placeholder(tf.int32, [], name="n")
    _, y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * y * 0.5 + 1.0), [0, x])
    return tf.gradients(y, [x]), [{"x:0": 0.7, "n:0": 0}, {"x:0": 0.7, "n:0": 1},
                                  {"x:0": 0.7, "n:0": 5}]


def _while_nested(tf):
    x = tf.placeholder(tf.float32, [], name="x")

    def outer_body(i, y):
        _, z = tf.while_loop(lambda j, z: j < 3, lambda j, z: (j + 1, tf.sin(z) + z * 0.5),
                             [0, y])
        return i + 1, z * 1.1
    _, y = tf.while_loop(lambda i, y: i < 2, outer_body, [0, x])
    return tf.gradients(y, [x]), [{"x:0": 0.4}, {"x:0": 2.0}]


def _while_matmul_variable(tf):
    m = tf.get_variable("m", initializer=tf.constant([[0.5, 0.1], [-0.2, 0.9]]),
                        use_resource=True)
    x = tf.placeholder(tf.float32, [1, 2], name="x")
    _, y = tf.while_loop(lambda i, y: i < 5, lambda i, y: (i + 1, tf.tanh(tf.matmul(y, m))),
                         [0, x])
    loss = tf.reduce_sum(y * y)
    return tf.gradients(loss, [x, m]), [{"x:0": [[1.0, -0.5]]}], \
        [tf.global_variables_initializer()]


def _cond_in_while(tf):
    x = tf.placeholder(tf.float32, [], name="x")

    def body(i, y):
        y2 = tf.cond(tf.equal(i % 2, 0), lambda: y * y, lambda: tf.sin(y))
        return i + 1, y2
    _, y = tf.while_loop(lambda i, y: i < 4, body, [0, x])
    return tf.gradients(y, [x]), [{"x:0": 0.9}, {"x:0": 1.3}]


def _while_in_cond(tf):
    x = tf.placeholder(tf.float32, [], name="x")

    def loop():
        _, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * 2.0 + tf.cos(y)),
                             [0, x])
        return y
    y = tf.cond(x > 0, loop, lambda: x * x)
    return tf.gradients(y, [x]), [{"x:0": 0.5}, {"x:0": -0.5}]


def _while_tensor_array(tf):
    xs = tf.placeholder(tf.float32, [4, 2], name="xs")
    w = tf.get_variable("w", initializer=tf.constant([[0.3, -0.1], [0.2, 0.4]]),
                        use_resource=True)
    inputs = tf.TensorArray(tf.float32, size=4).unstack(xs)
    outputs = tf.TensorArray(tf.float32, size=4)

    def body(t, h, out):
        h = tf.tanh(tf.matmul(tf.expand_dims(inputs.read(t), 0), w) + h)
        return t + 1, h, out.write(t, tf.squeeze(h, 0))
    _, h, out = tf.while_loop(lambda t, h, out: t < 4, body,
                              [0, tf.zeros([1, 2]), outputs])
    loss = tf.reduce_sum(out.stack() * tf.constant([[1.0, 2.0]])) + tf.reduce_sum(h)
    feeds = [{"xs:0": [[1.0, 0.0], [0.5, -1.0], [0.0, 2.0], [-1.0, 1.0]]}]
    return tf.gradients(loss, [xs, w]), feeds, [tf.global_variables_initializer()]


def _gradients_twice(tf):
    x = tf.placeholder(tf.float32, [], name="x")
    c = tf.placeholder(tf.float32, [], name="c")
    _, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * c + tf.sin(y)), [0, x])
    gx = tf.gradients(y, [x])
    gc = tf.gradients(y * 2.0, [c])
    return gx + gc + [y], [{"x:0": 0.5, "c:0": 1.5}]


def _cond_second_order(tf):
    x = tf.placeholder(tf.float32, [], name="x")
    y = tf.cond(x > 0, lambda: x * x * x, lambda: tf.sin(x))
    g = tf.gradients(y, x)[0]
    return [g] + tf.gradients(g, x), [{"x:0": 2.0}, {"x:0": -1.0}]


CASES = {
    "cond_basic": _cond_basic,
    "cond_variable": _cond_variable,
    "cond_variable_one_branch": _cond_variable_one_branch,
    "cond_one_branch_constant": _cond_one_branch_constant,
    "cond_nested": _cond_nested,
    "cond_two_outputs": _cond_two_outputs,
    "cond_matmul": _cond_matmul,
    "switch_case": _switch_case,
    "while_basic": _while_basic,
    "while_loop_invariant": _while_loop_invariant,
    "while_maximum_iterations": _while_maximum_iterations,
    "while_dynamic_count": _while_dynamic_count,
    "while_nested": _while_nested,
    "while_matmul_variable": _while_matmul_variable,
    "cond_in_while": _cond_in_while,
    "while_in_cond": _while_in_cond,
    "while_tensor_array": _while_tensor_array,
    "gradients_twice": _gradients_twice,
    "cond_second_order": _cond_second_order,
}


def run_case(tf, name):
    """{"values": [[fetch values per feed]], "fetch_names": [...]} for case `name`."""
    return case_runner.run_program(tf, CASES[name])


def forward_graph_def(tf, name):
    """(GraphDef of the case's graph before its gradients, [names of the xs]), or None for
    cases whose forward graph holds a first gradient. The loss is the node named "loss"; the
    case is built with tf.gradients replaced by a recorder."""
    if name in ("gradients_twice", "cond_second_order"):
        return None
    asked = []
    real = tf.gradients

    def record(ys, xs, **kw):
        asked.append((ys, xs))
        return [tf.identity(x, name="not_a_gradient") for x in xs]
    tf.gradients = record
    try:
        CASES[name](tf)
    finally:
        tf.gradients = real
    (ys, xs), = asked
    tf.identity(ys, name="loss")
    gd = tf.get_default_graph().as_graph_def()
    keep = [n for n in gd.node if not n.name.startswith("not_a_gradient")]
    del gd.node[:]
    gd.node.extend(keep)
    return gd, [(x.handle if hasattr(x, "handle") else x).name for x in xs]
