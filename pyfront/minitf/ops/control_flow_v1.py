"""TensorFlow 1 control flow built from Python (tf.compat.v1 after
tf.disable_control_flow_v2()): tf.cond as Switch/Merge in two CondContexts and
tf.while_loop as an Enter/Merge/Switch/Exit/NextIteration/LoopCond frame in a
WhileContext, with TensorFlow 2.21's node names (cond/Switch, cond/switch_t,
cond/pred_id, cond/Merge, while/Enter, while/Merge, while/LoopCond, while/Switch,
while/Identity, while/NextIteration, while/Exit, <op>/Enter for loop
invariants). The runtime runs the frames (runtime/frames.c) without unrolling.

A context is entered while a branch or loop body is traced: every op created
meanwhile is handed to the context's AddOp (Graph._control_flow_post_processing),
which routes each input from outside through a Switch (cond) or a constant
Enter (loop), rewiring the op with Operation._update_input (TF_UpdateEdge).
The gradient loop of control_flow_state.py reuses WhileContext.
"""
from minitf.framework import dtypes, ops, tensor_shape
from minitf.framework.indexed_slices import IndexedSlices
from minitf.framework.op_def_library import apply_op, outputs_of, get_op_def
from minitf.ops import control_flow_util as util
from minitf.util import nest


def _op(op_type, name=None, **kw):
    return outputs_of(apply_op(op_type, name=name, **kw), get_op_def(op_type))


def _is_ref(t):
    return t.dtype._is_ref_dtype


# ---------------------------------------------------------------------------
# The frame ops (TensorFlow's control_flow_ops wrappers)


def _Identity(tensor, name=None):  # noqa: N802 (TensorFlow's names)
    if isinstance(tensor, IndexedSlices):
        return IndexedSlices(_Identity(tensor.values), _Identity(tensor.indices),
                             None if tensor.dense_shape is None else _Identity(tensor.dense_shape))
    tensor = ops.convert_to_tensor(tensor, as_ref=True)
    if _is_ref(tensor):
        return _op("RefIdentity", input=tensor, name=name)
    from minitf.ops import array_ops
    return array_ops.identity(tensor, name=name)


def _NextIteration(tensor, name=None):  # noqa: N802
    if isinstance(tensor, IndexedSlices):
        return IndexedSlices(_NextIteration(tensor.values), _NextIteration(tensor.indices),
                             None if tensor.dense_shape is None else
                             _NextIteration(tensor.dense_shape))
    tensor = ops.convert_to_tensor(tensor, as_ref=True)
    return _op("RefNextIteration" if _is_ref(tensor) else "NextIteration", data=tensor,
               name=name)


def _Enter(tensor, frame_name, is_constant=False, parallel_iterations=10, use_ref=True,  # noqa: N802
           use_input_shape=True, name=None):
    """Makes `tensor` available in child frame `frame_name` (op Enter/RefEnter)."""
    if isinstance(tensor, IndexedSlices):
        def enter(t):
            return _Enter(t, frame_name, is_constant, parallel_iterations, use_ref,
                          use_input_shape)
        return IndexedSlices(enter(tensor.values), enter(tensor.indices),
                             None if tensor.dense_shape is None else enter(tensor.dense_shape))
    tensor = ops.convert_to_tensor(tensor, as_ref=True)
    op_type = "RefEnter" if _is_ref(tensor) and use_ref else "Enter"
    result = _op(op_type, data=tensor, frame_name=frame_name, is_constant=is_constant,
                 parallel_iterations=parallel_iterations, name=name)
    if use_input_shape:
        result.set_shape(tensor.get_shape())
    return result


def exit(tensor, name=None):  # noqa: A001 (TensorFlow's name)
    """Makes `tensor` available to the parent frame (op Exit/RefExit)."""
    if isinstance(tensor, IndexedSlices):
        return IndexedSlices(exit(tensor.values), exit(tensor.indices),
                             None if tensor.dense_shape is None else exit(tensor.dense_shape))
    tensor = ops.convert_to_tensor(tensor, as_ref=True)
    return _op("RefExit" if _is_ref(tensor) else "Exit", data=tensor, name=name)


def switch(data, pred, dtype=None, name=None):
    """(output_false, output_true): `data` forwarded to one of them by `pred` (op Switch)."""
    with ops.name_scope(name, "Switch", [data, pred]) as name:
        if isinstance(data, IndexedSlices):
            parts = [data.values, data.indices] + \
                ([] if data.dense_shape is None else [data.dense_shape])
            pred = ops.convert_to_tensor(pred, name="pred")
            mapped = [_op("Switch", data=t, pred=pred) for t in parts]
            f = [m[0] for m in mapped]
            t = [m[1] for m in mapped]
            return (IndexedSlices(f[0], f[1], f[2] if len(f) > 2 else None),
                    IndexedSlices(t[0], t[1], t[2] if len(t) > 2 else None))
        data = ops.convert_to_tensor(data, dtype=dtype, name="data", as_ref=True)
        pred = ops.convert_to_tensor(pred, name="pred")
        return tuple(_op("Switch", data=data, pred=pred, name=name))


def _SwitchRefOrTensor(data, pred, name="Switch"):  # noqa: N802
    if not isinstance(data, IndexedSlices):
        data = ops.convert_to_tensor(data, name="data", as_ref=True)
    with ops.colocate_with(data.values if isinstance(data, IndexedSlices) else data,
                           ignore_existing=True):
        if not isinstance(data, IndexedSlices) and _is_ref(data):
            return tuple(_op("RefSwitch", data=data, pred=pred, name=name))
        return switch(data, pred, name=name)


