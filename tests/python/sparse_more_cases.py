"""Cases shared by tools/gen_sparse_more_expected.py (run with real TensorFlow 2.21) and
tests/python/test_sparse_more.py: each builder takes the `tf` module (TensorFlow's
tf.compat.v1 or minitf) and returns a Tensor, a SparseTensor or an IndexedSlices built in the
default graph. The fixture holds the graph TF builds (node names and types), the static shapes,
and the values (or the exception building or running it raises)."""
import numpy as np


def _pwd(tf, value, dtype=None):
    # A value the graph cannot fold: checks run at run time, not at construction.
    return tf.placeholder_with_default(tf.constant(value, dtype=dtype), None)


def _sp(tf, dtype=None):
    """A 3x4 SparseTensor with 4 entries (row-major order)."""
    return tf.SparseTensor(indices=[[0, 1], [0, 3], [1, 2], [2, 0]],
                           values=tf.constant([1.5, -2.0, 3.0, 4.25], dtype or tf.float32),
                           dense_shape=[3, 4])


def _sp3(tf):
    """A 2x3x2 SparseTensor, unsorted, with entries sharing rows."""
    return tf.SparseTensor(indices=[[1, 2, 1], [0, 0, 0], [0, 2, 1], [1, 0, 0], [0, 0, 1]],
                           values=tf.constant([5, -1, 7, 2, 3], tf.int32),
                           dense_shape=[2, 3, 2])


def _sp_dyn(tf):
    """_sp with a dense_shape the graph does not know."""
    return tf.SparseTensor(indices=[[0, 1], [0, 3], [1, 2], [2, 0]],
                           values=tf.constant([1.5, -2.0, 3.0, 4.25]),
                           dense_shape=_pwd(tf, [3, 4], tf.int64))


