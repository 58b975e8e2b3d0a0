"""tf.debugging: run-time checks (TF1 names)."""
# --- array / shape ---
from minitf.ops.array_ops import Assert, check_numerics  # noqa: F401
