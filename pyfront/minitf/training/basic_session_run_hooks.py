"""The standard hooks of MonitoredSession
(tensorflow/python/training/basic_session_run_hooks.py): StopAtStepHook,
CheckpointSaverHook (+ CheckpointSaverListener), LoggingTensorHook, NanTensorHook,
SummarySaverHook, StepCounterHook, GlobalStepWaiterHook, FinalOpsHook, FeedFnHook, and the
SecondOrStepTimer they share. Steps are the global step's values; the hooks read it through
training_util._get_or_create_global_step_read (one cached "global_step/add" tensor)."""
import os
import time

import numpy as np

from minitf.core.framework.summary_pb2 import Summary
from minitf.core.util.event_pb2 import SessionLog
from minitf.framework import errors, ops
from minitf.platform import tf_logging as logging
from minitf.summary.writer import FileWriterCache as SummaryWriterCache
from minitf.training import training_util
from minitf.training.session_run_hook import SessionRunArgs, SessionRunHook


class _HookTimer:
    """When a hook triggers, by step or by time."""

    def reset(self):
        """Forgets the last trigger."""

    def should_trigger_for_step(self, step):
        raise NotImplementedError

    def update_last_triggered_step(self, step):
        raise NotImplementedError

    def last_triggered_step(self):
        raise NotImplementedError


class SecondOrStepTimer(_HookTimer):
    """Triggers every `every_secs` seconds or every `every_steps` steps (exactly one given;
    ValueError otherwise) (tf.compat.v1.train.SecondOrStepTimer). The first query
    triggers; a step already triggered never triggers again."""

    def __init__(self, every_secs=None, every_steps=None):
        self.reset()
        self._every_secs = every_secs
        self._every_steps = every_steps
        if every_secs is None and every_steps is None:
            raise ValueError("Either every_secs or every_steps should be provided.")
        if every_secs is not None and every_steps is not None:
            raise ValueError("Can not provide both every_secs and every_steps.")

    def reset(self):
        self._last_triggered_step = None
        self._last_triggered_time = None

    def should_trigger_for_step(self, step):
        """True when `step` is due: the first query, or `every_steps` past the last trigger,
        or `every_secs` seconds after it."""
        if self._last_triggered_step is None:
            return True
        if self._last_triggered_step == step:
            return False
        if self._every_secs is not None and (
                time.time() >= self._last_triggered_time + self._every_secs):
            return True
        if self._every_steps is not None and (
                step >= self._last_triggered_step + self._every_steps):
            return True
        return False

    def update_last_triggered_step(self, step):
        """Records a trigger at `step`; returns (seconds, steps) since the previous one
        ((None, None) the first time)."""
        now = time.time()
        if self._last_triggered_time is None:
            elapsed = (None, None)
        else:
            elapsed = (now - self._last_triggered_time, step - self._last_triggered_step)
        self._last_triggered_time = now
        self._last_triggered_step = step
        return elapsed

    def last_triggered_step(self):
        return self._last_triggered_step


class NeverTriggerTimer(_HookTimer):
    """A timer that never triggers (LoggingTensorHook with only at_end)."""

    def should_trigger_for_step(self, step):
        return False

    def update_last_triggered_step(self, step):
        return (None, None)

    def last_triggered_step(self):
        return None


def _as_graph_element(obj):
    # A tensor of the default graph, or the tensor a name denotes ("x" means "x:0" and
    # must not be ambiguous).
    graph = ops.get_default_graph()
    if not isinstance(obj, str):
        if not hasattr(obj, "graph") or obj.graph != graph:
            raise ValueError("Passed %s should have graph attribute that is equal to current "
                             "graph %s." % (obj, graph))
        return obj
    if ":" in obj:
        return graph.as_graph_element(obj)
    element = graph.as_graph_element(obj + ":0")
    try:
        graph.as_graph_element(obj + ":1")
    except (KeyError, ValueError):
        return element
    raise ValueError("Name %s is ambiguous, as this `Operation` has multiple outputs "
                     "(at least 2)." % obj)


def _global_step_read(hook_name):
    step = training_util._get_or_create_global_step_read()
    if step is None:
        raise RuntimeError("Global step should be created to use %s." % hook_name)
    return step


