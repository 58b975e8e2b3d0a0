"""Fourier transforms of the TF1 API: tf.fft / tf.ifft / tf.fft2d / tf.ifft2d / tf.fft3d /
tf.ifft3d (also tf.signal.* and tf.spectral.*) over the innermost 1/2/3 dimensions; ops FFT,
..., IFFT3D (runtime/kernels/fft_ops.c); the inverses divide by the transform's size.
(tf.fftnd and its kin have GPU kernels only in TensorFlow 2.21: docs/api_exclusions.txt.)
"""
from minitf.framework.op_def_library import apply_op, outputs_of


def _op(op_type, name=None, **kw):
    return outputs_of(apply_op(op_type, name=name, **kw))


def _inner(op_type, py_name, what, rank):
    def fn(input, name=None):  # noqa: A002
        return _op(op_type, input=input, name=name)
    fn.__name__ = fn.__qualname__ = py_name
    fn.__doc__ = ("%s over the innermost %d dimension(s) (tf.%s; op %s).\n\n    input: a"
                  " complex64 or complex128 tensor of rank >= %d; returns its shape and\n"
                  "    dtype. Raises ValueError for a lower static rank, TypeError for a real"
                  " input." % (what, rank, py_name, op_type, rank))
    return fn


fft = _inner("FFT", "fft", "Discrete Fourier transform", 1)
ifft = _inner("IFFT", "ifft", "Inverse discrete Fourier transform", 1)
fft2d = _inner("FFT2D", "fft2d", "2-D discrete Fourier transform", 2)
ifft2d = _inner("IFFT2D", "ifft2d", "2-D inverse discrete Fourier transform", 2)
fft3d = _inner("FFT3D", "fft3d", "3-D discrete Fourier transform", 3)
ifft3d = _inner("IFFT3D", "ifft3d", "3-D inverse discrete Fourier transform", 3)
