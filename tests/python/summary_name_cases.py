"""tf.summary.* names as TensorFlow 2.21 cleans them into tags and node names (the TF1
idiom tf.summary.histogram(var.name, var) passes 'W1:0'), with families and name scopes.
Same records as array_api_cases.run_case (nodes, values: the serialized Summary);
tools/gen_summary_name_expected.py writes TF's, tests/python/test_summary_names.py compares.
"""
import numpy as np

IMG = np.zeros((1, 2, 2, 1), np.uint8)


def _scoped(tf):
    with tf.name_scope("train"):
        return tf.summary.image("in", IMG, family="fam").op.inputs[0]


# Image cases return the op's tag input (its PNG bytes are another issue's: libpng).


CASES = {
    "histogram_var_name": lambda tf: tf.summary.histogram("W1:0", [1.0, 2.0, 2.5]),
    "histogram_leading_slash": lambda tf: tf.summary.histogram("/lead/x", [1.0]),
    "scalar_spaces_family": lambda tf: tf.summary.scalar("a b", 1.5, family="f:x"),
    "scalar_family": lambda tf: tf.summary.scalar("loss", 0.25, family="train"),
    "scalar_twice": lambda tf: [tf.summary.scalar("x:0", 1.0), tf.summary.scalar("x:0", 2.0)],
    "image_family_scope": _scoped,
    "image_bad_chars": lambda tf: tf.summary.image("img(1)", IMG, max_outputs=1).op.inputs[0],
    "text_colon": lambda tf: tf.summary.text("t:0", tf.constant("hello")),
    "merge_cleaned": lambda tf: tf.summary.merge(
        [tf.summary.scalar("a:0", 1.0), tf.summary.histogram("b c", [3.0])]),
    "merge_named": lambda tf: tf.summary.merge([tf.summary.scalar("a", 1.0)], name="m"),
}
