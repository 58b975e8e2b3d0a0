"""Writes tests/fixtures/partitioned_expected.json and TF checkpoints of partitioned
variables under tests/fixtures/checkpoints/partitioned/<case>/ (developer tool, needs
TensorFlow 2.21):

    /opt/tfvenv/bin/python tools/gen_partitioned_expected.py

For each case of tests/python/partitioned_cases.py: the parts TF makes, their slice specs,
the as_tensor nodes, the full value, the save/ nodes of a Saver over it, the checkpoint's
list_variables; and the partitions each partitioner of PARTITIONER_CALLS returns.
"""
import os
import shutil

import tf_fixture
from tf_fixture import tf

import partitioned_cases
import saver_cases

ROOT = os.path.join(tf_fixture.HERE, "..", "tests", "fixtures", "checkpoints", "partitioned")


def case(name, build):
    d = os.path.join(ROOT, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    g = tf.Graph()
    with g.as_default():
        pv = build(tf)
        out = partitioned_cases.describe(tf, g, pv)
        saver = tf.train.Saver(save_relative_paths=True)
        out["save_nodes"] = saver_cases.save_nodes(g, "save")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            if name in partitioned_cases.ASSIGNED:
                sess.run(pv.assign(partitioned_cases.ASSIGNED[name]))
            out["value"] = sess.run(pv.as_tensor()).tolist()
            path = saver.save(sess, os.path.join(d, "model"), global_step=1,
                              write_meta_graph=False)
        out["list_variables"] = [[k, list(s)] for k, s in tf.train.list_variables(path)]
    return out


def main():
    cases = {k: case(k, b) for k, b in partitioned_cases.CASES.items()}
    calls = []
    for kind, kw, shape, dtype in partitioned_cases.PARTITIONER_CALLS:
        part = partitioned_cases.partitioner(tf, kind, kw)
        calls.append(list(part(shape=tf.TensorShape(shape), dtype=tf.as_dtype(dtype))))
    tf_fixture.write("partitioned_expected.json", {"cases": cases, "partitioner_calls": calls})


if __name__ == "__main__":
    main()
