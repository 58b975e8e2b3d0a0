"""Variable initializers of the TF1 API (tf.compat.v1.zeros_initializer, ...,
tf.compat.v1.initializers.*), as TensorFlow 2.21's tensorflow/python/ops/init_ops.py.

An initializer is a callable `init(shape, dtype=None, partition_info=None)` returning a
tensor of that shape. Each builds the same ops, with the same names and in the same order,
as TensorFlow's (e.g. glorot_uniform: random_uniform/{shape,min,max,RandomUniform,sub,mul}
and the AddV2 named random_uniform), and asks random_seed.get_seed exactly as often, so that
under tf.set_random_seed the values are TensorFlow's bit for bit. tf.get_variable calls them
inside the variable's "Initializer" name scope (v/Initializer/random_uniform/...).
"""
import math

import numpy as np

from minitf.framework import constant_op, dtypes
from minitf.ops import array_ops, random_ops


class Initializer:
    """Base class of initializers (tf.compat.v1.keras.initializers.Initializer)."""

    def __call__(self, shape, dtype=None, partition_info=None):
        raise NotImplementedError

    def get_config(self):
        """The constructor arguments as a dict (JSON-serializable)."""
        return {}

    @classmethod
    def from_config(cls, config):
        """An initializer built from a get_config() dict: cls(**config)."""
        return cls(**config)


def _assert_float_dtype(dtype):
    if not dtype.is_floating:
        raise ValueError("Argument `dtype` is expected to be floating point. Received: %s."
                         % dtype)
    return dtype


class Zeros(Initializer):
    """Zeros (tf.compat.v1.zeros_initializer, tf.initializers.zeros): a Const "zeros" for
    fewer than 1000 elements, else a Fill, as tf.zeros."""

    def __init__(self, dtype=dtypes.float32):
        self.dtype = dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return array_ops.zeros(shape, self.dtype if dtype is None else dtype)

    def get_config(self):
        return {"dtype": self.dtype.name}


class Ones(Initializer):
    """Ones (tf.compat.v1.ones_initializer, tf.initializers.ones), built as tf.ones."""

    def __init__(self, dtype=dtypes.float32):
        self.dtype = dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return array_ops.ones(shape, self.dtype if dtype is None else dtype)

    def get_config(self):
        return {"dtype": self.dtype.name}


class Constant(Initializer):
    """A constant (tf.compat.v1.constant_initializer, tf.initializers.constant): a Const
    named "Const" holding `value` (a scalar is broadcast to the shape; a list, tuple or array
    of as many elements is reshaped to it).

    Raises:
      TypeError: `value` is not a scalar, list, tuple or ndarray (at construction), or does
        not fit the shape (when called).
    """

    def __init__(self, value=0, dtype=dtypes.float32, verify_shape=False):
        if not (np.isscalar(value) or isinstance(value, (list, tuple, np.ndarray))):
            raise TypeError("Invalid type for initial value=%s of type: %s. Expected Python "
                            "scalar, list or tuple of values, or numpy.ndarray."
                            % (value, type(value).__name__))
        self.value = value
        self.dtype = dtypes.as_dtype(dtype)
        self._verify_shape = verify_shape

    def __call__(self, shape, dtype=None, partition_info=None, verify_shape=None):
        if dtype is None:
            dtype = self.dtype
        if verify_shape is None:
            verify_shape = self._verify_shape
        return constant_op.constant(self.value, dtype=dtype, shape=shape,
                                    verify_shape=verify_shape)

    def get_config(self):
        return {"value": self.value, "dtype": self.dtype.name}


class RandomUniform(Initializer):
    """Uniform samples in [minval, maxval) (tf.compat.v1.random_uniform_initializer), built
    as tf.random.uniform (RandomUniformInt for integer dtypes, which need maxval)."""

    def __init__(self, minval=.0, maxval=None, seed=None, dtype=dtypes.float32):
        self.minval = minval
        self.maxval = maxval
        self.seed = seed
        self.dtype = dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return random_ops.random_uniform(shape, self.minval, self.maxval,
                                         self.dtype if dtype is None else dtype, seed=self.seed)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed,
                "dtype": self.dtype.name}


