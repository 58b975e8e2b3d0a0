"""tf.compat.v1.saved_model.simple_save."""
from minitf.framework import ops
from minitf.saved_model import builder as builder_lib
from minitf.saved_model import signature_constants, signature_def_utils, tag_constants


def simple_save(session, export_dir, inputs, outputs, legacy_init_op=None):
    """Saves session's graph and variables as a SavedModel tagged "serve" with one predict
    signature "serving_default" of {key: Tensor} inputs and outputs, the graph's
    ASSET_FILEPATHS as assets and devices cleared (TensorFlow's simple_save)."""
    sigs = {signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY:
            signature_def_utils.predict_signature_def(inputs, outputs)}
    b = builder_lib.SavedModelBuilder(export_dir)
    b.add_meta_graph_and_variables(
        session, tags=[tag_constants.SERVING], signature_def_map=sigs,
        assets_collection=ops.get_collection(ops.GraphKeys.ASSET_FILEPATHS),
        main_op=legacy_init_op, clear_devices=True)
    b.save()
