"""tf.compat.v1.saved_model: TensorFlow's TF1 SavedModel API (graph mode).

builder.SavedModelBuilder writes a SavedModel directory (saved_model.pb, variables/,
assets/), loader.load reads one into a Session; signature_def_utils and utils build the
SignatureDefs and TensorInfos that name a graph's inputs and outputs. The files are
TensorFlow's: SavedModels move between minitf and TensorFlow both ways.
"""
from minitf.saved_model import (  # noqa: F401
    builder, constants, loader, main_op, signature_constants, signature_def_utils,
    simple_save as _simple_save_module, tag_constants, utils)
from minitf.saved_model.builder import Builder, SavedModelBuilder  # noqa: F401
from minitf.saved_model.constants import (  # noqa: F401
    ASSETS_DIRECTORY, ASSETS_KEY, LEGACY_INIT_OP_KEY, MAIN_OP_KEY, SAVED_MODEL_FILENAME_PB,
    SAVED_MODEL_FILENAME_PBTXT, SAVED_MODEL_SCHEMA_VERSION, VARIABLES_DIRECTORY,
    VARIABLES_FILENAME)
from minitf.saved_model.loader import (  # noqa: F401
    contains_saved_model, load, maybe_saved_model_directory)
from minitf.saved_model.main_op import main_op_with_restore  # noqa: F401
from minitf.saved_model.signature_constants import (  # noqa: F401
    CLASSIFY_INPUTS, CLASSIFY_METHOD_NAME, CLASSIFY_OUTPUT_CLASSES, CLASSIFY_OUTPUT_SCORES,
    DEFAULT_SERVING_SIGNATURE_DEF_KEY, PREDICT_INPUTS, PREDICT_METHOD_NAME, PREDICT_OUTPUTS,
    REGRESS_INPUTS, REGRESS_METHOD_NAME, REGRESS_OUTPUTS)
from minitf.saved_model.signature_def_utils import (  # noqa: F401
    build_signature_def, classification_signature_def, is_valid_signature,
    predict_signature_def, regression_signature_def)
from minitf.saved_model.simple_save import simple_save  # noqa: F401
from minitf.saved_model.tag_constants import GPU, SERVING, TPU, TRAINING  # noqa: F401
from minitf.saved_model.utils import (  # noqa: F401
    build_tensor_info, get_tensor_from_tensor_info)
