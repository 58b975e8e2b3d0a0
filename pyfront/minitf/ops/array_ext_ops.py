"""More array functions of the TF1 API, built as TensorFlow 2.21's Python builds them
(array_ops.py, manip_ops.py, check_ops.py, state_ops.py), so node names and static shapes
match: tf.boolean_mask, tf.sequence_mask, tf.roll, tf.repeat, tf.batch_gather,
tf.batch_scatter_update, tf.batch_to_space / tf.space_to_batch (TF1 forms),
tf.required_space_to_batch_paddings, tf.tensor_scatter_nd_* (and the tensor_scatter_*
aliases), tf.parallel_stack, tf.meshgrid, tf.setdiff1d, tf.unique_with_counts,
tf.invert_permutation, tf.unravel_index, tf.ensure_shape, tf.guarantee_const.
"""
import numpy as np

from minitf.framework import constant_op, dtypes, ops, tensor_shape, tensor_util
from minitf.framework.op_def_library import apply_op, outputs_of
from minitf.ops import array_ops, indexing_ops, math_ops


def _op(op_type, name=None, **kw):
    return outputs_of(apply_op(op_type, name=name, **kw))


def _all_dimensions(x):
    """range(rank(x)) as a Const when the rank is known (TF's _all_dimensions)."""
    if x.get_shape().ndims is not None:
        return constant_op.constant(np.arange(x.get_shape().ndims), dtype=dtypes.int32)
    return _op("Range", start=0, limit=array_ops.rank(x), delta=1)


def boolean_mask(tensor, mask, name="boolean_mask", axis=None):
    """The entries of `tensor` where the K-D bool `mask` is True (tf.compat.v1.boolean_mask).

    mask's shape must match tensor.shape[axis:axis + K] (ValueError "Shapes (3,) and (2,)
    are incompatible" at construction); K must be known and > 0 (ValueError). Returns a
    tensor of rank N - K + 1 whose dim `axis` counts the True entries (row-major order).
    Built as TF: Prod of the masked dims, Reshape, Where, Squeeze, GatherV2.
    """
    with ops.name_scope(name, values=[tensor, mask]):
        tensor = ops.convert_to_tensor(tensor, name="tensor")
        mask = ops.convert_to_tensor(mask, name="mask")
        shape_mask = mask.get_shape()
        ndims_mask = shape_mask.ndims
        shape_tensor = tensor.get_shape()
        if ndims_mask == 0:
            raise ValueError("mask cannot be scalar.")
        if ndims_mask is None:
            raise ValueError(
                "Number of mask dimensions must be specified, even if some dimensions"
                " are None.  E.g. shape=[None] is ok, but shape=None is not.")
        axis = 0 if axis is None else axis
        axis_value = axis if not isinstance(axis, ops.Tensor) else \
            tensor_util.constant_value(axis)
        if axis_value is not None:
            axis = int(axis_value)
            shape_tensor[axis:axis + ndims_mask].assert_is_compatible_with(shape_mask)
        leading_size = _op("Prod", input=array_ops.shape(tensor)[axis:axis + ndims_mask],
                           reduction_indices=[0])
        tensor = array_ops.reshape(tensor, array_ops.concat([
            array_ops.shape(tensor)[:axis], [leading_size],
            array_ops.shape(tensor)[axis + ndims_mask:]], 0))
        if axis_value is not None:
            first_dim = shape_tensor[axis:axis + ndims_mask].num_elements()
            tensor.set_shape(tensor_shape.as_shape(shape_tensor[:axis]).concatenate(
                [first_dim]).concatenate(shape_tensor[axis + ndims_mask:]))
        mask = array_ops.reshape(mask, [-1])
        indices = array_ops.squeeze(math_ops.where_v2(mask), axis=[1])
        return indexing_ops.gather(tensor, indices, axis=axis)


