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
