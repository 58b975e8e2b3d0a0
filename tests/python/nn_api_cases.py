"""tf.nn function cases written against the TF1 API, so the same code runs on TensorFlow 2.21
(tf.compat.v1, by tools/gen_nn_api_expected.py) and on minitf (tests/python/test_nn_api.py).

A case is `build(tf) -> (outputs, xs)`: the output tensors and the input tensors to
differentiate; run() records the nodes the case added ([name, op]), the outputs' static shapes
and values, and the gradients of sum(output * weights) for each x. ERRORS are cases whose
construction raises: [exception class, message]."""
import os

import numpy as np

VOCAB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures",
                     "nn_vocab.csv")

R = np.random.RandomState(7)
X34 = (R.rand(3, 4).astype(np.float32) - 0.5) * 6
LAB34 = R.rand(3, 4).astype(np.float32)
X234 = (R.rand(2, 3, 4).astype(np.float32) - 0.5) * 4
W234 = R.randint(0, 3, size=(2, 3, 4)).astype(np.float32)
IMG = (R.rand(2, 7, 6, 3).astype(np.float32) - 0.5)
SEQ = (R.rand(2, 9, 3).astype(np.float32) - 0.5)


def _c(tf, v, name=None):
    return tf.constant(v, name=name)


def sigmoid_xent(tf):
    x, lab = _c(tf, X34, "x"), _c(tf, LAB34, "lab")
    return [tf.nn.sigmoid_cross_entropy_with_logits(labels=lab, logits=x)], [x, lab]


def weighted_xent(tf):
    x, lab = _c(tf, X34, "x"), _c(tf, LAB34, "lab")
    return [tf.nn.weighted_cross_entropy_with_logits(labels=lab, logits=x, pos_weight=2.5,
                                                     name="wx")], [x, lab]


def weighted_xent_targets(tf):
    x, lab = _c(tf, X34, "x"), _c(tf, LAB34, "lab")
    return [tf.nn.weighted_cross_entropy_with_logits(targets=lab, logits=x, pos_weight=0.5)], [x]


def log_poisson(tf):
    x, t = _c(tf, X34, "x"), _c(tf, LAB34 * 3, "t")
    return [tf.nn.log_poisson_loss(t, x), tf.nn.log_poisson_loss(t, x, compute_full_loss=True)], \
        [x, t]


def moments_(tf):
    x = _c(tf, X234, "x")
    m, v = tf.nn.moments(x, [0, 2])
    mk, vk = tf.nn.moments(x, axes=[1], keep_dims=True, name="mk")
    return [m, v, mk, vk], [x]


def moments_placeholder(tf):
    x = tf.placeholder_with_default(X234, [None, 3, None])
    m, v = tf.nn.moments(x, [0, 1], keepdims=True)
    return [m, v], [x]


def weighted_moments_(tf):
    x, w = _c(tf, X234, "x"), _c(tf, W234, "w")
    m, v = tf.nn.weighted_moments(x, [0, 2], w)
    mk, vk = tf.nn.weighted_moments(x, [1], w[:, :1, :], keep_dims=True)
    return [m, v, mk, vk], [x, w]


def sufficient_stats(tf):
    x = _c(tf, X234, "x")
    c, m, v, s = tf.nn.sufficient_statistics(x, [0, 2])
    c2, m2, v2, s2 = tf.nn.sufficient_statistics(x, [1], shift=0.25, keep_dims=True)
    mean, var = tf.nn.normalize_moments(c, m, v, None)
    mean2, var2 = tf.nn.normalize_moments(c2, m2, v2, s2)
    return [c, m, v, c2, m2, v2, s2, mean, var, mean2, var2], [x]


def sufficient_stats_dynamic(tf):
    x = tf.placeholder_with_default(X234, [2, None, 4])
    c, m, v, _ = tf.nn.sufficient_statistics(x, [1, -1])
    return [c, m, v], [x]


def batch_norm_global(tf):
    x = _c(tf, IMG, "x")
    m = _c(tf, np.float32([0.1, -0.2, 0.3]), "m")
    v = _c(tf, np.float32([1.5, 0.5, 2.0]), "v")
    b = _c(tf, np.float32([0.0, 1.0, -1.0]), "b")
    g = _c(tf, np.float32([2.0, 0.5, 1.0]), "g")
    return [tf.nn.batch_norm_with_global_normalization(x, m, v, b, g, 0.001, True),
            tf.nn.batch_norm_with_global_normalization(x, m, v, b, g, 0.01, False, name="bn2")],\
        [x, m, v, b, g]


