"""tf.compat.v1.saved_model.loader: loads a SavedModel's MetaGraph into a Session
(TensorFlow's saved_model/loader_impl.py).

load(sess, tags, export_dir) = parse saved_model.pb (or .pbtxt), pick the MetaGraph whose
tag set equals `tags`, import it (tf.train.import_meta_graph, with its collections), restore
variables/variables with its Saver, then run the init op (the __saved_model_init_op
signature, else the saved_model_main_op or legacy_init_op collection) with each asset's
tensor fed the asset's path under <export_dir>/assets.
"""
import logging
import os

from google.protobuf import message as _message
from google.protobuf import text_format

from minitf.core.protobuf import meta_graph_pb2, saved_model_pb2
from minitf.framework import errors, ops
from minitf.saved_model import constants, signature_def_utils, utils

_log = logging.getLogger("minitf")


def _path_str(export_dir):
    export_dir = os.fspath(export_dir)
    return export_dir.decode() if isinstance(export_dir, bytes) else export_dir


def parse_saved_model(export_dir):
    """The SavedModel proto in export_dir: saved_model.pb, else saved_model.pbtxt.

    Raises OSError "SavedModel file does not exist at: <dir>/{saved_model.pbtxt|
    saved_model.pb}" when neither exists, OSError "Cannot parse file b'<path>': ..." when
    the file is not a SavedModel (TensorFlow's errors and wording).
    """
    export_dir = _path_str(export_dir)
    pb = os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PB)
    pbtxt = os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PBTXT)
    saved_model = saved_model_pb2.SavedModel()
    if os.path.isfile(pb):
        with open(pb, "rb") as f:
            data = f.read()
        try:
            saved_model.ParseFromString(data)
        except (_message.DecodeError, RuntimeError, ValueError) as e:
            raise IOError("Cannot parse file %r: %s." % (pb.encode(), e)) from None
    elif os.path.isfile(pbtxt):
        with open(pbtxt, "rb") as f:
            data = f.read()
        try:
            text_format.Parse(data.decode("utf-8"), saved_model)
        except (text_format.ParseError, UnicodeDecodeError) as e:
            raise IOError("Cannot parse file %r: %s." % (pbtxt.encode(), e)) from None
    else:
        raise IOError("SavedModel file does not exist at: %s%s{%s|%s}"
                      % (export_dir, os.path.sep, constants.SAVED_MODEL_FILENAME_PBTXT,
                         constants.SAVED_MODEL_FILENAME_PB))
    return saved_model


def get_asset_tensors(export_dir, meta_graph_def_to_load, import_scope=None):
    """{asset tensor name: path of the asset under <export_dir>/assets} (from
    asset_file_def, else the saved_model_assets collection)."""
    export_dir = _path_str(export_dir)
    assets = list(meta_graph_def_to_load.asset_file_def)
    if not assets and constants.ASSETS_KEY in meta_graph_def_to_load.collection_def:
        for packed in meta_graph_def_to_load.collection_def[constants.ASSETS_KEY].any_list.value:
            asset = meta_graph_pb2.AssetFileDef()
            packed.Unpack(asset)
            assets.append(asset)
    out = {}
    assets_dir = os.path.join(export_dir, constants.ASSETS_DIRECTORY)
    for asset in assets:
        name = asset.tensor_info.name
        if import_scope:
            name = "%s/%s" % (import_scope, name)
        out[name] = os.path.join(assets_dir, asset.filename)
    return out


def _get_main_op_tensor(meta_graph_def, init_op_key=constants.MAIN_OP_KEY):
    if init_op_key not in meta_graph_def.collection_def:
        return None
    names = meta_graph_def.collection_def[init_op_key].node_list.value
    if len(names) != 1:
        raise RuntimeError("Expected exactly one SavedModel init op. Found %d: %s."
                           % (len(names), names))
    return ops.get_collection(init_op_key)[0]


def _get_op_from_signature_def(meta_graph_def, key, import_scope):
    if key in meta_graph_def.signature_def:
        return signature_def_utils.load_op_from_signature_def(
            meta_graph_def.signature_def[key], key, import_scope)
    return None


def get_init_op(meta_graph_def, import_scope=None):
    return (_get_op_from_signature_def(meta_graph_def, constants.INIT_OP_SIGNATURE_KEY,
                                       import_scope) or
            _get_main_op_tensor(meta_graph_def, constants.MAIN_OP_KEY) or
            _get_main_op_tensor(meta_graph_def, constants.LEGACY_INIT_OP_KEY))


def get_train_op(meta_graph_def, import_scope=None):
    train_op = _get_op_from_signature_def(meta_graph_def, constants.TRAIN_OP_SIGNATURE_KEY,
                                          import_scope)
    if train_op is None:
        train_op = _get_main_op_tensor(meta_graph_def, constants.TRAIN_OP_KEY)
    return train_op


