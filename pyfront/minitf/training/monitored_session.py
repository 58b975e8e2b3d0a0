"""Monitored training sessions (tensorflow/python/training/monitored_session.py):
Scaffold, the session creators, MonitoredSession / SingularMonitoredSession and
MonitoredTrainingSession.

A MonitoredSession is a stack of wrappers over one tf.Session, as TensorFlow's:
  _RecoverableSession   (MonitoredSession only) makes a new session with the creator after
                        an AbortedError / UnavailableError, then runs the step again;
  _CoordinatedSession   a Coordinator: its stop request ends the loop, its error is raised;
  _HookedSession        calls the hooks' before_run / after_run around each run() and
                        merges their fetches, feeds and options into that run;
  tf.Session            made by the creator: ChiefSessionCreator restores the latest
                        checkpoint of checkpoint_dir (SessionManager.prepare_session) or
                        runs the scaffold's init ops.
So a training process killed at any point and started again resumes from the last saved
global step: the restore replaces every variable saved, the global step included.
"""
import abc
import functools
import inspect
import os

from minitf.core.protobuf import config_pb2
from minitf.framework import constant_op, dtypes, errors, ops
from minitf.ops import array_ops, control_flow_ops, variables
from minitf.platform import tf_logging as logging
from minitf.training import basic_session_run_hooks
from minitf.training import coordinator
from minitf.training import saver as training_saver
from minitf.training import session_manager as sm
from minitf.training import session_run_hook

# Errors a lost worker or parameter server gives: the session is made again.
_PREEMPTION_ERRORS = (errors.AbortedError, errors.UnavailableError)

USE_DEFAULT = object()


def _sharded_saves_available():
    # A sharded Saver needs the string ops its temporary prefix is built with; until they
    # are registered (sharded saves are another part of issue 11) the default Saver is
    # unsharded, which writes the same single-device checkpoint files.
    from minitf.framework.op_def_library import get_op_def
    try:
        get_op_def("StaticRegexFullMatch")
        get_op_def("StringJoin")
    except errors.NotFoundError:
        return False
    return True


def _get_saver_or_default():
    """The Saver of the SAVERS collection, else a new sharded one over every variable
    (allow_empty), added there; RuntimeError for more than one (TensorFlow's
    saver._get_saver_or_default)."""
    savers = ops.get_collection(ops.GraphKeys.SAVERS)
    if savers:
        if len(savers) > 1:
            raise RuntimeError("More than one item in collection {}. Please indicate which "
                               "one to use by passing it to the constructor."
                               .format(ops.GraphKeys.SAVERS))
        return savers[0]
    saver = training_saver.Saver(sharded=_sharded_saves_available(), allow_empty=True)
    ops.add_to_collection(ops.GraphKeys.SAVERS, saver)
    return saver


def _flat_group(*parts):
    flat = []
    for p in parts:
        if isinstance(p, (list, tuple)):
            flat.extend(x for x in p if x is not None)
        elif p is not None:
            flat.append(p)
    return control_flow_ops.group(*flat)


def _initialize_resources(name="init"):
    # minitf has no tf.resources collections: TensorFlow's initialize_resources of an empty
    # list, a NoOp.
    return control_flow_ops.no_op(name=name)


def _report_uninitialized_resources(name="report_uninitialized_resources"):
    # TensorFlow's report_uninitialized_resources of an empty list: an empty string vector.
    with ops.name_scope(name):
        with ops.device(os.environ.get("TF_DEVICE_FOR_UNINITIALIZED_VARIABLE_REPORTING",
                                       "/cpu:0")):
            return constant_op.constant([], dtype=dtypes.string)


def _tables_initializer(name="init_all_tables"):
    # tf.compat.v1.tables_initializer: the TABLE_INITIALIZERS collection as one op.
    initializers = ops.get_collection(ops.GraphKeys.TABLE_INITIALIZERS)
    if initializers:
        return control_flow_ops.group(*initializers, name=name)
    return control_flow_ops.no_op(name=name)


