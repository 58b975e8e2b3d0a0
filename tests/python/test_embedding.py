"""tf.nn.embedding_lookup against TensorFlow 2.21 (tests/fixtures/embedding_expected.json
from tools/gen_embedding_expected.py, cases in embedding_cases.py): over one variable, a
list of variables or tensors and a PartitionedVariable, "mod" and "div": the nodes, the
value, the gradients (IndexedSlices per part) and a GradientDescent step."""
import json
import os

import numpy as np
import pytest

import minitf as tf

import embedding_cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "embedding_expected.json")) as _f:
    EXPECTED = json.load(_f)["cases"]


@pytest.mark.parametrize("name", sorted(embedding_cases.CASES))
def test_embedding_lookup_is_tensorflows(name):
    want = EXPECTED[name]
    with tf.Graph().as_default():
        got = embedding_cases.run(tf, embedding_cases.CASES[name])
    assert got["nodes"] == want["nodes"]
    assert got["shape"] == want["shape"]
    assert got["grad_kinds"] == want["grad_kinds"]
    np.testing.assert_allclose(got["value"], want["value"], rtol=1e-6)
    # clip_by_norm's gradient (max_norm) sums in another order than TF's: float32 ulps.
    atol = 1e-6 if name == "max_norm" else 0
    for g, w in zip(got["grads"], want["grads"]):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=atol)
    for g, w in zip(got.get("after_step", []), want.get("after_step", [])):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=atol)


def test_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Unrecognized partition strategy: foo"):
            tf.nn.embedding_lookup([tf.constant([[1.0]]), tf.constant([[2.0]])], [0],
                                   partition_strategy="foo")
        with pytest.raises(ValueError, match="Need at least one param"):
            tf.nn.embedding_lookup([], [0])


def test_dynamic_partition_values_and_errors():
    with tf.Graph().as_default(), tf.Session() as sess:
        data = tf.constant([[1, 2], [3, 4], [5, 6], [7, 8]])
        parts = tf.dynamic_partition(data, [2, 0, 2, 1], 3)
        got = sess.run(parts)
        assert [x.tolist() for x in got] == [[[3, 4]], [[7, 8]], [[1, 2], [5, 6]]]
        assert parts[0].shape.as_list() == [None, 2]
        bad = tf.dynamic_partition(data, tf.placeholder_with_default([0, 3, 0, 1], [4]), 3)
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"partitions\[1\] = 3 is not in \[0, 3\)"):
            sess.run(bad)