class LoggingTensorHook(SessionRunHook):
    """Logs tensors with tf.logging.info every `every_n_iter` local iterations or every
    `every_n_secs` seconds, and/or once at the end (tf.compat.v1.train.LoggingTensorHook).

    Args:
      tensors: dict {tag: tensor or name} (logged in sorted tag order) or an iterable of
        tensors or names (logged in that order, tagged by themselves).
      every_n_iter / every_n_secs: exactly one, unless only at_end.
      at_end: also log the values in end().
      formatter: callable(dict tag -> value) -> str; default "tag = value, ..." with the
        seconds since the last log appended as " (%.3f sec)".
    Raises ValueError for neither or both periods, or every_n_iter <= 0.
    """

    def __init__(self, tensors, every_n_iter=None, every_n_secs=None, at_end=False,
                 formatter=None):
        only_log_at_end = at_end and every_n_iter is None and every_n_secs is None
        if not only_log_at_end and (every_n_iter is None) == (every_n_secs is None):
            raise ValueError("either at_end and/or exactly one of every_n_iter and "
                             "every_n_secs must be provided.")
        if every_n_iter is not None and every_n_iter <= 0:
            raise ValueError("invalid every_n_iter=%s." % every_n_iter)
        if not isinstance(tensors, dict):
            self._tag_order = tensors
            tensors = {item: item for item in tensors}
        else:
            self._tag_order = sorted(tensors.keys())
        self._tensors = tensors
        self._formatter = formatter
        self._timer = (NeverTriggerTimer() if only_log_at_end else
                       SecondOrStepTimer(every_secs=every_n_secs, every_steps=every_n_iter))
        self._log_at_end = at_end

    def begin(self):
        self._timer.reset()
        self._iter_count = 0
        self._current_tensors = {tag: _as_graph_element(t) for tag, t in self._tensors.items()}

    def before_run(self, run_context):
        self._should_trigger = self._timer.should_trigger_for_step(self._iter_count)
        return SessionRunArgs(self._current_tensors) if self._should_trigger else None

    def _log_tensors(self, tensor_values):
        original = np.get_printoptions()
        np.set_printoptions(suppress=True)
        elapsed_secs, _ = self._timer.update_last_triggered_step(self._iter_count)
        try:
            if self._formatter:
                logging.info(self._formatter(tensor_values))
            else:
                stats = ", ".join("%s = %s" % (tag, tensor_values[tag])
                                  for tag in self._tag_order)
                if elapsed_secs is not None:
                    logging.info("%s (%.3f sec)", stats, elapsed_secs)
                else:
                    logging.info("%s", stats)
        finally:
            np.set_printoptions(**original)

    def after_run(self, run_context, run_values):
        if self._should_trigger:
            self._log_tensors(run_values.results)
        self._iter_count += 1

    def end(self, session):
        if self._log_at_end:
            self._log_tensors(session.run(self._current_tensors))


class StopAtStepHook(SessionRunHook):
    """Requests a stop once the global step reaches `last_step`, or `num_steps` past its
    value when the session was made (tf.compat.v1.train.StopAtStepHook). Exactly one of
    them (ValueError otherwise); RuntimeError in begin() without a global step."""

    def __init__(self, num_steps=None, last_step=None):
        if num_steps is None and last_step is None:
            raise ValueError("One of num_steps or last_step must be specified.")
        if num_steps is not None and last_step is not None:
            raise ValueError("Only one of num_steps or last_step can be specified.")
        self._num_steps = num_steps
        self._last_step = last_step

    def begin(self):
        self._global_step_tensor = _global_step_read("StopAtStepHook")

    def after_create_session(self, session, coord):
        if self._last_step is None:
            self._last_step = session.run(self._global_step_tensor) + self._num_steps

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        # The fetched step was read before this run's increment: +1 guesses the new value,
        # and only a guess at or past last_step costs an extra read.
        if run_values.results + 1 >= self._last_step:
            if run_context.session.run(self._global_step_tensor) >= self._last_step:
                run_context.request_stop()


class CheckpointSaverListener:
    """Called by CheckpointSaverHook around each save (tf.compat.v1.train.
    CheckpointSaverListener). after_save returning True stops training."""

    def begin(self):
        pass

    def before_save(self, session, global_step_value):
        pass

    def after_save(self, session, global_step_value):
        pass

    def end(self, session, global_step_value):
        pass


