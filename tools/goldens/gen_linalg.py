"""Goldens for the linalg family: BatchMatMul, BatchMatMulV2, BatchMatMulV3, Einsum (CPU dtypes
TensorFlow registers, except complex and bfloat16, which minitf's Session cannot feed yet).

Run: cd tools/goldens && /opt/tfvenv/bin/python gen_linalg.py
Integer and float16 inputs are small integers, so products are exact in any summation order.
"""
import numpy as np

from golden_lib import Const, Family, tf  # noqa: F401

rng = np.random.RandomState(7)


def vals(dtype, shape, lo=-4, hi=5):
    if dtype in (np.float32, np.float64):
        return rng.uniform(-2, 2, shape).astype(dtype)
    if np.dtype(dtype).kind == "u":
        lo = 0
    return rng.randint(lo, hi, shape).astype(dtype)


f = Family("linalg")
f32 = np.float32

# -- BatchMatMul (V1: equal batch dims) and V2 (broadcast batch dims) --
for op, types in [("BatchMatMul", [np.float32, np.float64, np.float16, np.int32, np.int64]),
                  ("BatchMatMulV2", [np.float32, np.float64, np.float16, np.int16, np.int32,
                                     np.int64])]:
    for dt in types:
        name = "%s_%s" % (op, np.dtype(dt).name)
        f.case(op, [("x", vals(dt, (2, 3, 4))), ("y", vals(dt, (2, 4, 5)))], name=name)
        f.case(op, [("x", vals(dt, (2, 4, 3))), ("y", vals(dt, (2, 5, 4)))],
               {"adj_x": True, "adj_y": True}, name=name + "_adj")
    f.case(op, [("x", vals(f32, (3, 4))), ("y", vals(f32, (4, 2)))], name=op + "_rank2")
    f.case(op, [("x", vals(f32, (2, 2, 3, 4))), ("y", vals(f32, (2, 2, 3, 5)))], {"adj_x": True},
           name=op + "_rank4_adjx")
    f.case(op, [("x", vals(f32, (2, 3, 4))), ("y", vals(f32, (2, 5, 4)))], {"adj_y": True},
           name=op + "_adjy")
    f.case(op, [("x", np.zeros((0, 3, 4), f32)), ("y", np.zeros((0, 4, 5), f32))],
           name=op + "_empty_batch")
    f.case(op, [("x", np.zeros((2, 3, 0), f32)), ("y", np.zeros((2, 0, 5), f32))],
           name=op + "_empty_k")
    f.case(op, [("x", np.zeros((2, 0, 4), f32)), ("y", vals(f32, (2, 4, 5)))], name=op + "_empty_m")
    f.case(op, [("x", f32([[[1, np.nan], [np.inf, 1]]])), ("y", f32([[[1, 0], [0, 1]]]))],
           name=op + "_nan_inf")
    f.case(op, [("x", np.int32([[[2**30, 2**30]]])), ("y", np.int32([[[4], [4]]]))],
           name=op + "_int_wrap")
    f.case(op, [("x", vals(f32, (2, 3, 4))), ("y", vals(f32, (2, 5, 5)))], name=op + "_bad_k")
    f.case(op, [("x", vals(f32, (4,))), ("y", vals(f32, (4, 5)))], name=op + "_rank1")
    f.case(op, [("x", vals(f32, (2, 3, 4))), ("y", vals(f32, (3, 4, 5)))], name=op + "_bad_batch")
f.case("BatchMatMul", [("x", vals(f32, (2, 3, 4))), ("y", vals(f32, (4, 5)))],
       name="BatchMatMul_rank_mismatch")
f.case("BatchMatMul", [("x", vals(np.int16, (1, 2, 2))), ("y", vals(np.int16, (1, 2, 2)))],
       name="BatchMatMul_int16_unregistered")
f.case("BatchMatMulV2", [("x", vals(f32, (2, 1, 3, 4))), ("y", vals(f32, (5, 4, 6)))],
       name="BatchMatMulV2_broadcast")
f.case("BatchMatMulV2", [("x", vals(f32, (3, 4))), ("y", vals(f32, (2, 2, 4, 5)))],
       {"adj_y": False}, name="BatchMatMulV2_broadcast_x")
