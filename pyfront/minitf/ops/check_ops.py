"""Run-time and static checks: tf.debugging.assert_* (tf.compat.v1's forms).

Mirrors tensorflow/python/ops/check_ops.py in graph mode: the same name scopes (e.g.
assert_equal opens its scope once for the `x is y` check, so its nodes are
"assert_equal_1/..."), the same data printed on failure, and the same static checks at
construction: InvalidArgumentError when both sides are Consts and the condition fails,
ValueError for a statically known wrong rank, TypeError for a wrong dtype.
"""
import numpy as np

from minitf import errors
from minitf.framework import dtypes, ops, tensor_util
from minitf.ops import array_ops, control_flow_ops, math_ops, reduction_ops
from minitf.ops.logging_ops import Assert

NUMERIC_TYPES = frozenset([
    dtypes.float16, dtypes.float32, dtypes.float64, dtypes.bfloat16, dtypes.int8, dtypes.int16,
    dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16, dtypes.uint32, dtypes.uint64,
    dtypes.qint8, dtypes.qint16, dtypes.qint32, dtypes.quint8, dtypes.quint16,
    dtypes.complex64, dtypes.complex128])


def _message_prefix(message):
    return "%s.  " % message if message else ""


def _constant_value_string(t):
    if not isinstance(t, ops.Tensor):
        return str(t)
    value = tensor_util.constant_value(t)
    return str(value) if value is not None else t


def _assert_static(condition, data):
    if not condition:
        raise errors.InvalidArgumentError(
            None, None, "\n".join(str(_constant_value_string(x)) for x in data))


def _binary_assert(sym, opname, op_func, static_func, x, y, data, summarize, message, name):
    with ops.name_scope(name, opname, [x, y, data]):
        x = ops.convert_to_tensor(x, name="x")
        y = ops.convert_to_tensor(y, name="y")
        if data is None:
            data = ["Condition x %s y did not hold element-wise:" % sym,
                    "x (%s) = " % x.name, x, "y (%s) = " % y.name, y]
        if message is not None:
            data = [message] + list(data)
        condition = reduction_ops.reduce_all(op_func(x, y))
        x_static = tensor_util.constant_value(x)
        y_static = tensor_util.constant_value(y)
        if x_static is not None and y_static is not None:
            _assert_static(np.all(static_func(x_static, y_static)), data)
        return Assert(condition, data, summarize=summarize)


def assert_equal(x, y, data=None, summarize=None, message=None, name=None):
    """Op that fails at run time unless x == y element-wise (broadcasting)
    (tf.compat.v1.debugging.assert_equal). data: what to print on failure (default: the
    condition, x and y); summarize: entries per tensor; message: prefix. A no_op when x is
    y. InvalidArgumentError at construction when both are constants and differ."""
    with ops.name_scope(name, "assert_equal", [x, y, data]):
        if x is y:
            return control_flow_ops.no_op()
    return _binary_assert("==", "assert_equal", math_ops.equal, np.equal, x, y, data,
                          summarize, message, name)


def assert_none_equal(x, y, data=None, summarize=None, message=None, name=None):
    """Fails unless x != y element-wise (tf.compat.v1.debugging.assert_none_equal)."""
    return _binary_assert("!=", "assert_none_equal", math_ops.not_equal, np.not_equal, x, y,
                          data, summarize, message, name)


def assert_less(x, y, data=None, summarize=None, message=None, name=None):
    """Fails unless x < y element-wise (tf.compat.v1.debugging.assert_less)."""
    return _binary_assert("<", "assert_less", math_ops.less, np.less, x, y, data, summarize,
                          message, name)


def assert_less_equal(x, y, data=None, summarize=None, message=None, name=None):
    """Fails unless x <= y element-wise (tf.compat.v1.debugging.assert_less_equal)."""
    return _binary_assert("<=", "assert_less_equal", math_ops.less_equal, np.less_equal, x, y,
                          data, summarize, message, name)


