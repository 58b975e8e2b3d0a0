"""Goldens for the array family (runtime/kernels/array_ops.c): shapes, reshaping, concat/split,
tile/broadcast, transpose, reverse, range, fill, bitcast, identities, CheckNumerics, Assert,
Unique. Run with TensorFlow's interpreter from this directory:
``/opt/tfvenv/bin/python gen_array.py``."""
import numpy as np

from golden_lib import Const, Family, tf

f = Family("array")
bf16 = tf.bfloat16.as_numpy_dtype

# Every dtype TensorFlow's CPU kernels register for the type-agnostic movers.
ALL = ["float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64", "uint8",
       "uint16", "uint32", "uint64", "bool", "complex64", "complex128", "string"]


def arr(shape, dt, start=0):
    """Distinct, readable values of `dt` with `shape` (strings "s0", "s1", ...)."""
    n = int(np.prod(shape)) if shape else 1
    v = np.arange(start, start + n)
    if dt == "string":
        return np.array([b"s%d" % i for i in v], dtype=object).reshape(shape)
    if dt == "bool":
        return (v % 2 == 1).reshape(shape)
    if dt.startswith("complex"):
        return (v + 1j * (v % 3)).astype(dt).reshape(shape)
    if dt == "bfloat16":
        return v.astype(np.float32).astype(bf16).reshape(shape)
    if dt.startswith("float"):
        return (v * 0.5 - 1).astype(dt).reshape(shape)
    return v.astype(dt).reshape(shape)


def i32(*v):
    return Const(np.int32(list(v) if len(v) != 1 or isinstance(v[0], list) else v[0]))


# ---- Shape, ShapeN, Size, Rank ----
for dt in ALL:
    f.case("Shape", [("input", arr([2, 3], dt))], name="Shape_" + dt)
f.case("Shape", [("input", arr([2, 0, 3], "float32"))], {"out_type": tf.int64})
f.case("Shape", [("input", np.float32(3))])
f.case("ShapeN", [("input", [arr([2, 3], "int32"), arr([4], "int32"), arr([], "int32")])],
       {"out_type": tf.int64})
f.case("Size", [("input", arr([2, 3, 4], "string"))])
f.case("Size", [("input", arr([2, 0], "float32"))], {"out_type": tf.int64})
f.case("Size", [("input", np.float32(1))])
f.case("Rank", [("input", arr([2, 3, 1], "bool"))])
f.case("Rank", [("input", np.int8(1))])

# ---- Reshape ----
for dt in ["float16", "bfloat16", "string", "complex64", "bool"]:
    f.case("Reshape", [("tensor", arr([2, 3], dt)), ("shape", i32([3, -1]))], name="Reshape_" + dt)
f.case("Reshape", [("tensor", arr([0, 3], "float32")), ("shape", i32([-1, 0]))])
f.case("Reshape", [("tensor", arr([6], "int64")), ("shape", Const(np.int64([-1, -1])))])
f.case("Reshape", [("tensor", arr([6], "int64")), ("shape", i32([-2, 3]))])
f.case("Reshape", [("tensor", arr([6], "int64")), ("shape", np.int32([4, 2]))])
f.case("Reshape", [("tensor", arr([6], "int64")), ("shape", np.int32([-1, 4]))])
f.case("Reshape", [("tensor", arr([2, 3], "float32")), ("shape", i32([]))])

# ---- ExpandDims, Squeeze ----
for dt in ALL:
    f.case("ExpandDims", [("input", arr([2, 3], dt)), ("axis", i32(-1))], name="ExpandDims_" + dt)
