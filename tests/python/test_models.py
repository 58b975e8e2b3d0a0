"""Frozen real models written by real TensorFlow 2.21 (tools/gen_frozen_models.py) run in minitf
and match TensorFlow's outputs within 1e-5 relative."""
import json
import os

import numpy as np
import pytest

import minitf as tf

MODELS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures",
                      "models")


def _run(name):
    d = os.path.join(MODELS, name)
    with open(os.path.join(d, "meta.json")) as f:
        meta = json.load(f)
    io = np.load(os.path.join(d, "io.npz"))
    graph_def = tf.GraphDef()
    with open(os.path.join(d, "graph.pb"), "rb") as f:
        graph_def.ParseFromString(f.read())
    with tf.Graph().as_default() as g:
        tf.import_graph_def(graph_def, name="")
        with tf.Session(graph=g) as sess:
            got = sess.run(meta["fetches"], {k: io["feed:" + k] for k in meta["feeds"]})
    return meta, io, dict(zip(meta["fetches"], got))


@pytest.mark.parametrize("name", ["keras_cnn", "tf1_dynamic"])
def test_frozen_model_matches_tensorflow(name):
    meta, io, got = _run(name)
    for fetch in meta["fetches"]:
        want = io["fetch:" + fetch]
        assert np.asarray(got[fetch]).shape == want.shape
        np.testing.assert_allclose(got[fetch], want, rtol=1e-5, atol=1e-6, err_msg=fetch)


def test_keras_cnn_predictions_identical():
    meta, io, got = _run("keras_cnn")
    probs = got[meta["fetches"][0]]
    labels = np.load(os.path.join(MODELS, "keras_cnn", "labels.npy"))
    want = io["fetch:" + meta["fetches"][0]].argmax(1)
    np.testing.assert_array_equal(probs.argmax(1), want)
    assert np.mean(probs.argmax(1) == labels) == np.mean(want == labels)


def test_tf1_dynamic_shapes_stay_unknown_until_run():
    graph_def = tf.GraphDef()
    with open(os.path.join(MODELS, "tf1_dynamic", "graph.pb"), "rb") as f:
        graph_def.ParseFromString(f.read())
    with tf.Graph().as_default() as g:
        tf.import_graph_def(graph_def, name="")
        mixed = g.get_tensor_by_name("mixed:0")
        # TF infers rank 2 with unknown dims (rows and cols depend on the feed)
        assert mixed.shape.as_list() == [None, None]
        x = g.get_tensor_by_name("x:0")
        with tf.Session(graph=g) as sess:
            out = sess.run(mixed, {x: np.ones((2, 4), np.float32), "ids:0": np.int32([0])})
    # rows of (1 + row index) then two 0.5 columns
    np.testing.assert_array_equal(out, [[1, 1, 1, 1, .5, .5], [2, 2, 2, 2, .5, .5]])
