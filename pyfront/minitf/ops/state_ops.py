"""State ops over ref and resource variables, mirroring TensorFlow 2.21's state_ops.py:
tf.assign / assign_add / assign_sub, tf.scatter_{update,add,sub,mul,div,min,max},
tf.scatter_nd_{update,add,sub}, tf.count_up_to, tf.is_variable_initialized.

Each takes `ref`, a ref variable (RefVariable or a ref tensor: the C op of the same name, e.g.
Assign, whose output is the updated ref) or a resource variable (the Resource*/…VariableOp op,
then a read of the new value, as TensorFlow's _lazy_read). Shape mismatches known at graph
construction raise ValueError; at run time InvalidArgumentError naming the node (the variable
is left unchanged); an uninitialized variable gives FailedPreconditionError.
"""
from minitf.framework import ops
from minitf.framework.op_def_library import apply_op, outputs_of


def _is_ref(x):
    return getattr(getattr(x, "dtype", None), "_is_ref_dtype", False)


def _gen(op_type, name=None, **kwargs):
    return outputs_of(apply_op(op_type, name=name, **kwargs))


def assign(ref, value, validate_shape=None, use_locking=None, name=None):
    """Sets `ref` to `value` (tf.compat.v1.assign; op Assign, or AssignVariableOp through
    ref.assign for resource variables). validate_shape (default True) requires equal shapes;
    with False the variable takes value's shape. Returns the ref after assignment."""
    if _is_ref(ref):
        return _gen("Assign", ref=ref, value=value, use_locking=use_locking,
                    validate_shape=validate_shape, name=name)
    return ref.assign(value, name=name)


def assign_add(ref, value, use_locking=None, name=None):
    """ref += value (op AssignAdd, or AssignAddVariableOp + a read for resource variables).
    Shapes must be equal: "Parameters and update must be the same size" for refs."""
    if _is_ref(ref):
        return _gen("AssignAdd", ref=ref, value=value, use_locking=use_locking, name=name)
    return ref.assign_add(value)


def assign_sub(ref, value, use_locking=None, name=None):
    """ref -= value (op AssignSub / AssignSubVariableOp)."""
    if _is_ref(ref):
        return _gen("AssignSub", ref=ref, value=value, use_locking=use_locking, name=name)
    return ref.assign_sub(value)


def _scatter(ref_op, resource_op, ref, indices, updates, use_locking, name):
    if _is_ref(ref):
        return _gen(ref_op, ref=ref, indices=indices, updates=updates, use_locking=use_locking,
                    name=name)
    updates = ops.convert_to_tensor(updates, ref.dtype)
    return ref._lazy_read(apply_op(resource_op, resource=ref.handle, indices=indices,
                                   updates=updates, name=name))


def scatter_update(ref, indices, updates, use_locking=True, name=None):
    """ref[indices, ...] = updates (op ScatterUpdate / ResourceScatterUpdate).

    updates has shape indices.shape + ref.shape[1:] (or is a scalar); indices int32/int64 in
    [0, ref.shape[0]), else InvalidArgumentError "indices[i] = k is not in [0, n)". Duplicate
    indices: one of the updates wins. Returns the updated ref (a read for resource variables).
    """
    return _scatter("ScatterUpdate", "ResourceScatterUpdate", ref, indices, updates,
                    use_locking, name)


def scatter_add(ref, indices, updates, use_locking=False, name=None):
    """ref[indices, ...] += updates (ScatterAdd / ResourceScatterAdd); duplicates add up."""
    return _scatter("ScatterAdd", "ResourceScatterAdd", ref, indices, updates, use_locking, name)


def scatter_sub(ref, indices, updates, use_locking=False, name=None):
    """ref[indices, ...] -= updates (ScatterSub / ResourceScatterSub)."""
    return _scatter("ScatterSub", "ResourceScatterSub", ref, indices, updates, use_locking, name)


def scatter_mul(ref, indices, updates, use_locking=False, name=None):
    """ref[indices, ...] *= updates (ScatterMul / ResourceScatterMul)."""
    return _scatter("ScatterMul", "ResourceScatterMul", ref, indices, updates, use_locking, name)


def scatter_div(ref, indices, updates, use_locking=False, name=None):
    """ref[indices, ...] /= updates (ScatterDiv / ResourceScatterDiv)."""
    return _scatter("ScatterDiv", "ResourceScatterDiv", ref, indices, updates, use_locking, name)


def scatter_min(ref, indices, updates, use_locking=False, name=None):
    """ref[indices, ...] = min(ref[indices, ...], updates) (ScatterMin / ResourceScatterMin);
    half, bfloat16, float, double, int32, int64."""
    return _scatter("ScatterMin", "ResourceScatterMin", ref, indices, updates, use_locking, name)


def scatter_max(ref, indices, updates, use_locking=False, name=None):
    """ref[indices, ...] = max(...) (ScatterMax / ResourceScatterMax)."""
    return _scatter("ScatterMax", "ResourceScatterMax", ref, indices, updates, use_locking, name)


def _scatter_nd(ref_op, resource_op, ref, indices, updates, use_locking, name):
    if _is_ref(ref):
        return _gen(ref_op, ref=ref, indices=indices, updates=updates, use_locking=use_locking,
                    name=name)
    updates = ops.convert_to_tensor(updates, ref.dtype)
    return ref._lazy_read(apply_op(resource_op, ref=ref.handle, indices=indices,
                                   updates=updates, use_locking=use_locking, name=name))


def scatter_nd_update(ref, indices, updates, use_locking=True, name=None):
    """Sets the slices of `ref` that `indices` ([..., K], int32/int64) address to `updates`
    (shape indices.shape[:-1] + ref.shape[K:]) (op ScatterNdUpdate / ResourceScatterNdUpdate).
    Out-of-range rows: InvalidArgumentError "indices[i] = [..] does not index into shape ..".
    """
    return _scatter_nd("ScatterNdUpdate", "ResourceScatterNdUpdate", ref, indices, updates,
                       use_locking, name)


def scatter_nd_add(ref, indices, updates, use_locking=False, name=None):
    """Adds `updates` to the slices `indices` address (ScatterNdAdd / ResourceScatterNdAdd)."""
    return _scatter_nd("ScatterNdAdd", "ResourceScatterNdAdd", ref, indices, updates,
                       use_locking, name)


def scatter_nd_sub(ref, indices, updates, use_locking=False, name=None):
    """Subtracts `updates` (ScatterNdSub / ResourceScatterNdSub)."""
    return _scatter_nd("ScatterNdSub", "ResourceScatterNdSub", ref, indices, updates,
                       use_locking, name)


def count_up_to(ref, limit, name=None):
    """The value of the int32/int64 scalar variable `ref` before incrementing it (op CountUpTo
    / ResourceCountUpTo); OutOfRangeError "Reached limit of <limit>" once it equals `limit`."""
    if _is_ref(ref):
        return _gen("CountUpTo", ref=ref, limit=limit, name=name)
    return _gen("ResourceCountUpTo", resource=ref.handle, limit=limit, T=ref.dtype, name=name)


def is_variable_initialized(ref, name=None):
    """bool scalar: whether `ref` holds a value (op IsVariableInitialized; VarIsInitializedOp
    for resource variables)."""
    if _is_ref(ref):
        return _gen("IsVariableInitialized", ref=ref, name=name)
    return outputs_of(apply_op("VarIsInitializedOp", resource=ref.handle, name=name))
