"""Programs over tf.math's trigonometric, hyperbolic and special functions and its composite
math functions, written against the TF1 API so the same code runs on TensorFlow 2.21
(tf.compat.v1 graph mode) and on minitf. tools/gen_special_math_expected.py runs them on
TensorFlow and writes tests/fixtures/special_math_expected.json; test_special_math.py replays
them on minitf and compares.

VALUES: name -> build(tf) returning a list of output tensors (inputs are constants over wide
grids: negative, zero, tiny, large, +-inf, NaN, poles). Recorded: values, dtypes, static
shapes, and every op (name, type) the build made.
GRADS: name -> build(tf, P) returning (ys, xs); the backward graph (name, type, data and
control inputs of every op tf.gradients added) and the gradient values are recorded.
ERRORS: name -> build(tf) that raises at construction or run; the exception class and
message are recorded.
"""
import zlib

import numpy as np

RNG = np.random.RandomState(12)  # module-level grids only (drawn once, at import)


def _rng(key):
    """A generator of its own per case, so a case's inputs do not depend on which cases ran
    before it."""
    return np.random.RandomState(zlib.crc32(key.encode()))

GRID = np.array([-np.inf, -1e10, -100.0, -10.5, -10.0, -3.0, -2.5, -1.0, -0.999, -0.5, -1e-30,
                 0.0, 1e-30, 1e-5, 0.25, 0.5, 0.999, 1.0, 1.0001, 1.5, 2.0, 3.7, 10.0, 30.0,
                 88.0, 100.0, 710.0, 1e10, np.inf, np.nan])
UNIT = np.concatenate([[0.0, 1e-300, 1e-30, 1e-8, 0.025, 0.5, 0.975, 1 - 1e-8, 1.0, 1.5, -0.5,
                        np.nan], RNG.uniform(0, 1, 24)])
SYM = np.concatenate([[-1.0, -0.9999, -0.5, -1e-20, 0.0, 1e-20, 0.3, 0.7, 0.99999, 1.0, 1.01,
                       np.nan], RNG.uniform(-1, 1, 24)])
POS = np.concatenate([[1e-3, 0.1, 0.5, 1.0, 1.5, 3.0, 7.5, 20.0, 55.0, 150.0, 1000.0],
                      RNG.uniform(0, 30, 13)])


def _grid(dtype, values=GRID):
    with np.errstate(over="ignore"):
        return np.asarray(values).astype(dtype)


def _unary(fn_name, values=GRID, module="math"):
    def build(tf):
        fn = getattr(getattr(tf, module) if module else tf, fn_name)
        return [fn(tf.constant(_grid(dt, values)), name="f_%s" % dt) for dt in
                ("float32", "float64")]
    return build


def _binary(fn_name, a, x, dtypes=("float32", "float64")):
    """fn(a[:, None], x[None, :]) broadcast over every pair of the two grids."""
    def build(tf):
        fn = getattr(tf.math, fn_name)
        return [fn(tf.constant(_grid(dt, a)[:, None]), tf.constant(_grid(dt, x)[None, :]))
                for dt in dtypes]
    return build


def _complex_unary(fn_name):
    def build(tf):
        rng = _rng(fn_name)
        z = (rng.uniform(-2, 2, 8) + 1j * rng.uniform(-2, 2, 8)).astype(np.complex128)
        fn = getattr(tf.math, fn_name)
        return [fn(tf.constant(z.astype(np.complex64))), fn(tf.constant(z))]
    return build


A_GRID = np.array([-1.0, 0.0, 1e-3, 0.1, 0.5, 1.0, 2.0, 5.5, 20.0, 100.0, 1000.0, np.inf,
                   np.nan])
X_GRID = np.array([-1.0, 0.0, 1e-5, 0.1, 0.5, 1.0, 2.0, 5.5, 19.0, 25.0, 99.0, 110.0, 1200.0,
                   np.inf, np.nan])
ZX = np.array([0.5, 1.0, 1.0001, 1.5, 2.0, 3.0, 4.5, 10.0, 30.0, 100.0, np.inf, np.nan])
ZQ = np.array([-2.0, -1.5, -1.0, 0.0, 1e-3, 0.5, 1.0, 2.5, 10.0, 1e3, np.inf, np.nan])
PN = np.array([-1.0, 0.0, 0.5, 1.0, 2.0, 3.0, 6.0, 10.0, np.nan])
PX = np.array([-2.5, -1.0, 0.0, 1e-3, 0.3, 1.0, 2.0, 7.5, 30.0, 1e4, np.inf, np.nan])
XL_X = np.array([0.0, -0.0, 1.0, -2.0, 0.5, np.inf, np.nan])
XL_Y = np.array([-1.0, -0.5, 0.0, 1e-30, 0.5, 1.0, 2.0, 1e30, np.inf, np.nan])


