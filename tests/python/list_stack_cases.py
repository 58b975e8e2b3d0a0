"""TensorList and Stack programs over the raw ops (tf.raw_ops), run on TensorFlow 2.21 by
tools/gen_tensor_array_expected.py and replayed on minitf by tests/python/test_list_ops.py and
test_stack_ops.py: values, static shapes and TensorFlow's error messages."""
import numpy as np

from state_cases import val
from tensor_array_cases import ta_error


def _run(tf, fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


def list_basic(tf):
    R = tf.raw_ops
    g = tf.Graph()
    with g.as_default():
        x = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2))
        l0 = R.TensorListFromTensor(tensor=x, element_shape=[2])
        l1 = R.TensorListPushBack(input_handle=l0, tensor=[6.0, 7.0])
        l2, last = R.TensorListPopBack(input_handle=l1, element_shape=-1, element_dtype=tf.float32)
        l3 = R.TensorListSetItem(input_handle=l1, index=0, item=[-1.0, -2.0])
        st = R.TensorListStack(input_handle=l3, element_shape=[2], element_dtype=tf.float32)
        st_old = R.TensorListStack(input_handle=l1, element_shape=[2], element_dtype=tf.float32)
        ga = R.TensorListGather(input_handle=l3, indices=[3, 1], element_shape=[2],
                                element_dtype=tf.float32)
        n = R.TensorListLength(input_handle=l2)
        es = R.TensorListElementShape(input_handle=l0, shape_type=tf.int32)
        res = R.TensorListReserve(element_shape=[2], num_elements=3, element_dtype=tf.float32)
        res = R.TensorListSetItem(input_handle=res, index=1, item=[5.0, 5.0])
        st_res = R.TensorListStack(input_handle=res, element_shape=-1, element_dtype=tf.float32)
        item_unset = R.TensorListGetItem(input_handle=res, index=2, element_shape=-1,
                                         element_dtype=tf.float32)
        grown = R.TensorListSetItem(input_handle=res, index=5, item=[1.0, 1.0],
                                    resize_if_index_out_of_bounds=True)
        n_grown = R.TensorListLength(input_handle=grown)
        rs = R.TensorListResize(input_handle=l0, size=1)
        st_rs = R.TensorListStack(input_handle=rs, element_shape=-1, element_dtype=tf.float32)
        sc = R.TensorListScatterV2(tensor=x, indices=[4, 0, 2], element_shape=[2], num_elements=-1)
        st_sc = R.TensorListStack(input_handle=sc, element_shape=-1, element_dtype=tf.float32)
        sc2 = R.TensorListScatterIntoExistingList(input_handle=l0, tensor=[[9.0, 9.0]],
                                                  indices=[1])
        st_sc2 = R.TensorListStack(input_handle=sc2, element_shape=-1, element_dtype=tf.float32)
        sp = R.TensorListSplit(tensor=tf.constant([[1.0], [2.0], [3.0]]), element_shape=[-1, 1],
                               lengths=tf.constant([1, 2], tf.int64))
        cc, lens = R.TensorListConcatV2(input_handle=sp, element_shape=[-1, 1],
                                        leading_dims=tf.constant([], tf.int64),
                                        element_dtype=tf.float32)
        fetch = [st, st_old, last, ga, n, es, st_res, item_unset, n_grown, st_rs, st_sc, st_sc2,
                 cc, lens]
        out = {"values": [val(v) for v in _run(tf, fetch)],
               "shapes": [str(t.shape) for t in fetch]}
        return out