def merge(inputs, name=None):
    """(value, value_index) of whichever input is available (op Merge/RefMerge).

    ValueError when an input is None. Tensors mixed with IndexedSlices become
    IndexedSlices first."""
    if any(inp is None for inp in inputs):
        raise ValueError("At least one of the merge inputs is None: %s" % inputs)
    with ops.name_scope(name, "Merge", inputs) as name:
        if all(not isinstance(v, IndexedSlices) for v in inputs):
            inputs = [ops.convert_to_tensor(v, as_ref=True) for v in inputs]
            op_type = "RefMerge" if all(_is_ref(v) for v in inputs) else "Merge"
            return tuple(_op(op_type, inputs=inputs, name=name))
        from minitf.ops import math_ops
        inputs = [v if isinstance(v, IndexedSlices) else
                  _as_indexed_slices(v) for v in inputs]
        with_shape = [v.dense_shape is not None for v in inputs]
        if any(with_shape) and not all(with_shape):
            raise ValueError("Either all merged IndexedSlices must have a known dense_shape, "
                             "or none of them may.")
        values = _op("Merge", inputs=[v.values for v in inputs])
        indices = _op("Merge", inputs=[v.indices for v in inputs])
        shape = _op("Merge", inputs=[v.dense_shape for v in inputs]) if all(with_shape) \
            else None
        return (IndexedSlices(values[0], indices[0], None if shape is None else shape[0]),
                values[1])


def _as_indexed_slices(x):
    """Dense x as IndexedSlices over all its rows (TF's math_ops._as_indexed_slices)."""
    from minitf.ops import array_ops
    x = ops.convert_to_tensor(x)
    x_shape = array_ops.shape_internal(x, optimize=False)
    return IndexedSlices(x, array_ops.range(0, x_shape[0]), x_shape)


def loop_cond(input, name=None):  # noqa: A002
    """The loop-termination predicate of a frame (op LoopCond)."""
    return _op("LoopCond", input=input, name=name)


def control_trigger(name=None):
    """An op that does nothing, run even on dead paths (op ControlTrigger)."""
    return apply_op("ControlTrigger", name=name)


def _convert_tensorarray_to_flow(x):
    from minitf.ops import tensor_array_ops
    return x.flow if isinstance(x, tensor_array_ops.TensorArray) else x


def _convert_flow_to_tensorarray(orig, flow):
    from minitf.ops import tensor_array_ops
    if isinstance(orig, tensor_array_ops.TensorArray):
        return tensor_array_ops.build_ta_with_new_flow(orig, flow)
    return flow


def _ShapeLessThanOrEqual(shape1, shape2):  # noqa: N802
    if shape2.dims is None:
        return True
    if shape1.ndims != shape2.ndims:
        return False
    for d1, d2 in zip(shape1.as_list(), shape2.as_list()):
        if d2 is not None and d1 != d2:
            return False
    return True


def _EnforceShapeInvariant(merge_var, next_var):  # noqa: N802
    m_shape, n_shape = merge_var.get_shape(), next_var.get_shape()
    if not _ShapeLessThanOrEqual(n_shape, m_shape):
        enter = merge_var.op.inputs[0].op
        input_t = enter.inputs[0]
        raise ValueError(
            "Input tensor '%s' enters the loop with shape %s, but has shape %s after one "
            "iteration. To allow the shape to vary across iterations, use the "
            "`shape_invariants` argument of tf.while_loop to specify a less-specific shape."
            % (input_t.name, input_t.shape, n_shape))


def _AddNextAndBackEdge(m, v, enforce_shape_invariant=True):  # noqa: N802
    """NextIteration(v) closing the back edge into Merge m (input 1)."""
    if isinstance(m, IndexedSlices):
        from minitf.ops import math_ops
        if not isinstance(v, IndexedSlices):
            v = _as_indexed_slices(v)
        v = _NextIteration(v)
        m.values.op._update_input(1, v.values)
        m.indices.op._update_input(1, v.indices)
        if m.dense_shape is not None:
            m.dense_shape.op._update_input(1, v.dense_shape)
        return v
    v = _NextIteration(ops.convert_to_tensor(v))
    if enforce_shape_invariant:
        _EnforceShapeInvariant(m, v)
    m.op._update_input(1, v)
    return v


# ---------------------------------------------------------------------------
# Contexts