def assert_greater(x, y, data=None, summarize=None, message=None, name=None):
    """Fails unless x > y element-wise (tf.compat.v1.debugging.assert_greater)."""
    return _binary_assert(">", "assert_greater", math_ops.greater, np.greater, x, y, data,
                          summarize, message, name)


def assert_greater_equal(x, y, data=None, summarize=None, message=None, name=None):
    """Fails unless x >= y element-wise (tf.compat.v1.debugging.assert_greater_equal)."""
    return _binary_assert(">=", "assert_greater_equal", math_ops.greater_equal,
                          np.greater_equal, x, y, data, summarize, message, name)


def _sign_assert(scope, sym_text, x, data, summarize, message, name, compare, zero_first):
    message = _message_prefix(message)
    with ops.name_scope(name, scope, [x, data]):
        x = ops.convert_to_tensor(x, name="x")
        if data is None:
            data = [message, "Condition x %s did not hold element-wise:" % sym_text,
                    "x (%s) = " % x.name, x]
        zero = ops.convert_to_tensor(0, dtype=x.dtype)
        a, b = (zero, x) if zero_first else (x, zero)
        return compare(a, b, data=data, summarize=summarize)


def assert_negative(x, data=None, summarize=None, message=None, name=None):
    """Fails unless x < 0 element-wise (tf.compat.v1.debugging.assert_negative)."""
    return _sign_assert("assert_negative", "< 0", x, data, summarize, message, name,
                        assert_less, False)


def assert_positive(x, data=None, summarize=None, message=None, name=None):
    """Fails unless x > 0 element-wise (tf.compat.v1.debugging.assert_positive)."""
    return _sign_assert("assert_positive", "> 0", x, data, summarize, message, name,
                        assert_less, True)


def assert_non_negative(x, data=None, summarize=None, message=None, name=None):
    """Fails unless x >= 0 element-wise (tf.compat.v1.debugging.assert_non_negative)."""
    return _sign_assert("assert_non_negative", ">= 0", x, data, summarize, message, name,
                        assert_less_equal, True)


def assert_non_positive(x, data=None, summarize=None, message=None, name=None):
    """Fails unless x <= 0 element-wise (tf.compat.v1.debugging.assert_non_positive)."""
    message = _message_prefix(message)
    with ops.name_scope(name, "assert_non_positive", [x, data]):
        x = ops.convert_to_tensor(x, name="x")
        if data is None:
            # TensorFlow's text has no space before "x (": kept.
            data = [message, "Condition x <= 0 did not hold element-wise:x (%s) = " % x.name, x]
        zero = ops.convert_to_tensor(0, dtype=x.dtype)
        return assert_less_equal(x, zero, data=data, summarize=summarize)


def assert_near(x, y, rtol=None, atol=None, data=None, summarize=None, message=None,
                name=None):
    """Fails unless |x - y| < atol + rtol * |y| element-wise (tf.compat.v1.debugging.
    assert_near); rtol and atol default to 10 * eps of x's (real) dtype."""
    message = _message_prefix(message)
    with ops.name_scope(name, "assert_near", [x, y, rtol, atol, data]):
        x = ops.convert_to_tensor(x, name="x")
        y = ops.convert_to_tensor(y, name="y", dtype=x.dtype)
        dtype = x.dtype.real_dtype if x.dtype.is_complex else x.dtype
        eps = np.finfo(dtype.as_numpy_dtype).eps
        rtol = 10 * eps if rtol is None else rtol
        atol = 10 * eps if atol is None else atol
        rtol = ops.convert_to_tensor(rtol, name="rtol", dtype=dtype)
        atol = ops.convert_to_tensor(atol, name="atol", dtype=dtype)
        if data is None:
            data = [message, "x and y not equal to tolerance rtol = %s, atol = %s" % (rtol, atol),
                    "x (%s) = " % x.name, x, "y (%s) = " % y.name, y]
        tol = atol + rtol * math_ops.abs(y)
        diff = math_ops.abs(x - y)
        condition = reduction_ops.reduce_all(math_ops.less(diff, tol))
        return Assert(condition, data, summarize=summarize)


