"""Slot variables of the optimizers (TensorFlow's training/slot_creator.py): a slot of variable
"w" made for optimizer "Adam" is the variable "w/Adam" (then "w/Adam_1", ...: the variable
scope "w/Adam" is uniquified), created with get_variable so its initializer nodes carry
TensorFlow's names; a resource variable gets resource slots, a ref variable ref slots. The
slot is colocated with its variable and not trainable.
"""
from minitf.framework import ops
from minitf.ops import array_ops, init_ops, variable_scope, variables


def _use_resource(primary):
    return isinstance(primary, variables.ResourceVariable)


def _prefix(primary):
    return primary.op.name


def _create_slot_var(primary, val, shape, dtype, validate_shape):
    scope = variable_scope.get_variable_scope()
    partitioner = scope.partitioner
    scope.set_partitioner(None)
    try:
        slot = variable_scope.get_variable(
            "", initializer=val, trainable=False, use_resource=_use_resource(primary),
            shape=shape if callable(val) else None, dtype=dtype, validate_shape=validate_shape)
    finally:
        scope.set_partitioner(partitioner)
    _slice_like_primary(primary, slot)
    return slot


def _slice_like_primary(primary, slot):
    """A slot of a part of a partitioned variable is the same part of a partitioned slot:
    saved as a slice of "<full name>/<slot name>" (emb/Adagrad), as TF's slots are; the
    slice keeps the slot's rank (none for a scalar slot)."""
    info = getattr(primary, "_save_slice_info", None)
    if info is None:
        return
    real_slot_name = slot.name[len(primary.op.name + "/"):-2]
    n = slot.shape.ndims
    if n is None or n > 0:
        slot._set_save_slice_info(variables.SaveSliceInfo(
            info.full_name + "/" + real_slot_name, info.full_shape[:n], info.var_offset[:n],
            info.var_shape[:n]))


def create_slot(primary, val, name, colocate_with_primary=True):
    """A slot of `primary` named "<primary>/<name>" initialized to the tensor `val`
    (tf.compat.v1 slot_creator.create_slot). Returns the new variable."""
    validate_shape = val.get_shape().is_fully_defined()
    with variable_scope.variable_scope(None, _prefix(primary) + "/" + name):
        if colocate_with_primary:
            with ops.colocate_with(primary):
                return _create_slot_var(primary, val, None, None, validate_shape)
        return _create_slot_var(primary, val, None, None, validate_shape)


def create_slot_with_initializer(primary, initializer, shape, dtype, name,
                                 colocate_with_primary=True):
    """A slot of `primary` of `shape` and `dtype` from `initializer` (an initializer object or
    a callable(shape, dtype=..., partition_info=...))."""
    validate_shape = shape.is_fully_defined()
    with variable_scope.variable_scope(None, _prefix(primary) + "/" + name):
        if colocate_with_primary:
            with ops.colocate_with(primary):
                return _create_slot_var(primary, initializer, shape, dtype, validate_shape)
        return _create_slot_var(primary, initializer, shape, dtype, validate_shape)


def create_zeros_slot(primary, name, dtype=None, colocate_with_primary=True):
    """A slot of zeros shaped like `primary` (zeros_initializer when its shape is fully
    defined, else zeros of its dynamic shape)."""
    if dtype is None:
        dtype = primary.dtype.base_dtype
    slot_shape = primary.get_shape()
    if slot_shape.is_fully_defined():
        return create_slot_with_initializer(primary, init_ops.zeros_initializer(), slot_shape,
                                            dtype, name, colocate_with_primary)
    val = array_ops.zeros(array_ops.shape(primary.initialized_value()), dtype=dtype)
    return create_slot(primary, val, name, colocate_with_primary)
