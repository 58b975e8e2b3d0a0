"""Shared helpers for the benchmarks: timing medians, and running the TensorFlow side of a
benchmark in another interpreter (TensorFlow is never a dependency of minitf; a developer points
``--tf-python`` at a venv that has ``tensorflow-cpu``; /opt/tfvenv/bin/python is tried by default).
"""

import json
import os
import statistics
import subprocess
import sys
import time

DEFAULT_TF_PYTHON = "/opt/tfvenv/bin/python"


def median_time(fn, repeats=7, number=1):
    """Median over `repeats` of the mean seconds per call of `fn` over `number` calls."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t0) / number)
    return statistics.median(times)


def tf_python(argv):
    """The interpreter to run TensorFlow's side with, or None."""
    for i, a in enumerate(argv):
        if a == "--tf-python" and i + 1 < len(argv):
            return argv[i + 1] or None
        if a == "--no-tf":
            return None
    return DEFAULT_TF_PYTHON if os.path.exists(DEFAULT_TF_PYTHON) else None


def run_tf_side(script, python):
    """Runs `script --tf-side` under `python`; returns its JSON dict or None."""
    if not python:
        return None
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="")
    try:
        out = subprocess.run(
            [python, script, "--tf-side"], capture_output=True, text=True, env=env, timeout=900
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        print("(TensorFlow side failed: %s)" % e)
        return None
    lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
    if out.returncode != 0 or not lines:
        print("(TensorFlow side failed: %s)" % out.stderr.strip().splitlines()[-1:])
        return None
    return json.loads(lines[-1])


def emit_tf_side(result):
    print(json.dumps(result))
    sys.stdout.flush()
