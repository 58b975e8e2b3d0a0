"""SparseTensor, SparseTensorValue, sparse_placeholder, Session.run feeds/fetches and the
tf.sparse wrappers. Expected names, reprs, shapes, values and errors are TensorFlow
2.21's (tf.compat.v1 graph mode), taken from running the same code there. Op-level
values and errors are covered by the goldens (tools/goldens/gen_sparse.py)."""
import numpy as np
import pytest

import minitf as tf


@pytest.fixture
def g():
    graph = tf.Graph()
    with graph.as_default():
        yield graph


def _sp():
    return tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1.0, 2.0], dense_shape=[3, 4])


def _assert_stv(got, indices, values, dense_shape, dtype):
    assert type(got).__name__ == "SparseTensorValue"
    assert got.indices.dtype == np.int64 and got.dense_shape.dtype == np.int64
    assert got.values.dtype == dtype
    np.testing.assert_array_equal(got.indices, indices)
    np.testing.assert_array_equal(got.values, values)
    np.testing.assert_array_equal(got.dense_shape, dense_shape)


def test_sparse_tensor_repr_and_properties(g):
    sp = _sp()
    want = ('SparseTensor(indices=Tensor("SparseTensor/indices:0", shape=(2, 2), dtype=int64), '
            'values=Tensor("SparseTensor/values:0", shape=(2,), dtype=float32), '
            'dense_shape=Tensor("SparseTensor/dense_shape:0", shape=(2,), dtype=int64))')
    assert repr(sp) == want and str(sp) == want
    assert sp.shape.as_list() == [3, 4] and sp.get_shape().as_list() == [3, 4]
    assert sp.dtype == tf.float32
    assert sp.op.name == "SparseTensor/values" and sp.op.type == "Const"
    assert sp.graph is g
    assert sp.indices.name == "SparseTensor/indices:0"
    assert sp.dense_shape.name == "SparseTensor/dense_shape:0"
    assert _sp().indices.name == "SparseTensor_1/indices:0"


def test_sparse_tensor_partial_shape_and_set_shape(g):
    st = tf.SparseTensor(tf.placeholder(tf.int64, [None, 2]), tf.placeholder(tf.float32, [None]),
                         tf.placeholder(tf.int64, [2]))
    assert st.shape.as_list() == [None, None]
    assert st.op.name == "Placeholder_1"
    st.set_shape([4, None])
    assert st.shape.as_list() == [4, None]
    with pytest.raises(ValueError, match=r"Shapes \(4, None\) and \(5, 2\) are not compatible"):
        st.set_shape([5, 2])


def test_sparse_tensor_construction_errors(g):
    with pytest.raises(ValueError, match=r"Shape \(2,\) must have rank 2"):
        tf.SparseTensor([0, 1], [1.0, 2.0], [3])
    with pytest.raises(ValueError, match="Dimensions 2 and 3 are not compatible"):
        tf.SparseTensor([[0], [1]], [1.0, 2.0, 3.0], [3])
    with pytest.raises(ValueError, match="Dimensions 1 and 2 are not compatible"):
        tf.SparseTensor([[0], [1]], [1.0, 2.0], [3, 4])


def test_sparse_tensor_value_namedtuple():
    v = tf.SparseTensorValue([[1]], [5.0], [2])
    assert v._fields == ("indices", "values", "dense_shape")
    assert v.indices == [[1]] and v.values == [5.0] and v.dense_shape == [2]
    assert tf.sparse.SparseTensor is tf.SparseTensor
    assert tf.compat.v1.SparseTensorValue is tf.SparseTensorValue


def test_fetch_sparse_tensor_in_structures_and_eval(g):
    sp = _sp()
    with tf.Session() as sess:
        _assert_stv(sess.run(sp), [[0, 0], [1, 2]], [1, 2], [3, 4], np.float32)
        out = sess.run({"x": sp, "y": (sp.values, sp)})
        _assert_stv(out["x"], [[0, 0], [1, 2]], [1, 2], [3, 4], np.float32)
        assert isinstance(out["y"], tuple)
        np.testing.assert_array_equal(out["y"][0], [1, 2])
        _assert_stv(out["y"][1], [[0, 0], [1, 2]], [1, 2], [3, 4], np.float32)
        _assert_stv(sp.eval(), [[0, 0], [1, 2]], [1, 2], [3, 4], np.float32)


