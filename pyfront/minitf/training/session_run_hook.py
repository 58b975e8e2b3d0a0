"""The hook protocol of MonitoredSession (tensorflow/python/training/session_run_hook.py):
SessionRunHook, SessionRunArgs, SessionRunContext, SessionRunValues.

A MonitoredSession calls, per hook and in the order the hooks were given:
begin() once before the graph is finalized; after_create_session(session, coord) each time
a session is (re)created; before_run(run_context) before every run(), whose SessionRunArgs
are merged into that run; after_run(run_context, run_values) with the hook's own results;
end(session) when the session is closed without an error.
"""
import collections


class SessionRunHook:
    """Base class of hooks; every method does nothing."""

    def begin(self):
        """Called once before the session is made; the graph may still be changed."""

    def after_create_session(self, session, coord):
        """Called with the new tf.Session and its Coordinator; the graph is finalized."""

    def before_run(self, run_context):
        """Returns None or a SessionRunArgs adding fetches, feeds and options to the
        coming run() call."""
        return None

    def after_run(self, run_context, run_values):
        """Called after each run(); run_values.results holds what before_run asked for.
        run_context.request_stop() ends the loop."""

    def end(self, session):
        """Called when the monitored session closes without an error (also after an
        OutOfRangeError ended a `with` block)."""


class SessionRunArgs(collections.namedtuple("SessionRunArgs",
                                            ["fetches", "feed_dict", "options"])):
    """What a hook adds to a run: fetches (any structure Session.run takes, or None), a
    feed_dict and RunOptions (merged with the caller's: maximum trace level and
    timeout)."""

    def __new__(cls, fetches, feed_dict=None, options=None):
        return super().__new__(cls, fetches, feed_dict, options)


class SessionRunContext:
    """The run() call a hook sees: the caller's original SessionRunArgs, the raw session
    (safe for extra session.run calls from a hook), and request_stop()."""

    def __init__(self, original_args, session):
        self._original_args = original_args
        self._session = session
        self._stop_requested = False

    @property
    def original_args(self):
        """SessionRunArgs(fetches, feed_dict) of the caller's run()."""
        return self._original_args

    @property
    def session(self):
        """The tf.Session under the monitored session."""
        return self._session

    @property
    def stop_requested(self):
        """True once a hook called request_stop()."""
        return self._stop_requested

    def request_stop(self):
        """Makes should_stop() true after this run."""
        self._stop_requested = True


class SessionRunValues(collections.namedtuple("SessionRunValues",
                                              ["results", "options", "run_metadata"])):
    """What after_run gets: the results of the hook's fetches (same structure), the
    merged RunOptions and the RunMetadata of the run."""


__all__ = ["SessionRunHook", "SessionRunArgs", "SessionRunContext", "SessionRunValues"]
