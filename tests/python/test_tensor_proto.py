"""tf.make_tensor_proto / tf.make_ndarray against TensorProtos written by real
TensorFlow 2.21 (tests/fixtures/tensor_proto, tools/gen_tensor_proto_fixtures.py)."""
import json
import os

import numpy as np
import pytest

import minitf as tf

DIR = os.path.join(os.path.dirname(__file__), "..", "fixtures", "tensor_proto")
with open(os.path.join(DIR, "manifest.json")) as _f:
    CASES = json.load(_f)["cases"]


def _proto(case):
    with open(os.path.join(DIR, case["file"]), "rb") as f:
        return tf.TensorProto.FromString(f.read())


def _expected(case):
    if "strings" in case:
        return np.array([bytes.fromhex(h) for h in case["strings"]] or [], dtype=object) \
            .reshape(case["shape"])
    value = np.load(os.path.join(DIR, case["npy"]))
    if case["dtype"] == "bfloat16":  # stored as its uint16 bits
        import ml_dtypes
        value = value.view(ml_dtypes.bfloat16)
    return value


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_make_ndarray_decodes_tensorflow_protos(case):
    got = tf.make_ndarray(_proto(case))
    want = _expected(case)
    assert got.shape == want.shape
    if case["dtype"] == "string":
        assert list(got.reshape(-1)) == list(want.reshape(-1))
    else:
        assert got.dtype == want.dtype
        assert got.tobytes() == want.tobytes()  # bit-exact (NaN, -0.0)


MAKE = [c for c in CASES if c["name"].startswith("make_")
        and c["name"] != "make_uint64_2x3"]  # TF 2.21 turns 2**64-1 into 0 there


@pytest.mark.parametrize("case", MAKE, ids=[c["name"] for c in MAKE])
def test_make_tensor_proto_writes_tensorflows_bytes(case):
    values = _expected(case)
    got = tf.make_tensor_proto(values, dtype=case["dtype"], shape=case["shape"])
    assert got.SerializeToString() == _proto(case).SerializeToString()


def test_layout_rules():
    p = tf.make_tensor_proto([1.0, 2.0, 3.0])
    assert p.dtype == tf.float32.as_datatype_enum and len(p.tensor_content) == 12
    assert list(p.float_val) == []
    p = tf.make_tensor_proto(2.5)
    assert list(p.float_val) == [2.5] and not p.tensor_content
    p = tf.make_tensor_proto([True, False])
    assert list(p.bool_val) == [True, False]
    p = tf.make_tensor_proto(np.array([1 + 2j], np.complex64))
    assert list(p.scomplex_val) == [1.0, 2.0]
    p = tf.make_tensor_proto(np.float16(1.0))
    assert list(p.half_val) == [0x3C00]
    p = tf.make_tensor_proto([b"a\x00b", "c"])
    assert list(p.string_val) == [b"a\x00b", b"c"]


def test_short_values_repeat_the_last():
    # A scalar for a bigger shape: one value stored, readers repeat it.
    p = tf.make_tensor_proto(7, shape=[2, 3])
    assert list(p.int_val) == [7] and [d.size for d in p.tensor_shape.dim] == [2, 3]
    np.testing.assert_array_equal(tf.make_ndarray(p), np.full([2, 3], 7, np.int32))
    p = tf.make_tensor_proto([1, 2], shape=[4])
    np.testing.assert_array_equal(tf.make_ndarray(p), [1, 2, 2, 2])
    p = tf.make_tensor_proto(1.5, shape=[3], allow_broadcast=True)
    np.testing.assert_array_equal(tf.make_ndarray(p), [1.5, 1.5, 1.5])


def test_shape_errors_as_tensorflow():
    with pytest.raises(ValueError, match="Too many elements provided. Takes at most 2, but got 3"):
        tf.make_tensor_proto([1, 2, 3], shape=[2])
    with pytest.raises(TypeError, match=r"Expected Tensor's shape: \(3,\), but got \(2,\)"):
        tf.make_tensor_proto([1, 2], shape=[3], verify_shape=True)
    with pytest.raises(TypeError, match=r"Expected Tensor's shape: \(3,\), but got \(2,\)"):
        tf.make_tensor_proto([1, 2], shape=[3], allow_broadcast=True)
    with pytest.raises(TypeError):
        tf.make_tensor_proto("x", dtype=tf.float32)


def test_bad_content_size():
    p = tf.TensorProto(dtype=tf.float32.as_datatype_enum, tensor_content=b"\0" * 8)
    p.tensor_shape.dim.add().size = 3
    with pytest.raises(ValueError, match="tensor_content has 8 bytes"):
        tf.make_ndarray(p)
    # The same proto as the value of an imported Const: the C importer
    # refuses it (InvalidArgumentError, raised as ValueError like TF's importer).
    gd = tf.GraphDef()
    node = gd.node.add(name="c", op="Const")
    node.attr["value"].tensor.CopyFrom(p)
    node.attr["dtype"].type = tf.float32.as_datatype_enum
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="tensor_content has 8 bytes"):
            tf.import_graph_def(gd, name="")


def test_const_from_tensorflow_proto_runs():
    case = next(c for c in CASES if c["name"] == "short_float32")
    g = tf.Graph()
    with g.as_default():
        from minitf.framework import constant_op
        t = constant_op._tensor_from_proto(_proto(case))
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(t), _expected(case))
