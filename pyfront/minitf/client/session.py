"""tf.Session: runs a Graph through TF_SessionRun (via the session helper).

Mirrors tensorflow/python/client/session.py for the TF1 API: run(fetches,
feed_dict) with single fetches, lists, tuples, namedtuples, dicts and nested
structures; feeds keyed by Tensor or tensor name; context manager; close;
default session for Tensor.eval / Operation.run.
"""
import collections
import re
import threading

import numpy as np

from minitf import pywrap_tensorflow_internal as c_api
from minitf.core.protobuf import config_pb2
from minitf.framework import dtypes, errors, indexed_slices, ops, sparse_tensor, tensor_shape

def _slices_parts(s):
    return [s.values, s.indices] + ([] if s.dense_shape is None else [s.dense_shape])


def _slices_value(values):
    return indexed_slices.IndexedSlicesValue(*(list(values) + [None] * (3 - len(values))))


_NODE_RE = re.compile(r"\{\{node ([^}]+)\}\}|node '([^']+)'|[Nn]ode ([A-Za-z0-9_./>-]+)")

# Fetch/feed expansions of composite types, as TensorFlow's session.py: entries
# (type, fetch_fn, feed_fn, feed_fn_for_partial_run). fetch_fn(fetch) -> (tensors,
# contract(values)); feed_fn(feed, value) -> [(tensor, value)]; partial: feed -> tensors.
# SparseTensors are fetched as SparseTensorValues and fed SparseTensorValues or tuples.
_REGISTERED_EXPANSIONS = [
    (sparse_tensor.SparseTensor, sparse_tensor.SparseTensor._session_run_fetch,
     sparse_tensor.SparseTensor._session_run_feed,
     lambda feed: [feed.indices, feed.values, feed.dense_shape]),
    # IndexedSlices (e.g. a gather's gradient) come back as IndexedSlicesValues.
    (indexed_slices.IndexedSlices, lambda fetch: (_slices_parts(fetch), _slices_value),
     lambda feed, value: list(zip(_slices_parts(feed), value)), lambda feed: _slices_parts(feed)),
]


def register_session_run_conversion_functions(tensor_type, fetch_function, feed_function=None,
                                              feed_function_for_partial_run=None):
    """Registers how Session.run fetches and feeds `tensor_type` objects
    (tf.compat.v1.register_session_run_conversion_functions).

    fetch_function(obj) returns (list of Tensors, fn(list of values) -> value);
    feed_function(obj, value) returns [(Tensor, value)];
    feed_function_for_partial_run(obj) returns [Tensor].
    Raises ValueError when `tensor_type` (or a subclass) is already registered.
    """
    for entry in _REGISTERED_EXPANSIONS:
        if issubclass(entry[0], tensor_type):
            raise ValueError("%s has already been registered so ignore it." % tensor_type)
    _REGISTERED_EXPANSIONS.insert(0, (tensor_type, fetch_function, feed_function,
                                      feed_function_for_partial_run))


def _expansion(obj, slot):
    """The registered conversion function `slot` (1 fetch, 2 feed, 3 partial feed) for obj."""
    for entry in _REGISTERED_EXPANSIONS:
        if isinstance(obj, entry[0]):
            return entry[slot]
    return None


def _expand_feeds(feed_dict):
    """feed_dict items with registered composite keys (SparseTensor) expanded."""
    for key, val in (feed_dict or {}).items():
        feed_fn = _expansion(key, 2)
        if feed_fn is None:
            yield key, val
        else:
            yield from feed_fn(key, val)


