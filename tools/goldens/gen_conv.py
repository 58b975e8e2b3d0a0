"""Goldens for the conv family: Conv2D, DepthwiseConv2dNative, Conv2DBackpropInput."""
import numpy as np

from golden_lib import Const, Family, tf

import ml_dtypes

f = Family("conv")
rng = np.random.RandomState(3)
f32, f64, f16 = np.float32, np.float64, np.float16
bf16 = ml_dtypes.bfloat16
TOL = dict(rtol=1e-5, atol=1e-5)  # sums of products: summation order differs from oneDNN's


def rnd(*shape, dtype=f32):
    return rng.uniform(-1, 1, shape).astype(dtype)


def conv(x, w, strides=(1, 1, 1, 1), padding="SAME", name=None, tol=TOL, match=None, **attrs):
    attrs.update(strides=list(strides), padding=padding)
    f.case("Conv2D", [("input", x), ("filter", w)], attrs, name=name, match=match, **tol)


# ---- Conv2D ----
conv(rnd(2, 5, 5, 3), rnd(3, 3, 3, 4), name="Conv2D_same")
conv(rnd(2, 7, 6, 3), rnd(3, 3, 3, 4), (1, 2, 2, 1), "VALID", name="Conv2D_valid_s2")
conv(rnd(1, 6, 7, 2), rnd(3, 2, 2, 3), (1, 2, 3, 1), "SAME", name="Conv2D_same_s23")
conv(rnd(1, 4, 4, 2), rnd(4, 4, 2, 2), (1, 3, 3, 1), "SAME", name="Conv2D_same_bigpad")
conv(rnd(1, 7, 7, 2), rnd(3, 3, 2, 3), padding="VALID", dilations=[1, 2, 2, 1],
     name="Conv2D_dilated_valid")
conv(rnd(1, 6, 5, 2), rnd(2, 3, 2, 3), (1, 2, 1, 1), "SAME", dilations=[1, 2, 3, 1],
     name="Conv2D_dilated_same")
conv(rnd(1, 5, 4, 2), rnd(3, 3, 2, 2), (1, 1, 2, 1), "EXPLICIT",
     explicit_paddings=[0, 0, 1, 2, 2, 0, 0, 0], name="Conv2D_explicit")
conv(rnd(2, 3, 6, 5), rnd(3, 3, 3, 4), (1, 1, 2, 2), "SAME", data_format="NCHW",
     name="Conv2D_nchw_same")
conv(rnd(1, 2, 5, 5), rnd(2, 2, 2, 3), (1, 1, 1, 1), "EXPLICIT", data_format="NCHW",
     explicit_paddings=[0, 0, 0, 0, 1, 0, 0, 1], dilations=[1, 1, 2, 1], name="Conv2D_nchw_explicit")
conv(rnd(2, 4, 5, 6), rnd(1, 1, 6, 3), name="Conv2D_1x1")
conv(rnd(2, 5, 5, 6), rnd(1, 1, 6, 3), (1, 2, 2, 1), "VALID", name="Conv2D_1x1_s2")
conv(rnd(3, 4, 3, 2), rnd(4, 3, 2, 5), padding="VALID", name="Conv2D_full_window")
conv(rnd(1, 5, 5, 4), rnd(3, 3, 2, 6), name="Conv2D_grouped")
conv(rnd(1, 1, 1, 1), rnd(1, 1, 1, 1), name="Conv2D_size1")
conv(rnd(2, 4, 4, 0), rnd(3, 3, 0, 2), name="Conv2D_empty_depth")
conv(rnd(1, 4, 4, 2), rnd(3, 3, 2, 0), name="Conv2D_empty_out_depth")
x = rnd(1, 4, 4, 2)
x[0, 1, 1, 0] = np.nan
x[0, 3, 3, 1] = np.inf
conv(x, rnd(2, 2, 2, 2), padding="VALID", name="Conv2D_nan_inf")
conv(rnd(1, 5, 5, 3, dtype=f64), rnd(3, 3, 3, 2, dtype=f64), (1, 2, 2, 1), name="Conv2D_f64",
     tol=dict(rtol=1e-12, atol=1e-12))
conv(rnd(1, 5, 5, 3, dtype=f16), rnd(3, 3, 3, 2, dtype=f16), (1, 2, 2, 1), name="Conv2D_f16",
     tol=dict(rtol=5e-3, atol=5e-3))
conv(rnd(1, 5, 5, 3, dtype=bf16), rnd(3, 3, 3, 2, dtype=bf16), name="Conv2D_bf16",
     tol=dict(rtol=2e-2, atol=2e-2))
conv(rng.randint(-9, 9, (1, 5, 5, 3)).astype(np.int32),
     rng.randint(-9, 9, (3, 3, 3, 2)).astype(np.int32), (1, 2, 1, 1), name="Conv2D_int32", tol={})
