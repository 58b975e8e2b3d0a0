"""tf.compat.v1.train.Optimizer and the optimizers over the C update kernels
(runtime/kernels/training_ops.c): GradientDescent, Momentum, Adam, Adagrad, RMSProp.

As TensorFlow 1: `minimize` = `compute_gradients` (tf.gradients of the loss with respect to the
trainable variables) + `apply_gradients` (one ResourceApply<Optimizer> per variable under
"<name>/update_<var>", grouped into the returned op). Slot variables are named
"<var>/<optimizer name>" ("w/Adam", "w/Adam_1"), non-slot ones ("beta1_power") sit at the top
of the graph, colocated with the first variable by name, so checkpoints line up with
TensorFlow's.
"""
import contextlib

from minitf.framework import dtypes, ops
from minitf.framework.indexed_slices import IndexedSlices, convert_to_tensor_or_indexed_slices
from minitf.framework.op_def_library import apply_op
from minitf.ops import array_ops, control_flow_ops, gradients_impl, math_ops, variables

_FLOATS = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)


@contextlib.contextmanager
def _init_scope(graph):
    """TensorFlow's ops.init_scope in graph mode: no control dependencies, top name scope."""
    with graph.as_default(), ops.control_dependencies(None), graph.name_scope(None):
        yield


def _var_key(var):
    return id(var)


def _is_resource(var):
    return isinstance(var, variables.ResourceVariable)


