"""Compile and link flags for C programs using minitf's C API (like tf.sysconfig).

    gcc prog.c $(python -m minitf.sysconfig --cflags --libs)

The installed package carries include/tensorflow/c/*.h and lib/libc_api.so.
"""
import os
import sys

_PKG = os.path.dirname(os.path.abspath(__file__))


def get_include():
    """Directory holding tensorflow/c/c_api.h."""
    return os.path.join(_PKG, "include")


def get_lib():
    """Directory holding libc_api.so."""
    return os.path.join(_PKG, "lib")


def _blas_lib_dir():
    try:
        import scipy_openblas32
        return scipy_openblas32.get_lib_dir()
    except ImportError:
        return None


def get_compile_flags():
    """Flags to compile a C program against the C API (a list of str)."""
    return ["-I" + get_include()]


def get_link_flags():
    """Flags to link a C program to libc_api.so (a list of str): -L/-l plus
    rpaths for libc_api.so and the scipy-openblas32 library it needs."""
    # --disable-new-dtags: DT_RPATH also serves libc_api.so's own dependency
    # (libscipy_openblas.so), which a DT_RUNPATH would not.
    flags = ["-L" + get_lib(), "-Wl,--disable-new-dtags,-rpath," + get_lib(), "-lc_api"]
    blas = _blas_lib_dir()
    if blas:
        flags += ["-L" + blas, "-Wl,-rpath," + blas]
    return flags


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or any(a not in ("--cflags", "--libs") for a in argv):
        print("usage: python -m minitf.sysconfig [--cflags] [--libs]", file=sys.stderr)
        return 2
    out = []
    for a in argv:
        out += get_compile_flags() if a == "--cflags" else get_link_flags()
    print(" ".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
