"""Second derivatives of batch norm (the gradients of FusedBatchNormGrad, V2 and V3): for
each case, g = tf.gradients(sum(y * w), [x, scale, offset]) of a fused batch norm, then
tf.gradients(sum of g_i * v_i, [x, scale, offset]), on fixed float32 inputs, training and
inference, NHWC and NCHW (and two float16 cases), written against the TF1 API so the same code runs on TensorFlow
2.21 and on minitf. tools/gen_bn_second_order_expected.py records TensorFlow's values
(tests/fixtures/bn_second_order_expected.json); tests/python/test_bn_second_order.py replays
them. The fused batch norm ops take only half, bfloat16 and float32 data (as in TF), so
there are no float64 cases."""
import numpy as np

NHWC_SHAPE = (2, 3, 2, 3)  # N, H, W, C
C = NHWC_SHAPE[-1]
X = (np.sin(np.arange(36.0) * 1.7) * 2.0 + np.arange(36.0) * 0.05).reshape(NHWC_SHAPE)
W = np.cos(np.arange(36.0) * 0.9).reshape(NHWC_SHAPE)
V = np.sin(np.arange(36.0) * 0.4 + 1.0).reshape(NHWC_SHAPE)
SCALE = np.array([1.5, -0.7, 0.9])
OFFSET = np.array([0.2, -0.1, 0.4])
MEAN = np.array([0.3, -0.2, 0.5])
VAR = np.array([1.3, 0.6, 2.1])
V_SCALE = np.array([0.8, -1.1, 0.5])
V_OFFSET = np.array([-0.6, 0.9, 1.2])


def nchw(a):
    return np.transpose(a, (0, 3, 1, 2))


# name: (op version, is_training, data_format[, "square"]): with "square" the loss is
# sum(y * y * w), so FusedBatchNormGrad's grad_y input depends on x too. "tied": the first
# order is FusedBatchNormGradV3(y_backprop=x, x=x) itself (inference), one tensor feeding
# two of the inputs that TF's tape watches (the tape then returns that tensor's whole
# gradient for both inputs, and tf.gradients adds the two: TF's value, kept here).
CASES = {
    "v3_train_nhwc": ("V3", True, "NHWC"),
    "v3_train_nchw": ("V3", True, "NCHW"),
    "v3_infer_nhwc": ("V3", False, "NHWC"),
    "v3_infer_nchw": ("V3", False, "NCHW"),
    "v1_train_nhwc": ("V1", True, "NHWC"),
    "v2_train_nchw": ("V2", True, "NCHW"),
    "v1_infer_nhwc": ("V1", False, "NHWC"),
    "v2_infer_nchw": ("V2", False, "NCHW"),
    "v3_train_nhwc_square": ("V3", True, "NHWC", "square"),
    "v3_infer_nchw_square": ("V3", False, "NCHW", "square"),
    "v3_grad_tied_infer": ("tied", False, "NHWC"),
    "v3_train_nhwc_half": ("V3", True, "NHWC", "square", "half"),
    "v3_infer_nchw_half": ("V3", False, "NCHW", "half"),
}

EPSILON = 0.001


def dtype(name):
    """x's dtype: float16 for the "half" cases (scale, offset and statistics stay float32)."""
    return np.float16 if "half" in CASES[name][3:] else np.float32


def _data(name):
    f = nchw if CASES[name][2] == "NCHW" else (lambda a: a)
    return [f(a).astype(dtype(name)) for a in (X, W, V)]


def batch_norm(tf, version, x, scale, offset, mean, var, training, fmt):
    """y of a FusedBatchNorm (V1, V2 through tf.raw_ops, V3 through tf.nn.fused_batch_norm)."""
    if version == "V3":
        return tf.nn.fused_batch_norm(x, scale, offset, mean=None if training else mean,
                                      variance=None if training else var, epsilon=EPSILON,
                                      data_format=fmt, is_training=training)[0]
    op = tf.raw_ops.FusedBatchNorm if version == "V1" else tf.raw_ops.FusedBatchNormV2
    if training:
        empty = tf.constant([], np.float32)
        mean, var = empty, empty
    return op(x=x, scale=scale, offset=offset, mean=mean, variance=var, epsilon=EPSILON,
              data_format=fmt, is_training=training)[0]


def first_order(tf, name, x, scale, offset):
    """[dy/dx, dy/dscale, dy/doffset] of sum(y * w) (the FusedBatchNormGrad outputs)."""
    version, training, fmt = CASES[name][:3]
    _, w, _ = _data(name)
    mean = tf.constant(MEAN.astype(np.float32))
    var = tf.constant(VAR.astype(np.float32))
    if version == "tied":
        return list(tf.raw_ops.FusedBatchNormGradV3(
            y_backprop=x, x=x, scale=scale, reserve_space_1=mean, reserve_space_2=var,
            reserve_space_3=mean, epsilon=EPSILON, data_format=fmt, is_training=training)[:3])
    y = batch_norm(tf, version, x, scale, offset, mean, var, training, fmt)
    if "square" in CASES[name][3:]:
        y = y * y
    return tf.gradients(tf.reduce_sum(y * tf.constant(w)), [x, scale, offset])


def build(tf, name):
    """(x, scale, offset, [d/dx, d/dscale, d/doffset] of sum(g_i * v_i)) in the default graph."""
    xv, _, v = _data(name)
    x = tf.constant(xv, name="x")
    scale = tf.constant(SCALE.astype(np.float32), name="scale")
    offset = tf.constant(OFFSET.astype(np.float32), name="offset")
    g = first_order(tf, name, x, scale, offset)
    vs = [tf.constant(v), tf.constant(V_SCALE.astype(np.float32)),
          tf.constant(V_OFFSET.astype(np.float32))]
    total = tf.add_n([tf.cast(tf.reduce_sum(gi * vi), tf.float32) for gi, vi in zip(g, vs)])
    return x, scale, offset, tf.gradients(total, [x, scale, offset])


def run(tf, name):
    """The second derivatives as lists (None where no gradient flows)."""
    with tf.Graph().as_default():
        _, _, _, grads = build(tf, name)
        with tf.Session() as sess:
            fetch = [g for g in grads if g is not None]
            vals = iter(sess.run(fetch))
            return [None if g is None else np.asarray(next(vals)).tolist() for g in grads]