class ControlFlowContext:
    """What CondContext and WhileContext share: the values known inside the
    context (tensor names), the outer tensors it already routed in
    (_external_values: outer name -> inner tensor), and the context stack."""

    def __init__(self):
        graph = ops.get_default_graph()
        graph._uses_v1_control_flow = True
        self._nested_contexts = []
        self._outer_context = graph._get_control_flow_context()
        if self._outer_context:
            self._outer_context._nested_contexts.append(self)
        self._context_stack = []
        self._values = set()
        self._external_values = {}

    name = property(lambda self: self._name)
    outer_context = property(lambda self: self._outer_context)

    def AddName(self, name):  # noqa: N802
        self._values.add(name)

    def Enter(self):  # noqa: N802
        """Makes this the context new ops join."""
        graph = ops.get_default_graph()
        self._context_stack.append(graph._get_control_flow_context())
        graph._set_control_flow_context(self)

    def Exit(self):  # noqa: N802
        graph = ops.get_default_graph()
        graph._set_control_flow_context(self._context_stack.pop())

    def ExitResult(self, result):  # noqa: N802
        """Makes the results known to the outer context."""
        if self._outer_context:
            for x in nest.flatten(result):
                if isinstance(x, IndexedSlices):
                    for t in (x.values, x.indices, x.dense_shape):
                        if t is not None:
                            self._outer_context.AddName(t.name)
                else:
                    self._outer_context.AddName(x.name)

    def GetWhileContext(self):  # noqa: N802
        return self._outer_context.GetWhileContext() if self._outer_context else None

    def _RemoveExternalControlEdges(self, op):  # noqa: N802
        """Splits op's control inputs into those of this loop (kept) and the
        others (removed; the caller re-adds them through an Identity)."""
        while_ctxt = self.GetWhileContext()
        control_inputs = op.control_inputs
        if while_ctxt is None:
            internal, external = control_inputs, []
        else:
            internal, external = [], []
            for x in control_inputs:
                ctxt = util.GetOutputContext(x)
                if ctxt is not None and ctxt.GetWhileContext() == while_ctxt:
                    internal.append(x)
                else:
                    external.append(x)
        if len(internal) != len(control_inputs):
            op._remove_all_control_inputs()
            op._add_control_inputs(internal)
        return internal, external

    def AddInnerOp(self, op):  # noqa: N802
        if self._outer_context:
            self._outer_context.AddInnerOp(op)

    def GetControlPivot(self):  # noqa: N802
        return None

    def IsWhileContext(self):  # noqa: N802
        return False

    def IsCondContext(self):  # noqa: N802
        return False

    def IsXLAContext(self):  # noqa: N802
        return False

    def __str__(self):
        return self.name


class CondContext(ControlFlowContext):
    """One branch of a v1 cond: `pred` (the cond's pred_id), `pivot` (switch_t
    or switch_f) and `branch` (1 true, 0 false). Outer tensors enter the
    branch through Switch(x, pred)[branch]."""

    def __init__(self, pred=None, pivot=None, branch=None, name="cond_text"):
        self._name = ops.get_default_graph().unique_name(name)
        ControlFlowContext.__init__(self)
        self._pred = pred
        self._pivot = pivot
        self._branch = branch
        self._values.add(pred.name)
        self._external_values[pred.name] = pred
        self._values.add(pivot.name)
        pivot.op._set_control_flow_context(self)

    pred = property(lambda self: self._pred)
    pivot = property(lambda self: self._pivot)
    branch = property(lambda self: self._branch)

    @property
    def grad_state(self):
        w = self.GetWhileContext()
        return w.grad_state if w else None

    @property
    def back_prop(self):
        w = self.GetWhileContext()
        return w.back_prop if w else False

    def GetControlPivot(self):  # noqa: N802
        return self._pivot

    def AddValue(self, val):  # noqa: N802
        """The branch's view of outer tensor `val` (a Switch output)."""
        if val.name in self._values:
            result = self._external_values.get(val.name)
            return val if result is None else result
        result = val
        self._values.add(val.name)
        if self._outer_context:
            result = self._outer_context.AddValue(val)
            self._values.add(result.name)
            self._external_values[result.name] = result
        with ops.control_dependencies(None):
            result = _SwitchRefOrTensor(result, self._pred)[self._branch]
            if self._outer_context:
                self._outer_context.AddInnerOp(result.op)
        result.op.graph.prevent_fetching(result.op)
        result.op._set_control_flow_context(self)
        ctxt = self
        while ctxt is not None:
            ctxt._values.add(result.name)
            ctxt = ctxt._outer_context
        self._external_values[val.name] = result
        return result

    def AddOp(self, op):  # noqa: N802
        self._AddOpInternal(op)

    def _AddOpInternal(self, op):  # noqa: N802
        if not op.inputs:
            self._RemoveExternalControlEdges(op)
            if not any(util.OpInContext(c, self) for c in op.control_inputs):
                op._add_control_input(self._pivot.op)  # runs only in its branch
        else:
            for index, x in enumerate(op.inputs):
                if op.type == "Merge" and x.op.type == "NextIteration":
                    real_x = x
                else:
                    real_x = self.AddValue(x)
                if real_x is not x:
                    op._update_input(index, real_x)
            self._RemoveExternalControlEdges(op)
            if op.graph._is_function(op.type) or op.type == "SymbolicGradient":
                op._add_control_input(self._pivot.op)
        names = [x.name for x in op.outputs]
        ctxt = self
        while ctxt is not None:
            ctxt._values.update(names)
            ctxt = ctxt._outer_context
        if self._outer_context or not util.IsLoopExit(op):
            op.graph.prevent_fetching(op)
        if self._outer_context:
            self._outer_context.AddInnerOp(op)

    def _ProcessOutputTensor(self, val):  # noqa: N802
        """A branch result: an outer tensor returned as is goes through a Switch."""
        real_val = val
        if val.name not in self._values:
            self._values.add(val.name)
            if self._outer_context:
                real_val = self._outer_context.AddValue(val)
                self._values.add(real_val.name)
                self._external_values[real_val.name] = real_val
            real_val = _SwitchRefOrTensor(real_val, self._pred)[self._branch]
            self._external_values[val.name] = real_val
        else:
            external = self._external_values.get(val.name)
            if external is not None:
                real_val = external
        return real_val

    def _BuildCondTensor(self, v):  # noqa: N802
        from minitf.ops import control_flow_ops
        if isinstance(v, ops.Operation):
            return control_flow_ops.with_dependencies([v], self._pivot)
        v = _convert_tensorarray_to_flow(v)
        if isinstance(v, IndexedSlices):
            return IndexedSlices(self._ProcessOutputTensor(v.values),
                                 self._ProcessOutputTensor(v.indices),
                                 None if v.dense_shape is None else
                                 self._ProcessOutputTensor(v.dense_shape))
        return self._ProcessOutputTensor(ops.convert_to_tensor(v))

    def BuildCondBranch(self, fn):  # noqa: N802
        """(fn's result, the result as branch tensors as a list)."""
        original = fn()
        if original is None:
            return None, None
        original = _variables_to_tensors(original)
        result = nest.map_structure(self._BuildCondTensor, original)
        if not isinstance(result, (list, tuple)):
            result = [result]
        return original, result

    def IsCondContext(self):  # noqa: N802
        return True


