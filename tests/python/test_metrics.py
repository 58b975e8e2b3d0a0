"""tf.compat.v1.metrics, tf.confusion_matrix and tf.sets against TensorFlow 2.21
(tests/fixtures/metrics_expected.json, written by tools/gen_metrics_expected.py from
tests/python/metrics_cases.py): each metric streamed over three fed batches (update_op and
value after each, local / metric variable names, static shapes, every node's name and
type), set and confusion-matrix
values, construction and run-time errors."""
import json
import math
import os

import numpy as np
import pytest

import minitf as tf
from _logging_fixture import run_message
import metrics_cases as cases

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures",
                       "metrics_expected.json")
with open(FIXTURE) as f:
    TF = json.load(f)


def assert_close(got, want, path="value"):
    """Equal structure, dtypes, shapes and integers; floats to 1e-6 relative (NaN = NaN)."""
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), path
        for i, (g, w) in enumerate(zip(got, want)):
            assert_close(g, w, "%s[%d]" % (path, i))
        return
    if "sparse" in want:
        assert_close(got["sparse"], want["sparse"], path)
        return
    assert (got["dtype"], got["shape"]) == (want["dtype"], want["shape"]), path
    if not want["dtype"].startswith("float"):
        assert got["value"] == want["value"], path
        return
    for g, w in zip(got["value"], want["value"]):
        if math.isnan(w):
            assert math.isnan(g), path
        else:
            assert g == pytest.approx(w, rel=1e-6, abs=1e-7), (path, got["value"], want["value"])


@pytest.mark.parametrize("label", sorted(cases.STREAM_CASES))
def test_stream_matches_tensorflow(label):
    got = cases.run_stream(tf, cases.STREAM_CASES[label])
    want = TF["stream"][label]
    for key in ("local", "metric", "global", "trainable", "value_name", "static"):
        assert got[key] == want[key], key
    assert_close(got["initial"], want["initial"], "initial")
    assert_close(got["updates"], want["updates"], "updates")
    assert_close(got["values"], want["values"], "values")


@pytest.mark.parametrize("label", sorted(set(cases.STREAM_CASES) - set(cases.NODE_DIFFERENCES)))
def test_graph_nodes_match_tensorflow(label):
    assert cases.graph_nodes(tf, cases.STREAM_CASES[label]) == TF["nodes"][label]


@pytest.mark.parametrize("label", sorted(cases.NODE_DIFFERENCES))
def test_documented_node_differences_still_differ(label):
    # once minitf builds TensorFlow's graph here, the case moves out of NODE_DIFFERENCES
    assert cases.graph_nodes(tf, cases.STREAM_CASES[label]) != TF["nodes"][label]


@pytest.mark.parametrize("label", sorted(cases.VALUE_CASES))
def test_value_matches_tensorflow(label):
    assert_close(cases.run_value(tf, cases.VALUE_CASES[label]), TF["values"][label])


@pytest.mark.parametrize("label", sorted(cases.STATIC_CASES))
def test_static_error_matches_tensorflow(label):
    assert cases.static_error(tf, cases.STATIC_CASES[label]) == TF["static"][label]


@pytest.mark.parametrize("label", sorted(cases.RUN_CASES))
def test_run_time_error_matches_tensorflow(label):
    assert cases.run_error(tf, cases.RUN_CASES[label], run_message) == TF["run"][label]


# ---- feeding a Placeholder satisfies control edges out of it (TensorFlow's feed rewrite,
# which tf.metrics.mean relies on: its count update runs after `values`) ----

def _gated(frames):
    x = tf.placeholder(tf.float32, [None])
    with tf.control_dependencies([x]):
        y = tf.constant(2.0) * 3.0
    if frames:  # a TF1 while loop in the graph: the frame executor runs it
        tf.disable_control_flow_v2()
        try:
            tf.while_loop(lambda i: i < 3, lambda i: i + 1, [tf.constant(0)])
        finally:
            tf.enable_control_flow_v2()
    return x, y


@pytest.mark.parametrize("frames", [False, True])
def test_fed_placeholder_satisfies_control_edges(frames):
    with tf.Graph().as_default():
        x, y = _gated(frames)
        with tf.Session() as s:
            assert s.run(y, {x: [1.0]}) == 6.0
            with pytest.raises(tf.errors.InvalidArgumentError, match="must feed a value"):
                s.run(y)


