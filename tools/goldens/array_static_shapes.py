import sys
import numpy as np
if sys.argv[1] == "tf":
    import tensorflow.compat.v1 as tf
    tf.disable_eager_execution()
else:
    import minitf as tf
R = tf.raw_ops
def S(t):
    return None if t.shape.ndims is None else [(-1 if d is None else d) for d in t.shape.as_list()]
out = {}
g = tf.Graph()
with g.as_default():
    x = tf.placeholder(tf.float32, [None, 3, 4])
    y = tf.placeholder(tf.float32, None)
    v = tf.placeholder(tf.int32, [3])
    vu = tf.placeholder(tf.int32, [None])
    sh = R.Shape(input=x)
    HAS_SS = hasattr(R, "StridedSlice") if sys.argv[1] != "tf" else True
    b0 = b2 = None
    if HAS_SS:
      b0 = R.StridedSlice(input=sh, begin=[0], end=[1], strides=[1], shrink_axis_mask=1)
      b2 = R.StridedSlice(input=sh, begin=[-1], end=[0], strides=[1], shrink_axis_mask=1)
    if HAS_SS: out["reshape_pack_shape"] = S(R.Reshape(tensor=x, shape=R.Pack(values=[b0, 12])))
    if HAS_SS: out["reshape_pack_neg"] = S(R.Reshape(tensor=x, shape=R.Pack(values=[b0, -1])))
    if HAS_SS: out["reshape_pack_last"] = S(R.Reshape(tensor=x, shape=R.Pack(values=[b2, -1])))
    out["reshape_shape"] = S(R.Reshape(tensor=y, shape=sh))
    out["reshape_vec3"] = S(R.Reshape(tensor=y, shape=v))
    out["reshape_vecu"] = S(R.Reshape(tensor=y, shape=vu))
    out["reshape_x_neg"] = S(R.Reshape(tensor=x, shape=[-1, 6]))
    out["reshape_x_12"] = S(R.Reshape(tensor=x, shape=[2, -1, 12]))
    out["fill_shape"] = S(R.Fill(dims=sh, value=1.0))
    out["fill_v"] = S(R.Fill(dims=v, value=1.0))
    out["fill_concat"] = S(R.Fill(dims=R.ConcatV2(values=[sh, [5]], axis=0), value=1.0))
    out["bt_shape"] = S(R.BroadcastTo(input=[[1.0], [2.0], [3.0]], shape=sh))
    out["bt_v"] = S(R.BroadcastTo(input=[1.0, 2.0], shape=v))
    out["bt_unk"] = S(R.BroadcastTo(input=y, shape=sh))
    out["tile_shape"] = S(R.Tile(input=x, multiples=sh))
    out["tile_v"] = S(R.Tile(input=x, multiples=v))
    out["tile_y"] = S(R.Tile(input=y, multiples=[2, 0]))
    out["tile_const"] = S(R.Tile(input=x, multiples=[2, 1, 3]))
    out["concat_unk_axis"] = S(R.ConcatV2(values=[x, x], axis=tf.placeholder(tf.int32, [])))
    out["concat_unk_rank"] = S(R.ConcatV2(values=[y, x], axis=1))
    out["concat_unk_both"] = S(R.ConcatV2(values=[y, y], axis=0))
    out["concat_neg"] = S(R.ConcatV2(values=[x, x], axis=-3))
    out["pack_unk"] = S(R.Pack(values=[y, x], axis=-1))
    out["unpack_unk"] = S(R.Unpack(value=y, num=2)[0])
    out["split_unk_dim"] = S(R.Split(axis=tf.placeholder(tf.int32, []), value=x, num_split=2)[0])
    out["split_unk_val"] = S(R.Split(axis=0, value=y, num_split=2)[0])
    out["split_none"] = S(R.Split(axis=0, value=x, num_split=2)[0])
    out["splitv_unk_sizes"] = S(R.SplitV(value=x, size_splits=vu, axis=1, num_split=2)[1])
    out["splitv_neg1_unk"] = S(R.SplitV(value=x, size_splits=[1, -1], axis=0, num_split=2)[1])
    out["squeeze_unk"] = S(R.Squeeze(input=tf.placeholder(tf.float32, [1, None, 2])))
    out["squeeze_unk_dims"] = S(R.Squeeze(input=tf.placeholder(tf.float32, [1, None, 2]), axis=[1]))
    out["expand_unk"] = S(R.ExpandDims(input=y, axis=0))
    out["expand_unkdim"] = S(R.ExpandDims(input=x, axis=tf.placeholder(tf.int32, [])))
    out["transpose_unk_perm"] = S(R.Transpose(x=x, perm=v))
    out["transpose_unk_x"] = S(R.Transpose(x=y, perm=[1, 0, 2]))
    out["transpose_unk_x1"] = S(R.Transpose(x=y, perm=[0]))
    out["transpose_unk_both"] = S(R.Transpose(x=y, perm=vu))
    out["transpose_v"] = S(R.Transpose(x=y, perm=v))
    out["range_const"] = S(R.Range(start=1, limit=10, delta=4))
    out["range_fold"] = S(R.Range(start=0, limit=R.Size(input=tf.placeholder(tf.float32, [2, 3])), delta=1))
    out["bitcast_unk"] = S(R.Bitcast(input=tf.placeholder(tf.float32, [None, None]), type=tf.float64))
    out["bitcast_wide"] = S(R.Bitcast(input=tf.placeholder(tf.float64, [None]), type=tf.int8))
    out["bargs"] = S(R.BroadcastArgs(s0=v, s1=vu))
    out["unique"] = S(R.Unique(x=vu)[1])
    out["shapen"] = S(R.ShapeN(input=[x, y])[1])
    out["reverse_unk"] = S(R.ReverseV2(tensor=y, axis=[0]))
    out["zeros_like_partial"] = S(tf.zeros_like(x))
    out["ones_like_partial"] = S(tf.ones_like(x))
    if HAS_SS: out["tf_stack_shape"] = S(tf.reshape(x, tf.stack([tf.shape(x)[0], 12])) if sys.argv[1] == "tf" else R.Reshape(tensor=x, shape=R.Pack(values=[b0, 12])))
for k in sorted(out): print(k, out[k])