class RandomNormal(Initializer):
    """Normal samples (tf.compat.v1.random_normal_initializer), built as tf.random.normal.

    Raises:
      ValueError: a dtype that is not floating point.
    """

    def __init__(self, mean=0.0, stddev=1.0, seed=None, dtype=dtypes.float32):
        self.mean = mean
        self.stddev = stddev
        self.seed = seed
        self.dtype = _assert_float_dtype(dtypes.as_dtype(dtype))

    def __call__(self, shape, dtype=None, partition_info=None):
        return random_ops.random_normal(shape, self.mean, self.stddev,
                                        self.dtype if dtype is None else dtype, seed=self.seed)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed,
                "dtype": self.dtype.name}


class TruncatedNormal(Initializer):
    """Normal samples within two standard deviations (tf.compat.v1.truncated_normal_initializer),
    built as tf.random.truncated_normal.

    Raises:
      ValueError: a dtype that is not floating point.
    """

    def __init__(self, mean=0.0, stddev=1.0, seed=None, dtype=dtypes.float32):
        self.mean = mean
        self.stddev = stddev
        self.seed = seed
        self.dtype = _assert_float_dtype(dtypes.as_dtype(dtype))

    def __call__(self, shape, dtype=None, partition_info=None):
        return random_ops.truncated_normal(shape, self.mean, self.stddev,
                                           self.dtype if dtype is None else dtype,
                                           seed=self.seed)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed,
                "dtype": self.dtype.name}


class UniformUnitScaling(Initializer):
    """Uniform in [-m, m], m = sqrt(3 / prod(shape[:-1])) * factor
    (tf.compat.v1.uniform_unit_scaling_initializer)."""

    def __init__(self, factor=1.0, seed=None, dtype=dtypes.float32):
        self.factor = factor
        self.seed = seed
        self.dtype = _assert_float_dtype(dtypes.as_dtype(dtype))

    def __call__(self, shape, dtype=None, partition_info=None):
        scale_shape = shape if partition_info is None else partition_info.full_shape
        input_size = 1.0
        for dim in scale_shape[:-1]:
            input_size *= float(dim)
        max_val = math.sqrt(3 / max(input_size, 1.0)) * self.factor
        return random_ops.random_uniform(shape, -max_val, max_val,
                                         self.dtype if dtype is None else dtype, seed=self.seed)

    def get_config(self):
        return {"factor": self.factor, "seed": self.seed, "dtype": self.dtype.name}


def _compute_fans(shape):
    """(fan_in, fan_out) of a weight shape: 1 and 1 for scalars, the dimension for vectors,
    rows and columns for matrices, and for convolution kernels the last two dimensions times
    the receptive field (the product of the others)."""
    if len(shape) < 1:
        fan_in = fan_out = 1
    elif len(shape) == 1:
        fan_in = fan_out = shape[0]
    elif len(shape) == 2:
        fan_in, fan_out = shape[0], shape[1]
    else:
        receptive_field_size = 1
        for dim in shape[:-2]:
            receptive_field_size *= dim
        fan_in = shape[-2] * receptive_field_size
        fan_out = shape[-1] * receptive_field_size
    return int(fan_in), int(fan_out)


