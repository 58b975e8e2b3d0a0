"""tf.math: elementwise and reduction math (each section is filled by its op family)."""
from minitf.ops.math_ops import add, argmax, divide, multiply, negative, reduce_mean, reduce_sum, subtract, truediv  # noqa: F401,E501

# --- elementwise (math_ops / unary) ---

# --- reductions and linalg ---

# --- nn-related math (e.g. softplus, sigmoid aliases) ---
from minitf.ops.nn_ops import (  # noqa: F401,E402
    in_top_k, log_softmax, softmax, softplus, softsign, top_k)
