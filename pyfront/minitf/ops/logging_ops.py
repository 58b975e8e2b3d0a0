"""Logging and assertion ops: tf.Assert, tf.Print, tf.print, tf.strings.format, tf.timestamp.

Mirrors tensorflow/python/ops/control_flow_assert.py (Assert), logging_ops.py (Print,
print_v2) and string_ops.py (string_format): same op types (Assert, Print, StringFormat,
PrintV2) and node names.
"""
import collections
import logging
import os
import pprint
import random
import sys

from minitf.framework import dtypes, ops
from minitf.framework.op_def_library import apply_op


def _cond():
    """minitf.ops.control_flow_ops.cond once it exists (tf.cond), else None."""
    from minitf.ops import control_flow_ops
    return getattr(control_flow_ops, "cond", None)


def Assert(condition, data, summarize=None, name=None):  # noqa: N802 (TensorFlow's name)
    """Asserts that the scalar bool `condition` is true (tf.debugging.Assert).

    At run time, when `condition` is False, the Assert op fails with
    InvalidArgumentError "assertion failed: [d0] [d1] ..." printing up to `summarize`
    (default 3) entries of each tensor in `data` (a list of tensors or Python values).

    As TensorFlow: when every data tensor is string or int32 the Assert op is returned
    directly (node "<name>/Assert"); otherwise it is guarded by tf.cond(condition, no_op,
    assert) named "AssertGuard" so large data are only summarized on failure. Until minitf
    has tf.cond the Assert op is returned unguarded (same run-time behaviour).
    Returns the Operation to use as a control dependency.
    """
    with ops.name_scope(name, "Assert", [condition, data]) as name:
        xs = ops.convert_n_to_tensor(data)
        if all(x.dtype in (dtypes.string, dtypes.int32) for x in xs):
            return apply_op("Assert", condition=condition, data=list(data), summarize=summarize,
                            name="Assert")
        condition = ops.convert_to_tensor(condition, name="Condition")

        def true_assert():
            return apply_op("Assert", condition=condition, data=list(data),
                            summarize=summarize, name="Assert")

        cond = _cond()
        if cond is None:
            return true_assert()
        from minitf.ops.control_flow_ops import no_op
        guarded = cond(condition, no_op, true_assert, name="AssertGuard")
        return getattr(guarded, "op", guarded)


def Print(input_, data, message=None, first_n=None, summarize=None, name=None):  # noqa: N802
    """`input_` unchanged; each run prints `message` and the entries of `data` to stderr
    (tf.compat.v1.Print; op Print): "<message>[d0][d1]...", at most `summarize` (default 3)
    entries per tensor, only the first `first_n` runs when first_n >= 0. Returns a Tensor
    like `input_`."""
    return apply_op("Print", input=input_, data=list(data), message=message, first_n=first_n,
                    summarize=summarize, name=name).outputs[0]


def string_format(template, inputs, placeholder="{}", summarize=3, name=None):
    """A scalar string: `template` with each `placeholder` replaced by the next tensor of
    `inputs`, formatted as TensorFlow prints tensors ("[1 2 3]", "[[1 2]\\n [3 4]]", at most
    `summarize` entries at each end of a dimension around "...", -1 for all)
    (tf.strings.format; op StringFormat). ValueError when the placeholder count differs from
    len(inputs)."""
    if isinstance(inputs, ops.Tensor):
        inputs = [inputs]
    if template.count(placeholder) != len(inputs):
        raise ValueError("The template expects %d tensors, but the inputs only has %d. Please "
                         "ensure the number of placeholders in template matches inputs length."
                         % (template.count(placeholder), len(inputs)))
    return apply_op("StringFormat", inputs=list(inputs), template=template,
                    placeholder=placeholder, summarize=summarize, name=name).outputs[0]


def _generate_placeholder_string(x, default_placeholder="{}"):
    # TensorFlow's choice: "{}" plus digits from random.Random(5) until it is not in x.
    placeholder = default_placeholder
    rng = random.Random(5)
    while placeholder in x:
        placeholder = placeholder + str(rng.randint(0, 9))
    return placeholder