def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool, name=None):
    """mask[i..., j] = j < lengths[i...] for j in [0, maxlen) (tf.sequence_mask).

    maxlen defaults to max(lengths) (at least 0) and must be a scalar (ValueError otherwise).
    Returns a tensor of shape lengths.shape + [maxlen] and `dtype` (bool unless given).
    """
    with ops.name_scope(name, "SequenceMask", [lengths, maxlen]):
        lengths = ops.convert_to_tensor(lengths)
        if maxlen is None:
            maxlen = _op("Max", input=lengths, reduction_indices=_all_dimensions(lengths))
            maxlen = _op("Maximum", x=constant_op.constant(0, maxlen.dtype), y=maxlen)
        else:
            maxlen = ops.convert_to_tensor(maxlen)
        if maxlen.get_shape().ndims is not None and maxlen.get_shape().ndims != 0:
            raise ValueError(
                "Argument `maxlen` must be scalar for sequence_mask, received `maxlen` = %s "
                "with shape '%s' instead" % (maxlen, maxlen.get_shape()))
        row_vector = _op("Range", start=constant_op.constant(0, maxlen.dtype), limit=maxlen,
                         delta=constant_op.constant(1, maxlen.dtype))
        matrix = _op("Cast", x=array_ops.expand_dims(lengths, -1), DstT=maxlen.dtype)
        result = row_vector < matrix
        if dtype is None or result.dtype.is_compatible_with(dtypes.as_dtype(dtype)):
            return result
        return _op("Cast", x=result, DstT=dtypes.as_dtype(dtype))


def roll(input, shift, axis, name=None):  # noqa: A002
    """Elements of `input` shifted by `shift` along `axis`, wrapping around (tf.roll; op Roll).

    shift and axis: int32/int64 scalars or vectors of one length (repeated axes add up).
    Raises InvalidArgumentError at run time for an axis out of range.
    """
    return _op("Roll", input=input, shift=shift, axis=axis, name=name)


def _positive_axis(axis, ndims):
    if not isinstance(axis, int):
        raise TypeError("axis must be an int; got %s" % type(axis).__name__)
    if ndims is not None:
        if 0 <= axis < ndims:
            return axis
        if -ndims <= axis < 0:
            return axis + ndims
        raise ValueError("axis=%d out of bounds: expected %d<=axis<%d" % (axis, -ndims, ndims))
    if axis < 0:
        raise ValueError("axis=%d may only be negative if rank(data) is statically known."
                         % axis)
    return axis


def _tile_one_dimension(data, axis, multiple):
    if data.shape.ndims is not None:
        multiples = [1] * data.shape.ndims
        multiples[axis] = multiple
    else:
        ones_value = array_ops.ones(array_ops.rank(data), dtypes.int32)
        multiples = array_ops.concat([ones_value[:axis], [multiple], ones_value[axis + 1:]],
                                     axis=0)
    return array_ops.tile(data, multiples)


def _repeat_with_axis(data, repeats, axis, name=None):
    if not isinstance(axis, int):
        raise TypeError("Argument `axis` must be an int. Received `axis` = %s of type %s"
                        % (axis, type(axis).__name__))
    with ops.name_scope(name, "Repeat", [data, repeats]):
        data = ops.convert_to_tensor(data, name="data")
        repeats = ops.convert_to_tensor(repeats, name="repeats", preferred_dtype=dtypes.int32)
        if not repeats.dtype.is_integer:
            raise TypeError("Argument `tensor` (name: repeats) must be of type integer. "
                            "Received `tensor` = %s of dtype: %s" % (repeats, repeats.dtype))
        repeats = _op("Cast", x=repeats, DstT=dtypes.int32)
        repeats.shape.with_rank_at_most(1)
        if data.shape.ndims == 0:
            data = array_ops.stack([data])
        elif data.shape.ndims is None:
            data_shape = array_ops.shape(data)
            data_ndims = array_ops.rank(data)
            data = array_ops.reshape(data, array_ops.concat([[1], data_shape],
                                                            axis=0)[-data_ndims:])
        data_shape = array_ops.shape(data, out_type=repeats.dtype)
        axis = _positive_axis(axis, data.shape.rank)
        if repeats.shape.num_elements() == 1:
            repeats = array_ops.reshape(repeats, [])
            expanded = array_ops.expand_dims(data, axis + 1)
            tiled = _tile_one_dimension(expanded, axis + 1, repeats)
            result_shape = array_ops.concat([data_shape[:axis], [repeats * data_shape[axis]],
                                             data_shape[axis + 1:]], axis=0)
            return array_ops.reshape(tiled, result_shape)
        if repeats.shape.ndims == 1:
            data.shape.dims[axis].assert_is_compatible_with(repeats.shape[0])
        repeats = array_ops.broadcast_to(repeats, [data_shape[axis]])
        repeats_original = repeats
        if repeats.shape.ndims != axis + 1:
            repeats_shape = array_ops.shape(repeats)
            repeats_ndims = array_ops.rank(repeats)
            broadcast_shape = array_ops.concat(
                [data_shape[:axis + 1 - repeats_ndims], repeats_shape], axis=0)
            repeats = array_ops.broadcast_to(repeats, broadcast_shape)
            repeats.set_shape([None] * (axis + 1))
        max_repeat = _op("Max", input=repeats, reduction_indices=_all_dimensions(repeats))
        max_repeat = _op("Maximum", x=ops.convert_to_tensor(0, name="zero",
                                                            dtype=max_repeat.dtype),
                         y=max_repeat)
        mask = sequence_mask(repeats, max_repeat)
        expanded = array_ops.expand_dims(data, axis + 1)
        tiled = _tile_one_dimension(expanded, axis + 1, max_repeat)
        masked = boolean_mask(tiled, mask)
        if axis == 0:
            result = masked
        else:
            repeated_dim_size = _op("Sum", input=repeats_original, reduction_indices=_op(
                "Range", start=0, limit=array_ops.rank(repeats_original), delta=1))
            result_shape = array_ops.concat(
                [data_shape[:axis], [repeated_dim_size], data_shape[axis + 1:]], axis=0)
            result = array_ops.reshape(masked, result_shape)
        if data.shape.ndims is not None:
            new_axis_size = 0 if repeats.shape[0] == 0 else None
            result.set_shape(data.shape[:axis].concatenate([new_axis_size]).concatenate(
                data.shape[axis + 1:]))
        return result