f.case("ExpandDims", [("input", arr([2, 3], "float32")), ("axis", Const(np.int64(0)))])
f.case("ExpandDims", [("input", np.float32(2)), ("axis", i32(0))])
f.case("ExpandDims", [("input", arr([2, 3], "float32")), ("axis", i32(-3))])
f.case("ExpandDims", [("input", arr([2, 3], "float32")), ("axis", i32(3))])
f.case("ExpandDims", [("input", arr([2, 3], "float32")), ("axis", i32(-4))])
f.case("ExpandDims", [("input", arr([2, 3], "float32")), ("axis", i32([0, 1]))])
f.case("ExpandDims", [("input", arr([2, 3], "float32")), ("axis", np.int32(5))])
f.case("ExpandDims", [("input", arr([2, 3], "float32")), ("axis", np.int32([1, 2]))])
for dt in ALL:
    f.case("Squeeze", [("input", arr([1, 2, 1, 3, 1], dt))], name="Squeeze_" + dt)
f.case("Squeeze", [("input", arr([1, 2, 1], "int32"))], {"axis": [-1]})
f.case("Squeeze", [("input", arr([1, 2, 1], "int32"))], {"axis": [0, 2]})
f.case("Squeeze", [("input", arr([1, 1], "int32"))], {"axis": [0, -2]})
f.case("Squeeze", [("input", arr([1, 2, 1], "int32"))], {"axis": [1]})
f.case("Squeeze", [("input", arr([1, 2, 1], "int32"))], {"axis": [3]})
f.case("Squeeze", [("input", arr([1, 2, 1], "int32"))], {"axis": [-4]})
f.case("Squeeze", [("input", arr([2, 0, 1], "float32"))])
f.case("Squeeze", [("input", np.float32(1))])

# ---- Transpose ----
for dt in ALL:
    f.case("Transpose", [("x", arr([2, 3], dt)), ("perm", i32([1, 0]))], name="Transpose_" + dt)
    f.case("Transpose", [("x", arr([2, 3, 4], dt)), ("perm", i32([0, 2, 1]))],
           name="Transpose3_" + dt)
f.case("Transpose", [("x", arr([2, 3, 4, 5], "float32")), ("perm", i32([0, 2, 3, 1]))],
       name="Transpose_NCHW_to_NHWC")
f.case("Transpose", [("x", arr([2, 3, 4, 5], "float32")), ("perm", i32([0, 3, 1, 2]))],
       name="Transpose_NHWC_to_NCHW")
f.case("Transpose", [("x", arr([2, 3, 4, 5], "int64")), ("perm", Const(np.int64([3, 1, 2, 0])))])
f.case("Transpose", [("x", arr([2, 3, 4], "float64")), ("perm", i32([2, 0, 1]))])
f.case("Transpose", [("x", arr([2, 3, 4], "float64")), ("perm", i32([1, 2, 0]))])
f.case("Transpose", [("x", arr([33, 65], "float32")), ("perm", i32([1, 0]))], name="Transpose_big")
f.case("Transpose", [("x", arr([3, 17, 40], "float16")), ("perm", i32([0, 2, 1]))],
       name="Transpose_big_half")
f.case("Transpose", [("x", arr([2, 3, 4], "float32")), ("perm", i32([0, 1, 2]))])
f.case("Transpose", [("x", arr([2, 0, 4], "float32")), ("perm", i32([2, 1, 0]))])
f.case("Transpose", [("x", np.float32(5)), ("perm", i32([]))])
f.case("Transpose", [("x", arr([2, 3], "float32")), ("perm", i32([-1, 0]))])
f.case("Transpose", [("x", arr([2, 3], "float32")), ("perm", i32([1, 1]))])
f.case("Transpose", [("x", arr([2, 3], "float32")), ("perm", i32([2, 0]))])
f.case("Transpose", [("x", arr([2, 3], "float32")), ("perm", i32([0]))])
f.case("Transpose", [("x", arr([2, 3], "float32")), ("perm", np.int32([1, 0]))])
f.case("Transpose", [("x", arr([2, 3], "float32")), ("perm", np.int32([1, 1]))])
f.case("Transpose", [("x", arr([2, 3], "float32")), ("perm", np.int32([5, 0]))])

