"""tf.strings (the parts minitf has)."""
from minitf.ops.logging_ops import string_format as format  # noqa: F401,A001
from minitf.ops.string_ops import join, regex_full_match, regex_replace  # noqa: F401
