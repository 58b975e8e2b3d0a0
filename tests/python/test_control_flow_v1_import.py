"""TensorFlow 1 control flow (Switch/Merge/Enter/Exit/NextIteration/LoopCond) in GraphDefs
written by real TensorFlow 2.21 with tf.disable_control_flow_v2()
(tools/gen_control_flow_v1_graphs.py -> tests/fixtures/control_flow_v1/): imported with
tf.import_graph_def and run with TensorFlow's feeds, they give TensorFlow's values and errors.
Also: the loop structures the executor rejects. (Memory over 1,000,000 iterations, deadlines
and Session.close() on an endless v1 loop: test_loop_control.py, with the v2 form.)"""
import json
import os

import numpy as np
import pytest

import minitf as tf

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "fixtures", "control_flow_v1")
with open(os.path.join(FIX, "expected.json")) as f:
    CASES = json.load(f)["cases"]


def load(case):
    gd = tf.GraphDef()
    with open(os.path.join(FIX, case + ".pb"), "rb") as f:
        gd.ParseFromString(f.read())
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(gd, name="")
    return g


def feed_dict(g, feeds):
    out = {}
    for name, v in feeds.items():
        t = g.get_tensor_by_name(name)
        out[t] = np.asarray(v, dtype=t.dtype.as_numpy_dtype)
    return out


RUNS = [(c, k) for c in sorted(CASES) for k in range(len(CASES[c]["runs"]))]


@pytest.mark.parametrize("case,k", RUNS)
def test_matches_tensorflow(case, k):
    run = CASES[case]["runs"][k]
    g = load(case)
    assert {op.type for op in g.get_operations()} == set(CASES[case]["ops"])
    with tf.Session(graph=g) as s:
        for t in run.get("targets", []):
            s.run(t)
        fd = feed_dict(g, run["feeds"])
        if "error" in run:
            want = run["error"]
            with pytest.raises(getattr(tf.errors, want["code"])) as e:
                s.run(run["fetches"], fd)
            # both add "Detected at node ..." tracebacks (paths differ); the status is the tail
            assert e.value.message.split("\n")[-1] == want["message"].split("\n")[-1]
            return
        got = s.run(run["fetches"], fd)
    for v, want in zip(got, run["expected"]):
        v = np.asarray(v)
        assert v.dtype.name == want["dtype"] and list(v.shape) == want["shape"]
        np.testing.assert_allclose(v, np.asarray(want["value"], dtype=v.dtype), rtol=1e-6)


def test_cond_reruns_alternating_branches():
    g = load("cond_basic")
    x, p, y = (g.get_tensor_by_name(n) for n in ("x:0", "p:0", "cond/Merge:0"))
    with tf.Session(graph=g) as s:
        for k in range(6):
            want = [2.0, 4.0] if k % 2 == 0 else [11.0, 12.0]
            np.testing.assert_array_equal(s.run(y, {x: [1.0, 2.0], p: k % 2 == 0}), want)


def test_float_body_loop_matches_tensorflow_value():
    g = load("float_body_loop")
    n = g.get_tensor_by_name("n:0")
    i, x = g.get_tensor_by_name("fbody/Exit:0"), g.get_tensor_by_name("fbody/Exit_1:0")
    want = CASES["float_body_loop"]["runs"][0]["expected"]
    with tf.Session(graph=g) as s:
        got = s.run([i, x], {n: 1000})
    assert got[0] == want[0]["value"] and got[1] == np.float32(want[1]["value"])


def test_traced_run_records_every_iteration():
    g = load("while_counter")
    n, r = g.get_tensor_by_name("n:0"), g.get_tensor_by_name("while/Exit:0")
    md = tf.RunMetadata()
    with tf.Session(graph=g) as s:
        assert s.run(r, {n: 3}, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                     run_metadata=md) == 3
    names = [ns.node_name for d in md.step_stats.dev_stats for ns in d.node_stats]
    # 4 Merges run (iterations 0..3), 3 bodies (add), one Exit
    assert names.count("while/Merge") == 4 and names.count("while/add") == 3
    assert names.count("while/Exit") == 1


