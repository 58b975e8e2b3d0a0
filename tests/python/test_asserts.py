"""tf.Assert and tf.debugging.assert_* against TF 2.21: run-time messages, static errors at
construction, node names (tests/fixtures/logging_expected.json)."""
import pytest

import minitf as tf
from _logging_fixture import TF, fresh, run_message
import logging_cases as cases

HAS_COND = hasattr(__import__("minitf.ops.control_flow_ops", fromlist=["x"]), "cond")


@pytest.mark.parametrize("label", sorted(cases.ASSERT_RUN_CASES))
def test_run_time_message_matches_tensorflow(label):
    g, op = fresh(cases.ASSERT_RUN_CASES[label])
    with tf.Session(graph=g) as s:
        with pytest.raises(tf.errors.OpError) as e:
            s.run(op)
        assert [type(e.value).__name__, run_message(e.value)] == TF["assert_run"][label]
        with g.as_default():  # the session stays usable
            assert s.run(tf.constant(1, name="after")) == 1


@pytest.mark.parametrize("label", sorted(cases.STATIC_CASES))
def test_static_error_matches_tensorflow(label):
    with pytest.raises((ValueError, TypeError, tf.errors.OpError)) as e:
        fresh(cases.STATIC_CASES[label])
    err = e.value
    msg = err.message if isinstance(err, tf.errors.OpError) else str(err)
    want_type, want_msg = TF["static"][label]
    assert type(err).__name__ == want_type
    if label == "printv2_rank":  # TF appends the NodeDef in its own text form
        want_msg = want_msg.split(" for '")[0]
        msg = msg.split(" for '")[0]
    assert msg == want_msg


@pytest.mark.parametrize("label", sorted(set(cases.NAME_CASES) - cases.NEEDS_COND))
def test_node_names_match_tensorflow(label):
    g, _ = fresh(cases.NAME_CASES[label])
    assert [[o.name, o.type] for o in g.get_operations()] == TF["names"][label]


@pytest.mark.skipif(not HAS_COND, reason="needs tf.cond (AssertGuard)")
@pytest.mark.parametrize("label", sorted(cases.NEEDS_COND))
def test_guarded_node_names_match_tensorflow(label):
    g, _ = fresh(cases.NAME_CASES[label])
    assert [[o.name, o.type] for o in g.get_operations()] == TF["names"][label]


def test_passing_asserts_run_and_gate():
    x = tf.placeholder(tf.float32, [2])
    checks = [tf.debugging.assert_positive(x), tf.debugging.assert_near(x, x),
              tf.debugging.assert_rank(x, 1), tf.assert_less(x, x + 1)]
    with tf.control_dependencies(checks):
        y = tf.identity(x)
    with tf.Session() as s:
        assert list(s.run(y, {x: [1.0, 2.0]})) == [1.0, 2.0]
        with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x > 0"):
            s.run(y, {x: [1.0, -2.0]})
        assert list(s.run(y, {x: [3.0, 4.0]})) == [3.0, 4.0]


def test_is_numeric_tensor_and_proper_iterable():
    assert tf.is_numeric_tensor(tf.constant(1.0))
    assert not tf.is_numeric_tensor(tf.constant("s"))
    assert not tf.is_numeric_tensor(1.0)
    tf.debugging.assert_proper_iterable([1, 2])
    with pytest.raises(TypeError, match="to be iterable"):
        tf.debugging.assert_proper_iterable(3)
