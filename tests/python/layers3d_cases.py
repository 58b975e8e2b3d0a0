"""tf.layers 3-D cases (Conv3D, Conv3DTranspose, MaxPooling3D, AveragePooling3D and their
functional forms) and the orthogonal initializer, written against the TF1 API so the same
code runs on TensorFlow 2.21 (tf.compat.v1, TF_USE_LEGACY_KERAS=1) and on minitf. Each case returns outputs and the
gradients of a weighted sum of them with respect to the input and the variables; run() is
layers_cases.run (nodes, collections, static shapes, values).
tools/gen_layers3d_expected.py writes TF's; tests/python/test_layers3d.py compares."""
import numpy as np

from layers_cases import _const_init, run  # noqa: F401

RNG = np.random.RandomState(11)
X5 = RNG.uniform(-1, 1, (2, 5, 4, 6, 3)).astype(np.float32)
X5S = RNG.uniform(-1, 1, (1, 3, 2, 3, 2)).astype(np.float32)


def _grads(tf, outputs, wrt):
    """{"d<out>/<wrt>"}: gradients of sum(out * sin-weights) for each output."""
    grads = {}
    for key, out in sorted(outputs.items()):
        n = int(np.prod(out.shape.as_list()))
        w = np.sin(np.arange(n, dtype=np.float64) * 0.7).reshape(out.shape.as_list())
        loss = tf.reduce_sum(out * tf.constant(w.astype(np.float32)))
        names = sorted(wrt)
        for name, g in zip(names, tf.gradients(loss, [wrt[k] for k in names])):
            if g is not None:  # a variable of another layer
                grads["d%s/%s" % (key, name)] = g
    return grads


def conv3d_forms(tf):
    x = tf.constant(X5)
    a = tf.layers.conv3d(x, 4, 3, kernel_initializer=_const_init(tf, [3, 3, 3, 3, 4]),
                         bias_initializer=tf.constant_initializer(0.05),
                         activation=tf.nn.relu)
    layer = tf.layers.Conv3D(2, (2, 3, 2), strides=(2, 1, 2), padding="same",
                             use_bias=False, kernel_regularizer=tf.nn.l2_loss,
                             kernel_initializer=_const_init(tf, [2, 3, 2, 3, 2], offset=0.5))
    b = layer(x)
    c = tf.layers.conv3d(tf.placeholder_with_default(X5, [None, None, None, None, 3]), 2, 2,
                         kernel_initializer=_const_init(tf, [2, 2, 2, 3, 2], offset=2.0),
                         name="conv_c")
    out = {"a": a, "b": b, "c": c}
    wrt = {"x": x}
    wrt.update({v.op.name.replace("/", "_"): v for v in tf.trainable_variables()})
    out.update(_grads(tf, {"a": a, "b": b}, wrt))
    info = {"name": layer.name, "scope": layer.scope_name,
            "weights": [w.name for w in layer.weights]}
    return out, info


def conv3d_dilated(tf):
    x = tf.constant(X5)
    d = tf.layers.conv3d(x, 2, 2, dilation_rate=(2, 1, 2),
                         kernel_initializer=_const_init(tf, [2, 2, 2, 3, 2]))
    s = tf.layers.conv3d(x, 2, 3, dilation_rate=2, padding="same",
                         kernel_initializer=_const_init(tf, [3, 3, 3, 3, 2], offset=1.0))
    out = {"d": d, "s": s}
    out.update(_grads(tf, out, {"x": x}))
    return out


def conv3d_transpose_forms(tf):
    x = tf.constant(X5S)
    a = tf.layers.conv3d_transpose(x, 2, 3, strides=2,
                                   kernel_initializer=_const_init(tf, [3, 3, 3, 2, 2]),
                                   bias_initializer=tf.constant_initializer(0.1))
    layer = tf.layers.Conv3DTranspose(3, (2, 1, 2), strides=(2, 1, 1), padding="same",
                                      kernel_initializer=_const_init(tf, [2, 1, 2, 3, 2], 1.0),
                                      activation=tf.nn.tanh)
    b = layer(x)
    c = tf.layers.conv3d_transpose(tf.placeholder_with_default(X5S, [None, None, 2, 3, 2]),
                                   1, 2, kernel_initializer=_const_init(tf, [2, 2, 2, 1, 2]),
                                   use_bias=False)
    out = {"a": a, "b": b, "c": c}
    wrt = {"x": x}
    wrt.update({v.op.name.replace("/", "_"): v for v in tf.trainable_variables()})
    out.update(_grads(tf, {"a": a, "b": b}, wrt))
    return out, {"name": layer.name, "weights": [w.name for w in layer.weights]}


def pooling3d_forms(tf):
    x = tf.constant(X5)
    out = {"max": tf.layers.max_pooling3d(x, 2, 2),
           "avg": tf.layers.average_pooling3d(x, 3, 1, padding="same"),
           "maxc": tf.layers.MaxPooling3D((2, 3, 2), (1, 2, 3), padding="same")(x),
           "avgc": tf.layers.AveragePooling3D(2, (2, 1, 2), name="ap")(x),
           "max_cf": tf.layers.max_pooling3d(x, (1, 2, 2), 1, data_format="channels_first"),
           "avg_cf": tf.layers.average_pooling3d(x, 2, 2, padding="same",
                                                 data_format="channels_first")}
    out.update(_grads(tf, out, {"x": x}))
    return out


def conv3d_pool_net(tf):
    """conv3d -> max_pooling3d -> conv3d_transpose -> average_pooling3d, one graph."""
    x = tf.constant(X5)
    h = tf.layers.conv3d(x, 3, 2, padding="same", activation=tf.nn.relu,
                         kernel_initializer=_const_init(tf, [2, 2, 2, 3, 3]))
    h = tf.layers.max_pooling3d(h, 2, 2, padding="same")
    h = tf.layers.conv3d_transpose(h, 2, 2, strides=2,
                                   kernel_initializer=_const_init(tf, [2, 2, 2, 2, 3], 0.3))
    y = tf.layers.average_pooling3d(h, 2, 1)
    out = {"y": y}
    wrt = {v.op.name.replace("/", "_"): v for v in tf.trainable_variables()}
    out.update(_grads(tf, out, wrt))
    return out


CASES = {"conv3d_forms": conv3d_forms, "conv3d_dilated": conv3d_dilated,
         "conv3d_transpose_forms": conv3d_transpose_forms, "pooling3d_forms": pooling3d_forms,
         "conv3d_pool_net": conv3d_pool_net}


# -- orthogonal initializer (seeded: TensorFlow's normal samples, then Qr) ---------------
def orthogonal_forms(tf):
    tall = tf.get_variable("tall", [6, 4], initializer=tf.orthogonal_initializer(seed=3))
    wide = tf.get_variable("wide", [2, 3, 5],
                           initializer=tf.initializers.orthogonal(gain=2.0, seed=5))
    square = tf.get_variable("square", [4, 4], dtype=tf.float64,
                             initializer=tf.orthogonal_initializer())
    y = tf.layers.dense(tf.constant(np.ones((2, 3), np.float32)), 3,
                        kernel_initializer=tf.orthogonal_initializer(gain=0.5))
    gram = tf.matmul(square, square, transpose_a=True)
    return {"tall": tall.value(), "wide": wide.value(), "square": square.value(),
            "gram": gram, "y": y}


CASES["orthogonal_forms"] = orthogonal_forms
