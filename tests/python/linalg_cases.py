"""Programs of tf.linalg (issue 12) written against the TF1 API, so that the same code runs on
TensorFlow 2.21 (tf.compat.v1 graph mode) and on minitf.

FORWARD cases build a graph over constants / placeholders and return named results: values
(["dtype", nested list]), static shapes ("shape" entries, lists with None), and errors
(["ErrorClass", message]) raised at construction or at run time. Where TensorFlow documents an
ambiguity (the sign of singular vectors and eigenvectors), the cases return invariants: the
vectors with each column's sign fixed by its largest entry, reconstructions, |U|.

GRAD cases take tf.gradients of an op's outputs (fixed weights) with respect to its inputs and
return the backward graph (name, type and inputs of every op tf.gradients added) and the values.

tools/gen_linalg_expected.py runs both on TensorFlow and writes
tests/fixtures/linalg_expected.json; tests/python/test_linalg.py replays them on minitf.
"""
import zlib

import numpy as np

RNG = np.random.RandomState(12)


def _r(*shape, dtype=np.float32):
    return RNG.uniform(-1.5, 1.5, size=shape).astype(dtype)


def _spd(n, batch=(), dtype=np.float64):
    a = RNG.uniform(-1, 1, size=tuple(batch) + (n, n))
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(dtype)


def val(x):
    a = np.asarray(x)
    if a.dtype.kind == "c":
        return [a.dtype.name, [a.real.tolist(), a.imag.tolist()]]
    return [a.dtype.name, a.tolist()]


def shape_of(t):
    s = t.get_shape()
    return None if s.ndims is None else s.as_list()


def fix_signs(v):
    """Columns of v (last two dims: rows x columns) with the sign (phase) making each column's
    largest-magnitude entry real positive."""
    v = np.array(v)
    idx = np.argmax(np.abs(v), axis=-2)
    piv = np.take_along_axis(v, idx[..., None, :], axis=-2)
    return v * (np.conj(piv) / np.abs(piv))


A33 = np.array([[4., 1., -2.], [1., 5., 0.5], [-2., 0.5, 6.]])
B232 = _r(2, 3, 2, dtype=np.float64)
SPD = _spd(3, (2,))
GEN = _r(2, 3, 3, dtype=np.float64) + 2 * np.eye(3)
RECT = _r(2, 4, 3, dtype=np.float64)
WIDE = _r(3, 5, dtype=np.float64)

FORWARD = []
GRAD = []


class Case:
    def __init__(self, name, build, kind):
        self.name, self.build, self.kind = name, build, kind
        self.__name__ = name

    def __call__(self, tf):
        RNG.seed(zlib.crc32(self.name.encode()))  # values drawn inside a case: its own seed
        if self.kind == "forward":
            return _forward(tf, self.build)
        return _grad(tf, self.build, self.kind == "grad")


def forward(name):
    def deco(fn):
        FORWARD.append(Case(name, fn, "forward"))
        return fn
    return deco


def grad(name, graph=True):
    def deco(fn):
        GRAD.append(Case(name, fn, "grad" if graph else "grad_values"))
        return fn
    return deco


def _forward(tf, build):
    g = tf.Graph()
    out = {}
    with g.as_default():
        feeds = {}

        def P(dtype, shape, value, name="p"):
            t = tf.placeholder(dtype, shape, name=name)
            feeds[t] = value
            return t

        fetch, post, errors = {}, {}, {}

        class R:
            """The case's recorder: value(key, tensor[, post]) / shape(key, tensor) /
            error(key, fn, match) (fn builds and runs; the error message must contain match)."""
            def value(self, key, t, fn=None):
                fetch[key] = t
                if fn is not None:
                    post[key] = fn

            def shape(self, key, t):
                out["shape:" + key] = shape_of(t)

            def error(self, key, fn, match):
                errors[key] = (fn, match)

        build(tf, P, R())
        if fetch:
            with tf.Session(graph=g) as sess:
                vals = sess.run(fetch, feeds)
            for k, v in vals.items():
                out[k] = val(post[k](v) if k in post else v)
    for k, (fn, match) in errors.items():
        g2 = tf.Graph()
        with g2.as_default():
            try:
                r = fn()
                with tf.Session(graph=g2) as sess:
                    sess.run(r)
                out["error:" + k] = None
            except Exception as e:  # noqa: BLE001  (the error is the result)
                msg = str(e)
                out["error:" + k] = [type(e).__name__, match if match in msg else msg]
    return out


