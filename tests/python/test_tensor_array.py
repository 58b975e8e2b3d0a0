"""tf.TensorArray against TensorFlow 2.21, in both control-flow modes: the programs of
tensor_array_cases.py replayed on minitf under control flow v2 (TensorList ops, the default)
and v1 (TensorArrayV3 ops), compared with tests/fixtures/tensor_array_expected.json (written by
tools/gen_tensor_array_expected.py under real TensorFlow): values, gradients, node names,
static shapes, error messages."""
import json
import os

import pytest

import minitf as tf
import tensor_array_cases
from test_state_ops import _compare

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "tensor_array_expected.json")) as f:
    EXPECTED = json.load(f)


@pytest.fixture(params=["v2", "v1"])
def mode(request):
    was = tf.control_flow_v2_enabled()
    (tf.enable_control_flow_v2 if request.param == "v2" else tf.disable_control_flow_v2)()
    yield request.param
    (tf.enable_control_flow_v2 if was else tf.disable_control_flow_v2)()


@pytest.mark.parametrize("name", sorted(tensor_array_cases.CASES))
def test_case_matches_tensorflow(name, mode):
    got = json.loads(json.dumps(tensor_array_cases.CASES[name](tf)))
    _compare(got, EXPECTED[mode][name], "%s.%s" % (mode, name))


def test_default_is_control_flow_v2():
    assert tf.control_flow_v2_enabled()
    g = tf.Graph()
    with g.as_default():
        assert tf.TensorArray(tf.float32, size=1).flow.dtype == tf.variant


def test_v1_handle_comes_from_tensor_array_v3():
    tf.disable_control_flow_v2()
    try:
        g = tf.Graph()
        with g.as_default():
            ta = tf.TensorArray(tf.float32, size=2, name="arr")
            assert ta.handle.op.type == "TensorArrayV3" and ta.handle.op.name == "arr"
            assert ta.flow.dtype == tf.float32
    finally:
        tf.enable_control_flow_v2()
