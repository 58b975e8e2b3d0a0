"""tf.no_op and tf.group."""
from minitf.framework import ops
from minitf.framework.op_def_library import apply_op


def no_op(name=None):
    """An operation that does nothing; useful as a control-dependency anchor (op NoOp)."""
    return apply_op("NoOp", name=name)


def group(*inputs, **kwargs):
    """A NoOp that runs after all `inputs` (Operations or Tensors) (tf.group)."""
    name = kwargs.pop("name", None)
    if kwargs:
        raise TypeError("Unknown keyword arguments: " + ", ".join(kwargs))
    deps = []
    for x in inputs:
        if isinstance(x, (list, tuple)):
            deps.extend(x)
        elif x is not None:
            deps.append(x)
    with ops.name_scope(name, "group_deps", deps) as name:
        if not deps:
            return no_op(name=name)
        # As TensorFlow: inputs on one device give one NoOp on that device; inputs on
        # several give one NoOp per device (in device order) under the named NoOp.
        on_device = {}
        for x in deps:
            on_device.setdefault(x.device, []).append(x)
        if len(on_device) == 1:
            (dev, ds), = on_device.items()
            return _group_control_deps(dev, ds, name=name)
        per_device = [_group_control_deps(dev, on_device[dev])
                      for dev in sorted(on_device, key=lambda d: d or "")]
        with ops.control_dependencies(per_device):
            return no_op(name=name)


def _group_control_deps(dev, deps, name=None):
    with ops.control_dependencies(deps):
        if dev is None:
            return no_op(name=name)
        with ops.device(dev):
            return no_op(name=name)


def with_dependencies(dependencies, output_tensor, name=None):
    """output_tensor through an Identity that runs after `dependencies`
    (TensorFlow's control_flow_ops.with_dependencies); IndexedSlices keep
    their indices and get their values gated."""
    from minitf.framework.indexed_slices import IndexedSlices
    from minitf.ops import array_ops
    with ops.name_scope(name, "control_dependency", list(dependencies) + [output_tensor]) as name:
        with ops.colocate_with(output_tensor.op if hasattr(output_tensor, "op") else None):
            with ops.control_dependencies(dependencies):
                if isinstance(output_tensor, IndexedSlices):
                    return IndexedSlices(array_ops.identity(output_tensor.values, name=name),
                                         output_tensor.indices, output_tensor.dense_shape)
                return array_ops.identity(ops.convert_to_tensor(output_tensor), name=name)


def tuple_(tensors, name=None, control_inputs=None):  # tf.tuple (not to shadow the builtin here)
    """The tensors, each gated to be available only after all are computed (tf.tuple).

    Args:
      tensors: list of Tensors, IndexedSlices or None.
      control_inputs: extra Operations/Tensors to wait for.
    Returns: a list like `tensors` (None stays None). Raises TypeError for a
    control input that is not an Operation or Tensor.
    """
    with ops.name_scope(name, "tuple", [t for t in tensors if t is not None]) as name:
        gating = [t.op for t in tensors if t is not None]
        if control_inputs:
            for c in control_inputs:
                if isinstance(c, ops.Tensor):
                    c = c.op
                elif not isinstance(c, ops.Operation):
                    raise TypeError("'control_inputs' must only contain Operation or Tensor. "
                                    "Received: %s" % type(c))
                gating.append(c)
        gating = sorted(set(gating), key=lambda op: op._id)
        gate = group(*gating)
        return [None if t is None else with_dependencies([gate], t) for t in tensors]


def _v1_builders():
    """The v1 (Switch/Merge frames) builders, when this build has them."""
    try:
        from minitf.ops import control_flow_v1
    except ImportError:
        return None
    return control_flow_v1


def cond(pred, true_fn=None, false_fn=None, strict=False, name=None, fn1=None, fn2=None):
    """Runs `true_fn()` if `pred` is true, else `false_fn()`, inside the graph
    (tf.compat.v1.cond).

    Args:
      pred: a scalar bool Tensor (a tensor of any other shape is squeezed).
      true_fn, false_fn: callables returning the same structure (nested lists,
        tuples, dicts) of tensors of the same dtypes; values may be Python
        numbers, Operations (the result is then `pred`, run after the op) or None.
      strict: accepted; both forms keep singleton lists as TF 2.21 does.
      name: the scope (default "cond"); fn1/fn2: deprecated aliases.
    Returns: the taken branch's result, as tensors named <scope>/Identity_k.
    Raises: TypeError when a function is not callable or the branches'
      structures or dtypes differ (TensorFlow's message).
    Built as one If/StatelessIf node calling two library functions (control
    flow v2, TF 2.21's default); after tf.disable_control_flow_v2() as
    Switch/Merge when the v1 builders are present.
    """
    from minitf.ops import control_flow_util
    if fn1 is not None:
        if true_fn is not None:
            raise TypeError("cond(): 'true_fn' and 'fn1' may not be set simultaneously.")
        true_fn = fn1
    if fn2 is not None:
        if false_fn is not None:
            raise TypeError("cond(): 'false_fn' and 'fn2' may not be set simultaneously.")
        false_fn = fn2
    if not callable(true_fn):
        raise TypeError("'true_fn' must be callable.")
    if not callable(false_fn):
        raise TypeError("'false_fn' must be callable.")
    v1 = _v1_builders()
    if v1 is not None and not control_flow_util.enable_control_flow_v2_for(ops.get_default_graph()):
        return v1.cond(pred, true_fn, false_fn, strict=strict, name=name)
    from minitf.ops import cond_v2
    return cond_v2.cond_v2(pred, true_fn, false_fn, name)


