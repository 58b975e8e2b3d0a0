"""tf.Variable as a resource variable (VarHandleOp / AssignVariableOp /
ReadVariableOp), with TensorFlow 2.21 compat.v1 graph-mode naming:

    Variable/Initializer/initial_value   Const
    Variable                             VarHandleOp
    Variable/IsInitialized/VarIsInitializedOp  (when registered)
    Variable/Assign                      AssignVariableOp  (the initializer)
    Variable/Read/ReadVariableOp         ReadVariableOp    (what Session.run(v) fetches)

Every other use of the variable as a tensor (value(), operators, tf.* ops) reads it afresh with a
new ReadVariableOp in the current name scope, under the current control dependencies, as
TensorFlow does: a read inside `control_dependencies([v.assign(...)])` sees the assigned value.

The variable's value lives in the Session (C resource manager) and survives
across runs until the session is closed.
"""
from minitf.core.framework import attr_value_pb2, variable_pb2
from minitf.framework import dtypes, op_def_library, ops, tensor_shape
from minitf.framework.op_def_library import apply_op, outputs_of
from minitf.ops import control_flow_ops


def _prepend_scope(name, import_scope):
    return "%s/%s" % (import_scope.rstrip("/"), name) if import_scope else name


def _strip_scope(name, export_scope):
    if export_scope and name.startswith(export_scope.rstrip("/") + "/"):
        return name[len(export_scope.rstrip("/")) + 1:]
    return name


def _slice_info_from_proto(variable_def, import_scope):
    if not variable_def.HasField("save_slice_info_def"):
        return None
    return SaveSliceInfo(save_slice_info_def=variable_def.save_slice_info_def,
                         import_scope=import_scope)


def _slice_info_to_proto(var, variable_def, export_scope):
    info = getattr(var, "_save_slice_info", None)
    if info is None:
        return
    s = variable_def.save_slice_info_def
    s.full_name = _strip_scope(info.full_name, export_scope)
    s.full_shape.extend(info.full_shape)
    s.var_offset.extend(info.var_offset)
    s.var_shape.extend(info.var_shape)


def _variable_def(var, variable, snapshot, is_resource, export_scope):
    """var as a VariableDef (names relative to export_scope), or None when its node
    `variable` (the handle or the VariableV2 output) is outside export_scope; snapshot is its
    read (None: no snapshot_name)."""
    if export_scope is not None and not variable.name.startswith(export_scope):
        return None
    d = variable_pb2.VariableDef()
    d.variable_name = _strip_scope(variable.name, export_scope)
    if var._initial_value is not None:
        d.initial_value_name = _strip_scope(var._initial_value.name, export_scope)
    d.initializer_name = _strip_scope(var._initializer_op.name, export_scope)
    if snapshot is not None:
        d.snapshot_name = _strip_scope(snapshot.name, export_scope)
    d.is_resource = is_resource
    d.trainable = var._trainable
    d.synchronization = getattr(var, "_synchronization", 0)
    d.aggregation = getattr(var, "_aggregation", 0)
    _slice_info_to_proto(var, d, export_scope)
    return d


def _registered(op_type):
    return op_type in op_def_library.get_registered_ops()


# The Tensor operators a variable has too, applied to its value (TensorFlow's
# Variable._OverloadAllOperators): arithmetic, comparisons, logic and slicing.
_VARIABLE_OPERATORS = (
    "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
    "__rtruediv__", "__matmul__", "__rmatmul__", "__neg__", "__getitem__", "__pow__",
    "__rpow__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__lt__", "__le__",
    "__gt__", "__ge__", "__abs__", "__and__", "__rand__", "__or__", "__ror__", "__xor__",
    "__rxor__", "__invert__")