CASES = {
    # Python-composed functions
    "from_dense": lambda tf: tf.sparse.from_dense([[0, 1, 0], [2, 0, 3]]),
    "from_dense_str": lambda tf: tf.sparse.from_dense(tf.constant([["", "a"], ["b", ""]])),
    "expand_dims": lambda tf: tf.sparse.expand_dims(_sp(tf)),
    "expand_dims_0": lambda tf: tf.sparse.expand_dims(_sp(tf), 0),
    "expand_dims_neg": lambda tf: tf.sparse.expand_dims(_sp(tf), axis=-2),
    "err_expand_dims_axis": lambda tf: tf.sparse.expand_dims(_sp(tf), axis=1.5),
    "eye": lambda tf: tf.sparse.eye(3),
    "eye_rect": lambda tf: tf.sparse.eye(2, 4, dtype=tf.int32),
    "retain": lambda tf: tf.sparse.retain(_sp(tf), [True, False, False, True]),
    "err_retain_len": lambda tf: tf.sparse.retain(_sp(tf), [True, False]),
    "reset_shape": lambda tf: tf.sparse.reset_shape(_sp(tf), [5, 6]),
    "reset_shape_tight": lambda tf: tf.sparse.reset_shape(_sp(tf)),
    "reset_shape_dyn": lambda tf: tf.sparse.reset_shape(_sp_dyn(tf), [4, 4]),
    "err_reset_shape_small": lambda tf: tf.sparse.reset_shape(_sp(tf), [2, 6]),
    "err_reset_shape_run": lambda tf: tf.sparse.reset_shape(_sp_dyn(tf), [3, 3]),
    "transpose": lambda tf: tf.sparse.transpose(_sp(tf)),
    "transpose_perm": lambda tf: tf.sparse.transpose(_sp3(tf), [2, 0, 1]),
    "transpose_dyn": lambda tf: tf.sparse.transpose(_sp_dyn(tf), [1, 0]),
    "to_indicator": lambda tf: tf.sparse.to_indicator(tf.SparseTensor(
        [[0, 0], [0, 1], [2, 0], [2, 1]], tf.constant([3, 1, 0, 3], tf.int64), [3, 2]), 4),
    "merge": lambda tf: tf.sparse.merge(
        tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([2, 0, 1], tf.int64), [2, 2]),
        tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [1.0, 2.0, 3.0], [2, 2]), 3),
    "sparse_to_dense": lambda tf: tf.sparse_to_dense([[0, 1], [2, 2]], [3, 3], [5, 6]),
    "sparse_to_dense_scalar": lambda tf: tf.sparse_to_dense([1, 3], [5], 7.0, default_value=-1.0),
    "mask": lambda tf: tf.sparse.mask(tf.IndexedSlices(
        tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), tf.constant([4, 7, 9]),
        tf.constant([10, 2])), tf.constant([7])),
    # SparseReshape
    "reshape": lambda tf: tf.sparse.reshape(_sp(tf), [2, 6]),
    "reshape_infer": lambda tf: tf.sparse.reshape(_sp(tf), [-1, 3, 2]),
    "reshape_same": lambda tf: tf.sparse.reshape(_sp(tf), [3, 4]),
    "reshape_dyn": lambda tf: tf.sparse.reshape(_sp_dyn(tf), [6, -1]),
    "err_reshape_static": lambda tf: tf.sparse.reshape(_sp(tf), [5, 2]),
    "err_reshape_two_unknown": lambda tf: tf.sparse.reshape(_sp(tf), [-1, -1]),
    "err_reshape_run": lambda tf: tf.sparse.reshape(_sp_dyn(tf), [5, -1]),
    "err_reshape_run_size": lambda tf: tf.sparse.reshape(_sp_dyn(tf), [5, 3]),
    "err_reshape_run_two": lambda tf: tf.sparse.reshape(_sp_dyn(tf), _pwd(tf, [-1, -1])),
    "err_reshape_run_neg": lambda tf: tf.sparse.reshape(_sp_dyn(tf), _pwd(tf, [-2, 6])),
    "err_reshape_empty_infer": lambda tf: tf.sparse.reshape(tf.SparseTensor(
        tf.zeros([0, 2], tf.int64), tf.zeros([0]), _pwd(tf, [0, 4], tf.int64)),
        _pwd(tf, [0, -1])),
    # SparseReduceMax, the Sparse forms
    "reduce_max_all": lambda tf: tf.sparse.reduce_max(_sp(tf)),
    "reduce_max_0": lambda tf: tf.sparse.reduce_max(_sp(tf), 0),
    "reduce_max_1_keep": lambda tf: tf.sparse.reduce_max(_sp(tf), 1, keepdims=True),
    "reduce_max_3d": lambda tf: tf.sparse.reduce_max(_sp3(tf), [0, -1]),
    "reduce_max_dyn": lambda tf: tf.sparse.reduce_max(_sp_dyn(tf), 1),
    "reduce_max_i64_neg": lambda tf: tf.sparse.reduce_max(tf.SparseTensor(
        [[0, 0], [0, 1]], tf.constant([-5, -3], tf.int64), [1, 2]), axis=1),
    "reduce_max_sparse": lambda tf: tf.sparse.reduce_max_sparse(_sp3(tf), 1),
    "reduce_max_sparse_keep": lambda tf: tf.sparse.reduce_max_sparse(_sp3(tf), [1],
                                                                     keepdims=True),
    "reduce_sum_sparse": lambda tf: tf.sparse.reduce_sum_sparse(_sp3(tf), [0, 2]),
    "reduce_sum_sparse_all": lambda tf: tf.sparse.reduce_sum_sparse(_sp(tf)),
    "reduce_sum_sparse_keep_dims": lambda tf: tf.sparse_reduce_sum_sparse(_sp(tf), 0,
                                                                          keep_dims=True),
    "err_reduce_axis": lambda tf: tf.sparse.reduce_max(_sp(tf), 2),
    "err_reduce_axis_run": lambda tf: tf.sparse.reduce_max(_sp(tf), _pwd(tf, 2)),
    "err_reduce_keep_both": lambda tf: tf.sparse.reduce_max(_sp(tf), 0, keepdims=True,
                                                            keep_dims=True),
}


def node_list(graph):
    """[name, type] of every op of the graph, in creation order."""
    return [[op.name, op.type] for op in graph.get_operations()]


def parts(tf, result):
    """The tensors of a result: a Tensor, or the components of a SparseTensor/IndexedSlices."""
    if isinstance(result, tf.SparseTensor):
        return {"indices": result.indices, "values": result.values,
                "dense_shape": result.dense_shape}
    if isinstance(result, tf.IndexedSlices):
        return {"indices": result.indices, "values": result.values,
                "dense_shape": result.dense_shape}
    return {"value": result}


def static_shape(t):
    return None if t.shape.ndims is None else [d if d is not None else -1
                                               for d in t.shape.as_list()]


def _text(x):
    if not isinstance(x, bytes):
        return x
    try:
        return x.decode()
    except UnicodeDecodeError:
        return "hex:" + x.hex()


