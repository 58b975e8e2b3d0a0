"""tf.math: elementwise and reduction math (each section is filled by its op family)."""
from minitf.ops.math_ops import add, argmax, divide, multiply, negative, reduce_mean, reduce_sum, subtract, truediv  # noqa: F401,E501

# --- elementwise (math_ops / unary) ---
from minitf.ops.math_ops import (  # noqa: F401,E402
    abs, add_n, atan2, ceil, cos, div, div_no_nan, equal, erf, exp, expm1, floor, floordiv,
    floormod, greater, greater_equal, is_finite, is_inf, is_nan, less, less_equal, log, log1p,
    logical_and, logical_not, logical_or, logical_xor, maximum, minimum, mod, not_equal, pow,
    realdiv, reciprocal, rint, round, rsqrt, sigmoid, sign, sin, sqrt, square, squared_difference,
    tan, tanh, truncatediv)

# --- reductions and linalg ---
from minitf.ops.reduction_ops import (  # noqa: F401,E402
    argmax, argmin, cumprod, cumsum, reduce_all, reduce_any, reduce_max, reduce_mean, reduce_min,
    reduce_prod, reduce_sum)

# --- nn-related math (e.g. softplus, sigmoid aliases) ---
from minitf.ops.nn_ops import (  # noqa: F401,E402
    in_top_k, log_softmax, softmax, softplus, softsign, top_k)

# --- segment reductions ---
from minitf.ops.math_ops import unsorted_segment_sum  # noqa: F401,E402

# --- monotonicity checks ---
from minitf.ops.check_ops import is_non_decreasing, is_strictly_increasing  # noqa: F401,E402

# --- metrics (confusion matrix) ---
from minitf.ops.confusion_matrix import confusion_matrix_v1 as confusion_matrix  # noqa: F401,E402

# --- math (special functions, trig/hyperbolic, composite math) ---
from minitf.ops.special_math_ops import (  # noqa: F401,E402
    accumulate_n, acos, acosh, angle, asin, asinh, atan, atanh, bessel_i0, bessel_i0e,
    bessel_i1, bessel_i1e, betainc, conj, count_nonzero, cosh, digamma, divide_no_nan, erfc,
    erfcinv, erfinv, igamma, igammac, imag, lbeta, lgamma, log_sigmoid, multiply_no_nan, ndtri,
    nextafter, polygamma, polyval, real, reciprocal_no_nan, reduce_logsumexp, reduce_std,
    reduce_variance, scalar_mul, sinh, xdivy, xlog1py, xlogy, zeta)

# --- math: segment reductions (segment_ops.py) ---
from minitf.ops.segment_ops import (  # noqa: F401,E402
    segment_max, segment_mean, segment_min, segment_prod, segment_sum, unsorted_segment_max,
    unsorted_segment_mean, unsorted_segment_min, unsorted_segment_prod, unsorted_segment_sqrt_n)

# --- math: bin counts ---
from minitf.ops.histogram_ops import bincount  # noqa: F401,E402
from minitf.ops.special_math_ops import cumulative_logsumexp  # noqa: F401,E402
from minitf.ops.special_math_ops import reduce_euclidean_norm  # noqa: F401,E402
