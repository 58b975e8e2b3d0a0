"""Training runs under MonitoredTrainingSession shared by tests/python/test_monitored_session.py,
the training process tests/python/mts_train_process.py and the TensorFlow generator
tools/gen_monitored_session_expected.py. Every function takes the `tf` module (minitf or
TensorFlow's compat.v1) so both record the same things in the same form.

The model is small and deterministic: fixed data, the batch picked in the graph by the
global step (so a restarted process feeds the batches an uninterrupted one would), weights
from constant initializers, Momentum (slots are saved too).
"""
import logging
import os
import re

import numpy as np

LAST_STEP = 23
SAVE_STEPS = 5
SUMMARY_STEPS = 3
LOG_STEP_COUNT = 4
LOG_EVERY = 4

_X = (np.arange(24, dtype=np.float32).reshape(4, 2, 3) % 7 - 3.0) / 4.0
_Y = np.array([[[0.5], [-1.0]], [[1.5], [0.25]], [[-0.5], [2.0]], [[1.0], [-1.5]]],
              dtype=np.float32)


def _training_util(tf):
    if tf.__name__.startswith("minitf"):
        from minitf.training import training_util
    else:
        from tensorflow.python.training import training_util
    return training_util


def build_model(tf):
    """The graph of the training runs: returns dict(loss, train_op, global_step)."""
    gs = tf.train.get_or_create_global_step()
    xb = tf.gather(tf.constant(_X), tf.math.floormod(gs, 4))
    yb = tf.gather(tf.constant(_Y), tf.math.floormod(gs, 4))
    w = tf.get_variable("w", [3, 1], initializer=tf.constant_initializer([0.1, -0.2, 0.3]))
    b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
    loss = tf.reduce_mean(tf.square(tf.matmul(xb, w) + b - yb), name="loss")
    tf.summary.scalar("loss", loss)
    # The hooks fetch the global step through the cached read "global_step/add"; nothing
    # orders it against the train op's increment, so TensorFlow reads the old or the new
    # step at random and the step a summary lands on varies from run to run. As Estimator
    # does, the train op waits for that read, so every hook sees the step before the run.
    with tf.control_dependencies([_training_util(tf)._get_or_create_global_step_read()]):
        train_op = tf.train.MomentumOptimizer(0.05, 0.9).minimize(loss, global_step=gs)
    return {"loss": loss, "train_op": train_op, "global_step": gs}


def variable_values(tf, sess):
    """{name: list} of every global variable (slots and global step included)."""
    out = {}
    for v in tf.global_variables():
        out[v.op.name] = np.asarray(sess.run(v)).tolist()
    return out


class LogCapture(logging.Handler):
    """Collects the INFO messages of the "tensorflow" logger, with the run-dependent parts
    (directory, timings, rates) masked."""

    def __init__(self, directory):
        super().__init__(level=logging.INFO)
        self.directory = directory
        self.lines = []

    def emit(self, record):
        if record.levelno != logging.INFO:
            return
        msg = record.getMessage().replace(self.directory, "<dir>")
        msg = re.sub(r"\(\d+\.\d+ sec\)", "(T sec)", msg)
        msg = re.sub(r"global_step/sec: \S+", "global_step/sec: R", msg)
        self.lines.append(msg)


def attach_log_capture(tf, directory):
    tf.logging.set_verbosity(tf.logging.INFO)
    cap = LogCapture(directory)
    logging.getLogger("tensorflow").addHandler(cap)
    return cap


class RecordingListener:
    """A CheckpointSaverListener recording its calls (base class given at run time)."""

    def __init__(self):
        self.calls = []

    def begin(self):
        self.calls.append(["begin"])

    def before_save(self, session, global_step_value):
        self.calls.append(["before_save", int(global_step_value)])

    def after_save(self, session, global_step_value):
        self.calls.append(["after_save", int(global_step_value)])

    def end(self, session, global_step_value):
        self.calls.append(["end", int(global_step_value)])


