"""tf.gradients and the gradient registry (TensorFlow 1's gradients_util semantics).

The walk over the graph is here; the gradient of each op type is a C function in the runtime
(runtime/kernels/<family>_grad.c), reached through the SWIG module's `MT_OpGradient`, the same
function `TF_AddGradients` uses from C. A gradient registered from Python
(`tf.RegisterGradient`, or a name given by `Graph.gradient_override_map`) takes precedence for
its op type.
"""
import collections
import enum
import itertools

from minitf import pywrap_tensorflow_internal as c_api
from minitf.framework import dtypes, errors, ops
from minitf.framework.indexed_slices import IndexedSlices, convert_to_tensor_or_indexed_slices

# ---------------------------------------------------------------------------
# Registry


_python_gradients = {}
# Gradients minitf itself writes in Python because they need Python-side graph
# state (the v1 control-flow contexts: minitf.ops.control_flow_grad). Loaded on
# first lookup; a user's tf.RegisterGradient of the same op type is refused with
# KeyError, as TensorFlow refuses registering one of its own twice.
_builtin_gradients = {}
_builtin_loaded = False


def _load_builtin_gradients():
    global _builtin_loaded
    if not _builtin_loaded:
        _builtin_loaded = True
        from minitf.ops import cond_v2, control_flow_grad, while_v2
        _builtin_gradients.update(control_flow_grad.GRADIENTS)
        _builtin_gradients.update(cond_v2.GRADIENTS)
        _builtin_gradients.update(while_v2.GRADIENTS)


def builtin_python_gradient(op_type):
    """minitf's own Python gradient function for op_type, or None (tests use it)."""
    _load_builtin_gradients()
    return _builtin_gradients.get(op_type)


class RegisterGradient:
    """Decorator registering a Python gradient function for an op type (tf.RegisterGradient).

    The function takes (op, *output_grads) and returns one gradient (Tensor, IndexedSlices
    or None) per op input. Raises TypeError when op_type is not a string, KeyError when a
    Python gradient is already registered under that name (as TensorFlow).
    """

    def __init__(self, op_type):
        if not isinstance(op_type, str):
            raise TypeError("op_type must be a string")
        self._op_type = op_type

    def __call__(self, f):
        _load_builtin_gradients()
        if self._op_type in _python_gradients or self._op_type in _builtin_gradients:
            raise KeyError("Registering two gradient with name '%s'! (Previous registration was "
                           "in %s)" % (self._op_type, getattr(
                               _python_gradients.get(self._op_type,
                                                     _builtin_gradients.get(self._op_type)),
                               "__module__", "?")))
        _python_gradients[self._op_type] = f
        return f


def NotDifferentiable(op_type):  # noqa: N802 (TensorFlow's name)
    """Declares op_type not differentiable: its inputs get no gradient
    (tf.NotDifferentiable / tf.NoGradient / tf.no_gradient). TypeError unless a string."""
    if not isinstance(op_type, str):
        raise TypeError("op_type must be a string")
    _python_gradients[op_type] = None


NoGradient = NotDifferentiable
no_gradient = NotDifferentiable

_NO_FN = object()


def _gradient_type(op):
    try:
        mapped = op.get_attr("_gradient_op_type")
    except ValueError:
        return op.type
    return mapped.decode() if isinstance(mapped, bytes) else mapped


def _gradient_function(op):
    """(python_fn or None, grad_type) for op; raises LookupError when none is defined."""
    grad_type = _gradient_type(op)
    if grad_type in _python_gradients:
        fn = _python_gradients[grad_type]
        return (fn if fn is not None else _NO_FN), grad_type
    _load_builtin_gradients()
    if grad_type in _builtin_gradients:
        return _builtin_gradients[grad_type], grad_type
    registered = c_api.MT_GradientRegistered(grad_type)
    if registered == 1:
        return None, grad_type
    if registered == 2:
        return _NO_FN, grad_type
    raise LookupError(
        "No gradient defined for operation'%s' (op type: %s). In general every operation must "
        "have an associated `@tf.RegisterGradient` for correct autodiff, which this op is "
        "lacking. If you want to pretend this operation is a constant in your program, you may "
        "insert `tf.stop_gradient`. This can be useful to silence the error in cases where you "
        "know gradients are not needed, e.g. the forward pass of tf.custom_gradient. Please see "
        "more details in https://www.tensorflow.org/api_docs/python/tf/custom_gradient."
        % (op.name, op.type))