def l2_normalize_(tf):
    x = _c(tf, X234, "x")
    return [tf.nn.l2_normalize(x), tf.nn.l2_normalize(x, axis=1),
            tf.nn.l2_normalize(x, dim=[0, 2], epsilon=0.5, name="l2n")], [x]


def l2_normalize_complex(tf):
    x = tf.complex(_c(tf, X34, "re"), _c(tf, LAB34, "im"))
    y = tf.nn.l2_normalize(x, 1)
    return [tf.real(y), tf.imag(y)], []


def zero_fraction_(tf):
    x = _c(tf, np.float32([[0, 1, 0], [2, 0, 0]]), "x")
    return [tf.nn.zero_fraction(x), tf.nn.zero_fraction(tf.nn.relu(_c(tf, X234)))], []


def crelu_(tf):
    x = _c(tf, X34, "x")
    return [tf.nn.crelu(x), tf.nn.crelu(x, axis=0, name="cr")], [x]


def swish_(tf):
    x = _c(tf, X34, "x")
    return [tf.nn.swish(x), tf.nn.silu(x, beta=1.5)], [x]


def xw_plus_b_(tf):
    x = _c(tf, X34, "x")
    w = _c(tf, LAB34.T, "w")
    b = _c(tf, np.float32([0.5, -1.0, 0.25]), "b")
    return [tf.nn.xw_plus_b(x, w, b), tf.nn.relu_layer(x, w, b, name="rl")], [x, w, b]


def compute_average_loss_(tf):
    per = _c(tf, np.float32([1.0, 2.0, 4.0, 8.0]), "per")
    sw = _c(tf, np.float32([1.0, 0.0, 0.5, 2.0]), "sw")
    return [tf.nn.compute_average_loss(per),
            tf.nn.compute_average_loss(per, sample_weight=sw),
            tf.nn.compute_average_loss(per, global_batch_size=10),
            tf.nn.compute_average_loss(_c(tf, X34), sample_weight=0.5)], [per]


def scale_regularization_loss_(tf):
    x = _c(tf, np.float32([1.0, 2.5]), "x")
    return [tf.nn.scale_regularization_loss(x)], [x]


def top_k_int64(tf):
    x = _c(tf, X34, "x")
    v, i = tf.nn.top_k(x, 2, index_type=tf.int64)
    return [v, i], []  # TF 2.21's TopKV2 gradient fails for int64 indices


def xent_signatures(tf):
    x, lab = _c(tf, X34, "x"), _c(tf, LAB34, "lab")
    ids = _c(tf, np.int32([0, 3, 1]), "ids")
    return [tf.nn.softmax_cross_entropy_with_logits(labels=lab, logits=x),
            tf.nn.sparse_softmax_cross_entropy_with_logits(labels=ids, logits=x)], [x]


def space_aliases(tf):
    x = _c(tf, np.arange(32, dtype=np.float32).reshape(1, 4, 4, 2), "x")
    s2d = tf.nn.space_to_depth(x, 2)
    return [s2d, tf.nn.depth_to_space(s2d, 2, name="d2s"),
            tf.nn.space_to_batch(x, [[0, 0], [2, 0]], 2)], [x]


F33 = (R.rand(3, 3, 3, 4).astype(np.float32) - 0.5)
F1D = (R.rand(3, 3, 4).astype(np.float32) - 0.5)
DW = R.rand(3, 3, 3, 2).astype(np.float32) - 0.5
PW = R.rand(1, 1, 6, 4).astype(np.float32) - 0.5
DY = R.rand(2, 7, 6, 4).astype(np.float32)
DDY = R.rand(2, 4, 3, 6).astype(np.float32)


def conv1d_(tf):
    x, f = _c(tf, SEQ, "x"), _c(tf, F1D, "f")
    return [tf.nn.conv1d(x, f, 1, "SAME"), tf.nn.conv1d(x, f, 2, "VALID", name="c2"),
            tf.nn.conv1d(input=x, filters=f, stride=[1], padding="SAME", dilations=2)], [x, f]