def _assert_rank_condition(x, rank, static_condition, dynamic_condition, data, summarize):
    assert_type(rank, dtypes.int32)
    rank_static = tensor_util.constant_value(rank)
    if rank_static is not None:
        if rank_static.ndim != 0:
            raise ValueError("Rank must be a scalar.")
        x_rank_static = x.get_shape().ndims
        if x_rank_static is not None:
            if not static_condition(x_rank_static, rank_static):
                raise ValueError("Static rank condition failed", x_rank_static, rank_static)
            return control_flow_ops.no_op(name="static_checks_determined_all_ok")
    condition = dynamic_condition(array_ops.rank(x), rank)
    if rank_static is None:
        rank_check = assert_rank(rank, 0, data=["Rank must be a scalar. Received rank: ", rank])
        condition = control_flow_ops.with_dependencies([rank_check], condition)
    return Assert(condition, data, summarize=summarize)


def assert_rank(x, rank, data=None, summarize=None, message=None, name=None):
    """Op checking that x has rank `rank` (tf.compat.v1.debugging.assert_rank). A no_op
    "static_checks_determined_all_ok" when the static rank decides it; ValueError
    "Tensor x:0 must have rank 2.  Received rank 1, shape (3,)" when it is statically wrong."""
    with ops.name_scope(name, "assert_rank", (x, rank) + tuple(data or [])):
        x = ops.convert_to_tensor(x, name="x")
        rank = ops.convert_to_tensor(rank, name="rank")
        message = _message_prefix(message)
        name = x.name
        if data is None:
            data = [message, "Tensor %s must have rank" % name, rank, "Received shape: ",
                    array_ops.shape(x)]
        try:
            assert_op = _assert_rank_condition(x, rank, lambda a, g: a == g, math_ops.equal,
                                               data, summarize)
        except ValueError as e:
            if e.args[0] == "Static rank condition failed":
                raise ValueError("%sTensor %s must have rank %d.  Received rank %d, shape %s" %
                                 (message, name, e.args[2], e.args[1], x.get_shape()))
            raise ValueError(e.args[0])
    return assert_op


def assert_rank_at_least(x, rank, data=None, summarize=None, message=None, name=None):
    """Op checking that x has rank >= `rank` (tf.compat.v1.debugging.assert_rank_at_least);
    static checks as assert_rank."""
    with ops.name_scope(name, "assert_rank_at_least", (x, rank) + tuple(data or [])):
        x = ops.convert_to_tensor(x, name="x")
        rank = ops.convert_to_tensor(rank, name="rank")
        message = _message_prefix(message)
        name = x.name
        if data is None:
            data = [message, "Tensor %s must have rank at least" % name, rank,
                    "Received shape: ", array_ops.shape(x)]
        try:
            assert_op = _assert_rank_condition(x, rank, lambda a, g: a >= g,
                                               math_ops.greater_equal, data, summarize)
        except ValueError as e:
            if e.args[0] == "Static rank condition failed":
                raise ValueError("%sTensor %s must have rank at least %d.  Received rank %d, "
                                 "shape %s" % (message, name, e.args[2], e.args[1],
                                               x.get_shape()))
            raise
    return assert_op


def _dynamic_rank_in(actual_rank, given_ranks):
    if len(given_ranks) < 1:
        return ops.convert_to_tensor(False)
    result = math_ops.equal(given_ranks[0], actual_rank)
    for given_rank in given_ranks[1:]:
        result = math_ops.logical_or(result, math_ops.equal(given_rank, actual_rank))
    return result


