"""tf.compat.v1.graph_util: GraphDef surgery as TensorFlow 2.21's graph_util_impl.py and
convert_to_constants.py (session path): extract_sub_graph, remove_training_nodes,
tensor_shape_from_node_def_name and convert_variables_to_constants (freezing), producing the
same GraphDefs as TensorFlow for the same input (node order, names, ops, attrs, values).
"""
import copy
import re

import numpy as np

from minitf.core.framework import graph_pb2, node_def_pb2
from minitf.framework import dtypes
from minitf.framework.importer import import_graph_def  # noqa: F401
from minitf.framework.tensor_util import make_tensor_proto

_VARIABLE_OPS = ("Variable", "VariableV2", "VarHandleOp")


def _node_name(n):
    return n[1:] if n.startswith("^") else n.split(":")[0]


def _get_colocated_node_name(name):
    name = name.decode("utf-8") if isinstance(name, bytes) else name
    return name[5:] if name.startswith("loc:@") else name


def _extract_graph_summary(graph_def):
    name_to_input_name, name_to_node, name_to_seq_num = {}, {}, {}
    for seq, node in enumerate(graph_def.node):
        n = _node_name(node.name)
        name_to_node[n] = node
        name_to_input_name[n] = [_node_name(x) for x in node.input]
        if "_class" in node.attr:  # keep colocated nodes, as TensorFlow
            name_to_input_name[n].extend(_get_colocated_node_name(s)
                                         for s in node.attr["_class"].list.s)
        name_to_seq_num[n] = seq
    return name_to_input_name, name_to_node, name_to_seq_num


def extract_sub_graph(graph_def, dest_nodes):
    """The GraphDef of the nodes `dest_nodes` (names) need: their transitive inputs (data,
    control and colocation `_class` edges), in the original order, with library and versions.

    TypeError when graph_def is not a GraphDef or dest_nodes is a string; AssertionError
    "<name> is not in graph" for an unknown node (TensorFlow's behaviour).
    """
    if not isinstance(graph_def, graph_pb2.GraphDef):
        raise TypeError("graph_def must be a graph_pb2.GraphDef proto, but got type {}."
                        .format(type(graph_def)))
    if isinstance(dest_nodes, str):
        raise TypeError("dest_nodes must be an iterable of strings, but got type {}."
                        .format(type(dest_nodes)))
    name_to_input_name, name_to_node, name_to_seq_num = _extract_graph_summary(graph_def)
    for d in dest_nodes:
        assert d in name_to_node, "%s is not in graph" % d
    keep, queue = set(), list(dest_nodes)
    while queue:
        node = queue.pop(0)
        if node in keep:
            continue
        keep.add(node)
        queue.extend(name_to_input_name.get(node, []))
    out = graph_pb2.GraphDef()
    for n in sorted(keep, key=lambda n: name_to_seq_num[n]):
        out.node.extend([copy.deepcopy(name_to_node[n])])
    out.library.CopyFrom(graph_def.library)
    out.versions.CopyFrom(graph_def.versions)
    return out


def tensor_shape_from_node_def_name(graph, input_name):
    """The static TensorShape of tensor `input_name` ("node" means "node:0") in `graph`."""
    name = input_name if ":" in input_name else input_name + ":0"
    return graph.get_tensor_by_name(name).get_shape()


def remove_training_nodes(input_graph, protected_nodes=None):
    """A GraphDef without the nodes only training needs: CheckNumerics removed, Identity
    nodes spliced out (their consumers read their input) unless protected, colocated with,
    carrying or feeding control edges (TensorFlow's rules)."""
    protected_nodes = protected_nodes or []
    names_to_remove = {n.name for n in input_graph.node
                       if n.op == "CheckNumerics" and n.name not in protected_nodes}
    after_removal = []
    for node in input_graph.node:
        if node.name in names_to_remove:
            continue
        new = node_def_pb2.NodeDef()
        new.CopyFrom(node)
        del new.input[:]
        new.input.extend(i for i in node.input if re.sub(r"^\^", "", i) not in names_to_remove)
        after_removal.append(new)
    control_inputs, with_control, colocated = set(), set(), set()
    for node in after_removal:
        for i in node.input:
            if "^" in i:
                control_inputs.add(i.replace("^", ""))
                with_control.add(node.name)
        if "_class" in node.attr:
            colocated.update(_get_colocated_node_name(s) for s in node.attr["_class"].list.s)
    splice = {}
    for node in after_removal:
        if node.op == "Identity" and node.name not in protected_nodes and \
                node.name not in colocated and node.name not in with_control:
            splice[node.name] = node.input[0]
    splice = {k: v for k, v in splice.items() if k not in control_inputs}
    out_nodes = []
    for node in after_removal:
        if node.name in splice:
            continue
        new = node_def_pb2.NodeDef()
        new.CopyFrom(node)
        del new.input[:]
        for full in node.input:
            name = re.sub(r"^\^", "", full)
            while name in splice:
                full = splice[name]
                name = re.sub(r"^\^", "", full)
            new.input.append(full)
        out_nodes.append(new)
    out = graph_pb2.GraphDef()
    out.node.extend(out_nodes)
    return out


