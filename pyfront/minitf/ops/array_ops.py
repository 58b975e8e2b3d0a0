"""Array ops of the TF1 API: placeholder, identity, reshape, ..."""
from minitf.framework import dtypes, ops, tensor_shape
from minitf.framework.op_def_library import apply_op, outputs_of


def placeholder(dtype, shape=None, name=None):
    """A tensor that must be fed at Session.run (tf.compat.v1.placeholder).

    Args:
      dtype: element type of the fed values.
      shape: None (any shape) or a list with None for unknown dims.
    Running a fetch that needs it unfed raises InvalidArgumentError ("You must
    feed a value for placeholder tensor 'x' with dtype float ...").
    """
    return outputs_of(apply_op("Placeholder", dtype=dtypes.as_dtype(dtype),
                               shape=tensor_shape.as_shape(shape), name=name))


def placeholder_with_default(input, shape, name=None):  # noqa: A002
    """A tensor that takes `input`'s value unless fed (op PlaceholderWithDefault).

    `shape` may be less specific than input's shape (None dims). A Python value becomes
    the Const `<name>/input`, as in TensorFlow's generated wrapper.
    """
    return outputs_of(apply_op("PlaceholderWithDefault", input=input,
                               shape=tensor_shape.as_shape(shape), name=name))


def identity(input, name=None):  # noqa: A002
    """A tensor with the same value, shape and dtype as `input` (op Identity). A variable is
    read inside the op's name scope ("Identity/ReadVariableOp"), as TensorFlow does."""
    return outputs_of(apply_op("Identity", input=input, name=name))


def reshape(tensor, shape, name=None):
    """`tensor` with a new shape (tf.reshape; op Reshape).

    One dim of `shape` may be -1 (inferred). Element counts must agree
    (ValueError at construction when known, InvalidArgumentError at run time).
    """
    return outputs_of(apply_op("Reshape", tensor=tensor, shape=shape, name=name))


newaxis = None


def _is_tensor(x):
    return isinstance(x, ops.Tensor)


def _should_not_autopack(v):
    return not any(_is_tensor(e) or (isinstance(e, (list, tuple)) and not
                                     _should_not_autopack(e)) for e in v)


def _nested_dtype(v):
    for e in v:
        if _is_tensor(e):
            return e.dtype.base_dtype
        if isinstance(e, (list, tuple)):
            d = _nested_dtype(e)
            if d is not None:
                return d
    return None


def _autopacking_helper(list_or_tuple, dtype, name):
    """A list mixing Tensors and values as one Pack op, as TensorFlow's
    autopacking: plain values become Consts named by their index."""
    from minitf.framework import constant_op
    must_pack = False
    converted = []
    with ops.name_scope(name) as scope:
        for i, elem in enumerate(list_or_tuple):
            if _is_tensor(elem):
                if dtype is not None and elem.dtype.base_dtype != dtype:
                    raise TypeError("Cannot convert a list containing a tensor of dtype %s to "
                                    "%s (Tensor is: %r)" % (elem.dtype, dtype, elem))
                converted.append(elem)
                must_pack = True
            elif isinstance(elem, (list, tuple)):
                c = _autopacking_helper(elem, dtype, str(i))
                must_pack = must_pack or _is_tensor(c)
                converted.append(c)
            else:
                converted.append(elem)
        if not must_pack:
            return converted
        elems = [e if _is_tensor(e) else constant_op.constant(e, dtype=dtype, name=str(i))
                 for i, e in enumerate(converted)]
        return outputs_of(apply_op("Pack", values=elems, axis=0, name=scope))


def _autopacking_conversion_function(v, dtype=None, name=None, as_ref=False):
    if _should_not_autopack(v):
        return NotImplemented
    inferred = _nested_dtype(v)
    if dtype is None:
        dtype = inferred
    elif inferred is not None and dtype != inferred:
        return NotImplemented  # convert_to_tensor then reports the mismatch
    return _autopacking_helper(v, dtype, name or "packed")


ops.register_tensor_conversion_function((list, tuple), _autopacking_conversion_function, 99)


