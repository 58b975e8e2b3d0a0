"""tf.random (filled by the random op family)."""

# --- random ---
from minitf.framework.random_seed import get_seed, set_random_seed  # noqa: F401
from minitf.ops.random_ops import categorical, multinomial, random_shuffle as shuffle  # noqa: F401
from minitf.ops.random_ops import random_normal as normal  # noqa: F401
from minitf.ops.random_ops import random_uniform as uniform  # noqa: F401
from minitf.ops.random_ops import truncated_normal  # noqa: F401
from minitf.ops.stateless_random_ops import Algorithm, create_rng_state, fold_in, split  # noqa: F401,E501
from minitf.ops.stateless_random_ops import stateless_categorical, stateless_multinomial  # noqa: F401,E501
from minitf.ops.stateless_random_ops import stateless_random_normal as stateless_normal  # noqa: F401,E501
from minitf.ops.stateless_random_ops import stateless_random_uniform as stateless_uniform  # noqa: F401,E501
from minitf.ops.stateless_random_ops import stateless_truncated_normal  # noqa: F401
