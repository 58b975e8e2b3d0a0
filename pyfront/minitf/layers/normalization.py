"""tf.compat.v1.layers.BatchNormalization / batch_normalization (TensorFlow 2.21: tf-keras's
legacy layer over Keras's v1 BatchNormalization), with TensorFlow's nodes: FusedBatchNormV3
for 4-D inputs normalized over axis 1 or 3 (fused=None or True), else moments/... and
batchnorm/...; moving averages updated by AssignMovingAvg/AssignSubVariableOp ops that go to
the layer's `updates` and GraphKeys.UPDATE_OPS (run them with the train op:
`with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS))`).

`training` (default False) is a Python bool (decided at construction) or a bool tensor
(cond nodes, as TensorFlow's smart_cond builds them). Not provided: renorm, virtual_batch_size
and adjustment (ValueError), as they are rarely used from TF1 code.
"""
import warnings

from minitf.framework import constant_op, dtypes, ops, tensor_shape, tensor_util
from minitf.layers import base, utils
from minitf.ops import array_ops, init_ops, math_ops, nn_ops, reduction_ops


def _constant_value(pred):
    if isinstance(pred, ops.Tensor):
        return tensor_util.constant_value(pred)
    if pred is None or isinstance(pred, (bool, int)):
        return pred
    return None


def _moments(x, axes, keep_dims):
    # tf.nn.moments' nodes: moments/mean, moments/StopGradient, SquaredDifference,
    # moments/variance, then Squeeze unless keep_dims.
    with ops.name_scope(None, "moments", [x, axes]):
        y = math_ops.cast(x, dtypes.float32) if x.dtype == dtypes.float16 else x
        mean = reduction_ops.reduce_mean(y, axes, keepdims=True, name="mean")
        variance = reduction_ops.reduce_mean(
            math_ops.squared_difference(y, array_ops.stop_gradient(mean)), axes,
            keepdims=True, name="variance")
        if not keep_dims:
            mean = array_ops.squeeze(mean, axes)
            variance = array_ops.squeeze(variance, axes)
        if x.dtype == dtypes.float16:
            return math_ops.cast(mean, dtypes.float16), math_ops.cast(variance, dtypes.float16)
        return mean, variance