def test_sparse_placeholder_names_and_shapes(g):
    p = tf.sparse_placeholder(tf.float32)
    assert repr(p) == (
        'SparseTensor(indices=Tensor("Placeholder_2:0", shape=(None, None), dtype=int64), '
        'values=Tensor("Placeholder_1:0", shape=(None,), dtype=float32), '
        'dense_shape=Tensor("Placeholder:0", shape=(None,), dtype=int64))')
    assert p.shape.rank is None
    p2 = tf.sparse_placeholder(tf.float32, shape=[3, None], name="pp")
    assert repr(p2) == (
        'SparseTensor(indices=Tensor("pp/indices:0", shape=(None, 2), dtype=int64), '
        'values=Tensor("pp/values:0", shape=(None,), dtype=float32), '
        'dense_shape=Tensor("pp/shape:0", shape=(2,), dtype=int64))')
    assert p2.shape.as_list() == [3, None]
    assert p2.dense_shape.op.type == "PlaceholderWithDefault"
    assert g.get_operation_by_name("pp/shape_default").type == "Const"
    p3 = tf.sparse.placeholder(tf.int32, shape=[3, 4], name="pq")
    assert p3.shape.as_list() == [3, 4] and p3.dtype == tf.int32
    # scopes SparseTensor (p), _1 (p2), _2 (p3), _3 (_sp()): the reorder makes _4
    r = tf.sparse.reorder(_sp())
    assert r.dense_shape.name == "SparseTensor_4/dense_shape:0"


def test_feed_sparse_placeholder_tuple_and_value(g):
    p = tf.sparse_placeholder(tf.float32, shape=[2, None], name="sp")
    pu = tf.sparse.reorder(p)
    assert repr(pu) == (
        'SparseTensor(indices=Tensor("SparseReorder:0", shape=(None, 2), dtype=int64), '
        'values=Tensor("SparseReorder:1", shape=(None,), dtype=float32), '
        'dense_shape=Tensor("Identity:0", shape=(2,), dtype=int64))')
    assert pu.shape.as_list() == [2, None]
    q = tf.sparse_placeholder(tf.float32)
    dq = tf.sparse.to_dense(q)
    with tf.Session() as sess:
        got = sess.run(pu, {p: ([[1, 1], [0, 3]], [1.0, 2.0], [2, 5])})
        _assert_stv(got, [[0, 3], [1, 1]], [2, 1], [2, 5], np.float32)
        got, dense = sess.run([q, dq], {q: tf.SparseTensorValue([[0, 0], [2, 3]], [8.0, 9.0],
                                                                [3, 4])})
        _assert_stv(got, [[0, 0], [2, 3]], [8, 9], [3, 4], np.float32)
        np.testing.assert_array_equal(dense, [[8, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 9]])
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"indices\[1\] = \[0,3\] is out of order"):
            sess.run(tf.sparse.to_dense(p), {p: ([[1, 0], [0, 3]], [1.0, 2.0], [2, 5])})
        np.testing.assert_array_equal(
            sess.run(tf.sparse.to_dense(p, validate_indices=False),
                     {p: ([[1, 0], [0, 3]], [1.0, 2.0], [2, 5])}),
            [[0, 0, 0, 2, 0], [1, 0, 0, 0, 0]])


def test_to_dense(g):
    sp = _sp()
    d = tf.sparse.to_dense(sp)
    assert str(d) == 'Tensor("SparseToDense:0", shape=(3, 4), dtype=float32)'
    assert [o.name for o in g.get_operations()] == [
        "SparseTensor/indices", "SparseTensor/values", "SparseTensor/dense_shape", "zeros",
        "SparseToDense"]
    d2 = tf.sparse_tensor_to_dense(sp, default_value=-1.0, name="dd")
    assert d2.name == "dd:0"
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(d), [[1, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]])
        np.testing.assert_array_equal(sess.run(d2),
                                      [[1, -1, -1, -1], [-1, -1, 2, -1], [-1, -1, -1, -1]])
    with pytest.raises(TypeError, match="Input must be a SparseTensor."):
        tf.sparse.to_dense(tf.ones([2]))


def test_reorder_of_value(g):
    r = tf.sparse.reorder(tf.SparseTensorValue([[1, 0], [0, 1]], [1, 2], [2, 2]))
    assert r.indices.name == "SparseReorder:0" and r.values.dtype == tf.int32
    assert r.shape.as_list() == [2, 2]
    with tf.Session() as sess:
        _assert_stv(sess.run(r), [[0, 1], [1, 0]], [2, 1], [2, 2], np.int32)


