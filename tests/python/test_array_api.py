"""The remaining top-level array functions of tf.compat.v1 against TensorFlow 2.21
(tests/fixtures/array_api_expected.json from tools/gen_array_api_expected.py, cases in
array_api_cases.py): values, static shapes and dtypes, the nodes built (names and types), or
TF's error class and message at construction or run time."""
import json
import os

import pytest

import minitf as tf

import array_api_cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "array_api_expected.json")) as _f:
    EXPECTED = json.load(_f)["cases"]


@pytest.mark.parametrize("name", sorted(array_api_cases.CASES))
def test_array_api_case(name):
    got = array_api_cases.run_case(tf, array_api_cases.CASES[name])
    want = EXPECTED[name]
    for key in ("build_error", "static_shapes", "dtypes", "nodes", "run_error", "values"):
        assert got.get(key) == want.get(key), key
