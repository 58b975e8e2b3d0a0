"""Long and endless loops in both forms: v2 (a StatelessWhile/While calling cond and body
functions) as TensorFlow 2.21 writes them (tools/gen_control_flow_v2_loops.py ->
tests/fixtures/control_flow_v2_loops/) and as minitf's tf.while_loop builds them, and v1
(Enter/Merge/Switch/Exit/NextIteration frames, tests/fixtures/control_flow_v1/): TensorFlow's
values, memory that stays flat over 1,000,000 iterations, and a loop that never ends stopped as
TensorFlow stops it:
RunOptions(timeout_in_ms) or ConfigProto(operation_timeout_in_ms) -> DeadlineExceededError
"Timed out waiting for notification", Session.close() from another thread -> CancelledError
"Loop execution was cancelled.", the session usable afterwards.

Latency bounds are loose on purpose (a shared 2-core machine): the tests check that the error
arrives and is the right one, and print how long it took."""
import json
import os
import resource
import threading
import time

import numpy as np
import pytest

import minitf as tf

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "fixtures", "control_flow_v2_loops")
FIX_V1 = os.path.join(HERE, "..", "fixtures", "control_flow_v1")
with open(os.path.join(FIX, "expected.json")) as f:
    CASES = json.load(f)["cases"]
LATE_S = 2.0  # an error this late would mean the loop never looked at its deadline


def load(case, fix=FIX):
    gd = tf.GraphDef()
    with open(os.path.join(fix, case + ".pb"), "rb") as f:
        gd.ParseFromString(f.read())
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(gd, name="")
    return g


def endless_built():
    """The same endless loop from minitf's own tf.while_loop (control flow v2)."""
    g = tf.Graph()
    with g.as_default():
        out = tf.while_loop(lambda i: i >= 0, lambda i: i + 1, [tf.constant(0)], name="forever")
        one = tf.constant(1.0, name="one")
    assert {"While", "StatelessWhile"} & {op.type for op in g.get_operations()}
    return g, out, one, 1.0


def endless_imported():
    """The endless loop TensorFlow wrote; its Const:0 (the loop's start) is 0."""
    g = load("endless_loop")
    return g, g.get_tensor_by_name("forever/Identity_2:0"), g.get_tensor_by_name("Const:0"), 0


def endless_imported_v1():
    """The endless loop TensorFlow wrote with v1 control flow."""
    g = load("endless_loop", FIX_V1)
    return g, g.get_tensor_by_name("forever/Exit:0"), g.get_tensor_by_name("Const:0"), 0


ENDLESS = {"imported": endless_imported, "built": endless_built, "imported_v1": endless_imported_v1}


@pytest.mark.parametrize("case", ["million_loop", "float_body_loop"])
def test_tensorflow_values(case):
    g = load(case)
    assert {op.type for op in g.get_operations()} == set(CASES[case]["ops"])
    with tf.Session(graph=g) as s:
        for run in CASES[case]["runs"]:
            feeds = {g.get_tensor_by_name(k): v for k, v in run["feeds"].items()}
            got = s.run(run["fetches"], feeds)
            for v, want in zip(got, run["expected"]):
                assert np.asarray(v).dtype.name == want["dtype"]
                np.testing.assert_array_equal(v, np.asarray(want["value"], dtype=want["dtype"]))


# (fixture dir, loop, fetches, the fetched values after 1,000,000 iterations)
MILLION = {
    "v2": (FIX, "million_loop", ["count/Identity_2:0"], [1000000]),
    "v1": (FIX_V1, "million_loop", ["count/Exit:0"], [1000000]),
    # two Exits: every iteration but the last kills each; the frame remembers one entry per
    # Exit, not one per iteration (before: 16 bytes per iteration and Exit); x -> 0.5 / 0.001
    "v1 two exits": (FIX_V1, "float_body_loop", ["fbody/Exit:0", "fbody/Exit_1:0"],
                     [1000000, 500.0]),
}


