"""The rest of tf.strings and the TF1 top-level string functions against TensorFlow 2.21
(tests/fixtures/string_more_expected.json from tools/gen_string_more_expected.py, cases in
string_more_cases.py): the op types of the outputs' nodes, their static shapes, the values
(hashes bit for bit, floats by repr) or TF's error class and message."""
import builtins
import json
import os

import pytest

import minitf as tf

import string_more_cases as cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "string_more_expected.json")) as _f:
    EXPECTED = json.load(_f)["cases"]

# TF builds these through RaggedTensor, which minitf lacks; the values are the same, the
# node making the result differs (TF: StridedSlice / Reshape of ragged parts).
NODE_DIFFERENCES = {"bytes_split", "ngrams_dense_pad"}


def _shape(t):
    return None if t.shape.ndims is None else [
        d if d is not None else -1 for d in t.shape.as_list()]


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_string_more_case(name):
    want = EXPECTED[name]
    with tf.Graph().as_default():
        if "build_error" in want:
            cls, msg = want["build_error"]
            with pytest.raises(getattr(tf.errors, cls, None) or getattr(builtins, cls)) as info:
                cases.CASES[name](tf)
            assert type(info.value).__name__ == cls
            assert str(info.value).split(" for '")[0] == msg.split(" for '")[0]
            return
        ts = cases.outputs_of(cases.CASES[name](tf))
        if name not in NODE_DIFFERENCES:
            assert [t.op.type for t in ts] == want["ops"]
        assert [_shape(t) for t in ts] == want["static_shapes"]
        with tf.Session() as sess:
            if "run_error" in want:
                cls, msg = want["run_error"]
                with pytest.raises(getattr(tf.errors, cls)) as info:
                    sess.run(ts)
                got = info.value.message
                assert got[got.rindex("\nNode: '") + 1:].split("\n")[1] == msg.split("\n")[1]
            else:
                assert [cases.jsonable(v) for v in sess.run(ts)] == want["values"]