def get_gradient_function(op):
    """The Python gradient function of op, or None for a built-in (C) or absent one."""
    fn, _ = _gradient_function(op)
    return None if fn in (None, _NO_FN) else fn


# ---------------------------------------------------------------------------
# Enums


class AggregationMethod:
    """How gradient terms are combined (tf.AggregationMethod): ADD_N (DEFAULT) sums all terms
    in one AddN; EXPERIMENTAL_TREE / EXPERIMENTAL_ACCUMULATE_N add them pairwise."""
    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


class UnconnectedGradients(enum.Enum):
    """What tf.gradients returns for an x no y depends on (tf.UnconnectedGradients)."""
    NONE = "none"
    ZERO = "zero"


# ---------------------------------------------------------------------------
# The C gradient of one op


_PASS_THROUGH_SPARSE = frozenset(["Identity", "ReadVariableOp", "Snapshot"])


def _c_gradient(op, grad_type, out_grads):
    """Builds the C gradient of op in the current name scope; returns one gradient per input."""
    graph = op.graph
    if grad_type in _PASS_THROUGH_SPARSE and isinstance(out_grads[0], IndexedSlices):
        return [out_grads[0]] + [None] * (len(op.inputs) - 1)
    dys = []
    for g in out_grads:
        if g is None:
            dys.append(None)
        else:
            g = ops.convert_to_tensor(g)
            dys.append(g._as_tf_output())
    scope = graph._name_stack + "/" if graph._name_stack else ""
    try:
        res = c_api.MT_OpGradient(graph._c_graph, op._c_op, grad_type, scope, dys)
    except errors.NotFoundError as e:
        # A C gradient that refuses to differentiate (PreventGradient): TensorFlow's
        # Python gradient raises LookupError there.
        raise LookupError(e.message) from None
    except errors.InvalidArgumentError as e:
        # Graph-construction errors are ValueError, as for ops built in Python; a dtype that
        # does not fit an op's input is TypeError there (TensorFlow's op_def_library).
        if "does not match type" in e.message:
            raise TypeError(e.message) from None
        raise ValueError(e.message) from None
    if res is None:
        raise LookupError("No gradient defined for operation '%s' (op type: %s)" %
                          (op.name, op.type))
    dx, new_ops = res
    _record_c_ops(graph, new_ops)
    out = []
    for item in dx:
        if item is None:
            out.append(None)
        elif isinstance(item[0], tuple):
            values, indices, dense_shape = (_tensor(graph, t) for t in item)
            out.append(IndexedSlices(values, indices, dense_shape))
        else:
            out.append(_tensor(graph, item))
    return out


def _tensor(graph, output):
    c_op, index = output
    return graph._op_from_c(c_op).outputs[index]


def _record_c_ops(graph, c_ops):
    """Gives ops the runtime added the treatment of ops built in Python: names marked used
    (as Graph.unique_name would have left them), control dependencies of the enclosing
    control_dependencies blocks, device and colocation scopes."""
    for c_op in c_ops:
        _mark_name_used(graph, graph._op_from_c(c_op).name)
    for c_op in c_ops:
        op = graph._op_from_c(c_op)
        deps = graph._control_dependencies_for_inputs([t.op for t in op.inputs])
        if deps:
            op._add_control_inputs(deps)
        graph._record_op(c_op, [t.op for t in op.inputs])


def _mark_name_used(graph, name):
    key = name.lower()
    graph._names_in_use[key] = max(graph._names_in_use.get(key, 0), 1)
    base, _, suffix = key.rpartition("_")
    if base and suffix.isdigit():
        graph._names_in_use[base] = max(graph._names_in_use.get(base, 0), int(suffix) + 1)


# ---------------------------------------------------------------------------
# The walk


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _is_trainable(t):
    dt = t.dtype.base_dtype
    return dt.is_floating or dt.is_complex or dt in (dtypes.resource, dtypes.variant)


def _mark_reached(from_ops):
    reached = set()
    queue = collections.deque(from_ops)
    while queue:
        op = queue.popleft()
        if op in reached:
            continue
        reached.add(op)
        for out in op.outputs:
            if _is_trainable(out):
                queue.extend(out.consumers())
    return reached


