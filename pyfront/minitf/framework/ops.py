"""Graph, Operation and Tensor: Python handles on the graph that lives in C.

Mirrors tensorflow/python/framework/ops.py (TF1 graph mode). A Graph owns a
TF_Graph*; an Operation wraps a TF_Operation* of it; a Tensor is
(Operation, output index). Python keeps only what TensorFlow's Python keeps:
name scopes, the names in use, collections, control-dependency and device
stacks. Shapes and dtypes are read from C (inferred at TF_FinishOperation).
"""
import contextlib
import re
import threading

from minitf import pywrap_tensorflow_internal as c_api
from minitf.core.framework import attr_value_pb2, graph_pb2, node_def_pb2, op_def_pb2
from minitf.framework import dtypes, errors, tensor_shape

_VALID_OP_NAME_REGEX = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$")
_VALID_SCOPE_NAME_REGEX = re.compile(r"^[A-Za-z0-9_.\\/>-]*$")


def _ptr_key(p):
    return int(p)


class Tensor:
    """A symbolic handle to output `value_index` of an Operation (tf.Tensor).

    Its value is computed by Session.run / Tensor.eval. Attributes: name
    ("op:index"), dtype (DType), shape (TensorShape, from C shape
    inference), op, graph, device, value_index. Equality is identity (tensors
    are dict keys in feed_dict), as in TensorFlow's graph mode.
    """

    __array_priority__ = 100  # numpy defers `ndarray + tensor` to Tensor.__radd__

    def __init__(self, op, value_index, dtype):
        self._op = op
        self._value_index = value_index
        self._dtype = dtype

    @property
    def op(self):
        return self._op

    @property
    def graph(self):
        return self._op._graph

    @property
    def value_index(self):
        return self._value_index

    @property
    def dtype(self):
        return self._dtype

    @property
    def name(self):
        return "%s:%d" % (self._op.name, self._value_index)

    @property
    def device(self):
        return self._op.device

    def _as_tf_output(self):
        return (self._op._c_op, self._value_index)

    @property
    def shape(self):
        """The static shape (TensorShape) inferred by C shape inference."""
        dims = c_api.MT_GraphGetTensorShape(self.graph._c_graph, self._as_tf_output())
        if dims is None:
            return tensor_shape.unknown_shape()
        return tensor_shape.TensorShape([None if d < 0 else d for d in dims])

    def get_shape(self):
        """Alias of `shape` (tf.Tensor.get_shape)."""
        return self.shape

    @property
    def ndim(self):
        return self.shape.rank

    def set_shape(self, shape):
        """Refines the static shape by merging `shape` into it.

        ValueError with TensorFlow's shape-inference messages ("Shapes must be
        equal rank, but are 2 and 3", "Dimension 0 in both shapes must be
        equal, but are 2 and 3. Shapes are [2,3] and [3,3].") on conflicts.
        """
        shape = tensor_shape.as_shape(shape)
        mine = self.shape
        if mine.rank is not None and shape.rank is not None:
            if mine.rank != shape.rank:
                raise ValueError("Shapes must be equal rank, but are %d and %d" %
                                 (mine.rank, shape.rank))
            a, b = mine.as_list(), shape.as_list()
            for i, (x, y) in enumerate(zip(a, b)):
                if x is not None and y is not None and x != y:
                    def fmt(dims):
                        return "[%s]" % ",".join("?" if d is None else str(d) for d in dims)
                    raise ValueError("Dimension %d in both shapes must be equal, but are %d and "
                                     "%d. Shapes are %s and %s." % (i, x, y, fmt(a), fmt(b)))
        try:
            c_api.TF_GraphSetTensorShape(self.graph._c_graph, self._as_tf_output(),
                                         shape._as_c_dims())
        except errors.InvalidArgumentError as e:
            raise ValueError(e.message) from None

    def consumers(self):
        """Operations that take this tensor as an input (a list)."""
        pairs = c_api.MT_OperationOutputConsumers(self._as_tf_output())
        g = self.graph
        return [g._op_from_c(p) for p, _ in pairs]

    def eval(self, feed_dict=None, session=None):
        """Runs the graph in `session` (default: the default session) and
        returns this tensor's value as a NumPy array / scalar."""
        return _eval_using_default_session(self, feed_dict, self.graph, session)

    def __str__(self):
        shape = self.shape
        return "Tensor(\"%s\"%s%s%s)" % (
            self.name, (", shape=%s" % shape) if shape.rank is not None else "",
            (", dtype=%s" % self._dtype.name) if self._dtype else "",
            (", device=%s" % self.device) if self.device else "")

    def __repr__(self):
        return "<tf.Tensor '%s' shape=%s dtype=%s>" % (self.name, self.shape, self._dtype.name)

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return self is not other

    def _disallow(self, task):
        raise errors.OperatorNotAllowedInGraphError(
            task + " is not allowed. You can attempt the following resolutions to the problem: "
            "If you are running in Graph mode, use Eager execution mode or decorate this "
            "function with @tf.function. If you are using AutoGraph, you can try decorating this "
            "function with @tf.function. If that does not work, then you may be using an "
            "unsupported feature or your source code may not be visible to AutoGraph. See "
            "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/"
            "g3doc/reference/limitations.md#access-to-source-code for more information.")

    def __bool__(self):
        """OperatorNotAllowedInGraphError (a TypeError), as TensorFlow 2.21 graph mode."""
        self._disallow("Using a symbolic `tf.Tensor` as a Python `bool`")

    def __iter__(self):
        """OperatorNotAllowedInGraphError (a TypeError): TensorFlow 2.21 does
        not iterate symbolic tensors, even of known first dimension."""
        self._disallow("Iterating over a symbolic `tf.Tensor`")

    def __array__(self, dtype=None, copy=None):
        raise NotImplementedError(
            "Cannot convert a symbolic tf.Tensor (%s) to a numpy array. This error may indicate "
            "that you're trying to pass a Tensor to a NumPy call, which is not supported." %
            self.name)

    def __len__(self):
        raise TypeError("len is not well defined for a symbolic Tensor (%s). Please call "
                        "`x.shape` rather than `len(x)` for shape information." % self.name)

    # Operators (tensor_math_operator_overrides): defined in minitf.ops.math_ops.


class SymbolicTensor(Tensor):
    """The class of graph tensors (TensorFlow's SymbolicTensor): what
    `type(t).__name__` reports in TensorFlow's error messages."""