def _variables_to_tensors(x):
    from minitf.ops import variables

    def conv(v):
        if isinstance(v, variables.ResourceVariable):
            return v.value()
        if isinstance(v, variables.Variable):
            return ops.convert_to_tensor(v)
        return v
    return nest.map_structure(conv, x)


class WhileContext(ControlFlowContext):
    """A v1 while loop's frame. Built by BuildLoop; the gradient loop
    (control_flow_state._GradLoopState) is a WhileContext with a grad_state."""

    def __init__(self, maximum_iterations=None, parallel_iterations=10, back_prop=True,
                 swap_memory=False, name="while_context", grad_state=None):
        ControlFlowContext.__init__(self)
        if not isinstance(parallel_iterations, int) or parallel_iterations <= 0:
            raise ValueError("'parallel_iterations' must be a positive integer: %s"
                             % parallel_iterations)
        self._name = ops.get_default_graph().unique_name(name)
        self._maximum_iterations = maximum_iterations
        self._parallel_iterations = parallel_iterations
        self._back_prop = back_prop
        self._swap_memory = swap_memory
        self._pivot_for_pred = None
        self._pivot_for_body = None
        self._pivot = None
        self._loop_exits = []
        self._loop_enters = []
        self._graph = ops.get_default_graph()
        self._grad_state = grad_state

    maximum_iterations = property(lambda self: self._maximum_iterations)
    parallel_iterations = property(lambda self: self._parallel_iterations)
    back_prop = property(lambda self: self._back_prop)
    swap_memory = property(lambda self: self._swap_memory)
    pivot = property(lambda self: self._pivot)
    loop_enters = property(lambda self: self._loop_enters)
    loop_exits = property(lambda self: self._loop_exits)
    grad_state = property(lambda self: self._grad_state)

    def GetWhileContext(self):  # noqa: N802
        return self

    def GetControlPivot(self):  # noqa: N802
        return self._pivot_for_body if self._pivot_for_body is not None else self._pivot_for_pred

    def AddValue(self, val):  # noqa: N802
        """The loop's view of outer tensor `val`: a constant Enter, or in a
        gradient loop the forward value popped from its stack."""
        result = val
        new_value = val.name not in self._values and val.op._control_flow_context is not self
        if new_value:
            self._values.add(val.name)
            grad_ctxt = ops.get_default_graph()._get_control_flow_context()
            if grad_ctxt:
                grad_ctxt = grad_ctxt.GetWhileContext()
                if grad_ctxt.grad_state:
                    forward_ctxt = util.GetWhileContext(val.op)
                    if util.IsLoopExit(val.op):
                        forward_ctxt = forward_ctxt.outer_context
                        if forward_ctxt:
                            forward_ctxt = forward_ctxt.GetWhileContext()
                    if forward_ctxt == grad_ctxt.grad_state.forward_context:
                        real_val = grad_ctxt.grad_state.GetRealValue(val)
                        self._external_values[val.name] = real_val
                        return real_val
            if self._outer_context is not None:
                result = self._outer_context.AddValue(val)
            with ops.control_dependencies(None):
                enter = _Enter(result, self._name, is_constant=True,
                               parallel_iterations=self._parallel_iterations)
                enter.graph.prevent_feeding(enter)
                if self._outer_context:
                    self._outer_context.AddInnerOp(enter.op)
            self._FixControlInputsAndContext([enter])
            self._values.add(enter.name)
            self._external_values[val.name] = enter
            result = enter
        else:
            actual = self._external_values.get(val.name)
            if actual is not None:
                result = actual
        return result

    def AddOp(self, op):  # noqa: N802
        if op.type in ("Shape", "Size", "Rank"):
            # a shape of a forward value taken in the gradient loop is computed
            # in the forward loop (then saved) rather than keeping the value
            grad_ctxt = ops.get_default_graph()._get_control_flow_context()
            if grad_ctxt:
                grad_ctxt = grad_ctxt.GetWhileContext()
                if grad_ctxt.grad_state:
                    in_ctxt = util.GetWhileContext(op.inputs[0].op)
                    if in_ctxt == grad_ctxt.grad_state.forward_context:
                        op_input_ctxt = op.inputs[0].op._get_control_flow_context()
                        op._set_control_flow_context(op_input_ctxt)
                        op_input_ctxt._AddOpInternal(op)
                        return
        self._AddOpInternal(op)

    def _AddOpInternal(self, op):  # noqa: N802
        if op.type in ("PartitionedCall", "StatefulPartitionedCall"):
            op._add_control_input(self.GetControlPivot().op)
        if not op.inputs:
            control_inputs, external_inputs = self._RemoveExternalControlEdges(op)
            if not control_inputs:
                op._add_control_input(self.GetControlPivot().op)
        else:
            for index, x in enumerate(op.inputs):
                real_x = self.AddValue(x)
                if real_x is not x:
                    op._update_input(index, real_x)
            _, external_inputs = self._RemoveExternalControlEdges(op)
            self._MaybeAddControlDependency(op)
        for x in op.outputs:
            self._values.add(x.name)
        if external_inputs:
            # control inputs from outside the loop enter it through an Identity
            from minitf.ops import array_ops
            with ops.control_dependencies(None):
                self.Enter()
                external_inputs = [array_ops.identity(x.outputs[0]).op
                                   for x in external_inputs if x.outputs]
                self.Exit()
            op._add_control_inputs(external_inputs)
        if self._outer_context or not util.IsLoopExit(op):
            op.graph.prevent_fetching(op)
            for x in op.outputs:
                op.graph.prevent_feeding(x)
        if self._outer_context:
            self._outer_context.AddInnerOp(op)

    def _MaybeAddControlDependency(self, op):  # noqa: N802
        """An op that reads only loop constants runs once per iteration:
        it gets the pivot as a control input."""
        if op.control_inputs:
            return
        if not (op.graph._is_function(op.type) or op.type == "SymbolicGradient"):
            if not all(util.IsLoopConstantEnter(x.op) for x in op.inputs):
                return
        op._add_control_input(self.GetControlPivot().op)

    def AddForwardLoopCounter(self, outer_grad_state):  # noqa: N802
        """A counter of this loop's iterations (f_count), for its gradient loop.
        Returns (total iterations, the counter's NextIteration)."""
        from minitf.framework import constant_op
        from minitf.ops import math_ops
        n = constant_op.constant(0, name="f_count")
        if outer_grad_state is not None:
            outer_add_op = outer_grad_state.forward_index.op.inputs[0].op
            n.op._add_control_input(outer_add_op)
        self.Enter()
        self.AddName(n.name)
        enter_n = _Enter(n, self._name, is_constant=False,
                         parallel_iterations=self._parallel_iterations, name="f_count")
        self.loop_enters.append(enter_n)
        merge_n = merge([enter_n, enter_n])[0]
        switch_n = switch(merge_n, self._pivot)
        index = math_ops.add(switch_n[1], 1)
        next_n = _NextIteration(index)
        merge_n.op._update_input(1, next_n)
        total_iterations = exit(switch_n[0], name="f_count")
        self.loop_exits.append(total_iterations)
        self.ExitResult([total_iterations])
        self.Exit()
        return total_iterations, next_n

    def AddBackpropLoopCounter(self, count, outer_grad_state):  # noqa: N802
        """The gradient loop's counter (b_count): counts `count` down to 0; its
        LoopCond is this context's pivot. Returns the counter's NextIteration."""
        from minitf.framework import constant_op
        from minitf.ops import math_ops
        one = constant_op.constant(1, name="b_count")
        self.Enter()
        self.AddName(count.name)
        enter_count = _Enter(count, self._name, is_constant=False,
                             parallel_iterations=self._parallel_iterations, name="b_count")
        self.loop_enters.append(enter_count)
        merge_count = merge([enter_count, enter_count])[0]
        self._pivot_for_pred = merge_count
        pred = math_ops.greater_equal(merge_count, one)
        self._pivot = loop_cond(pred, name="b_count")
        switch_count = switch(merge_count, self._pivot)
        index = math_ops.subtract(switch_count[1], one)
        self._pivot_for_body = index
        next_count = _NextIteration(index)
        merge_count.op._update_input(1, next_count)
        final_zero = exit(switch_count[0], name="b_count")
        self.loop_exits.append(final_zero)
        if outer_grad_state is not None:
            outer_grad_state.grad_sync._add_control_input(final_zero.op)
        self.ExitResult([final_zero])
        self.Exit()
        return next_count

    def AddBackpropAccumulator(self, op, grad):  # noqa: N802
        """Sums `grad` over the gradient loop's iterations (b_acc): the
        gradient of loop invariant op.inputs[0] (a constant Enter)."""
        from minitf.framework import constant_op
        from minitf.ops import array_ops, math_ops
        self.Exit()
        shape = grad.get_shape()
        if shape.is_fully_defined():
            if self.outer_context:
                self.outer_context.Enter()
            acc = constant_op.constant(0, grad.dtype, shape=shape.as_list(), name="b_acc")
            if self.outer_context:
                self.outer_context.Exit()
        else:
            value = op.inputs[0]
            if isinstance(self.outer_context, WhileContext) and \
                    self.outer_context.grad_state is not None:
                forward_ctxt = self.grad_state.forward_context
                forward_ctxt.outer_context.Enter()
                zeros_shape = array_ops.shape_internal(value, optimize=False)
                forward_ctxt.outer_context.Exit()
                outer_grad_state = self.grad_state.outer_grad_state
                history_zeros_shape = outer_grad_state.AddForwardAccumulator(zeros_shape)
                self.outer_context.Enter()
                real_shape = outer_grad_state.AddBackpropAccumulatedValue(history_zeros_shape,
                                                                          zeros_shape)
                acc = array_ops.zeros(real_shape, grad.dtype)
                self.outer_context.Exit()
            else:
                if self.outer_context:
                    self.outer_context.Enter()
                zeros_shape = array_ops.shape_internal(value, optimize=False)
                acc = array_ops.zeros(zeros_shape, grad.dtype)
                if self.outer_context:
                    self.outer_context.Exit()
        self.Enter()
        self.AddName(acc.name)
        enter_acc = _Enter(acc, self._name, is_constant=False,
                           parallel_iterations=self._parallel_iterations, name="b_acc")
        self.loop_enters.append(enter_acc)
        merge_acc = merge([enter_acc, enter_acc], name="b_acc")[0]
        switch_acc_false, switch_acc_true = switch(merge_acc, self._pivot)
        add_acc = math_ops.add(switch_acc_true, grad)
        next_acc = _NextIteration(add_acc)
        merge_acc.op._update_input(1, next_acc)
        result_acc = exit(switch_acc_false, name="b_acc")
        self.loop_exits.append(result_acc)
        self.ExitResult([result_acc])
        return result_acc

    def AddBackpropIndexedSlicesAccumulator(self, op, grad):  # noqa: N802
        """Like AddBackpropAccumulator for an IndexedSlices gradient: the
        slices of every iteration concatenated."""
        from minitf.framework import constant_op
        from minitf.ops import array_ops, math_ops
        values, indices, dense_shape = grad.values, grad.indices, grad.dense_shape
        self.Exit()
        if self.outer_context:
            self.outer_context.Enter()
        if values.get_shape().is_fully_defined():
            values_shape = [1] + values.get_shape().as_list()[1:]
            if self.outer_context:
                self.outer_context.Enter()
            values_acc = constant_op.constant(0, values.dtype, shape=values_shape, name="b_acc")
            if self.outer_context:
                self.outer_context.Exit()
        else:
            values_shape = _resource_safe_shape(op.inputs[0])[1:]
            values_shape = array_ops.concat([[1], values_shape], 0)
            values_acc = array_ops.zeros(values_shape, dtype=values.dtype)
        indices_acc = constant_op.constant([0], indices.dtype)
        shape_acc = None
        if dense_shape is not None:
            if dense_shape.get_shape().is_fully_defined():
                if self.outer_context:
                    self.outer_context.Enter()
                shape_acc = constant_op.constant(0, dense_shape.dtype,
                                                 shape=dense_shape.get_shape().as_list())
                if self.outer_context:
                    self.outer_context.Exit()
            else:
                shape_acc = array_ops.zeros_like(
                    array_ops.shape_internal(op.inputs[0], optimize=False,
                                             out_type=dense_shape.dtype), optimize=False)
        if self.outer_context:
            self.outer_context.Exit()
        self.Enter()
        self.AddName(values_acc.name)
        self.AddName(indices_acc.name)
        init_acc = [indices_acc, values_acc]
        if shape_acc is not None:
            self.AddName(shape_acc.name)
            init_acc.append(shape_acc)
        enter_acc = [_Enter(x, self._name, is_constant=False,
                            parallel_iterations=self._parallel_iterations,
                            use_input_shape=False, name="b_acc") for x in init_acc]
        enter_acc[0].set_shape([None])
        if values_acc.shape.dims is not None:
            enter_acc[1].set_shape([None] + values_acc.shape.as_list()[1:])
        self.loop_enters.extend(enter_acc)
        merge_acc = [merge([x, x], name="b_acc")[0] for x in enter_acc]
        switch_acc = [switch(x, self._pivot) for x in merge_acc]
        acc_slices = [array_ops.concat([xa[1], xv], 0)
                      for xa, xv in zip(switch_acc[:2], [indices, values])]
        if shape_acc is not None:
            acc_slices.append(math_ops.maximum(dense_shape, switch_acc[2][1]))
        next_acc = [_NextIteration(x) for x in acc_slices]
        for xm, xn in zip(merge_acc, next_acc):
            xm.op._update_input(1, xn)
        exit_acc = [exit(x[0], name="b_acc") for x in switch_acc]
        self.loop_exits.extend(exit_acc)
        self.ExitResult(exit_acc)
        return IndexedSlices(exit_acc[1], exit_acc[0],
                             exit_acc[2] if shape_acc is not None else None)

    def _InitializeValues(self, values):  # noqa: N802
        self._values = set(x.name for x in values)

    def _BuildLoop(self, pred, body, flat_orig_loop_vars, flat_loop_vars, signature):  # noqa: N802
        flat_invariants = nest.flatten(signature)
        self._InitializeValues(flat_loop_vars)
        if self._outer_context:
            real_vars = [self._outer_context.AddValue(x) for x in flat_loop_vars]
        else:
            real_vars = flat_loop_vars
        enter_vars = []
        with ops.control_dependencies(None):
            for real_var, invariant in zip(real_vars, flat_invariants):
                enter_var = _Enter(real_var, self._name, is_constant=False,
                                   parallel_iterations=self._parallel_iterations,
                                   use_input_shape=False)
                if _ShapeLessThanOrEqual(real_var.get_shape(), invariant):
                    enter_var.set_shape(invariant)
                else:
                    raise ValueError(
                        "The shape invariant specified for %s is not compatible with the "
                        "initial shape of the loop variable. It enters the loop with shape %s, "
                        "but the specified shape invariant is %s."
                        % (real_var.name, real_var.get_shape(), invariant))
                enter_var.graph.prevent_feeding(enter_var)
                if self._outer_context:
                    self._outer_context.AddInnerOp(enter_var.op)
                enter_vars.append(enter_var)
        # a loop inside a cond: its constant Enters wait for the cond's pivot
        outer, control_pivot = self._outer_context, None
        while outer is not None and control_pivot is None:
            control_pivot = outer.GetControlPivot()
            outer = outer._outer_context
        if control_pivot is not None:
            for var in enter_vars:
                if util.IsLoopConstantEnter(var.op.inputs[0].op):
                    var.op._add_control_input(control_pivot.op)
        self._FixControlInputsAndContext(enter_vars)
        self._InitializeValues(enter_vars)
        self._loop_enters = enter_vars

        merge_vars = [merge([x, x])[0] for x in enter_vars]
        self._pivot_for_pred = merge_vars[0]
        packed = nest.pack_sequence_as(signature, [
            _convert_flow_to_tensorarray(o, m) for o, m in zip(flat_orig_loop_vars, merge_vars)])
        c = ops.convert_to_tensor(pred(*packed))
        self._pivot = loop_cond(c, name="LoopCond")
        switch_vars = [_SwitchRefOrTensor(x, self._pivot) for x in merge_vars]
        vars_for_body = [_Identity(x[1]) for x in switch_vars]
        self._pivot_for_body = vars_for_body[0]
        packed_for_body = nest.pack_sequence_as(signature, [
            _convert_flow_to_tensorarray(o, v) for o, v in zip(flat_orig_loop_vars,
                                                               vars_for_body)])
        body_result = body(*packed_for_body)
        if not nest.is_nested(body_result):
            body_result = [body_result]
        body_result = _variables_to_tensors(body_result)
        nest.assert_same_structure(list(packed_for_body), list(body_result))
        result = [ops.convert_to_tensor(_convert_tensorarray_to_flow(x))
                  for x in nest.flatten(body_result)]
        if len(merge_vars) != len(result):
            raise ValueError("Number of inputs and outputs of 'body' must match 'loop_vars'. "
                             "Got %d for the number of inputs/outputs, and %d for 'loop_vars'."
                             % (len(merge_vars), len(result)))
        for m, v in zip(merge_vars, result):
            _AddNextAndBackEdge(m, v)
        exit_vars = [exit(x[0]) for x in switch_vars]
        self._loop_exits = exit_vars
        self.ExitResult(exit_vars)
        return body_result, exit_vars

    def BuildLoop(self, pred, body, loop_vars, shape_invariants, return_same_structure):  # noqa: N802
        """Adds the loop; returns its results packed like loop_vars (a lone
        tensor for one loop var unless return_same_structure)."""
        flat_orig = nest.flatten(loop_vars)
        loop_vars = nest.map_structure(_to_tensor_or_tensorarray, loop_vars)
        flat_loop_vars = [_convert_tensorarray_to_flow(x) for x in nest.flatten(loop_vars)]
        if shape_invariants is not None:
            nest.assert_same_structure(loop_vars, shape_invariants, check_types=False)
            flat_inv = [tensor_shape.as_shape(s) for s in nest.flatten(shape_invariants)]
        else:
            flat_inv = [x.get_shape() for x in flat_loop_vars]
        signature = nest.pack_sequence_as(loop_vars, flat_inv)
        try:
            self.Enter()
            body_result, exit_vars = self._BuildLoop(pred, body, flat_orig, flat_loop_vars,
                                                     signature)
        finally:
            self.Exit()
        flat_result = nest.flatten(body_result)
        packed = nest.pack_sequence_as(body_result, [
            _convert_flow_to_tensorarray(r, e) for r, e in zip(flat_result, exit_vars)])
        if return_same_structure:
            return packed
        return packed[0] if len(exit_vars) == 1 else packed

    def _FixControlInputsAndContext(self, enters):  # noqa: N802
        """Enters keep the control inputs of the context outside the loop and
        belong to this loop."""
        graph = ops.get_default_graph()
        for x in enters:
            inp_op = x.op.inputs[0].op
            control_inputs = graph._control_dependencies_for_inputs([inp_op])
            outer_control_inputs = []
            for op in control_inputs:
                keep = True
                op_ctxt = util.GetOutputContext(op)
                outer_ctxt = self.outer_context
                outer_while = None if outer_ctxt is None else outer_ctxt.GetWhileContext()
                while outer_ctxt != op_ctxt:
                    if outer_ctxt is None or outer_ctxt == outer_while:
                        keep = False
                        break
                    outer_ctxt = outer_ctxt.outer_context
                if keep:
                    outer_control_inputs.append(op)
            x.op._set_control_flow_context(self)
            x.op._add_control_inputs(outer_control_inputs)
            graph._record_op_seen_by_control_dependencies(x.op)

    def IsWhileContext(self):  # noqa: N802
        return True