def _betainc(tf):
    a = np.array([-1.0, 0.0, 0.0, 1e-3, 0.5, 1.0, 2.0, 5.0, 50.0, 300.0, 1.0, 0.5])
    b = np.array([1.0, 0.0, 2.0, 1e-2, 0.5, 1.0, 3.0, 0.5, 40.0, 200.0, 0.0, 7.0])
    x = np.array([0.0, 0.3, 1e-4, 0.2, 0.5, 0.75, 0.1, 0.999, 0.55, 0.61, 0.5, 1.0])
    out = []
    for dt in ("float32", "float64"):
        A, B, X = (tf.constant(v.astype(dt)) for v in (a, b, x))
        out.append(tf.math.betainc(A, B, X))
        out.append(tf.math.betainc(A, B, tf.constant(np.array(0.4, dt))))
        out.append(tf.math.betainc(tf.constant(np.array(2.5, dt)),
                                   tf.constant(np.array(1.5, dt)), X))
    rng = _rng("betainc")
    grid_a = 10.0 ** rng.uniform(-2, 2.5, 40)
    grid_b = 10.0 ** rng.uniform(-2, 2.5, 40)
    grid_x = rng.uniform(0, 1, 40)
    out.append(tf.math.betainc(tf.constant(grid_a), tf.constant(grid_b), tf.constant(grid_x)))
    return out


def _igamma_wide(tf):
    rng = _rng("igamma_wide")
    a = 10.0 ** rng.uniform(-3, 3, 60)
    x = a * rng.uniform(0, 3, 60)
    return [tf.math.igamma(tf.constant(a), tf.constant(x)),
            tf.math.igammac(tf.constant(a), tf.constant(x)),
            tf.math.igamma(tf.constant(a.astype("float32")), tf.constant(x.astype("float32"))),
            tf.raw_ops.IgammaGradA(a=tf.constant(a), x=tf.constant(x))]


def _composites(tf):
    x = tf.constant(np.array([[1.0, 2.0, 3.0], [-np.inf, -np.inf, -np.inf], [1000.0, 1000.0,
                                                                               -5.0]]))
    y = tf.constant(np.array([[0, 1, 0, 2], [3, 0, 0, 0]], np.int32))
    b = tf.constant(np.array([[True, False], [True, True]]))
    ph = tf.placeholder_with_default(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32), [None, 2])
    v = tf.constant(np.array([[1.0, 2.0, 4.0], [3.0, -1.0, 0.5]], np.float32))
    return [
        tf.reduce_logsumexp(x), tf.reduce_logsumexp(x, axis=1),
        tf.reduce_logsumexp(x, axis=0, keepdims=True), tf.math.reduce_logsumexp(ph, 1),
        tf.reduce_logsumexp(ph), tf.reduce_logsumexp(x, reduction_indices=[1], keep_dims=True),
        tf.count_nonzero(y), tf.count_nonzero(y, axis=1), tf.count_nonzero(b, 0, keepdims=True),
        tf.count_nonzero(input=y, dtype=tf.int32), tf.math.count_nonzero(x > 1.5),
        tf.log_sigmoid(tf.constant(np.array([-100.0, -1.0, 0.0, 2.0, 50.0], np.float32))),
        tf.lbeta(tf.constant(np.array([[1.0, 2.0, 3.0], [0.5, 0.5, 7.0]]))),
        tf.lbeta(tf.constant(np.array([2.0, 3.0], np.float32))),
        tf.scalar_mul(2.5, v), tf.math.scalar_mul(3, tf.constant([1, 2], tf.int32)),
        tf.accumulate_n([v, v, v * 2.0]), tf.accumulate_n([v], name="single"),
        tf.math.reduce_variance(v), tf.math.reduce_variance(v, axis=1, keepdims=True),
        tf.math.reduce_std(v, axis=0), tf.math.polyval([1.0, -2.0, 3.0], v),
        tf.math.polyval([], v), tf.math.reciprocal_no_nan(tf.constant([0.0, 2.0, -4.0])),
        tf.math.divide_no_nan(tf.constant([1.0, 2.0]), tf.constant([0.0, 4.0])),
        tf.arg_max(v, 1), tf.arg_min(v, 0, output_type=tf.int32),
        tf.math.erfcinv(tf.constant(np.array([0.0, 0.1, 1.0, 1.5, 2.0, 2.5]))),
    ]


