"""Goldens for the elementwise binary ops, Cast, AddN, Select/SelectV2 and ClipByValue (issue 3).

Run with an interpreter that has tensorflow-cpu, from this directory:
    /opt/tfvenv/bin/python gen_math.py
For every op and every dtype TensorFlow's CPU kernel registers: a broadcasting case, plus
empty tensors, size-1 dims, NaN/Inf, integer overflow, division by zero and errors.
"""
import ml_dtypes
import numpy as np

from golden_lib import Const, Family, tf

f = Family("math")
nan, inf = np.nan, np.inf
bf16 = ml_dtypes.bfloat16

FLOATING = ["float16", "bfloat16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
SINT = ["int8", "int16", "int32", "int64"]
UINT = ["uint8", "uint16", "uint32", "uint64"]
INTS = SINT + UINT
REAL = FLOATING + INTS


def np_dtype(name):
    return bf16 if name == "bfloat16" else np.dtype(name)


def arr(values, dt):
    if dt == "string":
        return np.array(values, dtype=object)
    return np.array(values).astype(np_dtype(dt))


def sample(dt, shape, seed, positive=False, nonzero=False):
    """Small deterministic values of dtype dt (exactly representable in every float type)."""
    rng = np.random.RandomState(seed)
    n = int(np.prod(shape))
    if dt == "bool":
        return rng.rand(n).reshape(shape) > 0.5
    if dt in COMPLEX:
        v = (rng.randint(-8, 9, n) + 1j * rng.randint(-8, 9, n)) / 4
        if nonzero:
            v[v == 0] = 1 + 1j
        return v.reshape(shape).astype(dt)
    if dt == "string":
        return np.array([b"a", b"bc", b"", b"xyz"] * n, dtype=object)[:n].reshape(shape)
    lo = 0 if (positive or dt.startswith("uint")) else -8
    v = rng.randint(lo, 9, n)
    if dt in FLOATING:
        v = v / 4.0
    if nonzero:
        v[v == 0] = 1
    return v.reshape(shape).astype(np_dtype(dt))


def binary_cases(op, dtypes, positive_y=False, nonzero_y=False, rtol=None, atol=None):
    for i, dt in enumerate(dtypes):
        x = sample(dt, (2, 3), 10 + i)
        y = sample(dt, (3,), 20 + i, positive=positive_y, nonzero=nonzero_y)
        f.case(op, [("x", x), ("y", y)], name="%s_%s" % (op, dt), rtol=rtol, atol=atol)
    base = dtypes[0] if "float32" not in dtypes else "float32"
    # empty, size-1 dims and scalar broadcasting, shape error
    f.case(op, [("x", sample(base, (0, 3), 1)), ("y", sample(base, (3,), 2, nonzero=nonzero_y))],
           name=op + "_empty")
    f.case(op, [("x", sample(base, (2, 1, 3), 3)),
                ("y", sample(base, (1, 4, 1), 4, positive=positive_y, nonzero=nonzero_y))],
           name=op + "_size1")
    f.case(op, [("x", sample(base, (), 5)), ("y", sample(base, (2, 2), 6, positive=positive_y,
                                                          nonzero=nonzero_y))],
           name=op + "_scalar")
    f.case(op, [("x", sample(base, (2,), 7)), ("y", sample(base, (3,), 8))], name=op + "_badshape")


def special_float(op, xs, ys, dtypes=("float32", "float64", "float16"), rtol=None):
    for dt in dtypes:
        f.case(op, [("x", arr(xs, dt)), ("y", arr(ys, dt))], name="%s_special_%s" % (op, dt),
               rtol=rtol)


SPX = [nan, 1.0, inf, -inf, inf, 0.0, -0.0, 2.0, -3.0]
SPY = [1.0, nan, inf, 2.0, -inf, 0.0, 0.0, 0.0, 0.0]
I32 = np.iinfo(np.int32)
OVX = [I32.max, I32.min, I32.min, -7, 7, 100000]
OVY = [1, -1, 1, 2, -2, 100000]

# -- arithmetic
ARITH = REAL + COMPLEX
binary_cases("Add", ["bfloat16", "float16", "float32", "float64", "int8", "int16", "int32",
                     "int64", "uint8"] + COMPLEX)
f.case("Add", [("x", arr([b"ab", b""], "string")), ("y", arr([b"c"], "string"))], name="Add_string")
binary_cases("AddV2", ARITH)
binary_cases("Sub", ARITH)
binary_cases("Mul", ARITH)
for op in ["AddV2", "Sub", "Mul"]:
    special_float(op, SPX, SPY)
    f.case(op, [("x", np.int32(OVX)), ("y", np.int32(OVY))], name=op + "_overflow_int32")
    f.case(op, [("x", np.uint8([250, 3, 0, 255])), ("y", np.uint8([10, 5, 1, 255]))],
           name=op + "_overflow_uint8")
    f.case(op, [("x", np.int64([2**62, -2**63, 2**63 - 1])), ("y", np.int64([2**62, -1, 1]))],
           name=op + "_overflow_int64")
binary_cases("RealDiv", FLOATING + COMPLEX, nonzero_y=True)
special_float("RealDiv", SPX, SPY)
f.case("RealDiv", [("x", np.int32([1])), ("y", np.int32([1]))], name="RealDiv_int32_nokernel")
binary_cases("Div", ARITH, nonzero_y=True)
special_float("Div", SPX, SPY)
f.case("Div", [("x", np.int32([7, -7, 7, -7, I32.min])), ("y", np.int32([2, 2, -2, -2, -1]))],
       name="Div_trunc_int32")
f.case("Div", [("x", np.int32([7, 1])), ("y", np.int32([1, 0]))], name="Div_by_zero_int32")
f.case("Div", [("x", np.uint8([7])), ("y", np.uint8([0]))], name="Div_by_zero_uint8")
binary_cases("DivNoNan", FLOATING + COMPLEX)
special_float("DivNoNan", SPX, SPY)
f.case("DivNoNan", [("x", np.complex64([1 + 1j, 2])), ("y", np.complex64([0, 1j]))],
       name="DivNoNan_complex_zero")
binary_cases("FloorDiv", REAL, nonzero_y=True)
special_float("FloorDiv", SPX + [7, -7, 7, -7], SPY + [2, 2, -2, -2])
for dt in ["int8", "int32", "int64"]:
    f.case("FloorDiv", [("x", arr([7, -7, 7, -7, 0, -1, 6], dt)),
                        ("y", arr([2, 2, -2, -2, 3, 3, -3], dt))], name="FloorDiv_signs_" + dt)
    f.case("FloorMod", [("x", arr([7, -7, 7, -7, 0, -1, 6], dt)),
                        ("y", arr([2, 2, -2, -2, 3, 3, -3], dt))], name="FloorMod_signs_" + dt)
f.case("FloorDiv", [("x", np.int32([1, 2])), ("y", np.int32([1, 0]))], name="FloorDiv_by_zero")
f.case("FloorDiv", [("x", np.uint16([1, 2])), ("y", np.uint16([0, 1]))], name="FloorDiv_by_zero_u16")
binary_cases("FloorMod", REAL, nonzero_y=True)
special_float("FloorMod", SPX + [7, -7, 7, -7, 5.5], SPY + [2, 2, -2, -2, -3])
f.case("FloorMod", [("x", np.int64([1, 2])), ("y", np.int64([1, 0]))], name="FloorMod_by_zero")
binary_cases("TruncateDiv", REAL, nonzero_y=True)
special_float("TruncateDiv", SPX + [7, -7], SPY + [2, 2])
f.case("TruncateDiv", [("x", np.int32([7, -7, I32.min])), ("y", np.int32([2, 2, -1]))],
       name="TruncateDiv_int32")
f.case("TruncateDiv", [("x", np.int32([1])), ("y", np.int32([0]))], name="TruncateDiv_by_zero")
binary_cases("Maximum", REAL)
binary_cases("Minimum", REAL)
for op in ["Maximum", "Minimum"]:
    special_float(op, SPX, SPY, dtypes=("float32", "float64", "float16", "bfloat16"))
binary_cases("Pow", FLOATING + COMPLEX, positive_y=True, rtol=None)
binary_cases("Pow", SINT, positive_y=True)
f.case("Pow", [("x", np.float32([2, -2, 0, 0, -8, 4, nan, 1])),
               ("y", np.float32([0.5, 0.5, 0, -1, 1 / 3, -0.5, 0, nan]))], name="Pow_special")
f.case("Pow", [("x", np.int32([2, 3, -2, 7])), ("y", np.int32([40, 20, 31, 0]))],
       name="Pow_overflow_int32")
f.case("Pow", [("x", np.int64([3, -3])), ("y", np.int64([50, 41]))], name="Pow_overflow_int64")
f.case("Pow", [("x", np.int32([2, 1])), ("y", np.int32([1, -1]))], name="Pow_negative_exponent")
binary_cases("SquaredDifference", FLOATING + ["int32", "int64"] + COMPLEX)
f.case("SquaredDifference", [("x", np.int32([I32.max, 70000])), ("y", np.int32([I32.min, 0]))],
       name="SquaredDifference_overflow")
binary_cases("Atan2", FLOATING)
special_float("Atan2", [0.0, -0.0, 0.0, -0.0, 1, -1, inf, -inf, nan],
              [0.0, 0.0, -0.0, -0.0, inf, -inf, inf, -inf, 1])

# -- comparisons, logical, bitwise
for op in ["Less", "LessEqual", "Greater", "GreaterEqual"]:
    binary_cases(op, REAL)
    special_float(op, SPX, SPY)
for op in ["Equal", "NotEqual"]:
    binary_cases(op, REAL + COMPLEX + ["bool", "string"])
    special_float(op, SPX, SPY)
    for a, b in [((2,), (3,)), ((2, 3), (4,)), ((1,), (3,))]:
        f.case(op, [("x", sample("float32", a, 1)), ("y", sample("float32", b, 2))],
               {"incompatible_shape_error": False}, name="%s_incompatible" % op)
    f.case(op, [("x", np.float32([1, 2]))] + [("y", np.float32([[1], [2]]))],
           {"incompatible_shape_error": False}, name="%s_compatible_noerr" % op)
for op in ["LogicalAnd", "LogicalOr"]:
    f.case(op, [("x", np.array([[True, False], [True, True]])), ("y", np.array([True, False]))])
    f.case(op, [("x", np.zeros((0, 2), bool)), ("y", np.array([True, False]))], name=op + "_empty")
    f.case(op, [("x", np.array([True, False])), ("y", np.array([True, False, True]))],
           name=op + "_badshape")
for op in ["BitwiseAnd", "BitwiseOr", "BitwiseXor"]:
    for dt in INTS:
        info = np.iinfo(dt)
        f.case(op, [("x", arr([[info.min, info.max, 0, 5], [-1 if dt in SINT else 7, 12, 6, 3]], dt)),
                    ("y", arr([info.max, 3, 0, 6], dt))], name="%s_%s" % (op, dt))
    f.case(op, [("x", np.int32([1, 2])), ("y", np.int32([1, 2, 3]))], name=op + "_badshape")

# -- AddN
for dt in REAL + COMPLEX:
    f.case("AddN", [("inputs", [sample(dt, (2, 3), 30 + k) for k in range(3)])], name="AddN_" + dt)
f.case("AddN", [("inputs", [np.float32([1, 2])])], name="AddN_one")
f.case("AddN", [("inputs", [np.float16([60000, 60000, -1]), np.float16([10000, 10000, 1]),
                             np.float16([-65000, -10000, 0])])], name="AddN_half_rounding")
f.case("AddN", [("inputs", [np.int32([I32.max, 1]), np.int32([1, I32.min])])],
       name="AddN_overflow")
f.case("AddN", [("inputs", [np.zeros((0, 2), np.float32)] * 2)], name="AddN_empty")
f.case("AddN", [("inputs", [np.float32([[1, 2]]), np.float32([1, 2])])], name="AddN_rank_mismatch")
f.case("AddN", [("inputs", [np.float32([[1, 2, 3]]), np.float32([[1, 2]])])], name="AddN_dim_mismatch")

# -- Select (TF1; raw_ops arg names condition, x, y) and SelectV2
for dt in ["float32", "float16", "bfloat16", "float64", "int32", "int64", "uint8", "bool",
           "complex64", "string"]:
    c = np.array([[True, False, True], [False, False, True]])
    f.case("Select", [("condition", c), ("x", sample(dt, (2, 3), 1)), ("y", sample(dt, (2, 3), 2))],
           name="Select_" + dt)
    f.case("SelectV2", [("condition", c[0]), ("t", sample(dt, (2, 3), 1)), ("e", sample(dt, (1,), 2))],
           name="SelectV2_" + dt)
f.case("Select", [("condition", np.array([True, False])), ("x", sample("float32", (2, 2), 1)),
                  ("y", sample("float32", (2, 2), 2))], name="Select_rows")
f.case("Select", [("condition", np.array(False)), ("x", sample("float32", (2, 2), 1)),
                  ("y", sample("float32", (2, 2), 2))], name="Select_scalar_cond")
f.case("Select", [("condition", np.zeros((0,), bool)), ("x", sample("float32", (0, 2), 1)),
                  ("y", sample("float32", (0, 2), 2))], name="Select_empty")
f.case("Select", [("condition", np.array([True, False, True])), ("x", sample("float32", (2, 3), 1)),
                  ("y", sample("float32", (2, 3), 2))], name="Select_bad_rows")
f.case("Select", [("condition", np.array([[True], [False]])), ("x", sample("float32", (2, 3), 1)),
                  ("y", sample("float32", (2, 3), 2))], name="Select_bad_cond")
f.case("Select", [("condition", np.array([True, False])), ("x", sample("float32", (2, 3), 1)),
                  ("y", sample("float32", (2, 1), 2))], name="Select_bad_else")
f.case("SelectV2", [("condition", np.array([[True], [False]])), ("t", sample("float32", (3,), 1)),
                    ("e", sample("float32", (), 2))], name="SelectV2_bcast3")
f.case("SelectV2", [("condition", np.array([True, False])), ("t", sample("float32", (3,), 1)),
                    ("e", sample("float32", (), 2))], name="SelectV2_badshape")
f.case("SelectV2", [("condition", np.zeros((0, 1), bool)), ("t", sample("float32", (3,), 1)),
                    ("e", sample("float32", (0, 3), 2))], name="SelectV2_empty")

# -- ClipByValue
for dt in FLOATING + ["int8", "int16", "int32", "int64", "uint8", "uint16"]:
    f.case("ClipByValue", [("t", sample(dt, (2, 3), 1)), ("clip_value_min", arr(-1, dt) if dt not in
                                                          UINT else arr(1, dt)),
                           ("clip_value_max", arr(1.5 if dt in FLOATING else 2, dt))],
           name="ClipByValue_" + dt)
f.case("ClipByValue", [("t", np.float32([nan, -inf, inf, 0.5])), ("clip_value_min", np.float32([0, 0, 0, 1])),
                       ("clip_value_max", np.float32(2))], name="ClipByValue_special")
f.case("ClipByValue", [("t", np.float32([1, 5, 9])), ("clip_value_min", np.float32(6)),
                       ("clip_value_max", np.float32(4))], name="ClipByValue_min_above_max")
f.case("ClipByValue", [("t", np.float32([1, 5, 9])), ("clip_value_min", np.float32([6, 6])),
                       ("clip_value_max", np.float32(4))], name="ClipByValue_badshape")

# -- Cast: every pair of the supported dtypes
CAST_TYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
              "float16", "bfloat16", "float32", "float64", "complex64", "complex128"]
