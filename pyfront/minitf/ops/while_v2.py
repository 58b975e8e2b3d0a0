"""tf.while_loop as a functional op (TensorFlow's while_v2, TF 2.21's default
in compat.v1 graph mode). The loop variables are [loop_counter,
maximum_iterations, *user loop vars, *captured tensors]; cond and body are
traced into FuncGraphs over them and one While/StatelessWhile node runs the
loop in the runtime without unrolling. Node and function names follow
TensorFlow's: <scope>/maximum_iterations, <scope>/loop_counter, the While
node <scope>, outputs <scope>/Identity_k; functions <scope>_cond_<uid> and
<scope>_body_<uid>."""
from minitf.core.framework import attr_value_pb2
from minitf.framework import dtypes, func_graph as fg
from minitf.framework import ops, tensor_shape
from minitf.framework.op_def_library import apply_op
from minitf.ops import cond_v2
from minitf.util import nest


def _placeholders(graph, specs):
    """One argument placeholder per (dtype, shape, name) spec."""
    from minitf.ops import array_ops
    phs = []
    with graph.as_default():
        for dtype, shape, name in specs:
            phs.append(array_ops.placeholder(dtype, shape=shape, name=name))
    graph.inputs = list(phs)
    return phs


def _as_tensor_in(graph, x):
    t = ops.convert_to_tensor(x)
    return graph.capture(t) if t.graph is not graph else t


def _check_shapes(outputs, invariants, inputs):
    for out, inv, inp in zip(outputs, invariants, inputs):
        if not inv.is_compatible_with(out.shape):
            raise ValueError(
                "Input tensor `%s` enters the loop with shape %s, but has shape %s after one "
                "iteration. To allow the shape to vary across iterations, use the "
                "`shape_invariants` argument of tf.while_loop to specify a less-specific shape."
                % (inp.name, inv, out.shape))