def _complex_family(tf):
    rng = _rng("complex_family")
    re = rng.uniform(-2, 2, (2, 3))
    im = rng.uniform(-2, 2, (2, 3))
    out = []
    for dt in ("float32", "float64"):
        r, i = tf.constant(re.astype(dt)), tf.constant(im.astype(dt))
        z = tf.complex(r, i)
        out += [z, tf.complex(r, tf.constant(np.array([1.0, -2.0, 0.5], dt))),
                tf.math.real(z), tf.math.imag(z), tf.math.angle(z), tf.math.conj(z),
                tf.abs(z), tf.real(r), tf.imag(r), tf.angle(r), tf.conj(r),
                tf.math.reduce_variance(z, axis=1)]
    zz = tf.constant(np.array([0j, -1 + 0j, 1j, -0.0 - 1j, np.inf + 1j, np.nan + 0j]))
    out += [tf.math.angle(zz), tf.abs(zz)]
    return out


def _safe_binary(tf):
    x = np.array([[np.inf, np.nan, -3.5, 7.25, 0.0]])
    y = np.array([[0.0], [2.0], [-0.0]])
    xi = np.array([7, -7, 7, -7, 0, 2147483647], np.int32)
    yi = np.array([2, 2, -2, -2, 5, -1], np.int32)
    out = []
    for dt in ("float32", "float64"):
        a, b = tf.constant(x.astype(dt)), tf.constant(y.astype(dt))
        out += [tf.math.multiply_no_nan(a, b), tf.truncatemod(a, b + 1.5),
                tf.math.nextafter(a, b), tf.math.nextafter(tf.constant(np.array(1.0, dt)),
                                                           tf.constant(np.array(2.0, dt)))]
    out += [tf.truncatemod(tf.constant(xi), tf.constant(yi)),
            tf.truncatemod(tf.constant(xi.astype(np.int64)), tf.constant(yi.astype(np.int64))),
            tf.math.multiply_no_nan(tf.constant([1 + 1j, np.inf + 0j], tf.complex64),
                                    tf.constant([0j, 2 + 0j], tf.complex64))]
    return out


def _segments(tf):
    data = np.array([[1.0, -2.0], [3.0, 4.0], [np.nan, 0.0], [5.0, 0.0], [-1.0, 7.0]])
    ids = np.array([0, 0, 2, 2, 4], np.int32)
    out = []
    for dt in ("float32", "float64", "int32", "int64"):
        d = tf.constant(np.nan_to_num(data, nan=6.0).astype(dt) if dt.startswith("int")
                        else data.astype(dt))
        for fn in ("segment_sum", "segment_mean", "segment_prod", "segment_max", "segment_min"):
            out.append(getattr(tf.math, fn)(d, tf.constant(ids)))
        u = tf.constant(np.array([3, -1, 0, 3, 1], np.int64))
        for fn in ("unsorted_segment_max", "unsorted_segment_min", "unsorted_segment_prod"):
            out.append(getattr(tf.math, fn)(d, u, 5))
    f = tf.constant(data.astype("float32"))
    u = tf.constant(np.array([3, -1, 0, 3, 1], np.int32))
    out += [tf.math.unsorted_segment_mean(f, u, 4), tf.math.unsorted_segment_sqrt_n(f, u, 4),
            tf.segment_sum(tf.constant([[1, 2], [3, 4]], tf.int32), tf.constant([1, 1])),
            tf.math.segment_max(tf.constant(np.ones([0, 2], np.float32)),
                                tf.constant(np.zeros([0], np.int32))),
            tf.unsorted_segment_max(tf.constant([[1.0, 2.0], [3.0, 4.0]]),
                                    tf.constant([[0, 1], [1, 1]]), 3),
            tf.segment_sum(tf.placeholder_with_default(data, [None, 2]), tf.constant(ids))]
    return out


