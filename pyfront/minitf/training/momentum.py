"""tf.compat.v1.train.MomentumOptimizer (TensorFlow's training/momentum.py)."""
from minitf.framework import ops
from minitf.framework.op_def_library import apply_op
from minitf.ops import math_ops
from minitf.training import optimizer


class MomentumOptimizer(optimizer.Optimizer):
    """accum = momentum * accum + grad; var -= learning_rate * accum (use_nesterov: var -=
    lr * grad + lr * momentum * accum). Slot "momentum" (<var>/Momentum).

    Args: learning_rate, momentum (floats, Tensors or callables), use_locking, name,
    use_nesterov. Kernels: (Resource)(Sparse)ApplyMomentum."""

    def __init__(self, learning_rate, momentum, use_locking=False, name="Momentum",
                 use_nesterov=False):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._momentum = momentum
        self._use_nesterov = use_nesterov

    def _create_slots(self, var_list):
        for v in var_list:
            self._zeros_slot(v, "momentum", self._name)

    def _prepare(self):
        learning_rate = self._call_if_callable(self._learning_rate)
        self._learning_rate_tensor = ops.convert_to_tensor(learning_rate, name="learning_rate")
        momentum = self._call_if_callable(self._momentum)
        self._momentum_tensor = ops.convert_to_tensor(momentum, name="momentum")

    def _args(self, dtype):
        return (math_ops.cast(self._learning_rate_tensor, dtype),
                math_ops.cast(self._momentum_tensor, dtype))

    def _apply_dense(self, grad, var):
        lr, mom = self._args(var.dtype.base_dtype)
        return apply_op("ApplyMomentum", var=var, accum=self.get_slot(var, "momentum"), lr=lr,
                        grad=grad, momentum=mom, use_locking=self._use_locking,
                        use_nesterov=self._use_nesterov)

    def _resource_apply_dense(self, grad, var):
        lr, mom = self._args(grad.dtype.base_dtype)
        return apply_op("ResourceApplyMomentum", var=var.handle,
                        accum=self.get_slot(var, "momentum").handle, lr=lr, grad=grad,
                        momentum=mom, use_locking=self._use_locking,
                        use_nesterov=self._use_nesterov)

    def _apply_sparse(self, grad, var):
        lr, mom = self._args(var.dtype.base_dtype)
        return apply_op("SparseApplyMomentum", var=var, accum=self.get_slot(var, "momentum"),
                        lr=lr, grad=grad.values, indices=grad.indices, momentum=mom,
                        use_locking=self._use_locking, use_nesterov=self._use_nesterov)

    def _resource_apply_sparse(self, grad, var, indices):
        lr, mom = self._args(grad.dtype)
        return apply_op("ResourceSparseApplyMomentum", var=var.handle,
                        accum=self.get_slot(var, "momentum").handle, lr=lr, grad=grad,
                        indices=indices, momentum=mom, use_locking=self._use_locking,
                        use_nesterov=self._use_nesterov)
