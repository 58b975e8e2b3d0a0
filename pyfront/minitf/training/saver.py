"""tf.compat.v1.train.Saver: saves and restores variables in TensorFlow's V2 checkpoint
format (TensorFlow's training/saver.py, graph mode).

The Saver adds to the graph, under its name scope ("save" by default), the nodes
TensorFlow 2.21 adds, with the same names, inputs, devices and attrs:

  save/filename/input   Const "model" (or `filename`)
  save/filename         PlaceholderWithDefault
  save/Const            PlaceholderWithDefault   <- SaverDef.filename_tensor_name
  save/SaveV2           SaveV2(prefix, tensor_names, shape_and_slices, tensors...)
  save/control_dependency  Identity of the prefix after SaveV2  <- save_tensor_name
  save/RestoreV2        RestoreV2 on /device:CPU:0
  save/Identity[_i], save/AssignVariableOp[_i]   (resource variables)
  save/Assign[_i]       (ref variables)
  save/restore_all      NoOp                     <- restore_op_name

write_version=SaverDef.V1 writes TensorFlow's V1 format instead: save/save is a SaveSlices
writing the one file `<prefix>` (sharded: `<prefix>-0000i-of-0000N` and the save tensor
save/ShardedFilespec, the pattern `<prefix>-?????-of-0000N`); restores are the same
RestoreV2 nodes, which read a prefix without `.index` as a V1 file pattern.

sharded=True groups the variables by device: one SaveV2 per device writing
`<prefix>_temp/part-0000i-of-0000N`, merged by MergeV2Checkpoints into `<prefix>`
(save/Identity is then the save tensor), and one restore_shard per device.
The kernels (SaveV2, RestoreV2, MergeV2Checkpoints) are C; the files they write are
TensorFlow's, so checkpoints move between minitf and TensorFlow both ways.
"""
import collections
import logging
import os
import time

import numpy as np

from minitf.core.protobuf import saver_pb2
from minitf.framework import constant_op, dtypes, errors, ops
from minitf.framework import device as pydev
from minitf.framework.op_def_library import apply_op, outputs_of
from minitf.ops import array_ops, control_flow_ops, math_ops
from minitf.training import checkpoint_management, training_util
from minitf.training.saving import saveable_object_util

_log = logging.getLogger("minitf")


def _prepend_name_scope(name, import_scope):
    """`import_scope/name` (a leading "^" of a control input kept)."""
    if not import_scope:
        return name
    if name.startswith("^"):
        return "^%s/%s" % (import_scope.rstrip("/"), name[1:])
    return "%s/%s" % (import_scope.rstrip("/"), name)


def _strip_name_scope(name, export_scope):
    """`name` without its leading `export_scope/`."""
    if not export_scope:
        return name
    prefix = export_scope.rstrip("/") + "/"
    if name.startswith("^" + prefix):
        return "^" + name[len(prefix) + 1:]
    return name[len(prefix):] if name.startswith(prefix) else name


