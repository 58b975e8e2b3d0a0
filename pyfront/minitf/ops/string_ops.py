"""String ops: tf.strings.join, tf.strings.regex_full_match, tf.strings.regex_replace and
their v1 names (TensorFlow's ops/string_ops.py). Kernels are C (runtime/kernels/string_ops.c);
patterns are RE2's syntax, as in TensorFlow."""
from minitf.framework import ops
from minitf.framework.op_def_library import apply_op


def _out(op):
    return op.outputs[0]


def string_join(inputs, separator="", name=None):
    """Joins the strings of `inputs` element by element with `separator`
    (tf.strings.join / tf.compat.v1.string_join; op StringJoin).

    inputs: a list of string tensors, each a scalar or of one common shape (scalars are
    repeated). Returns a string tensor of that shape (a scalar when all are scalars).
    InvalidArgumentError at run time when two non-scalar shapes differ ("Input shapes do
    not match: [2] vs. [3]"); ValueError when it is known at construction.
    """
    if isinstance(inputs, ops.Tensor):
        inputs = [inputs]
    return _out(apply_op("StringJoin", inputs=list(inputs), separator=separator, name=name))


def regex_full_match(input, pattern, name=None):  # noqa: A002 - TensorFlow's name
    """A bool tensor of `input`'s shape: whether each string matches `pattern` whole
    (tf.strings.regex_full_match). A Python string pattern becomes op StaticRegexFullMatch
    (the pattern an attr), a tensor (scalar string) op RegexFullMatch. A bad pattern is an
    InvalidArgumentError at run time ("Invalid pattern: a(b, error: missing ): a(b")."""
    if isinstance(pattern, (str, bytes)):
        return _out(apply_op("StaticRegexFullMatch", input=input, pattern=pattern, name=name))
    return _out(apply_op("RegexFullMatch", input=input, pattern=pattern, name=name))


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # noqa: A002
    """`input` (string tensor) with the matches of `pattern` replaced by `rewrite` (\\0 the
    match, \\1..\\9 its groups), every match or only the first (replace_global=False)
    (tf.strings.regex_replace / tf.compat.v1.regex_replace). Python strings for both
    pattern and rewrite give op StaticRegexReplace, else op RegexReplace (scalar string
    tensors). Errors: InvalidArgumentError for a bad pattern or a non-scalar pattern or
    rewrite tensor."""
    if isinstance(pattern, (str, bytes)) and isinstance(rewrite, (str, bytes)):
        return _out(apply_op("StaticRegexReplace", input=input, pattern=pattern,
                             rewrite=rewrite, replace_global=replace_global, name=name))
    return _out(apply_op("RegexReplace", input=input, pattern=pattern, rewrite=rewrite,
                         replace_global=replace_global, name=name))


join = string_join