def list_errors(tf):
    R = tf.raw_ops
    g = tf.Graph()
    with g.as_default():
        e = R.EmptyTensorList(element_shape=[2], max_num_elements=1, element_dtype=tf.float32)
        l1 = R.TensorListPushBack(input_handle=e, tensor=[1.0, 2.0])
        cases = {
            "pop_empty": R.TensorListPopBack(input_handle=e, element_shape=-1,
                                             element_dtype=tf.float32)[1],
            "full": R.TensorListLength(input_handle=R.TensorListPushBack(input_handle=l1,
                                                                         tensor=[1.0, 2.0])),
            "bad_shape": R.TensorListLength(input_handle=R.TensorListPushBack(
                input_handle=e, tensor=[1.0, 2.0, 3.0])),
            "get_oob": R.TensorListGetItem(input_handle=l1, index=3, element_shape=-1,
                                           element_dtype=tf.float32),
            "set_oob": R.TensorListLength(input_handle=R.TensorListSetItem(
                input_handle=l1, index=2, item=[0.0, 0.0])),
            "stack_num": R.TensorListStack(input_handle=l1, element_shape=-1,
                                           element_dtype=tf.float32, num_elements=3),
            "unset_unknown": R.TensorListGetItem(
                input_handle=R.TensorListReserve(element_shape=-1, num_elements=2,
                                                 element_dtype=tf.float32),
                index=0, element_shape=-1, element_dtype=tf.float32),
            "reserve_negative": R.TensorListLength(input_handle=R.TensorListReserve(
                element_shape=-1, num_elements=-1, element_dtype=tf.float32)),
            "from_scalar": R.TensorListLength(input_handle=R.TensorListFromTensor(
                tensor=1.0, element_shape=-1)),
            "scatter_past_size": R.TensorListLength(input_handle=R.TensorListScatterV2(
                tensor=[[1.0]], indices=[4], element_shape=-1, num_elements=2)),
            "split_sum": R.TensorListLength(input_handle=R.TensorListSplit(
                tensor=[1.0, 2.0], element_shape=-1, lengths=tf.constant([1, 2], tf.int64))),
        }
        with tf.Session() as sess:
            return {k: ta_error(lambda t=t: sess.run(t)) for k, t in cases.items()}


def stack_basic(tf):
    R = tf.raw_ops
    g = tf.Graph()
    with g.as_default():
        h = R.StackV2(max_size=-1, elem_type=tf.float32, stack_name="s")
        p1 = R.StackPushV2(handle=h, elem=[1.0, 2.0])
        with tf.control_dependencies([p1]):
            p2 = R.StackPushV2(handle=h, elem=[3.0, 4.0], swap_memory=True)
        with tf.control_dependencies([p2]):
            a = R.StackPopV2(handle=h, elem_type=tf.float32)
        with tf.control_dependencies([a]):
            b = R.StackPopV2(handle=h, elem_type=tf.float32)
        with tf.control_dependencies([b]):
            c = R.StackPopV2(handle=h, elem_type=tf.float32)
        h2 = R.StackV2(max_size=1, elem_type=tf.float32)
        q1 = R.StackPushV2(handle=h2, elem=1.0)
        with tf.control_dependencies([q1]):
            q2 = R.StackPushV2(handle=h2, elem=2.0)
        with tf.control_dependencies([q2]):  # a pop keeps Grappler from removing the pushes
            q3 = R.StackPopV2(handle=h2, elem_type=tf.float32)
        h3 = R.StackV2(max_size=-1, elem_type=tf.float32)
        close = R.StackCloseV2(handle=h3)
        with tf.control_dependencies([close]):
            after = R.StackPushV2(handle=h3, elem=1.0)
        with tf.control_dependencies([after]):
            after_pop = R.StackPopV2(handle=h3, elem_type=tf.float32)
        with tf.Session() as sess:
            out = {"pops": [val(v) for v in sess.run([p2, a, b])],
                   "push_shape": str(p1.shape), "pop_shape": str(a.shape),
                   "empty": ta_error(lambda: sess.run(c)),
                   "overflow": ta_error(lambda: sess.run(q3)),
                   "closed": ta_error(lambda: sess.run(after_pop))}
        return out


LIST_CASES = {f.__name__: f for f in [list_basic, list_errors]}
STACK_CASES = {f.__name__: f for f in [stack_basic]}
