"""tf.sets (tf.compat.v1.sets): set operations along the last dimension of dense tensors or
SparseTensors (TensorFlow 2.21's python/ops/sets_impl.py over the C ops SetSize,
DenseToDenseSetOperation, DenseToSparseSetOperation, SparseToSparseSetOperation).

Each group of values sharing the first n-1 coordinates is a set; results are SparseTensors
whose groups hold the sorted result sets. Values must be int8/16/32/64, uint8/16 or string
(TypeError otherwise); mismatched group shapes fail with InvalidArgumentError.
"""
from minitf.framework import dtypes
from minitf.framework.op_def_library import apply_op, outputs_of
from minitf.framework.sparse_tensor import SparseTensor, convert_to_tensor_or_sparse_tensor

_VALID_DTYPES = frozenset([dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8,
                           dtypes.uint16, dtypes.string])


def _dtype_set_text():
    return str(_VALID_DTYPES)  # "frozenset({tf.int32, ...})", as TensorFlow words it


def set_size(a, validate_indices=True):
    """Number of unique elements along the last dimension of SparseTensor `a` (int32, shape
    a.dense_shape[:-1]) (tf.sets.size / tf.sets.set_size). TypeError for a dense `a` or an
    invalid dtype."""
    a = convert_to_tensor_or_sparse_tensor(a, name="a")
    if not isinstance(a, SparseTensor):
        raise TypeError("Expected `SparseTensor`, got %s." % a)
    if a.values.dtype.base_dtype not in _VALID_DTYPES:
        raise TypeError("Invalid dtype `%s` not in supported dtypes: `%s`." % (
            a.values.dtype, _dtype_set_text()))
    return outputs_of(apply_op("SetSize", set_indices=a.indices, set_values=a.values,
                               set_shape=a.dense_shape, validate_indices=validate_indices))


def _convert_to_tensors_or_sparse_tensors(a, b):
    a = convert_to_tensor_or_sparse_tensor(a, name="a")
    if a.dtype.base_dtype not in _VALID_DTYPES:
        raise TypeError("'a' has invalid dtype `%s` not in supported dtypes: `%s`." % (
            a.dtype, _dtype_set_text()))
    b = convert_to_tensor_or_sparse_tensor(b, name="b")
    if b.dtype.base_dtype != a.dtype.base_dtype:
        raise TypeError("Types don't match, %s vs %s." % (a.dtype, b.dtype))
    if isinstance(a, SparseTensor) and not isinstance(b, SparseTensor):
        return b, a, True
    return a, b, False


def _set_operation(a, b, set_operation, validate_indices=True):
    if isinstance(a, SparseTensor):
        if not isinstance(b, SparseTensor):
            raise ValueError("Sparse,Dense is not supported, but Dense,Sparse is. "
                             "Please flip the order of your inputs.")
        out = apply_op("SparseToSparseSetOperation", set1_indices=a.indices,
                       set1_values=a.values, set1_shape=a.dense_shape, set2_indices=b.indices,
                       set2_values=b.values, set2_shape=b.dense_shape,
                       set_operation=set_operation, validate_indices=validate_indices)
    elif isinstance(b, SparseTensor):
        out = apply_op("DenseToSparseSetOperation", set1=a, set2_indices=b.indices,
                       set2_values=b.values, set2_shape=b.dense_shape,
                       set_operation=set_operation, validate_indices=validate_indices)
    else:
        out = apply_op("DenseToDenseSetOperation", set1=a, set2=b, set_operation=set_operation,
                       validate_indices=validate_indices)
    indices, values, shape = outputs_of(out)
    return SparseTensor(indices, values, shape)


def set_intersection(a, b, validate_indices=True):
    """Intersection of the sets in the last dimension of `a` and `b` (tf.sets.intersection):
    a SparseTensor. a, b: dense Tensors or SparseTensors of the same dtype (a dense `b` with a
    sparse `a` is flipped; sparse a with dense b raises ValueError)."""
    a, b, _ = _convert_to_tensors_or_sparse_tensors(a, b)
    return _set_operation(a, b, "intersection", validate_indices)


def set_difference(a, b, aminusb=True, validate_indices=True):
    """a - b (or b - a when aminusb is False) of the sets in the last dimension
    (tf.sets.difference): a SparseTensor."""
    a, b, flipped = _convert_to_tensors_or_sparse_tensors(a, b)
    if flipped:
        aminusb = not aminusb
    return _set_operation(a, b, "a-b" if aminusb else "b-a", validate_indices)


def set_union(a, b, validate_indices=True):
    """Union of the sets in the last dimension of `a` and `b` (tf.sets.union): a
    SparseTensor."""
    a, b, _ = _convert_to_tensors_or_sparse_tensors(a, b)
    return _set_operation(a, b, "union", validate_indices)
