"""Programs using tf.variable_scope / tf.get_variable / initializers, written against the
TF1 API so that the same code runs on TensorFlow 2.21 (tf.compat.v1) and on minitf.

Each case takes the `tf` module and returns a dict of observable results (op names, types
and inputs, variable names, collections, error messages, initial values). The script
tools/gen_varscope_expected.py runs them on real TensorFlow and prints the dicts; the tests
(test_variable_scope.py, test_initializers.py) hold those dicts as literals and compare.
"""


def _colocation(op):
    attr = op.node_def.attr
    return [s.decode() for s in attr["_class"].list.s] if "_class" in attr else []


def graph_ops(g):
    """(name, type, [input names], [control input names], [_class attr]) for every op of `g`."""
    return [(op.name, op.type, [t.name for t in op.inputs], [c.name for c in op.control_inputs],
             _colocation(op)) for op in g.get_operations()]


def error_of(fn):
    """(exception class name, message) raised by fn(), or None."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the class name is part of the result
        return (type(e).__name__, str(e))
    return None


def names(vs):
    return [v.name for v in vs]


def initial_values(tf, g, variables):
    """Runs the global initializer in a new session; the variables' values as lists."""
    with tf.Session(graph=g) as sess:
        sess.run(tf.global_variables_initializer())
        return [sess.run(v).tolist() for v in variables]


def _in_graph(fn):
    def case(tf):
        g = tf.Graph()
        with g.as_default():
            return fn(tf, g)
    case.__name__ = fn.__name__
    return case


CASES = {}


def case(fn):
    CASES[fn.__name__] = _in_graph(fn)
    return fn


@case
def basic_seeded(tf, g):
    tf.set_random_seed(1)
    with tf.variable_scope("scope"):
        v = tf.get_variable("v", [2, 3])
    r = {"ops": graph_ops(g), "repr": repr(v), "name": v.name, "shape": v.shape.as_list(),
         "dtype": v.dtype.name, "keys": sorted(g.get_all_collection_keys())}
    r["values"] = initial_values(tf, g, [v])
    return r


@case
def reuse_and_name_scopes(tf, g):
    with tf.variable_scope("foo"):
        v = tf.get_variable("v", [1], initializer=tf.zeros_initializer())
        a = tf.constant(1.0, name="a")
    with tf.variable_scope("foo", reuse=True) as scope:
        v1 = tf.get_variable("v", [1])
        b = tf.constant(1.0, name="a")
        scope_info = (scope.name, scope.original_name_scope, scope.reuse)
    with tf.variable_scope("foo") as scope:
        scope.reuse_variables()
        v2 = tf.get_variable("v")
        c = tf.constant(1.0, name="a")
        scope_info2 = (scope.name, scope.original_name_scope, scope.reuse)
    return {"same": [v1 is v, v2 is v], "tensors": [a.name, b.name, c.name],
            "scopes": [scope_info, scope_info2], "ops": graph_ops(g)}


@case
def errors(tf, g):
    with tf.variable_scope("scope"):
        tf.get_variable("v", [1])
    r = {}

    def twice():
        with tf.variable_scope("scope"):
            tf.get_variable("v", [1])
    r["exists"] = error_of(twice)

    def missing():
        with tf.variable_scope("scope", reuse=True):
            tf.get_variable("w", [1])
    r["missing"] = error_of(missing)

    def bad_shape():
        with tf.variable_scope("scope", reuse=True):
            tf.get_variable("v", [2])
    r["shape"] = error_of(bad_shape)

    def bad_dtype():
        with tf.variable_scope("scope", reuse=True):
            tf.get_variable("v", [1], dtype=tf.int32)
    r["dtype"] = error_of(bad_dtype)
    r["no_shape"] = error_of(lambda: tf.get_variable("u"))
    r["const_and_shape"] = error_of(lambda: tf.get_variable("u", [2], initializer=[1.0, 2.0]))
    r["init_dtype"] = error_of(lambda: tf.get_variable("u", initializer=[1, 2], dtype=tf.float32))
    r["no_name"] = error_of(lambda: tf.variable_scope(None))
    r["bad_reuse"] = error_of(lambda: tf.variable_scope("x", reuse="yes"))
    r["bad_aux"] = error_of(lambda: tf.variable_scope("x", auxiliary_name_scope=1))

    def bad_type():
        with tf.variable_scope(3):
            pass
    r["bad_type"] = error_of(bad_type)

    def reuse_default():
        with tf.variable_scope(None, default_name="d", reuse=True):
            pass
    r["reuse_default"] = error_of(reuse_default)
    r["complex"] = error_of(lambda: tf.get_variable("c", [1], dtype=tf.complex64))
    r["ops"] = graph_ops(g)
    r["globals"] = names(tf.global_variables())
    return r


