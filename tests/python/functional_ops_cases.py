"""tf.map_fn, tf.scan, tf.foldl, tf.foldr and tf.case written against the TF1 API, so the same
code runs on TensorFlow 2.21 (tf.compat.v1 graph mode, control flow v2) and on minitf. Each
case builds a graph and returns (fetches, feeds); run_case records the fetched values per feed
(or the run-time error's class and TensorFlow's core message), the (name, type) of every op
of the outer graph and the fetches' static shapes. tools/gen_functional_ops_expected.py
records TensorFlow's (tests/fixtures/functional_ops_expected.json), with the gradients of
GRAD_CASES; tests/python/test_functional_ops.py replays them on minitf."""
import re

import numpy as np

from state_cases import core_message, val


def _message(e):
    """TensorFlow's core message without the "Graph execution error:" preamble and with
    object addresses ("at 0x7f...") dropped."""
    msg = core_message(getattr(e, "message", str(e)))
    if msg.startswith("Graph execution error:"):
        msg = msg[len("Graph execution error:"):].strip()
    msg = re.sub(r"<class '[\w.]*\.(\w+)'>", r"<class '\1'>", msg)  # the package path
    return re.sub(r" at 0x[0-9a-f]+", "", msg)


def _x(tf):
    return tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2) + 1.0, name="x")


def _map_basic(tf):
    return [tf.map_fn(lambda r: r * 2.0, _x(tf))], [{}]


def _map_unknown_rows(tf):
    p = tf.placeholder(tf.float32, [None, 2], name="p")
    y = tf.map_fn(lambda r: tf.reduce_sum(r * r), p)
    return [y], [{"p:0": [[1.0, 2.0], [3.0, 4.0]]}, {"p:0": [[0.5, 0.5]]}]


def _map_nested_signature(tf):
    a = _x(tf)
    b = tf.constant([10.0, 20.0, 30.0], name="b")
    out = tf.map_fn(lambda t: (t[0] * t[1], tf.cast(t[1], tf.int32)), (a, b),
                    fn_output_signature=(tf.float32, tf.int32))
    return list(out), [{}]


def _map_dict_dtype(tf):
    e = {"u": _x(tf), "v": tf.constant([[1], [2], [3]], name="v")}
    out = tf.map_fn(lambda d: {"u": d["u"] + 1.0, "v": d["v"] * 3}, e)
    single = tf.map_fn(lambda d: tf.reduce_sum(d["u"]) + tf.cast(d["v"][0], tf.float32), e,
                       dtype=tf.float32, name="single")
    return [out["u"], out["v"], single], [{}]


def _map_options(tf):
    w = tf.constant([1.0, -1.0], name="w")
    y = tf.map_fn(lambda r: r * w, _x(tf), parallel_iterations=3, back_prop=False,
                  infer_shape=False, swap_memory=True, name="mymap")
    return [y], [{}]


def _scan_basic(tf):
    return [tf.scan(lambda a, x: a + x, _x(tf))], [{}]


def _scan_initializer_structure(tf):
    elems = tf.constant([1.0, 2.0, 3.0, 4.0], name="e")
    out = tf.scan(lambda a, x: (a[1], a[0] + a[1] * x), elems,
                  initializer=(tf.constant(0.0), tf.constant(1.0)))
    return list(out), [{}]


def _scan_reverse(tf):
    elems = tf.constant([1.0, 2.0, 3.0, 4.0], name="e")
    r = tf.scan(lambda a, x: a * 2.0 + x, elems, reverse=True)
    ri = tf.scan(lambda a, x: a - x, elems, initializer=tf.constant(100.0), reverse=True,
                 name="rev_init")
    return [r, ri], [{}]


def _scan_nested_elems(tf):
    a = tf.constant([1, 2, 3], name="a")
    b = tf.constant([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]], name="b")
    out = tf.scan(lambda acc, e: (acc[0] + e[0], acc[1] * e[1]), (a, b))
    return list(out), [{}]


def _fold_basic(tf):
    e = tf.constant([1.0, 2.0, 3.0, 4.0], name="e")
    l = tf.foldl(lambda a, x: a * 10.0 + x, e)
    r = tf.foldr(lambda a, x: a * 10.0 + x, e)
    return [l, r], [{}]


