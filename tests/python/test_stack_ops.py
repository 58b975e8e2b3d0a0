"""StackV2 / StackPushV2 / StackPopV2 / StackCloseV2 against TensorFlow 2.21 (the stacks v1
while-loop gradients keep forward values on): list_stack_cases.STACK_CASES replayed on minitf
and compared with tests/fixtures/tensor_array_expected.json: LIFO values, shapes, and the
empty / overflow / closed errors in TensorFlow's words."""
import json
import os

import pytest

import minitf as tf
import list_stack_cases
from test_state_ops import _compare

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "tensor_array_expected.json")) as f:
    EXPECTED = json.load(f)["stacks"]


@pytest.mark.parametrize("name", sorted(list_stack_cases.STACK_CASES))
def test_case_matches_tensorflow(name):
    got = json.loads(json.dumps(list_stack_cases.STACK_CASES[name](tf)))
    _compare(got, EXPECTED[name], name)
