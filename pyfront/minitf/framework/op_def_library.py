"""Building operations from the C op registry.

Every op's signature (inputs, outputs, attrs, allowed types, defaults) is
read from the C registry as OpDef protos (TF_GetAllOpList); nothing here
repeats a signature. apply_op infers type attrs from input dtypes, converts
Python values to Const tensors of the right dtype, groups list inputs and
creates the operation through the C API (TF_NewOperation ... TF_FinishOperation).
Mirrors tensorflow/python/framework/op_def_library.py.
"""
import contextlib
import numpy as np

from minitf import pywrap_tensorflow_internal as c_api
from minitf.core.framework import attr_value_pb2, op_def_pb2, tensor_pb2, tensor_shape_pb2
from minitf.framework import dtypes, errors, ops, tensor_shape

_registry = None


def get_registered_ops():
    """{op type: OpDef} for every op registered in C (read once)."""
    global _registry
    if _registry is None:
        op_list = op_def_pb2.OpList.FromString(c_api.MT_GetAllOpList())
        _registry = {op.name: op for op in op_list.op}
    return _registry


def get_op_def(op_type):
    """The OpDef of `op_type`; NotFoundError if no such op is registered."""
    op_def = get_registered_ops().get(op_type)
    if op_def is None:
        raise errors.NotFoundError(None, None, "Op type not registered '%s' in binary." % op_type)
    return op_def


# -- attr values -> C setters ----------------------------------------------

def _as_bytes(v):
    return v.encode() if isinstance(v, str) else bytes(v)


def _shape_dims(v):
    if isinstance(v, tensor_shape_pb2.TensorShapeProto):
        v = tensor_shape.TensorShape(v)
    return tensor_shape.as_shape(v)._as_c_dims()


def _tensor_value(v):
    from minitf.framework import tensor_util
    if isinstance(v, tensor_pb2.TensorProto):
        return tensor_util.MakeNdarray(v)
    return np.asarray(v)


def _prepare_attr(name, attr_type, value):
    """(setter, args, tensors) for attr `name` of kind `attr_type`, done before
    TF_NewOperation so a conversion error leaves no half-built op behind."""
    if isinstance(value, attr_value_pb2.AttrValue):
        return c_api.TF_SetAttrValueProto, (name, value.SerializeToString()), []
    try:
        if attr_type == "string":
            return c_api.TF_SetAttrString, (name, _as_bytes(value)), []
        if attr_type == "int":
            return c_api.TF_SetAttrInt, (name, int(value)), []
        if attr_type == "float":
            return c_api.TF_SetAttrFloat, (name, float(value)), []
        if attr_type == "bool":
            if not isinstance(value, (bool, np.bool_)):
                raise TypeError("Expected bool for argument '%s' not %r." % (name, value))
            return c_api.TF_SetAttrBool, (name, bool(value)), []
        if attr_type == "type":
            return c_api.TF_SetAttrType, (name, dtypes.as_dtype(value).as_datatype_enum), []
        if attr_type == "shape":
            return c_api.TF_SetAttrShape, (name, _shape_dims(value)), []
        if attr_type == "tensor":
            t = c_api.MT_NdarrayToTensor(_tensor_value(value), 0)
            return c_api.TF_SetAttrTensor, (name, t), [t]
        if attr_type == "func":
            fname = value.name if hasattr(value, "name") else value
            return c_api.TF_SetAttrFuncName, (name, _as_bytes(fname)), []
        if attr_type.startswith("list("):
            if not isinstance(value, (list, tuple)):
                raise TypeError("Expected list for attr %s, obtained %s instead." %
                                (name, type(value).__name__))
            kind = attr_type[5:-1]
            if kind == "string":
                return c_api.TF_SetAttrStringList, (name, [_as_bytes(v) for v in value]), []
            if kind == "int":
                return c_api.TF_SetAttrIntList, (name, [int(v) for v in value]), []
            if kind == "float":
                return c_api.TF_SetAttrFloatList, (name, [float(v) for v in value]), []
            if kind == "bool":
                return c_api.TF_SetAttrBoolList, (name, [bool(v) for v in value]), []
            if kind == "type":
                return c_api.TF_SetAttrTypeList, (
                    name, [dtypes.as_dtype(v).as_datatype_enum for v in value]), []
            if kind == "shape":
                return c_api.TF_SetAttrShapeList, (name, [_shape_dims(v) for v in value]), []
            if kind == "tensor":
                ts = [c_api.MT_NdarrayToTensor(_tensor_value(v), 0) for v in value]
                return c_api.TF_SetAttrTensorList, (name, ts), ts
            if kind == "func":
                funcs = [attr_value_pb2.NameAttrList(name=v.name if hasattr(v, "name") else v)
                         for v in value]
                proto = attr_value_pb2.AttrValue(list=attr_value_pb2.AttrValue.ListValue(func=funcs))
                return c_api.TF_SetAttrValueProto, (name, proto.SerializeToString()), []
    except (TypeError, ValueError) as e:
        raise TypeError("Could not convert attr '%s' (%s) from %r: %s" %
                        (name, attr_type, value, e)) from None
    raise TypeError("Unsupported attr kind %s for attr '%s'" % (attr_type, name))