def stack(values, axis=0, name="stack"):
    """Packs a list of rank-R tensors into one rank-(R+1) tensor (tf.stack).

    With axis=0 and only Python values, the result is a single Const named
    `name`, as TensorFlow; otherwise op Pack. ValueError for an axis out of
    [-(R+1), R+1).
    """
    if axis == 0:
        try:
            return ops.convert_to_tensor(values, name=name)
        except (TypeError, ValueError, NotImplementedError):
            pass
    first = ops.convert_to_tensor(values[0])
    rank = first.shape.rank
    if rank is not None and not -rank - 1 <= axis < rank + 1:
        raise ValueError("Argument `axis` = %d not in range [%d, %d)" % (axis, -rank - 1, rank + 1))
    return outputs_of(apply_op("Pack", values=values, axis=axis, name=name))


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, var=None, name=None):
    """The strided slice begin:end:strides of `input_` (tf.strided_slice; op StridedSlice).

    begin/end/strides: 1-D int32 or int64 tensors of one length; the masks'
    bit i changes the meaning of spec i as in Python indexing (see
    Tensor.__getitem__). Shape errors (out-of-bounds index of a known
    dimension, zero stride, several ellipses) raise ValueError at
    construction.
    """
    if strides is None:  # as TensorFlow: ones_like(begin), named in the graph
        strides = ones_like(begin)
    return outputs_of(apply_op(
        "StridedSlice", input=input_, begin=begin, end=end, strides=strides,
        begin_mask=begin_mask, end_mask=end_mask, ellipsis_mask=ellipsis_mask,
        new_axis_mask=new_axis_mask, shrink_axis_mask=shrink_axis_mask, name=name))


_SLICE_TYPE_ERROR = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and "
                     "scalar tf.int32/tf.int64 tensors are valid indices")
_SUPPORTED_SLICE_DTYPES = (dtypes.int16, dtypes.int32, dtypes.int64)


def _check_index(idx):
    import numbers
    if isinstance(idx, (numbers.Integral, tensor_shape.Dimension)):
        return
    dtype = getattr(idx, "dtype", None)
    bad = dtype is None
    if not bad:
        try:
            bad = dtypes.as_dtype(dtype).base_dtype not in _SUPPORTED_SLICE_DTYPES
        except TypeError:
            bad = True
    if not bad:
        shape = idx.shape
        rank = len(shape) if isinstance(shape, tuple) else shape.rank
        bad = rank == 1
    if bad:
        raise TypeError(_SLICE_TYPE_ERROR + ", got {!r}".format(idx))


def _is_undefined_dimension(d):
    return isinstance(d, tensor_shape.Dimension) and d.value is None


def _slice_helper(tensor, slice_spec, var=None):
    """Tensor.__getitem__, lowered to one StridedSlice exactly as TensorFlow.

    Ints shrink an axis, slices (negative and reversed steps allowed) keep
    it, `...` is the ellipsis mask, tf.newaxis (None) inserts an axis, and
    scalar int32/int64 tensors index dynamically (Pack of begin/end/strides).
    begin/end/strides are Consts "strided_slice/stack", "stack_1", "stack_2".
    TypeError for other index kinds.
    """
    from minitf.framework import constant_op
    tensor = ops.convert_to_tensor(tensor)
    if not isinstance(slice_spec, (list, tuple)):
        slice_spec = [slice_spec]
    begin, end, strides = [], [], []
    index = 0
    new_axis_mask = shrink_axis_mask = begin_mask = end_mask = ellipsis_mask = 0
    for s in slice_spec:
        if isinstance(s, slice):
            dtype = None
            for t in (s.start, s.stop, s.step):
                if not _is_tensor(t):
                    continue
                if t.dtype == dtypes.int64:
                    dtype = dtypes.int64
                elif t.dtype == dtypes.int32 and dtype != dtypes.int64:
                    dtype = dtypes.int32
                elif t.dtype == dtypes.int16 and dtype is None:
                    dtype = dtypes.int16
            for val, lst, default, is_mask in ((s.start, begin, 0, True), (s.stop, end, 0, True),
                                               (s.step, strides, 1, False)):
                if val is not None and not _is_undefined_dimension(val):
                    _check_index(val)
                    lst.append(val)
                else:
                    lst.append(default if dtype is None else
                               constant_op.constant(default, dtype=dtype))
                    if is_mask:
                        if lst is begin:
                            begin_mask |= 1 << index
                        else:
                            end_mask |= 1 << index
        elif s is Ellipsis:
            begin.append(0)
            end.append(0)
            strides.append(1)
            ellipsis_mask |= 1 << index
        elif s is newaxis:
            begin.append(0)
            end.append(0)
            strides.append(1)
            new_axis_mask |= 1 << index
        else:
            _check_index(s)
            begin.append(s)
            end.append(s + 1)
            if _is_tensor(s) and s.dtype in (dtypes.int16, dtypes.int64):
                strides.append(constant_op.constant(1, dtype=s.dtype))
            else:
                strides.append(1)
            shrink_axis_mask |= 1 << index
        index += 1
    from minitf.ops import math_ops
    with ops.name_scope(None, "strided_slice", [tensor] + begin + end + strides) as name:
        if begin:
            packed = [stack(begin), stack(end), stack(strides)]
            if any(p.dtype == dtypes.int64 for p in packed):
                packed = [p if p.dtype == dtypes.int64 else
                          math_ops._op("Cast", x=p, DstT=dtypes.int64) for p in packed]
        else:
            empty = constant_op.constant([], dtype=dtypes.int32)
            packed = [empty, empty, empty]
        return strided_slice(tensor, packed[0], packed[1], packed[2], begin_mask=begin_mask,
                             end_mask=end_mask, shrink_axis_mask=shrink_axis_mask,
                             new_axis_mask=new_axis_mask, ellipsis_mask=ellipsis_mask,
                             var=var, name=name)