class Scaffold:
    """The pieces a training session needs, taken from the graph's collections or made
    (tf.compat.v1.train.Scaffold).

    Args (each optional; finalize() fills what is None from the collection of its name,
    else makes TensorFlow's default and adds it there):
      init_op: initializes the model (default: global_variables_initializer grouped with
        the shared resources' and saved_model_initializers' inits). INIT_OP.
      init_feed_dict: feeds for init_op.
      init_fn: called as init_fn(scaffold, session) after init_op.
      ready_op: 1-D string tensor naming what is uninitialized (default: concat of
        report_uninitialized_variables() and the resources' report). READY_OP.
      ready_for_local_init_op: same for global variables only. READY_FOR_LOCAL_INIT_OP.
      local_init_op: default: local_variables_initializer + tables_initializer + local
        resources. LOCAL_INIT_OP.
      summary_op: default summary.merge_all() (None without summaries). SUMMARY_OP.
      saver: default: the SAVERS collection's, else Saver(sharded=True, allow_empty=True).
      copy_from_scaffold: a Scaffold whose pieces fill those not given (TypeError for
        anything else).
      local_init_feed_dict: feeds for local_init_op.
    """

    def __init__(self, init_op=None, init_feed_dict=None, init_fn=None, ready_op=None,
                 ready_for_local_init_op=None, local_init_op=None, summary_op=None,
                 saver=None, copy_from_scaffold=None, local_init_feed_dict=None):
        if copy_from_scaffold is not None:
            if not isinstance(copy_from_scaffold, Scaffold):
                raise TypeError("copy_from_scaffold is not a Scaffold instance.")
            src = copy_from_scaffold

            def coalesce(a, b):
                return a if a is not None else b
            init_op = coalesce(init_op, src.init_op)
            init_feed_dict = coalesce(init_feed_dict, src.init_feed_dict)
            init_fn = coalesce(init_fn, src._user_init_fn)
            ready_op = coalesce(ready_op, src.ready_op)
            ready_for_local_init_op = coalesce(ready_for_local_init_op,
                                               src.ready_for_local_init_op)
            local_init_op = coalesce(local_init_op, src.local_init_op)
            local_init_feed_dict = coalesce(local_init_feed_dict, src.local_init_feed_dict)
            summary_op = coalesce(summary_op, src.summary_op)
            saver = coalesce(saver, src.saver)
        self._user_init_fn = init_fn
        self._init_fn = (lambda sess: init_fn(self, sess)) if init_fn else None
        self._init_op = init_op
        self._init_feed_dict = init_feed_dict
        self._ready_op = ready_op
        self._ready_for_local_init_op = ready_for_local_init_op
        self._local_init_op = local_init_op
        self._local_init_feed_dict = local_init_feed_dict
        self._summary_op = summary_op
        self._saver = saver

    def finalize(self):
        """Makes the missing pieces, builds the saver and finalizes the default graph
        (logs "Graph was finalized."). Returns self."""
        if self._init_op is None:
            def default_init_op():
                return _flat_group(variables.global_variables_initializer(),
                                   _initialize_resources(),
                                   ops.get_collection("saved_model_initializers"))
            self._init_op = Scaffold.get_or_default("init_op", ops.GraphKeys.INIT_OP,
                                                    default_init_op)
        if self._ready_op is None:
            def default_ready_op():
                return array_ops.concat([variables.report_uninitialized_variables(),
                                         _report_uninitialized_resources()], 0)
            self._ready_op = Scaffold.get_or_default("ready_op", ops.GraphKeys.READY_OP,
                                                     default_ready_op)
        if self._ready_for_local_init_op is None:
            def default_ready_for_local_init_op():
                return array_ops.concat([
                    variables.report_uninitialized_variables(variables.global_variables()),
                    _report_uninitialized_resources()], 0)
            self._ready_for_local_init_op = Scaffold.get_or_default(
                "ready_for_local_init_op", ops.GraphKeys.READY_FOR_LOCAL_INIT_OP,
                default_ready_for_local_init_op)
        if self._local_init_op is None:
            self._local_init_op = Scaffold.get_or_default(
                "local_init_op", ops.GraphKeys.LOCAL_INIT_OP, Scaffold.default_local_init_op)
        if self._summary_op is None:
            from minitf import summary
            self._summary_op = Scaffold.get_or_default("summary_op", ops.GraphKeys.SUMMARY_OP,
                                                       summary.merge_all)
        if self._saver is None:
            self._saver = _get_saver_or_default()
        self._saver.build()
        ops.get_default_graph().finalize()
        logging.info("Graph was finalized.")
        return self

    @property
    def init_fn(self):
        return self._init_fn

    @property
    def init_op(self):
        return self._init_op

    @property
    def ready_op(self):
        return self._ready_op

    @property
    def ready_for_local_init_op(self):
        return self._ready_for_local_init_op

    @property
    def local_init_op(self):
        return self._local_init_op

    @property
    def local_init_feed_dict(self):
        return self._local_init_feed_dict

    @property
    def summary_op(self):
        return self._summary_op

    @property
    def saver(self):
        return self._saver

    @property
    def init_feed_dict(self):
        return self._init_feed_dict

    @staticmethod
    def get_or_default(arg_name, collection_key, default_constructor):
        """The one item of `collection_key`, else default_constructor()'s result added
        there. RuntimeError when the collection holds several."""
        elements = ops.get_collection(collection_key)
        if elements:
            if len(elements) > 1:
                raise RuntimeError(
                    "More than one item in the collection \"%s\". Please indicate which one "
                    "to use by passing it to the tf.Scaffold constructor as:  "
                    "tf.Scaffold(%s=item to use)" % (collection_key, arg_name))
            return elements[0]
        op = default_constructor()
        if op is not None:
            ops.add_to_collection(collection_key, op)
        return op

    @staticmethod
    def default_local_init_op():
        """local_variables_initializer, tables_initializer and the local resources'
        initializer grouped in one op."""
        return _flat_group(variables.local_variables_initializer(), _tables_initializer(),
                           _initialize_resources())


