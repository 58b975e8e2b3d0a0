"""Math ops of the TF1 API (tf.add, tf.matmul, tf.reduce_sum, ...) and the
Tensor operators + - * / @ and unary -.

Each function only adds TensorFlow's user-facing signature and naming; the
op signature comes from the C registry (op_def_library.apply_op).
"""
import numpy as np

from minitf.framework import constant_op, dtypes, ops
from minitf.framework.op_def_library import apply_op, outputs_of


def _op(op_type, name=None, **kw):
    return outputs_of(apply_op(op_type, name=name, **kw))


def add(x, y, name=None):
    """x + y elementwise with broadcasting (tf.math.add; op AddV2, "Add" for strings).

    Raises TypeError when x and y have different dtypes.
    """
    with ops.name_scope(name, "Add", [x]) as name:
        x = ops.convert_to_tensor(x, name="x")
        y = ops.convert_to_tensor(y, dtype_hint=x.dtype.base_dtype, name="y")
        if x.dtype == dtypes.string:
            return _op("Add", x=x, y=y, name=name)
        return _op("AddV2", x=x, y=y, name=name)


def subtract(x, y, name=None):
    """x - y elementwise with broadcasting (tf.math.subtract; op Sub)."""
    return _op("Sub", x=x, y=y, name=name)


def multiply(x, y, name=None):
    """x * y elementwise with broadcasting (tf.math.multiply; op Mul)."""
    return _op("Mul", x=x, y=y, name=name)


def negative(x, name=None):
    """-x elementwise (tf.math.negative; op Neg)."""
    return _op("Neg", x=x, name=name)


neg = negative


def _truediv(x, y, name=None):
    with ops.name_scope(name, "truediv", [x, y]) as name:
        x = ops.convert_to_tensor(x, name="x")
        y = ops.convert_to_tensor(y, dtype_hint=x.dtype.base_dtype, name="y")
        dt = x.dtype.base_dtype
        if dt != y.dtype.base_dtype:
            raise TypeError("`x` and `y` must have the same dtype, got %r != %r." %
                            (dt, y.dtype.base_dtype))
        # Integers divide in floating point, as Python 3's `/` (TensorFlow's table).
        target = {dtypes.int8: dtypes.float32, dtypes.uint8: dtypes.float32,
                  dtypes.int16: dtypes.float32, dtypes.uint16: dtypes.float32,
                  dtypes.int32: dtypes.float64, dtypes.int64: dtypes.float64}.get(dt)
        if target is not None:
            x = cast(x, target)
            y = cast(y, target)
        return _op("RealDiv", x=x, y=y, name=name)


def divide(x, y, name=None):
    """x / y with Python 3 semantics (tf.math.divide): integers are divided in
    floating point (int32 -> float64), floats with RealDiv."""
    if name is not None:
        return _truediv(x, y, name=name)
    return _truediv(x, y)


truediv = _truediv


def div(x, y, name=None):
    """TF1 tf.div: C-style division (op Div); integer division rounds toward zero."""
    return _op("Div", x=x, y=y, name=name)


def realdiv(x, y, name=None):
    return _op("RealDiv", x=x, y=y, name=name)


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, name=None):
    """Matrix product (tf.linalg.matmul): see minitf.ops.linalg_ops.matmul (batches too)."""
    from minitf.ops import linalg_ops
    return linalg_ops.matmul(a, b, transpose_a, transpose_b, adjoint_a, adjoint_b, a_is_sparse,
                             b_is_sparse, output_type, name=name)


def _is_resource_variable(x):
    from minitf.ops import variables  # variables imports this module
    return isinstance(x, variables.ResourceVariable)


def cast(x, dtype, name=None):
    """x converted to `dtype` (tf.cast; op Cast). Returns x itself when it
    already has that dtype, as TensorFlow."""
    base_type = dtypes.as_dtype(dtype).base_dtype
    if isinstance(x, ops.Tensor) and x.dtype.base_dtype == base_type:
        return x
    if _is_resource_variable(x) and x.dtype == base_type:
        return x  # read later, where it is used (TensorFlow's behaviour)
    with ops.name_scope(name, "Cast", [x]) as name:
        x = ops.convert_to_tensor(x, name="x")
        if x.dtype.base_dtype == base_type:
            return x
        return _op("Cast", x=x, DstT=base_type, name=name)


