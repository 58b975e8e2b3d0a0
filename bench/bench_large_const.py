#!/usr/bin/env python3
"""Peak memory of importing and running a 100 MiB Const (not a test).

Writes a GraphDef holding one float32 Const of 100 MiB, then in a fresh
process: parses it, imports it (tf.import_graph_def) and runs
reduce_sum over it, printing the peak RSS after each step and the number of
100 MiB copies the import and the run added on top of the parsed GraphDef.

    python bench/bench_large_const.py
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

MIB = 1024 * 1024
CHILD = r"""
import sys
import minitf as tf
def status(key):  # kB -> MiB, from /proc/self/status
    for line in open("/proc/self/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024.0
def reset_peak():  # Linux: writing 5 to clear_refs resets VmHWM (the peak RSS)
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
with open(sys.argv[1], "rb") as f:
    gd = tf.GraphDef.FromString(f.read())
reset_peak()
before = status("VmRSS")
with tf.Graph().as_default() as g:
    tf.import_graph_def(gd, name="")
    imported = status("VmHWM")
    reset_peak()
    total = tf.reduce_sum(g.get_tensor_by_name("big:0"))
    with tf.Session() as s:
        v = s.run(total)
    ran = status("VmHWM")
print(before, imported, ran, v)
"""


def main():
    import minitf as tf
    a = np.ones(100 * MIB // 4, dtype=np.float32)
    gd = tf.GraphDef()
    n = gd.node.add(name="big", op="Const")
    n.attr["dtype"].type = tf.float32.as_datatype_enum
    n.attr["value"].tensor.CopyFrom(tf.make_tensor_proto(a))
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "big.pb")
        with open(path, "wb") as f:
            f.write(gd.SerializeToString())
        del gd, a
        out = subprocess.run([sys.executable, "-c", CHILD, path], capture_output=True, text=True,
                             check=True).stdout.split()
    before, imported, ran = (float(x) for x in out[:3])
    print("RSS with the parsed GraphDef: %.0f MiB; peak during import %.0f MiB (+%.2f copies "
          "of 100 MiB); peak during run %.0f MiB (+%.2f copies); sum = %s" %
          (before, imported, (imported - before) / 100.0, ran, (ran - before) / 100.0, out[3]))


if __name__ == "__main__":
    main()
