"""Gradients of the array, indexing, space and segment ops.

* The backward graphs of garray_gradient_cases.py (transpose, concat, gather, strided slice,
  ...) replayed against what TensorFlow 2.21 built (tests/fixtures/
  garray_gradient_expected.json, written by tools/gen_garray_gradient_expected.py): node
  names, op types, inputs, and the gradient values.
* float64 numerical checks (minitf.test.compute_gradient_error) for cases the gradient
  goldens do not cover: masks, batch dims, second order, IndexedSlices paths.
* TensorFlow's errors and messages (PreventGradient, CheckNumerics, UnsortedSegmentSum).
"""
import json
import os

import numpy as np
import pytest

import minitf as tf
import garray_gradient_cases

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures",
                       "garray_gradient_expected.json")
with open(FIXTURE) as f:
    EXPECTED = json.load(f)


# Where a C gradient receives an IndexedSlices, tf.gradients densifies it once, in the
# gradient's scope ("mul_grad/strided_slice", "mul_grad/UnsortedSegmentSum"); TensorFlow's
# Python gradient densifies it as an input of each node that takes it ("mul_grad/Mul/x",
# "mul_grad/Mul_1/y"). For these cases (scope: the op gradient where that happens) the
# rest of the graph is compared node for node and that scope by what it computes (values).
DENSIFIED_ONCE = {"gather_needs_dense": "gradients/mul_grad/"}


@pytest.mark.parametrize("case", garray_gradient_cases.CASES, ids=lambda c: c.__name__)
def test_backward_graph_matches_tensorflow(case):
    got = case(tf)
    want = EXPECTED[case.__name__]
    assert sorted(got) == sorted(want)
    scope = DENSIFIED_ONCE.get(case.__name__)
    if scope:
        assert [op for op in got["ops"] if not op[0].startswith(scope)] == \
            [op for op in want["ops"] if not op[0].startswith(scope)]
        dense = [op for op in got["ops"] if op[1] == "UnsortedSegmentSum"]
        assert [op[0] for op in dense] == [scope + "UnsortedSegmentSum"]
        assert sum(dense[0][0] + ":0" in op[2] for op in got["ops"]) == 2
    else:
        assert got["ops"] == want["ops"]
    assert got["names"] == want["names"]
    assert got.get("forward") == want.get("forward")
    assert len(got["values"]) == len(want["values"])
    for g, w in zip(got["values"], want["values"]):
        assert (g is None) == (w is None)
        if g is not None:
            assert g[0] == w[0]
            np.testing.assert_allclose(np.array(g[1]), np.array(w[1]), rtol=1e-6, atol=1e-6)


# ---- numerical checks (float64) -------------------------------------------------------

def _rng(shape, seed=0):
    return np.random.RandomState(seed).uniform(-1, 1, shape)


