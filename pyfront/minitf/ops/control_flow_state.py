"""The gradient of v1 while loops (TensorFlow's control_flow_state.py).

tf.gradients through a loop builds a second loop, the gradient loop, that runs
as many iterations as the forward one ran: the forward loop gets an iteration
counter (f_count), the gradient loop counts it down (b_count). A forward value
the gradient needs is pushed on a stack each forward iteration (StackV2 f_acc,
StackPushV2) and popped in the gradient loop (StackPopV2), last first. The
gradient of a loop invariant is summed over the gradient iterations (b_acc).
_ControlFlowState maps each forward WhileContext to its _GradLoopState; the
graph walk in gradients_impl calls it where TensorFlow's gradients_util does.
"""
from minitf.framework import constant_op, dtypes, ops, tensor_util
from minitf.ops import control_flow_util as util


def _cfv1():
    from minitf.ops import control_flow_v1
    return control_flow_v1


def _stack_v2(max_size, elem_type, name):
    from minitf.framework.op_def_library import apply_op
    return apply_op("StackV2", max_size=max_size, elem_type=elem_type, name=name).outputs[0]


def _stack_push_v2(handle, elem, swap_memory):
    from minitf.framework.op_def_library import apply_op
    return apply_op("StackPushV2", handle=handle, elem=elem,
                    swap_memory=swap_memory).outputs[0]


def _stack_pop_v2(handle, elem_type):
    from minitf.framework.op_def_library import apply_op
    return apply_op("StackPopV2", handle=handle, elem_type=elem_type).outputs[0]