class SessionCreator(metaclass=abc.ABCMeta):
    """Makes a tf.Session (tf.compat.v1.train.SessionCreator)."""

    @abc.abstractmethod
    def create_session(self):
        raise NotImplementedError("create_session is not implemented for {}.".format(self))


def _session_manager_for(scaffold):
    """The SessionManager a session creator uses: the scaffold's local init and
    readiness ops, in the default graph."""
    return sm.SessionManager(
        local_init_op=scaffold.local_init_op,
        local_init_feed_dict=scaffold.local_init_feed_dict,
        ready_op=scaffold.ready_op,
        ready_for_local_init_op=scaffold.ready_for_local_init_op,
        graph=ops.get_default_graph())


class ChiefSessionCreator(SessionCreator):
    """Makes the chief's session: finalizes the scaffold, restores
    `checkpoint_filename_with_path` or the latest checkpoint of `checkpoint_dir` when
    there is one, else initializes (tf.compat.v1.train.ChiefSessionCreator)."""

    def __init__(self, scaffold=None, master="", config=None, checkpoint_dir=None,
                 checkpoint_filename_with_path=None):
        self._checkpoint_dir = checkpoint_dir
        self._checkpoint_filename_with_path = checkpoint_filename_with_path
        self._scaffold = scaffold or Scaffold()
        self._session_manager = None
        self._master = master
        self._config = config

    def _get_session_manager(self):
        if self._session_manager is None:
            self._session_manager = _session_manager_for(self._scaffold)
        return self._session_manager

    def create_session(self):
        self._scaffold.finalize()
        return self._get_session_manager().prepare_session(
            self._master, saver=self._scaffold.saver, checkpoint_dir=self._checkpoint_dir,
            checkpoint_filename_with_path=self._checkpoint_filename_with_path,
            config=self._config, init_op=self._scaffold.init_op,
            init_feed_dict=self._scaffold.init_feed_dict, init_fn=self._scaffold.init_fn)


