"""Goldens for the random op family (issue 3): RandomUniform, RandomUniformInt,
RandomStandardNormal, TruncatedNormal, RandomShuffle, Multinomial.

minitf's kernels reproduce TensorFlow's Philox streams, so values are compared to
TensorFlow's for the same (seed, seed2): exactly for uniform floats, integers, shuffles and
samples; normal and truncated normal allow ~2 ulp (float32) because they go through libm's
logf/sincosf, which may differ by an ulp between glibc versions (on the machine that wrote
these fixtures minitf matches bit for bit). Every case runs once in a fresh session, i.e. the
first draw of the op's stream; tests/python/test_random_ops.py checks later draws.
Multinomial cases are small enough that TensorFlow samples all rows in one stream (a big
batch is split over threads and each split starts its own stream; see that test).
"""
import numpy as np

from golden_lib import Const, Family, tf

f = Family("random")
EXACT = {"rtol": 0, "atol": 0}
FLOATS = [tf.float16, tf.bfloat16, tf.float32, tf.float64]
# Tolerances for values that go through logf/sincosf (about 2 ulp of each type).
NORMAL_TOL = {tf.float16: 2e-3, tf.bfloat16: 1.6e-2, tf.float32: 2.4e-7, tf.float64: 4.5e-16}


def shape(*dims, dtype=np.int32):
    return ("shape", Const(np.array(dims, dtype=dtype)))


# ---- RandomUniform / RandomStandardNormal / TruncatedNormal ----
for op in ["RandomUniform", "RandomStandardNormal", "TruncatedNormal"]:
    for dt in FLOATS:
        tol = {"rtol": 0 if op == "RandomUniform" else NORMAL_TOL[dt], "atol": 0}
        # 15 elements: 3 full groups of 4 (2 for double) plus a partial one.
        f.case(op, [shape(3, 5)], {"dtype": dt, "seed": 1, "seed2": 2}, **tol)
        f.case(op, [shape(7, dtype=np.int64)], {"dtype": dt, "seed": 87654321, "seed2": 5}, **tol)
        f.case(op, [shape(0, 4)], {"dtype": dt, "seed": 3, "seed2": 4}, **tol)
    # Seeds fill all 64 bits of key and counter (negative seeds as two's complement).
    f.case(op, [shape(2, 2, 3)], {"dtype": tf.float32, "seed": -5, "seed2": 2**40 + 7},
           rtol=0 if op == "RandomUniform" else 2.4e-7, atol=0)
    f.case(op, [("shape", Const(np.zeros(0, np.int32)))], {"dtype": tf.float64, "seed": 9,
                                                            "seed2": 9},
           rtol=0 if op == "RandomUniform" else 4.5e-16, atol=0, note="scalar output")
    # Enough output that the rejection loop of TruncatedNormal runs many times.
    f.case(op, [shape(64, 3)], {"dtype": tf.float32, "seed": 2**31 - 1, "seed2": 0},
           rtol=0 if op == "RandomUniform" else 2.4e-7, atol=0)
    # A shape fed at run time: static shape has the rank only.
    f.case(op, [("shape", np.int32([2, 3]))], {"dtype": tf.float32, "seed": 4, "seed2": 1},
           rtol=0 if op == "RandomUniform" else 2.4e-7, atol=0)

# Errors (construction and run time).
f.case("RandomUniform", [shape(2, 3)], {"dtype": tf.int32})
f.case("RandomUniform", [("shape", Const(np.int32([[2, 3]])))], {"dtype": tf.float32})
f.case("RandomUniform", [("shape", Const(np.int32(3)))], {"dtype": tf.float32})
f.case("RandomStandardNormal", [shape(2, -3)], {"dtype": tf.float32})
f.case("RandomStandardNormal", [shape(2, -1)], {"dtype": tf.float32, "seed": 1})
f.case("TruncatedNormal", [shape(2**40, 2**30, dtype=np.int64)], {"dtype": tf.float32})
f.case("RandomUniform", [("shape", np.int32([2, -3]))], {"dtype": tf.float32, "seed": 1})

# ---- RandomUniformInt ----
for dt, lo, hi in [(np.int32, -3, 10), (np.int32, -2**31, 2**31 - 1), (np.int32, 5, 6),
                   (np.int32, 0, 2**30), (np.int64, -7, 1000),
                   (np.int64, -2**63, 2**63 - 1), (np.int64, 2**40, 2**41 + 3)]:
    f.case("RandomUniformInt", [shape(3, 7), ("minval", Const(dt(lo))), ("maxval", Const(dt(hi)))],
           {"seed": 11, "seed2": 12})
f.case("RandomUniformInt", [shape(5, dtype=np.int64), ("minval", np.int64(-1)),
                            ("maxval", np.int64(1))], {"seed": -1, "seed2": -1})
f.case("RandomUniformInt", [shape(0), ("minval", np.int32(0)), ("maxval", np.int32(1))],
       {"seed": 1, "seed2": 1})
f.case("RandomUniformInt", [shape(3), ("minval", np.int32(5)), ("maxval", np.int32(5))],
       {"seed": 1, "seed2": 1})