def conv1d_transpose_(tf):
    y, f = _c(tf, SEQ[:, :5, :], "y"), _c(tf, np.transpose(F1D[:, :, :3], (0, 1, 2)), "f")
    return [tf.nn.conv1d_transpose(y, f, [2, 9, 3], 2, "SAME"),
            tf.nn.conv_transpose(y, f, [2, 11, 3], [2], "VALID")], [y, f]


def convolution_(tf):
    x, f = _c(tf, IMG, "x"), _c(tf, F33, "f")
    s, f1 = _c(tf, SEQ, "s"), _c(tf, F1D, "f1")
    return [tf.nn.convolution(x, f, "SAME"),
            tf.nn.convolution(x, f, "VALID", dilation_rate=[2, 1]),
            tf.nn.convolution(x, f, "SAME", strides=[2, 2], name="strided"),
            tf.nn.convolution(s, f1, "SAME", dilation_rate=[2]),
            tf.nn.atrous_conv2d(x, f, 2, "SAME"),
            tf.nn.atrous_conv2d(x, f, 2, "VALID", name="atv")], [x, f, s, f1]


def atrous_transpose(tf):
    y = _c(tf, IMG[:, :, :, :], "y")
    f = _c(tf, np.transpose(F33, (0, 1, 3, 2)), "f")
    return [tf.nn.atrous_conv2d_transpose(y, f, [2, 7, 6, 4], 2, "SAME"),
            tf.nn.atrous_conv2d_transpose(y[:, :3, :3, :], f, [2, 7, 7, 4], 2, "VALID"),
            tf.nn.atrous_conv2d_transpose(y, f, [2, 7, 6, 4], 1, "SAME")], [y, f]


def separable_(tf):
    x = _c(tf, IMG, "x")
    dw = _c(tf, DW, "dw")
    pw = _c(tf, PW, "pw")
    return [tf.nn.separable_conv2d(x, dw, pw, [1, 1, 1, 1], "SAME"),
            tf.nn.separable_conv2d(x, dw, pw, [1, 1, 1, 1], "VALID", rate=[2, 2]),
            tf.nn.separable_conv2d(x, dw, pw, [1, 2, 2, 1], "SAME", name="sep")], [x, dw, pw]


def depthwise_rate(tf):
    x = _c(tf, IMG, "x")
    dw = _c(tf, DW, "dw")
    return [tf.nn.depthwise_conv2d(x, dw, [1, 1, 1, 1], "SAME", rate=[2, 2]),
            tf.nn.depthwise_conv2d(x, dw, [1, 1, 1, 1], "VALID")], [x, dw]


def pool_(tf):
    x, s = _c(tf, IMG, "x"), _c(tf, SEQ, "s")
    return [tf.nn.pool(x, [2, 2], "MAX", "SAME"),
            tf.nn.pool(x, [2, 2], "AVG", "VALID", strides=[2, 2]),
            tf.nn.pool(x, [2, 3], "MAX", "VALID", dilation_rate=[2, 1], name="dp"),
            tf.nn.pool(s, [3], "AVG", "SAME"),
            tf.nn.pool(s, [2], "MAX", "VALID", dilation_rate=[3])], [x, s]


def pool1d(tf):
    s = _c(tf, SEQ, "s")
    return [tf.nn.max_pool1d(s, 2, 2, "SAME"), tf.nn.avg_pool1d(s, [3], 1, "VALID"),
            tf.nn.max_pool1d(s, 3, 1, [[0, 0], [1, 1], [0, 0]], name="mp")], [s]


def backprops(tf):
    x, f = _c(tf, IMG, "x"), _c(tf, F33, "f")
    dy = _c(tf, DY, "dy")
    dw = _c(tf, DW, "dw")
    ddy = _c(tf, DDY, "ddy")
    return [tf.nn.conv2d_backprop_filter(x, [3, 3, 3, 4], dy, [1, 1, 1, 1], "SAME"),
            tf.nn.depthwise_conv2d_native_backprop_input([2, 7, 6, 3], dw, ddy, [1, 2, 2, 1],
                                                         "SAME"),
            tf.nn.depthwise_conv2d_backprop_filter(x, [3, 3, 3, 2], ddy, [1, 2, 2, 1], "SAME",
                                                   name="dbf")], [x, dy]


