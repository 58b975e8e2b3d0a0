"""tf.cond and tf.switch_case as functional ops (TensorFlow's cond_v2, TF
2.21's default in compat.v1 graph mode): each branch is traced into a
FuncGraph, becomes a library function, and one If/StatelessIf (Case/
StatelessCase) node calls the branch the predicate picks. Outputs leave
through Identity nodes named <scope>/Identity, <scope>/Identity_1, ... as
TensorFlow names them."""
from minitf.core.framework import attr_value_pb2
from minitf.framework import func_graph as fg
from minitf.framework import ops
from minitf.framework.op_def_library import apply_op
from minitf.util import nest

# Ops that only read a resource (a branch input used only by these is read-only).
_READ_OPS = {"ReadVariableOp", "ResourceGather", "VariableShape", "ResourceGatherNd"}


def _trace(name, fn, outer, op_return_value=None):
    """Traces `fn()` into a new FuncGraph; returns (graph, structure) where
    structure is fn's result with tensors (None entries kept)."""
    g = fg.FuncGraph(name, outer, collections=outer._collections)
    with g.as_default():
        result = fn()
        flat = nest.flatten(result)
        converted = []
        for x in flat:
            if x is None:
                converted.append(None)
                continue
            if isinstance(x, ops.Operation):  # TF returns the predicate, gated on the op
                with g.control_dependencies([x]):
                    from minitf.ops import array_ops
                    x = array_ops.identity(op_return_value)
            t = ops.convert_to_tensor(x)
            converted.append(g.capture(t) if t.graph is not g else t)
        g.outputs = [t for t in converted if t is not None]
    return g, nest.pack_sequence_as(result, converted) if nest.is_nested(result) else converted[0]


def _same_key(t):
    return (ops._ptr_key(t.op._c_op), t.value_index)


def _match_inputs(graphs):
    """The union of the graphs' captured outer tensors (first-seen order); each
    graph's inputs are rearranged to it, with an unused placeholder where a
    graph did not capture a tensor."""
    union, seen = [], set()
    for g in graphs:
        for t in g.external_captures:
            if _same_key(t) not in seen:
                seen.add(_same_key(t))
                union.append(t)
    from minitf.ops import array_ops
    for g in graphs:
        mine = {_same_key(o): ph for o, ph in zip(g.external_captures, g.internal_captures)}
        inputs = []
        for t in union:
            ph = mine.get(_same_key(t))
            if ph is None:
                with g.as_default(), g.name_scope(None):
                    ph = array_ops.placeholder(t.dtype.base_dtype, shape=t.shape)
            inputs.append(ph)
        g.inputs = inputs
    return union


def _output_shapes(*output_lists):
    shapes = []
    for ts in zip(*output_lists):
        s = ts[0].shape
        for t in ts[1:]:
            s = s.most_specific_compatible_shape(t.shape)
        shapes.append(s)
    return shapes


def read_only_resource_inputs(graphs, offset):
    """Indices (plus `offset`) of resource inputs that no graph writes."""
    idx = []
    for i, phs in enumerate(zip(*[g.inputs for g in graphs])):
        if phs[0].dtype.base_dtype.name != "resource":
            continue
        if all(c.type in _READ_OPS for ph in phs for c in ph.consumers()):
            idx.append(i + offset)
    return idx


def set_functional_attrs(op, read_only):
    """The attrs TensorFlow sets on every functional control-flow op it builds."""
    op._set_attr("_lower_using_switch_merge", attr_value_pb2.AttrValue(b=True))
    op._set_attr("_read_only_resource_inputs",
                 attr_value_pb2.AttrValue(list=attr_value_pb2.AttrValue.ListValue(i=read_only)))


