"""Values and names of the TF1 ops of the slice (checked against TensorFlow by hand)."""
import numpy as np
import pytest

import minitf as tf


def run(t, feed=None):
    with tf.Session() as sess:
        return sess.run(t, feed)


def test_arithmetic_broadcasting_and_operators():
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    b = tf.constant([10.0, 20.0])
    np.testing.assert_array_equal(run(a + b), [[11, 22], [13, 24]])
    np.testing.assert_array_equal(run(a - b), [[-9, -18], [-7, -16]])
    np.testing.assert_array_equal(run(a * 2), [[2, 4], [6, 8]])
    np.testing.assert_array_equal(run(2.0 - a), [[1, 0], [-1, -2]])
    np.testing.assert_array_equal(run(a / b), np.array([[0.1, 0.1], [0.3, 0.2]], np.float32))
    np.testing.assert_array_equal(run(-a), [[-1, -2], [-3, -4]])
    np.testing.assert_array_equal(run(a @ a), [[7, 10], [15, 22]])
    np.testing.assert_array_equal(run(tf.subtract(a, 1)), [[0, 1], [2, 3]])
    g = tf.get_default_graph()
    names = [op.name for op in g.get_operations()]
    # TensorFlow's names: operators use lower-case scopes, uniquing ignores case.
    assert names[2:] == ["add", "sub", "mul/y", "mul", "sub_1/x", "sub_1", "truediv", "Neg",
                         "matmul", "Sub_2/y", "Sub_2"]
    assert g.get_operation_by_name("add").type == "AddV2"
    assert g.get_operation_by_name("truediv").type == "RealDiv"


def test_dtype_mismatch_is_a_type_error():
    with pytest.raises(TypeError, match="Input 'y' of 'AddV2' Op has type int32 that does not "
                                        "match type float32 of argument 'x'"):
        tf.add(tf.constant(1.0), tf.constant(1))


def test_matmul_transpose_and_shape_error():
    a = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    m = tf.matmul(a, a, transpose_b=True)
    assert m.shape.as_list() == [2, 2]
    np.testing.assert_array_equal(run(m), [[5, 14], [14, 50]])
    np.testing.assert_array_equal(run(tf.matmul(a, a, transpose_a=True))[0], [9, 12, 15])
    with pytest.raises(ValueError):
        tf.matmul(a, a)


def test_nn_ops():
    x = tf.constant([[1.0, -2.0, 3.0], [-1.0, 0.5, 0.0]])
    np.testing.assert_array_equal(run(tf.nn.relu(x)), [[1, 0, 3], [0, 0.5, 0]])
    np.testing.assert_array_equal(run(tf.nn.bias_add(x, [1.0, 2.0, 3.0])),
                                  [[2, 0, 6], [0, 2.5, 3]])
    sm = run(tf.nn.softmax(x))
    e = np.exp(np.array([[1.0, -2.0, 3.0], [-1.0, 0.5, 0.0]]))
    np.testing.assert_allclose(sm, e / e.sum(1, keepdims=True), rtol=1e-6)


