"""MetaGraphDef export and import (TensorFlow's framework/meta_graph.py, graph mode).

A MetaGraphDef is a GraphDef plus what a program needs to use it again: the SaverDef of a
Saver in the graph, the graph's collections (CollectionDef: variables as VariableDef bytes,
ops and tensors as node names, Python ints/floats/strings as lists), the OpDefs of the ops it
uses (meta_info_def.stripped_op_list), and for SavedModels tags, signatures and assets.

  export_scoped_meta_graph   graph -> MetaGraphDef (optionally written to a file)
  import_scoped_meta_graph   MetaGraphDef (or a .meta file) -> nodes and collections in the
                             default graph
  read_meta_graph_file       binary, else text format

Collections whose items are protos (variables, the global step, savers) go through
functions registered per collection key (register_proto_function), as in TensorFlow.
Items of other types are skipped with a warning, as TensorFlow skips them.
"""
import copy
import logging
import os
import re

from google.protobuf import message as _message
from google.protobuf import text_format

from minitf.core.framework import graph_pb2, op_def_pb2, variable_pb2
from minitf.core.protobuf import any_pb2, control_flow_pb2, meta_graph_pb2, saver_pb2
from minitf.framework import errors, importer, ops

_log = logging.getLogger("minitf")

# The TensorFlow release whose formats minitf writes (MetaInfoDef.tensorflow_version):
# TensorFlow's importer compares it with "1.9" to decide whether VariableDefs carry
# `trainable`, so it must be a plain version number.
TENSORFLOW_VERSION = "2.21.0"
GIT_VERSION = "minitf"

_UNBOUND_INPUT_PREFIX = "$unbound_inputs_"
# Collections TensorFlow once wrote as node lists; importing them as such is only warned.
_COMPAT_COLLECTION_LIST = [ops.GraphKeys.LOCAL_VARIABLES, ops.GraphKeys.MODEL_VARIABLES,
                           ops.GraphKeys.METRIC_VARIABLES]
_SAVE_AND_RESTORE_OPS = ["SaveV2", "Save", "SaveSlice", "LegacySave", "LegacySaveSlice",
                         "RestoreV2", "Restore", "RestoreSlice", "LegacyRestore",
                         "LegacyRestoreSlice"]

# -- proto functions per collection key (TensorFlow's ops.register_proto_function) -------

_proto_functions = {}


def register_proto_function(collection_name, proto_type=None, to_proto=None,
                            from_proto=None):
    """Registers how items of a collection become protos (bytes_list) and back."""
    _proto_functions[collection_name] = (proto_type, to_proto, from_proto)


def get_collection_proto_type(collection_name):
    return _proto_functions.get(collection_name, (None, None, None))[0]


def get_to_proto_function(collection_name):
    return _proto_functions.get(collection_name, (None, None, None))[1]


def get_from_proto_function(collection_name):
    return _proto_functions.get(collection_name, (None, None, None))[2]


def _variable_to_proto(v, export_scope=None):
    return v.to_proto(export_scope=export_scope)


def _variable_from_proto(variable_def, import_scope=None):
    from minitf.ops import variables
    return variables.Variable.from_proto(variable_def, import_scope=import_scope)


def _saver_to_proto(saver, export_scope=None):
    return saver.to_proto(export_scope=export_scope)


def _saver_from_proto(saver_def, import_scope=None):
    from minitf.training import saver as saver_lib
    return saver_lib.Saver.from_proto(saver_def, import_scope=import_scope)


def _context_to_proto(ctx, export_scope=None):
    from minitf.ops import control_flow_context_proto as cfp
    from minitf.ops import control_flow_v1
    if isinstance(ctx, control_flow_v1.WhileContext):
        return cfp.while_to_proto(ctx, export_scope)
    return cfp.cond_to_proto(ctx, export_scope)


def _cond_from_proto(context_def, import_scope=None):
    from minitf.ops import control_flow_context_proto as cfp
    return cfp.cond_from_proto(context_def, import_scope)


