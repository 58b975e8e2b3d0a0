"""tf.random wrappers and the stateful random kernels, beyond the goldens: a TF1 program with
tf.set_random_seed gives TensorFlow's numbers run after run, seeds follow TF 2.21's get_seed,
streams advance per (session, node), and errors are TensorFlow's."""
import inspect
import json
import os
import threading

import numpy as np
import pytest

import minitf as tf
import random_program


@pytest.fixture
def expected(fixtures_dir):
    d = os.path.join(fixtures_dir, "random_program")
    with open(os.path.join(d, "graph.json")) as f:
        meta = json.load(f)
    return meta, np.load(os.path.join(d, "expected.npz"))


def test_program_builds_tensorflows_ops_names_and_seeds(graph, expected):
    meta, _ = expected
    tensors = random_program.build(tf)
    assert random_program.describe(graph) == meta["ops"]
    for k, t in tensors.items():
        assert t.shape.as_list() == meta["tensors"][k]["shape"], k
        assert t.dtype.name == meta["tensors"][k]["dtype"], k


def test_program_gives_tensorflows_numbers_across_runs(graph, expected):
    _, want = expected
    got = random_program.run(tf, random_program.build(tf))
    assert sorted(got) == sorted(k for k in want.files if not k.startswith("sharded/"))
    for k in want.files:
        if k.startswith("sharded/"):
            continue
        assert got[k].dtype == want[k].dtype, k
        # Bit-exact here; normals go through logf/sincosf (allow ~2 ulp across libms).
        np.testing.assert_allclose(got[k], want[k], rtol=2.4e-7 if "normal" in k else 0,
                                   atol=0, err_msg=k)
    # The second run of an op draws new numbers (the stream advances), a new session
    # starts the stream again.
    assert not np.array_equal(got["uniform/run1"], got["uniform/run2"])
    np.testing.assert_array_equal(got["uniform/new_session"], got["uniform/run1"])


@pytest.mark.parametrize("threads", random_program.SHARDED_THREADS)
def test_multinomial_splits_rows_like_tensorflow(threads, expected):
    _, want = expected
    got = random_program.sharded_multinomial(tf, threads)
    np.testing.assert_array_equal(got, want["sharded/%d" % threads])


def test_get_seed_rules(graph):
    # Worked by hand from TF 2.21's random_seed.get_seed.
    assert tf.get_seed(None) == (None, None)
    assert tf.get_seed(7) == (87654321, 7)
    assert tf.get_seed(2**31 - 1 + 5) == (87654321, 5)
    tf.set_random_seed(2**40)  # 2**40 % (2**31 - 1) == 512
    assert graph.seed == 2**40
    assert [tf.get_seed(None), tf.get_seed(None), tf.get_seed(2**35)] == \
        [(512, 0), (512, 1), (512, 16)]
    with tf.Graph().as_default():
        tf.random.set_random_seed(0)
        assert tf.random.get_seed(None) == (0, 2**31 - 1)  # (0, 0) means "nondeterministic"
        assert tf.random.get_seed(0) == (0, 2**31 - 1)
        assert tf.random.get_seed(None) == (0, 1)


def test_op_seed_counter_is_per_graph(graph):
    tf.set_random_seed(3)
    a = tf.random.uniform([1])
    with tf.Graph().as_default():
        tf.set_random_seed(3)
        b = tf.random.uniform([1])
    assert a.op.get_attr("seed2") == b.op.get_attr("seed2") == 0
    assert tf.random.uniform([1]).op.get_attr("seed2") == 1


def test_unseeded_ops_differ_between_sessions(graph):
    t = tf.random.uniform([64])
    assert t.op.get_attr("seed") == 0 and t.op.get_attr("seed2") == 0
    with tf.Session() as s1, tf.Session() as s2:
        a, b = s1.run(t), s2.run(t)
    assert not np.array_equal(a, b)
    assert ((a >= 0) & (a < 1)).all() and ((b >= 0) & (b < 1)).all()


