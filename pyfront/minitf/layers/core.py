"""tf.compat.v1.layers Dense, Dropout, Flatten and their functional forms (TensorFlow 2.21:
tf-keras's legacy layers over keras.layers.Dense/Dropout/Flatten), with TensorFlow's op
sequences: dense/MatMul (dense/Tensordot for rank > 2 inputs), dense/BiasAdd, the
activation; dropout/dropout/... (tf.nn.dropout) or dropout/Identity, a cond when `training`
is a tensor; flatten/Reshape."""
import functools
import numbers
import operator
import warnings

from minitf.framework import constant_op, dtypes, ops, tensor_shape
from minitf.layers import base, utils
from minitf.ops import array_ops, indexing_ops, init_ops, math_ops, nn_ops, reduction_ops

_ACTIVATIONS = {"linear": None, "relu": nn_ops.relu, "relu6": nn_ops.relu6,
                "elu": nn_ops.elu, "selu": nn_ops.selu, "softplus": nn_ops.softplus,
                "softsign": nn_ops.softsign, "sigmoid": math_ops.sigmoid,
                "tanh": math_ops.tanh, "softmax": nn_ops.softmax}


def get_activation(activation):
    """None, a callable, or the name of one ("relu", "tanh", ...). ValueError for an
    unknown name."""
    if activation is None or callable(activation):
        return activation
    if isinstance(activation, str):
        if activation not in _ACTIVATIONS:
            raise ValueError("Unknown activation function: '%s'. Please ensure you are using "
                             "a `keras.utils.custom_object_scope` and that this object is "
                             "included in the scope." % activation)
        return _ACTIVATIONS[activation]
    raise TypeError("Could not interpret activation function identifier: %s" % (activation,))


def _tensordot_last(a, b, rank):
    """tf.tensordot(a, b, [[rank - 1], [0]]) for a 2-D b, with TensorFlow's nodes (name
    scope "Tensordot": a reshaped to 2-D, MatMul, reshaped back; Shape/GatherV2/Prod when
    a's shape is not fully known)."""
    with ops.name_scope(None, "Tensordot", [a, b]) as name:
        a = ops.convert_to_tensor(a, name="a")
        b = ops.convert_to_tensor(b, name="b")
        free = list(range(rank - 1))
        b_free = [tensor_shape.dimension_value(b.shape[1])]
        if a.shape.is_fully_defined():
            dims = a.shape.as_list()
            free_dims = [dims[i] for i in free]
            a_r = array_ops.reshape(a, [int(functools.reduce(operator.mul, free_dims, 1)),
                                        dims[rank - 1]])
            ab = math_ops.matmul(a_r, b)
            return array_ops.reshape(ab, free_dims + b_free, name=name)
        axes = constant_op.constant([rank - 1], dtype=dtypes.int32, name="axes")
        free_t = constant_op.constant(free, dtype=dtypes.int32, name="free")
        shape_a = array_ops.shape(a)
        free_dims = indexing_ops.gather(shape_a, free_t)
        axes_dims = indexing_ops.gather(shape_a, axes)
        prod_free = reduction_ops.reduce_prod(free_dims)
        prod_axes = reduction_ops.reduce_prod(axes_dims)
        perm = array_ops.concat([free_t, axes], 0)
        new_shape = array_ops.stack([prod_free, prod_axes])
        a_r = array_ops.reshape(array_ops.transpose(a, perm), new_shape)
        ab = math_ops.matmul(a_r, b)
        out_shape = array_ops.concat(
            [free_dims, constant_op.constant(b_free, dtype=dtypes.int32)], 0)
        return array_ops.reshape(ab, out_shape, name=name)