def maybe_saved_model_directory(export_dir):
    """Whether export_dir has a saved_model.pb / .pbtxt (it may still fail to load)."""
    export_dir = _path_str(export_dir)
    return any(os.path.exists(os.path.join(export_dir, n)) for n in (
        constants.SAVED_MODEL_FILENAME_PBTXT, constants.SAVED_MODEL_FILENAME_PB,
        constants.SAVED_MODEL_FILENAME_CPB))


contains_saved_model = maybe_saved_model_directory


class SavedModelLoader:
    """Loads the MetaGraphs of the SavedModel in export_dir (parsed on construction)."""

    def __init__(self, export_dir):
        self._export_dir = _path_str(export_dir)
        self._variables_path = utils.get_variables_path(self._export_dir)
        self._saved_model = parse_saved_model(self._export_dir)

    @property
    def export_dir(self):
        return self._export_dir

    @property
    def variables_path(self):
        return self._variables_path

    @property
    def saved_model(self):
        return self._saved_model

    def get_meta_graph_def_from_tags(self, tags):
        """The MetaGraphDef whose tag set equals `tags`; RuntimeError (TensorFlow's
        message, listing the available tag sets) when none does."""
        available = []
        for mg in self._saved_model.meta_graphs:
            available.append(set(mg.meta_info_def.tags))
            if set(mg.meta_info_def.tags) == set(tags):
                return mg
        raise RuntimeError(
            "MetaGraphDef associated with tags %s could not be found in SavedModel, with "
            "available tags '%s'. To inspect available tag-sets in the SavedModel, please use "
            "the SavedModel CLI: `saved_model_cli`." % (str(tags).strip("[]"), available))

    def load_graph(self, graph, tags, import_scope=None, **saver_kwargs):
        """Imports the MetaGraph of `tags` into graph; returns (Saver or None,
        return elements)."""
        from minitf.training import saver as saver_lib
        mg = self.get_meta_graph_def_from_tags(tags)
        with graph.as_default():
            return saver_lib._import_meta_graph_with_return_elements(
                mg, import_scope=import_scope, **saver_kwargs)

    def restore_variables(self, sess, saver, import_scope=None):
        """Restores variables/variables with `saver` (nothing for a graph without
        variables; ValueError when it has variables but saver is None)."""
        from minitf.training import saver as saver_lib
        with sess.graph.as_default():
            saveables = (ops.get_collection(ops.GraphKeys.GLOBAL_VARIABLES, scope=import_scope)
                         + ops.get_collection(ops.GraphKeys.SAVEABLE_OBJECTS,
                                              scope=import_scope))
            if saver is None and not saveables:
                _log.info("The specified SavedModel has no variables; no checkpoints were "
                          "restored.")
            elif isinstance(saver, saver_lib.Saver):
                saver.restore(sess, self._variables_path)
            else:
                raise ValueError(
                    "No tf.train.Saver object was passed to the function "
                    "`SavedModelLoader.restore_variables`. Since there are variables in the "
                    "graph, a saver is required.")

    def run_init_ops(self, sess, tags, import_scope=None):
        """Runs the MetaGraph's init op with the asset tensors fed their paths."""
        mg = self.get_meta_graph_def_from_tags(tags)
        with sess.graph.as_default():
            feeds = get_asset_tensors(self._export_dir, mg, import_scope=import_scope)
            init_op = get_init_op(mg, import_scope)
            if init_op is not None:
                sess.run(fetches=[init_op], feed_dict=feeds)

    def load(self, sess, tags, import_scope=None, **saver_kwargs):
        """Imports, restores and initializes; returns the MetaGraphDef (without the
        import scope in its names)."""
        with sess.graph.as_default():
            saver, _ = self.load_graph(sess.graph, tags, import_scope, **saver_kwargs)
            self.restore_variables(sess, saver, import_scope)
            self.run_init_ops(sess, tags, import_scope)
        return self.get_meta_graph_def_from_tags(tags)


def load(sess, tags, export_dir, import_scope=None, **saver_kwargs):
    """tf.compat.v1.saved_model.load / loader.load: loads the MetaGraph tagged `tags` of
    the SavedModel in export_dir into sess (its graph), restores its variables and runs its
    init op; returns the MetaGraphDef (signatures in .signature_def).

    Raises OSError for a missing or unparsable saved_model.pb (TensorFlow's messages),
    RuntimeError when no MetaGraph has exactly these tags, NotFoundError /
    InvalidArgumentError for a graph minitf cannot import or a checkpoint that does not
    fit it.
    """
    return SavedModelLoader(export_dir).load(sess, tags, import_scope, **saver_kwargs)


__all__ = ["load", "maybe_saved_model_directory", "contains_saved_model",
           "SavedModelLoader", "parse_saved_model"]
