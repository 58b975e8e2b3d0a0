"""Writes tests/fixtures/layers_expected.json (developer tool, needs TensorFlow 2.21 with
tf-keras 2.21: tf.compat.v1.layers needs TF_USE_LEGACY_KERAS=1, set here):

    /opt/tfvenv/bin/python tools/gen_layers_expected.py

For each case of tests/python/layers_cases.py: the graph's nodes, the collections, the
static shapes and values of what the case returns, and layer names it reports; and
tests/fixtures/layers_training_expected.json: the loss curves of
tests/python/layers_training_cases.py's model.
"""
import os
import warnings

os.environ["TF_USE_LEGACY_KERAS"] = "1"
warnings.filterwarnings("ignore")

import tf_fixture  # noqa: E402
from tf_fixture import tf  # noqa: E402

import layers_cases  # noqa: E402
import layers_error_cases  # noqa: E402
import layers_training_cases  # noqa: E402


def main():
    out = {}
    for name, build in layers_cases.CASES.items():
        with tf.Graph().as_default():
            out[name] = layers_cases.run(tf, build)
    errors = {}
    for name, build in layers_error_cases.CASES.items():
        with tf.Graph().as_default():
            errors[name] = layers_error_cases.run(tf, build)
    tf_fixture.write("layers_expected.json", {"cases": out, "errors": errors}, indent=None)
    curves = {}
    for name in layers_training_cases.OPTIMIZERS:
        with tf.Graph().as_default():
            curves[name] = layers_training_cases.run(tf, name)
    tf_fixture.write("layers_training_expected.json", {"curves": curves})


if __name__ == "__main__":
    main()