class Optimizer:
    """Base class of the TF1 optimizers (tf.compat.v1.train.Optimizer).

    Subclasses implement _create_slots, _prepare, _resource_apply_dense (and optionally
    _resource_apply_sparse_duplicate_indices / _finish). Raises ValueError for an empty
    name, as TensorFlow.
    """
    GATE_NONE = 0
    GATE_OP = 1
    GATE_GRAPH = 2

    def __init__(self, use_locking, name):
        if not name:
            raise ValueError("Must specify the optimizer name")
        self._use_locking = use_locking
        self._name = name
        self._slots = {}
        self._non_slot_dict = {}

    def get_name(self):
        return self._name

    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=GATE_OP,
                 aggregation_method=None, colocate_gradients_with_ops=False, name=None,
                 grad_loss=None):
        """compute_gradients + apply_gradients: the op that runs one training step.

        Raises ValueError("No gradients provided for any variable, ...") when no variable
        gets a gradient, ValueError("No variables to optimize.") when there are none."""
        grads_and_vars = self.compute_gradients(
            loss, var_list=var_list, gate_gradients=gate_gradients,
            aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops, grad_loss=grad_loss)
        vars_with_grad = [v for g, v in grads_and_vars if g is not None]
        if not vars_with_grad:
            raise ValueError(
                "No gradients provided for any variable, check your graph for ops that do not "
                "support gradients, between variables %s and loss %s." %
                ([str(v) for _, v in grads_and_vars], loss))
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def compute_gradients(self, loss, var_list=None, gate_gradients=GATE_OP,
                          aggregation_method=None, colocate_gradients_with_ops=False,
                          grad_loss=None):
        """[(gradient or None, variable)] for the trainable variables (or var_list).

        Raises ValueError for a bad gate_gradients, a non-float loss or variable, or no
        variables; the gradients are tf.gradients' (Tensor, IndexedSlices or None)."""
        if callable(loss):
            raise RuntimeError("`loss` passed to Optimizer.compute_gradients should be a "
                               "function when eager execution is enabled.")
        if gate_gradients not in (Optimizer.GATE_NONE, Optimizer.GATE_OP, Optimizer.GATE_GRAPH):
            raise ValueError("gate_gradients must be one of: Optimizer.GATE_NONE, "
                             "Optimizer.GATE_OP, Optimizer.GATE_GRAPH.  Not %s" % gate_gradients)
        self._assert_valid_dtypes([loss])
        if grad_loss is not None:
            self._assert_valid_dtypes([grad_loss])
        if var_list is None:
            var_list = variables.trainable_variables() + ops.get_collection(
                ops.GraphKeys.TRAINABLE_RESOURCE_VARIABLES)
        else:
            var_list = list(var_list.values()) if isinstance(var_list, dict) else list(var_list)
        if not var_list:
            raise ValueError("No variables to optimize.")
        grads = gradients_impl.gradients(
            loss, var_list, grad_ys=grad_loss, gate_gradients=(gate_gradients ==
                                                               Optimizer.GATE_OP),
            aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops)
        if gate_gradients == Optimizer.GATE_GRAPH:
            grads = control_flow_ops.tuple_(grads)
        grads_and_vars = list(zip(grads, var_list))
        self._assert_valid_dtypes([v for g, v in grads_and_vars if g is not None])
        return grads_and_vars

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """The op applying each (gradient, variable) pair; with global_step, it also adds 1
        to it after the updates. Raises ValueError("No variables provided.") for an empty
        list, ValueError("No gradients provided for any variable: ...") when all are None,
        TypeError for a gradient that is not a Tensor or IndexedSlices."""
        grads_and_vars = tuple(grads_and_vars)
        if not grads_and_vars:
            raise ValueError("No variables provided.")
        converted = []
        for g, v in grads_and_vars:
            if g is not None:
                try:
                    g = convert_to_tensor_or_indexed_slices(g)
                except (TypeError, ValueError):
                    raise TypeError("Gradient must be convertible to a Tensor or IndexedSlices, "
                                    "or None: %s" % g)
            if not _is_resource(v):
                raise TypeError("minitf's optimizers update resource variables (the default "
                                "tf.Variable); %s is a ref variable (use_resource=False)" % v)
            converted.append((g, v))
        var_list = [v for g, v in converted if g is not None]
        if not var_list:
            raise ValueError("No gradients provided for any variable: %s." %
                             ([str(v) for _, v in converted],))
        graph = var_list[0].graph
        with _init_scope(graph):
            self._create_slots(var_list)
        update_ops = []
        with ops.name_scope(name, self._name) as name:
            self._prepare()
            for grad, var in converted:
                if grad is None:
                    continue
                with ops.name_scope("update_" + var.op.name), ops.device(var.device):
                    if isinstance(grad, IndexedSlices):
                        update_ops.append(self._resource_apply_sparse_duplicate_indices(
                            grad.values, var, grad.indices))
                    else:
                        update_ops.append(self._resource_apply_dense(grad, var))
            if global_step is None:
                apply_updates = self._finish(update_ops, name)
            else:
                with ops.control_dependencies([self._finish(update_ops, "update")]):
                    with ops.colocate_with(global_step):
                        apply_updates = apply_op(
                            "AssignAddVariableOp", resource=global_step.handle,
                            value=ops.convert_to_tensor(1, dtype=global_step.dtype), name=name)
        train_op = ops.get_collection_ref(ops.GraphKeys.TRAIN_OP)
        if apply_updates not in train_op:
            train_op.append(apply_updates)
        return apply_updates

    def get_slot(self, var, name):
        """The slot variable `name` of var (e.g. "m" for Adam), or None."""
        return self._slots.get(name, {}).get(_var_key(var))

    def get_slot_names(self):
        """Sorted names of the slots this optimizer creates."""
        return sorted(self._slots)

    def variables(self):
        """Every variable the optimizer created (slots and non-slot ones), sorted by name."""
        out = list(self._non_slot_dict.values())
        for slots in self._slots.values():
            out.extend(slots.values())
        return sorted(out, key=lambda v: v.name)

    # -- for subclasses ------------------------------------------------------

    def _create_slots(self, var_list):
        pass

    def _prepare(self):
        pass

    def _finish(self, update_ops, name_scope):
        return control_flow_ops.group(*update_ops, name=name_scope)

    def _resource_apply_dense(self, grad, var):
        raise NotImplementedError()

    def _resource_apply_sparse_duplicate_indices(self, grad, var, indices):
        raise NotImplementedError(
            "%s does not apply IndexedSlices gradients yet (%s)" % (type(self).__name__, var))

    def _call_if_callable(self, param):
        return param() if callable(param) else param

    def _assert_valid_dtypes(self, tensors):
        valid = self._valid_dtypes()
        for t in tensors:
            dtype = t.dtype.base_dtype
            if dtype not in valid:
                raise ValueError("Invalid type %r for %s, expected: %s." %
                                 (dtype, t.name, [v for v in valid]))

    def _valid_dtypes(self):
        return set(_FLOATS)

    def _zeros_slot(self, var, slot_name, op_name):
        slots = self._slots.setdefault(slot_name, {})
        if _var_key(var) not in slots:
            with ops.colocate_with(var):
                value = array_ops.zeros(var.shape.as_list(), dtype=var.dtype.base_dtype)
                slots[_var_key(var)] = variables.ResourceVariable(
                    initial_value=value, trainable=False, name="%s/%s" % (var.op.name, op_name))
        return slots[_var_key(var)]

    def _slot_with_value(self, var, slot_name, op_name, value):
        slots = self._slots.setdefault(slot_name, {})
        if _var_key(var) not in slots:
            with ops.colocate_with(var):
                slots[_var_key(var)] = variables.ResourceVariable(
                    initial_value=value, trainable=False, name="%s/%s" % (var.op.name, op_name))
        return slots[_var_key(var)]

    def _create_non_slot_variable(self, initial_value, name, colocate_with):
        key = (name, colocate_with.graph)
        v = self._non_slot_dict.get(key)
        if v is None:
            with ops.colocate_with(colocate_with):
                v = variables.ResourceVariable(initial_value=initial_value, name=name,
                                               trainable=False)
            self._non_slot_dict[key] = v
        return v

    def _get_non_slot_variable(self, name, graph):
        return self._non_slot_dict.get((name, graph))


