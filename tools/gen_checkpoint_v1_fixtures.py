"""Writes tests/fixtures/checkpoints/v1/: V1 checkpoints (TensorSliceWriter's single-table
files) written by real TensorFlow 2.21 and tests/fixtures/checkpoint_v1_expected.json
describing them. Developer tool only:

    /opt/tfvenv/bin/python tools/gen_checkpoint_v1_fixtures.py

- raw/: files written by the Save / SaveSlices ops: `dtypes` (one tensor of every dtype V1
  saves, negative and extreme values, scalars, an empty tensor, strings), `slices` (a [4,3]
  tensor saved as two row slices plus a whole int32), `shard-0000i-of-00002` (two files read
  through one pattern), with the inputs each op was given and each tensor's values.
- saver/<case>/: tf.train.Saver(write_version=V1) over the graphs of
  tests/python/saver_cases.py: the save/ nodes, SaverDef, values, state file, files and
  list_variables TF gives.
- errors: TF's error class and message for bad V1 restores and saves, and what
  NewCheckpointReader says of a V1 file.
"""
import base64
import json
import os
import shutil

import numpy as np
from google.protobuf import text_format

import tf_fixture
from tf_fixture import tf
from tensorflow.python.ops import gen_io_ops

import saver_cases

ROOT = os.path.join(tf_fixture.HERE, "..", "tests", "fixtures", "checkpoints", "v1")
V1 = tf.train.SaverDef.V1


def encode(value):
    """dtype, shape and flat values (floats as float64, strings base64, complex as pairs)."""
    a = np.asarray(value)
    if a.dtype == object or a.dtype.kind in "SU":
        vals = [base64.b64encode(x if isinstance(x, bytes) else x.encode()).decode()
                for x in a.ravel()]
        return {"dtype": "string", "shape": list(a.shape), "b64": vals}
    if a.dtype.kind == "c":
        vals = [[float(x.real), float(x.imag)] for x in a.ravel()]
    elif a.dtype.kind == "f":
        vals = [float(x) for x in a.ravel().astype(np.float64)]
    else:
        vals = a.ravel().tolist()
    return {"dtype": a.dtype.name, "shape": list(a.shape), "values": vals}


def dtype_tensors():
    """name -> (tf dtype name, numpy value) for every dtype the V1 writer saves."""
    return {
        "f32": ("float32", np.array([[1.5, -0.0, 3.4e38], [-1e-45, np.inf, -2.25]], np.float32)),
        "f64": ("float64", np.array([np.pi, -1e308, 5e-324], np.float64)),
        "i32": ("int32", np.array([-2147483648, 2147483647, 0, -7], np.int32)),
        "i64": ("int64", np.array([-(1 << 63), (1 << 63) - 1, 3], np.int64)),
        "u8": ("uint8", np.array([0, 255, 7], np.uint8)),
        "i8": ("int8", np.array([[-128, 127], [-1, 0]], np.int8)),
        "i16": ("int16", np.array([-32768, 32767, -2], np.int16)),
        "u16": ("uint16", np.array([0, 65535, 300], np.uint16)),
        "f16": ("float16", np.array([1.5, -2.0, 65504.0, -0.0], np.float16)),
        "b": ("bool", np.array([True, False, True])),
        "c64": ("complex64", np.array([1.5 - 2j, 0j], np.complex64)),
        "c128": ("complex128", np.array([[-1e300 + 3j]], np.complex128)),
        "s": ("string", np.array([b"hello", b"", b"\x00\xff bytes", b"x" * 300], object)),
        "scalar": ("float32", np.float32(42.5)),
        "empty": ("float32", np.zeros([0, 3], np.float32)),
        "q8": ("qint8", np.array([-3, 4], np.int8)),
        "qu8": ("quint8", np.array([250, 4], np.uint8)),
        "q32": ("qint32", np.array([-70000, 9], np.int32)),
    }


def const(dtype, value):
    dt = tf.as_dtype(dtype)
    if dt.is_quantized:
        base = {"qint8": tf.int8, "quint8": tf.uint8, "qint32": tf.int32}[dtype]
        return tf.bitcast(tf.constant(value, base), dt)
    return tf.constant(value, dt)


