"""Stateless random ops of the TF1 API: tf.random.stateless_uniform, stateless_normal,
stateless_truncated_normal, stateless_categorical, stateless_multinomial, split, fold_in, and
tf.random.Algorithm / create_rng_state.

Each wrapper builds the ops TensorFlow 2.21's stateless_random_ops.py builds, with the same names:
the seed goes through StatelessRandomGetKeyCounter (alg "auto_select") or TensorFlow's Python
Philox scramble (alg "philox") into the V2 kernels (runtime/kernels/random/stateless_ops.c),
so the same seed gives TensorFlow's numbers bit for bit, on every run.
"""
import enum

from minitf.framework import constant_op, dtypes, ops
from minitf.framework.op_def_library import apply_op, outputs_of
from minitf.ops import array_ops, math_ops
from minitf.ops.random_ops import _shape_tensor


def _op(op_type, name=None, **kw):
    return outputs_of(apply_op(op_type, name=name, **kw))


class Algorithm(enum.Enum):
    """A random-number-generation algorithm (tf.random.Algorithm): PHILOX (1), THREEFRY (2),
    AUTO_SELECT (3, Philox on CPU). TensorFlow's CPU kernels implement Philox only."""
    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def _unsupported_alg_error_msg(alg):
    if isinstance(alg, int):
        philox, threefry, auto = (Algorithm.PHILOX.value, Algorithm.THREEFRY.value,
                                  Algorithm.AUTO_SELECT.value)
    elif isinstance(alg, str):
        philox, threefry, auto = "philox", "threefry", "auto_select"
    else:
        philox, threefry, auto = Algorithm.PHILOX, Algorithm.THREEFRY, Algorithm.AUTO_SELECT
    return ("Argument `alg` got unsupported value %s. Supported values are %s for the Philox "
            "algorithm, %s for the ThreeFry algorithm, and %s for auto-selection."
            % (alg, philox, threefry, auto))


def _convert_alg_to_int(alg):
    if isinstance(alg, int):
        return alg
    if isinstance(alg, Algorithm):
        return alg.value
    if isinstance(alg, ops.Tensor):
        return alg
    if isinstance(alg, str):
        canon = alg.strip().lower().replace("-", "").replace("_", "")
        if canon == "philox":
            return Algorithm.PHILOX.value
        if canon == "threefry":
            return Algorithm.THREEFRY.value
        if canon == "autoselect":
            return Algorithm.AUTO_SELECT.value
        raise ValueError(_unsupported_alg_error_msg(alg))
    raise TypeError("Can't convert argument `alg` (of value %s and type %s) to int."
                    % (alg, type(alg)))


def _uint32s_to_uint64(x):
    return math_ops.bitwise_or(
        math_ops.cast(x[0], dtypes.uint64),
        _op("LeftShift", x=math_ops.cast(x[1], dtypes.uint64),
            y=constant_op.constant(32, dtypes.uint64)))


def _philox_scramble_seed(seed):
    """TensorFlow's Python form of the seed scramble (alg "philox"): the kernels'
    GenerateKey built from graph ops."""
    key = constant_op.constant([0x02461E293EC8F720], dtypes.uint64)
    counter = math_ops.cast(seed, dtypes.uint64)
    mix = _op("StatelessRandomUniformFullIntV2", shape=[4], key=key, counter=counter,
              dtype=dtypes.uint32, alg=Algorithm.PHILOX.value)
    key = array_ops.reshape(_uint32s_to_uint64(mix[:2]), [1])
    counter = array_ops.stack([0, _uint32s_to_uint64(mix[2:])], axis=0)
    return key, counter


def _get_key_counter_alg(seed, alg):
    if alg is None:
        alg = Algorithm.AUTO_SELECT.value
    alg = _convert_alg_to_int(alg)
    if alg == Algorithm.AUTO_SELECT.value:
        key, counter = _op("StatelessRandomGetKeyCounter", seed=seed)
    elif alg == Algorithm.PHILOX.value:
        key, counter = _philox_scramble_seed(seed)
    elif alg == Algorithm.THREEFRY.value:
        key = array_ops.reshape(_uint32s_to_uint64(math_ops.cast(seed, dtypes.uint32)), [1])
        counter = array_ops.zeros([1], dtypes.uint64)
    else:
        raise ValueError(_unsupported_alg_error_msg(alg))
    return key, counter, alg


_UNIFORM_DTYPES = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64,
                   dtypes.int32, dtypes.int64, dtypes.uint32, dtypes.uint64)


