"""The training half of ``python -m minitf demo``: a TF1 MLP and a small CNN trained from
scratch on scikit-learn's bundled digits (8x8 images, no download).

The model code only uses the TF1 API, so the same functions run on real TensorFlow 2.21
(tools/gen_training_fixture.py records TensorFlow's loss curve and frozen-graph predictions
with them; tests/python/test_training.py replays them on minitf).

Data: the 1,797 digits scaled to [0, 1], shuffled with numpy RandomState(0); the first 1,400
train, the other 397 test. Step i trains on a batch of 64 taken in order from a per-epoch
permutation (RandomState(1 + epoch)).
"""
import time

import numpy as np

TRAIN = 1400
BATCH = 64


def load_digits():
    """(x_train [1400, 64] float32, y_train [1400] int32, x_test [397, 64], y_test [397])."""
    from sklearn.datasets import load_digits as sk_digits
    d = sk_digits()
    order = np.random.RandomState(0).permutation(len(d.target))
    x = (d.data[order] / 16.0).astype(np.float32)
    y = d.target[order].astype(np.int32)
    return x[:TRAIN], y[:TRAIN], x[TRAIN:], y[TRAIN:]


def batches(x, y, steps, batch=BATCH):
    """The first `steps` batches, epoch by epoch, each epoch in its own fixed order."""
    out, epoch = [], 0
    while len(out) < steps:
        perm = np.random.RandomState(1 + epoch).permutation(len(y))
        for start in range(0, len(y) - batch + 1, batch):
            idx = perm[start:start + batch]
            out.append((x[idx], y[idx]))
            if len(out) == steps:
                break
        epoch += 1
    return out


def _dense(tf, x, units, name, activation=None):
    with tf.variable_scope(name):
        w = tf.get_variable("kernel", [x.shape[-1], units],
                            initializer=tf.glorot_uniform_initializer())
        b = tf.get_variable("bias", [units], initializer=tf.zeros_initializer())
        y = tf.nn.bias_add(tf.matmul(x, w), b)
        return activation(y) if activation is not None else y


def build_mlp(tf, seed=1, learning_rate=0.01):
    """64 -> 64 (relu) -> 10 with Adam; returns a dict of the graph's tensors/ops."""
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(seed)
        x = tf.placeholder(tf.float32, [None, 64], name="x")
        labels = tf.placeholder(tf.int32, [None], name="labels")
        h = _dense(tf, x, 64, "hidden", tf.nn.relu)
        logits = tf.identity(_dense(tf, h, 10, "out"), name="logits")
        return _finish(tf, g, x, labels, logits, learning_rate)


def build_cnn(tf, seed=1, learning_rate=0.01):
    """8x8x1 -> conv 3x3x16 (relu) -> max pool 2 -> 10 with Adam."""
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(seed)
        x = tf.placeholder(tf.float32, [None, 64], name="x")
        labels = tf.placeholder(tf.int32, [None], name="labels")
        images = tf.reshape(x, [-1, 8, 8, 1])
        with tf.variable_scope("conv"):
            k = tf.get_variable("kernel", [3, 3, 1, 16],
                                initializer=tf.glorot_uniform_initializer())
            b = tf.get_variable("bias", [16], initializer=tf.zeros_initializer())
            c = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(images, k, [1, 1, 1, 1], "SAME"), b))
        p = tf.nn.max_pool(c, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        flat = tf.reshape(p, [-1, 4 * 4 * 16])
        logits = tf.identity(_dense(tf, flat, 10, "out"), name="logits")
        return _finish(tf, g, x, labels, logits, learning_rate)


def _finish(tf, g, x, labels, logits, learning_rate):
    loss = tf.reduce_mean(
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits),
        name="loss")
    step = tf.train.AdamOptimizer(learning_rate).minimize(loss)
    pred = tf.argmax(logits, 1, output_type=tf.int32, name="pred")
    init = tf.global_variables_initializer()
    return {"graph": g, "x": x, "labels": labels, "logits": logits, "loss": loss,
            "train": step, "pred": pred, "init": init}