class Dense(base.Layer):
    """Densely-connected layer: activation(inputs @ kernel + bias)
    (tf.compat.v1.layers.Dense).

    Args:
      units: output size. activation: callable or name (default linear). use_bias.
      kernel_initializer (default get_variable's glorot_uniform), bias_initializer (zeros),
      kernel_regularizer, bias_regularizer, activity_regularizer: fn(tensor) -> loss.
      kernel_constraint, bias_constraint: fn(variable value) -> projected value.
      trainable, name: as Layer.

    Input: rank >= 2 with a known last dimension; rank > 2 contracts the last axis
    (Tensordot). Variables "<scope>/kernel" [in, units] and "<scope>/bias" [units].
    Raises TypeError for a non-floating dtype, ValueError for an unknown last dimension
    or a rank < 2 input (Keras's messages).
    """

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer=None,
                 bias_initializer=init_ops.zeros_initializer(), kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, trainable=True, name=None, **kwargs):
        super().__init__(trainable=trainable, name=name,
                         activity_regularizer=activity_regularizer, **kwargs)
        self.units = int(units) if not isinstance(units, int) else units
        if self.units < 0:
            raise ValueError("Received an invalid value for `units`, expected a positive "
                             "integer. Received: units=%s" % units)
        self.activation = get_activation(activation)
        self.use_bias = use_bias
        self.kernel_initializer = kernel_initializer
        self.bias_initializer = bias_initializer
        self.kernel_regularizer = kernel_regularizer
        self.bias_regularizer = bias_regularizer
        self.kernel_constraint = kernel_constraint
        self.bias_constraint = bias_constraint
        self.input_spec = base.InputSpec(min_ndim=2)
        self.supports_masking = True

    def build(self, input_shape):
        dtype = dtypes.as_dtype(self.dtype or "float32")
        if not (dtype.is_floating or dtype.is_complex):
            raise TypeError("A Dense layer can only be built with a floating-point dtype. "
                            "Received: dtype=%s" % (dtype,))
        input_shape = tensor_shape.TensorShape(input_shape)
        last_dim = tensor_shape.dimension_value(input_shape[-1])
        if last_dim is None:
            raise ValueError("The last dimension of the inputs to a Dense layer should be "
                             "defined. Found None. Full input shape received: %s"
                             % (input_shape,))
        self.input_spec = base.InputSpec(min_ndim=2, axes={-1: last_dim})
        self.kernel = self.add_weight("kernel", shape=[last_dim, self.units],
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint, dtype=self.dtype,
                                      trainable=True)
        if self.use_bias:
            self.bias = self.add_weight("bias", shape=[self.units],
                                        initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint, dtype=self.dtype,
                                        trainable=True)
        else:
            self.bias = None
        self.built = True

    def call(self, inputs):
        if inputs.dtype.base_dtype != dtypes.as_dtype(self.dtype).base_dtype:
            inputs = math_ops.cast(inputs, dtype=self.dtype)
        rank = inputs.shape.rank
        if rank == 2 or rank is None:
            outputs = math_ops.matmul(inputs, self.kernel)
        else:
            outputs = _tensordot_last(inputs, self.kernel, rank)
            shape = inputs.shape.as_list()
            outputs.set_shape(shape[:-1] + [self.kernel.shape.as_list()[-1]])
        if self.use_bias:
            outputs = nn_ops.bias_add(outputs, self.bias)
        if self.activation is not None:
            outputs = self.activation(outputs)
        return outputs

    def compute_output_shape(self, input_shape):
        input_shape = tensor_shape.TensorShape(input_shape).with_rank_at_least(2)
        if tensor_shape.dimension_value(input_shape[-1]) is None:
            raise ValueError("The last dimension of the input shape of a Dense layer should "
                             "be defined. Found None. Received: input_shape=%s" % input_shape)
        return input_shape[:-1].concatenate(self.units)


def dense(inputs, units, activation=None, use_bias=True, kernel_initializer=None,
          bias_initializer=init_ops.zeros_initializer(), kernel_regularizer=None,
          bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
          bias_constraint=None, trainable=True, name=None, reuse=None):
    """Functional form of Dense (tf.compat.v1.layers.dense): `name` is the variable scope
    (reused with reuse=True); returns the output tensor."""
    warnings.warn("`tf.layers.dense` is deprecated and will be removed in a future version. "
                  "Please use `tf.keras.layers.Dense` instead.", stacklevel=2)
    layer = Dense(units, activation=activation, use_bias=use_bias,
                  kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                  kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                  activity_regularizer=activity_regularizer,
                  kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                  trainable=trainable, name=name, _scope=name, _reuse=reuse)
    return layer(inputs)


