"""tf.layers and tf.losses cases, written against the TF1 API so the same code runs on
TensorFlow 2.21 (tf.compat.v1 with TF_USE_LEGACY_KERAS=1) and on minitf. Each case builds a
graph from constant inputs and deterministic initializers and returns {name: tensor};
run() records the graph's nodes, the collections, the static shapes and the values
(tools/gen_layers_expected.py writes TF's; tests/python/test_layers.py compares minitf's)."""
import numpy as np

RNG = np.random.RandomState(7)
X2 = RNG.uniform(-1, 1, (4, 3)).astype(np.float32)
X3 = RNG.uniform(-1, 1, (2, 5, 3)).astype(np.float32)
X4 = RNG.uniform(-1, 1, (2, 6, 6, 3)).astype(np.float32)
K23 = RNG.uniform(-1, 1, (3, 4)).astype(np.float32)
LOGITS = RNG.uniform(-2, 2, (4, 5)).astype(np.float32)
ONEHOT = np.eye(5, dtype=np.float32)[[1, 0, 4, 2]]
SPARSE = np.array([1, 0, 4, 2], np.int32)
PRED = RNG.uniform(0.05, 0.95, (4, 3)).astype(np.float32)
LABELS = RNG.uniform(0, 1, (4, 3)).astype(np.float32)
BINARY = (RNG.uniform(0, 1, (4, 3)) > 0.5).astype(np.float32)
W4 = np.array([[1.0], [0.0], [2.0], [0.5]], np.float32)
W43 = RNG.uniform(0, 2, (4, 3)).astype(np.float32)
W43[1, 2] = 0.0

COLLECTIONS = ["variables", "trainable_variables", "update_ops", "regularization_losses",
               "losses", "moving_average_variables", "model_variables", "local_variables"]


def _const_init(tf, shape, scale=0.5, offset=0.0):
    n = int(np.prod(shape))
    vals = (np.sin(np.arange(n, dtype=np.float64) * 1.3 + offset) * scale).astype(np.float32)
    return tf.constant_initializer(vals.reshape(shape))


# -- layers ------------------------------------------------------------------------------
def dense_relu_l2(tf):
    x = tf.constant(X2)
    y = tf.layers.dense(x, 4, activation=tf.nn.relu, kernel_initializer=_const_init(tf, [3, 4]),
                        bias_initializer=tf.constant_initializer(0.1),
                        kernel_regularizer=tf.nn.l2_loss)
    z = tf.layers.dense(y, 2, kernel_initializer=_const_init(tf, [4, 2], offset=1.0))
    return {"y": y, "z": z}


def dense_class_reuse(tf):
    x = tf.constant(X2)
    layer = tf.layers.Dense(4, kernel_initializer=_const_init(tf, [3, 4]), name="fc")
    a = layer(x)
    b = layer(x * 2.0)
    info = {"layer_name": layer.name, "scope_name": layer.scope_name,
            "weights": [w.name for w in layer.weights],
            "trainable_weights": [w.name for w in layer.trainable_weights]}
    return {"a": a, "b": b}, info


def dense_unnamed_layers(tf):
    x = tf.constant(X2)
    l1 = tf.layers.Dense(3, kernel_initializer=_const_init(tf, [3, 3]))
    l2 = tf.layers.Dense(2, use_bias=False, kernel_initializer=_const_init(tf, [3, 2]),
                         trainable=False)
    y = l2(l1(x))
    info = {"names": [l1.name, l2.name], "scopes": [l1.scope_name, l2.scope_name],
            "l2_trainable": [w.name for w in l2.trainable_weights],
            "l2_non_trainable": [w.name for w in l2.non_trainable_weights]}
    return {"y": y}, info


def dense_functional_reuse(tf):
    x = tf.constant(X2)
    a = tf.layers.dense(x, 2, name="shared", kernel_initializer=_const_init(tf, [3, 2]))
    b = tf.layers.dense(x + 1.0, 2, name="shared", reuse=True)
    with tf.variable_scope("outer"):
        c = tf.layers.dense(x, 2, kernel_initializer=_const_init(tf, [3, 2]))
    return {"a": a, "b": b, "c": c}


