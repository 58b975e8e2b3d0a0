"""From a Saver's var_list to SaveableObjects (TensorFlow's saveable_object_util.py).

A var_list is a list of variables (each saved under its op name, a slice of a partitioned
variable under its full name) or a dict {checkpoint key: variable or list of slices}. The
saveables come out sorted by checkpoint key, as TensorFlow builds them, so the save/ nodes
and the order of SaveV2's inputs are TensorFlow's.
"""
from minitf.framework import device as pydev
from minitf.framework import ops
from minitf.framework.op_def_library import apply_op, get_registered_ops, outputs_of
from minitf.ops import array_ops, state_ops
from minitf.ops import variables
from minitf.ops.partitioned_variables import PartitionedVariable
from minitf.training.saving import saveable_object

_VARIABLE_OPS = {"Variable", "VariableV2", "AutoReloadVariable", "VarHandleOp",
                 "ReadVariableOp"}
_REF_VARIABLE_OPS = ("Variable", "VariableV2", "AutoReloadVariable")


def set_cpu0(device_string):
    """`device_string` with its device replaced by CPU:0 ("/device:CPU:0" for "")."""
    spec = pydev.DeviceSpec.from_string(device_string or "")
    return spec.replace(device_type="CPU", device_index=0).to_string()


def _is_resource_variable(v):
    return isinstance(v, variables.ResourceVariable)


def _is_variable(v):
    return isinstance(v, (variables.ResourceVariable, variables.RefVariable))


def _tensor_comes_from_variable(v):
    return isinstance(v, ops.Tensor) and v.op.type in _VARIABLE_OPS


def _slice_info(v):
    return getattr(v, "_save_slice_info", None)


class ReferenceVariableSaveable(saveable_object.SaveableObject):
    """A ref variable (VariableV2): saved as its ref tensor, restored by an Assign
    (save/Assign, colocated with the variable)."""

    def __init__(self, var, slice_spec, name, tensor=None):
        # A slice of a partitioned variable is saved as its snapshot (`part_0/read`), as
        # TensorFlow saves the RefVariable it is given; restored into the ref all the same.
        spec = saveable_object.SaveSpec(var if tensor is None else tensor, slice_spec, name,
                                        dtype=var.dtype.base_dtype)
        super().__init__(var, [spec], name)

    def restore(self, restored_tensors, restored_shapes):
        restored = restored_tensors[0]
        if restored_shapes is not None:
            restored = array_ops.reshape(restored, restored_shapes[0])
        return state_ops.assign(
            self.op, restored,
            validate_shape=restored_shapes is None and self.op.shape.is_fully_defined())


class ResourceVariableSaveable(saveable_object.SaveableObject):
    """A resource variable: saved as its graph read (v/Read/ReadVariableOp) or, given the
    variable itself (a slice of a partitioned variable), as a fresh read made when the
    save op is built; restored by save/Identity + save/AssignVariableOp."""

    def __init__(self, var, slice_spec, name):
        self._var_device = var.device
        self._var_shape = var.shape
        if isinstance(var, ops.Tensor):
            self.handle_op = var.op.inputs[0]
            tensor = var
        elif _is_resource_variable(var):
            self.handle_op = var.handle
            tensor = _read_closure(var)
        else:
            raise ValueError("Saveable is neither a resource variable nor a read operation. "
                             "Got: %s" % repr(var))
        spec = saveable_object.SaveSpec(tensor, slice_spec, name, dtype=var.dtype,
                                        device=var.device)
        super().__init__(var, [spec], name)

    def restore(self, restored_tensors, restored_shapes):
        restored = restored_tensors[0]
        if restored_shapes is not None:
            restored = array_ops.reshape(restored, restored_shapes[0])
        with ops.device(self._var_device):
            restored = array_ops.identity(restored)
            if not self._var_shape.is_compatible_with(restored.shape):
                raise ValueError(
                    "Received incompatible tensor with shape %s when attempting to restore "
                    "variable with shape %s and name %s." % (restored.shape, self._var_shape,
                                                            self.name))
            return apply_op("AssignVariableOp", resource=self.handle_op, value=restored)


def _read_closure(v):
    """A read of `v` copied to CPU:0, made when SaveV2 is built (TensorFlow's
    read_value_no_copy + identity)."""
    def read():
        with ops.device(v.device):
            with ops.name_scope("Read"):
                if "DisableCopyOnRead" in get_registered_ops():
                    apply_op("DisableCopyOnRead", resource=v.handle)
                x = outputs_of(apply_op("ReadVariableOp", resource=v.handle, dtype=v.dtype))
            x = array_ops.identity(x)
            with ops.device("/device:CPU:0"):
                return array_ops.identity(x)
    return read


