"""tf.compat.v1.variable_scope and tf.compat.v1.get_variable, with TensorFlow 2.21's
semantics (tensorflow/python/ops/variable_scope.py) in graph mode.

* Each graph holds one variable store (a dict full name -> variable, kept in the graph
  collection ("__variable_store",)) and, per thread, the current VariableScope and the count
  of scopes opened under each name (collection ("__variable_scope",)).
* get_variable("v") in variable scope "a/b" gets or creates "a/b/v" whatever the current name
  scope: the name scope is reset to the top level while the variable is made, so its ops are
  a/b/v, a/b/v/Initializer/..., a/b/v/Assign, a/b/v/Read/ReadVariableOp (a resource variable,
  as TensorFlow 2.21 makes in compat.v1 graph mode).
* variable_scope("a") also opens the name scope "a" made unique ("a", "a_1", ...) for the
  other ops; re-entering a VariableScope object keeps its variable names and opens a name
  scope named after its last component.
* Reuse: False at the top; True or AUTO_REUSE are inherited by sub-scopes. Creating an
  existing variable with reuse False, or getting a missing one with reuse True, raises
  TensorFlow's ValueError.
"""
import contextlib
import enum
import functools
import inspect
import threading

from minitf.framework import dtypes, ops, tensor_shape
from minitf.ops import indexing_ops, init_ops, variables


class _ReuseMode(enum.Enum):
    """Reuse modes of variable_scope beyond True/False (only AUTO_REUSE)."""
    AUTO_REUSE = 1


AUTO_REUSE = _ReuseMode.AUTO_REUSE
AUTO_REUSE.__doc__ = ("reuse=tf.AUTO_REUSE: get_variable creates variables that do not exist "
                      "and returns those that do.")

_VARSTORE_KEY = ("__variable_store",)
_VARSCOPESTORE_KEY = ("__variable_scope",)


