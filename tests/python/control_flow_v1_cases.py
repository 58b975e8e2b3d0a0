"""TF1-style (v1) control flow programs, written against the TF1 API so they run on
TensorFlow 2.21 and on minitf with tf.disable_control_flow_v2(): cond as Switch/Merge,
while_loop as Enter/Merge/Switch/Exit/NextIteration frames, and tf.gradients through
them (gradient loops with stacks). Each case returns its fetches, feeds and optional
initializers; run_case records the fetched values and every op (name, type, inputs,
control inputs). tools/gen_control_flow_v1_expected.py records TensorFlow's
(tests/fixtures/control_flow_v1_expected.json); tests/python/test_control_flow_v1.py
replays them. Errors that construction raises are recorded as (type, message)."""
import numpy as np

import case_runner
from control_flow_cases import _cond_in_while, _while_in_cond  # the same programs, v1 form


def _matvec(tf, m, v):
    return tf.reshape(tf.matmul(m, tf.reshape(v, [-1, 1])), [-1])


def _cond_branches(tf):
    x = tf.placeholder(tf.float32, [2], name="x")
    c = tf.constant([1.0, 2.0], name="c")
    out = tf.cond(tf.reduce_sum(x) > 0, lambda: (x * c, {"a": x + 1.0, "b": tf.constant(1)}),
                  lambda: (c - x, {"a": c, "b": tf.constant(2)}), name="pick")
    return [out[0], out[1]["a"], out[1]["b"]], [{"x:0": [1.0, 2.0]}, {"x:0": [-1.0, -2.0]}]


def _cond_nested(tf):
    x = tf.placeholder(tf.float32, [], name="x")
    y = tf.cond(x > 0, lambda: tf.cond(x > 10, lambda: x * 100.0, lambda: x * 10.0),
                lambda: -x)
    return [y], [{"x:0": 3.0}, {"x:0": 30.0}, {"x:0": -3.0}]


def _cond_strict(tf):
    p = tf.placeholder(tf.bool, [], name="p")
    a = tf.cond(p, lambda: [tf.constant(1)], lambda: [tf.constant(2)], strict=True)
    b = tf.cond(p, lambda: [tf.constant(3)], lambda: [tf.constant(4)])
    return [a[0], b], [{"p:0": True}, {"p:0": False}]


def _cond_variables(tf):
    v = tf.get_variable("v", initializer=tf.constant([1.0, 2.0]), use_resource=True)
    r = tf.get_variable("r", initializer=tf.constant(5.0), use_resource=False)
    p = tf.placeholder(tf.bool, [], name="p")
    y = tf.cond(p, lambda: v * 3.0, lambda: v + r)
    return [y], [{"p:0": True}, {"p:0": False}], [tf.global_variables_initializer()]


def _cond_side_effect(tf):
    v = tf.get_variable("counter", initializer=0, use_resource=True)
    p = tf.placeholder(tf.bool, [], name="p")
    y = tf.cond(p, lambda: v.assign_add(5, read_value=False), lambda: tf.constant(False))
    with tf.control_dependencies([y]):
        after = v.read_value()
    return [y, after], [{"p:0": True}, {"p:0": False}, {"p:0": True}], [v.initializer]


def _while_counter(tf):
    n = tf.placeholder(tf.int32, [], name="n")
    r = tf.while_loop(lambda i: i < n, lambda i: i + 1, [tf.constant(0)])
    r2 = tf.while_loop(lambda i: i < n, lambda i: i + 2, [tf.constant(0)],
                       return_same_structure=True, parallel_iterations=1, name="two")
    return [r, r2[0]], [{"n:0": 10}, {"n:0": 0}]