def _reduction_dims(x, axis):
    if axis is not None:
        return axis
    rank = x.shape.rank
    if rank is None:
        raise ValueError("reductions over all axes need a tensor of known rank in minitf")
    return constant_op.constant(np.arange(rank, dtype=np.int32))


def _reduce(op_type, input_tensor, axis, keepdims, name, reduction_indices, keep_dims):
    if axis is None:
        axis = reduction_indices
    if keepdims is None:
        keepdims = bool(keep_dims) if keep_dims is not None else False
    x = ops.convert_to_tensor(input_tensor)
    return _op(op_type, input=x, reduction_indices=_reduction_dims(x, axis),
               keep_dims=bool(keepdims), name=name)


def reduce_sum(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
               keep_dims=None):
    """Sum over `axis` (int or list; None = all axes) (tf.compat.v1.reduce_sum; op Sum).

    keepdims keeps reduced axes with size 1.
    """
    return _reduce("Sum", input_tensor, axis, keepdims, name, reduction_indices, keep_dims)


def reduce_mean(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
                keep_dims=None):
    """Mean over `axis` (int or list; None = all axes) (tf.compat.v1.reduce_mean; op Mean)."""
    return _reduce("Mean", input_tensor, axis, keepdims, name, reduction_indices, keep_dims)


def argmax(input, axis=None, name=None, dimension=None, output_type=dtypes.int64):  # noqa: A002
    """Index of the largest value along `axis` (default 0) (tf.compat.v1.argmax;
    op ArgMax); int64 unless output_type=tf.int32."""
    if axis is None:
        axis = dimension if dimension is not None else 0
    return _op("ArgMax", input=input, dimension=axis, output_type=output_type, name=name)


# -- elementwise ops (TensorFlow's math_ops / gen_math_ops wrappers) --

def _make_binary(op_type, py_name, doc):
    def fn(x, y, name=None):
        return _op(op_type, x=x, y=y, name=name)
    fn.__name__ = fn.__qualname__ = py_name
    fn.__doc__ = doc + ("\n\n    x, y: tensors of one dtype (Python values are converted), broadcast"
                        " NumPy-style.\n    Raises ValueError when static shapes do not broadcast,"
                        " TypeError for a dtype\n    the op does not take. Mirrors tf.math.%s."
                        % py_name)
    return fn


def _make_unary(op_type, py_name, doc):
    def fn(x, name=None):
        return _op(op_type, x=x, name=name)
    fn.__name__ = fn.__qualname__ = py_name
    fn.__doc__ = doc + ("\n\n    Returns a tensor of x's shape. Raises TypeError for a dtype the op"
                        " does not take.\n    Mirrors tf.math.%s." % py_name)
    return fn


floor_div = _make_binary("FloorDiv", "floor_div",
                         "x // y elementwise, rounding toward -inf (op FloorDiv, no name scope).")
truncatediv = _make_binary("TruncateDiv", "truncatediv",
                           "x / y rounded toward zero (op TruncateDiv).")
maximum = _make_binary("Maximum", "maximum", "max(x, y) elementwise; NaN propagates (op Maximum).")
minimum = _make_binary("Minimum", "minimum", "min(x, y) elementwise; NaN propagates (op Minimum).")
squared_difference = _make_binary("SquaredDifference", "squared_difference",
                                  "(x - y) * conj(x - y) elementwise (op SquaredDifference).")


def atan2(y, x, name=None):
    """Elementwise arctangent of y / x in the quadrant of (x, y) (tf.math.atan2; op Atan2).

    y, x: floating tensors (half, bfloat16, float32, float64), broadcast NumPy-style.
    Raises ValueError when static shapes do not broadcast.
    """
    return _op("Atan2", y=y, x=x, name=name)


div_no_nan = _make_binary("DivNoNan", "div_no_nan", "x / y, or 0 where y is 0 (op DivNoNan).")
bitwise_and = _make_binary("BitwiseAnd", "bitwise_and", "x & y of integer tensors (op BitwiseAnd).")
bitwise_or = _make_binary("BitwiseOr", "bitwise_or", "x | y of integer tensors (op BitwiseOr).")
bitwise_xor = _make_binary("BitwiseXor", "bitwise_xor", "x ^ y of integer tensors (op BitwiseXor).")


def equal(x, y, name=None):
    """x == y elementwise, a bool tensor (tf.math.equal; op Equal). Any dtype, strings included.

    Raises ValueError when static shapes do not broadcast.
    """
    return _op("Equal", x=x, y=y, name=name)


