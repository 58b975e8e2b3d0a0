"""Writes tests/fixtures/control_flow_grad_expected.json: TensorFlow 2.21 running the gradient
programs of tests/python/control_flow_grad_cases.py (v2 control flow, TF's compat.v1
graph-mode default) (developer tool):

    /opt/tfvenv/bin/python tools/gen_control_flow_grad_expected.py
"""
import tf_fixture
from tf_fixture import tf

import control_flow_grad_cases as cases


def main():
    assert tf.control_flow_v2_enabled()
    tf_fixture.write("control_flow_grad_expected.json",
                     {"cases": {n: cases.run_case(tf, n) for n in cases.CASES}})


if __name__ == "__main__":
    main()