def _attr_kind_from_value(value):
    if isinstance(value, attr_value_pb2.AttrValue):
        return "proto"
    if isinstance(value, (bool, np.bool_)):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, (str, bytes)):
        return "string"
    if isinstance(value, dtypes.DType):
        return "type"
    raise TypeError("cannot infer the kind of attr value %r" % (value,))


def create_c_op(graph, op_def, name, inputs, attrs):
    """Adds one operation to `graph` through the C API and returns it.

    `inputs` follows op_def.input_arg: a Tensor per single argument, a list of
    Tensors per list argument. `attrs`: {name: value or AttrValue}. Attrs
    left out take their registered defaults (filled by TF_FinishOperation).
    ValueError with the C message for invalid ops (TensorFlow raises
    ValueError from op construction), NotFoundError for unknown op types.
    """
    attr_kinds = {a.name: a.type for a in op_def.attr}
    setters = []
    owned = []
    try:
        for k, v in attrs.items():
            kind = attr_kinds.get(k) or _attr_kind_from_value(v)
            setter, args, tensors = _prepare_attr(k, kind, v)
            owned.extend(tensors)
            setters.append((setter, args))
        flat_inputs = []
        input_ops = []
        if len(inputs) != len(op_def.input_arg):
            raise ValueError("Op %s takes %d inputs, got %d" %
                             (op_def.name, len(op_def.input_arg), len(inputs)))
        for arg, inp in zip(op_def.input_arg, inputs):
            is_list = bool(arg.number_attr or arg.type_list_attr)
            if is_list:
                items = list(inp) if isinstance(inp, (list, tuple)) else [inp]
                items = [_check_graph(graph, t) for t in items]
                flat_inputs.append((True, [t._as_tf_output() for t in items]))
                input_ops.extend(t.op for t in items)
            else:
                inp = _check_graph(graph, inp)
                flat_inputs.append((False, inp._as_tf_output()))
                input_ops.append(inp.op)
        control = graph._control_dependencies_for_inputs(input_ops)
        device = graph._current_device()
        with graph._lock:
            desc = c_api.TF_NewOperation(graph._c_graph, op_def.name, name)
            for is_list, x in flat_inputs:
                if is_list:
                    c_api.TF_AddInputList(desc, x)
                else:
                    c_api.TF_AddInput(desc, x)
            for c in control:
                c_api.TF_AddControlInput(desc, c._c_op)
            if device:
                c_api.TF_SetDevice(desc, device)
            first_error = None
            for setter, args in setters:
                try:
                    setter(desc, *args)
                except (errors.OpError, TypeError, ValueError) as e:  # reported after Finish
                    first_error = first_error or e
            try:
                c_op = c_api.TF_FinishOperation(desc)
            except errors.InvalidArgumentError as e:
                raise ValueError(e.message) from None
            if first_error is not None:
                raise ValueError(getattr(first_error, "message", str(first_error)))
            return graph._record_op(c_op, input_ops)
    finally:
        for t in owned:
            c_api.TF_DeleteTensor(t)


