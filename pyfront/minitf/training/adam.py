"""tf.compat.v1.train.AdamOptimizer (TensorFlow's training/adam.py)."""
from minitf.framework import ops
from minitf.framework.op_def_library import apply_op
from minitf.ops import control_flow_ops, math_ops, state_ops
from minitf.training import optimizer


class AdamOptimizer(optimizer.Optimizer):
    """Adam (Kingma & Ba): slots "m" and "v" (<var>/Adam, <var>/Adam_1), non-slot variables
    beta1_power and beta2_power (colocated with the first variable by name) multiplied by
    beta1 / beta2 after each step. Dense updates run (Resource)ApplyAdam; IndexedSlices run
    TensorFlow's composite update (m = beta1 m, scatter-add of (1 - beta1) g, ..., var -=
    lr_t m / (sqrt(v) + epsilon)).

    Args: learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8 (floats, Tensors or
    callables), use_locking, name, use_own_namescope_for_non_slot_vars (True puts
    beta1_power / beta2_power under the root variable scope `<name>/`, as TF)."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 use_locking=False, name="Adam", use_own_namescope_for_non_slot_vars=False):
        super().__init__(use_locking, name, use_own_namescope_for_non_slot_vars)
        self._lr = learning_rate
        self._beta1 = beta1
        self._beta2 = beta2
        self._epsilon = epsilon
        self._lr_t = self._beta1_t = self._beta2_t = self._epsilon_t = None

    def _get_beta_accumulators(self):
        graph = ops.get_default_graph()
        return (self._get_non_slot_variable("beta1_power", graph=graph),
                self._get_non_slot_variable("beta2_power", graph=graph))

    def _create_slots(self, var_list):
        first_var = min(var_list, key=lambda x: x.name)
        self._create_non_slot_variable(initial_value=self._beta1, name="beta1_power",
                                       colocate_with=first_var)
        self._create_non_slot_variable(initial_value=self._beta2, name="beta2_power",
                                       colocate_with=first_var)
        for v in var_list:
            self._zeros_slot(v, "m", self._name)
            self._zeros_slot(v, "v", self._name)

    def _prepare(self):
        c = self._call_if_callable
        self._lr_t = ops.convert_to_tensor(c(self._lr), name="learning_rate")
        self._beta1_t = ops.convert_to_tensor(c(self._beta1), name="beta1")
        self._beta2_t = ops.convert_to_tensor(c(self._beta2), name="beta2")
        self._epsilon_t = ops.convert_to_tensor(c(self._epsilon), name="epsilon")

    def _scalars(self, dtype):
        beta1_power, beta2_power = self._get_beta_accumulators()
        return dict(beta1_power=math_ops.cast(beta1_power, dtype),
                    beta2_power=math_ops.cast(beta2_power, dtype),
                    lr=math_ops.cast(self._lr_t, dtype), beta1=math_ops.cast(self._beta1_t, dtype),
                    beta2=math_ops.cast(self._beta2_t, dtype),
                    epsilon=math_ops.cast(self._epsilon_t, dtype))

    def _apply_dense(self, grad, var):
        return apply_op("ApplyAdam", var=var, m=self.get_slot(var, "m"),
                        v=self.get_slot(var, "v"), grad=grad, use_locking=self._use_locking,
                        **self._scalars(var.dtype.base_dtype))

    def _resource_apply_dense(self, grad, var):
        return apply_op("ResourceApplyAdam", var=var.handle, m=self.get_slot(var, "m").handle,
                        v=self.get_slot(var, "v").handle, grad=grad,
                        use_locking=self._use_locking, **self._scalars(grad.dtype.base_dtype))

    def _apply_sparse_shared(self, grad, var, indices, scatter_add):
        dtype = var.dtype.base_dtype
        beta1_power, beta2_power = self._get_beta_accumulators()
        beta1_power = math_ops.cast(beta1_power, dtype)
        beta2_power = math_ops.cast(beta2_power, dtype)
        lr_t = math_ops.cast(self._lr_t, dtype)
        beta1_t = math_ops.cast(self._beta1_t, dtype)
        beta2_t = math_ops.cast(self._beta2_t, dtype)
        epsilon_t = math_ops.cast(self._epsilon_t, dtype)
        lr = (lr_t * math_ops.sqrt(1 - beta2_power) / (1 - beta1_power))
        m = self.get_slot(var, "m")
        m_scaled_g_values = grad * (1 - beta1_t)
        m_t = _assign(m, m * beta1_t, self._use_locking)
        with ops.control_dependencies([m_t]):
            m_t = scatter_add(m, indices, m_scaled_g_values)
        v = self.get_slot(var, "v")
        v_scaled_g_values = (grad * grad) * (1 - beta2_t)
        v_t = _assign(v, v * beta2_t, self._use_locking)
        with ops.control_dependencies([v_t]):
            v_t = scatter_add(v, indices, v_scaled_g_values)
        v_sqrt = math_ops.sqrt(v_t)
        var_update = state_ops.assign_sub(var, lr * m_t / (v_sqrt + epsilon_t),
                                          use_locking=self._use_locking)
        return control_flow_ops.group(*[var_update, m_t, v_t])

    def _apply_sparse(self, grad, var):
        return self._apply_sparse_shared(
            grad.values, var, grad.indices,
            lambda x, i, v: state_ops.scatter_add(x, i, v, use_locking=self._use_locking))

    def _resource_scatter_add(self, x, i, v):
        with ops.control_dependencies([apply_op("ResourceScatterAdd", resource=x.handle,
                                                indices=i, updates=v)]):
            return x.value()

    def _resource_apply_sparse(self, grad, var, indices):
        return self._apply_sparse_shared(grad, var, indices, self._resource_scatter_add)

    def _finish(self, update_ops, name_scope):
        with ops.control_dependencies(update_ops):
            beta1_power, beta2_power = self._get_beta_accumulators()
            with ops.colocate_with(beta1_power):
                update_beta1 = _assign(beta1_power, beta1_power * self._beta1_t,
                                       self._use_locking)
                update_beta2 = _assign(beta2_power, beta2_power * self._beta2_t,
                                       self._use_locking)
        return control_flow_ops.group(*update_ops + [update_beta1, update_beta2],
                                      name=name_scope)


def _assign(var, value, use_locking):
    """state_ops.assign(var, value) as TensorFlow uses it here: a resource variable's assign is
    not read back (TensorFlow returns an unread variable, and only its assign op is used)."""
    if optimizer._is_resource(var):
        return var.assign(value, use_locking=use_locking, read_value=False)
    return var.assign(value, use_locking=use_locking)