def _sorting(tf):
    rng = _rng("sorting")
    f = np.array([[3.0, 1.0, 2.0, 1.0], [0.0, -5.0, 5.0, 0.0]], np.float32)
    cube = rng.randint(-5, 5, (2, 3, 4)).astype(np.float64)
    out = [tf.sort(tf.constant(f)), tf.sort(tf.constant(f), direction="DESCENDING"),
           tf.argsort(tf.constant(f)), tf.argsort(tf.constant(f), direction="DESCENDING"),
           tf.sort(tf.constant(cube), axis=1), tf.argsort(tf.constant(cube), axis=0),
           tf.sort(tf.constant(np.array([3, 255, 0, 7], np.uint8))),
           tf.sort(tf.constant(np.array([3, -2147483648, 2147483647, 0], np.int32))),
           tf.argsort(tf.constant(np.array([5, 5, 1, 5], np.int64)), direction="DESCENDING"),
           tf.sort(tf.constant(cube), axis=-2, direction="DESCENDING")]
    seq = tf.constant(np.array([[1.0, 3.0, 3.0, 5.0], [0.0, 2.0, 4.0, 8.0]]))
    vals = tf.constant(np.array([[3.0, 0.0, 6.0], [8.0, 2.5, -1.0]]))
    out += [tf.searchsorted(seq, vals), tf.searchsorted(seq, vals, side="right"),
            tf.searchsorted(seq, vals, out_type=tf.int64),
            tf.searchsorted(tf.constant([1, 2, 2, 9]), tf.constant([2, 10, 0]), side="right")]
    hv = tf.constant(np.array([-1.0, 0.0, 0.5, 1.0, 2.0, 4.99, 5.0, 7.0, 2.5]))
    out += [tf.histogram_fixed_width(hv, [0.0, 5.0], nbins=5),
            tf.histogram_fixed_width(tf.cast(hv, tf.float32), tf.constant([0.0, 5.0]), 3,
                                     dtype=tf.int64),
            tf.histogram_fixed_width(tf.constant([1, 5, 9, 10, -3], tf.int32), [0, 10], 4),
            tf.histogram_fixed_width(hv, [0.0, 5.0]),
            tf.histogram_fixed_width_bins(hv, tf.constant([0.0, 5.0], tf.float64), nbins=5),
            tf.histogram_fixed_width_bins(tf.reshape(tf.cast(hv, tf.float32), [3, 3]),
                                          [0.0, 5.0], nbins=3)]
    arr = tf.constant([1, 1, 3, 0, 7, 3], tf.int32)
    out += [tf.math.bincount(arr), tf.math.bincount(arr, minlength=10),
            tf.math.bincount(arr, maxlength=3),
            tf.math.bincount(arr, weights=tf.constant([0.5, 1.0, 2.0, 1.0, 1.0, 3.0])),
            tf.bincount(tf.constant([[1, 2], [2, 0]], tf.int64), dtype=tf.float32),
            tf.math.bincount(tf.constant([], tf.int32))]
    return out


def _linspace(tf):
    return [tf.linspace(0.0, 1.0, 5), tf.lin_space(-3.0, 3.0, 1),
            tf.linspace(tf.constant([0.0, 10.0]), tf.constant([1.0, 20.0]), 4),
            tf.linspace(tf.constant([0.0, 10.0]), tf.constant([1.0, 20.0]), 3, axis=1),
            tf.linspace(tf.constant(2.0, tf.float64), 4.0, tf.constant(3, tf.int64)),
            tf.linspace(tf.constant([[0.0], [1.0]]), tf.constant([5.0, 6.0, 7.0]), 2, axis=-1)]


def _cx(rng, *shape):
    return rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape)


def _fft(tf):
    rng = _rng("fft")
    out = []
    for n in (1, 2, 7, 8, 12, 17):
        z = _cx(rng, 3, n)
        out += [tf.fft(tf.constant(z.astype(np.complex64))), tf.ifft(tf.constant(z))]
    z2 = _cx(rng, 2, 5, 6)
    z3 = _cx(rng, 2, 3, 4, 5)
    out += [tf.fft2d(tf.constant(z2)), tf.ifft2d(tf.constant(z2.astype(np.complex64))),
            tf.fft3d(tf.constant(z3)), tf.ifft3d(tf.constant(z3)),
            tf.signal.fft(tf.constant(z2)), tf.spectral.ifft2d(tf.constant(z2))]
    return out


VALUES_NO_GRAPH = {"linspace": _linspace}