def _resource_safe_shape(t):
    from minitf.ops import array_ops
    if t.dtype == dtypes.resource:
        while t.op.inputs:
            t = t.op.inputs[0]
        return tensor_shape.TensorShape(t.op.get_attr("shape"))
    return array_ops.shape_internal(t, optimize=False)


def _to_tensor_or_tensorarray(x):
    from minitf.ops import tensor_array_ops
    if isinstance(x, tensor_array_ops.TensorArray):
        return x
    x = _variables_to_tensors(x)
    return x if isinstance(x, IndexedSlices) else ops.convert_to_tensor(x)


# ---------------------------------------------------------------------------
# tf.cond / tf.while_loop (v1)


def _unpack_if_singleton(res):
    if isinstance(res, (list, tuple)) and len(res) == 1:
        return res[0]
    return res


def cond(pred, true_fn, false_fn, strict=False, name=None):
    """tf.compat.v1.cond in the v1 form: pred through Switch (cond/Switch,
    cond/switch_t, cond/switch_f, cond/pred_id), each branch built in its
    CondContext, the results joined by Merge (cond/Merge, cond/Merge_1 ...).

    Raises TypeError for a Python bool pred; ValueError when a branch returns
    None or nothing, or the branches' structures or dtypes differ (TF's wording).
    """
    from minitf.ops import array_ops
    with ops.name_scope(name, "cond", [pred]):
        if isinstance(pred, bool):
            raise TypeError("'pred' must not be a Python bool.")
        p_2, p_1 = switch(pred, pred)
        pivot_1 = array_ops.identity(p_1, name="switch_t")
        pivot_2 = array_ops.identity(p_2, name="switch_f")
        pred = array_ops.identity(pred, name="pred_id")
        for t in (p_1, p_2, pivot_1, pivot_2, pred):
            t.op.graph.prevent_fetching(t.op)

        context_t = CondContext(pred, pivot_1, branch=1)
        try:
            context_t.Enter()
            orig_res_t, res_t = context_t.BuildCondBranch(true_fn)
            if orig_res_t is None:
                raise ValueError("'true_fn' must have a return value.")
            context_t.ExitResult(res_t)
        finally:
            context_t.Exit()
        context_f = CondContext(pred, pivot_2, branch=0)
        try:
            context_f.Enter()
            orig_res_f, res_f = context_f.BuildCondBranch(false_fn)
            if orig_res_f is None:
                raise ValueError("'false_fn' must have a return value.")
            context_f.ExitResult(res_f)
        finally:
            context_f.Exit()

        if not strict:
            orig_res_t = _unpack_if_singleton(orig_res_t)
            orig_res_f = _unpack_if_singleton(orig_res_f)
        # TF's nest error as it comes (TF re-checks through map_structure, which raises)
        nest.assert_same_structure(orig_res_t, orig_res_f)
        if not res_t:
            raise ValueError("'true_fn' and 'false_fn' must return at least one result.")
        res_t_flat = _flat_components(res_t)
        res_f_flat = _flat_components(res_f)
        for x, y in zip(res_t_flat, res_f_flat):
            if x.dtype.base_dtype != y.dtype.base_dtype:
                raise ValueError(
                    "Outputs of 'true_fn' and 'false_fn' must have the same type(s). Received "
                    "%s from 'true_fn' and %s from 'false_fn'." % (x.dtype.name, y.dtype.name))
        merges = [merge(pair)[0] for pair in zip(res_f_flat, res_t_flat)]
        merges = _pack_components(res_t, merges)
        merges = [_convert_flow_to_tensorarray(o, m)
                  for o, m in zip(nest.flatten(orig_res_t), merges)]
        if context_t.outer_context is None:
            ops.add_to_collection(ops.GraphKeys.COND_CONTEXT, context_t)
            ops.add_to_collection(ops.GraphKeys.COND_CONTEXT, context_f)
        merges = nest.pack_sequence_as(orig_res_t, merges)
        if not strict:
            merges = _unpack_if_singleton(merges)
        return merges


