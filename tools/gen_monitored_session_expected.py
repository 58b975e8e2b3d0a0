"""Writes tests/fixtures/monitored_session_expected.json (developer tool, needs TensorFlow
2.21):

    /opt/tfvenv/bin/python tools/gen_monitored_session_expected.py

For the runs of tests/python/monitored_session_cases.py under TF's MonitoredTrainingSession
and MonitoredSession: the trained variables, the checkpoints kept, the INFO log lines (which
steps save, which iterations log), the events of the event file (read with
tf.train.summary_iterator), and what a listener, FinalOpsHook, FeedFnHook and a user hook
observe (the event file read after the cached writers are closed). "resumed" trains to step 12, then a second session in the same directory trains
on to the last step, as a restarted process does.
"""
import logging
import shutil
import tempfile

import tf_fixture
from tf_fixture import tf

import monitored_session_cases as cases


def _run(fn, *args):
    d = tempfile.mkdtemp()
    cap = cases.attach_log_capture(tf, d)
    try:
        out = fn(tf, d, *args)
        out["log"] = cap.lines
        out["checkpoints"] = out.get("checkpoints") or cases.checkpoint_record(tf, d)
        tf.summary.FileWriterCache.clear()  # closes the cached writers: every event on disk
        events = []
        for path in cases.event_files(d):
            events.append(cases.event_record(tf.train.summary_iterator(path), d))
        out["events"] = events
    finally:
        logging.getLogger("tensorflow").removeHandler(cap)
        tf.summary.FileWriterCache.clear()
        shutil.rmtree(d)
    return out


def _resumed(tf_, d):
    first = cases.train(tf_, d, last_step=12)
    second = cases.train(tf_, d)
    return {"values_at_12": first["values"], "values": second["values"]}


def main():
    tf_fixture.write("monitored_session_expected.json", {
        "train": _run(cases.train),
        "resumed": _run(_resumed),
        "hooks": _run(cases.hooks_run),
    })


if __name__ == "__main__":
    main()
