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
    """Matrix product of 2-D tensors a [m, k] and b [k, n] -> [m, n] (tf.linalg.matmul).

    transpose_a/b transpose the operands first (adjoint_* the same for real
    dtypes). Inner dimensions must agree (ValueError at graph construction).
    """
    with ops.name_scope(name, "MatMul", [a, b]) as name:
        a = ops.convert_to_tensor(a, name="a")
        b = ops.convert_to_tensor(b, dtype_hint=a.dtype.base_dtype, name="b")
        return _op("MatMul", a=a, b=b, transpose_a=bool(transpose_a or adjoint_a),
                   transpose_b=bool(transpose_b or adjoint_b), name=name)


def cast(x, dtype, name=None):
    """x converted to `dtype` (tf.cast; op Cast). Returns x itself when it
    already has that dtype, as TensorFlow."""
    base_type = dtypes.as_dtype(dtype).base_dtype
    if isinstance(x, ops.Tensor) and x.dtype.base_dtype == base_type:
        return x
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