def jsonable(value):
    a = np.asarray(value)
    if a.dtype.kind in "SUO":
        return {"dtype": "string", "value": [_text(x) for x in a.reshape(-1).tolist()],
                "shape": list(a.shape)}
    return {"dtype": a.dtype.name, "value": a.reshape(-1).tolist(), "shape": list(a.shape)}


def _sp_b(tf):
    return tf.SparseTensor(indices=[[0, 0], [2, 1]], values=[10.0, 20.0], dense_shape=[3, 2])


CASES.update({
    "concat_1": lambda tf: tf.sparse.concat(1, [_sp(tf), _sp_b(tf)]),
    "concat_0": lambda tf: tf.sparse.concat(0, [_sp(tf), _sp(tf)], name="cc"),
    "concat_neg": lambda tf: tf.sparse_concat(-1, [_sp_b(tf), _sp(tf), _sp_b(tf)]),
    "concat_dim_kw": lambda tf: tf.sparse.concat(None, [_sp(tf), _sp_b(tf)], concat_dim=1),
    "concat_expand": lambda tf: tf.sparse.concat(0, [_sp(tf), _sp_b(tf)],
                                                 expand_nonconcat_dim=True),
    "concat_dyn": lambda tf: tf.sparse.concat(1, [_sp_dyn(tf), _sp_b(tf)]),
    "concat_one": lambda tf: tf.sparse.concat(0, [_sp(tf)]),
    "err_concat_run": lambda tf: tf.sparse.concat(0, [_sp_dyn(tf), _sp_b(tf)]),
    "err_concat_axis": lambda tf: tf.sparse.concat(2, [_sp_dyn(tf), _sp_b(tf)]),
    "err_concat_type": lambda tf: tf.sparse.concat(0, _sp(tf)),
})
CASES.update({
    "split_1": lambda tf: tf.sparse.split(sp_input=_sp(tf), num_split=3, axis=1)[2],
    "split_0": lambda tf: tf.sparse.split(sp_input=_sp(tf), num_split=2, axis=0)[1],
    "split_neg": lambda tf: tf.sparse_split(sp_input=_sp3(tf), num_split=2, axis=-2,
                                            name="sp")[0],
    "split_dyn": lambda tf: tf.sparse.split(sp_input=_sp_dyn(tf), num_split=4, axis=1)[3],
    "err_split_positional": lambda tf: tf.sparse.split(_sp(tf), 2, 1),
    "err_split_missing": lambda tf: tf.sparse.split(sp_input=_sp(tf), axis=1),
    "err_split_num_run": lambda tf: tf.sparse.split(sp_input=_sp(tf), num_split=5, axis=1)[0],
    "err_split_axis_run": lambda tf: tf.sparse.split(sp_input=_sp(tf), num_split=2, axis=2)[0],
})


def _reduce_sum_grad(tf, axis, dyn=False, keep=False):
    v = tf.constant([1.0, 2.0, 3.0, 4.0])
    shape = _pwd(tf, [3, 4], tf.int64) if dyn else [3, 4]
    sp = tf.SparseTensor([[0, 1], [0, 3], [1, 2], [2, 0]], v, shape)
    y = tf.sparse.reduce_sum(sp, axis, keepdims=keep)
    w = tf.reshape(tf.range(1, 4, dtype=tf.float32), [3, 1] if keep and axis == 1 else [-1])
    if axis is None:
        return tf.gradients(y * 7.0, v)[0]
    return tf.gradients(tf.reduce_sum(y * w), v)[0]


CASES.update({
    "reduce_sum_all": lambda tf: tf.sparse.reduce_sum(_sp(tf)),
    "reduce_sum_0": lambda tf: tf.sparse.reduce_sum(_sp(tf), 0),
    "reduce_sum_1_keep": lambda tf: tf.sparse_reduce_sum(_sp(tf), 1, keepdims=True),
    "reduce_sum_3d": lambda tf: tf.sparse.reduce_sum(_sp3(tf), [0, 2]),
    "reduce_sum_dyn": lambda tf: tf.sparse.reduce_sum(_sp_dyn(tf), reduction_axes=1),
    "reduce_sum_grad_1": lambda tf: _reduce_sum_grad(tf, 1),
    "reduce_sum_grad_all": lambda tf: _reduce_sum_grad(tf, None),
    "reduce_sum_grad_keep": lambda tf: _reduce_sum_grad(tf, 1, keep=True),
    "reduce_sum_grad_dyn": lambda tf: _reduce_sum_grad(tf, 1, dyn=True),
})


