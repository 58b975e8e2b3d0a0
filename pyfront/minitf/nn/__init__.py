"""tf.nn (each section is filled by its op family)."""
from minitf.ops.nn_ops import bias_add, relu, softmax  # noqa: F401

# --- nn (activations, softmax, batch norm, losses, top_k) ---

# --- conv / pooling ---

# --- elementwise aliases (e.g. sigmoid, tanh) ---
from minitf.ops.math_ops import sigmoid, tanh  # noqa: F401,E402