class Operation:
    """A node of the graph (tf.Operation), wrapping a TF_Operation*.

    Attributes: name, type, inputs, outputs, control_inputs, graph, device,
    node_def (NodeDef proto), op_def (OpDef proto). Created by Graph.create_op
    or when a GraphDef is imported, never directly by users.
    """

    def __init__(self, c_op, graph):
        self._c_op = c_op
        self._graph = graph
        self._name = c_api.TF_OperationName(c_op)
        self._type = c_api.TF_OperationOpType(c_op)
        n = c_api.TF_OperationNumOutputs(c_op)
        self._outputs = [SymbolicTensor(self, i, dtypes.as_dtype(c_api.TF_OperationOutputType((c_op, i))))
                         for i in range(n)]
        self._id = graph._next_id()
        self._traceback = _capture_stack()
        self._control_flow_context = None

    @property
    def name(self):
        return self._name

    @property
    def type(self):
        return self._type

    @property
    def graph(self):
        return self._graph

    @property
    def device(self):
        return c_api.TF_OperationDevice(self._c_op)

    @property
    def outputs(self):
        return list(self._outputs)

    def values(self):
        return tuple(self._outputs)

    @property
    def inputs(self):
        """The data inputs (a tuple of Tensors, in order), as TensorFlow 2.21."""
        g = self._graph
        return tuple(g._op_from_c(p)._outputs[i]
                     for p, i in c_api.MT_OperationAllInputs(self._c_op))

    @property
    def traceback(self):
        """Where this operation was created: a list of (filename, lineno,
        function name, source line) frames, outermost first, with the
        frames inside minitf itself left out."""
        import linecache
        return [(f, n, fn, linecache.getline(f, n).strip()) for f, n, fn in self._traceback]

    def _set_attr(self, attr_name, attr_value):
        """Replaces attr `attr_name` with `attr_value` (an AttrValue proto)."""
        c_api.MT_SetAttr(self._graph._c_graph, self._c_op, attr_name,
                         attr_value.SerializeToString())

    def _set_func_attr(self, attr_name, func_name):
        """Points function-valued attr `attr_name` at library function `func_name`."""
        self._set_attr(attr_name, attr_value_pb2.AttrValue(
            func=attr_value_pb2.NameAttrList(name=func_name)))

    def _set_type_list_attr(self, attr_name, types):
        """Replaces a list(type) attr with `types` (DTypes or enum values)."""
        enums = [dtypes.as_dtype(t).as_datatype_enum for t in types]
        self._set_attr(attr_name, attr_value_pb2.AttrValue(
            list=attr_value_pb2.AttrValue.ListValue(type=enums)))

    def _set_shape_list_attr(self, attr_name, shapes):
        """Replaces a list(shape) attr with `shapes` (TensorShapes)."""
        protos = [tensor_shape.as_shape(s).as_proto() for s in shapes]
        self._set_attr(attr_name, attr_value_pb2.AttrValue(
            list=attr_value_pb2.AttrValue.ListValue(shape=protos)))

    def _add_while_inputs(self, tensors):
        """Appends `tensors` to this op's last (list) input: TensorFlow's
        AddWhileInputHack. Set the list's type attr first."""
        c_api.MT_AddWhileInputsPy(self._graph._c_graph, self._c_op,
                                  [t._as_tf_output() for t in tensors])

    def _refresh_outputs(self):
        """Adds the outputs the op's attrs now give (after _set_type_list_attr
        grew them): TensorFlow's Operation._add_outputs. Returns the new ones."""
        c_api.MT_RefreshOutputs(self._graph._c_graph, self._c_op)
        n = c_api.TF_OperationNumOutputs(self._c_op)
        new = [SymbolicTensor(self, i, dtypes.as_dtype(
            c_api.TF_OperationOutputType((self._c_op, i)))) for i in range(len(self._outputs), n)]
        self._outputs.extend(new)
        return new

    def _set_device(self, device):
        """Sets the requested device (a string or DeviceSpec)."""
        c_api.MT_SetRequestedDevice(self._graph._c_graph, self._c_op,
                                    _device_string(device))

    def _add_control_input(self, op):
        """Makes `op` (an Operation) run before this one."""
        if not isinstance(op, Operation):
            raise RuntimeError("Expected a PyOperation got %s" % (op,))
        c_api.MT_AddControlInput(self._graph._c_graph, self._c_op, op._c_op)

    def _add_control_inputs(self, ops):
        """Makes every Operation of `ops` run before this one."""
        for op in ops:
            self._add_control_input(op)

    def _remove_all_control_inputs(self):
        """Drops every control input of this operation."""
        c_api.MT_RemoveAllControlInputs(self._graph._c_graph, self._c_op)

    def _update_input(self, index, tensor):
        """Makes input `index` read `tensor` instead (TF_UpdateEdge): how v1
        control flow routes an outer tensor through Switch/Enter and closes a
        loop's NextIteration -> Merge back edge."""
        if not isinstance(tensor, Tensor):
            raise TypeError("tensor must be a Tensor: %s" % tensor)
        if tensor.graph is not self._graph:
            raise ValueError("Tensor %s must be from the same graph as %s." % (tensor, self))
        c_api.TF_UpdateEdge(self._graph._c_graph, tensor._as_tf_output(), (self._c_op, index))

    def _get_control_flow_context(self):
        """The v1 control-flow context (CondContext / WhileContext) the op was built in."""
        return self._control_flow_context

    def _set_control_flow_context(self, ctx):
        self._control_flow_context = ctx

    @property
    def num_inputs(self):
        return c_api.TF_OperationNumInputs(self._c_op)

    @property
    def control_inputs(self):
        """Operations that must run before this one (control dependencies)."""
        g = self._graph
        return [g._op_from_c(p) for p in c_api.MT_OperationGetControlInputs(self._c_op)]

    @property
    def _control_outputs(self):
        g = self._graph
        return [g._op_from_c(p) for p in c_api.MT_OperationGetControlOutputs(self._c_op)]

    @property
    def node_def(self):
        """This operation as a NodeDef proto (TF_OperationToNodeDef)."""
        return node_def_pb2.NodeDef.FromString(c_api.TF_OperationToNodeDef(self._c_op))

    @property
    def op_def(self):
        """The registered OpDef of this operation's type."""
        return op_def_pb2.OpDef.FromString(
            c_api.TF_GraphGetOpDef(self._graph._c_graph, self._type))

    def get_attr(self, name):
        """The value of attr `name`, as TensorFlow returns it: bytes for
        strings, int, float, bool, DType for types, TensorShapeProto,
        TensorProto, NameAttrList, or a list of those. ValueError if the
        operation has no such attr."""
        try:
            data = c_api.TF_OperationGetAttrValueProto(self._c_op, name)
        except errors.InvalidArgumentError as e:
            raise ValueError(e.message) from None
        return _attr_value_to_python(attr_value_pb2.AttrValue.FromString(data))

    def run(self, feed_dict=None, session=None):
        """Runs this operation in `session` (default: the default session)."""
        _run_using_default_session(self, feed_dict, self._graph, session)

    def colocation_groups(self):
        """The "loc:@<op>" groups of the `_class` attr, or [b"loc:@<own name>"]."""
        default = [b"loc:@" + self._name.encode()]
        try:
            class_attr = self.get_attr("_class")
        except ValueError:
            return default
        groups = [c for c in class_attr if c.startswith(b"loc:@")]
        return groups if groups else default

    def __repr__(self):
        return "<tf.Operation '%s' type=%s>" % (self._name, self._type)

    def __str__(self):
        return str(self.node_def)


