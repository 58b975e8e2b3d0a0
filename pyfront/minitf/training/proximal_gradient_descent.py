"""tf.compat.v1.train.ProximalGradientDescentOptimizer (TensorFlow's
training/proximal_gradient_descent.py)."""
from minitf.framework import ops
from minitf.framework.op_def_library import apply_op
from minitf.ops import math_ops
from minitf.training import optimizer


class ProximalGradientDescentOptimizer(optimizer.Optimizer):
    """Gradient descent followed by the l1/l2 proximal step (FOBOS). No slots.

    Args: learning_rate, l1_regularization_strength=0.0, l2_regularization_strength=0.0,
    use_locking, name. Kernels: (Resource)(Sparse)ApplyProximalGradientDescent (the dense
    forms take the scalars uncast, as TensorFlow: use them with float32 variables)."""

    def __init__(self, learning_rate, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, use_locking=False,
                 name="ProximalGradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._l1_regularization_strength = l1_regularization_strength
        self._l2_regularization_strength = l2_regularization_strength

    def _prepare(self):
        self._learning_rate_tensor = ops.convert_to_tensor(self._learning_rate,
                                                           name="learning_rate")
        self._l1_regularization_strength_tensor = ops.convert_to_tensor(
            self._l1_regularization_strength, name="l1_regularization_strength")
        self._l2_regularization_strength_tensor = ops.convert_to_tensor(
            self._l2_regularization_strength, name="l2_regularization_strength")

    def _scalars(self):
        return dict(alpha=self._learning_rate_tensor, l1=self._l1_regularization_strength_tensor,
                    l2=self._l2_regularization_strength_tensor)

    def _apply_dense(self, grad, var):
        return apply_op("ApplyProximalGradientDescent", var=var, delta=grad,
                        use_locking=self._use_locking, **self._scalars())

    def _resource_apply_dense(self, grad, var):
        return apply_op("ResourceApplyProximalGradientDescent", var=var.handle, delta=grad,
                        use_locking=self._use_locking, **self._scalars())

    def _apply_sparse(self, grad, var):
        return apply_op("SparseApplyProximalGradientDescent", var=var, grad=grad.values,
                        indices=grad.indices, use_locking=self._use_locking,
                        **self._scalars())

    def _resource_apply_sparse(self, grad, var, indices):
        s = {k: math_ops.cast(v, grad.dtype) for k, v in self._scalars().items()}
        return apply_op("ResourceSparseApplyProximalGradientDescent", var=var.handle, grad=grad,
                        indices=indices, use_locking=self._use_locking, **s)
