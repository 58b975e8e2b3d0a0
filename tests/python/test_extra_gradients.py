"""DynamicStitch's and ResourceGatherNd's gradients against TensorFlow 2.21
(extra_gradient_cases.py; TF's values and backward nodes in
tests/fixtures/extra_gradient_expected.json): the same values, the same IndexedSlices-or-dense
result, the same backward nodes."""
import json
import os

import numpy as np
import pytest

import minitf as tf
import extra_gradient_cases as cases

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures",
                       "extra_gradient_expected.json")
with open(FIXTURE) as f:
    EXPECTED = json.load(f)["cases"]


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_gradient_equals_tensorflows(name):
    got, want = cases.run(tf, name), EXPECTED[name]
    for g, w in zip(got["values"], want["values"]):
        np.testing.assert_allclose(g, w, rtol=1e-12)
    assert got["sparse"] == want["sparse"]
    assert got["nodes"] == want["nodes"]


def test_stitched_gradient_by_hand():
    # rows 0, 4, 2 of the weights go to a; rows 1, 3 to b
    got = cases.run(tf, "dynamic_stitch")["values"]
    w = np.cos(np.arange(10.0)).reshape(5, 2)
    np.testing.assert_allclose(got[0], w[[0, 4, 2]])
    np.testing.assert_allclose(got[1], w[[1, 3]])


@pytest.mark.parametrize("axis,want", [(1, 1.0 / 6), (0, 1.0 / 2), (-1, 1.0 / 5), ([1], 1.0 / 6),
                                       ((0, 1), 1.0 / 12)])
def test_mean_gradient_with_unknown_dim_and_int_axis(axis, want):
    # A dimension unknown at construction makes _MeanGrad count at run time: a scalar axis
    # gathers a scalar count (reduced over no axis), a list a vector (TF 2.21 gives the same).
    import numpy as np
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 6, 5])
        dx = tf.gradients(tf.reduce_mean(x, axis), x)[0]
        with tf.Session() as sess:
            got = sess.run(dx, {x: np.ones((2, 6, 5), np.float32)})
    np.testing.assert_allclose(got, np.full((2, 6, 5), want, np.float32), rtol=1e-6)


@pytest.mark.parametrize("use_resource", [True, False])
def test_variables_slice_compare_and_differentiate_like_tensors(use_resource):
    # TF's Variable overloads every Tensor operator on its value, slicing included (worked by
    # hand: sum(v[1:] * 2) + r[1, 0] + count(v > 1.5) = 10 + 3 + 2).
    import numpy as np
    g = tf.Graph()
    with g.as_default():
        v = tf.get_variable("v", initializer=tf.constant([1.0, 2.0, 3.0]),
                            use_resource=use_resource)
        r = tf.get_variable("r", initializer=tf.constant([[1.0, 2.0], [3.0, 4.0]]),
                            use_resource=use_resource)
        y = tf.reduce_sum(v[1:] * 2.0) + r[1, 0] + tf.reduce_sum(tf.cast(v > 1.5, tf.float32))
        dv, dr = tf.gradients(y, [v, r])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            got = sess.run([y, dv, dr, abs(-v), v ** 2])
    assert got[0] == 15.0
    np.testing.assert_array_equal(got[1], [0.0, 2.0, 2.0])
    np.testing.assert_array_equal(got[2], [[0.0, 0.0], [1.0, 0.0]])
    np.testing.assert_array_equal(got[3], [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(got[4], [1.0, 4.0, 9.0])
