"""tf.nn wrappers (pyfront/minitf/ops/nn_ops.py): TF1 signatures, defaults and the values they
compose, checked against formulas worked by hand with NumPy. Op-level values are in the goldens."""
import inspect

import numpy as np
import pytest

import minitf as tf

X = np.float32([[1, 2, 3], [4, 5, 7]])


def run(t, feed=None):
    with tf.Session() as s:
        return s.run(t, feed)


def test_signatures_match_tf1():
    sig = lambda f: str(inspect.signature(f))  # noqa: E731
    assert sig(tf.nn.leaky_relu) == "(features, alpha=0.2, name=None)"
    assert sig(tf.nn.softmax) == "(logits, axis=None, name=None, dim=None)"
    assert sig(tf.nn.top_k) == "(input, k=1, sorted=True, index_type=tf.int32, name=None)"
    assert sig(tf.nn.in_top_k) == "(predictions, targets, k, name=None)"
    assert sig(tf.nn.lrn) == "(input, depth_radius=5, bias=1, alpha=1, beta=0.5, name=None)"
    assert sig(tf.nn.softmax_cross_entropy_with_logits) == \
        "(labels=None, logits=None, dim=-1, name=None, axis=None)"
    assert sig(tf.nn.fused_batch_norm) == (
        "(x, scale, offset, mean=None, variance=None, epsilon=0.001, data_format='NHWC', "
        "is_training=True, name=None, exponential_avg_factor=1.0)")


def test_activation_values():
    with tf.Graph().as_default():
        x = tf.constant(np.float32([-2, -0.5, 0, 3, 8]))
        got = run([tf.nn.relu6(x), tf.nn.leaky_relu(x), tf.nn.softsign(x), tf.nn.elu(x)])
    v = np.float32([-2, -0.5, 0, 3, 8])
    np.testing.assert_array_equal(got[0], [0, 0, 0, 3, 6])
    np.testing.assert_allclose(got[1], np.where(v > 0, v, 0.2 * v), rtol=1e-6)
    np.testing.assert_allclose(got[2], v / (1 + abs(v)), rtol=1e-6)
    np.testing.assert_allclose(got[3], np.where(v < 0, np.expm1(v), v), rtol=1e-6, atol=1e-7)


def test_softmax_dim_alias_and_axis_range():
    with tf.Graph().as_default():
        x = tf.constant(X)
        e = np.exp(X - X.max(1, keepdims=True))
        np.testing.assert_allclose(run(tf.nn.softmax(x, dim=1)), e / e.sum(1, keepdims=True),
                                   rtol=1e-6)
        np.testing.assert_allclose(run(tf.nn.log_softmax(x, axis=-1)),
                                   np.log(e / e.sum(1, keepdims=True)), rtol=1e-5)
        with pytest.raises(tf.errors.InvalidArgumentError, match="must be in the range"):
            tf.nn.softmax(x, axis=2)


def test_losses():
    labels = np.float32([[0, 0, 1], [0.5, 0.5, 0]])
    lsm = X - X.max(1, keepdims=True)
    lsm = lsm - np.log(np.exp(lsm).sum(1, keepdims=True))
    with tf.Graph().as_default():
        dense = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=X)
        v2 = tf.nn.softmax_cross_entropy_with_logits_v2(labels, X)
        sparse = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=np.int32([2, 0]),
                                                                logits=X)
        sparse3 = tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=np.int64([[2], [0]]), logits=X.reshape(2, 1, 3))
        got = run([dense, v2, sparse, sparse3, tf.nn.l2_loss(X)])
        # TF 2.21 takes labels and logits positionally too, and needs both.
        with pytest.raises(ValueError, match="Both `labels` and `logits` must be provided for "
                                             "softmax_cross_entropy_with_logitsReceived"):
            tf.nn.softmax_cross_entropy_with_logits(labels)
        with pytest.raises(ValueError, match=r"`labels.shape.rank` must equal `logits.shape.rank - 1`"):
            tf.nn.sparse_softmax_cross_entropy_with_logits(labels=np.int32([[1, 2]]), logits=X)
    want = -(labels * lsm).sum(1)
    np.testing.assert_allclose(got[0], want, rtol=1e-6)
    np.testing.assert_allclose(got[1], want, rtol=1e-6)
    np.testing.assert_allclose(got[2], [-lsm[0, 2], -lsm[1, 0]], rtol=1e-6)
    assert got[3].shape == (2, 1)
    np.testing.assert_allclose(got[3][:, 0], got[2], rtol=1e-6)
    assert got[4] == np.float32((X ** 2).sum() / 2)


