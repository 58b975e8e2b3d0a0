"""Session.run: fetch structures, feeds, zero-copy boundary, errors."""
import collections

import numpy as np
import pytest

import minitf as tf


def _addr(a):
    return a.__array_interface__["data"][0]


def test_fetch_structures():
    a = tf.constant(3.0)
    b = tf.constant([1, 2], dtype=tf.int32)
    Pair = collections.namedtuple("Pair", ["x", "y"])
    with tf.Session() as sess:
        out = sess.run({"a": a, "nested": [b, (a, "Const:0")], "pair": Pair(a, b)})
    assert out["a"] == 3.0 and type(out["a"]) is np.float32
    assert isinstance(out["nested"], list) and isinstance(out["nested"][1], tuple)
    np.testing.assert_array_equal(out["nested"][0], [1, 2])
    assert out["nested"][1] == (3.0, 3.0)
    assert isinstance(out["pair"], Pair) and out["pair"].x == 3.0
    with pytest.raises(TypeError, match="Fetch argument None"):
        sess2 = tf.Session()
        sess2.run(None)


def test_operation_fetch_returns_none_and_runs_it():
    v = tf.Variable(5.0)
    init = tf.global_variables_initializer()
    with tf.Session() as sess:
        assert sess.run(init) is None
        assert sess.run(v) == 5.0
        assert sess.run([init, v.value()]) == [None, 5.0]


def test_feed_by_tensor_and_by_name_and_conversion():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = x * 2.0
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(y, {x: [[1, 2, 3]]}), [[2, 4, 6]])
        np.testing.assert_array_equal(sess.run(y, {"x:0": np.ones((2, 3))}), np.full((2, 3), 2.0))
        assert sess.run(y, {x: [[1, 2, 3]]}).dtype == np.float32


def test_zero_copy_feed():
    # The session helper wraps a C-contiguous array of the fed dtype without copying:
    # the TF_Tensor it builds points at the array's own memory.
    from minitf import pywrap_tensorflow_internal as pywrap
    data = np.arange(4, dtype=np.float32)
    t = pywrap.MT_NdarrayToTensor(data, tf.float32.as_datatype_enum)
    try:
        assert int(pywrap.TF_TensorData(t)) == _addr(data)
    finally:
        pywrap.TF_DeleteTensor(t)
    strided = np.arange(8, dtype=np.float32)[::2]
    t = pywrap.MT_NdarrayToTensor(strided, tf.float32.as_datatype_enum)
    try:
        assert int(pywrap.TF_TensorData(t)) != _addr(strided)  # converted once
    finally:
        pywrap.TF_DeleteTensor(t)


def test_fetch_views_result_without_copy_and_is_writable():
    x = tf.placeholder(tf.float32, [4], name="x")
    y = x * 2.0
    with tf.Session() as sess:
        out = sess.run(y, {x: np.arange(4, dtype=np.float32)})
    # A computed result is the sole owner of its buffer: the array views the
    # TF_Tensor's memory (its base owns the tensor) and is writable, as TF's.
    assert type(out.base).__name__ == "PyCapsule"
    assert out.flags.writeable
    out[0] = 7.0
    np.testing.assert_array_equal(out, [7, 2, 4, 6])


