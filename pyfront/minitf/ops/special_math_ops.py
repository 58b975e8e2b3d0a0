"""Trigonometric, hyperbolic and special functions of tf.math (tf.math.acos ... tf.math.zeta,
tf.math.lgamma, digamma, igamma, betainc, erfc, erfinv, ndtri, bessel_*, xlogy, lbeta) and
the composite math functions built from ops (log_sigmoid, reduce_logsumexp, count_nonzero,
scalar_mul, accumulate_n, reduce_variance/std, polyval, reciprocal_no_nan, erfcinv,
arg_max/arg_min).

The ops are registered in C (runtime/kernels/unary_ops.c, special_ops.c); each wrapper
mirrors TensorFlow 2.21's signature and makes the nodes TensorFlow's wrapper makes (op type
and node name: gen_math_ops wrappers name the node after the op, the math_ops wrappers that
open a name scope put it inside, e.g. `xdivy/Xdivy`). Inputs are converted with
ops.convert_to_tensor; a dtype an op does not take raises TypeError at construction.
"""
import numpy as np

from minitf.framework import constant_op, dtypes, ops
from minitf.framework.op_def_library import apply_op, outputs_of


def _op(op_type, name=None, **kw):
    return outputs_of(apply_op(op_type, name=name, **kw))


def _gen_unary(op_type, py_name, what, dtypes_doc="bfloat16, half, float32, float64,"
               " complex64, complex128"):
    def fn(x, name=None):
        return _op(op_type, x=x, name=name)
    fn.__name__ = fn.__qualname__ = py_name
    fn.__doc__ = ("%s elementwise (tf.math.%s; op %s).\n\n    x: a tensor of %s. Returns a"
                  " tensor of x's shape and dtype.\n    Raises TypeError for another dtype."
                  % (what, py_name, op_type, dtypes_doc))
    return fn


def _gen_binary(op_type, py_name, first, second, what, dtypes_doc):
    def fn(*args, **kwargs):
        names = (first, second, "name")
        vals = dict(zip(names, args))
        vals.update(kwargs)
        return _op(op_type, name=vals.get("name"), **{first: vals[first], second: vals[second]})
    import inspect
    fn.__signature__ = inspect.Signature(
        [inspect.Parameter(first, inspect.Parameter.POSITIONAL_OR_KEYWORD),
         inspect.Parameter(second, inspect.Parameter.POSITIONAL_OR_KEYWORD),
         inspect.Parameter("name", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None)])
    fn.__name__ = fn.__qualname__ = py_name
    fn.__doc__ = ("%s elementwise with broadcasting (tf.math.%s; op %s).\n\n    %s, %s: tensors"
                  " of one dtype, %s. Raises ValueError when static\n    shapes do not"
                  " broadcast (InvalidArgumentError at run time), TypeError for another\n"
                  "    dtype." % (what, py_name, op_type, first, second, dtypes_doc))
    return fn


_REAL = "bfloat16, half, float32 or float64"

acos = _gen_unary("Acos", "acos", "Inverse cosine (NaN outside [-1, 1])")
asin = _gen_unary("Asin", "asin", "Inverse sine (NaN outside [-1, 1])")
atan = _gen_unary("Atan", "atan", "Inverse tangent")
sinh = _gen_unary("Sinh", "sinh", "Hyperbolic sine")
cosh = _gen_unary("Cosh", "cosh", "Hyperbolic cosine")
asinh = _gen_unary("Asinh", "asinh", "Inverse hyperbolic sine")
acosh = _gen_unary("Acosh", "acosh", "Inverse hyperbolic cosine (NaN below 1)")
atanh = _gen_unary("Atanh", "atanh", "Inverse hyperbolic tangent (+-inf at +-1, NaN beyond)")
lgamma = _gen_unary("Lgamma", "lgamma", "log |Gamma(x)| (inf at 0, -1, -2, ...)", _REAL)
digamma = _gen_unary("Digamma", "digamma", "Psi, the derivative of lgamma (NaN at 0, -1, ...)",
                     _REAL)
