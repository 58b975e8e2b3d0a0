"""tf.compat.v1.saved_model.utils: TensorInfo protos naming graph tensors
(TensorFlow's saved_model/utils_impl.py)."""
import os

from minitf.core.framework import tensor_shape_pb2, types_pb2
from minitf.core.protobuf import meta_graph_pb2
from minitf.framework import dtypes, ops
from minitf.framework.meta_graph import prepend_name_scope
from minitf.saved_model import constants


def build_tensor_info(tensor):
    """The TensorInfo of a Tensor (name, dtype, shape), a SparseTensor (coo_sparse with
    the names of its indices, values and dense_shape; the values' dtype and the dense
    shape) or a resource variable (its handle's name, its dtype and shape)."""
    from minitf.framework.sparse_tensor import SparseTensor
    info = meta_graph_pb2.TensorInfo()
    info.dtype = dtypes.as_dtype(tensor.dtype).base_dtype.as_datatype_enum
    info.tensor_shape.CopyFrom(tensor.get_shape().as_proto())
    if isinstance(tensor, SparseTensor):
        info.coo_sparse.values_tensor_name = tensor.values.name
        info.coo_sparse.indices_tensor_name = tensor.indices.name
        info.coo_sparse.dense_shape_tensor_name = tensor.dense_shape.name
    else:
        info.name = tensor.name
    return info


def build_tensor_info_from_op(op):
    """A TensorInfo naming an op (dtype DT_INVALID, unknown rank): how the builder records
    init and train ops in signatures."""
    return meta_graph_pb2.TensorInfo(
        dtype=types_pb2.DT_INVALID, name=op.name,
        tensor_shape=tensor_shape_pb2.TensorShapeProto(unknown_rank=True))


def get_tensor_from_tensor_info(tensor_info, graph=None, import_scope=None):
    """The Tensor (or SparseTensor) a TensorInfo names in `graph` (default graph), names
    prefixed by import_scope. KeyError when it is not in the graph, ValueError for a
    TensorInfo with no encoding."""
    graph = graph or ops.get_default_graph()

    def get(name):
        return graph.get_tensor_by_name(prepend_name_scope(name, import_scope))

    encoding = tensor_info.WhichOneof("encoding")
    if encoding == "name":
        return get(tensor_info.name)
    if encoding == "coo_sparse":
        from minitf.framework.sparse_tensor import SparseTensor
        c = tensor_info.coo_sparse
        return SparseTensor(get(c.indices_tensor_name), get(c.values_tensor_name),
                            get(c.dense_shape_tensor_name))
    raise ValueError("Invalid TensorInfo.encoding: %s. Expected `coo_sparse`, "
                     "`composite_tensor`, or `name` for a dense tensor." % encoding)


def get_element_from_tensor_info(tensor_info, graph=None, import_scope=None):
    """The op or tensor a TensorInfo's name names (init and train ops)."""
    graph = graph or ops.get_default_graph()
    return graph.as_graph_element(prepend_name_scope(tensor_info.name, import_scope))


def get_variables_dir(export_dir):
    return os.path.join(os.fspath(export_dir), constants.VARIABLES_DIRECTORY)


def get_variables_path(export_dir):
    return os.path.join(get_variables_dir(export_dir), constants.VARIABLES_FILENAME)


def get_assets_dir(export_dir):
    return os.path.join(os.fspath(export_dir), constants.ASSETS_DIRECTORY)
