"""Array ops beyond the goldens: static shapes from partially known inputs and shape
tensors (Shape/Pack/ConcatV2 expressions, as TensorFlow's input_tensors_as_shapes) and the TF1
Python wrappers' op types, names, static shapes and dtypes.

Expected values are real TensorFlow 2.21's, printed by tools/goldens/array_static_shapes.py and
tools/goldens/array_wrappers.py (run each with /opt/tfvenv/bin/python and argument ``tf``; with
minitf's interpreter and ``mt`` they print minitf's for comparison).
"""
import os
import runpy
import sys

import numpy as np
import pytest

import minitf as tf

TOOLS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                     "tools", "goldens")

# Static shapes TensorFlow infers (-1 = unknown dim, None = unknown rank).
TF_STATIC_SHAPES = {
    'bargs': [-1],
    'bitcast_unk': [-1],
    'bitcast_wide': [-1, 8],
    'bt_shape': [-1, 3, 4],
    'bt_unk': [-1, 3, 4],
    'bt_v': [-1, -1, 2],
    'concat_neg': [-1, 3, 4],
    'concat_unk_axis': [-1, -1, -1],
    'concat_unk_both': None,
    'concat_unk_rank': [-1, -1, 4],
    'expand_unk': None,
    'expand_unkdim': None,
    'fill_concat': [-1, 3, 4, 5],
    'fill_shape': [-1, 3, 4],
    'fill_v': [-1, -1, -1],
    'ones_like_partial': [-1, 3, 4],
    'pack_unk': [-1, 3, 4, 2],
    'range_const': [3],
    'range_fold': [6],
    'reshape_pack_last': [4, -1],
    'reshape_pack_neg': [-1, -1],
    'reshape_pack_shape': [-1, 12],
    'reshape_shape': [-1, 3, 4],
    'reshape_vec3': [-1, -1, -1],
    'reshape_vecu': None,
    'reshape_x_12': [2, -1, 12],
    'reshape_x_neg': [-1, 6],
    'reverse_unk': None,
    'shapen': [-1],
    'split_none': [-1, 3, 4],
    'split_unk_dim': [-1, -1, -1],
    'split_unk_val': None,
    'splitv_neg1_unk': [-1, 3, 4],
    'splitv_unk_sizes': [-1, -1, 4],
    'squeeze_unk': None,
    'squeeze_unk_dims': [1, 2],
    'tf_stack_shape': [-1, 12],
    'tile_const': [-1, 3, 12],
    'tile_shape': [-1, 9, 16],
    'tile_v': [-1, -1, -1],
    'tile_y': [-1, 0],
    'transpose_unk_both': None,
    'transpose_unk_perm': [-1, -1, -1],
    'transpose_unk_x': [-1, -1, -1],
    'transpose_unk_x1': None,
    'transpose_v': [-1, -1, -1],
    'unique': [-1],
    'unpack_unk': None,
    'zeros_like_partial': [-1, 3, 4],
}