def _check_graph(graph, t):
    """t, or inside a function graph the placeholder capturing an outer t."""
    if not isinstance(t, ops.Tensor):
        raise TypeError("Expected a Tensor input, got %r" % (t,))
    if t.graph is not graph:
        if graph.building_function and hasattr(graph, "capture"):
            return graph.capture(t)
        raise ValueError("Tensor %s must be from the same graph as the operation." % t.name)
    return t


def _allowed_types(attr_def):
    if attr_def is None or not attr_def.HasField("allowed_values"):
        return None
    return [dtypes.as_dtype(t) for t in attr_def.allowed_values.list.type]


def _check_allowed(arg_name, op_type, dtype, attr_def):
    allowed = _allowed_types(attr_def)
    if allowed and dtype.base_dtype not in allowed:
        raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed "
                        "values: %s" % (arg_name, dtype.name,
                                        ", ".join(t.name for t in allowed)))


def _check_type_attr(name, value, attr_def):
    """TypeError (as TensorFlow's op_def_library) for a type attr given outside its allowed set."""
    if attr_def.type != "type" or isinstance(value, attr_value_pb2.AttrValue):
        return
    allowed = _allowed_types(attr_def)
    dtype = dtypes.as_dtype(value)
    if allowed and dtype.base_dtype not in allowed:
        raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed "
                        "values: %s" % (name, dtype.name, ", ".join(t.name for t in allowed)))


def _default_type(attr_def):
    if attr_def is not None and attr_def.HasField("default_value") and \
            attr_def.default_value.WhichOneof("value") == "type":
        return dtypes.as_dtype(attr_def.default_value.type)
    return None


def _allowed_types(attr_def):
    if attr_def is None or not attr_def.HasField("allowed_values"):
        return None
    return [dtypes.as_dtype(t) for t in attr_def.allowed_values.list.type] or None


def _convert(value, dtype, name, op_type, arg_name, preferred=None):
    if isinstance(value, ops.Tensor):
        return value
    try:
        return ops.convert_to_tensor(value, dtype=dtype, name=name, preferred_dtype=preferred)
    except (TypeError, ValueError) as e:
        if dtype is None:
            raise
        raise TypeError("Expected %s passed to parameter '%s' of op '%s', got %r of type '%s' "
                        "instead. Error: %s" % (dtype.name, arg_name, op_type, value,
                                                type(value).__name__, e)) from None