class BaseSaverBuilder:
    """Builds the save and restore nodes of a Saver (TensorFlow's BaseSaverBuilder with
    the V2 format)."""

    def __init__(self, write_version=saver_pb2.SaverDef.V2):
        if write_version not in (saver_pb2.SaverDef.V1, saver_pb2.SaverDef.V2):
            raise RuntimeError("Unexpected write_version: %s" % write_version)
        self._write_version = write_version

    def save_op(self, filename_tensor, saveables):
        """SaveV2 writing every spec of `saveables` to the prefix `filename_tensor` (V1:
        SaveSlices "save" writing the one file `filename_tensor`)."""
        names, tensors, slices = [], [], []
        for saveable in saveables:
            for spec in saveable.specs:
                names.append(spec.name)
                tensors.append(spec.tensor)
                slices.append(spec.slice_spec)
        if self._write_version == saver_pb2.SaverDef.V1:
            return apply_op("SaveSlices", filename=filename_tensor, tensor_names=names,
                            shapes_and_slices=slices, data=tensors, name="save")
        return apply_op("SaveV2", prefix=filename_tensor, tensor_names=names,
                        shape_and_slices=slices, tensors=tensors)

    def bulk_restore(self, filename_tensor, saveables, preferred_shard, restore_sequentially):
        """One RestoreV2 on CPU:0 reading every spec; its outputs in spec order."""
        names, slices, types = [], [], []
        for saveable in saveables:
            for spec in saveable.specs:
                names.append(spec.name)
                slices.append(spec.slice_spec)
                types.append(dtypes.as_dtype(spec.dtype).base_dtype)
        with ops.device("cpu:0"):
            op = apply_op("RestoreV2", prefix=filename_tensor, tensor_names=names,
                          shape_and_slices=slices, dtypes=types)
        return list(op.outputs)

    def sharded_filename(self, filename_tensor, shard, num_shards):
        return outputs_of(apply_op("ShardedFilename", basename=filename_tensor, shard=shard,
                                   num_shards=num_shards))

    def _AddSaveOps(self, filename_tensor, saveables):
        save = self.save_op(filename_tensor, saveables)
        return control_flow_ops.with_dependencies([save], filename_tensor)

    def _AddShardedSaveOpsForV1(self, filename_tensor, per_device):
        """V1: one file `<filename>-0000i-of-0000N` per device; the save tensor is the
        ShardedFilespec pattern `<filename>-?????-of-0000N` that restores read."""
        num_shards = len(per_device)
        sharded_saves = []
        num_shards_tensor = constant_op.constant(num_shards, name="num_shards")
        for shard, (device, saveables) in enumerate(per_device):
            with ops.device(device):
                name = self.sharded_filename(filename_tensor, shard, num_shards_tensor)
                sharded_saves.append(self._AddSaveOps(name, saveables))
        with ops.control_dependencies([x.op for x in sharded_saves]):
            return outputs_of(apply_op("ShardedFilespec", basename=filename_tensor,
                                       num_shards=num_shards_tensor))

    def _AddShardedSaveOps(self, checkpoint_prefix, per_device):
        if self._write_version == saver_pb2.SaverDef.V1:
            return self._AddShardedSaveOpsForV1(checkpoint_prefix, per_device)
        with ops.device("CPU"):
            is_s3 = outputs_of(apply_op("StaticRegexFullMatch", input=checkpoint_prefix,
                                        pattern="^s3://.*"))
            suffix = math_ops.where(is_s3, constant_op.constant(".part"),
                                     constant_op.constant(os.path.normpath("_temp/part")))
            tmp_prefix = outputs_of(apply_op("StringJoin", inputs=[checkpoint_prefix, suffix]))
        num_shards = len(per_device)
        sharded_saves, sharded_prefixes = [], []
        num_shards_tensor = constant_op.constant(num_shards, name="num_shards")
        last_device = None
        for shard, (device, saveables) in enumerate(per_device):
            last_device = device
            with ops.device(saveable_object_util.set_cpu0(device)):
                name = self.sharded_filename(tmp_prefix, shard, num_shards_tensor)
                sharded_prefixes.append(name)
                sharded_saves.append(self._AddSaveOps(name, saveables))
        with ops.control_dependencies([x.op for x in sharded_saves]):
            with ops.device(saveable_object_util.set_cpu0(last_device)):
                merge = apply_op("MergeV2Checkpoints", checkpoint_prefixes=sharded_prefixes,
                                 destination_prefix=checkpoint_prefix, delete_old_dirs=True)
                with ops.control_dependencies([merge]):
                    return array_ops.identity(checkpoint_prefix)

    def _AddRestoreOps(self, filename_tensor, saveables, restore_sequentially, reshape,
                       preferred_shard=-1, name="restore_all"):
        all_tensors = self.bulk_restore(filename_tensor, saveables, preferred_shard,
                                        restore_sequentially)
        assign_ops = []
        idx = 0
        for saveable in saveables:
            shapes = None
            if reshape:
                shapes = []
                for spec in saveable.specs:
                    shape = spec.tensor.shape
                    shapes.append(shape.as_list() if shape.is_fully_defined()
                                  else array_ops.shape(spec.tensor))
            n = len(saveable.specs)
            assign_ops.append(saveable.restore(all_tensors[idx:idx + n], shapes))
            idx += n
        return control_flow_ops.group(*assign_ops, name=name)

    def _AddShardedRestoreOps(self, filename_tensor, per_device, restore_sequentially,
                              reshape):
        restores = []
        for shard, (device, saveables) in enumerate(per_device):
            with ops.device(device):
                restores.append(self._AddRestoreOps(filename_tensor, saveables,
                                                    restore_sequentially, reshape,
                                                    preferred_shard=shard,
                                                    name="restore_shard"))
        return control_flow_ops.group(*restores, name="restore_all")

    def _GroupByDevices(self, saveables):
        per_device = collections.defaultdict(list)
        for saveable in saveables:
            devices = set(pydev.canonical_name(spec.device) for spec in saveable.specs)
            if len(devices) != 1:
                raise ValueError("All tensors of a saveable object must be on the same "
                                 "device: %s" % saveable.name)
            per_device[devices.pop()].append(saveable)
        return sorted(per_device.items(), key=lambda t: t[0])

    def build(self, names_to_saveables, reshape=False, sharded=False, max_to_keep=5,
              keep_checkpoint_every_n_hours=10000.0, name=None, restore_sequentially=False,
              filename="model"):
        """Adds the save and restore nodes; returns their SaverDef."""
        return self._build_internal(names_to_saveables, reshape=reshape, sharded=sharded,
                                    max_to_keep=max_to_keep,
                                    keep_checkpoint_every_n_hours=keep_checkpoint_every_n_hours,
                                    name=name, restore_sequentially=restore_sequentially,
                                    filename=filename)

    def _build_internal(self, names_to_saveables, reshape=False, sharded=False, max_to_keep=5,
                        keep_checkpoint_every_n_hours=10000.0, name=None,
                        restore_sequentially=False, filename="model", build_save=True,
                        build_restore=True):
        if not build_save or not build_restore:
            raise ValueError("save and restore operations need to be built together when "
                             "eager execution is not enabled.")
        saveables = saveable_object_util.validate_and_slice_inputs(names_to_saveables)
        if max_to_keep is None:
            max_to_keep = 0
        with ops.name_scope(name, "save") as name:
            filename_tensor = array_ops.placeholder_with_default(
                filename or "model", shape=(), name="filename")
            # TensorFlow keeps the name "Const" for the fed prefix.
            filename_tensor = array_ops.placeholder_with_default(
                filename_tensor, shape=(), name="Const")
            if sharded:
                per_device = self._GroupByDevices(saveables)
                save_tensor = self._AddShardedSaveOps(filename_tensor, per_device)
                restore_op = self._AddShardedRestoreOps(filename_tensor, per_device,
                                                        restore_sequentially, reshape)
            else:
                save_tensor = self._AddSaveOps(filename_tensor, saveables)
                restore_op = self._AddRestoreOps(filename_tensor, saveables,
                                                 restore_sequentially, reshape)
        return saver_pb2.SaverDef(
            filename_tensor_name=filename_tensor.name, save_tensor_name=save_tensor.name,
            restore_op_name=restore_op.name, max_to_keep=max_to_keep, sharded=sharded,
            keep_checkpoint_every_n_hours=keep_checkpoint_every_n_hours,
            version=self._write_version)