class VarianceScaling(Initializer):
    """Samples scaled to the weight's fan (tf.compat.v1.variance_scaling_initializer).

    scale is divided by fan_in, fan_out or their mean (`mode`); then "truncated_normal" (or
    "normal") draws tf.random.truncated_normal with stddev sqrt(scale) / .87962566103423978,
    "untruncated_normal" tf.random.normal with stddev sqrt(scale), and "uniform"
    tf.random.uniform in [-sqrt(3 scale), sqrt(3 scale)).

    Raises:
      ValueError: scale <= 0, an unknown mode or distribution, a non-float dtype.
    """

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None,
                 dtype=dtypes.float32):
        if scale <= 0.:
            raise ValueError("Argument `scale` must be a positive float. Received: %s" % scale)
        if mode not in {"fan_in", "fan_out", "fan_avg"}:
            raise ValueError("Argument `mode` should be one of ('fan_in', 'fan_out', "
                             "'fan_avg'). Received: %s" % mode)
        distribution = distribution.lower()
        if distribution not in {"normal", "uniform", "truncated_normal", "untruncated_normal"}:
            raise ValueError("Argument `distribution` should be one of ('normal', uniform', "
                             "'truncated_normal', 'untruncated_normal'). Received: %s"
                             % distribution)
        self.scale = scale
        self.mode = mode
        self.distribution = distribution
        self.seed = seed
        self.dtype = _assert_float_dtype(dtypes.as_dtype(dtype))

    def __call__(self, shape, dtype=None, partition_info=None):
        if dtype is None:
            dtype = self.dtype
        scale_shape = shape if partition_info is None else partition_info.full_shape
        fan_in, fan_out = _compute_fans(scale_shape)
        scale = self.scale
        if self.mode == "fan_in":
            scale /= max(1., fan_in)
        elif self.mode == "fan_out":
            scale /= max(1., fan_out)
        else:
            scale /= max(1., (fan_in + fan_out) / 2.)
        if self.distribution in ("normal", "truncated_normal"):
            # The constant is the stddev of a unit normal truncated to [-2, 2].
            stddev = math.sqrt(scale) / .87962566103423978
            return random_ops.truncated_normal(shape, 0.0, stddev, dtype, seed=self.seed)
        if self.distribution == "untruncated_normal":
            return random_ops.random_normal(shape, 0.0, math.sqrt(scale), dtype,
                                            seed=self.seed)
        limit = math.sqrt(3.0 * scale)
        return random_ops.random_uniform(shape, -limit, limit, dtype, seed=self.seed)

    def get_config(self):
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "seed": self.seed, "dtype": self.dtype.name}


class GlorotUniform(VarianceScaling):
    """Glorot (Xavier) uniform: VarianceScaling(1, "fan_avg", "uniform")
    (tf.compat.v1.glorot_uniform_initializer; tf.get_variable's default for floats). The
    dtype argument is accepted and ignored, as TensorFlow's (float32 unless __call__ says)."""

    def __init__(self, seed=None, dtype=dtypes.float32):
        super().__init__(scale=1.0, mode="fan_avg", distribution="uniform", seed=seed)

    def get_config(self):
        return {"seed": self.seed, "dtype": self.dtype.name}


class GlorotNormal(VarianceScaling):
    """Glorot (Xavier) normal: VarianceScaling(1, "fan_avg", "truncated_normal")
    (tf.compat.v1.glorot_normal_initializer)."""

    def __init__(self, seed=None, dtype=dtypes.float32):
        super().__init__(scale=1.0, mode="fan_avg", distribution="truncated_normal", seed=seed)

    def get_config(self):
        return {"seed": self.seed, "dtype": self.dtype.name}


def lecun_normal(seed=None):
    """VarianceScaling(1, "fan_in", "truncated_normal") (tf.compat.v1.initializers.lecun_normal)."""
    return VarianceScaling(scale=1., mode="fan_in", distribution="truncated_normal", seed=seed)


def lecun_uniform(seed=None):
    """VarianceScaling(1, "fan_in", "uniform") (tf.compat.v1.initializers.lecun_uniform)."""
    return VarianceScaling(scale=1., mode="fan_in", distribution="uniform", seed=seed)


def he_normal(seed=None):
    """VarianceScaling(2, "fan_in", "truncated_normal") (tf.compat.v1.initializers.he_normal)."""
    return VarianceScaling(scale=2., mode="fan_in", distribution="truncated_normal", seed=seed)


def he_uniform(seed=None):
    """VarianceScaling(2, "fan_in", "uniform") (tf.compat.v1.initializers.he_uniform)."""
    return VarianceScaling(scale=2., mode="fan_in", distribution="uniform", seed=seed)