def _grad(tf, build, graph=True):
    g = tf.Graph()
    feeds = {}
    with g.as_default():
        def P(dtype, shape, value, name):
            t = tf.placeholder(dtype, shape, name=name)
            feeds[t] = value
            return t
        ys, xs, weights = build(tf, P)
        n = len(g.get_operations())
        grads = tf.gradients(ys, xs, grad_ys=weights)
        ops = [[op.name, op.type, [t.name for t in op.inputs]]
               for op in g.get_operations()[n:]] if graph else None
        present = [x for x in grads if x is not None]
        with tf.Session(graph=g) as sess:
            vals = iter(sess.run(present, feeds))
        out = {"ops": ops} if graph else {}
        return {**out,
                "values": [val(next(vals)) if x is not None else None for x in grads]}


# ---- diagonals and bands -------------------------------------------------------------------

M345 = np.arange(60, dtype=np.float32).reshape(3, 4, 5) - 20


@forward("diag_part_bands")
def _diag_part(tf, P, R):
    L = tf.linalg
    for align in ["RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT"]:
        t = L.diag_part(M345, k=(-2, 1), padding_value=9, align=align)
        R.value("band_" + align, t)
        R.shape("band_" + align, t)
    R.value("k0", L.diag_part(M345))
    R.value("k2", L.diag_part(M345, k=2))
    R.value("v1", tf.raw_ops.MatrixDiagPart(input=M345))
    R.value("v2", tf.raw_ops.MatrixDiagPartV2(input=M345, k=[-1, 1], padding_value=-1.))
    R.value("ints", L.diag_part(np.arange(12, dtype=np.int32).reshape(3, 4), k=-1))
    R.value("bools", L.diag_part(np.eye(3, dtype=bool)))
    x = P(tf.float32, [None, 4, 5], M345)
    R.shape("partial", L.diag_part(x, k=(0, 2)))
    u = P(tf.float32, None, M345, "u")
    R.shape("unknown", L.diag_part(u))
    R.value("fed", L.diag_part(u, k=1))
    R.value("trace", L.trace(M345))
    R.value("trace_int", tf.trace(np.arange(9).reshape(3, 3)))
    R.error("rank1", lambda: L.diag_part([1., 2.]), "must be at least rank 2")
    R.error("k_bound", lambda: L.diag_part(M345, k=5), "lower_diag_index is out of bound")
    R.error("k_order", lambda: L.diag_part(M345, k=(1, 0)),
            "lower_diag_index is greater than upper_diag_index")
    R.error("k_bound_run", lambda: L.diag_part(tf.placeholder_with_default(M345, None), k=-4),
            "lower_diag_index is out of bound: -4. It must be between -4 and 5")


@forward("matrix_diag")
def _matrix_diag(tf, P, R):
    L = tf.linalg
    d = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    for k in [0, 1, -2]:
        t = L.diag(d, k=k)
        R.value("k%d" % k, t)
        R.shape("k%d" % k, t)
    R.value("rect", L.diag(d, num_rows=4, num_cols=3, padding_value=-1))
    band = np.arange(1, 13, dtype=np.float32).reshape(2, 2, 3)
    for align in ["RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT"]:
        R.value("band_" + align, L.diag(band, k=(-1, 0), align=align))
    R.value("v1", tf.raw_ops.MatrixDiag(diagonal=d))
    R.value("v2", tf.raw_ops.MatrixDiagV2(diagonal=band, k=[0, 1], num_rows=-1, num_cols=-1,
                                          padding_value=0.))
    R.value("bool", L.diag(np.array([True, False])))
    R.value("tensor_diag", L.tensor_diag(np.array([[1, 2], [3, 4]], np.int32)))
    R.value("tensor_diag_part", L.tensor_diag_part(np.arange(16.).reshape(2, 2, 2, 2)))
    R.value("tf_diag", tf.diag([1., 2.]))
    R.value("tf_diag_part", tf.diag_part(np.arange(9.).reshape(3, 3)))
    R.shape("tensor_diag", L.tensor_diag(np.zeros([2, 3])))
    R.error("num_rows", lambda: L.diag(d, num_rows=2), "num_rows is too small")
    R.error("num_diags", lambda: L.diag(band, k=(-2, 0)),
            "The number of rows of `diagonal` doesn't match")
    R.error("diag_part_odd", lambda: tf.diag_part(np.zeros([2, 2, 2])), "even rank")