def _cumlse(tf):
    x = np.array([[0.0, 1.0, -np.inf, 1000.0], [-3.0, -np.inf, -np.inf, 2.5]])
    out = []
    for dt in ("float32", "float64"):
        t = tf.constant(x.astype(dt))
        out += [tf.math.cumulative_logsumexp(t, axis=1),
                tf.math.cumulative_logsumexp(t, axis=1, exclusive=True),
                tf.math.cumulative_logsumexp(t, axis=-1, reverse=True),
                tf.math.cumulative_logsumexp(t, 0, True, True)]
    return out


def _enorm(tf):
    x = np.array([[3.0, -4.0, 0.0], [1.0, 2.0, 2.0]])
    return [tf.math.reduce_euclidean_norm(tf.constant(x)),
            tf.math.reduce_euclidean_norm(tf.constant(x.astype(np.float32)), axis=1),
            tf.math.reduce_euclidean_norm(tf.constant(x), 0, keepdims=True),
            tf.math.reduce_euclidean_norm(tf.constant([[3, 4], [1, 1]], tf.int32), 1),
            tf.math.reduce_euclidean_norm(tf.constant([3 + 4j, 1j])),
            tf.math.reduce_euclidean_norm(tf.placeholder_with_default(x, [None, 3]), [0, 1])]


VALUES = {
    "euclidean_norm": _enorm,
    "cumulative_logsumexp": _cumlse,
    "fft": _fft,
    "sorting": _sorting,
    "segments": _segments,
    "complex_family": _complex_family, "safe_binary": _safe_binary,
    "acos": _unary("acos", SYM), "asin": _unary("asin", SYM), "atan": _unary("atan"),
    "sinh": _unary("sinh"), "cosh": _unary("cosh"), "asinh": _unary("asinh"),
    "acosh": _unary("acosh"), "atanh": _unary("atanh", SYM),
    "acos_top": _unary("acos", SYM, None), "sinh_top": _unary("sinh", GRID, None),
    "lgamma": _unary("lgamma"), "digamma": _unary("digamma"), "erfc": _unary("erfc"),
    "erfinv": _unary("erfinv", SYM), "ndtri": _unary("ndtri", UNIT),
    "bessel_i0": _unary("bessel_i0"), "bessel_i1": _unary("bessel_i1"),
    "bessel_i0e": _unary("bessel_i0e"), "bessel_i1e": _unary("bessel_i1e"),
    "lgamma_pos": _unary("lgamma", POS), "digamma_pos": _unary("digamma", POS),
    "acos_c": _complex_unary("acos"), "asin_c": _complex_unary("asin"),
    "atan_c": _complex_unary("atan"), "sinh_c": _complex_unary("sinh"),
    "cosh_c": _complex_unary("cosh"), "asinh_c": _complex_unary("asinh"),
    "acosh_c": _complex_unary("acosh"), "atanh_c": _complex_unary("atanh"),
    "igamma": _binary("igamma", A_GRID, X_GRID), "igammac": _binary("igammac", A_GRID, X_GRID),
    "igamma_wide": _igamma_wide,
    "zeta": _binary("zeta", ZX, ZQ), "polygamma": _binary("polygamma", PN, PX),
    "xlogy": _binary("xlogy", XL_X, XL_Y), "xdivy": _binary("xdivy", XL_X, XL_Y),
    "xlog1py": _binary("xlog1py", XL_X, XL_Y), "betainc": _betainc,
    "composites": _composites,
}


def _r(*shape, lo=-0.9, hi=0.9, key=""):
    return _rng("%s%s%s%s" % (key, shape, lo, hi)).uniform(lo, hi, size=shape)


def _g1(op, lo=-0.9, hi=0.9, dtype="float64", shape=(2, 3)):
    def build(tf, P):
        x = P(dtype, [None, shape[1]], "x", _r(*shape, lo=lo, hi=hi, key=op).astype(dtype))
        return [getattr(tf.math, op)(x)], [x]
    return build


def _g2(op, lo_a, hi_a, lo_x, hi_x, shapes=((2, 3), (3,))):
    def build(tf, P):
        a = P("float64", shapes[0], "a", _r(*shapes[0], lo=lo_a, hi=hi_a, key=op + "a"))
        x = P("float64", shapes[1], "x", _r(*shapes[1], lo=lo_x, hi=hi_x, key=op + "x"))
        return [getattr(tf.math, op)(a, x)], [a, x]
    return build


def _g_polygamma(tf, P):
    x = P("float64", [2, 3], "x", _r(2, 3, lo=0.5, hi=4))
    return [tf.math.polygamma(tf.constant(np.array([[1.0], [2.0]])), x)], [x]


