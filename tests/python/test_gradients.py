"""tf.gradients semantics and the backward graph it builds, against TensorFlow 2.21: the
programs of gradient_cases.py replayed on minitf, compared with
tests/fixtures/gradient_expected.json (written by tools/gen_gradient_expected.py under real
TensorFlow): gradient values, None where TensorFlow gives None, and the exact node names, op
types and inputs of the backward graph."""
import json
import os

import numpy as np
import pytest

import minitf as tf
import gradient_cases

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures",
                       "gradient_expected.json")
with open(FIXTURE) as f:
    EXPECTED = json.load(f)

gradient_cases.register_python_gradients(tf)


def _compare_values(got, want):
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        if w is None:
            assert g is None, "gradient %d: TensorFlow gives None" % i
            continue
        assert g is not None, "gradient %d: TensorFlow gives %s" % (i, w)
        assert g[0] == w[0], "gradient %d dtype %s, TensorFlow %s" % (i, g[0], w[0])
        np.testing.assert_allclose(np.array(g[1]), np.array(w[1]), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("case", gradient_cases.CASES, ids=lambda c: c.__name__)
def test_gradient_program(case):
    got = case(tf)
    want = EXPECTED[case.__name__]
    assert sorted(got) == sorted(want)
    for key in want:
        if key == "values":
            _compare_values(got[key], want[key])
        else:
            assert got[key] == want[key], key


def test_lookup_error_names_the_op():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        with g.gradient_override_map({"Identity": "NoSuchGradientForTest"}):
            z = tf.identity(x, name="ident")
        with pytest.raises(LookupError, match=r"No gradient defined for operation'ident' "
                                              r"\(op type: Identity\)"):
            tf.gradients(z, x)


def test_register_twice_is_a_key_error():
    tf.RegisterGradient("TwiceForTest")(lambda op, g: g)
    with pytest.raises(KeyError, match="Registering two gradient with name 'TwiceForTest'"):
        tf.RegisterGradient("TwiceForTest")(lambda op, g: g)


def test_not_differentiable_gives_none():
    tf.NotDifferentiable("NotDiffForTest")
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        with g.gradient_override_map({"Identity": "NotDiffForTest"}):
            y = tf.identity(x)
        assert tf.gradients(y, x) == [None]


def test_indexed_slices_densify_and_pass_through_identity():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [4, 2], name="x")
        y = tf.identity(x)
        values = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        indices = tf.constant([3, 1])
        slices = tf.IndexedSlices(values, indices, tf.constant([4, 2]))
        (dx,) = tf.gradients(y, x, grad_ys=slices)
        assert isinstance(dx, tf.IndexedSlices)
        assert dx.indices.name == "gradients/grad_ys_0_indices:0"
        with tf.Session() as sess:
            v, i = sess.run([dx.values, dx.indices])
    np.testing.assert_array_equal(v, [[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(i, [3, 1])


def test_compute_gradient_error_float64():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float64, [2, 3])
        w = tf.constant(np.arange(6.0).reshape(3, 2))
        y = tf.matmul(x * x - x, w)
        with tf.Session():
            theory, numeric = tf.test.compute_gradient(
                x, [2, 3], y, [2, 2], x_init_value=np.arange(6.0).reshape(2, 3) / 7)
            err = tf.test.compute_gradient_error(x, [2, 3], y, [2, 2])
    # d y[i, k] / d x[i, j] = (2 x[i, j] - 1) w[j, k]
    xv = np.arange(6.0).reshape(2, 3) / 7
    want = np.zeros((6, 4))
    for i in range(2):
        for j in range(3):
            for k in range(2):
                want[i * 3 + j, i * 2 + k] = (2 * xv[i, j] - 1) * (j * 2 + k)
    np.testing.assert_allclose(theory, want, rtol=1e-12)
    np.testing.assert_allclose(numeric, want, rtol=1e-6, atol=1e-8)
    assert err < 1e-6


@pytest.mark.parametrize("use_resource", [True, False])
def test_hessians_of_a_variable(use_resource):
    # d2/dw2 sum(w^3) = diag(6 w); for x w (x fixed) . w: 2 x^T x ... worked by hand
    with tf.Graph().as_default():
        w = tf.Variable([1.0, 2.0], use_resource=use_resource)
        m = tf.Variable([[1.0, 2.0], [3.0, 4.0]], use_resource=use_resource)
        v = tf.constant([[1.0], [-1.0]])
        h_cube = tf.hessians(tf.reduce_sum(w * w * w), w)[0]
        h_quad = tf.hessians(tf.reduce_sum(tf.square(tf.matmul(m, v))), m)[0]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            np.testing.assert_array_equal(sess.run(h_cube), [[6.0, 0.0], [0.0, 12.0]])
            # L = sum_i (m_i . v)^2: d2L / dm_ij dm_kl = 2 [i == k] v_j v_l
            want = np.zeros((2, 2, 2, 2), np.float32)
            for i in range(2):
                want[i, :, i, :] = 2 * np.outer([1.0, -1.0], [1.0, -1.0])
            np.testing.assert_array_equal(sess.run(h_quad), want)


def test_fetching_indexed_slices_gives_indexed_slices_value():
    with tf.Graph().as_default():
        p = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        g = tf.gradients(tf.reduce_sum(tf.gather(p, [2, 0, 2]) * 3.0), p)[0]
        assert isinstance(g, tf.IndexedSlices)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            got = sess.run(g)
            assert type(got).__name__ == "IndexedSlicesValue"
            np.testing.assert_array_equal(got.values, np.full((3, 2), 3.0))
            np.testing.assert_array_equal(got.indices, [2, 0, 2])
            np.testing.assert_array_equal(got.dense_shape, [3, 2])


def test_grad_ys_of_another_dtype_is_a_type_error():
    with tf.Graph().as_default():
        a = tf.constant([1.0, 2.0])
        with pytest.raises(TypeError, match="does not match type int32"):
            tf.gradients(a * 2.0, a, grad_ys=tf.constant([1, 2]))


def test_softplus_gradient_graph_is_tensorflows():
    # TF 2.21 builds grad * sigmoid(x) (not SoftplusGrad); the op list and values below
    # are what TF printed for the same program.
    with tf.Graph().as_default() as g:
        x = tf.constant([-1.0, 0.5, 3.0])
        dx = tf.gradients(tf.nn.softplus(x), x)[0]
        ddx = tf.gradients(dx, x)[0]
        ops = [op.name + ":" + op.type for op in g.get_operations()]
        assert ops[5:7] == ["gradients/Softplus_grad/Sigmoid:Sigmoid",
                            "gradients/Softplus_grad/mul:Mul"]
        assert ops[-1] == \
            "gradients_1/gradients/Softplus_grad/Sigmoid_grad/SigmoidGrad:SigmoidGrad"
        with tf.Session() as sess:
            got_dx, got_ddx = sess.run([dx, ddx])
    np.testing.assert_allclose(got_dx, [0.26894143, 0.62245935, 0.95257413], rtol=1e-6)
    np.testing.assert_allclose(got_ddx, [0.19661194, 0.23500371, 0.04517666], rtol=1e-6)
