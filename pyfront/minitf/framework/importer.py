"""tf.import_graph_def through TF_GraphImportGraphDefWithResults."""
import numpy as np

from minitf import pywrap_tensorflow_internal as c_api
from minitf.core.framework import graph_pb2
from minitf.framework import dtypes, errors, ops

# Consts whose tensor_content is larger than this are made separately, sharing the bytes read
# out of the GraphDef message instead of serializing them and copying them again in C: a
# 100 MB constant then costs one extra copy, not two.
_LARGE_CONST_BYTES = 16 << 20


def _large_consts(graph_def):
    """{name: (NodeDef, tensor_content bytes)} of the Consts worth importing without a copy.

    Reads each candidate's bytes once (that is the one copy); the size is judged from dtype
    and shape, since asking the message for its size would serialize it."""
    big = {}
    skip = (dtypes.string.as_datatype_enum, dtypes.resource.as_datatype_enum,
            dtypes.variant.as_datatype_enum)
    for node in graph_def.node:
        if node.op != "Const" or "value" not in node.attr:
            continue
        tensor = node.attr["value"].tensor
        if tensor.dtype in skip or tensor.dtype == 0:
            continue
        dtype = dtypes.as_dtype(tensor.dtype)
        count = 1
        for d in tensor.tensor_shape.dim:
            count *= max(d.size, 0)
        if count * dtype.size <= _LARGE_CONST_BYTES:
            continue
        content = tensor.tensor_content
        if len(content) == count * dtype.size:  # else typed values: the C importer expands them
            big[node.name] = (node, content)
    return big


def _make_large_const(g, node, content, full_name):
    """Creates the Const `full_name` from `node`, its value sharing `content`."""
    tensor = node.attr["value"].tensor
    dtype = dtypes.as_dtype(tensor.dtype)
    shape = [d.size for d in tensor.tensor_shape.dim]
    value = np.frombuffer(content, dtype=dtype.as_numpy_dtype).reshape(shape)
    t = c_api.MT_NdarrayToTensor(value, dtype.as_datatype_enum)  # wraps, no copy
    try:
        with g._lock:
            desc = c_api.TF_NewOperation(g._c_graph, "Const", full_name)
            c_api.MT_SetAttrTensorShared(desc, "value", t)
            for key in node.attr:
                if key != "value":
                    c_api.TF_SetAttrValueProto(desc, key, node.attr[key].SerializeToString())
            if node.device:
                c_api.TF_SetDevice(desc, node.device)
            c_op = c_api.TF_FinishOperation(desc)
    finally:
        c_api.TF_DeleteTensor(t)
    return g._record_op(c_op, [])


def _serialize(graph_def):
    """The GraphDef's bytes with map entries in key order (deterministic), as the C runtime
    writes them: a FunctionDef read back from as_graph_def() then equals the one the graph
    holds byte for byte, so importing a graph's own library into it again is no conflict."""
    return graph_def.SerializeToString(deterministic=True)


def _split_large_consts(graph_def, prefix, input_map):
    """Creates the large Consts of graph_def and returns (the rest of graph_def as bytes,
    the input mappings that route their uses to the created ops, {name: Operation}).
    Without large Consts, the rest is graph_def itself."""
    big = _large_consts(graph_def)
    g = ops.get_default_graph()
    made = {}
    for name in list(big):
        node, content = big.pop(name)
        full_name = prefix + "/" + name if prefix else name
        if c_api.TF_GraphOperationByName(g._c_graph, full_name) is not None:
            continue  # taken: the C importer renames it, as for any other node
        made[name] = _make_large_const(g, node, content, full_name)
        del content  # now owned by the Const's tensor
    big = made
    if not big:
        return _serialize(graph_def), {}, {}
    rest = graph_pb2.GraphDef()
    rest.versions.CopyFrom(graph_def.versions)
    if graph_def.HasField("library"):
        rest.library.CopyFrom(graph_def.library)
    used = set()
    for node in graph_def.node:
        if node.name in big:
            continue
        rest.node.add().CopyFrom(node)
        for inp in node.input:
            src = inp[1:] if inp.startswith("^") else inp.split(":")[0]
            if src in big:
                used.add(inp if inp.startswith("^") else src + ":0")
    extra = {}
    for key in used:
        name = key[1:] if key.startswith("^") else key[:-2]
        if key not in input_map:
            extra[key] = made[name] if key.startswith("^") else made[name].outputs[0]
    return _serialize(rest), extra, made


def _parse_tensor_name(name):
    if ":" in name:
        op, idx = name.rsplit(":", 1)
        return op, int(idx)
    return name, 0


