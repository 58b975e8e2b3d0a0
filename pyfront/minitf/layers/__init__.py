"""tf.compat.v1.layers: TF1 layers, class and functional forms (TensorFlow 2.21's tf-keras
legacy layers; see minitf/layers/base.py for naming, reuse and collections)."""
from minitf.layers.base import InputSpec, Layer  # noqa: F401
from minitf.layers.core import Dense, Dropout, Flatten, dense, dropout, flatten  # noqa: F401
