"""tf.cond / tf.switch_case / tf.while_loop (v2 form, TF 2.21's default) against real
TensorFlow: the programs of control_flow_cases.py give TensorFlow's values and node names
(tests/fixtures/control_flow_expected.json, tools/gen_control_flow_expected.py), and the
GraphDefs TensorFlow wrote for them (with their function libraries) import and run."""
import json
import os

import numpy as np
import pytest

import minitf as tf
import control_flow_cases as cases

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures")
with open(os.path.join(FIXTURES, "control_flow_expected.json")) as f:
    EXPECTED = json.load(f)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_values_and_names_equal_tensorflows(name):
    want = EXPECTED["cases"][name]
    got = cases.run_case(tf, name)
    assert got["fetch_names"] == want["fetch_names"]
    assert got["ops"] == want["ops"]
    for g, w in zip(got["values"], want["values"]):
        for a, b in zip(g, w):
            np.testing.assert_allclose(np.asarray(a, np.float64), np.asarray(b, np.float64),
                                       rtol=1e-6)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_tensorflow_graphdef_imports_and_runs(name):
    want = EXPECTED["cases"][name]
    with open(os.path.join(FIXTURES, "control_flow_v2", name + ".pb"), "rb") as f:
        gd = tf.GraphDef.FromString(f.read())
    assert len(gd.library.function) >= 2
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(gd, name="")
    probe = tf.Graph()  # the case's own feeds and initializers, by name
    with probe.as_default():
        built = cases.CASES[name](tf)
    init = [g.get_operation_by_name(op.name) for op in built[2]] if len(built) > 2 else []
    with tf.Session(graph=g) as sess:
        if init:
            sess.run(init)
        for fd, w in zip(built[1], want["values"]):
            got = sess.run(want["fetch_names"], fd)
            for a, b in zip(got, w):
                np.testing.assert_allclose(np.asarray(a, np.float64), np.asarray(b, np.float64),
                                           rtol=1e-6)


def test_exported_library_reimports_in_minitf():
    g = tf.Graph()
    with g.as_default():
        fetches, feeds = cases.CASES["while_in_cond"](tf)
    gd = g.as_graph_def()
    names = sorted(f.signature.name for f in gd.library.function)
    assert len(names) == 4  # cond branches, and the loop's cond and body inside the true branch
    g2 = tf.Graph()
    with g2.as_default():
        tf.import_graph_def(gd, name="")
    with tf.Session(graph=g2) as sess:
        assert sess.run("cond/Identity:0", {"x:0": 10}) == 12
        assert sess.run("cond/Identity:0", {"x:0": -5}) == -1
    assert g2.as_graph_def().library == gd.library


@pytest.mark.parametrize("name", sorted(cases.ERRORS))
def test_construction_errors_as_tensorflow(name):
    want_type, want_msg = EXPECTED["errors"][name]
    got_type, got_msg = cases.run_error(tf, name)
    assert got_type == want_type
    if name == "empty_loop_vars":  # TF's nest prints its structures its own way
        assert got_msg.splitlines()[0] == want_msg.splitlines()[0]
    else:
        assert got_msg == want_msg


def test_loop_with_many_iterations_runs_without_unrolling():
    n = tf.placeholder(tf.int32, [])
    r = tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + 0.5),
                      [tf.constant(0), tf.constant(0.0, tf.float64)])
    ops_before = len(tf.get_default_graph().get_operations())
    with tf.Session() as sess:
        assert sess.run(r, {n: 200000}) == [200000, 100000.0]
    assert len(tf.get_default_graph().get_operations()) == ops_before


def test_while_output_is_prevented_from_fetching_if_op():
    x = tf.constant(1.0)
    y = tf.cond(x > 0, lambda: x, lambda: -x)
    if_op = y.op.inputs[0].op
    assert if_op.type == "StatelessIf"
    assert not tf.get_default_graph().is_fetchable(if_op)


def test_stateful_branch_builds_if_and_runs_its_side_effect():
    v = tf.get_variable("counter", initializer=0, use_resource=True)
    p = tf.placeholder(tf.bool, [])
    y = tf.cond(p, lambda: v.assign_add(5), lambda: tf.identity(v.read_value()))
    assert y.op.inputs[0].op.type == "If"
    with tf.Session() as sess:
        sess.run(v.initializer)
        assert sess.run(y, {p: True}) == 5
        assert sess.run(y, {p: False}) == 5
        assert sess.run(y, {p: True}) == 10


def test_vector_loop_condition_is_an_error_not_a_hang():
    # TF 2.21 lowers the loop in graph mode and its LoopCond refuses a vector predicate;
    # minitf's While refuses it too instead of reading a non-empty vector as true forever.
    g = tf.Graph()
    with g.as_default():
        r = tf.while_loop(lambda v: v < 3.0, lambda v: v + 1, [tf.constant([1.0, 2.0])])
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match=r"loop condition must be a scalar, but it has shape \[2\]"):
                sess.run(r, options=tf.RunOptions(timeout_in_ms=10000))
            assert sess.run(tf.constant(1.0)) == 1.0


def test_variable_read_in_a_loop_keeps_its_shape():
    # A variable read inside a function reads a captured handle; its static shape comes from
    # the variable (TF's handle data), so a TensorArray written with it stacks an empty loop
    # to shape (0, 3), as TensorFlow does.
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 3])
        w = tf.Variable([1.0, 2.0, 3.0])
        n = tf.shape(x)[0]
        inp = tf.TensorArray(tf.float32, size=n).unstack(x)

        def body(i, ta):
            v = inp.read(i) * w
            assert v.shape.as_list() == [3]
            return i + 1, ta.write(i, v)
        _, ta = tf.while_loop(lambda i, _: i < n, body, [0, tf.TensorArray(tf.float32, size=n)])
        st = ta.stack()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            assert sess.run(st, {x: np.zeros((0, 3), np.float32)}).shape == (0, 3)
            np.testing.assert_array_equal(sess.run(st, {x: np.ones((2, 3), np.float32)}),
                                          [[1.0, 2.0, 3.0]] * 2)
