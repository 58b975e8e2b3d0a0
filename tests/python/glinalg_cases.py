"""Gradient programs of the reduction, linalg, image and sparse ops written against the TF1 API,
so that the same code runs on TensorFlow 2.21 (tf.compat.v1 graph mode) and on minitf.

Each case builds one forward op through tf.raw_ops (named "op") over placeholders, takes
tf.gradients of its float outputs (default grad_ys, or fixed weights) with respect to its
float inputs, and returns the backward graph (name, type and inputs of every op the call added)
and the gradient values ([dtype name, nested list], None for no gradient). It covers the paths
the op goldens do not: shapes known only at run time (DynamicStitch, Shape ops), keep_dims,
scalar and int64 axes, zeros in products, ties in Max/Min, each adjoint combination.
tools/gen_glinalg_expected.py runs them on TensorFlow and writes
tests/fixtures/glinalg_gradient_expected.json; tests/python/test_glinalg_gradients.py replays
them on minitf and compares.
"""
import numpy as np

RNG = np.random.RandomState(7)


def _r(*shape, dtype=np.float32):
    return (RNG.uniform(-1.5, 1.5, size=shape)).astype(dtype)


def val(x):
    if x is None:
        return None
    a = np.asarray(x)
    return [a.dtype.name, a.tolist()]


def new_ops(g, before):
    return [[op.name, op.type, [t.name for t in op.inputs]] for op in g.get_operations()[before:]]


class Case:
    """One program: `build(tf, P)` returns (ys, xs); P(dtype, shape, name, value) makes a
    placeholder fed with value. graph=False: only values are compared (TensorFlow orders a
    set of several reduced Einsum labels by string hash, so its node order varies)."""

    def __init__(self, name, build, graph=True):
        self.name, self.build, self.graph = name, build, graph
        self.__name__ = name

    def __call__(self, tf):
        g = tf.Graph()
        feeds = {}
        with g.as_default():
            def P(dtype, shape, name, value):
                t = tf.placeholder(dtype, shape, name=name)
                feeds[t] = value
                return t
            ys, xs = self.build(tf, P)
            n = len(g.get_operations())
            grads = tf.gradients(ys, xs)
            out = {"values": _run(tf, g, grads, feeds)}
            if self.graph:
                out["ops"] = new_ops(g, n)
            return out


def _run(tf, g, fetches, feeds):
    present = [f for f in fetches if f is not None]
    with tf.Session(graph=g) as sess:
        values = iter(sess.run([tf.convert_to_tensor(f) for f in present], feeds))
    return [val(next(values)) if f is not None else None for f in fetches]


CASES = []


def case(name, graph=True):
    def deco(fn):
        CASES.append(Case(name, fn, graph))
        return fn
    return deco


# ---- reductions ---------------------------------------------------------------------------

X234 = _r(2, 3, 4)
X234_ZEROS = X234.copy()
X234_ZEROS[0, 1, 2] = 0.0
X234_ZEROS[1, 0, 3] = X234_ZEROS[1, 2, 3] = 0.0
TIES = np.array([[[1., 3., 3., 0.], [2., 2., 2., 2.], [-1., 5., 0., 5.]],
                 [[4., 4., 1., 0.], [0., -2., 7., 7.], [1., 1., 1., -3.]]], np.float32)


def _red(op, shape, axis, keep=False, value=X234, axis_dtype=None, axis_shape=None):
    def build(tf, P):
        x = P(tf.float32, shape, "x", value)
        if axis_shape is not None:
            a = P(axis_dtype or tf.int32, axis_shape, "axes", np.asarray(axis, np.int32))
        elif axis_dtype is not None:
            a = tf.constant(axis, axis_dtype, name="axes")
        else:
            a = axis
        return getattr(tf.raw_ops, op)(input=x, axis=a, keep_dims=keep, name="op"), [x]
    return build


