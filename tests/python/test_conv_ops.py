"""Conv/pooling/resize beyond the goldens: the TF1 wrappers against real TensorFlow's
outputs (fixtures by tools/gen_conv_wrappers.py), static shapes from partially known
inputs (worked by hand from TensorFlow's shape functions), and kernels on inputs the
goldens keep small (tiled im2col, NCHW int32, empty batches) against NumPy references."""
import json
import os

import numpy as np
import pytest

import minitf as tf
from minitf.framework import op_def_library

from conv_wrapper_cases import INPUTS, WRAPPER_CASES

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "fixtures", "conv_wrappers")
# TensorFlow builds depthwise_conv2d with rate > 1 as SpaceToBatchND + depthwise +
# BatchToSpaceND; minitf passes the rate as the op's dilations (same values).
GRAPH_DIFFERS = {"depthwise_rate"}


def _meta():
    with open(os.path.join(FIXTURES, "cases.json")) as f:
        return {c["name"]: c for c in json.load(f)["cases"]}


@pytest.mark.parametrize("name,fn", WRAPPER_CASES, ids=[c[0] for c in WRAPPER_CASES])
def test_wrapper_matches_tensorflow(name, fn):
    if name == "resize_3d" and "ExpandDims" not in op_def_library.get_registered_ops():
        pytest.skip("needs ExpandDims/Squeeze (array family)")
    meta = _meta()[name]
    want = np.load(os.path.join(FIXTURES, "arrays.npz"))[name]
    g = tf.Graph()
    with g.as_default():
        ph = {k: tf.placeholder(tf.as_dtype(v.dtype), v.shape, name=k) for k, v in INPUTS.items()}
        t = fn(tf, ph)
        shape = None if t.shape.rank is None else [-1 if d is None else d for d in
                                                   t.shape.as_list()]
        assert shape == meta["shape"]
        if name not in GRAPH_DIFFERS:
            assert t.name == meta["tensor"]
            assert t.op.type == meta["op"]
        with tf.Session() as s:
            got = s.run(t, {ph[k]: v for k, v in INPUTS.items()})
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def _static(t):
    return None if t.shape.rank is None else [-1 if d is None else d for d in t.shape.as_list()]


def test_partial_shapes():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 10, None, 3])
        w = tf.placeholder(tf.float32, [3, 3, 3, 8])
        # SAME stride 2: ceil(10 / 2) = 5; unknown width stays unknown
        assert _static(tf.nn.conv2d(x, w, 2, "SAME")) == [-1, 5, -1, 8]
        # VALID dilation 2: effective filter 5, (10 - 5 + 1) = 6
        assert _static(tf.nn.conv2d(x, w, 1, "VALID", dilations=2)) == [-1, 6, -1, 8]
        u = tf.placeholder(tf.float32)  # unknown rank: rank 4 output
        assert _static(tf.nn.conv2d(u, w, 1, "SAME")) == [-1, -1, -1, 8]
        assert _static(tf.nn.conv2d(x, tf.placeholder(tf.float32), 1, "SAME")) == \
            [-1, 10, -1, -1]
        nchw = tf.placeholder(tf.float32, [2, 3, 7, None])
        assert _static(tf.nn.conv2d(nchw, w, 2, "VALID", data_format="NCHW")) == [2, 8, 3, -1]
        assert _static(tf.nn.depthwise_conv2d_native(
            x, tf.placeholder(tf.float32, [3, 3, 3, 2]), [1, 2, 2, 1], "SAME")) == [-1, 5, -1, 6]
        assert _static(tf.nn.max_pool(x, 3, 2, "VALID")) == [-1, 4, -1, 3]
        assert _static(tf.nn.avg_pool(x, 2, 2, "SAME")) == [-1, 5, -1, 3]
        k = tf.placeholder(tf.int32, [4])
        assert _static(tf.raw_ops.MaxPoolV2(input=x, ksize=k, strides=k, padding="SAME")) == \
            [-1, -1, -1, -1]
        size = tf.placeholder(tf.int32, [2])
        assert _static(tf.image.resize_bilinear(x, size)) == [-1, -1, -1, 3]
        assert _static(tf.image.resize_nearest_neighbor(x, [4, 6])) == [-1, 4, 6, 3]
        dy = tf.placeholder(tf.float32, [2, 5, 5, 8])
        sizes = tf.placeholder(tf.int32, [4])
        assert _static(tf.nn.conv2d_backprop_input(sizes, w, dy, [1, 1, 1, 1], "SAME")) == \
            [-1, -1, -1, -1]
        sizes2 = tf.placeholder(tf.int32, [2])  # spatial sizes only: batch/depth still known
        assert _static(tf.nn.conv2d_backprop_input(sizes2, w, dy, [1, 1, 1, 1], "SAME")) == \
            [2, -1, -1, 3]
        assert _static(tf.nn.conv2d(x, tf.placeholder(tf.float32), 1, "VALID")) == \
            [-1, -1, -1, -1]
        with pytest.raises(ValueError, match="Depth of input \\(3\\) is not a multiple"):
            tf.nn.conv2d(x, tf.placeholder(tf.float32, [3, 3, 2, 8]), 1, "SAME")
        with pytest.raises(ValueError, match="Negative dimension size caused by subtracting 11"):
            tf.nn.max_pool(x, 11, 1, "VALID")