class CheckpointSaverHook(SessionRunHook):
    """Saves checkpoints `checkpoint_dir/checkpoint_basename-<global step>` when the session
    is made, every `save_secs` seconds or `save_steps` steps, and at the end unless the last
    step was just saved (tf.compat.v1.train.CheckpointSaverHook).

    The saver is `saver`, else the scaffold's, else the one in the SAVERS collection
    (RuntimeError if none or several). ValueError for both saver and scaffold, or for
    neither or both of save_secs/save_steps. With save_graph_def, writes graph.pbtxt into
    checkpoint_dir and the graph and meta graph to its event file.
    A SessionLog CHECKPOINT event at the saved step follows every save.
    """

    def __init__(self, checkpoint_dir, save_secs=None, save_steps=None, saver=None,
                 checkpoint_basename="model.ckpt", scaffold=None, listeners=None,
                 save_graph_def=True):
        logging.info("Create CheckpointSaverHook.")
        if saver is not None and scaffold is not None:
            raise ValueError("You cannot provide both saver and scaffold.")
        self._saver = saver
        self._checkpoint_dir = checkpoint_dir
        self._save_path = os.path.join(checkpoint_dir, checkpoint_basename)
        self._scaffold = scaffold
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)
        self._listeners = listeners or []
        self._steps_per_run = 1000000
        self._save_graph_def = save_graph_def

    def _set_steps_per_run(self, steps_per_run):
        self._steps_per_run = steps_per_run

    def begin(self):
        self._summary_writer = SummaryWriterCache.get(self._checkpoint_dir)
        self._global_step_tensor = _global_step_read("CheckpointSaverHook")
        for listener in self._listeners:
            listener.begin()

    def after_create_session(self, session, coord):
        global_step = session.run(self._global_step_tensor)
        graph = ops.get_default_graph()
        if self._save_graph_def:
            training_util.write_graph(graph.as_graph_def(add_shapes=True),
                                      self._checkpoint_dir, "graph.pbtxt")
        self._summary_writer.add_graph(graph)
        self._summary_writer.add_meta_graph(self._meta_graph_def(graph))
        self._save(session, global_step)
        self._timer.update_last_triggered_step(global_step)

    def _meta_graph_def(self, graph):
        from minitf.framework import meta_graph
        saver = self._get_saver()
        return meta_graph.create_meta_graph_def(
            graph_def=graph.as_graph_def(add_shapes=True),
            saver_def=saver.saver_def if saver else None)

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        stale_global_step = run_values.results
        if self._timer.should_trigger_for_step(stale_global_step + self._steps_per_run):
            global_step = run_context.session.run(self._global_step_tensor)
            if self._timer.should_trigger_for_step(global_step):
                self._timer.update_last_triggered_step(global_step)
                if self._save(run_context.session, global_step):
                    run_context.request_stop()

    def end(self, session):
        last_step = session.run(self._global_step_tensor)
        if last_step != self._timer.last_triggered_step():
            self._save(session, last_step)
        for listener in self._listeners:
            listener.end(session, last_step)
        # TF's writer thread has the events in the file by now; this writer queues them,
        # so the run's graph and checkpoint events are written out here.
        self._summary_writer.flush()

    def _save(self, session, step):
        """Saves at `step`; True when a listener asks to stop."""
        logging.info("Calling checkpoint listeners before saving checkpoint %d...", step)
        for listener in self._listeners:
            listener.before_save(session, step)
        logging.info("Saving checkpoints for %d into %s.", step, self._save_path)
        self._get_saver().save(session, self._save_path, global_step=step,
                               write_meta_graph=self._save_graph_def)
        self._summary_writer.add_session_log(
            SessionLog(status=SessionLog.CHECKPOINT, checkpoint_path=self._save_path), step)
        logging.info("Calling checkpoint listeners after saving checkpoint %d...", step)
        should_stop = False
        for listener in self._listeners:
            if listener.after_save(session, step):
                logging.info("A CheckpointSaverListener requested that training be stopped. "
                             "listener: {}".format(listener))
                should_stop = True
        return should_stop

    def _get_saver(self):
        if self._saver is not None:
            return self._saver
        if self._scaffold is not None:
            return self._scaffold.saver
        savers = ops.get_collection(ops.GraphKeys.SAVERS)
        if not savers:
            raise RuntimeError("No items in collection {}. Please add a saver to the "
                               "collection or provide a saver or scaffold."
                               .format(ops.GraphKeys.SAVERS))
        if len(savers) > 1:
            raise RuntimeError("More than one item in collection {}. Please indicate which "
                               "one to use by passing it to the constructor."
                               .format(ops.GraphKeys.SAVERS))
        self._saver = savers[0]
        return savers[0]


