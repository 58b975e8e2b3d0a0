"""Checks that checkpoints written by minitf's tf.train.Saver restore in TensorFlow 2.21's
Saver with the same values (developer tool; minitf's venv writes, TF's venv reads):

    MINITF_PYTHON=/work/venvs/<branch>/bin/python /opt/tfvenv/bin/python tools/check_saver_in_tf.py

For each graph of tests/python/saver_cases.py (sharded ones included: two CPU devices)
minitf builds it, initializes and saves; TF builds the same graph, restores the
latest checkpoint and compares every value; the same for the partitioned variables of
tests/python/partitioned_cases.py (parts saved as slices, compared whole). Prints one line per
case; exits 1 on a mismatch.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = ["resource", "ref", "dict_list", "dtypes", "named", "slots", "sharded1", "sharded2"]

WRITE = r"""
import json, os, sys
sys.path.insert(0, %(tests)r)
import minitf as tf, saver_cases
out = {}
for name in %(cases)r:
    g = tf.Graph()
    with g.as_default():
        vl, kw = saver_cases.CASES[name](tf)
        s = tf.train.Saver(vl, **kw)
        vl = vl if vl is not None else tf.global_variables()
        # A sharded save, as TF's, creates one directory level (<prefix>_temp) only.
        os.makedirs(%(root)r + "/" + name, exist_ok=True)
        with tf.Session(config=saver_cases.session_config(tf)) as sess:
            sess.run(tf.global_variables_initializer())
            s.save(sess, %(root)r + "/" + name + "/model", global_step=1,
                   write_meta_graph=False)
            out[name] = saver_cases.values_of(sess, vl)
import partitioned_cases as pc
for name, build in pc.CASES.items():
    with tf.Graph().as_default():
        pv = build(tf)
        full = pv.as_tensor()
        s = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            if name in pc.ASSIGNED:
                sess.run(pv.assign(pc.ASSIGNED[name]))
            s.save(sess, %(root)r + "/p_" + name + "/model", global_step=1,
                   write_meta_graph=False)
            out["p_" + name] = sess.run(full).tolist()
json.dump(out, open(%(root)r + "/values.json", "w"))
"""


def main():
    import tf_fixture  # noqa: F401  (puts tests/python on sys.path)
    from tf_fixture import tf
    import saver_cases
    minitf_python = os.environ.get("MINITF_PYTHON", "python3")
    root = tempfile.mkdtemp()
    code = WRITE % {"tests": os.path.join(HERE, "..", "tests", "python"), "cases": CASES,
                    "root": root}
    subprocess.run([minitf_python, "-c", code], check=True)
    want = json.load(open(os.path.join(root, "values.json")))
    bad = 0
    for name in CASES:
        g = tf.Graph()
        with g.as_default():
            vl, kw = saver_cases.CASES[name](tf)
            s = tf.train.Saver(vl, **kw)
            vl = vl if vl is not None else tf.global_variables()
            with tf.Session(config=saver_cases.session_config(tf)) as sess:
                s.restore(sess, tf.train.latest_checkpoint(os.path.join(root, name)))
                ok = saver_cases.values_of(sess, vl) == want[name]
        bad += not ok
        print(name, "match" if ok else "MISMATCH")
    import partitioned_cases
    for name, build in partitioned_cases.CASES.items():
        with tf.Graph().as_default():
            pv = build(tf)
            full = pv.as_tensor()
            s = tf.train.Saver()
            with tf.Session() as sess:
                s.restore(sess, tf.train.latest_checkpoint(os.path.join(root, "p_" + name)))
                ok = sess.run(full).tolist() == want["p_" + name]
        bad += not ok
        print("partitioned", name, "match" if ok else "MISMATCH")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