def run(fn):
    g = tf.Graph()
    with g.as_default(), tf.Session() as sess:
        return sess.run(fn())


def raw_files():
    d = os.path.join(ROOT, "raw")
    os.makedirs(d)
    out = {}
    tens = dtype_tensors()
    names = list(tens)  # not sorted: the op sorts them itself
    run(lambda: gen_io_ops.save(os.path.join(d, "dtypes"), names,
                                [const(*tens[n]) for n in names]))
    out["dtypes"] = {"tensor_names": names,
                     "tensors": {n: dict(encode(tens[n][1]), tf_dtype=tens[n][0])
                                 for n in names}}
    w = np.arange(12, dtype=np.float32).reshape(4, 3) * 0.5 - 2
    specs = ["4 3 2,2:-", "4 3 0,2:-", ""]
    run(lambda: gen_io_ops.save_slices(os.path.join(d, "slices"), ["w", "w", "i"], specs,
                                       [tf.constant(w[2:]), tf.constant(w[:2]),
                                        tf.constant(7)]))
    out["slices"] = {"tensor_names": ["w", "w", "i"], "shapes_and_slices": specs,
                     "tensors": {"w": encode(w), "i": encode(np.int32(7))},
                     "restore_slice": {"4 3 1,2:0,2": encode(w[1:3, 0:2]),
                                       "4 3 -:2,1": encode(w[:, 2:3])}}
    a, b = np.array([1.0, 2.0], np.float32), np.array([[3, 4]], np.int64)
    run(lambda: [gen_io_ops.save(os.path.join(d, "shard-00000-of-00002"), ["a"],
                                 [tf.constant(a)]),
                 gen_io_ops.save(os.path.join(d, "shard-00001-of-00002"), ["b"],
                                 [tf.constant(b)])])
    out["shards"] = {"pattern": "shard-?????-of-00002",
                     "tensors": {"a": encode(a), "b": encode(b)}}
    return out


def _record(g, saver, sess, var_list, case_dir, step):
    path = saver.save(sess, os.path.join(case_dir, "model"), global_step=step,
                      write_meta_graph=False)
    return {
        "nodes": saver_cases.save_nodes(g, saver.saver_def.restore_op_name.split("/")[0]),
        "saver_def": text_format.MessageToString(saver.as_saver_def()),
        "values": saver_cases.values_of(sess, var_list),
        "returned_path": os.path.relpath(path, case_dir),
        "list_variables": [[k, list(s)] for k, s in tf.train.list_variables(path)],
        "files": sorted(os.listdir(case_dir)),
        "state": open(os.path.join(case_dir, "checkpoint")).read(),
    }


def saver_case(name, build):
    case_dir = os.path.join(ROOT, "saver", name)
    os.makedirs(case_dir)
    g = tf.Graph()
    with g.as_default():
        var_list, kwargs = build(tf)
        saver = tf.train.Saver(var_list, save_relative_paths=True, write_version=V1, **kwargs)
        if var_list is None:
            var_list = tf.global_variables()
        with tf.Session(config=saver_cases.session_config(tf)) as sess:
            sess.run(tf.global_variables_initializer())
            train = tf.get_collection("train_op")
            if train:
                sess.run(train[0])
            return _record(g, saver, sess, var_list, case_dir, 3)