for _name, _args in [
        ("prod_static", ("Prod", [2, 3, 4], [1])),
        ("prod_static_keep", ("Prod", [2, 3, 4], [0, 2], True)),
        ("prod_zeros", ("Prod", [2, 3, 4], [1, 2], False, X234_ZEROS)),
        ("prod_zeros_all", ("Prod", [2, 3, 4], [0, 1, 2], False, X234_ZEROS)),
        ("prod_partial", ("Prod", [None, 3, 4], 1)),
        ("prod_unknown_rank_keep", ("Prod", None, 1, True)),
        ("prod_negative_axis", ("Prod", [2, 3, 4], [-1, 0])),
        ("prod_empty_axes", ("Prod", [2, 3, 4], [], False, X234, "int32")),
        ("prod_int64_axes", ("Prod", [2, 3, 4], [2], False, X234, "int64")),
        ("prod_fed_axes", ("Prod", [2, 3, 4], [2, 0], False, X234, None, [2])),
        ("max_static", ("Max", [2, 3, 4], [1], False, TIES)),
        ("max_keep", ("Max", [2, 3, 4], [2], True, TIES)),
        ("min_static", ("Min", [2, 3, 4], [0, 2], False, TIES)),
        ("min_keep_partial", ("Min", [None, 3, 4], [1], True, TIES)),
        ("max_fed_scalar_axis", ("Max", [None, 3, 4], 2, False, TIES, None, [])),
        ("max_unknown_rank", ("Max", None, [0, 1], False, TIES)),
        ("sum_fed_axes", ("Sum", [None, 3, 4], [0, 2], False, X234, None, [None])),
        ("sum_unknown_rank", ("Sum", None, [1], False, X234, None, [1])),
        ("sum_partial_const_axes", ("Sum", [None, 3, 4], [1])),
        ("sum_partial_keep", ("Sum", [None, 3, 4], [1], True)),
        ("sum_partial_all", ("Sum", [None, 3, 4], [0, 1, 2])),
        ("sum_static_scalar_axis", ("Sum", [2, 3, 4], 1)),
        ("mean_fed_axes", ("Mean", [2, 3, 4], [1], False, X234, None, [1])),
        ("mean_partial", ("Mean", [None, 3, 4], [0, 2])),
        ("mean_partial_int64_axes", ("Mean", [None, 3, 4], [1], True, X234, "int64")),
]:
    def _mk(args):
        # dtype names after the op name become tf dtypes of the running module
        return lambda tf, P: _red(args[0], *[getattr(tf, a) if isinstance(a, str) else a
                                             for a in args[1:]])(tf, P)
    case(_name)(_mk(_args))


@case("sum_static_twice")
def _sum_twice(tf, P):
    """_SumGrad's per-graph cache: the dead Maximum/floordiv nodes come once per (shape, axes)."""
    x = P(tf.float32, [2, 3, 4], "x", X234)
    y = P(tf.float32, [2, 3, 4], "y", X234 * 2)
    ys = [tf.raw_ops.Sum(input=x, axis=[1], name="op"), tf.raw_ops.Sum(input=y, axis=[1]),
          tf.raw_ops.Sum(input=x, axis=[-2]), tf.raw_ops.Mean(input=y, axis=[0, 2])]
    return ys, [x, y]


def _cum(op, exclusive, reverse, value, axis=1, shape=(2, 3, 4)):
    def build(tf, P):
        x = P(tf.float32, list(shape), "x", value)
        return getattr(tf.raw_ops, op)(x=x, axis=axis, exclusive=exclusive, reverse=reverse,
                                       name="op"), [x]
    return build


for _op in ("Cumsum", "Cumprod"):
    for _e in (False, True):
        for _rv in (False, True):
            case("%s_e%d_r%d" % (_op.lower(), _e, _rv))(
                _cum(_op, _e, _rv, X234_ZEROS if _op == "Cumprod" else X234))
case("cumprod_axis0_zeros")(_cum("Cumprod", False, False, X234_ZEROS, axis=0))


# ---- linalg -------------------------------------------------------------------------------

def _bmm(op, sx, sy, vx=None, vy=None, dtype="float32", **attrs):
    def build(tf, P):
        dt = getattr(tf, dtype)
        x = P(dt, sx, "x", _r(*[d or 2 for d in (vx or sx)], dtype=dtype))
        y = P(dt, sy, "y", _r(*[d or 2 for d in (vy or sy)], dtype=dtype))
        if "Tout" in attrs:
            attrs["Tout"] = dt
        return getattr(tf.raw_ops, op)(x=x, y=y, name="op", **attrs), [x, y]
    return build