class Dropout(base.Layer):
    """Dropout (tf.compat.v1.layers.Dropout): in training, each element is zeroed with
    probability `rate` and the rest scaled by 1 / (1 - rate) (tf.nn.dropout);
    `call(inputs, training=False)`: a Python bool picks the branch at construction, a bool
    tensor builds a cond. noise_shape: a list with None for the input's dims; seed: the op
    seed. ValueError for a float rate outside [0, 1]."""

    def __init__(self, rate=0.5, noise_shape=None, seed=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if isinstance(rate, (int, float)) and not 0 <= rate <= 1:
            raise ValueError(f"Invalid value {rate} received for `rate`, expected a value "
                             "between 0 and 1.")
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed
        self._next_seed = seed
        self.supports_masking = True

    def _get_noise_shape(self, inputs):
        if self.noise_shape is None:
            return None
        concrete = array_ops.shape(inputs)
        shape = [concrete[i] if value is None else value
                 for i, value in enumerate(self.noise_shape)]
        return ops.convert_to_tensor(shape)

    def _legacy_seed(self):
        # Keras's legacy_stateful generator: the given seed, then seed + 1, ...
        if self._next_seed is None:
            return None
        seed = self._next_seed
        self._next_seed += 1
        return seed

    def call(self, inputs, training=False):
        if isinstance(self.rate, numbers.Real) and self.rate == 0:
            return array_ops.identity(inputs)

        def dropped_inputs():
            return nn_ops.dropout_v2(inputs, self.rate,
                                     noise_shape=self._get_noise_shape(inputs),
                                     seed=self._legacy_seed())
        return utils.smart_cond(training, dropped_inputs,
                                lambda: array_ops.identity(inputs))

    def compute_output_shape(self, input_shape):
        return input_shape


def dropout(inputs, rate=0.5, noise_shape=None, seed=None, training=False, name=None):
    """Functional form of Dropout (tf.compat.v1.layers.dropout); `training` a Python bool
    or a bool tensor (default False: the inputs, through an Identity)."""
    warnings.warn("`tf.layers.dropout` is deprecated and will be removed in a future "
                  "version. Please use `tf.keras.layers.Dropout` instead.", stacklevel=2)
    layer = Dropout(rate, noise_shape=noise_shape, seed=seed, name=name)
    return layer(inputs, training=training)


class Flatten(base.Layer):
    """Flattens all but the first dimension: [batch, ...] -> [batch, prod(...)]
    (tf.compat.v1.layers.Flatten); channels_first inputs are transposed to channels_last
    first; a rank-1 input becomes [n, 1]."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = utils.normalize_data_format(data_format)
        self.input_spec = base.InputSpec(min_ndim=1)
        self._channels_first = self.data_format == "channels_first"

    def call(self, inputs):
        if self._channels_first:
            rank = inputs.shape.rank
            if rank and rank > 1:
                permutation = [0] + list(range(2, rank)) + [1]
                inputs = array_ops.transpose(inputs, perm=permutation)
        input_shape = inputs.shape
        if input_shape.rank == 1:
            return array_ops.expand_dims(inputs, axis=1)
        batch_dim = tensor_shape.dimension_value(input_shape[0])
        non_batch_dims = input_shape[1:]
        if non_batch_dims.is_fully_defined():
            last_dim = int(functools.reduce(operator.mul, non_batch_dims.as_list(), 1))
            flattened_shape = constant_op.constant([-1, last_dim])
        elif batch_dim is not None:
            flattened_shape = constant_op.constant([int(batch_dim), -1])
        else:
            flattened_shape = [array_ops.shape(inputs)[0], -1]
        return array_ops.reshape(inputs, flattened_shape)

    def compute_output_shape(self, input_shape):
        import numpy as np
        input_shape = tensor_shape.TensorShape(input_shape).as_list()
        if not input_shape:
            return tensor_shape.TensorShape([1])
        output_shape = [input_shape[0]]
        if np.all(input_shape[1:]):
            output_shape += [int(np.prod(input_shape[1:], dtype=int))]
        else:
            output_shape += [None]
        return tensor_shape.TensorShape(output_shape)


def flatten(inputs, name=None, data_format="channels_last"):
    """Functional form of Flatten (tf.compat.v1.layers.flatten)."""
    warnings.warn("`tf.layers.flatten` is deprecated and will be removed in a future "
                  "version. Please use `tf.keras.layers.Flatten` instead.", stacklevel=2)
    layer = Flatten(name=name, data_format=data_format)
    return layer(inputs)