def _while_from_proto(context_def, import_scope=None):
    from minitf.ops import control_flow_context_proto as cfp
    return cfp.while_from_proto(context_def, import_scope)


register_proto_function(ops.GraphKeys.COND_CONTEXT, proto_type=control_flow_pb2.CondContextDef,
                        to_proto=_context_to_proto, from_proto=_cond_from_proto)
register_proto_function(ops.GraphKeys.WHILE_CONTEXT,
                        proto_type=control_flow_pb2.WhileContextDef,
                        to_proto=_context_to_proto, from_proto=_while_from_proto)
for _key in ops.GraphKeys._VARIABLE_COLLECTIONS + [ops.GraphKeys.GLOBAL_STEP]:
    register_proto_function(_key, proto_type=variable_pb2.VariableDef,
                            to_proto=_variable_to_proto, from_proto=_variable_from_proto)
register_proto_function(ops.GraphKeys.SAVERS, proto_type=saver_pb2.SaverDef,
                        to_proto=_saver_to_proto, from_proto=_saver_from_proto)
del _key


# -- names -------------------------------------------------------------------------------

def prepend_name_scope(name, import_scope):
    """`import_scope/name`, keeping a leading "^" or "loc:@" (TensorFlow's
    ops.prepend_name_scope)."""
    if not import_scope:
        return name
    if isinstance(name, bytes):
        name = name.decode("utf-8", "replace")
    m = re.match(r"^(\^|loc:@)?(.*)$", name, re.S)
    return "%s%s/%s" % (m.group(1) or "", import_scope.rstrip("/"), m.group(2))


def strip_name_scope(name, export_scope):
    """`name` without a leading `export_scope/` (after any "^" or "loc:@")."""
    if not export_scope:
        return name
    if isinstance(name, bytes):
        name = name.decode("utf-8", "replace")
    prefix = export_scope.rstrip("/") + "/"
    m = re.match(r"^(\^|loc:@)?(.*)$", name, re.S)
    rest = m.group(2)
    if rest.startswith(prefix):
        rest = rest[len(prefix):]
    return (m.group(1) or "") + rest


def _op_name(name):
    name = name[1:] if name.startswith("^") else name
    return name.split(":")[0]


def _get_scope(node_name):
    if not node_name:
        raise ValueError("Node name cannot be empty or None. Received: %s." % node_name)
    node_name = node_name[1:] if node_name.startswith("^") else node_name
    return node_name.rsplit("/", 1)[0] if "/" in node_name else ""


# -- reading -----------------------------------------------------------------------------

def read_meta_graph_file(filename):
    """The MetaGraphDef in `filename` (binary, else protobuf text format).

    Raises OSError "File does not exist. Received: <f>." for a missing file (TensorFlow's
    message) and InvalidArgumentError "Cannot parse file <f>: ..." for bytes that are
    neither (TensorFlow raises OSError for bad text and lets a UnicodeDecodeError escape for
    bytes that are not UTF-8; minitf reports both as malformed input).
    """
    filename = os.fspath(filename)
    if isinstance(filename, bytes):
        filename = filename.decode()
    if not os.path.isfile(filename):
        raise IOError("File does not exist. Received: %s." % filename)
    with open(filename, "rb") as f:
        data = f.read()
    return parse_meta_graph(data, filename)


def parse_meta_graph(data, filename="<bytes>"):
    """A MetaGraphDef from serialized bytes, or protobuf text, else InvalidArgumentError."""
    mg = meta_graph_pb2.MetaGraphDef()
    try:
        mg.ParseFromString(data)
        return mg
    except (_message.DecodeError, RuntimeError, ValueError):
        pass
    mg = meta_graph_pb2.MetaGraphDef()
    try:
        text_format.Merge(data.decode("utf-8"), mg)
    except (text_format.ParseError, UnicodeDecodeError) as e:
        raise errors.InvalidArgumentError(
            None, None, "Cannot parse file %s: %s." % (filename, e)) from None
    return mg


# -- export ------------------------------------------------------------------------------