def test_sparse_label_out_of_range_names_value():
    with tf.Graph().as_default():
        lab = tf.placeholder(tf.int32, [2])
        loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=lab, logits=X)
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"Received a label value of 5 which is outside the valid range "
                                 r"of \[0, 3\)\.  Label values: 1 5"):
            run(loss, {lab: [1, 5]})


def test_top_k_in_top_k():
    with tf.Graph().as_default():
        values, indices = tf.nn.top_k(np.float32([[3, 1, 3, 2]]), k=3)
        hit = tf.nn.in_top_k(np.float32([[0.1, 0.9, 0.5], [0.2, 0.3, np.nan]]),
                             np.int64([2, 1]), 2)
        got = run([values, indices, hit])
    np.testing.assert_array_equal(got[0], [[3, 3, 2]])
    np.testing.assert_array_equal(got[1], [[0, 2, 3]])
    np.testing.assert_array_equal(got[2], [True, False])


def test_fused_batch_norm_inference_and_training():
    rng = np.random.RandomState(0)
    x = rng.randn(2, 3, 3, 4).astype(np.float32)
    scale, offset = np.float32([1, 2, 0.5, 1]), np.float32([0, 1, -1, 0.5])
    mean, var = np.float32([0.1, -0.2, 0, 0.3]), np.float32([1, 2, 0.5, 1.5])
    with tf.Graph().as_default():
        infer = tf.nn.fused_batch_norm(x, scale, offset, mean, var, is_training=False)
        train = tf.nn.fused_batch_norm(x, scale, offset)
        gi, gt = run([infer, train])
        with pytest.raises(ValueError, match="must be a 1D tensor"):
            tf.nn.fused_batch_norm(x, scale, offset, is_training=False)
    np.testing.assert_allclose(gi[0], (x - mean) * scale / np.sqrt(var + 1e-3) + offset,
                               rtol=1e-5, atol=1e-5)
    bm, bv = x.reshape(-1, 4).mean(0), x.reshape(-1, 4).var(0)
    np.testing.assert_allclose(gt[0], (x - bm) * scale / np.sqrt(bv + 1e-3) + offset,
                               rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(gt[1], bm, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gt[2], bv * 18 / 17, rtol=1e-5)  # unbiased running variance


def test_bias_add_nchw():
    with tf.Graph().as_default():
        v = np.arange(12, dtype=np.float32).reshape(1, 3, 2, 2)
        got = run(tf.nn.bias_add(v, np.float32([1, 2, 3]), data_format="NCHW"))
    np.testing.assert_array_equal(got, v + np.float32([1, 2, 3])[:, None, None])


def test_fused_batch_norm_builds_tensorflows_nodes():
    # TF 2.21: no name scope; Consts for the missing statistics; the op named FusedBatchNormV3
    x = tf.placeholder(tf.float32, [1, 2, 2, 3], name="x")
    s = tf.placeholder(tf.float32, [3], name="s")
    o = tf.placeholder(tf.float32, [3], name="o")
    tf.nn.fused_batch_norm(x, s, o, is_training=True)
    tf.nn.fused_batch_norm(x, s, o, mean=o, variance=s, is_training=False, name="bn")
    assert [op.name + ":" + op.type for op in tf.get_default_graph().get_operations()] == [
        "x:Placeholder", "s:Placeholder", "o:Placeholder", "Const:Const", "Const_1:Const",
        "FusedBatchNormV3:FusedBatchNormV3", "bn:FusedBatchNormV3"]
    with pytest.raises(ValueError, match="None values not supported."):
        tf.nn.fused_batch_norm(x, s, None, is_training=True)
