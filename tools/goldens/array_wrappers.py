import sys
import numpy as np
if sys.argv[1] == "tf":
    import tensorflow.compat.v1 as tf
    tf.disable_eager_execution()
else:
    import minitf as tf
def S(t):
    return None if t.shape.ndims is None else [(-1 if d is None else d) for d in t.shape.as_list()]
res = []
def rec(k, t):
    res.append((k, t.op.type, t.name, S(t), str(t.dtype.name)))
g = tf.Graph()
with g.as_default():
    x = tf.placeholder(tf.float32, [None, 3, 4], name="x")
    c = tf.constant(np.zeros((2, 3), np.float32), name="c")
    rec("shape_x", tf.shape(x)); rec("shape_c", tf.shape(c)); rec("shape_c64", tf.shape(c, out_type=tf.int64))
    rec("size_x", tf.size(x)); rec("size_c", tf.size(c)); rec("rank_x", tf.rank(x))
    rec("rank_u", tf.rank(tf.placeholder(tf.float32, name="u")))
    rec("expand", tf.expand_dims(x, 1)); rec("expand_dim", tf.expand_dims(x, dim=-1))
    rec("squeeze", tf.squeeze(tf.zeros([1, 2, 1]), [0])); rec("squeeze_dims", tf.squeeze(tf.zeros([1, 2, 1]), squeeze_dims=[2]))
    rec("transpose", tf.transpose(x)); rec("transpose_perm", tf.transpose(x, [1, 0, 2]))
    rec("concat", tf.concat([x, x], 1)); rec("concat1", tf.concat([x], 1))
    rec("stack", tf.stack([x, x], axis=-1)); rec("stack_const", tf.stack([1, 2]))
    for i, t in enumerate(tf.unstack(x, axis=2)): rec("unstack%d" % i, t)
    for i, t in enumerate(tf.split(x, 2, axis=2)): rec("split%d" % i, t)
    for i, t in enumerate(tf.split(x, [1, 2], 1)): rec("splitv%d" % i, t)
    rec("tile", tf.tile(x, [1, 2, 3])); rec("fill", tf.fill([2, 3], 7))
    rec("zeros", tf.zeros([2, 3])); rec("zeros_big", tf.zeros([50, 50], tf.int32)); rec("zeros_t", tf.zeros(tf.shape(x)))
    rec("ones", tf.ones([2], tf.bool)); rec("ones_big", tf.ones([1000]))
    rec("zeros_like", tf.zeros_like(x)); rec("zeros_like_c", tf.zeros_like(c)); rec("zeros_like_dt", tf.zeros_like(x, dtype=tf.int32))
    rec("ones_like", tf.ones_like(x)); rec("ones_like_c", tf.ones_like(c, dtype=tf.int64))
    rec("range", tf.range(5)); rec("range2", tf.range(1, 5, 2)); rec("range_f", tf.range(1, 5.0)); rec("range_dt", tf.range(3, dtype=tf.float64))
    rec("range_t", tf.range(tf.constant(3, tf.int64)))
    rec("bto", tf.broadcast_to([1, 2], [3, 2])); rec("rev", tf.reverse(x, [1])); rec("bitcast", tf.bitcast(x, tf.int32))
    rec("idn", tf.identity_n([x, c])[1]); rec("stopg", tf.stop_gradient(x)); rec("chk", tf.check_numerics(x, "m"))
    y, idx = tf.unique([1, 1, 2]); rec("unique_y", y); rec("unique_idx", idx)
    a = tf.Assert(True, [x]); res.append(("assert", a.type, a.name, None, None))
    a = tf.debugging.Assert(True, [1], name="chk2"); res.append(("assert2", a.type, a.name, None, None))
for r in res: print(*r)