def stateless_random_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32,
                             name=None, alg="auto_select"):
    """Deterministic uniform samples (tf.random.stateless_uniform).

    Floats in [minval, maxval) (maxval defaults to 1): StatelessRandomUniformV2 scaled and
    shifted. Integers with both bounds: StatelessRandomUniformIntV2 (scalar bounds);
    integers with minval = maxval = None: StatelessRandomUniformFullIntV2 (every value).

    Args:
      shape: 1-D int32/int64 tensor or Python list: the output shape.
      seed: shape [2] int32/int64 tensor (or list).
      minval, maxval: bounds of `dtype`, or both None for full-range integers.
      dtype: float16, bfloat16, float32, float64, int32, int64; uint32/uint64 full-range only.
      name: name scope, "stateless_random_uniform" by default.
      alg: "auto_select" (default), "philox", an Algorithm or its int.

    Returns:
      A `dtype` tensor of shape `shape`, equal to TensorFlow's for the same seed.

    Raises:
      ValueError: for another dtype, only one integer bound given, or unsigned bounds.
      InvalidArgumentError (at run time): minval >= maxval for integers, a bad seed shape,
      or alg "threefry" (not implemented on CPU, as in TensorFlow).
    """
    dtype = dtypes.as_dtype(dtype)
    if dtype not in _UNIFORM_DTYPES:
        raise ValueError("Argument `dtype` got invalid value %s. Accepted dtypes are %s."
                         % (dtype, _UNIFORM_DTYPES))
    if dtype.is_integer:
        if (minval is None) != (maxval is None):
            raise ValueError(
                "For integer `dtype` argument %s, argument `minval` and `maxval` must be both "
                "None or not None. Got `minval`=%s and `maxval`=%s." % (dtype, minval, maxval))
        if minval is not None and dtype in (dtypes.uint32, dtypes.uint64):
            raise ValueError(
                "Argument `dtype` got invalid value %s when argument `minval` is not None. "
                "Please don't use unsigned integers in this case." % dtype)
    elif maxval is None:
        maxval = 1
    with ops.name_scope(name, "stateless_random_uniform", [shape, seed, minval, maxval]) as name:
        shape = _shape_tensor(shape)
        if dtype.is_integer and minval is None:
            key, counter, alg = _get_key_counter_alg(seed, alg)
            return _op("StatelessRandomUniformFullIntV2", shape=shape, key=key, counter=counter,
                       dtype=dtype, alg=alg, name=name)
        minval = ops.convert_to_tensor(minval, dtype=dtype, name="min")
        maxval = ops.convert_to_tensor(maxval, dtype=dtype, name="max")
        key, counter, alg = _get_key_counter_alg(seed, alg)
        if dtype.is_integer:
            return _op("StatelessRandomUniformIntV2", shape=shape, key=key, counter=counter,
                       minval=minval, maxval=maxval, alg=alg, name=name)
        rnd = _op("StatelessRandomUniformV2", shape=shape, key=key, counter=counter, dtype=dtype,
                  alg=alg)
        return math_ops.add(rnd * (maxval - minval), minval, name=name)


def _scaled(op_type, scope, shape, seed, mean, stddev, dtype, name, alg):
    with ops.name_scope(name, scope, [shape, seed, mean, stddev]) as name:
        shape = _shape_tensor(shape)
        mean = ops.convert_to_tensor(mean, dtype=dtype, name="mean")
        stddev = ops.convert_to_tensor(stddev, dtype=dtype, name="stddev")
        key, counter, alg = _get_key_counter_alg(seed, alg)
        rnd = _op(op_type, shape=shape, key=key, counter=counter, dtype=dtype, alg=alg)
        return math_ops.add(rnd * stddev, mean, name=name)


def stateless_random_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None,
                            alg="auto_select"):
    """Deterministic normal samples: StatelessRandomNormalV2 * stddev + mean
    (tf.random.stateless_normal).

    Args:
      shape: 1-D int32/int64 tensor or Python list.
      seed: shape [2] int32/int64 tensor.
      mean, stddev: values of `dtype`, broadcastable with the output.
      dtype: float16, bfloat16, float32 or float64.
      name: name scope, "stateless_random_normal" by default.
      alg: see stateless_random_uniform.

    Returns:
      A `dtype` tensor of shape `shape`, equal to TensorFlow's for the same seed.
    """
    return _scaled("StatelessRandomNormalV2", "stateless_random_normal", shape, seed, mean,
                   stddev, dtype, name, alg)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32,
                               name=None, alg="auto_select"):
    """Deterministic normal samples within two standard deviations:
    StatelessTruncatedNormalV2 * stddev + mean (tf.random.stateless_truncated_normal).

    Args and returns as stateless_random_normal (scope "stateless_truncated_normal").
    """
    return _scaled("StatelessTruncatedNormalV2", "stateless_truncated_normal", shape, seed, mean,
                   stddev, dtype, name, alg)


