"""Control flow written against the TF1 API so the same code runs on TensorFlow 2.21 and on
minitf (v2 form, TF 2.21's default in compat.v1 graph mode): each case builds a graph and
returns its fetched values for some feeds plus the (name, type) of every op it created.
tools/gen_control_flow_expected.py records TensorFlow's (tests/fixtures/
control_flow_expected.json); tests/python/test_control_flow.py replays them. Errors that
construction raises are recorded as (exception type, message)."""
import numpy as np

import case_runner


def _cond_basic(tf):
    x = tf.placeholder(tf.float32, [], name="x")
    y = tf.cond(x > 0, lambda: x * 2.0, lambda: x - 1.0)
    return [y], [{"x:0": 3.0}, {"x:0": -3.0}]


def _cond_nested(tf):
    x = tf.placeholder(tf.float32, [], name="x")
    y = tf.cond(x > 0, lambda: tf.cond(x > 10, lambda: x * 100.0, lambda: x * 10.0),
                lambda: -x)
    return [y], [{"x:0": 3.0}, {"x:0": 30.0}, {"x:0": -3.0}]


def _cond_structure(tf):
    x = tf.placeholder(tf.float32, [2], name="x")
    c = tf.constant([1.0, 2.0], name="c")
    out = tf.cond(tf.reduce_sum(x) > 0, lambda: (x + c, {"a": x * c, "b": tf.constant(1)}),
                  lambda: (x - c, {"a": c, "b": tf.constant(2)}), name="pick")
    return [out[0], out[1]["a"], out[1]["b"]], [{"x:0": [1.0, 2.0]}, {"x:0": [-1.0, -2.0]}]


def _cond_capture_outer_only(tf):
    a = tf.constant(5.0, name="a")
    b = tf.constant(7.0, name="b")
    p = tf.placeholder(tf.bool, [], name="p")
    y = tf.cond(p, lambda: a, lambda: b)
    return [y], [{"p:0": True}, {"p:0": False}]


def _cond_variable(tf):
    v = tf.get_variable("v", initializer=tf.constant([1.0, 2.0]), use_resource=True)
    p = tf.placeholder(tf.bool, [], name="p")
    y = tf.cond(p, lambda: v * 3.0, lambda: v + 1.0)
    return [y], [{"p:0": True}, {"p:0": False}], [tf.global_variables_initializer()]


def _switch_case(tf):
    i = tf.placeholder(tf.int32, [], name="i")
    x = tf.constant(2.0)
    y = tf.switch_case(i, [lambda: x, lambda: x * 10.0, lambda: x * 100.0])
    return [y], [{"i:0": 0}, {"i:0": 2}, {"i:0": 7}, {"i:0": -1}]


def _switch_case_default(tf):
    i = tf.placeholder(tf.int32, [], name="i")
    y = tf.switch_case(i, {0: lambda: tf.constant(10), 1: lambda: tf.constant(11)},
                       default=lambda: tf.constant(-1))
    return [y], [{"i:0": 0}, {"i:0": 1}, {"i:0": 5}]


def _while_counter(tf):
    n = tf.placeholder(tf.int32, [], name="n")
    r = tf.while_loop(lambda i: i < n, lambda i: i + 1, [tf.constant(0)])
    return [r], [{"n:0": 10}, {"n:0": 0}, {"n:0": 1000}]


def _while_two_vars(tf):
    x = tf.placeholder(tf.float32, [], name="x")
    r = tf.while_loop(lambda i, s: i < 10, lambda i, s: (i + 1, s + x),
                      [tf.constant(0), tf.constant(0.0)])
    return list(r), [{"x:0": 1.5}, {"x:0": -2.0}]


def _while_maximum_iterations(tf):
    x = tf.placeholder(tf.float32, [], name="x")
    r = tf.while_loop(lambda i, j: i < 100, lambda i, j: (i + 1, j * 2.0),
                      [tf.constant(0), x], maximum_iterations=5, name="mw")
    return list(r), [{"x:0": 1.0}]


