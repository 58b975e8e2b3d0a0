"""Random ops of the TF1 API: tf.random.uniform / tf.random_uniform, tf.random.normal,
tf.random.truncated_normal, tf.random.shuffle, tf.random.multinomial, tf.random.categorical.

Each wrapper creates the same ops, in the same order and with the same names, as
TensorFlow's (tensorflow/python/ops/random_ops.py), and takes its seeds from
random_seed.get_seed, so that a program with tf.set_random_seed gets TensorFlow's numbers.
The kernels (runtime/kernels/random_ops.c) are stateful: each sess.run of the same op in
the same session draws new numbers, exactly as TensorFlow's.
"""
from minitf.framework import dtypes, ops, random_seed
from minitf.framework.op_def_library import apply_op, outputs_of
from minitf.ops import math_ops


def _op(op_type, name=None, **kw):
    return outputs_of(apply_op(op_type, name=name, **kw))


def _seeds(seed):
    seed1, seed2 = random_seed.get_seed(seed)
    return (0 if seed1 is None else seed1), (0 if seed2 is None else seed2)


def _shape_tensor(shape):
    """A shape as an int32/int64 tensor named "shape" (TensorFlow's shape_util.shape_tensor)."""
    dtype = None
    if hasattr(shape, "as_list") and not isinstance(shape, ops.Tensor):  # a TensorShape
        shape = shape.as_list()
    if isinstance(shape, (tuple, list)):
        if not shape:
            dtype = dtypes.int32
        else:
            shape = tuple(d.value if hasattr(d, "value") else d for d in shape)
    return ops.convert_to_tensor(shape, dtype=dtype, name="shape")


def random_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normal samples: RandomStandardNormal * stddev + mean (tf.random.normal, tf.random_normal).

    Args:
      shape: 1-D int32/int64 tensor or Python list: the output shape.
      mean, stddev: tensors or values of `dtype`, broadcastable with the output.
      dtype: float16, bfloat16, float32 or float64.
      seed: Python integer, combined with the graph seed (tf.set_random_seed).
      name: name scope, "random_normal" by default (the result is the op of that name).

    Returns:
      A `dtype` tensor of shape `shape`.

    Raises:
      TypeError for a dtype the op does not support; ValueError for a bad static shape.
    """
    with ops.name_scope(name, "random_normal", [shape, mean, stddev]) as name:
        shape_tensor = _shape_tensor(shape)
        mean_tensor = ops.convert_to_tensor(mean, dtype=dtype, name="mean")
        stddev_tensor = ops.convert_to_tensor(stddev, dtype=dtype, name="stddev")
        seed1, seed2 = _seeds(seed)
        rnd = _op("RandomStandardNormal", shape=shape_tensor, dtype=dtype, seed=seed1,
                  seed2=seed2)
        mul = rnd * stddev_tensor
        return math_ops.add(mul, mean_tensor, name=name)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normal samples within two standard deviations, redrawn outside (tf.random.truncated_normal,
    tf.truncated_normal): TruncatedNormal * stddev + mean.

    Args:
      shape: 1-D int32/int64 tensor or Python list: the output shape.
      mean, stddev: 0-D tensors or values of `dtype`.
      dtype: float16, bfloat16, float32 or float64.
      seed: Python integer, combined with the graph seed (tf.set_random_seed).
      name: name scope, "truncated_normal" by default.

    Returns:
      A `dtype` tensor of shape `shape`.
    """
    with ops.name_scope(name, "truncated_normal", [shape, mean, stddev]) as name:
        shape_tensor = _shape_tensor(shape)
        mean_tensor = ops.convert_to_tensor(mean, dtype=dtype, name="mean")
        stddev_tensor = ops.convert_to_tensor(stddev, dtype=dtype, name="stddev")
        seed1, seed2 = _seeds(seed)
        rnd = _op("TruncatedNormal", shape=shape_tensor, dtype=dtype, seed=seed1, seed2=seed2)
        mul = rnd * stddev_tensor
        return math_ops.add(mul, mean_tensor, name=name)


_UNIFORM_DTYPES = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64,
                   dtypes.int32, dtypes.int64)


