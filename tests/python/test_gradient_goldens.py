"""Replays the gradient goldens real TensorFlow 2.21 wrote (tools/goldens/gen_gradients.py):
for each golden op case of a family with grads.json, minitf's tf.gradients of the op's float
outputs, weighted by the same grad_ys, with respect to its float inputs must equal TensorFlow's
(within the case's tolerance); where TensorFlow has no gradient, minitf raises LookupError.
"""
import glob
import json
import os

import numpy as np
import pytest

import minitf as tf
from test_goldens import _build, _decode

GOLDEN_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "fixtures", "goldens")


def weights(shape, dtype, j):
    n = int(np.prod(shape)) if len(shape) else 1
    return np.cos(np.arange(n, dtype=np.float64) + j).reshape(shape).astype(dtype)


def _cases():
    params = []
    for path in sorted(glob.glob(os.path.join(GOLDEN_DIR, "*", "grads.json"))):
        d = os.path.dirname(path)
        with open(path) as f:
            grads = json.load(f)
        with open(os.path.join(d, "cases.json")) as f:
            cases = {c["name"]: c for c in json.load(f)["cases"]}
        for rec in grads["cases"]:
            params.append(pytest.param(d, cases[rec["name"]], rec,
                                       id="%s/%s" % (grads["family"], rec["name"])))
    return params


_NPZ = {}


def _npz(d, name):
    key = (d, name)
    if key not in _NPZ:
        _NPZ[key] = np.load(os.path.join(d, name))
    return _NPZ[key]


@pytest.mark.parametrize("directory,case,rec", _cases())
def test_gradient_golden(directory, case, rec):
    arrays = _npz(directory, "arrays.npz")
    grad_arrays = _npz(directory, "grads.npz")
    g = tf.Graph()
    with g.as_default():
        op, feeds = _build(case, arrays)
        ys, grad_ys = [], []
        for j, t in enumerate(op.outputs):
            if t.dtype.name not in ("float32", "float64"):
                continue
            shape = _decode(arrays, case["outputs"][j]["key"], case["outputs"][j]["dtype"]).shape
            ys.append(t)
            grad_ys.append(tf.constant(weights(shape, t.dtype.as_numpy_dtype, j)))
        xs = [g.get_tensor_by_name(spec["node"] + ":0") for spec in case["inputs"]
              if spec["dtype"] in ("float32", "float64") and not spec["const"]]
        if rec.get("no_gradient"):
            with pytest.raises(LookupError):
                tf.gradients(ys, xs, grad_ys=grad_ys)
            return
        grads = tf.gradients(ys, xs, grad_ys=grad_ys)
        if "run_error" not in rec:
            assert len(grads) == len(rec["grads"])
        fetch = [tf.convert_to_tensor(x) for x in grads if x is not None]
        with tf.Session(graph=g) as sess:
            if "run_error" in rec:
                with pytest.raises(tf.errors.OpError) as exc_info:
                    sess.run(fetch, feeds)
                assert type(exc_info.value).__name__ == rec["run_error"]["class"]
                return
            values = iter(sess.run(fetch, feeds))
    for x, want in zip(grads, rec["grads"]):
        if want["key"] is None:
            assert x is None, "TensorFlow has no gradient for %s" % want["node"]
            continue
        assert x is not None, "no gradient for %s (TensorFlow has one)" % want["node"]
        expected = grad_arrays[want["key"]]
        got = np.asarray(next(values))
        assert got.shape == expected.shape, (want["node"], got.shape, expected.shape)
        np.testing.assert_allclose(got, expected, rtol=want["rtol"], atol=want["atol"],
                                   err_msg="d loss / d %s" % want["node"])