def _while_invariants(tf):
    w = tf.placeholder(tf.float32, [2, 2], name="w")
    b = tf.placeholder(tf.float32, [2], name="b")
    n = tf.placeholder(tf.int32, [], name="n")
    out = tf.while_loop(lambda i, x: i < n,
                        lambda i, x: (i + 1, tf.tanh(_matvec(tf, w, x) + b)),
                        [tf.constant(0), tf.ones([2])])
    return list(out), [{"w:0": [[0.5, -0.25], [0.125, 1.0]], "b:0": [0.1, -0.2], "n:0": 6}]


def _while_nested(tf):
    def outer_body(i, acc):
        inner = tf.while_loop(lambda j, a: j < i, lambda j, a: (j + 1, a + j), [0, acc])
        return i + 1, inner[1]
    r = tf.while_loop(lambda i, acc: i < 5, outer_body, [tf.constant(0), tf.constant(0)])
    return list(r), [{}]


def _while_maximum_iterations(tf):
    x = tf.placeholder(tf.float32, [], name="x")
    r = tf.while_loop(lambda i, j: i < 100, lambda i, j: (i + 1, j * 2.0),
                      (tf.constant(0), x), maximum_iterations=5, name="mw")
    s = tf.while_loop(lambda v: v < 1000.0, lambda v: v * 3.0, [x], maximum_iterations=3)
    return list(r) + [s], [{"x:0": 1.0}]


def _while_shape_invariants(tf):
    x = tf.constant([1.0])
    r = tf.while_loop(lambda v: tf.size(v) < 8, lambda v: tf.concat([v, v * 2.0], 0), [x],
                      shape_invariants=[tf.TensorShape([None])])
    return [r], [{}]


def _while_tensor_array(tf):
    x = tf.placeholder(tf.float32, [4], name="x")
    ta = tf.TensorArray(tf.float32, size=4)
    xs = tf.TensorArray(tf.float32, size=4).unstack(x)

    def body(i, acc, ta):
        acc = acc + xs.read(i)
        return i + 1, acc, ta.write(i, acc * 2.0)
    _, total, ta = tf.while_loop(lambda i, a, t: i < 4, body, [0, 0.0, ta])
    return [total, ta.stack()], [{"x:0": [1.0, 2.0, 3.0, 4.0]}]


# -- gradients -------------------------------------------------------------


def _grad_cond(tf):
    x = tf.placeholder(tf.float32, [], name="x")
    w = tf.constant(3.0, name="w")
    y = tf.cond(x > 0, lambda: x * w, lambda: w - x * x)
    return tf.gradients(y, [x, w]), [{"x:0": 2.0}, {"x:0": -2.0}]


def _grad_cond_nested(tf):
    x = tf.placeholder(tf.float32, [2], name="x")
    y = tf.cond(tf.reduce_sum(x) > 0,
                lambda: tf.cond(x[0] > 1.0, lambda: tf.sin(x), lambda: x * x),
                lambda: tf.exp(x))
    return tf.gradients(tf.reduce_sum(y), x), [{"x:0": [2.0, 0.5]}, {"x:0": [0.5, 0.25]},
                                               {"x:0": [-1.0, 0.5]}]


def _grad_cond_variable(tf):
    v = tf.get_variable("v", initializer=tf.constant([1.0, 2.0]), use_resource=True)
    p = tf.placeholder(tf.bool, [], name="p")
    y = tf.cond(p, lambda: tf.reduce_sum(v * v), lambda: tf.reduce_sum(v * 3.0))
    return tf.gradients(y, v), [{"p:0": True}, {"p:0": False}], [v.initializer]


def _grad_cond_second_order(tf):
    x = tf.placeholder(tf.float32, [], name="x")
    y = tf.cond(x > 0, lambda: x * x * x, lambda: tf.sin(x))
    g = tf.gradients(y, x)[0]
    return [g] + tf.gradients(g, x), [{"x:0": 2.0}, {"x:0": -1.0}]


