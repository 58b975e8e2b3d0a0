"""Writes tests/fixtures/control_flow_v1_expected.json: TensorFlow 2.21 running
tests/python/control_flow_v1_cases.py with TensorFlow 1 control flow
(tf.disable_control_flow_v2(): Switch/Merge/Enter/Exit/NextIteration frames, gradient
loops with stacks) — fetched values, every op (name, type, inputs, control inputs) and the
errors of the bad-input cases (developer tool):

    /opt/tfvenv/bin/python tools/gen_control_flow_v1_expected.py
"""
import tf_fixture
from tf_fixture import tf

import control_flow_v1_cases as cases


def main():
    tf.disable_control_flow_v2()
    tf_fixture.write("control_flow_v1_expected.json", {
        "cases": {n: cases.run_case(tf, n) for n in cases.CASES},
        "errors": {n: cases.run_error(tf, n) for n in cases.ERRORS}}, indent=0)


if __name__ == "__main__":
    main()