def repeat(input, repeats, axis=None, name=None):  # noqa: A002
    """Each element of `input` repeated `repeats` times along `axis` (tf.repeat).

    repeats: an int or a 1-D int tensor broadcast to input.shape[axis]. axis=None repeats
    the flattened input. Built as TF 2.21 builds it (sequence_mask + boolean_mask).
    """
    if axis is None:
        input = array_ops.reshape(input, [-1])
        axis = 0
    return _repeat_with_axis(input, repeats, axis, name)


def batch_gather(params, indices, name=None):
    """tf.gather with batch_dims = rank(indices) - 1 (tf.compat.v1.batch_gather).

    indices' rank must be known (ValueError). Output shape indices.shape +
    params.shape[rank(indices):]. Built as TF's _batch_gather (flattened indices + GatherV2).
    """
    with ops.name_scope(name, "BatchGather", [params, indices]):
        indices = ops.convert_to_tensor(indices, name="indices")
        params = ops.convert_to_tensor(params, name="params")
        if indices.shape.ndims is None:
            raise ValueError("batch_gather does not allow indices with unknown shape.")
        return _batch_gather(params, indices, indices.shape.ndims - 1)


def _batch_gather(params, indices, batch_dims):
    indices_ndims = indices.shape.ndims
    if batch_dims < 0 or batch_dims >= indices_ndims:
        raise ValueError("Argument `batch_dims` = %d must be less than rank(`indices`) = %d"
                         % (batch_dims, indices_ndims))
    if params.shape.ndims is not None and batch_dims >= params.shape.ndims:
        raise ValueError("Argument `batch_dims` = %d must be less than rank(`params`) = %d"
                         % (batch_dims, params.shape.ndims))
    indices_shape = array_ops.shape(indices)
    params_shape = array_ops.shape(params)
    batch_indices = indices
    indices_dtype = indices.dtype.base_dtype
    accum_dim_value = array_ops.ones((), dtype=indices_dtype)
    casted_params_shape = _op("Cast", x=params_shape, DstT=indices_dtype)
    for dim in range(batch_dims, 0, -1):
        dim_value = casted_params_shape[dim - 1]
        accum_dim_value *= casted_params_shape[dim]
        start = array_ops.zeros((), dtype=indices_dtype)
        step = array_ops.ones((), dtype=indices_dtype)
        dim_indices = _op("Range", start=start, limit=dim_value, delta=step)
        dim_indices *= accum_dim_value
        dim_shape = array_ops.stack(
            [1] * (dim - 1) + [dim_value] + [1] * (indices_ndims - dim), axis=0)
        batch_indices += array_ops.reshape(dim_indices, dim_shape)
    flat_indices = array_ops.reshape(batch_indices, [-1])
    outer_shape = params_shape[batch_dims + 1:]
    flat_inner_shape = _op("Prod", input=params_shape[:batch_dims + 1], reduction_indices=[0],
                           keep_dims=False)
    flat_params = array_ops.reshape(params, array_ops.concat([[flat_inner_shape], outer_shape],
                                                             axis=0))
    flat_result = indexing_ops.gather(flat_params, flat_indices)
    result = array_ops.reshape(flat_result, array_ops.concat([indices_shape, outer_shape],
                                                             axis=0))
    final_shape = indices.get_shape()[:batch_dims].merge_with(params.get_shape()[:batch_dims])
    final_shape = final_shape.concatenate(indices.get_shape().dims[batch_dims:])
    final_shape = final_shape.concatenate(params.get_shape()[batch_dims + 1:])
    result.set_shape(final_shape)
    return result