def _grad_while(tf):
    x = tf.placeholder(tf.float32, [], name="x")
    w = tf.constant(3.0, name="w")
    n = tf.placeholder(tf.int32, [], name="n")
    r = tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s * w), [tf.constant(0), x])
    return tf.gradients(r[1], [x, w]), [{"x:0": 2.0, "n:0": 3}, {"x:0": 2.0, "n:0": 0}]


def _grad_while_invariants(tf):
    w = tf.placeholder(tf.float32, [2, 2], name="w")
    b = tf.placeholder(tf.float32, [2], name="b")
    x0 = tf.placeholder(tf.float32, [2], name="x0")
    out = tf.while_loop(lambda i, x: i < 4,
                        lambda i, x: (i + 1, tf.tanh(_matvec(tf, w, x) + b)),
                        [tf.constant(0), x0])
    loss = tf.reduce_sum(out[1] * out[1])
    return tf.gradients(loss, [w, b, x0]), [
        {"w:0": [[0.5, -0.25], [0.125, 1.0]], "b:0": [0.1, -0.2], "x0:0": [1.0, -1.0]}]


def _grad_while_nested(tf):
    x = tf.placeholder(tf.float32, [], name="x")

    def outer_body(i, s):
        _, t = tf.while_loop(lambda j, t: j < 3, lambda j, t: (j + 1, t * x + 1.0), [0, s])
        return i + 1, t
    r = tf.while_loop(lambda i, s: i < 2, outer_body, [tf.constant(0), x])
    return tf.gradients(r[1], x), [{"x:0": 0.5}, {"x:0": -1.5}]


def _grad_while_maximum_iterations(tf):
    x = tf.placeholder(tf.float32, [], name="x")
    r = tf.while_loop(lambda v: v < 1000.0, lambda v: v * v + 1.0, [x], maximum_iterations=3)
    return [r] + tf.gradients(r, x), [{"x:0": 1.5}, {"x:0": 40.0}]


def _grad_cond_in_while(tf):
    x = tf.placeholder(tf.float32, [], name="x")

    def body(i, s):
        return i + 1, tf.cond(tf.equal(i % 2, 0), lambda: s * x, lambda: s + x)
    r = tf.while_loop(lambda i, s: i < 5, body, [tf.constant(0), tf.constant(1.0)])
    return tf.gradients(r[1], x), [{"x:0": 2.0}]


def _grad_while_tensor_array(tf):
    x = tf.placeholder(tf.float32, [3], name="x")
    xs = tf.TensorArray(tf.float32, size=3).unstack(x)

    def body(i, acc):
        return i + 1, acc * xs.read(i) + 1.0
    _, total = tf.while_loop(lambda i, a: i < 3, body, [0, tf.constant(1.0)])
    return tf.gradients(total, x), [{"x:0": [2.0, 3.0, 0.5]}]


CASES = {
    "cond_branches": _cond_branches,
    "cond_nested": _cond_nested,
    "cond_strict": _cond_strict,
    "cond_variables": _cond_variables,
    "cond_side_effect": _cond_side_effect,
    "while_counter": _while_counter,
    "while_invariants": _while_invariants,
    "while_nested": _while_nested,
    "while_maximum_iterations": _while_maximum_iterations,
    "while_shape_invariants": _while_shape_invariants,
    "while_tensor_array": _while_tensor_array,
    "while_in_cond": _while_in_cond,
    "cond_in_while": _cond_in_while,
    "grad_cond": _grad_cond,
    "grad_cond_nested": _grad_cond_nested,
    "grad_cond_variable": _grad_cond_variable,
    "grad_cond_second_order": _grad_cond_second_order,
    "grad_while": _grad_while,
    "grad_while_invariants": _grad_while_invariants,
    "grad_while_nested": _grad_while_nested,
    "grad_while_maximum_iterations": _grad_while_maximum_iterations,
    "grad_cond_in_while": _grad_cond_in_while,
    "grad_while_tensor_array": _grad_while_tensor_array,
}


# -- bad input ---------------------------------------------------------------


