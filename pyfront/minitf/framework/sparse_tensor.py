"""SparseTensor and SparseTensorValue (tensorflow/python/framework/sparse_tensor.py).

A SparseTensor is three dense tensors in one graph: `indices` (int64 [N, rank]), `values`
([N], any dtype) and `dense_shape` (int64 [rank]). Session.run fetches it as a
SparseTensorValue and accepts a SparseTensorValue or an (indices, values, dense_shape)
tuple as its feed (see client/session.py's conversion registry).
"""
import collections

import numpy as np

from minitf.framework import dtypes, ops, tensor_shape, tensor_util

SparseTensorValue = collections.namedtuple("SparseTensorValue",
                                           ["indices", "values", "dense_shape"])
SparseTensorValue.__doc__ = """The value of a SparseTensor: numpy arrays (tf.compat.v1.SparseTensorValue)."""


def _constant_value(tensor):
    """TensorFlow's tensor_util.constant_value for the ops sparse code meets: Const, Identity,
    Cast, Pack and ConcatV2 of constants, Shape of a fully known shape; else None. (minitf's
    tensor_util.constant_value reads Consts only.)"""
    op = tensor.op
    if op.type == "Const":
        return tensor_util.MakeNdarray(op.get_attr("value"))
    if op.type in ("Identity", "StopGradient"):
        return _constant_value(op.inputs[0])
    if op.type == "Cast":
        v = _constant_value(op.inputs[0])
        return None if v is None else v.astype(dtypes.as_dtype(op.get_attr("DstT")).as_numpy_dtype)
    if op.type == "Shape":
        shape = op.inputs[0].get_shape()
        if shape.is_fully_defined():
            return np.array(shape.as_list(), dtype=tensor.dtype.as_numpy_dtype)
        return None
    if op.type == "Pack":
        vals = [_constant_value(x) for x in op.inputs]
        if any(v is None for v in vals):
            return None
        return np.stack(vals, axis=op.get_attr("axis")).astype(tensor.dtype.as_numpy_dtype)
    if op.type == "ConcatV2":
        axis = _constant_value(op.inputs[-1])
        vals = [_constant_value(x) for x in op.inputs[:-1]]
        if axis is None or any(v is None for v in vals):
            return None
        return np.concatenate(vals, axis=int(axis))
    return None


def constant_value_as_shape(tensor):
    """TensorFlow's tensor_util.constant_value_as_shape: the static shape a 1-D shape tensor
    describes, through Cast, Shape, Pack, ConcatV2 and StridedSlice as far as they are known
    (-1 = unknown dim)."""
    if tensor.get_shape().ndims == 0:
        value = _constant_value(tensor)
        if value is None:
            raise ValueError("Received a scalar with unknown value as shape; require a "
                             "statically known scalar with value '-1' to describe an unknown "
                             "shape.")
        if value != -1:
            raise ValueError("Received a scalar value '%s' as shape; require a statically "
                             "known scalar with value '-1' to describe an unknown shape."
                             % value)
        return tensor_shape.unknown_shape()
    shape = tensor.get_shape().with_rank(1)
    n = tensor_shape.dimension_value(shape.dims[0])
    op = tensor.op
    if n == 0:
        return tensor_shape.TensorShape([])
    if op.type == "Cast":
        pre = constant_value_as_shape(op.inputs[0])
        if pre.dims is None:
            return pre
        cast = dtypes.as_dtype(op.get_attr("DstT"))
        if cast not in (dtypes.int32, dtypes.int64):
            return tensor_shape.unknown_shape(rank=n)
        arr = np.array([x if x is not None else -1 for x in pre.as_list()]).astype(
            cast.as_numpy_dtype)
        return tensor_shape.TensorShape([int(x) if x >= 0 else None for x in arr])
    if op.type == "Shape":
        return op.inputs[0].get_shape()
    if op.type == "Pack":
        dims = []
        for x in op.inputs:
            v = _constant_value(x)
            dims.append(None if v is None or v < 0 else int(v))
        return tensor_shape.TensorShape(dims)
    if op.type == "ConcatV2":
        ret = tensor_shape.TensorShape([])
        for x in op.inputs[:-1]:
            ret = ret.concatenate(constant_value_as_shape(x))
        return ret
    if op.type == "StridedSlice":
        begin, end, strides = (_constant_value(op.inputs[i]) for i in (1, 2, 3))
        if begin is not None and end is not None and strides is not None:
            begin, end, strides = int(begin[0]), int(end[0]), int(strides[0])
            if op.get_attr("begin_mask") == 1:
                begin = None
            if op.get_attr("end_mask") == 1:
                end = None
            if (not op.get_attr("ellipsis_mask") and not op.get_attr("new_axis_mask")
                    and not op.get_attr("shrink_axis_mask")
                    and op.get_attr("begin_mask") in (0, 1) and op.get_attr("end_mask") in (0, 1)):
                prev = constant_value_as_shape(op.inputs[0])
                if prev.dims is not None:
                    return tensor_shape.TensorShape(prev.as_list()[begin:end:strides])
    ret = tensor_shape.unknown_shape(rank=n)
    value = _constant_value(tensor)
    if value is not None:
        ret = ret.merge_with(tensor_shape.TensorShape([int(d) if d >= 0 else None
                                                       for d in value]))
    return ret


def _constant_value_as_shape(dense_shape):
    """The static shape of a SparseTensor's dense_shape tensor (as TF's SparseTensor.shape:
    constant_value_as_shape)."""
    try:
        return constant_value_as_shape(dense_shape)
    except ValueError:
        return tensor_shape.unknown_shape()


