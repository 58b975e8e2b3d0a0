"""tf.compat.v1: the TF1 graph-mode API (identical to the top-level `minitf`)."""
from minitf._api import *  # noqa: F401,F403
from minitf._api import __version__  # noqa: F401
