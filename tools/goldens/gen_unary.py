"""Goldens for the elementwise unary ops (issue 3).

Run with an interpreter that has tensorflow-cpu, from this directory:
    /opt/tfvenv/bin/python gen_unary.py
For every op and every dtype TensorFlow's CPU kernel registers: values inside the op's domain,
an empty tensor, a scalar, and NaN/Inf/zero/negative edge values; integer overflow where it
applies (Neg/Abs/Square of the minimum integer).
"""
import ml_dtypes
import numpy as np

from golden_lib import Family

f = Family("unary")
nan, inf = np.nan, np.inf

FLOATING = ["float16", "bfloat16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
SINT = ["int8", "int16", "int32", "int64"]
UINT = ["uint8", "uint16", "uint32", "uint64"]


def np_dtype(name):
    return ml_dtypes.bfloat16 if name == "bfloat16" else np.dtype(name)


def arr(values, dt):
    return np.array(values).astype(np_dtype(dt))


# Values inside each op's domain (real part for complex), exactly representable in bfloat16.
GENERAL = [[-3.5, -1.25, -0.5, 0.0], [0.25, 0.75, 1.5, 4.0]]
POSITIVE = [[0.125, 0.5, 0.75, 1.0], [1.5, 2.0, 3.5, 8.0]]
SMALL = [[-0.875, -0.5, -0.25, 0.0], [0.125, 0.25, 0.5, 0.875]]
SPECIAL = [nan, inf, -inf, 0.0, -0.0, -1.0, 1e-30, 1e30, 2.5, -2.5, 0.5, -0.5, 1.5]
CPLX = [[1 + 1j, -0.5 + 0.25j, 0.25 - 2j], [2 + 0j, -1.5 - 1j, 0.125 + 0.5j]]

# Loose tolerances where TensorFlow's (Eigen's) float approximations and libm differ by a few
# ulps; float16/bfloat16 outputs can round to the neighbouring value.
TOL16 = {"float16": (2e-3, 2e-3), "bfloat16": (1.6e-2, 1.6e-2)}
TOL_TRANS = {"float32": (2e-6, 1e-6), "float64": (1e-12, 1e-12), "complex64": (2e-6, 2e-6),
             "complex128": (1e-12, 1e-12)}


def tol(dt, op):
    if dt in TOL16:
        return TOL16[dt]
    return TOL_TRANS.get(dt, (None, None)) if op not in ("Floor", "Ceil", "Round", "Rint") else \
        (None, None)


def unary(op, dtypes, values, complex_values=CPLX, special=True, int_values=None):
    for dt in dtypes:
        if dt in COMPLEX:
            x = arr(complex_values, dt)
        elif dt in SINT + UINT:
            x = arr(int_values if int_values is not None else
                    [[-7, -2, 0, 1], [3, 5, 9, 100]] if dt in SINT else [[0, 1, 2, 3], [5, 9, 100, 7]], dt)
        else:
            x = arr(values, dt)
        rtol, atol = tol(dt, op)
        f.case(op, [("x", x)], name="%s_%s" % (op, dt), rtol=rtol, atol=atol)
    base = "float32" if "float32" in dtypes else dtypes[0]
    f.case(op, [("x", np.zeros((0, 3), np_dtype(base)))], name=op + "_empty")
    f.case(op, [("x", arr(values[0][2] if base not in SINT + UINT else 3, base))],
           name=op + "_scalar", rtol=tol(base, op)[0], atol=tol(base, op)[1])
    if special:
        for dt in ["float32", "float64", "float16"]:
            if dt in dtypes:
                with np.errstate(all="ignore"):
                    x = arr(SPECIAL, dt)
                rtol, atol = tol(dt, op)
                f.case(op, [("x", x)], name="%s_special_%s" % (op, dt), rtol=rtol, atol=atol)


FC = FLOATING + COMPLEX
unary("Neg", FLOATING + SINT + COMPLEX, GENERAL)
unary("Abs", FLOATING + SINT, GENERAL)
unary("Sign", FLOATING + SINT + COMPLEX, GENERAL, complex_values=CPLX + [[0j, -3 + 4j, 1e-3j]])
unary("Square", FLOATING + SINT + UINT + COMPLEX, GENERAL)
for dt in SINT:
    info = np.iinfo(dt)
    for op in ["Neg", "Abs", "Square"]:
        f.case(op, [("x", arr([info.min, info.max, -1], dt))], name="%s_overflow_%s" % (op, dt))
f.case("Square", [("x", np.uint8([255, 16, 15]))], name="Square_overflow_uint8")
unary("Sqrt", FC, POSITIVE)
unary("Rsqrt", FC, POSITIVE)
unary("Reciprocal", FC, GENERAL)
unary("Inv", FC, GENERAL)
f.case("Reciprocal", [("x", np.int32([1, 2]))], name="Reciprocal_int32_nokernel")
unary("Exp", FC, GENERAL)
unary("Expm1", FC, SMALL, complex_values=CPLX + [[1e-8 + 1e-8j, -1e-6 + 0j, 0j]])
unary("Log", FC, POSITIVE)
unary("Log1p", FC, POSITIVE, complex_values=CPLX + [[1e-8 + 1e-8j, -1e-6 + 0j, 0j]])
unary("Sin", FC, GENERAL)
unary("Cos", FC, GENERAL)
unary("Tan", FC, SMALL)
unary("Tanh", FC, GENERAL)
unary("Sigmoid", FC, GENERAL + [[-20, 20, -100, 100]])
unary("Erf", FLOATING, GENERAL)
unary("Floor", FLOATING, GENERAL)
unary("Ceil", FLOATING, GENERAL)
unary("Round", FLOATING + ["int32", "int64"], [[-2.5, -1.5, -0.5, 0.5], [1.5, 2.5, 2.25, 3.75]])
unary("Rint", ["float32", "float64"], [[-2.5, -1.5, -0.5, 0.5], [1.5, 2.5, 2.25, 3.75]])
for op in ["IsNan", "IsInf", "IsFinite"]:
    unary(op, FLOATING, [[nan, inf, -inf, 0.0], [-0.0, 1.0, 65504.0, -3.0]])
f.case("LogicalNot", [("x", np.array([[True, False], [False, True]]))])
f.case("LogicalNot", [("x", np.zeros((0,), bool))], name="LogicalNot_empty")
f.case("Sqrt", [("x", np.int32([4]))], name="Sqrt_int32_unregistered")
f.write()
