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


def run_times(fn, repeats=7, number=1):
    """The mean seconds per call of `fn` over `number` calls, `repeats` times."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t0) / number)
    return times


def median_time(fn, repeats=7, number=1):
    """Median over `repeats` of the mean seconds per call of `fn` over `number` calls."""
    return statistics.median(run_times(fn, repeats, number))


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


# ---- interleaved minitf / TensorFlow timing ----
#
# The machine is shared: load changes from one second to the next, so timing all of minitf and
# then all of TensorFlow skews the ratio. `interleaved` keeps a TensorFlow "server" process
# (the same script run with --tf-serve) alive and alternates: per case and round, minitf's
# median, then TensorFlow's on the same case; the ratio reported is the median of the per-round
# ratios.


def fed_graph_runner(tf, data, keys, build):
    """A warmed-up callable running build(tf, *placeholders) once per call, the placeholders
    fed data[key] for each key (feed and fetch included, as a user's Session.run)."""
    g = tf.Graph()
    with g.as_default():
        phs = [tf.placeholder(tf.as_dtype(data[k].dtype), data[k].shape) for k in keys]
        y = build(tf, *phs)
    sess = tf.Session(graph=g)
    feed = {p: data[k] for p, k in zip(phs, keys)}
    sess.run(y, feed)
    return lambda: sess.run(y, feed)


def selected_cases(names, argv):
    """(names filtered by --only SUBSTRING, rounds from --rounds N, default 5)."""
    if "--only" in argv:
        names = [n for n in names if argv[argv.index("--only") + 1] in n]
    rounds = int(argv[argv.index("--rounds") + 1]) if "--rounds" in argv else 5
    return names, rounds


def tf_serve(setup):
    """The --tf-serve loop: reads "name repeats number" lines, answers {"name": seconds}.

    `setup(tf, name)` returns a zero-argument callable that runs the case once."""
    import tensorflow.compat.v1 as tf

    tf.disable_eager_execution()
    current, fn = None, None
    emit_tf_side({"ready": True})
    for line in sys.stdin:
        name, repeats, number = line.rstrip("\n").rsplit(" ", 2)
        if name != current:  # one case (graph, session, inputs) alive at a time
            fn = None
            current, fn = name, setup(tf, name)
        emit_tf_side({name: run_times(fn, int(repeats), int(number))})


class _TFServer:
    def __init__(self, script, python):
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="")
        # a minitf library preloaded to compare builds (as make asan-pytest does) would
        # interpose its TF_* C API on TensorFlow's own
        env.pop("LD_PRELOAD", None)
        self.proc = subprocess.Popen([python, script, "--tf-serve"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, env=env)
        self._read()

    def _read(self):
        for line in self.proc.stdout:
            if line.startswith("{"):
                return json.loads(line)
        raise RuntimeError("TensorFlow server exited")

    def time(self, name, repeats, number):
        self.proc.stdin.write("%s %d %d\n" % (name, repeats, number))
        self.proc.stdin.flush()
        return self._read()[name]

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def interleaved(script, setup, names, argv, rounds=3, repeats=5, number=1):
    """{name: (minitf s, TF s or None, median per-round ratio or None, ratio of the fastest
    runs or None)}: times are medians over rounds of each round's median.

    `setup(tf, name)` builds the case for a framework module and returns a callable running it
    once (warmed up). The fastest run of each side is the one least disturbed by other
    processes; its ratio is printed beside the median one."""
    import minitf.compat.v1 as mtf

    python = tf_python(argv)
    server = None
    if python:
        try:
            server = _TFServer(script, python)
        except (OSError, RuntimeError) as e:
            print("(TensorFlow side failed: %s)" % e)
    out = {}
    for name in names:
        fn = setup(mtf, name)
        ours, theirs, ratios, best = [], [], [], [float("inf"), float("inf")]
        for _ in range(rounds):
            t = run_times(fn, repeats, number)
            ours.append(statistics.median(t))
            best[0] = min(best[0], min(t))
            if server:
                tt = server.time(name, repeats, number)
                theirs.append(statistics.median(tt))
                best[1] = min(best[1], min(tt))
                ratios.append(ours[-1] / theirs[-1])
        out[name] = (statistics.median(ours), statistics.median(theirs) if theirs else None,
                     statistics.median(ratios) if ratios else None,
                     best[0] / best[1] if theirs else None)
    if server:
        server.close()
    return out
