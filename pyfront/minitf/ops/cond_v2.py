"""tf.cond and tf.switch_case as functional ops (TensorFlow's cond_v2, TF
2.21's default in compat.v1 graph mode): each branch is traced into a
FuncGraph, becomes a library function, and one If/StatelessIf (Case/
StatelessCase) node calls the branch the predicate picks. Outputs leave
through Identity nodes named <scope>/Identity, <scope>/Identity_1, ... as
TensorFlow names them."""
from minitf.core.framework import attr_value_pb2
from minitf.framework import dtypes, func_graph as fg
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


def _match_inputs(graphs):
    """The union of the graphs' captured outer tensors (first-seen order); each
    graph's inputs are rearranged to it, with an unused placeholder where a
    graph did not capture a tensor."""
    union, seen = [], set()
    for g in graphs:
        for t in g.external_captures:
            if fg.tensor_key(t) not in seen:
                seen.add(fg.tensor_key(t))
                union.append(t)
    from minitf.ops import array_ops
    for g in graphs:
        mine = {fg.tensor_key(o): ph for o, ph in zip(g.external_captures, g.internal_captures)}
        inputs = []
        for t in union:
            ph = mine.get(fg.tensor_key(t))
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
    for b, (s, g, n) in enumerate(zip(structures[1:], graphs[1:], names[1:]), 1):
        try:
            nest.assert_same_structure(structures[0], s, check_types=False)
            for a, b in zip(graphs[0].outputs, g.outputs):
                if a.dtype.base_dtype != b.dtype.base_dtype:
                    raise TypeError("%s and %s have different types" % (a, b))
        except (ValueError, TypeError) as e:
            raise TypeError("%s must have the same number, type, and overall structure of "
                            "return values.\n\n%s output: %s\n%s output: %s\n\nError details:\n%s"
                            % (what, names[0], structures[0], n, s, e)) from None
        if len(graphs[0].outputs) != len(g.outputs):  # a None against a tensor, as TF
            raise ValueError("Lengths of branch outputs of %s must match.\nlen(graphs[0].outputs): "
                             "%d\nlen(graphs[%d].outputs): %d\n" %
                             (kind, len(graphs[0].outputs), b, len(g.outputs)))


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


# ---------------------------------------------------------------------------
# Gradients (TensorFlow's cond_v2._IfGrad / _CaseGrad, built the same way):
# each branch function is rebuilt as a FuncGraph, differentiated there, and
# split into its forward ops and its backward ops. The backward ops become
# the branch of a gradient If/Case; the forward tensors they read that the
# forward op does not return yet become extra outputs of a rewritten forward
# op (the other branches return a placeholder value there), so nothing is
# computed twice and a stateful branch (dropout) is differentiated at the
# values it really produced.


def branch_function_names(op):
    """The library functions an If/StatelessIf/Case/StatelessCase op calls."""
    if op.type in ("If", "StatelessIf"):
        return [op.get_attr("then_branch").name, op.get_attr("else_branch").name]
    return [f.name for f in op.get_attr("branches")]


def placeholder_value(dtype):
    """A scalar of `dtype` for an output a branch has no value for."""
    import numpy as np
    from minitf.framework import constant_op, dtypes, errors
    from minitf.ops import list_ops
    dtype = dtypes.as_dtype(dtype).base_dtype
    if dtype == dtypes.variant:
        return list_ops.empty_tensor_list(None, dtypes.float32)
    if dtype == dtypes.resource:
        raise errors.UnimplementedError(
            None, None, "Differentiating a branch that creates a resource is not supported")
    if dtype == dtypes.string:
        return constant_op.constant(b"")
    return constant_op.constant(np.zeros((), dtype.as_numpy_dtype))