@forward("set_diag_band_eye")
def _set_diag(tf, P, R):
    L = tf.linalg
    R.value("set", L.set_diag(M345, np.ones([3, 4], np.float32)))
    R.value("set_k", L.set_diag(M345, -np.ones([3, 2, 4], np.float32), k=(0, 1)))
    R.value("set_k_left", L.set_diag(M345, -np.arange(24, dtype=np.float32).reshape(3, 2, 4),
                                     k=(-1, 0), align="LEFT_LEFT"))
    R.value("set_v1", tf.raw_ops.MatrixSetDiag(input=M345, diagonal=np.ones([3, 4], np.float32)))
    x = P(tf.float32, [None, 4, None], M345)
    R.shape("set_partial", L.set_diag(x, np.ones([3, 4], np.float32)))
    R.error("set_shape", lambda: L.set_diag(tf.placeholder_with_default(M345, None),
                                            np.ones([3, 3], np.float32)),
            "Either first dimensions of diagonal don't match input.shape[:-2]")
    for lo, hi in [(0, 0), (1, 0), (0, -1), (-1, 2), (2, 1)]:
        R.value("band_%d_%d" % (lo, hi), L.band_part(M345, lo, hi))
    R.value("band_int64", tf.matrix_band_part(np.arange(9).reshape(3, 3),
                                              tf.constant(0, tf.int64), tf.constant(1, tf.int64)))
    R.error("band_bound", lambda: L.band_part(M345, 5, 0),
            "num_lower must be negative or less or equal to number of rows (4) got: 5")
    R.error("band_rank", lambda: L.band_part(tf.placeholder_with_default([1., 2.], None), 0, 0),
            "input must be at least 2-dim, received shape: [2]")
    R.value("eye", L.eye(3))
    R.value("eye_rect", L.eye(2, 4, batch_shape=[2], dtype=tf.int32))
    R.value("eye_tensor", L.eye(tf.constant(3), num_columns=2))
    R.shape("eye_tensor", L.eye(tf.constant(3), batch_shape=[2]))
    R.value("tf_eye", tf.eye(2, dtype=tf.float64))
    R.error("eye_float", lambda: L.eye(2.5), "must be positive integer values")