def random_uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """Uniform samples in [minval, maxval) (tf.random.uniform, tf.random_uniform).

    Floats: RandomUniform in [0, 1), scaled and shifted unless the bounds are the Python ints
    0 and 1. Integers: RandomUniformInt with scalar bounds (slightly biased unless
    maxval - minval is a power of two, as TensorFlow's).

    Args:
      shape: 1-D int32/int64 tensor or Python list: the output shape.
      minval, maxval: bounds of `dtype` (maxval defaults to 1 for floats).
      dtype: float16, bfloat16, float32, float64, int32 or int64.
      seed: Python integer, combined with the graph seed (tf.set_random_seed).
      name: name scope, "random_uniform" by default.

    Returns:
      A `dtype` tensor of shape `shape`.

    Raises:
      ValueError: for another dtype, or an integer dtype without maxval.
      InvalidArgumentError (at run time): integer bounds with minval >= maxval.
    """
    dtype = dtypes.as_dtype(dtype)
    if dtype not in _UNIFORM_DTYPES:
        raise ValueError("Argument `dtype` got invalid value %s. Accepted dtypes are %s."
                         % (dtype, _UNIFORM_DTYPES))
    if maxval is None:
        if dtype.is_integer:
            raise ValueError("Must specify maxval for integer dtype %r" % dtype)
        maxval = 1
    with ops.name_scope(name, "random_uniform", [shape, minval, maxval]) as name:
        shape = _shape_tensor(shape)
        minval_is_zero = isinstance(minval, int) and minval == 0
        maxval_is_one = isinstance(maxval, int) and maxval == 1
        if not minval_is_zero or not maxval_is_one or dtype.is_integer:
            minval = ops.convert_to_tensor(minval, dtype=dtype, name="min")
            maxval = ops.convert_to_tensor(maxval, dtype=dtype, name="max")
        seed1, seed2 = _seeds(seed)
        if dtype.is_integer:
            return _op("RandomUniformInt", shape=shape, minval=minval, maxval=maxval, seed=seed1,
                       seed2=seed2, name=name)
        result = _op("RandomUniform", shape=shape, dtype=dtype, seed=seed1, seed2=seed2)
        if minval_is_zero:
            if not maxval_is_one:
                result = math_ops.multiply(result, maxval)
        else:
            result = math_ops.add(result * (maxval - minval), minval, name=name)
        return result


def random_shuffle(value, seed=None, name=None):
    """`value` shuffled along its first dimension (tf.random.shuffle, tf.random_shuffle; op
    RandomShuffle, any dtype).

    Args:
      value: a tensor (scalars and tensors with dim 0 of size <= 1 come back unchanged).
      seed: Python integer, combined with the graph seed (tf.set_random_seed).
      name: op name, "RandomShuffle" by default.

    Returns:
      A tensor of the shape and dtype of `value`.
    """
    seed1, seed2 = _seeds(seed)
    return _op("RandomShuffle", value=value, seed=seed1, seed2=seed2, name=name)


def _multinomial_categorical(logits, num_samples, dtype, seed):
    logits = ops.convert_to_tensor(logits, name="logits")
    dtype = dtypes.as_dtype(dtype) if dtype else dtypes.int64
    accepted = (dtypes.int32, dtypes.int64)
    if dtype not in accepted:
        raise ValueError("Argument `dtype` got invalid value %s. Accepted dtypes are %s."
                         % (dtype, accepted))
    seed1, seed2 = _seeds(seed)
    return _op("Multinomial", logits=logits, num_samples=num_samples, seed=seed1, seed2=seed2,
               output_dtype=dtype)


def multinomial(logits, num_samples, seed=None, name=None, output_dtype=None):
    """Class indices drawn from unnormalized log-probabilities (tf.random.multinomial,
    tf.multinomial; deprecated in TensorFlow for tf.random.categorical).

    Args:
      logits: 2-D float tensor [batch_size, num_classes].
      num_samples: 0-D int32: samples per row.
      seed: Python integer, combined with the graph seed (tf.set_random_seed).
      name: name scope, "multinomial" by default.
      output_dtype: int32 or int64 (default).

    Returns:
      An `output_dtype` tensor [batch_size, num_samples].

    Raises:
      ValueError: for another output_dtype or logits that are not 2-D.
    """
    with ops.name_scope(name, "multinomial", [logits]):
        return _multinomial_categorical(logits, num_samples, output_dtype, seed)


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """Class indices drawn from unnormalized log-probabilities (tf.random.categorical).

    Args:
      logits: 2-D float tensor [batch_size, num_classes].
      num_samples: 0-D int32: samples per row.
      dtype: int32 or int64 (default).
      seed: Python integer, combined with the graph seed (tf.set_random_seed).
      name: name scope, "categorical" by default.

    Returns:
      A `dtype` tensor [batch_size, num_samples].
    """
    with ops.name_scope(name, "categorical", [logits]):
        return _multinomial_categorical(logits, num_samples, dtype, seed)