class Identity(Initializer):
    """gain * the identity matrix, for 2-D variables (tf.compat.v1.initializers.identity;
    a non-square shape gets ones on its main diagonal). With a partitioned variable, each
    part is its slice of the full matrix. ValueError for a shape that is not 2-D (TensorFlow's
    message, "must be at least two-dimensional"), or a dtype that is not floating.

    One difference: TensorFlow builds the matrix with eye's ones + MatrixDiag (or
    MatrixSetDiag) ops; minitf holds it as one Const named "eye" (the same values)."""

    def __init__(self, gain=1.0, dtype=dtypes.float32):
        self.gain = gain
        self.dtype = _assert_float_dtype(dtypes.as_dtype(dtype))

    def __call__(self, shape, dtype=None, partition_info=None):
        from minitf.framework import tensor_shape
        from minitf.ops import indexing_ops
        full_shape = shape if partition_info is None else partition_info.full_shape
        if len(full_shape) != 2:
            raise ValueError("The tensor to initialize, specified by argument `shape` must be "
                             "at least two-dimensional. Received shape=%s" % (shape,))
        if dtype is None:
            dtype = self.dtype
        dtype = dtypes.as_dtype(dtype)
        full_shape = tensor_shape.TensorShape(full_shape).as_list()
        initializer = constant_op.constant(np.eye(full_shape[0], full_shape[1]), dtype=dtype,
                                           name="eye")
        if partition_info is not None:
            initializer = indexing_ops.slice(initializer, partition_info.var_offset, shape)
        return self.gain * initializer

    def get_config(self):
        return {"gain": self.gain, "dtype": self.dtype.name}


class Orthogonal(Initializer):
    """gain * a random orthogonal matrix (tf.compat.v1.orthogonal_initializer /
    tf.compat.v1.initializers.orthogonal), as TensorFlow builds it: normal samples of shape
    (rows, cols) with rows = prod(shape[:-1]) and cols = shape[-1] (transposed when rows <
    cols), their Qr's q times sign(diag(r)), transposed back, reshaped to `shape`. Under one
    seed the samples are TensorFlow's bit for bit, and the values equal TensorFlow's to
    float32 rounding of the QR factorization.

    Raises:
      ValueError: a shape of rank < 2, or a dtype that is not floating point.
    """

    def __init__(self, gain=1.0, seed=None, dtype=dtypes.float32):
        self.gain = gain
        self.dtype = _assert_float_dtype(dtypes.as_dtype(dtype))
        self.seed = seed

    def __call__(self, shape, dtype=None, partition_info=None):
        from minitf.ops import linalg_ops, math_ops
        if dtype is None:
            dtype = self.dtype
        if len(shape) < 2:
            raise ValueError("The tensor to initialize, specified by argument `shape` must be "
                             "at least two-dimensional. Received shape=%s" % (shape,))
        num_rows = 1
        for dim in shape[:-1]:
            num_rows *= dim
        num_rows, num_cols = int(num_rows), int(shape[-1])
        # A wide matrix is factored as its transpose, so q has orthonormal columns.
        flat_shape = (num_cols, num_rows) if num_rows < num_cols else (num_rows, num_cols)
        a = random_ops.random_normal(flat_shape, dtype=dtype, seed=self.seed)
        q, r = linalg_ops.qr(a, full_matrices=False)
        # sign(diag(r)) makes the factorization unique, so q is uniformly distributed.
        q *= math_ops.sign(linalg_ops.diag_part(r))
        if num_rows < num_cols:
            q = linalg_ops.matrix_transpose(q)
        return self.gain * array_ops.reshape(q, shape)

    def get_config(self):
        return {"gain": self.gain, "seed": self.seed, "dtype": self.dtype.name}


zeros_initializer = Zeros
ones_initializer = Ones
constant_initializer = Constant
random_uniform_initializer = RandomUniform
random_normal_initializer = RandomNormal
truncated_normal_initializer = TruncatedNormal
uniform_unit_scaling_initializer = UniformUnitScaling
variance_scaling_initializer = VarianceScaling
glorot_uniform_initializer = GlorotUniform
glorot_normal_initializer = GlorotNormal
orthogonal_initializer = Orthogonal