@forward("cross_transpose_matvec")
def _cross(tf, P, R):
    L = tf.linalg
    a = _r(4, 3)
    b = _r(4, 3)
    R.value("f32", L.cross(a, b))
    R.value("f64", tf.cross(a.astype(np.float64), b.astype(np.float64)))
    R.value("i32", L.cross(np.array([[1, 2, 3]], np.int32), np.array([[4, 5, 6]], np.int32)))
    R.value("u8", L.cross(np.array([1, 2, 3], np.uint8), np.array([4, 5, 6], np.uint8)))
    R.value("f16", L.cross(a.astype(np.float16), b.astype(np.float16)))
    R.error("dim", lambda: L.cross(np.zeros([2, 4]), np.zeros([2, 4])),
            "Dimension must be 3 but is 4")
    R.error("shapes", lambda: L.cross(tf.placeholder_with_default(np.zeros([2, 3]), None),
                                      tf.placeholder_with_default(np.zeros([1, 3]), None)),
            "Both inputs must be of same shape: [2,3] vs. [1,3]")
    R.value("transpose", L.matrix_transpose(M345))
    R.value("transpose_alias", L.transpose(M345[0]))
    R.value("adjoint_real", L.adjoint(M345[:, :2]))
    R.error("transpose_rank", lambda: L.matrix_transpose([1., 2.]), "rank >= 2")
    R.value("matvec", L.matvec(M345, np.ones([3, 5], np.float32)))
    R.value("matvec_t", L.matvec(M345[0], np.ones([4], np.float32), transpose_a=True))
    R.value("tensordot", L.tensordot(M345, _r(5, 2), axes=1))
    R.value("tensordot_pairs", tf.tensordot(M345, _r(4, 3), axes=[[1, 0], [0, 1]]))
    R.value("tensordot_outer", L.tensordot(np.ones(2, np.float32), np.arange(3, dtype=np.float32),
                                           axes=0))
    x = P(tf.float32, [None, 4, 5], M345)
    t = L.tensordot(x, _r(5, 2), axes=[[2], [0]])
    R.value("tensordot_partial", t)
    R.shape("tensordot_partial", t)
    R.error("tensordot_axes", lambda: L.tensordot(M345, M345, axes=[[1], [0, 2]]),
            "Different number of contraction axes")


@forward("norms")
def _norms(tf, P, R):
    L = tf.linalg
    x = M345 / 10
    R.value("euclid", L.norm(x))
    R.value("fro", L.norm(x, ord="fro", axis=[-2, -1]))
    R.value("ax1", L.norm(x, axis=1))
    R.value("l1", tf.norm(x, ord=1, axis=2, keepdims=True))
    R.value("inf", L.norm(x, ord=np.inf, axis=-1))
    R.value("m1", L.norm(x, ord=1, axis=[1, 2]))
    R.value("minf", L.norm(x, ord=np.inf, axis=(1, 2)))
    R.value("m2", L.norm(x, ord=2, axis=[1, 2]))
    R.value("m2_t", L.norm(x, ord=2, axis=[0, 2]))
    R.value("p3", L.norm(x, ord=3, axis=-1, keep_dims=True))
    n, v = L.normalize(x, axis=1)
    R.value("normalize", n)
    R.value("normalize_norm", v)
    R.value("global_norm", L.global_norm([x, x[0]]))
    R.error("bad_ord", lambda: L.norm(x, ord=3, axis=[1, 2]), "'ord' must be a supported matrix")
    R.error("bad_axis", lambda: L.norm(x, axis=[1, 1]), "'axis' must be None, an integer")
    R.error("bad_vord", lambda: L.norm(x, ord=-1), "'ord' must be a supported vector norm")


# ---- factorizations and solvers --------------------------------------------------------------