class BatchNormalization(base.Layer):
    """Batch normalization (tf.compat.v1.layers.BatchNormalization).

    Args: axis (int or list; the normalized, kept axes), momentum (of the moving averages),
    epsilon, center/scale (add beta/gamma), the four initializers, beta/gamma regularizers
    and constraints, fused (None: when the input is 4-D or 5-D with axis 1/3 or 1/4),
    trainable, name. Variables "<scope>/gamma", "beta" (trainable), "moving_mean",
    "moving_variance" (not trainable).
    Raises ValueError (Keras's messages) for renorm/virtual_batch_size/adjustment, an
    undefined normalized dimension, an axis out of range, or fused=True with an
    unsupported axis.
    """

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer=init_ops.zeros_initializer(),
                 gamma_initializer=init_ops.ones_initializer(),
                 moving_mean_initializer=init_ops.zeros_initializer(),
                 moving_variance_initializer=init_ops.ones_initializer(),
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, renorm=False, renorm_clipping=None,
                 renorm_momentum=0.99, fused=None, trainable=True, virtual_batch_size=None,
                 adjustment=None, name=None, **kwargs):
        super().__init__(trainable=trainable, name=name, **kwargs)
        if isinstance(axis, (list, tuple)):
            self.axis = list(axis)
        elif isinstance(axis, int):
            self.axis = axis
        else:
            raise TypeError("Expected an int or a list/tuple of ints for the argument 'axis', "
                            "but received: %r" % axis)
        if renorm or virtual_batch_size is not None or adjustment is not None:
            raise ValueError("minitf's BatchNormalization has no renorm, virtual_batch_size "
                             "or adjustment.")
        self.momentum = momentum
        self.epsilon = epsilon
        self.center = center
        self.scale = scale
        self.beta_initializer = beta_initializer
        self.gamma_initializer = gamma_initializer
        self.moving_mean_initializer = moving_mean_initializer
        self.moving_variance_initializer = moving_variance_initializer
        self.beta_regularizer = beta_regularizer
        self.gamma_regularizer = gamma_regularizer
        self.beta_constraint = beta_constraint
        self.gamma_constraint = gamma_constraint
        self.renorm = renorm
        self.virtual_batch_size = virtual_batch_size
        self.adjustment = adjustment
        self.fused = True if fused is None else fused
        self.supports_masking = True

    def _fused_can_be_used(self):
        axis = [self.axis] if isinstance(self.axis, int) else self.axis
        if len(axis) > 1 or axis[0] not in (-4, -3, -1, 1, 3, 4):
            return False
        return self.dtype in ("float16", "bfloat16", "float32", None)

    @property
    def _param_dtype(self):
        if self.dtype in ("float16", "bfloat16"):
            return dtypes.float32
        return self.dtype or dtypes.float32

    def build(self, input_shape):
        input_shape = tensor_shape.TensorShape(input_shape)
        rank = input_shape.rank
        if rank is None:
            raise ValueError("Input has undefined rank. Received: input_shape=%s"
                             % (input_shape,))
        axis = [self.axis] if isinstance(self.axis, int) else list(self.axis)
        for i, x in enumerate(axis):
            if not -rank <= x < rank:
                raise ValueError(f"Invalid value for `axis` argument. Expected 0 <= axis < "
                                 f"inputs.rank (with inputs.rank={rank}). Received: "
                                 f"axis={tuple(axis)}")
            if x < 0:
                axis[i] = x + rank
        if len(axis) != len(set(axis)):
            raise ValueError(f"Duplicate axis: {tuple(axis)}")
        self.axis = axis
        if self.fused:
            self.fused = rank in (4, 5) and self._fused_can_be_used()
        if self.fused:
            if self.axis == [1] and rank == 4:
                self._data_format = "NCHW"
            elif self.axis == [1] and rank == 5:
                self._data_format = "NCDHW"
            elif self.axis == [3] and rank == 4:
                self._data_format = "NHWC"
            elif self.axis == [4] and rank == 5:
                self._data_format = "NDHWC"
            else:
                self.fused = False
        axis_to_dim = {x: input_shape.dims[x].value for x in self.axis}
        for x in axis_to_dim:
            if axis_to_dim[x] is None:
                raise ValueError("Input has undefined `axis` dimension. Received input with "
                                 f"shape {tuple(input_shape.as_list())} and "
                                 f"axis={tuple(self.axis)}")
        self.input_spec = base.InputSpec(ndim=rank, axes=axis_to_dim)
        if len(axis_to_dim) == 1:
            param_shape = (list(axis_to_dim.values())[0],)
        else:
            param_shape = [axis_to_dim[i] if i in axis_to_dim else 1 for i in range(rank)]
        self._param_shape = param_shape
        pdt = self._param_dtype
        self.gamma = self.add_weight(
            name="gamma", shape=param_shape, dtype=pdt, initializer=self.gamma_initializer,
            regularizer=self.gamma_regularizer, constraint=self.gamma_constraint,
            trainable=True) if self.scale else None
        self.beta = self.add_weight(
            name="beta", shape=param_shape, dtype=pdt, initializer=self.beta_initializer,
            regularizer=self.beta_regularizer, constraint=self.beta_constraint,
            trainable=True) if self.center else None
        self.moving_mean = self.add_weight(name="moving_mean", shape=param_shape, dtype=pdt,
                                           initializer=self.moving_mean_initializer,
                                           synchronization="on_read", trainable=False)
        self.moving_variance = self.add_weight(name="moving_variance", shape=param_shape,
                                               dtype=pdt,
                                               initializer=self.moving_variance_initializer,
                                               synchronization="on_read", trainable=False)
        self.built = True

    def _assign_moving_average(self, variable, value, momentum):
        with ops.name_scope("AssignMovingAvg"):
            with ops.colocate_with(variable):
                decay = ops.convert_to_tensor(1.0 - momentum, name="decay")
                if decay.dtype != variable.dtype.base_dtype:
                    decay = math_ops.cast(decay, variable.dtype.base_dtype)
                delta = (variable - math_ops.cast(value, variable.dtype)) * decay
                return variable.assign_sub(delta)

    def _fused_batch_norm(self, inputs, training):
        beta = self.beta if self.center else constant_op.constant(
            0.0, dtype=self._param_dtype, shape=self._param_shape)
        gamma = self.gamma if self.scale else constant_op.constant(
            1.0, dtype=self._param_dtype, shape=self._param_shape)

        def _train():
            return nn_ops.fused_batch_norm(inputs, gamma, beta, mean=self.moving_mean,
                                           variance=self.moving_variance,
                                           epsilon=self.epsilon, is_training=True,
                                           data_format=self._data_format,
                                           exponential_avg_factor=1.0)

        def _infer():
            return nn_ops.fused_batch_norm(inputs, gamma, beta, mean=self.moving_mean,
                                           variance=self.moving_variance,
                                           epsilon=self.epsilon, is_training=False,
                                           data_format=self._data_format)
        output, mean, variance = utils.smart_cond(training, _train, _infer)
        training_value = _constant_value(training)
        if training_value or training_value is None:
            if training_value is None:
                momentum = utils.smart_cond(training, lambda: self.momentum, lambda: 1.0)
            else:
                momentum = ops.convert_to_tensor(self.momentum)
            self.add_update(lambda: self._assign_moving_average(self.moving_mean, mean,
                                                                momentum))
            self.add_update(lambda: self._assign_moving_average(self.moving_variance,
                                                                variance, momentum))
        return output

    def call(self, inputs, training=False):
        inputs = math_ops.cast(inputs, self.dtype)
        training_value = _constant_value(training)
        if self.fused:
            return self._fused_batch_norm(inputs, training)
        inputs_dtype = inputs.dtype.base_dtype
        if inputs_dtype in (dtypes.float16, dtypes.bfloat16):
            inputs = math_ops.cast(inputs, dtypes.float32)
        input_shape = inputs.shape
        ndims = len(input_shape)
        reduction_axes = [i for i in range(ndims) if i not in self.axis]
        broadcast_shape = [1] * ndims
        broadcast_shape[self.axis[0]] = input_shape.dims[self.axis[0]].value

        def _broadcast(v):
            if (v is not None and len(v.shape) != ndims and
                    reduction_axes != list(range(ndims - 1))):
                return array_ops.reshape(v, broadcast_shape)
            return v
        scale, offset = _broadcast(self.gamma), _broadcast(self.beta)
        if training_value is not None and not training_value:
            mean, variance = self.moving_mean, self.moving_variance
        else:
            keep_dims = len(self.axis) > 1
            mean, variance = _moments(math_ops.cast(inputs, self._param_dtype), reduction_axes,
                                      keep_dims=keep_dims)
            moving_mean, moving_variance = self.moving_mean, self.moving_variance
            batch_mean, batch_variance = mean, variance
            mean = utils.smart_cond(training, lambda: batch_mean,
                                    lambda: ops.convert_to_tensor(moving_mean))
            variance = utils.smart_cond(training, lambda: batch_variance,
                                        lambda: ops.convert_to_tensor(moving_variance))
            new_mean, new_variance = mean, variance

            def mean_update():
                return utils.smart_cond(
                    training,
                    lambda: self._assign_moving_average(self.moving_mean, new_mean,
                                                        self.momentum),
                    lambda: self.moving_mean)

            def variance_update():
                return utils.smart_cond(
                    training,
                    lambda: self._assign_moving_average(self.moving_variance, new_variance,
                                                        self.momentum),
                    lambda: self.moving_variance)
            self.add_update(mean_update)
            self.add_update(variance_update)
        mean = math_ops.cast(mean, inputs.dtype)
        variance = math_ops.cast(variance, inputs.dtype)
        if offset is not None:
            offset = math_ops.cast(offset, inputs.dtype)
        if scale is not None:
            scale = math_ops.cast(scale, inputs.dtype)
        outputs = nn_ops.batch_normalization(inputs, _broadcast(mean), _broadcast(variance),
                                             offset, scale, self.epsilon)
        if inputs_dtype in (dtypes.float16, dtypes.bfloat16):
            outputs = math_ops.cast(outputs, inputs_dtype)
        outputs.set_shape(input_shape)
        return outputs

    def compute_output_shape(self, input_shape):
        return input_shape


