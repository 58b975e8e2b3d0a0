"""Prints what TensorFlow 2.21 (tf.compat.v1 graph mode) gives for the variable_scope /
get_variable / initializer cases in tests/python/varscope_cases.py, as Python literals.

The dicts printed here are pasted into tests/python/test_variable_scope.py and
tests/python/test_initializers.py (EXPECTED). Run with real TensorFlow (developer tool only):

    /opt/tfvenv/bin/python tools/gen_varscope_expected.py [case ...]
"""
import os
import pprint
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "python"))

import tensorflow.compat.v1 as tf  # noqa: E402

import varscope_cases  # noqa: E402

tf.disable_eager_execution()
tf.get_logger().setLevel("ERROR")


def main(argv):
    wanted = argv or list(varscope_cases.CASES)
    for name in wanted:
        result = varscope_cases.CASES[name](tf)
        print("%r: %s," % (name, pprint.pformat(result, width=100, sort_dicts=True)))


if __name__ == "__main__":
    main(sys.argv[1:])
