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


# --- Python-composed sparse functions (TensorFlow's sparse_ops.py builds them from dense ops) ---

def from_dense(tensor, name=None):
    """The SparseTensor of a dense tensor's nonzero entries (tf.sparse.from_dense): Where of
    NotEqual(tensor, zeros_like), GatherNd, Shape (int64), in a scope "dense_to_sparse".

    Args:
      tensor: a dense Tensor (any dtype with a zero: numbers, bool, string "").
    Returns:
      SparseTensor with int64 indices [N, rank] in row-major order.
    """
    from minitf.ops import indexing_ops, math_ops
    with ops.name_scope(name, "dense_to_sparse"):
        tensor = ops.convert_to_tensor(tensor)
        indices = math_ops.where_v2(math_ops.not_equal(tensor, array_ops.zeros_like(tensor)))
        values = indexing_ops.gather_nd(tensor, indices)
        shape = array_ops.shape(tensor, out_type=dtypes.int64)
        return SparseTensor(indices, values, shape)


def sparse_expand_dims(sp_input, axis=None, name=None):
    """A SparseTensor with a new dimension of size 1 at `axis` (tf.sparse.expand_dims; default
    -1, the last): a zero column spliced into the indices and a 1 into dense_shape.

    Raises:
      TypeError: axis neither an integer nor a Tensor.
    """
    from minitf.ops import indexing_ops, math_ops
    rank = sp_input.dense_shape.get_shape()[0]
    rank = rank.value if hasattr(rank, "value") else rank
    if rank is None:
        rank = array_ops.shape(sp_input.dense_shape)[0]
    axis = -1 if axis is None else axis
    with ops.name_scope(name, default_name="expand_dims", values=[sp_input]):
        if isinstance(axis, int) and not isinstance(axis, bool):
            axis = ops.convert_to_tensor(axis, name="axis", dtype=dtypes.int32)
        elif not isinstance(axis, ops.Tensor):
            raise TypeError("axis must be an integer value in range [-rank(sp_input) - 1, "
                            "rank(sp_input)]")
        axis = math_ops.where_v2(axis >= 0, axis, axis + rank + 1)
        column_size = array_ops.shape(sp_input.indices)[0]
        new_index = array_ops.zeros([column_size, 1], dtype=dtypes.int64)
        indices_before = indexing_ops.slice(sp_input.indices, [0, 0], [-1, axis])
        indices_after = indexing_ops.slice(sp_input.indices, [0, axis], [-1, -1])
        indices = array_ops.concat([indices_before, new_index, indices_after], axis=1)
        shape_before = indexing_ops.slice(sp_input.dense_shape, [0], [axis])
        shape_after = indexing_ops.slice(sp_input.dense_shape, [axis], [-1])
        new_shape = ops.convert_to_tensor([1], name="new_shape", dtype=dtypes.int64)
        shape = array_ops.concat([shape_before, new_shape, shape_after], axis=0)
        return SparseTensor(indices=indices, values=sp_input.values, dense_shape=shape)


def _make_int64_tensor(value, name):
    from minitf.ops import math_ops
    if isinstance(value, int) and not isinstance(value, bool):
        return ops.convert_to_tensor(value, name=name, dtype=dtypes.int64)
    if not isinstance(value, ops.Tensor):
        raise TypeError("{} must be an integer value".format(name))
    if value.dtype == dtypes.int64:
        return value
    return math_ops.cast(value, dtypes.int64)


def sparse_eye(num_rows, num_columns=None, dtype=dtypes.float32, name=None):
    """A sparse identity matrix [num_rows, num_columns] of ones of `dtype` (tf.sparse.eye).

    Raises:
      TypeError: num_rows / num_columns neither Python ints nor Tensors.
    """
    from minitf.ops import math_ops
    with ops.name_scope(name, default_name="eye", values=[num_rows, num_columns]):
        num_rows = _make_int64_tensor(num_rows, "num_rows")
        num_columns = num_rows if num_columns is None else _make_int64_tensor(
            num_columns, "num_columns")
        diag_size = math_ops.minimum(num_rows, num_columns)
        diag_range = array_ops.range(diag_size, dtype=dtypes.int64)
        return SparseTensor(indices=array_ops.stack([diag_range, diag_range], axis=1),
                            values=array_ops.ones(diag_size, dtype=dtype),
                            dense_shape=[num_rows, num_columns])


