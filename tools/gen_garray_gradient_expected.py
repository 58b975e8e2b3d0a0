"""Writes tests/fixtures/garray_gradient_expected.json: what TensorFlow 2.21 (tf.compat.v1
graph mode) gives for the tf.gradients programs of tests/python/garray_gradient_cases.py
(backward graphs through the array, indexing, space and segment ops). Developer tool only:

    /opt/tfvenv/bin/python tools/gen_garray_gradient_expected.py
"""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "python"))

import tensorflow.compat.v1 as tf  # noqa: E402

import garray_gradient_cases  # noqa: E402

tf.disable_eager_execution()


def main():
    out = {"tf_version": tf.__version__}
    for case in garray_gradient_cases.CASES:
        out[case.__name__] = case(tf)
    path = os.path.join(HERE, "..", "tests", "fixtures", "garray_gradient_expected.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print("wrote", path)


if __name__ == "__main__":
    main()
