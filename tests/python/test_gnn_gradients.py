"""The nn, conv and pooling gradients against TensorFlow 2.21 and against numbers.

1. The programs of gnn_gradient_cases.py replayed on minitf and compared with
   tests/fixtures/gnn_gradient_expected.json (tools/gen_gnn_gradient_expected.py under real
   TensorFlow): the exact backward graph (node names, op types, inputs), gradient values and
   error classes.
2. Float64 numerical checks (minitf.test.compute_gradient_error: central differences against
   the symbolic Jacobian) of paths the goldens do not cover: the second-order pooling
   gradients (MaxPoolGradGrad, MaxPoolGrad as MaxPoolGradGrad's gradient, AvgPoolGrad's), the
   gradients of Conv2DBackpropInput / Conv2DBackpropFilter and their depthwise forms, dilated
   depthwise convolution (TensorFlow 2.21's own float32 gradient is wrong there: its golden is
   skipped), TopKV2, and batch norm / LRN in float32 (their only CPU type).
"""
import json
import os

import numpy as np
import pytest

import minitf as tf
import gnn_gradient_cases
from minitf.test import compute_gradient, compute_gradient_error

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures",
                       "gnn_gradient_expected.json")
with open(FIXTURE) as f:
    EXPECTED = json.load(f)


def _compare_values(got, want, tol):
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        if w is None:
            assert g is None, "gradient %d: TensorFlow gives None" % i
            continue
        assert g is not None, "gradient %d: TensorFlow gives %s" % (i, w)
        assert g[0] == w[0], "gradient %d dtype %s, TensorFlow %s" % (i, g[0], w[0])
        np.testing.assert_allclose(np.array(g[1]), np.array(w[1]), rtol=tol, atol=tol,
                                   err_msg="gradient %d" % i)


@pytest.mark.parametrize("case", gnn_gradient_cases.CASES, ids=lambda c: c.__name__)
def test_against_tensorflow(case):
    got = case(tf)
    want = EXPECTED[case.__name__]
    assert sorted(got) == sorted(want)
    for key in want:
        if key == "values":
            # float32 sums in another order than oneDNN's (batch norm, LRN: 1e-4)
            _compare_values(got[key], want[key], 1e-4)
        else:
            assert got[key] == want[key], key


# ---- numerical checks ----

def _rng(seed):
    return np.random.default_rng(seed)


def _err(build, shapes, out_shape, seed=0, dtype=np.float64, delta=1e-6, spread=1.0):
    """max |symbolic - numerical| of build(*placeholders) w.r.t. each placeholder."""
    g = tf.Graph()
    with g.as_default():
        xs = [tf.placeholder(tf.as_dtype(dtype), s) for s in shapes]
        y = build(*xs)
        inits = [(_rng(seed + i).standard_normal(s) * spread).astype(dtype)
                 for i, s in enumerate(shapes)]
        with tf.Session():
            # compute_gradient feeds only the x it differentiates: the others are extra feeds
            return max(compute_gradient_error(
                x, s, y, out_shape, x_init_value=v, delta=delta,
                extra_feed_dict={o: w for o, w in zip(xs, inits) if o is not x})
                for x, s, v in zip(xs, shapes, inits))


def _distinct(shape, seed):
    """Values far apart (no ties or near-ties in a pooling window)."""
    n = int(np.prod(shape))
    return (_rng(seed).permutation(n).astype(np.float64) * 0.37).reshape(shape)


def test_max_pool_grad_grad_numerical():
    """d MaxPoolGrad / d grad is MaxPoolGradGrad; d / d orig_input is zero."""
    x0 = _distinct([2, 5, 6, 3], 1)
    dy0 = _rng(2).standard_normal([2, 3, 3, 3])
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float64, x0.shape)
        dy = tf.placeholder(tf.float64, dy0.shape)
        y = tf.nn.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
        gx = tf.raw_ops.MaxPoolGrad(orig_input=x, orig_output=y, grad=dy, ksize=[1, 2, 2, 1],
                                    strides=[1, 2, 2, 1], padding="SAME")
        with tf.Session():
            tx, nx = compute_gradient(x, x0.shape, gx, x0.shape, x_init_value=x0, delta=1e-3,
                                      extra_feed_dict={dy: dy0})
            td, nd = compute_gradient(dy, dy0.shape, gx, x0.shape, x_init_value=dy0,
                                      extra_feed_dict={x: x0})
    np.testing.assert_allclose(td, nd, atol=1e-9)
    assert np.abs(td).sum() == pytest.approx(dy0.size)  # each output routes to one input
    assert not tx.any() and np.abs(nx).max() < 1e-9


