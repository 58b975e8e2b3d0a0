"""Writes tests/fixtures/glinalg_gradient_expected.json: what TensorFlow 2.21 (tf.compat.v1
graph mode) gives for the gradient programs of tests/python/glinalg_cases.py (backward graph
and values). Developer tool only:

    /opt/tfvenv/bin/python tools/gen_glinalg_expected.py
"""

import tf_fixture
from tf_fixture import tf

import glinalg_cases


def main():
    tf_fixture.write(
        "glinalg_gradient_expected.json",
        {case.name: case(tf) for case in glinalg_cases.CASES})


if __name__ == "__main__":
    main()
