"""tf.raw_ops: one function per op registered in C, generated from its OpDef.

`minitf.raw_ops.AddV2(x=a, y=b, name=None)` takes the OpDef's input and attr
names as keyword arguments and returns the op's output Tensor (or list, or
the Operation when it has no outputs), exactly like TensorFlow's raw_ops.
"""
from minitf.framework import op_def_library

# TensorFlow's raw_ops name a few inputs differently from their OpDef (its api_def
# renames); the same keyword names work here: {op type: {raw_ops name: OpDef name}}.
_ARG_RENAMES = {
    "All": {"axis": "reduction_indices"},
    "Any": {"axis": "reduction_indices"},
    "EuclideanNorm": {"axis": "reduction_indices"},
    "ExpandDims": {"axis": "dim"},
    "Max": {"axis": "reduction_indices"},
    "Mean": {"axis": "reduction_indices"},
    "Min": {"axis": "reduction_indices"},
    "Prod": {"axis": "reduction_indices"},
    "Select": {"x": "t", "y": "e"},
    "Split": {"axis": "split_dim"},
    "SplitV": {"axis": "split_dim"},
    "Squeeze": {"axis": "squeeze_dims"},
    "Sum": {"axis": "reduction_indices"},
    "Where": {"condition": "input"},
}


def _make(op_type):
    op_def = op_def_library.get_op_def(op_type)
    renames = _ARG_RENAMES.get(op_type, {})

    def fn(name=None, **kwargs):
        kwargs = {renames.get(k, k): v for k, v in kwargs.items()}
        return op_def_library.outputs_of(op_def_library.apply_op(op_type, name=name, **kwargs),
                                         op_def)
    inverse = {v: k for k, v in renames.items()}
    args = [inverse.get(a.name, a.name) for a in op_def.input_arg] + [a.name for a in op_def.attr]
    fn.__name__ = op_type
    fn.__qualname__ = op_type
    fn.__doc__ = "Creates a %s operation. Keyword arguments: %s, name." % (
        op_type, ", ".join(args) or "none")
    return fn


def __getattr__(op_type):
    if op_type.startswith("__") or op_type not in op_def_library.get_registered_ops():
        raise AttributeError("module 'minitf.raw_ops' has no attribute %r" % op_type)
    fn = _make(op_type)
    globals()[op_type] = fn
    return fn


def __dir__():
    return sorted(op_def_library.get_registered_ops())
