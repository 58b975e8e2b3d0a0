"""Kernel paths the goldens keep too small to reach, against NumPy references in float64:
the AVX-512 conv GEMM (column tails, row tails, several 64-column panels, groups, several
tiles), the transposed conv shared out by image, depthwise channel blocks, top_k's one-pass
selection and its sort fallback, the vectorized exp/log activations, LRN's window sums over
chunked depths, and the block-parallel L2Loss and batch-norm statistics."""
import numpy as np
import pytest

import minitf as tf


def _run(fn):
    with tf.Graph().as_default(), tf.Session() as s:
        return s.run(fn())


def _conv_ref(x, w, stride, padding):
    """NHWC conv in float64; w is [kh, kw, ic / groups, oc]; padding 'SAME' or 'VALID'."""
    x = x.astype(np.float64)
    kh, kw, kic, oc = w.shape
    n, h, wd, ic = x.shape
    if padding == "SAME":
        oh, ow = -(-h // stride), -(-wd // stride)
        ph = max((oh - 1) * stride + kh - h, 0)
        pw = max((ow - 1) * stride + kw - wd, 0)
        x = np.pad(x, [(0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)])
    else:
        oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    groups = ic // kic
    ocg = oc // groups
    out = np.zeros((n, oh, ow, oc))
    for g in range(groups):
        xs = x[..., g * kic:(g + 1) * kic]
        for i in range(kh):
            for j in range(kw):
                patch = xs[:, i:i + stride * oh:stride, j:j + stride * ow:stride, :]
                out[..., g * ocg:(g + 1) * ocg] += np.tensordot(
                    patch, w[i, j, :, g * ocg:(g + 1) * ocg].astype(np.float64), axes=([3], [0]))
    return out


@pytest.mark.parametrize("oc", [1, 15, 16, 17, 33, 64, 65, 130])
def test_conv2d_output_channel_tails(oc):
    # 3 * 7 * 5 = 105 output rows (not a multiple of the 6-row block); oc covers masked
    # column tails and more than one 64-column panel
    rng = np.random.RandomState(oc)
    x = rng.uniform(-1, 1, (3, 7, 5, 4)).astype(np.float32)
    w = rng.uniform(-1, 1, (3, 3, 4, oc)).astype(np.float32)
    got = _run(lambda: tf.nn.conv2d(x, w, 1, "SAME"))
    np.testing.assert_allclose(got, _conv_ref(x, w, 1, "SAME"), rtol=1e-5, atol=1e-5)


def test_conv2d_many_tiles_strided_and_grouped():
    rng = np.random.RandomState(7)
    # 6 * 30 * 30 rows x 576 patch columns: several tiles shared out over the threads
    x = rng.uniform(-1, 1, (6, 30, 30, 64)).astype(np.float32)
    w = rng.uniform(-1, 1, (3, 3, 64, 20)).astype(np.float32) * 0.1
    got = _run(lambda: tf.nn.conv2d(x, w, 1, "SAME"))
    np.testing.assert_allclose(got, _conv_ref(x, w, 1, "SAME"), rtol=1e-4, atol=1e-4)
    got = _run(lambda: tf.nn.conv2d(x, w, 2, "VALID"))
    np.testing.assert_allclose(got, _conv_ref(x, w, 2, "VALID"), rtol=1e-4, atol=1e-4)
    # groups: input depth 64 = 4 groups of 16, output depth 20 = 4 x 5 (b's column offset)
    wg = rng.uniform(-1, 1, (3, 3, 16, 20)).astype(np.float32) * 0.1
    got = _run(lambda: tf.nn.conv2d(x, wg, 1, "SAME"))
    np.testing.assert_allclose(got, _conv_ref(x, wg, 1, "SAME"), rtol=1e-4, atol=1e-4)
    # 1x1: the input rows are the patches
    w1 = rng.uniform(-1, 1, (1, 1, 64, 70)).astype(np.float32) * 0.1
    got = _run(lambda: tf.nn.conv2d(x, w1, 1, "VALID"))
    np.testing.assert_allclose(got, _conv_ref(x, w1, 1, "VALID"), rtol=1e-4, atol=1e-4)


def test_conv2d_transpose_is_the_adjoint():
    # <conv(x, w), dy> == <x, conv_transpose(dy, w)>; 5 images of 28 * 28 output rows with
    # 288 patch columns: two tiles per image, images shared out over the threads
    rng = np.random.RandomState(3)
    x = rng.uniform(-1, 1, (5, 56, 56, 32)).astype(np.float32)
    w = rng.uniform(-1, 1, (3, 3, 32, 24)).astype(np.float32)
    dy = rng.uniform(-1, 1, (5, 28, 28, 24)).astype(np.float32)
    with tf.Graph().as_default(), tf.Session() as s:
        y, dx = s.run([tf.nn.conv2d(x, w, 2, "SAME"),
                       tf.nn.conv2d_transpose(dy, w, [5, 56, 56, 32], 2, "SAME")])
    np.testing.assert_allclose(y, _conv_ref(x, w, 2, "SAME"), rtol=1e-4, atol=1e-4)
    lhs = np.sum(y.astype(np.float64) * dy)
    rhs = np.sum(x.astype(np.float64) * dx)
    np.testing.assert_allclose(lhs, rhs, rtol=1e-5)
    # one output pixel's gradient by hand: dy at (0, 0) only, stride 2 SAME pads 0 before
    one = np.zeros((1, 2, 2, 24), np.float32)
    one[0, 0, 0] = dy[0, 0, 0]
    dx1 = _run(lambda: tf.nn.conv2d_transpose(one, w, [1, 4, 4, 32], 2, "SAME"))
    want = np.zeros((1, 4, 4, 32))
    for i in range(3):
        for j in range(3):
            want[0, i, j] = w[i, j].astype(np.float64) @ dy[0, 0, 0]
    np.testing.assert_allclose(dx1, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("c,mult,stride", [(3, 1, 1), (16, 1, 1), (17, 1, 2), (40, 1, 1),
                                           (17, 2, 1)])
def test_depthwise_channel_blocks(c, mult, stride):
    rng = np.random.RandomState(c + mult)
    x = rng.uniform(-1, 1, (2, 9, 11, c)).astype(np.float32)
    w = rng.uniform(-1, 1, (3, 3, c, mult)).astype(np.float32)
    got = _run(lambda: tf.nn.depthwise_conv2d(x, w, [1, stride, stride, 1], "SAME"))
    # depthwise = grouped conv with one input channel per group
    want = _conv_ref(x, w.reshape(3, 3, 1, c * mult), stride, "SAME")
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def _top_k_ref(x, k):
    idx = np.argsort(-x.astype(np.float64), axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(x, idx, -1), idx


@pytest.mark.parametrize("k", [1, 5, 64, 65, 200])
def test_top_k_selection_and_sort(k):
    rng = np.random.RandomState(k)
    # few distinct values: many ties, broken by the lower index as TensorFlow does
    x = rng.randint(-20, 20, (7, 300)).astype(np.float32)
    x[0, :] = np.arange(300)  # ascending: every element enters the buffer
    x[1, :] = -np.arange(300)
    vals, idx = _run(lambda: tf.nn.top_k(x, k))
    want_v, want_i = _top_k_ref(x, k)
    np.testing.assert_array_equal(vals, want_v)
    np.testing.assert_array_equal(idx, want_i)


def test_top_k_half_and_infinities():
    x = np.array([[1, -np.inf, 3, np.inf, 3, 0.5, -0.0, 0.0]], np.float16)
    vals, idx = _run(lambda: tf.nn.top_k(x, 5))
    np.testing.assert_array_equal(idx, [[3, 2, 4, 0, 5]])
    np.testing.assert_array_equal(vals, np.array([[np.inf, 3, 3, 1, 0.5]], np.float16))


def _act_inputs():
    rng = np.random.RandomState(0)
    x = np.concatenate([rng.uniform(-100, 100, 4000), rng.uniform(-16, 16, 4000),
                        [-13.94, -13.93, 13.93, 13.94, 0, -0.0, 88.7, 89, -88, -104, 1e-8,
                         -1e-8, np.inf, -np.inf]]).astype(np.float32)
    return x


def test_softplus_elu_selu_vectorized():
    x = _act_inputs()
    xd = x.astype(np.float64)
    with np.errstate(over="ignore"):
        softplus = np.where(xd > 15, xd, np.log1p(np.exp(xd)))
        elu = np.where(xd < 0, np.expm1(xd), xd)
    scale, alpha = 1.0507009873554804934193349852946, 1.6732632423543772848170429916717
    selu = np.where(xd < 0, scale * alpha * np.expm1(xd), scale * xd)
    with tf.Graph().as_default(), tf.Session() as s:
        got = s.run([tf.nn.softplus(x), tf.nn.elu(x), tf.nn.selu(x)])
    for g, w in zip(got, [softplus, elu, selu]):
        assert g.dtype == np.float32
        # exp(x) - 1 as TensorFlow computes it: absolute error near 0 is float's epsilon
        np.testing.assert_allclose(g, w, rtol=3e-6, atol=2e-7)
    nan = np.array([np.nan] * 17, np.float32)  # a full vector and a tail lane
    with tf.Graph().as_default(), tf.Session() as s:
        for r in s.run([tf.nn.softplus(nan), tf.nn.elu(nan), tf.nn.selu(nan)]):
            assert np.isnan(r).all()
    h = x[:5000].astype(np.float16)
    got = _run(lambda: tf.nn.softplus(h))
    with np.errstate(over="ignore"):
        want = np.log1p(np.exp(h.astype(np.float64)))
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=2e-3, atol=1e-3)


def _lrn_ref(x, r, bias, alpha, beta):
    xd = x.astype(np.float64)
    sq = xd * xd
    d = x.shape[-1]
    s = np.zeros_like(xd)
    for i in range(d):
        s[..., i] = sq[..., max(0, i - r):min(d, i + r + 1)].sum(-1)
    return xd / (bias + alpha * s) ** beta


@pytest.mark.parametrize("beta", [0.5, 0.75])
@pytest.mark.parametrize("radius", [0, 7, 200, 400])
def test_lrn_window_sums_over_chunks(beta, radius):
    # depth 300: window sums restart at the 256-channel chunk boundary; radius 200 leaves
    # no window inside the depth, 400 (over the chunk) slides one window sum instead
    rng = np.random.RandomState(1)
    x = rng.uniform(-2, 2, (2, 3, 4, 300)).astype(np.float32)
    got = _run(lambda: tf.nn.lrn(x, radius, 0.5, 0.3 / (radius + 1), beta))
    want = _lrn_ref(x, radius, 0.5, 0.3 / (radius + 1), beta)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_l2_loss_blocks(dtype):
    rng = np.random.RandomState(2)
    x = rng.uniform(-3, 3, 200003).astype(dtype)  # three 65536-element blocks and a tail
    got = _run(lambda: tf.nn.l2_loss(x))
    np.testing.assert_allclose(got, np.sum(x.astype(np.float64) ** 2) / 2, rtol=1e-7)


@pytest.mark.parametrize("fmt", ["NHWC", "NCHW"])
def test_fused_batch_norm_training_statistics(fmt):
    rng = np.random.RandomState(4)
    # 5 * 9 * 7 = 315 rows: more rows than blocks, not a multiple of them; an offset mean
    x = (rng.standard_normal((5, 9, 7, 6)) * 3 + 40).astype(np.float32)
    scale = rng.uniform(0.5, 2, 6).astype(np.float32)
    offset = rng.uniform(-1, 1, 6).astype(np.float32)
    xin = x if fmt == "NHWC" else np.ascontiguousarray(x.transpose(0, 3, 1, 2))
    with tf.Graph().as_default(), tf.Session() as s:
        y, mean, var = s.run(tf.nn.fused_batch_norm(xin, scale, offset, epsilon=1e-3,
                                                    data_format=fmt))
    if fmt == "NCHW":
        y = y.transpose(0, 2, 3, 1)
    xd = x.astype(np.float64).reshape(-1, 6)
    m, v = xd.mean(0), xd.var(0)
    np.testing.assert_allclose(mean, m, rtol=1e-6)
    np.testing.assert_allclose(var, v * len(xd) / (len(xd) - 1), rtol=1e-5)
    want = (x - m) / np.sqrt(v + 1e-3) * scale + offset
    np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-4)


def test_resize_bilinear_parallel_rows():
    # 2 * 96 output rows of 80 * 32 channels: enough work to be shared out
    rng = np.random.RandomState(5)
    x = rng.uniform(-1, 1, (2, 20, 30, 32)).astype(np.float32)
    got = _run(lambda: tf.compat.v1.image.resize_bilinear(x, [96, 80]))

    def weights(out, inp):
        src = np.arange(out) * np.float32(inp / out)
        lo = np.floor(src).astype(int)
        return lo, np.minimum(lo + 1, inp - 1), (src - lo)

    ylo, yhi, yl = weights(96, 20)
    xlo, xhi, xl = weights(80, 30)
    xd = x.astype(np.float64)
    top = xd[:, ylo][:, :, xlo] + (xd[:, ylo][:, :, xhi] - xd[:, ylo][:, :, xlo]) * xl[:, None]
    bot = xd[:, yhi][:, :, xlo] + (xd[:, yhi][:, :, xhi] - xd[:, yhi][:, :, xlo]) * xl[:, None]
    want = top + (bot - top) * yl[:, None, None]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