case("bmm")(_bmm("BatchMatMul", [2, 3, 4], [2, 4, 5]))
case("bmm_rank2")(_bmm("BatchMatMul", [3, 4], [4, 2]))
case("bmm_adj")(_bmm("BatchMatMul", [2, 4, 3], [2, 5, 4], adj_x=True, adj_y=True))
case("bmm_adj_x")(_bmm("BatchMatMul", [2, 4, 3], [2, 4, 5], adj_x=True))
case("bmm_rank2_adj_y")(_bmm("BatchMatMul", [3, 4], [2, 4], adj_y=True))
case("bmm2")(_bmm("BatchMatMulV2", [2, 3, 4], [2, 4, 5]))
case("bmm2_rank2_adj")(_bmm("BatchMatMulV2", [4, 3], [2, 4], adj_x=True, adj_y=True))
case("bmm2_bcast")(_bmm("BatchMatMulV2", [2, 1, 3, 4], [5, 4, 6]))
case("bmm2_bcast_adj_y")(_bmm("BatchMatMulV2", [3, 4], [2, 2, 5, 4], adj_y=True))
case("bmm2_dyn")(_bmm("BatchMatMulV2", [None, 3, 4], [4, 6], vx=[3, 3, 4]))
case("bmm2_unknown_rank")(_bmm("BatchMatMulV2", None, [4, 6], vx=[2, 3, 4]))
case("bmm3")(_bmm("BatchMatMulV3", [2, 3, 4], [1, 4, 2], Tout=True))
case("bmm3_float64_adj")(_bmm("BatchMatMulV3", [1, 4, 3], [3, 2, 4], dtype="float64",
                              Tout=True, adj_x=True, adj_y=True))


def _einsum(eq, *shapes, values=None):
    def build(tf, P):
        xs = [P(tf.float32, s, "x%d" % i,
                _r(*[d or 2 for d in ((values or {}).get(i) or s)]))
              for i, s in enumerate(shapes)]
        return tf.raw_ops.Einsum(inputs=xs, equation=eq, name="op"), xs
    return build


for _name, _eq, _shapes in [
        ("ein_matmul", "ij,jk->ik", ([3, 4], [4, 5])),
        ("ein_batch", "bij,bjk->bik", ([2, 3, 4], [2, 4, 5])),
        ("ein_transpose", "ij->ji", ([3, 4],)),
        ("ein_diag", "ii->i", ([3, 3],)),
        ("ein_trace", "ii->", ([3, 3],)),
        ("ein_outer", "i,j->ij", ([3], [4])),
        ("ein_rowsum", "ij->i", ([3, 4],)),
        ("ein_sum_all", "ij->", ([3, 4],)),
        ("ein_dot", "i,i->", ([5], [5])),
        ("ein_reduce_x", "aij,jk->ik", ([2, 3, 4], [4, 5])),
        ("ein_trace_x", "iij,j->i", ([2, 2, 3], [3])),
        ("ein_unit_label", "i1->i", ([2, 3],)),
        ("ein_bcast", "...ij,...jk->...ik", ([2, 1, 2, 3], [5, 3, 4])),
        ("ein_bcast_same", "...ij,...jk->...ik", ([2, 3], [3, 4])),
        ("ein_to_ellipsis", "ij->...ij", ([2, 3],)),
        ("ein_ellipsis_dot", "...i,...i->...", ([2, 3], [3])),
        ("ein_mid_ellipsis", "i...j,j->i...", ([2, 5, 3], [3])),
        ("ein_attention", "bhqd,bhkd->bhqk", ([2, 3, 4, 5], [2, 3, 6, 5])),
        ("ein_ellipsis_reduce", "...ij->...i", ([2, 3, 4],)),
        ("ein_diag_out", "ij->ii", ([3, 3],)),
        ("ein_partial", "ij,jk->ik", ([None, 4], [4, 5])),
]:
    case(_name)(_einsum(_eq, *_shapes))