class StepCounterHook(SessionRunHook):
    """Logs and writes global steps per second, "<global step op name>/sec", every
    `every_n_steps` steps or `every_n_secs` seconds (exactly one; ValueError otherwise)
    (tf.compat.v1.train.StepCounterHook). The first trigger only starts the clock."""

    def __init__(self, every_n_steps=100, every_n_secs=None, output_dir=None,
                 summary_writer=None):
        if (every_n_steps is None) == (every_n_secs is None):
            raise ValueError("exactly one of every_n_steps and every_n_secs should be "
                             "provided.")
        self._timer = SecondOrStepTimer(every_steps=every_n_steps, every_secs=every_n_secs)
        self._summary_writer = summary_writer
        self._output_dir = output_dir
        self._last_global_step = None
        self._steps_per_run = 1

    def _set_steps_per_run(self, steps_per_run):
        self._steps_per_run = steps_per_run

    def begin(self):
        if self._summary_writer is None and self._output_dir:
            self._summary_writer = SummaryWriterCache.get(self._output_dir)
        self._global_step_tensor = _global_step_read("StepCounterHook")
        self._summary_tag = training_util.get_global_step().op.name + "/sec"

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def _log_and_record(self, elapsed_steps, elapsed_time, global_step):
        steps_per_sec = elapsed_steps / elapsed_time
        if self._summary_writer is not None:
            summary = Summary(value=[Summary.Value(tag=self._summary_tag,
                                                   simple_value=steps_per_sec)])
            self._summary_writer.add_summary(summary, global_step)
        logging.info("%s: %g", self._summary_tag, steps_per_sec)

    def after_run(self, run_context, run_values):
        stale_global_step = run_values.results
        if self._timer.should_trigger_for_step(stale_global_step + self._steps_per_run):
            global_step = run_context.session.run(self._global_step_tensor)
            if self._timer.should_trigger_for_step(global_step):
                elapsed_time, elapsed_steps = self._timer.update_last_triggered_step(
                    global_step)
                if elapsed_time is not None:
                    self._log_and_record(elapsed_steps, elapsed_time, global_step)
        if stale_global_step == self._last_global_step:
            logging.log_first_n(
                logging.WARN,
                "It seems that global step (tf.train.get_global_step) has not been increased. "
                "Current value (could be stable): %s vs previous value: %s. You could "
                "increase the global step by passing tf.train.get_global_step() to "
                "Optimizer.apply_gradients or Optimizer.minimize.", 5, stale_global_step,
                self._last_global_step)
        self._last_global_step = stale_global_step


class NanLossDuringTrainingError(RuntimeError):
    """Raised by NanTensorHook (str: "NaN loss during training.")."""

    def __str__(self):
        return "NaN loss during training."


class NanTensorHook(SessionRunHook):
    """Fetches `loss_tensor` every run; on NaN logs "Model diverged with loss = NaN." and
    raises NanLossDuringTrainingError (fail_on_nan_loss) or requests a stop
    (tf.compat.v1.train.NanTensorHook)."""

    def __init__(self, loss_tensor, fail_on_nan_loss=True):
        self._loss_tensor = loss_tensor
        self._fail_on_nan_loss = fail_on_nan_loss

    def before_run(self, run_context):
        return SessionRunArgs(self._loss_tensor)

    def after_run(self, run_context, run_values):
        if np.isnan(run_values.results):
            failure_message = "Model diverged with loss = NaN."
            if self._fail_on_nan_loss:
                logging.error(failure_message)
                raise NanLossDuringTrainingError
            logging.warning(failure_message)
            run_context.request_stop()


class SummarySaverHook(SessionRunHook):
    """Writes the summaries of `summary_op` (or of the scaffold's summary_op; exactly one
    given, ValueError otherwise) every `save_steps` steps or `save_secs` seconds to the
    writer of `output_dir` (or `summary_writer`), at the global step after the run; a
    SessionLog START event at the first run (tf.compat.v1.train.SummarySaverHook)."""

    def __init__(self, save_steps=None, save_secs=None, output_dir=None, summary_writer=None,
                 scaffold=None, summary_op=None):
        if (scaffold is None) == (summary_op is None):
            raise ValueError("Exactly one of scaffold or summary_op must be provided.")
        self._summary_op = summary_op
        self._summary_writer = summary_writer
        self._output_dir = output_dir
        self._scaffold = scaffold
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)

    def begin(self):
        if self._summary_writer is None and self._output_dir:
            self._summary_writer = SummaryWriterCache.get(self._output_dir)
        self._next_step = None
        self._global_step_tensor = _global_step_read("SummarySaverHook")

    def before_run(self, run_context):
        self._request_summary = (self._next_step is None or
                                 self._timer.should_trigger_for_step(self._next_step))
        requests = {"global_step": self._global_step_tensor}
        if self._request_summary and self._get_summary_op() is not None:
            requests["summary"] = self._get_summary_op()
        return SessionRunArgs(requests)

    def after_run(self, run_context, run_values):
        if not self._summary_writer:
            return
        global_step = run_values.results["global_step"] + 1
        if self._next_step is None or self._request_summary:
            global_step = run_context.session.run(self._global_step_tensor)
        if self._next_step is None:
            self._summary_writer.add_session_log(SessionLog(status=SessionLog.START),
                                                 global_step)
        if self._request_summary:
            self._timer.update_last_triggered_step(global_step)
            for summary in run_values.results.get("summary", []):
                self._summary_writer.add_summary(summary, global_step)
        self._next_step = global_step + 1

    def end(self, session=None):
        if self._summary_writer:
            self._summary_writer.flush()

    def _get_summary_op(self):
        op = self._summary_op if self._summary_op is not None else self._scaffold.summary_op
        if op is None:
            return None
        return op if isinstance(op, list) else [op]


