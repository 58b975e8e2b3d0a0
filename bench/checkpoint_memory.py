"""Checkpoint memory and throughput: a float32 variable of --mib MiB (1024 by default) is
saved with tf.train.Saver and restored, in a fresh subprocess per framework, and the figures
are printed side by side with real TensorFlow's when /opt/tfvenv exists:

    python bench/checkpoint_memory.py [--mib 1024] [--version 2|1]

- restore peak extra: the peak RSS during Saver.restore, in a process that saved nothing,
  above its RSS just before it (VmHWM reset through /proc/self/clear_refs, read from
  /proc/self/status), the variable already initialized. The
  goal is < 1.2x the variable: one extra copy, the restored tensor, which the variable then
  takes over.
- save and restore MB/s: variable bytes / wall time of Saver.save / Saver.restore (files in
  a temporary directory; restore reads them back through the page cache).
Not a test: it prints figures and never fails.
"""
import argparse
import os
import subprocess
import sys
import tempfile

CHILD = r"""
import os, sys, tempfile, time
n_mib, version, which = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
if which == "tf":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow.compat.v1 as tf
    tf.disable_eager_execution()
else:
    import minitf as tf

def status(key):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    return -1

n = n_mib * (1 << 20) // 4
v = tf.get_variable("big", shape=[n], dtype=tf.float32, initializer=tf.zeros_initializer())
fill = v.assign(tf.fill([n], 0.5))
saver = tf.train.Saver([v], write_version=version)
path = os.path.join(sys.argv[4], "m")
with tf.Session() as sess:
    sess.run(v.initializer)
    if sys.argv[5] == "save":
        sess.run(fill.op)
        t0 = time.perf_counter()
        saver.save(sess, path, write_meta_graph=False)
        print("RESULT", n * 4, time.perf_counter() - t0)
    else:
        # A fresh process: nothing the save allocated is still held or reused.
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # resets VmHWM to the current RSS
        before = status("VmRSS")
        t0 = time.perf_counter()
        saver.restore(sess, path)
        t_restore = time.perf_counter() - t0
        print("RESULT", n * 4, t_restore, status("VmHWM") - before)
"""


def child(python, which, mib, version, tmp, mode):
    env = dict(os.environ)
    if which == "minitf":
        env["PYTHONPATH"] = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                         "pyfront") + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run([python, "-c", CHILD, str(mib), str(version), which, tmp, mode],
                         capture_output=True, text=True, env=env)
    for line in out.stdout.splitlines():
        if line.startswith("RESULT"):
            return [float(x) for x in line.split()[1:]]
    print("%s %s failed:\n%s" % (which, mode, out.stderr[-2000:]))
    return None


def run(python, which, mib, version, tmp):
    d = tempfile.mkdtemp(dir=tmp)
    saved = child(python, which, mib, version, d, "save")
    restored = saved and child(python, which, mib, version, d, "restore")
    if not restored:
        return None
    return int(saved[0]), saved[1], restored[1], int(restored[2])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mib", type=int, default=1024)
    ap.add_argument("--version", type=int, default=2, choices=[1, 2])
    args = ap.parse_args()
    tfpy = "/opt/tfvenv/bin/python"
    rows = [("minitf", sys.executable)]
    if os.path.exists(tfpy):
        rows.append(("tf", tfpy))
    print("float32 variable of %d MiB, checkpoint format V%d" % (args.mib, args.version))
    print("%-8s %14s %14s %22s" % ("", "save MB/s", "restore MB/s", "restore peak extra"))
    with tempfile.TemporaryDirectory() as tmp:
        for which, python in rows:
            r = run(python, which, args.mib, args.version, tmp)
            if r is None:
                continue
            nbytes, t_save, t_restore, extra = r
            mb = nbytes / 1e6
            print("%-8s %14.0f %14.0f %13.0f MiB (%.2fx)" % (
                which, mb / t_save, mb / t_restore, extra / 2**20, extra / nbytes))


if __name__ == "__main__":
    main()