class BulkSaverBuilder(BaseSaverBuilder):
    """The builder Saver uses by default: one RestoreV2 for all tensors."""


def _all_saveable_objects():
    g = ops.get_default_graph()
    return (g.get_collection(ops.GraphKeys.GLOBAL_VARIABLES) +
            g.get_collection(ops.GraphKeys.SAVEABLE_OBJECTS))


def _wrap_restore_error_with_msg(err, extra_verbiage):
    msg = ("Restoring from checkpoint failed. This is most likely due to {} from the "
           "checkpoint. Please ensure that you have not altered the graph expected based on "
           "the checkpoint. Original error:\n\n{}").format(extra_verbiage, err.message)
    return err.__class__(err.node_def, err.op, msg)


class Saver:
    """Saves and restores variables (tf.compat.v1.train.Saver).

    Args:
      var_list: list of variables (saved under their op names; slices of a partitioned
        variable under its full name) or dict {checkpoint key: variable or list of
        slices}; default: every global variable and saveable object.
      reshape: restore a tensor of another shape but the same number of elements.
      sharded: one data file per device, merged into one checkpoint.
      max_to_keep: checkpoints kept by save() (older ones deleted; None or 0 keeps all).
      keep_checkpoint_every_n_hours: also keep one checkpoint per that many hours.
      name: the name scope of the nodes ("save").
      saver_def: a SaverDef of nodes already in the graph (from_proto, meta graphs).
      builder: a BaseSaverBuilder (default BulkSaverBuilder).
      defer_build: build the nodes on build() instead of now.
      allow_empty: no error for no variables (save and restore then do nothing).
      pad_step_number: "model-00000007" instead of "model-7".
      save_relative_paths: the state file names checkpoints relative to its directory.
      filename: the default prefix of the filename tensor ("model").
    Raises ValueError for no variables ("No variables to save"), two variables with one
    name, or defer_build with a var_list; TypeError for something not a variable.
    """

    def __init__(self, var_list=None, reshape=False, sharded=False, max_to_keep=5,
                 keep_checkpoint_every_n_hours=10000.0, name=None, restore_sequentially=False,
                 saver_def=None, builder=None, defer_build=False, allow_empty=False,
                 write_version=saver_pb2.SaverDef.V2, pad_step_number=False,
                 save_relative_paths=False, filename=None):
        if defer_build and var_list:
            raise ValueError("If `var_list` is provided then build cannot be deferred. Either "
                             "set defer_build=False or var_list=None.")
        self._var_list = var_list
        self._reshape = reshape
        self._sharded = sharded
        self._max_to_keep = max_to_keep
        self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self._name = name
        self._restore_sequentially = restore_sequentially
        self.saver_def = saver_def
        self._builder = builder
        self._is_built = False
        self._allow_empty = allow_empty
        self._is_empty = None
        self._write_version = write_version
        self._pad_step_number = pad_step_number
        self._filename = filename
        self._last_checkpoints = []
        self._checkpoints_to_be_deleted = []
        self._next_checkpoint_time = None
        if not defer_build:
            self.build()
        if self.saver_def:
            self._check_saver_def()
            self._write_version = self.saver_def.version
        self._save_relative_paths = save_relative_paths

    def build(self):
        """Adds the save and restore nodes (with defer_build, once the graph is complete)."""
        self._build(self._filename, build_save=True, build_restore=True)

    def _build(self, checkpoint_path, build_save, build_restore):
        if self._is_built:
            return
        self._is_built = True
        if not self.saver_def:
            if self._builder is None:
                self._builder = BulkSaverBuilder(self._write_version)
            if self._var_list is None:
                self._var_list = _all_saveable_objects()
            if not self._var_list:
                if self._allow_empty:
                    self._is_empty = True
                    return
                raise ValueError("No variables to save")
            self._is_empty = False
            self.saver_def = self._builder._build_internal(
                self._var_list, reshape=self._reshape, sharded=self._sharded,
                max_to_keep=self._max_to_keep,
                keep_checkpoint_every_n_hours=self._keep_checkpoint_every_n_hours,
                name=self._name, restore_sequentially=self._restore_sequentially,
                filename=checkpoint_path, build_save=build_save, build_restore=build_restore)
        elif self.saver_def and self._name:
            # The name doubles as the import scope of a SaverDef read from a meta graph.
            d = self.saver_def
            d.filename_tensor_name = _prepend_name_scope(d.filename_tensor_name, self._name)
            d.save_tensor_name = _prepend_name_scope(d.save_tensor_name, self._name)
            d.restore_op_name = _prepend_name_scope(d.restore_op_name, self._name)
        self._check_saver_def()
        self._next_checkpoint_time = (time.time() +
                                      self.saver_def.keep_checkpoint_every_n_hours * 3600)

    def _check_saver_def(self):
        if not isinstance(self.saver_def, saver_pb2.SaverDef):
            raise ValueError("saver_def must be a saver_pb2.SaverDef: %s" % self.saver_def)
        if not self.saver_def.save_tensor_name:
            raise ValueError("saver_def must specify the save_tensor_name: %s"
                             % str(self.saver_def))
        if not self.saver_def.restore_op_name:
            raise ValueError("saver_def must specify the restore_op_name: %s"
                             % str(self.saver_def))

    def as_saver_def(self):
        """The SaverDef of this Saver's nodes."""
        return self.saver_def

    def to_proto(self, export_scope=None):
        """The SaverDef, names relative to export_scope (None when a node is outside it)."""
        if export_scope is None:
            return self.saver_def
        d = self.saver_def
        if not (d.filename_tensor_name.startswith(export_scope) and
                d.save_tensor_name.startswith(export_scope) and
                d.restore_op_name.startswith(export_scope)):
            return None
        out = saver_pb2.SaverDef()
        out.CopyFrom(d)
        out.filename_tensor_name = _strip_name_scope(out.filename_tensor_name, export_scope)
        out.save_tensor_name = _strip_name_scope(out.save_tensor_name, export_scope)
        out.restore_op_name = _strip_name_scope(out.restore_op_name, export_scope)
        return out

    @staticmethod
    def from_proto(saver_def, import_scope=None):
        """A Saver over the nodes a SaverDef names (prefixed by import_scope)."""
        return Saver(saver_def=saver_def, name=import_scope)

    @property
    def last_checkpoints(self):
        """The prefixes of the checkpoints not deleted yet, oldest first."""
        return [p[0] for p in self._last_checkpoints]

    def set_last_checkpoints(self, last_checkpoints):
        """Deprecated in TensorFlow: sets the kept checkpoints (never deleted later)."""
        assert isinstance(last_checkpoints, list)
        self._last_checkpoints = [(s, np.inf) for s in last_checkpoints]

    def set_last_checkpoints_with_time(self, last_checkpoints_with_time):
        """Sets the kept checkpoints as a list of (prefix, timestamp) pairs."""
        assert isinstance(last_checkpoints_with_time, list)
        self._last_checkpoints = last_checkpoints_with_time

    def recover_last_checkpoints(self, checkpoint_paths):
        """Keeps the checkpoints of `checkpoint_paths` that still exist, with their files'
        modification times (after a restart, from get_checkpoint_state's
        all_model_checkpoint_paths)."""
        with_mtimes = []
        for path in checkpoint_paths:
            mtime = checkpoint_management.get_checkpoint_mtimes([path])
            if mtime:
                with_mtimes.append((path, mtime[0]))
        self.set_last_checkpoints_with_time(with_mtimes)

    def _RecordLastCheckpoint(self, latest_save_path):
        if not self.saver_def.max_to_keep:
            return
        self._last_checkpoints = [p for p in self._last_checkpoints
                                  if p[0] != latest_save_path]
        self._last_checkpoints.append((latest_save_path, time.time()))
        if len(self._last_checkpoints) > self.saver_def.max_to_keep:
            self._checkpoints_to_be_deleted.append(self._last_checkpoints.pop(0))

    def _MaybeDeleteOldCheckpoints(self, meta_graph_suffix="meta"):
        if not self._checkpoints_to_be_deleted:
            return
        p = self._checkpoints_to_be_deleted.pop(0)
        # A checkpoint older than the next keep time is deleted; the first past it is kept.
        if p[1] > self._next_checkpoint_time:
            self._next_checkpoint_time += self.saver_def.keep_checkpoint_every_n_hours * 3600
            return
        try:
            checkpoint_management.remove_checkpoint(p[0], self.saver_def.version,
                                                    meta_graph_suffix)
        except OSError as e:
            import logging
            logging.getLogger("minitf").warning("Ignoring: %s", str(e))

    def save(self, sess, save_path, global_step=None, latest_filename=None,
             meta_graph_suffix="meta", write_meta_graph=True, write_state=True,
             strip_default_attrs=False, save_debug_info=False):
        """Saves the variables to the checkpoint prefix `save_path` (with "-<global_step>"
        appended when given: an int, or a tensor/variable read in `sess`).

        Writes `<prefix>.index` and `<prefix>.data-*`, records the checkpoint in the state
        file `latest_filename` ("checkpoint") beside it when write_state, deletes the
        checkpoints past max_to_keep, and writes `<prefix>.meta` when write_meta_graph
        (and minitf has meta graph export). Returns the prefix written (None when the
        Saver is empty). Raises RuntimeError for an unbuilt deferred Saver, ValueError
        for a latest_filename with a directory, one equal to the checkpoint's name, or a
        missing parent directory ("Parent directory of ... doesn't exist, can't save."),
        TypeError when sess is not a Session.
        """
        if not self._is_built:
            raise RuntimeError("`build()` should be called before save if defer_build==True")
        if latest_filename is None:
            latest_filename = "checkpoint"
        if self._write_version != saver_pb2.SaverDef.V2:
            _log.warning("TensorFlow's V1 checkpoint format has been deprecated.")
            _log.warning("Consider switching to the more efficient V2 format:")
            _log.warning("   `tf.train.Saver(write_version=tf.train.SaverDef.V2)`")
            _log.warning("now on by default.")
        if os.path.split(latest_filename)[0]:
            raise ValueError("'latest_filename' must not contain path components")
        save_path = os.fspath(save_path)
        if isinstance(save_path, bytes):
            save_path = save_path.decode()
        if global_step is not None:
            if not isinstance(global_step, (int, np.integer)):
                global_step = training_util.global_step(sess, global_step)
            checkpoint_file = "%s-%d" % (save_path, global_step)
            if self._pad_step_number:
                checkpoint_file = "%s-%s" % (save_path, "{:08d}".format(global_step))
        else:
            checkpoint_file = save_path
            if os.path.basename(save_path) == latest_filename and not self._sharded:
                raise ValueError("'latest_filename' collides with 'save_path': '%s' and '%s'"
                                 % (latest_filename, save_path))
        from minitf.client.session import BaseSession
        if not isinstance(sess, BaseSession):
            raise TypeError("'sess' must be a Session; %s" % sess)
        save_path_parent = os.path.dirname(save_path)
        model_checkpoint_path = None
        if not self._is_empty:
            try:
                model_checkpoint_path = sess.run(
                    self.saver_def.save_tensor_name,
                    {self.saver_def.filename_tensor_name: checkpoint_file})
                if isinstance(model_checkpoint_path, bytes):
                    model_checkpoint_path = model_checkpoint_path.decode()
                if write_state:
                    self._RecordLastCheckpoint(model_checkpoint_path)
                    checkpoint_management.update_checkpoint_state_internal(
                        save_dir=save_path_parent, model_checkpoint_path=model_checkpoint_path,
                        all_model_checkpoint_paths=self.last_checkpoints,
                        latest_filename=latest_filename,
                        save_relative_paths=self._save_relative_paths)
                    self._MaybeDeleteOldCheckpoints(meta_graph_suffix=meta_graph_suffix)
            except (errors.FailedPreconditionError, errors.NotFoundError) as exc:
                if not os.path.isdir(save_path_parent or "."):
                    raise ValueError("Parent directory of {} doesn't exist, can't save."
                                     .format(save_path)) from None
                raise exc
        if write_meta_graph:
            self._maybe_export_meta_graph(
                sess, checkpoint_management.meta_graph_filename(checkpoint_file,
                                                                meta_graph_suffix),
                strip_default_attrs, save_debug_info)
        return None if self._is_empty else model_checkpoint_path

    def _maybe_export_meta_graph(self, sess, filename, strip_default_attrs, save_debug_info):
        with sess.graph.as_default():
            self.export_meta_graph(filename, strip_default_attrs=strip_default_attrs,
                                   save_debug_info=save_debug_info)

    def export_meta_graph(self, filename=None, collection_list=None, as_text=False,
                          export_scope=None, clear_devices=False, clear_extraneous_savers=False,
                          strip_default_attrs=False, save_debug_info=False):
        """Writes the default graph with this Saver's SaverDef as a MetaGraphDef to
        `filename` (when given) and returns it (see tf.train.export_meta_graph)."""
        return export_meta_graph(
            filename=filename, graph_def=ops.get_default_graph().as_graph_def(add_shapes=True),
            saver_def=self.saver_def, collection_list=collection_list, as_text=as_text,
            export_scope=export_scope, clear_devices=clear_devices,
            clear_extraneous_savers=clear_extraneous_savers,
            strip_default_attrs=strip_default_attrs, save_debug_info=save_debug_info)

    def restore(self, sess, save_path):
        """Restores the variables from the checkpoint prefix `save_path` by running the
        restore op in `sess`.

        Raises ValueError for None ("Can't load save_path when it is None.") or a prefix
        with no checkpoint ("The passed save_path is not a valid checkpoint: ..."),
        NotFoundError when a variable's key is missing ("Restoring from checkpoint failed.
        ... Key <name> not found in checkpoint"), InvalidArgumentError for a dtype (or, for
        ref variables, shape) that differs from the checkpoint's. As in TensorFlow, a
        resource variable takes the checkpoint's shape. DataLossError for corrupt files.
        """
        if self._is_empty:
            return
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        prefix = os.fspath(save_path)
        if isinstance(prefix, bytes):
            prefix = prefix.decode()
        if not checkpoint_management.checkpoint_exists_internal(prefix):
            raise ValueError("The passed save_path is not a valid checkpoint: " + prefix)
        from minitf.platform import tf_logging
        tf_logging.info("Restoring parameters from %s", prefix)
        try:
            sess.run(self.saver_def.restore_op_name,
                     {self.saver_def.filename_tensor_name: save_path})
        except errors.NotFoundError as err:
            raise _wrap_restore_error_with_msg(
                err, "a Variable name or other graph key that is missing") from None
        except errors.InvalidArgumentError as err:
            raise _wrap_restore_error_with_msg(
                err, "a mismatch between the current graph and the graph") from None


