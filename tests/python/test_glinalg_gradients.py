"""Gradients of the reduction, linalg, image and sparse ops against TensorFlow 2.21.

1. The programs of glinalg_cases.py replayed on minitf and compared with
   tests/fixtures/glinalg_gradient_expected.json (written by tools/gen_glinalg_expected.py
   under real TensorFlow): the exact node names, op types and inputs of the backward graph,
   and the gradient values.
2. Numerical float64 checks (minitf.test.compute_gradient_error) of paths the goldens do not
   reach: second order through MatMul / BatchMatMul / Einsum, products with zeros, shapes
   known only at run time.
3. The kernels the gradients added (DynamicStitch, ListDiff, InvertPermutation,
   ResizeBilinearGrad, ResizeNearestNeighborGrad, SparseAddGrad): values and TensorFlow's
   errors.
"""
import json
import os

import numpy as np
import pytest

import minitf as tf
import glinalg_cases

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures",
                       "glinalg_gradient_expected.json")
with open(FIXTURE) as f:
    EXPECTED = json.load(f)


def _compare_values(got, want):
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        if w is None:
            assert g is None, "gradient %d: TensorFlow gives None" % i
            continue
        assert g is not None, "gradient %d: TensorFlow gives %s" % (i, w)
        assert g[0] == w[0], "gradient %d dtype %s, TensorFlow %s" % (i, g[0], w[0])
        tol = 1e-12 if g[0] == "float64" else 2e-6
        np.testing.assert_allclose(np.array(g[1]), np.array(w[1]), rtol=tol, atol=tol)


@pytest.mark.parametrize("case", glinalg_cases.CASES, ids=lambda c: c.name)
def test_gradient_program(case):
    got = case(tf)
    want = EXPECTED[case.name]
    assert sorted(got) == sorted(want)
    _compare_values(got["values"], want["values"])
    if "ops" in want:
        assert got["ops"] == want["ops"]


# ---- numerical checks (float64) ---------------------------------------------------------

def _check(build, delta=1e-5, tol=1e-6):
    """compute_gradient_error of each (x, y[, y_shape]) build returns, at its feeds."""
    g = tf.Graph()
    with g.as_default():
        pairs, feeds = build()
        with tf.Session():
            for pair in pairs:
                x, y = pair[:2]
                y_shape = pair[2] if len(pair) > 2 else y.get_shape().as_list()
                value = feeds[x]
                err = tf.test.compute_gradient_error(
                    x, list(value.shape), y, y_shape, x_init_value=value,
                    delta=delta, extra_feed_dict={k: v for k, v in feeds.items() if k is not x})
                assert err < tol, (x.name, y.name, err)


RS = np.random.RandomState(3)


def _p(shape, name):
    return tf.placeholder(tf.float64, shape, name=name)


