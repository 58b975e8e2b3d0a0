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
from minitf.core.framework import attr_value_pb2
from minitf.framework import dtypes, op_def_library, ops, tensor_shape
from minitf.framework.op_def_library import apply_op, outputs_of
from minitf.ops import control_flow_ops


def _registered(op_type):
    return op_type in op_def_library.get_registered_ops()


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
        if initial_value is None:
            raise ValueError("The `initial_value` arg (None) must be specified.")
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
        self._trainable = trainable
        self._name = self._handle.name
        for c in collections:
            self._graph.add_to_collection(c, self)

    def _read_variable_op(self, name=None):
        return outputs_of(apply_op("ReadVariableOp", resource=self._handle, dtype=self._dtype,
                                   name=name))

    @property
    def name(self):
        return self._name

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
        current control dependencies), as tf.Variable.value() in graph mode."""
        return self._read_variable_op()

    def read_value(self):
        """A new read in a "Read" name scope, through an Identity (Read/ReadVariableOp,
        Identity), as TensorFlow's ResourceVariable.read_value."""
        with ops.name_scope("Read"):
            value = self._read_variable_op()
        return outputs_of(apply_op("Identity", input=value))

    def _as_graph_element(self):
        return self._graph_element

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

    for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
                  "__truediv__", "__rtruediv__", "__matmul__", "__rmatmul__", "__neg__"):
        locals()[_name] = _run_op(_name)
    del _name, _run_op

    __array_priority__ = 100

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other


Variable = ResourceVariable
RefVariable = ResourceVariable


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