def import_graph_def(graph_def, input_map=None, return_elements=None, name=None, op_dict=None,
                     producer_op_list=None):
    """Imports a GraphDef into the default graph (tf.graph_util.import_graph_def).

    Args:
      graph_def: a GraphDef message (or its serialized bytes).
      input_map: {"name:index" or "name" (output 0), or "^name" for control
        inputs: Tensor (or a value convert_to_tensor accepts; for "^name"
        the Tensor's op)} replacing the GraphDef's own producers.
      return_elements: names of ops ("name") or tensors ("name:0") to return.
      name: prefix of the imported names (default "import"; "" for none).
      op_dict, producer_op_list: ignored, as in TensorFlow 2.
    Returns:
      The objects named by return_elements (Operations / Tensors), in order,
      or None.
    Raises:
      TypeError: graph_def is not a GraphDef, input_map is not a dict of
        strings, or a value cannot become a Tensor.
      ValueError: malformed GraphDef, unknown input_map keys or
        return_elements, or invalid nodes (TensorFlow's message).
      NotFoundError: an op type is not registered.
    """
    if isinstance(graph_def, (bytes, bytearray)):
        data = bytes(graph_def)
    elif isinstance(graph_def, graph_pb2.GraphDef) or \
            type(graph_def).__name__ == "GraphDef" and hasattr(graph_def, "SerializeToString"):
        data = None  # serialized below, once large constants are split off
    else:
        raise TypeError("Argument `graph_def` must be a GraphDef proto.")
    if input_map is None:
        input_map = {}
    elif not isinstance(input_map, dict):
        raise TypeError("Argument `input_map` must be a dictionary. Obtained %s" %
                        type(input_map).__name__)
    if not all(isinstance(k, str) for k in input_map):
        raise TypeError("All keys for argument `input_map` must be strings. Obtained keys: %s" %
                        list(input_map))
    input_map = dict(input_map)
    control_keys = [k for k in input_map if k.startswith("^")]
    names = set()
    if control_keys:
        nodes = graph_def.node if data is None else graph_pb2.GraphDef.FromString(data).node
        names = {n.name for n in nodes}
        missing_control = [k for k in control_keys if k[1:] not in names]
    else:
        missing_control = []
    if return_elements is not None:
        return_elements = list(return_elements)
    g = ops.get_default_graph()
    with ops.name_scope(name, "import", list(input_map.values())) as scope:
        prefix = scope[:-1] if scope else ""
        # Like TensorFlow, every value becomes a Tensor ("^op" keys use its op).
        if not all(isinstance(v, ops.Tensor) for v in input_map.values()):
            with ops.name_scope("_inputs"):
                input_map = {k: ops.convert_to_tensor(v) for k, v in input_map.items()}
        made, extra = {}, {}
        if data is None:
            if isinstance(graph_def, graph_pb2.GraphDef):
                data, extra, made = _split_large_consts(graph_def, prefix, input_map)
                input_map.update(extra)
            else:
                data = _serialize(graph_def)
        opts = c_api.TF_NewImportGraphDefOptions()
        try:
            if prefix:
                c_api.TF_ImportGraphDefOptionsSetPrefix(opts, prefix)
                # The scope is already unique (name_scope), like TensorFlow's importer.
                c_api.TF_ImportGraphDefOptionsSetUniquifyPrefix(opts, False)
            c_api.TF_ImportGraphDefOptionsSetUniquifyNames(opts, True)
            for key, value in input_map.items():
                if key.startswith("^"):
                    if key in extra or key[1:] in names:  # unknown ones are reported below
                        op = value if isinstance(value, ops.Operation) else value.op
                        c_api.TF_ImportGraphDefOptionsRemapControlDependency(opts, key[1:],
                                                                              op._c_op)
                else:
                    src, idx = _parse_tensor_name(key)
                    c_api.TF_ImportGraphDefOptionsAddInputMapping(opts, src, idx,
                                                                 value._as_tf_output())
            for el in return_elements or []:
                if _parse_tensor_name(el)[0] in made:
                    continue  # made above, not part of the GraphDef imported in C
                if ":" in el:
                    op_name, idx = _parse_tensor_name(el)
                    c_api.TF_ImportGraphDefOptionsAddReturnOutput(opts, op_name, idx)
                else:
                    c_api.TF_ImportGraphDefOptionsAddReturnOperation(opts, el)
            try:
                results = c_api.TF_GraphImportGraphDefWithResults(g._c_graph, data, opts)
            except errors.InvalidArgumentError as e:
                raise ValueError(e.message) from None
        finally:
            c_api.TF_DeleteImportGraphDefOptions(opts)
        try:
            missing = c_api.MT_ImportGraphDefResultsMissingUnusedInputMappings(results)
            outs = c_api.MT_ImportGraphDefResultsReturnOutputs(results)
            rops = c_api.MT_ImportGraphDefResultsReturnOperations(results)
        finally:
            c_api.TF_DeleteImportGraphDefResults(results)
        g.get_operations()  # wraps the new operations, marks their names used
        missing = ["%s:%d" % m for m in missing] + missing_control
        if missing:
            raise ValueError("Attempted to map inputs that were not found in graph_def: [%s]" %
                             ", ".join(missing))
        if return_elements is None:
            return None
        out_iter = iter(outs)
        op_iter = iter(rops)
        result = []
        for el in return_elements:
            op_name, idx = _parse_tensor_name(el)
            if op_name in made:
                result.append(made[op_name].outputs[idx] if ":" in el else made[op_name])
            elif ":" in el:
                p, i = next(out_iter)
                result.append(g._op_from_c(p)._outputs[i])
            else:
                result.append(g._op_from_c(next(op_iter)))
        return result