def ops_used_by_graph_def(graph_def):
    """Op types the graph's nodes and the library functions they call use."""
    functions = {f.signature.name: f for f in graph_def.library.function}
    used, pending = set(), []

    def mark(op_type):
        if op_type not in used and op_type in functions:
            pending.append(functions[op_type])
        used.add(op_type)

    def visit(node):
        mark(node.op)
        if node.op in ("PartitionedCall", "StatefulPartitionedCall"):
            mark(node.attr["f"].func.name)
        # functional control flow names its bodies in func attrs
        for v in node.attr.values():
            if v.HasField("func"):
                mark(v.func.name)

    for node in graph_def.node:
        visit(node)
    while pending:
        for node in pending.pop().node_def:
            visit(node)
    return [op for op in used if op not in functions]


def stripped_op_list_for_graph(graph_def):
    """An OpList of the registered OpDefs of the ops the graph uses, sorted by name."""
    from minitf.framework import op_def_library
    registry = op_def_library.get_registered_ops()
    return op_def_pb2.OpList(op=[registry[op] for op in sorted(ops_used_by_graph_def(graph_def))
                                 if op in registry])


def _is_default_attr_value(op_def, attr_name, attr_value):
    for attr_def in op_def.attr:
        if attr_def.name == attr_name:
            if not attr_def.HasField("default_value"):
                return False
            return attr_def.default_value.SerializeToString(deterministic=True) == \
                attr_value.SerializeToString(deterministic=True)
    return False


def strip_graph_default_valued_attrs(meta_graph_def):
    """Removes attrs equal to their OpDef's default from the graph's nodes (and the
    library functions' nodes); sets meta_info_def.stripped_default_attrs."""
    from minitf.framework import op_def_library
    registry = op_def_library.get_registered_ops()
    functions = {f.signature.name for f in meta_graph_def.graph_def.library.function}

    def strip(node_def):
        if node_def.op in functions:
            return
        op_def = registry.get(node_def.op)
        if op_def is None:
            return
        for name in [n for n, v in node_def.attr.items()
                     if _is_default_attr_value(op_def, n, v)]:
            del node_def.attr[name]

    for node_def in meta_graph_def.graph_def.node:
        strip(node_def)
    for function_def in meta_graph_def.graph_def.library.function:
        for node_def in function_def.node_def:
            strip(node_def)
    meta_graph_def.meta_info_def.stripped_default_attrs = True


def _get_kind_name(item):
    if isinstance(item, (str, bytes)):
        return "bytes_list"
    if isinstance(item, int):
        return "int64_list"
    if isinstance(item, float):
        return "float_list"
    if isinstance(item, any_pb2.Any):
        return "any_list"
    if isinstance(item, (ops.Tensor, ops.Operation)) or (
            hasattr(item, "op") and isinstance(getattr(item, "name", None), str)):
        return "node_list"
    # TensorFlow would write item.name and fail to find it on import; minitf skips the
    # collection (add_collection_def warns) instead of writing a name that is no node.
    raise TypeError("%s is not a graph element" % type(item).__name__)


def _should_include_node(node_or_name, export_scope, exclude_nodes):
    if isinstance(node_or_name, str):
        name = node_or_name
    else:
        try:
            name = node_or_name.name
        except AttributeError:
            return True
    if exclude_nodes and (name in exclude_nodes or
                          (not isinstance(node_or_name, str) and node_or_name in exclude_nodes)):
        return False
    return (name.startswith(_UNBOUND_INPUT_PREFIX) or not export_scope or
            name.startswith(export_scope))


