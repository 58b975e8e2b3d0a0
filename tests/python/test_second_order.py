"""Second derivatives through the gradient kernels against TensorFlow 2.21
(second_order_cases.py; TF's values in tests/fixtures/second_order_expected.json, float64,
1e-12) and against numerical Jacobians (minitf.test.compute_gradient_error, float64)."""
import json
import os

import numpy as np
import pytest

import minitf as tf
import second_order_cases as cases

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures",
                       "second_order_expected.json")
with open(FIXTURE) as f:
    EXPECTED = json.load(f)["cases"]


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_second_derivatives_equal_tensorflows(name):
    got = cases.run(tf, name)
    for g, w in zip(got, EXPECTED[name]):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_gradient_of_the_gradient_is_numerically_right(name):
    with tf.Graph().as_default():
        fn, value = cases.CASES[name]
        x = tf.constant(value)
        g = tf.gradients(tf.reduce_sum(fn(tf, x) * cases.W), x)[0]
        with tf.Session():
            err = tf.test.compute_gradient_error(x, list(value.shape), g, list(value.shape),
                                                 x_init_value=value, delta=1e-5)
    assert err < 1e-6