_MINITF_DIR = __file__.rsplit("/", 2)[0] + "/"


def _capture_stack():
    """(filename, lineno, function) of the caller frames outside minitf,
    outermost first; source lines are read only when asked for."""
    import sys
    frames = []
    f = sys._getframe(2)
    while f is not None:
        code = f.f_code
        if not code.co_filename.startswith(_MINITF_DIR):
            frames.append((code.co_filename, f.f_lineno, code.co_name))
        f = f.f_back
    frames.reverse()
    return frames


def _op_to_colocate_with(v, graph):
    """The Operation to colocate with for an Operation, Tensor or variable."""
    if v is None:
        return None
    if isinstance(v, Operation):
        return v
    if isinstance(v, Tensor):
        return v.op
    handle = getattr(v, "handle", None)
    if isinstance(handle, Tensor):
        return handle.op
    if hasattr(v, "_as_graph_element"):
        el = v._as_graph_element()
        return el.op if isinstance(el, Tensor) else el
    return convert_to_tensor(v, as_ref=True).op


def _device_string(device):
    if device is None:
        return ""
    if hasattr(device, "to_string"):
        return device.to_string()
    return device


def _attr_value_to_python(x):
    fields = ("s", "i", "f", "b", "type", "shape", "tensor", "func")
    which = x.WhichOneof("value")
    if which is None:
        return []
    if which == "list":
        for f in fields:
            if getattr(x.list, f):
                if f == "type":
                    return [dtypes.as_dtype(t) for t in x.list.type]
                return list(getattr(x.list, f))
        return []
    if which == "type":
        return dtypes.as_dtype(x.type)
    return getattr(x, which)


class GraphKeys:
    """Standard collection names (tf.GraphKeys), with TensorFlow's values."""

    GLOBAL_VARIABLES = "variables"
    LOCAL_VARIABLES = "local_variables"
    METRIC_VARIABLES = "metric_variables"
    MODEL_VARIABLES = "model_variables"
    TRAINABLE_VARIABLES = "trainable_variables"
    SUMMARIES = "summaries"
    QUEUE_RUNNERS = "queue_runners"
    TABLE_INITIALIZERS = "table_initializer"
    ASSET_FILEPATHS = "asset_filepaths"
    MOVING_AVERAGE_VARIABLES = "moving_average_variables"
    REGULARIZATION_LOSSES = "regularization_losses"
    CONCATENATED_VARIABLES = "concatenated_variables"
    SAVERS = "savers"
    WEIGHTS = "weights"
    BIASES = "biases"
    ACTIVATIONS = "activations"
    UPDATE_OPS = "update_ops"
    LOSSES = "losses"
    SAVEABLE_OBJECTS = "saveable_objects"
    RESOURCES = "resources"
    LOCAL_RESOURCES = "local_resources"
    TRAINABLE_RESOURCE_VARIABLES = "trainable_resource_variables"
    INIT_OP = "init_op"
    LOCAL_INIT_OP = "local_init_op"
    READY_OP = "ready_op"
    READY_FOR_LOCAL_INIT_OP = "ready_for_local_init_op"
    SUMMARY_OP = "summary_op"
    GLOBAL_STEP = "global_step"
    EVAL_STEP = "eval_step"
    TRAIN_OP = "train_op"
    COND_CONTEXT = "cond_context"
    WHILE_CONTEXT = "while_context"
    _SUMMARY_COLLECTION = "_SUMMARY_V2"
    _VARIABLE_COLLECTIONS = [
        GLOBAL_VARIABLES, LOCAL_VARIABLES, METRIC_VARIABLES, MODEL_VARIABLES,
        TRAINABLE_VARIABLES, MOVING_AVERAGE_VARIABLES, CONCATENATED_VARIABLES,
        TRAINABLE_RESOURCE_VARIABLES,
    ]
    _STREAMING_MODEL_PORTS = "streaming_model_ports"
    VARIABLES = GLOBAL_VARIABLES


class _ControlDependenciesController:
    def __init__(self, graph, control_inputs):
        self._graph = graph
        self._control_inputs = control_inputs or []
        self._new_stack = control_inputs is None
        self._seen = set()

    @property
    def control_inputs(self):
        return self._control_inputs

    def add_op(self, op):
        self._seen.add(op)

    def op_in_group(self, op):
        return op in self._seen

    def __enter__(self):
        if self._new_stack:
            self._old_stack = self._graph._control_dependencies_stack
            self._graph._control_dependencies_stack = []
            # control_dependencies(None) also leaves any v1 cond/while context (as TF)
            self._old_context = self._graph._control_flow_context
            self._graph._control_flow_context = None
        self._graph._control_dependencies_stack.append(self)

    def __exit__(self, *exc):
        self._graph._control_dependencies_stack.pop()
        if self._new_stack:
            self._graph._control_dependencies_stack = self._old_stack
            self._graph._control_flow_context = self._old_context