def batch_normalization(inputs, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                        beta_initializer=init_ops.zeros_initializer(),
                        gamma_initializer=init_ops.ones_initializer(),
                        moving_mean_initializer=init_ops.zeros_initializer(),
                        moving_variance_initializer=init_ops.ones_initializer(),
                        beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                        gamma_constraint=None, training=False, trainable=True, name=None,
                        reuse=None, renorm=False, renorm_clipping=None, renorm_momentum=0.99,
                        fused=None, virtual_batch_size=None, adjustment=None):
    """Functional form of BatchNormalization (tf.compat.v1.layers.batch_normalization);
    the update ops go to GraphKeys.UPDATE_OPS."""
    warnings.warn("`tf.layers.batch_normalization` is deprecated and will be removed in a "
                  "future version. Please use `tf.keras.layers.BatchNormalization` instead. "
                  "In particular, `tf.control_dependencies(tf.GraphKeys.UPDATE_OPS)` should "
                  "not be used (consult the `tf.keras.layers.BatchNormalization` "
                  "documentation).", stacklevel=2)
    layer = BatchNormalization(
        axis=axis, momentum=momentum, epsilon=epsilon, center=center, scale=scale,
        beta_initializer=beta_initializer, gamma_initializer=gamma_initializer,
        moving_mean_initializer=moving_mean_initializer,
        moving_variance_initializer=moving_variance_initializer,
        beta_regularizer=beta_regularizer, gamma_regularizer=gamma_regularizer,
        beta_constraint=beta_constraint, gamma_constraint=gamma_constraint, renorm=renorm,
        renorm_clipping=renorm_clipping, renorm_momentum=renorm_momentum, fused=fused,
        trainable=trainable, virtual_batch_size=virtual_batch_size, adjustment=adjustment,
        name=name, _reuse=reuse, _scope=name)
    return layer(inputs, training=training)
