"""tf.Tensor: printing, attributes, operators and __getitem__ as TensorFlow 2.21
tf.compat.v1 graph mode builds them (expected values printed by real TF).

Ops not yet registered in C on main (FloorDiv, FloorMod, Pow, Abs, Logical*,
comparisons, StridedSlice, Pack) skip their tests with the reason; the
Python lowering is in place and the tests state TensorFlow's graphs.
"""
import numpy as np
import pytest

import minitf as tf
from minitf.framework import op_def_library


def _registered(*types):
    ops = op_def_library.get_registered_ops()
    return all(t in ops for t in types)


def requires(*types):
    return pytest.mark.skipif(not _registered(*types),
                              reason="op(s) %s not registered in C yet" % ", ".join(types))


def describe(t):
    op = t.op
    return (t.name, op.type, [a.name for a in op.inputs], t.dtype.name, str(t.shape))


@pytest.fixture
def xy(graph):
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.constant([[1., 2., 3.]], name="y")
    return x, y


def test_str_and_repr(graph):
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    u = tf.placeholder(tf.float32, name="u")
    b = tf.constant([True, False], name="b")
    assert (str(x), repr(x)) == ('Tensor("x:0", shape=(None, 3), dtype=float32)',
                                 "<tf.Tensor 'x:0' shape=(None, 3) dtype=float32>")
    assert (str(u), repr(u)) == ('Tensor("u:0", dtype=float32)',
                                 "<tf.Tensor 'u:0' shape=<unknown> dtype=float32>")
    assert (str(b), repr(b)) == ('Tensor("b:0", shape=(2,), dtype=bool)',
                                 "<tf.Tensor 'b:0' shape=(2,) dtype=bool>")
    assert type(x).__name__ == "SymbolicTensor" and isinstance(x, tf.Tensor)
    assert (x.device, x.value_index, x.op.name, x.ndim) == ("", 0, "x", 2)


def test_registered_binary_operators(xy):
    x, y = xy
    assert describe(x + y) == ("add:0", "AddV2", ["x:0", "y:0"], "float32", "(None, 3)")
    assert describe(x - y) == ("sub:0", "Sub", ["x:0", "y:0"], "float32", "(None, 3)")
    assert describe(x * y) == ("mul:0", "Mul", ["x:0", "y:0"], "float32", "(None, 3)")
    assert describe(x / y) == ("truediv:0", "RealDiv", ["x:0", "y:0"], "float32", "(None, 3)")
    yt = tf.constant([[1.], [2.], [3.]], name="yt")
    assert describe(x @ yt) == ("matmul:0", "MatMul", ["x:0", "yt:0"], "float32", "(None, 1)")
    assert describe(-x) == ("Neg:0", "Neg", ["x:0"], "float32", "(None, 3)")
    # Reflected: the Python operand becomes "<scope>/x".
    assert describe(1 + x) == ("add_1:0", "AddV2", ["add_1/x:0", "x:0"], "float32", "(None, 3)")
    assert describe(1 - x) == ("sub_1:0", "Sub", ["sub_1/x:0", "x:0"], "float32", "(None, 3)")
    assert describe(2 * x) == ("mul_1:0", "Mul", ["mul_1/x:0", "x:0"], "float32", "(None, 3)")
    assert describe(2 / x) == ("truediv_1:0", "RealDiv", ["truediv_1/x:0", "x:0"], "float32",
                               "(None, 3)")
    assert describe(np.ones((3, 1), np.float32) @ x) == (
        "matmul_1:0", "MatMul", ["matmul_1/x:0", "x:0"], "float32", "(3, 3)")
    i = tf.constant([1, 2], name="i")
    assert describe(i / i) == ("truediv_2:0", "RealDiv", ["truediv_2/Cast:0", "truediv_2/Cast_1:0"],
                               "float64", "(2,)")
    assert describe(i * 2) == ("mul_2:0", "Mul", ["i:0", "mul_2/y:0"], "int32", "(2,)")
    assert describe(-i) == ("Neg_1:0", "Neg", ["i:0"], "int32", "(2,)")
    assert describe(x + 1) == ("add_2:0", "AddV2", ["x:0", "add_2/y:0"], "float32", "(None, 3)")


