"""tf.compat.v1.sets: set operations along the last dimension (see minitf.ops.sets_impl)."""
from minitf.ops.sets_impl import set_difference as difference  # noqa: F401
from minitf.ops.sets_impl import set_difference  # noqa: F401
from minitf.ops.sets_impl import set_intersection as intersection  # noqa: F401
from minitf.ops.sets_impl import set_intersection  # noqa: F401
from minitf.ops.sets_impl import set_size as size  # noqa: F401
from minitf.ops.sets_impl import set_size  # noqa: F401
from minitf.ops.sets_impl import set_union as union  # noqa: F401
from minitf.ops.sets_impl import set_union  # noqa: F401