def _fill_grad(tf):
    v = tf.constant([1.0, 2.0, 3.0])
    d = tf.constant(0.5)
    sp = tf.SparseTensor([[1, 0], [1, 2], [3, 1]], v, [5, 3])
    out, _ = tf.sparse.fill_empty_rows(sp, d)
    w = tf.range(1, 7, dtype=tf.float32)
    dv, dd = tf.gradients(tf.reduce_sum(out.values * w), [v, d])
    return tf.concat([dv, tf.reshape(dd, [1])], 0)


CASES.update({
    "fill_empty_rows": lambda tf: tf.sparse.fill_empty_rows(
        tf.SparseTensor([[1, 0], [1, 2], [3, 1]], [1.0, 2.0, 3.0], [5, 3]), -1.0)[0],
    "fill_empty_rows_ind": lambda tf: tf.sparse_fill_empty_rows(
        tf.SparseTensor([[1, 0], [1, 2], [3, 1]], [1.0, 2.0, 3.0], [5, 3]), -1.0)[1],
    "fill_empty_rows_full": lambda tf: tf.sparse.fill_empty_rows(_sp(tf), 9.0, name="f")[0],
    "fill_empty_rows_unordered": lambda tf: tf.sparse.fill_empty_rows(tf.SparseTensor(
        [[2, 0], [0, 1], [2, 1]], ["a", "b", "c"], [4, 2]), "z")[0],
    "fill_empty_rows_dyn": lambda tf: tf.sparse.fill_empty_rows(_sp_dyn(tf), 0.0)[1],
    "fill_empty_rows_grad": _fill_grad,
    "err_fill_empty_rows_row": lambda tf: tf.sparse.fill_empty_rows(tf.SparseTensor(
        [[1, 0], [7, 0]], [1, 2], _pwd(tf, [4, 2], tf.int64)), 0)[0],
})


def _slice_grad(tf):
    v = tf.constant([1.0, 2.0, 3.0, 4.0])
    sp = tf.SparseTensor([[0, 1], [0, 3], [1, 2], [2, 0]], v, [3, 4])
    out = tf.sparse.slice(sp, [0, 1], [2, 3])
    w = tf.range(1, 3, dtype=tf.float32)
    return tf.gradients(tf.reduce_sum(out.values * w), v)[0]


CASES.update({
    "slice": lambda tf: tf.sparse.slice(_sp(tf), [0, 1], [2, 3]),
    "slice_over": lambda tf: tf.sparse_slice(_sp(tf), [1, 2], [5, 5], name="s"),
    "slice_out": lambda tf: tf.sparse.slice(_sp(tf), [4, 0], [2, 2]),
    "slice_str": lambda tf: tf.sparse.slice(tf.SparseTensor([[0], [3]], ["a", "b"], [5]), [2],
                                            [3]),
    "slice_grad": _slice_grad,
    "err_slice_start_len": lambda tf: tf.sparse.slice(_sp(tf), _pwd(tf, [0], tf.int64), [2, 2]),
})


def _roundtrip(tf, sp, dtype):
    return tf.deserialize_many_sparse(tf.serialize_many_sparse(sp), dtype, rank=3)


CASES.update({
    "serialize": lambda tf: tf.serialize_sparse(_sp(tf)),
    "serialize_str": lambda tf: tf.serialize_sparse(tf.SparseTensor([[1]], ["xy"], [3])),
    "serialize_many": lambda tf: tf.serialize_many_sparse(_sp3(tf) if False else tf.sparse.reorder(
        _sp3(tf))),
    "serialize_many_empty_row": lambda tf: tf.serialize_many_sparse(_sp(tf), name="m"),
    "deserialize_many": lambda tf: _roundtrip(tf, tf.sparse.reorder(_sp3(tf)), tf.int32),
    "deserialize_many_join": lambda tf: tf.deserialize_many_sparse(tf.stack([
        tf.serialize_sparse(_sp(tf)), tf.serialize_sparse(_sp_b(tf))]), tf.float32),
    "err_serialize_many_order": lambda tf: tf.serialize_many_sparse(_sp3(tf)),
    "err_serialize_many_rank": lambda tf: tf.serialize_many_sparse(
        tf.SparseTensor([[1]], [2.0], [3])),
    "err_deserialize_dtype": lambda tf: tf.deserialize_many_sparse(
        tf.reshape(tf.serialize_sparse(_sp(tf)), [1, 3]), tf.int32),
    "err_deserialize_bytes": lambda tf: tf.deserialize_many_sparse(
        tf.constant([["abc", "def", "ghi"]]), tf.int32),
})
