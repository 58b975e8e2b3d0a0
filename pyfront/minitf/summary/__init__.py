"""tf.summary (TF1): summary ops and the event-file writer.

Summary ops return a scalar string Tensor holding a serialized
`tensorflow.Summary` (computed by the C kernels in
runtime/kernels/summary_ops.c); FileWriter writes TensorBoard event files.
"""
from minitf.core.framework.summary_pb2 import (  # noqa: F401
    HistogramProto, Summary, SummaryDescription, SummaryMetadata)
from minitf.core.util.event_pb2 import Event, SessionLog, TaggedRunMetadata  # noqa: F401
from minitf.framework import dtypes, ops
from minitf.framework.op_def_library import apply_op, outputs_of
from minitf.summary.writer import FileWriter  # noqa: F401


def _summary(op_type, name, collections, **inputs):
    """Creates the op under name scope `name`; its tag is the scope name."""
    with ops.name_scope(name) as scope:
        tag = scope.rstrip("/")
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
    if family:
        name = family + "/" + name
    return _summary("ScalarSummary", name, collections, values=ops.convert_to_tensor(tensor))


def histogram(name, values, collections=None, family=None):
    """A Summary with a histogram of `values` in TensorFlow's default
    exponential buckets (tf.compat.v1.summary.histogram; op
    HistogramSummary). Any shape of real numbers; InvalidArgumentError at run
    time for NaN or Inf."""
    if family:
        name = family + "/" + name
    return _summary("HistogramSummary", name, collections, values=ops.convert_to_tensor(values))


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
