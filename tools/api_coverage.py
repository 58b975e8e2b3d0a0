"""Writes TensorFlow 2.21's public names of tf.compat.v1 and of the model-building modules,
with their signatures, to tests/fixtures/api_coverage.json (developer tool; run with real
TensorFlow's Python: TF_USE_LEGACY_KERAS=1 /opt/tfvenv/bin/python tools/api_coverage.py).

tests/python/test_api_coverage.py compares minitf's names and signatures against it.

Each name maps to {"kind": "function"|"class"|"module"|"value", "params": [...]} where a
param is [name, kind, default]: kind is inspect's parameter kind name, default is the repr of
a plain default (None, bool, int, float, str, tuple of those), "<dtype:float32>" for a dtype,
"<required>" for none, and "<object>" for anything else (compared loosely)."""
import inspect
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
import tensorflow as tf_root  # noqa: E402

v1 = tf_root.compat.v1
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "python"))
import api_coverage_cases as cases  # noqa: E402
OUT = os.path.join(HERE, "..", "tests", "fixtures", "api_coverage.json")

MODULES = ["", "layers", "losses", "metrics", "nn", "math", "linalg", "image", "random",
           "sparse", "initializers", "strings", "io", "data", "lookup", "python_io", "train"]


def params_of(obj):
    return cases.params_of(obj, tf_root.dtypes.DType)


def describe(obj):
    if inspect.ismodule(obj):
        return {"kind": "module"}
    if inspect.isclass(obj):
        return {"kind": "class", "params": params_of(obj)}
    if callable(obj):
        return {"kind": "function", "params": params_of(obj)}
    return {"kind": "value"}


def main():
    result = {"tf_version": tf_root.__version__, "modules": {}}
    for name in MODULES:
        mod = v1 if not name else getattr(v1, name)
        names = {}
        for attr in sorted(dir(mod)):
            if attr.startswith("_"):
                continue
            names[attr] = describe(getattr(mod, attr))
        result["modules"][name] = names
        print("%-14s %d names" % (name or "(top)", len(names)))
    with open(OUT, "w") as f:
        json.dump(result, f, indent=0, sort_keys=True)
    print("wrote", OUT)


if __name__ == "__main__":
    sys.exit(main())
