"""Writes tests/fixtures/control_flow_v2_loops/: loops as real TensorFlow 2.21 builds them with
its compat.v1 graph-mode default, control flow v2 (one While/StatelessWhile node and a function
library, no frames): the loops bench/while_loop.py times in both forms (`i + 1` counted to n, a
small float body `x * 0.999 + 0.5`) and a loop that never ends (the tests stop it with a deadline
or by closing the session); expected.json holds TensorFlow's outputs. Developer tool:

    /opt/tfvenv/bin/python tools/gen_control_flow_v2_loops.py
"""
import os

import numpy as np

from tf_fixture import HERE, tf, write

OUT = os.path.join(HERE, "..", "tests", "fixtures", "control_flow_v2_loops")


def million_loop():
    n = tf.placeholder(tf.int32, [], name="n")
    r = tf.while_loop(lambda i: i < n, lambda i: i + 1, [tf.constant(0)], name="count")
    return [{"feeds": {"n:0": v}, "fetches": [r.name]} for v in (0, 1000)]


def float_body_loop():
    n = tf.placeholder(tf.int32, [], name="n")
    out = tf.while_loop(lambda i, x: i < n, lambda i, x: (i + 1, x * 0.999 + 0.5),
                        [tf.constant(0), tf.constant(1.0)], name="fbody")
    return [{"feeds": {"n:0": 1000}, "fetches": [t.name for t in out]}]


def endless_loop():
    tf.while_loop(lambda i: i >= 0, lambda i: i + 1, [tf.constant(0)], name="forever")
    return []


CASES = [million_loop, float_body_loop, endless_loop]


def plain(v):
    v = np.asarray(v)
    return {"dtype": v.dtype.name, "shape": list(v.shape), "value": v.tolist()}


def run_case(fn):
    g = tf.Graph()
    with g.as_default():
        runs = fn()
    gd = g.as_graph_def()
    ops = {n.op for n in gd.node}
    assert ops & {"While", "StatelessWhile"} and "Enter" not in ops, (fn.__name__, ops)
    with open(os.path.join(OUT, fn.__name__ + ".pb"), "wb") as f:
        f.write(gd.SerializeToString())
    with tf.Session(graph=g) as s:
        for run in runs:
            run["expected"] = [plain(v) for v in s.run(run["fetches"], run["feeds"])]
    return {"ops": sorted(ops), "functions": sorted(f.signature.name for f in gd.library.function),
            "runs": runs}


def main():
    assert tf.control_flow_v2_enabled()
    os.makedirs(OUT, exist_ok=True)
    write(os.path.join("control_flow_v2_loops", "expected.json"),
          {"cases": {fn.__name__: run_case(fn) for fn in CASES}})


if __name__ == "__main__":
    main()