def _error(build, x_shape, seed=0, delta=1e-3):
    """compute_gradient_error of y = build(x) at a random x."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float64, x_shape, name="x")
        y = build(x)
        with tf.Session(graph=g):
            return tf.test.compute_gradient_error(x, x_shape, y, y.shape.as_list(),
                                                  x_init_value=_rng(x_shape, seed),
                                                  delta=delta)


NUMERIC = {
    "transpose": (lambda x: tf.transpose(x, [1, 2, 0]), [2, 3, 4]),
    "concat_three": (lambda x: tf.concat([x, x * x, x[:, :1]], 1), [3, 2]),
    "concat_many": (lambda x: tf.concat([x * float(i) for i in range(18)], 0), [2, 2]),
    "stack_unstack": (lambda x: tf.stack(tf.unstack(x, axis=1)[::-1], axis=0), [2, 3]),
    "split_v": (lambda x: tf.split(x, [1, 3], axis=1)[1] * 2.0, [2, 4]),
    "tile": (lambda x: tf.tile(x * x, [2, 3]), [2, 2]),
    "broadcast_to": (lambda x: tf.broadcast_to(x, [3, 2, 4]), [2, 1]),
    "reverse": (lambda x: tf.reverse(x * x, [0, 1]), [3, 2]),
    "slice": (lambda x: tf.slice(x * x, [1, 0], [2, 2]), [3, 3]),
    "strided_masks": (lambda x: x[::-1, tf.newaxis, ..., 1:], [3, 2, 3]),
    "strided_shrink": (lambda x: x[1, ::2] * x[2, 1::2], [4, 4]),
    "gather_axis1_batch": (lambda x: tf.gather(x * x, [[1, 0], [2, 2]], axis=1, batch_dims=1),
                           [2, 3, 2]),
    "gather_nd": (lambda x: tf.gather_nd(x, [[0, 1], [2, 0], [0, 1]]), [3, 2, 2]),
    "gather_nd_rows": (lambda x: tf.gather_nd(x * x, [[2], [0], [2]]), [3, 2]),
    "scatter_nd": (lambda x: tf.scatter_nd([[1], [3], [1]], x, [4, 2]), [3, 2]),
    "pad_v2": (lambda x: tf.pad(x * x, [[1, 2], [0, 1]], constant_values=3.0), [2, 2]),
    "mirror_reflect": (lambda x: tf.pad(x, [[2, 1], [1, 1]], mode="REFLECT"), [3, 3]),
    "mirror_symmetric": (lambda x: tf.pad(x * x, [[2, 2], [0, 3]], mode="SYMMETRIC"), [2, 3]),
    "space_to_batch": (lambda x: tf.space_to_batch_nd(x * x, [2, 2], [[0, 0], [0, 2]]),
                       [1, 2, 2, 1]),
    "batch_to_space": (lambda x: tf.batch_to_space_nd(x, [2, 1], [[1, 0], [0, 0]]),
                       [4, 2, 1, 1]),
    "space_depth": (lambda x: tf.depth_to_space(tf.space_to_depth(x * x, 2), 2), [1, 2, 4, 1]),
    "segment_sum": (lambda x: tf.math.unsorted_segment_sum(x * x, [[1, -1], [0, 1]], 3),
                    [2, 2, 2]),
    "fill": (lambda x: tf.fill([2, 3], tf.reduce_sum(x)), [2]),
    "check_numerics": (lambda x: tf.debugging.check_numerics(x * x, "m"), [3]),
}


@pytest.mark.parametrize("name", sorted(NUMERIC))
def test_numerical_gradient(name):
    build, shape = NUMERIC[name]
    assert _error(build, shape) < 1e-7


def test_second_order_through_gradient_kernels():
    """Gradients of StridedSliceGrad and MirrorPadGrad (their dy): the slice / pad again,
    checked numerically through a function of the first gradient."""
    def through_first_gradient(x):
        y = x[1:, ::2] ** 2 + tf.pad(x, [[1, 1], [2, 0]], mode="SYMMETRIC")[1:3, 1:3] ** 2
        return tf.gradients(tf.reduce_sum(y * y), x)[0] * x
    # quartic in x: a small step keeps the central differences' truncation error down
    assert _error(through_first_gradient, [3, 3], delta=1e-5) < 1e-6


def test_gather_gradient_values_by_hand():
    """d sum(w * gather(x, i)) / dx adds w's rows at the gathered rows (repeats add)."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float64, [4, 2], name="x")
        w = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        y = tf.reduce_sum(tf.gather(x, [2, 0, 2]) * w)
        (grad,) = tf.gradients(y, [x])
        assert isinstance(grad, tf.IndexedSlices)
        with tf.Session(graph=g) as sess:
            dense = sess.run(tf.convert_to_tensor(grad), {x: np.zeros([4, 2])})
    np.testing.assert_array_equal(dense, [[3, 4], [0, 0], [6, 8], [0, 0]])


def test_convert_indexed_slices_to_tensor():
    """tf.convert_to_tensor(IndexedSlices) sums repeated rows (UnsortedSegmentSum) and keeps
    the dense shape; negative dense rows are dropped like TensorFlow's densification."""
    g = tf.Graph()
    with g.as_default():
        s = tf.IndexedSlices(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
                             tf.constant([3, 0, 3]), tf.constant([5, 2]))
        dense = tf.convert_to_tensor(s)
        assert dense.op.type == "UnsortedSegmentSum"
        with tf.Session(graph=g) as sess:
            value = sess.run(dense)
    np.testing.assert_array_equal(value, [[3, 4], [0, 0], [0, 0], [6, 8], [0, 0]])


def test_gradient_through_gather_needs_dense_values():
    """reduce_sum(gather(x * 3, i)) * w: the Mul's gradient densifies the IndexedSlices."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [3, 2], name="x")
        w = tf.placeholder(tf.float32, [], name="w")
        y = tf.reduce_sum(tf.gather(x * 3.0, [2, 2, 1])) * w
        gx, gw = tf.gradients(y, [x, w])
        with tf.Session(graph=g) as sess:
            vx, vw = sess.run([gx, gw], {x: np.arange(6, dtype=np.float32).reshape(3, 2),
                                         w: 0.5})
    np.testing.assert_allclose(vx, [[0, 0], [1.5, 1.5], [3, 3]])
    np.testing.assert_allclose(vw, 3 * (4 + 5 + 4 + 5 + 2 + 3))


def test_resource_gather_gradient_trains_rows():
    """The ResourceGather gradient (IndexedSlices on the handle) densified equals the
    gathered rows' weights; gradients of a gather of a variable reach the variable."""
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(np.ones([4, 3], np.float32), name="v")
        y = tf.gather(v, [1, 1, 3])
        assert y.op.type == "ResourceGather"
        (grad,) = tf.gradients(tf.reduce_sum(y * 2.0), [v])
        assert isinstance(grad, tf.IndexedSlices)
        assert grad.dense_shape.op.type == "Const"
        with tf.Session(graph=g) as sess:
            sess.run(v.initializer)
            value = sess.run(tf.convert_to_tensor(grad))
    np.testing.assert_array_equal(value, [[0] * 3, [4] * 3, [0] * 3, [2] * 3])


