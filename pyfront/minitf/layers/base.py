"""The TF1 layer base (tf.compat.v1.layers.Layer, InputSpec): in TensorFlow 2.21 these are
tf-keras's legacy layers (tf_keras/src/legacy_tf_layers/base.py over Keras's v1 base layer);
minitf has no Keras, so this module is the part of both that graph-mode TF1 code sees.

A layer opens its variable scope on its first call (or at construction when the functional
form is given `name`): `variable_scope(scope, default_name=<snake_case class name>)`, so the
first Dense of a graph owns "dense/", the next "dense_1/". Its variables come from
get_variable in that scope (dense/kernel, dense/bias), are reused on later calls, and its ops
are built in the scope's original name scope (dense/MatMul, dense_1/BiasAdd). Weight
regularizer losses are built under "<layer scope>/<weight>/Regularizer" and go to
GraphKeys.REGULARIZATION_LOSSES, activity regularizer losses likewise (divided by the batch
size, under "ActivityRegularizer"), and a layer's update ops (batch normalization's moving
averages) go to GraphKeys.UPDATE_OPS after each call. `layer.name` is Keras's object name
(the first Dense of a graph is "dense_1"); `scope_name` is the variable scope's ("dense").

One difference: a weight with no initializer (and none on the variable scope) gets
get_variable's default, glorot_uniform_initializer() seeded from the graph seed; TensorFlow's
Keras default there is a stateless glorot_uniform seeded from Python's `random`, which no
graph seed reproduces.
"""
import collections
import contextlib
import re
import warnings

from minitf.framework import dtypes, ops, tensor_shape
from minitf.ops import variable_scope as vs
from minitf.util import nest

_KERAS_STYLE_SCOPE = False


@contextlib.contextmanager
def keras_style_scope():
    """Layers created inside use Keras-style variable management
    (tf.compat.v1.layers.experimental.keras_style_scope): no variable scope; each call runs
    in a fresh name scope after the layer's name ("dense_1/", then "dense_1_1/"), the
    weights are tf.Variables named in the first one ("dense_1/kernel"), nothing is reused
    by name, updates stay off GraphKeys.UPDATE_OPS, and `scope=`/`reuse=` are refused."""
    global _KERAS_STYLE_SCOPE
    saved = _KERAS_STYLE_SCOPE
    _KERAS_STYLE_SCOPE = True
    try:
        yield
    finally:
        _KERAS_STYLE_SCOPE = saved


def set_keras_style():
    """Keras-style variable management for every layer created from now on (it cannot be
    unset; tf.compat.v1.layers.experimental.set_keras_style)."""
    global _KERAS_STYLE_SCOPE
    _KERAS_STYLE_SCOPE = True


