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


def _is_sparse(x):
    from minitf.framework.sparse_tensor import SparseTensor
    return isinstance(x, SparseTensor)


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
        if not _is_sparse(x):
            x = ops.convert_to_tensor(x, name="x")
        rank = ops.convert_to_tensor(rank, name="rank")
        message = _message_prefix(message)
        name = "" if _is_sparse(x) else x.name  # as TensorFlow
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
        if not _is_sparse(x):
            x = ops.convert_to_tensor(x, name="x")
        ranks = tuple(ops.convert_to_tensor(rank, name="rank") for rank in ranks)
        message = _message_prefix(message)
        name = "" if _is_sparse(x) else x.name  # as TensorFlow
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


# --- assert_shapes ---------------------------------------------------------------------

def _dimension_sizes(x):
    """x's sizes: ints where static, scalar tensors (Shape slices) where not; a scalar is
    (1,). Unknown rank: a tf.cond giving [1] for a scalar, else the Shape."""
    dynamic_shape = array_ops.shape(x)
    rank = x.get_shape().ndims
    if rank == 0:
        return (1,)
    if rank is not None:
        return [int(size) if size is not None else dynamic_shape[i]
                for i, size in enumerate(x.get_shape().as_list())]
    has_rank_zero = math_ops.equal(array_ops.rank(x), 0)
    return control_flow_ops.cond(has_rank_zero, lambda: ops.convert_to_tensor([1]),
                                 lambda: dynamic_shape)


def _symbolic_dimension_sizes(symbolic_shape):
    # An empty specification means "scalar", checked as one dimension of size 1.
    return symbolic_shape if symbolic_shape else (1,)


def _has_known_value(dimension_size):
    if dimension_size is None:
        return False
    try:
        int(dimension_size)
    except (ValueError, TypeError):
        return False
    return True


def _is_symbol_for_any_size(symbol):
    return symbol in [None, "."]


def _shape_tensor_name(x):
    if _is_sparse(x):
        return "shape=%s dtype=%s" % (x.shape, x.dtype.name)
    return x.name


def _parse_shape_constraint(tensor, symbolic_shape, message_prefix):
    """(x, has leading '...'/'*', actual sizes, symbolic sizes) of one (tensor, shape)."""
    if not (hasattr(symbolic_shape, "__iter__") or hasattr(symbolic_shape, "__getitem__")):
        raise ValueError("%sTensor %s.  Specified shape must be an iterable.  An iterable has "
                         "the attribute `__iter__` or `__getitem__`.  Received specified "
                         "shape: %s" % (message_prefix, _shape_tensor_name(tensor),
                                        symbolic_shape))
    symbols = tuple(symbolic_shape)
    innermost = False
    for i, symbol in enumerate(symbols):
        if symbol is not Ellipsis and not (isinstance(symbol, str) and symbol == "*"):
            continue
        if i != 0:
            raise ValueError("%sTensor %s specified shape index %d.  Symbol `...` or `*` for a "
                             "variable number of unspecified dimensions is only allowed as "
                             "the first entry" % (message_prefix, _shape_tensor_name(tensor),
                                                  i))
        innermost = True
    return (tensor, innermost, _dimension_sizes(tensor),
            _symbolic_dimension_sizes(symbols[1:] if innermost else symbols))


def _shape_rank_assertion(x, innermost, symbolic_sizes, data, summarize, message, name):
    """The rank check of one constraint (None when '...' leaves any rank >= 0/1 valid)."""
    rank = len(symbolic_sizes)
    if innermost:
        if rank in (0, 1):
            return None
        return assert_rank_at_least(x=x, rank=rank, data=data, summarize=summarize,
                                    message=message, name=name)
    if rank in (0, 1):
        return assert_rank_in(x=x, ranks=[0, 1], data=data, summarize=summarize,
                              message=message, name=name)
    return assert_rank(x=x, rank=rank, data=data, summarize=summarize, message=message,
                       name=name)