def _flat_components(results):
    """Tensors of a flat result list, IndexedSlices expanded (values, indices, shape)."""
    out = []
    for r in nest.flatten(results):
        if isinstance(r, IndexedSlices):
            out.extend([r.values, r.indices] + ([] if r.dense_shape is None else
                                                [r.dense_shape]))
        else:
            out.append(r)
    return out


def _pack_components(results, tensors):
    it = iter(tensors)
    out = []
    for r in nest.flatten(results):
        if isinstance(r, IndexedSlices):
            v, i = next(it), next(it)
            out.append(IndexedSlices(v, i, None if r.dense_shape is None else next(it)))
        else:
            out.append(next(it))
    return out


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,
               back_prop=True, swap_memory=False, name=None, maximum_iterations=None,
               return_same_structure=False):
    """tf.compat.v1.while_loop in the v1 form (see control_flow_ops.while_loop):
    a WhileContext frame named after the scope ("while", "while_1", ...).
    maximum_iterations adds a counter loop variable (while/iteration_counter)
    whose bound joins cond with LogicalAnd, as TensorFlow does.

    Raises ValueError for empty loop_vars, a non-scalar maximum_iterations, or
    loop var shapes that change without a shape invariant (TF's wording).
    """
    from minitf.framework import constant_op
    from minitf.ops import math_ops
    with ops.name_scope(name, "while", nest.flatten(loop_vars)):
        if not loop_vars:
            raise ValueError("'loop_vars' must be provided.")
        try_to_pack = len(loop_vars) == 1 and not return_same_structure
        if maximum_iterations is not None:
            maximum_iterations = ops.convert_to_tensor(maximum_iterations,
                                                       name="maximum_iterations")
            if maximum_iterations.shape.ndims != 0:
                raise ValueError("'maximum_iterations' must be a scalar. Received shape: %s"
                                 % maximum_iterations.shape)
            counter = constant_op.constant(0, dtype=maximum_iterations.dtype,
                                           name="iteration_counter")
            orig_cond, orig_body = cond, body
            if try_to_pack:
                loop_vars = (counter, loop_vars[0])

                def cond(i, lv):
                    return math_ops.logical_and(i < maximum_iterations, orig_cond(lv))

                def body(i, lv):
                    return (i + 1, orig_body(lv))
            else:
                loop_vars = (counter, loop_vars)

                def cond(i, lv):
                    return math_ops.logical_and(i < maximum_iterations, orig_cond(*lv))

                def body(i, lv):
                    return (i + 1, orig_body(*lv))
            if shape_invariants is not None:
                shape_invariants = (tensor_shape.TensorShape([]), shape_invariants)
        loop_context = WhileContext(maximum_iterations=maximum_iterations,
                                    parallel_iterations=parallel_iterations,
                                    back_prop=back_prop, swap_memory=swap_memory)
        if loop_context.outer_context is None:
            ops.add_to_collection(ops.GraphKeys.WHILE_CONTEXT, loop_context)
        result = loop_context.BuildLoop(cond, body, loop_vars, shape_invariants,
                                        return_same_structure)
        if maximum_iterations is not None:
            return result[1]
        return result