def test_concurrent_runs_reserve_disjoint_parts_of_the_stream(graph):
    t = tf.raw_ops.RandomUniformInt(shape=[8], minval=tf.constant(0, tf.int64),
                                    maxval=tf.constant(2**62, tf.int64), seed=1, seed2=2)
    with tf.Session() as sess:
        sequential = {tuple(sess.run(t)) for _ in range(40)}
    with tf.Session() as sess:
        got, lock = set(), threading.Lock()

        def worker():
            for _ in range(10):
                v = tuple(sess.run(t))
                with lock:
                    got.add(v)
        threads = [threading.Thread(target=worker) for _ in range(4)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    assert got == sequential and len(got) == 40


def test_uniform_scaling_ops_and_values(graph):
    u = tf.random.uniform([1000], minval=-2.0, maxval=3.0, seed=4)
    assert [op.name for op in graph.get_operations()] == [
        "random_uniform/shape", "random_uniform/min", "random_uniform/max",
        "random_uniform/RandomUniform", "random_uniform/sub", "random_uniform/mul",
        "random_uniform"]
    n = tf.random.normal([3], mean=2.0, stddev=0.0, seed=1)
    i = tf.random.uniform([1000], minval=-5, maxval=-2, dtype=tf.int32, seed=4)
    with tf.Session() as sess:
        uv, nv, iv = sess.run([u, n, i])
    assert uv.min() >= -2.0 and uv.max() < 3.0
    np.testing.assert_array_equal(nv, np.float32([2, 2, 2]))
    assert set(iv.tolist()) == {-5, -4, -3}


def test_truncated_normal_stays_within_two_stddev(graph):
    t = tf.truncated_normal([20000], mean=10.0, stddev=3.0, dtype=tf.float64, seed=8)
    with tf.Session() as sess:
        v = sess.run(t)
    assert v.min() > 4.0 and v.max() < 16.0


def test_shuffle_is_a_permutation_of_rows(graph):
    x = np.arange(300).reshape(100, 3)
    t = tf.random.shuffle(x, seed=2)
    assert t.op.name == "RandomShuffle" and t.shape.as_list() == [100, 3]
    with tf.Session() as sess:
        a, b = sess.run(t), sess.run(t)
    assert sorted(map(tuple, a)) == sorted(map(tuple, x)) == sorted(map(tuple, b))
    assert not np.array_equal(a, b)


def test_wrapper_signatures_match_tensorflow():
    sig = {  # TensorFlow 2.21's tf.compat.v1 signatures
        tf.random.uniform: "(shape, minval=0, maxval=None, dtype=tf.float32, seed=None, name=None)",
        tf.random.normal: "(shape, mean=0.0, stddev=1.0, dtype=tf.float32, seed=None, name=None)",
        tf.random.truncated_normal:
            "(shape, mean=0.0, stddev=1.0, dtype=tf.float32, seed=None, name=None)",
        tf.random.shuffle: "(value, seed=None, name=None)",
        tf.random.multinomial: "(logits, num_samples, seed=None, name=None, output_dtype=None)",
        tf.random.categorical: "(logits, num_samples, dtype=None, seed=None, name=None)",
        tf.set_random_seed: "(seed)",
    }
    for fn, want in sig.items():
        assert str(inspect.signature(fn)) == want, fn
    assert tf.random_uniform is tf.random.uniform and tf.random_normal is tf.random.normal
    assert tf.truncated_normal is tf.random.truncated_normal
    assert tf.random_shuffle is tf.random.shuffle and tf.multinomial is tf.random.multinomial
    assert tf.random.set_random_seed is tf.set_random_seed


def test_construction_errors(graph):
    with pytest.raises(ValueError, match="Must specify maxval for integer dtype tf.int32"):
        tf.random.uniform([2], dtype=tf.int32)
    with pytest.raises(ValueError, match="Argument `dtype` got invalid value <dtype: 'uint8'>"
                       "|Argument `dtype` got invalid value tf.uint8"):
        tf.random.uniform([2], maxval=3, dtype=tf.uint8)
    with pytest.raises(ValueError, match="Argument `dtype` got invalid value"):
        tf.random.categorical([[1.0, 2.0]], 2, dtype=tf.float32)
    with pytest.raises(TypeError, match="Value passed to parameter 'dtype' has DataType int32"):
        tf.random.normal([2], dtype=tf.int32)
    with pytest.raises(ValueError, match="Shape must be rank 2 but is rank 1"):
        tf.random.categorical([1.0, 2.0], 2)
    with pytest.raises(ValueError, match="Invalid value in tensor used for shape: -2"):
        tf.random.normal([3, -2])


def test_run_time_errors(graph):
    lo = tf.placeholder(tf.int32)
    t = tf.raw_ops.RandomUniformInt(shape=[3], minval=lo, maxval=tf.constant(5), seed=1)
    bad = tf.random.uniform([3], minval=4, maxval=4, dtype=tf.int64)
    shape = tf.placeholder(tf.int64)
    n = tf.random.normal(shape)
    with tf.Session() as sess:
        invalid = tf.errors.InvalidArgumentError
        with pytest.raises(invalid, match=r"minval must be 0-D, got shape \[1\]"):
            sess.run(t, {lo: [1]})
        with pytest.raises(invalid, match="Need minval < maxval, got 4 >= 4"):
            sess.run(bad)
        with pytest.raises(tf.errors.InvalidArgumentError, match="Dimension -1 must be >= 0"):
            sess.run(n, {shape: [2, -1]})
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"shape must be a vector of \{int32,int64\}, got shape \[\]"):
            sess.run(n, {shape: 3})
        assert sess.run(n, {shape: np.zeros(0, np.int64)}).shape == ()
