"""TensorFlow 1 control-flow contexts <-> CondContextDef / WhileContextDef (TensorFlow's
CondContext/WhileContext to_proto and from_proto), for the cond_context and while_context
collections of MetaGraphs.

Exporting them lets TensorFlow differentiate through the loops and conds of a graph minitf
wrote; importing rebuilds minitf's contexts over the imported nodes (each op named in a
context's values joins that context again), so tf.gradients works through an imported
graph's v1 loops and conds as through freshly built ones.
"""
from minitf.core.framework import attr_value_pb2
from minitf.core.protobuf import control_flow_pb2
from minitf.framework import ops
from minitf.framework.meta_graph import prepend_name_scope, strip_name_scope
from minitf.ops import control_flow_v1


def _in_scope(name, export_scope):
    return export_scope is None or name.startswith(export_scope)


def _values_def(ctx, export_scope):
    d = control_flow_pb2.ValuesDef()
    d.values.extend(sorted(strip_name_scope(v, export_scope) for v in ctx._values))
    for k, v in ctx._external_values.items():
        d.external_values[strip_name_scope(k, export_scope)] = \
            strip_name_scope(v.name, export_scope)
    return d


def _nested_defs(ctx, export_scope):
    out = []
    for child in ctx._nested_contexts:
        d = control_flow_pb2.ControlFlowContextDef()
        if isinstance(child, control_flow_v1.CondContext):
            proto = cond_to_proto(child, export_scope)
            if proto is not None:
                d.cond_ctxt.CopyFrom(proto)
                out.append(d)
        elif isinstance(child, control_flow_v1.WhileContext):
            proto = while_to_proto(child, export_scope)
            if proto is not None:
                d.while_ctxt.CopyFrom(proto)
                out.append(d)
    return out


def cond_to_proto(ctx, export_scope=None):
    """A CondContextDef of one cond branch, or None outside export_scope."""
    if not _in_scope(ctx.name, export_scope):
        return None
    d = control_flow_pb2.CondContextDef(
        context_name=strip_name_scope(ctx.name, export_scope),
        pred_name=strip_name_scope(ctx._pred.name, export_scope),
        pivot_name=strip_name_scope(ctx._pivot.name, export_scope),
        branch=ctx._branch)
    d.values_def.CopyFrom(_values_def(ctx, export_scope))
    d.nested_contexts.extend(_nested_defs(ctx, export_scope))
    return d


def while_to_proto(ctx, export_scope=None):
    """A WhileContextDef of a loop, or None outside export_scope (or a gradient loop's
    context, which TensorFlow does not export either: it is rebuilt by tf.gradients)."""
    if not _in_scope(ctx.name, export_scope) or ctx._pivot is None:
        return None
    s = lambda n: strip_name_scope(n, export_scope)  # noqa: E731
    d = control_flow_pb2.WhileContextDef(
        context_name=s(ctx.name), parallel_iterations=ctx._parallel_iterations,
        back_prop=ctx._back_prop, swap_memory=ctx._swap_memory, pivot_name=s(ctx._pivot.name),
        pivot_for_pred_name=s(ctx._pivot_for_pred.name),
        pivot_for_body_name=s(ctx._pivot_for_body.name))
    d.loop_exit_names.extend(s(t.name) for t in ctx._loop_exits)
    d.loop_enter_names.extend(s(t.name) for t in ctx._loop_enters)
    d.values_def.CopyFrom(_values_def(ctx, export_scope))
    if isinstance(ctx._maximum_iterations, ops.Tensor):
        d.maximum_iterations_name = s(ctx._maximum_iterations.name)
    d.nested_contexts.extend(_nested_defs(ctx, export_scope))
    return d


def _init_common(ctx, name, values_def, import_scope):
    g = ops.get_default_graph()
    g._uses_v1_control_flow = True
    ctx._name = prepend_name_scope(name, import_scope)
    ctx._outer_context = g._get_control_flow_context()
    if ctx._outer_context is not None:
        ctx._outer_context._nested_contexts.append(ctx)
    ctx._nested_contexts = []
    ctx._context_stack = []
    ctx._values = {prepend_name_scope(v, import_scope) for v in values_def.values}
    ctx._external_values = {
        prepend_name_scope(k, import_scope): g.as_graph_element(
            prepend_name_scope(v, import_scope))
        for k, v in values_def.external_values.items()}
    for op_name in {v.split(":")[0] for v in ctx._values - set(ctx._external_values)}:
        g.as_graph_element(op_name)._set_control_flow_context(ctx)


def _restore_nested(ctx, nested_defs, import_scope):
    ctx.Enter()
    try:
        for d in nested_defs:
            from_control_flow_context_def(d, import_scope)
    finally:
        ctx.Exit()


def cond_from_proto(context_def, import_scope=None):
    """A CondContext over the imported nodes context_def names."""
    g = ops.get_default_graph()
    ctx = control_flow_v1.CondContext.__new__(control_flow_v1.CondContext)
    ctx._pred = g.as_graph_element(prepend_name_scope(context_def.pred_name, import_scope))
    ctx._pivot = g.as_graph_element(prepend_name_scope(context_def.pivot_name, import_scope))
    ctx._branch = context_def.branch
    _init_common(ctx, context_def.context_name, context_def.values_def, import_scope)
    _restore_nested(ctx, context_def.nested_contexts, import_scope)
    return ctx


def while_from_proto(context_def, import_scope=None):
    """A WhileContext over the imported nodes context_def names."""
    g = ops.get_default_graph()
    get = lambda n: g.as_graph_element(prepend_name_scope(n, import_scope))  # noqa: E731
    ctx = control_flow_v1.WhileContext.__new__(control_flow_v1.WhileContext)
    ctx._parallel_iterations = context_def.parallel_iterations
    ctx._back_prop = context_def.back_prop
    ctx._swap_memory = context_def.swap_memory
    ctx._pivot = get(context_def.pivot_name)
    ctx._pivot_for_pred = get(context_def.pivot_for_pred_name)
    ctx._pivot_for_body = get(context_def.pivot_for_body_name)
    ctx._loop_exits = [get(n) for n in context_def.loop_exit_names]
    ctx._loop_enters = [get(n) for n in context_def.loop_enter_names]
    ctx._maximum_iterations = (get(context_def.maximum_iterations_name)
                               if context_def.maximum_iterations_name else None)
    ctx._graph = g
    ctx._grad_state = None
    _init_common(ctx, context_def.context_name, context_def.values_def, import_scope)
    if import_scope:
        # The importer keeps the Enter ops' frame_name; the frame follows the scope (as
        # TensorFlow's WhileContext import renames it) so new nodes join the same frame.
        frame = attr_value_pb2.AttrValue(s=ctx._name.encode())
        for name in ctx._values:
            op = g.as_graph_element(name).op
            if op.type in ("Enter", "RefEnter"):
                op._set_attr("frame_name", frame)
    _restore_nested(ctx, context_def.nested_contexts, import_scope)
    return ctx


def from_control_flow_context_def(context_def, import_scope=None):
    """The context a ControlFlowContextDef holds."""
    kind = context_def.WhichOneof("ctxt")
    if kind == "cond_ctxt":
        return cond_from_proto(context_def.cond_ctxt, import_scope)
    if kind == "while_ctxt":
        return while_from_proto(context_def.while_ctxt, import_scope)
    raise NotImplementedError("Unknown ControlFlowContextDef field: %s" % kind)
