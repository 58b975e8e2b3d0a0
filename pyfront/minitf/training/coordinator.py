"""tf.compat.v1.train.Coordinator: lets threads ask each other to stop and report the
first error (tensorflow/python/training/coordinator.py). MonitoredSession holds one per
session; the threads it coordinates are the queue runners and the user's."""
import contextlib
import sys
import threading
import time

from minitf.framework import errors
from minitf.platform import tf_logging as logging


class Coordinator:
    """Stop flag plus the first exception reported by a coordinated thread.

    Args:
      clean_stop_exception_types: exception types that stop without being an error
        (default (OutOfRangeError,): an input exhausted ends training cleanly).
    """

    def __init__(self, clean_stop_exception_types=None):
        if clean_stop_exception_types is None:
            clean_stop_exception_types = (errors.OutOfRangeError,)
        self._clean_types = tuple(clean_stop_exception_types)
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._exc_info_to_raise = None
        self._joined = False
        self._registered_threads = set()

    def _filter_exception(self, ex):
        value = ex[1] if isinstance(ex, tuple) else ex
        return None if isinstance(value, self._clean_types) else ex

    def request_stop(self, ex=None):
        """Asks every thread to stop. `ex` (an exception, or a sys.exc_info() tuple) is
        kept when it is the first error reported, and raised by join(). After join() a
        reported error is raised at once."""
        with self._lock:
            ex = self._filter_exception(ex)
            if self._joined:
                if isinstance(ex, tuple):
                    raise ex[1]
                if ex is not None:
                    raise sys.exc_info()[1]
            if self._stop_event.is_set():
                return
            if ex and self._exc_info_to_raise is None:
                if isinstance(ex, tuple):
                    logging.info("Error reported to Coordinator: %s", str(ex[1]), exc_info=ex)
                    self._exc_info_to_raise = ex
                else:
                    logging.info("Error reported to Coordinator: %s, %s", type(ex), str(ex))
                    self._exc_info_to_raise = sys.exc_info()
                info = self._exc_info_to_raise
                if len(info) != 3 or not info[0] or not info[1]:
                    try:
                        raise ValueError("ex must be a tuple or sys.exc_info must return the "
                                         "current exception: %s" % (info,))
                    except ValueError:
                        self._exc_info_to_raise = sys.exc_info()
            self._stop_event.set()

    def clear_stop(self):
        """Forgets the stop request and the error, so threads can start again."""
        with self._lock:
            self._joined = False
            self._exc_info_to_raise = None
            self._stop_event.clear()

    def should_stop(self):
        """True once a stop was requested."""
        return self._stop_event.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self):
        """Context manager: an exception inside it is reported with request_stop."""
        try:
            yield
        except:  # noqa: E722  (as TensorFlow, every exception stops the threads)
            self.request_stop(ex=sys.exc_info())

    def wait_for_stop(self, timeout=None):
        """Blocks until a stop is requested or `timeout` seconds pass; True if stopped."""
        return self._stop_event.wait(timeout)

    def register_thread(self, thread):
        """Adds a thread that join() waits for."""
        with self._lock:
            self._registered_threads.add(thread)

    def join(self, threads=None, stop_grace_period_secs=120, ignore_live_threads=False):
        """Waits for the registered threads (and `threads`) after a stop request, up to
        `stop_grace_period_secs`; then raises the reported error, or RuntimeError naming the
        threads still alive unless ignore_live_threads."""
        with self._lock:
            threads = list(self._registered_threads.union(set(threads or [])))
        while any(t.is_alive() for t in threads) and not self.wait_for_stop(1.0):
            pass
        wait = 0.001
        while any(t.is_alive() for t in threads) and stop_grace_period_secs >= 0.0:
            time.sleep(wait)
            stop_grace_period_secs -= wait
            wait = max(min(2 * wait, stop_grace_period_secs), 0.001)
        stragglers = [t.name for t in threads if t.is_alive()]
        with self._lock:
            self._joined = True
            self._registered_threads = set()
            if self._exc_info_to_raise:
                raise self._exc_info_to_raise[1]
            if stragglers:
                msg = "Coordinator stopped with threads still running: %s" % " ".join(stragglers)
                if not ignore_live_threads:
                    raise RuntimeError(msg)
                logging.info(msg)

    @property
    def joined(self):
        return self._joined

    def raise_requested_exception(self):
        """Raises the reported error, if any."""
        with self._lock:
            if self._exc_info_to_raise:
                raise self._exc_info_to_raise[1]


class LooperThread(threading.Thread):
    """A daemon thread calling `target` every `timer_interval_secs` (or in a loop when None)
    until its coordinator stops (tf.compat.v1.train.LooperThread)."""

    def __init__(self, coord, timer_interval_secs, target=None, args=None, kwargs=None):
        if not isinstance(coord, Coordinator):
            raise ValueError("'coord' argument must be a Coordinator: %s" % coord)
        super().__init__()
        self.daemon = True
        self._coord = coord
        self._timer_interval_secs = timer_interval_secs
        self._target = target
        if target:
            self._args, self._kwargs = args or (), kwargs or {}
        elif args or kwargs:
            raise ValueError("'args' and 'kwargs' argument require that you also pass 'target'")
        coord.register_thread(self)

    @staticmethod
    def loop(coord, timer_interval_secs, target, args=None, kwargs=None):
        """Starts a LooperThread and returns it."""
        looper = LooperThread(coord, timer_interval_secs, target=target, args=args,
                              kwargs=kwargs)
        looper.start()
        return looper

    def run(self):
        with self._coord.stop_on_exception():
            self.start_loop()
            if self._timer_interval_secs is None:
                while not self._coord.should_stop():
                    self.run_loop()
            else:
                next_time = time.time()
                while not self._coord.wait_for_stop(next_time - time.time()):
                    next_time += self._timer_interval_secs
                    self.run_loop()
            self.stop_loop()

    def start_loop(self):
        """Called once when the thread starts."""

    def stop_loop(self):
        """Called once when the thread stops."""

    def run_loop(self):
        """One iteration: calls target."""
        if self._target:
            self._target(*self._args, **self._kwargs)