def assert_rank_in(x, ranks, data=None, summarize=None, message=None, name=None):
    """Op checking that x's rank is one of `ranks` (tf.compat.v1.debugging.assert_rank_in);
    static checks as assert_rank."""
    with ops.name_scope(name, "assert_rank_in", (x,) + tuple(ranks) + tuple(data or [])):
        x = ops.convert_to_tensor(x, name="x")
        ranks = tuple(ops.convert_to_tensor(rank, name="rank") for rank in ranks)
        message = _message_prefix(message)
        name = x.name
        if data is None:
            data = [message, "Tensor %s must have rank in" % name] + list(ranks) + \
                ["Received shape: ", array_ops.shape(x)]
        for rank in ranks:
            assert_type(rank, dtypes.int32)
        ranks_static = tuple(tensor_util.constant_value(rank) for rank in ranks)
        if not any(r is None for r in ranks_static):
            for r in ranks_static:
                if r.ndim != 0:
                    raise ValueError("Rank must be a scalar.")
            x_rank = x.get_shape().ndims
            if x_rank is not None:
                if x_rank not in ranks_static:
                    raise ValueError("%sTensor %s must have rank in %s.  Received rank %d, shape "
                                     "%s" % (message, name, tuple(r.item() for r in ranks_static),
                                             x_rank, x.get_shape()))
                return control_flow_ops.no_op(name="static_checks_determined_all_ok")
        condition = _dynamic_rank_in(array_ops.rank(x), ranks)
        for rank, rank_static in zip(ranks, ranks_static):
            if rank_static is None:
                rank_check = assert_rank(rank, 0, data=["Rank must be a scalar. Received rank: ",
                                                        rank])
                condition = control_flow_ops.with_dependencies([rank_check], condition)
        return Assert(condition, data, summarize=summarize)


def assert_integer(x, message=None, name=None):
    """A no_op "statically_determined_was_integer" when x has an integer dtype, else
    TypeError (tf.compat.v1.debugging.assert_integer)."""
    with ops.name_scope(name, "assert_integer", [x]):
        x = ops.convert_to_tensor(x, name="x")
        if not x.dtype.is_integer:
            raise TypeError('%sExpected "x" to be integer type.  Found: %s of dtype %s' %
                            (_message_prefix(message), x.name, x.dtype))
        return control_flow_ops.no_op("statically_determined_was_integer")


def assert_type(tensor, tf_type, message=None, name=None):
    """A no_op "statically_determined_correct_type" when tensor's dtype is tf_type, else
    TypeError "x:0 must be of type tf.int32; got tf.float32" (tf.compat.v1.assert_type)."""
    tf_type = dtypes.as_dtype(tf_type)
    with ops.name_scope(name, "assert_type", [tensor]):
        tensor = ops.convert_to_tensor(tensor, name="tensor")
        if tensor.dtype != tf_type:
            raise TypeError("%s%s must be of type %r; got %r" % (
                _message_prefix(message), getattr(tensor, "name", "tensor"), tf_type,
                tensor.dtype))
        return control_flow_ops.no_op("statically_determined_correct_type")


def assert_scalar(tensor, name=None, message=None):
    """`tensor` (converted) when its static shape is scalar, else ValueError "Expected scalar
    shape for x:0, saw shape: (2,)." (tf.compat.v1.assert_scalar)."""
    with ops.name_scope(name, "assert_scalar", [tensor]) as name_scope:
        tensor = ops.convert_to_tensor(tensor, name=name_scope)
        shape = tensor.get_shape()
        if shape.ndims != 0:
            raise ValueError("%sExpected scalar shape for %s, saw shape: %s." %
                             (_message_prefix(message), tensor.name, shape))
        return tensor


def assert_proper_iterable(values):
    """TypeError unless `values` is an iterable other than a Tensor, ndarray or string
    (tf.debugging.assert_proper_iterable)."""
    from minitf.framework.sparse_tensor import SparseTensor
    if isinstance(values, (ops.Tensor, SparseTensor, np.ndarray, bytes, str)):
        raise TypeError('Expected argument "values" to be a "proper" iterable.  Found: %s' %
                        type(values))
    if not hasattr(values, "__iter__"):
        raise TypeError('Expected argument "values" to be iterable.  Found: %s' % type(values))


def is_numeric_tensor(tensor):
    """True when `tensor` is a Tensor of a numeric dtype (tf.debugging.is_numeric_tensor)."""
    return isinstance(tensor, ops.Tensor) and tensor.dtype in NUMERIC_TYPES
