"""Programs over ref and resource variables and the state ops, written against the TF1 API
so that the same code runs on TensorFlow 2.21 (tf.compat.v1 graph mode) and on minitf.

Each case takes the `tf` module and returns a dict of observable results: fetched values (as
[dtype name, nested list]), graph structure (op name, type, inputs, _class) and errors (class
name and TensorFlow's core message, without the "Detected at node" traceback part).
tools/gen_state_expected.py runs them on TensorFlow and writes tests/fixtures/state_expected.json;
tests/python/test_state_ops.py replays them on minitf and compares.
"""
import numpy as np


def val(x):
    a = np.asarray(x)
    if a.dtype.kind == "c":
        return ["float64", np.stack([a.real, a.imag], -1).astype(np.float64).tolist()]
    if a.dtype.kind in "SO":
        return ["bytes", [v.decode() if isinstance(v, bytes) else v for v in a.ravel().tolist()]]
    return [a.dtype.name, a.tolist()]


def core_message(msg):
    """The error text TensorFlow's kernel wrote: drops the 'Graph execution error' and
    'Detected at node' preamble and the trailing node annotations / traceback."""
    if "\nNode: '" in msg:
        msg = msg.split("\nNode: '", 1)[1].split("\n", 1)[1]
    msg = msg.split("\n\t [[")[0]
    return msg.strip()


