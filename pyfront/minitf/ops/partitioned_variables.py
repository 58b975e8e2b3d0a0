"""Partitioned variables (TensorFlow's ops/partitioned_variables.py and the
PartitionedVariable of ops/variables.py): partitioners that choose how many parts a
variable is split into along one axis, and the PartitionedVariable that get_variable
returns for them. Each part is an ordinary variable `<name>/part_<i>` carrying a
SaveSliceInfo, so a Saver writes it as a slice of the full tensor `<name>` (SaveV2's
shape_and_slices), as TensorFlow does; checkpoints move between the two either way.
"""
import math

from minitf.framework import dtypes, ops, tensor_shape
from minitf.ops import array_ops


class PartitionedVariable:
    """A variable split into parts along one axis (TensorFlow's PartitionedVariable).

    Iterating gives the parts in offset order; `as_tensor()` (also what converting it to a
    tensor gives) concatenates them (`<name>/ConcatPartitions/concat`, then an Identity
    named `<name>`). Raises TypeError / ValueError for a bad variable_list or partitions.
    """

    def __init__(self, name, shape, dtype, variable_list, partitions):
        if not isinstance(variable_list, (list, tuple)):
            raise TypeError("variable_list is not a list or tuple: %s" % variable_list)
        if not isinstance(partitions, (list, tuple)):
            raise TypeError("partitions is not a list or tuple: %s" % partitions)
        if not all(p >= 1 for p in partitions):
            raise ValueError("partition values must be positive: %s" % partitions)
        if not variable_list:
            raise ValueError("variable_list may not be empty")
        full = tensor_shape.as_shape(shape).as_list()
        for v in variable_list:
            if not all(x._get_save_slice_info() is not None for x in variable_list):
                raise ValueError("All variables must have a save_slice_info available: %s"
                                 % [x.name for x in variable_list])
            if len(full) != len(partitions):
                raise ValueError("len(shape) != len(partitions): %s vs. %s"
                                 % (shape, partitions))
            if list(v._get_save_slice_info().full_shape) != full:
                raise ValueError("All variables' full shapes must match shape: %s; but full "
                                 "shapes were: %s"
                                 % (shape, str([v._get_save_slice_info().full_shape])))
        self._variable_list = sorted(variable_list,
                                     key=lambda v: v._get_save_slice_info().var_offset)
        self._name = name
        self._shape = tensor_shape.as_shape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._partitions = list(partitions)
        self._as_tensor = None

    def __iter__(self):
        return iter(self._variable_list)

    def __len__(self):
        axes = self._partition_axes()
        if len(axes) > 1:
            raise ValueError("Cannot get a length for %d > 1 partition axes" % len(axes))
        return len(self._variable_list)

    def _partition_axes(self):
        if all(p == 1 for p in self._partitions):
            return [0]
        return [i for i, p in enumerate(self._partitions) if p > 1]

    def _concat(self):
        if len(self._variable_list) == 1:
            with ops.name_scope(None):
                return array_ops.identity(self._variable_list[0], name=self._name)
        axes = self._partition_axes()
        if len(axes) > 1:
            raise NotImplementedError("Cannot concatenate along more than one dimension: %s.  "
                                      "Multi-axis partition concat is not supported"
                                      % str(axes))
        with ops.name_scope(self._name + "/ConcatPartitions/"):
            concatenated = array_ops.concat(self._variable_list, axes[0])
        with ops.name_scope(None):
            return array_ops.identity(concatenated, name=self._name)

    def as_tensor(self):
        """The whole value: the parts concatenated (outside any control dependencies)."""
        with ops.control_dependencies(None):
            return self._concat()

    name = property(lambda self: self._name)
    dtype = property(lambda self: self._dtype)
    shape = property(lambda self: self._shape)

    def get_shape(self):
        return self._shape

    def _get_variable_list(self):
        return self._variable_list

    def _get_partitions(self):
        return self._partitions

    def _apply_assign_fn(self, assign_fn, value):
        axes = self._partition_axes()
        if len(axes) > 1:
            raise NotImplementedError("Cannot do assign action along more than one dimension: "
                                      "%s.  Multi-axis partition assign action is not "
                                      "supported " % str(axes))
        if isinstance(value, list):
            assert len(value) == len(self._variable_list)
            values = value
        elif isinstance(value, PartitionedVariable):
            values = list(value)
        else:
            sizes = [v.shape.as_list()[axes[0]] for v in self._variable_list]
            values = array_ops.split(value, sizes, axis=axes[0])
        return [assign_fn(v, values[i]) for i, v in enumerate(self._variable_list)]

    def assign(self, value, use_locking=False, name=None, read_value=True):
        """Assigns each part its slice of `value` (a tensor of the full shape, a list of
        part values or another PartitionedVariable); returns the list of assign ops' values
        (or ops when read_value=False)."""
        out = self._apply_assign_fn(
            lambda v, x: v.assign(x, use_locking=use_locking, name=name,
                                  read_value=read_value), value)
        return out if read_value else [a.op for a in out]

    def assign_add(self, value, use_locking=False, name=None, read_value=True):
        out = self._apply_assign_fn(
            lambda v, x: v.assign_add(x, use_locking=use_locking, name=name,
                                      read_value=read_value), value)
        return out if read_value else [a.op for a in out]

    def assign_sub(self, value, use_locking=False, name=None, read_value=True):
        out = self._apply_assign_fn(
            lambda v, x: v.assign_sub(x, use_locking=use_locking, name=name,
                                      read_value=read_value), value)
        return out if read_value else [a.op for a in out]


