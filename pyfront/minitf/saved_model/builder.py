"""tf.compat.v1.saved_model.builder.SavedModelBuilder: writes TensorFlow's SavedModel layout

    <export_dir>/saved_model.pb (or saved_model.pbtxt)   a SavedModel proto: MetaGraphDefs
    <export_dir>/variables/variables.index, .data-00000-of-00001   one V2 checkpoint
    <export_dir>/assets/<file>                         copies of the asset files

The first MetaGraph is added with its variables (add_meta_graph_and_variables), later ones
share them (add_meta_graph). Each MetaGraph is a Saver's export (a sharded Saver of every
saveable object, as TensorFlow's builder makes) tagged and given signatures; assets are
the string Consts of `assets_collection`, recorded as AssetFileDefs (packed in the
saved_model_assets collection) whose tensors the loader feeds with the copied files' paths.
"""
import filecmp
import logging
import os
import shutil

from google.protobuf import text_format

from minitf.core.framework import types_pb2
from minitf.core.protobuf import any_pb2, meta_graph_pb2, saved_model_pb2, saver_pb2
from minitf.framework import dtypes, ops
from minitf.saved_model import constants, utils

_log = logging.getLogger("minitf")


class SavedModelBuilder:
    """Builds a SavedModel in `export_dir` (created when missing; AssertionError when it
    exists and is not empty)."""

    def __init__(self, export_dir):
        self._export_dir = os.fspath(export_dir)
        if isinstance(self._export_dir, bytes):
            self._export_dir = self._export_dir.decode()
        self._saved_model = saved_model_pb2.SavedModel(
            saved_model_schema_version=constants.SAVED_MODEL_SCHEMA_VERSION)
        if os.path.exists(self._export_dir):
            if os.listdir(self._export_dir):
                raise AssertionError(
                    "Export directory %s already exists, and isn't empty. Please choose a "
                    "different export directory, or delete all the contents of the specified "
                    "directory." % self._export_dir)
        else:
            os.makedirs(self._export_dir)
        self._has_saved_variables = False
        self._saved_asset_files = set()

    # -- checks ------------------------------------------------------------------------

    def _validate_tensor_info(self, tensor_info):
        if tensor_info is None:
            raise AssertionError("All TensorInfo protos used in the SignatureDefs must have "
                                 "the name and dtype fields set.")
        if tensor_info.WhichOneof("encoding") is None:
            raise AssertionError(
                "Invalid `tensor_info`: %s. All TensorInfo protos used in the SignatureDefs "
                "must have one of the 'encoding' fields (e.g., name or coo_sparse) set."
                % tensor_info)
        if tensor_info.dtype == types_pb2.DT_INVALID:
            raise AssertionError(
                "Invalid `tensor_info`: %s. All TensorInfo protos used in the SignatureDefs "
                "must have the dtype field set." % tensor_info)

    def _validate_signature_def_map(self, signature_def_map):
        for sig in signature_def_map.values():
            for info in sig.inputs.values():
                self._validate_tensor_info(info)
            for info in sig.outputs.values():
                self._validate_tensor_info(info)
        for key, what in ((constants.INIT_OP_SIGNATURE_KEY, "for initialization"),
                          (constants.TRAIN_OP_SIGNATURE_KEY, "for the train op")):
            if key in signature_def_map:
                raise KeyError('SignatureDef map key "%s" is reserved %s. Please use a '
                               "different key." % (key, what))

    # -- collections -------------------------------------------------------------------

    def _save_and_write_assets(self, assets_collection):
        filenames = _asset_filename_map(assets_collection)
        if not filenames:
            _log.info("No assets to write.")
            return
        assets_dir = utils.get_assets_dir(self._export_dir)
        os.makedirs(assets_dir, exist_ok=True)
        for basename, source in filenames.items():
            dest = os.path.join(assets_dir, basename)
            if os.path.exists(source) and source != dest and dest not in self._saved_asset_files:
                shutil.copyfile(source, dest)
                self._saved_asset_files.add(dest)

    def _maybe_add_main_op(self, main_op):
        if main_op is None:
            return
        if not isinstance(main_op, ops.Operation):
            raise TypeError("Expected %s to be an Operation but got type %s instead."
                            % (main_op, type(main_op)))
        for key in (constants.MAIN_OP_KEY, constants.LEGACY_INIT_OP_KEY):
            if ops.get_collection(key):
                raise ValueError("Graph already contains one or more main ops under the "
                                 "collection %s." % key)
        ops.add_to_collection(constants.MAIN_OP_KEY, main_op)

    def _add_collections(self, assets_collection, main_op):
        self._save_and_write_assets(assets_collection)
        self._maybe_add_main_op(main_op)

    def _maybe_create_saver(self, saver=None):
        if saver:
            return saver
        from minitf.training import saver as saver_lib
        return saver_lib.Saver(saver_lib._all_saveable_objects(), sharded=True,
                               write_version=saver_pb2.SaverDef.V2, allow_empty=True)

    def _tag_and_add_meta_graph(self, meta_graph_def, tags, signature_def_map):
        meta_graph_def.meta_info_def.tags.extend(tags)
        for key, sig in (signature_def_map or {}).items():
            meta_graph_def.signature_def[key].CopyFrom(sig)
        self._saved_model.meta_graphs.add().CopyFrom(meta_graph_def)

    # -- public ------------------------------------------------------------------------

    def add_meta_graph_and_variables(self, sess, tags, signature_def_map=None,
                                     assets_collection=None, legacy_init_op=None,
                                     clear_devices=False, main_op=None,
                                     strip_default_attrs=False, saver=None):
        """Saves the variables of `sess` (variables/variables*) and adds the default graph
        as the first MetaGraph, tagged `tags`, with signature_def_map's signatures, the
        assets of assets_collection, and main_op (or legacy_init_op) as the op the loader
        runs after restoring. AssertionError when called twice."""
        if self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has already "
                                 "been saved. Please invoke `add_meta_graph()` instead.")
        signature_def_map = signature_def_map or {}
        self._validate_signature_def_map(signature_def_map)
        main_op = main_op or legacy_init_op
        self._add_collections(assets_collection, main_op)
        os.makedirs(utils.get_variables_dir(self._export_dir), exist_ok=True)
        saver = self._maybe_create_saver(saver)
        saver.save(sess, utils.get_variables_path(self._export_dir), write_meta_graph=False,
                   write_state=False)
        meta_graph_def = saver.export_meta_graph(clear_devices=clear_devices,
                                                 strip_default_attrs=strip_default_attrs)
        self._tag_and_add_meta_graph(meta_graph_def, tags, signature_def_map)
        self._has_saved_variables = True

    def add_meta_graph(self, tags, signature_def_map=None, assets_collection=None,
                       legacy_init_op=None, clear_devices=False, main_op=None,
                       strip_default_attrs=False, saver=None):
        """Adds the default graph as another MetaGraph over the variables already saved.
        AssertionError before add_meta_graph_and_variables."""
        if not self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has not been "
                                 "saved yet. Please invoke `add_meta_graph_and_variables()` "
                                 "first.")
        signature_def_map = signature_def_map or {}
        self._validate_signature_def_map(signature_def_map)
        main_op = main_op if main_op is not None else legacy_init_op
        self._add_collections(assets_collection, main_op)
        saver = self._maybe_create_saver(saver)
        meta_graph_def = saver.export_meta_graph(clear_devices=clear_devices,
                                                 strip_default_attrs=strip_default_attrs)
        self._tag_and_add_meta_graph(meta_graph_def, tags, signature_def_map)

    def save(self, as_text=False):
        """Writes saved_model.pb (deterministic binary) or, with as_text, saved_model.pbtxt;
        returns its path (bytes, as TensorFlow)."""
        os.makedirs(self._export_dir, exist_ok=True)
        if as_text:
            path = os.path.join(self._export_dir, constants.SAVED_MODEL_FILENAME_PBTXT)
            data = text_format.MessageToString(self._saved_model).encode("utf-8")
        else:
            path = os.path.join(self._export_dir, constants.SAVED_MODEL_FILENAME_PB)
            data = self._saved_model.SerializeToString(deterministic=True)
        tmp = "%s.tmp%d" % (path, os.getpid())
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        _log.info("SavedModel written to: %s", path)
        return path.encode()


