"""Writes tests/fixtures/training_ops_expected.json: TensorFlow 2.21 running every optimizer
update op of tests/python/training_op_cases.py ten steps (developer tool):

    /opt/tfvenv/bin/python tools/gen_training_ops_expected.py
"""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "python"))

import tensorflow.compat.v1 as tf  # noqa: E402

import training_op_cases  # noqa: E402

tf.disable_eager_execution()


def main():
    out = {"tf_version": tf.__version__, "runs": training_op_cases.all_runs(tf)}
    path = os.path.join(HERE, "..", "tests", "fixtures", "training_ops_expected.json")
    with open(path, "w") as f:
        json.dump(out, f, sort_keys=True)
    print("wrote", path, len(out["runs"]), "runs")


if __name__ == "__main__":
    main()