class WorkerSessionCreator(SessionCreator):
    """Makes a non-chief's session: waits (up to max_wait_secs) until the model is ready,
    i.e. initialized by someone else; in one process that is only after the model's
    variables were restored or initialized in this session's container
    (tf.compat.v1.train.WorkerSessionCreator)."""

    def __init__(self, scaffold=None, master="", config=None, max_wait_secs=30 * 60):
        self._scaffold = scaffold or Scaffold()
        self._session_manager = None
        self._master = master
        self._config = config
        self._max_wait_secs = max_wait_secs

    def _get_session_manager(self):
        if self._session_manager is None:
            self._session_manager = _session_manager_for(self._scaffold)
        return self._session_manager

    def create_session(self):
        self._scaffold.finalize()
        return self._get_session_manager().wait_for_session(
            self._master, config=self._config, max_wait_secs=self._max_wait_secs)


def _fn_args(fn):
    # The argument names of fn, without a bound method's self (TensorFlow's fn_args).
    if isinstance(fn, functools.partial):
        args = _fn_args(fn.func)
        return tuple(a for a in args[len(fn.args):] if a not in (fn.keywords or {}))
    if not (inspect.isfunction(fn) or inspect.ismethod(fn)) and callable(fn):
        fn = fn.__call__
    args = list(inspect.getfullargspec(fn).args)
    if inspect.ismethod(fn) and args:
        args.pop(0)
    return tuple(args)


