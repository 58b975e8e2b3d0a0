"""Writes tests/fixtures/array_api_expected.json (developer tool, needs TensorFlow 2.21):

    /opt/tfvenv/bin/python tools/gen_array_api_expected.py

For each case of tests/python/array_api_cases.py: the values TF computes, their static shapes
and dtypes, the graph's node names and types, or the exception (class, message) building or
running it raises.
"""
import tf_fixture
from tf_fixture import tf

import array_api_cases


def main():
    tf_fixture.write("array_api_expected.json", {"cases": {
        k: array_api_cases.run_case(tf, b) for k, b in sorted(array_api_cases.CASES.items())}})


if __name__ == "__main__":
    main()
