"""Writes tests/fixtures/bn_second_order_expected.json: TensorFlow 2.21's second derivatives of batch norm in
tests/python/bn_second_order_cases.py (developer tool):

    /opt/tfvenv/bin/python tools/gen_bn_second_order_expected.py
"""

import tf_fixture
from tf_fixture import tf

import bn_second_order_cases


def main():
    tf_fixture.write(
        "bn_second_order_expected.json",
        {"cases": {n: bn_second_order_cases.run(tf, n) for n in bn_second_order_cases.CASES}})


if __name__ == "__main__":
    main()
