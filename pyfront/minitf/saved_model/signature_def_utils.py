"""tf.compat.v1.saved_model.signature_def_utils: SignatureDef builders and checks
(TensorFlow's signature_def_utils_impl.py)."""
from minitf.core.framework import types_pb2
from minitf.core.protobuf import meta_graph_pb2
from minitf.framework import errors, ops
from minitf.saved_model import signature_constants as sc
from minitf.saved_model import utils


def build_signature_def(inputs=None, outputs=None, method_name=None, defaults=None):
    """A SignatureDef of {key: TensorInfo} inputs and outputs, a method name and defaults
    ({input key: Const tensor}, stored as its TensorProto; ValueError for a non-Const)."""
    sig = meta_graph_pb2.SignatureDef()
    for key, info in (inputs or {}).items():
        sig.inputs[key].CopyFrom(info)
    for key, info in (outputs or {}).items():
        sig.outputs[key].CopyFrom(info)
    if method_name is not None:
        sig.method_name = method_name
    for key, default in (defaults or {}).items():
        if getattr(getattr(default, "op", None), "type", None) != "Const":
            raise ValueError("Unable to convert object %s of type %s to TensorProto."
                             % (default, type(default)))
        sig.defaults[key].CopyFrom(default.op.get_attr("value"))
    return sig


def _is_tensor(x):
    return isinstance(x, ops.Tensor)


def regression_signature_def(examples, predictions):
    """A tensorflow/serving/regress signature: string `examples` -> float `predictions`
    (keys "inputs", "outputs"). ValueError for None or wrong dtypes, as TensorFlow."""
    if examples is None:
        raise ValueError("Regression `examples` cannot be None.")
    if not _is_tensor(examples):
        raise ValueError("Expected regression `examples` to be of type Tensor. Found "
                         "`examples` of type %s." % type(examples))
    if predictions is None:
        raise ValueError("Regression `predictions` cannot be None.")
    inp = utils.build_tensor_info(examples)
    if inp.dtype != types_pb2.DT_STRING:
        raise ValueError("Regression input tensors must be of type string. Found tensors "
                         "with type %s." % inp.dtype)
    out = utils.build_tensor_info(predictions)
    if out.dtype != types_pb2.DT_FLOAT:
        raise ValueError("Regression output tensors must be of type float. Found tensors "
                         "with type %s." % out.dtype)
    return build_signature_def({sc.REGRESS_INPUTS: inp}, {sc.REGRESS_OUTPUTS: out},
                               sc.REGRESS_METHOD_NAME)


def classification_signature_def(examples, classes, scores):
    """A tensorflow/serving/classify signature: string `examples` -> string `classes`
    and/or float `scores`."""
    if examples is None:
        raise ValueError("Classification `examples` cannot be None.")
    if not _is_tensor(examples):
        raise ValueError("Classification `examples` must be a string Tensor. Found "
                         "`examples` of type %s." % type(examples))
    if classes is None and scores is None:
        raise ValueError("Classification `classes` and `scores` cannot both be None.")
    inp = utils.build_tensor_info(examples)
    if inp.dtype != types_pb2.DT_STRING:
        raise ValueError("Classification input tensors must be of type string. Found "
                         "tensors of type %s" % inp.dtype)
    outputs = {}
    if classes is not None:
        info = utils.build_tensor_info(classes)
        if info.dtype != types_pb2.DT_STRING:
            raise ValueError("Classification classes must be of type string Tensor. Found "
                             "tensors of type %s.`" % info.dtype)
        outputs[sc.CLASSIFY_OUTPUT_CLASSES] = info
    if scores is not None:
        info = utils.build_tensor_info(scores)
        if info.dtype != types_pb2.DT_FLOAT:
            raise ValueError("Classification scores must be a float Tensor.")
        outputs[sc.CLASSIFY_OUTPUT_SCORES] = info
    return build_signature_def({sc.CLASSIFY_INPUTS: inp}, outputs, sc.CLASSIFY_METHOD_NAME)


