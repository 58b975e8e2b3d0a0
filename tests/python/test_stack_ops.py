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


def test_legacy_ref_stack_ops_are_lifo_per_run():
    # Stack / StackPush / StackPop / StackClose (Ref(string) handle), values worked by hand:
    # each run's Stack starts an empty stack; pops come back last in, first out.
    from minitf import raw_ops
    g = tf.Graph()
    with g.as_default():
        h = raw_ops.Stack(elem_type=tf.float32, stack_name="s")
        p1 = raw_ops.StackPush(handle=h, elem=tf.constant([1.0, 2.0]))
        with tf.control_dependencies([p1]):
            p2 = raw_ops.StackPush(handle=h, elem=tf.constant([3.0, 4.0]))
        with tf.control_dependencies([p2]):
            a = raw_ops.StackPop(handle=h, elem_type=tf.float32)
        with tf.control_dependencies([a]):
            b = raw_ops.StackPop(handle=h, elem_type=tf.float32)
        with tf.control_dependencies([b]):
            empty = raw_ops.StackPop(handle=h, elem_type=tf.float32, name="too_many")
            close = raw_ops.StackClose(handle=h)
        assert h.shape.as_list() == [2] and h.dtype == tf.string._as_ref
        with tf.Session() as sess:
            for _ in range(2):
                got = sess.run([p1, a, b])
                assert [v.tolist() for v in got] == [[1.0, 2.0], [3.0, 4.0], [1.0, 2.0]]
            sess.run(close)
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"Stack\[s_\d+\] is empty "
                               r"when calling Pop\(\)") as e:
                sess.run(empty)
            assert "too_many" in str(e.value)