def dense_rank3(tf):
    x = tf.constant(X3)
    y = tf.layers.dense(x, 4, kernel_initializer=tf.constant_initializer(K23))
    p = tf.placeholder_with_default(X3, [None, 5, 3])
    z = tf.layers.dense(p, 4, kernel_initializer=tf.constant_initializer(K23))
    return {"y": y, "z": z}


def dense_activity_regularizer(tf):
    x = tf.constant(X2)
    y = tf.layers.dense(x, 3, kernel_initializer=_const_init(tf, [3, 3]),
                        activity_regularizer=lambda t: tf.reduce_sum(tf.abs(t)) * 0.1,
                        bias_regularizer=lambda b: tf.reduce_sum(b * b))
    return {"y": y, "reg": tf.losses.get_regularization_loss()}


def dropout_forms(tf):
    x = tf.constant(X2)
    off = tf.layers.dropout(x, 0.5)
    on = tf.layers.dropout(x, 0.4, training=True, seed=5)
    t = tf.placeholder_with_default(False, [])
    cond_off = tf.layers.dropout(x, 0.4, training=t, seed=6)
    layer = tf.layers.Dropout(0.25, noise_shape=[4, 1], seed=9)
    shaped = layer(x, training=True)
    return {"off": off, "on": on, "cond_off": cond_off, "shaped": shaped}


def flatten_forms(tf):
    a = tf.layers.flatten(tf.constant(X4))
    b = tf.layers.flatten(tf.placeholder_with_default(X4, [None, 6, None, 3]))
    c = tf.layers.Flatten(data_format="channels_first")(tf.constant(X3))
    d = tf.layers.flatten(tf.constant(X2[0]))
    return {"a": a, "b": b, "c": c, "d": d}


def conv2d_forms(tf):
    x = tf.constant(X4)
    a = tf.layers.conv2d(x, 4, 3, kernel_initializer=_const_init(tf, [3, 3, 3, 4]),
                         bias_initializer=tf.constant_initializer(0.05), activation=tf.nn.relu)
    layer = tf.layers.Conv2D(2, (2, 3), strides=2, padding="same", use_bias=False,
                             kernel_initializer=_const_init(tf, [2, 3, 3, 2], offset=0.5))
    b = layer(x)
    c = tf.layers.conv2d(tf.placeholder_with_default(X4, [None, None, None, 3]), 2, 2,
                         kernel_initializer=_const_init(tf, [2, 2, 3, 2], offset=2.0),
                         kernel_regularizer=tf.nn.l2_loss, name="conv_c")
    info = {"name": layer.name, "scope": layer.scope_name}
    return {"a": a, "b": b, "c": c}, info


def conv2d_dilated(tf):
    x = tf.constant(X4)
    return {"d": tf.layers.conv2d(x, 2, 3, dilation_rate=2,
                                  kernel_initializer=_const_init(tf, [3, 3, 3, 2])),
            "s": tf.layers.conv2d(x, 2, 3, dilation_rate=(1, 2), padding="same",
                                  kernel_initializer=_const_init(tf, [3, 3, 3, 2]))}


def conv1d_forms(tf):
    x = tf.constant(X3)
    a = tf.layers.conv1d(x, 4, 2, kernel_initializer=_const_init(tf, [2, 3, 4]))
    b = tf.layers.conv1d(x, 2, 3, strides=2, padding="same",
                         kernel_initializer=_const_init(tf, [3, 3, 2], offset=1.0))
    c = tf.layers.Conv1D(2, 2, padding="causal",
                         kernel_initializer=_const_init(tf, [2, 3, 2], offset=2.0))(x)
    return {"a": a, "b": b, "c": c}