@case
def auto_reuse(tf, g):
    def layer():
        with tf.variable_scope("layer", reuse=tf.AUTO_REUSE):
            w = tf.get_variable("w", [2], initializer=tf.ones_initializer())
            return w, tf.constant(0, name="c").name
    w1, n1 = layer()
    w2, n2 = layer()
    return {"same": w1 is w2, "names": [w1.name, n1, n2], "globals": names(tf.global_variables()),
            "reuse_repr": repr(tf.AUTO_REUSE) if hasattr(tf.AUTO_REUSE, "name") else None,
            "ops": graph_ops(g)}


@case
def reenter_by_object(tf, g):
    with tf.variable_scope("outer") as outer:
        c0 = tf.constant(1.0, name="c")
        tf.get_variable("a", [1], initializer=tf.zeros_initializer())
    with tf.variable_scope(outer):
        c1 = tf.constant(1.0, name="c")
        w = tf.get_variable("w", [1], initializer=tf.zeros_initializer())
        s1 = tf.get_variable_scope()
        info1 = (s1.name, s1.original_name_scope, s1.reuse)
    with tf.variable_scope("other"):
        with tf.variable_scope(outer, reuse=True) as s2:
            c2 = tf.constant(1.0, name="c")
            a = tf.get_variable("a")
            info2 = (s2.name, s2.original_name_scope, s2.reuse)
            with tf.variable_scope("inner") as s3:
                c3 = tf.constant(1.0, name="c")
                info3 = (s3.name, s3.original_name_scope, s3.reuse)
    with tf.variable_scope(outer, auxiliary_name_scope=False) as s4:
        c4 = tf.constant(1.0, name="c")
        info4 = (s4.name, s4.original_name_scope)
    with tf.variable_scope("outer/"):
        c5 = tf.constant(1.0, name="c")
    with tf.name_scope(outer.original_name_scope):
        c6 = tf.constant(1.0, name="c")
    return {"consts": [c0.name, c1.name, c2.name, c3.name, c4.name, c5.name, c6.name],
            "vars": [w.name, a.name], "scopes": [info1, info2, info3, info4],
            "globals": names(tf.global_variables())}


@case
def default_names(tf, g):
    out = []
    for _ in range(2):
        with tf.variable_scope(None, default_name="layer") as s:
            v = tf.get_variable("w", [1], initializer=tf.zeros_initializer())
            out.append((s.name, s.original_name_scope, v.name, tf.constant(0, name="c").name))
    with tf.variable_scope("layer_2"):
        pass
    with tf.variable_scope(None, default_name="layer") as s:
        out.append((s.name, s.original_name_scope))
    with tf.variable_scope("block"):
        for _ in range(2):
            with tf.variable_scope(None, default_name="layer") as s:
                out.append((s.name, s.original_name_scope))
    with tf.variable_scope("block"):
        with tf.variable_scope(None, default_name="layer") as s:
            out.append((s.name, s.original_name_scope))
    with tf.variable_scope(None, "net", values=[tf.constant(1.0)]) as s:
        out.append((s.name, s.original_name_scope))
    with tf.variable_scope("", default_name="x") as s:
        out.append((s.name, s.original_name_scope, tf.constant(0, name="c").name))
    return {"scopes": out}


@case
def name_scope_interplay(tf, g):
    with tf.name_scope("ns"):
        v = tf.get_variable("v", [1], initializer=tf.zeros_initializer())
        c = tf.constant(0.0, name="c")
        with tf.variable_scope("vs") as s:
            w = tf.get_variable("w", [1], initializer=tf.zeros_initializer())
            d = tf.constant(0.0, name="d")
            info = (s.name, s.original_name_scope)
    with tf.variable_scope("vs2"):
        with tf.name_scope("inner"):
            x = tf.get_variable("x", [1], initializer=tf.zeros_initializer())
            e = tf.constant(0.0, name="e")
        with tf.name_scope(None):
            f = tf.constant(0.0, name="f")
    tf.constant(0.0, name="q")
    with tf.variable_scope("q"):
        q = tf.get_variable("v", [1], initializer=tf.zeros_initializer())
        h = tf.constant(0.0, name="h")
    tf.constant(0.0, name="z/v")
    with tf.variable_scope("z"):
        z = tf.get_variable("v", [1], initializer=tf.zeros_initializer())
    return {"vars": [v.name, w.name, x.name, q.name, z.name, z.op.name],
            "tensors": [c.name, d.name, e.name, f.name, h.name], "info": info,
            "scope_name": tf.get_variable_scope().name}


