"""tf.bitwise: bitwise operations on integer tensors (the elementwise op family)."""
from minitf.ops.math_ops import bitwise_and, bitwise_or, bitwise_xor  # noqa: F401