# several reduced labels: TensorFlow's label order (a Python set) varies between runs
case("ein_reduce_two", graph=False)(_einsum("abcd->ac", [2, 3, 4, 5]))
case("ein_trace_reduce", graph=False)(_einsum("aabbcd->ca", [2, 2, 3, 3, 4, 5]))
case("ein_reduce_two_binary", graph=False)(_einsum("abc,cd->d", [2, 3, 4], [4, 5]))


# ---- image --------------------------------------------------------------------------------

def _resize(op, shape, size, value_shape=None, dtype="float32", **attrs):
    def build(tf, P):
        x = P(getattr(tf, dtype), shape, "x", _r(*(value_shape or shape), dtype=dtype))
        return getattr(tf.raw_ops, op)(images=x, size=size, name="op", **attrs), [x]
    return build


for _op, _short in (("ResizeBilinear", "bilinear"), ("ResizeNearestNeighbor", "nearest")):
    for _attrs, _tag in (({}, "plain"), ({"align_corners": True}, "align"),
                         ({"half_pixel_centers": True}, "half")):
        case("%s_up_%s" % (_short, _tag))(_resize(_op, [2, 3, 4, 2], [5, 7], **_attrs))
        case("%s_down_%s" % (_short, _tag))(_resize(_op, [1, 6, 9, 1], [4, 5], **_attrs))
    case("%s_dyn" % _short)(_resize(_op, [2, None, 4, 2], [5, 3], value_shape=[2, 3, 4, 2]))
    case("%s_float64" % _short)(_resize(_op, [1, 3, 4, 2], [6, 2], dtype="float64",
                                        half_pixel_centers=True))


# ---- sparse -------------------------------------------------------------------------------

IDX = np.array([[0, 1], [1, 0], [2, 3], [3, 3]], np.int64)


@case("sparse_to_dense")
def _s2d(tf, P):
    i = P(tf.int64, [3, 2], "i", np.array([[0, 1], [1, 3], [2, 0]], np.int64))
    v = P(tf.float32, [3], "v", _r(3))
    d = P(tf.float32, [], "d", np.float32(0.5))
    return tf.raw_ops.SparseToDense(sparse_indices=i, output_shape=tf.constant([3, 4], tf.int64),
                                    sparse_values=v, default_value=d, name="op"), [v, d]


@case("sparse_to_dense_dyn")
def _s2d_dyn(tf, P):
    i = P(tf.int32, [None, 1], "i", np.array([[1], [4]], np.int32))
    v = P(tf.float32, [None], "v", _r(2))
    d = P(tf.float32, [], "d", np.float32(-1.0))
    s = P(tf.int32, [1], "s", np.array([6], np.int32))
    return tf.raw_ops.SparseToDense(sparse_indices=i, output_shape=s, sparse_values=v,
                                    default_value=d, name="op"), [v, d]


@case("sparse_reorder")
def _reorder(tf, P):
    i = P(tf.int64, [5, 3], "i", np.array([[1, 0, 2], [0, 2, 1], [1, 0, 0], [0, 0, 3],
                                           [2, 1, 1]], np.int64))
    v = P(tf.float32, [5], "v", _r(5))
    s = P(tf.int64, [3], "s", np.array([3, 3, 4], np.int64))
    return tf.raw_ops.SparseReorder(input_indices=i, input_values=v, input_shape=s,
                                    name="op")[1], [v]


@case("sparse_reorder_dyn")
def _reorder_dyn(tf, P):
    i = P(tf.int64, [None, 2], "i", np.array([[1, 1], [0, 2], [1, 0]], np.int64))
    v = P(tf.float64, [None], "v", _r(3, dtype=np.float64))
    s = P(tf.int64, [2], "s", np.array([2, 3], np.int64))
    return tf.raw_ops.SparseReorder(input_indices=i, input_values=v, input_shape=s,
                                    name="op")[1], [v]


@case("sparse_reorder_const_shape")
def _reorder_const(tf, P):
    i = P(tf.int64, [None, 2], "i", np.array([[1, 1], [0, 2], [1, 0], [0, 0]], np.int64))
    v = P(tf.float32, [None], "v", _r(4))
    return tf.raw_ops.SparseReorder(input_indices=i, input_values=v,
                                    input_shape=tf.constant([2, 3], tf.int64), name="op")[1], [v]