ops.Tensor.__getitem__ = _slice_helper


# ---------------------------------------------------------------------------
# Shapes, concatenation, splitting, tiling, fills, ranges, identities
# (TF1 signatures of tensorflow/python/ops/array_ops.py and friends).

import numbers  # noqa: E402

import numpy as np  # noqa: E402

from minitf.framework import constant_op  # noqa: E402


def _op(op_type, name=None, **kw):
    return outputs_of(apply_op(op_type, name=name, **kw))


def _is_sparse(x):
    from minitf.framework.sparse_tensor import SparseTensor, SparseTensorValue
    return isinstance(x, (SparseTensor, SparseTensorValue))


def _out_type(out_type):
    return dtypes.int32 if out_type is None else dtypes.as_dtype(out_type)


def shape(input, name=None, out_type=None):  # noqa: A002
    """The shape of `input` as a 1-D int32/int64 tensor (tf.compat.v1.shape; op Shape).

    As TensorFlow in graph mode, a fully known static shape gives a Const
    instead of a Shape op. out_type: int32 (default) or int64.
    """
    return shape_internal(input, name, optimize=True, out_type=_out_type(out_type))


def shape_internal(input, name=None, optimize=True, out_type=None):  # noqa: A002
    """tf.shape, with `optimize=False` always emitting the Shape op. Without out_type a
    fully known shape is TensorFlow's TensorShape conversion: a Const "Shape/shape_as_tensor"
    (int64 only when a dimension needs it), as tf.ones_like builds it."""
    with ops.name_scope(name, "Shape", [input]) as name:
        if _is_sparse(input):  # as TensorFlow: dense_shape cast to out_type
            return _op("Cast", x=input.dense_shape, DstT=_out_type(out_type))
        input = ops.convert_to_tensor(input)
        s = input.get_shape()
        if optimize and s.is_fully_defined():
            if out_type is None:
                dims = s.as_list()
                wide = any(d >= 2 ** 31 for d in dims)
                return constant_op.constant(dims, dtypes.int64 if wide else dtypes.int32,
                                            name="shape_as_tensor")
            return constant_op.constant(s.as_list(), _out_type(out_type), name=name)
        out_type = _out_type(out_type)
        return _op("Shape", input=input, out_type=out_type, name=name)


def shape_n(input, out_type=dtypes.int32, name=None):  # noqa: A002
    """Shapes of a list of tensors, one 1-D tensor each (tf.shape_n; op ShapeN)."""
    return _op("ShapeN", input=list(input), out_type=_out_type(out_type), name=name)


def size(input, name=None, out_type=None):  # noqa: A002
    """Number of elements of `input` as a scalar (tf.compat.v1.size; op Size).

    A Const when the static shape is fully known, as TensorFlow's graph mode.
    """
    out_type = _out_type(out_type)
    with ops.name_scope(name, "Size", [input]) as name:
        input = ops.convert_to_tensor(input)
        s = input.get_shape()
        if s.is_fully_defined():
            return constant_op.constant(s.num_elements(), out_type, name=name)
        return _op("Size", input=input, out_type=out_type, name=name)