def batch_scatter_update(ref, indices, updates, use_locking=True, name=None):
    """ref[i..., indices[i..., j]] = updates[i..., j] over the batch dims of `indices`
    (tf.compat.v1.batch_scatter_update): one ScatterNdUpdate (ref variables) or
    ResourceScatterNdUpdate with the batch positions prepended to each index, as TF builds
    it. indices' rank must be known (ValueError)."""
    from minitf.ops import state_ops
    with ops.name_scope(name):
        indices = ops.convert_to_tensor(indices, name="indices")
        indices_shape = array_ops.shape(indices)
        indices_dimensions = indices.get_shape().ndims
        if indices_dimensions is None:
            raise ValueError("batch_gather does not allow indices with unknown shape.")
        nd_indices = array_ops.expand_dims(indices, axis=-1)
        nd_indices_list = []
        for dimension in range(indices_dimensions - 1):
            dimension_size = indices_shape[dimension]
            shape_to_broadcast = [1] * (indices_dimensions + 1)
            shape_to_broadcast[dimension] = dimension_size
            dimension_range = array_ops.reshape(
                _op("Range", start=0, limit=dimension_size, delta=1), shape_to_broadcast)
            if dimension_range.dtype.base_dtype != nd_indices.dtype:
                dimension_range = _op("Cast", x=dimension_range, DstT=nd_indices.dtype)
            nd_indices_list.append(dimension_range * array_ops.ones_like(nd_indices))
        nd_indices_list.append(nd_indices)
        final_indices = array_ops.concat(nd_indices_list, axis=-1)
        return state_ops.scatter_nd_update(ref, final_indices, updates, use_locking=use_locking)


def space_to_batch(input, paddings, block_size=None, name=None, block_shape=None):  # noqa: A002
    """tf.compat.v1.space_to_batch: SpaceToBatchND with block [block_size, block_size] over
    a 4-D input (`block_shape` is the deprecated other name); the result has rank 4."""
    block_size = _deprecated_lookup("block_shape", block_shape, "block_size", block_size)
    result = indexing_ops.space_to_batch_nd(
        input, paddings=paddings, block_shape=np.array([block_size, block_size], dtype=np.int64),
        name=name)
    result.set_shape(result.get_shape().with_rank(4))
    return result


def batch_to_space(input, crops, block_size, name=None, block_shape=None):  # noqa: A002
    """tf.compat.v1.batch_to_space: BatchToSpaceND with block [block_size, block_size]."""
    block_size = _deprecated_lookup("block_shape", block_shape, "block_size", block_size)
    result = indexing_ops.batch_to_space_nd(
        input, crops=crops, block_shape=np.array([block_size, block_size], dtype=np.int64),
        name=name)
    result.set_shape(result.get_shape().with_rank(4))
    return result


def _deprecated_lookup(new_name, new_value, old_name, old_value):
    if new_value is not None:
        if old_value is not None:
            raise ValueError("Cannot specify both '%s' and '%s'" % (old_name, new_name))
        return new_value
    return old_value