@forward("cholesky_det_inverse")
def _chol(tf, P, R):
    L = tf.linalg
    for dt in [np.float32, np.float64]:
        s = dt.__name__
        R.value("chol_" + s, L.cholesky(SPD.astype(dt)))
        R.value("inv_" + s, L.inv(GEN.astype(dt)))
        R.value("inv_adj_" + s, L.inv(GEN.astype(dt), adjoint=True))
        R.value("det_" + s, L.det(GEN.astype(dt)))
        sign, logabs = L.slogdet(-GEN.astype(dt))
        R.value("slogdet_sign_" + s, sign)
        R.value("slogdet_log_" + s, logabs)
        R.value("logdet_" + s, L.logdet(SPD.astype(dt)))
        R.value("solve_" + s, L.solve(GEN.astype(dt), B232.astype(dt)))
        R.value("solve_adj_" + s, tf.matrix_solve(GEN.astype(dt), B232.astype(dt), adjoint=True))
        R.value("chol_solve_" + s, L.cholesky_solve(L.cholesky(SPD.astype(dt)), B232.astype(dt)))
    c = (GEN + 1j * _r(2, 3, 3, dtype=np.float64)).astype(np.complex128)
    R.value("inv_c128", L.inv(c))
    R.value("det_c128", L.det(c))
    R.value("det_c64", L.det(c.astype(np.complex64)))
    R.value("solve_c128", L.solve(c, B232.astype(np.complex128)))
    h = c @ np.conj(np.swapaxes(c, -1, -2)) + 3 * np.eye(3)
    R.value("chol_c128", L.cholesky(h))
    R.value("det_singular", L.det(np.array([[1., 2.], [2., 4.]])))
    R.value("slogdet_singular", L.slogdet(np.array([[1., 2.], [2., 4.]]))[1])
    R.value("det_empty", L.det(np.zeros([2, 0, 0])))
    R.value("chol_empty", L.cholesky(np.zeros([0, 2, 2])))
    R.shape("det_partial", L.det(P(tf.float64, [None, 3, None], GEN)))
    R.shape("chol_partial", L.cholesky(P(tf.float64, [2, None, 3], GEN, "q")))
    R.shape("solve", L.solve(P(tf.float64, [None, 3, 3], GEN, "m"), B232))
    # TensorFlow 2.21 fills the lower triangle with NaNs (and logs a warning), no error
    R.value("chol_not_pd", L.cholesky(-SPD), lambda v: np.isnan(np.tril(v)))
    R.error("inv_singular", lambda: L.inv(np.array([[1., 2.], [2., 4.]])),
            "Input is not invertible.")
    R.error("solve_singular", lambda: L.solve(np.array([[1., 2.], [2., 4.]]), np.ones([2, 1])),
            "Input matrix is not invertible.")
    R.error("inv_nonsquare", lambda: L.inv(np.zeros([2, 3])), "Dimensions must be equal")
    R.error("inv_nonsquare_run", lambda: L.inv(tf.placeholder_with_default(np.zeros([2, 3]), None)),
            "Input matrix must be square.")
    R.error("det_rank1", lambda: L.det([1., 2.]), "Shape must be at least rank 2")
    R.error("inv_rank1_run", lambda: L.inv(tf.placeholder_with_default([1., 2.], None)),
            "Input tensor 0 must have rank >= 2, got 1")
    R.error("int_dtype", lambda: L.inv(np.eye(2, dtype=np.int32)), "")
    R.error("solve_rows", lambda: L.solve(np.eye(3), np.ones([2, 1])), "Dimensions must be equal")


@forward("triangular_lstsq")
def _tri(tf, P, R):
    L = tf.linalg
    low = np.tril(GEN)
    for dt in [np.float32, np.float64]:
        s = dt.__name__
        R.value("lower_" + s, L.triangular_solve(low.astype(dt), B232.astype(dt)))
        R.value("upper_adj_" + s, tf.matrix_triangular_solve(
            GEN.astype(dt), B232.astype(dt), lower=False, adjoint=True))
        R.value("lstsq_" + s, L.lstsq(RECT.astype(dt), _r(2, 4, 2).astype(dt)))
        R.value("lstsq_l2_" + s, L.lstsq(RECT.astype(dt), _r(2, 4, 2).astype(dt),
                                         l2_regularizer=0.5))
        R.value("lstsq_slow_" + s, tf.matrix_solve_ls(RECT.astype(dt), _r(2, 4, 2).astype(dt),
                                                      fast=False))
    R.value("lstsq_wide", L.lstsq(WIDE, _r(3, 2, dtype=np.float64)))
    R.value("lstsq_wide_slow", L.lstsq(WIDE, _r(3, 2, dtype=np.float64), fast=False))
    R.value("tri_bcast", L.triangular_solve(low[0], B232))
    R.value("tri_zero_pivot", L.triangular_solve(np.array([[1., 0.], [1., 0.]]), np.ones([2, 1])))
    R.shape("tri_bcast", L.triangular_solve(low[:1], P(tf.float64, [None, 3, 2], B232)))
    R.value("tri_c128", L.triangular_solve((low + 1j * np.tril(GEN)).astype(np.complex128),
                                           B232.astype(np.complex128), adjoint=True))
    R.error("tri_rows", lambda: L.triangular_solve(low, np.ones([2, 2, 4])),
            "Dimensions must be equal")


def _svd_parts(s, u, v, a):
    return s, u, v


