"""tf.summary (TF1): summary ops and the event-file writer.

Summary ops return a scalar string Tensor holding a serialized
`tensorflow.Summary` (computed by the C kernels in
runtime/kernels/summary_ops.c); FileWriter writes TensorBoard event files.
"""
import contextlib
import re

from minitf.core.framework.summary_pb2 import (  # noqa: F401
    HistogramProto, Summary, SummaryDescription, SummaryMetadata)
from minitf.core.util.event_pb2 import Event, SessionLog, TaggedRunMetadata  # noqa: F401
from minitf.framework import dtypes, ops
from minitf.framework.op_def_library import apply_op, outputs_of
from minitf.platform import tf_logging
from minitf.summary.writer import FileWriter, FileWriterCache  # noqa: F401


_INVALID_TAG_CHARACTERS = re.compile(r"[^-/\w\.]")


def _clean_tag(name):
    """`name` with every character a node name may not hold replaced by "_" and leading
    slashes dropped, logged at INFO as TensorFlow's summary_op_util.clean_tag does
    ("Summary name W1:0 is illegal; using W1_0 instead.")."""
    if name is not None:
        new_name = _INVALID_TAG_CHARACTERS.sub("_", name).lstrip("/")
        if new_name != name:
            tf_logging.info("Summary name %s is illegal; using %s instead." % (name, new_name))
            name = new_name
    return name


@contextlib.contextmanager
def _summary_scope(name, family=None, default_name=None, values=None):
    """TensorFlow's summary_scope: yields (tag, scope) for the cleaned name under the name
    scope `<family>/<name>`; with a family the tag is `<family>/<scope>`."""
    name = _clean_tag(name)
    family = _clean_tag(family)
    scope_base_name = name if family is None else "%s/%s" % (family, name)
    with ops.name_scope(scope_base_name, default_name, values) as scope:
        tag = scope.rstrip("/") if family is None else "%s/%s" % (family, scope.rstrip("/"))
        yield tag, scope


def _summary(op_type, name, collections, family=None, default_name=None, **inputs):
    """Creates the op in its summary scope (the tag as TensorFlow makes it) and adds it to
    `collections` (default [GraphKeys.SUMMARIES])."""
    with _summary_scope(name, family, default_name, values=list(inputs.values())) as \
            (tag, scope):
        key = "tags" if op_type == "ScalarSummary" else "tag"
        val = outputs_of(apply_op(op_type, name=scope, **{key: tag}, **inputs))
    for c in (collections if collections is not None else [ops.GraphKeys.SUMMARIES]):
        ops.add_to_collection(c, val)
    return val


def scalar(name, tensor, collections=None, family=None):
    """A Summary with one simple_value (tf.compat.v1.summary.scalar; op
    ScalarSummary). `tensor`: a real-number scalar. Returns a scalar string
    Tensor, added to `collections` (default [GraphKeys.SUMMARIES]).
    Raises InvalidArgumentError at run time when `tensor` is not a scalar."""
    return _summary("ScalarSummary", name, collections, family,
                    values=tensor)


def histogram(name, values, collections=None, family=None):
    """A Summary with a histogram of `values` in TensorFlow's default
    exponential buckets (tf.compat.v1.summary.histogram; op
    HistogramSummary). Any shape of real numbers; InvalidArgumentError at run
    time for NaN or Inf."""
    return _summary("HistogramSummary", name, collections, family, "HistogramSummary",
                    values=values)


def image(name, tensor, max_outputs=3, collections=None, family=None):
    """Up to `max_outputs` PNG images of a batch (tf.compat.v1.summary.image;
    op ImageSummary with max_images=max_outputs).

    `tensor`: [batch_size, height, width, channels] of uint8, half, float32
    or float64, channels 1 (grayscale), 3 (RGB) or 4 (RGBA). uint8 pixels
    are kept; floating images are scaled into [0, 255] per image (by
    255 / max when no value is negative, else by 127 / max|x| around 128),
    and pixels with a NaN or Inf become red. Tags are "<name>/image" when
    max_outputs == 1, else "<name>/image/0", "<name>/image/1", ...
    Returns a scalar string Tensor, added to `collections` (default
    [GraphKeys.SUMMARIES]). Raises TypeError for another dtype, ValueError
    when max_outputs < 1, InvalidArgumentError at run time unless the tensor
    is 4-D with 1, 3 or 4 channels and non-empty images."""
    return _summary("ImageSummary", name, collections, family,
                    tensor=tensor,
                    max_images=max_outputs)


def text(name, tensor, collections=None):
    """A text-plugin Summary of a string tensor (tf.compat.v1.summary.text;
    op TensorSummaryV2). TypeError unless `tensor` is a string tensor."""
    tensor = ops.convert_to_tensor(tensor)
    if tensor.dtype != dtypes.string:
        raise TypeError("tensor must be of type string")
    meta = SummaryMetadata(plugin_data=SummaryMetadata.PluginData(plugin_name="text"))
    return _summary("TensorSummaryV2", name, collections, tensor=tensor,
                    serialized_summary_metadata=meta.SerializeToString())


def merge(inputs, collections=None, name=None):
    """One Summary holding the values of all `inputs` (tf.summary.merge; op
    MergeSummary). InvalidArgumentError at run time for a duplicate tag."""
    with ops.name_scope(name, "Merge", inputs):  # TF: "Merge/MergeSummary"
        inputs = [ops.convert_to_tensor(i) for i in inputs]
        val = outputs_of(apply_op("MergeSummary", inputs=inputs, name=name))
    for c in collections or []:
        ops.add_to_collection(c, val)
    return val


def merge_all(key=ops.GraphKeys.SUMMARIES, scope=None, name=None):
    """merge() of every summary in collection `key` (None when it is empty),
    as tf.compat.v1.summary.merge_all."""
    summaries = ops.get_collection(key, scope=scope)
    return merge(summaries, name=name) if summaries else None