erfc = _gen_unary("Erfc", "erfc", "Complementary error function 1 - erf(x)", _REAL)

igamma = _gen_binary("Igamma", "igamma", "a", "x", "Regularized lower incomplete gamma"
                     " P(a, x) (NaN for a <= 0 or x < 0)", _REAL)
igammac = _gen_binary("Igammac", "igammac", "a", "x", "Regularized upper incomplete gamma"
                      " Q(a, x) = 1 - P(a, x)", _REAL)
zeta = _gen_binary("Zeta", "zeta", "x", "q", "Hurwitz zeta sum_k (q + k)^-x (inf at x = 1,"
                   " NaN for x < 1)", "float32 or float64")
polygamma = _gen_binary("Polygamma", "polygamma", "a", "x", "The a-th derivative of digamma"
                        " (a a non-negative integer, else NaN)", "float32 or float64")
xlogy = _gen_binary("Xlogy", "xlogy", "x", "y", "x * log(y), 0 where x is 0 (unless y is NaN)",
                    "half, bfloat16, float32, float64, complex64 or complex128")


def betainc(a, b, x, name=None):
    """Regularized incomplete beta function I_x(a, b) (tf.math.betainc; op Betainc).

    a, b, x: float32 or float64 tensors of one dtype, each either a scalar or of the one
    shape the non-scalar ones share (no other broadcasting). Returns that shape. NaN for
    a < 0, b < 0 or x outside [0, 1]. Raises ValueError when static shapes differ,
    InvalidArgumentError ("Shapes of a and b are inconsistent: ...") at run time.
    """
    return _op("Betainc", a=a, b=b, x=x, name=name)


def _scoped(op_type, scope, doc, arity=1):
    if arity == 1:
        def fn(x, name=None):
            with ops.name_scope(name, scope, [x]):
                return _op(op_type, x=x)
    else:
        def fn(x, y, name=None):
            with ops.name_scope(name, scope, [x]):
                return _op(op_type, x=x, y=y)
    fn.__name__ = fn.__qualname__ = scope
    fn.__doc__ = doc
    return fn


erfinv = _scoped("Erfinv", "erfinv", """Inverse error function (tf.math.erfinv; op Erfinv in
    scope `erfinv`). x: bfloat16, half, float32 or float64; +-inf at +-1, NaN outside.""")
ndtri = _scoped("Ndtri", "ndtri", """Inverse of the standard normal CDF (tf.math.ndtri; op
    Ndtri in scope `ndtri`). x: bfloat16, half, float32 or float64; -inf at 0, inf at 1,
    NaN outside [0, 1].""")
xdivy = _scoped("Xdivy", "xdivy", """x / y, 0 where x is 0 unless y is NaN (tf.math.xdivy; op
    Xdivy in scope `xdivy`). x, y: half, bfloat16, float32, float64, complex64 or
    complex128, broadcast.""", 2)
xlog1py = _scoped("Xlog1py", "xlog1py", """x * log1p(y), 0 where x is 0 unless y is NaN
    (tf.math.xlog1py; op Xlog1py in scope `xlog1py`). Dtypes as xdivy.""", 2)
bessel_i0 = _scoped("BesselI0", "bessel_i0", """Modified Bessel function I0(x)
    (tf.math.bessel_i0; op BesselI0 in scope `bessel_i0`). x: bfloat16, half, float32 or
    float64.""")
bessel_i1 = _scoped("BesselI1", "bessel_i1", """Modified Bessel function I1(x)
    (tf.math.bessel_i1; op BesselI1 in scope `bessel_i1`).""")
bessel_i0e = _scoped("BesselI0e", "bessel_i0e", """exp(-|x|) I0(x) (tf.math.bessel_i0e; op
    BesselI0e in scope `bessel_i0e`).""")
bessel_i1e = _scoped("BesselI1e", "bessel_i1e", """exp(-|x|) I1(x) (tf.math.bessel_i1e; op
    BesselI1e in scope `bessel_i1e`).""")