class _GradLoopState:
    """The gradient loop of one forward loop: its contexts, counters, the
    forward values saved for it (history_map) and the b_switch Merges of the
    loop's Switches (switch_map)."""

    def __init__(self, forward_ctxt, outer_grad_state):
        cf = _cfv1()
        self._outer_grad_state = outer_grad_state
        self._forward_context = forward_ctxt
        self._forward_sync = None
        self._grad_sync = None
        self._history_map = {}
        self._switch_map = {}
        self._unused_exits = []
        self._deferred_exits = []
        self._forward_loop_exits = list(forward_ctxt.loop_exits)
        self._pending_exits_count = len(forward_ctxt.loop_exits)
        if outer_grad_state:
            outer_forward_ctxt = outer_grad_state.forward_context
        else:
            outer_forward_ctxt = forward_ctxt.outer_context
        with forward_ctxt._graph.as_default():
            if outer_forward_ctxt:
                outer_forward_ctxt.Enter()
            cnt, forward_index = forward_ctxt.AddForwardLoopCounter(outer_grad_state)
            if outer_forward_ctxt:
                outer_forward_ctxt.Exit()
        self._forward_index = forward_index
        if outer_grad_state:
            # the inner loop runs once per outer iteration: its count is saved
            outer_forward_ctxt.AddName(cnt.name)
            history_cnt = outer_grad_state.AddForwardAccumulator(cnt)
            outer_grad_ctxt = outer_grad_state.grad_context
            outer_grad_ctxt.Enter()
            self._grad_context = cf.WhileContext(
                maximum_iterations=forward_ctxt.maximum_iterations,
                parallel_iterations=forward_ctxt.parallel_iterations,
                back_prop=forward_ctxt.back_prop, swap_memory=forward_ctxt.swap_memory,
                name=forward_ctxt.name, grad_state=self)
            real_cnt = outer_grad_state.AddBackpropAccumulatedValue(history_cnt, cnt)
            self._grad_index = self._grad_context.AddBackpropLoopCounter(real_cnt,
                                                                         outer_grad_state)
            outer_grad_ctxt.Exit()
        else:
            if outer_forward_ctxt:
                outer_forward_ctxt.Enter()
            self._grad_context = cf.WhileContext(
                maximum_iterations=forward_ctxt.maximum_iterations,
                parallel_iterations=forward_ctxt.parallel_iterations,
                back_prop=forward_ctxt.back_prop, swap_memory=forward_ctxt.swap_memory,
                name=forward_ctxt.name, grad_state=self)
            self._grad_index = self._grad_context.AddBackpropLoopCounter(cnt, outer_grad_state)
            if outer_forward_ctxt:
                outer_forward_ctxt.Exit()

    outer_grad_state = property(lambda self: self._outer_grad_state)
    forward_context = property(lambda self: self._forward_context)
    forward_index = property(lambda self: self._forward_index)
    grad_context = property(lambda self: self._grad_context)
    grad_index = property(lambda self: self._grad_index)
    history_map = property(lambda self: self._history_map)
    switch_map = property(lambda self: self._switch_map)
    unused_exits = property(lambda self: self._unused_exits)
    deferred_exits = property(lambda self: self._deferred_exits)
    forward_loop_exits = property(lambda self: self._forward_loop_exits)

    @property
    def pending_exits_count(self):
        return self._pending_exits_count

    @pending_exits_count.setter
    def pending_exits_count(self, cnt):
        self._pending_exits_count = cnt

    @property
    def forward_sync(self):
        """A ControlTrigger (f_sync) the forward counter waits for: pushes in
        cond branches of the loop run before the next iteration."""
        if self._forward_sync is None:
            with ops.control_dependencies(None):
                self._forward_sync = _cfv1().control_trigger(name="f_sync")
            self._forward_sync._set_control_flow_context(self._forward_context)
            self._forward_index.op._add_control_input(self._forward_sync)
        return self._forward_sync

    @property
    def grad_sync(self):
        """A ControlTrigger (b_sync) the gradient counter waits for: the pops
        of one gradient iteration run before the next."""
        if self._grad_sync is None:
            with ops.control_dependencies(None):
                self._grad_sync = _cfv1().control_trigger(name="b_sync")
            self._grad_sync._set_control_flow_context(self._grad_context)
            self._grad_index.op._add_control_input(self._grad_sync)
            if self._grad_context.outer_context:
                self._grad_context.outer_context.AddInnerOp(self._grad_sync)
        return self._grad_sync

    def AddForwardAccumulator(self, value, dead_branch=False):  # noqa: N802
        """A stack (f_acc) that the forward loop pushes `value` on each iteration."""
        cf = _cfv1()
        with self._forward_index.graph.as_default():
            curr_ctxt = ops.get_default_graph()._get_control_flow_context()
            with ops.control_dependencies(None):
                if curr_ctxt:
                    curr_ctxt.Enter()
                with ops.colocate_with(value):
                    max_size = constant_op.constant(-1, dtypes.int32)
                    acc = _stack_v2(max_size, value.dtype.base_dtype, "f_acc")
                if curr_ctxt:
                    curr_ctxt.Exit()
                enter_acc = self.forward_context.AddValue(acc)
                swap_enabled = self.forward_context.swap_memory
                value_ctxt = util.GetOutputContext(value.op)
                if value_ctxt == self.forward_context:
                    self.forward_context.Enter()
                    push = _stack_push_v2(enter_acc, value, swap_enabled)
                    self.forward_context.Exit()
                    self.forward_index.op._add_control_input(push.op)
                else:
                    if not isinstance(value_ctxt, cf.CondContext):
                        raise TypeError("value_ctxt is not a CondContext: %s" % value_ctxt)
                    if dead_branch:
                        value_ctxt.outer_context.Enter()
                        push = _stack_push_v2(enter_acc, value, swap_enabled)
                        value_ctxt.outer_context.Exit()
                        push.op._set_control_flow_context(value_ctxt)
                    else:
                        value_ctxt.Enter()
                        push = _stack_push_v2(enter_acc, value, swap_enabled)
                        value_ctxt.Exit()
                    self.forward_sync._add_control_input(push.op)
                add_op = self.forward_index.op.inputs[0].op
                push.op._add_control_input(add_op)
                return acc

    def AddBackpropAccumulatedValue(self, history_value, value, dead_branch=False):  # noqa: N802
        """The StackPopV2 in the gradient loop giving back `value` of the matching
        forward iteration (through the cond's Switch when value is in a branch)."""
        cf = _cfv1()
        history_ctxt = history_value.op._get_control_flow_context()
        cond_ctxt = None
        value_ctxt = value.op._get_control_flow_context()
        while value_ctxt and value_ctxt != history_ctxt:
            if isinstance(value_ctxt, cf.CondContext):
                cond_ctxt = value_ctxt
                break
            value_ctxt = value_ctxt.outer_context
        with ops.control_dependencies(None):
            self.grad_context.Enter()
            if cond_ctxt:
                grad_state, pred = self, None
                while pred is None and grad_state:
                    pred = grad_state.history_map.get(cond_ctxt.pred.name)
                    grad_state = grad_state.outer_grad_state
                if pred is None:
                    pred = cond_ctxt.pred
                branch = 1 - cond_ctxt.branch if dead_branch else cond_ctxt.branch
                history_value = cf._SwitchRefOrTensor(history_value, pred)[branch]
            pop = _stack_pop_v2(history_value, value.dtype.base_dtype)
            pop.set_shape(value.get_shape())
            self.grad_context.Exit()
        if self.grad_context.parallel_iterations > 1:
            self.grad_sync._add_control_input(pop.op)
        return pop

    def GetRealValue(self, value):  # noqa: N802
        """The gradient loop's copy of forward value `value`: a loop invariant
        enters again, a constant is rebuilt, anything else is saved and popped."""
        real_value = self._history_map.get(value.name)
        if real_value is None:
            cur_value, cur_grad_state = value, self
            history_value = None
            while True:
                enter_op = util.GetLoopConstantEnter(cur_value)
                if enter_op:
                    cur_value = enter_op.inputs[0]
                    cur_grad_state = cur_grad_state.outer_grad_state
                    if cur_grad_state is None:
                        real_value = self._grad_context.AddValue(cur_value)
                        break
                elif constant_op.is_constant(cur_value):
                    real_value = constant_op.constant(tensor_util.constant_value(cur_value),
                                                      dtype=cur_value.dtype)
                    break
                else:
                    self._grad_context.Exit()
                    history_value = cur_grad_state.AddForwardAccumulator(cur_value)
                    self._grad_context.Enter()
                    break
            if real_value is None:
                real_value = cur_grad_state.AddBackpropAccumulatedValue(history_value, cur_value)
                if cur_grad_state != self:
                    real_value = self._grad_context.AddValue(real_value)
            self._history_map[value.name] = real_value
        return real_value