@case("sparse_to_dense_large")
def _s2d_large(tf, P):
    idx = np.stack([np.arange(1200) * 2, np.arange(1200) % 3], 1).astype(np.int64)
    i = P(tf.int64, [1200, 2], "i", idx)
    v = P(tf.float32, [1200], "v", _r(1200))
    d = P(tf.float32, [], "d", np.float32(0.25))
    return tf.raw_ops.SparseToDense(sparse_indices=i,
                                    output_shape=tf.constant([2400, 3], tf.int64),
                                    sparse_values=v, default_value=d, name="op"), [v, d]


def _stdmm(adj_a, adj_b, b_shape=(4, 3), idx_dtype="int64", b_static=True):
    def build(tf, P):
        it = getattr(tf, idx_dtype)
        i = P(it, [4, 2], "i", IDX.astype(idx_dtype))
        v = P(tf.float32, [4], "v", _r(4))
        b = P(tf.float32, list(b_shape) if b_static else None, "b", _r(*b_shape))
        return tf.raw_ops.SparseTensorDenseMatMul(
            a_indices=i, a_values=v, a_shape=tf.constant([4, 4], tf.int64), b=b,
            adjoint_a=adj_a, adjoint_b=adj_b, name="op"), [v, b]
    return build


for _aa in (False, True):
    for _ab in (False, True):
        case("stdmm_%d%d" % (_aa, _ab))(_stdmm(_aa, _ab, (3, 4) if _ab else (4, 3)))
case("stdmm_int32_indices")(_stdmm(False, False, idx_dtype="int32"))
case("stdmm_wide")(_stdmm(False, True, (6, 4)))
case("stdmm_unknown_b_adj")(_stdmm(True, True, (3, 4), b_static=False))


@case("sparse_add")
def _sadd(tf, P):
    ai = P(tf.int64, [3, 2], "ai", np.array([[0, 0], [1, 2], [2, 1]], np.int64))
    av = P(tf.float32, [3], "av", _r(3))
    ash = P(tf.int64, [2], "ash", np.array([3, 3], np.int64))
    bi = P(tf.int64, [4, 2], "bi", np.array([[0, 0], [0, 2], [1, 2], [2, 2]], np.int64))
    bv = P(tf.float32, [4], "bv", _r(4))
    bsh = P(tf.int64, [2], "bsh", np.array([3, 3], np.int64))
    t = P(tf.float32, [], "t", np.float32(0.0))
    out = tf.raw_ops.SparseAdd(a_indices=ai, a_values=av, a_shape=ash, b_indices=bi,
                               b_values=bv, b_shape=bsh, thresh=t, name="op")
    return out[1], [av, bv, t]


@case("sparse_add_thresh")
def _sadd_thresh(tf, P):
    ai = P(tf.int64, [3, 2], "ai", np.array([[0, 1], [1, 1], [2, 0]], np.int64))
    av = P(tf.float64, [3], "av", np.array([0.5, -0.25, 2.0]))
    ash = P(tf.int64, [2], "ash", np.array([3, 2], np.int64))
    bi = P(tf.int64, [2, 2], "bi", np.array([[1, 1], [2, 1]], np.int64))
    bv = P(tf.float64, [2], "bv", np.array([0.3, 0.1]))
    bsh = P(tf.int64, [2], "bsh", np.array([3, 2], np.int64))
    t = P(tf.float64, [], "t", np.float64(0.2))
    out = tf.raw_ops.SparseAdd(a_indices=ai, a_values=av, a_shape=ash, b_indices=bi,
                               b_values=bv, b_shape=bsh, thresh=t, name="op")
    return out[1] * out[1], [av, bv]


@case("sparse_dense_add")
def _stda(tf, P):
    ai = P(tf.int64, [3, 2], "ai", np.array([[0, 0], [1, 2], [0, 2]], np.int64))
    av = P(tf.float32, [3], "av", _r(3))
    ash = P(tf.int64, [2], "ash", np.array([2, 3], np.int64))
    b = P(tf.float32, [2, 3], "b", _r(2, 3))
    return tf.raw_ops.SparseTensorDenseAdd(a_indices=ai, a_values=av, a_shape=ash, b=b,
                                           name="op"), [av, b]
