"""tf.linalg (filled by the linalg op family)."""
from minitf.ops.math_ops import matmul  # noqa: F401

# --- linalg ---
from minitf.ops.linalg_ops import einsum, matmul  # noqa: F401,E402
