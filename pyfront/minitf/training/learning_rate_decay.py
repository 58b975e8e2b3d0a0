"""The tf.compat.v1.train learning-rate schedules (TensorFlow 2.21's
legacy_learning_rate_decay.py over learning_rate_schedule.py): each returns a scalar tensor of
learning_rate's dtype computed from global_step, under TensorFlow's name scope
("ExponentialDecay", "PolynomialDecay", ...), with the same arithmetic in the same order.

piecewise_constant and cosine_decay_restarts pick between their cases with Select where
TensorFlow builds tf.case / tf.cond: the values are TensorFlow's, the graph is smaller (minitf
has no control-flow ops yet).
"""
import math

from minitf.framework import constant_op, dtypes, ops
from minitf.ops import math_ops, random_ops


def _initial(learning_rate):
    return ops.convert_to_tensor(learning_rate, name="initial_learning_rate")


def _required(global_step, fn):
    if global_step is None:
        raise ValueError("global_step is required for %s." % fn)


def _rate_and_periods(learning_rate, global_step, decay_steps, decay_rate, staircase):
    """(initial learning rate, decay_rate, global_step / decay_steps (floored with staircase)),
    all of the learning rate's dtype: the start ExponentialDecay and InverseTimeDecay share."""
    lr = _initial(learning_rate)
    dtype = lr.dtype
    decay_steps = math_ops.cast(decay_steps, dtype)
    decay_rate = math_ops.cast(decay_rate, dtype)
    p = math_ops.cast(global_step, dtype) / decay_steps
    if staircase:
        p = math_ops.floor(p)
    return lr, decay_rate, p


def _exponential(learning_rate, global_step, decay_steps, decay_rate, staircase, name):
    with ops.name_scope(name or "ExponentialDecay") as scope:
        lr, decay_rate, p = _rate_and_periods(learning_rate, global_step, decay_steps,
                                              decay_rate, staircase)
        return math_ops.multiply(lr, math_ops.pow(decay_rate, p), name=scope)


def exponential_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                      name=None):
    """learning_rate * decay_rate ^ (global_step / decay_steps) (the exponent floored with
    staircase) (tf.compat.v1.train.exponential_decay). A scalar Tensor of learning_rate's
    dtype; ValueError when global_step is None."""
    _required(global_step, "exponential_decay")
    return _exponential(learning_rate, global_step, decay_steps, decay_rate, staircase, name)


def natural_exp_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                      name=None):
    """learning_rate * exp(-decay_rate * global_step / decay_steps)
    (tf.compat.v1.train.natural_exp_decay): exponential_decay with rate exp(-decay_rate)."""
    _required(global_step, "natural_exp_decay")
    natural_exp_rate = math_ops.exp(math_ops.negative(decay_rate))
    return _exponential(learning_rate, global_step, decay_steps, natural_exp_rate, staircase,
                        name)


def inverse_time_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                       name=None):
    """learning_rate / (1 + decay_rate * global_step / decay_steps)
    (tf.compat.v1.train.inverse_time_decay)."""
    _required(global_step, "inverse_time_decay")
    with ops.name_scope(name or "InverseTimeDecay") as scope:
        lr, decay_rate, p = _rate_and_periods(learning_rate, global_step, decay_steps,
                                              decay_rate, staircase)
        const = math_ops.cast(constant_op.constant(1), lr.dtype)
        denom = math_ops.add(const, math_ops.multiply(decay_rate, p))
        return math_ops.divide(lr, denom, name=scope)


def polynomial_decay(learning_rate, global_step, decay_steps, end_learning_rate=0.0001,
                     power=1.0, cycle=False, name=None):
    """(learning_rate - end) * (1 - min(step, decay_steps) / decay_steps) ^ power + end; with
    cycle, decay_steps grows to the next multiple of itself past the step
    (tf.compat.v1.train.polynomial_decay)."""
    _required(global_step, "polynomial_decay")
    with ops.name_scope(name or "PolynomialDecay") as scope:
        lr = _initial(learning_rate)
        dtype = lr.dtype
        end_learning_rate = math_ops.cast(end_learning_rate, dtype)
        power = math_ops.cast(power, dtype)
        step = math_ops.cast(global_step, dtype)
        steps = math_ops.cast(decay_steps, dtype)
        if cycle:
            multiplier = math_ops.where_v2(math_ops.equal(step, 0), 1.0,
                                            math_ops.ceil(step / decay_steps))
            steps = math_ops.multiply(steps, multiplier)
        else:
            step = math_ops.minimum(step, steps)
        p = math_ops.divide(step, steps)
        return math_ops.add(math_ops.multiply(lr - end_learning_rate, math_ops.pow(1 - p, power)),
                            end_learning_rate, name=scope)