def add_collection_def(meta_graph_def, key, graph=None, export_scope=None,
                       exclude_nodes=None, override_contents=None):
    """Adds collection `key` of `graph` to meta_graph_def.collection_def (skipped, with a
    warning, when its items cannot be serialized)."""
    if graph is not None and not isinstance(graph, ops.Graph):
        raise TypeError("graph must be of type Graph. Received type: %s." % type(graph))
    if not isinstance(key, (str, bytes)):
        _log.warning("Only collections with string type keys will be serialized. This key "
                     "has %s", type(key))
        return
    graph = graph or ops.get_default_graph()
    items = override_contents if override_contents else graph.get_collection(key)
    items = [x for x in items if _should_include_node(x, export_scope, exclude_nodes)]
    if not items:
        return
    try:
        col_def = meta_graph_def.collection_def[key]
        to_proto = get_to_proto_function(key)
        if to_proto:
            proto_type = get_collection_proto_type(key)
            for x in items:
                proto = to_proto(x, export_scope=export_scope)
                if proto:
                    if not isinstance(proto, proto_type):
                        raise TypeError("expected a %s, got %s" % (proto_type.__name__,
                                                                   type(proto).__name__))
                    col_def.bytes_list.value.append(proto.SerializeToString())
            return
        kind = _get_kind_name(items[0])
        if kind == "node_list":
            for x in items:
                name = x.name
                if not export_scope or name.startswith(export_scope):
                    col_def.node_list.value.append(strip_name_scope(name, export_scope))
        elif kind == "bytes_list":
            col_def.bytes_list.value.extend(
                [x.encode("utf-8") if isinstance(x, str) else x for x in items])
        elif kind == "any_list":
            for x in items:
                col_def.any_list.value.add().CopyFrom(x)
        else:
            getattr(col_def, kind).value.extend(items)
    except Exception as e:  # noqa: BLE001 -- TensorFlow skips what it cannot serialize
        _log.warning("Issue encountered when serializing %s.\nType is unsupported, or the "
                     "types of the items don't match field type in CollectionDef. Note this "
                     "is a warning and probably safe to ignore.\n%s", key, e)
        if key in meta_graph_def.collection_def:
            del meta_graph_def.collection_def[key]


def create_meta_graph_def(meta_info_def=None, graph_def=None, saver_def=None,
                          collection_list=None, graph=None, export_scope=None,
                          exclude_nodes=None, clear_extraneous_savers=False,
                          strip_default_attrs=False):
    """A MetaGraphDef of `graph` (default graph): graph_def (with output shapes when taken
    from the graph), stripped_op_list, saver_def and the collections in collection_list
    (default: every collection)."""
    if graph is not None and not isinstance(graph, ops.Graph):
        raise TypeError("graph must be of type Graph. Received type: %s." % type(graph))
    if meta_info_def is not None and not isinstance(meta_info_def,
                                                    meta_graph_pb2.MetaGraphDef.MetaInfoDef):
        raise TypeError("meta_info_def must be of type MetaInfoDef. Received type: %s."
                        % type(meta_info_def))
    if graph_def is not None and not isinstance(graph_def, graph_pb2.GraphDef):
        raise TypeError("graph_def must be of type GraphDef. Received type: %s."
                        % type(graph_def))
    if saver_def is not None and not isinstance(saver_def, saver_pb2.SaverDef):
        raise TypeError("saver_def must be of type SaverDef. Received type: %s."
                        % type(saver_def))
    graph = graph or ops.get_default_graph()
    mg = meta_graph_pb2.MetaGraphDef()
    if meta_info_def is not None:
        mg.meta_info_def.MergeFrom(meta_info_def)
    mg.meta_info_def.tensorflow_version = TENSORFLOW_VERSION
    mg.meta_info_def.tensorflow_git_version = GIT_VERSION
    if graph_def is None:
        mg.graph_def.MergeFrom(graph.as_graph_def(add_shapes=True))
    else:
        mg.graph_def.MergeFrom(graph_def)
    if not mg.meta_info_def.stripped_op_list.op:
        mg.meta_info_def.stripped_op_list.MergeFrom(stripped_op_list_for_graph(mg.graph_def))
    if strip_default_attrs:
        strip_graph_default_valued_attrs(mg)
    if saver_def is not None:
        mg.saver_def.MergeFrom(saver_def)
    keys = collection_list if collection_list is not None else graph.get_all_collection_keys()
    for key in keys:
        if clear_extraneous_savers and key == ops.GraphKeys.SAVERS and saver_def is not None:
            add_collection_def(mg, key, graph=graph, export_scope=export_scope,
                               exclude_nodes=exclude_nodes,
                               override_contents=[_saver_from_proto(saver_def)])
        else:
            add_collection_def(mg, key, graph=graph, export_scope=export_scope,
                               exclude_nodes=exclude_nodes)
    return mg