# ---- ConcatV2, Pack, Unpack ----
for dt in ALL:
    f.case("ConcatV2", [("values", [arr([2, 3], dt), arr([2, 2], dt, 10)]), ("axis", i32(1))],
           name="ConcatV2_" + dt)
    f.case("Pack", [("values", [arr([2, 3], dt), arr([2, 3], dt, 10)])], {"axis": 1},
           name="Pack_" + dt)
    f.case("Unpack", [("value", arr([2, 3], dt))], {"num": 3, "axis": -1}, name="Unpack_" + dt)
f.case("ConcatV2", [("values", [arr([2, 3], "float32"), arr([1, 3], "float32"),
                                arr([0, 3], "float32")]), ("axis", i32(0))])
f.case("ConcatV2", [("values", [arr([2, 3, 2], "int32"), arr([2, 1, 2], "int32")]),
                    ("axis", Const(np.int64(-2)))])
f.case("ConcatV2", [("values", [arr([2, 0], "float32"), arr([2, 0], "float32")]),
                    ("axis", i32(1))])
f.case("ConcatV2", [("values", [arr([2, 3], "float32"), arr([2, 2], "float32")]),
                    ("axis", i32(0))])
f.case("ConcatV2", [("values", [arr([2, 3], "float32"), arr([3], "float32")]), ("axis", i32(0))])
f.case("ConcatV2", [("values", [arr([2, 3], "float32"), arr([2, 3], "float32")]),
                    ("axis", i32(2))])
f.case("ConcatV2", [("values", [arr([2, 3], "float32"), arr([2, 3], "float32")]),
                    ("axis", i32(-3))])
f.case("ConcatV2", [("values", [np.float32(1), np.float32(2)]), ("axis", i32(0))])
f.case("ConcatV2", [("values", [arr([2, 3], "float32"), arr([2, 4], "float32")]),
                    ("axis", np.int32(1))])
f.case("ConcatV2", [("values", [arr([2, 3], "float32"), arr([2, 4], "float32")]),
                    ("axis", np.int32(0))])
f.case("Pack", [("values", [np.int32(1), np.int32(2), np.int32(3)])])
f.case("Pack", [("values", [arr([2, 3], "float32")])], {"axis": -3})
f.case("Pack", [("values", [arr([0, 3], "float32"), arr([0, 3], "float32")])], {"axis": 2})
f.case("Pack", [("values", [arr([2, 3], "float32"), arr([3, 2], "float32")])])
f.case("Pack", [("values", [arr([2, 3], "float32"), arr([2, 3], "float32")])], {"axis": 3})
f.case("Pack", [("values", [arr([2, 3], "float32"), arr([2, 3], "float32")])], {"axis": -4})
f.case("Unpack", [("value", arr([3, 2], "int64"))], {"num": 3})
f.case("Unpack", [("value", arr([2, 0], "float32"))], {"num": 2})
f.case("Unpack", [("value", arr([0, 2], "float32"))], {"num": 0})
f.case("Unpack", [("value", arr([2, 3], "float32"))], {"num": 2, "axis": 1})
f.case("Unpack", [("value", arr([2, 3], "float32"))], {"num": 2, "axis": 2})

# ---- Split, SplitV ----
for dt in ALL:
    f.case("Split", [("axis", i32(1)), ("value", arr([2, 4], dt))], {"num_split": 2},
           name="Split_" + dt)
    f.case("SplitV", [("value", arr([2, 5], dt)), ("size_splits", Const(np.int64([1, -1, 2]))),
                      ("axis", i32(-1))], {"num_split": 3}, name="SplitV_" + dt)
f.case("Split", [("axis", i32(0)), ("value", arr([6, 2], "float32"))], {"num_split": 3})
f.case("Split", [("axis", i32(-2)), ("value", arr([4, 2], "int32"))], {"num_split": 1})
f.case("Split", [("axis", i32(1)), ("value", arr([2, 0], "float32"))], {"num_split": 2})
f.case("Split", [("axis", i32(1)), ("value", arr([2, 3], "float32"))], {"num_split": 2})
f.case("Split", [("axis", i32(2)), ("value", arr([2, 3], "float32"))], {"num_split": 3})
f.case("Split", [("axis", np.int32(1)), ("value", arr([2, 3], "float32"))],
       {"num_split": 2})