def _conv_ref(x, w, stride, pad_h, pad_w):
    """NumPy NHWC conv (stride, explicit (before, after) pads)."""
    xp = np.pad(x.astype(np.float64), [(0, 0), pad_h, pad_w, (0, 0)])
    kh, kw = w.shape[:2]
    oh = (xp.shape[1] - kh) // stride + 1
    ow = (xp.shape[2] - kw) // stride + 1
    out = np.zeros((x.shape[0], oh, ow, w.shape[3]))
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, i:i + stride * oh:stride, j:j + stride * ow:stride, :]
            out += np.tensordot(patch, w[i, j].astype(np.float64), axes=([3], [0]))
    return out


def test_conv2d_tiled_against_numpy():
    # 4 * 32 * 32 output rows * 288 patch columns: more than one im2col tile
    rng = np.random.RandomState(0)
    x = rng.uniform(-1, 1, (4, 32, 32, 32)).astype(np.float32)
    w = rng.uniform(-1, 1, (3, 3, 32, 5)).astype(np.float32)
    with tf.Graph().as_default(), tf.Session() as s:
        got = s.run(tf.nn.conv2d(x, w, 1, "SAME"))
    np.testing.assert_allclose(got, _conv_ref(x, w, 1, (1, 1), (1, 1)), rtol=1e-4, atol=1e-4)


def test_conv2d_int32_nchw_and_wrapping():
    # TensorFlow's CPU kernel only has NHWC for int32; minitf computes NCHW too.
    rng = np.random.RandomState(1)
    x = rng.randint(-50, 50, (2, 5, 6, 3)).astype(np.int32)
    w = rng.randint(-50, 50, (2, 3, 3, 4)).astype(np.int32)
    want = _conv_ref(x, w, 2, (0, 1), (0, 1)).astype(np.int64)  # SAME, stride 2
    big = np.full((1, 1, 1, 2), 2 ** 30, np.int32)
    with tf.Graph().as_default(), tf.Session() as s:
        nhwc = s.run(tf.nn.conv2d(x, w, 2, "SAME"))
        nchw = s.run(tf.nn.conv2d(x.transpose(0, 3, 1, 2), w, 2, "SAME", data_format="NCHW"))
        wrapped = s.run(tf.nn.conv2d(big, np.full((1, 1, 2, 1), 2, np.int32), 1, "VALID"))
    np.testing.assert_array_equal(nhwc, want)
    np.testing.assert_array_equal(nchw, want.transpose(0, 3, 1, 2))
    assert wrapped.ravel()[0] == 0  # 2 * 2^30 * 2 = 2^32 wraps to 0


def test_empty_batch():
    # TensorFlow 2.21 (oneDNN) returns a [0, 5, 5, in_channels] array here, against its own
    # static shape; minitf returns the static shape [0, 5, 5, out_channels].
    with tf.Graph().as_default(), tf.Session() as s:
        y = tf.nn.conv2d(np.zeros((0, 5, 5, 3), np.float32), np.ones((3, 3, 3, 2), np.float32),
                         1, "SAME")
        assert _static(y) == [0, 5, 5, 2]
        assert s.run(y).shape == (0, 5, 5, 2)
        t = tf.nn.conv2d_transpose(np.zeros((0, 3, 3, 2), np.float32),
                                   np.ones((3, 3, 4, 2), np.float32), [0, 6, 6, 4], 2)
        assert s.run(t).shape == (0, 6, 6, 4)


def test_run_time_errors():
    with tf.Graph().as_default(), tf.Session() as s:
        x = tf.placeholder(tf.float32)
        y = tf.nn.conv2d(x, np.ones((3, 3, 2, 2), np.float32), 1, "VALID")
        with pytest.raises(tf.errors.InvalidArgumentError, match="input must be 4-dimensional"):
            s.run(y, {x: np.ones((5, 5, 2), np.float32)})
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Computed output size would be negative"):
            s.run(y, {x: np.ones((1, 2, 5, 2), np.float32)})
        with pytest.raises(tf.errors.InvalidArgumentError, match="evenly divisible"):
            s.run(y, {x: np.ones((1, 5, 5, 3), np.float32)})
        k = tf.placeholder(tf.int32, [4])
        mp = tf.raw_ops.MaxPoolV2(input=x, ksize=k, strides=[1, 1, 1, 1], padding="VALID")
        with pytest.raises(tf.errors.InvalidArgumentError, match="ksize must be positive"):
            s.run(mp, {x: np.ones((1, 2, 2, 1), np.float32), k: [1, -1, 1, 1]})
        size = tf.placeholder(tf.int32)
        r = tf.image.resize_bilinear(np.ones((1, 2, 2, 1), np.float32), size)
        with pytest.raises(tf.errors.InvalidArgumentError, match="shape_t must have two"):
            s.run(r, {size: [1, 2, 3]})
