"""Session API as TensorFlow 2.21 tf.compat.v1 (literals from
tools/graph_api_reference/p5_feed_fetch.py, p8_sessions.py, p8b_sessions.py)."""
import numpy as np
import pytest

import minitf as tf

NOT_FETCHABLE = ("Operation z has been marked as not fetchable. Typically this happens when it is "
                 "defined in another function or code block. Use return values, explicit Python "
                 "locals or TensorFlow collections to access it.")


def _feed_graph():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        y = tf.identity(x, name="y")
        z = tf.add(y, 1.0, name="z")
    return g, x, y, z


def test_feedable_fetchable_flags():
    g, x, y, z = _feed_graph()
    assert (g.is_feedable(x), g.is_feedable(y), g.is_fetchable(y), g.is_fetchable(y.op)) == \
        (True, True, True, True)
    g.prevent_feeding(y)
    g.prevent_fetching(z.op)
    assert (g.is_feedable(x), g.is_feedable(y), g.is_fetchable(z), g.is_fetchable(z.op),
            g.is_fetchable(y)) == (True, False, False, False, True)
    # names are not graph elements here: TensorFlow answers True for them
    assert g.is_feedable("y:0") is True
    assert g.is_fetchable("y") is True


def test_session_run_enforces_prevent_feeding_and_fetching():
    g, x, y, z = _feed_graph()
    g.prevent_feeding(y)
    g.prevent_fetching(z.op)
    with tf.Session(graph=g) as s:
        for fetch in (z, z.op, "z:0", [x, z]):
            with pytest.raises(tf.errors.InaccessibleTensorError) as e:
                s.run(fetch, {x: [1, 2]})
            assert str(e.value) == NOT_FETCHABLE
            assert isinstance(e.value, ValueError)
        for key in (y, "y:0"):
            with pytest.raises(ValueError, match=r"^Tensor y:0 may not be fed\.$"):
                s.run(y, {key: [1.0, 2.0]})
        np.testing.assert_array_equal(s.run(y, {x: [1, 2]}), [1.0, 2.0])
        f = s.make_callable(z, [x])
        with pytest.raises(tf.errors.InaccessibleTensorError):
            f([1, 2])
        with pytest.raises(tf.errors.InaccessibleTensorError):
            s.partial_run_setup([z], [x])
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            s.partial_run_setup([y], [y])
        assert e.value.message == "Graph execution error:\n\ny:0 is both fed and fetched."


def _prun_graph():
    g = tf.Graph()
    with g.as_default():
        a = tf.placeholder(tf.float32, [], name="a")
        b = tf.placeholder(tf.float32, [], name="b")
        c = tf.placeholder(tf.float32, [], name="c")
        r1 = tf.add(a, b, name="r1")
        r2 = tf.multiply(r1, c, name="r2")
    return g, a, b, c, r1, r2


def test_session_constructor_arguments():
    g, a, b, c, r1, r2 = _prun_graph()
    for target in ("local", "x", "grpc://localhost:1"):
        with pytest.raises(tf.errors.NotFoundError,
                           match="^No session factory registered for the given session options"):
            tf.Session(target, graph=g)
    with pytest.raises(TypeError, match='^Argument `graph` must be a tf.Graph, but got "int"$'):
        tf.Session(graph=1)
    with pytest.raises(TypeError,
                       match='^Argument `config` must be a tf.ConfigProto, but got "str"$'):
        tf.Session(graph=g, config="x")
    s = tf.Session(graph=g)
    assert s.sess_str == b""
    assert s.graph is g
    assert [n.name for n in s.graph_def.node] == ["a", "b", "c", "r1", "r2"]
    cfg = tf.ConfigProto(intra_op_parallelism_threads=2, inter_op_parallelism_threads=1)
    with tf.Session(graph=g, config=cfg) as s3:
        assert s3.run(r1, {a: 1, b: 2}) == 3.0
        assert tf.get_default_session() is s3
    assert tf.get_default_session() is None


def test_list_devices_and_closed_session_errors():
    g, a, b, c, r1, r2 = _prun_graph()
    s = tf.Session(graph=g)
    (d,) = s.list_devices()
    assert type(d).__name__ == "_DeviceAttributes"
    assert (d.name, d.device_type, d.memory_limit_bytes) == \
        ("/job:localhost/replica:0/task:0/device:CPU:0", "CPU", 268435456)
    assert repr(d) == ("_DeviceAttributes(/job:localhost/replica:0/task:0/device:CPU:0, CPU, "
                       "268435456, %d)" % d.incarnation)
    assert 0 < d.incarnation < 2 ** 64
    s.close()
    with pytest.raises(RuntimeError, match=r"^Attempted to use a closed Session\.$"):
        s.run(r1, {a: 1, b: 2})
    with pytest.raises(RuntimeError, match=r"^Attempted to use a closed Session\.$"):
        s.partial_run_setup([r1], [a, b])
    with pytest.raises(tf.errors.CancelledError, match=r"^Session has been closed\.$"):
        s.list_devices()
    s.close()  # idempotent
    del s  # __del__ after close is safe


def _prun_error(s, h, fetch, feed):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        s.partial_run(h, fetch, feed_dict=feed)
    assert e.value.message.startswith("Graph execution error:\n\n")
    return e.value.message[len("Graph execution error:\n\n"):]