def _g_betainc(tf, P):
    a = P("float64", [3], "a", np.array([0.5, 2.0, 3.5]))
    b = P("float64", [3], "b", np.array([1.5, 1.0, 2.5]))
    x = P("float64", [3], "x", np.array([0.2, 0.5, 0.9]))
    return [tf.math.betainc(a, b, x)], [a, b, x]


def _g_lse(tf, P):
    x = P("float32", [2, 3], "x", np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 4.0]], np.float32))
    return [tf.reduce_logsumexp(x, axis=1), tf.lbeta(x + 2.0)], [x]


def _g_complex(tf, P):
    r = P("float64", [2, 3], "r", _r(2, 3, key="cr"))
    i = P("float64", [3], "i", _r(3, key="ci"))
    z = tf.complex(r, i)
    w = tf.constant((_r(2, 3, key="w") + 1j * _r(2, 3, key="w2")))
    return [tf.math.real(z * w), tf.math.imag(z * z), tf.math.angle(z), tf.abs(z),
            tf.math.real(tf.math.conj(z) * w)], [r, i]


def _g_safe(tf, P):
    x = P("float64", [2, 3], "x", _r(2, 3, key="sx"))
    y = P("float64", [3], "y", np.array([0.0, 1.5, -2.0]))
    return [tf.math.multiply_no_nan(x, y), tf.math.nextafter(x, y)], [x, y]


def _g_mul_no_nan_same(tf, P):
    x = P("float32", [2, 3], "x", _r(2, 3, key="mx").astype("float32"))
    y = P("float32", [2, 3], "y", _r(2, 3, key="my").astype("float32"))
    return [tf.math.multiply_no_nan(x, y)], [x, y]


def _g_segment(fn, unsorted):
    def build(tf, P):
        data = P("float64", [5, 2], "data", np.array([[1.0, -2.0], [3.0, 4.0], [2.0, 0.0],
                                                      [2.0, 0.0], [-1.0, 7.0]]))
        if unsorted:
            ids = tf.constant(np.array([3, -1, 0, 3, 1], np.int32))
            y = getattr(tf.math, fn)(data, ids, 4)
        else:
            y = getattr(tf.math, fn)(data, tf.constant(np.array([0, 0, 2, 2, 4], np.int32)))
        return [y * tf.constant(np.arange(1.0, 1.0 + 2 * (4 if unsorted else 5)).reshape(
            -1, 2))], [data]
    return build


def _g_fft(op, shape, dtype="complex128"):
    def build(tf, P):
        rng = _rng("g" + op)
        z = P(dtype, shape, "z", _cx(rng, *shape).astype(dtype))
        w = tf.constant(_cx(rng, *shape).astype(dtype))
        y = getattr(tf, op)(z)
        return [tf.math.real(y * w)], [z]
    return build


def _g_cumlse(exclusive, reverse):
    def build(tf, P):
        x = P("float64", [2, 4], "x", _r(2, 4, lo=-2, hi=2, key="cl"))
        w = tf.constant(np.array([[1.0, -2.0, 0.5, 3.0], [-1.0, 0.0, 2.0, -0.5]]))
        y = tf.math.cumulative_logsumexp(x, axis=1, exclusive=exclusive, reverse=reverse)
        return [y * w], [x]
    return build


def _g_enorm(axis, keepdims):
    def build(tf, P):
        x = P("float64", [2, 3], "x", _r(2, 3, lo=-2, hi=2, key="en"))
        y = tf.math.reduce_euclidean_norm(x, axis, keepdims=keepdims)
        w = tf.constant(np.array([[2.0]]) if keepdims else np.array([2.0, -1.0]))
        return [y * w], [x]
    return build


