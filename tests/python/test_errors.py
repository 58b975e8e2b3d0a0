"""minitf.errors as TensorFlow 2.21 (literals from tools/graph_api_reference/p9_errors.py)."""
import pickle
import warnings

import pytest

import minitf as tf
from minitf.framework import errors as errors_impl

CLASSES = ["CancelledError", "UnknownError", "InvalidArgumentError", "DeadlineExceededError",
           "NotFoundError", "AlreadyExistsError", "PermissionDeniedError",
           "ResourceExhaustedError", "FailedPreconditionError", "AbortedError",
           "OutOfRangeError", "UnimplementedError", "InternalError", "UnavailableError",
           "DataLossError", "UnauthenticatedError"]


def test_codes_and_classes():
    assert (tf.errors.OK, tf.errors.UNAUTHENTICATED) == (0, 16)
    for code, name in enumerate(CLASSES, start=1):
        cls = errors_impl.exception_type_from_error_code(code)
        assert cls.__name__ == name
        assert getattr(tf.errors, name) is cls
        assert issubclass(cls, tf.errors.OpError)
        assert errors_impl.error_code_from_exception_type(cls) == code
        assert cls(None, None, "m").error_code == code
    with pytest.raises(KeyError):
        errors_impl.exception_type_from_error_code(99)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert errors_impl.error_code_from_exception_type(ValueError) is None
    assert str(w[0].message) == "Unknown class exception"


def test_op_error_object():
    e = tf.errors.InvalidArgumentError(None, None, "boom")
    assert (str(e), repr(e), e.args, e.error_code, e.op, e.node_def) == \
        ("boom", "InvalidArgumentError()", (), 3, None, None)
    assert e.experimental_payloads == {}
    e = tf.errors.OpError(None, None, "boom", 3)
    assert (str(e), repr(e), e.args, e.error_code) == ("boom", "OpError()", (), 3)
    e = pickle.loads(pickle.dumps(tf.errors.NotFoundError(None, None, "m")))
    assert (repr(e), e.message, e.error_code) == ("NotFoundError()", "m", 5)
    e = pickle.loads(pickle.dumps(tf.errors.OpError(None, None, "m", 7)))
    assert (e.message, e.error_code) == ("m", 7)


def test_str_appends_original_stack_trace():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None], name="x")
        y = tf.identity(x, name="y"); line = test_str_appends_original_stack_trace.__code__.co_firstlineno + 4  # noqa: E702,E501
    e = tf.errors.InvalidArgumentError(y.op.node_def, y.op, "boom")
    assert e.node_def.name == "y"
    assert str(e) == ("boom\n\nOriginal stack trace for 'y':\n" +
                      "".join('  File "%s", line %d, in %s\n' % f for f in
                              [(fn, n, func) for fn, n, func, _ in y.op.traceback]))
    assert y.op.traceback[-1][:3] == (__file__, line, "test_str_appends_original_stack_trace")


def _build():
    x = tf.placeholder(tf.float32, [None], name="x")
    return x, _build.__code__.co_firstlineno + 1


def test_session_run_error_names_node_and_user_lines():
    g = tf.Graph()
    with g.as_default():
        x, line = _build(); outer = test_session_run_error_names_node_and_user_lines.__code__.co_firstlineno + 3  # noqa: E702,E501
        y = tf.identity(x, name="y")
        s = tf.Session()
        with pytest.raises(tf.errors.InvalidArgumentError) as ei:
            s.run(y)
    e = ei.value
    expected = ("Graph execution error:\n\n"
                "Detected at node 'x' defined at (most recent call last):\n")
    frames = [f for f in x.op.traceback]
    expected += "".join('    File "%s", line %d, in %s\n' % f[:3] for f in frames)
    expected += ("Node: 'x'\n"
                 "You must feed a value for placeholder tensor 'x' with dtype float and shape [?]\n"
                 "\t [[{{node x}}]]")
    assert e.message == expected
    assert frames[-2][:3] == (__file__, outer, "test_session_run_error_names_node_and_user_lines")
    assert frames[-1][:3] == (__file__, line, "_build")
    assert str(e) == expected + "\n\nOriginal stack trace for 'x':\n" + "".join(
        '  File "%s", line %d, in %s\n' % f[:3] for f in frames)
    assert e.op is x.op and e.node_def.name == "x" and e.error_code == 3
    assert e.args == ()
    # the session stays usable
    assert s.run(y, {x: [1.0]}).tolist() == [1.0]


def test_scalar_placeholder_message_has_no_shape():
    g = tf.Graph()
    with g.as_default():
        c = tf.placeholder(tf.float32, [], name="c")
        with tf.Session() as s:
            with pytest.raises(tf.errors.InvalidArgumentError) as ei:
                s.run(c)
    assert ei.value.message.endswith(
        "Node: 'c'\nYou must feed a value for placeholder tensor 'c' with dtype float\n"
        "\t [[{{node c}}]]")