def train(tf, directory, last_step=LAST_STEP, extra_hooks=()):
    """Trains to `last_step` with MonitoredTrainingSession over `directory` (restoring its
    latest checkpoint if any). Returns dict(values, logged) where logged are the
    LoggingTensorHook lines' local iterations."""
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(7)
        model = build_model(tf)
        hooks = [tf.train.StopAtStepHook(last_step=last_step),
                 tf.train.NanTensorHook(model["loss"]),
                 tf.train.LoggingTensorHook({"loss": model["loss"]}, every_n_iter=LOG_EVERY)]
        hooks += list(extra_hooks)
        with tf.train.MonitoredTrainingSession(
                checkpoint_dir=directory, save_checkpoint_steps=SAVE_STEPS,
                save_summaries_steps=SUMMARY_STEPS, log_step_count_steps=LOG_STEP_COUNT,
                hooks=hooks) as sess:
            while not sess.should_stop():
                sess.run(model["train_op"])
        # A fresh session on the final checkpoint gives the trained values.
        with tf.Session() as s:
            saver = tf.train.Saver()
            saver.restore(s, tf.train.latest_checkpoint(directory))
            values = variable_values(tf, s)
    return {"values": values}


def checkpoint_record(tf, directory):
    """What the checkpoint directory holds: the state file's paths (base names) and the
    checkpoint files, .meta files left out (MetaGraphs are recorded elsewhere)."""
    state = tf.train.get_checkpoint_state(directory)
    files = sorted(f for f in os.listdir(directory)
                   if f.startswith("model.ckpt") and not f.endswith(".meta"))
    return {"model_checkpoint_path": os.path.basename(state.model_checkpoint_path),
            "all_model_checkpoint_paths": [os.path.basename(p)
                                           for p in state.all_model_checkpoint_paths],
            "files": files, "has_graph_pbtxt": os.path.exists(
                os.path.join(directory, "graph.pbtxt"))}


def event_record(events, directory):
    """The events of a MonitoredTrainingSession's event file in order, as
    [kind, step, detail]: session_log (status, checkpoint path), summary (tag, value; the
    rate of global_step/sec masked), graph_def. file_version and meta_graph_def events are
    left out (minitf's FileWriter does not write meta graphs yet)."""
    out = []
    for ev in events:
        kind = ev.WhichOneof("what")
        if kind == "session_log":
            path = ev.session_log.checkpoint_path.replace(directory, "<dir>")
            out.append(["session_log", int(ev.step), [int(ev.session_log.status), path]])
        elif kind == "summary":
            for v in ev.summary.value:
                value = None if v.tag.endswith("/sec") else round(float(v.simple_value), 5)
                out.append(["summary", int(ev.step), [v.tag, value]])
        elif kind == "graph_def":
            out.append(["graph_def", int(ev.step), None])
    return out


def event_files(directory):
    return sorted(os.path.join(directory, f) for f in os.listdir(directory)
                  if f.startswith("events.out.tfevents."))


def hooks_run(tf, directory):
    """A run with explicit hooks (CheckpointSaverHook with a listener, SummarySaverHook
    by secs off, StepCounterHook, FinalOpsHook, FeedFnHook, a user hook) under
    MonitoredSession: returns what each observed."""
    g = tf.Graph()
    with g.as_default():
        model = build_model(tf)
        scale = tf.placeholder_with_default(tf.constant(1.0), [], name="scale")
        scaled = model["loss"] * scale
        listener_cls = type("Listener", (RecordingListener, tf.train.CheckpointSaverListener),
                            {})
        listener = listener_cls()
        fed = []

        class Recorder(tf.train.SessionRunHook):
            def __init__(self):
                self.calls = []

            def begin(self):
                self.calls.append(["begin"])

            def after_create_session(self, session, coord):
                self.calls.append(["after_create_session"])

            def before_run(self, run_context):
                self.calls.append(["before_run"])
                return tf.train.SessionRunArgs({"scaled": scaled, "gs": model["global_step"]})

            def after_run(self, run_context, run_values):
                self.calls.append(["after_run", round(float(run_values.results["scaled"]), 5),
                                   sorted(run_values.results.keys())])
                if len(self.calls) > 14:
                    run_context.request_stop()

            def end(self, session):
                self.calls.append(["end"])

        def feed_fn():
            fed.append(len(fed))
            return {scale: 2.0}

        recorder = Recorder()
        final = tf.train.FinalOpsHook(model["loss"])
        hooks = [tf.train.CheckpointSaverHook(directory, save_steps=3, listeners=[listener]),
                 tf.train.FeedFnHook(feed_fn), final, recorder]
        creator = tf.train.ChiefSessionCreator(checkpoint_dir=directory)
        with tf.train.MonitoredSession(session_creator=creator, hooks=hooks) as sess:
            while not sess.should_stop():
                sess.run(model["train_op"])
    return {"listener": listener.calls, "recorder": recorder.calls, "fed": len(fed),
            "final": round(float(final.final_ops_values), 5),
            "checkpoints": checkpoint_record(tf, directory)}