GRADS = {
    "euclidean_norm": _g_enorm(1, False), "euclidean_norm_kd": _g_enorm(None, True),
    "cumulative_logsumexp": _g_cumlse(False, False),
    "cumulative_logsumexp_er": _g_cumlse(True, True),
    "fft": _g_fft("fft", (2, 5)), "ifft": _g_fft("ifft", (2, 4), "complex64"),
    "fft2d": _g_fft("fft2d", (2, 3, 4)), "ifft2d": _g_fft("ifft2d", (3, 5)),
    "fft3d": _g_fft("fft3d", (2, 3, 2)), "ifft3d": _g_fft("ifft3d", (2, 2, 3)),
    "segment_sum": _g_segment("segment_sum", False),
    "segment_mean": _g_segment("segment_mean", False),
    "segment_prod": _g_segment("segment_prod", False),
    "segment_max": _g_segment("segment_max", False),
    "segment_min": _g_segment("segment_min", False),
    "unsorted_segment_max": _g_segment("unsorted_segment_max", True),
    "unsorted_segment_min": _g_segment("unsorted_segment_min", True),
    "unsorted_segment_prod": _g_segment("unsorted_segment_prod", True),
    "unsorted_segment_mean": _g_segment("unsorted_segment_mean", True),
    "unsorted_segment_sqrt_n": _g_segment("unsorted_segment_sqrt_n", True),
    "complex": _g_complex, "safe_binary": _g_safe, "mul_no_nan_same": _g_mul_no_nan_same,
    "acos": _g1("acos"), "asin": _g1("asin"), "atan": _g1("atan", -3, 3),
    "sinh": _g1("sinh", -3, 3), "cosh": _g1("cosh", -3, 3), "asinh": _g1("asinh", -3, 3),
    "acosh": _g1("acosh", 1.1, 4), "atanh": _g1("atanh"),
    "acos_f32": _g1("acos", dtype="float32"),
    "lgamma": _g1("lgamma", 0.1, 6), "digamma": _g1("digamma", 0.1, 6),
    "erfc": _g1("erfc", -2, 2), "erfinv": _g1("erfinv"), "ndtri": _g1("ndtri", 0.05, 0.95),
    "bessel_i0e": _g1("bessel_i0e", -3, 3), "bessel_i1e": _g1("bessel_i1e", -3, 3),
    "bessel_i0": _g1("bessel_i0", -3, 3), "bessel_i1": _g1("bessel_i1", -3, 3),
    "igamma": _g2("igamma", 0.5, 4, 0.1, 6), "igammac": _g2("igammac", 0.5, 4, 0.1, 6),
    "zeta": _g2("zeta", 1.5, 4, 0.5, 3), "polygamma": _g_polygamma,
    "xlogy": _g2("xlogy", -1, 1, 0.1, 2), "xdivy": _g2("xdivy", -1, 1, 0.1, 2),
    "xlog1py": _g2("xlog1py", -1, 1, 0.1, 2), "betainc": _g_betainc,
    "composites": _g_lse,
}


def _e_betainc(tf):
    return tf.math.betainc(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0]),
                           tf.constant(0.5))


def _e_betainc_run(tf):
    a = tf.placeholder_with_default(np.array([1.0, 2.0], np.float32), None)
    b = tf.placeholder_with_default(np.array([[1.0, 2.0]], np.float32), None)
    with tf.Session() as s:
        s.run(tf.math.betainc(a, b, tf.constant(0.5)))


def _e_zeta_int(tf):
    return tf.math.zeta(tf.constant([1, 2]), tf.constant([1, 2]))


def _e_igamma_shape(tf):
    return tf.math.igamma(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0]))


def _e_scalar_mul(tf):
    return tf.scalar_mul(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0]))


def _e_accumulate_n(tf):
    return tf.accumulate_n([tf.constant([1.0]), tf.constant([1, 2])])


def _e_lgamma_int(tf):
    return tf.math.lgamma(tf.constant([1, 2]))


def _e_variance_int(tf):
    return tf.math.reduce_variance(tf.constant([1, 2]))


def _e_polyval(tf):
    return tf.math.polyval(tf.constant([1.0]), 2.0)


def _e_complex_types(tf):
    return tf.complex(tf.constant([1.0]), tf.constant([1.0], tf.float64))


def _e_truncatemod_zero(tf):
    with tf.Session() as s:
        s.run(tf.truncatemod(tf.constant([1, 2]), tf.constant([0, 1])))


def _e_real_string(tf):
    return tf.math.real(tf.constant(["a"]))


def _run(tf, t):
    with tf.Session() as s:
        s.run(t)


def _e_seg_unsorted(tf):
    _run(tf, tf.math.segment_sum(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 2, 1])))


def _e_seg_negative(tf):
    _run(tf, tf.math.segment_max(tf.constant([1.0, 2.0]), tf.constant([-1, 0])))


def _e_seg_size(tf):
    ids = tf.placeholder_with_default(np.array([0, 0], np.int32), [None])
    _run(tf, tf.math.segment_mean(tf.constant([1.0, 2.0, 3.0]), ids))


