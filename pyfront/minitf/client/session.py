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
from minitf.framework import dtypes, errors, ops, tensor_shape

_NODE_RE = re.compile(r"\{\{node ([^}]+)\}\}|node '([^']+)'|[Nn]ode ([A-Za-z0-9_./>-]+)")


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
        return items if typ is list else typ(items) if typ is tuple else typ(items)


class BaseSession:
    """Shared implementation of Session and InteractiveSession."""

    def __init__(self, target="", graph=None, config=None):
        self._session = None
        if target:
            raise errors.UnimplementedError(None, None,
                                            "minitf runs in process only; target must be ''")
        self._graph = graph if graph is not None else ops.get_default_graph()
        self._closed = False
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
        return self._graph

    @property
    def graph_def(self):
        return self._graph.as_graph_def()

    @property
    def sess_str(self):
        return ""

    def as_default(self):
        """Context manager making this the default session (for eval/run)."""
        return ops._default_session_stack.get_controller(self)

    def close(self):
        """Closes the session and frees its resources (variables). Idempotent."""
        if self._session is not None and not self._closed:
            self._closed = True
            c_api.TF_CloseSession(self._session)

    def __del__(self):
        s = getattr(self, "_session", None)
        if s is not None and c_api is not None:
            try:
                c_api.TF_DeleteSession(s)
            except Exception:
                pass
            self._session = None

    def _feeds(self, feed_dict):
        outputs, values = [], []
        for key, val in (feed_dict or {}).items():
            try:
                t = self._graph.as_graph_element(key, allow_tensor=True, allow_operation=False)
            except Exception as e:
                raise TypeError("Cannot interpret feed_dict key as Tensor: " + str(
                    e.args[0] if e.args else e)) from None
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
                shape = np.shape(val)
            if not t.shape.is_compatible_with(shape):
                raise ValueError("Cannot feed value of shape %r for Tensor %s, which has shape %s" %
                                 (tuple(shape), t.name, str(t.shape)))
            outputs.append(t._as_tf_output())
            values.append(val)
        return outputs, values

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Runs the graph for `fetches` with `feed_dict` (tf.Session.run).

        Args:
          fetches: a Tensor, Operation, tensor/op name, or a list, tuple,
            namedtuple or dict (nested) of those.
          feed_dict: {Tensor or "name:0": value}; values are converted to the
            tensor's dtype (a C-contiguous ndarray of that dtype is not copied).
        Returns:
          The fetched values in the structure of `fetches`: ndarrays (read-only
          views of the runtime's buffers), NumPy scalars for 0-d tensors,
          bytes for 0-d strings, None for Operations.
        Raises:
          TypeError / ValueError: bad fetches or feeds (as TensorFlow).
          minitf.errors.OpError subclasses: runtime failures, e.g.
            InvalidArgumentError "You must feed a value for placeholder tensor
            'x' with dtype float ...", FailedPreconditionError for a closed
            session or an uninitialized variable. The session stays usable.
        """
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        plan = _FetchPlan(self._graph, fetches)
        feed_outputs, feed_values = self._feeds(feed_dict)
        try:
            values = c_api.MT_SessionRun(self._session, feed_outputs, feed_values,
                                         [t._as_tf_output() for t in plan.tensors],
                                         [op._c_op for op in plan.targets])
        except errors.OpError as e:
            self._attach_op(e)
            raise
        return plan.rebuild(values)

    def _attach_op(self, e):
        m = _NODE_RE.search(e.message)
        if m is None:
            return
        name = next(g for g in m.groups() if g)
        try:
            op = self._graph.get_operation_by_name(name)
        except (KeyError, ValueError, TypeError):
            return
        e._op = op
        try:
            e._node_def = op.node_def
        except Exception:
            e._node_def = None

    def make_callable(self, fetches, feed_list=None, accept_options=False):
        """A function running `fetches` with positional feeds for `feed_list`."""
        feed_list = list(feed_list or [])

        def call(*args):
            if len(args) != len(feed_list):
                raise TypeError("Expected %d positional arguments, got %d" %
                                (len(feed_list), len(args)))
            return self.run(fetches, dict(zip(feed_list, args)))
        return call


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
