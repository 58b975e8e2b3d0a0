"""tf.IndexedSlices: a sparse slice of a dense tensor, as gradients of Gather produce.

Mirrors tensorflow.python.framework.indexed_slices: `values` [k, d1, ...], `indices` [k]
(int32/int64) and an optional `dense_shape` vector; the dense tensor is zero except at
``dense[indices[i]] += values[i]``. Kept sparse through tf.gradients until something needs a
dense tensor; `tf.convert_to_tensor` densifies (UnsortedSegmentSum) and warns as TensorFlow
does when the dense shape is unknown or has 100,000,000 elements or more.
"""
import collections
import warnings

import numpy as np

from minitf.framework import dtypes, ops

_LARGE_SPARSE_NUM_ELEMENTS = 100000000

IndexedSlicesValue = collections.namedtuple("IndexedSlicesValue",
                                            ["values", "indices", "dense_shape"])


class IndexedSlices:
    """A sparse representation of slices of a dense tensor (tf.IndexedSlices).

    Args:
      values: Tensor [k, ...] of the slices.
      indices: 1-D int32/int64 Tensor [k], the row of each slice.
      dense_shape: optional 1-D int Tensor, the shape of the dense tensor.
    """

    def __init__(self, values, indices, dense_shape=None):
        self._values = values
        self._indices = indices
        self._dense_shape = dense_shape

    @property
    def values(self):
        return self._values

    @property
    def indices(self):
        return self._indices

    @property
    def dense_shape(self):
        return self._dense_shape

    @property
    def shape(self):
        """The static shape of the dense tensor (from dense_shape when constant)."""
        from minitf.framework import tensor_shape, tensor_util
        if self._dense_shape is None:
            return tensor_shape.unknown_shape()
        value = tensor_util.constant_value(self._dense_shape)
        if value is not None:
            return tensor_shape.TensorShape([int(d) for d in value])
        return tensor_shape.TensorShape([None] + self._values.shape.as_list()[1:]) \
            if self._values.shape.ndims is not None else tensor_shape.unknown_shape()

    @property
    def name(self):
        return self._values.name

    @property
    def device(self):
        return self._values.device

    @property
    def op(self):
        return self._values.op

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def graph(self):
        return self._values.graph

    def __neg__(self):
        from minitf.ops import math_ops
        return IndexedSlices(math_ops.negative(self._values), self._indices, self._dense_shape)

    def __str__(self):
        return "IndexedSlices(indices=%s, values=%s%s)" % (
            self._indices, self._values,
            (", dense_shape=%s" % (self._dense_shape,)) if self._dense_shape is not None else "")

    __repr__ = __str__


def _to_tensor(value, dtype=None, name=None, as_ref=False):
    """Densifies an IndexedSlices (TensorFlow's _indexed_slices_to_tensor)."""
    from minitf.framework import tensor_util
    from minitf.ops import math_ops
    if dtype and not dtypes.as_dtype(dtype).is_compatible_with(value.dtype):
        raise ValueError("Tensor conversion requested dtype %s for IndexedSlices with dtype %s"
                         % (dtypes.as_dtype(dtype).name, value.dtype.name))
    if value.dense_shape is None:
        raise ValueError("Tensor conversion requested for IndexedSlices without dense_shape: %s"
                         % str(value))
    dense_shape_value = tensor_util.constant_value(value.dense_shape)
    if dense_shape_value is not None:
        num_elements = int(np.prod(dense_shape_value))
        if num_elements >= _LARGE_SPARSE_NUM_ELEMENTS:
            warnings.warn("Converting sparse IndexedSlices to a dense Tensor with %d elements. "
                          "This may consume a large amount of memory." % num_elements)
    else:
        if value.dense_shape.op.type != "VariableShape":
            warnings.warn("Converting sparse IndexedSlices(%s) to a dense Tensor of unknown "
                          "shape. This may consume a large amount of memory." % value)
    return math_ops.unsorted_segment_sum(value.values, value.indices, value.dense_shape[0],
                                         name=name)


ops.register_tensor_conversion_function(IndexedSlices, _to_tensor)


def convert_to_tensor_or_indexed_slices(value, dtype=None, name=None):
    """`value` itself when an IndexedSlices, else tf.convert_to_tensor(value)."""
    if isinstance(value, IndexedSlices):
        if dtype and not dtypes.as_dtype(dtype).is_compatible_with(value.dtype):
            raise ValueError("Tensor conversion requested dtype %s for Tensor with dtype %s: %r"
                             % (dtypes.as_dtype(dtype).name, value.dtype.name, str(value)))
        return value
    return ops.convert_to_tensor(value, dtype=dtype, name=name)
