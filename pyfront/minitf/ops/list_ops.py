"""TensorList ops (TensorFlow 2.21's list_ops.py): lists of tensors in a scalar DT_VARIANT
tensor, what tf.TensorArray uses under control flow v2. Each wrapper builds the op of the same
name (element shapes given as a TensorShape, a list with None for unknown dims, None for an
unknown shape, or a shape Tensor); errors at run time are InvalidArgumentError naming the node.
Fetching a list from Session.run raises InternalError, as in TensorFlow.
"""
import numpy as np

from minitf.framework import dtypes, ops, tensor_shape
from minitf.framework.op_def_library import apply_op, outputs_of


def _op(op_type, name=None, **kw):
    return outputs_of(apply_op(op_type, name=name, **kw))


def _build_element_shape(shape):
    """A value the list ops accept as element_shape: -1 for an unknown shape, an int32 vector
    (None dims as -1), or the Tensor given."""
    if isinstance(shape, ops.Tensor):
        return shape
    if isinstance(shape, tensor_shape.TensorShape):
        shape = shape.as_list() if shape.rank is not None else None
    if shape is None:
        return -1
    if isinstance(shape, (np.ndarray, np.generic)) or not shape:
        return ops.convert_to_tensor(shape, dtype=dtypes.int32)

    def dim(d):
        if d is None:
            return -1
        if isinstance(d, tensor_shape.Dimension):
            return -1 if d.value is None else d.value
        return d
    return [dim(d) for d in shape]


def empty_tensor_list(element_shape, element_dtype, max_num_elements=None, name=None):
    """EmptyTensorList: a list of no elements (at most max_num_elements when given)."""
    return _op("EmptyTensorList", name=name, element_shape=_build_element_shape(element_shape),
               element_dtype=element_dtype,
               max_num_elements=-1 if max_num_elements is None else max_num_elements)


def tensor_list_reserve(element_shape, num_elements, element_dtype, name=None):
    """TensorListReserve: a list of num_elements unset elements (reading one gives zeros)."""
    return _op("TensorListReserve", name=name, element_shape=_build_element_shape(element_shape),
               num_elements=num_elements, element_dtype=element_dtype)


def tensor_list_from_tensor(tensor, element_shape, name=None):
    """TensorListFromTensor: the rows of `tensor` (at least a vector) as a list."""
    tensor = ops.convert_to_tensor(tensor)
    return _op("TensorListFromTensor", name=name, tensor=tensor,
               element_shape=_build_element_shape(element_shape))


def tensor_list_get_item(input_handle, index, element_dtype, element_shape=None, name=None):
    """TensorListGetItem: element `index` (zeros of the element shape when unset)."""
    return _op("TensorListGetItem", name=name, input_handle=input_handle, index=index,
               element_shape=_build_element_shape(element_shape), element_dtype=element_dtype)


def tensor_list_set_item(input_handle, index, item, resize_if_index_out_of_bounds=False,
                         name=None):
    """TensorListSetItem: the list with element `index` replaced by `item`."""
    return _op("TensorListSetItem", name=name, input_handle=input_handle, index=index,
               item=item, resize_if_index_out_of_bounds=resize_if_index_out_of_bounds)


def tensor_list_push_back(input_handle, tensor, name=None):
    """TensorListPushBack: the list with `tensor` appended."""
    return _op("TensorListPushBack", name=name, input_handle=input_handle, tensor=tensor)


def tensor_list_pop_back(input_handle, element_dtype, name=None):
    """TensorListPopBack: (the list without its last element, that element)."""
    return _op("TensorListPopBack", name=name, input_handle=input_handle, element_shape=-1,
               element_dtype=element_dtype)


def tensor_list_stack(input_handle, element_dtype, num_elements=-1, element_shape=None,
                      name=None):
    """TensorListStack: the elements stacked along a new dim 0."""
    return _op("TensorListStack", name=name, input_handle=input_handle,
               element_shape=_build_element_shape(element_shape), element_dtype=element_dtype,
               num_elements=num_elements)


def tensor_list_gather(input_handle, indices, element_dtype, element_shape=None, name=None):
    """TensorListGather: elements `indices` stacked."""
    return _op("TensorListGather", name=name, input_handle=input_handle, indices=indices,
               element_shape=_build_element_shape(element_shape), element_dtype=element_dtype)


def tensor_list_scatter(tensor, indices, element_shape=None, input_handle=None, name=None):
    """Row i of `tensor` stored at indices[i]: into `input_handle`
    (TensorListScatterIntoExistingList) or a new list (TensorListScatterV2)."""
    tensor = ops.convert_to_tensor(tensor)
    if input_handle is not None:
        return _op("TensorListScatterIntoExistingList", name=name, input_handle=input_handle,
                   tensor=tensor, indices=indices)
    return _op("TensorListScatterV2", name=name, tensor=tensor, indices=indices,
               element_shape=_build_element_shape(element_shape), num_elements=-1)


def tensor_list_concat(input_handle, element_dtype, element_shape=None, name=None):
    """TensorListConcatV2: the elements joined along dim 0 (the lengths output dropped)."""
    return _op("TensorListConcatV2", name=name, input_handle=input_handle,
               element_dtype=element_dtype, element_shape=_build_element_shape(element_shape),
               leading_dims=ops.convert_to_tensor([], dtype=dtypes.int64))[0]


def tensor_list_split(tensor, element_shape, lengths, name=None):
    """TensorListSplit: `tensor` cut along dim 0 into pieces of `lengths` (int64)."""
    return _op("TensorListSplit", name=name, tensor=tensor,
               element_shape=_build_element_shape(element_shape), lengths=lengths)


def tensor_list_length(input_handle, name=None):
    """TensorListLength: the number of elements (int32 scalar)."""
    return _op("TensorListLength", name=name, input_handle=input_handle)


def tensor_list_element_shape(input_handle, shape_type, name=None):
    """TensorListElementShape: the list's element shape (-1 scalar when unknown)."""
    return _op("TensorListElementShape", name=name, input_handle=input_handle,
               shape_type=shape_type)


def tensor_list_resize(input_handle, size, name=None):
    """TensorListResize: the list cut or padded (with unset elements) to `size`."""
    return _op("TensorListResize", name=name, input_handle=input_handle, size=size)
