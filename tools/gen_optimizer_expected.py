"""Writes tests/fixtures/optimizer_expected.json: TensorFlow 2.21 running the optimizer programs
of tests/python/optimizer_cases.py (developer tool):

    /opt/tfvenv/bin/python tools/gen_optimizer_expected.py
"""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "python"))

import tensorflow.compat.v1 as tf  # noqa: E402

import optimizer_cases  # noqa: E402

tf.disable_eager_execution()


def main():
    out = {"tf_version": tf.__version__, "runs": optimizer_cases.all_runs(tf)}
    path = os.path.join(HERE, "..", "tests", "fixtures", "optimizer_expected.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print("wrote", path)


if __name__ == "__main__":
    main()