class Graph:
    """A dataflow graph (tf.Graph); the graph itself lives in C (TF_Graph).

    Use `with g.as_default():` to make it the default graph of the thread.
    Thread-safety, as TensorFlow documents for tf.Graph: building the graph (creating ops,
    name scopes, collections) is not thread-safe — build from one thread at a time; reading it
    (get_operation_by_name, get_tensor_by_name, get_operations, as_graph_element, collections)
    is safe from several threads at once, and so is running it in a Session.
    """

    def __init__(self):
        self._c_graph = c_api.TF_NewGraph()
        self._lock = threading.RLock()
        self._ops_by_ptr = {}
        self._names_in_use = {}
        self._name_stack = ""
        self._collections = {}
        self._control_dependencies_stack = []
        self._device_function_stack = []
        self._colocation_stack = []
        self._container = ""
        self._gradient_override_map = {}
        self._attr_scope_map = {}
        self._op_to_kernel_label_map = {}
        self._finalized = False
        self._last_id = 0
        self._building_function = False
        self._seed = None
        self._variable_creator_stack = []
        self._unfeedable_tensors = set()
        self._unfetchable_ops = set()
        # v1 control flow (minitf.ops.control_flow_v1): the context new ops join,
        # and whether any context was ever made (ops then check their inputs' frames)
        self._control_flow_context = None
        self._uses_v1_control_flow = False

    def __del__(self):
        c = getattr(self, "_c_graph", None)
        if c is not None and c_api is not None:
            c_api.TF_DeleteGraph(c)
            self._c_graph = None

    def _next_id(self):
        self._last_id += 1
        return self._last_id

    # -- operations -------------------------------------------------------

    def _op_from_c(self, c_op):
        """The Operation wrapping `c_op`, created on first sight (imports)."""
        key = _ptr_key(c_op)
        op = self._ops_by_ptr.get(key)
        if op is None:
            op = Operation(c_op, self)
            self._ops_by_ptr[key] = op
            name_key = op.name.lower()
            if name_key not in self._names_in_use:
                self._names_in_use[name_key] = 1
        return op

    def _add_new_ops(self, c_ops):
        return [self._op_from_c(p) for p in c_ops]

    def get_operations(self):
        """All operations of the graph, in creation order."""
        return [self._op_from_c(p) for p in c_api.MT_GraphOperations(self._c_graph)]

    @property
    def version(self):
        return self._last_id

    @property
    def graph_def_versions(self):
        return self.as_graph_def().versions

    @property
    def building_function(self):
        return self._building_function

    @property
    def finalized(self):
        return self._finalized

    @property
    def seed(self):
        return self._seed

    @seed.setter
    def seed(self, seed):
        self._seed = seed

    def finalize(self):
        """Makes the graph read-only: creating ops raises RuntimeError."""
        self._finalized = True

    def _unsafe_unfinalize(self):
        self._finalized = False

    def _check_not_finalized(self):
        if self._finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")

    def create_op(self, op_type, inputs, dtypes=None, input_types=None, name=None, attrs=None,
                  op_def=None, compute_shapes=True, compute_device=True):
        """Adds an operation through the C API and returns it (tf.Graph.create_op).

        `inputs`: a list whose items are Tensors, or lists of Tensors for list
        arguments of the OpDef; `attrs`: {name: AttrValue proto or value}.
        `name` is made unique ("name_1"...) unless it ends with "/". Errors
        from TF_FinishOperation (bad dtypes, shape mismatches) are raised as
        ValueError with TensorFlow's message; unknown op types as
        NotFoundError.
        """
        from minitf.framework import op_def_library
        self._check_not_finalized()
        if name is None:
            name = op_type
        if name and name[-1] == "/":
            name = name[:-1]
        else:
            name = self.unique_name(name)
        if not _VALID_OP_NAME_REGEX.match(name):
            raise ValueError("`%s` is not a valid node name. Accepted names conform to Regex /%r/"
                             % (name, _VALID_OP_NAME_REGEX))
        if op_def is None:
            op_def = op_def_library.get_op_def(op_type)
        return op_def_library.create_c_op(self, op_def, name, inputs, attrs or {})

    def _record_op(self, c_op, input_ops):
        op = self._op_from_c(c_op)
        if self._uses_v1_control_flow:
            self._control_flow_post_processing(op)
        self._apply_op_scopes(op)
        for controller in self._control_dependencies_stack:
            controller.add_op(op)
        return op

    def _control_flow_post_processing(self, op):
        """TF's Operation._control_flow_post_processing: rejects inputs from
        another while loop, then lets the enclosing v1 context route the
        op's inputs (Switch / Enter) under the op's own name scope."""
        from minitf.ops import control_flow_util
        ctx = self._control_flow_context
        op._control_flow_context = ctx
        for t in op.inputs:
            control_flow_util.CheckInputFromValidContext(op, t.op)
        if ctx is not None:
            saved = self._name_stack
            self._name_stack = op.name
            try:
                ctx.AddOp(op)
            finally:
                self._name_stack = saved

    def _get_control_flow_context(self):
        """The v1 control-flow context new ops join (None outside cond/while_loop)."""
        return self._control_flow_context

    def _set_control_flow_context(self, ctx):
        if ctx is not None:
            self._uses_v1_control_flow = True
        self._control_flow_context = ctx

    def _record_op_seen_by_control_dependencies(self, op):
        for controller in self._control_dependencies_stack:
            controller.add_op(op)

    def _is_function(self, name):
        """True when op type `name` calls a library function by name (TF's
        Graph._is_function). minitf calls functions through PartitionedCall /
        If / While only, so an op type is never a function name here."""
        from minitf.framework import op_def_library
        return name not in op_def_library.get_registered_ops()

    def _control_dependencies_for_inputs(self, input_ops):
        ret = []
        for controller in self._control_dependencies_stack:
            if any(controller.op_in_group(op) for op in input_ops):
                continue
            for c in controller.control_inputs:
                if c not in input_ops and c not in ret:
                    ret.append(c)
        return ret

    @contextlib.contextmanager
    def _dummy(self):
        yield

    def control_dependencies(self, control_inputs):
        """Context manager: ops created inside run after `control_inputs`
        (Operations or Tensors). None clears the enclosing dependencies."""
        if control_inputs is None:
            return _ControlDependenciesController(self, None)
        ops = []
        current = self._control_dependencies_stack and \
            self._control_dependencies_stack[-1].control_inputs or []
        for c in control_inputs:
            if hasattr(c, "_as_graph_element") and not isinstance(c, (Tensor, Operation)):
                c = c._as_graph_element()
            c = self.as_graph_element(c)
            if isinstance(c, Tensor):
                c = c.op
            if c not in current and c not in ops:
                ops.append(c)
                # TensorFlow marks every manual control input this way; the
                # attr shows in GraphDefs and node_def.
                c._set_attr("_has_manual_control_dependencies",
                            attr_value_pb2.AttrValue(b=True))
        return _ControlDependenciesController(self, ops)

    @contextlib.contextmanager
    def device(self, device_name_or_function):
        """Context manager for the device of ops created inside (tf.Graph.device).

        A string (or DeviceSpec) is merged under the enclosing ones: fields it
        sets win, the others come from outside ("/job:w/task:1" then "/gpu:1"
        gives "/job:w/task:1/device:GPU:1"). "" changes nothing; None clears
        every enclosing device. A function is called with the new Operation
        and its result (a string) is used as is. ValueError for malformed
        device strings.
        """
        from minitf.framework import device as pydev
        d = device_name_or_function
        if d is None:
            entry = (None, None)
        elif callable(d):
            entry = ("function", d)
        else:
            if isinstance(d, bytes):
                d = d.decode()
            spec = d if isinstance(d, pydev.DeviceSpecV1) else pydev.DeviceSpecV1.from_string(d)
            entry = ("null", None) if not spec.to_string() else ("merge", spec)
        self._device_function_stack.append(entry)
        try:
            yield
        finally:
            self._device_function_stack.pop()

    def _current_device(self, op_type=None):
        """Kept for callers that set a device before the op exists: devices
        are applied after creation (_apply_device_functions)."""
        return ""

    def _apply_device_functions(self, op):
        """Sets op's device from the device stack, innermost first, as TF."""
        from minitf.framework import device as pydev
        current = None
        for kind, value in reversed(self._device_function_stack):
            if kind == "null":
                continue
            if kind is None:
                break
            if kind == "function":
                result = value(op)
                current = _device_string(result)
            else:
                base = pydev.DeviceSpecV1.from_string(current or "")
                current = value.make_merged_spec(base).to_string()
        if current:
            op._set_device(current)

    @contextlib.contextmanager
    def colocate_with(self, op, ignore_existing=False):
        """Ops created inside are colocated with `op` (an Operation, Tensor or
        variable): they get the `_class` attr ["loc:@<op name>", ...] and
        op's device, whatever the device scope. ignore_existing=True drops
        the enclosing colocations; op=None with ignore_existing=True clears
        them. ValueError "Trying to reset colocation (op is None) but
        ignore_existing is not True" otherwise.
        """
        if op is None and not ignore_existing:
            raise ValueError("Trying to reset colocation (op is None) but ignore_existing is "
                             "not True")
        op = _op_to_colocate_with(op, self)
        saved_devices = self._device_function_stack
        self._device_function_stack = []
        saved_coloc = None
        if ignore_existing:
            saved_coloc = self._colocation_stack
            self._colocation_stack = []
        if op is not None:
            self._colocation_stack.append(op)
        try:
            yield
        finally:
            self._device_function_stack = saved_devices
            if op is not None:
                self._colocation_stack.pop()
            if ignore_existing:
                self._colocation_stack = saved_coloc

    @contextlib.contextmanager
    def container(self, container_name):
        """Stateful ops created inside (variables, queues) use resource
        container `container_name` ("" is the default container)."""
        original = self._container
        self._container = container_name
        try:
            yield self._container
        finally:
            self._container = original

    @contextlib.contextmanager
    def gradient_override_map(self, op_type_map):
        """Ops whose type is a key of `op_type_map` get the attr
        `_gradient_op_type` = the mapped name: tf.gradients then uses the
        gradient registered under that name. TypeError unless str -> str."""
        if not isinstance(op_type_map, dict):
            raise TypeError("op_type_map must be a dictionary mapping strings to strings")
        saved = {}
        for op_type, mapped in op_type_map.items():
            if not (isinstance(op_type, str) and isinstance(mapped, str)):
                raise TypeError("op_type_map must be a dictionary mapping strings to strings")
            saved[op_type] = self._gradient_override_map.get(op_type)
            self._gradient_override_map[op_type] = mapped
        try:
            yield
        finally:
            for op_type, old in saved.items():
                if old is None:
                    del self._gradient_override_map[op_type]
                else:
                    self._gradient_override_map[op_type] = old

    @contextlib.contextmanager
    def _attr_scope(self, attr_map):
        """Ops created inside get the extra attrs of `attr_map` ({name:
        AttrValue, or callable(node_def) -> AttrValue or None, or None})."""
        if not isinstance(attr_map, dict):
            raise TypeError("attr_map must be a dictionary mapping strings to AttrValue "
                            "protocol buffers or callables that emit AttrValue protocol buffers")
        saved = {}
        for name, attr in attr_map.items():
            if not (isinstance(name, str) and (isinstance(attr, (type(None),
                                                                 attr_value_pb2.AttrValue))
                                               or callable(attr))):
                raise TypeError("attr_map must be a dictionary mapping strings to AttrValue "
                                "protocol buffers or callables that emit AttrValue protocol "
                                "buffers")
            saved[name] = self._attr_scope_map.get(name)
            self._attr_scope_map[name] = attr
        try:
            yield
        finally:
            for name, old in saved.items():
                if old is None:
                    self._attr_scope_map.pop(name, None)
                else:
                    self._attr_scope_map[name] = old

    @contextlib.contextmanager
    def _kernel_label_map(self, op_to_kernel_label_map):
        """Ops of the mapped types get the attr `_kernel` = the label."""
        if not isinstance(op_to_kernel_label_map, dict):
            raise TypeError("op_to_kernel_label_map must be a dictionary mapping strings to "
                            "strings")
        saved = {}
        for op_type, label in op_to_kernel_label_map.items():
            if not (isinstance(op_type, str) and isinstance(label, str)):
                raise TypeError("op_to_kernel_label_map must be a dictionary mapping strings "
                                "to strings")
            saved[op_type] = self._op_to_kernel_label_map.get(op_type)
            self._op_to_kernel_label_map[op_type] = label
        try:
            yield
        finally:
            for op_type, old in saved.items():
                if old is None:
                    del self._op_to_kernel_label_map[op_type]
                else:
                    self._op_to_kernel_label_map[op_type] = old

    def _apply_op_scopes(self, op):
        """Attrs and device from the enclosing scopes, for a new op (TF's
        _create_op_helper order: attr scopes, kernel label, gradient
        override, device functions, colocation)."""
        for key, value in self._attr_scope_map.items():
            if callable(value):
                value = value(op.node_def)
                if not isinstance(value, (type(None), attr_value_pb2.AttrValue)):
                    raise TypeError("Callable for scope map key '%s' must return either None "
                                    "or an AttrValue protocol buffer; but it returned: %s" %
                                    (key, value))
            if value:
                op._set_attr(key, value)
        label = self._op_to_kernel_label_map.get(op.type)
        if label is not None:
            op._set_attr("_kernel", attr_value_pb2.AttrValue(s=label.encode()))
        mapped = self._gradient_override_map.get(op.type)
        if mapped is not None:
            op._set_attr("_gradient_op_type", attr_value_pb2.AttrValue(s=mapped.encode()))
        self._apply_device_functions(op)
        if self._colocation_stack:
            groups = []
            device_set = False
            for coloc in reversed(self._colocation_stack):
                groups.extend(coloc.colocation_groups())
                if coloc.device and not device_set:
                    op._set_device(coloc.device)
                    device_set = True
            op._set_attr("_class", attr_value_pb2.AttrValue(
                list=attr_value_pb2.AttrValue.ListValue(s=sorted(set(groups)))))

    # -- names ------------------------------------------------------------

    def unique_name(self, name, mark_as_used=True):
        """`name` prefixed by the name scope and made unique with "_1", "_2"...
        (case-insensitively, as TensorFlow)."""
        if self._name_stack:
            name = self._name_stack + "/" + name
        name_key = name.lower()
        i = self._names_in_use.get(name_key, 0)
        if mark_as_used:
            self._names_in_use[name_key] = i + 1
        if i > 0:
            base_name_key = name_key
            while name_key in self._names_in_use:
                name_key = "%s_%d" % (base_name_key, i)
                i += 1
            if mark_as_used:
                self._names_in_use[name_key] = 1
            name = "%s_%d" % (name, i - 1)
        return name

    def _repr_svg_(self):
        """SVG picture for notebooks (graphviz package + dot); None without."""
        from minitf.framework import graph_viz
        return graph_viz.repr_svg(self)

    def get_name_scope(self):
        return self._name_stack

    @contextlib.contextmanager
    def name_scope(self, name):
        """Context manager for a name scope (tf.Graph.name_scope).

        Yields the scope string ending in "/". A name ending in "/" is used
        as is (re-entering a scope); "" or None returns to the top level.
        Other names are made unique ("foo", "foo_1"). ValueError with
        TensorFlow's message for names outside the allowed characters (a root
        scope may not start with "_", "-", "/" or "\\").
        """
        if name:
            if isinstance(name, bytes):
                name = name.decode()
            if self._name_stack:
                if not _VALID_SCOPE_NAME_REGEX.match(name):
                    raise ValueError("'%s' is not a valid scope name. A scope name has to match "
                                     "the following pattern: %s" %
                                     (name, _VALID_SCOPE_NAME_REGEX.pattern))
            elif not _VALID_OP_NAME_REGEX.match(name):
                raise ValueError("'%s' is not a valid root scope name. A root scope name has to "
                                 "match the following pattern: %s" %
                                 (name, _VALID_OP_NAME_REGEX.pattern))
        old_stack = self._name_stack
        if not name:
            new_stack = ""
            returned_scope = ""
        elif name[-1] == "/":
            new_stack = name[:-1]
            returned_scope = name
        else:
            new_stack = self.unique_name(name)
            returned_scope = new_stack + "/"
        self._name_stack = new_stack
        try:
            yield returned_scope
        finally:
            self._name_stack = old_stack

    # -- lookup -----------------------------------------------------------

    def as_graph_element(self, obj, allow_tensor=True, allow_operation=True):
        """The Tensor or Operation named by `obj` (a name, Tensor or Operation).

        Raises TypeError for other objects, ValueError for elements of other
        graphs or of the wrong kind, KeyError for names not in the graph,
        with TensorFlow's messages.
        """
        if allow_tensor and allow_operation:
            types_str = "Tensor or Operation"
        elif allow_tensor:
            types_str = "Tensor"
        elif allow_operation:
            types_str = "Operation"
        else:
            raise ValueError("allow_tensor and allow_operation can't both be False.")
        conv = getattr(obj, "_as_graph_element", None)
        if conv is not None and callable(conv) and not isinstance(obj, (Tensor, Operation)):
            obj = conv()
        if isinstance(obj, str):
            name = obj
            if ":" in name and allow_tensor:
                try:
                    op_name, out_n = name.split(":")
                    out_n = int(out_n)
                except ValueError:
                    raise ValueError("The name %s looks a like a Tensor name, but is not a valid "
                                     "one. Tensor names must be of the form "
                                     "\"<op_name>:<output_index>\"." % repr(name)) from None
                c_op = c_api.TF_GraphOperationByName(self._c_graph, op_name)
                if c_op is None:
                    raise KeyError("The name %s refers to a Tensor which does not exist. The "
                                   "operation, %s, does not exist in the graph." %
                                   (repr(name), repr(op_name)))
                op = self._op_from_c(c_op)
                try:
                    if out_n < 0:
                        raise IndexError
                    return op._outputs[out_n]
                except IndexError:
                    raise KeyError("The name %s refers to a Tensor which does not exist. The "
                                   "operation, %s, exists but only has %s outputs." %
                                   (repr(name), repr(op_name), len(op._outputs))) from None
            elif ":" in name and not allow_tensor:
                raise ValueError("Name %s appears to refer to a Tensor, not a %s." %
                                 (repr(name), types_str))
            elif ":" not in name and allow_operation:
                c_op = c_api.TF_GraphOperationByName(self._c_graph, name)
                if c_op is None:
                    raise KeyError("The name %s refers to an Operation not in the graph." %
                                   repr(name))
                return self._op_from_c(c_op)
            else:
                c_op = c_api.TF_GraphOperationByName(self._c_graph, name)
                if c_op is not None:
                    err = ("The name %s refers to an Operation, not a %s." % (repr(name), types_str))
                else:
                    err = ("The name %s looks like an (invalid) Operation name, not a %s." %
                           (repr(name), types_str))
                raise ValueError(err + " Tensor names must be of the form "
                                 "\"<op_name>:<output_index>\".")
        elif isinstance(obj, Tensor) and allow_tensor:
            if obj.graph is not self:
                raise ValueError("Tensor %s is not an element of this graph." % obj)
            return obj
        elif isinstance(obj, Operation) and allow_operation:
            if obj.graph is not self:
                raise ValueError("Operation %s is not an element of this graph." % obj)
            return obj
        else:
            raise TypeError("Can not convert a %s into a %s." % (type(obj).__name__, types_str))

    def get_operation_by_name(self, name):
        """The Operation called `name`; KeyError if absent."""
        if not isinstance(name, str):
            raise TypeError("Operation names are strings (or similar), not %s." %
                            type(name).__name__)
        return self.as_graph_element(name, allow_tensor=False, allow_operation=True)

    def get_tensor_by_name(self, name):
        """The Tensor called `name` ("op:index"); KeyError if absent."""
        if not isinstance(name, str):
            raise TypeError("Tensor names are strings (or similar), not %s." %
                            type(name).__name__)
        return self.as_graph_element(name, allow_tensor=True, allow_operation=False)

    # -- serialization ----------------------------------------------------

    def as_graph_def(self, from_version=None, add_shapes=False):
        """The graph as a GraphDef proto (TF_GraphToGraphDef).

        add_shapes=True adds each node's "_output_shapes" attr (a list of
        TensorShapeProto), as TensorFlow does.
        """
        gd = graph_pb2.GraphDef.FromString(c_api.TF_GraphToGraphDef(self._c_graph))
        if add_shapes:
            for node in gd.node:
                op = self.get_operation_by_name(node.name)
                if op._outputs:
                    node.attr["_output_shapes"].list.shape.extend(
                        [t.shape.as_proto() for t in op._outputs])
        return gd

    # -- collections ------------------------------------------------------

    def add_to_collection(self, name, value):
        """Appends `value` to collection `name` (RuntimeError once finalized)."""
        self._check_not_finalized()
        with self._lock:
            self._collections.setdefault(name, []).append(value)

    def add_to_collections(self, names, value):
        """Adds `value` to each collection of `names` (a string or an
        iterable; duplicates are added once)."""
        names = (names,) if isinstance(names, str) else set(names)
        for n in names:
            self.add_to_collection(n, value)

    def get_collection_ref(self, name):
        """The list stored as collection `name` itself (created empty when
        missing); changes to it change the collection."""
        with self._lock:
            return self._collections.setdefault(name, [])

    def get_collection(self, name, scope=None):
        """A copy of collection `name` ([] when missing). With `scope`, only
        items whose `name` attribute matches re.match(scope); items without a
        name are dropped."""
        with self._lock:
            coll = self._collections.get(name)
            if coll is None:
                return []
            if scope is None:
                return list(coll)
            regex = re.compile(scope)
            out = []
            for item in coll:
                try:
                    if regex.match(item.name):
                        out.append(item)
                except AttributeError:
                    pass
            return out

    def get_all_collection_keys(self):
        """The names (string keys only) of the collections in this graph."""
        with self._lock:
            return [k for k in self._collections if isinstance(k, str)]

    def clear_collection(self, name):
        """Removes collection `name` (no error when it does not exist)."""
        self._check_not_finalized()
        with self._lock:
            self._collections.pop(name, None)

    # -- default graph ----------------------------------------------------

    def as_default(self):
        """Context manager making this the default graph of the thread."""
        return _default_graph_stack.get_controller(self)

    def prevent_feeding(self, tensor):
        """Marks `tensor` as unfeedable: Session.run rejects it in feed_dict
        with ValueError "Tensor <name> may not be fed." (tf.Graph)."""
        self._unfeedable_tensors.add(tensor)

    def is_feedable(self, tensor):
        """False iff prevent_feeding(tensor) was called (any other object,
        e.g. a name string, is feedable as in TensorFlow)."""
        return tensor not in self._unfeedable_tensors

    def prevent_fetching(self, op):
        """Marks Operation `op` (and so its outputs) as unfetchable:
        Session.run raises InaccessibleTensorError (a ValueError)."""
        self._unfetchable_ops.add(op)

    def is_fetchable(self, tensor_or_op):
        """False iff the op (or the tensor's op) was passed to prevent_fetching."""
        if isinstance(tensor_or_op, Tensor):
            return tensor_or_op.op not in self._unfetchable_ops
        return tensor_or_op not in self._unfetchable_ops


