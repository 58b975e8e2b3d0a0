"""MonitoredTrainingSession, MonitoredSession, Scaffold, SessionManager and the hooks.

Reference behaviour: tests/fixtures/monitored_session_expected.json, written by real
TensorFlow 2.21 (tools/gen_monitored_session_expected.py) for the runs of
monitored_session_cases.py: the INFO log lines, the checkpoints kept, the event file's
events (read back with TensorBoard's loader) and the trained variables. The crash test
kills a training process with SIGKILL after it saved checkpoints, starts it again and
checks it ends with exactly the variables of an uninterrupted run.
"""
import json
import logging
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import minitf as tf
from minitf.training import training_util

import monitored_session_cases as cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "monitored_session_expected.json")) as f:
    EXPECTED = json.load(f)


def _events(directory):
    efl = pytest.importorskip("tensorboard.backend.event_processing.event_file_loader")
    files = cases.event_files(directory)
    return [cases.event_record(efl.LegacyEventFileLoader(p).Load(), directory) for p in files]


def _record_run(fn, directory, *args):
    cap = cases.attach_log_capture(tf, str(directory))
    try:
        out = fn(tf, str(directory), *args)
        out["log"] = cap.lines
        out["checkpoints"] = out.get("checkpoints") or cases.checkpoint_record(
            tf, str(directory))
    finally:
        logging.getLogger("tensorflow").removeHandler(cap)
        tf.summary.FileWriterCache.clear()
    out["events"] = _events(str(directory))
    return out


def _assert_values_close(got, want):
    # TF's float32 arithmetic (matmul, reduce_mean) may round the last bit otherwise.
    assert sorted(got) == sorted(want)
    for name in want:
        np.testing.assert_allclose(got[name], want[name], rtol=1e-6, atol=1e-7, err_msg=name)


def _assert_events_close(got, want):
    assert [e[:2] for e in got] == [e[:2] for e in want]
    for g, w in zip(got, want):
        if g[0] == "summary" and w[2][1] is not None:
            assert g[2][0] == w[2][0]
            assert g[2][1] == pytest.approx(w[2][1], abs=2e-5)
        else:
            assert g == w


# --- the runs TensorFlow recorded ---------------------------------------------------------

def test_training_run_logs_saves_and_writes_as_tf(tmp_path):
    got = _record_run(cases.train, tmp_path)
    want = EXPECTED["train"]
    assert got["log"] == want["log"]  # which steps save, which iterations log, in order
    assert got["checkpoints"] == want["checkpoints"]  # max_to_keep=5 of steps 0,5,...,23
    assert len(got["events"]) == 1
    _assert_events_close(got["events"][0], want["events"][0])
    _assert_values_close(got["values"], want["values"])


def test_second_session_resumes_from_latest_checkpoint_as_tf(tmp_path):
    def resumed(tf_, d):
        first = cases.train(tf_, d, last_step=12)
        second = cases.train(tf_, d)
        return {"values_at_12": first["values"], "values": second["values"]}
    got = _record_run(resumed, tmp_path)
    want = EXPECTED["resumed"]
    assert got["log"] == want["log"]
    assert "Restoring parameters from <dir>/model.ckpt-12" in got["log"]
    assert got["checkpoints"] == want["checkpoints"]
    _assert_values_close(got["values_at_12"], want["values_at_12"])
    _assert_values_close(got["values"], want["values"])
    # Stopped and resumed is the uninterrupted run, to the bit.
    straight = cases.train(tf, str(tmp_path / "straight"))
    tf.summary.FileWriterCache.clear()
    assert got["values"] == straight["values"]


def test_hooks_under_monitored_session_as_tf(tmp_path):
    got = _record_run(cases.hooks_run, tmp_path)
    want = EXPECTED["hooks"]
    assert got["listener"] == want["listener"]  # begin, saves at 0, 3, 6, the end save, end
    assert got["recorder"] == want["recorder"]  # the user hook's calls and its fetches
    assert got["fed"] == want["fed"]
    assert got["final"] == pytest.approx(want["final"], abs=1e-5)
    assert got["log"] == want["log"]
    assert got["checkpoints"] == want["checkpoints"]
    _assert_events_close(got["events"][0], want["events"][0])


# --- a crash and a restart ----------------------------------------------------------------