def conv2d_transpose_forms(tf):
    x = tf.constant(X4)
    a = tf.layers.conv2d_transpose(x, 2, 3, strides=2,
                                   kernel_initializer=_const_init(tf, [3, 3, 2, 3]))
    b = tf.layers.conv2d_transpose(x, 2, 2, strides=(2, 1), padding="same",
                                   kernel_initializer=_const_init(tf, [2, 2, 2, 3], offset=1.0))
    return {"a": a, "b": b}


def separable_forms(tf):
    a = tf.layers.separable_conv2d(tf.constant(X4), 4, 3, depth_multiplier=2,
                                   depthwise_initializer=_const_init(tf, [3, 3, 3, 2]),
                                   pointwise_initializer=_const_init(tf, [1, 1, 6, 4], 1.0))
    b = tf.layers.separable_conv1d(tf.constant(X3), 2, 2, padding="same",
                                   depthwise_initializer=_const_init(tf, [2, 3, 1]),
                                   pointwise_initializer=_const_init(tf, [1, 3, 2], 1.0))
    return {"a": a, "b": b}


def pooling_forms(tf):
    x, x1 = tf.constant(X4), tf.constant(X3)
    return {"max2": tf.layers.max_pooling2d(x, 2, 2),
            "avg2": tf.layers.average_pooling2d(x, 3, 1, padding="same"),
            "max2c": tf.layers.MaxPooling2D((2, 3), (1, 2))(x),
            "max1": tf.layers.max_pooling1d(x1, 2, 2),
            "avg1": tf.layers.average_pooling1d(x1, 3, 1, padding="same")}


# -- losses ------------------------------------------------------------------------------
def losses_softmax(tf):
    logits = tf.constant(LOGITS)
    out = {"plain": tf.losses.softmax_cross_entropy(ONEHOT, logits),
           "smooth": tf.losses.softmax_cross_entropy(ONEHOT, logits, label_smoothing=0.1),
           "weighted": tf.losses.softmax_cross_entropy(ONEHOT, logits,
                                                       weights=np.array([1., 0., 2., .5],
                                                                        np.float32)),
           "none": tf.losses.softmax_cross_entropy(ONEHOT, logits,
                                                   reduction=tf.losses.Reduction.NONE),
           "sparse": tf.losses.sparse_softmax_cross_entropy(SPARSE, logits),
           "sparse_w": tf.losses.sparse_softmax_cross_entropy(SPARSE[:, None], logits,
                                                              weights=W4)}
    return out


def losses_regression(tf):
    p, l = tf.constant(PRED), tf.constant(LABELS)
    R = tf.losses.Reduction
    return {"mse": tf.losses.mean_squared_error(l, p),
            "mse_w": tf.losses.mean_squared_error(l, p, weights=W43),
            "mse_sum": tf.losses.mean_squared_error(l, p, weights=W4, reduction=R.SUM),
            "mse_mean": tf.losses.mean_squared_error(l, p, weights=W43, reduction=R.MEAN),
            "mse_batch": tf.losses.mean_squared_error(l, p, weights=2.0,
                                                      reduction=R.SUM_OVER_BATCH_SIZE),
            "abs": tf.losses.absolute_difference(l, p, weights=W4),
            "huber": tf.losses.huber_loss(l * 3.0, p, delta=0.7),
            "log": tf.losses.log_loss(BINARY, p),
            "hinge": tf.losses.hinge_loss(BINARY, p * 2.0 - 1.0),
            "pairwise": tf.losses.mean_pairwise_squared_error(l, p, weights=W4),
            "sigmoid": tf.losses.sigmoid_cross_entropy(BINARY, p * 4.0 - 2.0,
                                                       label_smoothing=0.2),
            "sigmoid_w": tf.losses.sigmoid_cross_entropy(BINARY, p * 4.0 - 2.0, weights=W43),
            "total": tf.losses.get_total_loss()}


def losses_cosine(tf):
    lab = LABELS / np.linalg.norm(LABELS, axis=1, keepdims=True)
    pr = PRED / np.linalg.norm(PRED, axis=1, keepdims=True)
    return {"cos": tf.losses.cosine_distance(lab, pr, axis=1),
            "cos_dim": tf.losses.cosine_distance(lab, pr, dim=1, weights=W4)}


