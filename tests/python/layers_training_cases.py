"""The acceptance model of tf.layers + tf.losses: a small conv net built only from tf.layers
(conv2d, max_pooling2d, batch_normalization, flatten, dense, dropout) and tf.losses
(softmax_cross_entropy with label smoothing, the regularization losses through
get_total_loss), trained with an optimizer under UPDATE_OPS from a fixed graph seed. The
same code runs on TensorFlow 2.21 (tools/gen_layers_expected.py writes its loss curve) and
on minitf (tests/python/test_layers.py compares, to 1e-4 relative; measured: 1.2e-6).
The float32 sums of the two runtimes round differently in the last bits, and a chaotic
setting amplifies that over the steps (Momentum at learning rate 0.1 drifts to 2e-2 by step
10), so the rates here keep the training stable.)"""
import numpy as np

STEPS = 25
_rng = np.random.RandomState(3)
IMAGES = _rng.uniform(0, 1, (16, 8, 8, 2)).astype(np.float32)
LABELS = np.eye(4, dtype=np.float32)[_rng.randint(0, 4, 16)]


def build(tf, optimizer):
    tf.set_random_seed(42)
    x = tf.constant(IMAGES)
    y = tf.constant(LABELS)
    reg = lambda w: 1e-3 * tf.nn.l2_loss(w)  # noqa: E731
    h = tf.layers.conv2d(x, 6, 3, padding="same", activation=tf.nn.relu,
                         kernel_initializer=tf.glorot_uniform_initializer(seed=1),
                         kernel_regularizer=reg)
    h = tf.layers.max_pooling2d(h, 2, 2)
    h = tf.layers.batch_normalization(h, training=True)
    h = tf.layers.conv2d(h, 4, 2, activation=tf.nn.tanh,
                         kernel_initializer=tf.truncated_normal_initializer(stddev=0.3, seed=2))
    h = tf.layers.flatten(h)
    h = tf.layers.dense(h, 16, activation=tf.nn.relu,
                        kernel_initializer=tf.glorot_uniform_initializer(seed=3),
                        kernel_regularizer=reg)
    h = tf.layers.dropout(h, rate=0.2, training=True, seed=4)
    h = tf.layers.batch_normalization(h, training=True, momentum=0.9)
    logits = tf.layers.dense(h, 4, kernel_initializer=tf.glorot_uniform_initializer(seed=5))
    tf.losses.softmax_cross_entropy(y, logits, label_smoothing=0.1)
    loss = tf.losses.get_total_loss()
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        train = optimizer(tf).minimize(loss)
    return loss, train


OPTIMIZERS = {
    "momentum": lambda tf: tf.train.MomentumOptimizer(0.05, 0.9),
    "adam": lambda tf: tf.train.AdamOptimizer(0.01),
}


def run(tf, name):
    """{"losses": the loss before each of STEPS steps, "variables": names, "final": the
    moving mean of the first batch norm after training}."""
    loss, train = build(tf, OPTIMIZERS[name])
    names = [v.name for v in tf.global_variables()]
    mm = [v for v in tf.global_variables()
          if v.name == "batch_normalization/moving_mean:0"][0]
    losses = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(STEPS):
            value, _ = sess.run([loss, train])
            losses.append(float(value))
        final = sess.run(mm).tolist()
    return {"losses": losses, "variables": names, "final": final}