class _ControlFlowState:
    """The gradient loop states of one tf.gradients call, by forward loop."""

    def __init__(self):
        self._map = {}

    def GetGradState(self, op, before):  # noqa: N802
        if before and util.IsLoopExit(op):
            forward_ctxt = op._get_control_flow_context().outer_context
            if forward_ctxt:
                forward_ctxt = forward_ctxt.GetWhileContext()
        else:
            forward_ctxt = util.GetWhileContext(op)
        return self._map.get(forward_ctxt) if forward_ctxt else None

    def ProcessUnusedLoopExits(self, pending_count, to_ops_set):  # noqa: N802
        """Exits no gradient reaches: they get zeros once the other exits of
        their loop have gradients. Returns the exits to seed."""
        loop_exits = []
        for grad_state in self._map.values():
            for y in grad_state.forward_loop_exits:
                if pending_count[y.op] == 0:
                    grad_state.pending_exits_count -= 1
                    if y.op not in to_ops_set:
                        grad_state.unused_exits.append(y)
                    if grad_state.pending_exits_count == 0:
                        loop_exits.extend(grad_state.unused_exits)
            for y in grad_state.forward_context.loop_enters:
                if pending_count[y.op] == 0:
                    pending_count[y.op] = 1
        return loop_exits

    def EnterGradWhileContext(self, op, before):  # noqa: N802
        grad_state = self.GetGradState(op, before)
        if grad_state:
            grad_state.grad_context.Enter()

    def ExitGradWhileContext(self, op, before):  # noqa: N802
        grad_state = self.GetGradState(op, before)
        if grad_state:
            grad_state.grad_context.Exit()

    def AddWhileContext(self, op, between_op_list, between_ops):  # noqa: N802
        forward_ctxt = util.GetWhileContext(op)
        grad_state = self._map.get(forward_ctxt)
        if grad_state is None:
            outer_forward_ctxt = forward_ctxt.outer_context
            if outer_forward_ctxt:
                outer_forward_ctxt = outer_forward_ctxt.GetWhileContext()
            outer_grad_state = self._map.get(outer_forward_ctxt) if outer_forward_ctxt else None
            grad_state = _GradLoopState(forward_ctxt, outer_grad_state)
            self._map[forward_ctxt] = grad_state
            # every exit of the loop takes part, so the gradient loop is built once
            for loop_exit in grad_state.forward_loop_exits:
                if loop_exit.op not in between_ops:
                    between_ops.add(loop_exit.op)
                    between_op_list.append(loop_exit.op)

    def ZerosLikeForExit(self, val):  # noqa: N802
        """Zeros for an unused Exit `val` (in the enclosing gradient loop if any)."""
        from minitf.ops import array_ops
        val_shape = val.get_shape()
        forward_ctxt = val.op._get_control_flow_context()
        outer_forward_ctxt = forward_ctxt.outer_context
        if outer_forward_ctxt:
            outer_forward_ctxt = outer_forward_ctxt.GetWhileContext()
        outer_grad_state = self._map.get(outer_forward_ctxt) if outer_forward_ctxt else None
        if outer_grad_state:
            if val_shape.is_fully_defined():
                outer_grad_state.grad_context.Enter()
                result = array_ops.zeros(val_shape.as_list(), val.dtype)
                outer_grad_state.grad_context.Exit()
            else:
                forward_ctxt.outer_context.Enter()
                shape = array_ops.shape_internal(val, optimize=False)
                forward_ctxt.outer_context.Exit()
                history_shape = outer_grad_state.AddForwardAccumulator(shape)
                outer_grad_ctxt = outer_grad_state.grad_context
                outer_grad_ctxt.Enter()
                real_shape = outer_grad_state.AddBackpropAccumulatedValue(history_shape, shape)
                result = array_ops.zeros(real_shape, val.dtype)
                outer_grad_ctxt.Exit()
        elif val_shape.is_fully_defined():
            result = array_ops.zeros(val_shape.as_list(), val.dtype)
        else:
            result = array_ops.zeros_like(val, optimize=False)
        return result

    def ZerosLikeV1WhileLoop(self, op, index):  # noqa: N802
        """Zeros for output `index` of op inside a loop (None for a loop Switch,
        whose missing gradient the b_switch Merge handles)."""
        from minitf.ops import array_ops
        cf = _cfv1()
        if util.IsLoopSwitch(op):
            return None
        dead_branch = util.IsSwitch(op)
        forward_ctxt = util.GetWhileContext(op)
        grad_state = self._map.get(forward_ctxt)
        if grad_state is None:
            return ZerosLike(op, index)
        op_ctxt = op._get_control_flow_context()
        val = ops.convert_to_tensor(op.outputs[index], name="tensor")
        shape = val.get_shape()
        if shape.is_fully_defined():
            result = constant_op.constant(0, shape=shape.as_list(), dtype=val.dtype)
            if dead_branch:
                pred = grad_state.history_map.get(op_ctxt.pred.name)
                result = cf._SwitchRefOrTensor(result, pred)[1 - op_ctxt.branch]
        else:
            if dead_branch:
                pred, branch = op_ctxt.pred, op_ctxt.branch
                op_ctxt.outer_context.Enter()
                val = cf._SwitchRefOrTensor(op.inputs[0], pred)[1 - branch]
                zeros_shape = array_ops.shape_internal(val, optimize=False)
                op_ctxt.outer_context.Exit()
                val.op._set_control_flow_context(op_ctxt)
                zeros_shape.op._set_control_flow_context(op_ctxt)
            else:
                op_ctxt.Enter()
                zeros_shape = array_ops.shape_internal(val, optimize=False)
                op_ctxt.Exit()
            grad_state.grad_context.Exit()
            history_zeros_shape = grad_state.AddForwardAccumulator(zeros_shape,
                                                                   dead_branch=dead_branch)
            grad_state.grad_context.Enter()
            shape = grad_state.AddBackpropAccumulatedValue(history_zeros_shape, zeros_shape,
                                                           dead_branch)
            result = array_ops.zeros(shape, val.dtype)
        return result

    def PostProcessing(self):  # noqa: N802
        """Closes the back edge of every b_switch Merge no gradient came back to
        with zeros."""
        from minitf.ops import array_ops
        cf = _cfv1()
        for grad_state in self._map.values():
            for b_merge in grad_state.switch_map.values():
                if b_merge.op.inputs[0] is b_merge.op.inputs[1]:
                    dtype = b_merge.op.inputs[0].dtype
                    shape = b_merge.op.inputs[0].get_shape()
                    if shape.is_fully_defined():
                        grad_state.grad_context.Enter()
                        grad_val = constant_op.constant(0, dtype=dtype, shape=shape.as_list())
                        next_grad_val = cf._NextIteration(grad_val)
                        grad_state.grad_context.Exit()
                    else:
                        outer_grad_ctxt = grad_state.grad_context.outer_context
                        if outer_grad_ctxt:
                            outer_grad_ctxt.Enter()
                        enter_grad = b_merge.op.inputs[0].op.inputs[0]
                        grad_shape = array_ops.shape_internal(enter_grad, optimize=False)
                        grad_val = array_ops.zeros(grad_shape)
                        if outer_grad_ctxt:
                            outer_grad_ctxt.Exit()
                        grad_state.grad_context.Enter()
                        next_grad_val = cf._NextIteration(grad_val)
                        grad_state.grad_context.Exit()
                    b_merge.op._update_input(1, next_grad_val)