def erfcinv(x, name=None):
    """Inverse of erfc (tf.math.erfcinv): -ndtri(x / 2) / sqrt(2), TensorFlow's nodes in
    scope `erfcinv`. x: a floating tensor; NaN outside [0, 2]."""
    from minitf.ops import math_ops
    with ops.name_scope(name, "erfcinv", [x]):
        x = ops.convert_to_tensor(x, name="start")
        return math_ops.negative(ndtri(0.5 * x)) * np.sqrt(0.5)


def lbeta(x, name=None):
    """log |Beta(x)| over the last axis: sum(lgamma(x), -1) - lgamma(sum(x, -1))
    (tf.math.lbeta, nodes in scope `lbeta`). x: float32/float64 of rank >= 1; returns rank - 1.
    An empty last axis gives -inf."""
    from minitf.ops import reduction_ops
    with ops.name_scope(name, "lbeta", [x]):
        x = ops.convert_to_tensor(x, name="x")
        log_prod_gamma_x = reduction_ops.reduce_sum(lgamma(x), axis=[-1])
        sum_x = reduction_ops.reduce_sum(x, axis=[-1])
        return log_prod_gamma_x - lgamma(sum_x)


def log_sigmoid(x, name=None):
    """log(1 / (1 + exp(-x))) = -softplus(-x), stable for large |x| (tf.math.log_sigmoid;
    Neg/Softplus/Neg nodes in scope `LogSigmoid`). x: float tensor."""
    from minitf.ops import math_ops, nn_ops
    with ops.name_scope(name, "LogSigmoid", [x]) as name:
        x = ops.convert_to_tensor(x, name="x")
        return _op("Neg", x=nn_ops.softplus(math_ops.negative(x)), name=name)


def reduce_logsumexp(input_tensor, axis=None, keepdims=None, name=None,
                     reduction_indices=None, keep_dims=None):
    """log(sum(exp(x))) over `axis`, computed stably around the (finite) maximum
    (tf.compat.v1.reduce_logsumexp; TensorFlow's nodes in scope `ReduceLogSumExp`).

    axis: None (all), an int, a list or a tensor; `reduction_indices` deprecated alias.
    keepdims (`keep_dims` deprecated): keep reduced axes with size 1. -inf when every element
    is -inf; inf/NaN propagate. Raises ValueError when an argument and its alias are both
    given.
    """
    from minitf.ops import array_ops, math_ops, reduction_ops
    axis = reduction_ops._lookup("axis", axis, "reduction_indices", reduction_indices)
    keepdims = reduction_ops._lookup("keepdims", keepdims, "keep_dims", keep_dims)
    keepdims = bool(keepdims) if keepdims is not None else False
    with ops.name_scope(name, "ReduceLogSumExp", [input_tensor]) as name:
        raw_max = reduction_ops.reduce_max(input_tensor, axis=axis, keepdims=True)
        my_max = array_ops.stop_gradient(
            _op("SelectV2", condition=_op("IsFinite", x=raw_max), t=raw_max, e=0))
        result = _op("Log", x=reduction_ops.reduce_sum(
            math_ops.exp(math_ops.subtract(input_tensor, my_max)), axis=axis,
            keepdims=keepdims))
        if not keepdims:
            my_max = array_ops.reshape(my_max, _op("Shape", input=result))
        result = math_ops.add(result, my_max, name=name)
        if not result.shape.is_fully_defined() and not keepdims and axis is None:
            result.set_shape(())
        return result


