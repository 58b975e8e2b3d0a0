"""tf.compat.v1.train.AdagradOptimizer (TensorFlow's training/adagrad.py)."""
from minitf.framework import ops
from minitf.framework.op_def_library import apply_op
from minitf.ops import array_ops, init_ops, math_ops
from minitf.training import optimizer


class AdagradOptimizer(optimizer.Optimizer):
    """accum += grad^2; var -= lr * grad / sqrt(accum). Slot "accumulator" (<var>/Adagrad)
    starting at initial_accumulator_value.

    Args: learning_rate, initial_accumulator_value=0.1 (must be > 0: ValueError otherwise),
    use_locking, name. Kernels: (Resource)(Sparse)ApplyAdagrad."""

    def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking=False,
                 name="Adagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError("initial_accumulator_value must be positive: %s" %
                             initial_accumulator_value)
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_accumulator_value = initial_accumulator_value
        self._learning_rate_tensor = None

    def _create_slots(self, var_list):
        for v in var_list:
            dtype = v.dtype.base_dtype
            if v.get_shape().is_fully_defined():
                init = init_ops.constant_initializer(self._initial_accumulator_value,
                                                     dtype=dtype)
            else:
                init = self._init_constant_op(v, dtype)
            self._get_or_make_slot_with_initializer(v, init, v.get_shape(), dtype,
                                                    "accumulator", self._name)

    def _init_constant_op(self, v, dtype):
        def init():
            init_constant = array_ops.fill(array_ops.shape(v), self._initial_accumulator_value)
            return math_ops.cast(init_constant, dtype)
        return init

    def _prepare(self):
        learning_rate = self._call_if_callable(self._learning_rate)
        self._learning_rate_tensor = ops.convert_to_tensor(learning_rate, name="learning_rate")

    def _apply_dense(self, grad, var):
        return apply_op("ApplyAdagrad", var=var, accum=self.get_slot(var, "accumulator"),
                        lr=math_ops.cast(self._learning_rate_tensor, var.dtype.base_dtype),
                        grad=grad, use_locking=self._use_locking)

    def _resource_apply_dense(self, grad, var):
        return apply_op("ResourceApplyAdagrad", var=var.handle,
                        accum=self.get_slot(var, "accumulator").handle,
                        lr=math_ops.cast(self._learning_rate_tensor, grad.dtype.base_dtype),
                        grad=grad, use_locking=self._use_locking)

    def _apply_sparse(self, grad, var):
        return apply_op("SparseApplyAdagrad", var=var, accum=self.get_slot(var, "accumulator"),
                        lr=math_ops.cast(self._learning_rate_tensor, var.dtype.base_dtype),
                        grad=grad.values, indices=grad.indices, use_locking=self._use_locking)

    def _resource_apply_sparse(self, grad, var, indices):
        return apply_op("ResourceSparseApplyAdagrad", var=var.handle,
                        accum=self.get_slot(var, "accumulator").handle,
                        lr=math_ops.cast(self._learning_rate_tensor, grad.dtype), grad=grad,
                        indices=indices, use_locking=self._use_locking)