def rank(input, name=None):  # noqa: A002
    """Number of dimensions of `input`, an int32 scalar (tf.rank; op Rank).

    A Const when the static rank is known.
    """
    with ops.name_scope(name, "Rank", [input]) as name:
        if _is_sparse(input):  # as TensorFlow: the size of dense_shape
            return _op("Size", input=input.dense_shape, out_type=dtypes.int32, name=name)
        input = ops.convert_to_tensor(input)
        r = input.get_shape().ndims
        if r is not None:
            return constant_op.constant(r, dtypes.int32, name=name)
        return _op("Rank", input=input, name=name)


def _deprecated_alias(new, old, new_name, old_name):
    if old is not None:
        if new is not None:
            raise ValueError("Cannot specify both '%s' and '%s'." % (new_name, old_name))
        return old
    return new


def expand_dims(input, axis=None, name=None, dim=None):  # noqa: A002
    """`input` with a size-1 dimension inserted at `axis` (tf.compat.v1.expand_dims).

    axis in [-rank-1, rank]; `dim` is the deprecated alias. ValueError when
    neither or both are given, or when axis is out of range at construction.
    """
    axis = _deprecated_alias(axis, dim, "axis", "dim")
    if axis is None:
        raise ValueError("Must specify an axis argument to tf.expand_dims()")
    return _op("ExpandDims", input=input, dim=axis, name=name)


def squeeze(input, axis=None, name=None, squeeze_dims=None):  # noqa: A002
    """`input` without size-1 dimensions, all or those in `axis` (tf.compat.v1.squeeze).

    `squeeze_dims` is the deprecated alias. Squeezing a dimension that is not
    1 raises ValueError (static) or InvalidArgumentError (run time).
    """
    axis = _deprecated_alias(axis, squeeze_dims, "axis", "squeeze_dims")
    if np.isscalar(axis):
        axis = [axis]
    return _op("Squeeze", input=input, squeeze_dims=list(axis or []), name=name)


def transpose(a, perm=None, name="transpose", conjugate=False):
    """`a` with its dimensions permuted (tf.compat.v1.transpose; op Transpose).

    perm=None reverses the dimensions. conjugate=True also conjugates complex
    values (op ConjugateTranspose).
    """
    with ops.name_scope(name, "transpose", [a]) as name:
        a = ops.convert_to_tensor(a, name="a")
        op_type = "Transpose"
        if conjugate and a.dtype.is_complex:
            op_type = "ConjugateTranspose"
        if perm is None:
            r = a.get_shape().ndims
            if r is None:
                from minitf.ops import math_ops
                rk = rank(a)
                perm = math_ops.subtract(math_ops.subtract(rk, 1), range(0, rk, 1))
            else:
                perm = np.arange(r - 1, -1, -1, dtype=np.int32)
        return _op(op_type, x=a, perm=perm, name=name)


def concat(values, axis, name="concat"):
    """Concatenation of tensors along `axis` (tf.concat; op ConcatV2).

    axis may be negative. A single tensor is returned through Identity, as
    TensorFlow does. ValueError on incompatible static shapes.
    """
    if not isinstance(values, (list, tuple)):
        values = [values]
    if len(values) == 1:
        with ops.name_scope(name) as scope:
            ax = ops.convert_to_tensor(axis, name="concat_dim", dtype=dtypes.int32)
            if ax.get_shape().ndims not in (None, 0):
                raise ValueError("Shape %s must have rank 0" % ax.get_shape())
            del scope
            return identity(values[0], name=name)
    return _op("ConcatV2", values=list(values), axis=axis, name=name)


def stack(values, axis=0, name="stack"):
    """Stacks rank-R tensors into one rank-(R+1) tensor along `axis` (tf.stack; op Pack).

    A list of Python/NumPy constants stacked on axis 0 becomes one Const.
    ValueError when axis is outside [-(R+1), R+1) or shapes differ.
    """
    if axis == 0:
        try:
            return ops.convert_to_tensor(values, name=name)
        except (TypeError, ValueError, NotImplementedError):
            pass
    value_shape = ops.convert_to_tensor(values[0], name=name).get_shape()
    if value_shape.ndims is not None:
        expanded = value_shape.ndims + 1
        if axis < -expanded or axis >= expanded:
            raise ValueError("Argument `axis` = %d not in range [%d, %d)" %
                             (axis, -expanded, expanded))
    return _op("Pack", values=list(values), axis=axis, name=name)