@forward("qr_svd_eigh_lu")
def _qr(tf, P, R):
    L = tf.linalg
    for dt in [np.float32, np.float64]:
        s = dt.__name__
        q, r = L.qr(RECT.astype(dt))
        R.value("q_" + s, q)
        R.value("r_" + s, r)
        R.shape("q_" + s, q)
        qf, rf = tf.qr(RECT.astype(dt), full_matrices=True)
        R.value("qf_" + s, qf)
        R.value("rf_" + s, rf)
        R.shape("rf_" + s, rf)
        qw, rw = L.qr(WIDE.astype(dt))
        R.value("qw_" + s, qw)
        R.value("rw_" + s, rw)
        sv, u, v = L.svd(RECT.astype(dt))
        R.value("svd_s_" + s, sv)
        R.value("svd_u_" + s, u, fix_signs)
        R.value("svd_v_" + s, v, fix_signs)
        R.shape("svd_u_" + s, u)
        sf, uf, vf = tf.svd(WIDE.astype(dt), full_matrices=True)
        R.value("svdf_s_" + s, sf)
        R.shape("svdf_u_" + s, uf)
        R.shape("svdf_v_" + s, vf)
        R.value("svdf_recon_" + s, tf.matmul(uf[:, :3] * sf, vf[:, :3], adjoint_b=True))
        R.value("svdf_vv_" + s, tf.matmul(vf, vf, adjoint_a=True))
        R.value("svd_only_" + s, L.svd(GEN.astype(dt), compute_uv=False))
        e, ev = L.eigh(SPD.astype(dt))
        R.value("eigh_e_" + s, e)
        R.value("eigh_v_" + s, ev, fix_signs)
        R.value("eigvalsh_" + s, L.eigvalsh(SPD.astype(dt)))
        R.value("self_adjoint_eigvals_" + s, tf.self_adjoint_eigvals(SPD.astype(dt)))
        R.value("self_adjoint_eig_" + s, tf.self_adjoint_eig(SPD.astype(dt))[0])
    c = (RECT + 1j * _r(2, 4, 3, dtype=np.float64)).astype(np.complex128)
    qc, rc = L.qr(c)
    R.value("q_c128", qc)
    R.value("r_c128", rc)
    h = c[:, :3] @ np.conj(np.swapaxes(c[:, :3], -1, -2)) + np.eye(3)
    R.value("eigvalsh_c128", L.eigvalsh(h))
    R.value("pinv", L.pinv(RECT))
    R.value("pinv_rcond", L.pinv(np.array([[1., 2.], [2., 4.0000001]]), rcond=1e-3))
    R.value("matrix_rank", L.matrix_rank(np.array([[1., 2.], [2., 4.]])))
    R.value("matrix_rank_full", L.matrix_rank(GEN))
    R.shape("eigh_v_none", L.eigvalsh(P(tf.float64, None, SPD)))
    R.error("qr_rank1", lambda: L.qr([1., 2.]), "Shape must be at least rank 2")
    R.error("eigh_nonsquare", lambda: L.eigh(np.zeros([2, 3])), "Dimensions must be equal")


# ---- gradients -------------------------------------------------------------------------------

def _g1(op, shape, value, weights=None, **attrs):
    def build(tf, P):
        x = P(tf.float64, shape, value, "x")
        y = getattr(tf.raw_ops, op)(input=x, name="op", **attrs)
        ys = y if isinstance(y, (list, tuple)) else [y]
        w = weights if weights is not None else [None] * len(ys)
        ys_w = [(yy, ww) for yy, ww in zip(ys, w) if ww is not False]
        return [yy for yy, _ in ys_w], [x], \
            [None if ww is None else tf.constant(ww) for _, ww in ys_w]
    return build


grad("inverse")(_g1("MatrixInverse", [2, 3, 3], GEN, [_r(2, 3, 3, dtype=np.float64)]))
grad("inverse_adjoint")(_g1("MatrixInverse", [2, 3, 3], GEN, [_r(2, 3, 3, dtype=np.float64)],
                            adjoint=True))