def not_equal(x, y, name=None):
    """x != y elementwise, a bool tensor (tf.math.not_equal; op NotEqual). Any dtype."""
    return _op("NotEqual", x=x, y=y, name=name)


sign = _make_unary("Sign", "sign", "-1, 0 or 1 by the sign of x; x / |x| for complex (op Sign).")
square = _make_unary("Square", "square", "x * x elementwise (op Square).")
sqrt = _make_unary("Sqrt", "sqrt", "Square root elementwise (op Sqrt).")
rsqrt = _make_unary("Rsqrt", "rsqrt", "1 / sqrt(x) elementwise (op Rsqrt).")
reciprocal = _make_unary("Reciprocal", "reciprocal", "1 / x elementwise (op Reciprocal).")
exp = _make_unary("Exp", "exp", "e ** x elementwise (op Exp).")
expm1 = _make_unary("Expm1", "expm1", "e ** x - 1, accurate near 0 (op Expm1).")
log = _make_unary("Log", "log", "Natural logarithm elementwise (op Log).")
log1p = _make_unary("Log1p", "log1p", "log(1 + x), accurate near 0 (op Log1p).")
sin = _make_unary("Sin", "sin", "Sine elementwise (op Sin).")
cos = _make_unary("Cos", "cos", "Cosine elementwise (op Cos).")
tan = _make_unary("Tan", "tan", "Tangent elementwise (op Tan).")
tanh = _make_unary("Tanh", "tanh", "Hyperbolic tangent elementwise (op Tanh; also tf.nn.tanh).")
sigmoid = _make_unary("Sigmoid", "sigmoid", "1 / (1 + exp(-x)) elementwise (op Sigmoid; also\n"
                      "    tf.nn.sigmoid).")
erf = _make_unary("Erf", "erf", "Gauss error function elementwise (op Erf).")
floor = _make_unary("Floor", "floor", "Largest integer <= x, for floating x (op Floor).")
ceil = _make_unary("Ceil", "ceil", "Smallest integer >= x, for floating x (op Ceil).")
rint = _make_unary("Rint", "rint", "Nearest integer, halves to even (op Rint).")
is_nan = _make_unary("IsNan", "is_nan", "True where x is NaN (op IsNan).")
is_inf = _make_unary("IsInf", "is_inf", "True where x is +-Inf (op IsInf).")
is_finite = _make_unary("IsFinite", "is_finite", "True where x is neither NaN nor Inf (op IsFinite).")


def round(x, name=None):  # noqa: A001 - TensorFlow's name
    """x rounded to the nearest integer, halves to even (tf.math.round; op Round).

    Integer tensors are returned unchanged (as TensorFlow's wrapper does).
    """
    x = ops.convert_to_tensor(x, name="x")
    if x.dtype.is_integer:
        return x
    return _op("Round", x=x, name=name)


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """Clips t to [clip_value_min, clip_value_max] (tf.clip_by_value).

    Built as TensorFlow builds it: Minimum(t, max) then Maximum(., min), so the clip values
    broadcast against t (scalars or tensors); the result must keep t's shape (ValueError
    otherwise, e.g. when a clip value would broadcast t to a larger shape).
    """
    with ops.name_scope(name, "clip_by_value", [t, clip_value_min, clip_value_max]) as name:
        values = ops.convert_to_tensor(t, name="t")
        t_min = minimum(values, clip_value_max)
        values.shape.assert_is_compatible_with(t_min.shape)
        t_max = maximum(t_min, clip_value_min, name=name)
        values.shape.assert_is_compatible_with(t_max.shape)
    return t_max


def add_n(inputs, name=None):
    """Sum of a list of tensors (or IndexedSlices, densified) of one dtype and shape
    (tf.math.add_n; op AddN).

    Raises ValueError when inputs is not a non-empty list of tensors (TensorFlow's message),
    ValueError at construction when static shapes differ. One input is returned as is (or
    through Identity when a name is given), as TensorFlow.
    """
    if not inputs or not isinstance(inputs, (list, tuple)):
        raise ValueError("Inputs must be an iterable of at least one Tensor/IndexedSlices with "
                         "the same dtype and shape.")
    from minitf.framework.indexed_slices import IndexedSlices
    # IndexedSlices are densified as the op's inputs ("AddN/inputs_1"), as TensorFlow.
    inputs = [x if isinstance(x, IndexedSlices) else ops.convert_to_tensor(x) for x in inputs]
    if len(inputs) == 1:
        value = ops.convert_to_tensor(inputs[0])
        if name:
            from minitf.ops.array_ops import identity
            return identity(value, name=name)
        return value
    return _op("AddN", inputs=inputs, name=name)