def MaybeCreateControlFlowState(between_op_list, between_ops, colocate_gradients_with_ops):  # noqa: N802
    """A _ControlFlowState when a loop Exit lies between xs and ys, else None."""
    loop_state = None
    for op in list(between_op_list):
        if util.IsLoopExit(op):
            if loop_state is None:
                loop_state = _ControlFlowState()
            if colocate_gradients_with_ops:
                with ops.colocate_with(op):
                    loop_state.AddWhileContext(op, between_op_list, between_ops)
            else:
                loop_state.AddWhileContext(op, between_op_list, between_ops)
    return loop_state


def _ZerosLikeV1(op, index):  # noqa: N802
    """Zeros for the untaken output of a cond Switch, computed in the other branch."""
    from minitf.ops import array_ops
    cf = _cfv1()
    val = op.outputs[index]
    op_ctxt = op._get_control_flow_context()
    if op_ctxt:
        pred, branch = op_ctxt.pred, op_ctxt.branch
        switch_val = cf.switch(op.inputs[0], pred)[1 - branch]
        pivot = array_ops.identity(switch_val)
        if val.dtype == dtypes.resource:
            from minitf.framework.op_def_library import apply_op
            with ops.control_dependencies([pivot]):
                shape = apply_op("VariableShape", input=switch_val).outputs[0]
                return array_ops.zeros(shape, dtype=_handle_dtype(switch_val))
        zeros_shape = array_ops.shape_internal(switch_val, optimize=False)
        with ops.control_dependencies([pivot]):
            return array_ops.zeros(zeros_shape, dtype=val.dtype)
    return array_ops.zeros_like(val, optimize=False)


def _handle_dtype(handle):
    """The dtype of the variable behind a resource handle (its VarHandleOp's dtype)."""
    t = handle
    while t.op.type in ("Switch", "Identity", "Enter"):
        t = t.op.inputs[0]
    return t.op.get_attr("dtype")


def ZerosLike(op, index):  # noqa: N802
    """Zeros standing for a missing gradient of op.outputs[index]."""
    from minitf.ops import array_ops
    if not util.IsSwitch(op):
        return array_ops.zeros_like(op.outputs[index], optimize=False)
    return _ZerosLikeV1(op, index)
