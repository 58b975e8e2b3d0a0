"""Framework names of tf.compat.v1 returning Python values (is_tensor, dimension_at_index,
broadcast_static_shape, op_scope, the GraphDef version constants, ...) against TensorFlow
2.21 (tests/fixtures/framework_api_expected.json from tools/gen_framework_api_expected.py,
cases in framework_api_cases.py)."""
import json
import os

import pytest

import minitf as tf

import framework_api_cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "framework_api_expected.json")) as _f:
    EXPECTED = json.load(_f)["cases"]


@pytest.mark.parametrize("name", sorted(framework_api_cases.CASES))
def test_framework_api_case(name):
    assert framework_api_cases.run_case(tf, framework_api_cases.CASES[name]) == EXPECTED[name]


def test_register_tensor_conversion_function():
    class Wrapped:
        def __init__(self, v):
            self.v = v

    tf.register_tensor_conversion_function(
        Wrapped, lambda value, dtype=None, name=None, as_ref=False: tf.constant(
            value.v, dtype=dtype, name=name))
    with tf.Graph().as_default(), tf.Session() as sess:
        assert sess.run(tf.add(Wrapped(2.0), 1.0)) == 3.0