def _needs_no_arguments(fn):
    """True when `fn` can be called without arguments."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
               for p in params)


def _accepts(fn, arg):
    try:
        return arg in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


def _accepts_kwargs(fn):
    try:
        return any(p.kind == p.VAR_KEYWORD for p in inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return False


class _VariableStore:
    """The variables get_variable made in one graph, by full name."""

    def __init__(self):
        self._vars = {}
        self._partitioned_vars = {}

    def get_variable(self, name, shape=None, dtype=dtypes.float32, initializer=None,
                     regularizer=None, reuse=None, trainable=None, collections=None,
                     caching_device=None, partitioner=None, validate_shape=True,
                     use_resource=None, custom_getter=None, constraint=None):
        """Gets the variable `name` or creates it (see get_variable); a custom_getter is
        called as custom_getter(getter, name, shape=..., ...) with the real getter."""
        if custom_getter is not None and not callable(custom_getter):
            raise ValueError("Passed a custom_getter which is not callable: %s" % custom_getter)
        dtype = getattr(dtype, "base_dtype", dtype)

        def true_getter(name, shape=None, dtype=dtypes.float32, initializer=None,
                        regularizer=None, reuse=None, trainable=None, collections=None,
                        caching_device=None, partitioner=None, validate_shape=True,
                        use_resource=None, constraint=None, synchronization=None,
                        aggregation=None):
            is_scalar = isinstance(shape, (list, tuple)) and not shape
            if partitioner is not None and not is_scalar:
                if not callable(partitioner):
                    raise ValueError("Partitioner must be callable, but received: %s"
                                     % partitioner)
                with ops.name_scope(None):
                    return self._get_partitioned_variable(
                        name, partitioner, shape=shape, dtype=dtype, initializer=initializer,
                        regularizer=regularizer, reuse=reuse, trainable=trainable,
                        collections=collections, caching_device=caching_device,
                        validate_shape=validate_shape, use_resource=use_resource,
                        constraint=constraint)
            # A partitioned variable is reused without its partitioner.
            if reuse is True and partitioner is None and name in self._partitioned_vars:
                return self._get_partitioned_variable(
                    name, None, shape=shape, dtype=dtype, initializer=initializer,
                    regularizer=regularizer, reuse=reuse, trainable=trainable,
                    collections=collections, caching_device=caching_device,
                    validate_shape=validate_shape, use_resource=use_resource,
                    constraint=constraint)
            return self._get_single_variable(
                name, shape=shape, dtype=dtype, initializer=initializer,
                regularizer=regularizer, reuse=reuse, trainable=trainable,
                collections=collections, validate_shape=validate_shape,
                constraint=constraint, use_resource=use_resource,
                caching_device=caching_device)

        if trainable is None:
            trainable = True
        if custom_getter is None:
            return true_getter(name, shape=shape, dtype=dtype, initializer=initializer,
                               regularizer=regularizer, reuse=reuse, trainable=trainable,
                               collections=collections, caching_device=caching_device,
                               partitioner=partitioner, validate_shape=validate_shape,
                               use_resource=use_resource, constraint=constraint)
        kwargs = dict(getter=true_getter, name=name, shape=shape, dtype=dtype,
                      initializer=initializer, regularizer=regularizer, reuse=reuse,
                      trainable=trainable, collections=collections,
                      caching_device=caching_device, partitioner=partitioner,
                      validate_shape=validate_shape, use_resource=use_resource,
                      synchronization=None, aggregation=None)
        if _accepts(custom_getter, "constraint") or _accepts_kwargs(custom_getter):
            kwargs["constraint"] = constraint
        return custom_getter(**kwargs)

    def _get_partitioned_variable(self, name, partitioner, shape=None, dtype=dtypes.float32,
                                  initializer=None, regularizer=None, reuse=None,
                                  trainable=None, collections=None, caching_device=None,
                                  validate_shape=True, use_resource=None, constraint=None):
        """A PartitionedVariable `name` of parts `name/part_<i>` (TensorFlow's
        _VariableStore._get_partitioned_variable: same checks, names and initializers; each
        part's initializer gets a _PartitionInfo, a tensor initializer is sliced)."""
        from minitf.ops import partitioned_variables as pv
        from_value = initializer is not None and isinstance(initializer, ops.Tensor)
        if name in self._vars:
            raise ValueError("A partitioner was provided, but an unpartitioned version of the "
                             "variable was found: %s.  Perhaps a variable of the same name was "
                             "already created without partitioning?" % name)
        shape = tensor_shape.as_shape(shape)
        if from_value:
            shape = shape.merge_with(initializer.get_shape())
        dtype = dtypes.as_dtype(dtype)
        partitions = None
        if not reuse or partitioner:
            partitions = pv.call_partitioner(partitioner, shape, dtype)
        if name in self._partitioned_vars:
            return self._existing_partitioned(name, shape, dtype, reuse, partitions)
        if reuse is True:
            raise ValueError("PartitionedVariable %s does not exist, or was not created with "
                             "tf.get_variable(). Did you mean to set reuse=False or "
                             "reuse=tf.AUTO_REUSE in VarScope?" % name)
        slice_dim, num_slices = pv.slice_dim_and_num_slices(partitions)
        self._check_existing_parts(name, num_slices)
        parts = []
        full = shape.as_list()
        for i, (offset, part_shape) in enumerate(pv.iter_slices(full, num_slices, slice_dim)):
            info = pv._PartitionInfo(full_shape=full, var_offset=offset)
            part_name = "%s/part_%d" % (name, i)
            with ops.name_scope(part_name + "/PartitionedInitializer"):
                init, init_shape, dtype = _part_initializer(name, initializer, offset,
                                                            part_shape, dtype)
            with ops.name_scope(None):
                v = self._get_single_variable(
                    part_name, shape=init_shape, dtype=dtype, initializer=init,
                    partition_info=info, regularizer=regularizer, reuse=reuse,
                    trainable=trainable, collections=collections,
                    validate_shape=validate_shape, constraint=constraint,
                    use_resource=use_resource, caching_device=caching_device)
            v._set_save_slice_info(variables.SaveSliceInfo(name, full, offset, part_shape))
            parts.append(v)
        out = pv.PartitionedVariable(name=name, shape=shape, dtype=dtype, variable_list=parts,
                                     partitions=partitions)
        self._partitioned_vars[name] = out
        return out

    def _existing_partitioned(self, name, shape, dtype, reuse, partitions):
        if reuse is False:
            raise ValueError("Partitioned variable with name %s already exists. Did you mean to "
                             "set reuse=True or reuse=tf.AUTO_REUSE in VarScope?" % name)
        found = self._partitioned_vars[name]
        if not shape.is_compatible_with(found.get_shape()):
            raise ValueError("Trying to reuse partitioned variable %s, but specified shape %s "
                             "and found shape %s." % (name, shape, found.get_shape()))
        if not dtype.is_compatible_with(found.dtype):
            raise ValueError("Trying to reuse partitioned variable %s, but specified dtype %s "
                             "and found dtype %s." % (name, dtype.name, found.dtype.name))
        if partitions is not None and found._get_partitions() != list(partitions):
            raise ValueError("Trying to reuse partitioned variable %s, but specified partitions "
                             "%s and found partitions %s." % (name, partitions,
                                                              found._get_partitions()))
        return found

    def _check_existing_parts(self, name, num_slices):
        if "%s/part_0" % name not in self._vars:
            return
        if "%s/part_%d" % (name, num_slices - 1) not in self._vars:
            raise ValueError("Partitioner returned a different partitioning than what was "
                             "already found.  Partitioner returned %d shards, and shard "
                             "%s/part_0 was found, but %s/part_%d was not."
                             % (num_slices, name, name, num_slices - 1))
        if "%s/part_%d" % (name, num_slices) in self._vars:
            raise ValueError("Partitioner returned a different partitioning than what was "
                             "already found.  Partitioner returned %d shards, and shard "
                             "%s/part_0 was found, but so was the extra shard %s/part_%d."
                             % (num_slices, name, name, num_slices))

    def _get_single_variable(self, name, shape=None, dtype=dtypes.float32, initializer=None,
                             regularizer=None, reuse=None, trainable=True, collections=None,
                             validate_shape=True, constraint=None, use_resource=None,
                             caching_device=None, partition_info=None):
        from_value = initializer is not None and not callable(initializer)
        if shape is not None and from_value:
            raise ValueError("If initializer is a constant, do not specify shape.")
        dtype = dtypes.as_dtype(dtype)
        if shape is not None:
            shape = tensor_shape.as_shape(shape)
        if name in self._vars:
            return self._existing(name, shape, dtype, reuse)
        if reuse is True:
            raise ValueError("Variable %s does not exist, or was not created with "
                             "tf.get_variable(). Did you mean to set reuse=tf.AUTO_REUSE in "
                             "VarScope?" % name)
        if initializer is None:
            if shape is None:
                raise ValueError("Variable %s did not get an initializer, so its `shape` "
                                 "argument must be specified." % name)
            initializer = _default_initializer(name, dtype)
        # Variables ignore the control dependencies around get_variable and, asked for while
        # a function (a cond branch, a loop body) is being built, are made in the outermost
        # graph (TensorFlow makes them in an init_scope); the function captures their reads.
        with _init_scope():
            v = self._make_variable(name, shape, dtype, initializer, from_value, trainable,
                                    collections, validate_shape, constraint, use_resource,
                                    caching_device, partition_info)
        self._vars[name] = v
        if regularizer:
            _add_regularization_loss(v, name, regularizer)
        return v

    @staticmethod
    def _make_variable(name, shape, dtype, initializer, from_value, trainable, collections,
                       validate_shape, constraint, use_resource, caching_device,
                       partition_info=None):
        init_val, variable_dtype = _initial_value(initializer, from_value, shape, dtype,
                                                  partition_info)
        # use_resource=False: a ref variable (VariableV2), as TensorFlow.
        if use_resource is False:
            return variables.RefVariable(
                initial_value=init_val, name=name, trainable=trainable,
                collections=collections, dtype=variable_dtype,
                validate_shape=validate_shape, constraint=constraint)
        return variables.ResourceVariable(
            initial_value=init_val, name=name, trainable=trainable, collections=collections,
            dtype=variable_dtype, validate_shape=validate_shape, constraint=constraint,
            shape=shape, caching_device=caching_device)

    def _existing(self, name, shape, dtype, reuse):
        if reuse is False:
            raise ValueError("Variable %s already exists, disallowed. Did you mean to set "
                             "reuse=True or reuse=tf.AUTO_REUSE in VarScope?" % name)
        found = self._vars[name]
        if shape is not None and not shape.is_compatible_with(found.get_shape()):
            raise ValueError("Trying to share variable %s, but specified shape %s and found "
                             "shape %s." % (name, shape, found.get_shape()))
        if not dtype.is_compatible_with(found.dtype):
            raise ValueError("Trying to share variable %s, but specified dtype %s and found "
                             "dtype %s." % (name, dtype.name, found.dtype.name))
        return found


@contextlib.contextmanager
def _init_scope():
    """TensorFlow's ops.init_scope for variable creation in graph mode: no control
    dependencies; inside a function being built, the outermost graph at the top name scope
    (variable names are absolute)."""
    g = ops.get_default_graph()
    if not g.building_function:
        with ops.control_dependencies(None):
            yield
        return
    while getattr(g, "outer_graph", None) is not None:
        g = g.outer_graph
    with g.as_default(), g.control_dependencies(None), g.name_scope(None):
        yield


def _default_initializer(name, dtype):
    """glorot_uniform for floats, zeros for integers, bools and strings (as TensorFlow)."""
    if dtype.is_floating:
        return init_ops.glorot_uniform_initializer()
    if dtype.is_integer or dtype.is_unsigned or dtype.is_bool or dtype == dtypes.string:
        return init_ops.zeros_initializer()
    raise ValueError("An initializer for variable %s of %s is required" % (name, dtype))


def _part_initializer(name, initializer, offset, part_shape, dtype):
    """(initializer, shape for get_variable, dtype) of one part of a partitioned variable:
    the default or a callable initializer as it is (it gets the part's _PartitionInfo), a
    tensor or value sliced to the part (a Slice under <part>/PartitionedInitializer)."""
    if initializer is None:
        return _default_initializer(name, dtype), part_shape, dtype
    if callable(initializer):
        return initializer, part_shape, dtype
    if isinstance(initializer, ops.Tensor):
        init = indexing_ops.slice(initializer, offset, part_shape)
        return init, None, init.dtype.base_dtype
    init = ops.convert_to_tensor(initializer, dtype=dtype)
    return indexing_ops.slice(init, offset, part_shape), None, dtype


def _initial_value(initializer, from_value, shape, dtype, partition_info=None):
    """(initial_value for the Variable, its dtype or None to take the value's)."""
    if from_value:
        return initializer, None
    if inspect.isclass(initializer):
        initializer = initializer()
    if shape is not None and shape.is_fully_defined():
        kw = {"partition_info": partition_info} if _accepts(initializer, "partition_info") \
            else {}
        return functools.partial(initializer, shape.as_list(), dtype=dtype, **kw), \
            dtype.base_dtype
    if _needs_no_arguments(initializer):
        return initializer, None
    raise ValueError("The initializer passed is not valid. It should be a callable with no "
                     "arguments and the shape should not be provided or an instance of "
                     "`tf.keras.initializers.*' and `shape` should be fully defined.")


def _add_regularization_loss(v, name, regularizer):
    # TensorFlow calls the regularizer once where get_variable was called (name scope reset
    # to the top) to see whether it returns None, then again under "<name>/Regularizer/",
    # colocated with the variable; the second result is the loss.
    if regularizer(v) is None:
        return
    with ops.colocate_with(v), ops.name_scope(name + "/Regularizer/"):
        loss = regularizer(v)
    ops.add_to_collection(ops.GraphKeys.REGULARIZATION_LOSSES, loss)


def no_regularizer(_):
    """A regularizer returning None: no loss (tf.compat.v1.no_regularizer)."""
    return None


class VariableScope:
    """The defaults get_variable uses inside a variable_scope (tf.compat.v1.VariableScope).

    Attributes: name (the prefix of variable names, "" at the top), original_name_scope
    (the name scope opened with it, e.g. "a_1/"), reuse (False, True or AUTO_REUSE),
    initializer, regularizer, caching_device, partitioner, custom_getter, dtype (float32 by
    default), use_resource, constraint.
    """

    def __init__(self, reuse, name="", initializer=None, regularizer=None,
                 caching_device=None, partitioner=None, custom_getter=None, name_scope="",
                 dtype=dtypes.float32, use_resource=None, constraint=None):
        self._name = name
        self._initializer = initializer
        self._regularizer = regularizer
        self._reuse = reuse
        self._caching_device = caching_device
        self._partitioner = partitioner
        self._custom_getter = custom_getter
        self._name_scope = name_scope
        self._dtype = dtype
        self._use_resource = use_resource
        self._constraint = constraint

    name = property(lambda self: self._name)
    original_name_scope = property(lambda self: self._name_scope)
    reuse = property(lambda self: self._reuse)
    initializer = property(lambda self: self._initializer)
    dtype = property(lambda self: self._dtype)
    use_resource = property(lambda self: self._use_resource)
    regularizer = property(lambda self: self._regularizer)
    caching_device = property(lambda self: self._caching_device)
    partitioner = property(lambda self: self._partitioner)
    custom_getter = property(lambda self: self._custom_getter)
    constraint = property(lambda self: self._constraint)

    def reuse_variables(self):
        """Sets reuse to True for the rest of this scope."""
        self._reuse = True

    def set_initializer(self, initializer):
        self._initializer = initializer

    def set_dtype(self, dtype):
        self._dtype = dtype

    def set_use_resource(self, use_resource):
        self._use_resource = use_resource

    def set_regularizer(self, regularizer):
        self._regularizer = regularizer

    def set_caching_device(self, caching_device):
        self._caching_device = caching_device

    def set_partitioner(self, partitioner):
        self._partitioner = partitioner

    def set_custom_getter(self, custom_getter):
        self._custom_getter = custom_getter

    def get_collection(self, name):
        """Collection `name` of the default graph, filtered to this scope ("name/")."""
        return ops.get_collection(name, self._name + "/" if self._name else "")

    def trainable_variables(self):
        return self.get_collection(ops.GraphKeys.TRAINABLE_VARIABLES)

    def global_variables(self):
        return self.get_collection(ops.GraphKeys.GLOBAL_VARIABLES)

    def local_variables(self):
        return self.get_collection(ops.GraphKeys.LOCAL_VARIABLES)

    def get_variable(self, var_store, name, shape=None, dtype=None, initializer=None,
                     regularizer=None, reuse=None, trainable=None, collections=None,
                     caching_device=None, partitioner=None, validate_shape=True,
                     use_resource=None, custom_getter=None, constraint=None,
                     synchronization=None, aggregation=None):
        """get_variable in `var_store` with this scope's defaults filled in."""
        regularizer = self._regularizer if regularizer is None else regularizer
        caching_device = self._caching_device if caching_device is None else caching_device
        partitioner = self._partitioner if partitioner is None else partitioner
        custom_getter = self._custom_getter if custom_getter is None else custom_getter
        reuse = self._reuse if reuse is None else reuse
        use_resource = self._use_resource if use_resource is None else use_resource
        full_name = self._name + "/" + name if self._name else name
        # Variable names depend on the variable scope only: leave the name scope meanwhile.
        with ops.name_scope(None):
            if dtype is not None and initializer is not None and not callable(initializer):
                init_dtype = ops.convert_to_tensor(initializer).dtype.base_dtype
                if init_dtype != dtype:
                    raise ValueError("Initializer type '%s' and explicit dtype '%s' don't "
                                     "match." % (init_dtype, dtypes.as_dtype(dtype)))
            initializer = self._initializer if initializer is None else initializer
            constraint = self._constraint if constraint is None else constraint
            dtype = self._dtype if dtype is None else dtype
            return var_store.get_variable(
                full_name, shape=shape, dtype=dtype, initializer=initializer,
                regularizer=regularizer, reuse=reuse, trainable=trainable,
                collections=collections, caching_device=caching_device,
                partitioner=partitioner, validate_shape=validate_shape,
                use_resource=use_resource, custom_getter=custom_getter, constraint=constraint)


class _VariableScopeStore(threading.local):
    """Per graph and thread: the current VariableScope and how often each scope name has
    been opened (for default_name uniquification)."""

    def __init__(self):
        super().__init__()
        self.current_scope = VariableScope(False)
        self.variable_scopes_count = {}

    def open_variable_scope(self, scope_name):
        self.variable_scopes_count[scope_name] = \
            self.variable_scopes_count.get(scope_name, 0) + 1

    def close_variable_subscopes(self, scope_name):
        # Leaving scope "a" forgets the counts of "a/..." so that default names restart
        # ("a/layer") when "a" is entered again as "a_1/" in name scopes.
        prefix = "" if scope_name is None else scope_name + "/"
        for k in self.variable_scopes_count:
            if k.startswith(prefix):
                self.variable_scopes_count[k] = 0

    def variable_scope_count(self, scope_name):
        return self.variable_scopes_count.get(scope_name, 0)


def get_variable_scope_store():
    """The _VariableScopeStore of the default graph (created on first use)."""
    store = ops.get_collection(_VARSCOPESTORE_KEY)
    if store:
        return store[0]
    store = _VariableScopeStore()
    ops.add_to_collection(_VARSCOPESTORE_KEY, store)
    return store


def get_variable_scope():
    """The current VariableScope of the default graph (tf.compat.v1.get_variable_scope); at
    the top level a scope named "" with reuse False."""
    return get_variable_scope_store().current_scope


def _get_default_variable_store():
    store = ops.get_collection(_VARSTORE_KEY)
    if store:
        return store[0]
    store = _VariableStore()
    ops.add_to_collection(_VARSTORE_KEY, store)
    return store


def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                 trainable=None, collections=None, caching_device=None, partitioner=None,
                 validate_shape=True, use_resource=None, custom_getter=None, constraint=None,
                 synchronization=None, aggregation=None):
    """Gets the variable "<variable scope>/<name>" or creates it (tf.compat.v1.get_variable).

    A new variable is a resource variable named after the variable scope (not the name
    scope), initialized by `initializer(shape, dtype=dtype)` (default: the scope's
    initializer, else glorot_uniform for floats and zeros for integers, bools and strings),
    or from `initializer` itself when it is a tensor or value (then shape must be None).

    Args:
      name: the last component of the variable name.
      shape: list, tuple or TensorShape; required unless initializer is a value.
      dtype: default the scope's dtype (float32).
      initializer: an initializer, a zero-argument callable, or a value.
      regularizer: fn(variable) -> loss tensor or None; losses go to
        GraphKeys.REGULARIZATION_LOSSES.
      trainable: adds it to GraphKeys.TRAINABLE_VARIABLES (default True).
      collections: default [GraphKeys.GLOBAL_VARIABLES].
      custom_getter: fn(getter, name, *args, **kwargs) called instead of the real getter.
      validate_shape, constraint: as tf.Variable. caching_device, use_resource,
        synchronization, aggregation: accepted; variables are always resource variables.
      partitioner: not supported (NotImplementedError) except for scalars.

    Returns:
      The variable (the same object for every get of one name in a graph).

    Raises:
      ValueError: the variable exists and reuse is False ("Variable a/v already exists,
        disallowed. ..."), does not exist and reuse is True, the shape or dtype given
        conflicts with the existing variable's, no shape and no initializer, a value
        initializer with a shape or another dtype, or no default initializer for the dtype.
    """
    return get_variable_scope().get_variable(
        _get_default_variable_store(), name, shape=shape, dtype=dtype, initializer=initializer,
        regularizer=regularizer, trainable=trainable, collections=collections,
        caching_device=caching_device, partitioner=partitioner, validate_shape=validate_shape,
        use_resource=use_resource, custom_getter=custom_getter, constraint=constraint)


