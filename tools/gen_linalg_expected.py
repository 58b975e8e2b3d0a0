"""Writes tests/fixtures/linalg_expected.json: what TensorFlow 2.21 (tf.compat.v1 graph mode)
gives for the tf.linalg programs of tests/python/linalg_cases.py (values, static shapes,
errors; backward graphs and gradient values). Developer tool only:

    /opt/tfvenv/bin/python tools/gen_linalg_expected.py
"""

import tf_fixture
from tf_fixture import tf

import linalg_cases


def main():
    tf_fixture.write(
        "linalg_expected.json",
        {case.name: case(tf) for case in linalg_cases.FORWARD + linalg_cases.GRAD})


if __name__ == "__main__":
    main()