class _DefaultGraphStack(threading.local):
    def __init__(self):
        super().__init__()
        self.stack = []

    @contextlib.contextmanager
    def get_controller(self, graph):
        self.stack.append(graph)
        try:
            yield graph
        finally:
            if self.stack and self.stack[-1] is graph:
                self.stack.pop()
            elif graph in self.stack:
                self.stack.remove(graph)


_default_graph_stack = _DefaultGraphStack()
_global_default_graph = None
_global_lock = threading.Lock()


def get_default_graph():
    """The default graph of the current thread (tf.get_default_graph): the
    innermost `as_default()` graph, else the process-wide global graph."""
    global _global_default_graph
    if _default_graph_stack.stack:
        return _default_graph_stack.stack[-1]
    with _global_lock:
        if _global_default_graph is None:
            _global_default_graph = Graph()
        return _global_default_graph


def reset_default_graph():
    """Replaces the global default graph with a new empty one.

    AssertionError inside a `with graph.as_default()` block (as TensorFlow).
    """
    global _global_default_graph
    if _default_graph_stack.stack:
        raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. "
                             "If you need a cleared graph, exit the nesting and create a new "
                             "graph.")
    _default_session_stack.stack[:] = []
    with _global_lock:
        _global_default_graph = Graph()


def _get_graph_from_inputs(op_input_list, graph=None):
    default = get_default_graph()
    if default.building_function:  # outer tensors are captured by the function graph
        return default
    for x in op_input_list:
        if isinstance(x, (Tensor, Operation)):
            return x.graph
        g = getattr(x, "graph", None)
        if isinstance(g, Graph):
            return g
    return graph or get_default_graph()


