"""While-loop throughput: loop iterations per second of minitf and, when TensorFlow is
available (importable here, or /opt/tfvenv/bin/python), of TensorFlow, for the same GraphDefs
that TensorFlow 2.21 wrote, in both control-flow forms: v1 (Enter/Merge/Switch/NextIteration/
Exit frames, tests/fixtures/control_flow_v1/) and v2 (a StatelessWhile calling cond and body
functions, tests/fixtures/control_flow_v2_loops/): `i + 1` counted to n, and a small float body
`x * 0.999 + 0.5`. Runs alternate between the two (TensorFlow in a worker process that keeps its
session); figures are medians. Never fails.

Usage: python bench/while_loop.py [iterations=100000] [reps=5]
"""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "tests", "fixtures")
CASES = [("v1 counter i+1", "control_flow_v1/million_loop", ["count/Exit:0"]),
         ("v1 float x*0.999+0.5", "control_flow_v1/float_body_loop",
          ["fbody/Exit:0", "fbody/Exit_1:0"]),
         ("v2 counter i+1", "control_flow_v2_loops/million_loop", ["count/Identity_2:0"]),
         ("v2 float x*0.999+0.5", "control_flow_v2_loops/float_body_loop",
          ["fbody/Identity_2:0", "fbody/Identity_3:0"])]
TF_PYTHON = "/opt/tfvenv/bin/python"


def session_for(tf, case):
    gd = tf.GraphDef()
    with open(os.path.join(FIX, case + ".pb"), "rb") as f:
        gd.ParseFromString(f.read())
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(gd, name="")
    return tf.Session(graph=g), g.get_tensor_by_name("n:0")


def timer(tf):
    """Returns time_one(case, fetches, n) -> seconds, sessions kept per case."""
    sessions = {}

    def time_one(case, fetches, n):
        if case not in sessions:
            sessions[case] = session_for(tf, case)
            sessions[case][0].run(fetches, {sessions[case][1]: 10})  # plan built
        s, ph = sessions[case]
        t0 = time.perf_counter()
        s.run(fetches, {ph: n})
        return time.perf_counter() - t0
    return time_one


def worker():
    """TensorFlow side: one JSON request per line, one time per line back."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow.compat.v1 as tf
    tf.disable_eager_execution()
    time_one = timer(tf)
    print("ready", flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        print(time_one(req["case"], req["fetches"], req["n"]), flush=True)


def tf_worker():
    try:
        import tensorflow  # noqa: F401
        exe = sys.executable
    except ImportError:
        exe = TF_PYTHON if os.path.exists(TF_PYTHON) else None
    if exe is None:
        return None
    p = subprocess.Popen([exe, __file__, "--worker"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if p.stdout.readline().strip() != "ready":
        return None

    def time_one(case, fetches, n):
        p.stdin.write(json.dumps({"case": case, "fetches": fetches, "n": n}) + "\n")
        p.stdin.flush()
        return float(p.stdout.readline())
    return time_one


def median(v):
    return sorted(v)[len(v) // 2]


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    import minitf
    mt = timer(minitf)
    tfw = tf_worker()
    print("while loop, %d iterations, median of %d alternating runs" % (n, reps))
    print("%-26s %16s %16s %8s" % ("body", "minitf it/s", "TF it/s", "ratio"))
    for label, case, fetches in CASES:
        a, b = [], []
        for _ in range(reps):
            a.append(mt(case, fetches, n))
            if tfw:
                b.append(tfw(case, fetches, n))
        ma = n / median(a)
        if tfw:
            mb = n / median(b)
            print("%-26s %16.0f %16.0f %7.1fx" % (label, ma, mb, ma / mb))
        else:
            print("%-26s %16.0f %16s %8s" % (label, ma, "(no TF)", ""))


if __name__ == "__main__":
    if "--worker" in sys.argv:
        worker()
    else:
        main()
