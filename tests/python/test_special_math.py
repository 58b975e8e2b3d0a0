"""tf.math's trigonometric, hyperbolic and special functions and composite math functions
against TensorFlow 2.21 (tests/fixtures/special_math_expected.json, written by
tools/gen_special_math_expected.py from tests/python/special_math_cases.py): values over
wide grids (negative, zero, tiny, large, +-inf, NaN, poles), static shapes, the graph's op
names and types, gradient graphs (names, types, data and control inputs) and values, and
the errors TensorFlow raises; gradients are also checked numerically."""
import json
import os

import numpy as np
import pytest

import minitf as tf
import special_math_cases as cases

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures",
                       "special_math_expected.json")
with open(FIXTURE) as f:
    TF = json.load(f)


def _decode(x):
    if isinstance(x, str):
        return float(x)
    if isinstance(x, list):
        return [_decode(v) for v in x]
    return x


# Relative tolerance per dtype: minitf evaluates every real dtype in double and rounds once,
# TensorFlow's float kernels compute in float (a few ulps apart); double results agree to
# ~1e-12 where the functions are well conditioned.
RTOL = {"float32": 2e-5, "float64": 1e-10, "complex64": 2e-5, "complex128": 1e-10,
        "int32": 0, "int64": 0, "bool": 0, "uint8": 0, "int16": 0, "int8": 0, "uint16": 0}
# Near a function's zero or in an underflowing tail the relative error of either side is
# large; absolute errors below this count as equal.
ATOL = {"float32": 1e-33, "float64": 1e-290}
# Values TensorFlow's float (not double) kernels compute with visible error (polygamma's
# float series at negative x is off by orders of magnitude there): minitf's float32 results
# are compared with TensorFlow's float64 ones of the same case (the next output).
FLOAT32_VS_FLOAT64 = {"polygamma"}
# erfinv/ndtri at |x| ~ 1e-20 (and 1/2 + tiny): TensorFlow's Erfinv goes through
# ndtri((x + 1) / 2), which rounds x away and returns 0; minitf returns x sqrt(pi) / 2.
ATOL_CASE = {"erfinv": 1e-19, "composites": 1e-16}
# TensorFlow's complex64 FFT computes in float: its error is relative to the whole sum, so
# small outputs differ by ~1e-6 absolute.
ATOL_CASE_DTYPE = {("fft", "complex64"): 2e-5, ("fft", "complex128"): 1e-12}
WIDE = {"igamma_wide": 1e-9, "betainc": 1e-9, "digamma": 5e-7, "digamma_pos": 1e-9,
        "zeta": 1e-9, "polygamma": 1e-9}


def _close(name, got, want):
    dtype, values = want
    assert got[0] == dtype
    want = np.asarray(_decode(values), dtype=np.float64)
    got = np.asarray(_decode(got[1]), dtype=np.float64)
    assert got.shape == want.shape
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    if name in ("bessel_i0", "bessel_i1"):
        # TensorFlow's double I0/I1 overflow through exp(|x|) from |x| ~ 709.8; minitf's
        # are finite up to |x| ~ 713 (I0(710) = 3.3e306).
        want = np.where(np.isinf(want) & (np.abs(got) > 1e306), got, want)
    inf = np.isinf(want)
    np.testing.assert_array_equal(got[inf], want[inf])
    rtol = RTOL[dtype]
    if dtype.startswith("float"):
        rtol = max(rtol, WIDE.get(name, 0) if dtype == "float64" else rtol)
        if dtype == "float32" and name in ("digamma", "igamma", "igammac", "zeta", "polygamma",
                                           "igamma_wide", "betainc"):
            rtol = 1e-3  # TensorFlow's float series lose a few more bits
    atol = max(ATOL.get(dtype, 1e-30 if rtol else 0), ATOL_CASE.get(name, 0),
               ATOL_CASE_DTYPE.get((name, dtype), 0))
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


@pytest.mark.parametrize("name", sorted(cases.VALUES) + sorted(cases.VALUES_NO_GRAPH))
def test_values_as_tensorflow(name):
    want = TF["values"][name]
    got = cases.run_value(tf, {**cases.VALUES, **cases.VALUES_NO_GRAPH}[name])
    assert got["shapes"] == want["shapes"]
    if name not in cases.VALUES_NO_GRAPH:  # linspace: values and shapes only
        assert got["ops"] == want["ops"]
    assert len(got["values"]) == len(want["values"])
    for i, (g, w) in enumerate(zip(got["values"], want["values"])):
        if name in FLOAT32_VS_FLOAT64 and g[0] == "float32":
            w64 = np.asarray(_decode(want["values"][i + 1][1]), np.float64)
            with np.errstate(over="ignore"):
                w = ["float32", w64.astype(np.float32).astype(np.float64).tolist()]
        _close(name, g, w)


