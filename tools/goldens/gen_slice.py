"""Goldens for the first slice's ops (issue 2): a worked example of golden_lib."""
import numpy as np

from golden_lib import Const, Family, tf

f = Family("slice")
f32 = np.float32
f.case("AddV2", [("x", f32([[1, 2, 3], [4, 5, 6]])), ("y", f32([10, 20, 30]))])
f.case("AddV2", [("x", np.int32([1, 2])), ("y", np.int32([3]))])
f.case("AddV2", [("x", f32([1, 2])), ("y", f32([1, 2, 3]))])
f.case("Sub", [("x", np.int64([5, -3])), ("y", np.int64([[1], [2]]))])
f.case("Mul", [("x", np.float64([1.5, np.nan])), ("y", np.float64([2, 3]))])
f.case("RealDiv", [("x", f32([1, -1, 0])), ("y", f32([0, 0, 0]))])
f.case("Div", [("x", np.int32([7, -7])), ("y", np.int32([2, 2]))])
f.case("Div", [("x", np.int32([7])), ("y", np.int32([0]))])
f.case("MatMul", [("a", f32([[1, 2], [3, 4], [5, 6]])), ("b", f32([[1, 0, 2], [0, 1, 3]]))],
       {"transpose_a": True, "transpose_b": True})
f.case("BiasAdd", [("value", f32(np.arange(12).reshape(1, 3, 2, 2))), ("bias", f32([1, 2, 3]))],
       {"data_format": "NCHW"})
f.case("Softmax", [("logits", f32([[1, 2, 3], [1000, 1000, 1000]]))])
f.case("ArgMax", [("input", f32([[1, 5, 5], [2, 0, 1]])), ("dimension", Const(np.int32(1)))])
f.case("Sum", [("input", np.int32([[1, 2], [3, 4]])), ("axis", Const(np.int32([-1])))],
       {"keep_dims": True})
f.case("Mean", [("input", f32(np.zeros((0, 3)))), ("axis", Const(np.int32([0])))])
f.case("Reshape", [("tensor", f32(np.arange(6))), ("shape", Const(np.int32([-1, 2])))])
f.case("Reshape", [("tensor", f32(np.arange(6))), ("shape", Const(np.int32([4, -1])))])
f.case("Reshape", [("tensor", f32(np.arange(6))), ("shape", Const(np.int32([4, 2])))])
f.case("Cast", [("x", f32([1.7, -1.7, 0]))], {"DstT": tf.int32})
# MatMul in every dtype TF's CPU kernel registers; uint* are in the OpDef but have no kernel
rng = np.random.default_rng(7)
A, B = rng.integers(-4, 5, (3, 4)), rng.integers(-4, 5, (4, 5))
for dt in [np.float16, tf.bfloat16.as_numpy_dtype, np.float64, np.int32, np.int64]:
    f.case("MatMul", [("a", A.astype(dt)), ("b", B.astype(dt))], name="MatMul_" + np.dtype(dt).name)
    f.case("MatMul", [("a", A.T.astype(dt)), ("b", B.T.astype(dt))],
           {"transpose_a": True, "transpose_b": True}, name="MatMul_tt_" + np.dtype(dt).name)
for dt in [np.complex64, np.complex128]:
    ca = (A + 1j * A[::-1]).astype(dt)
    cb = (B - 2j * B).astype(dt)
    f.case("MatMul", [("a", ca), ("b", cb)], name="MatMul_" + np.dtype(dt).name)
    f.case("MatMul", [("a", ca.T.copy()), ("b", cb)], {"transpose_a": True},
           name="MatMul_ta_" + np.dtype(dt).name)
f.case("MatMul", [("a", A.astype(np.uint8)), ("b", B.astype(np.uint8))], name="MatMul_uint8",
       match="No OpKernel was registered to support Op 'MatMul'")
f.case("MatMul", [("a", np.zeros((2, 0), np.float16)), ("b", np.zeros((0, 3), np.float16))],
       name="MatMul_half_k0")
f.write()
