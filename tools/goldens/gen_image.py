"""Goldens for the image family: ResizeBilinear, ResizeNearestNeighbor."""
import numpy as np

from golden_lib import Const, Family, tf

import ml_dtypes

f = Family("image")
rng = np.random.RandomState(7)
bf16 = ml_dtypes.bfloat16
MODES = [dict(), dict(align_corners=True), dict(half_pixel_centers=True)]


def resize(op, x, size, name=None, tol=None, **attrs):
    kw = {} if tol is None else dict(rtol=tol, atol=tol)
    f.case(op, [("images", x), ("size", Const(np.int32(size)))], attrs, name=name, **kw)


def img(shape, dt):
    if np.dtype(dt).kind in "iu":
        info = np.iinfo(dt)
        return rng.randint(max(info.min, -1000), min(info.max, 1000), shape).astype(dt)
    return rng.uniform(-5, 5, shape).astype(dt)


for op in ("ResizeBilinear", "ResizeNearestNeighbor"):
    short = "Bilinear" if op == "ResizeBilinear" else "Nearest"
    for i, mode in enumerate(MODES):
        m = ["plain", "align", "half"][i]
        resize(op, img((2, 3, 4, 2), np.float32), [5, 7], name="%s_up_%s" % (short, m),
               tol=1e-5, **mode)
        resize(op, img((1, 6, 9, 1), np.float32), [4, 2], name="%s_down_%s" % (short, m),
               tol=1e-5, **mode)
        resize(op, img((1, 1, 1, 2), np.float32), [3, 2], name="%s_from1_%s" % (short, m),
               tol=1e-5, **mode)
        resize(op, img((1, 4, 3, 1), np.float32), [1, 1], name="%s_to1_%s" % (short, m),
               tol=1e-5, **mode)
    for dt in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.int64, np.float16, bf16,
               np.float64):
        tol = {np.float16: 2e-3, bf16: 2e-2, np.float64: 1e-12}.get(dt)
        if op == "ResizeBilinear" and tol is None:
            tol = 1e-5  # integer images give float output
        resize(op, img((1, 3, 4, 2), dt), [5, 3], name="%s_%s" % (short, np.dtype(dt).name),
               tol=tol, half_pixel_centers=True)
    resize(op, img((1, 3, 3, 1), np.float32), [3, 3], name="%s_same_size" % short, tol=1e-6)
    resize(op, img((0, 3, 3, 1), np.float32), [4, 4], name="%s_empty_batch" % short)
    x = img((1, 2, 2, 1), np.float32)
    x[0, 0, 0, 0] = np.nan
    x[0, 1, 1, 0] = np.inf
    resize(op, x, [3, 3], name="%s_nan_inf" % short, tol=1e-6)
    resize(op, img((1, 3, 3, 1), np.float32), [4, 4], name="%s_err_both" % short,
           align_corners=True, half_pixel_centers=True)
    resize(op, img((3, 3, 1), np.float32), [4, 4], name="%s_err_rank" % short)
    resize(op, img((1, 3, 3, 1), np.float32), [4, 4, 1], name="%s_err_size_len" % short)
    resize(op, img((1, 3, 3, 1), np.float32), [-1, 4], name="%s_err_negative" % short)
    resize(op, img((1, 3, 3, 1), np.float32), [0, 4], name="%s_err_zero" % short)
resize("ResizeBilinear", np.ones((1, 2, 2, 1), np.uint32), [3, 3], name="Bilinear_err_uint32")
f.write()