def test_sparse_dense_matmul(g):
    sp = _sp()
    m = tf.sparse.sparse_dense_matmul(sp, np.ones((4, 2), np.float32))
    assert str(m) == ('Tensor("SparseTensorDenseMatMul/SparseTensorDenseMatMul:0", '
                       'shape=(3, 2), dtype=float32)')
    mm = tf.sparse_tensor_dense_matmul(np.eye(2, dtype=np.float32),
                                       tf.SparseTensor([[0, 1]], [3.0], [2, 2]))
    assert str(mm) == 'Tensor("transpose:0", shape=(2, 2), dtype=float32)'
    assert tf.sparse.matmul is tf.sparse.sparse_dense_matmul
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(m), [[1, 1], [2, 2], [0, 0]])
        np.testing.assert_array_equal(sess.run(mm), [[0, 3], [0, 0]])


def test_sparse_add(g):
    sp = _sp()
    before = {o.name for o in g.get_operations()}
    a = tf.sparse.add(sp, sp)
    assert repr(a) == (
        'SparseTensor(indices=Tensor("SparseAdd:0", shape=(None, 2), dtype=int64), '
        'values=Tensor("SparseAdd:1", shape=(None,), dtype=float32), '
        'dense_shape=Tensor("SparseTensor_1/dense_shape:0", shape=(2,), dtype=int64))')
    assert sorted({o.name for o in g.get_operations()} - before) == [
        "SparseAdd", "SparseTensor_1/dense_shape", "threshold"]
    a2 = tf.sparse.add(sp, tf.ones([3, 4]))
    assert str(a2) == 'Tensor("SparseTensorDenseAdd:0", shape=(3, 4), dtype=float32)'
    a3 = tf.sparse_add(tf.zeros([3, 4]), sp, thresh=0.5)
    assert a3.name == "SparseTensorDenseAdd_1:0"
    a4 = tf.sparse.add(sp, sp, threshold=1.5)
    assert a4.indices.name == "SparseAdd_1:0"
    with tf.Session() as sess:
        _assert_stv(sess.run(a), [[0, 0], [1, 2]], [2, 4], [3, 4], np.float32)
        np.testing.assert_array_equal(sess.run(a2), [[2, 1, 1, 1], [1, 1, 3, 1], [1, 1, 1, 1]])
        np.testing.assert_array_equal(sess.run(a3), [[1, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]])
        _assert_stv(sess.run(a4), [[0, 0], [1, 2]], [2, 4], [3, 4], np.float32)
    with pytest.raises(TypeError, match=r"At least one input should be SparseTensor; do you "
                                        r"mean to use tf.add\(\)\?"):
        tf.sparse.add(tf.ones([2]), tf.ones([2]))
    with pytest.raises(ValueError, match=r"Shapes \(3, 4\) and \(3, 5\) are incompatible"):
        tf.sparse.add(sp, tf.SparseTensor([[0, 0]], [1.0], [3, 5]))


def test_sparse_add_threshold_drops_small_sums(g):
    a = tf.SparseTensor([[0, 0], [1, 1]], [1.0, 0.25], [2, 2])
    b = tf.SparseTensor([[0, 0], [1, 0]], [-0.75, 0.125], [2, 2])
    s = tf.sparse.add(a, b, threshold=0.3)
    with tf.Session() as sess:
        # sum at [0,0] is 0.25 < 0.3: dropped; one-sided entries stay whatever their size
        _assert_stv(sess.run(s), [[1, 0], [1, 1]], [0.125, 0.25], [2, 2], np.float32)


def test_register_session_run_conversion_functions(g):
    # TensorFlow's session.register_session_run_conversion_functions (not a tf.* export)
    from minitf.client.session import register_session_run_conversion_functions
    class Squared:
        def __init__(self, t):
            self.sq = t * t

    x = tf.placeholder(tf.float32, [])
    register_session_run_conversion_functions(
        Squared, lambda s: ([s.sq], lambda v: float(v[0])), lambda s, v: [(s.sq, v)])
    with pytest.raises(ValueError, match="has already been registered"):
        register_session_run_conversion_functions(Squared, lambda s: ([s.sq], None))
    sq = Squared(x)
    with tf.Session() as sess:
        assert sess.run(sq, {x: 3.0}) == 9.0
        assert sess.run(sq, {sq: 5.0}) == 5.0