conv(rnd(1, 5, 5, 3), rnd(3, 3, 3, 2), use_cudnn_on_gpu=False, name="Conv2D_no_cudnn")
# construction errors
conv(rnd(1, 5, 5, 3), rnd(3, 3, 3, 2), (1, 1, 1), name="Conv2D_err_strides_len")
conv(rnd(1, 5, 5, 3), rnd(3, 3, 3, 2), dilations=[1, 1, 1], name="Conv2D_err_dilations_len")
conv(rnd(1, 5, 5, 3), rnd(3, 3, 3, 2), (2, 1, 1, 1), name="Conv2D_err_batch_stride")
conv(rnd(1, 5, 5, 3), rnd(3, 3, 3, 2), (1, 1, 1, 2), name="Conv2D_err_depth_stride")
conv(rnd(1, 5, 5, 3), rnd(3, 3, 3, 2), (1, 0, 1, 1), name="Conv2D_err_zero_stride")
conv(rnd(1, 5, 5, 3), rnd(3, 3, 3, 2), dilations=[1, 0, 1, 1], name="Conv2D_err_zero_dilation")
conv(rnd(1, 5, 5, 3), rnd(3, 3, 3, 2), dilations=[2, 1, 1, 1], name="Conv2D_err_batch_dilation")
conv(rnd(5, 5, 3), rnd(3, 3, 3, 2), name="Conv2D_err_rank3")
conv(rnd(1, 5, 5, 3), rnd(3, 3, 2), name="Conv2D_err_filter_rank")
conv(rnd(1, 5, 5, 3), rnd(3, 3, 2, 2), name="Conv2D_err_depth_mismatch")
conv(rnd(1, 5, 5, 4), rnd(3, 3, 2, 3), name="Conv2D_err_groups_out")
conv(rnd(1, 2, 2, 3), rnd(3, 3, 3, 2), padding="VALID", name="Conv2D_err_negative_out")
conv(rnd(1, 5, 5, 3), rnd(3, 3, 3, 2), padding="EXPLICIT", name="Conv2D_err_explicit_missing")
conv(rnd(1, 5, 5, 3), rnd(3, 3, 3, 2), padding="SAME", explicit_paddings=[0] * 8,
     name="Conv2D_err_explicit_with_same")
conv(rnd(1, 5, 5, 3), rnd(3, 3, 3, 2), padding="EXPLICIT", explicit_paddings=[0, 0, -1, 0, 0, 0, 0, 0],
     name="Conv2D_err_explicit_negative")
conv(rnd(1, 5, 5, 3), rnd(3, 3, 3, 2), padding="EXPLICIT", explicit_paddings=[1, 0, 0, 0, 0, 0, 0, 0],
     name="Conv2D_err_explicit_batch")
conv(rng.randint(0, 3, (1, 3, 3, 1)).astype(np.int64), rng.randint(0, 3, (1, 1, 1, 1)).astype(np.int64),
     name="Conv2D_err_int64")

# ---- DepthwiseConv2dNative ----
def dw(x, w, strides=(1, 1, 1, 1), padding="SAME", name=None, tol=TOL, **attrs):
    attrs.update(strides=list(strides), padding=padding)
    f.case("DepthwiseConv2dNative", [("input", x), ("filter", w)], attrs, name=name, **tol)


dw(rnd(2, 5, 5, 3), rnd(3, 3, 3, 1), name="Depthwise_same")
dw(rnd(1, 6, 7, 2), rnd(3, 3, 2, 3), (1, 2, 2, 1), "SAME", name="Depthwise_mult3_s2")
dw(rnd(1, 7, 6, 2), rnd(2, 3, 2, 2), (1, 1, 2, 1), "VALID", name="Depthwise_valid")
dw(rnd(1, 7, 7, 3), rnd(3, 3, 3, 1), padding="SAME", dilations=[1, 2, 2, 1], name="Depthwise_dilated")
dw(rnd(1, 4, 5, 2), rnd(3, 3, 2, 2), padding="EXPLICIT", explicit_paddings=[0, 0, 2, 1, 0, 1, 0, 0],
   name="Depthwise_explicit")
dw(rnd(2, 3, 5, 5), rnd(3, 3, 3, 2), (1, 1, 2, 2), "SAME", data_format="NCHW", name="Depthwise_nchw")
dw(rnd(0, 4, 4, 2), rnd(3, 3, 2, 1), name="Depthwise_empty")
dw(rnd(1, 5, 5, 2, dtype=f64), rnd(3, 3, 2, 2, dtype=f64), name="Depthwise_f64",
   tol=dict(rtol=1e-12, atol=1e-12))
dw(rnd(1, 5, 5, 2, dtype=f16), rnd(3, 3, 2, 2, dtype=f16), name="Depthwise_f16",
   tol=dict(rtol=5e-3, atol=5e-3))