def _e_seg_rank(tf):
    return tf.math.segment_sum(tf.constant([1.0, 2.0]), tf.constant([[0, 1]]))


def _e_unsorted_range(tf):
    _run(tf, tf.math.unsorted_segment_max(tf.constant([1.0, 2.0]), tf.constant([0, 5]), 2))


def _e_sort_direction(tf):
    return tf.sort(tf.constant([1.0]), direction="UP")


def _e_sort_axis(tf):
    return tf.sort(tf.constant([1.0]), axis=tf.placeholder(tf.int32, []))


def _e_searchsorted_side(tf):
    return tf.searchsorted(tf.constant([1.0]), tf.constant([1.0]), side="middle")


def _e_searchsorted_rows(tf):
    _run(tf, tf.raw_ops.LowerBound(sorted_inputs=tf.constant([[1.0, 2.0]]),
                                   values=tf.constant([[1.0], [2.0]])))


def _e_hist_range(tf):
    _run(tf, tf.histogram_fixed_width(tf.constant([1.0]), tf.constant([5.0, 0.0]), 3))


def _e_hist_nbins(tf):
    _run(tf, tf.histogram_fixed_width(tf.constant([1.0]), tf.constant([0.0, 5.0]),
                                      tf.placeholder_with_default(0, [])))


def _e_bincount_negative(tf):
    _run(tf, tf.math.bincount(tf.constant([1, -1, 2])))


def _e_fft_rank(tf):
    return tf.fft2d(tf.constant([1j, 2j]))


def _e_fft_real(tf):
    return tf.fft(tf.constant([1.0, 2.0]))


ERRORS = {
    "fft_rank": _e_fft_rank, "fft_real": _e_fft_real,
    "sort_direction": _e_sort_direction, "sort_axis": _e_sort_axis,
    "searchsorted_side": _e_searchsorted_side, "searchsorted_rows": _e_searchsorted_rows,
    "hist_range": _e_hist_range, "hist_nbins": _e_hist_nbins,
    "bincount_negative": _e_bincount_negative,
    "seg_unsorted": _e_seg_unsorted, "seg_negative": _e_seg_negative, "seg_size": _e_seg_size,
    "seg_rank": _e_seg_rank, "unsorted_range": _e_unsorted_range,
    "complex_types": _e_complex_types, "truncatemod_zero": _e_truncatemod_zero,
    "real_string": _e_real_string,
    "betainc_static": _e_betainc, "betainc_run": _e_betainc_run, "zeta_int": _e_zeta_int,
    "igamma_shape": _e_igamma_shape, "scalar_mul": _e_scalar_mul,
    "accumulate_n": _e_accumulate_n, "lgamma_int": _e_lgamma_int,
    "variance_int": _e_variance_int, "polyval": _e_polyval,
}


def val(x):
    a = np.asarray(x)
    if a.dtype.kind == "c":
        return [a.dtype.name, np.stack([a.real, a.imag], -1).tolist()]
    return [a.dtype.name, a.tolist()]


def run_value(tf, build):
    g = tf.Graph()
    with g.as_default():
        outs = build(tf)
        ops = [[op.name, op.type] for op in g.get_operations()]
        shapes = [None if t.shape.rank is None else [d for d in t.shape.as_list()] for t in outs]
        with tf.Session() as s:
            values = s.run(outs)
    return {"values": [val(v) for v in values], "shapes": shapes, "ops": ops}


def run_grad(tf, build):
    g = tf.Graph()
    feeds = {}
    with g.as_default():
        def P(dtype, shape, name, value):
            t = tf.placeholder(dtype, shape, name=name)
            feeds[t] = np.asarray(value, dtype)
            return t
        ys, xs = build(tf, P)
        n = len(g.get_operations())
        grads = tf.gradients(ys, xs)
        ops = [[op.name, op.type, [t.name for t in op.inputs],
                sorted(c.name for c in op.control_inputs)] for op in g.get_operations()[n:]]
        with tf.Session() as s:
            fetch = [t for t in grads if t is not None]
            got = iter(s.run(fetch, feeds))
            values = [None if t is None else val(next(got)) for t in grads]
    return {"ops": ops, "values": values}


def run_error(tf, build):
    g = tf.Graph()
    with g.as_default():
        try:
            build(tf)
        except Exception as e:  # recorded as TensorFlow raises it
            return [type(e).__name__, str(e)]
    return None