R2 = np.random.RandomState(11)
W20 = R2.rand(20, 4).astype(np.float32) - 0.5
B20 = R2.rand(20).astype(np.float32) - 0.5
IN34 = R2.rand(3, 4).astype(np.float32) - 0.5
TRUE3 = np.int64([[1, 7], [0, 3], [12, 7]])


def samplers(tf):
    tc = _c(tf, TRUE3, "tc")
    outs = []
    for r in [tf.nn.uniform_candidate_sampler(tc, 2, 5, True, 15, seed=3),
              tf.nn.uniform_candidate_sampler(tc, 2, 6, False, 15, seed=4),
              tf.nn.log_uniform_candidate_sampler(tc, 2, 8, True, 20, seed=5, name="lu"),
              tf.nn.log_uniform_candidate_sampler(tc, 2, 4, False, 13, seed=6),
              tf.nn.all_candidate_sampler(tc, 2, 13, True, seed=7)]:
        outs += list(r)
    return outs, []


def fixed_unigram(tf):
    tc = _c(tf, np.int64([[1], [4], [0]]), "tc")
    uni = [1.0, 3.0, 0.5, 2.0, 8.0, 0.25]
    outs = []
    for r in [tf.nn.fixed_unigram_candidate_sampler(tc, 1, 4, True, 6, unigrams=uni, seed=8),
              tf.nn.fixed_unigram_candidate_sampler(tc, 1, 7, False, 6, unigrams=uni,
                                                    distortion=0.5, seed=9),
              tf.nn.fixed_unigram_candidate_sampler(tc, 1, 3, True, 5, unigrams=uni[:3],
                                                    num_reserved_ids=2, seed=10),
              tf.nn.fixed_unigram_candidate_sampler(tc[:, :1] * 0, 1, 2, False, 3,
                                                    unigrams=uni, num_shards=2, shard=1,
                                                    seed=11),
              tf.nn.fixed_unigram_candidate_sampler(tc, 1, 3, True, 6, vocab_file=VOCAB,
                                                    num_reserved_ids=1, distortion=0.75,
                                                    seed=12)]:
        outs += list(r)
    return outs, []


def accidental_hits(tf):
    tc = _c(tf, TRUE3, "tc")
    sc = _c(tf, np.int64([7, 2, 12, 1, 7]), "sc")
    return list(tf.nn.compute_accidental_hits(tc, sc, 2)), []


def _sampled_inputs(tf):
    w, b, x = _c(tf, W20, "w"), _c(tf, B20, "b"), _c(tf, IN34, "inp")
    return w, b, x


def nce_loss_(tf):
    w, b, x = _sampled_inputs(tf)
    lab = _c(tf, TRUE3, "lab")
    sv = tf.nn.log_uniform_candidate_sampler(lab, 2, 6, True, 20, seed=12)
    return [tf.nn.nce_loss(w, b, lab, x, 6, 20, num_true=2, sampled_values=sv),
            tf.nn.nce_loss(w, b, lab, x, 6, 20, num_true=2, sampled_values=sv,
                           remove_accidental_hits=True, name="nce2")], [w, b, x]


def sampled_softmax_(tf):
    w, b, x = _sampled_inputs(tf)
    lab = _c(tf, TRUE3[:, :1], "lab")
    return [tf.nn.sampled_softmax_loss(w, b, lab, x, 5, 20, seed=13),
            tf.nn.sampled_softmax_loss([w[:10], w[10:]], [b[:10], b[10:]], lab, x, 5, 20,
                                       partition_strategy="div", seed=13,
                                       remove_accidental_hits=False, name="ssl2")], [w, b, x]


R3 = np.random.RandomState(5)
VOL = R3.rand(2, 5, 4, 6, 3).astype(np.float32) - 0.5
F3D = R3.rand(2, 3, 2, 3, 4).astype(np.float32) - 0.5
F3G = R3.rand(2, 2, 2, 1, 6).astype(np.float32) - 0.5
DY3 = R3.rand(2, 5, 4, 6, 4).astype(np.float32) - 0.5


