"""TensorList ops (EmptyTensorList, TensorListReserve, ...) against TensorFlow 2.21: the raw-op
programs of list_stack_cases.LIST_CASES replayed on minitf and compared with
tests/fixtures/tensor_array_expected.json: values, static shapes, error messages; and the
copy-on-write of shared lists (a list changed by one consumer stays as it was for another)."""
import json
import os

import numpy as np
import pytest

import minitf as tf
import list_stack_cases
from test_state_ops import _compare

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "tensor_array_expected.json")) as f:
    EXPECTED = json.load(f)["lists"]


@pytest.mark.parametrize("name", sorted(list_stack_cases.LIST_CASES))
def test_case_matches_tensorflow(name):
    got = json.loads(json.dumps(list_stack_cases.LIST_CASES[name](tf)))
    _compare(got, EXPECTED[name], name)


def test_shared_list_is_copied_before_a_change():
    R = tf.raw_ops
    g = tf.Graph()
    with g.as_default():
        l0 = R.TensorListFromTensor(tensor=[[1.0], [2.0]], element_shape=[1])
        a = R.TensorListSetItem(input_handle=l0, index=0, item=[5.0])
        b = R.TensorListPushBack(input_handle=l0, tensor=[7.0])
        fetch = [R.TensorListStack(input_handle=t, element_shape=[1], element_dtype=tf.float32)
                 for t in (l0, a, b)]
        with tf.Session() as sess:
            v0, va, vb = sess.run(fetch)
    np.testing.assert_array_equal(v0, [[1.0], [2.0]])
    np.testing.assert_array_equal(va, [[5.0], [2.0]])
    np.testing.assert_array_equal(vb, [[1.0], [2.0], [7.0]])


def test_fetching_a_list_is_an_internal_error():
    g = tf.Graph()
    with g.as_default():
        l0 = tf.raw_ops.TensorListFromTensor(tensor=[1.0], element_shape=-1)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InternalError,
                               match="Tensorflow type 21 not convertible to numpy dtype."):
                sess.run(l0)