# (key, op type, tensor name, static shape, dtype) from TensorFlow's tf.compat.v1 wrappers.
TF_WRAPPERS = [
    ('shape_x', 'Shape', 'Shape:0', [3], 'int32'),
    ('shape_c', 'Const', 'Shape_1:0', [2], 'int32'),
    ('shape_c64', 'Const', 'Shape_2:0', [2], 'int64'),
    ('size_x', 'Size', 'Size:0', [], 'int32'),
    ('size_c', 'Const', 'Size_1:0', [], 'int32'),
    ('rank_x', 'Const', 'Rank:0', [], 'int32'),
    ('rank_u', 'Rank', 'Rank_1:0', [], 'int32'),
    ('expand', 'ExpandDims', 'ExpandDims:0', [-1, 1, 3, 4], 'float32'),
    ('expand_dim', 'ExpandDims', 'ExpandDims_1:0', [-1, 3, 4, 1], 'float32'),
    ('squeeze', 'Squeeze', 'Squeeze:0', [2, 1], 'float32'),
    ('squeeze_dims', 'Squeeze', 'Squeeze_1:0', [1, 2], 'float32'),
    ('transpose', 'Transpose', 'transpose:0', [4, 3, -1], 'float32'),
    ('transpose_perm', 'Transpose', 'transpose_1:0', [3, -1, 4], 'float32'),
    ('concat', 'ConcatV2', 'concat:0', [-1, 6, 4], 'float32'),
    ('concat1', 'Identity', 'concat_1/concat:0', [-1, 3, 4], 'float32'),
    ('stack', 'Pack', 'stack:0', [-1, 3, 4, 2], 'float32'),
    ('stack_const', 'Const', 'stack_1:0', [2], 'int32'),
    ('unstack0', 'Unpack', 'unstack:0', [-1, 3], 'float32'),
    ('unstack1', 'Unpack', 'unstack:1', [-1, 3], 'float32'),
    ('unstack2', 'Unpack', 'unstack:2', [-1, 3], 'float32'),
    ('unstack3', 'Unpack', 'unstack:3', [-1, 3], 'float32'),
    ('split0', 'Split', 'split:0', [-1, 3, 2], 'float32'),
    ('split1', 'Split', 'split:1', [-1, 3, 2], 'float32'),
    ('splitv0', 'SplitV', 'split_1:0', [-1, 1, 4], 'float32'),
    ('splitv1', 'SplitV', 'split_1:1', [-1, 2, 4], 'float32'),
    ('tile', 'Tile', 'Tile:0', [-1, 6, 12], 'float32'),
    ('fill', 'Fill', 'Fill:0', [2, 3], 'int32'),
    ('zeros', 'Const', 'zeros_2:0', [2, 3], 'float32'),
    ('zeros_big', 'Fill', 'zeros_3:0', [50, 50], 'int32'),
    ('zeros_t', 'Fill', 'zeros_4:0', [-1, 3, 4], 'float32'),
    ('ones', 'Const', 'ones:0', [2], 'bool'),
    ('ones_big', 'Fill', 'ones_1:0', [1000], 'float32'),
    ('zeros_like', 'ZerosLike', 'zeros_like:0', [-1, 3, 4], 'float32'),
    ('zeros_like_c', 'Const', 'zeros_like_1:0', [2, 3], 'float32'),
    ('zeros_like_dt', 'Fill', 'zeros_like_2:0', [-1, 3, 4], 'int32'),
    ('ones_like', 'Fill', 'ones_like:0', [-1, 3, 4], 'float32'),
    ('ones_like_c', 'Fill', 'ones_like_1:0', [2, 3], 'int64'),
    ('range', 'Range', 'range:0', [5], 'int32'),
    ('range2', 'Range', 'range_1:0', [2], 'int32'),
    ('range_f', 'Range', 'range_2:0', [4], 'float32'),
    ('range_dt', 'Range', 'range_3:0', [3], 'float64'),
    ('range_t', 'Range', 'range_4:0', [3], 'int64'),
    ('bto', 'BroadcastTo', 'BroadcastTo:0', [3, 2], 'int32'),
    ('rev', 'ReverseV2', 'ReverseV2:0', [-1, 3, 4], 'float32'),
    ('bitcast', 'Bitcast', 'Bitcast:0', [-1, 3, 4], 'int32'),
    ('idn', 'IdentityN', 'IdentityN:1', [2, 3], 'float32'),
    ('stopg', 'StopGradient', 'StopGradient:0', [-1, 3, 4], 'float32'),
    ('chk', 'CheckNumerics', 'CheckNumerics:0', [-1, 3, 4], 'float32'),
    ('unique_y', 'Unique', 'Unique:0', [-1], 'int32'),
    ('unique_idx', 'Unique', 'Unique:1', [3], 'int32'),
    ('assert2', 'Assert', 'chk2/Assert', None, None),
]


def _run_tool(script, capsys):
    argv = sys.argv
    sys.argv = [script, "mt"]
    try:
        runpy.run_path(os.path.join(TOOLS, script), run_name="__main__")
    finally:
        sys.argv = argv
    return capsys.readouterr().out


def test_static_shapes_match_tensorflow(capsys):
    got = {}
    for line in _run_tool("array_static_shapes.py", capsys).splitlines():
        key, value = line.split(" ", 1)
        got[key] = eval(value)  # noqa: S307 (our own tool's output: lists and None)
    # StridedSlice (Shape(x)[i]) comes with the indexing ops; the rest must match exactly.
    strided = {"reshape_pack_last", "reshape_pack_neg", "reshape_pack_shape", "tf_stack_shape"}
    if "StridedSlice" not in dir(tf.raw_ops):
        expected = {k: v for k, v in TF_STATIC_SHAPES.items() if k not in strided}
    else:
        expected = TF_STATIC_SHAPES
    assert got == expected