def _find_extraneous_saver_nodes(graph_def, saver_def):
    """Names of the nodes in the name scopes of Savers other than saver_def's."""
    names = {n.name: n.op for n in graph_def.node}
    keep = set()
    if saver_def is not None:
        keep.add(_get_scope(_op_name(saver_def.save_tensor_name)) + "/")
        keep.add(_get_scope(_op_name(saver_def.restore_op_name)) + "/")
    saver_nodes = {n for n, op in names.items() if op in _SAVE_AND_RESTORE_OPS}
    scopes = {_get_scope(n) + "/" for n in saver_nodes} - {n + "/" for n in saver_nodes}
    extraneous = scopes - keep
    return {n for n in names if any(n.startswith(s) for s in extraneous)}


def _node_def(node, export_scope, unbound_inputs, clear_devices):
    """A copy of `node` with export_scope stripped from its name, inputs and colocations;
    inputs from outside the scope become "$unbound_inputs_<name>"."""
    out = copy.deepcopy(node)
    for i, name in enumerate(node.input):
        if export_scope and not name.lstrip("^").startswith(export_scope):
            caret = "^" if name.startswith("^") else ""
            out.input[i] = caret + _UNBOUND_INPUT_PREFIX + name.lstrip("^")
            unbound_inputs.append(out.input[i])
        else:
            out.input[i] = strip_name_scope(name, export_scope)
    out.name = strip_name_scope(node.name, export_scope)
    if "_class" in node.attr:
        keep = [strip_name_scope(s.decode(), export_scope).encode()
                for s in node.attr["_class"].list.s
                if not export_scope or s.decode().split("@", 1)[-1].startswith(export_scope)]
        del out.attr["_class"].list.s[:]
        out.attr["_class"].list.s.extend(keep)
    if node.op in ("Enter", "RefEnter") and "frame_name" in node.attr:
        frame = node.attr["frame_name"].s.decode()
        if not export_scope or frame.startswith(export_scope):
            out.attr["frame_name"].s = strip_name_scope(frame, export_scope).encode()
    if clear_devices:
        out.device = ""
    return out


def _write(meta_graph_def, filename, as_text):
    from minitf import train
    return train.write_graph(meta_graph_def, os.path.dirname(filename) or ".",
                             os.path.basename(filename), as_text=as_text)


def export_scoped_meta_graph(filename=None, graph_def=None, graph=None, export_scope=None,
                             as_text=False, unbound_inputs_col_name="unbound_inputs",
                             clear_devices=False, saver_def=None,
                             clear_extraneous_savers=False, strip_default_attrs=False,
                             save_debug_info=False, **kwargs):
    """The MetaGraphDef of `graph` (or `graph_def`) restricted to export_scope (names made
    relative to it), written to `filename` when given (binary, or text with as_text).

    Returns (meta_graph_def, {name relative to the scope: global variable}).
    kwargs: meta_info_def, collection_list.
    """
    graph = graph or ops.get_default_graph()
    exclude_nodes = None
    unbound_inputs = []
    if export_scope or clear_extraneous_savers or clear_devices:
        source = graph_def if graph_def is not None else graph.as_graph_def(add_shapes=True)
        new = graph_pb2.GraphDef()
        new.versions.CopyFrom(source.versions)
        new.library.CopyFrom(source.library)
        if clear_extraneous_savers:
            exclude_nodes = _find_extraneous_saver_nodes(source, saver_def)
        for node in source.node:
            if _should_include_node(node.name, export_scope, exclude_nodes):
                new.node.extend([_node_def(node, export_scope, unbound_inputs, clear_devices)])
        graph_def = new
        if unbound_inputs_col_name:
            graph.clear_collection(unbound_inputs_col_name)
            for name in unbound_inputs:
                graph.add_to_collection(unbound_inputs_col_name, name)
    var_list = {}
    for v in graph.get_collection(ops.GraphKeys.GLOBAL_VARIABLES, scope=export_scope):
        if _should_include_node(v, export_scope, exclude_nodes):
            var_list[strip_name_scope(v.name, export_scope)] = v
    mg = create_meta_graph_def(graph_def=graph_def, graph=graph, export_scope=export_scope,
                               exclude_nodes=exclude_nodes,
                               clear_extraneous_savers=clear_extraneous_savers,
                               saver_def=saver_def, strip_default_attrs=strip_default_attrs,
                               **kwargs)
    if filename:
        _write(mg, filename, as_text)
    return mg, var_list