def sparse_retain(sp_input, to_retain):
    """The entries of sp_input where the bool vector to_retain is True (tf.sparse.retain):
    Where + Gather of indices and values, dense_shape through Identity.

    Raises:
      ValueError: to_retain not rank 1, or its length not the number of values.
    """
    from minitf.ops import indexing_ops, math_ops
    sp_input = _convert_to_sparse_tensor(sp_input)
    to_retain = ops.convert_to_tensor(to_retain)
    retain_shape = to_retain.get_shape()
    retain_shape.assert_has_rank(1)
    if sp_input.values.get_shape().dims is not None:
        sp_input.values.get_shape().dims[0].assert_is_compatible_with(
            retain_shape.dims[0] if retain_shape.rank is not None else None)
    where_true = array_ops.reshape(math_ops.where_v2(to_retain), [-1])
    new_indices = indexing_ops.gather(sp_input.indices, where_true)
    new_values = indexing_ops.gather(sp_input.values, where_true)
    return SparseTensor(new_indices, new_values, array_ops.identity(sp_input.dense_shape))


def sparse_reset_shape(sp_input, new_shape=None):
    """sp_input with a new dense_shape (tf.sparse.reset_shape): `new_shape`, checked to be
    at least the old one (statically when known, else by Assert ops), or when None the
    tight bounding box max(indices) + 1.

    Raises:
      ValueError: new_shape not rank 1, of another length, or smaller than sp_input's shape.
    """
    from minitf.framework import constant_op
    from minitf.ops import check_ops, control_flow_ops, math_ops, reduction_ops
    sp_input = _convert_to_sparse_tensor(sp_input)
    in_indices = array_ops.identity(sp_input.indices)
    in_values = array_ops.identity(sp_input.values)
    in_shape = array_ops.identity(sp_input.dense_shape)
    if new_shape is None:
        dim_low_bound = reduction_ops.reduce_max(in_indices, axis=0)
        output_shape_tensor = math_ops.maximum(
            constant_op.constant(0, dtype=dtypes.int64),
            math_ops.add(dim_low_bound, array_ops.ones_like(in_shape)))
    else:
        import numpy as np
        output_shape_tensor = ops.convert_to_tensor(new_shape)
        output_shape_tensor.get_shape().assert_has_rank(1)
        output_shape_tensor = math_ops.cast(output_shape_tensor, dtypes.int64)
        if output_shape_tensor.get_shape().rank is not None:
            output_shape_tensor.get_shape().dims[0].assert_is_compatible_with(
                in_shape.get_shape().dims[0])
        output_shape_tensor_const = sparse_tensor._constant_value(output_shape_tensor)
        if (output_shape_tensor_const is not None
                and sp_input.get_shape().is_fully_defined()):
            in_shape_const = np.array(sp_input.get_shape().as_list())
            if not np.all(in_shape_const <= output_shape_tensor_const):
                raise ValueError(
                    "Requested new_shape should have dimension sizes >= sp_input.shape."
                    "  Found new_shape (%s), sp_input.shape (%s)."
                    % (in_shape_const, output_shape_tensor_const))
            output_shape_tensor = output_shape_tensor_const
        else:
            output_shape_tensor = control_flow_ops.with_dependencies([
                check_ops.assert_equal(array_ops.shape(in_shape),
                                       array_ops.shape(output_shape_tensor))],
                output_shape_tensor)
            output_shape_tensor = control_flow_ops.with_dependencies(
                [check_ops.assert_less_equal(in_shape, output_shape_tensor)],
                output_shape_tensor)
    return SparseTensor(in_indices, in_values, output_shape_tensor)


