"""tf.train.QueueRunner, add_queue_runner, start_queue_runners (TensorFlow 2.21's
queue_runner_impl.py): threads that run a queue's enqueue ops until it is closed or their
Coordinator asks them to stop.

Each enqueue op gets a thread that runs it in a loop. A run that fails with one of
`queue_closed_exception_types` (OutOfRangeError: its input is exhausted) ends the thread; the
last one to end closes the queue, so consumers drain it and then see OutOfRangeError. Any other
error is reported to the Coordinator (request_stop(e), raised by its join), or, without one,
kept in `exceptions_raised` and raised in the thread. With a Coordinator one more thread waits
for the stop request and runs the cancel op (close with cancel_pending_enqueues), so enqueue
threads blocked on a full queue end at once: stopping never hangs.
"""
import threading
import weakref

from minitf.framework import errors, ops
from minitf.platform import tf_logging as logging


class QueueRunner:
    """Holds a queue, its enqueue ops and its close/cancel ops, and makes the threads.

    Args:
      queue: a QueueBase. enqueue_ops: list of enqueue ops, one thread each.
      close_op: run when every thread ended (default queue.close()).
      cancel_op: run when the Coordinator stops (default
        queue.close(cancel_pending_enqueues=True)).
      queue_closed_exception_types: tuple of OpError classes that end a thread cleanly
        (default (OutOfRangeError,)).
      queue_runner_def, import_scope: not supported (ValueError), as minitf has no
        QueueRunnerDef proto.

    Raises:
      ValueError: queue or enqueue_ops missing. TypeError: queue_closed_exception_types not a
      non-empty tuple of tf.errors types.
    """

    def __init__(self, queue=None, enqueue_ops=None, close_op=None, cancel_op=None,
                 queue_closed_exception_types=None, queue_runner_def=None, import_scope=None):
        if queue_runner_def is not None:
            raise ValueError("QueueRunnerDef protos are not supported by minitf.")
        if not queue or not enqueue_ops:
            raise ValueError("Must provide queue and enqueue_ops.")
        self._queue = queue
        self._enqueue_ops = enqueue_ops
        self._close_op = close_op
        self._cancel_op = cancel_op
        if queue_closed_exception_types is not None:
            if (not isinstance(queue_closed_exception_types, tuple) or
                    not queue_closed_exception_types or
                    not all(issubclass(t, errors.OpError) for t in queue_closed_exception_types)):
                raise TypeError("queue_closed_exception_types, when provided, must be a tuple "
                                "of tf.error types, but saw: %s" % (queue_closed_exception_types,))
        if self._close_op is None:
            self._close_op = self._queue.close()
        if self._cancel_op is None:
            self._cancel_op = self._queue.close(cancel_pending_enqueues=True)
        self._queue_closed_exception_types = tuple(
            queue_closed_exception_types or (errors.OutOfRangeError,))
        self._lock = threading.Lock()
        self._runs_per_session = weakref.WeakKeyDictionary()
        self._exceptions_raised = []

    @property
    def queue(self):
        return self._queue

    @property
    def enqueue_ops(self):
        return self._enqueue_ops

    @property
    def close_op(self):
        return self._close_op

    @property
    def cancel_op(self):
        return self._cancel_op

    @property
    def queue_closed_exception_types(self):
        return self._queue_closed_exception_types

    @property
    def exceptions_raised(self):
        """Exceptions the threads raised without a Coordinator."""
        return self._exceptions_raised

    @property
    def name(self):
        """The queue's name."""
        return self._queue.name

    def _thread_done(self, sess):
        """One thread of `sess` ended; the last closes the queue."""
        with self._lock:
            self._runs_per_session[sess] -= 1
            last = self._runs_per_session[sess] == 0
        if last:
            try:
                sess.run(self._close_op)
            except Exception as e:  # noqa: BLE001  (as TensorFlow: closing errors are dropped)
                logging.vlog(1, "Ignored exception: %s", str(e))

    def _run(self, sess, enqueue_op, coord=None):
        done = False
        try:
            enqueue_callable = sess.make_callable(enqueue_op)
            while not (coord and coord.should_stop()):
                try:
                    enqueue_callable()
                except self._queue_closed_exception_types:
                    done = True
                    self._thread_done(sess)
                    return
        except Exception as e:  # noqa: BLE001  (every error stops the input, as TensorFlow)
            if coord:
                coord.request_stop(e)
            else:
                logging.error("Exception in QueueRunner: %s", str(e))
                with self._lock:
                    self._exceptions_raised.append(e)
                raise
        finally:
            if not done:
                with self._lock:
                    self._runs_per_session[sess] -= 1

    def _close_on_stop(self, sess, cancel_op, coord):
        coord.wait_for_stop()
        try:
            sess.run(cancel_op)
        except Exception as e:  # noqa: BLE001
            logging.vlog(1, "Ignored exception: %s", str(e))

    def create_threads(self, sess, coord=None, daemon=False, start=False):
        """Makes (and with start, starts) one thread per enqueue op, plus the cancel thread
        when `coord` is given; threads are registered with `coord`. Returns the list of
        threads, empty when threads of this runner are already running for `sess`."""
        with self._lock:
            if self._runs_per_session.get(sess, 0) > 0:
                return []
            self._runs_per_session[sess] = len(self._enqueue_ops)
            self._exceptions_raised = []
        threads = [threading.Thread(target=self._run, args=(sess, op, coord),
                                    name="QueueRunnerThread-%s-%s" % (self.name, op.name))
                   for op in self._enqueue_ops]
        if coord:
            threads.append(threading.Thread(
                target=self._close_on_stop, args=(sess, self._cancel_op, coord),
                name="QueueRunnerThread-%s-close_on_stop" % self.name))
        for t in threads:
            if coord:
                coord.register_thread(t)
            if daemon:
                t.daemon = True
            if start:
                t.start()
        return threads


def add_queue_runner(qr, collection=ops.GraphKeys.QUEUE_RUNNERS):
    """Adds `qr` to the graph collection `collection` (tf.train.add_queue_runner)."""
    ops.add_to_collection(collection, qr)


def start_queue_runners(sess=None, coord=None, daemon=True, start=True,
                        collection=ops.GraphKeys.QUEUE_RUNNERS):
    """Starts the threads of every QueueRunner in `collection` of sess's graph
    (tf.train.start_queue_runners). Returns the list of threads.

    Raises:
      ValueError: no session given and no default session. TypeError: sess not a Session
      (a MonitoredSession gives [], as it started its runners itself).
    """
    from minitf.client.session import BaseSession
    if sess is None:
        sess = ops.get_default_session()
        if not sess:
            raise ValueError("Cannot start queue runners: No default session is registered. "
                             "Use `with sess.as_default()` or pass an explicit session to "
                             "tf.start_queue_runners(sess=sess)")
    if not isinstance(sess, BaseSession):
        if sess.__class__.__name__ in ("MonitoredSession", "SingularMonitoredSession"):
            return []
        raise TypeError("sess must be a `tf.Session` object. Given class: {}".format(
            sess.__class__))
    queue_runners = ops.get_collection(collection)
    if not queue_runners:
        logging.warning("`tf.train.start_queue_runners()` was called when no queue runners "
                        "were defined. You can safely remove the call to this deprecated "
                        "function.")
    with sess.graph.as_default():
        threads = []
        for qr in queue_runners:
            threads.extend(qr.create_threads(sess, coord=coord, daemon=daemon, start=start))
    return threads
