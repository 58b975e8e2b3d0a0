"""Indexing, padding and space-rearranging ops of the TF1 API: tf.slice, tf.strided_slice,
tf.gather, tf.gather_nd, tf.scatter_nd, tf.one_hot, tf.where, tf.pad, tf.space_to_depth,
tf.depth_to_space, tf.space_to_batch_nd, tf.batch_to_space_nd.

Each wrapper builds one op of the C registry (Slice, StridedSlice, GatherV2, ...) with
TensorFlow 1's Python signature and defaults; static shapes come from the C shape functions,
which raise ValueError at construction where TensorFlow does.
"""
import numpy as np

from minitf.framework import dtypes, ops
from minitf.framework.op_def_library import apply_op, outputs_of


def _op(op_type, name=None, **kw):
    return outputs_of(apply_op(op_type, name=name, **kw))


def slice(input_, begin, size, name=None):  # noqa: A001
    """The slice of `input_` of `size` elements from `begin` (tf.slice; op Slice).

    begin, size: int32/int64 vectors of length rank(input_); size[i] = -1 takes all
    remaining elements of dim i. Out-of-range begin/size raise InvalidArgumentError at run
    time ("Expected size[0] in [0, 1], but got 2"); a length that differs from the rank
    raises ValueError at construction.
    """
    return _op("Slice", input=input_, begin=begin, size=size, name=name)


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, var=None, name=None):
    """input_[begin:end:strides] with Python-slicing masks (tf.strided_slice; op StridedSlice).

    begin/end/strides: 1-D int32/int64 tensors of one length (strides defaults to ones).
    Bit i of begin_mask/end_mask ignores begin[i]/end[i] (the full range), ellipsis_mask
    marks `...`, new_axis_mask inserts a size-1 dim, shrink_axis_mask takes the single index
    begin[i] and drops the dim. Out-of-range begin/end are clamped; a zero stride raises
    ValueError at construction when constant ("strides[0] must be non-zero"), else
    InvalidArgumentError; a shrink index out of range likewise ("slice index 3 of dimension 0
    out of bounds.").
    """
    del var  # TF uses it only for sliced assignment
    if strides is None:
        strides = [1] * len(begin)
    return _op("StridedSlice", input=input_, begin=begin, end=end, strides=strides,
               begin_mask=begin_mask, end_mask=end_mask, ellipsis_mask=ellipsis_mask,
               new_axis_mask=new_axis_mask, shrink_axis_mask=shrink_axis_mask, name=name)


def gather(params, indices, validate_indices=None, name=None, axis=None, batch_dims=0):
    """Slices of `params` along `axis` at `indices` (tf.compat.v1.gather; op GatherV2).

    Output shape: params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis+1:].
    axis defaults to batch_dims; negative axis/batch_dims count from the end. indices are
    int16/int32/int64; an index outside [0, params.shape[axis]) raises InvalidArgumentError at
    run time ("indices[1] = 5 is not in [0, 3)"). validate_indices is ignored (as in TF).
    A resource variable gathered along axis 0 is read with ResourceGather (its
    sparse_read), as TensorFlow.
    """
    del validate_indices
    if axis is None:
        axis = batch_dims
    from minitf.framework import tensor_util
    static_axis = tensor_util.constant_value(axis) if isinstance(axis, ops.Tensor) else axis
    sparse_read = getattr(params, "sparse_read", None)
    if sparse_read is not None and static_axis is not None and np.ndim(static_axis) == 0 \
            and int(static_axis) == 0:
        return sparse_read(indices, name=name)  # a resource variable: ResourceGather
    return _op("GatherV2", params=params, indices=indices, axis=axis, batch_dims=batch_dims,
               name=name)


def gather_nd(params, indices, name=None, batch_dims=0):
    """Slices of `params` addressed by the last dim of `indices` (tf.gather_nd; op GatherNd).

    Output shape: indices.shape[:-1] + params.shape[indices.shape[-1]:]. Indices out of range
    raise InvalidArgumentError at run time; indices.shape[-1] > rank(params) raises ValueError.
    Only batch_dims=0 is supported (NotImplementedError otherwise). A resource variable is
    read with ResourceGatherNd, as TensorFlow (its gradient flows to the variable).
    """
    if batch_dims != 0:
        raise NotImplementedError("gather_nd with batch_dims != 0 is not supported by minitf")
    resource_gather_nd = getattr(params, "gather_nd", None)
    if resource_gather_nd is not None:
        return resource_gather_nd(indices, name=name)  # a resource variable: ResourceGatherNd
    return _op("GatherNd", params=params, indices=indices, name=name)