def op_list_to_dict(op_list, convert_variable_to_tensor=True):
    """{checkpoint key: variable tensor, or list of slice variables} for a list of
    variables (sorted by name first, as TensorFlow does, so the reads it adds come in a
    fixed order). Raises TypeError for a non-list or a non-variable, ValueError for two
    variables with one name."""
    if not isinstance(op_list, (list, tuple, set)):
        raise TypeError("Variables to save should be passed in a dict or a list: %s" % op_list)
    flat = []
    for x in op_list:
        flat.extend(x if isinstance(x, (list, tuple)) else [x])
    names_to_saveables = {}
    for var in sorted(flat, key=lambda x: x.name):
        if isinstance(var, PartitionedVariable):
            if var.name in names_to_saveables:
                raise ValueError("At least two variables have the same name: %s" % var.name)
            names_to_saveables[var.name] = var
            continue
        if _is_variable(var) and _slice_info(var):
            name = _slice_info(var).full_name
            if name in names_to_saveables:
                if not isinstance(names_to_saveables[name], list):
                    raise ValueError("Mixing slices and non-slices with the same name: %s"
                                     % name)
                names_to_saveables[name].append(var)
            else:
                names_to_saveables[name] = [var]
            continue
        if isinstance(var, saveable_object.SaveableObject):
            if var.name in names_to_saveables:
                raise ValueError("At least two variables have the same name: %s" % var.name)
            names_to_saveables[var.name] = var
            continue
        if convert_variable_to_tensor:
            if _is_resource_variable(var):
                var = var._graph_element
            else:
                var = ops.convert_to_tensor(var, as_ref=True)
            if not _tensor_comes_from_variable(var):
                raise TypeError("Variable to save is not a Variable: %s" % var)
        if var.op.type == "ReadVariableOp":
            name = var.op.inputs[0].op.name
        else:
            name = var.op.name
        if name in names_to_saveables:
            raise ValueError("At least two variables have the same name: %s" % name)
        names_to_saveables[name] = var
    return names_to_saveables


def saveable_objects_for_op(op, name):
    """The SaveableObjects saving `op` (a variable, a variable's tensor, a list of slice
    variables or a SaveableObject) under checkpoint key `name`."""
    if not isinstance(name, str):
        raise TypeError("names_to_saveables must be a dict mapping string names to "
                        "trackable operations. Name is not a string: %s" % name)
    if isinstance(op, saveable_object.SaveableObject):
        yield op
        return
    if isinstance(op, PartitionedVariable):
        op = list(op)
    if isinstance(op, (list, tuple)):
        slice_name = None
        for variable in op:
            if isinstance(variable, saveable_object.SaveableObject):
                yield variable
                continue
            if not _is_variable(variable):
                raise ValueError("Slices must all be Variables: %s" % variable)
            info = _slice_info(variable)
            if not info:
                raise ValueError("Slices must all be slices: %s" % variable)
            if slice_name is None:
                slice_name = info.full_name
            elif slice_name != info.full_name:
                raise ValueError("Slices must all be from the same tensor: %s != %s"
                                 % (slice_name, info.full_name))
            if variable.op.type in _REF_VARIABLE_OPS:
                yield ReferenceVariableSaveable(variable._ref(), info.spec, name,
                                                tensor=variable.value())
            else:
                yield ResourceVariableSaveable(variable, info.spec, name)
        return
    if _is_resource_variable(op):
        variable = op._graph_element
    else:
        variable = ops.convert_to_tensor(op, as_ref=True)
    if not _tensor_comes_from_variable(variable):
        raise TypeError("names_to_saveables must be a dict mapping string names to "
                        "Tensors/Variables. Not a variable: %s" % variable)
    if variable.op.type in _REF_VARIABLE_OPS:
        yield ReferenceVariableSaveable(variable, "", name)
    else:
        yield ResourceVariableSaveable(variable, "", name)


def validate_and_slice_inputs(names_to_saveables):
    """The SaveableObjects of a var_list (list or dict), sorted by checkpoint key. Raises
    ValueError when one object would be saved under two names."""
    if not isinstance(names_to_saveables, dict):
        names_to_saveables = op_list_to_dict(names_to_saveables)
    saveables = []
    seen = []
    for name, op in sorted(names_to_saveables.items(), key=lambda x: x[0]):
        for saveable in saveable_objects_for_op(op, name):
            if saveable.op is not None and any(saveable.op is s for s in seen):
                raise ValueError("The same saveable will be restored with two names: %s"
                                 % saveable.name)
            saveables.append(saveable)
            seen.append(saveable.op)
    return saveables