class _MonitoredSession:
    """What MonitoredSession and SingularMonitoredSession share."""

    def __init__(self, session_creator, hooks, should_recover, stop_grace_period_secs=120):
        self._graph_was_finalized = ops.get_default_graph().finalized
        self._hooks = hooks or []
        for h in self._hooks:
            h.begin()
        self._coordinated_creator = self._CoordinatedSessionCreator(
            session_creator=session_creator or ChiefSessionCreator(), hooks=self._hooks,
            stop_grace_period_secs=stop_grace_period_secs)
        if should_recover:
            self._sess = _RecoverableSession(self._coordinated_creator)
        else:
            self._sess = self._coordinated_creator.create_session()

    @property
    def graph(self):
        """The graph of the session (None once closed)."""
        if self._tf_sess() is None:
            return None
        return self._tf_sess().graph

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Session.run with the hooks: their before_run fetches, feeds and options join this
        call, their after_run sees the results. Returns what Session.run returns for
        `fetches`. RuntimeError when called after should_stop() became true; a feed given
        by two hooks, or by a hook and the caller, is RuntimeError too."""
        return self._sess.run(fetches, feed_dict=feed_dict, options=options,
                              run_metadata=run_metadata)

    def run_step_fn(self, step_fn):
        """Calls step_fn(step_context) once: step_context.session is the raw Session,
        step_context.run_with_hooks runs through the hooks, request_stop() ends the loop
        (StopIteration, swallowed by the `with` block). ValueError unless step_fn takes
        exactly `step_context` (or `self, step_context`)."""
        args = _fn_args(step_fn)
        if args != ("step_context",) and args != ("self", "step_context"):
            raise ValueError("`step_fn` may either have one `step_context` argument, or "
                             "`self` and `step_context` arguments if it's an instance method. "
                             "Got {} instead.".format(args))
        return self._sess.run_step_fn(step_fn, self._tf_sess(), run_with_hooks=None)

    class StepContext:
        """What run_step_fn gives step_fn."""

        def __init__(self, session, run_with_hooks_fn):
            self._session = session
            self._run_with_hooks_fn = run_with_hooks_fn

        @property
        def session(self):
            return self._session

        def run_with_hooks(self, *args, **kwargs):
            """MonitoredSession.run with the hooks."""
            return self._run_with_hooks_fn(*args, **kwargs)

        def request_stop(self):
            """Stops the loop (raises StopIteration, which the `with` block swallows)."""
            raise StopIteration("step_fn has requested the iterations to stop.")

    def should_stop(self):
        """True once a hook or the coordinator asked to stop, or after close()."""
        return self._sess is None or self._sess.should_stop()

    def close(self):
        """Calls the hooks' end(session), then closes the session. RuntimeError when
        already closed."""
        self._close_internal()

    def __enter__(self):
        return self

    def __exit__(self, exception_type, exception_value, traceback):
        # An input that ran out (OutOfRangeError) or a step_fn's request_stop
        # (StopIteration) ends training cleanly: hooks' end() runs, nothing is raised.
        if exception_type in [errors.OutOfRangeError, StopIteration]:
            exception_type = None
        self._close_internal(exception_type)
        return exception_type is None

    class _CoordinatedSessionCreator(SessionCreator):
        """Makes the tf.Session, a Coordinator, calls after_create_session of each hook."""

        def __init__(self, session_creator, hooks, stop_grace_period_secs):
            self._session_creator = session_creator
            self._hooks = hooks
            self.coord = None
            self.tf_sess = None
            self._stop_grace_period_secs = stop_grace_period_secs

        def create_session(self):
            self.tf_sess = self._session_creator.create_session()
            self.coord = coordinator.Coordinator(clean_stop_exception_types=[])
            if ops.get_collection(ops.GraphKeys.QUEUE_RUNNERS):  # as TensorFlow
                from minitf.training import queue_runner_impl
                queue_runner_impl.start_queue_runners(sess=self.tf_sess, coord=self.coord)
            for hook in self._hooks:
                hook.after_create_session(self.tf_sess, self.coord)
            return _CoordinatedSession(_HookedSession(self.tf_sess, self._hooks), self.coord,
                                       self._stop_grace_period_secs)

    def _close_internal(self, exception_type=None):
        try:
            if not exception_type:
                for h in self._hooks:
                    h.end(self._coordinated_creator.tf_sess)
        finally:
            try:
                if self._sess is None:
                    raise RuntimeError("Session is already closed.")
                self._sess.close()
            finally:
                self._sess = None
                self._coordinated_creator.tf_sess = None
                self._coordinated_creator.coord = None
                if not self._graph_was_finalized:
                    ops.get_default_graph()._unsafe_unfinalize()

    def _is_closed(self):
        return self._coordinated_creator.tf_sess is None

    def _tf_sess(self):
        return self._coordinated_creator.tf_sess


class MonitoredSession(_MonitoredSession):
    """A session that runs hooks and recovers from AbortedError / UnavailableError by making
    a new session with `session_creator` (default ChiefSessionCreator()) and running the
    step again (tf.compat.v1.train.MonitoredSession). Use as a context manager; an
    OutOfRangeError inside the block ends it cleanly.

    Args:
      session_creator: a SessionCreator.
      hooks: SessionRunHooks, called in this order.
      stop_grace_period_secs: how long close() waits for coordinated threads.
    """

    def __init__(self, session_creator=None, hooks=None, stop_grace_period_secs=120):
        super().__init__(session_creator, hooks, should_recover=True,
                         stop_grace_period_secs=stop_grace_period_secs)


class SingularMonitoredSession(_MonitoredSession):
    """A MonitoredSession without recovery, made by a ChiefSessionCreator over
    (scaffold, master, config, checkpoint_dir, checkpoint_filename_with_path); an
    AbortedError is raised as it is (tf.compat.v1.train.SingularMonitoredSession)."""

    def __init__(self, hooks=None, scaffold=None, master="", config=None, checkpoint_dir=None,
                 stop_grace_period_secs=120, checkpoint_filename_with_path=None):
        creator = ChiefSessionCreator(
            scaffold=scaffold, master=master, config=config, checkpoint_dir=checkpoint_dir,
            checkpoint_filename_with_path=checkpoint_filename_with_path)
        super().__init__(creator, hooks, should_recover=False,
                         stop_grace_period_secs=stop_grace_period_secs)

    def raw_session(self):
        """The tf.Session under the hooks."""
        return self._tf_sess()


def MonitoredTrainingSession(master="", is_chief=True, checkpoint_dir=None,  # noqa: N802
                             scaffold=None, hooks=None, chief_only_hooks=None,
                             save_checkpoint_secs=USE_DEFAULT,
                             save_summaries_steps=USE_DEFAULT,
                             save_summaries_secs=USE_DEFAULT, config=None,
                             stop_grace_period_secs=120, log_step_count_steps=100,
                             max_wait_secs=7200, save_checkpoint_steps=USE_DEFAULT,
                             summary_dir=None, save_graph_def=True):
    """A MonitoredSession for training (tf.compat.v1.train.MonitoredTrainingSession).

    For the chief: a ChiefSessionCreator over `checkpoint_dir` (restores its latest
    checkpoint), plus, in this order, chief_only_hooks, a StepCounterHook every
    log_step_count_steps steps and a SummarySaverHook (save_summaries_steps, default 100,
    or save_summaries_secs) writing into summary_dir (default checkpoint_dir), a
    CheckpointSaverHook (save_checkpoint_secs, default 600, or save_checkpoint_steps)
    into checkpoint_dir, then `hooks`. A None or 0 period disables its hook. For a
    non-chief: a WorkerSessionCreator (max_wait_secs) and `hooks` only.
    Returns a MonitoredSession.
    """
    if save_summaries_steps == USE_DEFAULT and save_summaries_secs == USE_DEFAULT:
        save_summaries_steps, save_summaries_secs = 100, None
    elif save_summaries_secs == USE_DEFAULT:
        save_summaries_secs = None
    elif save_summaries_steps == USE_DEFAULT:
        save_summaries_steps = None
    if save_checkpoint_steps == USE_DEFAULT and save_checkpoint_secs == USE_DEFAULT:
        save_checkpoint_steps, save_checkpoint_secs = None, 600
    elif save_checkpoint_secs == USE_DEFAULT:
        save_checkpoint_secs = None
    elif save_checkpoint_steps == USE_DEFAULT:
        save_checkpoint_steps = None
    scaffold = scaffold or Scaffold()
    if not is_chief:
        creator = WorkerSessionCreator(scaffold=scaffold, master=master, config=config,
                                       max_wait_secs=max_wait_secs)
        return MonitoredSession(session_creator=creator, hooks=hooks or [],
                                stop_grace_period_secs=stop_grace_period_secs)
    all_hooks = list(chief_only_hooks or [])
    creator = ChiefSessionCreator(scaffold=scaffold, checkpoint_dir=checkpoint_dir,
                                  master=master, config=config)
    summary_dir = summary_dir or checkpoint_dir
    if summary_dir:
        if log_step_count_steps and log_step_count_steps > 0:
            all_hooks.append(basic_session_run_hooks.StepCounterHook(
                output_dir=summary_dir, every_n_steps=log_step_count_steps))
        if ((save_summaries_steps and save_summaries_steps > 0) or
                (save_summaries_secs and save_summaries_secs > 0)):
            all_hooks.append(basic_session_run_hooks.SummarySaverHook(
                scaffold=scaffold, save_steps=save_summaries_steps,
                save_secs=save_summaries_secs, output_dir=summary_dir))
    if checkpoint_dir and ((save_checkpoint_secs and save_checkpoint_secs > 0) or
                           (save_checkpoint_steps and save_checkpoint_steps > 0)):
        all_hooks.append(basic_session_run_hooks.CheckpointSaverHook(
            checkpoint_dir, save_steps=save_checkpoint_steps, save_secs=save_checkpoint_secs,
            scaffold=scaffold, save_graph_def=save_graph_def))
    if hooks:
        all_hooks.extend(hooks)
    return MonitoredSession(session_creator=creator, hooks=all_hooks,
                            stop_grace_period_secs=stop_grace_period_secs)


class _WrappedSession:
    """A session wrapper: run, close and should_stop pass down the stack."""

    def __init__(self, sess):
        self._sess = sess
        self._wrapped_is_stoppable = isinstance(sess, _WrappedSession)

    @property
    def graph(self):
        return self._sess.graph

    @property
    def sess_str(self):
        return self._sess.sess_str

    def should_stop(self):
        if self._check_stop():
            return True
        if self._sess:
            return self._wrapped_is_stoppable and self._sess.should_stop()
        return True

    def _check_stop(self):
        return False

    def close(self):
        if self._sess:
            try:
                self._sess.close()
            except _PREEMPTION_ERRORS as e:
                logging.error("An error occurred when attempting to close the session. This "
                              "may be due to a preemption in a connected worker or parameter "
                              "server. Error: %s", e)
            finally:
                self._sess = None

    def run(self, *args, **kwargs):
        return self._sess.run(*args, **kwargs)

    def run_step_fn(self, step_fn, raw_session, run_with_hooks):
        run_with_hooks = run_with_hooks or self.run
        return step_fn(_MonitoredSession.StepContext(raw_session, run_with_hooks))


_PREEMPTION_MESSAGE = (
    "This may be due to a preemption in a connected worker or parameter server. The current "
    "session will be closed and a new session will be created. This error may also occur due "
    "to a gRPC failure caused by high memory or network bandwidth usage in the parameter "
    "servers. If this error occurs repeatedly, try increasing the number of parameter "
    "servers assigned to the job. Error: %s")


class _RecoverableSession(_WrappedSession):
    """Makes the session again after a preemption error and retries."""

    def __init__(self, sess_creator):
        self._sess_creator = sess_creator
        _WrappedSession.__init__(self, self._create_session())

    def _create_session(self):
        while True:
            try:
                return self._sess_creator.create_session()
            except _PREEMPTION_ERRORS as e:
                logging.info(
                    "An error was raised while a session was being created. This may be due "
                    "to a preemption of a connected worker or parameter server. A new session "
                    "will be created. This error may also occur due to a gRPC failure caused "
                    "by high memory or network bandwidth usage in the parameter servers. If "
                    "this error occurs repeatedly, try increasing the number of parameter "
                    "servers assigned to the job. Error: %s", e)

    def _check_stop(self):
        try:
            if self._sess:
                return self._sess._check_stop()
            return True
        except _PREEMPTION_ERRORS as e:
            logging.info("An error was raised while considering whether the session is "
                         "complete. " + _PREEMPTION_MESSAGE, e)
            self.close()
            self._sess = self._create_session()
            return False
        except Exception:  # noqa: BLE001  (as TensorFlow: any other error means stop)
            return True

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        while True:
            try:
                if not self._sess:
                    self._sess = self._create_session()
                return self._sess.run(fetches, feed_dict=feed_dict, options=options,
                                      run_metadata=run_metadata)
            except _PREEMPTION_ERRORS as e:
                logging.info("An error was raised. " + _PREEMPTION_MESSAGE, e)
                self.close()
                self._sess = None

    def run_step_fn(self, step_fn, raw_session, run_with_hooks):
        while True:
            try:
                if not self._sess:
                    self._sess = self._create_session()
                run_with_hooks = self._sess.run
                return self._sess.run_step_fn(step_fn, raw_session, run_with_hooks)
            except _PREEMPTION_ERRORS as e:
                logging.info("An error was raised. " + _PREEMPTION_MESSAGE, e)
                self.close()
                self._sess = None


class _CoordinatedSession(_WrappedSession):
    """Stops when the coordinator does; an error a thread reported is raised in place of
    the run's."""

    def __init__(self, sess, coord, stop_grace_period_secs=120):
        _WrappedSession.__init__(self, sess)
        self._coord = coord
        self._stop_grace_period_secs = stop_grace_period_secs

    def _check_stop(self):
        self._coord.raise_requested_exception()
        return self._coord.should_stop()

    def close(self):
        self._coord.request_stop()
        try:
            self._coord.join(stop_grace_period_secs=self._stop_grace_period_secs,
                             ignore_live_threads=True)
        finally:
            try:
                _WrappedSession.close(self)
            except Exception:  # noqa: BLE001  (as TensorFlow: closing errors are dropped)
                pass

    def run(self, *args, **kwargs):
        try:
            return self._sess.run(*args, **kwargs)
        except _PREEMPTION_ERRORS:
            raise
        except Exception as original_exception:
            try:
                self._coord.raise_requested_exception()
            except _PREEMPTION_ERRORS:
                raise
            except Exception:  # noqa: BLE001
                raise original_exception from None
            raise