f.case("BatchMatMulV2", [("x", vals(np.float64, (3, 2, 4))), ("y", vals(np.float64, (4, 5)))],
       name="BatchMatMulV2_shared_y")
f.case("BatchMatMulV2", [("x", vals(f32, (3, 4, 2))), ("y", vals(f32, (1, 5, 4)))],
       {"adj_x": True, "adj_y": True}, name="BatchMatMulV2_shared_y_adj")
f.case("BatchMatMulV2", [("x", vals(np.int64, (2, 1, 2, 3))), ("y", vals(np.int64, (1, 3, 3, 2)))],
       name="BatchMatMulV2_int64_broadcast")
f.case("BatchMatMulV2", [("x", vals(f32, (1, 2, 3))), ("y", vals(f32, (4, 3, 2)))],
       {"adj_x": True}, name="BatchMatMulV2_bad_adj")
f.case("BatchMatMulV2", [("x", vals(f32, (2, 1, 3, 4))), ("y", vals(f32, (3, 1, 4, 2)))],
       name="BatchMatMulV2_bad_broadcast")
f.case("BatchMatMulV2", [("x", vals(f32, (33, 40, 50))), ("y", vals(f32, (33, 50, 20)))],
       rtol=1e-5, atol=1e-5, name="BatchMatMulV2_larger")

# -- BatchMatMulV3: mixed input types --
for ta, tb, to in [(np.float32, np.float32, np.float32), (np.float64, np.float64, np.float64),
                   (np.int8, np.int8, np.int32), (np.uint8, np.int8, np.int32),
                   (np.int8, np.uint8, np.int32), (np.uint8, np.uint8, np.int32),
                   (np.int16, np.int16, np.int16), (np.int32, np.int32, np.int32),
                   (np.int64, np.int64, np.int64)]:
    f.case("BatchMatMulV3", [("x", vals(ta, (2, 3, 4), -100, 100)),
                             ("y", vals(tb, (1, 4, 2), -100, 100))],
           {"Tout": tf.as_dtype(to)},
           name="BatchMatMulV3_%s_%s_%s" % (np.dtype(ta).name, np.dtype(tb).name,
                                            np.dtype(to).name))
f.case("BatchMatMulV3", [("x", np.uint8([[[255, 255]]])), ("y", np.uint8([[[255], [255]]]))],
       {"Tout": tf.int32}, name="BatchMatMulV3_uint8_max")
f.case("BatchMatMulV3", [("x", np.int16([[[300, 300]]])), ("y", np.int16([[[300], [300]]]))],
       {"Tout": tf.int16}, name="BatchMatMulV3_int16_wrap")
f.case("BatchMatMulV3", [("x", vals(f32, (2, 4, 3))), ("y", vals(f32, (3, 5, 4)))],
       {"Tout": tf.float32, "adj_x": True, "adj_y": True}, name="BatchMatMulV3_bad_batch")
f.case("BatchMatMulV3", [("x", vals(np.int32, (1, 2, 2))), ("y", vals(np.int32, (1, 2, 2)))],
       {"Tout": tf.uint8}, name="BatchMatMulV3_bad_tout")

