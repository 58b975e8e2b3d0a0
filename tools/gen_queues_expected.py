"""Writes tests/fixtures/queues_expected.json: what real TensorFlow 2.21 gives for the queue
and reader programs of tests/python/queue_programs.py. Run with /opt/tfvenv/bin/python."""
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "python"))

import tensorflow.compat.v1 as tf  # noqa: E402

import queue_programs  # noqa: E402

tf.disable_eager_execution()


def main():
    out = {}
    for prog in queue_programs.PROGRAMS:
        with tempfile.TemporaryDirectory() as d:
            out[prog.__name__] = prog(tf, d)
    path = os.path.join(HERE, "..", "tests", "fixtures", "queues_expected.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", path)


if __name__ == "__main__":
    main()