def conv3d_(tf):
    x, f = _c(tf, VOL, "x"), _c(tf, F3D, "f")
    return [tf.nn.conv3d(x, f, [1, 1, 1, 1, 1], "SAME"),
            tf.nn.conv3d(x, f, [1, 2, 1, 2, 1], "VALID", name="c3v"),
            tf.nn.conv3d(x, f, [1, 1, 1, 1, 1], "SAME", dilations=[1, 2, 1, 1, 1]),
            tf.nn.convolution(x, f, "SAME", dilation_rate=[1, 2, 2])], [x, f]


def conv3d_double(tf):
    x, f = _c(tf, VOL.astype(np.float64), "x"), _c(tf, F3D.astype(np.float64), "f")
    return [tf.nn.conv3d(x, f, [1, 2, 2, 2, 1], "SAME")], [x, f]


def conv3d_ncdhw(tf):
    x, f = _c(tf, np.transpose(VOL, (0, 4, 1, 2, 3)), "x"), _c(tf, F3D, "f")
    return [tf.nn.conv3d(x, f, [1, 1, 1, 2, 1], "SAME", data_format="NCDHW")], [x, f]


def conv3d_backprops(tf):
    x, f = _c(tf, VOL, "x"), _c(tf, F3D, "f")
    dy = _c(tf, DY3, "dy")
    return [tf.nn.conv3d_backprop_filter_v2(x, [2, 3, 2, 3, 4], dy, [1, 1, 1, 1, 1], "SAME"),
            tf.nn.conv3d_backprop_filter(x, [2, 3, 2, 3, 4], dy, [1, 1, 1, 1, 1], "SAME",
                                         name="bf"),
            tf.nn.conv3d_transpose(dy, f, [2, 5, 4, 6, 3], [1, 1, 1, 1, 1]),
            tf.nn.conv3d_transpose(dy[:, ::2, ::2, ::2], f, [2, 5, 4, 6, 3], 2, padding="SAME",
                                   name="t2"),
            tf.nn.conv_transpose(dy, f, [2, 5, 4, 6, 3], 1, "SAME")], [x, f, dy]


def pool3d(tf):
    x = _c(tf, VOL, "x")
    return [tf.nn.max_pool3d(x, 2, 2, "SAME"), tf.nn.avg_pool3d(x, [2, 3, 2], 1, "VALID"),
            tf.nn.max_pool3d(x, [1, 2, 3, 2, 1], [1, 1, 2, 1, 1], "VALID", name="mp3"),
            tf.nn.avg_pool3d(x, 3, 2, "SAME", name="ap3"),
            tf.nn.pool(x, [2, 2, 2], "MAX", "VALID", dilation_rate=[2, 1, 1])], [x]


def pool3d_second_order(tf):
    x = _c(tf, VOL, "x")
    y1 = tf.nn.max_pool3d(x, 2, 2, "SAME")
    y2 = tf.nn.avg_pool3d(x, 2, 1, "VALID")
    g1 = tf.gradients(tf.reduce_sum(y1 * y1), x)[0]
    g2 = tf.gradients(tf.reduce_sum(y2 * y2), x)[0]
    return [g1, g2], [x]


def ctc_unique_labels_(tf):
    lab = _c(tf, np.int32([[3, 4, 4, 3, 0], [1, 1, 1, 1, 1], [5, 2, 7, 2, 5]]), "lab")
    u, i = tf.nn.ctc_unique_labels(lab)
    u64, i64 = tf.nn.ctc_unique_labels(tf.cast(lab, tf.int64), name="cul")
    return [u, i, u64, i64], []


CASES = {f.__name__.rstrip("_"): f for f in [
    ctc_unique_labels_,
    conv3d_, conv3d_double, conv3d_ncdhw, conv3d_backprops, pool3d, pool3d_second_order,
    samplers, fixed_unigram, accidental_hits, nce_loss_, sampled_softmax_,
    conv1d_, conv1d_transpose_, convolution_, atrous_transpose, separable_, depthwise_rate,
    pool_, pool1d, backprops,
    sigmoid_xent, weighted_xent, weighted_xent_targets, log_poisson, moments_,
    moments_placeholder, weighted_moments_, sufficient_stats, sufficient_stats_dynamic,
    batch_norm_global, l2_normalize_, l2_normalize_complex, zero_fraction_, crelu_, swish_,
    xw_plus_b_, compute_average_loss_, scale_regularization_loss_, top_k_int64,
    xent_signatures, space_aliases]}