def cosine_decay(learning_rate, global_step, decay_steps, alpha=0.0, name=None):
    """learning_rate * ((1 - alpha) * 0.5 (1 + cos(pi min(step, decay_steps) / decay_steps))
    + alpha) (tf.compat.v1.train.cosine_decay)."""
    _required(global_step, "cosine_decay")
    with ops.name_scope(name or "CosineDecay"):
        lr = _initial(learning_rate)
        dtype = lr.dtype
        decay_steps = math_ops.cast(decay_steps, dtype)
        step = math_ops.minimum(math_ops.cast(global_step, dtype), decay_steps)
        completed_fraction = step / decay_steps
        cosine_decayed = 0.5 * (1.0 + math_ops.cos(constant_op.constant(math.pi) *
                                                   completed_fraction))
        decayed = (1 - alpha) * cosine_decayed + alpha
        return math_ops.multiply(lr, decayed)


def cosine_decay_restarts(learning_rate, global_step, first_decay_steps, t_mul=2.0, m_mul=1.0,
                          alpha=0.0, name=None):
    """Cosine decay with warm restarts (SGDR): periods first_decay_steps * t_mul^i, each
    restart's peak scaled by m_mul^i (tf.compat.v1.train.cosine_decay_restarts)."""
    _required(global_step, "cosine_decay_restarts")
    with ops.name_scope(name or "SGDRDecay") as scope:
        lr = _initial(learning_rate)
        dtype = lr.dtype
        first_decay_steps = math_ops.cast(first_decay_steps, dtype)
        alpha = math_ops.cast(alpha, dtype)
        t_mul = math_ops.cast(t_mul, dtype)
        m_mul = math_ops.cast(m_mul, dtype)
        completed_fraction = math_ops.cast(global_step, dtype) / first_decay_steps
        # TensorFlow's cond on t_mul == 1: both cases computed, the right one selected.
        linear_restart = math_ops.floor(completed_fraction)
        linear_fraction = completed_fraction - linear_restart
        geo_restart = math_ops.floor(math_ops.log(1.0 - completed_fraction * (1.0 - t_mul)) /
                                     math_ops.log(t_mul))
        sum_r = (1.0 - t_mul ** geo_restart) / (1.0 - t_mul)
        geo_fraction = (completed_fraction - sum_r) / t_mul ** geo_restart
        is_linear = math_ops.equal(t_mul, 1.0)
        i_restart = math_ops.where_v2(is_linear, linear_restart, geo_restart)
        completed_fraction = math_ops.where_v2(is_linear, linear_fraction, geo_fraction)
        m_fac = m_mul ** i_restart
        cosine_decayed = 0.5 * m_fac * (1.0 + math_ops.cos(constant_op.constant(math.pi) *
                                                           completed_fraction))
        decayed = (1 - alpha) * cosine_decayed + alpha
        return math_ops.multiply(lr, decayed, name=scope)


def _linear_cosine(lr, dtype, global_step, decay_steps, num_periods, alpha, beta, noise):
    decay_steps = math_ops.cast(decay_steps, dtype)
    step = math_ops.minimum(math_ops.cast(global_step, dtype), decay_steps)
    linear_decayed = (decay_steps - step) / decay_steps
    if noise is not None:
        linear_decayed = linear_decayed + noise(step, linear_decayed)
    completed_fraction = step / decay_steps
    fraction = 2.0 * num_periods * completed_fraction
    cosine_decayed = 0.5 * (1.0 + math_ops.cos(constant_op.constant(math.pi) * fraction))
    return (alpha + linear_decayed) * cosine_decayed + beta