f.case("Split", [("axis", np.int32(-3)), ("value", arr([2, 3], "float32"))],
       {"num_split": 2})
f.case("SplitV", [("value", arr([5, 2], "float32")), ("size_splits", Const(np.int32([2, 0, 3]))),
                  ("axis", i32(0))], {"num_split": 3})
f.case("SplitV", [("value", arr([5, 2], "float32")), ("size_splits", np.int8([5])),
                  ("axis", i32(0))], {"num_split": 1})
f.case("SplitV", [("value", arr([5, 2], "float32")), ("size_splits", Const(np.int32([-1, -1]))),
                  ("axis", i32(0))], {"num_split": 2})
f.case("SplitV", [("value", arr([5, 2], "float32")), ("size_splits", Const(np.int32([2, 2]))),
                  ("axis", i32(0))], {"num_split": 2})
f.case("SplitV", [("value", arr([5, 2], "float32")), ("size_splits", Const(np.int32([6, -1]))),
                  ("axis", i32(0))], {"num_split": 2})
f.case("SplitV", [("value", arr([5, 2], "float32")), ("size_splits", Const(np.int32([1, -3, 7]))),
                  ("axis", i32(0))], {"num_split": 3})
f.case("SplitV", [("value", arr([5, 2], "float32")), ("size_splits", Const(np.int32([1, 4]))),
                  ("axis", i32(0))], {"num_split": 3})
f.case("SplitV", [("value", arr([5, 2], "float32")), ("size_splits", np.int32([2, 2])),
                  ("axis", i32(0))], {"num_split": 2})
f.case("SplitV", [("value", arr([5, 2], "float32")), ("size_splits", np.int32([-1, -1])),
                  ("axis", i32(0))], {"num_split": 2})
f.case("SplitV", [("value", arr([5, 2], "float32")), ("size_splits", np.int32([1, -2, 6])),
                  ("axis", i32(0))], {"num_split": 3})
f.case("SplitV", [("value", arr([5, 2], "float32")), ("size_splits", np.int32([2, 3])),
                  ("axis", np.int32(0))], {"num_split": 2})
f.case("SplitV", [("value", np.float32(1)), ("size_splits", np.int32([1])),
                  ("axis", i32(0))], {"num_split": 1})

# ---- Tile, BroadcastTo, BroadcastArgs, Fill ----
for dt in ALL:
    f.case("Tile", [("input", arr([2, 3], dt)), ("multiples", i32([2, 2]))], name="Tile_" + dt)
    f.case("BroadcastTo", [("input", arr([3], dt)), ("shape", i32([2, 3]))],
           name="BroadcastTo_" + dt)
    f.case("Fill", [("dims", i32([2, 3])), ("value", arr([], dt, 3))], name="Fill_" + dt)
