"""Writes tests/fixtures/checkpoints/: V2 checkpoints written by real TensorFlow 2.21 and
checkpoints.json describing them (each tensor's dtype, shape and values, the tensor_names /
shape_and_slices the SaveV2 node was given, in its order) and TF's error messages for bad
restores. Developer tool only:

    /opt/tfvenv/bin/python tools/gen_checkpoint_fixtures.py

Cases: `basic` (tf.compat.v1.train.Saver over float32/float64/int32/int64/bool/string/half
variables, scalars, an empty tensor), `large` (a 100000-element float32 variable and 1000
strings of lengths up to 299), `many_keys` (SaveV2 of 7000 int8 scalars with long names, so
the index has several 256 KiB blocks), `partitioned` (a variable in 3 partitions: slices),
`merged` (two SaveV2 parts merged by MergeV2Checkpoints) and `sharded` (Saver(sharded=True)).
"""
import base64
import hashlib
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from tf_fixture import tf  # noqa: E402

import numpy as np  # noqa: E402
from tensorflow.python.ops import gen_io_ops  # noqa: E402

OUT = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints")


def encode(value):
    """A numpy value as JSON: dtype, shape, and flat values (floats exactly, as float64
    reprs; strings base64)."""
    a = np.asarray(value)
    if a.dtype == object or a.dtype.kind in "SU":
        vals = [base64.b64encode(x if isinstance(x, bytes) else x.encode()).decode() for x in a.ravel()]
        return {"dtype": "string", "shape": list(a.shape), "b64": vals}
    vals = a.ravel().tolist()
    if a.dtype.kind == "f":
        vals = [float(x) for x in a.ravel().astype(np.float64)]
    return {"dtype": a.dtype.name, "shape": list(a.shape), "values": vals}


def save_inputs(graph):
    """tensor_names and shape_and_slices of each SaveV2 node, in input order."""
    out = []
    for op in graph.get_operations():
        if op.type != "SaveV2":
            continue
        names = tf.make_ndarray(op.inputs[1].op.get_attr("value"))
        specs = tf.make_ndarray(op.inputs[2].op.get_attr("value"))
        out.append({"tensor_names": [n.decode() for n in names],
                    "shape_and_slices": [s.decode() for s in specs]})
    return out


def saver_case(name, build, **saver_kw):
    os.makedirs(os.path.join(OUT, name))
    g = tf.Graph()
    with g.as_default():
        variables = build()
        saver = tf.train.Saver(variables, **saver_kw)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            saver.save(sess, os.path.join(OUT, name, "model"), write_meta_graph=False,
                       write_state=False)
            values = {}
            reader = tf.train.NewCheckpointReader(os.path.join(OUT, name, "model"))
            for key in sorted(reader.get_variable_to_shape_map()):
                values[key] = encode(reader.get_tensor(key))
    return {"prefix": name + "/model", "saves": save_inputs(g), "tensors": values}


def basic():
    rng = np.random.RandomState(0)
    return [
        tf.Variable(rng.randn(2, 3).astype(np.float32), name="w"),
        tf.Variable(np.float64(np.pi), name="d"),
        tf.Variable(np.array([1, -2, 2**31 - 1, -2**31], np.int32), name="i"),
        tf.Variable(np.array([[2**62, -5], [0, 7]], np.int64), name="l"),
        tf.Variable([True, False, True], name="b"),
        tf.Variable([b"", b"hello", b"\xff\x00bin"], name="s"),
        tf.Variable(np.array([0.5, -1.25, 65504], np.float16), name="h"),
        tf.Variable(np.zeros((0, 3), np.float32), name="e"),
        tf.Variable(np.int32(7), name="scope/nested/v"),
        tf.Variable(np.float32(-0.0), name="z"),
    ]


def large():
    strings = [("s%d" % i).encode() * (i % 30) for i in range(1000)]
    return [
        tf.Variable(np.arange(100000, dtype=np.float32).reshape(250, 400) * 0.25 - 1000,
                    name="big"),
        tf.Variable(strings, name="strs"),
    ]


def partitioned():
    init = tf.random_uniform_initializer(-1.0, 1.0, seed=3)
    emb = tf.get_variable("emb", shape=[10, 4], initializer=init,
                          partitioner=tf.fixed_size_partitioner(3))
    other = tf.Variable(np.arange(6, dtype=np.int64), name="other")
    return list(emb) + [other]


def many_key_names(n):
    return ["blk/%05d/%s" % (i, hashlib.sha256(str(i).encode()).hexdigest()[:80]) for i in range(n)]


def many_keys():
    names = many_key_names(7000)
    g = tf.Graph()
    with g.as_default(), tf.Session() as sess:
        vals = [tf.constant(np.int8(i % 256 - 128)) for i in range(len(names))]
        sess.run(gen_io_ops.save_v2(os.path.join(OUT, "many_keys", "model"), names,
                                    [""] * len(names), vals))
    return {"prefix": "many_keys/model", "names": "blk/%05d/ + sha256(str(i)) hex[:80]",
            "count": len(names), "value": "int8(i % 256 - 128)",
            "index_bytes": os.path.getsize(os.path.join(OUT, "many_keys", "model.index"))}