# ---- errors and messages ------------------------------------------------------------

def test_prevent_gradient_raises_lookup_error():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        y = tf.raw_ops.PreventGradient(input=x, message="no second order here")
        with pytest.raises(LookupError) as e:
            tf.gradients(y, x)
        assert str(e.value) == "Gradient explicitly disabled. Reason: b'no second order here'"


def test_not_differentiable_ops():
    """TensorFlow has no gradient for Unique and Bitcast (LookupError), and returns None for
    OneHot's on/off values and through Range."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [3], name="x")
        with pytest.raises(LookupError, match="op type: Unique"):
            tf.gradients(tf.unique(x)[0], x)
        with pytest.raises(LookupError, match="op type: Bitcast"):
            tf.gradients(tf.bitcast(x, tf.float32), x)
        on = tf.placeholder(tf.float32, [], name="on")
        assert tf.gradients(tf.one_hot([0, 2], 3, on_value=on), on) == [None]
        assert tf.gradients(tf.range(x[0], 5.0), x) == [None]


def test_check_numerics_gradient_message():
    """The gradient's CheckNumerics carries TensorFlow's message (the forward message as
    Python prints bytes) and fails on a NaN gradient."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        y = tf.debugging.check_numerics(x, "it's x") * tf.constant([1.0, np.nan])
        (grad,) = tf.gradients(y, x)
        assert grad.op.type == "CheckNumerics"
        assert grad.op.get_attr("message") == (
            b"Not a number (NaN) or infinity (Inf) values detected in gradient. b\"it's x\"")
        with tf.Session(graph=g) as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="detected in gradient"):
                sess.run(grad, {x: [1.0, 2.0]})


def test_unsorted_segment_sum_values_and_errors():
    g = tf.Graph()
    with g.as_default():
        data = tf.placeholder(tf.float64, [4, 2], name="data")
        ids = tf.placeholder(tf.int64, [4], name="ids")
        y = tf.math.unsorted_segment_sum(data, ids, tf.constant(3, tf.int64))
        assert y.shape.as_list() == [3, 2]
        for dt in (tf.int32, tf.int64, tf.float32):
            z = tf.unsorted_segment_sum(tf.ones([3], dt), [1, 1, 0], 2)
            assert z.dtype == dt
        with tf.Session(graph=g) as sess:
            d = np.arange(8.0).reshape(4, 2)
            np.testing.assert_array_equal(sess.run(y, {data: d, ids: [2, -1, 2, 0]}),
                                          [[6, 7], [0, 0], [4, 6]])
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match=r"segment_ids\[1\] = 3 is out of range \[0, 3\)"):
                sess.run(y, {data: d, ids: [0, 3, 1, 1]})
        with pytest.raises(ValueError, match="must be non-negative but is -1"):
            tf.math.unsorted_segment_sum(data, ids, -1)
        with pytest.raises(ValueError, match="Dimensions must be equal, but are 4 and 3"):
            tf.math.unsorted_segment_sum(data, [0, 1, 2], 3)


def test_gradient_kernels_errors():
    """StridedSliceGrad and MirrorPadGrad check their inputs with TensorFlow's words."""
    g = tf.Graph()
    with g.as_default():
        dy = tf.placeholder(tf.float32, None, name="dy")
        ssg = tf.raw_ops.StridedSliceGrad(shape=[4, 5], begin=[1], end=[3], strides=[1], dy=dy)
        mpg = tf.raw_ops.MirrorPadGrad(input=dy, paddings=[[2, 2]], mode="REFLECT")
        with tf.Session(graph=g) as sess:
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match=r"shape of dy was \[2,4\] instead of \[2,5\]"):
                sess.run(ssg, {dy: np.ones([2, 4])})
            np.testing.assert_array_equal(sess.run(ssg, {dy: np.ones([2, 5])}).sum(axis=1),
                                          [0, 5, 5, 0])
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match="paddings must be less than the output dimension size: "
                                     "2, 2 not less than 1"):
                sess.run(mpg, {dy: np.ones([5])})
            np.testing.assert_array_equal(sess.run(mpg, {dy: np.arange(7.0)}), [8, 9, 4])
