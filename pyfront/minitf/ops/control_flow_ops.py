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
        with ops.control_dependencies(deps):
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
