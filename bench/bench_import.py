"""``import minitf`` time (median of fresh interpreters) and the installed size of the package,
beside ``import tensorflow`` when a TensorFlow interpreter is available.

        python bench/bench_import.py [--tf-python PATH | --no-tf]
"""

import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402


def import_time(python, module, runs=5):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(
            [python, "-c", "import %s" % module],
            check=True,
            stderr=subprocess.DEVNULL,  # TensorFlow's start-up log lines
            env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"),
        )
        times.append(time.perf_counter() - t0)
    base = statistics.median(
        _timed(lambda: subprocess.run([python, "-c", "pass"], check=True)) for _ in range(runs)
    )
    return statistics.median(times) - base


def _timed(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def dir_size(path):
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            fp = os.path.join(root, f)
            if not os.path.islink(fp):
                total += os.path.getsize(fp)
    return total


def package_dir(python, module):
    out = subprocess.run(
        [python, "-c", "import os, %s as m; print(os.path.dirname(m.__file__))" % module],
        capture_output=True,
        text=True,
        env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"),
    )
    return out.stdout.strip().splitlines()[-1] if out.returncode == 0 else None


def main():
    ours = import_time(sys.executable, "minitf")
    pkg = package_dir(sys.executable, "minitf")
    print("import minitf: %.0f ms (median of 5, interpreter start subtracted)" % (ours * 1e3))
    print("minitf package on disk: %.2f MB (%s)" % (dir_size(pkg) / 1e6, pkg))
    tfpy = common.tf_python(sys.argv)
    if tfpy:
        theirs = import_time(tfpy, "tensorflow", runs=3)
        tpkg = package_dir(tfpy, "tensorflow")
        print("import tensorflow: %.0f ms (median of 3)" % (theirs * 1e3))
        if tpkg:
            print("tensorflow package on disk: %.0f MB" % (dir_size(tpkg) / 1e6))


if __name__ == "__main__":
    main()
