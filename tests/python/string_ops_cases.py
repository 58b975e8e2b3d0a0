"""String-op cases (StringJoin and the RE2 regex ops), written against the TF1 API so the
same code runs on TensorFlow 2.21 (tf.compat.v1) and on minitf.

Each case takes `tf` and returns a tensor; tools/gen_string_ops_expected.py records TF's
value (or its error class and message) and the node it built, tests/python/test_string_ops.py
compares minitf's.
"""
import numpy as np

WORDS = np.array([[b"hello", b"world", b""], [b"a.b.c", b"s3://bucket/x", b"\xc3\xa9t\xc3\xa9"]])


CASES = {
    "join_scalars": lambda tf: tf.strings.join(["a", "b", "c"]),
    "join_separator": lambda tf: tf.strings.join([["x", "y"], ["1", "2"]], separator="--"),
    "join_broadcast_scalar": lambda tf: tf.strings.join([WORDS, "!", WORDS], separator=" "),
    "join_one": lambda tf: tf.strings.join([WORDS[0]]),
    "join_empty_separator_utf8": lambda tf: tf.strings.join([WORDS[1], WORDS[1]], "\u00e9"),
    "join_shape_mismatch": lambda tf: tf.strings.join(
        [tf.placeholder_with_default(["a", "b"], shape=None),
         tf.placeholder_with_default(["a", "b", "c"], shape=None)]),
    "join_static_shape_mismatch": lambda tf: tf.strings.join([["a", "b"], ["a", "b", "c"]]),
    "join_raw_op": lambda tf: tf.raw_ops.StringJoin(inputs=[["p", "q"], "z"], separator="/"),
    "full_match_static": lambda tf: tf.strings.regex_full_match(WORDS, "[a-z]+"),
    "full_match_s3": lambda tf: tf.strings.regex_full_match(WORDS, "^s3://.*"),
    "full_match_utf8": lambda tf: tf.strings.regex_full_match(WORDS, "\u00e9t."),
    "full_match_dynamic": lambda tf: tf.strings.regex_full_match(
        WORDS, tf.constant("(he|wo).*")),
    "full_match_bad_pattern": lambda tf: tf.strings.regex_full_match(WORDS, "a(b"),
    "full_match_bad_pattern_dynamic": lambda tf: tf.strings.regex_full_match(
        WORDS, tf.constant("[z-a]")),
    "full_match_pattern_not_scalar": lambda tf: tf.strings.regex_full_match(
        WORDS, tf.placeholder_with_default(["a", "b"], shape=None)),
    "replace_global": lambda tf: tf.strings.regex_replace(WORDS, "[aeiou]", "_"),
    "replace_first": lambda tf: tf.strings.regex_replace(WORDS, "[aeiou]", "_",
                                                         replace_global=False),
    "replace_groups": lambda tf: tf.strings.regex_replace(WORDS, r"(\w)\.(\w)", r"\2<\0>\1"),
    "replace_empty_match": lambda tf: tf.strings.regex_replace(["abc", ""], "x*", "-"),
    "replace_dynamic": lambda tf: tf.strings.regex_replace(
        WORDS, tf.constant("o"), tf.constant("0")),
    "replace_dynamic_first": lambda tf: tf.strings.regex_replace(
        WORDS, tf.constant("l"), tf.constant("L"), replace_global=False),
    "replace_bad_pattern": lambda tf: tf.strings.regex_replace(WORDS, "(?P<n", "x"),
    "replace_bad_pattern_dynamic": lambda tf: tf.strings.regex_replace(
        WORDS, tf.constant("*a"), tf.constant("x")),
    "replace_bad_rewrite": lambda tf: tf.strings.regex_replace(WORDS, "o", r"\3"),
    "replace_rewrite_not_scalar": lambda tf: tf.strings.regex_replace(
        WORDS, tf.constant("o"), tf.placeholder_with_default(["a", "b"], shape=None)),
    "replace_v1_name": lambda tf: tf.regex_replace(["aaa"], "a", "b"),
    "string_join_v1_name": lambda tf: tf.string_join(["a", ["b", "c"]], "+"),
}


def node_of(t):
    """(op type, attrs as sorted text) of the node that makes `t`."""
    from google.protobuf import text_format
    node = t.op.node_def
    return [node.op, sorted("%s=%s" % (k, text_format.MessageToString(v, as_one_line=True))
                            for k, v in node.attr.items())]


def jsonable(val):
    val = np.asarray(val)
    if val.dtype.kind in "SO":
        return {"shape": list(val.shape),
                "values": [x.decode("utf-8", "backslashreplace") if isinstance(x, bytes) else x
                           for x in val.reshape(-1).tolist()]}
    return {"shape": list(val.shape), "values": val.reshape(-1).tolist()}