Builder = SavedModelBuilder


def _asset_path_from_tensor(path_tensor):
    """The file path a scalar string Const holds (TypeError otherwise, as TensorFlow)."""
    if not isinstance(path_tensor, ops.Tensor):
        raise TypeError("Asset path tensor %s must be a Tensor." % path_tensor)
    if path_tensor.op.type != "Const":
        raise TypeError("Asset path tensor %s must be of type constant.Has type %s instead."
                        % (path_tensor, path_tensor.op.type))
    if path_tensor.dtype != dtypes.string:
        raise TypeError("Asset path tensor %s` must be of dtype string.Has type %s instead."
                        % (path_tensor, path_tensor.dtype))
    values = path_tensor.op.get_attr("value").string_val
    if len(values) != 1:
        raise TypeError("Asset path tensor %s must be a scalar." % path_tensor)
    return values[0].decode("utf-8")


def _unique_asset_filename(filename, taken):
    i, name = 1, filename
    while name in taken:
        name = "%s_%d" % (filename, i)
        i += 1
    return name


def _asset_filename_map(assets_collection):
    """{basename in assets/: source path}, recording each asset in the saved_model_assets
    collection; two different files with one basename get "<name>_1", ..."""
    filenames = {}
    for tensor in assets_collection or []:
        source = _asset_path_from_tensor(tensor)
        if not source:
            raise ValueError("Invalid asset filepath tensor %s" % tensor)
        name = os.path.basename(source)
        if name in filenames and filenames[name] != source and not (
                os.path.exists(source) and os.path.exists(filenames[name]) and
                filecmp.cmp(source, filenames[name], shallow=False)):
            name = _unique_asset_filename(name, filenames)
        asset = meta_graph_pb2.AssetFileDef(filename=name)
        asset.tensor_info.name = tensor.name
        packed = any_pb2.Any()
        packed.Pack(asset)
        ops.add_to_collection(constants.ASSETS_KEY, packed)
        filenames[name] = source
    return filenames


__all__ = ["SavedModelBuilder", "Builder"]