def _to_tensor(v, dtype=None, name=None, as_ref=False):
    if dtype is not None and not dtypes.as_dtype(dtype).is_compatible_with(v.dtype):
        raise ValueError("Incompatible type conversion requested to type '%s' for variable of "
                         "type '%s'" % (dtypes.as_dtype(dtype).name, v.dtype.name))
    if as_ref:
        raise NotImplementedError("PartitionedVariable doesn't support being used as a "
                                  "reference.")
    return v.as_tensor()


ops.register_tensor_conversion_function(PartitionedVariable, _to_tensor)


def _element_size(dtype, bytes_per_string_element):
    dtype = dtypes.as_dtype(dtype)
    if dtype.base_dtype == dtypes.string:
        return bytes_per_string_element
    return dtype.size


def variable_axis_size_partitioner(max_shard_bytes, axis=0, bytes_per_string_element=16,
                                   max_shards=None):
    """A partitioner keeping each part under `max_shard_bytes` along `axis` (at least one
    slice of that axis per part, at most `max_shards` parts; strings count
    bytes_per_string_element each) (tf.compat.v1.variable_axis_size_partitioner).
    ValueError for a non-positive size or max_shards."""
    if max_shard_bytes < 1 or bytes_per_string_element < 1:
        raise ValueError("Both max_shard_bytes and bytes_per_string_element must be positive. "
                         "Currently, max_shard_bytes is %d and bytes_per_string_element is %d"
                         % (max_shard_bytes, bytes_per_string_element))
    if max_shards and max_shards < 1:
        raise ValueError("max_shards must be positive.")

    def _partitioner(shape, dtype):
        if not isinstance(shape, tensor_shape.TensorShape):
            raise ValueError("shape is not a TensorShape: %s" % shape)
        if not shape.is_fully_defined():
            raise ValueError("shape is not fully defined: %s" % shape)
        dims = shape.as_list()
        partitions = [1] * len(dims)
        bytes_per_slice = 1.0 * (shape.num_elements() / dims[axis]) * \
            _element_size(dtype, bytes_per_string_element)
        slices_per_shard = max(1, math.floor(max_shard_bytes / bytes_per_slice))
        axis_shards = int(math.ceil(1.0 * dims[axis] / slices_per_shard))
        if max_shards:
            axis_shards = min(max_shards, axis_shards)
        partitions[axis] = axis_shards
        return partitions

    return _partitioner


def min_max_variable_partitioner(max_partitions=1, axis=0, min_slice_size=256 << 10,
                                 bytes_per_string_element=16):
    """A partitioner making parts of at least `min_slice_size` bytes, at most
    `max_partitions` of them, along `axis` (tf.compat.v1.min_max_variable_partitioner).
    The partitioner raises ValueError for an axis past the variable's rank."""
    def _partitioner(shape, dtype):
        if axis >= len(shape):
            raise ValueError("Can not partition variable along axis %d when shape is only %s"
                             % (axis, shape))
        total = shape.num_elements() * _element_size(dtype, bytes_per_string_element)
        partitions = total / min_slice_size
        out = [1] * len(shape)
        out[axis] = max(1, min(shape.as_list()[axis], max_partitions,
                               int(math.ceil(partitions))))
        return out

    return _partitioner


def fixed_size_partitioner(num_shards, axis=0):
    """A partitioner making `num_shards` parts along `axis` (fewer when the axis is
    shorter) (tf.compat.v1.fixed_size_partitioner)."""
    def _partitioner(shape, **unused_args):
        out = [1] * len(shape)
        out[axis] = min(num_shards, shape.as_list()[axis])
        return out

    return _partitioner


