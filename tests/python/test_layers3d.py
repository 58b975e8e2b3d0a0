"""tf.layers 3-D convolution and pooling against TensorFlow 2.21
(tests/fixtures/layers3d_expected.json from tools/gen_layers3d_expected.py, cases in
layers3d_cases.py): graph nodes (names, ops, inputs, gradients included), collections,
static shapes, values and gradients, layer names; plus hand-checked errors."""
import json
import os
import warnings

import numpy as np
import pytest

import minitf as tf

import layers3d_cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "layers3d_expected.json")) as _f:
    EXPECTED = json.load(_f)["cases"]

# A dilated Conv3D is SpaceToBatchND + Conv3D + BatchToSpaceND in both; its gradient
# graph's node list is compared too.
NODES_DIFFER = set()


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("name", sorted(layers3d_cases.CASES))
def test_case_is_tensorflows(name):
    want = EXPECTED[name]
    with tf.Graph().as_default():
        got = layers3d_cases.run(tf, layers3d_cases.CASES[name])
    if name not in NODES_DIFFER:
        assert got["nodes"] == want["nodes"]
    assert got["collections"] == want["collections"]
    assert got["shapes"] == want["shapes"]
    assert got["info"] == want["info"]
    assert sorted(got["values"]) == sorted(want["values"])
    for key in want["values"]:
        np.testing.assert_allclose(np.asarray(got["values"][key], np.float64),
                                   np.asarray(want["values"][key], np.float64),
                                   rtol=1e-5, atol=1e-5, err_msg=key)


def test_conv3d_transpose_needs_rank5():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Inputs should have rank 5"):
            tf.layers.Conv3DTranspose(2, 2).build([2, 3, 3, 3])


def test_pooling3d_needs_strides():
    with pytest.raises(ValueError, match="`strides` must not be None"):
        tf.layers.MaxPooling3D(2, None)


def test_conv3d_rejects_rank4_input():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="expected min_ndim=5, found ndim=4"):
            tf.layers.conv3d(tf.zeros([1, 3, 3, 2]), 2, 2)


def test_orthogonal_needs_rank2():
    with pytest.raises(ValueError, match="must be at least two-dimensional"):
        tf.orthogonal_initializer()([3])


def test_orthogonal_rejects_int_dtype():
    with pytest.raises(ValueError, match="expected to be floating point"):
        tf.initializers.orthogonal(dtype=tf.int32)


def test_orthogonal_columns_are_orthonormal():
    """A [3, 2, 7] kernel (rows 6 < cols 7): its 6 x 7 flat matrix has orthonormal rows."""
    with tf.Graph().as_default():
        v = tf.orthogonal_initializer(gain=1.0, seed=9)([3, 2, 7])
        with tf.Session() as sess:
            m = sess.run(v).reshape(6, 7)
    np.testing.assert_allclose(m @ m.T, np.eye(6), atol=1e-5)
