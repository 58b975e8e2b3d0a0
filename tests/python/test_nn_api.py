"""tf.nn functions against TensorFlow 2.21 (tests/fixtures/nn_api_expected.json from
tools/gen_nn_api_expected.py; cases in nn_api_cases.py): for each case the nodes built (names
and op types), the static shapes, values and gradients; and the construction errors."""
import json
import os

import numpy as np
import pytest

import minitf as tf

import nn_api_cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "nn_api_expected.json")) as _f:
    _FIXTURE = json.load(_f)
EXPECTED, ERRORS = _FIXTURE["cases"], _FIXTURE["errors"]
RUN_ERRORS = _FIXTURE["run_errors"]

# Values computed in another summation order than TF's: float32 ulps.
RTOL = 1e-5
ATOL = 1e-5


def _close(got, want):
    if want is None:
        assert got is None
        return
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64),
                               rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("name", sorted(nn_api_cases.CASES))
def test_case_is_tensorflows(name):
    if name == "l2_normalize_complex" and not hasattr(tf, "complex"):
        pytest.skip("tf.complex / tf.real / tf.imag land with the math part")
    want = EXPECTED[name]
    got = nn_api_cases.run(tf, nn_api_cases.CASES[name])
    assert got["nodes"] == want["nodes"]
    assert got["shapes"] == want["shapes"]
    assert len(got["values"]) == len(want["values"])
    for g, w in zip(got["values"], want["values"]):
        _close(g, w)
    assert len(got["grads"]) == len(want["grads"])
    for g, w in zip(got["grads"], want["grads"]):
        _close(g, w)


@pytest.mark.parametrize("name", sorted(nn_api_cases.ERRORS))
def test_error_is_tensorflows(name):
    assert nn_api_cases.error(tf, nn_api_cases.ERRORS[name]) == ERRORS[name]


@pytest.mark.parametrize("name", sorted(nn_api_cases.RUN_ERRORS))
def test_run_error_is_tensorflows(name):
    assert nn_api_cases.run_error(tf, nn_api_cases.RUN_ERRORS[name]) == RUN_ERRORS[name]


def test_samplers_advance_per_run_as_tensorflow():
    """Seeded samplers give TensorFlow's candidates bit for bit, run after run."""
    assert nn_api_cases.sampler_runs(tf) == _FIXTURE["sampler_runs"]
