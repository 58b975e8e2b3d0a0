"""Goldens for the reduction family: Sum, Mean, Prod, Max, Min, All, Any, ArgMax, ArgMin,
Cumsum, Cumprod (every CPU dtype TensorFlow registers, except complex).

Run: cd tools/goldens && /opt/tfvenv/bin/python gen_reduction.py
float16/bfloat16 inputs are multiples of 1/4 so that sums are exact whatever the order of
accumulation (TensorFlow's Eigen tree vs minitf's sequential loop); the narrow types still get
their default tolerance for means and products.
"""
import numpy as np

from golden_lib import Const, Family, tf

BF16 = tf.bfloat16.as_numpy_dtype
# bfloat16 cases (fed and fetched as ml_dtypes.bfloat16); also covered by tests/c/test_reduction.c.
FEED_BF16 = True
FLOATS = [np.float32, np.float64, np.float16] + ([BF16] if FEED_BF16 else [])
INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
REAL = FLOATS + INTS
rng = np.random.RandomState(3)
nan, inf = np.nan, np.inf


def values(dtype, shape, lo=-5, hi=6):
    """Small values of `dtype`: integers in [lo, hi) (non-negative for unsigned), quarters for
    narrow floats, arbitrary reals for float32/64."""
    if dtype in (np.float32, np.float64):
        return rng.uniform(lo, hi, shape).astype(dtype)
    if dtype in (np.float16, BF16):
        return (rng.randint(lo * 4, hi * 4, shape) / 4.0).astype(dtype)
    if np.dtype(dtype).kind == "u":
        lo = max(lo, 0)
    return rng.randint(lo, hi, shape).astype(dtype)


def ax(v, dtype=np.int32):
    return ("axis", Const(np.asarray(v, dtype=dtype)))


f = Family("reduction")

# -- axis reductions, every dtype --
for op in ["Sum", "Mean", "Prod", "Max", "Min"]:
    for dt in REAL:
        name = "%s_%s" % (op, np.dtype(dt).name)
        lo, hi = (1, 4) if op == "Prod" else (-5, 6)
        f.case(op, [("input", values(dt, (3, 4), lo, hi)), ax([1])], name=name)
        # TF multiplies bfloat16 in bfloat16, rounding every step in its own order: a product
        # of 8 factors may differ by a few bfloat16 ulps (2**-8 each)
        tol = {"rtol": 3e-2} if op == "Prod" and dt is BF16 else {}
        f.case(op, [("input", values(dt, (2, 3, 4), lo, hi)), ax([0, -1])], {"keep_dims": True},
               name=name + "_keep", **tol)
        f.case(op, [("input", values(dt, (2, 3), lo, hi)), ax([])], name=name + "_noaxes")
        f.case(op, [("input", np.zeros((0, 3), dt)), ax([0])], name=name + "_empty")
        f.case(op, [("input", values(dt, (4, 1, 3), lo, hi)), ax(np.int64(-3), np.int64)],
               name=name + "_scalar_axis64")
    f.case(op, [("input", np.float32([[1, nan, 3], [inf, -inf, 2], [inf, 1, 2]])), ax([1])],
           name=op + "_nan_inf")
    f.case(op, [("input", np.float64(rng.uniform(-1, 1, (2, 3, 2, 4)))), ax([0, 2])],
           name=op + "_strided")
    f.case(op, [("input", np.int32(rng.randint(-9, 9, (3, 2, 4)))), ax([1])],
           {"keep_dims": True}, name=op + "_middle")
    f.case(op, [("input", np.float32(7.5)), ax([])], name=op + "_scalar")
    f.case(op, [("input", np.zeros((2, 0), np.float32)), ax([0])], name=op + "_empty_out")
    f.case(op, [("input", np.float32([[1, 2], [3, 4]])), ax([2])], name=op + "_bad_axis")
    f.case(op, [("input", np.float32([[1, 2], [3, 4]])), ax([-3])], name=op + "_bad_axis_neg")
    f.case(op, [("input", np.float32([[1, 2], [3, 4]])), ax([1, -1])], name=op + "_dup_axis")
    f.case(op, [("input", np.float32([[1, 2], [3, 4]])), ("axis", np.int32([0, 5]))],
           name=op + "_bad_axis_runtime")
    f.case(op, [("input", np.float32([[1, 2], [3, 4]])), ("axis", np.int32([1]))],
           {"keep_dims": True}, name=op + "_axis_fed")

