"""tf.py_func / tf.numpy_function / tf.py_function against TF 2.21: values, argument kinds,
errors with TensorFlow's codes and texts, session usable after a failure."""
import threading

import numpy as np
import pytest

import minitf as tf
from _logging_fixture import TF, fresh, run_message, tokens
import logging_cases as cases


def _jsonable(v):
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    a = np.asarray(v)
    if a.dtype == object or a.dtype.kind == "S":
        return {"dtype": "string", "value": [x.decode() if isinstance(x, bytes) else x
                                             for x in a.reshape(-1).tolist()],
                "shape": list(a.shape)}
    return {"dtype": a.dtype.name, "value": a.reshape(-1).tolist(), "shape": list(a.shape)}


@pytest.mark.parametrize("label", sorted(cases.PY_FUNC_VALUE_CASES))
def test_values_match_tensorflow(label):
    g, t = fresh(cases.PY_FUNC_VALUE_CASES[label])
    with tf.Session(graph=g) as s:
        assert _jsonable(s.run(t)) == TF["py_func_values"][label]


@pytest.mark.parametrize("label", sorted(cases.PY_FUNC_ERROR_CASES))
def test_errors_match_tensorflow(label):
    g, t = fresh(cases.PY_FUNC_ERROR_CASES[label])
    want_type, want_first, want_last = TF["py_func_errors"][label]
    with tf.Session(graph=g) as s:
        with pytest.raises(tf.errors.OpError) as e:
            s.run(t)
        msg = run_message(e.value)
        assert type(e.value).__name__ == want_type
        first, last = msg.split("\n")[0], msg.rstrip("\n").split("\n")[-1]
        if label == "eager_dtype":  # TF shows its EagerTensor repr after the colon
            first, want_first = first.split(": ")[:2], want_first.split(": ")[:2]
            last, want_last = first, want_first
        assert tokens(str(first)) == tokens(str(want_first))
        if label != "memory":  # TF's Python appends an OOM hint line
            assert tokens(str(last)) == tokens(str(want_last))
        if "Error: " in str(first):
            assert "Traceback (most recent call last):" in msg
        with g.as_default():  # the session stays usable
            assert s.run(tf.constant(2)) == 2


def test_node_types_tokens_and_shapes():
    y = tf.py_func(lambda a: a, [tf.constant([1.0])], tf.float32)
    z = tf.py_func(lambda a: a, [tf.constant([1.0])], [tf.float32], stateful=False, name="pf")
    e = tf.py_function(lambda a: a, [tf.constant([1.0])], tf.float32)
    none = tf.py_func(lambda: None, [], [])
    assert (y.op.type, z[0].op.type, e.op.type, none.type) == \
        ("PyFunc", "PyFuncStateless", "EagerPyFunc", "PyFunc")
    assert z[0].op.name == "pf"
    assert y.shape.ndims is None
    toks = {y.op.get_attr("token"), z[0].op.get_attr("token"), e.op.get_attr("token")}
    assert len(toks) == 3 and all(t.startswith(b"pyfunc_") for t in toks)
    with tf.Session() as s:
        assert s.run(none) is None


def test_concurrent_runs_take_the_gil():
    x = tf.placeholder(tf.float64, [])
    y = tf.py_func(lambda a: np.float64(a * 2), [x], tf.float64)
    results = []
    with tf.Session() as s:
        def worker(k):
            for i in range(20):
                results.append(s.run(y, {x: k * 100 + i}) == 2 * (k * 100 + i))
        threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert len(results) == 80 and all(results)


def test_gradient_of_py_func_is_none_and_py_function_unimplemented():
    x = tf.constant(1.0)
    y = tf.py_func(lambda a: a, [x], tf.float32)
    assert tf.gradients(y, x) == [None]
    z = tf.py_function(lambda a: a, [x], tf.float32)
    with pytest.raises(tf.errors.UnimplementedError, match="eager GradientTape"):
        tf.gradients(z, x)
