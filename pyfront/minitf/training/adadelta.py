"""tf.compat.v1.train.AdadeltaOptimizer (TensorFlow's training/adadelta.py)."""
from minitf.framework import ops
from minitf.framework.op_def_library import apply_op
from minitf.ops import math_ops
from minitf.training import optimizer


class AdadeltaOptimizer(optimizer.Optimizer):
    """Adadelta (Zeiler): slots "accum" (<var>/Adadelta) and "accum_update" (<var>/Adadelta_1),
    zeros.

    Args: learning_rate=0.001, rho=0.95, epsilon=1e-8 (floats, Tensors or callables),
    use_locking, name. Kernels: (Resource)(Sparse)ApplyAdadelta."""

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-8, use_locking=False,
                 name="Adadelta"):
        super().__init__(use_locking, name)
        self._lr = learning_rate
        self._rho = rho
        self._epsilon = epsilon
        self._lr_t = self._rho_t = self._epsilon_t = None

    def _create_slots(self, var_list):
        for v in var_list:
            self._zeros_slot(v, "accum", self._name)
            self._zeros_slot(v, "accum_update", self._name)

    def _prepare(self):
        c = self._call_if_callable
        self._lr_t = ops.convert_to_tensor(c(self._lr), name="lr")
        self._rho_t = ops.convert_to_tensor(c(self._rho), name="rho")
        self._epsilon_t = ops.convert_to_tensor(c(self._epsilon), name="epsilon")

    def _scalars(self, dtype):
        return dict(lr=math_ops.cast(self._lr_t, dtype), rho=math_ops.cast(self._rho_t, dtype),
                    epsilon=math_ops.cast(self._epsilon_t, dtype))

    def _apply_dense(self, grad, var):
        return apply_op("ApplyAdadelta", var=var, accum=self.get_slot(var, "accum"),
                        accum_update=self.get_slot(var, "accum_update"), grad=grad,
                        use_locking=self._use_locking, **self._scalars(var.dtype.base_dtype))

    def _resource_apply_dense(self, grad, var):
        return apply_op("ResourceApplyAdadelta", var=var.handle,
                        accum=self.get_slot(var, "accum").handle,
                        accum_update=self.get_slot(var, "accum_update").handle, grad=grad,
                        use_locking=self._use_locking, **self._scalars(grad.dtype.base_dtype))

    def _apply_sparse(self, grad, var):
        return apply_op("SparseApplyAdadelta", var=var, accum=self.get_slot(var, "accum"),
                        accum_update=self.get_slot(var, "accum_update"), grad=grad.values,
                        indices=grad.indices, use_locking=self._use_locking,
                        **self._scalars(var.dtype.base_dtype))

    def _resource_apply_sparse(self, grad, var, indices):
        return apply_op("ResourceSparseApplyAdadelta", var=var.handle,
                        accum=self.get_slot(var, "accum").handle,
                        accum_update=self.get_slot(var, "accum_update").handle, grad=grad,
                        indices=indices, use_locking=self._use_locking,
                        **self._scalars(grad.dtype))
