"""tf.map_fn, tf.scan, tf.foldl, tf.foldr and tf.case against TensorFlow 2.21 (control flow
v2, the compat.v1 default): the programs of functional_ops_cases.py replayed on minitf and
compared with tests/fixtures/functional_ops_expected.json (written by
tools/gen_functional_ops_expected.py under real TensorFlow): fetched values, run-time assert
errors, every op name and type of the outer graph, static shapes, construction errors, and
gradients through map_fn/scan/foldl."""
import json
import os

import numpy as np
import pytest

import functional_ops_cases as cases
import minitf as tf
from test_state_ops import _compare

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "functional_ops_expected.json")) as f:
    EXPECTED = json.load(f)

# nest's own wording differs from TensorFlow's C++ nest (which prints its "SymbolicTensor"
# type): for these the class and the first line are compared.
_NEST_MESSAGES = {"map_structure", "scan_structure"}


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_values_names_and_shapes_equal_tensorflows(name):
    got = json.loads(json.dumps(cases.run_case(tf, name)))
    want = EXPECTED["cases"][name]
    _compare(got["values"], want["values"], name + ".values")
    assert got["shapes"] == want["shapes"]
    assert got["ops"] == want["ops"]


@pytest.mark.parametrize("name", sorted(cases.ERRORS))
def test_construction_errors_as_tensorflow(name):
    got = cases.run_error(tf, name)
    want = EXPECTED["errors"][name]
    if name in _NEST_MESSAGES:
        assert got[0] == want[0] and got[1].split("\n")[0] == want[1].split("\n")[0]
    else:
        assert got == want


def test_tensor_array_is_a_while_loop_variable():
    g = tf.Graph()
    with g.as_default():
        x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        src = tf.TensorArray(tf.float32, size=3).unstack(x)
        out = tf.TensorArray(tf.float32, size=3)
        i, out = tf.while_loop(lambda i, o: i < 3,
                               lambda i, o: (i + 1, o.write(i, src.read(i) * 2.0)), [0, out])
        assert isinstance(out, tf.TensorArray) and out.flow.dtype == tf.variant
        stacked = out.stack()
        assert stacked.shape.as_list() == [3, 2]  # the element shape learnt in the body
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(stacked), [[2, 4], [6, 8], [10, 12]])


def test_map_fn_runs_as_one_while_without_unrolling():
    g = tf.Graph()
    with g.as_default():
        p = tf.placeholder(tf.float32, [None], name="p")
        y = tf.map_fn(lambda v: v * v + 1.0, p)
        n_ops = len(g.get_operations())
        with tf.Session() as sess:
            big = np.arange(2000, dtype=np.float32)
            np.testing.assert_allclose(sess.run(y, {p: big}), big * big + 1.0)
        assert len(g.get_operations()) == n_ops
        assert [op.type for op in g.get_operations()].count("StatelessWhile") == 1


def test_lone_tensor_array_loop_variable_comes_back_as_tensor_array():
    g = tf.Graph()
    with g.as_default():
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        out = tf.while_loop(lambda t: t.size() < 3, lambda t: t.write(t.size(), t.size() * 7),
                            [ta])
        assert isinstance(out, tf.TensorArray)
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(out.stack()), [0, 7, 14])


@pytest.mark.parametrize("name", sorted(cases.GRAD_CASES))
def test_gradients_equal_tensorflows(name):
    # d loss / d (elems, captured w) through map_fn, scan and foldl: their While loops'
    # gradient loops and the TensorArrays they read and write.
    got = cases.run_grad(tf, name)
    want = EXPECTED["grads"][name]
    for g, w in zip([got["loss"]] + got["grads"], [want["loss"]] + want["grads"]):
        assert g[0] == w[0]  # (dtype, value) pairs
        np.testing.assert_allclose(np.asarray(g[1]), np.asarray(w[1]), rtol=1e-5, atol=1e-6)


def test_a_graphs_own_library_imports_into_it_again():
    """as_graph_def() goes through Python's protobuf, which may write a FunctionDef's map
    entries (attrs, ret) in another order than the runtime did; the library is still the same
    one, so importing it next to itself is no conflict (TF compares FunctionDefs by meaning)."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [], name="x")
        tf.cond(x > 0, lambda: x * 2.0, lambda: x - 1.0)
        tf.while_loop(lambda i: i < 5, lambda i: i + 1, [0])
        tf.import_graph_def(g.as_graph_def(), name="again")
    assert len(g.as_graph_def().library.function) == 4  # two branches, cond, body: once each
    with tf.Session(graph=g) as s:
        got = s.run(["again/cond/Identity:0", "again/while/Identity:0"], {"again/x:0": 3.0})
    assert got[0] == 6.0 and got[1] == 5  # 3 * 2; counted to 5 (TF 2.21 gives the same)