# -- import ------------------------------------------------------------------------------

def import_scoped_meta_graph(meta_graph_or_file, clear_devices=False, graph=None,
                             import_scope=None, input_map=None,
                             unbound_inputs_col_name="unbound_inputs",
                             restore_collections_predicate=lambda key: True):
    """Imports a MetaGraphDef's graph and collections into `graph` (default graph), names
    under import_scope. Returns {name relative to the scope: global variable}."""
    return import_scoped_meta_graph_with_return_elements(
        meta_graph_or_file, clear_devices, graph, import_scope, input_map,
        unbound_inputs_col_name, restore_collections_predicate)[0]


def _versions_have_trainable(tf_version):
    """VariableDef.trainable exists since TensorFlow 1.9 (older exports lack it)."""
    m = re.match(r"^(\d+)\.(\d+)", tf_version or "")
    return not tf_version or not m or (int(m.group(1)), int(m.group(2))) >= (1, 9)


def import_scoped_meta_graph_with_return_elements(
        meta_graph_or_file, clear_devices=False, graph=None, import_scope=None,
        input_map=None, unbound_inputs_col_name="unbound_inputs",
        restore_collections_predicate=lambda key: True, return_elements=None):
    """import_scoped_meta_graph, also returning the return_elements' objects.

    Raises OSError / InvalidArgumentError for a file that is missing or not a MetaGraphDef
    (read_meta_graph_file), ValueError for unbound inputs not given in input_map, and the
    errors of import_graph_def for a malformed graph.
    """
    if isinstance(meta_graph_or_file, meta_graph_pb2.MetaGraphDef):
        mg = meta_graph_or_file
    elif type(meta_graph_or_file).__name__ == "MetaGraphDef" and \
            hasattr(meta_graph_or_file, "SerializeToString"):
        mg = meta_graph_pb2.MetaGraphDef.FromString(meta_graph_or_file.SerializeToString())
    else:
        mg = read_meta_graph_file(meta_graph_or_file)
    if unbound_inputs_col_name and unbound_inputs_col_name in mg.collection_def:
        col = mg.collection_def[unbound_inputs_col_name]
        kind = col.WhichOneof("kind")
        values = [v.decode() if isinstance(v, bytes) else v
                  for v in (getattr(col, kind).value if kind else [])]
        if values and (not input_map or sorted(values) != sorted(input_map)):
            raise ValueError("Graph contains unbound inputs: %s. Must provide these inputs "
                             "through input_map." % ",".join(
                                 v for v in values if not input_map or v not in input_map))
    graph = graph or ops.get_default_graph()
    with graph.as_default():
        graph_def = mg.graph_def
        if clear_devices:
            graph_def = copy.deepcopy(graph_def)
            for node in graph_def.node:
                node.device = ""
        scope = graph.unique_name(import_scope or "", mark_as_used=False)
        returned = importer.import_graph_def(
            graph_def, name=(import_scope or scope), input_map=input_map,
            producer_op_list=(mg.meta_info_def.stripped_op_list
                              if mg.meta_info_def.HasField("stripped_op_list") else None),
            return_elements=return_elements)
        have_trainable = _versions_have_trainable(mg.meta_info_def.tensorflow_version)
        keys = []
        if ops.GraphKeys.TRAINABLE_VARIABLES in mg.collection_def:
            keys.append(ops.GraphKeys.TRAINABLE_VARIABLES)
        keys += [k for k in sorted(mg.collection_def) if k != ops.GraphKeys.TRAINABLE_VARIABLES]
        variable_objects = {}
        for key in keys:
            if key == unbound_inputs_col_name or not restore_collections_predicate(key):
                continue
            _restore_collection(graph, key, mg.collection_def[key], scope, have_trainable,
                                variable_objects)
        var_list = {}
        for v in graph.get_collection(ops.GraphKeys.GLOBAL_VARIABLES, scope=scope or None):
            var_list[strip_name_scope(v.name, scope)] = v
    return var_list, returned


