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


def write_tf1_graph(path):
    """A TF1 training-style graph with ref variables, as real TensorFlow writes it:
    v (VariableV2, [1, 2, 3]) with v/Assign, v/read; step = AssignAdd(v, [0.5, 0.5, 0.5]);
    bump = ScatterAdd(v, [2, 0], [10, 20]); total = Sum(v/read); c = CountUpTo(counter, 5)."""
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable([1.0, 2.0, 3.0], use_resource=False, name="v")
        counter = tf.Variable(0, use_resource=False, name="counter")
        tf.assign_add(v, [0.5, 0.5, 0.5], name="step")
        tf.scatter_add(v, [2, 0], [10.0, 20.0], name="bump")
        tf.reduce_sum(v, name="total")
        counter.count_up_to(5)
        tf.global_variables_initializer()
    with open(path, "wb") as f:
        f.write(g.as_graph_def().SerializeToString())


def main():
    write_tf1_graph(os.path.join(HERE, "..", "tests", "fixtures", "tf1_ref_variables.pb"))
    result = {name: fn(tf) for name, fn in state_cases.CASES.items()}
    path = os.path.join(HERE, "..", "tests", "fixtures", "state_expected.json")
    with open(path, "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", path)


if __name__ == "__main__":
    main()
