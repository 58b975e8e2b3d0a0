"""tf.import_graph_def through TF_GraphImportGraphDefWithResults."""
from minitf import pywrap_tensorflow_internal as c_api
from minitf.core.framework import graph_pb2
from minitf.framework import errors, ops


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
        data = graph_def.SerializeToString()
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
    control_keys = [k for k in input_map if k.startswith("^")]
    if control_keys:
        names = {n.name for n in graph_pb2.GraphDef.FromString(data).node}
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
        opts = c_api.TF_NewImportGraphDefOptions()
        try:
            if prefix:
                c_api.TF_ImportGraphDefOptionsSetPrefix(opts, prefix)
                # The scope is already unique (name_scope), like TensorFlow's importer.
                c_api.TF_ImportGraphDefOptionsSetUniquifyPrefix(opts, False)
            c_api.TF_ImportGraphDefOptionsSetUniquifyNames(opts, True)
            for key, value in input_map.items():
                if key.startswith("^"):
                    if key[1:] in names:
                        c_api.TF_ImportGraphDefOptionsRemapControlDependency(opts, key[1:],
                                                                              value.op._c_op)
                else:
                    src, idx = _parse_tensor_name(key)
                    c_api.TF_ImportGraphDefOptionsAddInputMapping(opts, src, idx,
                                                                 value._as_tf_output())
            for el in return_elements or []:
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
            if ":" in el:
                p, i = next(out_iter)
                result.append(g._op_from_c(p)._outputs[i])
            else:
                result.append(g._op_from_c(next(op_iter)))
        return result
