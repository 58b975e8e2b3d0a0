"""Writes tests/fixtures/control_flow_v1/: GraphDefs that real TensorFlow 2.21 builds with
TensorFlow 1 control flow (tf.disable_control_flow_v2(): Switch/Merge/Enter/Exit/NextIteration
nodes, no function library), one <case>.pb each, and expected.json with, per case, the runs
(feeds, fetches, targets run first) and TensorFlow's fetched values or error. Developer tool:

    /opt/tfvenv/bin/python tools/gen_control_flow_v1_graphs.py
"""
import os

import numpy as np

from tf_fixture import HERE, tf, write

tf.disable_control_flow_v2()
OUT = os.path.join(HERE, "..", "tests", "fixtures", "control_flow_v1")


def cond_basic():
    x = tf.placeholder(tf.float32, [None], name="x")
    p = tf.placeholder(tf.bool, [], name="p")
    y = tf.cond(p, lambda: x * 2.0, lambda: x + 10.0, name="cond")
    return [{"feeds": {"x:0": [1.0, 2.0], "p:0": v}, "fetches": [y.name]} for v in (True, False)]


def cond_nested():
    x = tf.placeholder(tf.int32, [], name="x")
    p = tf.placeholder(tf.bool, [], name="p")
    q = tf.placeholder(tf.bool, [], name="q")
    y = tf.cond(p, lambda: tf.cond(q, lambda: x + 1, lambda: x + 2), lambda: x * 100)
    return [{"feeds": {"x:0": 5, "p:0": a, "q:0": b}, "fetches": [y.name]}
            for a in (True, False) for b in (True, False)]


def cond_in_while():
    n = tf.placeholder(tf.int32, [], name="n")

    def body(i, acc):
        step = tf.cond(tf.equal(i % 2, 0), lambda: acc + i, lambda: acc - 1)
        return i + 1, step
    i, acc = tf.while_loop(lambda i, acc: i < n, body, [tf.constant(0), tf.constant(0)])
    return [{"feeds": {"n:0": v}, "fetches": [i.name, acc.name]} for v in (0, 1, 10)]


def while_counter():
    n = tf.placeholder(tf.int32, [], name="n")
    r = tf.while_loop(lambda i: i < n, lambda i: i + 1, [tf.constant(0)])
    return [{"feeds": {"n:0": v}, "fetches": [r.name]} for v in (0, 1, 37)]


def while_loop_vars():
    n = tf.placeholder(tf.int32, [], name="n")
    v = tf.placeholder(tf.float32, [3], name="v")
    out = tf.while_loop(lambda i, a, b, x: i < n,
                        lambda i, a, b, x: (i + 1, b, a + b, x * 0.5 + 1.0),
                        [tf.constant(0), tf.constant(0, tf.int64), tf.constant(1, tf.int64), v])
    return [{"feeds": {"n:0": k, "v:0": [1.0, -2.0, 8.0]}, "fetches": [t.name for t in out]}
            for k in (0, 5, 20)]


def while_nested():
    n = tf.placeholder(tf.int32, [], name="n")
    m = tf.placeholder(tf.int32, [], name="m")

    def outer(i, total):
        _, t = tf.while_loop(lambda j, t: j < m, lambda j, t: (j + 1, t + i * j), [0, total])
        return i + 1, t
    out = tf.while_loop(lambda i, t: i < n, outer, [tf.constant(0), tf.constant(0)])
    return [{"feeds": {"n:0": a, "m:0": b}, "fetches": [t.name for t in out]}
            for a, b in ((3, 4), (0, 2), (5, 0))]


def while_invariants():
    w = tf.placeholder(tf.float32, [2, 2], name="w")
    b = tf.placeholder(tf.float32, [2], name="b")
    n = tf.placeholder(tf.int32, [], name="n")
    out = tf.while_loop(lambda i, x: i < n,
                        lambda i, x: (i + 1, tf.tanh(tf.linalg.matvec(w, x) + b)),
                        [tf.constant(0), tf.ones([2])])
    return [{"feeds": {"w:0": [[0.5, -0.25], [0.125, 1.0]], "b:0": [0.1, -0.2], "n:0": 6},
             "fetches": [t.name for t in out]}]


def while_max_iterations():
    out = tf.while_loop(lambda i, s: s < 1000, lambda i, s: (i + 1, s + i), (0, 0),
                        maximum_iterations=7)
    return [{"feeds": {}, "fetches": [t.name for t in out]}]


