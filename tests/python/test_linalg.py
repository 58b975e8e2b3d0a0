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
