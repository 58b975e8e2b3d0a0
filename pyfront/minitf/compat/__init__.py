"""tf.compat: `minitf.compat.v1` is the same TF1 API as `minitf`."""
from minitf.compat import v1  # noqa: F401
