"""StringJoin and the RE2 regex ops against TensorFlow 2.21 (tests/fixtures/
string_ops_expected.json from tools/gen_string_ops_expected.py, cases in
string_ops_cases.py): the node built, its static shape, the value or TF's error."""
import builtins
import json
import os

import pytest

import minitf as tf

import string_ops_cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "string_ops_expected.json")) as _f:
    EXPECTED = json.load(_f)["cases"]


@pytest.mark.parametrize("name", sorted(string_ops_cases.CASES))
def test_string_op_case(name):
    want = EXPECTED[name]
    g = tf.Graph()
    with g.as_default():
        if "build_error" in want:
            cls, msg = want["build_error"]
            with pytest.raises(getattr(tf.errors, cls, None) or getattr(builtins, cls)) as info:
                string_ops_cases.CASES[name](tf)
            assert type(info.value).__name__ == cls and str(info.value) == msg
            return
        t = string_ops_cases.CASES[name](tf)
        assert string_ops_cases.node_of(t) == want["node"]
        shape = None if t.shape.ndims is None else [
            d if d is not None else -1 for d in t.shape.as_list()]
        assert shape == want["static_shape"]
        with tf.Session() as sess:
            if "run_error" in want:
                cls, msg = want["run_error"]
                with pytest.raises(getattr(tf.errors, cls)) as info:
                    sess.run(t)
                got = info.value.message
                assert got[got.rindex("\nNode: '") + 1:] == msg
            else:
                assert string_ops_cases.jsonable(sess.run(t)) == want["value"]


def test_join_no_inputs():
    with tf.Graph().as_default(), tf.Session() as sess:
        assert sess.run(tf.raw_ops.StringJoin(inputs=[], separator="x")) == b""
