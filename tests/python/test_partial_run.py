"""Native partial runs: one execution per handle, each node at most once, as
TensorFlow 2.21 tf.compat.v1 (facts printed by
tools/graph_api_reference/p9_partial_run.py)."""
import gc

import numpy as np
import pytest

import minitf as tf


def _prun_error(s, h, fetch, feed=None):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        s.partial_run(h, fetch, feed_dict=feed)
    assert e.value.message.startswith("Graph execution error:\n\n")
    return e.value.message[len("Graph execution error:\n\n"):]


def test_random_op_upstream_of_two_fetches_runs_once():
    g = tf.Graph()
    with g.as_default():
        r = tf.random.uniform([5], name="r")
        b = tf.add(r, 1.0, name="b")
        c = tf.multiply(r, 2.0, name="c")
    with tf.Session(graph=g) as s:
        h = s.partial_run_setup([b, c, r], [])
        vb = s.partial_run(h, b)
        vc = s.partial_run(h, c)
        vr = s.partial_run(h, r)
        # TensorFlow: c == 2*(b-1), b == r+1 and c == 2r, all exactly
        np.testing.assert_array_equal(vc, 2 * (vb - np.float32(1)))
        np.testing.assert_array_equal(vb, vr + np.float32(1))
        np.testing.assert_array_equal(vc, 2 * vr)
        # everything fetched: TensorFlow forgets the handle
        assert _prun_error(s, h, b) == "Must run 'setup' before performing partial runs!"
        # two handles, two executions: two draws
        h1 = s.partial_run_setup([r], [])
        h2 = s.partial_run_setup([r], [])
        assert np.any(s.partial_run(h1, r) != s.partial_run(h2, r))


def test_assign_target_runs_once_across_calls():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable([1.5, -2.0], name="v", use_resource=True)
        a = tf.placeholder(tf.float32, [], name="a")
        bb = tf.placeholder(tf.float32, [], name="bb")
        x1 = tf.add(a, 1.0, name="x1")
        x2 = tf.add(bb, 1.0, name="x2")
        dbl = v.assign(v.read_value() * 2.0, read_value=False)
    with tf.Session(graph=g) as s:
        s.run(v.initializer)
        h = s.partial_run_setup([x1, x2, dbl], [a, bb])
        assert s.partial_run(h, x1, {a: 5.0}) == 6.0
        assert s.partial_run(h, x2, {bb: 7.0}) == 8.0
        assert s.run(v.read_value()).tolist() == [3.0, -4.0]  # doubled once


def test_stateful_op_shared_by_a_fetch_waiting_for_a_feed():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(0.0, name="cnt", use_resource=True)
        inc = v.assign(v.read_value() + 1.0)
        p = tf.placeholder(tf.float32, [], name="p")
        y1 = tf.identity(inc, name="y1")
        y2 = tf.add(inc, p, name="y2")
    with tf.Session(graph=g) as s:
        s.run(v.initializer)
        h = s.partial_run_setup([y1, y2], [p])
        assert s.partial_run(h, y1) == 1.0
        assert s.partial_run(h, y2, {p: 10.0}) == 11.0
        assert s.run(v.read_value()) == 1.0


def test_feeds_across_calls_and_errors():
    g = tf.Graph()
    with g.as_default():
        a = tf.placeholder(tf.float32, [], name="a")
        b = tf.placeholder(tf.float32, [], name="b")
        c = tf.placeholder(tf.float32, [], name="c")
        r1 = tf.add(a, b, name="r1")
        r2 = tf.multiply(r1, c, name="r2")
    s = tf.Session(graph=g)
    h = s.partial_run_setup([r1], [a, b])
    assert s.partial_run(h, [], {a: 1.0}) == []
    assert s.partial_run(h, r1, {b: 4.0}) == 5.0
    assert _prun_error(s, h, r1, {}) == "Must run 'setup' before performing partial runs!"
    h = s.partial_run_setup([r1, r2], [a, b, c])
    assert _prun_error(s, h, r2, {a: 1}) == \
        "Fetch c:0 can't be computed from the feeds that have been fed so far."
    assert s.partial_run(h, r1, {a: 1, b: 2}) == 3.0  # the failed call fed nothing
    assert _prun_error(s, h, r2, {a: 5}) == "The feed a:0 has already been fed."
    assert _prun_error(s, h, r1, {c: 1}) == "The fetch r1:0 has already been fetched."
    assert s.partial_run(h, r2, {c: 3}) == 9.0
    # a runtime error ends the partial run
    with g.as_default():
        d = tf.placeholder(tf.float32, None, name="d")
        e = tf.placeholder(tf.float32, None, name="e")
        de = tf.add(d, e, name="de")
        de2 = tf.multiply(de, 2.0, name="de2")
    h = s.partial_run_setup([de, de2], [d, e])
    with pytest.raises(tf.errors.InvalidArgumentError) as err:
        s.partial_run(h, de, {d: [1.0, 2.0], e: [1.0, 2.0, 3.0]})
    assert "Incompatible shapes" in err.value.message
    assert _prun_error(s, h, de2) == "Must run 'setup' before performing partial runs!"
    h = s.partial_run_setup([r1, r2], None)
    assert "You must feed a value for placeholder tensor 'a'" in _prun_error(s, h, r1)
    assert _prun_error(s, h, r1) == "Must run 'setup' before performing partial runs!"
    s.close()


def test_handles_are_freed():
    g = tf.Graph()
    with g.as_default():
        a = tf.placeholder(tf.float32, [1000], name="a")
        b = tf.placeholder(tf.float32, [1000], name="b")
        r = tf.add(a, b, name="r")
    s = tf.Session(graph=g)
    fed = np.ones(1000, np.float32)
    for _ in range(3):
        h = s.partial_run_setup([r], [a, b])
        s.partial_run(h, [], {a: fed})  # the run now holds `fed`
    gc.collect()
    s.close()  # frees the live runs and the arrays they hold
    del s
    gc.collect()
    fed[0] = 2  # still a valid array
    assert fed[0] == 2
