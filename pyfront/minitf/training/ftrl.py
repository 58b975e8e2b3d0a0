"""tf.compat.v1.train.FtrlOptimizer (TensorFlow's training/ftrl.py)."""
from minitf.framework import ops
from minitf.framework.op_def_library import apply_op
from minitf.ops import array_ops, math_ops
from minitf.training import optimizer


class FtrlOptimizer(optimizer.Optimizer):
    """FTRL-proximal (McMahan et al.): slots "accum" (<var>/Ftrl, initial_accumulator_value)
    and "linear" (<var>/Ftrl_1, zeros). With l2_shrinkage_regularization_strength > 0 the
    V2 kernels run (shrinkage in the gradient of `linear`); `beta` is folded into the l2
    strength as TensorFlow does (l2 + beta / (2 lr)).

    Args: learning_rate, learning_rate_power=-0.5 (<= 0), initial_accumulator_value=0.1
    (>= 0), l1_regularization_strength=0.0, l2_regularization_strength=0.0 (>= 0),
    use_locking, name, accum_name, linear_name, l2_shrinkage_regularization_strength=0.0,
    beta=None. ValueError with TensorFlow's message for a value out of range.
    Kernels: (Resource)(Sparse)ApplyFtrl(V2)."""

    def __init__(self, learning_rate, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking=False, name="Ftrl", accum_name=None, linear_name=None,
                 l2_shrinkage_regularization_strength=0.0, beta=None):
        super().__init__(use_locking, name)
        if initial_accumulator_value < 0.0:
            raise ValueError("initial_accumulator_value %f needs to be positive or zero" %
                             initial_accumulator_value)
        if learning_rate_power > 0.0:
            raise ValueError("learning_rate_power %f needs to be negative or zero" %
                             learning_rate_power)
        if l1_regularization_strength < 0.0:
            raise ValueError("l1_regularization_strength %f needs to be positive or zero" %
                             l1_regularization_strength)
        if l2_regularization_strength < 0.0:
            raise ValueError("l2_regularization_strength %f needs to be positive or zero" %
                             l2_regularization_strength)
        if l2_shrinkage_regularization_strength < 0.0:
            raise ValueError("l2_shrinkage_regularization_strength %f needs to be positive or "
                             "zero" % l2_shrinkage_regularization_strength)
        self._learning_rate = learning_rate
        self._learning_rate_power = learning_rate_power
        self._initial_accumulator_value = initial_accumulator_value
        self._l1_regularization_strength = l1_regularization_strength
        self._l2_regularization_strength = l2_regularization_strength
        self._beta = 0.0 if beta is None else beta
        self._l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self._accum_name = accum_name
        self._linear_name = linear_name

    def _create_slots(self, var_list):
        def _accum_initializer(shape, dtype=None, partition_info=None):
            del partition_info
            return array_ops.ones(shape=shape, dtype=dtype) * self._initial_accumulator_value

        for v in var_list:
            self._get_or_make_slot_with_initializer(v, _accum_initializer, v.shape,
                                                    v.dtype.base_dtype, "accum",
                                                    self._accum_name or self._name)
            self._zeros_slot(v, "linear", self._linear_name or self._name)

    def _prepare(self):
        self._learning_rate_tensor = ops.convert_to_tensor(self._learning_rate,
                                                           name="learning_rate")
        self._l1_regularization_strength_tensor = ops.convert_to_tensor(
            self._l1_regularization_strength, name="l1_regularization_strength")
        # beta enters as extra l2, so the kernels need no parameter for it (TensorFlow's way).
        self._adjusted_l2_regularization_strength_tensor = ops.convert_to_tensor(
            self._l2_regularization_strength + self._beta /
            (2. * math_ops.maximum(self._learning_rate, 1e-36)),
            name="adjusted_l2_regularization_strength")
        self._beta_tensor = ops.convert_to_tensor(self._beta, name="beta")
        self._l2_shrinkage_regularization_strength_tensor = ops.convert_to_tensor(
            self._l2_shrinkage_regularization_strength,
            name="l2_shrinkage_regularization_strength")
        self._learning_rate_power_tensor = ops.convert_to_tensor(self._learning_rate_power,
                                                                 name="learning_rate_power")

    def _update(self, prefix, var, grad, dtype, unwrap, **extra):
        c = math_ops.cast
        args = dict(var=unwrap(var), accum=unwrap(self.get_slot(var, "accum")),
                    linear=unwrap(self.get_slot(var, "linear")), grad=grad, **extra,
                    lr=c(self._learning_rate_tensor, dtype),
                    l1=c(self._l1_regularization_strength_tensor, dtype),
                    l2=c(self._adjusted_l2_regularization_strength_tensor, dtype))
        op_type = prefix + "Ftrl"
        if self._l2_shrinkage_regularization_strength > 0.0:
            op_type += "V2"
            args["l2_shrinkage"] = c(self._l2_shrinkage_regularization_strength_tensor, dtype)
        args["lr_power"] = c(self._learning_rate_power_tensor, dtype)
        return apply_op(op_type, use_locking=self._use_locking, **args)

    def _apply_dense(self, grad, var):
        return self._update("Apply", var, grad, var.dtype.base_dtype, lambda v: v)

    def _resource_apply_dense(self, grad, var):
        return self._update("ResourceApply", var, grad, grad.dtype.base_dtype,
                            lambda v: v.handle)

    def _apply_sparse(self, grad, var):
        return self._update("SparseApply", var, grad.values, var.dtype.base_dtype,
                            lambda v: v, indices=grad.indices)

    def _resource_apply_sparse(self, grad, var, indices):
        return self._update("ResourceSparseApply", var, grad, grad.dtype, lambda v: v.handle,
                            indices=indices)