def _check_types(outputs, inputs):
    for out, inp in zip(outputs, inputs):
        if out.dtype.base_dtype != inp.dtype.base_dtype:
            raise TypeError("Loop var %s enters the loop with type %s but has type %s after 1 "
                            "iteration. %s type should remain constant." %
                            (inp.name, inp.dtype.base_dtype, out.dtype.base_dtype, inp.name))


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,
               maximum_iterations=None, name=None, return_same_structure=True, back_prop=True):
    """The v2 form of tf.while_loop (see control_flow_ops.while_loop)."""
    from minitf.ops import array_ops, math_ops
    orig = loop_vars
    flat_orig = nest.flatten(orig)
    # A TensorArray enters the loop as its flow and is rebuilt around the new flow in
    # cond and body and on the way out (TensorFlow's _tensor_array_to_flow).
    flat = [ops.convert_to_tensor(_flow_of(v)) for v in flat_orig]
    if shape_invariants is not None:
        nest.assert_same_structure(orig, shape_invariants, check_types=False)
        invariants = [tensor_shape.as_shape(s) for s in nest.flatten(shape_invariants)]
        for t, inv in zip(flat, invariants):
            if not inv.is_compatible_with(t.shape):
                raise ValueError("The shape invariant specified for %s is not compatible with "
                                 "the initial shape of the loop variable. It enters the loop "
                                 "with shape %s, but the specified shape invariant is %s." %
                                 (t.name, t.shape, inv))
    else:
        invariants = [t.shape for t in flat]
    with ops.name_scope(name or "while") as scope:
        outer = ops.get_default_graph()
        with ops.name_scope(None):
            cond_name = fg.unique_fn_name(scope, "cond")
            body_name = fg.unique_fn_name(scope, "body")
        max_iters = ops.convert_to_tensor(-1 if maximum_iterations is None else maximum_iterations,
                                          dtype=dtypes.int32, name="maximum_iterations")
        counter = ops.convert_to_tensor(0, dtype=dtypes.int32, name="loop_counter")
        specs = [(dtypes.int32, [], counter.op.name), (dtypes.int32, [], max_iters.op.name)] + \
            [(t.dtype.base_dtype, inv, None) for t, inv in zip(flat, invariants)]

        cond_graph = fg.FuncGraph(cond_name, outer, collections=outer._collections)
        args = _placeholders(cond_graph, specs)
        with cond_graph.as_default():
            pred = ops.convert_to_tensor(cond(*_user_args(orig, args[2:], flat_orig)))
            if pred.shape.dims is None or pred.shape.dims:
                pred = array_ops.squeeze(pred)
            if maximum_iterations is not None:
                pred = math_ops.logical_and(math_ops.less(args[0], args[1]), pred)
            cond_graph.outputs = [_as_tensor_in(cond_graph, pred)]

        body_graph = fg.FuncGraph(body_name, outer, collections=outer._collections)
        args = _placeholders(body_graph, specs)
        with body_graph.as_default():
            for t in cond_graph.external_captures:  # same order in both functions
                body_graph.capture(t)
            result = body(*_user_args(orig, args[2:], flat_orig))
            if not nest.is_nested(result):
                result = [result]
            nest.assert_same_structure(result, orig, check_types=False)
            outs = [_as_tensor_in(body_graph, _flow_of(x)) for x in nest.flatten(result)]
            body_graph.outputs = [math_ops.add(args[0], 1), args[1]] + outs
        _check_types(outs, flat)
        _check_shapes(outs, invariants, flat)

        captures = body_graph.external_captures
        ncond = len(cond_graph.external_captures)
        for t in captures[ncond:]:  # cond takes the body's extra captures too
            cond_graph.capture(t)
        body_graph.outputs.extend(body_graph.internal_captures)
        inputs = [counter, max_iters] + flat + captures
        num_outputs = len(body_graph.outputs)
        shapes = [t.shape for t in body_graph.outputs]
        shapes[2:2 + len(flat)] = invariants
        stateful = fg.stateful_ops(cond_graph) or fg.stateful_ops(body_graph)
        cond_graph.to_function()
        body_graph.to_function()
        with ops.control_dependencies(cond_graph.control_captures + body_graph.control_captures):
            op = apply_op("While" if stateful else "StatelessWhile", input=inputs,
                          cond=cond_name, body=body_name, output_shapes=shapes,
                          parallel_iterations=parallel_iterations, name=scope)
        op._set_attr("_num_original_outputs", attr_value_pb2.AttrValue(i=num_outputs))
        cond_v2.set_functional_attrs(op, cond_v2.read_only_resource_inputs([body_graph], 0))
        outputs = op.outputs
        if not outer.building_function:
            outputs = [array_ops.identity(t) for t in outputs]
    loop_outs = outputs[2:2 + len(flat)]
    if not back_prop:
        loop_outs = [array_ops.stop_gradient(t) for t in loop_outs]
    packed = _user_args(orig, loop_outs, flat_orig, as_tuple=False)
    if return_same_structure:
        return packed
    flat_packed = nest.flatten(packed)  # a lone TensorArray comes back as one
    return flat_packed[0] if len(flat_packed) == 1 else packed


def _flow_of(x):
    """A TensorArray travels through the loop as its flow (TensorFlow's
    _tensor_array_to_flow)."""
    from minitf.ops import tensor_array_ops
    return x.flow if isinstance(x, tensor_array_ops.TensorArray) else x


def _user_args(orig, tensors, flat_orig, as_tuple=True):
    """`tensors` arranged like the user's loop_vars: as positional arguments
    (as_tuple) or as the loop's result; a TensorArray loop var comes back as a
    TensorArray over the tensor in its place (its flow)."""
    from minitf.ops import tensor_array_ops
    tensors = [tensor_array_ops.build_ta_with_new_flow(o, t)
               if isinstance(o, tensor_array_ops.TensorArray) else t
               for o, t in zip(flat_orig, tensors)]
    packed = nest.pack_sequence_as(orig, tensors)
    if as_tuple:
        return tuple(packed) if isinstance(packed, (list, tuple)) else (packed,)
    return packed


