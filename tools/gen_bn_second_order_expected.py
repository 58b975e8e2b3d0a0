"""Writes tests/fixtures/bn_second_order_expected.json: TensorFlow 2.21's second derivatives of batch norm in
tests/python/bn_second_order_cases.py (developer tool):

    /opt/tfvenv/bin/python tools/gen_bn_second_order_expected.py
"""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "python"))

import tensorflow.compat.v1 as tf  # noqa: E402

import bn_second_order_cases  # noqa: E402

tf.disable_eager_execution()


def main():
    out = {"tf_version": tf.__version__,
           "cases": {n: bn_second_order_cases.run(tf, n) for n in bn_second_order_cases.CASES}}
    path = os.path.join(HERE, "..", "tests", "fixtures", "bn_second_order_expected.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print("wrote", path)


if __name__ == "__main__":
    main()
