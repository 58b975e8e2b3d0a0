"""Writes tests/fixtures/tf_gradient_registry.json: for every op minitf registers (the ops of
tests/fixtures/tf_opdefs.pb), whether TensorFlow 2.21 has a gradient function for it
("gradient"), declares it not differentiable ("none": tf.gradients gives None through it), or
has neither ("missing": tf.gradients raises LookupError). Developer tool:

    /opt/tfvenv/bin/python tools/gen_gradient_registry.py
"""
import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402,F401  (imports every gradient module)
from tensorflow.core.framework import op_def_pb2  # noqa: E402
from tensorflow.python.framework import ops  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures")


def main():
    with open(os.path.join(FIXTURES, "tf_opdefs.pb"), "rb") as f:
        names = sorted(op.name for op in op_def_pb2.OpList.FromString(f.read()).op)
    registry = ops._gradient_registry._registry  # name -> {"type": fn or None, ...}
    out = {}
    for name in names:
        if name not in registry:
            out[name] = "missing"
        else:
            out[name] = "none" if registry[name]["type"] is None else "gradient"
    path = os.path.join(FIXTURES, "tf_gradient_registry.json")
    with open(path, "w") as f:
        json.dump({"tf_version": tf.__version__, "ops": out}, f, indent=1, sort_keys=True)
    print("wrote", path, {k: sum(v == k for v in out.values()) for k in set(out.values())})


if __name__ == "__main__":
    main()
