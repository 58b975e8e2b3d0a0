"""tf.compat.v1.layers: TF1 layers, class and functional forms (TensorFlow 2.21's tf-keras
legacy layers; see minitf/layers/base.py for naming, reuse and collections)."""
from minitf.layers.base import InputSpec, Layer  # noqa: F401
from minitf.layers.core import Dense, Dropout, Flatten, dense, dropout, flatten  # noqa: F401
from minitf.layers.convolutional import (  # noqa: F401
    Conv1D, Conv2D, Conv2DTranspose, SeparableConv1D, SeparableConv2D, conv1d, conv2d,
    conv2d_transpose, separable_conv1d, separable_conv2d)
from minitf.layers.convolutional import (  # noqa: F401
    Conv3D, Conv3DTranspose, conv3d, conv3d_transpose)
from minitf.layers.pooling import (  # noqa: F401
    AveragePooling1D, AveragePooling2D, MaxPooling1D, MaxPooling2D, average_pooling1d,
    average_pooling2d, max_pooling1d, max_pooling2d)
from minitf.layers.pooling import (  # noqa: F401
    AveragePooling3D, MaxPooling3D, average_pooling3d, max_pooling3d)
from minitf.layers.normalization import BatchNormalization, batch_normalization  # noqa: F401
from minitf.layers import experimental  # noqa: F401,E402
