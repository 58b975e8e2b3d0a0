"""Second derivatives of batch norm (the gradients of FusedBatchNormGrad, V2, V3) against
TensorFlow 2.21 (bn_second_order_cases.py; TF's values in
tests/fixtures/bn_second_order_expected.json, float32 at 1e-5, float16 at 1e-3) and against numerical
Jacobians of the first-order gradients (minitf.test.compute_gradient_error). The fused ops
take no float64 data (TF's OpDefs), so the numerical check runs in float32 with a large
step (errors are about 1e-5 at delta 1e-2; asserted below 1e-3)."""
import json
import os

import numpy as np
import pytest

import minitf as tf
import bn_second_order_cases as cases

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures",
                       "bn_second_order_expected.json")
with open(FIXTURE) as f:
    EXPECTED = json.load(f)["cases"]


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_second_derivatives_equal_tensorflows(name):
    got = cases.run(tf, name)
    assert len(got) == len(EXPECTED[name]) == 3
    for g, w in zip(got, EXPECTED[name]):
        assert (g is None) == (w is None)
        if w is not None:
            tol = 1e-5 if cases.dtype(name) == np.float32 else 1e-3
            np.testing.assert_allclose(g, w, rtol=tol, atol=tol)


def _backward_ops(name):
    with tf.Graph().as_default() as graph:
        cases.build(tf, name)
        return [op for op in graph.get_operations() if "FusedBatchNormGrad" in op.name]


def test_backward_graph_is_primitive_ops_under_the_grad_scope():
    ops = _backward_ops("v3_train_nchw")
    types = {op.type for op in ops if "_grad/FusedBatchNormGradV3_grad/" in op.name}
    assert {"Mean", "SquaredDifference", "StopGradient", "Rsqrt", "Reciprocal", "Squeeze",
            "RsqrtGrad", "ReciprocalGrad"} <= types
    assert not any(t.startswith("FusedBatchNorm") for t in types)


@pytest.mark.parametrize("name", ["v3_train_nhwc", "v3_train_nchw", "v3_infer_nchw",
                                  "v3_train_nhwc_square"])
def test_gradient_of_the_gradient_is_numerically_right(name):
    xv = cases._data(name)[0]
    scale_v = cases.SCALE.astype(np.float32)
    with tf.Graph().as_default():
        x = tf.constant(xv)
        scale = tf.constant(scale_v)
        offset = tf.constant(cases.OFFSET.astype(np.float32))
        g = cases.first_order(tf, name, x, scale, offset)
        with tf.Session():
            for gi in g[:2]:
                err = tf.test.compute_gradient_error(
                    [x, scale], [list(xv.shape), list(scale_v.shape)], gi,
                    gi.shape.as_list(), x_init_value=[xv, scale_v], delta=1e-2)
                assert err < 1e-3, err
