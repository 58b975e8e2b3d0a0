"""Norm clipping (TensorFlow's clip_ops.py): tf.clip_by_norm, tf.clip_by_global_norm,
tf.clip_by_average_norm, tf.global_norm, built from the same ops in the same order as
TensorFlow, so values and node names agree. (tf.clip_by_value lives in math_ops.)
IndexedSlices are clipped through their values and keep their indices."""
import collections.abc

from minitf.framework import constant_op, dtypes, ops
from minitf.framework.indexed_slices import IndexedSlices
from minitf.ops import array_ops, math_ops, nn_ops


def _values(t, name):
    return ops.convert_to_tensor(t.values if isinstance(t, IndexedSlices) else t, name=name)


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """t * clip_norm / max(l2norm(t, axes), clip_norm) (tf.clip_by_norm): unchanged where the
    L2 norm over `axes` (default all) is at most clip_norm. t: a Tensor or IndexedSlices;
    clip_norm: a positive scalar (negative counts as 0). Returns t's type and shape."""
    with ops.name_scope(name, "clip_by_norm", [t, clip_norm]) as name:
        values = _values(t, "t")
        if isinstance(clip_norm, (int, float)):
            clip_norm = max(clip_norm, 0)
        else:
            clip_norm = math_ops.cast(math_ops.maximum(clip_norm, 0), dtype=values.dtype)
        l2sum = math_ops.reduce_sum(values * values, axes, keepdims=True)
        pred = l2sum > 0
        # the two selects keep the gradient of sqrt finite where the norm is 0 (TF's trick)
        l2sum_safe = math_ops.where(pred, l2sum, array_ops.ones_like(l2sum))
        l2norm = math_ops.where(pred, math_ops.sqrt(l2sum_safe), l2sum)
        intermediate = values * clip_norm
        values.shape.assert_is_compatible_with(intermediate.shape)
        values_clip = array_ops.identity(intermediate / math_ops.maximum(l2norm, clip_norm),
                                         name=name)
        if isinstance(t, IndexedSlices):
            return IndexedSlices(values_clip, t.indices, t.dense_shape)
        return values_clip


def _check_list(t_list):
    if not isinstance(t_list, collections.abc.Sequence) or isinstance(t_list, str):
        raise TypeError("`t_list` should be a sequence of tensors. Received %s." % type(t_list))
    return list(t_list)


def global_norm(t_list, name=None):
    """sqrt(sum of squares of every element of every tensor) (tf.global_norm); None entries
    are skipped. Returns a scalar of the tensors' dtype. TypeError if t_list is not a
    sequence."""
    t_list = _check_list(t_list)
    with ops.name_scope(name, "global_norm", t_list) as name:
        values = [_values(t, "t_%d" % i) if t is not None else t for i, t in enumerate(t_list)]
        half_squared_norms = []
        for v in values:
            if v is not None:
                with ops.colocate_with(v):
                    half_squared_norms.append(nn_ops.l2_loss(v))
        half_squared_norm = math_ops.reduce_sum(array_ops.stack(half_squared_norms))
        return math_ops.sqrt(
            half_squared_norm * constant_op.constant(2.0, dtype=half_squared_norm.dtype),
            name="global_norm")


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """(each t * clip_norm / max(global_norm, clip_norm), global_norm) (tf.clip_by_global_norm);
    use_norm replaces the computed norm. A non-finite norm makes every value NaN, as in
    TensorFlow. Returns (list of Tensors / IndexedSlices / None, the norm)."""
    t_list = _check_list(t_list)
    if use_norm is None:
        use_norm = global_norm(t_list, name)
    with ops.name_scope(name, "clip_by_global_norm", t_list + [clip_norm]) as name:
        scale_for_finite = clip_norm * math_ops.minimum(
            1.0 / use_norm, constant_op.constant(1.0, dtype=use_norm.dtype) / clip_norm)
        # a no-op for a finite norm; NaN for inf / NaN (TensorFlow's way to poison the result)
        scale = scale_for_finite + (use_norm - use_norm)
        values = [_values(t, "t_%d" % i) if t is not None else t for i, t in enumerate(t_list)]
        values_clipped = []
        for i, v in enumerate(values):
            if v is None:
                values_clipped.append(None)
                continue
            with ops.colocate_with(v):
                values_clipped.append(array_ops.identity(v * math_ops.cast(scale, v.dtype),
                                                         name="%s_%d" % (name, i)))
        list_clipped = [IndexedSlices(c, t.indices, t.dense_shape)
                        if isinstance(t, IndexedSlices) else c
                        for c, t in zip(values_clipped, t_list)]
    return list_clipped, use_norm


def clip_by_average_norm(t, clip_norm, name=None):
    """t * clip_norm / max(l2norm(t) / size(t), clip_norm) (tf.clip_by_average_norm,
    float32)."""
    with ops.name_scope(name, "clip_by_average_norm", [t, clip_norm]) as name:
        t = ops.convert_to_tensor(t, name="t")
        n_element = math_ops.cast(array_ops.size(t), dtypes.float32)
        l2norm_inv = math_ops.rsqrt(
            math_ops.reduce_sum(t * t, array_ops.range(array_ops.rank(t))))
        return array_ops.identity(
            t * clip_norm * math_ops.minimum(l2norm_inv * n_element,
                                             constant_op.constant(1.0) / clip_norm),
            name=name)
