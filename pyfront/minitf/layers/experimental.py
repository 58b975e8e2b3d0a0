"""tf.compat.v1.layers.experimental: Keras-style variable management for TF1 layers."""
from minitf.layers.base import keras_style_scope, set_keras_style  # noqa: F401