def _err_pred_python_bool(tf):
    tf.cond(True, lambda: tf.constant(1), lambda: tf.constant(2))


def _err_branch_returns_none(tf):
    tf.cond(tf.constant(True), lambda: None, lambda: tf.constant(2))


def _err_branch_dtypes(tf):
    x = tf.constant(1.0)
    tf.cond(x > 0, lambda: x, lambda: tf.constant(1))


def _err_branch_structures(tf):
    x = tf.constant(1.0)
    tf.cond(x > 0, lambda: (x, x), lambda: x)


def _err_loop_shape_changes(tf):
    tf.while_loop(lambda i: i < 3, lambda i: tf.stack([i, i]), [tf.constant(0)])


def _err_loop_dtype_changes(tf):
    tf.while_loop(lambda i: i < 3, lambda i: tf.cast(i, tf.float32), [tf.constant(0)])


def _err_empty_loop_vars(tf):
    tf.while_loop(lambda: True, lambda: 1, [])


def _err_shape_invariant_incompatible(tf):
    tf.while_loop(lambda v: tf.size(v) < 8, lambda v: v, [tf.constant([1.0, 2.0])],
                  shape_invariants=[tf.TensorShape([3])])


def _err_maximum_iterations_not_scalar(tf):
    tf.while_loop(lambda i: i < 3, lambda i: i + 1, [tf.constant(0)], maximum_iterations=[3])


def _err_loop_value_used_outside(tf):
    captured = []

    def body(i):
        captured.append(i * 2)
        return i + 1
    tf.while_loop(lambda i: i < 3, body, [tf.constant(0)])
    tf.add(captured[0], 1, name="outside")


def _err_value_of_another_loop(tf):
    captured = []

    def body1(i):
        captured.append(i * 2)
        return i + 1
    tf.while_loop(lambda i: i < 3, body1, [tf.constant(0)])
    tf.while_loop(lambda j: j < 3, lambda j: j + captured[0], [tf.constant(0)])


def _err_second_order_while(tf):
    x = tf.constant(2.0)
    r = tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * x), [tf.constant(0), x])
    g = tf.gradients(r[1], x)[0]
    tf.gradients(g, x)


ERRORS = {
    "pred_python_bool": _err_pred_python_bool,
    "branch_returns_none": _err_branch_returns_none,
    "branch_dtypes": _err_branch_dtypes,
    "branch_structures": _err_branch_structures,
    "loop_shape_changes": _err_loop_shape_changes,
    "loop_dtype_changes": _err_loop_dtype_changes,
    "empty_loop_vars": _err_empty_loop_vars,
    "shape_invariant_incompatible": _err_shape_invariant_incompatible,
    "maximum_iterations_not_scalar": _err_maximum_iterations_not_scalar,
    "loop_value_used_outside": _err_loop_value_used_outside,
    "value_of_another_loop": _err_value_of_another_loop,
    "second_order_while": _err_second_order_while,
}


def _v1(tf):
    """Context: build with v1 control flow, then restore the previous form."""
    class _Scope:
        def __enter__(self):
            self.was_v2 = tf.control_flow_v2_enabled()
            tf.disable_control_flow_v2()

        def __exit__(self, *exc):
            if self.was_v2:
                tf.enable_control_flow_v2()
            return False
    return _Scope()


def _op_record(op):
    return [op.name, op.type, [t.name for t in op.inputs], sorted(c.name for c in op.control_inputs)]


def run_case(tf, name):
    """{"values": [[fetch values per feed]], "ops": [[name, type, inputs, control inputs]],
    "fetch_names": [...]} for case `name`, built with v1 control flow."""
    return case_runner.run_program(tf, CASES[name], record_op=_op_record, context=_v1(tf))


def run_error(tf, name):
    """[exception class name, message] that building error case `name` raises (v1)."""
    return case_runner.build_error(tf, ERRORS[name], context=_v1(tf))
