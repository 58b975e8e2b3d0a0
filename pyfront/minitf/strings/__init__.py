"""tf.strings (the parts minitf has)."""
from minitf.ops.logging_ops import string_format as format  # noqa: F401,A001