dw(rnd(1, 5, 5, 2, dtype=bf16), rnd(3, 3, 2, 1, dtype=bf16), name="Depthwise_bf16",
   tol=dict(rtol=2e-2, atol=2e-2))
dw(rnd(1, 5, 5, 3), rnd(3, 3, 2, 1), name="Depthwise_err_depth")
dw(rnd(1, 5, 5, 3), rnd(3, 3, 3, 1), (1, 1, 1), name="Depthwise_err_strides_len")
dw(rnd(1, 5, 5, 3), rnd(3, 3, 3, 1), (1, 2, 1, 1), name="Depthwise_err_unequal_strides")
dw(rnd(1, 2, 2, 3), rnd(3, 3, 3, 1), padding="VALID", name="Depthwise_err_negative_out")
dw(rng.randint(0, 3, (1, 3, 3, 1)).astype(np.int32), rng.randint(0, 3, (1, 1, 1, 1)).astype(np.int32),
   name="Depthwise_err_int32")


# ---- Conv2DBackpropInput ----
def bpi(sizes, w, dy, strides=(1, 1, 1, 1), padding="SAME", name=None, tol=TOL, **attrs):
    attrs.update(strides=list(strides), padding=padding)
    f.case("Conv2DBackpropInput", [("input_sizes", Const(np.int32(sizes))), ("filter", w),
                                   ("out_backprop", dy)], attrs, name=name, **tol)


bpi([2, 5, 5, 3], rnd(3, 3, 3, 4), rnd(2, 5, 5, 4), name="BackpropInput_same")
bpi([1, 7, 6, 2], rnd(3, 3, 2, 3), rnd(1, 4, 3, 3), (1, 2, 2, 1), "SAME", name="BackpropInput_same_s2")
bpi([1, 8, 7, 2], rnd(3, 2, 2, 3), rnd(1, 3, 3, 3), (1, 2, 2, 1), "VALID", name="BackpropInput_valid_s2")
bpi([1, 7, 7, 2], rnd(3, 3, 2, 2), rnd(1, 3, 3, 2), padding="VALID", dilations=[1, 2, 2, 1],
    name="BackpropInput_dilated")
bpi([1, 5, 4, 2], rnd(3, 3, 2, 2), rnd(1, 6, 3, 2), (1, 1, 2, 1), "EXPLICIT",
    explicit_paddings=[0, 0, 1, 2, 2, 0, 0, 0], name="BackpropInput_err_explicit_size")
bpi([1, 5, 4, 2], rnd(3, 3, 2, 2), rnd(1, 6, 2, 2), (1, 1, 2, 1), "EXPLICIT",
    explicit_paddings=[0, 0, 1, 2, 2, 0, 0, 0], name="BackpropInput_explicit")
bpi([1, 5, 5, 4], rnd(3, 3, 2, 6), rnd(1, 5, 5, 6), name="BackpropInput_grouped")
bpi([1, 3, 6, 5], rnd(3, 3, 3, 4), rnd(1, 4, 3, 3), (1, 1, 2, 2), "SAME", data_format="NCHW",
    name="BackpropInput_nchw")
bpi([6, 5], rnd(3, 3, 3, 2), rnd(2, 3, 3, 2), (1, 2, 2, 1), "SAME", name="BackpropInput_sizes2")
bpi([0, 4, 4, 2], rnd(3, 3, 2, 2), rnd(0, 4, 4, 2), name="BackpropInput_empty")
bpi([1, 5, 5, 2], rnd(3, 3, 2, 2, dtype=f64), rnd(1, 5, 5, 2, dtype=f64), name="BackpropInput_f64",
    tol=dict(rtol=1e-12, atol=1e-12))
bpi([1, 5, 5, 2], rnd(3, 3, 2, 2, dtype=f16), rnd(1, 3, 3, 2, dtype=f16), (1, 2, 2, 1),
    name="BackpropInput_f16", tol=dict(rtol=5e-3, atol=5e-3))
bpi([1, 5, 5, 2], rnd(3, 3, 2, 2, dtype=bf16), rnd(1, 5, 5, 2, dtype=bf16),
    name="BackpropInput_bf16", tol=dict(rtol=2e-2, atol=2e-2))
bpi([1, 4, 4, 2], rng.randint(-5, 5, (3, 3, 2, 2)).astype(np.int32),
    rng.randint(-5, 5, (1, 2, 2, 2)).astype(np.int32), (1, 2, 2, 1), name="BackpropInput_int32", tol={})
bpi([1, 5, 5, 3], rnd(3, 3, 2, 2), rnd(1, 5, 5, 2), name="BackpropInput_err_depth")
bpi([1, 5, 5], rnd(3, 3, 2, 2), rnd(1, 5, 5, 2), name="BackpropInput_err_sizes_len")
bpi([1, 5, 5, 2], rnd(3, 3, 2, 2), rnd(1, 5, 5, 3), name="BackpropInput_err_out_depth")
f.write()
