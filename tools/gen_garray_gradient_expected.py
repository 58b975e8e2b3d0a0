"""Writes tests/fixtures/garray_gradient_expected.json: what TensorFlow 2.21 (tf.compat.v1
graph mode) gives for the tf.gradients programs of tests/python/garray_gradient_cases.py
(backward graphs through the array, indexing, space and segment ops). Developer tool only:

    /opt/tfvenv/bin/python tools/gen_garray_gradient_expected.py
"""

import tf_fixture
from tf_fixture import tf

import garray_gradient_cases


def main():
    tf_fixture.write(
        "garray_gradient_expected.json",
        {case.__name__: case(tf) for case in garray_gradient_cases.CASES})


if __name__ == "__main__":
    main()