@case
def inheritance(tf, g):
    with tf.variable_scope("a", initializer=tf.constant_initializer(0.5), dtype=tf.float64) as a:
        v = tf.get_variable("v", [2])
        with tf.variable_scope("b", reuse=tf.AUTO_REUSE) as b:
            w = tf.get_variable("w", [2])
            with tf.variable_scope("c") as c:
                x = tf.get_variable("x", [1], dtype=tf.float32)
                y = tf.get_variable("y", [1], initializer=tf.ones_initializer())
                infos = [(s.name, s.reuse is tf.AUTO_REUSE, repr(s.reuse), s.dtype.name,
                          type(s.initializer).__name__) for s in (a, b, c)]
    with tf.variable_scope(a, reuse=True) as a2:
        v2 = tf.get_variable("v")
        info2 = (a2.name, a2.reuse, a2.dtype.name, type(a2.initializer).__name__)
    with tf.variable_scope("r", reuse=True):
        with tf.variable_scope("s") as s:
            info3 = s.reuse
    root = tf.get_variable_scope()
    r = {"infos": infos, "info2": info2, "info3": info3, "same": v2 is v,
         "root": (root.name, root.original_name_scope, root.reuse, root.dtype.name,
                  root.initializer),
         "vars": [(t.name, t.dtype.name) for t in (v, w, x, y)]}
    r["values"] = initial_values(tf, g, [v, w, x, y])
    return r


@case
def collections_and_filters(tf, g):
    zi = tf.zeros_initializer()
    with tf.variable_scope("net"):
        a = tf.get_variable("a", [1], initializer=zi)
        b = tf.get_variable("b", [1], initializer=zi, trainable=False)
        c = tf.get_variable("c", [1], initializer=zi,
                            collections=[tf.GraphKeys.LOCAL_VARIABLES])
        d = tf.get_variable("d", [1], initializer=zi, collections=["mine"])
        with tf.variable_scope("sub") as sub:
            e = tf.get_variable("e", [1], initializer=zi)
    f = tf.get_variable("netx", [1], initializer=zi)
    init = tf.variables_initializer([a, b], name="init_ab")
    init2 = tf.variables_initializer([])
    g_init = tf.global_variables_initializer()
    l_init = tf.local_variables_initializer()
    return {
        "global": names(tf.global_variables()),
        "trainable": names(tf.trainable_variables()),
        "local": names(tf.local_variables()),
        "mine": names(tf.get_collection("mine")),
        "global_net": names(tf.global_variables("net")),
        "global_net_slash": names(tf.global_variables(scope="net/")),
        "trainable_sub": names(tf.trainable_variables("net/sub")),
        "sub_scope": names(sub.global_variables()) + names(sub.trainable_variables()),
        "sub_local": names(sub.local_variables()),
        "trainable_attr": [v.trainable for v in (a, b, c, d, e, f)],
        "inits": [(op.name, op.type, [x.name for x in op.control_inputs])
                  for op in (init, init2, g_init, l_init)],
    }


@case
def values_and_initializing_from_value(tf, g):
    tf.set_random_seed(7)
    with tf.variable_scope("m"):
        a = tf.get_variable("a", initializer=tf.constant([[1.0, 2.0], [3.0, 4.0]]))
        b = tf.get_variable("b", initializer=[1, 2, 3])
        c = tf.get_variable("c", [2, 2], dtype=tf.int32)
        d = tf.get_variable("d", [3], dtype=tf.float64)
        e = tf.get_variable("e", initializer=lambda: tf.ones([2]))
        f = tf.get_variable("f", [], dtype=tf.bool)
        h = tf.get_variable("h", [2], initializer=tf.constant_initializer([5, 6]),
                            dtype=tf.int64)
    r = {"vars": [(v.name, v.dtype.name, v.shape.as_list()) for v in (a, b, c, d, e, f, h)],
         "ops": graph_ops(g)}
    r["values"] = initial_values(tf, g, [a, b, c, d, e, f, h])
    return r


