"""Cases for framework names of tf.compat.v1 whose results are Python values (is_tensor,
is_symbolic_tensor, dimension_value, dimension_at_index, broadcast_static_shape,
all_variables, executing_eagerly_outside_functions, op_scope, variable_op_scope, the version
constants): each takes `tf`, builds in a fresh graph and returns a JSON-able value, or
raises; tools/gen_framework_api_expected.py records TF 2.21's, test_framework_api.py
compares minitf's."""
import numpy as np


def _kinds(tf, fn):
    """fn applied to a Tensor, a ResourceVariable, a RefVariable, a SparseTensor, an
    IndexedSlices, an Operation, a numpy array, a list, an int and a TensorShape."""
    c = tf.constant([1.0, 2.0])
    rv = tf.get_variable("rv", [2], use_resource=True)
    ref = tf.get_variable("ref", [2], use_resource=False)
    sp = tf.SparseTensor([[0, 0]], [1.0], [2, 2])
    sl = tf.IndexedSlices(c, tf.constant([0, 1]))
    return [fn(x) for x in (c, rv, ref, sp, sl, c.op, np.ones(2), [1.0], 3,
                            tf.TensorShape([2]))]


def _op_scope(tf):
    c = tf.constant(1.0)
    with tf.op_scope([c], "outer"):
        with tf.op_scope([c], None, default_name="inner") as scope:
            x = tf.identity(c)
    with tf.op_scope([c], None, "inner") as scope2:
        pass
    return [scope, x.op.name, scope2]


def _variable_op_scope(tf):
    c = tf.constant(1.0)
    with tf.variable_op_scope([c], "vs", initializer=tf.ones_initializer()) as scope:
        v = tf.get_variable("w", [2])
        name = scope.name
    with tf.variable_op_scope([c], None, default_name="dflt"):
        u = tf.get_variable("u", [1])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        val = sess.run(v).tolist()
    return [name, v.op.name, u.op.name, val]


def _initialized(tf):
    rv = tf.get_variable("rv", [1], use_resource=True)
    ref = tf.get_variable("ref", [1], use_resource=False)
    ts = [tf.is_variable_initialized(rv), tf.is_variable_initialized(ref)]
    with tf.Session() as sess:
        before = sess.run(ts)
        sess.run(rv.initializer)
        after = sess.run(ts)
    return [[[t.op.name, t.op.type] for t in ts], [bool(x) for x in before + after]]


def _device_fn(tf):
    with tf.device(lambda op: "/cpu:0" if op.type == "Const" else ""):
        a = tf.constant(1.0, name="a")
        b = tf.identity(a, name="b")
    return [a.op.device, b.op.device]


def _decorated(tf):
    @tf.numpy_function(Tout=tf.float32)
    def twice(x):
        return x * 2

    @tf.py_function(Tout=tf.float32)
    def plus(x, y):
        return x + y

    a = twice(tf.constant([1.0, 2.0]))
    b = plus(tf.constant(1.0), tf.constant(2.5))
    with tf.Session() as sess:
        va, vb = sess.run([a, b])
    return [twice.__name__, a.op.type, b.op.type, va.tolist(), float(vb)]


def _shape_str(s):
    return None if s.ndims is None else [d if d is None else int(d) for d in s.as_list()]


CASES = {
    "is_tensor": lambda tf: _kinds(tf, tf.is_tensor),
    "is_symbolic_tensor": lambda tf: _kinds(tf, tf.is_symbolic_tensor),
    "dimension_value": lambda tf: [tf.dimension_value(d) for d in (
        tf.Dimension(3), tf.Dimension(None), 4, None)],
    "dimension_at_index": lambda tf: [tf.dimension_value(tf.dimension_at_index(s, i))
                                      for s, i in ((tf.TensorShape([2, None, 5]), 0),
                                                   (tf.TensorShape([2, None, 5]), 1),
                                                   (tf.TensorShape([2, None, 5]), -1),
                                                   (tf.TensorShape(None), 7))],
    "dimension_at_index_type": lambda tf: type(tf.dimension_at_index(
        tf.TensorShape(None), 0)).__name__,
    "broadcast_static_shape": lambda tf: [_shape_str(tf.broadcast_static_shape(a, b)) for a, b in (
        (tf.TensorShape([2, 1, 3]), tf.TensorShape([4, 1])),
        (tf.TensorShape([None, 3]), tf.TensorShape([2, 1])),
        (tf.TensorShape(None), tf.TensorShape([2])),
        (tf.TensorShape([]), tf.TensorShape([5, 1])))],
    "broadcast_static_shape_error": lambda tf: tf.broadcast_static_shape(
        tf.TensorShape([2, 3]), tf.TensorShape([4])),
    "all_variables": lambda tf: [v.op.name for v in (
        tf.get_variable("a", [1]), tf.get_variable("b", [1], trainable=False),
        tf.get_local_variable("c", [1])) and tf.all_variables()],
    "executing_eagerly_outside_functions": lambda tf: tf.executing_eagerly_outside_functions(),
    "op_scope": _op_scope,
    "variable_op_scope": _variable_op_scope,
    "graph_def_versions": lambda tf: [tf.GRAPH_DEF_VERSION, tf.GRAPH_DEF_VERSION_MIN_CONSUMER,
                                      tf.GRAPH_DEF_VERSION_MIN_PRODUCER,
                                      tf.Graph().as_graph_def().versions.producer],
    "is_variable_initialized": _initialized,
    "device_function": _device_fn,
    "name_scope_values": lambda tf: tf.name_scope(None, "dflt", [tf.constant(1.0)]).__enter__(),
    "py_function_decorators": _decorated,
    "py_function_no_tout": lambda tf: tf.py_function(lambda: 1, []),
    "numpy_function_decorator_inp": lambda tf: tf.numpy_function(inp=[1.0], Tout=tf.float32),
    "numpy_function_no_inp": lambda tf: tf.numpy_function(lambda x: x, Tout=tf.float32),
    "quantized_dtypes": lambda tf: sorted(d.name for d in tf.QUANTIZED_DTYPES),
}


def run_case(tf, build):
    g = tf.Graph()
    with g.as_default():
        try:
            return {"value": build(tf)}
        except Exception as e:  # noqa: BLE001 - the class and text are the result
            return {"error": [type(e).__name__, str(e)]}