def scatter_nd(indices, updates, shape, name=None):
    """A zero tensor of `shape` with `updates` added at `indices` (tf.scatter_nd; op ScatterNd).

    Duplicate indices sum (integers wrap). updates.shape must be
    indices.shape[:-1] + shape[indices.shape[-1]:] (ValueError at construction when known);
    an index outside `shape` raises InvalidArgumentError at run time.
    """
    return _op("ScatterNd", indices=indices, updates=updates, shape=shape, name=name)


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """One-hot encoding of `indices` (tf.one_hot; op OneHot).

    The output has a new dim of size `depth` at `axis` (default -1, the last); positions
    equal to an index hold on_value (default 1), all others off_value (default 0); indices
    outside [0, depth) give an all-off row. dtype is inferred as TensorFlow does: from
    on_value, else off_value, else float32. TypeError when on/off values and dtype disagree;
    ValueError for axis < -1 or a negative constant depth.
    """
    with ops.name_scope(name, "one_hot",
                        [indices, depth, on_value, off_value, axis, dtype]) as name:
        on_exists = on_value is not None
        off_exists = off_value is not None
        if dtype is not None:
            dtype = dtypes.as_dtype(dtype)
        if on_exists:
            on_value = ops.convert_to_tensor(on_value, dtype_hint=dtype)
        if off_exists:
            off_value = ops.convert_to_tensor(off_value, dtype_hint=dtype)
        on_dtype = on_value.dtype.base_dtype if on_exists else None
        off_dtype = off_value.dtype.base_dtype if off_exists else None
        if on_exists or off_exists:
            if dtype is not None:
                if on_exists and on_dtype != dtype:
                    raise TypeError("dtype {0} of on_value does not match dtype parameter {1}"
                                    .format(on_dtype, dtype))
                if off_exists and off_dtype != dtype:
                    raise TypeError("dtype {0} of off_value does not match dtype parameter {1}"
                                    .format(off_dtype, dtype))
            else:
                dtype = on_dtype if on_exists else off_dtype
        elif dtype is None:
            dtype = dtypes.float32
        if not on_exists:
            on_value = ops.convert_to_tensor(1, dtype, name="on_value")
            on_dtype = dtype
        if not off_exists:
            off_value = ops.convert_to_tensor(0, dtype, name="off_value")
            off_dtype = dtype
        if on_dtype != off_dtype:
            raise TypeError("dtype {0} of on_value does not match dtype {1} of off_value"
                            .format(on_dtype, off_dtype))
        return _op("OneHot", indices=indices, depth=depth, on_value=on_value,
                   off_value=off_value, axis=-1 if axis is None else axis, name=name)


def where(condition, x=None, y=None, name=None):
    """tf.compat.v1.where: coordinates of true elements, or an elementwise choice.

    With x and y None: an int64 [num_true, rank(condition)] matrix of the coordinates where
    `condition` is true (nonzero for numeric inputs), in row-major order (op Where); a scalar
    condition raises InvalidArgumentError at run time. With both x and y: op Select
    (condition picks x or y elementwise). ValueError when only one of x, y is given.
    """
    if x is None and y is None:
        with ops.name_scope(name, "Where", [condition]) as name:
            condition = ops.convert_to_tensor(condition, preferred_dtype=dtypes.bool,
                                              name="condition")
            return _op("Where", input=condition, name=name)
    if x is not None and y is not None:
        return _op("Select", condition=condition, t=x, e=y, name=name)
    raise ValueError("x and y must both be non-None or both be None.")


def pad(tensor, paddings, mode="CONSTANT", name=None, constant_values=0):
    """`tensor` padded by `paddings` (tf.pad; ops Pad, PadV2, MirrorPad).

    paddings: int32/int64 [rank, 2] (before, after) per dim. mode "CONSTANT" (case-insensitive)
    fills with constant_values (op Pad for a Python zero, else PadV2), "REFLECT" mirrors
    without the edge (padding < dim), "SYMMETRIC" with it (padding <= dim); larger paddings
    raise InvalidArgumentError at run time. ValueError for another mode, negative constant
    paddings or a rank mismatch.
    """
    mode = mode.upper()
    if mode == "CONSTANT":
        if (not isinstance(constant_values, (ops.Tensor,)) and np.ndim(constant_values) == 0
                and constant_values == np.zeros_like(constant_values)):
            return _op("Pad", input=tensor, paddings=paddings, name=name)
        tensor = ops.convert_to_tensor(tensor, name="tensor")
        constant_values = ops.convert_to_tensor(constant_values, dtype=tensor.dtype)
        return _op("PadV2", input=tensor, paddings=paddings, constant_values=constant_values,
                   name=name)
    if mode in ("REFLECT", "SYMMETRIC"):
        return _op("MirrorPad", input=tensor, paddings=paddings, mode=mode, name=name)
    raise ValueError('Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", or '
                     '"SYMMETRIC". Received `mode` = {}'.format(mode))


def space_to_depth(input, block_size, name=None, data_format="NHWC"):  # noqa: A002
    """Moves block_size x block_size spatial blocks into depth (tf.space_to_depth).

    NHWC [N, H, W, C] -> [N, H/b, W/b, C*b*b]; H and W must divide by block_size (ValueError
    at construction when known). The CPU kernel supports NHWC only, as TensorFlow's.
    """
    return _op("SpaceToDepth", input=input, block_size=block_size, data_format=data_format,
               name=name)


def depth_to_space(input, block_size, name=None, data_format="NHWC"):  # noqa: A002
    """Moves depth into block_size x block_size spatial blocks (tf.depth_to_space).

    NHWC [N, H, W, C] -> [N, H*b, W*b, C/(b*b)]; C must divide by block_size**2.
    """
    return _op("DepthToSpace", input=input, block_size=block_size, data_format=data_format,
               name=name)


def space_to_batch_nd(input, block_shape, paddings, name=None):  # noqa: A002
    """Pads the M spatial dims and moves blocks into the batch (tf.space_to_batch_nd).

    input [B, s_1..s_M, rest...] -> [B*prod(block_shape), (s_i+pads_i)/block_i, rest...];
    padded sizes must divide by block_shape. Real number dtypes only (TF's CPU kernel).
    """
    return _op("SpaceToBatchND", input=input, block_shape=block_shape, paddings=paddings,
               name=name)


def batch_to_space_nd(input, block_shape, crops, name=None):  # noqa: A002
    """Inverse of space_to_batch_nd: batch blocks back into space, then crops
    (tf.batch_to_space_nd). The batch must divide by prod(block_shape)."""
    return _op("BatchToSpaceND", input=input, block_shape=block_shape, crops=crops, name=name)