# ---------------------------------------------------------------------------
# Gradient (TensorFlow's while_v2._WhileGrad, built the same way). The body
# function is rebuilt as a FuncGraph and differentiated there. Every forward
# value the backward ops read that changes between iterations is pushed onto
# a TensorList accumulator by a rewritten forward loop (new loop variables
# starting as EmptyTensorList) and popped, last first, by the gradient loop,
# which runs as many iterations as the forward one did (its counter output).
# Loop invariants the backward ops read are passed to the gradient loop as
# they are. A resource's gradient is a sum carried across the iterations.


class _BodyGrad:
    """The body function differentiated inside its FuncGraph."""

    def __init__(self, op, body, positions):
        from minitf.framework import dtypes
        from minitf.ops import array_ops, gradients_impl
        self.body = body
        self.before = set(body.get_operations())
        self.float_pos = [p for p in positions if op.outputs[p].dtype != dtypes.resource]
        with body.as_default():
            self.dys = {p: array_ops.placeholder(op.outputs[p].dtype.base_dtype,
                                                 shape=op.outputs[p].shape)
                        for p in self.float_pos}
            dxs = gradients_impl.gradients([body.outputs[p] for p in self.float_pos],
                                           [body.inputs[p] for p in positions],
                                           grad_ys=[self.dys[p] for p in self.float_pos])
            self.dxs = {p: None if d is None else ops.convert_to_tensor(d)
                        for p, d in zip(positions, dxs)}
        self.res_pos = [p for p in positions if p not in self.dys and self.dxs[p] is not None]
        forward, self.backward = fg.split_backward(body, self.before, [])
        self.forward = set(forward)

    def reads(self):
        """(tensors to accumulate, loop-invariant argument positions read):
        the forward values the backward ops and results read."""
        body = self.body
        arg_pos = {fg.tensor_key(t): k for k, t in enumerate(body.inputs)}
        invariant = {k for k, (i, o) in enumerate(zip(body.inputs, body.outputs))
                     if fg.tensor_key(i) == fg.tensor_key(o)}
        acc, inv, seen = [], set(), set()
        reads = [t for op in self.backward for t in op.inputs]
        reads += [t for t in self.dxs.values() if t is not None]
        for t in reads:
            if t.op not in self.forward:
                continue
            k = fg.tensor_key(t)
            if k in arg_pos and arg_pos[k] in invariant:
                inv.add(arg_pos[k])
            elif k not in seen:
                seen.add(k)
                acc.append(t)
        return acc, sorted(inv)


def _accumulator_init(t, max_iters):
    """EmptyTensorList for forward value t, named as TensorFlow names it
    (<op>_<output>/accumulator in the gradient's scope)."""
    from minitf.ops import list_ops
    shape = t.shape if t.shape.is_fully_defined() else None
    with ops.name_scope("%s_%d" % (t.op.name, t.value_index)):
        return list_ops.empty_tensor_list(shape, t.dtype.base_dtype, max_num_elements=max_iters,
                                          name="accumulator")