f.case("RandomUniformInt", [shape(3), ("minval", np.int64(7)), ("maxval", np.int64(-7))],
       {"seed": 1, "seed2": 1})
f.case("RandomUniformInt", [shape(3), ("minval", np.int32([0])), ("maxval", np.int32(5))])
f.case("RandomUniformInt", [shape(3), ("minval", np.int32(0)), ("maxval", np.int32([5, 6]))])
f.case("RandomUniformInt", [shape(3), ("minval", np.float32(0)), ("maxval", np.float32(5))])

# ---- RandomShuffle ----
rng = np.random.RandomState(0)
values = {
    "float32": np.float32(rng.randn(10)), "float64": rng.randn(9),
    "float16": np.float16(rng.randn(8)), "bfloat16": tf.bfloat16.as_numpy_dtype(rng.randn(7)),
    "int8": np.int8(np.arange(10)), "uint8": np.uint8(np.arange(11)),
    "int16": np.int16(np.arange(12)), "uint16": np.uint16(np.arange(13)),
    "int32": np.int32(np.arange(14)), "uint32": np.uint32(np.arange(15)),
    "int64": np.int64(np.arange(16)), "uint64": np.uint64(np.arange(17)),
    "bool": rng.rand(9) > 0.5, "complex64": np.complex64(rng.randn(6) + 1j * rng.randn(6)),
    "complex128": rng.randn(5) + 1j * rng.randn(5),
    "string": np.array([b"a", b"bb", b"", b"a much longer string, beyond the inline size", b"e"],
                       dtype=object),
}
for name, v in values.items():
    f.case("RandomShuffle", [("value", v)], {"seed": 5, "seed2": 6}, name="RandomShuffle_" + name,
           rtol=0, atol=0)
f.case("RandomShuffle", [("value", np.float32(np.arange(18).reshape(6, 3)))],
       {"seed": 1, "seed2": 2}, rtol=0, atol=0)
f.case("RandomShuffle", [("value", np.int64(np.arange(20).reshape(5, 2, 2)))],
       {"seed": 7, "seed2": 0})
f.case("RandomShuffle", [("value", np.array([[b"x", b"y"], [b"z", b"w"], [b"u", b"v"]],
                                            dtype=object))], {"seed": 3, "seed2": 3})
f.case("RandomShuffle", [("value", np.int32(np.arange(200)))], {"seed": 42, "seed2": 42})
f.case("RandomShuffle", [("value", np.float32(3.5))], {"seed": 1, "seed2": 1}, **EXACT)
f.case("RandomShuffle", [("value", np.float32([[1, 2, 3, 4]]))], {"seed": 1, "seed2": 1}, **EXACT)
f.case("RandomShuffle", [("value", np.float32(np.zeros((0, 3))))], {"seed": 1, "seed2": 1}, **EXACT)
f.case("RandomShuffle", [("value", np.float32(np.zeros((4, 0))))], {"seed": 1, "seed2": 1}, **EXACT)

# ---- Multinomial ----
logits = np.array([[0, 1, 2, -1], [5, 5, 5, 5], [1, -np.inf, 3, np.nan], [-np.inf] * 4,
                   [np.inf, 0, 1, 2]])
for dt in [np.float32, np.float64, np.float16, tf.bfloat16.as_numpy_dtype]:
    for out in [tf.int64, tf.int32]:
        f.case("Multinomial", [("logits", logits.astype(dt)), ("num_samples", Const(np.int32(7)))],
               {"seed": 9, "seed2": 10, "output_dtype": out})
f.case("Multinomial", [("logits", np.float32(rng.randn(2, 30) * 3)),
                       ("num_samples", np.int32(50))], {"seed": 1, "seed2": 2})
f.case("Multinomial", [("logits", np.float32([[0, 0]])), ("num_samples", Const(np.int32(1)))],
       {"seed": 123, "seed2": 456})
f.case("Multinomial", [("logits", np.float32(np.zeros((0, 3)))),
                       ("num_samples", Const(np.int32(3)))], {"seed": 1, "seed2": 1})
f.case("Multinomial", [("logits", np.float32(np.zeros((2, 3)))),
                       ("num_samples", Const(np.int32(0)))], {"seed": 1, "seed2": 1})
f.case("Multinomial", [("logits", np.float32(np.zeros((2, 0)))),
                       ("num_samples", Const(np.int32(3)))], {"seed": 1, "seed2": 1})
f.case("Multinomial", [("logits", np.int32(np.zeros((2, 3)))), ("num_samples", Const(np.int32(3)))],
       {"seed": 1, "seed2": 1}, match="No OpKernel was registered to support Op 'Multinomial'")
f.case("Multinomial", [("logits", np.float32([1, 2])), ("num_samples", Const(np.int32(3)))])
f.case("Multinomial", [("logits", np.float32([[1, 2]])), ("num_samples", Const(np.int32(-3)))])
f.case("Multinomial", [("logits", np.float32([[1, 2]])), ("num_samples", np.int32(-3))])
f.case("Multinomial", [("logits", np.float32([[1, 2]])), ("num_samples", Const(np.int32([3])))])
f.write()