def count_nonzero(input_tensor=None, axis=None, keepdims=None, dtype=dtypes.int64, name=None,
                  reduction_indices=None, keep_dims=None, input=None):  # noqa: A002
    """Number of non-zero elements over `axis` (tf.compat.v1.count_nonzero; nodes in scope
    `count_nonzero`: NotEqual to a zero, Cast to int64, Sum, Cast to `dtype`).

    input_tensor (or the deprecated `input`): numeric or bool tensor. axis
    (`reduction_indices`), keepdims (`keep_dims`): as reduce_sum. dtype: of the result
    (int64 default). Raises ValueError when an argument and its alias are both given.
    """
    from minitf.ops import array_ops, math_ops, reduction_ops
    keepdims = reduction_ops._lookup("keepdims", keepdims, "keep_dims", keep_dims)
    input_tensor = reduction_ops._lookup("input", input, "input_tensor", input_tensor)
    axis = reduction_ops._lookup("axis", axis, "reduction_indices", reduction_indices)
    if keepdims is None:
        keepdims = False
    with ops.name_scope(name, "count_nonzero", [input_tensor]):
        input_tensor = ops.convert_to_tensor(input_tensor, name="input")
        if input_tensor.dtype == dtypes.bool:
            predicate = input_tensor
        else:
            zero = array_ops.zeros([], dtype=input_tensor.dtype)
            predicate = _op("NotEqual", x=input_tensor, y=zero)
        return math_ops.cast(reduction_ops.reduce_sum(
            math_ops.cast(predicate, dtypes.int64), axis=axis, keepdims=keepdims), dtype=dtype)


def scalar_mul(scalar, x, name=None):
    """scalar * x (tf.math.scalar_mul; op Mul). scalar: a 0-d value converted to x's dtype;
    x: a tensor or IndexedSlices (its values are scaled). Raises ValueError when scalar is
    not 0-d."""
    from minitf.framework import indexed_slices
    base_dtype = dtypes.as_dtype(x.dtype).base_dtype
    scalar = ops.convert_to_tensor(scalar, dtype=base_dtype, name="scalar")
    shape = scalar.get_shape()
    if shape.ndims == 0:
        if isinstance(x, indexed_slices.IndexedSlices):
            return indexed_slices.IndexedSlices(_op("Mul", x=scalar, y=x.values, name=name),
                                                x.indices, x.dense_shape)
        return _op("Mul", x=scalar, y=x, name=name)
    raise ValueError(f"The input scalar must be a 0-D value. Received shape {shape}.")


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """Sum of a list of tensors of one dtype and shape (tf.math.accumulate_n, deprecated for
    add_n: the same AddN node; one input is returned as it is, or through Identity `name`).

    shape: the expected shape, merged with the inputs'; tensor_dtype: the expected dtype.
    Raises ValueError for an empty or mixed list or incompatible shapes, TypeError when
    tensor_dtype differs from the inputs'.
    """
    from minitf.framework import tensor_shape
    from minitf.ops import array_ops, math_ops

    def _input_error():
        return ValueError("inputs must be a list of at least one Tensor with the same dtype "
                          "and shape")
    if not inputs or not isinstance(inputs, (list, tuple)):
        raise _input_error()
    inputs = [ops.convert_to_tensor(x) for x in inputs]
    if not all(x.dtype == inputs[0].dtype for x in inputs):
        raise _input_error()
    shape = tensor_shape.as_shape(shape) if shape is not None else tensor_shape.unknown_shape()
    for t in inputs:
        shape = shape.merge_with(t.get_shape())
    if tensor_dtype is not None and tensor_dtype != inputs[0].dtype:
        raise TypeError(f"The `tensor_dtype` argument is {tensor_dtype}, but `input` is of type "
                        f"{inputs[0].dtype}. These must be equal. Try casting the input to the "
                        "desired type.")
    if len(inputs) == 1 and name is None:
        return inputs[0]
    if len(inputs) == 1:
        return array_ops.identity(inputs[0], name=name)
    return math_ops.add_n(inputs, name=name)


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """Population variance over `axis` (tf.math.reduce_variance; nodes in scope
    `reduce_variance`). Complex inputs give a real variance. Raises TypeError for integer
    inputs."""
    from minitf.ops import math_ops, reduction_ops
    name = name if name else "reduce_variance"
    with ops.name_scope(name):
        input_tensor = ops.convert_to_tensor(input_tensor)
        means = reduction_ops.reduce_mean(input_tensor, axis=axis, keepdims=True)
        if means.dtype.is_integer:
            raise TypeError(f"Input must be either real or complex. Received integer type "
                            f"{means.dtype}.")
        diff = input_tensor - means
        if diff.dtype.is_complex:
            real_dtype = diff.dtype.real_dtype
            squared = _op("Real", input=_op("Mul", x=_op("Conj", input=diff), y=diff),
                          Tout=real_dtype)
        else:
            squared = math_ops.square(diff)
        return reduction_ops.reduce_mean(squared, axis=axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """Population standard deviation over `axis`: sqrt(reduce_variance) (tf.math.reduce_std;
    nodes in scope `reduce_std`). Raises TypeError for integer inputs."""
    name = name if name else "reduce_std"
    with ops.name_scope(name):
        input_tensor = ops.convert_to_tensor(input_tensor)
        variance = reduce_variance(input_tensor, axis=axis, keepdims=keepdims)
        return _op("Sqrt", x=variance)


def polyval(coeffs, x, name=None):
    """coeffs[0] x^(n-1) + ... + coeffs[n-1] by Horner's rule (tf.math.polyval, nodes in
    scope `polyval`). coeffs: a Python list of tensors (an empty list gives zeros_like(x)).
    Raises ValueError when coeffs is not a list."""
    from minitf.ops import array_ops
    from minitf.util import nest
    if not isinstance(coeffs, list):
        raise ValueError(f"Argument coeffs must be list type. Received type {type(coeffs)}.")
    with ops.name_scope(name, "polyval", nest.flatten(coeffs) + [x]) as name:
        x = ops.convert_to_tensor(x, name="x")
        if len(coeffs) < 1:
            return array_ops.zeros_like(x, name=name)
        coeffs = [ops.convert_to_tensor(c, name="coeff_%d" % i) for i, c in enumerate(coeffs)]
        p = coeffs[0]
        for c in coeffs[1:]:
            p = c + p * x
        return p


def reciprocal_no_nan(x, name=None):
    """1 / x, 0 where x is 0 (tf.math.reciprocal_no_nan; DivNoNan of a Const `one`, in scope
    `reciprocal_no_nan`). x: half, float32, bfloat16, float64, complex64 or complex128."""
    with ops.name_scope(name, "reciprocal_no_nan", [x]) as scope:
        x = ops.convert_to_tensor(x, name="x")
        one = constant_op.constant(1, dtype=x.dtype.base_dtype, name="one")
        return _op("DivNoNan", x=one, y=x, name=scope)


def divide_no_nan(x, y, name=None):
    """x / y, 0 where y is 0 (tf.math.divide_no_nan; op DivNoNan in scope `div_no_nan`).
    Integers are refused (TypeError), as TensorFlow's DivNoNan takes floating and complex."""
    with ops.name_scope(name, "div_no_nan", [x, y]) as name:
        x = ops.convert_to_tensor(x, name="x")
        y = ops.convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype)
        return _op("DivNoNan", x=x, y=y, name=name)


