"""Writes tests/fixtures/rnn_expected.json: TensorFlow 2.21 (tf.compat.v1 graph mode, control
flow v2, tf-keras 2.21's legacy RNN cells) running tests/python/rnn_cases.py: variable names
and shapes, outputs and final states with fixed variable values, outer-graph op names, and
tf.gradients of a loss with respect to all variables and inputs for rnn_cases.GRAD_CASES.
Developer tool only; needs tf-keras==2.21.* in TensorFlow's environment:

    TF_USE_LEGACY_KERAS=1 /opt/tfvenv/bin/python tools/gen_rnn_expected.py
"""
import os

os.environ["TF_USE_LEGACY_KERAS"] = "1"  # tf.nn.rnn_cell lives in tf-keras (before TF loads)

import tf_fixture  # noqa: E402
from tf_fixture import tf  # noqa: E402

import rnn_cases  # noqa: E402


def main():
    tf.get_logger().setLevel("ERROR")
    assert tf.control_flow_v2_enabled()
    tf_fixture.write("rnn_expected.json", {
        "cases": {n: rnn_cases.run_case(tf, n, grads=n in rnn_cases.GRAD_CASES)
                  for n in rnn_cases.CASES},
        "errors": {n: f(tf) for n, f in rnn_cases.ERRORS.items()}})


if __name__ == "__main__":
    main()