def test_max_pool_grad_grad_grad_numerical():
    """MaxPoolGradGrad is linear in grad: its gradient there is MaxPoolGrad."""
    x0 = _distinct([1, 6, 4, 2], 3)
    gg0 = _rng(4).standard_normal(x0.shape)
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float64, x0.shape)
        gg = tf.placeholder(tf.float64, x0.shape)
        y = tf.nn.max_pool(x, [1, 3, 2, 1], [1, 2, 2, 1], "VALID")
        o = tf.raw_ops.MaxPoolGradGrad(orig_input=x, orig_output=y, grad=gg, ksize=[1, 3, 2, 1],
                                       strides=[1, 2, 2, 1], padding="VALID")
        with tf.Session():
            err = compute_gradient_error(gg, x0.shape, o, [1, 2, 2, 2], x_init_value=gg0,
                                         extra_feed_dict={x: x0})
    assert err < 1e-9


def test_max_pool_grad_grad_values():
    """Each output takes grad at the first window position equal to the forward max."""
    x = np.array([[1.0, 5.0, 2.0], [5.0, 3.0, 0.0]]).reshape(1, 2, 3, 1)
    gg = np.arange(1.0, 7.0).reshape(1, 2, 3, 1)
    g = tf.Graph()
    with g.as_default():
        y = tf.nn.max_pool(tf.constant(x), [1, 2, 2, 1], [1, 1, 1, 1], "VALID")
        o = tf.raw_ops.MaxPoolGradGrad(orig_input=x, orig_output=y, grad=gg, ksize=[1, 2, 2, 1],
                                       strides=[1, 1, 1, 1], padding="VALID")
        with tf.Session() as sess:
            got = sess.run(o)
    np.testing.assert_array_equal(got.ravel(), [2.0, 2.0])


def test_max_pool_grad_nan_and_padding():
    """oneDNN's rule, as TensorFlow runs MaxPool + MaxPoolGrad on CPU: the first window
    position until a value beats the type's lowest; an all-NaN window whose first position is
    padding drops its gradient (values as TensorFlow 2.21 gives them)."""
    nan = np.nan
    x = np.array([nan, 1, 2, 3, nan, nan, 5, nan, nan], np.float32).reshape(1, 3, 3, 1)
    dy = np.arange(1, 5, dtype=np.float32).reshape(1, 2, 2, 1)
    g = tf.Graph()
    with g.as_default():
        xp = tf.constant(x)
        valid = tf.gradients(tf.nn.max_pool(xp, 2, 1, "VALID"), xp, dy)[0]
        allnan = tf.constant(np.full([1, 3, 3, 1], nan, np.float32))
        same = tf.gradients(tf.nn.max_pool(allnan, 3, 2, "SAME"), allnan, dy)[0]
        with tf.Session() as sess:
            v, s = sess.run([valid, same])
    np.testing.assert_array_equal(v.ravel(), [0, 0, 2, 1, 4, 0, 3, 0, 0])
    np.testing.assert_array_equal(s.ravel(), [0, 0, 0, 0, 4, 0, 0, 0, 0])


def test_avg_pool_grad_grad_numerical():
    def build(dy):
        return tf.raw_ops.AvgPoolGrad(orig_input_shape=[2, 5, 4, 3], grad=dy, ksize=[1, 3, 2, 1],
                                      strides=[1, 2, 1, 1], padding="SAME")
    assert _err(build, [[2, 3, 4, 3]], [2, 5, 4, 3]) < 1e-9


