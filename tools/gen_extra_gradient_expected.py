"""Writes tests/fixtures/extra_gradient_expected.json: TensorFlow 2.21 running
tests/python/extra_gradient_cases.py (developer tool):

    /opt/tfvenv/bin/python tools/gen_extra_gradient_expected.py
"""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "python"))

import tensorflow.compat.v1 as tf  # noqa: E402

import extra_gradient_cases  # noqa: E402

tf.disable_eager_execution()


def main():
    out = {"tf_version": tf.__version__,
           "cases": {n: extra_gradient_cases.run(tf, n) for n in extra_gradient_cases.CASES}}
    path = os.path.join(HERE, "..", "tests", "fixtures", "extra_gradient_expected.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print("wrote", path)


if __name__ == "__main__":
    main()