def export_meta_graph(filename=None, meta_info_def=None, graph_def=None, saver_def=None,
                      collection_list=None, as_text=False, graph=None, export_scope=None,
                      clear_devices=False, clear_extraneous_savers=False,
                      strip_default_attrs=False, save_debug_info=False, **kwargs):
    """tf.compat.v1.train.export_meta_graph: the MetaGraphDef of `graph` (default graph),
    written to `filename` when given.

    Args:
      filename: file to write (binary, or protobuf text with as_text).
      meta_info_def: a MetaInfoDef to start from (tags, meta_graph_version, ...).
      graph_def: the GraphDef to store (default: the graph's, with "_output_shapes").
      saver_def: the SaverDef to store (Saver.export_meta_graph passes its own).
      collection_list: collection keys to store (default: all).
      export_scope: keep only nodes under this name scope, names made relative to it.
      clear_devices: drop the nodes' device fields.
      clear_extraneous_savers: drop the nodes of Savers other than saver_def's.
      strip_default_attrs: drop attrs equal to their OpDef default.
    Returns the MetaGraphDef. Collections whose items cannot be serialized are skipped with a
    warning, as in TensorFlow.
    """
    from minitf.framework import meta_graph
    if save_debug_info:
        import logging
        logging.getLogger("minitf").warning("save_debug_info: minitf records no debug info")
    return meta_graph.export_scoped_meta_graph(
        filename=filename, meta_info_def=meta_info_def, graph_def=graph_def,
        saver_def=saver_def, collection_list=collection_list, as_text=as_text, graph=graph,
        export_scope=export_scope, clear_devices=clear_devices,
        clear_extraneous_savers=clear_extraneous_savers,
        strip_default_attrs=strip_default_attrs, **kwargs)[0]