def _pending_count(to_ops, from_ops, colocate=False):
    """(to_ops reachable from from_ops, pending counts, v1 loop state or None)."""
    reached = _mark_reached(from_ops)
    reachable_to_ops = set(op for op in to_ops if op in reached)
    between, between_list = set(), []
    queue = collections.deque(to_ops)
    while queue:
        op = queue.popleft()
        if op in reached:
            between.add(op)
            between_list.append(op)
            reached.remove(op)
            queue.extend(t.op for t in op.inputs)
    loop_state = None
    if any(_is_loop_exit(op) for op in between_list):
        from minitf.ops import control_flow_state
        loop_state = control_flow_state.MaybeCreateControlFlowState(between_list, between,
                                                                    colocate)
    pending = collections.defaultdict(int)
    for op in between_list:
        for t in op.inputs:
            if t.op in between:
                pending[t.op] += 1
    return reachable_to_ops, pending, loop_state


def _is_loop_exit(op):
    return op.type in ("Exit", "RefExit")


def _is_loop_switch(op):
    if op.type not in ("Switch", "RefSwitch"):
        return False
    from minitf.ops import control_flow_util
    return control_flow_util.IsLoopSwitch(op)


def _stop_ops(from_ops, stop_gradient_ops, pending):
    stop = set(op for op in from_ops if all(pending[t.op] <= 0 for t in op.inputs))
    stop.update(stop_gradient_ops)
    return stop


def _set_grad(grads, t, grad):
    op_grads = grads.get(t.op)
    if not op_grads:
        op_grads = grads[t.op] = [[] for _ in t.op.outputs]
    if isinstance(op_grads[t.value_index], list):
        op_grads[t.value_index].append(grad)
    else:  # a loop Switch seen again from its loop body: the new gradient replaces
        op_grads[t.value_index] = grad


def _default_grad_ys(grad_ys, ys, colocate):
    """The initial gradients: ones of y's shape (named grad_ys_<i>) where none is given,
    else the given one through an Identity of that name, type-checked as TensorFlow."""
    from minitf.ops import array_ops
    if len(grad_ys) != len(ys):
        raise ValueError("Length mismatch. Passed %d grad_ys for %d ys" % (len(grad_ys), len(ys)))
    grad_ys = [None if g is None else convert_to_tensor_or_indexed_slices(
        g, name="grad_y_%d" % i) for i, g in enumerate(grad_ys)]
    out = []
    for i, (y, grad_y) in enumerate(zip(ys, grad_ys)):
        with _maybe_colocate_with(y.op, colocate):
            if grad_y is None:
                if y.dtype.is_complex:
                    raise TypeError("Gradients of complex tensors (%s) must set grad_ys (y.dtype "
                                    "= %s)" % (y, y.dtype.name))
                out.append(array_ops.ones(array_ops.shape(y), dtype=y.dtype,
                                          name="grad_ys_%d" % i))
                continue
            _check_grad_y(y, grad_y)
            if isinstance(grad_y, IndexedSlices):
                out.append(IndexedSlices(
                    array_ops.identity(grad_y.values, name="grad_ys_%d_values" % i),
                    array_ops.identity(grad_y.indices, name="grad_ys_%d_indices" % i),
                    None if grad_y.dense_shape is None else
                    array_ops.identity(grad_y.dense_shape, name="grad_ys_%d_shape" % i)))
            else:
                out.append(array_ops.identity(grad_y, name="grad_ys_%d" % i))
    return out


def _check_grad_y(y, grad_y):
    yd, gd = y.dtype.base_dtype, grad_y.dtype.base_dtype
    if yd.is_floating or yd.is_integer:
        if not gd.is_floating and not gd.is_integer:
            raise TypeError("Gradient type %s generated for real or integer-valued tensor %s "
                            "with type %s must be real or integer" % (gd.name, y, yd.name))
    elif yd.is_complex:
        if not gd.is_complex:
            raise TypeError("Gradient type %s generated for complex-valued tensor %s with type "
                            "%s must be real" % (gd.name, y, yd.name))
    elif yd == dtypes.variant:
        if gd != dtypes.variant:
            raise TypeError("Gradient type %s generated for variant tensor %s with type %s "
                            "must be variant" % (gd.name, y, yd.name))
    elif yd == dtypes.resource:
        if gd == dtypes.resource:
            raise TypeError("Input gradient %s for resource tensor %s should not be a resource"
                            % (grad_y, y))
    else:
        raise TypeError("Tensor %s with type %s must be numeric to obtain a default gradient"
                        % (y, yd.name))