class _FetchPlan:
    """Flattens a fetch structure to unique graph elements and rebuilds it."""

    def __init__(self, graph, fetches):
        self.tensors = []
        self.targets = []
        self._tensor_index = {}
        self._structure = self._build(graph, fetches)

    def _element(self, graph, fetch):
        try:
            el = graph.as_graph_element(fetch, allow_tensor=True, allow_operation=True)
        except TypeError:
            raise TypeError("Fetch argument %r has invalid type %r, must be a string or Tensor. "
                            "(%s)" % (fetch, type(fetch), "Can not convert a %s into a Tensor or "
                                      "Operation." % type(fetch).__name__)) from None
        except (ValueError, KeyError) as e:
            raise ValueError("Argument `fetch` = %s cannot be interpreted as a Tensor. (%s)" %
                             (fetch, e)) from None
        return el

    def _build(self, graph, fetch):
        if fetch is None:
            raise TypeError("Fetch argument None has invalid type %s" % type(None))
        fetch_fn = _expansion(fetch, 1)
        if fetch_fn is not None:  # a composite (SparseTensor): its parts, then contract
            parts, contract = fetch_fn(fetch)
            return ("expand", contract, None, [self._build(graph, p) for p in parts])
        if isinstance(fetch, dict):
            keys = list(fetch.keys())
            return ("dict", type(fetch), keys, [self._build(graph, fetch[k]) for k in keys])
        if isinstance(fetch, tuple) and hasattr(fetch, "_fields"):
            return ("namedtuple", type(fetch), None, [self._build(graph, f) for f in fetch])
        if isinstance(fetch, (list, tuple)):
            return ("seq", type(fetch), None, [self._build(graph, f) for f in fetch])
        el = self._element(graph, fetch)
        if isinstance(el, ops.Operation):
            if el not in self.targets:
                self.targets.append(el)
            return ("op", None, None, None)
        i = self._tensor_index.get(id(el))
        if i is None:
            i = len(self.tensors)
            self._tensor_index[id(el)] = i
            self.tensors.append(el)
        return ("tensor", None, None, i)

    def rebuild(self, values):
        return self._rebuild(self._structure, values)

    def _rebuild(self, s, values):
        kind, typ, keys, sub = s
        if kind == "tensor":
            return values[sub]
        if kind == "op":
            return None
        items = [self._rebuild(x, values) for x in sub]
        if kind == "dict":
            d = typ() if typ is not dict else {}
            if isinstance(d, collections.defaultdict):
                d = typ(d.default_factory)
            for k, v in zip(keys, items):
                d[k] = v
            return d
        if kind == "namedtuple":
            return typ(*items)
        if kind == "expand":
            return typ(items)
        return items if typ is list else typ(items) if typ is tuple else typ(items)


class _DeviceAttributes:
    """One device of a session (sess.list_devices()), as TensorFlow's
    session._DeviceAttributes: name, device_type, memory_limit_bytes,
    incarnation."""

    def __init__(self, name, device_type, memory_limit_bytes, incarnation):
        self._name = name
        self._device_type = device_type
        self._memory_limit_bytes = memory_limit_bytes
        self._incarnation = incarnation

    @property
    def name(self):
        return self._name

    @property
    def device_type(self):
        return self._device_type

    @property
    def memory_limit_bytes(self):
        return self._memory_limit_bytes

    @property
    def incarnation(self):
        return self._incarnation

    def __repr__(self):
        return "_DeviceAttributes(%s, %s, %d, %d)" % (
            self.name, self.device_type, self.memory_limit_bytes, self.incarnation)


class _PartialRun:
    """State of one partial_run_setup handle as the client sees it: the
    declared feeds/fetches (by tensor name), the names fed and fetched so
    far, and `owner`, the capsule owning the C partial run (its death ends
    the run in the runtime)."""

    def __init__(self, feeds, fetches, owner):
        self.feeds = {t.name: t for t in feeds}
        self.fetches = {t.name: t for t in fetches}
        self.fed = set()
        self.fetched = set()
        self.owner = owner

    def pending_done(self):
        """True once every declared feed was fed and every fetch fetched:
        TensorFlow then forgets the handle."""
        return len(self.fed) == len(self.feeds) and len(self.fetched) == len(self.fetches)


def _graph_execution_error(e, graph):
    """Rebuilds an OpError from the runtime as TensorFlow 2.21's Session.run
    raises it: "Graph execution error:" then, when the message names a node of
    `graph`, "Detected at node 'x' defined at (most recent call last):" with
    the user frames where the op was created and "Node: 'x'"; .op and
    .node_def are set."""
    message = e.message
    op = None
    # An error inside a function names the inner nodes first and the calling
    # node of `graph` last: the outermost node of this graph is the one shown.
    for m in reversed(list(_NODE_RE.finditer(message))):
        name = next(g for g in m.groups() if g)
        try:
            op = graph.get_operation_by_name(name)
            break
        except (KeyError, ValueError, TypeError):
            op = None
    head = "Graph execution error:\n\n"
    if op is not None:
        frames = "".join('    File "%s", line %d, in %s\n' % (f, n, fn)
                         for f, n, fn in op._traceback)
        head += "Detected at node '%s' defined at (most recent call last):\n%sNode: '%s'\n" % (
            op.name, frames, op.name)
    node_def = None
    if op is not None:
        try:
            node_def = op.node_def
        except Exception:
            node_def = None
    return type(e)(node_def, op, head + message, e.error_code)


