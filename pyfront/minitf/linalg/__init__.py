"""tf.linalg (filled by the linalg op family)."""
from minitf.ops.math_ops import matmul  # noqa: F401

# --- linalg ---
