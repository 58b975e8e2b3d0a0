"""The rest of tf.debugging's checks against TF 2.21 (tests/fixtures/check_ops_expected.json,
written by tools/gen_check_ops_expected.py from tests/python/check_ops_cases.py):
assert_all_finite / verify_tensor_all_finite, add_check_numerics_ops, assert_shapes,
assert_same_float_dtype, is_non_decreasing / is_strictly_increasing and more messages of the
binary and rank asserts: values, run-time and construction errors, node names."""
import json
import os

import numpy as np
import pytest

import minitf as tf
from _logging_fixture import fresh, run_message
import check_ops_cases as cases

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures",
                       "check_ops_expected.json")
with open(FIXTURE) as f:
    TF = json.load(f)


def jsonable(v):
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    if v is None:
        return None
    a = np.asarray(v)
    return {"dtype": a.dtype.name, "value": a.reshape(-1).tolist(), "shape": list(a.shape)}


@pytest.mark.parametrize("label", sorted(cases.VALUE_CASES))
def test_value_matches_tensorflow(label):
    g, t = fresh(cases.VALUE_CASES[label])
    with tf.Session(graph=g) as s:
        assert jsonable(s.run(t)) == TF["values"][label]


@pytest.mark.parametrize("label", sorted(cases.RUN_CASES))
def test_run_time_error_matches_tensorflow(label):
    g, op = fresh(cases.RUN_CASES[label])
    with tf.Session(graph=g) as s:
        with pytest.raises(tf.errors.OpError) as e:
            s.run(op)
    assert [type(e.value).__name__, run_message(e.value)] == TF["run"][label]


@pytest.mark.parametrize("label", sorted(cases.STATIC_CASES))
def test_static_error_matches_tensorflow(label):
    with pytest.raises((ValueError, TypeError, tf.errors.OpError)) as e:
        fresh(cases.STATIC_CASES[label])
    err = e.value
    msg = err.message if isinstance(err, tf.errors.OpError) else str(err)
    assert [type(err).__name__, msg] == TF["static"][label]


@pytest.mark.parametrize("label", sorted(cases.NAME_CASES))
def test_node_names_match_tensorflow(label):
    g, _ = fresh(cases.NAME_CASES[label])
    assert [[n.name, n.op] for n in g.as_graph_def().node] == TF["names"][label]


@pytest.mark.parametrize("label", sorted(cases.PY_CASES))
def test_returned_dtype_matches_tensorflow(label):
    assert fresh(cases.PY_CASES[label])[1] == TF["py"][label]


def test_check_numerics_ops_run_in_graph_order():
    # The first bad tensor in graph order is the one reported, whichever output is fetched.
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        y = tf.math.log(x, name="y")
        z = tf.identity(y * 0.0, name="z")
        check = tf.add_check_numerics_ops()
        with tf.Session() as s:
            assert s.run([check, z], {x: [1.0, 2.0]})[1].tolist() == [0.0, 0.0]
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                s.run(check, {x: [0.0, 1.0]})
            assert run_message(e.value) == "y:0 : Tensor had Inf values"
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                s.run(check, {x: [np.nan, 1.0]})
            assert run_message(e.value) == "x:0 : Tensor had NaN values"


def test_assert_shapes_gates_and_passes():
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float32, [None, 3])
        b = tf.placeholder(tf.float32, [None])
        with tf.control_dependencies([tf.debugging.assert_shapes([(a, ("N", 3)), (b, ("N",))])]):
            out = tf.reduce_sum(a) + tf.reduce_sum(b)
        with tf.Session() as s:
            assert s.run(out, {a: np.ones([2, 3]), b: [1.0, 2.0]}) == 9.0
            with pytest.raises(tf.errors.InvalidArgumentError, match="must have size"):
                s.run(out, {a: np.ones([2, 3]), b: [1.0]})


def test_argument_aliases():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"^Cannot specify both 't' and 'x'\.$"):
            tf.verify_tensor_all_finite(t=tf.constant(1.0), x=tf.constant(1.0))
        with pytest.raises(ValueError, match=r"^Cannot specify both 'msg' and 'message'\.$"):
            tf.debugging.assert_all_finite(tf.constant(1.0), msg="a", message="b")


def test_exported_names():
    for name in ["verify_tensor_all_finite", "assert_same_float_dtype", "is_non_decreasing",
                 "is_strictly_increasing", "add_check_numerics_ops"]:
        assert hasattr(tf, name) and hasattr(tf.compat.v1, name)
    for name in ["assert_all_finite", "assert_shapes"]:  # tf.debugging only, as in TF
        assert hasattr(tf.debugging, name) and not hasattr(tf, name)
    assert not hasattr(tf.debugging, "verify_tensor_all_finite")
    assert not hasattr(tf.debugging, "add_check_numerics_ops")
    assert tf.debugging.assert_all_finite is tf.verify_tensor_all_finite
    assert tf.math.is_non_decreasing is tf.debugging.is_non_decreasing
    assert tf.debugging.is_nan is tf.math.is_nan
