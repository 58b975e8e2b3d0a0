"""tf.signal: the Fourier transforms minitf has (fft, ifft, fft2d, ifft2d, fft3d, ifft3d,
see minitf.ops.spectral_ops). The real-input transforms with TensorFlow's
Python length handling (rfft, irfft, ...), windows and frames are not there yet."""
from minitf.ops.spectral_ops import (  # noqa: F401
    fft, fft2d, fft3d, ifft, ifft2d, ifft3d)