class ResourceVariable:
    """A resource variable (tf.compat.v1.Variable, which is a ResourceVariable).

    Args:
      initial_value: a Tensor or value convertible to one (or a callable
        returning one); fixes the dtype and, with validate_shape, the shape.
      trainable: adds it to GraphKeys.TRAINABLE_VARIABLES (default True).
      collections: defaults to [GraphKeys.GLOBAL_VARIABLES].
      name: the op name prefix ("Variable", made unique).
      dtype: converts the initial value to this dtype.
    Attributes: name ("Variable:0"), op (the VarHandleOp), handle, dtype,
    shape, initializer (the AssignVariableOp), initial_value, graph.
    Reading it before running its initializer raises FailedPreconditionError.
    """

    def __init__(self, initial_value=None, trainable=None, collections=None, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None,
                 expected_shape=None, import_scope=None, constraint=None, use_resource=None,
                 synchronization=None, aggregation=None, shape=None):
        if variable_def is not None:
            if initial_value is not None:
                raise ValueError("variable_def and initial_value are mutually exclusive.")
            self._init_from_proto(variable_def, import_scope)
            return
        if initial_value is None:
            raise ValueError("The `initial_value` arg (None) must be specified.")
        if constraint is not None and not callable(constraint):
            raise ValueError("The `constraint` argument must be a callable.")
        self._constraint = constraint
        if trainable is None:
            trainable = True
        init_from_fn = callable(initial_value)
        if collections is None:
            collections = [ops.GraphKeys.GLOBAL_VARIABLES]
        collections = list(collections)
        if trainable and ops.GraphKeys.TRAINABLE_VARIABLES not in collections:
            collections.append(ops.GraphKeys.TRAINABLE_VARIABLES)
        values = [] if init_from_fn else [initial_value]
        # As TensorFlow's init_scope: a variable ignores the control dependencies around it.
        with ops.control_dependencies(None), \
                ops.name_scope(name, "Variable", values) as scope:
            handle_name = scope[:-1]
            # TensorFlow colocates the initializer ops and the handle with the variable
            # (attr _class = ["loc:@<handle name>"]).
            loc = attr_value_pb2.AttrValue(list=attr_value_pb2.AttrValue.ListValue(
                s=[("loc:@%s" % handle_name).encode()]))
            with ops.get_default_graph()._attr_scope({"_class": loc}):
                with ops.name_scope("Initializer"):
                    value = initial_value() if init_from_fn else initial_value
                    self._initial_value = ops.convert_to_tensor(value, name="initial_value",
                                                                dtype=dtype)
                self._dtype = self._initial_value.dtype.base_dtype
                self._shape = (tensor_shape.as_shape(shape) if shape is not None else
                               self._initial_value.shape if validate_shape else
                               tensor_shape.unknown_shape())
                self._handle = outputs_of(apply_op(
                    "VarHandleOp", dtype=self._dtype, shape=self._shape,
                    shared_name=handle_name, container=ops.get_default_graph()._container,
                    name=scope))
            self._graph = self._handle.graph
            if _registered("VarIsInitializedOp"):
                with ops.name_scope("IsInitialized"):
                    self._is_initialized_op = outputs_of(
                        apply_op("VarIsInitializedOp", resource=self._handle))
            else:
                self._is_initialized_op = None
            with ops.name_scope("Assign") as n:
                self._initializer_op = apply_op("AssignVariableOp", resource=self._handle,
                                                value=self._initial_value, name=n)
            with ops.name_scope("Read"):
                self._graph_element = self._read_variable_op()
                # With a caching device (dynamic_rnn, map_fn and scan set one) the value is
                # read once, here, and every use takes this Identity ("Read/Identity"), as
                # TensorFlow's ResourceVariable; a loop body then captures it.
                self._cached_value = None
                if caching_device is not None:
                    with ops.colocate_with(None, ignore_existing=True), ops.device(caching_device):
                        self._cached_value = outputs_of(apply_op("Identity",
                                                                 input=self._graph_element))
        self._trainable = trainable
        self._name = self._handle.name
        for c in collections:
            self._graph.add_to_collection(c, self)

    def _init_from_proto(self, variable_def, import_scope=None):
        """Rebinds the nodes a VariableDef names (a meta graph import): the VarHandleOp, its
        initializer, initial value and snapshot read, all already in the default graph."""
        g = ops.get_default_graph()
        name = lambda n: _prepend_scope(n, import_scope)  # noqa: E731
        self._handle = g.as_graph_element(name(variable_def.variable_name))
        self._graph = self._handle.graph
        self._dtype = dtypes.as_dtype(self._handle.op.get_attr("dtype"))
        self._shape = tensor_shape.TensorShape(self._handle.op.get_attr("shape"))
        self._initializer_op = g.as_graph_element(name(variable_def.initializer_name))
        self._initial_value = (g.as_graph_element(name(variable_def.initial_value_name))
                               if variable_def.initial_value_name else None)
        if variable_def.snapshot_name:
            self._graph_element = g.as_graph_element(name(variable_def.snapshot_name))
        else:
            self._graph_element = None
        try:
            self._is_initialized_op = g.as_graph_element(
                self._handle.op.name + "/IsInitialized/VarIsInitializedOp:0")
        except (KeyError, ValueError):
            self._is_initialized_op = None
        self._cached_value = None
        self._constraint = None
        self._trainable = variable_def.trainable
        self._synchronization = variable_def.synchronization
        self._aggregation = variable_def.aggregation
        self._save_slice_info = _slice_info_from_proto(variable_def, import_scope)
        self._name = self._handle.name

    def to_proto(self, export_scope=None):
        """This variable as a VariableDef (names relative to export_scope), or None when it
        is outside export_scope (TensorFlow's ResourceVariable.to_proto)."""
        return _variable_def(self, self._handle, self._graph_element, True, export_scope)

    @staticmethod
    def from_proto(variable_def, import_scope=None):
        return ResourceVariable(variable_def=variable_def, import_scope=import_scope)

    def _read_variable_op(self, name=None):
        value = outputs_of(apply_op("ReadVariableOp", resource=self._handle, dtype=self._dtype,
                                    name=name))
        # Read inside a function the handle is a captured placeholder the runtime knows no
        # shape of: the variable's own shape stands in (TensorFlow's handle data).
        if value.shape.rank is None and self._shape is not None:
            value.set_shape(self._shape)
        return value

    @property
    def name(self):
        return self._name

    @property
    def constraint(self):
        """The projection applied after each optimizer update, or None."""
        return self._constraint

    @property
    def handle(self):
        return self._handle

    @property
    def op(self):
        return self._handle.op

    @property
    def graph(self):
        return self._graph

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self):
        return self._shape

    def get_shape(self):
        return self._shape

    @property
    def device(self):
        return self._handle.device

    @property
    def trainable(self):
        return self._trainable

    @property
    def initializer(self):
        return self._initializer_op

    @property
    def initial_value(self):
        return self._initial_value

    def value(self):
        """A new read of the variable (op ReadVariableOp in the current name scope, under the
        current control dependencies), as tf.Variable.value() in graph mode; the cached read
        when the variable was made with a caching device."""
        if getattr(self, "_cached_value", None) is not None:
            return self._cached_value
        return self._read_variable_op()

    def read_value(self):
        """A new read in a "Read" name scope, through an Identity (Read/ReadVariableOp,
        Identity), as TensorFlow's ResourceVariable.read_value."""
        with ops.name_scope("Read"):
            value = self._read_variable_op()
        return outputs_of(apply_op("Identity", input=value))

    def _as_graph_element(self):
        return self._graph_element

    def _set_save_slice_info(self, save_slice_info):
        """Marks this variable as a slice of a partitioned variable (a SaveSliceInfo)."""
        self._save_slice_info = save_slice_info

    def _get_save_slice_info(self):
        return getattr(self, "_save_slice_info", None)

    def sparse_read(self, indices, name=None):
        """Rows of the variable at `indices` (op ResourceGather, named "Gather" by default), as
        TensorFlow's ResourceVariable.sparse_read; tf.gather(variable, indices) uses it. Its
        gradient is an IndexedSlices for the variable."""
        with ops.name_scope("Gather" if name is None else name) as name:
            return outputs_of(apply_op("ResourceGather", resource=self._handle, indices=indices,
                                       dtype=self._dtype, name=name))

    def gather_nd(self, indices, name=None):
        """Slices of the variable addressed by the last dim of `indices` (op ResourceGatherNd,
        named "GatherNd" by default), as TensorFlow's ResourceVariable.gather_nd;
        tf.gather_nd(variable, indices) uses it."""
        with ops.name_scope("GatherNd" if name is None else name) as name:
            return outputs_of(apply_op("ResourceGatherNd", resource=self._handle,
                                       indices=indices, dtype=self._dtype, name=name))

    def eval(self, session=None):
        """The current value in `session` (default: the default session)."""
        return self._graph_element.eval(session=session)

    def initialized_value(self):
        with ops.control_dependencies([self._initializer_op]):
            return self.read_value()

    def is_initialized(self, name=None):
        if self._is_initialized_op is None:
            raise NotImplementedError("VarIsInitializedOp is not registered")
        return self._is_initialized_op

    def assign(self, value, use_locking=None, name=None, read_value=True):
        """Sets the variable to `value` (op AssignVariableOp). Returns the
        new value (a read after the assignment), or the op if read_value=False."""
        with ops.name_scope(name, "AssignVariableOp", [self._handle, value]) as n:
            value = ops.convert_to_tensor(value, dtype=self._dtype)
            if not self._shape.is_compatible_with(value.shape):
                raise ValueError(
                    "Cannot assign value to variable ' %s': Shape mismatch.The variable shape %s, "
                    "and the assigned value shape %s are incompatible." %
                    (self.name, self._shape, value.shape))
            op = apply_op("AssignVariableOp", resource=self._handle, value=value, name=n)
        if not read_value:
            return op
        with ops.control_dependencies([op]):
            return self.read_value()

    def _lazy_read(self, op):
        # TensorFlow's _UnreadVariable in graph mode: a read after `op`.
        with ops.control_dependencies([op]):
            return self._read_variable_op()

    def _update(self, op_type, value, name, read_value):
        value = ops.convert_to_tensor(value, dtype=self._dtype)
        op = apply_op(op_type, resource=self._handle, value=value, name=name)
        return self._lazy_read(op) if read_value else op

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        """Adds `delta` to the variable (op AssignAddVariableOp). Returns the new value (a
        ReadVariableOp after the update) or, with read_value=False, the op.
        InvalidArgumentError at run time when delta's shape differs from the variable's."""
        return self._update("AssignAddVariableOp", delta, name, read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        """Subtracts `delta` (op AssignSubVariableOp); returns as assign_add."""
        return self._update("AssignSubVariableOp", delta, name, read_value)

    def _scatter(self, op_type, sparse_delta, name):
        _check_slices(sparse_delta)
        values = ops.convert_to_tensor(sparse_delta.values, dtype=self._dtype)
        return self._lazy_read(apply_op(op_type, resource=self._handle,
                                        indices=sparse_delta.indices, updates=values, name=name))

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        """Sets the rows sparse_delta.indices to sparse_delta.values (an IndexedSlices; op
        ResourceScatterUpdate); returns the new value."""
        return self._scatter("ResourceScatterUpdate", sparse_delta, name)

    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        """Adds sparse_delta.values to the rows sparse_delta.indices (ResourceScatterAdd)."""
        return self._scatter("ResourceScatterAdd", sparse_delta, name)

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        """ResourceScatterSub; as scatter_add."""
        return self._scatter("ResourceScatterSub", sparse_delta, name)

    def scatter_mul(self, sparse_delta, use_locking=False, name=None):
        """ResourceScatterMul; as scatter_add."""
        return self._scatter("ResourceScatterMul", sparse_delta, name)

    def scatter_div(self, sparse_delta, use_locking=False, name=None):
        """ResourceScatterDiv; as scatter_add."""
        return self._scatter("ResourceScatterDiv", sparse_delta, name)

    def scatter_min(self, sparse_delta, use_locking=False, name=None):
        """ResourceScatterMin; as scatter_add."""
        return self._scatter("ResourceScatterMin", sparse_delta, name)

    def scatter_max(self, sparse_delta, use_locking=False, name=None):
        """ResourceScatterMax; as scatter_add."""
        return self._scatter("ResourceScatterMax", sparse_delta, name)

    def scatter_nd_update(self, indices, updates, name=None):
        """ResourceScatterNdUpdate of `updates` at `indices`; returns the new value."""
        from minitf.ops import state_ops
        return state_ops.scatter_nd_update(self, indices, updates, name=name)

    def scatter_nd_add(self, indices, updates, name=None):
        """ResourceScatterNdAdd; returns the new value."""
        from minitf.ops import state_ops
        return state_ops.scatter_nd_add(self, indices, updates, name=name)

    def scatter_nd_sub(self, indices, updates, name=None):
        """ResourceScatterNdSub; returns the new value."""
        from minitf.ops import state_ops
        return state_ops.scatter_nd_sub(self, indices, updates, name=name)

    def count_up_to(self, limit):
        """The value before incrementing by one (op ResourceCountUpTo); OutOfRangeError
        "Reached limit of <limit>" once it reaches `limit`. int32/int64 only."""
        return outputs_of(apply_op("ResourceCountUpTo", resource=self._handle, limit=limit,
                                   T=self._dtype))

    def load(self, value, session=None):
        """Assigns `value` in `session` by running an assign op."""
        if session is None:
            session = ops.get_default_session()
        session.run(self.assign(value, read_value=False))

    def __repr__(self):
        return "<tf.Variable '%s' shape=%s dtype=%s>" % (self.name, self.shape, self.dtype.name)

    # Operators read the variable and apply Tensor's operator.
    def _run_op(name):
        def op(self, *args):
            return getattr(ops.Tensor, name)(self.value(), *args)
        op.__name__ = name
        return op

    for _name in _VARIABLE_OPERATORS:
        locals()[_name] = _run_op(_name)
    del _name, _run_op

    __array_priority__ = 100

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other


class _VariableMeta(type):
    """tf.Variable(...) makes a ResourceVariable, or a RefVariable with use_resource=False;
    isinstance(v, tf.Variable) holds for both (TensorFlow's VariableMetaclass)."""

    def __call__(cls, *args, **kwargs):
        variable_def = kwargs.get("variable_def")
        if variable_def is not None:
            return (ResourceVariable if variable_def.is_resource else RefVariable)(
                *args, **kwargs)
        if kwargs.get("use_resource") is False:
            return RefVariable(*args, **kwargs)
        return ResourceVariable(*args, **kwargs)

    def __instancecheck__(cls, inst):
        return isinstance(inst, (ResourceVariable, RefVariable))

    def __subclasscheck__(cls, sub):
        return issubclass(sub, (ResourceVariable, RefVariable))


class SaveSliceInfo:
    """Where a variable lies in the partitioned variable it is a part of
    (tf.Variable.SaveSliceInfo): full_name (the checkpoint key), full_shape, var_offset
    and var_shape (lists of ints)."""

    def __init__(self, full_name=None, full_shape=None, var_offset=None, var_shape=None,
                 save_slice_info_def=None, import_scope=None):
        if save_slice_info_def is not None:
            full_name = save_slice_info_def.full_name
            if import_scope:
                full_name = import_scope.rstrip("/") + "/" + full_name
            full_shape = list(save_slice_info_def.full_shape)
            var_offset = list(save_slice_info_def.var_offset)
            var_shape = list(save_slice_info_def.var_shape)
        self.full_name = full_name
        self.full_shape = full_shape
        self.var_offset = var_offset
        self.var_shape = var_shape

    @property
    def spec(self):
        """SaveV2's shape_and_slices string: "<full dims> <offset>,<length>:..." ("4 3 0,2:0,3")."""
        full = " ".join("%d" % d for d in self.full_shape) + " "
        return full + ":".join("%d,%d" % (o, n) for o, n in zip(self.var_offset, self.var_shape))


class Variable(metaclass=_VariableMeta):
    """tf.compat.v1.Variable: see ResourceVariable (the default) and RefVariable
    (use_resource=False) for the arguments."""

    SaveSliceInfo = SaveSliceInfo

    @staticmethod
    def from_proto(variable_def, import_scope=None):
        """The variable a VariableDef describes, over nodes already in the default graph:
        a ResourceVariable when is_resource, else a RefVariable."""
        cls = ResourceVariable if variable_def.is_resource else RefVariable
        return cls(variable_def=variable_def, import_scope=import_scope)



def _check_slices(sparse_delta):
    if not (hasattr(sparse_delta, "indices") and hasattr(sparse_delta, "values")):
        raise TypeError("sparse_delta is not IndexedSlices: %s" % (sparse_delta,))


class RefVariable:
    """A ref variable, tf.compat.v1.Variable(..., use_resource=False) (TensorFlow's
    RefVariable): op VariableV2 holding the value in the session, with TF 2.21 names

        v/initial_value  Const (or v/Initializer/... for a callable initial value)
        v                VariableV2      (what Session.run(v) fetches)
        v/Assign         Assign          (the initializer; use_locking, validate_shape)
        v/read           Identity        (the snapshot every use as a tensor reads)

    dtype is the ref dtype (float32_ref); ops taking a Ref input (tf.assign, tf.scatter_add,
    ...) get the VariableV2 output and update the variable's buffer in place. Reading it before
    its initializer ran raises FailedPreconditionError "Attempting to use uninitialized value v".
    """

    def __init__(self, initial_value=None, trainable=None, collections=None, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None,
                 expected_shape=None, import_scope=None, constraint=None, use_resource=None,
                 synchronization=None, aggregation=None, shape=None):
        if variable_def is not None:
            if initial_value is not None:
                raise ValueError("variable_def and initial_value are mutually exclusive.")
            self._init_from_proto(variable_def, import_scope)
            return
        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        init_from_fn = callable(initial_value)
        if trainable is None:
            trainable = True
        if collections is None:
            collections = [ops.GraphKeys.GLOBAL_VARIABLES]
        collections = list(collections)
        if trainable and ops.GraphKeys.TRAINABLE_VARIABLES not in collections:
            collections.append(ops.GraphKeys.TRAINABLE_VARIABLES)
        with ops.control_dependencies(None), \
                ops.name_scope(name, "Variable", [] if init_from_fn else [initial_value]) as scope:
            var_name = scope[:-1]
            if init_from_fn:
                loc = attr_value_pb2.AttrValue(list=attr_value_pb2.AttrValue.ListValue(
                    s=[("loc:@%s" % var_name).encode()]))
                with ops.get_default_graph()._attr_scope({"_class": loc}):
                    with ops.name_scope("Initializer"):
                        self._initial_value = ops.convert_to_tensor(
                            initial_value(), name="initial_value", dtype=dtype)
                    self._variable = self._make_variable(validate_shape, scope)
            else:
                self._initial_value = ops.convert_to_tensor(initial_value, name="initial_value",
                                                            dtype=dtype)
                self._variable = self._make_variable(validate_shape, scope)
            if validate_shape and not self._initial_value.shape.is_fully_defined():
                raise ValueError("initial_value must have a shape specified: %s" %
                                 self._initial_value)
            from minitf.ops import state_ops
            self._initializer_op = state_ops.assign(self._variable, self._initial_value,
                                                    validate_shape=validate_shape).op
            with ops.colocate_with(self._variable.op):
                self._snapshot = outputs_of(apply_op("Identity", input=self._variable,
                                                     name="read"))
        self._graph = self._variable.graph
        self._trainable = trainable
        self._constraint = constraint
        for c in collections:
            self._graph.add_to_collection(c, self)

    def _init_from_proto(self, variable_def, import_scope=None):
        """Rebinds the nodes a VariableDef names (a meta graph import): the VariableV2, its
        Assign initializer, initial value and `read` snapshot."""
        g = ops.get_default_graph()
        name = lambda n: _prepend_scope(n, import_scope)  # noqa: E731
        self._variable = g.as_graph_element(name(variable_def.variable_name))
        self._graph = self._variable.graph
        self._initializer_op = g.as_graph_element(name(variable_def.initializer_name))
        self._initial_value = (g.as_graph_element(name(variable_def.initial_value_name))
                               if variable_def.initial_value_name else None)
        self._snapshot = g.as_graph_element(name(variable_def.snapshot_name))
        self._trainable = variable_def.trainable
        self._constraint = None
        self._synchronization = variable_def.synchronization
        self._aggregation = variable_def.aggregation
        self._save_slice_info = _slice_info_from_proto(variable_def, import_scope)

    def to_proto(self, export_scope=None):
        """This variable as a VariableDef (names relative to export_scope), or None when it
        is outside export_scope (TensorFlow's RefVariable.to_proto)."""
        return _variable_def(self, self._variable, self._snapshot, False, export_scope)

    @staticmethod
    def from_proto(variable_def, import_scope=None):
        return RefVariable(variable_def=variable_def, import_scope=import_scope)

    def _make_variable(self, validate_shape, scope):
        shape = self._initial_value.shape if validate_shape else tensor_shape.unknown_shape()
        return outputs_of(apply_op("VariableV2", shape=shape,
                                   dtype=self._initial_value.dtype.base_dtype,
                                   container=ops.get_default_graph()._container, name=scope))

    name = property(lambda self: self._variable.name, doc='"v:0"')
    op = property(lambda self: self._variable.op, doc="The VariableV2 operation.")
    graph = property(lambda self: self._graph)
    dtype = property(lambda self: self._variable.dtype, doc="The ref dtype (float32_ref).")
    shape = property(lambda self: self._variable.shape)
    device = property(lambda self: self._variable.device)
    trainable = property(lambda self: self._trainable)
    initializer = property(lambda self: self._initializer_op, doc="The Assign operation.")
    initial_value = property(lambda self: self._initial_value)
    constraint = property(lambda self: self._constraint)

    def get_shape(self):
        return self.shape

    def _ref(self):
        """The VariableV2 output (a ref tensor)."""
        return self._variable

    def _as_graph_element(self):
        return self._variable

    def _set_save_slice_info(self, save_slice_info):
        """Marks this variable as a slice of a partitioned variable (a SaveSliceInfo)."""
        self._save_slice_info = save_slice_info

    def _get_save_slice_info(self):
        return getattr(self, "_save_slice_info", None)

    def value(self):
        """The snapshot `v/read` (Identity of the variable)."""
        return self._snapshot

    def read_value(self):
        """A new Identity of the variable named "read" in the current name scope."""
        return outputs_of(apply_op("Identity", input=self._variable, name="read"))

    def eval(self, session=None):
        """The current value in `session` (default: the default session)."""
        return self._variable.eval(session=session)

    def initialized_value(self):
        with ops.control_dependencies([self._initializer_op]):
            return self.read_value()

    def is_initialized(self, name=None):
        """A bool scalar (op IsVariableInitialized)."""
        from minitf.ops import state_ops
        return state_ops.is_variable_initialized(self, name=name)

    def _ref_update(self, fn, value, use_locking, name, read_value):
        t = fn(self._variable, value, use_locking=use_locking, name=name)
        return t if read_value else t.op

    def assign(self, value, use_locking=False, name=None, read_value=True):
        """op Assign; returns its output (the variable after the assignment) or, with
        read_value=False, the op."""
        from minitf.ops import state_ops
        return self._ref_update(state_ops.assign, value, use_locking, name, read_value)

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        """op AssignAdd; returns as assign."""
        from minitf.ops import state_ops
        return self._ref_update(state_ops.assign_add, delta, use_locking, name, read_value)

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        """op AssignSub; returns as assign."""
        from minitf.ops import state_ops
        return self._ref_update(state_ops.assign_sub, delta, use_locking, name, read_value)

    def _scatter(self, fn, sparse_delta, use_locking, name):
        _check_slices(sparse_delta)
        return fn(self._variable, sparse_delta.indices, sparse_delta.values,
                  use_locking=use_locking, name=name)

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        """op ScatterUpdate with an IndexedSlices; returns the updated variable (ref)."""
        from minitf.ops import state_ops
        return self._scatter(state_ops.scatter_update, sparse_delta, use_locking, name)

    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        """op ScatterAdd; as scatter_update."""
        from minitf.ops import state_ops
        return self._scatter(state_ops.scatter_add, sparse_delta, use_locking, name)

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        """op ScatterSub; as scatter_update."""
        from minitf.ops import state_ops
        return self._scatter(state_ops.scatter_sub, sparse_delta, use_locking, name)

    def scatter_mul(self, sparse_delta, use_locking=False, name=None):
        """op ScatterMul; as scatter_update."""
        from minitf.ops import state_ops
        return self._scatter(state_ops.scatter_mul, sparse_delta, use_locking, name)

    def scatter_div(self, sparse_delta, use_locking=False, name=None):
        """op ScatterDiv; as scatter_update."""
        from minitf.ops import state_ops
        return self._scatter(state_ops.scatter_div, sparse_delta, use_locking, name)

    def scatter_min(self, sparse_delta, use_locking=False, name=None):
        """op ScatterMin; as scatter_update."""
        from minitf.ops import state_ops
        return self._scatter(state_ops.scatter_min, sparse_delta, use_locking, name)

    def scatter_max(self, sparse_delta, use_locking=False, name=None):
        """op ScatterMax; as scatter_update."""
        from minitf.ops import state_ops
        return self._scatter(state_ops.scatter_max, sparse_delta, use_locking, name)

    def scatter_nd_update(self, indices, updates, name=None):
        """op ScatterNdUpdate; returns the updated variable (ref)."""
        from minitf.ops import state_ops
        return state_ops.scatter_nd_update(self._variable, indices, updates, name=name)

    def scatter_nd_add(self, indices, updates, name=None):
        """op ScatterNdAdd."""
        from minitf.ops import state_ops
        return state_ops.scatter_nd_add(self._variable, indices, updates, name=name)

    def scatter_nd_sub(self, indices, updates, name=None):
        """op ScatterNdSub."""
        from minitf.ops import state_ops
        return state_ops.scatter_nd_sub(self._variable, indices, updates, name=name)

    def count_up_to(self, limit):
        """op CountUpTo: the value before incrementing; OutOfRangeError at `limit`."""
        from minitf.ops import state_ops
        return state_ops.count_up_to(self._variable, limit=limit)

    def load(self, value, session=None):
        """Assigns `value` in `session` (runs the initializer with `value` fed)."""
        if session is None:
            session = ops.get_default_session()
        session.run(self._initializer_op, {self._initial_value: value})

    def __repr__(self):
        return "<tf.Variable '%s' shape=%s dtype=%s>" % (self.name, self.shape, self.dtype.name)

    def _run_op(name):
        def op(self, *args):
            return getattr(ops.Tensor, name)(self._snapshot, *args)
        op.__name__ = name
        return op

    for _name in _VARIABLE_OPERATORS:
        locals()[_name] = _run_op(_name)
    del _name, _run_op

    __array_priority__ = 100

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other


def _ref_to_tensor(v, dtype=None, name=None, as_ref=False):
    if dtype is not None and not dtypes.as_dtype(dtype).is_compatible_with(v.dtype):
        raise ValueError("Incompatible type conversion requested to type '%s' for variable of "
                         "type '%s'" % (dtypes.as_dtype(dtype).name, v.dtype.name))
    return v._ref() if as_ref else v.value()


ops.register_tensor_conversion_function(RefVariable, _ref_to_tensor)


def _var_to_tensor(v, dtype=None, name=None, as_ref=False):
    if dtype is not None and not dtypes.as_dtype(dtype).is_compatible_with(v.dtype):
        raise ValueError("Incompatible type conversion requested to type '%s' for variable of "
                         "type '%s'" % (dtypes.as_dtype(dtype).name, v.dtype.name))
    return v.value()


ops.register_tensor_conversion_function(ResourceVariable, _var_to_tensor)


def global_variables(scope=None):
    """Variables in GraphKeys.GLOBAL_VARIABLES of the default graph."""
    return ops.get_collection(ops.GraphKeys.GLOBAL_VARIABLES, scope)


def trainable_variables(scope=None):
    return ops.get_collection(ops.GraphKeys.TRAINABLE_VARIABLES, scope)


def local_variables(scope=None):
    return ops.get_collection(ops.GraphKeys.LOCAL_VARIABLES, scope)


def variables_initializer(var_list, name="init"):
    """One op (a NoOp named `name`) running the initializers of `var_list`."""
    if var_list:
        return control_flow_ops.group(*[v.initializer for v in var_list], name=name)
    return control_flow_ops.no_op(name=name)


def global_variables_initializer():
    """The op initializing all global variables ("init") (tf.global_variables_initializer)."""
    return variables_initializer(global_variables())


def local_variables_initializer():
    return variables_initializer(local_variables())


def model_variables(scope=None):
    """Variables in GraphKeys.MODEL_VARIABLES (tf.compat.v1.model_variables)."""
    return ops.get_collection(ops.GraphKeys.MODEL_VARIABLES, scope)


def moving_average_variables(scope=None):
    """Variables in GraphKeys.MOVING_AVERAGE_VARIABLES: the shadow variables
    ExponentialMovingAverage.apply creates (tf.compat.v1.moving_average_variables)."""
    return ops.get_collection(ops.GraphKeys.MOVING_AVERAGE_VARIABLES, scope)


def initialize_variables(var_list, name="init"):
    """Deprecated alias of variables_initializer (tf.compat.v1.initialize_variables)."""
    return variables_initializer(var_list, name=name)


def initialize_all_variables():
    """Deprecated alias of global_variables_initializer (tf.compat.v1.initialize_all_variables)."""
    return global_variables_initializer()


def initialize_local_variables():
    """Deprecated alias of local_variables_initializer."""
    return local_variables_initializer()


def _default_var_list():
    var_list = global_variables() + local_variables()
    if not var_list:  # TensorFlow's fallback for variables outside the collections
        var_list = [op.outputs[0] for op in ops.get_default_graph().get_operations()
                    if op.type in ("Variable", "VariableV2", "AutoReloadVariable")]
    return var_list


def assert_variables_initialized(var_list=None):
    """An op that fails with FailedPreconditionError when one of `var_list` (default: global
    and local variables) is uninitialized; as TensorFlow, a Pack ("stack") of the Rank of each
    variable, each colocated with its variable. None when var_list is empty."""
    from minitf.ops import array_ops
    if var_list is None:
        var_list = _default_var_list()
    if not var_list:
        return None
    ranks = []
    for var in var_list:
        with ops.colocate_with(var.op), ops.name_scope(None, "Rank", [var]) as scope:
            with ops.colocate_with(None, ignore_existing=True):
                value = ops.convert_to_tensor(var)
            ranks.append(outputs_of(apply_op("Rank", input=value, name=scope)))
    if len(ranks) == 1:
        return ranks[0]
    return array_ops.stack(ranks)


def _boolean_mask_1d(tensor, mask, name="boolean_mask"):
    # TensorFlow's array_ops.boolean_mask for a 1-D tensor and mask, node for node.
    from minitf.ops import array_ops, indexing_ops
    with ops.name_scope(name, values=[tensor, mask]):
        cut = array_ops._slice_helper
        lead = outputs_of(apply_op("Prod", input=cut(array_ops.shape(tensor), slice(0, 1)),
                                   reduction_indices=[0], keep_dims=False))
        head = cut(array_ops.shape(tensor), slice(None, 0))
        tail = cut(array_ops.shape(tensor), slice(1, None))
        with ops.name_scope("concat") as concat_scope:
            values_1 = array_ops.stack([lead], name="values_1")
            new_shape = outputs_of(apply_op("ConcatV2", values=[head, values_1, tail], axis=0,
                                            name=concat_scope))
        tensor = array_ops.reshape(tensor, new_shape)
        mask = array_ops.reshape(mask, [-1])
        where = outputs_of(apply_op("Where", input=mask))
        indices = array_ops.squeeze(where, axis=[1])
        return indexing_ops.gather(tensor, indices, axis=0)


def report_uninitialized_variables(var_list=None, name="report_uninitialized_variables"):
    """A 1-D string tensor of the op names of the uninitialized variables of `var_list`
    (default: global and local variables), as tf.compat.v1.report_uninitialized_variables:
    IsVariableInitialized / VarIsInitializedOp per variable, Pack, LogicalNot and a boolean
    mask of the names, under `name`, on /device:CPU:0."""
    import os

    from minitf.ops import array_ops, math_ops, state_ops
    from minitf.framework import constant_op
    if var_list is None:
        var_list = _default_var_list()
    with ops.name_scope(name):
        if var_list:
            init_vars = [state_ops.is_variable_initialized(v) for v in var_list]
        local_device = os.environ.get("TF_DEVICE_FOR_UNINITIALIZED_VARIABLE_REPORTING", "/cpu:0")
        with ops.device(local_device):
            if not var_list:
                return constant_op.constant([], dtype=dtypes.string)
            mask = math_ops.logical_not(array_ops.stack(init_vars))
            names = constant_op.constant([v.op.name for v in var_list])
            return _boolean_mask_1d(names, mask)