def where(condition, x=None, y=None, name=None):
    """TF1 tf.where: with x and y, picks elementwise from x where condition is true, else y
    (op Select: condition of x's shape, or a vector matching x's first dimension, or a
    scalar); with neither, the indices of true elements (op Where). ValueError when only one
    of x, y is given or static shapes disagree.
    """
    if x is None and y is None:
        return _op("Where", input=condition, name=name)
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    return _op("Select", condition=condition, t=x, e=y, name=name)


def where_v2(condition, x=None, y=None, name=None):
    """tf.where (v2): picks from x where condition is true, else y, with condition, x and y
    broadcast together (op SelectV2); with neither, the indices of true elements (op Where).
    """
    if x is None and y is None:
        return _op("Where", input=condition, name=name)
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    return _op("SelectV2", condition=condition, t=x, e=y, name=name)


def _cast_to(dtype, default_name):
    def fn(x, name=default_name):
        return cast(x, dtype, name=name)
    fn.__name__ = fn.__qualname__ = "to_" + dtype.name.replace("float32", "float").replace(
        "float64", "double")
    fn.__doc__ = ("x cast to %s (TF1 tf.%s; deprecated in TensorFlow in favour of tf.cast)."
                  % (dtype.name, fn.__name__))
    return fn


to_float = _cast_to(dtypes.float32, "ToFloat")
to_double = _cast_to(dtypes.float64, "ToDouble")
to_int32 = _cast_to(dtypes.int32, "ToInt32")
to_int64 = _cast_to(dtypes.int64, "ToInt64")
to_bfloat16 = _cast_to(dtypes.bfloat16, "ToBFloat16")
to_complex64 = _cast_to(dtypes.complex64, "ToComplex64")
to_complex128 = _cast_to(dtypes.complex128, "ToComplex128")


# -- Tensor operators (TensorFlow's binary_op_wrapper / r_binary_op_wrapper) --

def _binary(op_name, fn):
    def forward(x, y):
        with ops.name_scope(None, op_name, [x, y]) as name:
            y = ops.convert_to_tensor(y, dtype_hint=x.dtype.base_dtype, name="y")
            return fn(x, y, name=name)

    def reverse(y, x):
        with ops.name_scope(None, op_name, [x, y]) as name:
            x = ops.convert_to_tensor(x, dtype_hint=y.dtype.base_dtype, name="x")
            return fn(x, y, name=name)
    return forward, reverse


def _add_op(x, y, name):
    if x.dtype == dtypes.string:
        return _op("Add", x=x, y=y, name=name)
    return _op("AddV2", x=x, y=y, name=name)


def floordiv(x, y, name=None):
    """x // y rounding toward negative infinity (tf.math.floordiv; op FloorDiv)."""
    with ops.name_scope(name, "floordiv", [x, y]) as name:
        return _op("FloorDiv", x=x, y=y, name=name)


def floormod(x, y, name=None):
    """Remainder of floor division, sign of y (tf.math.floormod; op FloorMod)."""
    return _op("FloorMod", x=x, y=y, name=name)


mod = floormod


def pow(x, y, name=None):  # noqa: A001
    """x ** y elementwise (tf.math.pow; op Pow)."""
    with ops.name_scope(name, "Pow", [x]) as name:
        return _op("Pow", x=x, y=y, name=name)


def abs(x, name=None):  # noqa: A001
    """|x| elementwise (tf.math.abs; op Abs, ComplexAbs for complex x)."""
    with ops.name_scope(name, "Abs", [x]) as name:
        x = ops.convert_to_tensor(x, name="x")
        if x.dtype.is_complex:
            return _op("ComplexAbs", x=x, Tout=x.dtype.real_dtype, name=name)
        return _op("Abs", x=x, name=name)


def logical_not(x, name=None):
    """NOT x for bool tensors (op LogicalNot)."""
    return _op("LogicalNot", x=x, name=name)


def logical_and(x, y, name=None):
    """x AND y for bool tensors (op LogicalAnd)."""
    return _op("LogicalAnd", x=x, y=y, name=name)