def error_of(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the class name is part of the result
        return [type(e).__name__, core_message(getattr(e, "message", str(e)))]
    return None


def graph_ops(g):
    def coloc(op):
        attr = op.node_def.attr
        return [s.decode() for s in attr["_class"].list.s] if "_class" in attr else []
    return [[op.name, op.type, [t.name for t in op.inputs], [c.name for c in op.control_inputs],
             coloc(op)] for op in g.get_operations()]


class _Slices:
    def __init__(self, values, indices):
        self.values, self.indices = values, indices


def slices(tf, values, indices):
    cls = getattr(tf, "IndexedSlices", None)
    return cls(values, indices) if cls is not None else _Slices(values, indices)


def ref_variable_lifecycle(tf):
    g = tf.Graph()
    out = {}
    with g.as_default():
        v = tf.Variable([1.0, 2.0, 3.0], use_resource=False, name="v")
        with tf.variable_scope("s"):
            w = tf.get_variable("w", [2, 2], use_resource=False,
                                initializer=tf.constant_initializer(0.5))
        c = tf.Variable(0, use_resource=False, name="c")
        out["names"] = [v.name, w.name, c.name, v.op.name, v.initializer.name, v.value().name]
        out["dtypes"] = [v.dtype.name, w.dtype.name, v.value().dtype.name]
        upd = [tf.assign_add(v, [1.0, 1.0, 1.0]), tf.assign_sub(v, [0.5, 0.5, 0.5]),
               tf.scatter_add(v, [0, 2], [10.0, 20.0]), tf.scatter_sub(v, [1], [1.0]),
               tf.scatter_mul(v, [0, 0], [2.0, 3.0]), tf.scatter_div(v, [2], [4.0]),
               tf.scatter_min(v, [0, 1], [5.0, 100.0]), tf.scatter_max(v, [1], [9.0]),
               tf.scatter_update(v, [2], [-1.0]), tf.scatter_nd_update(v, [[1]], [7.0]),
               tf.scatter_nd_add(v, [[0], [0]], [1.0, 2.0]), tf.scatter_nd_sub(v, [[2]], [3.0])]
        w_upd = [tf.scatter_update(w, [1], [[4.0, 5.0]]), tf.scatter_nd_add(w, [[0, 1]], [2.5]),
                 w.assign([[1.0, 2.0], [3.0, 4.0]]), w.assign_add(tf.ones([2, 2])),
                 w.scatter_sub(slices(tf, tf.constant([[1.0, 1.0]]), tf.constant([0])))]
        count = c.count_up_to(2)
        init_v = tf.is_variable_initialized(v)
        report = tf.report_uninitialized_variables()
        out["graph"] = graph_ops(g)
        with tf.Session() as sess:
            out["uninit_read"] = error_of(lambda: sess.run(v))
            out["uninit_update"] = error_of(lambda: sess.run(upd[0]))
            out["report_before"] = val(sess.run(report))
            out["init_before"] = val(sess.run(init_v))
            sess.run(v.initializer)
            out["report_mid"] = val(sess.run(report))
            sess.run(tf.global_variables_initializer())
            out["report_after"] = val(sess.run(report))
            out["steps"] = [val(sess.run(u)) for u in upd]
            out["w_steps"] = [val(sess.run(u)) for u in w_upd]
            out["counts"] = [val(sess.run(count)), val(sess.run(count))]
            out["count_limit"] = error_of(lambda: sess.run(count))
            out["final"] = [val(sess.run(v)), val(sess.run(w)), val(sess.run(c))]
        with tf.Session() as sess:  # a new session: the variables start uninitialized again
            out["new_session"] = error_of(lambda: sess.run(v.value()))
    return out


def resource_variable_updates(tf):
    g = tf.Graph()
    out = {}
    with g.as_default():
        v = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], name="rv")
        n = tf.Variable(3, name="n", dtype=tf.int64)
        a1 = v.assign_add([[1.0, 1.0]] * 3)
        a2 = v.assign_sub([[0.5, 0.5]] * 3, read_value=False)
        s = [v.scatter_add(slices(tf, tf.constant([[10.0, 10.0]]), tf.constant([1]))),
             v.scatter_mul(slices(tf, tf.constant([[2.0, 2.0], [3.0, 3.0]]), tf.constant([0, 0]))),
             v.scatter_div(slices(tf, tf.constant([[4.0, 4.0]]), tf.constant([2]))),
             v.scatter_min(slices(tf, tf.constant([[0.0, 100.0]]), tf.constant([1]))),
             v.scatter_max(slices(tf, tf.constant([[50.0, 0.0]]), tf.constant([2]))),
             v.scatter_update(slices(tf, tf.constant([[-1.0, -2.0]]), tf.constant([0]))),
             tf.scatter_sub(v, [1, 1], [[1.0, 1.0], [1.0, 1.0]]),
             tf.scatter_nd_update(v, [[0, 0], [2, 1]], [9.0, 8.0]),
             tf.scatter_nd_add(v, [[1]], [[0.25, 0.75]]),
             tf.scatter_nd_sub(v, [[2, 0]], [1.0]),
             tf.assign_add(v, tf.ones([3, 2])), tf.assign_sub(v, tf.ones([3, 2]))]
        gathered = tf.raw_ops.ResourceGather(resource=v.handle, indices=[2, 0], dtype=tf.float32)
        gathered_nd = tf.raw_ops.ResourceGatherNd(resource=v.handle, indices=[[1, 0], [2, 1]],
                                                  dtype=tf.float32)
        vshape = tf.raw_ops.VariableShape(input=v.handle)
        cnt = n.count_up_to(5)
        bad = tf.raw_ops.AssignAddVariableOp(
            resource=v.handle, value=tf.placeholder_with_default(tf.ones([2, 2]), None),
            name="bad_add")
        bad_idx = tf.scatter_add(v, [7], [[1.0, 1.0]])
        out["graph"] = graph_ops(g)
        with tf.Session() as sess:
            out["uninit"] = error_of(lambda: sess.run(v))
            out["uninit_add"] = error_of(lambda: sess.run(a1))
            sess.run(tf.global_variables_initializer())
            out["a1"] = val(sess.run(a1))
            sess.run(a2)
            out["a2"] = val(sess.run(v))
            out["scatters"] = [val(sess.run(x)) for x in s]
            out["gather"] = [val(sess.run(gathered)), val(sess.run(gathered_nd)),
                             val(sess.run(vshape))]
            out["counts"] = [val(sess.run(cnt)), val(sess.run(cnt))]
            out["count_limit"] = error_of(lambda: sess.run(cnt))
            out["bad_add"] = error_of(lambda: sess.run(bad))
            out["bad_idx"] = error_of(lambda: sess.run(bad_idx))
            out["after_errors"] = val(sess.run(v))
            sess.run(tf.raw_ops.DestroyResourceOp(resource=v.handle))
            out["destroyed"] = error_of(lambda: sess.run(v.value()))
    return out