@contextlib.contextmanager
def init_scope():
    """Lifts op creation out of control-flow and function-building contexts (tf.init_scope).

    Mirrors TensorFlow's `tf.compat.v1.init_scope` in graph mode: on entry the control
    dependencies are cleared and, while a function (a cond branch, a loop body, a
    `Dataset.map` body) is being built, the outermost graph becomes the default graph.
    The current name scope is kept: an op named "v" inside `name_scope("outer")` is
    still "outer/v". Used for variables and optimizer slots, which must not depend on
    the ops around their creation. Raises nothing itself.
    """
    graph = get_default_graph()
    scope = graph.get_name_scope()
    if scope and not scope.endswith("/"):
        scope += "/"  # re-enter the scope as is instead of making "outer_1"
    outer = graph
    while getattr(outer, "outer_graph", None) is not None:
        outer = outer.outer_graph
    with outer.as_default(), outer.control_dependencies(None), outer.name_scope(scope or None):
        yield


@contextlib.contextmanager
def name_scope(name, default_name=None, values=None):
    """tf.compat.v1.name_scope: a scope named `name` (or `default_name`) in
    the graph of `values` (or the default graph); yields "scope/"."""
    n = default_name if name is None else name
    if not n and default_name is not None and name is None:
        n = default_name
    g = _get_graph_from_inputs(values or [])
    with g.as_default(), g.name_scope(n) as scope:
        yield scope