f.case("Tile", [("input", arr([2, 1, 3], "float32")), ("multiples", Const(np.int64([1, 4, 0])))])
f.case("Tile", [("input", arr([2, 3], "float32")), ("multiples", np.int32([3, 1]))])
f.case("Tile", [("input", np.float32(2)), ("multiples", i32([]))])
f.case("Tile", [("input", arr([2, 3], "float32")), ("multiples", i32([1, 2, 3]))])
f.case("Tile", [("input", arr([2, 3], "float32")), ("multiples", i32([1, -2]))])
f.case("Tile", [("input", arr([2, 3], "float32")), ("multiples", np.int32([1, -1]))])
f.case("Tile", [("input", arr([2, 3], "float32")), ("multiples", np.int32([1, 2, 3]))])
f.case("BroadcastTo", [("input", arr([2, 1], "float32")), ("shape", i32([3, 2, 4]))])
f.case("BroadcastTo", [("input", arr([2, 3], "int32")), ("shape", Const(np.int64([2, 3])))])
f.case("BroadcastTo", [("input", np.float64(7)), ("shape", i32([2, 0]))])
f.case("BroadcastTo", [("input", arr([1, 3], "float32")), ("shape", np.int32([2, 3]))])
f.case("BroadcastTo", [("input", arr([2, 3], "float32")), ("shape", i32([3, 3]))])
f.case("BroadcastTo", [("input", arr([2, 3], "float32")), ("shape", i32([3]))])
f.case("BroadcastTo", [("input", arr([2, 3], "float32")), ("shape", np.int32([3, 3]))])
f.case("BroadcastTo", [("input", arr([3], "float32")), ("shape", np.int32([1]))])
f.case("BroadcastTo", [("input", arr([2, 3], "float32")), ("shape", np.int32([3]))])
f.case("BroadcastTo", [("input", arr([2], "float32")), ("shape", np.int32([2, -1]))])
f.case("BroadcastArgs", [("s0", np.int32([2, 1, 3])), ("s1", np.int32([4, 1]))])
f.case("BroadcastArgs", [("s0", np.int64([5])), ("s1", np.int64([]))])
f.case("BroadcastArgs", [("s0", np.int32([2, 3])), ("s1", np.int32([4, 3]))])
f.case("BroadcastArgs", [("s0", Const(np.int32([2, 1]))), ("s1", Const(np.int32([1, 3])))])
f.case("Fill", [("dims", Const(np.int64([2, 0]))), ("value", np.float32(1))])
f.case("Fill", [("dims", i32([])), ("value", np.float32(1))])
f.case("Fill", [("dims", i32([2, -1])), ("value", np.float32(1))])
f.case("Fill", [("dims", np.int32([2, -1])), ("value", np.float32(1))])
f.case("Fill", [("dims", np.int32([2, 2])), ("value", np.float32([1]))])
f.case("Fill", [("dims", np.int32([2, 2])), ("value", np.float32([1, 2]))])
f.case("Fill", [("dims", np.int32([[2, 2]])), ("value", np.float32(1))])

# ---- ZerosLike, OnesLike ----
for dt in ALL:
    f.case("ZerosLike", [("x", arr([2, 3], dt, 1))], name="ZerosLike_" + dt)
    if dt != "string":
        f.case("OnesLike", [("x", arr([2, 3], dt))], name="OnesLike_" + dt)
f.case("OnesLike", [("x", arr([0, 3], "float32"))])
f.case("OnesLike", [("x", arr([2], "string"))])

# ---- Range ----
RANGE = ["bfloat16", "float16", "float32", "float64", "int8", "int16", "int32", "int64",
         "uint16", "uint32", "uint64"]
for dt in RANGE:
    t = np.dtype(bf16) if dt == "bfloat16" else np.dtype(dt)
    f.case("Range", [("start", np.array(1, t)), ("limit", np.array(11, t)),
                     ("delta", np.array(3, t))], name="Range_" + dt)
    f.case("Range", [("start", Const(np.array(1, t))), ("limit", Const(np.array(11, t))),
                     ("delta", Const(np.array(3, t)))], name="RangeConst_" + dt)
f.case("Range", [("start", np.float32(0)), ("limit", np.float32(10)), ("delta", np.float32(0.1))],
       rtol=0, atol=0)
f.case("Range", [("start", np.float64(1)), ("limit", np.float64(-1)),
                 ("delta", np.float64(-0.3))], rtol=0, atol=0)
f.case("Range", [("start", np.float16(0)), ("limit", np.float16(3)), ("delta", np.float16(0.1))],
       rtol=0, atol=0)
f.case("Range", [("start", Const(np.float32(0))), ("limit", Const(np.float32(1))),
                 ("delta", Const(np.float32(0.3)))])
f.case("Range", [("start", np.int32(10)), ("limit", np.int32(-3)), ("delta", np.int32(-4))])
f.case("Range", [("start", np.int32(3)), ("limit", np.int32(3)), ("delta", np.int32(1))])
f.case("Range", [("start", np.int8(-128)), ("limit", np.int8(127)), ("delta", np.int8(100))])
f.case("Range", [("start", np.int64(-2**62)), ("limit", np.int64(2**62)),
                 ("delta", np.int64(2**61))])
