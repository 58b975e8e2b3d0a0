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
