"""tf.sparse's remaining functions against TensorFlow 2.21 (tests/fixtures/
sparse_more_expected.json, tools/gen_sparse_more_expected.py): the graph TF builds (node names
and types), static shapes, values, and TF's errors; SparseReduceSum's gradient also
numerically."""
import json
import os

import numpy as np
import pytest

import minitf as tf
import sparse_more_cases as cases

with open(os.path.join(os.path.dirname(__file__), "..", "fixtures",
                       "sparse_more_expected.json")) as f:
    EXPECTED = json.load(f)["cases"]


def _message(e):
    return getattr(e, "message", None) or str(e)


@pytest.mark.parametrize("label", sorted(cases.CASES))
def test_case_matches_tensorflow(label):
    want = EXPECTED[label]
    g = tf.Graph()
    with g.as_default():
        if "build_error" in want:
            cls, msg = want["build_error"]
            with pytest.raises(Exception) as info:
                cases.CASES[label](tf)
            assert type(info.value).__name__ == cls
            assert _message(info.value) == msg
            return
        r = cases.CASES[label](tf)
        assert cases.node_list(g) == want["nodes"]
        p = cases.parts(tf, r)
        assert {k: cases.static_shape(t) for k, t in p.items()} == want["static_shapes"]
        with tf.Session() as sess:
            if "run_error" in want:
                cls, msg = want["run_error"]
                with pytest.raises(tf.errors.OpError) as info:
                    sess.run(p)
                assert type(info.value).__name__ == cls
                node = msg.split("\n")[0][len("Node: '"):-1]
                assert info.value.op is not None and info.value.op.name == node
                assert msg.split("\n")[1] in _message(info.value)
                return
            vals = sess.run(p)
    assert {k: cases.jsonable(v) for k, v in vals.items()} == want["values"]


def test_sparse_reduce_sum_gradient_is_numerically_right():
    with tf.Graph().as_default():
        v = tf.placeholder(tf.float64, [4])
        sp = tf.SparseTensor([[0, 1], [0, 3], [1, 2], [2, 0]], v, [3, 4])
        w = tf.constant([[1.0], [-2.0], [0.5]], tf.float64)
        y = tf.reduce_sum(tf.sparse.reduce_sum(sp, 1, keepdims=True) ** 2 * w)
        grad = tf.gradients(y, v)[0]
        x0 = np.array([0.3, -1.2, 2.0, 0.7])
        with tf.Session() as sess:
            analytic = sess.run(grad, {v: x0})
            numeric = np.zeros(4)
            for i in range(4):
                d = np.zeros(4)
                d[i] = 1e-6
                numeric[i] = (sess.run(y, {v: x0 + d}) - sess.run(y, {v: x0 - d})) / 2e-6
    np.testing.assert_allclose(analytic, numeric, rtol=1e-6)


def test_deserialize_many_sparse_survives_corrupt_bytes():
    """Flipped bits and truncations of TF-valid serialized rows give a SparseTensor or
    InvalidArgumentError, never a crash (run under ASan by make asan-pytest)."""
    rng = np.random.RandomState(0)
    with tf.Graph().as_default():
        rows = tf.serialize_many_sparse(tf.SparseTensor([[0, 1, 0], [1, 0, 1]], [1.5, -2.0],
                                                        [2, 3, 2]))
        feed = tf.placeholder(tf.string, [None, 3])
        out = tf.deserialize_many_sparse(feed, tf.float32)
        with tf.Session() as sess:
            good = sess.run(rows)
            got = sess.run(out, {feed: good})
            np.testing.assert_array_equal(got.indices, [[0, 1, 0], [1, 0, 1]])
            np.testing.assert_array_equal(got.dense_shape, [2, 3, 2])
            outcomes = set()
            for trial in range(300):
                bad = good.copy()
                r, c = rng.randint(2), rng.randint(3)
                b = bytearray(bad[r, c])
                if trial % 3 == 0 and b:
                    b = b[:rng.randint(len(b))]
                elif b:
                    b[rng.randint(len(b))] ^= 1 << rng.randint(8)
                bad[r, c] = bytes(b)
                try:
                    sess.run(out, {feed: bad})
                    outcomes.add("ok")
                except tf.errors.InvalidArgumentError:
                    outcomes.add("error")
    assert outcomes == {"ok", "error"}