def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
    """Runs branch_fns[branch_index]() (tf.switch_case), `default` (or the last
    branch) for an index out of range.

    Args:
      branch_index: a scalar int32 Tensor.
      branch_fns: a list of callables, a list of (int, callable) pairs or a
        dict {int: callable}; keys must be 0..n-1.
    Returns: the branch's result (all branches return the same structure and dtypes).
    Raises: TypeError / ValueError for malformed branch_fns (TensorFlow's wording).
    Built as one Case/StatelessCase node.
    """
    from minitf.ops import cond_v2
    if isinstance(branch_index, ops.Tensor) and not branch_index.dtype.is_integer:
        raise TypeError("'branch_index' must be an integer Tensor, got %s" % branch_index.dtype)
    if isinstance(branch_fns, dict):
        branch_fns = sorted(branch_fns.items())
    if not isinstance(branch_fns, (list, tuple)) or not branch_fns:
        raise ValueError("Must provide at least one item in `branch_fns`.")
    if isinstance(branch_fns[0], (list, tuple)):
        keys = [k for k, _ in branch_fns]
        if sorted(keys) != list(range(len(keys))):
            raise ValueError("branch indices (keys) must form contiguous range of [0 to %d) but "
                             "found {%s}" % (len(keys), ", ".join(str(k) for k in sorted(keys))))
        fns = [fn for _, fn in sorted(branch_fns, key=lambda p: p[0])]
    else:
        fns = list(branch_fns)
    for fn in fns:
        if not callable(fn):
            raise TypeError("fn for branch %s must be callable." % fns.index(fn))
    if default is not None:
        fns.append(default)
    with ops.name_scope(name, "switch_case", [branch_index]):
        return cond_v2.indexed_case(branch_index, fns)


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,
               back_prop=True, swap_memory=False, name=None, maximum_iterations=None,
               return_same_structure=False):
    """Repeats `body` while `cond` is true, inside the graph (tf.compat.v1.while_loop).

    Args:
      cond: callable taking the loop variables, returning a scalar bool tensor.
      body: callable taking the loop variables, returning new values of the
        same structure, dtypes and (unless shape_invariants relax them) shapes.
      loop_vars: a list or tuple (possibly nested) of tensors or values.
      shape_invariants: TensorShapes per loop variable allowing shapes to change.
      parallel_iterations: stored on the op (iterations run one after another).
      back_prop: False stops gradients at the outputs; swap_memory: accepted.
      maximum_iterations: int32 scalar bounding the number of iterations.
      return_same_structure: False returns a lone tensor for a single loop var.
    Returns: the loop variables after the last iteration.
    Raises: ValueError for mismatched structures (also empty loop_vars) or shapes
      (TensorFlow's message naming the tensor); TypeError for non-callables,
      parallel_iterations < 1 or a dtype change.
    Built as one While/StatelessWhile node (control flow v2, TF 2.21's
    default) that the runtime runs without unrolling.
    """
    from minitf.ops import control_flow_util
    if not callable(cond):
        raise TypeError("'cond' must be callable.")
    if not callable(body):
        raise TypeError("'body' must be callable.")
    if parallel_iterations < 1:
        raise TypeError("'parallel_iterations' must be a positive integer.")
    v1 = _v1_builders()
    if v1 is not None and not control_flow_util.enable_control_flow_v2_for(ops.get_default_graph()):
        return v1.while_loop(cond, body, loop_vars, shape_invariants=shape_invariants,
                             parallel_iterations=parallel_iterations, back_prop=back_prop,
                             swap_memory=swap_memory, name=name,
                             maximum_iterations=maximum_iterations,
                             return_same_structure=return_same_structure)
    from minitf.ops import while_v2
    return while_v2.while_loop(cond, body, loop_vars, shape_invariants=shape_invariants,
                               parallel_iterations=parallel_iterations,
                               maximum_iterations=maximum_iterations, name=name,
                               return_same_structure=return_same_structure, back_prop=back_prop)