def predict_signature_def(inputs, outputs):
    """A tensorflow/serving/predict signature of {key: Tensor} inputs and outputs."""
    if not inputs:
        raise ValueError("Prediction `inputs` cannot be None or empty.")
    if not outputs:
        raise ValueError("Prediction `outputs` cannot be None or empty.")
    return build_signature_def({k: utils.build_tensor_info(t) for k, t in inputs.items()},
                               {k: utils.build_tensor_info(t) for k, t in outputs.items()},
                               sc.PREDICT_METHOD_NAME)


def supervised_train_signature_def(inputs, loss, predictions=None, metrics=None):
    return _supervised_signature_def(sc.SUPERVISED_TRAIN_METHOD_NAME, inputs, loss,
                                     predictions, metrics)


def supervised_eval_signature_def(inputs, loss, predictions=None, metrics=None):
    return _supervised_signature_def(sc.SUPERVISED_EVAL_METHOD_NAME, inputs, loss,
                                     predictions, metrics)


def _supervised_signature_def(method_name, inputs, loss=None, predictions=None,
                              metrics=None):
    if not inputs:
        raise ValueError("%s `inputs` cannot be None or empty." % method_name)
    outputs = {}
    for group in (loss, predictions, metrics):
        for k, t in (group or {}).items():
            outputs[k] = utils.build_tensor_info(t)
    return build_signature_def({k: utils.build_tensor_info(t) for k, t in inputs.items()},
                               outputs, method_name)


def is_valid_signature(signature_def):
    """Whether TensorFlow Serving could serve this SignatureDef (a well-formed classify,
    regress or predict signature)."""
    if signature_def is None:
        return False
    return (_valid_classification(signature_def) or _valid_regression(signature_def) or
            _valid_predict(signature_def))


def _valid_predict(sig):
    return (sig.method_name == sc.PREDICT_METHOD_NAME and bool(sig.inputs) and
            bool(sig.outputs))


def _valid_regression(sig):
    return (sig.method_name == sc.REGRESS_METHOD_NAME and
            set(sig.inputs) == {sc.REGRESS_INPUTS} and
            sig.inputs[sc.REGRESS_INPUTS].dtype == types_pb2.DT_STRING and
            set(sig.outputs) == {sc.REGRESS_OUTPUTS} and
            sig.outputs[sc.REGRESS_OUTPUTS].dtype == types_pb2.DT_FLOAT)


def _valid_classification(sig):
    allowed = {sc.CLASSIFY_OUTPUT_CLASSES, sc.CLASSIFY_OUTPUT_SCORES}
    if sig.method_name != sc.CLASSIFY_METHOD_NAME or set(sig.inputs) != {sc.CLASSIFY_INPUTS}:
        return False
    if sig.inputs[sc.CLASSIFY_INPUTS].dtype != types_pb2.DT_STRING:
        return False
    if not sig.outputs or set(sig.outputs) - allowed:
        return False
    if sc.CLASSIFY_OUTPUT_CLASSES in sig.outputs and \
            sig.outputs[sc.CLASSIFY_OUTPUT_CLASSES].dtype != types_pb2.DT_STRING:
        return False
    if sc.CLASSIFY_OUTPUT_SCORES in sig.outputs and \
            sig.outputs[sc.CLASSIFY_OUTPUT_SCORES].dtype != types_pb2.DT_FLOAT:
        return False
    return True


def op_signature_def(op, key):
    """A signature with one output naming `op` (the builder's init/train op entries)."""
    return build_signature_def(outputs={key: utils.build_tensor_info_from_op(op)})


def load_op_from_signature_def(signature_def, key, import_scope=None):
    """The op (or tensor) output `key` of signature_def names; NotFoundError when absent."""
    try:
        return utils.get_element_from_tensor_info(signature_def.outputs[key],
                                                  import_scope=import_scope)
    except (KeyError, ValueError):
        raise errors.NotFoundError(
            None, None, 'The key "%s" could not be found in the graph. Please make sure the '
            "SavedModel was created by the internal _SavedModelBuilder. If you are using the "
            "public API, please make sure the SignatureDef in the SavedModel does not "
            'contain the key "%s".' % (key, key)) from None