class SparseTensor:
    """A sparse tensor as indices, values and dense_shape (tf.sparse.SparseTensor).

    Args:
      indices: int64 [N, rank] (anything convertible: a list, an ndarray, a Tensor).
      values: [N] of any dtype.
      dense_shape: int64 [rank].
    The three are converted in a name scope "SparseTensor" (so constants are named
    "SparseTensor/indices", "SparseTensor/values", "SparseTensor/dense_shape").
    Raises:
      ValueError: indices not of rank 2, values or dense_shape not of rank 1, or their
        static lengths disagree ("Dimensions 2 and 3 are not compatible"), as TensorFlow.
    """

    @classmethod
    def from_value(cls, sparse_tensor_value):
        """A SparseTensor from a SparseTensorValue (or another SparseTensor)."""
        if not is_sparse(sparse_tensor_value):
            raise TypeError("Argument sparse_tensor_value=%s is neither a SparseTensor nor "
                            "SparseTensorValue." % (sparse_tensor_value,))
        return SparseTensor(indices=sparse_tensor_value.indices,
                            values=sparse_tensor_value.values,
                            dense_shape=sparse_tensor_value.dense_shape)

    def __init__(self, indices, values, dense_shape):
        with ops.name_scope(None, "SparseTensor", [indices, values, dense_shape]):
            indices = ops.convert_to_tensor(indices, name="indices", dtype=dtypes.int64)
            values = ops.convert_to_tensor(values, name="values")
            dense_shape = ops.convert_to_tensor(dense_shape, name="dense_shape",
                                                dtype=dtypes.int64)
            dense_shape_default = _constant_value_as_shape(dense_shape)
        self._indices = indices
        self._values = values
        self._dense_shape = dense_shape
        self._dense_shape_default = dense_shape_default
        indices_shape = indices.shape.with_rank(2)
        values_shape = values.shape.with_rank(1)
        dense_shape_shape = dense_shape.shape.with_rank(1)
        indices_shape.dims[0].assert_is_compatible_with(values_shape.dims[0])
        indices_shape.dims[1].assert_is_compatible_with(dense_shape_shape.dims[0])

    @property
    def indices(self):
        """The int64 [N, rank] Tensor of the non-default elements' indices."""
        return self._indices

    @property
    def values(self):
        """The [N] Tensor of the non-default elements' values."""
        return self._values

    @property
    def dense_shape(self):
        """The int64 [rank] Tensor of the dense shape."""
        return self._dense_shape

    @property
    def dtype(self):
        """The DType of the values."""
        return self._values.dtype

    @property
    def op(self):
        """The Operation producing `values`."""
        return self._values.op

    @property
    def graph(self):
        """The Graph holding this SparseTensor."""
        return self._indices.graph

    @property
    def shape(self):
        """The static dense shape (a TensorShape, possibly partial)."""
        return self._dense_shape_default

    def get_shape(self):
        """Alias of `shape`."""
        return self._dense_shape_default

    def set_shape(self, shape):
        """Merges `shape` into the static dense shape (ValueError when incompatible)."""
        if not isinstance(shape, tensor_shape.TensorShape):
            shape = tensor_shape.TensorShape(shape)
        self._dense_shape_default = self._dense_shape_default.merge_with(shape)

    def with_values(self, new_values):
        """A SparseTensor with the same indices and dense_shape and `new_values`."""
        return SparseTensor(self._indices, new_values, self._dense_shape)

    def consumers(self):
        """Operations consuming any of the three component tensors."""
        seen, result = set(), []
        for t in (self._indices, self._values, self._dense_shape):
            for op in t.consumers():
                if op.name not in seen:
                    seen.add(op.name)
                    result.append(op)
        return result

    def eval(self, feed_dict=None, session=None):
        """Evaluates in `session` (default: the default session); returns a SparseTensorValue."""
        indices, values, dense_shape = ops._eval_using_default_session(
            [self.indices, self.values, self.dense_shape], feed_dict, self.graph, session)
        return SparseTensorValue(indices, values, dense_shape)

    def __repr__(self):
        return "SparseTensor(indices=%s, values=%s, dense_shape=%s)" % (
            self._indices, self._values, self._dense_shape)

    @staticmethod
    def _session_run_fetch(fetch):
        """Session.run expansion: three tensors in, a SparseTensorValue out."""
        return ([fetch.indices, fetch.values, fetch.dense_shape],
                lambda fetched: SparseTensorValue(*fetched))

    @staticmethod
    def _session_run_feed(feed, feed_val):
        """Session.run feed expansion: (indices, values, dense_shape) component feeds."""
        return list(zip([feed.indices, feed.values, feed.dense_shape], feed_val))


def is_sparse(x):
    """True for a SparseTensor or a SparseTensorValue."""
    return isinstance(x, (SparseTensor, SparseTensorValue))


def convert_to_tensor_or_sparse_tensor(value, dtype=None, name=None):
    """A SparseTensor for a SparseTensor/SparseTensorValue, else ops.convert_to_tensor(value).

    Raises RuntimeError when a SparseTensor's dtype differs from `dtype`, as TensorFlow.
    """
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    if isinstance(value, SparseTensorValue):
        value = SparseTensor.from_value(value)
    if isinstance(value, SparseTensor):
        if dtype and not dtype.is_compatible_with(value.dtype):
            raise RuntimeError("Sparse dtype mismatch. Requested: %s,  Actual: %s" %
                               (dtype.name, value.dtype.name))
        return value
    return ops.convert_to_tensor(value, dtype=dtype, name=name)
