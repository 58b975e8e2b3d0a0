"""Writes tests/fixtures/optimizer_expected.json: TensorFlow 2.21 running the optimizer programs
of tests/python/optimizer_cases.py (developer tool):

    /opt/tfvenv/bin/python tools/gen_optimizer_expected.py
"""

import tf_fixture
from tf_fixture import tf

import optimizer_cases


def main():
    tf_fixture.write("optimizer_expected.json", {"runs": optimizer_cases.all_runs(tf)})


if __name__ == "__main__":
    main()
