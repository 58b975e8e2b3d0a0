"""Which control-flow form the frontend builds (TensorFlow's control_flow_util /
tf.compat.v1.enable_control_flow_v2). TF 2.21's default in compat.v1 graph mode
is v2: If/While with library functions; v1 is Switch/Merge/Enter/Exit frames."""
_v2 = True


def enable_control_flow_v2():
    """Build cond/while_loop/TensorArray in the v2 (functional) form (tf.enable_control_flow_v2)."""
    global _v2
    _v2 = True


def disable_control_flow_v2():
    """Build them in the v1 (Switch/Merge frames) form (tf.disable_control_flow_v2)."""
    global _v2
    _v2 = False


def control_flow_v2_enabled():
    """True when the v2 form is built (tf.control_flow_v2_enabled)."""
    return _v2


def enable_control_flow_v2_for(graph):
    """TF's EnableControlFlowV2(graph): v2 when enabled, and always inside a function."""
    return _v2 or graph.building_function


EnableControlFlowV2 = enable_control_flow_v2_for  # TensorFlow's name (tensor_array_ops uses it)


# ---------------------------------------------------------------------------
# Queries on v1 control-flow contexts (TensorFlow's control_flow_util helpers):
# a context is a CondContext or WhileContext of minitf.ops.control_flow_v1.


def IsSwitch(op):  # noqa: N802 (TensorFlow's names)
    return op.type in ("Switch", "RefSwitch")


def IsMerge(op):  # noqa: N802
    return op.type in ("Merge", "RefMerge")


def IsLoopEnter(op):  # noqa: N802
    return op.type in ("Enter", "RefEnter")


def IsLoopExit(op):  # noqa: N802
    return op.type in ("Exit", "RefExit")


def IsLoopConstantEnter(op):  # noqa: N802
    return IsLoopEnter(op) and op.get_attr("is_constant")


def IsCondSwitch(op):  # noqa: N802
    """A Switch all of whose consumers sit in cond contexts (an Enter counts
    for the context outside its loop)."""
    if not IsSwitch(op) or not op.outputs:
        return False
    for out in op.outputs:
        for c in out.consumers():
            ctxt = c._get_control_flow_context()
            if IsLoopEnter(c):
                ctxt = ctxt.outer_context
            if ctxt is None or not ctxt.IsCondContext():
                return False
    return True


def IsCondMerge(op):  # noqa: N802
    if not IsMerge(op) or not op.inputs:
        return False
    for t in op.inputs:
        ctxt = GetOutputContext(t.op)
        if ctxt is None or not ctxt.IsCondContext():
            return False
    return True


def IsLoopSwitch(op):  # noqa: N802
    if not IsSwitch(op):
        return False
    ctxt = op._get_control_flow_context()
    return ctxt is not None and ctxt.IsWhileContext() and not IsCondSwitch(op)


def IsLoopMerge(op):  # noqa: N802
    if not IsMerge(op):
        return False
    ctxt = op._get_control_flow_context()
    return ctxt is not None and ctxt.IsWhileContext() and not IsCondMerge(op)


def GetLoopConstantEnter(value):  # noqa: N802
    """The constant Enter `value` comes from through Switch/Identity, or None."""
    op = value.op
    while op.type in ("Switch", "RefSwitch", "Identity", "RefIdentity"):
        op = op.inputs[0].op
    return op if IsLoopConstantEnter(op) else None


def GetOutputContext(op):  # noqa: N802
    """The context op's outputs live in: an Exit's outputs leave its loop."""
    ctxt = op._get_control_flow_context()
    if ctxt is not None and IsLoopExit(op):
        ctxt = ctxt.outer_context
    return ctxt


def GetContainingWhileContext(ctxt, stop_ctxt=None):  # noqa: N802
    while ctxt:
        if ctxt.IsWhileContext() or ctxt == stop_ctxt:
            return ctxt
        ctxt = ctxt.outer_context
    return None


def GetContainingCondContext(ctxt):  # noqa: N802
    while ctxt:
        if ctxt.IsCondContext():
            return ctxt
        ctxt = ctxt.outer_context
    return None


def IsContainingContext(ctxt, maybe_containing_ctxt):  # noqa: N802
    while ctxt is not maybe_containing_ctxt:
        if ctxt is None:
            return False
        ctxt = ctxt.outer_context
    return True


def OpInContext(op, ctxt):  # noqa: N802
    return IsContainingContext(op._get_control_flow_context(), ctxt)


def TensorInContext(tensor, ctxt):  # noqa: N802
    return OpInContext(tensor.op, ctxt)


def IsInWhileLoop(op):  # noqa: N802
    return GetContainingWhileContext(op._get_control_flow_context()) is not None


def IsInCond(op):  # noqa: N802
    return GetContainingCondContext(op._get_control_flow_context()) is not None


def IsInXLAContext(op):  # noqa: N802
    return False  # minitf has no XLA contexts


def GetWhileContext(op):  # noqa: N802
    ctxt = op._get_control_flow_context()
    return ctxt.GetWhileContext() if ctxt else None


def _input_context_is_valid(op_ctxt, input_ctxt, op):
    if not input_ctxt or op_ctxt is input_ctxt:
        return True
    while_ctxt = GetContainingWhileContext(op_ctxt)
    input_while = GetContainingWhileContext(input_ctxt)
    if while_ctxt is None:
        # outside any loop: fine unless the input is inside one (an Enter or
        # Switch may still take it: they build the frames)
        return input_while is None or IsLoopEnter(op) or IsSwitch(op)
    if IsContainingContext(while_ctxt, input_while):
        return True
    gs = while_ctxt.grad_state
    if gs and (IsContainingContext(gs.forward_context, input_while) or
               gs.forward_context is input_while._outer_context):
        return True
    igs = input_while.grad_state if input_while else None
    if igs and igs.forward_context is while_ctxt:
        return True
    if igs and input_ctxt.grad_state.forward_context.grad_state and \
            input_ctxt.grad_state.forward_context.grad_state.forward_context is while_ctxt:
        return True
    return False


def CheckInputFromValidContext(op, input_op):  # noqa: N802
    """ValueError (TensorFlow's wording) when op may not read input_op's
    output: it is in another while loop, or in a loop op is outside of."""
    op_ctxt = op._get_control_flow_context()
    input_ctxt = GetOutputContext(input_op)
    if _input_context_is_valid(op_ctxt, input_ctxt, op):
        return
    if GetContainingWhileContext(op_ctxt):
        msg = ("Cannot use '%s' as input to '%s' because they are in different while loops."
               % (input_op.name, op.name))
    else:
        msg = ("Cannot use '%s' as input to '%s' because '%s' is in a while loop."
               % (input_op.name, op.name, input_op.name))
    raise ValueError(msg + " See info log for more details.")
