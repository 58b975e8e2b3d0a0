"""tf.layers and tf.losses against TensorFlow 2.21 (tests/fixtures/layers_expected.json from
tools/gen_layers_expected.py, cases in layers_cases.py): graph nodes (names, ops, inputs),
collections, static shapes, values and layer names; plus TensorFlow's errors."""
import json
import os
import warnings

import numpy as np
import pytest

import minitf as tf

import layers_cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "layers_expected.json")) as _f:
    EXPECTED = json.load(_f)["cases"]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("name", sorted(layers_cases.CASES))
def test_case_is_tensorflows(name):
    want = EXPECTED[name]
    with tf.Graph().as_default():
        got = layers_cases.run(tf, layers_cases.CASES[name])
    if name not in layers_cases.NODES_DIFFER:
        assert got["nodes"] == want["nodes"]
    assert got["collections"] == want["collections"]
    assert got["shapes"] == want["shapes"]
    assert got["info"] == want["info"]
    assert sorted(got["values"]) == sorted(want["values"])
    for key in want["values"]:
        np.testing.assert_allclose(np.asarray(got["values"][key], np.float64),
                                   np.asarray(want["values"][key], np.float64),
                                   rtol=1e-6, atol=1e-6, err_msg=key)


with open(os.path.join(HERE, "..", "fixtures", "layers_training_expected.json")) as _f:
    CURVES = json.load(_f)["curves"]


@pytest.mark.parametrize("name", sorted(CURVES))
def test_training_curve_is_tensorflows(name):
    """A conv net of tf.layers + tf.losses trained from one graph seed: the loss at every
    step equals TensorFlow's to 1e-4 relative (the acceptance test of issue 12)."""
    import layers_training_cases
    with tf.Graph().as_default():
        got = layers_training_cases.run(tf, name)
    want = CURVES[name]
    assert got["variables"] == want["variables"]
    np.testing.assert_allclose(got["losses"], want["losses"], rtol=1e-4)
    np.testing.assert_allclose(got["final"], want["final"], rtol=1e-4, atol=1e-6)


import layers_error_cases  # noqa: E402

ERRORS = json.load(open(os.path.join(HERE, "..", "fixtures", "layers_expected.json")))["errors"]


@pytest.mark.parametrize("name", sorted(layers_error_cases.CASES))
def test_error_is_tensorflows(name):
    """Bad inputs raise TensorFlow's exception type with its message (messages that embed a
    NodeDef or tensor reprs are compared up to that point)."""
    with tf.Graph().as_default():
        got = layers_error_cases.run(tf, layers_error_cases.CASES[name])
    want = ERRORS[name]
    assert got is not None and got[0] == want[0], (got, want)
    if "assertion failed:" in want[1]:
        # A run-time Assert: its data line (the session's framing of it differs).
        line = want[1][want[1].index("assertion failed:"):].split("\n")[0]
        assert line in got[1], (got[1], line)
        return
    for cut in ("{{node", "Received weights=Tensor", "\n\noriginally defined at:"):
        if cut in want[1]:
            want_msg = want[1][:want[1].index(cut)]
            assert got[1].startswith(want_msg), (got[1], want_msg)
            return
    assert got[1] == want[1]