def test_reductions_argmax_reshape_cast():
    x = tf.constant([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
    assert run(tf.reduce_sum(x)) == 21.0
    np.testing.assert_array_equal(run(tf.reduce_sum(x, axis=0)), [5, 7, 9])
    np.testing.assert_array_equal(run(tf.reduce_mean(x, axis=1, keepdims=True)),
                                  [[3], [4]])
    am = tf.argmax(x, 1)
    assert am.dtype == tf.int64
    np.testing.assert_array_equal(run(am), [1, 2])
    r = tf.reshape(x, [3, -1])
    assert r.shape.as_list() == [3, 2]
    np.testing.assert_array_equal(run(r), [[1, 5], [3, 4], [2, 6]])
    c = tf.cast(x, tf.int32)
    assert c.dtype == tf.int32 and c.op.type == "Cast"
    np.testing.assert_array_equal(run(c), [[1, 5, 3], [4, 2, 6]])
    assert tf.cast(x, tf.float32) is x
    names = [op.name for op in tf.get_default_graph().get_operations()]
    assert "Mean/reduction_indices" in names and "ArgMax/dimension" in names
    assert "Reshape/shape" in names


def test_constant_inference_and_shape():
    assert tf.constant(1).dtype == tf.int32
    assert tf.constant(1.5).dtype == tf.float32
    assert tf.constant(True).dtype == tf.bool
    assert tf.constant("s").dtype == tf.string
    assert tf.constant(np.float64(1.0)).dtype == tf.float64
    assert tf.constant(2 ** 40).dtype == tf.int64
    assert tf.constant([[1, 2], [3, 4]], dtype=tf.float64).dtype == tf.float64
    c = tf.constant(7, shape=[2, 3])
    assert c.shape.as_list() == [2, 3]
    np.testing.assert_array_equal(run(c), np.full((2, 3), 7, np.int32))
    np.testing.assert_array_equal(run(tf.constant([1, 2, 3, 4], shape=[2, 2])), [[1, 2], [3, 4]])
    with pytest.raises(TypeError):
        tf.constant(1.5, dtype=tf.int32)


def test_placeholder_with_default_identity_no_op():
    p = tf.placeholder_with_default(tf.constant([1, 2]), [None])
    i = tf.identity(p)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(i), [1, 2])
        np.testing.assert_array_equal(sess.run(i, {p: [5, 6, 7]}), [5, 6, 7])
    n = tf.no_op()
    assert isinstance(n, tf.Operation) and n.type == "NoOp" and n.outputs == []


def test_variables():
    v = tf.Variable(1.0)
    w = tf.Variable([[1.0, 2.0]], name="w")
    y = w * 3.0 + v
    init = tf.global_variables_initializer()
    g = tf.get_default_graph()
    assert v.name == "Variable:0" and w.name == "w:0"
    assert v.op.type == "VarHandleOp" and v.initializer.name == "Variable/Assign"
    # each use reads afresh, named as TF 2.21 names them (ReadVariableOp for w * 3.0,
    # add/ReadVariableOp for + v, then this one)
    assert v.value().name == "ReadVariableOp_1:0"
    reads = [op.name for op in g.get_operations() if op.type == "ReadVariableOp"]
    assert reads == ["Variable/Read/ReadVariableOp", "w/Read/ReadVariableOp", "ReadVariableOp",
                     "add/ReadVariableOp", "ReadVariableOp_1"]
    assert w.shape.as_list() == [1, 2] and w.dtype == tf.float32
    assert init.name == "init" and set(c.name for c in init.control_inputs) == {
        "Variable/Assign", "w/Assign"}
    assert g.get_operation_by_name("Variable/Initializer/initial_value").type == "Const"
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError):
            sess.run(v)
        sess.run(init)
        np.testing.assert_array_equal(sess.run(y), [[4, 7]])
        sess.run(v.assign(10.0))
        assert sess.run(v) == 10.0
        np.testing.assert_array_equal(sess.run(y), [[13, 16]])
    with tf.Session() as sess:  # variables live in the session
        with pytest.raises(tf.errors.FailedPreconditionError):
            sess.run(v)


def test_raw_ops_generated_from_registry():
    a = tf.constant(2.0)
    out = tf.raw_ops.AddV2(x=a, y=a)
    assert out.op.type == "AddV2" and out.op.name == "AddV2"
    assert run(out) == 4.0
    assert "MatMul" in dir(tf.raw_ops)
    with pytest.raises(AttributeError):
        tf.raw_ops.NoSuchOp
    assert tf.compat.v1.raw_ops is tf.raw_ops
    assert tf.compat.v1.constant is tf.constant


def test_variable_read_under_control_dependencies_sees_the_assignment():
    # TF 2.21: y = v + 1 inside control_dependencies([assign]) reads after the assign: 3.0
    v = tf.Variable(1.0, name="v")
    assign = v.assign(2.0)
    with tf.control_dependencies([assign]):
        y = v + 1
    with tf.Session() as sess:
        sess.run(v.initializer)
        assert sess.run(y) == 3.0
        assert sess.run(v) == 2.0


def test_assign_checks_the_variable_shape():
    # TF 2.21: a static mismatch is a ValueError; one known only at run time is an
    # InvalidArgumentError from AssignVariableOp; the variable keeps its value
    v = tf.Variable(tf.zeros([3]))
    with pytest.raises(ValueError, match=r"Cannot assign value to variable ' Variable:0': Shape "
                       r"mismatch.The variable shape \(3,\), and the assigned value shape \(5,\) "
                       r"are incompatible."):
        v.assign(tf.zeros([5]))
    p = tf.placeholder(tf.float32, [None])
    a = v.assign(p)
    with tf.Session() as sess:
        sess.run(v.initializer)
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"Trying to assign to variable with tensor with wrong shape. "
                                 r"Expected \[3\] got \[5\]"):
            sess.run(a, {p: [1, 2, 3, 4, 5]})
        np.testing.assert_array_equal(sess.run(v), [0, 0, 0])
        np.testing.assert_array_equal(sess.run(a, {p: [1, 2, 3]}), [1, 2, 3])


def test_empty_and_large_shape_lists_take_tensorflows_int_types():
    # TF 2.21: [] fits int32 shape/axis arguments; [2**40] makes an int64 shape
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    z = tf.zeros([2 ** 40])
    assert [t.dtype for t in z.op.inputs] == [tf.int64, tf.float32]
    assert z.shape.as_list() == [2 ** 40]
    with tf.Session() as sess:
        assert sess.run(tf.reshape(tf.constant([5.0]), [])) == 5.0
        assert sess.run(tf.fill([], 2.0)) == 2.0
        np.testing.assert_array_equal(sess.run(tf.reduce_sum(x, axis=[])), [[1, 2], [3, 4]])
        assert sess.run(tf.one_hot([], 3)).shape == (0, 3)
        with pytest.raises(tf.errors.ResourceExhaustedError):
            sess.run(z)
        assert sess.run(tf.constant(2 ** 64 - 1, tf.uint64)) == 2 ** 64 - 1
