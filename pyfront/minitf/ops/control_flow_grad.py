"""Gradients of the v1 control-flow ops (TensorFlow's control_flow_grad.py):
Switch, RefSwitch, Merge, RefMerge, Enter, RefEnter, Exit, RefExit,
NextIteration, RefNextIteration. They need the Python control-flow contexts
(the gradient of an Exit enters the gradient loop, the gradient of a loop
Switch closes its back edge), so like TensorFlow's they are Python functions,
registered as minitf's own Python gradients (gradients_impl._builtin_gradients).
LoopCond stays "not differentiable" in C (TF's gradient returns None).
"""
from minitf.framework import dtypes, ops
from minitf.framework.indexed_slices import IndexedSlices
from minitf.ops import control_flow_util as util
from minitf.ops import control_flow_v1 as cf


def _switch_grad(op, *grad):
    """Gradient of a Switch: a Merge of the branch gradients (cond), or in a
    loop the b_switch Merge whose back edge the next gradient iteration closes."""
    graph = ops.get_default_graph()
    op_ctxt = op._get_control_flow_context()
    grad_ctxt = graph._get_control_flow_context()
    if isinstance(op_ctxt, cf.WhileContext):
        merge_grad = grad_ctxt.grad_state.switch_map.get(op)
        if merge_grad is not None:
            # second visit: the gradient of the loop body closes the back edge
            if grad[1] is not None:
                cf._AddNextAndBackEdge(merge_grad, grad[1], enforce_shape_invariant=False)
            return None, None
        if grad[0] is not None:
            # first visit, from the Exit: the gradient enters the gradient loop
            merge_grad = cf.merge([grad[0], grad[0]], name="b_switch")[0]
            grad_ctxt.grad_state.switch_map[op] = merge_grad
            return merge_grad, None
        return None, None
    if isinstance(op_ctxt, cf.CondContext):
        zero_grad = grad[1 - op_ctxt.branch]
        if zero_grad is None:
            # the untaken side has no gradient: nothing flows to data
            if op.inputs[0].dtype == dtypes.resource:
                return cf.merge([grad[op_ctxt.branch]] * 2, name="cond_resource_grad")[0], None
            return None, None
        return cf.merge(grad, name="cond_grad")[0], None
    false_grad = cf.switch(grad[0], op.inputs[1])[0]
    true_grad = cf.switch(grad[1], op.inputs[1])[1]
    return cf.merge([false_grad, true_grad])[0], None


def _merge_grad(op, grad, _):
    """Gradient of a Merge: the gradient switched to the input that was taken."""
    from minitf.ops import math_ops
    input_op = op.inputs[0].op
    graph = ops.get_default_graph()
    op_ctxt = util.GetOutputContext(input_op)
    grad_ctxt = graph._get_control_flow_context()
    if isinstance(op_ctxt, cf.WhileContext):
        return cf._SwitchRefOrTensor(grad, grad_ctxt.pivot)
    if isinstance(op_ctxt, cf.CondContext):
        pred = op_ctxt.pred
        if grad_ctxt and grad_ctxt.grad_state:
            # a cond inside a loop: the pred of the matching forward iteration
            grad_state = grad_ctxt.grad_state
            real_pred = grad_state.history_map.get(pred.name)
            if real_pred is None:
                grad_ctxt = grad_state.grad_context
                grad_ctxt.Exit()
                history_pred = grad_state.AddForwardAccumulator(pred)
                grad_ctxt.Enter()
                real_pred = grad_state.AddBackpropAccumulatedValue(history_pred, pred)
                grad_state.history_map[pred.name] = real_pred
            pred = real_pred
        return cf._SwitchRefOrTensor(grad, pred, name="cond_grad")
    num_inputs = len(op.inputs)
    conds = [math_ops.equal(op.outputs[1], i) for i in range(num_inputs)]
    return [cf._SwitchRefOrTensor(grad, conds[i])[1] for i in range(num_inputs)]


def _exit_grad(op, grad):
    """Gradient of an Exit: the gradient enters the gradient loop (b_exit)."""
    graph = ops.get_default_graph()
    op_ctxt = op._get_control_flow_context()
    grad_ctxt = graph._get_control_flow_context()
    if not grad_ctxt.back_prop:
        return None
    if op_ctxt.grad_state:
        raise TypeError("Second-order gradient for while loops not supported.")
    if isinstance(grad, ops.Tensor):
        grad_ctxt.AddName(grad.name)
    else:
        if not isinstance(grad, IndexedSlices):
            raise TypeError("Type %s not supported, must be either`indexed_slices.IndexedSlices`"
                            " or `SparseTensor`." % type(grad))
        grad_ctxt.AddName(grad.values.name)
        grad_ctxt.AddName(grad.indices.name)
        if grad.dense_shape is not None:
            grad_ctxt.AddName(grad.dense_shape.name)
    grad_ctxt.Enter()
    result = cf._Enter(grad, grad_ctxt.name, is_constant=False,
                       parallel_iterations=grad_ctxt.parallel_iterations, name="b_exit")
    grad_ctxt.loop_enters.append(result)
    grad_ctxt.Exit()
    return result


def _next_iteration_grad(_, grad):
    return grad


def _enter_grad(op, grad):
    """Gradient of an Enter: leaves the gradient loop (Exit); for a loop
    invariant (constant Enter) the sum over the iterations (b_acc)."""
    graph = ops.get_default_graph()
    grad_ctxt = graph._get_control_flow_context()
    if grad_ctxt is None or not grad_ctxt.back_prop or grad_ctxt.grad_state is None:
        return grad
    if op.get_attr("is_constant"):
        if isinstance(grad, ops.Tensor):
            return grad_ctxt.AddBackpropAccumulator(op, grad)
        if isinstance(grad, IndexedSlices):
            return grad_ctxt.AddBackpropIndexedSlicesAccumulator(op, grad)
        raise TypeError("Type %s not supported,must be Tensor or Indexed Slices" % type(grad))
    result = cf.exit(grad)
    grad_ctxt.loop_exits.append(result)
    grad_ctxt.ExitResult([result])
    return result


GRADIENTS = {
    "Switch": _switch_grad,
    "RefSwitch": _switch_grad,
    "Merge": _merge_grad,
    "RefMerge": _merge_grad,
    "Exit": _exit_grad,
    "RefExit": _exit_grad,
    "NextIteration": _next_iteration_grad,
    "RefNextIteration": _next_iteration_grad,
    "Enter": _enter_grad,
    "RefEnter": _enter_grad,
}
