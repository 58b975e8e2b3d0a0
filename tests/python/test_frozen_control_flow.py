"""Frozen GraphDefs with control flow that real TensorFlow 2.21 wrote
(tools/gen_frozen_control_flow.py -> tests/fixtures/models/tf{1,2}_control_flow/): a TF2
tf.function with tf.while_loop and tf.cond frozen by convert_variables_to_constants_v2 (While and
If nodes with a function library) and the same computation in TensorFlow 1 control flow frozen by
convert_variables_to_constants. minitf imports and runs them with TensorFlow's outputs, and
as_graph_def() gives back the function library TensorFlow wrote, byte for byte."""
import json
import os

import numpy as np
import pytest

import minitf as tf

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "..", "fixtures", "models")
FORMS = ["tf2_control_flow", "tf1_control_flow"]


def read_runs(path):
    """io.txt: 'run k' then 'feed|fetch name dtype rank dims... values...' lines."""
    runs = []
    with open(path) as f:
        for ln in f:
            parts = ln.split()
            if parts[0] == "run":
                runs.append({"feed": {}, "fetch": {}})
                continue
            kind, name, dtype, rank = parts[0], parts[1], parts[2], int(parts[3])
            dims = [int(d) for d in parts[4:4 + rank]]
            vals = np.array(parts[4 + rank:], dtype=np.float64).astype(dtype)
            runs[-1][kind][name] = vals.reshape(dims)
    return runs


def load(form):
    d = os.path.join(MODELS, form)
    gd = tf.GraphDef()
    with open(os.path.join(d, "graph.pb"), "rb") as f:
        gd.ParseFromString(f.read())
    with open(os.path.join(d, "meta.json")) as f:
        meta = json.load(f)
    return gd, meta, read_runs(os.path.join(d, "io.txt"))


def run_all(g, runs):
    with tf.Session(graph=g) as s:
        for run in runs:
            feeds = {g.get_tensor_by_name(k): v for k, v in run["feed"].items()}
            names = list(run["fetch"])
            got = s.run(names, feeds)
            for name, v in zip(names, got):
                want = run["fetch"][name]
                assert np.asarray(v).dtype == want.dtype and np.shape(v) == want.shape, name
                np.testing.assert_allclose(v, want, rtol=2e-6, atol=1e-6, err_msg=name)


@pytest.mark.parametrize("form", FORMS)
def test_imports_and_runs_with_tensorflow_outputs(form):
    gd, meta, runs = load(form)
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(gd, name="")
    assert sorted({op.type for op in g.get_operations()}) == meta["ops"]
    assert len(runs) == 3
    run_all(g, runs)


def test_tf2_form_keeps_functional_ops_and_its_library():
    gd, meta, _ = load("tf2_control_flow")
    assert {"While", "StatelessIf"} <= set(meta["ops"]) and "Enter" not in meta["ops"]
    assert sorted(f.signature.name for f in gd.library.function) == meta["functions"]


def test_as_graph_def_round_trips_the_function_library():
    gd, meta, runs = load("tf2_control_flow")
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(gd, name="")
    out = g.as_graph_def()
    # the same FunctionDefs (Python's protobuf may order map entries differently when it
    # serializes; tests/c/test_frozen_control_flow.c checks TensorFlow's bytes come back)
    assert out.library == gd.library
    want = {f.signature.name: f.SerializeToString(deterministic=True) for f in gd.library.function}
    got = {f.signature.name: f.SerializeToString(deterministic=True) for f in out.library.function}
    assert got == want
    # the exported graph imports again and computes the same
    g2 = tf.Graph()
    with g2.as_default():
        tf.import_graph_def(out, name="")
    run_all(g2, runs)