def control_dependencies(control_inputs):
    """tf.control_dependencies on the default graph."""
    return get_default_graph().control_dependencies(control_inputs)


def device(device_name_or_function):
    """tf.compat.v1.device on the default graph: a device string (or DeviceSpec), or a
    function of the Operation returning one (Graph.device)."""
    return get_default_graph().device(device_name_or_function)


def container(container_name):
    """tf.compat.v1.container on the default graph."""
    return get_default_graph().container(container_name)


def colocate_with(op, ignore_existing=False):
    """tf.compat.v1.colocate_with on the default graph."""
    return get_default_graph().colocate_with(op, ignore_existing)


def add_to_collection(name, value):
    """tf.compat.v1.add_to_collection on the default graph."""
    get_default_graph().add_to_collection(name, value)


def add_to_collections(names, value):
    """tf.compat.v1.add_to_collections on the default graph."""
    get_default_graph().add_to_collections(names, value)


def get_all_collection_keys():
    """tf.compat.v1.get_all_collection_keys of the default graph."""
    return get_default_graph().get_all_collection_keys()


def get_collection(key, scope=None):
    return get_default_graph().get_collection(key, scope)


def get_collection_ref(key):
    return get_default_graph().get_collection_ref(key)


# -- default session (the Session class lives in minitf.client.session) ----