def apply_op(op_type, name=None, **keywords):
    """Creates an `op_type` operation from keyword inputs and attrs.

    Inputs may be Tensors or Python/NumPy values (converted to Const in the
    op's name scope, named after the argument, e.g. "add_1/y"). Type attrs are
    inferred from input dtypes; TypeError on dtype mismatches or types not
    allowed by the registration, ValueError from C validation/shape inference.
    Returns the Operation.
    """
    op_def = get_op_def(op_type)
    attr_defs = {a.name: a for a in op_def.attr}
    values = [v for v in keywords.values() if isinstance(v, ops.Tensor)]
    for v in keywords.values():
        if isinstance(v, (list, tuple)):
            values.extend(x for x in v if isinstance(x, ops.Tensor))
    g = ops._get_graph_from_inputs(values)
    with g.as_default(), g.name_scope(name or op_type) as scope:
        attrs = {}
        inputs = []
        for arg in op_def.input_arg:
            if arg.name not in keywords:
                raise TypeError("No argument for input %s found in %s" % (arg.name, op_type))
            value = keywords.pop(arg.name)
            if arg.number_attr:
                inputs.append(_convert_list_same_type(op_type, arg, value, attrs, keywords,
                                                      attr_defs))
            elif arg.type_list_attr:
                given = keywords.get(arg.type_list_attr)
                if not isinstance(value, (list, tuple)):
                    raise TypeError("Expected list for '%s' argument to '%s' Op, not %s." %
                                    (arg.name, op_type, value))
                ts = [_convert(v, dtypes.as_dtype(given[i]) if given else None,
                               "%s_%d" % (arg.name, i), op_type, arg.name)
                      for i, v in enumerate(value)]
                attrs[arg.type_list_attr] = [t.dtype.base_dtype for t in ts]
                inputs.append(ts)
            else:
                if arg.is_ref:
                    value = _as_ref(op_type, arg, value)
                inputs.append(_convert_single(op_type, arg, value, attrs, keywords, attr_defs))
        for k in list(keywords):
            if k in attr_defs:
                v = keywords.pop(k)
                if v is None:
                    continue
                if attr_defs[k].type == "type":  # TensorFlow checks given types too
                    _check_allowed(k, op_type, dtypes.as_dtype(v), attr_defs[k])
                if k in attrs and attr_defs[k].type == "type" and \
                        dtypes.as_dtype(v) != attrs[k]:
                    raise TypeError("Input has type %s that does not match attr %s=%s of '%s' Op" %
                                    (attrs[k].name, k, dtypes.as_dtype(v).name, op_type))
                _check_type_attr(k, v, attr_defs[k])
                attrs[k] = v
                ad = attr_defs[k]
                if ad.type.startswith("list(") and ad.has_minimum and \
                        isinstance(v, (list, tuple)) and len(v) < ad.minimum:
                    # TensorFlow's op_def_library wording
                    raise ValueError("Attr '%s' of '%s' Op passed list of length %d less than "
                                     "minimum %d." % (k, op_type, len(v), ad.minimum))
                if ad.type == "int" and ad.has_minimum and \
                        isinstance(v, (int, np.integer)) and v < ad.minimum:
                    raise ValueError("Attr '%s' of '%s' Op passed %d less than minimum %d." %
                                     (k, op_type, v, ad.minimum))
        if keywords:
            raise TypeError("%s got unexpected keyword arguments: %s" %
                            (op_type, ", ".join(sorted(keywords))))
        # As TensorFlow: an op updating a ref variable is colocated with it.
        refs = [t for a, t in zip(op_def.input_arg, inputs) if a.is_ref]
        if refs:
            with contextlib.ExitStack() as stack:
                for t in refs:
                    stack.enter_context(g.colocate_with(t.op))
                return g.create_op(op_type, inputs, name=scope, attrs=attrs, op_def=op_def)
        return g.create_op(op_type, inputs, name=scope, attrs=attrs, op_def=op_def)


def _as_ref(op_type, arg, value):
    """The ref tensor for a Ref(T) input (a RefVariable gives its VariableV2 output);
    TypeError (TensorFlow's words) for anything that is not a mutable tensor."""
    ref = getattr(value, "_ref", None)
    if callable(ref):
        value = ref()
    if not isinstance(value, ops.Tensor) or not value.dtype._is_ref_dtype:
        raise TypeError("'%s' Op requires that input '%s' be a mutable tensor (e.g.: a "
                        "tf.Variable)" % (op_type, arg.name))
    return value


