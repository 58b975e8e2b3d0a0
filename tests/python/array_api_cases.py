"""Cases for the remaining top-level array functions of tf.compat.v1 (boolean_mask,
sequence_mask, roll, repeat, batch_gather, tensor_scatter_*, parallel_stack, meshgrid,
setdiff1d, unique_with_counts, unravel_index, ensure_shape, ...), written against the TF1
API so the same code runs on TensorFlow 2.21 and on minitf.

Each case takes `tf` and returns a tensor, or a list/tuple of tensors;
tools/gen_array_api_expected.py records TF's values, static shapes, the graph's node names
and types, or the error (class, message) building or running it raises;
tests/python/test_array_api.py compares minitf's.
"""
import numpy as np

A = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
M = np.array([[1, 2], [3, 4], [5, 6]], dtype=np.int32)


def _pwd(tf, value, dtype=None):
    """A value whose static shape is unknown (TF's and minitf's run-time paths)."""
    return tf.placeholder_with_default(np.asarray(value, dtype=dtype), shape=None)


def _var_update(tf):
    v = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], name="v")
    up = tf.batch_scatter_update(v, [[0, 2], [1, 1]], [[10.0, 20.0], [30.0, 40.0]])
    with tf.control_dependencies([up]):
        return tf.identity(v.read_value() if hasattr(v, "read_value") else v)


def _grads(tf, build):
    """d(sum(out * w))/d(inputs) for `build(x, y) -> out`, w a fixed weight."""
    x = tf.constant([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], name="x")
    y = tf.constant([[7.0, 0.5, 2.0]], name="y")
    out = build(x, y)
    w = tf.constant(np.arange(1, 7, dtype=np.float32).reshape(2, 3), name="w")
    return tf.gradients(tf.reduce_sum(out * w), [x, y])


