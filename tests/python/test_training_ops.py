"""Every optimizer update op against TensorFlow 2.21: ten steps of each of the Apply*,
ResourceApply*, SparseApply* and ResourceSparseApply* forms on fixed tensors
(tests/python/training_op_cases.py; TF's values in tests/fixtures/training_ops_expected.json,
written by tools/gen_training_ops_expected.py) give TF's variable and slot values: 1e-6
relative to each tensor's largest magnitude in float32, 1e-12 in float64, 4e-3 in float16. Plus the errors of
bad updates, with every variable left unchanged."""
import json
import os

import numpy as np
import pytest

import minitf as tf
import training_op_cases as cases

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures",
                       "training_ops_expected.json")
with open(FIXTURE) as f:
    EXPECTED = json.load(f)["runs"]

# float16: TensorFlow's Eigen::half rounds after every operation, minitf once per update
# (computed in float), so they may part by a few half ulps (2^-11 relative each).
TOL = {"float32": 1e-6, "float64": 1e-12, "float16": 4e-3}


def _params():
    out = []
    for name, base, slots, scalars, attrs in cases.CASES:
        for op_type, ref, sparse in cases.forms(base):
            for dtype in cases.DTYPES:
                out.append(pytest.param(name, op_type, ref, sparse, slots, scalars, attrs, dtype,
                                        id="%s/%s/%s" % (name, op_type, dtype)))
    return out


def test_every_case_has_tensorflow_values():
    assert len(_params()) == len(EXPECTED) == 279


@pytest.mark.parametrize("name,op_type,ref,sparse,slots,scalars,attrs,dtype", _params())
def test_ten_steps_equal_tensorflows(name, op_type, ref, sparse, slots, scalars, attrs, dtype):
    want = EXPECTED["%s/%s/%s" % (name, op_type, dtype)]
    if "error" in want:
        # TensorFlow registers no CPU kernel of this op for the dtype; minitf computes it
        assert (dtype, want["error"]) == ("float16", "InvalidArgumentError")
        pytest.skip("TensorFlow has no %s kernel for %s" % (op_type, dtype))
    got = cases.run(tf, op_type, ref, sparse, slots, scalars, attrs, dtype)
    assert sorted(got) == sorted(want)
    for key in want:
        for k, (g, w) in enumerate(zip(got[key], want[key])):
            w = np.array(w)
            scale = max(float(np.max(np.abs(w))), 1e-30)
            np.testing.assert_allclose(np.array(g), w, rtol=TOL[dtype], atol=TOL[dtype] * scale,
                                       err_msg="%s after step %d" % (key, cases.RECORDED[k]))


def _session_with(ref):
    g = tf.Graph()
    with g.as_default():
        var = tf.Variable(np.ones((3, 2), np.float32), name="w", use_resource=not ref)
        accum = tf.Variable(np.full((3, 2), 0.5, np.float32), name="accum", use_resource=not ref)
    return g, var, accum


@pytest.mark.parametrize("ref", [True, False])
def test_bad_updates_name_the_node_and_change_nothing(ref):
    """Shapes only known at run time (placeholders of unknown shape): InvalidArgumentError with
    TensorFlow's message naming the node, and every variable unchanged."""
    g, var, accum = _session_with(ref)
    arg = (lambda v: v) if ref else (lambda v: v.handle)
    prefix = "" if ref else "Resource"
    with g.as_default():
        raw = tf.raw_ops
        grad = tf.placeholder(tf.float32, None, name="grad")
        lr = tf.placeholder(tf.float32, None, name="lr")
        rows = tf.placeholder(tf.int32, None, name="rows")
        wrong_grad = getattr(raw, prefix + "ApplyAdagrad")(
            var=arg(var), accum=arg(accum), lr=0.1, grad=grad, name="wrong_grad")
        wrong_lr = getattr(raw, prefix + "ApplyAdagrad")(
            var=arg(var), accum=arg(accum), lr=lr, grad=np.ones((3, 2), np.float32),
            name="wrong_lr")
        bad_row = getattr(raw, prefix + "SparseApplyAdagrad")(
            var=arg(var), accum=arg(accum), lr=0.1, grad=np.ones((2, 2), np.float32),
            indices=rows, name="bad_row")
        short_grad = getattr(raw, prefix + "SparseApplyMomentum")(
            var=arg(var), accum=arg(accum), lr=0.1, grad=grad, indices=[0, 1], momentum=0.9,
            name="short_grad")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            errors = [
                (wrong_grad, {grad: np.ones((2, 2))},
                 r"var and grad do not have the same shape\[3,2\] \[2,2\]"),
                (wrong_lr, {lr: [0.1, 0.2]}, r"lr is not a scalar: \[2\]"),
                (bad_row, {rows: [1, 3]}, r"Index 3 at offset 1 in indices is out of range"),
                (short_grad, {grad: np.ones((1, 2))},
                 r"grad must be the same size as indices in the first dimension"),
            ]
            for op, feed, message in errors:
                with pytest.raises(tf.errors.InvalidArgumentError, match=message) as e:
                    sess.run(op, feed)
                assert "node '%s'" % op.name.split(":")[0] in str(e.value)
                np.testing.assert_array_equal(sess.run(var), np.ones((3, 2)))
                np.testing.assert_array_equal(sess.run(accum), np.full((3, 2), 0.5))