class _PartitionInfo:
    """What an initializer of one part is told (TensorFlow's _PartitionInfo): the full
    shape and this part's offset in it."""

    def __init__(self, full_shape, var_offset):
        if not isinstance(full_shape, (list, tuple)):
            raise TypeError("`full_shape` must be a sequence (like tuple or list) instead of "
                            + type(full_shape).__name__)
        if not isinstance(var_offset, (list, tuple)):
            raise TypeError("`var_offset` must be a sequence (like tuple or list) instead of "
                            + type(var_offset).__name__)
        if len(var_offset) != len(full_shape):
            raise ValueError("Expected equal length, but `var_offset` is of length {} while "
                             "full_shape is of length {}.".format(len(var_offset),
                                                                   len(full_shape)))
        for off, dim in zip(var_offset, full_shape):
            if off < 0 or off >= dim:
                raise ValueError("Expected 0 <= offset < shape but found offset={}, shape={} "
                                 "for var_offset={}, full_shape={}".format(
                                     off, dim, var_offset, full_shape))
        self._full_shape = full_shape
        self._var_offset = var_offset

    full_shape = property(lambda self: self._full_shape)
    var_offset = property(lambda self: self._var_offset)

    def single_offset(self, shape):
        dim = self.single_slice_dim(shape)
        return 0 if dim is None else self.var_offset[dim]

    def single_slice_dim(self, shape):
        if not isinstance(shape, (tuple, list)):
            raise TypeError("`shape` must be a sequence (like tuple or list) instead of "
                            + type(shape).__name__)
        if len(shape) != len(self.full_shape):
            raise ValueError("Expected equal length, but received shape={} of length {} while "
                             "self.full_shape={} is of length {}.".format(
                                 shape, len(shape), self.full_shape, len(self.full_shape)))
        for i in range(len(shape)):
            if self.var_offset[i] + shape[i] > self.full_shape[i]:
                raise ValueError("With self.var_offset={}, a partition of shape={} would "
                                 "exceed self.full_shape={} in dimension {}.".format(
                                     self.var_offset, shape, self.full_shape, i))
        dim = None
        for i in range(len(shape)):
            if shape[i] == self.full_shape[i]:
                continue
            if dim is not None:
                raise ValueError("Cannot use single_slice_dim() with shape={} and "
                                 "self.full_shape={} since slice dim could be either dimension "
                                 "{} or {}.".format(shape, self.full_shape, i, dim))
            dim = i
        return dim


def call_partitioner(partitioner, shape, dtype):
    """The partitions list of a new variable, checked as TensorFlow checks it."""
    if not shape.is_fully_defined():
        raise ValueError("Shape of a new partitioned variable must be fully defined, but "
                         "instead was %s." % (shape,))
    if shape.ndims < 1:
        raise ValueError("A partitioned Variable must have rank at least 1, shape: %s" % shape)
    slicing = partitioner(shape=shape, dtype=dtype)
    if not isinstance(slicing, (list, tuple)):
        raise ValueError("Partitioner must return a sequence, but saw: %s" % slicing)
    if len(slicing) != shape.ndims:
        raise ValueError("Partitioner returned a partition list that does not match the "
                         "Variable's rank: %s vs. %s" % (slicing, shape))
    if any(p < 1 for p in slicing):
        raise ValueError("Partitioner returned zero partitions for some axes: %s" % slicing)
    if sum(p > 1 for p in slicing) > 1:
        raise ValueError("Can only slice a variable along one dimension: shape: %s, "
                         "partitioning: %s" % (shape, slicing))
    return slicing


def slice_dim_and_num_slices(slicing):
    for dim, num in enumerate(slicing):
        if num > 1:
            return dim, num
    return 0, 1


def iter_slices(full_shape, num_slices, slice_dim):
    """(offset, shape) of each part: the first `full % num` parts one longer."""
    excess = full_shape[slice_dim] % num_slices
    offset = [0] * len(full_shape)
    min_len = full_shape[slice_dim] // num_slices
    for i in range(num_slices):
        shape = full_shape[:]
        shape[slice_dim] = min_len + (1 if i < excess else 0)
        yield offset[:], shape
        offset[slice_dim] += shape[slice_dim]


__all__ = ["PartitionedVariable", "fixed_size_partitioner", "min_max_variable_partitioner",
           "variable_axis_size_partitioner"]