def _latest_step(directory):
    try:
        state = tf.train.get_checkpoint_state(directory)
    except Exception:  # noqa: BLE001  (the state file may be mid-rename)
        return -1
    if state is None or not state.model_checkpoint_path:
        return -1
    return int(state.model_checkpoint_path.rsplit("-", 1)[1])


def _start(directory, out, seconds):
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    return subprocess.Popen([sys.executable, os.path.join(HERE, "mts_train_process.py"),
                             directory, out, str(seconds)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)


def test_killed_training_process_resumes_to_the_uninterrupted_result(tmp_path):
    directory, out = str(tmp_path / "ckpt"), str(tmp_path / "values.json")
    proc = _start(directory, out, 0.15)
    deadline = time.time() + 120
    while _latest_step(directory) < 10 and proc.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL, err.decode()
    assert not os.path.exists(out)
    killed_at = _latest_step(directory)
    assert 10 <= killed_at < cases.LAST_STEP

    proc = _start(directory, out, 0.0)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err.decode()
    log = err.decode()
    assert "INFO:tensorflow:Restoring parameters from %s/model.ckpt-%d" % (
        directory, killed_at) in log
    # The restarted process saves the restored step first, then goes on from there.
    assert "Saving checkpoints for %d into" % killed_at in log
    assert "Saving checkpoints for 0 into" not in log
    with open(out) as f:
        resumed = json.load(f)
    straight = cases.train(tf, str(tmp_path / "straight"))["values"]
    tf.summary.FileWriterCache.clear()
    assert resumed == straight
    assert resumed["global_step"] == cases.LAST_STEP
    _assert_values_close(resumed, EXPECTED["train"]["values"])


# --- MonitoredSession semantics -----------------------------------------------------------

def _counter_graph():
    # The increment waits for the hooks' read of the step (TF's _increment_global_step),
    # so every hook sees the step before the run, as in monitored_session_cases.
    gs = tf.train.get_or_create_global_step()
    return gs, training_util._increment_global_step(1)


class _Recorder(tf.train.SessionRunHook):
    def __init__(self, fetch=None, feed=None, stop_after=None):
        self.calls, self.results = [], []
        self._fetch, self._feed, self._stop_after = fetch, feed, stop_after

    def begin(self):
        self.calls.append("begin")

    def after_create_session(self, session, coord):
        self.calls.append("after_create_session")

    def before_run(self, run_context):
        self.calls.append("before_run")
        if self._fetch is None and self._feed is None:
            return None
        return tf.train.SessionRunArgs(self._fetch, feed_dict=self._feed)

    def after_run(self, run_context, run_values):
        self.calls.append("after_run")
        self.results.append(run_values.results)
        if self._stop_after is not None and len(self.results) >= self._stop_after:
            run_context.request_stop()

    def end(self, session):
        self.calls.append("end")


def test_hooks_fetches_and_feeds_merge_into_the_callers_run():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [], name="x")
        y = tf.placeholder(tf.float32, [], name="y")
        total = x + y
        a = _Recorder(fetch={"double": total * 2.0}, feed={y: 10.0})
        b = _Recorder(fetch=[total], stop_after=2)
        with tf.train.MonitoredSession(hooks=[a, b]) as sess:
            assert sess.run(total, feed_dict={x: 1.0}) == 11.0
            assert not sess.should_stop()
            assert sess.run(total, feed_dict={x: 2.0}) == 12.0
            assert sess.should_stop()
            with pytest.raises(RuntimeError, match="Run called even after should_stop"):
                sess.run(total, feed_dict={x: 3.0})
        assert a.results == [{"double": 22.0}, {"double": 24.0}]
        assert b.results == [[11.0], [12.0]]
        assert a.calls == ["begin", "after_create_session", "before_run", "after_run",
                           "before_run", "after_run", "end"]


def test_feed_conflicts_raise_runtime_error():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [], name="x")
        hooks = [_Recorder(feed={x: 1.0}), _Recorder(feed={x: 2.0})]
        with tf.train.MonitoredSession(hooks=hooks) as sess:
            with pytest.raises(RuntimeError, match="Same tensor is fed by two hooks"):
                sess.run(x)
        with tf.train.MonitoredSession(hooks=[_Recorder(feed={x: 1.0})]) as sess:
            with pytest.raises(RuntimeError,
                               match="Same tensor is fed by a SessionRunHook and user"):
                sess.run(x, feed_dict={x: 3.0})