def linear_cosine_decay(learning_rate, global_step, decay_steps, num_periods=0.5, alpha=0.0,
                        beta=0.001, name=None):
    """learning_rate * ((alpha + linear) * cosine + beta), linear = (decay_steps - step) /
    decay_steps, cosine = 0.5 (1 + cos(2 pi num_periods step / decay_steps))
    (tf.compat.v1.train.linear_cosine_decay)."""
    _required(global_step, "linear_cosine_decay")
    with ops.name_scope(name or "LinearCosineDecay") as scope:
        lr = _initial(learning_rate)
        dtype = lr.dtype
        num_periods = math_ops.cast(num_periods, dtype)
        alpha = math_ops.cast(alpha, dtype)
        beta = math_ops.cast(beta, dtype)
        decayed = _linear_cosine(lr, dtype, global_step, decay_steps, num_periods, alpha, beta,
                                 None)
        return math_ops.multiply(lr, decayed, name=scope)


def noisy_linear_cosine_decay(learning_rate, global_step, decay_steps, initial_variance=1.0,
                              variance_decay=0.55, num_periods=0.5, alpha=0.0, beta=0.001,
                              name=None):
    """linear_cosine_decay with Gaussian noise of variance initial_variance / (1 + step) ^
    variance_decay added to the linear part (tf.compat.v1.train.noisy_linear_cosine_decay)."""
    _required(global_step, "noisy_linear_cosine_decay")
    with ops.name_scope(name or "NoisyLinearCosineDecay") as scope:
        lr = _initial(learning_rate)
        dtype = lr.dtype
        initial_variance = math_ops.cast(initial_variance, dtype)
        variance_decay = math_ops.cast(variance_decay, dtype)
        num_periods = math_ops.cast(num_periods, dtype)
        alpha = math_ops.cast(alpha, dtype)
        beta = math_ops.cast(beta, dtype)

        def noise(step, linear_decayed):
            variance = initial_variance / math_ops.pow(1.0 + step, variance_decay)
            return random_ops.random_normal(linear_decayed.shape, stddev=math_ops.sqrt(variance))

        decayed = _linear_cosine(lr, dtype, global_step, decay_steps, num_periods, alpha, beta,
                                 noise)
        return math_ops.multiply(lr, decayed, name=scope)


def piecewise_constant(x, boundaries, values, name=None):
    """values[0] for x <= boundaries[0], values[i] for boundaries[i-1] < x <= boundaries[i],
    values[-1] for x > boundaries[-1] (tf.compat.v1.train.piecewise_constant). ValueError
    with TensorFlow's messages for mismatched lengths or dtypes."""
    if len(boundaries) != len(values) - 1:
        raise ValueError(
            "The length of boundaries should be 1 less than the length of values")
    boundaries = [ops.convert_to_tensor(b) for b in boundaries]
    values = [ops.convert_to_tensor(v) for v in values]
    x_recomp = ops.convert_to_tensor(x)
    for i, b in enumerate(boundaries):
        if b.dtype.base_dtype != x_recomp.dtype.base_dtype:
            if b.dtype.base_dtype == dtypes.int32 and x_recomp.dtype.base_dtype == dtypes.int64:
                boundaries[i] = math_ops.cast(b, x_recomp.dtype.base_dtype)
            else:
                raise ValueError("Boundaries (%s) must have the same dtype as x (%s)." %
                                 (b.dtype.base_dtype, x_recomp.dtype.base_dtype))
    for v in values[1:]:
        if v.dtype.base_dtype != values[0].dtype.base_dtype:
            raise ValueError("Values must have elements all with the same dtype (%s vs %s)." %
                             (values[0].dtype.base_dtype, v.dtype.base_dtype))
    with ops.name_scope(name or "PiecewiseConstant"):
        # TensorFlow's exclusive tf.case over the intervals, as a chain of selects.
        out = math_ops.where_v2(x_recomp > boundaries[-1], values[-1], values[0])
        for low, high, v in zip(boundaries[:-1], boundaries[1:], values[1:-1]):
            out = math_ops.where_v2((x_recomp > low) & (x_recomp <= high), v, out)
        return out