class _DefaultSessionStack(threading.local):
    def __init__(self):
        super().__init__()
        self.stack = []

    @contextlib.contextmanager
    def get_controller(self, sess):
        self.stack.append(sess)
        try:
            yield sess
        finally:
            if self.stack and self.stack[-1] is sess:
                self.stack.pop()


_default_session_stack = _DefaultSessionStack()


def get_default_session():
    """The innermost session entered with `with sess:` / `as_default()`, or None."""
    return _default_session_stack.stack[-1] if _default_session_stack.stack else None


def _eval_using_default_session(tensors, feed_dict, graph, session=None):
    if session is None:
        session = get_default_session()
        if session is None:
            raise ValueError("Cannot evaluate tensor using `eval()`: No default session is "
                             "registered. Use `with sess.as_default()` or pass an explicit "
                             "session to `eval(session=sess)`")
        if session.graph is not graph:
            raise ValueError("Cannot use the default session to evaluate tensor: the tensor's "
                             "graph is different from the session's graph. Pass an explicit "
                             "session to `eval(session=sess)`.")
    elif session.graph is not graph:
        raise ValueError("Cannot use the given session to evaluate tensor: the tensor's graph "
                         "is different from the session's graph.")
    return session.run(tensors, feed_dict)


def _run_using_default_session(operation, feed_dict, graph, session=None):
    if session is None:
        session = get_default_session()
        if session is None:
            raise ValueError("Cannot execute operation using `run()`: No default session is "
                             "registered. Use `with sess.as_default():` or pass an explicit "
                             "session to `run(session=sess)`")
        if session.graph is not graph:
            raise ValueError("Cannot use the default session to execute operation: the "
                             "operation's graph is different from the session's graph. Pass an "
                             "explicit session to run(session=sess).")
    elif session.graph is not graph:
        raise ValueError("Cannot use the given session to execute operation: the operation's "
                         "graph is different from the session's graph.")
    session.run(operation, feed_dict)


# -- conversion to tensors ----------------------------------------------

_tensor_conversion_functions = []


def register_tensor_conversion_function(base_type, conversion_func, priority=100):
    """Registers conversion_func(value, dtype, name, as_ref) for `base_type`."""
    _tensor_conversion_functions.append((priority, base_type, conversion_func))
    _tensor_conversion_functions.sort(key=lambda t: t[0])


def convert_to_tensor(value, dtype=None, name=None, preferred_dtype=None, dtype_hint=None,
                      as_ref=False):
    """`value` as a Tensor (tf.convert_to_tensor).

    Tensors pass through (TypeError/ValueError if `dtype` differs); objects
    with a registered conversion (Variables) convert; anything else becomes
    a Const op in the default graph. `dtype_hint` is tried first and dropped
    if the value does not fit it.
    """
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    preferred_dtype = preferred_dtype or dtype_hint
    if isinstance(value, Tensor):
        if dtype is not None and not dtype.is_compatible_with(value.dtype):
            raise ValueError("Tensor conversion requested dtype %s for Tensor with dtype %s: %r" %
                             (dtype.name, value.dtype.name, value))
        return value
    for _, base_type, fn in _tensor_conversion_functions:
        if isinstance(value, base_type):
            if dtype is None and preferred_dtype is not None:
                try:
                    ret = fn(value, dtypes.as_dtype(preferred_dtype), name, as_ref)
                    if ret is not NotImplemented:
                        return ret
                except (TypeError, ValueError):
                    pass
            ret = fn(value, dtype, name, as_ref)
            if ret is NotImplemented:
                continue
            return ret
    from minitf.framework import constant_op
    if dtype is None and preferred_dtype is not None:
        try:
            return constant_op._constant_if_fits(value, dtypes.as_dtype(preferred_dtype), name)
        except (TypeError, ValueError):
            pass
    return constant_op.constant(value, dtype=dtype, name=name or "Const")


def convert_n_to_tensor(values, dtype=None, name=None, preferred_dtype=None):
    return [convert_to_tensor(v, dtype=dtype, preferred_dtype=preferred_dtype,
                              name=None if name is None else "%s_%d" % (name, i))
            for i, v in enumerate(values)]