def losses_collections(tf):
    p, l = tf.constant(PRED), tf.constant(LABELS)
    a = tf.losses.mean_squared_error(l, p, loss_collection=None)
    with tf.name_scope("tower"):
        b = tf.losses.absolute_difference(l, p, scope="abs")
    tf.losses.add_loss(a * 2.0)
    v = tf.get_variable("v", initializer=tf.constant([1.0, -2.0]),
                        regularizer=lambda t: tf.reduce_sum(t * t))
    return {"a": a, "b": b, "total": tf.losses.get_total_loss(),
            "total_noreg": tf.losses.get_total_loss(add_regularization_losses=False,
                                                    name="plain"),
            "reg": tf.losses.get_regularization_loss(), "v": v.read_value(),
            "n_tower": tf.constant(len(tf.losses.get_losses(scope="tower")))}


CASES = {"dense_relu_l2": dense_relu_l2, "dense_class_reuse": dense_class_reuse,
         "dense_unnamed_layers": dense_unnamed_layers,
         "dense_functional_reuse": dense_functional_reuse, "dense_rank3": dense_rank3,
         "dense_activity_regularizer": dense_activity_regularizer,
         "dropout_forms": dropout_forms, "conv2d_forms": conv2d_forms,
         "conv2d_dilated": conv2d_dilated, "conv1d_forms": conv1d_forms,
         "conv2d_transpose_forms": conv2d_transpose_forms, "separable_forms": separable_forms,
         "pooling_forms": pooling_forms, "flatten_forms": flatten_forms,
         "losses_softmax": losses_softmax, "losses_regression": losses_regression,
         "losses_cosine": losses_cosine, "losses_collections": losses_collections}

# Cases whose graphs differ from TensorFlow's in known ways, so only their values, shapes
# and collections are compared: TensorFlow's If returns its branch intermediates as extra
# outputs for later gradients (minitf rewrites the If when a gradient is taken); a dilated
# conv is SpaceToBatchND + Conv2D + BatchToSpaceND in TensorFlow (a dilated Conv2D here);
# get_variable's regularizer loss is a lazy tensor that builds the regularizer again each
# time it is converted (minitf's is built once); tf.nn.softmax_cross_entropy_with_logits_v2
# (the nn module's) reshapes 2-D logits and labels to 2-D again in TensorFlow.
NODES_DIFFER = {"dropout_forms", "conv2d_dilated", "losses_collections", "losses_softmax"}


def run(tf, build):
    """{"nodes", "collections", "shapes", "values", "info"} of one case."""
    tf.set_random_seed(1234)
    out = build(tf)
    info = {}
    if isinstance(out, tuple):
        out, info = out
    g = tf.get_default_graph()
    nodes = [[n.name, n.op, list(n.input)] for n in g.as_graph_def().node]
    colls = {k: [getattr(v, "name", str(v)) for v in g.get_collection(k)]
             for k in COLLECTIONS}
    shapes = {k: (v.shape.as_list() if v.shape.rank is not None else None)
              for k, v in out.items()}
    variables = tf.global_variables()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run(out)
        values.update({"var:" + v.name: x for v, x in zip(variables, sess.run(variables))})
    return {"nodes": nodes, "collections": colls, "shapes": shapes,
            "values": {k: np.asarray(v).tolist() for k, v in values.items()}, "info": info}


def _bn_input(tf, shape):
    n = int(np.prod(shape))
    return tf.constant((np.cos(np.arange(n) * 0.7) * 2.0 + 0.3).astype(np.float32).reshape(shape))


def bn_fused_training(tf):
    x = _bn_input(tf, [4, 3, 3, 2])
    y = tf.layers.batch_normalization(x, training=True,
                                      gamma_initializer=tf.constant_initializer([1.5, 0.5]),
                                      beta_initializer=tf.constant_initializer([0.1, -0.2]))
    updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    with tf.control_dependencies(updates):
        after = tf.identity(y)
    g = tf.get_default_graph()
    return {"y": after}, {"n_updates": len(updates), "names": [
        op.name for op in g.get_operations() if op.name.endswith("AssignSubVariableOp")]}


