"""tf.compat.v1.train.ProximalAdagradOptimizer (TensorFlow's training/proximal_adagrad.py)."""
from minitf.framework import constant_op, ops
from minitf.framework.op_def_library import apply_op
from minitf.ops import math_ops
from minitf.training import optimizer


class ProximalAdagradOptimizer(optimizer.Optimizer):
    """Adagrad's learning rate with the l1/l2 proximal step (FOBOS). Slot "accumulator"
    (<var>/ProximalAdagrad) starting at initial_accumulator_value (> 0, else ValueError).

    Args: learning_rate, initial_accumulator_value=0.1, l1_regularization_strength=0.0,
    l2_regularization_strength=0.0, use_locking, name.
    Kernels: (Resource)(Sparse)ApplyProximalAdagrad."""

    def __init__(self, learning_rate, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking=False, name="ProximalAdagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError("initial_accumulator_value must be positive: %s" %
                             initial_accumulator_value)
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_accumulator_value = initial_accumulator_value
        self._l1_regularization_strength = l1_regularization_strength
        self._l2_regularization_strength = l2_regularization_strength

    def _create_slots(self, var_list):
        for v in var_list:
            with ops.colocate_with(v):
                val = constant_op.constant(self._initial_accumulator_value, shape=v.get_shape(),
                                           dtype=v.dtype.base_dtype)
            self._get_or_make_slot(v, val, "accumulator", self._name)

    def _prepare(self):
        self._learning_rate_tensor = ops.convert_to_tensor(self._learning_rate,
                                                           name="learning_rate")
        self._l1_regularization_strength_tensor = ops.convert_to_tensor(
            self._l1_regularization_strength, name="l1_regularization_strength")
        self._l2_regularization_strength_tensor = ops.convert_to_tensor(
            self._l2_regularization_strength, name="l2_regularization_strength")

    def _scalars(self):
        return dict(lr=self._learning_rate_tensor, l1=self._l1_regularization_strength_tensor,
                    l2=self._l2_regularization_strength_tensor)

    def _apply_dense(self, grad, var):
        return apply_op("ApplyProximalAdagrad", var=var, accum=self.get_slot(var, "accumulator"),
                        grad=grad, use_locking=self._use_locking, **self._scalars())

    def _resource_apply_dense(self, grad, var):
        return apply_op("ResourceApplyProximalAdagrad", var=var.handle,
                        accum=self.get_slot(var, "accumulator").handle, grad=grad,
                        use_locking=self._use_locking, **self._scalars())

    def _apply_sparse(self, grad, var):
        return apply_op("SparseApplyProximalAdagrad", var=var,
                        accum=self.get_slot(var, "accumulator"), grad=grad.values,
                        indices=grad.indices, use_locking=self._use_locking, **self._scalars())

    def _resource_apply_sparse(self, grad, var, indices):
        s = {k: math_ops.cast(v, grad.dtype) for k, v in self._scalars().items()}
        return apply_op("ResourceSparseApplyProximalAdagrad", var=var.handle,
                        accum=self.get_slot(var, "accumulator").handle, grad=grad,
                        indices=indices, use_locking=self._use_locking, **s)