def _case_verify_and_canonicalize_args(pred_fn_pairs, exclusive, name):
    """(predicates, actions) from a list/tuple of (pred, fn) pairs or a dict
    (sorted by the predicates' names, as TensorFlow in graph mode)."""
    import collections
    from minitf.framework import dtypes
    if not isinstance(pred_fn_pairs, (list, tuple, dict)):
        raise TypeError("'pred_fn_pairs' must be a list, tuple, or dict. Received: %s"
                        % type(pred_fn_pairs))
    if isinstance(pred_fn_pairs, collections.OrderedDict):
        pred_fn_pairs = list(pred_fn_pairs.items())
    elif isinstance(pred_fn_pairs, dict):
        pred_fn_pairs = sorted(pred_fn_pairs.items(), key=lambda item: item[0].name)
    for pair in pred_fn_pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError("Each entry in 'pred_fn_pairs' must be a 2-tuple. Received {}."
                            .format(pair))
        pred, fn = pair
        if isinstance(pred, ops.Tensor):
            if pred.dtype != dtypes.bool:
                raise TypeError("pred must be Tensor of type bool: %s" % pred.name)
        else:
            raise TypeError("pred must be a Tensor, got: %s" % pred)
        if not callable(fn):
            raise TypeError("fn for pred %s must be callable." % pred.name)
    predicates, actions = zip(*pred_fn_pairs)
    return predicates, actions


def _assert_at_most_n_true(predicates, n, msg):
    """An Assert that at most `n` of the bool scalars `predicates` are true
    (TensorFlow's control_flow_case._assert_at_most_n_true)."""
    from minitf.framework import dtypes
    from minitf.framework.constant_op import constant
    from minitf.ops import array_ops, logging_ops, math_ops
    preds_c = array_ops.stack(predicates, name="preds_c")
    num_true = math_ops.reduce_sum(math_ops.cast(preds_c, dtypes.int32), name="num_true_conds")
    condition = math_ops.less_equal(num_true, constant(n, name="n_true_conds"))
    preds_names = ", ".join(getattr(p, "name", "?") for p in predicates)
    error_msg = ["%s: more than %d conditions (%s) evaluated as True:" % (msg, n, preds_names),
                 preds_c]
    return logging_ops.Assert(condition, data=error_msg, summarize=len(predicates))


def _case_create_default_action(predicates, actions):
    """Without a default the last pair is taken when no earlier predicate holds;
    it asserts that its own predicate holds and no other does."""
    from minitf.ops import array_ops, logging_ops
    k = len(predicates) - 1
    predicate, action = predicates[k], actions[k]
    other_predicates, other_actions = predicates[:k], actions[:k]

    def default_action():
        others_msg = ("Implementation error: selected default action #%d was called, but some "
                      "of other predicates are True: " % k)
        default_msg = ("Input error: None of conditions evaluated as True:",
                       array_ops.stack(predicates, name="preds_c"))
        with ops.control_dependencies([
                _assert_at_most_n_true(other_predicates, n=0, msg=others_msg),
                logging_ops.Assert(predicate, data=default_msg)]):
            return action()
    return default_action, other_predicates, other_actions


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """The function of the first true predicate (tf.compat.v1.case).

    Args:
      pred_fn_pairs: a list/tuple of (bool scalar Tensor, callable) pairs, or a
        dict {pred: callable} (ordered by the predicates' names).
      default: callable run when no predicate holds; without it the last pair
        acts as the default and asserts that its predicate holds.
      exclusive: also assert at run time that at most one predicate holds
        (InvalidArgumentError "Input error: exclusive=True: more than 1
        conditions (...) evaluated as True:").
      strict: passed to tf.cond. name: scope ("case").
    Returns: the chosen function's result (all functions return the same structure).
    Raises: TypeError for malformed pairs (TensorFlow's wording).
    Built as nested tf.cond calls, the first predicate outermost: case/cond,
    and inside its false branch the next cond.
    """
    import functools
    predicates, actions = _case_verify_and_canonicalize_args(pred_fn_pairs, exclusive, name)
    with ops.name_scope(name, "case", [predicates]):
        if default is None:
            default, predicates, actions = _case_create_default_action(predicates, actions)
        fn = default
        for predicate, action in reversed(list(zip(predicates, actions))):
            fn = functools.partial(cond, predicate, true_fn=action, false_fn=fn, strict=strict)
        if exclusive:
            with ops.control_dependencies([
                    _assert_at_most_n_true(predicates, n=1, msg="Input error: exclusive=True")]):
                return fn()
        return fn()