def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """Op checking tensors' shapes against symbolic shapes, with sizes named by the same
    symbol equal across all tensors (tf.compat.v1.debugging.assert_shapes).

    shapes: list of (tensor, shape) pairs or a dict tensor -> shape; a shape is an
      iterable (tuple, list, TensorShape) of entries: an int (or a string parsing as one)
      is an exact size, None or '.' any size, any other hashable a symbol whose size
      must be the same wherever it appears. A leading `...` (Ellipsis) or '*' allows any
      number of outer dimensions (the rest are the innermost). A scalar tensor and an
      empty shape both count as one dimension of size 1. A pair whose shape is None is
      skipped.
    data/summarize/message/name: as assert_equal (default scope "assert_shapes").
    Returns: the group op ("group_deps") over the run-time size checks, after the rank
      checks; a no_op group when the static shapes decide everything.
    Raises: ValueError at construction when static shapes violate a constraint (TF's
      texts: "Specified explicitly.  Tensor x:0 dimension 1 must have size 4.  Received
      size 3, shape (2, 3)", "Specified by tensor a:0 dimension 0.  ...", or the
      assert_rank / assert_rank_in / assert_rank_at_least text), or when a shape is not
      iterable or has '...' past its first entry. At run time InvalidArgumentError with
      the same facts as Assert data.
    """
    if isinstance(shapes, dict):
        shapes = shapes.items()
    message_prefix = _message_prefix(message)
    with ops.name_scope(name, "assert_shapes", [shapes, data]):
        constraints = [(x if _is_sparse(x) else ops.convert_to_tensor(x), s)
                       for x, s in shapes if s is not None]
        parsed = [_parse_shape_constraint(t, s, message_prefix) for t, s in constraints]
        rank_assertions = []
        for x, innermost, _, symbolic_sizes in parsed:
            assertion = _shape_rank_assertion(x, innermost, symbolic_sizes, data, summarize,
                                              message, name)
            if assertion is not None:
                rank_assertions.append(assertion)
        size_assertions = []
        specifications = {}
        for x, innermost, actual_sizes, symbolic_sizes in parsed:
            for i, symbol in enumerate(symbolic_sizes):
                if _is_symbol_for_any_size(symbol):
                    continue
                tensor_dim = i - len(symbolic_sizes) if innermost else i
                if not (_has_known_value(symbol) or symbol in specifications):
                    # First sight of a symbol: its size here defines it.
                    with ops.control_dependencies(rank_assertions):
                        size = actual_sizes[tensor_dim]
                    specifications[symbol] = (size, x, tensor_dim)
                    continue
                if _has_known_value(symbol):
                    specified_size = int(symbol)
                    check_message = "Specified explicitly"
                else:
                    specified_size, specified_by, specified_at = specifications[symbol]
                    check_message = "Specified by tensor %s dimension %d" % (
                        _shape_tensor_name(specified_by), specified_at)
                with ops.control_dependencies(rank_assertions):
                    actual_size = actual_sizes[tensor_dim]
                if _has_known_value(actual_size) and _has_known_value(specified_size):
                    if int(actual_size) != int(specified_size):
                        raise ValueError(
                            "%s%s.  Tensor %s dimension %s must have size %d.  Received size "
                            "%d, shape %s" % (message_prefix, check_message,
                                              _shape_tensor_name(x), tensor_dim,
                                              specified_size, actual_size, x.get_shape()))
                    continue
                condition = math_ops.equal(ops.convert_to_tensor(actual_size),
                                           ops.convert_to_tensor(specified_size))
                data_ = data
                if data is None:
                    data_ = [message_prefix, check_message,
                             "Tensor %s dimension" % _shape_tensor_name(x), tensor_dim,
                             "must have size", specified_size, "Received shape: ",
                             array_ops.shape(x)]
                size_assertions.append(Assert(condition, data_, summarize=summarize))
    with ops.control_dependencies(rank_assertions):
        return control_flow_ops.group(size_assertions)


# --- monotonicity ----------------------------------------------------------------------

def _monotonic_comparison(x, compare_op):
    """compare_op(x[1:], x[:-1]) of x flattened, or an empty bool vector when x has fewer
    than two elements (chosen at run time by a tf.cond, as TensorFlow builds it)."""
    x = array_ops.reshape(x, [-1])
    if not is_numeric_tensor(x):
        raise TypeError("Expected x to be numeric, instead found: %s" % x)
    is_shorter_than_two = math_ops.less(array_ops.size(x), 2)
    s_len = array_ops.shape(x) - 1

    def diff():
        return compare_op(array_ops.strided_slice(x, [1], [1] + s_len),
                          array_ops.strided_slice(x, [0], s_len))

    return control_flow_ops.cond(
        is_shorter_than_two, lambda: ops.convert_to_tensor([], dtype=dtypes.bool), diff)


def is_non_decreasing(x, name=None):
    """Scalar bool: True iff x[i] <= x[i+1] for adjacent elements of x in row-major order
    (trivially True under two elements) (tf.math.is_non_decreasing, also
    tf.compat.v1.debugging.is_non_decreasing and tf.compat.v1.is_non_decreasing).
    TypeError "Expected x to be numeric, instead found: ..." for a non-numeric x."""
    with ops.name_scope(name, "is_non_decreasing", [x]):
        return reduction_ops.reduce_all(_monotonic_comparison(x, math_ops.greater_equal))


def is_strictly_increasing(x, name=None):
    """Scalar bool: True iff x[i] < x[i+1] for adjacent elements of x in row-major order
    (trivially True under two elements) (tf.math.is_strictly_increasing, also
    tf.compat.v1.debugging.is_strictly_increasing, tf.compat.v1.is_strictly_increasing).
    TypeError for a non-numeric x."""
    with ops.name_scope(name, "is_strictly_increasing", [x]):
        return reduction_ops.reduce_all(_monotonic_comparison(x, math_ops.greater))


# --- dtype checks ----------------------------------------------------------------------

def _item_name(item):
    return item.name if hasattr(item, "name") else str(item)


def _assert_same_base_type(items, expected_type=None):
    """The common base dtype of the non-None `items` (or `expected_type`); ValueError
    "b:0, type=<dtype: 'float64'>, must be of the same type (<dtype: 'float32'>) as a:0."
    naming the first item that differs."""
    original_name = None
    for item in items:
        if item is None:
            continue
        item_type = item.dtype.base_dtype
        if not expected_type:
            expected_type = item_type
            original_name = _item_name(item)
        elif expected_type != item_type:
            raise ValueError("%s, type=%s, must be of the same type (%s)%s." % (
                _item_name(item), item_type, expected_type,
                (" as %s" % original_name) if original_name else ""))
    return expected_type


def assert_same_float_dtype(tensors=None, dtype=None):
    """The float dtype shared by `tensors` (None entries ignored) and `dtype` when given;
    float32 when neither is given (tf.debugging.assert_same_float_dtype, also
    tf.compat.v1.assert_same_float_dtype). ValueError when they differ or the dtype is
    not floating: "Expected floating point type, got <dtype: 'int32'>."."""
    if tensors:
        dtype = _assert_same_base_type(tensors, dtype)
    if not dtype:
        dtype = dtypes.float32
    elif not dtype.is_floating:
        raise ValueError("Expected floating point type, got %s." % dtype)
    return dtype
