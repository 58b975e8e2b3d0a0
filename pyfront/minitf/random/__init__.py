"""tf.random (filled by the random op family)."""

# --- random ---
