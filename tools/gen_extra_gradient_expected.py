"""Writes tests/fixtures/extra_gradient_expected.json: TensorFlow 2.21 running
tests/python/extra_gradient_cases.py (developer tool):

    /opt/tfvenv/bin/python tools/gen_extra_gradient_expected.py
"""

import tf_fixture
from tf_fixture import tf

import extra_gradient_cases


def main():
    tf_fixture.write(
        "extra_gradient_expected.json",
        {"cases": {n: extra_gradient_cases.run(tf, n) for n in extra_gradient_cases.CASES}})


if __name__ == "__main__":
    main()