# -- Einsum --
E = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("ij->ji", [(3, 4)]),
    ("ii->i", [(3, 3)]),
    ("ii->", [(4, 4)]),
    ("i,j->ij", [(3,), (4,)]),
    ("ij->i", [(3, 4)]),
    ("ij->", [(3, 4)]),
    ("i,i->", [(5,), (5,)]),
    ("...ij,...jk->...ik", [(2, 1, 2, 3), (5, 3, 4)]),
    ("...ij,...jk->...ik", [(2, 3), (3, 4)]),
    ("ij->...ij", [(2, 3)]),
    ("...i,...i->...", [(2, 3), (3,)]),
    ("i...j,j->i...", [(2, 5, 3), (3,)]),
    ("bhqd,bhkd->bhqk", [(2, 3, 4, 5), (2, 3, 6, 5)]),
    ("abc,cd->abd", [(2, 3, 4), (4, 5)]),
    ("ij,ij->ij", [(3, 4), (3, 4)]),
    ("ij,ij->i", [(3, 4), (3, 4)]),
    ("aij,jk->ik", [(2, 3, 4), (4, 5)]),
    ("ij,kj->ikj", [(2, 3), (4, 3)]),
    ("iij,j->i", [(2, 2, 3), (3,)]),
    ("ij->ii", [(3, 3)]),
    ("ijk->kji", [(2, 3, 4)]),
    ("ij,jk->ki", [(3, 4), (4, 2)]),
    ("bi,bj->bij", [(2, 3), (2, 4)]),
    ("ij,jk->ik", [(0, 4), (4, 5)]),
    ("ij,jk->ik", [(3, 0), (0, 5)]),
    ("i1->i", [(2, 3)]),
]
for dt in [np.float32, np.float64, np.float16, np.int32, np.int64]:
    for j, (eq, shapes) in enumerate(E):
        if dt is not np.float32 and j > 12:
            continue
        f.case("Einsum", [("inputs", [vals(dt, s) for s in shapes])], {"equation": eq},
               name="Einsum_%s_%s" % (np.dtype(dt).name, eq.replace("->", "_to_")
                                      .replace(",", "_").replace("...", "E")))
f.case("Einsum", [("inputs", [f32([[1, np.nan], [np.inf, 2]]), f32([[1, 1], [0, 1]])])],
       {"equation": "ij,jk->ik"}, name="Einsum_nan_inf")
f.case("Einsum", [("inputs", [np.int32([[2**30, 2**30]]), np.int32([[4], [4]])])],
       {"equation": "ij,jk->ik"}, name="Einsum_int_wrap")
for eq, shapes in [("ij,jk", [(2, 3), (3, 4)]), ("ij,jk->ik", [(2, 3), (4, 4)]),
                   ("ii->i", [(3, 4)]), ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
                   ("ij->ik", [(2, 3)]), ("ij->i", [(2, 3, 4)]), ("...ij->ij", [(2, 2, 3)]),
                   ("...ij->ij", [(2,)]), ("ij..,jk->ik", [(2, 3), (3, 4)]),
                   ("ij,jk->ik", [(2, 3)]), ("ij->ik", [(2, 2), (2, 2)]),
                   ("ij->i->j", [(2, 2)]), ("bij,bjk->bik", [(1, 2, 3), (3, 3, 4)])]:
    f.case("Einsum", [("inputs", [vals(f32, s) for s in shapes])], {"equation": eq},
           name="Einsum_error")
f.case("Einsum", [("inputs", [vals(np.uint8, (2, 2)), vals(np.uint8, (2, 2))])],
       {"equation": "ij,jk->ik"}, name="Einsum_uint8_unregistered",
       match="No OpKernel was registered to support Op 'Einsum'")
# -- complex64/128: adj_x/adj_y are conjugate transposes; Einsum only transposes --
zr = np.random.RandomState(11)
for dt in [np.complex64, np.complex128]:
    za = (zr.randint(-3, 4, (2, 3, 4)) + 1j * zr.randint(-3, 4, (2, 3, 4))).astype(dt)
    zb = (zr.randint(-3, 4, (2, 4, 5)) + 1j * zr.randint(-3, 4, (2, 4, 5))).astype(dt)
    tag = np.dtype(dt).name
    f.case("BatchMatMul", [("x", za), ("y", zb)], name="BatchMatMul_" + tag)
    f.case("BatchMatMul", [("x", np.conj(za.transpose(0, 2, 1))), ("y", zb)], {"adj_x": True},
           name="BatchMatMul_adjx_" + tag)
    f.case("BatchMatMulV2", [("x", za), ("y", np.conj(zb[:1].transpose(0, 2, 1)))],
           {"adj_y": True}, name="BatchMatMulV2_bcast_adjy_" + tag)
    f.case("BatchMatMulV3", [("x", za), ("y", zb)], {"Tout": tf.as_dtype(dt)},
           name="BatchMatMulV3_" + tag)
    f.case("Einsum", [("inputs", [za, zb])], {"equation": "bij,bjk->bik"}, name="Einsum_" + tag)
    f.case("Einsum", [("inputs", [za])], {"equation": "bij->bj"}, name="Einsum_sum_" + tag)
f.write()