class _maybe_colocate_with:
    def __init__(self, op, colocate):
        self._ctx = ops.colocate_with(op, ignore_existing=False) if colocate else None

    def __enter__(self):
        if self._ctx is not None:
            self._ctx.__enter__()

    def __exit__(self, *exc):
        if self._ctx is not None:
            return self._ctx.__exit__(*exc)
        return False


def _add_n(terms, aggregation_method):
    from minitf.ops import math_ops
    if aggregation_method in (AggregationMethod.EXPERIMENTAL_TREE,
                              AggregationMethod.EXPERIMENTAL_ACCUMULATE_N):
        total = terms[0]
        for t in terms[1:]:
            total = math_ops.add_n([total, t])
        return total
    return math_ops.add_n(terms)


def _aggregate_slices(terms):
    """IndexedSlices terms concatenated (values, then indices), as TensorFlow's
    AggregateIndexedSlicesGradients; int32 indices become int64 when the terms mix them."""
    from minitf.ops import array_ops, math_ops
    with_int32 = [t for t in terms if t.indices.dtype == dtypes.int32]
    if with_int32 and len(with_int32) != len(terms):
        terms = [IndexedSlices(t.values, math_ops.cast(t.indices, dtypes.int64), t.dense_shape)
                 if t.indices.dtype == dtypes.int32 else t for t in terms]
    values = array_ops.concat([ops.convert_to_tensor(t.values) for t in terms], 0)
    indices = array_ops.concat([ops.convert_to_tensor(t.indices) for t in terms], 0)
    return IndexedSlices(values, indices, terms[0].dense_shape)


def _aggregated_grads(grads, op, aggregation_method, loop_state=None):
    if aggregation_method is None:
        aggregation_method = AggregationMethod.DEFAULT
    valid = [AggregationMethod.ADD_N, AggregationMethod.EXPERIMENTAL_TREE,
             AggregationMethod.EXPERIMENTAL_ACCUMULATE_N]
    if aggregation_method not in valid:
        raise ValueError("Invalid `aggregation_method` specified %s. Accepted values are %s."
                         % (aggregation_method, valid))
    out_grads = grads.get(op) or [[] for _ in op.outputs]
    grads[op] = out_grads
    for i, terms in enumerate(out_grads):
        if loop_state and isinstance(terms, (ops.Tensor, IndexedSlices)):
            continue  # a loop Switch's gradient, already aggregated on the first visit
        terms = [t for t in terms if t is not None]
        if not terms:
            out_grads[i] = None
        elif len(terms) == 1:
            out_grads[i] = terms[0]
        elif all(isinstance(t, ops.Tensor) for t in terms):
            if aggregation_method == AggregationMethod.ADD_N:
                out_grads[i] = _add_n(terms, aggregation_method)
            else:
                with ops.name_scope(op.name + "_gradient_sum"):
                    out_grads[i] = _add_n(terms, aggregation_method)
        elif all(isinstance(t, IndexedSlices) for t in terms):
            out_grads[i] = _aggregate_slices(terms)
        elif all(isinstance(t, (ops.Tensor, IndexedSlices)) for t in terms):
            # Dense and sparse terms: one AddN that densifies the IndexedSlices as its
            # inputs (TensorFlow 2.21's AggregateIndexedSlicesGradients).
            from minitf.ops import math_ops
            out_grads[i] = math_ops.add_n(terms)
        else:
            raise TypeError("Invalid gradient %s [index = %d]. Gradients have to be either all "
                            "Tensors or all IndexedSlices" % (terms, i))
    return out_grads


def _zeros_like_output(op, i):
    from minitf.ops import array_ops
    return array_ops.zeros_like(op.outputs[i], optimize=False)


def _zeros_like(t):
    from minitf.ops import array_ops
    return array_ops.zeros_like(t)


def _convert_xs(xs):
    from minitf.ops import variables
    out = []
    for x in xs:
        if isinstance(x, variables.ResourceVariable):
            out.append(x.handle)
        elif isinstance(x, IndexedSlices):
            out.append(x)
        else:
            out.append(ops.convert_to_tensor(x, name="x", as_ref=True))
    return out