def ref_errors(tf):
    g = tf.Graph()
    out = {}
    with g.as_default():
        v = tf.Variable([[1.0, 2.0], [3.0, 4.0]], use_resource=False, name="v")
        i = tf.Variable([4, 5], use_resource=False, name="i")
        p = tf.placeholder_with_default
        ops_ = {
            "assign_shape": tf.assign(v, p(tf.ones([3]), None)),
            "assign_add_shape": tf.assign_add(v, p(tf.ones([3]), None)),
            "scatter_idx": tf.scatter_add(v, [5], [[1.0, 1.0]]),
            "scatter_idx2": tf.scatter_update(v, [[0, 5]], tf.ones([1, 2, 2])),
            "scatter_shape": tf.scatter_add(v, [0], p(tf.ones([1, 3]), None)),
            "scatter_nd_idx": tf.scatter_nd_add(v, [[5, 0]], [1.0]),
            "scatter_nd_shape": tf.scatter_nd_add(v, [[1]], p(tf.ones([1, 3]), None)),
        }
        no_validate = tf.assign(v, tf.ones([3]), validate_shape=False)
        scalar_upd = tf.scatter_update(v, [1], 7.0)
        int_div = tf.scatter_div(i, [1], [2])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for k in sorted(ops_):
                out[k] = error_of(lambda: sess.run(ops_[k]))
            out["unchanged"] = val(sess.run(v))
            out["scalar_update"] = val(sess.run(scalar_upd))
            out["int_div"] = val(sess.run(int_div))
            out["no_validate"] = val(sess.run(no_validate))
            out["after_no_validate"] = val(sess.run(v))
        try:
            tf.assign_add(v, tf.ones([5]))
            out["static_shape"] = None
        except ValueError as e:
            out["static_shape"] = ["ValueError", str(e)]
        out["not_ref"] = error_of(lambda: tf.raw_ops.Assign(ref=tf.constant([1.0]),
                                                            value=tf.constant([2.0])))
    return out


def dtypes_sweep(tf):
    """ScatterAdd / ScatterUpdate / AssignAdd on every CPU dtype TensorFlow registers."""
    out = {}
    for name in ["float32", "float64", "int32", "int64", "int8", "int16", "uint8", "uint16",
                 "uint32", "uint64", "float16", "bfloat16", "complex64", "complex128"]:
        g = tf.Graph()
        with g.as_default():
            dt = getattr(tf, name)
            v = tf.Variable(tf.cast([1, 2, 3], dt), use_resource=False, name="v")
            r = tf.Variable(tf.cast([1, 2, 3], dt), name="r")
            a = tf.scatter_add(v, [0, 0, 2], tf.cast([5, 6, 7], dt))
            b = tf.assign_add(v, tf.cast([1, 1, 1], dt))
            c = tf.scatter_update(v, [1], tf.cast([9], dt))
            d = r.scatter_add(slices(tf, tf.cast([4, 4], dt), tf.constant([2, 1])))
            e = tf.scatter_mul(v, [2], tf.cast([3], dt))
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                out[name] = [val(sess.run(tf.cast(x, tf.float64) if "complex" not in name
                                          else x)) for x in (a, b, c, d, e)]
    for name in ["bool", "string"]:
        g = tf.Graph()
        with g.as_default():
            init = [True, False] if name == "bool" else ["a", "bc"]
            v = tf.Variable(init, use_resource=False, name="v")
            r = tf.Variable(init, name="r")
            upd = [True] if name == "bool" else ["zz"]
            a = tf.scatter_update(v, [1], upd)
            b = r.scatter_update(slices(tf, tf.constant(upd), tf.constant([0])))
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                out[name] = [val(sess.run(a)), val(sess.run(b))]
    return out