class _HookedSession(_WrappedSession):
    """Runs the hooks around each run()."""

    def __init__(self, sess, hooks):
        _WrappedSession.__init__(self, sess)
        self._hooks = hooks
        self._should_stop = False

    def _check_stop(self):
        return self._should_stop

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        if self.should_stop():
            raise RuntimeError("Run called even after should_stop requested.")
        actual_fetches = {"caller": fetches}
        run_context = session_run_hook.SessionRunContext(
            original_args=session_run_hook.SessionRunArgs(fetches, feed_dict),
            session=self._sess)
        options = options or config_pb2.RunOptions()
        feed_dict = self._call_hook_before_run(run_context, actual_fetches, feed_dict, options)
        run_metadata = run_metadata or config_pb2.RunMetadata()
        outputs = _WrappedSession.run(self, fetches=actual_fetches, feed_dict=feed_dict,
                                      options=options, run_metadata=run_metadata)
        for hook in self._hooks:
            hook.after_run(run_context, session_run_hook.SessionRunValues(
                results=outputs[hook] if hook in outputs else None, options=options,
                run_metadata=run_metadata))
        self._should_stop = self._should_stop or run_context.stop_requested
        return outputs["caller"]

    def _call_hook_before_run(self, run_context, fetch_dict, user_feed_dict, options):
        hook_feeds = {}
        for hook in self._hooks:
            request = hook.before_run(run_context)
            if request is None:
                continue
            if request.fetches is not None:
                fetch_dict[hook] = request.fetches
            if request.feed_dict:
                self._raise_if_feeds_intersects(hook_feeds, request.feed_dict,
                                                "Same tensor is fed by two hooks.")
                hook_feeds.update(request.feed_dict)
            if request.options:
                self._merge_run_options(options, request.options)
        if not hook_feeds:
            return user_feed_dict
        if not user_feed_dict:
            return hook_feeds
        self._raise_if_feeds_intersects(user_feed_dict, hook_feeds,
                                        "Same tensor is fed by a SessionRunHook and user.")
        hook_feeds.update(user_feed_dict)
        return hook_feeds

    def _raise_if_feeds_intersects(self, feeds1, feeds2, message):
        intersection = set(feeds1.keys()) & set(feeds2.keys())
        if intersection:
            raise RuntimeError(message + " Conflict(s): " + str(list(intersection)))

    def _merge_run_options(self, options, incoming):
        options.trace_level = max(options.trace_level, incoming.trace_level)
        options.timeout_in_ms = max(options.timeout_in_ms, incoming.timeout_in_ms)
        options.inter_op_thread_pool = max(options.inter_op_thread_pool,
                                           incoming.inter_op_thread_pool)
        options.output_partition_graphs = max(options.output_partition_graphs,
                                              incoming.output_partition_graphs)
        options.report_tensor_allocations_upon_oom = (
            options.report_tensor_allocations_upon_oom or
            incoming.report_tensor_allocations_upon_oom)
        if "debug_options" in options.DESCRIPTOR.fields_by_name:  # not in minitf's subset
            options.debug_options.debug_tensor_watch_opts.extend(
                incoming.debug_options.debug_tensor_watch_opts)
            options.debug_options.reset_disk_byte_usage = (
                options.debug_options.reset_disk_byte_usage or
                incoming.debug_options.reset_disk_byte_usage)


__all__ = ["ChiefSessionCreator", "MonitoredSession", "MonitoredTrainingSession", "Scaffold",
           "SessionCreator", "SingularMonitoredSession", "WorkerSessionCreator"]
