"""tf.ConfigProto and its option messages, the top-level messages, tf.init_scope and
Adam's non-slot variable names, against what real TensorFlow 2.21 wrote
(tools/gen_config_protos_expected.py)."""
import json
import os

import numpy as np
import pytest

import minitf as tf

import config_protos_cases as cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "config_protos_expected.json")) as f:
    EXPECTED = json.load(f)

CONFIGS = cases.config_bytes(tf)


@pytest.mark.parametrize("name", sorted(EXPECTED["configs"]))
def test_bytes_equal_tensorflows(name):
    assert CONFIGS[name] == EXPECTED["configs"][name]


def test_parse_back():
    assert cases.parse_back(tf, EXPECTED["configs"]["threads_and_options"]) == \
        EXPECTED["parse_back"]


def test_session_accepts_gpu_and_graph_options():
    config = tf.ConfigProto.FromString(bytes.fromhex(EXPECTED["configs"]["gpu_and_rewrite"]))
    assert config.gpu_options.allow_growth
    with tf.Graph().as_default(), tf.Session(config=config) as sess:
        assert sess.run(tf.constant(3.0) * 2.0) == 6.0


@pytest.mark.parametrize("own", ["False", "True"])
def test_adam_non_slot_variable_names(own):
    got = cases.adam_variable_names(tf)[own]
    want = EXPECTED["adam"][own]
    assert got["names"] == want["names"]
    np.testing.assert_allclose(got["w"], want["w"], rtol=1e-6)


def test_init_scope_keeps_name_scope_and_drops_control_inputs():
    assert cases.init_scope_names(tf) == EXPECTED["init_scope"]
