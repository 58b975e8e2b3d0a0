"""Reading checkpoints by variable name (TensorFlow's training/checkpoint_utils.py):
tf.train.load_checkpoint, load_variable, list_variables, init_from_checkpoint."""
import os

from minitf.framework import ops
from minitf.framework.op_def_library import apply_op
from minitf.ops import variables
from minitf.training import checkpoint_management, py_checkpoint_reader
from minitf.training.saving import saveable_object_util


def _get_checkpoint_filename(ckpt_dir_or_file):
    ckpt_dir_or_file = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(ckpt_dir_or_file):
        return checkpoint_management.latest_checkpoint(ckpt_dir_or_file)
    return ckpt_dir_or_file


def load_checkpoint(ckpt_dir_or_file):
    """A CheckpointReader for a checkpoint prefix, or for the latest checkpoint of a
    directory (tf.train.load_checkpoint). ValueError "Couldn't find 'checkpoint' file or
    checkpoints in given directory ..." for a directory without one; NotFoundError for a
    prefix with no files."""
    filename = _get_checkpoint_filename(ckpt_dir_or_file)
    if filename is None:
        raise ValueError("Couldn't find 'checkpoint' file or checkpoints in given directory %s"
                         % ckpt_dir_or_file)
    return py_checkpoint_reader.NewCheckpointReader(filename)


def load_variable(ckpt_dir_or_file, name):
    """The value (NumPy array) of variable `name` ("v" or "v:0") in a checkpoint
    (tf.train.load_variable). NotFoundError "Key <name> not found in checkpoint"."""
    if name.endswith(":0"):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)


def list_variables(ckpt_dir_or_file):
    """[(name, shape as a list)] of every tensor in a checkpoint, sorted by name
    (tf.train.list_variables)."""
    shapes = load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map()
    return [(name, shapes[name]) for name in sorted(shapes)]


def _is_variable(x):
    return isinstance(x, (variables.ResourceVariable, variables.RefVariable))


def _store_vars():
    from minitf.ops import variable_scope
    return variable_scope._get_default_variable_store()._vars


def init_from_checkpoint(ckpt_dir_or_file, assignment_map):
    """Replaces the initializers of variables with reads from a checkpoint
    (tf.compat.v1.train.init_from_checkpoint): running the initializer then restores the
    variable's value from the checkpoint.

    assignment_map: {checkpoint name or scope "a/": variable, variable name (as made by
    get_variable) or scope "b/"}; "/" maps the root. Raises ValueError for a name missing
    from the checkpoint, a shape that does not match, or a scope mapped to a non-scope.
    """
    ckpt_file = _get_checkpoint_filename(ckpt_dir_or_file)
    reader = load_checkpoint(ckpt_dir_or_file)
    variable_map = reader.get_variable_to_shape_map()
    if hasattr(assignment_map, "items"):
        assignment_map = assignment_map.items()
    store_vars = _store_vars()
    for tensor_name_in_ckpt, current in sorted(assignment_map, key=lambda p: p[0]):
        if _is_variable(current) or (isinstance(current, list) and
                                     all(_is_variable(v) for v in current)):
            var = current
        else:
            var = store_vars.get(current, None)
            if var is None:  # a partitioned variable: its parts, each restoring its slice
                var = _collect_partitioned_variable(current, store_vars)
        if var is not None:
            if tensor_name_in_ckpt not in variable_map:
                raise ValueError("Tensor %s is not found in %s checkpoint %s" % (
                    tensor_name_in_ckpt, ckpt_dir_or_file, variable_map))
            if _is_variable(var):
                if not var.get_shape().is_compatible_with(variable_map[tensor_name_in_ckpt]):
                    raise ValueError(
                        "Shape of variable %s (%s) doesn't match with shape of tensor %s (%s) "
                        "from checkpoint reader." % (var.name, str(var.get_shape()),
                                                     tensor_name_in_ckpt,
                                                     str(variable_map[tensor_name_in_ckpt])))
            _set_variable_or_list_initializer(var, ckpt_file, tensor_name_in_ckpt)
            continue
        scopes = ""
        if "/" in current:
            scopes = current[:current.rindex("/")]
        if not tensor_name_in_ckpt.endswith("/"):
            raise ValueError("Assignment map with scope only name {} should map to scope only "
                             "{}. Should be 'scope/': 'other_scope/'.".format(
                                 scopes, tensor_name_in_ckpt))
        scope_variables = set()
        for var_name in store_vars:
            if not scopes or var_name.startswith(scopes + "/"):
                if "/part_" in var_name:
                    var_name = var_name[:var_name.index("/part_")]
                scope_variables.add(var_name)
        for var_name in sorted(scope_variables):
            full = var_name[len(scopes):]
            if current != "/":
                full = full[1:]
            if tensor_name_in_ckpt != "/":
                full = tensor_name_in_ckpt + full
            if full.endswith("/"):
                full = full[:-1]
            if full not in variable_map:
                raise ValueError("Tensor %s (%s in %s) is not found in %s checkpoint" % (
                    full, var_name[len(scopes) + 1:], tensor_name_in_ckpt, ckpt_dir_or_file))
            var = store_vars.get(var_name, None)
            if var is None:
                var = _collect_partitioned_variable(var_name, store_vars)
            _set_variable_or_list_initializer(var, ckpt_file, full)


def _collect_partitioned_variable(name, all_vars):
    """The parts name/part_0, name/part_1, ... of a partitioned variable in the variable
    store, in order; None when there are none."""
    if name + "/part_0" not in all_vars:
        return None
    parts = []
    while name + "/part_%d" % len(parts) in all_vars:
        parts.append(all_vars[name + "/part_%d" % len(parts)])
    return parts


def _set_checkpoint_initializer(variable, ckpt_file, tensor_name, slice_spec,
                                name="checkpoint_initializer"):
    base_type = variable.dtype.base_dtype
    # Not colocated with the variable: RestoreV2 runs on the CPU only.
    with ops.device(variable.device), ops.device("/cpu:0"):
        restore_op = apply_op("RestoreV2", prefix=ckpt_file, tensor_names=[tensor_name],
                              shape_and_slices=[slice_spec], dtypes=[base_type],
                              name=name).outputs[0]
        names_to_saveables = saveable_object_util.op_list_to_dict([variable])
        saveables = []
        for key, op in names_to_saveables.items():
            saveables.extend(saveable_object_util.saveable_objects_for_op(op, key))
        assert len(saveables) == 1
    init_op = saveables[0].restore([restore_op], restored_shapes=None)
    variable._initializer_op = init_op
    restore_op.set_shape(variable.shape)
    variable._initial_value = restore_op


def _set_variable_or_list_initializer(variable_or_list, ckpt_file, tensor_name):
    if isinstance(variable_or_list, (list, tuple)):
        slice_name = None
        for v in variable_or_list:
            info = v._save_slice_info
            if slice_name is None:
                slice_name = info.full_name
            elif slice_name != info.full_name:
                raise ValueError("Slices must all be from the same tensor: %s != %s"
                                 % (slice_name, info.full_name))
            _set_checkpoint_initializer(v, ckpt_file, tensor_name, info.spec)
    else:
        _set_checkpoint_initializer(variable_or_list, ckpt_file, tensor_name, "")