def test_out_of_range_ends_the_with_block_cleanly_and_runs_end():
    with tf.Graph().as_default():
        gs, inc = _counter_graph()
        rec = _Recorder()
        final = tf.train.FinalOpsHook(gs)

        class Exhausted(tf.train.SessionRunHook):  # an input pipeline running dry
            count = 0

            def after_run(self, run_context, run_values):
                Exhausted.count += 1
                if Exhausted.count == 3:
                    raise tf.errors.OutOfRangeError(None, None, "End of sequence")

        runs = 0
        with tf.train.MonitoredSession(hooks=[rec, final, Exhausted()]) as sess:
            while not sess.should_stop():
                sess.run(inc)
                runs += 1
        assert runs == 2
        assert rec.calls[-1] == "end" and final.final_ops_values == 3
        assert not tf.get_default_graph().finalized  # unfinalized again after close


def test_other_errors_propagate_and_skip_end():
    with tf.Graph().as_default():
        _counter_graph()
        rec = _Recorder()
        with pytest.raises(ValueError, match="boom"):
            with tf.train.MonitoredSession(hooks=[rec]):
                raise ValueError("boom")
        assert "end" not in rec.calls


def test_recoverable_session_recreates_after_aborted_error():
    with tf.Graph().as_default():
        gs, inc = _counter_graph()
        rec = _Recorder()

        class AbortOnce(tf.train.SessionRunHook):
            aborted = False

            def after_run(self, run_context, run_values):
                if not AbortOnce.aborted:
                    AbortOnce.aborted = True
                    raise tf.errors.AbortedError(None, None, "preempted")

        with tf.train.MonitoredSession(hooks=[rec, AbortOnce()]) as sess:
            # The first run's increment is lost with its session (variables live in a
            # session); the new session starts from the initializer and runs again.
            assert sess.run(inc) == 1
        assert rec.calls.count("after_create_session") == 2
        with tf.Graph().as_default():
            _, inc = _counter_graph()

            class Abort(tf.train.SessionRunHook):
                def after_run(self, run_context, run_values):
                    raise tf.errors.AbortedError(None, None, "preempted")

            with tf.train.SingularMonitoredSession(hooks=[Abort()]) as sess:
                with pytest.raises(tf.errors.AbortedError):
                    sess.run(inc)
                assert sess.raw_session() is not None


def test_recovery_restores_from_checkpoint_dir(tmp_path):
    with tf.Graph().as_default():
        gs, inc = _counter_graph()

        class AbortAtThree(tf.train.SessionRunHook):
            count = 0

            def after_run(self, run_context, run_values):
                AbortAtThree.count += 1
                if AbortAtThree.count == 3:
                    raise tf.errors.UnavailableError(None, None, "ps lost")

        hooks = [tf.train.CheckpointSaverHook(str(tmp_path), save_steps=2), AbortAtThree()]
        creator = tf.train.ChiefSessionCreator(checkpoint_dir=str(tmp_path))
        with tf.train.MonitoredSession(session_creator=creator, hooks=hooks) as sess:
            values = [sess.run(inc) for _ in range(4)]
        tf.summary.FileWriterCache.clear()
        # Steps 1, 2 (saved), 3 lost with its session: restored to 2, step 3 again, 4.
        assert values == [1, 2, 3, 4] and AbortAtThree.count == 5
        assert os.path.basename(tf.train.latest_checkpoint(str(tmp_path))) == "model.ckpt-4"


def test_run_step_fn():
    with tf.Graph().as_default():
        gs, inc = _counter_graph()
        rec = _Recorder()
        with tf.train.MonitoredSession(hooks=[rec]) as sess:
            def step_fn(step_context):
                raw = step_context.session.run(gs)
                return raw, step_context.run_with_hooks(inc)
            assert sess.run_step_fn(step_fn) == (0, 1)
            assert rec.calls.count("before_run") == 1  # the raw run skips the hooks

            def stop_fn(step_context):
                step_context.request_stop()
            with pytest.raises(StopIteration):
                sess.run_step_fn(stop_fn)
            with pytest.raises(ValueError, match="`step_fn` may either have one"):
                sess.run_step_fn(lambda ctx: None)
        with tf.train.MonitoredSession() as sess:  # StopIteration ends the block cleanly
            sess.run_step_fn(stop_fn)
            raise AssertionError("not reached")