def test_partial_run_of_a_loop_is_unimplemented():
    g = load("while_counter")
    n, r = g.get_tensor_by_name("n:0"), g.get_tensor_by_name("while/Exit:0")
    with tf.Session(graph=g) as s:
        with pytest.raises(tf.errors.UnimplementedError, match="control flow"):
            s.partial_run_setup([r], [n])


# ---- structures the executor rejects (built with raw ops) ----

def _run_error(build, fetch):
    g = tf.Graph()
    with g.as_default():
        build()
    with tf.Session(graph=g) as s:
        with pytest.raises(tf.errors.OpError) as e:
            s.run(g.get_tensor_by_name(fetch))
    return e.value


def test_inputs_from_different_frames():
    def build():
        e = tf.raw_ops.Enter(data=tf.constant(1.0, name="x"), frame_name="loop", name="enter")
        tf.add(e, tf.constant(2.0, name="y"), name="add")
    e = _run_error(build, "add:0")
    assert isinstance(e, tf.errors.InvalidArgumentError)
    assert e.message.endswith("{{node add}} has inputs from different frames. The input {{node "
                              "enter}} is in frame 'loop'. The input {{node y}} is in frame ''.")


def test_exit_without_enter():
    def build():
        tf.raw_ops.Exit(data=tf.constant(1.0), name="exit")
    e = _run_error(build, "exit:0")
    assert isinstance(e, tf.errors.InvalidArgumentError)
    assert "{{node exit}} is an Exit that no Enter leads to" in e.message


def test_next_iteration_outside_a_loop():
    def build():
        n = tf.raw_ops.NextIteration(data=tf.constant(1.0), name="next")
        tf.identity(n, name="out")
    e = _run_error(build, "out:0")
    assert isinstance(e, tf.errors.InvalidArgumentError)
    assert "{{node next}} is a NextIteration outside any while loop frame" in e.message


def test_next_iteration_must_feed_a_merge():
    def build():
        e = tf.raw_ops.Enter(data=tf.constant(1.0), frame_name="f", name="enter")
        n = tf.raw_ops.NextIteration(data=e, name="next")
        tf.identity(n, name="out")
    e = _run_error(build, "out:0")
    assert isinstance(e, tf.errors.InvalidArgumentError)
    assert "{{node next}} is a NextIteration whose output goes to {{node out}}" in e.message


def test_all_dead_merge_is_dead():
    def build():
        p = tf.constant(True)
        f, _ = tf.raw_ops.Switch(data=tf.constant(1.0), pred=p)
        f2, _ = tf.raw_ops.Switch(data=tf.constant(2.0), pred=p)
        tf.raw_ops.Merge(inputs=[f, f2], name="merge")
    e = _run_error(build, "merge:0")
    assert isinstance(e, tf.errors.InvalidArgumentError)
    assert e.message.endswith("Retval[0] does not have value")


def test_merge_takes_the_live_input_and_its_index():
    g = tf.Graph()
    with g.as_default():
        p = tf.placeholder(tf.bool, [])
        f, t = tf.raw_ops.Switch(data=tf.constant([1, 2]), pred=p)
        m, idx = tf.raw_ops.Merge(inputs=[f * 10, t * 100])
    with tf.Session(graph=g) as s:
        a, i = s.run([m, idx], {p: True})
        np.testing.assert_array_equal(a, [100, 200])
        assert i == 1
        a, i = s.run([m, idx], {p: False})
        np.testing.assert_array_equal(a, [10, 20])
        assert i == 0


def test_switch_pred_must_be_scalar():
    g = tf.Graph()
    with g.as_default():
        p = tf.placeholder(tf.bool)
        f, t = tf.raw_ops.Switch(data=tf.constant(1.0), pred=p, name="sw")
    with tf.Session(graph=g) as s:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"The second input must be a scalar, but it has shape \[2\]"):
            s.run(t, {p: [True, False]})
