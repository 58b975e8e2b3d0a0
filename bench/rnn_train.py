"""Training-step time of a TF1 RNN program through control flow v2 (TF 2.21's compat.v1
default): an LSTM tf.nn.dynamic_rnn (While over TensorArrays) with its gradient loop and an SGD
update, and the forward pass alone, on minitf and, when available (importable here, or
/opt/tfvenv/bin/python), on TensorFlow building the same program in a worker process. Runs
alternate between the engines; figures are medians. Never fails.

Usage: python bench/rnn_train.py [batch=16] [time=32] [hidden=32] [reps=15]
"""
import json
import os
import subprocess
import sys
import time

TF_PYTHON = "/opt/tfvenv/bin/python"


def build(tf, batch, steps, hidden):
    """(session, train_op, loss, feed) of the program, variables initialized."""
    import numpy as np
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(1)
        x = tf.placeholder(tf.float32, [batch, steps, 16], name="x")
        cell = tf.nn.rnn_cell.LSTMCell(hidden)
        out, _ = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
        loss = tf.reduce_mean(tf.square(out))
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        sess = tf.Session(graph=g)
        sess.run(tf.global_variables_initializer())
    feed = {x: np.random.RandomState(0).rand(batch, steps, 16).astype(np.float32)}
    return sess, train, loss, feed


def timer(tf, batch, steps, hidden):
    sess, train, loss, feed = build(tf, batch, steps, hidden)
    for _ in range(3):
        sess.run(train, feed)  # plans built, allocator warm

    def time_one(what):
        fetch = train if what == "train" else loss
        t0 = time.perf_counter()
        sess.run(fetch, feed)
        return time.perf_counter() - t0
    return time_one


def worker(args):
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    import tensorflow.compat.v1 as tf
    tf.disable_eager_execution()
    time_one = timer(tf, *args)
    print("ready", flush=True)
    for line in sys.stdin:
        print(time_one(json.loads(line)), flush=True)


def tf_worker(args):
    exe = TF_PYTHON if os.path.exists(TF_PYTHON) else None
    if exe is None:
        return None
    p = subprocess.Popen([exe, __file__, "--worker"] + [str(a) for a in args],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    if p.stdout.readline().strip() != "ready":
        return None

    def time_one(what):
        p.stdin.write(json.dumps(what) + "\n")
        p.stdin.flush()
        return float(p.stdout.readline())
    return time_one


def median(v):
    return sorted(v)[len(v) // 2]


def main():
    argv = [int(a) for a in sys.argv[1:]]
    batch, steps, hidden, reps = (argv + [16, 32, 32, 15][len(argv):])[:4]
    import minitf
    mt = timer(minitf, batch, steps, hidden)
    tfw = tf_worker([batch, steps, hidden])
    print("LSTM dynamic_rnn batch %d, %d steps, %d units; median of %d alternating runs"
          % (batch, steps, hidden, reps))
    print("%-22s %12s %12s %8s" % ("", "minitf ms", "TF ms", "ratio"))
    for what in ("forward", "train"):
        a, b = [], []
        for _ in range(reps):
            a.append(mt(what))
            if tfw:
                b.append(tfw(what))
        if tfw:
            print("%-22s %12.2f %12.2f %7.2fx" % (what, 1e3 * median(a), 1e3 * median(b),
                                                  median(b) / median(a)))
        else:
            print("%-22s %12.2f %12s" % (what, 1e3 * median(a), "(no TF)"))


if __name__ == "__main__":
    if "--worker" in sys.argv:
        worker([int(a) for a in sys.argv[sys.argv.index("--worker") + 1:]])
    else:
        main()
