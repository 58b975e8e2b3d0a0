"""Build of minitf: libc_api.so (C runtime + C API), the SWIG module, the package.

`pip install .` / `pip install -e .` run build_ext, which
  1. compiles runtime/*.c runtime/kernels/*.c c_api/*.c into
     minitf/lib/libc_api.so (C11, -O2, pthreads, BLAS from scipy-openblas32)
     and copies the public headers to minitf/include/tensorflow/c/;
  2. runs SWIG on tensorflow.i, writing minitf/pywrap_tensorflow_internal.py
     next to the extension and the wrapper C into the build directory;
  3. builds minitf._pywrap_tensorflow_internal from the wrapper and
     c_api/python/*.c, linked to libc_api.so with rpath $ORIGIN/lib.
build_ext runs before build_py (see DESIGN.md, "Known traps"), and writes its
outputs straight into the package directory of the build, so wheels and
non-editable installs carry the SWIG module too.
"""
import glob
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, find_packages, setup
from setuptools.command.build import build
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
EXT_NAME = "minitf._pywrap_tensorflow_internal"


def _rel(pattern):
    return sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, pattern)))


def _swig_executable():
    """The `swig` from the PyPI package (a build requirement), else PATH's."""
    try:
        import swig  # the PyPI wheel ships its executable inside the package
        cand = os.path.join(swig.BIN_DIR, "swig")
        if os.path.exists(cand):
            return cand
    except (ImportError, AttributeError):
        pass
    exe = shutil.which("swig", path=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    if exe is None:
        raise RuntimeError("swig not found: pip install swig")
    return exe


def _deps():
    """Include dir, library dir and link names of the Debian libraries under build/deps
    (unpacked there by tools/fetch_debs.sh, which `make deps` runs; see tools/deps_link.txt)."""
    root = os.path.join(ROOT, "build", "deps", "root")
    arch = subprocess.run(["gcc", "-print-multiarch"], capture_output=True, text=True).stdout.strip()
    with open(os.path.join(ROOT, "tools", "deps_link.txt")) as f:
        libs = [line.split("#")[0].strip() for line in f]
    return os.path.join(root, "usr", "include"), os.path.join(root, "usr", "lib", arch), \
        [lib for lib in libs if lib]


def _copy_runtime_libs(libdir, libs, dest):
    """Copies each linked library's runtime file (lib<name>.so.<major>, the soname) next to
    libc_api.so, which finds it through rpath $ORIGIN: an installed minitf needs no system
    package."""
    for lib in libs:
        names = sorted(glob.glob(os.path.join(libdir, "lib%s.so.*" % lib)), key=len)
        if not names:
            raise RuntimeError("lib%s.so.* not in %s: run `make deps`" % (lib, libdir))
        shutil.copy2(names[0], os.path.join(dest, os.path.basename(names[0])))


class BuildExtFirst(build):
    """Runs build_ext before build_py, so generated Python lands in the build."""

    sub_commands = [c for c in build.sub_commands if c[0] == "build_ext"] + \
                   [c for c in build.sub_commands if c[0] != "build_ext"]


class BuildMinitf(build_ext):
    def _run(self, cmd):
        print(" ".join(shlex.quote(c) for c in cmd))
        subprocess.check_call(cmd, cwd=ROOT)

    def _build_libc_api(self, pkg_dir):
        import scipy_openblas32 as blas

        lib_dir = os.path.join(pkg_dir, "lib")
        os.makedirs(lib_dir, exist_ok=True)
        out = os.path.join(lib_dir, "libc_api.so")
        srcs = _rel("runtime/*.c") + _rel("runtime/kernels/*.c") + _rel("c_api/*.c")
        cxx_srcs = _rel("runtime/regex/*.cc")
        deps = ["setup.py"] + srcs + cxx_srcs + _rel("runtime/*.h") + _rel("runtime/kernels/*.h") + \
            _rel("c_api/*.h") + _rel("c_api/include/tensorflow/c/*.h")
        deps_inc, deps_libdir, deps_libs = _deps()
        deps.append(os.path.join("tools", "deps_link.txt"))
        newest = max(os.path.getmtime(os.path.join(ROOT, d)) for d in deps)
        if self.force or not os.path.exists(out) or os.path.getmtime(out) < newest:
            cc = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "gcc")
            objs = self._build_cxx(cxx_srcs, deps_inc)
            cmd = cc + ["-std=c11", "-O2", "-fPIC", "-pthread", "-fvisibility=hidden",
                        "-D_GNU_SOURCE", "-I.", "-Ic_api/include", "-I" + blas.get_include_dir(), "-I" + deps_inc,
                        "-shared", "-o", out] + srcs + objs + [
                        "-L" + blas.get_lib_dir(), "-l" + blas.get_library(),
                        "-L" + deps_libdir] + ["-l" + lib for lib in deps_libs] + [
                        # Installed layout: site-packages/minitf/lib -> site-packages/scipy_openblas32/lib.
                        # DT_RPATH (not RUNPATH), so a program's own rpath (from
                        # minitf.sysconfig) still applies to this library's deps.
                        "-Wl,--disable-new-dtags,-rpath,$ORIGIN/../../scipy_openblas32/lib",
                        # the Debian libraries copied beside it (_copy_runtime_libs)
                        "-Wl,-rpath,$ORIGIN",
                        # a soname, so a preloaded ASan build of the library (make
                        # asan-pytest) stands in for this one
                        "-Wl,-soname,libc_api.so",
                        "-lstdc++", "-lm", "-pthread"]
            self._run(cmd)
            _copy_runtime_libs(deps_libdir, deps_libs, lib_dir)
        inc_dir = os.path.join(pkg_dir, "include", "tensorflow", "c")
        os.makedirs(inc_dir, exist_ok=True)
        for h in _rel("c_api/include/tensorflow/c/*.h"):
            shutil.copy2(os.path.join(ROOT, h), inc_dir)
        return lib_dir

    def _build_cxx(self, cxx_srcs, deps_inc):
        """Objects of the C++ sources (the RE2 shim, runtime/regex/), compiled with g++ as the
        Makefile's build/cxx/%.o rule does; linked into libc_api.so with -lstdc++."""
        cxx = shlex.split(os.environ.get("CXX") or sysconfig.get_config_var("CXX") or "g++")
        obj_dir = os.path.join(self.build_temp, "cxx")
        os.makedirs(obj_dir, exist_ok=True)
        objs = []
        for src in cxx_srcs:
            obj = os.path.join(obj_dir, os.path.splitext(os.path.basename(src))[0] + ".o")
            self._run(cxx + ["-std=c++17", "-O2", "-fPIC", "-pthread", "-fvisibility=hidden",
                             "-I.", "-I" + deps_inc, "-c", "-o", obj, src])
            objs.append(os.path.abspath(obj))
        return objs

    def _swig(self, pkg_dir):
        os.makedirs(self.build_temp, exist_ok=True)
        wrap = os.path.join(self.build_temp, "tensorflow_wrap.c")
        deps = ["tensorflow.i"] + _rel("c_api/include/tensorflow/c/*.h") + _rel("c_api/python/*.h")
        py_out = os.path.join(pkg_dir, "pywrap_tensorflow_internal.py")
        newest = max(os.path.getmtime(os.path.join(ROOT, d)) for d in deps)
        if self.force or not (os.path.exists(wrap) and os.path.exists(py_out)) or \
                os.path.getmtime(wrap) < newest:
            self._run([_swig_executable(), "-python", "-DSWIGWORDSIZE64", "-Ic_api/include", "-I.",
                       "-outdir", pkg_dir, "-o", wrap, "tensorflow.i"])
        return wrap

    def build_extensions(self):
        import numpy

        ext = self.extensions[0]
        pkg_dir = os.path.dirname(self.get_ext_fullpath(ext.name))
        lib_dir = self._build_libc_api(pkg_dir)
        wrap = self._swig(pkg_dir)
        ext.sources = [wrap] + _rel("c_api/python/*.c")
        ext.include_dirs = [".", "c_api/include", "c_api/python", numpy.get_include()]
        ext.library_dirs = [lib_dir]
        ext.libraries = ["c_api"]
        ext.extra_compile_args = ["-std=c11", "-O2", "-D_GNU_SOURCE", "-Wno-unused-parameter",
                                  "-Wno-missing-field-initializers"]
        ext.extra_link_args = ["-Wl,-rpath,$ORIGIN/lib"]
        ext.depends = [os.path.join(lib_dir, "libc_api.so")] + _rel("c_api/python/*.h")
        super().build_extensions()

    def copy_extensions_to_source(self):
        """In-place / editable builds: also copy the generated module, the
        library and the headers next to the package sources."""
        super().copy_extensions_to_source()
        ext = self.extensions[0]
        built = os.path.join(self.build_lib, *ext.name.split(".")[:-1])
        src = self.get_finalized_command("build_py").get_package_dir("minitf")
        shutil.copy2(os.path.join(built, "pywrap_tensorflow_internal.py"), src)
        for sub in ("lib", "include"):
            shutil.copytree(os.path.join(built, sub), os.path.join(src, sub), dirs_exist_ok=True)


setup(
    name="minitf",
    # every package under pyfront/ (a hand list silently drops new ones from wheels)
    packages=find_packages("pyfront"),
    package_dir={"": "pyfront"},
    package_data={
        "minitf": ["lib/*.so", "lib/*.so.*", "include/tensorflow/c/*.h", "data/*.md", "data/digits_mlp/*"],
        "minitf.core.framework": ["*.proto"],
        "minitf.core.protobuf": ["*.proto"],
        "minitf.core.util": ["*.proto"],
    },
    ext_modules=[Extension(EXT_NAME, sources=[])],
    cmdclass={"build": BuildExtFirst, "build_ext": BuildMinitf},
    zip_safe=False,
)