def sparse_transpose(sp_input, perm=None, name=None):
    """sp_input with its dimensions permuted (tf.sparse.transpose; default: reversed): the
    index columns gathered by perm, then SparseReorder, in a scope "SparseTranspose"."""
    import numpy as np
    from minitf.ops import indexing_ops
    with ops.name_scope(name, "SparseTranspose", [sp_input]) as name:
        if perm is None:
            if sp_input.shape.rank is not None:
                rank = sp_input.shape.rank
                perm = (rank - 1) - np.arange(0, rank, 1)
            else:
                rank = array_ops.rank(sp_input)
                perm = (rank - 1) - array_ops.range(0, rank, 1)
        indices = sp_input.indices
        transposed_indices = array_ops.transpose(
            indexing_ops.gather(array_ops.transpose(indices), perm))
        perm_ = sparse_tensor._constant_value(ops.convert_to_tensor(perm))
        if perm_ is not None and sp_input.get_shape().is_fully_defined():
            old_shape_ = sp_input.get_shape().as_list()
            transposed_dense_shape = list(old_shape_)
            for i, p in enumerate(perm_):
                transposed_dense_shape[i] = old_shape_[p]
        else:
            transposed_dense_shape = indexing_ops.gather(sp_input.dense_shape, perm)
        transposed_st = SparseTensor(transposed_indices, sp_input.values,
                                     transposed_dense_shape)
        return sparse_reorder(transposed_st)


def _sparse_merge_impl(sp_ids, sp_values, vocab_size, name=None, already_sorted=False):
    import collections.abc
    from minitf.ops import math_ops
    if isinstance(sp_ids, _SPARSE):
        sp_ids = [sp_ids]
        if not (isinstance(vocab_size, ops.Tensor) or isinstance(vocab_size, int)):
            raise TypeError("vocab_size has to be a Tensor or Python int. Found %s"
                            % type(vocab_size))
        vocab_size = [vocab_size]
    else:
        if not isinstance(sp_ids, collections.abc.Iterable):
            raise TypeError("sp_ids has to be a SparseTensor or list thereof. Found %s"
                            % type(sp_ids))
        if not isinstance(vocab_size, collections.abc.Iterable):
            raise TypeError("vocab_size has to be a list of Tensors or Python ints. Found %s"
                            % type(vocab_size))
        for dim in vocab_size:
            if not (isinstance(dim, ops.Tensor) or isinstance(dim, int)):
                raise TypeError("vocab_size has to be a list of Tensors or Python ints. "
                                "Found %s" % type(dim))
    if len(sp_ids) != len(vocab_size):
        raise ValueError("sp_ids and vocab_size have to have equal lengths.")
    with ops.name_scope(name, "SparseMerge", [sp_ids, sp_values]):
        sp_ids = [_convert_to_sparse_tensor(s) for s in sp_ids]
        sp_values = _convert_to_sparse_tensor(sp_values)
        ids = []
        for sp_ids_dim in sp_ids:
            ids_dim = sp_ids_dim.values
            if sp_ids_dim.dtype != dtypes.int64:
                ids_dim = math_ops.cast(ids_dim, dtypes.int64)
            ids += [array_ops.expand_dims(ids_dim, axis=1)]
        vocab_size = [math_ops.cast(x, dtypes.int64) for x in vocab_size]
        indices_columns_to_preserve = sp_ids[0].indices[:, :-1]
        new_indices = array_ops.concat([indices_columns_to_preserve] + ids, 1)
        new_values = sp_values.values
        new_shape = array_ops.concat([sp_ids[0].dense_shape[:-1], vocab_size], 0)
        result = SparseTensor(new_indices, new_values, new_shape)
        if already_sorted:
            return result
        sorted_result = sparse_reorder(result)
        return SparseTensor(sorted_result.indices, sorted_result.values, new_shape)