def gradients(ys, xs, grad_ys=None, name="gradients", colocate_gradients_with_ops=False,
              gate_gradients=False, aggregation_method=None, stop_gradients=None,
              unconnected_gradients=UnconnectedGradients.NONE):
    """Symbolic derivatives of sum(ys) with respect to each x (tf.compat.v1.gradients).

    Args:
      ys: a Tensor or list of Tensors to differentiate.
      xs: a Tensor, Variable or list of them.
      grad_ys: optional list (one per y) of initial gradients; None = ones of y's shape.
      name: name scope of the gradient nodes ("gradients").
      colocate_gradients_with_ops: place each gradient node with its forward op.
      gate_gradients: group the gradients of each op's inputs with tf.tuple.
      aggregation_method: an AggregationMethod value.
      stop_gradients: Tensors through which no gradient flows.
      unconnected_gradients: UnconnectedGradients.NONE (None for xs that ys do not depend on)
        or ZERO (zeros of x's shape).

    Returns:
      A list with one Tensor, IndexedSlices (for Gather-like paths) or None per x, of x's
      dtype and shape.

    Raises:
      LookupError: an op between xs and ys has no gradient defined.
      ValueError: bad aggregation_method or unconnected_gradients, a gradient shape that does
        not fit its input.
      TypeError: grad_ys of the wrong dtype.
    """
    ys = _as_list(ys)
    from minitf.ops import variables
    ys = [y.value() if isinstance(y, variables.ResourceVariable) else y for y in ys]
    xs = _as_list(xs)
    grad_ys = [None] * len(ys) if grad_ys is None else _as_list(grad_ys)
    try:
        unconnected_gradients = UnconnectedGradients(unconnected_gradients)
    except ValueError:
        raise ValueError("Unknown value for unconnected_gradients: '%s'" % unconnected_gradients)
    stop_gradients = [] if stop_gradients is None else _as_list(stop_gradients)
    graph = ops.get_default_graph()
    with ops.name_scope(name, "gradients", list(ys) + list(xs) + list(stop_gradients) +
                        list(grad_ys)):
        graph.unique_name("uid")
        ys = [convert_to_tensor_or_indexed_slices(y, name="y") for y in ys]
        xs = _convert_xs(xs)
        for x in xs:
            if isinstance(x, ops.Tensor) and x.graph is not graph:
                raise ValueError("Tensor %s must be from the same graph as Tensor %s." %
                                 (x, ys[0]) if ys else "xs must be from the default graph")
        grad_ys = _default_grad_ys(grad_ys, ys, colocate_gradients_with_ops)
        to_ops = [t.op for t in ys]
        from_ops = [t.op for t in xs]
        stop_gradient_ops = [t.op for t in stop_gradients]
        reachable_to_ops, pending, loop_state = _pending_count(
            to_ops, from_ops, colocate_gradients_with_ops)
        grads = {}
        for y, grad_y in zip(ys, grad_ys):
            _set_grad(grads, y, grad_y)
        queue = collections.deque()
        to_ops_set = set()
        for op in to_ops:
            if pending[op] == 0 and op not in to_ops_set and op in reachable_to_ops:
                to_ops_set.add(op)
                queue.append(op)
        if loop_state:
            for y in loop_state.ProcessUnusedLoopExits(pending, to_ops_set):
                if _is_trainable(y):
                    _set_grad(grads, y, loop_state.ZerosLikeForExit(y))
                    queue.append(y.op)
        stop_ops = _stop_ops(from_ops, stop_gradient_ops, pending)
        while queue:
            op = queue.popleft()
            with _maybe_colocate_with(op, colocate_gradients_with_ops):
                if loop_state:
                    loop_state.EnterGradWhileContext(op, before=True)
                out_grads = _aggregated_grads(grads, op, aggregation_method, loop_state)
                if loop_state:
                    loop_state.ExitGradWhileContext(op, before=True)
                in_grads = _backprop_op(op, out_grads, stop_ops, gate_gradients, loop_state,
                                        from_ops)
                for t_in, in_grad in zip(op.inputs, in_grads):
                    if in_grad is None:
                        continue
                    if isinstance(in_grad, ops.Tensor) and t_in.dtype != dtypes.resource:
                        try:
                            in_grad.set_shape(t_in.get_shape())
                        except ValueError:
                            raise ValueError(
                                "Incompatible shapes between op input and calculated input "
                                "gradient. Forward operation: %s. Input index: %d. Original "
                                "input shape: %s. Calculated input gradient shape: %s" %
                                (op.name, list(op.inputs).index(t_in), t_in.shape,
                                 in_grad.shape))
                    _set_grad(grads, t_in, in_grad)
                if loop_state:
                    loop_state.ExitGradWhileContext(op, before=False)
            _update_pending_and_enqueue(grads, op, queue, pending, loop_state)
        if loop_state:
            loop_state.PostProcessing()
    return [_get_grad(grads, x, unconnected_gradients) for x in xs]