def test_wrappers_match_tensorflow(capsys):
    rows = []
    for line in _run_tool("array_wrappers.py", capsys).splitlines():
        parts = line.split()
        key, typ, name = parts[0], parts[1], parts[2]
        if key == "assert":
            continue  # guarded asserts (AssertGuard) are compared node by node in test_asserts.py
        rest = line.split(name, 1)[1].strip()
        if rest.startswith("None"):
            shape, dtype = None, None
        else:
            shape_s, dtype = rest.rsplit(" ", 1)
            shape = eval(shape_s)  # noqa: S307
        rows.append((key, typ, name, shape, dtype))
    assert rows == TF_WRAPPERS


def _run(fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


def test_wrapper_values():
    """Values worked by hand (TensorFlow gives the same)."""
    x = tf.placeholder(tf.float32)
    a, b = tf.split(tf.reshape(tf.range(10), [2, 5]), [2, -1], axis=1)
    got = _run({"a": a, "b": b, "t": tf.transpose(x), "r": tf.range(1, 2, 0.5),
                "rr": tf.range(5, 1, -2), "u": tf.unique(["b", "a", "b"]),
                "z": tf.zeros([2], tf.string), "o": tf.ones([2], tf.bool),
                "ol": tf.ones_like(x), "rev": tf.reverse([[1, 2, 3]], [-1]),
                "st": tf.stack([[1, 2], [3, 4]], axis=1), "c": tf.concat([[1], [2, 3]], 0)},
               {x: np.arange(6, dtype=np.float32).reshape(1, 2, 3)})
    np.testing.assert_array_equal(got["a"], [[0, 1], [5, 6]])
    np.testing.assert_array_equal(got["b"], [[2, 3, 4], [7, 8, 9]])
    np.testing.assert_array_equal(got["t"], np.arange(6).reshape(1, 2, 3).T)
    assert got["r"].dtype == np.float32
    np.testing.assert_array_equal(got["r"], [1.0, 1.5])
    np.testing.assert_array_equal(got["rr"], [5, 3])
    np.testing.assert_array_equal(got["u"][0], [b"b", b"a"])
    np.testing.assert_array_equal(got["u"][1], [0, 1, 0])
    np.testing.assert_array_equal(got["z"], [b"", b""])
    np.testing.assert_array_equal(got["o"], [True, True])
    np.testing.assert_array_equal(got["ol"], np.ones((1, 2, 3)))
    np.testing.assert_array_equal(got["rev"], [[3, 2, 1]])
    np.testing.assert_array_equal(got["st"], [[1, 3], [2, 4]])
    np.testing.assert_array_equal(got["c"], [1, 2, 3])


def test_wrapper_errors():
    x = tf.placeholder(tf.float32, [2, None])
    with pytest.raises(ValueError, match=r"Argument `axis` = 3 not in range \[-3, 3\)"):
        tf.stack([x, x], axis=3)
    with pytest.raises(ValueError, match="Cannot infer argument `num` from shape"):
        tf.unstack(x, axis=1)
    with pytest.raises(ValueError, match="Rank-0 tensors are not supported"):
        tf.split(x, tf.constant(2), axis=1)
    with pytest.raises(ValueError, match="Cannot specify both 'axis' and 'dim'"):
        tf.expand_dims(x, 0, dim=0)
    with pytest.raises(ValueError, match="Requires delta != 0"):
        tf.range(0, 5, 0)
    with pytest.raises(ValueError, match="Can not squeeze dim\\[0\\], expected a dimension "
                                         "of 1, got 2"):
        tf.squeeze(x, [0])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"assertion failed: \[1 2 3...\] \[x\]"):
        _run(tf.Assert(tf.constant(False), [tf.constant([1, 2, 3, 4]), "x"]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="msg : Tensor had Inf values"):
        _run(tf.check_numerics(tf.constant([1.0, np.inf]), "msg"))