class GlobalStepWaiterHook(SessionRunHook):
    """Holds the first run until the global step reaches `wait_until_step`, polling every
    0.5 s (tf.compat.v1.train.GlobalStepWaiterHook; for workers that start late)."""

    def __init__(self, wait_until_step):
        self._wait_until_step = wait_until_step

    def begin(self):
        self._worker_is_started = False
        self._global_step_tensor = _global_step_read("_GlobalStepWaiterHook")

    def before_run(self, run_context):
        if self._worker_is_started:
            return None
        if self._wait_until_step <= 0:
            self._worker_is_started = True
            return None
        logging.info("Waiting for global step %d before starting training.",
                     self._wait_until_step)
        last_logged_step = 0
        while True:
            current_step = run_context.session.run(self._global_step_tensor)
            if current_step >= self._wait_until_step:
                self._worker_is_started = True
                return None
            if current_step - last_logged_step > 1000:
                logging.info("Waiting for global step %d before starting training. Current "
                             "step is %d.", self._wait_until_step, current_step)
                last_logged_step = current_step
            time.sleep(0.5)


class FinalOpsHook(SessionRunHook):
    """Runs `final_ops` (with `final_ops_feed_dict`) in end(); their values are
    final_ops_values (tf.compat.v1.train.FinalOpsHook). An OutOfRangeError or StopIteration
    there is logged with TensorFlow's warning and re-raised."""

    def __init__(self, final_ops, final_ops_feed_dict=None):
        self._final_ops = final_ops
        self._final_ops_feed_dict = final_ops_feed_dict
        self._final_ops_values = None

    @property
    def final_ops_values(self):
        return self._final_ops_values

    def end(self, session):
        if self._final_ops is None:
            return
        try:
            self._final_ops_values = session.run(self._final_ops,
                                                 feed_dict=self._final_ops_feed_dict)
        except (errors.OutOfRangeError, StopIteration):
            logging.warning(
                "An OutOfRangeError or StopIteration exception is raised by the code in "
                "FinalOpsHook. This typically means the Ops running by the FinalOpsHook have "
                "a dependency back to some input source, which should not happen. For "
                "example, for metrics in tf.estimator.Estimator, all metrics functions return "
                "two Ops: `value_op` and  `update_op`. Estimator.evaluate calls the "
                "`update_op` for each batch of the data in input source and, once it is "
                "exhausted, it call the `value_op` to get the metric values. The `value_op` "
                "here should have dependency back to variables reading only, rather than "
                "reading another batch from input. Otherwise, the `value_op`, executed by "
                "`FinalOpsHook`, triggers another data reading, which ends "
                "OutOfRangeError/StopIteration. Please fix that.")
            raise


class FeedFnHook(SessionRunHook):
    """Feeds `feed_fn()` (a dict) into every run (tf.compat.v1.train.FeedFnHook)."""

    def __init__(self, feed_fn):
        self.feed_fn = feed_fn

    def before_run(self, run_context):
        return SessionRunArgs(fetches=None, feed_dict=self.feed_fn())


__all__ = ["CheckpointSaverHook", "CheckpointSaverListener", "FeedFnHook", "FinalOpsHook",
           "GlobalStepWaiterHook", "LoggingTensorHook", "NanLossDuringTrainingError",
           "NanTensorHook", "NeverTriggerTimer", "SecondOrStepTimer", "StepCounterHook",
           "StopAtStepHook", "SummarySaverHook", "SummaryWriterCache"]
