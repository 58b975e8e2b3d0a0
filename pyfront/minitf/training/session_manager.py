"""tf.compat.v1.train.SessionManager (tensorflow/python/training/session_manager.py): makes
a Session whose model is ready, by restoring the latest checkpoint of a directory or by
running the init op, then the local init op, then checking the ready op."""
import time

import numpy as np

from minitf.client import session
from minitf.framework import errors, ops
from minitf.platform import tf_logging as logging
from minitf.training import checkpoint_management


def _maybe_name(obj):
    if obj is None:
        return "None"
    if hasattr(obj, "name"):
        return obj.name
    return "<no name for %s>" % type(obj)


def _restore(sess, saver, path):
    # As TensorFlow: initializers a SavedModel left in the graph run before the restore.
    init_ops = ops.get_collection("saved_model_initializers")
    if init_ops:
        sess.run(init_ops)
    saver.restore(sess, path)


class SessionManager:
    """Makes sessions for a graph and gets their model ready.

    Args:
      local_init_op: run in every new session once ready_for_local_init_op is ready.
      ready_op: a 1-D string tensor naming what is not initialized (empty = ready).
      ready_for_local_init_op: same, checked before local_init_op (needs local_init_op:
        ValueError otherwise).
      graph: default: the default graph.
      recovery_wait_secs: poll period of wait_for_session / wait_for_checkpoint.
      local_init_run_options, local_init_feed_dict: for running local_init_op.
    """

    def __init__(self, local_init_op=None, ready_op=None, ready_for_local_init_op=None,
                 graph=None, recovery_wait_secs=30, local_init_run_options=None,
                 local_init_feed_dict=None):
        if graph is None:
            graph = ops.get_default_graph()
        self._local_init_op = local_init_op
        self._ready_op = ready_op
        self._ready_for_local_init_op = ready_for_local_init_op
        self._graph = graph
        self._recovery_wait_secs = recovery_wait_secs
        self._target = None
        self._local_init_run_options = local_init_run_options
        self._local_init_feed_dict = local_init_feed_dict
        if ready_for_local_init_op is not None and local_init_op is None:
            raise ValueError("If you pass a ready_for_local_init_op you must also pass a "
                             "local_init_op , ready_for_local_init_op [%s]"
                             % ready_for_local_init_op)

    def _restore_checkpoint(self, master, saver=None, checkpoint_dir=None,
                            checkpoint_filename_with_path=None, wait_for_checkpoint=False,
                            max_wait_secs=7200, config=None):
        """A new session and whether a checkpoint was restored into it."""
        self._target = master
        sess = session.Session(self._target, graph=self._graph, config=config)
        if checkpoint_dir and checkpoint_filename_with_path:
            raise ValueError("Can not provide both checkpoint_dir and "
                             "checkpoint_filename_with_path.")
        if not saver or not (checkpoint_dir or checkpoint_filename_with_path):
            return sess, False
        if checkpoint_filename_with_path:
            _restore(sess, saver, checkpoint_filename_with_path)
            return sess, True
        wait_time = 0
        ckpt = checkpoint_management.get_checkpoint_state(checkpoint_dir)
        while not ckpt or not ckpt.model_checkpoint_path:
            if not (wait_for_checkpoint and wait_time < max_wait_secs):
                return sess, False
            logging.info("Waiting for checkpoint to be available.")
            time.sleep(self._recovery_wait_secs)
            wait_time += self._recovery_wait_secs
            ckpt = checkpoint_management.get_checkpoint_state(checkpoint_dir)
        _restore(sess, saver, ckpt.model_checkpoint_path)
        # The saver keeps deleting the old checkpoints it finds, past max_to_keep.
        saver.recover_last_checkpoints(ckpt.all_model_checkpoint_paths)
        return sess, True

    def prepare_session(self, master, init_op=None, saver=None, checkpoint_dir=None,
                        checkpoint_filename_with_path=None, wait_for_checkpoint=False,
                        max_wait_secs=7200, config=None, init_feed_dict=None, init_fn=None):
        """A session with the model ready: restored from checkpoint_filename_with_path or
        the latest checkpoint of checkpoint_dir when there is one, else initialized by
        init_op (with init_feed_dict) and init_fn(sess); then local_init_op.

        Raises RuntimeError when nothing can initialize the model ("Model is not
        initialized and no init_op or init_fn or local_init_op was given") or the ready
        ops still report variables ("Init operations did not make model ready..."),
        ValueError for both checkpoint arguments, and the restore's errors.
        """
        sess, restored = self._restore_checkpoint(
            master, saver, checkpoint_dir=checkpoint_dir,
            checkpoint_filename_with_path=checkpoint_filename_with_path,
            wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs,
            config=config)
        if not restored:
            if init_op is None and not init_fn and self._local_init_op is None:
                raise RuntimeError("Model is not initialized and no init_op or init_fn or "
                                   "local_init_op was given")
            if init_op is not None:
                sess.run(init_op, feed_dict=init_feed_dict)
            if init_fn:
                init_fn(sess)
        ok, msg = self._try_run_local_init_op(sess)
        if not ok:
            raise RuntimeError("Init operations did not make model ready for local_init.  "
                               "Init op: %s, init fn: %s, error: %s"
                               % (_maybe_name(init_op), init_fn, msg))
        ready, msg = self._model_ready(sess)
        if not ready:
            raise RuntimeError("Init operations did not make model ready.  Init op: %s, init "
                               "fn: %s, local_init_op: %s, error: %s"
                               % (_maybe_name(init_op), init_fn, self._local_init_op, msg))
        return sess

    def recover_session(self, master, saver=None, checkpoint_dir=None,
                        checkpoint_filename_with_path=None, wait_for_checkpoint=False,
                        max_wait_secs=7200, config=None):
        """(session, True) when a checkpoint was restored and made the model ready, else
        (session, False) with the model possibly uninitialized."""
        sess, restored = self._restore_checkpoint(
            master, saver, checkpoint_dir=checkpoint_dir,
            checkpoint_filename_with_path=checkpoint_filename_with_path,
            wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs,
            config=config)
        ok, msg = self._try_run_local_init_op(sess)
        if not restored:
            return sess, False
        restoring_file = checkpoint_dir or checkpoint_filename_with_path
        if not ok:
            logging.info("Restoring model from %s did not make model ready for local init: %s",
                         restoring_file, msg)
            return sess, False
        ready, msg = self._model_ready(sess)
        if not ready:
            logging.info("Restoring model from %s did not make model ready: %s",
                         restoring_file, msg)
            return sess, False
        logging.info("Restored model from %s", restoring_file)
        return sess, restored

    def wait_for_session(self, master, config=None, max_wait_secs=float("Inf")):
        """A session whose model another process made ready, polling every
        recovery_wait_secs; DeadlineExceededError after max_wait_secs."""
        self._target = master
        if max_wait_secs is None:
            max_wait_secs = float("Inf")
        start = time.time()
        while True:
            sess = session.Session(self._target, graph=self._graph, config=config)
            not_ready_msg = None
            ok, not_ready_local_msg = self._try_run_local_init_op(sess)
            if ok:
                ready, not_ready_msg = self._model_ready(sess)
                if ready:
                    return sess
            self._safe_close(sess)
            remaining = max(0, max_wait_secs - (time.time() - start))
            if remaining - self._recovery_wait_secs < 0:
                raise errors.DeadlineExceededError(
                    None, None, "Session was not ready after waiting %d secs."
                    % (max_wait_secs,))
            logging.info("Waiting for model to be ready.  Ready_for_local_init_op:  %s, "
                         "ready: %s", not_ready_local_msg, not_ready_msg)
            time.sleep(self._recovery_wait_secs)

    def _safe_close(self, sess):
        try:
            sess.close()
        except Exception:  # noqa: BLE001  (closing a session that failed to get ready)
            pass

    def _model_ready(self, sess):
        return _ready(self._ready_op, sess, "Model not ready")

    def _model_ready_for_local_init(self, sess):
        return _ready(self._ready_for_local_init_op, sess, "Model not ready for local init")

    def _try_run_local_init_op(self, sess):
        if self._local_init_op is None:
            return True, None
        ready, msg = self._model_ready_for_local_init(sess)
        if not ready:
            return False, msg
        logging.info("Running local_init_op.")
        sess.run(self._local_init_op, feed_dict=self._local_init_feed_dict,
                 options=self._local_init_run_options)
        logging.info("Done running local_init_op.")
        return True, None


def _ready(op, sess, msg):
    """(True, None) when `op` reports nothing uninitialized, else (False, message)."""
    if op is None:
        return True, None
    try:
        value = sess.run(op)
        if value is None or value.dtype == np.int32 or value.size == 0:
            return True, None
        names = ", ".join(v.decode("utf-8") for v in value)
        return False, "Variables not initialized: " + names
    except errors.FailedPreconditionError as e:
        if "uninitialized" not in str(e):
            logging.warning("%s : error [%s]", msg, str(e))
            raise
        return False, str(e)


__all__ = ["SessionManager"]