def unstack(value, num=None, axis=0, name="unstack"):
    """Splits `value` along `axis` into a list of rank-(R-1) tensors (tf.unstack; op Unpack).

    num is inferred from the static shape when None (ValueError if unknown).
    """
    with ops.name_scope(name, "unstack", [value]) as scope:
        value = ops.convert_to_tensor(value)
        if num is None:
            s = value.get_shape()
            if s.ndims is not None:
                if axis < -s.ndims or axis >= s.ndims:
                    raise ValueError("Argument `axis` = %d not in range [%d, %d)" %
                                     (axis, -s.ndims, s.ndims))
                num = s.as_list()[axis]
            if num is None:
                raise ValueError("Cannot infer argument `num` from shape %s" % s)
        return _op("Unpack", value=value, num=num, axis=axis, name=scope)


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """Splits `value` along `axis` (tf.split; ops Split and SplitV).

    An integer splits into that many equal parts; a 1-D list/tensor gives the
    sizes (one may be -1). `num` is needed when the sizes' length is not static.
    """
    if isinstance(num_or_size_splits, numbers.Integral) and \
            not isinstance(num_or_size_splits, bool):
        return _op("Split", split_dim=axis, value=value, num_split=int(num_or_size_splits),
                   name=name)
    size_splits = ops.convert_to_tensor(num_or_size_splits)
    if size_splits.get_shape().ndims == 0:
        raise ValueError("Rank-0 tensors are not supported as the num_or_size_splits argument "
                         "to split. Argument provided: %s" % (num_or_size_splits,))
    if num is None:
        dims = size_splits.get_shape().as_list() if size_splits.get_shape().ndims else None
        num = dims[0] if dims else None
        if num is None:
            raise ValueError("Cannot infer argument `num` from shape %s" % (num_or_size_splits,))
    return _op("SplitV", value=value, size_splits=size_splits, split_dim=axis, num_split=num,
               name=name)


def tile(input, multiples, name=None):  # noqa: A002
    """`input` repeated `multiples[i]` times along each dimension i (tf.tile; op Tile)."""
    return _op("Tile", input=input, multiples=multiples, name=name)


def fill(dims, value, name=None):
    """A tensor of shape `dims` filled with scalar `value` (tf.fill; op Fill)."""
    return _op("Fill", dims=dims, value=value, name=name)


def _zero_or_one(dtype, one):
    if dtype == dtypes.bool:
        return one
    if dtype == dtypes.string:
        return "" if not one else None
    return 1 if one else 0


def _filled(shape, dtype, one, name, default_name):
    dtype = dtypes.as_dtype(dtype).base_dtype
    value = _zero_or_one(dtype, one)
    with ops.name_scope(name, default_name, [shape]) as name:
        if not isinstance(shape, ops.Tensor):
            try:
                dims = tensor_shape.as_shape(shape).as_list()
                # Constants for small tensors, a Fill otherwise (GraphDefs stay small).
                if int(np.prod(dims)) < 1000:
                    return constant_op.constant(value, dtype=dtype, shape=dims, name=name)
                # int32 unless a dim needs int64, as TensorFlow picks
                big = any(d is not None and d > np.iinfo(np.int32).max for d in dims)
                shape = constant_op.constant(dims, dtypes.int64 if big else dtypes.int32,
                                             name="shape_as_tensor")
            except (TypeError, ValueError):
                shape = ops.convert_to_tensor(shape, preferred_dtype=dtypes.int32)
        if shape.get_shape().ndims == 0:
            shape = reshape(shape, [-1])
        return fill(shape, constant_op.constant(value, dtype=dtype), name=name)


def zeros(shape, dtype=dtypes.float32, name=None):
    """A tensor of `shape` with all elements 0 ("" for strings, False for bool) (tf.zeros).

    A Const for fewer than 1000 elements, else a Fill, as TensorFlow.
    """
    return _filled(shape, dtype, False, name, "zeros")


