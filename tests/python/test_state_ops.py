"""Ref and resource variables and the state ops against TensorFlow 2.21: the programs of
state_cases.py replayed on minitf, compared with tests/fixtures/state_expected.json (written by
tools/gen_state_expected.py under real TensorFlow): values, graph structure, error messages."""
import json
import os

import numpy as np
import pytest

import minitf as tf
import state_cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "state_expected.json")) as f:
    EXPECTED = json.load(f)


def _compare(got, want, path):
    if isinstance(want, dict):
        assert sorted(got) == sorted(want), path
        for k in want:
            _compare(got[k], want[k], path + "." + k)
    elif isinstance(want, list) and len(want) == 2 and isinstance(want[0], str) and \
            want[0] in ("float16", "bfloat16", "float32", "float64", "complex64", "complex128"):
        assert got[0] == want[0], path
        np.testing.assert_allclose(np.asarray(got[1], dtype=float),
                                   np.asarray(want[1], dtype=float), rtol=1e-6, err_msg=path)
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (path, got, want)
        for i, (a, b) in enumerate(zip(got, want)):
            _compare(a, b, "%s[%d]" % (path, i))
    else:
        assert got == want, path


@pytest.mark.parametrize("name", sorted(state_cases.CASES))
def test_case_matches_tensorflow(name):
    got = json.loads(json.dumps(state_cases.CASES[name](tf)))
    _compare(got, EXPECTED[name], name)


def test_ref_fetch_aliases_variable_buffer():
    # Fetching the VariableV2 output and its snapshot twice without an update in between
    # reads the same storage; an in-place AssignAdd is seen by the next read.
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(np.arange(4, dtype=np.float32), use_resource=False, name="v")
        inc = tf.assign_add(v, np.ones(4, np.float32))
        with tf.Session() as sess:
            sess.run(v.initializer)
            before = sess.run(v)
            sess.run(inc)
            sess.run(inc)
            np.testing.assert_array_equal(before, [0, 1, 2, 3])  # fetched values are snapshots
            np.testing.assert_array_equal(sess.run(v.value()), [2, 3, 4, 5])


def test_variable_class_dispatch_and_exports():
    g = tf.Graph()
    with g.as_default():
        r = tf.Variable(1.0, use_resource=False)
        s = tf.Variable(1.0)
        assert type(r).__name__ == "RefVariable" and type(s).__name__ == "ResourceVariable"
        assert isinstance(r, tf.Variable) and isinstance(s, tf.Variable)
        assert r.dtype.name == "float32_ref" and s.dtype.name == "float32"
        assert r.dtype.base_dtype == tf.float32
    for name in ("assign", "assign_add", "assign_sub", "scatter_update", "scatter_nd_update",
                 "count_up_to", "is_variable_initialized", "report_uninitialized_variables",
                 "assert_variables_initialized", "initialize_all_variables",
                 "initialize_variables", "model_variables", "moving_average_variables"):
        assert getattr(tf.compat.v1, name) is getattr(tf, name)


def test_graph_written_by_tensorflow_runs():
    # tests/fixtures/tf1_ref_variables.pb: see tools/gen_state_expected.py (write_tf1_graph).
    gd = tf.GraphDef()
    with open(os.path.join(HERE, "..", "fixtures", "tf1_ref_variables.pb"), "rb") as f:
        gd.ParseFromString(f.read())
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(gd, name="")
        assert g.get_operation_by_name("v").outputs[0].dtype.name == "float32_ref"
        assert g.get_operation_by_name("step").outputs[0].dtype.name == "float32_ref"
        assert g.get_operation_by_name("v/read").outputs[0].dtype.name == "float32"
        with tf.Session() as sess:
            with pytest.raises(tf.errors.FailedPreconditionError,
                               match="Attempting to use uninitialized value v"):
                sess.run("total:0")
            sess.run("init")
            assert sess.run("total:0") == 6.0
            sess.run("step")
            sess.run("step")
            np.testing.assert_allclose(sess.run("v:0"), [2.0, 3.0, 4.0])
            np.testing.assert_allclose(sess.run("bump:0"), [22.0, 3.0, 14.0])
            assert sess.run("total:0") == 39.0
            assert [sess.run("CountUpTo:0") for _ in range(5)] == [0, 1, 2, 3, 4]
            with pytest.raises(tf.errors.OutOfRangeError, match="Reached limit of 5"):
                sess.run("CountUpTo:0")