def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None, name=None):
    """(paddings, crops) making input_shape + paddings divisible by block_shape
    (tf.required_space_to_batch_paddings): both int32 [M, 2]. Computed in Python (as Consts)
    when all three are constant, else as ops, as TF does."""
    with ops.name_scope(name, "required_space_to_batch_paddings", [input_shape, block_shape]):
        input_shape = ops.convert_to_tensor(input_shape, dtype=dtypes.int32, name="input_shape")
        block_shape = ops.convert_to_tensor(block_shape, dtype=dtypes.int32, name="block_shape")
        block_shape.get_shape().assert_is_fully_defined()
        block_shape.get_shape().assert_has_rank(1)
        num_block_dims = block_shape.get_shape().dims[0].value \
            if hasattr(block_shape.get_shape().dims[0], "value") \
            else block_shape.get_shape().dims[0]
        if num_block_dims == 0:
            return (array_ops.zeros([0, 2], dtypes.int32), array_ops.zeros([0, 2], dtypes.int32))
        input_shape.get_shape().assert_is_compatible_with([num_block_dims])
        if base_paddings is not None:
            base_paddings = ops.convert_to_tensor(base_paddings, dtype=dtypes.int32,
                                                  name="base_paddings")
            base_paddings.get_shape().assert_is_compatible_with([num_block_dims, 2])
        else:
            base_paddings = array_ops.zeros([num_block_dims, 2], dtypes.int32)
        const_block_shape = tensor_util.constant_value(block_shape)
        const_input_shape = tensor_util.constant_value(input_shape)
        const_base_paddings = tensor_util.constant_value(base_paddings)
        if (const_block_shape is not None and const_input_shape is not None
                and const_base_paddings is not None):
            block_shape = const_block_shape
            input_shape = const_input_shape
            base_paddings = const_base_paddings
        pad_start = base_paddings[:, 0]
        orig_pad_end = base_paddings[:, 1]
        full_input_shape = input_shape + pad_start + orig_pad_end
        pad_end_extra = (block_shape - full_input_shape % block_shape) % block_shape
        pad_end = orig_pad_end + pad_end_extra
        result_paddings = array_ops.stack(
            [[pad_start[i], pad_end[i]] for i in range(num_block_dims)], name="paddings")
        result_crops = array_ops.stack(
            [[0, pad_end_extra[i]] for i in range(num_block_dims)], name="crops")
        return result_paddings, result_crops


def _tensor_scatter(op_type, doc):
    def fn(tensor, indices, updates, name=None):
        return _op(op_type, tensor=tensor, indices=indices, updates=updates, name=name)
    fn.__doc__ = doc
    return fn


_SCATTER_DOC = """A copy of `tensor` with the slices at `indices` (last dim: index depth)
%s `updates` (tf.%s; op %s). updates.shape = indices.shape[:-1] + tensor.shape[depth:]
(ValueError at construction when known); repeated indices apply in order; an index outside
`tensor` raises InvalidArgumentError at run time ("indices[1] = [5] does not index into
shape [4]")."""

tensor_scatter_nd_update = _tensor_scatter(
    "TensorScatterUpdate", _SCATTER_DOC % ("replaced by", "tensor_scatter_nd_update",
                                           "TensorScatterUpdate"))
tensor_scatter_nd_add = _tensor_scatter(
    "TensorScatterAdd", _SCATTER_DOC % ("plus", "tensor_scatter_nd_add", "TensorScatterAdd"))
tensor_scatter_nd_sub = _tensor_scatter(
    "TensorScatterSub", _SCATTER_DOC % ("minus", "tensor_scatter_nd_sub", "TensorScatterSub"))
tensor_scatter_nd_max = _tensor_scatter(
    "TensorScatterMax", _SCATTER_DOC % ("maxed with", "tensor_scatter_nd_max",
                                        "TensorScatterMax"))
tensor_scatter_nd_min = _tensor_scatter(
    "TensorScatterMin", _SCATTER_DOC % ("minned with", "tensor_scatter_nd_min",
                                        "TensorScatterMin"))
for _f, _n in ((tensor_scatter_nd_update, "tensor_scatter_nd_update"),
               (tensor_scatter_nd_add, "tensor_scatter_nd_add"),
               (tensor_scatter_nd_sub, "tensor_scatter_nd_sub"),
               (tensor_scatter_nd_max, "tensor_scatter_nd_max"),
               (tensor_scatter_nd_min, "tensor_scatter_nd_min")):
    _f.__name__ = _n
tensor_scatter_update = tensor_scatter_nd_update
tensor_scatter_add = tensor_scatter_nd_add
tensor_scatter_sub = tensor_scatter_nd_sub