def test_fetch_of_shared_buffers_is_copied_like_tensorflow():
    # Values TF would alias elsewhere (a constant, a fed array, a variable) come back as
    # writable copies: writing to them changes nothing in the graph or the feed
    # (checked against TF 2.21: same results).
    c = tf.constant([1.0, 2.0])
    x = tf.placeholder(tf.float32, [2])
    ident = tf.identity(x)
    v = tf.Variable([3.0, 4.0])
    data = np.ones(2, np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        a = sess.run(c)
        a[0] = 100.0
        np.testing.assert_array_equal(sess.run(c), [1.0, 2.0])
        i = sess.run(ident, {x: data})
        assert not np.shares_memory(i, data) and i.flags.writeable
        r = sess.run(v)
        r[0] = 9.0
        np.testing.assert_array_equal(sess.run(v), [3.0, 4.0])
        # assigning a variable from a feed copies: changing the array later leaves it
        assign = v.assign(x)
        sess.run(assign, {x: data})
        data[:] = 5.0
        np.testing.assert_array_equal(sess.run(v), [1.0, 1.0])


def test_non_contiguous_or_other_dtype_feed_is_converted_once():
    x = tf.placeholder(tf.float32, [3], name="x")
    y = tf.identity(x)
    strided = np.arange(6, dtype=np.float32)[::2]
    f64 = np.arange(3, dtype=np.float64)
    with tf.Session() as sess:
        out1 = sess.run(y, {x: strided})
        out2 = sess.run(y, {x: f64})
    np.testing.assert_array_equal(out1, [0, 2, 4])
    assert not np.shares_memory(out1, strided)
    np.testing.assert_array_equal(out2, [0, 1, 2])
    assert out2.dtype == np.float32


def test_string_feed_and_fetch():
    s = tf.placeholder(tf.string, [None], name="s")
    t = tf.identity(s)
    c = tf.constant("hi")
    with tf.Session() as sess:
        out = sess.run(t, {s: [b"a", "b\xe9", b"a much longer string than twenty-two bytes"]})
        assert sess.run(c) == b"hi"
    assert out.dtype == object
    assert list(out) == [b"a", "b\xe9".encode(), b"a much longer string than twenty-two bytes"]


def test_unfed_placeholder_error_and_session_stays_usable():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    r = tf.nn.relu(x)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.run(r)
        e = info.value
        assert isinstance(e, tf.errors.OpError)
        assert e.error_code == tf.errors.INVALID_ARGUMENT == 3
        assert "You must feed a value for placeholder tensor 'x' with dtype float" in e.message
        assert e.op is x.op
        assert e.node_def.name == "x"
        np.testing.assert_array_equal(sess.run(r, {x: [[-1, 0, 2]]}), [[0, 0, 2]])


def test_feed_and_fetch_errors():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    with tf.Session() as sess:
        with pytest.raises(ValueError, match=r"Cannot feed value of shape \(2, 4\) for Tensor "
                                             r"x:0, which has shape \(None, 3\)"):
            sess.run(x, {x: np.zeros((2, 4))})
        with pytest.raises(ValueError, match="The name 'nope:0' refers to a Tensor which does "
                                             "not exist"):
            sess.run("nope:0")
        with pytest.raises(TypeError, match="The value of a feed cannot be a tf.Tensor"):
            sess.run(x, {x: tf.constant([[1.0, 2.0, 3.0]])})
        with pytest.raises(ValueError):
            sess.run(x, {x: [["a", "b", "c"]]})
        np.testing.assert_array_equal(sess.run(x, {x: [[1, 2, 3]]}), [[1, 2, 3]])


def test_closed_session_and_default_session():
    a = tf.constant(2.0)
    sess = tf.Session()
    with sess.as_default():
        assert a.eval() == 2.0
        assert tf.get_default_session() is sess
    sess.close()
    with pytest.raises(RuntimeError, match="closed Session"):
        sess.run(a)
    with pytest.raises(ValueError, match="No default session"):
        a.eval()
    with tf.Session() as s2:
        assert a.eval() == 2.0
        assert tf.get_default_session() is s2
        tf.no_op(name="n").run()


def test_concurrent_runs_from_threads():
    import threading
    x = tf.placeholder(tf.float32, [None], name="x")
    y = x * 2.0 + 1.0
    bad = []
    with tf.Session() as sess:
        def work(k):
            for _ in range(50):
                out = sess.run(y, {x: np.full(64, k, np.float32)})
                if not (out == 2 * k + 1).all():
                    bad.append(k)
        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert bad == []


def test_bool_and_int64_round_trip():
    b = tf.placeholder(tf.bool, [2], name="b")
    i = tf.placeholder(tf.int64, [], name="i")
    with tf.Session() as sess:
        got_b, got_i = sess.run([tf.identity(b), tf.identity(i)], {b: [True, False], i: 2 ** 40})
    assert got_b.dtype == np.bool_ and list(got_b) == [True, False]
    assert got_i == 2 ** 40 and type(got_i) is np.int64


def test_control_input_added_after_a_run_is_honoured():
    # A plan cached by the first run must not hide a dependency added later.
    v = tf.Variable(1.0)
    y = tf.identity(tf.constant(2.0))
    assign = v.assign(5.0)
    with tf.Session() as sess:
        sess.run(v.initializer)
        assert sess.run(y) == 2.0
        assert sess.run(v) == 1.0
        y.op._add_control_input(assign.op)
        assert sess.run(y) == 2.0
        assert sess.run(v) == 5.0


def test_string_feed_keeps_trailing_nul_bytes():
    # As TF 2.21: bytes fed as a scalar or a list keep their trailing NULs (an "S" array
    # would strip them).
    with tf.Graph().as_default():
        p = tf.placeholder(tf.string, [])
        q = tf.placeholder(tf.string, [2])
        with tf.Session() as sess:
            assert sess.run(tf.identity(p), {p: b"ab\x00\x00"}) == b"ab\x00\x00"
            got = sess.run(tf.identity(q), {q: [b"ab\x00", b"c\x00\x00"]})
            assert list(got) == [b"ab\x00", b"c\x00\x00"]