@pytest.mark.parametrize("form", sorted(MILLION))
def test_million_iterations_in_flat_memory(form):
    fix, case, fetches, want = MILLION[form]
    g = load(case, fix)
    n = g.get_tensor_by_name("n:0")
    with tf.Session(graph=g) as s:
        s.run(fetches, {n: 10000})  # warm: plans built, allocator settled
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        got = s.run(fetches, {n: 1000000})
        grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    print("%s: max RSS grew by %d KiB over 1,000,000 iterations" % (form, grown_kib))
    np.testing.assert_allclose(got, want, atol=1e-2)
    # 1e6 iterations kept alive would be well over 100 MiB (measured: 0 KiB)
    assert grown_kib < 4 * 1024


def _deadline(s, out, **run_kw):
    t0 = time.perf_counter()
    with pytest.raises(tf.errors.DeadlineExceededError) as e:
        s.run(out, **run_kw)
    return e.value, time.perf_counter() - t0


@pytest.mark.parametrize("form", sorted(ENDLESS))
def test_run_options_deadline_ends_the_loop_and_the_session_stays_usable(form):
    g, out, one, one_value = ENDLESS[form]()
    with tf.Session(graph=g) as s:
        err, took = _deadline(s, out, options=tf.RunOptions(timeout_in_ms=50))
        print("%s: 50 ms deadline -> error after %.1f ms" % (form, took * 1e3))
        assert err.message.endswith("Timed out waiting for notification")
        assert "{{node" not in err.message  # a step's timeout, as TensorFlow reports it
        assert 0.05 <= took < 0.05 + LATE_S
        _deadline(s, out, options=tf.RunOptions(timeout_in_ms=1))  # again, same session
        assert s.run(one) == one_value


def test_operation_timeout_in_config_and_run_options_override_it():
    g, out, one, _ = endless_imported()
    s = tf.Session(graph=g, config=tf.ConfigProto(operation_timeout_in_ms=60))
    try:
        _, took = _deadline(s, out)
        print("operation_timeout_in_ms=60 -> error after %.1f ms" % (took * 1e3))
        assert 0.06 <= took < 0.06 + LATE_S
        # RunOptions.timeout_in_ms > 0 wins over the session's
        _, took = _deadline(s, out, options=tf.RunOptions(timeout_in_ms=1000))
        assert took >= 1.0
        assert s.run(one) == 0
    finally:
        s.close()


def test_deadline_stops_a_loop_inside_a_cond():
    g = tf.Graph()
    with g.as_default():
        p = tf.placeholder(tf.bool, [], name="p")
        out = tf.cond(p, lambda: tf.while_loop(lambda i: i >= 0, lambda i: i + 1,
                                               [tf.constant(0)]),
                      lambda: tf.constant(-1))
    with tf.Session(graph=g) as s:
        assert s.run(out, {p: False}) == -1
        _, took = _deadline(s, out, feed_dict={p: True}, options=tf.RunOptions(timeout_in_ms=30))
        assert took < 0.03 + LATE_S


@pytest.mark.parametrize("form", sorted(ENDLESS))
def test_close_from_another_thread_cancels_the_step(form):
    g, out, _, _ = ENDLESS[form]()
    s = tf.Session(graph=g)
    caught = []

    def step():
        try:
            s.run(out)
        except tf.errors.OpError as e:
            caught.append(e)
    t = threading.Thread(target=step)
    t.start()
    time.sleep(0.2)
    t0 = time.perf_counter()
    s.close()
    t.join(30)
    print("%s: close() returned after %.1f ms" % (form, (time.perf_counter() - t0) * 1e3))
    assert not t.is_alive()
    assert len(caught) == 1 and isinstance(caught[0], tf.errors.CancelledError)
    assert "Loop execution was cancelled." in caught[0].message
    if form == "imported_v1":
        assert "forever/LoopCond" in caught[0].message  # the kernel that noticed
    with pytest.raises(RuntimeError, match="closed"):
        s.run(out)
