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

    `shape` may be less specific than input's shape (None dims).
    """
    input = ops.convert_to_tensor(input)
    return outputs_of(apply_op("PlaceholderWithDefault", input=input,
                               shape=tensor_shape.as_shape(shape), name=name))


def identity(input, name=None):  # noqa: A002
    """A tensor with the same value, shape and dtype as `input` (op Identity)."""
    if hasattr(input, "value") and not isinstance(input, ops.Tensor):
        input = input.value()
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
    if strides is None:
        strides = [1] * len(begin)
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
