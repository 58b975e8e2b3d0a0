"""Bad inputs to tf.layers / tf.losses, run in TensorFlow 2.21 by tools/gen_layers_expected.py
(which records the exception type and message) and in minitf by test_layers.py."""
import numpy as np


def dense_rank1(tf):
    tf.layers.dense(tf.constant([1.0, 2.0, 3.0]), 2)


def dense_unknown_last(tf):
    tf.layers.dense(tf.placeholder(tf.float32, [None, None]), 2)


def dense_int(tf):
    tf.layers.dense(tf.constant([[1, 2]]), 2)


def dense_wrong_width(tf):
    layer = tf.layers.Dense(2)
    layer(tf.zeros([1, 3]))
    layer(tf.zeros([1, 4]))


def conv_rank3(tf):
    tf.layers.conv2d(tf.zeros([2, 5, 3]), 2, 3)


def conv_zero_kernel(tf):
    tf.layers.Conv2D(2, (0, 3))


def conv_bad_filters(tf):
    tf.layers.Conv1D(0, 3)


def conv_stride_and_dilation(tf):
    tf.layers.Conv2D(2, 3, strides=2, dilation_rate=2)


def conv_bad_padding(tf):
    tf.layers.Conv2D(2, 3, padding="full")


def conv_too_small(tf):
    tf.layers.conv2d(tf.zeros([1, 2, 2, 1]), 1, 3)


def pool_no_strides(tf):
    tf.layers.MaxPooling2D(2, None)


def pool_rank(tf):
    tf.layers.max_pooling2d(tf.zeros([2, 4, 3]), 2, 2)


def dropout_rate(tf):
    tf.layers.Dropout(1.5)


def bn_undefined_axis(tf):
    tf.layers.batch_normalization(tf.placeholder(tf.float32, [None, None]))


def bn_bad_axis(tf):
    tf.layers.batch_normalization(tf.zeros([2, 3]), axis=4)


def reuse_missing(tf):
    tf.layers.dense(tf.zeros([1, 3]), 2, name="nothere", reuse=True)


def dense_twice_same_name(tf):
    tf.layers.dense(tf.zeros([1, 3]), 2, name="fc")
    tf.layers.dense(tf.zeros([1, 3]), 2, name="fc")


def layer_bad_kwarg(tf):
    tf.layers.Dense(2, foo=1)


def scope_name_unbuilt(tf):
    tf.layers.Dense(2).scope_name


def loss_bad_reduction(tf):
    tf.losses.mean_squared_error([1.0], [2.0], reduction="mean")


def loss_none_labels(tf):
    tf.losses.absolute_difference(None, [1.0])


def loss_cosine_no_axis(tf):
    tf.losses.cosine_distance([[1.0]], [[1.0]])


def loss_shapes(tf):
    tf.losses.mean_squared_error(np.zeros([3, 2], np.float32), np.zeros([3, 3], np.float32))


def loss_weights_rank(tf):
    tf.losses.log_loss(np.zeros([3, 2], np.float32), np.zeros([3, 2], np.float32),
                       weights=np.ones([3], np.float32))


def loss_weights_dim(tf):
    tf.losses.hinge_loss(np.zeros([3, 2], np.float32), np.zeros([3, 2], np.float32),
                         weights=np.ones([2, 2], np.float32))


def total_loss_empty(tf):
    tf.losses.get_total_loss()


CASES = {f.__name__: f for f in [
    dense_rank1, dense_unknown_last, dense_int, dense_wrong_width, conv_rank3,
    conv_zero_kernel, conv_bad_filters, conv_stride_and_dilation, conv_bad_padding,
    conv_too_small, pool_no_strides, pool_rank, dropout_rate, bn_undefined_axis, bn_bad_axis,
    reuse_missing, dense_twice_same_name, layer_bad_kwarg, scope_name_unbuilt,
    loss_bad_reduction, loss_none_labels, loss_cosine_no_axis, loss_shapes,
    loss_weights_rank, loss_weights_dim, total_loss_empty]}


def run(tf, build):
    """[exception type name, message] (None when nothing was raised)."""
    try:
        build(tf)
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return [type(e).__name__, str(e)]
    return None


def template_new_trainable(tf):
    t = tf.make_template("t", lambda: tf.Variable(1.0))
    t()
    t()


def template_no_name(tf):
    tf.make_template(None, lambda: None)


CASES.update({"template_new_trainable": template_new_trainable,
              "template_no_name": template_no_name})


def keras_style_scope_arg(tf):
    with tf.layers.experimental.keras_style_scope():
        tf.layers.dense(tf.zeros([1, 2]), 2, name="fc")


def keras_style_call_scope(tf):
    with tf.layers.experimental.keras_style_scope():
        layer = tf.layers.Dense(2)
    layer(tf.zeros([1, 2]), scope="s")


CASES.update({"keras_style_scope_arg": keras_style_scope_arg,
              "keras_style_call_scope": keras_style_call_scope})


def identity_rank3(tf):
    tf.get_variable("w", [2, 2, 2], initializer=tf.initializers.identity())


def identity_int(tf):
    tf.initializers.identity(dtype=tf.int32)


CASES.update({"identity_rank3": identity_rank3, "identity_int": identity_int})


def loss_dynamic_weights_bad(tf):
    w = tf.placeholder_with_default(np.ones([2, 3], np.float32), None)
    loss = tf.losses.mean_squared_error(np.zeros([4, 3], np.float32),
                                        np.ones([4, 3], np.float32), weights=w)
    with tf.Session() as sess:
        sess.run(loss)


def loss_dynamic_weights_rank(tf):
    w = tf.placeholder_with_default(np.ones([4], np.float32), None)
    loss = tf.losses.log_loss(np.zeros([4, 3], np.float32), np.ones([4, 3], np.float32) * 0.5,
                              weights=w)
    with tf.Session() as sess:
        sess.run(loss)


CASES.update({"loss_dynamic_weights_bad": loss_dynamic_weights_bad,
              "loss_dynamic_weights_rank": loss_dynamic_weights_rank})
