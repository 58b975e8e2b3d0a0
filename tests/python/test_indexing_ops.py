"""Indexing/space ops beyond the goldens: static shapes from partially known inputs (fixture
from real TensorFlow, tools/goldens/gen_indexing_shapes.py), the TF1 wrappers' signatures,
defaults and dtype inference, and the StridedSlice that Tensor.__getitem__ relies on."""
import json
import os

import numpy as np
import pytest

import minitf as tf

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures",
                       "indexing", "partial_shapes.json")
with open(FIXTURE) as _f:
    _PARTIAL = json.load(_f)["cases"]


@pytest.mark.parametrize("case", _PARTIAL, ids=["%d-%s" % (i, c["op"]) for i, c in
                                                enumerate(_PARTIAL)])
def test_partial_shapes_match_tensorflow(case):
    g = tf.Graph()
    with g.as_default():
        kw = {}
        for arg, (kind, dtype, v) in case["inputs"]:
            if kind == "ph":
                kw[arg] = tf.placeholder(tf.as_dtype(dtype), v, name=arg)
            else:
                kw[arg] = tf.constant(np.array(v, dtype=dtype), name=arg)
        op = getattr(tf.raw_ops, case["op"])
        if "error" in case:
            with pytest.raises(ValueError) as e:
                op(name="op", **kw, **case["attrs"])
            assert case["error"]["match"] in str(e.value)
            return
        t = op(name="op", **kw, **case["attrs"])
        got = None if t.shape.rank is None else [-1 if d is None else d for d in t.shape.as_list()]
        assert got == case["shape"]


def _run(t, feed=None):
    with tf.Session(graph=t.graph) as s:
        return s.run(t, feed)