def test_fed_placeholder_satisfies_control_edges_in_partial_run():
    with tf.Graph().as_default():
        x, y = _gated(False)
        with tf.Session() as s:
            h = s.partial_run_setup([y], [x])
            assert s.partial_run(h, y, {x: [1.0]}) == 6.0


# ---- the set ops against Python's sets, and never a crash on garbage sparse input ----

def _dense_rows(rows, cols, rng):
    return rng.randint(0, 6, size=[rows, cols]).astype(np.int64)


def _expected(op, a, b):
    want = []
    for ra, rb in zip(a, b):
        sa, sb = set(ra.tolist()), set(rb.tolist())
        want.append(sorted({"intersection": sa & sb, "union": sa | sb, "a-b": sa - sb,
                            "b-a": sb - sa}[op]))
    return want


@pytest.mark.parametrize("seed", range(4))
def test_set_operations_equal_python_sets(seed):
    rng = np.random.RandomState(seed)
    a, b = _dense_rows(4, 5, rng), _dense_rows(4, 3, rng)
    with tf.Graph().as_default():
        # b also as a SparseTensor of its rows (dense-sparse and sparse-sparse kernels)
        idx = [[r, c] for r in range(4) for c in range(3)]
        sb = tf.SparseTensor(idx, b.reshape(-1), [4, 3])
        sa = tf.SparseTensor([[r, c] for r in range(4) for c in range(5)], a.reshape(-1), [4, 5])
        results = {}
        for op, fn in (("intersection", tf.sets.intersection), ("union", tf.sets.union),
                       ("a-b", tf.sets.difference),
                       ("b-a", lambda x, y: tf.sets.difference(x, y, aminusb=False))):
            results[op] = [fn(a, b), fn(a, sb), fn(sa, sb)]
        sizes = tf.sets.size(sb)
        with tf.Session() as s:
            got, got_sizes = s.run([results, sizes])
    assert got_sizes.tolist() == [len(set(r.tolist())) for r in b]
    for op, values in got.items():
        want = _expected(op, a, b)
        for v in values:
            rows = [[] for _ in range(4)]
            for (r, c), x in zip(v.indices.tolist(), v.values.tolist()):
                assert c == len(rows[r])
                rows[r].append(x)
            assert rows == want, op
            assert v.dense_shape.tolist() == [4, max(len(w) for w in want)]


def test_set_ops_reject_garbage_sparse_input_without_crashing():
    rng = np.random.RandomState(7)
    with tf.Graph().as_default():
        ix = tf.placeholder(tf.int64, [None, None])
        vals = tf.placeholder(tf.int32, [None])
        shape = tf.placeholder(tf.int64, [None])
        size = tf.raw_ops.SetSize(set_indices=ix, set_values=vals, set_shape=shape,
                                  validate_indices=False)
        union = tf.raw_ops.SparseToSparseSetOperation(
            set1_indices=ix, set1_values=vals, set1_shape=shape, set2_indices=ix,
            set2_values=vals, set2_shape=shape, set_operation="union", validate_indices=False)
        dense = tf.raw_ops.DenseToSparseSetOperation(
            set1=tf.zeros([2, 2], tf.int32), set2_indices=ix, set2_values=vals,
            set2_shape=shape, set_operation="a-b", validate_indices=False)
        with tf.Session() as s:
            ok = 0
            for _ in range(400):
                # mostly well-formed enough to reach the grouping code
                rank = int(rng.randint(1, 4))
                n = int(rng.randint(0, 6))
                width = rank if rng.uniform() < 0.8 else int(rng.randint(1, 4))
                nvals = n if rng.uniform() < 0.8 else int(rng.randint(0, 5))
                feed = {ix: rng.randint(-1, 4, size=[n, width]),
                        vals: rng.randint(0, 3, size=[nvals]),
                        shape: rng.randint(-1, 4, size=[rank])}
                for fetch in (size, union[1], dense[1]):
                    try:
                        s.run(fetch, feed)
                        ok += 1
                    except (tf.errors.InvalidArgumentError, tf.errors.InternalError):
                        pass
            assert ok > 30  # some inputs got through every check to the set code