def _arg_v1(op_type):
    def fn(input, dimension, output_type=dtypes.int64, name=None):  # noqa: A002
        from minitf.ops import reduction_ops
        return reduction_ops._arg(op_type, input, None, name, dimension, output_type)
    return fn


arg_max = _arg_v1("ArgMax")
arg_max.__name__ = arg_max.__qualname__ = "arg_max"
arg_max.__doc__ = """Index of the largest value along `dimension` (tf.compat.v1.arg_max, the
    TF1 raw-op alias of argmax; op ArgMax). output_type: int64 (default), int32, int16 or
    uint16."""
arg_min = _arg_v1("ArgMin")
arg_min.__name__ = arg_min.__qualname__ = "arg_min"
arg_min.__doc__ = """Index of the smallest value along `dimension` (tf.compat.v1.arg_min;
    op ArgMin). output_type: int64 (default) or int32."""


truncatemod = _gen_binary("TruncateMod", "truncatemod", "x", "y", "x - trunc(x / y) * y, the"
                          " remainder with x's sign (C's %, fmod for floats)",
                          "int32, int64, bfloat16, half, float32 or float64")
nextafter = _gen_binary("NextAfter", "nextafter", "x1", "x2", "The next representable value"
                        " after x1 towards x2", "float32 or float64")


