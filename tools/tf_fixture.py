"""What the tools/gen_*_expected.py scripts share (developer tool, run with real TensorFlow's
Python): `tf` is TensorFlow 2.21's tf.compat.v1 in graph mode, the case modules of
tests/python are importable, and write() stores a fixture under tests/fixtures."""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "python"))

import tensorflow.compat.v1 as tf  # noqa: E402

tf.disable_eager_execution()


def write(name, payload, indent=1, note=""):
    """Writes {"tf_version": ..., **payload} to tests/fixtures/<name> as sorted JSON."""
    path = os.path.join(HERE, "..", "tests", "fixtures", name)
    with open(path, "w") as f:
        json.dump({"tf_version": tf.__version__, **payload}, f, indent=indent, sort_keys=True)
    print("wrote", path, note)