def get_local_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                       trainable=False, collections=None, caching_device=None,
                       partitioner=None, validate_shape=True, use_resource=None,
                       custom_getter=None, constraint=None, synchronization=None,
                       aggregation=None):
    """get_variable into GraphKeys.LOCAL_VARIABLES (plus `collections`), not trainable
    (tf.compat.v1.get_local_variable)."""
    collections = list(collections or []) + [ops.GraphKeys.LOCAL_VARIABLES]
    return get_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                        regularizer=regularizer, trainable=trainable, collections=collections,
                        caching_device=caching_device, partitioner=partitioner,
                        validate_shape=validate_shape, use_resource=use_resource,
                        custom_getter=custom_getter, constraint=constraint)


def _maybe_wrap_custom_getter(custom_getter, old_getter):
    """A nested scope's custom getter calls the enclosing scope's as its getter."""
    if old_getter is None:
        return custom_getter

    def wrapped_custom_getter(getter, *args, **kwargs):
        return custom_getter(functools.partial(old_getter, getter), *args, **kwargs)
    return wrapped_custom_getter


class _pure_variable_scope:  # noqa: N801 - TensorFlow's name
    """Enters a VariableScope without opening a name scope."""

    def __init__(self, name_or_scope, reuse=None, initializer=None, regularizer=None,
                 caching_device=None, partitioner=None, custom_getter=None,
                 old_name_scope=None, dtype=dtypes.float32, use_resource=None,
                 constraint=None):
        self._name_or_scope = name_or_scope
        self._reuse = reuse
        self._settings = (initializer, regularizer, caching_device, partitioner, dtype,
                          use_resource)
        self._custom_getter = custom_getter
        self._old_name_scope = old_name_scope
        self._constraint = constraint
        self._var_scope_store = get_variable_scope_store()
        self._last_variable_scope_object = None
        if isinstance(name_or_scope, VariableScope):
            self._new_name = name_or_scope.name
            s = name_or_scope
            scope = VariableScope(
                s.reuse if not reuse else reuse, name=self._new_name,
                initializer=s.initializer, regularizer=s.regularizer,
                caching_device=s.caching_device, partitioner=s.partitioner, dtype=s.dtype,
                custom_getter=s.custom_getter, name_scope=s._name_scope,
                use_resource=s.use_resource, constraint=constraint)
            self._apply_settings(scope, s.custom_getter)
            self._cached_variable_scope_object = scope

    def _apply_settings(self, scope, old_getter):
        initializer, regularizer, caching_device, partitioner, dtype, use_resource = \
            self._settings
        if initializer is not None:
            scope.set_initializer(initializer)
        if regularizer is not None:
            scope.set_regularizer(regularizer)
        if caching_device is not None:
            scope.set_caching_device(caching_device)
        if partitioner is not None:
            scope.set_partitioner(partitioner)
        if self._custom_getter is not None:
            scope.set_custom_getter(_maybe_wrap_custom_getter(self._custom_getter, old_getter))
        if dtype is not None:
            scope.set_dtype(dtype)
        if use_resource is not None:
            scope.set_use_resource(use_resource)

    def __enter__(self):
        store = self._var_scope_store
        self._old = old = store.current_scope
        if isinstance(self._name_or_scope, VariableScope):
            store.open_variable_scope(self._new_name)
            self._old_subscopes = dict(store.variable_scopes_count)
            scope = self._cached_variable_scope_object
        else:
            name = self._name_or_scope
            self._new_name = old.name + "/" + name if old.name else name
            self._reuse = self._reuse or old.reuse  # sub-scopes inherit reuse
            name_scope = name if self._old_name_scope is None else self._old_name_scope
            scope = VariableScope(
                self._reuse, name=self._new_name, initializer=old.initializer,
                regularizer=old.regularizer, caching_device=old.caching_device,
                partitioner=old.partitioner, dtype=old.dtype, use_resource=old.use_resource,
                custom_getter=old.custom_getter, name_scope=name_scope,
                constraint=self._constraint)
            self._apply_settings(scope, old.custom_getter)
            store.open_variable_scope(self._new_name)
        store.current_scope = scope
        self._last_variable_scope_object = scope
        return scope

    def __exit__(self, *exc):
        store = self._var_scope_store
        if store.current_scope is not self._last_variable_scope_object:
            raise RuntimeError("Improper nesting of variable_scope.")
        if isinstance(self._name_or_scope, VariableScope):
            store.variable_scopes_count = self._old_subscopes
        else:
            store.close_variable_subscopes(self._new_name)
        store.current_scope = self._old