def sparse_merge(sp_ids, sp_values, vocab_size, name=None, already_sorted=False):
    """Ids and values merged into one SparseTensor whose last dimension is the id
    (tf.sparse.merge, deprecated in TF): indices[:, :-1] + ids, shape [..., vocab_size],
    reordered unless already_sorted.

    Raises:
      TypeError / ValueError: TensorFlow's checks of sp_ids and vocab_size.
    """
    return _sparse_merge_impl(sp_ids, sp_values, vocab_size, name, already_sorted)


def sparse_to_indicator(sp_input, vocab_size, name=None):
    """A dense bool tensor [..., vocab_size], True at each id of the last dimension's values
    (tf.sparse.to_indicator): sparse_merge of sp_input with True values, then SparseToDense
    with validate_indices=False, in a scope "SparseToIndicator"."""
    sp_input = _convert_to_sparse_tensor(sp_input)
    with ops.name_scope(name, "SparseToIndicator", [sp_input]) as name:
        num_entries = array_ops.shape(sp_input.indices)[0]
        new_values = array_ops.fill(array_ops.expand_dims(num_entries, 0), True)
        sp_values = SparseTensor(sp_input.indices, new_values, sp_input.dense_shape)
        sp_new = _sparse_merge_impl(sp_input, sp_values, vocab_size, name)
        return sparse_tensor_to_dense(sp_new, default_value=False, validate_indices=False,
                                      name=name)


def sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value=0,
                    validate_indices=True, name=None):
    """A dense tensor from indices and values (tf.sparse_to_dense, deprecated in TF; op
    SparseToDense). Args as the op: indices [N, rank] / [N] / scalar, output_shape [rank],
    values [N] or a scalar, default_value scalar."""
    return outputs_of(apply_op("SparseToDense", sparse_indices=sparse_indices,
                               output_shape=output_shape, sparse_values=sparse_values,
                               default_value=default_value, validate_indices=validate_indices,
                               name=name))


def sparse_mask(a, mask_indices, name=None):
    """The IndexedSlices `a` without the slices whose index is in mask_indices
    (tf.sparse.mask, tf.sparse_mask): ListDiff of the indices, Gather of the values, in a
    scope "sparse_mask"."""
    from minitf.framework.indexed_slices import IndexedSlices
    from minitf.ops import indexing_ops
    with ops.name_scope(name, "sparse_mask", [a, mask_indices]) as name:
        out_indices, to_gather = outputs_of(apply_op("ListDiff", x=a.indices, y=mask_indices))
        out_values = indexing_ops.gather(a.values, to_gather, name=name)
        return IndexedSlices(out_values, out_indices, a.dense_shape)


# --- wrappers of the sparse kernels in runtime/kernels/sparse/ ---

