import numpy as np
import tensorflow as tf1
tf = tf1.compat.v1
tf.disable_eager_execution()
from tensorflow.python.framework import tensor_util
def dump(g, start):
    for op in g.get_operations()[start:]:
        a = ""
        if op.type == "Const": a = tensor_util.MakeNdarray(op.get_attr("value")).tolist()
        elif op.type == "StridedSlice": a = [op.get_attr(k) for k in ("begin_mask","end_mask","ellipsis_mask","new_axis_mask","shrink_axis_mask")] + [op.get_attr("Index").name]
        elif op.type == "Pack": a = [op.get_attr("N"), op.get_attr("axis")]
        print("  ", op.name, op.type, [t.name for t in op.inputs], a, [str(t.shape) for t in op.outputs])
g = tf.Graph()
with g.as_default():
    foo = tf.constant([[1,2,3],[4,5,6],[7,8,9]], name="foo")
    x = tf.placeholder(tf.float32, [2, None, 4, 5], name="x")
    k = tf.placeholder(tf.int32, [], name="k")
    k64 = tf.placeholder(tf.int64, [], name="k64")
    cases = {"foo[::2, ::-1]": lambda: foo[::2, ::-1], "foo[1]": lambda: foo[1], "foo[-1, 1:]": lambda: foo[-1, 1:],
             "x[...,1]": lambda: x[..., 1], "x[tf.newaxis, :, 0]": lambda: x[tf.newaxis, :, 0], "x[1:-1:2, ..., None]": lambda: x[1:-1:2, ..., None],
             "x[:]": lambda: x[:], "foo[k]": lambda: foo[k], "foo[k:, 1]": lambda: foo[k:, 1], "foo[k64]": lambda: foo[k64],
             "foo[()]": lambda: foo[()], "x[0,0,0,0]": lambda: x[0,0,0,0], "foo[::-1]": lambda: foo[::-1], "foo[np.int64(1)]": lambda: foo[np.int64(1)],
             "foo[1.5]": lambda: foo[1.5], "foo['a']": lambda: foo['a'], "foo[[1,2]]": lambda: foo[[1,2]], "foo[3]": lambda: foo[3], "foo[1:2:0]": lambda: foo[1:2:0],
             "foo[...,...]": lambda: foo[..., ...]}
    for k_, f in cases.items():
        n = len(g.get_operations())
        try:
            t = f(); print(k_, "->", t)
        except Exception as ex: print(k_, type(ex).__name__, ex)
        dump(g, n)
    with tf.Session() as s:
        print(s.run(foo[::2, ::-1]).tolist(), s.run(foo[-1, 1:]).tolist(), s.run(foo[::-1, 0]).tolist(), s.run(foo[k:, 1], {k: 1}).tolist(), s.run(foo[1:, tf.newaxis, ...]).tolist())
