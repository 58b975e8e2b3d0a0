"""tf.Operation and Tensor.set_shape against TensorFlow 2.21 tf.compat.v1 graph
mode (expected values printed by real TF)."""
import numpy as np
import pytest

import minitf as tf

MATMUL_NODE_DEF = '''name: "mm"
op: "MatMul"
input: "x"
input: "w"
attr {
  key: "T"
  value {
    type: DT_FLOAT
  }
}
attr {
  key: "grad_a"
  value {
    b: false
  }
}
attr {
  key: "grad_b"
  value {
    b: false
  }
}
attr {
  key: "transpose_a"
  value {
    b: false
  }
}
attr {
  key: "transpose_b"
  value {
    b: false
  }
}
'''


@pytest.fixture
def mm(graph):
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w = tf.constant(np.ones((3, 2), np.float32), name="w")
    return tf.matmul(x, w, name="mm")  # line used by test_traceback


def test_set_shape_merges_with_tf_errors(graph):
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    x.set_shape([2, None])
    assert str(x.shape) == "(2, 3)"
    with pytest.raises(ValueError) as e:
        x.set_shape([3, 3])
    assert str(e.value) == ("Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes "
                            "are [2,3] and [3,3].")
    with pytest.raises(ValueError) as e:
        x.set_shape([2, 3, 1])
    assert str(e.value) == "Shapes must be equal rank, but are 2 and 3"
    x.set_shape(None)
    assert str(x.shape) == "(2, 3)"
    u = tf.placeholder(tf.float32, name="u")
    u.set_shape([None, 4])
    assert str(u.shape) == "(None, 4)"
    u.set_shape(tf.TensorShape(None))
    assert str(u.shape) == "(None, 4)"
    c = tf.constant([1.0, 2.0], name="c")
    with pytest.raises(ValueError) as e:
        c.set_shape([3])
    assert str(e.value) == ("Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes "
                            "are [2] and [3].")


def test_node_def_and_op_def(mm):
    op = mm.op
    nd = op.node_def
    # TF prints attrs in map order; compare field by field, sorted.
    assert (nd.name, nd.op, list(nd.input)) == ("mm", "MatMul", ["x", "w"])
    assert sorted(nd.attr) == ["T", "grad_a", "grad_b", "transpose_a", "transpose_b"]
    sorted_nd = tf.NodeDef(name=nd.name, op=nd.op, input=nd.input)
    text = str(sorted_nd) + "".join(
        'attr {\n  key: "%s"\n  value {\n    %s  }\n}\n' %
        (k, str(nd.attr[k]).replace("\n", "\n    ").rstrip(" ")) for k in sorted(nd.attr))
    assert text == MATMUL_NODE_DEF
    od = op.op_def
    assert od.name == "MatMul"
    assert [(a.name, a.type_attr) for a in od.input_arg] == [("a", "T"), ("b", "T")]
    assert [(a.name, a.type_attr) for a in od.output_arg] == [("product", "T")]
    assert [a.name for a in od.attr] == ["transpose_a", "transpose_b", "T", "grad_a", "grad_b"]
    t = [a for a in od.attr if a.name == "T"][0]
    assert [tf.as_dtype(d).name for d in t.allowed_values.list.type] == [
        "bfloat16", "float16", "float32", "float64", "int32", "int64", "uint8", "uint16",
        "uint32", "uint64", "complex64", "complex128"]
    assert od.attr[0].default_value.b is False and od.attr[0].type == "bool"


def test_get_attr_kinds(mm):
    op = mm.op
    assert op.get_attr("T") == tf.float32
    assert op.get_attr("transpose_a") is False
    with pytest.raises(ValueError) as e:
        op.get_attr("nonexistent")
    assert str(e.value) == "Operation 'mm' has no attr named 'nonexistent'."
    x = op.inputs[0]
    shape = x.op.get_attr("shape")
    assert type(shape).__name__ == "TensorShapeProto" and [d.size for d in shape.dim] == [-1, 3]
    assert type(op.inputs[1].op.get_attr("value")).__name__ == "TensorProto"
    p2 = tf.placeholder(tf.int32, [None], name="p2")
    assert p2.op.get_attr("dtype") == tf.int32


def test_values_inputs_outputs_control(mm, graph):
    op = mm.op
    assert op.values() == (mm,) and op.outputs == [mm] and type(op.outputs) is list
    assert type(op.inputs) is tuple and [t.name for t in op.inputs] == ["x:0", "w:0"]
    assert op.control_inputs == [] and op.device == "" and op.colocation_groups() == [b"loc:@mm"]
    assert (str(op)[:40], repr(op)) == ('name: "mm"\nop: "MatMul"\ninput: "x"\ninput',
                                        "<tf.Operation 'mm' type=MatMul>")
    assert op.inputs[0].consumers() == [op]
    op._set_attr("transpose_a", tf.AttrValue(b=True))
    assert op.get_attr("transpose_a") is True
    with pytest.raises(AttributeError, match="'bool' object has no attribute 'SerializeToString'"):
        op._set_attr("transpose_a", True)
    n = tf.no_op(name="n")
    n2 = tf.no_op(name="n2")
    op._add_control_input(n)
    op._add_control_inputs([n2, n])
    assert op.control_inputs == [n, n2] and n._control_outputs == [op]
    c = op.inputs[1]
    with pytest.raises(RuntimeError) as e:
        op._add_control_input(c)
    assert str(e.value) == ('Expected a PyOperation got Tensor("w:0", shape=(3, 2), '
                            'dtype=float32)')
    assert "^n" in list(op.node_def.input) and "^n2" in list(op.node_def.input)


def test_traceback(mm):
    tb = mm.op.traceback
    assert tb[-1][0] == __file__ and tb[-1][2] == "mm"
    assert tb[-1][3] == 'return tf.matmul(x, w, name="mm")  # line used by test_traceback'


def test_create_op(graph):
    g = graph
    o2 = g.create_op("Const", [], [tf.float32], name="cc",
                     attrs={"value": tf.AttrValue(tensor=tf.make_tensor_proto(1.0)),
                            "dtype": tf.AttrValue(type=tf.float32.as_datatype_enum)})
    assert o2.name == "cc" and [t.name for t in o2.outputs] == ["cc:0"]
    o3 = g.create_op("AddV2", [o2.outputs[0], o2.outputs[0]], [tf.float32])
    assert (o3.name, o3.get_attr("T")) == ("AddV2", tf.float32)
    assert g.create_op("AddV2", [o2.outputs[0]] * 2, [tf.float32], name="cc").name == "cc_1"
    assert g.create_op("AddV2", [o2.outputs[0]] * 2, [tf.float32], name="zz/").name == "zz"
    with tf.Session(graph=g) as sess:
        assert sess.run(o3.outputs[0]) == 2.0
        v = tf.Variable(1.0, name="v")
        sess.run(v.initializer)
        v.assign(5.0).op.run(session=sess)
        assert sess.run(v) == 5.0
