"""Writes tests/fixtures/framework_api_expected.json (developer tool, needs TensorFlow 2.21):

    /opt/tfvenv/bin/python tools/gen_framework_api_expected.py

For each case of tests/python/framework_api_cases.py: the Python value TF returns, or the
exception (class, message) it raises.
"""
import tf_fixture
from tf_fixture import tf

import framework_api_cases


def main():
    tf_fixture.write("framework_api_expected.json", {"cases": {
        k: framework_api_cases.run_case(tf, b)
        for k, b in sorted(framework_api_cases.CASES.items())}})


if __name__ == "__main__":
    main()