@pytest.mark.parametrize("name", sorted(cases.GRADS))
def test_gradients_as_tensorflow(name):
    want = TF["grads"][name]
    got = cases.run_grad(tf, cases.GRADS[name])
    assert got["ops"] == want["ops"]
    for g, w in zip(got["values"], want["values"]):
        if w is None:
            assert g is None
        else:
            _close(name, g, w)


@pytest.mark.parametrize("name", sorted(cases.ERRORS))
def test_errors_as_tensorflow(name):
    want = TF["errors"][name]
    got = cases.run_error(tf, cases.ERRORS[name])
    assert got is not None and got[0] == want[0]
    if "\t [[{{node" in want[1]:
        # TensorFlow's run-time message carries its Python stack; the kernel's own text (the
        # line before the node) must match.
        lines = want[1].splitlines()
        key = lines[[i for i, l in enumerate(lines) if l.startswith("\t [[{{node")][0] - 1]
        assert key in got[1]
    elif "{{node" in want[1]:
        assert got[1].split(" for '")[0] == want[1].split(" for '")[0]
    else:  # the message names the Python class of the value (TensorFlow's own differs)
        assert got[1].split(" <class")[0] == want[1].split(" <class")[0]


UNARY_NUMERIC = [("acos", -0.8, 0.8), ("asin", -0.8, 0.8), ("atan", -3, 3), ("sinh", -3, 3),
                 ("cosh", -3, 3), ("asinh", -3, 3), ("acosh", 1.2, 4), ("atanh", -0.8, 0.8),
                 ("lgamma", 0.2, 6), ("digamma", 0.3, 6), ("erfc", -2, 2), ("erfinv", -0.9, 0.9),
                 ("ndtri", 0.05, 0.95), ("bessel_i0", -3, 3), ("bessel_i1", -3, 3),
                 ("bessel_i0e", -3, 3), ("bessel_i1e", -3, 3)]


@pytest.mark.parametrize("op,lo,hi", UNARY_NUMERIC)
def test_unary_gradient_numerically(op, lo, hi):
    x0 = np.linspace(lo, hi, 8)  # avoids 0, where TensorFlow's I1 gradient imputes 1
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float64, [8])
        y = getattr(tf.math, op)(x)
        (dx,) = tf.gradients(y, [x])
        with tf.Session() as s:
            got = s.run(dx, {x: x0})
            h = 1e-6
            num = (s.run(y, {x: x0 + h}) - s.run(y, {x: x0 - h})) / (2 * h)
    np.testing.assert_allclose(got, num, rtol=1e-6, atol=1e-8)


BINARY_NUMERIC = [("igamma", (0.5, 4), (0.2, 6), (0, 1)), ("igammac", (0.5, 4), (0.2, 6), (0, 1)),
                  ("zeta", (1.5, 4), (0.5, 3), (1,)), ("polygamma", None, (0.5, 3), (1,)),
                  ("xlogy", (-1, 0.9), (0.2, 2), (0, 1)),
                  ("xdivy", (-1, 0.9), (0.2, 2), (0, 1)), ("xlog1py", (-1, 0.9), (0.2, 2), (0, 1))]


@pytest.mark.parametrize("op,ra,rx,which", BINARY_NUMERIC)
def test_binary_gradient_numerically(op, ra, rx, which):
    a0 = np.array([1.0, 2.0, 3.0]) if ra is None else np.linspace(ra[0], ra[1], 3)
    x0 = np.linspace(rx[0], rx[1], 3)
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float64, [3])
        x = tf.placeholder(tf.float64, [3])
        y = getattr(tf.math, op)(a, x)
        grads = tf.gradients(y, [a, x])
        with tf.Session() as s:
            for i in which:
                got = s.run(grads[i], {a: a0, x: x0})
                h = 1e-6
                d = np.zeros(3)
                num = np.zeros(3)
                for k in range(3):
                    d[:] = 0
                    d[k] = h
                    feeds_p = {a: a0 + d, x: x0} if i == 0 else {a: a0, x: x0 + d}
                    feeds_m = {a: a0 - d, x: x0} if i == 0 else {a: a0, x: x0 - d}
                    num[k] = (s.run(y, feeds_p)[k] - s.run(y, feeds_m)[k]) / (2 * h)
                np.testing.assert_allclose(got, num, rtol=1e-5, atol=1e-8)


def test_betainc_gradient_numerically():
    x0 = np.array([0.2, 0.5, 0.9])
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float64, [3])
        y = tf.math.betainc(tf.constant([0.5, 2.0, 3.5], tf.float64),
                            tf.constant([1.5, 1.0, 2.5], tf.float64), x)
        (dx,) = tf.gradients(y, [x])
        with tf.Session() as s:
            got = s.run(dx, {x: x0})
            num = (s.run(y, {x: x0 + 1e-6}) - s.run(y, {x: x0 - 1e-6})) / 2e-6
    np.testing.assert_allclose(got, num, rtol=1e-6)