def ones(shape, dtype=dtypes.float32, name=None):
    """A tensor of `shape` with all elements 1 (True for bool) (tf.ones)."""
    if dtypes.as_dtype(dtype).base_dtype == dtypes.string:
        raise TypeError("tf.ones does not support string tensors")
    return _filled(shape, dtype, True, name, "ones")


def zeros_like(tensor, dtype=None, name=None, optimize=True):
    """Zeros with the shape of `tensor` (tf.compat.v1.zeros_like; op ZerosLike).

    With optimize and a fully known static shape, a constant as tf.zeros;
    dtype defaults to tensor's.
    """
    with ops.name_scope(name, "zeros_like", [tensor]) as name:
        tensor = ops.convert_to_tensor(tensor, name="tensor")
        if optimize and tensor.get_shape().is_fully_defined():
            return zeros(tensor.get_shape().as_list(), dtype=dtype or tensor.dtype, name=name)
        if dtype is not None and dtypes.as_dtype(dtype) != tensor.dtype:
            return zeros(shape_internal(tensor, optimize=optimize), dtype=dtype, name=name)
        return _op("ZerosLike", x=tensor, name=name)


def ones_like(tensor, dtype=None, name=None, optimize=True):
    """Ones with the shape of `tensor` (tf.compat.v1.ones_like).

    Built as tf.ones(tf.shape(tensor)) like TensorFlow; the static shape is
    tensor's.
    """
    with ops.name_scope(name, "ones_like", [tensor]) as name:
        tensor = ops.convert_to_tensor(tensor, name="tensor")
        ones_shape = shape_internal(tensor, optimize=optimize)
        ret = ones(ones_shape, dtype=dtype or tensor.dtype, name=name)
        ret.set_shape(tensor.get_shape())
        return ret


_RANGE_ORDER = [dtypes.int32, dtypes.int64, dtypes.float16, dtypes.bfloat16, dtypes.float32,
                dtypes.float64]


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001
    """[start, start+delta, ...) up to but excluding `limit` (tf.range; op Range).

    range(n) counts from 0. dtype is inferred as the widest of the arguments'
    (int32 < int64 < float16 < bfloat16 < float32 < float64) unless given.
    ValueError/InvalidArgumentError "Requires delta != 0" and the sign checks.
    """
    from minitf.ops import math_ops
    if limit is None:
        start, limit = 0, start
    with ops.name_scope(name, "Range", [start, limit, delta]) as name:
        args = []
        for v, n in ((start, "start"), (limit, "limit"), (delta, "delta")):
            if not isinstance(v, ops.Tensor):
                v = ops.convert_to_tensor(v, dtype=dtype, name=n)
            args.append(v)
        if dtype is None:
            for a in args:
                if a.dtype.base_dtype not in _RANGE_ORDER:
                    raise TypeError("Range arguments must be of %s, got %s" %
                                    ([d.name for d in _RANGE_ORDER], a.dtype.name))
            inferred = max((a.dtype.base_dtype for a in args), key=_RANGE_ORDER.index)
        else:
            inferred = dtypes.as_dtype(dtype)
        args = [math_ops.cast(a, inferred) for a in args]
        return _op("Range", start=args[0], limit=args[1], delta=args[2], name=name)


def broadcast_to(input, shape, name=None):  # noqa: A002
    """`input` broadcast to `shape` by NumPy rules (tf.broadcast_to; op BroadcastTo)."""
    return _op("BroadcastTo", input=input, shape=shape, name=name)


def broadcast_dynamic_shape(shape_x, shape_y):
    """The broadcast of two shape vectors (tf.broadcast_dynamic_shape; op BroadcastArgs)."""
    return _op("BroadcastArgs", s0=shape_x, s1=shape_y)


def reverse(tensor, axis, name=None):
    """`tensor` with the dimensions in `axis` reversed (tf.reverse; op ReverseV2)."""
    return _op("ReverseV2", tensor=tensor, axis=axis, name=name)


reverse_v2 = reverse


def bitcast(input, type, name=None):  # noqa: A002
    """The bytes of `input` viewed as `type` (tf.bitcast; op Bitcast).

    A wider type consumes the last dimension (which must equal the size
    ratio); a narrower one appends a dimension.
    """
    return _op("Bitcast", input=input, type=dtypes.as_dtype(type), name=name)


def identity_n(input, name=None):  # noqa: A002
    """The tensors of the list `input`, unchanged (tf.identity_n; op IdentityN)."""
    return _op("IdentityN", input=list(input), name=name)


