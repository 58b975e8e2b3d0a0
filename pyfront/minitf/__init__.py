"""minitf: a TensorFlow-1-style dataflow runtime (`import minitf as tf`).

The graph lives in C (libc_api.so, TensorFlow's C API); Python reaches it only
through the SWIG module `minitf.pywrap_tensorflow_internal`.
"""
import ctypes as _ctypes
import os as _os


def _preload_blas():
    # libc_api.so needs libscipy_openblas.so; loading it RTLD_GLOBAL first lets
    # the dynamic loader resolve it by soname for installed and editable
    # builds alike (an rpath into pip's temporary build env would dangle).
    import scipy_openblas32
    lib = _os.path.join(scipy_openblas32.get_lib_dir(),
                        "lib%s.so" % scipy_openblas32.get_library())
    _ctypes.CDLL(lib, mode=_ctypes.RTLD_GLOBAL)


_preload_blas()

from minitf import pywrap_tensorflow_internal  # noqa: E402,F401
from minitf._api import *  # noqa: E402,F401,F403
from minitf._api import __version__  # noqa: E402,F401
from minitf import compat  # noqa: E402,F401
from minitf import experimental  # noqa: E402,F401


def __getattr__(name):
    # Imported lazily so `python -m minitf.sysconfig` runs it only once.
    if name == "sysconfig":
        import importlib
        return importlib.import_module("minitf.sysconfig")
    raise AttributeError("module 'minitf' has no attribute %r" % name)