def while_side_effect():
    v = tf.Variable(0.0, name="v", use_resource=True)
    n = tf.placeholder(tf.int32, [], name="n")

    def body(i):
        with tf.control_dependencies([v.assign_add(2.5)]):
            return i + 1
    r = tf.while_loop(lambda i: i < n, body, [tf.constant(0)], parallel_iterations=1)
    with tf.control_dependencies([r]):
        read = tf.identity(v.read_value(), name="read")
    init = tf.global_variables_initializer()
    return [{"targets": [init.name], "feeds": {"n:0": 4}, "fetches": [r.name, read.name]}]


def case_ops():
    k = tf.placeholder(tf.int32, [], name="k")
    x = tf.placeholder(tf.float32, [], name="x")
    y = tf.case([(tf.equal(k, 0), lambda: x + 1.0), (tf.equal(k, 1), lambda: x * 3.0)],
                default=lambda: -x, exclusive=True)
    return [{"feeds": {"k:0": v, "x:0": 2.0}, "fetches": [y.name]} for v in (0, 1, 2)]


def dead_fetch():
    x = tf.constant(1.0, name="x")
    p = tf.placeholder(tf.bool, [], name="p")
    f, t = tf.raw_ops.Switch(data=x, pred=p, name="sw")
    tf.identity(f, name="after_false")
    return [{"feeds": {"p:0": True}, "fetches": ["sw:0"]},
            {"feeds": {"p:0": True}, "fetches": ["after_false:0"]},
            {"feeds": {"p:0": True}, "fetches": ["sw:1"]}]


def mixed_frames():
    x = tf.constant(1.0, name="x")
    y = tf.constant(2.0, name="y")
    e = tf.raw_ops.Enter(data=x, frame_name="loop", name="enter")
    tf.add(e, y, name="add")
    return [{"feeds": {}, "fetches": ["add:0"]}]


def endless_loop():
    tf.while_loop(lambda i: i >= 0, lambda i: i + 1, [tf.constant(0)], name="forever")
    return []  # runs until stopped: the tests give it a deadline or close the session


def million_loop():
    n = tf.placeholder(tf.int32, [], name="n")
    r = tf.while_loop(lambda i: i < n, lambda i: i + 1, [tf.constant(0)], name="count")
    return [{"feeds": {"n:0": 1000}, "fetches": [r.name]}]


def float_body_loop():
    n = tf.placeholder(tf.int32, [], name="n")
    out = tf.while_loop(lambda i, x: i < n, lambda i, x: (i + 1, x * 0.999 + 0.5),
                        [tf.constant(0), tf.constant(1.0)], name="fbody")
    return [{"feeds": {"n:0": 1000}, "fetches": [t.name for t in out]}]


CASES = [cond_basic, cond_nested, cond_in_while, while_counter, while_loop_vars, while_nested,
         while_invariants, while_max_iterations, while_side_effect, case_ops, dead_fetch,
         mixed_frames, endless_loop, million_loop, float_body_loop]


def plain(v):
    v = np.asarray(v)
    return {"dtype": v.dtype.name, "shape": list(v.shape), "value": v.tolist()}


def run_case(fn):
    g = tf.Graph()
    with g.as_default():
        runs = fn()
    gd = g.as_graph_def()
    ops = {n.op for n in gd.node}
    assert not ops & {"If", "StatelessIf", "While", "StatelessWhile"}, (fn.__name__, ops)
    with open(os.path.join(OUT, fn.__name__ + ".pb"), "wb") as f:
        f.write(gd.SerializeToString())
    with tf.Session(graph=g) as s:
        for run in runs:
            for t in run.get("targets", []):
                s.run(t)
            feeds = {k: v for k, v in run["feeds"].items()}
            try:
                vals = s.run(run["fetches"], feeds)
                run["expected"] = [plain(v) for v in vals]
            except tf.errors.OpError as e:
                run["error"] = {"code": type(e).__name__, "message": e.message}
    return {"ops": sorted(ops), "runs": runs}


def main():
    os.makedirs(OUT, exist_ok=True)
    cases = {fn.__name__: run_case(fn) for fn in CASES}
    write(os.path.join("control_flow_v1", "expected.json"), {"cases": cases})


if __name__ == "__main__":
    main()