@pytest.mark.parametrize("fmt", ["NHWC", "NCHW"])
def test_avg_pool_numerical(fmt):
    k, s = ([1, 2, 3, 1], [1, 2, 2, 1]) if fmt == "NHWC" else ([1, 1, 2, 3], [1, 1, 2, 2])
    shape = [2, 5, 6, 3] if fmt == "NHWC" else [2, 3, 5, 6]
    out = [2, 3, 3, 3] if fmt == "NHWC" else [2, 3, 3, 3]

    def build(x):
        return tf.raw_ops.AvgPool(value=x, ksize=k, strides=s, padding="SAME", data_format=fmt)
    assert _err(build, [shape], out) < 1e-9


def test_conv2d_backprop_input_grad_numerical():
    """Conv2DBackpropInput's gradient: Conv2DBackpropFilter for the filter, Conv2D for
    out_backprop (dilated, strided, grouped)."""
    def build(f, dy):
        return tf.raw_ops.Conv2DBackpropInput(input_sizes=[2, 7, 6, 4], filter=f,
                                              out_backprop=dy, strides=[1, 2, 1, 1],
                                              padding="SAME", dilations=[1, 1, 2, 1])
    assert _err(build, [[3, 2, 2, 6], [2, 4, 6, 6]], [2, 7, 6, 4]) < 1e-8


@pytest.mark.parametrize("fmt", ["NHWC", "NCHW"])
def test_conv2d_backprop_filter_grad_numerical(fmt):
    shape = [2, 6, 5, 3] if fmt == "NHWC" else [2, 3, 6, 5]
    dy_shape = [2, 2, 2, 4] if fmt == "NHWC" else [2, 4, 2, 2]
    s = [1, 2, 2, 1] if fmt == "NHWC" else [1, 1, 2, 2]

    def build(x, dy):
        return tf.raw_ops.Conv2DBackpropFilter(input=x, filter_sizes=[3, 2, 3, 4],
                                               out_backprop=dy, strides=s, padding="VALID",
                                               data_format=fmt)
    assert _err(build, [shape, dy_shape], [3, 2, 3, 4]) < 1e-8


def test_conv2d_explicit_grouped_numerical():
    def build(x, f):
        return tf.raw_ops.Conv2D(input=x, filter=f, strides=[1, 1, 2, 1], padding="EXPLICIT",
                                 explicit_paddings=[0, 0, 1, 2, 0, 1, 0, 0])
    assert _err(build, [[2, 4, 5, 4], [2, 3, 2, 6]], [2, 6, 2, 6]) < 1e-8


@pytest.mark.parametrize("fmt", ["NHWC", "NCHW"])
def test_depthwise_dilated_numerical(fmt):
    shape = [1, 7, 7, 3] if fmt == "NHWC" else [1, 3, 7, 7]
    out = [1, 7, 7, 6] if fmt == "NHWC" else [1, 6, 7, 7]
    d = [1, 2, 2, 1] if fmt == "NHWC" else [1, 1, 2, 2]

    def build(x, f):
        return tf.raw_ops.DepthwiseConv2dNative(input=x, filter=f, strides=[1, 1, 1, 1],
                                                padding="SAME", dilations=d, data_format=fmt)
    assert _err(build, [shape, [3, 3, 3, 2]], out) < 1e-8


@pytest.mark.parametrize("kind", ["input", "filter"])
def test_depthwise_backprop_grad_numerical(kind):
    def build(a, dy):
        if kind == "input":
            return tf.raw_ops.DepthwiseConv2dNativeBackpropInput(
                input_sizes=[2, 6, 5, 2], filter=a, out_backprop=dy, strides=[1, 2, 2, 1],
                padding="SAME")
        return tf.raw_ops.DepthwiseConv2dNativeBackpropFilter(
            input=a, filter_sizes=[2, 3, 2, 3], out_backprop=dy, strides=[1, 2, 2, 1],
            padding="SAME")
    a_shape = [2, 3, 2, 3] if kind == "input" else [2, 6, 5, 2]
    out = [2, 6, 5, 2] if kind == "input" else [2, 3, 2, 3]
    assert _err(build, [a_shape, [2, 3, 3, 6]], out) < 1e-8