# integer overflow wraps, integer means truncate (and do not overflow: 64-bit sums)
f.case("Sum", [("input", np.int32([2**31 - 1, 1, 5])), ax([0])], name="Sum_int32_wrap")
f.case("Sum", [("input", np.uint8([200, 100])), ax([0])], name="Sum_uint8_wrap")
f.case("Prod", [("input", np.int32([65536, 65536, 3])), ax([0])], name="Prod_int32_wrap")
f.case("Prod", [("input", np.int8([-128, -1])), ax([0])], name="Prod_int8_wrap")
f.case("Mean", [("input", np.int32([[-7, 0], [1, 0], [7, 2]])), ax([1])], name="Mean_trunc")
f.case("Mean", [("input", np.int8([100, 100, 100])), ax([0])], name="Mean_int8_nooverflow")
f.case("Mean", [("input", np.uint8([200, 200, 1])), ax([0])], name="Mean_uint8_nooverflow")
f.case("Mean", [("input", np.int32([2**31 - 1, 2**31 - 1])), ax([0])], name="Mean_int32_big")
f.case("Sum", [("input", np.float16([60000, 60000, -60000])), ax([0])], name="Sum_half_overflow")
if FEED_BF16:
    f.case("Sum", [("input", np.array([1, 2**-9, 2**-9], BF16)), ax([0])],
           name="Sum_bf16_float_acc")
f.case("Max", [("input", np.int64([-2**63, -2**63 + 1])), ax([0])], name="Max_int64_min")
f.case("Min", [("input", np.uint64([2**64 - 1, 2**63])), ax([0])], name="Min_uint64_big")

# -- All / Any --
b = rng.rand(3, 4) > 0.5
for op in ["All", "Any"]:
    f.case(op, [("input", b), ax([1])])
    f.case(op, [("input", b), ax([0])], {"keep_dims": True})
    f.case(op, [("input", np.ones((2, 3), bool)), ax([0, 1])])
    f.case(op, [("input", np.zeros((2, 3), bool)), ax([-1])])
    f.case(op, [("input", np.zeros((0, 2), bool)), ax([0])], name=op + "_empty")
    f.case(op, [("input", b), ax([])], name=op + "_noaxes")
    f.case(op, [("input", b), ax(np.int64([1]), np.int64)], name=op + "_axis64")
    f.case(op, [("input", b), ax([2])], name=op + "_bad_axis")
    f.case(op, [("input", np.float32([1, 0])), ax([0])], name=op + "_float")

# -- ArgMax / ArgMin --
for op in ["ArgMax", "ArgMin"]:
    for dt in REAL + [np.bool_]:
        x = values(dt, (3, 4)) if dt is not np.bool_ else rng.rand(3, 4) > 0.5
        f.case(op, [("input", x), ("dimension", Const(np.int32(1)))],
               name="%s_%s" % (op, np.dtype(dt).name))
        f.case(op, [("input", x), ("dimension", Const(np.int32(-2)))], {"output_type": tf.int32},
               name="%s_%s_neg_i32" % (op, np.dtype(dt).name))
    f.case(op, [("input", np.float32([[1, nan, 3], [nan, nan, nan], [2, 5, -1], [nan, 1, 2],
                                      [3, 1, nan]])), ("dimension", Const(np.int32(1)))],
           name=op + "_nan")
    f.case(op, [("input", np.float32([[1, nan, 3], [nan, nan, nan], [2, 5, -1]])),
                ("dimension", Const(np.int32(0)))], name=op + "_nan_axis0")
    f.case(op, [("input", np.float32([inf, -inf, inf, -inf])), ("dimension", Const(np.int32(0)))],
           name=op + "_inf_ties")
    f.case(op, [("input", np.int32([[3, 3, 1, 1], [2, 2, 2, 2]])),
                ("dimension", Const(np.int64(-1)))], name=op + "_ties")
    f.case(op, [("input", np.float32(rng.randn(2, 3, 4))), ("dimension", Const(np.int32(1)))],
           name=op + "_middle")
    f.case(op, [("input", np.float32(rng.randn(2, 3))), ("dimension", np.int32(1))],
           name=op + "_fed_dim")
    f.case(op, [("input", np.zeros((2, 0), np.float32)), ("dimension", Const(np.int32(1)))],
           name=op + "_empty_axis")
    f.case(op, [("input", np.zeros((0, 3), np.float32)), ("dimension", Const(np.int32(1)))],
           name=op + "_empty_out")
    f.case(op, [("input", np.float32([[1, 2]])), ("dimension", Const(np.int32(2)))],
           name=op + "_bad_dim")
    f.case(op, [("input", np.float32([[1, 2]])), ("dimension", np.int32(-3))],
           name=op + "_bad_dim_runtime")
    f.case(op, [("input", np.float32(1)), ("dimension", Const(np.int32(0)))], name=op + "_scalar")
    f.case(op, [("input", np.float32([[1, 2]])), ("dimension", Const(np.int32([0])))],
           name=op + "_dim_not_scalar")