class BaseSession:
    """Shared implementation of Session and InteractiveSession."""

    def __init__(self, target="", graph=None, config=None):
        self._session = None
        self._closed = False
        self._partial_runs = {}
        self._next_handle = 0
        if graph is None:
            graph = ops.get_default_graph()
        elif not isinstance(graph, ops.Graph):
            raise TypeError('Argument `graph` must be a tf.Graph, but got "%s"' %
                            type(graph).__name__)
        if config is not None and not isinstance(config, config_pb2.ConfigProto):
            raise TypeError('Argument `config` must be a tf.ConfigProto, but got "%s"' %
                            type(config).__name__)
        if target is None:
            target = ""
        self._target = target.encode() if isinstance(target, str) else bytes(target)
        if self._target:
            raise errors.NotFoundError(
                None, None, "No session factory registered for the given session options: "
                "{target: \"%s\"} Registered factories are {DIRECT_SESSION}." %
                self._target.decode(errors="replace"))
        self._graph = graph
        self._lock = threading.Lock()
        opts = c_api.TF_NewSessionOptions()
        try:
            if config is not None:
                c_api.TF_SetConfig(opts, config.SerializeToString())
            self._session = c_api.TF_NewSession(self._graph._c_graph, opts)
        finally:
            c_api.TF_DeleteSessionOptions(opts)
        self._config = config
        self._default_session_ctx = None
        self._default_graph_ctx = None

    @property
    def graph(self):
        """The Graph this session runs."""
        return self._graph

    @property
    def graph_def(self):
        """The session's graph as a GraphDef proto."""
        return self._graph.as_graph_def()

    @property
    def sess_str(self):
        """The target as bytes (b'' for the in-process runtime), as TensorFlow."""
        return self._target

    def as_default(self):
        """Context manager making this the default session (for eval/run)."""
        return ops._default_session_stack.get_controller(self)

    def list_devices(self):
        """The session's devices (TF_SessionListDevices): one _DeviceAttributes per CPU,
        "/job:localhost/replica:0/task:0/device:CPU:<i>" (one, or ConfigProto's
        device_count["CPU"]), type "CPU", memory_limit_bytes 268435456 and a random 64-bit
        incarnation fixed for the session. Raises CancelledError "Session has been
        closed." once closed."""
        if self._closed:
            raise errors.CancelledError(None, None, "Session has been closed.")
        devices = c_api.TF_SessionListDevices(self._session)
        try:
            return [_DeviceAttributes(c_api.TF_DeviceListName(devices, i),
                                      c_api.TF_DeviceListType(devices, i),
                                      c_api.TF_DeviceListMemoryBytes(devices, i),
                                      c_api.TF_DeviceListIncarnation(devices, i))
                    for i in range(c_api.TF_DeviceListCount(devices))]
        finally:
            c_api.TF_DeleteDeviceList(devices)

    def close(self):
        """Closes the session and frees its resources (variables). Idempotent."""
        if self._session is not None and not self._closed:
            self._closed = True
            self._partial_runs.clear()
            c_api.TF_CloseSession(self._session)

    def __del__(self):
        s = getattr(self, "_session", None)
        if s is not None and c_api is not None:
            try:
                c_api.TF_DeleteSession(s)
            except Exception:
                pass
            self._session = None

    def _check_open(self):
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")

    def _feed_tensor(self, key):
        try:
            return self._graph.as_graph_element(key, allow_tensor=True, allow_operation=False)
        except Exception as e:
            raise TypeError("Cannot interpret feed_dict key as Tensor: " + str(
                e.args[0] if e.args else e)) from None

    def _feeds(self, feed_dict):
        outputs, values, tensors = [], [], []
        for key, val in _expand_feeds(feed_dict):
            t = self._feed_tensor(key)
            if isinstance(val, ops.Tensor):
                raise TypeError("The value of a feed cannot be a tf.Tensor object. Acceptable feed "
                                "values include Python scalars, strings, lists, numpy ndarrays, "
                                "or TensorHandles. For reference, the tensor object was %s which "
                                "was passed to the argument `feed_dict` with key %s." % (val, key))
            if not isinstance(val, (np.ndarray, np.generic)) and hasattr(val, "__dlpack__"):
                # A DLPack producer (torch, JAX, ...): an ndarray view, no copy.
                from minitf.experimental import dlpack
                val = dlpack.from_dlpack(val)
            dt = t.dtype.base_dtype
            if dt != dtypes.string:
                np_dtype = dt.as_numpy_dtype
                if not (type(val) is np.ndarray and val.dtype == np_dtype):
                    if isinstance(val, int) and not isinstance(val, bool) and dt.is_integer:
                        info = np.iinfo(np_dtype)
                        if not info.min <= val <= info.max:
                            raise TypeError("Type of feed value %r with type %s is not compatible "
                                            "with Tensor type %s. Try explicitly setting the type "
                                            "of the feed tensor to a larger type (e.g. int64)." %
                                            (val, type(val), dt))
                    val = np.asarray(val, dtype=np_dtype)
                shape = val.shape
            else:
                if not isinstance(val, np.ndarray):
                    # As TF: an object array keeps each bytes value whole (a fixed-width "S"
                    # array would drop trailing NUL bytes).
                    val = np.asarray(val, dtype=object)
                shape = val.shape
            if not t.shape.is_compatible_with(shape):
                raise ValueError("Cannot feed value of shape %r for Tensor %s, which has shape %s" %
                                 (tuple(shape), t.name, str(t.shape)))
            if not self._graph.is_feedable(t):
                raise ValueError("Tensor %s may not be fed." % t.name)
            outputs.append(t._as_tf_output())
            values.append(val)
            tensors.append(t)
        return outputs, values, tensors

    def _plan(self, fetches):
        plan = _FetchPlan(self._graph, fetches)
        for el in plan.targets + plan.tensors:
            op = el if isinstance(el, ops.Operation) else el.op
            if not self._graph.is_fetchable(op):
                raise errors.InaccessibleTensorError(
                    "Operation %s has been marked as not fetchable. Typically this happens when "
                    "it is defined in another function or code block. Use return values, explicit "
                    "Python locals or TensorFlow collections to access it." % op.name)
        return plan

    def _call(self, plan, feed_outputs, feed_values, options=None, run_metadata=None):
        """Runs the C session; OpErrors come back as Session.run raises them."""
        fetch_outputs = [t._as_tf_output() for t in plan.tensors]
        targets = [op._c_op for op in plan.targets]
        try:
            if options is None and run_metadata is None:
                return c_api.MT_SessionRun(self._session, feed_outputs, feed_values,
                                           fetch_outputs, targets)
            values, md = c_api.MT_SessionRunWithOptions(
                self._session, options.SerializeToString() if options is not None else None,
                feed_outputs, feed_values, fetch_outputs, targets, run_metadata is not None)
        except errors.OpError as e:
            raise _graph_execution_error(e, self._graph) from None
        if run_metadata is not None:
            run_metadata.ParseFromString(md)
        return values

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Runs the graph for `fetches` with `feed_dict` (tf.Session.run).

        Args:
          fetches: a Tensor, Operation, tensor/op name, or a list, tuple,
            namedtuple or dict (nested) of those.
          feed_dict: {Tensor or "name:0": value}; values are converted to the
            tensor's dtype (a C-contiguous ndarray of that dtype is not copied).
          options: a RunOptions proto; trace_level > 0 (e.g. FULL_TRACE) with
            `run_metadata` records per-node step stats.
          run_metadata: a RunMetadata proto filled in place (step_stats for a
            traced run; empty otherwise).
        Returns:
          The fetched values in the structure of `fetches`: ndarrays (views of
          the runtime's buffers), NumPy scalars for 0-d tensors, bytes for 0-d
          strings, None for Operations.
        Raises:
          RuntimeError: "Attempted to use a closed Session."
          TypeError / ValueError: bad fetches or feeds (as TensorFlow), e.g.
            "Tensor y:0 may not be fed." after Graph.prevent_feeding;
            InaccessibleTensorError (a ValueError) after prevent_fetching.
          minitf.errors.OpError subclasses: runtime failures, with TensorFlow
            2.21's "Graph execution error:" message naming the node and the
            line that created it, and .op / .node_def set. The session stays
            usable.
        """
        self._check_open()
        if options is not None and not isinstance(options, config_pb2.RunOptions):
            raise TypeError("Argument `options` must be a tf.RunOptions, but got %s" %
                            type(options).__name__)
        if run_metadata is not None and not isinstance(run_metadata, config_pb2.RunMetadata):
            raise TypeError("Argument `run_metadata` must be a tf.RunMetadata, but got %s" %
                            type(run_metadata).__name__)
        feed_outputs, feed_values, _ = self._feeds(feed_dict)
        plan = self._plan(fetches)
        values = self._call(plan, feed_outputs, feed_values, options, run_metadata)
        return plan.rebuild(values)

    def partial_run_setup(self, fetches, feeds=None):
        """Declares the fetches and feeds of a sequence of partial_run calls
        (tf.Session.partial_run_setup); returns the handle (a str).

        The runtime keeps one execution of the graph under the handle
        (TF_SessionPRunSetup): each partial_run runs only the nodes that
        became computable, so every node, stateful ones included, runs at
        most once per handle, as in TensorFlow. Operations in `fetches` are
        targets, run as soon as their inputs are fed.
        Raises RuntimeError for a closed session, InvalidArgumentError
        "x:0 is both fed and fetched.", TypeError/ValueError for elements
        that are not graph elements.
        """
        self._check_open()
        plan = self._plan(fetches)
        feed_list = feeds if isinstance(feeds, (list, tuple)) else ([] if feeds is None
                                                                   else [feeds])
        feed_list = [t for f in feed_list for t in (
            _expansion(f, 3)(f) if _expansion(f, 3) else [f])]
        feed_tensors = [self._feed_tensor(f) for f in feed_list]
        fetch_names = {t.name for t in plan.tensors}
        for t in feed_tensors:
            if t.name in fetch_names:
                raise errors.InvalidArgumentError(
                    None, None, "Graph execution error:\n\n%s is both fed and fetched." % t.name)
        # Duplicates are declared once, as TensorFlow's name-keyed run state.
        feed_tensors = list({t.name: t for t in feed_tensors}.values())
        fetch_tensors = list({t.name: t for t in plan.tensors}.values())
        try:
            handle, owner = c_api.MT_SessionPRunSetup(
                self._session, [t._as_tf_output() for t in feed_tensors],
                [t._as_tf_output() for t in fetch_tensors], [op._c_op for op in plan.targets])
        except errors.OpError as e:
            raise _graph_execution_error(e, self._graph) from None
        self._partial_runs[handle] = _PartialRun(feed_tensors, fetch_tensors, owner)
        return handle

    @staticmethod
    def _prun_error(message):
        return errors.InvalidArgumentError(None, None, "Graph execution error:\n\n" + message)

    def _pending_feed(self, pr, fetch, fed):
        """The first declared feed not in `fed` that the fetch depends on,
        searched depth first from the fetch as TensorFlow's DirectSession
        does."""
        pending = {n for n in pr.feeds if n not in fed}
        stack, seen = [fetch], set()
        while stack:
            t = stack.pop()
            if t.name in seen:
                continue
            seen.add(t.name)
            if t.name in pending:
                return t.name
            if t.name in fed:
                continue
            stack.extend(t.op.inputs)
        return None

    def partial_run(self, handle, fetches, feed_dict=None):
        """Continues partial run `handle` (tf.Session.partial_run): feeds some
        of the declared feeds, runs what they make computable (each node at
        most once per handle) and returns some of the declared fetches.

        Raises InvalidArgumentError with TensorFlow's messages: "Must run
        'setup' before performing partial runs!" (also once every feed was
        fed and every fetch fetched, or after a runtime error ended the
        run), "The feed a:0 was not specified in partial_run_setup.", "The
        feed a:0 has already been fed.", "The fetch r:0 was not specified in
        partial_run_setup.", "The fetch r:0 has already been fetched.",
        "Fetch a:0 can't be computed from the feeds that have been fed so
        far." (naming the missing feed); runtime OpErrors as Session.run;
        RuntimeError for Operation fetches ("partial_run() requires empty
        `target_list`...").
        """
        self._check_open()
        feed_outputs, feed_values, feed_tensors = self._feeds(feed_dict)
        plan = self._plan(fetches)
        if plan.targets:
            raise RuntimeError("partial_run() requires empty `target_list`. Received: "
                               "target_list=%s (non-empty)" % (plan.targets,))
        pr = self._partial_runs.get(handle)
        if pr is None:
            raise self._prun_error("Must run 'setup' before performing partial runs!")
        for t in feed_tensors:
            if t.name not in pr.feeds:
                raise self._prun_error("The feed %s was not specified in partial_run_setup." %
                                       t.name)
            if t.name in pr.fed:
                raise self._prun_error("The feed %s has already been fed." % t.name)
        for t in plan.tensors:
            if t.name not in pr.fetches:
                raise self._prun_error("The fetch %s was not specified in partial_run_setup." %
                                       t.name)
            if t.name in pr.fetched:
                raise self._prun_error("The fetch %s has already been fetched." % t.name)
        fed = pr.fed | {t.name for t in feed_tensors}
        for t in plan.tensors:
            missing = self._pending_feed(pr, t, fed)
            if missing is not None:
                raise self._prun_error("Fetch %s can't be computed from the feeds that have "
                                       "been fed so far." % missing)
        fetch_outputs = [t._as_tf_output() for t in plan.tensors]
        try:
            values = c_api.MT_SessionPRun(self._session, handle, feed_outputs, feed_values,
                                          fetch_outputs)
        except errors.OpError as e:
            # A runtime error ends the partial run, as in TensorFlow.
            self._partial_runs.pop(handle, None)
            raise _graph_execution_error(e, self._graph) from None
        pr.fed = fed
        pr.fetched.update(t.name for t in plan.tensors)
        if pr.pending_done():
            del self._partial_runs[handle]
        return plan.rebuild(values)

    def make_callable(self, fetches, feed_list=None, accept_options=False):
        """A Python function running `fetches` (tf.Session.make_callable).

        With `feed_list` (a list or tuple of feedable tensors or names) the
        function takes one positional value per feed (extra ones are
        ignored, missing ones are not fed, as TensorFlow's zip) and passes
        keyword arguments (options, run_metadata) to run(). Without it, the
        fetches are validated at once and the function takes no positional
        arguments; `options` and `run_metadata` keywords only when
        `accept_options`.
        Raises TypeError if feed_list is not a list or tuple.
        """
        if feed_list is not None:
            if not isinstance(feed_list, (list, tuple)):
                raise TypeError("Argument `feed_list` must be a list or tuple. Received: "
                                "feed_list=%s" % (feed_list,))

            def _generic_run(*feed_args, **kwargs):
                feed_dict = {feed: val for feed, val in zip(feed_list, feed_args)}
                return self.run(fetches, feed_dict=feed_dict, **kwargs)
            return _generic_run

        self._check_open()
        plan = self._plan(fetches)

        def _callable_template_with_options_and_metadata(options=None, run_metadata=None):
            self._check_open()
            return plan.rebuild(self._call(plan, [], [], options, run_metadata))

        if accept_options:
            return _callable_template_with_options_and_metadata
        single_tensor = plan._structure[0] == "tensor"
        single_op = plan._structure[0] == "op"
        if single_tensor:
            def _single_tensor_run():
                self._check_open()
                return self._call(plan, [], [])[0]
            return _single_tensor_run
        if single_op:
            def _single_operation_run():
                self._check_open()
                self._call(plan, [], [])
            return _single_operation_run

        def _callable_template_with_no_options():
            self._check_open()
            return plan.rebuild(self._call(plan, [], []))
        return _callable_template_with_no_options


class Session(BaseSession):
    """A session to run the operations of a Graph (tf.compat.v1.Session).

    Args:
      target: must be "" (in-process).
      graph: the Graph to run (default: the default graph).
      config: an optional ConfigProto (thread counts are honoured).
    `with Session() as sess:` makes it (and its graph) the default and
    closes it on exit.
    """

    def __enter__(self):
        self._default_graph_ctx = self._graph.as_default()
        self._default_graph_ctx.__enter__()
        self._default_session_ctx = self.as_default()
        self._default_session_ctx.__enter__()
        return self

    def __exit__(self, exec_type, exec_value, exec_tb):
        try:
            self._default_session_ctx.__exit__(exec_type, exec_value, exec_tb)
            self._default_graph_ctx.__exit__(exec_type, exec_value, exec_tb)
        finally:
            self._default_session_ctx = None
            self._default_graph_ctx = None
            self.close()

    @staticmethod
    def reset(target, containers=None, config=None):
        pass


class InteractiveSession(BaseSession):
    """A Session that installs itself as the default session on creation."""

    def __init__(self, target="", graph=None, config=None):
        super().__init__(target, graph, config)
        self._default_session_ctx = self.as_default()
        self._default_session_ctx.__enter__()
        self._default_graph_ctx = self._graph.as_default()
        self._default_graph_ctx.__enter__()

    def close(self):
        super().close()
        if self._default_session_ctx is not None:
            self._default_graph_ctx.__exit__(None, None, None)
            self._default_session_ctx.__exit__(None, None, None)
            self._default_session_ctx = None
