"""Writes tests/fixtures/gnn_gradient_expected.json: what TensorFlow 2.21 (tf.compat.v1 graph
mode) gives for the programs of tests/python/gnn_gradient_cases.py (nn, conv and pooling
gradients: backward graphs, values, errors). Developer tool only:

    /opt/tfvenv/bin/python tools/gen_gnn_gradient_expected.py
"""

import tf_fixture
from tf_fixture import tf

import gnn_gradient_cases


def main():
    tf_fixture.write(
        "gnn_gradient_expected.json",
        {case.__name__: case(tf) for case in gnn_gradient_cases.CASES})


if __name__ == "__main__":
    main()
