"""tf.compat.v1.lookup.experimental: the parts minitf has (MutableHashTable)."""
from minitf.ops.lookup_ops import MutableHashTable  # noqa: F401
