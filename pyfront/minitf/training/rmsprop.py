"""tf.compat.v1.train.RMSPropOptimizer (TensorFlow's training/rmsprop.py)."""
from minitf.framework import ops
from minitf.framework.op_def_library import apply_op
from minitf.ops import array_ops, init_ops, math_ops
from minitf.training import optimizer


class RMSPropOptimizer(optimizer.Optimizer):
    """RMSProp: ms = decay ms + (1 - decay) g^2; mom = momentum mom + lr g / sqrt(ms + eps);
    var -= mom (centered: the denominator is sqrt(ms - mg^2 + eps), mg the mean gradient).
    Slots "rms" (<var>/RMSProp, ones), then "mg" when centered, then "momentum" (zeros),
    numbered in that order (<var>/RMSProp_1, <var>/RMSProp_2).

    Args: learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking, centered,
    name. Kernels: (Resource)(Sparse)Apply(Centered)RMSProp."""

    def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10,
                 use_locking=False, centered=False, name="RMSProp"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._decay = decay
        self._momentum = momentum
        self._epsilon = epsilon
        self._centered = centered

    def _create_slots(self, var_list):
        for v in var_list:
            if v.get_shape().is_fully_defined():
                init_rms = init_ops.ones_initializer(dtype=v.dtype.base_dtype)
            else:
                init_rms = array_ops.ones_like(v)
            self._get_or_make_slot_with_initializer(v, init_rms, v.get_shape(),
                                                    v.dtype.base_dtype, "rms", self._name)
            if self._centered:
                self._zeros_slot(v, "mg", self._name)
            self._zeros_slot(v, "momentum", self._name)

    def _prepare(self):
        c = self._call_if_callable
        self._learning_rate_tensor = ops.convert_to_tensor(c(self._learning_rate),
                                                           name="learning_rate")
        self._decay_tensor = ops.convert_to_tensor(c(self._decay), name="decay")
        self._momentum_tensor = ops.convert_to_tensor(c(self._momentum), name="momentum")
        self._epsilon_tensor = ops.convert_to_tensor(c(self._epsilon), name="epsilon")

    def _scalars(self, dtype):
        return dict(lr=math_ops.cast(self._learning_rate_tensor, dtype),
                    rho=math_ops.cast(self._decay_tensor, dtype),
                    momentum=math_ops.cast(self._momentum_tensor, dtype),
                    epsilon=math_ops.cast(self._epsilon_tensor, dtype))

    def _update(self, prefix, var, grad, dtype, unwrap, **extra):
        slots = dict(ms=unwrap(self.get_slot(var, "rms")),
                     mom=unwrap(self.get_slot(var, "momentum")))
        if self._centered:
            slots["mg"] = unwrap(self.get_slot(var, "mg"))
            op_type = prefix + "CenteredRMSProp"
        else:
            op_type = prefix + "RMSProp"
        return apply_op(op_type, var=unwrap(var), grad=grad, use_locking=self._use_locking,
                        **slots, **self._scalars(dtype), **extra)

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
