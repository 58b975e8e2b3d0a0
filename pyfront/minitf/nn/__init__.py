"""tf.nn: relu, softmax, bias_add."""
from minitf.ops.nn_ops import bias_add, relu, softmax  # noqa: F401
