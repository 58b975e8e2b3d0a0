"""Segment reductions of the TF1 API: tf.math.segment_sum/mean/max/min/prod (sorted ids;
ops SegmentSum, ...) and tf.math.unsorted_segment_max/min/prod (ops UnsortedSegmentMax, ...),
unsorted_segment_mean / unsorted_segment_sqrt_n (TensorFlow's composites over
UnsortedSegmentSum), registered in runtime/kernels/segment_ops.c.

Sorted forms: data of rank >= 1, segment_ids an int32/int64 vector of data's first
dimension, sorted and non-negative; the output has ids[-1] + 1 rows, empty segments 0 (1
for a product). Run-time errors are TensorFlow's InvalidArgumentError ("segment ids are not
increasing", "Segment id 3 out of range [0, 2), possibly because 'segment_ids' input is not
sorted."). Unsorted forms: segment_ids' shape a prefix of data's, negative ids dropped,
num_segments rows; an empty max (min) segment is the dtype's lowest (highest) value.
"""
from minitf.framework import ops
from minitf.framework.op_def_library import apply_op, outputs_of


def _op(op_type, name=None, **kw):
    return outputs_of(apply_op(op_type, name=name, **kw))


def _sorted(op_type, py_name, what):
    def fn(data, segment_ids, name=None):
        return _op(op_type, data=data, segment_ids=segment_ids, name=name)
    fn.__name__ = fn.__qualname__ = py_name
    fn.__doc__ = ("%s of each segment of sorted segment_ids (tf.math.%s; op %s).\n\n    Returns"
                  " a tensor of data's dtype with ids[-1] + 1 rows. Raises ValueError for"
                  " wrong\n    static ranks, InvalidArgumentError at run time for unsorted,"
                  " negative or\n    mis-sized ids." % (what, py_name, op_type))
    return fn


def _unsorted(op_type, py_name, what):
    def fn(data, segment_ids, num_segments, name=None):
        return _op(op_type, data=data, segment_ids=segment_ids, num_segments=num_segments,
                   name=name)
    fn.__name__ = fn.__qualname__ = py_name
    fn.__doc__ = ("%s of the slices of data per segment id (tf.math.%s; op %s).\n\n"
                  "    Negative ids are dropped; ids >= num_segments are InvalidArgumentError"
                  " at run time." % (what, py_name, op_type))
    return fn


segment_sum = _sorted("SegmentSum", "segment_sum", "Sum")
segment_mean = _sorted("SegmentMean", "segment_mean", "Mean (integer division for ints)")
segment_prod = _sorted("SegmentProd", "segment_prod", "Product")
segment_max = _sorted("SegmentMax", "segment_max", "Maximum")
segment_min = _sorted("SegmentMin", "segment_min", "Minimum")
unsorted_segment_prod = _unsorted("UnsortedSegmentProd", "unsorted_segment_prod", "Product")
unsorted_segment_max = _unsorted("UnsortedSegmentMax", "unsorted_segment_max", "Maximum")
unsorted_segment_min = _unsorted("UnsortedSegmentMin", "unsorted_segment_min", "Minimum")


def _unsorted_segment_n(data, segment_ids, num_segments):
    """Segment sizes (at least 1), shaped to broadcast against the segment sums
    (TensorFlow's _unsorted_segment_N, same nodes)."""
    from minitf.ops import array_ops
    from minitf.framework import constant_op, dtypes
    num_segments = ops.convert_to_tensor(num_segments)
    if segment_ids.shape.is_fully_defined():  # array_ops.shape_internal's folded constant
        with ops.name_scope(None, "Shape"):
            ids_shape = constant_op.constant(segment_ids.shape.as_list(), dtypes.int32,
                                             name="shape_as_tensor")
    else:
        ids_shape = array_ops.shape(segment_ids)
    ones_tensor = array_ops.ones(ids_shape, dtype=data.dtype)
    n = _op("UnsortedSegmentSum", data=ones_tensor, segment_ids=segment_ids,
            num_segments=num_segments)
    broadcastable_shape = array_ops.concat(
        [num_segments[array_ops.newaxis],
         array_ops.ones([array_ops.rank(data) - array_ops.rank(segment_ids)],
                        dtype=num_segments.dtype)], axis=0)
    n = array_ops.reshape(n, broadcastable_shape)
    return _op("Maximum", x=n, y=1)


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """Mean of the slices of data per segment id (tf.math.unsorted_segment_mean; nodes in
    scope `UnsortedSegmentMean`); an empty segment gives 0. Floating data."""
    with ops.name_scope(name, "UnsortedSegmentMean"):
        data = ops.convert_to_tensor(data)
        segment_ids = ops.convert_to_tensor(segment_ids)
        n = _unsorted_segment_n(data, segment_ids, num_segments)
        summed = _op("UnsortedSegmentSum", data=data, segment_ids=segment_ids,
                     num_segments=num_segments)
        return summed / n


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    """Sum of the slices of data per segment id over sqrt(segment size)
    (tf.math.unsorted_segment_sqrt_n; nodes in scope `UnsortedSegmentSqrtN`). Floating
    data."""
    with ops.name_scope(name, "UnsortedSegmentSqrtN"):
        data = ops.convert_to_tensor(data)
        segment_ids = ops.convert_to_tensor(segment_ids)
        n = _unsorted_segment_n(data, segment_ids, num_segments)
        summed = _op("UnsortedSegmentSum", data=data, segment_ids=segment_ids,
                     num_segments=num_segments)
        return summed / _op("Sqrt", x=n)
