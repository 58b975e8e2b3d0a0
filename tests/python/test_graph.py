"""Graph / Operation / Tensor over the C graph: names, lookup, attrs, GraphDef."""
import numpy as np
import pytest

import minitf as tf


def test_default_graph_nesting_and_reset(graph):
    assert tf.get_default_graph() is graph
    g2 = tf.Graph()
    with g2.as_default():
        assert tf.get_default_graph() is g2
        c = tf.constant(1.0)
        assert c.graph is g2
        with pytest.raises(AssertionError):
            tf.reset_default_graph()
    assert tf.get_default_graph() is graph


def test_unique_names_and_name_scopes(graph):
    assert graph.unique_name("foo") == "foo"
    assert graph.unique_name("foo") == "foo_1"
    assert graph.unique_name("Foo") == "Foo_2"  # case-insensitive, as TensorFlow
    with tf.name_scope("layer") as scope:
        assert scope == "layer/"
        c = tf.constant(1.0, name="w")
    with tf.name_scope("layer") as scope2:
        assert scope2 == "layer_1/"
    with graph.name_scope("layer/"):  # re-entering an absolute scope
        d = tf.constant(2.0, name="w")
    assert c.op.name == "layer/w" and d.op.name == "layer/w_1"
    assert tf.constant(0, name="x").name == "x:0"
    assert tf.constant(0, name="x").name == "x_1:0"


def test_lookup_by_name(graph):
    c = tf.constant([1.0, 2.0], name="c")
    assert graph.get_operation_by_name("c") is c.op
    assert graph.get_tensor_by_name("c:0") is c
    assert graph.as_graph_element("c:0") is c
    with pytest.raises(KeyError, match="The name 'd' refers to an Operation not in the graph."):
        graph.get_operation_by_name("d")
    with pytest.raises(KeyError, match="exists but only has 1 outputs"):
        graph.get_tensor_by_name("c:1")
    with pytest.raises(ValueError, match="appears to refer to a Tensor, not a Operation"):
        graph.get_operation_by_name("c:0")
    with pytest.raises(ValueError, match="refers to an Operation, not a Tensor"):
        graph.get_tensor_by_name("c")


def test_operation_and_tensor_attributes(graph):
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w = tf.constant(np.ones((3, 2), np.float32), name="w")
    y = tf.matmul(x, w, name="y")
    op = y.op
    assert (op.name, op.type) == ("y", "MatMul")
    assert op.inputs == (x, w) and op.outputs == [y] and op.graph is graph
    assert repr(op) == "<tf.Operation 'y' type=MatMul>"
    assert (y.name, y.value_index, y.dtype, y.op) == ("y:0", 0, tf.float32, op)
    assert y.shape == tf.TensorShape([None, 2]) and str(y.get_shape()) == "(None, 2)"
    assert str(y) == 'Tensor("y:0", shape=(None, 2), dtype=float32)'
    assert repr(y) == "<tf.Tensor 'y:0' shape=(None, 2) dtype=float32>"
    assert x.consumers() == [op] and y.consumers() == []
    assert op.get_attr("transpose_a") is False
    assert op.get_attr("T") == tf.float32
    assert x.op.get_attr("dtype") is tf.float32
    shape = x.op.get_attr("shape")
    assert [d.size for d in shape.dim] == [-1, 3]
    value = w.op.get_attr("value")
    np.testing.assert_array_equal(tf.make_ndarray(value), np.ones((3, 2)))
    assert tf.constant("s", name="s").op.get_attr("value").string_val == [b"s"]
    with pytest.raises(ValueError):
        op.get_attr("no_such_attr")
    nd = op.node_def
    assert isinstance(nd, tf.NodeDef)
    assert (nd.name, nd.op, list(nd.input)) == ("y", "MatMul", ["x", "w"])
    assert op.op_def.name == "MatMul" and [a.name for a in op.op_def.input_arg] == ["a", "b"]
    assert y.device == "" and op.device == ""


def test_set_shape(graph):
    x = tf.placeholder(tf.float32, None, name="x")
    assert x.shape.rank is None and str(x) == 'Tensor("x:0", dtype=float32)'
    x.set_shape([None, 4])
    assert x.shape.as_list() == [None, 4]
    x.set_shape([2, 4])
    assert x.shape.as_list() == [2, 4]
    with pytest.raises(ValueError):
        x.set_shape([3, 4])


def test_control_dependencies(graph):
    a = tf.constant(1.0, name="a")
    n = tf.no_op(name="first")
    with tf.control_dependencies([n]):
        b = tf.identity(a, name="b")
        with tf.control_dependencies(None):
            c = tf.identity(a, name="c")
        d = tf.identity(b, name="d")  # b already depends on n: no extra edge
    assert b.op.control_inputs == [n]
    assert c.op.control_inputs == []
    assert d.op.control_inputs == []
    assert graph.as_graph_def().node[2].input == ["a", "^first"]


def test_graph_def_round_trip(graph):
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    y = tf.nn.softmax(tf.matmul(x, tf.constant([[1.0, 0.0], [0.0, 2.0]])) + 1.0, name="y")
    gd = graph.as_graph_def()
    assert isinstance(gd, tf.GraphDef)
    assert [n.name for n in gd.node] == [op.name for op in graph.get_operations()]
    data = gd.SerializeToString()
    g2 = tf.Graph()
    with g2.as_default():
        tf.import_graph_def(tf.GraphDef.FromString(data), name="")
        assert g2.as_graph_def().node == gd.node
        with tf.Session() as sess:
            got = sess.run("y:0", {"x:0": [[1.0, 1.0]]})
    with tf.Session(graph=graph) as sess:
        want = sess.run(y, {x: [[1.0, 1.0]]})
    np.testing.assert_array_equal(got, want)
    shapes = graph.as_graph_def(add_shapes=True).node[-1].attr["_output_shapes"].list.shape
    assert [d.size for d in shapes[0].dim] == [-1, 2]


def test_op_construction_errors(graph):
    with pytest.raises(tf.errors.NotFoundError):
        graph.create_op("NoSuchOp", [])
    with pytest.raises(TypeError, match="not in list of allowed values"):
        tf.nn.relu(tf.constant("s"))
    graph.finalize()
    with pytest.raises(RuntimeError, match="finalized"):
        tf.constant(1.0)


def test_string_and_list_attrs_through_the_c_api(graph):
    h = tf.raw_ops.VarHandleOp(dtype=tf.float32, shape=[2], shared_name="s",
                               allowed_devices=["/cpu:0", b"/device:CPU:0"], name="h")
    assert h.op.get_attr("shared_name") == b"s"
    assert h.op.get_attr("allowed_devices") == [b"/cpu:0", b"/device:CPU:0"]
    assert [d.size for d in h.op.get_attr("shape").dim] == [2]
    b = tf.nn.bias_add(tf.constant([[1.0]]), tf.constant([2.0]), data_format="NHWC")
    assert b.op.get_attr("data_format") == b"NHWC"