@case
def regularizer_and_getter(tf, g):
    # (A regularizer reading the variable would also show how variables convert to tensors,
    # which this file does not test.)
    def reg(v):
        return tf.constant(0.5, name="reg") * 2.0

    def getter(getter, name, *args, **kwargs):
        kwargs["trainable"] = False
        return getter(name + "_x", *args, **kwargs)
    with tf.variable_scope("r", regularizer=reg, initializer=tf.ones_initializer()):
        v = tf.get_variable("v", [2])
    with tf.variable_scope("cg", custom_getter=getter, initializer=tf.ones_initializer()):
        w = tf.get_variable("w", [1])
    losses = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
    r = {"ops": graph_ops(g), "losses": [t.name for t in losses],
         "w": (w.name, w.trainable), "trainable": names(tf.trainable_variables())}
    with tf.Session(graph=g) as sess:
        sess.run(tf.global_variables_initializer())
        r["loss_values"] = [float(x) for x in sess.run(losses)]
    return r


@case
def control_deps_ignored(tf, g):
    x = tf.constant(1.0, name="x")
    with tf.control_dependencies([x]):
        with tf.variable_scope("cd"):
            v = tf.get_variable("v", [2], initializer=tf.zeros_initializer())
            y = tf.constant(0.0, name="y")
    return {"ops": graph_ops(g), "y": y.name}


# -- initializers called directly and through get_variable, with seeds ---------------------

def _init_program(tf):
    tf.set_random_seed(42)
    inits = [
        ("zeros", tf.zeros_initializer(), [2, 2], None),
        ("ones", tf.ones_initializer(), [3], tf.float64),
        ("const", tf.constant_initializer([1, 2, 3, 4]), [2, 2], None),
        ("const_scalar", tf.constant_initializer(7), [2, 3], tf.int32),
        ("ru", tf.random_uniform_initializer(-2.0, 3.0), [3, 4], None),
        ("ru_seed", tf.random_uniform_initializer(seed=5), [4], None),
        ("ru_int", tf.random_uniform_initializer(0, 10), [5], tf.int32),
        ("rn", tf.random_normal_initializer(1.0, 2.0), [3, 3], None),
        ("rn64", tf.random_normal_initializer(seed=3), [2], tf.float64),
        ("tn", tf.truncated_normal_initializer(0.0, 0.5), [2, 5], None),
        ("gu", tf.glorot_uniform_initializer(), [4, 3], None),
        ("gn", tf.glorot_normal_initializer(seed=11), [3, 2], None),
        ("vs_default", tf.variance_scaling_initializer(), [3, 4], None),
        ("vs_fan_out_uniform", tf.variance_scaling_initializer(
            2.0, mode="fan_out", distribution="uniform"), [2, 3, 4], None),
        ("vs_fan_avg_untrunc", tf.variance_scaling_initializer(
            mode="fan_avg", distribution="untruncated_normal"), [5], None),
        ("vs_normal", tf.variance_scaling_initializer(distribution="normal"), [], None),
        ("glorot_conv", tf.initializers.glorot_uniform(), [3, 3, 2, 4], None),
        ("he_normal", tf.initializers.he_normal(seed=1), [4, 2], None),
        ("lecun_uniform", tf.initializers.lecun_uniform(), [2, 2], None),
        ("he_uniform", tf.initializers.he_uniform(), [3], None),
        ("lecun_normal", tf.initializers.lecun_normal(), [2], None),
        ("aliases", tf.initializers.random_normal(stddev=0.1), [2], None),
    ]
    return inits


@case
def initializers_direct(tf, g):
    tensors = []
    for name, init, shape, dtype in _init_program(tf):
        t = init(shape) if dtype is None else init(shape, dtype=dtype)
        tensors.append((name, t))
    r = {"tensors": [(n, t.name, t.dtype.name, t.shape.as_list()) for n, t in tensors],
         "ops": graph_ops(g)}
    with tf.Session(graph=g) as sess:
        r["values"] = [sess.run(t).tolist() for _, t in tensors]
    return r


@case
def initializers_get_variable(tf, g):
    variables = []
    for name, init, shape, dtype in _init_program(tf):
        kw = {} if dtype is None else {"dtype": dtype}
        variables.append(tf.get_variable(name, shape, initializer=init, **kw))
    r = {"ops": graph_ops(g)}
    r["values"] = initial_values(tf, g, variables)
    return r