def test_close_twice_and_context_state():
    with tf.Graph().as_default():
        _counter_graph()
        sess = tf.train.MonitoredSession()
        assert sess.graph is tf.get_default_graph() and not sess.should_stop()
        sess.close()
        assert sess.should_stop() and sess.graph is None
        with pytest.raises(RuntimeError, match="Session is already closed"):
            sess.close()


# --- Scaffold and SessionManager ----------------------------------------------------------

def test_scaffold_defaults_go_to_collections_and_finalize_the_graph():
    with tf.Graph().as_default() as g:
        v = tf.get_variable("v", [], initializer=tf.ones_initializer())
        loc = tf.get_variable("loc", [], initializer=tf.zeros_initializer(),
                              collections=[tf.GraphKeys.LOCAL_VARIABLES])
        s = tf.train.Scaffold().finalize()
        assert g.finalized
        for key, piece in [(tf.GraphKeys.INIT_OP, s.init_op),
                           (tf.GraphKeys.READY_OP, s.ready_op),
                           (tf.GraphKeys.READY_FOR_LOCAL_INIT_OP, s.ready_for_local_init_op),
                           (tf.GraphKeys.LOCAL_INIT_OP, s.local_init_op),
                           (tf.GraphKeys.SAVERS, s.saver)]:
            assert g.get_collection(key) == [piece], key
        assert s.summary_op is None  # no summaries: merge_all gives None
        with tf.Session() as sess:
            assert list(sess.run(s.ready_op)) == [b"v", b"loc"]
            assert list(sess.run(s.ready_for_local_init_op)) == [b"v"]
            sess.run(s.init_op)
            assert list(sess.run(s.ready_op)) == [b"loc"]
            sess.run(s.local_init_op)
            assert sess.run(s.ready_op).size == 0 and sess.run([v, loc]) == [1.0, 0.0]
        g._unsafe_unfinalize()
        s2 = tf.train.Scaffold().finalize()  # a second scaffold reuses the collections
        assert s2.init_op is s.init_op and s2.saver is s.saver


def test_scaffold_copy_and_errors():
    with tf.Graph().as_default():
        tf.get_variable("v", [], initializer=tf.ones_initializer())
        calls = []
        base = tf.train.Scaffold(init_fn=lambda scaffold, sess: calls.append(scaffold),
                                 init_feed_dict={"a": 1})
        copy = tf.train.Scaffold(copy_from_scaffold=base, init_feed_dict={"b": 2})
        assert copy.init_feed_dict == {"b": 2}
        copy.init_fn("sess")
        assert calls == [copy]  # init_fn is called with the new scaffold
        with pytest.raises(TypeError, match="copy_from_scaffold is not a Scaffold"):
            tf.train.Scaffold(copy_from_scaffold=object())
        tf.add_to_collection(tf.GraphKeys.INIT_OP, tf.no_op())
        tf.add_to_collection(tf.GraphKeys.INIT_OP, tf.no_op())
        with pytest.raises(RuntimeError, match='More than one item in the collection "init_op"'):
            tf.train.Scaffold().finalize()


def test_session_manager_prepare_and_recover(tmp_path):
    with tf.Graph().as_default():
        v = tf.get_variable("v", [], initializer=tf.constant_initializer(5.0))
        ready = tf.report_uninitialized_variables()
        saver = tf.train.Saver()
        sm = tf.train.SessionManager(ready_op=ready)
        with pytest.raises(RuntimeError, match="Model is not initialized and no init_op"):
            sm.prepare_session("")
        with pytest.raises(RuntimeError, match="Init operations did not make model ready"):
            sm.prepare_session("", init_op=tf.no_op())
        sess = sm.prepare_session("", init_op=tf.global_variables_initializer())
        sess.run(v.assign(7.0))
        saver.save(sess, str(tmp_path / "m"), global_step=3)
        sess.close()
        sess, ok = sm.recover_session("", saver=saver, checkpoint_dir=str(tmp_path / "none"))
        assert not ok
        sess, ok = sm.recover_session("", saver=saver, checkpoint_dir=str(tmp_path))
        assert ok and sess.run(v) == 7.0
        sess = sm.prepare_session("", saver=saver, checkpoint_dir=str(tmp_path))
        assert sess.run(v) == 7.0  # restored, init_op not needed
        with pytest.raises(ValueError, match="Can not provide both checkpoint_dir"):
            sm.prepare_session("", saver=saver, checkpoint_dir=str(tmp_path),
                               checkpoint_filename_with_path=str(tmp_path / "m-3"))
        with pytest.raises(ValueError, match="If you pass a ready_for_local_init_op"):
            tf.train.SessionManager(ready_for_local_init_op=ready)
        with pytest.raises(tf.errors.DeadlineExceededError,
                           match="Session was not ready after waiting 0 secs"):
            tf.train.SessionManager(ready_op=ready, recovery_wait_secs=0.01).wait_for_session(
                "", max_wait_secs=0)