def _convert_single(op_type, arg, value, attrs, keywords, attr_defs):
    if arg.type:
        dtype = dtypes.as_dtype(arg.type)
    elif arg.type_attr in attrs:
        dtype = attrs[arg.type_attr]
    elif keywords.get(arg.type_attr) is not None:
        dtype = dtypes.as_dtype(keywords[arg.type_attr])
    else:
        dtype = None
    preferred = _default_type(attr_defs.get(arg.type_attr)) if dtype is None else None
    t = None
    allowed = _allowed_types(attr_defs.get(arg.type_attr)) if preferred is not None else None
    if allowed and not isinstance(value, ops.Tensor):
        # As TF's _apply_op_helper: the plain conversion when it gives an allowed dtype
        # ([1, 2] for a `Tseed: {int32, int64} = DT_INT64` stays int32), else the default.
        try:
            t = ops.convert_to_tensor(value, name=arg.name)
        except (TypeError, ValueError):
            t = None
        if t is not None and t.dtype.base_dtype not in allowed:
            t = None
    if t is None:
        t = _convert(value, dtype, arg.name, op_type, arg.name, preferred)
    if dtype is not None and t.dtype.base_dtype != dtype.base_dtype:
        if arg.type_attr in attrs:
            first = next(a.name for a in _args_with_attr(op_type, arg.type_attr))
            raise TypeError("Input '%s' of '%s' Op has type %s that does not match type %s of "
                            "argument '%s'." % (arg.name, op_type, t.dtype.name, dtype.name, first))
        raise TypeError("Input '%s' of '%s' Op has type %s that does not match expected type of "
                        "%s." % (arg.name, op_type, t.dtype.name, dtype.name))
    if arg.type_attr:
        _check_allowed(arg.name, op_type, t.dtype, attr_defs.get(arg.type_attr))
        attrs[arg.type_attr] = t.dtype.base_dtype
    return t


def _args_with_attr(op_type, type_attr):
    return [a for a in get_op_def(op_type).input_arg if a.type_attr == type_attr]


def _convert_list_same_type(op_type, arg, value, attrs, keywords, attr_defs):
    if not isinstance(value, (list, tuple)):
        raise TypeError("Expected list for '%s' argument to '%s' Op, not %s." %
                        (arg.name, op_type, value))
    dtype = None
    if arg.type:
        dtype = dtypes.as_dtype(arg.type)
    elif arg.type_attr in attrs:
        dtype = attrs[arg.type_attr]
    elif keywords.get(arg.type_attr) is not None:
        dtype = dtypes.as_dtype(keywords[arg.type_attr])
    else:
        for v in value:
            if isinstance(v, ops.Tensor):
                dtype = v.dtype.base_dtype
                break
    ts = [_convert(v, dtype, "%s_%d" % (arg.name, i), op_type, arg.name)
          for i, v in enumerate(value)]
    if ts:
        dtype = ts[0].dtype.base_dtype
        for t in ts:
            if t.dtype.base_dtype != dtype:
                raise TypeError("%s that don't all match." % (
                    "Tensors in list passed to '%s' of '%s' Op have types [%s]" %
                    (arg.name, op_type, ", ".join(x.dtype.name for x in ts))))
    attrs[arg.number_attr] = len(ts)
    if arg.type_attr and dtype is not None:
        _check_allowed(arg.name, op_type, dtype, attr_defs.get(arg.type_attr))
        attrs[arg.type_attr] = dtype
    return ts


def outputs_of(op, op_def=None):
    """What a generated op function returns: the Operation when it has no
    outputs, the Tensor for one single output, the list of Tensors for one
    list output (as TensorFlow's Split, Unpack), else a list per output arg
    (list arguments grouped into lists)."""
    op_def = op_def or get_op_def(op.type)
    outs = op.outputs
    if not op_def.output_arg:
        return op
    if len(op_def.output_arg) == 1 and not (op_def.output_arg[0].number_attr or
                                            op_def.output_arg[0].type_list_attr):
        return outs[0]
    if len(op_def.output_arg) == 1:  # one list output (Split, Unpack): the list itself
        return list(outs)
    result = []
    i = 0
    for arg in op_def.output_arg:
        if arg.number_attr:
            n = op.get_attr(arg.number_attr)
            result.append(outs[i:i + n])
            i += n
        elif arg.type_list_attr:
            n = len(op.get_attr(arg.type_list_attr))
            result.append(outs[i:i + n])
            i += n
        else:
            result.append(outs[i])
            i += 1
    return result