def _fold_initializer(tf):
    x = _x(tf)
    l = tf.foldl(lambda a, r: a + tf.reduce_sum(r), x, initializer=tf.constant(0.5))
    r = tf.foldr(lambda a, r: a * 2.0 - r, x, initializer=tf.constant([1.0, 1.0]), name="fr")
    return [l, r], [{}]


def _fold_unknown_rows(tf):
    p = tf.placeholder(tf.float32, [None], name="p")
    l = tf.foldl(lambda a, x: a - x, p)
    r = tf.foldr(lambda a, x: a - x, p, initializer=tf.constant(0.0))
    return [l, r], [{"p:0": [1.0, 2.0, 3.0]}, {"p:0": [5.0]}]


def _fold_nested(tf):
    a = tf.constant([1.0, 2.0, 3.0], name="a")
    b = tf.constant([4.0, 5.0, 6.0], name="b")
    out = tf.foldl(lambda acc, e: (acc[0] + e[0] * e[1], acc[1] + 1), (a, b),
                   initializer=(tf.constant(0.0), tf.constant(0)))
    return list(out), [{}]


def _case_default(tf):
    x = tf.placeholder(tf.int32, [], name="x")
    y = tf.case([(tf.less(x, 0), lambda: tf.constant(-1)), (tf.equal(x, 0), lambda: tf.constant(0))],
                default=lambda: tf.constant(1))
    return [y], [{"x:0": -5}, {"x:0": 0}, {"x:0": 7}]


def _case_no_default(tf):
    x = tf.placeholder(tf.float32, [], name="x")
    y = tf.case([(x < 1.0, lambda: x * 10.0), (x < 2.0, lambda: x * 100.0),
                 (x >= 2.0, lambda: -x)])
    return [y], [{"x:0": 0.5}, {"x:0": 1.5}, {"x:0": 3.0}]


def _case_no_default_none_true(tf):
    x = tf.placeholder(tf.float32, [], name="x")
    y = tf.case([(x < 1.0, lambda: x * 10.0), (x > 5.0, lambda: -x)], name="strict_case")
    return [y], [{"x:0": 0.5}, {"x:0": 3.0}]


def _case_exclusive(tf):
    x = tf.placeholder(tf.int32, [], name="x")
    y = tf.case([(x > 0, lambda: tf.constant(1.0)), (x > 10, lambda: tf.constant(2.0)),
                 (x < 0, lambda: tf.constant(3.0))], default=lambda: tf.constant(0.0),
                exclusive=True, name="excl")
    return [y], [{"x:0": 5}, {"x:0": -2}, {"x:0": 0}, {"x:0": 20}]


def _case_dict_structure(tf):
    x = tf.placeholder(tf.float32, [], name="x")
    p1 = tf.greater(x, 1.0, name="a_pred")
    p2 = tf.less(x, -1.0, name="b_pred")
    out = tf.case({p2: lambda: (x, {"k": x * 2.0}), p1: lambda: (-x, {"k": x * 3.0})},
                  default=lambda: (tf.constant(0.0), {"k": tf.constant(9.0)}), exclusive=True)
    return [out[0], out[1]["k"]], [{"x:0": 2.0}, {"x:0": -2.0}, {"x:0": 0.0}]


def _map_in_scan_capture(tf):
    x = _x(tf)
    w = tf.constant(0.5, name="w")
    y = tf.scan(lambda a, r: a + tf.map_fn(lambda v: v * w, r), x)
    return [y], [{}]


CASES = {
    "map_basic": _map_basic, "map_unknown_rows": _map_unknown_rows,
    "map_nested_signature": _map_nested_signature, "map_dict_dtype": _map_dict_dtype,
    "map_options": _map_options, "scan_basic": _scan_basic,
    "scan_initializer_structure": _scan_initializer_structure, "scan_reverse": _scan_reverse,
    "scan_nested_elems": _scan_nested_elems, "fold_basic": _fold_basic,
    "fold_initializer": _fold_initializer, "fold_unknown_rows": _fold_unknown_rows,
    "fold_nested": _fold_nested, "case_default": _case_default,
    "case_no_default": _case_no_default, "case_no_default_none_true": _case_no_default_none_true,
    "case_exclusive": _case_exclusive, "case_dict_structure": _case_dict_structure,
    "map_in_scan_capture": _map_in_scan_capture,
}


