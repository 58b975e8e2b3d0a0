"""Writes tests/fixtures/layers3d_expected.json (developer tool, needs TensorFlow 2.21 with
tf-keras 2.21; TF_USE_LEGACY_KERAS=1 is set here):

    /opt/tfvenv/bin/python tools/gen_layers3d_expected.py

For each case of tests/python/layers3d_cases.py: the graph's nodes, the collections, the
static shapes and values (outputs and gradients) of what the case returns, and layer names.
"""
import os
import warnings

os.environ["TF_USE_LEGACY_KERAS"] = "1"
warnings.filterwarnings("ignore")

import tf_fixture  # noqa: E402
from tf_fixture import tf  # noqa: E402

import layers3d_cases  # noqa: E402


def main():
    out = {}
    for name, build in layers3d_cases.CASES.items():
        with tf.Graph().as_default():
            out[name] = layers3d_cases.run(tf, build)
    tf_fixture.write("layers3d_expected.json", {"cases": out}, indent=None)


if __name__ == "__main__":
    main()
