"""tf.image (filled by the image op family)."""

# --- image ---
from minitf.ops.nn_conv import (  # noqa: F401,E402
    ResizeMethod, resize, resize_bilinear, resize_images, resize_nearest_neighbor)