def import_meta_graph(meta_graph_or_file, clear_devices=False, import_scope=None, **kwargs):
    """tf.compat.v1.train.import_meta_graph: imports a MetaGraphDef (or a `.meta` file,
    binary or text) into the default graph with its collections, and returns a Saver over
    its saver_def (a new Saver of its variables when it has none; None when it has no
    variables either).

    Args:
      meta_graph_or_file: a MetaGraphDef or a file name.
      clear_devices: ignore the nodes' device fields.
      import_scope: name scope prepended to every imported name.
      kwargs: return_elements, input_map (import_graph_def's) and Saver arguments.
    Raises OSError "File does not exist. Received: <file>." for a missing file,
    InvalidArgumentError for a file that is not a MetaGraphDef, NotFoundError for an op
    type minitf lacks or a collection naming a missing node.
    """
    return _import_meta_graph_with_return_elements(meta_graph_or_file, clear_devices,
                                                   import_scope, **kwargs)[0]


def _import_meta_graph_with_return_elements(meta_graph_or_file, clear_devices=False,
                                            import_scope=None, return_elements=None,
                                            input_map=None, **kwargs):
    from minitf.framework import meta_graph
    if isinstance(meta_graph_or_file, (str, bytes, os.PathLike)):
        mg = meta_graph.read_meta_graph_file(meta_graph_or_file)
    else:
        mg = meta_graph_or_file
    _, returned = meta_graph.import_scoped_meta_graph_with_return_elements(
        mg, clear_devices=clear_devices, import_scope=import_scope,
        return_elements=return_elements, input_map=input_map)
    saver = _create_saver_from_imported_meta_graph(mg, import_scope, **kwargs)
    return saver, returned


def _create_saver_from_imported_meta_graph(meta_graph_def, import_scope, **saver_kwargs):
    if meta_graph_def.HasField("saver_def"):
        saver_def = saver_pb2.SaverDef()
        saver_def.CopyFrom(meta_graph_def.saver_def)  # the Saver prefixes its names in place
        return Saver(saver_def=saver_def, name=import_scope, **saver_kwargs)
    if _all_saveable_objects():
        return Saver(**saver_kwargs)
    import logging
    logging.getLogger("minitf").info(
        "Saver not created because there are no variables in the graph to restore")
    return None


__all__ = ["Saver", "BaseSaverBuilder", "BulkSaverBuilder", "export_meta_graph",
           "import_meta_graph"]
