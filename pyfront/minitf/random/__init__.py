"""tf.random (filled by the random op family)."""

# --- random ---
from minitf.framework.random_seed import get_seed, set_random_seed  # noqa: F401
from minitf.ops.random_ops import categorical, multinomial, random_shuffle as shuffle  # noqa: F401
from minitf.ops.random_ops import random_normal as normal  # noqa: F401
from minitf.ops.random_ops import random_uniform as uniform  # noqa: F401
from minitf.ops.random_ops import truncated_normal  # noqa: F401