def test_hessian_through_matmul_is_w_wt():
    """d/dx of grad(0.5 * |x w|^2) = x w w^T is kron(I, w w^T): the MatMul gradient of the
    MatMul gradient, exact."""
    xv, wv = RS.randn(2, 3), RS.randn(3, 4)
    g = tf.Graph()
    with g.as_default():
        x, w = _p([2, 3], "x"), _p([3, 4], "w")
        z = tf.matmul(x, w)
        gx = tf.gradients(0.5 * tf.reduce_sum(z * z), x)[0]
        with tf.Session():
            theory, numeric = tf.test.compute_gradient(x, [2, 3], gx, [2, 3], x_init_value=xv,
                                                       extra_feed_dict={w: wv})
            mixed = tf.test.compute_gradient_error(w, [3, 4], gx, [2, 3], x_init_value=wv,
                                                   extra_feed_dict={x: xv})
    want = np.kron(np.eye(2), wv @ wv.T)
    np.testing.assert_allclose(theory, want, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(numeric, want, rtol=1e-6, atol=1e-8)
    assert mixed < 1e-8


def test_hessian_through_batch_matmul_adjoint():
    """BatchMatMul(x, y, adj_x): grad_x = y y^T x per batch, so d grad_x[b,i,j] / d x[b,k,l]
    = (y_b y_b^T)[i,k] delta_jl."""
    xv, yv = RS.randn(2, 4, 3), RS.randn(2, 4, 5)
    g = tf.Graph()
    with g.as_default():
        x, y = _p([2, 4, 3], "x"), _p([2, 4, 5], "y")
        z = tf.raw_ops.BatchMatMul(x=x, y=y, adj_x=True)
        gx = tf.gradients(0.5 * tf.reduce_sum(z * z), x)[0]
        with tf.Session():
            theory, numeric = tf.test.compute_gradient(x, [2, 4, 3], gx, [2, 4, 3],
                                                       x_init_value=xv,
                                                       extra_feed_dict={y: yv})
    want = np.zeros((2, 4, 3, 2, 4, 3))
    for b in range(2):
        yy = yv[b] @ yv[b].T
        for j in range(3):
            want[b, :, j, b, :, j] = yy
    want = want.reshape(24, 24).T  # rows: x element, columns: gradient element
    np.testing.assert_allclose(theory, want, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(numeric, want, rtol=1e-6, atol=1e-8)


def test_second_order_batch_matmul_v2_broadcast():
    """Second derivatives through BatchMatMulV2's broadcast reduction (Sum over the batch
    dims BroadcastGradientArgs finds, then Reshape), in both operands."""
    def build():
        x, y = _p([2, 1, 3, 4], "x"), _p([5, 4, 2], "y")
        z = tf.raw_ops.BatchMatMulV2(x=x, y=y)
        f = tf.reduce_sum(tf.sin(z))
        gx, gy = tf.gradients(f, [x, y])
        feeds = {x: RS.randn(2, 1, 3, 4), y: RS.randn(5, 4, 2)}
        return [(x, gx), (y, gx), (x, gy), (y, gy)], feeds
    _check(build)


def test_second_order_einsum():
    def build():
        x, y = _p([2, 3, 4], "x"), _p([2, 4, 5], "y")
        z = tf.raw_ops.Einsum(inputs=[x, y], equation="bij,bjk->bik")
        f = tf.reduce_sum(tf.sin(z))
        gx = tf.gradients(f, x)[0]
        u = _p([3, 4], "u")
        w = tf.raw_ops.Einsum(inputs=[u], equation="ij->ji")
        gu = tf.gradients(tf.reduce_sum(tf.sin(w)), u)[0]
        feeds = {x: RS.randn(2, 3, 4), y: RS.randn(2, 4, 5), u: RS.randn(3, 4)}
        return [(x, gx), (y, gx), (u, gu)], feeds
    _check(build)


def test_gradients_numerically():
    """First-order checks of paths with values the goldens do not cover: zeros in Prod, run-time
    axes, Cumprod exclusive/reverse, Max with fed axes, sparse-dense products."""
    def build():
        pairs, feeds = [], {}
        x = _p([2, 3, 4], "x")
        xv = RS.randn(2, 3, 4)
        xv[0, 1, 2] = 0.0
        xv[1, 0, :2] = 0.0  # two zeros in one product
        feeds[x] = xv
        pairs.append((x, tf.raw_ops.Prod(input=x, axis=[2, 0])))
        pairs.append((x, tf.raw_ops.Prod(input=x, axis=2, keep_dims=True)))
        axes = tf.placeholder(tf.int32, [None], name="axes")
        feeds[axes] = np.array([0, 2], np.int32)
        pairs.append((x, tf.raw_ops.Sum(input=x, axis=axes) * 2.0, [3]))
        pairs.append((x, tf.raw_ops.Mean(input=x, axis=axes), [3]))
        pairs.append((x, tf.raw_ops.Max(input=x, axis=axes), [3]))
        # TensorFlow's Cumprod gradient divides by x (DivNoNan): exact only without zeros
        c = _p([2, 3, 4], "c")
        feeds[c] = RS.uniform(0.5, 2.0, size=(2, 3, 4)) * np.sign(RS.randn(2, 3, 4))
        pairs.append((c, tf.raw_ops.Cumprod(x=c, axis=1, exclusive=True, reverse=True)))
        pairs.append((c, tf.raw_ops.Cumprod(x=c, axis=-1)))
        pairs.append((x, tf.raw_ops.Cumsum(x=x, axis=-1, exclusive=True)))
        v, b = _p([4], "v"), _p([3, 4], "b")
        feeds[v], feeds[b] = RS.randn(4), RS.randn(3, 4)
        idx = tf.constant([[0, 1], [1, 0], [2, 3], [3, 3]], tf.int64)
        for aa, ab in [(False, True), (True, True)]:
            prod = tf.raw_ops.SparseTensorDenseMatMul(
                a_indices=idx, a_values=v, a_shape=tf.constant([4, 4], tf.int64), b=b,
                adjoint_a=aa, adjoint_b=ab)
            pairs += [(v, prod), (b, prod)]
        im = _p([1, 3, 4, 2], "im")
        feeds[im] = RS.randn(1, 3, 4, 2)
        pairs.append((im, tf.raw_ops.ResizeNearestNeighbor(images=im, size=[5, 3],
                                                           half_pixel_centers=True)))
        return pairs, feeds
    _check(build)


def test_resize_bilinear_numerically_float32():
    """ResizeBilinear outputs float32 for every input type: a float32 check, looser."""
    g = tf.Graph()
    with g.as_default():
        im = tf.placeholder(tf.float32, [1, 3, 4, 2], name="im")
        for attrs in ({}, {"align_corners": True}, {"half_pixel_centers": True}):
            y = tf.raw_ops.ResizeBilinear(images=im, size=[5, 3], **attrs)
            with tf.Session():
                err = tf.test.compute_gradient_error(
                    im, [1, 3, 4, 2], y, [1, 5, 3, 2],
                    x_init_value=RS.randn(1, 3, 4, 2).astype(np.float32), delta=1e-2)
            assert err < 2e-3, (attrs, err)


# ---- the kernels the gradients use (values and errors as TensorFlow 2.21 gives them) -------

def _run(fetch, feeds=None):
    with tf.Session() as sess:
        return sess.run(fetch, feeds or {})


def _error(fn, match, cls=None):
    g = tf.Graph()
    with g.as_default():
        with pytest.raises(cls or tf.errors.InvalidArgumentError, match=match):
            _run(fn())


def test_dynamic_stitch_values():
    g = tf.Graph()
    with g.as_default():
        merged = tf.raw_ops.DynamicStitch(indices=[tf.constant([0, 2]), tf.constant([1])],
                                          data=[tf.constant([[1., 2], [3, 4]]),
                                                tf.constant([[5., 6]])])
        # later inputs win; rows no index names are zeros
        over = tf.raw_ops.DynamicStitch(indices=[tf.constant([0, 3]), tf.constant([0])],
                                        data=[tf.constant([1., 2]), tf.constant([5.])])
        scalars = tf.raw_ops.DynamicStitch(indices=[tf.constant(0), tf.constant([1, 2])],
                                           data=[tf.constant(7), tf.constant([8, 9])])
        empty = tf.raw_ops.DynamicStitch(indices=[tf.zeros([0], tf.int32)],
                                         data=[tf.zeros([0, 3])])
        words = tf.raw_ops.DynamicStitch(indices=[tf.constant([1]), tf.constant([0, 1])],
                                         data=[tf.constant(["a"]), tf.constant(["bb", "ccc"])])
        assert merged.get_shape().as_list() == [3, 2]  # indices folded at construction
        m, o, s, e, w = _run([merged, over, scalars, empty, words])
    np.testing.assert_array_equal(m, [[1, 2], [5, 6], [3, 4]])
    np.testing.assert_array_equal(o, [5, 0, 0, 2])
    np.testing.assert_array_equal(s, [7, 8, 9])
    assert e.shape == (0, 3)
    assert list(w) == [b"bb", b"ccc"]


def test_dynamic_stitch_errors():
    i = lambda v: tf.placeholder_with_default(tf.constant(v, tf.int32), None)  # noqa: E731
    _error(lambda: tf.raw_ops.DynamicStitch(indices=[i([0, 2]), i([-1])],
                                            data=[tf.constant([1., 2]), tf.constant([5.])]),
           r"indices\[0\] is out of range")
    _error(lambda: tf.raw_ops.DynamicStitch(
        indices=[i([0, 2]), i([1])],
        data=[tf.placeholder_with_default(tf.constant([1., 2, 3]), None), tf.constant([5.])]),
        r"data\[0\].shape = \[3\] does not start with indices\[0\].shape = \[2\]")
    _error(lambda: tf.raw_ops.DynamicStitch(
        indices=[i([0, 2]), i([1])],
        data=[tf.placeholder_with_default(tf.constant([[1.], [2]]), None),
              tf.placeholder_with_default(tf.constant([[5., 6]]), None)]),
        r"Need data\[0\].shape\[1:\] = data\[1\].shape\[1:\], got data\[0\].shape = \[2,1\], "
        r"data\[1\].shape = \[1,2\], indices\[0\].shape = \[2\], indices\[1\].shape = \[1\]")


def test_list_diff_and_invert_permutation():
    g = tf.Graph()
    with g.as_default():
        out, idx = tf.raw_ops.ListDiff(x=[1, 2, 3, 2, 4], y=[2, 5], out_idx=tf.int64)
        fout, fidx = tf.raw_ops.ListDiff(x=[1., 2., float("nan")], y=[float("nan"), 2.])
        inv = tf.raw_ops.InvertPermutation(x=tf.constant([2, 0, 1], tf.int64))
        inv32 = tf.raw_ops.InvertPermutation(x=[3, 0, 2, 1])
        r = _run([out, idx, fout, fidx, inv, inv32])
    np.testing.assert_array_equal(r[0], [1, 3, 4])
    assert r[1].dtype == np.int64
    np.testing.assert_array_equal(r[1], [0, 2, 4])
    np.testing.assert_array_equal(r[2], [1., np.nan])  # a NaN in y removes nothing
    np.testing.assert_array_equal(r[3], [0, 2])
    np.testing.assert_array_equal(r[4], [1, 2, 0])
    np.testing.assert_array_equal(r[5], [1, 3, 2, 0])
    v = lambda x: tf.placeholder_with_default(tf.constant(x), None)  # noqa: E731
    _error(lambda: tf.raw_ops.ListDiff(x=v([[1]]), y=v([1]))[0], "x should be a 1D vector.")
    _error(lambda: tf.raw_ops.ListDiff(x=v([1]), y=v([[1]]))[0], "y should be a 1D vector.")
    _error(lambda: tf.raw_ops.InvertPermutation(x=v([[0]])),
           "invert_permutation expects a 1D vector.")
    _error(lambda: tf.raw_ops.InvertPermutation(x=v([0, 3, 1])), "3 is not between 0 and 3")
    _error(lambda: tf.raw_ops.InvertPermutation(x=v([0, 0, 1])), "0 is duplicated in the input.")


G134 = (np.arange(12, dtype=np.float32).reshape(1, 3, 4, 1) - 5) / 4


@pytest.mark.parametrize("attrs,bilinear,nearest", [
    ({}, [-1.5833333283662796, -1.0833333358168602, -0.666666679084301, 0.8333333283662796,
          1.458333320915699, 2.541666656732559], [-2.5, -0.5, 0.0, 1.75, 1.25, 1.5]),
    ({"align_corners": True},
     [-1.7083333134651184, -1.0833333283662796, -0.458333358168602, 0.9583333134651184,
      1.5833332687616348, 2.2083333879709244], [-1.25, -1.75, -0.5, 0.5, 2.5, 2.0]),
    ({"half_pixel_centers": True},
     [-1.749999988824129, -1.015625, -0.4843749813735485, 0.9999999925494194,
      1.4843749403953552, 2.265624962747097], [-1.25, -1.75, -0.5, 0.5, 2.5, 2.0]),
])
def test_resize_grad_kernels(attrs, bilinear, nearest):
    """Values from TensorFlow 2.21 (float products, a float64 output for a float64 image)."""
    g = tf.Graph()
    with g.as_default():
        b = tf.raw_ops.ResizeBilinearGrad(grads=G134, original_image=tf.zeros([1, 2, 3, 1],
                                                                              tf.float64), **attrs)
        n = tf.raw_ops.ResizeNearestNeighborGrad(grads=G134, size=[2, 3], **attrs)
        bv, nv = _run([b, n])
    assert bv.dtype == np.float64 and bv.shape == (1, 2, 3, 1)
    np.testing.assert_allclose(bv.ravel(), bilinear, rtol=1e-15)
    np.testing.assert_array_equal(nv.ravel(), nearest)


def test_resize_grad_kernels_narrow_types_and_errors():
    g = tf.Graph()
    with g.as_default():
        h = tf.raw_ops.ResizeBilinearGrad(grads=G134, original_image=tf.zeros([1, 2, 3, 1],
                                                                              tf.float16),
                                          half_pixel_centers=True)
        i8 = tf.raw_ops.ResizeNearestNeighborGrad(grads=tf.fill([1, 4, 4, 1],
                                                                tf.constant(100, tf.int8)),
                                                  size=[2, 2])
        hv, iv = _run([h, i8])
    np.testing.assert_array_equal(hv.ravel(), [-1.75, -1.015625, -0.484375, 1.0, 1.484375,
                                               2.265625])
    np.testing.assert_array_equal(iv.ravel(), [-112] * 4)  # 400 wraps, as in TensorFlow
    im = lambda shape: tf.zeros(shape)  # noqa: E731
    _error(lambda: tf.raw_ops.ResizeBilinearGrad(grads=G134, original_image=im([1, 0, 2, 1])),
           "original dimensions must be positive")
    _error(lambda: tf.raw_ops.ResizeBilinearGrad(grads=G134[:, :0], original_image=im([1, 2, 2,
                                                                                       1])),
           "resized dimensions must be positive")
    _error(lambda: tf.raw_ops.ResizeBilinearGrad(grads=G134, original_image=im([2, 2, 2])),
           r"original_image must be 4-dimensional\[2,2,2\]")
    _error(lambda: tf.raw_ops.ResizeBilinearGrad(grads=G134, original_image=im([1, 2, 2, 1]),
                                                 align_corners=True, half_pixel_centers=True),
           "If half_pixel_centers is True, align_corners must be False.")
    size = lambda v: tf.placeholder_with_default(tf.constant(v), None)  # noqa: E731
    _error(lambda: tf.raw_ops.ResizeNearestNeighborGrad(grads=G134, size=size([0, 2])),
           "shape_t's elements must be positive")
    _error(lambda: tf.raw_ops.ResizeNearestNeighborGrad(grads=G134, size=size([2, 2, 2])),
           r"shape_t must have two elements\[3\]")
    _error(lambda: tf.raw_ops.ResizeNearestNeighborGrad(
        grads=tf.placeholder_with_default(G134[0], None), size=[2, 2]),
        r"input must be 4-dimensional\[3,4,1\]")


def test_sparse_add_grad_kernel():
    i64 = lambda v: tf.constant(np.array(v, np.int64))  # noqa: E731
    g = tf.Graph()
    with g.as_default():
        a, b = tf.raw_ops.SparseAddGrad(backprop_val_grad=[1., 2., 3., 4.],
                                        a_indices=i64([[0, 0], [1, 1], [2, 0]]),
                                        b_indices=i64([[0, 0], [2, 0], [2, 2]]),
                                        sum_indices=i64([[0, 0], [1, 1], [2, 0], [2, 2]]))
        # entries the sum dropped (thresh) get zeros
        c, d = tf.raw_ops.SparseAddGrad(backprop_val_grad=[5., 6.],
                                        a_indices=i64([[0, 0], [1, 1], [2, 0]]),
                                        b_indices=i64([[0, 1], [2, 0]]),
                                        sum_indices=i64([[0, 0], [2, 0]]))
        r = _run([a, b, c, d])
    for got, want in zip(r, [[1, 2, 3], [1, 3, 4], [5, 0, 6], [0, 6]]):
        np.testing.assert_array_equal(got, want)
    z = lambda *shape: tf.placeholder_with_default(tf.zeros(shape, tf.int64), None)  # noqa: E731
    v = lambda x: tf.placeholder_with_default(tf.constant(x), None)  # noqa: E731
    _error(lambda: tf.raw_ops.SparseAddGrad(backprop_val_grad=[5., 6.], a_indices=z(2, 2),
                                            b_indices=z(2, 3), sum_indices=z(2, 2))[0],
           "The densified operands should have the same ndims; for A, B, sum got: 232")
    _error(lambda: tf.raw_ops.SparseAddGrad(backprop_val_grad=[5., 6., 7.], a_indices=z(2, 2),
                                            b_indices=z(2, 2), sum_indices=z(2, 2))[0],
           r"# elements of backprop_val_grad and # rows of sum_indices should match "
           r"\(#nnz of sum\): got 3 and 2")
    _error(lambda: tf.raw_ops.SparseAddGrad(backprop_val_grad=v([[5., 6.]]), a_indices=z(2, 2),
                                            b_indices=z(2, 2), sum_indices=z(2, 2))[0],
           r"Input backprop_val_grad should be a vector but received shape: \[1,2\]")
    _error(lambda: tf.raw_ops.SparseAddGrad(backprop_val_grad=[5., 6.], a_indices=z(2),
                                            b_indices=z(2, 2), sum_indices=z(2, 2))[0],
           r"Input indices should be matrices but received shapes: \[2\] and \[2,2\] and "
           r"\[2,2\]")


def test_reduced_shape_int64_fed_axes_is_an_error():
    """TensorFlow's DynamicStitch takes int32 indices only: a Sum over int64 axes fed at run
    time has no gradient there (TypeError in TensorFlow), a clear error here."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        axes = tf.placeholder(tf.int64, [None], name="axes")
        y = tf.raw_ops.Sum(input=x, axis=axes, name="sum")
        with pytest.raises((ValueError, TypeError, tf.errors.InvalidArgumentError),
                           match="DynamicStitch"):
            tf.gradients(y, x)