grad("inverse_partial")(_g1("MatrixInverse", [None, 3, 3], GEN))
grad("det")(_g1("MatrixDeterminant", [2, 3, 3], GEN, [np.array([1.5, -0.5])]))
grad("det_partial")(_g1("MatrixDeterminant", [None, 3, 3], GEN))
grad("logdet")(_g1("LogMatrixDeterminant", [2, 3, 3], GEN, [False, np.array([2., -1.])]))
grad("cholesky")(_g1("Cholesky", [2, 3, 3], SPD, [np.tril(_r(2, 3, 3, dtype=np.float64))]))
grad("cholesky_partial")(_g1("Cholesky", [None, 3, 3], SPD))
grad("diag_part_band")(_g1("MatrixDiagPartV3", [2, 3, 3], GEN, [_r(2, 2, 3, dtype=np.float64)],
                           k=[-1, 0], padding_value=0.))
grad("diag_part_v1")(_g1("MatrixDiagPart", [2, 3, 3], GEN))
grad("diag_part_v1_rect")(_g1("MatrixDiagPart", [2, None, 3], GEN))
grad("diag_part_partial")(_g1("MatrixDiagPartV3", [2, None, 3], GEN, None, k=1,
                              padding_value=0.))
grad("diag_op")(_g1("DiagPart", [3, 3], GEN[0]))


def _binary(op, xa, xb, wa, names=("matrix", "rhs"), shapes=None, **attrs):
    def build(tf, P):
        a = P(tf.float64, shapes[0] if shapes else list(xa.shape), xa, "a")
        b = P(tf.float64, shapes[1] if shapes else list(xb.shape), xb, "b")
        y = getattr(tf.raw_ops, op)(**{names[0]: a, names[1]: b}, name="op", **attrs)
        return [y], [a, b], [tf.constant(wa)]
    return build


W232 = _r(2, 3, 2, dtype=np.float64)
grad("solve")(_binary("MatrixSolve", GEN, B232, W232))
grad("solve_adjoint")(_binary("MatrixSolve", GEN, B232, W232, adjoint=True))
grad("triangular")(_binary("MatrixTriangularSolve", np.tril(GEN), B232, W232))
grad("triangular_upper_adjoint")(_binary("MatrixTriangularSolve", np.triu(GEN), B232, W232,
                                         lower=False, adjoint=True))
grad("triangular_broadcast")(_binary("MatrixTriangularSolve", np.tril(GEN[:1]), B232, W232))
grad("triangular_partial")(_binary("MatrixTriangularSolve", np.tril(GEN), B232, W232,
                                   shapes=([None, 3, 3], [2, 3, 2])))
grad("cross")(_binary("Cross", _r(4, 3, dtype=np.float64), _r(4, 3, dtype=np.float64),
                      _r(4, 3, dtype=np.float64), names=("a", "b")))
grad("set_diag")(_binary("MatrixSetDiag", GEN, B232[:, :, 0], GEN,
                         names=("input", "diagonal")))
grad("set_diag_partial")(_binary("MatrixSetDiag", GEN, B232[:, :, 0], GEN,
                                 names=("input", "diagonal"), shapes=([None, 3, 3], [None, 3])))


@grad("set_diag_v3_band")
def _set_diag_v3(tf, P):
    a = P(tf.float64, [2, 3, 3], GEN, "a")
    d = P(tf.float64, [2, 2, 3], _r(2, 2, 3, dtype=np.float64), "d")
    y = tf.raw_ops.MatrixSetDiagV3(input=a, diagonal=d, k=[0, 1], align="LEFT_RIGHT", name="op")
    return [y], [a, d], [tf.constant(GEN)]


@grad("matrix_diag_v3")
def _matrix_diag_v3(tf, P):
    d = P(tf.float64, [2, 2, 3], _r(2, 2, 3, dtype=np.float64), "d")
    y = tf.raw_ops.MatrixDiagV3(diagonal=d, k=[-1, 0], num_rows=-1, num_cols=-1,
                                padding_value=0., align="LEFT_LEFT", name="op")
    return [y], [d], [tf.constant(_r(2, 3, 3, dtype=np.float64))]