def _restore_collection(graph, key, col_def, scope, have_trainable, variable_objects):
    kind = col_def.WhichOneof("kind")
    if kind is None:
        _log.error("Cannot identify data type for collection %s. Skipping.", key)
        return
    from_proto = get_from_proto_function(key)
    if key == ops.GraphKeys.METRIC_VARIABLES:
        from_proto = get_from_proto_function(ops.GraphKeys.GLOBAL_VARIABLES)
    if from_proto and kind == "bytes_list":
        proto_type = get_collection_proto_type(key) or variable_pb2.VariableDef
        for value in col_def.bytes_list.value:
            if key in ops.GraphKeys._VARIABLE_COLLECTIONS and value in variable_objects:
                graph.add_to_collection(key, variable_objects[value])
                continue
            proto = proto_type()
            try:
                proto.ParseFromString(value)
            except _message.DecodeError as e:
                raise errors.InvalidArgumentError(
                    None, None, "Cannot parse collection %s item as %s: %s"
                    % (key, proto_type.DESCRIPTOR.name, e)) from None
            if not have_trainable and isinstance(proto, variable_pb2.VariableDef):
                proto.trainable = key == ops.GraphKeys.TRAINABLE_VARIABLES
            item = _from_proto_checked(from_proto, proto, scope, key)
            if key in ops.GraphKeys._VARIABLE_COLLECTIONS:
                variable_objects[value] = item
            graph.add_to_collection(key, item)
        return
    field = getattr(col_def, kind)
    if key in _COMPAT_COLLECTION_LIST:
        _log.warning("The saved meta_graph is possibly from an older release:\n'%s' "
                     "collection should be of type 'byte_list', but instead is of type '%s'.",
                     key, kind)
    if kind == "node_list":
        for value in field.value:
            name = prepend_name_scope(value, scope)
            try:
                graph.add_to_collection(key, graph.as_graph_element(name))
            except (KeyError, ValueError) as e:
                raise errors.NotFoundError(
                    None, None, "Collection %s names %s, which is not in the graph: %s"
                    % (key, name, e)) from None
    elif kind == "int64_list":
        for value in field.value:
            graph.add_to_collection(key, int(value))
    elif kind == "bytes_list":
        for value in field.value:
            graph.add_to_collection(key, prepend_name_scope(value, scope).encode()
                                    if scope else value)
    else:
        for value in field.value:
            graph.add_to_collection(key, value)


def _from_proto_checked(from_proto, proto, scope, key):
    """from_proto, with a node the proto names but the graph lacks reported as
    NotFoundError naming the collection (not a bare KeyError)."""
    try:
        return from_proto(proto, import_scope=scope)
    except (KeyError, ValueError) as e:
        raise errors.NotFoundError(
            None, None, "Collection %s: cannot rebuild %s from the graph: %s"
            % (key, type(proto).__name__, e)) from None


__all__ = ["export_scoped_meta_graph", "import_scoped_meta_graph",
           "import_scoped_meta_graph_with_return_elements", "read_meta_graph_file",
           "create_meta_graph_def", "add_collection_def", "stripped_op_list_for_graph",
           "register_proto_function"]