CAST_SRC = {
    "bool": [True, False, True, False, True, True],
    "complex": [1.5 - 2j, -0.0 + 1j, 0, 3.75 + 0.5j, -2.5 - 0.5j, 100 + 0j],
    "float": [1.5, -0.0, 0, 3.75, -2.5, 100.0],
    "sint": [1, -1, 0, 127, -128, 100],
    "uint": [1, 255, 0, 127, 128, 100],
}
for src in CAST_TYPES:
    kind = ("bool" if src == "bool" else "complex" if src in COMPLEX else "float" if src in FLOATING
            else "sint" if src in SINT else "uint")
    x = arr(CAST_SRC[kind], src).reshape(2, 3)
    for dst in CAST_TYPES:
        if dst != src:
            f.case("Cast", [("x", x)], {"DstT": tf.as_dtype(dst)}, name="Cast_%s_%s" % (src, dst))
WIDE = [nan, inf, -inf, 1e10, -1e10, 300.5, -300.5, 70000, -70000, 3e9, -1.7, 65519, 65520, 1e-8]
for dst in ["int8", "int16", "int32", "int64", "uint8", "uint16", "float16", "bfloat16", "bool"]:
    f.case("Cast", [("x", np.float32(WIDE))], {"DstT": tf.as_dtype(dst)}, name="Cast_wide_float32_" + dst)