CASES = {
    # boolean_mask
    "boolean_mask_1d": lambda tf: tf.boolean_mask([0, 1, 2, 3], [True, False, True, False]),
    "boolean_mask_2d": lambda tf: tf.boolean_mask(M, [True, False, True]),
    "boolean_mask_2d_mask": lambda tf: tf.boolean_mask(
        A, [[True, False, True], [False, True, True]]),
    "boolean_mask_axis": lambda tf: tf.boolean_mask(A, [True, False, True], axis=1),
    "boolean_mask_unknown": lambda tf: tf.boolean_mask(
        _pwd(tf, M), tf.placeholder_with_default([False, True, True], shape=[None])),
    "boolean_mask_scalar_mask": lambda tf: tf.boolean_mask(M, True),
    "boolean_mask_unknown_rank": lambda tf: tf.boolean_mask(M, _pwd(tf, [True, False, True])),
    "boolean_mask_mismatch": lambda tf: tf.boolean_mask(M, [True, False]),
    "boolean_mask_named": lambda tf: tf.boolean_mask(M, [True, True, False], name="bm"),
    # sequence_mask
    "sequence_mask": lambda tf: tf.sequence_mask([1, 3, 2], 5),
    "sequence_mask_no_maxlen": lambda tf: tf.sequence_mask([[1, 3], [2, 0]]),
    "sequence_mask_float": lambda tf: tf.sequence_mask([2, 0, 1], 3, dtype=tf.float32),
    "sequence_mask_maxlen_vector": lambda tf: tf.sequence_mask([1, 2], [3, 4]),
    # roll
    "roll_1d": lambda tf: tf.roll(np.arange(10), 2, 0),
    "roll_2d": lambda tf: tf.roll(M, [1, -1], [0, 1]),
    "roll_repeated_axis": lambda tf: tf.roll(A, [2, 3, -1], [2, 2, 0]),
    "roll_strings": lambda tf: tf.roll([b"a", b"b", b"c"], -1, 0),
    "roll_mismatch": lambda tf: tf.roll(M, [1, 2], [0]),
    "roll_bad_axis": lambda tf: tf.roll(M, 1, _pwd(tf, 2, np.int32)),
    "roll_scalar": lambda tf: tf.roll(3, 1, 0),
    # repeat
    "repeat_flat": lambda tf: tf.repeat([1, 2, 3], 2),
    "repeat_axis0": lambda tf: tf.repeat(M, [1, 0, 2], axis=0),
    "repeat_axis1": lambda tf: tf.repeat(M, [3, 1], axis=1),
    "repeat_scalar_repeats_axis": lambda tf: tf.repeat(M, 2, axis=1),
    # batch_gather, batch_scatter_update, batch_to_space / space_to_batch
    "batch_gather": lambda tf: tf.batch_gather(
        np.arange(6, dtype=np.float32).reshape(2, 3), [[0, 2], [1, 1]]),
    "batch_gather_3d": lambda tf: tf.batch_gather(A, [[1], [0]]),
    "batch_gather_unknown": lambda tf: tf.batch_gather(M, _pwd(tf, [0, 1])),
    "batch_scatter_update": _var_update,
    "space_to_batch": lambda tf: tf.space_to_batch(
        np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1), [[0, 0], [0, 0]], 2),
    "batch_to_space": lambda tf: tf.batch_to_space(
        np.arange(4, dtype=np.float32).reshape(4, 1, 1, 1), [[0, 0], [0, 0]], 2),
    "required_paddings_const": lambda tf: tf.required_space_to_batch_paddings(
        [5, 7], [2, 3], base_paddings=[[1, 0], [0, 2]]),
    "required_paddings_dynamic": lambda tf: tf.required_space_to_batch_paddings(
        _pwd(tf, [5, 7], np.int32), [2, 3]),
    # tensor_scatter_*
    "tensor_scatter_update": lambda tf: tf.tensor_scatter_nd_update(
        [1, 2, 3, 4, 5], [[1], [3], [1]], [10, 20, 30]),
    "tensor_scatter_add": lambda tf: tf.tensor_scatter_nd_add(
        np.ones((3, 2), np.float32), [[0], [2], [0]], [[1., 2.], [3., 4.], [5., 6.]]),
    "tensor_scatter_sub": lambda tf: tf.tensor_scatter_nd_sub(
        M, [[0, 1], [2, 0]], [10, 20]),
    "tensor_scatter_max": lambda tf: tf.tensor_scatter_nd_max(
        [1.0, 5.0, 3.0], [[0], [1], [0]], [4.0, 2.0, 7.0]),
    "tensor_scatter_min": lambda tf: tf.tensor_scatter_nd_min(
        M, [[1], [2]], [[0, 9], [9, 0]]),
    "tensor_scatter_update_v1_alias": lambda tf: tf.tensor_scatter_update(
        [[1, 2], [3, 4]], [[1, 1]], [0]),
    "tensor_scatter_add_v1_alias": lambda tf: tf.tensor_scatter_add([1, 2], [[0]], [5]),
    "tensor_scatter_sub_v1_alias": lambda tf: tf.tensor_scatter_sub([1, 2], [[1]], [5]),
    "tensor_scatter_strings": lambda tf: tf.tensor_scatter_nd_update(
        [b"a", b"b", b"c"], [[2]], [b"z"]),
    "tensor_scatter_bad_index": lambda tf: tf.tensor_scatter_nd_update(
        [1, 2, 3, 4], [[1], [4]], [9, 9]),
    "tensor_scatter_bad_index_2d": lambda tf: tf.tensor_scatter_nd_add(
        M, [[[0, 0], [3, 1]]], [[1, 1]]),
    "tensor_scatter_static_mismatch": lambda tf: tf.tensor_scatter_nd_update(
        [1, 2, 3, 4], [[1], [2]], [9, 9, 9]),
    "tensor_scatter_inner_mismatch": lambda tf: tf.tensor_scatter_nd_update(
        M, [[1]], [[9, 9, 9]]),
    "tensor_scatter_dynamic_mismatch": lambda tf: tf.tensor_scatter_nd_update(
        _pwd(tf, [1, 2, 3, 4]), _pwd(tf, [[1], [2]]), _pwd(tf, [9, 9, 9])),
    "tensor_scatter_scalar_tensor": lambda tf: tf.tensor_scatter_nd_update(1, [[0]], [2]),
    # parallel_stack, meshgrid
    "parallel_stack": lambda tf: tf.parallel_stack([[1, 4], [2, 5], [3, 6]]),
    "parallel_stack_2d": lambda tf: tf.parallel_stack([M, M * 2]),
    "meshgrid_xy": lambda tf: tf.meshgrid([1, 2, 3], [4, 5]),
    "meshgrid_ij": lambda tf: tf.meshgrid([1.0, 2.0], [3.0, 4.0, 5.0], [6.0], indexing="ij"),
    "meshgrid_xy_3": lambda tf: tf.meshgrid([1, 2], [3, 4, 5], [6, 7, 8, 9]),
    "meshgrid_bad_indexing": lambda tf: tf.meshgrid([1], [2], indexing="xx"),
    "meshgrid_bad_keyword": lambda tf: tf.meshgrid([1], [2], sparse=True),
    # setdiff1d, unique_with_counts, invert_permutation, unravel_index
    "setdiff1d": lambda tf: tf.setdiff1d([1, 2, 3, 4, 5, 6, 2], [1, 3, 5]),
    "setdiff1d_int64": lambda tf: tf.setdiff1d([b"a", b"b", b"c"], [b"b"], index_dtype=tf.int64),
    "unique_with_counts": lambda tf: tf.unique_with_counts([1, 1, 2, 4, 4, 4, 7, 8, 8]),
    "unique_with_counts_int64": lambda tf: tf.unique_with_counts(
        [3.0, 1.0, 3.0], out_idx=tf.int64),
    "unique_with_counts_2d": lambda tf: tf.unique_with_counts(M),
    "invert_permutation": lambda tf: tf.invert_permutation([3, 4, 0, 2, 1]),
    "invert_permutation_dup": lambda tf: tf.invert_permutation([0, 0, 1]),
    "unravel_index": lambda tf: tf.unravel_index([2, 5, 7], [3, 3]),
    "unravel_index_scalar": lambda tf: tf.unravel_index(1621, [6, 7, 8, 9]),
    "unravel_index_int64": lambda tf: tf.unravel_index(
        np.array([0, 11], np.int64), np.array([3, 4], np.int64)),
    "unravel_index_out_of_bound": lambda tf: tf.unravel_index([9], [3, 3]),
    "unravel_index_zero_dim": lambda tf: tf.unravel_index([0], [3, 0]),
    "unravel_index_negative_dim": lambda tf: tf.unravel_index([0], [3, -2]),
    # ensure_shape, guarantee_const
    "ensure_shape": lambda tf: tf.ensure_shape(_pwd(tf, M), [3, None]),
    "ensure_shape_static_mismatch": lambda tf: tf.ensure_shape(M, [3, 3]),
    "ensure_shape_run_mismatch": lambda tf: tf.ensure_shape(_pwd(tf, M), [2, 2]),
    "ensure_shape_rank_mismatch": lambda tf: tf.ensure_shape(_pwd(tf, M), [6]),
    "guarantee_const": lambda tf: tf.guarantee_const(M),
    # gradients
    "grad_tensor_scatter_update": lambda tf: _grads(
        tf, lambda x, y: tf.tensor_scatter_nd_update(x, [[1]], y)),
    "grad_tensor_scatter_add": lambda tf: _grads(
        tf, lambda x, y: tf.tensor_scatter_nd_add(x, [[0]], y)),
    "grad_tensor_scatter_sub": lambda tf: _grads(
        tf, lambda x, y: tf.tensor_scatter_nd_sub(x, [[1]], y)),
    "grad_tensor_scatter_max": lambda tf: _grads(
        tf, lambda x, y: tf.tensor_scatter_nd_max(x, [[0]], y)),
    "grad_tensor_scatter_min": lambda tf: _grads(
        tf, lambda x, y: tf.tensor_scatter_nd_min(x, [[1]], y)),
    "grad_roll": lambda tf: _grads(tf, lambda x, y: tf.roll(x, [1, 2], [0, 1]) + y),
    "grad_ensure_shape": lambda tf: _grads(tf, lambda x, y: tf.ensure_shape(x, [2, 3]) * y),
    "grad_boolean_mask": lambda tf: _grads(
        tf, lambda x, y: tf.reshape(tf.pad(tf.boolean_mask(x, [[True, False, True],
                                                                [False, True, True]]),
                                           [[1, 1]]), [2, 3]) * y),
    "grad_repeat": lambda tf: _grads(tf, lambda x, y: tf.reshape(
        tf.repeat(x[:, :1], [2, 1], axis=0), [3, 1])[:2] * x + y),
}