class _BranchGrad:
    """One branch differentiated inside its FuncGraph `graph`."""

    def __init__(self, graph, out_idx, dys_outer):
        from minitf.ops import array_ops, gradients_impl
        self.graph = graph
        before = set(graph.get_operations())
        with graph.as_default():
            self.dys = [array_ops.placeholder(d.dtype.base_dtype, shape=d.shape)
                        for d in dys_outer]
            dxs = gradients_impl.gradients([graph.outputs[i] for i in out_idx], graph.inputs,
                                           grad_ys=self.dys)
            self.dxs = [None if d is None else ops.convert_to_tensor(d) for d in dxs]
        forward, self.backward = fg.split_backward(graph, before, [])
        self.forward = set(forward)
        self._find_reads()

    def _find_reads(self):
        """The forward tensors the backward ops (and results) read: arguments,
        outputs the op already returns, and intermediates."""
        arg_index = {fg.tensor_key(t): k for k, t in enumerate(self.graph.inputs)}
        out_index = {}
        for j, t in enumerate(self.graph.outputs):
            out_index.setdefault(fg.tensor_key(t), j)
        self.args, self.outs, self.mids, seen = set(), set(), [], set()
        reads = [t for op in self.backward for t in op.inputs]
        reads += [t for t in self.dxs if t is not None]
        for t in reads:
            if t.op not in self.forward:
                continue
            k = fg.tensor_key(t)
            if k in arg_index:
                self.args.add(arg_index[k])
            elif k in out_index:
                self.outs.add(out_index[k])
            elif k not in seen:
                seen.add(k)
                self.mids.append(t)

    def new_ops(self, fn):
        """Calls fn() in this graph; returns (its result, the ops it added)."""
        before = set(self.graph.get_operations())
        with self.graph.as_default():
            result = fn()
        return result, [op for op in self.graph.get_operations() if op not in before]


def _zeros_for_input(bg, k, others):
    """Zeros standing for the gradient of input k where this branch gives none:
    of the input's shape, or, for a resource, of the variable's (dtype from another
    branch's gradient)."""
    from minitf.ops import array_ops
    x = bg.graph.inputs[k]
    if x.dtype.base_dtype != dtypes.resource:
        return array_ops.zeros_like(x)
    like = next(o.dxs[k] for o in others if o.dxs[k] is not None)
    return resource_zeros(x, like.dtype.base_dtype)


def resource_zeros(handle, dtype):
    """Zeros of a resource variable's shape, as TensorFlow's default_gradient.zeros_like
    builds them: Fill(VariableShape(handle), 0) of `dtype`."""
    from minitf.framework.op_def_library import outputs_of
    from minitf.ops import array_ops
    shape = outputs_of(apply_op("VariableShape", input=handle))
    return array_ops.zeros(shape, dtype=dtype)


def fresh_fn_name(graph, name):
    """`name`, or a unique variant of it when a library graph's (or an
    enclosing one's) already has it."""
    return fg.unique_fn_name("", name) if c_api_has_function(graph, name) else name


def c_api_has_function(graph, name):
    from minitf import pywrap_tensorflow_internal as c_api
    g = graph
    while g is not None:
        if name in c_api.MT_GraphFunctionNames(g._c_graph):
            return True
        g = getattr(g, "outer_graph", None)
    return False


def _cond_grad(op, *grads):
    """Gradient of If/StatelessIf/Case/StatelessCase: [None for the predicate
    or index] + one gradient (or None) per branch input."""
    from minitf.ops import array_ops
    outer = op.graph
    inputs = list(op.inputs[1:])
    from minitf.ops import gradients_impl
    out_idx = [i for i, g in enumerate(grads)
               if g is not None and gradients_impl._is_trainable(op.outputs[i])]
    if not out_idx:
        return [None] * len(op.inputs)
    dys_outer = [ops.convert_to_tensor(grads[i]) for i in out_idx]
    names = branch_function_names(op)
    branches = [_BranchGrad(fg.function_to_graph(n, outer), out_idx, dys_outer) for n in names]
    dx_pos = [k for k in range(len(inputs)) if any(b.dxs[k] is not None for b in branches)]
    if not dx_pos:
        return [None] * len(op.inputs)
    slots = [(b, t) for b, bg in enumerate(branches) for t in bg.mids]
    # a branch without a gradient for a resource input builds zeros of the variable's
    # shape from the handle (resource_zeros), so that input is passed in too
    zero_handles = {k for k in dx_pos if inputs[k].dtype.base_dtype == dtypes.resource
                    and any(b.dxs[k] is None for b in branches)}
    used_args = sorted(set().union(zero_handles, *[bg.args for bg in branches]))
    used_outs = sorted(set().union(*[bg.outs for bg in branches]))
    base = len(op.outputs)
    if slots:
        _add_intermediate_outputs(op, branches, names, slots)
    grad_inputs = dys_outer + [op.outputs[base + s] for s in range(len(slots))] + \
        [op.outputs[j] for j in used_outs] + [inputs[k] for k in used_args]
    grad_names, stateful = [], False
    for b, (bg, name) in enumerate(zip(branches, names)):
        gname = fg.unique_fn_name("", name + "_grad")
        stateful |= _branch_grad_function(bg, b, branches, slots, used_outs, used_args, dx_pos,
                                          gname)
        grad_names.append(gname)
    out_types = [t.dtype.base_dtype for t in branches[0].grad_outputs]
    shapes = _output_shapes(*[bg.grad_outputs for bg in branches])
    if op.type in ("If", "StatelessIf"):
        grad_op = apply_op("If" if stateful else "StatelessIf", cond=op.inputs[0],
                           input=grad_inputs, Tout=out_types, then_branch=grad_names[0],
                           else_branch=grad_names[1], output_shapes=shapes)
    else:
        grad_op = apply_op("Case" if stateful else "StatelessCase", branch_index=op.inputs[0],
                           input=grad_inputs, Tout=out_types, branches=grad_names,
                           output_shapes=shapes)
    set_functional_attrs(grad_op, [])
    outer.prevent_fetching(grad_op)
    result = [None] * len(op.inputs)
    for pos, t in zip(dx_pos, grad_op.outputs):
        result[1 + pos] = array_ops.identity(t)
    return result


