"""Sparse ops of the TF1 API (tensorflow/python/ops/sparse_ops.py): to_dense, reorder,
sparse_dense_matmul, add, and sparse_placeholder (array_ops.sparse_placeholder)."""
from minitf.framework import dtypes, ops, sparse_tensor, tensor_shape
from minitf.framework.op_def_library import apply_op, outputs_of
from minitf.framework.sparse_tensor import SparseTensor, SparseTensorValue
from minitf.ops import array_ops

_SPARSE = (SparseTensor, SparseTensorValue)


def _convert_to_sparse_tensor(sp_input):
    if isinstance(sp_input, SparseTensorValue):
        return SparseTensor.from_value(sp_input)
    if not isinstance(sp_input, SparseTensor):
        raise TypeError("Input must be a SparseTensor.")
    return sp_input


def sparse_placeholder(dtype, shape=None, name=None):
    """A SparseTensor of three placeholders to feed (tf.compat.v1.sparse_placeholder).

    Args:
      dtype: the values' dtype.
      shape: None (any dense shape: a Placeholder "name/shape"), or a list/tuple with None
        or -1 for unknown dims, or an int64 Tensor: then "name/shape" is a
        PlaceholderWithDefault of that shape (a Const "name/shape_default").
      name: prefix of the placeholders "name/indices", "name/values", "name/shape"
        (None: "Placeholder", "Placeholder_1", ... in TensorFlow's order).
    Returns a SparseTensor whose static shape is `shape`. Feed it a SparseTensorValue or an
    (indices, values, dense_shape) tuple.
    """
    shape_name = (name + "/shape") if name is not None else None
    default_shape_name = (name + "/shape_default") if name is not None else None
    if shape is None:
        rank = None
        dense_shape = array_ops.placeholder(dtypes.int64, shape=[rank], name=shape_name)
        dense_shape_default = sparse_tensor._constant_value_as_shape(dense_shape)
    else:
        if isinstance(shape, ops.Tensor):
            rank = tensor_shape.dimension_value(shape.get_shape()[0])
            dense_shape_default = sparse_tensor._constant_value_as_shape(shape)
        else:
            rank = len(shape)
            dense_shape_default = tensor_shape.TensorShape(
                tuple(None if dim == -1 else dim for dim in shape))
            shape = tuple(tensor_shape.dimension_value(dim) for dim in shape)
            shape = tuple(-1 if dim is None else dim for dim in shape)
            shape = ops.convert_to_tensor(shape, dtype=dtypes.int64, name=default_shape_name)
        dense_shape = array_ops.placeholder_with_default(shape, shape=shape.shape,
                                                         name=shape_name)
    result = SparseTensor(
        values=array_ops.placeholder(dtype, shape=[None],
                                     name=(name + "/values") if name is not None else None),
        indices=array_ops.placeholder(dtypes.int64, shape=[None, rank],
                                      name=(name + "/indices") if name is not None else None),
        dense_shape=dense_shape)
    result.set_shape(dense_shape_default)
    return result


def sparse_tensor_to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """The dense Tensor of a SparseTensor (tf.sparse.to_dense; op SparseToDense).

    Args:
      sp_input: SparseTensor or SparseTensorValue (else TypeError "Input must be a
        SparseTensor.").
      default_value: scalar for unspecified positions (default 0 / "" / False, a Const
        "zeros").
      validate_indices: check that indices are sorted, unique and in bounds; errors at run
        time are InvalidArgumentError ("indices[1] = [0,1] is out of order. ...",
        "... is repeated", "... is out of bounds: need 0 <= index < [2,2]").
    Returns a Tensor of shape dense_shape and sp_input's dtype.
    """
    sp_input = _convert_to_sparse_tensor(sp_input)
    if default_value is None:
        default_value = array_ops.zeros([], dtype=sp_input.dtype)
    return outputs_of(apply_op("SparseToDense", sparse_indices=sp_input.indices,
                               output_shape=sp_input.dense_shape,
                               sparse_values=sp_input.values, default_value=default_value,
                               validate_indices=validate_indices, name=name))


def sparse_reorder(sp_input, name=None):
    """The SparseTensor with indices in row-major order (tf.sparse.reorder; op SparseReorder).

    Entries with equal indices keep their relative order. The dense_shape is a constant
    when the static shape is fully known, else an Identity of the input's.
    """
    sp_input = _convert_to_sparse_tensor(sp_input)
    ind, val = outputs_of(apply_op("SparseReorder", input_indices=sp_input.indices,
                                   input_values=sp_input.values,
                                   input_shape=sp_input.dense_shape, name=name))
    if sp_input.get_shape().is_fully_defined():
        return SparseTensor(ind, val, sp_input.get_shape().as_list())
    dense_shape = array_ops.identity(sp_input.dense_shape)
    sp_output = SparseTensor(ind, val, dense_shape)
    sp_output.set_shape(sp_input.shape)
    return sp_output