def bn_fused_inference(tf):
    x = _bn_input(tf, [2, 3, 3, 2])
    layer = tf.layers.BatchNormalization(momentum=0.9, epsilon=0.01,
                                         moving_mean_initializer=tf.constant_initializer(0.2),
                                         moving_variance_initializer=tf.constant_initializer(2.))
    y = layer(x)
    return {"y": y}, {"weights": [w.name for w in layer.weights],
                      "updates": len(layer.updates)}


def bn_dense_training(tf):
    x = _bn_input(tf, [5, 3])
    y = tf.layers.batch_normalization(x, training=True, momentum=0.8)
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        after = tf.identity(y)
    return {"y": after}


def bn_tensor_training(tf):
    x = _bn_input(tf, [4, 3, 3, 2])
    t = tf.placeholder_with_default(True, [])
    y = tf.layers.batch_normalization(x, training=t, fused=False, axis=1)
    z = tf.layers.batch_normalization(x, training=t, name="bn_fused")
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        after = tf.identity(y) + tf.reduce_sum(z)
    return {"y": y, "z": z, "after": after}


def bn_then_moving(tf):
    """Two training steps of the updates, then the layer in inference mode."""
    x = _bn_input(tf, [4, 2, 2, 3])
    layer = tf.layers.BatchNormalization(momentum=0.5, fused=False)
    layer(x, training=True)
    ups = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    g = tf.get_default_graph()
    with tf.control_dependencies(ups):
        step = tf.group(*ups)
    del step
    infer = layer(x * 0.5, training=False)
    del g
    return {"infer": infer}, {"n_updates": len(ups)}


CASES.update({"bn_fused_training": bn_fused_training, "bn_fused_inference": bn_fused_inference,
              "bn_dense_training": bn_dense_training, "bn_tensor_training": bn_tensor_training,
              "bn_then_moving": bn_then_moving})
# tf.nn.batch_normalization and tf.nn.fused_batch_norm (the nn module's) name their nodes
# batchnorm/Add, Mul... (TensorFlow: add, mul) and read the moving statistics outside the
# FusedBatchNormV3 scope.
NODES_DIFFER.update({"bn_tensor_training", "bn_fused_training", "bn_fused_inference",
                     "bn_dense_training", "bn_then_moving"})


class _ScaleShift(object):
    """Builds a custom tf.layers.Layer subclass for `tf` (the base class comes from it)."""

    @staticmethod
    def make(tf):
        class ScaleShift(tf.layers.Layer):
            def __init__(self, units, **kwargs):
                super().__init__(**kwargs)
                self.units = units

            def build(self, input_shape):
                self.w = self.add_weight("w", shape=[int(input_shape[-1]), self.units],
                                         initializer=tf.constant_initializer(0.25),
                                         regularizer=lambda v: tf.reduce_sum(v) * 0.01)
                self.count = self.add_weight("count", shape=[], dtype=tf.int32,
                                             trainable=False)
                self.s = self.add_variable("s", shape=[self.units],
                                           initializer=tf.ones_initializer())
                self.built = True

            def call(self, inputs, scale=2.0):
                self.add_update(tf.assign_add(self.count, 1))
                self.add_loss(tf.reduce_mean(inputs) * 0.5)
                return tf.matmul(inputs, self.w) * self.s * scale
        return ScaleShift