def test_monitored_training_session_default_hooks(tmp_path):
    with tf.Graph().as_default():
        _, inc = _counter_graph()
        sess = tf.train.MonitoredTrainingSession(checkpoint_dir=str(tmp_path))
        kinds = [type(h).__name__ for h in sess._hooks]
        sess.close()
        assert kinds == ["StepCounterHook", "SummarySaverHook", "CheckpointSaverHook"]
        # The checkpoint default is every 600 s, so only the first and the end save.
        assert [h._timer._every_secs for h in sess._hooks[2:]] == [600]
        assert sess._hooks[1]._timer._every_steps == 100
        # A non-chief waits for a chief to initialize the model; alone it times out.
        with pytest.raises(tf.errors.DeadlineExceededError,
                           match="Session was not ready after waiting 0 secs"):
            tf.train.MonitoredTrainingSession(checkpoint_dir=str(tmp_path), is_chief=False,
                                              max_wait_secs=0)
    # Every 600 s: a short run saves when the session is made and at the end only. (A new
    # graph: the Saver of the SAVERS collection would still list the first directory's
    # checkpoint, as TensorFlow's does.)
    with tf.Graph().as_default():
        _, inc = _counter_graph()
        with tf.train.MonitoredTrainingSession(checkpoint_dir=str(tmp_path / "secs"),
                                               hooks=[tf.train.StopAtStepHook(7)]) as sess:
            while not sess.should_stop():
                sess.run(inc)
        state = tf.train.get_checkpoint_state(str(tmp_path / "secs"))
        assert [os.path.basename(p) for p in state.all_model_checkpoint_paths] == [
            "model.ckpt-0", "model.ckpt-7"]
        s3 = tf.train.MonitoredTrainingSession(checkpoint_dir=None, save_summaries_steps=None,
                                               log_step_count_steps=None)
        assert s3._hooks == []
        s3.close()
    tf.summary.FileWriterCache.clear()


def test_non_chief_session_on_a_model_without_variables():
    # WorkerSessionCreator waits until the ready op reports nothing uninitialized: with no
    # variables that is at once (variables would need a chief in another process).
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [])
        y = x * 3.0
        rec = _Recorder()
        with tf.train.MonitoredTrainingSession(is_chief=False, hooks=[rec]) as sess:
            assert sess.run(y, feed_dict={x: 2.0}) == 6.0
        assert rec.calls[-1] == "end"


# --- hooks one by one ---------------------------------------------------------------------

def test_second_or_step_timer():
    with pytest.raises(ValueError, match="Either every_secs or every_steps"):
        tf.train.SecondOrStepTimer()
    with pytest.raises(ValueError, match="Can not provide both"):
        tf.train.SecondOrStepTimer(every_secs=1, every_steps=1)
    t = tf.train.SecondOrStepTimer(every_steps=3)
    assert t.should_trigger_for_step(0) and t.update_last_triggered_step(0) == (None, None)
    assert [s for s in range(1, 8) if t.should_trigger_for_step(s)] == [3, 4, 5, 6, 7]
    secs, steps = t.update_last_triggered_step(4)
    assert steps == 4 and secs >= 0 and t.last_triggered_step() == 4
    assert not t.should_trigger_for_step(4)


def test_stop_at_step_hook():
    with pytest.raises(ValueError, match="One of num_steps or last_step"):
        tf.train.StopAtStepHook()
    with pytest.raises(ValueError, match="Only one of num_steps or last_step"):
        tf.train.StopAtStepHook(num_steps=1, last_step=1)
    with tf.Graph().as_default():
        with pytest.raises(RuntimeError, match="Global step should be created"):
            tf.train.StopAtStepHook(num_steps=1).begin()
        gs, inc = _counter_graph()
        runs = 0
        with tf.train.MonitoredSession(hooks=[tf.train.StopAtStepHook(num_steps=4)]) as sess:
            sess.run(inc)  # skipped the hook? no: counts too
            runs = 1
            while not sess.should_stop():
                sess.run(inc)
                runs += 1
        assert runs == 4


