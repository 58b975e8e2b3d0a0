"""tf.experimental: DLPack interchange (minitf.experimental.dlpack)."""
from minitf.experimental import dlpack  # noqa: F401
