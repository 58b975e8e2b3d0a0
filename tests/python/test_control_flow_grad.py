"""Gradients through tf.cond / tf.switch_case / tf.while_loop in the v2 form (If/Case/While
with gradient functions), against real TensorFlow's values
(tests/fixtures/control_flow_grad_expected.json, tools/gen_control_flow_grad_expected.py),
plus properties worked by hand: a stateful branch is differentiated at the values it
produced, the forward loop is not run twice, the gradient graph imports elsewhere."""
import json
import os

import numpy as np
import pytest

import minitf as tf
import control_flow_grad_cases as cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "control_flow_grad_expected.json")) as f:
    EXPECTED = json.load(f)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_gradients_equal_tensorflows(name):
    want = EXPECTED["cases"][name]
    got = cases.run_case(tf, name)
    assert got["fetch_names"] == want["fetch_names"]
    for g, w in zip(got["values"], want["values"]):
        assert len(g) == len(w)
        for a, b in zip(g, w):
            np.testing.assert_allclose(np.asarray(a, np.float64), np.asarray(b, np.float64),
                                       rtol=2e-5, atol=1e-6)


def test_stateful_branch_is_differentiated_at_its_own_values():
    # d/dx (x * u) = u for the u this very step drew: the gradient reuses the forward
    # branch's value instead of drawing again.
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [5])
        p = tf.placeholder(tf.bool, [])
        u = tf.random_uniform([5])
        y = tf.cond(p, lambda: x * tf.random_uniform([5], seed=3), lambda: x * 2.0)
        dx = tf.gradients(tf.reduce_sum(y), x)[0]
        with tf.Session() as sess:
            xv = np.arange(1, 6, dtype=np.float32)
            yv, dv = sess.run([y, dx], {x: xv, p: True})
            np.testing.assert_allclose(dv, yv / xv, rtol=1e-6)
            yv, dv = sess.run([y, dx], {x: xv, p: False})
            np.testing.assert_allclose(dv, [2.0] * 5)
        del u


def test_while_gradient_runs_forward_loop_once():
    # A py_func counting its calls in the body: one forward pass of 3 iterations per step,
    # whether or not the gradient is fetched too.
    calls = []

    def tick(v):
        calls.append(1)
        return v

    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [])

        def body(i, y):
            t = tf.py_func(tick, [y], tf.float32)
            t.set_shape([])
            return i + 1, y * 2.0 + tf.stop_gradient(t) * 0.0
        _, y = tf.while_loop(lambda i, y: i < 3, body, [0, x])
        dx = tf.gradients(y, x)[0]
        with tf.Session() as sess:
            assert sess.run([y, dx], {x: 1.0}) == [8.0, 8.0]
    assert len(calls) == 3


def test_gradient_graph_reimports_and_runs():
    g = tf.Graph()
    with g.as_default():
        fetches, feeds, init = cases.CASES["while_basic"](tf)[:3]
        names = [t.name for t in fetches]
        gd = g.as_graph_def()
    g2 = tf.Graph()
    with g2.as_default():
        tf.import_graph_def(gd, name="")
        with tf.Session() as sess:
            sess.run(init[0].name)
            got = sess.run(names, feeds[0])
    want = EXPECTED["cases"]["while_basic"]["values"][0]
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=2e-5)


def test_forward_values_unchanged_after_gradient_rewrite():
    # The forward While gains accumulator outputs; what it computed before does not change,
    # including in a session that ran it before the gradient existed.
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [])
        _, y = tf.while_loop(lambda i, y: i < 4, lambda i, y: (i + 1, tf.sin(y) + y), [0, x])
        with tf.Session() as sess:
            before = sess.run(y, {x: 0.5})
            dx = tf.gradients(y, x)[0]
            after, d = sess.run([y, dx], {x: 0.5})
    v, dv = 0.5, 1.0
    for _ in range(4):
        dv *= np.cos(v) + 1.0
        v = np.sin(v) + v
    np.testing.assert_allclose([before, after, d], [v, v, dv], rtol=1e-5)


@pytest.mark.parametrize("name", sorted(EXPECTED["forward_xs"]))
def test_gradients_of_tensorflow_written_graph(name):
    # TensorFlow's own forward GraphDef (its function library as TF wrote it), differentiated
    # by minitf: the gradients equal those TensorFlow computed for the same program.
    with open(os.path.join(HERE, "..", "fixtures", "control_flow_grad_v2", name + ".pb"),
              "rb") as f:
        gd = tf.GraphDef.FromString(f.read())
    probe = tf.Graph()
    with probe.as_default():
        built = cases.CASES[name](tf)
    feeds = built[1]
    init = [op.name for op in built[2]] if len(built) > 2 else []
    want = EXPECTED["cases"][name]["values"]
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(gd, name="")
        xs = [g.get_tensor_by_name(n) for n in EXPECTED["forward_xs"][name]]
        grads = tf.gradients(g.get_tensor_by_name("loss:0"), xs)
        with tf.Session() as sess:
            if init:
                sess.run(init)
            for fd, w in zip(feeds, want):
                got = sess.run(grads, fd)
                for a, b in zip(got, w):
                    np.testing.assert_allclose(a, np.asarray(b, np.float64), rtol=2e-5,
                                               atol=1e-6)
