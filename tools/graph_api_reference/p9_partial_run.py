"""Partial runs in TensorFlow 2.21 tf.compat.v1: the facts asserted by
tests/python/test_partial_run.py. Run with /opt/tfvenv/bin/python; prints
one line per fact. Also runs under minitf (python -c 'import minitf as tf')
when MINITF=1, for a side-by-side diff."""
import os

import numpy as np

if os.environ.get("MINITF"):
    import minitf as tf
else:
    import tensorflow.compat.v1 as tf
    tf.disable_eager_execution()


def random_upstream_of_two_fetches():
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
        print("c == 2*(b-1):", bool(np.all(vc == 2 * (vb - np.float32(1)))))
        print("b == r+1:", bool(np.all(vb == vr + np.float32(1))), "c == 2r:",
              bool(np.all(vc == 2 * vr)))
        # two handles: two draws
        h1 = s.partial_run_setup([r], [])
        h2 = s.partial_run_setup([r], [])
        print("two handles differ:", bool(np.any(s.partial_run(h1, r) != s.partial_run(h2, r))))


def assign_target_runs_once():
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
        print("x1:", s.partial_run(h, x1, {a: 5.0}))
        print("x2:", s.partial_run(h, x2, {bb: 7.0}))
        print("v after:", s.run(v.read_value()).tolist())


def counter_upstream_of_fed_branch():
    # An assignment upstream of two fetches, one of them waiting for a feed.
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
        print("y1:", s.partial_run(h, y1))
        print("y2:", s.partial_run(h, y2, {p: 10.0}))
        print("cnt:", s.run(v.read_value()))


def errors_after_completion():
    g = tf.Graph()
    with g.as_default():
        a = tf.placeholder(tf.float32, [], name="a")
        b = tf.placeholder(tf.float32, [], name="b")
        r1 = tf.add(a, b, name="r1")
    with tf.Session(graph=g) as s:
        h = s.partial_run_setup([r1], [a, b])
        print("r1:", s.partial_run(h, r1, {a: 1.0, b: 2.0}))
        try:
            s.partial_run(h, r1, {})
        except tf.errors.InvalidArgumentError as e:
            print("after done:", e.message.split("\n")[-1])
        h = s.partial_run_setup([r1], [a, b])
        print("fed in two calls:", s.partial_run(h, [], {a: 1.0}),
              s.partial_run(h, r1, {b: 4.0}))


random_upstream_of_two_fetches()
assign_target_runs_once()
counter_upstream_of_fed_branch()
errors_after_completion()
