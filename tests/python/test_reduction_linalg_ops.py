"""The TF1 wrappers of the reduction and linalg families (minitf/ops/reduction_ops.py,
linalg_ops.py): signatures/defaults as TensorFlow 2.21's tf.compat.v1, argument aliases, axis=None
and the dispatch of tf.matmul / tf.einsum. Values worked by hand (TensorFlow agrees)."""
import inspect

import numpy as np
import pytest

import minitf as tf


def run(fetches, feed=None):
    with tf.Session() as s:
        return s.run(fetches, feed)


@pytest.fixture(autouse=True)
def graph():
    with tf.Graph().as_default() as g:
        yield g


def test_signatures_match_tensorflow():
    for fn in (tf.reduce_sum, tf.reduce_mean, tf.reduce_prod, tf.reduce_max, tf.reduce_min,
               tf.reduce_all, tf.reduce_any):
        assert str(inspect.signature(fn)) == ("(input_tensor, axis=None, keepdims=None, name=None,"
                                              " reduction_indices=None, keep_dims=None)")
    for fn in (tf.argmax, tf.argmin):
        sig = inspect.signature(fn)
        assert list(sig.parameters) == ["input", "axis", "name", "dimension", "output_type"]
        assert sig.parameters["output_type"].default == tf.int64
    assert str(inspect.signature(tf.math.cumsum)) == \
        "(x, axis=0, exclusive=False, reverse=False, name=None)"
    assert list(inspect.signature(tf.matmul).parameters) == [
        "a", "b", "transpose_a", "transpose_b", "adjoint_a", "adjoint_b", "a_is_sparse",
        "b_is_sparse", "output_type", "grad_a", "grad_b", "name"]  # TF 2.21's
    assert tf.linalg.matmul is tf.matmul and tf.linalg.einsum is tf.einsum
    assert tf.math.reduce_max is tf.reduce_max and tf.math.argmin is tf.argmin


def test_reductions_axis_none_aliases_and_keepdims():
    x = np.float32([[1, 2, 3], [4, 5, 6]])
    got = run([tf.reduce_sum(x), tf.reduce_prod(x, 0), tf.reduce_max(x, reduction_indices=[1]),
               tf.reduce_min(x, -1, keep_dims=True), tf.reduce_mean(x, [0, 1], keepdims=True)])
    assert got[0] == 21
    np.testing.assert_array_equal(got[1], [4, 10, 18])
    np.testing.assert_array_equal(got[2], [3, 6])
    np.testing.assert_array_equal(got[3], [[1], [4]])
    np.testing.assert_array_equal(got[4], [[3.5]])
    b = [[True, False], [True, True]]
    np.testing.assert_array_equal(run(tf.reduce_all(b, 1)), [False, True])
    anyb = run(tf.reduce_any(b))
    assert anyb.dtype == np.bool_ and bool(anyb)
    with pytest.raises(ValueError, match="Cannot specify both 'axis' and 'reduction_indices'"):
        tf.reduce_sum(x, axis=0, reduction_indices=0)
    with pytest.raises(ValueError, match="Cannot specify both 'keepdims' and 'keep_dims'"):
        tf.reduce_sum(x, keepdims=True, keep_dims=True)
    with pytest.raises(ValueError, match="Invalid reduction dimension 2"):
        tf.reduce_sum(x, 2)


def test_reduce_all_axes_of_unknown_shape_with_known_rank():
    p = tf.placeholder(tf.int32, [None, None])
    s = tf.reduce_sum(p, name="total")
    assert s.op.name == "total" and s.shape.as_list() == []
    assert run(s, {p: np.int32([[1, 2], [3, 4]])}) == 10


def test_argmax_argmin_cumsum_cumprod():
    x = np.float32([[1, 5, 5], [7, 0, 7]])
    got = run([tf.argmax(x), tf.argmax(x, 1, output_type=tf.int32), tf.argmin(x, dimension=1),
               tf.math.cumsum(x, 1), tf.math.cumsum(x, 1, exclusive=True, reverse=True),
               tf.math.cumprod([1, 2, 3, 4]), tf.math.cumprod([1, 2, 3, 4], exclusive=True)])
    np.testing.assert_array_equal(got[0], [1, 0, 1])
    assert got[1].dtype == np.int32
    np.testing.assert_array_equal(got[1], [1, 0])
    np.testing.assert_array_equal(got[2], [0, 1])
    np.testing.assert_array_equal(got[3], [[1, 6, 11], [7, 7, 14]])
    np.testing.assert_array_equal(got[4], [[10, 5, 0], [7, 7, 0]])
    np.testing.assert_array_equal(got[5], [1, 2, 6, 24])
    np.testing.assert_array_equal(got[6], [1, 1, 2, 6])
    with pytest.raises(ValueError, match="Cannot specify both 'axis' and 'dimension'"):
        tf.argmax(x, axis=0, dimension=0)


def test_matmul_dispatch():
    a = np.arange(12, dtype=np.float32).reshape(2, 2, 3)
    b = np.arange(6, dtype=np.float32).reshape(3, 2)
    c = tf.matmul(a, b)
    assert c.op.type == "BatchMatMulV2" and c.shape.as_list() == [2, 2, 2]
    d = tf.matmul(a, a, transpose_b=True)
    e = tf.matmul(a[0], b)
    assert e.op.type == "MatMul"
    f = tf.matmul(np.int8([[1, 2]]), np.int8([[3], [4]]), output_type=tf.int32)
    assert f.op.type == "BatchMatMulV3" and f.dtype == tf.int32
    g = tf.constant(a) @ b
    got = run([c, d, e, f, g])
    np.testing.assert_array_equal(got[0], a @ b)
    np.testing.assert_array_equal(got[1], a @ a.transpose(0, 2, 1))
    np.testing.assert_array_equal(got[2], a[0] @ b)
    np.testing.assert_array_equal(got[3], [[11]])
    np.testing.assert_array_equal(got[4], a @ b)
    with pytest.raises(ValueError, match="Only one of transpose_a and adjoint_a"):
        tf.matmul(a, b, transpose_a=True, adjoint_a=True)
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 2"):
        tf.matmul(a, a)


def test_einsum_forms():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = np.arange(12, dtype=np.float32).reshape(3, 4)
    z = np.arange(8, dtype=np.float32).reshape(4, 2)
    got = run([tf.einsum("ij,jk->ik", x, y), tf.einsum("ij,jk", x, y), tf.einsum("ji", x),
               tf.einsum("ij,jk,kl->il", x, y, z, name="chain"), tf.linalg.einsum("ii", y[:, :3])])
    np.testing.assert_array_equal(got[0], x @ y)
    np.testing.assert_array_equal(got[1], x @ y)
    np.testing.assert_array_equal(got[2], x.T)  # implicit: labels in alphabetical order
    np.testing.assert_array_equal(got[3], x @ y @ z)
    assert got[4] == np.trace(y[:, :3])
    with pytest.raises(TypeError, match="Invalid keyword arguments"):
        tf.einsum("ij->ji", x, bogus=1)
    with pytest.raises(ValueError, match="Expected 2 inputs for equation"):
        tf.einsum("ij,jk->ik", x)
