"""tf.image (filled by the image op family)."""

# --- image ---
