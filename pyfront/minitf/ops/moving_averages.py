"""tf.compat.v1.train.ExponentialMovingAverage (TensorFlow 2.21's moving_averages.py) over ref
and resource variables, with TensorFlow's names: shadow variables `<var>/ExponentialMovingAverage`
(same kind as the variable, not trainable, colocated with it), and the update ops
`ExponentialMovingAverage/decay`, `ExponentialMovingAverage/AssignMovingAvg[_N]/...` grouped in
the NoOp `ExponentialMovingAverage`.

One difference: TensorFlow initializes a variable's shadow with a `cond` (the variable's value
when it is initialized, else its initial value); minitf has no cond, so the shadow starts at the
variable's initial value (the same value when global_variables_initializer runs them together).
"""
from minitf.framework import dtypes, ops
from minitf.ops import math_ops, state_ops, variables


def assign_moving_average(variable, value, decay, zero_debias=True, name=None):
    """variable -= (variable - value) * (1 - decay) (op AssignSub / AssignSubVariableOp in
    name scope `name` or "AssignMovingAvg"); returns the updated variable (ref) or its new
    value (resource). zero_debias is not supported (NotImplementedError)."""
    if zero_debias:
        raise NotImplementedError("minitf: assign_moving_average(zero_debias=True)")
    with ops.name_scope(name, "AssignMovingAvg", [variable, value, decay]) as scope:
        decay = ops.convert_to_tensor(1.0 - decay, name="decay")
        if decay.dtype != variable.dtype.base_dtype:
            decay = math_ops.cast(decay, variable.dtype.base_dtype)
        delta = (variable - value) * decay
        if variable.dtype._is_ref_dtype:
            return state_ops.assign_sub(variable, delta, name=scope)
        return state_ops.assign_sub(variable, delta)


def _assign_of(update):
    """The AssignSubVariableOp behind a resource update's read, else the update itself."""
    if update.op.type != "ReadVariableOp":
        return update
    assigns = [c for c in update.op.control_inputs if c.type.startswith("Assign")]
    return assigns[0] if assigns else update


class ExponentialMovingAverage:
    """Moving averages of variables (and tensors) by exponential decay:

        shadow = decay * shadow + (1 - decay) * value

    Args:
      decay: float, typically close to 1 (0.999).
      num_updates: optional count (int tensor/variable); the decay used is then
        min(decay, (1 + num_updates) / (10 + num_updates)).
      zero_debias: debiasing of tensor averages (not supported: NotImplementedError in apply
        when a Tensor is averaged with zero_debias=True).
      name: the name scope of the update ops and the suffix of the shadow variables.
    """

    def __init__(self, decay, num_updates=None, zero_debias=False,
                 name="ExponentialMovingAverage"):
        self._decay = decay
        self._num_updates = num_updates
        self._zero_debias = zero_debias
        self._name = name
        self._averages = {}

    @property
    def name(self):
        return self._name

    def apply(self, var_list=None):
        """Creates the shadow variables (first time per variable) and returns one op
        (a NoOp named after the EMA) updating all of them.

        var_list: Variables (float16, bfloat16, float32, float64; default
        trainable_variables()) or Tensors (their shadow starts at zero). Variables are added to
        GraphKeys.MOVING_AVERAGE_VARIABLES. TypeError for other dtypes (TensorFlow's words).
        """
        if var_list is None:
            var_list = variables.trainable_variables()
        for var in var_list:
            if var.dtype.base_dtype not in (dtypes.bfloat16, dtypes.float16, dtypes.float32,
                                            dtypes.float64):
                raise TypeError("The variables must be half, float, or double: %s" % var.name)
            if id(var) in self._averages:
                continue
            with ops.control_dependencies(None):
                if isinstance(var, variables.Variable):
                    avg = self._slot(var, var.initial_value)
                    ops.add_to_collection(ops.GraphKeys.MOVING_AVERAGE_VARIABLES, var)
                else:
                    if self._zero_debias:
                        raise NotImplementedError("minitf: zero_debias moving averages of "
                                                  "tensors")
                    from minitf.ops import array_ops
                    avg = self._slot(var, array_ops.zeros(var.shape, var.dtype.base_dtype,
                                                          name="zeros"), zeros=True)
            self._averages[id(var)] = (var, avg)
        with ops.name_scope(self._name) as scope:
            decay = ops.convert_to_tensor(self._decay, dtype=dtypes.float32, name="decay")
            if self._num_updates is not None:
                num_updates = math_ops.cast(self._num_updates, dtypes.float32,
                                            name="num_updates")
                decay = math_ops.minimum(decay, (1.0 + num_updates) / (10.0 + num_updates))
            updates = [assign_moving_average(self._averages[id(var)][1], var, decay,
                                             zero_debias=False) for var in var_list]
            # a resource update returns a read after the AssignSubVariableOp: group that op
            # (the read's other control inputs are the caller's control_dependencies)
            updates = [_assign_of(u) for u in updates]
            from minitf.ops import control_flow_ops
            return control_flow_ops.group(*updates, name=scope)

    def _slot(self, primary, value, zeros=False):
        prefix = primary.op.name
        kind = variables.RefVariable if getattr(primary.dtype, "_is_ref_dtype", False) \
            else variables.ResourceVariable
        if zeros and primary.op.type not in ("Variable", "VariableV2", "VarHandleOp"):
            return kind(initial_value=value, trainable=False,
                        name="%s/%s" % (prefix, self._name), validate_shape=True)
        with ops.colocate_with(primary.op):
            return kind(initial_value=value, trainable=False,
                        name="%s/%s" % (prefix, self._name), validate_shape=True)

    def average(self, var):
        """The shadow variable of `var`, or None when apply() has not seen it."""
        entry = self._averages.get(id(var))
        return entry[1] if entry else None

    def average_name(self, var):
        """The shadow variable's op name ("v/ExponentialMovingAverage"), also before apply()."""
        avg = self.average(var)
        if avg is not None:
            return avg.op.name
        return ops.get_default_graph().unique_name(var.name[:-2] + "/" + self._name,
                                                   mark_as_used=False)

    def variables_to_restore(self, moving_avg_variables=None):
        """{name in a checkpoint: variable}: the averaged variables under their shadow's
        name, every other global variable under its own op name (TensorFlow's map for
        restoring the averages into the model's variables)."""
        if moving_avg_variables is None:
            moving_avg_variables = (variables.trainable_variables() +
                                    variables.moving_average_variables())
        seen, unique = set(), []
        for v in moving_avg_variables:
            if id(v) not in seen:
                seen.add(id(v))
                unique.append(v)
        name_map = {self.average_name(v): v for v in unique}
        names = {v.name for v in unique}
        for v in variables.global_variables():
            if v.name not in names and v.op.name not in name_map:
                name_map[v.op.name] = v
        return name_map