def custom_layer(tf):
    cls = _ScaleShift.make(tf)
    layer = cls(3, name="ss")
    x = tf.constant(X2)
    a = layer(x)
    b = layer.apply(x + 1.0, scale=0.5)
    with tf.variable_scope("outer"):
        c = cls(2)(x)
    losses = layer.losses
    info = {"name": layer.name, "scope": layer.scope_name, "dtype": layer.dtype,
            "weights": [w.name for w in layer.weights],
            "trainable": [w.name for w in layer.trainable_weights],
            "non_trainable": [w.name for w in layer.non_trainable_weights],
            "variables": [w.name for w in layer.variables],
            "n_losses": len(losses), "n_updates": len(layer.updates), "built": layer.built,
            "count_params": layer.count_params()}
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        d = tf.identity(c)
    return {"a": a, "b": b, "d": d, "loss0": losses[0], "loss_last": losses[-1],
            "reg": tf.losses.get_regularization_loss()}, info


def layer_not_trainable(tf):
    x = tf.constant(X2)
    layer = tf.layers.Dense(2, kernel_initializer=_const_init(tf, [3, 2]))
    layer.trainable = False
    y = layer(x)
    bn = tf.layers.BatchNormalization(trainable=False)
    z = bn(tf.constant(X4), training=True)
    return {"y": y, "z": z}, {"trainable": [w.name for w in layer.trainable_weights],
                              "non_trainable": [w.name for w in layer.non_trainable_weights],
                              "bn_updates": len(bn.updates)}


CASES.update({"custom_layer": custom_layer, "layer_not_trainable": layer_not_trainable})
# tf.reduce_sum(variable) reads the variable before its Sum name scope (TensorFlow: inside,
# Sum/ReadVariableOp); the cases use it in regularizers and losses.
NODES_DIFFER.update({"layer_not_trainable", "custom_layer"})


