"""Cases shared by tools/gen_stateless_random_expected.py (run with real TensorFlow 2.21) and
tests/python/test_stateless_random.py: each builder takes the `tf` module (TensorFlow's
tf.compat.v1 or minitf) and builds one tensor in the default graph. The fixture holds the graph
TF builds (node names and types), the static shape, and the exact bits of the value (or the
exception building or running it raises)."""
import numpy as np


def _pwd(tf, value, dtype=None):
    # A value the graph cannot fold: checks run at run time, not at construction.
    return tf.placeholder_with_default(tf.constant(value, dtype=dtype), None)


_LOGITS = [[0.0, 1.0, 2.0, -1.0], [3.0, -2.0, 0.5, 0.5], [-np.inf, 0.0, 0.0, 1.0]]

CASES = {
    # tf.random.stateless_uniform
    "uniform_f32": lambda tf: tf.random.stateless_uniform([2, 3], seed=[1, 2]),
    "uniform_f64": lambda tf: tf.random.stateless_uniform([5], seed=[7, -3], dtype=tf.float64),
    "uniform_f16": lambda tf: tf.random.stateless_uniform([9], seed=[0, 0], dtype=tf.float16),
    "uniform_bf16": lambda tf: tf.random.stateless_uniform([9], seed=[3, 4], dtype=tf.bfloat16),
    "uniform_range": lambda tf: tf.random.stateless_uniform([4, 2], seed=[5, 6], minval=-2.0,
                                                            maxval=3.0, name="u"),
    "uniform_big": lambda tf: tf.random.stateless_uniform([1001, 7], seed=[11, 12]),
    "uniform_seed_i64": lambda tf: tf.random.stateless_uniform(
        [3], seed=tf.constant([2**40 + 5, -(2**50)], tf.int64)),
    "uniform_seed_placeholder": lambda tf: tf.random.stateless_uniform(
        [3], seed=_pwd(tf, [9, 8])),
    "uniform_int32": lambda tf: tf.random.stateless_uniform([10], seed=[1, 2], minval=-5,
                                                            maxval=17, dtype=tf.int32),
    "uniform_int64": lambda tf: tf.random.stateless_uniform(
        [7], seed=[1, 2], minval=-(2**40), maxval=2**41, dtype=tf.int64),
    "full_int32": lambda tf: tf.random.stateless_uniform([6], seed=[1, 2], minval=None,
                                                         maxval=None, dtype=tf.int32),
    "full_int64": lambda tf: tf.random.stateless_uniform([5], seed=[1, 2], minval=None,
                                                         maxval=None, dtype=tf.int64),
    "full_uint32": lambda tf: tf.random.stateless_uniform([6], seed=[1, 2], minval=None,
                                                          maxval=None, dtype=tf.uint32),
    "full_uint64": lambda tf: tf.random.stateless_uniform([3], seed=[1, 2], minval=None,
                                                          maxval=None, dtype=tf.uint64),
    "uniform_philox": lambda tf: tf.random.stateless_uniform([3], seed=[1, 2], alg="philox"),
    "uniform_alg_int": lambda tf: tf.random.stateless_uniform([3], seed=[1, 2], alg=3),
    "uniform_empty": lambda tf: tf.random.stateless_uniform([0, 3], seed=[1, 2]),
    "uniform_scalar": lambda tf: tf.random.stateless_uniform([], seed=[1, 2]),
    "uniform_threefry": lambda tf: tf.random.stateless_uniform([3], seed=[1, 2],
                                                               alg="threefry"),
    "err_bad_alg": lambda tf: tf.random.stateless_uniform([3], seed=[1, 2], alg="foo"),
    "err_int_one_bound": lambda tf: tf.random.stateless_uniform([3], seed=[1, 2], minval=1,
                                                                dtype=tf.int32),
    "err_uint_bounds": lambda tf: tf.random.stateless_uniform([3], seed=[1, 2], minval=1,
                                                              maxval=4, dtype=tf.uint32),
    "err_dtype": lambda tf: tf.random.stateless_uniform([3], seed=[1, 2], dtype=tf.int8),
    "err_seed_static": lambda tf: tf.random.stateless_uniform([3], seed=[1, 2, 3]),
    "err_seed_rank": lambda tf: tf.random.stateless_uniform([3], seed=[[1, 2]]),
    "err_seed_run": lambda tf: tf.random.stateless_uniform([3], seed=_pwd(tf, [1, 2, 3])),
    "err_int_bounds_run": lambda tf: tf.random.stateless_uniform(
        [3], seed=[1, 2], minval=_pwd(tf, 5), maxval=_pwd(tf, 5), dtype=tf.int32),
    "err_shape_run": lambda tf: tf.random.stateless_uniform(_pwd(tf, [2, -1]), seed=[1, 2]),
    # normal / truncated normal
    "normal_f32": lambda tf: tf.random.stateless_normal([3, 4], seed=[1, 2]),
    "normal_f64": lambda tf: tf.random.stateless_normal([7], seed=[4, 5], dtype=tf.float64),
    "normal_f16": lambda tf: tf.random.stateless_normal([5], seed=[4, 5], dtype=tf.float16),
    "normal_mean_std": lambda tf: tf.random.stateless_normal([6], seed=[4, 5], mean=3.0,
                                                             stddev=[1.0, 2.0, 3.0, 4.0, 5.0,
                                                                     6.0], name="n"),
    "truncated_f32": lambda tf: tf.random.stateless_truncated_normal([513], seed=[8, 9]),
    "truncated_f64": lambda tf: tf.random.stateless_truncated_normal([301], seed=[8, 9],
                                                                     dtype=tf.float64),
    "truncated_mean_std": lambda tf: tf.random.stateless_truncated_normal(
        [2, 2], seed=[1, 1], mean=-1.0, stddev=0.5),
    # categorical / multinomial
    "categorical": lambda tf: tf.random.stateless_categorical(_LOGITS, 9, seed=[1, 2]),
    "categorical_i32": lambda tf: tf.random.stateless_categorical(
        tf.constant(_LOGITS, tf.float64), 5, seed=[3, 2], dtype=tf.int32),
    "multinomial": lambda tf: tf.random.stateless_multinomial(_LOGITS, 4, seed=[1, 2],
                                                              output_dtype=tf.int32),
    "categorical_big": lambda tf: tf.random.stateless_categorical(
        tf.reshape(tf.range(1200, dtype=tf.float32) * 0.01, [100, 12]), 13, seed=[5, 5]),
    "err_categorical_dtype": lambda tf: tf.random.stateless_categorical(_LOGITS, 2, seed=[1, 2],
                                                                        dtype=tf.float32),
    "err_categorical_rank": lambda tf: tf.random.stateless_categorical([1.0, 2.0], 2,
                                                                       seed=[1, 2]),
    # seeds
    "split": lambda tf: tf.random.split([1, 2], num=3),
    "split_i64": lambda tf: tf.random.split(tf.constant([1, 2], tf.int64)),
    "fold_in": lambda tf: tf.random.fold_in([1, 2], 3),
    "fold_in_i64": lambda tf: tf.random.fold_in([1, 2], tf.constant(7, tf.int64)),
    "rng_state_int": lambda tf: tf.random.create_rng_state(1234, "philox"),
    "rng_state_big": lambda tf: tf.random.create_rng_state(2**70 + 3, "threefry"),
    "rng_state_list": lambda tf: tf.random.create_rng_state([12, 34], "threefry"),
    "rng_state_long_list": lambda tf: tf.random.create_rng_state([1, 2, 3, 4], 1),
    "rng_state_auto": lambda tf: tf.random.create_rng_state(5, tf.random.Algorithm.AUTO_SELECT),
    # raw ops (V1 forms, key/counter ops)
    "raw_uniform_v1": lambda tf: tf.raw_ops.StatelessRandomUniform(shape=[5], seed=[3, 4]),
    "raw_normal_v1": lambda tf: tf.raw_ops.StatelessRandomNormal(
        shape=[5], seed=tf.constant([3, 4], tf.int64), dtype=tf.float64),
    "raw_truncated_v1": lambda tf: tf.raw_ops.StatelessTruncatedNormal(shape=[5], seed=[3, 4]),
    "raw_int_v1": lambda tf: tf.raw_ops.StatelessRandomUniformInt(
        shape=[6], seed=[3, 4], minval=tf.constant(2, tf.int64), maxval=tf.constant(9, tf.int64)),
    "raw_full_int_v1": lambda tf: tf.raw_ops.StatelessRandomUniformFullInt(shape=[3],
                                                                           seed=[3, 4]),
    "raw_key_counter": lambda tf: tf.concat(
        tf.raw_ops.StatelessRandomGetKeyCounter(seed=[3, 4]), 0),
    "raw_key_counter_alg": lambda tf: tf.raw_ops.StatelessRandomGetKeyCounterAlg(
        seed=tf.constant([-1, 2**33], tf.int64))[2],
    "raw_key_counter_alg_key": lambda tf: tf.raw_ops.StatelessRandomGetKeyCounterAlg(
        seed=tf.constant([-1, 2**33], tf.int64))[0],
    "raw_get_alg": lambda tf: tf.raw_ops.StatelessRandomGetAlg(),
    "raw_multinomial_v1": lambda tf: tf.raw_ops.StatelessMultinomial(
        logits=_LOGITS, num_samples=3, seed=[3, 4]),
    "raw_int_v2_uint32": lambda tf: tf.raw_ops.StatelessRandomUniformIntV2(
        shape=[6], key=tf.constant([7], tf.uint64), counter=tf.constant([0, 9], tf.uint64),
        alg=1, minval=tf.constant(3, tf.uint32), maxval=tf.constant(2**31 + 7, tf.uint32)),
    "err_raw_key_shape": lambda tf: tf.raw_ops.StatelessRandomUniformV2(
        shape=[3], key=tf.constant([7, 8], tf.uint64), counter=tf.constant([0, 9], tf.uint64),
        alg=1),
    "err_raw_key_run": lambda tf: tf.raw_ops.StatelessRandomUniformV2(
        shape=[3], key=_pwd(tf, [7, 8], tf.uint64), counter=tf.constant([0, 9], tf.uint64),
        alg=1),
    "err_raw_alg_run": lambda tf: tf.raw_ops.StatelessRandomUniformV2(
        shape=[3], key=tf.constant([7], tf.uint64), counter=tf.constant([0, 9], tf.uint64),
        alg=_pwd(tf, 7)),
    "err_raw_alg_rank": lambda tf: tf.raw_ops.StatelessRandomNormalV2(
        shape=[3], key=tf.constant([7], tf.uint64), counter=tf.constant([0, 9], tf.uint64),
        alg=_pwd(tf, [1])),
    "err_raw_int_bounds_rank": lambda tf: tf.raw_ops.StatelessRandomUniformIntV2(
        shape=[3], key=tf.constant([7], tf.uint64), counter=tf.constant([0, 9], tf.uint64),
        alg=1, minval=_pwd(tf, [1]), maxval=tf.constant(4)),
    "err_raw_multinomial_seed": lambda tf: tf.raw_ops.StatelessMultinomial(
        logits=_LOGITS, num_samples=3, seed=_pwd(tf, [3])),
}


def node_list(graph):
    """[name, type] of every op of the graph, in creation order."""
    return [[op.name, op.type] for op in graph.get_operations()]


def encode(value):
    """{dtype, shape, hex}: the exact bytes of a fetched value."""
    a = np.asarray(value)
    return {"dtype": a.dtype.name if a.dtype.name != "bfloat16" else "bfloat16",
            "shape": list(a.shape), "hex": np.ascontiguousarray(a).tobytes().hex()}


def _crop(tf, shape, size, seed=7):
    tf.set_random_seed(3)
    return tf.random_crop(tf.reshape(tf.range(np.prod(shape)), shape), size, seed=seed)


CASES.update({
    "random_crop": lambda tf: _crop(tf, [5, 6, 2], [3, 2, 2]),
    "random_crop_name": lambda tf: tf.random_crop(tf.zeros([4, 4]), [4, 1], seed=1, name="c"),
    "err_random_crop_big": lambda tf: _crop(tf, [2, 3], [3, 3]),
})
