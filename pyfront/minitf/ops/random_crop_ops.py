"""tf.random_crop (TensorFlow's random_crop_ops.py; also tf.image.random_crop there)."""
from minitf.framework import dtypes, ops


def random_crop(value, size, seed=None, name=None):
    """A `size` slice of `value` at a uniformly drawn offset (tf.random_crop,
    tf.image.random_crop): Assert(all(shape >= size)), then RandomUniformInt offsets in
    [0, int32 max) modulo shape - size + 1, and Slice, with TensorFlow's node names, so a
    seeded crop picks TensorFlow's offsets.

    Args:
      value: tensor to crop.
      size: 1-D int32 tensor/list of value's rank: the crop's shape.
      seed: Python integer, combined with the graph seed.
      name: name scope, "random_crop" by default.

    Returns:
      A tensor of value's dtype and shape `size`.

    Raises:
      InvalidArgumentError (at run time): "Need value.shape >= size, got ..." from the
      assertion, or a rank mismatch from Slice.
    """
    from minitf.ops import array_ops, control_flow_ops, indexing_ops, logging_ops
    from minitf.ops import random_ops, reduction_ops
    with ops.name_scope(name, "random_crop", [value, size]) as name:
        value = ops.convert_to_tensor(value, name="value")
        size = ops.convert_to_tensor(size, dtype=dtypes.int32, name="size")
        shape = array_ops.shape(value)
        check = logging_ops.Assert(reduction_ops.reduce_all(shape >= size),
                                   ["Need value.shape >= size, got ", shape, size],
                                   summarize=1000)
        shape = control_flow_ops.with_dependencies([check], shape)
        limit = shape - size + 1
        offset = random_ops.random_uniform(array_ops.shape(shape), dtype=size.dtype,
                                           maxval=size.dtype.max, seed=seed) % limit
        return indexing_ops.slice(value, offset, size, name=name)