def _has_any_not_none_grads(grads, op):
    for g in grads.get(op) or []:
        if isinstance(g, (ops.Tensor, IndexedSlices)):
            return True
        if g and isinstance(g, list) and any(x is not None for x in g):
            return True
    return False


def _update_pending_and_enqueue(grads, op, queue, pending, loop_state):
    """Decrements the pending counts of op's inputs and queues the ready ones.
    In a v1 loop a loop Switch is ready at once (its second visit closes the
    gradient loop), and a loop's Exits are held back until all of them are
    ready: then those with gradients go first and the others get zeros."""
    for x in op.inputs:
        pending[x.op] -= 1
        ready = pending[x.op] == 0
        if loop_state and not ready:
            ready = pending[x.op] > 0 and _is_loop_switch(x.op)
        if not ready:
            continue
        if loop_state and _is_loop_exit(x.op):
            grad_state = loop_state.GetGradState(x.op, before=False)
            grad_state.deferred_exits.append(x)
            grad_state.pending_exits_count -= 1
            if grad_state.pending_exits_count == 0:
                has_not_none_grad = False
                for y in grad_state.deferred_exits:
                    if _has_any_not_none_grads(grads, y.op):
                        has_not_none_grad = True
                        queue.append(y.op)
                    else:
                        grad_state.unused_exits.append(y)
                if has_not_none_grad:
                    for y in grad_state.unused_exits:
                        if _is_trainable(y):
                            _set_grad(grads, y, loop_state.ZerosLikeForExit(y))
                        queue.append(y.op)
                else:
                    for y in grad_state.unused_exits:
                        queue.append(y.op)
        else:
            queue.append(x.op)


def _raise_no_grad_wrt_initial_loop_val(op, from_ops):
    target, queue, visited = None, collections.deque([op]), set()
    while queue:
        cur = queue.popleft()
        if cur in visited:
            continue
        visited.add(cur)
        if cur in from_ops:
            target = cur
            break
        queue.extend(t.op for t in cur.inputs)
    raise ValueError("Cannot compute gradient inside while loop with respect to op '%s'. We do "
                     "not support taking the gradient wrt or through the initial value of a "
                     "loop variable. Gradients can be computed through loop invariants or wrt "
                     "the input parameters to the loop body." % (target.name if target else op.name))


def _switched_variable(op, i):
    """A cond Switch of a variable handle: its untaken side gets zeros of the
    variable's shape (TF's supports_default_grad holds: the handle has shape data)."""
    if op.type not in ("Switch", "RefSwitch"):
        return False
    t = op.inputs[0]
    while t.op.type in ("Switch", "Identity", "Enter"):
        t = t.op.inputs[0]
    return t.op.type == "VarHandleOp"


def _zeros_for_missing(op, i, loop_state):
    """Zeros standing for output i's missing gradient (None for a loop Switch)."""
    if loop_state:
        return loop_state.ZerosLikeV1WhileLoop(op, i)
    if op.type in ("Switch", "RefSwitch"):
        from minitf.ops import control_flow_state
        return control_flow_state.ZerosLike(op, i)
    return _zeros_like_output(op, i)


def _backprop_op(op, out_grads, stop_ops, gate_gradients, loop_state=None, from_ops=()):
    has_out_grads = any(isinstance(g, (ops.Tensor, IndexedSlices)) or g for g in out_grads)
    fn = grad_type = None
    if has_out_grads and op not in stop_ops:
        fn, grad_type = _gradient_function(op)
    if loop_state:
        loop_state.EnterGradWhileContext(op, before=False)
    ctxt = op._get_control_flow_context()
    if op.type in ("Switch", "RefSwitch") and ctxt is not None and ctxt.IsWhileContext() and \
            ctxt == op.graph._get_control_flow_context():
        _raise_no_grad_wrt_initial_loop_val(op, from_ops)
    if not has_out_grads or op in stop_ops or fn is _NO_FN:
        return [None] * len(op.inputs)
    for i, g in enumerate(out_grads):
        if g is None and _is_trainable(op.outputs[i]) and (
                op.outputs[i].dtype != dtypes.resource or _switched_variable(op, i)):
            out_grads[i] = _zeros_for_missing(op, i, loop_state)
    with ops.name_scope(op.name + "_grad"):
        if fn is None:
            in_grads = _c_gradient(op, grad_type, out_grads)
        else:
            in_grads = _as_list(fn(op, *out_grads))
        if len(in_grads) != len(op.inputs):
            raise ValueError("Num gradients %d generated for op %s do not match num inputs %d" %
                             (len(in_grads), op.node_def, len(op.inputs)))
        if gate_gradients and len([g for g in in_grads if g is not None]) > 1:
            from minitf.ops import control_flow_ops
            with ops.device(None):
                in_grads = control_flow_ops.tuple_(in_grads)
    return in_grads


