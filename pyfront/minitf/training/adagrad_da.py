"""tf.compat.v1.train.AdagradDAOptimizer (TensorFlow's training/adagrad_da.py)."""
from minitf.framework import constant_op, ops
from minitf.framework.op_def_library import apply_op
from minitf.ops import array_ops, math_ops
from minitf.training import optimizer


class AdagradDAOptimizer(optimizer.Optimizer):
    """Adagrad dual averaging: slots "gradient_accumulator" (<var>/AdagradDA, zeros) and
    "gradient_squared_accumulator" (<var>/AdagradDA_1, initial value); the update uses
    global_step + 1 (read once per step on the worker, as TensorFlow).

    Args: learning_rate, global_step (an int64 variable or tensor),
    initial_gradient_squared_accumulator_value=0.1 (> 0, else ValueError),
    l1_regularization_strength=0.0, l2_regularization_strength=0.0, use_locking, name.
    Kernels: (Resource)(Sparse)ApplyAdagradDA."""

    def __init__(self, learning_rate, global_step, initial_gradient_squared_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking=False, name="AdagradDA"):
        if initial_gradient_squared_accumulator_value <= 0.0:
            raise ValueError("initial_gradient_squared_accumulator_value must be positive: %s"
                             % initial_gradient_squared_accumulator_value)
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_gradient_squared_accumulator_value = \
            initial_gradient_squared_accumulator_value
        self._learning_rate_tensor = None
        self._l1_regularization_strength = l1_regularization_strength
        self._l2_regularization_strength = l2_regularization_strength
        self._global_step = global_step
        self._global_step_on_worker = None

    def _create_slots(self, var_list):
        for v in var_list:
            with ops.colocate_with(v):
                dtype = v.dtype.base_dtype
                g_val = constant_op.constant(0.0, shape=v.get_shape(), dtype=dtype)
                gg_val = constant_op.constant(self._initial_gradient_squared_accumulator_value,
                                              shape=v.get_shape(), dtype=dtype)
            self._get_or_make_slot(v, g_val, "gradient_accumulator", self._name)
            self._get_or_make_slot(v, gg_val, "gradient_squared_accumulator", self._name)

    def _prepare(self):
        self._learning_rate_tensor = ops.convert_to_tensor(self._learning_rate,
                                                           name="learning_rate")
        # One read of the global step per step, on the worker (TensorFlow's comment: so the
        # parameter server holding it is not asked once per variable).
        with ops.colocate_with(self._learning_rate_tensor):
            self._global_step_on_worker = array_ops.identity(self._global_step) + 1

    def _scalars(self, dtype):
        return dict(lr=math_ops.cast(self._learning_rate_tensor, dtype),
                    l1=math_ops.cast(self._l1_regularization_strength, dtype),
                    l2=math_ops.cast(self._l2_regularization_strength, dtype))

    def _step(self, var):
        with ops.device(var.device):
            return array_ops.identity(self._global_step_on_worker)

    def _apply_dense(self, grad, var):
        global_step = self._step(var)
        return apply_op("ApplyAdagradDA", var=var,
                        gradient_accumulator=self.get_slot(var, "gradient_accumulator"),
                        gradient_squared_accumulator=self.get_slot(
                            var, "gradient_squared_accumulator"),
                        grad=grad, global_step=global_step, use_locking=self._use_locking,
                        **self._scalars(var.dtype.base_dtype))

    def _resource_apply_dense(self, grad, var):
        global_step = self._step(var)
        return apply_op("ResourceApplyAdagradDA", var=var.handle,
                        gradient_accumulator=self.get_slot(var, "gradient_accumulator").handle,
                        gradient_squared_accumulator=self.get_slot(
                            var, "gradient_squared_accumulator").handle,
                        grad=grad, global_step=global_step, use_locking=self._use_locking,
                        **self._scalars(grad.dtype.base_dtype))

    def _apply_sparse(self, grad, var):
        global_step = self._step(var)
        return apply_op("SparseApplyAdagradDA", var=var,
                        gradient_accumulator=self.get_slot(var, "gradient_accumulator"),
                        gradient_squared_accumulator=self.get_slot(
                            var, "gradient_squared_accumulator"),
                        grad=grad.values, indices=grad.indices, global_step=global_step,
                        use_locking=self._use_locking, **self._scalars(var.dtype.base_dtype))

    def _resource_apply_sparse(self, grad, var, indices):
        global_step = self._step(var)
        return apply_op("ResourceSparseApplyAdagradDA", var=var.handle,
                        gradient_accumulator=self.get_slot(var, "gradient_accumulator").handle,
                        gradient_squared_accumulator=self.get_slot(
                            var, "gradient_squared_accumulator").handle,
                        grad=grad, indices=indices, global_step=global_step,
                        use_locking=self._use_locking, **self._scalars(grad.dtype))

