"""Writes tests/fixtures/second_order_expected.json: TensorFlow 2.21's second derivatives of
tests/python/second_order_cases.py (developer tool):

    /opt/tfvenv/bin/python tools/gen_second_order_expected.py
"""

import tf_fixture
from tf_fixture import tf

import second_order_cases


def main():
    tf_fixture.write(
        "second_order_expected.json",
        {"cases": {n: second_order_cases.run(tf, n) for n in second_order_cases.CASES}})


if __name__ == "__main__":
    main()