def _get_unique_variable_scope(prefix):
    """`prefix`, or prefix_1, prefix_2, ...: the first not yet opened in the current scope."""
    store = get_variable_scope_store()
    current = get_variable_scope()
    name = current.name + "/" + prefix if current.name else prefix
    if store.variable_scope_count(name) == 0:
        return prefix
    idx = 1
    while store.variable_scope_count(name + ("_%d" % idx)) > 0:
        idx += 1
    return prefix + ("_%d" % idx)


class _NameScope:
    """A re-enterable tf.name_scope(name): each entry opens a new (uniquified) scope."""

    def __init__(self, name):
        self._name = name
        self._entered = []

    def __enter__(self):
        cm = ops.name_scope(self._name)
        scope = cm.__enter__()
        self._entered.append(cm)
        return scope

    def __exit__(self, *exc):
        return self._entered.pop().__exit__(*exc)


class variable_scope:  # noqa: N801 - TensorFlow's name
    """Context manager for a variable scope and its name scope (tf.compat.v1.variable_scope).

    Args:
      name_or_scope: a string (appended to the current variable scope's name) or a
        VariableScope to re-enter (its name is kept whatever the current scope).
      default_name: with name_or_scope None, the name, made unique among sibling scopes
        ("layer", "layer_1", ...).
      values: tensors whose graph becomes the default graph inside.
      initializer, regularizer, caching_device, partitioner, custom_getter, dtype,
        use_resource, constraint: defaults for get_variable inside (inherited by sub-scopes).
      reuse: True, AUTO_REUSE or None/False (inherit the enclosing scope's reuse).
      auxiliary_name_scope: False opens no name scope (ops keep the current one).

    Yields the VariableScope. The name scope opened is name_or_scope (or the last component
    of a VariableScope's name, or default_name) made unique: variable_scope("a") entered
    twice gives ops a/... then a_1/..., while both get variables named a/...

    Raises:
      TypeError: no name_or_scope and no default_name, a name_or_scope neither string nor
        VariableScope, a non-bool auxiliary_name_scope.
      ValueError: reuse not True, False, None or AUTO_REUSE; reuse=True with default_name.
    """

    def __init__(self, name_or_scope, default_name=None, values=None, initializer=None,
                 regularizer=None, caching_device=None, partitioner=None, custom_getter=None,
                 reuse=None, dtype=None, use_resource=None, constraint=None,
                 auxiliary_name_scope=True):
        self._name_or_scope = name_or_scope
        self._default_name = default_name
        self._scope_kwargs = dict(initializer=initializer, regularizer=regularizer,
                                  caching_device=caching_device, partitioner=partitioner,
                                  custom_getter=custom_getter, dtype=dtype,
                                  use_resource=use_resource, constraint=constraint)
        if default_name is None and name_or_scope is None:
            raise TypeError("If default_name is None then name_or_scope is required")
        if reuse is False:
            reuse = None
        if not (reuse is True or reuse is None or reuse is AUTO_REUSE):
            raise ValueError("The reuse parameter must be True or False or None.")
        self._reuse = reuse
        self._graph = ops._get_graph_from_inputs(values or [])
        self._cached_pure_variable_scope = None
        self._current_name_scope = None
        if not isinstance(auxiliary_name_scope, bool):
            raise TypeError("The auxiliary_name_scope must be `True` or `False`, while get {}"
                            .format(auxiliary_name_scope))
        self._auxiliary_name_scope = auxiliary_name_scope

    def __enter__(self):
        self._graph_context_manager = self._graph.as_default()
        self._graph_context_manager.__enter__()
        try:
            if self._cached_pure_variable_scope is not None:
                if self._current_name_scope is not None:
                    self._current_name_scope.__enter__()
                return self._cached_pure_variable_scope.__enter__()
            return self._enter_scope_uncached()
        except BaseException:
            self._graph_context_manager.__exit__(None, None, None)
            raise

    def _enter_scope_uncached(self):
        current_name_scope = None
        if not self._auxiliary_name_scope:
            # Stay in the current name scope (re-entered as is).
            name_scope = ops.get_default_graph().get_name_scope()
            current_name_scope = _NameScope(name_scope + "/" if name_scope else name_scope)
        if self._name_or_scope is not None:
            if not isinstance(self._name_or_scope, (VariableScope, str)):
                raise TypeError("VariableScope: name_or_scope must be a string or "
                                "VariableScope.")
            if isinstance(self._name_or_scope, str):
                name_scope = self._name_or_scope
            else:
                name_scope = self._name_or_scope.name.split("/")[-1]
            old_name_scope = None
            if name_scope or current_name_scope:
                current_name_scope = current_name_scope or _NameScope(name_scope)
                entered = current_name_scope.__enter__()
                self._current_name_scope = current_name_scope
                old_name_scope = (entered if isinstance(self._name_or_scope, str)
                                  else self._name_or_scope.original_name_scope)
            pure = _pure_variable_scope(self._name_or_scope, reuse=self._reuse,
                                        old_name_scope=old_name_scope, **self._scope_kwargs)
        else:
            if self._reuse:
                raise ValueError("reuse=True cannot be used without a name_or_scope")
            current_name_scope = current_name_scope or _NameScope(self._default_name)
            entered = current_name_scope.__enter__()
            self._current_name_scope = current_name_scope
            pure = _pure_variable_scope(_get_unique_variable_scope(self._default_name),
                                        old_name_scope=entered, **self._scope_kwargs)
        try:
            scope = pure.__enter__()
        except BaseException:
            if self._current_name_scope is not None:
                self._current_name_scope.__exit__(None, None, None)
            raise
        self._cached_pure_variable_scope = pure
        return scope

    def __exit__(self, *exc):
        try:
            self._cached_pure_variable_scope.__exit__(*exc)
        finally:
            try:
                if self._current_name_scope is not None:
                    self._current_name_scope.__exit__(*exc)
            finally:
                self._graph_context_manager.__exit__(*exc)
