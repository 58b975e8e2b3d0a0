"""as_graph_def, tf.train.write_graph, import_graph_def options, text-format
GraphDefs, as TensorFlow 2.21 (tools/graph_api_reference/p6_serialization.py
wrote the fixtures in tests/fixtures/graph_api/)."""
import os

import numpy as np
import pytest
from google.protobuf import text_format

import minitf as tf

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "graph_api")


def _graph():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        w = tf.constant([[1., 2.], [3., 4.], [5., 6.]], name="w")
        y = tf.matmul(x, w, name="y")
        u = tf.placeholder(tf.float32, None, name="u")
        with tf.control_dependencies([y]):
            tf.identity(u, name="z")
    return g


def test_as_graph_def_add_shapes():
    g = _graph()
    gd = g.as_graph_def(add_shapes=True)
    got = [(n.name, text_format.MessageToString(n.attr["_output_shapes"], as_one_line=True))
           for n in gd.node]
    assert got == [
        ("x", "list { shape { dim { size: -1 } dim { size: 3 } } }"),
        ("w", "list { shape { dim { size: 3 } dim { size: 2 } } }"),
        ("y", "list { shape { dim { size: -1 } dim { size: 2 } } }"),
        ("u", "list { shape { unknown_rank: true } }"),
        ("z", "list { shape { unknown_rank: true } }"),
    ]
    # from_version does not filter in TF 2.21
    assert len(g.as_graph_def(from_version=g.version).node) == 5
    assert "_output_shapes" not in g.as_graph_def().node[0].attr
    # the manual control input is marked as TensorFlow marks it
    assert g.get_operation_by_name("y").get_attr("_has_manual_control_dependencies") is True


def test_write_graph_text_and_binary_byte_identical_to_tensorflow(tmp_path):
    g = _graph()
    p = tf.train.write_graph(g, str(tmp_path), "g.pbtxt")
    assert p == os.path.join(str(tmp_path), "g.pbtxt")
    with open(p, "rb") as f, open(os.path.join(FIXTURES, "write_graph.pbtxt"), "rb") as t:
        assert f.read() == t.read()
    p2 = tf.train.write_graph(g.as_graph_def(), str(tmp_path / "sub" / "dir"), "g.pb",
                              as_text=False)
    assert p2 == os.path.join(str(tmp_path / "sub" / "dir"), "g.pb")
    with open(p2, "rb") as f, open(os.path.join(FIXTURES, "write_graph.pb"), "rb") as t:
        data = f.read()
        assert len(data) == 354
        assert data == t.read()


def test_read_text_format_graph_def_and_run_it():
    gd = tf.GraphDef()
    with open(os.path.join(FIXTURES, "write_graph.pbtxt")) as f:
        text_format.Merge(f.read(), gd)
    assert [n.name for n in gd.node] == ["x", "w", "y", "u", "z"]
    g = tf.Graph()
    with g.as_default():
        (y,) = tf.import_graph_def(gd, return_elements=["y:0"], name="fromtext")
        with tf.Session() as s:
            np.testing.assert_array_equal(s.run(y, {"fromtext/x:0": [[1, 1, 1]]}), [[9., 12.]])


def test_import_graph_def_options():
    gd = _graph().as_graph_def(add_shapes=True)
    g2 = tf.Graph()
    with g2.as_default():
        a = tf.constant([[1., 1., 1.]], name="a")
        ctl = tf.no_op(name="ctl")
        r = tf.import_graph_def(gd, input_map={"x:0": a, "^y": a},
                                return_elements=["y:0", "z", "w"], name="imp")
        assert repr(r) == ("[<tf.Tensor 'imp/y:0' shape=(1, 2) dtype=float32>, "
                           "<tf.Operation 'imp/z' type=Identity>, "
                           "<tf.Operation 'imp/w' type=Const>]")
        assert [i.name for i in r[1].control_inputs] == ["a"]
        r = tf.import_graph_def(gd, input_map={"x": a}, return_elements=["y:0"], name="")
        assert repr(r) == "[<tf.Tensor 'y:0' shape=(1, 2) dtype=float32>]"
        cases = [
            (dict(input_map={"nope:0": a}), ValueError,
             "Attempted to map inputs that were not found in graph_def: [nope:0]"),
            (dict(input_map={"x:0": a, "q:1": a}), ValueError,
             "Attempted to map inputs that were not found in graph_def: [q:1]"),
            (dict(return_elements=["nope:0"]), ValueError,
             "Requested return tensor 'nope:0' not found in graph def"),
            (dict(return_elements=["nope"]), ValueError,
             "Requested return node 'nope' not found in graph def"),
            (dict(input_map=[1]), TypeError,
             "Argument `input_map` must be a dictionary. Obtained list"),
            (dict(input_map={"^nope": a}), ValueError,
             "Attempted to map inputs that were not found in graph_def: [^nope]"),
            (dict(input_map={1: a}), TypeError,
             "All keys for argument `input_map` must be strings. Obtained keys: [1]"),
            (dict(return_elements=["y:5"]), ValueError,
             "Invalid return output 5 of node 'y', which has 1 output(s)"),
        ]
        for kw, exc, msg in cases:
            with pytest.raises(exc) as e:
                tf.import_graph_def(gd, **kw)
            assert str(e.value) == msg
        with pytest.raises(ValueError) as e:
            tf.import_graph_def(gd, input_map={"x:0": 1.0})
        assert str(e.value).startswith("Shape must be rank 2 but is rank 0 for '{{node import_")
        assert "/_inputs/Const" in str(e.value)
        with pytest.raises(TypeError):  # an Operation is not a Tensor
            tf.import_graph_def(gd, input_map={"^y": ctl})
        with pytest.raises(TypeError, match=r"^Argument `graph_def` must be a GraphDef proto\.$"):
            tf.import_graph_def("x")
        (w,) = tf.import_graph_def(gd, op_dict={"a": 1}, producer_op_list=None,
                                   return_elements=["w"])
        assert w.type == "Const" and w.name.startswith("import_")
        assert tf.import_graph_def(gd, name="imp") is None
        assert [o.name for o in g2.get_operations()][-5:] == \
            ["imp_1/x", "imp_1/w", "imp_1/y", "imp_1/u", "imp_1/z"]
