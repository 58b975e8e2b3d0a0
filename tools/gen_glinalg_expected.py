"""Writes tests/fixtures/glinalg_gradient_expected.json: what TensorFlow 2.21 (tf.compat.v1
graph mode) gives for the gradient programs of tests/python/glinalg_cases.py (backward graph
and values). Developer tool only:

    /opt/tfvenv/bin/python tools/gen_glinalg_expected.py
"""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "python"))

import tensorflow.compat.v1 as tf  # noqa: E402

import glinalg_cases  # noqa: E402

tf.disable_eager_execution()


def main():
    out = {"tf_version": tf.__version__}
    for case in glinalg_cases.CASES:
        out[case.name] = case(tf)
    path = os.path.join(HERE, "..", "tests", "fixtures", "glinalg_gradient_expected.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print("wrote", path, len(glinalg_cases.CASES), "cases")


if __name__ == "__main__":
    main()