# (an int16 dimension is misread by TensorFlow itself, at construction and at run time, where
# its kernel reads 4 bytes of a 2-byte tensor: int32 here)
f.case("ArgMax", [("input", np.float32([[1, 2]])), ("dimension", Const(np.int32(1)))],
       {"output_type": tf.int16}, name="ArgMax_out_int16")
f.case("ArgMax", [("input", np.float32([[1, 2]])), ("dimension", Const(np.int32(1)))],
       {"output_type": tf.uint16}, name="ArgMax_out_uint16")
f.case("ArgMin", [("input", np.float32([[1, 2]])), ("dimension", Const(np.int32(1)))],
       {"output_type": tf.int16}, name="ArgMin_int16_unsupported")

# -- Cumsum / Cumprod --
for op in ["Cumsum", "Cumprod"]:
    lo, hi = (1, 4) if op == "Cumprod" else (-5, 6)
    for dt in REAL:
        name = "%s_%s" % (op, np.dtype(dt).name)
        f.case(op, [("x", values(dt, (3, 4), lo, hi)), ax(np.int32(1))], name=name)
        f.case(op, [("x", values(dt, (2, 3, 2), lo, hi)), ax(np.int32(-2))],
               {"exclusive": True, "reverse": True}, name=name + "_excl_rev")
    x = np.float32(rng.uniform(-2, 2, (2, 3, 4)))
    for excl in (False, True):
        for rev in (False, True):
            f.case(op, [("x", x), ax(np.int32(0))], {"exclusive": excl, "reverse": rev},
                   name="%s_e%d_r%d" % (op, excl, rev))
    f.case(op, [("x", np.float64([1, nan, 2, inf])), ax(np.int64(0), np.int64)], name=op + "_nan")
    f.case(op, [("x", np.int32([2**30, 2**30, 2**30, 7])), ax(np.int32(0))], name=op + "_wrap")
    f.case(op, [("x", np.zeros((0, 3), np.float32)), ax(np.int32(1))], name=op + "_empty")
    f.case(op, [("x", np.float32([[1, 2]])), ax(np.int32(2))], name=op + "_bad_axis")
    f.case(op, [("x", np.float32([[1, 2]])), ("axis", np.int32(-3))], name=op + "_bad_axis_fed")
    f.case(op, [("x", np.float32([[1, 2]])), ax(np.int32([1]))], name=op + "_axis_not_scalar")
    f.case(op, [("x", np.float32(3)), ax(np.int32(0))], name=op + "_scalar")
f.case("Cumsum", [("x", np.float16([60000, 60000, -60000])), ax(np.int32(0))],
       name="Cumsum_half_overflow")
# -- complex Sum / Mean / Prod (TF's CPU kernels register complex64/128 for these) --
for dt in [np.complex64, np.complex128]:
    z = (np.arange(12).reshape(3, 4) - 5 + 1j * (np.arange(12).reshape(3, 4) % 5 - 2)) / 4
    z = z.astype(dt)
    for op in ["Sum", "Mean", "Prod"]:
        name = "%s_%s" % (op, np.dtype(dt).name)
        f.case(op, [("input", z), ax([1])], name=name)
        f.case(op, [("input", z), ax([0, -1])], {"keep_dims": True}, name=name + "_keep")
        f.case(op, [("input", np.zeros((0, 3), dt)), ax([0])], name=name + "_empty")
# -- complex Cumsum / Cumprod --
for dt in [np.complex64, np.complex128]:
    z = (np.arange(8).reshape(2, 4) - 3 + 1j * (np.arange(8).reshape(2, 4) % 3 - 1)) / 2
    for op in ["Cumsum", "Cumprod"]:
        f.case(op, [("x", z.astype(dt)), ("axis", Const(np.int32(1)))],
               name="%s_%s" % (op, np.dtype(dt).name))
        f.case(op, [("x", z.astype(dt)), ("axis", Const(np.int32(0)))],
               {"exclusive": True, "reverse": True}, name="%s_%s_excl_rev" % (op, np.dtype(dt).name))
f.write()