f.case("Range", [("start", np.int32(0)), ("limit", np.int32(5)), ("delta", np.int32(0))])
f.case("Range", [("start", np.int32(5)), ("limit", np.int32(1)), ("delta", np.int32(1))])
f.case("Range", [("start", np.int32(1)), ("limit", np.int32(5)), ("delta", np.int32(-1))])
f.case("Range", [("start", np.float32(1.5)), ("limit", np.float32(0.25)),
                 ("delta", np.float32(0.5))])
f.case("Range", [("start", np.float64(0)), ("limit", np.float64(1e300)),
                 ("delta", np.float64(1e-300))])
f.case("Range", [("start", i32(0)), ("limit", i32(5)), ("delta", i32(0))])
f.case("Range", [("start", i32(5)), ("limit", i32(1)), ("delta", i32(2))])
f.case("Range", [("start", i32(1)), ("limit", i32(5)), ("delta", i32(-2))])
f.case("Range", [("start", Const(np.float32(2.5))), ("limit", Const(np.float32(1))),
                 ("delta", Const(np.float32(0.5)))])
f.case("Range", [("start", np.int32([1])), ("limit", np.int32(5)), ("delta", np.int32(1))])
f.case("Range", [("start", np.int32([1, 2])), ("limit", np.int32(5)), ("delta", np.int32(1))])

# ---- ReverseV2 ----
REV = ["uint8", "int8", "uint16", "int16", "int32", "uint32", "int64", "uint64", "bool",
       "bfloat16", "float16", "float32", "float64", "complex64", "complex128", "string"]
for dt in REV:
    f.case("ReverseV2", [("tensor", arr([2, 3, 2], dt)), ("axis", i32([1]))],
           name="ReverseV2_" + dt)
f.case("ReverseV2", [("tensor", arr([2, 3, 4], "float32")), ("axis", i32([0, -1]))])
f.case("ReverseV2", [("tensor", arr([2, 3, 4], "float32")), ("axis", Const(np.int64([0, 1, 2])))])
f.case("ReverseV2", [("tensor", arr([2, 3], "float32")), ("axis", i32([]))])
f.case("ReverseV2", [("tensor", arr([2, 0], "float32")), ("axis", i32([0]))])
f.case("ReverseV2", [("tensor", np.float32(4)), ("axis", np.int32([]))])
f.case("ReverseV2", [("tensor", arr([2, 3], "float32")), ("axis", i32([2]))])
f.case("ReverseV2", [("tensor", arr([2, 3], "float32")), ("axis", i32([1, -1]))])
f.case("ReverseV2", [("tensor", arr([2, 3], "float32")), ("axis", np.int32([-3]))])
f.case("ReverseV2", [("tensor", arr([2, 3], "float32")), ("axis", np.int32([0, 0]))])
f.case("ReverseV2", [("tensor", arr([2, 3], "float32")), ("axis", np.int32([1]))])

# ---- Bitcast ----
f.case("Bitcast", [("input", np.float32([1, -2, 0.5]))], {"type": tf.int32})
f.case("Bitcast", [("input", np.float32([[1, 2], [3, 4]]))], {"type": tf.float64})
f.case("Bitcast", [("input", np.float64([1, -2]))], {"type": tf.uint8})
f.case("Bitcast", [("input", np.complex64([1 + 2j]))], {"type": tf.float32})
f.case("Bitcast", [("input", np.float16([1, 2]))], {"type": tf.int16})
f.case("Bitcast", [("input", np.uint8([[1, 2], [3, 4]]))], {"type": tf.uint16})
f.case("Bitcast", [("input", np.int64([1, 2]))], {"type": tf.complex128})
f.case("Bitcast", [("input", np.float32(3))], {"type": tf.uint32})
f.case("Bitcast", [("input", np.float32([1, 2, 3]))], {"type": tf.float64})
f.case("Bitcast", [("input", np.float32(1))], {"type": tf.float64})
f.case("Bitcast", [("input", np.int32([1]))], {"type": tf.string})

