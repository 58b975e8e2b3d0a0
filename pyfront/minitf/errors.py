"""tf.errors: exception classes named after TensorFlow status codes."""
from minitf.framework.errors import *  # noqa: F401,F403
from minitf.framework.errors import _status_to_exception  # noqa: F401  (used by the SWIG module)