def _stream_name(output_stream):
    if isinstance(output_stream, str) and output_stream.startswith("file://"):
        return output_stream
    names = [(sys.stdout, "stdout"), (sys.stderr, "stderr"),
             (logging.INFO, "log(info)"), (logging.info, "log(info)"),
             (logging.WARNING, "log(warning)"), (logging.warning, "log(warning)"),
             (logging.warn, "log(warning)"),
             (logging.ERROR, "log(error)"), (logging.error, "log(error)")]
    try:
        from minitf.compat.v1 import logging as tf_logging
        names += [(tf_logging.info, "log(info)"), (tf_logging.warning, "log(warning)"),
                  (tf_logging.warn, "log(warning)"), (tf_logging.error, "log(error)")]
    except (ImportError, AttributeError):
        pass
    for stream, value in names:
        if output_stream is stream or (not callable(stream) and output_stream == stream and
                                       not callable(output_stream)):
            return value
    raise ValueError("Unsupported output stream, logging level, or file." + str(output_stream) +
                     ". Supported streams are sys.stdout, sys.stderr, tf.logging.info, "
                     "tf.logging.warning, tf.logging.error. File needs to be in the form of "
                     "'file://<filepath>'.")


def _is_tensor(x):
    return isinstance(x, ops.Tensor)


def _flatten(x):
    """Leaves of lists, tuples and dicts (dicts in sorted key order), as tf.nest."""
    if isinstance(x, dict):
        return [leaf for k in sorted(x) for leaf in _flatten(x[k])]
    if isinstance(x, (list, tuple)):
        return [leaf for v in x for leaf in _flatten(v)]
    return [x]


def _pack(structure, leaves):
    """`structure` with its leaves replaced, in _flatten's order."""
    it = iter(leaves)

    def rebuild(x):
        if isinstance(x, dict):
            new = {k: rebuild(x[k]) for k in sorted(x)}
            return type(x)((k, new[k]) for k in x) if isinstance(x, collections.OrderedDict) \
                else {k: new[k] for k in x}
        if isinstance(x, (list, tuple)):
            vals = [rebuild(v) for v in x]
            return vals if isinstance(x, list) else type(x)(vals) if not hasattr(x, "_fields") \
                else type(x)(*vals)
        return next(it)
    return rebuild(structure)


def print_v2(*inputs, **kwargs):
    """Prints `inputs` when run (tf.print; ops StringFormat + PrintV2).

    inputs: Tensors, Python values and nested lists/tuples/dicts of them, joined by `sep`
    (default " ") and followed by `end` (default os.linesep). Tensors are formatted as
    tf.strings.format does (`summarize` entries, default 3). output_stream: sys.stderr
    (default), sys.stdout, logging.info / warning / error (or tf.compat.v1.logging's), or
    "file://<path>" (appended). Returns the PrintV2 Operation (run it, or use it as a control
    dependency). ValueError for other streams or unknown keywords.
    """
    output_stream = kwargs.pop("output_stream", sys.stderr)
    name = kwargs.pop("name", None)
    summarize = kwargs.pop("summarize", 3)
    sep = kwargs.pop("sep", " ")
    end = kwargs.pop("end", os.linesep)
    if kwargs:
        raise ValueError("Unrecognized keyword arguments for tf.print: %s" % kwargs)
    format_name = name + "_format" if name else None
    stream = _stream_name(output_stream)
    if (len(inputs) == 1 and _is_tensor(inputs[0]) and inputs[0].shape.ndims == 0 and
            inputs[0].dtype == dtypes.string):
        formatted = inputs[0]
    else:
        sorted_inputs = [collections.OrderedDict(sorted(x.items()))
                         if isinstance(x, collections.OrderedDict) else x for x in inputs]
        free = [_pack(x, ["" if _is_tensor(leaf) else leaf for leaf in _flatten(x)])
                for x in sorted_inputs]
        placeholder = _generate_placeholder_string(" ".join(pprint.pformat(x) for x in free))
        templates, tensors = [], []
        for x in inputs:
            leaves = []
            for leaf in _flatten(x):
                if _is_tensor(leaf):
                    tensors.append(leaf)
                    leaves.append(placeholder)
                else:
                    leaves.append(leaf)
            templates.append(x if isinstance(x, str) else pprint.pformat(_pack(x, leaves)))
        template = sep.join(templates).replace("'" + placeholder + "'", placeholder)
        formatted = string_format(template, tensors, placeholder=placeholder,
                                  summarize=summarize, name=format_name)
    return apply_op("PrintV2", input=formatted, output_stream=stream, end=end, name=name)


def timestamp(name=None):
    """Seconds since the Unix epoch as a float64 scalar, read when run (tf.timestamp)."""
    return apply_op("Timestamp", name=name).outputs[0]