# ---- identities ----
for dt in ALL:
    f.case("Identity", [("input", arr([2], dt))], name="Identity_" + dt)
    f.case("Snapshot", [("input", arr([2, 1], dt))], name="Snapshot_" + dt)
f.case("IdentityN", [("input", [arr([2], "float32"), arr([], "string"), arr([1, 2], "bool")])])
f.case("StopGradient", [("input", arr([2, 2], "float16"))])
f.case("PreventGradient", [("input", arr([3], "int64"))], {"message": "no grads"})

# ---- CheckNumerics ----
for dt in ["bfloat16", "float16", "float32", "float64"]:
    t = np.dtype(bf16) if dt == "bfloat16" else np.dtype(dt)
    f.case("CheckNumerics", [("tensor", np.array([1, -2.5, 0], t))], {"message": "ok"},
           name="CheckNumerics_" + dt)
    f.case("CheckNumerics", [("tensor", np.array([1, np.nan], t))], {"message": "x"},
           name="CheckNumericsNaN_" + dt)
    f.case("CheckNumerics", [("tensor", np.array([[np.inf], [1]], t))], {"message": "bad y"},
           name="CheckNumericsInf_" + dt)
    f.case("CheckNumerics", [("tensor", np.array([-np.inf, np.nan], t))], {"message": ""},
           name="CheckNumericsBoth_" + dt)
f.case("CheckNumerics", [("tensor", np.zeros(0, np.float32))], {"message": "empty"})
f.case("CheckNumerics", [("tensor", np.int32([1]))], {"message": "int"})

# ---- Assert ----
f.case("Assert", [("condition", np.bool_(True)), ("data", [np.int32([1, 2])])])
f.case("Assert", [("condition", np.bool_(False)),
                  ("data", [np.float32([1.5, 2, 3, 4]), np.int32(3), np.array([b"a\n", b"b'\\"]),
                            np.array([True, False]), np.float32([1e-7, 123456789.0, 0.1])])])
f.case("Assert", [("condition", np.bool_(False)),
                  ("data", [np.zeros(0, np.float32), np.float16([1.5]), np.complex64([1 + 2j]),
                            np.float64([0.1, 1 / 3.0]), np.int8([-5]), np.uint64([2**64 - 1]),
                            np.array(3, bf16)])], {"summarize": 10})
f.case("Assert", [("condition", np.bool_(False)), ("data", [np.arange(12).reshape(3, 4)])],
       {"summarize": 6})
f.case("Assert", [("condition", np.bool_(False)), ("data", [np.arange(12).reshape(2, 3, 2)])],
       {"summarize": -1})
f.case("Assert", [("condition", np.bool_(False)), ("data", [np.arange(4).reshape(2, 2)])],
       {"summarize": 3})
f.case("Assert", [("condition", np.bool_(False)), ("data", [np.float32([np.nan, np.inf, -np.inf])])])
f.case("Assert", [("condition", np.bool_(False)), ("data", [np.int32(1)])], {"summarize": 0})
f.case("Assert", [("condition", np.array([False])), ("data", [np.int32(1)])])
f.case("Assert", [("condition", np.array([False, True])), ("data", [np.int32(1)])])

# ---- Unique ----
UNIQ = ["float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64", "uint8",
        "uint16", "uint32", "uint64", "bool", "string"]
for dt in UNIQ:
    f.case("Unique", [("x", arr([7], dt)[[3, 1, 3, 0, 1, 6, 3]])], name="Unique_" + dt)
f.case("Unique", [("x", np.float32([0., -0., np.nan, 1, np.nan, 1]))])
f.case("Unique", [("x", np.int32([5, 5, 5]))], {"out_idx": tf.int64})
f.case("Unique", [("x", np.zeros(0, np.int32))])
f.case("Unique", [("x", np.array([b"", b"a", b"", b"a" * 40, b"a" * 40], dtype=object))])
f.case("Unique", [("x", np.int32([[1, 2]]))])
f.case("Unique", [("x", np.complex64([1, 1]))])

f.write()
