"""Goldens for the pooling family: MaxPool, AvgPool, MaxPoolV2."""
import numpy as np

from golden_lib import Const, Family, tf

import ml_dtypes

f = Family("pooling")
rng = np.random.RandomState(5)
f32 = np.float32
bf16 = ml_dtypes.bfloat16


def rnd(*shape, dtype=f32):
    return rng.uniform(-10, 10, shape).astype(dtype)


def pool(op, x, ksize, strides, padding, name=None, **attrs):
    attrs.update(ksize=list(ksize), strides=list(strides), padding=padding)
    arg = "value" if op == "AvgPool" else "input"
    tol = dict(rtol=1e-6, atol=1e-5) if op == "AvgPool" and x.dtype == f32 else {}
    f.case(op, [(arg, x)], attrs, name=name, **tol)


K2, S2 = (1, 2, 2, 1), (1, 2, 2, 1)
pool("MaxPool", rnd(2, 4, 4, 3), K2, S2, "VALID", name="MaxPool_2x2")
pool("MaxPool", rnd(1, 5, 7, 2), (1, 3, 3, 1), (1, 2, 2, 1), "SAME", name="MaxPool_same")
pool("MaxPool", rnd(1, 5, 7, 2), (1, 3, 2, 1), (1, 1, 3, 1), "VALID", name="MaxPool_valid_rect")
pool("MaxPool", rnd(1, 4, 5, 2), (1, 3, 3, 1), (1, 2, 2, 1), "EXPLICIT",
     explicit_paddings=[0, 0, 1, 2, 0, 1, 0, 0], name="MaxPool_explicit")
pool("MaxPool", rnd(2, 3, 5, 4), (1, 1, 2, 2), (1, 1, 2, 2), "SAME", data_format="NCHW",
     name="MaxPool_nchw")
pool("MaxPool", rnd(0, 4, 4, 2), K2, S2, "SAME", name="MaxPool_empty")
pool("MaxPool", rnd(1, 1, 1, 1), (1, 1, 1, 1), (1, 1, 1, 1), "VALID", name="MaxPool_size1")
x = f32([[[[np.nan], [1]], [[2], [3]]], [[[np.nan], [np.nan]], [[np.nan], [np.nan]]]])
pool("MaxPool", x, K2, S2, "VALID", name="MaxPool_nan")
x = f32([[[[-np.inf], [-np.inf]], [[-np.inf], [np.inf]]]])
pool("MaxPool", x, (1, 2, 1, 1), (1, 1, 1, 1), "SAME", name="MaxPool_inf")
for dt in (np.float64, np.float16, bf16, np.int32, np.int64, np.uint8, np.int16, np.int8, np.uint16):
    v = rnd(1, 4, 5, 2) if dt in (np.float64, np.float16, bf16) else rng.randint(
        np.iinfo(dt).min, np.iinfo(dt).max, (1, 4, 5, 2), dtype=np.int64).astype(dt)
    pool("MaxPool", v.astype(dt), (1, 2, 2, 1), (1, 2, 2, 1), "SAME", name="MaxPool_" + np.dtype(dt).name)
pool("MaxPool", rnd(1, 4, 4, 2), (2, 2, 2, 1), S2, "VALID", name="MaxPool_err_batch_ksize")
pool("MaxPool", rnd(1, 4, 4, 2), (1, 2, 2, 2), S2, "VALID", name="MaxPool_err_depth_ksize")
pool("MaxPool", rnd(1, 4, 4, 2), (1, 2, 2), S2, "VALID", name="MaxPool_err_ksize_len")
pool("MaxPool", rnd(1, 4, 4, 2), (1, 5, 2, 1), S2, "VALID", name="MaxPool_err_negative_out")
pool("MaxPool", rnd(4, 4, 2), K2, S2, "VALID", name="MaxPool_err_rank")
pool("MaxPool", rnd(1, 4, 4, 2), K2, (1, 0, 2, 1), "VALID", name="MaxPool_err_zero_stride")
pool("MaxPool", rnd(1, 4, 4, 2), (1, 0, 2, 1), S2, "VALID", name="MaxPool_err_zero_ksize")
pool("MaxPool", rnd(1, 4, 4, 2), K2, S2, "EXPLICIT", name="MaxPool_err_explicit_missing")
pool("MaxPool", rng.randint(0, 5, (1, 2, 2, 1)).astype(np.uint32), K2, S2, "VALID",
     name="MaxPool_err_uint32")

pool("AvgPool", rnd(2, 4, 4, 3), K2, S2, "VALID", name="AvgPool_2x2")
pool("AvgPool", rnd(1, 5, 7, 2), (1, 3, 3, 1), (1, 2, 2, 1), "SAME", name="AvgPool_same")
pool("AvgPool", rnd(1, 3, 3, 1), (1, 3, 3, 1), (1, 1, 1, 1), "SAME", name="AvgPool_same_s1")
pool("AvgPool", rnd(1, 5, 6, 2), (1, 2, 3, 1), (1, 3, 1, 1), "VALID", name="AvgPool_valid_rect")
pool("AvgPool", rnd(2, 3, 5, 4), (1, 1, 2, 2), (1, 1, 2, 2), "SAME", data_format="NCHW",
     name="AvgPool_nchw")
pool("AvgPool", rnd(0, 4, 4, 2), K2, S2, "SAME", name="AvgPool_empty")
pool("AvgPool", f32([[[[np.nan], [1]], [[2], [np.inf]]]]), (1, 1, 2, 1), (1, 1, 1, 1), "SAME",
     name="AvgPool_nan_inf")
for dt in (np.float64, np.float16, bf16):
    pool("AvgPool", rnd(1, 4, 5, 2).astype(dt), (1, 2, 2, 1), (1, 2, 2, 1), "SAME",
         name="AvgPool_" + np.dtype(dt).name)
pool("AvgPool", rnd(1, 4, 4, 2), (2, 2, 2, 1), S2, "VALID", name="AvgPool_err_batch_ksize")
pool("AvgPool", rnd(1, 4, 4, 2), (1, 5, 2, 1), S2, "VALID", name="AvgPool_err_negative_out")
pool("AvgPool", rng.randint(0, 5, (1, 2, 2, 1)).astype(np.int32), K2, S2, "VALID",
     name="AvgPool_err_int32")


def pool2(x, ksize, strides, padding, name=None, **attrs):
    attrs.update(padding=padding)
    f.case("MaxPoolV2", [("input", x), ("ksize", Const(np.int32(ksize))),
                         ("strides", Const(np.int32(strides)))], attrs, name=name)


pool2(rnd(2, 4, 4, 3), K2, S2, "VALID", name="MaxPoolV2_2x2")
pool2(rnd(1, 5, 7, 2), (1, 3, 3, 1), (1, 2, 2, 1), "SAME", name="MaxPoolV2_same")
pool2(rnd(1, 3, 5, 4), (1, 1, 2, 2), (1, 1, 2, 2), "SAME", data_format="NCHW", name="MaxPoolV2_nchw")
pool2(rng.randint(-100, 100, (1, 4, 4, 2)).astype(np.int8), K2, S2, "VALID", name="MaxPoolV2_int8")
pool2(rnd(1, 4, 4, 2), (1, 2, 2), S2, "VALID", name="MaxPoolV2_err_ksize_len")
pool2(rnd(1, 4, 4, 2), (2, 2, 2, 1), S2, "VALID", name="MaxPoolV2_err_batch_ksize")
f.write()
