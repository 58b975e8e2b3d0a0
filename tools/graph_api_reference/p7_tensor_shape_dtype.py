import tensorflow as tf1
tf = tf1.compat.v1
import numpy as np
TS, D = tf.TensorShape, tf.Dimension
def show(label, f):
    try: r = f(); print(label, "=>", repr(r), "|", str(r))
    except Exception as e: print(label, "!!", type(e).__name__, e)
cases = [
 ("unk", lambda: TS(None)), ("s", lambda: TS([None, 3])), ("s1", lambda: TS([2])), ("s0", lambda: TS([])),
 ("ndims", lambda: TS(None).ndims), ("rank", lambda: TS([1, None]).rank),
 ("dims", lambda: TS([1, None]).dims), ("dimsunk", lambda: TS(None).dims),
 ("merge", lambda: TS([None, 3]).merge_with([2, None])), ("merge_bad", lambda: TS([1, 3]).merge_with([2, 3])),
 ("merge_rank", lambda: TS([1]).merge_with([1, 2])),
 ("concat", lambda: TS([1]).concatenate([2, None])), ("concat_unk", lambda: TS([1]).concatenate(None)),
 ("compat", lambda: TS([None, 3]).is_compatible_with([2, 3])), ("compat2", lambda: TS([1, 3]).is_compatible_with([2, 3])),
 ("fully", lambda: TS([1, None]).is_fully_defined()), ("aslist_unk", lambda: TS(None).as_list()),
 ("num", lambda: TS([2, 3]).num_elements()), ("num_unk", lambda: TS([2, None]).num_elements()),
 ("msc", lambda: TS([1, 2, 3]).most_specific_compatible_shape([1, 5, 3])), ("msc_rank", lambda: TS([1]).most_specific_compatible_shape([1, 2])),
 ("with_rank", lambda: TS(None).with_rank(2)), ("with_rank_bad", lambda: TS([1]).with_rank(2)),
 ("with_rank_at_least", lambda: TS([1, 2]).with_rank_at_least(3)), ("with_rank_at_least_ok", lambda: TS([1, 2]).with_rank_at_least(1)),
 ("with_rank_at_most", lambda: TS([1, 2]).with_rank_at_most(1)),
 ("getitem", lambda: TS([1, None, 3])[1]), ("slice", lambda: TS([1, None, 3])[1:]), ("unk_slice", lambda: TS(None)[1:3]),
 ("unk_item", lambda: TS(None)[0]), ("eq", lambda: TS([1, None]) == TS([1, None])), ("eq2", lambda: TS([1, 2]) == [1, 2]),
 ("equnk", lambda: TS(None) == TS(None)), ("ne", lambda: TS([1]) != TS([2])),
 ("len_unk", lambda: len(TS(None))), ("assert_fd", lambda: TS([None]).assert_is_fully_defined()),
 ("assert_compat", lambda: TS([1]).assert_is_compatible_with([2])), ("assert_same_rank", lambda: TS([1]).assert_same_rank([1, 2])),
 ("assert_has_rank", lambda: TS([1]).assert_has_rank(2)),
 ("as_proto", lambda: TS([None, 2]).as_proto()), ("from_proto", lambda: TS(TS([None, 2]).as_proto())),
 ("str_unk_dim", lambda: TS([None])), ("bad", lambda: TS("ab")), ("neg", lambda: TS([-2])),
 ("D", lambda: D(3)), ("Dn", lambda: D(None)), ("Dadd", lambda: D(3) + 2), ("Dadd_n", lambda: D(None) + 2),
 ("Dsub", lambda: D(3) - D(1)), ("Dmul", lambda: 2 * D(3)), ("Dfloordiv", lambda: D(7) // 2), ("Dmod", lambda: D(7) % 3),
 ("Deq", lambda: D(3) == 3), ("Deqn", lambda: D(None) == 3), ("Dlt", lambda: D(3) < 4), ("Dmerge", lambda: D(None).merge_with(4)),
 ("Dmerge_bad", lambda: D(3).merge_with(4)), ("Dcompat", lambda: D(3).is_compatible_with(None)),
 ("Dneg", lambda: D(-1)), ("Dbad", lambda: D("a")), ("Dint", lambda: int(D(3))), ("Dvalue", lambda: D(3).value),
 ("Dassert", lambda: D(3).assert_is_compatible_with(4)), ("Dtruediv", lambda: D(6) / 2),
 ("add", lambda: TS([1]) + TS([2])), ("radd", lambda: [1] + TS([2])),
 ("iter", lambda: list(TS([1, None]))), ("bool", lambda: bool(TS([]))), ("bool_unk", lambda: bool(TS(None))),
]
for c in cases: show(*c)
tf.disable_v2_tensorshape()
print("---- v1")
for c in [("getitem", lambda: TS([1, None, 3])[1]), ("iter", lambda: list(TS([1, None]))), ("dims", lambda: TS([1, None]).dims), ("unk_item", lambda: TS(None)[0]), ("s", lambda: TS([None, 3])), ("as_list", lambda: TS([None, 3]).as_list())]:
    show(*c)
tf.enable_v2_tensorshape()
print("---- dtypes")
names = ["float16","float32","float64","bfloat16","complex64","complex128","int8","int16","int32","int64","uint8","uint16","uint32","uint64","bool","string","qint8","quint8","qint16","quint16","qint32","resource","variant"]
for n in names:
    d = tf.as_dtype(n)
    r = d._as_ref if hasattr(d, "_as_ref") else None
    vals = []
    for attr in ["as_datatype_enum", "size", "is_floating", "is_integer", "is_complex", "is_quantized", "is_bool", "is_unsigned", "is_numpy_compatible"]:
        try: vals.append(getattr(d, attr))
        except Exception as e: vals.append(type(e).__name__)
    for attr in ["min", "max"]:
        try: vals.append(getattr(d, attr))
        except Exception as e: vals.append("%s:%s" % (type(e).__name__, e))
    try: npd = d.as_numpy_dtype; npn = getattr(npd, "__name__", str(npd))
    except Exception as e: npn = type(e).__name__
    print(n, repr(d), str(d), d.name, d.base_dtype.name, d.real_dtype.name, npn, vals, repr(r), r.name, r.as_datatype_enum, r.base_dtype.name, r.is_floating, r.size)
for v in ["float", "double", "half", "float32_ref", "int32_ref", np.float32, np.dtype("int64"), 1, 101, float, bool, int, str, bytes, object, np.bool_, "bfloat16", types := None]:
    show("as_dtype %r" % (v,), lambda: tf.as_dtype(v))
from tensorflow.core.framework import types_pb2
show("as_dtype enum", lambda: tf.as_dtype(types_pb2.DT_HALF))
for a, b in [(tf.float32, tf.float32._as_ref), (tf.float32._as_ref, tf.float32), (tf.int32, tf.float32)]:
    print("compat", a.name, b.name, a.is_compatible_with(b))
print(tf.float32 == "float32", tf.float32 == np.float32, tf.float32 != tf.int32, tf.float32 == None, tf.float32 == "nope", hash(tf.float32) == hash(tf.float32))
print(tf.float32.limits, tf.uint8.limits, tf.bool.limits)
