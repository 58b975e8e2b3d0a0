#!/usr/bin/env python3
"""Checks that TensorProtos written by minitf parse in real TensorFlow.

Developer tool, two steps:

  # 1. with minitf: write our protos (every fixture case re-encoded by
  #    tf.make_tensor_proto and by the C TF_TensorToProto layouts)
  /work/venvs/NAME/bin/python tools/check_tensor_protos_in_tf.py --write /tmp/ours
  # 2. with TensorFlow: decode them with tf.make_ndarray and the C++ decoder
  #    (tf.io.parse_tensor) and compare with the expected arrays
  /opt/tfvenv/bin/python tools/check_tensor_protos_in_tf.py --check /tmp/ours

Exit status 0 when every proto parses and decodes to the expected values.
"""
import argparse
import json
import os
import sys

import numpy as np

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures",
                        "tensor_proto")


def write(out):
    import minitf as tf
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(FIXTURES, "manifest.json")) as f:
        cases = json.load(f)["cases"]
    written = []
    for c in cases:
        if c["dtype"] == "bfloat16":
            continue
        with open(os.path.join(FIXTURES, c["file"]), "rb") as f:
            arr = tf.make_ndarray(tf.TensorProto.FromString(f.read()))
        p = tf.make_tensor_proto(arr, dtype=c["dtype"])
        name = "py_" + c["name"]
        with open(os.path.join(out, name + ".pb"), "wb") as f:
            f.write(p.SerializeToString())
        if c["dtype"] == "string":
            np.save(os.path.join(out, name + ".npy"), np.array([bytes(b).hex() for b in
                                                                 arr.reshape(-1)]))
        else:
            np.save(os.path.join(out, name + ".npy"), arr)
        written.append({"name": name, "dtype": c["dtype"], "shape": list(arr.shape)})
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(written, f)
    print("wrote %d protos to %s" % (len(written), out))


def check(out):
    import tensorflow as tf
    with open(os.path.join(out, "manifest.json")) as f:
        cases = json.load(f)
    bad = 0
    for c in cases:
        with open(os.path.join(out, c["name"] + ".pb"), "rb") as f:
            data = f.read()
        want = np.load(os.path.join(out, c["name"] + ".npy"))
        p = tf.make_tensor_proto(0)
        p.ParseFromString(data)
        py = tf.make_ndarray(p)
        cpp = tf.io.parse_tensor(data, tf.as_dtype(c["dtype"])).numpy()
        for got in (py, cpp):
            if c["dtype"] == "string":
                ok = [bytes(b).hex() if isinstance(b, bytes) else b.encode().hex()
                      for b in np.asarray(got, dtype=object).reshape(-1)] == list(want.reshape(-1))
            else:
                ok = got.shape == want.shape and np.asarray(got).tobytes() == want.tobytes()
            if not ok:
                bad += 1
                print("MISMATCH", c["name"], got, want)
    print("%d protos checked in TensorFlow %s, %d mismatches" % (len(cases), tf.__version__, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--write")
    ap.add_argument("--check")
    a = ap.parse_args()
    if a.write:
        write(a.write)
    if a.check:
        sys.exit(check(a.check))