@grad("matrix_diag_v1_and_band")
def _matrix_diag_v1(tf, P):
    d = P(tf.float64, [2, 3], _r(2, 3, dtype=np.float64), "d")
    a = P(tf.float64, [2, 3, 3], GEN, "a")
    y1 = tf.raw_ops.MatrixDiag(diagonal=d, name="op")
    y2 = tf.raw_ops.MatrixBandPart(input=a, num_lower=1, num_upper=0, name="band")
    y3 = tf.raw_ops.Diag(diagonal=d, name="tdiag")
    return [y1, y2, y3], [d, a], [tf.constant(GEN), tf.constant(GEN),
                                  tf.constant(_r(2, 3, 2, 3, dtype=np.float64))]


@grad("wrappers_logdet_trace_norm")
def _wrappers(tf, P):
    a = P(tf.float64, [2, 3, 3], SPD, "a")
    y = [tf.linalg.logdet(a), tf.linalg.trace(a), tf.norm(a, axis=[-2, -1]),
         tf.linalg.cholesky_solve(tf.linalg.cholesky(a), tf.constant(B232))]
    return y, [a], None


# Gradients whose loss is invariant under the sign of each singular vector / eigenvector, so
# TensorFlow's and minitf's (possibly differently signed) factors give the same gradient.
# Values only: minitf's backward graphs for these omit TensorFlow's control_dependencies.

@grad("eigh_values", graph=False)
def _eigh_grad(tf, P):
    a = P(tf.float64, [2, 3, 3], SPD, "a")
    e, v = tf.linalg.eigh(a)
    w = tf.constant(_r(2, 3, 3, dtype=np.float64))
    return [e, tf.reduce_sum(v * v * w)], [a], None


@grad("eigvalsh", graph=False)
def _eigvalsh_grad(tf, P):
    a = P(tf.float64, [2, 3, 3], SPD, "a")
    return [tf.linalg.eigvalsh(a)], [a], [tf.constant([[1., 2., 3.], [-1., 0.5, 2.]], tf.float64)]


@grad("svd_values", graph=False)
def _svd_grad(tf, P):
    ys = []
    xs = []
    for i, (shape, full) in enumerate([((2, 4, 3), False), ((3, 5), False), ((3, 3), False),
                                       ((3, 4), True)]):
        a = P(tf.float64, list(shape), _r(*shape, dtype=np.float64), "a%d" % i)
        s, u, v = tf.linalg.svd(a, full_matrices=full)
        k = min(shape[-2:])
        # |u|^2, |v|^2 weighted: sign invariant
        ys += [s, tf.reduce_sum(u[..., :k] * u[..., :k] * tf.constant(_r(*u.shape[:-1].as_list(), k, dtype=np.float64))),
               tf.reduce_sum(v[..., :k] * v[..., :k] * tf.constant(_r(*v.shape[:-1].as_list(), k, dtype=np.float64)))]
        ys.append(tf.linalg.svd(a, compute_uv=False) * 0.5)
        xs.append(a)
    return ys, xs, None


@grad("qr_values", graph=False)
def _qr_grad(tf, P):
    ys, xs = [], []
    for i, shape in enumerate([(2, 4, 3), (3, 3), (3, 5)]):
        a = P(tf.float64, list(shape), _r(*shape, dtype=np.float64), "a%d" % i)
        q, r = tf.linalg.qr(a)
        ys += [q * tf.constant(_r(*q.shape.as_list(), dtype=np.float64)),
               r * tf.constant(_r(*r.shape.as_list(), dtype=np.float64))]
        xs.append(a)
    return ys, xs, None


@grad("pinv_lstsq_norm2", graph=False)
def _pinv_grad(tf, P):
    a = P(tf.float64, [4, 3], RECT[0], "a")
    b = P(tf.float64, [4, 2], _r(4, 2, dtype=np.float64), "b")
    ys = [tf.linalg.pinv(a), tf.linalg.lstsq(a, b), tf.linalg.lstsq(a, b, l2_regularizer=0.3),
          tf.norm(a, ord=2, axis=[0, 1])]
    return ys, [a, b], None