def _err(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the class and text are the result
        msg = getattr(e, "message", str(e))
        # The op's own words: the line before TF's "\t [[{{node ...}}]]" trailer.
        return [type(e).__name__, msg.split("\n\t [[")[0].split("\n")[-1]]
    return None


def errors():
    d = os.path.join(ROOT, "raw")
    sl = os.path.join(d, "slices")
    out = {
        "missing_name": _err(lambda: run(lambda: gen_io_ops.restore(sl, "nope", tf.float32))),
        "dtype": _err(lambda: run(lambda: gen_io_ops.restore(sl, "i", tf.float32))),
        "v2_dtype": _err(lambda: run(lambda: gen_io_ops.restore_v2(
            sl, ["w", "i"], ["", ""], [tf.float32, tf.int64]))),
        "spec_shape": _err(lambda: run(lambda: gen_io_ops.restore_slice(
            sl, "w", "5 3 1,2:0,2", tf.float32))),
        "no_files": _err(lambda: run(lambda: gen_io_ops.restore(
            os.path.join(d, "none"), "w", tf.float32))),
        "bfloat16": _err(lambda: run(lambda: gen_io_ops.save(
            "/tmp/unused_v1", ["x"], [tf.constant([1.0], tf.bfloat16)]))),
        "uint32": _err(lambda: run(lambda: gen_io_ops.save(
            "/tmp/unused_v1", ["x"], [tf.constant([1], tf.uint32)]))),
        "slice_mismatch": _err(lambda: run(lambda: gen_io_ops.save_slices(
            "/tmp/unused_v1", ["x"], ["4 0,2"], [tf.constant([1.0, 2.0, 3.0])]))),
    }
    junk = os.path.join(d, "not_a_table")
    with open(junk, "w") as f:
        f.write("this file is not a table, " * 4)
    out["not_a_table"] = _err(lambda: run(lambda: gen_io_ops.restore(junk, "w", tf.float32)))
    part = "/tmp/v1_fixture_partial"
    run(lambda: gen_io_ops.save_slices(part, ["w"], ["4 3 0,2:-"], [tf.zeros([2, 3])]))
    out["not_covered"] = _err(lambda: run(lambda: gen_io_ops.restore(part, "w", tf.float32)))
    dup = "/tmp/v1_fixture_dup"
    run(lambda: gen_io_ops.save(dup, ["x", "x"], [tf.constant([1.0]), tf.constant([2.0])]))
    out["overlap"] = _err(lambda: run(lambda: gen_io_ops.restore(dup, "x", tf.float32)))
    os.remove(part)
    os.remove(dup)
    reader = tf.train.NewCheckpointReader(sl)
    out["reader_shapes"] = dict(sorted(reader.get_variable_to_shape_map().items()))
    out["reader_dtypes"] = {k: v.name for k, v in
                            sorted(reader.get_variable_to_dtype_map().items())}
    out["reader_debug_string"] = reader.debug_string().decode()
    out["reader_get_i"] = encode(reader.get_tensor("i"))
    out["reader_get_sliced"] = _err(lambda: reader.get_tensor("w"))
    out["reader_get_missing"] = _err(lambda: reader.get_tensor("nope"))
    out["reader_not_a_table"] = _err(lambda: tf.train.NewCheckpointReader(junk))
    out["list_variables"] = [[k, list(s)] for k, s in tf.train.list_variables(sl)]
    pattern = os.path.join(d, "shard-?????-of-00002")
    out["shards_list_variables"] = [[k, list(s)] for k, s in tf.train.list_variables(pattern)]
    out["shards_load_b"] = encode(tf.train.load_variable(pattern, "b"))
    dts = os.path.join(d, "dtypes")
    r2 = tf.train.NewCheckpointReader(dts)
    got = {}
    for n in sorted(r2.get_variable_to_shape_map()):
        try:
            got[n] = encode(r2.get_tensor(n))
        except Exception as e:  # noqa: BLE001
            got[n] = [type(e).__name__, str(e)]
    out["reader_dtypes_get"] = got
    os.remove(junk)
    return out


CASES = ["resource", "ref", "dict_list", "dtypes", "named", "sharded2", "slots"]


def main():
    shutil.rmtree(ROOT, ignore_errors=True)
    os.makedirs(ROOT)
    payload = {"raw": raw_files(), "saver": {n: saver_case(n, saver_cases.CASES[n])
                                             for n in CASES}}
    payload["errors"] = errors()
    # Paths in messages are relative to the fixture directory: "<ROOT>/raw/slices".
    payload = json.loads(json.dumps(payload).replace(ROOT, "<ROOT>"))
    tf_fixture.write("checkpoint_v1_expected.json", payload)


if __name__ == "__main__":
    main()