def _while_nested(tf):
    def outer_body(i, acc):
        inner = tf.while_loop(lambda j, a: j < i, lambda j, a: (j + 1, a + j), [0, acc])
        return i + 1, inner[1]
    r = tf.while_loop(lambda i, acc: i < 5, outer_body, [tf.constant(0), tf.constant(0)])
    return list(r), [{}]


def _while_shape_invariant(tf):
    x = tf.constant([1.0])
    r = tf.while_loop(lambda v: tf.size(v) < 8, lambda v: tf.concat([v, v * 2.0], 0), [x],
                      shape_invariants=[tf.TensorShape([None])])
    return [r], [{}]


def _while_matrix_power(tf):
    m = tf.placeholder(tf.float64, [2, 2], name="m")
    r = tf.while_loop(lambda k, p: k < 6, lambda k, p: (k + 1, tf.matmul(p, m)),
                      [tf.constant(0), tf.constant(np.eye(2), name="eye")])
    return [r[1]], [{"m:0": [[1.0, 1.0], [1.0, 0.0]]}]


def _while_in_cond(tf):
    x = tf.placeholder(tf.int32, [], name="x")
    y = tf.cond(x > 0, lambda: tf.while_loop(lambda i: i < x, lambda i: i + 3, [0]),
                lambda: tf.constant(-1))
    return [y], [{"x:0": 10}, {"x:0": -1}]


def _cond_in_while(tf):
    def body(i, s):
        return i + 1, tf.cond(tf.equal(i % 2, 0), lambda: s + i, lambda: s - i)
    r = tf.while_loop(lambda i, s: i < 7, body, [tf.constant(0), tf.constant(0)])
    return list(r), [{}]


CASES = {
    "cond_basic": _cond_basic,
    "cond_nested": _cond_nested,
    "cond_structure": _cond_structure,
    "cond_capture_outer_only": _cond_capture_outer_only,
    "cond_variable": _cond_variable,
    "switch_case": _switch_case,
    "switch_case_default": _switch_case_default,
    "while_counter": _while_counter,
    "while_two_vars": _while_two_vars,
    "while_maximum_iterations": _while_maximum_iterations,
    "while_nested": _while_nested,
    "while_shape_invariant": _while_shape_invariant,
    "while_matrix_power": _while_matrix_power,
    "while_in_cond": _while_in_cond,
    "cond_in_while": _cond_in_while,
}


def _errors_cond_types(tf):
    x = tf.constant(1.0)
    tf.cond(x > 0, lambda: x, lambda: tf.constant(1))


def _errors_while_shape(tf):
    tf.while_loop(lambda i: i < 3, lambda i: tf.stack([i, i]), [tf.constant(0)])


def _errors_while_dtype(tf):
    tf.while_loop(lambda i: i < 3, lambda i: tf.cast(i, tf.float32), [tf.constant(0)])


def _errors_not_callable(tf):
    tf.cond(tf.constant(True), 1, lambda: 2)


def _errors_empty_loop_vars(tf):
    tf.while_loop(lambda: True, lambda: 1, [])


def _errors_cond_none_branch(tf):
    x = tf.constant(1.0)
    tf.cond(x > 0, lambda: None, lambda: x)


def _errors_switch_case_float_index(tf):
    tf.switch_case(tf.constant(1.0), [lambda: 1.0, lambda: 2.0])


ERRORS = {
    "cond_none_branch": _errors_cond_none_branch,
    "switch_case_float_index": _errors_switch_case_float_index,
    "cond_types": _errors_cond_types,
    "while_shape": _errors_while_shape,
    "while_dtype": _errors_while_dtype,
    "not_callable": _errors_not_callable,
    "empty_loop_vars": _errors_empty_loop_vars,
}


def run_case(tf, name):
    """{"values": [[fetch values per feed]], "ops": [[name, type]], "fetch_names": [...]}
    for case `name`."""
    return case_runner.run_program(tf, CASES[name], record_op=lambda op: [op.name, op.type])


def run_error(tf, name):
    """[exception class name, message] that building error case `name` raises."""
    return case_runner.build_error(tf, ERRORS[name])