def train(tf, model, steps, x_train, y_train, progress=None):
    """Runs `steps` Adam steps from fresh variables; returns (session, [loss per step]).

    progress: a callable(step, loss) called after each step, or None.
    """
    sess = tf.Session(graph=model["graph"])
    sess.run(model["init"])
    losses = []
    for i, (bx, by) in enumerate(batches(x_train, y_train, steps)):
        _, value = sess.run([model["train"], model["loss"]],
                            {model["x"]: bx, model["labels"]: by})
        losses.append(float(value))
        if progress is not None:
            progress(i, float(value))
    return sess, losses


def freeze(tf, model, sess):
    """The trained graph as a GraphDef with variables folded into constants, down to pred."""
    return tf.graph_util.convert_variables_to_constants(
        sess, model["graph"].as_graph_def(), ["logits", "pred"])


def write_frozen_mlp(path, steps):
    """Trains the MLP with minitf for `steps` and writes its frozen GraphDef to path
    (for tools/gen_training_fixture.py --minitf-frozen)."""
    import minitf as tf
    x_train, y_train, _, _ = load_digits()
    model = build_mlp(tf)
    sess, _ = train(tf, model, steps, x_train, y_train)
    with open(path, "wb") as f:
        f.write(freeze(tf, model, sess).SerializeToString())
    sess.close()


def run_frozen(tf, graph_def, x):
    """(logits, pred) of a frozen GraphDef on x."""
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(graph_def, name="")
        with tf.Session(graph=g) as sess:
            return sess.run(["logits:0", "pred:0"], {"x:0": x})


def demo(out, steps=600, logdir=None):
    """Trains both models with a tqdm bar, prints test accuracy, freezes the MLP and checks
    the frozen graph predicts as the trained one; the MLP's loss curve goes to `logdir`
    (a TensorBoard event file) when given. Returns {name: accuracy}."""
    import minitf as tf
    from tqdm import tqdm
    x_train, y_train, x_test, y_test = load_digits()
    results = {}
    for name, build in (("MLP", build_mlp), ("CNN", build_cnn)):
        model = build(tf)
        bar = tqdm(total=steps, desc="train %s" % name, unit="step", file=out, ncols=80,
                   mininterval=0.5)

        def progress(i, loss, bar=bar):
            bar.update(1)
            if i % 20 == 0:
                bar.set_postfix(loss="%.4f" % loss)

        start = time.perf_counter()
        sess, losses = train(tf, model, steps, x_train, y_train, progress)
        bar.close()
        seconds = time.perf_counter() - start
        pred = sess.run(model["pred"], {model["x"]: x_test})
        acc = float(np.mean(pred == y_test))
        results[name] = acc
        print("%s: %d steps of batch %d in %.1f s (%.0f steps/s), final loss %.4f, test "
              "accuracy %.4f" % (name, steps, BATCH, seconds, steps / seconds, losses[-1], acc),
              file=out)
        if name == "MLP":
            frozen = freeze(tf, model, sess)
            _, frozen_pred = run_frozen(tf, frozen, x_test)
            print("  frozen GraphDef (%d nodes, no variables): predictions %s the trained "
                  "graph's" % (len(frozen.node), "equal" if np.array_equal(frozen_pred, pred)
                               else "DIFFER from"), file=out)
            if logdir:
                _write_curve(tf, logdir, model["graph"], losses)
                print("  loss curve: tensorboard --logdir %s" % logdir, file=out)
        sess.close()
    return results


def _write_curve(tf, logdir, graph, losses):
    from minitf.core.framework import summary_pb2
    writer = tf.summary.FileWriter(logdir, graph)
    for i, loss in enumerate(losses):
        s = summary_pb2.Summary(value=[summary_pb2.Summary.Value(tag="loss", simple_value=loss)])
        writer.add_summary(s, i)
    writer.close()