def test_top_k_numerical():
    def build(x):
        return tf.raw_ops.TopKV2(input=x, k=3)[0]
    assert _err(build, [[4, 2, 7]], [4, 2, 3]) < 1e-9


@pytest.mark.parametrize("version", ["", "V2", "V3"])
@pytest.mark.parametrize("fmt", ["NHWC", "NCHW"])
@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_numerical(version, fmt, training):
    """float32 only (TensorFlow's CPU type): central differences of 1e-2 on O(1) values."""
    shape = [2, 3, 2, 4] if fmt == "NHWC" else [2, 4, 3, 2]

    def build(x, s, o):
        m = tf.constant(np.array([0.1, -0.2, 0.3, 0.0], np.float32))
        v = tf.constant(np.array([1.5, 0.7, 1.0, 2.0], np.float32))
        y = getattr(tf.raw_ops, "FusedBatchNorm" + version)(
            x=x, scale=s, offset=o, mean=m, variance=v, epsilon=0.01, data_format=fmt,
            is_training=training)[0]
        return y * tf.constant(np.cos(np.arange(np.prod(shape))).reshape(shape).astype(
            np.float32))
    err = _err(build, [shape, [4], [4]], shape, dtype=np.float32, delta=1e-2)
    assert err < 2e-3


def test_lrn_numerical():
    def build(x):
        return tf.raw_ops.LRN(input=x, depth_radius=2, bias=1.0, alpha=0.5, beta=0.75)
    assert _err(build, [[1, 2, 2, 6]], [1, 2, 2, 6], dtype=np.float32, delta=1e-2) < 2e-3


def test_lrn_grad_skips_zero_gradients():
    """A channel whose incoming gradient is 0 adds nothing: dx is 0 where no gradient in the
    window is nonzero, even next to an infinite input (TensorFlow's kernel skips them); the
    rest is the formula, by hand."""
    x = np.array([np.inf, 1, 2, 3, 4, 5], np.float32)
    dy = np.array([0, 0, 0, 0, 0, 1], np.float32)
    r, bias, alpha, beta = 1, 1.0, 1.0, 0.5
    norm = lambda j: bias + alpha * np.sum(x[max(0, j - r):j + r + 1].astype(np.float64) ** 2)
    y = np.zeros(6, np.float32)  # only y[5] enters the result
    y[5] = x[5] * norm(5) ** -beta
    want = np.zeros(6)
    for k in (4, 5):
        want[k] = -2 * alpha * beta * x[k] * dy[5] * y[5] / norm(5)
    want[5] += dy[5] * norm(5) ** -beta
    g = tf.Graph()
    with g.as_default():
        o = tf.raw_ops.LRNGrad(input_grads=dy.reshape(1, 1, 1, 6), input_image=x.reshape(
            1, 1, 1, 6), output_image=y.reshape(1, 1, 1, 6), depth_radius=r)
        with tf.Session() as sess:
            got = sess.run(o).ravel()
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_fused_batch_norm_grad_of_grad_is_numerically_right():
    """FusedBatchNormGradV3 is differentiable (as TF's tape of _BatchNormGrad; values vs TF in
    test_bn_second_order.py), here with y_backprop a function of x (inference, whose kernel
    reads the statistics it is given)."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [1, 2, 2, 3])
        v = tf.constant([1.5, 0.5, 2.0])
        dx = tf.raw_ops.FusedBatchNormGradV3(y_backprop=x * x, x=x, scale=v, reserve_space_1=v,
                                             reserve_space_2=v, reserve_space_3=v,
                                             is_training=False)[1]
        assert tf.gradients(dx, x)[0] is not None
        xv = np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(1, 2, 2, 3)
        with tf.Session():
            err = tf.test.compute_gradient_error(x, [1, 2, 2, 3], dx, [3], x_init_value=xv,
                                                 delta=1e-2)
    assert err < 1e-3