def temporary_variable(tf):
    g = tf.Graph()
    with g.as_default():
        t = tf.raw_ops.TemporaryVariable(shape=[2], dtype=tf.float32, var_name="tv")
        a = tf.raw_ops.AssignAdd(ref=tf.raw_ops.Assign(ref=t, value=[1.0, 2.0]), value=[3.0, 3.0])
        d = tf.raw_ops.DestroyTemporaryVariable(ref=a, var_name="tv")
        with tf.Session() as sess:
            return {"value": [val(sess.run(d)), val(sess.run(d))], "dtype": t.dtype.name}


def imported_tf1_graph(tf):
    """A graph built with ref variables, exported and imported: the imported VariableV2,
    Assign and Identity run as written."""
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable([2.0, 3.0], use_resource=False, name="v")
        y = tf.multiply(v, 4.0, name="y")
        step = tf.assign_add(v, [1.0, -1.0], name="step")
    gd = g.as_graph_def()
    g2 = tf.Graph()
    with g2.as_default():
        tf.import_graph_def(gd, name="")
        with tf.Session() as sess:
            sess.run("v/Assign")
            first = val(sess.run("y:0"))
            sess.run("step")
            sess.run("step")
            return {"first": first, "after": val(sess.run("y:0")), "v": val(sess.run("v:0")),
                    "types": [g2.get_operation_by_name(n).outputs[0].dtype.name
                              for n in ("v", "v/read", "step", "y")]}


def moving_average(tf):
    """ExponentialMovingAverage over a ref variable, a resource variable and a tensor, with
    num_updates; the update ops (not the shadow initializers, which TensorFlow builds with a
    cond) compared op for op."""
    g = tf.Graph()
    out = {}
    with g.as_default():
        v = tf.Variable([1.0, 2.0], use_resource=False, name="v")
        w = tf.Variable(3.0, name="w")
        step = tf.Variable(0, trainable=False, use_resource=False, name="step")
        t = tf.multiply(w, 2.0, name="t")
        ema = tf.train.ExponentialMovingAverage(0.9, num_updates=step)
        out["name_before"] = ema.average_name(v)
        update = ema.apply([v, w, t])
        out["update_name"] = update.name
        out["shadows"] = [ema.average(x).name for x in (v, w, t)]
        out["shadow_dtypes"] = [ema.average(x).dtype.name for x in (v, w, t)]
        out["average_names"] = [ema.average_name(x) for x in (v, w, t)]
        out["restore"] = sorted([k, x.name] for k, x in ema.variables_to_restore().items())
        out["moving_average_variables"] = [x.name for x in tf.moving_average_variables()]
        out["trainable"] = [x.name for x in tf.trainable_variables()]
        out["update_graph"] = [o for o in graph_ops(g)
                               if o[0].startswith("ExponentialMovingAverage")]
        train = [tf.assign_add(v, [1.0, -1.0]), w.assign_add(0.5), tf.assign_add(step, 1)]
        with tf.Session() as sess:
            sess.run(tf.variables_initializer([v, w, step]))
            sess.run(tf.global_variables_initializer())
            out["start"] = [val(sess.run(ema.average(x))) for x in (v, w, t)]
            history = []
            for _ in range(4):
                sess.run(update)
                history.append([val(sess.run(ema.average(x))) for x in (v, w, t)])
                sess.run(train)
            out["history"] = history
    return out