def test_partial_run_as_tensorflow():
    g, a, b, c, r1, r2 = _prun_graph()
    s = tf.Session(graph=g)
    h = s.partial_run_setup([r1, r2], [a, b, c])
    assert isinstance(h, str)
    assert s.partial_run(h, r1, feed_dict={a: 1, b: 2}) == 3.0
    assert s.partial_run(h, r2, feed_dict={c: 3}) == 9.0
    h = s.partial_run_setup([r1, r2], [a, b, c])
    assert _prun_error(s, h, r2, {a: 1}) == \
        "Fetch c:0 can't be computed from the feeds that have been fed so far."
    assert s.partial_run(h, r1, feed_dict={a: 1, b: 2}) == 3.0
    assert _prun_error(s, h, r1, {c: 1}) == "The fetch r1:0 has already been fetched."
    assert _prun_error(s, h, r2, {a: 5}) == "The feed a:0 has already been fed."
    assert _prun_error(s, h, r1, {}) == "The fetch r1:0 has already been fetched."
    h = s.partial_run_setup([r1], [a, b])
    assert _prun_error(s, h, r2, {a: 1, b: 2, c: 3}) == \
        "The feed c:0 was not specified in partial_run_setup."
    assert _prun_error(s, h, r2, {a: 1., b: 2.}) == \
        "The fetch r2:0 was not specified in partial_run_setup."
    assert _prun_error(s, "bogus", r1, {a: 1, b: 2}) == \
        "Must run 'setup' before performing partial runs!"
    h = s.partial_run_setup([r1, r2.op], [a, b])
    with pytest.raises(RuntimeError) as e:
        s.partial_run(h, [r1, r2.op], feed_dict={a: 1., b: 2.})
    assert str(e.value) == ("partial_run() requires empty `target_list`. Received: "
                            "target_list=[<tf.Operation 'r2' type=Mul>] (non-empty)")
    h = s.partial_run_setup([r1, r2], None)
    msg = _prun_error(s, h, r1, None)
    assert "Node: 'a'\nYou must feed a value for placeholder tensor 'a' with dtype float\n" in msg


def test_make_callable_as_tensorflow():
    g, a, b, c, r1, r2 = _prun_graph()
    with g.as_default():
        k = tf.constant([1., 2.], name="k")
    s = tf.Session(graph=g)
    f = s.make_callable([r1, r2], [a, b, c])
    assert f(1, 2, 3) == [3.0, 9.0]
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        f(1, 2)  # TensorFlow zips: c is simply not fed
    assert "You must feed a value for placeholder tensor 'c' with dtype float" in e.value.message
    assert s.make_callable(r1.op, [a, b])(1., 2.) is None
    f3 = s.make_callable({"x": r1}, [a, b], accept_options=True)
    md = tf.RunMetadata()
    assert f3(1., 2., options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
              run_metadata=md) == {"x": 3.0}
    assert len(md.step_stats.dev_stats) == 1
    with pytest.raises(TypeError) as e:
        s.make_callable(r1, a)
    assert str(e.value) == ('Argument `feed_list` must be a list or tuple. Received: '
                            'feed_list=Tensor("a:0", shape=(), dtype=float32)')
    g2 = s.make_callable(r2)
    with pytest.raises(TypeError, match=r"_single_tensor_run\(\) takes 0 positional arguments "
                                        r"but 1 was given"):
        g2(1)
    with pytest.raises(TypeError, match=r"_single_tensor_run\(\) got an unexpected keyword "
                                        r"argument 'options'"):
        g2(options=None)
    np.testing.assert_array_equal(s.make_callable(k)(), [1., 2.])
    out = s.make_callable([k, {"k": k}], accept_options=True)(options=None, run_metadata=None)
    np.testing.assert_array_equal(out[0], [1., 2.])
    np.testing.assert_array_equal(out[1]["k"], [1., 2.])


def test_run_metadata_step_stats():
    g, a, b, c, r1, r2 = _prun_graph()
    s = tf.Session(graph=g)
    md = tf.RunMetadata()
    assert s.run(r2, {a: 1, b: 2, c: 3}, options=tf.RunOptions(trace_level=3),
                 run_metadata=md) == 9.0
    (dev,) = md.step_stats.dev_stats
    assert dev.device == "/job:localhost/replica:0/task:0/device:CPU:0"
    stats = {n.node_name: n for n in dev.node_stats}
    # TensorFlow also lists its _SOURCE/_arg/_retval nodes; minitf runs only graph nodes
    assert set(stats) == {"r1", "r2"}
    r1s, r2s = stats["r1"], stats["r2"]
    assert r1s.timeline_label == "r1 = AddV2(a, b)"
    assert r2s.timeline_label == "r2 = Mul(r1, c)"
    for n in (r1s, r2s):
        assert n.all_start_micros == n.all_start_nanos // 1000 > 1.6e15  # after 2020
        assert n.scheduled_nanos == n.all_start_nanos
        assert 0 <= n.op_start_rel_nanos <= n.op_end_rel_nanos <= n.all_end_rel_nanos
        assert n.all_end_rel_micros == n.all_end_rel_nanos // 1000
    assert r1s.all_start_nanos <= r2s.all_start_nanos  # r2 consumes r1
    md2 = tf.RunMetadata()
    s.run(r2, {a: 1, b: 2, c: 3}, run_metadata=md2)
    assert md2.ByteSize() == 0  # untraced: empty, as TensorFlow
    md3 = tf.RunMetadata()
    s.run(r2, {a: 1, b: 2, c: 3}, options=tf.RunOptions(), run_metadata=md3)
    assert md3.ByteSize() == 0
    with pytest.raises(TypeError):
        s.run(r1, {a: 1., b: 2.}, options=1)


def test_interactive_session_is_default():
    g, a, b, c, r1, r2 = _prun_graph()
    assert tf.get_default_session() is None
    isess = tf.InteractiveSession(graph=g)
    try:
        assert tf.get_default_session() is isess
        assert r1.eval({a: 1, b: 2}) == 3.0
        assert tf.get_default_graph() is g
    finally:
        isess.close()
    assert tf.get_default_session() is None
