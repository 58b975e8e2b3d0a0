"""Writes tests/fixtures/state_expected.json: what TensorFlow 2.21 (tf.compat.v1 graph mode)
gives for the variable / state-op programs in tests/python/state_cases.py. Developer tool only:

    /opt/tfvenv/bin/python tools/gen_state_expected.py
"""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "python"))

import tensorflow.compat.v1 as tf  # noqa: E402

import state_cases  # noqa: E402

tf.disable_eager_execution()
tf.get_logger().setLevel("ERROR")


def main():
    result = {name: fn(tf) for name, fn in state_cases.CASES.items()}
    path = os.path.join(HERE, "..", "tests", "fixtures", "state_expected.json")
    with open(path, "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", path)


if __name__ == "__main__":
    main()