def jsonable(val):
    val = np.asarray(val)
    if val.dtype.kind in "SO":
        return {"shape": list(val.shape), "dtype": "string",
                "values": [x.decode("utf-8", "backslashreplace") if isinstance(x, bytes) else x
                           for x in val.reshape(-1).tolist()]}
    return {"shape": list(val.shape), "dtype": val.dtype.name,
            "values": val.reshape(-1).tolist()}


def outputs(result):
    """The case's tensors as a list."""
    return list(result) if isinstance(result, (list, tuple)) else [result]


def static_shape(t):
    return None if t.shape.ndims is None else [
        d if d is not None else -1 for d in t.shape.as_list()]


def graph_nodes(g):
    """[name, type] of every node in the case's graph, in creation order."""
    return [[op.name, op.type] for op in g.get_operations()]


def err(e):
    """(class, message): a run error's message from its "Node: 'name'" line on, without
    TF's traceback of where the node was defined."""
    msg = getattr(e, "message", None) or str(e)
    if "\nNode: '" in msg:
        msg = msg[msg.rindex("\nNode: '") + 1:]
    return [type(e).__name__, msg]


def run_case(tf, build):
    """The record of one case (shared by the generator and the test)."""
    out = {}
    g = tf.Graph()
    with g.as_default():
        try:
            ts = outputs(build(tf))
        except Exception as e:  # noqa: BLE001 - the class and text are the result
            out["build_error"] = err(e)
            return out
        out["static_shapes"] = [static_shape(t) for t in ts]
        out["dtypes"] = [t.dtype.name for t in ts]
        out["nodes"] = graph_nodes(g)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            try:
                out["values"] = [jsonable(v) for v in sess.run(ts)]
            except Exception as e:  # noqa: BLE001
                out["run_error"] = err(e)
    return out