def sparse_tensor_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """SparseTensor (rank 2) times dense matrix (tf.sparse.sparse_dense_matmul; op
    SparseTensorDenseMatMul in a scope "SparseTensorDenseMatMul").

    When `b` is sparse and `sp_a` dense, computes the transposed product as TensorFlow
    does. Shapes: op(A) [m, k] x op(B) [k, n] -> [m, n]; ValueError when known inner dims
    differ; InvalidArgumentError at run time for indices out of bounds ("k (3) from
    index[0,1] out of bounds (>=3)").
    """
    if isinstance(b, _SPARSE):
        if adjoint_a != adjoint_b:
            return array_ops.transpose(sparse_tensor_dense_matmul(b, sp_a, adjoint_a, adjoint_b))
        return array_ops.transpose(sparse_tensor_dense_matmul(
            b, sp_a, adjoint_a=not adjoint_a, adjoint_b=not adjoint_b))
    sp_a = _convert_to_sparse_tensor(sp_a)
    with ops.name_scope(name, "SparseTensorDenseMatMul", [sp_a.indices, sp_a.values, b]):
        b = ops.convert_to_tensor(b, name="b")
        return outputs_of(apply_op("SparseTensorDenseMatMul", a_indices=sp_a.indices,
                                   a_values=sp_a.values, a_shape=sp_a.dense_shape, b=b,
                                   adjoint_a=adjoint_a, adjoint_b=adjoint_b))


def _broadcast_static_shape(a, b):
    """Static broadcast of two compatible TensorShapes (unknown dims stay unknown unless
    the other side fixes them above 1)."""
    if a.rank is None or b.rank is None:
        return tensor_shape.unknown_shape()
    x, y = a.as_list(), b.as_list()
    n = max(len(x), len(y))
    x = [1] * (n - len(x)) + x
    y = [1] * (n - len(y)) + y
    dims = []
    for p, q in zip(x, y):
        if p is None or q is None:
            known = q if p is None else p
            dims.append(known if known is not None and known > 1 else None)
        else:
            dims.append(max(p, q) if min(p, q) == 1 else p)
    return tensor_shape.TensorShape(dims)


def sparse_add(a, b, threshold=None, thresh=None):
    """a + b with at least one SparseTensor (tf.compat.v1.sparse.add / sparse_add).

    Two sparse operands (indices sorted) give a SparseTensor (op SparseAdd); sums whose
    magnitude is below `threshold` are dropped (entries of one operand only are kept). A
    sparse and a dense operand give a dense Tensor (op SparseTensorDenseAdd).
    `thresh` is the deprecated name of `threshold`.
    Raises TypeError when neither is sparse ("At least one input should be SparseTensor;
    do you mean to use tf.add()?"), ValueError for incompatible static shapes.
    """
    if threshold is not None and thresh is not None:
        raise ValueError("Cannot specify both 'threshold' and 'thresh'")
    threshold = thresh if threshold is None else threshold
    if threshold is None:
        threshold = 0
    if not any(isinstance(x, _SPARSE) for x in (a, b)):
        raise TypeError("At least one input should be SparseTensor; do you mean to use tf.add()?")
    if all(isinstance(x, _SPARSE) for x in (a, b)):
        a = _convert_to_sparse_tensor(a)
        b = _convert_to_sparse_tensor(b)
        threshold = ops.convert_to_tensor(threshold, dtype=a.values.dtype.real_dtype.base_dtype,
                                          name="threshold")
        ind, val, shape = outputs_of(apply_op(
            "SparseAdd", a_indices=a.indices, a_values=a.values, a_shape=a.dense_shape,
            b_indices=b.indices, b_values=b.values, b_shape=b.dense_shape, thresh=threshold))
        a.get_shape().assert_is_compatible_with(b.get_shape())
        static_shape = _broadcast_static_shape(a.get_shape(), b.get_shape())
        if static_shape.is_fully_defined():
            shape = static_shape.as_list()
        return SparseTensor(ind, val, shape)
    if isinstance(b, _SPARSE):
        a, b = b, a
    return outputs_of(apply_op("SparseTensorDenseAdd", a_indices=a.indices, a_values=a.values,
                               a_shape=a.dense_shape, b=b))