def merged():
    """Two SaveV2 parts in a temp dir merged into merged/model by MergeV2Checkpoints."""
    tmp = os.path.join(OUT, "merged", "model_temp")
    os.makedirs(tmp)
    parts = [os.path.join(tmp, "part-00000-of-00002"), os.path.join(tmp, "part-00001-of-00002")]
    g = tf.Graph()
    with g.as_default(), tf.Session() as sess:
        sess.run(gen_io_ops.save_v2(parts[0], ["c", "a"], ["", ""],
                                    [tf.constant([1.5, 2.5]), tf.constant(np.int64(9))]))
        sess.run(gen_io_ops.save_v2(parts[1], ["b"], [""], [tf.constant(["x", "yz"])]))
        sess.run(gen_io_ops.merge_v2_checkpoints(parts, os.path.join(OUT, "merged", "model")))
    leftover = os.path.exists(tmp)
    return {"prefix": "merged/model", "temp_dir_deleted": not leftover,
            "tensors": {"a": encode(np.int64(9)), "b": encode(np.array([b"x", b"yz"], object)),
                        "c": encode(np.array([1.5, 2.5], np.float32))}}


def error_message(fn):
    g = tf.Graph()
    with g.as_default(), tf.Session() as sess:
        try:
            op = fn()
        except (ValueError, tf.errors.OpError) as e:  # the shape function, at construction
            return {"code": "construction:" + type(e).__name__,
                    "message": str(e).split(" for '{{node")[0]}
        try:
            sess.run(op)
        except tf.errors.OpError as e:
            msg = e.message.split("\n\t [[")[0]
            return {"code": type(e).__name__, "message": msg.split("\n")[-1]}
    return None


def errors():
    prefix = os.path.join(OUT, "basic", "model")
    tmp = tempfile.mkdtemp()
    cases = {
        "missing_key": lambda: gen_io_ops.restore_v2(prefix, ["nope"], [""], [tf.float32]),
        "dtype_mismatch": lambda: gen_io_ops.restore_v2(prefix, ["w", "i"], ["", ""],
                                                        [tf.float64, tf.int64]),
        "spec_shape_mismatch": lambda: gen_io_ops.restore_v2(prefix, ["w"], ["3 3 0,1:-"],
                                                             [tf.float32]),
        "duplicate_key": lambda: gen_io_ops.save_v2(os.path.join(tmp, "dup"), ["a", "a"],
                                                    ["", ""], [1.0, 2.0]),
        "save_slice_mismatch": lambda: gen_io_ops.save_v2(os.path.join(tmp, "sl"), ["a"],
                                                          ["4 0,2"], [[1.0, 2.0, 3.0]]),
        "bad_slice_spec": lambda: gen_io_ops.restore_v2(prefix, ["w"], ["2 3 x"], [tf.float32]),
        "slice_rank_mismatch": lambda: gen_io_ops.restore_v2(prefix, ["w"], ["2 3 0,1"],
                                                             [tf.float32]),
    }
    out = {k: error_message(v) for k, v in cases.items()}
    out["missing_dir"] = error_message(
        lambda: gen_io_ops.save_v2(os.path.join(tmp, "a", "b", "c"), ["w"], [""], [1.0]))
    out["missing_dir"]["message"] = out["missing_dir"]["message"].replace(tmp, "<TMP>")
    out["missing_prefix"] = error_message(
        lambda: gen_io_ops.restore_v2(os.path.join(tmp, "none"), ["w"], [""], [tf.float32]))
    out["missing_prefix"]["message"] = out["missing_prefix"]["message"].replace(tmp, "<TMP>")
    shutil.rmtree(tmp)
    return out


def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    fixtures = {
        "basic": saver_case("basic", basic),
        "large": saver_case("large", large),
        "partitioned": saver_case("partitioned", partitioned),
        "sharded": saver_case("sharded", basic, sharded=True),
        "many_keys": many_keys(),
        "merged": merged(),
    }
    big = fixtures["large"]["tensors"].pop("big")
    fixtures["large"]["big"] = {"dtype": big["dtype"], "shape": big["shape"],
                                "formula": "arange(100000, float32).reshape(250, 400) * 0.25 - 1000"}
    fixtures["errors"] = errors()
    listing = {}
    for root, _, files in os.walk(OUT):
        for f in files:
            rel = os.path.relpath(os.path.join(root, f), OUT)
            listing[rel] = os.path.getsize(os.path.join(root, f))
    fixtures["files"] = listing
    path = os.path.join(OUT, "checkpoints.json")
    with open(path, "w") as f:
        json.dump({"tf_version": tf.__version__, **fixtures}, f, indent=1, sort_keys=True)
    print("wrote", path, "files:", listing)


if __name__ == "__main__":
    main()