@requires("FloorDiv", "FloorMod", "Pow")
def test_floordiv_mod_pow_operators(xy):
    x, y = xy
    assert describe(x // y) == ("floordiv:0", "FloorDiv", ["x:0", "y:0"], "float32", "(None, 3)")
    assert describe(x % y) == ("mod:0", "FloorMod", ["x:0", "y:0"], "float32", "(None, 3)")
    assert describe(x ** y) == ("pow:0", "Pow", ["x:0", "y:0"], "float32", "(None, 3)")
    assert describe(2 // x) == ("floordiv_1:0", "FloorDiv", ["floordiv_1/x:0", "x:0"], "float32",
                                "(None, 3)")
    assert describe(2 % x) == ("mod_1:0", "FloorMod", ["mod_1/x:0", "x:0"], "float32", "(None, 3)")
    assert describe(2 ** x) == ("pow_1:0", "Pow", ["pow_1/x:0", "x:0"], "float32", "(None, 3)")
    i = tf.constant([1, 2], name="i")
    assert describe(i // i) == ("floordiv_2:0", "FloorDiv", ["i:0", "i:0"], "int32", "(2,)")
    assert describe(i % 3) == ("mod_2:0", "FloorMod", ["i:0", "mod_2/y:0"], "int32", "(2,)")


@requires("Abs")
def test_abs_operator(xy):
    x, _ = xy
    assert describe(abs(x)) == ("Abs:0", "Abs", ["x:0"], "float32", "(None, 3)")
    i = tf.constant([1, 2], name="i")
    assert describe(abs(i)) == ("Abs_1:0", "Abs", ["i:0"], "int32", "(2,)")


@requires("LogicalNot", "LogicalAnd", "LogicalOr")
def test_logical_operators(graph):
    b = tf.constant([True, False], name="b")
    assert describe(~b) == ("LogicalNot:0", "LogicalNot", ["b:0"], "bool", "(2,)")
    assert describe(b & b) == ("and:0", "LogicalAnd", ["b:0", "b:0"], "bool", "(2,)")
    assert describe(b | b) == ("or:0", "LogicalOr", ["b:0", "b:0"], "bool", "(2,)")
    assert describe(b ^ b) == ("xor:0", "LogicalAnd", ["xor/LogicalOr:0", "xor/LogicalNot:0"],
                               "bool", "(2,)")
    assert describe(True & b) == ("and_1:0", "LogicalAnd", ["and_1/x:0", "b:0"], "bool", "(2,)")
    assert describe(True | b) == ("or_1:0", "LogicalOr", ["or_1/x:0", "b:0"], "bool", "(2,)")
    assert describe(True ^ b) == ("xor_1:0", "LogicalAnd",
                                  ["xor_1/LogicalOr:0", "xor_1/LogicalNot:0"], "bool", "(2,)")


@requires("Less", "LessEqual", "Greater", "GreaterEqual")
def test_comparison_operators(xy):
    x, y = xy
    assert describe(x < y) == ("Less:0", "Less", ["x:0", "y:0"], "bool", "(None, 3)")
    assert describe(x <= y) == ("LessEqual:0", "LessEqual", ["x:0", "y:0"], "bool", "(None, 3)")
    assert describe(x > y) == ("Greater:0", "Greater", ["x:0", "y:0"], "bool", "(None, 3)")
    assert describe(x >= y) == ("GreaterEqual:0", "GreaterEqual", ["x:0", "y:0"], "bool",
                                "(None, 3)")


def test_equality_hash_bool_iter_len(xy):
    x, y = xy
    # Graph-mode TF1: == is identity, tensors hash by id (usable as dict keys).
    assert (x == y, x != y, hash(x) == id(x), x.__eq__(y), x == x) == (False, True, True,
                                                                        False, True)
    assert {x: 1, y: 2}[x] == 1
    tail = (" is not allowed. You can attempt the following resolutions to the problem: If you "
            "are running in Graph mode, use Eager execution mode or decorate this function with "
            "@tf.function. If you are using AutoGraph, you can try decorating this function with "
            "@tf.function. If that does not work, then you may be using an unsupported feature "
            "or your source code may not be visible to AutoGraph. See https://github.com/"
            "tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/"
            "limitations.md#access-to-source-code for more information.")
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError) as e:
        bool(x)
    assert str(e.value) == "Using a symbolic `tf.Tensor` as a Python `bool`" + tail
    assert isinstance(e.value, TypeError)
    for t in (x, y):  # even with a known first dimension, as TF 2.21
        with pytest.raises(tf.errors.OperatorNotAllowedInGraphError) as e:
            iter(t)
        assert str(e.value) == "Iterating over a symbolic `tf.Tensor`" + tail
    with pytest.raises(TypeError) as e:
        len(x)
    assert str(e.value) == ("len is not well defined for a symbolic Tensor (x:0). Please call "
                            "`x.shape` rather than `len(x)` for shape information.")
    with pytest.raises(NotImplementedError) as e:
        np.asarray(x)
    assert str(e.value) == (
        "Cannot convert a symbolic tf.Tensor (x:0) to a numpy array. This error may indicate "
        "that you're trying to pass a Tensor to a NumPy call, which is not supported.")


def _dump(g, start):
    from minitf.framework import tensor_util
    out = []
    for op in g.get_operations()[start:]:
        a = ""
        if op.type == "Const":
            a = tensor_util.MakeNdarray(op.get_attr("value")).tolist()
        elif op.type == "StridedSlice":
            a = [op.get_attr(k) for k in ("begin_mask", "end_mask", "ellipsis_mask",
                                          "new_axis_mask", "shrink_axis_mask")]
            a.append(op.get_attr("Index").name)
        elif op.type == "Pack":
            a = [op.get_attr("N"), op.get_attr("axis")]
        out.append((op.name, op.type, [t.name for t in op.inputs], a,
                    [str(t.shape) for t in op.outputs]))
    return out


def _ss(n, consts, masks, in_shape_out):
    p = "strided_slice" + ("_%d" % n if n else "")
    rows = [(p + "/stack" + s, "Const", [], c, ["(%d,)" % len(c)])
            for s, c in zip(("", "_1", "_2"), consts)]
    rows.append((p, "StridedSlice", [in_shape_out[0], p + "/stack:0", p + "/stack_1:0",
                                     p + "/stack_2:0"], masks, [in_shape_out[1]]))
    return rows


GETITEM_CASES = [
    ("foo[::2, ::-1]", lambda foo, x: foo[::2, ::-1],
     _ss(0, [[0, 0], [0, 0], [2, -1]], [3, 3, 0, 0, 0, "int32"], ("foo:0", "(2, 3)"))),
    ("foo[1]", lambda foo, x: foo[1],
     _ss(0, [[1], [2], [1]], [0, 0, 0, 0, 1, "int32"], ("foo:0", "(3,)"))),
    ("foo[-1, 1:]", lambda foo, x: foo[-1, 1:],
     _ss(0, [[-1, 1], [0, 0], [1, 1]], [0, 2, 0, 0, 1, "int32"], ("foo:0", "(2,)"))),
    ("x[..., 1]", lambda foo, x: x[..., 1],
     _ss(0, [[0, 1], [0, 2], [1, 1]], [0, 0, 1, 0, 2, "int32"], ("x:0", "(2, None, 4)"))),
    ("x[newaxis, :, 0]", lambda foo, x: x[tf.newaxis, :, 0],
     _ss(0, [[0, 0, 0], [0, 0, 1], [1, 1, 1]], [2, 2, 0, 1, 4, "int32"],
         ("x:0", "(1, 2, 4, 5)"))),
    ("x[1:-1:2, ..., None]", lambda foo, x: x[1:-1:2, ..., None],
     _ss(0, [[1, 0, 0], [-1, 0, 0], [2, 1, 1]], [0, 0, 2, 4, 0, "int32"],
         ("x:0", "(0, None, 4, 5, 1)"))),
    ("x[:]", lambda foo, x: x[:],
     _ss(0, [[0], [0], [1]], [1, 1, 0, 0, 0, "int32"], ("x:0", "(2, None, 4, 5)"))),
    ("x[0,0,0,0]", lambda foo, x: x[0, 0, 0, 0],
     _ss(0, [[0, 0, 0, 0], [1, 1, 1, 1], [1, 1, 1, 1]], [0, 0, 0, 0, 15, "int32"], ("x:0", "()"))),
    ("foo[::-1]", lambda foo, x: foo[::-1],
     _ss(0, [[0], [0], [-1]], [1, 1, 0, 0, 0, "int32"], ("foo:0", "(3, 3)"))),
    ("foo[np.int64(1)]", lambda foo, x: foo[np.int64(1)],
     _ss(0, [[1], [2], [1]], [0, 0, 0, 0, 1, "int32"], ("foo:0", "(3,)"))),
    ("foo[[1, 2]]", lambda foo, x: foo[[1, 2]],
     _ss(0, [[1, 2], [2, 3], [1, 1]], [0, 0, 0, 0, 3, "int32"], ("foo:0", "()"))),
    ("foo[()]", lambda foo, x: foo[()],
     [("strided_slice/Const", "Const", [], [], ["(0,)"]),
      ("strided_slice", "StridedSlice", ["foo:0"] + ["strided_slice/Const:0"] * 3,
       [0, 0, 0, 0, 0, "int32"], ["(3, 3)"])]),
]


@requires("StridedSlice")
@pytest.mark.parametrize("label,fn,expected", GETITEM_CASES, ids=[c[0] for c in GETITEM_CASES])
def test_getitem_lowering(graph, label, fn, expected):
    foo = tf.constant([[1, 2, 3], [4, 5, 6], [7, 8, 9]], name="foo")
    x = tf.placeholder(tf.float32, [2, None, 4, 5], name="x")
    n = len(graph.get_operations())
    fn(foo, x)
    assert _dump(graph, n) == expected


@requires("StridedSlice", "Pack")
def test_getitem_tensor_indices(graph):
    foo = tf.constant([[1, 2, 3], [4, 5, 6], [7, 8, 9]], name="foo")
    k = tf.placeholder(tf.int32, [], name="k")
    k64 = tf.placeholder(tf.int64, [], name="k64")
    n = len(graph.get_operations())
    foo[k]
    assert _dump(graph, n) == [
        ("add/y", "Const", [], 1, ["()"]),
        ("add", "AddV2", ["k:0", "add/y:0"], "", ["()"]),
        ("strided_slice/stack", "Pack", ["k:0"], [1, 0], ["(1,)"]),
        ("strided_slice/stack_1", "Pack", ["add:0"], [1, 0], ["(1,)"]),
        ("strided_slice/stack_2", "Const", [], [1], ["(1,)"]),
        ("strided_slice", "StridedSlice", ["foo:0", "strided_slice/stack:0",
                                           "strided_slice/stack_1:0", "strided_slice/stack_2:0"],
         [0, 0, 0, 0, 1, "int32"], ["(3,)"])]
    n = len(graph.get_operations())
    foo[k:, 1]
    assert _dump(graph, n) == [
        ("Const", "Const", [], 0, ["()"]),
        ("Const_1", "Const", [], 1, ["()"]),
        ("strided_slice_1/stack/1", "Const", [], 1, ["()"]),
        ("strided_slice_1/stack", "Pack", ["k:0", "strided_slice_1/stack/1:0"], [2, 0], ["(2,)"]),
        ("strided_slice_1/stack_1/1", "Const", [], 2, ["()"]),
        ("strided_slice_1/stack_1", "Pack", ["Const:0", "strided_slice_1/stack_1/1:0"], [2, 0],
         ["(2,)"]),
        ("strided_slice_1/stack_2/1", "Const", [], 1, ["()"]),
        ("strided_slice_1/stack_2", "Pack", ["Const_1:0", "strided_slice_1/stack_2/1:0"], [2, 0],
         ["(2,)"]),
        ("strided_slice_1", "StridedSlice", ["foo:0", "strided_slice_1/stack:0",
                                             "strided_slice_1/stack_1:0",
                                             "strided_slice_1/stack_2:0"],
         [0, 1, 0, 0, 2, "int32"], ["(None,)"])]
    n = len(graph.get_operations())
    foo[k64]
    assert _dump(graph, n) == [
        ("add_1/y", "Const", [], 1, ["()"]),
        ("add_1", "AddV2", ["k64:0", "add_1/y:0"], "", ["()"]),
        ("Const_2", "Const", [], 1, ["()"]),
        ("strided_slice_2/stack", "Pack", ["k64:0"], [1, 0], ["(1,)"]),
        ("strided_slice_2/stack_1", "Pack", ["add_1:0"], [1, 0], ["(1,)"]),
        ("strided_slice_2/stack_2", "Pack", ["Const_2:0"], [1, 0], ["(1,)"]),
        ("strided_slice_2", "StridedSlice", ["foo:0", "strided_slice_2/stack:0",
                                             "strided_slice_2/stack_1:0",
                                             "strided_slice_2/stack_2:0"],
         [0, 0, 0, 0, 1, "int64"], ["(3,)"])]
    with tf.Session() as s:
        assert s.run(foo[k:, 1], {k: 1}).tolist() == [5, 8]


def test_getitem_bad_index_types(graph):
    foo = tf.constant([[1, 2, 3], [4, 5, 6], [7, 8, 9]], name="foo")
    msg = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
           "tf.int32/tf.int64 tensors are valid indices, got ")
    for idx, shown in ((1.5, "1.5"), ("a", "'a'")):
        with pytest.raises(TypeError) as e:
            foo[idx]
        assert str(e.value) == msg + shown
    n = len(graph.get_operations())
    with pytest.raises(TypeError):
        foo[tf.constant([1.0])]
    assert len(graph.get_operations()) == n + 1  # only the index Const was added


@requires("StridedSlice")
def test_getitem_values_and_errors(graph):
    foo = tf.constant([[1, 2, 3], [4, 5, 6], [7, 8, 9]], name="foo")
    with tf.Session() as s:
        assert s.run(foo[::2, ::-1]).tolist() == [[3, 2, 1], [9, 8, 7]]  # the example
        assert s.run(foo[-1, 1:]).tolist() == [8, 9]
        assert s.run(foo[::-1, 0]).tolist() == [7, 4, 1]
        assert s.run(foo[1:, tf.newaxis, ...]).tolist() == [[[4, 5, 6]], [[7, 8, 9]]]
    with pytest.raises(ValueError, match="^slice index 3 of dimension 0 out of bounds. for "
                       "'{{node strided_slice_4}} = StridedSlice"):
        foo[3]
    with pytest.raises(ValueError, match="^strides\\[0\\] must be non-zero"):
        foo[1:2:0]
    with pytest.raises(ValueError, match="^Multiple ellipses in slice spec not allowed"):
        foo[..., ...]
