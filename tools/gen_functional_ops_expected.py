"""Writes tests/fixtures/functional_ops_expected.json: TensorFlow 2.21 (tf.compat.v1 graph
mode, control flow v2) running tests/python/functional_ops_cases.py: map_fn, scan, foldl,
foldr and case values, op names and static shapes, construction errors, and the gradients
of functional_ops_cases.GRAD_CASES. Developer tool only:

    /opt/tfvenv/bin/python tools/gen_functional_ops_expected.py
"""
import tf_fixture
from tf_fixture import tf

import functional_ops_cases as cases


def main():
    tf.get_logger().setLevel("ERROR")
    assert tf.control_flow_v2_enabled()
    tf_fixture.write("functional_ops_expected.json", {
        "cases": {n: cases.run_case(tf, n) for n in cases.CASES},
        "errors": {n: cases.run_error(tf, n) for n in cases.ERRORS},
        "grads": {n: cases.run_grad(tf, n) for n in cases.GRAD_CASES}})


if __name__ == "__main__":
    main()