def _err_sigmoid_shape(tf):
    tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.zeros([2, 3]), logits=tf.zeros([3, 2]))


def _err_sigmoid_missing(tf):
    tf.nn.sigmoid_cross_entropy_with_logits(logits=tf.zeros([2, 3]))


def _err_poisson_shape(tf):
    tf.nn.log_poisson_loss(tf.zeros([2]), tf.zeros([3]))


def _err_weighted_both(tf):
    tf.nn.weighted_cross_entropy_with_logits(labels=tf.zeros([2]), targets=tf.zeros([2]),
                                             logits=tf.zeros([2]), pos_weight=1.0)


def _err_moments_both(tf):
    tf.nn.moments(tf.zeros([2]), [0], keep_dims=True, keepdims=True)


def _err_average_loss_scalar(tf):
    tf.nn.compute_average_loss(tf.constant(1.0))


def _err_pool_same_dilated(tf):
    tf.nn.pool(tf.zeros([1, 5, 5, 1]), [2, 2], "MAX", "SAME", dilation_rate=[2, 2])


def _err_pool_strides(tf):
    tf.nn.pool(tf.zeros([1, 5, 5, 1]), [2, 2], "MAX", "VALID", strides=[3, 3])


def _err_conv_strides_dilation(tf):
    tf.nn.convolution(tf.zeros([1, 5, 5, 1]), tf.zeros([2, 2, 1, 1]), "VALID", strides=[2, 2],
                      dilation_rate=[2, 2])


def _err_conv1d_format(tf):
    tf.nn.conv1d(tf.zeros([1, 5, 1]), tf.zeros([2, 1, 1]), 1, "VALID", data_format="NHWC1")


def _err_atrous_rate(tf):
    tf.nn.atrous_conv2d_transpose(tf.zeros([1, 5, 5, 1]), tf.zeros([2, 2, 1, 1]),
                                  [1, 5, 5, 1], 0, "SAME")


def _err_conv3d_depth(tf):
    tf.nn.conv3d(tf.zeros([1, 4, 4, 4, 2]), tf.zeros([2, 2, 2, 3, 3]), [1, 1, 1, 1, 1], "SAME")


def _err_conv3d_valid(tf):
    tf.nn.conv3d(tf.zeros([1, 2, 4, 4, 2]), tf.zeros([3, 2, 2, 2, 3]), [1, 1, 1, 1, 1], "VALID")


def _err_pool3d_valid(tf):
    tf.nn.max_pool3d(tf.zeros([1, 2, 4, 4, 2]), 3, 1, "VALID")


def _err_separable_pointwise(tf):
    tf.nn.separable_conv2d(tf.zeros([1, 5, 5, 1]), tf.zeros([2, 2, 1, 1]),
                           tf.zeros([2, 1, 1, 1]), [1, 1, 1, 1], "SAME")


ERRORS = {f.__name__[5:]: f for f in [
    _err_sigmoid_shape, _err_sigmoid_missing, _err_poisson_shape, _err_weighted_both,
    _err_moments_both, _err_average_loss_scalar, _err_pool_same_dilated, _err_pool_strides,
    _err_conv_strides_dilation, _err_conv1d_format, _err_atrous_rate,
    _err_separable_pointwise, _err_conv3d_depth, _err_conv3d_valid, _err_pool3d_valid]}


def _tolist(v):
    v = np.asarray(v)
    if v.dtype.kind == "f":
        return v.astype(np.float64).tolist()
    return v.tolist()


def run(tf, build):
    """{"nodes", "shapes", "values", "grads"} of one case in a fresh graph."""
    g = tf.Graph()
    with g.as_default():
        outs, xs = build(tf)
        nodes = [[op.name, op.type] for op in g.get_operations()]
        shapes = [t.shape.as_list() if t.shape.rank is not None else None for t in outs]
        floats = [t for t in outs if t.dtype.is_floating]
        loss = None
        if xs and floats:
            terms = []
            for i, t in enumerate(floats):
                w = tf.cast(tf.reshape(tf.range(tf.size(t)), tf.shape(t)), t.dtype)
                terms.append(tf.reduce_sum(t * (w * 0.1 + 0.3 * (i + 1))))
            loss = tf.add_n(terms)
        grads = tf.gradients(loss, xs) if loss is not None else []
        grads = [tf.convert_to_tensor(gg) if hasattr(gg, "indices") else gg for gg in grads]
        with tf.Session() as sess:
            values = sess.run(outs)
            gvals = sess.run([gg for gg in grads if gg is not None])
    gvals = iter(gvals)
    return {"nodes": nodes, "shapes": shapes, "values": [_tolist(v) for v in values],
            "grads": [None if gg is None else _tolist(next(gvals)) for gg in grads]}


