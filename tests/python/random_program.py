"""A TF1 program using every random wrapper, shared by tests/python/test_random_ops.py
(run with minitf) and tools/gen_random_program.py (run with TensorFlow to write the
expected numbers): `tf` is either module."""
import numpy as np


def build(tf):
    """Builds the program in the default graph; returns {name: tensor}."""
    tf.set_random_seed(1)
    tf.constant(1.0)
    return {
        "uniform": tf.random.uniform([2, 3]),
        "normal_seeded": tf.random.normal([2], seed=5),
        "uniform_range": tf.random.uniform([2], minval=-1.0, maxval=2.0),
        "uniform_max64": tf.random_uniform([3], maxval=4.0, dtype=tf.float64),
        "uniform_int": tf.random.uniform([5], minval=-3, maxval=7, dtype=tf.int64),
        "shuffle": tf.random_shuffle([1, 2, 3, 4, 5, 6]),
        "categorical": tf.random.categorical([[1.0, 2.0]], 3),
        "multinomial": tf.multinomial(tf.constant([[1.0, 2.0, 0.5]]), 4, output_dtype=tf.int32),
        "truncated": tf.truncated_normal([2, 2], mean=1.0, stddev=0.5, dtype=tf.float64),
        "normal_named": tf.random_normal([5], stddev=2.0, name="nh"),
    }


def describe(graph):
    """[name, type, seed, seed2] of every op (seeds only for random ops)."""
    rows = []
    for op in graph.get_operations():
        seeds = [op.get_attr("seed"), op.get_attr("seed2")] if op.type in (
            "RandomUniform", "RandomUniformInt", "RandomStandardNormal", "TruncatedNormal",
            "RandomShuffle", "Multinomial") else []
        rows.append([op.name, op.type] + seeds)
    return rows


def run(tf, tensors):
    """Two runs of each tensor in one session, then one in a new session."""
    out = {}
    with tf.Session() as sess:
        for k, t in tensors.items():
            out[k + "/run1"] = sess.run(t)
            out[k + "/run2"] = sess.run(t)
    with tf.Session() as sess:
        out["uniform/new_session"] = sess.run(tensors["uniform"])
    return out


# Multinomial's big batches are split over TensorFlow's intra-op threads, and each split
# starts its own stream: the expected numbers depend on the thread count.
SHARDED_THREADS = (1, 2, 3, 4, 8)


def sharded_multinomial(tf, threads):
    logits = np.random.RandomState(0).randn(7, 50).astype(np.float32)
    g = tf.Graph()
    with g.as_default():
        t = tf.random.categorical(logits, 600, seed=3)
        config = tf.ConfigProto(intra_op_parallelism_threads=threads)
        with tf.Session(config=config) as sess:
            return sess.run(t)