def _cast(x, dtype):
    return math_ops.cast(x, dtype)


class GradientDescentOptimizer(Optimizer):
    """var -= learning_rate * gradient (tf.compat.v1.train.GradientDescentOptimizer;
    ResourceApplyGradientDescent, or ResourceScatterAdd of -lr * values for IndexedSlices)."""

    def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._learning_rate_tensor = None

    def _prepare(self):
        lr = self._call_if_callable(self._learning_rate)
        self._learning_rate_tensor = ops.convert_to_tensor(lr, name="learning_rate")

    def _resource_apply_dense(self, grad, var):
        return apply_op("ResourceApplyGradientDescent", var=var.handle,
                        alpha=_cast(self._learning_rate_tensor, grad.dtype.base_dtype),
                        delta=grad, use_locking=self._use_locking)

    def _resource_apply_sparse_duplicate_indices(self, grad, var, indices):
        lr = _cast(self._learning_rate_tensor, grad.dtype.base_dtype)
        return apply_op("ResourceScatterAdd", resource=var.handle, indices=indices,
                        updates=-grad * lr)


class MomentumOptimizer(Optimizer):
    """accum = momentum * accum + grad; var -= lr * accum (Nesterov optional)
    (tf.compat.v1.train.MomentumOptimizer; slot "momentum" named <var>/Momentum)."""

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
        self._learning_rate_tensor = ops.convert_to_tensor(
            self._call_if_callable(self._learning_rate), name="learning_rate")
        self._momentum_tensor = ops.convert_to_tensor(self._call_if_callable(self._momentum),
                                                      name="momentum")

    def _resource_apply_dense(self, grad, var):
        dt = grad.dtype.base_dtype
        return apply_op("ResourceApplyMomentum", var=var.handle,
                        accum=self.get_slot(var, "momentum").handle,
                        lr=_cast(self._learning_rate_tensor, dt), grad=grad,
                        momentum=_cast(self._momentum_tensor, dt),
                        use_locking=self._use_locking, use_nesterov=self._use_nesterov)


