"""tf.TensorArray programs written against the TF1 API, so the same code runs on TensorFlow
2.21 (tf.compat.v1 graph mode) and on minitf. Each case takes the `tf` module and returns a
dict of observable results (values as [dtype, nested list], node names and types, gradients,
error class and TensorFlow's core message). tools/gen_tensor_array_expected.py runs every case
on TensorFlow under control flow v2 (the default) and v1 (tf.disable_control_flow_v2()) and
writes tests/fixtures/tensor_array_expected.json; tests/python/test_tensor_array.py replays
them on minitf in both modes and compares.
"""
import re

import numpy as np

from state_cases import core_message, val


def graph_nodes(g):
    return [[op.name, op.type, [t.name for t in op.inputs]] for op in g.get_operations()]


def ta_error(fn):
    """[class, message] with TensorArray names' process-wide counters ("TensorArray_3")
    replaced by N: TensorFlow numbers arrays across the whole process."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the class name is part of the result
        msg = core_message(getattr(e, "message", str(e)))
        msg = re.sub(r"(TensorArray\w*?)_\d+\b", r"\1_N", msg)
        return [type(e).__name__, re.sub(r"(Stack\[\w*?)_\d+\]", r"\1_N]", msg)]
    return None


def _x(tf):
    return tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2))


def unstack_read_write_stack_grad(tf):
    """unstack -> read -> math -> write -> stack, and the gradient w.r.t. the input."""
    g = tf.Graph()
    with g.as_default():
        x = _x(tf)
        ta = tf.TensorArray(tf.float32, size=3).unstack(x)
        r = ta.read(1)
        out = tf.TensorArray(tf.float32, size=3)
        out = out.write(0, r * 2.0).write(1, r * 3.0).write(2, r)
        s = out.stack()
        gx = tf.gradients(s, x)[0]
        with tf.Session() as sess:
            sv, gv = sess.run([s, gx])
        return {"nodes": graph_nodes(g), "stack": val(sv), "grad": val(gv),
                "shapes": [str(s.shape), str(r.shape)]}


def gather_scatter_concat_split(tf):
    g = tf.Graph()
    with g.as_default():
        x = _x(tf)
        ta = tf.TensorArray(tf.float32, size=4, element_shape=[2], clear_after_read=False)
        ta = ta.scatter([3, 0, 1], x).write(2, tf.constant([7.0, 8.0]))
        ga = ta.gather([2, 3])
        c = ta.concat()
        sp = tf.TensorArray(tf.float32, size=2, infer_shape=False).split(tf.constant([1.0, 2.0, 3.0, 4.0, 5.0]),
                                                       [2, 3])
        r0, r1 = sp.read(0), sp.read(1)
        sz = ta.size()
        loss = tf.reduce_sum(ga * tf.constant([[1.0, 2.0], [3.0, 4.0]])) + \
            tf.reduce_sum(c * c)
        gx = tf.gradients(loss, x)[0]
        with tf.Session() as sess:
            res = sess.run([ga, c, r0, r1, sz, gx])
        return {"nodes": graph_nodes(g), "values": [val(v) for v in res],
                "shapes": [str(t.shape) for t in (ga, c, r0, r1)]}


def split_concat_grad(tf):
    g = tf.Graph()
    with g.as_default():
        v = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0])
        ta = tf.TensorArray(tf.float32, size=2, infer_shape=False).split(v, [2, 3])
        c = tf.reshape(ta.concat(), [5])  # a known rank keeps reduce_sum's axes a Const
        loss = tf.reduce_sum(c * tf.constant([1.0, 2.0, 3.0, 4.0, 5.0]))
        gv = tf.gradients(loss, v)[0]
        with tf.Session() as sess:
            res = sess.run([c, gv])
        return {"nodes": graph_nodes(g), "values": [val(x) for x in res]}


def dynamic_size_growth(tf):
    g = tf.Graph()
    with g.as_default():
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for i in range(4):
            ta = ta.write(i, tf.constant([float(i), float(i * i)]))
        s, n = ta.stack(), ta.size()
        with tf.Session() as sess:
            res = sess.run([s, n])
        return {"nodes": [x[:2] for x in graph_nodes(g)], "values": [val(x) for x in res],
                "shape": str(s.shape)}


def unwritten_reads_zeros(tf):
    """Elements never written read as zeros when the element shape is known."""
    g = tf.Graph()
    with g.as_default():
        ta = tf.TensorArray(tf.float32, size=3, element_shape=[2])
        ta = ta.write(1, tf.constant([1.0, 2.0]))
        s = ta.stack()
        with tf.Session() as sess:
            return {"stack": val(sess.run(s))}


def errors(tf):
    res = {}
    g = tf.Graph()
    with g.as_default():
        ta = tf.TensorArray(tf.float32, size=2)
        w = ta.write(0, tf.constant(1.0)).write(0, tf.constant(2.0))
        oob = ta.write(0, tf.constant(1.0)).read(5)
        wo = ta.write(3, tf.constant(1.0))
        t2 = ta.write(0, tf.constant(1.0))
        twice = [t2.read(0), t2.read(0)]
        empty = tf.TensorArray(tf.float32, size=0).stack()
        stack_unset = tf.TensorArray(tf.float32, size=2).stack()
        bad_split = tf.TensorArray(tf.float32, size=2).split(tf.constant([1.0, 2.0, 3.0]),
                                                             [1, 1])
        with tf.Session() as sess:
            res["write_twice"] = ta_error(lambda: sess.run(w.stack()))
            res["read_out_of_range"] = ta_error(lambda: sess.run(oob))
            res["write_out_of_range"] = ta_error(lambda: sess.run(wo.flow))
            res["read_twice"] = ta_error(lambda: sess.run(twice))
            res["stack_empty"] = ta_error(lambda: sess.run(empty))
            res["stack_unset"] = ta_error(lambda: sess.run(stack_unset))
            res["split_bad_lengths"] = ta_error(lambda: sess.run(bad_split.flow))
        try:
            ta.write(0, tf.constant([1.0, 2.0])).write(1, tf.constant([1.0, 2.0, 3.0]))
            res["inconsistent_shapes"] = None
        except ValueError as e:
            res["inconsistent_shapes"] = ["ValueError", str(e)]
    return res


def handle_and_flow(tf):
    g = tf.Graph()
    with g.as_default():
        ta = tf.TensorArray(tf.float32, size=2, element_shape=[3])
        res = {"handle_is_none": ta.handle is None, "flow_dtype": ta.flow.dtype.name,
               "element_shape": str(ta.element_shape), "dtype": ta.dtype.name,
               "dynamic_size": ta.dynamic_size, "close": ta.close().type,
               "identity": ta.identity().flow.op.type}
        ta2 = ta.write(0, [1.0, 2.0, 3.0])
        with tf.Session() as sess:
            res["fetch_flow"] = ta_error(lambda: sess.run(ta2.flow)) if \
                ta2.flow.dtype.name == "variant" else val(sess.run(ta2.flow))
        return res


CASES = {f.__name__: f for f in [unstack_read_write_stack_grad, gather_scatter_concat_split,
                                  split_concat_grad, dynamic_size_growth, unwritten_reads_zeros,
                                  errors, handle_and_flow]}


def run_all(tf, v2):
    """Every case under control flow v2 (v2=True) or v1; the mode is restored after."""
    was = tf.control_flow_v2_enabled()
    (tf.enable_control_flow_v2 if v2 else tf.disable_control_flow_v2)()
    try:
        return {name: fn(tf) for name, fn in CASES.items()}
    finally:
        (tf.enable_control_flow_v2 if was else tf.disable_control_flow_v2)()
