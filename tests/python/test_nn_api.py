"""tf.nn functions against TensorFlow 2.21 (tests/fixtures/nn_api_expected.json from
tools/gen_nn_api_expected.py; cases in nn_api_cases.py): for each case the nodes built (names
and op types), the static shapes, values and gradients; and the construction errors."""
import json
import os

import numpy as np
import pytest

import minitf as tf

import nn_api_cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "nn_api_expected.json")) as _f:
    _FIXTURE = json.load(_f)
EXPECTED, ERRORS = _FIXTURE["cases"], _FIXTURE["errors"]
RUN_ERRORS = _FIXTURE["run_errors"]

# Values computed in another summation order than TF's: float32 ulps.
RTOL = 1e-5
ATOL = 1e-5


# The 3-D convolutions accumulate in double; TensorFlow's CPU kernels sum long float
# dot products (hundreds of terms) in their own order.
LOOSE = {"conv3d_backprops": 1e-4}


def _close(got, want, tol=None):
    if want is None:
        assert got is None
        return
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64),
                               rtol=tol or RTOL, atol=tol or ATOL)


@pytest.mark.parametrize("name", sorted(nn_api_cases.CASES))
def test_case_is_tensorflows(name):
    if name == "l2_normalize_complex" and not hasattr(tf, "complex"):
        pytest.skip("tf.complex / tf.real / tf.imag land with the math part")
    want = EXPECTED[name]
    got = nn_api_cases.run(tf, nn_api_cases.CASES[name])
    assert got["nodes"] == want["nodes"]
    assert got["shapes"] == want["shapes"]
    assert len(got["values"]) == len(want["values"])
    for g, w in zip(got["values"], want["values"]):
        _close(g, w, LOOSE.get(name))
    assert len(got["grads"]) == len(want["grads"])
    for g, w in zip(got["grads"], want["grads"]):
        _close(g, w, LOOSE.get(name))


@pytest.mark.parametrize("name", sorted(nn_api_cases.ERRORS))
def test_error_is_tensorflows(name):
    assert nn_api_cases.error(tf, nn_api_cases.ERRORS[name]) == ERRORS[name]


@pytest.mark.parametrize("name", sorted(nn_api_cases.RUN_ERRORS))
def test_run_error_is_tensorflows(name):
    assert nn_api_cases.run_error(tf, nn_api_cases.RUN_ERRORS[name]) == RUN_ERRORS[name]


def test_samplers_advance_per_run_as_tensorflow():
    """Seeded samplers give TensorFlow's candidates bit for bit, run after run."""
    assert nn_api_cases.sampler_runs(tf) == _FIXTURE["sampler_runs"]


def _numerical_check(build, arrays, h=1e-6, rtol=1e-6, atol=1e-8, dtype=None):
    """tf.gradients of L = sum(out * w) against central differences of L (float64, or
    float32 for the float-only pools with a coarser h)."""
    dtype = dtype or tf.float64
    with tf.Graph().as_default(), tf.Session() as sess:
        phs = [tf.placeholder(dtype, a.shape) for a in arrays]
        out = build(*phs)
        w = np.random.RandomState(3).rand(*out.shape.as_list()).astype(dtype.as_numpy_dtype)
        loss = tf.reduce_sum(tf.cast(out * w, tf.float64))
        grads = sess.run(tf.gradients(loss, phs), dict(zip(phs, arrays)))
        for i, a in enumerate(arrays):
            num = np.zeros_like(a)
            for j in range(a.size):
                vals = []
                for sign in (1, -1):
                    b = a.copy()
                    b.flat[j] += sign * h
                    feed = dict(zip(phs, arrays))
                    feed[phs[i]] = b
                    vals.append(sess.run(loss, feed))
                num.flat[j] = (vals[0] - vals[1]) / (2 * h)
            np.testing.assert_allclose(grads[i], num, rtol=rtol, atol=atol)


_RNG = np.random.RandomState(9)
_X3 = _RNG.rand(1, 3, 4, 3, 2) - 0.5
_F3 = _RNG.rand(2, 2, 3, 2, 3) - 0.5


def test_conv3d_gradient_is_numerical():
    _numerical_check(lambda x, f: tf.nn.conv3d(x, f, [1, 1, 2, 1, 1], "SAME"), [_X3, _F3],
                     atol=1e-6)
    _numerical_check(lambda x, f: tf.nn.conv3d(x, f, [1, 1, 1, 1, 1], "VALID",
                                               dilations=[1, 2, 1, 1, 1]), [_X3, _F3],
                     atol=1e-6)


def test_conv3d_backprop_gradients_are_numerical():
    dy = _RNG.rand(1, 3, 4, 3, 3) - 0.5
    _numerical_check(lambda f, d: tf.nn.conv3d_transpose(d, f, [1, 3, 4, 3, 2], 1),
                     [_F3, dy], atol=1e-6)
    _numerical_check(lambda x, d: tf.nn.conv3d_backprop_filter(x, [2, 2, 3, 2, 3], d,
                                                               [1, 1, 1, 1, 1], "SAME"),
                     [_X3, dy], atol=1e-6)


def test_pool3d_gradients_are_numerical():
    # distinct values a grid step apart: no ties, and max windows stay put under +-h
    x = (np.random.RandomState(4).permutation(72).reshape(1, 3, 4, 3, 2) / 8.0).astype(
        np.float32)
    for build in [lambda v: tf.nn.max_pool3d(v, 2, 1, "SAME"),
                  lambda v: tf.nn.avg_pool3d(v, [2, 3, 2], 1, "SAME"),
                  lambda v: tf.nn.max_pool3d(v, 2, 2, "VALID")]:
        _numerical_check(build, [x], h=1e-2, rtol=1e-3, atol=1e-3, dtype=tf.float32)
    # second order: the gradient of MaxPool3DGrad / AvgPool3DGrad with respect to grad
    dy = np.random.RandomState(5).rand(1, 3, 4, 3, 2).astype(np.float32)

    def max_grad(d):
        v = tf.constant(x)
        return tf.gradients(tf.nn.max_pool3d(v, 2, 1, "SAME"), v, grad_ys=d)[0]

    def avg_grad(d):
        v = tf.constant(x)
        return tf.gradients(tf.nn.avg_pool3d(v, 2, 1, "SAME"), v, grad_ys=d)[0]

    _numerical_check(max_grad, [dy], h=1e-2, rtol=1e-3, atol=1e-3, dtype=tf.float32)
    _numerical_check(avg_grad, [dy], h=1e-2, rtol=1e-3, atol=1e-3, dtype=tf.float32)