def freeze_graph(tf):
    """graph_util on a graph of ref and resource variables: the frozen GraphDef node for node
    (deterministic serializations), the subgraph and training-node removal, and the frozen
    graph run after import."""
    g = tf.Graph()
    out = {}
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 2], name="x")
        v = tf.Variable([[1.0, 2.0], [3.0, 4.0]], use_resource=False, name="v")
        w = tf.Variable([0.5, -0.5], name="w")
        b = tf.get_variable("b", [2], use_resource=False, initializer=tf.ones_initializer())
        e = tf.Variable([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]], name="emb")
        k = tf.Variable(7, use_resource=False, name="k")
        rows = tf.raw_ops.ResourceGather(resource=e.handle, indices=[2, 0], dtype=tf.float32,
                                         name="rows")
        y = tf.identity(tf.matmul(x, v) + w + b, name="y")
        z = tf.nn.relu(y + rows + tf.cast(k, tf.float32), name="out")
        tf.check_numerics(z, "bad", name="checked") if hasattr(tf, "check_numerics") else None
        tf.Variable(0, use_resource=False, name="unused")
        gd = g.as_graph_def()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(tf.assign_add(v, [[1.0, 1.0], [1.0, 1.0]]))
            frozen = tf.graph_util.convert_variables_to_constants(sess, gd, ["out"])
            partial = tf.graph_util.convert_variables_to_constants(
                sess, gd, ["out"], variable_names_blacklist=["w", "emb"])
            feed = np.array([[1.0, 1.0]], np.float32)
            out["live"] = val(sess.run(z, {x: feed}))
        out["frozen_nodes"] = [[n.name, n.op, list(n.input),
                                n.SerializeToString(deterministic=True).hex()]
                               for n in frozen.node]
        out["partial_nodes"] = [[n.name, n.op, list(n.input)] for n in partial.node]
        out["sub"] = [n.name for n in tf.graph_util.extract_sub_graph(gd, ["y"]).node]
        out["training_removed"] = [[n.name, n.op, list(n.input)] for n in
                                   tf.graph_util.remove_training_nodes(frozen).node]
        out["protected"] = [n.name for n in tf.graph_util.remove_training_nodes(
            frozen, protected_nodes=["y"]).node]
        out["shapes"] = [str(tf.graph_util.tensor_shape_from_node_def_name(g, "y")),
                         str(tf.compat.v1.graph_util.tensor_shape_from_node_def_name(g, "x:0"))]
        out["not_in_graph"] = error_of(lambda: tf.graph_util.extract_sub_graph(gd, ["nope"]))
    g2 = tf.Graph()
    with g2.as_default():
        tf.import_graph_def(frozen, name="")
        with tf.Session() as sess:
            out["frozen_run"] = val(sess.run("out:0", {"x:0": feed}))
    return out


def moving_average_after_train(tf):
    """ema.apply built under control_dependencies([train_op]), as TF's docs show: the
    shadow must still move (the update is the AssignSubVariableOp, not the dependency)."""
    g = tf.Graph()
    with g.as_default():
        w = tf.Variable([1.0, 2.0], name="w")
        train = tf.assign(w, [0.0, 0.0])
        ema = tf.train.ExponentialMovingAverage(0.5)
        with tf.control_dependencies([train]):
            step = ema.apply([w])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            history = []
            for _ in range(2):
                sess.run(step)
                history.append([val(v) for v in sess.run([w, ema.average(w)])])
    return {"history": history}


CASES = {
    "freeze_graph": freeze_graph,
    "moving_average": moving_average,
    "moving_average_after_train": moving_average_after_train,
    "ref_variable_lifecycle": ref_variable_lifecycle,
    "resource_variable_updates": resource_variable_updates,
    "ref_errors": ref_errors,
    "dtypes_sweep": dtypes_sweep,
    "temporary_variable": temporary_variable,
    "imported_tf1_graph": imported_tf1_graph,
}
