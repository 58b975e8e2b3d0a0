"""Writes frozen GraphDefs with control flow, by real TensorFlow 2.21, and TensorFlow's outputs
for them (developer tool: /opt/tfvenv/bin/python tools/gen_frozen_control_flow.py).

* tests/fixtures/models/tf2_control_flow/: a Keras-free TF2 `tf.function` (a tf.Module with
  three tf.Variables) with a `tf.while_loop` whose body holds a `tf.cond`, and a `tf.cond` after
  the loop, frozen with convert_variables_to_constants_v2(lower_control_flow=False): the graph
  keeps its While/If nodes and its function library, the variables become Consts.
* tests/fixtures/models/tf1_control_flow/: the same computation as a tf.compat.v1 graph with
  TensorFlow 1 control flow (tf.disable_control_flow_v2(): Enter/Merge/Switch/NextIteration/
  Exit), variables frozen with tf.compat.v1.graph_util.convert_variables_to_constants.

Each folder: graph.pb, meta.json (ops, functions, feeds, fetches) and io.txt, TensorFlow's runs
in a plain format that the Python and C tests both read, one tensor a line:
    run <k>
    feed|fetch <tensor name> <dtype> <rank> <dims...> <values...>
"""
import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.python.framework.convert_to_constants import (  # noqa: E402
    convert_variables_to_constants_v2)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "models")
W = np.array([[0.5, -0.25], [0.125, 1.0]], np.float32)
B = np.array([0.1, -0.2], np.float32)
SCALE = np.float32(1.5)
RUNS = [{"x": np.array([[1.0, -2.0], [0.5, 0.25], [-1.0, 3.0]], np.float32), "n": np.int32(5)},
        {"x": np.array([[0.2, 0.1]], np.float32), "n": np.int32(2)},
        {"x": np.array([[1.0, 1.0], [2.0, -1.0]], np.float32), "n": np.int32(0)}]


def compute(x, n, w, b, scale, cond, while_loop):
    """The model, written once for both forms: h <- tanh(h w + b), then scaled or shifted by a
    cond on its sum, n times; a cond on the trip count picks the row reduction."""
    def body(i, h):
        h = tf.tanh(tf.matmul(h, w) + b)
        h = cond(tf.reduce_sum(h) > 0.0, lambda: h * scale, lambda: h - 1.0)
        return i + 1, h
    i, h = while_loop(lambda i, h: i < n, body, [tf.constant(0), x])
    out = cond(i > 3, lambda: tf.reduce_sum(h, axis=1), lambda: tf.reduce_max(h, axis=1))
    return i, h, out


def tf2_graph():
    class Model(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(W, name="w")
            self.b = tf.Variable(B, name="b")
            self.scale = tf.Variable(SCALE, name="scale")

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x"),
                                      tf.TensorSpec([], tf.int32, name="n")])
        def __call__(self, x, n):
            return compute(x, n, self.w, self.b, self.scale, tf.cond, tf.while_loop)

    m = Model()
    frozen = convert_variables_to_constants_v2(m.__call__.get_concrete_function(),
                                               lower_control_flow=False)
    gd = frozen.graph.as_graph_def()
    feeds = [t.name for t in frozen.inputs]
    fetches = [t.name for t in frozen.outputs]
    results = []
    for run in RUNS:
        got = frozen(tf.constant(run["x"]), tf.constant(run["n"]))
        results.append([np.asarray(v) for v in got])
    return gd, feeds, fetches, results


def tf1_graph():
    v1 = tf.compat.v1
    g = tf.Graph()
    with g.as_default():
        v1.disable_control_flow_v2()
        try:
            x = v1.placeholder(tf.float32, [None, 2], name="x")
            n = v1.placeholder(tf.int32, [], name="n")
            w = v1.Variable(W, name="w", use_resource=False)
            b = v1.Variable(B, name="b", use_resource=False)
            scale = v1.Variable(SCALE, name="scale", use_resource=False)
            outs = compute(x, n, w, b, scale, v1.cond, v1.while_loop)
            outs = [tf.identity(t, name=nm) for t, nm in zip(outs, ("i", "h", "out"))]
        finally:
            v1.enable_control_flow_v2()
        with v1.Session(graph=g) as s:
            s.run(v1.global_variables_initializer())
            gd = v1.graph_util.convert_variables_to_constants(
                s, g.as_graph_def(), [t.op.name for t in outs])
    g2 = tf.Graph()
    with g2.as_default():
        tf.graph_util.import_graph_def(gd, name="")
    fetches = [t.name for t in outs]
    results = []
    with v1.Session(graph=g2) as s:
        for run in RUNS:
            results.append(s.run(fetches, {"x:0": run["x"], "n:0": run["n"]}))
    return gd, ["x:0", "n:0"], fetches, results


def line(kind, name, v):
    v = np.asarray(v)
    vals = " ".join(repr(float(e)) if v.dtype.kind == "f" else str(int(e)) for e in v.ravel())
    return "%s %s %s %d %s %s" % (kind, name, v.dtype.name, v.ndim,
                                  " ".join(str(d) for d in v.shape), vals)


def save(name, gd, feeds, fetches, results, note):
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "graph.pb"), "wb") as f:
        f.write(gd.SerializeToString())
    lines = []
    for k, (run, got) in enumerate(zip(RUNS, results)):
        lines.append("run %d" % k)
        lines += [line("feed", fname, run[key]) for fname, key in zip(feeds, ("x", "n"))]
        lines += [line("fetch", fname, v) for fname, v in zip(fetches, got)]
    with open(os.path.join(d, "io.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    meta = {"feeds": feeds, "fetches": fetches, "ops": sorted({n.op for n in gd.node}),
            "functions": sorted(f.signature.name for f in gd.library.function),
            "tf_version": tf.__version__, "note": note}
    with open(os.path.join(d, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    print(name, meta["ops"], meta["functions"])


def main():
    gd, feeds, fetches, results = tf2_graph()
    ops = {n.op for n in gd.node}
    assert ops & {"While", "StatelessWhile"} and ops & {"If", "StatelessIf"}, ops
    assert not ops & {"VarHandleOp", "ReadVariableOp", "Enter"}, ops
    save("tf2_control_flow", gd, feeds, fetches, results,
         "tf.function with tf.while_loop and tf.cond over 3 tf.Variables, frozen with "
         "convert_variables_to_constants_v2(lower_control_flow=False)")
    gd, feeds, fetches, results = tf1_graph()
    ops = {n.op for n in gd.node}
    assert {"Enter", "Merge", "Switch", "NextIteration", "Exit"} <= ops, ops
    assert not ops & {"VariableV2", "While", "StatelessWhile", "If", "StatelessIf"}, ops
    save("tf1_control_flow", gd, feeds, fetches, results,
         "tf.compat.v1 graph, control flow v1, 3 ref variables frozen with "
         "tf.compat.v1.graph_util.convert_variables_to_constants")


if __name__ == "__main__":
    main()
