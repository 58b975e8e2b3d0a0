"""Writes tests/fixtures/training_ops_expected.json: TensorFlow 2.21 running every optimizer
update op of tests/python/training_op_cases.py ten steps (developer tool):

    /opt/tfvenv/bin/python tools/gen_training_ops_expected.py
"""

import tf_fixture
from tf_fixture import tf

import training_op_cases


def main():
    tf_fixture.write(
        "training_ops_expected.json",
        {"runs": training_op_cases.all_runs(tf)}, indent=None)


if __name__ == "__main__":
    main()