def error(tf, build):
    with tf.Graph().as_default():
        try:
            build(tf)
        except Exception as e:  # recorded as TensorFlow raises it
            return [type(e).__name__, str(e)]
    return None


# Graphs that build but fail when run: [exception class, the message, its node line].
def _run_sampler_out_of_range(tf):
    return tf.nn.uniform_candidate_sampler(tf.constant([[3], [15]], tf.int64), 1, 2, True, 15,
                                           seed=1)[0]


def _run_sampler_range_small(tf):
    return tf.nn.log_uniform_candidate_sampler(tf.constant([[3]], tf.int64), 1, 6, True, 5,
                                               seed=1)[0]


def _run_fixed_no_weights(tf):
    return tf.nn.fixed_unigram_candidate_sampler(tf.constant([[0]], tf.int64), 1, 2, False, 3,
                                                 seed=1)[0]


def _run_fixed_range(tf):
    return tf.nn.fixed_unigram_candidate_sampler(tf.constant([[0]], tf.int64), 1, 2, False, 4,
                                                 unigrams=[1.0, 2.0], seed=1)[0]


def _run_fixed_missing_file(tf):
    return tf.nn.fixed_unigram_candidate_sampler(tf.constant([[0]], tf.int64), 1, 2, False, 4,
                                                 vocab_file="/nonexistent/vocab.txt",
                                                 seed=1)[0]


def _run_sampler_columns(tf):
    return tf.nn.uniform_candidate_sampler(
        tf.placeholder_with_default(np.int64([[1, 2]]), [None, None]), 1, 2, True, 5, seed=1)[0]


def _run_conv3d_batch_stride(tf):
    return tf.nn.conv3d(tf.ones([2, 3, 3, 3, 1]), tf.ones([1, 1, 1, 1, 1]), [2, 1, 1, 1, 1],
                        "SAME")


def _run_conv3d_groups(tf):
    """TensorFlow's CPU Conv3D has no grouped form."""
    return tf.nn.conv3d(tf.constant(VOL), tf.constant(F3G), [1, 1, 1, 1, 1], "SAME")


def _run_pool3d_batch(tf):
    return tf.nn.max_pool3d(tf.ones([2, 3, 3, 3, 1]), [2, 1, 1, 1, 1], 1, "SAME")


RUN_ERRORS = {f.__name__[5:]: f for f in [
    _run_conv3d_batch_stride, _run_pool3d_batch, _run_conv3d_groups,
    _run_sampler_out_of_range, _run_sampler_range_small, _run_fixed_no_weights,
    _run_fixed_range, _run_fixed_missing_file, _run_sampler_columns]}


def run_error(tf, build):
    with tf.Graph().as_default():
        t = build(tf)
        with tf.Session() as sess:
            try:
                sess.run(t)
            except Exception as e:  # recorded as TensorFlow raises it
                lines = str(getattr(e, "message", e)).split("\n")
                node = [i for i, ln in enumerate(lines) if ln.startswith("\t [[")]
                return [type(e).__name__, lines[node[0] - 1] if node else lines[-1],
                        lines[node[0]] if node else None]
    return None


def sampler_runs(tf):
    """Three runs of each sampler node in one session: the generator advances per run."""
    with tf.Graph().as_default():
        tc = tf.constant(TRUE3)
        outs = [tf.nn.uniform_candidate_sampler(tc, 2, 4, True, 15, seed=21)[0],
                tf.nn.log_uniform_candidate_sampler(tc, 2, 3, False, 30, seed=22)[0],
                tf.nn.fixed_unigram_candidate_sampler(tc, 2, 5, True, 13, seed=23,
                                                      unigrams=list(range(1, 14)))[0]]
        with tf.Session() as sess:
            return [[v.tolist() for v in sess.run(outs)] for _ in range(3)]
