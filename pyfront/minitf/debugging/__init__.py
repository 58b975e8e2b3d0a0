"""tf.debugging: run-time checks (TF1 names)."""
# --- array / shape ---
from minitf.ops.array_ops import check_numerics  # noqa: F401

# --- logging, assertions ---
from minitf.ops.check_ops import (  # noqa: F401
    assert_equal, assert_greater, assert_greater_equal, assert_integer, assert_less,
    assert_less_equal, assert_near, assert_negative, assert_non_negative, assert_non_positive,
    assert_none_equal, assert_positive, assert_proper_iterable, assert_rank,
    assert_rank_at_least, assert_rank_in, assert_same_float_dtype, assert_scalar, assert_shapes,
    assert_type, is_non_decreasing, is_numeric_tensor, is_strictly_increasing)
from minitf.ops.math_ops import is_finite, is_inf, is_nan  # noqa: F401
from minitf.ops.numerics import verify_tensor_all_finite as assert_all_finite  # noqa: F401
from minitf.ops.logging_ops import Assert  # noqa: F401