def test_getitem_masks_step2_reversed():
    # TensorFlow lowers x[::2, ::-1] to StridedSlice(begin=[0,0], end=[0,0], strides=[2,-1],
    # begin_mask=3, end_mask=3) (read from TF 2.21's graph).
    with tf.Graph().as_default():
        x = tf.constant([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
        y = tf.raw_ops.StridedSlice(input=x, begin=[0, 0], end=[0, 0], strides=[2, -1],
                                    begin_mask=3, end_mask=3)
        assert y.shape.as_list() == [2, 3]
        np.testing.assert_array_equal(_run(y), [[3, 2, 1], [9, 8, 7]])


def test_getitem_end_to_end():
    with tf.Graph().as_default():
        x = tf.constant([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
        y = x[::2, ::-1]
        assert y.op.type == "StridedSlice" and y.shape.as_list() == [2, 3]
        assert (y.op.get_attr("begin_mask"), y.op.get_attr("end_mask")) == (3, 3)
        np.testing.assert_array_equal(_run(y), [[3, 2, 1], [9, 8, 7]])
        np.testing.assert_array_equal(_run(x[-1, 1:]), [8, 9])
        np.testing.assert_array_equal(_run(x[..., None, 0]), [[1], [4], [7]])


def test_getitem_masks_ellipsis_newaxis_shrink():
    # x[..., None, -1] of a [2, 3, 4] tensor: ellipsis bit 0, new axis bit 1, shrink bit 2.
    with tf.Graph().as_default():
        x = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
        y = tf.raw_ops.StridedSlice(input=x, begin=[0, 0, -1], end=[0, 0, 0], strides=[1, 1, 1],
                                    ellipsis_mask=1, new_axis_mask=2, shrink_axis_mask=4)
        assert y.shape.as_list() == [2, 3, 1]
        np.testing.assert_array_equal(_run(y), np.arange(24).reshape(2, 3, 4)[..., None, -1])


def test_strided_slice_wrapper_defaults_and_zero_stride():
    with tf.Graph().as_default():
        x = tf.constant(np.arange(10))
        y = tf.strided_slice(x, [8], [1], [-3])
        assert y.op.type == "StridedSlice" and y.op.get_attr("begin_mask") == 0
        np.testing.assert_array_equal(_run(y), [8, 5, 2])
        np.testing.assert_array_equal(_run(tf.strided_slice(x, [2], [5])), [2, 3, 4])
        with pytest.raises(ValueError, match="strides\\[0\\] must be non-zero"):
            tf.strided_slice(x, [0], [1], [0])


def test_slice_wrapper():
    with tf.Graph().as_default():
        x = tf.constant([[1, 2, 3], [4, 5, 6]])
        y = tf.slice(x, [1, 0], [-1, 2])
        assert y.op.name == "Slice" and y.shape.as_list() == [1, 2]
        np.testing.assert_array_equal(_run(y), [[4, 5]])
        with pytest.raises(tf.errors.InvalidArgumentError, match="Expected size\\[1\\] in \\[0, 3\\]"):
            _run(tf.slice(x, [0, 0], [1, 4]))


def test_gather_default_axis_is_batch_dims():
    with tf.Graph().as_default():
        p = tf.constant([[1, 2, 3], [4, 5, 6]])
        np.testing.assert_array_equal(_run(tf.gather(p, [1, 0, 1])), [[4, 5, 6], [1, 2, 3],
                                                                    [4, 5, 6]])
        g = tf.gather(p, [[2, 0], [1, 1]], batch_dims=1)  # axis defaults to 1
        assert g.op.type == "GatherV2" and g.shape.as_list() == [2, 2]
        np.testing.assert_array_equal(_run(g), [[3, 1], [5, 5]])
        with pytest.raises(tf.errors.InvalidArgumentError, match="indices\\[1\\] = 5 is not in \\[0, 3\\)"):
            _run(tf.gather(p, [0, 5], axis=1))


def test_gather_nd_and_scatter_nd_wrappers():
    with tf.Graph().as_default():
        p = tf.constant([[1, 2], [3, 4]])
        np.testing.assert_array_equal(_run(tf.gather_nd(p, [[1, 0], [0, 1]])), [3, 2])
        s = tf.scatter_nd([[0], [2], [0]], tf.constant([1.5, 2.0, 3.0]), [4])
        np.testing.assert_array_equal(_run(s), [4.5, 0.0, 2.0, 0.0])
        with pytest.raises(NotImplementedError):
            tf.gather_nd(p, [[0]], batch_dims=1)


def test_one_hot_dtype_inference_like_tensorflow():
    with tf.Graph().as_default():
        a = tf.one_hot([0, 2], 3)
        assert a.dtype == tf.float32 and a.op.name == "one_hot" and a.op.get_attr("axis") == -1
        b = tf.one_hot([0, 2], 3, on_value=5, off_value=1, axis=0)
        assert b.dtype == tf.int32 and b.shape.as_list() == [3, 2]
        np.testing.assert_array_equal(_run(b), [[5, 1], [1, 1], [1, 5]])
        c = tf.one_hot([1, -1, 7], 3, off_value=-1.0)
        assert c.dtype == tf.float32
        np.testing.assert_array_equal(_run(c), [[-1, 1, -1], [-1, -1, -1], [-1, -1, -1]])
        d = tf.one_hot([1], 2, dtype=tf.int64)
        assert d.dtype == tf.int64
        with pytest.raises(TypeError, match="does not match dtype parameter"):
            tf.one_hot([1], 2, on_value=1.0, dtype=tf.int32)
        with pytest.raises(TypeError, match="does not match dtype"):
            tf.one_hot([1], 2, on_value=1.0, off_value=0)


def test_where_condition_only():
    with tf.Graph().as_default():
        w = tf.where([[True, False], [False, True]])
        assert w.op.type == "Where" and w.op.name == "Where" and w.dtype == tf.int64
        assert w.shape.as_list() == [None, 2]
        np.testing.assert_array_equal(_run(w), [[0, 0], [1, 1]])
        n = tf.where(tf.constant([0.0, np.nan, -0.0, 2.0]))
        np.testing.assert_array_equal(_run(n), [[1], [3]])
        with pytest.raises(ValueError, match="x and y must both be non-None or both be None."):
            tf.where([True], x=[1])


def test_pad_modes():
    with tf.Graph().as_default():
        x = tf.constant([[1, 2, 3]])
        p0 = tf.pad(x, [[1, 0], [0, 1]])
        assert p0.op.type == "Pad" and p0.shape.as_list() == [2, 4]
        np.testing.assert_array_equal(_run(p0), [[0, 0, 0, 0], [1, 2, 3, 0]])
        p9 = tf.pad(x, [[0, 0], [1, 1]], constant_values=9)
        assert p9.op.type == "PadV2"
        np.testing.assert_array_equal(_run(p9), [[9, 1, 2, 3, 9]])
        r = tf.pad(x, [[0, 0], [2, 2]], mode="reflect")
        assert r.op.type == "MirrorPad" and r.op.get_attr("mode") == b"REFLECT"
        np.testing.assert_array_equal(_run(r), [[3, 2, 1, 2, 3, 2, 1]])
        s = tf.pad(x, [[0, 0], [2, 1]], mode="SYMMETRIC")
        np.testing.assert_array_equal(_run(s), [[2, 1, 1, 2, 3, 3]])
        with pytest.raises(ValueError, match="Value of argument `mode` expected"):
            tf.pad(x, [[0, 0], [1, 1]], mode="EDGE")
        with pytest.raises(ValueError, match="Paddings must be non-negative"):
            tf.pad(x, [[0, 0], [-1, 1]])


def test_space_wrappers_round_trip():
    with tf.Graph().as_default():
        v = np.arange(2 * 4 * 6 * 3, dtype=np.float32).reshape(2, 4, 6, 3)
        x = tf.constant(v)
        d = tf.space_to_depth(x, 2)
        assert d.shape.as_list() == [2, 2, 3, 12]
        back = tf.depth_to_space(d, 2)
        np.testing.assert_array_equal(_run(back), v)
        b = tf.space_to_batch_nd(x, [2, 3], [[0, 0], [1, 2]])
        assert b.shape.as_list() == [12, 2, 3, 3]
        s = tf.batch_to_space_nd(b, [2, 3], [[0, 0], [1, 2]])
        assert s.shape.as_list() == [2, 4, 6, 3]
        np.testing.assert_array_equal(_run(s), v)
        # output batch 0 = block offset (0, 0) of image 0: input rows 0, 2 and columns
        # -1 (the left pad: 0), 2, 5; channel 0 of v[0, r, c] is (6 * r + c) * 3
        np.testing.assert_array_equal(_run(b)[0, :, :, 0], [[0, 6, 15], [0, 42, 51]])


def test_string_and_bool_dtypes_move():
    with tf.Graph().as_default():
        s = tf.constant([b"a", b"bb", b"a-long-string-beyond-the-small-buffer"])
        np.testing.assert_array_equal(_run(tf.gather(s, [2, 0])),
                                      [b"a-long-string-beyond-the-small-buffer", b"a"])
        np.testing.assert_array_equal(_run(tf.pad(s, [[1, 0]], constant_values="z")),
                                      [b"z", b"a", b"bb", b"a-long-string-beyond-the-small-buffer"])
        b = tf.constant([[True, False], [False, False]])
        np.testing.assert_array_equal(_run(tf.pad(b, [[0, 0], [1, 0]])),
                                      [[False, True, False], [False, False, False]])