def multiply_no_nan(x, y, name=None):
    """x * y, 0 where y is 0 even if x is inf or NaN (tf.math.multiply_no_nan; op MulNoNan in
    scope `multiply_no_nan`). Raises TypeError when x and y have different dtypes."""
    with ops.name_scope(name, "multiply_no_nan", [x, y]) as name:
        x = ops.convert_to_tensor(x, name="x")
        y = ops.convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype)
        if x.dtype.base_dtype != y.dtype.base_dtype:
            raise TypeError(f"`x` and `y` must have the same dtype, got {x.dtype.base_dtype!r} "
                            f"!= {y.dtype.base_dtype!r}")
        return _op("MulNoNan", x=x, y=y, name=name)


def complex(real, imag, name=None):  # noqa: A001 - TensorFlow's name
    """real + i imag (tf.complex; op Complex in scope `Complex`): float32 parts give
    complex64, float64 parts complex128, broadcast. Raises TypeError for other or mixed
    dtypes."""
    real = ops.convert_to_tensor(real, name="real")
    imag = ops.convert_to_tensor(imag, name="imag")
    with ops.name_scope(name, "Complex", [real, imag]) as name:
        input_types = (real.dtype, imag.dtype)
        if input_types == (dtypes.float64, dtypes.float64):
            tout = dtypes.complex128
        elif input_types == (dtypes.float32, dtypes.float32):
            tout = dtypes.complex64
        else:
            raise TypeError(f"The `real` and `imag` components have incorrect types: "
                            f"{real.dtype.name} {imag.dtype.name}. They must be consistent, and "
                            f"one of {[dtypes.float32, dtypes.float64]}")
        return _op("Complex", real=real, imag=imag, Tout=tout, name=name)


def real(input, name=None):  # noqa: A002
    """The real part (tf.math.real; op Real in scope `Real`); a real numeric input is returned
    as it is. Raises TypeError for a non-numeric input."""
    with ops.name_scope(name, "Real", [input]) as name:
        input = ops.convert_to_tensor(input, name="input")
        if input.dtype.is_complex:
            return _op("Real", input=input, Tout=input.dtype.real_dtype, name=name)
        if input.dtype.is_floating or input.dtype.is_integer or input.dtype.is_quantized:
            return input
        raise TypeError("input must be a numeric tensor, but got tensor with dtype {}".format(
            input.dtype))


def imag(input, name=None):  # noqa: A002
    """The imaginary part (tf.math.imag; op Imag in scope `Imag`); zeros for a real input."""
    from minitf.ops import array_ops
    with ops.name_scope(name, "Imag", [input]) as name:
        input = ops.convert_to_tensor(input, name="input")
        if input.dtype.is_complex:
            return _op("Imag", input=input, Tout=input.dtype.real_dtype, name=name)
        return array_ops.zeros_like(input)


def angle(input, name=None):  # noqa: A002
    """The argument atan2(imag, real) (tf.math.angle; op Angle in scope `Angle`); for a real
    input pi where it is negative, else 0."""
    from minitf.ops import array_ops, math_ops
    with ops.name_scope(name, "Angle", [input]) as name:
        input = ops.convert_to_tensor(input, name="input")
        if input.dtype.is_complex:
            return _op("Angle", input=input, Tout=input.dtype.real_dtype, name=name)
        return math_ops.where(input < 0, np.pi * array_ops.ones_like(input),
                              array_ops.zeros_like(input))


def conj(x, name=None):
    """The complex conjugate (tf.math.conj; op Conj in scope `Conj`); a real or integer
    tensor is returned as it is. Raises TypeError for other dtypes."""
    if isinstance(x, ops.Tensor):
        dt = x.dtype
        if dt.is_floating or dt.is_integer:
            return x
    with ops.name_scope(name, "Conj", [x]) as name:
        x = ops.convert_to_tensor(x, name="x")
        if x.dtype.is_complex or x.dtype == dtypes.variant:
            return _op("Conj", input=x, name=name)
        if x.dtype.is_floating or x.dtype.is_integer:
            return x
        raise TypeError(f"Expected numeric or variant tensor, got dtype {x.dtype!r}.")