def to_snake_case(name):
    """Keras's to_snake_case: Conv2DTranspose -> conv2d_transpose, BatchNormalization ->
    batch_normalization."""
    intermediate = re.sub("(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    insecure = re.sub("([a-z])([A-Z])", r"\1_\2", intermediate).lower()
    if insecure[0] != "_":
        return insecure
    return "private" + insecure


def _graph_uids():
    g = ops.get_default_graph()
    uids = getattr(g, "_layer_object_name_uids", None)
    if uids is None:
        uids = collections.defaultdict(int)
        g._layer_object_name_uids = uids
    return uids


def unique_object_name(name, zero_based=False):
    """Keras's per-graph object names: "dense_1", "dense_2", ... (zero_based: "dense",
    "dense_1", ...)."""
    uids = _graph_uids()
    if zero_based:
        number = uids[name]
        uids[name] += 1
        return name + "_" + str(number) if number else name
    uids[name] += 1
    return name + "_" + str(uids[name])


class InputSpec:
    """What a layer accepts: dtype, shape, ndim, max_ndim, min_ndim, axes ({axis: size})
    (tf.compat.v1.layers.InputSpec, Keras's). TypeError for non-integer axes keys;
    ValueError for an axis past ndim/max_ndim."""

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None,
                 axes=None, allow_last_axis_squeeze=False, name=None, optional=False):
        self.dtype = dtypes.as_dtype(dtype).name if dtype is not None else None
        shape = tensor_shape.TensorShape(shape)
        if shape.rank is None:
            shape = None
        else:
            shape = tuple(shape.as_list())
        if shape is not None:
            self.ndim = len(shape)
            self.shape = shape
        else:
            self.ndim = ndim
            self.shape = None
        self.max_ndim = max_ndim
        self.min_ndim = min_ndim
        self.name = name
        self.allow_last_axis_squeeze = allow_last_axis_squeeze
        self.optional = optional
        try:
            axes = axes or {}
            self.axes = {int(k): axes[k] for k in axes}
        except (ValueError, TypeError):
            raise TypeError("Argument `axes` must be a dict with integer keys. Received: "
                            "axes={}".format(axes))
        if self.axes and (self.ndim is not None or self.max_ndim is not None):
            max_dim = (self.ndim if self.ndim else self.max_ndim) - 1
            max_axis = max(self.axes)
            if max_axis > max_dim:
                raise ValueError("Axis {} is greater than the maximum allowed value: {}"
                                 .format(max_axis, max_dim))

    def __repr__(self):
        spec = [("dtype=" + str(self.dtype)) if self.dtype else "",
                ("shape=" + str(self.shape)) if self.shape else "",
                ("ndim=" + str(self.ndim)) if self.ndim else "",
                ("max_ndim=" + str(self.max_ndim)) if self.max_ndim else "",
                ("min_ndim=" + str(self.min_ndim)) if self.min_ndim else "",
                ("axes=" + str(self.axes)) if self.axes else ""]
        return "InputSpec(%s)" % ", ".join(x for x in spec if x)

    def get_config(self):
        return {"dtype": self.dtype, "shape": self.shape, "ndim": self.ndim,
                "max_ndim": self.max_ndim, "min_ndim": self.min_ndim, "axes": self.axes}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _display_shape(shape):
    return str(tuple(shape.as_list()))


def assert_input_compatibility(input_spec, inputs, layer_name):
    """Keras's checks of inputs against a layer's InputSpec(s): ValueError with Keras's
    message ('Input 0 of layer "dense" is incompatible with the layer: expected min_ndim=2,
    found ndim=1. Full shape received: (3,)'); TypeError for a non-tensor."""
    if not input_spec:
        return
    input_spec = nest.flatten(input_spec)
    inputs = nest.flatten(inputs)
    for x, spec in zip(inputs, input_spec):
        if spec is None or (x is None and spec.optional):
            continue
        if not hasattr(x, "shape"):
            raise TypeError("Inputs to a layer should be tensors. Got '{}' (of type {}) as "
                            "input for layer '{}'.".format(x, type(x), layer_name))
    if len(inputs) != len(input_spec):
        raise ValueError('Layer "{}" expects {} input(s), but it received {} input tensors. '
                         "Inputs received: {}".format(layer_name, len(input_spec),
                                                      len(inputs), inputs))
    for index, (x, spec) in enumerate(zip(inputs, input_spec)):
        if spec is None or (x is None and spec.optional):
            continue
        shape = tensor_shape.TensorShape(x.shape)
        if shape.rank is None:
            return
        head = 'Input {} of layer "{}" is incompatible with the layer: '.format(
            index, layer_name)
        ndim = shape.rank
        if spec.ndim is not None and not spec.allow_last_axis_squeeze and ndim != spec.ndim:
            raise ValueError(head + "expected ndim={}, found ndim={}. Full shape received: {}"
                             .format(spec.ndim, ndim, tuple(shape.as_list())))
        if spec.max_ndim is not None and ndim > spec.max_ndim:
            raise ValueError(head + "expected max_ndim={}, found ndim={}".format(
                spec.max_ndim, ndim))
        if spec.min_ndim is not None and ndim < spec.min_ndim:
            raise ValueError(head + "expected min_ndim={}, found ndim={}. Full shape "
                             "received: {}".format(spec.min_ndim, ndim,
                                                   tuple(shape.as_list())))
        if spec.dtype is not None and x.dtype.name != spec.dtype:
            raise ValueError(head + "expected dtype={}, found dtype={}".format(
                spec.dtype, x.dtype))
        dims = shape.as_list()
        for axis, value in (spec.axes or {}).items():
            value = getattr(value, "value", value)
            if value is not None and dims[int(axis)] not in {value, None}:
                raise ValueError(head + "expected axis {} of input shape to have value {}, "
                                 "but received input with shape {}".format(
                                     axis, value, _display_shape(shape)))
        if spec.shape is not None:
            spec_shape = spec.shape
            if spec.allow_last_axis_squeeze:
                if dims and dims[-1] == 1:
                    dims = dims[:-1]
                if spec_shape and spec_shape[-1] == 1:
                    spec_shape = spec_shape[:-1]
            for spec_dim, dim in zip(spec_shape, dims):
                if spec_dim is not None and dim is not None and spec_dim != dim:
                    raise ValueError(head + "expected shape={}, found shape={}".format(
                        spec.shape, _display_shape(shape)))


