"""Writes tests/fixtures/summary_name_expected.json (developer tool, needs TensorFlow 2.21):

    /opt/tfvenv/bin/python tools/gen_summary_name_expected.py

For each case of tests/python/summary_name_cases.py: the graph's node names and types and the
serialized Summary values TF computes (array_api_cases.run_case's record).
"""
import tf_fixture
from tf_fixture import tf

import array_api_cases
import summary_name_cases


def main():
    tf_fixture.write("summary_name_expected.json", {"cases": {
        k: array_api_cases.run_case(tf, b) for k, b in sorted(summary_name_cases.CASES.items())}})


if __name__ == "__main__":
    main()
