"""Text protos in which TensorFlow 2.21 records full types (OpDef.ArgDef.experimental_full_type,
on Shape's output among others) parse in minitf: a text .meta TF exported and a text
SavedModel TF saved (tests/fixtures/full_type/, tools/gen_full_type_fixtures.py). Before
full_type.proto existed, both failed: 'ArgDef has no field named "experimental_full_type"'."""
import json
import os
import subprocess
import sys

import numpy as np

import minitf as tf

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "full_type")
with open(os.path.join(FIX, "expected.json")) as f:
    WANT = json.load(f)


def test_text_meta_graph_with_full_types_imports_and_trains():
    with tf.Graph().as_default() as g:
        tf.train.import_meta_graph(os.path.join(FIX, "train.meta"))
        names = {op.name for op in g.get_operations()}
        # every node TF exported, plus the Saver import_meta_graph makes (as TF's does for a
        # meta graph with variables and no saver_def)
        assert set(WANT["meta_nodes"]) <= names
        assert all(n.startswith("save/") for n in names - set(WANT["meta_nodes"]))
        train = tf.get_collection(tf.GraphKeys.TRAIN_OP)[0]
        x, loss = g.get_tensor_by_name("x:0"), g.get_tensor_by_name("loss:0")
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            feed = {x: [[1.0, 0.0]]}
            assert s.run(loss, feed) == 1.0  # (1 * 1 + 0 * 2)^2
            s.run(train, feed)  # w0 -= 0.1 * 2 * 1 * 1
            np.testing.assert_allclose(s.run(loss, feed), 0.64, rtol=1e-6)


def test_text_saved_model_with_full_types_serves_tfs_values():
    with tf.Graph().as_default(), tf.Session() as s:
        meta = tf.saved_model.loader.load(s, ["serve"], os.path.join(FIX, "saved_model"))
        sig = meta.signature_def["serving_default"]
        y = s.run(sig.outputs["y"].name, {sig.inputs["x"].name: WANT["x"]})
    np.testing.assert_allclose(y, WANT["y"], rtol=1e-6)


def test_cli_runs_the_text_saved_model(tmp_path):
    np.save(tmp_path / "x.npy", np.asarray(WANT["x"], np.float32))
    out = subprocess.run([sys.executable, "-m", "minitf", "run", os.path.join(FIX, "saved_model"),
                          "--signature", "serving_default", "--input",
                          "x=%s" % (tmp_path / "x.npy"), "--outdir", str(tmp_path)],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    np.testing.assert_allclose(np.load(tmp_path / "y.npy"), WANT["y"], rtol=1e-6)