def convert_variables_to_constants(sess, input_graph_def, output_node_names,
                                   variable_names_whitelist=None,
                                   variable_names_blacklist=None):
    """Freezes a graph: the subgraph `output_node_names` needs (extract_sub_graph), with every
    variable (VariableV2 / VarHandleOp; filtered by the white/blacklists of node names)
    replaced by a Const of its current value in `sess` (same node name, attrs dtype and
    value), each ReadVariableOp of a converted resource variable turned into an Identity (T)
    and each ResourceGather into GatherV2 (with a "<name>/axis" Const appended), as
    tf.compat.v1.graph_util.convert_variables_to_constants. Uninitialized variables raise
    FailedPreconditionError from the session; ValueError for ResourceGather with batch_dims."""
    graph_def = extract_sub_graph(input_graph_def, output_node_names)

    def should_convert(name):
        return ((variable_names_whitelist is None or name in variable_names_whitelist) and
                (variable_names_blacklist is None or name not in variable_names_blacklist))

    to_convert, fetches = [], []
    for node in graph_def.node:
        if node.op in _VARIABLE_OPS and should_convert(node.name):
            to_convert.append(node)
            fetches.append(node.name + ("/Read/ReadVariableOp" if node.op == "VarHandleOp"
                                        else "") + ":0")
    values = dict(zip([n.name for n in to_convert], sess.run(fetches))) if fetches else {}
    converted = {n.name for n in to_convert}

    out = graph_pb2.GraphDef()
    appended = []
    for node in graph_def.node:
        new = out.node.add()
        if node.name in values:
            new.name = node.name
            new.op = "Const"
            new.attr["dtype"].CopyFrom(node.attr["dtype"])
            new.attr["value"].tensor.CopyFrom(make_tensor_proto(
                np.asarray(values[node.name]), dtype=dtypes.as_dtype(node.attr["dtype"].type)))
            continue
        new.CopyFrom(node)
        src = _node_name(node.input[0]) if node.input else None
        if node.op == "ReadVariableOp" and src in converted:
            new.op = "Identity"
            new.attr["T"].CopyFrom(node.attr["dtype"])
            del new.attr["dtype"]
        elif node.op == "ResourceGather" and src in converted:
            if node.attr["batch_dims"].i != 0:
                raise ValueError("batch_dims must be 0 for freeze_graph, but got "
                                 "node({}).attr('batch_dims') = {}."
                                 .format(node.name, node.attr["batch_dims"].i))
            axis = node_def_pb2.NodeDef()
            axis.name = node.name + "/axis"
            axis.op = "Const"
            axis.attr["dtype"].CopyFrom(node.attr["Tindices"])
            axis.attr["value"].tensor.CopyFrom(make_tensor_proto(
                0, dtype=dtypes.as_dtype(node.attr["Tindices"].type)))
            appended.append(axis)
            new.Clear()
            new.name = node.name
            new.op = "GatherV2"
            new.input.extend([node.input[0], node.input[1], axis.name])
            new.attr["Tparams"].CopyFrom(node.attr["dtype"])
            new.attr["Tindices"].CopyFrom(node.attr["Tindices"])
            new.attr["Taxis"].CopyFrom(node.attr["Tindices"])
            if "_class" in node.attr:
                new.attr["_class"].CopyFrom(node.attr["_class"])
    out.node.extend(appended)
    out.library.CopyFrom(graph_def.library)
    out.versions.CopyFrom(graph_def.versions)
    return out