def test_logging_tensor_hook_formats_and_periods(caplog):
    with pytest.raises(ValueError, match="either at_end and/or exactly one"):
        tf.train.LoggingTensorHook(["a"])
    with pytest.raises(ValueError, match="invalid every_n_iter=0"):
        tf.train.LoggingTensorHook(["a"], every_n_iter=0)
    with tf.Graph().as_default():
        gs, inc = _counter_graph()
        half = tf.cast(gs, tf.float32) / 2.0
        tf.identity(half, name="half")
        hooks = [tf.train.LoggingTensorHook(["half"], every_n_iter=2),
                 tf.train.LoggingTensorHook({"g": gs}, at_end=True,
                                            formatter=lambda d: "G<%d>" % d["g"])]
        tf.logging.set_verbosity(tf.logging.INFO)
        with caplog.at_level(logging.INFO, logger="tensorflow"):
            with tf.train.MonitoredSession(hooks=hooks) as sess:
                for _ in range(5):
                    sess.run(inc)
        msgs = [r.getMessage() for r in caplog.records if r.name == "tensorflow"]
        logged = [m.split(" (")[0] for m in msgs if m.startswith("half")]
        assert len(logged) == 3 and msgs[-1] == "G<5>"
        with pytest.raises(ValueError, match="is ambiguous"):
            tf.split(tf.constant([1.0, 2.0]), 2, name="two")
            tf.train.LoggingTensorHook(["two"], every_n_iter=1).begin()


def test_nan_tensor_hook():
    with tf.Graph().as_default():
        gs, inc = _counter_graph()
        loss = tf.cond(gs >= 2, lambda: tf.constant(np.nan), lambda: tf.constant(1.0))
        with pytest.raises(tf.train.NanLossDuringTrainingError, match="NaN loss during"):
            with tf.train.MonitoredSession(hooks=[tf.train.NanTensorHook(loss)]) as sess:
                for _ in range(5):
                    sess.run(inc)
        with tf.train.MonitoredSession(
                hooks=[tf.train.NanTensorHook(loss, fail_on_nan_loss=False)]) as sess:
            runs = 0
            while not sess.should_stop():
                sess.run(inc)
                runs += 1
        assert runs == 3


def test_summary_saver_and_step_counter_hook_arguments():
    with pytest.raises(ValueError, match="Exactly one of scaffold or summary_op"):
        tf.train.SummarySaverHook(save_steps=1)
    with pytest.raises(ValueError, match="exactly one of every_n_steps and every_n_secs"):
        tf.train.StepCounterHook(every_n_steps=None)
    with pytest.raises(ValueError, match="You cannot provide both saver and scaffold"):
        tf.train.CheckpointSaverHook("/tmp", save_steps=1, saver=object(),
                                     scaffold=tf.train.Scaffold())


def test_checkpoint_saver_listener_can_stop_training(tmp_path):
    with tf.Graph().as_default():
        gs, inc = _counter_graph()

        class StopAtFour(tf.train.CheckpointSaverListener):
            def after_save(self, session, global_step_value):
                return global_step_value >= 4

        hook = tf.train.CheckpointSaverHook(str(tmp_path), save_steps=2,
                                            listeners=[StopAtFour()])
        with tf.train.MonitoredSession(hooks=[hook]) as sess:
            while not sess.should_stop():
                sess.run(inc)
        assert os.path.basename(tf.train.latest_checkpoint(str(tmp_path))) == "model.ckpt-4"
    tf.summary.FileWriterCache.clear()


def test_global_step_read_and_increment():
    with tf.Graph().as_default():
        assert training_util._get_or_create_global_step_read() is None
        gs = tf.train.get_or_create_global_step()
        read = training_util._get_or_create_global_step_read()
        assert read.name == "global_step/add:0"
        assert training_util._get_or_create_global_step_read() is read
        inc = training_util._increment_global_step(5)
        with tf.Session() as sess:
            assert sess.run(read) == 0  # uninitialized: the initial value
            sess.run(gs.initializer)
            sess.run(inc)
            assert sess.run(read) == 5
        with pytest.raises(TypeError, match="does not have integer type"):
            tf.train.assert_global_step(tf.constant(1.0))


