"""The frozen digits MLP written by real TensorFlow 2.21, run through minitf."""
import os

import numpy as np
import pytest

import minitf as tf


@pytest.fixture
def mlp(fixtures_dir):
    d = os.path.join(fixtures_dir, "digits_mlp")
    with open(os.path.join(d, "graph.pb"), "rb") as f:
        gd = tf.GraphDef()
        gd.ParseFromString(f.read())
    return gd, np.load(os.path.join(d, "io.npz")), np.load(os.path.join(d, "labels.npy"))


def test_import_and_run_matches_tensorflow(mlp):
    gd, io, labels = mlp
    x, logits, probs, pred = tf.import_graph_def(
        gd, return_elements=["x:0", "logits:0", "probs:0", "pred:0"], name="")
    assert x.shape.as_list() == [None, 64]
    assert logits.shape.as_list() == [None, 10]
    assert pred.dtype == tf.int64
    feed = io["feed:x:0"]
    assert feed.shape == (397, 64)
    with tf.Session() as sess:
        got_logits, got_probs, got_pred = sess.run([logits, probs, pred], feed_dict={x: feed})
    assert np.abs(got_logits - io["fetch:logits:0"]).max() <= 1e-5
    assert np.abs(got_probs - io["fetch:probs:0"]).max() <= 1e-5
    np.testing.assert_array_equal(got_pred, io["fetch:pred:0"])
    # TensorFlow's accuracy on the test split (meta.json: 0.9824).
    assert np.mean(got_pred == labels) == np.mean(io["fetch:pred:0"] == labels)
    assert round(float(np.mean(got_pred == labels)), 4) == 0.9824


def test_import_with_default_prefix_and_feed_by_name(mlp):
    gd, io, _ = mlp
    assert tf.import_graph_def(gd) is None
    g = tf.get_default_graph()
    assert g.get_operation_by_name("import/x").type == "Placeholder"
    with tf.Session() as sess:
        pred = sess.run("import/pred:0", {"import/x:0": io["feed:x:0"][:5]})
    np.testing.assert_array_equal(pred, io["fetch:pred:0"][:5])


def test_import_with_input_map(mlp):
    gd, io, _ = mlp
    x = tf.placeholder(tf.float32, [None, 64], name="my_input")
    (pred,) = tf.import_graph_def(gd, input_map={"x:0": x}, return_elements=["pred:0"],
                                  name="net")
    assert pred.name == "net/pred:0"
    with tf.Session() as sess:
        got = sess.run(pred, {x: io["feed:x:0"][:7]})
    np.testing.assert_array_equal(got, io["fetch:pred:0"][:7])


def test_import_errors(mlp):
    gd, _, _ = mlp
    with pytest.raises(ValueError):
        tf.import_graph_def(b"\x0a\xff\xff\xff", name="bad")
    with pytest.raises(ValueError, match="not found in graph_def"):
        tf.import_graph_def(gd, input_map={"nope:0": tf.constant(1.0)}, name="m")
    bad = tf.GraphDef()
    bad.node.add(name="n", op="NoSuchOp")
    with pytest.raises((tf.errors.NotFoundError, ValueError), match="NoSuchOp"):
        tf.import_graph_def(bad, name="u")