def parallel_stack(values, name="parallel_stack"):
    """Stacks rank-R tensors of one fully known shape into rank R + 1 (tf.parallel_stack;
    op ParallelConcat of the ExpandDims of each). Not differentiable, as in TF."""
    with ops.name_scope(name):
        value_t = ops.convert_to_tensor(values[0])
        value_shape = ops.convert_to_tensor(value_t).get_shape()
        output_shape = tensor_shape.TensorShape([len(values)])
        output_shape = output_shape.concatenate(value_shape)
        return _op("ParallelConcat", values=[array_ops.expand_dims(value, 0) for value in values],
                   shape=output_shape)


def meshgrid(*args, **kwargs):
    """N-D coordinate grids from N 1-D tensors (tf.meshgrid): indexing 'xy' (default,
    Cartesian: the first two outputs' dims swapped) or 'ij' (matrix). ValueError for another
    indexing, TypeError for another keyword."""
    indexing = kwargs.pop("indexing", "xy")
    name = kwargs.pop("name", "meshgrid")
    if kwargs:
        key = list(kwargs.keys())[0]
        raise TypeError("'{}' is an invalid keyword argument for this function".format(key))
    if indexing not in ("xy", "ij"):
        raise ValueError("Argument `indexing` parameter must be either 'xy' or 'ij', got '%s'"
                         % indexing)
    with ops.name_scope(name, "meshgrid", args) as name:
        ndim = len(args)
        s0 = (1,) * ndim
        if not ndim:
            return []
        output = []
        for i, x in enumerate(args):
            output.append(array_ops.reshape(array_ops.stack(x), s0[:i] + (-1,) + s0[i + 1:]))
        shapes = [array_ops.size(x) for x in args]
        output_dtype = ops.convert_to_tensor(args[0]).dtype.base_dtype
        if indexing == "xy" and ndim > 1:
            output[0] = array_ops.reshape(output[0], (1, -1) + (1,) * (ndim - 2))
            output[1] = array_ops.reshape(output[1], (-1, 1) + (1,) * (ndim - 2))
            shapes[0], shapes[1] = shapes[1], shapes[0]
        mult_fact = array_ops.ones(shapes, output_dtype)
        return [x * mult_fact for x in output]


def setdiff1d(x, y, index_dtype=dtypes.int32, name=None):
    """(out, idx): the items of 1-D `x` not in `y`, in x's order, and their positions
    (tf.compat.v1.setdiff1d; op ListDiff). index_dtype: int32 or int64."""
    return _op("ListDiff", x=x, y=y, out_idx=index_dtype, name=name)


def unique_with_counts(x, out_idx=dtypes.int32, name=None):
    """(y, idx, count) of 1-D `x`: its distinct values in first-seen order, each element's
    position in y, and each value's count (tf.unique_with_counts; op UniqueWithCounts)."""
    return _op("UniqueWithCounts", x=x, out_idx=out_idx, name=name)


def invert_permutation(x, name=None):
    """y with y[x[i]] = i for a permutation x of 0..n-1 (tf.invert_permutation; op
    InvertPermutation). A duplicate or out-of-range value is InvalidArgumentError at run
    time."""
    return _op("InvertPermutation", x=x, name=name)


def unravel_index(indices, dims, name=None):
    """Coordinates of flat `indices` in an array of shape `dims` (tf.unravel_index; op
    UnravelIndex): [len(dims)] for a scalar, else [len(dims), size(indices)]. An index
    >= prod(dims) or a dim <= 0 is InvalidArgumentError at run time."""
    return _op("UnravelIndex", indices=indices, dims=dims, name=name)


def ensure_shape(x, shape, name=None):
    """`x`, checked to have a shape compatible with `shape` (tf.ensure_shape; op
    EnsureShape): ValueError at construction when the static shapes disagree, else
    InvalidArgumentError at run time ("Shape of tensor x [2] is not compatible with expected
    shape [3]."). The static shape becomes the merge of both."""
    if not isinstance(shape, tensor_shape.TensorShape):
        shape = tensor_shape.TensorShape(shape)
    return _op("EnsureShape", input=x, shape=shape, name=name)


def guarantee_const(input, name=None):  # noqa: A002
    """`input`, marked as constant for the whole step (tf.guarantee_const; op
    GuaranteeConst)."""
    return _op("GuaranteeConst", input=input, name=name)