def _check_same_outputs(kind, structures, graphs):
    names = ["true_fn", "false_fn"] if kind == "cond" else \
        ["branch %d" % i for i in range(len(structures))]
    what = "true_fn and false_fn arguments to tf.cond" if kind == "cond" else \
        "branches of tf.switch_case"
    for s, g, n in zip(structures[1:], graphs[1:], names[1:]):
        try:
            nest.assert_same_structure(structures[0], s, check_types=False)
            for a, b in zip(graphs[0].outputs, g.outputs):
                if a.dtype.base_dtype != b.dtype.base_dtype:
                    raise TypeError("%s and %s have different types" % (a, b))
        except (ValueError, TypeError) as e:
            raise TypeError("%s must have the same number, type, and overall structure of "
                            "return values.\n\n%s output: %s\n%s output: %s\n\nError details:\n%s"
                            % (what, names[0], structures[0], n, s, e)) from None


def _outputs_like(structure, tensors):
    it = iter(tensors)
    flat = [None if x is None else next(it) for x in nest.flatten(structure)]
    if not nest.is_nested(structure):
        return flat[0]
    return nest.pack_sequence_as(structure, flat)


def cond_v2(pred, true_fn, false_fn, name=None):
    """The v2 form of tf.cond (see control_flow_ops.cond)."""
    from minitf.ops import array_ops
    with ops.name_scope(name or "cond") as scope:
        outer = ops.get_default_graph()
        true_name = fg.unique_fn_name(scope, "true")
        false_name = fg.unique_fn_name(scope, "false")
        pred = ops.convert_to_tensor(pred)
        if pred.shape.dims is None or pred.shape.dims:
            pred = array_ops.squeeze(pred)
        true_graph, true_out = _trace(true_name, true_fn, outer, pred)
        false_graph, false_out = _trace(false_name, false_fn, outer, pred)
        graphs = [true_graph, false_graph]
        _check_same_outputs("cond", [true_out, false_out], graphs)
        inputs = _match_inputs(graphs)
        stateful = fg.stateful_ops(true_graph) or fg.stateful_ops(false_graph)
        for g in graphs:
            g.to_function()
        with ops.control_dependencies(true_graph.control_captures + false_graph.control_captures):
            op = apply_op("If" if stateful else "StatelessIf", cond=pred, input=inputs,
                          Tout=[t.dtype.base_dtype for t in true_graph.outputs],
                          then_branch=true_name, else_branch=false_name,
                          output_shapes=_output_shapes(true_graph.outputs, false_graph.outputs),
                          name=scope)
        set_functional_attrs(op, read_only_resource_inputs(graphs, 1))
        op.graph.prevent_fetching(op)
        tensors = [array_ops.identity(t) for t in op.outputs]
    return _outputs_like(true_out, tensors)


def indexed_case(branch_index, branch_fns, name=None):
    """The v2 form of tf.switch_case: one Case/StatelessCase node."""
    from minitf.ops import array_ops
    with ops.name_scope(name or "indexed_case") as scope:
        outer = ops.get_default_graph()
        branch_index = ops.convert_to_tensor(branch_index)
        traced = [_trace(fg.unique_fn_name(scope, "branch%d" % i), fn, outer)
                  for i, fn in enumerate(branch_fns)]
        graphs = [g for g, _ in traced]
        structures = [s for _, s in traced]
        _check_same_outputs("case", structures, graphs)
        inputs = _match_inputs(graphs)
        stateful = any(fg.stateful_ops(g) for g in graphs)
        for g in graphs:
            g.to_function()
        captures = [c for g in graphs for c in g.control_captures]
        with ops.control_dependencies(captures):
            op = apply_op("Case" if stateful else "StatelessCase", branch_index=branch_index,
                          input=inputs, Tout=[t.dtype.base_dtype for t in graphs[0].outputs],
                          branches=[g.name for g in graphs],
                          output_shapes=_output_shapes(*[g.outputs for g in graphs]), name=scope)
        set_functional_attrs(op, read_only_resource_inputs(graphs, 1))
        op.graph.prevent_fetching(op)
        tensors = [array_ops.identity(t) for t in op.outputs]
    return _outputs_like(structures[0], tensors)