class AdamOptimizer(Optimizer):
    """Adam (tf.compat.v1.train.AdamOptimizer): slots "m" and "v" (<var>/Adam, <var>/Adam_1),
    non-slot beta1_power / beta2_power updated after every step."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 use_locking=False, name="Adam"):
        super().__init__(use_locking, name)
        self._lr, self._beta1, self._beta2, self._epsilon = learning_rate, beta1, beta2, epsilon

    def _get_beta_accumulators(self, graph=None):
        graph = graph or ops.get_default_graph()
        return (self._get_non_slot_variable("beta1_power", graph),
                self._get_non_slot_variable("beta2_power", graph))

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

    def _resource_apply_dense(self, grad, var):
        dt = grad.dtype.base_dtype
        beta1_power, beta2_power = self._get_beta_accumulators(var.graph)
        return apply_op("ResourceApplyAdam", var=var.handle, m=self.get_slot(var, "m").handle,
                        v=self.get_slot(var, "v").handle,
                        beta1_power=_cast(beta1_power.value(), dt),
                        beta2_power=_cast(beta2_power.value(), dt),
                        lr=_cast(self._lr_t, dt), beta1=_cast(self._beta1_t, dt),
                        beta2=_cast(self._beta2_t, dt), epsilon=_cast(self._epsilon_t, dt),
                        grad=grad, use_locking=self._use_locking)

    def _finish(self, update_ops, name_scope):
        with ops.control_dependencies(update_ops):
            beta1_power, beta2_power = self._get_beta_accumulators()
            with ops.colocate_with(beta1_power):
                update_beta1 = beta1_power.assign(beta1_power.value() * self._beta1_t,
                                                  use_locking=self._use_locking)
                update_beta2 = beta2_power.assign(beta2_power.value() * self._beta2_t,
                                                  use_locking=self._use_locking)
        return control_flow_ops.group(*update_ops + [update_beta1, update_beta2],
                                      name=name_scope)


class AdagradOptimizer(Optimizer):
    """Adagrad (tf.compat.v1.train.AdagradOptimizer): slot "accumulator" (<var>/Adagrad)
    starting at initial_accumulator_value."""

    def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking=False,
                 name="Adagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError("initial_accumulator_value must be positive: %s" %
                             initial_accumulator_value)
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_accumulator_value = initial_accumulator_value

    def _create_slots(self, var_list):
        for v in var_list:
            init = array_ops.fill(v.shape.as_list(), ops.convert_to_tensor(
                self._initial_accumulator_value, dtype=v.dtype.base_dtype))
            self._slot_with_value(v, "accumulator", self._name, init)

    def _prepare(self):
        self._learning_rate_tensor = ops.convert_to_tensor(
            self._call_if_callable(self._learning_rate), name="learning_rate")

    def _resource_apply_dense(self, grad, var):
        return apply_op("ResourceApplyAdagrad", var=var.handle,
                        accum=self.get_slot(var, "accumulator").handle,
                        lr=_cast(self._learning_rate_tensor, grad.dtype.base_dtype), grad=grad,
                        use_locking=self._use_locking)


class RMSPropOptimizer(Optimizer):
    """RMSProp (tf.compat.v1.train.RMSPropOptimizer; centered=False): slots "rms" (<var>/RMSProp,
    starting at ones) and "momentum" (<var>/RMSProp_1)."""

    def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10,
                 use_locking=False, centered=False, name="RMSProp"):
        super().__init__(use_locking, name)
        if centered:
            raise NotImplementedError("centered RMSProp is not implemented yet")
        self._learning_rate, self._decay = learning_rate, decay
        self._momentum, self._epsilon = momentum, epsilon

    def _create_slots(self, var_list):
        for v in var_list:
            ones = array_ops.ones(v.shape.as_list(), dtype=v.dtype.base_dtype)
            self._slot_with_value(v, "rms", self._name, ones)
            self._zeros_slot(v, "momentum", self._name)

    def _prepare(self):
        c = self._call_if_callable
        self._learning_rate_tensor = ops.convert_to_tensor(c(self._learning_rate),
                                                           name="learning_rate")
        self._decay_tensor = ops.convert_to_tensor(c(self._decay), name="decay")
        self._momentum_tensor = ops.convert_to_tensor(c(self._momentum), name="momentum")
        self._epsilon_tensor = ops.convert_to_tensor(c(self._epsilon), name="epsilon")

    def _resource_apply_dense(self, grad, var):
        dt = grad.dtype.base_dtype
        return apply_op("ResourceApplyRMSProp", var=var.handle,
                        ms=self.get_slot(var, "rms").handle,
                        mom=self.get_slot(var, "momentum").handle,
                        lr=_cast(self._learning_rate_tensor, dt),
                        rho=_cast(self._decay_tensor, dt),
                        momentum=_cast(self._momentum_tensor, dt),
                        epsilon=_cast(self._epsilon_tensor, dt), grad=grad,
                        use_locking=self._use_locking)
