"""tf.linalg (issue 12) against TensorFlow 2.21.

1. The programs of linalg_cases.py replayed on minitf and compared with
   tests/fixtures/linalg_expected.json (written by tools/gen_linalg_expected.py under real
   TensorFlow): values, static shapes, error classes and messages; for gradients the exact
   backward graph (node names, op types, inputs) and the values.
2. Numerical float64 checks (minitf.test.compute_gradient_error) of the linalg gradients.
"""
import json
import os

import numpy as np
import pytest

import minitf as tf
import linalg_cases

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures",
                       "linalg_expected.json")
with open(FIXTURE) as f:
    EXPECTED = json.load(f)


def _close(got, want, what):
    assert got[0] == want[0], "%s: dtype %s, TensorFlow %s" % (what, got[0], want[0])
    g, w = np.array(got[1], dtype=object), np.array(want[1], dtype=object)
    g = np.array(got[1], dtype=np.float64 if got[0] != "bool" else bool)
    w = np.array(want[1], dtype=np.float64 if want[0] != "bool" else bool)
    assert g.shape == w.shape, "%s: shape %s, TensorFlow %s" % (what, g.shape, w.shape)
    if got[0] in ("float32", "complex64"):
        tol = 2e-5
    elif got[0] == "float16":
        tol = 1e-3
    else:
        tol = 1e-10
    np.testing.assert_allclose(g, w, rtol=tol, atol=tol, err_msg=what)


def _compare(got, want):
    assert sorted(got) == sorted(want)
    for key, w in want.items():
        g = got[key]
        if key.startswith("shape:"):
            assert g == w, key
        elif key.startswith("error:"):
            if w is None:
                assert g is None, key
            else:
                assert g is not None, "%s: TensorFlow raises %s" % (key, w)
                assert g[0] == w[0] and g[1] == w[1], "%s: %s, TensorFlow %s" % (key, g, w)
        elif key in ("ops",):
            assert g == w
        elif key == "values":
            assert len(g) == len(w)
            for i, (gv, wv) in enumerate(zip(g, w)):
                assert (gv is None) == (wv is None), i
                if wv is not None:
                    _close(gv, wv, "gradient %d" % i)
        else:
            _close(g, w, key)


@pytest.mark.parametrize("case", linalg_cases.FORWARD, ids=lambda c: c.name)
def test_forward(case):
    _compare(case(tf), EXPECTED[case.name])


@pytest.mark.parametrize("case", linalg_cases.GRAD, ids=lambda c: c.name)
def test_gradient(case):
    _compare(case(tf), EXPECTED[case.name])


# ---- numerical checks (float64) -------------------------------------------------------------

RS = np.random.RandomState(5)


def _spd(n):
    a = RS.randn(n, n)
    return a @ a.T + n * np.eye(n)


@pytest.mark.parametrize("name,build,value", [
    ("inverse", lambda x: tf.linalg.inv(x), RS.randn(3, 3) + 3 * np.eye(3)),
    ("det", lambda x: tf.linalg.det(x), RS.randn(2, 3, 3)),
    ("slogdet", lambda x: tf.linalg.slogdet(x)[1], RS.randn(3, 3) + 3 * np.eye(3)),
    ("cholesky", lambda x: tf.linalg.cholesky(0.5 * (x + tf.linalg.matrix_transpose(x))),
     _spd(3)),
    ("solve", lambda x: tf.linalg.solve(x, tf.constant(RS.randn(3, 2))),
     RS.randn(3, 3) + 3 * np.eye(3)),
    ("triangular", lambda x: tf.linalg.triangular_solve(x, tf.constant(RS.randn(3, 2)),
                                                        lower=False),
     np.triu(RS.randn(3, 3)) + 3 * np.eye(3)),
    ("eigvalsh", lambda x: tf.linalg.eigvalsh(0.5 * (x + tf.linalg.matrix_transpose(x))),
     _spd(3)),
    ("svd_s", lambda x: tf.linalg.svd(x, compute_uv=False), RS.randn(4, 3)),
    ("qr_r", lambda x: tf.linalg.qr(x)[1], RS.randn(4, 3)),
    ("qr_q_wide", lambda x: tf.linalg.qr(x)[0], RS.randn(2, 4)),
    ("set_diag_band", lambda x: tf.linalg.set_diag(x, tf.constant(RS.randn(2, 3)), k=(0, 1)),
     RS.randn(3, 3)),
    ("diag_part_band", lambda x: tf.linalg.diag_part(x, k=(-1, 1), padding_value=0.),
     RS.randn(3, 4)),
    ("cross", lambda x: tf.linalg.cross(x, tf.constant(RS.randn(2, 3))), RS.randn(2, 3)),
])
def test_gradient_numerically(name, build, value):
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float64, value.shape, name="x")
        y = build(x)
        with tf.Session():
            err = tf.test.compute_gradient_error(x, list(value.shape), y,
                                                 y.get_shape().as_list(), x_init_value=value,
                                                 delta=1e-6)
    assert err < 1e-6, (name, err)