def sparse_reshape(sp_input, shape, name=None):
    """sp_input under a new dense shape with the same number of elements (tf.sparse.reshape;
    op SparseReshape in a scope "SparseReshape"; at most one -1 dimension, inferred).

    The result's dense_shape is a constant when sp_input's shape and `shape` are known.

    Raises:
      ValueError: more than one -1, or element counts that differ, when known statically.
      InvalidArgumentError (at run time): the same checks on values known only then.
    """
    import numpy as np
    from minitf.ops import math_ops
    sp_input = _convert_to_sparse_tensor(sp_input)
    shape = math_ops.cast(shape, dtype=dtypes.int64)
    with ops.name_scope(name, "SparseReshape", [sp_input]) as name:
        reshaped_ind, reshaped_shape = outputs_of(apply_op(
            "SparseReshape", input_indices=sp_input.indices, input_shape=sp_input.dense_shape,
            new_shape=shape, name=name))
        reshaped_shape_const = sparse_tensor._constant_value_as_shape(shape)
        reshaped_shape_const = (reshaped_shape_const.as_list()
                                if reshaped_shape_const.ndims is not None else None)
        if reshaped_shape_const is not None and sp_input.shape.is_fully_defined():
            shape_const_by_user = sparse_tensor._constant_value(shape)
            if shape_const_by_user is not None:
                num_implied_by_user = sum(d == -1 for d in shape_const_by_user)
                if num_implied_by_user > 1:
                    raise ValueError("At most one dimension can be inferred (-1). Found: %s"
                                     % shape_const_by_user)
            original_reshaped_shape = list(reshaped_shape_const)
            in_shape_size = np.prod(sp_input.shape.as_list())
            num_implied = sum(dim is None for dim in reshaped_shape_const)
            if num_implied == 1 and 0 not in reshaped_shape_const:
                implied_idx = original_reshaped_shape.index(None)
                non_implied_idx = (original_reshaped_shape[:implied_idx]
                                   + original_reshaped_shape[implied_idx + 1:])
                reshaped_shape_const[implied_idx] = int(in_shape_size // np.prod(non_implied_idx))
            if num_implied == 0 or (num_implied == 1 and 0 not in reshaped_shape_const):
                reshaped_size = np.prod(reshaped_shape_const)
                if reshaped_size != in_shape_size:
                    raise ValueError("Cannot reshape a tensor with %d elements to shape %s "
                                     "(%d elements)." % (in_shape_size, original_reshaped_shape,
                                                         reshaped_size))
                from minitf.framework import constant_op
                reshaped_shape = constant_op.constant(reshaped_shape_const, dtype=dtypes.int64)
        return SparseTensor(reshaped_ind, array_ops.identity(sp_input.values), reshaped_shape)


def _sparse_reduction_dims(sp_input, axis):
    """math_ops._ReductionDims for a SparseTensor: axis as given, else every dim (a Const
    when the rank is known, else Range(0, Rank))."""
    import numpy as np
    from minitf.framework import constant_op
    if axis is not None:
        return axis
    rank = sp_input.shape.rank
    if rank:
        return constant_op.constant(np.arange(rank, dtype=np.int32))
    return array_ops.range(0, array_ops.rank(sp_input))


def _keepdims(keepdims, keep_dims):
    if keepdims is not None and keep_dims is not None:
        raise ValueError("Cannot specify both 'keep_dims' and 'keepdims'.")
    keepdims = keep_dims if keepdims is None else keepdims
    return False if keepdims is None else keepdims


def _axis(axis, reduction_axes):
    if axis is not None and reduction_axes is not None:
        raise ValueError("Cannot specify both 'reduction_axes' and 'axis'.")
    return reduction_axes if axis is None else axis


def sparse_reduce_max(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    """Max of a SparseTensor's entries over `axis` (all when None), as a dense tensor
    (tf.sparse.reduce_max, tf.sparse_reduce_max; op SparseReduceMax). Positions no entry
    reaches are 0, as in TensorFlow; real number dtypes.

    Raises:
      InvalidArgumentError (at run time): "Invalid reduction dimension 2, for input with 2
      dimensions." and TensorFlow's SparseTensor checks.
    """
    keepdims = _keepdims(keepdims, keep_dims)
    axis = _axis(axis, reduction_axes)
    return outputs_of(apply_op("SparseReduceMax", input_indices=sp_input.indices,
                               input_values=sp_input.values, input_shape=sp_input.dense_shape,
                               reduction_axes=_sparse_reduction_dims(sp_input, axis),
                               keep_dims=keepdims))


def _reduce_sparse(op_type, sp_input, axis, keepdims):
    ind, val, shape = outputs_of(apply_op(
        op_type, input_indices=sp_input.indices, input_values=sp_input.values,
        input_shape=sp_input.dense_shape,
        reduction_axes=_sparse_reduction_dims(sp_input, axis), keep_dims=keepdims))
    return SparseTensor(ind, val, shape)


def sparse_reduce_max_sparse(sp_input, axis=None, keepdims=None, reduction_axes=None,
                             keep_dims=None):
    """As sparse_reduce_max, the result a SparseTensor of the groups that had entries
    (tf.sparse.reduce_max_sparse; op SparseReduceMaxSparse)."""
    return _reduce_sparse("SparseReduceMaxSparse", sp_input, _axis(axis, reduction_axes),
                          _keepdims(keepdims, keep_dims))


def sparse_reduce_sum_sparse(sp_input, axis=None, keepdims=None, reduction_axes=None,
                             keep_dims=None):
    """Sum of a SparseTensor's entries over `axis`, as a SparseTensor of the groups that had
    entries (tf.sparse.reduce_sum_sparse; op SparseReduceSumSparse; number dtypes)."""
    return _reduce_sparse("SparseReduceSumSparse", sp_input, _axis(axis, reduction_axes),
                          _keepdims(keepdims, keep_dims))


def _convert_to_sparse_tensors(sp_inputs):
    if isinstance(sp_inputs, list):
        return [_convert_to_sparse_tensor(s) for s in sp_inputs]
    if isinstance(sp_inputs, tuple):
        return (_convert_to_sparse_tensor(s) for s in sp_inputs)
    raise TypeError("Inputs must be a list or tuple.")


def _sparse_concat_v2(axis, sp_inputs, expand_nonconcat_dims=False, name=None):
    from minitf.framework import constant_op
    from minitf.ops import reduction_ops
    sp_inputs = _convert_to_sparse_tensors(sp_inputs)
    if len(sp_inputs) == 1:
        return sp_inputs[0]
    inds = [s.indices for s in sp_inputs]
    vals = [s.values for s in sp_inputs]
    shapes = [s.dense_shape for s in sp_inputs]
    if expand_nonconcat_dims:
        max_shape = reduction_ops.reduce_max(
            array_ops.concat([array_ops.reshape(shape, [1, -1]) for shape in shapes], 0), 0)
        shapes = [array_ops.concat([max_shape[:axis],
                                    shape[-1:] if axis == -1 else shape[axis:axis + 1],
                                    [] if axis == -1 else max_shape[axis + 1:]], 0)
                  for shape in shapes]
    output_ind, output_val, output_shape = outputs_of(apply_op(
        "SparseConcat", indices=inds, values=vals, shapes=shapes, concat_dim=axis, name=name))
    input_shapes = [inp.shape for inp in sp_inputs]

    def dim(shape, i):
        return tensor_shape.dimension_value(shape.dims[i]) if shape.rank is not None else None

    if all(shape.rank is not None for shape in input_shapes):
        if expand_nonconcat_dims:
            static_output_shape = []
            for d in range(input_shapes[0].rank):
                sizes = [dim(shape, d) for shape in input_shapes]
                static_output_shape.append(None if None in sizes else max(sizes))
        else:
            static_output_shape = [tensor_shape.dimension_value(d) for d in input_shapes[0].dims]
        sizes = [dim(shape, axis) for shape in input_shapes]
        static_output_shape[axis] = None if None in sizes else sum(sizes)
    else:
        static_output_shape = tensor_shape.unknown_shape()
    if all(shape.is_fully_defined() for shape in input_shapes):
        output_shape = constant_op.constant(static_output_shape, dtype=dtypes.int64)
        return SparseTensor(output_ind, output_val, output_shape)
    output = SparseTensor(output_ind, output_val, output_shape)
    output.set_shape(tensor_shape.TensorShape(static_output_shape))
    return output


def sparse_concat(axis, sp_inputs, name=None, expand_nonconcat_dim=False, concat_dim=None,
                  expand_nonconcat_dims=None):
    """SparseTensors joined along `axis` (tf.sparse.concat, tf.sparse_concat; op SparseConcat),
    entries in row-major order. With expand_nonconcat_dim(s) the other dimensions take the
    largest size among the inputs.

    Args:
      axis: Python int, the dimension (negative counts from the end); `concat_dim` is its
        deprecated name.
      sp_inputs: list of SparseTensors of one dtype and rank.
    Returns:
      SparseTensor; its dense_shape is a constant when every input's shape is known.

    Raises:
      TypeError: inputs not a list/tuple of SparseTensors.
      ValueError: both axis and concat_dim, or both expand flags given.
      InvalidArgumentError (at run time): "Input shapes must match: expected 3 for dimension
      1 but got 4 at position 1", ranks that differ, an axis out of range.
    """
    if expand_nonconcat_dims is not None:
        if expand_nonconcat_dim:
            raise ValueError("Cannot specify both 'expand_nonconcat_dim' and "
                             "'expand_nonconcat_dims'.")
        expand_nonconcat_dim = expand_nonconcat_dims
    if concat_dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'concat_dim' and 'axis'.")
        axis = concat_dim
    return _sparse_concat_v2(axis, sp_inputs, expand_nonconcat_dim, name)


class KeywordRequired:
    """The default of sparse_split's first parameter: its arguments must be keywords."""

    def __repr__(self):
        return "KeywordRequired()"


def sparse_split(keyword_required=KeywordRequired(), sp_input=None, num_split=None, axis=None,
                 name=None, split_dim=None):
    """A SparseTensor cut into num_split SparseTensors along axis (tf.sparse.split,
    tf.sparse_split; op SparseSplit), the first (size % num_split) one longer. Arguments must
    be given by keyword; split_dim is axis's deprecated name.

    Raises:
      ValueError: positional arguments, or sp_input / num_split / axis missing.
      InvalidArgumentError (at run time): "Input num_split should be between 1 and the
      splitting dimension size (4), got 5", an axis out of range.
    """
    if not isinstance(keyword_required, KeywordRequired):
        raise ValueError("Keyword arguments are required for this function.")
    if sp_input is None:
        raise ValueError("sp_input is required")
    if num_split is None:
        raise ValueError("num_split is required")
    if axis is None:
        raise ValueError("axis is required")
    if split_dim is not None:
        raise ValueError("Cannot specify both 'split_dim' and 'axis'.")
    sp_input = _convert_to_sparse_tensor(sp_input)
    inds, vals, shapes = outputs_of(apply_op(
        "SparseSplit", split_dim=axis, indices=sp_input.indices, values=sp_input.values,
        shape=sp_input.dense_shape, num_split=num_split, name=name))
    return [SparseTensor(inds[i], vals[i], shapes[i]) for i in range(num_split)]


def sparse_reduce_sum(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    """Sum of a SparseTensor's entries over `axis` (all when None), as a dense tensor
    (tf.sparse.reduce_sum, tf.sparse_reduce_sum; op SparseReduceSum, number dtypes; its
    gradient gathers the output gradient at each entry, as TensorFlow's).

    Raises:
      ValueError: both axis and reduction_axes, or both keepdims and keep_dims.
      InvalidArgumentError (at run time): "Invalid reduction dimension 2, for input with 2
      dimensions." and TensorFlow's SparseTensor checks.
    """
    keepdims = _keepdims(keepdims, keep_dims)
    axis = _axis(axis, reduction_axes)
    return outputs_of(apply_op("SparseReduceSum", input_indices=sp_input.indices,
                               input_values=sp_input.values, input_shape=sp_input.dense_shape,
                               reduction_axes=_sparse_reduction_dims(sp_input, axis),
                               keep_dims=keepdims))


def sparse_fill_empty_rows(sp_input, default_value, name=None):
    """Rows of a SparseTensor without entries get one at column 0 with default_value
    (tf.sparse.fill_empty_rows, tf.sparse_fill_empty_rows; op SparseFillEmptyRows in a scope
    "SparseFillEmptyRows"; its gradient is SparseFillEmptyRowsGrad, as TensorFlow's).

    Returns:
      (SparseTensor with the same dense_shape, bool vector [dense_shape[0]]: True for the
      rows that were empty).

    Raises:
      InvalidArgumentError (at run time): "indices(3, 0) is invalid: 5 >= 4" and TensorFlow's
      other checks.
    """
    sp_input = _convert_to_sparse_tensor(sp_input)
    with ops.name_scope(name, "SparseFillEmptyRows", [sp_input]):
        default_value = ops.convert_to_tensor(default_value, dtype=sp_input.values.dtype)
        output_indices, output_values, empty_row_indicator, _ = outputs_of(apply_op(
            "SparseFillEmptyRows", indices=sp_input.indices, values=sp_input.values,
            dense_shape=sp_input.dense_shape, default_value=default_value))
        return (SparseTensor(indices=output_indices, values=output_values,
                             dense_shape=sp_input.dense_shape), empty_row_indicator)


def sparse_slice(sp_input, start, size, name=None):
    """The entries of sp_input inside [start, start + size), shifted to start at 0
    (tf.sparse.slice, tf.sparse_slice; op SparseSlice in a scope "SparseSlice"; gradient
    SparseSliceGrad). The dense shape is the slice's overlap with the input.

    Raises:
      InvalidArgumentError (at run time): "Expected start to be a vector of length 2 but got
      length 1" and TensorFlow's other checks.
    """
    sp_input = _convert_to_sparse_tensor(sp_input)
    start = ops.convert_to_tensor(start, dtypes.int64)
    size = ops.convert_to_tensor(size, dtypes.int64)
    with ops.name_scope(name, "SparseSlice", [sp_input]) as name:
        output_indices, output_values, output_shape = outputs_of(apply_op(
            "SparseSlice", indices=sp_input.indices, values=sp_input.values,
            shape=sp_input.dense_shape, start=start, size=size, name=name))
        return SparseTensor(output_indices, output_values, output_shape)


def serialize_sparse(sp_input, name=None, out_type=dtypes.string):
    """A SparseTensor as a string vector [3] of serialized TensorProtos (indices, values,
    dense_shape), byte for byte TensorFlow's (tf.io.serialize_sparse, tf.serialize_sparse; op
    SerializeSparse). out_type variant is not supported (no kernel)."""
    sp_input = _convert_to_sparse_tensor(sp_input)
    return outputs_of(apply_op("SerializeSparse", sparse_indices=sp_input.indices,
                               sparse_values=sp_input.values, sparse_shape=sp_input.dense_shape,
                               name=name, out_type=out_type))


def serialize_many_sparse(sp_input, name=None, out_type=dtypes.string):
    """A minibatch SparseTensor (rank > 1, indices sorted) as a string matrix [N, 3], row i the
    serialized entry i (tf.io.serialize_many_sparse, tf.serialize_many_sparse; op
    SerializeManySparse).

    Raises:
      InvalidArgumentError (at run time): rank 1, indices out of order ("Input SparseTensor
      fails check for lexicographic ordering of indices.  Cannot split.").
    """
    sp_input = _convert_to_sparse_tensor(sp_input)
    return outputs_of(apply_op("SerializeManySparse", sparse_indices=sp_input.indices,
                               sparse_values=sp_input.values, sparse_shape=sp_input.dense_shape,
                               name=name, out_type=out_type))


def deserialize_many_sparse(serialized_sparse, dtype, rank=None, name=None):
    """The minibatch SparseTensor of a string matrix [N, 3] of serialized SparseTensors
    (tf.io.deserialize_many_sparse, tf.deserialize_many_sparse; op DeserializeManySparse):
    entry i at index [i, ...], the other dimensions the largest among the entries.

    Args:
      rank: the rank of the result if known (static shapes only).

    Raises:
      InvalidArgumentError (at run time): "Requested SparseTensor of type float but
      SparseTensor[0].values.dtype() == int32", unparsable protos, mismatched shapes.
    """
    output_indices, output_values, output_shape = outputs_of(apply_op(
        "DeserializeManySparse", serialized_sparse=serialized_sparse, dtype=dtype, name=name))
    output_indices.set_shape([None, rank])
    output_shape.set_shape([rank])
    return SparseTensor(output_indices, output_values, output_shape)