def _add_intermediate_outputs(op, branches, names, slots):
    """Rewrites op's branches to also return the intermediates in `slots`
    ((branch, tensor) pairs; a branch returns a placeholder value in the
    others' slots) and gives op the outputs."""
    new_names = []
    for b, (bg, name) in enumerate(zip(branches, names)):
        extra, dummy_ops = bg.new_ops(lambda: [
            t if b2 == b else placeholder_value(t.dtype) for b2, t in slots])
        arg_ops = set(t.op for t in bg.graph.inputs)
        opers = [o for o in bg.graph.get_operations()
                 if (o in bg.forward or o in dummy_ops) and o not in arg_ops]
        new = fresh_fn_name(op.graph, name + "_rewritten")
        bg.graph.to_function(name=new, opers=opers, outputs=bg.graph.outputs + extra)
        new_names.append(new)
    if op.type in ("If", "StatelessIf"):
        op._set_func_attr("then_branch", new_names[0])
        op._set_func_attr("else_branch", new_names[1])
    else:
        op._set_attr("branches", attr_value_pb2.AttrValue(list=attr_value_pb2.AttrValue.ListValue(
            func=[attr_value_pb2.NameAttrList(name=n) for n in new_names])))
    from minitf.framework import tensor_shape
    op._set_type_list_attr("Tout", [t.dtype for t in op.outputs] + [t.dtype for _, t in slots])
    op._set_shape_list_attr("output_shapes", [t.shape for t in op.outputs] +
                            [tensor_shape.unknown_shape()] * len(slots))
    op._refresh_outputs()


def _branch_grad_function(bg, b, branches, slots, used_outs, used_args, dx_pos, name):
    """Adds branch b's gradient function `name` to the library; returns
    whether it has stateful ops. Its arguments are, for every branch alike:
    the output gradients, the intermediates, the outputs read, the inputs read."""
    from minitf.ops import array_ops
    g = bg.graph

    def build():
        ins = list(bg.dys)
        ins += [t if b2 == b else array_ops.placeholder(t.dtype.base_dtype) for b2, t in slots]
        ins += [g.outputs[j] if j in bg.outs else
                array_ops.placeholder(g.outputs[j].dtype.base_dtype) for j in used_outs]
        ins += [g.inputs[k] for k in used_args]
        others = [o for o in branches if o is not bg]
        outs = [bg.dxs[k] if bg.dxs[k] is not None else _zeros_for_input(bg, k, others)
                for k in dx_pos]
        return ins, outs
    (ins, outs), added = bg.new_ops(build)
    in_ops = set(t.op for t in ins)
    opers = [o for o in bg.backward + added if o not in in_ops]
    bg.grad_outputs = outs
    g.to_function(name=name, opers=opers, inputs=ins, outputs=outs)
    return bool(set(opers) & set(fg.stateful_ops(g)))


# minitf's own gradients of these ops (gradients_impl loads them on first use).
GRADIENTS = {op_type: _cond_grad for op_type in ("If", "StatelessIf", "Case", "StatelessCase")}
