#!/usr/bin/env python3
"""Checks that V2 and V1 checkpoints written by minitf load in real TensorFlow.

Developer tool, two steps (TensorFlow is never a test dependency):

  <minitf venv>/bin/python tools/check_checkpoints_in_tf.py --write DIR
      minitf's SaveV2 / MergeV2Checkpoints write DIR/plain (every dtype, scalars, empty,
      a 1e6-element tensor, strings), DIR/sliced (a [10, 4] tensor saved as 3 slices) and
      DIR/merged (two parts merged), the V1 files of Save / SaveSlices (DIR/v1_plain with
      every dtype V1 saves, DIR/v1_sliced, DIR/v1_shard-0000i-of-00002) and of
      tf.train.Saver(write_version=V1) (DIR/v1_saver/model-5, sharded over two devices in
      DIR/v1_saver_sharded), and DIR/expected.npz with the values.
  /opt/tfvenv/bin/python tools/check_checkpoints_in_tf.py DIR
      TensorFlow reads every tensor back (tf.train.load_checkpoint, RestoreV2 with slice
      specs, Restore / RestoreSlice for V1, a V1 Saver.restore into TF's variables) and
      compares bit for bit. Exit status 0 when all match.
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
    write_v1(out, vals, emb)
    np.savez(os.path.join(out, "expected.npz"), emb=emb, **{k.replace("/", "__"): v
                                                           for k, v in vals.items()})
    print("wrote", out)


V1_KEYS = ["f32", "f64", "f16", "i8", "u8", "i16", "i32", "i64", "bool", "c64", "str",
           "empty", "scope/big"]


def write_v1(out, vals, emb):
    """V1 files: the Save / SaveSlices ops and tf.train.Saver(write_version=V1)."""
    import minitf as tf
    from minitf import raw_ops

    with tf.Session() as sess:
        sess.run(raw_ops.Save(filename=os.path.join(out, "v1_plain"), tensor_names=V1_KEYS,
                              data=[tf.constant(vals[n]) for n in V1_KEYS]))
        sess.run(raw_ops.SaveSlices(
            filename=os.path.join(out, "v1_sliced"), tensor_names=["emb"] * 3,
            shapes_and_slices=["10 4 0,4:0,4", "10 4 4,3:0,4", "10 4 7,3:-"],
            data=[tf.constant(emb[0:4]), tf.constant(emb[4:7]), tf.constant(emb[7:10])]))
        for i, n in enumerate(["f32", "str"]):
            sess.run(raw_ops.Save(filename=os.path.join(out, "v1_shard-%05d-of-00002" % i),
                                  tensor_names=[n], data=[tf.constant(vals[n])]))
    for sub, sharded in [("v1_saver", False), ("v1_saver_sharded", True)]:
        os.makedirs(os.path.join(out, sub), exist_ok=True)  # V1 writers make no directory
        g = tf.Graph()
        with g.as_default():
            with tf.device("/cpu:0"):
                tf.Variable(vals["f32"], name="a")
            with tf.device("/cpu:1" if sharded else "/cpu:0"):
                tf.Variable(vals["i64"], name="b", use_resource=False)
                tf.Variable(vals["str"], name="c")
            saver = tf.train.Saver(write_version=tf.train.SaverDef.V1, sharded=sharded)
            with tf.Session(config=tf.ConfigProto(device_count={"CPU": 2})) as sess:
                sess.run(tf.global_variables_initializer())
                saver.save(sess, os.path.join(out, sub, "model"), global_step=5,
                           write_meta_graph=False)


def check_v1(out, exp):
    import tensorflow as tf
    from tensorflow.python.ops import gen_io_ops

    failures = 0
    plain = os.path.join(out, "v1_plain")
    for name in V1_KEYS:
        want = exp[name.replace("/", "__")]
        got = gen_io_ops.restore(plain, name, tf.as_dtype(want.dtype if want.dtype != object
                                                          else tf.string))
        ok = same(got.numpy(), want)
        failures += not ok
        print("v1_plain", name, "ok" if ok else "MISMATCH")
    sliced = os.path.join(out, "v1_sliced")
    ok = same(gen_io_ops.restore(sliced, "emb", tf.float32).numpy(), exp["emb"])
    ok &= same(gen_io_ops.restore_slice(sliced, "emb", "10 4 3,5:1,2", tf.float32).numpy(),
               exp["emb"][3:8, 1:3])
    failures += not ok
    print("v1_sliced emb (whole and a slice across stored slices)", "ok" if ok else "MISMATCH")
    pattern = os.path.join(out, "v1_shard-?????-of-00002")
    a, b = gen_io_ops.restore_v2(pattern, ["f32", "str"], ["", ""], [tf.float32, tf.string])
    ok = same(a.numpy(), exp["f32"]) and same(b.numpy(), exp["str"])
    failures += not ok
    print("v1 shards through one pattern", "ok" if ok else "MISMATCH")
    v1 = tf.compat.v1
    for sub, sharded in [("v1_saver", False), ("v1_saver_sharded", True)]:
        g = tf.Graph()
        with g.as_default():
            va = v1.Variable(np.zeros((3, 4), np.float32), name="a")
            vb = v1.Variable(np.zeros(2, np.int64), name="b", use_resource=False)
            vc = v1.Variable(np.array([b"", b"", b""], object), name="c")
            saver = v1.train.Saver(write_version=v1.train.SaverDef.V1)
            with v1.Session() as sess:
                latest = v1.train.latest_checkpoint(os.path.join(out, sub))
                saver.restore(sess, latest)
                ga, gb, gc = sess.run([va, vb, vc])
        ok = same(ga, exp["f32"]) and same(gb, exp["i64"]) and same(gc, exp["str"])
        failures += not ok
        print(sub, "Saver.restore", os.path.basename(latest), "ok" if ok else "MISMATCH")
    return failures


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
    failures += check_v1(out, exp)
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