def _add_elements_to_collection(elements, collection_list):
    elements = nest.flatten(elements)
    for name in nest.flatten(collection_list):
        collection = ops.get_collection_ref(name)
        present = {id(e) for e in collection}
        for element in elements:
            if id(element) not in present:
                collection.append(element)
                present.add(id(element))


def _call_arg_names(fn):
    import inspect
    return [p.name for p in inspect.signature(fn).parameters.values()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


_ALLOWED_KWARGS = {"input_dim", "input_shape", "batch_input_shape", "batch_size", "weights",
                   "activity_regularizer", "autocast", "implementation", "_scope", "_reuse",
                   "dynamic"}


class Layer:
    """Base layer class (tf.compat.v1.layers.Layer).

    Subclasses define build(input_shape) (weights via add_weight) and call(inputs, ...).
    `layer(inputs, *args, scope=None, **kwargs)` checks the inputs against `input_spec`,
    builds on the first call (the layer's dtype, when not given, is the first input's),
    runs `call` in the layer's scope and returns its outputs.

    Args:
      trainable: whether the layer's variables are trainable (TRAINABLE_VARIABLES).
      name: the layer's name, also its variable scope's (default: made unique from the class
        name).
      dtype: the weights' dtype (default: the first input's).
      **kwargs: activity_regularizer, input_shape, batch_input_shape, batch_size, weights,
        autocast, dynamic; _scope/_reuse (the functional forms' scope and reuse).

    Raises:
      TypeError: an unknown keyword argument ("Keyword argument not understood:").
    """

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        for kwarg in kwargs:
            if kwarg not in _ALLOWED_KWARGS:
                raise TypeError("Keyword argument not understood:", kwarg)
        scope = kwargs.pop("_scope", None)
        self._reuse = kwargs.pop("_reuse", None)
        self._trainable = trainable
        self._trainable_weights = []
        self._non_trainable_weights = []
        self._losses = []
        self._callable_losses = []
        self._updates = []
        self._activity_regularizer = kwargs.pop("activity_regularizer", None)
        self._initial_weights = kwargs.pop("weights", None)
        self.built = False
        self.input_spec = getattr(self, "input_spec", None)
        self.supports_masking = False
        self.stateful = False
        if dtype is not None and not isinstance(dtype, str):
            dtype = dtypes.as_dtype(dtype).name
        elif dtype is not None:
            dtype = dtypes.as_dtype(dtype).name
        self._dtype = dtype
        if "input_shape" in kwargs or "batch_input_shape" in kwargs:
            batch_size = kwargs.get("batch_size")
            if "batch_input_shape" in kwargs:
                self._batch_input_shape = tuple(kwargs["batch_input_shape"])
            else:
                self._batch_input_shape = (batch_size,) + tuple(kwargs["input_shape"])
        self._init_set_name(name)
        self._keras_style = _KERAS_STYLE_SCOPE
        if self._keras_style:
            if scope is not None:
                raise ValueError("scope argument not allowed when keras style layers are "
                                 "enabled, but saw: {}".format(scope))
            if self._reuse is not None:
                raise ValueError("reuse argument not allowed when keras style layers are "
                                 "enabled, but saw: {}".format(self._reuse))
        self._call_has_scope_arg = "scope" in _call_arg_names(self.call)
        self._call_has_training_arg = "training" in _call_arg_names(self.call)
        if scope:
            with vs.variable_scope(scope) as captured_scope:
                self._scope = captured_scope
        else:
            self._scope = None
        self._current_scope = None

    # -- names and scopes -------------------------------------------------------------
    def _init_set_name(self, name):
        if isinstance(name, vs.VariableScope):
            base_name = name.name
            self._name = unique_object_name(to_snake_case(type(self).__name__))
        else:
            base_name = name
            self._name = name
        if not name:
            base_name = to_snake_case(type(self).__name__)
            self._name = unique_object_name(base_name)
        self._base_name = base_name

    @property
    def name(self):
        return self._name

    @property
    def scope_name(self):
        if not self._scope:
            raise ValueError('No name available for layer scope because the layer "' +
                             self._name + '" has not been used yet. The scope name ' +
                             " is determined the first time the layer instance is " +
                             "called. You must therefore call the layer before " +
                             "querying `scope_name`.")
        return self._scope.name

    @property
    def graph(self):
        warnings.warn("`Layer.graph` is deprecated and will be removed in a future version. "
                      "Please stop using this property because tf.layers layers no longer "
                      "track their graph.", stacklevel=2)
        return None

    @property
    def dtype(self):
        """The weights' dtype name ('float32'), None until known."""
        return self._dtype

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self._trainable = bool(value)

    @property
    def activity_regularizer(self):
        return self._activity_regularizer

    @activity_regularizer.setter
    def activity_regularizer(self, regularizer):
        self._activity_regularizer = regularizer

    def _set_scope(self, scope=None):
        if self._scope is None:
            if self._reuse:
                with vs.variable_scope(scope if scope is not None else self._base_name) as s:
                    self._scope = s
            else:
                with vs.variable_scope(scope, default_name=self._base_name) as s:
                    self._scope = s

    def _name_scope(self):
        return self._current_scope.original_name_scope

    # -- weights ----------------------------------------------------------------------
    @property
    def trainable_weights(self):
        return list(self._trainable_weights) if self.trainable else []

    @property
    def non_trainable_weights(self):
        if self.trainable:
            return list(self._non_trainable_weights)
        return list(self._trainable_weights) + list(self._non_trainable_weights)

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    @property
    def weights(self):
        return self.trainable_weights + self.non_trainable_weights

    variables = weights

    def count_params(self):
        if not self.built:
            raise ValueError("You tried to call `count_params` on layer " + self.name +
                             ", but the layer isn't built. You can build it manually via: `" +
                             self.name + ".build(batch_input_shape)`.")
        total = 0
        for w in self.weights:
            total += int(tensor_shape.TensorShape(w.shape).num_elements())
        return total

    def get_weights(self):
        """The weights' values, from the default session."""
        sess = ops.get_default_session()
        return sess.run(self.weights) if self.weights else []

    def set_weights(self, weights):
        """Assigns `weights` (a list of arrays, one per weight) in the default session.
        ValueError for a wrong count or shape."""
        params = self.weights
        if len(params) != len(weights):
            raise ValueError('You called `set_weights(weights)` on layer "%s" with a weight '
                             "list of length %s, but the layer was expecting %s weights. "
                             "Provided weights: %s..." % (self.name, len(weights),
                                                         len(params), str(weights)[:50]))
        sess = ops.get_default_session()
        for p, w in zip(params, weights):
            if not tensor_shape.TensorShape(p.shape).is_compatible_with(
                    tensor_shape.TensorShape(getattr(w, "shape", None))):
                raise ValueError("Layer {} weight shape {} is not compatible with provided "
                                 "weight shape {}.".format(self.name, p.shape, w.shape))
            p.load(w, sess)

    def add_weight(self, name, shape, dtype=None, initializer=None, regularizer=None,
                   trainable=None, constraint=None, use_resource=None, synchronization=None,
                   aggregation=None, partitioner=None, **kwargs):
        """Creates (or, when the layer is built or reused, gets) the variable
        "<layer scope>/<name>" with get_variable and tracks it.

        Args:
          name, shape, dtype (default the layer's, else float32), initializer (default the
            variable scope's, else get_variable's), regularizer (fn(variable) -> loss, added
            to REGULARIZATION_LOSSES for a new variable), trainable (default True; False when
            the layer is not trainable), constraint, use_resource, partitioner: as
            get_variable. synchronization: "on_read" makes it non-trainable.

        Raises:
          TypeError: an unknown keyword argument.
          ValueError: trainable=True with synchronization ON_READ; get_variable's errors.
        """
        for kwarg in kwargs:
            if kwarg != "experimental_autocast":
                raise TypeError("Unknown keyword argument:", kwarg)
        if _is_on_read(synchronization):
            if trainable:
                raise ValueError("Synchronization value can be set to "
                                 "VariableSynchronization.ON_READ only for non-trainable "
                                 "variables. You have specified trainable=True and "
                                 "synchronization=VariableSynchronization.ON_READ.")
            trainable = False
        elif trainable is None:
            trainable = True
        existing = set(id(v) for v in ops.get_collection(ops.GraphKeys.GLOBAL_VARIABLES))
        if dtype is None:
            dtype = self.dtype or dtypes.float32
        dtype = dtypes.as_dtype(dtype)
        if self._keras_style:
            return self._add_keras_weight(name, shape, dtype, initializer, regularizer,
                                          trainable and self.trainable, constraint)
        self._set_scope(None)
        reuse = self.built or self._reuse
        with vs.variable_scope(self._scope, reuse=reuse, auxiliary_name_scope=False) as scope:
            self._current_scope = scope
            with ops.name_scope(self._name_scope()):
                if initializer is None:
                    initializer = scope.initializer
                if initializer is None and not (dtype.is_floating or dtype.is_integer or
                                                dtype.is_unsigned or dtype.is_bool):
                    raise ValueError("An initializer for variable %s of type %s is required "
                                     "for layer %s" % (name, dtype.base_dtype, self.name))
                variable = vs.get_variable(
                    name, shape=shape, dtype=dtype, initializer=initializer,
                    trainable=trainable and self.trainable, constraint=constraint,
                    partitioner=partitioner, use_resource=use_resource)
                self._track_variable(variable, trainable and self.trainable)
                if regularizer and not _is_existing(variable, existing):
                    self._handle_weight_regularization(name, variable, regularizer)
        return variable

    def _add_keras_weight(self, name, shape, dtype, initializer, regularizer, trainable,
                          constraint):
        # Keras's make_variable: a resource tf.Variable named in the current name scope,
        # its initializer run under "<name>/Initializer".
        from minitf.ops import init_ops
        from minitf.ops import variables as variables_lib
        if initializer is None:
            if dtype.is_floating:
                initializer = init_ops.glorot_uniform_initializer()
            elif dtype.is_integer or dtype.is_unsigned or dtype.is_bool:
                initializer = init_ops.zeros_initializer()
            else:
                raise ValueError("An initializer for variable %s of type %s is required for "
                                 "layer %s" % (name, dtype.base_dtype, self.name))
        shape = tensor_shape.TensorShape(shape)
        variable = variables_lib.Variable(
            lambda: initializer(shape.as_list(), dtype=dtype), name=name,
            trainable=trainable, dtype=dtype, constraint=constraint, use_resource=True)
        self._track_variable(variable, trainable)
        if regularizer is not None:
            self._handle_weight_regularization(variable.name[:variable.name.find(":")],
                                               variable, regularizer)
        return variable

    def _track_variable(self, variable, trainable):
        parts = list(variable) if _is_split(variable) else [variable]
        target = self._trainable_weights if trainable else self._non_trainable_weights
        for part in parts:
            if not any(part is w for w in self._trainable_weights + self._non_trainable_weights):
                target.append(part)
        # A custom getter (or a non-trainable scope) may have overridden `trainable`.
        if trainable:
            in_collection = set(id(v) for v in ops.get_collection(
                ops.GraphKeys.TRAINABLE_VARIABLES))
            for part in parts:
                if id(part) not in in_collection and any(part is w for w in
                                                         self._trainable_weights):
                    self._trainable_weights = [w for w in self._trainable_weights
                                               if w is not part]
                    self._non_trainable_weights.append(part)

    add_variable = add_weight

    def _handle_weight_regularization(self, name, variable, regularizer):
        def loss_for(v):
            with ops.name_scope(name + "/Regularizer"):
                return regularizer(v)
        if _is_split(variable):
            for v in variable:
                self.add_loss(lambda v=v: loss_for(v))
        else:
            self.add_loss(lambda: loss_for(variable))

    # -- losses and updates -----------------------------------------------------------
    @property
    def losses(self):
        """The layer's losses: those added as tensors, then each weight regularizer's,
        built again (TensorFlow builds them again on every access too)."""
        out = list(self._losses)
        for fn in self._callable_losses:
            loss = fn()
            if loss is not None:
                out.append(loss)
        return out

    def add_loss(self, losses, inputs=None):
        """Adds loss tensors (or zero-argument callables returning one) to the layer; the
        new ones also go to GraphKeys.REGULARIZATION_LOSSES."""
        new_losses = []
        for loss in nest.flatten(losses):
            if loss is None:
                continue
            if callable(loss):
                self._callable_losses.append(loss)
                value = loss()
                if value is not None:
                    new_losses.append(ops.convert_to_tensor(value, dtype=dtypes.float32)
                                      if not isinstance(value, ops.Tensor) else value)
                continue
            if not isinstance(loss, ops.Tensor):
                loss = ops.convert_to_tensor(loss, dtype=dtypes.float32)
            self._losses.append(loss)
            new_losses.append(loss)
        _add_elements_to_collection(new_losses, ops.GraphKeys.REGULARIZATION_LOSSES)

    def get_losses_for(self, inputs):
        """The losses added with these inputs (None: those that depend on no input)."""
        if inputs is None:
            return [l for l in self.losses if not getattr(l, "_layer_conditional", False)]
        return [l for l in self.losses if getattr(l, "_layer_conditional", False)]

    @property
    def updates(self):
        """The update ops added by the layer (none when it is not trainable and not
        stateful, as in TensorFlow)."""
        if not self.trainable and not self.stateful:
            return []
        return [u() if callable(u) else u for u in self._updates]

    def add_update(self, updates, inputs=None):
        """Adds update ops (or tensors, or callables returning them) to the layer."""
        for u in nest.flatten(updates):
            if callable(u):
                u = u()
            if isinstance(u, ops.Operation):
                self._updates.append(u)
            elif hasattr(u, "op"):
                self._updates.append(_update_op(u))
            else:
                self._updates.append(ops.convert_to_tensor(u).op)

    def get_updates_for(self, inputs):
        return self.updates

    # -- building and calling ---------------------------------------------------------
    def build(self, input_shape):
        self.built = True

    def call(self, inputs, **kwargs):
        return inputs

    def compute_output_shape(self, input_shape):
        raise NotImplementedError("Please run in eager mode or implement the "
                                  "compute_output_shape method on your layer (%s)."
                                  % type(self).__name__)

    def apply(self, *args, **kwargs):
        return self(*args, **kwargs)

    def _maybe_build(self, inputs):
        if self.built:
            return
        assert_input_compatibility(self.input_spec, inputs, self.name)
        flat = nest.flatten(inputs)
        if flat and self._dtype is None:
            try:
                self._dtype = flat[0].dtype.base_dtype.name
            except AttributeError:
                pass
        shapes = None
        if all(hasattr(x, "shape") for x in flat):
            shapes = nest.map_structure(lambda x: tensor_shape.TensorShape(x.shape), inputs)
        self.build(shapes)
        self.built = True
        if self._initial_weights is not None:
            self.set_weights(self._initial_weights)
            self._initial_weights = None

    def __call__(self, inputs, *args, **kwargs):
        """Builds (first call) and runs the layer on `inputs`; `scope=` names the variable
        scope on the first call. Returns call's outputs; ValueError when call returns
        None or for incompatible inputs."""
        scope = kwargs.pop("scope", None)
        if self._keras_style:
            if scope is not None:
                raise ValueError("scope argument not allowed when keras style layers are "
                                 "enabled, but saw: {}".format(scope))
            with ops.name_scope(self._name):
                return self._call_body(inputs, args, kwargs)
        self._set_scope(scope)
        if self.built:
            scope_cm = getattr(self, "_always_reuse_variable_scope", None)
            if scope_cm is None:
                scope_cm = vs.variable_scope(self._scope, reuse=True,
                                             auxiliary_name_scope=False)
                self._always_reuse_variable_scope = scope_cm
        else:
            scope_cm = vs.variable_scope(self._scope, reuse=self._reuse,
                                         auxiliary_name_scope=False)
        with scope_cm as vscope:
            self._current_scope = vscope
            if self._call_has_scope_arg:
                kwargs["scope"] = vscope
            with ops.name_scope(self._name_scope()):
                outputs = self._call_body(inputs, args, kwargs)
        _add_elements_to_collection(self.updates, ops.GraphKeys.UPDATE_OPS)
        return outputs

    def _call_body(self, inputs, args, kwargs):
        import numpy as np
        inputs = nest.map_structure(
            lambda x: ops.convert_to_tensor(x) if isinstance(x, (np.ndarray, float, int))
            else x, inputs)
        if "training" in kwargs and not self._call_has_training_arg:
            kwargs.pop("training")
        assert_input_compatibility(self.input_spec, inputs, self.name)
        self._maybe_build(inputs)
        outputs = self.call(inputs, *args, **kwargs)
        if outputs is None:
            raise ValueError("A layer's `call` method should return a Tensor or a list of "
                             "Tensors, not None (layer: " + self.name + ").")
        self._handle_activity_regularization(outputs)
        return outputs

    def _handle_activity_regularization(self, outputs):
        if not self._activity_regularizer:
            return
        from minitf.ops import array_ops, math_ops
        with ops.name_scope("ActivityRegularizer"):
            for output in nest.flatten(outputs):
                activity_loss = ops.convert_to_tensor(self._activity_regularizer(output))
                batch_size = math_ops.cast(array_ops.shape(output)[0], activity_loss.dtype)
                mean_activity_loss = activity_loss / batch_size
                self.add_loss(mean_activity_loss)


def _update_op(t):
    """The op of an update's result. A resource variable's assign returns, as TensorFlow's
    _UnreadVariable, a read after the assign whose `op` is the assign op itself."""
    op = t.op
    if op.type == "ReadVariableOp" and len(op.control_inputs) == 1 and \
            op.control_inputs[0].type.startswith("Assign"):
        return op.control_inputs[0]
    return op


def _is_on_read(synchronization):
    if synchronization is None:
        return False
    return str(getattr(synchronization, "name", synchronization)).lower() == "on_read"


def _is_split(variable):
    return isinstance(variable, (list, tuple)) or type(variable).__name__ == \
        "PartitionedVariable"


def _is_existing(variable, existing_ids):
    if _is_split(variable):
        return any(id(v) in existing_ids for v in variable)
    return id(variable) in existing_ids
