"""tf.import_graph_def makes Consts larger than 16 MiB from the GraphDef message's bytes
without a second copy (bench/bench_large_const.py measures the memory); these tests check the
imported graph is the same as through the plain path."""
import numpy as np

import minitf as tf
from minitf.framework import importer


def _graph_def(n):
    with tf.Graph().as_default() as g:
        big = tf.constant(np.arange(n, dtype=np.float32), name="big")
        x = tf.placeholder(tf.float32, [n], name="x")
        total = tf.reduce_sum(big + x, name="total")
        with tf.control_dependencies([big.op]):
            tf.identity(total, name="after")
    return g.as_graph_def()


def test_large_const_is_split_off_and_wired(monkeypatch):
    monkeypatch.setattr(importer, "_LARGE_CONST_BYTES", 1024)  # small data, same path
    n = 1000
    gd = _graph_def(n)
    assert list(importer._large_consts(gd)) == ["big"]
    with tf.Graph().as_default() as g:
        big, after = tf.import_graph_def(gd, name="imp", return_elements=["big:0", "after"])
        assert big.name == "imp/big:0" and big.op.type == "Const"
        assert g.get_operation_by_name("imp/total").inputs[0].op.inputs[0] is big
        assert [op.name for op in after.control_inputs] == ["imp/big"]
        with tf.Session() as sess:
            got = sess.run(["imp/total:0", "imp/big:0"], {"imp/x:0": np.ones(n, np.float32)})
    assert got[0] == np.sum(np.arange(n) + 1.0)
    np.testing.assert_array_equal(got[1], np.arange(n, dtype=np.float32))


def test_typed_value_consts_and_taken_names_use_the_plain_path(monkeypatch):
    monkeypatch.setattr(importer, "_LARGE_CONST_BYTES", 64)
    gd = tf.GraphDef()
    node = gd.node.add(name="zeros", op="Const")
    node.attr["dtype"].type = tf.float32.as_datatype_enum
    tensor = node.attr["value"].tensor  # float_val [0] over [1000], as TF writes tf.zeros
    tensor.dtype = tf.float32.as_datatype_enum
    tensor.tensor_shape.dim.add(size=1000)
    tensor.float_val.append(0.0)
    assert importer._large_consts(gd) == {}
    with tf.Graph().as_default():
        zeros = tf.import_graph_def(gd, name="", return_elements=["zeros:0"])[0]
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(zeros), np.zeros(1000, np.float32))
    gd2 = _graph_def(100)
    with tf.Graph().as_default() as g:
        tf.constant(1.0, name="big")
        tf.import_graph_def(gd2, name="")  # "big" is taken: the C importer uniquifies it
        assert g.get_operation_by_name("big_1").type == "Const"
        with tf.Session() as sess:
            assert sess.run("total:0", {"x:0": np.zeros(100, np.float32)}) == np.sum(np.arange(100))
