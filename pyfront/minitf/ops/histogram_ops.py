"""Histograms and bin counts of the TF1 API: tf.histogram_fixed_width (op
HistogramFixedWidth), tf.histogram_fixed_width_bins (TensorFlow's composite: each value's
bin index) and tf.math.bincount (op DenseBincount), registered in
runtime/kernels/histogram_ops.c.
"""
from minitf.framework import constant_op, dtypes, ops
from minitf.framework.op_def_library import apply_op, outputs_of


def _op(op_type, name=None, **kw):
    return outputs_of(apply_op(op_type, name=name, **kw))


def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """Counts of `values` in `nbins` equal bins over value_range [lo, hi) (tf.histogram_fixed
    _width; op HistogramFixedWidth in scope `histogram_fixed_width`): values below lo go to
    the first bin, at or above hi to the last.

    values: int32/int64/float32/float64 tensor; value_range: 2-vector of its dtype; nbins:
    positive int32 scalar; dtype: int32 or int64 counts. Raises InvalidArgumentError at run
    time unless value_range[0] < value_range[1] and nbins > 0.
    """
    with ops.name_scope(name, "histogram_fixed_width", [values, value_range, nbins]) as name:
        return _op("HistogramFixedWidth", values=values, value_range=value_range, nbins=nbins,
                   dtype=dtypes.as_dtype(dtype), name=name)


def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """The bin index (int32, 0..nbins-1) of each value for histogram_fixed_width's bins
    (tf.histogram_fixed_width_bins; TensorFlow's nodes in scope
    `histogram_fixed_width_bins`). Returns values' shape; an Assert fails the run
    (InvalidArgumentError) unless nbins > 0."""
    from minitf.ops import array_ops, control_flow_ops, logging_ops, math_ops
    with ops.name_scope(name, "histogram_fixed_width_bins", [values, value_range, nbins]):
        values = ops.convert_to_tensor(values, name="values")
        shape = array_ops.shape(values)
        values = array_ops.reshape(values, [-1])
        value_range = ops.convert_to_tensor(value_range, name="value_range")
        nbins = ops.convert_to_tensor(nbins, dtype=dtypes.int32, name="nbins")
        check = logging_ops.Assert(math_ops.greater(nbins, 0), ["nbins %s must > 0" % nbins])
        nbins = control_flow_ops.with_dependencies([check], nbins)
        nbins_float = math_ops.cast(nbins, values.dtype)
        scaled_values = math_ops.truediv(values - value_range[0],
                                         value_range[1] - value_range[0], name="scaled_values")
        indices = math_ops.floor(nbins_float * scaled_values, name="indices")
        indices = math_ops.cast(math_ops.clip_by_value(indices, 0, nbins_float - 1),
                                dtypes.int32)
        return array_ops.reshape(indices, shape)


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32):
    """Counts (or summed weights) of each value 0..max(arr) in the non-negative integers arr
    (tf.math.bincount; op DenseBincount in scope `bincount`).

    weights: a tensor of arr's shape (its dtype is the result's) or None (counts of
    `dtype`). minlength / maxlength: bounds on the output length. Raises
    InvalidArgumentError at run time for a negative value.
    """
    from minitf.ops import array_ops, math_ops, reduction_ops
    with ops.name_scope("bincount"):
        arr = ops.convert_to_tensor(arr, name="arr")
        if weights is not None:
            weights = ops.convert_to_tensor(weights, name="weights")
        if not arr.dtype.is_integer:
            arr = math_ops.cast(arr, dtypes.int32)
        array_is_nonempty = array_ops.size(arr) > 0
        output_size = math_ops.cast(array_is_nonempty, arr.dtype) * (
            reduction_ops.reduce_max(arr) + 1)
        if minlength is not None:
            minlength = ops.convert_to_tensor(minlength, name="minlength", dtype=arr.dtype)
            output_size = _op("Maximum", x=minlength, y=output_size)
        if maxlength is not None:
            maxlength = ops.convert_to_tensor(maxlength, name="maxlength", dtype=arr.dtype)
            output_size = _op("Minimum", x=maxlength, y=output_size)
        if weights is not None:
            weights = array_ops.reshape(weights, [-1])
        arr = array_ops.reshape(arr, [-1])
        if weights is None:
            weights = constant_op.constant([], dtype=dtype)
        elif not isinstance(weights, ops.Tensor):
            raise ValueError("Argument `weights` must be a tf.Tensor if `values` is a tf.Tensor.")
        return _op("DenseBincount", input=arr, size=output_size, weights=weights,
                   binary_output=False)