def make_template_forms(tf):
    def scale_by_y(x, offset=0.0):
        v = tf.get_variable("y", initializer=tf.constant(2.0))
        return x * v + offset

    t = tf.make_template("scale_by_y", scale_by_y, offset=1.0)
    a = t(tf.constant(3.0))
    b = t(tf.constant(4.0))
    t2 = tf.make_template("scale_by_y", scale_by_y)
    c = t2(tf.constant(5.0))
    with tf.variable_scope("outer"):
        t3 = tf.make_template("early", scale_by_y, create_scope_now_=True)
    d = t3(tf.constant(1.0))
    e = t3(tf.constant(2.0))
    t4 = tf.make_template("ignored", lambda x: tf.layers.dense(
        x, 2, kernel_initializer=tf.constant_initializer(0.5)), unique_name_="dense_tmpl")
    f = t4(tf.constant(X2))
    g = t4(tf.constant(X2) * 2.0)
    info = {"scopes": [t.variable_scope_name, t2.variable_scope_name, t3.variable_scope_name,
                       t4.variable_scope_name],
            "t_vars": [v.name for v in t.variables],
            "t3_trainable": [v.name for v in t3.trainable_variables],
            "t4_vars": [v.name for v in t4.trainable_weights], "name": t.name}
    return {"a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "g": g}, info


CASES["make_template_forms"] = make_template_forms


def tables_initializer_forms(tf):
    empty = tf.tables_initializer()
    v = tf.get_variable("t", initializer=tf.constant(1.0))
    tf.add_to_collection(tf.GraphKeys.TABLE_INITIALIZERS, tf.assign(v, 5.0).op)
    full = tf.initializers.tables_initializer(name="tables")
    with tf.control_dependencies([empty, full]):
        out = tf.identity(v.read_value())
    return {"out": out}, {"ops": [empty.type, full.type, empty.name, full.name]}


CASES["tables_initializer_forms"] = tables_initializer_forms
# tf.assign of a resource variable names its value Const and reads differently (state_ops).
NODES_DIFFER.add("tables_initializer_forms")


def keras_style(tf):
    x = tf.constant(X2)
    with tf.layers.experimental.keras_style_scope():
        layer = tf.layers.Dense(2, kernel_initializer=_const_init(tf, [3, 2]),
                                kernel_regularizer=tf.nn.l2_loss)
        a = layer(x)
        b = layer(x * 2.0)
        with tf.variable_scope("vs"):
            c = tf.layers.Dense(1, kernel_initializer=_const_init(tf, [3, 1]))(x)
        bn = tf.layers.BatchNormalization()
        d = bn(tf.constant(X4), training=True)
    info = {"name": layer.name, "weights": [w.name for w in layer.weights],
            "bn_updates": len(bn.updates)}
    return {"a": a, "b": b, "c": c, "d": d}, info


CASES["keras_style"] = keras_style
NODES_DIFFER.add("keras_style")


def identity_initializer(tf):
    a = tf.get_variable("a", [3, 3], initializer=tf.initializers.identity())
    b = tf.get_variable("b", [2, 4], initializer=tf.initializers.identity(gain=2.5))
    c = tf.get_variable("c", [4, 2], dtype=tf.float64,
                        initializer=tf.initializers.identity(dtype=tf.float64))
    d = tf.layers.dense(tf.constant(X2), 3, kernel_initializer=tf.initializers.identity(0.5))
    return {"a": a.read_value(), "b": b.read_value(), "c": c.read_value(), "d": d}


CASES["identity_initializer"] = identity_initializer
NODES_DIFFER.add("identity_initializer")


def constraint_step(tf):
    """A kernel_constraint applied after a GradientDescent step (the variables after it)."""
    x = tf.constant(X2)
    y = tf.layers.dense(x, 2, kernel_initializer=_const_init(tf, [3, 2]),
                        kernel_constraint=lambda w: tf.clip_by_value(w, -0.3, 0.3),
                        bias_constraint=lambda b: b * 0.5)
    loss = tf.reduce_sum(y * y)
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    with tf.control_dependencies([train]):
        after = tf.identity(loss)
    return {"after": after}


CASES["constraint_step"] = constraint_step
# A resource variable's assign reads the new value as Read/ReadVariableOp + Identity (TF: one
# ReadVariableOp in the update scope; variables.py).
NODES_DIFFER.add("constraint_step")


def losses_dynamic_weights(tf):
    """Weights of unknown shape: checked by an Assert when run."""
    p, l = tf.constant(PRED), tf.constant(LABELS)
    w_unknown = tf.placeholder_with_default(W43, None)
    w_col = tf.placeholder_with_default(W4, [None, None])
    w_scalar = tf.placeholder_with_default(np.float32(3.0), None)
    return {"unknown": tf.losses.mean_squared_error(l, p, weights=w_unknown),
            "col": tf.losses.absolute_difference(l, p, weights=w_col),
            "scalar": tf.losses.huber_loss(l, p, weights=w_scalar),
            "pairwise": tf.losses.mean_pairwise_squared_error(l, p, weights=w_col)}


CASES["losses_dynamic_weights"] = losses_dynamic_weights
# TensorFlow compares the weights' dimensions with DenseToDenseSetOperation.
NODES_DIFFER.add("losses_dynamic_weights")


def reuse_idioms(tf):
    x = tf.constant(X2)
    init = _const_init(tf, [3, 2])
    with tf.variable_scope("model", reuse=tf.AUTO_REUSE):
        a = tf.layers.dense(x, 2, name="fc", kernel_initializer=init)
        b = tf.layers.dense(x * 2.0, 2, name="fc")
    with tf.variable_scope("m"):
        c = tf.layers.dense(x, 2, name="fc", kernel_initializer=init)
        cc = tf.layers.conv1d(tf.constant(X3), 2, 2, kernel_initializer=_const_init(tf, [2, 3, 2]))
    with tf.variable_scope("m", reuse=True):
        d = tf.layers.dense(x + 1.0, 2, name="fc")
        dd = tf.layers.conv1d(tf.constant(X3) * 0.5, 2, 2, name="conv1d")
    e = tf.layers.dense(x, 2, name="auto", reuse=tf.AUTO_REUSE, kernel_initializer=init)
    f = tf.layers.dense(x, 2, name="auto", reuse=tf.AUTO_REUSE)
    return {"a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "cc": cc, "dd": dd}


CASES["reuse_idioms"] = reuse_idioms