def stop_gradient(input, name=None):  # noqa: A002
    """`input` unchanged, as a constant for gradients (tf.stop_gradient; op StopGradient)."""
    return _op("StopGradient", input=input, name=name)


def prevent_gradient(input, message="", name=None):  # noqa: A002
    """`input` unchanged; taking its gradient is an error (op PreventGradient)."""
    return _op("PreventGradient", input=input, message=message, name=name)


def snapshot(input, name=None):  # noqa: A002
    """A copy of `input`'s value (op Snapshot)."""
    return _op("Snapshot", input=input, name=name)


def check_numerics(tensor, message, name=None):
    """`tensor` unchanged, or InvalidArgumentError "<message> : Tensor had NaN values"
    (Inf, or Inf and NaN) at run time (tf.debugging.check_numerics; op CheckNumerics)."""
    return _op("CheckNumerics", tensor=tensor, message=message, name=name)


def unique(x, out_idx=dtypes.int32, name=None):
    """The distinct values of 1-D `x` in first-occurrence order, and for each element
    of x its index in them (tf.unique; op Unique). Returns (y, idx)."""
    y, idx = _op("Unique", x=x, out_idx=dtypes.as_dtype(out_idx), name=name)
    return y, idx


def dynamic_stitch(indices, data, name=None):
    """Interleaves the rows of `data` into one tensor: merged[indices[m][i, ...]] = data[m][i,
    ...] (tf.dynamic_stitch; op DynamicStitch). indices: list of int32 tensors; data: list of
    tensors of one dtype whose shapes are indices[m].shape + a common row shape. Later
    occurrences of an index win. InvalidArgumentError for mismatched shapes or a negative
    index."""
    return _op("DynamicStitch", indices=list(indices), data=list(data), name=name)


def parallel_dynamic_stitch(indices, data, name=None):
    """dynamic_stitch as op ParallelDynamicStitch (tf.raw_ops.ParallelDynamicStitch;
    embedding_lookup stitches its partitions with it). A repeated index takes one of its
    rows (the last here; TensorFlow leaves which unspecified)."""
    return _op("ParallelDynamicStitch", indices=list(indices), data=list(data), name=name)


def dynamic_partition(data, partitions, num_partitions, name=None):
    """Splits `data` into `num_partitions` tensors: output p holds, in order, the rows
    data[i, ...] whose partitions[i, ...] == p (tf.dynamic_partition; op DynamicPartition).
    partitions: int32 of a prefix of data's shape; outputs are [count_p] + the rest of data's
    shape. Returns a list. InvalidArgumentError for a partition outside [0, num_partitions)
    ("partitions[2] = 5 is not in [0, 3)") or a shape that does not start with
    partitions'."""
    op = apply_op("DynamicPartition", data=data, partitions=partitions,
                  num_partitions=num_partitions, name=name)
    return list(op.outputs)


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None,  # noqa: A002
                     seq_dim=None, batch_dim=None):
    """Reverses the first seq_lengths[b] slices along seq_axis of each entry b along
    batch_axis, leaving the rest (tf.compat.v1.reverse_sequence; op ReverseSequence).

    Args: input; seq_lengths int32/int64 vector of length input.shape[batch_axis], each
    <= input.shape[seq_axis]; seq_axis (seq_dim, deprecated) required; batch_axis
    (batch_dim, deprecated) default 0.
    Returns a tensor like input. Raises ValueError at construction for axes out of range;
    InvalidArgumentError at run time for bad lengths (TensorFlow's messages).
    """
    if seq_axis is not None and seq_dim is not None:
        raise ValueError("Cannot specify both 'seq_axis' and 'seq_dim'")
    if batch_axis is not None and batch_dim is not None:
        raise ValueError("Cannot specify both 'batch_axis' and 'batch_dim'")
    seq_axis = seq_dim if seq_axis is None else seq_axis
    batch_axis = batch_dim if batch_axis is None else batch_axis
    # TensorFlow converts Python lengths to int32 (not Tlen's default int64).
    tlen = None if isinstance(seq_lengths, ops.Tensor) else dtypes.int32
    return _op("ReverseSequence", input=input, seq_lengths=seq_lengths, seq_dim=seq_axis,
               batch_dim=batch_axis, Tlen=tlen, name=name)
