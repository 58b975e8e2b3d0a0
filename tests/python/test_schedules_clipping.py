"""tf.train's learning-rate schedules and tf.clip_by_norm / clip_by_global_norm /
clip_by_average_norm / global_norm against TensorFlow 2.21 (schedule_clip_cases.py; TF's
values in tests/fixtures/schedule_clip_expected.json): the same values (float32, 1e-6
relative to the largest value) and the same names for the tensors they return; plus TF's errors."""
import json
import os

import numpy as np
import pytest

import minitf as tf
import schedule_clip_cases as cases

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures",
                       "schedule_clip_expected.json")
with open(FIXTURE) as f:
    EXPECTED = json.load(f)

SCHEDULES = cases.run_schedules(tf)
CLIPPING = cases.run_clipping(tf)


@pytest.mark.parametrize("name", sorted(cases.SCHEDULES))
def test_schedule_equals_tensorflows(name):
    want = EXPECTED["schedules"][name]
    # 1e-6 of the schedule's largest value: near a cosine's trough 1 + cos(x) cancels, and the
    # last-bit difference of two cos implementations grows relative to the small result.
    np.testing.assert_allclose(SCHEDULES[name]["values"], want["values"], rtol=1e-6,
                               atol=1e-6 * max(want["values"]))
    if name not in ("piecewise",):  # TF's tf.case output; minitf's is a select
        assert SCHEDULES[name]["name"] == want["name"]


@pytest.mark.parametrize("name", sorted(EXPECTED["clipping"]))
def test_clipping_equals_tensorflows(name):
    want = EXPECTED["clipping"][name]
    np.testing.assert_allclose(CLIPPING[name]["value"], want["value"], rtol=1e-6, atol=1e-7)
    assert CLIPPING[name]["name"] == want["name"]


def test_hand_worked_values():
    # |[3, 4]| = 5 -> scaled to norm 2; global norm of [[3,4],[-1,2]] and [0.5,-12,1] = 13.
    np.testing.assert_allclose(CLIPPING["clip_by_norm_axes"]["value"][0], [1.2, 1.6], rtol=1e-6)
    np.testing.assert_allclose(CLIPPING["global_norm"]["value"], np.sqrt(30 + 145.25), rtol=1e-6)
    np.testing.assert_allclose(SCHEDULES["exponential_staircase"]["values"][4], 0.05, rtol=1e-6)


def test_errors_as_tensorflow():
    with tf.Graph().as_default():
        step = tf.constant(3, tf.int64)
        with pytest.raises(ValueError, match="1 less than the length of values"):
            tf.train.piecewise_constant(step, [1, 2], [1.0, 2.0])
        with pytest.raises(ValueError, match="must have the same dtype as x"):
            tf.train.piecewise_constant(step, [1.5], [1.0, 2.0])
        with pytest.raises(ValueError, match="all with the same dtype"):
            tf.train.piecewise_constant(step, [1], [1.0, 2])
        with pytest.raises(ValueError, match="global_step is required"):
            tf.train.exponential_decay(0.1, None, 10, 0.5)
        with pytest.raises(TypeError, match="should be a sequence of tensors"):
            tf.clip_by_global_norm(tf.constant([1.0]), 1.0)