def _err_map_scalar(tf):
    tf.map_fn(lambda v: v, tf.constant(1.0))


def _err_map_not_callable(tf):
    tf.map_fn(3, tf.constant([1.0]))


def _err_map_empty(tf):
    tf.map_fn(lambda v: v, [])


def _err_map_structure(tf):
    tf.map_fn(lambda v: (v, v), tf.constant([1.0, 2.0]), fn_output_signature=tf.float32)


def _err_case_not_bool(tf):
    tf.case([(tf.constant(1), lambda: tf.constant(1))])


def _err_case_not_pair(tf):
    tf.case([(tf.constant(True), lambda: 1, 3)])


def _err_case_not_list(tf):
    tf.case(tf.constant(True))


def _err_case_python_pred(tf):
    tf.case([(True, lambda: tf.constant(1))])


def _err_case_fn_not_callable(tf):
    tf.case([(tf.constant(True, name="t"), 3)])


def _err_scan_structure(tf):
    tf.scan(lambda a, x: (a, x), tf.constant([1.0, 2.0]))


ERRORS = {
    "map_scalar": _err_map_scalar, "map_not_callable": _err_map_not_callable,
    "map_empty": _err_map_empty, "map_structure": _err_map_structure,
    "case_not_bool": _err_case_not_bool, "case_not_pair": _err_case_not_pair,
    "case_not_list": _err_case_not_list, "case_python_pred": _err_case_python_pred,
    "case_fn_not_callable": _err_case_fn_not_callable, "scan_structure": _err_scan_structure,
}


def run_case(tf, name):
    """{"values": [per feed: [fetch values] or ["error", class, message]], "ops": [[name,
    type]], "shapes": [static shape of each fetch]} for case `name`."""
    g = tf.Graph()
    with g.as_default():
        fetches, feeds = CASES[name](tf)
        ops = [[op.name, op.type] for op in g.get_operations()]
        values = []
        with tf.Session() as sess:
            for fd in feeds:
                try:
                    values.append([val(v) for v in sess.run(fetches, fd)])
                except Exception as e:  # noqa: BLE001 - the class is part of the result
                    values.append(["error", type(e).__name__, _message(e)])
    return {"values": values, "ops": ops, "shapes": [str(t.shape) for t in fetches]}


def run_error(tf, name):
    """[exception class name, message] that building error case `name` raises."""
    g = tf.Graph()
    with g.as_default():
        try:
            ERRORS[name](tf)
        except Exception as e:  # noqa: BLE001 - recorded as TensorFlow raises it
            return [type(e).__name__, _message(e)]
    return None


def _grad_map_scan(tf):
    x = tf.placeholder(tf.float32, [3, 2], name="x")
    w = tf.constant([0.5, -2.0], name="w")
    m = tf.map_fn(lambda r: tf.sin(r) * w, x)
    s = tf.scan(lambda a, r: a * r + w, x)
    f = tf.foldl(lambda a, r: a * r, x, initializer=tf.constant([1.0, 1.0]))
    loss = tf.reduce_sum(m) + tf.reduce_sum(s * s) + tf.reduce_sum(f)
    return loss, [x, w], {"x:0": np.arange(6, dtype=np.float32).reshape(3, 2) * 0.3 + 0.1}


GRAD_CASES = {"map_scan_foldl": _grad_map_scan}


def run_grad(tf, name):
    """{"loss": value, "grads": [value of d loss / d each input]} for GRAD_CASES[name]."""
    g = tf.Graph()
    with g.as_default():
        loss, xs, feed = GRAD_CASES[name](tf)
        grads = tf.gradients(loss, xs)
        with tf.Session() as sess:
            lv, gv = sess.run([loss, grads], feed)
    return {"loss": val(lv), "grads": [val(v) for v in gv]}
