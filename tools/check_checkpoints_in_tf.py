#!/usr/bin/env python3
"""Checks that V2 checkpoints written by minitf load in real TensorFlow.

Developer tool, two steps (TensorFlow is never a test dependency):

  <minitf venv>/bin/python tools/check_checkpoints_in_tf.py --write DIR
      minitf's SaveV2 / MergeV2Checkpoints write DIR/plain (every dtype, scalars, empty,
      a 1e6-element tensor, strings), DIR/sliced (a [10, 4] tensor saved as 3 slices) and
      DIR/merged (two parts merged), and DIR/expected.npz with the values.
  /opt/tfvenv/bin/python tools/check_checkpoints_in_tf.py DIR
      TensorFlow reads every tensor back (tf.train.load_checkpoint, and RestoreV2 with
      slice specs) and compares bit for bit. Exit status 0 when all match.
"""
import argparse
import os
import sys

import numpy as np


def values():
    rng = np.random.RandomState(1)
    return {
        "f32": rng.randn(3, 4).astype(np.float32),
        "f64": np.float64(-2.5e-300),
        "f16": np.array([1.5, -0.0, 65504], np.float16),
        "i8": np.array([-128, 127], np.int8),
        "u8": np.array([0, 255], np.uint8),
        "i16": np.array([-32768], np.int16),
        "i32": np.array([[1, -2], [3, 2**31 - 1]], np.int32),
        "i64": np.array([2**63 - 1, -2**63], np.int64),
        "bool": np.array([True, False]),
        "c64": np.array([1 + 2j], np.complex64),
        "str": np.array([b"", b"x" * 200, b"\x00\xff"], object),
        "empty": np.zeros((0, 5), np.float32),
        "scope/big": np.arange(1000000, dtype=np.float32) / 7,
    }


def write(out):
    import minitf as tf
    from minitf import raw_ops

    os.makedirs(out, exist_ok=True)
    vals = values()
    emb = np.arange(40, dtype=np.float32).reshape(10, 4)
    with tf.Session() as sess:
        names = sorted(vals)
        sess.run(raw_ops.SaveV2(prefix=os.path.join(out, "plain"), tensor_names=names,
                                shape_and_slices=[""] * len(names),
                                tensors=[tf.constant(vals[n]) for n in names]))
        specs = ["10 4 0,4:0,4", "10 4 4,3:0,4", "10 4 7,3:-"]
        sess.run(raw_ops.SaveV2(prefix=os.path.join(out, "sliced"), tensor_names=["emb"] * 3,
                                shape_and_slices=specs,
                                tensors=[tf.constant(emb[0:4]), tf.constant(emb[4:7]),
                                         tf.constant(emb[7:10])]))
        tmp = os.path.join(out, "merged_temp")
        os.makedirs(tmp, exist_ok=True)
        parts = [os.path.join(tmp, "part-00000-of-00002"), os.path.join(tmp, "part-00001-of-00002")]
        sess.run(raw_ops.SaveV2(prefix=parts[0], tensor_names=["a"], shape_and_slices=[""],
                                tensors=[tf.constant(vals["f32"])]))
        sess.run(raw_ops.SaveV2(prefix=parts[1], tensor_names=["b"], shape_and_slices=[""],
                                tensors=[tf.constant(vals["str"])]))
        sess.run(raw_ops.MergeV2Checkpoints(checkpoint_prefixes=parts,
                                            destination_prefix=os.path.join(out, "merged")))
    np.savez(os.path.join(out, "expected.npz"), emb=emb, **{k.replace("/", "__"): v
                                                           for k, v in vals.items()})
    print("wrote", out)


def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if b.dtype == object:
        return a.shape == b.shape and list(a.ravel()) == list(b.ravel())
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def check(out):
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    from tensorflow.python.ops import gen_io_ops

    exp = dict(np.load(os.path.join(out, "expected.npz"), allow_pickle=True))
    failures = 0
    reader = tf.train.load_checkpoint(os.path.join(out, "plain"))
    for key in sorted(k for k in exp if k != "emb"):
        name = key.replace("__", "/")
        ok = same(reader.get_tensor(name), exp[key])
        failures += not ok
        print("plain", name, "ok" if ok else "MISMATCH")
    reader = tf.train.load_checkpoint(os.path.join(out, "sliced"))
    ok = same(reader.get_tensor("emb"), exp["emb"])
    part = gen_io_ops.restore_v2(os.path.join(out, "sliced"), ["emb"], ["10 4 3,5:1,2"],
                                 [tf.float32])[0]
    ok &= same(part.numpy(), exp["emb"][3:8, 1:3])
    failures += not ok
    print("sliced emb (whole and a slice across stored slices)", "ok" if ok else "MISMATCH")
    reader = tf.train.load_checkpoint(os.path.join(out, "merged"))
    ok = same(reader.get_tensor("a"), exp["f32"]) and same(reader.get_tensor("b"), exp["str"])
    failures += not ok
    print("merged a, b", "ok" if ok else "MISMATCH")
    print("FAILED" if failures else "all match", "(TensorFlow %s)" % tf.__version__)
    return 1 if failures else 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("dir")
    p.add_argument("--write", action="store_true")
    a = p.parse_args()
    if a.write:
        write(a.dir)
        return 0
    return check(a.dir)


if __name__ == "__main__":
    sys.exit(main())
