"""tf.cond / tf.while_loop in TensorFlow 1's form (tf.disable_control_flow_v2()) and
tf.gradients through them, against real TensorFlow 2.21: the programs of
control_flow_v1_cases.py give TensorFlow's values and nodes — names, types, inputs and
control inputs (tests/fixtures/control_flow_v1_expected.json, written by
tools/gen_control_flow_v1_expected.py) — and the bad-input cases raise TensorFlow's
errors."""
import json
import os

import numpy as np
import pytest

import minitf as tf
import control_flow_v1_cases as cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "control_flow_v1_expected.json")) as f:
    EXPECTED = json.load(f)


def _assert_values(got, want):
    for g, w in zip(got, want):
        assert len(g) == len(w)
        for a, b in zip(g, w):
            np.testing.assert_allclose(np.asarray(a, np.float64), np.asarray(b, np.float64),
                                       rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_values_and_nodes_equal_tensorflows(name):
    want = EXPECTED["cases"][name]
    got = cases.run_case(tf, name)
    assert got["fetch_names"] == want["fetch_names"]
    if name.startswith("grad_"):
        # the C gradients build an op's nodes before its v1 context routes their
        # inputs, so creation order differs; the nodes and their edges are TF's
        assert sorted(got["ops"]) == sorted(want["ops"])
    else:
        assert got["ops"] == want["ops"]
    _assert_values(got["values"], want["values"])


@pytest.mark.parametrize("name", sorted(set(cases.ERRORS) - {"loop_dtype_changes"}))
def test_bad_input_raises_tensorflows_error(name):
    want_type, want_msg = EXPECTED["errors"][name]
    got_type, got_msg = cases.run_error(tf, name)
    assert got_type == want_type
    if name in ("empty_loop_vars", "branch_structures"):  # TF's nest prints structures its way
        assert got_msg.splitlines()[0] == want_msg.splitlines()[0]
    else:
        assert got_msg == want_msg


def test_v1_form_is_restored_and_v2_stays_default():
    assert tf.control_flow_v2_enabled()
    g = tf.Graph()
    with g.as_default():
        y = tf.cond(tf.constant(True), lambda: 1.0, lambda: 2.0)
    assert y.op.inputs[0].op.type == "StatelessIf"


def test_long_v1_loop_runs_without_unrolling():
    tf.disable_control_flow_v2()
    try:
        n = tf.placeholder(tf.int32, [])
        r = tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + 0.5),
                          [tf.constant(0), tf.constant(0.0, tf.float64)])
        g = tf.gradients(r[1], n)  # no float path to n
    finally:
        tf.enable_control_flow_v2()
    assert g == [None]
    count = len(tf.get_default_graph().get_operations())
    with tf.Session() as sess:
        assert sess.run(r, {n: 20000}) == (20000, 10000.0)
    assert len(tf.get_default_graph().get_operations()) == count


def test_update_edge_rejects_bad_edges():
    from minitf import pywrap_tensorflow_internal as c_api
    a = tf.constant([1.0, 2.0], name="a")
    b = tf.constant([1.0, 2.0, 3.0], name="b")
    i = tf.constant([1, 2], name="i")
    y = tf.identity(a, name="y")
    with pytest.raises(tf.errors.InvalidArgumentError, match="incompatible shapes: \\[3\\] and "
                                                               "\\[2\\]"):
        y.op._update_input(0, b)
    with pytest.raises(tf.errors.InvalidArgumentError, match="was passed int32 from i:0 "
                                                               "incompatible with expected float"):
        y.op._update_input(0, i)
    with pytest.raises(tf.errors.OutOfRangeError, match="Input index \\[1\\]"):
        c_api.TF_UpdateEdge(tf.get_default_graph()._c_graph, a._as_tf_output(), (y.op._c_op, 1))
    y.op._update_input(0, a * 3.0)
    with tf.Session() as sess:
        assert sess.run(y).tolist() == [3.0, 6.0]


def test_loop_var_changing_dtype_is_refused_where_tensorflow_builds_it():
    # TF 2.21 builds this loop (its UpdateEdge does not check dtypes) and fails only
    # when it runs; minitf refuses the back edge at construction, in the wording TF
    # uses for an input of the wrong dtype, so the runtime never sees the mismatch.
    assert EXPECTED["errors"]["loop_dtype_changes"] is None
    assert cases.run_error(tf, "loop_dtype_changes") == [
        "InvalidArgumentError", "Input 1 of node while/Merge was passed float from "
        "while/NextIteration:0 incompatible with expected int32."]
