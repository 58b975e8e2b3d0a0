"""tf.spectral (TF1's name of tf.signal's transforms): fft, ifft, fft2d, ifft2d, fft3d,
ifft3d (minitf.ops.spectral_ops); rfft and its kin are not there yet."""
from minitf.ops.spectral_ops import fft, fft2d, fft3d, ifft, ifft2d, ifft3d  # noqa: F401