def _get_grad(grads, t, unconnected):
    op_grads = grads.get(t.op)
    grad = op_grads[t.value_index] if op_grads is not None else None
    if isinstance(grad, list):
        grad = grad[0] if len(grad) == 1 else (None if not grad else grad)
    if grad is None and unconnected == UnconnectedGradients.ZERO:
        return _zeros_like(t)
    return grad


# ---------------------------------------------------------------------------
# Built on gradients


def hessians(ys, xs, name="hessians", colocate_gradients_with_ops=False, gate_gradients=False,
             aggregation_method=None):
    """Second derivatives of sum(ys) with respect to each x (tf.compat.v1.hessians).

    Returns one Tensor of shape x.shape + x.shape per x. Each x needs a fully defined static
    shape here (the rows are built one per element rather than in a while_loop).
    Raises ValueError for an x of unknown shape.
    """
    from minitf.ops import array_ops
    xs = _as_list(xs)
    kwargs = dict(colocate_gradients_with_ops=colocate_gradients_with_ops,
                  gate_gradients=gate_gradients, aggregation_method=aggregation_method)
    out = []
    with ops.name_scope(name, "hessians", _as_list(ys) + xs):
        for gradient, x in zip(gradients(ys, xs, **kwargs), xs):
            # x itself (not a new read of a variable): the rows differentiate with respect to it
            shape = x.get_shape()
            if not shape.is_fully_defined():
                raise ValueError("Cannot compute Hessian because element %s has an unknown "
                                 "static shape" % x)
            n = shape.num_elements()
            flat = array_ops.reshape(gradient, [-1])
            rows = []
            for j in range(n):
                row = gradients(flat[j], x, **kwargs)[0]
                rows.append(array_ops.zeros_like(x) if row is None else row)
            out.append(array_ops.reshape(array_ops.stack(rows), shape.concatenate(shape)))
    return out


_custom_ids = itertools.count()


def custom_gradient(f=None):
    """Decorator giving a function its own gradient, in graph mode (tf.custom_gradient).

    `f(*args)` returns `(y, grad_fn)`; `grad_fn(*dy)` returns the gradients of the args (one
    per arg, or a single one for one arg). y may be a Tensor or a list/tuple of Tensors.
    Built as TensorFlow does: an Identity per output, then an IdentityN over outputs and
    inputs whose gradient is grad_fn.
    """
    if f is None:
        return custom_gradient

    def decorated(*args, **kwargs):
        from minitf.ops import array_ops
        args = [ops.convert_to_tensor(a) for a in args]
        result, grad_fn = f(*args, **kwargs)
        flat = list(result) if isinstance(result, (list, tuple)) else [result]
        # TensorFlow passes each output through an Identity before the IdentityN.
        flat = [array_ops.identity(ops.convert_to_tensor(r)) for r in flat]
        name = "CustomGradient-%d" % next(_custom_ids)

        def grad(op, *dys):
            res = grad_fn(*dys[:len(flat)])
            res = list(res) if isinstance(res, (list, tuple)) else [res]
            if len(res) != len(args):
                raise ValueError("custom_gradient function expected to return %d gradients, "
                                 "but returned %d instead." % (len(args), len(res)))
            return [None] * len(flat) + res

        RegisterGradient(name)(grad)
        graph = ops.get_default_graph()
        with graph.gradient_override_map({"IdentityN": name}):
            outs = array_ops.identity_n(flat + args)
        outs = outs[:len(flat)]
        if isinstance(result, (list, tuple)):
            return type(result)(outs) if isinstance(result, tuple) else list(outs)
        return outs[0]

    decorated.__name__ = getattr(f, "__name__", "custom_gradient")
    decorated.__doc__ = f.__doc__
    return decorated