def logical_or(x, y, name=None):
    """x OR y for bool tensors (op LogicalOr)."""
    return _op("LogicalOr", x=x, y=y, name=name)


def logical_xor(x, y, name="LogicalXor"):
    """x XOR y for bool tensors, as TensorFlow builds it:
    LogicalAnd(LogicalOr(x, y), LogicalNot(LogicalAnd(x, y)))."""
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)), name=name)


def less(x, y, name=None):
    """x < y elementwise, bool result (op Less)."""
    return _op("Less", x=x, y=y, name=name)


def less_equal(x, y, name=None):
    """x <= y elementwise, bool result (op LessEqual)."""
    return _op("LessEqual", x=x, y=y, name=name)


def greater(x, y, name=None):
    """x > y elementwise, bool result (op Greater)."""
    return _op("Greater", x=x, y=y, name=name)


def greater_equal(x, y, name=None):
    """x >= y elementwise, bool result (op GreaterEqual)."""
    return _op("GreaterEqual", x=x, y=y, name=name)


def _and(x, y, name=None):
    if x.dtype == dtypes.bool:
        return logical_and(x, y, name=name)
    return _op("BitwiseAnd", x=x, y=y, name=name)


def _or(x, y, name=None):
    if x.dtype == dtypes.bool:
        return logical_or(x, y, name=name)
    return _op("BitwiseOr", x=x, y=y, name=name)


def _xor(x, y, name=None):
    if x.dtype == dtypes.bool:
        return logical_xor(x, y, name=name)
    return _op("BitwiseXor", x=x, y=y, name=name)


def _invert(x, name=None):
    if x.dtype == dtypes.bool:
        return logical_not(x, name=name)
    return _op("Invert", x=x, name=name)


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """Sums of the slices of `data` per segment id (tf.math.unsorted_segment_sum; op
    UnsortedSegmentSum).

    output[i, ...] = sum of data[j..., ...] over the positions j of segment_ids equal to i.

    Args:
      data: Tensor of a numeric dtype (float, double, int32, int64, complex, ...).
      segment_ids: int16/int32/int64 Tensor whose shape is a prefix of data's; negative ids
        are dropped.
      num_segments: int32/int64 scalar, the number of output rows.
      name: op name.

    Returns:
      Tensor of data's dtype, shape [num_segments] + data.shape[segment_ids.ndim:].

    Raises:
      ValueError: (at construction) shapes that do not fit, or a negative constant
        num_segments.
      InvalidArgumentError: (at run time) an id >= num_segments
        ("segment_ids[2] = 5 is out of range [0, 3)"), a shape mismatch.
    """
    return _op("UnsortedSegmentSum", data=data, segment_ids=segment_ids,
               num_segments=num_segments, name=name)


def _install_operators():
    """Tensor operators with TensorFlow's op types and name scopes: `x + y`
    is op "add" (AddV2), `1 + x` is "add_1" with the constant "add_1/x"."""
    table = {
        "add": ("add", _add_op),
        "sub": ("sub", lambda x, y, name: _op("Sub", x=x, y=y, name=name)),
        "mul": ("mul", lambda x, y, name: _op("Mul", x=x, y=y, name=name)),
        "truediv": ("truediv", _truediv),
        "floordiv": ("floordiv", lambda x, y, name: _op("FloorDiv", x=x, y=y, name=name)),
        "mod": ("mod", lambda x, y, name: _op("FloorMod", x=x, y=y, name=name)),
        "pow": ("pow", lambda x, y, name: _op("Pow", x=x, y=y, name=name)),
        "matmul": ("matmul", matmul),
        "and": ("and", _and),
        "or": ("or", _or),
        "xor": ("xor", _xor),
    }
    for key, (op_name, fn) in table.items():
        fwd, rev = _binary(op_name, fn)
        setattr(ops.Tensor, "__%s__" % key, fwd)
        setattr(ops.Tensor, "__r%s__" % key, rev)
    ops.Tensor.__neg__ = lambda self: negative(self)
    ops.Tensor.__abs__ = lambda self: abs(self)
    ops.Tensor.__invert__ = lambda self: _invert(self)
    ops.Tensor.__lt__ = lambda self, other: less(self, other)
    ops.Tensor.__le__ = lambda self, other: less_equal(self, other)
    ops.Tensor.__gt__ = lambda self, other: greater(self, other)
    ops.Tensor.__ge__ = lambda self, other: greater_equal(self, other)


_install_operators()
