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