@pytest.mark.parametrize("ref", [True, False])
def test_static_shape_mismatch_is_a_value_error(ref):
    """Shapes known when the op is built: TensorFlow's shape-function errors (ValueError)."""
    g, var, accum = _session_with(ref)
    arg = (lambda v: v) if ref else (lambda v: v.handle)
    prefix = "" if ref else "Resource"
    with g.as_default():
        raw = tf.raw_ops
        with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 2"):
            getattr(raw, prefix + "ApplyAdagrad")(var=arg(var), accum=arg(accum), lr=0.1,
                                                  grad=np.ones((2, 2), np.float32))
        with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
            getattr(raw, prefix + "ApplyAdagrad")(var=arg(var), accum=arg(accum), lr=[0.1, 0.2],
                                                  grad=np.ones((3, 2), np.float32))
        with pytest.raises(ValueError, match="Dimensions must be equal, but are 1 and 2"):
            getattr(raw, prefix + "SparseApplyMomentum")(
                var=arg(var), accum=arg(accum), lr=0.1, grad=np.ones((1, 2), np.float32),
                indices=[0, 1], momentum=0.9)
        with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
            getattr(raw, prefix + "SparseApplyAdagrad")(
                var=arg(var), accum=arg(accum), lr=0.1, grad=np.ones((2, 2), np.float32),
                indices=[[0], [1]])


def test_uninitialized_variables_fail_precondition():
    """Ref forms word it as TensorFlow ("Attempting to use uninitialized value w"); for the
    resource forms TensorFlow raises InternalError "Invalid variable reference."; minitf raises
    FailedPrecondition naming the variable, as reading it does."""
    for ref in (True, False):
        g, var, accum = _session_with(ref)
        with g.as_default():
            arg = (lambda v: v) if ref else (lambda v: v.handle)
            op = getattr(tf.raw_ops, ("" if ref else "Resource") + "ApplyMomentum")(
                var=arg(var), accum=arg(accum), lr=0.1, grad=np.ones((3, 2), np.float32),
                momentum=0.9)
            with tf.Session() as sess:
                sess.run(accum.initializer)
                with pytest.raises(tf.errors.FailedPreconditionError,
                                   match="Attempting to use uninitialized value w" if ref
                                   else "Error while reading resource variable w"):
                    sess.run(op)


def test_ref_forms_return_the_updated_variable():
    g, var, accum = _session_with(True)
    with g.as_default():
        out = tf.raw_ops.ApplyMomentum(var=var, accum=accum, lr=0.5,
                                       grad=np.full((3, 2), 2.0, np.float32), momentum=0.5)
        assert out.dtype.base_dtype == tf.float32 and out.dtype._is_ref_dtype
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            # accum = 0.5 * 0.5 + 2 = 2.25; var = 1 - 0.5 * 2.25 = -0.125
            np.testing.assert_array_equal(sess.run(out), np.full((3, 2), -0.125, np.float32))
            np.testing.assert_array_equal(sess.run(accum), np.full((3, 2), 2.25, np.float32))