def test_tf_logging_api(capsys):
    assert tf.logging.INFO == logging.INFO and tf.get_logger().name == "tensorflow"
    old = tf.logging.get_verbosity()
    tf.logging.set_verbosity(tf.logging.ERROR)
    assert tf.logging.get_verbosity() == logging.ERROR
    tf.logging.set_verbosity(old)
    with pytest.raises(NotImplementedError):
        tf.logging.flush()


def test_global_step_waiter_and_summary_saver_with_its_own_op(tmp_path):
    with tf.Graph().as_default():
        gs, inc = _counter_graph()
        value = tf.summary.scalar("v", tf.constant(2.5), collections=[])
        writer = tf.summary.FileWriter(str(tmp_path))
        hooks = [tf.train.GlobalStepWaiterHook(0),
                 tf.train.SummarySaverHook(save_steps=2, summary_writer=writer,
                                           summary_op=value),
                 tf.train.StepCounterHook(every_n_steps=2, summary_writer=writer)]
        with tf.train.MonitoredSession(hooks=hooks) as sess:
            for _ in range(5):
                sess.run(inc)
        writer.close()
    events = _events(str(tmp_path))[0]
    # SessionLog START and "v" at the step after the first run, then every 2 steps;
    # the step counter's rate from its second trigger on, under "global_step/sec".
    assert [e for e in events if e[0] == "session_log"] == [["session_log", 1, [1, ""]]]
    assert [e[1] for e in events if e[0] == "summary" and e[2][0] == "v"] == [1, 3, 5]
    assert [e[2][1] for e in events if e[0] == "summary" and e[2][0] == "v"] == [2.5] * 3
    assert [e[1] for e in events if e[0] == "summary" and e[2][0] == "global_step/sec"] == [
        3, 5]


def test_compat_v1_names():
    v1 = tf.compat.v1
    assert v1.train.MonitoredTrainingSession is tf.train.MonitoredTrainingSession
    assert v1.logging.info is tf.logging.info
    assert tf.train.SummaryWriterCache is tf.summary.FileWriterCache
    for name in ["Scaffold", "ChiefSessionCreator", "WorkerSessionCreator", "SessionCreator",
                 "SessionManager", "SingularMonitoredSession", "MonitoredSession",
                 "SessionRunHook", "SessionRunArgs", "SessionRunContext", "SessionRunValues",
                 "CheckpointSaverHook", "CheckpointSaverListener", "StopAtStepHook",
                 "LoggingTensorHook", "NanTensorHook", "NanLossDuringTrainingError",
                 "SummarySaverHook", "StepCounterHook", "FinalOpsHook", "FeedFnHook",
                 "GlobalStepWaiterHook", "SecondOrStepTimer", "Coordinator", "LooperThread"]:
        assert hasattr(v1.train, name), name


def test_checkpoint_events_without_summaries(tmp_path):
    # TF 2.21 with summaries and step logging off: the cached writer's graph + meta graph,
    # the CheckpointSaverHook's graph + meta graph, then SessionLog CHECKPOINT (status 3,
    # the save path without step) per save — TF wrote those at steps 0 and 2 (its final
    # save's event is still in its writer thread's queue when the script ends).
    from minitf.core.util import event_pb2
    import struct
    d = str(tmp_path)
    with tf.Graph().as_default():
        gs = tf.train.get_or_create_global_step()
        tf.Variable(1.0, name="v")
        train = tf.assign_add(gs, 1)
        with tf.train.MonitoredTrainingSession(
                checkpoint_dir=d, save_summaries_steps=None, save_summaries_secs=None,
                save_checkpoint_steps=2, log_step_count_steps=None) as s:
            for _ in range(3):
                s.run(train)
    (name,) = [n for n in os.listdir(d) if n.startswith("events.")]
    data = open(os.path.join(d, name), "rb").read()
    seen, pos = [], 0
    while pos < len(data):
        (n,) = struct.unpack("<Q", data[pos:pos + 8])
        e = event_pb2.Event.FromString(data[pos + 12:pos + 12 + n])
        pos += 12 + n + 4
        what = e.WhichOneof("what")
        seen.append((what, e.step) if what != "session_log" else
                    (what, e.step, e.session_log.status, e.session_log.checkpoint_path))
    path = os.path.join(d, "model.ckpt")
    assert seen == [("file_version", 0), ("graph_def", 0), ("meta_graph_def", 0),
                    ("graph_def", 0), ("meta_graph_def", 0), ("session_log", 0, 3, path),
                    ("session_log", 2, 3, path), ("session_log", 3, 3, path)]