def linspace(start, stop, num, name=None, axis=0):
    """`num` evenly spaced values from start to stop inclusive (tf.linspace / tf.lin_space,
    TensorFlow 2.21's linspace_nd: start and stop may be tensors, broadcast together, the
    values laid along `axis`). num: int32/int64 scalar. Nodes in scope `linspace`.
    Returns a float tensor of start's dtype with num inserted at axis."""
    from minitf.ops import array_ops, indexing_ops, math_ops
    with ops.name_scope(name, "linspace", [start, stop]):
        start = ops.convert_to_tensor(start, name="start")
        stop = ops.convert_to_tensor(stop, name="stop", dtype=start.dtype)
        num_int = ops.convert_to_tensor(num, name="num")  # convert_to_int_tensor: int32
        if num_int.dtype != dtypes.int32:
            if not num_int.dtype.is_integer:
                raise TypeError(f"`num` must be an integer, got {num_int.dtype!r}.")
            num_int = math_ops.cast(num_int, dtypes.int32)
        num = math_ops.cast(num_int, dtype=start.dtype)
        broadcast_shape = array_ops.broadcast_dynamic_shape(array_ops.shape(start),
                                                            array_ops.shape(stop))
        start = array_ops.broadcast_to(start, broadcast_shape)
        stop = array_ops.broadcast_to(stop, broadcast_shape)
        expanded_start = array_ops.expand_dims(start, axis=axis)
        expanded_stop = array_ops.expand_dims(stop, axis=axis)
        shape = array_ops.shape(expanded_start)
        ndims = array_ops.shape(shape)[0]
        axis = math_ops.where_v2(axis >= 0, axis, ndims + axis)
        num_fill = _op("Maximum", x=num_int - 2, y=0)
        n_steps = _op("Maximum", x=num_int - 1, y=1)
        delta = (expanded_stop - expanded_start) / math_ops.cast(n_steps, expanded_stop.dtype)
        expanded_start = math_ops.cast(expanded_start, delta.dtype)
        expanded_stop = math_ops.cast(expanded_stop, delta.dtype)
        range_end = math_ops.where_v2(num_int >= 0, n_steps, -1)
        desired_range = math_ops.cast(array_ops.range(1, range_end, dtype=dtypes.int64),
                                      delta.dtype)
        mask = _op("Equal", x=axis, y=array_ops.range(ndims))
        desired_range_shape = math_ops.where_v2(mask, num_fill, 1)
        desired_range = array_ops.reshape(desired_range, desired_range_shape)
        res = expanded_start + delta * desired_range
        concatenated = array_ops.concat((expanded_start, res, expanded_stop), axis=axis)
        begin = array_ops.zeros_like(shape)
        size = array_ops.concat((shape[0:axis], array_ops.reshape(num_int, [1]),
                                 shape[axis + 1:]), axis=0)
        return indexing_ops.slice(concatenated, begin, size)


lin_space = linspace


def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    """log(cumsum(exp(x))) along `axis`, computed stably (tf.math.cumulative_logsumexp; op
    CumulativeLogsumexp in scope `CumulativeLogsumexp`). x: bfloat16, half, float32 or
    float64; exclusive starts from -inf; reverse scans from the end. InvalidArgumentError at
    run time for an axis out of range."""
    with ops.name_scope(name, "CumulativeLogsumexp", [x]) as name:
        x = ops.convert_to_tensor(x, name="x")
        return _op("CumulativeLogsumexp", x=x, axis=axis, exclusive=bool(exclusive),
                   reverse=bool(reverse), name=name)


def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    """sqrt(sum(x * conj(x))) over `axis` (tf.math.reduce_euclidean_norm; op EuclideanNorm).
    axis: None (all), an int, a list or a tensor; keepdims keeps reduced axes with size 1.
    Integer inputs give the truncated root."""
    from minitf.ops import reduction_ops
    keepdims = bool(keepdims)
    x = ops.convert_to_tensor(input_tensor)
    out = _op("EuclideanNorm", input=x, reduction_indices=reduction_ops._reduction_dims(x, axis),
              keep_dims=keepdims, name=name)
    if not out.shape.is_fully_defined() and not keepdims and axis is None:
        out.set_shape(())
    return out