def _multinomial(logits, num_samples, dtype, seed):
    logits = ops.convert_to_tensor(logits, name="logits")
    dtype = dtypes.as_dtype(dtype) if dtype else dtypes.int64
    accepted = (dtypes.int32, dtypes.int64)
    if dtype not in accepted:
        raise ValueError("Argument `dtype` got invalid value %s. Accepted dtypes are %s."
                         % (dtype, accepted))
    return _op("StatelessMultinomial", logits=logits, num_samples=num_samples, seed=seed,
               output_dtype=dtype)


def stateless_multinomial(logits, num_samples, seed, output_dtype=dtypes.int64, name=None):
    """Deterministic class indices from unnormalized log-probabilities
    (tf.random.stateless_multinomial, op StatelessMultinomial).

    Args:
      logits: 2-D float tensor [batch_size, num_classes].
      num_samples: 0-D int32.
      seed: shape [2] int32/int64 tensor.
      output_dtype: int32 or int64.
      name: name scope, "stateless_multinomial" by default.

    Returns:
      An `output_dtype` tensor [batch_size, num_samples].

    Raises:
      ValueError: for another output_dtype or logits that are not 2-D.
    """
    with ops.name_scope(name, "stateless_multinomial", [logits, seed]):
        return _multinomial(logits, num_samples, output_dtype, seed)


def stateless_categorical(logits, num_samples, seed, dtype=dtypes.int64, name=None):
    """As stateless_multinomial (tf.random.stateless_categorical; scope
    "stateless_categorical")."""
    with ops.name_scope(name, "stateless_categorical", [logits, seed]):
        return _multinomial(logits, num_samples, dtype, seed)


def split(seed, num=2, alg="auto_select"):
    """`num` new seeds from one (tf.random.split): full-range uniform ints of the seed's dtype,
    shape [num, 2]."""
    seed = ops.convert_to_tensor(seed)
    return stateless_random_uniform(shape=[num, 2], seed=seed, dtype=seed.dtype, minval=None,
                                    maxval=None, alg=alg)


def fold_in(seed, data, alg="auto_select"):
    """A new seed from `seed` and the scalar `data` (tf.random.fold_in): [a full-range uniform
    int of data's dtype, data]."""
    data = ops.convert_to_tensor(data)
    seed1 = stateless_random_uniform(shape=[], seed=seed, dtype=data.dtype, minval=None,
                                     maxval=None, alg=alg)
    return array_ops.stack([seed1, data])


_STATE_SIZE = {Algorithm.PHILOX.value: 3, Algorithm.THREEFRY.value: 2,
               Algorithm.AUTO_SELECT.value: 3}


def create_rng_state(seed, alg):
    """The RNG state a tf.random.Generator would start from (tf.random.create_rng_state): in
    graph mode an int64 tensor of the algorithm's state size (Philox and auto-select 3,
    ThreeFry 2), built as TensorFlow's _make_1d_state builds it: an int seed chopped into
    64-bit words, a list/array seed cast to int64, cut to the state size and padded with
    zeros on the left.

    Raises:
      ValueError: for an unsupported algorithm.
    """
    alg = _convert_alg_to_int(alg)
    if alg not in _STATE_SIZE:
        raise ValueError(_unsupported_alg_error_msg(alg))
    size = _STATE_SIZE[alg]
    if isinstance(seed, int):
        words = []
        for _ in range(size):
            words.append(seed & 0xFFFFFFFFFFFFFFFF)
            seed >>= 64
        seed = words

    def to_int(n):
        return n - 2**64 if isinstance(n, int) and n > 2**63 - 1 else n

    if isinstance(seed, (list, tuple)):
        seed = [to_int(n) for n in seed]
    seed = math_ops.cast(seed, dtypes.int64)
    seed = array_ops.reshape(seed, [-1])
    seed = seed[0:size]
    seed_size = seed.shape[0]
    seed_size = seed_size.value if hasattr(seed_size, "value") else seed_size
    if seed_size is None:
        seed_size = array_ops.shape(seed)[0]
    padding = array_ops.zeros([math_ops.maximum(size - seed_size, 0)], seed.dtype)
    seed = array_ops.concat([padding, seed], axis=0)
    seed.set_shape([size])
    return seed