@case
def initializer_configs_and_errors(tf, g):
    r = {
        "configs": [
            tf.zeros_initializer().get_config(),
            tf.constant_initializer(3.0).get_config(),
            tf.random_uniform_initializer(-1.0, 1.0, seed=2).get_config(),
            tf.random_normal_initializer().get_config(),
            tf.truncated_normal_initializer(stddev=0.1).get_config(),
            tf.variance_scaling_initializer().get_config(),
            tf.glorot_uniform_initializer(seed=4).get_config(),
            tf.glorot_normal_initializer().get_config(),
        ],
        "from_config": type(tf.random_normal_initializer.from_config(
            {"mean": 1.0, "stddev": 2.0, "seed": None, "dtype": "float32"})).__name__,
        "errors": [
            error_of(lambda: tf.variance_scaling_initializer(scale=0.0)),
            error_of(lambda: tf.variance_scaling_initializer(mode="fan")),
            error_of(lambda: tf.variance_scaling_initializer(distribution="cauchy")),
            error_of(lambda: tf.random_normal_initializer(dtype=tf.int32)),
            error_of(lambda: tf.truncated_normal_initializer(dtype=tf.int64)),
            error_of(lambda: tf.constant_initializer({"a": 1})),
        ],
        "classes": [type(x()).__name__ for x in (
            tf.zeros_initializer, tf.ones_initializer, tf.constant_initializer,
            tf.random_uniform_initializer, tf.random_normal_initializer,
            tf.truncated_normal_initializer, tf.glorot_uniform_initializer,
            tf.glorot_normal_initializer, tf.variance_scaling_initializer)],
    }
    return r


@case
def reenter_same_object_and_getters(tf, g):
    vs = tf.variable_scope("blk")
    out = []
    for _ in range(2):
        with vs as s:
            out.append((s.name, s.original_name_scope, tf.constant(0, name="c").name))
    calls = []

    def outer_getter(getter, name, *args, **kwargs):
        calls.append(("outer", name))
        return getter(name, *args, **kwargs)

    def inner_getter(getter, name, *args, **kwargs):
        calls.append(("inner", name))
        return getter(name + "_in", *args, **kwargs)
    with tf.variable_scope("g", custom_getter=outer_getter,
                           initializer=tf.zeros_initializer()):
        with tf.variable_scope("h", custom_getter=inner_getter):
            v = tf.get_variable("v", [1])
    loc = tf.get_local_variable("loc", [2], initializer=tf.ones_initializer())
    other = tf.Graph()
    with other.as_default():
        t = tf.constant(1.0, name="t")
    with tf.variable_scope("in_other", values=[t]):
        w = tf.get_variable("w", [1], initializer=tf.zeros_initializer())
        in_other = (w.graph is other, tf.get_default_graph() is other)
    return {"scopes": out, "calls": calls, "v": v.name,
            "loc": (loc.name, loc.trainable, names(tf.local_variables()),
                    names(tf.global_variables())),
            "in_other": in_other, "graph_vars": names(g.get_collection("variables")),
            "other_vars": names(other.get_collection("variables"))}


@case
def mlp_forward(tf, g):
    """A two-layer MLP as TF1 programs write it: values only (reads of variables in
    expressions are not compared op by op). The initial values are exact; the outputs go
    through MatMul and Tanh, whose last bits differ between BLAS libraries."""
    tf.set_random_seed(2024)

    def dense(x, n_out, name, act=None):
        with tf.variable_scope(name):
            w = tf.get_variable("kernel", [int(x.shape[1]), n_out])
            b = tf.get_variable("bias", [n_out], initializer=tf.zeros_initializer())
            y = tf.matmul(x, w) + b
            return act(y) if act else y
    x = tf.constant([[0.5, -1.0, 2.0, 0.25], [1.5, 0.0, -0.5, 1.0]])
    with tf.variable_scope("mlp"):
        h = dense(x, 3, "hidden", tf.tanh)
        out = dense(h, 2, "logits")
    with tf.variable_scope("mlp", reuse=True):
        again = dense(x, 3, "hidden", tf.tanh)
    with tf.Session(graph=g) as sess:
        sess.run(tf.global_variables_initializer())
        o, a, hv = sess.run([out, again, h])
        init = [sess.run(v).tolist() for v in tf.trainable_variables()]
    return {"init_values": init,
            "vars": [(v.name, v.shape.as_list()) for v in tf.trainable_variables()],
            "out": o.tolist(), "reuse_equal": bool((a == hv).all())}


@case
def plain_variable_colocation(tf, g):
    """tf.Variable (not get_variable) also colocates its initializer with its handle and
    ignores enclosing control dependencies."""
    x = tf.constant(1.0, name="x")
    with tf.control_dependencies([x]):
        v = tf.Variable(lambda: tf.zeros([2]), name="lam")
        w = tf.Variable([1.0, 2.0])
    return {"ops": graph_ops(g), "names": [v.name, w.name]}