def _rewrite_forward(op, body, bg, acc_values, body_name, cond_name):
    """Makes op's loop push acc_values onto new TensorList loop variables;
    returns the loop's final lists (op's new outputs)."""
    from minitf.framework import dtypes
    from minitf.ops import array_ops, list_ops
    if not acc_values:
        return []
    outer = op.graph
    inits = [_accumulator_init(t, op.inputs[1]) for t in acc_values]
    with body.as_default(), body.name_scope(None):
        acc_args = [array_ops.placeholder(dtypes.variant, shape=[]) for _ in acc_values]
        pushes = [list_ops.tensor_list_push_back(a, t) for a, t in zip(acc_args, acc_values)]
    push_ops = set(t.op for t in pushes)
    arg_ops = set(t.op for t in body.inputs + acc_args)
    fwd_ops = [o for o in body.get_operations()
               if (o in bg.forward or o in push_ops) and o not in arg_ops]
    new_body = cond_v2.fresh_fn_name(outer, body_name + "_rewritten")
    body.to_function(name=new_body, opers=fwd_ops, inputs=body.inputs + acc_args,
                     outputs=body.outputs + pushes)
    new_cond = _cond_with_extra_args(outer, cond_name, [dtypes.variant] * len(acc_values))
    n_before = len(op.outputs)
    op._set_type_list_attr("T", [t.dtype for t in op.inputs] + [dtypes.variant] * len(inits))
    op._add_while_inputs(inits)
    op._set_func_attr("body", new_body)
    op._set_func_attr("cond", new_cond)
    op._set_shape_list_attr("output_shapes", [t.shape for t in op.outputs] +
                            [tensor_shape.TensorShape([])] * len(inits))
    op._refresh_outputs()
    return op.outputs[n_before:]


def _while_grad(op, *grads):
    """Gradient of While/StatelessWhile: one gradient (or None) per input."""
    from minitf.framework import constant_op, dtypes
    from minitf.ops import array_ops
    outer = op.graph
    try:
        n_orig = op.get_attr("_num_original_outputs")
    except ValueError:
        n_orig = len(op.outputs)
    from minitf.ops import gradients_impl
    positions = [p for p in range(2, n_orig) if gradients_impl._is_trainable(op.inputs[p])]
    if not positions:
        return [None] * len(op.inputs)
    body_name, cond_name = op.get_attr("body").name, op.get_attr("cond").name
    body = fg.function_to_graph(body_name, outer)
    bg = _BodyGrad(op, body, positions)
    if all(bg.dxs[p] is None for p in bg.float_pos) and not bg.res_pos:
        return [None] * len(op.inputs)
    acc_values, inv = bg.reads()
    acc_finals = _rewrite_forward(op, body, bg, acc_values, body_name, cond_name)

    grad_body, grad_ops, out_for = _grad_body_function(body, bg, acc_values, inv, body_name)
    dy_init = [ops.convert_to_tensor(grads[p]) if grads[p] is not None
               else array_ops.zeros_like(op.outputs[p]) for p in bg.float_pos]
    res_init = [cond_v2.resource_zeros(op.outputs[p], bg.dxs[p].dtype.base_dtype)
                for p in bg.res_pos]
    counter = constant_op.constant(0, dtype=dtypes.int32, name="grad_counter")
    loop_inputs = [counter, op.inputs[1], op.outputs[0]] + dy_init + res_init + \
        list(acc_finals) + [op.inputs[k] for k in inv]
    grad_cond = _grad_cond_function(outer, cond_name, [t.dtype.base_dtype for t in loop_inputs])
    stateful = bool(set(grad_ops) & set(fg.stateful_ops(body)))
    shapes = [t.shape for t in loop_inputs]
    first_list = 3 + len(dy_init) + len(res_init)
    for i in range(first_list, first_list + len(acc_finals)):
        shapes[i] = tensor_shape.TensorShape([])
    grad_op = apply_op("While" if stateful else "StatelessWhile", input=loop_inputs,
                       cond=grad_cond, body=grad_body, output_shapes=shapes,
                       parallel_iterations=op.get_attr("parallel_iterations"), name="while_grad")
    grad_op._set_attr("_num_original_outputs", attr_value_pb2.AttrValue(i=len(loop_inputs)))
    cond_v2.set_functional_attrs(grad_op, [])
    outs = [array_ops.identity(t) for t in grad_op.outputs]  # TensorFlow names them all
    result = [None] * len(op.inputs)
    for p, i in out_for.items():
        result[p] = outs[i]
    return result