# float32 -> uint32 out of [-2^31, 2^32) is undefined in C++ and TensorFlow's result depends on
# the element's position (vectorized vs scalar loop): only defined values here.
f.case("Cast", [("x", np.float32([-300.5, 70000, -70000, 3e9, -1.7, 65519, 1e-8]))],
       {"DstT": tf.uint32}, name="Cast_wide_float32_uint32")
for dst in ["int32", "int64", "uint64", "float32", "float16"]:
    f.case("Cast", [("x", np.float64(WIDE + [1e300, 2**63, 2**64 - 2048]))], {"DstT": tf.as_dtype(dst)},
           name="Cast_wide_float64_" + dst)
f.case("Cast", [("x", np.int64([2**62 + 1, -2**40 - 1, 2**24 + 1, 70000]))], {"DstT": tf.float16},
       name="Cast_int64_half_rounding")
f.case("Cast", [("x", np.int32([70000, -70000, 255, 256]))], {"DstT": tf.uint8}, name="Cast_wrap_uint8")
TRUNC = [1.0009765625 + 1e-7, 1.00390625 + 1e-6, 65519.0, 1e-8, -2.99999, nan, inf]
for src, dst in [("float32", "float16"), ("float32", "bfloat16"), ("float64", "float32"),
                 ("float64", "float16"), ("float64", "bfloat16")]:
    f.case("Cast", [("x", arr(TRUNC, src))], {"DstT": tf.as_dtype(dst), "Truncate": True},
           name="Cast_truncate_%s_%s" % (src, dst))
f.case("Cast", [("x", np.zeros((0, 3), np.float32))], {"DstT": tf.int32}, name="Cast_empty")
f.case("Cast", [("x", np.float32([1, 2]))], {"DstT": tf.float32}, name="Cast_same")
f.write()
