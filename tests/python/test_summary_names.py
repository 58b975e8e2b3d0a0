"""tf.summary.* names cleaned into TF's tags and node names (W1:0 -> W1_0, families, name
scopes) against TensorFlow 2.21 (tests/fixtures/summary_name_expected.json from
tools/gen_summary_name_expected.py), and TF's INFO log line for a cleaned name."""
import json
import logging
import os

import pytest

import minitf as tf

import array_api_cases
import summary_name_cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "summary_name_expected.json")) as _f:
    EXPECTED = json.load(_f)["cases"]


@pytest.mark.parametrize("name", sorted(summary_name_cases.CASES))
def test_summary_name_case(name):
    got = array_api_cases.run_case(tf, summary_name_cases.CASES[name])
    want = EXPECTED[name]
    for key in ("build_error", "static_shapes", "dtypes", "nodes", "run_error", "values"):
        assert got.get(key) == want.get(key), key


def test_cleaned_name_is_logged(caplog):
    # TF's summary_op_util.clean_tag logs this at INFO on the "tensorflow" logger.
    with caplog.at_level(logging.INFO, logger="tensorflow"), tf.Graph().as_default():
        tf.summary.histogram("W1:0", [1.0])
        tf.summary.histogram("ok", [1.0])
    msgs = [r.getMessage() for r in caplog.records if r.name == "tensorflow"]
    assert msgs == ["Summary name W1:0 is illegal; using W1_0 instead."]