def _cond_with_extra_args(outer, cond_name, extra_types):
    """cond_name with unused arguments of extra_types appended (the loop got
    accumulators); the same name when there are none."""
    from minitf.ops import array_ops
    if not extra_types:
        return cond_name
    g = fg.function_to_graph(cond_name, outer)
    with g.as_default(), g.name_scope(None):
        extra = [array_ops.placeholder(t, shape=[]) for t in extra_types]
    name = cond_v2.fresh_fn_name(outer, cond_name + "_rewritten")
    arg_ops = set(t.op for t in g.inputs + extra)
    g.to_function(name=name, opers=[o for o in g.get_operations() if o not in arg_ops],
                  inputs=g.inputs + extra)
    return name


def _grad_cond_function(outer, cond_name, types):
    """The gradient loop's condition: counter < total iterations."""
    from minitf.ops import array_ops, math_ops
    name = fg.unique_fn_name("", cond_name + "_grad")
    g = fg.FuncGraph(name, outer, collections=outer._collections)
    with g.as_default():
        args = [array_ops.placeholder(t) for t in types]
        g.inputs = args
        g.outputs = [math_ops.less(args[0], args[2])]
    g.to_function()
    return name


def _grad_body_function(body, bg, acc_values, inv, body_name):
    """Builds the gradient loop's body into `body` and adds it to the library.
    Returns (its name, its ops, {forward input position: output index})."""
    from minitf import pywrap_tensorflow_internal as c_api
    from minitf.framework import dtypes
    from minitf.ops import array_ops, list_ops, math_ops
    before = set(body.get_operations())
    with body.as_default(), body.name_scope(None):
        counter, max_it, total = [array_ops.placeholder(dtypes.int32, shape=[]) for _ in range(3)]
        res_acc = [array_ops.placeholder(bg.dxs[p].dtype.base_dtype, shape=bg.dxs[p].shape)
                   for p in bg.res_pos]
        lists = [array_ops.placeholder(dtypes.variant, shape=[]) for _ in acc_values]
    popped_lists = []
    for lst, t in zip(lists, acc_values):
        readers = [(o, i) for o in bg.backward for i, x in enumerate(o.inputs)
                   if fg.tensor_key(x) == fg.tensor_key(t)]
        with body.as_default(), body.name_scope(readers[0][0].name + "/" if readers else None):
            rest, value = list_ops.tensor_list_pop_back(lst, t.dtype.base_dtype)
        for o, i in readers:
            c_api.TF_UpdateEdge(body._c_graph, value._as_tf_output(), (o._c_op, i))
        popped_lists.append(rest)
        for p in list(bg.dxs):
            if bg.dxs[p] is not None and fg.tensor_key(bg.dxs[p]) == fg.tensor_key(t):
                bg.dxs[p] = value
    with body.as_default(), body.name_scope(None):
        outs = [math_ops.add(counter, 1), max_it, total]
        out_for = {}
        for p in bg.float_pos:
            out_for[p] = len(outs)
            d = bg.dxs[p]
            outs.append(d if d is not None else array_ops.zeros_like(bg.dys[p]))
        for p, acc in zip(bg.res_pos, res_acc):
            out_for[p] = len(outs)
            outs.append(math_ops.add(acc, bg.dxs[p]))
        outs += popped_lists
        inv_args = [body.inputs[k] for k in inv]
        outs += inv_args
    ins = [counter, max_it, total] + [bg.dys[p] for p in bg.float_pos] + res_acc + lists + inv_args
    added = [o for o in body.get_operations() if o not in before]
    in_ops = set(t.op for t in ins)
    opers = [o for o in bg.backward + added if o not in in_ops]
    name = fg.unique_fn_name("", body_name + "_grad")
    body.to_function(name=name, opers=opers, inputs=ins, outputs=outs)
    return name, opers, out_for


# minitf's own gradients of these ops (gradients_impl loads them on first use).
GRADIENTS = {op_type: _while_grad for op_type in ("While", "StatelessWhile")}
